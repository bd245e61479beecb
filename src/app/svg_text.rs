//! Text on an SVG drawing, where nothing measures it before it is drawn: an estimate of its width
//! at a size, a text cut to fit with "…", and a text broken into lines. The canvas, its bands and
//! the rooms' drawings all fit their words with these (the e2e test measures what the browser
//! really draws).

/// A generous estimate of a text's width at `px` (bold), for fitting text into its place. The
/// page's fonts vary by machine; the e2e test measures what the browser really draws.
pub fn text_w(s: &str, px: f64) -> f64 {
    s.chars()
        .map(|c| match c {
            ' ' => 0.3,
            'i' | 'l' | 'j' | 'I' | '.' | ',' | ':' | ';' | '|' | '\'' | '!' | '(' | ')' | '[' | ']' | '{' | '}' => {
                0.36
            }
            'm' | 'w' | 'M' | 'W' => 0.92,
            'A'..='Z' => 0.72,
            'a'..='z' | '0'..='9' | '+' | '-' | '=' | '/' | '?' => 0.62,
            c if (c as u32) < 0x2000 => 0.7,
            _ => 1.05,
        })
        .sum::<f64>()
        * px
}

/// `s` cut to fit `max` units at `px`, with "…" when it was cut.
pub fn fit(s: &str, max: f64, px: f64) -> String {
    if text_w(s, px) <= max {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        if text_w(&format!("{out}{c}…"), px) > max {
            break;
        }
        out.push(c);
    }
    format!("{}…", out.trim_end())
}

/// `s` broken into lines of at most `max` units at `px`: at spaces, or between any two
/// characters where a word (or Chinese text, which has no spaces) is longer than a line. Nothing
/// is cut: a band that wraps grows to hold every line.
pub fn wrap(s: &str, max: f64, px: f64) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in s.split(' ') {
        let last = lines.last_mut().expect("one line at least");
        let joined = if last.is_empty() { word.to_string() } else { format!("{last} {word}") };
        if text_w(&joined, px) <= max {
            *last = joined;
            continue;
        }
        if !last.is_empty() {
            lines.push(String::new());
        }
        for c in word.chars() {
            let last = lines.last_mut().expect("one line at least");
            if !last.is_empty() && text_w(&format!("{last}{c}"), px) > max {
                lines.push(c.to_string());
            } else {
                last.push(c);
            }
        }
    }
    lines
}
