//! `exec` and `inspect` in a supervised child process, so that loading
//! untrusted bitcode holds the run's limits from the first byte.
//!
//! LLVM's bitcode reader trusts its input: a corrupt file can crash it
//! (SIGSEGV), abort it ("LLVM ERROR: out of memory") or make it allocate
//! without end, and whether a given corrupt file crashes can depend on the
//! state of the heap (so loading it once in a scratch process proves nothing
//! about loading it again). The command therefore runs whole in a child
//! process (this binary again, with the same arguments) that loads the
//! bitcode exactly once:
//!
//! - while it loads, its address space is limited to the memory cap
//!   (`RLIMIT_AS`, soft limit, restored afterwards) and its stderr goes to a
//!   pipe the parent reads; it dies with its parent (`PR_SET_PDEATHSIG`);
//! - when loading is done it restores its stderr, tells the parent (one byte
//!   on fd 3) and goes on (exploring, printing);
//! - the parent kills it if the deadline passes before that byte; if it dies
//!   or fails before it, the parent prints one line (from what the child said
//!   or how it died) and exits with code 2; after it, the parent passes on the
//!   child's exit (code, or the same signal).
//!
//! Cost: one process start (about 20 to 40 ms); nothing is loaded twice.

use crate::loading::{describe_failure, Limits};
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Set in the child's environment: nanoseconds the parent had run when it
/// started the child (so the child's clock starts with the parent's).
const ENV: &str = "SYMTEST_SUPERVISED_LOAD";
/// The child's descriptor for "loaded" (the write end of a pipe).
const STATUS_FD: RawFd = 3;
/// The child's descriptor for the parent's real stderr.
const STDERR_FD: RawFd = 4;

/// Which side of the supervision this process is.
pub enum Role {
    /// The parent: the child has finished; exit with this code.
    Parent(u8),
    /// The child: load, call [`Loading::done`], then carry on.
    Child(Loading),
}

/// Starts the supervision (parent) or joins it (child). `clock` is when the
/// command started; `name` names the bitcode in messages.
pub fn supervise(clock: Instant, limits: &Limits, name: &str) -> Result<Role, String> {
    if let Some(v) = std::env::var_os(ENV) {
        std::env::remove_var(ENV);
        let before = v
            .to_str()
            .and_then(|s| s.parse::<u64>().ok())
            .map_or(Duration::ZERO, Duration::from_nanos);
        return Ok(Role::Child(Loading::enter(
            clock.checked_sub(before).unwrap_or(clock),
            limits,
        )));
    }
    parent(clock, limits, name).map(Role::Parent)
}

/// The child's state while it loads.
pub struct Loading {
    /// When the command started (the parent's start).
    pub clock: Instant,
    saved_as: Option<libc::rlimit>,
}

impl Loading {
    fn enter(clock: Instant, limits: &Limits) -> Loading {
        // Tools run while loading (llvm-link) must not hold the status pipe
        // open after this process dies.
        for fd in [STATUS_FD, STDERR_FD] {
            // SAFETY: setting close-on-exec on descriptors the parent gave us.
            unsafe {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
        let mut saved = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit/setrlimit with valid pointers.
        let saved_as = unsafe {
            if libc::getrlimit(libc::RLIMIT_AS, &mut saved) == 0 {
                let cap = limits.address_space().min(saved.rlim_max);
                let lim = libc::rlimit {
                    rlim_cur: cap,
                    rlim_max: saved.rlim_max,
                };
                (libc::setrlimit(libc::RLIMIT_AS, &lim) == 0).then_some(saved)
            } else {
                None
            }
        };
        // The parent may have died before the death signal was armed.
        // SAFETY: getppid(2) has no preconditions.
        if unsafe { libc::getppid() } == 1 {
            std::process::exit(i32::from(crate::EXIT_BAD_INPUT));
        }
        Loading { clock, saved_as }
    }

    /// Loading is over: lifts the address-space limit, restores stderr and
    /// tells the parent, which stops watching the deadline.
    pub fn done(self) {
        // SAFETY: plain descriptor and rlimit calls on descriptors the parent
        // set up for us (3 and 4) and our own stderr.
        unsafe {
            if let Some(s) = self.saved_as {
                libc::setrlimit(libc::RLIMIT_AS, &s);
            }
            libc::dup2(STDERR_FD, 2);
            libc::close(STDERR_FD);
            let byte = b'L';
            libc::write(STATUS_FD, (&byte as *const u8).cast(), 1);
            libc::close(STATUS_FD);
        }
    }
}

fn pipe() -> Result<(OwnedFd, OwnedFd), String> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: pipe2 fills two descriptors we then own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!("pipe: {}", std::io::Error::last_os_error()));
    }
    // SAFETY: both descriptors are fresh and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// What the parent saw of the child's loading.
enum Loaded {
    Yes,
    /// The child ended (or closed its status descriptor) first.
    No,
    TimedOut,
}

/// Waits for the "loaded" byte on `status` until the deadline.
fn wait_loaded(status: &OwnedFd, limits: &Limits) -> Loaded {
    loop {
        let left = limits.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Loaded::TimedOut;
        }
        let mut p = libc::pollfd {
            fd: status.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = left.as_millis().clamp(1, 1000) as libc::c_int;
        // SAFETY: one valid pollfd.
        let r = unsafe { libc::poll(&mut p, 1, ms) };
        if r < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Loaded::No;
        }
        if r == 0 {
            continue;
        }
        let mut b = 0u8;
        // SAFETY: reading one byte into a local.
        let n = unsafe { libc::read(status.as_raw_fd(), (&mut b as *mut u8).cast(), 1) };
        return if n == 1 { Loaded::Yes } else { Loaded::No };
    }
}

fn parent(clock: Instant, limits: &Limits, name: &str) -> Result<u8, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let (status_r, status_w) = pipe()?;
    let (err_r, err_w) = pipe()?;
    // SAFETY: duplicating our stderr; the copy is ours.
    let real_err = unsafe { libc::fcntl(2, libc::F_DUPFD_CLOEXEC, 10) };
    if real_err < 0 {
        return Err(format!("dup: {}", std::io::Error::last_os_error()));
    }
    // SAFETY: a fresh descriptor we own.
    let real_err = unsafe { OwnedFd::from_raw_fd(real_err) };
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| "cargo-symtest".into());
    let mut cmd = Command::new(exe);
    cmd.arg0(arg0)
        .args(args)
        .env(ENV, clock.elapsed().as_nanos().to_string())
        .stderr(Stdio::from(err_w));
    let (sw, re) = (status_w.as_raw_fd(), real_err.as_raw_fd());
    // SAFETY: runs in the forked child before exec: dup2(2) and prctl(2)
    // only, both async-signal-safe. dup2 clears close-on-exec on 3 and 4.
    unsafe {
        cmd.pre_exec(move || {
            if libc::dup2(sw, STATUS_FD) < 0 || libc::dup2(re, STDERR_FD) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start the engine: {e}"))?;
    drop(cmd); // closes our copies of the child's ends
    drop(status_w);
    let drain = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::fs::File::from(err_r).read_to_end(&mut buf);
        buf
    });
    let loaded = wait_loaded(&status_r, limits);
    if let Loaded::TimedOut = loaded {
        let _ = child.kill();
        let _ = child.wait();
        let _ = drain.join();
        eprintln!(
            "error: loading `{name}` did not finish within {}",
            limits.time_source
        );
        return Ok(crate::EXIT_BAD_INPUT);
    }
    let status = match loaded {
        // The child restored its stderr: whatever it said before is passed
        // on, then it runs to its end.
        Loaded::Yes => {
            let said = drain.join().unwrap_or_default();
            let _ = std::io::stderr().write_all(&said);
            let status = child
                .wait()
                .map_err(|e| format!("waiting for the engine: {e}"))?;
            return Ok(pass_on(status));
        }
        Loaded::No => child
            .wait()
            .map_err(|e| format!("waiting for the engine: {e}"))?,
        Loaded::TimedOut => unreachable!("handled above"),
    };
    let said = drain.join().unwrap_or_default();
    let said = String::from_utf8_lossy(&said);
    match status.code() {
        // It reported its own failure (one line) or finished early.
        Some(code) => {
            eprint!("{said}");
            Ok(u8::try_from(code).unwrap_or(crate::EXIT_BAD_INPUT))
        }
        None => {
            eprintln!(
                "error: {}",
                describe_failure(
                    status,
                    &said,
                    &format!("loading `{name}`"),
                    "LLVM's bitcode reader",
                    limits,
                    "the file is corrupt or not LLVM 19 bitcode (clang-19)",
                )
            );
            Ok(crate::EXIT_BAD_INPUT)
        }
    }
}

/// The child's exit, as ours: its code, or the same signal.
fn pass_on(status: ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        return u8::try_from(code).unwrap_or(1);
    }
    if let Some(sig) = status.signal() {
        // SAFETY: restoring the default action and raising the signal on
        // ourselves, so our parent sees what the engine did.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
        return u8::try_from(128 + sig).unwrap_or(1);
    }
    1
}
