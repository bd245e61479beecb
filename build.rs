//! The book's chapters as doctest modules, as timely-dataflow's `mdbook/build.rs` does: every
//! chapter of `docs/src` becomes a module whose documentation is the chapter, so `cargo test`
//! compiles and runs every Rust block in the book (`src/lib.rs` includes the list under
//! `cfg(doctest)` only; nothing of it is in any build).
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
        let name: String = rel.trim_end_matches(".md").chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        code += &format!("#[doc = include_str!({path:?})]\npub mod chapter_{name} {{}}\n");
    }
    fs::write(Path::new(&env::var("OUT_DIR").unwrap()).join("book.rs"), code).unwrap();
}
