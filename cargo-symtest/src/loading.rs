//! Loading bitcode under the run's limits, from the first byte.
//!
//! LLVM's bitcode reader trusts its input: a corrupt file can crash it
//! (SIGSEGV), make it abort ("LLVM ERROR: out of memory") or make it allocate
//! without end. So untrusted bitcode is first loaded — parsed, prepared and
//! lowered, exactly as the engine will — by a child process (this binary's
//! hidden `__check-bitcode` subcommand) whose address space is limited to the
//! memory cap and which is killed at the deadline; only bitcode the child
//! loaded cleanly is loaded again in this process, under a watchdog for the
//! deadline. Every failure is one line and exit code 2, never a signal.
//!
//! Cost: one more load of the program's own bitcode and a process start
//! (the captured coreutils `sort`, 0.7 MB of bitcode: 0.06 s).

use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Without `--max-time`, loading still ends after this many seconds (a
/// module symtest can explore loads in well under a second).
pub const DEFAULT_LOAD_SECONDS: u64 = 300;

/// The address-space limit of loading is never below this (MiB), so that a
/// small `--max-memory` (which only makes exploration drop states) does not
/// stop the program from loading: this binary alone maps about 80 MiB.
pub const MIN_LOAD_MEMORY_MIB: u64 = 256;

/// The largest `--max-memory` accepted anywhere (MiB): 16 TiB.
pub const MAX_MEMORY_MIB: u64 = 1 << 24;

/// Checks a `--max-memory` value (MiB).
pub fn check_memory(mib: u64) -> Result<(), String> {
    if mib == 0 || mib > MAX_MEMORY_MIB {
        return Err(format!(
            "--max-memory must be between 1 and {MAX_MEMORY_MIB} MiB (got {mib})"
        ));
    }
    Ok(())
}

/// The name of the hidden subcommand run in the child.
pub const CHECK_SUBCOMMAND: &str = "__check-bitcode";

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

    fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// The child's address-space limit in bytes.
    fn address_space(&self) -> u64 {
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

/// What the child reports about bitcode it loaded.
#[derive(Debug, serde::Deserialize, serde::Serialize)]
pub struct Checked {
    /// The module's source files (`symtest_ir::Module::files`).
    pub files: Vec<String>,
}

/// Loads `bytes` in a child process under the limits; `name` stands for the
/// file in messages. Err: one line saying why the bitcode cannot be loaded.
pub fn check_in_child(bytes: &[u8], name: &str, limits: &Limits) -> Result<Checked, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find this program to check `{name}`: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.arg(CHECK_SUBCOMMAND).arg(name);
    let out = run_bounded(cmd, Some(bytes.to_vec()), limits)
        .map_err(|e| format!("cannot check `{name}`: {e}"))?;
    match out {
        Bounded::TimedOut => Err(format!(
            "loading `{name}` did not finish within {}",
            limits.time_source
        )),
        Bounded::Done(o) if o.status.success() => serde_json::from_slice(&o.stdout)
            .map_err(|e| format!("internal: the bitcode check of `{name}` answered badly: {e}")),
        Bounded::Done(o) if o.status.code() == Some(i32::from(crate::EXIT_BAD_INPUT)) => {
            let text = String::from_utf8_lossy(&o.stderr);
            let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            Err(line.strip_prefix("error: ").unwrap_or(line).to_string())
        }
        Bounded::Done(o) => Err(describe_failure(
            &o,
            &format!("loading `{name}`"),
            "LLVM's bitcode reader",
            limits,
            "the file is corrupt or not LLVM 19 bitcode (clang-19)",
        )),
    }
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
            &o,
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
fn describe_failure(o: &Output, subject: &str, who: &str, limits: &Limits, hint: &str) -> String {
    let stderr = String::from_utf8_lossy(&o.stderr);
    let oom = ["out of memory", "bad_alloc", "memory allocation of"]
        .iter()
        .any(|m| stderr.contains(m));
    if oom {
        return format!(
            "{subject} needs more memory than {} allows ({hint}, or the cap is too small)",
            limits.memory_source()
        );
    }
    let how = match o.status.signal() {
        Some(s) => format!("crashed ({})", signal_name(s)),
        None => format!("exited with code {}", o.status.code().unwrap_or(-1)),
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
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        let left = limits.remaining();
        if left.is_zero() {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(pause.min(left));
        pause = (pause * 2).min(Duration::from_millis(10));
    };
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

/// Runs `f` (loading bitcode the child has checked) in this process; if the
/// deadline passes first, prints one line and ends the process with exit code 2.
pub fn within_deadline<T>(limits: &Limits, what: &str, f: impl FnOnce() -> T) -> T {
    let (done, wait) = mpsc::channel::<()>();
    let left = limits.remaining();
    let message = format!(
        "error: {what} did not finish within {}\n",
        limits.time_source
    );
    let watchdog = std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(left) {
            let _ = std::io::stderr().write_all(message.as_bytes());
            // SAFETY: _exit(2) ends the process without running destructors,
            // which could race with the loading thread inside LLVM.
            unsafe { libc::_exit(i32::from(crate::EXIT_BAD_INPUT)) }
        }
    });
    let r = f();
    drop(done);
    let _ = watchdog.join();
    r
}

/// The hidden subcommand: loads the bitcode on stdin; prints [`Checked`] as
/// JSON (exit 0) or the loader's one-line error (exit 2).
pub fn child_main(name: &str) -> u8 {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("error: reading `{name}`: {e}");
        return crate::EXIT_BAD_INPUT;
    }
    match symtest_loader::load_bitcode_bytes(&bytes, name) {
        Ok(m) => {
            let checked = Checked { files: m.files };
            match serde_json::to_string(&checked) {
                Ok(s) => {
                    println!("{s}");
                    0
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    crate::EXIT_BAD_INPUT
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            crate::EXIT_BAD_INPUT
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    fn died(signal: i32, stderr: &str) -> Output {
        Output {
            status: std::process::ExitStatus::from_raw(signal),
            stdout: Vec::new(),
            stderr: stderr.as_bytes().to_vec(),
        }
    }

    #[test]
    fn failures_are_one_line_and_name_the_limit() {
        let l = Limits::new(Instant::now(), None, 100);
        assert_eq!(l.address_space(), MIN_LOAD_MEMORY_MIB << 20);
        let oom = describe_failure(
            &died(
                libc::SIGABRT,
                "LLVM ERROR: out of memory\nAllocation failed\n",
            ),
            "loading `x.bc`",
            "LLVM's bitcode reader",
            &l,
            "corrupt",
        );
        assert!(oom.contains("needs more memory than 256 MiB"), "{oom}");
        let l = Limits::new(Instant::now(), Some(Duration::from_secs(5)), 1024);
        let segv = describe_failure(
            &died(libc::SIGSEGV, ""),
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
            &died(libc::SIGABRT, "noise\nLLVM ERROR: Invalid record\n"),
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
