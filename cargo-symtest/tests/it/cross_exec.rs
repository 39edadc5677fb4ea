//! `exec --crosscheck` (paper §5.5): two programs in one module, each path
//! running the first, then the second from the same symbolic inputs, with
//! their exit statuses and standard outputs compared by the solver
//! (`engine/executor/src/crosscheck.rs`).

use crate::support::*;
use serde_json::Value;
use std::path::Path;

fn fixture(name: &str) -> std::path::PathBuf {
    workspace().join("tests/crosscheck").join(name)
}

fn stats(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap()
}

fn count(s: &Value, key: &str) -> u64 {
    s[key].as_u64().unwrap_or_else(|| panic!("{key} in {s:#}"))
}

/// Two upper-casing tools that differ on one class of input ('z'): every
/// mismatch test's argument holds a 'z' and makes the outputs differ as the
/// message says; every other pair is proven equal.
#[test]
fn one_input_class_differs_and_the_rest_is_proven_equal() {
    let dir = scratch("cross-exec-upper");
    let a = cc_bitcode(&fixture("upper_a.c"), &dir);
    let b = cc_bitcode(&fixture("upper_b.c"), &dir);
    let out = dir.join("out");
    posix_exec(
        &a,
        &out,
        &["--crosscheck", b.to_str().unwrap(), "--max-time", "60"],
        &["--sym-arg", "2"],
    );
    let s = stats(&out);
    let (pairs, equal, mismatches) = (
        count(&s, "crosscheck_pairs"),
        count(&s, "crosscheck_equal"),
        count(&s, "crosscheck_mismatches"),
    );
    assert!(mismatches >= 1, "{s:#}");
    assert!(equal >= 1, "{s:#}");
    assert_eq!(pairs, equal + mismatches, "{s:#}");
    let tests = test_jsons(&out);
    let mismatch_tests: Vec<&Value> = tests
        .iter()
        .filter(|t| t["outcome"]["error"]["kind"] == "mismatch")
        .collect();
    assert_eq!(mismatch_tests.len() as u64, mismatches, "one test per pair");
    for t in &mismatch_tests {
        let arg = t["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "arg00")
            .expect("the argument");
        let bytes = hex(arg["hex"].as_str().unwrap());
        let word: Vec<u8> = bytes.iter().copied().take_while(|&c| c != 0).collect();
        assert!(word.contains(&b'z'), "{t:#}");
        let message = t["outcome"]["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("outputs differ: standard output differs at byte"),
            "{message}"
        );
    }
    // Equal pairs are no findings: the only errors are the mismatches.
    assert_eq!(count(&s, "errors"), mismatches, "{s:#}");
}

/// The same program twice: every pair is proven equal.
#[test]
fn identical_programs_are_proven_equal_on_every_path() {
    let dir = scratch("cross-exec-same");
    let a = cc_bitcode(&fixture("upper_a.c"), &dir);
    let out = dir.join("out");
    posix_exec(
        &a,
        &out,
        &["--crosscheck", a.to_str().unwrap(), "--max-time", "60"],
        &["--sym-args", "0", "2", "2", "--sym-stdin", "4"],
    );
    let s = stats(&out);
    assert!(count(&s, "crosscheck_pairs") > 1, "{s:#}");
    assert_eq!(
        count(&s, "crosscheck_equal"),
        count(&s, "crosscheck_pairs"),
        "{s:#}"
    );
    assert_eq!(count(&s, "crosscheck_mismatches"), 0, "{s:#}");
    assert_eq!(count(&s, "errors"), 0, "{s:#}");
}

/// Figure 11 of the paper: `mod` and `mod_opt` are proven equal on every
/// path where y != 0; y == 0 is `mod`'s division by zero.
#[test]
fn figure_11_mod_and_mod_opt_are_equal_where_y_is_not_zero() {
    let dir = scratch("cross-exec-mod");
    let a = cc_bitcode(&fixture("mod.c"), &dir);
    let b = cc_bitcode(&fixture("mod_opt.c"), &dir);
    let out = dir.join("out");
    posix_exec(
        &a,
        &out,
        &["--crosscheck", b.to_str().unwrap(), "--max-time", "60"],
        &[],
    );
    let s = stats(&out);
    assert!(count(&s, "crosscheck_pairs") >= 1, "{s:#}");
    assert_eq!(
        count(&s, "crosscheck_equal"),
        count(&s, "crosscheck_pairs"),
        "{s:#}"
    );
    assert_eq!(count(&s, "crosscheck_mismatches"), 0, "{s:#}");
    let divs: Vec<Value> = test_jsons(&out)
        .into_iter()
        .filter(|t| t["outcome"]["error"]["kind"] == "div")
        .collect();
    assert_eq!(divs.len(), 1, "{s:#}");
    let y = divs[0]["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "y")
        .unwrap()["hex"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(y, "00000000");
}

/// A second program that is not bitcode, and --crosscheck without the
/// POSIX runtime, are clear errors.
#[test]
fn bad_crosscheck_input_is_a_clear_error() {
    let dir = scratch("cross-exec-bad");
    let a = cc_bitcode(&fixture("mod.c"), &dir);
    let junk = dir.join("junk.bc");
    std::fs::write(&junk, "not bitcode").unwrap();
    let o = symtest(&[
        "exec",
        a.to_str().unwrap(),
        "--output-dir",
        dir.join("o1").to_str().unwrap(),
        "--libc=musl",
        "--posix-runtime",
        "--crosscheck",
        junk.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("junk.bc"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let o = symtest(&[
        "exec",
        a.to_str().unwrap(),
        "--output-dir",
        dir.join("o2").to_str().unwrap(),
        "--libc=musl",
        "--crosscheck",
        a.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--posix-runtime"), "{err}");
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}
