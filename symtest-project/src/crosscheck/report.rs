//! What a crosscheck reports: `symtest-out/<name>/summary.json` and its line
//! of the run's summary.

use crate::baseline::Bug;
use crate::report::Status;
use serde::Serialize;
use std::path::PathBuf;

/// One crosscheck's results.
#[derive(Clone, Debug, Serialize)]
pub struct CrosscheckReport {
    pub name: String,
    pub package: Option<String>,
    /// The two program targets compared, first and second.
    pub programs: [String; 2],
    pub status: Status,
    pub message: Option<String>,
    pub budget_s: f64,
    pub explore_s: f64,
    pub total_s: f64,
    pub halt_reason: Option<String>,
    /// The watchdog stopped the engine: no statistics (pairs compared and
    /// proven equal are unknown), its tests are used.
    pub engine_overran: bool,
    /// Pairs of paths compared (`crosscheck_pairs` of the engine's statistics).
    pub paths: u64,
    /// Pairs whose outputs the solver proved equal (`crosscheck_equal`).
    pub paths_equal: u64,
    /// Tests of pairs whose outputs can differ.
    pub mismatches: usize,
    /// Mismatches whose input makes the two native programs differ.
    pub mismatches_confirmed: usize,
    pub mismatch_list: Vec<Mismatch>,
    /// Tests the engine wrote.
    pub tests_written: usize,
    /// Low-level bugs either program hit on the crosscheck's paths.
    pub bugs: Vec<SideBug>,
    pub out_dir: PathBuf,
    /// The suites documenting each program's behaviour on the confirmed
    /// mismatches (`tests/symtest/<name>/<program>/`), when written.
    pub suite_dirs: Vec<PathBuf>,
}

/// One mismatch test, replayed on both native programs.
#[derive(Clone, Debug, Serialize)]
pub struct Mismatch {
    /// The test (`testNNNNNN` in `symtest-out/<name>/`).
    pub test: String,
    /// What the engine said differs.
    pub engine: String,
    /// Each program's native run, first and second.
    pub sides: Vec<SideRun>,
    /// What differs natively: `exit status`, `stdout`.
    pub differs: Vec<String>,
    /// The first stdout line (1-based) that differs natively.
    pub stdout_line: Option<usize>,
    /// The native programs differ on the test's input.
    pub confirmed: bool,
    /// Why not, when not confirmed.
    pub reason: Option<String>,
}

/// One program's native run of a mismatch test.
#[derive(Clone, Debug, Serialize)]
pub struct SideRun {
    pub program: String,
    /// The input as a shell command that runs the program by hand.
    pub input: String,
    /// `exit N` or `signal N` (None: it varied between runs, or was not recorded).
    pub status: Option<String>,
    /// Its stdout line at [`Mismatch::stdout_line`] (None: stdout ends before it).
    pub first_differing_line: Option<String>,
}

/// A low-level bug (ptr, div, ...) the engine found on a crosscheck's path.
#[derive(Clone, Debug, Serialize)]
pub struct SideBug {
    pub bug: Bug,
    /// The engine's test that shows it.
    pub test: String,
    /// The programs whose native sanitizer build reproduces it.
    pub reproduced_by: Vec<String>,
}

impl CrosscheckReport {
    pub fn new(
        name: &str,
        package: Option<String>,
        programs: [String; 2],
        out_dir: PathBuf,
    ) -> Self {
        CrosscheckReport {
            name: name.to_string(),
            package,
            programs,
            status: Status::Ok,
            message: None,
            budget_s: 0.0,
            explore_s: 0.0,
            total_s: 0.0,
            halt_reason: None,
            engine_overran: false,
            paths: 0,
            paths_equal: 0,
            mismatches: 0,
            mismatches_confirmed: 0,
            mismatch_list: Vec::new(),
            tests_written: 0,
            bugs: Vec::new(),
            out_dir,
            suite_dirs: Vec::new(),
        }
    }

    /// Mismatches the native programs do not show.
    pub fn unconfirmed(&self) -> usize {
        self.mismatches - self.mismatches_confirmed
    }

    /// The run's summary line: `crosscheck wc-vs: 37 pairs compared, 30
    /// proven equal, 7 mismatches (7 confirmed natively)`.
    pub fn line(&self) -> String {
        if self.status != Status::Ok {
            return format!("crosscheck {}: {}", self.name, self.status.as_str());
        }
        let mut s = format!(
            "crosscheck {}: {} pairs compared, {} proven equal, {} mismatches ({} confirmed natively)",
            self.name, self.paths, self.paths_equal, self.mismatches, self.mismatches_confirmed
        );
        if self.engine_overran {
            s.push_str(" [engine overran its budget: no pair counts]");
        }
        if !self.bugs.is_empty() {
            s.push_str(&format!(", {} low-level bug(s)", self.bugs.len()));
        }
        s
    }
}

/// The summary's crosscheck lines.
pub fn lines(reports: &[CrosscheckReport]) -> String {
    reports.iter().map(|r| format!("{}\n", r.line())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_crosscheck() {
        let mut r = CrosscheckReport::new("wc-vs", None, ["a".into(), "b".into()], "o".into());
        r.paths = 37;
        r.paths_equal = 30;
        r.mismatches = 7;
        r.mismatches_confirmed = 7;
        assert_eq!(
            r.line(),
            "crosscheck wc-vs: 37 pairs compared, 30 proven equal, 7 mismatches (7 confirmed natively)"
        );
        r.status = Status::EngineFailed;
        assert_eq!(lines(&[r]), "crosscheck wc-vs: engine failed\n");
    }
}
