//! `cargo xtask bench mutation [--quick] [--only a,b] [--mutants N] [--seed S]
//! [--budget S] [--out DIR]`: how many seeded faults the emitted regression
//! suites catch.
//!
//! Mutants come from a real mutation tool, universalmutator (PyPI), installed
//! by this benchmark into its own virtual environment under the cache. Per
//! target, `cargo symtest` runs on a project as a user runs it; then a seeded
//! sample of the mutants of the code under test is put in place one at a
//! time, the suite is rebuilt by its own Makefile (a mutant that does not
//! compile is left out) and run twice: with its whole oracle (exit status,
//! stdout, stderr, files) and with exit statuses only (`--exit-only`, the
//! oracle suites had before). For GNU coreutils the utility's own tests run
//! on each mutant too (`make check TESTS=tests/misc/<u>.pl` on the rebuilt
//! program), beside the suite's. Survivors are listed by line, marked when
//! the kept tests execute that line.
//!
//! Targets: the demo's `wc` (tests/utils/wc.c, as `cargo xtask demo` runs it),
//! ten coreutils utilities that have a test script of their own, and two
//! libraries run as `kind = "library"` targets with no harness (cJSON and
//! zlib, see [`library`]): their mutants are sampled over every source file
//! of the library that the suite compiles.

mod library;

use crate::{paths, setup, util};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Coreutils utilities of the benchmark, each with its own test script.
pub const COREUTILS: &[(&str, &str)] = &[
    ("basename", "tests/misc/basename.pl"),
    ("dirname", "tests/misc/dirname.pl"),
    ("uniq", "tests/misc/uniq.pl"),
    ("paste", "tests/misc/paste.pl"),
    ("fold", "tests/misc/fold.pl"),
    ("expand", "tests/misc/expand.pl"),
    ("unexpand", "tests/misc/unexpand.pl"),
    ("cut", "tests/misc/cut.pl"),
    ("comm", "tests/misc/comm.pl"),
    ("tac", "tests/misc/tac.pl"),
];
/// The mutation tool, pinned.
const UNIVERSALMUTATOR: &str = "universalmutator==1.14.1";
/// The options of `bench mutation`.
#[derive(clap::Parser)]
pub struct Options {
    /// 10 mutants per coreutils utility and per library and, without
    /// --only, two utilities beside wc
    #[arg(long)]
    pub quick: bool,
    /// Only these targets (comma-separated): wc, the coreutils utilities
    /// and the libraries of the benchmark
    #[arg(long, value_name = "A,B", value_delimiter = ',', value_parser = target)]
    pub only: Vec<String>,
    /// Mutants sampled per target (before those that do not compile are left
    /// out), 1..=10000 [default: 100 for wc and per library, 40 per
    /// coreutils utility]
    #[arg(long, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000))]
    pub mutants: Option<usize>,
    /// Seed of the sampling of the mutants
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Seconds of exploration per target, 0 < S <= 86400 [default: 20 for wc,
    /// 60 for the coreutils project and per library]
    #[arg(long = "budget", value_name = "SECONDS", value_parser = super::seconds)]
    pub budget_s: Option<f64>,
    /// Where the projects and the reports go [default: target/bench/mutation]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// An `--only` value: a target of the benchmark.
fn target(t: &str) -> std::result::Result<String, String> {
    if t == "wc"
        || COREUTILS.iter().any(|(u, _)| *u == t)
        || library::LIBRARIES.iter().any(|l| l.name == t)
    {
        Ok(t.to_string())
    } else {
        Err(format!("`{t}` is not a target of the benchmark"))
    }
}

/// One target's mutation figures.
#[derive(Default)]
pub struct Score {
    pub target: String,
    pub sampled: usize,
    pub compiling: usize,
    /// Killed by the suite's whole oracle / by exit statuses only / by the
    /// project's own tests (None: the project has none here).
    pub killed: usize,
    pub killed_exit_only: usize,
    pub killed_own: Option<usize>,
    /// Survivors of the whole oracle: (file, line, the kept tests execute
    /// it).
    pub survivors: Vec<(String, u32, bool)>,
    /// The source files mutated.
    pub files: usize,
    pub tests_kept: u64,
    pub seconds: f64,
}

fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

/// The mutation tool: universalmutator in a virtual environment of its own
/// (made once in the cache), run as `python -m`, so the environment works
/// wherever it was made.
fn mutate_tool() -> Result<Vec<PathBuf>> {
    let venv = paths::cache_dir().join("mutation-venv");
    let python = venv.join("bin/python3");
    let cmd = vec![
        python.clone(),
        PathBuf::from("-c"),
        PathBuf::from("import sys; from universalmutator.genmutants import main; sys.argv[0] = 'mutate'; sys.exit(main())"),
    ];
    if python.is_file() && venv.join("installed").is_file() {
        return Ok(cmd);
    }
    let partial = paths::cache_dir().join(format!("mutation-venv.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&partial);
    util::run(Command::new("python3").args(["-m", "venv"]).arg(&partial))
        .context("python3 -m venv (Debian: python3-venv)")?;
    util::run(Command::new(partial.join("bin/python3")).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        UNIVERSALMUTATOR,
    ]))
    .context("installing universalmutator from PyPI")?;
    std::fs::write(partial.join("installed"), UNIVERSALMUTATOR)?;
    let _ = std::fs::remove_dir_all(&venv);
    std::fs::rename(&partial, &venv)
        .with_context(|| format!("moving {} into place", partial.display()))?;
    Ok(cmd)
}

/// Every mutant of `src`, written under `dir` by the mutation tool.
fn generate(tool: &[PathBuf], src: &Path, dir: &Path) -> Result<Vec<PathBuf>> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)?;
    let o = Command::new(&tool[0])
        .args(&tool[1..])
        .arg(src)
        .args(["--noCheck", "--mutantDir"])
        .arg(dir)
        .current_dir(dir)
        .output()
        .context("running universalmutator's mutate")?;
    if !o.status.success() {
        bail!(
            "mutate {} failed: {}",
            src.display(),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(".mutant."))
        .collect();
    all.sort();
    Ok(all)
}

/// A seeded sample of `n` mutants of `src` (files written under `dir`).
fn sample(tool: &[PathBuf], src: &Path, dir: &Path, n: usize, seed: u64) -> Result<Vec<PathBuf>> {
    let mut all = generate(tool, src, dir)?;
    // Fisher-Yates with a fixed LCG: the same seed picks the same mutants.
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for i in (1..all.len()).rev() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = (state >> 33) as usize % (i + 1);
        all.swap(i, j);
    }
    // The rest go: mutate writes every mutant (a copy of the file each; on
    // coreutils' larger sources, gigabytes per target).
    for p in all.iter().skip(n) {
        let _ = std::fs::remove_file(p);
    }
    all.truncate(n);
    Ok(all)
}

/// The sampling key of a mutant: a hash of the seed, its file and its name,
/// so that the keys of all the files' mutants are drawn alike.
fn key(seed: u64, rel: &str, mutant: &Path) -> u64 {
    let name = mutant.file_name().map(|n| n.to_string_lossy().into_owned());
    let mut h: u64 = 0xcbf29ce484222325 ^ seed.wrapping_mul(0x9e3779b97f4a7c15);
    for b in rel
        .bytes()
        .chain([0])
        .chain(name.unwrap_or_default().bytes())
    {
        h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }
    // A final mix (splitmix64's), so that close names get far keys.
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d049bb133111eb);
    h ^ (h >> 31)
}

/// A seeded sample of `n` mutants over the source files `rels` of `project`,
/// each mutant as likely as any other whatever its file: the `n` smallest
/// keys. One file at a time, only its `n` smallest stay on disk.
fn sample_files(
    tool: &[PathBuf],
    project: &Path,
    rels: &[String],
    dir: &Path,
    n: usize,
    seed: u64,
) -> Result<Vec<(String, PathBuf)>> {
    if let [rel] = rels {
        let all = sample(tool, &project.join(rel), dir, n, seed)?;
        return Ok(all.into_iter().map(|m| (rel.clone(), m)).collect());
    }
    let _ = std::fs::remove_dir_all(dir);
    let mut kept: Vec<(u64, String, PathBuf)> = Vec::new();
    for (i, rel) in rels.iter().enumerate() {
        let mut all: Vec<(u64, String, PathBuf)> =
            generate(tool, &project.join(rel), &dir.join(format!("f{i:03}")))?
                .into_iter()
                .map(|m| (key(seed, rel, &m), rel.clone(), m))
                .collect();
        all.sort();
        for (_, _, p) in all.iter().skip(n) {
            let _ = std::fs::remove_file(p);
        }
        all.truncate(n);
        kept.extend(all);
    }
    kept.sort();
    for (_, _, p) in kept.iter().skip(n) {
        let _ = std::fs::remove_file(p);
    }
    kept.truncate(n);
    Ok(kept.into_iter().map(|(_, r, p)| (r, p)).collect())
}

/// The first line where `mutant` differs from `original`.
fn mutated_line(original: &str, mutant: &str) -> u32 {
    original
        .lines()
        .zip(mutant.lines())
        .position(|(a, b)| a != b)
        .map_or(0, |i| i as u32 + 1)
}

/// Lines the kept tests execute, from the pipeline's `.gcov` text of `rel`.
fn covered_lines(out_dir: &Path, rel: &str) -> BTreeSet<u32> {
    let name = format!("{}.gcov", rel.replace('/', "#"));
    let text = std::fs::read_to_string(out_dir.join("coverage").join(name)).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let mut p = l.splitn(3, ':');
            let count = p.next()?.trim();
            let line: u32 = p.next()?.trim().parse().ok()?;
            (line > 0 && count != "-" && count != "#####").then_some(line)
        })
        .collect()
}

/// Runs `cmd` silently; false when it fails or outlasts `timeout` (then its
/// whole process group is killed: a mutant that loops under `make check`
/// is a grandchild of the make).
fn quiet(cmd: &mut Command, timeout: Duration) -> Result<bool> {
    use std::os::unix::process::CommandExt;
    let mut child = cmd
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", util::display(cmd)))?;
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait()? {
            return Ok(s.success());
        }
        if start.elapsed() > timeout {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            return Ok(false);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The suite's verdict on the code as it is now: true when it passes.
fn suite_passes(suite: &Path, extra: &[&str]) -> Result<bool> {
    quiet(
        Command::new("./symtest_suite")
            .args(["--no-bugs", "--quiet", "--timeout", "3"])
            .args(extra)
            .current_dir(suite),
        Duration::from_secs(600),
    )
}

/// What one target's score is about.
struct Subject<'a> {
    target: &'a str,
    /// The project, and the source files to mutate (relative to it).
    project: &'a Path,
    rels: &'a [String],
    /// The emitted suite, and the target's results (coverage).
    suite: &'a Path,
    out_dir: &'a Path,
}

/// Checks the unmodified code: the suite builds and passes (else nothing
/// after means anything); returns whether the project's own tests (`own`)
/// pass on it.
fn unmodified(target: &str, suite: &Path, own: Option<&dyn Fn() -> Result<bool>>) -> Result<bool> {
    if !quiet(
        Command::new("make").current_dir(suite),
        Duration::from_secs(600),
    )? || !suite_passes(suite, &[])?
    {
        bail!("{target}: the suite does not pass on the unmodified code");
    }
    let own_ok = match own {
        Some(f) => f()?,
        None => false,
    };
    if own.is_some() && !own_ok {
        eprintln!("bench mutation: {target}: the project's own tests fail on the unmodified code; not scored");
    }
    Ok(own_ok)
}

/// Mutation figures of source files of a project and its suite. `own`
/// runs the project's own tests on the current code (true: they pass).
fn score(
    subject: &Subject,
    tool: &[PathBuf],
    work: &Path,
    n: usize,
    seed: u64,
    own: Option<&dyn Fn() -> Result<bool>>,
) -> Result<Score> {
    let Subject {
        target,
        project,
        rels,
        suite,
        out_dir,
    } = *subject;
    let started = Instant::now();
    let mut originals = std::collections::BTreeMap::new();
    let mut covered = std::collections::BTreeMap::new();
    for rel in rels {
        originals.insert(rel.as_str(), std::fs::read_to_string(project.join(rel))?);
        covered.insert(rel.as_str(), covered_lines(out_dir, rel));
    }
    let dir = work.join(format!("mutants-{target}"));
    let mutants = sample_files(tool, project, rels, &dir, n, seed)?;
    let mut s = Score {
        target: target.to_string(),
        sampled: mutants.len(),
        files: rels.len(),
        killed_own: own.map(|_| 0),
        ..Score::default()
    };
    let own_ok = unmodified(target, suite, own)?;
    if own.is_some() && !own_ok {
        s.killed_own = None;
    }
    let restore = || -> Result<()> {
        for (rel, text) in &originals {
            let path = project.join(rel);
            if std::fs::read_to_string(&path)? != *text {
                std::fs::write(&path, text)?;
            }
        }
        Ok(())
    };
    for (k, (rel, m)) in mutants.iter().enumerate() {
        let text = std::fs::read_to_string(m)?;
        std::fs::write(project.join(rel), &text)?;
        let built = quiet(
            Command::new("make").current_dir(suite),
            Duration::from_secs(600),
        );
        let built = match built {
            Ok(b) => b,
            Err(e) => {
                restore()?;
                return Err(e);
            }
        };
        if built {
            s.compiling += 1;
            let full = !suite_passes(suite, &[])?;
            let exit_only = !suite_passes(suite, &["--exit-only"])?;
            s.killed += usize::from(full);
            s.killed_exit_only += usize::from(exit_only);
            if own_ok {
                if let (Some(f), Some(c)) = (own, s.killed_own.as_mut()) {
                    *c += usize::from(!f()?);
                }
            }
            if !full {
                let line = mutated_line(&originals[rel.as_str()], &text);
                let run = covered[rel.as_str()].contains(&line);
                s.survivors.push((rel.clone(), line, run));
            }
        }
        restore()?;
        if (k + 1) % 10 == 0 {
            eprintln!(
                "bench mutation: {target}: {}/{} mutants, {} compile, {} killed",
                k + 1,
                mutants.len(),
                s.compiling,
                s.killed
            );
        }
    }
    restore()?;
    // Back to the unmodified build.
    let _ = quiet(
        Command::new("make").current_dir(suite),
        Duration::from_secs(600),
    );
    s.seconds = started.elapsed().as_secs_f64();
    Ok(s)
}

/// `cargo symtest` on `dir` (its symtest.toml), one target at a time, with
/// `env` (the project's build environment) added to its environment.
fn pipeline(
    bin: &Path,
    dir: &Path,
    budget: f64,
    log: &Path,
    env: &[(String, String)],
) -> Result<()> {
    let o = Command::new(bin)
        .args(["symtest", "--jobs", "1", "--max-time"])
        .arg(budget.to_string())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(dir)
        .output()
        .context("running cargo-symtest")?;
    std::fs::write(log, [o.stdout.as_slice(), o.stderr.as_slice()].concat())?;
    if !matches!(o.status.code(), Some(0 | 1)) {
        bail!("cargo symtest failed ({}), see {}", o.status, log.display());
    }
    Ok(())
}

fn kept(out_dir: &Path) -> u64 {
    std::fs::read_to_string(out_dir.join("summary.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v["tests_kept"].as_u64())
        .unwrap_or(0)
}

/// The demo's wc target, as `cargo xtask demo` configures it: its
/// mutation score over `n` mutants.
fn score_wc(o: &Options, bin: &Path, tool: &[PathBuf], work: &Path, n: usize) -> Result<Score> {
    let dir = work.join("wc");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    std::fs::copy(
        paths::workspace_root().join("tests/utils/wc.c"),
        dir.join("wc.c"),
    )?;
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"wc\"\nkind = \"program\"\nsources = [\"wc.c\"]\n\
         args = [\"--sym-args\", \"0\", \"2\", \"2\", \"--sym-files\", \"1\", \"4\", \"--sym-stdin\", \"4\"]\n",
    )?;
    eprintln!("bench mutation: wc: cargo symtest");
    pipeline(
        bin,
        &dir,
        o.budget_s.unwrap_or(20.0),
        &work.join("wc.log"),
        &[],
    )?;
    let out = dir.join("symtest-out/wc");
    let subject = Subject {
        target: "wc",
        project: &dir,
        rels: &["wc.c".to_string()],
        suite: &dir.join("tests/symtest/wc"),
        out_dir: &out,
    };
    let mut s = score(&subject, tool, work, n, o.seed, None)?;
    s.tests_kept = kept(&out);
    Ok(s)
}

pub fn run(o: &Options) -> Result<Vec<Score>> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let bin = super::bench_binary("bench mutation")?;
    let tool = mutate_tool()?;
    let work = o
        .out
        .clone()
        .unwrap_or_else(|| super::target_dir(&root).join("bench").join("mutation"));
    std::fs::create_dir_all(&work)?;
    let wanted = |t: &str| o.only.is_empty() || o.only.iter().any(|x| x == t);
    let n_wc = o.mutants.unwrap_or(100);
    let n_cu = o.mutants.unwrap_or(if o.quick { 10 } else { 40 });
    let mut scores = Vec::new();
    if wanted("wc") {
        scores.push(score_wc(o, &bin, &tool, &work, n_wc)?);
    }
    let utils: Vec<(&str, &str)> = COREUTILS
        .iter()
        .copied()
        .filter(|(u, _)| wanted(u))
        .take(if o.quick && o.only.is_empty() {
            2
        } else {
            usize::MAX
        })
        .collect();
    if !utils.is_empty() {
        let (dir, _) = super::coreutils::project(&work, false)?;
        let names: Vec<&str> = utils.iter().map(|(u, _)| *u).collect();
        std::fs::write(dir.join("symtest.toml"), super::coreutils::config(&names))?;
        eprintln!(
            "bench mutation: coreutils: cargo symtest on {}",
            names.join(" ")
        );
        pipeline(
            &bin,
            &dir,
            o.budget_s.unwrap_or(60.0),
            &work.join("coreutils.log"),
            &[],
        )?;
        for (u, script) in utils {
            let out = dir.join("symtest-out").join(u);
            if !out.join("summary.json").is_file() {
                eprintln!("bench mutation: {u}: no results, left out");
                continue;
            }
            let d = dir.clone();
            let own = move || -> Result<bool> {
                if !quiet(
                    Command::new("make").arg(format!("src/{u}")).current_dir(&d),
                    Duration::from_secs(600),
                )? {
                    return Ok(false);
                }
                quiet(
                    Command::new("make")
                        .args(["check", "SUBDIRS=.", "VERBOSE=no"])
                        .arg(format!("TESTS={script}"))
                        .current_dir(&d),
                    Duration::from_secs(180),
                )
            };
            let rels = [format!("src/{u}.c")];
            let subject = Subject {
                target: u,
                project: &dir,
                rels: &rels,
                suite: &dir.join("tests/symtest").join(u),
                out_dir: &out,
            };
            let mut s = score(&subject, &tool, &work, n_cu, o.seed, Some(&own))?;
            s.tests_kept = kept(&out);
            scores.push(s);
        }
    }
    let n_lib = o.mutants.unwrap_or(if o.quick { 10 } else { 100 });
    for lib in library::LIBRARIES.iter().filter(|l| wanted(l.name)) {
        scores.push(library::score_library(lib, o, &bin, &tool, &work, n_lib)?);
    }
    write_report(&work, &scores, o)?;
    Ok(scores)
}

fn write_report(work: &Path, scores: &[Score], o: &Options) -> Result<()> {
    let mut md = format!(
        "Mutation scores (universalmutator, seed {}): per target a seeded sample of its mutants; \
         a mutant that does not compile is left out. `suite` compares exit status, stdout, stderr \
         and files; `exit only` compares exit statuses, the oracle suites had before; `own tests` \
         are the project's (coreutils: the utility's test script through `make check`).\n\n\
         | target | kept tests | mutants (compiling) | suite | exit only | own tests | survivors on lines the kept tests run | minutes |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
        o.seed
    );
    for s in scores {
        let covered = s.survivors.iter().filter(|(_, _, c)| *c).count();
        md.push_str(&format!(
            "| {} | {} | {} ({}) | {:.0}% ({}) | {:.0}% ({}) | {} | {} of {} | {:.1} |\n",
            s.target,
            s.tests_kept,
            s.sampled,
            s.compiling,
            pct(s.killed, s.compiling),
            s.killed,
            pct(s.killed_exit_only, s.compiling),
            s.killed_exit_only,
            s.killed_own.map_or("-".to_string(), |k| format!(
                "{:.0}% ({k})",
                pct(k, s.compiling)
            )),
            covered,
            s.survivors.len(),
            s.seconds / 60.0
        ));
    }
    md.push_str("\nSurvivors by line (`*`: a kept test executes the line):\n\n");
    for s in scores {
        let lines: Vec<String> = s
            .survivors
            .iter()
            .map(|(f, l, c)| survivor(s.files, f, *l, *c))
            .collect();
        md.push_str(&format!("- {}: {}\n", s.target, lines.join(", ")));
    }
    std::fs::write(work.join("mutation.md"), &md)?;
    let j: Vec<Value> = scores
        .iter()
        .map(|s| {
            json!({"target": s.target, "tests_kept": s.tests_kept, "sampled": s.sampled,
                "compiling": s.compiling, "killed": s.killed, "killed_exit_only": s.killed_exit_only,
                "killed_own": s.killed_own, "survivors": s.survivors, "seconds": s.seconds})
        })
        .collect();
    std::fs::write(
        work.join("mutation.json"),
        serde_json::to_string_pretty(&json!({"seed": o.seed, "targets": j}))?,
    )?;
    println!("{md}");
    eprintln!(
        "bench mutation: report in {}",
        work.join("mutation.md").display()
    );
    Ok(())
}

/// A survivor in the report: its line, after its file when the target has
/// several; `*` when a kept test executes it.
fn survivor(files: usize, file: &str, line: u32, covered: bool) -> String {
    let star = if covered { "*" } else { "" };
    if files > 1 {
        format!("{file}:{line}{star}")
    } else {
        format!("{line}{star}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn options_and_lines() {
        assert!(Options::try_parse_from(["mutation", "--only", "ls"]).is_err());
        assert!(Options::try_parse_from(["mutation", "--mutants", "0"]).is_err());
        let o = Options::try_parse_from(["mutation", "--only", "wc,uniq", "--seed", "7"]).unwrap();
        assert_eq!(o.only, ["wc", "uniq"]);
        assert_eq!(o.seed, 7);
        assert_eq!(mutated_line("a\nb\nc\n", "a\nB\nc\n"), 2);
        let o = Options::try_parse_from(["mutation", "--only", "cjson,zlib"]).unwrap();
        assert_eq!(o.only, ["cjson", "zlib"]);
        // A mutant's sampling key depends on the seed, its file and its name
        // only (not on the order the files were listed in).
        let m = Path::new("/x/f001/deflate.mutant.12.c");
        assert_eq!(
            key(1, "deflate.c", m),
            key(1, "deflate.c", Path::new("deflate.mutant.12.c"))
        );
        assert_ne!(key(1, "deflate.c", m), key(2, "deflate.c", m));
        assert_ne!(key(1, "deflate.c", m), key(1, "inflate.c", m));
        assert_eq!(survivor(1, "wc.c", 58, true), "58*");
        assert_eq!(survivor(3, "deflate.c", 7, false), "deflate.c:7");
    }
}
