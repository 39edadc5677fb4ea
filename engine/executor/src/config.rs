//! Engine configuration, built by the CLI and passed down explicitly.

use std::time::{Duration, Instant};

/// A search heuristic (§3.4; seed 001 ch. 3.4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SearchKind {
    Dfs,
    Bfs,
    RandomState,
    RandomPath,
    /// Non-uniform random search weighted by a heuristic.
    Nurs(Weight),
}

/// Weights of the non-uniform random searcher.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Weight {
    /// States that recently covered new code, close to uncovered code.
    CovNew,
    /// Minimum distance to an uncovered instruction.
    Md2u,
    /// Depth (number of branches taken).
    Depth,
    /// 1/2^depth.
    Rp,
    /// Instruction count of the state's current instruction (rarely executed first).
    Icnt,
    /// Call-path instruction count.
    Cpicnt,
    /// Query cost (cheaper states first).
    Qc,
    /// Distance to the nearest target line not reached yet
    /// ([`Config::target_lines`]).
    Target,
}

impl SearchKind {
    /// Parses a searcher name as KLEE spells it (`dfs`, `bfs`, `random-state`,
    /// `random-path`, `nurs:covnew`, `nurs:md2u`, `nurs:depth`, `nurs:rp`,
    /// `nurs:icnt`, `nurs:cpicnt`, `nurs:qc`).
    pub fn parse(s: &str) -> Option<SearchKind> {
        Some(match s {
            "dfs" => SearchKind::Dfs,
            "bfs" => SearchKind::Bfs,
            "random-state" => SearchKind::RandomState,
            "random-path" => SearchKind::RandomPath,
            "nurs:covnew" => SearchKind::Nurs(Weight::CovNew),
            "nurs:md2u" => SearchKind::Nurs(Weight::Md2u),
            "nurs:depth" => SearchKind::Nurs(Weight::Depth),
            "nurs:rp" => SearchKind::Nurs(Weight::Rp),
            "nurs:icnt" => SearchKind::Nurs(Weight::Icnt),
            "nurs:cpicnt" => SearchKind::Nurs(Weight::Cpicnt),
            "nurs:qc" => SearchKind::Nurs(Weight::Qc),
            "nurs:target" => SearchKind::Nurs(Weight::Target),
            _ => return None,
        })
    }

    pub const NAMES: &'static [&'static str] = &[
        "dfs",
        "bfs",
        "random-state",
        "random-path",
        "nurs:covnew",
        "nurs:md2u",
        "nurs:depth",
        "nurs:rp",
        "nurs:icnt",
        "nurs:cpicnt",
        "nurs:qc",
        "nurs:target",
    ];
}

/// A seed: the objects of a test in order (name, bytes).
pub type Seed = Vec<(String, Vec<u8>)>;

/// Default of `Config::directed_share`: seven tenths of the budget on the
/// seeds and the target lines, the rest on the configured searcher.
pub const DEFAULT_DIRECTED_SHARE: f64 = 0.7;

/// Default of `Config::library_forks`.
pub const DEFAULT_LIBRARY_FORKS: u64 = 128;

/// Default of `Config::max_alloc_size`: 1 GiB, whatever the machine, so the
/// same inputs give the same tests everywhere. Native builds enforce the same
/// limit through AddressSanitizer's `max_allocation_size_mb` (which refuses a
/// request above that many MiB, as the engine refuses one above this).
pub const DEFAULT_MAX_ALLOC_SIZE: u64 = 1 << 30;

/// Default of `Config::digest_depth` (see `ExprPool::depth`). Parsing and
/// text processing branch on conditions far shallower than this; a hash's
/// output is hundreds deep, checksums and floating-point arithmetic tens to
/// a hundred. Not forking on the deepest conditions, whose queries are the
/// costliest and rarely lead anywhere new, leaves time for the rest of the
/// program; a much lower limit also stops the shallower arithmetic from
/// forking, and code behind it goes uncovered.
pub const DEFAULT_DIGEST_DEPTH: u32 = 60;

/// Everything that steers one exploration.
#[derive(Clone, Debug)]
pub struct Config {
    /// Function to start in (`main`).
    pub entry: String,
    /// `argv` of the entry function (argv[0] first), if it takes arguments.
    pub argv: Vec<String>,
    /// Crosschecking (paper §5.5): the second program's entry function (in a
    /// module from `symtest_loader::load_bitcode_pair`) and its `argv`. Each
    /// path runs the first program to its end, then the second from the same
    /// symbolic inputs, and compares their exit status and standard output.
    pub crosscheck: Option<(String, Vec<String>)>,
    /// Per seed (by index into `seeds`; missing or `None`: none), the argv it
    /// was recorded under (`exec --seed-own-args`): such a seed starts its own
    /// path from the entry with that argv, its own symbolic environment,
    /// instead of following the first path under `argv`.
    pub seed_args: Vec<Option<Vec<String>>>,
    pub max_time: Option<Duration>,
    /// When the run's clock started (`--max-time` counts from it): the caller's
    /// start when it spent part of the budget before exploring (loading the
    /// bitcode); `None`: when exploration starts.
    pub started_at: Option<Instant>,
    /// The process ends right after the run (the CLI): the engine's memory
    /// (the expression pool, the states; millions of allocations after a
    /// large input) is left to the OS instead of freed one allocation at a
    /// time, which took a tenth of a second and more past `--max-time`.
    pub exit_after_run: bool,
    pub max_instructions: Option<u64>,
    /// Memory cap in MiB (resident memory as the OS reports it); near it,
    /// states are suspended to `suspend_dir` (or dropped when that fails).
    pub max_memory_mb: Option<u64>,
    /// Where states are suspended at the memory cap (`None`: they are dropped).
    pub suspend_dir: Option<std::path::PathBuf>,
    /// Most MiB of suspended states on disk at once.
    pub max_suspend_disk_mb: u64,
    pub max_forks: Option<u64>,
    pub max_depth: Option<u32>,
    /// Per-query solver timeout.
    pub max_solver_time: Option<Duration>,
    /// Searchers interleaved round-robin.
    pub search: Vec<SearchKind>,
    /// Instructions a state runs before the searcher picks again.
    pub batch_instructions: u64,
    /// A batch dives through this many forks (0: none): after a fork it goes
    /// on in the newest child, and when a path ends in the newest waiting
    /// child (depth first within the batch), instead of returning to the
    /// searcher at every fork.
    pub dive_forks: u32,
    /// `--merge-loops`: states that reach a loop head of the program's own
    /// code wait there for their siblings and are merged with them
    /// (`merge/`).
    pub merge_loops: bool,
    /// Optional wall-clock time slice per state (non-deterministic; off by default).
    pub batch_time: Option<Duration>,
    pub seed: u64,
    /// Write a test for every completed path, not only those covering new code.
    pub emit_all: bool,
    /// Maximum number of objects a symbolic pointer is resolved to.
    pub max_resolutions: u32,
    /// Maximum number of concrete sizes a symbolic allocation size is tried with.
    pub max_sym_alloc_sizes: u32,
    /// Largest single allocation (bytes); larger requests return NULL.
    pub max_alloc_size: u64,
    /// Solver-chain layers that live in the executor and the expression pool (§3.3):
    /// rewriting at construction, constraint-set simplification, implied value
    /// concretization. Switching them off changes speed, never answers.
    pub rewrite_expressions: bool,
    pub simplify_constraints: bool,
    pub implied_value_concretization: bool,
    /// `--external-calls concrete`: undefined functions on the allow-list of pure
    /// functions run natively on concretized arguments (otherwise: `external` error).
    pub external_calls_concrete: bool,
    /// `--external-calls all`: besides the allow-list, any other undefined
    /// function the host's C library exports runs natively (in a child
    /// process) on concretized arguments.
    pub external_calls_all: bool,
    /// KLEE's `--max-tests`: stop after writing this many tests.
    pub max_tests: Option<u64>,
    /// The executor's end of the counter-example cache (`cex` layer): a state keeps
    /// the last model of its path condition, and a condition that holds under it
    /// is feasible without a query (the subset's solution tried on the superset).
    pub reuse_state_model: bool,
    /// The program's own source files (when a libc is linked in): their lines
    /// count in the reported line coverage, and the engine's own overshift
    /// check applies to their code only; `None`: every file.
    pub coverage_files: Option<Vec<String>>,
    /// `--fp symbolic` (default): float and double operations on symbolic
    /// operands build floating-point expressions; off (`--fp concrete`):
    /// such operands are concretized with a warning.
    pub symbolic_fp: bool,
    /// `--fp full`: long double (x86_fp80) is symbolic too. Off by default:
    /// musl formats every double through long double (`printf("%f")` of a
    /// symbolic double then spends its time in the solver); a symbolic long
    /// double operand is concretized with a warning instead.
    pub symbolic_long_double: bool,
    /// A state stopped before its end (run halted, memory cap) whose test is
    /// written is first run to its end concretely on the test's inputs, for at
    /// most this many instructions, so the test records the outcome a native
    /// replay can check (`0`: never; the test then records only why the path
    /// stopped). Under `max_time`, completions stop 8% of the budget after it.
    pub completion_instructions: u64,
    /// KLEE's `--check-overshift` (on by default): a shift by at least the
    /// value's width in the program's own code is an `overflow` error, whether
    /// or not UBSan checks were compiled in.
    pub check_overshift: bool,
    /// KLEE's `--check-div-zero` (on by default): division and remainder by
    /// zero are `div` errors.
    pub check_div_zero: bool,
    /// `strcmp`, `strncmp`, `memcmp` and `bcmp` with concrete pointers and
    /// length computed as one expression instead of forking at every byte
    /// (inst/strcmp.rs; off by default: it changes which options a run
    /// reaches more than how many, so it is no default gain).
    pub summarize_comparisons: bool,
    /// KLEE's `--emit-all-errors`: a test for every error path, not only the
    /// first one per (kind, source line).
    pub emit_all_errors: bool,
    /// KLEE's `--exit-on-error[-type]`: stop exploring after the first error
    /// test of one of these kinds (empty: never).
    pub exit_on_error: Vec<crate::termination::ErrorKind>,
    /// KLEE's `--silent-klee-assume`: an assumption false on a path prunes it
    /// without the one-time warning that names the assumption's line.
    pub silent_assume: bool,
    /// `--digest-depth`: a branch whose condition is at least this many
    /// operations deep in the inputs ([`symtest_expr::ExprPool::depth`]: a
    /// digest or checksum of symbolic data) is not forked; the path follows
    /// its model, with the input bytes the condition reads fixed to it
    /// (counted as `digest_branches`). `None`: always fork.
    pub digest_depth: Option<u32>,
    /// `--library-forks`: how many forks code of the libc or models may make
    /// under one call site of the program (the innermost program frame's
    /// call), over all states; past it, branches there follow the path's
    /// model without asking the solver (counted as `library_branches`). A
    /// path forked there that then covers new code of the program gives the
    /// site a quarter of this back. `None`: always fork.
    pub library_forks: Option<u64>,
    /// `--seed-file`/`--seed-dir` (KLEE's seed mode): concrete inputs, each
    /// the objects of a test in order (name, bytes). Paths that agree with a
    /// seed carry it: its values are their model, so the branches it decides
    /// cost no query, and such paths run first.
    pub seeds: Vec<Seed>,
    /// `--allow-seed-extension` (as KLEE's): a seed with fewer objects than
    /// the program makes is kept; the objects it lacks start as zeros and
    /// take the values the program's assumptions on them need.
    pub allow_seed_extension: bool,
    /// `--option-seeds`: more seeds, one per option the program's getopt
    /// tables declare, over the `--sym-arg(s)` arguments of `argv`
    /// (extended as above).
    pub option_seeds: bool,
    /// `--target-line` (directed exploration): source lines (file as a diff
    /// names it, line) to reach; states nearer to one not reached yet run
    /// first, for `directed_share` of the budget.
    pub target_lines: Vec<(String, u32)>,
    /// `--directed-share`: the fraction of `--max-time` (or of
    /// `--max-instructions`) spent following seeds and nearing the target
    /// lines, before the configured searcher takes over.
    pub directed_share: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            entry: "main".into(),
            crosscheck: None,
            seed_args: Vec::new(),
            argv: vec!["program".into()],
            max_time: None,
            started_at: None,
            exit_after_run: false,
            max_instructions: None,
            max_memory_mb: Some(2048),
            suspend_dir: None,
            max_suspend_disk_mb: 8192,
            max_forks: None,
            max_depth: None,
            max_solver_time: Some(Duration::from_secs(10)),
            search: vec![
                SearchKind::RandomPath,
                SearchKind::Nurs(Weight::CovNew),
                SearchKind::Nurs(Weight::Md2u),
            ],
            batch_instructions: 10_000,
            dive_forks: 64,
            merge_loops: false,
            batch_time: None,
            seed: 1,
            emit_all: false,
            max_resolutions: 16,
            max_sym_alloc_sizes: 3,
            max_alloc_size: DEFAULT_MAX_ALLOC_SIZE,
            rewrite_expressions: true,
            simplify_constraints: true,
            implied_value_concretization: true,
            external_calls_concrete: false,
            external_calls_all: false,
            max_tests: None,
            reuse_state_model: true,
            coverage_files: None,
            symbolic_fp: true,
            symbolic_long_double: false,
            completion_instructions: 1_000_000,
            check_overshift: true,
            check_div_zero: true,
            summarize_comparisons: false,
            emit_all_errors: false,
            exit_on_error: Vec::new(),
            silent_assume: false,
            digest_depth: Some(DEFAULT_DIGEST_DEPTH),
            library_forks: Some(DEFAULT_LIBRARY_FORKS),
            seeds: Vec::new(),
            allow_seed_extension: false,
            option_seeds: false,
            target_lines: Vec::new(),
            directed_share: DEFAULT_DIRECTED_SHARE,
        }
    }
}
