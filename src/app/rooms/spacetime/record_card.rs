//! The hovered record, as the main screen's views tell it. While the room is open the canvas,
//! the ledger ("Verdict: each record") and the narration ("What happened") are hidden under it, so
//! hovering an arrow (or a record in the room's lists) shows here what those views would light:
//! the record's row of the main run's ledger now, and the narration's lines about it at every
//! step where one of its arrows was sent or received (the narration's own words,
//! `engine::wording::narrate_common`, from the run's own events, `Timeline::events_between`).

use yew::prelude::*;

use crate::app::text::{verdict_mark_now, Lang};
use crate::classroom::Session;
use crate::engine::space_time::Diagram;
use crate::engine::wording::narrate_common;
use crate::engine::{Event, RecordId};

/// The record an event is about, for the events that carry one.
fn about(e: &Event) -> Option<RecordId> {
    match e {
        Event::Read { record, .. }
        | Event::Processed { record, .. }
        | Event::SinkWrite { record, .. }
        | Event::RecordDiscarded { record, .. }
        | Event::InFlightRecorded { record, .. }
        | Event::Replayed { record, .. } => Some(*record),
        _ => None,
    }
}

/// The steps (1-based, up to the playhead) at which `record`'s arrows were sent or received,
/// each with the narration's lines about it.
pub fn record_story(session: &Session, d: &Diagram, record: RecordId, lang: Lang) -> Vec<(u64, Vec<String>)> {
    let tl = &session.timeline;
    let pos = tl.position() as u64;
    let mut steps: Vec<u64> = d
        .messages
        .iter()
        .filter(|m| m.record() == Some(record))
        .flat_map(|m| [Some(m.sent_at), m.received_at])
        .flatten()
        .filter(|&s| s >= 1 && s <= pos)
        .collect();
    crate::engine::core::stable_sort::sort_stable_by(&mut steps, |a, b| a.cmp(b));
    steps.dedup();
    let g = &session.sim().graph;
    steps
        .into_iter()
        .map(|s| {
            let events = tl.events_between(s as usize - 1, s as usize).into_iter().flat_map(|(_, ev)| ev);
            let lines =
                events.filter(|e| about(e) == Some(record)).filter_map(|e| narrate_common(&e, g, lang)).collect();
            (s, lines)
        })
        .collect()
}

/// What the card shows of `record`: its label, its ledger row now, whether the job is down, and
/// its story.
pub fn card_of(
    session: &Session,
    d: &Diagram,
    r: RecordId,
    l: Lang,
) -> Option<(String, u32, u32, crate::engine::Verdict, bool, Vec<(u64, Vec<String>)>)> {
    let sim = session.sim();
    let ledger = sim.ledger();
    let row = ledger.rows.iter().find(|x| x.record == r)?;
    let story = record_story(session, d, r, l);
    Some((row.label.clone(), row.state, row.expected_state, row.state_verdict, sim.down().is_some(), story))
}

#[derive(Properties, PartialEq)]
pub struct CardProps {
    pub lang: Lang,
    /// The hovered record's label, its ledger row now (count, failure-free count, verdict, the
    /// job down) and its story.
    pub hovered: Option<(String, u32, u32, crate::engine::Verdict, bool, Vec<(u64, Vec<String>)>)>,
}

/// The card under the diagram.
#[component]
pub fn RecordCard(props: &CardProps) -> Html {
    let l = props.lang;
    let Some((label, state, expected, verdict, down, story)) = &props.hovered else {
        return html! {
            <p id="st-record" class="st-record hint">{ l.t(
                "Hover an arrow to see its record here as the ledger and the narration under the diagram tell it.",
                "把鼠标移到一个箭头上，这里会显示它的记录在账本和旁白中的样子（它们在时空图下面被遮住了）。") }</p>
        };
    };
    let (sym, word) = verdict_mark_now(l, *verdict, *down);
    let row = match l {
        Lang::En => format!(
            "Record {label} — in the ledger now: {sym} {word} (counted {state}, {expected} in the failure-free run)"
        ),
        Lang::Zh => format!("记录 {label}——账本现在：{sym} {word}（计入 {state} 次，无故障运行中 {expected} 次）"),
    };
    html! {
        <div id="st-record" class="st-record" data-record={label.clone()} data-verdict={verdict.id()} aria-live="polite">
            <p class="st-record-row"><b>{ row }</b></p>
            <ol class="st-record-story">
                { for story.iter().map(|(s, lines)| html! {
                    <li data-step={s.to_string()}>
                        <b>{ match l { Lang::En => format!("step {s}: "), Lang::Zh => format!("第 {s} 步：") } }</b>
                        { if lines.is_empty() { l.t("(no line in the narration)", "（旁白中没有这一行）").to_string() } else { lines.join(" · ") } }
                    </li>
                }) }
            </ol>
        </div>
    }
}
