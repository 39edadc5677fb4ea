//! The engine runs every program against musl; its tests are replayed
//! natively against glibc (harnesses, and programs without `--max-fail`) or
//! musl (programs that inject system-call failures). Where the two C
//! libraries differ in what a program can see, the model answers as the
//! library of the replay (`libc-models/musl/src/internal/symtest_glibc.h`),
//! and what the model's world forbids (other processes) fails natively too,
//! as an allocation too large for any allocator does.

use crate::native_replay::native_build;
use crate::support::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// The exit codes of the tests a target kept, after its native runs agreed
/// with the engine.
fn agreed_exit_codes(dir: &Path, target: &str) -> BTreeSet<i64> {
    let out = dir.join("symtest-out").join(target);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(
        summary["native_disagreements"],
        Value::Array(vec![]),
        "{target}: {summary:#}"
    );
    test_jsons(&out)
        .iter()
        .filter_map(|t| t["outcome"]["exit"]["code"].as_i64())
        .collect()
}

/// `tests/posix/number_parse.c`: strtol, strtod, sscanf and wcstol of input
/// without digits set errno to EINVAL in musl, not in glibc, and atoi of a
/// number past a long's range wraps around in musl and saturates in glibc.
/// Replayed against glibc, the engine takes glibc's side (exits 9 and 1);
/// with `--max-fail`, replayed against musl, musl's (exits 10 and 13). Each
/// target's native runs agree with the engine: delay's `strtol()` check
/// exited 10 in the engine and 9 natively. The same project has
/// `tests/posix/kill_other.c`, whose suite runs in the model's world, and
/// `tests/posix/huge_alloc.c`, whose malloc no allocator can grant.
#[test]
fn number_parsing_follows_the_libc_of_the_replay() {
    let dir = scratch("libc-rules-project");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    for f in ["number_parse.c", "kill_other.c", "huge_alloc.c"] {
        std::fs::copy(
            workspace().join("tests/posix").join(f),
            dir.join("src").join(f),
        )
        .unwrap();
    }
    let target = |name: &str, src: &str, args: &str| {
        format!(
            "[[target]]\nname = \"{name}\"\nkind = \"program\"\nsources = [\"src/{src}\"]\n\
             args = [\"--sym-args\", \"1\", \"1\", \"2\"{args}]\nmax-time = 15\n"
        )
    };
    std::fs::write(
        dir.join("symtest.toml"),
        target("parse", "number_parse.c", "")
            + &target("parse_musl", "number_parse.c", ", \"--max-fail\", \"1\"")
            + &target("kill", "kill_other.c", "")
            + &target("alloc", "huge_alloc.c", ""),
    )
    .unwrap();
    let o = symtest_in(&dir, &["--jobs", "1"]);
    assert!(o.status.success(), "{}", shown(&o));

    let glibc = agreed_exit_codes(&dir, "parse");
    assert!(glibc.contains(&9) && glibc.contains(&1), "{glibc:?}");
    assert!(glibc.iter().all(|c| !(10..=13).contains(c)), "{glibc:?}");
    let musl = agreed_exit_codes(&dir, "parse_musl");
    assert!(musl.contains(&10), "{musl:?}");
    assert!(!musl.contains(&9) && !musl.contains(&1), "{musl:?}");

    let kill = agreed_exit_codes(&dir, "kill");
    assert!(kill.contains(&0) && kill.contains(&3), "{kill:?}");
    assert!(!kill.contains(&5) && !kill.contains(&6), "{kill:?}");

    // malloc of 128 TiB returns NULL natively too (the suite's
    // AddressSanitizer options): exit 1 in both, no SIGABRT.
    let alloc = agreed_exit_codes(&dir, "alloc");
    assert!(alloc.contains(&0) && alloc.contains(&1), "{alloc:?}");
}

/// `tests/posix/kill_other.c` through `exec` and `replay --native`: kill of
/// another process (pid 1, alive on the host) or of every process fails
/// with ESRCH in the engine and natively, a probe of the program itself
/// succeeds in both (the engine answered ENOSYS, and natively `pv -d 1`
/// watched the host's init until the timeout).
#[test]
fn signals_to_other_processes_fail_in_the_engine_and_natively() {
    let dir = scratch("libc-rules-kill");
    let src = workspace().join("tests/posix/kill_other.c");
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    posix_exec(&bc, &out, &[], &["--sym-args", "1", "1", "1"]);
    let prog = native_build(&src, &dir, &[]);
    let (summary, runs) = replay_json(&prog, &out, 5, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
    let tests = test_jsons(&out);
    let printed: BTreeSet<&str> = tests.iter().filter_map(|t| t["stdout"].as_str()).collect();
    assert!(printed.contains("0 is alive\n"), "{tests:#?}");
    assert!(printed.contains("no process 1\n"), "{tests:#?}");
}
