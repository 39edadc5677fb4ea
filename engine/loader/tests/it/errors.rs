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

/// Valid IR with types inkwell cannot represent (target-extension types in
/// aggregates, parameters, operands and globals, `x86_amx` in a struct, `x86_mmx`
/// globals and values, `token` results):
/// the loader must not panic on them; what symtest cannot run lowers to
/// `Op::Unsupported`.
#[test]
fn exotic_types_do_not_panic() {
    const IR: &str = r#"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%S = type { target("foo"), i32 }
@a = external global [2 x target("foo")]
@s = external global %S
@amx = external global { x86_amx, i8 }
@mmx = global x86_mmx undef
@img = global target("spirv.Image") poison

define void @takes_ext(target("foo") %x) {
  ret void
}

define i32 @agg(%S %s, [2 x target("foo")] %arr) {
  %e = extractvalue %S %s, 0
  %i = extractvalue %S %s, 1
  %t = extractvalue [2 x target("foo")] %arr, 1
  call void @takes_ext(target("foo") %e)
  ret i32 %i
}

define void @conv() convergent {
  %t = call token @llvm.experimental.convergence.entry()
  ret void
}

define void @copy_mmx() {
  %v = load x86_mmx, ptr @mmx
  store x86_mmx %v, ptr @mmx
  ret void
}

declare token @llvm.experimental.convergence.entry()
"#;
    let dir = TempDir::new("exotic");
    let bc = assemble(&dir, "exotic", IR);
    let m = symtest_loader::load_bitcode(&bc).expect("valid IR loads");
    for name in ["takes_ext", "agg", "conv", "copy_mmx"] {
        assert!(m.function_by_name(name).is_some(), "{name}");
    }
    for name in ["a", "s", "amx", "mmx", "img"] {
        assert!(m.global_index.contains_key(name), "{name}");
    }
    assert_eq!(body(&m, "agg").insts.len(), 5);
}
