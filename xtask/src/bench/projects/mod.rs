//! `cargo xtask bench projects [--only a,b] [--budget S] [--out DIR] [--no-plain]`:
//! real C code bases captured with their own, unmodified builds — the eight
//! Debian source packages of [`recipes`] — as a new user would:
//!
//! 1. The source is fetched once with `apt-get source` ([`crate::debsrc`]).
//! 2. A copy is configured as Debian's rules (or the README) say and built
//!    plainly (`make -j2`), for the build time (`--no-plain` skips it).
//! 3. Another copy is configured the same way and built by `cargo symtest init
//!    --from-build -- BUILD`: the capture time, and the `symtest.toml` it
//!    writes. The outputs the recipe names as build-time helpers, tests or
//!    examples must be left out of it.
//! 4. The benchmark adds a harness target for each library the recipe has a
//!    harness for (`tests/bench/projects/`), then runs `cargo symtest
//!    --max-time 10`: every listed program and harness explored for the
//!    budget, its tests minimized, replayed natively, measured by gcov.
//! 5. `inspect --unsupported` on every target's module.
//!
//! Writes `projects.md` and `projects.json` into the output directory
//! (default `target/bench/projects/`).
//!
//! `--select` applies the corpus rule of `tests/bench/corpus/RULE.md` and
//! writes `tests/bench/corpus/corpus.toml` ([`corpus`]); `--corpus` runs every
//! package of it (the eight above by their recipes, the others by the generic
//! recipe of their build system, [`generic`]), each package's row written to
//! `<out>/<package>/result.json` as soon as it finishes, so a rerun resumes
//! ([`runner`]); `--quick` runs one small corpus package end to end.

mod bounded;
mod content;
mod corpus;
mod events;
mod generic;
mod listing;
mod options;
pub(super) mod recipes;
mod report;
mod runner;
pub mod seeds;
mod suite;

pub(crate) use events::{bug_lines, note_event, read_events};

use crate::{debsrc, paths, setup, util};
use anyhow::{bail, Context, Result};
use bounded::{key_line, run_logged_until, wait_bounded, TimedOut};
use listing::{add_harnesses, check_listing, library_targets, listed, manifest};
pub use options::{Mode, Options};
use recipes::Recipe;
pub use runner::quick;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub const DEFAULT_BUDGET_S: f64 = 10.0;
/// The per-program budget of corpus runs.
pub const CORPUS_BUDGET_S: f64 = 30.0;
/// The wall-clock cap of one corpus package.
pub const PACKAGE_TIMEOUT_S: f64 = 900.0;
/// The emitted suites of one project are run within this many seconds,
/// after the project's run (a cap of their own, beyond the package's).
pub const SUITES_TIMEOUT_S: f64 = 900.0;

/// How complete a program's module is (the capture's `manifest.json`: the
/// functions its module defines against those of the linked file).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Completeness {
    pub module_functions: Option<u64>,
    pub native_functions: Option<u64>,
    /// `symbol (object)` of each function the module lacks.
    pub missing: Vec<String>,
    pub main_from: Option<String>,
    pub complete: Option<bool>,
}

/// One target of a project's run.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TargetResult {
    pub name: String,
    pub kind: String,
    /// What the target names (`binary` or `library`).
    pub artifact: String,
    pub status: String,
    pub paths: u64,
    pub tests_written: u64,
    pub tests_kept: u64,
    /// Kept tests whose native replay differs from the engine's outcome.
    pub replay_differs: u64,
    /// Errors whose test did not fail natively.
    pub unconfirmed: u64,
    pub bugs: Vec<String>,
    pub lines: (u64, u64),
    pub unsupported: Option<u64>,
    /// The budget it ran with (three times the benchmark's when loading the
    /// module alone took longer than that).
    pub budget_s: f64,
    /// The first line of the report's message (why it failed).
    #[serde(default)]
    pub message: Option<String>,
    /// Tests whose native run disagreed with the engine in the coverage run.
    #[serde(default)]
    pub native_disagreements: u64,
    /// The engine or the pipeline panicked on it (`panicked at` in its
    /// message or in an event about it).
    #[serde(default)]
    pub panic: bool,
    /// The engine failed other than by panicking or by loading past the
    /// budget (a signal, an exit code, out of memory): how.
    #[serde(default)]
    pub crash: Option<String>,
    /// The module's completeness, for a program (`None`: the manifest does
    /// not describe its binary).
    #[serde(default)]
    pub module: Option<Completeness>,
    /// Where `cargo symtest` emitted the target's regression suite.
    #[serde(default)]
    pub suite_dir: Option<String>,
    /// Its run on the unmodified program (`make -C <suite_dir> test`): the
    /// runner's closing line "N passed, M failed" (`None`: it did not get
    /// there, `suite_note` says why).
    #[serde(default)]
    pub suite_passed: Option<u64>,
    #[serde(default)]
    pub suite_failed: Option<u64>,
    /// Of the failed tests, those that document a bug still present (they
    /// fail by design until the bug is fixed).
    #[serde(default)]
    pub suite_bugs: Option<u64>,
    /// Why the suite did not run or finish, or its first failure that does
    /// not document a bug.
    #[serde(default)]
    pub suite_note: Option<String>,
    #[serde(default)]
    pub suite_s: Option<f64>,
}

impl TargetResult {
    /// Whether its suite ran and every test passed but those that document
    /// a bug still present.
    pub fn suite_passes(&self) -> bool {
        matches!((self.suite_failed, self.suite_bugs), (Some(f), Some(b)) if f == b)
    }
}

/// One project's figures.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ProjectResult {
    pub name: String,
    pub version: String,
    pub how: String,
    pub configure_s: f64,
    pub plain_build_s: Option<f64>,
    pub capture_s: f64,
    pub run_s: f64,
    pub compiles: u64,
    pub compiles_with_bitcode: u64,
    pub outputs: u64,
    pub outputs_with_bitcode: u64,
    pub dropped_flags: serde_json::Value,
    /// How `init` chose the programs (its comment's first line).
    pub rule: String,
    pub programs: Vec<String>,
    pub libraries: Vec<String>,
    /// The completeness of each listed library's module, where the capture's
    /// manifest compares it with the linked file (a shared library; an
    /// archive has no linked file): (library, figures).
    #[serde(default)]
    pub library_modules: Vec<(String, Completeness)>,
    /// (output, why) for what `init` left out.
    pub left_out: Vec<(String, String)>,
    pub targets: Vec<TargetResult>,
}

impl ProjectResult {
    fn new(r: &Recipe) -> ProjectResult {
        ProjectResult {
            name: r.name.into(),
            version: r.version.into(),
            how: r.how.into(),
            ..Default::default()
        }
    }
}

/// `dpkg-buildflags`'s CFLAGS, CPPFLAGS and LDFLAGS under the recipe's
/// maintainer options, plus sqlite3's own, and `DEB_BUILD_OPTIONS` for a
/// build through `debian/rules`.
pub(super) fn build_env(r: &Recipe, tree: &Path) -> Vec<(String, String)> {
    let get = |what: &str| {
        Command::new("dpkg-buildflags")
            .args(["--get", what])
            .env("DEB_BUILD_MAINT_OPTIONS", r.maint_options)
            .current_dir(tree)
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    vec![
        ("CFLAGS".into(), get("CFLAGS")),
        ("CPPFLAGS".into(), get("CPPFLAGS")),
        ("LDFLAGS".into(), get("LDFLAGS")),
        ("SQLITE_CFLAGS".into(), recipes::sqlite_cflags().to_string()),
        ("DEB_BUILD_OPTIONS".into(), "nocheck parallel=2".into()),
    ]
}

pub(super) fn fetch(r: &Recipe) -> Result<PathBuf> {
    if r.upstream_only {
        debsrc::fetch_upstream(r.package, r.version, r.unpacked, r.marker)
    } else {
        debsrc::fetch(r.package, r.version, r.unpacked, r.marker)
    }
}

pub(super) fn words(r: &Recipe, tree: &Path) -> Vec<String> {
    r.build
        .iter()
        .map(|w| w.replace("{tree}", &tree.display().to_string()))
        .collect()
}

/// A fresh copy of `src` at `tree`, configured; the time configuring took.
pub(super) fn prepared(
    r: &Recipe,
    src: &Path,
    tree: &Path,
    log: &Path,
    deadline: Option<Instant>,
) -> Result<f64> {
    if tree.exists() {
        std::fs::remove_dir_all(tree)?;
    }
    std::fs::create_dir_all(tree.parent().expect("has a parent"))?;
    util::run(Command::new("cp").arg("-a").arg(src).arg(tree))?;
    if r.prepare.is_empty() {
        std::fs::write(log, "")?;
        return Ok(0.0);
    }
    let t = Instant::now();
    let script = r.prepare.replace("{tree}", &tree.display().to_string());
    run_logged_until(
        Command::new("sh")
            .arg("-c")
            .arg(&script)
            .envs(build_env(r, tree))
            .current_dir(tree),
        log,
        deadline,
    )
    .with_context(|| format!("configuring {}", r.name))?;
    Ok(t.elapsed().as_secs_f64())
}

/// The number of constructs `inspect --unsupported` lists in a module.
fn unsupported(bin: &Path, module: &Path) -> Option<u64> {
    let o = Command::new(bin)
        .args(["inspect", "--unsupported"])
        .arg(module)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&o.stdout);
    text.lines()
        .find_map(|l| {
            l.split(": ")
                .nth(1)?
                .strip_suffix(" unsupported construct(s)")
        })
        .and_then(|n| n.trim().parse().ok())
}

/// How one project runs: the binary, its directory under the output, the
/// budget per target, whether to build plainly first, the wall-clock cap.
pub struct Run<'a> {
    pub bin: &'a Path,
    pub dir: PathBuf,
    pub budget_s: f64,
    pub plain: bool,
    pub deadline: Option<Instant>,
}

/// The step a project is at (for the row of one that fails).
pub type Step = &'static str;

/// A capture that listed libraries and no program: nothing for the
/// benchmark to run until `init --from-build` lists library targets.
#[derive(Debug)]
pub struct LibraryOnly {
    pub what: String,
}

impl std::fmt::Display for LibraryOnly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for LibraryOnly {}

/// A target's message in a line: its first, and the error under it when the
/// first only introduces it (`native coverage build failed:`).
fn message_line(message: &str) -> String {
    let first = message.lines().next().unwrap_or("").trim();
    let key = key_line(message);
    if first.ends_with(':') && key != first {
        format!("{first} {key}")
    } else {
        first.to_string()
    }
}

/// How the engine failed on a target, when it is a crash: not a panic and
/// not a module whose loading took the budget.
fn crash_of(status: &str, message: &str) -> Option<String> {
    if status != "engine-failed"
        || message.contains("panicked at")
        || message.contains("did not finish within")
    {
        return None;
    }
    Some(
        message
            .lines()
            .next()
            .unwrap_or("engine failed")
            .trim_end_matches(':')
            .to_string(),
    )
}

/// The completeness figures of the manifest's output `output` (a program
/// or a library).
fn completeness(m: &serde_json::Value, output: &str) -> Option<Completeness> {
    let o = m["outputs"]
        .as_array()?
        .iter()
        .find(|o| o["output"] == output)?;
    Some(Completeness {
        module_functions: o["module_functions"].as_u64(),
        native_functions: o["native_functions"].as_u64(),
        missing: o["missing_functions"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                format!(
                    "{} ({})",
                    f["symbol"].as_str().unwrap_or("?"),
                    f["object"].as_str().unwrap_or("?")
                )
            })
            .collect(),
        main_from: o["main_from"].as_str().map(str::to_string),
        complete: o["complete"].as_bool(),
    })
}

/// Configures, captures and runs one project into `p`, step by step (`step`
/// names the one it is at, so a failure can be placed). The tree is
/// `<dir>/tree`.
fn run_project(
    x: &Run,
    r: &Recipe,
    src: &Path,
    p: &mut ProjectResult,
    step: &mut Step,
) -> Result<()> {
    let dir = &x.dir;
    std::fs::create_dir_all(dir)?;
    if x.plain {
        *step = "plain build";
        plain_build(x, r, src, p)?;
    }
    *step = "configure";
    let tree = dir.join("tree");
    p.configure_s = prepared(r, src, &tree, &dir.join("configure.log"), x.deadline)?;
    *step = "capture";
    let build = words(r, &tree);
    let t = Instant::now();
    let captured = run_logged_until(
        Command::new(x.bin)
            .args(["init", "--from-build", "--"])
            .args(&build)
            .envs(build_env(r, &tree))
            .current_dir(&tree),
        &dir.join("init.log"),
        x.deadline,
    )
    .with_context(|| format!("cargo symtest init --from-build on {}", r.name));
    p.capture_s = t.elapsed().as_secs_f64();
    captured?;
    *step = "listing";
    let config_path = tree.join("symtest.toml");
    let mut config = std::fs::read_to_string(&config_path)?;
    let listing = record_listing(r, &config, &tree, p)?;
    config.push_str(&add_harnesses(r, &tree, &build)?);
    std::fs::write(&config_path, &config)?;
    *step = "run";
    let t = Instant::now();
    let mut run = pipeline(x, r, &tree, x.budget_s, None)?;
    let budgets = rerun_slow_loads(x, r, &tree, &mut run)?;
    p.run_s = t.elapsed().as_secs_f64();
    for t in &run.reports {
        let target = target_result(x, r, &tree, t, &listing, &run, &budgets);
        p.targets.push(target);
    }
    run_suites(dir, &mut p.targets);
    if run.timed_out {
        return Err(TimedOut {
            what: format!(
                "`cargo symtest` ({} of {} target(s) finished)",
                p.targets.len(),
                listing.programs.len() + r.harnesses.len()
            ),
        }
        .into());
    }
    if let Some(code) = run.failed {
        bail!(
            "cargo symtest on {} exited {code} (see {})",
            r.name,
            dir.join("run.stderr").display()
        );
    }
    Ok(())
}

/// The plain build (no capture) of the project in `<dir>/plain`, timed
/// into `p`, then removed.
fn plain_build(x: &Run, r: &Recipe, src: &Path, p: &mut ProjectResult) -> Result<()> {
    let dir = &x.dir;
    let plain = dir.join("plain");
    prepared(r, src, &plain, &dir.join("configure-plain.log"), x.deadline)?;
    let build = words(r, &plain);
    let t = Instant::now();
    run_logged_until(
        Command::new(&build[0])
            .args(&build[1..])
            .envs(build_env(r, &plain))
            .current_dir(&plain),
        &dir.join("build-plain.log"),
        x.deadline,
    )
    .with_context(|| format!("the plain build of {}", r.name))?;
    p.plain_build_s = Some(t.elapsed().as_secs_f64());
    std::fs::remove_dir_all(&plain)?;
    Ok(())
}

/// What `init --from-build` listed in the tree: the programs and library
/// targets, with the capture's manifest.
struct Listing {
    programs: Vec<(String, String)>,
    lib_targets: Vec<(String, String)>,
    manifest: serde_json::Value,
}

/// Records in `p` what `init --from-build` listed in `config` (and its
/// manifest counted), and checks the listing against the recipe; an error
/// when nothing can be run (a [`LibraryOnly`] one when libraries were
/// listed).
fn record_listing(r: &Recipe, config: &str, tree: &Path, p: &mut ProjectResult) -> Result<Listing> {
    let (programs, libraries, left_out, rule) = listed(config)?;
    p.rule = rule;
    p.programs = programs.iter().map(|(n, _)| n.clone()).collect();
    p.libraries = libraries;
    p.left_out = left_out;
    let m = manifest(tree)?;
    let count = |key: &str, pred: &dyn Fn(&serde_json::Value) -> bool| -> u64 {
        m[key]
            .as_array()
            .map_or(0, |a| a.iter().filter(|x| pred(x)).count() as u64)
    };
    p.compiles = count("compiles", &|_| true);
    p.compiles_with_bitcode = count("compiles", &|c| c["bitcode"].is_string());
    p.outputs = count("outputs", &|_| true);
    p.outputs_with_bitcode = count("outputs", &|x| x["bitcode"].is_string());
    p.dropped_flags = m["dropped_flags"].clone();
    let lib_targets = library_targets(config)?;
    p.library_modules = p
        .libraries
        .iter()
        .filter_map(|l| {
            let c = completeness(&m, l).filter(|c| c.complete.is_some())?;
            Some((l.clone(), c))
        })
        .collect();
    check_listing(r, &programs, &p.left_out)?;
    if programs.is_empty() && r.harnesses.is_empty() && lib_targets.is_empty() {
        let what = format!(
            "init --from-build listed no program ({} output(s) with bitcode, {} left out{})",
            p.outputs_with_bitcode,
            p.left_out.len(),
            if p.libraries.is_empty() {
                String::new()
            } else {
                format!("; libraries: {}", p.libraries.join(", "))
            }
        );
        if p.libraries.is_empty() {
            bail!("{what}");
        }
        return Err(LibraryOnly { what }.into());
    }
    Ok(Listing {
        programs,
        lib_targets,
        manifest: m,
    })
}

/// A module whose loading alone takes the budget on this machine (loading
/// counts against --max-time) runs again, alone, with three times it: its
/// report replaces the first one in `run`. The budget of each target run
/// again.
fn rerun_slow_loads(
    x: &Run,
    r: &Recipe,
    tree: &Path,
    run: &mut Reports,
) -> Result<std::collections::BTreeMap<String, f64>> {
    let mut budgets: std::collections::BTreeMap<String, f64> = Default::default();
    for rep in run.reports.clone() {
        if run.timed_out {
            break;
        }
        let name = rep["name"].as_str().unwrap_or("").to_string();
        let slow_load = rep["message"]
            .as_str()
            .is_some_and(|m| m.contains("did not finish within --max-time"));
        if rep["status"] == "engine-failed" && slow_load {
            let budget = 3.0 * x.budget_s;
            let again = pipeline(x, r, tree, budget, Some(&name))?;
            run.timed_out |= again.timed_out;
            run.panics.extend(again.panics);
            if let Some(a) = again
                .reports
                .into_iter()
                .find(|x| x["name"] == name.as_str())
            {
                run.reports.retain(|x| x["name"] != name.as_str());
                run.reports.push(a);
                run.differs.extend(again.differs);
                budgets.insert(name, budget);
            }
        }
    }
    Ok(budgets)
}

/// The result of one target from its report `t` (the suite's figures are
/// left for [`run_suites`]).
fn target_result(
    x: &Run,
    r: &Recipe,
    tree: &Path,
    t: &serde_json::Value,
    listing: &Listing,
    run: &Reports,
    budgets: &std::collections::BTreeMap<String, f64>,
) -> TargetResult {
    let name = t["name"].as_str().unwrap_or("").to_string();
    let module = tree
        .join("symtest-out/.build")
        .join(&name)
        .join("bc")
        .join(format!("{name}.bc"));
    let program = listing.programs.iter().find(|(n, _)| *n == name);
    let library = listing.lib_targets.iter().find(|(n, _)| *n == name);
    let artifact = program
        .or(library)
        .map(|(_, b)| b.clone())
        .or_else(|| {
            r.harnesses
                .iter()
                .find(|h| h.name == name)
                .map(|h| h.library.to_string())
        })
        .unwrap_or_default();
    let pair = |v: &serde_json::Value| (v[0].as_u64().unwrap_or(0), v[1].as_u64().unwrap_or(0));
    let status = t["status"].as_str().unwrap_or("").to_string();
    let message = t["message"].as_str().unwrap_or("");
    TargetResult {
        kind: t["kind"].as_str().unwrap_or("").into(),
        module: program
            .or(library)
            .and_then(|(_, b)| completeness(&listing.manifest, b)),
        artifact,
        paths: t["paths"].as_u64().unwrap_or(0),
        tests_written: t["tests_written"].as_u64().unwrap_or(0),
        tests_kept: t["tests_kept"].as_u64().unwrap_or(0),
        replay_differs: run.differs.get(&name).copied().unwrap_or(0),
        unconfirmed: t["unconfirmed"].as_array().map_or(0, |a| a.len() as u64),
        bugs: bug_lines(&t["bugs"]),
        lines: pair(&t["lines"]),
        unsupported: unsupported(x.bin, &module),
        budget_s: budgets.get(&name).copied().unwrap_or(x.budget_s),
        message: (!message.is_empty()).then(|| message_line(message)),
        native_disagreements: t["native_disagreements"]
            .as_array()
            .map_or(0, |a| a.len() as u64),
        panic: message.contains("panicked at") || run.panics.contains(&name),
        crash: crash_of(&status, message),
        suite_dir: t["suite_dir"].as_str().map(str::to_string),
        suite_passed: None,
        suite_failed: None,
        suite_bugs: None,
        suite_note: None,
        suite_s: None,
        status,
        name,
    }
}

/// Runs each emitted suite on the unmodified program (issue #46), within a
/// cap of its own, into its target's suite figures.
fn run_suites(dir: &Path, targets: &mut [TargetResult]) {
    let until = Instant::now() + Duration::from_secs_f64(SUITES_TIMEOUT_S);
    for t in targets {
        let Some(d) = t.suite_dir.clone() else {
            t.suite_note = Some("no suite (the report names no suite directory)".into());
            continue;
        };
        eprintln!("$ make -C {d} test");
        let s = suite::run(
            Path::new(&d),
            &dir.join(format!("suite-{}.log", t.name)),
            until,
        );
        t.suite_passed = s.passed;
        t.suite_failed = s.failed;
        t.suite_bugs = s.bugs;
        t.suite_note = s.note;
        t.suite_s = Some(s.seconds);
    }
}

/// What `cargo symtest --max-time BUDGET --jobs 1` did on the tree (one
/// target with `only`): the targets' reports in order, per target the number
/// of kept tests whose native replay differs from the engine's outcome, the
/// targets an event reported a panic on, whether the wall-clock cap stopped
/// it, and its exit status when it failed (neither 0 nor 1).
struct Reports {
    reports: Vec<serde_json::Value>,
    differs: std::collections::BTreeMap<String, u64>,
    panics: Vec<String>,
    timed_out: bool,
    failed: Option<String>,
}

fn pipeline(x: &Run, r: &Recipe, tree: &Path, budget: f64, only: Option<&str>) -> Result<Reports> {
    let dir = &x.dir;
    let tag = only.map_or(String::new(), |n| format!("-{n}"));
    let events_path = dir.join(format!("run{tag}-events.jsonl"));
    let stderr_path = dir.join(format!("run{tag}.stderr"));
    let mut cmd = Command::new(x.bin);
    // One target at a time: each has the machine for its budget (a native
    // build beside it slowed a big module's loading past 10 s).
    cmd.args(["--max-time", &budget.to_string(), "--jobs", "1"])
        .args(["--message-format", "json"]);
    if let Some(n) = only {
        cmd.args(["--target", n]);
    }
    cmd.envs(build_env(r, tree))
        .current_dir(tree)
        .stdout(std::fs::File::create(&events_path)?)
        .stderr(std::fs::File::create(&stderr_path)?);
    eprintln!(
        "$ {}  (events: {})",
        util::display(&cmd),
        events_path.display()
    );
    let status = wait_bounded(&mut cmd, x.deadline)
        .with_context(|| format!("cargo symtest on {}", r.name))?;
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let failed = match status {
        Some(s) if matches!(s.code(), Some(0 | 1)) => None,
        Some(s) => Some(format!(
            "{s}{}",
            stderr
                .lines()
                .find(|l| l.contains("panicked at"))
                .map(|l| format!(" ({})", l.trim()))
                .unwrap_or_default()
        )),
        None => None,
    };
    let mut out = Reports {
        reports: Vec::new(),
        differs: Default::default(),
        panics: Vec::new(),
        timed_out: status.is_none(),
        failed,
    };
    for v in read_events(&events_path)? {
        note_event(&v, &mut out.differs, &mut out.panics);
        if v["event"] == "target-finished" {
            out.reports.push(v["report"].clone());
        }
    }
    Ok(out)
}

/// Runs the benchmark in `o.mode`.
pub fn run(o: &Options) -> Result<()> {
    match o.mode {
        Mode::Select => corpus::select(&|r| fetch(r)),
        Mode::Corpus => runner::run(o).map(|_| ()),
        Mode::Quick => runner::quick(),
        Mode::Recipes => run_recipes(o).map(|_| ()),
    }
}

/// The eight hand recipes; writes `projects.md` and `projects.json`.
fn run_recipes(o: &Options) -> Result<Vec<ProjectResult>> {
    setup::ensure()?;
    setup::ensure_these(setup::PROJECT_PACKAGES)?;
    let root = paths::workspace_root();
    let bin = super::release_binary()?;
    let work = o
        .out
        .clone()
        .unwrap_or_else(|| super::target_dir(&root).join("bench").join("projects"));
    std::fs::create_dir_all(&work)?;
    let t = Instant::now();
    let mut results = Vec::new();
    let mut failures = Vec::new();
    for r in recipes::all() {
        if !o.only.is_empty() && !o.only.iter().any(|n| n == r.name) {
            continue;
        }
        eprintln!("bench projects: {} {}", r.name, r.version);
        let x = Run {
            bin: &bin,
            dir: work.join(r.name),
            budget_s: o.budget_s,
            plain: o.plain,
            deadline: None,
        };
        let mut p = ProjectResult::new(&r);
        let mut step = "fetch";
        match fetch(&r).and_then(|src| run_project(&x, &r, &src, &mut p, &mut step)) {
            Ok(()) => results.push(p),
            Err(e) => {
                eprintln!("bench projects: {} failed: {e:#}", r.name);
                failures.push(format!("{}: {e:#}", r.name));
            }
        }
    }
    let total_s = t.elapsed().as_secs_f64();
    report::write(&work, &results, &failures, o, total_s)?;
    if !failures.is_empty() {
        bail!(
            "{} project(s) failed:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRITTEN: &str =
        "# symtest.toml - written by `cargo symtest init --from-build -- make`.\n\
# Programs: what `make install DESTDIR=<tmp>` installs.\n\
#\n\
# Left out:\n\
#   lemon: built but not installed (a build-time helper, a test or an example)\n\
#   /dev/null: not a file (a probe of the compiler)\n\
\n\
[[target]]\n\
name = \"sqlite3\"\n\
kind = \"program\"\n\
build = [\"make\"]\n\
binary = \".libs/sqlite3\"\n\
\n\
# [[target]]\n\
# name = \"sqlite3\"\n\
# kind = \"harness\"\n\
# library = \".libs/libsqlite3.a\"\n";

    #[test]
    fn reads_what_init_listed_and_left_out() {
        let (programs, libraries, left, rule) = listed(WRITTEN).unwrap();
        assert_eq!(
            programs,
            [("sqlite3".to_string(), ".libs/sqlite3".to_string())]
        );
        assert_eq!(libraries, [".libs/libsqlite3.a"]);
        assert_eq!(left.len(), 2);
        assert_eq!(left[0].0, "lemon");
        assert!(rule.starts_with("what `make install"), "{rule}");
        let sqlite = recipes::all()
            .into_iter()
            .find(|r| r.name == "sqlite3")
            .unwrap();
        // lemon is named; mkkeywordhash and mksourceid are not: a failure.
        assert!(check_listing(&sqlite, &programs, &left).is_err());
        let all: Vec<(String, String)> = sqlite
            .not_programs
            .iter()
            .map(|p| (p.to_string(), "built but not installed".into()))
            .collect();
        assert!(check_listing(&sqlite, &programs, &all).is_ok());
        // A helper listed as a program is a failure too.
        let helper = [("lemon".to_string(), "lemon".to_string())];
        assert!(check_listing(&sqlite, &helper, &all).is_err());
    }

    #[test]
    fn engine_failures_are_told_apart() {
        let native = "native coverage build failed:\n`make` failed:\n\
                      /usr/bin/ld: x.o: in function `f':\n\
                      x.c:7: undefined reference to `g'\nmake: *** [Makefile:97: s] Error 1";
        assert_eq!(
            message_line(native),
            "native coverage build failed: x.c:7: undefined reference to `g'"
        );
        assert_eq!(message_line("the engine failed"), "the engine failed");
        let segv = "the engine was killed by signal 11 (SIGSEGV: crashed):\nlast words";
        assert_eq!(
            crash_of("engine-failed", segv).as_deref(),
            Some("the engine was killed by signal 11 (SIGSEGV: crashed)")
        );
        assert_eq!(crash_of("ok", segv), None);
        let panic = "the engine exited with code 101:\nthread 'main' panicked at src/x.rs:1:1";
        assert_eq!(crash_of("engine-failed", panic), None);
        let slow = "error: loading `x` did not finish within --max-time 5";
        assert_eq!(crash_of("engine-failed", slow), None);
    }

    fn parse(args: &[&str]) -> Result<Options, clap::Error> {
        use clap::Parser;
        Options::try_parse_from(std::iter::once("projects").chain(args.iter().copied()))
    }

    #[test]
    fn options_are_checked() {
        assert!(parse(&["--only", "zlib,jq"]).is_ok());
        assert!(parse(&["--only", "coreutils"]).is_err());
        assert!(parse(&["--budget", "0"]).is_err());
        assert!(!parse(&["--no-plain"]).unwrap().plain);
        let recipes = parse(&[]).unwrap();
        assert_eq!(recipes.mode, Mode::Recipes);
        assert_eq!(recipes.budget_s, DEFAULT_BUDGET_S);
        let corpus = parse(&["--corpus", "--only", "flog"]).unwrap();
        assert_eq!(corpus.mode, Mode::Corpus);
        assert_eq!(corpus.budget_s, CORPUS_BUDGET_S);
        assert_eq!(corpus.only, ["flog"]);
        assert!(parse(&["--shard", "1/2"]).is_err());
        assert!(parse(&["--corpus", "--shard", "3/2"]).is_err());
        assert_eq!(
            parse(&["--corpus", "--shard", "2/2"]).unwrap().shard,
            Some((2, 2))
        );
        let o = parse(&["--corpus", "--fresh", "--package-timeout", "60"]).unwrap();
        assert!(o.fresh);
        assert_eq!((o.budget_s, o.package_timeout_s), (CORPUS_BUDGET_S, 60.0));
        assert_eq!(parse(&["--budget", "5"]).unwrap().budget_s, 5.0);
        assert!(parse(&["--fresh"]).is_err());
        assert!(parse(&["--select", "--corpus"]).is_err());
        assert_eq!(parse(&["--select"]).unwrap().mode, Mode::Select);
        assert_eq!(parse(&["--quick"]).unwrap().mode, Mode::Quick);
        assert!(parse(&["--bogus"]).is_err());
        // Every recipe's harness exists.
        let dir = paths::workspace_root().join("tests/bench/projects");
        for r in recipes::all() {
            for h in r.harnesses {
                assert!(dir.join(h.source).is_file(), "{}", h.source);
            }
        }
    }
}
