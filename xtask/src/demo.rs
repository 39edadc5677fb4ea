//! `cargo xtask demo`: runs symtest on the bundled example.

use crate::{paths, setup, util};
use anyhow::Result;
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
            .args(["run", "--release", "--quiet", "-p", "cargo-symtest", "--", "symtest", "demo"])
            .current_dir(&root),
    )?;
    Ok(())
}
