//! `cargo symtest`: generate tests for C code by symbolic execution.
//!
//! A thin binary over the engine crates and the project pipeline
//! (`symtest-project`): argument parsing, file output, progress drawing.
//! Exit codes: 0 success, 1 bugs found where a mode asks for it (or a replay
//! mismatch), 2 bad input or usage.

mod capture_cmd;
mod cc_cmd;
mod exec;
mod exec_config;
mod init;
mod inspect;
mod klee_compat;
mod libc;
mod loading;
mod native_cmd;
mod native_run;
mod native_world;
mod output;
mod project_cmd;
mod replay;
mod replay_cmd;
mod reporter;
mod shim;
mod show;
mod supervise;
mod tempdir;
mod validate;
mod why_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Counts the memory in use, for the engine's memory cap (`--max-memory`).
#[global_allocator]
static ALLOCATOR: symtest_executor::CountingAllocator = symtest_executor::CountingAllocator;

/// Exit code for bad input and usage errors; exit code for "bugs found" /
/// "replay mismatch".
pub use symtest_project::{EXIT_BAD_INPUT, EXIT_FOUND};

#[derive(Parser, Debug)]
#[command(
    name = "cargo-symtest",
    bin_name = "cargo symtest",
    version,
    about = "Generate tests for C code by symbolic execution (a KLEE re-implementation)",
    long_about = "Generate tests for C code by symbolic execution (a KLEE re-implementation).\n\n\
        With no subcommand: the project pipeline. Finds the targets (symtest.toml or \
        [package.metadata.symtest]), compiles, explores, minimizes, emits native regression \
        suites and gcov reports. Exit codes: 0 success, 1 a target failed or a bug not in \
        the --baseline, 2 bad input (configuration, compile errors, usage).",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    project: project_cmd::ProjectArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the engine on an LLVM 19 bitcode file (like `klee`).
    Exec(Box<exec::ExecArgs>),
    /// Print a .ktest file (like `ktest-tool`).
    Show(show::ShowArgs),
    /// Replay tests natively (a harness, or a whole program with --native) and
    /// check each recorded outcome.
    Replay(replay_cmd::ReplayArgs),
    /// Compile C to bitcode for `exec` (or natively with --native, for
    /// `replay --native`) with symtest's headers and flags.
    Cc(cc_cmd::CcArgs),
    /// Run a project's own build with the compiler, archiver and linker
    /// interposed; write LLVM 19 bitcode per executable and static library,
    /// compile_commands.json and manifest.json.
    Capture(capture_cmd::CaptureArgs),
    /// Load a bitcode file and summarise its functions (blocks, instructions).
    Inspect(inspect::InspectArgs),
    /// Show the targets found (name, kind, package, where defined, sources).
    List(project_cmd::SelectArgs),
    /// Write a commented symtest.toml and an example harness (--make: symtest.mk).
    Init(init::InitArgs),
    /// Why the last run's kept tests leave lines and branch sides of a target
    /// uncovered: a reason for each (not reached, infeasible, cut by a
    /// heuristic, pending at the deadline, no test).
    Why(why_cmd::WhyArgs),
}

/// `cargo symtest show … | head` closes our stdout early: end quietly as a
/// C tool killed by SIGPIPE would (exit 141), instead of the panic `println!`
/// raises.  SIGPIPE itself stays ignored, so writes to a child's stdin pipe
/// still fail with EPIPE rather than kill us.
fn quiet_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    // Started as `cc`, `ar`, ... from a capture's wrapper directory.
    if let Some(code) = symtest_project::capture::wrapper::dispatch() {
        return code;
    }
    quiet_broken_pipe();
    // Invoked by cargo as `cargo-symtest symtest ...`.
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "symtest") {
        args.remove(1);
    }
    // `exec` also takes KLEE's command line (klee_compat.rs).
    let mut notes = Vec::new();
    if args.get(1).is_some_and(|a| a == "exec") {
        use clap::CommandFactory;
        let cmd = Cli::command();
        let exec = cmd.find_subcommand("exec").expect("exec is a subcommand");
        let own = klee_compat::OwnOptions::of(exec);
        match klee_compat::translate(&args[2..], &own) {
            Ok(t) => {
                args.truncate(2);
                args.extend(t.args);
                notes = t.notes;
            }
            Err(msg) => {
                eprintln!("error: {msg}");
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        }
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_BAD_INPUT } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        None => project_cmd::run(cli.project),
        Some(Command::List(a)) => project_cmd::list(a),
        Some(Command::Init(a)) => init::run(a),
        Some(Command::Exec(a)) => {
            let stack = engine_stack(a.explore.max_memory);
            with_engine_stack(stack, || exec::run(*a, &notes))
        }
        Some(Command::Show(a)) => show::run(a),
        Some(Command::Replay(a)) => replay_cmd::run(a),
        Some(Command::Inspect(a)) => inspect::run(a),
        Some(Command::Cc(a)) => cc_cmd::run(a),
        Some(Command::Capture(a)) => capture_cmd::run(a),
        Some(Command::Why(a)) => why_cmd::run(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// The stack reserved for the engine's thread. Its walks over expressions
/// recurse as deep as the expressions are (a long chain of symbolic
/// arithmetic in a real program's loop), past the main thread's 8 MiB. The
/// stack is reserved, not committed (only the pages used count as memory),
/// but it is address space, which `--max-memory` limits while the program
/// loads: an eighth of it, from 16 MiB to 1 GiB (256 MiB by default).
fn engine_stack(max_memory_mib: u64) -> usize {
    let bytes = max_memory_mib.saturating_mul(1 << 20) / 8;
    bytes.clamp(16 << 20, 1 << 30) as usize
}

/// Runs `f` (the engine) on a thread with `stack` bytes of stack.
fn with_engine_stack(
    stack: usize,
    f: impl FnOnce() -> anyhow::Result<u8> + Send,
) -> anyhow::Result<u8> {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("engine".into())
            .stack_size(stack)
            .spawn_scoped(s, f)
        {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(e) => Err(anyhow::anyhow!("cannot start the engine's thread: {e}")),
        }
    })
}
