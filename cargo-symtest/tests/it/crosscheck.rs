//! `[[crosscheck]]` in the project pipeline: two program targets run in one
//! symbolic environment, their outputs compared by the engine, every
//! mismatch replayed on both native programs (`tests/fixtures/crosscheck-*`).

use crate::project::{fixture, make, run_in, text};
use crate::support::scratch;
use serde_json::Value;
use std::path::Path;

fn summary(dir: &Path, name: &str) -> Value {
    let p = dir.join("symtest-out").join(name).join("summary.json");
    let t = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&t).unwrap()
}

fn n(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or_else(|| panic!("no `{k}` in {v:#}"))
}

/// `count` and the multi-call `multi count` differ only on the digit 9: every
/// mismatch the engine finds holds a 9 and is confirmed natively, with the
/// two programs' first differing lines; every other pair is proven equal.
#[test]
fn crosscheck_finds_the_one_input_class_where_two_programs_differ() {
    let dir = fixture("crosscheck-digits", "crosscheck-digits");
    // `--target` picks the crosscheck alone (its programs are compiled for
    // it, not run as targets).
    let o = run_in(&dir, &["--target", "count-vs"]);
    // A confirmed mismatch fails the run.
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let s = summary(&dir, "count-vs");
    let line = format!(
        "crosscheck count-vs: {} pairs compared, {} proven equal, {} mismatches ({} confirmed natively)",
        n(&s, "paths"),
        n(&s, "paths_equal"),
        n(&s, "mismatches"),
        n(&s, "mismatches_confirmed")
    );
    assert!(out.contains(&line), "{line}\n{}", text(&o));
    assert!(!out.contains("target "), "no target ran: {}", text(&o));
    assert!(n(&s, "paths_equal") >= 1, "{s:#}");
    assert!(n(&s, "mismatches") >= 1, "{s:#}");
    assert_eq!(n(&s, "mismatches"), n(&s, "mismatches_confirmed"), "{s:#}");
    assert_eq!(
        n(&s, "paths"),
        n(&s, "paths_equal") + n(&s, "mismatches"),
        "{s:#}"
    );
    for m in s["mismatch_list"].as_array().unwrap() {
        assert_eq!(m["confirmed"], true, "{m:#}");
        assert_eq!(m["differs"], serde_json::json!(["stdout"]), "{m:#}");
        assert_eq!(m["stdout_line"], 1, "{m:#}");
        let [a, b] = [&m["sides"][0], &m["sides"][1]];
        assert_eq!(
            (&a["program"], &b["program"]),
            (&"count".into(), &"multi".into())
        );
        // The same input, each program's own words first.
        let (ia, ib) = (a["input"].as_str().unwrap(), b["input"].as_str().unwrap());
        assert!(ia.contains("| count"), "{m:#}");
        assert_eq!(ib, ia.replacen("| count", "| multi count", 1), "{m:#}");
        // The class: a 9 on stdin, counted by `count` only.
        let stdin = ia.split(" | ").next().unwrap();
        assert!(stdin.contains('9'), "{m:#}");
        let count = |l: &Value| -> u64 {
            let l = l.as_str().unwrap();
            l.split(' ').next().unwrap().parse().unwrap()
        };
        let (ca, cb) = (
            count(&a["first_differing_line"]),
            count(&b["first_differing_line"]),
        );
        let nines = stdin.matches('9').count() as u64;
        assert_eq!(ca, cb + nines, "{m:#}");
        assert_eq!(a["status"], "exit 0", "{m:#}");
        assert_eq!(b["status"], "exit 0", "{m:#}");
        // Each side's native behaviour is kept beside the tests.
        let t = m["test"].as_str().unwrap();
        let rec = dir.join("symtest-out/count-vs/native/multi").join(t);
        assert!(rec.join("stdout").is_file(), "{}", rec.display());
        assert!(dir
            .join("symtest-out/count-vs")
            .join(format!("{t}.mismatch.err"))
            .is_file());
    }
    // The option is part of the shared environment: `-n` is crosschecked too.
    let inputs: Vec<&str> = s["mismatch_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["sides"][0]["input"].as_str().unwrap())
        .collect();
    assert!(inputs.iter().any(|i| i.ends_with("count -n")), "{inputs:?}");
    assert!(inputs.iter().any(|i| i.ends_with("| count")), "{inputs:?}");
    // The difference, documented: each program's suite records its own
    // behaviour on the mismatches and passes; once `multi` counts its 9s,
    // its suite fails on them (the documented difference is gone).
    for p in ["count", "multi"] {
        let suite = dir.join("tests/symtest/count-vs").join(p);
        let o = make(&suite, &["test"]);
        assert!(o.status.success(), "{p}: {}", text(&o));
    }
    let src = dir.join("src/multi.c");
    let code = std::fs::read_to_string(&src).unwrap();
    std::fs::write(&src, code.replace("c < '9'", "c <= '9'")).unwrap();
    let suite = dir.join("tests/symtest/count-vs/multi");
    let _ = make(&suite, &["clean"]);
    let o = make(&suite, &["test"]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("stdout"),
        "{}",
        text(&o)
    );
}

/// `anyx` and `ownerx` differ only when a file's group or other execute bit
/// is set without its owner's: the native runs give each file the mode the
/// engine chose (not the umask's 0644), so every mismatch is confirmed, and
/// its input says how to make the file.
#[test]
fn crosscheck_mismatches_on_file_modes_are_confirmed_natively() {
    let dir = fixture("crosscheck-modes", "crosscheck-modes");
    let o = run_in(&dir, &["--target", "modes-vs"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let s = summary(&dir, "modes-vs");
    assert!(n(&s, "mismatches") >= 1, "{s:#}");
    assert_eq!(n(&s, "mismatches"), n(&s, "mismatches_confirmed"), "{s:#}");
    for m in s["mismatch_list"].as_array().unwrap() {
        assert_eq!(m["confirmed"], true, "{m:#}");
        assert_eq!(m["sides"][0]["first_differing_line"], "executable", "{m:#}");
        let input = m["sides"][0]["input"].as_str().unwrap();
        let mode = input
            .split("chmod ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|m| u32::from_str_radix(m, 8).ok())
            .unwrap_or_else(|| panic!("no chmod in {input}"));
        assert!(mode & 0o011 != 0 && mode & 0o100 == 0, "{input}");
    }
    // `anyx`'s suite records its behaviour on the mismatches; once it stops
    // saying "executable", the suite fails, and its line to reproduce a
    // test makes the file with the test's mode.
    let src = dir.join("src/anyx.c");
    let code = std::fs::read_to_string(&src).unwrap();
    std::fs::write(&src, code.replace("0111", "0100")).unwrap();
    let suite = dir.join("tests/symtest/modes-vs/anyx");
    let o = make(&suite, &["test"]);
    assert!(!o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("reproduce: ") && out.contains("chmod "),
        "{}",
        text(&o)
    );
}

/// One program as two targets: every pair of paths is proven equal, no
/// mismatch; the targets themselves run too (no `--target`).
#[test]
fn crosscheck_of_a_program_with_itself_proves_every_pair_equal() {
    let dir = fixture("crosscheck-same", "crosscheck-same");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let s = summary(&dir, "upper-self");
    assert_eq!(s["status"], "ok", "{s:#}");
    assert!(n(&s, "paths") > 0, "{s:#}");
    assert_eq!(n(&s, "paths_equal"), n(&s, "paths"), "{s:#}");
    assert_eq!(n(&s, "mismatches"), 0, "{s:#}");
    assert_eq!(s["mismatch_list"], serde_json::json!([]), "{s:#}");
    let all: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(all["targets"].as_array().unwrap().len(), 2, "{all:#}");
    assert_eq!(all["crosschecks"][0]["name"], "upper-self", "{all:#}");
    let out = String::from_utf8_lossy(&o.stdout);
    let closing: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(closing["crosschecks"], 1, "{closing:#}");
    assert_eq!(closing["mismatches_confirmed"], 0, "{closing:#}");
}

const PROGRAMS: &str = "[[target]]\nname = \"a\"\nkind = \"program\"\nsources = [\"p.c\"]\n\n\
[[target]]\nname = \"b\"\nkind = \"program\"\nsources = [\"p.c\"]\n\n\
[[target]]\nname = \"h\"\nkind = \"harness\"\nsources = [\"p.c\"]\n\n";

/// Bad `[[crosscheck]]` tables: exit 2, the file, line and key, and why.
#[test]
fn crosscheck_config_errors_name_the_file_line_and_key() {
    let dir = scratch("crosscheck-config");
    std::fs::write(dir.join("p.c"), "int main(void) { return 0; }\n").unwrap();
    let cases: &[(&str, &str, &str)] = &[
        (
            "programs = [\"a\", \"zz\"]\nargs = []\n",
            "programs",
            "no target named `zz`",
        ),
        (
            "programs = [\"a\", \"h\"]\nargs = []\n",
            "programs",
            "target `h` is kind = \"harness\"",
        ),
        (
            "programs = [\"a\"]\nargs = []\n",
            "programs",
            "exactly two programs (got 1",
        ),
        (
            "programs = [\"a\", \"b\", \"a\"]\nargs = []\n",
            "programs",
            "exactly two programs (got 3",
        ),
        (
            "programs = [\"a\", \"a\"]\nargs = []\n",
            "programs",
            "`a` is named twice",
        ),
        ("programs = [\"a\", \"b\"]\n", "args", "needs `args`"),
        ("args = []\n", "programs", "needs `programs`"),
        (
            "functions = [\"libA:f\", \"libB:g\"]\n",
            "functions",
            "no target named `libA`",
        ),
        (
            "programs = [\"a\", \"b\"]\nargs = [\"--sym-args\", \"2\", \"1\", \"4\"]\n",
            "args",
            "MIN (2) is larger than MAX (1)",
        ),
        (
            "programs = [\"a\", \"b\"]\nargs = []\nmax-time = -1\n",
            "max-time",
            "positive number",
        ),
        (
            "programs = [\"a\", \"b\"]\nargs = []\nsearch = \"dfs\"\n",
            "search",
            "unknown field",
        ),
    ];
    for (body, key, why) in cases {
        let toml = format!("{PROGRAMS}[[crosscheck]]\nname = \"x\"\n{body}");
        std::fs::write(dir.join("symtest.toml"), &toml).unwrap();
        let o = run_in(&dir, &["list"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{toml}\n{}", text(&o));
        assert!(err.contains("symtest.toml:"), "{toml}\n{err}");
        assert!(err.contains(&format!("key `{key}`")), "{toml}\n{err}");
        assert!(err.contains(why), "{toml}\n{err}");
    }
    // A crosscheck's name is a directory of symtest-out/, as a target's.
    let toml =
        format!("{PROGRAMS}[[crosscheck]]\nname = \"b\"\nprograms = [\"a\", \"b\"]\nargs = []\n");
    std::fs::write(dir.join("symtest.toml"), &toml).unwrap();
    let o = run_in(&dir, &["list"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(err.contains("symtest.toml:17: key `name`"), "{err}");
    assert!(err.contains("names another target or crosscheck"), "{err}");
    // `--target` names a crosscheck or a target.
    let toml =
        format!("{PROGRAMS}[[crosscheck]]\nname = \"x\"\nprograms = [\"a\", \"b\"]\nargs = []\n");
    std::fs::write(dir.join("symtest.toml"), &toml).unwrap();
    let o = run_in(&dir, &["--target", "nope"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        err.contains("no target named `nope` (targets: a, b, h, x)"),
        "{err}"
    );
}

fn test_json(dir: &Path, crosscheck: &str, test: &str) -> Value {
    let p = dir
        .join("symtest-out")
        .join(crosscheck)
        .join(format!("{test}.json"));
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

/// An input object of a test, little-endian.
fn object_u64(t: &Value, name: &str) -> u64 {
    let hex = t["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == name)
        .unwrap_or_else(|| panic!("no `{name}` in {t:#}"))["hex"]
        .as_str()
        .unwrap()
        .to_string();
    (0..hex.len() / 2).rev().fold(0, |acc, i| {
        (acc << 8) | u64::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()
    })
}

/// Function-level crosschecks of one library (`tests/fixtures/crosscheck-functions`):
/// Figure 11's `mod` and `mod_opt` are proven equal on every pair of paths,
/// `mod`'s division by zero (y == 0) reported; two clamps differ exactly
/// where the range is empty and the value above it; `decode(encode(x))`
/// gives `x` back but for the planted class x >= 0xe000. Every mismatch is
/// confirmed natively.
#[test]
fn function_crosschecks_prove_equal_pairs_and_find_planted_differences() {
    let dir = fixture("crosscheck-functions", "crosscheck-functions");
    let o = run_in(
        &dir,
        &[
            "--target",
            "mod-vs-opt",
            "--target",
            "clamps",
            "--target",
            "codec",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));

    let m = summary(&dir, "mod-vs-opt");
    assert!(n(&m, "paths") >= 1, "{m:#}");
    assert_eq!(n(&m, "paths"), n(&m, "paths_equal"), "{m:#}");
    assert_eq!(n(&m, "mismatches"), 0, "{m:#}");
    let bugs = m["bugs"].as_array().unwrap();
    assert_eq!(bugs.len(), 1, "{m:#}");
    assert_eq!(bugs[0]["bug"]["kind"], "div", "{m:#}");
    assert_eq!(bugs[0]["bug"]["function"], "mod", "{m:#}");
    let div = test_json(&dir, "mod-vs-opt", bugs[0]["test"].as_str().unwrap());
    assert_eq!(object_u64(&div, "in.arg1"), 0, "y == 0: {div:#}");

    for (name, planted) in [("clamps", "lo > hi and v > hi"), ("codec", "x >= 0xe000")] {
        let s = summary(&dir, name);
        assert!(n(&s, "mismatches") >= 1, "{name}: {s:#}");
        assert!(n(&s, "paths_equal") >= 1, "{name}: {s:#}");
        assert_eq!(n(&s, "mismatches"), n(&s, "mismatches_confirmed"), "{s:#}");
        for mm in s["mismatch_list"].as_array().unwrap() {
            let t = test_json(&dir, name, mm["test"].as_str().unwrap());
            let holds = if name == "clamps" {
                let v = object_u64(&t, "in.arg0") as u32 as i32;
                let lo = object_u64(&t, "in.arg1") as u32 as i32;
                let hi = object_u64(&t, "in.arg2") as u32 as i32;
                lo > hi && v > hi
            } else {
                object_u64(&t, "in.arg0") >= 0xe000
            };
            assert!(holds, "{name}: a mismatch outside {planted}: {t:#}");
        }
    }
}

/// Bad function crosschecks: exit 2 with the file, line, key and why.
#[test]
fn function_crosscheck_config_errors_are_clear() {
    let dir = scratch("crosscheck-functions-config");
    std::fs::write(dir.join("l.c"), "int f(int x) { return x; }\n").unwrap();
    std::fs::write(dir.join("l.h"), "int f(int x);\n").unwrap();
    let targets = "[[target]]\nname = \"lib\"\nkind = \"library\"\nsources = [\"l.c\"]\nheaders = [\"l.h\"]\n\n\
[[target]]\nname = \"p\"\nkind = \"program\"\nsources = [\"l.c\"]\n\n";
    let cases: &[(&str, &str, &str)] = &[
        (
            "functions = [\"lib:f\", \"g\"]\n",
            "functions",
            "is not `target:function`",
        ),
        (
            "functions = [\"lib:f\", \"p:f\"]\n",
            "functions",
            "target `p` is kind = \"program\"",
        ),
        (
            "functions = [\"lib:f\", \"zz:f\"]\n",
            "functions",
            "no target named `zz`",
        ),
        (
            "inverse = [\"lib:f\"]\n",
            "inverse",
            "exactly two functions",
        ),
        (
            "functions = [\"lib:f\", \"lib:g\"]\nargs = [\"--sym-arg\", \"2\"]\n",
            "args",
            "not from `args`",
        ),
        (
            "functions = [\"lib:f\", \"lib:g\"]\nprograms = [\"p\", \"p\"]\n",
            "programs",
            "more than one of",
        ),
    ];
    for (body, key, why) in cases {
        let toml = format!("{targets}[[crosscheck]]\nname = \"x\"\n{body}");
        std::fs::write(dir.join("symtest.toml"), &toml).unwrap();
        let o = run_in(&dir, &["list"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{toml}\n{}", text(&o));
        assert!(err.contains(&format!("key `{key}`")), "{toml}\n{err}");
        assert!(err.contains(why), "{toml}\n{err}");
    }
    // A function its library does not declare: the crosscheck fails with
    // the reason, the run goes on.
    let toml =
        format!("{targets}[[crosscheck]]\nname = \"x\"\nfunctions = [\"lib:f\", \"lib:nope\"]\n");
    std::fs::write(dir.join("symtest.toml"), &toml).unwrap();
    let o = run_in(&dir, &["--target", "x"]);
    let all = text(&o);
    assert_ne!(o.status.code(), Some(0), "{all}");
    assert!(
        all.contains("`nope` is not declared in the headers of library target `lib`"),
        "{all}"
    );
    assert!(!all.contains("panicked"), "{all}");
}
