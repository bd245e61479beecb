//! Counts as the room writes them: thousands grouped, in both languages.

/// A count with thousands grouped: 194,377 (the page's own digits in both languages).
pub(super) fn grouped(n: u128) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
