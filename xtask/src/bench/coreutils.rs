//! `cargo xtask bench coreutils [--quick] [--budget S] [--only a,b] [--out DIR]`:
//! GNU coreutils 9.1 (Debian's source package) as the benchmark of real code
//! nobody here wrote, measured as the paper's §5.1.
//!
//! 1. The source is fetched once with `apt-get source coreutils` through a
//!    private sources list ([`crate::debsrc`]).
//! 2. It is configured for musl (`CC=musl-gcc`) and built twice: once through
//!    `cargo symtest capture` (bitcode of every utility, and the manifest naming
//!    each utility's objects and sources), once as a native `--coverage` build
//!    for gcov. Both builds are kept under the output directory and reused by
//!    later runs (`--rebuild` starts over); their times are reported.
//! 3. Each utility runs for the budget with the paper's options, then its tests
//!    are replayed on the coverage build by `cargo symtest replay --native
//!    --json` (verdicts: passed, mismatched, not compared) and gcov measures the
//!    lines and branches of the utility's own `src/` files.
//!
//! Not measured yet: the random-testing baseline (it needs the utilities built
//! with edge instrumentation and the random runner linked in) and a sanitizer
//! replay (musl has no ASan; crashes are classified by `replay --native`).

use super::gcov::{self, Coverage};
use crate::{debsrc, paths, setup, util};
use anyhow::{bail, Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The 30 utilities of the benchmark.
pub const UTILITIES: &[&str] = &[
    "echo", "cat", "head", "tail", "wc", "cut", "tr", "sort", "uniq", "paste", "fold", "expand",
    "unexpand", "nl", "od", "seq", "printf", "base64", "basename", "dirname", "join", "tsort",
    "comm", "pr", "fmt", "ptx", "sum", "cksum", "md5sum", "tac",
];
/// `--quick`: three utilities, 10 s each (part of the test suite).
pub const QUICK: &[&str] = &["echo", "basename", "dirname"];
pub const QUICK_BUDGET_S: f64 = 10.0;
pub const FULL_BUDGET_S: f64 = 60.0;
/// The paper's environment for COREUTILS (§5.1).
pub const PAPER_ARGS: &[&str] = &[
    "--sym-args",
    "0",
    "1",
    "10",
    "--sym-args",
    "0",
    "2",
    "2",
    "--sym-files",
    "1",
    "8",
    "--sym-stdin",
    "8",
    "--max-fail",
    "1",
];
const VERSION: &str = "9.1";
const CONFIGURE_FLAGS: &[&str] = &[
    "--disable-nls",
    "--without-selinux",
    "--without-openssl",
    "--disable-acl",
    "--disable-xattr",
    "--disable-libcap",
    "--disable-threads",
    "--disable-dependency-tracking",
];

pub struct Options {
    pub quick: bool,
    pub budget_s: Option<f64>,
    pub only: Vec<String>,
    pub out: Option<PathBuf>,
    pub rebuild: bool,
    /// The release engine (the CLI); the self-test uses the debug one the
    /// workspace's tests build anyway.
    pub release: bool,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options> {
        let mut o = Options {
            quick: false,
            budget_s: None,
            only: Vec::new(),
            out: None,
            rebuild: false,
            release: true,
        };
        let usage = |m: String| -> anyhow::Error {
            util::UsageError(format!(
                "{m}\nusage: cargo xtask bench coreutils [--quick] [--budget SECONDS] \
                 [--only a,b] [--out DIR] [--rebuild]"
            ))
            .into()
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--quick" => o.quick = true,
                "--rebuild" => o.rebuild = true,
                "--budget" => {
                    let v = it
                        .next()
                        .ok_or_else(|| usage("--budget needs SECONDS".into()))?;
                    let b: f64 = v
                        .parse()
                        .ok()
                        .filter(|b: &f64| b.is_finite() && *b > 0.0 && *b <= 86_400.0)
                        .ok_or_else(|| usage(format!("--budget: `{v}` is not 0 < S <= 86400")))?;
                    o.budget_s = Some(b);
                }
                "--only" => {
                    let v = it
                        .next()
                        .ok_or_else(|| usage("--only needs a list".into()))?;
                    for u in v.split(',').filter(|u| !u.is_empty()) {
                        if !UTILITIES.contains(&u) {
                            return Err(usage(format!(
                                "--only: `{u}` is not one of the benchmark's utilities ({})",
                                UTILITIES.join(" ")
                            )));
                        }
                        o.only.push(u.to_string());
                    }
                }
                "--out" => {
                    o.out = Some(PathBuf::from(
                        it.next().ok_or_else(|| usage("--out needs DIR".into()))?,
                    ))
                }
                other => return Err(usage(format!("unknown option `{other}`"))),
            }
        }
        Ok(o)
    }
}

/// One utility's figures.
pub struct UtilResult {
    pub name: String,
    pub sources: Vec<String>,
    pub lines_total: usize,
    pub lines_covered: usize,
    pub branches_total: usize,
    pub branches_taken: usize,
    pub tests: u64,
    pub passed: u64,
    pub mismatched: u64,
    pub not_compared: u64,
    pub crashes: u64,
    pub stats: serde_json::Value,
    pub warnings: Vec<String>,
}

fn run_in(dir: &Path, cmd: &mut Command, log: &Path) -> Result<f64> {
    let t = Instant::now();
    util::run_logged(cmd.current_dir(dir), log)?;
    Ok(t.elapsed().as_secs_f64())
}

/// A configured copy of the source in `dir` (timestamps preserved, so make
/// does not try to rerun autotools).
fn configure(src: &Path, dir: &Path, cflags: &str, log: &Path) -> Result<f64> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    util::run(Command::new("cp").arg("-a").arg(src).arg(dir))?;
    let mut c = Command::new("./configure");
    c.env("FORCE_UNSAFE_CONFIGURE", "1")
        .arg("CC=musl-gcc")
        .arg(format!("CFLAGS={cflags}"))
        .args(CONFIGURE_FLAGS);
    run_in(dir, &mut c, log).context("configuring coreutils for musl")
}

/// Both builds (reused when present): (capture dir, coverage tree, times).
fn builds(bin: &Path, work: &Path, rebuild: bool) -> Result<(PathBuf, PathBuf, serde_json::Value)> {
    let src = debsrc::fetch(
        "coreutils",
        "9.1-1",
        &format!("coreutils-{VERSION}"),
        "configure.ac",
    )?;
    let bc_tree = work.join("build-bitcode");
    let cov_tree = work.join("build-coverage");
    let capture = bc_tree.join("symtest-out/capture");
    let times_file = work.join("build-times.json");
    // Linked into the coverage build: gcov data written on crashes and on
    // `_exit` (gnulib's close_stdout), not only on a normal exit.
    let gcov_exit = work.join("gcov_crash.o");
    let done = capture.join("manifest.json").exists()
        && cov_tree.join("src/echo").exists()
        && times_file.exists()
        && gcov_exit.exists();
    if done && !rebuild {
        let times = serde_json::from_str(&std::fs::read_to_string(&times_file)?)?;
        return Ok((capture, cov_tree, times));
    }
    std::fs::create_dir_all(work)?;
    eprintln!("bench coreutils: configuring and capturing the bitcode build (make -j2)");
    let conf_bc = configure(
        &src,
        &bc_tree,
        "-g -O0",
        &work.join("configure-bitcode.log"),
    )?;
    let capture_s = run_in(
        &bc_tree,
        Command::new(bin).args(["capture", "--musl", "--", "make", "-j2"]),
        &work.join("capture.log"),
    )
    .context("cargo symtest capture -- make -j2")?;
    eprintln!("bench coreutils: the native coverage build (make -j2)");
    let conf_cov = configure(
        &src,
        &cov_tree,
        "-g -O0 --coverage",
        &work.join("configure-coverage.log"),
    )?;
    util::run(
        Command::new("musl-gcc")
            .args(["-O2", "-c"])
            .arg(crate::libc::models_dir().join("replay/gcov_crash.c"))
            .arg("-o")
            .arg(&gcov_exit),
    )
    .context("compiling libc-models/replay/gcov_crash.c")?;
    let plain_s = run_in(
        &cov_tree,
        Command::new("make")
            .arg("-j2")
            .arg(format!("LDFLAGS=--coverage {}", gcov_exit.display())),
        &work.join("build-coverage.log"),
    )
    .context("make -j2 of the coverage build")?;
    let times = json!({
        "configure_s": conf_bc.max(conf_cov),
        "capture_make_s": capture_s,
        "plain_make_s": plain_s,
    });
    std::fs::write(&times_file, serde_json::to_string_pretty(&times)?)?;
    Ok((capture, cov_tree, times))
}

/// The utility's own objects (under `src/`) and their sources, from the
/// capture manifest.
fn own_objects(manifest: &serde_json::Value, name: &str) -> Result<Vec<(String, String)>> {
    let out = manifest["outputs"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|o| o["output"] == format!("src/{name}"))
        .with_context(|| format!("the capture produced no src/{name}"))?;
    if out["bitcode"].is_null() {
        bail!("src/{name} has no bitcode (see the capture's warnings)");
    }
    let compiles = manifest["compiles"].as_array().cloned().unwrap_or_default();
    let mut v = Vec::new();
    for input in out["inputs"].as_array().into_iter().flatten() {
        let obj = input.as_str().unwrap_or("");
        if !obj.starts_with("src/") || !obj.ends_with(".o") {
            continue;
        }
        if let Some(c) = compiles.iter().find(|c| c["object"] == obj) {
            v.push((
                obj.to_string(),
                c["source"].as_str().unwrap_or("").to_string(),
            ));
        }
    }
    Ok(v)
}

/// gcov's view of `source` (relative to the tree) from `object`'s counters.
fn coverage_of(tree: &Path, object: &str, source: &str) -> Result<Coverage> {
    let obj = tree.join(object);
    let out = Command::new("gcov")
        .current_dir(tree)
        .args(["-b", "-c", "-t", "-o"])
        .arg(obj.parent().context("object directory")?)
        .arg(&obj)
        .output()
        .context("running gcov")?;
    let text = String::from_utf8_lossy(&out.stdout);
    // One section per file the object has code from; keep the source's.
    let mut section = String::new();
    let mut keep = false;
    for l in text.lines() {
        if let Some(s) = l.split(":Source:").nth(1) {
            keep = s
                .trim()
                .ends_with(source.rsplit('/').next().unwrap_or(source))
                && !s.trim().ends_with(".h");
        }
        if keep {
            section.push_str(l);
            section.push('\n');
        }
    }
    Ok(gcov::parse(&section))
}

fn clear_gcda(dir: &Path) -> Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.extension().is_some_and(|x| x == "gcda") {
            std::fs::remove_file(&p)?;
        }
    }
    Ok(())
}

fn run_utility(
    bin: &Path,
    capture: &Path,
    cov_tree: &Path,
    manifest: &serde_json::Value,
    name: &str,
    budget: f64,
    work: &Path,
) -> Result<UtilResult> {
    let objects = own_objects(manifest, name)?;
    let out = work.join("runs").join(name);
    if out.exists() {
        std::fs::remove_dir_all(&out)?;
    }
    std::fs::create_dir_all(out.parent().expect("has a parent"))?;
    let bc = capture.join("src").join(format!("{name}.bc"));
    let exec = Command::new(bin)
        .arg("exec")
        .arg(&bc)
        .arg("--output-dir")
        .arg(&out)
        .args(["--seed", "1", "--libc=musl", "--posix-runtime"])
        .arg("--max-time")
        .arg(budget.to_string())
        .arg("--")
        .args(PAPER_ARGS)
        .output()
        .context("running cargo-symtest exec")?;
    if !matches!(exec.status.code(), Some(0 | 1)) {
        bail!(
            "exec of {name} failed ({}): {}",
            exec.status,
            String::from_utf8_lossy(&exec.stderr)
        );
    }
    let warnings: Vec<String> = String::from_utf8_lossy(&exec.stderr)
        .lines()
        .filter(|l| l.contains("warning"))
        .map(str::to_string)
        .collect();
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json"))?)?;
    // Native replay on the coverage build; counters land next to the objects.
    let src_dir = cov_tree.join("src");
    clear_gcda(&src_dir)?;
    let replay = Command::new(bin)
        .arg("replay")
        .arg("--native")
        .arg(src_dir.join(name))
        .arg("--gcov-dir")
        .arg(&src_dir)
        .args(["--json", "--timeout", "10"])
        .arg(&out)
        .output()
        .context("running cargo-symtest replay --native")?;
    let mut summary = serde_json::Value::Null;
    let mut crashes = 0;
    for line in String::from_utf8_lossy(&replay.stdout).lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if !v["summary"].is_null() {
            summary = v["summary"].clone();
        } else if !v["signal"].is_null() {
            crashes += 1;
        }
    }
    if summary.is_null() {
        bail!(
            "replay --native of {name} printed no summary: {}",
            String::from_utf8_lossy(&replay.stderr)
        );
    }
    let mut total = Coverage::default();
    let mut r = UtilResult {
        name: name.to_string(),
        sources: objects.iter().map(|(_, s)| s.clone()).collect(),
        lines_total: 0,
        lines_covered: 0,
        branches_total: 0,
        branches_taken: 0,
        tests: stats["tests"].as_u64().unwrap_or(0),
        passed: summary["passed"].as_u64().unwrap_or(0),
        mismatched: summary["failed"].as_u64().unwrap_or(0),
        not_compared: summary["not_compared"].as_u64().unwrap_or(0),
        crashes,
        stats,
        warnings,
    };
    for (obj, src) in &objects {
        let c = coverage_of(cov_tree, obj, src)?;
        r.lines_total += c.lines.len();
        r.lines_covered += c.covered.len();
        r.branches_total += c.branches.len();
        r.branches_taken += c.taken.len();
        total.lines.extend(c.lines);
    }
    Ok(r)
}

/// Runs the benchmark; writes `coreutils.md` and `coreutils.json` into the
/// output directory and returns the results.
pub fn run(o: &Options) -> Result<Vec<UtilResult>> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let bin = super::engine_binary(o.release)?;
    let work = o
        .out
        .clone()
        .unwrap_or_else(|| super::target_dir(&root).join("bench").join("coreutils"));
    let (capture, cov_tree, times) = builds(&bin, &work, o.rebuild)?;
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(capture.join("manifest.json"))?)?;
    let list: Vec<&str> = if !o.only.is_empty() {
        o.only.iter().map(String::as_str).collect()
    } else if o.quick {
        QUICK.to_vec()
    } else {
        UTILITIES.to_vec()
    };
    let budget = o.budget_s.unwrap_or(if o.quick {
        QUICK_BUDGET_S
    } else {
        FULL_BUDGET_S
    });
    let started = Instant::now();
    let mut results = Vec::new();
    for name in &list {
        eprintln!("bench coreutils: {name} ({budget} s)");
        match run_utility(&bin, &capture, &cov_tree, &manifest, name, budget, &work) {
            Ok(r) => {
                eprintln!(
                    "bench coreutils: {name}: {:.1}% lines, {} tests ({} passed, {} mismatched, {} not compared)",
                    gcov::pct(r.lines_covered, r.lines_total),
                    r.tests,
                    r.passed,
                    r.mismatched,
                    r.not_compared
                );
                results.push(r);
            }
            Err(e) => eprintln!("bench coreutils: {name}: FAILED: {e:#}"),
        }
    }
    let command = format!(
        "cargo xtask bench coreutils{}{}{}",
        if o.quick { " --quick" } else { "" },
        o.budget_s
            .map(|b| format!(" --budget {b}"))
            .unwrap_or_default(),
        if o.only.is_empty() {
            String::new()
        } else {
            format!(" --only {}", o.only.join(","))
        }
    );
    write_report(
        &work,
        &results,
        &list,
        &times,
        &command,
        budget,
        started.elapsed().as_secs_f64(),
    )?;
    Ok(results)
}

fn write_report(
    work: &Path,
    results: &[UtilResult],
    asked: &[&str],
    times: &serde_json::Value,
    command: &str,
    budget: f64,
    elapsed: f64,
) -> Result<()> {
    let mut md = String::new();
    md.push_str(&format!(
        "GNU coreutils {VERSION} (Debian's source, built for musl through `cargo symtest capture`), \
         {budget} s per utility, `{}`; `{command}`, {:.0} s in all.\n\n",
        PAPER_ARGS.join(" "),
        elapsed
    ));
    md.push_str(&format!(
        "Builds (make -j2): capture {:.0} s, plain coverage build {:.0} s, configure {:.0} s.\n\n",
        times["capture_make_s"].as_f64().unwrap_or(0.0),
        times["plain_make_s"].as_f64().unwrap_or(0.0),
        times["configure_s"].as_f64().unwrap_or(0.0)
    ));
    md.push_str(
        "| utility | lines | line cov. | branch cov. | tests | replay ok / mismatch / not compared | crashes | instructions | states dropped | peak MB | solver share | engine-limit ends |\n\
         |---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|\n",
    );
    let (mut lt, mut lc, mut pcts) = (0usize, 0usize, Vec::new());
    for r in results {
        let lp = gcov::pct(r.lines_covered, r.lines_total);
        pcts.push(lp);
        lt += r.lines_total;
        lc += r.lines_covered;
        let s = &r.stats;
        let solver = s["solver_time_s"].as_f64().unwrap_or(0.0);
        let time = s["time_s"].as_f64().unwrap_or(0.0).max(1e-9);
        let limits = s["paths_ended_by_engine_limit"]
            .as_object()
            .filter(|m| !m.is_empty())
            .map_or_else(
                || "0".to_string(),
                |m| {
                    m.iter()
                        .map(|(k, v)| format!("{k} {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            );
        md.push_str(&format!(
            "| {} | {} | {:.1}% | {:.1}% | {} | {} / {} / {} | {} | {} | {} | {:.0} | {:.0}% | {limits} |\n",
            r.name,
            r.lines_total,
            lp,
            gcov::pct(r.branches_taken, r.branches_total),
            r.tests,
            r.passed,
            r.mismatched,
            r.not_compared,
            r.crashes,
            s["instructions"].as_u64().unwrap_or(0),
            s["states_dropped"].as_u64().unwrap_or(0),
            s["memory_peak_mb"].as_f64().unwrap_or(0.0),
            100.0 * solver / time
        ));
    }
    let mean = if pcts.is_empty() {
        0.0
    } else {
        pcts.iter().sum::<f64>() / pcts.len() as f64
    };
    md.push_str(&format!(
        "\n**Mean line coverage {mean:.1}%, overall {:.1}%** ({lc} of {lt} lines) over {} of {} utilities.\n",
        gcov::pct(lc, lt),
        results.len(),
        asked.len()
    ));
    let failed: Vec<&&str> = asked
        .iter()
        .filter(|a| !results.iter().any(|r| r.name == **a))
        .collect();
    if !failed.is_empty() {
        md.push_str(&format!(
            "\nNot measured (the run failed, see the log): {}\n",
            failed
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    md.push_str(
        "\nWarnings per utility (unmodelled calls, concretizations, unsupported constructs):\n\n",
    );
    for r in results {
        if !r.warnings.is_empty() {
            md.push_str(&format!("- {}: {}\n", r.name, r.warnings.join("; ")));
        }
    }
    std::fs::write(work.join("coreutils.md"), &md)?;
    let j: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            json!({
                "name": r.name, "sources": r.sources,
                "lines_total": r.lines_total, "lines_covered": r.lines_covered,
                "branches_total": r.branches_total, "branches_taken": r.branches_taken,
                "tests": r.tests, "replay": {"passed": r.passed, "mismatched": r.mismatched,
                "not_compared": r.not_compared, "crashes": r.crashes},
                "stats": r.stats, "warnings": r.warnings,
            })
        })
        .collect();
    std::fs::write(
        work.join("coreutils.json"),
        serde_json::to_string_pretty(&json!({
            "command": command, "budget_s": budget, "builds": times,
            "mean_line_pct": mean, "overall_line_pct": gcov::pct(lc, lt), "utilities": j,
        }))?,
    )?;
    println!("{md}");
    eprintln!(
        "bench coreutils: report in {}",
        work.join("coreutils.md").display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--quick` end to end: Debian's coreutils source fetched, configured for
    /// musl, captured and built for coverage, three utilities explored for a
    /// few seconds each, their tests replayed natively and measured by gcov.
    #[test]
    fn quick_coreutils_bench() {
        let out =
            super::super::target_dir(&paths::workspace_root()).join("bench-coreutils-selftest");
        let results = run(&Options {
            quick: true,
            budget_s: Some(5.0),
            only: Vec::new(),
            out: Some(out.clone()),
            rebuild: false,
            release: false,
        })
        .expect("the coreutils benchmark runs");
        assert_eq!(results.len(), QUICK.len(), "every quick utility measured");
        for r in &results {
            assert!(
                r.sources.iter().any(|s| s == &format!("src/{}.c", r.name)),
                "{}: own sources from the capture manifest: {:?}",
                r.name,
                r.sources
            );
            assert!(
                r.lines_total > 20,
                "{}: gcov saw {} lines",
                r.name,
                r.lines_total
            );
            assert!(r.lines_covered > 0, "{}: no line covered", r.name);
            assert!(
                r.tests > 0 && r.passed > 0,
                "{}: {} tests, {} passed",
                r.name,
                r.tests,
                r.passed
            );
            assert!(r.stats["instructions"].as_u64().unwrap_or(0) > 0);
        }
        let md = std::fs::read_to_string(out.join("coreutils.md")).unwrap();
        assert!(md.contains("Mean line coverage"), "{md}");
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("coreutils.json")).unwrap())
                .unwrap();
        assert!(json["builds"]["capture_make_s"].as_f64().unwrap() > 0.0);
        // IR completeness on real code: each quick utility's captured module,
        // also optimised at -O1..-O3, holds no construct the engine cannot run.
        let capture = out.join("build-bitcode/symtest-out/capture/src");
        let bin = super::super::engine_binary(false).unwrap();
        for name in QUICK {
            let bc = capture.join(format!("{name}.bc"));
            for level in ["-O0", "-O1", "-O2", "-O3"] {
                let module = if level == "-O0" {
                    bc.clone()
                } else {
                    let o = out.join(format!("{name}{level}.bc"));
                    util::run(Command::new("opt-19").arg(level).arg(&bc).arg("-o").arg(&o))
                        .unwrap();
                    o
                };
                let r = Command::new(&bin)
                    .args(["inspect", "--unsupported"])
                    .arg(&module)
                    .output()
                    .unwrap();
                assert!(
                    r.status.success(),
                    "{name} {level}: {}",
                    String::from_utf8_lossy(&r.stdout)
                );
            }
        }
        // Options are checked before anything runs.
        assert!(Options::parse(&["--only".into(), "ls".into()]).is_err());
        assert!(Options::parse(&["--budget".into(), "1e300".into()]).is_err());
    }
}
