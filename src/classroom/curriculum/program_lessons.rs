//! The lesson on a changed program, against the engine (lesson 15): a restore refused without
//! uids, --allowNonRestoredState, uids, a rescale by key group; and its run saved and opened
//! again by the session.

use super::play::{index, play_to};
use crate::classroom::curriculum::builtins;
use crate::classroom::lessons::Shows;
use crate::classroom::progress::Progress;
use crate::engine::core::ledger::Verdict;
use crate::engine::CheckpointId;
use crate::engine::Sim;

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
    use crate::engine::program::operator_id::operator_ids;
    use crate::engine::program::rescale::StateFate;
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
        matches!(&refused, crate::engine::program::rescale::Refusal::NotAvailable { id, operator, .. } if *id == count_id && operator == "Count")
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
    assert!(before.iter().zip(&after).all(|(b, a)| b.0 == a.0 && b.2 == a.2 && a.2 == 1), "every key keeps its count");
    for (key, kg) in [("x", 55), ("y", 106), ("z", 65), ("u", 40)] {
        assert_eq!(crate::engine::core::dataflow::key_groups::assign_to_key_group(key, 128), kg);
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
