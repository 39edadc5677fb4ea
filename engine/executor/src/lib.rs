//! symtest's symbolic executor (paper §2–§3).
//!
//! Interprets a [`symtest_ir::Module`] bit-precisely: every branch the path
//! condition does not decide forks the state, every dangerous operation is checked
//! (with an error path forked off when the error is feasible), and each path that
//! ends (or covered new code when a limit halts the run) yields a concrete test.
//!
//! The engine prints nothing: it reports through [`EventSink`]; the CLI draws.

mod budget;
mod census;
mod cfg;
mod complete;
mod config;
mod constraints;
mod coverage;
mod crosscheck;
mod environment;
mod executor;
mod inst;
mod memory;
mod memory_cap;
mod merge;
mod native_call;
mod option_seeds;
mod plist;
mod ptree;
mod query;
mod regs;
mod rng;
mod rss;
mod run;
mod search;
mod seeds;
mod special;
mod special_env;
mod special_heap;
mod special_klee;
mod special_native;
mod state;
mod stats;
mod step;
mod suspend;
mod targets;
mod terminated;
mod termination;
mod testgen;
mod value;
mod why;

pub use budget::SYMBOLIC_BYTE_COST;
pub use config::{
    Config, SearchKind, Seed, Weight, DEFAULT_DIGEST_DEPTH, DEFAULT_DIRECTED_SHARE,
    DEFAULT_LIBRARY_FORKS, DEFAULT_MAX_ALLOC_SIZE,
};
pub use environment::PROGRAM_ENVIRONMENT;
pub use rss::CountingAllocator;
pub use special::undefined_functions;
pub use stats::{MemoryCensus, Stats};
pub use termination::{ErrorKind, ErrorReport, StackEntry, TestOutcome, UnknownErrorKind};
pub use why::{BranchWhy, LineWhy, Reason, WhyReport};

use symtest_ktest::KTest;

/// A test the engine wrote: concrete inputs and the outcome they lead to.
#[derive(Clone, Debug)]
pub struct TestCase {
    pub ktest: KTest,
    pub outcome: TestOutcome,
    /// Did this path cover instructions no earlier test covered?
    pub covered_new: bool,
    /// Instructions this run had covered when the test was written.
    pub instructions_covered: u32,
    /// The source lines (of the counted files) that this path executed before
    /// any other path of the run, sorted: its share of the run's coverage
    /// claim. A claimed line no test lists was first executed by a path that
    /// ended without a test.
    pub first_lines: Vec<(String, u32)>,
    /// Seconds into the run when the test was written.
    pub elapsed_s: f64,
    /// What the path wrote to standard output under the POSIX model (first 64 KiB).
    pub stdout: Vec<u8>,
    /// The engine stopped this path early (the reason) and then ran it to its
    /// end concretely on the test's inputs: `outcome` is where that run ended.
    pub completed_after: Option<String>,
}

/// Something the engine reports while it runs.
#[derive(Debug)]
pub enum Event<'a> {
    Test(&'a TestCase),
    /// A model limitation or a questionable program behaviour worth telling the user.
    Warning(&'a str),
    /// Output of `symtest_print_expr`.
    Print(&'a str),
    /// Periodic progress (about once per second of exploration).
    Progress(&'a Stats),
}

/// Receives the engine's events.
pub trait EventSink {
    fn event(&mut self, event: Event<'_>);
}

/// Why the run stopped, with the final statistics.
#[derive(Clone, Debug)]
pub struct RunSummary {
    pub stats: Stats,
    pub halt_reason: String,
    /// Every source line (file, line) some path executed, sorted.
    pub covered_lines: Vec<(String, u32)>,
    /// Directed runs: each target line the module has code on (file as the
    /// module names it, line) and whether a path reached it.
    pub target_lines: Vec<(String, u32, bool)>,
    /// Why the other lines, and the branch sides no path took, were not.
    pub why: WhyReport,
}

/// Errors that prevent a run from starting (everything after start is an outcome).
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error("entry function `{0}` not found in the module (is it defined and not static?)")]
    NoEntry(String),
    #[error("entry function `{0}` is only declared, not defined, in the module")]
    EntryNotDefined(String),
    #[error("invalid configuration: {0}")]
    BadConfig(String),
    #[error("--max-memory {cap} MiB is too small: the run uses {needed} MiB before exploring (the loaded program and the engine); give at least {} MiB", (needed * 2).div_ceil(64) * 64)]
    MemoryCap { cap: u64, needed: u64 },
}

/// Explores `module` from `config.entry` with `solver`, reporting to `sink`.
pub fn run(
    module: &symtest_ir::Module,
    config: &Config,
    solver: Box<dyn symtest_solver::Solver>,
    sink: &mut dyn EventSink,
) -> Result<RunSummary, ExecError> {
    let mut ex = executor::Executor::new(module, config.clone(), solver, sink)?;
    let summary = ex.run();
    if config.exit_after_run {
        // What has an effect when dropped is dropped: the suspend directory
        // is removed.
        ex.store = None;
        std::mem::forget(ex);
    }
    Ok(summary)
}
