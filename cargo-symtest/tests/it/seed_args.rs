//! Seeds with their own arguments (`exec --seed-own-args`): a run of the
//! program recorded from the project's tests is a `.ktest` whose `args` are
//! its own symbolic environment, shaped to the run; the engine starts a path
//! under those args that follows the seed, then explores around it (issue
//! #50, KLEE's seed mode with ZESTI's idea).

use crate::native_replay::native_build;
use crate::support::*;
use serde_json::Value;
use std::path::Path;
use symtest_ktest::{KTest, KTestObject};

/// `tests/seeds/header.c` as recorded: `header A` where A is a 16-byte file
/// whose 8-byte header hashes to the format's constant. The file's metadata
/// is left zero (a recording does not know the model's): the model's
/// assumptions repair it.
fn recorded_run(dir: &Path) -> std::path::PathBuf {
    let seed = KTest {
        args: ["header", "--sym-arg", "1", "--sym-files", "1", "16"]
            .map(String::from)
            .to_vec(),
        sym_argvs: 0,
        sym_argv_len: 0,
        objects: vec![
            KTestObject {
                name: "arg00".into(),
                bytes: b"A\0".to_vec(),
            },
            KTestObject {
                name: "A-data".into(),
                bytes: b"SYMTEST1ab345678".to_vec(),
            },
            KTestObject {
                name: "A-data-stat".into(),
                bytes: vec![0; 144],
            },
            KTestObject {
                name: "model_version".into(),
                bytes: 1i32.to_le_bytes().to_vec(),
            },
        ],
    };
    let p = dir.join("recorded.ktest");
    seed.write_to(&p).unwrap();
    p
}

fn stats(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap()
}

/// The parser's crash needs a valid header (a hash no solver inverts in
/// the budget) and two bytes after it: missed without the seed, found with
/// it at the same budget, its test run under the seed's own arguments and
/// reproduced natively.
#[test]
fn a_bug_a_few_bytes_from_a_seed_is_found_with_it_and_missed_without() {
    let dir = scratch("seed-own-args");
    let src = workspace().join("tests/seeds/header.c");
    let bc = cc_bitcode(&src, &dir);
    // The target's own environment: a 2-argument, 8-byte-file shape the
    // seed's does not match.
    let env = ["--sym-args", "0", "2", "2", "--sym-files", "1", "8"];
    let budget = ["--max-time", "30"];
    let without = dir.join("without");
    posix_exec(&bc, &without, &budget, &env);
    let s = stats(&without);
    assert_eq!(s["errors"], 0, "found without a seed: {s:#}");

    let seed = recorded_run(&dir);
    let with = dir.join("with");
    let mut engine = budget.to_vec();
    engine.extend(["--seed-file", seed.to_str().unwrap(), "--seed-own-args"]);
    posix_exec(&bc, &with, &engine, &env);
    let s = stats(&with);
    assert_eq!(s["errors"], 1, "{s:#}");
    assert_eq!(s["seeds_dropped"], 0, "{s:#}");
    let aborts: Vec<Value> = test_jsons(&with)
        .into_iter()
        .filter(|t| t["outcome"]["error"]["kind"] == "abort")
        .collect();
    assert_eq!(aborts.len(), 1);
    let t = &aborts[0];
    assert_eq!(
        t["program_args"],
        serde_json::json!(["--sym-arg", "1", "--sym-files", "1", "16"]),
        "the test records the seed's own environment: {t:#}"
    );
    let data = t["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "A-data")
        .unwrap()["hex"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        data.starts_with("53594d5445535431"),
        "the seed's header: {data}"
    );
    assert!(data[16..].starts_with("5a21"), "then \"Z!\": {data}");
    // Paths under the target's own environment ran too.
    assert!(
        test_jsons(&with)
            .iter()
            .any(|t| t["program_args"] == serde_json::json!(env)),
        "no test under the target's environment"
    );
    // Natively the abort reproduces under the seed's arguments.
    let prog = native_build(&src, &dir, &[]);
    let r = symtest(&[
        "replay",
        "--timeout",
        "5",
        "--native",
        prog.to_str().unwrap(),
        with.to_str().unwrap(),
    ]);
    let replayed = String::from_utf8_lossy(&r.stdout).into_owned();
    assert!(
        r.status.success() && replayed.contains(" 0 failed"),
        "{}",
        shown(&r)
    );
}
