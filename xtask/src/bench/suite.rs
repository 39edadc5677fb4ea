//! `cargo xtask bench [suite] [--quick] [--budget S] [--only A,B] [--out DIR]`:
//! the evaluation of the paper's §5 on `tests/bench/suite/`.
//!
//! For each program: symtest (`cargo-symtest exec`, release build; whole
//! programs with `--libc=musl --posix-runtime -- ARGS`) and the
//! random-testing baseline (`tests/bench/random/`; whole programs get random
//! argv, files and stdin of the same `--sym-*` shapes) run at the same time,
//! one core each, with the same wall-clock budget; the tests each one kept
//! are replayed natively — a gcov build for line and branch coverage, a
//! sanitizer build for the bugs — so both tools are measured the same way. See [`super::report`] for the
//! outputs.

use super::{gcov, native, report};
use crate::{paths, setup, util};
use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Programs of `--quick` (a mix of planted bugs and clean programs, and two
/// whole programs).
pub const QUICK: &[&str] = &["csv_parse", "stack_vm", "ring_buffer", "rle", "wc", "echo"];
pub const QUICK_BUDGET_S: f64 = 10.0;
pub const FULL_BUDGET_S: f64 = 60.0;
/// Seed of both tools.
pub const SEED: u64 = 1;

/// The options of `bench [suite]`.
#[derive(clap::Args)]
pub struct Options {
    /// Six programs (a mix of planted bugs, clean programs and two whole
    /// programs), 10 s each unless --budget says otherwise
    #[arg(long)]
    pub quick: bool,
    /// Seconds per program and tool, 0 < S <= 86400 [default: 60, 10 with
    /// --quick]
    #[arg(long = "budget", value_name = "SECONDS", value_parser = super::seconds)]
    pub budget_s: Option<f64>,
    /// Only these programs of tests/bench/suite/symtest.toml (comma-separated)
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Where the reports go [default: target/bench]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Measure the release build of the engine (the debug build only in
    /// the harness's own test, where it is already built).
    #[arg(skip = true)]
    pub release: bool,
}

/// One `[[target]]` of `tests/bench/suite/symtest.toml`.
#[derive(Clone, Debug, Serialize)]
pub struct Target {
    pub name: String,
    pub source: PathBuf,
    pub max_time_s: f64,
    /// `kind = "program"`: a whole program run under the POSIX environment
    /// with `args` (concrete words and `--sym-*` shapes); else a harness.
    pub program: bool,
    pub args: Vec<String>,
}

pub fn targets(suite_dir: &Path) -> Result<Vec<Target>> {
    let file = suite_dir.join("symtest.toml");
    let text =
        std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let doc: toml::Value =
        toml::from_str(&text).with_context(|| format!("parsing {}", file.display()))?;
    let list = doc
        .get("target")
        .and_then(|t| t.as_array())
        .with_context(|| format!("{}: no [[target]] tables", file.display()))?;
    let mut out = Vec::new();
    for t in list {
        let name = t
            .get("name")
            .and_then(|v| v.as_str())
            .with_context(|| format!("{}: a target without `name`", file.display()))?;
        let src = t
            .get("sources")
            .and_then(|v| v.as_array())
            .and_then(|a| a.first())
            .and_then(|v| v.as_str())
            .with_context(|| format!("{}: target `{name}` has no `sources`", file.display()))?;
        let max_time_s = t
            .get("max-time")
            .and_then(|v| v.as_integer().map(|i| i as f64).or_else(|| v.as_float()))
            .unwrap_or(FULL_BUDGET_S);
        let program = match t.get("kind").and_then(|v| v.as_str()) {
            None | Some("harness") => false,
            Some("program") => true,
            Some(other) => bail!(
                "{}: target `{name}` has kind `{other}` (expected harness or program)",
                file.display()
            ),
        };
        let args = t
            .get("args")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|w| w.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        out.push(Target {
            name: name.to_string(),
            source: suite_dir.join(src),
            max_time_s,
            program,
            args,
        });
    }
    Ok(out)
}

/// A planted bug: `// EXPECT-ERROR: <kind>` at the end of a source line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Expected {
    pub kind: String,
    pub line: u32,
}

pub fn expected_bugs(source: &str) -> Vec<Expected> {
    let mut out = Vec::new();
    for (i, l) in source.lines().enumerate() {
        if let Some(p) = l.find("// EXPECT-ERROR:") {
            let kind = l[p + "// EXPECT-ERROR:".len()..].trim();
            let kind = kind.split_whitespace().next().unwrap_or("").to_string();
            out.push(Expected {
                kind,
                line: i as u32 + 1,
            });
        }
    }
    out
}

/// A distinct bug one tool's tests reproduce natively.
#[derive(Clone, Debug, Serialize)]
pub struct Bug {
    pub kind: String,
    pub line: u32,
    /// Seconds into the tool's run when the first test showing it was kept.
    pub first_s: f64,
    pub test: String,
    pub planted: bool,
}

/// Everything measured about one tool on one program.
#[derive(Clone, Debug, Serialize)]
pub struct ToolResult {
    pub tool: &'static str,
    pub budget_s: f64,
    /// Wall-clock time the tool ran (exploration, without replay).
    pub wall_s: f64,
    pub tests: usize,
    pub lines_total: usize,
    pub lines_covered: usize,
    pub line_pct: f64,
    pub branches_total: usize,
    pub branches_taken: usize,
    pub branch_pct: f64,
    /// The `.gcov` file the coverage figures come from.
    pub gcov_file: PathBuf,
    /// Union of the per-test coverages equals the cumulative gcov run.
    pub gcov_consistent: bool,
    pub bugs: Vec<Bug>,
    pub planted_found: usize,
    pub first_bug_s: Option<f64>,
    pub replay_mismatches: usize,
    pub replay_timeouts: usize,
    /// (seconds, cumulative line coverage %) after each kept test.
    pub timeline: Vec<(f64, f64)>,
    /// The tool's own statistics (`stats.json` or `random-stats.json`).
    pub stats: serde_json::Value,
}

#[derive(Clone, Debug, Serialize)]
pub struct ProgramResult {
    pub name: String,
    /// A whole program (`kind = "program"`) rather than a harness.
    pub program: bool,
    pub source: PathBuf,
    pub planted: Vec<Expected>,
    pub symtest: ToolResult,
    pub random: ToolResult,
}

/// A kept test and when it was kept.
struct Kept {
    ktest: PathBuf,
    time_s: f64,
}

fn symtest_tests(dir: &Path) -> Result<Vec<Kept>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.extension().is_some_and(|x| x == "ktest") {
            let json = p.with_extension("json");
            let v: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(&json)
                    .with_context(|| format!("reading {}", json.display()))?,
            )?;
            out.push(Kept {
                time_s: v["elapsed_s"].as_f64().unwrap_or(0.0),
                ktest: p,
            });
        }
    }
    out.sort_by(|a, b| a.time_s.total_cmp(&b.time_s).then(a.ktest.cmp(&b.ktest)));
    Ok(out)
}

fn random_tests(dir: &Path) -> Result<Vec<Kept>> {
    let file = dir.join("timeline.tsv");
    let text =
        std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let mut out = Vec::new();
    for l in text.lines() {
        let mut f = l.split('\t');
        let (Some(name), Some(t)) = (f.next(), f.next()) else {
            continue;
        };
        out.push(Kept {
            ktest: dir.join(format!("{name}.ktest")),
            time_s: t.parse().unwrap_or(0.0),
        });
    }
    Ok(out)
}

/// Replays `kept` natively and measures them (see the module docs).
fn measure(
    tool: &'static str,
    t: &Target,
    builds: &native::Builds,
    kept: &[Kept],
    planted: &[Expected],
    dest_gcov: &Path,
) -> Result<ToolResult> {
    let file_name = t
        .source
        .file_name()
        .and_then(|s| s.to_str())
        .context("program file name")?;
    let mut bugs: Vec<Bug> = Vec::new();
    let (mut mismatches, mut timeouts) = (0, 0);
    let mut union = BTreeSet::new();
    let mut timeline = Vec::new();
    for k in kept {
        let run = native::run_test(builds, &builds.san_bin, &k.ktest, native::REPLAY_TIMEOUT)?;
        if run.differs {
            mismatches += 1;
        }
        match native::classify(run.status, &run.stderr, file_name) {
            native::Outcome::Bug { kind, line }
                if !bugs.iter().any(|b| b.kind == kind && b.line == line) =>
            {
                let planted = planted.iter().any(|e| e.kind == kind && e.line == line);
                bugs.push(Bug {
                    kind,
                    line,
                    first_s: k.time_s,
                    test: k
                        .ktest
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into(),
                    planted,
                });
            }
            // Exit 125 is the harness runtime's "cannot drive this test";
            // a whole program may exit 125 itself.
            native::Outcome::Mismatch if !t.program => mismatches += 1,
            native::Outcome::Timeout => timeouts += 1,
            _ => {}
        }
        let c = gcov::of_test(builds, &t.source, &k.ktest)?;
        union.extend(c.covered.iter().copied());
        timeline.push((k.time_s, gcov::pct(union.len(), c.lines.len())));
    }
    let paths: Vec<PathBuf> = kept.iter().map(|k| k.ktest.clone()).collect();
    let all = gcov::of_all(builds, &t.source, &paths, dest_gcov)?;
    let planted_found = planted
        .iter()
        .filter(|e| bugs.iter().any(|b| b.kind == e.kind && b.line == e.line))
        .count();
    Ok(ToolResult {
        tool,
        budget_s: 0.0,
        wall_s: 0.0,
        tests: kept.len(),
        lines_total: all.lines.len(),
        lines_covered: all.covered.len(),
        line_pct: all.line_pct(),
        branches_total: all.branches.len(),
        branches_taken: all.taken.len(),
        branch_pct: all.branch_pct(),
        gcov_file: dest_gcov.to_path_buf(),
        gcov_consistent: kept.is_empty() || union == all.covered,
        first_bug_s: bugs.iter().map(|b| b.first_s).reduce(f64::min),
        bugs,
        planted_found,
        replay_mismatches: mismatches,
        replay_timeouts: timeouts,
        timeline,
        stats: serde_json::Value::Null,
    })
}

fn read_json(p: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    Ok(serde_json::from_str(&text)?)
}

/// Compiles target `t` to `bc`: a whole program with `cargo symtest cc`
/// (`bin`), a harness as the benchmarks compile one.
fn compile_target(bin: &Path, t: &Target, bc: &Path) -> Result<()> {
    if t.program {
        util::run(Command::new(bin).arg("cc").arg(&t.source).arg("-o").arg(bc))?;
    } else {
        super::compile(&t.source, bc)?;
    }
    Ok(())
}

/// The random-testing runner's command on target `t`, writing into `out`.
fn random_command(runner: &Path, out: &Path, budget_arg: &str, t: &Target) -> Command {
    let mut random_cmd = Command::new(runner);
    random_cmd
        .arg(out)
        .arg(budget_arg)
        .arg(SEED.to_string())
        .arg("1000");
    if t.program {
        random_cmd.arg("--").args(&t.args);
    }
    random_cmd
}

/// `cargo-symtest exec` (`bin`) on target `t`'s module `bc`, writing into
/// `out`.
fn symtest_command(bin: &Path, bc: &Path, out: &Path, budget_arg: &str, t: &Target) -> Command {
    let mut sym_cmd = Command::new(bin);
    sym_cmd
        .arg("exec")
        .arg(bc)
        .arg("--output-dir")
        .arg(out)
        .args([
            "--quiet",
            "--max-time",
            budget_arg,
            "--seed",
            &SEED.to_string(),
        ]);
    if t.program {
        sym_cmd
            .args(["--libc=musl", "--posix-runtime", "--"])
            .args(&t.args);
    }
    sym_cmd
}

fn run_program(
    root: &Path,
    bin: &Path,
    t: &Target,
    budget: f64,
    out: &Path,
) -> Result<ProgramResult> {
    let work = out.join("programs").join(&t.name);
    if work.exists() {
        std::fs::remove_dir_all(&work)?;
    }
    std::fs::create_dir_all(&work)?;
    let source_text = std::fs::read_to_string(&t.source)
        .with_context(|| format!("reading {}", t.source.display()))?;
    let planted = expected_bugs(&source_text);

    // Both tools at once, one core each, with the same wall-clock budget
    // (the engine and the random runner are single-threaded).
    let budget_arg = format!("{budget}");
    let bc = work.join(format!("{}.bc", t.name));
    let runner = native::build_random(root, &t.source, &work)?;
    compile_target(bin, t, &bc)?;
    let rnd_out = work.join("random-out");
    let random_started = Instant::now();
    let mut random_child = random_command(&runner, &rnd_out, &budget_arg, t)
        .spawn()
        .with_context(|| format!("running {}", runner.display()))?;

    let sym_out = work.join("symtest-out");
    let mut sym_cmd = symtest_command(bin, &bc, &sym_out, &budget_arg, t);
    let started = Instant::now();
    let status = sym_cmd
        .status()
        .with_context(|| format!("running {}", bin.display()));
    let sym_wall = started.elapsed().as_secs_f64();
    let random_status = random_child.wait();
    let rnd_wall = random_started.elapsed().as_secs_f64();
    let status = status?;
    if !matches!(status.code(), Some(0 | 1)) {
        bail!("cargo-symtest exec {} failed ({status})", bc.display());
    }
    let random_status = random_status.context("waiting for the random-testing runner")?;
    if !random_status.success() {
        bail!(
            "the random-testing runner {} failed ({random_status})",
            runner.display()
        );
    }

    // measurement
    let builds = native::build(root, &t.source, &work, t.program.then_some(bin))?;
    let mut symtest = measure(
        "symtest",
        t,
        &builds,
        &symtest_tests(&sym_out)?,
        &planted,
        &work.join(format!("symtest.{}.gcov", file_name(t))),
    )?;
    symtest.budget_s = budget;
    symtest.wall_s = sym_wall;
    symtest.stats = read_json(&sym_out.join("stats.json"))?;
    let mut random = measure(
        "random",
        t,
        &builds,
        &random_tests(&rnd_out)?,
        &planted,
        &work.join(format!("random.{}.gcov", file_name(t))),
    )?;
    random.budget_s = budget;
    random.wall_s = rnd_wall;
    random.stats = read_json(&rnd_out.join("random-stats.json"))?;
    Ok(ProgramResult {
        name: t.name.clone(),
        program: t.program,
        source: t
            .source
            .strip_prefix(root)
            .unwrap_or(&t.source)
            .to_path_buf(),
        planted,
        symtest,
        random,
    })
}

fn file_name(t: &Target) -> String {
    t.source
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Runs the suite; returns the results and writes the report files.
pub fn run(o: &Options) -> Result<Vec<ProgramResult>> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let suite_dir = root.join("tests").join("bench").join("suite");
    let mut list = targets(&suite_dir)?;
    if !o.only.is_empty() {
        for n in &o.only {
            if !list.iter().any(|t| &t.name == n) {
                return Err(util::UsageError(format!(
                    "--only: no program `{n}` in {} (have: {})",
                    suite_dir.join("symtest.toml").display(),
                    list.iter()
                        .map(|t| t.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .into());
            }
        }
        list.retain(|t| o.only.contains(&t.name));
    } else if o.quick {
        list.retain(|t| QUICK.contains(&t.name.as_str()));
    }
    let bin = super::engine_binary(o.release)?;
    let out = o
        .out
        .clone()
        .unwrap_or_else(|| super::target_dir(&root).join("bench"));
    std::fs::create_dir_all(&out)?;
    let mut results = Vec::new();
    let started = Instant::now();
    for t in &list {
        let budget = o.budget_s.unwrap_or(if o.quick {
            QUICK_BUDGET_S
        } else {
            t.max_time_s
        });
        eprintln!("bench: {} ({budget} s per tool)", t.name);
        let r = run_program(&root, &bin, t, budget, &out)
            .with_context(|| format!("benchmark program {}", t.name))?;
        eprintln!(
            "bench: {}: lines symtest {:.1}% / random {:.1}%, planted bugs {}/{} / {}/{}",
            r.name,
            r.symtest.line_pct,
            r.random.line_pct,
            r.symtest.planted_found,
            r.planted.len(),
            r.random.planted_found,
            r.planted.len()
        );
        results.push(r);
    }
    let command = format!(
        "cargo xtask bench{}",
        shown_flags(o.quick, o.budget_s, &o.only)
    );
    report::write(&out, &results, &command, started.elapsed().as_secs_f64())?;
    Ok(results)
}

/// ` --quick`, ` --budget S` and ` --only A,B`, those given, for the command
/// line a report shows.
pub(super) fn shown_flags(quick: bool, budget_s: Option<f64>, only: &[String]) -> String {
    let mut s = String::new();
    if quick {
        s.push_str(" --quick");
    }
    if let Some(b) = budget_s {
        s.push_str(&format!(" --budget {b}"));
    }
    if !only.is_empty() {
        s.push_str(&format!(" --only {}", only.join(",")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_planted_bugs() {
        let src =
            "int a;\nx = y; // EXPECT-ERROR: ptr\n// EXPECT-NO-ERRORS\nz; // EXPECT-ERROR:div\n";
        assert_eq!(
            expected_bugs(src),
            [
                Expected {
                    kind: "ptr".into(),
                    line: 2
                },
                Expected {
                    kind: "div".into(),
                    line: 4
                }
            ]
        );
    }

    #[test]
    fn suite_has_targets_for_every_program() {
        let dir = paths::workspace_root()
            .join("tests")
            .join("bench")
            .join("suite");
        let t = targets(&dir).unwrap();
        assert!(t.len() >= 15, "{} targets", t.len());
        for x in &t {
            assert!(x.source.is_file(), "{}", x.source.display());
        }
        for q in QUICK {
            assert!(t.iter().any(|x| x.name == *q), "quick program {q}");
        }
    }
}
