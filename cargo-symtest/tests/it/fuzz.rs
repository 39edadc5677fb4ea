//! A bounded fuzz campaign (the one `cargo xtask fuzz` runs at length):
//! mutants of real bitcode, `.ktest` files and a `symtest.toml` through the
//! binary. No signal, panic or hang; documented exit codes; one-line errors
//! for bad bitcode; `show` and the native replay runtime agree on validity;
//! corrupt tests fail their replay; nothing is written outside the project.

#[path = "../../../xtask/src/fuzz/mutate.rs"]
#[allow(dead_code)]
mod mutate;

#[path = "../../../xtask/src/fuzz/campaign.rs"]
#[allow(dead_code)]
mod campaign;

use crate::support::*;

#[test]
fn mutants_end_with_documented_exit_codes() {
    let work = scratch("fuzz");
    let o = campaign::Options {
        bin: bin(),
        workspace: workspace(),
        work: work.clone(),
        seed: 17,
        bitcode: 200,
        ktest: 150,
        toml: 150,
        env: 100,
        pipeline_every: 10,
        max_time_s: 5.0,
        max_memory_mib: 512,
        verbose: false,
    };
    let r = campaign::campaign(&o).unwrap();
    eprintln!(
        "fuzz: env {:?}, bitcode {:?}, ktest {:?}, toml {:?}, {} pipeline run(s), {} contained, peak {:.0} MiB, {:.0} s",
        r.env.exits, r.bitcode.exits, r.ktest.exits, r.toml.exits, r.pipelines, r.contained, r.peak_rss_mib,
        r.elapsed.as_secs_f64()
    );
    let findings: Vec<String> = r
        .findings
        .iter()
        .map(|f| format!("{}: {} ({})", f.rule, f.input.display(), f.detail))
        .collect();
    assert!(findings.is_empty(), "{}", findings.join("\n"));
    assert_eq!(r.bitcode.tried, 200);
    assert_eq!(r.ktest.tried, 150);
    assert_eq!(r.toml.tried, 150);
    assert_eq!(r.env.tried, 100);
    // The mutants reach both outcomes of each command (the campaign is not
    // trivially passing): bitcode that loads and runs, bitcode refused.
    for (family, t) in [
        ("bitcode", &r.bitcode),
        ("ktest", &r.ktest),
        ("toml", &r.toml),
        ("env", &r.env),
    ] {
        assert!(
            t.exits.get(&0).copied().unwrap_or(0) > 0,
            "{family}: {:?}",
            t.exits
        );
        assert!(
            t.exits.get(&2).copied().unwrap_or(0) > 0,
            "{family}: {:?}",
            t.exits
        );
    }
    assert!(r.pipelines >= 1, "no mutant reached the pipeline");
    // Some mutants crash LLVM's reader (or make it allocate without end);
    // each became a one-line error.
    assert!(
        r.contained >= 1,
        "no mutant crashed the reader: {:?}",
        r.bitcode.exits
    );
    assert!(r.peak_rss_mib <= 512.0 * 1.1, "peak {} MiB", r.peak_rss_mib);
}
