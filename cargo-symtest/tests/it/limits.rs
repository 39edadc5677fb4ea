//! Searchers and limits, through the real binary.

use crate::support::*;
use std::path::{Path, PathBuf};

fn run(bc: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let o = symtest(&args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap()
}

fn fixture(dir: &Path, name: &str) -> PathBuf {
    compile(
        &workspace()
            .join("cargo-symtest/tests/it/fixtures")
            .join(name),
        dir,
        &[],
    )
    .unwrap()
}

#[test]
fn every_searcher_explores_every_path() {
    let dir = scratch("searchers");
    let bc = fixture(&dir, "paths12.c");
    let mut searchers: Vec<Vec<&str>> = [
        "dfs",
        "bfs",
        "random-state",
        "random-path",
        "nurs:covnew",
        "nurs:md2u",
        "nurs:depth",
        "nurs:rp",
        "nurs:icnt",
        "nurs:cpicnt",
        "nurs:qc",
    ]
    .iter()
    .map(|s| vec!["--search", *s])
    .collect();
    searchers.push(vec![
        "--search",
        "dfs",
        "--search",
        "bfs",
        "--search",
        "nurs:md2u",
    ]);
    for (i, s) in searchers.iter().enumerate() {
        let mut extra = s.clone();
        extra.extend(["--batch-instructions", "3"]);
        let stats = run(&bc, &dir.join(format!("out{i}")), &extra);
        assert_eq!(stats["paths_completed"], 12, "searcher {s:?}");
        assert_eq!(
            stats["covered_lines"], stats["total_lines"],
            "searcher {s:?}"
        );
    }
}

#[test]
fn fork_and_depth_limits_bound_the_exploration() {
    let dir = scratch("fork_limits");
    let bc = fixture(&dir, "paths12.c");
    let s = run(&bc, &dir.join("forks"), &["--max-forks", "2"]);
    assert!(s["forks"].as_u64().unwrap() <= 2, "{s}");
    assert_eq!(
        s["paths_completed"].as_u64().unwrap(),
        s["forks"].as_u64().unwrap() + 1
    );
    let s = run(&bc, &dir.join("depth"), &["--max-depth", "1"]);
    assert_eq!(
        s["paths_completed"], 2,
        "one symbolic branch per path: two paths"
    );
}

#[test]
fn instruction_budget_halts_and_keeps_unfinished_coverage() {
    let dir = scratch("budget");
    let bc = fixture(&dir, "spin.c");
    let out = dir.join("out");
    let s = run(&bc, &out, &["--max-instructions", "30000"]);
    assert_eq!(s["instructions"], 30000);
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(info.contains("--max-instructions 30000 reached"), "{info}");
    // The states cut short covered code no finished path did: they got tests
    // (run to their end on their inputs, or recorded as stopped early).
    let early = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json") && p.file_name().unwrap() != "stats.json"
        })
        .filter(|p| {
            let t = std::fs::read_to_string(p).unwrap();
            t.contains("\"early\"") || t.contains("\"completed_after\"")
        })
        .count();
    assert!(early >= 1, "expected tests for halted states");
}

#[test]
fn memory_cap_drops_states_and_time_limit_stops() {
    let dir = scratch("memory");
    let bc = fixture(&dir, "spin.c");
    let s = run(
        &bc,
        &dir.join("mem"),
        &[
            "--max-memory",
            "1",
            "--max-instructions",
            "250000",
            "--search",
            "bfs",
        ],
    );
    assert!(s["states_dropped"].as_u64().unwrap() > 0, "{s}");
    let t0 = std::time::Instant::now();
    let s = run(&bc, &dir.join("time"), &["--max-time", "2"]);
    let took = t0.elapsed().as_secs_f64();
    assert!(s["time_s"].as_f64().unwrap() >= 1.9, "{s}");
    assert!(took < 10.0, "--max-time 2 took {took:.1}s");
}

/// When the memory cap dropped states, the run never claims "all paths
/// explored": the halt reason (and the progress line) count the drops.
#[test]
fn drops_at_the_memory_cap_are_named_in_the_halt_reason() {
    let dir = scratch("memory_halt");
    let src = dir.join("fan.c");
    std::fs::write(
        &src,
        "#include \"symtest.h\"\nint main(void) {\n  unsigned char b[8];\n  symtest_make_symbolic(b, sizeof b, \"b\");\n  int n = 0;\n  for (int i = 0; i < 8; i++) {\n    if (b[i] > 100) n++;\n    for (volatile int k = 0; k < 300; k++) {}\n  }\n  return n;\n}\n",
    )
    .unwrap();
    let bc = compile(&src, &dir, &[]).unwrap();
    let out = dir.join("out");
    let s = run(&bc, &out, &["--max-memory", "1", "--search", "bfs"]);
    let dropped = s["states_dropped"].as_u64().unwrap();
    assert!(dropped > 0, "{s}");
    let info = std::fs::read_to_string(out.join("info")).unwrap();
    assert!(
        info.contains(&format!(
            "halt reason: all remaining paths explored; {dropped} state(s) dropped by the memory cap"
        )),
        "{info}"
    );
    assert!(!info.contains("halt reason: all paths explored"), "{info}");
}
