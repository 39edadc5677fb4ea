//! Bug identity and the PR-gating baseline (`--baseline FILE`, `--update-baseline`).
//!
//! A bug's identity is `kind:function:TEXT.N:callers`, where TEXT is a hash of the
//! faulting source line's text (whitespace collapsed), N counts identical lines
//! before it in the file, and callers are up to three calling functions. Line
//! numbers are recorded but not part of the identity, so edits elsewhere in the file
//! (which move lines) keep the identity; editing the faulting line, moving the bug to
//! another function or reaching it through other callers gives a new identity.

use crate::fsutil::{relative, write_atomic};
use crate::testcases::ErrorInfo;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Bug {
    pub id: String,
    pub target: String,
    pub kind: String,
    pub function: String,
    /// Relative to the project root when under it.
    pub file: String,
    pub line: u32,
    pub message: String,
    /// Function names, innermost first.
    pub stack: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct BaselineFile {
    version: u32,
    bugs: Vec<Bug>,
}

fn fnv1a(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

fn normalize(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn source_path(file: &str, root: &Path) -> PathBuf {
    let p = PathBuf::from(file);
    if p.is_absolute() {
        p
    } else {
        root.join(p)
    }
}

/// The identity and report of one bug.
pub fn identify(e: &ErrorInfo, root: &Path, target: &str) -> Bug {
    let function = e
        .stack
        .first()
        .map_or("?".to_string(), |f| f.function.clone());
    let path = source_path(&e.file, root);
    let text_part = match std::fs::read_to_string(&path) {
        Ok(src) => {
            let lines: Vec<String> = src.lines().map(normalize).collect();
            match lines.get((e.line as usize).wrapping_sub(1)) {
                Some(this) => {
                    let n = lines[..e.line as usize - 1]
                        .iter()
                        .filter(|l| *l == this)
                        .count();
                    format!("{:08x}.{n}", fnv1a(this))
                }
                None => format!("L{}", e.line),
            }
        }
        Err(_) => format!("L{}", e.line),
    };
    let callers: Vec<&str> = e
        .stack
        .iter()
        .skip(1)
        .take(3)
        .map(|f| f.function.as_str())
        .collect();
    let file = if path.starts_with(root) {
        relative(&path, root).display().to_string()
    } else {
        e.file.clone()
    };
    Bug {
        id: format!(
            "{}:{}:{}:{}",
            e.kind,
            function,
            text_part,
            callers.join("<")
        ),
        target: target.to_string(),
        kind: e.kind.clone(),
        function,
        file,
        line: e.line,
        message: e.message.clone(),
        stack: e.stack.iter().map(|f| f.function.clone()).collect(),
    }
}

pub fn load(path: &Path) -> Result<Vec<Bug>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading baseline {}", path.display()))?;
    let f: BaselineFile = serde_json::from_str(&text)
        .with_context(|| format!("parsing baseline {}", path.display()))?;
    Ok(f.bugs)
}

pub fn save(path: &Path, bugs: &[Bug]) -> Result<()> {
    let mut bugs = bugs.to_vec();
    bugs.sort_by(|a, b| (&a.target, &a.id).cmp(&(&b.target, &b.id)));
    bugs.dedup_by(|a, b| a.target == b.target && a.id == b.id);
    let text = serde_json::to_string_pretty(&BaselineFile { version: 1, bugs })?;
    write_atomic(path, format!("{text}\n").as_bytes())
}

/// Bugs of `found` the baseline does not list (same target and identity).
pub fn new_bugs<'a>(found: &'a [Bug], baseline: &[Bug]) -> Vec<&'a Bug> {
    found
        .iter()
        .filter(|b| {
            !baseline
                .iter()
                .any(|k| k.target == b.target && k.id == b.id)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testcases::Frame;

    #[test]
    fn identity_survives_moved_lines() {
        let dir = std::env::temp_dir().join(format!("symtest-baseline-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.c");
        let err = |line| ErrorInfo {
            kind: "div".into(),
            message: "division by zero".into(),
            file: f.display().to_string(),
            line,
            stack: vec![Frame {
                function: "f".into(),
                file: String::new(),
                line,
            }],
            suffix: None,
        };
        std::fs::write(&f, "int f(int x) {\n  return 1 / x;\n}\n").unwrap();
        let a = identify(&err(2), &dir, "t");
        std::fs::write(
            &f,
            "/* new comment */\n\nint f(int x) {\n  return   1 / x;\n}\n",
        )
        .unwrap();
        let b = identify(&err(4), &dir, "t");
        assert_eq!(a.id, b.id);
        assert_eq!(b.file, "a.c");
        std::fs::write(&f, "int f(int x) {\n  return 2 / x;\n}\n").unwrap();
        assert_ne!(identify(&err(2), &dir, "t").id, a.id);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
