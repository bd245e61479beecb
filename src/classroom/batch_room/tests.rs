//! The Batch room's session, checked natively against two models: the failure-free run (stepping,
//! playing or running any built-in job to its end writes every word exactly once, at the
//! failure-free cost), and the replay of its history (after any sequence of commands, each sent
//! through JSON, the run on screen is its first `at` actions replayed on a fresh run of its job,
//! and what storage keeps opens as the same run). Also the lesson: each step's run, predictions,
//! and a reveal whose answer is what the engine computed again.

use crate::classroom::batch_room::{BatchCommand, BatchNotice, BatchSession, LessonAt, DEFAULT_JOB};
use crate::classroom::room_session::RoomSession;
use crate::classroom::saved_run::Origin;
use crate::classroom::unread::Unread;
use crate::engine::batch::{BatchAction, BatchLoadError, BatchRun, Keep, BATCH_JOBS, BATCH_LESSON};
use crate::engine::Lang;

fn through_json(c: &BatchCommand) -> BatchCommand {
    serde_json::from_str(&serde_json::to_string(c).expect("a command serializes")).expect("and reads back")
}

fn send(s: &mut BatchSession, c: BatchCommand) -> bool {
    RoomSession::handle(s, through_json(&c))
}

/// The model of the playhead: the run's first `at` actions replayed on a fresh run of its job.
fn check_replay(s: &BatchSession) {
    let run = &s.run;
    assert!(run.at <= run.len(), "the playhead {} is within the history of {}", run.at, run.len());
    let model = BatchRun::with_actions(run.spec.clone(), &run.actions[..run.at]).expect("a recorded history replays");
    assert_eq!(model.sim(), run.sim(), "the run on screen is its history replayed");
    assert_eq!(model.log, run.log, "and so is its narration");
}

#[test]
fn every_command_goes_through_json() {
    for c in [
        BatchCommand::Step,
        BatchCommand::Act(BatchAction::Crash(1)),
        BatchCommand::Back,
        BatchCommand::Seek(3),
        BatchCommand::ToEnd,
        BatchCommand::Reset,
        BatchCommand::TogglePlay,
        BatchCommand::Tick,
        BatchCommand::Speed(4),
        BatchCommand::Job("hadoop-wordcount".into()),
        BatchCommand::Keep(2, Keep::Checkpoint),
        BatchCommand::Open(Origin::File, Ok("{}".into())),
        BatchCommand::Open(Origin::File, Err(Unread::TooLarge(9))),
        BatchCommand::Lesson(Some(3)),
        BatchCommand::Lesson(None),
        BatchCommand::Predict("P10".into()),
        BatchCommand::Reveal,
        BatchCommand::Dismiss,
        BatchCommand::Shared("https://example.org/#room=batch".into()),
    ] {
        assert_eq!(through_json(&c), c);
    }
}

#[test]
fn every_job_stepped_played_or_run_to_its_end_is_the_failure_free_run() {
    for job in BATCH_JOBS {
        let mut stepped = BatchSession::with_job(job);
        let mut steps = 0;
        while !stepped.finished() {
            assert!(send(&mut stepped, BatchCommand::Step));
            assert_eq!(stepped.notice, None, "{job}: no step on the way is refused");
            steps += 1;
            assert!(steps < 10_000, "{job} finishes");
        }
        let ledger = stepped.run.ledger();
        assert!(ledger.exactly_once(), "{job}: every word written exactly once: {ledger:?}");
        assert_eq!(stepped.run.sim().cost(), stepped.run.baseline, "{job}: at the failure-free cost");
        check_replay(&stepped);

        let mut played = BatchSession::with_job(job);
        assert!(send(&mut played, BatchCommand::TogglePlay));
        assert!(played.playing);
        while played.playing {
            assert!(send(&mut played, BatchCommand::Tick));
        }
        assert_eq!(played.run, stepped.run, "{job}: Play plays the same steps, then stops");
        assert_eq!(played.notice, None);
        let paused = played.clone();
        assert!(!send(&mut played, BatchCommand::Tick), "paused, Play's clock changes nothing");
        assert_eq!(played, paused);
        assert!(send(&mut played, BatchCommand::TogglePlay));
        assert!(!played.playing);
        assert_eq!(played.notice, Some(BatchNotice::NothingToPlay));

        let mut ended = BatchSession::with_job(job);
        assert!(send(&mut ended, BatchCommand::ToEnd));
        assert_eq!(ended.run, stepped.run, "{job}: ⇥ To the end takes the same steps");

        assert!(send(&mut stepped, BatchCommand::Step));
        assert!(matches!(stepped.notice, Some(BatchNotice::Refused(_))), "{job}: a step past the end is refused");
        assert_eq!(stepped.run, ended.run, "and changes nothing");
    }
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

fn any_command(r: &mut Draw, s: &BatchSession) -> BatchCommand {
    let machines = s.run.sim().machines() as usize;
    let names = ["P00", "P10", "P11", "P20", "M0", "R0", "nothing"];
    match r.below(24) {
        0..=7 => BatchCommand::Step,
        8 => BatchCommand::Act(BatchAction::FailTask),
        9 | 10 => BatchCommand::Act(BatchAction::Crash(r.below(machines + 1) as u8)),
        11 => BatchCommand::Back,
        12 => BatchCommand::Seek(r.below(s.run.len() + 2)),
        13 => BatchCommand::ToEnd,
        14 => [BatchCommand::Reset, BatchCommand::Dismiss, BatchCommand::Shared("a link".into())][r.below(3)].clone(),
        15 => BatchCommand::TogglePlay,
        16 | 17 => BatchCommand::Tick,
        18 => BatchCommand::Speed(r.below(8)),
        19 => BatchCommand::Job(BATCH_JOBS.get(r.below(BATCH_JOBS.len() + 1)).unwrap_or(&"no-such-job").to_string()),
        20 => BatchCommand::Keep(r.below(5), [Keep::None, Keep::Persist, Keep::Checkpoint][r.below(3)]),
        21 => BatchCommand::Lesson([Some(r.below(BATCH_LESSON.len() + 2)), None][r.below(2)]),
        22 => BatchCommand::Predict(names[r.below(names.len())].into()),
        _ => BatchCommand::Reveal,
    }
}

#[test]
fn after_any_commands_the_run_is_its_history_replayed_and_storage_keeps_it() {
    let mut r = Draw(0x9e37_79b9_7f4a_7c15);
    for case in 0..240 {
        let mut s = BatchSession::with_job(BATCH_JOBS[case % BATCH_JOBS.len()]);
        for i in 0..40 {
            let c = any_command(&mut r, &s);
            let before = s.clone();
            let changed = send(&mut s, c.clone());
            if !changed {
                assert_eq!(s, before, "case {case}, command {i} ({c:?}): unchanged when it says so");
            }
            if let (BatchCommand::Act(_), Some(BatchNotice::Refused(_))) = (&c, &s.notice) {
                assert_eq!(s.run, before.run, "case {case}, command {i} ({c:?}): a refused action changes nothing");
            }
            assert!(s.speed < crate::classroom::batch_room::SPEEDS.len());
            check_replay(&s);
        }
        // What storage keeps (and a link, and a file) opens as the same run, at the same step, in
        // the same place in the lesson.
        let opened = BatchSession::initial(None, Some(s.file(Lang::Zh).to_text()));
        assert_eq!(opened.notice, None, "case {case}: storage opens quietly");
        assert_eq!((&opened.run.actions, opened.run.at), (&s.run.actions, s.run.at), "case {case}");
        assert_eq!(opened.run.sim(), s.run.sim(), "case {case}");
        assert_eq!(opened.lesson, s.lesson, "case {case}");
        let linked = BatchSession::initial(Some(Ok(s.file(Lang::Zh).to_text())), None);
        assert_eq!((linked.notice, linked.asked_lang), (Some(BatchNotice::Opened(Origin::Link)), Some(Lang::Zh)));
    }
}

#[test]
fn text_that_cannot_be_opened_leaves_the_run_and_says_why() {
    let mut s = BatchSession::with_job("hadoop-wordcount");
    send(&mut s, BatchCommand::Step);
    send(&mut s, BatchCommand::Step);
    let run = s.run.clone();
    for (text, error) in [
        (Err(Unread::TooLarge(5_000_000)), BatchLoadError::TooLarge(5_000_000)),
        (Err(Unread::NotText), BatchLoadError::Encoding),
        (Ok("{\"barrierscope-batch\": 99}".to_string()), BatchLoadError::Version(99)),
    ] {
        assert!(send(&mut s, BatchCommand::Open(Origin::File, text)));
        assert_eq!(s.notice, Some(BatchNotice::NotOpened(Origin::File, error)));
        assert_eq!(s.run, run, "the run on screen stays");
    }
    let (en, bad) = s.notice.as_ref().unwrap().message(Lang::En, true);
    assert!(bad && en.starts_with("Could not open the file: "), "{en}");
    let (zh, _) = s.notice.as_ref().unwrap().message(Lang::Zh, true);
    assert!(zh.starts_with("无法打开文件："), "{zh}");

    let bad_link = BatchSession::initial(Some(Err(BatchLoadError::Encoding)), Some(s.file(Lang::En).to_text()));
    assert_eq!(bad_link.job, DEFAULT_JOB, "a bad link leaves the figure, not the stored run");
    assert_eq!(bad_link.notice, Some(BatchNotice::NotOpened(Origin::Link, BatchLoadError::Encoding)));
}

#[test]
fn the_lesson_steps_predicts_and_reveals_what_the_engine_computes_again() {
    let mut s = BatchSession::with_job(DEFAULT_JOB);
    for (i, step) in BATCH_LESSON.iter().enumerate() {
        assert!(send(&mut s, BatchCommand::Lesson(Some(i))));
        assert_eq!(s.run.as_ref(), &step.run(), "step {i}: the step's own run, however the learner got there");
        assert_eq!(s.lesson, Some(LessonAt { step: i, ..LessonAt::default() }));
        check_replay(&s);
        if !step.predict {
            continue;
        }
        let answer = step.answer();
        for name in &answer {
            send(&mut s, BatchCommand::Predict(name.clone()));
        }
        send(&mut s, BatchCommand::Predict("nothing".into()));
        send(&mut s, BatchCommand::Predict("nothing".into()));
        assert_eq!(
            s.lesson.as_ref().unwrap().prediction.iter().cloned().collect::<Vec<_>>(),
            answer,
            "a second mark unmarks"
        );
        assert!(send(&mut s, BatchCommand::Reveal));
        assert!(s.finished(), "the reveal runs to the end");
        let mut reran = s.run.sim().reran();
        reran.sort();
        assert_eq!(reran, answer, "step {i}: the answer is what the engine computed again");
        let revealed = s.lesson.clone();
        send(&mut s, BatchCommand::Predict(answer[0].clone()));
        assert_eq!(s.lesson, revealed, "no prediction changes once revealed");
    }
    let last = s.clone();
    assert!(!send(&mut s, BatchCommand::Lesson(Some(BATCH_LESSON.len()))), "PageDown on the last step");
    assert_eq!(s, last);
    assert!(send(&mut s, BatchCommand::Lesson(None)));
    assert_eq!(s.lesson, None);
}
