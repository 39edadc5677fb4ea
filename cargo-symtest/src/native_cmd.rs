//! `cargo symtest replay --native PROGRAM TEST...`: replay whole-program tests
//! (those of `exec --posix-runtime`) on an unmodified native executable and
//! compare each outcome with the recorded one.

use crate::native_run::{self, NativeRun, RunOptions};
use crate::native_world::World;
use crate::replay::{ErrorKind, Outcome};
use crate::replay_cmd::{recorded_outcome, reproduces};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::time::Duration;
use symtest_ktest::KTest;

/// What `replay --native` needs besides the tests.
pub struct NativeArgs<'a> {
    pub program: &'a Path,
    pub timeout: Duration,
    pub gcov_dir: Option<&'a Path>,
    pub keep_dirs: bool,
    /// One JSON object per test instead of text lines.
    pub json: bool,
}

/// The words after `--` of the `exec` run that wrote `ktest`: the JSON's
/// `program_args`, else the .ktest's own argument list without argv[0].
pub fn program_args(ktest_path: &Path, ktest: &KTest) -> Vec<String> {
    let json = std::fs::read_to_string(ktest_path.with_extension("json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
    if let Some(list) = json
        .as_ref()
        .and_then(|v| v["program_args"].as_array().cloned())
    {
        return list
            .iter()
            .filter_map(|w| w.as_str().map(String::from))
            .collect();
    }
    ktest.args.iter().skip(1).cloned().collect()
}

/// The bytes the engine recorded as written to fd 1: the JSON's optional
/// `stdout_hex` (exact), else `stdout` (a string, an array of byte values, or
/// `{"hex": "..."}`).
pub fn recorded_stdout(ktest_path: &Path) -> Option<Vec<u8>> {
    let text = std::fs::read_to_string(ktest_path.with_extension("json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let from_hex = |hex: &str| -> Option<Vec<u8>> {
        (0..hex.len())
            .step_by(2)
            .map(|i| {
                hex.get(i..i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
            })
            .collect()
    };
    if let Some(hex) = v["stdout_hex"].as_str() {
        return from_hex(hex);
    }
    let s = &v["stdout"];
    if let Some(t) = s.as_str() {
        return Some(t.as_bytes().to_vec());
    }
    if let Some(list) = s.as_array() {
        return list
            .iter()
            .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
            .collect();
    }
    from_hex(s["hex"].as_str()?)
}

/// Why the engine stopped a path early (`outcome.early.reason`), if it did.
fn early_reason(ktest_path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(ktest_path.with_extension("json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["outcome"]["early"]["reason"].as_str().map(String::from)
}

/// Does a native outcome reproduce the recorded one?  Besides the harness
/// rules: exit codes compare modulo 256 (the kernel keeps the low byte), and
/// an illegal-instruction trap (UBSan built with trap-on-error, which
/// `cc --native` uses) reproduces an out-of-bounds or overflow error.
pub fn native_reproduces(recorded: Outcome, native: Outcome) -> bool {
    match (recorded, native) {
        (Outcome::Exit(a), Outcome::Exit(b)) => a & 0xff == b & 0xff,
        // The engine ran the path concretely for its whole allowance without
        // an end: all it claims is that the program runs at least that long.
        // A native run that exits after more work than that (a long `seq`)
        // does not contradict it; a crash does.
        (Outcome::Timeout, Outcome::Exit(_)) => true,
        (Outcome::Error(ErrorKind::Ptr | ErrorKind::Overflow), Outcome::Signal(4)) => true,
        (r, n) => reproduces(r, n),
    }
}

/// Whether the engine recorded an outcome a native run can be held to.
fn replayable(recorded: Option<Outcome>) -> bool {
    !matches!(
        recorded,
        None | Some(Outcome::Error(
            ErrorKind::Exec
                | ErrorKind::External
                | ErrorKind::Model
                | ErrorKind::Solver
                | ErrorKind::Mismatch
        ))
    )
}

/// One test's verdict.
pub struct Verdict {
    pub recorded: Option<Outcome>,
    pub run: NativeRun,
    /// Failure values of the test that the native run never reached.  Not a
    /// mismatch by itself: on a path that used up its failures (or never
    /// made a call of the class) the engine only knows that the value
    /// differs from every count it saw, so it may lie beyond the last call.
    pub missed_failures: Vec<String>,
    /// The engine recorded stdout and the native run wrote something else.
    pub stdout_differs: bool,
    pub ok: bool,
}

/// Replays one test.
pub fn replay_one(test: &Path, a: &NativeArgs, shim: Option<&Path>) -> Result<Verdict> {
    let ktest = KTest::read_from(test).with_context(|| format!("reading {}", test.display()))?;
    let args = program_args(test, &ktest);
    let world = World::from_test(&args, &ktest)
        .with_context(|| format!("{}: cannot rebuild the test's world", test.display()))?;
    let argv0 = a
        .program
        .file_name()
        .map_or("program".into(), |n| n.to_string_lossy().into_owned());
    // The shim fixes the clock (always) and injects the failures (if any).
    let shim = shim.context("internal: shim not built")?;
    let run = native_run::run(
        &world,
        &RunOptions {
            program: a.program,
            argv0: &argv0,
            shim: Some(shim),
            timeout: a.timeout,
            gcov_dir: a.gcov_dir,
            keep_dir: a.keep_dirs,
            alloc_limit: crate::replay::recorded_alloc_limit(test),
        },
    )?;
    let missed_failures: Vec<String> = world
        .failures
        .iter()
        .filter(|(c, k)| {
            !run.injected
                .iter()
                .any(|l| l.starts_with(&format!("{c} {k} ")))
        })
        .map(|(c, k)| format!("{c}#{k}"))
        .collect();
    let recorded = recorded_outcome(test);
    let stdout_differs = recorded_stdout(test).is_some_and(|s| {
        if recorded == Some(Outcome::Timeout) {
            // Both outputs were cut off (the engine's allowance, the native
            // time limit): one must begin the other.
            !(run.stdout.starts_with(&s) || s.starts_with(&run.stdout))
        } else {
            s != run.stdout
        }
    });
    let ok = recorded.is_some_and(|r| native_reproduces(r, run.outcome)) && !stdout_differs;
    Ok(Verdict {
        stdout_differs,
        recorded,
        run,
        missed_failures,
        ok,
    })
}

/// One test's verdict as a JSON object (`replay --native --json`).
fn verdict_json(test: &Path, v: &Verdict, compared: bool) -> serde_json::Value {
    use std::os::unix::process::ExitStatusExt;
    let status = v.run.status;
    serde_json::json!({
        "test": test.display().to_string(),
        "outcome": v.run.outcome.to_string(),
        "exit_code": status.and_then(|s| s.code()),
        "signal": status.and_then(|s| s.signal()),
        "timed_out": status.is_none(),
        "recorded": v.recorded.map(|r| r.to_string()),
        "compared": compared,
        "ok": compared && v.ok,
        "stdout_differs": v.stdout_differs,
        "injected": v.run.injected,
        "not_reached": v.missed_failures,
        "stderr": v.run.stderr,
    })
}

/// The line of test `t`'s verdict `v` (`compared`: whether its recorded
/// outcome is one to compare with), with the first lines of stderr of a
/// mismatch; with the kept directory when `keep_dirs`.
fn print_verdict(t: &Path, v: &Verdict, compared: bool, keep_dirs: bool) {
    let mut notes = if v.run.injected.is_empty() {
        String::new()
    } else {
        format!("  [failed: {}]", v.run.injected.join(", "))
    };
    if !v.missed_failures.is_empty() {
        notes.push_str(&format!(
            "  [not reached: {}]",
            v.missed_failures.join(", ")
        ));
    }
    if keep_dirs {
        notes.push_str(&format!("  (kept {})", v.run.dir.display()));
    }
    let native = v.run.outcome;
    if !compared {
        // Still run (the inputs are real, e.g. for coverage), but there is
        // no program behaviour to compare with.
        let why = match v.recorded {
            Some(r) => format!("engine recorded {r}, an engine limit"),
            None => match early_reason(t) {
                Some(reason) => format!("engine stopped the path early: {reason}"),
                None => "no recorded outcome".to_string(),
            },
        };
        println!("{}: {native}  not compared ({why}){notes}", t.display());
        return;
    }
    let r = v.recorded.expect("replayable");
    if v.ok {
        println!("{}: {native}  ok{notes}", t.display());
    } else {
        let stdout = if v.stdout_differs {
            "; stdout differs from the recorded one"
        } else {
            ""
        };
        println!(
            "{}: {native}  MISMATCH (engine recorded {r}{stdout}){notes}",
            t.display()
        );
        for line in v.run.stderr.lines().take(5) {
            println!("    {line}");
        }
    }
}

/// The command: every test, one line each, then a summary.  Exit 1 when a
/// replayed test does not reproduce its recorded outcome, a test is corrupt,
/// or no test could be compared.
pub fn run(tests: &[PathBuf], a: &NativeArgs) -> Result<u8> {
    if !a.program.is_file() {
        bail!(
            "program {} not found (build it with `cargo symtest cc --native`)",
            a.program.display()
        );
    }
    let program = std::fs::canonicalize(a.program)
        .with_context(|| format!("resolving {}", a.program.display()))?;
    let gcov_dir = match a.gcov_dir {
        Some(d) => {
            std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
            Some(std::fs::canonicalize(d)?)
        }
        None => None,
    };
    let a = NativeArgs {
        program: &program,
        gcov_dir: gcov_dir.as_deref(),
        ..*a
    };
    let mut shim = None;
    let (mut ok, mut bad, mut unchecked) = (0, 0, 0);
    for t in tests {
        if shim.is_none() {
            shim = Some(crate::shim::shim(&symtest_project::paths::models_dir())?);
        }
        let problem = match KTest::read_from(t) {
            Err(e) => Some(e.to_string()),
            Ok(k) => World::from_test(&program_args(t, &k), &k)
                .err()
                .map(|e| format!("cannot rebuild the test's world: {e}")),
        };
        if let Some(e) = problem {
            // A corrupt test is a failed one: it cannot show what the program does.
            bad += 1;
            if a.json {
                let v = serde_json::json!({
                    "test": t.display().to_string(), "corrupt": e.to_string(),
                    "compared": false, "ok": false,
                });
                println!("{v}");
            } else {
                println!("{}: CORRUPT ({e})", t.display());
            }
            continue;
        }
        let v = replay_one(t, &a, shim.as_deref())?;
        let compared = replayable(v.recorded);
        match (compared, v.ok) {
            (false, _) => unchecked += 1,
            (true, true) => ok += 1,
            (true, false) => bad += 1,
        }
        if a.json {
            println!("{}", verdict_json(t, &v, compared));
            continue;
        }
        print_verdict(t, &v, compared, a.keep_dirs);
    }
    if a.json {
        println!(
            "{}",
            serde_json::json!({"summary": {"passed": ok, "failed": bad, "not_compared": unchecked}})
        );
    } else {
        println!("{ok} passed, {bad} failed, {unchecked} not compared");
    }
    if bad > 0 {
        return Ok(crate::EXIT_FOUND);
    }
    if ok == 0 {
        eprintln!(
            "error: no test was compared with a recorded outcome ({unchecked} not compared): nothing was checked"
        );
        return Ok(crate::EXIT_FOUND);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::ErrorKind::*;

    #[test]
    fn native_outcome_rules() {
        assert!(native_reproduces(Outcome::Exit(256 + 3), Outcome::Exit(3)));
        assert!(!native_reproduces(Outcome::Exit(3), Outcome::Exit(4)));
        assert!(native_reproduces(Outcome::Error(Ptr), Outcome::Signal(4)));
        assert!(native_reproduces(
            Outcome::Error(Overflow),
            Outcome::Signal(4)
        ));
        assert!(!native_reproduces(Outcome::Error(Div), Outcome::Signal(4)));
        assert!(native_reproduces(Outcome::Error(Div), Outcome::Error(Div)));
        assert!(native_reproduces(
            Outcome::Error(Assert),
            Outcome::Error(Abort)
        ));
        assert!(!native_reproduces(Outcome::Exit(0), Outcome::Timeout));
        // "No end within N instructions" holds for a native run that times
        // out or ends after more work; not for one that crashes.
        assert!(native_reproduces(Outcome::Timeout, Outcome::Timeout));
        assert!(native_reproduces(Outcome::Timeout, Outcome::Exit(0)));
        assert!(!native_reproduces(Outcome::Timeout, Outcome::Signal(11)));
        assert!(!replayable(None));
        assert!(!replayable(Some(Outcome::Error(Model))));
        assert!(replayable(Some(Outcome::Error(Ptr))));
    }

    #[test]
    fn json_fields() {
        let dir = std::env::temp_dir().join(format!("symtest-native-cmd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let t = dir.join("test000001.ktest");
        let kt = KTest {
            args: vec!["p.bc".into(), "--sym-arg".into(), "2".into()],
            ..KTest::default()
        };
        // No JSON: the .ktest's arguments.
        assert_eq!(program_args(&t, &kt), ["--sym-arg", "2"]);
        assert_eq!(recorded_stdout(&t), None);
        let json = t.with_extension("json");
        std::fs::write(&json, r#"{"program_args": ["-n", "A"], "stdout": "hi\n"}"#).unwrap();
        assert_eq!(program_args(&t, &kt), ["-n", "A"]);
        assert_eq!(recorded_stdout(&t).unwrap(), b"hi\n");
        std::fs::write(&json, r#"{"stdout": [104, 255]}"#).unwrap();
        assert_eq!(recorded_stdout(&t).unwrap(), [104, 255]);
        std::fs::write(&json, r#"{"stdout": {"hex": "68ff"}}"#).unwrap();
        assert_eq!(recorded_stdout(&t).unwrap(), [104, 255]);
        // The exact form wins over the lossy text.
        std::fs::write(&json, r#"{"stdout": "h\ufffd", "stdout_hex": "68ff"}"#).unwrap();
        assert_eq!(recorded_stdout(&t).unwrap(), [104, 255]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
