//! The report of `cargo xtask bench coreutils`: `coreutils.md` (the tables
//! BENCHMARKS.md quotes) and `coreutils.json`, from the figures of each
//! utility.

use super::coreutils::{args_of, paper_args, UtilResult, VERSION, WIDER_ARGS};
use super::gcov;
use anyhow::Result;
use serde_json::{json, Value};
use std::path::Path;

/// Memory per live state (KiB) the engine's census measured at its last
/// census, when it counted states.
fn census_kib(stats: &Value) -> Option<f64> {
    let m = &stats["memory"];
    (m["states"].as_u64()? > 0).then(|| m["per_state_bytes"].as_f64().unwrap_or(0.0) / 1024.0)
}

/// "census (RSS / peak live states)" in KiB: the census's bytes per live
/// state, and the peak resident size divided by the most states alive at
/// once (which includes the module and the solver, so it is an upper bound).
fn per_state(stats: &Value) -> String {
    let rss = stats["memory_peak_mb"].as_f64().unwrap_or(0.0) * 1024.0;
    let peak = stats["states_peak"].as_u64().unwrap_or(0);
    match (census_kib(stats), peak) {
        (Some(c), p) if p > 0 => format!("{c:.1} ({:.1})", rss / p as f64),
        (Some(c), _) => format!("{c:.1}"),
        (None, p) if p > 0 => format!("- ({:.1})", rss / p as f64),
        _ => "-".to_string(),
    }
}

/// The reasons `cargo symtest why` gives, in the order the report lists them.
const WHY: [&str; 6] = [
    "not-reached",
    "infeasible",
    "heuristic",
    "pending",
    "no-test",
    "dead",
];

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

pub fn write_report(
    work: &Path,
    results: &[UtilResult],
    asked: &[&str],
    run: &Value,
) -> Result<()> {
    let mut md = header(results, run);
    md.push_str(
        "| utility | status | lines (own src) | line cov. | ELOC cov. | branch cov. | tests written / kept | bugs | suite passed / failed | native disagreements | claimed, not executed | re-run | pipeline beyond exploration | instructions | peak MB | KiB per live state | solver share |\n\
         |---|---|---:|---:|---:|---:|---|---:|---|---:|---:|---|---:|---:|---:|---:|---:|\n",
    );
    for r in results {
        md.push_str(&util_row(r));
    }
    let t = Totals::of(results);
    md.push_str(&summary(results, asked, run, &t));
    md.push_str(&why_table(results));
    md.push_str(&notes(results, asked));
    std::fs::write(work.join("coreutils.md"), &md)?;
    let j: Vec<Value> = results.iter().map(util_json).collect();
    std::fs::write(
        work.join("coreutils.json"),
        serde_json::to_string_pretty(&json!({
            "run": run, "mean_line_pct": mean(&t.pcts),
            "overall_line_pct": gcov::pct(t.lc as usize, t.lt as usize),
            "mean_eloc_pct": mean(&t.eloc_pcts),
            "overall_eloc_pct": gcov::pct(t.lc as usize, t.et as usize), "utilities": j,
        }))?,
    )?;
    println!("{md}");
    eprintln!(
        "bench coreutils: report in {}",
        work.join("coreutils.md").display()
    );
    Ok(())
}

/// The report's opening paragraphs: what was run, how, and how long it took.
fn header(results: &[UtilResult], run: &Value) -> String {
    let budget = run["budget_s"].as_f64().unwrap_or(0.0);
    let mut md = format!(
        "GNU coreutils {VERSION} (Debian's source, configured for musl) through `cargo symtest` \
         with one `build` target per utility (`build = [\"make\", \"-j2\"]`, `binary = \"src/NAME\"`, \
         `{}`; {}), {budget} s per utility, one target at a time; `{}`, {:.0} s in all.\n\n",
        paper_args().join(" "),
        WIDER_ARGS
            .iter()
            .map(|(u, _)| format!("`{u}`: `{}`, as the paper widened the arguments of eight tools", args_of(u).join(" ")))
            .collect::<Vec<_>>()
            .join("; "),
        run["command"].as_str().unwrap_or(""),
        run["elapsed_s"].as_f64().unwrap_or(0.0),
    );
    md.push_str(&format!(
        "First run: exit code {}, {:.0} s, of which the capture of the build (and the time \
         between targets) {:.0} s.{}\n\n",
        run["exit_code"],
        run["wall_s"].as_f64().unwrap_or(0.0),
        run["capture_s"].as_f64().unwrap_or(0.0),
        match run["rerun"]["exit_code"].as_i64() {
            Some(c) => format!(
                " Second run on the unchanged project ({} s per utility): exit code {c}, {} of {} targets ok, {:.0} s.",
                run["rerun"]["budget_s"],
                run["rerun"]["targets_ok"],
                results.len(),
                run["rerun"]["wall_s"].as_f64().unwrap_or(0.0)
            ),
            None => String::new(),
        }
    ));
    md
}

/// The row of utility `r` in the table.
fn util_row(r: &UtilResult) -> String {
    let lp = gcov::pct(r.lines_covered as usize, r.lines_total as usize);
    let ep = gcov::pct(r.lines_covered as usize, r.eloc_total as usize);
    let s = &r.stats;
    let time = s["time_s"].as_f64().unwrap_or(0.0).max(1e-9);
    let suite = match &r.suite_error {
        Some(_) => "build/run failed".to_string(),
        None if r.suite_flaky.is_empty() => format!("{} / {}", r.suite_passed, r.suite_failed),
        None => format!(
            "{} / {} ({} flaky)",
            r.suite_passed,
            r.suite_failed,
            r.suite_flaky.len()
        ),
    };
    format!(
        "| {} | {} | {} | {:.1}% | {:.1}% | {:.1}% | {} / {} | {}{} | {suite} | {} | {} ({} in all) | {} | {:.0} s | {} | {:.0} | {} | {:.0}% |\n",
        r.name,
        r.status,
        r.lines_total,
        lp,
        ep,
        gcov::pct(r.branches_taken as usize, r.branches_total as usize),
        r.tests_written,
        r.tests_kept,
        r.bugs,
        if r.unconfirmed > 0 {
            format!(" (+{} not reproduced)", r.unconfirmed)
        } else {
            String::new()
        },
        r.disagreements,
        r.claimed_not_executed,
        r.claimed_not_executed_all,
        r.rerun.as_deref().unwrap_or("-"),
        r.overhead_s(),
        s["instructions"].as_u64().unwrap_or(0),
        s["memory_peak_mb"].as_f64().unwrap_or(0.0),
        per_state(s),
        100.0 * s["solver_time_s"].as_f64().unwrap_or(0.0) / time
    )
}

/// The coverage figures over the utilities whose status is ok.
struct Totals {
    /// Lines of their own sources.
    lt: u64,
    /// Of those, covered.
    lc: u64,
    /// ELOC of their own sources.
    et: u64,
    /// Each one's line coverage (%).
    pcts: Vec<f64>,
    /// Each one's ELOC coverage (%).
    eloc_pcts: Vec<f64>,
    /// Each one's pipeline time beyond exploration.
    overheads: Vec<f64>,
}

impl Totals {
    fn of(results: &[UtilResult]) -> Totals {
        let mut t = Totals {
            lt: 0,
            lc: 0,
            et: 0,
            pcts: Vec::new(),
            eloc_pcts: Vec::new(),
            overheads: Vec::new(),
        };
        for r in results.iter().filter(|r| r.status == "ok") {
            t.pcts
                .push(gcov::pct(r.lines_covered as usize, r.lines_total as usize));
            t.eloc_pcts
                .push(gcov::pct(r.lines_covered as usize, r.eloc_total as usize));
            t.et += r.eloc_total;
            t.overheads.push(r.overhead_s());
            t.lt += r.lines_total;
            t.lc += r.lines_covered;
        }
        t
    }
}

/// The summary paragraphs under the table.
fn summary(results: &[UtilResult], asked: &[&str], run: &Value, t: &Totals) -> String {
    let Totals { lt, lc, et, .. } = *t;
    let max_overhead = t.overheads.iter().copied().fold(0.0, f64::max);
    let census_max = results
        .iter()
        .filter_map(|r| census_kib(&r.stats))
        .fold(0.0, f64::max);
    format!(
        "\n**Mean line coverage {:.1}%, overall {:.1}%** ({lc} of {lt} lines of the utilities' own \
         sources) over {} of {} utilities. Native disagreements {}, claimed-but-unexecuted lines {} \
         ({} in all sources), suites failing {}, flaky verdicts over {} runs of each suite {}, \
         re-runs not ok {}. Pipeline time beyond exploration: mean {:.1} s, max {:.1} s. Memory per \
         live state at the census (the most of any utility): {census_max:.1} KiB.\n\n\
         **Over the paper's ELOC** (the lines of functions that survive whole-program \
         optimization; `cargo symtest`'s `dead` lines left out): mean {:.1}%, overall {:.1}% \
         ({lc} of {et} lines).\n",
        mean(&t.pcts),
        gcov::pct(lc as usize, lt as usize),
        t.pcts.len(),
        asked.len(),
        results.iter().map(|r| r.disagreements).sum::<u64>(),
        results.iter().map(|r| r.claimed_not_executed).sum::<u64>(),
        results.iter().map(|r| r.claimed_not_executed_all).sum::<u64>(),
        results
            .iter()
            .filter(|r| r.suite_error.is_some() || r.suite_failed > r.bugs)
            .count(),
        run["suite_runs"],
        results.iter().map(|r| r.suite_flaky.len()).sum::<usize>(),
        results
            .iter()
            .filter(|r| r.rerun.as_deref().is_some_and(|s| s != "ok"))
            .count(),
        mean(&t.overheads),
        max_overhead,
        mean(&t.eloc_pcts),
        gcov::pct(lc as usize, et as usize),
    )
}

/// Each utility's message and suite error (first lines), and the
/// utilities asked for without a report.
fn notes(results: &[UtilResult], asked: &[&str]) -> String {
    let mut md = String::new();
    for r in results {
        if let Some(m) = &r.message {
            md.push_str(&format!(
                "\n- {}: {}\n",
                r.name,
                m.lines().next().unwrap_or("")
            ));
        }
        if let Some(e) = &r.suite_error {
            md.push_str(&format!(
                "\n- {}: suite: {}\n",
                r.name,
                e.lines().next().unwrap_or("")
            ));
        }
    }
    let missing: Vec<&str> = asked
        .iter()
        .copied()
        .filter(|a| !results.iter().any(|r| r.name == *a))
        .collect();
    if !missing.is_empty() {
        md.push_str(&format!(
            "\nNot measured (no report, see the log): {}\n",
            missing.join(", ")
        ));
    }
    md
}

/// Utility `r`'s figures in `coreutils.json`.
fn util_json(r: &UtilResult) -> Value {
    json!({
        "name": r.name, "status": r.status, "message": r.message, "sources": r.sources,
        "lines_total": r.lines_total, "lines_covered": r.lines_covered,
        "eloc_total": r.eloc_total,
        "branches_total": r.branches_total, "branches_taken": r.branches_taken,
        "all_lines": {"covered": r.all_lines.0, "total": r.all_lines.1},
        "tests_written": r.tests_written, "tests_kept": r.tests_kept,
        "bugs": r.bugs, "unconfirmed": r.unconfirmed,
        "native_disagreements": r.disagreements, "flaky": r.flaky,
        "claimed_not_executed": r.claimed_not_executed,
        "claimed_not_executed_all": r.claimed_not_executed_all,
        "suite": {"passed": r.suite_passed, "failed": r.suite_failed, "error": r.suite_error,
            "flaky": r.suite_flaky},
        "rerun": r.rerun, "explore_s": r.explore_s, "total_s": r.total_s,
        "overhead_s": r.overhead_s(), "stage_s": r.stage_s, "stats": r.stats,
        "why": {"lines": r.why_lines, "branches": r.why_branches,
            "lines_pending_can_reach": r.why_pending_can_reach},
    })
}

/// Why uncovered, per utility: the reasons of `cargo symtest why` for the
/// uncovered lines and branch sides of the utility's own sources, and the
/// uncovered lines without one (there should be none).
fn why_table(results: &[UtilResult]) -> String {
    let mut md = String::from(
        "\nWhy uncovered (own sources; `cargo symtest why UTILITY`): lines / branch sides per reason.\n\n\
         | utility | uncovered lines / branch sides |",
    );
    for w in WHY {
        md.push_str(&format!(" {w} |"));
    }
    md.push_str(
        " lines without a reason | lines not pending that pending states could reach |\n|---|---:|",
    );
    md.push_str(&"---:|".repeat(WHY.len() + 2));
    md.push('\n');
    let (mut total, mut sums) = ((0u64, 0u64), vec![(0u64, 0u64); WHY.len()]);
    let (mut unexplained_all, mut reach_all) = (0u64, 0u64);
    for r in results.iter().filter(|r| r.status == "ok") {
        let uncovered = r.lines_total - r.lines_covered;
        let branches = r.branches_total - r.branches_taken;
        let explained: u64 = r.why_lines.values().sum();
        let unexplained = uncovered.saturating_sub(explained);
        unexplained_all += unexplained;
        total.0 += uncovered;
        total.1 += branches;
        md.push_str(&format!("| {} | {uncovered} / {branches} |", r.name));
        for (k, w) in WHY.iter().enumerate() {
            let (l, b) = (
                r.why_lines.get(*w).copied().unwrap_or(0),
                r.why_branches.get(*w).copied().unwrap_or(0),
            );
            sums[k].0 += l;
            sums[k].1 += b;
            md.push_str(&format!(" {l} / {b} |"));
        }
        reach_all += r.why_pending_can_reach;
        md.push_str(&format!(" {unexplained} | {} |\n", r.why_pending_can_reach));
    }
    md.push_str(&format!("| all | {} / {} |", total.0, total.1));
    for (l, b) in &sums {
        md.push_str(&format!(" {l} / {b} |"));
    }
    md.push_str(&format!(" {unexplained_all} | {reach_all} |\n"));
    md
}
