//! The book's chapters as doctest modules, as timely-dataflow's `mdbook/build.rs` does: every
//! chapter of `docs/src` becomes a module whose documentation is the chapter, so `cargo test`
//! compiles and runs every Rust block in the book (`src/lib.rs` includes the list under
//! `cfg(doctest)` only; nothing of it is in any build).
//!
//! It also reads the built-in lessons, the files under `lessons/` (issue 36): the lesson menu's
//! catalogue (each file's id and title, for the first screen) and the list of the files' texts,
//! which the lessons' part of the page parses when it loads (`classroom/curriculum.rs`).
use std::{env, fs, path::Path};

fn chapters(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir).expect("docs/src").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            chapters(&p, out);
        } else if p.extension().is_some_and(|e| e == "md") {
            out.push(p.to_str().expect("a chapter's path is UTF-8").to_string());
        }
    }
}

fn main() {
    let root = env::var("CARGO_MANIFEST_DIR").unwrap();
    let book = Path::new(&root).join("docs/src");
    println!("cargo:rerun-if-changed=docs/src");
    let mut list = Vec::new();
    chapters(&book, &mut list);
    let mut code = String::new();
    for path in &list {
        let rel = Path::new(path).strip_prefix(&book).unwrap().to_str().unwrap();
        let name: String =
            rel.trim_end_matches(".md").chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        code += &format!("#[doc = include_str!({path:?})]\npub mod chapter_{name} {{}}\n");
    }
    fs::write(Path::new(&env::var("OUT_DIR").unwrap()).join("book.rs"), code).unwrap();
    lessons(Path::new(&root));
}

/// A title as a lesson file writes it: one text for both languages, or `{"en": …, "zh": …}`.
fn title(v: &serde_json::Value, file: &str) -> (String, String) {
    let text = |l: &str| v.get(l).and_then(|t| t.as_str()).map(str::to_string);
    match (v.as_str(), text("en"), text("zh")) {
        (Some(t), _, _) => (t.to_string(), t.to_string()),
        (None, Some(en), zh) => (en.clone(), zh.unwrap_or(en)),
        (None, None, Some(zh)) => (zh.clone(), zh),
        _ => panic!("lessons/{file}: the title must be a text, or have \"en\" or \"zh\""),
    }
}

fn lessons(root: &Path) {
    let dir = root.join("lessons");
    println!("cargo:rerun-if-changed=lessons");
    let mut files: Vec<_> = fs::read_dir(&dir).expect("lessons/").map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    let (mut catalogue, mut texts) = (String::new(), String::new());
    for p in &files {
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let text = fs::read_to_string(p).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("lessons/{name}: {e}"));
        let id = v["id"].as_str().unwrap_or_else(|| panic!("lessons/{name}: no \"id\""));
        let (en, zh) = title(&v["title"], &name);
        catalogue += &format!("    entry({id:?}, {en:?}, {zh:?}),\n");
        texts += &format!("    ({name:?}, include_str!({:?})),\n", p.to_str().unwrap());
    }
    let out = Path::new(&env::var("OUT_DIR").unwrap()).to_path_buf();
    fs::write(out.join("lesson_catalogue.rs"), format!("&[\n{catalogue}]")).unwrap();
    fs::write(out.join("lesson_files.rs"), format!("&[\n{texts}]")).unwrap();
}
