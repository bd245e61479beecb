//! The runs side by side: each run's title, its configuration in a line, what the crash means
//! under its mechanism, its drawing, its mechanism's line, whether it runs, is down or finished,
//! and its verdicts on state and output so far.

use yew::prelude::*;

use super::{drawing, table};
use crate::classroom::compare_room::CompareSession;
use crate::classroom::crash_words;
use crate::engine::comparison::{Costs, Lane};
use crate::engine::{Lang, Settings, Strategy};

/// A run's settings in a line: strategy, sink, and what else its mechanism is set to.
fn configuration_words(s: &Settings, l: Lang) -> String {
    use crate::app::text::{sink_name, strategy_name};
    let mut w = vec![strategy_name(l, s.strategy).to_string(), sink_name(l, s.sink).to_string()];
    match s.strategy {
        Strategy::SparkStreaming => {
            w.push(format!("{} {}", l.t("batch every", "批次间隔"), s.mechanism.spark.batch_interval));
            w.push(
                if s.mechanism.spark.write_ahead_log {
                    l.t("WAL on", "预写日志开")
                } else {
                    l.t("WAL off", "预写日志关")
                }
                .into(),
            );
        }
        Strategy::StormAcker if s.mechanism.storm.ackers == 0 => w.push(l.t("acking off", "关闭确认").into()),
        Strategy::StormAcker => {}
        _ => {
            if let Some(i) = s.checkpoint_interval {
                w.push(format!("{} {i}", l.t("checkpoint every", "检查点间隔")));
            }
        }
    }
    w.join(" · ")
}

/// Whether a run is finished, down or running, and the words for it.
fn status(lane: &Lane, l: Lang) -> (&'static str, String) {
    let down = !lane.sim.running() || lane.sim.region_down();
    if lane.finished() {
        (
            "finished",
            match l {
                Lang::En => format!("finished at tick {}", lane.sim.tick),
                Lang::Zh => format!("结束于第 {} 拍", lane.sim.tick),
            },
        )
    } else if down {
        ("down", l.t("down: waiting for the restore", "停机：等待恢复").to_string())
    } else {
        ("running", l.t("running", "运行中").to_string())
    }
}

/// Run `i`, titled `title`, with its costs `c` so far.
fn run(s: &CompareSession, i: usize, title: &str, c: &Costs, presenter: bool, l: Lang) -> Html {
    let lane = &s.lock.lanes[i];
    let crashed = s.tick() > s.file.crash.at;
    let status = status(lane, l);
    let (_, state_text, state_class) = table::cell("/verdicts/state", c, crashed, l);
    let (_, out_text, out_class) = table::cell("/verdicts/output", c, crashed, l);
    html! {
        <section class="cmp-run panel" id={format!("cmp-run-{i}")} aria-labelledby={format!("cmp-run-{i}-title")} data-status={status.0}>
            <h2 id={format!("cmp-run-{i}-title")}>{ title.to_string() }</h2>
            <p class="cmp-config">{ configuration_words(&lane.sim.settings, l) }</p>
            <p class="cmp-means">{ crash_words(&s.file.crash.place, &lane.sim.settings, s.lock.graph(), l) }</p>
            { drawing::drawing(i, lane, title, presenter, l) }
            <p class="cmp-mech">{ drawing::mechanism_line(&lane.sim, l) }</p>
            <p class="cmp-status">{ status.1 }</p>
            <p class="cmp-verdicts" data-run={i.to_string()}>
                <span class={classes!(state_class)}>{ format!("{} {state_text}", l.t("state", "状态")) }</span>
                { " · " }
                <span class={classes!(out_class)}>{ format!("{} {out_text}", l.t("output", "输出")) }</span>
            </p>
        </section>
    }
}

/// Every run, side by side.
pub fn runs(s: &CompareSession, titles: &[String], costs: &[Costs], presenter: bool, l: Lang) -> Html {
    html! {
        <div class="cmp-runs">
            { for titles.iter().zip(costs).enumerate().map(|(i, (t, c))| run(s, i, t, c, presenter, l)) }
        </div>
    }
}
