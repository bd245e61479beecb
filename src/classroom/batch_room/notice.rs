//! What the Batch room tells the learner above the run: an action refused, text that could not be
//! opened (the run on screen stays), text opened, or Play with nothing left to play. Worded here,
//! in English and Chinese, as the main screen's notices are.

use crate::classroom::saved_run::Origin;
use crate::engine::batch::wording::{load_error, refusal};
use crate::engine::batch::{BatchLoadError, Refusal};
use crate::engine::Lang;

/// The last thing to tell the learner.
#[derive(Clone, Debug, PartialEq)]
pub enum BatchNotice {
    Refused(Refusal),
    NotOpened(Origin, BatchLoadError),
    Opened(Origin),
    NothingToPlay,
}

fn origin_name(l: Lang, o: Origin) -> &'static str {
    match o {
        Origin::Link => l.t("the link", "链接"),
        Origin::File => l.t("the file", "文件"),
        Origin::Storage => l.t("this browser's storage", "本浏览器的存储"),
    }
}

impl BatchNotice {
    /// The notice in `l` (for a Hadoop job or a Spark one), and whether it reports a problem (an
    /// alert) rather than news (a status).
    pub fn message(&self, l: Lang, hadoop: bool) -> (String, bool) {
        match self {
            BatchNotice::Refused(r) => (refusal(l, *r, hadoop), true),
            BatchNotice::NotOpened(o, e) => (
                match l {
                    Lang::En => format!("Could not open {}: {}", origin_name(l, *o), load_error(l, e)),
                    Lang::Zh => format!("无法打开{}：{}", origin_name(l, *o), load_error(l, e)),
                },
                true,
            ),
            BatchNotice::Opened(o) => (
                match l {
                    Lang::En => format!("Opened the batch run from {}.", origin_name(l, *o)),
                    Lang::Zh => format!("已从{}打开批处理运行。", origin_name(l, *o)),
                },
                false,
            ),
            BatchNotice::NothingToPlay => (
                l.t("The job is done: nothing to play. Step back, or reset.", "作业已完成：没有可播放的。后退或重置。")
                    .to_string(),
                true,
            ),
        }
    }
}
