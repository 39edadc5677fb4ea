//! `cargo xtask fuzz [--count N] [--seed S]`: the fuzz campaign of
//! `campaign.rs` with the release binary, N mutants per family (bitcode,
//! `.ktest`, `symtest.toml`, the POSIX environment's options); prints the figures and exits 1 on any finding.

mod campaign;
mod mutate;

use anyhow::{bail, Result};

/// The options of `cargo xtask fuzz`.
#[derive(clap::Parser)]
pub struct FuzzArgs {
    /// Mutants of each family (bitcode, .ktest, symtest.toml, the POSIX
    /// environment's options), at least 1
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = positive)]
    count: usize,
    /// Seed of the mutations
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
}

/// A `--count`: a positive number.
fn positive(v: &str) -> Result<usize, String> {
    v.parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("`{v}` is not a positive number"))
}

pub fn run(args: &FuzzArgs) -> Result<()> {
    let FuzzArgs { count, seed } = *args;
    crate::setup::ensure()?;
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

#[cfg(test)]
mod tests {
    use super::FuzzArgs;
    use clap::Parser;

    #[test]
    fn options_are_checked() {
        let o = FuzzArgs::try_parse_from(["fuzz", "--count", "2000", "--seed", "7"]).unwrap();
        assert_eq!((o.count, o.seed), (2000, 7));
        let o = FuzzArgs::try_parse_from(["fuzz"]).unwrap();
        assert_eq!((o.count, o.seed), (500, 1));
        assert!(FuzzArgs::try_parse_from(["fuzz", "--count", "0"]).is_err());
        assert!(FuzzArgs::try_parse_from(["fuzz", "--seed", "x"]).is_err());
        assert!(FuzzArgs::try_parse_from(["fuzz", "--bogus"]).is_err());
    }
}
