//! What Side by side says above its runs: text that could not be opened (nothing on screen
//! changed), a change it refused, or a comparison opened (from a link, a file, or the lesson),
//! worded in English and Chinese.

use crate::classroom::saved_comparison::CompareError;
use crate::classroom::saved_run::Origin;
use crate::engine::Lang;

#[derive(Clone, Debug, PartialEq)]
pub enum CompareNotice {
    /// Opened text could not be opened: nothing on screen changed.
    Refused(Origin, CompareError),
    /// A change the room refused, in English and in Chinese.
    Said(String, String),
    Opened(Origin),
    /// The lesson set up its comparison, the article's three ways.
    LessonSetUp,
}

impl CompareNotice {
    /// Whether it reports a problem (an alert) rather than news (a status), and its words in `l`.
    pub fn message(&self, l: Lang) -> (bool, String) {
        let from = |o: &Origin| match o {
            Origin::Link => l.t("the link", "链接"),
            Origin::File => l.t("the file", "文件"),
            Origin::Storage => l.t("the comparison kept in this browser", "本浏览器保存的比较"),
        };
        let opened =
            |from: &str| format!("{} {from}.", l.t("Opened the comparison from", "已打开来自以下来源的比较："));
        match self {
            CompareNotice::Refused(o, e) => (
                true,
                format!(
                    "{} {}: {}. {}",
                    l.t("Could not open", "无法打开"),
                    from(o),
                    e.message(l),
                    l.t("Nothing on screen changed.", "屏幕上的内容没有改变。")
                ),
            ),
            CompareNotice::Said(en, zh) => (true, if l == Lang::Zh { zh.clone() } else { en.clone() }),
            CompareNotice::Opened(o) => (false, opened(from(o))),
            CompareNotice::LessonSetUp => (
                false,
                opened(l.t(
                    "the lesson: the article's three ways (three-ways.json)",
                    "课程：文章中的三种方式（three-ways.json）",
                )),
            ),
        }
    }
}
