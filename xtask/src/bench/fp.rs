//! `cargo xtask bench fp` (also run at the end of `bench solver`): the cost
//! of floating-point queries. One kernel (`tests/bench/solver/num_kernel.h`)
//! is explored with `double` and with `long` inputs, with `float` and
//! `int`, and with `long double` (same control structure, all solver
//! layers), and the time per query that reaches Bitwuzla is
//! compared; `--fp concrete` on the double variant shows what symbolic
//! floating point adds to a run (it concretizes instead).

use super::{compile, exec, f, release_binary, target_dir};
use crate::{paths, setup};
use anyhow::Result;

/// (label, source, `--fp` mode).
const VARIANTS: &[(&str, &str, &str)] = &[
    ("double", "fp_kernel.c", "symbolic"),
    ("long", "int_kernel.c", "symbolic"),
    ("float", "fp32_kernel.c", "symbolic"),
    ("int", "int32_kernel.c", "symbolic"),
    ("long double, --fp full", "fp80_kernel.c", "full"),
    ("double, --fp concrete", "fp_kernel.c", "concrete"),
];

pub(super) fn run() -> Result<()> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let bin = release_binary()?;
    let work = target_dir(&root).join("bench").join("fp");
    std::fs::create_dir_all(&work)?;
    println!("\nFloating-point query cost (tests/bench/solver/num_kernel.h, all layers)\n");
    println!("| inputs | paths | executor queries | reaching Bitwuzla | solver time (s) | ms per Bitwuzla query | time (s) |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let mut rows = Vec::new();
    for (i, &(label, src, mode)) in VARIANTS.iter().enumerate() {
        let bc = work.join(format!("{i}.bc"));
        compile(&root.join("tests/bench/solver").join(src), &bc)?;
        let s = exec(
            &bin,
            &bc,
            &work.join(format!("out{i}")),
            &["--fp", mode, "--max-time", "120"],
        )?;
        let per = 1000.0 * f(&s, "solver_time_s") / f(&s, "solver_queries").max(1.0);
        println!(
            "| {label} | {} | {} | {} | {:.3} | {per:.2} | {:.3} |",
            f(&s, "paths_completed"),
            f(&s, "queries"),
            f(&s, "solver_queries"),
            f(&s, "solver_time_s"),
            f(&s, "time_s"),
        );
        rows.push(serde_json::json!({ "inputs": label, "fp": mode, "stats": s }));
    }
    let out = target_dir(&root).join("bench").join("fp.json");
    std::fs::write(&out, serde_json::to_string_pretty(&rows)?)?;
    println!("\nraw statistics: {}", out.display());
    Ok(())
}
