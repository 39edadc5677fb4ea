//! The `exec` output directory, in KLEE's layout: `testNNNNNN.ktest`,
//! `testNNNNNN.<kind>.err`, our `testNNNNNN.json` view, `stats.json`, `info`.

use anyhow::{Context, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use symtest_executor::{TestCase, TestOutcome};

pub struct OutputDir {
    pub dir: PathBuf,
    next: u32,
    /// Recorded in every test's JSON (ENV_CONTRACT.md): was the POSIX runtime on,
    /// and the words after `--` exactly as given.
    pub posix: bool,
    pub program_args: Vec<String>,
    /// Off with `--write-no-tests`: tests are numbered but not written.
    pub write_tests: bool,
    /// `--max-alloc-size`, recorded in every test's JSON when it is not the
    /// default, for the native replay to enforce the same limit.
    pub max_alloc_size: u64,
}

/// Our JSON view of one test (what the native replay must reproduce).
#[derive(Serialize)]
struct TestJson<'a> {
    ktest: String,
    outcome: &'a TestOutcome,
    covered_new: bool,
    /// Seconds into the run (not part of the deterministic output: the .ktest is).
    elapsed_s: f64,
    objects: Vec<ObjectJson<'a>>,
    posix: bool,
    program_args: &'a [String],
    /// Standard output under the POSIX model: as text (lossy) and exactly (hex).
    #[serde(skip_serializing_if = "Option::is_none")]
    stdout: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stdout_hex: Option<String>,
    /// The engine stopped the path early for this reason, then ran it to its
    /// end concretely on these inputs: `outcome` is where it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    completed_after: Option<&'a str>,
    /// The run's `--max-alloc-size` when it is not the default (1 GiB).
    #[serde(skip_serializing_if = "Option::is_none")]
    max_alloc_size: Option<u64>,
    /// Per source file, the lines this path executed before any other path
    /// of the run (its share of `coverage.json`).
    first_lines: std::collections::BTreeMap<&'a str, Vec<u32>>,
}

#[derive(Serialize)]
struct ObjectJson<'a> {
    name: &'a str,
    size: usize,
    hex: String,
}

impl OutputDir {
    /// Creates `dir`, or the next free `symtest-out/exec-N` with an `exec-last` link.
    pub fn create(dir: Option<&Path>) -> Result<OutputDir> {
        let dir = match dir {
            Some(d) => {
                if d.exists() {
                    let empty = std::fs::read_dir(d)
                        .with_context(|| format!("reading {}", d.display()))?
                        .next()
                        .is_none();
                    if !empty {
                        anyhow::bail!(
                            "output directory {} exists and is not empty (choose another --output-dir or remove it)",
                            d.display()
                        );
                    }
                }
                std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
                d.to_path_buf()
            }
            None => {
                let root = PathBuf::from("symtest-out");
                std::fs::create_dir_all(&root)
                    .with_context(|| format!("creating {}", root.display()))?;
                let mut n = 0;
                let dir = loop {
                    let d = root.join(format!("exec-{n}"));
                    match std::fs::create_dir(&d) {
                        Ok(()) => break d,
                        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
                        Err(e) => {
                            return Err(e).with_context(|| format!("creating {}", d.display()))
                        }
                    }
                };
                let link = root.join("exec-last");
                let _ = std::fs::remove_file(&link);
                let _ = std::os::unix::fs::symlink(dir.file_name().expect("named"), &link);
                dir
            }
        };
        Ok(OutputDir {
            dir,
            next: 1,
            posix: false,
            program_args: Vec::new(),
            write_tests: true,
            max_alloc_size: symtest_executor::DEFAULT_MAX_ALLOC_SIZE,
        })
    }

    /// Writes one test; returns its base name (`testNNNNNN`).
    pub fn write_test(&mut self, t: &TestCase) -> Result<String> {
        let name = format!("test{:06}", self.next);
        self.next += 1;
        if !self.write_tests {
            return Ok(format!("{name}, not written: --write-no-tests"));
        }
        let ktest_path = self.dir.join(format!("{name}.ktest"));
        t.ktest
            .write_to(&ktest_path)
            .with_context(|| format!("writing {}", ktest_path.display()))?;
        if let TestOutcome::Error(report) = &t.outcome {
            let err = self.dir.join(format!("{name}.{}", report.file_suffix()));
            write_atomic(&err, report.render().as_bytes())?;
        }
        let json = TestJson {
            ktest: format!("{name}.ktest"),
            outcome: &t.outcome,
            covered_new: t.covered_new,
            elapsed_s: t.elapsed_s,
            objects: t
                .ktest
                .objects
                .iter()
                .map(|o| ObjectJson {
                    name: &o.name,
                    size: o.bytes.len(),
                    hex: o.bytes.iter().map(|b| format!("{b:02x}")).collect(),
                })
                .collect(),
            posix: self.posix,
            // The arguments this path ran under: those after `--`, or a
            // seed's own (`--seed-own-args`).
            program_args: match t.ktest.args.split_first() {
                Some((_, rest)) if self.posix => rest,
                _ => &self.program_args,
            },
            first_lines: {
                let mut m: std::collections::BTreeMap<&str, Vec<u32>> = Default::default();
                for (f, l) in &t.first_lines {
                    m.entry(f.as_str()).or_default().push(*l);
                }
                m
            },
            stdout: self
                .posix
                .then(|| String::from_utf8_lossy(&t.stdout).into_owned()),
            stdout_hex: self
                .posix
                .then(|| t.stdout.iter().map(|b| format!("{b:02x}")).collect()),
            completed_after: t.completed_after.as_deref(),
            max_alloc_size: (self.max_alloc_size != symtest_executor::DEFAULT_MAX_ALLOC_SIZE)
                .then_some(self.max_alloc_size),
        };
        let text = serde_json::to_string_pretty(&json)?;
        write_atomic(&self.dir.join(format!("{name}.json")), text.as_bytes())?;
        Ok(name)
    }

    pub fn write_file(&self, name: &str, bytes: &[u8]) -> Result<()> {
        write_atomic(&self.dir.join(name), bytes)
    }
}

/// Writes through a temporary file and a rename, so readers never see half a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp~");
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

/// `coverage.json`: the source lines the engine executed, `{"lines": {file:
/// [line, ...]}}`, the target lines of a directed run and whether a path
/// reached each (`targets`), and why the others were not (`why`: the engine's
/// reason for each line no path executed and each branch side no path took).
pub fn coverage_json(
    lines: &[(String, u32)],
    targets: &[(String, u32, bool)],
    why: &symtest_executor::WhyReport,
) -> String {
    let mut by_file: std::collections::BTreeMap<&str, Vec<u32>> = Default::default();
    for (f, l) in lines {
        by_file.entry(f).or_default().push(*l);
    }
    let targets: Vec<serde_json::Value> = targets
        .iter()
        .map(|(f, l, r)| serde_json::json!({"file": f, "line": l, "reached": r}))
        .collect();
    serde_json::json!({ "lines": by_file, "targets": targets, "why": why }).to_string()
}
