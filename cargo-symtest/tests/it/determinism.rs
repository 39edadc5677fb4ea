//! Same program, seed and instruction budget: byte-identical tests.

use crate::support::*;

#[test]
fn same_seed_and_budget_give_identical_tests() {
    let dir = scratch("determinism");
    let src = workspace().join("cargo-symtest/tests/it/fixtures/determinism.c");
    let bc = compile(&src, &dir, &[]).unwrap();
    let mut runs = Vec::new();
    for i in 0..2 {
        let out_dir = dir.join(format!("run{i}"));
        let out = symtest(&[
            "exec",
            bc.to_str().unwrap(),
            "--output-dir",
            out_dir.to_str().unwrap(),
            "--max-instructions",
            "20000",
            "--seed",
            "7",
            "--search",
            "random-path",
            "--search",
            "nurs:covnew",
            "--batch-instructions",
            "50",
            "--emit-all",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        runs.push(test_files(&out_dir));
    }
    assert!(
        runs[0].len() >= 4,
        "expected several tests, got {}",
        runs[0].len()
    );
    let digest = |r: &Vec<(String, Vec<u8>)>| -> Vec<(String, usize, u64)> {
        r.iter()
            .map(|(n, b)| {
                (
                    n.clone(),
                    b.len(),
                    b.iter().fold(0xcbf29ce484222325u64, |h, x| {
                        (h ^ *x as u64).wrapping_mul(0x100000001b3)
                    }),
                )
            })
            .collect()
    };
    assert_eq!(
        digest(&runs[0]),
        digest(&runs[1]),
        "two runs with the same seed differ"
    );
}

/// State merging keeps runs deterministic: with `--merge-loops`, the same
/// seed and instruction budget give byte-identical tests, and states were
/// merged on the way (longword's input loop).
#[test]
fn merging_runs_are_deterministic() {
    let dir = scratch("determinism-merge");
    let bc = cc_bitcode(&workspace().join("tests/utils/longword.c"), &dir);
    let mut runs = Vec::new();
    for i in 0..2 {
        let out = dir.join(format!("run{i}"));
        posix_exec(
            &bc,
            &out,
            &[
                "--merge-loops",
                "--max-instructions",
                "150000",
                "--seed",
                "7",
                "-q",
            ],
            &["--sym-args", "0", "2", "2", "--sym-files", "1", "10"],
        );
        let stats: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap())
                .unwrap();
        assert!(stats["states_merged"].as_u64().unwrap() > 0, "{stats}");
        runs.push(test_files(&out));
    }
    assert!(
        runs[0].len() >= 4,
        "expected several tests: {}",
        runs[0].len()
    );
    assert!(
        runs[0] == runs[1],
        "two merging runs with the same seed differ"
    );
}

/// The tests and error reports a run wrote (`.ktest`, `.err`), by name, with
/// their bytes.
fn test_files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ktest" || x == "err"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}
