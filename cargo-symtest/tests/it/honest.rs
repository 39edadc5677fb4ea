//! Honest results: `show`, `replay` and the native replay runtime agree on
//! what a valid `.ktest` is; replaying nothing or a corrupt test fails (exit
//! 1); "all paths explored" is never said when the solver ended paths;
//! `replay --source` removes its temporary directories on every exit.

use crate::support::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;
use symtest_ktest::{KTest, KTestObject};

const HARNESS: &str = r#"#include "symtest.h"
int main(void) {
  int n;
  symtest_make_symbolic(&n, sizeof n, "n");
  if (n > 5)
    return 1;
  return 0;
}
"#;

fn text(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The harness natively with the replay runtime (as `replay --source` builds it).
fn native_harness(dir: &Path) -> PathBuf {
    let src = dir.join("h.c");
    std::fs::write(&src, HARNESS).unwrap();
    let exe = dir.join("h");
    let st = Command::new("clang-19")
        .args(["-g", "-w", "-I"])
        .arg(models().join("include"))
        .arg(&src)
        .arg(models().join("replay/symtest_replay.c"))
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap();
    assert!(st.success());
    exe
}

fn valid_test() -> Vec<u8> {
    KTest {
        args: vec!["h.bc".into()],
        objects: vec![KTestObject::new("n", 7i32.to_le_bytes())],
        ..KTest::default()
    }
    .to_bytes()
}

/// Valid and invalid files, each judged the same by `show` (the Rust reader)
/// and the replay runtime linked into native harnesses (C).
#[test]
fn show_and_the_replay_runtime_agree_on_validity() {
    let dir = scratch("honest-agree");
    let exe = native_harness(&dir);
    let good = valid_test();
    let mut trailing = good.clone();
    trailing.extend_from_slice(b"\0\0junk");
    let mut bad_name = good.clone();
    let at = bad_name.len() - 4 - 4 - 1; // the one-byte name "n"
    bad_name[at] = 0xff;
    let mut overlong_arg = good.clone();
    // args[0] is "h.bc" at offset 17: make its first byte an overlong '/'.
    overlong_arg[17] = 0xc0;
    overlong_arg[18] = 0xaf;
    let cases: Vec<(&str, Vec<u8>, bool)> = vec![
        ("valid", good.clone(), true),
        ("empty", Vec::new(), false),
        ("magic only", b"KTEST".to_vec(), false),
        ("truncated", good[..good.len() - 2].to_vec(), false),
        ("trailing bytes", trailing, false),
        ("non-UTF-8 name", bad_name, false),
        ("overlong UTF-8 argument", overlong_arg, false),
        (
            "bad version",
            [&b"KTEST"[..], &[0, 0, 0, 9], &good[9..]].concat(),
            false,
        ),
    ];
    for (what, bytes, valid) in cases {
        let f = dir.join("case.ktest");
        std::fs::write(&f, &bytes).unwrap();
        let show = symtest(&["show", f.to_str().unwrap()]);
        assert_eq!(
            show.status.code(),
            Some(if valid { 0 } else { 2 }),
            "{what}: {}",
            text(&show)
        );
        let native = Command::new(&exe)
            .env("SYMTEST_KTEST", &f)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&native.stderr);
        let refused = stderr.contains("corrupt test file")
            || stderr.contains("not a .ktest file")
            || stderr.contains("unsupported version");
        assert_eq!(refused, !valid, "{what}: runtime said {stderr:?}");
        if valid {
            assert_eq!(native.status.code(), Some(1), "{what}: n = 7 > 5");
        } else {
            assert_eq!(native.status.code(), Some(125), "{what}");
        }
    }
}

/// A corrupt test is a failed one, and replaying nothing compared is a
/// failure: never "0 passed, 0 failed" with exit code 0.
#[test]
fn replaying_corrupt_tests_or_nothing_fails() {
    let dir = scratch("honest-replay");
    let exe = native_harness(&dir);
    let exe = exe.to_str().unwrap();
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    // An empty test without a .json.
    let empty = tests.join("test000001.ktest");
    std::fs::write(&empty, b"").unwrap();
    let o = symtest(&["replay", "--binary", exe, empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("CORRUPT") && out.contains("0 passed, 1 failed"),
        "{}",
        text(&o)
    );
    // A valid test without a recorded outcome: nothing was compared.
    let valid = tests.join("test000002.ktest");
    std::fs::write(&valid, valid_test()).unwrap();
    let o = symtest(&["replay", "--binary", exe, valid.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("nothing was checked"),
        "{}",
        text(&o)
    );
    // With its outcome it passes; the corrupt one beside it still fails the run.
    std::fs::write(
        valid.with_extension("json"),
        r#"{"outcome": {"exit": {"code": 1}}}"#,
    )
    .unwrap();
    let o = symtest(&["replay", "--binary", exe, valid.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = symtest(&["replay", "--binary", exe, tests.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("1 passed, 1 failed"),
        "{}",
        text(&o)
    );
    // Whole-program replay: the same rules.
    let o = symtest(&["replay", "--native", "/bin/true", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("CORRUPT"),
        "{}",
        text(&o)
    );
}

/// One path asks the solver a hopeless question through an assumption (no
/// branch to follow instead): that path ends, and the halt reason says so.
const SOLVER_ENDS_A_PATH: &str = r#"#include "symtest.h"
int main(void) {
  unsigned char sel;
  unsigned long long x, y;
  symtest_make_symbolic(&sel, sizeof sel, "sel");
  symtest_make_symbolic(&x, sizeof x, "x");
  symtest_make_symbolic(&y, sizeof y, "y");
  if (sel == 7) {
    unsigned __int128 n =
        ((unsigned __int128)0x71a4e9120aa3e4e8ULL << 64) | 0x7fddea053fb2657bULL;
    symtest_assume(((unsigned __int128)x * y == n) & (x > 1) & (y > 1));
    return 1;
  }
  return 0;
}
"#;

#[test]
fn paths_the_solver_ended_are_named_in_the_halt_reason() {
    let dir = scratch("honest-halt");
    let src = dir.join("hard.c");
    std::fs::write(&src, SOLVER_ENDS_A_PATH).unwrap();
    let bc = compile(&src, &dir, &[]).unwrap();
    let out = dir.join("out");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--max-solver-time",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(!info.contains("halt reason: all paths explored"), "{info}");
    assert!(
        info.contains(
            "halt reason: all remaining paths explored; 1 path(s) ended where the solver failed"
        ),
        "{info}"
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("1 path(s) ended where the solver failed"),
        "{}",
        text(&o)
    );
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    assert_eq!(stats["solver_failures"].as_u64(), Some(1), "{stats}");
}

fn replay_dirs(tmp: &Path) -> Vec<String> {
    std::fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("symtest-replay-"))
        .collect()
}

/// `replay --source` builds in a temporary directory and removes it: after
/// success, after an error, and after SIGTERM (which then ends it as usual).
#[test]
fn replay_source_removes_its_temporary_directory() {
    let dir = scratch("honest-tmp");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let src = dir.join("h.c");
    std::fs::write(&src, HARNESS).unwrap();
    let bc = compile(&src, &dir, &[]).unwrap();
    let out = dir.join("out");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let replay = |source: &Path| {
        Command::new(bin())
            .env("TMPDIR", &tmp)
            .args(["replay", "--source"])
            .arg(source)
            .arg(&out)
            .output()
            .unwrap()
    };
    let o = replay(&src);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(replay_dirs(&tmp), Vec::<String>::new());
    // A source that does not compile: an error, and no directory left.
    let broken = dir.join("broken.c");
    std::fs::write(&broken, "int main(void) { return }\n").unwrap();
    let o = replay(&broken);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(replay_dirs(&tmp), Vec::<String>::new());
    // SIGTERM while a test runs (the harness hangs until --timeout).
    let hang = dir.join("hang.c");
    std::fs::write(&hang, HARNESS.replace("return 1;", "for (;;) {}")).unwrap();
    let mut child = Command::new(bin())
        .env("TMPDIR", &tmp)
        .args(["replay", "--timeout", "3", "--source"])
        .arg(&hang)
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the harness is built (its directory exists), then signal.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while replay_dirs(&tmp).is_empty() || !tmp_has_harness(&tmp) {
        assert!(
            std::time::Instant::now() < deadline,
            "replay never built its harness"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
    assert_eq!(replay_dirs(&tmp), Vec::<String>::new());
}

fn tmp_has_harness(tmp: &Path) -> bool {
    replay_dirs(tmp)
        .iter()
        .any(|d| tmp.join(d).join("harness").is_file())
}
