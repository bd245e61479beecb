//! The built-in lessons, in English and Simplified Chinese: the files under `lessons/`, in the
//! lesson-file format a teacher writes too (`lesson_file.rs`). They retell the two articles in
//! `shared/seeds` with the vocabulary of `shared/reference/checkpointing-mechanisms.md`;
//! `lesson_check.rs` plays each one through and checks what its words claim, and the tests below
//! check each lesson's reveals against the engine. `build.rs` lists the files; their texts are
//! parsed when the lessons' part of the page loads, so the first screen never fetches their words.
//! A lesson opened from a file or a link joins them, after the built-in ones.

use std::cell::Cell;

use super::lesson_file::{self, LessonError};
use super::lessons::Lesson;

/// The built-in lesson files: name and text, in the catalogue's order.
pub const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/lesson_files.rs"));

/// The built-in lessons, parsed (once per thread: a page has one).
fn parse_builtins() -> &'static [Lesson] {
    let lessons: Vec<Lesson> = FILES
        .iter()
        .map(|(name, text)| {
            lesson_file::parse(text)
                .unwrap_or_else(|e| panic!("lessons/{name}: {}", e.message(crate::engine::Lang::En)))
        })
        .collect();
    Box::leak(lessons.into_boxed_slice())
}

thread_local! {
    static BUILTINS: Cell<Option<&'static [Lesson]>> = const { Cell::new(None) };
    /// The built-in lessons and, after them, the lesson opened from a file (with its text).
    static LOADED: Cell<Option<&'static [Lesson]>> = const { Cell::new(None) };
    static FILE_TEXT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

fn builtins_now() -> &'static [Lesson] {
    BUILTINS.with(|b| match b.get() {
        Some(l) => l,
        None => {
            let l = parse_builtins();
            b.set(Some(l));
            l
        }
    })
}

/// The built-in lessons (natively and in tests; in the split page only once [`register`]ed).
pub fn builtins() -> &'static [Lesson] {
    loaded().map_or(&[], |l| &l[..FILES.len().min(l.len())])
}

/// The lessons, once they are there. Natively and in tests they always are. In the split page
/// they are in the lessons' part (`app/room_loader.rs`), which registers them when it loads: the
/// first screen never fetches their words.
pub fn loaded() -> Option<&'static [Lesson]> {
    if let Some(l) = LOADED.with(Cell::get) {
        return Some(l);
    }
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return None;
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    {
        register();
        LOADED.with(Cell::get)
    }
}

/// Makes the lessons available: called by the lessons' part when it loads.
pub fn register() {
    if LOADED.with(Cell::get).is_none() {
        LOADED.with(|l| l.set(Some(builtins_now())));
    }
}

/// Opens a lesson file: it joins the built-in lessons (in place of the last file opened).
/// Returns its place in [`loaded`]; a broken file leaves the lessons as they were.
pub fn open_file(text: &str) -> Result<usize, LessonError> {
    // A built-in lesson's own file is that lesson.
    if let Some(i) = FILES.iter().position(|(_, t)| *t == text) {
        return Ok(i);
    }
    let lesson = lesson_file::parse(text)?;
    let mut all: Vec<Lesson> = builtins_now().to_vec();
    all.push(lesson);
    LOADED.with(|l| l.set(Some(Box::leak(all.into_boxed_slice()))));
    FILE_TEXT.with(|t| *t.borrow_mut() = Some(text.to_string()));
    Ok(FILES.len())
}

/// The text of lesson `i`, if it was opened from a file (a saved run keeps it, so its link or
/// file opens the lesson too).
pub fn file_text(i: usize) -> Option<String> {
    (i >= FILES.len()).then(|| FILE_TEXT.with(|t| t.borrow().clone())).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::lessons::parse_line;
    use crate::classroom::lessons::{Judge, OnDiagram, Shows};
    use crate::classroom::progress::{actions_for, Progress};
    use crate::engine::ledger::Verdict;
    use crate::engine::{AbortReason, CheckpointId, CheckpointStatus, RestoreFrom};
    use crate::engine::{Action, Event, Sim, TxnId};
    use crate::engine::{HighAvailability, SinkMode};

    /// Plays a whole lesson, revealing every prediction; returns the final simulation.
    fn play_all(i: usize) -> Sim {
        play_to(i, builtins()[i].steps.len() - 1)
    }

    #[test]
    fn every_lesson_plays_through_and_has_both_languages() {
        assert!(!builtins().is_empty());
        for (i, lesson) in builtins().iter().enumerate() {
            for s in lesson.steps {
                assert!(!s.say.en.is_empty() && !s.say.zh.is_empty(), "{}", lesson.id);
                assert_eq!(s.predict.is_some(), s.reveal.is_some(), "{}", lesson.id);
            }
            play_all(i);
        }
    }

    #[test]
    fn lesson_1_counts_abc() {
        let sim = play_all(0);
        let l = sim.ledger();
        assert_eq!(l.row("a").unwrap().state, 1);
        assert_eq!(sim.source_offset(crate::engine::TaskId(0)), 3);
    }

    /// Plays lesson `i` up to and including step `step`, with that step revealed; returns the
    /// simulation of the current segment (since the last restart).
    fn play_to(i: usize, step: usize) -> Sim {
        crate::classroom::lesson_check::played(i, step, true).unwrap_or_else(|e| panic!("{e}"))
    }

    fn index(id: &str) -> usize {
        builtins().iter().position(|l| l.id == id).unwrap_or_else(|| panic!("no lesson {id}"))
    }

    fn labels(sim: &Sim, records: Vec<crate::engine::RecordId>) -> Vec<&str> {
        records.into_iter().map(|r| sim.record_label(r)).collect()
    }

    /// Words that state something about the run as the canvas shows it (any of these), what they
    /// speak of, and which claims back them.
    type Spoken = (&'static [&'static str], &'static str, fn(&Shows) -> bool);
    const SPOKEN: &[Spoken] = &[
        (&["block"], "blocked channels", |c| matches!(c, Shows::Blocked(_) | Shows::NothingBlocked)),
        (&["complete"], "a completed checkpoint or batch", |c| matches!(c, Shows::Completed(_) | Shows::BatchDone(_))),
        (&["pending", "trigger"], "a checkpoint in progress", |c| {
            matches!(c, Shows::Pending(_) | Shows::NonePending | Shows::Completed(_))
        }),
        (&["backpressure"], "backpressure", |c| matches!(c, Shows::Backpressured(_))),
        (&["fails", "crashes"], "the job down", |c| matches!(c, Shows::Down)),
        (&["nimbus dies", "jobmanager fails", "a fails"], "the master down", |c| matches!(c, Shows::MasterDown)),
        (&["do not notice", "nothing stops"], "a job still running", |c| matches!(c, Shows::Running)),
        (&["leads", "election"], "the leader", |c| matches!(c, Shows::Leader(_) | Shows::MasterDown)),
        (&["its files stay", "go with it", "left in storage"], "what storage holds", |c| {
            matches!(c, Shows::InStorage(_))
        }),
    ];

    #[test]
    fn every_step_shows_what_its_words_say() {
        let mut claims = 0;
        for (i, lesson) in builtins().iter().enumerate() {
            for (k, step) in lesson.steps.iter().enumerate() {
                let at = format!("{} step {}", lesson.id, k + 1);
                let sim = play_to(i, k);
                for claim in step.shows {
                    claim.check(&sim).unwrap_or_else(|e| panic!("{at}: {e}"));
                    claims += 1;
                }
                // A step that plays nothing introduces ideas; a prediction's words are checked
                // against the ledger by the tests below.
                if step.play.is_empty() || step.predict.is_some() {
                    continue;
                }
                let words = step.say.en.to_lowercase();
                for (keys, what, backs) in SPOKEN {
                    if keys.iter().any(|key| words.contains(key)) {
                        assert!(step.shows.iter().any(backs), "{at} speaks of {what} but claims none: {words}");
                    }
                }
            }
        }
        assert!(claims >= 30, "{claims} claims");
    }

    #[test]
    fn a_claim_that_does_not_hold_is_caught() {
        let i = index("alignment");
        let sim = play_to(i, 2);
        assert!(Shows::Blocked("Left->Count".into()).check(&sim).is_ok());
        assert!(Shows::NothingBlocked.check(&sim).is_err());
        assert!(Shows::Completed(1).check(&sim).is_err());
        assert!(Shows::Backpressured("Left".into()).check(&sim).is_err());
        assert!(Shows::Down.check(&sim).is_err());
    }

    #[test]
    fn lessons_have_the_agreed_shape() {
        let mut ids = std::collections::BTreeSet::new();
        for (i, lesson) in builtins().iter().enumerate() {
            assert!(ids.insert(lesson.id), "duplicate id {}", lesson.id);
            let n = format!("{}. ", i + 1);
            assert!(lesson.title.en.starts_with(&n) && lesson.title.zh.starts_with(&n), "{}", lesson.id);
            assert!((4..=8).contains(&lesson.steps.len()), "{}: {} steps", lesson.id, lesson.steps.len());
            let first = &lesson.steps[0];
            assert!(first.play.is_empty() && first.restart.is_none() && first.predict.is_none(), "{}", lesson.id);
            for (k, s) in lesson.steps.iter().enumerate() {
                for line in s.play {
                    match crate::classroom::lessons::RestoreInto::parse(line) {
                        Some(r) => drop(r.unwrap_or_else(|e| panic!("{}: {e}", lesson.id))),
                        None => drop(parse_line(line).unwrap_or_else(|e| panic!("{}: {e}", lesson.id))),
                    }
                }
                for text in [s.say, s.reveal.unwrap_or(s.say)] {
                    assert!(!text.en.trim().is_empty() && !text.zh.trim().is_empty(), "{} step {}", lesson.id, k + 1);
                }
                if s.predict.is_some() {
                    assert!(!s.play.is_empty(), "{} step {}: a prediction holds back the crash", lesson.id, k + 1);
                    // Every segment ends with its prediction.
                    let next = lesson.steps.get(k + 1);
                    assert!(next.is_none_or(|n| n.restart.is_some()), "{} step {}", lesson.id, k + 1);
                }
            }
            let predictions = lesson.steps.iter().filter(|s| s.predict.is_some()).count();
            let expected = match lesson.id {
                "state" | "draw-a-cut" => 0,
                "sinks" | "master" | "micro-batches" | "changed-program" => 3,
                _ => 1,
            };
            assert_eq!(predictions, expected, "{}", lesson.id);
            if expected > 0 {
                assert!(lesson.steps.last().unwrap().predict.is_some(), "{}", lesson.id);
            }
        }
        assert_eq!(builtins().len(), 15);
    }

    /// Lesson 13: from a socket, without the log f, g, h are lost; with it nothing is lost and
    /// batch 1's output is written twice (it completed, but the crash came before the metadata
    /// checkpoint said so); with a transactional output, exactly once. The latency its last
    /// reveal quotes is the band's.
    #[test]
    fn micro_batches_lesson_reveals_what_it_says() {
        let i = index("micro-batches");
        let lesson = &builtins()[i];
        assert_eq!(SPARK_STORY[1..], *SPARK_REST);
        assert!(
            lesson.steps.iter().any(|s| s.play == SPARK_REST) && lesson.steps.iter().any(|s| s.play == SPARK_STORY)
        );
        let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
        let outcomes = [
            (vec!["a", "b", "c", "d", "e"], vec!["f", "g", "h"], vec![]),
            (vec!["f", "g", "h"], vec![], vec!["a", "b", "c", "d", "e"]),
            (vec!["a", "b", "c", "d", "e", "f", "g", "h"], vec![], vec![]),
        ];
        for (k, (once, lost, twice)) in predicts.iter().zip(outcomes) {
            let mut p = Progress::new(i);
            p.step = *k;
            let (_, mut sim, actions) = actions_for(&p).unwrap();
            for a in actions {
                sim.step(a).unwrap();
            }
            for line in lesson.steps[*k].play {
                crate::classroom::play_lines(&mut sim, &[line]).unwrap();
            }
            let l = sim.ledger();
            assert_eq!(l.external_labels(Verdict::ExactlyOnce), once, "step {k}");
            assert_eq!(l.external_labels(Verdict::Lost), lost, "step {k}");
            assert_eq!(l.external_labels(Verdict::Duplicated), twice, "step {k}");
            if *k == predicts[2] {
                let a = sim.graph.records.iter().position(|r| r.label == "a").unwrap();
                let seen = sim
                    .external()
                    .visible()
                    .iter()
                    .filter(|r| r.record.0 as usize == a)
                    .map(|r| r.tick + 1)
                    .min()
                    .unwrap();
                assert_eq!(seen - sim.durable_spark().received[a], 19, "a waited 19 steps");
            }
        }
    }

    /// Lesson 12: Nimbus stops nothing; without HA the job comes back in two steps, from the
    /// retained checkpoint (ids from its id + 1) or from nothing (ids from 1); with a standby in one
    /// step, from the HA store's checkpoint, ids rising. Each reveal's words against the run.
    #[test]
    fn lesson_12_the_master_fails() {
        let i = index("master");
        let lesson = &builtins()[i];
        let nimbus = play_to(i, 1);
        assert!(nimbus.running() && !nimbus.jobmanager_up());
        assert_eq!(nimbus.stats.failovers[0].steps_down(), Some(0));
        let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
        let runs: Vec<Sim> = predicts.iter().map(|k| play_to(i, *k)).collect();
        for k in &predicts {
            assert_eq!(lesson.steps[*k - 1].play, MASTER_STORY, "the file's story is the one this test models");
        }
        // Before each crash the same run: checkpoint 1 completed, c written after it.
        let mut before = builtins()[i].config_at(predicts[0] - 1).scenario().sim().unwrap();
        crate::classroom::play_lines(&mut before, &MASTER_STORY[..MASTER_STORY.len() - 2]).unwrap();
        let cp = before.storage().completed.last().unwrap().id;
        let written: Vec<&str> = before.external().visible().iter().map(|r| before.record_label(r.record)).collect();
        let after: Vec<&str> =
            written.iter().copied().filter(|l| before.ledger().row(l).unwrap().expected_external > 0).collect();
        let (retained, from_nothing, standby) = (&runs[0], &runs[1], &runs[2]);
        for (sim, ha) in [
            (retained, HighAvailability::None),
            (from_nothing, HighAvailability::None),
            (standby, HighAvailability::Standby),
        ] {
            assert_eq!(sim.settings.high_availability, ha);
            assert_eq!(sim.ledger().state.exactly_once as usize, sim.ledger().rows.len(), "the counts end right");
        }
        // Retained: what was written after checkpoint 1 (c) twice; a new job counting from cp + 1.
        let f = retained.stats.failovers[0];
        assert_eq!((f.steps_down(), f.restored), (Some(2), Some(RestoreFrom::Checkpoint { checkpoint: cp })));
        assert_eq!(retained.stats.history[0].id, CheckpointId(cp.0 + 1));
        let saved_in_1: Vec<&str> = written.iter().copied().filter(|l| ["a", "b"].contains(l)).collect();
        let twice: Vec<&str> = after.iter().copied().filter(|l| !saved_in_1.contains(l)).collect();
        assert_eq!(twice, ["c"]);
        assert_eq!(retained.ledger().external_labels(Verdict::Duplicated), twice);
        // From nothing: everything written before the crash twice; ids from 1.
        assert_eq!(from_nothing.ledger().external_labels(Verdict::Duplicated), written);
        assert_eq!(from_nothing.stats.history[0].id, CheckpointId(1));
        assert_eq!(from_nothing.stats.failovers[0].restored, Some(RestoreFrom::Nothing));
        // Standby: as retained, in one step; the same job, ids rising; B leads.
        assert_eq!(standby.ledger().external_labels(Verdict::Duplicated), twice);
        let f = standby.stats.failovers[0];
        assert_eq!((f.steps_down(), f.restored), (Some(1), Some(RestoreFrom::Checkpoint { checkpoint: cp })));
        let ids: Vec<u64> = standby.stats.history.iter().map(|r| r.id.0).collect();
        assert_eq!(ids, [1, 2, 3], "the next checkpoint is 3");
        assert!(Shows::Leader("B".into()).check(standby).is_ok());
        assert!(standby.stats.earlier_submissions.is_empty());
    }

    /// The Storm lesson: b times out though nothing crashed, and its replay lands after c.
    #[test]
    fn storm_lesson_replays_b_after_c() {
        let i = index("storm-acks");
        let sim = play_all(i);
        let l = sim.ledger();
        assert_eq!(l.state_labels(Verdict::Duplicated), vec!["b"], "{:?}", l.rows);
        assert_eq!(l.external_labels(Verdict::Duplicated), vec!["b"], "{:?}", l.rows);
        assert_eq!(l.state.lost + l.external.unwrap().lost, 0);
        let table: Vec<&str> = sim.external().visible().iter().map(|r| sim.record_label(r.record)).collect();
        assert_eq!(&table[..4], ["a", "b", "c", "b"], "a reader sees the replayed b after c");
        // Count's contributors to count(x), in the order it counted them.
        let crate::engine::OpState::Keyed { entries } = &sim.tasks()[2].state else { panic!("Count is keyed") };
        let x = entries.values().next().unwrap();
        let order: Vec<&str> = x.contributors.iter().map(|r| sim.record_label(*r)).collect();
        assert_eq!(&order[..4], ["a", "b", "c", "b"], "the replayed b comes after c");
        // The verdict says so: b took effect again after c at every task on its path, and a reader
        // of the sink sees it after c; nothing is missing.
        let b = l.row("b").unwrap();
        assert_eq!(l.order_labels(crate::engine::Order::OutOfOrder), ["b"]);
        let g = &sim.graph;
        let path: Vec<(crate::engine::ChannelId, bool)> = (0..g.channels.len())
            .map(|c| crate::engine::ChannelId(c as u16))
            .map(|c| (c, g.task(g.channel(c).to).kind == crate::engine::OperatorKind::Sink))
            .collect();
        assert_eq!(b.out_of_order_at.iter().map(|p| (p.channel, p.external)).collect::<Vec<_>>(), path);
        assert_eq!(l.complete.complete as usize, l.rows.len());
    }

    #[test]
    fn lesson_2_timers_lose_abc() {
        let i = index("timers-lose");
        // Before the crash the cut shows a, b, c in transit.
        let before = play_to(i, builtins()[i].steps.len() - 2);
        let cut = before.latest_cut().unwrap();
        assert_eq!(labels(&before, cut.in_transit()), ["a", "b", "c"]);
        assert!(cut.orphans().is_empty());
        let sim = play_all(i);
        let l = sim.ledger();
        assert_eq!(l.state_labels(Verdict::Lost), ["a", "b", "c"]);
        assert_eq!(l.state_labels(Verdict::ExactlyOnce), ["d", "e", "f", "g", "h"]);
        assert_eq!(sim.source_offset(crate::engine::TaskId(0)), 8);
    }

    #[test]
    fn lesson_3_timers_duplicate_abc() {
        let i = index("timers-duplicate");
        let before = play_to(i, builtins()[i].steps.len() - 2);
        let cut = before.latest_cut().unwrap();
        assert_eq!(labels(&before, cut.orphans()), ["a", "b", "c"]);
        let l = play_all(i).ledger();
        assert_eq!(l.state_labels(Verdict::Duplicated), ["a", "b", "c"]);
        assert_eq!(l.row("a").unwrap().state, 2);
        assert_eq!(l.state_labels(Verdict::ExactlyOnce), ["d", "e", "f", "g", "h"]);
    }

    /// Lessons 2, 3 and 4 each have a step that shows their cut on the space-time diagram: broken
    /// by the timers (a, b, c in transit; a, b, c orphans), consistent after the barrier. Only
    /// lesson 14 has the learner draw.
    #[test]
    fn the_timers_and_barrier_lessons_show_their_cut_on_the_diagram() {
        for (id, broken) in [("timers-lose", Some((0, 3))), ("timers-duplicate", Some((3, 0))), ("barrier", None)] {
            let i = index(id);
            let steps: Vec<usize> =
                (0..builtins()[i].steps.len()).filter(|&k| builtins()[i].steps[k].diagram == OnDiagram::Show).collect();
            assert_eq!(steps.len(), 1, "{id}: one step shows the diagram");
            let k = steps[0];
            let cut = play_to(i, k).latest_cut().unwrap_or_else(|| panic!("{id}: a cut at step {}", k + 1));
            let found = (cut.orphans().len(), cut.in_transit().len());
            match broken {
                Some(expected) => {
                    assert_eq!(found, expected, "{id}");
                    assert!(builtins()[i].steps[k]
                        .shows
                        .contains(&Shows::CutBroken { orphans: expected.0, in_transit: expected.1 }));
                }
                None => {
                    assert_eq!(found, (0, 0), "{id}");
                    assert!(builtins()[i].steps[k].shows.contains(&Shows::CutConsistent));
                }
            }
            // The claim fails on the other verdict.
            let other =
                if broken.is_some() { Shows::CutConsistent } else { Shows::CutBroken { orphans: 0, in_transit: 0 } };
            assert!(other.check(&play_to(i, k)).is_err(), "{id}");
        }
        let drawing: Vec<&str> =
            builtins().iter().filter(|l| l.steps.iter().any(|s| s.diagram == OnDiagram::Draw)).map(|l| l.id).collect();
        assert_eq!(drawing, ["draw-a-cut"]);
    }

    /// Lesson 14: on its drawing step, every cut the learner can draw (every point on every line,
    /// brute force) is checked against what the lesson says: some are consistent and some are
    /// not (the slanted one it suggests, Source early and Count late, is not); a consistent cut has
    /// no orphan; and a restore from a consistent cut ends every record that crosses no line
    /// exactly once and loses each one in transit, as the last step says.
    #[test]
    fn lesson_14_draw_a_consistent_cut_says_what_a_restore_from_it_does() {
        use crate::engine::drawn_cut::{classify, restore_from};
        let i = index("draw-a-cut");
        let lesson = &builtins()[i];
        let k = lesson.steps.iter().position(|s| s.diagram == OnDiagram::Draw).unwrap();
        assert!(lesson.steps[k + 1..].iter().all(|s| s.play.is_empty()), "nothing plays after the drawing");
        let mut p = Progress::new(i);
        p.step = k;
        let (_, start, actions) = actions_for(&p).unwrap();
        let tl = crate::engine::Timeline::from_actions(start, &actions).unwrap();
        let end = tl.len() as u64;
        assert_eq!(end, 11, "the steps the words count");
        let sim = tl.current();
        assert!(sim.latest_cut().is_none(), "no cut is drawn for the learner");
        let (mut consistent, mut inconsistent, mut with_transit) = (0, 0, 0);
        for s in 0..=end {
            for m in 0..=end {
                for c in 0..=end {
                    let points = [s, m, c];
                    let cut = classify(&tl, &points).unwrap();
                    if !cut.consistent() {
                        inconsistent += 1;
                        assert!(!cut.orphans().is_empty());
                        continue;
                    }
                    consistent += 1;
                    let (_, restore) = restore_from(&tl, &points, 20_000).unwrap();
                    let transit = cut.in_transit();
                    with_transit += usize::from(!transit.is_empty());
                    for row in &restore.ledger.rows {
                        let expected = if transit.contains(&row.record) { Verdict::Lost } else { Verdict::ExactlyOnce };
                        assert_eq!(row.state_verdict, expected, "cut {points:?}: {}", row.label);
                    }
                }
            }
        }
        assert!(consistent > 0 && inconsistent > 0 && with_transit > 0, "{consistent} {inconsistent} {with_transit}");
        // The slanted cut the step suggests: Source at its start, Count at the end.
        assert!(!classify(&tl, &[0, end, end]).unwrap().consistent());
        assert!(classify(&tl, &[end, end, end]).unwrap().consistent());
        let words = lesson.steps[k + 1].say.en;
        assert!(words.contains("exactly once") && words.contains("in transit is lost"), "{words}");
    }

    #[test]
    fn lesson_4_barrier_is_exactly_once() {
        let i = index("barrier");
        let sim = play_all(i);
        let cp = &sim.stats.history[0];
        assert_eq!(cp.status, CheckpointStatus::Completed);
        assert_eq!((cp.acked, cp.total), (3, 3));
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
        assert_eq!(sim.ledger().state.exactly_once, 8);
    }

    #[test]
    fn lesson_5_alignment_blocks_buffers_and_backpressures() {
        let i = index("alignment");
        let restart = builtins()[i].steps.iter().position(|s| s.restart.is_some()).unwrap();
        // Unbounded: b waits behind the barrier on the blocked channel; alignment takes 2 steps.
        let first = play_to(i, restart - 1);
        assert_eq!(first.stats.history[0].subtasks[2].alignment, Some(2));
        // Bounded channels: Left is backpressured and alignment takes 5 steps.
        let bounded = play_to(i, restart + 1);
        assert_eq!(bounded.settings.channel_capacity, Some(2));
        assert_eq!(bounded.stats.history[0].status, CheckpointStatus::Completed);
        assert_eq!(bounded.stats.history[0].subtasks[2].alignment, Some(5));
        let left = bounded.graph.task_by_name("Left").unwrap();
        let e = bounded.check(Action::Read { task: left }).unwrap_err().to_string();
        assert!(e.contains("backpressured"), "{e}");
        let sim = play_all(i);
        assert_eq!(sim.ledger().state.exactly_once, 10);
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
    }

    #[test]
    fn lesson_6_no_alignment_duplicates_b() {
        let i = index("at-least-once");
        let before = play_to(i, builtins()[i].steps.len() - 2);
        assert_eq!(labels(&before, before.latest_cut().unwrap().orphans()), ["b"]);
        let l = play_all(i).ledger();
        assert_eq!(l.state_labels(Verdict::Duplicated), ["b"]);
        assert_eq!(l.state.lost, 0);
    }

    #[test]
    fn lesson_7_unaligned_stores_in_flight_records_and_is_exactly_once() {
        let sim = play_all(index("unaligned"));
        let cp = &sim.stats.history[0];
        assert_eq!(cp.status, CheckpointStatus::Completed);
        assert_eq!(cp.in_flight, 4);
        assert_eq!(cp.duration(sim.tick), 2);
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
        assert_eq!(sim.ledger().state.exactly_once, 10);
    }

    #[test]
    fn lesson_8_stop_the_world_stalls_and_is_exactly_once() {
        let sim = play_all(index("stop-the-world"));
        let cp = &sim.stats.history[0];
        assert_eq!(cp.status, CheckpointStatus::Completed);
        assert_eq!(cp.stall, Some(4));
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
        assert_eq!(sim.ledger().state.exactly_once, 8);
    }

    #[test]
    fn lesson_9_sinks_as_an_outside_reader_sees_them() {
        let i = index("sinks");
        let lesson = &builtins()[i];
        assert_eq!(SINK_STORY, [SINK_BEFORE_CHECKPOINT, SINK_AFTER_CHECKPOINT].concat());
        assert!(
            lesson.steps.iter().filter(|s| s.play == SINK_STORY).count() == 2
                && lesson.steps.iter().any(|s| s.play == SINK_BEFORE_CHECKPOINT)
        );
        let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
        assert_eq!(predicts.len(), 3);
        for (k, mode) in predicts.iter().zip(SinkMode::ALL) {
            assert_eq!(lesson.steps[*k].predict, Some(Judge::Output));
            let sim = play_to(i, *k);
            assert_eq!(sim.settings.sink, mode);
            assert_eq!(sim.stats.history[0].status, CheckpointStatus::Completed);
            let l = sim.ledger();
            assert_eq!(l.state.exactly_once, 8, "{mode:?}: the state is exactly once");
            let ext = l.external.unwrap();
            match mode {
                SinkMode::Append => {
                    assert_eq!(l.external_labels(Verdict::Duplicated), ["d", "e"]);
                    assert_eq!(ext.lost, 0);
                }
                SinkMode::Upsert | SinkMode::TwoPhaseCommit | SinkMode::Transactional => {
                    assert_eq!(ext.exactly_once, 8, "{mode:?}")
                }
            }
        }
        // Before the reveal, checkpoint 1 has completed but its notification has not reached the
        // Sink: T0 (a, b, c) is pre-committed, T1 (d, e) open; a reader sees nothing yet.
        let mut p = Progress::new(i);
        p.step = predicts[2];
        let (_, mut sim, actions) = actions_for(&p).unwrap();
        for a in actions {
            sim.apply(a, &mut Vec::new()).unwrap();
        }
        assert_eq!(sim.stats.history[0].status, CheckpointStatus::Completed);
        assert_eq!(sim.notifications().len(), 1);
        assert_eq!(sim.ledger().external_labels(Verdict::Pending), ["a", "b", "c", "d", "e", "f", "g", "h"]);
        assert!(sim.external().visible().is_empty());
        // The crash drops the notification; the restore commits T0 (recoverAndCommit), aborts T1.
        sim.apply(Action::Crash, &mut Vec::new()).unwrap();
        let mut restore = Vec::new();
        sim.apply(Action::Restore, &mut restore).unwrap();
        assert!(restore.iter().any(|e| matches!(e, Event::TxnCommitted { txn: TxnId(0), rows: 3, .. })), "{restore:?}");
        assert!(restore.iter().any(|e| matches!(e, Event::TxnAborted { txn: TxnId(1), rows: 2, .. })), "{restore:?}");
        assert_eq!(sim.external().visible().len(), 3);
    }

    #[test]
    fn lesson_10_jobmanager_failure_loses_the_pending_checkpoint_only() {
        let sim = play_all(index("jobmanager"));
        let h = &sim.stats.history;
        assert_eq!(h[0].status, CheckpointStatus::Completed);
        assert_eq!(h[1].status, CheckpointStatus::Failed(AbortReason::JobManagerFailure));
        assert_eq!((h[2].id, h[2].status), (CheckpointId(3), CheckpointStatus::Completed));
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
        assert_eq!(sim.ledger().state.exactly_once, 8);
    }

    /// Lesson 15, against the engine: the restore into the Filter without uids is refused with
    /// Flink's message, word for word as step 3 quotes it, and Count is the operator it names;
    /// --allowNonRestoredState drops Count's state (the mapping table: Source and Map kept, Count
    /// dropped), so a to d are lost and e to h counted once, Source keeping offset 4; with uids every
    /// state maps and every record is counted once; Count rescaled from 2 to 3 keeps every key's
    /// count and moves the keys the reveal names, each to the owner of its key group.
    #[test]
    fn lesson_15_the_program_that_restores_may_differ() {
        use crate::classroom::lessons::RestoreInto;
        use crate::classroom::progress::run_for;
        use crate::engine::operator_id::operator_ids;
        use crate::engine::rescale::StateFate;
        let i = index("changed-program");
        let lesson = &builtins()[i];
        let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
        assert_eq!(predicts, [3, 5, 7]);
        // Step 3: the stopped job, savepoint 3 holding offset 4 and a to d in Count.
        let stopped = play_to(i, 1);
        let sp = stopped.savepoints().last().unwrap();
        assert!(sp.stop && sp.checkpoint.id == CheckpointId(3));
        let ledger = stopped.ledger();
        let count: Vec<&str> = ledger.rows.iter().filter(|r| r.state == 1).map(|r| r.label.as_str()).collect();
        assert_eq!(count, ["a", "b", "c", "d"]);
        let refused =
            RestoreInto::parse("restore-into 3 insert-filter").unwrap().unwrap().refusal(&stopped).unwrap().unwrap();
        let count_id = operator_ids(&stopped.graph.spec)[2];
        assert!(
            matches!(&refused, crate::engine::rescale::Refusal::NotAvailable { id, operator, .. } if *id == count_id && operator == "Count")
        );
        for words in [lesson.steps[2].say.en, lesson.steps[2].say.zh] {
            assert!(words.contains(&refused.message()), "step 3 quotes Flink's message: {words}");
        }
        // Step 4: --allowNonRestoredState.
        let run = |step: usize| {
            let mut p = Progress::new(i);
            p.step = step;
            p.revealed = true;
            run_for(&p).unwrap()
        };
        let dropped = run(3);
        let change = dropped.change.as_ref().expect("a restore into a changed program");
        assert!(change.allow_non_restored_state && change.from == 3);
        assert_eq!(
            change.program.operators.iter().map(|o| o.name.as_str()).collect::<Vec<_>>(),
            ["Source", "Map", "Filter", "Count"]
        );
        let (_, plan, _) = stopped.restore_into(CheckpointId(3), &change.program, true).unwrap();
        let fates: Vec<(&str, StateFate)> = plan.rows.iter().map(|r| (r.operator.as_str(), r.fate)).collect();
        assert_eq!(fates, [("Source", StateFate::Kept), ("Map", StateFate::Kept), ("Count", StateFate::Dropped)]);
        let src = dropped.start.graph.task_by_name("Source").unwrap();
        assert_eq!(dropped.start.source_offset(src), 4, "Source keeps its offset");
        let l = play_to(i, 3).ledger();
        assert_eq!(l.state_labels(Verdict::Lost), ["a", "b", "c", "d"]);
        assert_eq!(l.state_labels(Verdict::ExactlyOnce), ["e", "f", "g", "h"]);
        assert_eq!(l.state.duplicated, 0);
        // Step 6: with uids.
        let uids = play_to(i, 4);
        assert_eq!(
            uids.graph.spec.operators.iter().map(|o| o.uid.as_deref()).collect::<Vec<_>>(),
            [Some("source"), Some("map"), Some("count")]
        );
        let mapped = run(5);
        let (_, plan, _) = uids.restore_into(CheckpointId(3), &mapped.change.as_ref().unwrap().program, false).unwrap();
        assert!(plan.rows.iter().all(|r| r.fate == StateFate::Kept), "{:?}", plan.rows);
        let l = play_to(i, 5).ledger();
        assert_eq!((l.state.exactly_once, l.state.lost, l.state.duplicated), (8, 0, 0));
        // Step 8: Count 2 -> 3.
        let keyed = play_to(i, 6);
        let places = |sim: &Sim| -> Vec<(String, u16, usize)> {
            let mut v = Vec::new();
            for (t, info) in sim.graph.tasks.iter().enumerate() {
                if let crate::engine::OpState::Keyed { entries } = &sim.tasks()[t].state {
                    v.extend(
                        entries
                            .iter()
                            .map(|(k, e)| (sim.graph.key_name(*k).to_string(), info.subtask, e.contributors.len())),
                    );
                }
            }
            v.sort();
            v
        };
        let before = places(&keyed);
        let restored = run(7).start;
        assert_eq!(restored.graph.spec.operators[1].parallelism, 3);
        assert_eq!(restored.graph.max_parallelism[1], 128);
        let after = places(&restored);
        let moves: Vec<(&str, u16, u16)> = before.iter().zip(&after).map(|(b, a)| (b.0.as_str(), b.1, a.1)).collect();
        assert_eq!(moves, [("u", 0, 0), ("x", 0, 1), ("y", 1, 2), ("z", 1, 1)]);
        assert!(
            before.iter().zip(&after).all(|(b, a)| b.0 == a.0 && b.2 == a.2 && a.2 == 1),
            "every key keeps its count"
        );
        for (key, kg) in [("x", 55), ("y", 106), ("z", 65), ("u", 40)] {
            assert_eq!(crate::engine::key_groups::assign_to_key_group(key, 128), kg);
            assert!(
                lesson.steps[7].reveal.unwrap().en.contains(&format!("{key} (key group {kg})"))
                    || lesson.steps[7].reveal.unwrap().en.contains(&format!("{key} ({kg})"))
            );
        }
        assert!(Shows::KeyGroups("Count".into(), vec![(0, 42), (43, 85), (86, 127)]).check(&restored).is_ok());
        assert!(Shows::KeyGroups("Count".into(), vec![(0, 63), (64, 127)]).check(&restored).is_err());
        let l = play_to(i, 7).ledger();
        assert_eq!((l.state.exactly_once, l.state.lost, l.state.duplicated), (8, 0, 0));
        // A changed max parallelism is refused, as the last reveal says.
        let r = RestoreInto { from: 1, edits: vec![], allow_non_restored_state: false };
        let mut spec = r.program(&keyed).unwrap();
        spec.operators[1].max_parallelism = Some(64);
        assert_eq!(keyed.restore_into(CheckpointId(1), &spec, false).unwrap_err().id(), "max-parallelism-mismatch");
    }

    /// A lesson's restore into a changed program is the session's: the session keeps it, so the
    /// run saved at the lesson's last step opens again as the same run, at the same step.
    #[test]
    fn a_lesson_run_restored_into_a_changed_program_saves_and_opens() {
        use crate::classroom::{Command, Session};
        let i = index("changed-program");
        let mut s = Session::new(builtins()[i].config()).unwrap();
        assert!(s.handle(Command::StartLesson(i)));
        while s.lesson.as_ref().unwrap().step < 7 || s.lesson.as_ref().unwrap().awaiting_reveal() {
            let p = s.lesson.as_ref().unwrap();
            if p.awaiting_reveal() {
                for r in s.sim().graph.records.clone() {
                    s.handle(Command::Predict(r.label.clone(), Verdict::ExactlyOnce));
                }
            }
            assert!(s.handle(Command::LessonNext), "{:?}", s.notice);
        }
        assert!(s.change.is_some());
        assert_eq!(s.sim().graph.spec.operators[1].parallelism, 3);
        let saved = s.save(crate::engine::Lang::En);
        let text = crate::classroom::from_fragment(&crate::classroom::to_fragment(&saved)).unwrap();
        let (back, _) = Session::load(&text).unwrap();
        assert_eq!(back.sim().ledger(), s.sim().ledger());
        assert_eq!(back.sim().tasks(), s.sim().tasks());
        assert_eq!(back.save(crate::engine::Lang::En), saved);
        assert_eq!(back.lesson.as_ref().map(|p| (p.step, p.revealed)), Some((7, true)));
        // Back a step: a fresh run of keyed-count, with no restore kept.
        assert!(s.handle(Command::LessonPrev) && s.handle(Command::LessonPrev));
        assert!(s.change.is_none() && s.sim().graph.spec.operators[1].parallelism == 2);
    }

    /// Lesson 12, each Flink run: checkpoint 1 completes with a and b (written), c is written after
    /// it, checkpoint 2 is pending, and the JobManager fails.
    const MASTER_STORY: &[&str] = &[
        "read Source x2",
        "checkpoint",
        "deliver Source->Map x3",
        "deliver Map->Count x3",
        "deliver Count->Sink x3",
        "read Source",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Count->Sink",
        "checkpoint",
        "crash-jm",
    ];
    /// Lesson 9 up to checkpoint 1: a, b, c and barrier 1 through every task to the sink.
    const SINK_BEFORE_CHECKPOINT: &[&str] =
        &["read Source x3", "checkpoint", "deliver Source->Map x4", "deliver Map->Count x4", "deliver Count->Sink x4"];
    /// Lesson 9 after checkpoint 1: d and e written by the sink.
    const SINK_AFTER_CHECKPOINT: &[&str] =
        &["read Source x2", "deliver Source->Map x2", "deliver Map->Count x2", "deliver Count->Sink x2"];
    /// Both, in one step (the `sink_story` script of tests/stories.rs up to the crash).
    const SINK_STORY: &[&str] = &[
        "read Source x3",
        "checkpoint",
        "deliver Source->Map x4",
        "deliver Map->Count x4",
        "deliver Count->Sink x4",
        "read Source x2",
        "deliver Source->Map x2",
        "deliver Map->Count x2",
        "deliver Count->Sink x2",
    ];
    /// Lesson 13, each run: a to e arrive and form batch 1, which runs to its end (Sink writes a to
    /// e) while f, g, h arrive and form batch 2, which starts; then the driver crashes, a step before
    /// its checkpoint writer would have recorded that batch 1 completed.
    const SPARK_STORY: &[&str] =
        &["wait x4", "deliver Source->Map x5", "deliver Map->Count x5", "deliver Count->Sink x5", "crash-jm"];
    const SPARK_REST: &[&str] =
        &["deliver Source->Map x5", "deliver Map->Count x5", "deliver Count->Sink x5", "crash-jm"];
}
