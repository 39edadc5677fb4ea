//! `cargo symtest replay`: build a harness natively with the replay runtime and
//! sanitizers, run every test, and compare with the outcome the engine recorded.
//! With `--native PROGRAM`, replay whole-program tests instead (native_cmd.rs).

use crate::replay::{self, ErrorKind, Outcome};
use anyhow::{Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Duration;
use symtest_project::interrupt;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// C sources of the harness to build natively (with the replay runtime).
    #[arg(
        long = "source",
        value_name = "FILE.c",
        required_unless_present_any = ["binary", "native"]
    )]
    pub sources: Vec<PathBuf>,
    /// Include directories for the native build.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// An already built native harness (linked with the replay runtime).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["sources", "native"])]
    pub binary: Option<PathBuf>,
    /// Replay whole-program tests (of `exec --posix-runtime`) on this
    /// unmodified native executable: each test runs in a fresh temporary
    /// directory with its files, stdin, argv and failing system calls.
    #[arg(long, value_name = "PROGRAM", conflicts_with_all = ["sources", "include"])]
    pub native: Option<PathBuf>,
    /// With --native: where the program's gcov data (.gcda) goes; without
    /// it, coverage data stays in the temporary directory and is discarded.
    #[arg(long, value_name = "DIR", requires = "native")]
    pub gcov_dir: Option<PathBuf>,
    /// With --native: keep each test's temporary directory.
    #[arg(long, requires = "native")]
    pub keep_dirs: bool,
    /// With --native: print one JSON object per test (test, native outcome,
    /// exit code or signal, recorded outcome, verdict, stderr, injected
    /// failures) and a final summary object, instead of text lines.
    #[arg(long, requires = "native")]
    pub json: bool,
    /// Seconds before a test run is killed.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// .ktest files, or output directories holding them.
    #[arg(required = true, value_name = "TEST_OR_DIR")]
    pub tests: Vec<PathBuf>,
}

/// The outcome the engine recorded in `testNNNNNN.json`.
pub fn recorded_outcome(ktest: &Path) -> Option<Outcome> {
    let json = std::fs::read_to_string(ktest.with_extension("json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&json).ok()?;
    let o = &v["outcome"];
    if let Some(code) = o["exit"]["code"].as_i64() {
        return Some(Outcome::Exit(code as i32));
    }
    if let Some(kind) = o["error"]["kind"].as_str() {
        return kind.parse::<ErrorKind>().ok().map(Outcome::Error);
    }
    // Stopped early, then run concretely on the test's inputs for this many
    // instructions without ending: natively it should not end either.
    if o["early"]["no_end_within"].as_u64().is_some() {
        return Some(Outcome::Timeout);
    }
    None
}

/// Does a native outcome reproduce the recorded one?
pub fn reproduces(recorded: Outcome, native: Outcome) -> bool {
    match (recorded, native) {
        (a, b) if a == b => true,
        // The engine ran the path concretely for its whole allowance without
        // an end: all it claims is that the program runs at least that long.
        // A native run that exits after more work (past the test's input, on
        // zeros) does not contradict it; a vector that does not fit does.
        (Outcome::Timeout, Outcome::Exit(c)) => c != crate::replay::REPLAY_MISMATCH_EXIT,
        // Assertion macros abort natively.
        (Outcome::Error(ErrorKind::Assert), Outcome::Error(ErrorKind::Abort)) => true,
        _ => false,
    }
}

fn collect(tests: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for t in tests {
        if t.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(t)
                .with_context(|| format!("reading {}", t.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ktest"))
                .collect();
            v.sort();
            out.extend(v);
        } else {
            out.push(t.clone());
        }
    }
    Ok(out)
}

/// Replays `tests` on a harness built from `a`'s sources. The harness is
/// built in a temporary directory removed on every exit: errors and panics
/// drop it; SIGINT, SIGTERM and SIGHUP are held until it is gone, then take
/// their usual effect.
fn replay_built(
    a: &ReplayArgs,
    tests: &[&PathBuf],
    timeout: Duration,
    tally: &mut Tally,
) -> Result<()> {
    let guard = interrupt::Guard::install();
    let tmp = crate::tempdir::TempDir::new("replay")?;
    let bin = tmp.path().join("harness");
    replay::build_native(
        &a.sources,
        &a.include,
        &symtest_project::paths::models_dir(),
        &bin,
    )?;
    if guard.caught().is_none() {
        replay_all(&bin, tests, timeout, tally)?;
    }
    drop(tmp);
    if let Some(sig) = guard.caught() {
        guard.reraise(sig);
    }
    Ok(())
}

pub fn run(a: ReplayArgs) -> Result<u8> {
    crate::tempdir::sweep();
    let tests = collect(&a.tests)?;
    if tests.is_empty() {
        eprintln!("error: no .ktest files found in {:?}", a.tests);
        return Ok(crate::EXIT_BAD_INPUT);
    }
    if !a.timeout.is_finite() || !(0.001..=86_400.0).contains(&a.timeout) {
        eprintln!(
            "error: --timeout must be a number of seconds between 0.001 and 86400 (got {})",
            crate::exec::shown_number(a.timeout)
        );
        return Ok(crate::EXIT_BAD_INPUT);
    }
    let timeout = Duration::from_secs_f64(a.timeout);
    if let Some(program) = &a.native {
        return crate::native_cmd::run(
            &tests,
            &crate::native_cmd::NativeArgs {
                program,
                timeout,
                gcov_dir: a.gcov_dir.as_deref(),
                keep_dirs: a.keep_dirs,
                json: a.json,
            },
        );
    }
    // A corrupt test is a failed test: it cannot show what the program does.
    let mut tally = Tally::default();
    let mut runnable = Vec::new();
    for t in &tests {
        match symtest_ktest::KTest::read_from(t) {
            Ok(_) => runnable.push(t),
            Err(e) => {
                tally.failed += 1;
                println!("{}: CORRUPT ({e})", t.display());
            }
        }
    }
    let skippable = |t: &PathBuf| {
        matches!(
            recorded_outcome(t),
            Some(Outcome::Error(
                ErrorKind::Exec
                    | ErrorKind::External
                    | ErrorKind::Model
                    | ErrorKind::Solver
                    | ErrorKind::Mismatch
            ))
        )
    };
    let (skipped, to_run): (Vec<&PathBuf>, Vec<&PathBuf>) =
        runnable.into_iter().partition(|t| skippable(t));
    for t in &skipped {
        tally.not_compared += 1;
        println!(
            "{}: skipped (engine-limit errors are not program behaviour)",
            t.display()
        );
    }
    if !to_run.is_empty() {
        match &a.binary {
            Some(b) => replay_all(b, &to_run, timeout, &mut tally)?,
            None => replay_built(&a, &to_run, timeout, &mut tally)?,
        }
    }
    println!(
        "{} passed, {} failed, {} not compared",
        tally.passed, tally.failed, tally.not_compared
    );
    if tally.failed > 0 {
        return Ok(crate::EXIT_FOUND);
    }
    if tally.passed == 0 {
        eprintln!(
            "error: no test was compared with a recorded outcome ({} not compared): nothing was checked",
            tally.not_compared
        );
        return Ok(crate::EXIT_FOUND);
    }
    Ok(0)
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    not_compared: usize,
}

fn replay_all(
    binary: &Path,
    tests: &[&PathBuf],
    timeout: Duration,
    tally: &mut Tally,
) -> Result<()> {
    for t in tests {
        if interrupt::caught().is_some() {
            break;
        }
        let recorded = recorded_outcome(t);
        let (native, stderr) = replay::replay(binary, t, timeout)?;
        let verdict = match recorded {
            Some(r) if reproduces(r, native) => {
                tally.passed += 1;
                "ok".to_string()
            }
            Some(r) => {
                tally.failed += 1;
                if native == Outcome::Exit(replay::REPLAY_MISMATCH_EXIT) {
                    format!("MISMATCH (engine recorded {r}; the test does not fit this program's inputs)")
                } else {
                    format!("MISMATCH (engine recorded {r})")
                }
            }
            None => {
                tally.not_compared += 1;
                "not compared (no recorded outcome: its .json is missing or unreadable)".to_string()
            }
        };
        println!("{}: {native}  {verdict}", t.display());
        if verdict.starts_with("MISMATCH") {
            for line in stderr.lines().take(5) {
                println!("    {line}");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_recorded_as_not_ending_may_time_out_or_exit_but_not_mismatch() {
        assert!(reproduces(Outcome::Timeout, Outcome::Timeout));
        assert!(reproduces(Outcome::Timeout, Outcome::Exit(0)));
        assert!(!reproduces(
            Outcome::Timeout,
            Outcome::Exit(replay::REPLAY_MISMATCH_EXIT)
        ));
        assert!(!reproduces(
            Outcome::Timeout,
            Outcome::Error(ErrorKind::Ptr)
        ));
        assert!(!reproduces(Outcome::Exit(0), Outcome::Timeout));
    }
}
