//! `seeds.md` and `seeds.json` of `cargo xtask bench seeds`.

use super::{Options, PackageRow, ProgramRow, RunFigures};
use anyhow::Result;
use std::fmt::Write;
use std::path::Path;

fn pct(n: u64, of: u64) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / of as f64)
    }
}

/// The pipeline's figure of a run: `covered/total (pct)`, or its status.
fn lines(r: &RunFigures) -> String {
    if r.lines.1 == 0 {
        return r.status.clone();
    }
    format!(
        "{} ({}/{})",
        pct(r.lines.0, r.lines.1),
        r.lines.0,
        r.lines.1
    )
}

/// Problems of a run a row should show: panics, native disagreements,
/// replay differences, a suite that fails other than by a documented bug.
fn problems(r: &RunFigures) -> Vec<String> {
    let mut p = Vec::new();
    if r.panic {
        p.push("panic".into());
    }
    if r.status != "ok" {
        p.push(format!(
            "status {}{}",
            r.status,
            r.message
                .as_ref()
                .map_or(String::new(), |m| format!(": {m}"))
        ));
    }
    if !r.native_disagreements.is_empty() {
        p.push(format!(
            "{} native disagreement(s)",
            r.native_disagreements.len()
        ));
    }
    if r.replay_differs > 0 {
        p.push(format!("{} replay difference(s)", r.replay_differs));
    }
    match r.suite {
        Some((_, f, b)) if f > b => p.push(format!(
            "suite: {} failed{}",
            f - b,
            r.suite_note
                .as_ref()
                .map_or(String::new(), |n| format!(" ({n})"))
        )),
        None => p.push(format!(
            "suite: {}",
            r.suite_note.as_deref().unwrap_or("not run")
        )),
        _ => {}
    }
    p
}

fn table_row(pk: &PackageRow, p: &ProgramRow) -> String {
    let s = &p.seeds;
    let g = |f: &dyn Fn(&super::gcov::Figures) -> u64| -> String {
        p.gcov.as_ref().map_or("-".into(), |x| pct(f(x), x.lines))
    };
    let beyond = p.gcov.as_ref().map_or("-".into(), |x| {
        format!("{} ({} without seeds)", x.beyond, x.plain_beyond)
    });
    format!(
        "| {} | {} | {} / {} / {} | {} | {} | {} | {} | {} | {} | {} | {} / {} |",
        pk.package,
        p.program,
        s.runs_seen,
        s.runs_kept,
        s.seeds,
        lines(&p.plain),
        lines(&p.seeded),
        g(&|x| x.tests),
        g(&|x| x.seeds),
        g(&|x| x.plain),
        g(&|x| x.seeded),
        beyond,
        p.plain.bugs.len(),
        p.seeded.bugs.len()
    )
}

/// The notes under the table: each package's source of seeds, what the
/// recording left out, problems of the runs.
fn notes(rows: &[PackageRow]) -> String {
    let mut out = String::new();
    for pk in rows {
        let _ = writeln!(
            out,
            "- **{}** {} (`{}`, {:.0} s): {}.",
            pk.package, pk.version, pk.source, pk.wall_s, pk.why
        );
        if let Some(f) = &pk.failure {
            let _ = writeln!(out, "  - failed: {}", f.lines().next().unwrap_or(""));
        }
        for p in &pk.programs {
            let s = &p.seeds;
            let mut said = Vec::new();
            if let Some(f) = &s.tests_failed {
                said.push(format!("the test command failed under recording ({f})"));
            }
            if s.truncated > 0 {
                said.push(format!("{} seed(s) cut at seed-max-bytes", s.truncated));
            }
            if s.padded > 0 {
                said.push(format!("{} with files padded", s.padded));
            }
            if !s.left_out.is_empty() {
                said.push(format!(
                    "{} run(s) left out: {}",
                    s.left_out.len(),
                    s.left_out[0]
                ));
            }
            if let Some(sec) = s.seconds {
                said.push(format!("recording {sec:.0} s"));
            }
            if let (Some(e), Some(w)) = (s.ended, s.own_tests) {
                said.push(format!(
                    "the engine followed {e} of the {} seed(s) to their end within the budget; \
                     {w} seed test(s) written before the run (each a seed's inputs as recorded, \
                     run to its end by the native replay)",
                    s.seeds
                ));
            }
            for (tag, r) in [("without seeds", &p.plain), ("with seeds", &p.seeded)] {
                let pr = problems(r);
                if !pr.is_empty() {
                    said.push(format!("{tag}: {}", pr.join("; ")));
                }
                if !r.bugs.is_empty() {
                    said.push(format!("{tag}: bugs {}", r.bugs.join(", ")));
                }
            }
            if let Some(g) = &p.gcov {
                said.push(format!(
                    "gcov: {} lines; with seeds {} beyond the project's tests alone, {} the seeds \
                     alone execute and the kept tests do not",
                    g.lines, g.beyond_tests, g.seeds_not_kept
                ));
            }
            if let Some(n) = &p.gcov_note {
                said.push(format!("gcov: {}", n.lines().next().unwrap_or("")));
            }
            if !said.is_empty() {
                let _ = writeln!(out, "  - {}: {}.", p.program, said.join("; "));
            }
        }
    }
    out
}

/// Writes `seeds.md` and `seeds.json` into `work`.
pub fn write(work: &Path, rows: &[PackageRow], o: &Options, total_s: f64) -> Result<()> {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Seeds from the projects' own tests\n\n\
         `cargo xtask bench seeds` ({} s per program target, `--jobs 1`, {:.0} s in all). \
         Lines: the pipeline's own figure (its native build of the module's sources, llvm-cov \
         over gcov's lines). gcov columns: the program's sources on the package's own build \
         with gcc `--coverage`: its test command, the seeds replayed alone, and the kept tests \
         of each run replayed (`cargo symtest replay --native`). Beyond: lines the kept tests \
         with seeds execute that neither the project's tests nor the seeds alone do.\n",
        o.budget_s, total_s
    );
    md.push_str(
        "| package | program | runs seen / kept / seeds | lines, no seeds | lines, seeds | \
         gcov: project's tests | gcov: seeds alone | gcov: no seeds | gcov: seeds | \
         beyond (no seeds) | bugs no seeds / seeds |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for pk in rows {
        for p in &pk.programs {
            md.push_str(&table_row(pk, p));
            md.push('\n');
        }
        if pk.programs.is_empty() {
            let _ = writeln!(
                md,
                "| {} | - | failed: {} |||||||||",
                pk.package,
                pk.failure
                    .as_deref()
                    .and_then(|f| f.lines().next())
                    .unwrap_or("")
            );
        }
    }
    md.push('\n');
    md.push_str(&notes(rows));
    std::fs::write(work.join("seeds.md"), &md)?;
    std::fs::write(work.join("seeds.json"), serde_json::to_string_pretty(rows)?)?;
    for pk in rows {
        for p in &pk.programs {
            if let Some(g) = &p.gcov {
                std::fs::write(
                    work.join(&pk.package)
                        .join(format!("beyond-{}.txt", p.program)),
                    g.beyond_lines.join("\n"),
                )?;
            }
        }
    }
    eprintln!("bench seeds: wrote {}", work.join("seeds.md").display());
    Ok(())
}
