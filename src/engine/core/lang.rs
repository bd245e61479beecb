//! The language of every user-facing word: English or Simplified Chinese. The engine words its
//! narration and refusals in either; the classroom and the UI pass the learner's choice down.

/// The two languages of every message, label and narration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub fn id(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
    pub fn from_id(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }
    /// Picks the phrase for this language.
    pub fn t(self, en: &'static str, zh: &'static str) -> &'static str {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }
}

/// `say!(lang, "English {}", "中文 {}", args...)`: the sentence in `lang`, its two languages
/// written side by side. Both formats take the same arguments and may capture names in scope.
macro_rules! say {
    ($lang:expr, $en:literal, $zh:literal $(, $arg:expr)* $(,)?) => {
        match $lang {
            $crate::engine::core::lang::Lang::En => $crate::engine::core::lang::own(format_args!($en $(, $arg)*)),
            $crate::engine::core::lang::Lang::Zh => $crate::engine::core::lang::own(format_args!($zh $(, $arg)*)),
        }
    };
}
pub(crate) use say;

/// The text of formatted arguments, written in one out-of-line place: `format!` repeats its fast
/// path for constant text at every call site, and `say!` has hundreds of them.
#[inline(never)]
pub fn own(a: std::fmt::Arguments) -> String {
    let mut s = String::new();
    let _ = std::fmt::Write::write_fmt(&mut s, a);
    s
}
