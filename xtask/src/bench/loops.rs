//! `cargo xtask bench loops` (also run by `bench solver`): loops over
//! symbolic bounds as verification tasks write them (sums and products up
//! to a symbolic `n`, division by repeated subtraction or by shifts,
//! decimal digits, a geometric series), each explored for a fixed time with
//! the default options. What it measures is the engine's rate on them:
//! instructions per second and the share of the time spent in the solver,
//! the figures that were 800-1,300 instructions per second and 76-95% in
//! the solver before the solver-time work (issue 16).

use super::{compile, exec, f, release_binary, target_dir};
use crate::{paths, setup};
use anyhow::Result;

/// (name, source relative to the workspace).
const LOOPS: &[(&str, &str)] = &[
    ("sum_closed_form", "tests/bench/solver/loop_bound.c"),
    ("sum_powers", "tests/bench/loops/sum_powers.c"),
    ("manna_div", "tests/bench/loops/manna_div.c"),
    ("hw_div", "tests/bench/loops/hw_div.c"),
    ("digits", "tests/bench/loops/digits.c"),
    ("geo_series", "tests/bench/loops/geo_series.c"),
];

/// Seconds each program is explored for.
const LOOP_TIME_S: &str = "20";

pub(super) fn run() -> Result<()> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let bin = release_binary()?;
    let work = target_dir(&root).join("bench").join("loops");
    std::fs::create_dir_all(&work)?;
    println!(
        "\nLoops over symbolic bounds (tests/bench/loops/, {LOOP_TIME_S} s each, default options)\n"
    );
    println!("| program | instructions | instructions/s | paths | solver share | Bitwuzla queries | Bitwuzla time (s) | solver timeouts | errors |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut rows = Vec::new();
    for &(name, src) in LOOPS {
        let bc = work.join(format!("{name}.bc"));
        compile(&root.join(src), &bc)?;
        let s = exec(&bin, &bc, &work.join(name), &["--max-time", LOOP_TIME_S])?;
        let time = f(&s, "time_s").max(1e-9);
        let bitwuzla = s["solver_layers"]
            .as_array()
            .and_then(|ls| ls.iter().find(|l| l["name"] == "bitwuzla"))
            .cloned()
            .unwrap_or_default();
        println!(
            "| {name} | {} | {:.0} | {} | {:.0}% | {} | {:.2} | {} | {} |",
            f(&s, "instructions"),
            f(&s, "instructions") / time,
            f(&s, "paths_completed"),
            100.0 * f(&s, "solver_time_s") / time,
            f(&bitwuzla, "queries"),
            f(&bitwuzla, "time_s"),
            f(&s, "solver_timeouts"),
            f(&s, "errors"),
        );
        rows.push(serde_json::json!({ "program": name, "source": src, "stats": s }));
    }
    let out = target_dir(&root).join("bench").join("loops.json");
    std::fs::write(&out, serde_json::to_string_pretty(&rows)?)?;
    println!("\nraw statistics: {}", out.display());
    Ok(())
}
