//! The stages of one target's pipeline, each a function from plain data to
//! plain data: [`compile`] → [`explore`] → [`minimize`] → [`replay`] (→
//! [`validate`]) → [`emit`]. [`crate::pipeline`] runs them in order, reports progress and
//! fills the target's report; the capture before them is
//! [`crate::from_build`].

use crate::baseline::{self, Bug};
use crate::compile::{self, CompileError};
use crate::coverage::{self, CoverageSummary};
use crate::discovery::Target;
use crate::emit::{self, SuiteCase};
use crate::explore;
use crate::explore_options::ExploreOptions;
use crate::fsutil::write_atomic;
use crate::minimize;
use crate::native::{self, NativeBuild};
use crate::progress::Live;
use crate::report::{KeptTest, Unconfirmed};
use crate::testcases::{self, EngineTest, Outcome};
use crate::units::NativeInputs;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// What every stage of a target needs to know.
pub struct TargetCtx<'a> {
    pub target: &'a Target,
    /// The project root (bug identities, gcov file names, suite paths).
    pub root: &'a Path,
    /// The target's intermediate directory (`<build root>/<name>`).
    pub build: PathBuf,
    pub models_include: &'a Path,
    /// The target's share of a capture (a target from a build).
    pub captured: Option<&'a crate::from_build::Captured>,
}

/// The module to explore and what the native builds compile.
pub struct Compiled {
    pub bitcode: PathBuf,
    pub inputs: NativeInputs,
}

/// Bitcode of the target: its sources compiled and linked, or the captured
/// module (with the harness linked in).
pub fn compile(c: &TargetCtx) -> Result<Compiled, CompileError> {
    let t = c.target;
    let dir = c.build.join("bc");
    let (bitcode, inputs) = match c.captured {
        Some(cap) => (
            compile::from_capture(t, cap, c.models_include, &dir)?,
            cap.native.clone(),
        ),
        None => (
            compile::to_bitcode(t, c.models_include, &dir)?,
            NativeInputs::of_sources(t),
        ),
    };
    Ok(Compiled { bitcode, inputs })
}

/// What the engine left: its tests, with the bugs they show.
pub struct Explored {
    /// The engine's output directory.
    pub run_dir: PathBuf,
    pub elapsed_s: f64,
    /// The watchdog stopped the engine: no statistics or coverage claim.
    pub overran: bool,
    /// `stats.json` and `coverage.json` (empty objects after an overrun).
    pub stats: serde_json::Value,
    pub claim: serde_json::Value,
    pub halt_reason: Option<String>,
    pub tests: Vec<EngineTest>,
    /// Unique bugs, and for each test the index of its bug.
    pub bugs: Vec<Bug>,
    pub bug_of: Vec<Option<usize>>,
}

impl Explored {
    /// Paths the engine completed.
    pub fn paths(&self) -> u64 {
        self.stats
            .get("paths_completed")
            .and_then(|v| v.as_u64())
            .unwrap_or(0)
    }

    /// Paths the engine ended at one of its limits, per kind
    /// (`paths_ended_by_engine_limit` of its statistics).
    pub fn paths_stopped_at_limits(&self) -> std::collections::BTreeMap<String, u64> {
        self.stats
            .get("paths_ended_by_engine_limit")
            .and_then(|v| v.as_object())
            .map(|o| {
                o.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_u64()?)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The first test of each bug (the minimizer keeps them).
    pub fn bug_representatives(&self) -> Vec<usize> {
        (0..self.bugs.len())
            .filter_map(|b| self.bug_of.iter().position(|x| *x == Some(b)))
            .collect()
    }

    /// What a test shows, for reports and the suite.
    pub fn describe(&self, i: usize) -> String {
        describe(&self.tests[i], self.bug_of[i].map(|b| &self.bugs[b]))
    }
}

/// Why exploration produced nothing usable.
#[derive(Debug)]
pub struct EngineFailed {
    pub elapsed_s: f64,
    pub message: String,
}

/// Where a target's engine run writes.
fn run_dir(c: &TargetCtx) -> PathBuf {
    c.build.join("run")
}

/// The options of a target's engine run within `budget_s` (before the
/// pipeline adds its seeds and a gate run's directions).
pub fn explore_options(c: &TargetCtx, budget_s: f64) -> ExploreOptions {
    explore::options(c.target, &run_dir(c), budget_s)
}

/// The engine in its own process with `options` (from [`explore_options`]
/// for the same budget), then its tests read back and their bugs identified.
pub fn explore(
    c: &TargetCtx,
    compiled: &Compiled,
    budget_s: f64,
    options: &ExploreOptions,
    live: impl FnMut(Live),
) -> Result<std::result::Result<Explored, EngineFailed>> {
    let t = c.target;
    let run_dir = run_dir(c);
    let res = explore::run(t, &compiled.bitcode, &run_dir, budget_s, options, live);
    if let Err(message) = res.status {
        return Ok(Err(EngineFailed {
            elapsed_s: res.elapsed_s,
            message,
        }));
    }
    let (stats, claim) = if res.overran {
        (serde_json::json!({}), serde_json::json!({}))
    } else {
        (
            read_json(&run_dir.join("stats.json"))?,
            read_json(&run_dir.join("coverage.json"))?,
        )
    };
    let halt_reason = std::fs::read_to_string(run_dir.join("info"))
        .ok()
        .and_then(|i| {
            i.lines()
                .find_map(|l| l.strip_prefix("halt reason: ").map(str::to_string))
        });
    let tests = testcases::read_dir(&run_dir)?;
    // Bug identities; the first test of each identity represents it.
    let mut bugs: Vec<Bug> = Vec::new();
    let mut bug_of = Vec::new();
    for test in &tests {
        bug_of.push(test.bug().map(|e| {
            let b = baseline::identify(e, c.root, &t.name);
            match bugs.iter().position(|k| k.id == b.id) {
                Some(i) => i,
                None => {
                    bugs.push(b);
                    bugs.len() - 1
                }
            }
        }));
    }
    Ok(Ok(Explored {
        run_dir,
        elapsed_s: res.elapsed_s,
        overran: res.overran,
        stats,
        claim,
        halt_reason,
        tests,
        bugs,
        bug_of,
    }))
}

/// The native coverage build and the tests kept.
pub struct Minimized {
    pub native: NativeBuild,
    /// Indices into [`Explored::tests`], in order.
    pub keep: Vec<usize>,
    /// The runner's verdict on each test of [`Explored::tests`] in the run that
    /// measured its coverage (`None`: the runner printed none for it).
    pub verdicts: Vec<Option<String>>,
    /// What each test of [`Explored::tests`] covers natively.
    pub sets: Vec<std::collections::BTreeSet<minimize::Element>>,
    /// Seconds of the minimization's parts: the native build, the runs of
    /// every test, the reading of each test's coverage.
    pub parts_s: [(&'static str, f64); 3],
}

/// How long one native test may run, in every native run of the pipeline
/// (the suite's own default).
pub const TEST_TIMEOUT_S: u32 = 10;

/// Whether a runner verdict says the native run disagrees with the engine: it
/// failed, and not because a bug the engine reported is still there.
pub fn disagrees(verdict: &str) -> bool {
    verdict.starts_with("FAILED") && !verdict.contains("BUG still present")
}

/// Per-test native coverage (gcov) of every test, then a greedy cover over
/// lines and branches after one test per bug.
pub fn minimize(c: &TargetCtx, compiled: &Compiled, e: &Explored) -> Result<Minimized> {
    let cases: Vec<SuiteCase> = e
        .tests
        .iter()
        .enumerate()
        .map(|(i, test)| SuiteCase {
            name: test.name.clone(),
            test,
            description: e.describe(i),
            bug: e.bug_of[i].is_some(),
        })
        .collect();
    let started = std::time::Instant::now();
    let nb = native::build(
        c.target,
        &compiled.inputs,
        c.root,
        &c.build.join("native"),
        &cases,
    )
    .map_err(|err| anyhow::anyhow!("native coverage build failed:\n{err}"))?;
    let build_s = started.elapsed().as_secs_f64();
    let names: Vec<&str> = e.tests.iter().map(|x| x.name.as_str()).collect();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (run, sets) =
        minimize::per_test(&nb, &names, TEST_TIMEOUT_S, jobs).map_err(anyhow::Error::msg)?;
    let output = run.output;
    let verdicts = names
        .iter()
        .map(|n| native::verdict_of(&output, n).map(|v| v.trim().to_string()))
        .collect();
    let keep = minimize::greedy_cover(&sets, &e.bug_representatives());
    Ok(Minimized {
        native: nb,
        keep,
        verdicts,
        sets,
        parts_s: [
            ("minimize.native-build", build_s),
            ("minimize.test-runs", run.run_s),
            ("minimize.coverage-export", run.export_s),
        ],
    })
}

/// The kept tests replayed natively, and their coverage.
pub struct Replayed {
    /// The suite runner's output (one verdict line per test).
    pub output: String,
    /// Runner lines of tests whose native outcome differs from the engine's.
    pub differs: Vec<String>,
    /// Kept tests whose verdict differs from the one of the coverage run.
    pub flaky: Vec<String>,
    pub coverage: CoverageSummary,
}

/// Runs the kept tests on the native build; gcov of that run into
/// `coverage_dir`.
pub fn replay(
    c: &TargetCtx,
    compiled: &Compiled,
    e: &Explored,
    m: &Minimized,
    coverage_dir: &Path,
) -> Result<Replayed> {
    let kept: Vec<&str> = m.keep.iter().map(|&i| e.tests[i].name.as_str()).collect();
    let out = m
        .native
        .run_tests(&kept, TEST_TIMEOUT_S)
        .map_err(anyhow::Error::msg)?;
    let differs = out
        .lines()
        .filter(|l| {
            l.strip_prefix("test ")
                .is_some_and(|r| r.contains(" ... FAILED") && !l.contains("BUG still present"))
        })
        .map(str::to_string)
        .collect();
    let mut flaky = Vec::new();
    for &i in &m.keep {
        let name = e.tests[i].name.as_str();
        let now = native::verdict_of(&out, name).map(str::trim);
        let before = m.verdicts[i].as_deref();
        if now != before {
            flaky.push(format!(
                "{name}: `{}` in the coverage run, `{}` when replayed",
                before.unwrap_or("no verdict"),
                now.unwrap_or("no verdict")
            ));
        }
    }
    let sources = coverage::ClaimSources {
        tests: &e.tests,
        verdicts: &m.verdicts,
    };
    let coverage = coverage::report(
        c.target,
        c.root,
        &m.native,
        &compiled.bitcode,
        &kept,
        &e.claim,
        &sources,
        coverage_dir,
    )?;
    Ok(Replayed {
        output: out,
        differs,
        flaky,
        coverage,
    })
}

/// Validation: each bug's representative test was replayed on the native
/// sanitizer build; a bug whose run did not fail natively is no bug of the
/// report. Removes those from `e.bugs` (renumbering `e.bug_of`) and returns
/// them.
pub fn validate(e: &mut Explored, replayed: &Replayed) -> Vec<Unconfirmed> {
    let forced = e.bug_representatives();
    let mut unconfirmed = Vec::new();
    let mut keep = vec![true; e.bugs.len()];
    for (b, &ti) in forced.iter().enumerate() {
        let name = e.tests[ti].name.as_str();
        let verdict = native::verdict_of(&replayed.output, name);
        let confirmed = verdict.is_some_and(|v| v.contains("BUG still present"));
        if !confirmed {
            keep[b] = false;
            unconfirmed.push(Unconfirmed {
                bug: e.bugs[b].clone(),
                test: name.to_string(),
                native: match verdict {
                    Some(v) if v.trim() == "ok" => "the program ran without failing".to_string(),
                    Some(v) => v.trim().trim_start_matches("FAILED: ").to_string(),
                    None => "the test was not replayed".to_string(),
                },
            });
        }
    }
    let mut renumber = vec![None; e.bugs.len()];
    let mut next = 0;
    for (b, k) in keep.iter().enumerate() {
        if *k {
            renumber[b] = Some(next);
            next += 1;
        }
    }
    for x in e.bug_of.iter_mut() {
        *x = x.and_then(|b| renumber[b]);
    }
    let mut b = 0;
    e.bugs.retain(|_| {
        b += 1;
        keep[b - 1]
    });
    unconfirmed
}

/// The changed lines of a gate run that have code in the target, each with
/// the first kept test (its suite name) that executes it natively.
pub fn changed_lines(
    c: &TargetCtx,
    m: &Minimized,
    changed: &crate::gate::ChangedLines,
    suite_names: &[String],
) -> Vec<crate::gate::ChangedLine> {
    let mut out = Vec::new();
    for (src, executable) in &m.native.sources {
        let norm = crate::covdata::normalized(src);
        let Some(lines) = changed
            .by_file
            .iter()
            .find(|(f, _)| crate::covdata::normalized(f) == norm)
            .map(|(_, l)| l)
        else {
            continue;
        };
        for &line in lines.iter().filter(|l| executable.contains(l)) {
            let element = minimize::Element::Line(src.clone(), line);
            let by = m
                .keep
                .iter()
                .position(|&i| m.sets.get(i).is_some_and(|s| s.contains(&element)))
                .and_then(|k| suite_names.get(k).cloned());
            out.push(crate::gate::ChangedLine {
                file: crate::fsutil::relative(src, c.root).display().to_string(),
                line,
                reached_by: by,
            });
        }
    }
    out
}

/// The name the `k`-th kept test (engine test `i`) has in the suite.
fn suite_name_of(e: &Explored, i: usize, k: usize) -> String {
    let new = format!("test{:06}", k + 1);
    match e.bug_of[i] {
        Some(b) => format!(
            "{new}_bug_{}_in_{}",
            e.bugs[b].kind,
            sanitize_ident(&e.bugs[b].function)
        ),
        None => new,
    }
}

/// What the emit stage wrote.
pub struct Emitted {
    /// The kept tests as reported.
    pub kept: Vec<KeptTest>,
    /// Streams of kept tests that varied between the recording's runs and are
    /// not compared by the suite (`test000003: stdout varies between runs`).
    pub not_compared: Vec<String>,
    /// Kept tests whose native run did not match the engine when recorded.
    pub not_recorded: Vec<String>,
}

/// Writes the kept tests (renumbered), the engine's statistics, minimize.json
/// into `staging`, and the regression suite (unless `suite` is false) with
/// what each kept test did natively as its oracle.
pub fn emit(
    c: &TargetCtx,
    compiled: &Compiled,
    e: &Explored,
    m: &Minimized,
    staging: &Path,
    suite: bool,
) -> Result<Emitted> {
    let mut kept = Vec::new();
    let mut suite_cases = Vec::new();
    let mut mapping = Vec::new();
    for (k, &i) in m.keep.iter().enumerate() {
        let new = format!("test{:06}", k + 1);
        let test = &e.tests[i];
        for f in test.files() {
            let fname = f
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .replacen(&test.name, &new, 1);
            std::fs::copy(&f, staging.join(&fname))
                .with_context(|| format!("copying {}", f.display()))?;
        }
        let bug = e.bug_of[i];
        let suite_name = suite_name_of(e, i, k);
        kept.push(KeptTest {
            name: new.clone(),
            suite_name: suite_name.clone(),
            outcome: e.describe(i),
            bug,
        });
        mapping.push(serde_json::json!({ "kept": new, "engine": test.name, "suite": suite_name }));
        suite_cases.push(SuiteCase {
            name: suite_name,
            test,
            description: e.describe(i),
            bug: bug.is_some(),
        });
    }
    for f in ["stats.json", "coverage.json", "info"] {
        let _ = std::fs::copy(e.run_dir.join(f), staging.join(f));
    }
    let minimize_json = serde_json::json!({
        "tests_before": e.tests.len(),
        "tests_after": m.keep.len(),
        "bugs": e.bugs.len(),
        "kept": mapping,
    });
    write_atomic(
        &staging.join("minimize.json"),
        serde_json::to_string_pretty(&minimize_json)?.as_bytes(),
    )?;
    let mut emitted = Emitted {
        kept,
        not_compared: Vec::new(),
        not_recorded: Vec::new(),
    };
    if suite {
        // The oracle: each kept test's native behaviour, recorded by the
        // suite's own runner (three runs; what varies is not compared).
        let names: Vec<&str> = m.keep.iter().map(|&i| e.tests[i].name.as_str()).collect();
        let recorded = c.build.join("expected");
        let out = m
            .native
            .record(&names, TEST_TIMEOUT_S, &recorded)
            .map_err(anyhow::Error::msg)?;
        let suite_name = |engine: &str| {
            suite_cases
                .iter()
                .find(|sc| sc.test.name == engine)
                .map_or(engine.to_string(), |sc| sc.name.clone())
        };
        for l in out.lines() {
            let Some(rest) = l.strip_prefix("test ") else {
                continue;
            };
            if let Some((name, note)) = rest.split_once(" ... recorded (") {
                emitted.not_compared.push(format!(
                    "{}: {}",
                    suite_name(name),
                    note.trim_end_matches(')')
                ));
            } else if let Some((name, why)) = rest.split_once(" ... not recorded: ") {
                emitted
                    .not_recorded
                    .push(format!("{}: {why}", suite_name(name)));
            }
        }
        let expected: Vec<(PathBuf, String)> = suite_cases
            .iter()
            .map(|sc| (recorded.join(&sc.test.name), sc.name.clone()))
            .collect();
        emit::write_suite(c.target, &compiled.inputs, c.root, &suite_cases, &expected)?;
    }
    Ok(emitted)
}

fn describe(test: &EngineTest, bug: Option<&Bug>) -> String {
    match (&test.outcome, bug) {
        (_, Some(b)) => format!(
            "{}: {} in {} at {}:{} [bug id {}]",
            b.kind, b.message, b.function, b.file, b.line, b.id
        ),
        (Outcome::Exit { code }, None) => format!("exit {code}"),
        (Outcome::Error(e), None) if test.bug().is_some() => format!(
            "engine reported {}: {} (not reproduced natively)",
            e.kind, e.message
        ),
        (Outcome::Error(e), None) => format!("engine stopped the path: {}: {}", e.kind, e.message),
        (Outcome::Early { reason, .. }, None) => format!("engine stopped the path early: {reason}"),
    }
}

fn sanitize_ident(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

fn read_json(p: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", p.display()))
}
