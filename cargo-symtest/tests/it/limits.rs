//! Searchers and limits, through the real binary.

use crate::support::*;
use std::path::{Path, PathBuf};

fn run(bc: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let o = symtest(&args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap()
}

fn fixture(dir: &Path, name: &str) -> PathBuf {
    compile(
        &workspace()
            .join("cargo-symtest/tests/it/fixtures")
            .join(name),
        dir,
        &[],
    )
    .unwrap()
}

#[test]
fn every_searcher_explores_every_path() {
    let dir = scratch("searchers");
    let bc = fixture(&dir, "paths12.c");
    let mut searchers: Vec<Vec<&str>> = [
        "dfs",
        "bfs",
        "random-state",
        "random-path",
        "nurs:covnew",
        "nurs:md2u",
        "nurs:depth",
        "nurs:rp",
        "nurs:icnt",
        "nurs:cpicnt",
        "nurs:qc",
    ]
    .iter()
    .map(|s| vec!["--search", *s])
    .collect();
    searchers.push(vec![
        "--search",
        "dfs",
        "--search",
        "bfs",
        "--search",
        "nurs:md2u",
    ]);
    for (i, s) in searchers.iter().enumerate() {
        let mut extra = s.clone();
        extra.extend(["--batch-instructions", "3"]);
        let stats = run(&bc, &dir.join(format!("out{i}")), &extra);
        assert_eq!(stats["paths_completed"], 12, "searcher {s:?}");
        assert_eq!(
            stats["covered_lines"], stats["total_lines"],
            "searcher {s:?}"
        );
    }
}

#[test]
fn fork_and_depth_limits_bound_the_exploration() {
    let dir = scratch("fork_limits");
    let bc = fixture(&dir, "paths12.c");
    let s = run(&bc, &dir.join("forks"), &["--max-forks", "2"]);
    assert!(s["forks"].as_u64().unwrap() <= 2, "{s}");
    assert_eq!(
        s["paths_completed"].as_u64().unwrap(),
        s["forks"].as_u64().unwrap() + 1
    );
    let s = run(&bc, &dir.join("depth"), &["--max-depth", "1"]);
    assert_eq!(
        s["paths_completed"], 2,
        "one symbolic branch per path: two paths"
    );
}

#[test]
fn instruction_budget_halts_and_keeps_unfinished_coverage() {
    let dir = scratch("budget");
    let bc = fixture(&dir, "spin.c");
    let out = dir.join("out");
    let s = run(&bc, &out, &["--max-instructions", "30000"]);
    assert_eq!(s["instructions"], 30000);
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(info.contains("--max-instructions 30000 reached"), "{info}");
    // The states cut short covered code no finished path did: they got tests
    // (run to their end on their inputs, or recorded as stopped early).
    let early = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json") && p.file_name().unwrap() != "stats.json"
        })
        .filter(|p| {
            let t = std::fs::read_to_string(p).unwrap();
            t.contains("\"early\"") || t.contains("\"completed_after\"")
        })
        .count();
    assert!(early >= 1, "expected tests for halted states");
}

#[test]
fn time_limit_stops() {
    let dir = scratch("time_limit");
    let bc = fixture(&dir, "spin.c");
    let t0 = std::time::Instant::now();
    let s = run(&bc, &dir.join("time"), &["--max-time", "2"]);
    let took = t0.elapsed().as_secs_f64();
    assert!(s["time_s"].as_f64().unwrap() >= 1.9, "{s}");
    assert!(took < 10.0, "--max-time 2 took {took:.1}s");
}

fn f(s: &serde_json::Value, k: &str) -> f64 {
    s[k].as_f64().unwrap_or_else(|| panic!("no {k} in {s}"))
}

/// A cap the megabytes fixture cannot fit in: 80% of what it uses uncapped.
fn tight_cap(dir: &Path, bc: &Path) -> u64 {
    let s = run(bc, &dir.join("uncapped"), &["--search", "bfs"]);
    assert_eq!(f(&s, "paths_completed"), 64.0, "{s}");
    assert_eq!(f(&s, "suspensions"), 0.0, "{s}");
    (f(&s, "memory_peak_mb") * 0.8).ceil() as u64
}

/// At the memory cap, states are suspended to disk and resumed: every path
/// still completes (with its memory intact: the fixture checks every byte it
/// wrote), none is dropped, and resident memory stays within 10% of the cap.
#[test]
fn memory_cap_suspends_states_and_loses_none() {
    let dir = scratch("memory_suspend");
    let bc = fixture(&dir, "megabytes.c");
    let cap = tight_cap(&dir, &bc);
    let out = dir.join("capped");
    let s = run(
        &bc,
        &out,
        &["--search", "bfs", "--max-memory", &cap.to_string()],
    );
    assert!(f(&s, "suspensions") > 0.0, "cap {cap}: {s}");
    assert_eq!(f(&s, "resumptions"), f(&s, "suspensions"), "{s}");
    assert_eq!(f(&s, "states_dropped"), 0.0, "{s}");
    assert_eq!(f(&s, "paths_completed"), 64.0, "{s}");
    assert_eq!(f(&s, "errors"), 0.0, "a resumed state lost its memory: {s}");
    assert!(
        f(&s, "memory_peak_mb") <= cap as f64 * 1.1,
        "peak {} MiB over --max-memory {cap} + 10%",
        f(&s, "memory_peak_mb")
    );
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(info.contains("halt reason: all paths explored"), "{info}");
    assert!(
        !out.join("suspended").exists(),
        "the suspend directory is removed at the end"
    );
    // Where the memory went: the census saw the states.
    assert!(s["memory"]["states"].as_u64().unwrap() > 0, "{s}");
    assert!(
        s["memory"]["per_state_bytes"].as_f64().unwrap() > 0.0,
        "{s}"
    );
}

/// Without suspension (`--max-suspend-disk 0`), states are dropped at the
/// cap: counted in stats.json, on the progress line and in the halt reason,
/// never a plain "all paths explored".
#[test]
fn drops_at_the_memory_cap_are_counted_and_named_in_the_halt_reason() {
    let dir = scratch("memory_drop");
    let bc = fixture(&dir, "megabytes.c");
    let cap = tight_cap(&dir, &bc);
    let out = dir.join("dropped");
    let s = run(
        &bc,
        &out,
        &[
            "--search",
            "bfs",
            "--max-memory",
            &cap.to_string(),
            "--max-suspend-disk",
            "0",
        ],
    );
    let dropped = s["states_dropped"].as_u64().unwrap();
    assert!(dropped > 0, "{s}");
    assert_eq!(f(&s, "suspensions"), 0.0, "{s}");
    assert_eq!(f(&s, "errors"), 0.0, "{s}");
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(
        info.contains(&format!(
            "halt reason: all remaining paths explored; {dropped} state(s) dropped by the memory cap"
        )),
        "{info}"
    );
    assert!(
        info.contains(&format!("{dropped} dropped (memory cap)")),
        "{info}"
    );
    assert!(!info.contains("halt reason: all paths explored"), "{info}");
}

/// A suspend budget used up (as a full disk would be) falls back to dropping,
/// counted and warned about; the run goes on.
#[test]
fn a_full_suspend_budget_falls_back_to_dropping() {
    let dir = scratch("memory_budget");
    let bc = fixture(&dir, "megabytes.c");
    let cap = tight_cap(&dir, &bc);
    let out = dir.join("budget");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--search",
        "bfs",
        "--max-memory",
        &cap.to_string(),
        "--max-suspend-disk",
        "1",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("cannot suspend states to disk (the suspend directory's budget of 1 MiB is used up); dropping them"),
        "{err}"
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert!(f(&s, "states_dropped") > 0.0, "{s}");
    assert_eq!(f(&s, "errors"), 0.0, "{s}");
}

/// A cap below what the run needs before exploring is a clear error (exit
/// 2), not a loop of drops.
#[test]
fn a_cap_below_the_start_is_refused_with_a_message() {
    let dir = scratch("memory_small");
    let bc = fixture(&dir, "spin.c");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        dir.join("o").to_str().unwrap(),
        "--max-memory",
        "1",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--max-memory 1 MiB is too small: the run uses")
            && err.contains("before exploring"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// One state that alone outgrows the cap cannot be helped by taking others
/// out of memory: the run stops with a clear reason (tests so far kept),
/// within 10% of the cap, instead of dropping states in a loop.
#[test]
fn one_state_above_the_cap_stops_the_run_with_a_message() {
    let dir = scratch("memory_one_state");
    let bc = fixture(&dir, "one_big_state.c");
    let out = dir.join("o");
    let s = run(&bc, &out, &["--max-memory", "150"]);
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(
        info.contains("halt reason: --max-memory 150 MiB is too small for this program: with one state in memory the run uses"),
        "{info}"
    );
    assert_eq!(f(&s, "states_dropped"), 0.0, "{s}");
    assert!(f(&s, "memory_peak_mb") <= 165.0, "{s}");
}

/// Suspended-state files damaged or written by another binary while the run
/// waits are refused with a message when they are read back; their states
/// are counted as dropped and the run goes on to its end.
#[test]
fn refused_suspend_files_are_reported_and_the_run_continues() {
    let dir = scratch("memory_corrupt");
    let bc = fixture(&dir, "megabytes.c");
    let cap = tight_cap(&dir, &bc);
    let spill = dir.join("spill");
    std::fs::create_dir_all(&spill).unwrap();
    let out = dir.join("corrupt");
    // Damages every file that appears: the first in its payload, the next in
    // the header's binary identity, alternately.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (spill, stop) = (spill.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut done = std::collections::BTreeSet::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for e in std::fs::read_dir(&spill).into_iter().flatten().flatten() {
                    let p = e.path();
                    if done.contains(&p) || p.extension().is_none_or(|x| x != "state") {
                        continue;
                    }
                    let Ok(mut data) = std::fs::read(&p) else {
                        continue;
                    };
                    if data.len() < 60 {
                        continue;
                    }
                    let at = if done.len() % 2 == 0 {
                        data.len() - 1
                    } else {
                        14
                    };
                    data[at] ^= 0x5a;
                    if std::fs::write(&p, &data).is_ok() {
                        done.insert(p);
                    }
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            done.len()
        })
    };
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--search",
        "bfs",
        "--max-memory",
        &cap.to_string(),
        "--suspend-dir",
        spill.to_str().unwrap(),
    ]);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let damaged = watcher.join().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(damaged >= 2, "the test damaged {damaged} file(s)");
    assert!(
        err.contains("a file of suspended states was refused: it is corrupt (checksum mismatch)"),
        "{err}"
    );
    assert!(
        err.contains("was refused: it was written by another symtest binary or format"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    // A lost state held a whole subtree of paths: fewer than 64 end.
    let lost = f(&s, "states_dropped");
    assert!(lost > 0.0, "{s}");
    assert!(f(&s, "paths_completed") < 64.0, "{s}");
    assert_eq!(f(&s, "errors"), 0.0, "{s}");
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(
        info.contains("state(s) dropped by the memory cap"),
        "{info}"
    );
}

/// A run of the binary, measured: exit code, stderr, wall time from spawn to
/// exit, and the peak resident memory of the command and every process it
/// waited for (`wait4`: the supervised child that explores included).
struct Measured {
    code: Option<i32>,
    stderr: String,
    wall_s: f64,
    peak_mib: f64,
}

fn measured(args: &[&str]) -> Measured {
    use std::io::Read;
    let t0 = std::time::Instant::now();
    // Reaped below by wait4(2), which also gives the resource usage.
    #[allow(clippy::zombie_processes)]
    let mut child = std::process::Command::new(bin())
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run cargo-symtest");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 reaps our own child.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    assert_eq!(r, pid, "wait4");
    let wall_s = t0.elapsed().as_secs_f64();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Measured {
        code,
        stderr,
        wall_s,
        peak_mib: ru.ru_maxrss as f64 / 1024.0,
    }
}

/// Within `--max-time` + 10% and `--max-memory` + 10%, as measured.
fn assert_within(m: &Measured, max_time: f64, max_memory: f64, what: &str) {
    assert!(
        m.wall_s <= max_time * 1.1,
        "{what}: {:.2}s with --max-time {max_time}\n{}",
        m.wall_s,
        m.stderr
    );
    assert!(
        m.peak_mib <= max_memory * 1.1,
        "{what}: peak {:.0} MiB with --max-memory {max_memory}\n{}",
        m.peak_mib,
        m.stderr
    );
}

/// Huge lengths of the POSIX environment's options (the `--sym-stdin
/// 100000000` that once grew to 5 GiB past a 5 s budget) are refused before
/// anything is built, naming the option and the size: one line, exit 2,
/// within the budget and the cap.
#[test]
fn huge_environment_sizes_are_refused_within_the_limits() {
    let dir = scratch("huge_env");
    let bc = cc_bitcode(&workspace().join("tests/posix/wc.c"), &dir);
    for (args, says) in [
        (
            &["--sym-stdin", "100000000"][..],
            "--sym-stdin 100000000 needs about 30518 MiB",
        ),
        (
            &["--sym-files", "2", "100000000"][..],
            "--sym-files 2 100000000 needs about",
        ),
        (
            &["--sym-args", "0", "2", "100000000"][..],
            "--sym-args 0 2 100000000 needs about",
        ),
        (
            &["--sym-stdin", "3000000"][..],
            "--sym-stdin 3000000 needs about 916 MiB",
        ),
        (
            &["--sym-arg", "5000"][..],
            "--sym-arg: an argument of 5000 bytes is longer than 4096",
        ),
    ] {
        let out = dir.join("out");
        let mut v = vec![
            "exec",
            bc.to_str().unwrap(),
            "--output-dir",
            out.to_str().unwrap(),
            "--libc=musl",
            "--posix-runtime",
            "--max-time",
            "5",
            "--max-memory",
            "1000",
            "--",
        ];
        v.extend_from_slice(args);
        let m = measured(&v);
        assert_eq!(m.code, Some(2), "{args:?}: {}", m.stderr);
        let lines: Vec<&str> = m.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: {}", m.stderr);
        assert!(
            lines[0].starts_with("error: ") && lines[0].contains(says),
            "{args:?}: {}",
            m.stderr
        );
        if args[0] != "--sym-arg" {
            assert!(lines[0].contains("--max-memory 1000 MiB"), "{}", m.stderr);
        }
        assert_within(&m, 5.0, 1000.0, &format!("{args:?}"));
    }
}

fn big_symbolic(dir: &Path, size: u64, count: u32) -> PathBuf {
    let sub = dir.join(format!("size{size}x{count}"));
    std::fs::create_dir_all(&sub).unwrap();
    compile(
        &workspace().join("cargo-symtest/tests/it/fixtures/big_symbolic.c"),
        &sub,
        &[&format!("-DSIZE={size}UL"), &format!("-DCOUNT={count}")],
    )
    .unwrap()
}

/// The limits hold inside one `make_symbolic` call: bytes that cannot fit
/// the cap are refused before any is built, and so are those whose
/// expression-pool table would not fit; a size that takes longer than the budget
/// stops at the deadline. Each run ends (exit 0, tests so far kept, the
/// reason in `info`) within the budget and the cap + 10%, as measured.
#[test]
fn make_symbolic_stops_at_the_limits_inside_the_call() {
    let dir = scratch("make_symbolic_limits");
    // Refused: 100 M bytes need ~38 GiB.
    let bc = big_symbolic(&dir, 100_000_000, 1);
    let out = dir.join("refused");
    let m = measured(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--max-time",
        "5",
        "--max-memory",
        "1000",
        "-q",
    ]);
    assert_eq!(m.code, Some(0), "{}", m.stderr);
    assert_within(&m, 5.0, 1000.0, "refused");
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(
        info.contains("halt reason: make_symbolic of `x` (100000000 bytes) needs about 30518 MiB")
            && info.contains("--max-memory is 1000 MiB"),
        "{info}"
    );
    // Each let through by the estimate (500,000 x 320 bytes < 300 MiB), but
    // not three: the third would grow the expression pool's table (the old
    // and the new one at once) past the cap, and is refused before that.
    let bc = big_symbolic(&dir, 500_000, 3);
    let out = dir.join("cap");
    let m = measured(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--max-time",
        "20",
        "--max-memory",
        "300",
        "-q",
    ]);
    assert_eq!(m.code, Some(0), "{}", m.stderr);
    assert_within(&m, 20.0, 300.0, "cap");
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(
        info.contains("halt reason: make_symbolic of `x` (500000 bytes) needs ")
            && info.contains("MiB more for the expression pool's table with ")
            && info.contains("--max-memory is 300 MiB"),
        "{info}"
    );
    // 8 M bytes take the engine about 9 s (release build): the deadline stops
    // the call.
    let bc = big_symbolic(&dir, 8_000_000, 1);
    let out = dir.join("time");
    let m = measured(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--max-time",
        "4",
        "--max-memory",
        "4000",
        "-q",
    ]);
    assert_eq!(m.code, Some(0), "{}", m.stderr);
    assert_within(&m, 4.0, 4000.0, "time");
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(
        info.contains("halt reason: --max-time 4s reached"),
        "{info}"
    );
}
