//! The built-in batch jobs: a Hadoop word count, and the article's Spark figure (a narrow chain
//! above P00 and P01, a wide dependency to P10 and P11) on two executors or one.

use super::hadoop::HadoopSpec;
use super::lineage::{Keep, Op, RddSpec};
use super::run::BatchSpec;
use super::spark::SparkSpec;

/// The input text of every built-in job.
pub fn text() -> Vec<String> {
    [
        "the quick brown fox",
        "jumps over the lazy dog",
        "the dog barks",
        "the fox runs",
        "a lazy afternoon",
        "over and over",
    ]
    .into_iter()
    .map(String::from)
    .collect()
}

/// The built-in jobs' names.
pub const BATCH_JOBS: [&str; 3] = ["hadoop-wordcount", "spark-figure", "spark-one-executor"];

/// A built-in job by name.
pub fn batch_job(name: &str) -> Option<BatchSpec> {
    Some(match name {
        "hadoop-wordcount" => BatchSpec::Hadoop(HadoopSpec { input: text(), splits: 3, reduces: 2, nodes: 3 }),
        "spark-figure" => BatchSpec::Spark(figure(2)),
        "spark-one-executor" => BatchSpec::Spark(figure(1)),
        _ => return None,
    })
}

/// The article's figure: lines (L) → words (W) → long words (P0) ⇒ counts (P1).
pub fn figure(executors: u8) -> SparkSpec {
    let rdd = |name: &str, label: &str, op, partitions| RddSpec {
        name: name.into(),
        label: label.into(),
        op,
        partitions,
        keep: Keep::None,
    };
    SparkSpec {
        input: text(),
        executors,
        rdds: vec![
            rdd("lines", "L", Op::Input, Some(2)),
            rdd("words", "W", Op::Words, None),
            rdd("long words", "P0", Op::DropShort, None),
            rdd("counts", "P1", Op::CountByKey, Some(2)),
        ],
        actions: 1,
    }
}
