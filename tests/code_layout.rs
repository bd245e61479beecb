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

/// The functions of a file, as (name, first line, lines), found by matching braces outside
/// strings, characters and line comments: enough for this codebase's formatting (rustfmt's).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = vec![];
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let t = match t.strip_prefix("pub(") {
            Some(rest) => rest.split_once(") ").map_or(t, |(_, after)| after),
            None => t.strip_prefix("pub ").unwrap_or(t),
        };
        let t = t.strip_prefix("const ").unwrap_or(t);
        let Some(rest) = t.strip_prefix("fn ") else { continue };
        if line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let (mut depth, mut started) = (0i32, false);
        for (j, l) in lines[i..].iter().enumerate() {
            let mut in_str = false;
            let mut chars = l.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if in_str => {
                        chars.next();
                    }
                    '"' => in_str = !in_str,
                    '/' if !in_str && chars.peek() == Some(&'/') => break,
                    '\'' if !in_str && chars.clone().nth(1) == Some('\'') => {
                        chars.next();
                        chars.next();
                    }
                    '{' if !in_str => (depth, started) = (depth + 1, true),
                    '}' if !in_str => depth -= 1,
                    _ => {}
                }
            }
            if started && depth <= 0 {
                out.push((name.clone(), i + 1, j + 1));
                break;
            }
        }
    }
    out
}

/// The functions allowed past 150 lines: tables of words, each a `match` with a sentence in both
/// languages per arm, which read best whole.
const TABLES_OF_WORDS: [(&str, &str); 4] = [
    ("src/engine/batch/wording.rs", "spark"),
    ("src/engine/explorer/explanation/prose.rs", "account_text"),
    ("src/engine/wording/checkpoint.rs", "narrate"),
    ("src/engine/wording/recovery.rs", "narrate"),
];

/// No file under `src/` is over 600 lines, and no function over 150 apart from the tables of
/// words: a file holds one concept and a function does one thing (issue 50). Model: the lines
/// counted, and the functions' braces matched.
#[test]
fn no_file_over_600_lines_and_no_function_over_150() {
    let mut long_files = vec![];
    let mut long_functions = vec![];
    let mut tables = vec![];
    for file in files().into_iter().filter(|f| f.ends_with(".rs")) {
        let text = fs::read_to_string(Path::new(ROOT).join(&file)).unwrap();
        if text.lines().count() > 600 {
            long_files.push((file.clone(), text.lines().count()));
        }
        for (name, _, lines) in functions(&text) {
            if lines > 150 && TABLES_OF_WORDS.contains(&(file.as_str(), name.as_str())) {
                tables.push((file.clone(), name));
            } else if lines > 150 {
                long_functions.push((file.clone(), name, lines));
            }
        }
    }
    assert_eq!(long_files, vec![], "files over 600 lines");
    assert_eq!(long_functions, vec![], "functions over 150 lines");
    let allowed: Vec<_> = TABLES_OF_WORDS.iter().map(|(f, n)| (f.to_string(), n.to_string())).collect();
    assert_eq!(tables, allowed, "each table of words allowed is still one, and found (in the files' order)");
    // The check finds a long function: one made of 151 lines.
    let made = format!("fn long() {{\n{}}}\n", "    let _ = \"}\";\n".repeat(149));
    assert_eq!(functions(&made), vec![("long".to_string(), 1, 151)]);
}
