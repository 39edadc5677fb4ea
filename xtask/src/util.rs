//! Small helpers for running commands with readable errors.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// A mistake in how xtask was invoked (exit code 2).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

pub fn exit_code_of(err: &anyhow::Error) -> i32 {
    if err.downcast_ref::<UsageError>().is_some() {
        2
    } else {
        1
    }
}

/// Renders a command line for messages.
pub fn display(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Runs a command with inherited stdio; fails naming the command if it fails.
pub fn run(cmd: &mut Command) -> Result<()> {
    let line = display(cmd);
    eprintln!("$ {line}");
    let status = cmd
        .status()
        .with_context(|| format!("could not start `{line}`"))?;
    if !status.success() {
        bail!("`{line}` failed ({status})");
    }
    Ok(())
}

/// Runs a command quietly and returns its stdout, or None if it cannot run or fails.
pub fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Runs a command with its output sent to a log file; on failure the tail of the log is shown.
pub fn run_logged(cmd: &mut Command, log: &Path) -> Result<()> {
    let line = display(cmd);
    eprintln!("$ {line}  (log: {})", log.display());
    let file = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
    let status = cmd
        .stdout(file.try_clone()?)
        .stderr(file)
        .status()
        .with_context(|| format!("could not start `{line}`"))?;
    if !status.success() {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        bail!(
            "`{line}` failed ({status}); last lines of {}:\n{}",
            log.display(),
            tail.join("\n")
        );
    }
    Ok(())
}

pub fn is_root() -> bool {
    output("id", &["-u"]).is_some_and(|s| s.trim() == "0")
}
