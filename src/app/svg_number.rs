//! Numbers in SVG attributes (coordinates, sizes), written to one decimal with integer
//! arithmetic. Formatting an `f64` pulls Rust's float-printing algorithms (Grisu, Dragon) into the
//! WebAssembly module; the drawing needs only tenths of a pixel.

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
