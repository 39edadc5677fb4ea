//! The options of `cargo xtask bench projects`.

use super::{recipes, CORPUS_BUDGET_S, DEFAULT_BUDGET_S, PACKAGE_TIMEOUT_S};
use crate::util;
use anyhow::Result;
use std::path::PathBuf;

const USAGE: &str = "usage: cargo xtask bench projects [--only a,b] [--budget SECONDS] \
                     [--out DIR] [--no-plain]\n       \
                     cargo xtask bench projects --select\n       \
                     cargo xtask bench projects --corpus [--only a,b] [--shard K/N] [--fresh] \
                     [--budget SECONDS] [--package-timeout SECONDS] [--out DIR]\n       \
                     cargo xtask bench projects --quick";

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

impl Options {
    pub fn parse(args: &[String]) -> Result<Options> {
        let names: Vec<&str> = recipes::all().iter().map(|r| r.name).collect();
        let mut o = Options {
            mode: Mode::Recipes,
            only: Vec::new(),
            budget_s: DEFAULT_BUDGET_S,
            out: None,
            plain: true,
            shard: None,
            fresh: false,
            package_timeout_s: PACKAGE_TIMEOUT_S,
        };
        let usage =
            |m: String| -> anyhow::Error { util::UsageError(format!("{m}\n{USAGE}")).into() };
        let mut budget = None;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--no-plain" => o.plain = false,
                "--select" => o.mode = Mode::Select,
                "--corpus" => o.mode = Mode::Corpus,
                "--quick" => o.mode = Mode::Quick,
                "--fresh" => o.fresh = true,
                "--budget" => {
                    let v = it
                        .next()
                        .ok_or_else(|| usage("--budget needs SECONDS".into()))?;
                    budget = Some(crate::bench::budget_seconds(v, "--budget").map_err(usage)?);
                }
                "--package-timeout" => {
                    let v = it
                        .next()
                        .ok_or_else(|| usage("--package-timeout needs SECONDS".into()))?;
                    o.package_timeout_s =
                        crate::bench::budget_seconds(v, "--package-timeout").map_err(usage)?;
                }
                "--shard" => {
                    let v = it.next().ok_or_else(|| usage("--shard needs K/N".into()))?;
                    let parsed = v
                        .split_once('/')
                        .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)))
                        .filter(|&(k, n): &(usize, usize)| n >= 1 && (1..=n).contains(&k));
                    o.shard = Some(parsed.ok_or_else(|| {
                        usage(format!("--shard: `{v}` is not K/N with 1 <= K <= N"))
                    })?);
                }
                "--only" => {
                    let v = it
                        .next()
                        .ok_or_else(|| usage("--only needs a list".into()))?;
                    o.only
                        .extend(v.split(',').filter(|p| !p.is_empty()).map(str::to_string));
                }
                "--out" => {
                    o.out = Some(PathBuf::from(
                        it.next().ok_or_else(|| usage("--out needs DIR".into()))?,
                    ))
                }
                other => return Err(usage(format!("unknown option `{other}`"))),
            }
        }
        if o.mode == Mode::Recipes {
            if let Some(p) = o.only.iter().find(|p| !names.contains(&p.as_str())) {
                return Err(usage(format!(
                    "--only: `{p}` is not one of the projects ({})",
                    names.join(" ")
                )));
            }
        }
        if o.mode != Mode::Corpus && (o.shard.is_some() || o.fresh) {
            return Err(usage("--shard and --fresh go with --corpus".into()));
        }
        o.budget_s = budget.unwrap_or(match o.mode {
            Mode::Corpus => CORPUS_BUDGET_S,
            _ => DEFAULT_BUDGET_S,
        });
        Ok(o)
    }
}
