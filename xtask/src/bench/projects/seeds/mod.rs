//! `cargo xtask bench seeds [--only a,b] [--budget S] [--out DIR] [--reuse]`:
//! seeds from the projects' own tests (issue #50) on the hand recipes whose
//! programs read a language: jq, gawk, lua5.4 and sqlite3.
//!
//! For each package:
//! 1. The tree is configured and captured as `bench projects` does it
//!    (`init --from-build`); its `symtest.toml` is written twice, each
//!    program target without seeds (`symtest-plain.toml`) and with the
//!    package's own test command as `seed-tests` (`symtest-seeds.toml`,
//!    [`specs`] says which command and why).
//! 2. `cargo symtest --max-time BUDGET --jobs 1` runs every program target
//!    once with each file (the same budget), then each emitted suite on the
//!    unmodified program.
//! 3. A copy of the tree is built natively with gcc's `--coverage`
//!    ([`gcov`]): the test command runs on it (the project's own tests), and
//!    the seeds, then the kept tests of each run, are replayed on it
//!    (`cargo symtest replay --native`), so that all four are lines of one
//!    build measured by one tool.
//!
//! Each package's row goes to `<out>/<package>/result.json` as soon as it is
//! done; `seeds.md` and `seeds.json` are written from every row present
//! (default `target/bench/seeds/`). `--prepare` only configures, captures
//! and makes the gcov build (no timed run: to prepare while the machine is
//! busy); `--reuse` keeps a package's captured tree and gcov build from an
//! earlier run (the runs and measurements are made again); `--report` only
//! writes `seeds.md` and `seeds.json` again from the rows present.

mod gcov;
mod report;
mod specs;

use super::bounded::wait_bounded;
use super::listing::listed;
use super::recipes::{self, Recipe};
use super::{build_env, fetch, prepared, words};
use crate::{paths, setup, util};
use anyhow::{bail, Context, Result};
use specs::Spec;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The budget per program target, as issue #50 asks.
pub const DEFAULT_BUDGET_S: f64 = 30.0;
/// The emitted suites of one run are given this many seconds.
const SUITES_TIMEOUT_S: f64 = 600.0;

const USAGE: &str =
    "usage: cargo xtask bench seeds [--only jq,gawk,lua5.4,sqlite3] [--budget SECONDS] \
     [--out DIR] [--reuse] [--prepare] [--report]";

pub struct Options {
    pub only: Vec<String>,
    pub budget_s: f64,
    pub out: Option<PathBuf>,
    /// Keep the configured and captured trees of an earlier run.
    pub reuse: bool,
    /// Only configure, capture and make the gcov build (no timed run).
    pub prepare_only: bool,
    /// Only write the report again from the rows present.
    pub report_only: bool,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options> {
        let usage =
            |m: String| -> anyhow::Error { util::UsageError(format!("{m}\n{USAGE}")).into() };
        let mut o = Options {
            only: Vec::new(),
            budget_s: DEFAULT_BUDGET_S,
            out: None,
            reuse: false,
            prepare_only: false,
            report_only: false,
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |name: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| usage(format!("{name} needs a value")))
            };
            match a.as_str() {
                "--reuse" => o.reuse = true,
                "--prepare" => o.prepare_only = true,
                "--report" => o.report_only = true,
                "--only" => {
                    o.only = value("--only")?
                        .split(',')
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect()
                }
                "--budget" => {
                    o.budget_s = crate::bench::budget_seconds(&value("--budget")?, "--budget")
                        .map_err(usage)?
                }
                "--out" => o.out = Some(PathBuf::from(value("--out")?)),
                other => return Err(usage(format!("unknown option `{other}`"))),
            }
        }
        let names: Vec<&str> = specs::all().iter().map(|s| s.package).collect();
        if let Some(p) = o.only.iter().find(|p| !names.contains(&p.as_str())) {
            return Err(usage(format!(
                "--only: `{p}` is not one of {}",
                names.join(", ")
            )));
        }
        Ok(o)
    }
}

/// One run of the pipeline on one program target.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct RunFigures {
    pub status: String,
    pub message: Option<String>,
    /// The pipeline's line coverage (covered, total): its native build of
    /// the module's sources, measured by llvm-cov over gcov's lines.
    pub lines: (u64, u64),
    pub paths: u64,
    pub tests_kept: u64,
    /// Errors confirmed natively (`kind in function at file:line`).
    pub bugs: Vec<String>,
    /// Tests whose native run disagreed with the engine (there should be none).
    pub native_disagreements: Vec<String>,
    /// Kept tests whose native replay differs from the engine's outcome.
    pub replay_differs: u64,
    pub panic: bool,
    pub explore_s: f64,
    /// The emitted suite on the unmodified program: passed, failed, failed
    /// that document a bug still present, and a note.
    pub suite: Option<(u64, u64, u64)>,
    pub suite_note: Option<String>,
}

/// The recording of a target's seeds (the `seeds` object of its report).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct SeedFigures {
    pub runs_seen: u64,
    pub runs_kept: u64,
    pub seeds: u64,
    pub truncated: u64,
    pub padded: u64,
    pub left_out: Vec<String>,
    pub tests_failed: Option<String>,
    pub dir: Option<String>,
    /// Seconds the recording and writing took (not in the budget).
    pub seconds: Option<f64>,
    /// The engine's run: recorded seeds a path followed to their end, and
    /// those that got a test of their own instead, when their path was let
    /// go or at the halt (`seeds_ended`, `seed_tests` of `stats.json`).
    #[serde(default)]
    pub ended: Option<u64>,
    #[serde(default, alias = "written_at_halt")]
    pub own_tests: Option<u64>,
}

/// One program's row.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ProgramRow {
    pub program: String,
    pub plain: RunFigures,
    pub seeded: RunFigures,
    pub seeds: SeedFigures,
    /// Lines of the program's sources on the package's own gcov build.
    pub gcov: Option<gcov::Figures>,
    pub gcov_note: Option<String>,
}

/// One package's row.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct PackageRow {
    pub package: String,
    pub version: String,
    /// The test command (or input files) the seeds come from, and why.
    pub source: String,
    pub why: String,
    pub budget_s: f64,
    pub programs: Vec<ProgramRow>,
    /// Why the package did not run to the end, if it did not.
    pub failure: Option<String>,
    pub wall_s: f64,
}

/// Runs the benchmark; writes the report from every row present.
pub fn run(o: &Options) -> Result<()> {
    setup::ensure()?;
    setup::ensure_these(setup::PROJECT_PACKAGES)?;
    setup::ensure_these(&[(
        "patchelf",
        "bench seeds: the gcov build's programs load the tree's own shared libraries",
    )])?;
    let root = paths::workspace_root();
    let work = o
        .out
        .clone()
        .unwrap_or_else(|| crate::bench::target_dir(&root).join("bench").join("seeds"));
    std::fs::create_dir_all(&work)?;
    let bin = crate::bench::bench_binary("bench seeds")?;
    let t = Instant::now();
    let chosen: Vec<Spec> = specs::all()
        .into_iter()
        .filter(|s| o.only.is_empty() || o.only.iter().any(|n| n == s.package))
        .collect();
    let packages: Vec<(&'static str, &str)> = chosen
        .iter()
        .filter_map(|s| s.inputs.as_ref())
        .map(|i| (i.package, "bench seeds: input files given as seeds"))
        .collect();
    setup::ensure_these(&packages)?;
    for spec in chosen.into_iter().filter(|_| !o.report_only) {
        let r = recipes::all()
            .into_iter()
            .find(|r| r.name == spec.package)
            .with_context(|| format!("no recipe named {}", spec.package))?;
        eprintln!("bench seeds: {} {}", r.name, r.version);
        let result = work.join(r.name).join("result.json");
        if !o.prepare_only {
            // A run stopped before the package's end leaves this row.
            std::fs::create_dir_all(work.join(r.name))?;
            let mut started = new_row(&r, &spec, o);
            started.failure =
                Some("interrupted: the run stopped before this package was done".into());
            std::fs::write(&result, serde_json::to_string_pretty(&started)?)?;
        }
        let row = run_package(&bin, &r, &spec, &work.join(r.name), o);
        if let Some(f) = &row.failure {
            eprintln!("bench seeds: {} failed: {f}", r.name);
        }
        if o.prepare_only {
            continue;
        }
        std::fs::write(&result, serde_json::to_string_pretty(&row)?)?;
    }
    if o.prepare_only {
        return Ok(());
    }
    let rows: Vec<PackageRow> = specs::all()
        .iter()
        .filter_map(|s| {
            let text = std::fs::read_to_string(work.join(s.package).join("result.json")).ok()?;
            serde_json::from_str(&text).ok()
        })
        .collect();
    report::write(&work, &rows, o, t.elapsed().as_secs_f64())?;
    let failed: Vec<String> = rows
        .iter()
        .filter_map(|r| Some(format!("{}: {}", r.package, r.failure.as_ref()?)))
        .collect();
    if !failed.is_empty() {
        bail!("{} package(s) failed:\n{}", failed.len(), failed.join("\n"));
    }
    Ok(())
}

/// A package's row before its steps.
fn new_row(r: &Recipe, spec: &Spec, o: &Options) -> PackageRow {
    let mut source = spec.shown();
    let mut why = spec.why.to_string();
    if let Some(i) = &spec.inputs {
        source.push_str(&format!(
            "; {}: seed-inputs {}/*{} (package {})",
            i.program, i.dir, i.suffix, i.package
        ));
        why.push_str(&format!("; {}'s input files: {}", i.program, i.why));
    }
    PackageRow {
        package: r.name.into(),
        version: r.version.into(),
        source,
        why,
        budget_s: o.budget_s,
        ..Default::default()
    }
}

/// One package: capture, the two runs, the gcov measurements. A package
/// that fails or runs no program says why in its row.
fn run_package(bin: &Path, r: &Recipe, spec: &Spec, dir: &Path, o: &Options) -> PackageRow {
    let t = Instant::now();
    let mut row = new_row(r, spec, o);
    if let Err(e) = package_steps(bin, r, spec, dir, o, &mut row) {
        row.failure = Some(format!("{e:#}"));
    }
    if !o.prepare_only {
        settle(&mut row);
    }
    row.wall_s = t.elapsed().as_secs_f64();
    row
}

/// A row that ran no program and has no failure says so.
fn settle(row: &mut PackageRow) {
    if row.failure.is_none() && row.programs.is_empty() {
        row.failure = Some("no program target was run".into());
    }
}

fn package_steps(
    bin: &Path,
    r: &Recipe,
    spec: &Spec,
    dir: &Path,
    o: &Options,
    row: &mut PackageRow,
) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let src = fetch(r)?;
    let tree = dir.join("tree");
    let programs = captured(bin, r, &src, &tree, dir, o.reuse)?;
    if let Some(i) = &spec.inputs {
        let n = i.copy_into(&tree)?;
        eprintln!(
            "bench seeds: {n} input file(s) of {} from {}",
            i.program, i.dir
        );
    }
    let init_config = std::fs::read_to_string(tree.join("symtest.init.toml"))?;
    let plain_config = tree.join("symtest-plain.toml");
    let seeds_config = tree.join("symtest-seeds.toml");
    std::fs::write(&plain_config, specs::config(&init_config, None, &tree)?)?;
    std::fs::write(
        &seeds_config,
        specs::config(&init_config, Some(spec), &tree)?,
    )?;
    let build = gcov::Build::make(r, &src, &dir.join("gcov"), dir, o.reuse);
    if o.prepare_only {
        build?;
        return Ok(());
    }
    let names: Vec<String> = programs.iter().map(|(n, _)| n.clone()).collect();
    let env = build_env(r, &tree);
    let plain = pipeline(
        bin,
        &tree,
        &plain_config,
        "plain",
        &names,
        o.budget_s,
        &env,
        dir,
    )?;
    let seeded = pipeline(
        bin,
        &tree,
        &seeds_config,
        "seeds",
        &names,
        o.budget_s,
        &env,
        dir,
    )?;
    for (name, _) in &programs {
        row.programs.push(ProgramRow {
            program: name.clone(),
            plain: plain.figures(name),
            seeded: seeded.figures(name),
            seeds: seeded.seeds(name),
            ..Default::default()
        });
    }
    let measured = build
        .and_then(|b| measure_all(bin, &b, spec, &programs, [&plain, &seeded], &tree, dir, row));
    if let Err(e) = measured {
        let note = format!("the gcov build or its test command failed: {e:#}");
        for p in row.programs.iter_mut().filter(|p| p.gcov.is_none()) {
            p.gcov_note.get_or_insert(note.clone());
        }
    }
    Ok(())
}

/// The gcov build, the project's tests on it, and each program's figures.
#[allow(clippy::too_many_arguments)]
fn measure_all(
    bin: &Path,
    build: &gcov::Build,
    spec: &Spec,
    programs: &[(String, String)],
    runs: [&Reports; 2],
    tree: &Path,
    dir: &Path,
    row: &mut PackageRow,
) -> Result<()> {
    let mut paths = Vec::new();
    for (name, binary) in programs {
        paths.push((name.clone(), build.program(binary)?));
    }
    let tests = build.project_tests(spec, &paths, dir)?;
    for (p, (name, program)) in row.programs.iter_mut().zip(&paths) {
        let t = tests.get(name).cloned().unwrap_or_default();
        match measure(bin, build, &t, program, name, runs, tree, dir) {
            Ok(f) => p.gcov = Some(f),
            Err(e) => p.gcov_note = Some(format!("{e:#}")),
        }
    }
    Ok(())
}

/// The gcov figures of one program: the project's tests, the seeds alone,
/// and the kept tests of each run, replayed on the gcov build.
#[allow(clippy::too_many_arguments)]
fn measure(
    bin: &Path,
    build: &gcov::Build,
    tests: &gcov::Lines,
    program: &Path,
    name: &str,
    runs: [&Reports; 2],
    tree: &Path,
    dir: &Path,
) -> Result<gcov::Figures> {
    let files = runs[1]
        .lcov_files(name, tree)
        .or_else(|| runs[0].lcov_files(name, tree))
        .with_context(|| format!("no coverage report of `{name}` names its sources"))?;
    let seed_dir = runs[1].seeds(name).dir.map(PathBuf::from);
    let work = dir.join(format!("replay-{name}"));
    let seeds = match &seed_dir {
        Some(d) => build.replayed(bin, program, d, &work.join("seeds-alone"))?,
        None => gcov::Lines::default(),
    };
    let mut kept = Vec::new();
    for (tag, run) in ["plain", "seeds"].iter().zip(runs) {
        // A run that failed kept no test: no line.
        kept.push(match run.out_dir(name) {
            Some(out) => build.replayed(bin, program, &out, &work.join(format!("kept-{tag}")))?,
            None => gcov::Lines::new(),
        });
    }
    Ok(gcov::Figures::of(&files, tests, &seeds, &kept[0], &kept[1]))
}

/// Configures and captures the tree as `bench projects` does (unless
/// `reuse` and it is there); the program targets `init` listed, as (name,
/// binary). The config `init` wrote is kept as `symtest.init.toml`.
fn captured(
    bin: &Path,
    r: &Recipe,
    src: &Path,
    tree: &Path,
    dir: &Path,
    reuse: bool,
) -> Result<Vec<(String, String)>> {
    let init = tree.join("symtest.init.toml");
    if !(reuse && init.is_file()) {
        prepared(r, src, tree, &dir.join("configure.log"), None)?;
        let build = words(r, tree);
        util::run_logged(
            Command::new(bin)
                .args(["init", "--from-build", "--"])
                .args(&build)
                .envs(build_env(r, tree))
                .current_dir(tree),
            &dir.join("init.log"),
        )
        .with_context(|| format!("cargo symtest init --from-build on {}", r.name))?;
        std::fs::copy(tree.join("symtest.toml"), &init)?;
    }
    let (programs, ..) = listed(&std::fs::read_to_string(&init)?)?;
    if programs.is_empty() {
        bail!("init --from-build listed no program");
    }
    Ok(programs)
}

/// What one `cargo symtest` run reported: per target its report, the kept
/// tests whose native replay differs, whether an event told of a panic, and
/// its suite's run.
struct Reports {
    reports: BTreeMap<String, serde_json::Value>,
    differs: BTreeMap<String, u64>,
    panics: Vec<String>,
    suites: BTreeMap<String, super::suite::SuiteRun>,
}

impl Reports {
    fn figures(&self, name: &str) -> RunFigures {
        let Some(t) = self.reports.get(name) else {
            return RunFigures {
                status: "missing".into(),
                message: Some("the run reported nothing for this target".into()),
                ..Default::default()
            };
        };
        let strings = |v: &serde_json::Value| -> Vec<String> {
            v.as_array()
                .into_iter()
                .flatten()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                .collect()
        };
        let message = t["message"].as_str().unwrap_or("");
        let suite = self.suites.get(name);
        RunFigures {
            status: t["status"].as_str().unwrap_or("").into(),
            message: (!message.is_empty()).then(|| super::message_line(message)),
            lines: (
                t["lines"][0].as_u64().unwrap_or(0),
                t["lines"][1].as_u64().unwrap_or(0),
            ),
            paths: t["paths"].as_u64().unwrap_or(0),
            tests_kept: t["tests_kept"].as_u64().unwrap_or(0),
            bugs: super::bug_lines(&t["bugs"]),
            native_disagreements: strings(&t["native_disagreements"]),
            replay_differs: self.differs.get(name).copied().unwrap_or(0),
            panic: message.contains("panicked at") || self.panics.iter().any(|p| p == name),
            explore_s: t["explore_s"].as_f64().unwrap_or(0.0),
            suite: suite.and_then(|s| Some((s.passed?, s.failed?, s.bugs?))),
            suite_note: suite.and_then(|s| s.note.clone()),
        }
    }

    fn seeds(&self, name: &str) -> SeedFigures {
        let s = self.reports.get(name).map(|t| &t["seeds"]);
        let Some(s) = s.filter(|s| s.is_object()) else {
            return SeedFigures::default();
        };
        let n = |k: &str| s[k].as_u64().unwrap_or(0);
        let stats: serde_json::Value = self
            .out_dir(name)
            .and_then(|d| std::fs::read_to_string(d.join("stats.json")).ok())
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        SeedFigures {
            runs_seen: n("runs_seen"),
            runs_kept: n("runs_kept"),
            seeds: n("seeds"),
            truncated: n("truncated"),
            padded: n("padded"),
            left_out: s["left_out"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect(),
            tests_failed: s["tests_failed"].as_str().map(str::to_string),
            dir: s["dir"].as_str().map(str::to_string),
            seconds: self.reports[name]["stage_s"]["seeds"].as_f64(),
            ended: stats["seeds_ended"].as_u64(),
            own_tests: stats["seed_tests"].as_u64(),
        }
    }

    /// Where the run wrote the target's results (`None` when they are an
    /// earlier run's: this one failed).
    fn out_dir(&self, name: &str) -> Option<PathBuf> {
        let r = self.reports.get(name)?;
        if r["stale_results"].as_bool() == Some(true) {
            return None;
        }
        r["out_dir"].as_str().map(PathBuf::from)
    }

    /// The sources of the target's coverage report (`lcov.info`), relative
    /// to the tree.
    fn lcov_files(&self, name: &str, tree: &Path) -> Option<Vec<String>> {
        let lcov = std::fs::read_to_string(self.out_dir(name)?.join("coverage/lcov.info")).ok()?;
        let files: Vec<String> = lcov
            .lines()
            .filter_map(|l| l.strip_prefix("SF:"))
            .filter_map(|f| Some(Path::new(f).strip_prefix(tree).ok()?.display().to_string()))
            .collect();
        (!files.is_empty()).then_some(files)
    }
}

/// `cargo symtest --config CONFIG --out-dir symtest-out-TAG --max-time
/// BUDGET --jobs 1` on the program targets `names`, then each emitted suite
/// on the unmodified program (the suites of one run are overwritten by the
/// next, so each is run at once).
#[allow(clippy::too_many_arguments)]
fn pipeline(
    bin: &Path,
    tree: &Path,
    config: &Path,
    tag: &str,
    names: &[String],
    budget: f64,
    env: &[(String, String)],
    dir: &Path,
) -> Result<Reports> {
    // The build root is the out-dir's `.build`: there, the one `init` left
    // with its capture.
    let out_root = tree.join(format!("symtest-out-{tag}"));
    std::fs::create_dir_all(&out_root)?;
    let link = out_root.join(".build");
    match std::fs::symlink_metadata(&link) {
        Ok(m) if m.file_type().is_symlink() => {}
        Ok(_) => {
            std::fs::remove_dir_all(&link)?;
            std::os::unix::fs::symlink(tree.join("symtest-out/.build"), &link)?;
        }
        Err(_) => std::os::unix::fs::symlink(tree.join("symtest-out/.build"), &link)?,
    }
    // The suites an earlier run emitted (and ran) go: the pipeline leaves a
    // suite directory that holds files it did not write as it is.
    for n in names {
        let suite = tree.join("tests/symtest").join(n);
        if suite.is_dir() {
            std::fs::remove_dir_all(&suite)
                .with_context(|| format!("removing {}", suite.display()))?;
        }
    }
    let events_path = dir.join(format!("run-{tag}-events.jsonl"));
    let stderr_path = dir.join(format!("run-{tag}.stderr"));
    let mut cmd = Command::new(bin);
    cmd.arg("--config")
        .arg(config)
        .arg("--out-dir")
        .arg(&out_root)
        .args(["--max-time", &budget.to_string(), "--jobs", "1"])
        .args(["--message-format", "json"]);
    for n in names {
        cmd.args(["--target", n]);
    }
    cmd.envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(tree)
        .stdout(std::fs::File::create(&events_path)?)
        .stderr(std::fs::File::create(&stderr_path)?);
    eprintln!(
        "$ {}  (events: {})",
        util::display(&cmd),
        events_path.display()
    );
    let status = wait_bounded(&mut cmd, None)?;
    if let Some(s) = status.filter(|s| !matches!(s.code(), Some(0 | 1))) {
        bail!(
            "cargo symtest ({tag}) exited {s} (see {})",
            stderr_path.display()
        );
    }
    let mut out = Reports {
        reports: BTreeMap::new(),
        differs: BTreeMap::new(),
        panics: Vec::new(),
        suites: BTreeMap::new(),
    };
    for v in super::read_events(&events_path)? {
        super::note_event(&v, &mut out.differs, &mut out.panics);
        if v["event"] == "target-finished" {
            let name = v["report"]["name"].as_str().unwrap_or("").to_string();
            out.reports.insert(name, v["report"].clone());
        }
    }
    let until = Instant::now() + Duration::from_secs_f64(SUITES_TIMEOUT_S);
    for (name, rep) in &out.reports {
        if let Some(d) = rep["suite_dir"].as_str() {
            eprintln!("$ make -C {d} test");
            let log = dir.join(format!("suite-{tag}-{name}.log"));
            out.suites
                .insert(name.clone(), super::suite::run(Path::new(d), &log, until));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked() {
        let o = Options::parse(&["--only".into(), "jq,gawk".into(), "--reuse".into()]).unwrap();
        assert_eq!(o.only, ["jq", "gawk"]);
        assert!(o.reuse && !o.prepare_only);
        assert_eq!(o.budget_s, DEFAULT_BUDGET_S);
        assert!(Options::parse(&["--only".into(), "zlib".into()]).is_err());
        assert!(Options::parse(&["--budget".into(), "0".into()]).is_err());
        assert!(Options::parse(&["--out".into()]).is_err());
        assert!(Options::parse(&["--prepare".into()]).unwrap().prepare_only);
        assert!(Options::parse(&["--report".into()]).unwrap().report_only);
    }

    /// A package that ran no program, or whose run was stopped before its
    /// end, has a row with the reason.
    #[test]
    fn a_package_without_programs_says_why() {
        let o = Options::parse(&[]).unwrap();
        let spec = specs::all()
            .into_iter()
            .find(|s| s.package == "sqlite3")
            .unwrap();
        let r = recipes::all()
            .into_iter()
            .find(|r| r.name == "sqlite3")
            .unwrap();
        let mut row = new_row(&r, &spec, &o);
        settle(&mut row);
        assert_eq!(row.failure.as_deref(), Some("no program target was run"));
        let mut failed = new_row(&r, &spec, &o);
        failed.failure = Some("the test command failed\nmore".into());
        settle(&mut failed);
        assert_eq!(
            failed.failure.as_deref(),
            Some("the test command failed\nmore")
        );
        let work = std::env::temp_dir().join(format!("seeds-report-{}", std::process::id()));
        std::fs::create_dir_all(&work).unwrap();
        report::write(&work, &[row, failed], &o, 1.0).unwrap();
        let md = std::fs::read_to_string(work.join("seeds.md")).unwrap();
        let _ = std::fs::remove_dir_all(&work);
        assert!(
            md.contains("| sqlite3 | - | failed: no program target was run |"),
            "{md}"
        );
        assert!(
            md.contains("| sqlite3 | - | failed: the test command failed |"),
            "{md}"
        );
        let lua = specs::all()
            .into_iter()
            .find(|s| s.package == "lua5.4")
            .unwrap();
        let r = recipes::all()
            .into_iter()
            .find(|r| r.name == "lua5.4")
            .unwrap();
        assert!(new_row(&r, &lua, &o).source.contains("lua5.1-doc"));
    }
}
