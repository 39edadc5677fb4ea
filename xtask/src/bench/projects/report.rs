//! `projects.md` and `projects.json` of `cargo xtask bench projects`.

use super::{Options, ProjectResult};
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
