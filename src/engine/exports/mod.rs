//! Exports to real engines, to check a verdict against a real Apache Flink or Apache Spark.
//!
//! - [`pyflink_export`]: a scenario as a runnable PyFlink job; [`pyflink_placement`]: how that
//!   job puts each key on the simulator's subtask.
//! - [`pyspark_export`]: a Spark Streaming scenario or a Spark batch run as a runnable PySpark
//!   job.

pub mod pyflink_export;
pub mod pyflink_placement;
pub mod pyspark_export;
