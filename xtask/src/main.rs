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

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  setup   install the system packages symtest needs (root), build Bitwuzla and the
          musl bitcode runtime (both cached)
  test    setup, then cargo fmt --check, clippy -D warnings and the whole test suite
  tidy    report what the repository checks do not enforce: the non-test functions
          over 100 lines (a report, never a failure)
  demo    setup, then run symtest on the bundled example (tests/demo/)
  bench [--quick] [--budget S] [--only A,B] [--out DIR]
          setup, then symtest vs random testing on tests/bench/suite/ (paper §5):
          gcov line/branch coverage, bugs, engine statistics -> target/bench/
  bench engine
          setup, then measure engine speed and memory (tests/bench/engine/)
  bench solver
          setup, then the paper's Table 1: solver-chain configurations (tests/bench/solver/),
          floating-point query cost and the loops benchmark
  bench loops
          setup, then instruction rate and solver share on loops over symbolic bounds
          (tests/bench/loops/, 20 s each)
  bench coreutils [--quick] [--budget S] [--only a,b] [--out DIR] [--rebuild]
          setup, then GNU coreutils 9.1 captured and explored with the paper's options
  bench crosscheck [--quick] [--budget S] [--only a,b] [--out DIR] [--rebuild] [--report-only]
          setup, then GNU coreutils 9.1 crosschecked against toybox 0.8.9 (paper §5.5),
          one [[crosscheck]] per tool both provide -> target/bench/crosscheck.{json,md}
  bench projects [--only a,b] [--budget S] [--out DIR] [--no-plain]
          setup, then eight Debian source packages captured with their own builds,
          `init --from-build`, every listed target run -> target/bench/projects/
  bench projects --select
          apply tests/bench/corpus/RULE.md: write tests/bench/corpus/corpus.toml, walk.tsv
  bench projects --corpus [--only a,b] [--shard K/N] [--fresh] [--budget S]
                 [--package-timeout S] [--out DIR]
          every corpus package (30 s per program), resumable -> target/bench/corpus/
  bench projects --quick
          one small corpus package end to end, checked (part of `cargo xtask test`)
  bench seeds [--only a,b] [--budget S] [--out DIR] [--reuse] [--prepare]
          jq, gawk, lua5.4, sqlite3 at 30 s per program without and with seeds from their
          own tests, measured by gcov on their own build -> target/bench/seeds/
  fuzz [--count N] [--seed S]
          setup, then mutants of bitcode, .ktest files and symtest.toml (N of each,
          default 500) through the release binary: no signal, panic or hang, documented
          exit codes, one-line errors -> target/fuzz/
  help    print this message
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = run(&args);
    if let Err(err) = result {
        eprintln!("error: {err:#}");
        std::process::exit(util::exit_code_of(&err));
    }
}

fn run(args: &[String]) -> Result<()> {
    let (command, rest) = match args.split_first() {
        Some((c, rest)) => (c.as_str(), rest),
        None => {
            print!("{USAGE}");
            return Ok(());
        }
    };
    match command {
        "setup" => setup::run(rest),
        "test" => test::run(rest),
        "demo" => demo::run(rest),
        "bench" => bench::run(rest),
        "fuzz" => fuzz::run(rest),
        "tidy" => tidy::run(rest),
        "help" | "-h" | "--help" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(util::UsageError(format!("unknown command `{other}`\n\n{USAGE}")).into()),
    }
}
