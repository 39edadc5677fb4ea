//! Project automation for symtest: `cargo xtask <command>`.
//!
//! Every command that needs the toolchain runs `setup` first, so a fresh
//! Debian machine needs nothing installed by hand.

mod bench;
mod bitwuzla;
mod debsrc;
mod demo;
mod fuzz;
mod libc;
mod libc_key;
mod paths;
mod setup;
mod test;
mod tidy;
mod util;

use anyhow::Result;
use clap::{CommandFactory, Parser, Subcommand};

/// Project automation for symtest.
#[derive(Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Install the system packages symtest needs (root), build Bitwuzla and
    /// the musl bitcode runtime (both cached)
    Setup,
    /// Setup, then cargo fmt --check, clippy -D warnings, the whole test
    /// suite and `bench projects --quick`
    Test,
    /// Report what the repository checks do not enforce: the non-test
    /// functions over 100 lines (a report, never a failure)
    Tidy,
    /// Setup, then run symtest on the bundled example (tests/demo/)
    Demo,
    /// Setup, then a benchmark (default: symtest vs random testing on
    /// tests/bench/suite/)
    Bench(bench::BenchArgs),
    /// Setup, then mutants of bitcode, .ktest files, symtest.toml and the
    /// POSIX environment's options through the release binary: no signal,
    /// panic or hang, documented exit codes, one-line errors -> target/fuzz/
    Fuzz(fuzz::FuzzArgs),
}

fn main() {
    // Usage errors: clap's message and exit status 2.
    let cli = Cli::parse();
    let result = match cli.command {
        Some(command) => run(command),
        None => Cli::command().print_help().map_err(Into::into),
    };
    if let Err(err) = result {
        eprintln!("error: {err:#}");
        std::process::exit(util::exit_code_of(&err));
    }
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::Setup => setup::ensure(),
        Command::Test => test::run(),
        Command::Demo => demo::run(),
        Command::Bench(args) => bench::run(args),
        Command::Fuzz(args) => fuzz::run(&args),
        Command::Tidy => {
            tidy::run();
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command line (without `cargo xtask`), parsed as `main` parses it.
    fn parse(line: &str) -> Result<()> {
        let cli = Cli::try_parse_from(["cargo xtask"].into_iter().chain(line.split_whitespace()))?;
        if let Some(Command::Bench(args)) = cli.command {
            bench::check(args)?;
        }
        Ok(())
    }

    /// Every `cargo xtask` command of the documentation's code blocks and of
    /// CI parses.
    #[test]
    fn documented_command_lines_parse() {
        let root = paths::workspace_root();
        let mut files = vec![root.join("README.md"), root.join("BENCHMARKS.md")];
        for e in std::fs::read_dir(root.join("docs")).unwrap() {
            files.push(e.unwrap().path());
        }
        let mut seen = 0;
        for f in &files {
            let Ok(text) = std::fs::read_to_string(f) else {
                continue;
            };
            let mut fenced = false;
            for l in text.lines() {
                if l.trim_start().starts_with("```") {
                    fenced = !fenced;
                } else if let Some(cmd) = l.trim().strip_prefix("cargo xtask").filter(|_| fenced) {
                    let cmd = cmd.split(" #").next().unwrap_or_default();
                    parse(cmd).unwrap_or_else(|e| panic!("{}: `{l}`: {e}", f.display()));
                    seen += 1;
                }
            }
        }
        assert!(seen >= 30, "{seen} command lines found");
        let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
        for l in ci.lines() {
            if let Some(cmd) = l.trim().strip_prefix("cargo xtask") {
                parse(cmd).unwrap_or_else(|e| panic!(".ci/run: `{l}`: {e}"));
            }
        }
        for cmd in [
            "",
            "bench suite --quick --budget 5 --only wc,echo --out /tmp/b",
            "bench crosscheck --only test,sort --rebuild --report-only",
            "bench coreutils --out /tmp/b27 --rerun-budget 5 --rebuild",
            "bench coreutils --no-rerun --suite-runs 2",
            "bench gate --only uniq --bugs 1 --out /tmp/g --seed 3 --budget 20 --quick",
            "bench mutation --quick --only wc,uniq --mutants 5 --seed 2 --budget 10 --out /tmp/m",
            "bench projects --corpus --only a,b --shard 2/4 --fresh --budget 30 --package-timeout 600 --out /tmp/c",
            "bench seeds --only jq,gawk --budget 5 --out /tmp/s --reuse --prepare --report",
            "bench seeds --reuse --help",
        ] {
            parse(cmd).unwrap_or_else(|e| panic!("`{cmd}`: {e}"));
        }
    }

    /// Bad command lines are usage errors (exit status 2), caught before
    /// anything runs.
    #[test]
    fn bad_command_lines_are_usage_errors() {
        for cmd in [
            "bogus",
            "test extra",
            "demo --quick",
            "bench bogus",
            "bench --budget 0",
            "bench --quick engine",
            "bench engine --quick",
            "bench coreutils --only ls",
            "bench coreutils --rerun-budget 5 --no-rerun",
            "bench projects --only coreutils",
            "bench projects --select --corpus",
            "bench projects --fresh",
            "bench seeds --only zlib",
            "bench seeds --bogus",
            "fuzz --count 0",
        ] {
            let e = parse(cmd).expect_err(cmd);
            let code = match e.downcast_ref::<clap::Error>() {
                Some(c) => c.exit_code(),
                None => util::exit_code_of(&e),
            };
            assert_eq!(code, 2, "`{cmd}`: {e}");
        }
    }
}
