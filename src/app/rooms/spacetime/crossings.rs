//! Which arrows a cut crosses: orphans (received before the cut, sent after it) and records in
//! transit (sent before it, received after it or never), for a drawn cut and for the restore
//! point the engine reports; which arrows are drawn; and a drawn cut judged.

use super::drawing::MAX_ARROWS;
use crate::engine::space_time::{thin, Diagram, Message};
use crate::engine::verdict::drawn_cut::{classify, restore_from};
use crate::engine::{Crossing, CutReport, CutRestore, DrawnCut, DrawnCutError, RecordId, Timeline};

/// A drawn cut judged: its crossings (or why it can't be judged), and a restore from it when it is
/// consistent.
pub type Judged = Option<(Result<DrawnCut, DrawnCutError>, Option<Result<CutRestore, DrawnCutError>>)>;

/// The copy restored from a drawn cut runs at most this many steps to its end.
const RESTORE_LIMIT: usize = 20_000;

/// How each message crosses a cut of points: orphan (sent after the sender's point, received at
/// or before the receiver's) or in transit (sent at or before the sender's point, received after
/// the receiver's or never), for the records `named` on their channel (None: every record).
pub fn crossings(
    d: &Diagram,
    pts: &[Option<u64>],
    named: impl Fn(&Message, Crossing) -> bool,
) -> Vec<Option<Crossing>> {
    d.messages
        .iter()
        .map(|m| {
            m.record()?;
            let (ps, pr) = (pts.get(m.from.index()).copied().flatten()?, pts.get(m.to.index()).copied().flatten()?);
            let c = if m.sent_at > ps && m.received_at.is_some_and(|r| r <= pr) {
                Crossing::Orphan
            } else if m.sent_at <= ps && m.received_at.is_none_or(|r| r > pr) {
                Crossing::InTransit
            } else {
                return None;
            };
            named(m, c).then_some(c)
        })
        .collect()
}

/// The current cut's points (a save at tick k ends step k + 1) and whether the engine names
/// `m`'s record on its channel as crossing it.
pub fn current_points(cut: &CutReport) -> Vec<Option<u64>> {
    cut.taken_at.iter().map(|t| t.map(|t| t + 1)).collect()
}

pub fn named_in(cut: &CutReport, m: &Message, c: Crossing) -> bool {
    let Some(r) = m.record() else { return false };
    cut.channels.iter().any(|cc| {
        cc.channel == m.channel
            && match c {
                Crossing::Orphan => cc.orphans.contains(&r),
                Crossing::InTransit => cc.in_transit.contains(&r),
            }
    })
}

/// The arrows drawn in the steps in view: at most `MAX_ARROWS` (half in presenter mode), and
/// always those a cut crosses and the hovered record's.
pub fn arrows_kept(
    d: &Diagram,
    current: &[Option<Crossing>],
    drawn: &[Option<Crossing>],
    hovered: Option<RecordId>,
    from: u64,
    to: u64,
    presenter: bool,
) -> Vec<bool> {
    let must: Vec<bool> = (0..d.messages.len())
        .map(|i| {
            current[i].is_some()
                || drawn[i].is_some()
                || (d.messages[i].record().is_some() && d.messages[i].record() == hovered)
        })
        .collect();
    thin(d, from, to, &must, if presenter { MAX_ARROWS / 2 } else { MAX_ARROWS })
}

/// A drawn cut judged on a run: its crossings (or why it can't be judged), and when it is
/// consistent what a restore from it does.
pub fn judge(tl: &Timeline, p: &[u64]) -> (Result<DrawnCut, DrawnCutError>, Option<Result<CutRestore, DrawnCutError>>) {
    let cut = classify(tl, p);
    let restore = cut.is_ok().then(|| restore_from(tl, p, RESTORE_LIMIT).map(|(_, r)| r));
    (cut, restore)
}

/// The arrows the restore point now crosses, as the engine names them.
pub fn current_crossings(
    d: &Diagram,
    current: Option<&CutReport>,
    cur_pts: Option<&[Option<u64>]>,
) -> Vec<Option<Crossing>> {
    match current {
        Some(c) => crossings(d, cur_pts.unwrap_or(&[]), |m, x| named_in(c, m, x)),
        None => vec![None; d.messages.len()],
    }
}

/// The arrows the learner's cut crosses, once it is judged.
pub fn drawn_crossings(d: &Diagram, judged: &Judged, pts: &[Option<u64>]) -> Vec<Option<Crossing>> {
    match judged {
        Some((Ok(cut), _)) => {
            let named = |m: &Message, _| {
                cut.arrows
                    .iter()
                    .any(|a| a.channel == m.channel && Some(a.record) == m.record() && a.sent_at == Some(m.sent_at))
            };
            crossings(d, pts, named)
        }
        _ => vec![None; d.messages.len()],
    }
}
