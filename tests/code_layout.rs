//! The book's Code layout (`docs/src/code-layout.md`) is the codebase's table of contents, in
//! reading order: the engine's core first, then what is built on it, then the classroom, then the
//! page. This test keeps it complete and true: every file under `src/` is listed, under its folder,
//! and every listed path exists.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The paths the chapter's tree lists (`src/` and below), in its order. A line is an entry
/// indented two spaces per level, then its description (which may go on in lines indented deeper
/// than any entry). An entry is a name, or several separated by commas; a name may hold a path
/// (`app/mod.rs`). A name ending in `/` is a folder; the entries under a module file (`canvas.rs`)
/// are in its folder (`canvas/`).
fn listed() -> Vec<String> {
    let text = fs::read_to_string(Path::new(ROOT).join("docs/src/code-layout.md")).unwrap();
    let start = text.find("```text\nsrc/\n").expect("the chapter's tree starts with ```text and src/");
    let body = &text[start + "```text\n".len()..];
    let end = body.find("```").expect("the tree ends");
    let mut stack: Vec<String> = vec![];
    let mut out = vec![];
    for line in body[..end].lines().filter(|l| !l.trim().is_empty()) {
        let indent = line.len() - line.trim_start().len();
        if indent / 2 > stack.len() {
            continue;
        }
        assert_eq!(indent % 2, 0, "an odd indent in the tree: {line:?}");
        stack.truncate(indent / 2);
        let mut names = vec![];
        for word in line.split_whitespace() {
            names.push(word.trim_end_matches(','));
            if !word.ends_with(',') {
                break;
            }
        }
        let base = stack.concat();
        for name in &names {
            out.push(format!("{base}{name}"));
        }
        let last = names.last().unwrap();
        stack.push(match last.strip_suffix(".rs") {
            Some(module) => format!("{module}/"),
            None => last.to_string(),
        });
    }
    out
}

/// Every file under `src/`, as `src/…`.
fn files() -> BTreeSet<String> {
    fn walk(dir: &Path, out: &mut BTreeSet<String>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.insert(p.strip_prefix(ROOT).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(&Path::new(ROOT).join("src"), &mut out);
    out
}

#[test]
fn the_code_layout_lists_every_file() {
    // A folder's entry stands for its `mod.rs`: the folder's description is the module's.
    let listed: BTreeSet<String> =
        listed().into_iter().map(|p| if p.ends_with('/') { format!("{p}mod.rs") } else { p }).collect();
    let missing: Vec<_> = files().into_iter().filter(|f| !listed.contains(f)).collect();
    assert!(missing.is_empty(), "files the book's Code layout does not list: {missing:#?}");
}

#[test]
fn the_code_layout_lists_no_stale_path() {
    let stale: Vec<_> =
        listed().into_iter().filter(|p| !Path::new(ROOT).join(p.trim_end_matches('/')).exists()).collect();
    assert!(stale.is_empty(), "paths the book's Code layout lists that do not exist: {stale:#?}");
}

#[test]
fn each_path_is_listed_once() {
    let mut seen = BTreeSet::new();
    let twice: Vec<_> = listed().into_iter().filter(|p| !seen.insert(p.clone())).collect();
    assert!(twice.is_empty(), "listed more than once: {twice:?}");
}
