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
    /// Seed mode: seeds given, seeds dropped (the program made more symbolic
    /// objects than the seed has), paths that left every seed they followed.
    pub seeds: u64,
    pub seeds_dropped: u64,
    /// `--option-seeds`: seeds made from the program's options (counted in
    /// `seeds` too), and the objects seeds lacked and were extended with.
    pub option_seeds: u64,
    pub seed_objects_extended: u64,
    pub seed_paths_left: u64,
    /// Seeded paths that ran `SEED_STALL_INSTRUCTIONS` without new coverage
    /// and went on as ordinary paths.
    pub seed_paths_stalled: u64,
    /// Seeds recorded with their own arguments (the project's tests) whose
    /// run a path followed to its end, and the tests written of such seeds
    /// before the run (each its inputs as recorded, which the native replay
    /// runs to its end).
    pub seeds_ended: u64,
    pub seed_tests: u64,
    /// When the last path following a seed was done and the search proper
    /// began: seconds and instructions into the run (`null` without seeds,
    /// or when seeded paths were still running at the end).
    pub seeding_s: Option<f64>,
    pub seeding_instructions: Option<u64>,
    /// Directed runs: target lines the module has code on, and those reached.
    pub target_lines: u64,
    pub target_lines_reached: u64,
    pub forks: u64,
    /// `--merge-loops`: states merged into another at a loop head, and
    /// merges refused (different shapes, paths not provably disjoint, cost).
    pub states_merged: u64,
    pub merges_refused: u64,
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
    /// Crosschecking: pairs of paths (one of each program) compared, those
    /// proven to give the same exit status and standard output, and those
    /// with an input on which they differ (a `mismatch` test each).
    pub crosscheck_pairs: u64,
    pub crosscheck_equal: u64,
    pub crosscheck_mismatches: u64,
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
    /// Branches on a digest or checksum (see `Config::digest_depth`) that
    /// followed the path's model instead of forking.
    pub digest_branches: u64,
    /// Branches in library code under a program call site that had used up
    /// its forks (`Config::library_forks`): they followed the path's model.
    pub library_branches: u64,
    /// Queries that reached their time limit (see `--max-solver-time`).
    pub solver_timeouts: u64,
    /// Queries of the solver chain by how long each took (below 1 ms, 10 ms,
    /// 100 ms, 1 s, and longer), with the time spent in each class: whether a
    /// few slow queries or many quick ones make the solver's share.
    pub solver_query_times: Vec<QueryTimeClass>,
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
    /// Peak resident memory of the process (the OS's figure: `VmHWM`), MiB.
    pub memory_peak_mb: f64,
    /// States dropped at the memory cap (or lost with a refused suspend file).
    pub states_dropped: u64,
    /// Paths that ended at a limit of the engine or its models, by error
    /// kind (`exec`: an unsupported construct, `external`: a call of a
    /// function defined nowhere, `model`: an unmodelled case, `solver`).
    pub paths_ended_by_engine_limit: std::collections::BTreeMap<String, u64>,
    /// Paths ended by an assumption that cannot hold on them (no test, no bug).
    pub assumptions_pruned: u64,
    /// States on disk now (suspended at the memory cap).
    pub states_suspended: u64,
    /// Times a state was suspended to disk, and resumed.
    pub suspensions: u64,
    pub resumptions: u64,
    /// Most MiB of suspended states on disk at once.
    pub suspend_disk_peak_mb: f64,
    /// Seconds into the run when the last new source line was covered.
    pub last_new_line_s: f64,
    /// Seconds into the run when the first bug was found (0 if none).
    pub first_bug_s: f64,
    /// The solver chain, outermost layer first.
    pub solver_layers: Vec<LayerStat>,
    /// Where the memory of the live states went, at the largest number of
    /// live states a census saw (see [`MemoryCensus`]).
    pub memory: MemoryCensus,
}

/// One class of [`Stats::solver_query_times`].
#[derive(Clone, Debug, Default, Serialize)]
pub struct QueryTimeClass {
    /// "<1ms", "1-10ms", "10-100ms", "100ms-1s" or ">=1s".
    pub took: String,
    pub queries: u64,
    pub time_s: f64,
}

/// Where the live states' memory goes, in bytes: a census of every live state
/// in which data states share (object contents, address-space nodes, models,
/// coverage lists) is counted once. The run takes a census whenever the number
/// of live states grows fourfold past the last one and at the end; the one with the
/// most states is reported. What the program's start image holds
/// (globals as loaded, shared by every state until written) is `image_bytes`,
/// not per-state memory.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MemoryCensus {
    /// Live states counted.
    pub states: u64,
    /// Seconds into the run.
    pub time_s: f64,
    /// Resident memory of the process (the OS's figure) at the census, MiB.
    pub rss_mb: f64,
    /// Object contents copied on write (distinct copies, not the start image's).
    pub objects_copied: u64,
    /// Their concrete bytes (and bookkeeping).
    pub object_bytes: u64,
    /// Their symbolic bytes (sparse offset/expression pairs).
    pub symbolic_byte_entries: u64,
    pub symbolic_bytes: u64,
    /// Allocation records (objects allocated after start: stack, heap).
    pub object_records: u64,
    pub object_record_bytes: u64,
    /// Nodes of the states' address spaces (the persistent object vectors)
    /// not shared with the start image.
    pub address_space_nodes: u64,
    pub address_space_bytes: u64,
    /// Path constraints, equalities and preferences (expression ids).
    pub constraints: u64,
    pub constraint_bytes: u64,
    /// Stack frames (registers, allocas).
    pub stack_frames: u64,
    pub stack_bytes: u64,
    /// Recorded standard output (POSIX model).
    pub stdout_bytes: u64,
    /// The state records themselves, symbolic-object lists, setjmp targets.
    pub state_bytes: u64,
    /// Models kept by states (distinct).
    pub models: u64,
    pub model_bytes: u64,
    /// Not-yet-tested coverage lists (distinct nodes).
    pub cover_nodes: u64,
    pub cover_bytes: u64,
    /// Process-tree nodes (random-path search).
    pub ptree_nodes: u64,
    pub ptree_bytes: u64,
    /// States suspended to disk, and the memory their records keep (the
    /// data they share with other states is counted there).
    pub suspended: u64,
    pub suspended_record_bytes: u64,
    /// Sum of the per-state categories above, divided by `states`.
    pub per_state_bytes: f64,
    /// Run-wide: the start image (globals as loaded) and the expression pool.
    pub image_bytes: u64,
    pub expr_nodes: u64,
    pub expr_pool_bytes: u64,
    /// Seconds spent taking censuses in this run.
    pub census_time_s: f64,
}
