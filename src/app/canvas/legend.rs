//! The legend beside the drawing: what each mark the canvas can draw under this strategy means.

use crate::app::key_colours::KEY_COLOURS;
use crate::app::legend_item::legend_item;
use crate::app::text::Lang;
use crate::classroom::Mark;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub(super) struct LegendProps {
    pub(super) lang: Lang,
    pub(super) presenter: bool,
    /// The marks the current strategy draws (`crate::classroom::legend`): the legend explains
    /// those and no others.
    pub(super) marks: Vec<Mark>,
    /// Whether the bands' part is there: it draws Storm's and Spark's marks.
    pub(super) bands: bool,
}

/// The legend: what the marks on the canvas mean, drawn with the canvas's own marks, only those
/// the current strategy draws. Open beside the drawing; folded into a button in presenter mode.
/// A component of its own: a step does not draw it again (only a change of strategy does).
#[component]
pub(super) fn Legend(props: &LegendProps) -> Html {
    let (l, presenter) = (props.lang, props.presenter);
    let item = legend_item;
    // The glyphs have classes of their own ("g-…"), styled like the canvas's marks, so a query
    // for the canvas's tokens or markers never finds them.
    let token = |class: &'static str| {
        html! { <g class={classes!("g-token", class)} transform="translate(24 24)">
        <rect class="tok" x="-17" y="-17" width="34" height="34" rx="17" fill={KEY_COLOURS[0]} />
        <text y="6" text-anchor="middle">{ "a" }</text></g> }
    };
    let tracker = props.marks.contains(&Mark::Barrier) && !props.marks.contains(&Mark::Buffered);
    let one = |m: &Mark| match m {
        Mark::Save => item(
            html! { <g class="g-snap"><rect x="4" y="10" width="76" height="26" rx="13" /><text x="42" y="29" text-anchor="middle">{ "◉ 4" }</text></g> },
            84,
            l.t("◉ n: the task saved its state at step n", "◉ n：任务在第 n 步保存了状态"),
        ),
        Mark::Cut => item(
            html! { <g class="g-cut"><polyline points="4,24 76,24" /></g> },
            80,
            l.t("the cut: joins the saves a restore would use", "切面：连接恢复将使用的保存"),
        ),
        Mark::Buffered => item(
            token("buffered"),
            48,
            l.t("ring: buffered behind a barrier while its task aligns", "圆环：任务对齐时在屏障后缓存"),
        ),
        Mark::Replayed => item(token("replayed"), 48, l.t("dashes: replayed after a restore", "虚线：恢复后重放")),
        Mark::Barrier => item(
            html! { <g class="g-barrier" transform="translate(24 24)"><rect class="bar" x="-4" y="-22" width="8" height="44" rx="2" />
            <circle class="mark" r="13" /><text y="6" text-anchor="middle">{ "1" }</text></g> },
            48,
            if tracker {
                l.t(
                    "filled: checkpoint barrier n (not aligned: nothing waits for it)",
                    "实心：检查点 n 的屏障（不对齐：没有输入等它）",
                )
            } else {
                l.t("filled: checkpoint barrier n (aligned)", "实心：检查点 n 的屏障（对齐）")
            },
        ),
        Mark::UnalignedBarrier => item(
            html! { <g class="g-barrier unaligned" transform="translate(30 24)"><rect class="bar" x="-4" y="-22" width="8" height="44" rx="2" />
            <rect class="mark" x="-26" y="-13" width="52" height="26" rx="13" /><text y="6" text-anchor="middle">{ "1" }<tspan class="barrier-mark">{ "⇥u" }</tspan></text></g> },
            60,
            l.t("hollow, ⇥u: unaligned barrier, overtakes records", "空心、⇥u：非对齐屏障，越过记录"),
        ),
        Mark::CancelMarker => item(
            html! { <g class="g-barrier cancel-marker" transform="translate(26 24)"><path class="cross" d="M -8 -20 L 8 20 M 8 -20 L -8 20" />
            <rect class="mark" x="-20" y="-13" width="40" height="26" rx="13" /><text y="6" text-anchor="middle">{ "✕1" }</text></g> },
            52,
            l.t("✕n: cancel marker, checkpoint n was declined", "✕n：取消标记，检查点 n 被拒绝"),
        ),
        Mark::NextRecord => item(
            html! { <g class="g-cell next"><rect x="10" y="10" width="28" height="28" rx="4" fill={KEY_COLOURS[0]} /><text x="24" y="30" text-anchor="middle">{ "d" }</text></g> },
            48,
            l.t("outlined: the next record a source reads", "描边：源下一条要读取的记录"),
        ),
        Mark::TaskTime => item(
            html! { <g class="g-flow"><text class="flow busy" x="4" y="31">{ "●" }</text>
            <text class="flow backpressured" x="32" y="31">{ "▲" }</text>
            <text class="flow idle" x="60" y="31">{ "○" }</text></g> },
            84,
            l.t(
                "● busy, ▲ backpressured (an output channel is full: its lane turns amber), ○ idle: what a task does",
                "● 繁忙、▲ 受反压（一个输出通道已满：其通道变为琥珀色）、○ 空闲：任务在做什么",
            ),
        ),
        // Storm's and Spark's marks are drawn by their bands' part, which comes with the strategy
        // (`bands_part.rs`); until it is there, the words alone.
        m => match super::super::bands_part::bands_now() {
            Some(bands) => (bands.legend)(*m, l),
            None => html! { <li class="legend-wait"><span>{ "…" }</span></li> },
        },
    };
    html! {
        <details class="legend" id="legend" open={!presenter} data-marks={props.marks.len().to_string()}>
            <summary>{ l.t("Legend: what the marks mean", "图例：各标记的含义") }</summary>
            <ul>
                { for props.marks.iter().map(one) }
            </ul>
        </details>
    }
}
