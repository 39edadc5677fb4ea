//! Native replay of generated test cases.
//!
//! A harness is compiled natively with clang, AddressSanitizer and
//! UndefinedBehaviorSanitizer, and linked with the replay runtime
//! (`libc-models/replay/symtest_replay.c`), which feeds the program the
//! objects of a `.ktest` file.  Running the binary on a test case and
//! classifying how it ended ([`classify`]) tells whether the native program
//! really shows the error the engine reported.
//!
//! Exit codes reserved by the replay runtime: [`REPLAY_MISMATCH_EXIT`] (125:
//! the test case does not fit the program: missing objects, wrong sizes, a
//! false assumption) and [`USER_ERROR_EXIT`] (124: `symtest_report_error`).

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde::{Deserialize, Serialize};

/// Exit code of the replay runtime when the test case cannot drive the run.
pub const REPLAY_MISMATCH_EXIT: i32 = 125;
/// Exit code of the replay runtime after `symtest_report_error`.
pub const USER_ERROR_EXIT: i32 = 124;
/// Marker printed by the replay runtime before [`USER_ERROR_EXIT`].
pub const USER_ERROR_MARKER: &str = "symtest-replay: user error:";
/// Marker printed by the replay runtime when `symtest_assert` fails.
pub const ASSERT_MARKER: &str = "symtest-replay: assertion failed";

/// Flags for the native build, besides include paths and sources: exactly the
/// checks the engine makes, as in every native build of the pipeline
/// (`symtest_project::recipe`): memory errors through AddressSanitizer, the
/// UBSan checks the bitcode compiles in and the engine's float-cast-overflow.
pub const NATIVE_FLAGS: &[&str] = &[
    "-g",
    "-O0",
    "-fsanitize=address,signed-integer-overflow,shift,integer-divide-by-zero,bounds,float-cast-overflow",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
];

/// The kinds of errors the engine reports: the engine's own type, so a
/// recorded outcome and a native one compare directly.
pub use symtest_executor::ErrorKind;

/// How a replayed (or symbolically executed) run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Normal exit with this code (including the runtime's reserved 125).
    Exit(i32),
    /// An error of this kind.
    Error(ErrorKind),
    /// Killed after the time limit.
    Timeout,
    /// Killed by a signal that is not itself an error kind.
    Signal(i32),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Exit(c) => write!(f, "exit {c}"),
            Outcome::Error(k) => write!(f, "error: {k}"),
            Outcome::Timeout => f.write_str("timeout"),
            Outcome::Signal(s) => write!(f, "signal {s}"),
        }
    }
}

pub use symtest_project::toolchain::clang;

/// Compile `sources` natively with sanitizers into the executable `out`,
/// together with the replay runtime of `models_dir` (the workspace's
/// `libc-models` directory: `replay/symtest_replay.c` is linked in and
/// `include/` is on the include path, after `include_dirs`).  On failure
/// the error contains clang's diagnostics.
pub fn build_native(
    sources: &[PathBuf],
    include_dirs: &[PathBuf],
    models_dir: &Path,
    out: &Path,
) -> anyhow::Result<()> {
    if sources.is_empty() {
        bail!("no sources to compile for {}", out.display());
    }
    let runtime = models_dir.join("replay").join("symtest_replay.c");
    if !runtime.is_file() {
        bail!(
            "replay runtime not found at {} (is {} the libc-models directory?)",
            runtime.display(),
            models_dir.display()
        );
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    let clang = clang();
    let mut cmd = Command::new(&clang);
    symtest_project::toolchain::fixed_date(&mut cmd);
    cmd.args(NATIVE_FLAGS);
    for d in include_dirs {
        cmd.arg("-I").arg(d);
    }
    cmd.arg("-I").arg(models_dir.join("include"));
    cmd.args(sources).arg(&runtime).arg("-o").arg(out);
    // Functions the program declares but never defines are `external` errors for
    // the engine; natively, paths that never call them must still replay.
    // (A non-PIE link resolves them to address 0 instead of failing at load time.)
    cmd.args(["-fno-pie", "-no-pie", "-Wl,--unresolved-symbols=ignore-all"]);
    cmd.stdin(Stdio::null());
    let output = cmd.output().with_context(|| {
        format!(
            "cannot run {} (install clang-19 or set SYMTEST_CLANG)",
            clang.to_string_lossy()
        )
    })?;
    if !output.status.success() {
        bail!(
            "native build of {} failed ({}):\n{}",
            out.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim_end()
        );
    }
    Ok(())
}

/// Run `binary` on the test case `ktest` (absolute or relative path) and
/// classify the result.  The program gets an environment as empty as the
/// engine's (but for `SYMTEST_KTEST` and the sanitizers' options), stdin from
/// /dev/null, stdout discarded; it is killed after `timeout`.  Returns the
/// outcome and everything the program wrote to stderr.
pub fn replay(binary: &Path, ktest: &Path, timeout: Duration) -> anyhow::Result<(Outcome, String)> {
    let ktest_abs = if ktest.is_absolute() {
        ktest.to_path_buf()
    } else {
        std::env::current_dir()
            .context("cannot determine the current directory")?
            .join(ktest)
    };
    let mut cmd = Command::new(binary);
    cmd.env_clear()
        // The engine's fixed environment (the runtime keeps it for main).
        .envs(program_environment())
        .env("SYMTEST_KTEST", &ktest_abs)
        // Past the input of a path the engine stopped early, zeros.
        .env(
            "SYMTEST_REPLAY_PAST_END",
            if stopped_early(&ktest_abs) { "1" } else { "0" },
        )
        // An allocation above the run's limit, or one the allocator cannot
        // grant, returns NULL, as the engine's does (AddressSanitizer would
        // abort).
        .env(
            "ASAN_OPTIONS",
            format!(
                "detect_leaks=0:abort_on_error=0:allocator_may_return_null=1:strict_memcmp=0:{}",
                asan_alloc_limit(recorded_alloc_limit(&ktest_abs))
            ),
        )
        .env("UBSAN_OPTIONS", "print_stacktrace=1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    match std::env::var_os("ASAN_SYMBOLIZER_PATH") {
        Some(p) => {
            cmd.env("ASAN_SYMBOLIZER_PATH", p);
        }
        None => {
            let symbolizer = Path::new("/usr/lib/llvm-19/bin/llvm-symbolizer");
            if symbolizer.is_file() {
                cmd.env("ASAN_SYMBOLIZER_PATH", symbolizer);
            }
        }
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run {}", binary.display()))?;
    // Drain stderr concurrently so a chatty program cannot block on the pipe.
    let mut pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        buf
    });
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .with_context(|| format!("cannot wait for {}", binary.display()))?
        {
            break Some(status);
        }
        let now = Instant::now();
        if now >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    let outcome = match status {
        Some(status) => classify(status, &stderr),
        None => Outcome::Timeout,
    };
    Ok((outcome, stderr))
}

/// Whether the engine recorded the test's path as stopped before its end
/// (`outcome.early` in `testNNNNNN.json`): the native run may ask for input
/// past the test's objects, made where the engine claims nothing.
fn stopped_early(ktest: &Path) -> bool {
    std::fs::read_to_string(ktest.with_extension("json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| v["outcome"]["early"].is_object())
}

/// The allocation limit of the `exec` run that wrote `ktest`: its JSON's
/// `max_alloc_size` (written when `--max-alloc-size` was given), else the
/// default every native build compiles in.
pub fn recorded_alloc_limit(ktest: &Path) -> u64 {
    std::fs::read_to_string(ktest.with_extension("json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["max_alloc_size"].as_u64())
        .unwrap_or(symtest_executor::DEFAULT_MAX_ALLOC_SIZE)
}

/// AddressSanitizer's option for the engine's allocation limit `bytes` (a
/// whole number of MiB, as `exec --max-alloc-size` requires): it refuses a
/// request above `max_allocation_size_mb` MiB, as the engine refuses one
/// above `bytes`.
pub fn asan_alloc_limit(bytes: u64) -> String {
    format!("max_allocation_size_mb={}", bytes >> 20)
}

/// Parse a hexadecimal number at the start of `s` (after an optional "0x").
fn parse_hex_prefix(s: &str) -> Option<u64> {
    let s = s.trim_start();
    let s = s.strip_prefix("0x").unwrap_or(s);
    let end = s.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(s.len());
    u64::from_str_radix(&s[..end], 16).ok()
}

/// The error kind of an AddressSanitizer report ("ERROR: AddressSanitizer:
/// <what>").
fn classify_asan(report: &str, stderr: &str) -> ErrorKind {
    if report.starts_with("attempting double-free")
        || report.starts_with("attempting free on address which was not malloc()-ed")
        || report.starts_with("alloc-dealloc-mismatch")
        || report.starts_with("attempting to call malloc_usable_size")
    {
        return ErrorKind::Free;
    }
    if report.starts_with("FPE") {
        return ErrorKind::Div;
    }
    if report.starts_with("stack-overflow") {
        return ErrorKind::Exec;
    }
    if let Some(rest) = report.strip_prefix("SEGV on unknown address") {
        let addr = parse_hex_prefix(rest);
        if addr.is_some_and(|a| a < 4096) {
            return ErrorKind::Ptr;
        }
        if stderr.contains("caused by a WRITE memory access") {
            // A write fault at a mapped address is a write to read-only memory
            // (string literals and const globals live in the executable's
            // read-only segment, next to its code).  A wild write far away
            // from the faulting code is an ordinary invalid pointer.
            let pc = rest
                .find("(pc ")
                .and_then(|i| parse_hex_prefix(&rest[i + 4..]));
            return match (addr, pc) {
                (Some(a), Some(pc)) if a.abs_diff(pc) >= 1 << 32 => ErrorKind::Ptr,
                _ => ErrorKind::ReadOnly,
            };
        }
        return ErrorKind::Ptr;
    }
    // heap/stack/global-buffer-overflow, use-after-free, use-after-return,
    // use-after-scope, BUS, unknown-crash, ...
    ErrorKind::Ptr
}

/// The error kind of a UBSan "runtime error: <message>".
fn classify_ubsan(message: &str) -> ErrorKind {
    const DIV: &[&str] = &["division by zero", "division of"];
    const OVERFLOW: &[&str] = &[
        "signed integer overflow",
        "unsigned integer overflow",
        "negation of",
        "shift exponent",
        "left shift of",
        // float-cast-overflow: fptosi/fptoui of a value that does not fit.
        "is outside the range of representable values",
    ];
    const PTR: &[&str] = &[
        "null pointer",
        "out of bounds for type",
        "misaligned address",
        "pointer index expression",
        "applying non-zero offset",
        "applying zero offset",
        "addition of unsigned offset",
        "subtraction of unsigned offset",
        "insufficient space for an object",
    ];
    if DIV.iter().any(|p| message.contains(p)) {
        ErrorKind::Div
    } else if OVERFLOW.iter().any(|p| message.contains(p)) {
        ErrorKind::Overflow
    } else if PTR.iter().any(|p| message.contains(p)) {
        ErrorKind::Ptr
    } else {
        // unreachable code, missing return, invalid bool/enum loads, ...
        ErrorKind::Exec
    }
}

/// Classify how a natively replayed run ended, from its wait status and its
/// stderr.  Sanitizer reports and the replay runtime's markers take
/// precedence over the exit status (sanitizers exit with code 1).
pub fn classify(status: ExitStatus, stderr: &str) -> Outcome {
    use std::os::unix::process::ExitStatusExt;

    if stderr.contains(USER_ERROR_MARKER) || status.code() == Some(USER_ERROR_EXIT) {
        return Outcome::Error(ErrorKind::User);
    }
    if let Some(i) = stderr.find("ERROR: AddressSanitizer: ") {
        let report = &stderr[i + "ERROR: AddressSanitizer: ".len()..];
        let report = report.lines().next().unwrap_or("");
        return Outcome::Error(classify_asan(report, stderr));
    }
    if let Some(i) = stderr.find("runtime error: ") {
        let message = stderr[i + "runtime error: ".len()..]
            .lines()
            .next()
            .unwrap_or("");
        return Outcome::Error(classify_ubsan(message));
    }
    let signal = status.signal();
    // glibc's assert() message, then the runtime's own.
    if stderr.contains(ASSERT_MARKER)
        || (stderr.contains("Assertion `") && stderr.contains("' failed."))
    {
        return Outcome::Error(ErrorKind::Assert);
    }
    match signal {
        Some(6) => Outcome::Error(ErrorKind::Abort),
        Some(8) => Outcome::Error(ErrorKind::Div),
        Some(7) | Some(11) => Outcome::Error(ErrorKind::Ptr),
        Some(s) => Outcome::Signal(s),
        None => Outcome::Exit(status.code().unwrap_or(-1)),
    }
}

/// The program's environment under the engine
/// (`symtest_executor::PROGRAM_ENVIRONMENT`) as (name, value) pairs: every
/// native run gives the program exactly these.
pub fn program_environment() -> impl Iterator<Item = (&'static str, &'static str)> {
    symtest_executor::PROGRAM_ENVIRONMENT
        .iter()
        .filter_map(|v| v.split_once('='))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::sync::OnceLock;

    /// The C code that gives native runs the program's environment (the
    /// replay runtime, the start of an emitted suite's test) lists exactly
    /// the engine's variables, in its order.
    #[test]
    fn native_runtimes_give_the_engine_s_environment() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let want: Vec<String> = symtest_executor::PROGRAM_ENVIRONMENT
            .iter()
            .map(|v| format!("\"{v}\""))
            .collect();
        assert!(program_environment().count() == want.len());
        for file in [
            "libc-models/replay/symtest_replay.c",
            "templates/suite/symtest_child.c",
        ] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            let list = want.join(", ");
            let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(flat.contains(&list), "{file} does not list {list}");
            assert_eq!(
                text.matches("=/symtest\"").count(),
                2,
                "{file}: one copy of the list"
            );
        }
    }

    /// Every native build refuses the allocations the engine refuses by
    /// default: the sanitizer options of each runtime name the limit in
    /// MiB, and the build without a sanitizer wraps the same calls in the
    /// emitted suites as in `cc --native`, with the same limit.
    #[test]
    fn native_builds_enforce_the_engine_s_allocation_limit() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let limit = symtest_executor::DEFAULT_MAX_ALLOC_SIZE;
        assert_eq!(limit % (1 << 20), 0);
        let option = asan_alloc_limit(limit);
        assert_eq!(option, "max_allocation_size_mb=1024");
        for file in [
            "libc-models/replay/symtest_replay.c",
            "templates/suite/symtest_runner.c",
            "symtest-project/src/library/readable_c.rs",
            "tests/bench/native/san_options.c",
            "tests/bench/random/symtest_random.c",
            "xtask/src/bench/native.rs",
        ] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            assert!(text.contains(&option), "{file} lacks {option}");
            assert!(text.contains("allocator_may_return_null=1"), "{file}");
            // memcmp reads up to the first difference, as the engine's does.
            assert!(text.contains("strict_memcmp=0"), "{file}");
        }
        let c =
            std::fs::read_to_string(root.join("libc-models/replay/symtest_alloc_limit.c")).unwrap();
        assert_eq!(limit, 1 << 30);
        assert!(c.contains("#define SYMTEST_DEFAULT_MAX_ALLOC (1UL << 30)"));
        let wraps = crate::cc_cmd::ALLOC_WRAP.join(",");
        for file in [
            "templates/suite/Makefile.in",
            "templates/suite/symtest.cmake.in",
        ] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            assert!(text.contains(&wraps), "{file} does not wrap {wraps}");
        }
        for call in crate::cc_cmd::ALLOC_WRAP {
            let name = call.trim_start_matches("--wrap=");
            assert!(c.contains(&format!("__wrap_{name}(")), "{name} not wrapped");
        }
    }

    #[test]
    fn harness_replay_makes_the_checks_of_the_native_recipe() {
        let recipe = symtest_project::recipe::default_host_sanitize_flags();
        for flag in &recipe {
            assert!(
                NATIVE_FLAGS.contains(&flag.as_str()),
                "{flag} not in {NATIVE_FLAGS:?}"
            );
        }
    }

    #[test]
    fn kind_names_round_trip() {
        let names: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "ptr", "free", "div", "overflow", "assert", "abort", "readonly", "user", "exec",
                "external", "model", "solver", "mismatch"
            ]
        );
        for k in ErrorKind::ALL {
            assert_eq!(k.as_str().parse::<ErrorKind>(), Ok(k));
            assert_eq!(
                serde_json::to_string(&k).unwrap(),
                format!("\"{}\"", k.as_str())
            );
            assert_eq!(
                serde_json::from_str::<ErrorKind>(&format!("\"{k}\"")).unwrap(),
                k
            );
        }
        assert_eq!("ReadOnly".parse::<ErrorKind>(), Ok(ErrorKind::ReadOnly));
        let err = "segv".parse::<ErrorKind>().unwrap_err();
        assert!(err.to_string().contains("unknown error kind 'segv'"));
        assert_eq!(
            serde_json::to_string(&Outcome::Error(ErrorKind::Div)).unwrap(),
            r#"{"error":"div"}"#
        );
        assert_eq!(Outcome::Exit(3).to_string(), "exit 3");
        assert_eq!(Outcome::Error(ErrorKind::Free).to_string(), "error: free");
    }

    fn exited(code: i32) -> ExitStatus {
        ExitStatus::from_raw(code << 8)
    }
    fn signalled(sig: i32) -> ExitStatus {
        ExitStatus::from_raw(sig)
    }

    #[test]
    fn float_cast_overflow_is_an_overflow() {
        let stderr = "t.c:15:15: runtime error: 3.22123e+09 is outside the range of \
                      representable values of type 'int'\n";
        assert_eq!(
            classify(exited(1), stderr),
            Outcome::Error(ErrorKind::Overflow)
        );
    }

    #[test]
    fn classify_plain_statuses() {
        assert_eq!(classify(exited(0), ""), Outcome::Exit(0));
        assert_eq!(
            classify(exited(125), "symtest-replay: assumption failed\n"),
            Outcome::Exit(125)
        );
        assert_eq!(classify(signalled(6), ""), Outcome::Error(ErrorKind::Abort));
        assert_eq!(classify(signalled(8), ""), Outcome::Error(ErrorKind::Div));
        assert_eq!(classify(signalled(11), ""), Outcome::Error(ErrorKind::Ptr));
        assert_eq!(classify(signalled(9), ""), Outcome::Signal(9));
    }

    #[test]
    fn classify_wild_write_is_not_readonly() {
        // A write to an unmapped address far from the code: invalid pointer.
        let s = "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x7f0012345678 \
                 (pc 0x5634a809b6d0 bp 0x7ffc6966ad40 sp 0x7ffc6966aa80 T0)\n\
                 ==1==The signal is caused by a WRITE memory access.\n";
        assert_eq!(classify(exited(1), s), Outcome::Error(ErrorKind::Ptr));
        let s = s.replace("0x7f0012345678", "0x5634a80aee60");
        assert_eq!(classify(exited(1), &s), Outcome::Error(ErrorKind::ReadOnly));
        let s = s.replace("WRITE", "READ");
        assert_eq!(classify(exited(1), &s), Outcome::Error(ErrorKind::Ptr));
    }

    /// A C program exercising one behaviour per value of the symbolic int
    /// `k`, compiled once per test run.
    const PROGRAM: &str = r#"
#include <assert.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include "symtest.h"
#include "klee/klee.h"

int global_arr[4];
const int const_global = 5;

int main(void) {
  int k = symtest_int("k");
  volatile int z = 0, big = INT_MAX, small = INT_MIN, idx = 4, neg = -1;
  int *heap = malloc(4 * sizeof(int));
  int stack[4] = {0, 1, 2, 3};
  int *volatile np = 0;
  char *lit = "literal";
  switch (k) {
  case 0: return 3;
  case 1: return heap[idx];                    /* heap-buffer-overflow */
  case 2: heap[idx] = 1; return 0;             /* heap overflow write */
  case 3: { int *p = stack; return p[idx]; }   /* stack-buffer-overflow */
  case 4: { int *p = global_arr; return p[idx]; } /* global-buffer-overflow */
  case 5: return *np;                          /* null (UBSan) */
  case 6: free(heap); return heap[0];          /* use after free */
  case 7: free(heap); free(heap); return 0;    /* double free */
  case 8: free(stack); return 0;               /* free of a stack array */
  case 9: free(heap + 1); return 0;            /* interior pointer */
  case 10: return 7 / z;
  case 11: return 7 % z;
  case 12: return small / neg;
  case 13: return big + 1;
  case 14: return -small;
  case 15: return 1 << (idx * 10);
  case 16: return neg << 1;
  case 17: assert(k == 0); return 0;
  case 18: symtest_assert(0); return 0;
  case 19: klee_assert(k == 0); return 0;
  case 20: abort();
  case 21: symtest_abort();
  case 22: lit[0] = 'L'; return 0;             /* string literal */
  case 23: *(int *)&const_global = 1; return 0;
  case 24: symtest_report_error("file.c", 42, "bad thing", "user.err");
  case 25: symtest_assume(k == 0); return 0;   /* replay mismatch */
  case 26: for (;;) {}
  case 27: raise(SIGUSR1); return 0;
  case 28: { int *p = (int *)(long)(idx * 16); *p = 1; return 0; } /* SEGV in page 0 */
  case 29: { char c; symtest_make_symbolic(&c, 1, "c"); return c; } /* size mismatch */
  case 30: return global_arr[idx];             /* UBSan bounds */
  }
  return 0;
}
"#;

    fn models_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../libc-models")
    }

    fn scratch_dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!("symtest-replay-test-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn program() -> &'static PathBuf {
        static BIN: OnceLock<PathBuf> = OnceLock::new();
        BIN.get_or_init(|| {
            let dir = scratch_dir();
            let src = dir.join("prog.c");
            std::fs::write(&src, PROGRAM).unwrap();
            let bin = dir.join("prog");
            build_native(&[src], &[], &models_dir(), &bin).expect("native build");
            bin
        })
    }

    /// A version-3 .ktest with the given objects (written by hand here: this
    /// module does not depend on the ktest crate).
    fn ktest_bytes(objects: &[(&str, &[u8])]) -> Vec<u8> {
        let mut v = b"KTEST".to_vec();
        for n in [3u32, 0, 0, 0, objects.len() as u32] {
            v.extend_from_slice(&n.to_be_bytes());
        }
        for (name, bytes) in objects {
            v.extend_from_slice(&(name.len() as u32).to_be_bytes());
            v.extend_from_slice(name.as_bytes());
            v.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
            v.extend_from_slice(bytes);
        }
        v
    }

    fn run_case(k: i32, timeout: Duration) -> (Outcome, String) {
        let bin = program();
        let kt = bin.with_file_name(format!("case{k}.ktest"));
        std::fs::write(&kt, ktest_bytes(&[("k", &k.to_ne_bytes())])).unwrap();
        replay(bin, &kt, timeout).unwrap()
    }

    #[test]
    fn classify_real_runs() {
        use ErrorKind::*;
        let expected: &[(i32, Outcome)] = &[
            (0, Outcome::Exit(3)),
            (1, Outcome::Error(Ptr)),
            (2, Outcome::Error(Ptr)),
            (3, Outcome::Error(Ptr)),
            (4, Outcome::Error(Ptr)),
            (5, Outcome::Error(Ptr)),
            (6, Outcome::Error(Ptr)),
            (7, Outcome::Error(Free)),
            (8, Outcome::Error(Free)),
            (9, Outcome::Error(Free)),
            (10, Outcome::Error(Div)),
            (11, Outcome::Error(Div)),
            (12, Outcome::Error(Div)),
            (13, Outcome::Error(Overflow)),
            (14, Outcome::Error(Overflow)),
            (15, Outcome::Error(Overflow)),
            (16, Outcome::Error(Overflow)),
            (17, Outcome::Error(Assert)),
            (18, Outcome::Error(Assert)),
            (19, Outcome::Error(Assert)),
            (20, Outcome::Error(Abort)),
            (21, Outcome::Error(Abort)),
            (22, Outcome::Error(ReadOnly)),
            (23, Outcome::Error(ReadOnly)),
            (24, Outcome::Error(User)),
            (25, Outcome::Exit(REPLAY_MISMATCH_EXIT)),
            (27, Outcome::Signal(10)),
            (28, Outcome::Error(Ptr)),
            (29, Outcome::Exit(REPLAY_MISMATCH_EXIT)),
            (30, Outcome::Error(Ptr)),
            (31, Outcome::Exit(0)),
        ];
        let mut failures = Vec::new();
        for &(k, want) in expected {
            let (got, stderr) = run_case(k, Duration::from_secs(60));
            if got != want {
                failures.push(format!(
                    "case {k}: expected {want}, got {got}; stderr:\n{stderr}"
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn replay_messages() {
        let (_, stderr) = run_case(24, Duration::from_secs(60));
        assert!(
            stderr.contains("symtest-replay: user error: file.c:42: bad thing"),
            "{stderr}"
        );
        let (_, stderr) = run_case(25, Duration::from_secs(60));
        assert!(
            stderr.contains("symtest-replay: assumption failed"),
            "{stderr}"
        );
        let (_, stderr) = run_case(29, Duration::from_secs(60));
        assert!(
            stderr.contains("has 0 bytes") || stderr.contains("out of inputs"),
            "{stderr}"
        );
    }

    #[test]
    fn replay_times_out() {
        let start = Instant::now();
        let (got, _) = run_case(26, Duration::from_millis(500));
        assert_eq!(got, Outcome::Timeout);
        assert!(start.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn missing_ktest_is_a_mismatch() {
        let bin = program();
        let (got, stderr) = replay(
            bin,
            &bin.with_file_name("does-not-exist.ktest"),
            Duration::from_secs(60),
        )
        .unwrap();
        assert_eq!(got, Outcome::Exit(REPLAY_MISMATCH_EXIT));
        assert!(stderr.contains("cannot open test file"), "{stderr}");
    }

    #[test]
    fn build_failure_shows_diagnostics() {
        let dir = scratch_dir();
        let src = dir.join("broken.c");
        std::fs::write(&src, "int main(void) { return undeclared_thing; }\n").unwrap();
        let err = build_native(&[src], &[], &models_dir(), &dir.join("broken")).unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("undeclared_thing"), "{msg}");
        let err = build_native(&[dir.join("x.c")], &[], &dir, &dir.join("x")).unwrap_err();
        assert!(format!("{err:#}").contains("replay runtime not found"));
    }
}
