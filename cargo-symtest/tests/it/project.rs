//! The project pipeline (`cargo symtest`, `make symtest`) on the fixture projects of
//! `tests/fixtures/`: a plain Make project and a Cargo workspace building C with `cc`.
//! Each test copies its fixture to a scratch directory first.

use crate::support::{bin, scratch, workspace};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

pub(crate) fn fixture(name: &str, scratch_name: &str) -> PathBuf {
    let d = scratch(scratch_name);
    copy_dir(&workspace().join("tests/fixtures").join(name), &d);
    d
}

pub(crate) fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run cargo-symtest")
}

pub(crate) fn text(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The `target-finished` reports of a `--message-format json` run, by target name.
pub(crate) fn reports(o: &Output) -> Vec<Value> {
    let stdout = String::from_utf8_lossy(&o.stdout);
    let mut out = Vec::new();
    for line in stdout.lines() {
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {line}\n{}", text(o)));
        if v["event"] == "target-finished" {
            out.push(v["report"].clone());
        }
    }
    out
}

pub(crate) fn report<'a>(rs: &'a [Value], name: &str) -> &'a Value {
    rs.iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no report for {name}: {rs:?}"))
}

/// `symtest-out/<target>/coverage/summary.json` of a pipeline run in `dir`.
fn coverage_summary(dir: &Path, target: &str) -> Value {
    let file = dir
        .join("symtest-out")
        .join(target)
        .join("coverage/summary.json");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    serde_json::from_str(&text).unwrap()
}

pub(crate) fn make(dir: &Path, args: &[&str]) -> Output {
    Command::new("make")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run make")
}

fn python(script: &str, args: &[&Path]) -> Output {
    Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("run python3")
}

#[test]
fn targets_are_found_in_both_fixtures() {
    let mk = fixture("make-project", "project-list-make");
    let o = run_in(&mk, &["list"]);
    assert!(o.status.success(), "{}", text(&o));
    let names: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        ["ratio", "lookup", "classify", "spin"],
        "{}",
        text(&o)
    );

    let cw = fixture("cargo-ws", "project-list-cargo");
    let o = run_in(&cw, &["list"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    // One target from [package.metadata.symtest], one from symtest.toml beside Cargo.toml.
    assert!(
        out.lines()
            .any(|l| l.starts_with("parse\tharness\tclib\tclib/Cargo.toml:")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("checksum\tharness\tclib\tclib/symtest.toml:")),
        "{out}"
    );
    let o = run_in(&cw, &["list", "-p", "nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

/// `make symtest` end to end: outputs, suites with gcc and clang, coverage, SARIF,
/// JUnit, and the baseline gate before and after a new bug.
#[test]
fn make_project_pipeline_suites_coverage_reports_and_gate() {
    let dir = fixture("make-project", "project-make");
    let o = run_in(&dir, &["init", "--make"]);
    assert!(
        o.status.success() && dir.join("symtest.mk").is_file(),
        "{}",
        text(&o)
    );
    let symtest = format!("SYMTEST={}", bin().display());
    let o = make(
        &dir,
        &[
            "symtest",
            &symtest,
            "SYMTEST_MAX_TIME=3",
            "SYMTEST_FLAGS=--sarif out.sarif --junit out.xml --update-baseline --baseline symtest-baseline.json -q",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));

    // symtest-out/<target>/ in the exec layout, with stats and coverage.
    for t in ["ratio", "lookup", "classify", "spin"] {
        let out = dir.join("symtest-out").join(t);
        for f in [
            "test000001.ktest",
            "test000001.json",
            "stats.json",
            "coverage.json",
            "minimize.json",
            "summary.json",
            "coverage/summary.json",
        ] {
            assert!(out.join(f).is_file(), "{t}: missing {f}");
        }
    }
    assert!(dir.join("symtest-out/ratio").read_dir().unwrap().any(|e| e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".div.err")));
    assert!(dir.join("symtest-out/lookup").read_dir().unwrap().any(|e| e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".ptr.err")));

    // gcov's coverage equals the engine's claim (statement lines) for the targets
    // explored completely; for `spin`, halted at its budget, natively replayed tests
    // run on past where the engine stopped, so only "claimed => executed" holds.
    for t in ["ratio", "lookup", "classify", "spin"] {
        let s = coverage_summary(&dir, t);
        assert!(s["lines_covered"].as_u64().unwrap() > 0, "{t}: {s}");
        for f in s["files"].as_array().unwrap() {
            assert_eq!(f["claimed_not_executed"], Value::Array(vec![]), "{t}: {f}");
            if t != "spin" {
                assert_eq!(f["executed_not_claimed"], Value::Array(vec![]), "{t}: {f}");
            }
        }
        assert!(dir
            .join("symtest-out")
            .join(t)
            .join("coverage/src#calc.c.gcov")
            .is_file());
        // gcovr (installed by `cargo xtask setup`) renders the HTML report.
        assert!(dir
            .join("symtest-out")
            .join(t)
            .join("coverage/html/index.html")
            .is_file());
    }
    let m: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/spin/minimize.json")).unwrap(),
    )
    .unwrap();
    assert!(
        m["tests_after"].as_u64() <= m["tests_before"].as_u64(),
        "{m}"
    );

    // Emitted suites build with gcc and clang; bug tests fail and name the bug.
    for cc in ["gcc", "clang-19"] {
        for (t, bug) in [
            ("ratio", Some("bug_div_in_calc_ratio")),
            ("lookup", Some("bug_ptr_in_calc_lookup")),
            ("classify", None),
            ("spin", None),
        ] {
            let suite = dir.join("tests/symtest").join(t);
            let _ = make(&suite, &["clean"]);
            let o = make(&suite, &[&format!("CC={cc}")]);
            assert!(o.status.success(), "{cc} {t}: {}", text(&o));
            let o = make(&suite, &["test-no-bugs"]);
            assert!(o.status.success(), "{cc} {t}: {}", text(&o));
            let o = make(&suite, &["test"]);
            let out = String::from_utf8_lossy(&o.stdout).into_owned();
            match bug {
                Some(b) => {
                    assert!(
                        !o.status.success(),
                        "{cc} {t}: the bug test must fail\n{}",
                        text(&o)
                    );
                    assert!(
                        out.lines()
                            .any(|l| l.contains(b) && l.contains("BUG still present")),
                        "{cc} {t}: {}",
                        text(&o)
                    );
                    assert!(out.contains(" passed, 1 failed"), "{}", text(&o));
                }
                None => assert!(
                    o.status.success() && out.contains(" passed, 0 failed"),
                    "{cc} {t}: {}",
                    text(&o)
                ),
            }
        }
    }

    // The CMake snippet: ctest runs the suite; the bug test fails, `_no_bugs` passes.
    let cm = dir.join("cmake-build");
    std::fs::create_dir_all(cm.join("b")).unwrap();
    std::fs::write(
        cm.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.13)\nproject(fixture C)\ninclude({}/symtest.cmake)\n",
            dir.join("tests/symtest/ratio").display()
        ),
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(args[0])
            .args(&args[1..])
            .current_dir(cm.join("b"))
            .output()
            .unwrap()
    };
    let o = run(&["cmake", "-DCMAKE_C_COMPILER=clang-19", ".."]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&["cmake", "--build", "."]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&["ctest", "-R", "symtest_ratio_no_bugs"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&["ctest", "-R", "symtest_ratio$", "--output-on-failure"]);
    assert!(
        !o.status.success() && String::from_utf8_lossy(&o.stdout).contains("BUG still present"),
        "{}",
        text(&o)
    );

    // SARIF against the official 2.1.0 schema; JUnit well-formed with one suite per target.
    let schema = workspace().join("tests/schemas/sarif-2.1.0-rtm.5.json");
    let o = python(
        "import json,sys,jsonschema\nd=json.load(open(sys.argv[1]))\njsonschema.validate(d, json.load(open(sys.argv[2])))\nprint(len(d['runs'][0]['results']))",
        &[&dir.join("out.sarif"), &schema],
    );
    assert!(o.status.success(), "SARIF invalid: {}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "2");
    let o = python(
        "import sys,xml.etree.ElementTree as E\nr=E.parse(sys.argv[1]).getroot()\nassert r.tag=='testsuites'\nfor s in r.findall('testsuite'):\n  assert int(s.get('tests'))==len(s.findall('testcase')), s.get('name')\n  assert int(s.get('failures'))==len(s.findall('testcase/failure'))\nprint(len(r.findall('testsuite')), sum(int(s.get('failures')) for s in r))",
        &[&dir.join("out.xml")],
    );
    assert!(o.status.success(), "JUnit invalid: {}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "4 2");

    // The baseline lists the two bugs; an unrelated edit (lines move) keeps the gate green.
    let b: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("symtest-baseline.json")).unwrap())
            .unwrap();
    assert_eq!(b["bugs"].as_array().unwrap().len(), 2, "{b}");
    let calc = dir.join("src/calc.c");
    let src = std::fs::read_to_string(&calc).unwrap();
    std::fs::write(
        &calc,
        format!("/* an unrelated edit */\n\n#define UNUSED 1\n{src}"),
    )
    .unwrap();
    let gate = [
        "--max-time",
        "2",
        "--baseline",
        "symtest-baseline.json",
        "--no-emit",
        "-q",
        "--target",
        "ratio",
        "--target",
        "lookup",
        "--target",
        "classify",
    ];
    let o = run_in(&dir, &gate);
    assert_eq!(o.status.code(), Some(0), "known bugs only: {}", text(&o));
    // A new bug (division by zero in calc_classify) fails the gate and is named.
    let src = std::fs::read_to_string(&calc)
        .unwrap()
        .replace("    r += 4;", "    r += 400 / (x - 7);");
    std::fs::write(&calc, src).unwrap();
    let o = run_in(&dir, &gate);
    assert_eq!(o.status.code(), Some(1), "new bug: {}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("div: division by zero in calc_classify"),
        "{}",
        text(&o)
    );
}

#[test]
fn cargo_workspace_pipeline_with_partitions_and_json_events() {
    let dir = fixture("cargo-ws", "project-cargo");
    let mut seen = Vec::new();
    for part in ["1/2", "2/2"] {
        let o = run_in(
            &dir,
            &[
                "--max-time",
                "3",
                "--partition",
                part,
                "--message-format",
                "json",
                "-j",
                "1",
            ],
        );
        assert!(o.status.success(), "{}", text(&o));
        let stdout = String::from_utf8_lossy(&o.stdout);
        let phases: Vec<String> = stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["event"] == "phase")
            .map(|v| v["phase"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            phases,
            [
                "compiling",
                "exploring",
                "minimizing",
                "replaying",
                "emitting"
            ],
            "{}",
            text(&o)
        );
        assert!(stdout
            .lines()
            .last()
            .unwrap()
            .contains("\"event\":\"finished\""));
        let rs = reports(&o);
        assert_eq!(rs.len(), 1, "{}", text(&o));
        seen.push(rs[0]["name"].as_str().unwrap().to_string());
        assert_eq!(rs[0]["package"], "clib");
    }
    assert_eq!(seen, ["parse", "checksum"]);
    let all: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        all["targets"][0]["name"], "checksum",
        "the last partition's summary: {all}"
    );
    let bugs: Vec<Value> = std::fs::read_dir(dir.join("symtest-out/parse"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".assert.err"))
        .map(|e| Value::String(e.file_name().to_string_lossy().into_owned()))
        .collect();
    assert_eq!(bugs.len(), 1, "{bugs:?}");
    assert!(dir.join("clib/tests/symtest/parse/Makefile").is_file());
    assert!(dir
        .join("clib/tests/symtest/checksum/symtest_tests.c")
        .is_file());
    // Intermediate builds go to the workspace's target directory.
    assert!(
        dir.join("target/symtest/parse/parse.bc").is_file()
            || dir.join("target/symtest/parse/bc/parse.bc").is_file()
    );
}

#[test]
fn bad_input_names_the_place_and_loses_nothing() {
    // No targets: where it looked, how to add one.
    let empty = scratch("project-empty");
    let o = run_in(&empty, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no symtest targets found")
            && err.contains("symtest.toml")
            && err.contains("cargo symtest init"),
        "{err}"
    );

    // Malformed configuration: file, line and key.
    let dir = fixture("make-project", "project-bad");
    let good = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        good.replacen("max-time = 5", "max-time = \"soon\"", 1),
    )
    .unwrap();
    let o = run_in(&dir, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("symtest.toml:7: key `max-time`"), "{err}");
    std::fs::write(
        dir.join("symtest.toml"),
        good.replacen(
            "kind = \"harness\"",
            "kind = \"harness\"\nsource = [\"x.c\"]",
            1,
        ),
    )
    .unwrap();
    let o = run_in(&dir, &[]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("symtest.toml:5: key `source`"),
        "{}",
        text(&o)
    );
    std::fs::write(dir.join("symtest.toml"), &good).unwrap();

    // A first good run of `ratio`, then a compile error in its harness: clang's
    // diagnostics, the target skipped (the other one completes), exit 2, and the
    // previous results of `ratio` kept.
    let o = run_in(&dir, &["--max-time", "2", "--target", "ratio", "-q"]);
    assert!(o.status.success(), "{}", text(&o));
    let before = std::fs::read(dir.join("symtest-out/ratio/test000001.ktest")).unwrap();
    let h = dir.join("harness/ratio.c");
    let src = std::fs::read_to_string(&h).unwrap();
    std::fs::write(&h, src.replace("return calc_ratio", "return calc_ratio(")).unwrap();
    let o = run_in(
        &dir,
        &[
            "--max-time",
            "2",
            "--target",
            "ratio",
            "--target",
            "lookup",
            "--message-format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("ratio.c:7") && err.contains("error:"),
        "clang's diagnostics: {err}"
    );
    let rs = reports(&o);
    assert_eq!(report(&rs, "ratio")["status"], "compile-error");
    assert_eq!(report(&rs, "lookup")["status"], "ok");
    assert_eq!(
        std::fs::read(dir.join("symtest-out/ratio/test000001.ktest")).unwrap(),
        before
    );
    assert!(dir.join("tests/symtest/ratio/Makefile").is_file());
}

#[test]
fn init_writes_a_starter_that_runs() {
    let dir = scratch("project-init");
    let o = run_in(&dir, &["init"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run_in(&dir, &["init"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "a second init must not overwrite: {}",
        text(&o)
    );
    let o = run_in(&dir, &["--max-time", "2", "--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let bugs = report(&rs, "example")["bugs"].as_array().unwrap().clone();
    assert_eq!(bugs.len(), 1, "{bugs:?}");
    assert_eq!(bugs[0]["kind"], "div");
    assert_eq!(bugs[0]["function"], "scale");
}

#[test]
fn make_variables_configure_a_target_without_symtest_toml() {
    let dir = fixture("make-project", "project-make-vars");
    std::fs::remove_file(dir.join("symtest.toml")).unwrap();
    let o = run_in(&dir, &["init", "--make"]);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::remove_file(dir.join("symtest.toml")).unwrap();
    let o = make(
        &dir,
        &[
            "symtest-list",
            &format!("SYMTEST={}", bin().display()),
            "SYMTEST_SOURCES=harness/lookup.c src/*.c",
            "SYMTEST_INCLUDE=include",
            "SYMTEST_DEFINES=FAST=1",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.lines()
            .any(|l| l.starts_with("lookup\tharness\t")
                && l.ends_with("harness/lookup.c src/calc.c")),
        "{}",
        text(&o)
    );
}

/// A whole program (`kind = "program"`): the engine runs it with musl and the POSIX
/// environment (`--sym-args`, `--sym-stdin`); the emitted suite rebuilds argv and stdin
/// from the vectors and runs it natively against the host libc.
#[test]
fn program_target_runs_in_the_posix_environment_and_replays_natively() {
    let dir = fixture("program-project", "project-program");
    let o = run_in(&dir, &["--max-time", "5", "--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    // mini_wc: --sym-args and --sym-stdin; first_byte: a symbolic file A named in argv.
    for t in ["mini_wc", "first_byte"] {
        let r = report(&rs, t);
        let bugs = r["bugs"].as_array().unwrap();
        assert_eq!(bugs.len(), 1, "{r}");
        assert_eq!(
            (bugs[0]["kind"].as_str(), bugs[0]["function"].as_str()),
            (Some("ptr"), Some("main"))
        );
        assert_eq!(r["soundness_warnings"], Value::Array(vec![]), "{r}");
        let s = coverage_summary(&dir, t);
        for f in s["files"].as_array().unwrap() {
            assert_eq!(f["claimed_not_executed"], Value::Array(vec![]), "{t}: {f}");
            assert_eq!(f["executed_not_claimed"], Value::Array(vec![]), "{t}: {f}");
        }
        let suite = dir.join("tests/symtest").join(t);
        for cc in ["gcc", "clang-19"] {
            let _ = make(&suite, &["clean"]);
            assert!(make(&suite, &[&format!("CC={cc}")]).status.success());
            let o = make(&suite, &["test-no-bugs"]);
            assert!(o.status.success(), "{t} {cc}: {}", text(&o));
            let o = make(&suite, &["test"]);
            let out = String::from_utf8_lossy(&o.stdout).into_owned();
            assert!(
                !o.status.success()
                    && out.contains("_bug_ptr_in_main ... FAILED: BUG still present"),
                "{t} {cc}: {}",
                text(&o)
            );
        }
    }
    injected_failures_are_replayed_by_the_suite(&dir, &rs);
}

/// copy_in runs with `--max-fail 1`: its read-error path (exit 7) is explored, kept by
/// the minimizer (the musl coverage build replays the failure) and reproduced by the
/// emitted suite, built by default as the pipeline built it (clang against musl);
/// against the host's libc (`make LIBC=host CC=gcc`) it falls back to "no crash".
fn injected_failures_are_replayed_by_the_suite(dir: &Path, rs: &[Value]) {
    let r = report(rs, "copy_in");
    assert_eq!(r["bugs"], Value::Array(vec![]), "{r}");
    assert_eq!(r["soundness_warnings"], Value::Array(vec![]), "{r}");
    let suite = dir.join("tests/symtest/copy_in");
    let _ = make(&suite, &["clean"]);
    let o = make(&suite, &[]);
    assert!(
        o.status.success()
            && String::from_utf8_lossy(&o.stdout)
                .contains("-isystem /usr/include/x86_64-linux-musl"),
        "{}",
        text(&o)
    );
    let o = make(&suite, &["test"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success() && out.contains(" ... ok (injected: read #"),
        "{}",
        text(&o)
    );
    // The recorded exit code of the read-error path is checked: change it and the
    // test fails, naming the failure it injected.
    let tests_c = suite.join("symtest_tests.c");
    let vectors = std::fs::read_to_string(&tests_c).unwrap();
    assert!(vectors.contains("SYMTEST_EXPECT_EXIT, 7,"), "{vectors}");
    std::fs::write(
        &tests_c,
        vectors.replace("SYMTEST_EXPECT_EXIT, 7,", "SYMTEST_EXPECT_EXIT, 8,"),
    )
    .unwrap();
    let o = make(&suite, &["test"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        !o.status.success()
            && out.contains("FAILED: expected exit 8, got exit 7; injected: read #"),
        "{}",
        text(&o)
    );
    std::fs::write(&tests_c, vectors).unwrap();
    // Against glibc the failures cannot be replayed: checked for no crash, and said so.
    let _ = make(&suite, &["clean"]);
    assert!(make(&suite, &["LIBC=host", "CC=gcc"]).status.success());
    let o = make(&suite, &["test"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success() && out.contains("not injected: not built with musl"),
        "{}",
        text(&o)
    );
}

/// `--validate` (the default): an error is a bug of the report, SARIF and
/// baseline only when its test reproduces it on the native sanitizer build;
/// the others are listed as not reproduced. `--no-validate` counts them all.
#[test]
fn only_errors_that_reproduce_natively_are_bugs() {
    let dir = fixture("validate-project", "validate-project");
    let o = run_in(
        &dir,
        &[
            "--sarif",
            "out.sarif",
            "--update-baseline",
            "--message-format",
            "json",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "twice");
    let bugs = r["bugs"].as_array().unwrap();
    assert_eq!(bugs.len(), 1, "{r:#}");
    assert_eq!(bugs[0]["kind"], "div", "{r:#}");
    let not = r["unconfirmed"].as_array().unwrap();
    assert_eq!(not.len(), 1, "{r:#}");
    assert_eq!(not[0]["bug"]["kind"], "abort", "{r:#}");
    assert_eq!(not[0]["bug"]["line"], 11, "{r:#}");
    assert!(
        not[0]["native"]
            .as_str()
            .unwrap()
            .contains("without failing"),
        "{r:#}"
    );
    let sarif = std::fs::read_to_string(dir.join("out.sarif")).unwrap();
    assert_eq!(sarif.matches("\"ruleId\"").count(), 1, "{sarif}");
    let baseline = std::fs::read_to_string(dir.join("symtest-baseline.json")).unwrap();
    assert!(
        baseline.contains("\"div\"") && !baseline.contains("\"abort\""),
        "{baseline}"
    );
    // The kept test of the unconfirmed error expects no bug in the suite.
    let suite = std::fs::read_to_string(dir.join("tests/symtest/twice/symtest_tests.c")).unwrap();
    assert_eq!(suite.matches("SYMTEST_EXPECT_BUG").count(), 1, "{suite}");

    let o = run_in(&dir, &["--no-validate", "--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "twice");
    assert_eq!(r["bugs"].as_array().unwrap().len(), 2, "{r:#}");
    assert!(r["unconfirmed"].as_array().unwrap().is_empty(), "{r:#}");
}

/// A path that never ends (`tail -f` waiting for input): the engine halts it
/// at the budget (and, when time is left, runs it concretely and sees no
/// end); its test expects no crash natively (or, halted, makes no claim on its
/// end) and lets the suite's timeout stop it after at most 2 s, so it is no
/// disagreement and the suite passes.
#[test]
fn a_path_without_end_is_expected_to_run_into_the_timeout() {
    let dir = scratch("project-no-end");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("src/follow.c"),
        "#include <unistd.h>\nint main(void) {\n  char c = 0;\n  if (read(0, &c, 1) != 1)\n    return 1;\n  if (c == 'f')\n    for (;;)\n      if (read(0, &c, 1) == 1 && c == 'q')\n        return 3;\n  return c == 'x';\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"follow\"\nkind = \"program\"\nsources = [\"src/follow.c\"]\nargs = [\"--sym-stdin\", \"2\"]\nmax-time = 4\n",
    )
    .unwrap();
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "follow");
    assert_eq!(r["native_disagreements"], Value::Array(vec![]), "{r:#}");
    let vectors =
        std::fs::read_to_string(dir.join("tests/symtest/follow/symtest_tests.c")).unwrap();
    assert!(
        vectors.contains("SYMTEST_EXPECT_NO_END") || vectors.contains("SYMTEST_EXPECT_STOPPED"),
        "{vectors}"
    );
    let started = std::time::Instant::now();
    let o = make(&dir.join("tests/symtest/follow"), &["test"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}
