//! One clock for every run: to the start, back, step, play, to the end, X (crash all) and R
//! (restore all), Play's speed, and where the clock stands. A button the session would refuse is
//! disabled, and its tooltip says why.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::app::rooms::held::Dispatcher;
use crate::classroom::compare_room::{CompareCommand, CompareSession, SPEEDS};
use crate::engine::Lang;

/// The clock's buttons, in the page's language.
struct Buttons<'a> {
    d: &'a Dispatcher<CompareSession>,
    l: Lang,
}

impl Buttons<'_> {
    /// A button: its id, command, label, why it is refused (if it is), class and key.
    fn act(
        &self,
        id: &'static str,
        c: CompareCommand,
        label: String,
        refusal: Option<&'static str>,
        class: &'static str,
        key: &'static str,
    ) -> Html {
        let (d, l) = (self.d.clone(), self.l);
        let onclick = Callback::from(move |_| d.dispatch(c.clone()));
        let title =
            refusal.map_or_else(|| format!("{label} ({} {key})", l.t("key", "按键")), |r| format!("{label}: {r}"));
        html! {
            <button class={classes!("tool", class)} id={id} {onclick} disabled={refusal.is_some()} title={title.clone()}
                    aria-keyshortcuts={key}>{ label }</button>
        }
    }
}

pub fn clock_bar(s: &CompareSession, l: Lang, d: &Dispatcher<CompareSession>) -> Html {
    let tick = s.tick();
    let not_back = (tick == 0).then(|| l.t("the clock is at tick 0", "时钟位于第 0 拍"));
    let not_on = s.at_end().then(|| l.t("the runs have finished", "各运行已经结束"));
    let on_speed = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            if let Ok(s) = e.target_unchecked_into::<HtmlInputElement>().value().parse() {
                d.dispatch(CompareCommand::Speed(s))
            }
        })
    };
    let b = Buttons { d, l };
    let play = if s.playing { l.t("❚❚ Pause", "❚❚ 暂停") } else { l.t("▶▶ Play", "▶▶ 播放") };
    html! {
        <div class="cmp-clock" role="toolbar" aria-label={l.t("One clock for every run", "所有运行共用的时钟")}>
            { b.act("cmp-start", CompareCommand::ToStart, l.t("⇤ Start", "⇤ 开始").into(), not_back, "", "Home") }
            { b.act("cmp-back", CompareCommand::Back, l.t("◀ Back", "◀ 后退").into(), not_back, "", "ArrowLeft") }
            { b.act("cmp-step", CompareCommand::Step, l.t("Step ▶", "单步 ▶").into(), not_on, "primary", "ArrowRight") }
            { b.act("cmp-play", CompareCommand::TogglePlay, play.into(), (!s.playing).then_some(()).and(not_on), "", "Space") }
            { b.act("cmp-end", CompareCommand::ToEnd, l.t("⇥ To the end", "⇥ 到结束").into(), not_on, "", "E") }
            { b.act("cmp-crash", CompareCommand::CrashNow, l.t("✖ Crash all (X)", "✖ 全部崩溃 (X)").into(), s.crash_refusal(l), "danger", "X") }
            { b.act("cmp-restore", CompareCommand::RestoreNow, l.t("⟳ Restore all (R)", "⟳ 全部恢复 (R)").into(), s.restore_refusal(l), "good", "R") }
            <label class="cmp-field speed" for="cmp-speed">
                <span>{ l.t("Speed", "速度") }</span>
                <input type="range" id="cmp-speed" min="0" max={(SPEEDS.len() - 1).to_string()} value={s.speed.to_string()}
                       onchange={on_speed} />
            </label>
            <span id="cmp-tick" class="cmp-tick" aria-live="polite">
                { match l {
                    Lang::En => format!("tick {tick} · crash at {} · restore at {}", s.file.crash.at, s.file.restore.at),
                    Lang::Zh => format!("第 {tick} 拍 · 崩溃于第 {} 拍 · 恢复于第 {} 拍", s.file.crash.at, s.file.restore.at),
                } }
                if s.lock.finished() { { format!(" · {}", l.t("every run has finished", "所有运行均已结束")) } }
            </span>
        </div>
    }
}
