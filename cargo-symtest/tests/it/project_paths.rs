//! Paths of a project's configuration: output paths stay inside the project,
//! target names cannot collide with the output layout or exceed the file
//! system's limit, `exec-args` and sizes are checked at configuration time
//! (file:line:key, exit 2), and results an engine failure could not replace
//! are marked stale.

use crate::support::*;
use std::path::Path;
use std::process::{Command, Output};

const HARNESS: &str = r#"#include "symtest.h"
int main(void) { int x = symtest_int("x"); if (x == 3) return 1; return 0; }
"#;

fn text(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn project(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/h.c"), HARNESS).unwrap();
    dir
}

fn config(dir: &Path, name: &str, extra: &str) {
    std::fs::write(
        dir.join("symtest.toml"),
        format!("[[target]]\nname = \"{name}\"\nkind = \"harness\"\nsources = [\"src/h.c\"]\nmax-time = 3\n{extra}\n"),
    )
    .unwrap();
}

fn pipeline(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Every file under `dir` (relative paths), to prove nothing was written.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in walk(dir) {
        out.push(e.strip_prefix(dir).unwrap().display().to_string());
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() && !p.is_symlink() {
            v.extend(walk(&p));
        }
        v.push(p);
    }
    v
}

#[test]
fn config_values_are_checked_with_file_line_and_key() {
    let dir = project("paths-config");
    let outside = dir.parent().unwrap().join("paths-config-outside");
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("link")).unwrap();
    let long = "t".repeat(252);
    let cases: Vec<(String, &str, &str, &str)> = vec![
        (
            "t".into(),
            "suite-dir = \"../../X\"",
            "suite-dir",
            "leaves the project directory",
        ),
        (
            "t".into(),
            "suite-dir = \"/tmp/symtest-abs\"",
            "suite-dir",
            "absolute path",
        ),
        (
            "t".into(),
            "suite-dir = \".\"",
            "suite-dir",
            "project directory itself",
        ),
        (
            "t".into(),
            "suite-dir = \"src\"",
            "suite-dir",
            "holds the source",
        ),
        (
            "t".into(),
            "suite-dir = \"link/suite\"",
            "suite-dir",
            "through a symbolic link",
        ),
        ("summary.json".into(), "", "name", "project summary"),
        ("exec-last".into(), "", "name", "output directories"),
        ("exec-7".into(), "", "name", "output directories"),
        ("capture".into(), "", "name", "capture"),
        (long.clone(), "", "name", "File name too long"),
        (
            "t".into(),
            "exec-args = [\"--output-dir\", \"/tmp/x\"]",
            "exec-args",
            "--output-dir",
        ),
        (
            "t".into(),
            "exec-args = [\"--max-time\", \"9\"]",
            "exec-args",
            "--max-time",
        ),
        (
            "t".into(),
            "exec-args = [\"--search\", \"sideways\"]",
            "exec-args",
            "unknown searcher",
        ),
        (
            "t".into(),
            "exec-args = [\"--no-such-flag\"]",
            "exec-args",
            "--no-such-flag",
        ),
        // The suite's native build enforces the default allocation limit.
        (
            "t".into(),
            "exec-args = [\"--max-alloc-size\", \"2147483648\"]",
            "exec-args",
            "--max-alloc-size: a target keeps the default limit",
        ),
        ("t".into(), "max-memory = 0", "max-memory", "between 1 and"),
        (
            "t".into(),
            "max-memory = 99999999999",
            "max-memory",
            "between 1 and",
        ),
        (
            "t".into(),
            "max-instructions = 0",
            "max-instructions",
            "between 1 and",
        ),
    ];
    for (name, extra, key, needle) in &cases {
        config(&dir, name, extra);
        let before = files(&dir);
        let o = pipeline(&dir, &[]);
        assert_eq!(o.status.code(), Some(2), "{extra} / {name}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        let line = if extra.is_empty() { 2 } else { 6 };
        assert!(
            err.contains(&format!("symtest.toml:{line}: key `{key}`")) && err.contains(needle),
            "{extra} / {name}: {err}"
        );
        assert_eq!(files(&dir), before, "{extra}: the pipeline wrote files");
        assert!(
            walk(&outside).is_empty(),
            "{extra}: wrote outside the project"
        );
    }
    // The same names and paths are fine where they cannot collide, and an
    // absolute output path given on the command line is the user's choice.
    config(
        &dir,
        "summary",
        "suite-dir = \"suites/t\"\nexec-args = [\"--emit-all\"]",
    );
    let o = pipeline(&dir, &["list"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = outside.join("out");
    let o = pipeline(&dir, &["--out-dir", out.to_str().unwrap(), "--no-emit"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(out.join("summary").join("summary.json").is_file());
}

/// A suite directory that exists and is not an emitted suite is left alone.
#[test]
fn a_foreign_suite_directory_is_not_replaced() {
    let dir = project("paths-foreign");
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docs/keep.txt"), "mine").unwrap();
    config(&dir, "t", "suite-dir = \"docs\"");
    let o = pipeline(&dir, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("not a suite symtest emitted"),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("docs/keep.txt")).unwrap(),
        "mine"
    );
}

/// After a run whose engine fails, the previous results stay (the directory
/// is replaced only whole) but say they are stale, and so does the summary.
#[test]
fn results_an_engine_failure_left_are_marked_stale() {
    let dir = project("paths-stale");
    config(&dir, "t", "");
    let o = pipeline(&dir, &["-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let results = dir.join("symtest-out/t");
    assert!(results.join("summary.json").is_file());
    assert!(!results.join("STALE").exists());
    // The engine now fails at once (no such entry function).
    config(&dir, "t", "entry-point = \"no_such_function\"");
    let o = pipeline(&dir, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let stale = std::fs::read_to_string(results.join("STALE")).unwrap();
    assert!(stale.contains("engine failed"), "{stale}");
    assert!(
        results.join("summary.json").is_file(),
        "the old results are kept"
    );
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/summary.json")).unwrap(),
    )
    .unwrap();
    let t = &summary["targets"][0];
    assert_eq!(t["status"], "engine-failed", "{t}");
    assert_eq!(t["stale_results"], true, "{t}");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("(old results stale)"),
        "{}",
        text(&o)
    );
    // A good run replaces them, marker and all.
    config(&dir, "t", "");
    let o = pipeline(&dir, &["-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!results.join("STALE").exists());
}
