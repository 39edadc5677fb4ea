//! Run statistics (`stats.json`).

use serde::Serialize;

/// Per solver-chain layer: queries entering it, answered by it, time in it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LayerStat {
    pub name: String,
    pub queries: u64,
    pub answered: u64,
    pub time_s: f64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    pub instructions: u64,
    pub forks: u64,
    pub states: u64,
    pub states_peak: u64,
    pub paths_completed: u64,
    pub paths_early: u64,
    /// Paths stopped early whose test was completed: run to their end
    /// concretely on the test's inputs (see `Config::completion_instructions`).
    pub paths_run_to_end: u64,
    /// Instructions those runs took (not part of `instructions`).
    pub completion_instructions: u64,
    pub tests: u64,
    pub errors: u64,
    /// Feasibility and value questions the executor asked (including those a
    /// state's own model answered).
    pub queries: u64,
    /// Queries posed to the solver chain.
    pub chain_queries: u64,
    /// Queries that reached the solver backend.
    pub solver_queries: u64,
    pub solver_time_s: f64,
    /// Branches where the solver gave up (timeout) and the path followed its
    /// current model instead of ending.
    pub solver_degraded: u64,
    /// Queries that reached their time limit (see `--max-solver-time`).
    pub solver_timeouts: u64,
    /// Paths that ended because the solver gave up (or failed) on them:
    /// their continuations were not explored.
    pub solver_failures: u64,
    /// Paths whose test was not written because the solver could not solve
    /// their path condition.
    pub tests_unsolved: u64,
    pub time_s: f64,
    pub covered_instructions: u64,
    pub total_instructions: u64,
    pub covered_lines: u64,
    pub total_lines: u64,
    pub memory_peak_mb: f64,
    pub states_dropped: u64,
    /// Paths that ended at a limit of the engine or its models, by error
    /// kind (`exec`: an unsupported construct, `external`: a call of a
    /// function defined nowhere, `model`: an unmodelled case, `solver`).
    pub paths_ended_by_engine_limit: std::collections::BTreeMap<String, u64>,
    /// Paths ended by an assumption that cannot hold on them (no test, no bug).
    pub assumptions_pruned: u64,
    /// Seconds into the run when the last new source line was covered.
    pub last_new_line_s: f64,
    /// Seconds into the run when the first bug was found (0 if none).
    pub first_bug_s: f64,
    /// The solver chain, outermost layer first.
    pub solver_layers: Vec<LayerStat>,
}
