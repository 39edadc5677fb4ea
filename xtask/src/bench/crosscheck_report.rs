//! The crosscheck benchmark's rows (from each crosscheck's
//! `symtest-out/<name>/summary.json`) and its reports: `crosscheck.json`
//! and `crosscheck.md`.

use super::crosscheck::{crosscheck_name, SHOWN_MISMATCHES};
use anyhow::Result;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;

/// The last lines of a log, for a row whose crosscheck wrote no summary.
fn tail(log: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// One tool's row: the crosscheck's summary with the run's exit code and
/// wall time; without a summary, `status` says why (`no summary`, with the
/// log's tail).
pub fn row(project: &Path, tool: &str, code: i32, wall_s: f64, log: &Path) -> Value {
    let name = crosscheck_name(tool);
    let path = project.join("symtest-out").join(&name).join("summary.json");
    let summary: Option<Value> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let Some(s) = summary else {
        return json!({
            "tool": tool, "crosscheck": name, "exit_code": code, "wall_s": wall_s,
            "status": "no summary", "message": tail(log, 15), "log": log,
        });
    };
    let n = |k: &str| s[k].as_u64().unwrap_or(0);
    let list = s["mismatch_list"].as_array().map_or(&[][..], Vec::as_slice);
    let distinct = classes(list).len();
    let with_failures = list.iter().filter(|m| injects_failures(m)).count();
    json!({
        "tool": tool,
        "crosscheck": name,
        "exit_code": code,
        "wall_s": wall_s,
        "log": log,
        "status": s["status"],
        "message": s["message"],
        "budget_s": s["budget_s"],
        "explore_s": s["explore_s"],
        "total_s": s["total_s"],
        "halt_reason": s["halt_reason"],
        "engine_overran": s["engine_overran"],
        "paths": n("paths"),
        "paths_equal": n("paths_equal"),
        "mismatches": n("mismatches"),
        "mismatches_confirmed": n("mismatches_confirmed"),
        "unconfirmed": n("mismatches").saturating_sub(n("mismatches_confirmed")),
        "distinct_differences": distinct,
        "mismatches_with_failures": with_failures,
        "tests_written": n("tests_written"),
        "bugs": s["bugs"],
        "mismatch_list": s["mismatch_list"],
        "summary": path,
    })
}

/// The commit the benchmark runs at (`git rev-parse --short HEAD`, with
/// `+changes` when tracked files differ from it); `unknown` outside git.
pub fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short", "HEAD"]) {
        Some(head) => match git(&["status", "--porcelain", "--untracked-files=no"]) {
            Some(changes) if !changes.is_empty() => format!("{head}+changes"),
            _ => head,
        },
        None => "unknown".to_string(),
    }
}

/// `--only` after a run of every tool: the last run's rows (`last`, its
/// `crosscheck.json`) with those of the tools rerun replaced by `rows`, in
/// the last run's order (tools it did not run appended), and its settings
/// with this rerun (`rerun`: command, tools, commit, wall time) added to
/// its `reruns`. `None` when `last` ran at another budget per tool than
/// `budget_s` (its rows do not compare with these).
pub fn merged(
    last: &Value,
    rows: Vec<Value>,
    budget_s: f64,
    rerun: Value,
) -> Option<(Vec<Value>, Value)> {
    if last["run"]["budget_s"].as_f64() != Some(budget_s) {
        return None;
    }
    let mut fresh = rows;
    let mut out = Vec::new();
    for r in last["tools"].as_array().into_iter().flatten() {
        match fresh.iter().position(|n| n["tool"] == r["tool"]) {
            Some(i) => out.push(fresh.remove(i)),
            None => out.push(derived(r.clone())),
        }
    }
    out.extend(fresh);
    let mut run = last["run"].clone();
    match run["reruns"].as_array_mut() {
        Some(list) => list.push(rerun),
        None => run["reruns"] = json!([rerun]),
    }
    Some((out, run))
}

/// A row of an earlier report with the counts [`row`] derives from its
/// mismatches made again (a report may predate one of them).
fn derived(mut r: Value) -> Value {
    if let Some(list) = r["mismatch_list"].as_array() {
        let distinct = classes(list).len();
        let with_failures = list.iter().filter(|m| injects_failures(m)).count();
        r["distinct_differences"] = json!(distinct);
        r["mismatches_with_failures"] = json!(with_failures);
    }
    r
}

/// The header's note of the reruns merged into a run's report: which rows
/// ran at which commit.
fn reruns_note(run: &Value) -> String {
    let mut s = String::new();
    for r in run["reruns"].as_array().into_iter().flatten() {
        let tools: Vec<&str> = r["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let _ = writeln!(
            s,
            "Rows rerun since: {} by `{}` at commit {} ({:.0} s).\n",
            tools.join(", "),
            r["command"].as_str().unwrap_or("?"),
            r["commit"].as_str().unwrap_or("unknown"),
            r["wall_s"].as_f64().unwrap_or(0.0)
        );
    }
    s
}

/// Whether a mismatch's input injects a system-call failure (`--max-fail`):
/// its shell commands say so (`(failures injected: write=2)`).
pub fn injects_failures(m: &Value) -> bool {
    m["sides"].as_array().into_iter().flatten().any(|sd| {
        sd["input"]
            .as_str()
            .is_some_and(|i| i.contains("(failures injected:"))
    })
}

fn u(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or(0)
}

fn len(v: &Value) -> usize {
    v.as_array().map_or(0, Vec::len)
}

/// The row as one line (progress).
pub fn line(r: &Value) -> String {
    if r["status"] != "ok" {
        return format!(
            "{}: {} (exit {})",
            r["tool"].as_str().unwrap_or("?"),
            r["status"].as_str().unwrap_or("?"),
            r["exit_code"]
        );
    }
    format!(
        "{}: {} pairs compared, {} proven equal, {} mismatches ({} confirmed natively), {} low-level bug(s), {:.0} s",
        r["tool"].as_str().unwrap_or("?"),
        u(r, "paths"),
        u(r, "paths_equal"),
        u(r, "mismatches"),
        u(r, "mismatches_confirmed"),
        len(&r["bugs"]),
        r["wall_s"].as_f64().unwrap_or(0.0)
    )
}

/// A cell of Markdown (pipes and newlines would break the table).
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// A code span holding `s` (backticks inside it lengthen the fence).
fn code(s: &str) -> String {
    if s.is_empty() {
        return "(empty line)".to_string();
    }
    // Other control characters (a NUL makes the file binary) as `\xNN`.
    let s: String = s
        .replace('\n', " ")
        .chars()
        .map(|c| match c {
            '\t' => c.to_string(),
            c if c.is_control() => format!("\\x{:02x}", c as u32),
            c => c.to_string(),
        })
        .collect();
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

/// The table: one row per tool, then the totals.
fn table(rows: &[Value]) -> String {
    let mut s = String::from(
        "| tool | pairs compared | proven equal | mismatches | with an injected failure | distinct differences | confirmed natively | unconfirmed | side bugs | status |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    let mut total = [0u64; 7];
    let mut bugs = 0;
    for r in rows {
        let v = [
            u(r, "paths"),
            u(r, "paths_equal"),
            u(r, "mismatches"),
            u(r, "mismatches_with_failures"),
            u(r, "distinct_differences"),
            u(r, "mismatches_confirmed"),
            u(r, "unconfirmed"),
        ];
        for (t, x) in total.iter_mut().zip(v) {
            *t += x;
        }
        bugs += len(&r["bugs"]);
        let mut status = r["status"].as_str().unwrap_or("?").to_string();
        // Killed by the watchdog, the engine wrote no statistics: its pair
        // counts are unknown, not 0.
        let pairs = if r["engine_overran"] == true {
            status.push_str(" (engine overran its budget: pairs not counted)");
            ["-".to_string(), "-".to_string()]
        } else {
            [v[0].to_string(), v[1].to_string()]
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r["tool"].as_str().unwrap_or("?"),
            pairs[0],
            pairs[1],
            v[2],
            v[3],
            v[4],
            v[5],
            v[6],
            len(&r["bugs"]),
            cell(&status)
        );
    }
    let _ = writeln!(
        s,
        "| **all {}** | {} | {} | {} | {} | {} | {} | {} | {} | |",
        rows.len(),
        total[0],
        total[1],
        total[2],
        total[3],
        total[4],
        total[5],
        total[6],
        bugs
    );
    s
}

/// What tells mismatches apart by cause, in the report's order: whether an
/// injected failure is needed, then what the native programs did (both or
/// one of them failed, stdout the same or not). stderr is not compared, so
/// two error messages differ only by their exit statuses.
pub const CAUSES: &[&str] = &[
    "not confirmed natively",
    "only under an injected system-call failure",
    "both fail, with different exit statuses, same stdout (error-status conventions)",
    "one fails, the other succeeds, same stdout (an option, operand or number only one accepts)",
    "one fails, the other succeeds, stdout differs (an input only one accepts)",
    "both fail, stdout differs (what is printed before the error)",
    "both succeed, stdout differs (the same valid input, different output)",
];

/// The cause of a mismatch: an index into [`CAUSES`].
pub fn cause(m: &Value) -> usize {
    if m["confirmed"] != true {
        return 0;
    }
    if injects_failures(m) {
        return 1;
    }
    let ok: Vec<bool> = m["sides"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|sd| sd["status"] == "exit 0")
        .collect();
    let stdout = m["differs"]
        .as_array()
        .is_some_and(|d| d.iter().any(|x| x == "stdout"));
    let (both_ok, both_fail) = (ok.iter().all(|&o| o), ok.iter().all(|&o| !o));
    match (stdout, both_ok, both_fail) {
        (false, _, true) => 2,
        (false, _, _) => 3,
        (true, false, false) => 4,
        (true, _, true) => 5,
        (true, _, _) => 6,
    }
}

/// The mismatches of all rows by [`cause`]: how many, and the tools with
/// how many each (most first).
fn causes_table(rows: &[Value]) -> String {
    let mut s = String::from("| cause | mismatches | tools |\n|---|---:|---|\n");
    for (i, what) in CAUSES.iter().enumerate() {
        let mut tools: Vec<(usize, &str)> = rows
            .iter()
            .map(|r| {
                let n = r["mismatch_list"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|m| cause(m) == i)
                    .count();
                (n, r["tool"].as_str().unwrap_or("?"))
            })
            .filter(|(n, _)| *n > 0)
            .collect();
        if tools.is_empty() {
            continue;
        }
        tools.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        let total: usize = tools.iter().map(|t| t.0).sum();
        let list: Vec<String> = tools.iter().map(|(n, t)| format!("{t} ({n})")).collect();
        let _ = writeln!(s, "| {what} | {total} | {} |", list.join(", "));
    }
    s
}

/// One side of a mismatch: its input, exit status and first differing line.
fn side(sd: &Value) -> String {
    let line = match sd["first_differing_line"].as_str() {
        Some(l) => code(l),
        None => "(no line)".to_string(),
    };
    format!(
        "{}: {} → {}, {}",
        sd["program"].as_str().unwrap_or("?"),
        code(sd["input"].as_str().unwrap_or("?")),
        sd["status"].as_str().unwrap_or("status not recorded"),
        line
    )
}

/// What the native programs did on a mismatch, both sides: exit statuses
/// and first differing stdout lines (the input left out). Mismatches with
/// one signature show one behaviour difference.
fn signature(m: &Value) -> Vec<Value> {
    m["sides"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|sd| json!([sd["status"], sd["first_differing_line"]]))
        .chain([m["confirmed"].clone()])
        .collect()
}

/// A tool's mismatches grouped by [`signature`], in the order of their first
/// test: (how many, the first of them).
pub fn classes(list: &[Value]) -> Vec<(usize, Value)> {
    let mut out: Vec<(Vec<Value>, usize, Value)> = Vec::new();
    for m in list {
        let sig = signature(m);
        match out.iter_mut().find(|(s, _, _)| *s == sig) {
            Some(c) => c.1 += 1,
            None => out.push((sig, 1, m.clone())),
        }
    }
    out.into_iter().map(|(_, n, m)| (n, m)).collect()
}

/// One mismatch: its verdict, then each side.
fn mismatch(s: &mut String, count: usize, m: &Value) {
    let differs: Vec<&str> = m["differs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let verdict = if m["confirmed"] == true {
        format!("confirmed ({})", differs.join(", "))
    } else {
        format!(
            "NOT confirmed: {}",
            m["reason"].as_str().unwrap_or("no reason given")
        )
    };
    let _ = writeln!(
        s,
        "- {} mismatch(es) like {} — {verdict}",
        count,
        m["test"].as_str().unwrap_or("?")
    );
    for sd in m["sides"].as_array().into_iter().flatten() {
        let _ = writeln!(s, "  - {}", side(sd));
    }
}

/// Each tool's first mismatches, one per native behaviour difference (the
/// first [`SHOWN_MISMATCHES`] of them), both sides' inputs and what
/// differs; then its low-level bugs.
fn mismatches(rows: &[Value]) -> String {
    let mut s = String::new();
    for r in rows {
        let list = r["mismatch_list"].as_array().cloned().unwrap_or_default();
        if list.is_empty() && len(&r["bugs"]) == 0 {
            continue;
        }
        let cls = classes(&list);
        let _ = writeln!(
            s,
            "\n### {} ({} mismatches, {} distinct native differences)\n",
            r["tool"].as_str().unwrap_or("?"),
            list.len(),
            cls.len()
        );
        // Differences on the inputs alone first, then those under an
        // injected system-call failure (the n-th call fails in both: not
        // the same operation in two implementations).
        let (plain, failing): (Vec<_>, Vec<_>) =
            cls.iter().partition(|(_, m)| !injects_failures(m));
        for (n, m) in plain.iter().take(SHOWN_MISMATCHES) {
            mismatch(&mut s, *n, m);
        }
        if !failing.is_empty() {
            let _ = writeln!(
                s,
                "- under an injected failure: {} distinct differences ({} mismatches), the first:",
                failing.len(),
                failing.iter().map(|(n, _)| n).sum::<usize>()
            );
        }
        for (n, m) in failing.iter().take(SHOWN_MISMATCHES / 2) {
            mismatch(&mut s, *n, m);
        }
        for b in r["bugs"].as_array().into_iter().flatten() {
            let bug = &b["bug"];
            let _ = writeln!(
                s,
                "- low-level bug: {} in {} at {}:{} ({}; reproduced natively by: {})",
                bug["kind"].as_str().unwrap_or("?"),
                bug["function"].as_str().unwrap_or("?"),
                bug["file"].as_str().unwrap_or("?"),
                bug["line"],
                b["test"].as_str().unwrap_or("?"),
                b["reproduced_by"]
                    .as_array()
                    .map(|a| a
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(", "))
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "none".to_string())
            );
        }
    }
    s
}

/// Writes `crosscheck.json` and `crosscheck.md` into `dir`.
pub fn write(dir: &Path, rows: &[Value], run: &Value) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let json_path = dir.join("crosscheck.json");
    std::fs::write(
        &json_path,
        serde_json::to_string_pretty(&json!({"run": run, "tools": rows}))?,
    )?;
    let mut md = format!(
        "# GNU coreutils 9.1 crosschecked against toybox 0.8.9\n\n`{}`: {} s per tool, {:.0} s in all, at commit {}.\n\n",
        run["command"].as_str().unwrap_or("?"),
        run["budget_s"],
        run["wall_s"].as_f64().unwrap_or(0.0),
        run["commit"].as_str().unwrap_or("not recorded")
    );
    md.push_str(&reruns_note(run));
    md.push_str(&table(rows));
    md.push_str("\n## Mismatches by cause\n\n");
    md.push_str(&causes_table(rows));
    let left: Vec<String> = run["left_out"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| {
            format!(
                "`{}` ({})",
                l["tool"].as_str().unwrap_or("?"),
                l["reason"].as_str().unwrap_or("?")
            )
        })
        .collect();
    let _ = writeln!(
        md,
        "\nTools both provide that are left out ({}): {}.",
        left.len(),
        left.join(", ")
    );
    md.push_str("\n## First mismatches\n");
    md.push_str(&mismatches(rows));
    let md_path = dir.join("crosscheck.md");
    std::fs::write(&md_path, &md)?;
    println!("{}", table(rows));
    println!(
        "report: {}\nraw: {}",
        md_path.display(),
        json_path.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mismatch(
        test: &str,
        gnu: (&str, Option<&str>),
        toybox: (&str, Option<&str>),
        input: &str,
    ) -> Value {
        json!({
            "test": test, "confirmed": true, "differs": ["stdout"],
            "sides": [
                {"program": "wc", "input": format!("wc {input}"), "status": gnu.0, "first_differing_line": gnu.1},
                {"program": "toybox", "input": format!("toybox wc {input}"), "status": toybox.0, "first_differing_line": toybox.1},
            ],
        })
    }

    /// Mismatches with the same native behaviour on both sides are one
    /// difference, counted, in the order of their first test; inputs that
    /// inject a failure are told apart.
    #[test]
    fn mismatches_group_by_what_both_programs_did() {
        let list = [
            mismatch("t1", ("exit 0", Some("")), ("exit 0", Some(".")), "''"),
            mismatch("t2", ("exit 0", None), ("exit 1", None), "-z"),
            mismatch("t3", ("exit 0", Some("")), ("exit 0", Some(".")), "'' x"),
            mismatch(
                "t4",
                ("exit 1", None),
                ("exit 0", None),
                "-   (failures injected: close=1)",
            ),
        ];
        let c = classes(&list);
        let got: Vec<(usize, &str)> = c
            .iter()
            .map(|(n, m)| (*n, m["test"].as_str().unwrap()))
            .collect();
        assert_eq!(got, [(2, "t1"), (1, "t2"), (1, "t4")]);
        assert!(!injects_failures(&list[0]));
        // Lines are shown with their control characters escaped.
        assert_eq!(code("a\0b\tc"), "`a\\x00b\tc`");
        assert!(injects_failures(&list[3]));
    }

    /// Causes: an injected failure first, then what the native programs
    /// did; an unconfirmed mismatch has no cause.
    #[test]
    fn mismatches_are_told_apart_by_cause() {
        let m = |gnu: &str, toybox: &str, differs: Value, input: &str| {
            json!({"confirmed": true, "differs": differs, "sides": [
                {"status": gnu, "input": format!("test {input}")},
                {"status": toybox, "input": format!("toybox test {input}")}]})
        };
        let status = json!(["exit status"]);
        let stdout = json!(["stdout"]);
        let cases = [
            (
                m(
                    "exit 1",
                    "exit 0",
                    status.clone(),
                    "-   (failures injected: close=1)",
                ),
                1,
            ),
            (m("exit 2", "exit 1", status.clone(), "-a ''"), 2),
            (m("exit 2", "exit 0", status, "-a A"), 3),
            (m("exit 1", "exit 0", stdout.clone(), "-z"), 4),
            (m("exit 1", "exit 2", stdout.clone(), "x"), 5),
            (m("exit 0", "exit 0", stdout, "--"), 6),
        ];
        for (c, want) in &cases {
            assert_eq!(cause(c), *want, "{c}");
        }
        let mut unconfirmed = cases[0].0.clone();
        unconfirmed["confirmed"] = json!(false);
        assert_eq!(cause(&unconfirmed), 0);
        let rows = [json!({"tool": "test", "mismatch_list": [cases[1].0, cases[5].0]})];
        let t = causes_table(&rows);
        assert!(
            t.contains(&format!("| {} | 1 | test (1) |", CAUSES[6])),
            "{t}"
        );
        assert!(
            t.contains(&format!("| {} | 1 | test (1) |", CAUSES[2])),
            "{t}"
        );
        assert!(!t.contains(CAUSES[1]), "{t}");
    }

    /// `--only` after a full run: the rows rerun replace theirs, in the
    /// last run's order, the others stay as they ran; the rerun is noted
    /// with its commit. Another budget per tool merges nothing.
    #[test]
    fn reruns_replace_their_rows_of_the_last_run() {
        let last = json!({
            "run": {"command": "cargo xtask bench crosscheck", "budget_s": 60.0, "commit": "aaa"},
            "tools": [
                {"tool": "cat", "paths": 1, "commit": "aaa", "mismatch_list": [
                    {"sides": [{"input": "cat -   (failures injected: read=1)"}]}]},
                {"tool": "sort", "paths": 2, "commit": "aaa"},
                {"tool": "test", "paths": 3},
            ],
        });
        let rows = vec![
            json!({"tool": "test", "paths": 30, "commit": "bbb"}),
            json!({"tool": "sort", "paths": 20, "commit": "bbb"}),
        ];
        let rerun = json!({"command": "cargo xtask bench crosscheck --only test,sort",
                           "tools": ["test", "sort"], "commit": "bbb", "wall_s": 250.0});
        let (merged_rows, run) = merged(&last, rows.clone(), 60.0, rerun).unwrap();
        let got: Vec<(&str, u64, &str)> = merged_rows
            .iter()
            .map(|r| {
                (
                    r["tool"].as_str().unwrap(),
                    r["paths"].as_u64().unwrap(),
                    r["commit"].as_str().unwrap_or("-"),
                )
            })
            .collect();
        assert_eq!(
            got,
            [("cat", 1, "aaa"), ("sort", 20, "bbb"), ("test", 30, "bbb")]
        );
        assert_eq!(merged_rows[0]["mismatches_with_failures"], 1);
        assert_eq!(run["commit"], "aaa");
        let note = reruns_note(&run);
        assert!(
            note.contains(
                "test, sort by `cargo xtask bench crosscheck --only test,sort` at commit bbb"
            ),
            "{note}"
        );
        assert!(merged(&last, rows, 10.0, json!({})).is_none());
    }

    /// A crosscheck whose engine the watchdog stopped has no pair counts:
    /// the table says so rather than 0; totals add the rest.
    #[test]
    fn table_marks_unknown_pair_counts() {
        let rows = [
            json!({"tool": "wc", "status": "ok", "paths": 10, "paths_equal": 7, "mismatches": 3,
                   "mismatches_with_failures": 1, "distinct_differences": 2,
                   "mismatches_confirmed": 3, "unconfirmed": 0, "bugs": []}),
            json!({"tool": "comm", "status": "ok", "engine_overran": true, "paths": 0,
                   "paths_equal": 0, "mismatches": 5, "mismatches_with_failures": 0,
                   "distinct_differences": 1, "mismatches_confirmed": 5, "unconfirmed": 0,
                   "bugs": [{"test": "t"}]}),
        ];
        let t = table(&rows);
        assert!(
            t.contains("| wc | 10 | 7 | 3 | 1 | 2 | 3 | 0 | 0 | ok |"),
            "{t}"
        );
        assert!(
            t.contains("| comm | - | - | 5 | 0 | 1 | 5 | 0 | 1 | ok (engine overran"),
            "{t}"
        );
        assert!(
            t.contains("| **all 2** | 10 | 7 | 8 | 1 | 3 | 8 | 0 | 1 | |"),
            "{t}"
        );
    }
}
