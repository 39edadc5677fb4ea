//! Coverage of the kept tests, measured natively ([`crate::covdata`]): per file
//! a `.gcov` text, `lcov.info`, a line and branch summary per file and target,
//! llvm-cov's HTML report, and the comparison with the lines the engine claims
//! it executed (a claimed line the native runs did
//! not see is a soundness warning).

use crate::discovery::Target;
use crate::fsutil::relative;
use crate::native::NativeBuild;
use crate::testcases::EngineTest;
use anyhow::{Context, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct CoverageSummary {
    /// (covered, total) over the target's sources.
    pub lines: (u64, u64),
    pub branches: (u64, u64),
    /// Lines of the target's sources the engine claims.
    pub engine_lines: u64,
    /// Of those, the lines the native run of the kept tests did not execute.
    pub claimed_not_executed: u64,
    pub warnings: Vec<String>,
    /// Why gcovr wrote no HTML report, when it is installed and failed.
    pub html_error: Option<String>,
    /// Uncovered lines and branch sides per reason (`why.json`).
    pub why: crate::why::Counts,
    /// (covered, total) over the lines that survive whole-program
    /// optimization ([`crate::eloc`]); `None` when that analysis failed.
    pub eloc_lines: Option<(u64, u64)>,
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

/// The engine's tests and what their native runs did: where a claimed line
/// that no kept test executed natively came from.
pub struct ClaimSources<'a> {
    pub tests: &'a [EngineTest],
    /// The runner's verdict on each test in the coverage run.
    pub verdicts: &'a [Option<String>],
}

impl ClaimSources<'_> {
    /// Why `line` of `src`, claimed by the engine, was executed by no kept
    /// test natively: the tests whose paths executed it first in the engine
    /// (their native runs took another path), or none (the path that executed
    /// it ended without a test).
    pub(crate) fn cause(&self, root: &Path, src: &Path, line: u32) -> String {
        let mut by = Vec::new();
        for (i, t) in self.tests.iter().enumerate() {
            let has = t
                .first_lines
                .iter()
                .any(|(f, lines)| same_file(root, f, src) && lines.binary_search(&line).is_ok());
            if has {
                by.push(format!(
                    "{} (native verdict: {})",
                    t.name,
                    self.verdicts
                        .get(i)
                        .and_then(|v| v.as_deref())
                        .unwrap_or("none")
                ));
            }
        }
        if by.is_empty() {
            "no test: the path that first executed it ended without one (dropped, or cut at the deadline)".into()
        } else {
            format!(
                "replay divergence: first executed in the engine by {}, whose native run took another path",
                by.join(", ")
            )
        }
    }
}

fn same_file(root: &Path, engine_name: &str, src: &Path) -> bool {
    let p = PathBuf::from(engine_name);
    let p = if p.is_absolute() { p } else { root.join(p) };
    p == src || p.canonicalize().ok().as_deref() == Some(src)
}

/// Writes `dir` (`*.gcov`, `lcov.info`, `summary.json`, `summary.txt`,
/// `html/`) for the `kept` tests, from their profiles of the coverage run;
/// `bitcode` is the target's module, for the lines whole-program
/// optimization removes ([`crate::eloc`]).
#[allow(clippy::too_many_arguments)]
pub fn report(
    t: &Target,
    root: &Path,
    nb: &NativeBuild,
    bitcode: &Path,
    kept: &[&str],
    claim: &serde_json::Value,
    sources: &ClaimSources,
    dir: &Path,
) -> Result<CoverageSummary> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let (files, profile) = nb.coverage_of(kept).map_err(anyhow::Error::msg)?;
    let dead = crate::eloc::dead_functions(bitcode, &crate::eloc::entry_of(t), &dir.join(".eloc"));
    let _ = std::fs::remove_dir_all(dir.join(".eloc"));
    // A library target's generated harness is not code under test.
    let generated = t.library.as_ref().and_then(|l| l.generated.as_deref());
    let mut acc = Totals::default();
    let cx = FileContext {
        t,
        root,
        nb,
        dead: &dead,
        claim,
        sources,
        dir,
    };
    for (src, fc) in files.iter().filter(|(s, _)| Some(s.as_path()) != generated) {
        acc.add_file(&cx, src, fc)?;
    }
    let Totals {
        lcov,
        lc,
        lt,
        bc,
        bt,
        ec,
        et,
        claimed_total,
        not_executed,
        warnings,
        rows,
        mut text,
        dead_by_file,
    } = acc;
    let _ = writeln!(text, "total: lines {lc}/{lt}, branches {bc}/{bt}");
    let eloc_lines = dead.as_ref().ok().map(|_| (ec, et));
    match &eloc_lines {
        Some((c, n)) => {
            let _ = writeln!(
                text,
                "lines in the final executable after global optimization (the KLEE paper's ELOC): {c}/{n}"
            );
        }
        None => {
            let _ = writeln!(
                text,
                "lines after global optimization: not measured ({})",
                dead.as_ref().err().map_or("", String::as_str)
            );
        }
    }
    let summary = serde_json::json!({
        "target": t.name,
        "lines_covered": lc, "lines_total": lt,
        "branches_covered": bc, "branches_total": bt,
        "engine_claimed_lines": claimed_total,
        "eloc_lines_covered": eloc_lines.map(|x| x.0),
        "eloc_lines_total": eloc_lines.map(|x| x.1),
        "eloc_error": dead.as_ref().err(),
        "soundness_warnings": warnings,
        "files": rows,
    });
    std::fs::write(
        dir.join("summary.json"),
        serde_json::to_string_pretty(&summary)?,
    )?;
    std::fs::write(dir.join("summary.txt"), text)?;
    std::fs::write(dir.join("lcov.info"), lcov)?;
    let why = crate::why::classify(
        &t.name,
        &t.root,
        root,
        &files,
        claim,
        sources,
        &dead_by_file,
    );
    crate::why::write(dir, &why)?;
    let html_error = html(nb, &profile, &files, &dir.join("html"));
    Ok(CoverageSummary {
        why: why.counts,
        html_error,
        lines: (lc, lt),
        branches: (bc, bt),
        engine_lines: claimed_total,
        claimed_not_executed: not_executed,
        warnings,
        eloc_lines,
    })
}

/// What [`report`] gathers over the files.
#[derive(Default)]
struct Totals {
    /// The lcov tracefile.
    lcov: String,
    /// Lines covered and in all.
    lc: u64,
    lt: u64,
    /// Branch sides taken and in all.
    bc: u64,
    bt: u64,
    /// Lines covered and in all after whole-program optimization.
    ec: u64,
    et: u64,
    /// Lines the engine claims.
    claimed_total: u64,
    /// Lines the engine claims that no kept test executed natively.
    not_executed: u64,
    warnings: Vec<String>,
    /// Per file, for `summary.json`.
    rows: Vec<serde_json::Value>,
    /// `summary.txt`.
    text: String,
    /// Per file, the lines whole-program optimization removes, with their
    /// function.
    dead_by_file: BTreeMap<PathBuf, BTreeMap<u32, String>>,
}

/// What [`Totals::add_file`] reads besides the file.
#[derive(Clone, Copy)]
struct FileContext<'a> {
    t: &'a Target,
    root: &'a Path,
    nb: &'a NativeBuild,
    /// The functions whole-program optimization removes, or why they are
    /// not known.
    dead: &'a std::result::Result<BTreeSet<String>, String>,
    /// The engine's claim (`coverage.json`).
    claim: &'a serde_json::Value,
    sources: &'a ClaimSources<'a>,
    /// The report's directory.
    dir: &'a Path,
}

impl Totals {
    /// Writes source `src`'s `.gcov` file into the report's directory and
    /// adds its figures (`fc`: its native coverage).
    fn add_file(
        &mut self,
        cx: &FileContext,
        src: &Path,
        fc: &crate::covdata::FileCoverage,
    ) -> Result<()> {
        let FileContext {
            t,
            root,
            nb,
            dead,
            claim,
            sources,
            dir,
        } = *cx;
        let rel = relative(src, root).display().to_string();
        let gcov_name = format!("{}.gcov", rel.replace('/', "#"));
        let source_text = std::fs::read_to_string(src).unwrap_or_default();
        std::fs::write(dir.join(&gcov_name), fc.gcov_text(&rel, &source_text))
            .with_context(|| format!("writing {gcov_name}"))?;
        self.lcov.push_str(&lcov_record(src, fc));
        let covered = fc.covered_lines();
        let (c, n) = (covered.len() as u64, fc.lines.len() as u64);
        let (b, m) = (fc.taken_branches().len() as u64, fc.branches.len() as u64);
        self.lc += c;
        self.lt += n;
        self.bc += b;
        self.bt += m;
        let dead_here = match (dead, nb.function_starts_of(src)) {
            (Ok(d), Some(starts)) => crate::eloc::dead_lines(fc, starts, d),
            _ => BTreeMap::new(),
        };
        let dead_functions: BTreeSet<&str> = dead_here.values().map(String::as_str).collect();
        // Dead lines are never covered: the covered ones all count.
        let eloc_n = n - dead_here.len() as u64;
        self.ec += c;
        self.et += eloc_n;
        let engine = claimed(claim, &t.root, src);
        self.claimed_total += engine.len() as u64;
        let unsound: Vec<u32> = engine.difference(&covered).copied().collect();
        self.not_executed += unsound.len() as u64;
        let causes: Vec<serde_json::Value> = unsound
            .iter()
            .map(|&l| serde_json::json!({"line": l, "cause": sources.cause(&t.root, src, l)}))
            .collect();
        for c in &causes {
            self.warnings.push(format!(
                "{rel}:{}: the engine claims this line and no kept test executed it natively: {}",
                c["line"],
                c["cause"].as_str().unwrap_or("")
            ));
        }
        // LLVM puts a function's prologue on its header line and the epilogue on the
        // closing brace; the engine counts statements, so those lines are left out.
        let source: Vec<&str> = source_text.lines().collect();
        let gcov_only: Vec<u32> = covered
            .difference(&engine)
            .copied()
            .filter(|l| {
                source
                    .get(*l as usize - 1)
                    .is_none_or(|text| is_statement_line(text))
            })
            .collect();
        self.rows.push(serde_json::json!({
            "file": rel,
            "lines_covered": c, "lines_total": n,
            "branches_covered": b, "branches_total": m,
            "engine_claimed_lines": engine.len(),
            "claimed_not_executed": unsound,
            "claimed_not_executed_causes": causes,
            "executed_not_claimed": gcov_only,
            "eloc_lines_total": eloc_n,
            "dead_lines": dead_here.len(),
            "dead_functions": dead_functions,
        }));
        let _ = writeln!(
            self.text,
            "{rel}: lines {c}/{n}, branches {b}/{m}, engine claims {} lines",
            engine.len()
        );
        if !dead_here.is_empty() {
            self.dead_by_file.insert(src.to_path_buf(), dead_here);
        }
        Ok(())
    }
}

/// One file's record of the lcov tracefile format (genhtml, editors, CI services).
fn lcov_record(src: &Path, fc: &crate::covdata::FileCoverage) -> String {
    let mut r = format!("SF:{}\n", src.display());
    for ((line, side), taken) in &fc.branches {
        let _ = writeln!(r, "BRDA:{line},0,{side},{taken}");
    }
    let _ = writeln!(
        r,
        "BRF:{}\nBRH:{}",
        fc.branches.len(),
        fc.taken_branches().len()
    );
    for (line, count) in &fc.lines {
        let _ = writeln!(r, "DA:{line},{count}");
    }
    let _ = writeln!(
        r,
        "LF:{}\nLH:{}\nend_of_record",
        fc.lines.len(),
        fc.covered_lines().len()
    );
    r
}

/// llvm-cov's HTML report of the target's sources (its error, if it fails:
/// the report is a convenience, the figures are in summary.json).
fn html(
    nb: &NativeBuild,
    profile: &Path,
    files: &[(PathBuf, crate::covdata::FileCoverage)],
    dir: &Path,
) -> Option<String> {
    if !profile.is_file() {
        return None;
    }
    let tool = std::env::var("SYMTEST_LLVM_COV")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "llvm-cov-19".into());
    let r = Command::new(&tool)
        .args(["show", "-format=html", "-show-branches=count"])
        .arg(format!("-instr-profile={}", profile.display()))
        .arg(format!("-output-dir={}", dir.display()))
        .arg(&nb.exe)
        .args(files.iter().map(|(s, _)| s))
        .output();
    match r {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(format!(
            "llvm-cov could not write the HTML coverage report ({}: {})",
            o.status,
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()
                .unwrap_or("")
        )),
        Err(e) => Some(format!(
            "cannot run {tool} for the HTML coverage report: {e}"
        )),
    }
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
