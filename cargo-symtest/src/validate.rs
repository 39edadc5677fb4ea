//! `exec --validate`: after exploration, every test that records a bug is
//! replayed natively; an error whose test does not reproduce it there is not
//! reported as a bug. Its `.err` file becomes `.not-reproduced` (so `*.err`
//! lists confirmed bugs only), its JSON gets a `validation` object, and the
//! counts reach `stats.json` and the summary line.
//!
//! The native program is either C sources (built like `replay --source`, with
//! the replay runtime and sanitizers) or an executable: for a whole program
//! (`--posix-runtime`) the unmodified native build, replayed like `replay
//! --native`; otherwise a harness already linked with the replay runtime.

use crate::native_cmd::{self, NativeArgs};
use crate::replay::{self, Outcome};
use crate::replay_cmd::{recorded_outcome, reproduces};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Per-test replay limit.
const TIMEOUT: Duration = Duration::from_secs(10);

/// What validation found.
#[derive(Default, Debug)]
pub struct Validation {
    pub confirmed: u32,
    /// (test name, what the native run did).
    pub not_reproduced: Vec<(String, String)>,
}

/// The native program to validate against, built once.
pub struct Native {
    program: PathBuf,
    whole_program: bool,
    /// The directory of a harness built here (removed on drop).
    _scratch: Option<crate::tempdir::TempDir>,
}

impl Native {
    /// Checks the `--validate` arguments before exploring (C sources are built
    /// here, so a build error is reported before minutes of exploration).
    pub fn prepare(paths: &[PathBuf], whole_program: bool) -> Result<Native> {
        let sources: Vec<PathBuf> = paths
            .iter()
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .cloned()
            .collect();
        if sources.is_empty() {
            let [program] = paths else {
                bail!("--validate takes one native executable, or C source files (.c)");
            };
            if !program.is_file() {
                bail!("--validate: {} is not a file", program.display());
            }
            let program = std::fs::canonicalize(program)
                .with_context(|| format!("resolving {}", program.display()))?;
            return Ok(Native {
                program,
                whole_program,
                _scratch: None,
            });
        }
        if sources.len() != paths.len() {
            bail!("--validate takes one native executable, or C source files (.c), not both");
        }
        if whole_program {
            bail!(
                "--validate with --posix-runtime takes the native executable \
                 (e.g. from `cargo symtest cc --native`), not sources"
            );
        }
        let scratch = crate::tempdir::TempDir::new("validate")?;
        let program = scratch.path().join("harness");
        replay::build_native(
            &sources,
            &[],
            &symtest_project::paths::models_dir(),
            &program,
        )
        .context("--validate: building the native harness")?;
        let native = Native {
            program: std::fs::canonicalize(&program)?,
            whole_program: false,
            _scratch: Some(scratch),
        };
        Ok(native)
    }

    /// The native outcome of one test, and whether it reproduces the recorded one.
    fn check(&self, ktest: &Path) -> Result<(Outcome, bool)> {
        let recorded = recorded_outcome(ktest);
        if self.whole_program {
            let args = NativeArgs {
                program: &self.program,
                timeout: TIMEOUT,
                gcov_dir: None,
                keep_dirs: false,
                json: false,
            };
            let shim = crate::shim::shim(&symtest_project::paths::models_dir())?;
            let v = native_cmd::replay_one(ktest, &args, Some(&shim))?;
            return Ok((v.run.outcome, v.ok));
        }
        let (native, _stderr) = replay::replay(&self.program, ktest, TIMEOUT)?;
        Ok((native, recorded.is_some_and(|r| reproduces(r, native))))
    }

    /// Replays the bug tests `names` (`testNNNNNN` in `dir`) and demotes those
    /// that do not reproduce.
    pub fn validate(&self, dir: &Path, names: &[(String, String)]) -> Result<Validation> {
        let mut v = Validation::default();
        for (name, suffix) in names {
            let ktest = dir.join(format!("{name}.ktest"));
            let (native, ok) = self
                .check(&ktest)
                .with_context(|| format!("validating {}", ktest.display()))?;
            let what = match native {
                Outcome::Exit(c) => format!("the native run exited with status {c}"),
                other => format!("the native run ended with {other}"),
            };
            if !ok {
                let err = dir.join(format!("{name}.{suffix}.err"));
                let moved = dir.join(format!("{name}.{suffix}.not-reproduced"));
                if err.exists() {
                    std::fs::rename(&err, &moved)
                        .with_context(|| format!("renaming {}", err.display()))?;
                }
            }
            let json_path = ktest.with_extension("json");
            let text = std::fs::read_to_string(&json_path)
                .with_context(|| format!("reading {}", json_path.display()))?;
            let mut json: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("parsing {}", json_path.display()))?;
            json["validation"] = serde_json::json!({
                "reproduced": ok,
                "native": what,
            });
            crate::output::write_atomic(
                &json_path,
                serde_json::to_string_pretty(&json)?.as_bytes(),
            )?;
            if ok {
                v.confirmed += 1;
            } else {
                v.not_reproduced.push((name.clone(), what));
            }
        }
        Ok(v)
    }
}
