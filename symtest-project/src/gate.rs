//! Pull-request gating (`cargo symtest --changed-since REF`): the lines a
//! diff changed, the previous run's tests as seeds, and the behaviour changes
//! the committed suite sees on the new code.
//!
//! The exploration of a gate run is directed (KATCH: Marinescu and Cadar,
//! ICSE 2013): the engine follows the seeds first (the kept tests of the
//! previous run, else the vectors of the committed suite), then runs the
//! states nearest a changed line not reached yet, for `--directed-share` of
//! the budget; the rest of the budget is undirected.

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Source files whose changed lines are targets.
const SOURCE_EXTENSIONS: &[&str] = &["c", "h", "inc", "def"];

/// The lines a diff changed, per file (absolute paths).
#[derive(Clone, Debug, Default)]
pub struct ChangedLines {
    pub base: String,
    pub by_file: BTreeMap<PathBuf, BTreeSet<u32>>,
}

impl ChangedLines {
    pub fn count(&self) -> usize {
        self.by_file.values().map(BTreeSet::len).sum()
    }

    /// `FILE:LINE` per changed line (the engine's `--target-lines` file).
    pub fn target_lines(&self) -> String {
        let mut s = String::new();
        for (f, lines) in &self.by_file {
            for l in lines {
                s.push_str(&format!("{}:{l}\n", f.display()));
            }
        }
        s
    }
}

/// A changed line with code in a target, and the kept test that runs it natively.
#[derive(Clone, Debug, Serialize)]
pub struct ChangedLine {
    /// Relative to the project root.
    pub file: String,
    pub line: u32,
    /// The kept test (its name in the suite) that executes it, if one does.
    pub reached_by: Option<String>,
}

/// A test of the committed suite whose outcome the new code changed.
#[derive(Clone, Debug, Serialize)]
pub struct BehaviourChange {
    pub test: String,
    /// The runner's verdict: which stream differs, the first difference.
    pub detail: String,
    /// The input as a command (or a harness's values).
    pub reproduce: Option<String>,
}

fn git(root: &Path, args: &[&str]) -> Result<String, String> {
    let o = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "`git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The lines of C sources and headers changed since `base` (a commit, a
/// branch, `HEAD~1`) in the working tree of the repository holding `root`.
pub fn changed_since(root: &Path, base: &str) -> Result<ChangedLines, String> {
    let top = git(root, &["rev-parse", "--show-toplevel"])
        .map_err(|e| format!("--changed-since needs the project in a git repository: {e}"))?;
    let top = PathBuf::from(top.trim());
    git(
        &top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{base}^{{commit}}"),
        ],
    )
    .map_err(|_| {
        format!(
            "--changed-since: `{base}` names no commit of {}",
            top.display()
        )
    })?;
    let diff = git(
        &top,
        &[
            "diff",
            "--unified=0",
            "--no-color",
            "--no-ext-diff",
            "--no-renames",
            base,
            "--",
        ],
    )?;
    let mut c = parse_diff(&diff, &top);
    c.base = base.to_string();
    Ok(c)
}

/// The new side's changed lines of a unified diff with no context (`git diff
/// -U0`): the lines added or modified; where lines were only deleted, the
/// line after the deletion (the code the change now runs into).
pub fn parse_diff(diff: &str, top: &Path) -> ChangedLines {
    let mut out = ChangedLines::default();
    let mut file: Option<PathBuf> = None;
    for l in diff.lines() {
        if let Some(name) = l.strip_prefix("+++ ") {
            file = name
                .strip_prefix("b/")
                .filter(|n| {
                    Path::new(n)
                        .extension()
                        .and_then(|x| x.to_str())
                        .is_some_and(|x| SOURCE_EXTENSIONS.contains(&x))
                })
                .map(|n| top.join(n));
            continue;
        }
        let (Some(f), Some(h)) = (&file, l.strip_prefix("@@ ")) else {
            continue;
        };
        // @@ -a[,b] +c[,d] @@
        let Some(new) = h.split_whitespace().find_map(|w| w.strip_prefix('+')) else {
            continue;
        };
        let (start, len) = match new.split_once(',') {
            Some((s, n)) => (s.parse::<u32>().unwrap_or(0), n.parse::<u32>().unwrap_or(0)),
            None => (new.parse::<u32>().unwrap_or(0), 1),
        };
        let lines = out.by_file.entry(f.clone()).or_default();
        if len == 0 {
            lines.insert(start.max(1) + u32::from(start > 0));
        } else {
            lines.extend(start..start + len);
        }
    }
    out.by_file.retain(|_, l| !l.is_empty());
    out
}

/// The seeds of a gate run, written as `.ktest` files into `dest`: the kept
/// tests of the previous run (`previous`, `symtest-out/<target>/`), else the
/// vectors of the committed suite (`suite/symtest_tests.c`). Returns how many.
pub fn write_seeds(previous: &Path, suite: &Path, dest: &Path) -> Result<usize, String> {
    let _ = std::fs::remove_dir_all(dest);
    std::fs::create_dir_all(dest).map_err(|e| format!("creating {}: {e}", dest.display()))?;
    let mut kept: Vec<PathBuf> = std::fs::read_dir(previous)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ktest"))
                .collect()
        })
        .unwrap_or_default();
    kept.sort();
    if !kept.is_empty() {
        for p in &kept {
            let to = dest.join(p.file_name().unwrap_or_default());
            std::fs::copy(p, &to).map_err(|e| format!("copying {}: {e}", p.display()))?;
        }
        return Ok(kept.len());
    }
    let Ok(text) = std::fs::read_to_string(suite.join("symtest_tests.c")) else {
        return Ok(0);
    };
    let vectors = crate::vectors::parse_tests_c(&text);
    for (i, objects) in vectors.iter().enumerate() {
        let t = symtest_ktest::KTest {
            args: Vec::new(),
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: objects
                .iter()
                .map(|(name, bytes)| symtest_ktest::KTestObject {
                    name: name.clone(),
                    bytes: bytes.clone(),
                })
                .collect(),
        };
        let p = dest.join(format!("suite{:06}.ktest", i + 1));
        t.write_to(&p)
            .map_err(|e| format!("writing {}: {e}", p.display()))?;
    }
    Ok(vectors.len())
}

/// Runs the committed suite in `suite` on the code as it is now (built by its
/// own Makefile; the tests that document bugs left out): each test whose
/// outcome or recorded behaviour changed. None when there is no suite symtest
/// emitted there, or it was edited.
pub fn behaviour_changes(suite: &Path) -> Result<Option<Vec<BehaviourChange>>, String> {
    if !suite.join(crate::emit::SUITE_MANIFEST).is_file()
        || crate::emit::refuse_replacing(suite).is_some()
    {
        return Ok(None);
    }
    let build = Command::new("make")
        .current_dir(suite)
        .output()
        .map_err(|e| format!("cannot run make: {e}"))?;
    if !build.status.success() {
        return Err(format!(
            "the committed suite in {} does not build on the new code:\n{}",
            suite.display(),
            String::from_utf8_lossy(&build.stderr)
                .lines()
                .rev()
                .take(15)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    let run = Command::new("./symtest_suite")
        .args(["--no-bugs", "--quiet"])
        .current_dir(suite)
        .output()
        .map_err(|e| format!("cannot run the committed suite: {e}"))?;
    Ok(Some(parse_failures(&String::from_utf8_lossy(&run.stdout))))
}

/// The failed tests of a runner's output, with the line that reproduces each.
pub fn parse_failures(out: &str) -> Vec<BehaviourChange> {
    let mut v: Vec<BehaviourChange> = Vec::new();
    for l in out.lines() {
        if let Some(rest) = l.strip_prefix("test ") {
            if let Some((name, detail)) = rest.split_once(" ... FAILED: ") {
                v.push(BehaviourChange {
                    test: name.to_string(),
                    detail: detail.to_string(),
                    reproduce: None,
                });
            }
        } else if let Some(r) = l
            .trim_start()
            .strip_prefix("reproduce: ")
            .or_else(|| l.trim_start().strip_prefix("inputs: "))
        {
            if let Some(last) = v.last_mut() {
                last.reproduce = Some(r.to_string());
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_lines_of_a_zero_context_diff() {
        let diff = "diff --git a/src/u.c b/src/u.c\n--- a/src/u.c\n+++ b/src/u.c\n@@ -10,0 +11,3 @@ f\n+a\n+b\n+c\n@@ -20,2 +23 @@\n-x\n-y\n+z\n@@ -30 +32,0 @@\n-gone\ndiff --git a/README b/README\n--- a/README\n+++ b/README\n@@ -1 +1 @@\n-a\n+b\n";
        let c = parse_diff(diff, Path::new("/p"));
        let lines: Vec<u32> = c.by_file[Path::new("/p/src/u.c")].iter().copied().collect();
        assert_eq!(lines, [11, 12, 13, 23, 33]);
        assert_eq!(c.by_file.len(), 1, "only sources");
        assert_eq!(c.count(), 5);
        assert!(c.target_lines().starts_with("/p/src/u.c:11\n"));
    }

    #[test]
    fn failures_with_their_reproduction() {
        let out = "test t1 ... ok\ntest t2 ... FAILED: stdout differs at line 1 (byte 0): expected \"1\\n\", got \"2\\n\" [exit 0]\n    reproduce: printf 'a' | uniq -c\n2 passed, 1 failed\n";
        let f = parse_failures(out);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].test, "t2");
        assert!(f[0].detail.starts_with("stdout differs"));
        assert_eq!(f[0].reproduce.as_deref(), Some("printf 'a' | uniq -c"));
    }
}
