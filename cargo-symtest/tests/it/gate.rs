//! Pull-request gating (`cargo symtest --changed-since REF`) on a small git
//! project: a change that plants an out-of-bounds write on a changed line and
//! changes the program's output. The directed gate run reports the new bug
//! (exit 1 against the baseline), which changed lines a kept test reaches and
//! by which test, and the committed suite's tests whose output changed, as
//! behaviour changes (summary, SARIF note, JUnit), not bugs.

use crate::support::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args([
            "-c",
            "user.name=symtest",
            "-c",
            "user.email=symtest@example.invalid",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run git");
    assert!(o.status.success(), "git {args:?}: {}", shown(&o));
}

#[test]
fn gate_finds_the_bug_on_the_changed_line_and_reports_behaviour_changes() {
    let dir = copy_fixture("gate-project", "gate");
    git(&dir, &["init", "-q"]);
    std::fs::write(dir.join(".gitignore"), "symtest-out/\n").unwrap();
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "count"]);
    // The base: tests kept, the suite and the baseline committed.
    let o = symtest_in(&dir, &["--update-baseline"]);
    assert!(o.status.success(), "{}", shown(&o));
    let suite = dir.join("tests/symtest/count");
    let vectors = std::fs::read_to_string(suite.join("symtest_tests.c")).unwrap();
    assert!(
        vectors.contains("count -c"),
        "a kept test runs with -c:\n{vectors}"
    );
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "suite and baseline"]);
    // The pull request: a write past `seen` once a line repeats three times
    // (with -c), and another output format (without).
    let src = dir.join("src/count.c");
    let text = std::fs::read_to_string(&src).unwrap();
    let changed = text
        .replace(
            "  if (show)\n    printf(\"%d %s\", count, line);",
            "  if (show) {\n    static char seen[3];\n    seen[count] = 1;\n    printf(\"%d %s\", count, line);\n  }",
        )
        .replace("    fputs(line, stdout);", "    printf(\"> %s\", line);");
    assert_ne!(text, changed);
    std::fs::write(&src, changed).unwrap();
    let o = symtest_in(
        &dir,
        &[
            "--changed-since",
            "HEAD",
            "--baseline",
            "symtest-baseline.json",
            "--sarif",
            "gate.sarif",
            "--junit",
            "gate.xml",
            "--no-emit",
        ],
    );
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("new bug(s) not in the baseline"), "{out}");
    assert!(out.contains("src/count.c:9: ptr"), "{out}");
    // Every changed line with code was reached, and by which kept test.
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/count/summary.json")).unwrap(),
    )
    .unwrap();
    let lines = summary["changed_lines"].as_array().unwrap();
    assert!(lines.len() >= 2, "{summary:#}");
    assert!(
        lines.iter().all(|l| l["reached_by"].is_string()),
        "{summary:#}"
    );
    assert!(out.contains("changed lines: count:"), "{out}");
    // The committed suite's tests without -c print differently now: behaviour
    // changes.
    let changes = summary["behaviour_changes"].as_array().unwrap();
    assert!(
        changes.iter().any(|c| c["detail"]
            .as_str()
            .is_some_and(|d| d.contains("stdout differs"))),
        "{summary:#}"
    );
    assert!(out.contains("behaviour change: count:"), "{out}");
    let sarif = std::fs::read_to_string(dir.join("gate.sarif")).unwrap();
    assert!(
        sarif.contains("\"behaviour-change\"") && sarif.contains("\"note\""),
        "{sarif}"
    );
    let junit = std::fs::read_to_string(dir.join("gate.xml")).unwrap();
    assert!(junit.contains("count (behaviour changes)"), "{junit}");
}

fn make_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("make")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run make")
}

/// The emitted suite checks what each test printed, not only its exit status:
/// a change that prints every line twice fails the suite, naming the stream,
/// the first differing line and a command that reproduces the test; after
/// `make update-expected` the new behaviour passes, and `--exit-only` passes
/// throughout.
#[test]
fn the_suite_fails_when_the_output_doubles() {
    let dir = copy_fixture("gate-project", "oracle");
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    let suite = dir.join("tests/symtest/count");
    let o = make_in(&suite, &["test"]);
    assert!(o.status.success(), "the fresh suite passes: {}", shown(&o));
    let src = dir.join("src/count.c");
    let text = std::fs::read_to_string(&src).unwrap();
    let doubled = text.replace(
        "    fputs(line, stdout);",
        "    fputs(line, stdout), fputs(line, stdout);",
    );
    assert_ne!(text, doubled);
    std::fs::write(&src, doubled).unwrap();
    let o = make_in(&suite, &["test"]);
    let out = shown(&o);
    assert!(!o.status.success(), "a doubled output fails: {out}");
    assert!(out.contains("stdout"), "{out}");
    assert!(out.contains("reproduce: "), "{out}");
    assert!(
        out.contains("| count"),
        "stdin piped into the program: {out}"
    );
    let o = Command::new(suite.join("symtest_suite"))
        .arg("--exit-only")
        .current_dir(&suite)
        .output()
        .unwrap();
    assert!(o.status.success(), "exit codes alone pass: {}", shown(&o));
    let o = make_in(&suite, &["update-expected"]);
    assert!(o.status.success(), "{}", shown(&o));
    let o = make_in(&suite, &["test"]);
    assert!(o.status.success(), "re-recorded: {}", shown(&o));
}

/// The suite runs the code under the engine's clock: `time`, `gettimeofday`
/// and `clock_gettime(CLOCK_REALTIME)` answer the model's fixed time, and the
/// test's files were modified then, so a program that prints the date (pr's
/// page headers) prints the same on every run, and what the suite recorded
/// is what the engine saw.
#[test]
fn the_suite_runs_under_the_engines_clock() {
    let dir = c_files(
        "oracle-clock",
        &[(
            "src/clock.c",
            r#"#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
int main(int argc, char **argv) {
  struct timeval tv;
  struct timespec ts, mono;
  struct stat st;
  gettimeofday(&tv, 0);
  clock_gettime(CLOCK_REALTIME, &ts);
  printf("%ld %ld %ld\n", (long)time(0), (long)tv.tv_sec, (long)ts.tv_sec);
  if (argc > 1 && stat(argv[1], &st) == 0)
    printf("%ld\n", (long)st.st_mtime);
  return clock_gettime(CLOCK_MONOTONIC, &mono) != 0;
}
"#,
        )],
    );
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"clock\"\nkind = \"program\"\nsources = [\"src/clock.c\"]\n\
         args = [\"A\", \"--sym-files\", \"1\", \"4\"]\nmax-time = 10\n",
    )
    .unwrap();
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    let suite = dir.join("tests/symtest/clock");
    let expected = suite.join("expected");
    let mut outputs = Vec::new();
    for e in std::fs::read_dir(&expected).unwrap().flatten() {
        if let Ok(t) = std::fs::read_to_string(e.path().join("stdout")) {
            outputs.push(t);
        }
    }
    assert!(
        outputs
            .iter()
            .any(|t| t == "1700000000 1700000000 1700000000\n1700000000\n"),
        "{outputs:?}"
    );
    for _ in 0..2 {
        let o = make_in(&suite, &["test"]);
        assert!(o.status.success(), "{}", shown(&o));
    }
}

/// A project in the scratch directory `name` with `files` (path, text).
fn c_files(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = scratch(name);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// `stream` (`stdout`, `status`, ...) of every test the suite recorded in
/// `expected/` (a test without that stream left out).
fn expected_streams(suite: &Path, stream: &str) -> Vec<String> {
    std::fs::read_dir(suite.join("expected"))
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join(stream)).ok())
        .collect()
}

/// The target's native runs agreed with the engine: no disagreement, no
/// line the engine claims that no kept test ran natively.
fn assert_native_runs_agree(dir: &Path, target: &str) {
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("symtest-out/{target}/summary.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(
        summary["native_disagreements"],
        Value::Array(vec![]),
        "{summary:#}"
    );
    assert_eq!(summary["claimed_not_executed"], 0, "{summary:#}");
}

/// A source file another unit includes with other types (gnulib's
/// xstrtoumax.c includes xstrtol.c with an unsigned type): the includer's
/// code on the file's lines counts natively, as the engine counts it, though
/// the file's own unit compiles that code out (a constant condition); pr's
/// lib/xstrtol.c:93-98 were claimed but not executed.
#[test]
fn code_an_including_unit_compiles_from_a_file_counts_natively() {
    let dir = c_files(
        "oracle-included",
        &[
            (
                "src/num.c",
                r#"#ifndef NUM_T
#define NUM_T long
#define NUM_FN parse_signed
#endif
int NUM_FN(const char *s, NUM_T *out);
int NUM_FN(const char *s, NUM_T *out) {
  NUM_T v = 0;
  if ((NUM_T)-1 > 0) {
    if (*s == '-')
      return -1; /* only an unsigned parse gets here */
  }
  while (*s >= '0' && *s <= '9')
    v = v * 10 + (NUM_T)(*s++ - '0');
  *out = v;
  return *s ? -2 : 0;
}
"#,
            ),
            (
                "src/unum.c",
                "#define NUM_T unsigned long\n#define NUM_FN parse_unsigned\n#include \"num.c\"\n",
            ),
            (
                "src/main.c",
                r#"#include <stdio.h>
int parse_signed(const char *s, long *out);
int parse_unsigned(const char *s, unsigned long *out);
int main(int argc, char **argv) {
  unsigned long u;
  long l;
  if (argc < 2)
    return 2;
  if (parse_unsigned(argv[1], &u) != 0) {
    puts("bad");
    return 1;
  }
  if (parse_signed(argv[1], &l) != 0)
    return 3;
  printf("%lu\n", u);
  return 0;
}
"#,
            ),
            (
                "symtest.toml",
                "[[target]]\nname = \"num\"\nkind = \"program\"\n\
             sources = [\"src/main.c\", \"src/num.c\", \"src/unum.c\"]\n\
             args = [\"--sym-args\", \"1\", \"1\", \"2\"]\nmax-time = 10\n",
            ),
        ],
    );
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    assert_native_runs_agree(&dir, "num");
    // The unsigned parse's `return -1;` (line 10) ran natively.
    let gcov = std::fs::read_to_string(dir.join("symtest-out/num/coverage/src#num.c.gcov"))
        .unwrap_or_else(|e| panic!("{e}"));
    let line = gcov
        .lines()
        .find(|l| l.split(':').nth(1).map(str::trim) == Some("10"))
        .unwrap_or_else(|| panic!("no line 10:\n{gcov}"));
    let count = line.split(':').next().unwrap().trim();
    assert!(
        count.parse::<u64>().is_ok_and(|c| c > 0),
        "line 10 not counted: {line}\n{gcov}"
    );
}

/// A program that looks at its stdout and sleeps (coreutils' `tail -f`)
/// runs, natively, the path the engine ran: the model's stdout is a pipe,
/// as the suite runner's capture is (gnulib's isapipe: tail watches such an
/// output), `poll` answers for it, and the suite's sleeps return at once, as
/// the model's do. The test that follows forever replays as "no end" in a
/// fraction of a second, with failures injected by the seccomp shim on every
/// round of its loop (the shim's SIGSYS handler holds the timeout's signal
/// back: run inside it, the timeout's handler killed the test with SIGSYS).
#[test]
fn native_runs_see_the_engines_pipes_and_sleeps() {
    let dir = c_files(
        "oracle-follow",
        &[(
            "src/follow.c",
            r#"#include <poll.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
  struct stat st;
  struct timespec a, b, second = {1, 0};
  int watch = fstat(1, &st) == 0 && S_ISFIFO(st.st_mode);
  clock_gettime(CLOCK_MONOTONIC, &a);
  sleep(5);
  clock_gettime(CLOCK_MONOTONIC, &b);
  if (b.tv_sec - a.tv_sec >= 5)
    return 5; /* the model's sleep does not wait */
  if (!watch)
    return 3;
  if (argc > 1 && argv[1][0] == 'f')
    for (;;) {
      struct pollfd p = {1, 0, 0};
      (void)fstat(0, &st); /* a stat-class call each round: with --max-fail, trapped */
      if (poll(&p, 1, 0) < 0 || (p.revents & (POLLERR | POLLHUP)))
        return 6;
      nanosleep(&second, NULL);
    }
  puts("done");
  return 0;
}
"#,
        )],
    );
    let target = |name: &str, args: &str| {
        format!(
            "[[target]]\nname = \"{name}\"\nkind = \"program\"\nsources = [\"src/follow.c\"]\n\
             args = [\"--sym-args\", \"0\", \"1\", \"1\", \"--sym-stdin\", \"1\"{args}]\nmax-time = 10\n"
        )
    };
    std::fs::write(
        dir.join("symtest.toml"),
        target("follow", "") + &target("follow_musl", ", \"--max-fail\", \"1\""),
    )
    .unwrap();
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    for name in ["follow", "follow_musl"] {
        assert_native_runs_agree(&dir, name);
        let summary: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("symtest-out/{name}/summary.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(summary["flaky"], Value::Array(vec![]), "{summary:#}");
        let suite = dir.join("tests/symtest").join(name);
        let tests = std::fs::read_to_string(suite.join("symtest_tests.c")).unwrap();
        // The test that follows forever: run to no end, or halted at the
        // deadline (no claim on its end); natively, the timeout stops it.
        assert!(
            tests.contains("SYMTEST_EXPECT_NO_END") || tests.contains("SYMTEST_EXPECT_STOPPED"),
            "{name}: no test follows forever"
        );
        let statuses: Vec<String> = expected_streams(&suite, "status")
            .iter()
            .map(|t| t.trim().to_string())
            .collect();
        assert!(
            statuses.iter().any(|s| s == "exit 0"),
            "{name}: {statuses:?}"
        );
        // 3: stdout is not a pipe (only when its fstat failed, by injection);
        // 5: the sleep waited; 6: poll said the output went away.
        let bad: &[&str] = if name == "follow" {
            &["exit 3", "exit 5", "exit 6"]
        } else {
            &["exit 5", "exit 6"]
        };
        for bad in bad {
            assert!(!statuses.iter().any(|s| s == bad), "{name}: {statuses:?}");
        }
        for _ in 0..3 {
            let o = make_in(&suite, &["test"]);
            assert!(o.status.success(), "{name}: {}", shown(&o));
        }
    }
}

/// A program that waits on descriptors with a timeout (pv's rate limit: a
/// `select` on no descriptor, in a loop) runs, natively, the path the engine
/// ran: the model's poll, ppoll, select and pselect answer at once (time does
/// not pass; every descriptor but an inotify instance is ready), and so do
/// the suite's, without waiting for their timeout and leaving it as it was.
/// Before, each wait took its whole timeout natively: the interval clock saw
/// the time pass (exit 5), select wrote the time left back (exit 7).
#[test]
fn native_runs_do_not_wait_for_a_timeout_the_model_did_not() {
    let dir = c_files(
        "oracle-wait",
        &[(
            "src/wait.c",
            r#"#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>
int main(void) {
  struct timespec a, b, two = {2, 0};
  struct timeval tv = {2, 0};
  struct pollfd in = {0, POLLIN, 0};
  int rounds = 0;
  char c = 0;
  clock_gettime(CLOCK_MONOTONIC, &a);
  if (select(0, NULL, NULL, NULL, &tv) != 0)
    return 3;
  if (tv.tv_sec != 2)
    return 7; /* the model writes no time left back */
  if (pselect(0, NULL, NULL, NULL, &two, NULL) != 0 || ppoll(NULL, 0, &two, NULL) != 0 ||
      poll(NULL, 0, 2000) != 0)
    return 3;
  while (poll(&in, 1, 2000) == 0) /* until stdin is ready, as the model says it is */
    if (++rounds > 2)
      return 4;
  clock_gettime(CLOCK_MONOTONIC, &b);
  if (b.tv_sec - a.tv_sec >= 2)
    return 5; /* a wait took its timeout */
  if (read(0, &c, 1) == 1 && c == 'x') {
    puts("x");
    return 1;
  }
  puts("done");
  return 0;
}
"#,
        )],
    );
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"wait\"\nkind = \"program\"\nsources = [\"src/wait.c\"]\n\
         args = [\"--sym-stdin\", \"1\"]\nmax-time = 10\n",
    )
    .unwrap();
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    assert_native_runs_agree(&dir, "wait");
    let suite = dir.join("tests/symtest/wait");
    let mut statuses: Vec<String> = expected_streams(&suite, "status")
        .iter()
        .map(|t| t.trim().to_string())
        .collect();
    statuses.sort();
    statuses.dedup();
    assert_eq!(statuses, ["exit 0", "exit 1"], "{}", shown(&o));
    let o = make_in(&suite, &["test"]);
    assert!(o.status.success(), "{}", shown(&o));
}

/// A program that picks its code by CPU features runs, natively, the code
/// the engine ran it through: the engine's processor reports no features,
/// and the suite's build includes `symtest_cpu.h`, where `<cpuid.h>` answers
/// the same (coreutils' wc takes its AVX2 code natively otherwise, and the
/// lines the engine claims were never run by a kept test).
#[test]
fn native_runs_see_the_engines_processor() {
    let dir = c_files(
        "oracle-cpu",
        &[(
            "src/cpu.c",
            r#"#include <cpuid.h>
#include <stdio.h>
static int fast(void) { return 3; }
static int portable(void) { puts("portable"); return 0; }
int main(void) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) && (d & bit_SSE2))
    return fast();
  return portable();
}
"#,
        )],
    );
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"cpu\"\nkind = \"program\"\nsources = [\"src/cpu.c\"]\n\
         args = [\"--sym-stdin\", \"1\"]\nmax-time = 10\n",
    )
    .unwrap();
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    assert_native_runs_agree(&dir, "cpu");
    let o = make_in(&dir.join("tests/symtest/cpu"), &["test"]);
    assert!(o.status.success(), "{}", shown(&o));
}

/// A program that sizes its work by the machine's processors (sort's
/// threads, gnulib's nproc) takes, natively, the path it took in the engine:
/// the model has one processor, and the suite's link answers
/// `sched_getaffinity` and `sysconf(_SC_NPROCESSORS_*)` the same, against
/// musl (`--max-fail`) and the host's libc alike, whatever the host has.
#[test]
fn native_runs_see_the_engines_processor_count() {
    let dir = c_files(
        "oracle-nproc",
        &[(
            "src/nproc.c",
            r#"#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  cpu_set_t set;
  int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  printf("%d %ld\n", n, online);
  if (n != 1 || online != 1)
    return 3;
  return 0;
}
"#,
        )],
    );
    let target = |name: &str, args: &str| {
        format!(
            "[[target]]\nname = \"{name}\"\nkind = \"program\"\nsources = [\"src/nproc.c\"]\n\
             args = [{args}]\nmax-time = 10\n"
        )
    };
    std::fs::write(
        dir.join("symtest.toml"),
        target("nproc", "") + &target("nproc_musl", "\"--max-fail\", \"1\""),
    )
    .unwrap();
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    for name in ["nproc", "nproc_musl"] {
        assert_native_runs_agree(&dir, name);
        // The report times the minimization's parts.
        let summary: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("symtest-out/{name}/summary.json"))).unwrap(),
        )
        .unwrap();
        for part in [
            "minimize.native-build",
            "minimize.test-runs",
            "minimize.coverage-export",
        ] {
            assert!(summary["stage_s"][part].as_f64().is_some(), "{summary:#}");
        }
        let suite = dir.join("tests/symtest").join(name);
        let outputs = expected_streams(&suite, "stdout");
        assert!(outputs.iter().any(|t| t == "1 1\n"), "{name}: {outputs:?}");
        assert!(outputs.iter().all(|t| t == "1 1\n"), "{name}: {outputs:?}");
        let o = make_in(&suite, &["test"]);
        assert!(o.status.success(), "{name}: {}", shown(&o));
    }
}

/// A loop whose body is one statement on its line, followed by a label, is
/// left by a branch that clang places where that statement ends (tail's
/// `pipe_lines`: `for (...) xwrite_stdout (...);` then `free_lbuffers:`).
/// Running that branch is not running the statement: the engine does not
/// count the line, as natively it is not counted, so no line is claimed
/// that no kept test ran.
#[test]
fn a_loop_exit_before_a_label_claims_no_line_of_the_loop_body() {
    let dir = c_files(
        "loop-exit-label",
        &[(
            "src/tailish.c",
            r#"#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
  char buf[4];
  int n = 0, i;
  ssize_t k = read(0, buf, sizeof buf);
  if (k < 2)
    goto out;
  for (i = 0; i < argc - 8; i++)
    n += puts(argv[i]);
out:
  return k > 0 && buf[0] == 'x' ? n : 1;
}
"#,
        )],
    );
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"tailish\"\nkind = \"program\"\nsources = [\"src/tailish.c\"]\n\
         args = [\"--sym-stdin\", \"4\"]\nmax-time = 10\n",
    )
    .unwrap();
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    assert_native_runs_agree(&dir, "tailish");
}
