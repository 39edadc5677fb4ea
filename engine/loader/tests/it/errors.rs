//! Bad input: every failure is a `LoadError` with a one-line message naming the
//! cause and a fix; nothing panics.

use symtest_loader::{load_bitcode, load_bitcode_bytes, LoadError};

use crate::common::*;

fn assert_one_line(e: &LoadError, fix: &str) {
    let msg = e.to_string();
    assert!(!msg.contains('\n'), "multi-line message: {msg}");
    assert!(msg.contains(fix), "message should suggest `{fix}`: {msg}");
}

#[test]
fn missing_file_is_io() {
    let dir = TempDir::new("missing");
    let e = load_bitcode(&dir.path("nope.bc")).unwrap_err();
    assert!(matches!(e, LoadError::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("nope.bc"));
    assert_one_line(&e, "check that the path exists");
}

#[test]
fn text_file_is_not_bitcode() {
    let e = load_bitcode(&fixture("smoke.c")).unwrap_err();
    assert!(matches!(e, LoadError::NotBitcode { .. }), "{e:?}");
    assert!(e.to_string().contains("smoke.c"));
    assert_one_line(&e, "clang-19 -emit-llvm");
}

#[test]
fn truncated_and_corrupted_bitcode_are_parse_errors() {
    let dir = TempDir::new("trunc");
    let bc = compile(&dir, "smoke.c", O0);
    let bytes = std::fs::read(&bc).unwrap();
    assert!(load_bitcode_bytes(&bytes, "whole.bc").is_ok());
    // Truncations at many points, from just after the magic to one byte short.
    let mut cuts: Vec<usize> = (4..64).collect();
    cuts.extend((1..40).map(|k| bytes.len() * k / 40));
    cuts.push(bytes.len() - 1);
    for cut in cuts {
        let e = load_bitcode_bytes(&bytes[..cut], "cut.bc").unwrap_err();
        assert!(matches!(e, LoadError::Parse { .. }), "cut at {cut}: {e:?}");
        assert_one_line(&e, "clang-19");
    }
    // A truncated file on disk, through the path API.
    let cut = dir.path("cut.bc");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let e = load_bitcode(&cut).unwrap_err();
    assert!(matches!(e, LoadError::Parse { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("cut.bc"), "{msg}");
    assert!(msg.contains("different LLVM version"), "{msg}");
}

#[test]
fn thirty_two_bit_targets_are_unsupported() {
    let dir = TempDir::new("i386");
    let bc = compile(&dir, "smoke.c", &["-O0", "--target=i386-pc-linux-gnu"]);
    let e = load_bitcode(&bc).unwrap_err();
    assert!(matches!(e, LoadError::Unsupported { .. }), "{e:?}");
    assert!(e.to_string().contains("i386"), "{e}");
    assert_one_line(&e, "x86-64");
}

#[test]
fn wrapped_bitcode_is_accepted() {
    // Darwin targets put a wrapper header (0x0B17C0DE) before the bitcode.
    let dir = TempDir::new("wrapper");
    let bc = compile(&dir, "smoke.c", &["-O0", "--target=x86_64-apple-macosx11"]);
    let bytes = std::fs::read(&bc).unwrap();
    assert_eq!(&bytes[..4], &[0xde, 0xc0, 0x17, 0x0b]);
    let m = load_bitcode(&bc).expect("wrapped bitcode loads");
    assert!(m.function_by_name("divide").is_some());
}
