//! The limits loading bitcode is held to (`--max-time`, `--max-memory`),
//! reading the file, and LLVM tools run on it under those limits. The
//! loading itself happens in a supervised child process: see `supervise.rs`.

use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Without `--max-time`, loading still ends after this many seconds (a
/// module symtest can explore loads in well under a second).
pub const DEFAULT_LOAD_SECONDS: u64 = 300;

/// The address-space limit of loading is never below this (MiB), so that a
/// small `--max-memory` (which only makes exploration drop states) does not
/// stop the program from loading: this binary alone maps about 80 MiB.
pub const MIN_LOAD_MEMORY_MIB: u64 = 256;

/// The largest `--max-memory` accepted anywhere (MiB): 16 TiB.
pub const MAX_MEMORY_MIB: u64 = symtest_project::config::MAX_MEMORY_MIB;

/// Checks a `--max-memory` value (MiB).
pub fn check_memory(mib: u64) -> Result<(), String> {
    if mib == 0 || mib > MAX_MEMORY_MIB {
        return Err(format!(
            "--max-memory must be between 1 and {MAX_MEMORY_MIB} MiB (got {mib})"
        ));
    }
    Ok(())
}

/// The limits loading is held to.
#[derive(Clone, Debug)]
pub struct Limits {
    pub deadline: Instant,
    /// What set the deadline, for messages (`--max-time 5s`).
    pub time_source: String,
    /// The memory cap (MiB) as given.
    pub memory_mib: u64,
}

impl Limits {
    /// Limits counted from `start` (when the command started).
    pub fn new(start: Instant, max_time: Option<Duration>, memory_mib: u64) -> Limits {
        let (budget, time_source) = match max_time {
            Some(t) => (t, format!("--max-time {}s", t.as_secs_f64())),
            None => (
                Duration::from_secs(DEFAULT_LOAD_SECONDS),
                format!("{DEFAULT_LOAD_SECONDS} s (the loading limit without --max-time)"),
            ),
        };
        // A budget beyond what the clock can add is no deadline at all.
        let deadline = start
            .checked_add(budget)
            .unwrap_or_else(|| start + Duration::from_secs(u64::from(u32::MAX)));
        Limits {
            deadline,
            time_source,
            memory_mib,
        }
    }

    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// The child's address-space limit in bytes.
    pub fn address_space(&self) -> u64 {
        self.memory_mib
            .max(MIN_LOAD_MEMORY_MIB)
            .saturating_mul(1 << 20)
    }

    fn memory_source(&self) -> String {
        if self.memory_mib >= MIN_LOAD_MEMORY_MIB {
            format!("--max-memory {} MiB", self.memory_mib)
        } else {
            format!("{MIN_LOAD_MEMORY_MIB} MiB (the loading minimum of --max-memory)")
        }
    }
}

/// Reads the bitcode file: a regular file no larger than the memory cap
/// (a device, FIFO or directory is refused before it is opened for reading).
pub fn read_bitcode(path: &Path, limits: &Limits) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| {
        format!("cannot read `{shown}`: {e}; check that the path exists and is readable")
    })?;
    if !meta.is_file() {
        return Err(format!(
            "`{shown}` is not a regular file; symtest reads LLVM bitcode from a file"
        ));
    }
    let cap = limits.address_space();
    if meta.len() > cap {
        return Err(format!(
            "`{shown}` is {} bytes, more than the loading limit of {}",
            meta.len(),
            limits.memory_source()
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(cap.saturating_add(1)).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "`{shown}` grew beyond the loading limit of {} while being read",
            limits.memory_source()
        ));
    }
    Ok(bytes)
}

/// Runs an LLVM tool (`llvm-link-19`) on bitcode under the limits.
/// `what` names the step in messages.
pub fn run_tool(cmd: Command, what: &str, limits: &Limits) -> Result<Output, String> {
    let line = format!(
        "{} {}",
        cmd.get_program().to_string_lossy(),
        cmd.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let cmd_name = cmd.get_program().to_string_lossy().into_owned();
    match run_bounded(cmd, None, limits) {
        Err(e) => Err(format!(
            "could not run `{line}`: {e} (is llvm-19 installed?)"
        )),
        Ok(Bounded::TimedOut) => Err(format!(
            "{what} did not finish within {}",
            limits.time_source
        )),
        Ok(Bounded::Done(o)) if o.status.signal().is_some() => Err(describe_failure(
            o.status,
            &String::from_utf8_lossy(&o.stderr),
            what,
            &cmd_name,
            limits,
            "the bitcode is corrupt",
        )),
        Ok(Bounded::Done(o)) => Ok(o),
    }
}

/// One line for a child (`who`, doing `subject`) that died: out of memory
/// (under the address-space limit, LLVM and Rust abort when an allocation
/// fails) or a crash.
pub fn describe_failure(
    status: std::process::ExitStatus,
    stderr: &str,
    subject: &str,
    who: &str,
    limits: &Limits,
    hint: &str,
) -> String {
    let oom = ["out of memory", "bad_alloc", "memory allocation of"]
        .iter()
        .any(|m| stderr.contains(m));
    if oom {
        return format!(
            "{subject} needs more memory than {} allows ({hint}, or the cap is too small)",
            limits.memory_source()
        );
    }
    let how = match status.signal() {
        Some(s) => format!("crashed ({})", signal_name(s)),
        None => format!("exited with code {}", status.code().unwrap_or(-1)),
    };
    let llvm = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("LLVM ERROR: "))
        .map(|m| format!(" with LLVM ERROR: {}", m.trim()))
        .unwrap_or_default();
    format!("{subject} failed: {who} {how}{llvm}; {hint}")
}

fn signal_name(sig: i32) -> String {
    match sig {
        libc::SIGSEGV => "SIGSEGV".into(),
        libc::SIGABRT => "SIGABRT".into(),
        libc::SIGBUS => "SIGBUS".into(),
        libc::SIGILL => "SIGILL".into(),
        libc::SIGFPE => "SIGFPE".into(),
        libc::SIGKILL => "SIGKILL".into(),
        libc::SIGTRAP => "SIGTRAP".into(),
        s => format!("signal {s}"),
    }
}

enum Bounded {
    Done(Output),
    TimedOut,
}

/// Runs `cmd` with its address space limited, no core dump, `input` on its
/// stdin, killed at the deadline.
fn run_bounded(
    mut cmd: Command,
    input: Option<Vec<u8>>,
    limits: &Limits,
) -> std::io::Result<Bounded> {
    let bytes = limits.address_space();
    cmd.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    // SAFETY: the closure runs in the forked child before exec and only calls
    // setrlimit(2), which is async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            let as_limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &as_limit) != 0
                || libc::setrlimit(libc::RLIMIT_CORE, &no_core) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn()?;
    let feeder = match (child.stdin.take(), input) {
        (Some(mut pipe), Some(data)) => Some(std::thread::spawn(move || {
            // A child that dies early closes the pipe: nothing to report here.
            let _ = pipe.write_all(&data);
        })),
        _ => None,
    };
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    // A thread waits for the exit without reaping it (no polling delay);
    // only this thread reaps, so killing at the deadline never hits a reused pid.
    let pid = child.id() as libc::id_t;
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        // SAFETY: an all-zero siginfo_t is a valid buffer for waitid(2).
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid on our child with WNOWAIT leaves it to be reaped.
        unsafe {
            libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT);
        }
        let _ = tx.send(());
    });
    let status = match rx.recv_timeout(limits.remaining()) {
        Ok(()) => Some(child.wait()?),
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            None
        }
    };
    let _ = waiter.join();
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    Ok(match status {
        Some(status) => Bounded::Done(Output {
            status,
            stdout,
            stderr,
        }),
        None => Bounded::TimedOut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    fn died(signal: i32) -> std::process::ExitStatus {
        std::process::ExitStatus::from_raw(signal)
    }

    #[test]
    fn failures_are_one_line_and_name_the_limit() {
        let l = Limits::new(Instant::now(), None, 100);
        assert_eq!(l.address_space(), MIN_LOAD_MEMORY_MIB << 20);
        let oom = describe_failure(
            died(libc::SIGABRT),
            "LLVM ERROR: out of memory\nAllocation failed\n",
            "loading `x.bc`",
            "LLVM's bitcode reader",
            &l,
            "corrupt",
        );
        assert!(oom.contains("needs more memory than 256 MiB"), "{oom}");
        let l = Limits::new(Instant::now(), Some(Duration::from_secs(5)), 1024);
        let segv = describe_failure(
            died(libc::SIGSEGV),
            "",
            "loading `x.bc`",
            "LLVM's bitcode reader",
            &l,
            "corrupt",
        );
        assert_eq!(
            segv,
            "loading `x.bc` failed: LLVM's bitcode reader crashed (SIGSEGV); corrupt"
        );
        let abort = describe_failure(
            died(libc::SIGABRT),
            "noise\nLLVM ERROR: Invalid record\n",
            "loading `x.bc`",
            "LLVM's bitcode reader",
            &l,
            "corrupt",
        );
        assert!(
            abort.contains("crashed (SIGABRT) with LLVM ERROR: Invalid record"),
            "{abort}"
        );
        for m in [oom, segv, abort] {
            assert!(!m.contains('\n'));
        }
        assert_eq!(l.time_source, "--max-time 5s");
        assert!(check_memory(0).is_err() && check_memory(MAX_MEMORY_MIB + 1).is_err());
        assert!(check_memory(1).is_ok() && check_memory(MAX_MEMORY_MIB).is_ok());
        // No overflow for the largest budgets exec accepts.
        let far = Limits::new(Instant::now(), Some(Duration::from_secs_f64(1e9)), 1);
        assert!(far.remaining() > Duration::from_secs(1 << 20));
    }
}
