//! Hadoop's job drawn as columns: the input splits in HDFS, the map tasks, the nodes' local disks
//! (where a finished map's output waits), the reduce tasks (shuffling from every disk while they
//! run) and the output in HDFS. The last step's tasks are highlighted; a task run again says how
//! many times.

use yew::prelude::*;

use crate::engine::batch::hadoop::{Hadoop, HadoopEvent, TaskName, TaskState};
use crate::engine::batch::BatchEvent;
use crate::engine::core::sorted_vec::SortedSet;
use crate::engine::Lang;

/// The drawing of `h`, with the last step's events `last`.
pub fn hadoop(h: &Hadoop, last: &[BatchEvent], l: Lang) -> Html {
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
