//! Outputs of the suite benchmark, under `target/bench/` (or `--out`):
//! `bench.md` (tables in the form of the paper's Table 2 and §5.2.4),
//! `bench.json` (every figure), `coverage.svg` (coverage over time).

use super::plot;
use super::suite::{ProgramResult, ToolResult};
use anyhow::Result;
use serde_json::json;
use std::fmt::Write as _;
use std::path::Path;

/// Aggregates of a column of per-program percentages, as in Table 2.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Aggregate {
    /// Covered over total, summed over the programs.
    pub overall: f64,
    pub average: f64,
    pub median: f64,
}

pub fn aggregate(values: &[f64], covered: usize, total: usize) -> Aggregate {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let median = match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    };
    Aggregate {
        overall: super::gcov::pct(covered, total),
        average: if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        },
        median,
    }
}

fn agg_of(
    rs: &[&ProgramResult],
    tool: fn(&ProgramResult) -> &ToolResult,
    branches: bool,
) -> Aggregate {
    let vals: Vec<f64> = rs
        .iter()
        .map(|r| {
            if branches {
                tool(r).branch_pct
            } else {
                tool(r).line_pct
            }
        })
        .collect();
    let (c, t) = rs.iter().fold((0, 0), |(c, t), r| {
        let x = tool(r);
        if branches {
            (c + x.branches_taken, t + x.branches_total)
        } else {
            (c + x.lines_covered, t + x.lines_total)
        }
    });
    aggregate(&vals, c, t)
}

/// Line (l) and branch (b) aggregates of symtest (s) and random testing (r)
/// over a set of programs, and the planted bugs each found.
struct Summary {
    ls: Aggregate,
    lr: Aggregate,
    bs: Aggregate,
    br: Aggregate,
    planted: usize,
    found_s: usize,
    found_r: usize,
}

fn summary(rs: &[&ProgramResult]) -> Summary {
    Summary {
        ls: agg_of(rs, sym, false),
        lr: agg_of(rs, rnd, false),
        bs: agg_of(rs, sym, true),
        br: agg_of(rs, rnd, true),
        planted: rs.iter().map(|r| r.planted.len()).sum(),
        found_s: rs.iter().map(|r| r.symtest.planted_found).sum(),
        found_r: rs.iter().map(|r| r.random.planted_found).sum(),
    }
}

fn sym(r: &ProgramResult) -> &ToolResult {
    &r.symtest
}
fn rnd(r: &ProgramResult) -> &ToolResult {
    &r.random
}

fn f(v: &serde_json::Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or(0.0)
}

fn secs(s: Option<f64>) -> String {
    s.map_or("-".into(), |s| format!("{s:.1}"))
}

fn bugs_cell(t: &ToolResult, planted: usize) -> String {
    let extra = t.bugs.iter().filter(|b| !b.planted).count();
    let mut s = format!("{}/{planted}", t.planted_found);
    if extra > 0 {
        let _ = write!(s, " (+{extra} other)");
    }
    s
}

/// Histogram rows of the paper's Table 2: programs per coverage range.
fn histogram(rs: &[ProgramResult]) -> Vec<(String, usize, usize)> {
    let bucket = |p: f64| -> usize {
        if p >= 100.0 {
            0
        } else {
            1 + ((100.0 - p) / 10.0).floor().min(9.0) as usize
        }
    };
    let mut rows: Vec<(String, usize, usize)> = (0..=10)
        .map(|i| {
            let label = if i == 0 {
                "100%".to_string()
            } else {
                format!("{}-{}%", 100 - 10 * i, 110 - 10 * i)
            };
            (label, 0, 0)
        })
        .collect();
    for r in rs {
        rows[bucket(r.symtest.line_pct)].1 += 1;
        rows[bucket(r.random.line_pct)].2 += 1;
    }
    rows
}

pub fn markdown(rs: &[ProgramResult], command: &str, total_s: f64) -> String {
    let mut m = String::new();
    let budgets: Vec<f64> = rs.iter().map(|r| r.symtest.budget_s).collect();
    let budget = budgets.first().copied().unwrap_or(0.0);
    let _ = writeln!(
        m,
        "# symtest benchmark: coverage and bugs against random testing\n"
    );
    let _ = writeln!(
        m,
        "Command: `{command}` — {} programs of `tests/bench/suite/`, {budget} s per program for each tool \
         (same wall-clock budget, seed {}), {:.0} s in all on a {}-core machine.\n",
        rs.len(),
        super::suite::SEED,
        total_s,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let _ = writeln!(
        m,
        "Coverage is measured as in the paper's §5.1: the tests each tool kept are replayed on a \
         native `--coverage` build (gcc for harnesses; musl-gcc for whole programs, replayed by \
         `cargo symtest replay --native` with their argv, files and stdin) and read from the \
         `.gcov` file of the program's source (executable lines and branch directions of the \
         program itself; the replay runtime is not counted). Bugs are distinct (kind, line) pairs \
         reported by a native ASan/UBSan build (gcc, with `bounds`) when the kept tests are \
         replayed; \"planted\" bugs are the `// EXPECT-ERROR:` markers. Whole programs are \
         marked *(program)*.\n"
    );
    per_program(&mut m, rs);
    ahead_behind(&mut m, rs);
    ranges(&mut m, rs);
    engine_stats(&mut m, rs);
    random_stats(&mut m, rs);
    bugs(&mut m, rs);
    m
}

/// The per-program table, with the overall, average and median rows (and the
/// averages of harnesses and whole programs apart, when there are both).
fn per_program(m: &mut String, rs: &[ProgramResult]) {
    let _ = writeln!(m, "## Per program\n");
    let _ = writeln!(
        m,
        "| program | lines | symtest lines | random lines | symtest branches | random branches | planted bugs found (symtest / random) | first bug, s (symtest / random) | tests kept (symtest / random) |"
    );
    let _ = writeln!(m, "|---|---:|---:|---:|---:|---:|---|---|---|");
    for r in rs {
        let _ = writeln!(
            m,
            "| {}{} | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {} / {} | {} / {} | {} / {} |",
            r.name,
            if r.program { " *(program)*" } else { "" },
            r.symtest.lines_total,
            r.symtest.line_pct,
            r.random.line_pct,
            r.symtest.branch_pct,
            r.random.branch_pct,
            bugs_cell(&r.symtest, r.planted.len()),
            bugs_cell(&r.random, r.planted.len()),
            secs(r.symtest.first_bug_s),
            secs(r.random.first_bug_s),
            r.symtest.tests,
            r.random.tests
        );
    }
    let all: Vec<&ProgramResult> = rs.iter().collect();
    let Summary {
        ls,
        lr,
        bs,
        br,
        planted,
        found_s,
        found_r,
    } = summary(&all);
    let lines: usize = rs.iter().map(|r| r.symtest.lines_total).sum();
    let tests_s: usize = rs.iter().map(|r| r.symtest.tests).sum();
    let tests_r: usize = rs.iter().map(|r| r.random.tests).sum();
    let _ = writeln!(
        m,
        "| **overall** | {lines} | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {found_s}/{planted} / {found_r}/{planted} | | {tests_s} / {tests_r} |",
        ls.overall, lr.overall, bs.overall, br.overall
    );
    let _ = writeln!(
        m,
        "| **average** | | {:.1}% | {:.1}% | {:.1}% | {:.1}% | | | |",
        ls.average, lr.average, bs.average, br.average
    );
    let _ = writeln!(
        m,
        "| **median** | | {:.1}% | {:.1}% | {:.1}% | {:.1}% | | | |",
        ls.median, lr.median, bs.median, br.median
    );
    let (programs, harnesses): (Vec<&ProgramResult>, Vec<&ProgramResult>) =
        rs.iter().partition(|r| r.program);
    if !programs.is_empty() && !harnesses.is_empty() {
        for (label, v) in [("harnesses", &harnesses), ("whole programs", &programs)] {
            let s = summary(v);
            let _ = writeln!(
                m,
                "| average of the {} {label} | | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {}/{} / {}/{} | | |",
                v.len(),
                s.ls.average,
                s.lr.average,
                s.bs.average,
                s.br.average,
                s.found_s,
                s.planted,
                s.found_r,
                s.planted
            );
        }
    }
    let _ = writeln!(m);
}

/// The line on which programs symtest has more, the same or less line coverage
/// than random testing.
fn ahead_behind(m: &mut String, rs: &[ProgramResult]) {
    let ahead = rs
        .iter()
        .filter(|r| r.symtest.line_pct > r.random.line_pct + 1e-9)
        .count();
    let behind: Vec<&str> = rs
        .iter()
        .filter(|r| r.symtest.line_pct + 1e-9 < r.random.line_pct)
        .map(|r| r.name.as_str())
        .collect();
    let _ = writeln!(
        m,
        "symtest has more line coverage on {ahead} programs, the same on {}, less on {}{}.\n",
        rs.len() - ahead - behind.len(),
        behind.len(),
        if behind.is_empty() {
            String::new()
        } else {
            format!(" ({})", behind.join(", "))
        }
    );
}

/// The line coverage ranges section (as the paper's Table 2).
fn ranges(m: &mut String, rs: &[ProgramResult]) {
    let _ = writeln!(m, "## Line coverage ranges (as the paper's Table 2)\n");
    let _ = writeln!(m, "| coverage | symtest | random |\n|---|---:|---:|");
    for (label, s, r) in histogram(rs) {
        let _ = writeln!(m, "| {label} | {s} | {r} |");
    }
    let _ = writeln!(m);
}

/// The engine statistics section (symtest's `stats.json`).
fn engine_stats(m: &mut String, rs: &[ProgramResult]) {
    let _ = writeln!(m, "## Engine statistics (symtest's `stats.json`)\n");
    let _ = writeln!(
        m,
        "| program | instructions | instructions/s | paths | solver time share | queries: executor → layers → Bitwuzla | peak memory (MiB) | peak live states |"
    );
    let _ = writeln!(m, "|---|---:|---:|---:|---:|---|---:|---:|");
    for r in rs {
        let s = &r.symtest.stats;
        let layers: Vec<String> = s["solver_layers"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|l| format!("{} {}", l["name"].as_str().unwrap_or("?"), f(l, "queries")))
                    .collect()
            })
            .unwrap_or_default();
        let _ = writeln!(
            m,
            "| {} | {} | {:.0} | {} | {:.0}% | {} → {} | {:.0} | {} |",
            r.name,
            f(s, "instructions"),
            f(s, "instructions") / f(s, "time_s").max(1e-9),
            f(s, "paths_completed"),
            100.0 * f(s, "solver_time_s") / f(s, "time_s").max(1e-9),
            f(s, "queries"),
            layers.join(" → "),
            f(s, "memory_peak_mb"),
            f(s, "states_peak"),
        );
    }
}

/// The random testing section.
fn random_stats(m: &mut String, rs: &[ProgramResult]) {
    let _ = writeln!(
        m,
        "\n## Random testing (`tests/bench/random/symtest_random.c`)\n"
    );
    let _ = writeln!(
        m,
        "| program | runs | runs/s | rejected by assumptions | crashing runs | edges covered |"
    );
    let _ = writeln!(m, "|---|---:|---:|---:|---:|---:|");
    for r in rs {
        let s = &r.random.stats;
        let _ = writeln!(
            m,
            "| {} | {} | {:.0} | {} | {} | {}/{} |",
            r.name,
            f(s, "runs"),
            f(s, "runs") / f(s, "time_s").max(1e-9),
            f(s, "rejected"),
            f(s, "crashes"),
            f(s, "edges_covered"),
            f(s, "edges")
        );
    }
}

/// The bugs section: each bug each tool found, and each planted bug symtest
/// missed.
fn bugs(m: &mut String, rs: &[ProgramResult]) {
    let _ = writeln!(m, "\n## Bugs\n");
    for r in rs {
        for (t, name) in [(&r.symtest, "symtest"), (&r.random, "random")] {
            for b in &t.bugs {
                let _ = writeln!(
                    m,
                    "- {}: {name} found `{}` at line {} after {:.1} s ({}){}",
                    r.name,
                    b.kind,
                    b.line,
                    b.first_s,
                    b.test,
                    if b.planted {
                        ", planted"
                    } else {
                        ", not planted"
                    }
                );
            }
        }
        for e in &r.planted {
            if !r
                .symtest
                .bugs
                .iter()
                .any(|b| b.planted && b.kind == e.kind && b.line == e.line)
            {
                let _ = writeln!(
                    m,
                    "- {}: symtest missed the planted `{}` at line {}",
                    r.name, e.kind, e.line
                );
            }
        }
    }
}

pub fn write(out: &Path, rs: &[ProgramResult], command: &str, total_s: f64) -> Result<()> {
    let md = markdown(rs, command, total_s);
    std::fs::write(out.join("bench.md"), &md)?;
    let all: Vec<&ProgramResult> = rs.iter().collect();
    let s = summary(&all);
    let aggregate = json!({
        "symtest": {
            "lines": s.ls,
            "branches": s.bs,
            "planted_found": s.found_s,
            "tests": rs.iter().map(|r| r.symtest.tests).sum::<usize>(),
        },
        "random": {
            "lines": s.lr,
            "branches": s.br,
            "planted_found": s.found_r,
            "tests": rs.iter().map(|r| r.random.tests).sum::<usize>(),
        },
        "planted": s.planted,
    });
    let doc = json!({
        "command": command,
        "total_time_s": total_s,
        "seed": super::suite::SEED,
        "programs": rs,
        "aggregate": aggregate,
    });
    std::fs::write(out.join("bench.json"), serde_json::to_string_pretty(&doc)?)?;
    plot::coverage_over_time(&out.join("coverage.svg"), rs)?;
    print!("{md}");
    eprintln!(
        "\nbench: wrote {}, {} and {}",
        out.join("bench.md").display(),
        out.join("bench.json").display(),
        out.join("coverage.svg").display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregates_like_table_2() {
        let a = aggregate(&[100.0, 50.0, 90.0, 80.0], 30, 40);
        assert_eq!(a.overall, 75.0);
        assert_eq!(a.average, 80.0);
        assert_eq!(a.median, 85.0);
    }
}
