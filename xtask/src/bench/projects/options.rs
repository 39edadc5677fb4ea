//! The options of `cargo xtask bench projects`.

use super::{recipes, CORPUS_BUDGET_S, DEFAULT_BUDGET_S, PACKAGE_TIMEOUT_S};
use clap::error::ErrorKind;
use clap::{ArgMatches, Args, Command, CommandFactory, FromArgMatches};
use std::path::PathBuf;

/// What `bench projects` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The eight hand recipes.
    Recipes,
    /// Apply the corpus rule: write `tests/bench/corpus/corpus.toml`.
    Select,
    /// Every package of the corpus (or `--only`, or a shard).
    Corpus,
    /// One small corpus package end to end, checked (`cargo xtask test`).
    Quick,
}

/// The options of `bench projects`: its command line, checked.
pub struct Options {
    pub mode: Mode,
    pub only: Vec<String>,
    pub budget_s: f64,
    pub out: Option<PathBuf>,
    pub plain: bool,
    /// `--shard K/N`: the corpus packages at positions K-1, K-1+N, ...
    pub shard: Option<(usize, usize)>,
    /// Run packages that already have a result.
    pub fresh: bool,
    pub package_timeout_s: f64,
}

/// The command line of `bench projects`: the eight hand recipes by default,
/// or one of --select, --corpus, --quick.
#[derive(clap::Parser)]
#[command(group(clap::ArgGroup::new("mode").args(["select", "corpus", "quick"])))]
struct Flags {
    /// Apply tests/bench/corpus/RULE.md: write tests/bench/corpus/corpus.toml
    /// and walk.tsv
    #[arg(long)]
    select: bool,
    /// Every corpus package (30 s per program by default), resumable: a
    /// package with a result is not run again (unless --fresh)
    /// -> target/bench/corpus/
    #[arg(long)]
    corpus: bool,
    /// One small corpus package end to end, checked (part of `cargo xtask
    /// test`)
    #[arg(long)]
    quick: bool,
    /// Only these packages (comma-separated): recipes, or with --corpus
    /// corpus packages
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    only: Vec<String>,
    /// Seconds of exploration per program, 0 < S <= 86400 [default: 10, 30
    /// with --corpus]
    #[arg(long, value_name = "SECONDS", value_parser = crate::bench::seconds)]
    budget: Option<f64>,
    /// Where the packages and the reports go [default: target/bench/projects,
    /// target/bench/corpus with --corpus]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Skip the plain build of each recipe (its build time)
    #[arg(long)]
    no_plain: bool,
    /// With --corpus: only the packages at positions K-1, K-1+N, ... of the
    /// corpus (1 <= K <= N)
    #[arg(long, value_name = "K/N", value_parser = shard, requires = "corpus")]
    shard: Option<(usize, usize)>,
    /// With --corpus: run the packages that already have a result too
    #[arg(long, requires = "corpus")]
    fresh: bool,
    /// With --corpus: the wall-clock cap of one package in seconds,
    /// 0 < S <= 86400
    #[arg(long, value_name = "SECONDS", value_parser = crate::bench::seconds,
          default_value_t = PACKAGE_TIMEOUT_S)]
    package_timeout: f64,
}

/// `--shard K/N`, 1 <= K <= N.
fn shard(v: &str) -> Result<(usize, usize), String> {
    v.split_once('/')
        .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)))
        .filter(|&(k, n): &(usize, usize)| n >= 1 && (1..=n).contains(&k))
        .ok_or_else(|| format!("`{v}` is not K/N with 1 <= K <= N"))
}

impl Flags {
    /// The options, with the checks that depend on the mode.
    fn options(self) -> Result<Options, clap::Error> {
        let mode = if self.select {
            Mode::Select
        } else if self.corpus {
            Mode::Corpus
        } else if self.quick {
            Mode::Quick
        } else {
            Mode::Recipes
        };
        let only: Vec<String> = self.only.into_iter().filter(|p| !p.is_empty()).collect();
        if mode == Mode::Recipes {
            let names: Vec<&str> = recipes::all().iter().map(|r| r.name).collect();
            if let Some(p) = only.iter().find(|p| !names.contains(&p.as_str())) {
                return Err(Options::command().error(
                    ErrorKind::InvalidValue,
                    format!(
                        "--only: `{p}` is not one of the projects ({})",
                        names.join(" ")
                    ),
                ));
            }
        }
        Ok(Options {
            mode,
            only,
            budget_s: self.budget.unwrap_or(match mode {
                Mode::Corpus => CORPUS_BUDGET_S,
                _ => DEFAULT_BUDGET_S,
            }),
            out: self.out,
            plain: !self.no_plain,
            shard: self.shard,
            fresh: self.fresh,
            package_timeout_s: self.package_timeout,
        })
    }
}

// `Options` is parsed as its `Flags`, then checked.
impl FromArgMatches for Options {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        Flags::from_arg_matches(m)?.options()
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for Options {
    fn augment_args(cmd: Command) -> Command {
        Flags::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Flags::augment_args_for_update(cmd)
    }
}

impl CommandFactory for Options {
    fn command() -> Command {
        Flags::command()
            .name("projects")
            .bin_name("cargo xtask bench projects")
    }

    fn command_for_update() -> Command {
        Flags::command_for_update()
            .name("projects")
            .bin_name("cargo xtask bench projects")
    }
}

impl clap::Parser for Options {}
