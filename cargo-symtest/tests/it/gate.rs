//! Pull-request gating (`cargo symtest --changed-since REF`) on a small git
//! project: a change that plants an out-of-bounds write on a changed line and
//! changes the program's output. The directed gate run reports the new bug
//! (exit 1 against the baseline), which changed lines a kept test reaches and
//! by which test, and the committed suite's tests whose output changed, as
//! behaviour changes (summary, SARIF note, JUnit), not bugs.

use crate::support::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args([
            "-c",
            "user.name=symtest",
            "-c",
            "user.email=symtest@example.invalid",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run git");
    assert!(o.status.success(), "git {args:?}: {}", shown(&o));
}

#[test]
fn gate_finds_the_bug_on_the_changed_line_and_reports_behaviour_changes() {
    let dir = copy_fixture("gate-project", "gate");
    git(&dir, &["init", "-q"]);
    std::fs::write(dir.join(".gitignore"), "symtest-out/\n").unwrap();
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "count"]);
    // The base: tests kept, the suite and the baseline committed.
    let o = symtest_in(&dir, &["--update-baseline"]);
    assert!(o.status.success(), "{}", shown(&o));
    let suite = dir.join("tests/symtest/count");
    let vectors = std::fs::read_to_string(suite.join("symtest_tests.c")).unwrap();
    assert!(
        vectors.contains("count -c"),
        "a kept test runs with -c:\n{vectors}"
    );
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "suite and baseline"]);
    // The pull request: a write past `seen` once a line repeats three times
    // (with -c), and another output format (without).
    let src = dir.join("src/count.c");
    let text = std::fs::read_to_string(&src).unwrap();
    let changed = text
        .replace(
            "  if (show)\n    printf(\"%d %s\", count, line);",
            "  if (show) {\n    static char seen[3];\n    seen[count] = 1;\n    printf(\"%d %s\", count, line);\n  }",
        )
        .replace("    fputs(line, stdout);", "    printf(\"> %s\", line);");
    assert_ne!(text, changed);
    std::fs::write(&src, changed).unwrap();
    let o = symtest_in(
        &dir,
        &[
            "--changed-since",
            "HEAD",
            "--baseline",
            "symtest-baseline.json",
            "--sarif",
            "gate.sarif",
            "--junit",
            "gate.xml",
            "--no-emit",
        ],
    );
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("new bug(s) not in the baseline"), "{out}");
    assert!(out.contains("src/count.c:9: ptr"), "{out}");
    // Every changed line with code was reached, and by which kept test.
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/count/summary.json")).unwrap(),
    )
    .unwrap();
    let lines = summary["changed_lines"].as_array().unwrap();
    assert!(lines.len() >= 2, "{summary:#}");
    assert!(
        lines.iter().all(|l| l["reached_by"].is_string()),
        "{summary:#}"
    );
    assert!(out.contains("changed lines: count:"), "{out}");
    // The committed suite's tests without -c print differently now: behaviour
    // changes.
    let changes = summary["behaviour_changes"].as_array().unwrap();
    assert!(
        changes.iter().any(|c| c["detail"]
            .as_str()
            .is_some_and(|d| d.contains("stdout differs"))),
        "{summary:#}"
    );
    assert!(out.contains("behaviour change: count:"), "{out}");
    let sarif = std::fs::read_to_string(dir.join("gate.sarif")).unwrap();
    assert!(
        sarif.contains("\"behaviour-change\"") && sarif.contains("\"note\""),
        "{sarif}"
    );
    let junit = std::fs::read_to_string(dir.join("gate.xml")).unwrap();
    assert!(junit.contains("count (behaviour changes)"), "{junit}");
}
