//! The dataflow: what runs whether or not anything is ever saved. A job graph of operators
//! expands into tasks joined by FIFO channels; sources read replayable logs by offset; operators
//! transform and count; sinks write to an external system. Every step of the logical clock is one
//! action. The fault-tolerance mechanisms (`crate::engine::mechanisms`) watch this dataflow and are
//! the only thing that saves or restores it.

pub mod back_pressure_monitor;
pub mod buffer_debloat;
pub mod builtin_jobs;
pub mod channel;
pub mod contributors;
pub mod external_system;
pub mod flow;
pub mod input_log;
pub mod job_graph;
pub mod job_spec;
pub mod kafka;
pub mod key_groups;
pub mod mailbox;
pub mod operator;
pub mod record;
pub mod row;
pub mod sink;
pub mod slow_tasks;
pub mod source;
pub mod state;
pub mod task;
pub mod task_time;
