//! What the native property tests share: 1,000 cases per property, or `PROPTEST_CASES` while
//! iterating, and no persisted failures (a failure prints its case; the tests are the record).

use proptest::test_runner::Config as ProptestConfig;

pub fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}
