//! symtest's project pipeline, as a library: the `cargo symtest` binary parses
//! flags and draws events; everything a project run does is here.
//!
//! Stages (each a function over plain data):
//! - [`capture`] + [`from_build`]: a project's own build with the compiler, archiver and linker
//!   interposed → bitcode per executable and static library, a manifest;
//! - [`discovery`] + [`config`]: the targets of `symtest.toml` /
//!   `[package.metadata.symtest]`, and its crosschecks;
//! - [`seeds`]: a program's runs under the project's own tests (and input
//!   files) as seeds of its exploration;
//! - [`compile`]: clang-19 → one bitcode module per target;
//! - [`explore`]: the engine (`cargo-symtest exec`) in its own process;
//! - [`native`] + [`minimize`]: the native coverage build, per-test gcov, set cover;
//! - [`coverage`]: gcov of the kept tests, claim vs. gcov;
//! - [`emit`]: the native regression suite;
//! - [`stages`] are these as typed functions (`compile` → `explore` → `minimize`
//!   → `replay` → `emit`), [`pipeline`] strings them together per target,
//!   [`crosscheck`] runs two program targets against each other, [`run`] over all targets
//!   (workers, summary, baseline gate, SARIF, JUnit), reporting [`progress::Event`]s.
//!
//! Library errors are [`Error`]; bad input (exit code 2) is [`Error::BadInput`]
//! or [`Error::Config`].

pub mod baseline;
pub mod capture;
pub mod compile;
pub mod config;
pub mod covdata;
pub mod coverage;
pub mod crosscheck;
pub mod discovery;
pub mod eloc;
pub mod emit;
pub mod escape;
pub mod explore;
pub mod explore_options;
pub mod from_build;
pub mod fsutil;
pub mod gate;
pub mod glob;
pub mod interrupt;
pub mod junit;
pub mod library;
pub mod lock;
pub mod minimize;
pub mod native;
pub mod paths;
pub mod pipeline;
pub mod progress;
pub mod recipe;
pub mod report;
pub mod run;
pub mod runtime;
pub mod sarif;
pub mod seeds;
pub mod stages;
pub mod testcases;
pub mod toolchain;
pub mod units;
pub mod user_targets;
pub mod vectors;
pub mod why;

pub use run::{run, select, Finished, RunOptions, Selection};

/// Exit code for bad input and usage errors.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for "bugs found" / "replay mismatch" / "a target failed".
pub const EXIT_FOUND: u8 = 1;

/// What the pipeline's entry points return on failure.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: options, a selection that finds nothing (exit code 2).
    #[error("{0}")]
    BadInput(String),
    /// The project's build failed (exit code 2): `output` is what it printed.
    #[error("{message}")]
    BuildFailed { message: String, output: String },
    /// A configuration error at file:line:key (exit code 2).
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    /// Anything else (I/O, a tool that cannot run), with its context.
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl From<discovery::DiscoveryError> for Error {
    fn from(e: discovery::DiscoveryError) -> Self {
        match e {
            discovery::DiscoveryError::Config(c) => Error::Config(c),
            discovery::DiscoveryError::Other(m) => Error::BadInput(m),
        }
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Other(e.into())
    }
}
