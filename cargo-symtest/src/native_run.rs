//! Running an unmodified native program in the world of one test (paper
//! §4.3): a fresh temporary directory as the current directory holding the
//! symbolic files, stdin from the test, argv rebuilt, the failure shim
//! preloaded, a watchdog.  Nothing is written outside the temporary
//! directory, except coverage data when the caller names a gcov directory.

use crate::native_world::World;
use crate::replay::{classify, Outcome};
use anyhow::{Context, Result};
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How to run the program.
pub struct RunOptions<'a> {
    /// The native executable (absolute path).
    pub program: &'a Path,
    /// argv[0] as the program sees it.
    pub argv0: &'a str,
    /// The built failure shim (needed when the test has failures to inject).
    pub shim: Option<&'a Path>,
    pub timeout: Duration,
    /// Where gcov writes .gcda files (`GCOV_PREFIX`, all directory
    /// components of the object file's path stripped).  `None`: into the
    /// temporary directory, i.e. discarded.
    pub gcov_dir: Option<&'a Path>,
    /// Keep the temporary directory (for inspection).
    pub keep_dir: bool,
    /// The largest allocation that succeeds (the `exec` run's
    /// `--max-alloc-size`), for a sanitizer build.
    pub alloc_limit: u64,
}

/// What one run did.
#[derive(Debug)]
pub struct NativeRun {
    pub outcome: Outcome,
    /// How the process ended (`None`: killed by the watchdog).
    pub status: Option<std::process::ExitStatus>,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// The failures the shim injected, as "CLASS K SYSCALL".
    pub injected: Vec<String>,
    /// The temporary directory (removed unless `keep_dir`; then it also
    /// holds the program's `stdout` and `stderr`).
    pub dir: PathBuf,
}

/// The program's standard input: a regular file outside its working
/// directory, opened for reading at offset 0.
fn stdin_file(world: &World, dir: &Path) -> Result<std::fs::File> {
    let path = dir.join("stdin");
    std::fs::write(&path, world.stdin.as_deref().unwrap_or_default())
        .with_context(|| format!("writing {}", path.display()))?;
    set_model_times(&path)?;
    std::fs::File::open(&path).with_context(|| format!("opening {}", path.display()))
}

/// Access and modification times of a symbolic file are the model's clock
/// (as `libc-models/posix/init.c` assumes), so `ls -l` or `pr` print the
/// same dates natively. (The change time cannot be set.)
fn set_model_times(path: &Path) -> Result<()> {
    let t = std::time::UNIX_EPOCH + Duration::from_secs(MODEL_CLOCK);
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    f.set_times(std::fs::FileTimes::new().set_accessed(t).set_modified(t))
        .with_context(|| format!("setting the times of {}", path.display()))
}

/// Creates the world's files in `cwd`.
fn populate(world: &World, cwd: &Path) -> Result<()> {
    for f in &world.files {
        let path = cwd.join(&f.name);
        std::fs::write(&path, &f.data).with_context(|| format!("writing {}", path.display()))?;
        set_model_times(&path)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(f.mode))
            .with_context(|| format!("setting the mode of {}", path.display()))?;
    }
    Ok(())
}

fn drain<R: Read + Send + 'static>(r: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut r) = r {
            let _ = r.read_to_end(&mut buf);
        }
        buf
    })
}

/// Waits for `child` until `timeout`; on expiry kills its whole process group.
fn wait_with_watchdog(
    child: &mut Child,
    timeout: Duration,
) -> Result<Option<std::process::ExitStatus>> {
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait().context("cannot wait for the program")? {
            return Ok(Some(status));
        }
        let now = Instant::now();
        if now >= deadline {
            // The child leads its own process group (process_group(0)).
            // SAFETY: kill(2) with a negative pid only sends a signal.
            unsafe {
                libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
            }
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// The time every clock of the POSIX model reads (`libc-models/posix/syscall.c`):
/// native runs read it too, through the shim (`SYMTEST_CLOCK`).
pub const MODEL_CLOCK: u64 = 1_700_000_000;

/// Runs the program once in the world of a test.
pub fn run(world: &World, opts: &RunOptions) -> Result<NativeRun> {
    let dir = crate::tempdir::TempDir::new("native")?;
    let result = run_in(world, opts, dir.path());
    if opts.keep_dir {
        dir.keep();
    }
    result
}

fn run_in(world: &World, opts: &RunOptions, dir: &Path) -> Result<NativeRun> {
    let cwd = dir.join("cwd");
    std::fs::create_dir(&cwd).with_context(|| format!("cannot create {}", cwd.display()))?;
    populate(world, &cwd)?;
    let log = dir.join("fail.log");
    let gcov = match opts.gcov_dir {
        Some(g) => g.to_path_buf(),
        None => dir.join("gcov"),
    };

    let mut cmd = Command::new(opts.program);
    cmd.arg0(opts.argv0)
        .args(world.args.iter().map(|a| OsString::from_vec(a.clone())))
        .current_dir(&cwd)
        // The environment is the engine's fixed one (and symtest's own
        // variables below).
        .env_clear()
        .envs(crate::replay::program_environment())
        .env("GCOV_PREFIX", &gcov)
        .env("GCOV_PREFIX_STRIP", "1000")
        .process_group(0)
        // Standard input is a regular file holding the test's bytes (empty
        // without --sym-stdin), as in the POSIX model: programs that fstat or
        // lseek it take the same paths.
        .stdin(stdin_file(world, dir)?)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if opts.alloc_limit != symtest_executor::DEFAULT_MAX_ALLOC_SIZE {
        // The run's own limit, for a build without AddressSanitizer
        // (`libc-models/replay/symtest_alloc_limit.c`).
        cmd.env("SYMTEST_MAX_ALLOC_SIZE", opts.alloc_limit.to_string());
    }
    if let Some(shim) = opts.shim {
        // Every clock reads the POSIX model's fixed time, as in the engine
        // (a date in the output replays); the test's failures are injected.
        cmd.env("LD_PRELOAD", shim)
            .env("SYMTEST_CLOCK", MODEL_CLOCK.to_string())
            // Each argument ends right before an unmapped page: reading past
            // its NUL crashes, as the engine reports it (no bytes after it).
            .env("SYMTEST_ARG_GUARD", "1")
            // A sanitizer build refuses to start when a library is loaded
            // before its runtime; the shim intercepts nothing it needs. An
            // allocation above the run's limit, or one the allocator cannot
            // grant, returns NULL, as the engine's does.
            .env(
                "ASAN_OPTIONS",
                format!(
                    "verify_asan_link_order=0:allocator_may_return_null=1:strict_memcmp=0:{}",
                    crate::replay::asan_alloc_limit(opts.alloc_limit)
                ),
            );
        if !world.failures.is_empty() {
            cmd.env("SYMTEST_FAIL", world.fail_spec())
                .env("SYMTEST_FAIL_LOG", &log);
        }
    } else if !world.failures.is_empty() {
        anyhow::bail!("internal: the test injects failures but no shim was built");
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run {}", opts.program.display()))?;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = wait_with_watchdog(&mut child, opts.timeout)?;
    let stdout = out.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    let outcome = match status {
        Some(s) => classify(s, &stderr),
        None => Outcome::Timeout,
    };
    if opts.keep_dir {
        std::fs::write(dir.join("stdout"), &stdout)?;
        std::fs::write(dir.join("stderr"), &stderr)?;
    }
    let injected = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("fail "))
        .map(String::from)
        .collect();
    Ok(NativeRun {
        outcome,
        status,
        stdout,
        stderr,
        injected,
        dir: dir.to_path_buf(),
    })
}
