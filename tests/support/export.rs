//! What tests/pyflink_export.rs and tests/pyspark_export.rs share: the book's export tables
//! (docs/src/ground-truth.md: between `<!-- NAME:start -->` and `<!-- NAME:end -->`, one row
//! `| `file` | exports |` or the refusal's English message per scenario file), and compiling the
//! generated Python.

/// The rows of the table named `name` (`export-pyflink`, `export-pyspark`): file and what it says.
pub fn export_table(name: &str) -> Vec<(String, String)> {
    let book = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/ground-truth.md")).unwrap();
    let start = book.find(&format!("<!-- {name}:start -->")).unwrap_or_else(|| panic!("the book has the {name} table"));
    let end = book.find(&format!("<!-- {name}:end -->")).unwrap();
    book[start..end]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            (cells[0].trim_matches('`').to_string(), cells[1].to_string())
        })
        .collect()
}

/// Compiles each Python file with `python3 -m py_compile` (or `python`); without either on PATH,
/// says so and checks nothing.
pub fn assert_python_compiles(paths: &[std::path::PathBuf]) {
    let python = ["python3", "python"]
        .into_iter()
        .find(|p| std::process::Command::new(p).arg("--version").output().is_ok_and(|o| o.status.success()));
    let Some(python) = python else {
        println!("note: no python3 on PATH; the generated files were not compiled");
        return;
    };
    for path in paths {
        let out = std::process::Command::new(python).args(["-m", "py_compile"]).arg(path).output().unwrap();
        assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    }
}
