//! Room: run it on a real Flink. The run on the main screen becomes one PyFlink 2.3 job
//! (`engine::pyflink_export`, the same file `barrierscope export-pyflink` writes for the same
//! scenario), offered as a download with the scenario it was written from, and with how to run it.
//! A run Flink has no counterpart for (per-task timers, Storm, Spark Streaming, a socket source)
//! gets the exporter's reason instead, in the page's language.

use yew::prelude::*;

use super::RoomProps;
use crate::app::files::download;
use crate::app::text::{sink_name, strategy_name, Lang};
use crate::app::ui_state::Msg;
use crate::classroom::{Command, RunConfig, Session};
use crate::engine::exports::pyflink_export::ExportError;
use crate::engine::{export_pyflink, Scenario, ScriptAction, SinkMode, SourceKind, Strategy};

/// The run on screen as a scenario: its configuration and the actions up to the step shown.
pub fn scenario_of(session: &crate::classroom::Session) -> Scenario {
    let mut sc = session.config.scenario();
    let g = &session.sim().graph;
    let done = &session.timeline.actions()[..session.timeline.position()];
    sc.actions = done.iter().map(|&a| ScriptAction::of(g, a)).collect();
    sc
}

pub fn render(props: RoomProps) -> Html {
    html! { <>{ crate::app::rooms::room_head(crate::app::room::Room::PyFlink, &props, Html::default()) }<PyFlinkRoom ..props /></> }
}

#[component]
fn PyFlinkRoom(props: &RoomProps) -> Html {
    let l = props.lang;
    let session = props.run.session();
    let scenario = scenario_of(&session);
    let stem = format!("barrierscope-{}-step-{}", session.config.job, session.timeline.position());
    drop(session);
    match export_pyflink(&scenario) {
        Ok(python) => {
            let lines = python.lines().count();
            let json = scenario.to_json();
            let (py_name, json_name) = (format!("{stem}.py"), format!("{stem}.json"));
            let on_py = {
                let (name, text) = (py_name.clone(), python.clone());
                Callback::from(move |_: MouseEvent| download(&name, "text/x-python", &text))
            };
            let on_json = {
                let name = json_name.clone();
                Callback::from(move |_: MouseEvent| download(&name, "application/json", &json))
            };
            html! {
                <div class="room-body pyflink">
                    <p>{ l.t("This run, up to the step on screen, as one PyFlink job: the same job, input, checkpointing settings and \
                              crash on Apache Flink's local mini-cluster. It prints each record's count in state and in the output, \
                              so you can check what the simulator showed against Flink itself.",
                             "把这次运行（到屏幕上的这一步为止）写成一个 PyFlink 作业：同样的作业、输入、检查点设置和崩溃，\
                              在 Apache Flink 的本地 mini-cluster 上运行。它打印每条记录在状态和输出中的次数，\
                              让你用 Flink 本身检验模拟器所显示的结果。") }</p>
                    <div class="room-actions">
                        <button id="btn-pyflink-download" class="tool primary" data-autofocus="true" onclick={on_py}
                            data-file={py_name.clone()}>{ say_download(l, &py_name) }</button>
                        <button id="btn-pyflink-scenario" class="tool" onclick={on_json}
                            data-file={json_name.clone()}>{ say_download(l, &json_name) }</button>
                    </div>
                    <h3>{ l.t("How to run it", "如何运行") }</h3>
                    <ol class="howto">
                        <li>{ l.t("Install Java 11 or later (on Debian: apt-get install openjdk-17-jre-headless) and Python 3.9 to 3.12.",
                                  "安装 Java 11 或更高版本（Debian 上：apt-get install openjdk-17-jre-headless）和 Python 3.9 至 3.12。") }</li>
                        <li>{ l.t("Install PyFlink in a virtual environment (the runtime is about 330 MB):",
                                  "在虚拟环境中安装 PyFlink（运行时约 330 MB）：") }
                            <pre class="cmd">{ "python3 -m venv .venv\n.venv/bin/pip install apache-flink==2.3.0" }</pre></li>
                        <li>{ l.t("Run the job with the environment's python first on PATH (PyFlink's workers start python from PATH):",
                                  "运行作业时把虚拟环境的 python 放在 PATH 最前面（PyFlink 的工作进程从 PATH 启动 python）：") }
                            <pre class="cmd" id="pyflink-command">{ format!("PATH=\"$PWD/.venv/bin:$PATH\" python {py_name}") }</pre></li>
                        <li>{ l.t("It prints one line of JSON: each record's count in state and in the output, and the verdicts. \
                                   The same file comes from the runner: barrierscope export-pyflink with the scenario file.",
                                  "它打印一行 JSON：每条记录在状态和输出中的次数，以及判定。\
                                   用运行器也能得到同一个文件：对场景文件运行 barrierscope export-pyflink。") }</li>
                    </ol>
                    <details class="pyflink-source">
                        <summary>{ say_lines(l, lines) }</summary>
                        <pre id="pyflink-code" class="code" tabindex="0">{ python }</pre>
                    </details>
                </div>
            }
        }
        Err(e) => {
            // The way forward: a run of the same job Flink can take (the same settings, with what
            // Flink has no counterpart for changed), or the last step of this run it can take.
            let session = props.run.session();
            let config = exportable_config(&session.config);
            let back_to = config.is_none().then(|| last_exportable_step(&session)).flatten();
            drop(session);
            let switch = config.map(|c| {
                let d = props.dispatch.clone();
                let words = if c.settings.strategy == props.run.session().config.settings.strategy {
                    l.t("⇄ Change the settings Flink can't take (a new run of this job)", "⇄ 改掉 Flink 不支持的设置（这个作业的新运行）")
                } else {
                    l.t("⇄ Switch to aligned barriers (a new run of this job)", "⇄ 改用对齐屏障（这个作业的新运行）")
                };
                html! { <button id="btn-pyflink-switch" class="tool primary" data-autofocus="true"
                    onclick={Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::Configure(c.clone()))))}>{ words }</button> }
            });
            let back = back_to.map(|step| {
                let d = props.dispatch.clone();
                html! { <button id="btn-pyflink-seek" class="tool primary" data-autofocus="true"
                onclick={Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::Seek(step))))}>{ match l {
                    Lang::En => format!("◀ Go back to step {step}, the last one Flink can run"),
                    Lang::Zh => format!("◀ 回到第 {step} 步：Flink 能运行的最后一步"),
                } }</button> }
            });
            html! {
                <div class="room-body pyflink">
                    <p id="pyflink-refused" class="refused" role="status">{ refusal_words(&e, l) }</p>
                    <p>{ l.t("Flink takes aligned barriers, barriers without alignment, unaligned checkpoints or no snapshots, with a \
                              replayable source, and one failure at most.",
                             "Flink 支持对齐屏障、不对齐屏障、非对齐检查点或不做快照，数据源须可重放，且最多一次故障。") }</p>
                    <div class="room-actions">
                        { switch.unwrap_or_default() }
                        { back.unwrap_or_default() }
                    </div>
                </div>
            }
        }
    }
}

/// Why the run has no PyFlink counterpart, in a learner's words: the strategy and the sink by the
/// names the page gives them, not by their ids in a scenario file.
fn refusal_words(e: &ExportError, l: Lang) -> String {
    let message = e.message(l);
    let why = message.split_once('：').or_else(|| message.split_once(": ")).map_or(message.as_str(), |(_, w)| w);
    match e {
        ExportError::Strategy(s) => match l {
            Lang::En => format!("{} can't run on Flink: {why}.", strategy_name(l, *s)),
            Lang::Zh => format!("“{}”不能在 Flink 上运行：{why}。", strategy_name(l, *s)),
        },
        ExportError::RestartFromLatest => match l {
            Lang::En => format!("A restart from the latest offsets can't run on Flink: {why}."),
            Lang::Zh => format!("从最新偏移量重启不能在 Flink 上运行：{why}。"),
        },
        ExportError::SinkMode(m) => match l {
            Lang::En => format!("The sink “{}” can't run on Flink: {why}.", sink_name(l, *m)),
            Lang::Zh => format!("输出端“{}”不能在 Flink 上运行：{why}。", sink_name(l, *m)),
        },
        _ => {
            let mut m = message.clone();
            if let Some(first) = m.get(..1) {
                m.replace_range(..1, &first.to_uppercase());
            }
            match l {
                Lang::En => format!("{m}."),
                Lang::Zh => format!("{m}。"),
            }
        }
    }
}

/// The run's configuration with what Flink has no counterpart for changed (strategy, source,
/// sink), if that is what the refusal is about and the change makes the run exportable.
fn exportable_config(config: &RunConfig) -> Option<RunConfig> {
    let mut c = config.clone();
    let from_latest = export_pyflink(&c.scenario()).is_err_and(|e| matches!(e, ExportError::RestartFromLatest));
    let s = &mut c.settings;
    if from_latest
        || !matches!(s.strategy, Strategy::Aligned | Strategy::AtLeastOnce | Strategy::Unaligned | Strategy::None)
    {
        s.strategy = Strategy::Aligned;
    }
    s.source = SourceKind::ReplayableLog;
    if s.sink == SinkMode::Transactional {
        s.sink = SinkMode::TwoPhaseCommit;
    }
    (c != *config && export_pyflink(&c.scenario()).is_ok()).then_some(c)
}

/// The last step before the playhead whose run Flink can take (a savepoint, a second failure or
/// a JobManager failure came after it), if any.
fn last_exportable_step(session: &Session) -> Option<usize> {
    let g = &session.sim().graph;
    let actions = session.timeline.actions();
    let base = session.config.scenario();
    (0..session.timeline.position()).rev().take(400).find(|&p| {
        let mut sc = base.clone();
        sc.actions = actions[..p].iter().map(|&a| ScriptAction::of(g, a)).collect();
        export_pyflink(&sc).is_ok()
    })
}

fn say_download(l: Lang, name: &str) -> String {
    match l {
        Lang::En => format!("↓ Download {name}"),
        Lang::Zh => format!("↓ 下载 {name}"),
    }
}

fn say_lines(l: Lang, n: usize) -> String {
    match l {
        Lang::En => format!("Show the job ({n} lines of Python)"),
        Lang::Zh => format!("查看作业（{n} 行 Python）"),
    }
}
