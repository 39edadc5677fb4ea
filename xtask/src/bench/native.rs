//! Native builds of a benchmark program and replay of `.ktest` files:
//! the measurement side of `cargo xtask bench`, the same for both tools.
//!
//! Two builds per program (see [`build`]: a harness is built with gcc and
//! linked with the replay runtime `libc-models/replay/symtest_replay.c`; a
//! whole program is built as it is and replayed by `replay --native`):
//! - the **gcov build** (`--coverage`, no sanitizers, so gcov counts only the
//!   program's own branches; `tests/bench/native/gcov_flush.c` writes the
//!   counters when a test crashes);
//! - the **sanitizer build** (ASan; UBSan `bounds` for indices into arrays
//!   of known size, since ASan misses a read just before a global; and the
//!   engine's UBSan checks), whose reports give each bug's kind and source
//!   line.
//!
//! The random-testing runner is a third build (clang-19, edge coverage,
//! the engine's UBSan checks but no ASan: a fork of an ASan process costs
//! about 6 ms against 0.2 ms, a tenth of the runs; memory errors of the
//! inputs it keeps are found by the sanitizer replay like symtest's).

use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// UBSan checks the engine compiles in (and checks symbolically).
pub const UBSAN_CHECKS: &str = "signed-integer-overflow,shift,integer-divide-by-zero";

/// How long one replayed test may run.
pub const REPLAY_TIMEOUT: Duration = Duration::from_secs(10);

pub struct Builds {
    /// Directory of the gcov build (holds the `.gcno`/`.gcda`).
    pub cov_dir: PathBuf,
    pub cov_bin: PathBuf,
    pub san_bin: PathBuf,
    /// Whole programs: the `cargo-symtest` binary whose `replay --native`
    /// rebuilds each test's argv, files and stdin.  `None`: a harness
    /// linked with the replay runtime, which reads `SYMTEST_KTEST`.
    pub replay: Option<PathBuf>,
}

/// One replayed test.
pub struct TestRun {
    /// How it ended (`None`: killed by the watchdog).
    pub status: Option<ExitStatus>,
    pub stderr: String,
    /// Whole programs: the test's recorded outcome (or stdout) was compared
    /// with the native run and differs.
    pub differs: bool,
}

fn check(cmd: &mut Command) -> Result<()> {
    let line = crate::util::display(cmd);
    let out = cmd
        .output()
        .with_context(|| format!("could not start `{line}`"))?;
    if !out.status.success() {
        bail!(
            "`{line}` failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
    }
    Ok(())
}

/// Builds the gcov and sanitizer binaries of `src` under `work`.
///
/// A harness (`replay` is `None`) is built with gcc against
/// `libc-models/include` and linked with the replay runtime, which reads
/// `SYMTEST_KTEST`. A whole program (`replay` names the `cargo-symtest`
/// binary whose `replay --native` rebuilds each test's world) is built as
/// it is:
/// - its gcov build with musl-gcc, the same musl the engine runs (so argv,
///   stdio and getopt behave as they did during exploration);
/// - its sanitizer build with gcc against glibc (ASan does not run on musl),
///   with `tests/bench/native/san_options.c` for the sanitizers' options,
///   since `replay --native` runs programs with an empty environment.
///
/// Both gcov builds get the crash flush (`gcov_flush.c`).
pub fn build(root: &Path, src: &Path, work: &Path, replay: Option<&Path>) -> Result<Builds> {
    let native = root.join("tests").join("bench").join("native");
    let include = root.join("libc-models").join("include");
    let runtime = root
        .join("libc-models")
        .join("replay")
        .join("symtest_replay.c");
    // What differs between a harness and a whole program.
    let (cov_cc, include_args, runtime_srcs, san_extra) = match replay {
        None => (
            "gcc",
            vec![OsString::from("-I"), include.into_os_string()],
            vec![runtime.clone()],
            runtime,
        ),
        Some(_) => (
            "musl-gcc",
            Vec::new(),
            Vec::new(),
            native.join("san_options.c"),
        ),
    };
    let cov_dir = work.join("gcov-build");
    if cov_dir.exists() {
        std::fs::remove_dir_all(&cov_dir)?;
    }
    std::fs::create_dir_all(&cov_dir)?;
    let stem = src
        .file_stem()
        .and_then(|s| s.to_str())
        .context("program file name")?;
    let obj = cov_dir.join(format!("{stem}.o"));
    check(
        Command::new(cov_cc)
            .args(["-g", "-O0", "--coverage", "-c"])
            .args(&include_args)
            .arg(src)
            .arg("-o")
            .arg(&obj),
    )?;
    let cov_bin = cov_dir.join(format!("{stem}.gcov-bin"));
    check(
        Command::new(cov_cc)
            .args(["-g", "-O0", "--coverage"])
            .args(&include_args)
            .arg(&obj)
            .args(&runtime_srcs)
            .arg(native.join("gcov_flush.c"))
            .arg("-o")
            .arg(&cov_bin),
    )?;
    let san_bin = work.join(format!("{stem}.san-bin"));
    check(
        Command::new("gcc")
            .args(["-g", "-O0", "-fno-omit-frame-pointer"])
            .arg(format!("-fsanitize=address,bounds,{UBSAN_CHECKS}"))
            .arg("-fno-sanitize-recover=all")
            .args(&include_args)
            .arg(src)
            .arg(&san_extra)
            .arg("-o")
            .arg(&san_bin),
    )?;
    Ok(Builds {
        cov_dir,
        cov_bin,
        san_bin,
        replay: replay.map(Path::to_path_buf),
    })
}

/// Builds the random-testing runner for `src` (see
/// `tests/bench/random/symtest_random.c`): the same build for harnesses and
/// whole programs, whose `main` the runner calls in program mode.
pub fn build_random(root: &Path, src: &Path, work: &Path) -> Result<PathBuf> {
    let include = root.join("libc-models").join("include");
    let runner = root
        .join("tests")
        .join("bench")
        .join("random")
        .join("symtest_random.c");
    let prog_obj = work.join("random-program.o");
    check(
        Command::new("clang-19")
            .args(["-g", "-O0", "-Dmain=symtest_program_main"])
            .arg(format!("-fsanitize={UBSAN_CHECKS}"))
            .args([
                "-fno-sanitize-recover=all",
                "-fsanitize-coverage=trace-pc-guard",
                "-c",
                "-I",
            ])
            .arg(&include)
            .arg(src)
            .arg("-o")
            .arg(&prog_obj),
    )?;
    let runner_obj = work.join("random-runner.o");
    check(
        Command::new("clang-19")
            .args(["-g", "-O1", "-c", "-I"])
            .arg(&include)
            .arg(&runner)
            .arg("-o")
            .arg(&runner_obj),
    )?;
    let bin = work.join("random-runner");
    check(
        Command::new("clang-19")
            .arg(format!("-fsanitize={UBSAN_CHECKS}"))
            .arg(&prog_obj)
            .arg(&runner_obj)
            .arg("-o")
            .arg(&bin),
    )?;
    Ok(bin)
}

/// How a replayed test ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// Normal exit with this code.
    Exit(i32),
    /// A bug of this kind (the engine's kind names) at this line of the
    /// program (0 if no frame of the program was found).
    Bug {
        kind: String,
        line: u32,
    },
    /// The replay runtime could not drive the run (exit 125).
    Mismatch,
    Timeout,
    Signal(i32),
}

/// Replays `ktest` on `bin` (one of `b`'s binaries) with a time limit,
/// writing coverage data into `b.cov_dir` when `bin` is the gcov build.
pub fn run_test(b: &Builds, bin: &Path, ktest: &Path, timeout: Duration) -> Result<TestRun> {
    match &b.replay {
        None => {
            let (status, stderr) = run_harness_test(bin, ktest, &b.cov_dir, timeout)?;
            Ok(TestRun {
                status,
                stderr,
                differs: false,
            })
        }
        Some(symtest) => run_program_test(symtest, bin, ktest, &b.cov_dir, timeout),
    }
}

/// `cargo-symtest replay --native BIN KTEST --json`: the test's world
/// rebuilt in a fresh directory, the program run under a watchdog.
fn run_program_test(
    symtest: &Path,
    bin: &Path,
    ktest: &Path,
    gcov_dir: &Path,
    timeout: Duration,
) -> Result<TestRun> {
    use std::os::unix::process::ExitStatusExt;
    let mut cmd = Command::new(symtest);
    cmd.args(["replay", "--json", "--native"])
        .arg(bin)
        .arg("--timeout")
        .arg(format!("{}", timeout.as_secs_f64()))
        .arg("--gcov-dir")
        .arg(gcov_dir)
        .arg(ktest)
        .stdin(Stdio::null());
    let line = crate::util::display(&cmd);
    let out = cmd
        .output()
        .with_context(|| format!("could not start `{line}`"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v.get("test").is_some())
        .with_context(|| {
            format!(
                "`{line}` printed no test verdict ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim_end()
            )
        })?;
    let status = if v["timed_out"].as_bool().unwrap_or(false) {
        None
    } else if let Some(sig) = v["signal"].as_i64() {
        Some(ExitStatus::from_raw(sig as i32 & 0x7f))
    } else {
        Some(ExitStatus::from_raw(
            (v["exit_code"].as_i64().unwrap_or(0) as i32 & 0xff) << 8,
        ))
    };
    Ok(TestRun {
        status,
        stderr: v["stderr"].as_str().unwrap_or("").to_string(),
        differs: v["compared"].as_bool() == Some(true) && v["ok"].as_bool() == Some(false),
    })
}

/// Runs the harness `bin` on `ktest` with a time limit; returns the exit status (None on
/// timeout) and stderr.
fn run_harness_test(
    bin: &Path,
    ktest: &Path,
    cwd: &Path,
    timeout: Duration,
) -> Result<(Option<ExitStatus>, String)> {
    let mut cmd = Command::new(bin);
    cmd.current_dir(cwd)
        .env("SYMTEST_KTEST", ktest)
        .env_remove("KTEST_FILE")
        .env(
            "ASAN_OPTIONS",
            "detect_leaks=0:handle_abort=1:allocator_may_return_null=1:max_allocation_size_mb=1024:strict_memcmp=0",
        )
        .env("UBSAN_OPTIONS", "print_stacktrace=1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let symbolizer = Path::new("/usr/lib/llvm-19/bin/llvm-symbolizer");
    if symbolizer.is_file() {
        cmd.env("ASAN_SYMBOLIZER_PATH", symbolizer);
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run {}", bin.display()))?;
    let mut pipe = child.stderr.take().context("stderr is piped")?;
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        buf
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    Ok((status, stderr))
}

/// The first `FILE:LINE` in `text` whose file is the program (`file_name`).
fn line_in(text: &str, file_name: &str) -> Option<u32> {
    let pat = format!("{file_name}:");
    let mut rest = text;
    while let Some(i) = rest.find(&pat) {
        let before = &rest[..i];
        let boundary = before.is_empty() || before.ends_with('/') || before.ends_with(' ');
        let after = &rest[i + pat.len()..];
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        if boundary && !digits.is_empty() {
            return digits.parse().ok();
        }
        rest = &rest[i + pat.len()..];
    }
    None
}

fn ubsan_kind(message: &str) -> &'static str {
    if message.contains("division by zero") || message.contains("division of") {
        "div"
    } else if ["overflow", "negation of", "shift exponent", "left shift of"]
        .iter()
        .any(|p| message.contains(p))
    {
        "overflow"
    } else {
        "ptr"
    }
}

/// Classifies a sanitizer-build run of a test of the program `file_name`.
pub fn classify(status: Option<ExitStatus>, stderr: &str, file_name: &str) -> Outcome {
    use std::os::unix::process::ExitStatusExt;
    let Some(status) = status else {
        return Outcome::Timeout;
    };
    if let Some(i) = stderr.find("runtime error: ") {
        // "prog.c:LINE:COL: runtime error: MESSAGE"
        let head = &stderr[..i];
        let line_start = head.rfind('\n').map_or(0, |j| j + 1);
        let line = line_in(&stderr[line_start..i + 1], file_name)
            .or_else(|| line_in(stderr, file_name))
            .unwrap_or(0);
        let msg = stderr[i..].lines().next().unwrap_or("");
        return Outcome::Bug {
            kind: ubsan_kind(msg).into(),
            line,
        };
    }
    if let Some(i) = stderr.find("ERROR: AddressSanitizer: ") {
        let report = &stderr[i + "ERROR: AddressSanitizer: ".len()..];
        let first = report.lines().next().unwrap_or("");
        let kind = if first.starts_with("attempting double-free")
            || first.starts_with("attempting free on address which was not malloc")
            || first.starts_with("bad-free")
        {
            "free"
        } else if first.starts_with("ABRT") {
            if stderr.contains("symtest-replay: assertion failed") || stderr.contains("Assertion `")
            {
                "assert"
            } else {
                "abort"
            }
        } else if first.starts_with("FPE") {
            "div"
        } else {
            "ptr"
        };
        // glibc's assert names the line itself; otherwise the first frame
        // of the program in the stack trace.
        let line = if kind == "assert" && stderr.contains("Assertion `") {
            line_in(stderr, file_name)
        } else {
            line_in(report, file_name)
        };
        return Outcome::Bug {
            kind: kind.into(),
            line: line.unwrap_or(0),
        };
    }
    match (status.code(), status.signal()) {
        (Some(125), _) => Outcome::Mismatch,
        (Some(124), _) => Outcome::Bug {
            kind: "user".into(),
            line: line_in(stderr, file_name).unwrap_or(0),
        },
        (Some(c), _) => Outcome::Exit(c),
        (None, Some(s)) => Outcome::Signal(s),
        (None, None) => Outcome::Signal(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_program_lines() {
        assert_eq!(line_in("#1 0x1 in main /tmp/x/p.c:42:7", "p.c"), Some(42));
        assert_eq!(line_in("#1 0x1 in f /tmp/x/ap.c:42", "p.c"), None);
        assert_eq!(line_in("p.c:9:19: runtime error: x", "p.c"), Some(9));
    }

    #[test]
    fn kinds_of_ubsan_messages() {
        assert_eq!(ubsan_kind("runtime error: division by zero"), "div");
        assert_eq!(
            ubsan_kind("runtime error: signed integer overflow: 1 + 2147483647"),
            "overflow"
        );
        assert_eq!(ubsan_kind("runtime error: shift exponent 40"), "overflow");
    }
}
