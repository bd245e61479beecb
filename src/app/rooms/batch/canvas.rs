//! The room's drawings, in SVG: Spark's lineage as a grid of partitions (one row per RDD, the
//! stages boxed, the executors beside), and Hadoop's job as columns (splits, maps, the nodes'
//! local disks, reduces, the output in HDFS). The last step's partitions or tasks are highlighted,
//! and the running task's climb up the lineage is drawn dashed.

use crate::engine::sorted_vec::SortedSet;
use yew::prelude::*;

use crate::engine::batch::hadoop::{Hadoop, HadoopEvent, TaskName, TaskState};
use crate::engine::batch::spark::{Spark, SparkEvent};
use crate::engine::batch::{BatchEvent, BatchRun, BatchSim, Keep};
use crate::engine::Lang;

const CELL_W: i32 = 150;
const CELL_H: i32 = 52;
const GAP_X: i32 = 28;
const ROW_H: i32 = 92;
const LEFT: i32 = 240;
const TOP: i32 = 34;

fn last_events(run: &BatchRun) -> &[BatchEvent] {
    run.log.last().map_or(&[], Vec::as_slice)
}

/// The drawing of the run.
pub fn drawing(run: &BatchRun, l: Lang) -> Html {
    match run.sim() {
        BatchSim::Spark(s) => spark(s, last_events(run), l),
        BatchSim::Hadoop(h) => hadoop(h, last_events(run), l),
    }
}

fn spark(s: &Spark, events: &[BatchEvent], l: Lang) -> Html {
    let g = &s.lineage;
    let n = g.rdds.len() as i32;
    let cols = *g.partitions.iter().max().unwrap_or(&1) as i32;
    let x = |p: u8| LEFT + p as i32 * (CELL_W + GAP_X);
    let y = |r: usize| TOP + r as i32 * ROW_H;
    let exec_x = LEFT + cols * (CELL_W + GAP_X) + 24;
    let width = exec_x + 250;
    let height = (TOP + n * ROW_H + 30).max(TOP + s.executors.len() as i32 * 150);
    let mut now = SortedSet::new();
    let mut lost = SortedSet::new();
    for e in events {
        match e {
            BatchEvent::Spark(SparkEvent::Computed { rdd, part, .. })
            | BatchEvent::Spark(SparkEvent::ReadMemory { rdd, part, .. })
            | BatchEvent::Spark(SparkEvent::ReadCheckpoint { rdd, part }) => {
                now.insert((*rdd, *part));
            }
            BatchEvent::Spark(SparkEvent::ShuffleWritten { stage, part, .. }) => {
                now.insert((g.stages[*stage].last, *part));
            }
            BatchEvent::Spark(SparkEvent::ExecutorLost { memory, shuffle, killed, .. }) => {
                memory.iter().for_each(|&k| {
                    lost.insert(k);
                });
                shuffle.iter().for_each(|&(st, p)| {
                    lost.insert((g.stages[st].last, p));
                });
                if let Some((st, p)) = killed {
                    lost.insert((g.stages[*st].last, *p));
                }
            }
            BatchEvent::Spark(SparkEvent::FetchFailed { stage, missing, .. }) => {
                missing.iter().for_each(|&p| {
                    lost.insert((g.stages[stage - 1].last, p));
                });
            }
            _ => {}
        }
    }
    let memory: Vec<((usize, u8), u8)> = s.in_memory().collect();
    let task = s.running.as_ref();
    // The running task's chain: done in this task, and still to compute (the climb, dashed).
    let in_task =
        |r: usize, p: u8| task.is_some_and(|t| t.part == p && r >= t.from && r < t.next && g.stage_of(r) == t.stage);
    let to_compute = |r: usize, p: u8| {
        task.is_some_and(|t| t.part == p && r >= t.next && r <= g.stages[t.stage].last && g.stage_of(r) == t.stage)
    };
    let stage_boxes = g.stages.iter().enumerate().map(|(i, st)| {
        let (y0, y1) = (y(st.first) - 14, y(st.last) + CELL_H + 14);
        let label = if i + 1 == g.stages.len() { l.t("result stage", "结果阶段") } else { l.t("shuffle-map stage", "shuffle map 阶段") };
        html! { <g class="stage" data-stage={i.to_string()}>
            <rect x={(LEFT - 16).to_string()} y={y0.to_string()} width={(cols * (CELL_W + GAP_X) + 4).to_string()} height={(y1 - y0).to_string()} rx="10" />
            <text class="stage-label" x={(LEFT - 10).to_string()} y={(y0 - 4).to_string()}>{ format!("{} {i} · {label}", l.t("Stage", "阶段")) }</text>
        </g> }
    });
    let edges = (1..g.rdds.len()).flat_map(|r| {
        (0..g.partitions[r]).flat_map(move |p| g.parents(r, p).into_iter().map(move |(pr, pp)| (r, p, pr, pp)))
    });
    let edges = edges.map(|(r, p, pr, pp)| {
        let wide = g.rdds[r].op.wide();
        let hot = in_task(r, p) || to_compute(r, p) || now.contains(&(r, p));
        html! { <line class={classes!("dep", wide.then_some("wide"), hot.then_some("hot"))}
        x1={(x(pp) + CELL_W / 2).to_string()} y1={(y(pr) + CELL_H).to_string()}
        x2={(x(p) + CELL_W / 2).to_string()} y2={y(r).to_string()} /> }
    });
    let rows = (0..g.rdds.len()).map(|r| {
        let rdd = &g.rdds[r];
        let keep = match rdd.keep {
            Keep::None => "",
            Keep::Persist => "persist()",
            Keep::Checkpoint => "checkpoint()",
        };
        let dep = if r == 0 {
            l.t("input", "输入")
        } else if rdd.op.wide() {
            l.t("wide", "宽依赖")
        } else {
            l.t("narrow", "窄依赖")
        };
        html! { <g class="rdd-row" data-rdd={rdd.name.clone()}>
            <text class="rdd-name" x="8" y={(y(r) + 22).to_string()}>{ format!("{} ({})", rdd.name, rdd.label) }</text>
            <text class="rdd-op" x="8" y={(y(r) + 42).to_string()}>{ format!("{} · {dep}", rdd.op.call()) }</text>
            <text class="rdd-keep" x="8" y={(y(r) + 64).to_string()}>{ keep }</text>
            { for (0..g.partitions[r]).map(|p| {
                let name = g.name(r, p);
                let times = s.computed.get(&(r, p)).copied().unwrap_or(0);
                let mem = memory.iter().find(|(k, _)| *k == (r, p)).map(|(_, e)| *e);
                let st = g.stage_of(r);
                let shuffle = (g.stages[st].last == r && st + 1 < g.stages.len()).then(|| s.shuffle_output(st, p)).flatten();
                let written = r + 1 == g.rdds.len() && s.output[p as usize].is_some();
                let (state, status) = if now.contains(&(r, p)) {
                    ("now", l.t("this step", "本步").to_string())
                } else if lost.contains(&(r, p)) {
                    ("lost", l.t("✗ lost", "✗ 丢失").to_string())
                } else if in_task(r, p) {
                    ("in-task", l.t("in the task", "在任务中").to_string())
                } else if to_compute(r, p) {
                    ("to-compute", l.t("to compute", "待计算").to_string())
                } else if s.checkpointed(r, p) {
                    ("checkpoint", l.t("checkpointed", "已检查点").to_string())
                } else if let Some(e) = mem {
                    ("memory", format!("{} E{e}", l.t("in memory", "内存")))
                } else if let Some(e) = shuffle {
                    ("shuffle", format!("{} E{e}", l.t("shuffle file", "shuffle 文件")))
                } else if written {
                    ("written", l.t("✓ written", "✓ 已写出").to_string())
                } else if times > 0 {
                    ("computed", l.t("computed", "已计算").to_string())
                } else {
                    ("idle", l.t("not computed", "未计算").to_string())
                };
                let again = times > 1;
                let tip = format!("{name}: {status}; {} {times}", l.t("times computed:", "计算次数："));
                html! { <g id={format!("batch-cell-{name}")} class={classes!("part", state, again.then_some("again"))} data-part={name.clone()}
                        data-state={state} data-computed={times.to_string()}>
                    <title>{ tip }</title>
                    <rect x={x(p).to_string()} y={y(r).to_string()} width={CELL_W.to_string()} height={CELL_H.to_string()} rx="8" />
                    <text class="part-name" x={(x(p) + 10).to_string()} y={(y(r) + 22).to_string()}>{ name.clone() }</text>
                    <text class="part-status" x={(x(p) + 10).to_string()} y={(y(r) + 42).to_string()}>{ status }</text>
                    if again { <text class="part-again" x={(x(p) + CELL_W - 8).to_string()} y={(y(r) + 22).to_string()} text-anchor="end">{ format!("↻{}", times - 1) }</text> }
                </g> }
            }) }
        </g> }
    });
    let out_y = y(g.rdds.len()) - 20;
    let last = g.rdds.len() - 1;
    let outputs = (0..g.partitions[last]).map(|p| {
        let ok = s.output[p as usize].is_some();
        html! { <g class={classes!("out-file", ok.then_some("written"))} data-output={p.to_string()}>
            <line class="dep" x1={(x(p) + CELL_W / 2).to_string()} y1={(y(last) + CELL_H).to_string()} x2={(x(p) + CELL_W / 2).to_string()} y2={out_y.to_string()} />
            <rect x={x(p).to_string()} y={out_y.to_string()} width={CELL_W.to_string()} height="40" rx="6" />
            <text x={(x(p) + 10).to_string()} y={(out_y + 26).to_string()}>{ format!("part-{p:05} {}", if ok { "✓" } else { "…" }) }</text>
        </g> }
    });
    let execs = s.executors.iter().enumerate().map(|(e, gen)| {
        let e8 = e as u8;
        let ey = TOP + e as i32 * 150;
        let mut lines: Vec<String> = memory.iter().filter(|(_, x)| *x == e8).map(|(k, _)| format!("{} · {}", g.name(k.0, k.1), l.t("memory", "内存"))).collect();
        for (st, stage) in g.stages.iter().enumerate().take(g.stages.len() - 1) {
            for p in 0..stage.partitions {
                if s.shuffle_output(st, p) == Some(e8) {
                    lines.push(format!("{} · {}", g.name(stage.last, p), l.t("shuffle file", "shuffle 文件")));
                }
            }
        }
        let running = task.filter(|t| t.exec == e8).map(|t| format!("▶ {} {}", l.t("task for", "任务："), g.name(g.stages[t.stage].last, t.part)));
        let died = events.iter().any(|ev| matches!(ev, BatchEvent::Spark(SparkEvent::ExecutorLost { exec, .. }) if *exec == e8));
        html! { <g id={format!("batch-exec-{e}")} class={classes!("exec", died.then_some("died"))} data-exec={e.to_string()} data-incarnation={gen.to_string()}>
            <rect x={exec_x.to_string()} y={ey.to_string()} width="240" height="136" rx="10" />
            <text class="exec-name" x={(exec_x + 10).to_string()} y={(ey + 24).to_string()}>{ format!("{} {e}", l.t("Executor", "执行器")) }</text>
            if *gen > 0 { <text class="exec-new" x={(exec_x + 230).to_string()} y={(ey + 24).to_string()} text-anchor="end">
                { format!("{} {}", l.t("new", "新"), gen) }</text> }
            <text class="exec-run" x={(exec_x + 14).to_string()} y={(ey + 48).to_string()}>
                { running.unwrap_or_else(|| l.t("idle", "空闲").to_string()) }</text>
            { for lines.iter().take(4).enumerate().map(|(i, t)| html!{
                <text class="exec-item" x={(exec_x + 14).to_string()} y={(ey + 72 + i as i32 * 20).to_string()}>{ t.clone() }</text> }) }
            if lines.is_empty() { <text class="exec-item empty" x={(exec_x + 14).to_string()} y={(ey + 72).to_string()}>{ l.t("holds nothing", "什么也没有") }</text> }
        </g> }
    });
    html! {
        <svg id="batch-canvas" class="canvas batch-canvas spark" viewBox={format!("0 0 {width} {height}")} role="img"
            aria-label={l.t("Spark lineage: RDDs as rows of partitions, stages boxed, executors on the right", "Spark 血统：每行一个 RDD 的分区，方框为阶段，右侧为执行器")}>
            { for stage_boxes }
            { for edges }
            { for rows }
            { for outputs }
            { for execs }
        </svg>
    }
}

fn hadoop(h: &Hadoop, last: &[BatchEvent], l: Lang) -> Html {
    let m = h.maps.len() as i32;
    let r = h.reduces.len() as i32;
    let nn = h.nodes.len() as i32;
    let rows = m.max(r).max(nn);
    let row = 84;
    let height = 60 + rows * row;
    let (xs, xm, xn, xr, xo) = (10, 190, 390, 640, 850);
    let w = 150;
    let ym = |i: i32| 40 + i * row;
    let yn = |k: i32| 40 + k * (rows * row / nn.max(1));
    let yr = |j: i32| 40 + j * (rows * row / r.max(1));
    let mut now = SortedSet::new();
    let mut lost_node = None;
    for e in last {
        match e {
            BatchEvent::Hadoop(HadoopEvent::Started { task, .. })
            | BatchEvent::Hadoop(HadoopEvent::TaskFailed { task, .. }) => {
                now.insert(*task);
            }
            BatchEvent::Hadoop(HadoopEvent::MapWritten { map, .. }) => {
                now.insert(TaskName::Map(*map));
            }
            BatchEvent::Hadoop(HadoopEvent::ReduceCommitted { reduce, .. }) => {
                now.insert(TaskName::Reduce(*reduce));
            }
            BatchEvent::Hadoop(HadoopEvent::NodeLost { node, .. }) => lost_node = Some(*node),
            _ => {}
        }
    }
    let task_box = |t: &crate::engine::batch::hadoop::Task, tx: i32, ty: i32| {
        let label = t.name.label();
        let (state, status) = match t.state {
            TaskState::Pending if t.attempts > 0 => ("pending", l.t("to run again", "待重跑").to_string()),
            TaskState::Pending => ("pending", l.t("waiting", "等待中").to_string()),
            TaskState::Running { node } => ("running", format!("{} {node}", l.t("running on node", "运行于节点"))),
            TaskState::Done { node } => ("done", format!("{} {node}", l.t("✓ done on node", "✓ 完成于节点"))),
        };
        let hot = now.contains(&t.name);
        let again = t.attempts > 1;
        html! { <g id={format!("batch-task-{label}")} class={classes!("task", state, hot.then_some("now"), again.then_some("again"))}
                data-task={label.clone()} data-state={state} data-attempts={t.attempts.to_string()}>
            <title>{ format!("{label}: {status}; {} {}", l.t("attempts:", "尝试次数："), t.attempts) }</title>
            <rect x={tx.to_string()} y={ty.to_string()} width={w.to_string()} height="56" rx="8" />
            <text class="part-name" x={(tx + 10).to_string()} y={(ty + 22).to_string()}>{ label.clone() }</text>
            <text class="part-status" x={(tx + 10).to_string()} y={(ty + 44).to_string()}>{ status }</text>
            if t.attempts > 1 { <text class="part-again" x={(tx + w - 8).to_string()} y={(ty + 22).to_string()} text-anchor="end">{ format!("↻{}", t.attempts - 1) }</text> }
        </g> }
    };
    let splits = (0..m).map(|i| html! { <g class="split" data-split={i.to_string()}>
        <rect x={xs.to_string()} y={ym(i).to_string()} width="130" height="56" rx="6" />
        <text class="part-name" x={(xs + 10).to_string()} y={(ym(i) + 22).to_string()}>{ format!("S{i}") }</text>
        <text class="part-status" x={(xs + 10).to_string()} y={(ym(i) + 44).to_string()}>{ l.t("split in HDFS", "HDFS 中的分片") }</text>
        <line class="dep" x1={(xs + 130).to_string()} y1={(ym(i) + 28).to_string()} x2={xm.to_string()} y2={(ym(i) + 28).to_string()} />
    </g> });
    let maps = h.maps.iter().enumerate().map(|(i, t)| task_box(t, xm, ym(i as i32)));
    let nodes = (0..nn).map(|k| {
        let up = h.nodes[k as usize];
        let disk = h.disk(k as u8);
        let died = lost_node == Some(k as u8);
        let top = yn(k);
        html! { <g id={format!("batch-node-{k}")} class={classes!("node", (!up).then_some("down"), died.then_some("died"))} data-node={k.to_string()} data-up={up.to_string()}>
            <rect x={xn.to_string()} y={top.to_string()} width="190" height={(row - 14).max(70).to_string()} rx="10" />
            <text class="exec-name" x={(xn + 10).to_string()} y={(top + 22).to_string()}>
                { format!("{} {k}{}", l.t("Node", "节点"), if up { String::new() } else { l.t(" ✗ lost", " ✗ 丢失").to_string() }) }</text>
            <text class="exec-item" x={(xn + 10).to_string()} y={(top + 44).to_string()}>
                { if disk.is_empty() { l.t("local disk: empty", "本地磁盘：空").to_string() }
                  else { format!("{} {}", l.t("local disk:", "本地磁盘："), disk.iter().map(|i| format!("M{i}")).collect::<Vec<_>>().join(" ")) } }</text>
        </g> }
    });
    // A finished map's output sits on its node's disk; a reduce that has shuffled read every disk.
    let map_links = h.maps.iter().enumerate().filter_map(|(i, t)| match t.state {
        TaskState::Done { node } if h.disk(node).contains(&(i as u8)) => Some(html! {
            <line class="dep" x1={(xm + w).to_string()} y1={(ym(i as i32) + 28).to_string()} x2={xn.to_string()} y2={(yn(node as i32) + 30).to_string()} /> }),
        _ => None,
    });
    let shuffle = h.reduces.iter().enumerate().filter(|(_, t)| matches!(t.state, TaskState::Running { .. })).flat_map(|(j, _)| {
        (0..nn).filter(|&k| !h.disk(k as u8).is_empty()).map(move |k| html! {
            <line class="dep wide hot" x1={(xn + 190).to_string()} y1={(yn(k) + 30).to_string()} x2={xr.to_string()} y2={(yr(j as i32) + 28).to_string()} /> })
    });
    let reduces = h.reduces.iter().enumerate().map(|(j, t)| task_box(t, xr, yr(j as i32)));
    let outputs = (0..r).map(|j| {
        let ok = h.output[j as usize].is_some();
        html! { <g class={classes!("out-file", ok.then_some("written"))} data-output={j.to_string()}>
            <line class="dep" x1={(xr + w).to_string()} y1={(yr(j) + 28).to_string()} x2={xo.to_string()} y2={(yr(j) + 28).to_string()} />
            <rect x={xo.to_string()} y={yr(j).to_string()} width="150" height="56" rx="6" />
            <text class="part-name" x={(xo + 10).to_string()} y={(yr(j) + 22).to_string()}>{ format!("part-r-0000{j}") }</text>
            <text class="part-status" x={(xo + 10).to_string()} y={(yr(j) + 44).to_string()}>{ if ok { l.t("✓ in HDFS", "✓ 在 HDFS 中") } else { "…" } }</text>
        </g> }
    });
    let heads = [
        (xs, l.t("Input (HDFS)", "输入（HDFS）")),
        (xm, l.t("Map tasks", "Map 任务")),
        (xn, l.t("Nodes' local disks", "各节点本地磁盘")),
        (xr, l.t("Reduce tasks", "Reduce 任务")),
        (xo, l.t("Output (HDFS)", "输出（HDFS）")),
    ];
    html! {
        <svg id="batch-canvas" class="canvas batch-canvas hadoop" viewBox={format!("0 0 1010 {height}")} role="img"
            aria-label={l.t("Hadoop job: input splits, map tasks, the nodes' local disks, reduce tasks, output", "Hadoop 作业：输入分片、map 任务、各节点本地磁盘、reduce 任务、输出")}>
            { for heads.iter().map(|(hx, t)| html!{ <text class="col-head" x={hx.to_string()} y="24">{ *t }</text> }) }
            { for map_links }
            { for shuffle }
            { for splits }
            { for maps }
            { for nodes }
            { for reduces }
            { for outputs }
        </svg>
    }
}
