//! `cargo xtask bench coreutils [--quick] [--budget S] [--only a,b] [--out DIR]
//! [--rebuild] [--rerun-budget S] [--no-rerun]`: GNU coreutils 9.1 (Debian's
//! source package) as the benchmark of real code nobody here wrote, measured
//! as the paper's §5.1 — through the product, as a user runs it.
//!
//! 1. The source is fetched once with `apt-get source coreutils` through a
//!    private sources list ([`crate::debsrc`]) and configured for musl
//!    (`CC=musl-gcc`) into `<out>/project` (kept and reused; `--rebuild`
//!    starts over).
//! 2. `symtest.toml` there declares one `build` target per utility
//!    (`build = ["make", "-j2"]`, `binary = "src/NAME"`, the paper's
//!    options; wider arguments for `tr` and `echo`, [`WIDER_ARGS`]), as a user would
//!    write it.
//! 3. `cargo symtest --jobs 1` runs the whole pipeline on it: the capture of
//!    the build, then per utility exploration, minimization, native replay,
//!    gcov and the regression suite. Every headline figure is the pipeline's
//!    own: gcov of the utility's own `src/` sources, kept tests, bugs, native
//!    disagreements with the engine, lines the engine claims that the kept
//!    tests do not execute, and the time beyond exploration.
//! 4. Each emitted suite is built by its own Makefile and run (`make`, then
//!    `./symtest_suite`).
//! 5. `cargo symtest` runs a second time on the unchanged project (a shorter
//!    budget by default: it checks that re-runs work, not coverage).

use crate::{debsrc, paths, setup, util};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
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
/// The re-run's budget per utility unless `--rerun-budget`.
pub const RERUN_BUDGET_S: f64 = 10.0;
/// The paper's environment for COREUTILS (§5.1): its argument groups ...
const PAPER_SYM_ARGS: &[&str] = &["--sym-args", "0", "1", "10", "--sym-args", "0", "2", "2"];
/// ... and one file, stdin, one system-call failure per path.
const PAPER_INPUTS: &[&str] = &[
    "--sym-files",
    "1",
    "8",
    "--sym-stdin",
    "8",
    "--max-fail",
    "1",
];

/// Utilities explored with other argument groups than the paper's (in place
/// of [`PAPER_SYM_ARGS`]), as the paper did for eight tools whose coverage
/// was unsatisfactory ("we consulted the man page and increased the number
/// and size of arguments and files", §5.2). `tr`'s operands are sets
/// (`[:alpha:]`, `a-z`), which two-byte arguments cannot hold: three
/// arguments of up to 10 bytes. Tried on the eight weakest utilities at
/// seeds 1 and 2 (60 s, `exec`); `tr` is the one that gained at both (+29
/// and +47 engine-executed lines of `src/tr.c`). `echo`'s escapes (`-e`
/// then `\x41`, `\0101`, as its man page lists them) need an argument of
/// four bytes or more after the option: the same three arguments of up to
/// 10 bytes (+20 engine-executed lines of `src/echo.c` at 60 s, 96 → 116 of
/// its 120).
pub const WIDER_ARGS: &[(&str, &[&str])] = &[
    ("tr", &["--sym-args", "0", "3", "10"]),
    ("echo", &["--sym-args", "0", "3", "10"]),
];

/// The paper's environment, as one argument list.
pub fn paper_args() -> Vec<&'static str> {
    [PAPER_SYM_ARGS, PAPER_INPUTS].concat()
}

/// The arguments `util` is explored with.
pub fn args_of(util: &str) -> Vec<&'static str> {
    let groups = WIDER_ARGS
        .iter()
        .find(|(u, _)| *u == util)
        .map_or(PAPER_SYM_ARGS, |(_, a)| a);
    [groups, PAPER_INPUTS].concat()
}

pub const VERSION: &str = "9.1";
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

/// The options of `bench coreutils`.
#[derive(clap::Parser)]
pub struct Options {
    /// Only echo, basename and dirname, 10 s each unless --budget says
    /// otherwise
    #[arg(long)]
    pub quick: bool,
    /// Seconds of exploration per utility, 0 < S <= 86400 [default: 60, 10
    /// with --quick]
    #[arg(long = "budget", value_name = "SECONDS", value_parser = super::seconds)]
    pub budget_s: Option<f64>,
    /// Only these utilities of the benchmark (comma-separated)
    #[arg(long, value_name = "A,B", value_delimiter = ',', value_parser = utility)]
    pub only: Vec<String>,
    /// Where the configured project and the reports go [default:
    /// target/bench/coreutils]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Copy and configure Debian's source again (else the configured tree of
    /// the last run is reused)
    #[arg(long)]
    pub rebuild: bool,
    /// Seconds per utility of the second run of the unchanged project,
    /// 0 < S <= 86400
    #[arg(long = "rerun-budget", value_name = "SECONDS", value_parser = super::seconds,
          default_value_t = RERUN_BUDGET_S)]
    pub rerun_budget_s: f64,
    /// No second run
    #[arg(long, conflicts_with = "rerun_budget_s")]
    pub no_rerun: bool,
    /// How often each emitted suite runs (its verdicts must not change),
    /// 1..=100
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub suite_runs: u32,
    /// The release binary; the self-test uses the debug one the workspace's
    /// tests build anyway.
    #[arg(skip = true)]
    pub release: bool,
}

impl Options {
    /// Budget per utility of the second run (`None`: no second run).
    fn rerun_budget(&self) -> Option<f64> {
        (!self.no_rerun).then_some(self.rerun_budget_s)
    }
}

/// An `--only` value: one of the benchmark's utilities.
fn utility(u: &str) -> std::result::Result<String, String> {
    if UTILITIES.contains(&u) {
        Ok(u.to_string())
    } else {
        Err(format!(
            "`{u}` is not one of the benchmark's utilities ({})",
            UTILITIES.join(" ")
        ))
    }
}

/// One utility's figures, all from the pipeline's own outputs.
#[derive(Default)]
pub struct UtilResult {
    pub name: String,
    /// The pipeline's status for the target (`ok`, `failed`, ...).
    pub status: String,
    pub message: Option<String>,
    /// The utility's own sources (`src/`), as the pipeline's gcov names them.
    pub sources: Vec<String>,
    pub lines_total: u64,
    pub lines_covered: u64,
    /// Of `lines_total`, the lines in functions that survive whole-program
    /// optimization (the paper's ELOC; the pipeline's `eloc_lines_total`).
    pub eloc_total: u64,
    pub branches_total: u64,
    pub branches_taken: u64,
    /// Every source of the program (gnulib included).
    pub all_lines: (u64, u64),
    pub tests_written: u64,
    pub tests_kept: u64,
    pub bugs: u64,
    pub unconfirmed: u64,
    /// Tests whose native run disagreed with the engine.
    pub disagreements: u64,
    pub flaky: u64,
    /// Lines the engine claims that the kept tests do not execute natively:
    /// in the utility's own sources, and in all.
    pub claimed_not_executed: u64,
    pub claimed_not_executed_all: u64,
    /// The emitted suite, built by its Makefile and run.
    pub suite_passed: u64,
    pub suite_failed: u64,
    pub suite_error: Option<String>,
    /// Tests whose verdict changed between the suite's repeated runs.
    pub suite_flaky: Vec<String>,
    /// The second run's status for the target.
    pub rerun: Option<String>,
    pub explore_s: f64,
    pub total_s: f64,
    pub stage_s: Value,
    /// The engine's `stats.json`.
    pub stats: Value,
    /// Why the own sources' uncovered lines and branch sides are uncovered:
    /// counts per reason (`coverage/why.json`).
    pub why_lines: std::collections::BTreeMap<String, u64>,
    pub why_branches: std::collections::BTreeMap<String, u64>,
    /// Of the uncovered lines not `pending`, those states pending at the
    /// deadline could still reach.
    pub why_pending_can_reach: u64,
}

impl UtilResult {
    pub fn overhead_s(&self) -> f64 {
        (self.total_s - self.explore_s).max(0.0)
    }
}

fn run_in(dir: &Path, cmd: &mut Command, log: &Path) -> Result<f64> {
    let t = Instant::now();
    util::run_logged(cmd.current_dir(dir), log)?;
    Ok(t.elapsed().as_secs_f64())
}

/// The configured project tree (reused when present): `(dir, configure seconds)`.
pub(crate) fn project(work: &Path, rebuild: bool) -> Result<(PathBuf, Option<f64>)> {
    let dir = work.join("project");
    if dir.join("config.status").exists() && !rebuild {
        return Ok((dir, None));
    }
    std::fs::create_dir_all(work)?;
    let s = configured_copy(&dir, &work.join("configure.log"))?;
    Ok((dir, Some(s)))
}

/// A fresh copy of Debian's coreutils source at `dir` (replacing what is
/// there), configured for musl as the benchmark builds it; returns the
/// seconds `./configure` took.
pub(crate) fn configured_copy(dir: &Path, log: &Path) -> Result<f64> {
    let src = debsrc::fetch(
        "coreutils",
        "9.1-1",
        &format!("coreutils-{VERSION}"),
        "configure.ac",
    )?;
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    eprintln!("bench coreutils: configuring a copy of the source for musl");
    // Timestamps preserved, so make does not try to rerun autotools.
    util::run(Command::new("cp").arg("-a").arg(&src).arg(dir))?;
    let mut c = Command::new("./configure");
    c.env("FORCE_UNSAFE_CONFIGURE", "1")
        .arg("CC=musl-gcc")
        .arg("CFLAGS=-g -O0")
        .args(CONFIGURE_FLAGS);
    run_in(dir, &mut c, log).context("configuring coreutils")
}

/// `symtest.toml` as a user writes it: one program target per utility,
/// each from the project's own build.
pub(crate) fn config(list: &[&str]) -> String {
    let mut s = String::from(
        "# GNU coreutils through `cargo symtest`: each utility is a program the\n\
         # project's own build makes, explored with the KLEE paper's options\n\
         # (wider arguments where the paper's widening applies: tr's sets, echo's escapes).\n",
    );
    for u in list {
        let args: Vec<String> = args_of(u).iter().map(|a| format!("\"{a}\"")).collect();
        s.push_str(&format!(
            "\n[[target]]\nname = \"{u}\"\nkind = \"program\"\nbuild = [\"make\", \"-j2\"]\n\
             binary = \"src/{u}\"\nargs = [{}]\nseed = 1\n",
            args.join(", ")
        ));
    }
    s
}

/// One `cargo symtest` run over the project; returns (exit code, the
/// reports of the targets by name, wall seconds). Per-target progress on stderr.
fn pipeline(bin: &Path, dir: &Path, budget: f64, log: &Path) -> Result<(i32, Vec<Value>, f64)> {
    let mut cmd = Command::new(bin);
    cmd.args(["symtest", "--config", "symtest.toml", "--jobs", "1"])
        .arg("--max-time")
        .arg(budget.to_string())
        .args(["--message-format", "json"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::from(
            std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?,
        ));
    eprintln!(
        "$ {}  (in {}, log {})",
        util::display(&cmd),
        dir.display(),
        log.display()
    );
    let started = Instant::now();
    let mut child = cmd.spawn().context("starting cargo-symtest")?;
    let mut reports = Vec::new();
    let mut events = String::new();
    for line in BufReader::new(child.stdout.take().context("stdout")?).lines() {
        let line = line?;
        events.push_str(&line);
        events.push('\n');
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if v["event"] == "target-finished" {
            let r = &v["report"];
            eprintln!(
                "bench coreutils: {}: {} in {:.0} s ({:.0} s exploring), {} tests kept",
                r["name"].as_str().unwrap_or("?"),
                r["status"].as_str().unwrap_or("?"),
                r["total_s"].as_f64().unwrap_or(0.0),
                r["explore_s"].as_f64().unwrap_or(0.0),
                r["tests_kept"]
            );
            reports.push(r.clone());
        }
    }
    let status = child.wait()?;
    std::fs::write(log.with_extension("events.jsonl"), events)?;
    Ok((
        status.code().unwrap_or(-1),
        reports,
        started.elapsed().as_secs_f64(),
    ))
}

fn read_json(p: &Path) -> Result<Value> {
    serde_json::from_str(
        &std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
    )
    .with_context(|| format!("parsing {}", p.display()))
}

/// The figures of one utility from its report and its output directory.
fn figures(dir: &Path, report: &Value) -> Result<UtilResult> {
    let name = report["name"].as_str().unwrap_or("?").to_string();
    let u64_of = |v: &Value| v.as_u64().unwrap_or(0);
    let len = |v: &Value| v.as_array().map_or(0, |a| a.len() as u64);
    let out = dir.join("symtest-out").join(&name);
    let mut r = UtilResult {
        name: name.clone(),
        status: report["status"].as_str().unwrap_or("?").to_string(),
        message: report["message"].as_str().map(str::to_string),
        tests_written: u64_of(&report["tests_written"]),
        tests_kept: u64_of(&report["tests_kept"]),
        bugs: len(&report["bugs"]),
        unconfirmed: len(&report["unconfirmed"]),
        disagreements: len(&report["native_disagreements"]),
        flaky: len(&report["flaky"]),
        claimed_not_executed_all: u64_of(&report["claimed_not_executed"]),
        explore_s: report["explore_s"].as_f64().unwrap_or(0.0),
        total_s: report["total_s"].as_f64().unwrap_or(0.0),
        stage_s: report["stage_s"].clone(),
        ..UtilResult::default()
    };
    if r.status != "ok" {
        return Ok(r);
    }
    r.stats = match read_json(&out.join("stats.json")) {
        Ok(v) => v,
        Err(e) => {
            // The report shows `-` for its engine figures; say why here.
            eprintln!("bench coreutils: {name}: no engine statistics: {e:#}");
            Value::Null
        }
    };
    let cov = read_json(&out.join("coverage/summary.json"))?;
    r.all_lines = (u64_of(&cov["lines_covered"]), u64_of(&cov["lines_total"]));
    for f in cov["files"].as_array().into_iter().flatten() {
        let file = f["file"].as_str().unwrap_or("");
        if !file.starts_with("src/") {
            continue;
        }
        r.sources.push(file.to_string());
        r.lines_total += u64_of(&f["lines_total"]);
        r.lines_covered += u64_of(&f["lines_covered"]);
        r.eloc_total += f["eloc_lines_total"]
            .as_u64()
            .unwrap_or_else(|| u64_of(&f["lines_total"]));
        r.branches_total += u64_of(&f["branches_total"]);
        r.branches_taken += u64_of(&f["branches_covered"]);
        r.claimed_not_executed += len(&f["claimed_not_executed"]);
    }
    let why = read_json(&out.join("coverage/why.json"))?;
    for f in why["files"].as_array().into_iter().flatten() {
        if !f["file"].as_str().unwrap_or("").starts_with("src/") {
            continue;
        }
        for (key, counts) in [
            ("lines", &mut r.why_lines),
            ("branches", &mut r.why_branches),
        ] {
            for e in f[key].as_array().into_iter().flatten() {
                let reason = e["reason"].as_str().unwrap_or("?").to_string();
                *counts.entry(reason).or_default() += 1;
            }
        }
        r.why_pending_can_reach += f["lines"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["pending_can_reach"] == true && e["reason"] != "pending")
            .count() as u64;
    }
    Ok(r)
}

/// Builds the emitted suite with its own Makefile and runs it: (passed, failed).
/// Builds the emitted suite with its own Makefile and runs it `runs` times:
/// (passed, failed) of the first run, and the tests whose verdict was not
/// the same in every run.
fn run_suite(suite: &Path, log: &Path, runs: u32) -> Result<(u64, u64, Vec<String>)> {
    run_in(suite, Command::new("make").arg("-j2"), log).context("building the suite")?;
    let verdicts = |text: &str| -> Vec<(String, String)> {
        text.lines()
            .filter_map(|l| l.strip_prefix("test "))
            .filter_map(|r| r.split_once(" ... "))
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    };
    let mut first: Option<Vec<(String, String)>> = None;
    let mut flaky: Vec<String> = Vec::new();
    let mut text = String::new();
    for _ in 0..runs.max(1) {
        let o = Command::new("./symtest_suite")
            .current_dir(suite)
            .output()
            .context("running the suite")?;
        let t = String::from_utf8_lossy(&o.stdout).into_owned();
        let v = verdicts(&t);
        match &first {
            None => {
                first = Some(v);
                text = t;
            }
            Some(f) => {
                for (n, verdict) in &v {
                    let same = f.iter().any(|(m, w)| m == n && w == verdict);
                    if !same && !flaky.contains(n) {
                        flaky.push(n.clone());
                    }
                }
            }
        }
    }
    std::fs::write(log.with_extension("run.log"), text.as_bytes())?;
    let last = text
        .lines()
        .rev()
        .find(|l| l.ends_with(" failed"))
        .context("the suite printed no summary")?;
    let nums: Vec<u64> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    match nums[..] {
        [p, f] => Ok((p, f, flaky)),
        _ => bail!("unexpected suite summary `{last}`"),
    }
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
    let (dir, configure_s) = project(&work, o.rebuild)?;
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
    std::fs::write(dir.join("symtest.toml"), config(&list))?;
    let started = Instant::now();
    let (code, reports, wall) = pipeline(&bin, &dir, budget, &work.join("run1.log"))?;
    if reports.is_empty() {
        let log = std::fs::read_to_string(work.join("run1.log")).unwrap_or_default();
        bail!("cargo symtest exited {code} with no target run:\n{log}");
    }
    let mut results = Vec::new();
    for r in &reports {
        let mut u = figures(&dir, r)?;
        if u.status == "ok" {
            let suite = dir.join("tests/symtest").join(&u.name);
            match run_suite(
                &suite,
                &work.join(format!("suite-{}.log", u.name)),
                o.suite_runs,
            ) {
                Ok((p, f, flaky)) => {
                    (u.suite_passed, u.suite_failed) = (p, f);
                    u.suite_flaky = flaky;
                }
                Err(e) => u.suite_error = Some(format!("{e:#}")),
            }
        }
        results.push(u);
    }
    // Capture (and the time between targets) is what the run took beyond
    // the targets' own time (one target at a time).
    let capture_s = wall - results.iter().map(|r| r.total_s).sum::<f64>();
    let mut rerun = Value::Null;
    if let Some(b) = o.rerun_budget() {
        let (code2, reports2, wall2) = pipeline(&bin, &dir, b, &work.join("run2.log"))?;
        for r in &reports2 {
            if let Some(u) = results.iter_mut().find(|u| r["name"] == u.name.as_str()) {
                u.rerun = r["status"].as_str().map(str::to_string);
            }
        }
        rerun = json!({"budget_s": b, "exit_code": code2, "wall_s": wall2,
            "targets_ok": reports2.iter().filter(|r| r["status"] == "ok").count()});
    }
    let command = format!(
        "cargo xtask bench coreutils{}{}",
        super::suite::shown_flags(o.quick, o.budget_s, &o.only),
        match o.rerun_budget() {
            None => " --no-rerun".to_string(),
            Some(b) if b != RERUN_BUDGET_S => format!(" --rerun-budget {b}"),
            Some(_) => String::new(),
        }
    );
    let run = json!({
        "command": command, "budget_s": budget, "exit_code": code, "wall_s": wall,
        "capture_s": capture_s, "configure_s": configure_s, "rerun": rerun,
        "suite_runs": o.suite_runs,
        "elapsed_s": started.elapsed().as_secs_f64(),
    });
    super::coreutils_report::write_report(&work, &results, &list, &run)?;
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// Each target's arguments in the project's `symtest.toml`: the paper's
    /// environment, and tr's and echo's wider argument groups with the same inputs.
    #[test]
    fn targets_get_the_paper_s_arguments_or_their_wider_ones() {
        let toml = config(&["cat", "echo", "tr"]);
        let args = |name: &str| {
            let start = toml.find(&format!("name = \"{name}\"")).unwrap();
            let line = toml[start..]
                .lines()
                .find(|l| l.starts_with("args = "))
                .unwrap();
            line.to_string()
        };
        assert_eq!(
            args("cat"),
            r#"args = ["--sym-args", "0", "1", "10", "--sym-args", "0", "2", "2", "--sym-files", "1", "8", "--sym-stdin", "8", "--max-fail", "1"]"#
        );
        for wide in ["echo", "tr"] {
            assert_eq!(
                args(wide),
                r#"args = ["--sym-args", "0", "3", "10", "--sym-files", "1", "8", "--sym-stdin", "8", "--max-fail", "1"]"#
            );
        }
    }

    /// `--quick` end to end through the product: Debian's coreutils source
    /// fetched and configured for musl, `cargo symtest` on three `build`
    /// targets for a few seconds each (capture, exploration, minimization,
    /// native replay, gcov, suites), each suite built and run by its own
    /// Makefile, then a second run of the unchanged project.
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
            rerun_budget_s: 3.0,
            no_rerun: false,
            suite_runs: 2,
            release: false,
        })
        .expect("the coreutils benchmark runs");
        assert_eq!(results.len(), QUICK.len(), "every quick utility measured");
        for r in &results {
            assert_eq!(r.status, "ok", "{}: {:?}", r.name, r.message);
            assert!(
                r.sources.iter().any(|s| s == &format!("src/{}.c", r.name)),
                "{}: own sources from the pipeline's gcov: {:?}",
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
            assert!(r.tests_kept > 0, "{}: no test kept", r.name);
            assert_eq!(r.disagreements, 0, "{}: native disagreements", r.name);
            assert_eq!(
                r.claimed_not_executed_all, 0,
                "{}: lines claimed but not executed",
                r.name
            );
            assert!(r.suite_error.is_none(), "{}: {:?}", r.name, r.suite_error);
            assert_eq!(r.suite_passed, r.tests_kept, "{}: suite", r.name);
            assert!(r.suite_flaky.is_empty(), "{}: {:?}", r.name, r.suite_flaky);
            assert_eq!(r.rerun.as_deref(), Some("ok"), "{}: re-run", r.name);
            assert!(r.stats["instructions"].as_u64().unwrap_or(0) > 0);
            // Every uncovered line of the utility's own sources has a reason.
            assert_eq!(
                r.why_lines.values().sum::<u64>(),
                r.lines_total - r.lines_covered,
                "{}: uncovered lines with a reason: {:?}",
                r.name,
                r.why_lines
            );
        }
        let md = std::fs::read_to_string(out.join("coreutils.md")).unwrap();
        assert!(md.contains("Mean line coverage"), "{md}");
        // IR completeness on real code: each quick utility's module, also
        // optimised at -O1..-O3, holds no construct the engine cannot run.
        let bin = super::super::engine_binary(false).unwrap();
        for name in QUICK {
            let bc = out
                .join("project/symtest-out/.build")
                .join(name)
                .join("bc")
                .join(format!("{name}.bc"));
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
        assert!(Options::try_parse_from(["coreutils", "--only", "ls"]).is_err());
        assert!(Options::try_parse_from(["coreutils", "--budget", "1e300"]).is_err());
    }
}
