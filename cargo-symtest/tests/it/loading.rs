//! Limits hold from the first byte: loading bitcode (exec, inspect) obeys
//! `--max-time` and `--max-memory`, and what LLVM's reader cannot survive is
//! a one-line error with exit code 2, never a signal (mutants of real
//! bitcode: see fuzz.rs).

use crate::support::*;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Runs the binary; returns its output, wall time and peak resident set in
/// MiB as the kernel counted it (its children included).
fn measured(args: &[&str]) -> (Output, Duration, f64) {
    use std::os::unix::process::ExitStatusExt;
    let started = Instant::now();
    // Reaped below by wait4(2), which also gives the resource usage.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(bin())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let (mut out, mut err) = (child.stdout.unwrap(), child.stderr.unwrap());
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut s).unwrap();
        s
    });
    let mut stdout = Vec::new();
    std::io::Read::read_to_end(&mut out, &mut stdout).unwrap();
    let stderr = reader.join().unwrap();
    let mut status = 0;
    // SAFETY: waiting for our own child; an all-zero rusage is valid.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    (
        Output {
            status: std::process::ExitStatus::from_raw(status),
            stdout,
            stderr,
        },
        started.elapsed(),
        usage.ru_maxrss as f64 / 1024.0,
    )
}

fn one_error_line(o: &Output) -> String {
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].starts_with("error: "), "{stderr}");
    lines[0].to_string()
}

/// A valid module whose loading needs a 1 GiB image of a global: under
/// `--max-memory 300` loading stops (the child that loads first is limited
/// to 300 MiB of address space) and neither process grows beyond the cap.
#[test]
fn loading_obeys_the_memory_cap() {
    let dir = scratch("loading-memory");
    let src = dir.join("big.c");
    std::fs::write(
        &src,
        "char big[(1 << 30) - 1] = {1};\nint main(void) { return big[5]; }\n",
    )
    .unwrap();
    let bc = compile(&src, &dir, &[]).unwrap();
    let bc = bc.to_str().unwrap();
    let out = dir.join("out");
    for args in [
        vec![
            "exec",
            bc,
            "--max-memory",
            "300",
            "--output-dir",
            out.to_str().unwrap(),
        ],
        vec!["inspect", bc, "--max-memory", "300"],
    ] {
        let (o, _, peak) = measured(&args);
        let line = one_error_line(&o);
        assert!(
            line.contains("needs more memory than --max-memory 300 MiB allows"),
            "{line}"
        );
        assert!(peak <= 330.0, "{args:?}: peak {peak:.0} MiB");
    }
    assert!(
        !out.exists(),
        "no output directory for a program that never ran"
    );
}

/// Loading counts against `--max-time`: a module too big to load in 50 ms
/// (the musl runtime, 3 MB of bitcode) stops at the deadline, in exec (the
/// link with the runtime and the load) and inspect.
#[test]
fn loading_obeys_the_time_limit() {
    let rt = crate::posix::runtime_bitcode();
    let rt = rt.to_str().unwrap();
    let dir = scratch("loading-time");
    let wc = dir.join("wc.bc");
    let src = workspace().join("tests/utils/wc.c");
    let o = symtest(&["cc", src.to_str().unwrap(), "-o", wc.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("out");
    for args in [
        vec!["inspect", rt, "--max-time", "0.05"],
        vec!["exec", rt, "--max-time", "0.05", "--entry-point", "strlen"],
        vec![
            "exec",
            wc.to_str().unwrap(),
            "--max-time",
            "0.05",
            "--libc=musl",
            "--posix-runtime",
            "--output-dir",
            out.to_str().unwrap(),
        ],
    ] {
        let (o, wall, _) = measured(&args);
        let line = one_error_line(&o);
        assert!(
            line.contains("did not finish within --max-time 0.05s"),
            "{line}"
        );
        assert!(wall < Duration::from_secs(5), "{args:?}: {wall:?}");
    }
    // With time enough, the same runs load.
    let o = symtest(&["inspect", rt, "--max-time", "120"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// What exec reads as bitcode must be a regular file: a device (which would
/// never end) or a FIFO (which would block) is refused before it is read.
#[test]
fn special_files_are_not_read_as_bitcode() {
    let dir = scratch("loading-special");
    let fifo = dir.join("p.bc");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for p in [Path::new("/dev/zero"), fifo.as_path(), dir.as_path()] {
        let (o, wall, _) = measured(&["exec", p.to_str().unwrap(), "--max-time", "10"]);
        let line = one_error_line(&o);
        assert!(line.contains("is not a regular file"), "{line}");
        assert!(wall < Duration::from_secs(5));
    }
}
