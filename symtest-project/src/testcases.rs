//! Reading the tests an engine run wrote (`testNNNNNN.json` beside each `.ktest`).

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Frame {
    pub function: String,
    pub file: String,
    pub line: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct ErrorInfo {
    pub kind: String,
    pub message: String,
    pub file: String,
    pub line: u32,
    pub stack: Vec<Frame>,
    /// `klee_report_error`'s file suffix (`foo.err`), when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Exit {
        code: i64,
    },
    Error(ErrorInfo),
    Early {
        reason: String,
        /// The engine ran the path concretely this many instructions on
        /// the test's inputs and did not see it end.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        no_end_within: Option<u64>,
    },
}

#[derive(Deserialize)]
struct TestJson {
    outcome: Outcome,
    objects: Vec<ObjectJson>,
    #[serde(default)]
    first_lines: std::collections::BTreeMap<String, Vec<u32>>,
    /// The program's arguments after argv[0] as the path ran (the engine's
    /// `--` arguments, or a seed's own).
    #[serde(default)]
    program_args: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct ObjectJson {
    name: String,
    hex: String,
}

/// How the early reason of a recorded seed's own test begins (the
/// engine's `write_seed_test`).
pub const SEED_TEST_REASON: &str = "a seed from the project's tests";

/// Kinds that are limits of the engine or its models, not program bugs.
pub const NOT_BUGS: &[&str] = &["exec", "external", "model", "solver"];

#[derive(Clone, Debug)]
pub struct EngineTest {
    /// `testNNNNNN` in the engine's run directory.
    pub name: String,
    pub dir: PathBuf,
    pub outcome: Outcome,
    pub objects: Vec<(String, Vec<u8>)>,
    /// Per source file (as the engine names it), the lines this test's path
    /// executed before any other path: its share of the engine's claim.
    pub first_lines: std::collections::BTreeMap<String, Vec<u32>>,
    /// The arguments the path ran under (after argv[0]), when the engine
    /// recorded them.
    pub program_args: Option<Vec<String>>,
}

impl EngineTest {
    /// The arguments this test runs under when they are not its target's
    /// (a seed's own, `exec --seed-own-args`).
    pub fn own_args<'t>(&'t self, target: &crate::discovery::Target) -> Option<&'t [String]> {
        self.program_args
            .as_deref()
            .filter(|a| *a != target.args.as_slice())
    }

    /// A run recorded from the project's own tests whose path the engine
    /// did not follow to its end (`exec --seed-own-args` writes its test
    /// with this reason): the run ended under the project's tests, so its
    /// replay gets the whole timeout.
    pub fn recorded_seed(&self) -> bool {
        matches!(&self.outcome, Outcome::Early { reason, .. } if reason.starts_with(SEED_TEST_REASON))
    }

    /// The engine stopped the path early and ran it concretely on the
    /// test's inputs without seeing it end (`tail -f`).
    pub fn does_not_end(&self) -> bool {
        matches!(
            &self.outcome,
            Outcome::Early {
                no_end_within: Some(_),
                ..
            }
        )
    }

    /// The engine stopped the path at one of its limits (a call of a function
    /// defined nowhere, an unsupported instruction, a model's or the
    /// solver's limit: the kinds of [`NOT_BUGS`]): it claims nothing of how
    /// the run goes on from there, so a native run's end is not compared
    /// with the engine (only with the behaviour the suite recorded).
    pub fn stopped_at_limit(&self) -> Option<&ErrorInfo> {
        match &self.outcome {
            Outcome::Error(e) if NOT_BUGS.contains(&e.kind.as_str()) => Some(e),
            _ => None,
        }
    }

    pub fn bug(&self) -> Option<&ErrorInfo> {
        match &self.outcome {
            Outcome::Error(e) if !NOT_BUGS.contains(&e.kind.as_str()) => Some(e),
            _ => None,
        }
    }

    /// The files of this test (`.ktest`, `.json`, `.<kind>.err`).
    pub fn files(&self) -> Vec<PathBuf> {
        let mut v = vec![
            self.dir.join(format!("{}.ktest", self.name)),
            self.dir.join(format!("{}.json", self.name)),
        ];
        if let Outcome::Error(e) = &self.outcome {
            let suffix = e
                .suffix
                .clone()
                .unwrap_or_else(|| format!("{}.err", e.kind));
            v.push(self.dir.join(format!("{}.{suffix}", self.name)));
        }
        v
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .filter_map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok())
        .collect()
}

/// Every test in an exec output directory, in order.
pub fn read_dir(dir: &Path) -> Result<Vec<EngineTest>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.starts_with("test") && n.ends_with(".json"))
        .map(|n| n.trim_end_matches(".json").to_string())
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let p = dir.join(format!("{name}.json"));
        let text =
            std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
        let t: TestJson =
            serde_json::from_str(&text).with_context(|| format!("parsing {}", p.display()))?;
        out.push(EngineTest {
            name,
            dir: dir.to_path_buf(),
            outcome: t.outcome,
            objects: t
                .objects
                .into_iter()
                .map(|o| (o.name, unhex(&o.hex)))
                .collect(),
            first_lines: t.first_lines,
            program_args: t.program_args,
        });
    }
    Ok(out)
}
