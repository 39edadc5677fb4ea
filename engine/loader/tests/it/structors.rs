//! `@llvm.global_ctors`/`@llvm.global_dtors`: main runs the constructors first
//! (once) and the destructors at its outermost return or at `exit`.

use symtest_ir::{Callee, Module, Op};

use crate::common::*;

/// Names of the functions `func` calls directly, in order.
fn calls(m: &Module, func: &str) -> Vec<String> {
    body(m, func)
        .insts
        .iter()
        .filter_map(|i| match &i.op {
            Op::Call {
                callee: Callee::Direct(f),
                ..
            } => Some(m.function(*f).name.clone()),
            _ => None,
        })
        .collect()
}

const STRUCTORS: &str = r#"
@llvm.global_ctors = appending global [5 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 65535, ptr @c_default_a, ptr null },
  { i32, ptr, ptr } { i32 102, ptr @c102, ptr null },
  { i32, ptr, ptr } { i32 65535, ptr null, ptr null },
  { i32, ptr, ptr } { i32 101, ptr @c101_alias, ptr null },
  { i32, ptr, ptr } { i32 65535, ptr @c_default_b, ptr null }]
@llvm.global_dtors = appending global [3 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 101, ptr @d101, ptr null },
  { i32, ptr, ptr } { i32 65535, ptr @d_default, ptr null },
  { i32, ptr, ptr } { i32 102, ptr @d102, ptr null }]
@c101_alias = alias void (), ptr @c101

define void @c_default_a() { ret void }
define void @c_default_b() { ret void }
define void @c101() { ret void }
define void @c102(i32 %argc, ptr %argv) { ret void }
define void @d101() { ret void }
define void @d102() { ret void }
define void @d_default() { ret void }
declare void @exit(i32)

define i32 @main(i32 %argc, ptr %argv) {
entry:
  %x = alloca i32
  %c = icmp eq i32 %argc, 3
  br i1 %c, label %quit, label %back
quit:
  call void @exit(i32 3)
  unreachable
back:
  %r = call i32 @main(i32 0, ptr null)
  ret i32 %r
}
"#;

#[test]
fn constructors_run_first_once_and_destructors_at_the_end() {
    let dir = TempDir::new("structors");
    let bc = assemble(&dir, "structors", STRUCTORS);
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    // Ascending priority, equal ones in array order, null skipped, the
    // alias resolved.
    assert_eq!(
        calls(&m, "__symtest_global_init"),
        ["c101", "c102", "c_default_a", "c_default_b"]
    );
    // Descending priority: the reverse of that order.
    assert_eq!(
        calls(&m, "__symtest_global_dtors"),
        ["d_default", "d102", "d101"]
    );
    // main: the constructors first, the destructors before the engine's exit
    // (no exit defined: no atexit handlers can exist) and at the return (of
    // the first call only: `__symtest_main_returns` is given init's result).
    assert_eq!(
        calls(&m, "main"),
        [
            "__symtest_global_init",
            "__symtest_global_dtors",
            "exit",
            "main",
            "__symtest_main_returns"
        ]
    );
    assert_eq!(
        calls(&m, "__symtest_main_returns"),
        ["__symtest_global_dtors"]
    );
    // c102 gets main's argc and argv, as glibc passes them.
    let init = body(&m, "__symtest_global_init");
    let c102 = m.function_by_name("c102").unwrap();
    let args = init
        .insts
        .iter()
        .find_map(|i| match &i.op {
            Op::Call {
                callee: Callee::Direct(f),
                args,
                ..
            } if *f == c102 => Some(args.len()),
            _ => None,
        })
        .unwrap();
    assert_eq!(args, 2);
}

#[test]
fn modules_without_structors_are_untouched() {
    let dir = TempDir::new("structors-none");
    let ir = "define i32 @main() {\n  ret i32 0\n}\n";
    let bc = assemble(&dir, "plain", ir);
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    assert!(m.function_by_name("__symtest_global_init").is_none());
    assert!(calls(&m, "main").is_empty());
}

#[test]
fn a_libc_exit_runs_the_destructors_after_the_atexit_handlers() {
    let dir = TempDir::new("structors-libc");
    let ir = r#"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 65535, ptr @c, ptr null }]
@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 65535, ptr @d, ptr null }]
define void @c() { ret void }
define void @d() { ret void }
define void @exit(i32 %s) { unreachable }
define i32 @atexit(ptr %f) { ret i32 0 }
define i32 @main() { ret i32 0 }
"#;
    let bc = assemble(&dir, "libc", ir);
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    // Registered before the constructors run (a handler a constructor
    // registers runs before the destructors); main's return is exit.
    assert_eq!(calls(&m, "__symtest_global_init"), ["atexit", "c"]);
    assert_eq!(calls(&m, "__symtest_main_returns"), ["exit"]);
    assert!(calls(&m, "exit").is_empty());
}
