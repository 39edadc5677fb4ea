//! Whole programs under the POSIX environment (paper §4): each utility of
//! tests/utils/ is compiled with `cargo symtest cc`, explored with
//! `exec --libc=musl --posix-runtime` and the symbolic arguments, files and
//! stdin of its `SYMTEST-ARGS` header line, explored again with `--max-fail 1`
//! (`MAX-FAIL-ARGS`), and every kept test is replayed natively on a musl-gcc
//! `--coverage` build.  Asserted per utility: every replayed test reproduces
//! its recorded outcome, the planted bugs (`EXPECT-ERROR` lines) are found,
//! each `EXPECT-FAIL-EXIT: CODE CLASS` error path is reached by a test whose
//! replay injects a CLASS failure and exits CODE, and the gcov line coverage
//! of the replayed tests reaches the target.  Replay also compares each
//! test's recorded stdout with the native one.

use crate::support::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Line coverage every utility must reach with its replayed tests (percent).
const COVERAGE_TARGET: f64 = 90.0;
/// Wall-clock budget of each exploration (seconds).  The issue's 60 s is
/// not needed: on 2 cores the utilities reach all their lines within ~20 s
/// (most within 5 s), and the whole module stays near 2-3 minutes.
const MAX_TIME: &str = "30";

struct Header {
    sym_args: Vec<String>,
    max_fail_args: Vec<String>,
    /// (kind, line) of every planted bug.
    bugs: BTreeSet<(String, u32)>,
    /// (exit code, failure class) of every error-handling path.
    fail_exits: Vec<(i32, String)>,
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn header(src: &Path) -> Header {
    let text = std::fs::read_to_string(src).unwrap();
    let mut h = Header {
        sym_args: vec![],
        max_fail_args: vec![],
        bugs: BTreeSet::new(),
        fail_exits: vec![],
    };
    for (i, line) in text.lines().enumerate() {
        let body = line.trim_start().trim_start_matches(['*', ' ']);
        if let Some(v) = body.strip_prefix("SYMTEST-ARGS:") {
            h.sym_args = words(v);
        } else if let Some(v) = body.strip_prefix("MAX-FAIL-ARGS:") {
            h.max_fail_args = words(v);
        } else if let Some(v) = body.strip_prefix("EXPECT-FAIL-EXIT:") {
            let w = words(v);
            h.fail_exits.push((w[0].parse().unwrap(), w[1].clone()));
        }
        if let Some(kind) = line.split("// EXPECT-ERROR:").nth(1) {
            h.bugs.insert((kind.trim().to_string(), i as u32 + 1));
        }
    }
    assert!(!h.sym_args.is_empty(), "{}: no SYMTEST-ARGS", src.display());
    h
}

/// The release build of cargo-symtest (long explorations), built on first
/// use with the cargo that runs this test, in the same target directory.
fn release_bin() -> &'static Path {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        // <target>/<profile>/cargo-symtest
        let target = bin().parent().unwrap().parent().unwrap().to_path_buf();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--release", "--quiet", "-p", "cargo-symtest"])
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(workspace())
            .status()
            .expect("run cargo");
        assert!(status.success(), "cargo build --release failed");
        target.join("release").join("cargo-symtest")
    })
}

fn run_ok(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!text.contains("panicked"), "{what} panicked:\n{text}");
    text
}

fn exec(bc: &Path, out: &Path, program_args: &[String]) -> String {
    let mut cmd = Command::new(release_bin());
    cmd.arg("exec")
        .arg(bc)
        .args([
            "--libc=musl",
            "--posix-runtime",
            "--max-time",
            MAX_TIME,
            "-q",
        ])
        .arg("--output-dir")
        .arg(out)
        .arg("--")
        .args(program_args);
    run_ok(&mut cmd, &format!("exec {}", bc.display()))
}

/// `gcov`'s "Lines executed" percentage for `src`.
fn gcov_lines(dir: &Path, src: &Path) -> f64 {
    let out = Command::new("gcov")
        .args(["-n", "-o"])
        .arg(dir)
        .arg(src)
        .current_dir(dir)
        .output()
        .expect("run gcov");
    let text = String::from_utf8_lossy(&out.stdout);
    let name = src.file_name().unwrap().to_string_lossy();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if l.starts_with("File '") && l.contains(&*name) {
            let pct = lines
                .next()
                .and_then(|l| l.strip_prefix("Lines executed:"))
                .and_then(|l| l.split('%').next())
                .and_then(|p| p.parse().ok());
            return pct.unwrap_or_else(|| panic!("cannot read gcov output:\n{text}"));
        }
    }
    panic!("gcov reported nothing for {name}:\n{text}")
}

/// What one utility measured.
struct Measured {
    replayed: usize,
    coverage: f64,
}

fn check_utility(name: &str) -> Measured {
    let src = workspace().join("tests/utils").join(format!("{name}.c"));
    let h = header(&src);
    let dir = scratch(&format!("whole_{name}"));

    // Bitcode, and the native coverage build (gcov notes `<name>.gcno` in `dir`).
    let bc = cc_bitcode(&src, &dir);
    let exe = native_coverage_build(&src, &dir, name);

    let explore = dir.join("explore");
    let log = exec(&bc, &explore, &h.sym_args);
    let mut fail_args = h.max_fail_args.clone();
    fail_args.extend(["--max-fail".into(), "1".into()]);
    let fail = dir.join("fail");
    let fail_log = exec(&bc, &fail, &fail_args);

    // Planted bugs found (at their lines).
    let found = reported_errors(&explore);
    for bug in &h.bugs {
        assert!(
            found.contains(bug),
            "{name}: planted bug {bug:?} not found; reported {found:?}\n{log}"
        );
    }

    // Every kept test replays natively with its recorded outcome.
    let mut cmd = Command::new(bin());
    cmd.args(["replay", "--native"])
        .arg(&exe)
        .arg("--gcov-dir")
        .arg(&dir)
        .arg(&explore)
        .arg(&fail);
    let out = cmd.output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{name}: replay mismatches:\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The comparison covered stdout too: every test records it.
    for d in [&explore, &fail] {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("test"))
            {
                let text = std::fs::read_to_string(&p).unwrap();
                assert!(
                    text.contains("\"stdout_hex\""),
                    "{}: no recorded stdout",
                    p.display()
                );
            }
        }
    }
    let replayed = report.lines().filter(|l| l.contains("  ok")).count();
    assert!(replayed > 0, "{name}: nothing replayed:\n{report}");

    // Error-handling paths reached through --max-fail 1.
    for (code, class) in &h.fail_exits {
        let hit = report.lines().any(|l| {
            l.contains("/fail/")
                && l.contains(&format!(": exit {code}  ok"))
                && l.contains(&format!("[failed: {class} "))
        });
        assert!(
            hit,
            "{name}: no --max-fail test exits {code} after a failed {class} call:\n{report}\n{fail_log}"
        );
    }

    let coverage = gcov_lines(&dir, &src);
    eprintln!("{name}: {replayed} tests replayed, line coverage {coverage:.1}%");
    Measured { replayed, coverage }
}

/// One utility at a time: each exploration uses a whole core for up to
/// MAX_TIME seconds, and the other modules' timing-sensitive tests (solver
/// timeouts, --max-time) share the machine's 2 cores with it.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn check(name: &str) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let m = check_utility(name);
    assert!(
        m.coverage >= COVERAGE_TARGET,
        "{name}: line coverage {:.1}% < {COVERAGE_TARGET}% ({} tests)",
        m.coverage,
        m.replayed
    );
}

#[test]
fn util_tr() {
    check("tr");
}

#[test]
fn util_wc() {
    check("wc");
}

#[test]
fn util_head() {
    check("head");
}

#[test]
fn util_catn() {
    check("catn");
}

#[test]
fn util_echo() {
    check("echo");
}

#[test]
fn util_sort() {
    check("sort");
}

#[test]
fn util_cut() {
    check("cut");
}

#[test]
fn util_conf() {
    check("conf");
}

/// The word count of issue #13: forks at every byte of a 10-byte file and
/// stdin with a failing system call per path; its planted overflow needs a
/// word of exactly 8 bytes.
#[test]
fn util_wordcount() {
    check("wordcount");
}

/// The same word count as a `program` target through the whole pipeline
/// (`cargo symtest` with a `symtest.toml`, the release binary): its planted
/// overflow (a word of exactly 8 bytes) is found and confirmed by native
/// replay, and the kept tests cover at least 90% of its lines natively
/// (gcov, the pipeline's own measurement).
#[test]
fn wordcount_program_target_finds_its_planted_overflow() {
    let dir = scratch("whole-wordcount-project");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::copy(
        workspace().join("tests/utils/wordcount.c"),
        dir.join("src/wordcount.c"),
    )
    .unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        r#"[[target]]
name = "wordcount"
kind = "program"
sources = ["src/wordcount.c"]
args = ["--sym-args", "0", "2", "2", "--sym-files", "1", "10", "--sym-stdin", "10", "--max-fail", "1"]
max-time = 15
"#,
    )
    .unwrap();
    let stdout = run_ok(
        Command::new(release_bin())
            .args(["--message-format", "json"])
            .current_dir(&dir),
        "cargo symtest on the word count",
    );
    let r = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["event"] == "target-finished")
        .map(|v| v["report"].clone())
        .unwrap_or_else(|| panic!("no report: {stdout}"));
    assert_eq!(r["status"], "ok", "{r}");
    let bugs = r["bugs"].as_array().unwrap();
    assert_eq!(bugs.len(), 1, "{r}");
    assert_eq!(
        (
            bugs[0]["kind"].as_str(),
            bugs[0]["function"].as_str(),
            bugs[0]["line"].as_u64()
        ),
        (Some("ptr"), Some("end_word"), Some(42)),
        "{r}"
    );
    assert_eq!(r["unconfirmed"], serde_json::json!([]), "{r}");
    assert_eq!(r["soundness_warnings"], serde_json::json!([]), "{r}");
    let (hit, total) = (
        r["lines"][0].as_f64().unwrap(),
        r["lines"][1].as_f64().unwrap(),
    );
    assert!(
        total > 0.0 && hit / total >= 0.9,
        "lines {hit}/{total}: {r}"
    );
}

/// Issue #33's bug behind an input loop (`tests/utils/longword.c`): it needs
/// `-L` and 8 word characters followed by a blank, a condition on the
/// loop-carried word length. With `--merge-loops` the states of an iteration
/// merge at the loop head and the length is one `ite`, so the bug is found
/// at once (0.7 s in the release build; not in 60 s path by path, see
/// BENCHMARKS.md). Every test, the bug's and those written for paths before
/// they were merged, replays natively with its recorded outcome.
#[test]
fn longword_bug_behind_an_input_loop_is_found_by_merging() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let src = workspace().join("tests/utils/longword.c");
    let h = header(&src);
    let dir = scratch("whole_longword_merge");
    let bc = cc_bitcode(&src, &dir);
    let exe = native_coverage_build(&src, &dir, "longword");
    let out = dir.join("explore");
    let mut cmd = Command::new(release_bin());
    cmd.arg("exec")
        .arg(&bc)
        .args([
            "--libc=musl",
            "--posix-runtime",
            "--merge-loops",
            "--max-time",
            "20",
            "--exit-on-error",
            "-q",
        ])
        .arg("--output-dir")
        .arg(&out)
        .arg("--")
        .args(&h.sym_args);
    let log = run_ok(&mut cmd, "exec longword --merge-loops");
    let found = reported_errors(&out);
    assert_eq!(h.bugs.len(), 1);
    for bug in &h.bugs {
        assert!(found.contains(bug), "{bug:?} not found: {found:?}\n{log}");
    }
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert!(stats["states_merged"].as_u64().unwrap() > 0, "{stats}");
    let first_bug = stats["first_bug_s"].as_f64().unwrap();
    assert!(
        first_bug > 0.0 && first_bug <= 10.0,
        "found after {first_bug} s"
    );
    let o = Command::new(bin())
        .args(["replay", "--native"])
        .arg(&exe)
        .arg(&out)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "replay mismatches:\n{report}");
    let bug_test = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".ptr.err").map(String::from)
        })
        .next()
        .expect("the bug's test");
    assert!(
        report
            .lines()
            .any(|l| l.contains(&format!("{bug_test}.ktest")) && l.ends_with("  ok")),
        "the bug's test did not replay:\n{report}"
    );
}

/// The same bug through the product: a `symtest.toml` target that passes
/// `--merge-loops` in `exec-args` gets the bug in its report within 10 s,
/// and the emitted suite's test of it fails natively while the bug is there.
#[test]
fn longword_bug_through_cargo_symtest_with_merge_loops() {
    let dir = scratch("whole_longword_project");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::copy(
        workspace().join("tests/utils/longword.c"),
        dir.join("src/longword.c"),
    )
    .unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"longword\"\nkind = \"program\"\nsources = [\"src/longword.c\"]\n\
         args = [\"--sym-args\", \"0\", \"2\", \"2\", \"--sym-files\", \"1\", \"10\"]\n\
         exec-args = [\"--merge-loops\"]\nmax-time = 10\n",
    )
    .unwrap();
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/longword/summary.json")).unwrap(),
    )
    .unwrap();
    let bugs = summary["bugs"].as_array().unwrap();
    assert!(
        bugs.iter()
            .any(|b| b["kind"] == "ptr" && b["file"].as_str().unwrap().ends_with("longword.c")),
        "{summary:#}"
    );
    assert_eq!(
        summary["native_disagreements"],
        serde_json::Value::Array(vec![]),
        "{summary:#}"
    );
    let o = Command::new("make")
        .arg("test")
        .current_dir(dir.join("tests/symtest/longword"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("BUG still present"), "{out}");
}
