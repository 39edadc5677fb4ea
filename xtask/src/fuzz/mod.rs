//! `cargo xtask fuzz [--count N] [--seed S]`: the fuzz campaign of
//! `campaign.rs` with the release binary, N mutants per family (bitcode,
//! `.ktest`, `symtest.toml`, the POSIX environment's options); prints the figures and exits 1 on any finding.

mod campaign;
mod mutate;

use crate::util::UsageError;
use anyhow::{bail, Result};

pub fn run(args: &[String]) -> Result<()> {
    let mut count = 500usize;
    let mut seed = 1u64;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| -> Result<String> {
            it.next()
                .cloned()
                .ok_or_else(|| UsageError(format!("{name} needs a value")).into())
        };
        match a.as_str() {
            "--count" => {
                count = value("--count")?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| UsageError("--count must be a positive number".into()))?
            }
            "--seed" => {
                seed = value("--seed")?
                    .parse()
                    .map_err(|_| UsageError("--seed must be a number".into()))?
            }
            other => bail!(UsageError(format!(
                "unknown option `{other}` (usage: cargo xtask fuzz [--count N] [--seed S])"
            ))),
        }
    }
    crate::setup::run(&[])?;
    let bin = crate::bench::release_binary()?;
    let workspace = crate::paths::workspace_root();
    let work = workspace.join("target").join("fuzz");
    let o = campaign::Options {
        bin,
        workspace,
        work: work.clone(),
        seed,
        bitcode: count,
        ktest: count,
        toml: count,
        env: count,
        pipeline_every: 50,
        max_time_s: 10.0,
        max_memory_mib: 1024,
        verbose: true,
    };
    let r = campaign::campaign(&o).map_err(anyhow::Error::msg)?;
    let fam = |name: &str, t: &campaign::Tally| {
        let exits: Vec<String> = t
            .exits
            .iter()
            .map(|(k, n)| match k {
                -1000 => format!("timeout: {n}"),
                k if *k < 0 => format!("signal {}: {n}", -k),
                k => format!("exit {k}: {n}"),
            })
            .collect();
        println!("{name:<9} {:>6} inputs  ({})", t.tried, exits.join(", "));
    };
    println!(
        "cargo xtask fuzz --count {count} --seed {seed}: {:.0} s",
        r.elapsed.as_secs_f64()
    );
    fam("env", &r.env);
    fam("bitcode", &r.bitcode);
    fam(".ktest", &r.ktest);
    fam("toml", &r.toml);
    println!(
        "pipeline runs: {}; slowest exec {:.1} s (--max-time {}); peak exec RSS {:.0} MiB (--max-memory {})",
        r.pipelines, r.slowest_exec_s, o.max_time_s, r.peak_rss_mib, o.max_memory_mib
    );
    println!(
        "slowest exec of an environment mutant {:.1} s (--max-time {})",
        r.slowest_env_s, o.max_time_s
    );
    println!(
        "bitcode that crashed LLVM's reader or linker or ran it out of memory, contained: {}",
        r.contained
    );
    println!("findings: {}", r.findings.len());
    for f in &r.findings {
        println!(
            "  {}: {} ({})",
            f.rule,
            f.input.display(),
            f.detail.replace('\n', " | ")
        );
    }
    if !r.findings.is_empty() {
        bail!(
            "{} finding(s); inputs kept in {}",
            r.findings.len(),
            work.join("findings").display()
        );
    }
    Ok(())
}
