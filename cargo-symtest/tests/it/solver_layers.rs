//! The query optimizations of §3.3 (`--solver-layers`) change speed, never
//! the exploration: through the real binary, every layer configuration
//! (none, all, and all with each single layer removed) explores the same
//! paths, executes the same instructions and reports the same bugs. And a
//! solver that gives up ends only the state that asked.

use crate::support::*;
use std::collections::BTreeSet;
use std::path::Path;

/// `none`, `all`, and `all` without each single layer.
const CONFIGS: &[&str] = &[
    "none",
    "all",
    "all,-rewrite",
    "all,-simplify",
    "all,-ivc",
    "all,-independence",
    "all,-bounds",
    "all,-cex",
    "all,-cache",
];

/// What must not depend on the layers.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    paths_completed: u64,
    instructions: u64,
    errors: BTreeSet<(String, u32)>,
}

fn stats(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap()
}

fn exec(bc: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    symtest(&args)
}

/// Runs `src` (relative to the workspace) under every configuration with
/// the same instruction budget and checks the outcomes agree.
fn same_exploration_under_every_configuration(name: &str, src: &str, budget: u32) {
    let dir = scratch(&format!("solver_layers_{name}"));
    let bc = compile(&workspace().join(src), &dir, &[]).unwrap();
    let budget = budget.to_string();
    let mut reference: Option<(&str, Outcome)> = None;
    for (i, layers) in CONFIGS.iter().enumerate() {
        let out = dir.join(format!("run{i}"));
        let o = exec(
            &bc,
            &out,
            // Dives end after a number of solver-chain queries, and which
            // questions a state's own model answers without a query depends
            // on the models the layers found: the search order is compared
            // without dives. How deep an expression is depends on the
            // rewrites (`rewrite` layer), so the digest rule is off too.
            &[
                "--solver-layers",
                layers,
                "--max-instructions",
                &budget,
                "--dive",
                "0",
                "--digest-depth",
                "0",
            ],
        );
        assert!(
            o.status.success(),
            "{name} [{layers}]: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let s = stats(&out);
        let got = Outcome {
            paths_completed: s["paths_completed"].as_u64().unwrap(),
            instructions: s["instructions"].as_u64().unwrap(),
            errors: reported_errors(&out),
        };
        assert!(
            !got.errors.iter().any(|(k, _)| k == "solver"),
            "{name} [{layers}]: the solver gave up: {:?}",
            got.errors
        );
        match &reference {
            None => reference = Some((layers, got)),
            Some((first, want)) => assert_eq!(
                &got, want,
                "{name}: --solver-layers {layers} explored differently from {first}"
            ),
        }
    }
    let (_, want) = reference.unwrap();
    assert!(
        want.paths_completed > 0 || want.instructions > 0,
        "{name}: nothing explored"
    );
}

#[test]
fn layers_keep_the_exploration_of_tr() {
    // Figure 1: the out-of-bounds read, growing path conditions over one
    // argument buffer, a symbolic range loop.
    same_exploration_under_every_configuration("tr", "tests/demo/tr.c", 7_000);
}

#[test]
fn layers_keep_the_exploration_of_corpus_programs() {
    for (name, budget) in [
        ("paper_tr_expand", 2_000),
        ("misc_determinism", 2_000),
        ("err_oob_symptr", 2_000),
        ("mem_symptr_ptr_array", 2_000),
        ("ctl_recursion", 2_000),
        ("ctl_ternary_phi", 2_000),
        ("int_i32_arith", 2_000),
        ("mem_symptr_malloc_select", 2_000),
    ] {
        same_exploration_under_every_configuration(
            name,
            &format!("tests/programs/{name}.c"),
            budget,
        );
    }
}

#[test]
fn layers_keep_the_exploration_of_parsers_and_table_lookups() {
    // Byte-wise parsing (many independent bytes), reads of a lookup table
    // at symbolic indices (store chains), chained byte comparisons.
    same_exploration_under_every_configuration("parse_kv", "tests/bench/solver/parse_kv.c", 4_000);
    same_exploration_under_every_configuration(
        "hex_decode",
        "tests/bench/solver/hex_decode.c",
        6_000,
    );
    same_exploration_under_every_configuration("classify", "tests/bench/solver/classify.c", 6_000);
    // A loop over a symbolic bound (the bounds layer's queries).
    same_exploration_under_every_configuration(
        "loop_bound",
        "tests/bench/solver/loop_bound.c",
        3_000,
    );
}

/// One path asks a hopeless query (factoring a 128-bit semiprime of two
/// random-looking 64-bit primes; factors near 2^64 are found at once), the
/// others easy ones about one byte.
const HARD_QUERY_PROGRAM: &str = r#"
#include "symtest.h"
int main(void) {
  unsigned char sel;
  unsigned long long x, y;
  symtest_make_symbolic(&sel, sizeof sel, "sel");
  symtest_make_symbolic(&x, sizeof x, "x");
  symtest_make_symbolic(&y, sizeof y, "y");
  if (sel == 7) {
    unsigned __int128 n =
        ((unsigned __int128)0x71a4e9120aa3e4e8ULL << 64) | 0x7fddea053fb2657bULL;
    if (x > 1 && y > 1 && (unsigned __int128)x * y == n) /* HARD */
      return 1;
    return 2;
  }
  if (sel < 7)
    return 3;
  if (sel == 200)
    return 4;
  return 5;
}
"#;

/// A solver that gives up (a 1 s limit per query, far below what factoring
/// the 128-bit product needs, far above what the other queries need) never
/// ends a path nor stops the others: the hard branch follows the path's
/// current model (here the side where the product is not `n`), counted as
/// `solver_degraded`, warned about and named in the halt reason; every path
/// runs to its end and the run completes with exit code 0.
#[test]
fn solver_failures_end_no_path() {
    let dir = scratch("solver_failures");
    let src = dir.join("hard_query.c");
    std::fs::write(&src, HARD_QUERY_PROGRAM).unwrap();
    let bc = compile(&src, &dir, &[]).unwrap();
    for layers in ["none", "all"] {
        let out = dir.join(format!("out-{layers}"));
        let o = exec(
            &bc,
            &out,
            // Without dives (see above): every path's exit code gets a test
            // only if the order of exploration is the same for every layer set.
            &[
                "--max-solver-time",
                "1",
                "--solver-layers",
                layers,
                "--dive",
                "0",
            ],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "[{layers}] {stderr}");
        let errors = reported_errors(&out);
        assert!(errors.is_empty(), "[{layers}] {errors:?}");
        let s = stats(&out);
        assert!(
            s["solver_degraded"].as_u64().unwrap() >= 1,
            "[{layers}] {s}"
        );
        // Every chain query is in one duration class; the one that gave up
        // after its 1 s limit is in the slowest.
        let classes = s["solver_query_times"].as_array().unwrap();
        let n: u64 = classes.iter().map(|c| c["queries"].as_u64().unwrap()).sum();
        assert_eq!(Some(n), s["chain_queries"].as_u64(), "[{layers}] {s}");
        assert_eq!(classes[4]["took"], ">=1s", "[{layers}] {s}");
        assert!(
            classes[4]["queries"].as_u64().unwrap() >= 1,
            "[{layers}] {s}"
        );
        // sel == 7 with x <= 1, y <= 1 or the hard branch followed to its
        // false side (all return 2), sel < 7, sel == 200, the rest: six
        // paths, each with its exit code in a test.
        assert_eq!(s["paths_completed"].as_u64(), Some(6), "[{layers}] {s}");
        let mut exits: Vec<i64> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .filter_map(|p| {
                let v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&p).ok()?).ok()?;
                v["outcome"]["exit"]["code"].as_i64()
            })
            .collect();
        exits.sort();
        assert_eq!(exits, [2, 2, 2, 3, 4, 5], "[{layers}]");
        let info = std::fs::read_to_string(out.join("info")).unwrap();
        assert!(
            info.contains("halt reason: all remaining paths explored; 1 branch(es) followed"),
            "{info}"
        );
    }
}
