//! What the page is shown on: a slide it is embedded in (`?embed` in its address), and the kind
//! of screen its window's width makes (a desk's, a narrow window's, a phone's held upright).

use crate::app::canvas;

/// Whether the page is embedded in a slide: `?embed` in its address. It then shows only the
/// canvas, the step controls and the lesson, and takes its run or lesson from the link.
pub fn embedded() -> bool {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    search.trim_start_matches('?').split('&').any(|p| p == "embed" || p.starts_with("embed="))
}

/// The kind of screen of the window, by its width.
pub fn window_screen() -> canvas::Screen {
    let width = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(1366.0);
    canvas::Screen::of_width(width)
}
