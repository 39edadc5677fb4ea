//! `cargo xtask bench [suite] [--quick] [--budget S] [--only A,B] [--out DIR]`:
//! the evaluation of the paper's §5 on `tests/bench/suite/` against random
//! testing (see [`suite`]); outputs under `target/bench/`.
//!
//! `cargo xtask bench engine`: speed and memory of the engine on the programs in
//! `tests/bench/engine/`, a whole program (`tests/utils/wordcount.c` under the
//! POSIX model) and the paper's `tr`, printed as a table and written to
//! `target/bench/engine.json`.
//!
//! `cargo xtask bench solver`: the query optimizations of §3.3 in the form of
//! the paper's Table 1 (see [`solver`]), written to `target/bench/solver.json`.
//!
//! `cargo xtask bench coreutils`: GNU coreutils 9.1 built through `cargo
//! symtest capture`, 30 utilities with the paper's options (see [`coreutils`]).
//!
//! `cargo xtask bench gate`: planted bugs in coreutils utilities, gated
//! directed (`--changed-since`) and undirected (see [`gate`]).
//!
//! `cargo xtask bench mutation`: the mutation score of the emitted suites
//! (universalmutator's mutants of the demo's wc, of ten coreutils
//! utilities, beside coreutils' own tests, and of cJSON and zlib run as
//! library targets with no harness; see [`mutation`]).
//!
//! `cargo xtask bench projects`: Debian source packages captured with their
//! own builds, `init --from-build` and every listed target run: the eight of
//! the hand recipes, or (`--corpus`) the corpus chosen by the written rule of
//! `tests/bench/corpus/RULE.md` (see [`projects`]).
//!
//! `cargo xtask bench seeds`: jq, gawk, lua5.4 and sqlite3 without and with
//! seeds from their own test suites, measured by gcov on their own build
//! (issue #50; see [`projects::seeds`]).
//!
//! `cargo xtask bench crosscheck`: GNU coreutils crosschecked against toybox
//! (the paper's §5.5) on every tool both provide whose output depends on its
//! inputs alone, one `[[crosscheck]]` per tool (see [`crosscheck`]).
//!
//! `cargo xtask bench fp` (also at the end of `bench solver`): time per
//! floating-point query against integer queries of the same shape (see
//! [`fp`]), written to `target/bench/fp.json`.
//!
//! Benchmarks, not tests: numbers, no pass/fail.

mod coreutils;
mod coreutils_report;
mod crosscheck;
mod crosscheck_report;
mod fp;
mod gate;
mod gcov;
mod loops;
mod mutation;
mod native;
mod plot;
mod projects;
mod report;
mod suite;
#[cfg(test)]
mod tests;

use crate::{paths, setup, util};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The options of `cargo xtask bench`: a benchmark, or the evaluation
/// suite's options for the default one (`bench [suite] [--quick] ...`).
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    benchmark: Option<Benchmark>,
    #[command(flatten)]
    suite: suite::Options,
}

#[derive(clap::Subcommand)]
enum Benchmark {
    /// symtest vs random testing on tests/bench/suite/ (paper §5): gcov line
    /// and branch coverage, bugs, engine statistics -> target/bench/ (the
    /// default benchmark)
    Suite(suite::Options),
    /// Engine speed and memory (tests/bench/engine/, a whole program, the
    /// paper's tr) -> target/bench/engine.json
    Engine,
    /// The paper's Table 1: solver-chain configurations (tests/bench/solver/),
    /// then `fp` and `loops`
    Solver,
    /// Time per floating-point query against integer queries of the same
    /// shape -> target/bench/fp.json
    Fp,
    /// Instruction rate and solver share on loops over symbolic bounds
    /// (tests/bench/loops/)
    Loops,
    /// GNU coreutils 9.1 captured and explored with the paper's options
    /// -> target/bench/coreutils/
    Coreutils(coreutils::Options),
    /// Mutation scores of the emitted suites (the demo's wc, ten coreutils
    /// utilities, cJSON and zlib as library targets) -> target/bench/mutation/
    Mutation(mutation::Options),
    /// Planted bugs in coreutils utilities, gated directed (--changed-since)
    /// and undirected -> target/bench/gate/
    Gate(gate::Options),
    /// GNU coreutils 9.1 crosschecked against toybox 0.8.9 (paper §5.5), one
    /// [[crosscheck]] per tool both provide -> target/bench/crosscheck.{json,md}
    Crosscheck(crosscheck::Options),
    /// Debian source packages captured with their own builds, `init
    /// --from-build`, every listed target run: the eight hand recipes
    /// (-> target/bench/projects/), or the corpus of tests/bench/corpus/
    Projects(projects::Options),
    /// jq, gawk, lua5.4 and sqlite3 without and with seeds from their own
    /// tests, measured by gcov on their own build -> target/bench/seeds/
    #[command(after_help = SEEDS_OPTIONS)]
    Seeds(SeedsArgs),
}

/// The options of `bench seeds`, which parses them itself (see
/// [`projects::seeds::Options`]).
const SEEDS_OPTIONS: &str = "\
Options of the benchmark:
      --only <A,B>        Only these packages (of jq, gawk, lua5.4, sqlite3)
      --budget <SECONDS>  Seconds per program, 0 < S <= 86400 [default: 30]
      --out <DIR>         Where the trees and the reports go [default: target/bench/seeds]
      --reuse             Keep the captured trees and gcov builds of an earlier run
      --prepare           Only configure, capture and make the gcov builds (no timed run)
      --report            Only write the reports again from the rows present";

/// `bench seeds` parses its own options (see [`projects::seeds::Options`]).
#[derive(clap::Args)]
struct SeedsArgs {
    /// The benchmark's options (below)
    #[arg(
        value_name = "OPTIONS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    options: Vec<String>,
}

impl SeedsArgs {
    fn help_asked(&self) -> bool {
        self.options.iter().any(|o| o == "-h" || o == "--help")
    }
}

/// A time budget in seconds, 0 < S <= 86400 (a value parser of the options).
pub(crate) fn seconds(v: &str) -> std::result::Result<f64, String> {
    v.parse()
        .ok()
        .filter(|b: &f64| b.is_finite() && *b > 0.0 && *b <= 86_400.0)
        .ok_or_else(|| format!("`{v}` is not 0 < S <= 86400"))
}

/// An option's value as a time budget, 0 < S <= 86400 seconds, or the message
/// saying why not.
pub(crate) fn budget_seconds(v: &str, what: &str) -> std::result::Result<f64, String> {
    seconds(v).map_err(|m| format!("{what}: {m}"))
}

pub fn run(args: BenchArgs) -> Result<()> {
    match args.benchmark.unwrap_or(Benchmark::Suite(args.suite)) {
        Benchmark::Suite(o) => suite::run(&o).map(|_| ()),
        Benchmark::Engine => engine(),
        Benchmark::Solver => solver()
            .and_then(|()| fp::run())
            .and_then(|()| loops::run()),
        Benchmark::Fp => fp::run(),
        Benchmark::Loops => loops::run(),
        Benchmark::Coreutils(o) => coreutils::run(&o).map(|_| ()),
        Benchmark::Mutation(o) => mutation::run(&o).map(|_| ()),
        Benchmark::Gate(o) => gate::run(&o),
        Benchmark::Crosscheck(o) => crosscheck::run(&o).map(|_| ()),
        Benchmark::Projects(o) => projects::run(&o),
        Benchmark::Seeds(a) if a.help_asked() => seeds_help(),
        Benchmark::Seeds(a) => projects::seeds::run(&projects::seeds::Options::parse(&a.options)?),
    }
}

/// The help of `bench seeds`, asked for after one of its options (clap
/// passes everything from the first one on to the benchmark).
fn seeds_help() -> Result<()> {
    let mut cli = <crate::Cli as clap::CommandFactory>::command();
    cli.build();
    let seeds = cli
        .find_subcommand_mut("bench")
        .and_then(|b| b.find_subcommand_mut("seeds"))
        .context("no `bench seeds` command")?;
    seeds.print_help()?;
    Ok(())
}

/// Checks what clap leaves to a benchmark (the options of `bench seeds`), as
/// [`run`] does before running anything.
#[cfg(test)]
pub fn check(args: BenchArgs) -> Result<()> {
    match args.benchmark {
        Some(Benchmark::Seeds(a)) if !a.help_asked() => {
            projects::seeds::Options::parse(&a.options)?;
        }
        _ => {}
    }
    Ok(())
}

/// `bench projects --quick` (the end of `cargo xtask test`).
pub fn projects_quick() -> Result<()> {
    projects::quick()
}

pub(crate) fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
}

/// Builds the release binary; returns its path.
pub fn release_binary() -> Result<PathBuf> {
    engine_binary(true)
}

/// The `cargo-symtest` binary a benchmark (`who`, for its message) runs:
/// `$SYMTEST_BENCH_BIN` when set (a fixed binary, not rebuilt), else the
/// release build of the workspace.
pub(crate) fn bench_binary(who: &str) -> Result<PathBuf> {
    match std::env::var_os("SYMTEST_BENCH_BIN") {
        Some(p) => {
            let p = PathBuf::from(p);
            if !p.is_file() {
                bail!("SYMTEST_BENCH_BIN={} is not a file", p.display());
            }
            eprintln!("{who}: using {} (SYMTEST_BENCH_BIN)", p.display());
            Ok(p)
        }
        None => release_binary(),
    }
}

/// Builds the `cargo-symtest` binary (release or debug); returns its path.
pub fn engine_binary(release: bool) -> Result<PathBuf> {
    let root = paths::workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(&cargo);
    cmd.arg("build");
    if release {
        cmd.arg("--release");
    }
    util::run(
        cmd.args(["--quiet", "-p", "cargo-symtest"])
            .current_dir(&root),
    )?;
    Ok(target_dir(&root)
        .join(if release { "release" } else { "debug" })
        .join("cargo-symtest"))
}

/// Compiles C to bitcode with the engine's flags (the standard ones and the
/// UBSan checks), against `libc-models/include`: for the demo and the benchmarks.
pub(crate) fn compile(src: &Path, out: &Path) -> Result<()> {
    let root = paths::workspace_root();
    util::run(
        Command::new("clang-19")
            .args([
                "-emit-llvm",
                "-c",
                "-g",
                "-O0",
                "-Xclang",
                "-disable-O0-optnone",
            ])
            .args(["-fsanitize=signed-integer-overflow,shift,integer-divide-by-zero"])
            .arg("-I")
            .arg(root.join("libc-models").join("include"))
            .arg(src)
            .arg("-o")
            .arg(out),
    )
}

fn exec(bin: &Path, bc: &Path, out: &Path, extra: &[&str]) -> Result<serde_json::Value> {
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    let status = Command::new(bin)
        .arg("exec")
        .arg(bc)
        .arg("--output-dir")
        .arg(out)
        .arg("--quiet")
        .args(extra)
        .status()
        .with_context(|| format!("running {}", bin.display()))?;
    if !status.success() {
        bail!("cargo-symtest exec {} failed ({status})", bc.display());
    }
    let text = std::fs::read_to_string(out.join("stats.json"))?;
    Ok(serde_json::from_str(&text)?)
}

fn f(v: &serde_json::Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or(0.0)
}

fn engine() -> Result<()> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let bin = release_binary()?;
    let work = target_dir(&root).join("bench").join("engine");
    std::fs::create_dir_all(&work)?;
    let src = root.join("tests").join("bench").join("engine");
    let mut rows = Vec::new();
    let mut json = serde_json::Map::new();

    let bc = work.join("concrete_loop.bc");
    compile(&src.join("concrete_loop.c"), &bc)?;
    let s = exec(&bin, &bc, &work.join("concrete_loop"), &[])?;
    let ips = f(&s, "instructions") / f(&s, "time_s").max(1e-9);
    rows.push(format!(
        "concrete_loop.c | instructions/s (concrete) | {:.1} M/s ({} instructions in {:.2} s)",
        ips / 1e6,
        f(&s, "instructions"),
        f(&s, "time_s")
    ));
    json.insert("concrete_loop".into(), s);

    json.insert(
        "fork_heavy".into(),
        fork_heavy(&bin, &src, &work, &mut rows)?,
    );
    json.insert(
        "wordcount".into(),
        wordcount(&bin, &root, &work, &mut rows)?,
    );

    let bc = work.join("tr_figure1.bc");
    compile(&root.join("tests").join("demo").join("tr.c"), &bc)?;
    let s = exec(&bin, &bc, &work.join("tr_figure1"), &[])?;
    rows.push(format!(
        "tests/demo/tr.c | Figure 1 tr: time to the bug / to full line coverage / total | {:.2} s / {:.2} s / {:.2} s ({}/{} lines, {} paths, {} queries, {} reached Bitwuzla)",
        f(&s, "first_bug_s"),
        f(&s, "last_new_line_s"),
        f(&s, "time_s"),
        f(&s, "covered_lines"),
        f(&s, "total_lines"),
        f(&s, "paths_completed"),
        f(&s, "queries"),
        f(&s, "solver_queries")
    ));
    json.insert("tr_figure1".into(), s);

    println!("| program | measure | result |\n|---|---|---|");
    for r in &rows {
        println!("| {r} |");
    }
    let out = work.join("engine.json");
    std::fs::write(
        &out,
        serde_json::to_string_pretty(&serde_json::Value::Object(json))?,
    )?;
    println!("\nraw statistics: {}", out.display());
    Ok(())
}

/// `fork_heavy.c`, breadth first: the cost of one fork and the memory per
/// live state, as rows of the engine table; its statistics.
fn fork_heavy(
    bin: &Path,
    src: &Path,
    work: &Path,
    rows: &mut Vec<String>,
) -> Result<serde_json::Value> {
    let bc = work.join("fork_heavy.bc");
    compile(&src.join("fork_heavy.c"), &bc)?;
    let s = exec(
        bin,
        &bc,
        &work.join("fork_heavy"),
        // Breadth first with no dive: every state stays alive until all forked.
        &["--search", "bfs", "--dive", "0", "--max-memory", "16384"],
    )?;
    let forks = f(&s, "forks").max(1.0);
    let engine_time = (f(&s, "time_s") - f(&s, "solver_time_s")).max(0.0);
    let peak = f(&s, "states_peak").max(1.0);
    rows.push(format!(
        "fork_heavy.c | cost of one fork (engine time / forks, solver excluded) | {:.1} µs ({} forks, {:.2} s engine, {:.2} s solver)",
        engine_time / forks * 1e6,
        forks,
        engine_time,
        f(&s, "solver_time_s")
    ));
    rows.push(format!(
        "fork_heavy.c | memory per live state (peak RSS / peak live states) | {:.2} KiB ({} states, {:.0} MiB peak; 100,000 states ≈ {:.0} MiB)",
        f(&s, "memory_peak_mb") * 1024.0 / peak,
        peak,
        f(&s, "memory_peak_mb"),
        f(&s, "memory_peak_mb") / peak * 100_000.0
    ));
    Ok(s)
}

/// `tests/utils/wordcount.c`, a whole program under the POSIX model (argv, a
/// file, stdin, one failing system call per path): forks at every byte it
/// reads, the frontier of live states what memory must hold. Rows of the
/// engine table: the memory per live state (with the census)
/// and the instruction rate; its statistics.
fn wordcount(
    bin: &Path,
    root: &Path,
    work: &Path,
    rows: &mut Vec<String>,
) -> Result<serde_json::Value> {
    let bc = work.join("wordcount.bc");
    util::run(
        Command::new(bin)
            .arg("cc")
            .arg(root.join("tests").join("utils").join("wordcount.c"))
            .arg("-o")
            .arg(&bc),
    )?;
    let s = exec(
        bin,
        &bc,
        &work.join("wordcount"),
        &[
            "--max-time",
            "30",
            "--libc=musl",
            "--posix-runtime",
            "--",
            "--sym-args",
            "0",
            "2",
            "2",
            "--sym-files",
            "1",
            "10",
            "--sym-stdin",
            "10",
            "--max-fail",
            "1",
        ],
    )?;
    let peak = f(&s, "states_peak").max(1.0);
    let m = &s["memory"];
    let kib = |k: &str| f(m, k) / f(m, "states").max(1.0) / 1024.0;
    rows.push(format!(
        "tests/utils/wordcount.c (POSIX model, 30 s) | memory per live state (peak RSS / peak live states) | {:.2} KiB ({} states, {:.0} MiB peak; census {:.2} KiB/state: objects {:.2}, address space {:.2}, frames {:.2}, constraints {:.2}, models {:.2}; {} suspended, {} dropped)",
        f(&s, "memory_peak_mb") * 1024.0 / peak,
        peak,
        f(&s, "memory_peak_mb"),
        f(m, "per_state_bytes") / 1024.0,
        kib("object_bytes") + kib("symbolic_bytes"),
        kib("address_space_bytes"),
        kib("stack_bytes"),
        kib("constraint_bytes"),
        kib("model_bytes"),
        f(&s, "suspensions"),
        f(&s, "states_dropped")
    ));
    rows.push(format!(
        "tests/utils/wordcount.c (POSIX model, 30 s) | instructions/s, forking whole program | {:.2} M/s ({} instructions, {} forks, {} paths, {:.0}% solver)",
        f(&s, "instructions") / f(&s, "time_s").max(1e-9) / 1e6,
        f(&s, "instructions"),
        f(&s, "forks"),
        f(&s, "paths_completed"),
        100.0 * f(&s, "solver_time_s") / f(&s, "time_s").max(1e-9)
    ));
    Ok(s)
}

/// The solver benchmark's workload: (name, source relative to the workspace,
/// instruction budget). Programs with many queries of the shapes real code
/// produces: the paper's `tr` (Figure 1), byte-wise parsing and character
/// classes, reads through a lookup table at symbolic indices, independent
/// branches, a loop over a symbolic bound, and two corpus programs.
const SOLVER_WORKLOAD: &[(&str, &str, u64)] = &[
    ("tr", "tests/demo/tr.c", 20_000),
    ("parse_kv", "tests/bench/solver/parse_kv.c", 200_000),
    ("classify", "tests/bench/solver/classify.c", 200_000),
    ("hex_decode", "tests/bench/solver/hex_decode.c", 20_000),
    ("loop_bound", "tests/bench/solver/loop_bound.c", 30_000),
    ("fork_heavy", "tests/bench/engine/fork_heavy.c", 200_000),
    (
        "paper_tr_expand",
        "tests/programs/paper_tr_expand.c",
        20_000,
    ),
    (
        "misc_determinism",
        "tests/programs/misc_determinism.c",
        20_000,
    ),
    // Real-code shapes the solver spent its time on (issue 16): a UTF-8
    // decoder as in wc, and loops over symbolic bounds with sums and
    // products.
    ("utf8_decode", "tests/bench/solver/utf8_decode.c", 50_000),
    ("sum_powers", "tests/bench/loops/sum_powers.c", 20_000),
    ("geo_series", "tests/bench/loops/geo_series.c", 5_000),
];

/// Safety cap per run; a run that hits it did less work than the others
/// and is flagged in the table.
const SOLVER_MAX_TIME_S: &str = "120";

/// Configurations, in table order: (row label, `--solver-layers`). The
/// Table 1 rows keep the executor-side optimizations (rewrite, simplify,
/// ivc) on and vary only the solver layers, as the paper varies only
/// independence and the counter-example cache; `none` (every optimization
/// off) is the reference for the whole of §3.3.
const SOLVER_CONFIGS: &[(&str, &str)] = &[
    ("none (all of §3.3 off)", "none"),
    ("base: rewrite,simplify,ivc", "rewrite,simplify,ivc"),
    ("+ independence", "rewrite,simplify,ivc,independence"),
    ("+ bounds", "rewrite,simplify,ivc,bounds"),
    ("+ cex,cache", "rewrite,simplify,ivc,cex,cache"),
    ("all", "all"),
];

#[derive(Default, Clone, Copy)]
struct Totals {
    queries: f64,
    solver_queries: f64,
    time: f64,
    solver_time: f64,
    instructions: f64,
    capped: bool,
}

fn pct(x: f64, of: f64) -> String {
    if of > 0.0 {
        format!("{:.0}%", 100.0 * x / of)
    } else {
        "-".into()
    }
}

/// One program of [`SOLVER_WORKLOAD`] under every configuration: its
/// figures added to `totals` (per configuration) and its rows to
/// `detail`; its statistics per configuration.
fn solver_program(
    bin: &Path,
    root: &Path,
    work: &Path,
    (name, src, budget): (&str, &str, u64),
    totals: &mut [Totals],
    detail: &mut Vec<String>,
) -> Result<serde_json::Map<String, serde_json::Value>> {
    let bc = work.join(format!("{name}.bc"));
    compile(&root.join(src), &bc)?;
    let mut runs = serde_json::Map::new();
    let mut instructions = Vec::new();
    for (ci, &(label, layers)) in SOLVER_CONFIGS.iter().enumerate() {
        let budget_s = budget.to_string();
        let s = exec(
            bin,
            &bc,
            &work.join(format!("{name}-{ci}")),
            &[
                "--solver-layers",
                layers,
                "--max-instructions",
                &budget_s,
                "--max-time",
                SOLVER_MAX_TIME_S,
            ],
        )?;
        let capped = f(&s, "time_s") >= SOLVER_MAX_TIME_S.parse::<f64>().unwrap_or(f64::MAX);
        let t = &mut totals[ci];
        t.queries += f(&s, "queries");
        t.solver_queries += f(&s, "solver_queries");
        t.time += f(&s, "time_s");
        t.solver_time += f(&s, "solver_time_s");
        t.instructions += f(&s, "instructions");
        t.capped |= capped;
        instructions.push(f(&s, "instructions"));
        detail.push(format!(
            "| {name} | {label} | {} | {} | {} | {} | {:.2} | {:.2} |{} |",
            f(&s, "instructions"),
            f(&s, "paths_completed"),
            f(&s, "queries"),
            f(&s, "solver_queries"),
            f(&s, "time_s"),
            f(&s, "solver_time_s"),
            if capped { " (time cap)" } else { "" },
        ));
        eprintln!(
            "bench solver: {name} [{layers}]: {} queries, {} reached Bitwuzla, {:.2} s",
            f(&s, "queries"),
            f(&s, "solver_queries"),
            f(&s, "time_s")
        );
        runs.insert(layers.to_string(), s);
    }
    if instructions.iter().any(|&i| i != instructions[0]) {
        eprintln!(
            "bench solver: warning: {name} executed different instruction counts {instructions:?}"
        );
    }
    Ok(runs)
}

/// Prints the solver table (each configuration against `base` and `none`)
/// and the all-vs-none line; the table's rows for the JSON.
fn print_solver_table(totals: &[Totals]) -> Vec<serde_json::Value> {
    let base = totals[1];
    let none = totals[0];
    println!("Solver optimizations (paper §3.3, Table 1): {} programs, same seed and instruction budget per program\n", SOLVER_WORKLOAD.len());
    println!("| optimizations | queries reaching Bitwuzla | (% of base) | (% of none) | time (s) | solver time (s) | (% of base) | (% of none) | executor queries |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut rows = Vec::new();
    for (t, &(label, layers)) in totals.iter().zip(SOLVER_CONFIGS) {
        println!(
            "| {label}{} | {} | {} | {} | {:.2} | {:.2} | {} | {} | {} |",
            if t.capped { " (time cap hit)" } else { "" },
            t.solver_queries,
            pct(t.solver_queries, base.solver_queries),
            pct(t.solver_queries, none.solver_queries),
            t.time,
            t.solver_time,
            pct(t.solver_time, base.solver_time),
            pct(t.solver_time, none.solver_time),
            t.queries,
        );
        rows.push(serde_json::json!({
            "label": label,
            "solver_layers": layers,
            "solver_queries": t.solver_queries,
            "queries": t.queries,
            "time_s": t.time,
            "solver_time_s": t.solver_time,
            "instructions": t.instructions,
            "time_cap_hit": t.capped,
        }));
    }
    let all = totals[SOLVER_CONFIGS.len() - 1];
    println!(
        "\nall vs none: {} of the queries reach Bitwuzla, total time {:.1}x lower; all vs base: {}, {:.1}x",
        pct(all.solver_queries, none.solver_queries),
        none.time / all.time.max(1e-9),
        pct(all.solver_queries, base.solver_queries),
        base.time / all.time.max(1e-9),
    );
    rows
}

/// `cargo xtask bench solver`: every program of [`SOLVER_WORKLOAD`] under
/// every configuration of [`SOLVER_CONFIGS`], same seed and instruction
/// budget (so the same exploration: the layers change speed, never
/// answers), printed like the paper's Table 1.
fn solver() -> Result<()> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let bin = release_binary()?;
    let work = target_dir(&root).join("bench").join("solver");
    std::fs::create_dir_all(&work)?;
    let mut per_program = serde_json::Map::new();
    let mut totals = vec![Totals::default(); SOLVER_CONFIGS.len()];
    let mut detail = Vec::new();
    for &(name, src, budget) in SOLVER_WORKLOAD {
        let runs = solver_program(
            &bin,
            &root,
            &work,
            (name, src, budget),
            &mut totals,
            &mut detail,
        )?;
        per_program.insert(name.to_string(), serde_json::Value::Object(runs));
    }

    let rows = print_solver_table(&totals);
    println!("\n| program | optimizations | instructions | paths | executor queries | reaching Bitwuzla | time (s) | solver time (s) | |\n|---|---|---:|---:|---:|---:|---:|---:|---|");
    for d in &detail {
        println!("{d}");
    }
    let json = serde_json::json!({
        "table": rows,
        "programs": serde_json::Value::Object(per_program),
        "max_time_s": SOLVER_MAX_TIME_S,
    });
    let out = target_dir(&root).join("bench").join("solver.json");
    std::fs::write(&out, serde_json::to_string_pretty(&json)?)?;
    println!("\nraw statistics: {}", out.display());
    Ok(())
}
