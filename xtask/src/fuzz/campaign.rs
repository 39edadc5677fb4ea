//! A fuzz campaign against the `cargo-symtest` binary: mutants of real
//! bitcode (through `exec`, harnesses and a whole program under the musl
//! runtime), of real `.ktest` files (through `show`, the native replay runtime,
//! `replay --binary` and `replay --native`) and of a `symtest.toml` (through
//! `list`, and now and then the whole pipeline). Every run must end with a
//! documented exit code, without a signal, a panic or a hang; bad input must
//! get a one-line error; `show` and the native replay runtime must agree on
//! which `.ktest` files are valid; no file may appear outside the project.
//!
//! Shared by `cargo xtask fuzz` and `cargo-symtest/tests/it/fuzz.rs` (std and
//! libc only).

use super::mutate::{mutate_bytes, mutate_env, mutate_toml, Rng};
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What to run.
pub struct Options {
    /// The `cargo-symtest` binary under test.
    pub bin: PathBuf,
    /// The repository (for `tests/programs`, `tests/utils`, `libc-models`).
    pub workspace: PathBuf,
    /// Scratch directory (emptied first); failing inputs are kept in `findings/`.
    pub work: PathBuf,
    pub seed: u64,
    pub bitcode: usize,
    pub ktest: usize,
    pub toml: usize,
    /// Mutants of the POSIX environment's options (`--sym-stdin N`, ...)
    /// through `exec` of a whole program.
    pub env: usize,
    /// Run the whole pipeline on every n-th `symtest.toml` mutant `list`
    /// accepts (0: never).
    pub pipeline_every: usize,
    /// `exec --max-time` of each bitcode mutant.
    pub max_time_s: f64,
    /// `exec --max-memory` of each bitcode mutant.
    pub max_memory_mib: u64,
    /// Print a line per hundred inputs.
    pub verbose: bool,
}

/// One input that broke a rule.
#[derive(Debug)]
pub struct Finding {
    pub rule: String,
    /// The input, saved under `work/findings/`.
    pub input: PathBuf,
    pub detail: String,
}

/// Inputs tried per family and how they ended.
#[derive(Debug, Default)]
pub struct Tally {
    pub tried: usize,
    /// Exit code (or `-signal`) of the main command per input.
    pub exits: BTreeMap<i32, usize>,
}

#[derive(Debug, Default)]
pub struct Report {
    pub env: Tally,
    /// Longest `exec` run of an environment mutant (seconds).
    pub slowest_env_s: f64,
    pub bitcode: Tally,
    pub ktest: Tally,
    pub toml: Tally,
    pub pipelines: usize,
    pub findings: Vec<Finding>,
    pub elapsed: Duration,
    /// Largest resident set of an `exec` run (MiB, as the kernel counted it).
    pub peak_rss_mib: f64,
    /// Longest `exec` run of a bitcode mutant (seconds).
    pub slowest_exec_s: f64,
    /// Bitcode mutants that crashed LLVM's reader or linker, or made it run
    /// out of memory, in the child that loads first: each ended as a one-line
    /// error instead of a signal.
    pub contained: usize,
}

/// How a child process ended.
struct Ran {
    code: Option<i32>,
    signal: Option<i32>,
    timed_out: bool,
    stdout: String,
    stderr: String,
    wall: Duration,
    maxrss_kib: i64,
}

impl Ran {
    /// Exit code, or minus the signal, or -1000 for a timeout.
    fn key(&self) -> i32 {
        match (self.timed_out, self.code, self.signal) {
            (true, _, _) => -1000,
            (_, Some(c), _) => c,
            (_, None, Some(s)) => -s,
            _ => -999,
        }
    }
}

/// Runs `cmd` in its own process group, killed (group and all) after `limit`.
fn run(mut cmd: Command, limit: Duration) -> Ran {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = std::env::temp_dir();
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tag = format!("{}-{n}", std::process::id());
    let (out_path, err_path) = (
        dir.join(format!("symtest-fuzz-{tag}.out")),
        dir.join(format!("symtest-fuzz-{tag}.err")),
    );
    let files = (
        std::fs::File::create(&out_path),
        std::fs::File::create(&err_path),
    );
    let (Ok(out), Ok(err)) = files else {
        panic!("cannot create output files in {}", dir.display());
    };
    cmd.stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0);
    let started = Instant::now();
    // Reaped below by wait4(2), which also gives the child's resource usage.
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().expect("spawn the command under test");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: waiting for our own child; pointers to live locals.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            panic!("wait4: {}", std::io::Error::last_os_error());
        }
        if started.elapsed() > limit && !timed_out {
            timed_out = true;
            // SAFETY: signalling the child's process group.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let wall = started.elapsed();
    let read = |p: &Path| {
        let s = String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
        let _ = std::fs::remove_file(p);
        s
    };
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    Ran {
        code,
        signal,
        timed_out,
        stdout: read(&out_path),
        stderr: read(&err_path),
        wall,
        maxrss_kib: usage.ru_maxrss,
    }
}

/// The rules every run obeys; `one_line` when an exit code 2 must come with
/// exactly one `error: ` line.
fn judge(ran: &Ran, allowed: &[i32], one_line: bool) -> Option<(String, String)> {
    let tail = |s: &str| {
        let lines: Vec<&str> = s.lines().collect();
        lines[lines.len().saturating_sub(6)..].join("\n")
    };
    if ran.timed_out {
        return Some(("hang".into(), format!("killed after {:?}", ran.wall)));
    }
    if let Some(s) = ran.signal {
        return Some((format!("signal {s}"), tail(&ran.stderr)));
    }
    if ran.stderr.contains("panicked") || ran.stderr.contains("RUST_BACKTRACE") {
        return Some(("panic".into(), tail(&ran.stderr)));
    }
    let code = ran.code.unwrap_or(-1);
    if !allowed.contains(&code) {
        return Some((format!("exit code {code}"), tail(&ran.stderr)));
    }
    if one_line && code == 2 {
        let lines: Vec<&str> = ran
            .stderr
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect();
        if lines.len() != 1 || !lines[0].starts_with("error: ") {
            return Some(("not a one-line error".into(), tail(&ran.stderr)));
        }
    }
    None
}

struct Campaign<'a> {
    o: &'a Options,
    started: Instant,
    rng: Rng,
    report: Report,
    findings_dir: PathBuf,
}

impl Campaign<'_> {
    fn finding(&mut self, rule: String, detail: String, input: &[u8], ext: &str) {
        let n = self.report.findings.len();
        let path = self.findings_dir.join(format!("{n:04}.{ext}"));
        let _ = std::fs::write(&path, input);
        self.report.findings.push(Finding {
            rule,
            input: path,
            detail,
        });
    }

    fn progress(&self, family: &str, i: usize, total: usize) {
        if self.o.verbose && (i + 1).is_multiple_of(100) {
            eprintln!(
                "fuzz: {family} {}/{total}, {} finding(s), {:.0}s",
                i + 1,
                self.report.findings.len(),
                self.started.elapsed().as_secs_f64()
            );
        }
    }

    fn cmd(&self) -> Command {
        Command::new(&self.o.bin)
    }
}

/// Runs a command that must succeed while preparing the seeds.
fn prepare(mut cmd: Command) -> Result<(), String> {
    let line = format!("{cmd:?}");
    let out = cmd.output().map_err(|e| format!("{line}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{line} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    Ok(())
}

/// The harness the `.ktest` seeds come from: objects of several sizes.
const KTEST_HARNESS: &str = r#"#include "symtest.h"
int main(void) {
  char name[8];
  int n;
  short s;
  symtest_make_symbolic(name, sizeof name, "name");
  symtest_make_symbolic(&n, sizeof n, "n");
  symtest_make_symbolic(&s, sizeof s, "s");
  if (name[0] == 'a' && n > 5)
    return 1;
  if (s < 0)
    return 2;
  return 0;
}
"#;

/// Harness programs of the corpus used as bitcode seeds.
const BITCODE_SEEDS: &[&str] = &[
    "err_oob_read",
    "ctl_switch",
    "ctl_varargs",
    "fp_libm_calls",
    "err_double_free",
    "bi_overflow",
];

/// Runs the campaign. Err: the seeds could not be prepared.
pub fn campaign(o: &Options) -> Result<Report, String> {
    let started = Instant::now();
    let _ = std::fs::remove_dir_all(&o.work);
    let seeds = o.work.join("seeds");
    let findings_dir = o.work.join("findings");
    for d in [&seeds, &findings_dir] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let mut c = Campaign {
        o,
        started,
        rng: Rng::new(o.seed),
        report: Report::default(),
        findings_dir,
    };
    bitcode(&mut c, &seeds)?;
    c.report.elapsed = started.elapsed();
    env(&mut c, &seeds)?;
    c.report.elapsed = started.elapsed();
    ktest(&mut c, &seeds)?;
    c.report.elapsed = started.elapsed();
    toml(&mut c)?;
    c.report.elapsed = started.elapsed();
    Ok(c.report)
}

fn compile_harness(o: &Options, src: &Path, bc: &Path) -> Result<(), String> {
    let mut cmd = Command::new("clang-19");
    cmd.args([
        "-emit-llvm",
        "-c",
        "-g",
        "-O0",
        "-Xclang",
        "-disable-O0-optnone",
    ])
    .arg("-fsanitize=signed-integer-overflow,shift,integer-divide-by-zero")
    .args(["-fno-sanitize-recover=all", "-Wno-everything", "-I"])
    .arg(o.workspace.join("libc-models/include"))
    .arg(src)
    .arg("-o")
    .arg(bc);
    prepare(cmd)
}

/// Bitcode mutants through `exec` (harnesses, and a whole program with the
/// musl runtime and the POSIX environment).
fn bitcode(c: &mut Campaign, seeds: &Path) -> Result<(), String> {
    let o = c.o;
    let mut inputs: Vec<(Vec<u8>, bool)> = Vec::new();
    for name in BITCODE_SEEDS {
        let bc = seeds.join(format!("{name}.bc"));
        compile_harness(
            o,
            &o.workspace.join(format!("tests/programs/{name}.c")),
            &bc,
        )?;
        inputs.push((std::fs::read(&bc).map_err(|e| e.to_string())?, false));
    }
    let wc = seeds.join("wc.bc");
    let mut cc = Command::new(&o.bin);
    cc.arg("cc")
        .arg(o.workspace.join("tests/utils/wc.c"))
        .arg("-o")
        .arg(&wc);
    prepare(cc)?;
    inputs.push((std::fs::read(&wc).map_err(|e| e.to_string())?, true));
    let donors: Vec<Vec<u8>> = inputs.iter().map(|(b, _)| b.clone()).collect();
    let dir = o.work.join("bitcode");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let limit = Duration::from_secs_f64(o.max_time_s + 30.0);
    for i in 0..o.bitcode {
        let (seed, program) = &inputs[c.rng.below(inputs.len())];
        let m = mutate_bytes(&mut c.rng, seed, &donors);
        // The file name is the program's name: keep it plain.
        let file = dir.join(if *program { "wc.bc" } else { "m.bc" });
        std::fs::write(&file, &m).map_err(|e| e.to_string())?;
        let out = dir.join("out");
        let _ = std::fs::remove_dir_all(&out);
        let mut cmd = c.cmd();
        cmd.arg("exec")
            .arg(&file)
            .arg("--output-dir")
            .arg(&out)
            .args(["--max-time", &o.max_time_s.to_string()])
            .args(["--max-memory", &o.max_memory_mib.to_string()])
            .args([
                "--max-instructions",
                "200000",
                "--max-solver-time",
                "2",
                "-q",
            ]);
        if *program {
            cmd.args(["--libc=musl", "--posix-runtime", "--", "--sym-stdin", "4"]);
        }
        let ran = run(cmd, limit);
        c.report.bitcode.tried += 1;
        *c.report.bitcode.exits.entry(ran.key()).or_default() += 1;
        c.report.peak_rss_mib = c.report.peak_rss_mib.max(ran.maxrss_kib as f64 / 1024.0);
        c.report.slowest_exec_s = c.report.slowest_exec_s.max(ran.wall.as_secs_f64());
        let contained = ["crashed (SIG", "needs more memory than"]
            .iter()
            .any(|k| ran.stderr.contains(k));
        if ran.code == Some(2) && contained {
            c.report.contained += 1;
        }
        if let Some((rule, detail)) = judge(&ran, &[0, 1, 2], true) {
            c.finding(format!("exec: {rule}"), detail, &m, "bc");
        } else if ran.maxrss_kib as f64 / 1024.0 > o.max_memory_mib as f64 * 1.1 {
            let detail = format!(
                "peak {} KiB with --max-memory {}",
                ran.maxrss_kib, o.max_memory_mib
            );
            c.finding("exec: above --max-memory + 10%".into(), detail, &m, "bc");
        } else if ran.wall.as_secs_f64() > o.max_time_s * 1.1 + 5.0 {
            let detail = format!(
                "ran {:.1}s with --max-time {}",
                ran.wall.as_secs_f64(),
                o.max_time_s
            );
            c.finding("exec: overran --max-time".into(), detail, &m, "bc");
        }
        c.progress("bitcode", i, o.bitcode);
    }
    Ok(())
}

/// Environment-option mutants (sizes past every bound, symbolic bytes that
/// cannot fit the cap, malformed numbers) after `--` of `exec` on `wc` with
/// the POSIX runtime: refused with one `error:` line, or run within
/// `--max-time` + 10% (and 2 s for the process and loading) and
/// `--max-memory` + 10%, from the first instruction (model setup included).
fn env(c: &mut Campaign, seeds: &Path) -> Result<(), String> {
    let o = c.o;
    let wc = seeds.join("wc.bc");
    let dir = o.work.join("env");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let limit = Duration::from_secs_f64(o.max_time_s + 30.0);
    for i in 0..o.env {
        let args = mutate_env(&mut c.rng);
        let out = dir.join("out");
        let _ = std::fs::remove_dir_all(&out);
        let mut cmd = c.cmd();
        cmd.arg("exec")
            .arg(&wc)
            .arg("--output-dir")
            .arg(&out)
            .args(["--max-time", &o.max_time_s.to_string()])
            .args(["--max-memory", &o.max_memory_mib.to_string()])
            .args(["--max-instructions", "50000", "-q"])
            .args(["--libc=musl", "--posix-runtime", "--"])
            .args(&args);
        let ran = run(cmd, limit);
        let input = args
            .join(
                "
",
            )
            .into_bytes();
        c.report.env.tried += 1;
        *c.report.env.exits.entry(ran.key()).or_default() += 1;
        c.report.peak_rss_mib = c.report.peak_rss_mib.max(ran.maxrss_kib as f64 / 1024.0);
        c.report.slowest_env_s = c.report.slowest_env_s.max(ran.wall.as_secs_f64());
        if let Some((rule, detail)) = judge(&ran, &[0, 1, 2], true) {
            c.finding(format!("env: {rule}"), detail, &input, "args");
        } else if ran.maxrss_kib as f64 / 1024.0 > o.max_memory_mib as f64 * 1.1 {
            let detail = format!(
                "peak {} KiB with --max-memory {}",
                ran.maxrss_kib, o.max_memory_mib
            );
            c.finding(
                "env: above --max-memory + 10%".into(),
                detail,
                &input,
                "args",
            );
        } else if ran.wall.as_secs_f64() > o.max_time_s * 1.1 + 2.0 {
            let detail = format!(
                "ran {:.1}s with --max-time {}",
                ran.wall.as_secs_f64(),
                o.max_time_s
            );
            c.finding("env: overran --max-time".into(), detail, &input, "args");
        }
        c.progress("env", i, o.env);
    }
    Ok(())
}

/// Whether the native replay runtime refused the test file itself.
fn runtime_says_corrupt(stderr: &str) -> bool {
    [
        "corrupt test file",
        "is not a .ktest file",
        "unsupported version",
    ]
    .iter()
    .any(|m| stderr.contains(m))
}

/// What the `.ktest` mutants start from and run against.
struct KtestSeeds {
    /// The harness's tests (`exec --emit-all`).
    harness_out: PathBuf,
    /// The harness built natively against the replay runtime.
    harness: PathBuf,
    /// A whole program's tests (argv, files, stdin, failures).
    wc_out: PathBuf,
    /// That program built natively, for `replay --native`.
    wc_native: PathBuf,
}

/// Runs the seed programs into `seeds` and builds their native replays.
fn ktest_seeds(o: &Options, seeds: &Path) -> Result<KtestSeeds, String> {
    let src = seeds.join("kt.c");
    std::fs::write(&src, KTEST_HARNESS).map_err(|e| e.to_string())?;
    let bc = seeds.join("kt.bc");
    compile_harness(o, &src, &bc)?;
    let harness_out = seeds.join("kt-out");
    let mut cmd = Command::new(&o.bin);
    cmd.arg("exec")
        .arg(&bc)
        .arg("--output-dir")
        .arg(&harness_out);
    cmd.args(["--emit-all", "-q", "--max-time", "60"]);
    prepare(cmd)?;
    let harness = seeds.join("kt-native");
    let mut cmd = Command::new("clang-19");
    cmd.args(["-g", "-O0", "-w", "-I"])
        .arg(o.workspace.join("libc-models/include"))
        .arg(&src)
        .arg(o.workspace.join("libc-models/replay/symtest_replay.c"))
        .arg("-o")
        .arg(&harness);
    prepare(cmd)?;
    // A whole program's tests (argv, files, stdin, failures) for `replay --native`.
    let wc_bc = seeds.join("wc.bc");
    let wc_out = seeds.join("wc-out");
    let mut cmd = Command::new(&o.bin);
    cmd.arg("exec").arg(&wc_bc).arg("--output-dir").arg(&wc_out);
    cmd.args(["--libc=musl", "--posix-runtime", "-q", "--max-time", "20"]);
    cmd.args(["--", "--sym-args", "0", "2", "3", "--sym-files", "1", "4"]);
    cmd.args(["--sym-stdin", "4", "--max-fail", "1"]);
    prepare(cmd)?;
    let wc_native = seeds.join("wc");
    let mut cmd = Command::new(&o.bin);
    cmd.arg("cc")
        .arg("--native")
        .arg(o.workspace.join("tests/utils/wc.c"))
        .arg("-o")
        .arg(&wc_native);
    prepare(cmd)?;
    Ok(KtestSeeds {
        harness_out,
        harness,
        wc_out,
        wc_native,
    })
}

/// The `.ktest` files of `dir`, sorted.
fn ktest_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|x| x == "ktest"));
    v.sort();
    v
}

/// `.ktest` mutants: `show`, the replay runtime directly, `replay --binary`,
/// and (whole-program tests) `replay --native`.
fn ktest(c: &mut Campaign, seeds: &Path) -> Result<(), String> {
    let o = c.o;
    let s = ktest_seeds(o, seeds)?;
    let families = [
        (ktest_files(&s.harness_out), false),
        (ktest_files(&s.wc_out), true),
    ];
    if families.iter().any(|(t, _)| t.is_empty()) {
        return Err("the seed runs wrote no .ktest files".into());
    }
    let donors: Vec<Vec<u8>> = families
        .iter()
        .flat_map(|(t, _)| t.iter().filter_map(|p| std::fs::read(p).ok()))
        .collect();
    let dir = o.work.join("ktest");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    for i in 0..o.ktest {
        let (list, program) = &families[c.rng.below(families.len())];
        let seed = &list[c.rng.below(list.len())];
        let bytes = std::fs::read(seed).map_err(|e| e.to_string())?;
        let m = mutate_bytes(&mut c.rng, &bytes, &donors);
        let file = dir.join("m.ktest");
        std::fs::write(&file, &m).map_err(|e| e.to_string())?;
        // The recorded outcome travels with the test.
        let _ = std::fs::copy(seed.with_extension("json"), dir.join("m.json"));
        c.report.ktest.tried += 1;
        if check_ktest(c, &s, &file, &m, *program) {
            c.progress("ktest", i, o.ktest);
        }
    }
    Ok(())
}

/// Runs mutant `m` (written to `file`; of the whole program's tests when
/// `program`) through `show`, the replay runtime (harness tests) and
/// `replay`, recording what they disagree on or fail at; `false` when
/// `show` itself failed (the rest is not run).
fn check_ktest(c: &mut Campaign, s: &KtestSeeds, file: &Path, m: &[u8], program: bool) -> bool {
    let limit = Duration::from_secs(60);
    let mut cmd = c.cmd();
    cmd.arg("show").arg(file);
    let show = run(cmd, limit);
    *c.report.ktest.exits.entry(show.key()).or_default() += 1;
    if let Some((rule, detail)) = judge(&show, &[0, 2], false) {
        c.finding(format!("show: {rule}"), detail, m, "ktest");
        return false;
    }
    let corrupt = show.code == Some(2);
    if !program {
        let mut cmd = Command::new(&s.harness);
        cmd.env("SYMTEST_KTEST", file);
        let native = run(cmd, limit);
        if runtime_says_corrupt(&native.stderr) != corrupt {
            let detail = format!(
                "show exit {:?}; replay runtime: {}",
                show.code,
                native.stderr.lines().next().unwrap_or("(accepted)")
            );
            c.finding(
                "show and the replay runtime disagree".into(),
                detail,
                m,
                "ktest",
            );
        }
    }
    let mut cmd = c.cmd();
    cmd.arg("replay");
    if program {
        cmd.arg("--native").arg(&s.wc_native);
    } else {
        cmd.arg("--binary").arg(&s.harness);
    }
    cmd.args(["--timeout", "10"]).arg(file);
    let replay = run(cmd, limit);
    if let Some((rule, detail)) = judge(&replay, &[0, 1], false) {
        c.finding(format!("replay: {rule}"), detail, m, "ktest");
    } else if corrupt && (replay.code != Some(1) || !replay.stdout.contains("CORRUPT")) {
        let detail = format!("exit {:?}: {}", replay.code, replay.stdout.trim_end());
        c.finding(
            "replay: a corrupt test did not fail".into(),
            detail,
            m,
            "ktest",
        );
    } else if replay.code == Some(0) && !replay.stdout.contains("1 passed") {
        let detail = replay.stdout.trim_end().to_string();
        c.finding(
            "replay: exit 0 without a passed test".into(),
            detail,
            m,
            "ktest",
        );
    }
    true
}

/// The `symtest.toml` mutants start from this (every key, two targets).
const TOML_SEED: &str = r#"[[target]]
name = "parse"
kind = "harness"
sources = ["src/h.c"]
include = ["inc"]
defines = ["LIMIT=3", "NAME=\"x\""]
cflags = ["-O0"]
sanitize = ["shift"]
max-time = 2
max-instructions = 100000
max-memory = 512
seed = 3
search = ["dfs"]
entry-point = "main"
exec-args = ["--emit-all"]
suite-dir = "tests/parse-suite"

[[target]]
name = "prog"
kind = "program"
sources = ["src/p.c"]
args = ["--sym-args", "0", "1", "2", "--sym-stdin", "2"]
max-time = 2
"#;

const TOML_HARNESS: &str = r#"#include "symtest.h"
#ifndef LIMIT
#define LIMIT 1
#endif
int main(void) { int x = symtest_int("x"); return x > LIMIT; }
"#;

const TOML_PROGRAM: &str = r#"#include <stdio.h>
int main(int argc, char **argv) { int c = getchar(); return argc > 1 && c == 'a'; }
"#;

/// Files whose name starts with `pwned` under `dir`, or the absolute and
/// escaping paths the tokens name.
fn escaped(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if e.file_name().to_string_lossy().starts_with("pwned") {
                found.push(p.display().to_string());
            }
            if p.is_dir() && !p.is_symlink() {
                stack.push(p);
            }
        }
    }
    for p in ["/tmp/symtest-fuzz-absolute", "/tmp/symtest-fuzz-out"] {
        if Path::new(p).exists() {
            found.push(p.to_string());
        }
    }
    // `../../escaped` from the project (and one level less).
    for up in dir.ancestors().skip(1).take(2) {
        if up.join("escaped").exists() {
            found.push(up.join("escaped").display().to_string());
        }
    }
    found
}

/// `symtest.toml` mutants through `list` (and the pipeline now and then).
fn toml(c: &mut Campaign) -> Result<(), String> {
    let o = c.o;
    let fixture = o.work.join("toml").join("project");
    std::fs::create_dir_all(fixture.join("src")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(fixture.join("inc")).map_err(|e| e.to_string())?;
    std::fs::write(fixture.join("src/h.c"), TOML_HARNESS).map_err(|e| e.to_string())?;
    std::fs::write(fixture.join("src/p.c"), TOML_PROGRAM).map_err(|e| e.to_string())?;
    let limit = Duration::from_secs(120);
    let mut accepted = 0usize;
    for i in 0..o.toml {
        let m = mutate_toml(&mut c.rng, TOML_SEED);
        let file = fixture.join("fuzz.toml");
        std::fs::write(&file, &m).map_err(|e| e.to_string())?;
        c.report.toml.tried += 1;
        let mut cmd = c.cmd();
        cmd.args(["list", "--config", "fuzz.toml"])
            .current_dir(&fixture);
        let ran = run(cmd, limit);
        *c.report.toml.exits.entry(ran.key()).or_default() += 1;
        if let Some((rule, detail)) = judge(&ran, &[0, 2], false) {
            c.finding(format!("list: {rule}"), detail, &m, "toml");
            continue;
        }
        if ran.code == Some(0) {
            accepted += 1;
            if o.pipeline_every > 0 && accepted.is_multiple_of(o.pipeline_every) {
                pipeline(c, &fixture, &m, limit);
            }
        }
        let out = escaped(&fixture);
        if !out.is_empty() {
            c.finding(
                "toml: files outside the project or commands run".into(),
                out.join(", "),
                &m,
                "toml",
            );
            for p in ["/tmp/symtest-fuzz-absolute", "/tmp/symtest-fuzz-out"] {
                let _ = std::fs::remove_dir_all(p);
            }
        }
        c.progress("toml", i, o.toml);
    }
    Ok(())
}

/// The whole pipeline on an accepted mutant, in a copy of the project.
fn pipeline(c: &mut Campaign, fixture: &Path, m: &[u8], limit: Duration) {
    let copy = fixture.with_file_name(format!("run-{}", c.report.pipelines));
    let _ = std::fs::remove_dir_all(&copy);
    let ok = std::fs::create_dir_all(copy.join("src")).is_ok()
        && std::fs::create_dir_all(copy.join("inc")).is_ok()
        && ["src/h.c", "src/p.c", "fuzz.toml"]
            .iter()
            .all(|f| std::fs::copy(fixture.join(f), copy.join(f)).is_ok());
    if !ok {
        return;
    }
    c.report.pipelines += 1;
    let mut cmd = c.cmd();
    cmd.args(["--config", "fuzz.toml", "--max-time", "1", "-j", "1", "-q"])
        .current_dir(&copy);
    let ran = run(cmd, limit);
    if let Some((rule, detail)) = judge(&ran, &[0, 1, 2], false) {
        c.finding(format!("pipeline: {rule}"), detail, m, "toml");
    }
    let out = escaped(&copy);
    if !out.is_empty() {
        c.finding(
            "pipeline: files outside the project or commands run".into(),
            out.join(", "),
            m,
            "toml",
        );
    }
    let _ = std::fs::remove_dir_all(&copy);
}
