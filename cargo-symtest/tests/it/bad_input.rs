//! Bad input gets a one-line cause, exit code 2, and never a panic.

use crate::support::*;

fn assert_clean_failure(args: &[&str], needle: &str) {
    let out = symtest(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "args {args:?}: stderr {stderr}");
    assert!(!stderr.contains("panicked"), "panic for {args:?}: {stderr}");
    assert!(
        !stderr.contains("RUST_BACKTRACE"),
        "backtrace for {args:?}: {stderr}"
    );
    assert!(
        stderr.contains(needle),
        "expected `{needle}` for {args:?}, got: {stderr}"
    );
}

#[test]
fn not_bitcode_missing_file_and_absurd_options() {
    let dir = scratch("bad_input");
    let text = dir.join("notes.txt");
    std::fs::write(&text, "hello, I am not bitcode\n").unwrap();
    let t = text.to_str().unwrap();
    assert_clean_failure(&["exec", t], "not LLVM bitcode");
    assert_clean_failure(&["exec", "/nonexistent/prog.bc"], "/nonexistent/prog.bc");
    assert_clean_failure(&["inspect", t], "not LLVM bitcode");

    let src = dir.join("ok.c");
    std::fs::write(&src, "int helper(int x) { return x + 1; }\n").unwrap();
    let bc = compile(&src, &dir, &[]).unwrap();
    let bc = bc.to_str().unwrap();
    // No main.
    assert_clean_failure(
        &["exec", bc, "--output-dir", dir.join("o1").to_str().unwrap()],
        "entry function `main` not found",
    );
    assert_clean_failure(&["exec", bc, "--max-time=-3"], "--max-time");
    assert_clean_failure(
        &["exec", bc, "--search", "sideways"],
        "unknown searcher `sideways`",
    );
    assert_clean_failure(
        &["exec", bc, "--batch-instructions", "0"],
        "--batch-instructions",
    );
    assert_clean_failure(&["exec", bc, "--max-instructions", "lots"], "invalid value");
    assert_clean_failure(&["show", t], "KTEST");
}
