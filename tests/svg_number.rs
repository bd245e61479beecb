//! The page's integer-arithmetic number writers (`src/app/svg_number.rs`) against Rust's own float
//! formatting and `f64::clamp`, the model they stand in for. The app module compiles only for
//! wasm32, so the file is included here on its own: it depends on nothing else.

#[path = "../src/app/svg_number.rs"]
#[allow(dead_code)]
mod svg_number;

use proptest::prelude::*;
use svg_number::{fixed, num, within};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// `fixed(v, p)` writes what `format!("{v:.p$}")` writes, for values the page shows (times in
    /// milliseconds, shares in percent), away from exact ties where the two roundings differ
    /// (Rust's formatting rounds the binary value half to even; `fixed` rounds half away from zero).
    #[test]
    fn fixed_writes_what_format_writes(hundredths in -10_000_000i64..10_000_000, jitter in 0.1f64..0.4, places in 0u32..=3) {
        let v = hundredths as f64 / 100.0 + jitter / 10f64.powi(places as i32);
        prop_assert_eq!(fixed(v, places), format!("{v:.prec$}", prec = places as usize));
    }

    /// `within` is `clamp` whenever clamp would not panic.
    #[test]
    fn within_is_clamp(v in -1e6f64..1e6, a in -1e6f64..1e6, b in -1e6f64..1e6) {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        prop_assert_eq!(within(v, lo, hi), v.clamp(lo, hi));
    }

    /// `num` is `fixed(v, 1)` without a trailing ".0".
    #[test]
    fn num_is_fixed_one_without_trailing_zero(tenths in -1_000_000i64..1_000_000, jitter in -0.04f64..0.04) {
        let v = tenths as f64 / 10.0 + jitter;
        let f = fixed(v, 1);
        let expected = f.strip_suffix(".0").map(str::to_string).unwrap_or(f);
        prop_assert_eq!(num(v), if expected == "-0" { "0".to_string() } else { expected });
    }
}

#[test]
fn fixed_examples() {
    assert_eq!(fixed(2.345, 2), "2.35");
    assert_eq!(fixed(7.0, 1), "7.0");
    assert_eq!(fixed(-0.26, 1), "-0.3");
    assert_eq!(fixed(153.4, 0), "153");
    assert_eq!(fixed(0.004, 2), "0.00");
}

#[test]
fn within_lets_the_upper_bound_win_when_the_bounds_cross() {
    assert_eq!(within(5.0, 10.0, 2.0), 2.0);
}
