//! Progress: the pipeline's workers send [`Event`]s; the caller's sink (in
//! `cargo symtest`, one reporter on the main thread) draws them.

use crate::report::TargetReport;
use serde::Serialize;

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Capturing,
    /// Recording the program's runs under the project's tests (seeds).
    Seeding,
    Compiling,
    Exploring,
    Minimizing,
    Replaying,
    Emitting,
}

impl Phase {
    /// The status word of the phase (`Compiling`, ...).
    pub fn verb(self) -> &'static str {
        match self {
            Phase::Capturing => "Capturing",
            Phase::Seeding => "Seeding",
            Phase::Compiling => "Compiling",
            Phase::Exploring => "Exploring",
            Phase::Minimizing => "Minimizing",
            Phase::Replaying => "Replaying",
            Phase::Emitting => "Emitting",
        }
    }
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Info,
    Warning,
    Error,
}

/// Live numbers of a target being explored.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Live {
    pub elapsed_s: f64,
    pub budget_s: f64,
    pub paths: u64,
    pub tests: u64,
    pub covered_lines: u64,
    pub bugs: u64,
}

#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// Another run holds the lock on `dir` (its process id when known): this
    /// run waits for it (`--no-wait` fails instead). Sent once per directory.
    WaitingForLock {
        dir: std::path::PathBuf,
        holder: Option<u32>,
    },
    /// The targets and crosschecks are known; the work begins.
    Started {
        targets: usize,
        crosschecks: usize,
    },
    Phase {
        target: String,
        phase: Phase,
        detail: String,
    },
    Progress {
        target: String,
        live: Live,
    },
    Message {
        target: String,
        level: Level,
        text: String,
    },
    TargetFinished {
        report: Box<TargetReport>,
    },
    CrosscheckFinished {
        report: Box<crate::crosscheck::report::CrosscheckReport>,
    },
}
