//! Side by side's session, checked natively against two models, every command sent through JSON:
//! the comparison replayed from what the session saves (after any sequence of commands, the runs on
//! screen are the comparison's file stepped to the clock, as a link, a file and storage reopen it)
//! and the runner's run (⇥ To the end gives the costs `barrierscope compare` measures). Also X and
//! R, refused form changes, opened files, and the lesson's steps.

use crate::classroom::compare_lesson::{self, SavedCompareLesson, CRASH, PREDICT, QUESTIONS, REVEAL, STEPS};
use crate::classroom::compare_room::{place_value, CompareCommand, CompareNotice, CompareSession, SPEEDS};
use crate::classroom::room_session::RoomSession;
use crate::classroom::saved_comparison::{three_ways, CompareError, JOBS, PRESETS};
use crate::classroom::saved_run::Origin;
use crate::classroom::unread::Unread;
use crate::engine::comparison::{Lockstep, MAX_CONFIGURATIONS};
use crate::engine::{Lang, Settings, Strategy};

fn through_json(c: &CompareCommand) -> CompareCommand {
    serde_json::from_str(&serde_json::to_string(c).expect("a command serializes")).expect("and reads back")
}

fn send(s: &mut CompareSession, c: CompareCommand) -> bool {
    RoomSession::handle(s, through_json(&c))
}

/// The model of the clock: what the session saves, opened again and settled, is the same runs at
/// the same tick with the same costs.
fn check_replay(s: &CompareSession) {
    if let Some(lesson) = &s.lesson {
        if compare_lesson::check(lesson, s.file.configurations.len()).is_err() {
            // A prediction names a run removed since: storage refuses the saved lesson place.
            return;
        }
    }
    let mut model = CompareSession::initial(None, Some(s.saved().to_json()), Lang::En);
    assert_eq!(model.notice, None, "what the session saves opens");
    model.handle(CompareCommand::Dismiss);
    assert_eq!((&model.file, model.tick(), &model.lesson), (&s.file, s.tick(), &s.lesson));
    assert_eq!(model.lock.finished(), s.lock.finished());
    assert_eq!(model.lock.lanes.len(), s.lock.lanes.len());
    for (m, r) in model.lock.lanes.iter().zip(&s.lock.lanes) {
        assert_eq!((m.sim.tick, m.finished()), (r.sim.tick, r.finished()), "{}", r.label);
        assert_eq!(m.costs(), r.costs(), "{}: the same costs, replayed", r.label);
    }
}

#[test]
fn every_command_goes_through_json() {
    for c in [
        CompareCommand::Step,
        CompareCommand::Back,
        CompareCommand::ToStart,
        CompareCommand::ToEnd,
        CompareCommand::TogglePlay,
        CompareCommand::Tick,
        CompareCommand::Speed(3),
        CompareCommand::CrashNow,
        CompareCommand::RestoreNow,
        CompareCommand::Job("keyed-shuffle".into()),
        CompareCommand::Input(6, 5),
        CompareCommand::Run(2, Some(4)),
        CompareCommand::Run(1, None),
        CompareCommand::Place("Count".into()),
        CompareCommand::CrashAt(12),
        CompareCommand::RestoreAt(15),
        CompareCommand::FromMain("line-sink".into(), Box::new(Settings::new(Strategy::AtLeastOnce))),
        CompareCommand::Open(Ok(vec![("a.json".into(), "{}".into())])),
        CompareCommand::Open(Err(Unread::TooLarge(7))),
        CompareCommand::Shared("https://example.org/#room=compare".into()),
        CompareCommand::Dismiss,
        CompareCommand::LessonStart,
        CompareCommand::LessonNext,
        CompareCommand::LessonPrev,
        CompareCommand::LessonClose,
        CompareCommand::Predict("most-bytes".into(), 1),
    ] {
        assert_eq!(through_json(&c), c);
    }
}

#[test]
fn stepped_played_or_run_to_the_end_the_runs_are_the_runners() {
    let runner = Lockstep::run(&three_ways()).expect("three ways runs");
    let mut stepped = CompareSession::new(three_ways(), None);
    while !stepped.at_end() {
        assert!(send(&mut stepped, CompareCommand::Step));
    }
    let mut played = CompareSession::new(three_ways(), None);
    assert!(send(&mut played, CompareCommand::TogglePlay));
    while played.playing {
        assert!(send(&mut played, CompareCommand::Tick));
    }
    assert!(!send(&mut played, CompareCommand::Tick), "paused, Play's clock changes nothing");
    let mut ended = CompareSession::new(three_ways(), None);
    assert!(send(&mut ended, CompareCommand::ToEnd));
    for s in [&stepped, &played, &ended] {
        assert!(s.lock.finished());
        assert_eq!(s.tick(), runner.tick);
        let costs: Vec<_> = s.lock.lanes.iter().map(|l| l.costs()).collect();
        assert_eq!(costs, runner.lanes.iter().map(|l| l.costs()).collect::<Vec<_>>(), "the runner's costs");
        check_replay(s);
    }
    assert!(send(&mut ended, CompareCommand::TogglePlay));
    assert!(!ended.playing, "nothing to play at the end");
}

#[test]
fn x_and_r_move_the_crash_and_the_restore_to_the_clock_once() {
    let mut s = CompareSession::new(three_ways(), None);
    assert!(!send(&mut s, CompareCommand::RestoreNow), "nothing to restore before the crash");
    for _ in 0..20 {
        send(&mut s, CompareCommand::Step);
    }
    let gap = s.file.restore.at - s.file.crash.at;
    assert!(send(&mut s, CompareCommand::CrashNow));
    assert_eq!((s.file.crash.at, s.file.restore.at, s.tick()), (20, 20 + gap, 21), "X strikes at the clock");
    check_replay(&s);
    let before = s.clone();
    assert!(!send(&mut s, CompareCommand::CrashNow), "a comparison has one crash");
    assert_eq!((s.version, s.tick(), &s.file), (before.version, before.tick(), &before.file));
    assert!(send(&mut s, CompareCommand::RestoreNow));
    assert_eq!((s.file.restore.at, s.tick()), (21, 22), "R comes at the clock");
    check_replay(&s);
    assert!(!send(&mut s, CompareCommand::RestoreNow), "the restore has come");
    assert_eq!(s.restore_refusal(Lang::Zh), Some("恢复已经进行过"));
}

#[test]
fn a_change_that_cannot_run_or_a_bad_file_changes_nothing_and_says_why() {
    let mut s = CompareSession::new(three_ways(), None);
    for _ in 0..5 {
        send(&mut s, CompareCommand::Step);
    }
    let file = s.file.clone();
    assert!(send(&mut s, CompareCommand::Place("NoSuchTask".into())));
    let Some(CompareNotice::Said(en, zh)) = &s.notice else { panic!("refused: {:?}", s.notice) };
    assert!(en.starts_with("Not changed: ") && zh.starts_with("未更改："), "{en} / {zh}");
    assert_eq!((&s.file, s.tick()), (&file, 5), "nothing changed, the clock neither");
    assert!(send(&mut s, CompareCommand::FromMain("diamond".into(), Box::new(Settings::new(Strategy::Aligned)))));
    assert_eq!(
        s.notice.as_ref().unwrap().message(Lang::En).1,
        "The main screen runs diamond; the side-by-side view runs line-sink or keyed-shuffle."
    );
    for (files, error) in [
        (Err(Unread::TooLarge(9_000_000)), CompareError::TooLarge(9_000_000)),
        (Ok(vec![("x.json".to_string(), "{\"barrierscope\": 1}".to_string())]), CompareError::MainRun),
        (Ok(vec![("a".to_string(), String::new()); 4]), CompareError::TooManyFiles(4)),
    ] {
        assert!(send(&mut s, CompareCommand::Open(files)));
        assert_eq!(s.notice, Some(CompareNotice::Refused(Origin::File, error)));
        assert_eq!((&s.file, s.tick()), (&file, 5));
    }
    let (bad, words) = s.notice.as_ref().unwrap().message(Lang::En);
    assert!(bad && words.ends_with("Nothing on screen changed."), "{words}");
    let mut saved = s.saved();
    saved.at = 30;
    assert!(send(&mut s, CompareCommand::Open(Ok(vec![("c.json".into(), saved.to_json())]))));
    assert_eq!((s.notice.clone(), s.tick()), (Some(CompareNotice::Opened(Origin::File)), 30));
    check_replay(&s);
}

/// A small deterministic generator (xorshift), so that a failure names its case.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn any_command(r: &mut Draw, s: &CompareSession) -> CompareCommand {
    let runs = s.file.configurations.len();
    let tasks: Vec<String> = s.lock.graph().tasks.iter().map(|t| t.name.clone()).collect();
    match r.below(26) {
        0..=5 => CompareCommand::Step,
        6 => CompareCommand::Back,
        7 => CompareCommand::ToStart,
        8 => CompareCommand::ToEnd,
        9 => CompareCommand::TogglePlay,
        10 | 11 => CompareCommand::Tick,
        12 => CompareCommand::Speed(r.below(7)),
        13 => CompareCommand::CrashNow,
        14 => CompareCommand::RestoreNow,
        15 => CompareCommand::Job(JOBS[r.below(JOBS.len())].into()),
        16 => CompareCommand::Input([4, 6][r.below(2)], [2, 5, 10][r.below(3)]),
        17 => CompareCommand::Run(r.below(MAX_CONFIGURATIONS + 1), [Some(r.below(PRESETS.len())), None][r.below(2)]),
        18 => CompareCommand::Place(match r.below(4) {
            0 => "cluster".into(),
            1 => "master".into(),
            _ => tasks[r.below(tasks.len())].clone(),
        }),
        19 => CompareCommand::CrashAt(r.below(60) as u64),
        20 => CompareCommand::RestoreAt(1 + r.below(80) as u64),
        21 => CompareCommand::LessonStart,
        22 => [CompareCommand::LessonNext, CompareCommand::LessonPrev, CompareCommand::LessonClose][r.below(3)].clone(),
        23 | 24 => CompareCommand::Predict(QUESTIONS[r.below(QUESTIONS.len())].id.into(), r.below(runs + 1)),
        _ => [CompareCommand::Dismiss, CompareCommand::Shared("a link".into())][r.below(2)].clone(),
    }
}

#[test]
fn after_any_commands_the_runs_are_the_comparison_replayed_to_the_clock() {
    let mut r = Draw(0x2545_f491_4f6c_dd1d);
    for case in 0..60 {
        let mut s = CompareSession::new(three_ways(), None);
        for i in 0..30 {
            let c = any_command(&mut r, &s);
            let before = (s.version, s.tick(), s.file.clone(), s.lesson.clone(), s.notice.clone(), s.playing);
            if !send(&mut s, c.clone()) {
                let after = (s.version, s.tick(), s.file.clone(), s.lesson.clone(), s.notice.clone(), s.playing);
                assert_eq!(after, before, "case {case}, command {i} ({c:?}): unchanged when it says so");
            }
            assert!(s.speed < SPEEDS.len());
            assert!(!(s.playing && s.at_end()), "case {case}, command {i}: Play stops at the end");
            assert_eq!(
                place_value(&crate::classroom::compare_room::place_of(&place_value(&s.file.crash.place))),
                place_value(&s.file.crash.place)
            );
            if i % 6 == 5 {
                check_replay(&s);
            }
        }
        check_replay(&s);
    }
}

#[test]
fn the_lesson_waits_for_every_prediction_then_plays_to_the_crash_and_reveals() {
    let mut s = CompareSession::new(three_ways(), None);
    send(&mut s, CompareCommand::Job("keyed-shuffle".into()));
    assert!(send(&mut s, CompareCommand::LessonStart));
    assert_eq!((&s.file, s.tick(), &s.lesson), (&three_ways(), 0, &Some(SavedCompareLesson::default())));
    assert_eq!(
        s.notice.as_ref().unwrap().message(Lang::En).1,
        "Opened the comparison from the lesson: the article's three ways (three-ways.json)."
    );
    assert!(send(&mut s, CompareCommand::LessonNext));
    assert_eq!(s.lesson.as_ref().unwrap().step, PREDICT);
    for (i, q) in QUESTIONS.iter().enumerate() {
        assert!(!send(&mut s, CompareCommand::LessonNext), "Next waits for prediction {}", i + 1);
        send(&mut s, CompareCommand::Predict(q.id.into(), i % 3));
    }
    assert!(send(&mut s, CompareCommand::LessonNext));
    assert_eq!(s.lesson.as_ref().unwrap().step, CRASH);
    assert_eq!(s.tick(), s.file.crash.at + 1, "the clock passes the crash");
    send(&mut s, CompareCommand::Predict("most-bytes".into(), 2));
    assert_eq!(s.lesson.as_ref().unwrap().predictions["most-bytes"], 2 % 3, "predictions are made on their step only");
    assert!(send(&mut s, CompareCommand::LessonNext));
    assert_eq!(s.lesson.as_ref().unwrap().step, REVEAL);
    assert!(s.lock.finished(), "the reveal runs to the end");
    check_replay(&s);
    while s.lesson.as_ref().unwrap().step + 1 < STEPS {
        send(&mut s, CompareCommand::LessonNext);
    }
    send(&mut s, CompareCommand::LessonNext);
    assert_eq!(s.lesson.as_ref().unwrap().step, STEPS - 1, "the last step stays");
    send(&mut s, CompareCommand::LessonPrev);
    assert_eq!(s.lesson.as_ref().unwrap().step, STEPS - 2);
    send(&mut s, CompareCommand::LessonClose);
    assert_eq!(s.lesson, None);
    assert!(!send(&mut s, CompareCommand::LessonNext), "no lesson, no Next");
}
