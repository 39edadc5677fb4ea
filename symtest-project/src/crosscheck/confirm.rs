//! Native confirmation of a crosscheck: each mismatch test replayed on both
//! native programs through the suite runner (the same argv words after each
//! program's own, the same files and stdin), their exit statuses and stdout
//! compared; each low-level bug's test replayed on both sanitizer builds.

use super::report::{Mismatch, SideRun};
use crate::discovery::Target;
use crate::emit::SuiteCase;
use crate::native;
use crate::stages::{Compiled, TEST_TIMEOUT_S};
use crate::testcases::EngineTest;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// One program of the crosscheck, ready for native runs.
pub struct Side<'a> {
    /// The program target with the crosscheck's environment as its `args`
    /// ([`super::side_target`]).
    pub target: Target,
    pub compiled: &'a Compiled,
    /// Its intermediate directory.
    pub build: PathBuf,
}

/// What one program did natively on the crosscheck's tests.
pub struct SideNative {
    /// Where each mismatch test's behaviour was recorded (`<dir>/<test>/`).
    pub recorded: PathBuf,
    /// The runner's output of the recording.
    pub record_output: String,
    /// The runner's verdict on each bug test, in order.
    pub bug_verdicts: Vec<Option<String>>,
}

/// Builds the program's native runner with the mismatch and bug tests,
/// records what it does on each mismatch test into `recorded`, and runs the
/// bug tests.
pub fn run_side(
    side: &Side,
    root: &Path,
    mismatches: &[&EngineTest],
    bugs: &[&EngineTest],
    recorded: &Path,
) -> Result<SideNative> {
    let cases: Vec<SuiteCase> = mismatches
        .iter()
        .map(|&t| (t, false))
        .chain(bugs.iter().map(|&t| (t, true)))
        .map(|(t, bug)| SuiteCase {
            name: t.name.clone(),
            test: t,
            description: super::engine_message(t),
            bug,
        })
        .collect();
    let nb = native::build(
        &side.target,
        &side.compiled.inputs,
        root,
        &side.build.join("native"),
        &cases,
    )
    .map_err(|e| {
        anyhow::anyhow!(
            "native build of `{}` for the crosscheck failed:\n{e}",
            side.target.name
        )
    })?;
    let names: Vec<&str> = mismatches.iter().map(|t| t.name.as_str()).collect();
    let record_output = if names.is_empty() {
        String::new()
    } else {
        if let Some(parent) = recorded.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        nb.record(&names, TEST_TIMEOUT_S, recorded)
            .map_err(anyhow::Error::msg)?
    };
    let bug_names: Vec<&str> = bugs.iter().map(|t| t.name.as_str()).collect();
    let out = if bug_names.is_empty() {
        String::new()
    } else {
        nb.run_tests(&bug_names, TEST_TIMEOUT_S)
            .map_err(anyhow::Error::msg)?
    };
    let bug_verdicts = bug_names
        .iter()
        .map(|n| native::verdict_of(&out, n).map(|v| v.trim().to_string()))
        .collect();
    Ok(SideNative {
        recorded: recorded.to_path_buf(),
        record_output,
        bug_verdicts,
    })
}

/// What one program did on one test, as recorded.
struct Observed {
    status: Option<String>,
    stdout: Option<Vec<u8>>,
    /// What the runner said of the test when recording (`not recorded: ...`,
    /// or the streams that varied between runs).
    note: Option<String>,
}

fn observe(n: &SideNative, test: &str) -> Observed {
    let dir = n.recorded.join(test);
    let status = std::fs::read_to_string(dir.join("status"))
        .ok()
        .map(|s| s.trim().to_string());
    let stdout = std::fs::read(dir.join("stdout")).ok();
    let note = native::verdict_of(&n.record_output, test).and_then(|v| {
        let v = v.trim();
        v.strip_prefix("not recorded: ")
            .or_else(|| {
                v.strip_prefix("recorded (")
                    .map(|r| r.trim_end_matches(')'))
            })
            .map(str::to_string)
    });
    Observed {
        status,
        stdout,
        note,
    }
}

/// The first line (1-based) where two outputs differ, and each side's line
/// there (None where that output has ended).
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<(usize, [Option<String>; 2])> {
    if a == b {
        return None;
    }
    let lines = |x: &[u8]| -> Vec<String> {
        x.split_inclusive(|&c| c == b'\n')
            .map(|l| {
                String::from_utf8_lossy(l)
                    .trim_end_matches('\n')
                    .to_string()
            })
            .collect()
    };
    let (la, lb) = (lines(a), lines(b));
    // Lines compared with their newline: `x` and `x\n` differ.
    let raw = |x: &[u8]| -> Vec<Vec<u8>> {
        x.split_inclusive(|&c| c == b'\n')
            .map(<[u8]>::to_vec)
            .collect()
    };
    let (ra, rb) = (raw(a), raw(b));
    let i = (0..)
        .find(|&i| ra.get(i) != rb.get(i))
        .expect("outputs differ");
    Some((i + 1, [la.get(i).cloned(), lb.get(i).cloned()]))
}

/// One mismatch test compared on both programs' native runs.
pub fn compare(test: &EngineTest, sides: &[Side; 2], native: &[SideNative; 2]) -> Mismatch {
    let obs = [
        observe(&native[0], &test.name),
        observe(&native[1], &test.name),
    ];
    let mut runs: Vec<SideRun> = sides
        .iter()
        .zip(&obs)
        .map(|(s, o)| SideRun {
            program: s.target.name.clone(),
            input: crate::vectors::input_line(&s.target, test),
            status: o.status.clone(),
            first_differing_line: None,
        })
        .collect();
    let mut differs = Vec::new();
    if let (Some(a), Some(b)) = (&obs[0].status, &obs[1].status) {
        if a != b {
            differs.push("exit status".to_string());
        }
    }
    let mut stdout_line = None;
    if let (Some(a), Some(b)) = (&obs[0].stdout, &obs[1].stdout) {
        if let Some((line, texts)) = first_difference(a, b) {
            differs.push("stdout".to_string());
            stdout_line = Some(line);
            for (r, t) in runs.iter_mut().zip(texts) {
                r.first_differing_line = t;
            }
        }
    }
    let unfit = obs.iter().zip(sides).find_map(|(o, s)| {
        o.note
            .as_deref()
            .filter(|n| n.contains("no longer fits"))
            .map(|n| format!("`{}`: {n}", s.target.name))
    });
    let reason = match (&unfit, differs.is_empty()) {
        (Some(u), _) => Some(format!("the test does not replay natively: {u}")),
        (None, true) => Some(not_reproduced(&obs, sides)),
        (None, false) => None,
    };
    Mismatch {
        test: test.name.clone(),
        engine: super::engine_message(test),
        sides: runs,
        differs,
        stdout_line,
        confirmed: reason.is_none(),
        reason,
    }
}

/// Why the native runs show no difference.
fn not_reproduced(obs: &[Observed; 2], sides: &[Side; 2]) -> String {
    let missing: Vec<String> = obs
        .iter()
        .zip(sides)
        .filter(|(o, _)| o.status.is_none() || o.stdout.is_none())
        .map(|(o, s)| {
            format!(
                "`{}`: {}",
                s.target.name,
                o.note
                    .as_deref()
                    .unwrap_or("its behaviour was not recorded")
            )
        })
        .collect();
    if !missing.is_empty() {
        return format!(
            "not compared natively ({}); the streams compared are identical",
            missing.join("; ")
        );
    }
    format!(
        "the native programs behave identically on this input: both end with `{}` and print the same {} bytes to stdout",
        obs[0].status.as_deref().unwrap_or("?"),
        obs[0].stdout.as_ref().map_or(0, Vec::len)
    )
}

#[cfg(test)]
mod tests {
    use super::first_difference;

    #[test]
    fn first_differing_line() {
        assert_eq!(first_difference(b"a\nb\n", b"a\nb\n"), None);
        assert_eq!(
            first_difference(b"a\nb\n", b"a\nc\n"),
            Some((2, [Some("b".into()), Some("c".into())]))
        );
        assert_eq!(
            first_difference(b"a\n", b"a\nb\n"),
            Some((2, [None, Some("b".into())]))
        );
        // A missing final newline is a difference on that line.
        assert_eq!(
            first_difference(b"a\nb", b"a\nb\n"),
            Some((2, [Some("b".into()), Some("b".into())]))
        );
        assert_eq!(
            first_difference(b"", b"x"),
            Some((1, [None, Some("x".into())]))
        );
    }
}
