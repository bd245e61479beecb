//! The code layout's promise, "without cycles", checked. Every source file under `src/` is a
//! module; an import is a path it names (`use crate::…`, `super::…`, a child module's name, or
//! such a path written inline), and a name a module only hands on (`pub use`) is followed to the
//! file that defines it. A circle is a set of files that import each other in a loop (a strongly
//! connected component of that graph, found with Tarjan's algorithm). There is none; a new one
//! fails with the files it holds.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every `.rs` file under `src/` but the binaries, as (module path, file text).
fn modules() -> BTreeMap<Vec<String>, String> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p.file_name().unwrap() != "bin" {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new(ROOT).join("src");
    let mut files = vec![];
    walk(&src, &mut files);
    let mut out = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap().with_extension("");
        let mut path: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
        if matches!(path.last().map(String::as_str), Some("mod") | Some("lib")) {
            path.pop();
        }
        if path == ["main"] {
            continue;
        }
        out.insert(path, fs::read_to_string(&f).unwrap());
    }
    out
}

/// The file's code: comments dropped, and the unit tests at its end (`#[cfg(test)] mod …`).
fn code(text: &str) -> String {
    let end = text.find("#[cfg(test)]\nmod ").unwrap_or(text.len());
    text[..end]
        .lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a file names, each made absolute from the file's module: the trees of its `use`
/// statements expanded, and every inline path that starts with `crate::`, `super::`, `self::` or
/// a child module's name. Its re-exports (`pub use`) come apart: they only hand names on.
fn named_paths(
    module: &[String],
    code: &str,
    mods: &BTreeMap<Vec<String>, String>,
) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let (mut paths, mut handed_on) = (vec![], vec![]);
    let mut rest = code;
    // `use` trees, with their braces.
    let mut inline = String::new();
    while let Some(i) = find_use(rest) {
        inline.push_str(&rest[..i]);
        let after = &rest[i..];
        let body_start = after.find("use ").unwrap() + 4;
        let end = after.find(';').unwrap();
        let public = after.starts_with("pub");
        // A use path that starts with a name starts in this module (a child module, or outside
        // the crate: then it names this module's own file, which is no import).
        let mut tree = vec![];
        expand(&after[body_start..end], &mut vec![], &mut tree);
        for mut p in tree {
            if !matches!(p.first().map(String::as_str), Some("crate" | "super" | "self")) {
                p.insert(0, "self".into());
            }
            if public {
                handed_on.push(p)
            } else {
                paths.push(p)
            }
        }
        rest = &after[end + 1..];
    }
    inline.push_str(rest);
    // Inline paths: one that starts at a name, not inside another path, with `crate`, `super`,
    // `self` or a child module (`canvas::Canvas` in `app/mod.rs`).
    let bytes = inline.as_bytes();
    for (at, _) in inline.match_indices("::") {
        let start = at - inline[..at].chars().rev().take_while(|c| is_ident(*c)).map(char::len_utf8).sum::<usize>();
        let head = &inline[start..at];
        if head.is_empty() || (start > 0 && matches!(bytes[start - 1], b':' | b'$')) {
            continue;
        }
        let mut p: Vec<String> = inline[start..]
            .chars()
            .take_while(|c| is_ident(*c) || *c == ':')
            .collect::<String>()
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        if !matches!(head, "crate" | "super" | "self") {
            let mut child = module.to_vec();
            child.push(head.to_string());
            if !mods.contains_key(&child) {
                continue;
            }
            p.insert(0, "self".into());
        }
        paths.push(p);
    }
    let abs = |v: Vec<Vec<String>>| v.into_iter().filter_map(|p| absolute(module, &p)).collect();
    (abs(paths), abs(handed_on))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the next `use` statement starts (at a line's start, after `pub`, `pub(crate)`…).
fn find_use(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let t2 = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub(super) "))
            .or_else(|| t.strip_prefix("pub "))
            .unwrap_or(t);
        if t2.starts_with("use ") {
            return Some(offset + (line.len() - t.len()));
        }
        offset += line.len();
    }
    None
}

/// A use tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head: Vec<String> =
            tree[..open].split("::").map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
        let inner = &tree[open + 1..tree.rfind('}').unwrap()];
        let n = prefix.len();
        prefix.extend(head);
        // Split the inner list at top-level commas.
        let (mut depth, mut last) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[last..i], prefix, out);
                    last = i + 1;
                }
                _ => {}
            }
        }
        expand(&inner[last..], prefix, out);
        prefix.truncate(n);
    } else if !tree.is_empty() {
        let tree = tree.split(" as ").next().unwrap();
        let mut p = prefix.clone();
        p.extend(tree.split("::").map(str::trim).filter(|s| !s.is_empty()).map(String::from));
        out.push(p);
    }
}

/// A path made absolute from module `here`; None for a path outside the crate (std, serde, yew…).
fn absolute(here: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut out: Vec<String> = vec![];
    let mut segs = path.iter().peekable();
    match segs.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segs.next();
        }
        Some("super") | Some("self") => {
            out = here.to_vec();
            while let Some(s) = segs.peek() {
                match s.as_str() {
                    "super" => {
                        out.pop()?;
                    }
                    "self" => {}
                    _ => break,
                }
                segs.next();
            }
        }
        _ => return None,
    }
    out.extend(segs.filter(|s| s.as_str() != "*" && s.as_str() != "self").cloned());
    Some(out)
}

/// Who imports whom: file -> the files whose items it names. A name a module only hands on
/// (`pub use b::X` in `a`, then `a::X` elsewhere) is followed to where it is defined.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules();
    let name = |m: &[String]| if m.is_empty() { "lib".to_string() } else { m.join("/") };
    // Per module: the paths it names, and the paths it hands on.
    let parsed: BTreeMap<&Vec<String>, (Vec<Vec<String>>, Vec<Vec<String>>)> =
        mods.iter().map(|(m, text)| (m, named_paths(m, &code(text), &mods))).collect();
    let file_of = |p: &[String]| -> Option<Vec<String>> {
        let mut p = p.to_vec();
        for _ in 0..8 {
            let t = (0..=p.len()).rev().map(|n| p[..n].to_vec()).find(|pre| mods.contains_key(pre))?;
            let Some(item) = p.get(t.len()) else { return Some(t) };
            // Is the item handed on by `t`? Then follow it.
            let via = parsed[&t].1.iter().find(|r| r.last() == Some(item)).cloned();
            match via {
                Some(r) if r != p => {
                    p = r.into_iter().chain(p[t.len() + 1..].iter().cloned()).collect();
                }
                _ => return Some(t),
            }
        }
        None
    };
    let mut graph = BTreeMap::new();
    for (m, (paths, _)) in &parsed {
        let mut to = BTreeSet::new();
        for p in paths {
            if let Some(t) = file_of(p) {
                // A module's own items, and an ancestor named only on the way down, are no import.
                if t != **m && !(m.starts_with(&t) && p.len() > t.len() && mods.contains_key(&p[..t.len() + 1])) {
                    to.insert(name(&t));
                }
            }
        }
        graph.insert(name(m), to);
    }
    graph
}

/// The circles of the graph (strongly connected components of two or more files), Tarjan's.
fn circles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.g.contains_key(w) {
                continue;
            }
            if !t.index.contains_key(w) {
                visit(t, w);
                let l = t.low[w].min(t.low[v]);
                t.low.insert(v, l);
            } else if t.on.contains(w) {
                let l = t.index[w].min(t.low[v]);
                t.low.insert(v, l);
            }
        }
        if t.low[v] == t.index[v] {
            let mut c = BTreeSet::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(w);
                c.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                t.out.push(c);
            }
        }
    }
    let mut t = T { g, index: BTreeMap::new(), low: BTreeMap::new(), stack: vec![], on: BTreeSet::new(), out: vec![] };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn the_reader_sees_the_imports_it_should() {
    // The model of imports, checked on files whose imports are known.
    let g = imports();
    let sim = &g["engine/core/sim"];
    assert!(sim.contains("engine/jobmanager/checkpoint") && sim.contains("engine/core/dataflow/channel"), "{sim:?}");
    assert!(g["engine/mechanisms/storm/acker"].contains("engine/mechanisms/storm/tuple_tree"));
    assert!(g["engine/mechanisms/storm/acker"].contains("engine/core/seam"));
    assert!(!g["engine/core/ids"].contains("engine/core/sim"));
    // A parent naming its child inline by its bare name (`canvas::Canvas` in `app/mod.rs`).
    assert!(g["app"].contains("app/canvas"), "{:?}", g["app"]);
    // A made-up loop is a circle.
    let mut looped = g.clone();
    looped.get_mut("engine/core/ids").unwrap().insert("engine/core/sim".into());
    assert!(circles(&looped).iter().any(|c| c.contains("engine/core/ids") && c.contains("engine/core/sim")));
}

#[test]
fn no_import_circle() {
    let found = circles(&imports());
    assert!(found.is_empty(), "files that import each other in a loop: {found:?}");
}

/// The layers, lowest first: the engine (pure, no browser), the classroom (lessons, sessions, the
/// quiz), the page. A file imports its own layer or a lower one, never a higher one.
fn layer(file: &str) -> Option<usize> {
    ["engine", "classroom", "app"].iter().position(|l| file == *l || file.starts_with(&format!("{l}/")))
}

/// The imports that run up: from a file to a file of a higher layer.
fn upward(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<(String, String)> {
    let mut up = vec![];
    for (from, tos) in g {
        for to in tos {
            if let (Some(a), Some(b)) = (layer(from), layer(to)) {
                if a < b {
                    up.push((from.clone(), to.clone()));
                }
            }
        }
    }
    up
}

#[test]
fn no_import_runs_up_a_layer() {
    let g = imports();
    // The check sees an upward import where one is put in: the engine naming the classroom.
    let mut injected = g.clone();
    injected.get_mut("engine/core/sim").unwrap().insert("classroom/saved_run".into());
    assert_eq!(upward(&injected), vec![("engine/core/sim".to_string(), "classroom/saved_run".to_string())]);
    let up = upward(&g);
    assert!(up.is_empty(), "imports from a lower layer to a higher (engine < classroom < app): {up:?}");
}

/// The engine's own tiers, lowest first: the run itself (the core, with the JobManager and the
/// settings it runs under, which name each other); the mechanisms, which plug into the core's
/// seam; and what is built on a run (the verdict's checks, runs as data, the program across a
/// restore, the narration, the space-time view, side by side, the explorer, the exports, batch).
fn engine_tier(file: &str) -> Option<usize> {
    let folder = file.strip_prefix("engine/")?.split('/').next().unwrap();
    Some(match folder {
        "core" | "jobmanager" | "settings" => 0,
        "mechanisms" => 1,
        _ => 2,
    })
}

/// The only imports allowed to run up a tier: the core's sum types that carry a mechanism's
/// own values (`Event::Mechanism`, its events; `ActionError::Mechanism`, its refusals;
/// `RestoreFrom::Mechanism`, where its restart came from; `Settings::mechanism` and
/// `Edit::Mechanism`, its own settings and their edits) name the catalogue's list of them,
/// `mechanisms/catalogue/carried.rs`, and nothing more: the core never calls into a mechanism but
/// through the seam, and names none.
const SUM_TYPES: [(&str, &str); 4] = [
    ("engine/core/event", "engine/mechanisms/catalogue/carried"),
    ("engine/settings", "engine/mechanisms/catalogue/carried"),
    ("engine/core/error", "engine/mechanisms/catalogue/carried"),
    ("engine/core/event_terms", "engine/mechanisms/catalogue/carried"),
];

/// The imports inside the engine that run up a tier.
fn upward_in_engine(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<(String, String)> {
    let mut up = vec![];
    for (from, tos) in g {
        for to in tos {
            if let (Some(a), Some(b)) = (engine_tier(from), engine_tier(to)) {
                if a < b && !SUM_TYPES.contains(&(from.as_str(), to.as_str())) {
                    up.push((from.clone(), to.clone()));
                }
            }
        }
    }
    up
}

#[test]
fn no_import_runs_up_a_tier_of_the_engine() {
    let g = imports();
    // The check sees an upward import where one is put in: the core naming Storm's acker.
    let mut injected = g.clone();
    injected.get_mut("engine/core/sim").unwrap().insert("engine/mechanisms/storm/acker".into());
    assert_eq!(
        upward_in_engine(&injected),
        vec![("engine/core/sim".to_string(), "engine/mechanisms/storm/acker".to_string())]
    );
    let up = upward_in_engine(&g);
    assert!(up.is_empty(), "imports inside the engine that run up (core < mechanisms < the rest): {up:?}");
}
