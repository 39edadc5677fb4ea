//! `cargo xtask bench engine`: speed and memory of the engine on the programs in
//! `tests/bench/engine/`, printed as a table and written to
//! `target/bench/engine.json`. A benchmark, not a test: numbers, no pass/fail.

use crate::{paths, setup, util};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn run(args: &[String]) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("engine") => engine(),
        Some(other) => {
            Err(util::UsageError(format!("unknown benchmark `{other}` (available: engine)")).into())
        }
        None => Err(util::UsageError("usage: cargo xtask bench engine".into()).into()),
    }
}

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
}

/// Builds the release binary; returns its path.
pub fn release_binary() -> Result<PathBuf> {
    let root = paths::workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    util::run(
        Command::new(&cargo)
            .args(["build", "--release", "--quiet", "-p", "cargo-symtest"])
            .current_dir(&root),
    )?;
    Ok(target_dir(&root).join("release").join("cargo-symtest"))
}

fn compile(src: &Path, out: &Path) -> Result<()> {
    let root = paths::workspace_root();
    util::run(
        Command::new("clang-19")
            .args([
                "-emit-llvm",
                "-c",
                "-g",
                "-O0",
                "-Xclang",
                "-disable-O0-optnone",
            ])
            .args(["-fsanitize=signed-integer-overflow,shift,integer-divide-by-zero"])
            .arg("-I")
            .arg(root.join("libc-models").join("include"))
            .arg(src)
            .arg("-o")
            .arg(out),
    )
}

fn exec(bin: &Path, bc: &Path, out: &Path, extra: &[&str]) -> Result<serde_json::Value> {
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    let status = Command::new(bin)
        .arg("exec")
        .arg(bc)
        .arg("--output-dir")
        .arg(out)
        .arg("--quiet")
        .args(extra)
        .status()
        .with_context(|| format!("running {}", bin.display()))?;
    if !status.success() {
        bail!("cargo-symtest exec {} failed ({status})", bc.display());
    }
    let text = std::fs::read_to_string(out.join("stats.json"))?;
    Ok(serde_json::from_str(&text)?)
}

fn f(v: &serde_json::Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or(0.0)
}

fn engine() -> Result<()> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let bin = release_binary()?;
    let work = target_dir(&root).join("bench").join("engine");
    std::fs::create_dir_all(&work)?;
    let src = root.join("tests").join("bench").join("engine");
    let mut rows = Vec::new();
    let mut json = serde_json::Map::new();

    let bc = work.join("concrete_loop.bc");
    compile(&src.join("concrete_loop.c"), &bc)?;
    let s = exec(&bin, &bc, &work.join("concrete_loop"), &[])?;
    let ips = f(&s, "instructions") / f(&s, "time_s").max(1e-9);
    rows.push(format!(
        "concrete_loop.c | instructions/s (concrete) | {:.1} M/s ({} instructions in {:.2} s)",
        ips / 1e6,
        f(&s, "instructions"),
        f(&s, "time_s")
    ));
    json.insert("concrete_loop".into(), s);

    let bc = work.join("fork_heavy.bc");
    compile(&src.join("fork_heavy.c"), &bc)?;
    let s = exec(
        &bin,
        &bc,
        &work.join("fork_heavy"),
        &["--search", "bfs", "--max-memory", "16384"],
    )?;
    let forks = f(&s, "forks").max(1.0);
    let engine_time = (f(&s, "time_s") - f(&s, "solver_time_s")).max(0.0);
    let peak = f(&s, "states_peak").max(1.0);
    rows.push(format!(
        "fork_heavy.c | cost of one fork (engine time / forks, solver excluded) | {:.1} µs ({} forks, {:.2} s engine, {:.2} s solver)",
        engine_time / forks * 1e6,
        forks,
        engine_time,
        f(&s, "solver_time_s")
    ));
    rows.push(format!(
        "fork_heavy.c | memory per live state (peak RSS / peak live states) | {:.2} KiB ({} states, {:.0} MiB peak; 100,000 states ≈ {:.0} MiB)",
        f(&s, "memory_peak_mb") * 1024.0 / peak,
        peak,
        f(&s, "memory_peak_mb"),
        f(&s, "memory_peak_mb") / peak * 100_000.0
    ));
    json.insert("fork_heavy".into(), s);

    let bc = work.join("tr_figure1.bc");
    compile(&src.join("tr_figure1.c"), &bc)?;
    let s = exec(&bin, &bc, &work.join("tr_figure1"), &[])?;
    rows.push(format!(
        "tr_figure1.c | Figure 1 tr: time to the bug / to full line coverage / total | {:.2} s / {:.2} s / {:.2} s ({}/{} lines, {} paths, {} queries, {} reached Bitwuzla)",
        f(&s, "first_bug_s"),
        f(&s, "last_new_line_s"),
        f(&s, "time_s"),
        f(&s, "covered_lines"),
        f(&s, "total_lines"),
        f(&s, "paths_completed"),
        f(&s, "queries"),
        f(&s, "solver_queries")
    ));
    json.insert("tr_figure1".into(), s);

    println!("| program | measure | result |\n|---|---|---|");
    for r in &rows {
        println!("| {r} |");
    }
    let out = work.join("engine.json");
    std::fs::write(
        &out,
        serde_json::to_string_pretty(&serde_json::Value::Object(json))?,
    )?;
    println!("\nraw statistics: {}", out.display());
    Ok(())
}
