//! Time travel against a model: random commands (acting, stepping, scrubbing, running to the
//! end, undo and redo) on a session, on built-in jobs under several strategies. The model keeps
//! the history as a plain list of actions and, for each fork, the whole history before it; Undo
//! must give back exactly that history with the playhead where it was, Redo exactly what the undo
//! replaced, and the run on screen must be the replay of the history up to the playhead.
//! 1,000 cases (PROPTEST_CASES overrides).
#![cfg(not(target_arch = "wasm32"))]

mod cases;
use barrierscope::classroom::{Command, Notice, RunConfig, Session, Steps, MAX_FORKS_KEPT};
use barrierscope::engine::{Action, ChannelId, Settings, Sim, Strategy as Snapshots, TaskId};
use cases::config;
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Op {
    Act(u8, u8),
    Back,
    Forward,
    Tick,
    Seek(u8),
    ToEnd,
    Undo,
    Redo,
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        8 => (0u8..9, any::<u8>()).prop_map(|(k, x)| Op::Act(k, x)),
        3 => Just(Op::Back),
        2 => Just(Op::Forward),
        1 => Just(Op::Tick),
        3 => any::<u8>().prop_map(Op::Seek),
        1 => Just(Op::ToEnd),
        3 => Just(Op::Undo),
        2 => Just(Op::Redo),
    ];
    prop::collection::vec(op, 0..60)
}

fn action(sim: &Sim, kind: u8, x: u8) -> Action {
    let tasks = sim.graph.tasks.len();
    let channels = sim.graph.channels.len();
    match kind {
        0 | 1 => Action::Auto,
        2 => Action::Checkpoint,
        3 => Action::AllTimers,
        4 => Action::Crash,
        5 => Action::Restore,
        6 => Action::Read { task: TaskId((x as usize % tasks) as u16) },
        7 => Action::Deliver { channel: ChannelId((x as usize % channels) as u16) },
        _ => Action::CrashTask { task: TaskId((x as usize % tasks) as u16) },
    }
}

/// The model: the history, the playhead, and the whole history (with its playhead) before each
/// fork and before each undo.
#[derive(Default)]
struct Model {
    actions: Vec<Action>,
    pos: usize,
    undo: Vec<(Vec<Action>, usize)>,
    redo: Vec<(Vec<Action>, usize)>,
}

fn keep(stack: &mut Vec<(Vec<Action>, usize)>, entry: (Vec<Action>, usize)) {
    stack.push(entry);
    if stack.len() > MAX_FORKS_KEPT {
        stack.remove(0);
    }
}

impl Model {
    fn act(&mut self, a: Action) {
        if self.pos < self.actions.len() {
            keep(&mut self.undo, (self.actions.clone(), self.pos));
            self.redo.clear();
            self.actions.truncate(self.pos);
        }
        self.actions.push(a);
        self.pos += 1;
    }
}

/// The whole state of a run (clock, tasks, channels, storage, statistics, the scheduler's PRNG),
/// but for the scheduler's scratch buffer, which holds no state.
fn state(sim: &Sim) -> String {
    let s = format!("{sim:?}");
    s[..s.rfind(", scratch: ").expect("the last field")].to_string()
}

fn replay(start: &Sim, actions: &[Action]) -> String {
    let mut sim = start.clone();
    for a in actions {
        sim.apply(*a, &mut Vec::new()).expect("the model's history replays");
    }
    state(&sim)
}

/// The session's run is the model's: the same history and playhead, the state on screen the
/// replay up to the playhead, the end state the replay of it all.
fn same_run(s: &Session, m: &Model) {
    assert_eq!((s.timeline.actions(), s.timeline.position()), (&m.actions[..], m.pos));
    let start = s.timeline.initial();
    assert_eq!(state(s.sim()), replay(start, &m.actions[..m.pos]));
    assert_eq!(state(s.timeline.last()), replay(start, &m.actions));
    assert_eq!(s.narration.last().map(|l| l.step), (m.pos > 0).then_some(m.pos), "the narration ends at the playhead");
}

/// Commands are data: each goes through JSON on its way to the session.
fn send(s: &mut Session, cmd: Command) -> bool {
    let cmd: Command = serde_json::from_str(&serde_json::to_string(&cmd).unwrap()).unwrap();
    s.handle(cmd)
}

fn run_case(job: &str, strategy: Snapshots, ops: &[Op]) {
    let config = RunConfig { job: job.into(), settings: Settings::new(strategy), seed: 5, records: None };
    let mut s = Session::new(config).unwrap();
    let mut m = Model::default();
    for op in ops {
        let (len, pos) = (m.actions.len(), m.pos);
        let at_end = pos == len;
        let forks_before = m.undo.len();
        match *op {
            Op::Act(kind, x) => {
                let a = action(s.sim(), kind, x);
                let enabled = s.sim().check(a).is_ok();
                assert_eq!(send(&mut s, Command::Act(a)), enabled, "{a:?}");
                if enabled {
                    m.act(a);
                    if !at_end {
                        assert_eq!(s.notice, Some(Notice::Forked(Steps { after: pos, steps: len - pos })));
                    }
                }
            }
            Op::Back => {
                assert_eq!(send(&mut s, Command::Back), pos > 0);
                m.pos = pos.saturating_sub(1);
            }
            Op::Forward | Op::Tick => {
                let enabled = if at_end {
                    s.sim().check(Action::Auto).is_ok() && (matches!(op, Op::Forward) || s.sim().has_work())
                } else {
                    true
                };
                let cmd = if matches!(op, Op::Forward) { Command::Forward } else { Command::Tick };
                assert_eq!(send(&mut s, cmd), enabled);
                if at_end && enabled {
                    m.act(Action::Auto);
                } else if !at_end {
                    m.pos += 1;
                }
            }
            Op::Seek(x) => {
                let to = x as usize % (len + 2);
                assert!(send(&mut s, Command::Seek(to)));
                m.pos = to.min(len);
            }
            Op::ToEnd => {
                send(&mut s, Command::ToEnd);
                assert!(s.timeline.actions().starts_with(&m.actions), "running to the end keeps the history");
                m.actions = s.timeline.actions().to_vec();
                m.pos = m.actions.len();
                assert_eq!(s.timeline.position(), m.pos);
            }
            Op::Undo | Op::Redo => {
                let undoing = matches!(op, Op::Undo);
                let (from, to) = if undoing { (&mut m.undo, &mut m.redo) } else { (&mut m.redo, &mut m.undo) };
                match from.pop() {
                    None => {
                        assert!(!send(&mut s, if undoing { Command::Undo } else { Command::Redo }));
                        assert_eq!(s.notice, Some(if undoing { Notice::NothingToUndo } else { Notice::NothingToRedo }));
                    }
                    Some((actions, at)) => {
                        keep(to, (std::mem::take(&mut m.actions), m.pos));
                        (m.actions, m.pos) = (actions, at);
                        assert!(send(&mut s, if undoing { Command::Undo } else { Command::Redo }));
                        assert!(matches!(s.notice, Some(Notice::Undone { .. } | Notice::Redone { .. })));
                        same_run(&s, &m);
                    }
                }
            }
        }
        assert_eq!((s.timeline.actions(), s.timeline.position()), (&m.actions[..], m.pos), "after {op:?}");
        assert_eq!((s.undo.len(), s.redo.len()), (m.undo.len(), m.redo.len()), "after {op:?}");
        if let Op::Act(..) | Op::Forward | Op::Tick | Op::ToEnd = op {
            assert!(m.undo.len() <= forks_before + 1, "one fork at most");
        }
    }
    same_run(&s, &m);
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn undo_and_redo_give_back_exactly_the_history_before(
        job in prop::sample::select(vec!["line", "two-inputs", "line-sink"]),
        strategy in prop::sample::select(vec![Snapshots::Timers, Snapshots::Aligned, Snapshots::Unaligned]),
        ops in ops(),
    ) {
        run_case(job, strategy, &ops);
    }
}

/// Fork, undo: the very history before the fork, the playhead where it was; redo: the fork.
#[test]
fn fork_then_undo_gives_back_the_history_before_the_fork() {
    let mut s = Session::new(RunConfig::default()).unwrap();
    for _ in 0..3 {
        assert!(s.handle(Command::Act(Action::Read { task: TaskId(0) })));
    }
    for a in [Action::AllTimers, Action::Crash, Action::Restore, Action::Auto] {
        assert!(s.handle(Command::Act(a)));
    }
    let before = s.timeline.actions().to_vec();
    let end = state(s.sim());
    assert!(s.handle(Command::Seek(3)));
    let at3 = state(s.sim());
    assert_eq!(s.fork_preview(), Some(Steps { after: 3, steps: 4 }));
    assert!(s.handle(Command::Act(Action::Crash)));
    assert_eq!((s.timeline.len(), s.fork_preview()), (4, None));
    assert_eq!(s.notice, Some(Notice::Forked(Steps { after: 3, steps: 4 })));
    assert!(s.handle(Command::Undo));
    assert_eq!((s.timeline.actions(), s.timeline.position()), (&before[..], 3));
    assert_eq!(state(s.sim()), at3);
    assert_eq!(state(s.timeline.last()), end);
    assert_eq!(s.notice, Some(Notice::Undone { back: Steps { after: 3, steps: 4 }, at: 3, set_aside: 1 }));
    assert!(s.handle(Command::Redo));
    assert_eq!((s.timeline.len(), s.timeline.position()), (4, 4));
    assert!(s.handle(Command::Undo));
    assert!(!s.handle(Command::Undo), "one fork, one undo");
    assert_eq!(s.notice, Some(Notice::NothingToUndo));
}
