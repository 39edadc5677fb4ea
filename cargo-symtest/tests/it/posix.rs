//! Whole programs under `--libc=musl --posix-runtime` (tests/posix/): symbolic
//! arguments, files and stdin, failing system calls, unmodelled system calls,
//! external calls, and the JSON/ktest layout of ENV_CONTRACT.md.

use crate::support::*;
use std::path::{Path, PathBuf};
use std::process::Output;

#[path = "../../../xtask/src/libc_key.rs"]
#[allow(dead_code)]
mod libc_key;

/// The musl runtime `cargo xtask setup` built for these models.
fn runtime_dir() -> PathBuf {
    let dir = libc_key::runtime_dir(&libc_key::cache_dir(), &models()).unwrap();
    assert!(
        dir.join("STAMP").exists(),
        "the musl runtime is not built ({}): run `cargo xtask setup`",
        dir.display()
    );
    dir
}

/// musl's headers from the runtime.
fn musl_include() -> PathBuf {
    runtime_dir().join("include")
}

/// The runtime's bitcode (musl + the POSIX model).
pub fn runtime_bitcode() -> PathBuf {
    runtime_dir().join("runtime.bc")
}

pub(crate) fn program(name: &str, dir: &Path) -> PathBuf {
    let src = workspace().join("tests/posix").join(name);
    let inc = musl_include();
    compile(&src, dir, &["-nostdinc", "-isystem", inc.to_str().unwrap()]).unwrap()
}

/// Runs `exec` with the musl runtime; `engine` options, then `--` and `args`.
pub(crate) fn exec(bc: &Path, out: &Path, posix: bool, engine: &[&str], args: &[&str]) -> Output {
    let mut v = vec![
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--libc=musl",
    ];
    if posix {
        v.push("--posix-runtime");
    }
    v.extend_from_slice(engine);
    v.push("--");
    v.extend_from_slice(args);
    let o = symtest(&v);
    assert!(
        o.status.success(),
        "exec failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Every test's JSON, in test order.
pub(crate) fn tests(out: &Path) -> Vec<serde_json::Value> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("test") && name.ends_with(".json")
        })
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

fn object_names(t: &serde_json::Value) -> Vec<String> {
    t["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap().to_string())
        .collect()
}

fn object<'a>(t: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    t["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == name)
}

pub(crate) fn object_bytes(t: &serde_json::Value, name: &str) -> Vec<u8> {
    let hex = object(t, name).unwrap()["hex"].as_str().unwrap();
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

fn int_object(t: &serde_json::Value, name: &str) -> i32 {
    let b = object_bytes(t, name);
    i32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

pub(crate) fn exit_code(t: &serde_json::Value) -> Option<i64> {
    t["outcome"]["exit"]["code"].as_i64()
}

#[test]
fn printf_and_a_symbolic_argument() {
    let dir = scratch("posix-greet");
    let bc = program("greet.c", &dir);
    let out = dir.join("out");
    exec(&bc, &out, true, &["--emit-all"], &["--sym-arg", "3"]);
    let ts = tests(&out);
    assert!(ts.len() >= 2);
    let mut saw_hi = false;
    for t in &ts {
        assert_eq!(t["posix"], true);
        assert_eq!(t["program_args"], serde_json::json!(["--sym-arg", "3"]));
        assert_eq!(object_names(t), ["arg00", "model_version"]);
        let arg = object_bytes(t, "arg00");
        assert_eq!(arg.len(), 4, "N+1 bytes");
        assert_eq!(arg[3], 0, "last byte NUL");
        assert_eq!(int_object(t, "model_version"), 1);
        let s: Vec<u8> = arg.iter().copied().take_while(|b| *b != 0).collect();
        let expect = if s == b"hi" { 3 } else { 0 };
        saw_hi |= expect == 3;
        assert_eq!(exit_code(t), Some(expect), "arg {s:?}");
        let stdout = if expect == 3 {
            "hello, 1 argument(s)\nhi yourself\n"
        } else {
            "hello, 1 argument(s)\n"
        };
        assert_eq!(t["stdout"], stdout, "stdout flushed by exit()");
    }
    assert!(saw_hi, "no test reaches the \"hi\" branch");
}

#[test]
fn objects_come_in_the_contract_order() {
    let dir = scratch("posix-order");
    let bc = program("greet.c", &dir);
    let out = dir.join("out");
    let args = [
        "--sym-stdout",
        "--sym-files",
        "2",
        "3",
        "--sym-stdin",
        "2",
        "--sym-arg",
        "1",
        "--max-fail",
        "1",
    ];
    exec(&bc, &out, true, &[], &args);
    let ts = tests(&out);
    assert!(!ts.is_empty());
    let sizes: Vec<(String, u64)> = ts[0]["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["name"].as_str().unwrap().to_string(),
                o["size"].as_u64().unwrap(),
            )
        })
        .collect();
    let expect: Vec<(&str, u64)> = vec![
        ("arg00", 2),
        ("A-data", 3),
        ("A-data-stat", 144),
        ("B-data", 3),
        ("B-data-stat", 144),
        ("stdin", 2),
        ("stdin-stat", 144),
        ("stdout", 1024),
        ("stdout-stat", 144),
        ("model_version", 4),
        ("read_fail", 4),
        ("write_fail", 4),
        ("close_fail", 4),
        ("open_fail", 4),
        ("lseek_fail", 4),
        ("stat_fail", 4),
        ("getcwd_fail", 4),
        ("dup_fail", 4),
    ];
    let expect: Vec<(String, u64)> = expect
        .into_iter()
        .map(|(n, s)| (n.to_string(), s))
        .collect();
    assert_eq!(sizes, expect);
    assert_eq!(ts[0]["program_args"], serde_json::json!(args));
}

#[test]
fn sym_args_builds_argc_from_n_args() {
    let dir = scratch("posix-nargs");
    let bc = program("nargs.c", &dir);
    let out = dir.join("out");
    exec(
        &bc,
        &out,
        true,
        &["--emit-all"],
        &["--sym-args", "0", "2", "2"],
    );
    let ts = tests(&out);
    let mut codes = std::collections::BTreeSet::new();
    for t in &ts {
        assert_eq!(
            object_names(t),
            ["n_args", "arg00", "arg01", "model_version"]
        );
        let n = int_object(t, "n_args");
        assert!((0..=2).contains(&n), "n_args {n}");
        let first: Vec<u8> = object_bytes(t, "arg00")
            .into_iter()
            .take_while(|b| *b != 0)
            .collect();
        let big = n >= 1
            && !first.is_empty()
            && std::str::from_utf8(&first)
                .ok()
                .and_then(|s| s.parse::<i64>().ok())
                .is_some_and(|v| v > 50);
        let code = exit_code(t).unwrap();
        assert_eq!(code, i64::from(n) + if big { 10 } else { 0 }, "{t}");
        codes.insert(code);
    }
    for c in [0, 1, 2, 11, 12] {
        assert!(codes.contains(&c), "no test exits {c}: {codes:?}");
    }
}

#[test]
fn symbolic_file_finds_the_planted_overflow() {
    let dir = scratch("posix-head-bug");
    let bc = program("head.c", &dir);
    let out = dir.join("out");
    exec(
        &bc,
        &out,
        true,
        &["--max-time", "60"],
        &["-n", "9", "A", "--sym-files", "1", "12"],
    );
    let errs = reported_errors(&out);
    assert!(errs.contains(&("ptr".to_string(), 37)), "{errs:?}");
    let ts = tests(&out);
    let bug = ts
        .iter()
        .find(|t| t["outcome"]["error"]["kind"] == "ptr")
        .unwrap();
    assert_eq!(
        object_names(bug),
        ["A-data", "A-data-stat", "model_version"]
    );
    assert_eq!(object_bytes(bug, "A-data-stat").len(), 144);
    let data = object_bytes(bug, "A-data");
    assert!(
        data.iter().filter(|b| **b == b'\n').count() >= 9,
        "{data:?}"
    );
}

#[test]
fn max_fail_reaches_the_error_handling_paths() {
    let dir = scratch("posix-head-fail");
    let bc = program("head.c", &dir);
    let out = dir.join("out");
    let o = exec(
        &bc,
        &out,
        true,
        &["--emit-all"],
        &["A", "--sym-files", "1", "2", "--max-fail", "1"],
    );
    let _ = o;
    let ts = tests(&out);
    let fails = [
        "read_fail",
        "write_fail",
        "close_fail",
        "open_fail",
        "lseek_fail",
        "stat_fail",
        "getcwd_fail",
        "dup_fail",
    ];
    let mut open_failed = false;
    let mut close_failed = false;
    for t in &ts {
        let mut names = vec!["A-data", "A-data-stat", "model_version"];
        names.extend(fails);
        assert_eq!(object_names(t), names);
        let nonzero: Vec<&str> = fails
            .iter()
            .copied()
            .filter(|f| int_object(t, f) != 0)
            .collect();
        if int_object(t, "open_fail") == 1 {
            open_failed = true;
            assert_eq!(exit_code(t), Some(1), "open failure: perror, exit 1");
        }
        if int_object(t, "close_fail") == 1 && exit_code(t) == Some(1) {
            close_failed = true;
        }
        assert!(nonzero.len() <= 8);
    }
    assert!(open_failed, "no test fails the open");
    assert!(close_failed, "no test reaches the fclose error path");
}

#[test]
fn max_fail_counts_every_call_of_a_class() {
    let dir = scratch("posix-failcount");
    let bc = program("failcount.c", &dir);
    let out = dir.join("out");
    exec(
        &bc,
        &out,
        true,
        &["--emit-all"],
        &["--sym-stdin", "2", "--max-fail", "1"],
    );
    let mut seen = std::collections::BTreeSet::new();
    for t in tests(&out) {
        let read = int_object(&t, "read_fail");
        let close = int_object(&t, "close_fail");
        let code = exit_code(&t).unwrap();
        let expect = match (read, close) {
            (1, 0) => 10,
            (2, 0) => 20,
            (0, 1) => 30,
            (0, 0) => {
                // Both reads land in b[0]: the second byte decides.
                if object_bytes(&t, "stdin")[1] == b'x' {
                    1
                } else {
                    0
                }
            }
            other => panic!("unexpected failure objects {other:?}: {t}"),
        };
        assert_eq!(code, expect, "{t}");
        for other in [
            "write_fail",
            "open_fail",
            "lseek_fail",
            "stat_fail",
            "getcwd_fail",
            "dup_fail",
        ] {
            assert_eq!(int_object(&t, other), 0, "exiting paths prefer 0: {t}");
        }
        seen.insert(code);
    }
    assert_eq!(seen, [0, 1, 10, 20, 30].into_iter().collect());
}

#[test]
fn symbolic_stdin_paths_of_wc() {
    let dir = scratch("posix-wc");
    let bc = program("wc.c", &dir);
    let out = dir.join("out");
    let o = exec(&bc, &out, true, &["--emit-all"], &["--sym-stdin", "3"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let ts = tests(&out);
    // Each byte: newline, other white space, or a word byte that starts a word
    // or continues one: 4^3 paths minus those a first byte cannot continue.
    assert!(ts.len() >= 27, "{} tests; {stderr}", ts.len());
    for t in &ts {
        assert_eq!(object_names(t), ["stdin", "stdin-stat", "model_version"]);
        assert_eq!(exit_code(t), Some(0));
    }
}

#[test]
fn unmodelled_system_call_warns_once_and_fails_with_enosys() {
    let dir = scratch("posix-mkdir");
    let bc = program("mkdir.c", &dir);
    let out = dir.join("out");
    let o = exec(&bc, &out, true, &[], &[]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let warnings = stderr
        .lines()
        .filter(|l| l.contains("model: unmodelled system call mkdir"))
        .count();
    assert_eq!(warnings, 1, "{stderr}");
    let ts = tests(&out);
    assert_eq!(ts.len(), 1);
    assert_eq!(exit_code(&ts[0]), Some(7));
}

#[test]
fn longjmp_returns_to_setjmp() {
    let dir = scratch("posix-jmp");
    let bc = program("jmp.c", &dir);
    let out = dir.join("out");
    exec(&bc, &out, true, &["--emit-all"], &["--sym-arg", "2"]);
    let ts = tests(&out);
    let mut jumped = 0;
    for t in &ts {
        let arg: Vec<u8> = object_bytes(t, "arg00")
            .into_iter()
            .take_while(|b| *b != 0)
            .collect();
        let mut depth = 0i32;
        let mut unbalanced = false;
        for b in &arg {
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth < 0 {
                        unbalanced = true;
                        break;
                    }
                }
                _ => {}
            }
        }
        if unbalanced {
            jumped += 1;
            assert_eq!(exit_code(t), Some(4), "{arg:?}");
            assert_eq!(t["stdout"], "unbalanced\n");
        } else {
            assert_eq!(exit_code(t), Some(0), "{arg:?}");
            assert_eq!(t["stdout"], format!("ok {depth}\n"));
        }
    }
    assert!(jumped >= 1, "no path takes the longjmp");
}

#[test]
fn libc_functions_behave_as_in_c() {
    let dir = scratch("posix-smoke");
    let bc = program("libc_smoke.c", &dir);
    let out = dir.join("out");
    let o = exec(&bc, &out, true, &[], &[]);
    let ts = tests(&out);
    assert_eq!(ts.len(), 1);
    assert_eq!(
        exit_code(&ts[0]),
        Some(0),
        "exit code names the libc area that failed; {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn programs_built_with_glibc_headers_link_with_musl() {
    let dir = scratch("posix-glibc-headers");
    let src = workspace().join("tests/posix/glibc_headers.c");
    let bc = compile(&src, &dir, &["-O1", "-D_FORTIFY_SOURCE=2"]).unwrap();
    let out = dir.join("out");
    exec(&bc, &out, true, &[], &[]);
    let ts = tests(&out);
    assert_eq!(ts.len(), 1);
    assert_eq!(exit_code(&ts[0]), Some(12), "{}", ts[0]);
    assert_eq!(ts[0]["stdout"], "12\n");
}

#[test]
fn harness_links_libc_without_the_posix_runtime() {
    let dir = scratch("posix-harness");
    let bc = program("harness.c", &dir);
    let out = dir.join("out");
    exec(&bc, &out, false, &[], &[]);
    let errs = reported_errors(&out);
    assert!(errs.contains(&("ptr".to_string(), 23)), "{errs:?}");
    for t in tests(&out) {
        assert_eq!(t["posix"], false);
        assert_eq!(object_names(&t), ["buf"]);
        if let Some(code) = exit_code(&t) {
            // 0: the sorted table starts with 10; 10, 20, 30: table[0..3]; 1: qsort failed.
            assert!([0, 10, 20, 30].contains(&code), "{t}");
        }
    }
}

#[test]
fn external_calls_end_the_path_or_run_concretely() {
    let dir = scratch("posix-external");
    let src = workspace().join("tests/posix/external.c");
    let bc = compile(&src, &dir, &[]).unwrap();
    // Without a libc (the default `auto` would link musl, which defines sqrt).
    let out = dir.join("none");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--libc=none",
        "--output-dir",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let ts = tests(&out);
    assert_eq!(ts.len(), 1);
    assert_eq!(ts[0]["outcome"]["error"]["kind"], "external");
    for mode in ["concrete", "all"] {
        let out = dir.join(mode);
        let o = symtest(&[
            "exec",
            bc.to_str().unwrap(),
            "--libc=none",
            "--output-dir",
            out.to_str().unwrap(),
            "--external-calls",
            mode,
        ]);
        assert!(o.status.success());
        let ts = tests(&out);
        assert_eq!(ts.len(), 1);
        assert_eq!(exit_code(&ts[0]), Some(5), "{mode}");
    }
    // With the default libc (auto): musl's sqrt.
    let out = dir.join("auto");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(exit_code(&tests(&out)[0]), Some(5));
}

#[test]
fn environment_options_are_checked_before_the_run() {
    let dir = scratch("posix-bad");
    let bc = program("greet.c", &dir);
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let b = bc.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &[
            "exec",
            b,
            "--output-dir",
            o,
            "--posix-runtime",
            "--libc=none",
        ],
        &["exec", b, "--output-dir", o, "--libc=glibc"],
        &[
            "exec",
            b,
            "--output-dir",
            o,
            "--external-calls",
            "everything",
        ],
        &[
            "exec",
            b,
            "--output-dir",
            o,
            "--libc=musl",
            "--posix-runtime",
            "--",
            "--sym-args",
            "3",
            "1",
            "2",
        ],
        &[
            "exec",
            b,
            "--output-dir",
            o,
            "--libc=musl",
            "--posix-runtime",
            "--",
            "--sym-arg",
        ],
        &[
            "exec",
            b,
            "--output-dir",
            o,
            "--libc=musl",
            "--posix-runtime",
            "--",
            "--sym-files",
            "1",
            "x",
        ],
    ];
    for args in cases {
        let r = symtest(args);
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(
            stderr.trim().lines().count(),
            1,
            "{args:?}: one line: {stderr}"
        );
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn posix_runs_are_deterministic() {
    let dir = scratch("posix-determinism");
    let bc = program("wc.c", &dir);
    let mut runs = Vec::new();
    for i in 0..2 {
        let out = dir.join(format!("run{i}"));
        exec(
            &bc,
            &out,
            true,
            &["--max-instructions", "300000", "--emit-all", "--seed", "3"],
            &["--sym-stdin", "4"],
        );
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "ktest"))
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        runs.push(files);
    }
    assert!(runs[0].len() >= 4, "{} tests", runs[0].len());
    assert!(runs[0] == runs[1], "two runs wrote different tests");
}

/// posix_memalign/aligned_alloc at page alignment and reallocarray (with its
/// overflow check) work in the engine as natively: every path exits as the
/// native program does, with no memory error, and replays natively.
#[test]
fn aligned_allocation_and_reallocarray() {
    let dir = scratch("posix-aligned");
    let bc = program("aligned.c", &dir);
    let out = dir.join("out");
    let o = exec(&bc, &out, true, &[], &["--sym-stdin", "1"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let ts = tests(&out);
    let mut codes: Vec<i64> = ts.iter().filter_map(exit_code).collect();
    codes.sort();
    assert_eq!(codes, [0, 1], "{stderr}");
    assert!(reported_errors(&out).is_empty(), "{stderr}");
    replays_natively("aligned.c", &dir, &out, 2);
}

/// sysinfo, getrlimit, statfs, nanosleep and getgroups are modelled (no unmodelled
/// system call warning) and answer as a real machine does: the program's
/// paths replay natively with the same outcomes and output.
#[test]
fn system_queries_of_real_utilities_are_modelled() {
    let dir = scratch("posix-sysquery");
    let bc = program("sysquery.c", &dir);
    let out = dir.join("out");
    let o = exec(&bc, &out, true, &[], &["--sym-stdin", "1"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("unmodelled"), "{stderr}");
    let mut codes: Vec<i64> = tests(&out).iter().filter_map(exit_code).collect();
    codes.sort();
    assert_eq!(codes, [0, 3], "{stderr}");
    replays_natively("sysquery.c", &dir, &out, 2);
}

/// Builds `tests/posix/NAME` natively and replays the tests of `out` on it:
/// all `passed` of them pass.
pub(crate) fn replays_natively(name: &str, dir: &Path, out: &Path, passed: usize) {
    let src = workspace().join("tests/posix").join(name);
    let prog = crate::native_replay::native_build(&src, dir, &[]);
    let r = std::process::Command::new(bin())
        .args(["replay", "--native"])
        .arg(&prog)
        .arg(out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{text}");
    assert!(
        text.contains(&format!("{passed} passed, 0 failed")),
        "{text}"
    );
}

/// main(argc, argv, envp) under the POSIX runtime: envp and getenv agree on
/// the fixed environment, and the native replay, which gives the program
/// the same environment, prints the same (KLEE's test/Runtime/POSIX/Envp.c).
#[test]
fn envp_is_the_fixed_environment_under_the_model_and_natively() {
    let dir = scratch("posix-envp");
    let bc = program("envp.c", &dir);
    let out = dir.join("out");
    exec(&bc, &out, true, &[], &[]);
    let ts = tests(&out);
    assert_eq!(ts.len(), 1);
    assert_eq!(ts[0]["outcome"]["exit"]["code"], 0, "{}", ts[0]);
    assert_eq!(
        ts[0]["stdout"], "PWD=/symtest\nhome1 = /symtest\nhome2 = /symtest\n",
        "{}",
        ts[0]
    );
    replays_natively("envp.c", &dir, &out, 1);
}
