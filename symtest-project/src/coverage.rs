//! Coverage of the kept tests, measured natively by gcov: `.gcov` files, a line and
//! branch summary per file and target, gcovr HTML when gcovr is installed, and the
//! comparison with the lines the engine claims it executed (a claimed line gcov did
//! not see is a soundness warning).

use crate::discovery::Target;
use crate::fsutil::relative;
use crate::native::{self, NativeBuild};
use anyhow::{Context, Result};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct CoverageSummary {
    /// (covered, total) over the target's sources.
    pub lines: (u64, u64),
    pub branches: (u64, u64),
    /// Lines of the target's sources the engine claims.
    pub engine_lines: u64,
    pub warnings: Vec<String>,
    /// Why gcovr wrote no HTML report, when it is installed and failed.
    pub html_error: Option<String>,
}

/// The engine's claim (`coverage.json`) for one source file.
fn claimed(claim: &serde_json::Value, root: &Path, src: &Path) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    let Some(files) = claim.get("lines").and_then(|l| l.as_object()) else {
        return out;
    };
    for (f, lines) in files {
        let p = PathBuf::from(f);
        let p = if p.is_absolute() { p } else { root.join(p) };
        let same = p == src || p.canonicalize().ok().as_deref() == Some(src);
        if same {
            out.extend(
                lines
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_u64())
                    .map(|v| v as u32),
            );
        }
    }
    out
}

/// Writes `dir` (`*.gcov`, `summary.json`, `summary.txt`, `html/`) for the run just made.
pub fn report(
    t: &Target,
    root: &Path,
    nb: &NativeBuild,
    claim: &serde_json::Value,
    dir: &Path,
) -> Result<CoverageSummary> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let files = nb.gcov().map_err(anyhow::Error::msg)?;
    let (mut lc, mut lt, mut bc, mut bt, mut claimed_total) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut warnings = Vec::new();
    let mut rows = Vec::new();
    let mut text = String::new();
    for (src, gcov_text, fc) in &files {
        let rel = relative(src, root).display().to_string();
        let gcov_name = format!("{}.gcov", rel.replace('/', "#"));
        std::fs::write(dir.join(&gcov_name), gcov_text)
            .with_context(|| format!("writing {gcov_name}"))?;
        let covered = fc.covered_lines();
        let (c, n) = (covered.len() as u64, fc.lines.len() as u64);
        let (b, m) = (fc.taken_branches().len() as u64, fc.branches.len() as u64);
        lc += c;
        lt += n;
        bc += b;
        bt += m;
        let engine = claimed(claim, &t.root, src);
        claimed_total += engine.len() as u64;
        let unsound: Vec<u32> = engine.difference(&covered).copied().collect();
        if !unsound.is_empty() {
            warnings.push(format!(
                "{rel}: the engine claims lines {unsound:?} that the native run of the kept tests did not execute"
            ));
        }
        // LLVM puts a function's prologue on its header line and the epilogue on the
        // closing brace; the engine counts statements, so those lines are left out.
        let source = std::fs::read_to_string(src).unwrap_or_default();
        let source: Vec<&str> = source.lines().collect();
        let gcov_only: Vec<u32> = covered
            .difference(&engine)
            .copied()
            .filter(|l| {
                source
                    .get(*l as usize - 1)
                    .is_none_or(|text| is_statement_line(text))
            })
            .collect();
        rows.push(serde_json::json!({
            "file": rel,
            "lines_covered": c, "lines_total": n,
            "branches_covered": b, "branches_total": m,
            "engine_claimed_lines": engine.len(),
            "claimed_not_executed": unsound,
            "executed_not_claimed": gcov_only,
        }));
        let _ = writeln!(
            text,
            "{rel}: lines {c}/{n}, branches {b}/{m}, engine claims {} lines",
            engine.len()
        );
    }
    let _ = writeln!(text, "total: lines {lc}/{lt}, branches {bc}/{bt}");
    let summary = serde_json::json!({
        "target": t.name,
        "lines_covered": lc, "lines_total": lt,
        "branches_covered": bc, "branches_total": bt,
        "engine_claimed_lines": claimed_total,
        "soundness_warnings": warnings,
        "files": rows,
    });
    std::fs::write(
        dir.join("summary.json"),
        serde_json::to_string_pretty(&summary)?,
    )?;
    std::fs::write(dir.join("summary.txt"), text)?;
    let html_error = gcovr_html(nb, &t.root, &dir.join("html"));
    Ok(CoverageSummary {
        html_error,
        lines: (lc, lt),
        branches: (bc, bt),
        engine_lines: claimed_total,
        warnings,
    })
}

/// gcovr HTML, when gcovr is installed (best effort: a missing gcovr is not an
/// error; a gcovr that fails is retried once, then its error is returned).
fn gcovr_html(nb: &NativeBuild, root: &Path, dir: &Path) -> Option<String> {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Some(format!("cannot create {}: {e}", dir.display()));
    }
    let run = || {
        Command::new("gcovr")
            .arg("--gcov-executable")
            .arg(native::gcov_command())
            .arg("-r")
            .arg(root)
            .arg("--html-details")
            .arg("-o")
            .arg(dir.join("index.html"))
            .arg(nb.dir.join("obj"))
            .current_dir(&nb.dir)
            .output()
    };
    let mut last = String::new();
    for _ in 0..2 {
        match run() {
            // Not installed: no HTML, and nothing to say.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => last = e.to_string(),
            Ok(o) if o.status.success() && dir.join("index.html").is_file() => return None,
            Ok(o) => {
                last = format!(
                    "{}: {}",
                    o.status,
                    String::from_utf8_lossy(&o.stderr)
                        .lines()
                        .last()
                        .unwrap_or("")
                )
            }
        }
    }
    Some(format!(
        "gcovr could not write the HTML coverage report ({last})"
    ))
}

/// False for a line holding only a closing brace or a function header.
pub fn is_statement_line(text: &str) -> bool {
    let t = text.trim();
    let header = t.ends_with('{')
        && t.contains('(')
        && !t.contains(';')
        && !t.starts_with("if")
        && !t.starts_with("for")
        && !t.starts_with("while")
        && !t.starts_with("switch")
        && !t.starts_with("} else");
    !(t == "}" || t == "};" || header)
}
