//! Replay fidelity: every test of a whole program records an outcome a native
//! run is held to, and the native run happens in the world the engine modelled
//! (stdin a regular file, coverage data on every way out); errors that do not
//! reproduce natively are not reported as bugs (`exec --validate`).

use crate::native_replay::native_build;
use crate::support::*;
use std::path::{Path, PathBuf};

/// Does some test's recorded stdout contain `what`?
fn some_test_printed(out: &Path, what: &str) -> bool {
    test_jsons(out)
        .iter()
        .any(|t| t["stdout"].as_str().is_some_and(|s| s.contains(what)))
}

/// Paths still running when the instruction budget ends are run to their end
/// on their tests' inputs: one ends (its exit status and output are
/// recorded), one loops forever (recorded as not ending). Native replay
/// compares both: nothing is left "not compared".
#[test]
fn halted_paths_are_run_to_their_end() {
    let dir = scratch("fidelity-halted");
    let src = workspace().join("tests/posix/long_tail.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    posix_exec(
        &bc,
        &out,
        &[
            "--max-instructions",
            "30000",
            "--completion-instructions",
            "300000",
        ],
        &["--sym-stdin", "1"],
    );
    let tests = test_jsons(&out);
    assert!(
        tests.iter().any(|t| t["completed_after"]
            .as_str()
            .is_some_and(|r| r.contains("--max-instructions"))
            && t["outcome"]["exit"]["code"].is_i64()),
        "no halted test was run to its end: {tests:#?}"
    );
    assert!(
        tests
            .iter()
            .any(|t| t["outcome"]["early"]["no_end_within"] == 300000),
        "the endless loop was not recorded as not ending: {tests:#?}"
    );
    let prog = native_build(&src, &dir, &[]);
    let (summary, runs) = replay_json(&prog, &out, 2, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
    assert!(runs.iter().any(|r| r["timed_out"] == true), "{runs:#?}");

    // Without completion the same tests only say why the path stopped.
    let out0 = dir.join("out0");
    posix_exec(
        &bc,
        &out0,
        &[
            "--max-instructions",
            "30000",
            "--completion-instructions",
            "0",
        ],
        &["--sym-stdin", "1"],
    );
    let (summary, _) = replay_json(&prog, &out0, 2, &[]);
    assert!(summary["not_compared"].as_u64().unwrap() > 0, "{summary}");
}

/// A harness whose endless loop makes new input on every pass: the engine
/// halts it, runs it concretely and records it as not ending, with the input
/// made within that allowance. The native run goes on past the allowance and
/// asks for more than the test holds: it takes zeros there (the engine claims
/// nothing of that part) and runs into the timeout, as recorded, instead of
/// ending as a vector that does not fit.
#[test]
fn a_run_without_end_takes_zeros_past_its_inputs_natively() {
    let dir = scratch("fidelity-input-forever");
    let src = dir.join("forever.c");
    std::fs::write(
        &src,
        "#include \"symtest.h\"\nint main(void) {\n  unsigned long sum = 0;\n  for (;;) {\n    unsigned char chunk[8];\n    symtest_make_symbolic(chunk, sizeof chunk, \"chunk\");\n    sum += chunk[0];\n  }\n  return (int)sum;\n}\n",
    )
    .unwrap();
    let bc = compile(&src, &dir, &[]).unwrap();
    let out = dir.join("out");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--max-instructions",
        "2000",
        "--completion-instructions",
        "20000",
    ]);
    assert!(o.status.success(), "{o:?}");
    let tests = test_jsons(&out);
    assert!(
        tests
            .iter()
            .any(|t| t["outcome"]["early"]["no_end_within"] == 20000),
        "{tests:#?}"
    );
    let o = std::process::Command::new(bin())
        .args(["replay", "--timeout", "2", "--source"])
        .arg(&src)
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{stdout}\n{o:?}");
    assert!(stdout.contains("timeout  ok"), "{stdout}");
    assert!(!stdout.contains("MISMATCH"), "{stdout}");
}

/// Standard input is a regular file for the engine and natively: a program
/// that fstats and seeks it replays every path as recorded.
#[test]
fn stdin_is_a_regular_file_in_the_engine_and_natively() {
    let dir = scratch("fidelity-stdin");
    let src = workspace().join("tests/posix/stdin_file.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    posix_exec(&bc, &out, &[], &["--sym-stdin", "3"]);
    let codes: std::collections::BTreeSet<i64> = test_jsons(&out)
        .iter()
        .filter_map(|t| t["outcome"]["exit"]["code"].as_i64())
        .collect();
    // Only the paths of a regular file: never 10, 11 or 12.
    assert_eq!(codes, [0, 1].into_iter().collect(), "{codes:?}");
    let prog = native_build(&src, &dir, &[]);
    let (summary, runs) = replay_json(&prog, &out, 2, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
    assert_eq!(
        summary["passed"].as_u64(),
        Some(runs.len() as u64),
        "{runs:#?}"
    );
}

/// Explores `tests/posix/<name>.c` under the POSIX model with `args`, then
/// replays every test natively (glibc build): all must agree, none may be
/// left uncompared. Returns the tests' JSON records for further checks.
fn explore_and_replay(name: &str, args: &[&str]) -> Vec<serde_json::Value> {
    let dir = scratch(&format!("fidelity-{name}"));
    let src = workspace().join(format!("tests/posix/{name}.c"));
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    posix_exec(&bc, &out, &[], args);
    let prog = native_build(&src, &dir, &[]);
    let (summary, runs) = replay_json(&prog, &out, 2, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
    test_jsons(&out)
}

/// `tail -f FILE`'s wait: an inotify watch on an existing file, then a poll
/// without a timeout. Nothing in the model changes a file, so that path
/// blocks: its test is written at once, recorded as not ending (0
/// instructions: it blocked), and natively it times out there; watching a
/// missing file fails in the engine as natively.
#[test]
fn a_poll_that_waits_for_ever_on_inotify_blocks_in_the_engine_and_natively() {
    let tests = explore_and_replay("follow", &["--sym-files", "1", "2", "--sym-stdin", "1"]);
    let blocked: Vec<_> = tests
        .iter()
        .filter(|t| t["outcome"]["early"]["no_end_within"] == 0)
        .collect();
    assert_eq!(blocked.len(), 1, "{tests:#?}");
    let b = blocked[0];
    assert!(
        b["outcome"]["early"]["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("blocked: poll without a timeout")),
        "{b:#}"
    );
    assert_eq!(b["stdout"], "watching 1 1\n", "{b:#}");
    assert!(
        tests
            .iter()
            .any(|t| t["outcome"]["exit"]["code"] == 1
                && t["stdout"].as_str() == Some("cannot watch\n")),
        "{tests:#?}"
    );
    // Neither a failing inotify_init1 (3) nor a watch numbered on (5).
    assert!(
        !tests
            .iter()
            .any(|t| [3, 5].contains(&t["outcome"]["exit"]["code"].as_i64().unwrap_or(0))),
        "{tests:#?}"
    );
}

/// An empty path names no file in the model as natively: `open("")` and
/// `fopen("", "w")` fail with ENOENT, so every path replays as recorded.
#[test]
fn an_empty_path_opens_nothing_in_the_engine_and_natively() {
    let codes: std::collections::BTreeSet<i64> =
        explore_and_replay("empty_path", &["--sym-stdin", "1"])
            .iter()
            .filter_map(|t| t["outcome"]["exit"]["code"].as_i64())
            .collect();
    assert_eq!(codes, [0, 1].into_iter().collect(), "{codes:?}");
}

/// A printed date replays: the engine's clocks and a symbolic file's times
/// read the model's fixed time, and so do the native run's (the replay shim
/// fixes its clocks, replay sets the file's times); stdout is compared.
#[test]
fn dates_a_program_prints_replay_natively() {
    let tests = explore_and_replay("clock_date", &["A", "--sym-files", "1", "2"]);
    assert!(
        tests.iter().any(|t| t["stdout"].as_str().is_some_and(|s| s
            .contains("now 2023-11-14 22:13:20 1700000000 1700000000")
            && s.contains("A modified 2023-11-14 22:13"))),
        "{tests:#?}"
    );
}

/// A symbolic file's block size and count are a native regular file's: the
/// path that skips by reading (not seeking) is the one taken both ways, and
/// the printed figures agree.
#[test]
fn block_size_and_count_of_symbolic_files_are_native() {
    let tests = explore_and_replay("stat_blocks", &["--sym-stdin", "8", "--max-fail", "1"]);
    let said = |what: &str| {
        tests
            .iter()
            .any(|t| t["stdout"].as_str().is_some_and(|s| s.contains(what)))
    };
    assert!(!said("seeked"), "{tests:#?}");
    assert!(said("blksize 4096 blocks 8"), "{tests:#?}");
}

/// A test that leaves through `_exit` keeps its coverage data: the native
/// `--coverage` build writes it first.
#[test]
fn tests_leaving_through_exit_keep_their_coverage() {
    let dir = scratch("fidelity-exit");
    let src = workspace().join("tests/posix/exit_paths.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    posix_exec(&bc, &out, &[], &["--sym-stdin", "1"]);
    let exe = native_coverage_build(&src, &dir, "exit_paths");
    let gcov = dir.join("gcov");
    let (summary, runs) = replay_json(&exe, &out, 2, &["--gcov-dir", gcov.to_str().unwrap()]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
    assert!(runs.iter().any(|r| r["exit_code"] == 4), "{runs:#?}");
    std::fs::copy(dir.join("exit_paths.gcno"), gcov.join("exit_paths.gcno")).unwrap();
    let report = std::process::Command::new("gcov")
        .args(["-o", gcov.to_str().unwrap()])
        .arg(&src)
        .current_dir(&gcov)
        .output()
        .unwrap();
    assert!(report.status.success(), "{report:?}");
    let text = std::fs::read_to_string(gcov.join("exit_paths.c.gcov")).unwrap();
    let line = text.lines().find(|l| l.contains("quick exit")).unwrap();
    assert!(
        line.trim_start().starts_with('1'),
        "the line before _exit was not counted: {line}"
    );
}

/// `exec --validate`: the error the native program does not reproduce keeps
/// its test but is not a bug (`.not-reproduced` instead of `.err`); the real
/// one is confirmed.
#[test]
fn exec_validate_demotes_errors_that_do_not_reproduce() {
    let dir = scratch("fidelity-validate");
    let src = workspace().join("tests/fixtures/validate-project/harness/twice.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--validate",
        src.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let errs: Vec<&String> = names.iter().filter(|n| n.ends_with(".err")).collect();
    assert_eq!(errs.len(), 1, "{names:?}");
    assert!(errs[0].ends_with(".div.err"), "{names:?}");
    assert!(
        names.iter().any(|n| n.ends_with(".abort.not-reproduced")),
        "{names:?}"
    );
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert_eq!(stats["errors_not_reproduced"], 1, "{stats:#}");
    assert!(stderr.contains("not reproduced: 1"), "{stderr}");
    // A bad --validate argument is refused before exploring.
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        dir.join("out2").to_str().unwrap(),
        "--validate",
        dir.join("missing").to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A branch on a hash of the input follows each path's input instead of
/// forking (--digest-depth, counted and warned), while a plain branch on
/// one byte still forks; every test replays natively as recorded. With the
/// rule off, the branch on the hash is a solver question instead.
#[test]
fn branches_on_a_digest_follow_the_input() {
    let dir = scratch("fidelity-digest");
    let src = workspace().join("tests/posix/digest_branch.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    let o = posix_exec(&bc, &out, &["--max-time", "20"], &["--sym-stdin", "8"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("digest or checksum"), "{stderr}");
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert!(stats["digest_branches"].as_u64().unwrap() >= 2, "{stats:#}");
    let prog = native_build(&src, &dir, &[]);
    let (summary, runs) = replay_json(&prog, &out, 2, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
    let said = |what: &str| some_test_printed(&out, what);
    assert!(said("starts with a") && said("starts otherwise"));
    // Off: no branch follows a model for this reason.
    let off = dir.join("off");
    posix_exec(
        &bc,
        &off,
        &["--max-time", "20", "--digest-depth", "0"],
        &["--sym-stdin", "8"],
    );
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(off.join("stats.json")).unwrap()).unwrap();
    // (On a loaded machine the question on the hash can reach its time
    // limit; then the slow-site rule follows the model there, rightly.)
    assert!(
        stats["digest_branches"] == 0 || stats["solver_timeouts"].as_u64() > Some(0),
        "{stats:#}"
    );
}

/// A pointer computed from a hash of the input takes the address the
/// path's input gives it (--digest-depth), with no resolution queries; with
/// the depth rule off and a short solver limit, the first path's question on
/// the hash reaches the limit and the other paths at that branch follow
/// their input without asking again. Every test replays natively as
/// recorded either way.
#[test]
fn digest_pointers_and_slow_branches_follow_the_input() {
    let dir = scratch("fidelity-digest-index");
    let src = workspace().join("tests/posix/digest_index.c");
    let bc = cc_bitcode(&src, &dir);
    let prog = native_build(&src, &dir, &[]);
    let runs = [
        (
            "depth",
            vec!["--max-time", "20"],
            "a pointer at least 60 operations deep",
        ),
        (
            "slow",
            vec![
                "--max-time",
                "20",
                "--digest-depth",
                "0",
                "--max-solver-time",
                "0.1",
            ],
            "where the solver gave up before on a condition as deep",
        ),
    ];
    for (name, args, warning) in runs {
        let out = dir.join(name);
        let o = posix_exec(&bc, &out, &args, &["--sym-stdin", "8"]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains(warning), "{name}: {stderr}");
        let stats: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap())
                .unwrap();
        assert!(stats["digest_branches"].as_u64().unwrap() >= 1, "{stats:#}");
        assert_eq!(stats["paths_completed"], 4, "{name}: {stats:#}");
        let (summary, runs) = replay_json(&prog, &out, 2, &[]);
        assert_eq!(summary["failed"], 0, "{runs:#?}");
        assert_eq!(summary["not_compared"], 0, "{runs:#?}");
        let said = |what: &str| some_test_printed(&out, what);
        assert!(said("then b") && said("then other"), "{name}");
    }
}

/// `tests/posix/library_forks.c`: strtol parses symbolic standard input,
/// forking in the C library under one call of the program. With
/// `--library-forks 8` that site's forks run out: later branches there follow
/// the input (warned, counted as `library_branches`), fewer paths are
/// explored, the program's own branches on the result still fork, and every
/// test replays natively as recorded. With 0 every branch forks.
#[test]
fn library_code_under_one_call_site_forks_a_bounded_number_of_times() {
    let dir = scratch("fidelity-library-forks");
    let src = workspace().join("tests/posix/library_forks.c");
    let bc = cc_bitcode(&src, &dir);
    let prog = native_build(&src, &dir, &[]);
    let mut paths = Vec::new();
    for limit in ["8", "0"] {
        let out = dir.join(format!("limit-{limit}"));
        let o = posix_exec(
            &bc,
            &out,
            &["--max-time", "30", "--library-forks", limit],
            &["--sym-stdin", "5"],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        let stats: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap())
                .unwrap();
        let followed = stats["library_branches"].as_u64().unwrap();
        if limit == "8" {
            assert!(followed >= 1, "{stats:#}");
            assert!(stderr.contains("--library-forks"), "{stderr}");
        } else {
            assert_eq!(followed, 0, "{stats:#}");
        }
        for what in ["no number\n", "big\n", "small\n"] {
            assert!(
                some_test_printed(&out, what),
                "limit {limit}: no test printed {what:?}"
            );
        }
        let (summary, runs) = replay_json(&prog, &out, 2, &[]);
        assert_eq!(summary["failed"], 0, "{runs:#?}");
        assert_eq!(summary["not_compared"], 0, "{runs:#?}");
        paths.push(stats["paths_completed"].as_u64().unwrap());
    }
    assert!(
        paths[0] < paths[1],
        "paths with the limit and without: {paths:?}"
    );
}

/// `tests/posix/library_credit.c`: strtol's forks under one call decide how
/// many bytes it consumes, and each count leads to a line of the program's
/// own. `--library-forks 4` allows 4 forks at that call site, at most five
/// paths through strtol; the paths that cover a new line give the site part
/// of its budget back, so at least six of the seven outcomes are reached
/// (and the budget still ran out: some branches followed the input). Every
/// test replays natively as recorded.
#[test]
fn library_forks_that_lead_to_new_program_code_are_credited_back() {
    let dir = scratch("fidelity-library-credit");
    let src = workspace().join("tests/posix/library_credit.c");
    let bc = cc_bitcode(&src, &dir);
    let prog = native_build(&src, &dir, &[]);
    let out = dir.join("out");
    posix_exec(
        &bc,
        &out,
        &["--max-time", "30", "--library-forks", "4"],
        &["--sym-stdin", "6"],
    );
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert!(
        stats["library_branches"].as_u64().unwrap() >= 1,
        "{stats:#}"
    );
    // One state enters strtol, and each fork there adds one path: without
    // the credit, 4 forks give at most 5 paths through it, 5 outcomes.
    let reached: Vec<u32> = (0..=6)
        .filter(|n| some_test_printed(&out, &format!("consumed {n}\n")))
        .collect();
    assert!(reached.len() >= 6, "outcomes reached: {reached:?}");
    let (summary, runs) = replay_json(&prog, &out, 2, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
}

/// `tests/posix/same_file.c` compares the identity of stdin, stdout and a
/// file named by the argument, and a file's links and owner. Every file the
/// model makes has a device and inode number of its own, one link and the
/// model's user as owner (what the replay's fresh files have natively), so
/// no path finds two of them the same file, and every test, all paths
/// written, replays as recorded.
#[test]
fn symbolic_files_are_distinct_files_as_natively() {
    let dir = scratch("fidelity-same-file");
    let src = workspace().join("tests/posix/same_file.c");
    let bc = cc_bitcode(&src, &dir);
    let prog = native_build(&src, &dir, &[]);
    let out = dir.join("out");
    posix_exec(
        &bc,
        &out,
        &["--max-time", "30", "--emit-all"],
        &[
            "--sym-args",
            "0",
            "1",
            "1",
            "--sym-files",
            "1",
            "4",
            "--sym-stdin",
            "4",
        ],
    );
    for what in ["distinct\n", "no such file\n", "a file of its own\n"] {
        assert!(some_test_printed(&out, what), "no test printed {what:?}");
    }
    for what in [
        "stdin is stdout",
        "file is stdin or stdout",
        "linked or not ours",
    ] {
        assert!(!some_test_printed(&out, what), "a test printed {what:?}");
    }
    let (summary, runs) = replay_json(&prog, &out, 2, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
}

/// A symbolic argument ends at its NUL as natively: a read past it (pr's
/// `--e=`) is an error, and the native replay, each argument right before an
/// unmapped page, crashes on it. Every test replays as recorded.
#[test]
fn reading_past_an_arguments_nul_is_an_error_that_replays() {
    let dir = scratch("fidelity-arg-overread");
    let src = workspace().join("tests/posix/arg_overread.c");
    let bc = cc_bitcode(&src, &dir);
    let prog = native_build(&src, &dir, &[]);
    let out = dir.join("out");
    posix_exec(&bc, &out, &["--max-time", "30"], &["--sym-arg", "3"]);
    for what in ["width\n", "no width\n", "length 3\n"] {
        assert!(some_test_printed(&out, what), "no test printed {what:?}");
    }
    let errors: Vec<serde_json::Value> = test_jsons(&out)
        .into_iter()
        .filter(|t| !t["outcome"]["error"].is_null())
        .collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0]["outcome"]["error"];
    assert_eq!(e["kind"], "ptr", "{e}");
    assert_eq!(e["line"], 19, "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("past the NUL"),
        "{e}"
    );
    let (summary, runs) = replay_json(&prog, &out, 2, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
    assert!(
        runs.iter().any(|r| r["signal"] == 11),
        "the error test did not crash natively: {runs:#?}"
    );
}

/// FIONREAD on stdin answers the bytes left to read in the engine as natively
/// (GNU cat asks it): the path where the ioctl fails is taken neither way.
#[test]
fn fionread_on_stdin_counts_the_bytes_left() {
    let tests = explore_and_replay("fionread", &["--sym-stdin", "4"]);
    let said = |what: &str| {
        tests
            .iter()
            .any(|t| t["stdout"].as_str().is_some_and(|s| s.contains(what)))
    };
    assert!(!said("no FIONREAD"), "{tests:#?}");
    assert!(said("pending 4\nthen 3"), "{tests:#?}");
}

/// The arguments `tests/posix/zfile.c` is explored with: its mode, its file
/// operand `A` (4 symbolic bytes), one failing system call per path.
const ZFILE_ARGS: &[&str] = &[
    "--sym-arg",
    "1",
    "A",
    "--sym-files",
    "1",
    "4",
    "--max-fail",
    "1",
];

/// What zfile writes to `A.z` for the input `a`: 'Z', then each byte xor 0x20.
fn zfile_output(a: &[u8]) -> Vec<u8> {
    std::iter::once(b'Z')
        .chain(a.iter().map(|b| b ^ 0x20))
        .collect()
}

fn ktest_object(t: &symtest_ktest::KTest, name: &str) -> Vec<u8> {
    t.objects
        .iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no object {name}"))
        .bytes
        .clone()
}

/// A program that replaces its input by a new file, as gzip, bzip2, xz and
/// compress do (`tests/posix/zfile.c`): `A.z` created with O_EXCL, A's mode,
/// owner and times copied to it (fchmod, fchown, futimens) and checked with
/// stat, `A` unlinked; or a temporary name renamed over a reserved `A.z`; or
/// `A` linked to `A.orig` first. The model makes those calls succeed as the
/// kernel does (they failed with ENOSYS, so every path took the failure path
/// that natively exits 0), so every path, also with a read, write, open,
/// close or stat failing (`--max-fail 1`) and the partial output removed
/// after it, ends natively as in the engine, and the native run leaves `A.z`
/// holding the transformed bytes of the test's `A`.
#[test]
fn a_program_replacing_its_input_by_a_new_file_replays_natively() {
    let dir = scratch("fidelity-zfile");
    let src = workspace().join("tests/posix/zfile.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    let o = posix_exec(&bc, &out, &["--emit-all"], ZFILE_ARGS);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("unmodelled"), "{stderr}");
    let prog = native_build(&src, &dir, &[]);
    let r = symtest(&[
        "replay",
        "--timeout",
        "2",
        "--keep-dirs",
        "--native",
        prog.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    let replayed = String::from_utf8_lossy(&r.stdout).into_owned();
    assert!(
        r.status.success() && replayed.contains(" passed, 0 failed, 0 not compared"),
        "{}",
        shown(&r)
    );
    let mut modes_done = std::collections::BTreeSet::new();
    let mut cleaned_up = 0;
    for line in replayed.lines().filter(|l| l.contains("(kept ")) {
        let ktest = PathBuf::from(line.split(": ").next().unwrap());
        let kept = PathBuf::from(line.rsplit("(kept ").next().unwrap().trim_end_matches(')'));
        let t = symtest_ktest::KTest::read_from(&ktest).unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(ktest.with_extension("json")).unwrap())
                .unwrap();
        let a = ktest_object(&t, "A-data");
        let mode = ktest_object(&t, "arg00")[0];
        let cwd = kept.join("cwd");
        let mut files: Vec<String> = std::fs::read_dir(&cwd)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let what = format!("{}: {json} left {files:?}", ktest.display());
        match json["outcome"]["exit"]["code"].as_i64() {
            Some(0) => {
                let want: &[&str] = if mode == b'k' {
                    &["A.orig", "A.z"]
                } else {
                    &["A.z"]
                };
                assert_eq!(files, want, "{what}");
                let z = std::fs::read(cwd.join("A.z")).unwrap();
                assert_eq!(z, zfile_output(&a), "{what}");
                if mode == b'k' {
                    assert_eq!(std::fs::read(cwd.join("A.orig")).unwrap(), a, "{what}");
                }
                if json["stdout"] == "A -> A.z\n" {
                    modes_done.insert(if b"rk".contains(&mode) { mode } else { b'-' });
                }
            }
            Some(1) => {
                assert!(!files.iter().any(|f| f == "A.z.tmp"), "{what}");
                if files.iter().any(|f| f == "A") {
                    assert_eq!(files, ["A"], "{what}");
                }
                let s = json["stdout"].as_str().unwrap_or("");
                if s.contains("write output failed") || s.contains("close output failed") {
                    cleaned_up += 1;
                }
            }
            _ => assert_eq!(files, ["A"], "{what}"),
        }
        std::fs::remove_dir_all(&kept).unwrap();
    }
    // The success path of every mode: direct, rename ('r'), link ('k').
    assert_eq!(
        modes_done,
        [b'-', b'k', b'r'].into_iter().collect(),
        "{replayed}"
    );
    // The output removed after a failure once it existed (natively too).
    assert!(cleaned_up >= 2, "{replayed}");
}

/// The same program as a project's target (`cargo symtest`): no native
/// disagreement, no line the engine claims that the kept tests do not
/// execute natively, and the emitted suite passes on the unmodified program
/// (built as the pipeline builds it, against musl, each kept test's failure
/// injected); the files its successful tests leave, as the suite recorded
/// them, are `A.z` with the transformed bytes of the test's `A`.
#[test]
fn a_program_replacing_its_input_keeps_native_tests_and_a_passing_suite() {
    use crate::project::{make, report, reports, run_in, text};
    let dir = posix_project("project-zfile", "zfile", "zfile", ZFILE_ARGS, 30);
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "zfile");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    assert_eq!(r["claimed_not_executed"], 0, "{r:#}");
    assert_eq!(r["bugs"], serde_json::json!([]), "{r:#}");
    assert!(
        r["tests"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["outcome"] == "exit 0"),
        "{r:#}"
    );
    let suite = dir.join("tests/symtest/zfile");
    let o = make(&suite, &["test"]);
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains(" passed, 0 failed"),
        "{}",
        text(&o)
    );
    let list = std::process::Command::new(suite.join("symtest_suite"))
        .arg("--list")
        .current_dir(&suite)
        .output()
        .unwrap();
    let names: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    let vectors = symtest_project::vectors::parse_tests_c(
        &std::fs::read_to_string(suite.join("symtest_tests.c")).unwrap(),
    );
    assert_eq!(names.len(), vectors.len(), "{names:?}");
    let mut successes = 0;
    for (name, objects) in names.iter().zip(&vectors) {
        let expected = suite.join("expected").join(name);
        let status = std::fs::read_to_string(expected.join("status")).unwrap();
        if status.trim() != "exit 0" {
            continue;
        }
        let files = std::fs::read_to_string(expected.join("files.txt")).unwrap();
        let files: Vec<&str> = files.lines().collect();
        assert!(
            files.contains(&"A.z") && !files.contains(&"A"),
            "{name}: {files:?}"
        );
        let a = &objects.iter().find(|(n, _)| n == "A-data").unwrap().1;
        let z = std::fs::read(expected.join("files/A.z")).unwrap();
        assert_eq!(z, zfile_output(a), "{name}");
        successes += 1;
    }
    assert!(successes > 0, "{names:?}");
}

/// A program that edits its environment's strings in place, as gawk's
/// `load_environ` does (`tests/posix/env_edit.c`: each `NAME=value` split at
/// its '=' and the '=' put back; `HOME` upper-cased through `getenv`): the
/// engine's strings are writable as a process's are, and so are those of
/// `replay --native` (the process's own environment).
#[test]
fn environment_strings_edited_in_place_replay_natively() {
    let tests = explore_and_replay("env_edit", &["--sym-stdin", "1"]);
    let codes: std::collections::BTreeSet<i64> = tests
        .iter()
        .filter_map(|t| t["outcome"]["exit"]["code"].as_i64())
        .collect();
    assert_eq!(codes, [0, 1].into_iter().collect(), "{tests:#?}");
    assert!(
        tests.iter().any(|t| t["stdout"]
            .as_str()
            .is_some_and(|s| s.contains("HOME is /SYMTEST\n"))),
        "{tests:#?}"
    );
}

/// The same program as a project's target: the emitted suite's runner gives
/// it writable environment strings (it gave string literals, so every native
/// run died at the first write: gawk's 83 native disagreements, each a
/// SIGSEGV in `load_environ` that gawk's handler turned into an abort), so no
/// native run disagrees and the suite passes.
#[test]
fn environment_strings_edited_in_place_pass_the_emitted_suite() {
    use crate::project::{make, report, reports, run_in, text};
    let dir = posix_project(
        "project-env-edit",
        "env_edit",
        "env_edit",
        &["--sym-stdin", "1"],
        20,
    );
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "env_edit");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let outcomes: std::collections::BTreeSet<&str> = r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["outcome"].as_str())
        .collect();
    assert_eq!(
        outcomes,
        ["exit 0", "exit 1"].into_iter().collect(),
        "{r:#}"
    );
    let o = make(&dir.join("tests/symtest/env_edit"), &["test"]);
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains(" passed, 0 failed"),
        "{}",
        text(&o)
    );
}

/// Input a program makes after the point where the run halted
/// (`tests/klee/input_after_halt.c` under `--max-instructions 20`: both
/// paths stop before their second `klee_int`): each is run to its end, the
/// input it makes on the way joins its test with a value that satisfies the
/// run's assumption, and the outcome is the end it reaches. Before, the run
/// was abandoned at the new input and the test lacked the object, so the
/// native run ran out of vector (exit 125): a disagreement for every such
/// test.
#[test]
fn input_made_after_a_halt_joins_the_test() {
    use crate::project::{make, report, reports, run_in, text};
    let dir = scratch("project-input-after-halt");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::copy(
        workspace().join("tests/klee/input_after_halt.c"),
        dir.join("src/late.c"),
    )
    .unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"late\"\nkind = \"harness\"\nsources = [\"src/late.c\"]\nmax-instructions = 20\nmax-time = 20\n",
    )
    .unwrap();
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "late");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let outcomes: std::collections::BTreeSet<&str> = r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["outcome"].as_str())
        .collect();
    assert_eq!(
        outcomes,
        ["exit 0", "exit 7"].into_iter().collect(),
        "{r:#}"
    );
    let tests = test_jsons(&dir.join("symtest-out/late"));
    assert_eq!(tests.len(), 2, "{tests:#?}");
    for t in &tests {
        assert!(
            t["completed_after"]
                .as_str()
                .is_some_and(|r| r.contains("--max-instructions")),
            "{t:#}"
        );
        let y = t["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "y");
        assert_eq!(
            y.map(|o| &o["hex"]),
            Some(&serde_json::json!("07000000")),
            "{t:#}"
        );
    }
    let o = make(&dir.join("tests/symtest/late"), &["test"]);
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("2 passed, 0 failed"),
        "{}",
        text(&o)
    );
}
