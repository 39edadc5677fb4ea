//! `replay --native`: whole-program tests replayed on an unmodified native
//! executable built by `cc --native` (musl-gcc).  The tests here are written
//! by hand (the objects `exec --posix-runtime` creates, per ENV_CONTRACT.md),
//! so they check the world reconstruction and the failure shim on their own.

use crate::support::*;
use std::path::{Path, PathBuf};
use symtest_ktest::{KTest, KTestObject};

/// Builds `src` with `cargo symtest cc --native` into `dir`.
pub fn native_build(src: &Path, dir: &Path, extra: &[&str]) -> PathBuf {
    let exe = dir.join(src.file_stem().unwrap());
    let mut args = vec!["cc", "--native"];
    args.extend_from_slice(extra);
    args.extend([src.to_str().unwrap(), "-o", exe.to_str().unwrap()]);
    let out = symtest(&args);
    assert!(
        out.status.success(),
        "cc --native {}: {}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn stat(size: u64, mode: u32) -> Vec<u8> {
    let mut s = vec![0u8; 144];
    s[24..28].copy_from_slice(&(0o100000 | mode).to_le_bytes());
    s[48..56].copy_from_slice(&size.to_le_bytes());
    s
}

fn int(v: i32) -> Vec<u8> {
    v.to_le_bytes().to_vec()
}

/// Failure objects of `--max-fail`, in the contract's order.
fn fails(spec: &[(&str, i32)]) -> Vec<(&'static str, Vec<u8>)> {
    [
        "read_fail",
        "write_fail",
        "close_fail",
        "open_fail",
        "lseek_fail",
        "stat_fail",
        "getcwd_fail",
        "dup_fail",
    ]
    .into_iter()
    .map(|name| {
        let k = spec
            .iter()
            .find(|(c, _)| name.strip_suffix("_fail") == Some(c))
            .map_or(0, |p| p.1);
        (name, int(k))
    })
    .collect()
}

/// Writes `name.ktest` and `name.json` (outcome, program_args, stdout).
fn write_test(
    dir: &Path,
    name: &str,
    objects: Vec<(&str, Vec<u8>)>,
    program_args: &[&str],
    outcome: serde_json::Value,
    stdout: Option<&str>,
) -> PathBuf {
    let kt = KTest {
        args: std::iter::once("prog.bc")
            .chain(program_args.iter().copied())
            .map(String::from)
            .collect(),
        objects: objects
            .into_iter()
            .map(|(n, b)| KTestObject::new(n, b))
            .collect(),
        ..KTest::default()
    };
    let path = dir.join(format!("{name}.ktest"));
    kt.write_to(&path).unwrap();
    let mut json = serde_json::json!({
        "ktest": format!("{name}.ktest"),
        "outcome": outcome,
        "posix": true,
        "program_args": program_args,
    });
    if let Some(s) = stdout {
        json["stdout"] = s.into();
    }
    std::fs::write(path.with_extension("json"), json.to_string()).unwrap();
    path
}

fn exit(code: i64) -> serde_json::Value {
    serde_json::json!({"exit": {"code": code}})
}

/// Runs `replay --native` from `cwd`; returns (exit code, stdout).
fn replay(cwd: &Path, program: &Path, tests: &[&Path], extra: &[&str]) -> (i32, String) {
    let mut cmd = std::process::Command::new(bin());
    cmd.current_dir(cwd)
        .args(["replay", "--native"])
        .arg(program)
        .args(extra)
        .args(tests);
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned() + &stderr,
    )
}

fn world_program(dir: &Path) -> PathBuf {
    native_build(
        &workspace().join("cargo-symtest/tests/it/fixtures/world.c"),
        dir,
        &[],
    )
}

fn files_and_stdin() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("n_args", int(1)),
        ("arg00", b"x\0\0".to_vec()),
        ("arg01", b"zz\0".to_vec()),
        ("A-data", b"abcd".to_vec()),
        ("A-data-stat", stat(3, 0o600)),
        ("B-data", b"xy".to_vec()),
        ("B-data-stat", stat(10, 0o444)),
        ("stdin", b"hello".to_vec()),
        ("stdin-stat", stat(5, 0o644)),
        ("model_version", int(1)),
    ]
}

const WORLD_ARGS: &[&str] = &[
    "-v",
    "--sym-args",
    "1",
    "2",
    "2",
    "END",
    "--sym-files",
    "2",
    "4",
    "--sym-stdin",
    "5",
];

#[test]
fn world_is_rebuilt_and_stdout_compared() {
    let dir = scratch("native_world");
    let prog = world_program(&dir);
    let expected = "calls done\nargv[0]=world\nargv[1]=-v\nargv[2]=x\nargv[3]=END\n\
                    A: 3 bytes, mode 600: abc\nB: 2 bytes, mode 444: xy\nstdin: hello\n";
    let good = write_test(
        &dir,
        "good",
        files_and_stdin(),
        WORLD_ARGS,
        exit(0),
        Some(expected),
    );
    let (code, out) = replay(&dir, &prog, &[&good], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("good.ktest: exit 0  ok"), "{out}");
    assert!(out.contains("1 passed, 0 failed, 0 not compared"), "{out}");

    // The same test with another recorded stdout or exit code is a mismatch.
    let other = write_test(
        &dir,
        "other",
        files_and_stdin(),
        WORLD_ARGS,
        exit(0),
        Some("something else\n"),
    );
    let code3 = write_test(&dir, "code3", files_and_stdin(), WORLD_ARGS, exit(3), None);
    let (code, out) = replay(&dir, &prog, &[&other, &code3], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("stdout differs"), "{out}");
    assert!(
        out.contains("code3.ktest: exit 0  MISMATCH (engine recorded exit 3)"),
        "{out}"
    );
    assert!(out.contains("0 passed, 2 failed"), "{out}");
}

#[test]
fn every_failure_class_is_injected() {
    let dir = scratch("native_fail");
    let prog = world_program(&dir);
    let classes = [
        ("open", 1),
        ("read", 1),
        ("lseek", 1),
        ("stat", 1),
        ("getcwd", 1),
        ("dup", 1),
        ("write", 1),
    ];
    let mut objects = files_and_stdin();
    objects.extend(fails(&classes));
    let mut args = WORLD_ARGS.to_vec();
    args.extend(["--max-fail", "7"]);
    let expected = "open failed: No such file or directory\nread failed: I/O error\n\
                    lseek failed: I/O error\nfstat failed: No such file or directory\n\
                    getcwd failed: Result not representable\n\
                    dup failed: No file descriptors available\n\
                    close failed: No file descriptors available\nwrite failed: I/O error\n";
    let t = write_test(&dir, "all", objects, &args, exit(8), None);
    let (code, out) = replay(&dir, &prog, &[&t], &["--keep-dirs"]);
    assert_eq!(code, 0, "{out}");
    for c in [
        "open 1 open",
        "read 1 read",
        "lseek 1 lseek",
        "stat 1 fstat",
        "getcwd 1 getcwd",
        "dup 1 dup",
        "write 1 write",
    ] {
        assert!(out.contains(c), "{c} not injected: {out}");
    }
    let kept = out
        .split("(kept ")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let stdout = std::fs::read_to_string(Path::new(kept).join("stdout")).unwrap();
    assert!(stdout.starts_with(expected), "{stdout}");
    std::fs::remove_dir_all(kept).unwrap();

    // dup#2: fcntl(F_DUPFD) (fcntl(F_GETFL) is not counted).
    let mut objects = files_and_stdin();
    objects.extend(fails(&[("dup", 2)]));
    let t = write_test(&dir, "fcntl", objects, &args, exit(1), None);
    let (code, out) = replay(&dir, &prog, &[&t], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("[failed: dup 2 fcntl]"), "{out}");

    // close#1 alone: the close of the dup'ed descriptor.
    let mut objects = files_and_stdin();
    objects.extend(fails(&[("close", 1)]));
    let t = write_test(&dir, "close", objects, &args, exit(1), None);
    let (code, out) = replay(&dir, &prog, &[&t], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("[failed: close 1 close]"), "{out}");

    // A failure value beyond the last call is reported, not a mismatch (the
    // engine leaves unused failure values anywhere past the counts it saw).
    let mut objects = files_and_stdin();
    objects.extend(fails(&[("read", 50)]));
    let t = write_test(&dir, "late", objects, &args, exit(0), None);
    let (code, out) = replay(&dir, &prog, &[&t], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok  [not reached: read#50]"), "{out}");

    // The largest count a failure object holds (the engine leaves unused
    // ones there too: a crosscheck's `open=2147483647`) is a call never
    // reached, not a vector the shim refuses (exit 125).
    let mut objects = files_and_stdin();
    objects.extend(fails(&[("open", i32::MAX), ("stat", i32::MAX)]));
    let t = write_test(&dir, "largest", objects, &args, exit(0), None);
    let (code, out) = replay(&dir, &prog, &[&t], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok  [not reached: open#2147483647"), "{out}");
}

#[test]
fn watchdog_isolation_skips_and_bad_input() {
    let dir = scratch("native_watchdog");
    let prog = world_program(&dir);
    let work = dir.join("work");
    std::fs::create_dir(&work).unwrap();
    let tests = dir.join("tests");
    std::fs::create_dir(&tests).unwrap();
    let spin = write_test(&tests, "t1", vec![], &["spin"], exit(0), None);
    // No file A: the program's open fails, it exits 1.
    let escape = write_test(&tests, "t2", vec![], &["escape"], exit(1), None);
    let model = write_test(
        &tests,
        "t3",
        vec![],
        &[],
        serde_json::json!({"error": {"kind": "model", "message": "m", "file": "f", "line": 1, "stack": []}}),
        None,
    );
    let start = std::time::Instant::now();
    let (code, out) = replay(&work, &prog, &[&tests], &["--timeout", "1"]);
    assert!(start.elapsed().as_secs() < 20, "watchdog too slow");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("t1.ktest: timeout  MISMATCH"), "{out}");
    assert!(out.contains("t2.ktest: exit 1  ok"), "{out}");
    assert!(
        out.contains(
            "t3.ktest: exit 1  not compared (engine recorded error: model, an engine limit)"
        ),
        "{out}"
    );
    assert!(out.contains("1 passed, 1 failed, 1 not compared"), "{out}");
    // Nothing was written outside the temporary directories.
    assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0);
    assert!(!dir.join("escaped").exists() && !tests.join("escaped").exists());
    let _ = (spin, escape, model);

    // A corrupt test and a test whose objects do not fit its arguments are
    // failed tests (exit 1, `CORRUPT`); a missing program is bad input.
    let bad = tests.join("bad.ktest");
    std::fs::write(&bad, b"not a ktest").unwrap();
    std::fs::write(bad.with_extension("json"), exit(0).to_string()).unwrap();
    let bad_json = serde_json::json!({"outcome": exit(0)});
    std::fs::write(bad.with_extension("json"), bad_json.to_string()).unwrap();
    let (code, out) = replay(&work, &prog, &[&bad], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("bad.ktest: CORRUPT (not a .ktest file"),
        "{out}"
    );
    assert!(out.contains("0 passed, 1 failed, 0 not compared"), "{out}");
    let unfit = write_test(&tests, "unfit", vec![], &["--sym-arg", "3"], exit(0), None);
    let (code, out) = replay(&work, &prog, &[&unfit], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("unfit.ktest: CORRUPT") && out.contains("no object 'arg00'"),
        "{out}"
    );
    let (code, out) = replay(&work, &dir.join("nope"), &[&unfit], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("not found"), "{out}");
}

/// The wc fixture's error-handling paths, reached by injected failures.
#[test]
fn wc_error_paths_replay() {
    let dir = scratch("native_wc");
    let prog = native_build(&workspace().join("tests/utils/wc.c"), &dir, &[]);
    let file = |k: &[(&str, i32)]| {
        let mut o = vec![
            ("A-data", b"a b\n".to_vec()),
            ("A-data-stat", stat(4, 0o644)),
            ("model_version", int(1)),
        ];
        o.extend(fails(k));
        o
    };
    let args = ["A", "--sym-files", "1", "4", "--max-fail", "1"];
    let tests = [
        write_test(&dir, "plain", file(&[]), &args, exit(0), Some("1 2 4\n")),
        write_test(&dir, "open", file(&[("open", 1)]), &args, exit(1), Some("")),
        write_test(&dir, "read", file(&[("read", 1)]), &args, exit(3), Some("")),
        write_test(
            &dir,
            "close",
            file(&[("close", 1)]),
            &args,
            exit(5),
            Some(""),
        ),
        write_test(
            &dir,
            "write",
            file(&[("write", 1)]),
            &args,
            exit(0),
            Some(""),
        ),
    ];
    let refs: Vec<&Path> = tests.iter().map(PathBuf::as_path).collect();
    let (code, out) = replay(&dir, &prog, &refs, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("5 passed, 0 failed"), "{out}");
}

#[test]
fn cc_builds_bitcode_against_musl_and_reports_errors() {
    let dir = scratch("cc");
    let bc = dir.join("wc.bc");
    let src = workspace().join("tests/utils/wc.c");
    let out = symtest(&["cc", src.to_str().unwrap(), "-o", bc.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = symtest(&["inspect", bc.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("main"));
    // Built against musl's headers, not glibc's.
    let out = symtest(&["cc", "--print-command", "-E", src.to_str().unwrap()]);
    assert!(out.status.success());
    let pre = String::from_utf8_lossy(&out.stdout);
    assert!(
        pre.contains("x86_64-linux-musl") || pre.contains("runtime-musl-"),
        "not musl headers"
    );
    assert!(!pre.contains("/usr/include/stdio.h"), "glibc headers used");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("-disable-O0-optnone") && err.contains("-nostdinc"),
        "{err}"
    );
    // Compiler errors: its diagnostics and exit code 2.
    let bad = dir.join("bad.c");
    std::fs::write(&bad, "int main(void) { return undeclared; }\n").unwrap();
    for native in [false, true] {
        let mut args = vec!["cc"];
        if native {
            args.push("--native");
        }
        args.extend([bad.to_str().unwrap(), "-o", "/dev/null"]);
        let out = symtest(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("undeclared"), "{err}");
    }
    let out = symtest(&["cc", "--coverage", "x.c"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The shim uses no libc, so a glibc build gets the same failures.
#[test]
fn glibc_programs_get_failures_too() {
    let dir = scratch("native_glibc");
    let src = workspace().join("cargo-symtest/tests/it/fixtures/world.c");
    let prog = dir.join("world_glibc");
    let st = std::process::Command::new("clang-19")
        .args(["-g", "-O0", "-w"])
        .arg(&src)
        .arg("-o")
        .arg(&prog)
        .status()
        .unwrap();
    assert!(st.success());
    let mut objects = files_and_stdin();
    objects.extend(fails(&[
        ("open", 1),
        ("read", 1),
        ("lseek", 1),
        ("stat", 1),
        ("getcwd", 1),
        ("dup", 1),
        ("write", 1),
    ]));
    let mut args = WORLD_ARGS.to_vec();
    args.extend(["--max-fail", "7"]);
    let t = write_test(&dir, "all", objects, &args, exit(8), None);
    let (code, out) = replay(&dir, &prog, &[&t], &[]);
    assert_eq!(code, 0, "{out}");
    for c in ["open", "read", "lseek", "stat", "getcwd", "dup", "write"] {
        assert!(out.contains(&format!("{c} 1 ")), "{c} not injected: {out}");
    }
}

/// A crashing test's lines still count: `cc --native --coverage` links the
/// handler that writes gcov data on a crash signal, and the crash (a UBSan
/// bounds trap, SIGILL) reproduces the recorded `ptr` error.
#[test]
fn crashing_tests_keep_their_coverage() {
    let dir = scratch("native_crash_cov");
    let src = workspace().join("tests/utils/echo.c");
    let exe = native_coverage_build(&src, &dir, "echo");
    let ptr = serde_json::json!({"error": {"kind": "ptr", "message": "m", "file": "echo.c", "line": 42, "stack": []}});
    let t = write_test(&dir, "crash", vec![], &["-e", "\\xa"], ptr, None);
    let gcov = dir.join("gcov");
    let (code, out) = replay(&dir, &exe, &[&t], &["--gcov-dir", gcov.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("crash.ktest: signal 4  ok"), "{out}");
    std::fs::copy(dir.join("echo.gcno"), gcov.join("echo.gcno")).unwrap();
    let report = std::process::Command::new("gcov")
        .args(["-o", gcov.to_str().unwrap()])
        .arg(&src)
        .current_dir(&gcov)
        .output()
        .unwrap();
    assert!(report.status.success());
    let text = std::fs::read_to_string(gcov.join("echo.c.gcov")).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("EXPECT-ERROR: ptr"))
        .unwrap();
    assert!(
        line.trim_start().starts_with('1'),
        "the crashing line was not counted: {line}"
    );
}

/// argv[0] is the program's name in the engine (the bitcode's file name
/// without `.bc`) and in the native replay, so output that prints it (usage
/// and error messages) replays as recorded.
#[test]
fn argv0_is_the_program_name_in_the_engine_and_natively() {
    let dir = scratch("native_progname");
    let src = workspace().join("tests/posix/progname.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    posix_exec(&bc, &out, &[], &["--sym-args", "0", "1", "2"]);
    // The engine's usage line names the program.
    let usage = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json") && p.to_string_lossy().contains("test")
        })
        .any(|p| {
            std::fs::read_to_string(&p)
                .unwrap()
                .contains("progname: missing operand")
        });
    assert!(usage, "no test recorded `progname: missing operand`");
    let prog = native_build(&src, &dir, &[]);
    let (code, text) = replay(&dir, &prog, &[&out], &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains(" 0 failed"), "{text}");
    assert!(!text.contains("MISMATCH"), "{text}");
}

/// Global constructors run before main and destructors at exit, after the
/// atexit handlers, in the engine as natively (`tests/programs/
/// misc_ctor_dtor_output.c`): with atexit linked (the destructors are
/// registered with it) and without (`exit` runs them), on a return from
/// main and on `exit(2)`; every test's stdout is the native one.
#[test]
fn global_constructors_and_destructors_run_as_natively() {
    let src = workspace().join("tests/programs/misc_ctor_dtor_output.c");
    let handlers = "atexit handler from main\natexit handler from a constructor\n";
    for (name, defines) in [
        ("with_atexit", &[][..]),
        ("no_atexit", &["-DNO_ATEXIT"][..]),
    ] {
        let dir = scratch(&format!("native_structors_{name}"));
        let bc = dir.join("prog.bc");
        let mut cc = vec!["cc"];
        cc.extend_from_slice(defines);
        cc.extend([src.to_str().unwrap(), "-o", bc.to_str().unwrap()]);
        let o = symtest(&cc);
        assert!(o.status.success(), "{}", shown(&o));
        let out = dir.join("out");
        posix_exec(&bc, &out, &[], &["--sym-args", "0", "1", "1"]);
        let mut stdouts = std::collections::BTreeSet::new();
        for e in std::fs::read_dir(&out).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") && p.to_string_lossy().contains("test") {
                let v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                stdouts.insert(v["stdout"].as_str().unwrap_or("").to_string());
            }
        }
        let expected: std::collections::BTreeSet<String> = ["main 1\n", "main 2\n"]
            .iter()
            .map(|m| {
                format!(
                    "constructor 101\nconstructor 102\n{m}{}destructor 102\ndestructor 101\n",
                    if defines.is_empty() { handlers } else { "" }
                )
            })
            .collect();
        assert_eq!(stdouts, expected, "{name}");
        let prog = native_build(&src, &dir, defines);
        let (code, text) = replay(&dir, &prog, &[&out], &[]);
        assert_eq!(code, 0, "{name}: {text}");
        assert!(
            text.contains("2 passed, 0 failed, 0 not compared"),
            "{name}: {text}"
        );
    }
}
