//! `cargo xtask test`: the whole test suite, as CI runs it, then the quick
//! subset of the corpus benchmark (`bench projects --quick`).

use crate::{paths, setup, util};
use anyhow::Result;
use std::process::Command;

pub fn run() -> Result<()> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    util::run(
        Command::new(&cargo)
            .args(["fmt", "--all", "--check"])
            .current_dir(&root),
    )?;
    util::run(
        Command::new(&cargo)
            .args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ])
            .current_dir(&root),
    )?;
    util::run(
        Command::new(&cargo)
            .args(["test", "--workspace"])
            .current_dir(&root),
    )?;
    // A quick subset of the corpus of real packages: one small package of
    // the corpus, end to end, with no panic, crash or native disagreement.
    crate::bench::projects_quick()?;
    Ok(())
}
