//! The session's tests: forks and undo, settings, saving, lessons' predictions and reveals,
//! running to the end.

use crate::classroom::curriculum;
use crate::classroom::lessons::OnDiagram;
use crate::classroom::number_fields::FieldNote;
use crate::classroom::number_fields::SettingField;
use crate::classroom::progress::CutAttempt;
use crate::classroom::run_config::RunConfig;
use crate::classroom::saved_run::{from_fragment, to_fragment};
use crate::classroom::score;
use crate::classroom::session::{command::*, notice::*, state::*};
use crate::engine::*;

#[test]
fn acting_back_and_fork() {
    let mut s = Session::new(RunConfig::default()).unwrap();
    assert!(s.handle(Command::Act(Action::Read { task: TaskId(0) })));
    assert!(s.handle(Command::Act(Action::Read { task: TaskId(0) })));
    assert_eq!(s.narration.len(), 2);
    assert!(s.handle(Command::Back));
    assert_eq!(s.timeline.position(), 1);
    assert_eq!(s.narration.len(), 1);
    assert!(!s.handle(Command::Act(Action::Restore)));
    assert_eq!(
        s.notice.as_ref().unwrap().message(Lang::En),
        "Can't restore: the job is running; there is nothing to restore."
    );
    assert_eq!(s.notice.as_ref().unwrap().message(Lang::Zh), "无法恢复：作业正在运行，没有需要恢复的东西。");
    assert_eq!(s.timeline.len(), 2, "a refused action changes nothing");
    assert!(s.handle(Command::Act(Action::AllTimers)));
    assert_eq!(s.timeline.len(), 2, "acting at step 1 forked: steps 1 and the new 2");
    assert!(s.handle(Command::Back));
    assert!(s.handle(Command::Back));
    assert!(!s.handle(Command::Back));
}

#[test]
fn the_steps_a_fork_drops_are_named_before_and_after_in_both_languages() {
    let mut s = Session::new(RunConfig::default()).unwrap();
    for _ in 0..3 {
        s.handle(Command::Act(Action::Read { task: TaskId(0) }));
    }
    s.handle(Command::Act(Action::AllTimers));
    s.handle(Command::Act(Action::Crash));
    assert_eq!(s.fork_preview(), None, "at the end nothing would be dropped");
    s.handle(Command::Seek(3));
    let preview = s.fork_preview().unwrap();
    assert_eq!(
        preview.fork_warning(Lang::En),
        "Acting at this step drops steps 4–5 (2 steps). Step, Play and End keep them; Ctrl+Z brings them back."
    );
    assert!(preview.fork_warning(Lang::Zh).contains("第 4–5 步（共 2 步）"));
    s.handle(Command::Seek(4));
    assert!(s.fork_preview().unwrap().fork_warning(Lang::En).starts_with("Acting at this step drops step 5. "));
    s.handle(Command::Seek(3));
    assert!(s.handle(Command::Act(Action::Crash)));
    let forked = s.notice.clone().unwrap();
    assert!(!forked.is_error());
    assert_eq!(
        forked.message(Lang::En),
        "Forked the run at step 3: steps 4–5 (2 steps) dropped. Undo (Ctrl+Z) brings them back."
    );
    assert!(s.handle(Command::Undo));
    assert_eq!(
        s.notice.as_ref().unwrap().message(Lang::En),
        "Brought back steps 4–5 (2 steps); you are at step 3. The 1 step(s) after the fork are set aside: Redo (Ctrl+Y) puts them back."
    );
    assert!(s.notice.as_ref().unwrap().message(Lang::Zh).contains("已找回第 4–5 步"));
}

#[test]
fn several_forks_undo_one_by_one_and_a_new_fork_clears_redo() {
    let mut s = Session::new(RunConfig::default()).unwrap();
    for _ in 0..6 {
        s.handle(Command::Act(Action::Read { task: TaskId(0) }));
    }
    let h0 = s.timeline.actions().to_vec();
    s.handle(Command::Seek(4));
    s.handle(Command::Act(Action::AllTimers));
    let h1 = s.timeline.actions().to_vec();
    s.handle(Command::Seek(2));
    s.handle(Command::Act(Action::Crash));
    assert_eq!(s.undo.len(), 2);
    assert!(s.handle(Command::Undo));
    assert_eq!((s.timeline.actions(), s.timeline.position()), (&h1[..], 2));
    assert!(s.handle(Command::Undo));
    assert_eq!((s.timeline.actions(), s.timeline.position()), (&h0[..], 4));
    assert_eq!(s.redo.len(), 2);
    assert!(s.handle(Command::Redo));
    assert_eq!((s.timeline.actions(), s.timeline.position()), (&h1[..], 2), "where the undo was made");
    s.handle(Command::Seek(1));
    s.handle(Command::Act(Action::AllTimers));
    assert!(s.redo.is_empty(), "a new fork: nothing to redo");
    assert!(!s.handle(Command::Redo));
    assert_eq!(s.notice, Some(Notice::NothingToRedo));
    // A new run forgets the forks of the old one.
    s.handle(Command::Reset);
    assert!(s.undo.is_empty() && !s.handle(Command::Undo));
}

#[test]
fn a_settings_field_says_when_it_clamps_or_refuses_and_loses_nothing_else() {
    let config = RunConfig { settings: Settings::new(Strategy::Aligned), ..RunConfig::default() };
    let mut s = Session::new(config).unwrap();
    s.handle(Command::EditSetting(SettingField::ChannelCapacity, Some("3".into())));
    s.handle(Command::Act(Action::Read { task: TaskId(0) }));
    // Refused: nothing changes, the run is kept.
    assert!(!s.handle(Command::EditSetting(SettingField::Seed, Some("2.5".into()))));
    assert_eq!(s.notice.as_ref().unwrap().message(Lang::En), "Seed: \"2.5\" is not a whole number; nothing changed.");
    assert!(s.notice.as_ref().unwrap().is_error());
    assert_eq!((s.timeline.len(), s.config.seed, s.config.settings.channel_capacity), (1, 1, Some(3)));
    assert!(!s.handle(Command::EditSetting(SettingField::Records, None)));
    assert_eq!(s.notice.as_ref().unwrap().message(Lang::Zh), "每个源分区的记录数：输入的不是数字；没有任何改动。");
    // Clamped: the run starts again with the limit, the other settings kept, and says so.
    assert!(s.handle(Command::EditSetting(SettingField::Records, Some("9000".into()))));
    assert_eq!(
        s.notice.as_ref().unwrap().message(Lang::En),
        "Records per source partition: 9000 is above the maximum 5000; using 5000."
    );
    assert!(s.notice.as_ref().unwrap().message(Lang::Zh).contains("9000 超过上限 5000，改用 5000"));
    assert_eq!((s.config.records, s.config.settings.channel_capacity, s.timeline.len()), (Some(5000), Some(3), 0));
    // The same value again changes no setting: the run is kept.
    s.handle(Command::Act(Action::Read { task: TaskId(0) }));
    assert!(s.handle(Command::EditSetting(SettingField::Records, Some("7000".into()))));
    assert!(matches!(s.notice, Some(Notice::Setting(FieldNote::Clamped { limit: 5000, .. }))));
    assert_eq!(s.timeline.len(), 1, "the run is kept");
}

#[test]
fn selecting_a_checkpoint_moves_to_its_trigger() {
    let config = RunConfig { job: "line".into(), settings: Settings::new(Strategy::Aligned), seed: 1, records: None };
    let mut s = Session::new(config).unwrap();
    for _ in 0..3 {
        s.handle(Command::Act(Action::Auto));
    }
    s.handle(Command::Act(Action::Checkpoint));
    assert!(s.handle(Command::ToEnd), "to the end, with a final checkpoint");
    let history = s.timeline.last().stats.history.clone();
    assert!(history.len() >= 2, "{history:?}");
    s.handle(Command::SelectCheckpoint(CheckpointId(1)));
    assert_eq!(s.timeline.position(), 4);
    assert!(matches!(s.narration.last().unwrap().events[0], Event::CheckpointTriggered { .. }));
    // A checkpoint triggered after the playhead is selected from the whole history too.
    let later = history.last().unwrap();
    assert!(s.handle(Command::SelectCheckpoint(later.id)));
    assert_eq!((s.selected, s.timeline.position()), (Some(later.id), later.trigger_tick as usize + 1));
}

#[test]
fn a_saved_run_restores_the_same_frame() {
    let mut s = Session::new(RunConfig::default()).unwrap();
    for _ in 0..3 {
        s.handle(Command::Act(Action::Read { task: TaskId(0) }));
    }
    s.handle(Command::Act(Action::AllTimers));
    s.handle(Command::Act(Action::Crash));
    s.handle(Command::Back);
    let saved = s.save(Lang::Zh);
    let text = from_fragment(&to_fragment(&saved)).unwrap();
    let (t, lang) = Session::load(&text).unwrap();
    assert_eq!(lang, Lang::Zh);
    assert_eq!(t.timeline.position(), 4);
    assert_eq!(t.timeline.len(), 5);
    assert_eq!(t.sim().channels(), s.sim().channels());
    assert_eq!(t.sim().ledger(), s.sim().ledger());
    assert_eq!(t.save(Lang::Zh), saved);
}

/// Lesson 14's drawing step: Next waits for a consistent cut (with the notice saying so); a
/// checked cut is kept with its prediction, the same cut is not counted twice, and a check is
/// refused on a step that draws nothing.
#[test]
fn the_drawing_step_waits_for_a_consistent_cut() {
    let mut s = Session::new(RunConfig::default()).unwrap();
    let i = curriculum::builtins().iter().position(|l| l.id == "draw-a-cut").unwrap();
    assert!(s.handle(Command::StartLesson(i)));
    let attempt = |points: Vec<u64>, predicted_consistent, consistent| CutAttempt {
        points,
        predicted_consistent,
        consistent,
        crossing: 3,
    };
    assert!(!s.handle(Command::CheckCut(attempt(vec![0, 11, 11], false, false))), "not a drawing step");
    while s.lesson.as_ref().unwrap().current().diagram != OnDiagram::Draw {
        assert!(s.handle(Command::LessonNext));
    }
    let step = s.lesson.as_ref().unwrap().step;
    assert!(!s.handle(Command::LessonNext));
    assert_eq!(s.notice, Some(Notice::DrawConsistentCut));
    assert!(s.notice.as_ref().unwrap().message(Lang::Zh).contains("一致的切面"));
    assert!(s.handle(Command::CheckCut(attempt(vec![0, 11, 11], true, false))));
    assert!(!s.handle(Command::CheckCut(attempt(vec![0, 11, 11], false, false))), "checked already");
    assert!(!s.handle(Command::LessonNext), "still no consistent cut");
    assert!(s.handle(Command::CheckCut(attempt(vec![11, 11, 11], true, true))));
    assert_eq!(s.lesson.as_ref().unwrap().cut_score(), (1, 2));
    assert!(s.handle(Command::LessonNext));
    let p = s.lesson.as_ref().unwrap();
    assert_eq!((p.step, p.cuts.len()), (step + 1, 0), "the next step starts with no cuts");
}

#[test]
fn reveal_waits_until_every_record_is_marked() {
    let mut s = Session::new(RunConfig::default()).unwrap();
    assert!(s.handle(Command::StartLesson(1)));
    while !s.lesson.as_ref().unwrap().awaiting_reveal() {
        assert!(s.handle(Command::LessonNext));
    }
    let before = s.timeline.len();
    assert!(!s.handle(Command::LessonNext), "no reveal without marks");
    assert_eq!(s.notice, Some(Notice::MarkEveryRecord(8)));
    assert_eq!(
        s.notice.as_ref().unwrap().message(Lang::En),
        "Mark every record first: 8 left. Click a record or press its number (1–9) to mark it, or press PageDown again to reveal without marking."
    );
    assert!(s.notice.as_ref().unwrap().message(Lang::Zh).contains("还剩 8 条"));
    assert!(!s.lesson.as_ref().unwrap().revealed && s.timeline.len() == before, "nothing played");
    for r in ["a", "b", "c"] {
        assert!(s.handle(Command::Predict(r.into(), Verdict::Lost)));
    }
    assert!(!s.handle(Command::LessonNext));
    assert_eq!(s.notice, Some(Notice::MarkEveryRecord(5)));
    for r in ["d", "e", "f", "g", "h"] {
        assert!(s.handle(Command::Predict(r.into(), Verdict::ExactlyOnce)));
    }
    assert!(s.handle(Command::LessonNext), "every record marked: the reveal");
    let p = s.lesson.clone().unwrap();
    assert!(p.revealed);
    let (rows, right) = score(s.sim(), p.current().predict.unwrap(), &p.predictions);
    assert_eq!((rows.len(), right), (8, 8));
}

/// Issue 48, 2: a clicker cannot mark records. The first PageDown at a predict step says how
/// many are left; a second in a row reveals without them, and the unmarked never score. Model:
/// the reveal with every record marked shows the same run.
#[test]
fn a_second_press_reveals_without_the_missing_marks() {
    let mut s = Session::new(RunConfig::default()).unwrap();
    assert!(s.handle(Command::StartLesson(1)));
    while !s.lesson.as_ref().unwrap().awaiting_reveal() {
        assert!(s.handle(Command::LessonNext));
    }
    let mut marked = s.clone();
    assert!(s.handle(Command::Predict("a".into(), Verdict::Lost)));
    assert!(!s.handle(Command::LessonNext), "the first press only says how many are left");
    assert_eq!(s.notice, Some(Notice::MarkEveryRecord(7)));
    assert!(s.notice.as_ref().unwrap().message(Lang::En).contains("again"));
    assert!(s.handle(Command::LessonNext), "the second press reveals");
    let p = s.lesson.clone().unwrap();
    assert!(p.revealed);
    let (rows, right) = score(s.sim(), p.current().predict.unwrap(), &p.predictions);
    assert_eq!((rows.len(), right), (8, 1), "only the one marked record can score");
    for r in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        assert!(marked.handle(Command::Predict(r.into(), Verdict::ExactlyOnce)));
    }
    assert!(marked.handle(Command::LessonNext));
    assert_eq!(marked.sim().ledger(), s.sim().ledger(), "the same run either way");
}

/// Issue 26, 7, on the page: Storm with message-timeout 4 replays without end; To the end
/// stops at the page's cap and the notice says the run did not finish, and why. Model: the
/// same run with the default timeout finishes with no notice.
#[test]
fn to_the_end_says_when_the_run_stops_at_its_cap() {
    for (timeout, stops) in [(4, true), (100, false)] {
        let mut settings = Settings::new(Strategy::StormAcker);
        settings.mechanism.storm.message_timeout = timeout;
        let config = RunConfig { job: "line-sink".into(), settings, seed: 1, records: None };
        let mut s = Session::new(config).unwrap();
        assert!(s.handle(Command::ToEnd));
        match &s.notice {
            Some(Notice::Unfinished(u)) => {
                assert!(stops, "timeout {timeout}: {u:?}");
                assert_eq!(u.steps, Session::END_BUDGET);
                assert!(matches!(
                    u.cause,
                    UnfinishedCause::Endless(crate::engine::mechanisms::catalogue::endless::Endless::Storm(
                        crate::engine::mechanisms::storm::endless_replay::EndlessReplay { timeout: 4, .. }
                    ))
                ));
                assert!(u.message(Lang::Zh).contains("超时"), "{}", u.message(Lang::Zh));
            }
            other => assert!(!stops && other.is_none(), "timeout {timeout}: {other:?}"),
        }
    }
}

#[test]
fn to_the_end_at_once_in_ordinary_steps() {
    let config = RunConfig {
        job: "keyed-shuffle".into(),
        settings: Settings::new(Strategy::Aligned).for_job(false),
        seed: 1,
        records: Some(150),
    };
    let mut s = Session::new(config).unwrap();
    assert!(s.has_end_to_run());
    assert!(s.handle(Command::Act(Action::Auto)));
    assert!(s.handle(Command::ToEnd));
    assert!(s.at_end() && s.timeline.len() > 600, "{} steps", s.timeline.len());
    assert!(!s.has_end_to_run(), "nothing left after the end");
    assert!(s.sim().ledger().rows.iter().all(|r| r.state_verdict == Verdict::ExactlyOnce));
    assert!(matches!(s.timeline.actions().last(), Some(Action::Auto | Action::Checkpoint)));
    assert!(s.sim().stats.history.iter().any(|r| r.status == CheckpointStatus::Completed), "a final checkpoint");
    assert!(!s.handle(Command::ToEnd));
    assert_eq!(s.notice, Some(Notice::NothingToPlay));
    // The steps are ordinary steps: back, and a saved run restores them.
    let end = s.timeline.len();
    assert!(s.handle(Command::Back));
    assert_eq!(s.timeline.position(), end - 1);
    let (t, _) = Session::load(&serde_json::to_string(&s.save(Lang::En)).unwrap()).unwrap();
    assert_eq!((t.timeline.position(), t.timeline.len()), (end - 1, end));
    // From an earlier step it goes to the end of the history, which it keeps.
    assert!(s.handle(Command::Seek(1)));
    assert!(s.handle(Command::ToEnd));
    assert_eq!((s.timeline.position(), s.timeline.len()), (end, end));
}

#[test]
fn to_the_end_commits_a_two_phase_sink() {
    let config = RunConfig {
        job: "line-sink".into(),
        settings: Settings::new(Strategy::Aligned)
            .for_job(true)
            .edited(crate::engine::settings::Edit::Sink(SinkMode::TwoPhaseCommit)),
        ..RunConfig::default()
    };
    let mut s = Session::new(config).unwrap();
    assert!(s.handle(Command::ToEnd));
    assert!(!s.has_end_to_run());
    let ledger = s.sim().ledger();
    assert!(ledger.rows.iter().all(|r| r.external_verdict == Some(Verdict::ExactlyOnce)), "{ledger:?}");
}

/// Issue 53: lesson 16 asks whether checkpoint 1 completes. A first PageDown without a guess asks
/// for one, a second reveals; a guess is scored against the engine's outcome and kept in a saved
/// run. Model: the checkpoint's status in the run.
#[test]
fn a_checkpoint_prediction_is_asked_scored_and_saved() {
    let i = curriculum::builtins().iter().position(|l| l.id == "backpressure").unwrap();
    let mut s = Session::new(RunConfig::default()).unwrap();
    assert!(s.handle(Command::StartLesson(i)));
    while !s.lesson.as_ref().unwrap().awaiting_reveal() {
        assert!(s.handle(Command::LessonNext));
    }
    assert!(!s.handle(Command::Predict("a".into(), Verdict::Lost)), "no record to mark here");
    let mut clicker = s.clone();
    assert!(!clicker.handle(Command::LessonNext), "the first press asks");
    assert_eq!(clicker.notice, Some(Notice::PredictCheckpoint(1)));
    assert!(clicker.notice.as_ref().unwrap().message(Lang::Zh).contains("检查点 1"));
    assert!(clicker.handle(Command::LessonNext), "the second press reveals");
    assert!(s.handle(Command::PredictCheckpoint(true)));
    assert!(s.handle(Command::PredictCheckpoint(false)), "a guess can change before the reveal");
    let (saved, _) = Session::load(&serde_json::to_string(&s.save(Lang::En)).unwrap()).unwrap();
    assert_eq!(saved.lesson.as_ref().unwrap().checkpoint_guess, Some(false), "kept in a saved run");
    assert!(s.handle(Command::LessonNext), "a guess made: the reveal");
    let p = s.lesson.clone().unwrap();
    assert!(p.revealed);
    let status = s.sim().stats.history[0].status;
    assert!(matches!(status, CheckpointStatus::Failed(_)), "{status:?}");
    assert_eq!(crate::classroom::checkpoint_outcome(s.sim(), 1), Some(false));
    assert!(!s.handle(Command::PredictCheckpoint(true)), "no guess after the reveal");
    assert_eq!(clicker.sim().ledger(), s.sim().ledger(), "the same run either way");
}
