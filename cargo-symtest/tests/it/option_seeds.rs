//! Option seeds (`--option-seeds`) on whole programs under the POSIX runtime
//! (tests/posix/): seeds from the program's getopt tables, and a stalled
//! seeded path released to the search.

use crate::posix::{exec, exit_code, object_bytes, program, replays_natively, tests};
use crate::support::*;
use std::path::Path;

/// `--option-seeds`: the options of the program's getopt_long tables seed
/// its symbolic arguments (`--z`, the unique prefix of `--zebra-mode`,
/// `--width 1`, and `--m=slow`, a value of the list `--mode`'s XARGMATCH
/// checks), the pair `-vw 1` and the negative `-w -1`, so a budget too small to spell them out
/// reaches their exits; the short options are found in a local variable;
/// the seeds lack the runtime's own objects (model_version) and are extended
/// with them; the tests replay natively.
#[test]
fn option_seeds_follow_the_program_s_getopt_tables() {
    let dir = scratch("posix-option-seeds");
    let bc = program("options.c", &dir);
    let args = ["--sym-args", "0", "1", "10", "--sym-args", "0", "1", "2"];
    let codes_of = |out: &Path| -> std::collections::BTreeSet<i64> {
        tests(out).iter().filter_map(exit_code).collect()
    };
    let plain = dir.join("plain");
    exec(&bc, &plain, true, &["--max-instructions", "40000"], &args);
    let seeded = dir.join("seeded");
    let budget = ["--max-instructions", "40000", "--option-seeds"];
    exec(&bc, &seeded, true, &budget, &args);
    let plain_codes = codes_of(&plain);
    let seeded_codes = codes_of(&seeded);
    assert!(
        !plain_codes.contains(&11) && !plain_codes.contains(&13),
        "{plain_codes:?}"
    );
    for c in [0, 2, 10, 11, 12, 13, 14] {
        assert!(
            seeded_codes.contains(&c),
            "exit {c} missing: {seeded_codes:?}"
        );
    }
    let arg = |t: &serde_json::Value, name: &str| -> String {
        let b = object_bytes(t, name);
        String::from_utf8_lossy(&b[..b.iter().position(|&x| x == 0).unwrap()]).into_owned()
    };
    let ts = tests(&seeded);
    let zebra = ts.iter().find(|t| exit_code(t) == Some(10)).unwrap();
    assert_eq!(arg(zebra, "arg00"), "--z", "{zebra}");
    assert_eq!(zebra["stdout"], "zebra\n", "{zebra}");
    let slow = ts.iter().find(|t| exit_code(t) == Some(13)).unwrap();
    assert_eq!(arg(slow, "arg00"), "--m=slow", "{slow}");
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(seeded.join("stats.json")).unwrap()).unwrap();
    let pair = ts.iter().find(|t| exit_code(t) == Some(14)).unwrap();
    assert_eq!(arg(pair, "arg00"), "-vw", "{pair}");
    // -v, -w, -w 1, --verbose, --width, --width 1, --z, --mode, --mode 1,
    // --m=fast, --m=slow; the pairs -vw 1, --z -v, --m=fast -v, --m=slow -v
    // (--mode 1 -v finds no third argument); the negatives -w -1,
    // --width -1, --mode -1.
    assert_eq!(stats["option_seeds"], 18, "{stats}");
    // The negatives come last: at twice the budget their seeds run too.
    let longer = dir.join("longer");
    exec(
        &bc,
        &longer,
        true,
        &["--max-instructions", "80000", "--option-seeds"],
        &args,
    );
    let longer_tests = tests(&longer);
    let negative = longer_tests
        .iter()
        .find(|t| exit_code(t) == Some(15))
        .expect("exit 15 through -w -1");
    assert_eq!(arg(negative, "arg01"), "-1", "{negative}");
    assert!(stats["seeding_s"].as_f64().is_some(), "{stats}");
    assert_eq!(stats["seeds_dropped"], 0, "{stats}");
    assert!(
        stats["seed_objects_extended"].as_u64().unwrap() >= 7,
        "{stats}"
    );
    replays_natively("options.c", &dir, &seeded, ts.len());
}

/// A seeded path that covers nothing new for `SEED_STALL_INSTRUCTIONS`
/// (`-f`, a long spin) is released to the search, so the next seed (`-q`)
/// runs before the spin ends and before seeding's share of the budget.
#[test]
fn a_stalled_seed_path_gives_the_other_seeds_their_turn() {
    let dir = scratch("posix-seed-stall");
    let bc = program("stall.c", &dir);
    let out = dir.join("out");
    let budget = ["--max-instructions", "12000000", "--option-seeds"];
    exec(&bc, &out, true, &budget, &["--sym-args", "0", "1", "2"]);
    let ts = tests(&out);
    let codes: std::collections::BTreeSet<i64> = ts.iter().filter_map(exit_code).collect();
    assert!(codes.contains(&10), "the seed -q did not run: {codes:?}");
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    // -f and -q (the pair -qf does not fit a 2-byte argument).
    assert_eq!(stats["option_seeds"], 2, "{stats}");
    assert_eq!(stats["seed_paths_stalled"], 1, "{stats}");
    // Seeding ended when the seeds did: the stall (500,000 instructions)
    // and -q, well before its share of the budget (a quarter: 3,000,000).
    let seeding = stats["seeding_instructions"].as_u64().unwrap();
    assert!((500_000..1_000_000).contains(&seeding), "{stats}");
    replays_natively("stall.c", &dir, &out, ts.len());
}
