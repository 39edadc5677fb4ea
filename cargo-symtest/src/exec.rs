//! `cargo symtest exec PROGRAM.bc`: run the engine on a bitcode file.

use crate::output::OutputDir;
use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;
use symtest_executor::{Config, Event, EventSink, SearchKind, Stats, TestOutcome};
use symtest_solver::{build_chain, BitwuzlaMode, LayerSet};

#[derive(Args, Debug)]
pub struct ExecArgs {
    /// LLVM 19 bitcode file (e.g. from `clang-19 -emit-llvm -c -g -O0 -Xclang -disable-O0-optnone`).
    pub program: PathBuf,
    /// Where to write tests (default: a new `symtest-out/exec-N`, linked as `symtest-out/exec-last`).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Stop exploring after this many seconds (tests so far are kept).
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// Stop after this many LLVM instructions (deterministic budget).
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// Memory cap in MiB of resident memory (as the OS counts it): near it, states are
    /// suspended to disk and resumed when memory frees up (dropped, and counted, if that fails).
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    pub max_memory: u64,
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
    /// Per-query solver timeout in seconds (0 = none); a timed-out query ends only its path.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub max_solver_time: f64,
    /// Search heuristic; repeat to interleave: dfs, bfs, random-state, random-path,
    /// nurs:covnew, nurs:md2u, nurs:depth, nurs:rp, nurs:icnt, nurs:cpicnt, nurs:qc.
    /// Default: random-path, nurs:covnew and nurs:md2u interleaved (KLEE's
    /// random-path + covnew, plus the distance-to-uncovered heuristic, which
    /// reaches deep code such as bugs behind well-formed prefixes sooner).
    #[arg(long = "search", value_name = "NAME")]
    pub search: Vec<String>,
    /// Instructions a state runs before the searcher chooses again.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub batch_instructions: u64,
    /// Forks a batch dives through: after a fork it goes on depth first (in the
    /// newest child, and when a path ends in the newest waiting one) until this
    /// many forks, its instructions or 8 solver-chain queries are used; 0: the
    /// searcher chooses again after every fork.
    #[arg(long, value_name = "FORKS", default_value_t = 64)]
    pub dive: u32,
    /// Also switch states after this many seconds (not deterministic).
    #[arg(long, value_name = "SECONDS")]
    pub batch_time: Option<f64>,
    /// Seed of the engine's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write a test for every completed path, not only those covering new code.
    #[arg(long)]
    pub emit_all: bool,
    /// Function to start from.
    #[arg(long, value_name = "NAME", default_value = "main")]
    pub entry_point: String,
    /// How many concrete sizes a symbolic allocation size is tried with.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_sym_alloc_sizes: u32,
    /// Largest single allocation in bytes (larger requests return NULL).
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 30)]
    pub max_alloc_size: u64,
    /// Query optimizations of the paper's §3.3 (comma-separated from
    /// rewrite, simplify, ivc, independence, cex, cache; or `all`, `none`;
    /// `all,-cex` removes one). Removing a layer changes speed, never answers.
    #[arg(long, value_name = "LIST", default_value = "all")]
    pub solver_layers: String,
    /// Link the program with a C library compiled to bitcode: `none` (default) or
    /// `musl` (musl 1.2.3 built by `cargo xtask setup`; its system calls go to the
    /// POSIX model, so printf, fopen, getopt, strtol, qsort... run symbolically).
    #[arg(long, value_name = "LIBC", default_value = "none")]
    pub libc: String,
    /// Run the program under the POSIX runtime (needs --libc=musl): the program
    /// arguments after `--` may then hold KLEE's environment options --sym-arg N,
    /// --sym-args MIN MAX N, --sym-files NUM N, --sym-stdin N, --sym-stdout and
    /// --max-fail N; main runs on the argv they build, then exit().
    #[arg(long)]
    pub posix_runtime: bool,
    /// Calls of functions defined nowhere: `none` ends the path with an `external`
    /// error; `concrete` runs an allow-list of pure functions (sqrt, pow, abs,
    /// toupper, ...) natively on concretized arguments, recorded as constraints.
    #[arg(long, value_name = "MODE", default_value = "none")]
    pub external_calls: String,
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
    /// Print only errors.
    #[arg(short, long)]
    pub quiet: bool,
    /// Also print the statistics as one JSON object per line on stdout, about once a
    /// second (what `cargo symtest` reads to draw a target's progress line).
    #[arg(long)]
    pub progress_json: bool,
    /// Arguments of the program (argv[1..]), after `--`.
    #[arg(last = true, value_name = "PROGRAM_ARGS")]
    pub program_args: Vec<String>,
}

fn seconds(name: &str, v: f64) -> Result<Duration, String> {
    if !v.is_finite() || !(0.0..=1e9).contains(&v) {
        return Err(format!(
            "--{name} must be a number of seconds between 0 and 1e9 (got {v})"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

fn config_of(a: &ExecArgs) -> Result<(Config, LayerSet), String> {
    let layers = LayerSet::parse(&a.solver_layers).map_err(|e| format!("--solver-layers: {e}"))?;
    let mut c = Config {
        entry: a.entry_point.clone(),
        rewrite_expressions: layers.rewrite,
        simplify_constraints: layers.simplify,
        implied_value_concretization: layers.ivc,
        reuse_state_model: layers.cex,
        symbolic_fp: a.fp != "concrete",
        symbolic_long_double: a.fp == "full",
        ..Config::default()
    };
    // argv[0] is the program's name, as a shell gives it to the native program
    // (`echo` for `src/echo.bc`): usage and error messages print it, and
    // `replay --native` and the emitted suites run the program under that name.
    c.argv = std::iter::once(program_name(&a.program))
        .chain(a.program_args.iter().cloned())
        .collect();
    if let Some(t) = a.max_time {
        let d = seconds("max-time", t)?;
        if d.is_zero() {
            return Err("--max-time must be positive".into());
        }
        c.max_time = Some(d);
    }
    c.max_instructions = a.max_instructions;
    if a.max_instructions == Some(0) {
        return Err("--max-instructions must be at least 1".into());
    }
    if a.max_memory == 0 {
        return Err("--max-memory must be at least 1 MiB".into());
    }
    c.max_memory_mb = Some(a.max_memory);
    c.max_suspend_disk_mb = a.max_suspend_disk.unwrap_or(a.max_memory.saturating_mul(4));
    c.max_forks = a.max_forks;
    c.max_depth = a.max_depth;
    let st = seconds("max-solver-time", a.max_solver_time)?;
    c.max_solver_time = (!st.is_zero()).then_some(st);
    if !a.search.is_empty() {
        c.search = a
            .search
            .iter()
            .map(|s| {
                SearchKind::parse(s).ok_or_else(|| {
                    format!(
                        "unknown searcher `{s}` (choose from: {})",
                        SearchKind::NAMES.join(", ")
                    )
                })
            })
            .collect::<Result<_, _>>()?;
    }
    if a.batch_instructions == 0 {
        return Err("--batch-instructions must be at least 1".into());
    }
    c.batch_instructions = a.batch_instructions;
    c.dive_forks = a.dive;
    if let Some(t) = a.batch_time {
        c.batch_time = Some(seconds("batch-time", t)?);
    }
    c.seed = a.seed;
    c.emit_all = a.emit_all;
    if a.max_sym_alloc_sizes == 0 {
        return Err("--max-sym-alloc-sizes must be at least 1".into());
    }
    c.max_sym_alloc_sizes = a.max_sym_alloc_sizes;
    c.max_alloc_size = a.max_alloc_size;
    c.external_calls_concrete = match a.external_calls.as_str() {
        "none" => false,
        "concrete" => true,
        other => {
            return Err(format!(
                "--external-calls: unknown mode `{other}` (choose none or concrete)"
            ))
        }
    };
    match a.libc.as_str() {
        "none" => {
            if a.posix_runtime {
                return Err("--posix-runtime needs --libc=musl".into());
            }
        }
        "musl" => {}
        other => {
            return Err(format!(
                "--libc: unknown libc `{other}` (choose none or musl)"
            ))
        }
    }
    if a.posix_runtime {
        if a.entry_point != "main" {
            return Err(
                "--posix-runtime runs main; it cannot be combined with --entry-point".into(),
            );
        }
        crate::libc::check_env_options(&a.program_args)?;
        c.entry = crate::libc::POSIX_ENTRY.into();
    }
    Ok((c, layers))
}

struct Sink {
    out: OutputDir,
    quiet: bool,
    bar: Option<ProgressBar>,
    progress_json: bool,
    write_error: Option<anyhow::Error>,
    errors: u32,
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
                            self.errors += 1;
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

pub fn run(a: ExecArgs) -> Result<u8> {
    let (mut config, layers) = match config_of(&a) {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("error: {msg}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
    let linked = if a.libc == "musl" {
        // Line coverage counts the program's own files (those with code in
        // its bitcode, headers included), not the libc and models linked in.
        match symtest_loader::load_bitcode(&a.program) {
            Ok(m) => {
                // The libc's headers (static inline functions) are library code
                // too: anything under the cache that holds the runtimes.
                let runtime = crate::libc::runtime_dir()
                    .ok()
                    .and_then(|r| r.parent().map(std::path::Path::to_path_buf));
                let own = m.files.iter().filter(|f| {
                    runtime
                        .as_ref()
                        .is_none_or(|r| !std::path::Path::new(f).starts_with(r))
                });
                config.coverage_files = Some(own.cloned().collect());
            }
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(crate::EXIT_BAD_INPUT);
            }
        }
        match crate::libc::link(&a.program, a.posix_runtime) {
            Ok(l) => Some(l),
            Err(msg) => {
                eprintln!("error: {msg}");
                return Ok(crate::EXIT_BAD_INPUT);
            }
        }
    } else {
        None
    };
    let bitcode = linked
        .as_ref()
        .map_or(a.program.as_path(), |l| l.path.as_path());
    let loaded = symtest_loader::load_bitcode(bitcode);
    drop(linked);
    let module = match loaded {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(crate::EXIT_BAD_INPUT);
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
    let mut out = OutputDir::create(a.output_dir.as_deref())?;
    if config.max_suspend_disk_mb > 0 {
        config.suspend_dir = Some(
            a.suspend_dir
                .clone()
                .unwrap_or_else(|| out.dir.join("suspended")),
        );
    }
    out.posix = a.posix_runtime;
    out.program_args = a.program_args.clone();
    let bar = (!a.quiet && std::io::stderr().is_terminal()).then(|| {
        let b = ProgressBar::new_spinner();
        b.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
        b.enable_steady_tick(Duration::from_millis(200));
        b
    });
    let mut sink = Sink {
        out,
        quiet: a.quiet,
        bar,
        progress_json: a.progress_json,
        write_error: None,
        errors: 0,
    };
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
    let stats_json = serde_json::to_string_pretty(&summary.stats)?;
    sink.out.write_file("stats.json", stats_json.as_bytes())?;
    let coverage = crate::output::coverage_json(&summary.covered_lines);
    sink.out.write_file("coverage.json", coverage.as_bytes())?;
    let info = format!(
        "command: {}\nstarted: {started}\nfinished: {}\nhalt reason: {}\n\n{}\n",
        std::env::args().collect::<Vec<_>>().join(" "),
        chrono_now(),
        summary.halt_reason,
        progress_line(&summary.stats)
    );
    sink.out.write_file("info", info.as_bytes())?;
    if !a.quiet {
        let s = &summary.stats;
        eprintln!(
            "symtest: done in {:.2}s ({}): {} instructions, {} paths completed, {} tests, {} errors, {}/{} lines covered -> {}",
            s.time_s,
            summary.halt_reason,
            s.instructions,
            s.paths_completed,
            s.tests,
            s.errors,
            s.covered_lines,
            s.total_lines,
            sink.out.dir.display()
        );
    }
    Ok(0)
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
