//! The book (`docs/`) and the README cannot rot: every chapter is in the book's table of contents
//! and every entry there is a chapter; every link between them, and every anchor it names,
//! exists; every runner example (a `console` block with `$ cargo run -q --bin barrierscope -- …`
//! or `$ barrierscope …`) prints what the chapter shows, where a line `...` stands for any lines;
//! each mechanism's chapter quotes its file's concept note as the file has it; and the README
//! stays a front door of at most 300 lines. (The book's Rust blocks run as doctests: `build.rs`.)
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn book() -> PathBuf {
    Path::new(ROOT).join("docs/src")
}

fn chapters(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            chapters(&p, out);
        } else if p.extension().is_some_and(|x| x == "md") && p.file_name().unwrap() != "SUMMARY.md" {
            out.push(p);
        }
    }
}

fn all_chapters() -> Vec<PathBuf> {
    let mut v = Vec::new();
    chapters(&book(), &mut v);
    v.sort();
    v
}

/// The Markdown links `[text](target)` of a text, outside code blocks and code spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest: String =
            line.split('`').enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, s)| s).collect::<Vec<_>>().join(" ");
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(j) = after.find(')') else { break };
            out.push(after[..j].to_string());
            rest = after[j..].to_string();
        }
    }
    out
}

/// mdBook's anchor for a heading (`normalize_id`): lower case, letters, digits, `_` and `-`
/// kept, white space made `-`, everything else dropped.
fn anchor(heading: &str) -> String {
    let mut plain = String::new();
    let mut chars = heading.chars().peekable();
    // A link in a heading counts by its text.
    while let Some(c) = chars.next() {
        match c {
            '`' | '*' => {}
            '[' => {}
            ']' if chars.peek() == Some(&'(') => {
                for d in chars.by_ref() {
                    if d == ')' {
                        break;
                    }
                }
            }
            c => plain.push(c),
        }
    }
    plain
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c)
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    let mut in_code = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.insert(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_chapter_is_in_the_table_of_contents_and_every_entry_is_a_chapter() {
    let summary = fs::read_to_string(book().join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<PathBuf> = links(&summary).iter().map(|l| book().join(l)).collect();
    let files: BTreeSet<PathBuf> = all_chapters().into_iter().collect();
    let unlisted: Vec<_> = files.difference(&listed).collect();
    let missing: Vec<_> = listed.difference(&files).collect();
    assert!(unlisted.is_empty(), "chapters not in SUMMARY.md: {unlisted:?}");
    assert!(missing.is_empty(), "SUMMARY.md lists files that do not exist: {missing:?}");
}

#[test]
fn every_link_in_the_book_and_the_readme_reaches_its_file_and_its_anchor() {
    let mut pages = all_chapters();
    pages.push(Path::new(ROOT).join("README.md"));
    let mut broken = Vec::new();
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        for link in links(&text) {
            if link.starts_with("http://") || link.starts_with("https://") || link.starts_with("mailto:") {
                continue;
            }
            let (file, frag) = link.split_once('#').map_or((link.as_str(), None), |(f, a)| (f, Some(a)));
            let target = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
            if !target.exists() {
                broken.push(format!("{}: {link} (no such file)", page.display()));
                continue;
            }
            if let Some(a) = frag {
                if target.extension().is_some_and(|x| x == "md")
                    && !anchors(&fs::read_to_string(&target).unwrap()).contains(a)
                {
                    broken.push(format!("{}: {link} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// One runner example: the command's arguments and the lines the book shows it printing.
struct Example {
    page: PathBuf,
    args: Vec<String>,
    exit_code: bool,
    shown: Vec<String>,
}

fn examples() -> Vec<Example> {
    let mut out = Vec::new();
    for page in all_chapters() {
        let text = fs::read_to_string(&page).unwrap();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if line.trim() != "```console" {
                continue;
            }
            let mut current: Option<Example> = None;
            for l in lines.by_ref() {
                if l.trim() == "```" {
                    break;
                }
                if let Some(cmd) = l.strip_prefix("$ ") {
                    out.extend(current.take());
                    let cmd = cmd.trim();
                    let (cmd, exit_code) = match cmd.strip_suffix("; echo \"exit code $?\"") {
                        Some(c) => (c, true),
                        None => (cmd, false),
                    };
                    let rest = cmd
                        .strip_prefix("cargo run -q --bin barrierscope -- ")
                        .or_else(|| cmd.strip_prefix("barrierscope "));
                    // Commands that write a file, or that are not the runner, are shown, not run.
                    if let Some(rest) = rest.filter(|r| !r.split_whitespace().any(|w| w == "-o")) {
                        let args = rest.split_whitespace().map(str::to_string).collect();
                        current = Some(Example { page: page.clone(), args, exit_code, shown: Vec::new() });
                    }
                } else if let Some(e) = current.as_mut() {
                    e.shown.push(l.to_string());
                }
            }
            out.extend(current.take());
        }
    }
    out
}

/// Does `printed` match `shown`, where a shown line `...` stands for any lines (none included)?
fn matches(shown: &[String], printed: &[&str]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((s, rest)) if s.trim() == "..." => (0..=printed.len()).any(|k| matches(rest, &printed[k..])),
        Some((s, rest)) => printed.first().is_some_and(|p| same_line(s, p)) && matches(rest, &printed[1..]),
    }
}

/// A shown line is the printed one (trailing blanks aside), or, when it ends with `...`, its start.
fn same_line(shown: &str, printed: &str) -> bool {
    let (s, p) = (shown.trim_end(), printed.trim_end());
    match s.strip_suffix("...") {
        Some(start) if !start.trim().is_empty() => p.starts_with(start),
        _ => s == p,
    }
}

#[test]
fn every_runner_example_in_the_book_prints_what_the_book_shows() {
    let examples = examples();
    assert!(examples.len() >= 6, "the book shows the runner's examples: found {}", examples.len());
    let mut wrong = Vec::new();
    for e in &examples {
        let run = Command::new(env!("CARGO_BIN_EXE_barrierscope")).args(&e.args).current_dir(ROOT).output().unwrap();
        let mut printed = String::from_utf8_lossy(&run.stdout).into_owned();
        printed += &String::from_utf8_lossy(&run.stderr);
        if e.exit_code {
            printed += &format!("exit code {}\n", run.status.code().unwrap_or(-1));
        }
        let printed: Vec<&str> = printed.lines().collect();
        let printed: Vec<&str> = printed
            .iter()
            .copied()
            .rev()
            .skip_while(|l| l.trim().is_empty())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if !matches(&e.shown, &printed) {
            wrong.push(format!(
                "{}: barrierscope {}\n--- shown\n{}\n--- printed\n{}",
                e.page.display(),
                e.args.join(" "),
                e.shown.join("\n"),
                printed.join("\n")
            ));
        }
    }
    assert!(wrong.is_empty(), "examples that differ from the runner:\n{}", wrong.join("\n\n"));
}

#[test]
fn the_example_matcher_takes_an_elision_for_any_lines_and_nothing_else() {
    let shown: Vec<String> = ["a", "...", "d"].iter().map(|s| s.to_string()).collect();
    assert!(matches(&shown, &["a", "b", "c", "d"]));
    assert!(matches(&shown, &["a", "d"]));
    assert!(!matches(&shown, &["a", "b", "c"]));
    assert!(!matches(&shown, &["x", "d"]));
    let cut: Vec<String> = vec!["g is counted twice: ...".to_string()];
    assert!(matches(&cut, &["g is counted twice: Count saved at step 11"]));
    assert!(!matches(&cut, &["h is counted twice: Count saved at step 11"]));
}

/// The concept note at the top of a source file, without its `//! ` prefixes, and without the story
/// that may follow it ("A story, run as a test": a doctest, which the chapter runs as its own).
fn concept_note(file: &str) -> String {
    let text = fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| l.strip_prefix("//!").unwrap().strip_prefix(' ').unwrap_or(""))
        .take_while(|l| !l.starts_with("A story, run as a test"))
        .collect();
    lines.join("\n").trim().to_string()
}

#[test]
fn each_mechanism_chapter_quotes_its_files_concept_note() {
    let mut checked = 0;
    for page in all_chapters() {
        let text = fs::read_to_string(&page).unwrap();
        let Some(h) = text.lines().find(|l| l.starts_with("## In the code: `src/")) else { continue };
        let file = h.trim_start_matches("## In the code: `").trim_end_matches('`');
        let quoted: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != h)
            .filter(|l| l.starts_with('>'))
            .map(|l| l.strip_prefix('>').unwrap().strip_prefix(' ').unwrap_or(""))
            .collect();
        assert_eq!(quoted.join("\n").trim(), concept_note(file), "{} quotes {file}'s concept note", page.display());
        checked += 1;
    }
    assert!(checked >= 6, "one chapter per snapshot strategy: {checked}");
}

#[test]
fn the_readme_is_a_front_door_of_at_most_300_lines() {
    let readme = fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let n = readme.lines().count();
    assert!(n <= 300, "the README has {n} lines");
    assert!(
        readme.contains("bash scripts/serve.sh") && readme.contains("bash scripts/test.sh"),
        "the README gives the two commands"
    );
}

/// Issue 49, items 6, 9 and 10: the list of simplifications says that a savepoint under
/// at-least-once does not align in Flink either (`InputProcessorUtil` builds a
/// `CheckpointBarrierTracker` for every barrier in AT_LEAST_ONCE mode), and names what the
/// simulator leaves out: Spark's `spark.task.maxFailures` (`TaskSetManager`), speculative
/// execution, Hadoop's fetch-failure path (`JobImpl.TaskAttemptFetchFailureTransition`), Flink's
/// claim modes and savepoint formats.
#[test]
fn the_simplifications_say_what_flink_does_and_what_is_left_out() {
    let text = fs::read_to_string(book().join("simplifications.md")).unwrap().replace('\n', " ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "A savepoint under `at-least-once` does not align, as in Flink.",
        "`CheckpointBarrierTracker`",
        "This is Flink's behaviour, not a simplification.",
        "`spark.task.maxFailures` (4)",
        "**speculative execution**",
        "**Hadoop's fetch-failure path**",
        "`JobImpl.TaskAttemptFetchFailureTransition`",
        "`NO_CLAIM`",
        "`CLAIM`",
        "canonical format",
    ] {
        assert!(text.contains(want), "simplifications.md should say {want:?}");
    }
}
