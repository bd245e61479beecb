//! The book's export tables (docs/src/ground-truth.md): between `<!-- NAME:start -->` and
//! `<!-- NAME:end -->`, one row `| `file` | exports |` or the refusal's English message per
//! scenario file. Shared by tests/pyflink_export.rs and tests/pyspark_export.rs.

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
