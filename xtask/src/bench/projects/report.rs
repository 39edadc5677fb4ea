//! `projects.md` and `projects.json` of `cargo xtask bench projects`.

use super::corpus::Member;
use super::runner::Row;
use super::{Options, ProjectResult, TargetResult};
use anyhow::Result;
use std::fmt::Write;
use std::path::Path;

fn pct(c: u64, t: u64) -> String {
    if t == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * c as f64 / t as f64)
    }
}

fn dropped(v: &serde_json::Value) -> String {
    match v.as_object() {
        Some(m) if !m.is_empty() => m
            .iter()
            .map(|(f, n)| format!("`{f}` ({n})"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => "none".into(),
    }
}

pub fn markdown(
    results: &[ProjectResult],
    failures: &[String],
    o: &Options,
    total_s: f64,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Debian bookworm source packages captured with their own builds through `cargo symtest \
         init --from-build`, every listed program and library harness run by `cargo symtest \
         --max-time {}`; `cargo xtask bench projects{}`, {:.0} s in all.\n",
        o.budget_s,
        if o.only.is_empty() {
            String::new()
        } else {
            format!(" --only {}", o.only.join(","))
        },
        total_s
    );
    let _ = writeln!(
        s,
        "| project | configure | plain build | capture build (init) | compiles with bitcode | \
         outputs with bitcode | flags dropped | programs listed | left out | unsupported | \
         targets run | lines covered | kept tests replayed as recorded | bugs |"
    );
    let _ = writeln!(
        s,
        "|---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|"
    );
    for p in results {
        project_row(&mut s, p);
    }
    let _ = writeln!(
        s,
        "\nPer target (the budget, then minimization, native replay and gcov):\n"
    );
    let _ = writeln!(
        s,
        "| project | target | kind | names | status | paths | tests kept/written | replay differs | not reproduced | lines | unsupported | bugs |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---|");
    for p in results {
        for t in &p.targets {
            target_row(&mut s, p, t, o);
        }
    }
    let _ = writeln!(
        s,
        "\nHow each was built, and what `init --from-build` left out:\n"
    );
    for p in results {
        let _ = writeln!(
            s,
            "- **{}**: {}. Programs: {}.",
            p.name,
            p.how,
            p.rule.trim_end_matches('.')
        );
        for (o, why) in &p.left_out {
            let _ = writeln!(s, "  - left out `{o}`: {why}");
        }
    }
    if !failures.is_empty() {
        let _ = writeln!(s, "\nFailed:\n");
        for f in failures {
            let _ = writeln!(s, "- {f}");
        }
    }
    s
}

/// The row of project `p` in the projects table.
fn project_row(s: &mut String, p: &ProjectResult) {
    let (c, t) = p
        .targets
        .iter()
        .fold((0, 0), |(c, t), x| (c + x.lines.0, t + x.lines.1));
    let kept: u64 = p.targets.iter().map(|x| x.tests_kept).sum();
    let differs: u64 = p.targets.iter().map(|x| x.replay_differs).sum();
    let bugs: usize = p.targets.iter().map(|x| x.bugs.len()).sum();
    let unsupported: Option<u64> = p.targets.iter().map(|x| x.unsupported).sum();
    let _ = writeln!(
        s,
        "| {} {} | {:.0} s | {} | {:.0} s | {}/{} | {}/{} | {} | {} | {} | {} | {} | {} ({}/{}) | {}/{} | {} |",
        p.name,
        p.version,
        p.configure_s,
        p.plain_build_s.map_or("-".into(), |b| format!("{b:.0} s")),
        p.capture_s,
        p.compiles_with_bitcode,
        p.compiles,
        p.outputs_with_bitcode,
        p.outputs,
        dropped(&p.dropped_flags),
        if p.programs.is_empty() {
            "none".to_string()
        } else {
            p.programs.join(", ")
        },
        p.left_out.len(),
        unsupported.map_or("?".into(), |u| u.to_string()),
        p.targets.len(),
        pct(c, t),
        c,
        t,
        kept - differs.min(kept),
        kept,
        bugs
    );
}

/// The row of target `t` of project `p` in the per-target table.
fn target_row(s: &mut String, p: &ProjectResult, t: &TargetResult, o: &Options) {
    let _ = writeln!(
        s,
        "| {} | {}{} | {} | `{}` | {} | {} | {}/{} | {} | {} | {} ({}/{}) | {} | {} |",
        p.name,
        t.name,
        if t.budget_s == o.budget_s {
            String::new()
        } else {
            format!(
                " ({} s: loading alone took the {} s)",
                t.budget_s, o.budget_s
            )
        },
        t.kind,
        t.artifact,
        t.status,
        t.paths,
        t.tests_kept,
        t.tests_written,
        t.replay_differs,
        t.unconfirmed,
        pct(t.lines.0, t.lines.1),
        t.lines.0,
        t.lines.1,
        t.unsupported.map_or("?".into(), |u| u.to_string()),
        if t.bugs.is_empty() {
            "-".into()
        } else {
            t.bugs.join("; ")
        }
    );
}

pub fn write(
    work: &Path,
    results: &[ProjectResult],
    failures: &[String],
    o: &Options,
    total_s: f64,
) -> Result<()> {
    let md = markdown(results, failures, o, total_s);
    std::fs::write(work.join("projects.md"), &md)?;
    std::fs::write(
        work.join("projects.json"),
        serde_json::to_string_pretty(&serde_json::json!({
            "budget_s": o.budget_s,
            "total_s": total_s,
            "projects": results,
            "failures": failures,
        }))?,
    )?;
    println!("{md}");
    eprintln!(
        "bench projects: report in {}",
        work.join("projects.md").display()
    );
    Ok(())
}

/// A number of seconds, or "-".
fn secs(s: Option<f64>) -> String {
    s.map_or("-".into(), |s| format!("{s:.0} s"))
}

/// The engine's panics and crashes on a row's targets.
fn panics_crashes(r: &Row) -> (usize, usize) {
    (
        r.project.targets.iter().filter(|t| t.panic).count(),
        r.project
            .targets
            .iter()
            .filter(|t| t.crash.is_some())
            .count(),
    )
}

/// The row's outcome as the table shows it.
fn outcome(r: &Row) -> String {
    match r.outcome.as_str() {
        "ok" => "ok".into(),
        "timed out" => format!("timed out at {} after {:.0} s", r.step, r.wall_s),
        "library only" => format!(
            "library only: {}",
            if r.project.libraries.is_empty() {
                "-".to_string()
            } else {
                r.project.libraries.join(", ")
            }
        ),
        _ => format!(
            "failed at {}: {}",
            r.step,
            r.reason
                .lines()
                .next()
                .unwrap_or("")
                .replace('|', "\\|")
                .chars()
                .take(200)
                .collect::<String>()
        ),
    }
}

/// Installed programs, listed programs and how many of those were installed.
fn installed_listed(r: &Row) -> (String, String) {
    let listed = r.project.programs.len();
    match &r.installed {
        Some(i) => {
            let matched = r.project.programs.iter().filter(|p| i.contains(p)).count();
            (
                i.len().to_string(),
                format!("{listed} ({matched} installed)"),
            )
        }
        None => ("-".into(), listed.to_string()),
    }
}

/// Complete modules of the targets run and, apart, of the listed libraries
/// the manifest has figures for: "complete/with figures", or "-".
fn complete_modules(r: &Row) -> String {
    let count = |with: &[bool]| format!("{}/{}", with.iter().filter(|c| **c).count(), with.len());
    let targets: Vec<bool> = r
        .project
        .targets
        .iter()
        .filter_map(|t| t.module.as_ref()?.complete)
        .collect();
    let libraries: Vec<bool> = r
        .project
        .library_modules
        .iter()
        .filter_map(|(_, c)| c.complete)
        .collect();
    match (targets.is_empty(), libraries.is_empty()) {
        (true, true) => "-".into(),
        (false, true) => count(&targets),
        (true, false) => format!("libraries {}", count(&libraries)),
        (false, false) => format!("{}, libraries {}", count(&targets), count(&libraries)),
    }
}

/// The suite figures of targets: (suites that ran and pass but for tests
/// documenting bugs, suites that ran, tests passed, tests failed, failed
/// tests documenting a bug still present, suites that did not run).
pub fn suite_totals<'t>(targets: impl Iterator<Item = &'t TargetResult>) -> [u64; 6] {
    let mut s = [0u64; 6];
    for t in targets {
        match (t.suite_passed, t.suite_failed) {
            (Some(p), Some(f)) => {
                s[0] += t.suite_passes() as u64;
                s[1] += 1;
                s[2] += p;
                s[3] += f;
                s[4] += t.suite_bugs.unwrap_or(0);
            }
            _ => s[5] += 1,
        }
    }
    s
}

/// A row's or a target's suites in a cell: "passed/failed (bugs)", with
/// those that did not run.
fn suite_cell(s: [u64; 6]) -> String {
    if s[1] == 0 && s[5] == 0 {
        return "-".into();
    }
    let mut c = if s[1] == 0 {
        String::new()
    } else {
        format!(
            "{}/{}{}",
            s[2],
            s[3],
            if s[4] > 0 {
                format!(" ({} bug)", s[4])
            } else {
                String::new()
            }
        )
    };
    if s[5] > 0 {
        if !c.is_empty() {
            c.push_str(", ");
        }
        let _ = write!(c, "{} not run", s[5]);
    }
    c
}

/// The corpus report: the summary line, one row per package (every member
/// of the corpus: those without a result as "not run"), one per target.
pub fn corpus_markdown(
    members: &[Member],
    rows: &[Option<Row>],
    o: &Options,
    total_s: f64,
) -> String {
    let mut s = String::new();
    let present: Vec<&Row> = rows.iter().flatten().collect();
    corpus_summary(&mut s, members, &present, o, total_s);
    let _ = writeln!(
        s,
        "| rank | package | build | C lines | outcome | build-deps | configure | capture | \
         installed programs | listed (installed) | complete modules | targets | paths | kept \
         tests | replay differs / native disagreements | lines | bugs (+not reproduced) | \
         suite tests passed/failed | panics | crashes |"
    );
    let _ = writeln!(
        s,
        "|---:|---|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for (m, r) in members.iter().zip(rows) {
        package_row(&mut s, m, r.as_ref());
    }
    let _ = writeln!(s, "\nPer target:\n");
    let _ = writeln!(
        s,
        "| package | target | kind | status | module functions (module/native, missing) | \
         main from | paths | tests kept/written | replay differs | native disagreements | \
         lines | bugs | suite tests passed/failed | suite's first failure (not a bug) or why it \
         did not run | panic, crash or failure |"
    );
    let _ = writeln!(
        s,
        "|---|---|---|---|---|---|---:|---:|---:|---:|---:|---|---:|---|---|"
    );
    for r in &present {
        for t in &r.project.targets {
            corpus_target_row(&mut s, r, t, o);
        }
    }
    let _ = writeln!(
        s,
        "\nHow each was built, what it installed and what failed:\n"
    );
    for r in &present {
        build_note(&mut s, r);
    }
    s
}

/// The summary line of the corpus report.
fn corpus_summary(s: &mut String, members: &[Member], present: &[&Row], o: &Options, total_s: f64) {
    let ok = present.iter().filter(|r| r.ok()).count();
    let timed = present.iter().filter(|r| r.outcome == "timed out").count();
    let library_only = present
        .iter()
        .filter(|r| r.outcome == "library only")
        .count();
    let (failed, failed_note) = failed_at(present);
    let targets: Vec<&TargetResult> = present
        .iter()
        .flat_map(|r| r.project.targets.iter())
        .collect();
    let listed: usize = present.iter().map(|r| r.project.programs.len()).sum();
    let installed: usize = present
        .iter()
        .filter_map(|r| r.installed.as_ref().map(Vec::len))
        .sum();
    let (panics, crashes) = present
        .iter()
        .map(|r| panics_crashes(r))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let kept: u64 = targets.iter().map(|t| t.tests_kept).sum();
    let differs: u64 = targets.iter().map(|t| t.replay_differs).sum();
    let disagreements: u64 = targets.iter().map(|t| t.native_disagreements).sum();
    let bugs: usize = targets.iter().map(|t| t.bugs.len()).sum();
    let unconfirmed: u64 = targets.iter().map(|t| t.unconfirmed).sum();
    let (lc, lt) = targets
        .iter()
        .fold((0, 0), |(c, t), x| (c + x.lines.0, t + x.lines.1));
    let suites = suite_totals(targets.iter().copied());
    let library_modules: Vec<bool> = present
        .iter()
        .flat_map(|r| r.project.library_modules.iter())
        .filter_map(|(_, c)| c.complete)
        .collect();
    let _ = writeln!(
        s,
        "**Summary**: {} packages ({} sampled by tests/bench/corpus/RULE.md, {} fixed), {} with \
         a result: {ok} ran end to end, {library_only} library only (capture worked, libraries \
         listed, no program), {} failed{}, {timed} timed out; {} programs listed \
         ({installed} installed by the packages' own installs), {} targets run, {kept} kept \
         tests, {differs} kept tests whose native replay differs, {disagreements} native \
         disagreements over all tests written, lines {} ({lc}/{lt}), {bugs} bugs \
         confirmed natively (+{unconfirmed} not reproduced); **{panics} panics, {crashes} engine \
         crashes**. **Emitted suites (`make test` on the unmodified program): {} of {} targets' \
         suites pass** ({} of those that ran; a test that documents a bug still present fails \
         by design and is not counted against its suite), {} tests passed, {} failed ({} of \
         them documenting a bug), {} suites did not run. Library modules complete: {} of {} \
         listed libraries with figures. `cargo xtask bench projects --corpus`, {} s per \
         program, {:.0} s per package at most; this invocation {:.0} s.\n",
        members.len(),
        members.iter().filter(|m| !m.hand).count(),
        members.iter().filter(|m| m.hand).count(),
        present.len(),
        failed,
        failed_note,
        listed,
        targets.len(),
        pct(lc, lt),
        suites[0],
        targets.len(),
        suites[1],
        suites[2],
        suites[3],
        suites[4],
        suites[5],
        library_modules.iter().filter(|c| **c).count(),
        library_modules.len(),
        o.budget_s,
        o.package_timeout_s,
        total_s
    );
}

/// How many rows failed, and the steps they failed at (" (step n, ...)",
/// or empty).
fn failed_at(present: &[&Row]) -> (usize, String) {
    let mut failed_at: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in present.iter().filter(|r| r.outcome == "failed") {
        *failed_at.entry(r.step.as_str()).or_default() += 1;
    }
    let note = if failed_at.is_empty() {
        String::new()
    } else {
        format!(
            " ({})",
            failed_at
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    (failed_at.values().sum::<usize>(), note)
}

/// The row of corpus member `m` (with its result `r`, if any) in the
/// packages table.
fn package_row(s: &mut String, m: &Member, r: Option<&Row>) {
    let name = format!(
        "{} {}{}",
        m.name,
        m.version,
        if m.hand {
            " (fixed)"
        } else if m.reserve {
            " (reserve)"
        } else {
            ""
        }
    );
    let Some(r) = r else {
        let _ = writeln!(
            s,
            "| {} | {name} | {} | {} | not run yet | | | | | | | | | | | | | | | |",
            m.rank, m.build_system, m.c_lines
        );
        return;
    };
    let t = &r.project.targets;
    let (c, tl) = t
        .iter()
        .fold((0, 0), |(c, tl), x| (c + x.lines.0, tl + x.lines.1));
    let (inst, list) = installed_listed(r);
    let (pn, cr) = panics_crashes(r);
    let ran = r.project.capture_s > 0.0;
    let _ = writeln!(
        s,
        "| {} | {name} | {} | {} | {} | {} | {} | {} | {inst} | {list} | {} | {} | {} | {} | {} / {} | {} | {} (+{}) | {} | {pn} | {cr} |",
        m.rank,
        m.build_system,
        m.c_lines,
        outcome(r),
        match (r.deps_installed, r.deps_s) {
            (Some(n), Some(d)) => format!("{n} ({d:.0} s)"),
            (None, Some(d)) => format!("failed ({d:.0} s)"),
            _ => "-".into(),
        },
        if ran { secs(Some(r.project.configure_s)) } else { "-".into() },
        if ran { secs(Some(r.project.capture_s)) } else { "-".into() },
        complete_modules(r),
        t.len(),
        t.iter().map(|x| x.paths).sum::<u64>(),
        t.iter().map(|x| x.tests_kept).sum::<u64>(),
        t.iter().map(|x| x.replay_differs).sum::<u64>(),
        t.iter().map(|x| x.native_disagreements).sum::<u64>(),
        if tl == 0 {
            "-".to_string()
        } else {
            format!("{} ({c}/{tl})", pct(c, tl))
        },
        t.iter().map(|x| x.bugs.len()).sum::<usize>(),
        t.iter().map(|x| x.unconfirmed).sum::<u64>(),
        suite_cell(suite_totals(t.iter())),
    );
}

/// The row of target `t` of row `r` in the corpus's per-target table.
fn corpus_target_row(s: &mut String, r: &Row, t: &TargetResult, o: &Options) {
    let module = module_cell(t);
    let _ = writeln!(
        s,
        "| {} | {}{} | {} | {} | {module} | {} | {} | {}/{} | {} | {} | {} ({}/{}) | {} | {} | {} | {} |",
        r.package,
        t.name,
        if t.budget_s == o.budget_s {
            String::new()
        } else {
            format!(" ({} s)", t.budget_s)
        },
        t.kind,
        t.status,
        t.module
            .as_ref()
            .and_then(|m| m.main_from.clone())
            .map_or("-".into(), |m| format!("`{m}`")),
        t.paths,
        t.tests_kept,
        t.tests_written,
        t.replay_differs,
        t.native_disagreements,
        pct(t.lines.0, t.lines.1),
        t.lines.0,
        t.lines.1,
        if t.bugs.is_empty() {
            "-".into()
        } else {
            t.bugs.join("; ")
        },
        suite_cell(suite_totals(std::iter::once(t))),
        t.suite_note.as_deref().map_or("-".to_string(), |n| n
            .replace('|', "\\|")
            .chars()
            .take(200)
            .collect()),
        if t.panic {
            format!("panic: {}", t.message.as_deref().unwrap_or(""))
        } else if let Some(c) = &t.crash {
            format!("crash: {c}")
        } else if let Some(m) = t.message.as_ref().filter(|_| t.status != "ok") {
            m.replace('|', "\\|").chars().take(300).collect()
        } else {
            "-".into()
        }
    );
}

/// A target's module functions cell: "module/native", then whether the
/// module is complete or which functions it misses.
fn module_cell(t: &TargetResult) -> String {
    t.module.as_ref().map_or("-".to_string(), |m| {
        format!(
            "{}/{}{}{}",
            m.module_functions.map_or("-".into(), |n| n.to_string()),
            m.native_functions.map_or("-".into(), |n| n.to_string()),
            match m.complete {
                Some(true) => ", complete".to_string(),
                Some(false) => format!(
                    ", {} missing{}",
                    m.missing.len(),
                    m.missing
                        .first()
                        .map(|f| format!(": {f}{}", if m.missing.len() > 1 { ", ..." } else { "" }))
                        .unwrap_or_default()
                ),
                None => String::new(),
            },
            ""
        )
    })
}

/// How row `r`'s package was built, what it installed and, if it did not
/// run end to end, why.
fn build_note(s: &mut String, r: &Row) {
    let _ = writeln!(
        s,
        "- **{}** ({}): {}. Programs: {}. Installed: {}{}.",
        r.package,
        r.build_system,
        r.project.how.trim_end_matches('.'),
        if r.project.rule.is_empty() {
            "-".to_string()
        } else {
            r.project.rule.trim_end_matches('.').to_string()
        },
        r.install_note,
        r.installed
            .as_ref()
            .map(|i| {
                let not_listed: Vec<&String> = i
                    .iter()
                    .filter(|p| !r.project.programs.contains(p))
                    .collect();
                if not_listed.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (installed, not listed: {})",
                        not_listed
                            .iter()
                            .map(|p| p.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            })
            .unwrap_or_default()
    );
    if !r.ok() {
        for l in r.reason.lines() {
            let _ = writeln!(s, "  > {l}");
        }
    }
}

/// Writes `projects.md` and `projects.json` of a corpus run.
pub fn write_corpus(
    work: &Path,
    members: &[Member],
    rows: &[Option<Row>],
    o: &Options,
    total_s: f64,
) -> Result<()> {
    let md = corpus_markdown(members, rows, o, total_s);
    std::fs::write(work.join("projects.md"), &md)?;
    std::fs::write(
        work.join("projects.json"),
        serde_json::to_string_pretty(&serde_json::json!({
            "budget_s": o.budget_s,
            "package_timeout_s": o.package_timeout_s,
            "total_s": total_s,
            "members": members,
            "rows": rows,
        }))?,
    )?;
    println!("{md}");
    eprintln!(
        "bench projects --corpus: report in {}",
        work.join("projects.md").display()
    );
    Ok(())
}
