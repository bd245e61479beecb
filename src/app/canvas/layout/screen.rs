//! The screen a drawing is for: a desk's, a narrow window's, or a phone's held upright. Presenter
//! mode is apart from it (a projector's compact geometry).

/// The screen the drawing is for, besides presenter mode: a desk's, a narrow one (a phone held
/// sideways, a small window: the compact geometry, lanes as short as fit), or a phone held
/// upright (the job turned a quarter: each depth a row, the sources at the top, records falling
/// down the lanes, so the drawing is as wide as a phone and its text stays readable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Screen {
    #[default]
    Desk,
    Narrow,
    Portrait,
}

impl Screen {
    /// The screen of a window `width` CSS pixels wide.
    pub fn of_width(width: f64) -> Screen {
        if width <= 640.0 {
            Screen::Portrait
        } else if width <= 1000.0 {
            Screen::Narrow
        } else {
            Screen::Desk
        }
    }
}
