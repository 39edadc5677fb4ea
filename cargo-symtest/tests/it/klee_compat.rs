//! KLEE compatibility of `cargo symtest exec`: KLEE's command line (every row
//! of docs/klee.md's option table does what the table says), `--max-time` with
//! slow queries, the options that change what is written, and harness
//! assumptions through the whole pipeline (summary, SARIF, baseline).

use crate::support::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Instant;

fn write_harness(dir: &Path, name: &str, src: &str) -> PathBuf {
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, src).unwrap();
    compile_with(&c, dir, KLEE_FLAGS, &[]).unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn stats(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap()
}

const SMALL: &str = r#"
#include <assert.h>
#include "klee/klee.h"
int main(void) {
  int x = klee_int("x");
  if (x == 3)
    return 1;
  assert(x != 7);
  return 0;
}
"#;

/// A value for each option of the table that takes one (KLEE's form).
fn value_for(opt: &str, out: &Path) -> Option<String> {
    Some(match opt {
        "output-dir" => out.display().to_string(),
        "max-time" => "60s".into(),
        "max-solver-time" => "5s".into(),
        "max-instructions" => "2000".into(),
        "max-forks" | "max-depth" => "10".into(),
        "max-memory" => "1000".into(),
        "max-tests" => "5".into(),
        "batch-instructions" => "100".into(),
        "batch-time" => "1s".into(),
        "search" => "nurs:covnew".into(),
        "entry-point" => "main".into(),
        "exit-on-error-type" => "Assert".into(),
        "external-calls" => "all".into(),
        "libc" => "uclibc".into(),
        "rng-initial-seed" => "3".into(),
        "switch-type" => "internal".into(),
        "max-static-fork-pct"
        | "max-static-solve-pct"
        | "max-static-cpfork-pct"
        | "max-static-cpsolve-pct" => "1".into(),
        "max-sym-array-size" => "4096".into(),
        "kdalloc-quarantine" => "1".into(),
        "istats-write-interval" | "stats-write-interval" | "timer-interval" => "1s".into(),
        "istats-write-after-instructions" | "stats-write-after-instructions" => "100".into(),
        "use-query-log" => "all:kquery".into(),
        "min-query-time-to-log" => "10".into(),
        "seed-file" => {
            // A seed with no objects: read, then dropped at the first object.
            let p = out.with_file_name("seed.ktest");
            symtest_ktest::KTest {
                args: Vec::new(),
                sym_argvs: 0,
                sym_argv_len: 0,
                objects: Vec::new(),
            }
            .write_to(&p)
            .unwrap();
            p.display().to_string()
        }
        "seed-dir" => {
            let d = out.with_file_name("seeds");
            std::fs::create_dir_all(&d).unwrap();
            d.display().to_string()
        }
        "replay-ktest-file" => "x.ktest".into(),
        "replay-ktest-dir" | "run-in-dir" => "/tmp".into(),
        "replay-path" => "x.path".into(),
        "link-llvm-lib" => "lib.bca".into(),
        "solver-backend" => "stp".into(),
        "env-file" => "test.env".into(),
        "make-concrete-symbolic" => "1".into(),
        _ => return None,
    })
}

/// The rows of docs/klee.md's KLEE option table: (option, what symtest does).
fn readme_table() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(workspace().join("docs/klee.md")).unwrap();
    let start = readme
        .find("| KLEE option | symtest |")
        .expect("docs/klee.md has the KLEE option table");
    readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cols: Vec<&str> = l.split('|').map(str::trim).collect();
            let opt = cols[1]
                .trim_matches('`')
                .trim_start_matches('-')
                .to_string();
            (opt, cols[2].to_string())
        })
        .collect()
}

#[test]
fn every_row_of_the_klee_option_table_does_what_it_says() {
    let dir = scratch("klee-options");
    let bc = write_harness(&dir, "small", SMALL);
    let rows = readme_table();
    assert!(rows.len() >= 80, "{} rows", rows.len());
    let mut failures = Vec::new();
    for (i, (opt, what)) in rows.iter().enumerate() {
        let out = dir.join(format!("out-{opt}"));
        // Half of the options in LLVM's single-dash spelling.
        let dash = if i % 2 == 0 { "-" } else { "--" };
        let arg = match value_for(opt, &out) {
            Some(v) => format!("{dash}{opt}={v}"),
            None if what.starts_with("mapped") && what.contains("`=false`") => {
                format!("{dash}{opt}=false")
            }
            None => format!("{dash}{opt}"),
        };
        let mut args: Vec<String> = vec!["exec".into(), arg.clone()];
        if opt != "output-dir" {
            args.extend(["--output-dir".into(), out.display().to_string()]);
        }
        if opt != "max-instructions" {
            args.extend(["--max-instructions".into(), "2000".into()]);
        }
        args.push(bc.display().to_string());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = symtest(&args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let ok = if what.starts_with("refused") {
            o.status.code() == Some(2) && stderr.contains(&format!("--{opt}"))
        } else if what.starts_with("no effect") {
            o.status.success()
                && stderr.contains(&format!("KLEE option --{opt} accepted; no effect"))
        } else if what.starts_with("same") || what.starts_with("mapped") {
            o.status.success() && out.join("stats.json").is_file()
        } else {
            failures.push(format!("{opt}: unknown category `{what}`"));
            continue;
        };
        if !ok {
            failures.push(format!("{arg} ({what}):\n{}", text(&o)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn klee_style_command_lines_pass_program_arguments_without_dashes() {
    let dir = scratch("klee-argv");
    let src = workspace().join("tests/posix/nargs.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    let o = symtest(&[
        "exec",
        "-libc=uclibc",
        "-posix-runtime",
        "-max-time=60s",
        "--watchdog",
        &format!("-output-dir={}", out.display()),
        bc.to_str().unwrap(),
        "A",
        "--sym-arg",
        "2",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let t: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("test000001.json")).unwrap())
            .unwrap();
    assert_eq!(
        t["program_args"],
        serde_json::json!(["A", "--sym-arg", "2"])
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("--watchdog accepted; no effect"));
    // Tests of every path replay natively.
    let native = dir.join("nargs");
    let o = symtest(&[
        "cc",
        "--native",
        src.to_str().unwrap(),
        "-o",
        native.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = symtest(&[
        "replay",
        "--native",
        native.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
}

/// Each query about this hash takes the solver far longer than the budget.
const SLOW: &str = r#"
#include <stdint.h>
#include "klee/klee.h"
int main(void) {
  uint64_t a, b;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  uint64_t h = a;
  int n = 0;
  for (int i = 0; i < 16; i++) {
    h = (h ^ (h >> 29)) * (b | 1) + 0x9e3779b97f4a7c15ULL;
    if (h % 1000003 == (uint64_t)i)
      n++;
  }
  return n;
}
"#;

#[test]
fn max_time_holds_within_ten_percent_when_queries_are_slow() {
    let dir = scratch("klee-max-time");
    let bc = write_harness(&dir, "slow", SLOW);
    let out = dir.join("out");
    let t0 = Instant::now();
    // No per-query limit: the run's deadline must stop the query in progress.
    let o = symtest(&[
        "exec",
        "--max-time",
        "5",
        "--max-solver-time",
        "0",
        "--quiet",
        "--output-dir",
        out.to_str().unwrap(),
        bc.to_str().unwrap(),
    ]);
    let took = t0.elapsed().as_secs_f64();
    assert!(o.status.success(), "{}", text(&o));
    assert!(took <= 5.5, "--max-time 5 took {took:.2} s");
    let s = stats(&out);
    // The query the run's end cut short halts its path (no follow-the-model,
    // no solver error): a halted path, tested as far as it went.
    assert!(s["paths_early"].as_u64().unwrap() >= 1, "{s}");
    assert_eq!(s["solver_failures"].as_u64(), Some(0), "{s}");
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(
        info.contains("halt reason: --max-time 5s reached"),
        "{info}"
    );
    assert!(
        out.join("test000001.ktest").is_file(),
        "a test for the path so far"
    );

    // With the default limits each query stops after a tenth of the budget,
    // and a place that gave up once gets a quarter of that: the same slow
    // branches cost far less, and the run still ends within its budget.
    let out2 = dir.join("out2");
    let t0 = Instant::now();
    let o = symtest(&[
        "exec",
        "--max-time",
        "5",
        "--quiet",
        "--output-dir",
        out2.to_str().unwrap(),
        bc.to_str().unwrap(),
    ]);
    let took = t0.elapsed().as_secs_f64();
    assert!(o.status.success(), "{}", text(&o));
    assert!(took <= 5.5, "--max-time 5 took {took:.2} s");
    let s2 = stats(&out2);
    assert!(s2["solver_timeouts"].as_u64().unwrap() >= 1, "{s2}");
    assert!(
        s2["paths_completed"].as_u64().unwrap() > s["paths_completed"].as_u64().unwrap(),
        "shorter limits let more paths end: {s2} vs {s}"
    );
}

const CHECKS: &str = r#"
#include "klee/klee.h"
int main(void) {
  unsigned x = klee_range(0, 64, "x");
  int y = klee_int("y");
  unsigned v = 1u << x;
  return (int)(v & 1) + 1000 / y;
}
"#;

#[test]
fn check_options_write_no_tests_exit_on_error_and_max_tests() {
    let dir = scratch("klee-checks");
    let bc = write_harness(&dir, "checks", CHECKS);
    let run = |name: &str, extra: &[&str]| -> (Output, PathBuf) {
        let out = dir.join(name);
        let mut args = vec![
            "exec",
            "--output-dir",
            out.to_str().unwrap(),
            bc.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = symtest(&args);
        assert!(o.status.success(), "{}", text(&o));
        (o, out)
    };
    let (_, out) = run("default", &[]);
    let kinds: Vec<String> = reported_errors(&out).into_iter().map(|(k, _)| k).collect();
    assert_eq!(kinds, ["div", "overflow"], "both checks are on by default");
    let (_, out) = run("off", &["--check-overshift=false", "-check-div-zero=0"]);
    assert!(reported_errors(&out).is_empty());
    assert_eq!(stats(&out)["errors"], 0);
    // --write-no-tests: errors printed and counted, no test file.
    let (o, out) = run("no-tests", &["--write-no-tests"]);
    assert_eq!(stats(&out)["errors"], 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("not written: --write-no-tests"));
    let files: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("test"))
        .collect();
    assert!(files.is_empty(), "{files:?}");
    // --exit-on-error-type with KLEE's name: the first overshift stops the run.
    let (_, out) = run("exit", &["--exit-on-error-type=Overflow", "--search=dfs"]);
    assert_eq!(stats(&out)["errors"], 1);
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(info.contains("--exit-on-error"), "{info}");
    let (_, out) = run("max-tests", &["--max-tests=1", "--search=dfs"]);
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(info.contains("--max-tests 1 reached"), "{info}");
    // An unknown kind is a usage error naming it.
    let o = symtest(&["exec", "--exit-on-error-type=Bogus", bc.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Bogus"));
}

const ASSUME: &str = r#"
#include "klee/klee.h"
int main(void) {
  char in[4];
  klee_make_symbolic(in, sizeof in, "in");
  klee_assume(in[0] == 'B' && in[1] == 'Z' && in[2] == 'h');
  return in[3] == '9';
}
"#;

#[test]
fn false_assumptions_prune_quietly_with_silent_klee_assume() {
    let dir = scratch("klee-assume");
    let bc = write_harness(&dir, "assume", ASSUME);
    for (name, extra, warned) in [
        ("loud", None, true),
        ("silent", Some("--silent-klee-assume"), false),
    ] {
        let out = dir.join(name);
        let mut args = vec![
            "exec",
            "--output-dir",
            out.to_str().unwrap(),
            bc.to_str().unwrap(),
        ];
        args.extend(extra);
        let o = symtest(&args);
        assert!(o.status.success(), "{}", text(&o));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            stderr.contains("assume.c:6: an assumption is false on some paths"),
            warned,
            "{stderr}"
        );
        let s = stats(&out);
        assert_eq!(s["errors"], 0, "{s}");
        assert_eq!(s["assumptions_pruned"], 2, "{s}");
        assert!(reported_errors(&out).is_empty());
    }
}

/// The pipeline (`cargo symtest`): a harness whose assumption uses `&&` and
/// whose code has one real bug reports exactly that bug in the summary, the
/// SARIF file and the baseline.
#[test]
fn assumptions_are_not_bugs_in_summary_sarif_or_baseline() {
    let dir = scratch("klee-assume-project");
    std::fs::create_dir_all(dir.join("symtest")).unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"magic\"\nkind = \"harness\"\nsources = [\"symtest/magic.c\"]\nmax-time = 20\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("symtest/magic.c"),
        r#"#include "symtest.h"
static int parse(const char *in) {
  if (in[3] == '!')
    return 100 / (in[3] - '!');
  return 0;
}
int main(void) {
  char in[4];
  symtest_make_symbolic(in, sizeof in, "in");
  symtest_assume(in[0] == 'B' && in[1] == 'Z' && in[2] == 'h');
  return parse(in);
}
"#,
    )
    .unwrap();
    let o = std::process::Command::new(bin())
        .args([
            "--message-format",
            "json",
            "--sarif",
            "out.sarif",
            "--baseline",
            "baseline.json",
            "--update-baseline",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/summary.json")).unwrap(),
    )
    .unwrap();
    let summary_text = summary.to_string();
    assert!(!summary_text.contains("assumption"), "{summary_text}");
    let sarif = std::fs::read_to_string(dir.join("out.sarif")).unwrap();
    let sarif: Value = serde_json::from_str(&sarif).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(
        results[0].to_string().contains("division by zero"),
        "{:?}",
        results[0]
    );
    let baseline = std::fs::read_to_string(dir.join("baseline.json")).unwrap();
    assert!(baseline.contains("div:parse:"), "{baseline}");
    assert!(!baseline.contains("user:"), "{baseline}");
}
