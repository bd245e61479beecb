//! Counterexample cards: for each bad outcome some schedule reaches, the shortest schedule to it,
//! the records it hits, how many schedules end that way, and the engine's explanation
//! ([`Story::text`]) in the page's language, with its decisive steps; "▶ Open on the canvas"
//! makes it the main screen's run (a saved run of the study, as a link opens one), with those
//! steps marked ◆ on the timeline.

use crate::app::svg_number::fixed;
use std::rc::Rc;

use yew::prelude::*;

use crate::app::decisive::{Mark, Marks};
use crate::app::sharing_part;
use crate::app::ui_state::{Dispatch, Msg};
use crate::classroom::{RunConfig, SavedRun, SAVED_VERSION};
use crate::engine::core::ledger::Verdict;
use crate::engine::explorer::{Counterexample, Decisive, DecisiveStep, Judged};
use crate::engine::{Action, JobGraph, Lang};

/// "state: lost", "output: duplicated", "completeness: a record missed a path", "order: …".
pub fn outcome_name(judged: Judged, verdict: Verdict, l: Lang) -> String {
    let what = match judged {
        Judged::State => l.t("state", "状态"),
        Judged::Output => l.t("output", "输出"),
        Judged::Complete => return l.t("completeness: a record missed a path", "完整性：有记录缺了一条路径").into(),
        Judged::Order => return l.t("order: a record out of order", "顺序：有记录乱序").into(),
    };
    let how = match verdict {
        Verdict::Lost => l.t("a record lost", "有记录丢失"),
        Verdict::Duplicated => l.t("a record duplicated", "有记录重复"),
        Verdict::ExactlyOnce => l.t("exactly once", "精确一次"),
        Verdict::Pending => l.t("still on its way", "仍在途中"),
    };
    format!("{what}: {how}")
}

fn labels(g: &JobGraph, records: &[crate::engine::RecordId]) -> String {
    records.iter().map(|r| g.label(*r).to_string()).collect::<Vec<_>>().join(", ")
}

/// What a decisive step did, in `l`.
pub fn decisive_words(g: &JobGraph, d: &DecisiveStep, l: Lang) -> String {
    let task = d.task.map(|t| g.task(t).name.clone()).unwrap_or_default();
    let recs = labels(g, &d.records);
    match (d.what, l) {
        (Decisive::Sent, Lang::En) => format!("{task} sends {recs}"),
        (Decisive::Sent, Lang::Zh) => format!("{task} 发出 {recs}"),
        (Decisive::Saved, Lang::En) => format!("{task} saves (the save the restore uses)"),
        (Decisive::Saved, Lang::Zh) => format!("{task} 保存（恢复所用的那份）"),
        (Decisive::Received, Lang::En) => format!("{recs} reaches {task}"),
        (Decisive::Received, Lang::Zh) => format!("{recs} 到达 {task}"),
        (Decisive::BarrierAhead, Lang::En) => format!("the barrier reaches {task} ahead of {recs}"),
        (Decisive::BarrierAhead, Lang::Zh) => format!("屏障先于 {recs} 到达 {task}"),
        (Decisive::Crashed, Lang::En) => "the cluster crashes".into(),
        (Decisive::Crashed, Lang::Zh) => "集群崩溃".into(),
        (Decisive::Restored, Lang::En) => "the restore".into(),
        (Decisive::Restored, Lang::Zh) => "恢复".into(),
        (Decisive::SentAgain, Lang::En) if task.is_empty() => format!("the restore replays {recs}"),
        (Decisive::SentAgain, Lang::Zh) if task.is_empty() => format!("恢复时重放 {recs}"),
        (Decisive::SentAgain, Lang::En) => format!("{task} sends {recs} again"),
        (Decisive::SentAgain, Lang::Zh) => format!("{task} 再次发出 {recs}"),
        (Decisive::ReceivedAgain, Lang::En) => format!("{recs} reaches {task} again"),
        (Decisive::ReceivedAgain, Lang::Zh) => format!("{recs} 再次到达 {task}"),
        (Decisive::Dropped, Lang::En) => format!("{task} drops {recs}"),
        (Decisive::Dropped, Lang::Zh) => format!("{task} 丢弃 {recs}"),
    }
}

/// The counterexample as a saved run of `config`, paused at its first step, and its marks.
pub fn opened(config: &RunConfig, g: &JobGraph, c: &Counterexample, l: Lang) -> (String, Marks) {
    let saved = SavedRun {
        barrierscope: SAVED_VERSION,
        job: config.job.clone(),
        settings: config.settings.clone(),
        seed: config.seed,
        records: config.records,
        actions: c.schedule.iter().map(Action::code).collect::<Vec<_>>().join(" "),
        at: 0,
        lesson: None,
        lang: l,
        restore: None,
        lesson_file: None,
    };
    let marks = Marks {
        steps: c
            .story
            .decisive
            .iter()
            .map(|d| Mark {
                step: d.step as usize,
                en: decisive_words(g, d, Lang::En),
                zh: decisive_words(g, d, Lang::Zh),
            })
            .collect(),
        why_en: c.story.text(g, Lang::En),
        why_zh: c.story.text(g, Lang::Zh),
        schedule: c.schedule.clone(),
    };
    (serde_json::to_string(&saved).expect("a saved run serializes"), marks)
}

/// The share of `n` in `of`, in percent to one decimal.
pub fn share(n: u128, of: u128) -> String {
    if of == 0 {
        return "0".into();
    }
    let tenths = (n as f64 / of as f64 * 1000.0).round() / 10.0;
    format!("{} %", fixed(tenths, 1))
}

/// One card per counterexample. `config` None: it can't open on the canvas (a lab probe), `why`
/// says so.
pub fn cards(
    list: &[Counterexample],
    g: &Rc<JobGraph>,
    config: Option<&RunConfig>,
    total: u128,
    l: Lang,
    main: &Dispatch,
    prefix: &str,
) -> Html {
    html! { <>{ for list.iter().enumerate().map(|(i, c)| {
        let id = format!("{prefix}-cx-{}", c.bad.id());
        let open = config.map(|config| {
            let opened = Rc::new(opened(config, g, c, l));
            let d = main.clone();
            html! {
                <button class="tool primary cx-open" id={format!("{id}-open")} data-autofocus={(i == 0).then_some("true")}
                    onclick={Callback::from(move |_| {
                        let d2 = d.clone();
                        let opened = opened.clone();
                        sharing_part::with_sharing(d.clone(), move |_| d2.dispatch(Msg::OpenMarked(opened)));
                    })}>
                    { l.t("▶ Open on the canvas", "▶ 在画布上打开") }</button>
            }
        });
        html! {
            <article class={classes!("cx-card", c.bad.verdict.id())} id={id.clone()} data-outcome={c.bad.id()}
                data-steps={c.schedule.len().to_string()} aria-labelledby={format!("{id}-title")}>
                <h4 id={format!("{id}-title")}>{ outcome_name(c.bad.judged, c.bad.verdict, l) }
                    <span class="cx-records">{ format!(" · {}", labels(g, &c.records)) }</span></h4>
                <p class="cx-meta">{ match l {
                    Lang::En => format!("The shortest of {} schedules ending this way ({}): {} steps.", super::counts::grouped(c.schedules), share(c.schedules, total), c.schedule.len()),
                    Lang::Zh => format!("以此结局的 {} 个调度（{}）中最短的一个：{} 步。", super::counts::grouped(c.schedules), share(c.schedules, total), c.schedule.len()),
                } }</p>
                <p class="cx-why" lang={if l == Lang::Zh { "zh-Hans" } else { "en" }}>{ c.story.text(g, l) }</p>
                <details class="cx-steps">
                    <summary>{ l.t("The decisive steps", "关键步骤") }</summary>
                    <ol>{ for c.story.decisive.iter().map(|d| html! {
                        <li>{ format!("◆ {} — {}", d.step, decisive_words(g, d, l)) }</li>
                    }) }</ol>
                </details>
                { open.unwrap_or_default() }
            </article>
        }
    }) }</> }
}
