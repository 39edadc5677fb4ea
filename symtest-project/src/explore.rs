//! The engine run of one target, isolated in a subprocess (`cargo-symtest exec`, the
//! current executable): a crash, an out-of-memory kill or a signal ends only that
//! target. The engine's own `--max-time` stops it; a watchdog kills it if it overruns
//! the budget by more than 10% (plus one second to start up).

use crate::config::Kind;
use crate::discovery::Target;
use crate::explore_options::ExploreOptions;
use crate::progress::Live;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub struct ExploreResult {
    pub elapsed_s: f64,
    /// The watchdog stopped an engine that overran its budget; the tests it wrote
    /// so far are usable, its statistics and coverage claim are missing.
    pub overran: bool,
    /// Err: how the engine failed (exit status / signal, last lines of stderr).
    pub status: Result<(), String>,
}

/// The options of a target's engine run, writing to `out` within `budget_s`
/// (the pipeline adds its seeds and a gate run's directions).
pub fn options(t: &Target, out: &Path, budget_s: f64) -> ExploreOptions {
    let mut o = ExploreOptions {
        output_dir: Some(out.to_path_buf()),
        max_time: Some(budget_s),
        quiet: true,
        progress_json: true,
        max_instructions: t.max_instructions,
        search: t.search.clone(),
        ..ExploreOptions::default()
    };
    if let Some(n) = t.max_memory {
        o.max_memory = n;
    }
    if let Some(n) = t.seed {
        o.seed = n;
    }
    if let Some(e) = &t.entry_point {
        o.entry_point = e.clone();
    }
    if t.kind == Kind::Program {
        // The POSIX environment and the musl libc models (`exec --libc=musl --posix-runtime`).
        o.libc = "musl".into();
        o.posix_runtime = true;
        o.option_seeds = t.option_seeds;
    }
    o
}

/// The arguments of `cargo-symtest exec` running target `t`'s bitcode `bc`
/// with options `o`: the target's own `exec-args` among them, and for a
/// program its arguments after `--`.
pub fn command(t: &Target, bc: &Path, o: &ExploreOptions) -> Vec<String> {
    let mut a: Vec<String> = vec!["exec".into(), bc.display().to_string()];
    a.extend(o.to_args_with(&t.exec_args));
    if t.kind == Kind::Program {
        a.push("--".into());
        a.extend(t.args.iter().cloned());
    }
    a
}

/// The arguments of `cargo-symtest exec` for a target.
pub fn exec_args(t: &Target, bc: &Path, out: &Path, budget_s: f64) -> Vec<String> {
    command(t, bc, &options(t, out, budget_s))
}

/// Runs the engine on target `t`'s bitcode `bc` with options `o` (from
/// [`options`] for `out` and `budget_s`, with the pipeline's additions);
/// `live` receives its progress about once a second.
pub fn run(
    t: &Target,
    bc: &Path,
    out: &Path,
    budget_s: f64,
    o: &ExploreOptions,
    live: impl FnMut(Live),
) -> ExploreResult {
    run_exec(&command(t, bc, o), &t.root, out, budget_s, live)
}

/// Runs `cargo-symtest` with `args` (an `exec` command line writing to
/// `out`, with `--progress-json`) from `cwd`, under the watchdog of a
/// `budget_s` run; `live` receives its progress about once a second.
pub fn run_exec(
    args: &[String],
    cwd: &Path,
    out: &Path,
    budget_s: f64,
    mut live: impl FnMut(Live),
) -> ExploreResult {
    let started = Instant::now();
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("cargo-symtest"));
    let _ = std::fs::remove_dir_all(out);
    let mut cmd = Command::new(exe);
    // The engine dies with the run (as a killed run's lock is released at
    // once, a run that takes it over must not meet the engine still writing).
    // SAFETY: prctl is async-signal-safe; the closure allocates nothing.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            Ok(())
        });
    }
    let mut child = match cmd
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            return ExploreResult {
                elapsed_s: 0.0,
                overran: false,
                status: Err(format!("cannot start the engine: {e}")),
            }
        }
    };
    let stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Duration::from_secs_f64(budget_s * 1.1 + 1.0);
    let mut killed = false;
    let status = loop {
        while let Ok(line) = rx.try_recv() {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) {
                let n = |k: &str| v.get(k).and_then(|x| x.as_u64()).unwrap_or(0);
                live(Live {
                    elapsed_s: v.get("time_s").and_then(|x| x.as_f64()).unwrap_or(0.0),
                    budget_s,
                    paths: n("paths_completed"),
                    tests: n("tests"),
                    covered_lines: n("covered_lines"),
                    bugs: n("errors"),
                });
            }
        }
        match child.try_wait() {
            Ok(Some(s)) => break Ok(s),
            Ok(None) => {}
            Err(e) => break Err(e),
        }
        if !killed && started.elapsed() > deadline {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(25));
    };
    let elapsed_s = started.elapsed().as_secs_f64();
    let _ = reader.join();
    let stderr_text = err_reader.join().unwrap_or_default();
    ExploreResult {
        elapsed_s,
        overran: killed,
        status: outcome(status, killed, &stderr_text),
    }
}

/// How the engine's process ended, as the run's status: Err with its exit
/// status or signal and the last lines of its stderr.
fn outcome(
    status: std::io::Result<std::process::ExitStatus>,
    killed: bool,
    stderr_text: &str,
) -> Result<(), String> {
    let tail: String = {
        let lines: Vec<&str> = stderr_text.lines().collect();
        lines[lines.len().saturating_sub(8)..].join("\n")
    };
    match status {
        Err(e) => Err(format!("waiting for the engine: {e}")),
        // Killed by the watchdog: the tests it wrote are complete files
        // (each written atomically), so the target goes on with them
        // (`overran`: no statistics or coverage claim).
        Ok(_) if killed => Ok(()),
        Ok(s) if s.success() => Ok(()),
        Ok(s) => {
            use std::os::unix::process::ExitStatusExt;
            let how = match (s.code(), s.signal()) {
                (_, Some(sig)) => {
                    format!("the engine was killed by signal {sig}{}", signal_hint(sig))
                }
                (Some(c), None) => format!("the engine exited with code {c}"),
                _ => "the engine failed".to_string(),
            };
            Err(if tail.is_empty() {
                how
            } else {
                format!("{how}:\n{tail}")
            })
        }
    }
}

fn signal_hint(sig: i32) -> &'static str {
    match sig {
        9 => " (SIGKILL: killed, e.g. by the out-of-memory killer)",
        6 => " (SIGABRT: crashed or out of memory)",
        11 => " (SIGSEGV: crashed)",
        _ => "",
    }
}
