//! `cargo xtask demo`: runs symtest on the bundled example (`tests/demo/tr.c`).
//!
//! Steps 1–4 drive the engine directly (`cargo symtest exec`, `replay`, `show`) on
//! the Figure 1 `tr` harness; step 5 runs the whole `cargo symtest` pipeline on a
//! small project (that harness plus the unmodified `wc` utility of `tests/utils/`
//! in the symbolic POSIX environment), then builds and runs the emitted native
//! regression suite with plain `make`.

use crate::{paths, setup, util};
use anyhow::{Context, Result};
use std::process::Command;

pub fn run() -> Result<()> {
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
    crate::bench::compile(&src, &bc)?;
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
        "\n== 5. the project pipeline: `cargo symtest` on a project with a harness and a whole program"
    );
    let project = work.join("project");
    std::fs::create_dir_all(&project)?;
    std::fs::copy(&src, project.join("tr.c"))?;
    std::fs::copy(root.join("tests/utils/wc.c"), project.join("wc.c"))?;
    std::fs::write(project.join("symtest.toml"), PROJECT_TOML)?;
    eprintln!("{PROJECT_TOML}");
    // Exit code 1 means "bugs found" here (the tr harness has one): expected.
    let status = Command::new(&bin)
        .args(["--max-time", "20", "--color", "never"])
        .current_dir(&project)
        .status()
        .context("running cargo symtest")?;
    if !matches!(status.code(), Some(0 | 1)) {
        anyhow::bail!("cargo symtest failed ({status})");
    }
    let suite = project.join("tests/symtest/wc");
    eprintln!(
        "\n== 6. the emitted regression suite builds and runs with plain make (no symtest needed)"
    );
    util::run(Command::new("make").arg("-C").arg(&suite).arg("test"))?;
    eprintln!(
        "\nsymtest demo: done. Engine tests, bug reports and stats: {}; project outputs: {} \
         (symtest-out/ per target: kept tests, bugs, coverage reports; tests/symtest/: the suites).",
        out.display(),
        project.display()
    );
    Ok(())
}

/// The demo project's configuration (written next to copies of the sources).
const PROJECT_TOML: &str = r#"# A harness (inputs made symbolic in main) and an unmodified utility.
[[target]]
name = "tr"
kind = "harness"
sources = ["tr.c"]

[[target]]
name = "wc"
kind = "program"
sources = ["wc.c"]
args = ["--sym-args", "0", "2", "2", "--sym-files", "1", "4", "--sym-stdin", "4"]
"#;
