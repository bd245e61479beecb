//! Room: run it on a real Flink. The run on the main screen becomes one PyFlink 2.3 job
//! (`engine::pyflink_export`, the same file `barrierscope export-pyflink` writes for the same
//! scenario), offered as a download with the scenario it was written from, and with how to run it.
//! A run Flink has no counterpart for (per-task timers, Storm, Spark Streaming, a socket source)
//! gets the exporter's reason instead, in the page's language.

use yew::prelude::*;

use super::RoomProps;
use crate::app::files::download;
use crate::app::text::Lang;
use crate::engine::{export_pyflink, Scenario, ScriptAction};

/// The run on screen as a scenario: its configuration and the actions up to the step shown.
pub fn scenario_of(session: &crate::classroom::Session) -> Scenario {
    let mut sc = session.config.scenario();
    let g = &session.sim().graph;
    let done = &session.timeline.actions()[..session.timeline.position()];
    sc.actions = done.iter().map(|&a| ScriptAction::of(g, a)).collect();
    sc
}

pub fn render(props: RoomProps) -> Html {
    html! { <PyFlinkRoom ..props /> }
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
        Err(e) => html! {
            <div class="room-body pyflink">
                <p id="pyflink-refused" class="refused" role="status">{ e.message(l) }</p>
                <p>{ l.t("Choose aligned barriers, barriers without alignment, unaligned checkpoints or no snapshots, with a \
                          replayable source, and open this room again.",
                         "请选择对齐屏障、不对齐屏障、非对齐检查点或不做快照，并使用可重放的数据源，然后再打开这里。") }</p>
                <button id="btn-pyflink-back" class="tool" data-autofocus="true"
                    onclick={let c = props.close.clone(); Callback::from(move |_| c.emit(()))}>
                    { l.t("← Change the settings", "← 去修改设置") }</button>
            </div>
        },
    }
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
