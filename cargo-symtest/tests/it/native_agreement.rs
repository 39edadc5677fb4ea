//! Outcomes the engine recorded that the native run of the same inputs did
//! not reproduce, found in the corpus of real packages (toybox, libtar), each
//! as a small program explored with every path's test and replayed natively:
//! every test must agree, output included.

use crate::native_replay::native_build;
use crate::support::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Explores `tests/posix/<name>.c` with `--sym-stdin 1`, one test per path.
fn explore(name: &str, dir: &Path) -> PathBuf {
    let src = workspace().join(format!("tests/posix/{name}.c"));
    let bc = cc_bitcode(&src, dir);
    let out = dir.join("out");
    posix_exec(&bc, &out, &["--emit-all"], &["--sym-stdin", "1"]);
    out
}

/// The program built natively against the host's C library (glibc), as the
/// pipeline replays programs without `--max-fail`.
fn glibc_build(name: &str, dir: &Path) -> PathBuf {
    let src = workspace().join(format!("tests/posix/{name}.c"));
    let exe = dir.join(format!("{name}-glibc"));
    let o = Command::new("clang-19")
        .args(["-w", "-O0"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run clang-19");
    assert!(o.status.success(), "{}", shown(&o));
    exe
}

/// Replays every test of `out` on `prog`; all must agree (outcome and
/// output). Returns each test's (stdin byte, outcome record, stdout).
fn all_agree(prog: &Path, out: &Path) -> Vec<(u8, Value, String)> {
    let (summary, runs) = replay_json(prog, out, 10, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
    assert_eq!(summary["passed"].as_u64(), Some(runs.len() as u64));
    test_jsons(out)
        .iter()
        .map(|t| {
            let stdin = t["objects"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == "stdin")
                .and_then(|o| o["hex"].as_str())
                .map_or(0, |h| u8::from_str_radix(&h[..2], 16).unwrap());
            let stdout = t["stdout"].as_str().unwrap_or("").to_string();
            (stdin, t["outcome"].clone(), stdout)
        })
        .collect()
}

fn path_of(paths: &[(u8, Value, String)], c: u8) -> (Value, String) {
    let p = paths
        .iter()
        .find(|p| p.0 == c)
        .unwrap_or_else(|| panic!("no path read {:?}: {paths:#?}", c as char));
    (p.1.clone(), p.2.clone())
}

/// toybox bounds its recursion by the distance between a local of main and
/// one of the current frame (`tests/posix/stack_depth.c`): a returned
/// frame's stack addresses are the next call's, as natively, so after 300
/// calls the stack is still shallow (every call's locals took fresh
/// addresses, the bound tripped and `su` exited 126 where natively it ran
/// its command).
#[test]
fn a_recursion_bound_on_the_stack_distance_holds_as_natively() {
    let dir = scratch("agree-stack-depth");
    let out = explore("stack_depth", &dir);
    let src = workspace().join("tests/posix/stack_depth.c");
    let paths = all_agree(&native_build(&src, &dir, &[]), &out);
    let (outcome, stdout) = path_of(&paths, b'd');
    assert_eq!(outcome["exit"]["code"], 0, "{paths:#?}");
    assert_eq!(stdout, "shallow\n");
}

/// A null table indexed by a bucket number of about 2^25 (libtar's hash
/// iterator; `tests/posix/null_table.c`): the address lies in no object,
/// a `ptr` error that natively is a SIGSEGV (the engine's globals started
/// at 256 MiB, the read returned a global's byte and the path exited 0).
#[test]
fn a_null_table_read_far_from_zero_is_an_error_as_natively() {
    let dir = scratch("agree-null-table");
    let out = explore("null_table", &dir);
    let src = workspace().join("tests/posix/null_table.c");
    let paths = all_agree(&native_build(&src, &dir, &[]), &out);
    let (outcome, _) = path_of(&paths, b'n');
    assert_eq!(outcome["error"]["kind"], "ptr", "{paths:#?}");
}

/// strftime of "%<c>" for every byte c, replayed against glibc
/// (`tests/posix/strftime_formats.c`): the model's strftime follows glibc's
/// rules, so every path prints what glibc prints (toybox's `date +%:`
/// exited 1, "bad format", in the engine, as musl fails on a conversion it
/// does not know, and printed "%:" natively).
#[test]
fn strftime_follows_glibc_for_every_conversion() {
    let dir = scratch("agree-strftime");
    let out = explore("strftime_formats", &dir);
    let paths = all_agree(&glibc_build("strftime_formats", &dir), &out);
    assert!(paths.len() >= 50, "one path per conversion: {paths:#?}");
    // Each path stands for the bytes that take it; glibc's extensions and
    // flags have their own.
    for (c, printed) in [
        (0, "[%] 1\n"),
        (b'E', "[%E] 2\n"),
        (b'k', "[17] 2\n"),
        (b'P', "[pm] 2\n"),
        (b'C', "[20] 2\n"),
        (b'5', "[   %5] 5\n"),
    ] {
        assert_eq!(path_of(&paths, c).1, printed, "%{}", c as char);
    }
    // Unknown conversions (':' among them) share a path that copies them.
    let known = b"aAbBcCdDeFgGhHIjklmMnpPrRsStTuUVwWxXyYzZ%EO^#_-0123456789\0";
    assert!(
        paths.iter().any(|(c, outcome, stdout)| !known.contains(c)
            && outcome["exit"]["code"] == 0
            && *stdout == format!("[%{}] 2\n", *c as char)),
        "{paths:#?}"
    );
}

/// The default locale and named ones (`tests/posix/locale_default.c`, as
/// toybox's commands set theirs up): under glibc's rules the default is C
/// and no other locale is granted, natively too (the host's compiled
/// locales are hidden from the program), so a pattern with a byte that is
/// not UTF-8 compiles (toybox's `nl -bp` exited 1 in the engine, where musl
/// had granted en_US.UTF-8, and natively went on).
#[test]
fn the_locale_a_program_gets_is_glibc_s_natively_and_in_the_engine() {
    let dir = scratch("agree-locale");
    let out = explore("locale_default", &dir);
    let paths = all_agree(&glibc_build("locale_default", &dir), &out);
    let (outcome, stdout) = path_of(&paths, b'l');
    assert_eq!(outcome["exit"]["code"], 0, "{paths:#?}");
    assert_eq!(
        stdout,
        "default C (ANSI_X3.4-1968), en_US.UTF-8 refused, C.UTF-8 refused, pattern compiled\n"
    );
}

/// The same two programs in a project, replayed by the pipeline against
/// glibc and, with `--max-fail`, against musl, whose rules the model keeps
/// there: no target has a native disagreement.
#[test]
fn strftime_and_locales_agree_with_either_libc_of_the_replay() {
    let dir = scratch("agree-libc-project");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let mut toml = String::new();
    for (name, src) in [
        ("formats", "strftime_formats.c"),
        ("locale", "locale_default.c"),
    ] {
        std::fs::copy(
            workspace().join("tests/posix").join(src),
            dir.join("src").join(src),
        )
        .unwrap();
        for (suffix, extra) in [("", ""), ("_musl", ", \"--max-fail\", \"1\"")] {
            toml += &format!(
                "[[target]]\nname = \"{name}{suffix}\"\nkind = \"program\"\n\
                 sources = [\"src/{src}\"]\nargs = [\"--sym-stdin\", \"1\"{extra}]\n\
                 max-time = 20\n"
            );
        }
    }
    std::fs::write(dir.join("symtest.toml"), toml).unwrap();
    let o = symtest_in(&dir, &["--jobs", "2"]);
    assert!(o.status.success(), "{}", shown(&o));
    for target in ["formats", "formats_musl", "locale", "locale_musl"] {
        let summary: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("symtest-out").join(target).join("summary.json"))
                .unwrap(),
        )
        .unwrap();
        assert_eq!(
            summary["native_disagreements"],
            Value::Array(vec![]),
            "{target}: {summary:#}"
        );
    }
}

/// A table read 10 elements before its start (`tests/posix/heap_neighbour.c`,
/// libtar's hash iterator with a negative bucket count), replayed by the
/// pipeline under AddressSanitizer: a page lies free after every heap
/// object, so the read is a `ptr` error in the engine as natively it faults
/// (64 bytes apart, the engine read the struct allocated before the table,
/// exit 1, and natively the run died of SIGSEGV).
#[test]
fn a_read_before_a_heap_object_is_an_error_as_natively() {
    pipeline_finds_a_ptr_error_with_no_disagreement(
        "agree-heap-neighbour",
        "heap_neighbour",
        "hn",
        &["--sym-stdin", "1"],
        20,
    );
}

/// `cargo symtest` on the program project of `tests/posix/<program>.c`
/// (target `target`): every native run agrees with the engine, and a test
/// reports a `ptr` error.
fn pipeline_finds_a_ptr_error_with_no_disagreement(
    scratch_name: &str,
    program: &str,
    target: &str,
    args: &[&str],
    budget_s: u32,
) {
    let (_, out, _) = pipeline_agrees(scratch_name, program, target, args, budget_s);
    let tests = test_jsons(&out);
    assert!(
        tests.iter().any(|t| t["outcome"]["error"]["kind"] == "ptr"),
        "{tests:#?}"
    );
}

/// `cargo symtest` on the program project of `tests/posix/<program>.c`
/// (target `target`) succeeds with no native disagreement: (project,
/// output directory, summary).
fn pipeline_agrees(
    scratch_name: &str,
    program: &str,
    target: &str,
    args: &[&str],
    budget_s: u32,
) -> (PathBuf, PathBuf, Value) {
    let dir = posix_project(scratch_name, program, target, args, budget_s);
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    let out = dir.join("symtest-out").join(target);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(
        summary["native_disagreements"],
        Value::Array(vec![]),
        "{summary:#}"
    );
    (dir, out, summary)
}

/// A table pointer made nullable by a multiplication, not a branch, and
/// indexed by a 32-bit bucket number (`tests/posix/nullable_table.c`, as a
/// generated library harness passes libtar's hash table): the pointer is
/// derived from the table, so a bucket outside it is an out-of-bounds access
/// and a NULL table a null pointer dereference, as natively they are reports
/// of AddressSanitizer (the engine resolved each address to whatever object
/// held it, buckets of a few thousand read other heap objects there and the
/// paths exited 0 or 1). Every path's test, and the pipeline's replay under
/// AddressSanitizer agrees.
#[test]
fn an_index_into_a_nullable_table_stays_in_the_table_as_natively() {
    let dir = scratch("agree-nullable-table-paths");
    let src = workspace().join("tests/posix/nullable_table.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    posix_exec(&bc, &out, &["--emit-all"], &["--sym-stdin", "5"]);
    let tests = test_jsons(&out);
    let messages: Vec<&str> = tests
        .iter()
        .filter_map(|t| t["outcome"]["error"]["message"].as_str())
        .collect();
    assert!(messages.contains(&"null pointer dereference"), "{tests:#?}");
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("out-of-bounds access")),
        "{tests:#?}"
    );
    // Every path that read a slot read one of the table's 16.
    for t in &tests {
        let Some(line) = t["stdout"].as_str().and_then(|s| s.strip_prefix("bucket ")) else {
            continue;
        };
        let bucket: i64 = line.split(':').next().unwrap().parse().unwrap();
        assert!((0..16).contains(&bucket), "{tests:#?}");
    }

    pipeline_finds_a_ptr_error_with_no_disagreement(
        "agree-nullable-table",
        "nullable_table",
        "nt",
        &["--sym-stdin", "5"],
        30,
    );
}

/// Setting or adjusting the clock (`tests/posix/set_clock.c`): the model has
/// no such call, and natively the world filter refuses it too, against musl
/// and glibc (as root, a replay of toybox's `date 0:0` set the host's clock
/// where the engine had recorded "cannot set date").
#[test]
fn the_clock_is_set_neither_in_the_engine_nor_natively() {
    refused_in_both("set_clock", b"ca", None);
}

/// `tests/posix/<name>.c` explored, then replayed against musl and glibc:
/// each input byte of `inputs` took the path whose call failed with ENOSYS
/// in the engine and natively ("c: no such call"), exiting `code` if given.
fn refused_in_both(name: &str, inputs: &[u8], code: Option<i64>) {
    let dir = scratch(&format!("agree-{name}"));
    let out = explore(name, &dir);
    let src = workspace().join(format!("tests/posix/{name}.c"));
    for prog in [native_build(&src, &dir, &[]), glibc_build(name, &dir)] {
        let paths = all_agree(&prog, &out);
        for &c in inputs {
            let (outcome, stdout) = path_of(&paths, c);
            assert_eq!(stdout, format!("{}: no such call\n", c as char));
            if let Some(code) = code {
                assert_eq!(outcome["exit"]["code"], code, "{paths:#?}");
            }
        }
    }
}

/// `tests/posix/<name>.c` explored, then replayed against musl and glibc:
/// each input byte of `unchanged` took the path whose change the model
/// refuses (EPERM) in the engine and natively ("c: not changed", exit 1),
/// and each `(byte, line)` of `reads` printed what the model answers.
fn answered_as_in_the_model(name: &str, unchanged: &[u8], reads: &[(u8, String)]) {
    let dir = scratch(&format!("agree-{name}"));
    let out = explore(name, &dir);
    let src = workspace().join(format!("tests/posix/{name}.c"));
    for prog in [native_build(&src, &dir, &[]), glibc_build(name, &dir)] {
        let paths = all_agree(&prog, &out);
        for &c in unchanged {
            let (outcome, stdout) = path_of(&paths, c);
            assert_eq!(stdout, format!("{}: not changed\n", c as char));
            assert_eq!(outcome["exit"]["code"], 1, "{paths:#?}");
        }
        for (c, line) in reads {
            assert_eq!(&path_of(&paths, *c).1, line, "{paths:#?}");
        }
    }
}

/// Resource limits (`tests/posix/rlimits.c`): the model reports fixed limits
/// and changes none (EPERM), and natively the world filter answers the
/// same, against musl and glibc, whatever the host's limits (pcretest -S 0
/// lowered its stack limit natively and went on, where the engine's
/// setrlimit failed and it exited 1).
#[test]
fn resource_limits_are_the_model_s_in_the_engine_and_natively() {
    let stack = format!("k: {} unlimited\n", 8u64 << 20);
    answered_as_in_the_model(
        "rlimits",
        b"sp",
        &[(b'n', "n: 1024 1024\n".into()), (b'k', stack)],
    );
}

/// The scheduling priority (`tests/posix/priority.c`): the model reports
/// nice 0 and changes no priority (EPERM), and natively the world filter
/// answers the same, against musl and glibc (toybox's `nice CMD` failed in
/// the engine and natively raised its niceness and ran on).
#[test]
fn the_priority_is_the_model_s_in_the_engine_and_natively() {
    answered_as_in_the_model("priority", b"ns", &[(b'g', "g: 0\n".into())]);
}

/// A signal the program sends itself through kill (`tests/posix/kill_self.c`):
/// the model does not deliver it (ENOSYS), and natively the world filter
/// answers the same, against musl and glibc (toybox's `kill +0` was killed
/// by its own SIGTERM natively, where the engine's kill failed).
#[test]
fn a_signal_to_itself_is_delivered_neither_in_the_engine_nor_natively() {
    refused_in_both("kill_self", b"tg", Some(1));
}

/// Making or removing a directory (`tests/posix/make_dirs.c`): the model has
/// no such call, and natively the world filter refuses it too, against musl
/// and glibc (libtar's mkdirhier(".") failed in the engine, and natively
/// went on with EEXIST into a null hash table the engine's path never
/// reached).
#[test]
fn directories_are_made_neither_in_the_engine_nor_natively() {
    refused_in_both("make_dirs", b".dar", Some(1));
}

/// System V IPC (`tests/posix/sysv_ipc.c`): the model has no message
/// queues, semaphores or shared memory, and natively the world filter
/// refuses them too, against musl and glibc (pv's remote control made a
/// real message queue natively and waited for a reply, past the suite's
/// timeout, where the engine's msgget failed).
#[test]
fn system_v_ipc_is_made_neither_in_the_engine_nor_natively() {
    refused_in_both("sysv_ipc", b"msh", Some(1));
}

/// The allocation limit (`tests/posix/alloc_limit.c`): 1 GiB on every
/// machine, so a request above it is NULL in the engine, in the native
/// build without AddressSanitizer (`cc --native`: the link's malloc wraps)
/// and in the pipeline's suite under AddressSanitizer, and one at the limit
/// succeeds in all of them (the engine granted what the machine's memory
/// allowed: libvidstab's 16 GiB buffer, zeroed at no cost in the engine,
/// took natively longer than the test's timeout).
#[test]
fn an_allocation_above_the_limit_is_null_in_the_engine_and_natively() {
    let dir = scratch("agree-alloc-limit");
    let out = explore("alloc_limit", &dir);
    let src = workspace().join("tests/posix/alloc_limit.c");
    let paths = all_agree(&native_build(&src, &dir, &[]), &out);
    for (c, printed, code) in [
        (b'g', "2 GiB: NULL\n", 3),
        (b'c', "calloc 2 x 1 GiB: NULL\n", 3),
        (b'm', "1 GiB + 1: NULL\n", 3),
        (b'l', "1 GiB: granted\n", 4),
    ] {
        let (outcome, stdout) = path_of(&paths, c);
        assert_eq!(stdout, printed, "{paths:#?}");
        assert_eq!(outcome["exit"]["code"], code, "{paths:#?}");
    }

    let (_, out, _) = pipeline_agrees(
        "agree-alloc-limit-pipeline",
        "alloc_limit",
        "al",
        &["--sym-stdin", "1"],
        20,
    );
    // The tests the pipeline wrote (one per new path) ended with NULL and
    // with a grant.
    let codes: Vec<Value> = test_jsons(&out)
        .iter()
        .map(|t| t["outcome"]["exit"]["code"].clone())
        .collect();
    assert!(
        codes.contains(&Value::from(3)) && codes.contains(&Value::from(4)),
        "{codes:?}"
    );
}

/// `exec --max-alloc-size` other than the default is recorded in each test's
/// JSON, and the native replay enforces it (1 GiB + 1 is granted under a
/// limit of 1 GiB + 1 MiB, 2 GiB is not); a limit that is not a whole
/// number of MiB, the unit of AddressSanitizer's, is refused.
#[test]
fn a_run_s_own_allocation_limit_holds_in_its_native_replay() {
    let dir = scratch("agree-alloc-limit-own");
    let src = workspace().join("tests/posix/alloc_limit.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    let limit = (1u64 << 30) + (1 << 20);
    posix_exec(
        &bc,
        &out,
        &["--emit-all", "--max-alloc-size", &limit.to_string()],
        &["--sym-stdin", "1"],
    );
    let paths = all_agree(&native_build(&src, &dir, &[]), &out);
    assert_eq!(path_of(&paths, b'm').1, "1 GiB + 1: granted\n");
    assert_eq!(path_of(&paths, b'g').1, "2 GiB: NULL\n");
    assert!(test_jsons(&out)
        .iter()
        .all(|t| t["max_alloc_size"] == limit));

    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        dir.join("bad").to_str().unwrap(),
        "--max-alloc-size",
        "1000",
    ]);
    assert!(!o.status.success(), "{}", shown(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("--max-alloc-size 1000: give a whole number of MiB"),
        "{}",
        shown(&o)
    );
}

/// memcmp over a length past both buffers that differ before their ends
/// (`tests/posix/memcmp_first_difference.c`, libsv's `semver_id_pcmp` with
/// a made-up id's length): it reads up to the first difference in the
/// engine, and natively AddressSanitizer checks only the bytes compared
/// (`strict_memcmp=0`), so both paths end as the engine says (natively
/// ASan aborted on the whole length first: a heap overflow, a "negative
/// size").
#[test]
fn memcmp_reads_up_to_the_first_difference_as_natively() {
    let (dir, out, summary) = pipeline_agrees(
        "agree-memcmp",
        "memcmp_first_difference",
        "mc",
        &["--sym-stdin", "1"],
        20,
    );
    assert_eq!(summary["bugs"], Value::Array(vec![]), "{summary:#}");
    let codes: Vec<Value> = test_jsons(&out)
        .iter()
        .map(|t| t["outcome"]["exit"]["code"].clone())
        .collect();
    assert!(
        codes.contains(&Value::from(3)) && codes.contains(&Value::from(4)),
        "{codes:?}"
    );
    let o = Command::new("make")
        .arg("test")
        .current_dir(dir.join("tests/symtest/mc"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", shown(&o));
}

/// A pointer the library computed out of its object (libvorbis's
/// `vf->vc + vf->current_link` for a made-up `current_link`) is an
/// out-of-bounds access wherever the engine's heap puts another object at
/// that address: explored symbolically (its provenance), and also when the
/// path halted after computing it and was run to its end concretely — there
/// it used to read the other object and exit, where the native run of the
/// same input, whose heap is laid out otherwise, crashed.
#[test]
fn a_pointer_out_of_its_object_is_out_of_bounds_also_when_run_concretely() {
    let dir = scratch("agree-stray-pointer");
    let src = dir.join("stray.c");
    std::fs::write(
        &src,
        r#"#include <stdlib.h>
#include <string.h>
#include "symtest.h"
struct rec { long a, b, c, d; };
struct file { struct rec *recs; int cur; };
static struct rec *current(struct file *f) { return f->recs + f->cur; }
int main(void) {
  struct file *f = malloc(sizeof *f);
  char *other = malloc(64);
  memset(other, 7, 64);
  f->recs = calloc(1, sizeof(struct rec));
  symtest_make_symbolic(&f->cur, sizeof f->cur, "cur");
  struct rec *r = current(f);
  if ((char *)r >= other && (char *)r < other + 32) {
    unsigned long spin = 0;
    for (int i = 0; i < 10000; i++)
      spin += (unsigned long)i;
    return (int)(r->b + (long)(spin & 1));
  }
  return 0;
}
"#,
    )
    .unwrap();
    let bc = compile(&src, &dir, &[]).unwrap();
    let run = |name: &str, limit: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["exec", bc.to_str().unwrap(), "--output-dir"];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(limit);
        let o = symtest(&args);
        assert!(o.status.success(), "{}", shown(&o));
        test_jsons(&out)
    };
    let into_other = |t: &Value| {
        t["outcome"]["error"]["kind"] == "ptr"
            && t["outcome"]["error"]["message"].as_str().is_some_and(|m| {
                m.contains("outside `heap object allocated at") && m.contains("stray.c:11")
            })
    };
    // Explored to its end: the provenance of the symbolic pointer.
    let explored = run("explored", &[]);
    assert!(explored.iter().any(into_other), "{explored:#?}");
    // Halted inside the loop, then run concretely on the test's inputs.
    let halted = run("halted", &["--max-instructions", "5000"]);
    let completed: Vec<&Value> = halted
        .iter()
        .filter(|t| t["completed_after"].as_str().is_some())
        .collect();
    assert_eq!(completed.len(), 1, "{halted:#?}");
    assert!(into_other(completed[0]), "{:#}", completed[0]);
}
