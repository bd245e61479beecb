//! Spark's lineage drawn as a grid of partitions: one row per RDD (its name, its operation, narrow
//! or wide, where it is kept), the stages boxed, the dependencies as lines, the output files under
//! the last RDD and the executors beside (what each holds in memory and in shuffle files, the task
//! it runs). The last step's partitions are highlighted; the running task's climb up the lineage is
//! drawn dashed (what it computed, and what it has still to compute).

use yew::prelude::*;

use crate::engine::batch::spark::{Spark, SparkEvent, SparkTask};
use crate::engine::batch::{BatchEvent, Keep, Lineage};
use crate::engine::core::sorted_vec::SortedSet;
use crate::engine::Lang;

const CELL_W: i32 = 150;
const CELL_H: i32 = 52;
const GAP_X: i32 = 28;
const ROW_H: i32 = 92;
const LEFT: i32 = 240;
const TOP: i32 = 34;

/// Where a partition goes: column `p`, row `r`.
fn x(p: u8) -> i32 {
    LEFT + p as i32 * (CELL_W + GAP_X)
}

fn y(r: usize) -> i32 {
    TOP + r as i32 * ROW_H
}

/// What the drawing reads of the run: the job, the last step's partitions (computed or read now,
/// and lost), the running task, and the partitions in memory (with their executor).
struct Scene<'a> {
    s: &'a Spark,
    g: &'a Lineage,
    now: SortedSet<(usize, u8)>,
    lost: SortedSet<(usize, u8)>,
    task: Option<&'a SparkTask>,
    memory: Vec<((usize, u8), u8)>,
    l: Lang,
}

impl Scene<'_> {
    /// Done in the running task.
    fn in_task(&self, r: usize, p: u8) -> bool {
        self.task.is_some_and(|t| t.part == p && r >= t.from && r < t.next && self.g.stage_of(r) == t.stage)
    }

    /// Still to compute in the running task (the climb, dashed).
    fn to_compute(&self, r: usize, p: u8) -> bool {
        let g = self.g;
        self.task.is_some_and(|t| t.part == p && r >= t.next && r <= g.stages[t.stage].last && g.stage_of(r) == t.stage)
    }
}

/// The partitions the last step computed or read, and those it lost.
fn touched(g: &Lineage, events: &[BatchEvent]) -> (SortedSet<(usize, u8)>, SortedSet<(usize, u8)>) {
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
    (now, lost)
}

/// The drawing of `s`, with the last step's events `events`.
pub fn spark(s: &Spark, events: &[BatchEvent], l: Lang) -> Html {
    let g = &s.lineage;
    let n = g.rdds.len() as i32;
    let cols = *g.partitions.iter().max().unwrap_or(&1) as i32;
    let exec_x = LEFT + cols * (CELL_W + GAP_X) + 24;
    let width = exec_x + 250;
    let height = (TOP + n * ROW_H + 30).max(TOP + s.executors.len() as i32 * 150);
    let (now, lost) = touched(g, events);
    let scene = Scene { s, g, now, lost, task: s.running.as_ref(), memory: s.in_memory().collect(), l };
    html! {
        <svg id="batch-canvas" class="canvas batch-canvas spark" viewBox={format!("0 0 {width} {height}")} role="img"
            aria-label={l.t("Spark lineage: RDDs as rows of partitions, stages boxed, executors on the right", "Spark 血统：每行一个 RDD 的分区，方框为阶段，右侧为执行器")}>
            { for g.stages.iter().enumerate().map(|(i, _)| stage_box(g, i, cols, l)) }
            { dependencies(&scene) }
            { for (0..g.rdds.len()).map(|r| rdd_row(&scene, r)) }
            { outputs(s) }
            { for (0..s.executors.len()).map(|e| executor(&scene, e, exec_x, events)) }
        </svg>
    }
}

/// Stage `i`'s box around its RDDs.
fn stage_box(g: &Lineage, i: usize, cols: i32, l: Lang) -> Html {
    let st = &g.stages[i];
    let (y0, y1) = (y(st.first) - 14, y(st.last) + CELL_H + 14);
    let label = if i + 1 == g.stages.len() {
        l.t("result stage", "结果阶段")
    } else {
        l.t("shuffle-map stage", "shuffle map 阶段")
    };
    html! { <g class="stage" data-stage={i.to_string()}>
        <rect x={(LEFT - 16).to_string()} y={y0.to_string()} width={(cols * (CELL_W + GAP_X) + 4).to_string()} height={(y1 - y0).to_string()} rx="10" />
        <text class="stage-label" x={(LEFT - 10).to_string()} y={(y0 - 4).to_string()}>{ format!("{} {i} · {label}", l.t("Stage", "阶段")) }</text>
    </g> }
}

/// A line from each partition to each partition it is computed from (wide: from all of them).
fn dependencies(sc: &Scene) -> Html {
    let g = sc.g;
    let edges = (1..g.rdds.len()).flat_map(|r| {
        (0..g.partitions[r]).flat_map(move |p| g.parents(r, p).into_iter().map(move |(pr, pp)| (r, p, pr, pp)))
    });
    edges
        .map(|(r, p, pr, pp)| {
            let wide = g.rdds[r].op.wide();
            let hot = sc.in_task(r, p) || sc.to_compute(r, p) || sc.now.contains(&(r, p));
            html! { <line class={classes!("dep", wide.then_some("wide"), hot.then_some("hot"))}
            x1={(x(pp) + CELL_W / 2).to_string()} y1={(y(pr) + CELL_H).to_string()}
            x2={(x(p) + CELL_W / 2).to_string()} y2={y(r).to_string()} /> }
        })
        .collect()
}

/// RDD `r`'s row: its name, operation and storage, and its partitions.
fn rdd_row(sc: &Scene, r: usize) -> Html {
    let (g, l) = (sc.g, sc.l);
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
        { for (0..g.partitions[r]).map(|p| partition(sc, r, p)) }
    </g> }
}

/// Partition `p` of RDD `r`: where it stands (this step, lost, in the task, to compute, kept in a
/// checkpoint, in memory or a shuffle file, written, computed or not) and how often it was computed.
fn partition(sc: &Scene, r: usize, p: u8) -> Html {
    let (s, g, l) = (sc.s, sc.g, sc.l);
    let name = g.name(r, p);
    let times = s.computed.get(&(r, p)).copied().unwrap_or(0);
    let mem = sc.memory.iter().find(|(k, _)| *k == (r, p)).map(|(_, e)| *e);
    let st = g.stage_of(r);
    let shuffle = (g.stages[st].last == r && st + 1 < g.stages.len()).then(|| s.shuffle_output(st, p)).flatten();
    let written = r + 1 == g.rdds.len() && s.output[p as usize].is_some();
    let (state, status) = if sc.now.contains(&(r, p)) {
        ("now", l.t("this step", "本步").to_string())
    } else if sc.lost.contains(&(r, p)) {
        ("lost", l.t("✗ lost", "✗ 丢失").to_string())
    } else if sc.in_task(r, p) {
        ("in-task", l.t("in the task", "在任务中").to_string())
    } else if sc.to_compute(r, p) {
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
}

/// The output files under the last RDD, written or not yet.
fn outputs(s: &Spark) -> Html {
    let g = &s.lineage;
    let out_y = y(g.rdds.len()) - 20;
    let last = g.rdds.len() - 1;
    (0..g.partitions[last]).map(|p| {
        let ok = s.output[p as usize].is_some();
        html! { <g class={classes!("out-file", ok.then_some("written"))} data-output={p.to_string()}>
            <line class="dep" x1={(x(p) + CELL_W / 2).to_string()} y1={(y(last) + CELL_H).to_string()} x2={(x(p) + CELL_W / 2).to_string()} y2={out_y.to_string()} />
            <rect x={x(p).to_string()} y={out_y.to_string()} width={CELL_W.to_string()} height="40" rx="6" />
            <text x={(x(p) + 10).to_string()} y={(out_y + 26).to_string()}>{ format!("part-{p:05} {}", if ok { "✓" } else { "…" }) }</text>
        </g> }
    })
    .collect()
}

/// Executor `e`: its incarnation, the task it runs, what it holds (died in the last step: marked).
fn executor(sc: &Scene, e: usize, exec_x: i32, events: &[BatchEvent]) -> Html {
    let (s, g, l) = (sc.s, sc.g, sc.l);
    let gen = &s.executors[e];
    let e8 = e as u8;
    let ey = TOP + e as i32 * 150;
    let mut lines: Vec<String> = sc
        .memory
        .iter()
        .filter(|(_, x)| *x == e8)
        .map(|(k, _)| format!("{} · {}", g.name(k.0, k.1), l.t("memory", "内存")))
        .collect();
    for (st, stage) in g.stages.iter().enumerate().take(g.stages.len() - 1) {
        for p in 0..stage.partitions {
            if s.shuffle_output(st, p) == Some(e8) {
                lines.push(format!("{} · {}", g.name(stage.last, p), l.t("shuffle file", "shuffle 文件")));
            }
        }
    }
    let running = sc
        .task
        .filter(|t| t.exec == e8)
        .map(|t| format!("▶ {} {}", l.t("task for", "任务："), g.name(g.stages[t.stage].last, t.part)));
    let died =
        events.iter().any(|ev| matches!(ev, BatchEvent::Spark(SparkEvent::ExecutorLost { exec, .. }) if *exec == e8));
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
}
