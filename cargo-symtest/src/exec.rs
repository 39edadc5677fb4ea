//! `cargo symtest exec PROGRAM.bc`: run the engine on a bitcode file.

use crate::exec_config::{config_of, libc_of};
use crate::output::OutputDir;
use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;
use symtest_executor::{Config, Event, EventSink, Stats, TestOutcome};
use symtest_project::explore_options::ExploreOptions;
use symtest_solver::{build_chain, BitwuzlaMode};

#[derive(Args, Debug)]
pub struct ExecArgs {
    /// LLVM 19 bitcode file (e.g. from `clang-19 -emit-llvm -c -g -O0 -Xclang -disable-O0-optnone`).
    pub program: PathBuf,
    // The options the project pipeline sets (budget, output, seeds,
    // directed exploration, crosscheck, the C library).
    #[command(flatten)]
    pub explore: ExploreOptions,
    /// Where states are suspended at the memory cap (default: `suspended/` in the output
    /// directory; removed when the run ends).
    #[arg(long, value_name = "DIR")]
    pub suspend_dir: Option<PathBuf>,
    /// Most MiB of suspended states on disk at once (default: 4 x --max-memory; 0: never
    /// suspend, drop states at the cap instead).
    #[arg(long, value_name = "MIB")]
    pub max_suspend_disk: Option<u64>,
    /// Stop forking after this many forks (paths then follow one side).
    #[arg(long, value_name = "N")]
    pub max_forks: Option<u64>,
    /// Maximum number of symbolic branches per path.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// Per-query solver time limit (seconds or a span like `30s`; 0 = none);
    /// with --max-time at most a tenth of it (at least 1 s), and a quarter as
    /// long again at each place in the program where a query already reached
    /// its limit (at least 50 ms). A query cut short follows the path's model
    /// (see docs/exec.md).
    #[arg(long, value_name = "TIME", default_value = "10", value_parser = crate::klee_compat::parse_span)]
    pub max_solver_time: f64,
    /// A branch on a value at least this many operations deep in the inputs
    /// (a digest or checksum of symbolic data, which no solver inverts) is
    /// not forked: the path follows its current input, with the bytes the
    /// condition reads fixed (warned; counted as digest_branches in
    /// stats.json). A pointer that deep takes the address the current input
    /// gives it. 0: always fork.
    #[arg(long, value_name = "DEPTH", default_value_t = symtest_executor::DEFAULT_DIGEST_DEPTH)]
    pub digest_depth: u32,
    /// Library code (the libc, the models: functions of no file of the
    /// program) may fork this many times under one call site of the program,
    /// over all states; past it, its branches there follow the current input
    /// without asking the solver (warned; counted as library_branches in
    /// stats.json). Quoting a symbolic file name for an error message, for
    /// one, forks on every byte's character class. A path forked there that
    /// then covers new code of the program gives the call site a quarter of
    /// N back. 0: always fork.
    #[arg(long, value_name = "N", default_value_t = symtest_executor::DEFAULT_LIBRARY_FORKS)]
    pub library_forks: u64,
    /// Instructions a state runs before the searcher chooses again.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub batch_instructions: u64,
    /// Forks a batch dives through: after a fork it goes on depth first (in the
    /// newest child, and when a path ends in the newest waiting one) until this
    /// many forks, its instructions or 8 solver-chain queries are used; 0: the
    /// searcher chooses again after every fork.
    #[arg(long, value_name = "FORKS", default_value_t = 64)]
    pub dive: u32,
    /// Merge states at loop heads of the program's own code: a state waits
    /// there for its siblings of the same iteration, and states with the same
    /// stack and objects become one (path conditions joined by `or`, values
    /// that differ by `ite`).
    #[arg(long, overrides_with = "no_merge_loops")]
    pub merge_loops: bool,
    /// Explore loops path by path (the default).
    #[arg(long, overrides_with = "merge_loops")]
    pub no_merge_loops: bool,
    /// Also switch states after this much time (seconds or a span; not deterministic).
    #[arg(long, value_name = "TIME", value_parser = crate::klee_compat::parse_span)]
    pub batch_time: Option<f64>,
    /// Write a test for every completed path, not only those covering new
    /// code (KLEE's default; implies --emit-all-errors).
    #[arg(long)]
    pub emit_all: bool,
    /// Write a test for every error path, not only the first per (kind, line).
    #[arg(long)]
    pub emit_all_errors: bool,
    /// Stop exploring after the first error test of a program bug (any kind
    /// but exec, external, model, solver).
    #[arg(long)]
    pub exit_on_error: bool,
    /// Stop after the first error test of these kinds (repeat or separate by
    /// commas): symtest's kinds (ptr, free, div, overflow, assert, abort,
    /// readonly, user, exec, external, model, solver) or KLEE's names (Ptr,
    /// Free, Abort, Assert, Overflow, ReadOnly, ReportError, User, Execution,
    /// External, Model, BadVectorAccess, InvalidBuiltin).
    #[arg(long, value_name = "KIND", value_delimiter = ',')]
    pub exit_on_error_type: Vec<String>,
    /// Stop after writing this many tests.
    #[arg(long, value_name = "N")]
    pub max_tests: Option<u64>,
    /// Write no test files (.ktest, .json, .err); errors are still printed
    /// and counted, stats.json, coverage.json and info are written.
    #[arg(long)]
    pub write_no_tests: bool,
    /// An assumption (symtest_assume, klee_assume) false on a path ends the
    /// path without the warning naming its line.
    #[arg(long)]
    pub silent_klee_assume: bool,
    /// Report shifts by the value's width or more in the program's own code
    /// as `overflow` errors (`--check-overshift=false` turns it off).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_value = "true", default_missing_value = "true",
          value_parser = clap::builder::BoolishValueParser::new())]
    pub check_overshift: bool,
    /// Report division and remainder by zero as `div` errors
    /// (`--check-div-zero=false` turns it off).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_value = "true", default_missing_value = "true",
          value_parser = clap::builder::BoolishValueParser::new())]
    pub check_div_zero: bool,
    /// Compute the C library's `strcmp`, `strncmp`, `memcmp` and `bcmp` of a
    /// symbolic buffer with constant bytes (concrete pointers and length) as
    /// one expression, the library's result, instead of forking at every
    /// symbolic byte of its loop. Off by default (KLEE runs the loops).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true",
          value_parser = clap::builder::BoolishValueParser::new())]
    pub summarize_comparisons: bool,
    /// Optimize the program with LLVM's -O2 pipeline (opt-19) before
    /// exploring it; the engine's own overshift check is then off (LLVM may
    /// speculate shifts whose out-of-range results are never used).
    #[arg(long)]
    pub optimize: bool,
    /// How many concrete sizes a symbolic allocation size is tried with.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_sym_alloc_sizes: u32,
    /// Largest single allocation in bytes, a whole number of MiB (larger
    /// requests return NULL, in the engine and in the native replay of its
    /// tests). Default: 1 GiB (1073741824), on every machine.
    #[arg(long, value_name = "BYTES")]
    pub max_alloc_size: Option<u64>,
    /// Query optimizations of the paper's §3.3 (comma-separated from
    /// rewrite, simplify, ivc, independence, bounds, cex, cache, domain, linear; or `all`, `none`;
    /// `all,-cex` removes one). Removing a layer changes speed, never answers.
    #[arg(long, value_name = "LIST", default_value = "all")]
    pub solver_layers: String,
    /// Remove one layer from --solver-layers (repeatable).
    #[arg(long, value_name = "LAYER")]
    pub drop_solver_layer: Vec<String>,
    /// Calls of functions defined nowhere: `none` (the default) ends the path
    /// with an `external` error; `concrete` runs an allow-list of pure functions
    /// (sqrt, pow, abs, toupper, ...) natively on concretized arguments,
    /// recorded as constraints; `all` also calls any other function the host's
    /// C library exports, in a child process, with concretized arguments (see
    /// docs/exec.md). Given explicitly, as KLEE's option, `--libc=auto` links no libc:
    /// the functions the program does not define are external calls.
    #[arg(long, value_name = "MODE")]
    pub external_calls: Option<String>,
    /// How queries reach Bitwuzla: `pushpop` (one instance; the path condition
    /// is kept asserted across queries with push/pop as it grows and shrinks),
    /// `assumptions` (one instance, every assertion an assumption) or `fresh`
    /// (a new instance per query). Changes speed, never answers.
    #[arg(long, value_name = "MODE", default_value = "pushpop", value_parser = ["pushpop", "assumptions", "fresh"])]
    pub solver_mode: String,
    /// Floating point: `symbolic` (float and double operations on symbolic
    /// values are solved with Bitwuzla's floating-point theory; a symbolic
    /// long double is concretized with a warning), `full` (long double is
    /// symbolic too; slow where musl formats doubles through long double, as
    /// in printf("%f")) or `concrete` (every symbolic floating-point operand
    /// is concretized to one value with a warning).
    #[arg(long, value_name = "MODE", default_value = "symbolic", value_parser = ["symbolic", "full", "concrete"])]
    pub fp: String,
    /// A path the engine stops before its end (at --max-time or
    /// --max-instructions, or dropped at the memory cap) whose test is written
    /// is run to its end concretely on the test's inputs, for at most this
    /// many instructions, so the test records the exit status, error and
    /// output a native replay can check (0: never; such tests then only
    /// record why the path stopped and replay cannot compare them). Under
    /// --max-time these runs stop 8% of the budget after it.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub completion_instructions: u64,
    /// Report an error as a bug only once its test reproduces it natively:
    /// after exploring, each bug's test is replayed on this native program —
    /// C sources of the harness (repeat the flag; built with the replay
    /// runtime and sanitizers, as `replay --source` does), a harness already
    /// linked with the replay runtime, or, with --posix-runtime, the
    /// unmodified native executable (as `replay --native`). An error that does
    /// not reproduce keeps its test, but its `.err` file is renamed
    /// `.not-reproduced` and its JSON says what the native run did.
    #[arg(long, value_name = "PROGRAM|FILE.c")]
    pub validate: Vec<PathBuf>,
    /// Arguments of the program (argv[1..]), after `--`.
    #[arg(last = true, value_name = "PROGRAM_ARGS")]
    pub program_args: Vec<String>,
}

pub fn seconds(name: &str, v: f64) -> Result<Duration, String> {
    if !v.is_finite() || !(0.0..=1e9).contains(&v) {
        return Err(format!(
            "--{name} must be a number of seconds between 0 and 1e9 (got {})",
            shown_number(v)
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Checks a whole `cargo-symtest exec ...` command line as `exec` would
/// before loading anything (the pipeline checks the commands it will run).
pub fn check_args(argv: &[String]) -> Result<(), String> {
    use clap::Parser;
    if let Some(i) = argv.iter().position(|a| a == "--") {
        if argv[i + 1..].iter().any(|a| a == "--") {
            return Err("`--` appears twice (program arguments belong in `args`)".into());
        }
    }
    let cli = crate::Cli::try_parse_from(argv).map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            return "--help and --version are not options of a run".to_string();
        }
        let text = e.to_string();
        let line = text.lines().next().unwrap_or("").trim();
        line.strip_prefix("error: ").unwrap_or(line).to_string()
    })?;
    match cli.command {
        Some(crate::Command::Exec(a)) => config_of(&a).map(|_| ()),
        _ => Err("not an exec command".into()),
    }
}

/// A number as the user may have written it: `1e300`, not 301 digits.
pub fn shown_number(v: f64) -> String {
    if v.is_finite() && v.abs() >= 1e9 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Which C library `exec` links the program with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Libc {
    None,
    Musl,
    /// Musl when the program calls functions it does not define.
    Auto,
}

struct Sink {
    out: OutputDir,
    quiet: bool,
    bar: Option<ProgressBar>,
    progress_json: bool,
    write_error: Option<anyhow::Error>,
    /// Tests that record a bug: (name, error kind suffix).
    bug_tests: Vec<(String, String)>,
}

impl Sink {
    fn say(&self, msg: &str) {
        match &self.bar {
            Some(b) => b.println(msg),
            None => eprintln!("{msg}"),
        }
    }
}

impl EventSink for Sink {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Test(t) => match self.out.write_test(t) {
                Ok(name) => {
                    if let TestOutcome::Error(r) = &t.outcome {
                        if r.kind.is_bug() {
                            self.bug_tests
                                .push((name.clone(), r.kind.as_str().to_string()));
                        }
                        if !self.quiet {
                            self.say(&format!(
                                "symtest: ERROR: {}:{}: {} ({name})",
                                r.file, r.line, r.message
                            ));
                        }
                    }
                }
                Err(e) => {
                    if self.write_error.is_none() {
                        self.write_error = Some(e);
                    }
                }
            },
            Event::Warning(w) => {
                if !self.quiet {
                    self.say(&format!("symtest: warning: {w}"));
                }
            }
            Event::Print(p) => self.say(&format!("symtest: {p}")),
            Event::Progress(s) => {
                if self.progress_json {
                    if let Ok(line) = serde_json::to_string(s) {
                        println!("{line}");
                    }
                }
                if let Some(b) = &self.bar {
                    b.set_message(progress_line(s));
                }
            }
        }
    }
}

fn progress_line(s: &Stats) -> String {
    let mut line = format!(
        "{:.0}s  {} instr  {} states  {} paths  {} tests  {} errors  lines {}/{}",
        s.time_s,
        s.instructions,
        s.states,
        s.paths_completed,
        s.tests,
        s.errors,
        s.covered_lines,
        s.total_lines
    );
    if s.states_suspended > 0 {
        line.push_str(&format!("  {} suspended (memory cap)", s.states_suspended));
    }
    if s.states_dropped > 0 {
        line.push_str(&format!("  {} dropped (memory cap)", s.states_dropped));
    }
    line
}

pub fn run(a: ExecArgs, notes: &[String]) -> Result<u8> {
    // The limits hold from here: loading and linking count against --max-time.
    let clock = std::time::Instant::now();
    let (mut config, layers) = match config_of(&a) {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("error: {msg}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
    if !a.explore.quiet {
        for n in notes {
            eprintln!("symtest: note: {n}");
        }
    }
    let name = a.program.display().to_string();
    let limits = crate::loading::Limits::new(clock, config.max_time, a.explore.max_memory);
    // The rest runs in a supervised child (see supervise.rs).
    let loading = match crate::supervise::supervise(clock, &limits, &name) {
        Ok(crate::supervise::Role::Parent(code)) => return Ok(code),
        Ok(crate::supervise::Role::Child(l)) => l,
        Err(msg) => {
            eprintln!("error: {msg}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
    crate::tempdir::sweep();
    config.started_at = Some(loading.clock);
    // The process ends after writing the results: the engine's memory is
    // the OS's to take back.
    config.exit_after_run = true;
    let limits = crate::loading::Limits::new(loading.clock, config.max_time, a.explore.max_memory);
    let (module, libc_note) = match load(&a, &limits, &mut config) {
        Ok(m) => m,
        Err(msg) => {
            eprintln!("error: {msg}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
    loading.done();
    if !a.explore.quiet {
        if let Some(n) = &libc_note {
            eprintln!("symtest: note: {n}");
        }
    }
    let native = if a.validate.is_empty() {
        None
    } else {
        match crate::validate::Native::prepare(&a.validate, a.explore.posix_runtime) {
            Ok(n) => Some(n),
            Err(e) => {
                eprintln!("error: {e:#}");
                return Ok(crate::EXIT_BAD_INPUT);
            }
        }
    };
    let mode = match a.solver_mode.as_str() {
        "fresh" => BitwuzlaMode::Fresh,
        "assumptions" => BitwuzlaMode::Incremental,
        _ => BitwuzlaMode::PushPop,
    };
    let backend =
        symtest_solver::BitwuzlaSolver::with_mode(mode).context("starting the Bitwuzla solver")?;
    let solver = build_chain(&layers, Box::new(backend));
    let mut sink = sink_of(&a, &mut config)?;
    let started = chrono_now();
    let summary = match symtest_executor::run(&module, &config, solver, &mut sink) {
        Ok(s) => s,
        Err(e) => {
            if let Some(b) = &sink.bar {
                b.finish_and_clear();
            }
            eprintln!("error: {e}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
    if let Some(b) = &sink.bar {
        b.finish_and_clear();
    }
    if let Some(e) = sink.write_error.take() {
        return Err(e.context("writing tests"));
    }
    let validation = match &native {
        Some(n) => Some(n.validate(&sink.out.dir, &sink.bug_tests)?),
        None => None,
    };
    write_results(
        &a,
        &sink.out,
        &summary,
        validation.as_ref(),
        &started,
        libc_note,
    )?;
    if !a.explore.quiet {
        print_done(&a, &summary, validation.as_ref(), &sink.out.dir);
    }
    Ok(0)
}

/// The sink of the run's events: the output directory (set in `config`
/// as the suspension directory's parent when states may be suspended to
/// disk) and, on a terminal, the progress spinner.
fn sink_of(a: &ExecArgs, config: &mut Config) -> Result<Sink> {
    let mut out = OutputDir::create(a.explore.output_dir.as_deref())?;
    out.write_tests = !a.write_no_tests;
    if config.max_suspend_disk_mb > 0 {
        config.suspend_dir = Some(
            a.suspend_dir
                .clone()
                .unwrap_or_else(|| out.dir.join("suspended")),
        );
    }
    out.posix = a.explore.posix_runtime;
    out.program_args = a.program_args.clone();
    out.max_alloc_size = config.max_alloc_size;
    let bar = (!a.explore.quiet && std::io::stderr().is_terminal()).then(|| {
        let b = ProgressBar::new_spinner();
        b.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
        b.enable_steady_tick(Duration::from_millis(200));
        b
    });
    Ok(Sink {
        out,
        quiet: a.explore.quiet,
        bar,
        progress_json: a.explore.progress_json,
        write_error: None,
        bug_tests: Vec::new(),
    })
}

/// Writes `stats.json` (with the errors not reproduced natively, told
/// unless quiet), `coverage.json` and `info` into the output directory.
fn write_results(
    a: &ExecArgs,
    out: &OutputDir,
    summary: &symtest_executor::RunSummary,
    validation: Option<&crate::validate::Validation>,
    started: &str,
    libc_note: Option<String>,
) -> Result<()> {
    let mut stats_json = serde_json::to_value(&summary.stats)?;
    if let Some(v) = validation {
        stats_json["errors_not_reproduced"] = v.not_reproduced.len().into();
        for (name, what) in &v.not_reproduced {
            if !a.explore.quiet {
                eprintln!("symtest: not reproduced natively, not a bug: {name} ({what})");
            }
        }
    }
    let stats_json = serde_json::to_string_pretty(&stats_json)?;
    out.write_file("stats.json", stats_json.as_bytes())?;
    let coverage =
        crate::output::coverage_json(&summary.covered_lines, &summary.target_lines, &summary.why);
    out.write_file("coverage.json", coverage.as_bytes())?;
    let info = format!(
        "command: {}\nstarted: {started}\nfinished: {}\nhalt reason: {}\n{}\n{}\n",
        std::env::args().collect::<Vec<_>>().join(" "),
        chrono_now(),
        summary.halt_reason,
        libc_note
            .map(|n| format!("libc: {n}\n"))
            .unwrap_or_default(),
        progress_line(&summary.stats)
    );
    out.write_file("info", info.as_bytes())?;
    Ok(())
}

/// The closing lines on stderr: the crosscheck's figures (when asked) and
/// what the run did, into `dir`.
fn print_done(
    a: &ExecArgs,
    summary: &symtest_executor::RunSummary,
    validation: Option<&crate::validate::Validation>,
    dir: &std::path::Path,
) {
    let s = &summary.stats;
    if a.explore.crosscheck.is_some() {
        eprintln!(
            "symtest: crosscheck: {} pairs of paths compared, {} proven equal, {} mismatches",
            s.crosscheck_pairs, s.crosscheck_equal, s.crosscheck_mismatches
        );
    }
    let errors = match validation {
        Some(v) => format!(
            "{} errors (tests reproduced natively: {}; not reproduced: {})",
            s.errors,
            v.confirmed,
            v.not_reproduced.len()
        ),
        None => format!("{} errors", s.errors),
    };
    eprintln!(
        "symtest: done in {:.2}s ({}): {} instructions, {} paths completed, {} tests, {errors}, {}/{} lines covered -> {}",
        s.time_s,
        summary.halt_reason,
        s.instructions,
        s.paths_completed,
        s.tests,
        s.covered_lines,
        s.total_lines,
        dir.display()
    );
}

/// Loads the program for exploration (runs in the supervised child, under the
/// loading limits): optimized first with --optimize, linked with musl when
/// --libc (or `auto`) asks for it. Sets the program's own source files in
/// `config` when a libc is linked in. Also returns, when `--libc=auto` linked
/// musl, a note saying why. Err: one line.
fn load(
    a: &ExecArgs,
    limits: &crate::loading::Limits,
    config: &mut Config,
) -> Result<(symtest_ir::Module, Option<String>), String> {
    let libc = libc_of(a)?;
    let name = a.program.display().to_string();
    let mut bytes = crate::loading::read_bitcode(&a.program, limits)?;
    if a.optimize {
        bytes = crate::libc::optimize(&bytes, &name, limits)?;
    }
    let own = symtest_loader::load_bitcode_bytes(&bytes, &name).map_err(|e| e.to_string())?;
    let (link, note) = match libc {
        Libc::None => (false, None),
        Libc::Musl => (true, None),
        // Only what the program leaves undefined needs a libc; the heap, exit
        // and the symtest/KLEE API are the engine's own.
        Libc::Auto => {
            let undefined = symtest_executor::undefined_functions(&own);
            let mut names: Vec<&str> = undefined.iter().map(String::as_str).take(4).collect();
            if undefined.len() > 4 {
                names.push("...");
            }
            if let (Some(mode), false) = (&a.external_calls, undefined.is_empty()) {
                // KLEE's --external-calls says what becomes of calls of
                // functions defined nowhere: linking a libc would leave none.
                let note = format!(
                    "no libc linked (--libc=auto with --external-calls={mode}): {} external (--libc=musl links musl)",
                    if undefined.len() == 1 {
                        format!("the call of {} is", names.join(", "))
                    } else {
                        format!("the calls of {} are", names.join(", "))
                    }
                );
                return Ok((own, Some(note)));
            }
            let note = format!(
                "musl linked in (--libc=auto): the program calls {}, which it does not define (--libc=none runs without a libc)",
                names.join(", ")
            );
            (!undefined.is_empty(), Some(note))
        }
    };
    if !link {
        return Ok((own, None));
    }
    // Line coverage counts the program's own files (those with code in its
    // bitcode, headers included), not the libc and models linked in. The
    // libc's headers (static inline functions) are library code too: anything
    // under the cache that holds the runtimes.
    let runtime = symtest_project::runtime::runtime_dir()
        .ok()
        .and_then(|r| r.parent().map(std::path::Path::to_path_buf));
    let own_files = |m: &symtest_ir::Module| -> Vec<String> {
        m.files
            .iter()
            .filter(|f| {
                runtime
                    .as_ref()
                    .is_none_or(|r| !std::path::Path::new(f).starts_with(r))
            })
            .cloned()
            .collect()
    };
    let mut files = own_files(&own);
    drop(own);
    let linked = crate::libc::link(&bytes, &name, a.explore.posix_runtime, limits)?;
    drop(bytes);
    let module = match &a.explore.crosscheck {
        None => symtest_loader::load_bitcode(&linked.path).map_err(|e| e.to_string())?,
        Some(second) => {
            // The second program of a crosscheck, linked the same way, then
            // both in one module (the second's symbols renamed).
            let second_name = second.display().to_string();
            let mut second_bytes = crate::loading::read_bitcode(second, limits)?;
            if a.optimize {
                second_bytes = crate::libc::optimize(&second_bytes, &second_name, limits)?;
            }
            let second_own = symtest_loader::load_bitcode_bytes(&second_bytes, &second_name)
                .map_err(|e| e.to_string())?;
            files.extend(own_files(&second_own));
            drop(second_own);
            let second_linked =
                crate::libc::link(&second_bytes, &second_name, a.explore.posix_runtime, limits)?;
            symtest_loader::load_bitcode_pair(&linked.path, &second_linked.path)
                .map_err(|e| e.to_string())?
        }
    };
    config.coverage_files = Some(files);
    Ok((module, note))
}

/// Seconds since the Unix epoch (no date dependency needed for the `info` file).
fn chrono_now() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format!("{} (unix time)", t.as_secs())
}

/// The name a program built from `bitcode` runs under: its file name without
/// the `.bc` extension.
pub fn program_name(bitcode: &std::path::Path) -> String {
    let name = bitcode
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "program".into());
    match name.strip_suffix(".bc") {
        Some(stem) if !stem.is_empty() => stem.to_string(),
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn exec_of(args: &[String]) -> ExecArgs {
        let argv = ["cargo-symtest", "exec", "p.bc"]
            .into_iter()
            .map(String::from)
            .chain(args.iter().cloned());
        match crate::Cli::try_parse_from(argv) {
            Ok(crate::Cli {
                command: Some(crate::Command::Exec(a)),
                ..
            }) => *a,
            Ok(_) => panic!("not an exec command"),
            Err(e) => panic!("{args:?}: {e}"),
        }
    }

    /// The pipeline's options, written by the library, come back the same
    /// through `exec`'s own command line.
    #[test]
    fn the_pipelines_options_parse_back_through_exec() {
        let d = ExploreOptions::default();
        assert_eq!(exec_of(&[]).explore, d);
        assert_eq!(d.directed_share, symtest_executor::DEFAULT_DIRECTED_SHARE);
        let v = ExploreOptions {
            output_dir: Some("out".into()),
            max_time: Some(3.0),
            max_instructions: Some(5),
            max_memory: 512,
            seed_dir: vec!["seeds".into()],
            seed_own_args: true,
            option_seeds: true,
            target_lines: Some("lines.txt".into()),
            directed_share: 0.5,
            search: vec!["dfs".into()],
            seed: 9,
            libc: "musl".into(),
            posix_runtime: true,
            quiet: true,
            progress_json: true,
            ..d.clone()
        };
        let own = ["--merge-loops".to_string()];
        let a = exec_of(&v.to_args_with(&own));
        assert_eq!(a.explore, v);
        assert!(a.merge_loops);
        let cross = ExploreOptions {
            crosscheck: Some("q.bc".into()),
            crosscheck_fixed: vec!["-x".into()],
            first_fixed: 1,
            ..d
        };
        assert_eq!(exec_of(&cross.to_args()).explore, cross);
    }
}
