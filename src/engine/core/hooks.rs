//! Which of the seam's optional hooks a mechanism answers, read once when the run starts. The
//! engine's hot paths (every read, every record, every scheduler step) skip the calls a
//! mechanism does not answer, so the Flink barrier handlers pay nothing for what only Storm's
//! acker or Spark Streaming needs.

/// The hooks a mechanism answers (`Mechanism::hooks`); none by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    /// It follows every record it is handed (`OwnSources::after_record`, Storm's acker): each
    /// processed record collects what it emitted for it.
    pub follows_records: bool,
    /// It may refuse a read, a JobManager crash or the coordinator's trigger (`Mechanism::check`,
    /// asked with `Action::Checkpoint` before each trigger): stop-the-world while its sources are
    /// paused.
    pub checks_actions: bool,
    /// It has steps of its own (`OwnSteps::pending_work`, `OwnSteps::steps`).
    pub own_steps: bool,
    /// It may wait for what only time brings (`OwnSteps::awaits_time`).
    pub waits_for_time: bool,
    /// It runs work again that takes effect otherwise than the first time (`OwnSteps::rerun`).
    pub reruns: bool,
    /// It does something as the logical clock ticks (`Mechanism::on_tick`): fires per-task
    /// timers, times out an alignment, a Storm tuple tree or a micro-batch, ends a
    /// stop-the-world drain. Every step of a run whose mechanism does none skips the call.
    pub ticks: bool,
    /// Something runs on the clock at the end of every step: the mechanism's `on_tick` (`ticks`)
    /// or the Kafka broker's transaction coordinator (`sink: kafka`, set by the run, not the
    /// mechanism). The one flag the end of a step tests, so that neither costs a run without it.
    pub clock: bool,
    /// The Kafka broker's clock runs (`sink: kafka`): its coordinator scans for timed-out
    /// transactions and fails a writer whose transaction it aborted at the end of every step.
    pub broker: bool,
    /// It sees each record before the operator does (`BarrierHandler::on_record`): to store it as
    /// in-flight data of an unaligned snapshot, or to drop it. A run without skips the call.
    pub hears_records: bool,
}
