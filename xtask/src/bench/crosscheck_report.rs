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
    let s = s.replace('\n', " ");
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
        "# GNU coreutils 9.1 crosschecked against toybox 0.8.9\n\n`{}`: {} s per tool, {:.0} s in all.\n\n",
        run["command"].as_str().unwrap_or("?"),
        run["budget_s"],
        run["wall_s"].as_f64().unwrap_or(0.0)
    );
    md.push_str(&table(rows));
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
        assert!(injects_failures(&list[3]));
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
