//! What the pipeline reports per target, and the summary table.

use crate::baseline::Bug;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Ok,
    /// The target did not compile (bad input: exit 2).
    CompileError,
    /// The engine crashed, was killed or ran out of memory.
    EngineFailed,
    /// Another step failed (native build, I/O).
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::CompileError => "compile error",
            Status::EngineFailed => "engine failed",
            Status::Failed => "failed",
        }
    }
}

/// One test of the kept set, as reported (JUnit).
#[derive(Clone, Debug, Serialize)]
pub struct KeptTest {
    /// Name in `symtest-out/<target>/` (`testNNNNNN`).
    pub name: String,
    /// Name in the regression suite.
    pub suite_name: String,
    pub outcome: String,
    pub bug: Option<usize>,
}

/// An error the engine reported whose test did not reproduce it natively:
/// not counted as a bug.
#[derive(Clone, Debug, Serialize)]
pub struct Unconfirmed {
    pub bug: Bug,
    /// The engine's test (`testNNNNNN` of its run).
    pub test: String,
    /// What the native run did instead.
    pub native: String,
}

/// A `library` target: the functions its generated harness calls, and those
/// of its headers it does not call, with the reason.
#[derive(Clone, Debug, Serialize)]
pub struct LibraryReport {
    /// The functions the harness calls.
    pub functions: Vec<String>,
    /// Those with at least one kept test.
    pub tested: Vec<String>,
    /// The public functions the harness calls, alone or in a call sequence.
    pub public: Vec<String>,
    /// Those a kept test calls: alone, or in a call sequence.
    pub public_tested: Vec<String>,
    /// What each call sequence calls, by the `functions` entry that runs it.
    #[serde(skip)]
    pub calls: Vec<(usize, crate::library::sequences::Calls)>,
    /// The calls that get a made-up handle (for the triage).
    #[serde(skip)]
    pub made_up: crate::library::sequences::MadeUp,
    /// The headers' functions it does not call, and why.
    pub skipped: Vec<(String, String)>,
    /// The call sequences tried: name (`sequence <handle type>`) and what
    /// each calls.
    pub sequences: Vec<(String, String)>,
    /// Each bug (its id) triaged: `bug`, or `contract` (an assertion of the
    /// called function itself failed: the input broke its stated
    /// precondition), or `harness` (the generated harness failed: a defect
    /// of symtest).
    pub triage: Vec<(String, String)>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TargetReport {
    pub name: String,
    pub kind: String,
    pub package: Option<String>,
    pub status: Status,
    pub message: Option<String>,
    pub budget_s: f64,
    pub explore_s: f64,
    pub total_s: f64,
    pub halt_reason: Option<String>,
    pub paths: u64,
    pub tests_written: usize,
    pub tests_kept: usize,
    pub tests: Vec<KeptTest>,
    pub bugs: Vec<Bug>,
    /// Errors not reproduced natively (validation), not counted as bugs.
    pub unconfirmed: Vec<Unconfirmed>,
    /// (covered, total) by gcov over the target's sources.
    pub lines: Option<(u64, u64)>,
    /// (covered, total) over the lines of functions that survive
    /// whole-program optimization (the KLEE paper's ELOC; [`crate::eloc`]).
    pub eloc_lines: Option<(u64, u64)>,
    pub branches: Option<(u64, u64)>,
    /// Lines of the target's sources the engine says it executed.
    pub engine_lines: Option<u64>,
    pub soundness_warnings: Vec<String>,
    /// Lines of the target's sources the engine claims and the native run of
    /// the kept tests did not execute (0 when the two agree).
    pub claimed_not_executed: u64,
    /// Why the rest is uncovered: lines and branch sides per reason
    /// (`coverage/why.json` has each one; `cargo symtest why` prints them).
    pub why: Option<crate::why::Counts>,
    /// Tests whose native run disagreed with the engine in the coverage run
    /// (a trap, another exit code, a vector that no longer fits): the runner's
    /// verdict lines. None of them should exist (one definition of a bug).
    pub native_disagreements: Vec<String>,
    /// Paths the engine ended at one of its limits, per kind (`external`: a
    /// call of a function defined nowhere; `exec`, `model`, `solver`), as its
    /// statistics count them: it claims nothing of how they go on.
    pub paths_stopped_at_limits: std::collections::BTreeMap<String, u64>,
    /// Kept tests whose path the engine stopped at one of its limits (their
    /// verdicts): the native run's end is not compared with the engine, only
    /// with the behaviour the suite recorded, so they are no native
    /// disagreement whatever their native end.
    pub stopped_at_limits: Vec<String>,
    /// The engine overran its budget and the watchdog stopped it: the tests
    /// it wrote are used, its statistics and coverage claim are missing.
    pub engine_overran: bool,
    /// Kept tests whose native verdict differed between two runs.
    pub flaky: Vec<String>,
    /// Streams the suite does not compare because they varied between the
    /// runs that recorded them (`test000003: stdout varies between runs: not
    /// compared`).
    pub not_compared: Vec<String>,
    /// A gate run: the changed lines with code in the target, and the kept
    /// test that executes each.
    pub changed_lines: Vec<crate::gate::ChangedLine>,
    /// A gate run: the committed suite's tests whose outcome or behaviour
    /// the new code changed (not counted as bugs).
    pub behaviour_changes: Vec<crate::gate::BehaviourChange>,
    /// Seconds per stage: compile, explore, minimize (native build and
    /// per-test coverage runs), replay (kept tests and gcov), emit; and the
    /// minimization's parts (`minimize.native-build`, `minimize.test-runs`,
    /// `minimize.coverage-export`).
    pub stage_s: std::collections::BTreeMap<String, f64>,
    pub out_dir: PathBuf,
    pub suite_dir: Option<PathBuf>,
    /// The run failed and `out_dir` still holds an earlier run's results,
    /// now marked with a `STALE` file.
    pub stale_results: bool,
    /// A `library` target's functions.
    pub library: Option<LibraryReport>,
    /// A program target's seeds from its project's tests and input files.
    pub seeds: Option<SeedsReport>,
}

/// The seeds of a program target (`seed-tests`, `seed-inputs`): how its
/// runs were recorded and what became of them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SeedsReport {
    /// Where they come from: the test command (`make check`), the input
    /// glob and how its files are given (`tests/*.json (as stdin)`).
    pub sources: Vec<String>,
    /// Runs of the program the test command made, and input files.
    pub runs_seen: usize,
    /// Runs that became a seed (identical runs included).
    pub runs_kept: usize,
    /// Distinct seeds written (identical runs make one).
    pub seeds: usize,
    /// Seeds with an object (argument, file, stdin) cut at `max_bytes`.
    pub truncated: usize,
    /// `seed-max-bytes`.
    pub max_bytes: usize,
    /// Seeds whose files were padded with zeros to the longest (the model
    /// gives every file one size).
    pub padded: usize,
    /// The runs not kept, each with why.
    pub left_out: Vec<String>,
    /// Environment variables the tests set for the program (or set
    /// otherwise than symtest's own environment): the model's environment is
    /// fixed, so the seeds do not carry them.
    pub environment: Vec<String>,
    /// The test command's failure (its exit status), when it failed: the
    /// runs it made are used all the same.
    pub tests_failed: Option<String>,
    /// The seeds: `seedNNNNNN.ktest` and `seeds.json` (what each came from).
    pub dir: PathBuf,
}

impl TargetReport {
    pub fn new(
        name: &str,
        kind: &str,
        package: Option<String>,
        out_dir: PathBuf,
        budget_s: f64,
    ) -> TargetReport {
        TargetReport {
            name: name.to_string(),
            kind: kind.to_string(),
            package,
            status: Status::Ok,
            message: None,
            budget_s,
            explore_s: 0.0,
            total_s: 0.0,
            halt_reason: None,
            paths: 0,
            tests_written: 0,
            tests_kept: 0,
            tests: Vec::new(),
            bugs: Vec::new(),
            unconfirmed: Vec::new(),
            lines: None,
            eloc_lines: None,
            branches: None,
            engine_lines: None,
            soundness_warnings: Vec::new(),
            claimed_not_executed: 0,
            why: None,
            native_disagreements: Vec::new(),
            paths_stopped_at_limits: std::collections::BTreeMap::new(),
            stopped_at_limits: Vec::new(),
            engine_overran: false,
            flaky: Vec::new(),
            not_compared: Vec::new(),
            changed_lines: Vec::new(),
            behaviour_changes: Vec::new(),
            stage_s: std::collections::BTreeMap::new(),
            out_dir,
            suite_dir: None,
            stale_results: false,
            library: None,
            seeds: None,
        }
    }
}

fn pct(c: Option<(u64, u64)>) -> String {
    match c {
        Some((_, 0)) => "-".into(),
        Some((a, b)) => format!("{:.1}%", 100.0 * a as f64 / b as f64),
        None => "-".into(),
    }
}

/// The summary table: target, time, paths, tests kept, bugs, line %, branch %.
pub fn table(reports: &[TargetReport]) -> String {
    let header = [
        "target",
        "status",
        "time",
        "paths",
        "tests kept",
        "bugs",
        "line %",
        "branch %",
    ];
    let rows: Vec<[String; 8]> = reports
        .iter()
        .map(|r| {
            [
                r.name.clone(),
                if r.stale_results {
                    format!("{} (old results stale)", r.status.as_str())
                } else {
                    r.status.as_str().to_string()
                },
                format!("{:.1}s", r.total_s),
                r.paths.to_string(),
                format!("{}/{}", r.tests_kept, r.tests_written),
                if r.unconfirmed.is_empty() {
                    r.bugs.len().to_string()
                } else {
                    format!("{} (+{} not reproduced)", r.bugs.len(), r.unconfirmed.len())
                },
                pct(r.lines),
                pct(r.branches),
            ]
        })
        .collect();
    let mut width = header.map(str::len);
    for r in &rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: Vec<&str>| {
        cells
            .iter()
            .zip(width)
            .enumerate()
            .map(|(i, (c, w))| {
                if i == 0 {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    let mut s = line(header.to_vec());
    s.push('\n');
    for r in &rows {
        s.push_str(&line(r.iter().map(String::as_str).collect()));
        s.push('\n');
    }
    s
}
