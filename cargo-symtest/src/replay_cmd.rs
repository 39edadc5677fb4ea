//! `cargo symtest replay`: build a harness natively with the replay runtime and
//! sanitizers, run every test, and compare with the outcome the engine recorded.
//! With `--native PROGRAM`, replay whole-program tests instead (native_cmd.rs).

use crate::replay::{self, ErrorKind, Outcome};
use anyhow::{Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Duration;

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

pub fn run(a: ReplayArgs) -> Result<u8> {
    let tests = collect(&a.tests)?;
    if tests.is_empty() {
        eprintln!("error: no .ktest files found in {:?}", a.tests);
        return Ok(crate::EXIT_BAD_INPUT);
    }
    let timeout = Duration::from_secs_f64(a.timeout.clamp(0.1, 86_400.0));
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
    let skippable = |t: &PathBuf| {
        matches!(
            recorded_outcome(t),
            Some(Outcome::Error(
                ErrorKind::Exec | ErrorKind::External | ErrorKind::Model | ErrorKind::Solver
            ))
        )
    };
    if tests.iter().all(skippable) {
        for t in &tests {
            println!(
                "{}: skipped (engine-limit errors are not program behaviour)",
                t.display()
            );
        }
        println!("0 passed, 0 failed");
        return Ok(0);
    }
    let tmp;
    let binary = match &a.binary {
        Some(b) => b.clone(),
        None => {
            tmp = std::env::temp_dir().join(format!("symtest-replay-{}", std::process::id()));
            std::fs::create_dir_all(&tmp)?;
            let bin = tmp.join("harness");
            replay::build_native(
                &a.sources,
                &a.include,
                &symtest_project::paths::models_dir(),
                &bin,
            )?;
            bin
        }
    };
    let (mut ok, mut bad) = (0, 0);
    for t in &tests {
        let recorded = recorded_outcome(t);
        if skippable(t) {
            println!(
                "{}: skipped (engine-limit errors are not program behaviour)",
                t.display()
            );
            continue;
        }
        let (native, stderr) = replay::replay(&binary, t, timeout)?;
        let verdict = match recorded {
            Some(r) if reproduces(r, native) => {
                ok += 1;
                "ok".to_string()
            }
            Some(r) => {
                bad += 1;
                if native == Outcome::Exit(replay::REPLAY_MISMATCH_EXIT) {
                    format!("MISMATCH (engine recorded {r}; the test does not fit this program's inputs)")
                } else {
                    format!("MISMATCH (engine recorded {r})")
                }
            }
            None => "no recorded outcome".to_string(),
        };
        println!("{}: {native}  {verdict}", t.display());
        if verdict.starts_with("MISMATCH") {
            for line in stderr.lines().take(5) {
                println!("    {line}");
            }
        }
    }
    println!("{ok} passed, {bad} failed");
    Ok(if bad > 0 { crate::EXIT_FOUND } else { 0 })
}
