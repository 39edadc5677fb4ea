//! Steps bounded by a package's wall-clock cap: each command in its own
//! process group, killed whole when the cap comes, and the line of a
//! failure's text that says why.

use crate::util;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A step that reached the package's wall-clock cap (its processes killed).
#[derive(Debug)]
pub struct TimedOut {
    pub what: String,
}

impl std::fmt::Display for TimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} reached the package's wall-clock cap", self.what)
    }
}

impl std::error::Error for TimedOut {}

/// Ends the process group `pid` leads: SIGTERM, then SIGKILL after up to 5 s.
fn kill_group(child: &mut std::process::Child) {
    let pgid = child.id() as i32;
    // SAFETY: kill(2) with a negative pid signals the process group this
    // benchmark created for the child (process_group(0)); no memory is shared.
    unsafe {
        libc::kill(-pgid, libc::SIGTERM);
    }
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(5) {
        if matches!(child.try_wait(), Ok(Some(_))) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // SAFETY: as above; whatever of the group is left.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
    let _ = child.wait();
}

/// Starts `cmd` in its own process group and waits for it until
/// `deadline`: its status, or `None` when the deadline came first (the group
/// is killed).
pub fn wait_bounded(cmd: &mut Command, deadline: Option<Instant>) -> Result<Option<ExitStatus>> {
    use std::os::unix::process::CommandExt;
    let line = util::display(cmd);
    let mut child = cmd
        .stdin(Stdio::null())
        .process_group(0)
        .spawn()
        .with_context(|| format!("could not start `{line}`"))?;
    loop {
        if let Some(s) = child.try_wait()? {
            return Ok(Some(s));
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            kill_group(&mut child);
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// [`util::run_logged`] bounded by `deadline` (the error is a [`TimedOut`]
/// when it comes first).
pub fn run_logged_until(cmd: &mut Command, log: &Path, deadline: Option<Instant>) -> Result<()> {
    if deadline.is_none() {
        return util::run_logged(cmd, log);
    }
    let line = util::display(cmd);
    eprintln!("$ {line}  (log: {})", log.display());
    let file = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
    cmd.stdout(file.try_clone()?).stderr(file);
    match wait_bounded(cmd, deadline)? {
        Some(s) if s.success() => Ok(()),
        Some(s) => {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(30).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            bail!(
                "`{line}` failed ({s}); last lines of {}:\n{}",
                log.display(),
                tail.join("\n")
            )
        }
        None => Err(TimedOut {
            what: format!("`{line}`"),
        }
        .into()),
    }
}

/// The line of a failure's text that says why: the first error a tool
/// printed in the log's tail (`CMake Error ...`, `configure: error: ...`,
/// `fatal error: ...`, `make: *** ...`, apt's `E: ...`), else the first line.
pub fn key_line(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let is_error = |l: &str| {
        let t = l.trim_start();
        (t.starts_with("CMake Error")
            || t.contains("configure: error:")
            || t.contains("fatal error:")
            || t.contains(": error:")
            || t.contains("undefined reference")
            || t.starts_with("ERROR:")
            || t.starts_with("E: ")
            || t.contains("*** ")
            || t.starts_with("error:"))
            && !t.starts_with("error: the build command")
    };
    let Some(i) = lines
        .iter()
        .skip(1)
        .position(|l| is_error(l))
        .map(|i| i + 1)
    else {
        return lines.first().unwrap_or(&"").trim().to_string();
    };
    let mut key = lines[i].trim().to_string();
    // CMake says what went wrong on the next line.
    if key.starts_with("CMake Error") {
        if let Some(next) = lines.get(i + 1).filter(|l| !l.trim().is_empty()) {
            key = format!("{key} {}", next.trim());
        }
    }
    key
}
