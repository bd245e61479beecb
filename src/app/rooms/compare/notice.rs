//! Above Side by side's runs: the link the Share button made, and the session's notice (worded by
//! the classroom, [`CompareNotice::message`](crate::classroom::compare_room::CompareNotice::message))
//! with its OK.

use yew::prelude::*;

use crate::app::rooms::held::Dispatcher;
use crate::classroom::compare_room::{CompareCommand, CompareSession};
use crate::engine::Lang;

pub fn link_and_notice(s: &CompareSession, l: Lang, d: &Dispatcher<CompareSession>) -> Html {
    let notice = s.notice.as_ref().map(|n| n.message(l));
    let d = d.clone();
    let dismiss = Callback::from(move |_| d.dispatch(CompareCommand::Dismiss));
    html! { <>
        if let Some(link) = &s.link {
            <p class="cmp-link" role="status">
                <label for="cmp-link-text">{ l.t("Link to this comparison:", "此比较的链接：") }</label>
                <input id="cmp-link-text" type="text" readonly=true value={link.clone()} />
            </p>
        }
        if let Some((bad, text)) = notice {
            <p id="cmp-notice" class={classes!("cmp-notice", bad.then_some("bad"))} role={if bad { "alert" } else { "status" }}>
                { text }
                <button class="tool" id="cmp-notice-close" onclick={dismiss}>{ l.t("OK", "知道了") }</button>
            </p>
        }
    </> }
}
