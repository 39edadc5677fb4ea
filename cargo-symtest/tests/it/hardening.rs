//! Untrusted project files never run code: values of `symtest.toml` that
//! reach the emitted suite's Makefile and CMake file are quoted (and what
//! cannot be quoted is refused with file:line:key), checked by building and
//! running the emitted suite with make and with CMake.

use crate::support::*;
use std::path::Path;
use std::process::{Command, Output};

fn text(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Files whose name starts with `pwned` anywhere under `dir`.
fn pwned(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if e.file_name().to_string_lossy().starts_with("pwned") {
                found.push(p.display().to_string());
            }
        }
    }
    found
}

const HARNESS: &str = r#"#include "symtest.h"
int main(void) {
  const char *v[] = {PW, BQ, DD, HASH, SEMI, BS, PCT, SP, UNI, Q};
  unsigned total = 0;
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++)
    for (const char *p = v[i]; *p; p++)
      total++;
  int x = symtest_int("x");
  if (x == 7)
    return (int)(total & 1);
  return 0;
}
"#;

const CONFIG: &str = r#"[[target]]
name = "hostile"
kind = "harness"
sources = ["src/*.c"]
include = ["inc$(shell touch pwned_include)", "inc dir"]
defines = [
  'PW="$(shell touch pwned_define)"',
  'BQ="`touch pwned_backtick`"',
  'DD="$$(touch pwned_dollar)"',
  'HASH="a#b"',
  'SEMI="a;touch pwned_semicolon"',
  'BS="a\\b"',
  'PCT="100%"',
  'SP="a b"',
  'UNI="héllo wörld"',
  '''Q="it's"''',
]
cflags = ["-DCF=1;touch pwned_cflags", "-DCF2=`touch pwned_cflags2`"]
max-time = 3
"#;

#[test]
fn hostile_config_values_never_run_as_commands() {
    let dir = scratch("hardening-hostile");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/h.c"), HARNESS).unwrap();
    std::fs::write(dir.join("symtest.toml"), CONFIG).unwrap();
    let o = Command::new(bin())
        .args(["--max-time", "3"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        pwned(&dir),
        Vec::<String>::new(),
        "the pipeline ran a payload"
    );
    // The emitted suite builds and runs with make...
    let suite = dir.join("tests/symtest/hostile");
    let o = Command::new("make")
        .arg("test")
        .current_dir(&suite)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    // ...and with CMake.
    let cm = dir.join("cmake-build");
    std::fs::create_dir_all(cm.join("b")).unwrap();
    std::fs::write(
        cm.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.13)\nproject(h C)\ninclude({}/symtest.cmake)\n",
            suite.display()
        ),
    )
    .unwrap();
    for args in [
        &["cmake", "-DSYMTEST_SANITIZE=OFF", ".."][..],
        &["cmake", "--build", "."][..],
        &["ctest", "--output-on-failure"][..],
    ] {
        let o = Command::new(args[0])
            .args(&args[1..])
            .current_dir(cm.join("b"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", text(&o));
    }
    assert_eq!(pwned(&dir), Vec::<String>::new(), "a build ran a payload");
}

#[test]
fn values_no_build_file_can_carry_are_refused() {
    let dir = scratch("hardening-refused");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/ok.c"), HARNESS).unwrap();
    // A source file whose name make would execute.
    std::fs::write(dir.join("src/c$(shell touch pwned_name).c"), HARNESS).unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"t\"\nkind = \"harness\"\nsources = [\"src/*.c\"]\n",
    )
    .unwrap();
    let o = Command::new(bin()).current_dir(&dir).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("symtest.toml:4") && err.contains("sources"),
        "{err}"
    );
    assert!(err.contains("c$(shell touch pwned_name).c"), "{err}");
    // A line break in a define.
    std::fs::remove_file(dir.join("src/c$(shell touch pwned_name).c")).unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"t\"\nkind = \"harness\"\nsources = [\"src/*.c\"]\ndefines = [\"A=1\\nB=2\"]\n",
    )
    .unwrap();
    let o = Command::new(bin()).current_dir(&dir).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("defines") && err.contains("line break"),
        "{err}"
    );
    assert_eq!(pwned(&dir), Vec::<String>::new());
}

/// Durations out of range are usage errors (exit 2) wherever they are given,
/// never a panic or a failed target.
#[test]
fn durations_out_of_range_are_bad_input() {
    let dir = scratch("hardening-durations");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("src/ok.c"),
        HARNESS.replace("PW, BQ, DD, HASH, SEMI, BS, PCT, SP, UNI, Q", "\"a\""),
    )
    .unwrap();
    for (flag, v) in [
        ("--total-time", "1e300"),
        ("--max-time", "1e300"),
        ("--max-time", "5e9"),
        ("--max-time", "NaN"),
    ] {
        std::fs::write(
            dir.join("symtest.toml"),
            "[[target]]\nname = \"t\"\nkind = \"harness\"\nsources = [\"src/*.c\"]\n",
        )
        .unwrap();
        let o = Command::new(bin())
            .args([flag, v])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flag} {v}: {}", text(&o));
        assert!(
            !String::from_utf8_lossy(&o.stderr).contains("panicked"),
            "{}",
            text(&o)
        );
    }
    for v in ["1e300", "5e9", "-1"] {
        std::fs::write(
            dir.join("symtest.toml"),
            format!("[[target]]\nname = \"t\"\nkind = \"harness\"\nsources = [\"src/*.c\"]\nmax-time = {v}\n"),
        )
        .unwrap();
        let o = Command::new(bin()).current_dir(&dir).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "max-time = {v}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("symtest.toml:5") && err.contains("max-time"),
            "{err}"
        );
    }
    let o = symtest(&["exec", "nothing.bc", "--max-time", "1e300"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}
