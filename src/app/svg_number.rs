//! Numbers in SVG attributes (coordinates, sizes) and in the page's text (milliseconds, shares),
//! written with integer arithmetic. Formatting an `f64` pulls Rust's float-printing algorithms (Grisu, Dragon) into the
//! WebAssembly module; the drawing needs only tenths of a pixel. For the same reason the drawing
//! bounds a coordinate with [`within`], not `f64::clamp`: clamp's assertion message formats its
//! bounds with `Debug`, which alone costs the first visit about 14 KB of float printing.

/// `v` to one decimal, without a trailing ".0": 12.25 → "12.3", -3.0 → "-3".
pub fn num(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    let (sign, t) = if tenths < 0 { ("-", -tenths) } else { ("", tenths) };
    if t % 10 == 0 {
        format!("{sign}{}", t / 10)
    } else {
        format!("{sign}{}.{}", t / 10, t % 10)
    }
}

/// A polyline's `points` attribute: "x,y x,y ...".
pub fn points(p: &[(f64, f64)]) -> String {
    p.iter().map(|(x, y)| format!("{},{}", num(*x), num(*y))).collect::<Vec<_>>().join(" ")
}

/// `v` kept between `lo` and `hi`, as `f64::clamp` but without its panic (and the float printing
/// its message needs): when `lo > hi`, `hi` wins.
pub fn within(v: f64, lo: f64, hi: f64) -> f64 {
    v.max(lo).min(hi)
}

/// `v` rounded to `places` decimals (at most 3), trailing zeros kept, as `format!("{v:.places$}")`
/// writes it: `fixed(2.345, 2)` is "2.35" (half away from zero), `fixed(7.0, 1)` is "7.0".
pub fn fixed(v: f64, places: u32) -> String {
    let places = places.min(3);
    let scale = 10i64.pow(places);
    let n = (v * scale as f64).round() as i64;
    let (sign, n) = if n < 0 { ("-", -n) } else { ("", n) };
    match places {
        0 => format!("{sign}{n}"),
        _ => format!("{sign}{}.{:0width$}", n / scale, n % scale, width = places as usize),
    }
}
