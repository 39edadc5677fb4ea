//! `cargo xtask demo`: runs symtest on the bundled example (`tests/demo/tr.c`).
//!
//! Today the demo drives the engine directly (`cargo symtest exec`) and replays the
//! tests natively (`cargo symtest replay`); the whole `cargo symtest` pipeline
//! (targets, minimization, regression suites, gcov reports) replaces these steps
//! as it lands.

use crate::{paths, setup, util};
use anyhow::{Context, Result};
use std::process::Command;

pub fn run(args: &[String]) -> Result<()> {
    if let Some(a) = args.first() {
        return Err(util::UsageError(format!("`demo` takes no arguments (got `{a}`)")).into());
    }
    setup::ensure()?;
    let root = paths::workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    util::run(
        Command::new(&cargo)
            .args(["build", "--release", "--quiet", "-p", "cargo-symtest"])
            .current_dir(&root),
    )?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let bin = target.join("release").join("cargo-symtest");
    let work = target.join("demo");
    if work.exists() {
        std::fs::remove_dir_all(&work).with_context(|| format!("cleaning {}", work.display()))?;
    }
    std::fs::create_dir_all(&work)?;
    let src = root.join("tests").join("demo").join("tr.c");
    let bc = work.join("tr.bc");
    eprintln!("\n== 1. compile the example to LLVM bitcode (clang-19, UBSan checks on)");
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
            .arg(&src)
            .arg("-o")
            .arg(&bc),
    )?;
    let out = work.join("out");
    eprintln!("\n== 2. explore every path symbolically and write a test per new path and per bug");
    util::run(
        Command::new(&bin)
            .arg("exec")
            .arg(&bc)
            .arg("--output-dir")
            .arg(&out)
            .args(["--max-time", "60"]),
    )?;
    eprintln!(
        "\n== 3. replay every test natively (ASan/UBSan build) and check the recorded outcome"
    );
    util::run(
        Command::new(&bin)
            .arg("replay")
            .arg("--source")
            .arg(&src)
            .arg(&out),
    )?;
    eprintln!("\n== 4. the bug report and its input");
    let mut errs: Vec<_> = std::fs::read_dir(&out)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "err"))
        .collect();
    errs.sort();
    if let Some(first) = errs.first() {
        eprintln!("{}", std::fs::read_to_string(first)?);
        let ktest = first.with_extension("").with_extension("ktest");
        util::run(Command::new(&bin).arg("show").arg(&ktest))?;
    }
    eprintln!(
        "\nsymtest demo: done. Tests, bug reports and stats are in {}.\n\
         (Not yet in the demo: the `cargo symtest` project pipeline — target discovery,\n\
         test minimization, emitted regression suites and gcov reports.)",
        out.display()
    );
    Ok(())
}
