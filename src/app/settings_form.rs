//! The settings form behind the Settings button (a piece of the main screen that loads when first
//! opened: `pieces::settings`), and what the top bar's menus share with it: how a choice edits the
//! run's configuration ([`Settings::edited`], which holds the rules for what fits together) and
//! why a control is disabled under a strategy. A number typed into a field goes through
//! [`crate::classroom::edit_field`], which clamps or refuses it and says so next to the field.
//!
//! [`Settings::edited`]: crate::engine::Settings::edited

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::text::{strategy_name, Lang};
use super::ui_state::{Dispatch, Msg};
use crate::classroom::{edit_field, Command, Notice, RunConfig, SettingField};
use crate::engine::mechanisms::spark::settings::SparkEdit;
use crate::engine::mechanisms::storm::settings::StormEdit;
use crate::engine::mechanisms::structured::settings::{OutputSink, StructuredEdit};
use crate::engine::settings::{Edit, Setting};
use crate::engine::{
    CheckpointRetention, FailoverStrategy, HighAvailability, JobGraph, OperatorKind, RestartPolicy, SinkMode,
    SourceKind, Strategy,
};

/// How a select's value changes the run configuration.
pub(super) type Change = fn(&mut RunConfig, &str);

pub(super) fn edit(c: &mut RunConfig, edit: Edit) {
    c.settings = c.settings.edited(edit);
}

/// The element id of a Settings number field.
fn field_id(f: SettingField) -> &'static str {
    match f {
        SettingField::Records => "inp-records",
        SettingField::Seed => "inp-seed",
        SettingField::CheckpointInterval => "inp-interval",
        SettingField::AlignmentTimeout => "inp-align-timeout",
        SettingField::ChannelCapacity => "inp-capacity",
        SettingField::RecordCost => "inp-record-cost",
        SettingField::BufferDebloatTarget => "inp-debloat",
        SettingField::TolerableFailedCheckpoints => "inp-tolerable",
        SettingField::MessageTimeout => "inp-message-timeout",
        SettingField::BatchInterval => "inp-batch-interval",
    }
}

/// Whether the browser could not read the number field's text as a number (`validity.badInput`:
/// the value is then empty, whatever was typed).
fn bad_input(input: &HtmlInputElement) -> bool {
    js_sys::Reflect::get(input, &"validity".into())
        .and_then(|v| js_sys::Reflect::get(&v, &"badInput".into()))
        .is_ok_and(|b| b.as_bool() == Some(true))
}

/// "A, B, C or D": the strategies that take checkpoints, by the names the Snapshots menu shows.
fn checkpointing_strategies(l: Lang) -> String {
    let names: Vec<&str> =
        Strategy::ALL.iter().filter(|s| s.uses_coordinator()).map(|s| strategy_name(l, *s)).collect();
    let (last, rest) = names.split_last().expect("strategies take checkpoints");
    match l {
        Lang::En => format!("{} or {last}", rest.join(", ")),
        Lang::Zh => format!("{}或{last}", rest.join("、")),
    }
}

/// A Settings control that only some strategies take.
#[derive(Clone, Copy)]
pub(super) enum Needs {
    Interval,
    Alignment,
    Tolerable,
    TwoPhaseCommit,
    Restart,
    Acker,
    Failover,
    HighAvailability,
    MicroBatches,
    OffsetLog,
    Socket,
}

/// Why a Settings control is disabled under `strategy`, or None when it is enabled.
pub(super) fn disabled_why(l: Lang, strategy: Strategy, what: Needs) -> Option<String> {
    let choose = |strategies: String| match l {
        Lang::En => format!("choose {strategies} in Snapshots"),
        Lang::Zh => format!("在“快照策略”中选择{strategies}"),
    };
    let (enabled, why, which) = match what {
        Needs::Interval => (
            strategy.takes(Setting::CheckpointInterval),
            l.t("Only a checkpointing strategy triggers checkpoints", "只有做检查点的策略才会触发检查点"),
            checkpointing_strategies(l),
        ),
        Needs::Alignment => (
            strategy.takes(Setting::AlignmentTimeout),
            l.t("Only aligned barriers wait for alignment", "只有对齐屏障才会等待对齐"),
            strategy_name(l, Strategy::Aligned).to_string(),
        ),
        Needs::Tolerable => (
            strategy.uses_coordinator(),
            l.t("Only a checkpointing strategy counts failed checkpoints", "只有做检查点的策略才计算失败的检查点"),
            checkpointing_strategies(l),
        ),
        Needs::TwoPhaseCommit => (
            strategy.allows_sink(SinkMode::TwoPhaseCommit),
            l.t(
                "A two-phase-commit sink commits when a checkpoint completes, so it needs a checkpointing strategy",
                "两阶段提交的输出端在检查点完成时提交，所以需要做检查点的策略",
            ),
            checkpointing_strategies(l),
        ),
        Needs::Restart => (
            strategy.takes(Setting::RestartPolicy),
            l.t(
                "Only without snapshots: a strategy that saves restarts the sources from what it saved",
                "只在不做快照时适用：保存状态的策略会让源从保存处重启",
            ),
            strategy_name(l, Strategy::None).to_string(),
        ),
        Needs::Acker => (
            strategy.takes(Setting::AckerSettings),
            l.t("Only Storm's acker tracks tuples", "只有 Storm 的 acker 跟踪元组"),
            strategy_name(l, Strategy::StormAcker).to_string(),
        ),
        Needs::HighAvailability => (
            strategy.takes(Setting::HighAvailability),
            l.t(
                "Only a checkpointing strategy keeps completed checkpoints in the JobManager for a standby or a resubmission",
                "只有做检查点的策略才在 JobManager 中保存已完成的检查点，供备用节点或重新提交使用",
            ),
            checkpointing_strategies(l),
        ),
        Needs::MicroBatches => (
            strategy.takes(Setting::MicroBatches),
            l.t("Only Spark Streaming cuts micro-batches", "只有 Spark Streaming 切分微批"),
            strategy_name(l, Strategy::SparkStreaming).to_string(),
        ),
        Needs::OffsetLog => (
            strategy.takes(Setting::OffsetLog),
            l.t("Only Structured Streaming writes through these sinks", "只有结构化流通过这些输出端写出"),
            strategy_name(l, Strategy::StructuredStreaming).to_string(),
        ),
        Needs::Socket => (
            strategy.takes(Setting::Socket),
            l.t(
                "Storm's spout replays a failed tuple by reading it again, which a socket cannot do",
                "Storm 的 spout 靠重新读取来重放失败的元组，socket 做不到",
            ),
            strategy_name(l, Strategy::Aligned).to_string(),
        ),
        Needs::Failover => (
            strategy.takes(Setting::FailoverStrategy),
            l.t(
                "Storm runs every task in one worker here, which restarts whole; Spark replaces a lost executor at once",
                "这里 Storm 的所有任务都在一个 worker 里，整体重启；Spark 会立即替换丢失的执行器",
            ),
            checkpointing_strategies(l),
        ),
    };
    (!enabled).then(|| match l {
        Lang::En => format!("{why}: {}.", choose(which)),
        Lang::Zh => format!("{why}：{}。", choose(which)),
    })
}

/// The source kind (every strategy but Storm's), Spark Streaming's batch interval and
/// write-ahead log, and Structured Streaming's sink; each disabled select says why.
fn spark_settings(config: &RunConfig, interval: Html, l: Lang, dispatch: &Dispatch) -> Html {
    let s = &config.settings;
    let select = |change: fn(&str) -> Edit| {
        let (d, config) = (dispatch.clone(), config.clone());
        Callback::from(move |e: Event| {
            let mut c = config.clone();
            edit(&mut c, change(&e.target_unchecked_into::<HtmlSelectElement>().value()));
            d.dispatch(Msg::Cmd(Command::Configure(c)));
        })
    };
    let on_source =
        select(|v| Edit::Source(if v == "socket" { SourceKind::Socket } else { SourceKind::ReplayableLog }));
    let on_wal = select(|v| Edit::from(SparkEdit::WriteAheadLog(v == "on")));
    let on_output = select(|v| {
        let sink = OutputSink::ALL.into_iter().find(|o| o.id() == v).unwrap_or(OutputSink::File);
        Edit::from(StructuredEdit::OutputSink(Some(sink)))
    });
    let socket_why = disabled_why(l, s.strategy, Needs::Socket);
    let wal_why = disabled_why(l, s.strategy, Needs::MicroBatches);
    let output_why = disabled_why(l, s.strategy, Needs::OffsetLog);
    let output = s.mechanism.structured.sink(s.sink);
    let socket = s.source == SourceKind::Socket;
    html! { <>
        <label title={socket_why.clone().unwrap_or_default()}>{ l.t("Sources read", "数据源读取") }
            <select id="sel-source" onchange={on_source} disabled={socket_why.is_some()} title={socket_why.clone()}>
                <option value="replayable-log" selected={!socket}>{ l.t("a replayable log (like Kafka)", "可重放的日志（如 Kafka）") }</option>
                <option value="socket" selected={socket}>{ l.t("a socket: cannot read again", "socket：无法重读") }</option>
            </select></label>
        { interval }
        <label title={wal_why.clone().unwrap_or_default()}>{ l.t("Spark write-ahead log", "Spark 预写日志") }
            <select id="sel-wal" onchange={on_wal} disabled={wal_why.is_some()} title={wal_why.clone()}>
                <option value="off" selected={!s.mechanism.spark.write_ahead_log}>{ l.t("off (Spark's default)", "关闭（Spark 默认）") }</option>
                <option value="on" selected={s.mechanism.spark.write_ahead_log}>{ l.t("on: every block is logged before the ack", "开启：每个块先写日志再确认") }</option>
            </select></label>
        <label title={output_why.clone().unwrap_or_default()}>{ l.t("Structured Streaming's sink", "结构化流的输出端") }
            <select id="sel-output-sink" onchange={on_output} disabled={output_why.is_some()} title={output_why.clone()}>
                { for OutputSink::ALL.iter().map(|o| html! {
                    <option value={o.id()} selected={output == *o}>{ output_sink_name(l, *o) }</option>
                }) }
            </select></label>
    </> }
}

/// Storm's acker settings: the message timeout, the acker count, and which bolt edges emit
/// anchored. Only with the storm-acker strategy; each disabled field says why.
fn acker_settings(config: &RunConfig, graph: &JobGraph, timeout: Html, l: Lang, dispatch: &Dispatch) -> Html {
    let why = disabled_why(l, config.settings.strategy, Needs::Acker);
    let storm = why.is_none();
    let why = why.unwrap_or_default();
    let reconfigure = |f: Box<dyn Fn(&mut RunConfig, &str)>| {
        let d = dispatch.clone();
        let config = config.clone();
        Callback::from(move |e: Event| {
            let mut c = config.clone();
            f(&mut c, &e.target_unchecked_into::<HtmlInputElement>().value());
            d.dispatch(Msg::Cmd(Command::Configure(c)));
        })
    };
    let on_ackers = reconfigure(Box::new(|c, v| edit(c, Edit::from(StormEdit::Ackers(if v == "0" { 0 } else { 1 })))));
    let settings = &config.settings;
    let edges = graph
        .spec
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| !graph.spec.operators.iter().any(|o| o.name == e.from && o.kind == OperatorKind::Source));
    html! { <>
        { timeout }
        <label title={why.clone()}>{ l.t("Storm ackers", "Storm acker 数") }
            <select id="sel-ackers" title={why.clone()} disabled={!storm} onchange={on_ackers}>
                <option value="1" selected={settings.mechanism.storm.ackers == 1}>{ l.t("1: track every tuple (at least once)", "1：跟踪每个元组（至少一次）") }</option>
                <option value="0" selected={settings.mechanism.storm.ackers == 0}>{ l.t("0: tracking off (at most once)", "0：不跟踪（最多一次）") }</option>
            </select></label>
        { for edges.map(|(i, e)| {
            let name = e.name();
            let anchored = !settings.mechanism.storm.unanchored.contains(&name);
            let d = dispatch.clone();
            let c = config.clone();
            let g = graph.clone();
            let toggle = Callback::from(move |_: Event| {
                let mut next = c.clone();
                next.settings = next.settings.edited_for(Edit::from(StormEdit::Anchoring { edge: i as u16, anchored: !anchored }), &g);
                d.dispatch(Msg::Cmd(Command::Configure(next)));
            });
            let tip = if storm { l.t("Unanchored tuples are not tracked: never replayed", "未锚定的元组不被跟踪：永不重放").to_string() } else { why.clone() };
            html! {
                <label title={tip.clone()}>
                    { format!("{} {name}", l.t("Anchor tuples on", "锚定元组：")) }
                    <input id={format!("chk-anchor-{i}")} type="checkbox" title={tip} checked={anchored} disabled={!storm} onchange={toggle} /></label>
            }
        }) }
    </> }
}

/// A select whose options are a task's or a channel's index in the job graph (any other value:
/// none): the choice goes through `Settings::edited_for` as `edit`, which names the one chosen.
fn pick_in_graph(
    config: &RunConfig,
    graph: &JobGraph,
    dispatch: &Dispatch,
    edit: fn(Option<u16>) -> Edit,
) -> Callback<Event> {
    let (d, config, g) = (dispatch.clone(), config.clone(), graph.clone());
    Callback::from(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        let mut next = config.clone();
        next.settings = next.settings.edited_for(edit(v.parse::<u16>().ok()), &g);
        d.dispatch(Msg::Cmd(Command::Configure(next)));
    })
}

/// Which channels the capacity bounds (`channel-capacity` for every channel, or
/// `channel-capacities` for one): every channel, or one of the job's. A file that bounds several
/// channels one by one shows them, until the learner picks.
fn bounded_channel(config: &RunConfig, graph: &JobGraph, l: Lang, dispatch: &Dispatch) -> Html {
    let caps = &config.settings.channel_capacities;
    let on_change = pick_in_graph(config, graph, dispatch, Edit::BoundedChannel);
    html! {
        <label>{ l.t("The capacity bounds", "容量限制的通道") }
            <select id="sel-bounded-channel" onchange={on_change}>
                <option value="every" selected={caps.is_empty()}>{ l.t("every channel", "每个通道") }</option>
                { for graph.channels.iter().enumerate().map(|(i, c)| html! {
                    <option value={i.to_string()} selected={caps.len() == 1 && caps.contains_key(&c.name)}>
                        { format!("{} {}", l.t("only", "仅"), c.name) }</option>
                }) }
                { (caps.len() > 1).then(|| html! {
                    <option value="several" selected=true disabled=true>{ format!("{} ({})",
                        caps.keys().cloned().collect::<Vec<_>>().join(", "), l.t("as the file sets them", "按文件设定")) }</option>
                }).unwrap_or_default() }
            </select></label>
    }
}

/// Which task is slow (`record-cost`): none, or one of the job's tasks.
fn slow_task(config: &RunConfig, graph: &JobGraph, l: Lang, dispatch: &Dispatch) -> Html {
    let slow = config.settings.record_cost.keys().next().cloned();
    let on_change = pick_in_graph(config, graph, dispatch, Edit::SlowTask);
    html! {
        <label>{ l.t("Slow task (backpressure starts behind it)", "慢任务（反压从它后面开始）") }
            <select id="sel-slow-task" onchange={on_change}>
                <option value="none" selected={slow.is_none()}>{ l.t("none: every task takes 1 step a record", "无：每个任务每条记录 1 步") }</option>
                { for graph.tasks.iter().enumerate().map(|(i, t)| html! {
                    <option value={i.to_string()} selected={slow.as_deref() == Some(t.name.as_str())}>{ t.name.clone() }</option>
                }) }
            </select></label>
    }
}

/// JobManager high availability and the retention of externalized checkpoints: checkpointing
/// strategies only; the retention matters only without a standby. Each disabled select says why.
fn ha_settings(config: &RunConfig, l: Lang, dispatch: &Dispatch) -> Html {
    let settings = &config.settings;
    let why = disabled_why(l, settings.strategy, Needs::HighAvailability);
    let retention_why = why.clone().or_else(|| {
        (settings.high_availability == HighAvailability::Standby).then(|| {
            l.t(
                "With a standby JobManager the HA store keeps the pointer to the latest checkpoint and the job never fails with its JobManager: the retention matters only without HA.",
                "有备用 JobManager 时，HA 存储保存着指向最新检查点的指针，作业不会随 JobManager 失败：保留策略只在没有高可用时起作用。",
            )
            .to_string()
        })
    });
    let on = |change: fn(&mut RunConfig, &str)| {
        let (d, config) = (dispatch.clone(), config.clone());
        Callback::from(move |e: Event| {
            let mut c = config.clone();
            change(&mut c, &e.target_unchecked_into::<HtmlSelectElement>().value());
            d.dispatch(Msg::Cmd(Command::Configure(c)));
        })
    };
    let on_ha = on(|c, v| edit(c, Edit::HighAvailability(HighAvailability::from_id(v).unwrap_or_default())));
    let on_retention = on(|c, v| edit(c, Edit::Retention(CheckpointRetention::from_id(v).unwrap_or_default())));
    let ha_name = |h: HighAvailability| match h {
        HighAvailability::Standby => l.t("a standby JobManager takes over (election)", "备用 JobManager 接管（选举）"),
        HighAvailability::None => {
            l.t("none: the job fails with its JobManager (Flink's default)", "无：作业随 JobManager 失败（Flink 默认）")
        }
    };
    let retention_name = |r: CheckpointRetention| match r {
        CheckpointRetention::NoExternalizedCheckpoints => {
            l.t("not externalized: they go with the job (Flink's default)", "不外部化：随作业一起删除（Flink 默认）")
        }
        CheckpointRetention::RetainOnCancellation => {
            l.t("retain on cancellation (kept when it fails too)", "取消时保留（失败时也保留）")
        }
        CheckpointRetention::DeleteOnCancellation => {
            l.t("delete on cancellation (kept when it fails)", "取消时删除（失败时保留）")
        }
    };
    html! { <>
        <label title={why.clone().unwrap_or_default()}>{ l.t("JobManager high availability", "JobManager 高可用") }
            <select id="sel-high-availability" onchange={on_ha} disabled={why.is_some()} title={why.clone()}>
                { for HighAvailability::ALL.iter().rev().map(|h| html! {
                    <option value={h.id()} selected={settings.high_availability == *h}>{ ha_name(*h) }</option>
                }) }
            </select></label>
        <label title={retention_why.clone().unwrap_or_default()}>{ l.t("Completed checkpoints when the job fails", "作业失败时的已完成检查点") }
            <select id="sel-retention" onchange={on_retention} disabled={retention_why.is_some()} title={retention_why.clone()}>
                { for CheckpointRetention::ALL.iter().map(|r| html! {
                    <option value={r.id()} selected={settings.externalized_checkpoint_retention == *r}>{ retention_name(*r) }</option>
                }) }
            </select></label>
    </> }
}

/// A select's change turns its value into a new run configuration.
pub(super) fn on_select(config: &RunConfig, dispatch: &Dispatch, change: Change) -> Callback<Event> {
    let (d, config) = (dispatch.clone(), config.clone());
    Callback::from(move |e: Event| {
        let mut c = config.clone();
        change(&mut c, &e.target_unchecked_into::<HtmlSelectElement>().value());
        d.dispatch(Msg::Cmd(Command::Configure(c)));
    })
}

/// The settings form, inside the Settings button (a piece: see `pieces::settings`).
pub fn settings_grid(
    config: &RunConfig,
    graph: &JobGraph,
    notice: Option<&Notice>,
    l: Lang,
    dispatch: &Dispatch,
) -> Html {
    let on_select = |change: Change| on_select(config, dispatch, change);
    let on_restart = on_select(|c, v| {
        edit(
            c,
            Edit::Restart(if v == "from-latest" { RestartPolicy::FromLatest } else { RestartPolicy::FromBeginning }),
        )
    });
    let on_failover = on_select(|c, v| edit(c, Edit::Failover(FailoverStrategy::from_id(v).unwrap_or_default())));
    let settings = &config.settings;
    let strategy = settings.strategy;
    // A number field: what it shows, its range, why it is disabled, and what it did with the last
    // value typed into it.
    let number = |field: SettingField, label: &'static str, why: Option<String>| {
        let on_change = {
            let (d, config) = (dispatch.clone(), config.clone());
            Callback::from(move |e: Event| {
                let input = e.target_unchecked_into::<HtmlInputElement>();
                let typed = (!bad_input(&input)).then(|| input.value());
                // The value the field already shows (a change event again on leaving the field)
                // changes nothing.
                if typed.as_deref() == Some(field.shown(&config).as_str()) {
                    return;
                }
                // The field shows what the run uses: the value taken or clamped, or, refused, the
                // one before.
                let used = edit_field(&config, field, typed.as_deref()).map_or_else(|_| config.clone(), |(c, _)| c);
                input.set_value(&field.shown(&used));
                d.dispatch(Msg::Cmd(Command::EditSetting(field, typed)));
            })
        };
        let (min, max) = field.range();
        let id = field_id(field);
        let note = match notice {
            Some(Notice::Setting(n)) if n.field() == field => Some(n),
            _ => None,
        };
        let note_id = format!("note-{}", id.trim_start_matches("inp-"));
        html! { <>
            <label title={why.clone().unwrap_or_default()}>{ label }
                <input id={id} type="number" min={min.to_string()} max={max.to_string()} disabled={why.is_some()}
                    title={why.clone()} value={field.shown(config)} onchange={on_change}
                    aria-describedby={note.is_some().then(|| note_id.clone())} /></label>
            { note.map(|n| html! {
                <p id={note_id.clone()} class={classes!("field-note", n.is_refusal().then_some("refused"))}>{ n.message(l) }</p>
            }).unwrap_or_default() }
        </> }
    };
    let restart_why = disabled_why(l, strategy, Needs::Restart);
    html! { <>
                    { number(SettingField::Records, l.t("Records per source partition (empty = the story's)", "每个源分区的记录数（留空=故事默认）"), None) }
                    { number(SettingField::Seed, l.t("Seed", "随机种子"), None) }
                    { number(SettingField::CheckpointInterval, if strategy == Strategy::SparkStreaming {
                            l.t("State checkpoint every (batches, empty = 2)", "状态检查点间隔（批次，留空=2）")
                        } else {
                            l.t("Checkpoint every (steps, empty = by hand)", "检查点间隔（步，留空=手动）")
                        },
                        disabled_why(l, strategy, Needs::Interval)) }
                    { number(SettingField::AlignmentTimeout, l.t("Alignment timeout (steps, empty = off)", "对齐超时（步，留空=关闭）"),
                        disabled_why(l, strategy, Needs::Alignment)) }
                    { number(SettingField::ChannelCapacity, l.t("Channel capacity (empty = unbounded)", "通道容量（留空=无界）"), None) }
                    { bounded_channel(config, graph, l, dispatch) }
                    { slow_task(config, graph, l, dispatch) }
                    { number(SettingField::RecordCost, l.t("Steps a record of the slow task", "慢任务每条记录的步数"),
                        settings.record_cost.is_empty().then(|| l.t("Choose a slow task first", "请先选择一个慢任务").to_string())) }
                    { number(SettingField::BufferDebloatTarget, l.t("Buffer debloating: target (steps, empty = off)", "缓冲区消胀：目标（步，留空=关闭）"), None) }
                    { number(SettingField::TolerableFailedCheckpoints, l.t("Tolerable failed checkpoints (in a row)", "可容忍的连续失败检查点数"),
                        disabled_why(l, strategy, Needs::Tolerable)) }
                    <label title={disabled_why(l, strategy, Needs::Failover).unwrap_or_default()}>{ l.t("Failover: when a task crashes, restart", "故障转移：任务崩溃时重启") }
                        <select id="sel-failover" onchange={on_failover} disabled={!strategy.takes(Setting::FailoverStrategy)}
                            title={disabled_why(l, strategy, Needs::Failover)}>
                            <option value="region" selected={settings.failover_strategy == FailoverStrategy::Region}>{ l.t("its pipelined region (Flink's default)", "其流水线区域（Flink 默认）") }</option>
                            <option value="full" selected={settings.failover_strategy == FailoverStrategy::Full}>{ l.t("every task", "所有任务") }</option>
                        </select></label>
                    <label title={restart_why.clone().unwrap_or_default()}>{ l.t("Without snapshots, sources restart", "不做快照时，源从何处重启") }
                        <select id="sel-restart" ~value={if settings.restart == RestartPolicy::FromLatest { "from-latest" } else { "from-beginning" }}
                            disabled={restart_why.is_some()} title={restart_why.clone()} onchange={on_restart}>
                            <option value="from-beginning" selected={settings.restart == RestartPolicy::FromBeginning}>{ l.t("from the beginning (at least once)", "从头开始（至少一次）") }</option>
                            <option value="from-latest" selected={settings.restart == RestartPolicy::FromLatest}>{ l.t("after the newest read (at most once)", "从最新读取处（最多一次）") }</option>
                        </select></label>
                    { acker_settings(config, graph, number(SettingField::MessageTimeout, l.t("Storm message timeout (steps)", "Storm 消息超时（步）"),
                        disabled_why(l, strategy, Needs::Acker)), l, dispatch) }
                    { ha_settings(config, l, dispatch) }
                    { spark_settings(config, number(SettingField::BatchInterval, l.t("Spark batch interval (steps)", "Spark 批次间隔（步）"),
                        disabled_why(l, strategy, Needs::MicroBatches)), l, dispatch) }
    </> }
}

/// A Structured Streaming sink's entry in the settings form: its API, and what a batch run again
/// does to its output.
fn output_sink_name(l: Lang, o: OutputSink) -> &'static str {
    match o {
        OutputSink::File => {
            l.t("file sink: _spark_metadata skips a re-run batch", "文件输出：_spark_metadata 跳过重跑的批次")
        }
        OutputSink::ForeachBatchIdempotent => {
            l.t("foreachBatch, skipping a batchId it has", "foreachBatch，跳过已写过的 batchId")
        }
        OutputSink::ForeachBatch => l.t("foreachBatch, writing every run", "foreachBatch，每次运行都写"),
        OutputSink::Foreach => l.t("foreach: row by row, a re-run writes again", "foreach：逐行写，重跑会再写"),
    }
}
