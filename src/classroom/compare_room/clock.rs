//! Side by side's clock: one tick steps every run that has not finished; going back replays the
//! comparison from tick 0; X and R move the crash and the restore to the tick the clock stands at
//! (and say why not, when they can't: a comparison has one crash, and its restore comes after it).

use crate::classroom::compare_room::session::CompareSession;
use crate::engine::comparison::Lockstep;
use crate::engine::Lang;

impl CompareSession {
    /// Why X is refused now, if it is.
    pub fn crash_refusal(&self, l: Lang) -> Option<&'static str> {
        if self.tick() > self.file.crash.at {
            Some(l.t(
                "the runs have crashed already: a comparison has one crash",
                "各运行已经崩溃过：一个比较只有一次崩溃",
            ))
        } else if self.at_end() {
            Some(l.t("the runs have finished", "各运行已经结束"))
        } else {
            None
        }
    }

    /// Why R is refused now, if it is.
    pub fn restore_refusal(&self, l: Lang) -> Option<&'static str> {
        if self.tick() <= self.file.crash.at {
            Some(l.t("nothing to restore: the crash has not struck yet", "无可恢复：崩溃尚未发生"))
        } else if self.tick() >= self.file.restore.at {
            Some(l.t("the restore has come already", "恢复已经进行过"))
        } else {
            None
        }
    }

    /// The runs of the comparison stepped to `tick` (or to their end, if sooner).
    pub(super) fn rebuild(&mut self, tick: u64) {
        let Ok(mut l) = Lockstep::new(&self.file) else { return };
        while l.tick < tick && l.step().unwrap_or(false) {}
        self.lock = l;
    }

    /// One tick; false at the end.
    pub(super) fn step(&mut self) -> bool {
        if self.at_end() {
            return false;
        }
        self.lock.step().unwrap_or(false)
    }

    /// Marks the runs finished when they have nothing left to do, so that Step and Play are
    /// refused at the end rather than doing nothing (the lockstep finds out by trying a tick).
    pub(super) fn settle(&mut self) {
        let mut probe = self.lock.clone();
        if !probe.finished() && !probe.step().unwrap_or(true) {
            self.lock = probe;
        }
    }

    pub(super) fn run_to_end(&mut self) {
        while self.step() {}
    }

    /// Steps (or goes back) to `tick`.
    pub(super) fn go_to(&mut self, tick: u64) {
        if tick < self.tick() {
            self.rebuild(tick);
        }
        while self.tick() < tick && self.step() {}
    }

    /// X: the crash at this tick (the restore as far after it as before), and this tick's step.
    /// False when X is refused.
    pub(super) fn crash_now(&mut self) -> bool {
        if self.crash_refusal(Lang::En).is_some() {
            return false;
        }
        let t = self.tick();
        let gap = self.file.restore.at - self.file.crash.at;
        self.file.crash.at = t;
        self.file.restore.at = t + gap;
        self.rebuild(t);
        self.step();
        true
    }

    /// R: the restore at this tick, and this tick's step. False when R is refused.
    pub(super) fn restore_now(&mut self) -> bool {
        if self.restore_refusal(Lang::En).is_some() {
            return false;
        }
        let t = self.tick();
        self.file.restore.at = t;
        self.rebuild(t);
        self.step();
        true
    }
}
