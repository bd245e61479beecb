//! Side by side's form: the comparison's job, input, runs (presets), where the crash strikes and
//! when it and the restore come, or the main screen's job and settings as the first run. A change
//! that leaves the comparison unable to run is refused with the reason (nothing changes);
//! otherwise the clock goes back to 0.

use crate::classroom::compare_room::notice::CompareNotice;
use crate::classroom::compare_room::session::CompareSession;
use crate::classroom::saved_comparison::{input_choice, input_for, job_choice, Preset, JOBS, PRESETS};
use crate::engine::comparison::{ComparisonFile, Configuration, CrashPlace, Lockstep, MAX_CONFIGURATIONS};
use crate::engine::runs::scenario::JobRef;
use crate::engine::Settings;

/// The crash place a form value names.
pub fn place_of(value: &str) -> CrashPlace {
    match value {
        "cluster" => CrashPlace::Cluster,
        "master" => CrashPlace::Master,
        task => CrashPlace::WorkerRunning(task.to_string()),
    }
}

/// The form value of a crash place.
pub fn place_value(p: &CrashPlace) -> String {
    match p {
        CrashPlace::Cluster => "cluster".into(),
        CrashPlace::Master => "master".into(),
        CrashPlace::WorkerRunning(t) => t.clone(),
    }
}

/// The preset index a configuration is, if it is one.
pub fn preset_index(c: &Configuration) -> Option<usize> {
    Preset::of(c).and_then(|p| PRESETS.iter().position(|x| x.id == p.id))
}

/// `f` on built-in job `job`, its input as large as before; a crash on a worker moves to the
/// job's Count.
fn set_job(f: &mut ComparisonFile, job: &str) {
    let (n, every) = input_choice(f).unwrap_or((10, 10));
    f.job = JobRef::Builtin(job.to_string());
    f.input = input_for(job, n, every);
    if let CrashPlace::WorkerRunning(_) = f.crash.place {
        let count = if job == "keyed-shuffle" { "Count[0]" } else { "Count" };
        f.crash.place = CrashPlace::WorkerRunning(count.into());
    }
}

impl CompareSession {
    /// A new comparison from the form: refused, with the reason, if it can't run; else the
    /// clock goes back to 0.
    fn change(&mut self, f: impl FnOnce(&mut ComparisonFile)) {
        let mut file = self.file.clone();
        f(&mut file);
        if let Err(e) = Lockstep::new(&file) {
            let en = e.to_string();
            self.notice = Some(CompareNotice::Said(format!("Not changed: {en}"), format!("未更改：{en}")));
            return;
        }
        self.file = file;
        self.file.name.clear();
        self.file.description.clear();
        self.playing = false;
        self.rebuild(0);
    }

    pub(super) fn job(&mut self, job: String) {
        self.change(|f| set_job(f, &job));
    }

    pub(super) fn input(&mut self, n: usize, every: u64) {
        self.change(|f| {
            let job = job_choice(f).unwrap_or("line-sink");
            f.job = JobRef::Builtin(job.into());
            f.input = input_for(job, n, every);
        });
    }

    /// Run `i` takes preset `preset`, or is removed (not the only run); runs fill from the left.
    pub(super) fn run(&mut self, i: usize, preset: Option<usize>) {
        self.change(|f| match preset {
            Some(p) if i < f.configurations.len() => f.configurations[i] = PRESETS[p].configuration(),
            Some(p) if i < MAX_CONFIGURATIONS => f.configurations.push(PRESETS[p].configuration()),
            None if i < f.configurations.len() && f.configurations.len() > 1 => {
                f.configurations.remove(i);
            }
            _ => {}
        });
    }

    pub(super) fn place(&mut self, p: &str) {
        self.change(|f| f.crash.place = place_of(p));
    }

    /// The crash at tick `t`; the restore keeps its distance if it would come first.
    pub(super) fn crash_at(&mut self, t: u64) {
        self.change(|f| {
            let gap = f.restore.at.saturating_sub(f.crash.at).max(1);
            f.crash.at = t;
            if f.restore.at <= t {
                f.restore.at = t + gap;
            }
        });
    }

    pub(super) fn restore_at(&mut self, t: u64) {
        self.change(|f| f.restore.at = t);
    }

    /// The main screen's job and settings as run 1; a job the room does not run is refused.
    pub(super) fn from_main(&mut self, job: String, settings: Settings) {
        if !JOBS.contains(&job.as_str()) {
            self.notice = Some(CompareNotice::Said(
                format!("The main screen runs {job}; the side-by-side view runs line-sink or keyed-shuffle."),
                format!("主界面运行的是 {job}；并排视图只运行 line-sink 或 keyed-shuffle。"),
            ));
            return;
        }
        self.change(|f| {
            if job_choice(f) != Some(job.as_str()) {
                set_job(f, &job);
            }
            f.configurations[0] = Configuration { name: "The main screen's run".into(), settings };
        });
    }
}
