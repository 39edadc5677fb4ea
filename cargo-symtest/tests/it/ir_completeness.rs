//! IR completeness: every construct clang 19 emits for the corpus at -O0..-O3, and
//! for the musl runtime the whole programs link against, lowers to something the
//! engine executes (`cargo symtest inspect --unsupported` lists none).
//!
//! Constructs found this way, and the corpus program that uses each:
//! `llvm.experimental.constrained.*` and `llvm.fmuladd` feeding `llvm.fmuladd`
//! (`fp_fenv_ptrmask.c`; musl's fma/lrintl/ilogb and strtold), `llvm.ptrmask`
//! (`fp_fenv_ptrmask.c`; musl's vfprintf), `llvm.bitreverse` and
//! `llvm.threadlocal.address` (`int_bitreverse_tls.c`).

use std::path::PathBuf;

use crate::posix::runtime_bitcode;
use crate::support::*;

fn unsupported(bc: &std::path::Path) -> (bool, String) {
    let out = symtest(&["inspect", "--unsupported", bc.to_str().unwrap()]);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn corpus_lowers_completely_at_every_optimisation_level() {
    let root = workspace().join("tests/programs");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    programs.sort();
    let mut failures = Vec::new();
    for level in ["-O0", "-O1", "-O2", "-O3"] {
        let dir = scratch(&format!("ir-completeness{level}"));
        for prog in &programs {
            let bc = compile(prog, &dir, &[level]).unwrap_or_else(|e| panic!("{e}"));
            let (ok, listing) = unsupported(&bc);
            if !ok {
                failures.push(format!("{level}: {listing}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn musl_runtime_lowers_completely_but_thread_exit() {
    let (ok, listing) = unsupported(&runtime_bitcode());
    assert!(!ok, "the listing exits 1 when it lists something");
    let sites: Vec<&str> = listing
        .lines()
        .filter(|l| !l.contains("unsupported construct(s)"))
        .collect();
    // The one remaining site: musl's `__unmapself` switches stacks to unmap a
    // detached thread's; symtest runs no threads.
    assert_eq!(sites.len(), 1, "{listing}");
    assert!(
        sites[0].contains("__unmapself: inline assembly"),
        "{listing}"
    );
}
