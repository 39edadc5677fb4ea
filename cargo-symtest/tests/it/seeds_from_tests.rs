//! Seeds from the project's own tests (`seed-tests`, issue #50): a small
//! program whose `make check` runs it with arguments, a file argument,
//! stdin from a file and through a pipe, and from a shell script
//! (`tests/fixtures/seed-tests`). Every run is recorded and becomes a seed
//! whose `.ktest` carries its own symbolic environment; each seed is followed
//! by the engine (its first path ends as the recorded run did); the program
//! is back in place afterwards, also after Ctrl-C; input files
//! (`seed-inputs`) are seeds too; `init --from-build` proposes the test
//! command; bad input names file, line and key.

use crate::support::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use symtest_ktest::KTest;

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap()
}

/// The report of `target` in `symtest-out/summary.json`.
fn report(dir: &Path, target: &str) -> Value {
    let all = read_json(&dir.join("symtest-out/summary.json"));
    all["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == target)
        .unwrap_or_else(|| panic!("no report for {target}: {all:#}"))
        .clone()
}

/// The program at `dir/kv` is the real one (not the recorder) and runs.
fn program_is_back(dir: &Path) {
    let bytes = std::fs::read(dir.join("kv")).unwrap();
    let marker = b"symtest-seed-wrapper";
    assert!(
        !bytes.windows(marker.len()).any(|w| w == marker),
        "the recorder is still in place of kv"
    );
    let o = Command::new("./kv")
        .args(["-c", "tests/basic.kv"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "2\n", "{}", shown(&o));
}

/// What the real program prints for the run of each seed (by its
/// arguments): the seeds of `tests/long.kv`, as a file and on stdin, are
/// cut at 64 bytes: 4 whole entries and the start of a fifth.
fn recorded_stdout(args: &str) -> &'static str {
    match args {
        "kv --sym-arg 2 --sym-stdin 8" | "kv --sym-arg 2 --sym-arg 1 --sym-files 1 27" => "2\n",
        "kv --sym-arg 2 --sym-arg 4 --sym-stdin 27" => "kv\n",
        "kv --sym-arg 2 --sym-arg 4 --sym-arg 1 --sym-files 1 27" => "3\n",
        "kv --sym-arg 2 --sym-arg 1 --sym-files 1 64" | "kv --sym-arg 2 --sym-stdin 64" => "5\n",
        other => panic!("a run make check does not make: {other}"),
    }
}

#[test]
fn the_runs_of_make_check_become_seeds_that_the_engine_follows() {
    let dir = copy_fixture("seed-tests", "seeds-from-tests");
    let o = symtest_in(&dir, &["--max-time", "5"]);
    assert!(o.status.success(), "{}", shown(&o));
    program_is_back(&dir);
    let r = report(&dir, "kv");
    assert_eq!(r["status"], "ok", "{r:#}");
    let s = &r["seeds"];
    // 8 runs: 5 from the Makefile, 3 from its script, two of them the same
    // as the first (one with KV_MODE set, which seeds cannot carry). The
    // test command passed: each run printed what it checks.
    assert_eq!(s["sources"], serde_json::json!(["make check"]), "{s:#}");
    assert_eq!(
        (&s["runs_seen"], &s["runs_kept"]),
        (&Value::from(8), &Value::from(8)),
        "{s:#}"
    );
    assert_eq!(s["tests_failed"], Value::Null, "{s:#}");
    assert_eq!(s["seeds"], 6, "{s:#}");
    assert_eq!(s["truncated"], 2, "tests/long.kv is cut at 64 bytes: {s:#}");
    assert_eq!(s["left_out"], serde_json::json!([]), "{s:#}");
    assert!(
        s["environment"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v == "KV_MODE"),
        "{s:#}"
    );
    let seeds_dir = Path::new(s["dir"].as_str().unwrap()).to_path_buf();
    let listing: Vec<Value> = read_json(&seeds_dir.join("seeds.json"))
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(listing.len(), 6);
    let file_seed = listing
        .iter()
        .find(|e| e["runs"][0] == "./kv -c tests/basic.kv")
        .expect("the file-argument run");
    assert_eq!(
        file_seed["args"],
        serde_json::json!([
            "kv",
            "--sym-arg",
            "2",
            "--sym-arg",
            "1",
            "--sym-files",
            "1",
            "27"
        ])
    );
    assert_eq!(
        file_seed["runs"].as_array().unwrap().len(),
        3,
        "{file_seed:#}"
    );
    let piped = listing
        .iter()
        .find(|e| e["args"][4] == "8")
        .expect("the piped run");
    assert_eq!(
        piped["args"],
        serde_json::json!(["kv", "--sym-arg", "2", "--sym-stdin", "8"])
    );
    let bc = dir.join("symtest-out/.build/kv/bc/kv.bc");
    for e in &listing {
        seed_is_followed(&dir, &bc, &seeds_dir, e);
    }
}

/// The engine, given the seed under its own arguments (`--seed-file`, the
/// args after `--`: the seed's objects must be exactly those the POSIX
/// runtime makes, no repair), keeps it and ends its first path as the
/// recorded run ended.
fn seed_is_followed(dir: &Path, bc: &Path, seeds_dir: &Path, e: &Value) {
    let name = e["seed"].as_str().unwrap();
    let seed = seeds_dir.join(format!("{name}.ktest"));
    let k = KTest::read_from(&seed).unwrap();
    let args: Vec<String> = e["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    assert_eq!(k.args, args);
    let out = dir.join(format!("follow-{name}"));
    let mut engine = vec!["--max-time", "3", "--seed-file", seed.to_str().unwrap()];
    engine.push("--quiet");
    let words: Vec<&str> = args[1..].iter().map(String::as_str).collect();
    let o = posix_exec(bc, &out, &engine, &words);
    assert!(o.status.success(), "{name}: {}", shown(&o));
    let stats = read_json(&out.join("stats.json"));
    assert_eq!(stats["seeds_dropped"], 0, "{name}: {stats:#}");
    let first = read_json(&out.join("test000001.json"));
    let run = args.join(" ");
    assert_eq!(
        (first["outcome"].clone(), first["stdout"].as_str().unwrap()),
        (
            serde_json::json!({"exit": {"code": 0}}),
            recorded_stdout(&run)
        ),
        "{name} ({run}): the seeded path ends as the recorded run: {first:#}"
    );
}

/// Input files as seeds, given as the file argument after the target's
/// fixed words (`kv -c A`).
#[test]
fn input_files_are_seeds() {
    let dir = copy_fixture("seed-tests", "seeds-from-inputs");
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"kv\"\nkind = \"program\"\nsources = [\"kv.c\"]\n\
         args = [\"-c\", \"--sym-files\", \"1\", \"16\"]\nseed-inputs = \"tests/*.kv\"\n\
         seed-inputs-as = \"file\"\nseed-max-bytes = 64\nmax-time = 3\n",
    )
    .unwrap();
    let o = symtest_in(&dir, &["--no-emit"]);
    assert!(o.status.success(), "{}", shown(&o));
    let s = &report(&dir, "kv")["seeds"];
    assert_eq!(
        s["sources"],
        serde_json::json!(["tests/*.kv (as file)"]),
        "{s:#}"
    );
    assert_eq!(
        (&s["runs_seen"], &s["seeds"], &s["truncated"]),
        (&Value::from(2), &Value::from(2), &Value::from(1)),
        "{s:#}"
    );
    let listing = read_json(&Path::new(s["dir"].as_str().unwrap()).join("seeds.json"));
    let args: Vec<&Value> = listing
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["args"])
        .collect();
    assert!(
        args.contains(&&serde_json::json!([
            "kv",
            "-c",
            "A",
            "--sym-files",
            "1",
            "27"
        ])),
        "{listing:#}"
    );
    assert!(
        args.contains(&&serde_json::json!([
            "kv",
            "-c",
            "A",
            "--sym-files",
            "1",
            "64"
        ])),
        "{listing:#}"
    );
}

/// `init --from-build` proposes the build's `check` target.
#[test]
fn init_from_build_proposes_the_test_command() {
    let dir = copy_fixture("seed-tests", "seeds-init");
    std::fs::remove_file(dir.join("symtest.toml")).unwrap();
    let o = symtest_in(&dir, &["init", "--from-build", "--", "make"]);
    assert!(o.status.success(), "{}", shown(&o));
    let config = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    assert!(
        config.contains("seed-tests = [\"make\", \"check\"]"),
        "{config}"
    );
}

/// Ctrl-C while the tests run: the test command is stopped and the program
/// put back before symtest ends by the signal.
#[test]
fn the_program_is_put_back_after_ctrl_c() {
    let dir = copy_fixture("seed-tests", "seeds-interrupted");
    let config = std::fs::read_to_string(dir.join("symtest.toml"))
        .unwrap()
        .replace(
            "seed-tests = [\"make\", \"check\"]",
            "seed-tests = [\"sh\", \"-c\", \"./kv -c tests/basic.kv && touch ran && sleep 60\"]",
        );
    std::fs::write(dir.join("symtest.toml"), config).unwrap();
    let mut child = Command::new(bin())
        .current_dir(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !dir.join("ran").exists() {
        assert!(
            started.elapsed().as_secs() < 120,
            "the test command never ran"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // SAFETY: signalling the child this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert!(
        started.elapsed().as_secs() < 60,
        "the sleeping test command was stopped"
    );
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    program_is_back(&dir);
}

/// Tests that run the program under valgrind run the recorder under it (and
/// the program without it): the recording says so, naming the runs, and
/// keeps them. Valgrind is told by its preload library in `LD_PRELOAD`
/// (here one that does not exist: the loader says so and goes on).
#[test]
fn runs_made_under_valgrind_are_told() {
    let dir = copy_fixture("seed-tests", "seeds-valgrind");
    let config = std::fs::read_to_string(dir.join("symtest.toml"))
        .unwrap()
        .replace(
            "seed-tests = [\"make\", \"check\"]",
            "seed-tests = [\"sh\", \"-c\", \"LD_PRELOAD=vgpreload_core-amd64-linux.so ./kv -c tests/basic.kv; ./kv -k name < tests/basic.kv\"]",
        );
    std::fs::write(dir.join("symtest.toml"), config).unwrap();
    let o = symtest_in(&dir, &["--max-time", "2"]);
    assert!(o.status.success(), "{}", shown(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "seeds: 1 run(s) of `kv` under `sh -c LD_PRELOAD=vgpreload_core-amd64-linux.so ./kv -c tests/basic.kv; ./kv -k name < tests/basic.kv` were made under valgrind"
        ),
        "{}",
        shown(&o)
    );
    let s = &report(&dir, "kv")["seeds"];
    assert_eq!(
        (&s["runs_seen"], &s["runs_kept"]),
        (&Value::from(2), &Value::from(2)),
        "{s:#}"
    );
    program_is_back(&dir);
}

/// A test that gives the program an empty file (gawk's `-f` of an empty
/// program): the model's files hold at least 1 byte, so the seed's file is
/// one zero byte, said as padding; the engine takes the seed and the target
/// runs (an environment it refuses would stop the target's whole run).
#[test]
fn a_run_with_an_empty_file_is_a_seed() {
    let dir = copy_fixture("seed-tests", "seeds-empty-file");
    let config = std::fs::read_to_string(dir.join("symtest.toml"))
        .unwrap()
        .replace(
        "seed-tests = [\"make\", \"check\"]",
        "seed-tests = [\"sh\", \"-c\", \": > empty.kv; ./kv -c empty.kv; ./kv -c tests/basic.kv\"]",
    );
    std::fs::write(dir.join("symtest.toml"), config).unwrap();
    let o = symtest_in(&dir, &["--max-time", "3"]);
    assert!(o.status.success(), "{}", shown(&o));
    let r = report(&dir, "kv");
    assert_eq!(r["status"], "ok", "{r:#}");
    let s = &r["seeds"];
    assert_eq!(
        (&s["runs_kept"], &s["seeds"], &s["padded"]),
        (&Value::from(2), &Value::from(2), &Value::from(1)),
        "{s:#}"
    );
    let listing = read_json(&Path::new(s["dir"].as_str().unwrap()).join("seeds.json"));
    let empty = listing
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["runs"][0] == "./kv -c empty.kv")
        .expect("the empty file's run");
    assert_eq!(
        empty["padded"],
        serde_json::json!(["file A (0 of 1 bytes)"])
    );
    assert_eq!(
        empty["args"],
        serde_json::json!([
            "kv",
            "--sym-arg",
            "2",
            "--sym-arg",
            "1",
            "--sym-files",
            "1",
            "1"
        ])
    );
    program_is_back(&dir);
}

/// Bad input: file, line and key.
#[test]
fn seed_keys_bad_input() {
    let dir = copy_fixture("seed-tests", "seeds-bad-input");
    let fails = |body: &str, needle: &str| {
        std::fs::write(
            dir.join("symtest.toml"),
            format!("[[target]]\nname = \"kv\"\nkind = \"program\"\n{body}"),
        )
        .unwrap();
        let o = symtest_in(&dir, &["--max-time", "2"]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{body}: {}", shown(&o));
        assert!(err.contains(needle), "{body}: wanted {needle:?} in {err}");
    };
    fails(
        "sources = [\"kv.c\"]\nseed-tests = [\"make\", \"check\"]\n",
        "symtest.toml:5: key `seed-tests`",
    );
    fails(
        "sources = [\"kv.c\"]\nseed-inputs = \"nothing/*.kv\"\n",
        "symtest.toml:5: key `seed-inputs`: `nothing/*.kv` matches no file",
    );
    fails(
        "sources = [\"kv.c\"]\nseed-inputs = \"tests/*.kv\"\nseed-inputs-as = \"argv\"\n",
        "symtest.toml:6: key `seed-inputs-as`",
    );
    fails(
        "build = [\"make\", \"kv\"]\nbinary = \"kv\"\nseed-tests = [\"./no-such-test-command\"]\n",
        "symtest.toml:6: key `seed-tests`: cannot run the test command",
    );
    program_is_back(&dir);
}

/// The bugs a run found, by kind.
fn bug_kinds(dir: &Path, target: &str) -> Vec<String> {
    report(dir, target)["bugs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["kind"].as_str().unwrap().to_string())
        .collect()
}

/// `tests/fixtures/seed-header`: the parser crashes on a record after a
/// header whose hash checks out, which no solver inverts in the budget.
/// Its own `make check` feeds it one valid file: with that run as a seed the
/// crash is found (its test runs under the seed's own environment, replays
/// natively, and the emitted suite passes but for the bug's test, which
/// documents it); without, at the same budget, it
/// is not.
#[test]
fn a_bug_behind_a_checksum_is_found_from_the_projects_own_test() {
    let dir = copy_fixture("seed-header", "seed-header");
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    let r = report(&dir, "header");
    assert_eq!(bug_kinds(&dir, "header"), ["abort"], "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    assert_eq!(r["seeds"]["runs_kept"], 1, "{r:#}");
    let suite = dir.join("tests/symtest/header");
    let m = Command::new("make")
        .arg("-C")
        .arg(&suite)
        .arg("test")
        .output()
        .unwrap();
    // Every test passes but the bug's, which documents it.
    let out = String::from_utf8_lossy(&m.stdout);
    let failed: Vec<&str> = out.lines().filter(|l| l.contains("FAILED")).collect();
    assert_eq!(failed.len(), 1, "the emitted suite: {}", shown(&m));
    assert!(
        failed[0].contains("BUG still present: abort"),
        "{}",
        shown(&m)
    );

    // `why` tells the lines the seeds reached but exploration could not
    // vary past (the header's digest) from those no seed reached.
    let w = symtest_in(&dir, &["why", "header"]);
    let why = String::from_utf8_lossy(&w.stdout);
    assert!(
        why.contains("digest-depth") && why.contains("a seeded path reached that branch"),
        "{}",
        shown(&w)
    );

    // The same budget without the project's test: no bug.
    let dir = copy_fixture("seed-header", "seed-header-without");
    let toml = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    let toml = toml.replace("seed-tests = [\"make\", \"check\"]\n", "");
    std::fs::write(dir.join("symtest.toml"), toml).unwrap();
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    assert!(bug_kinds(&dir, "header").is_empty());
}

/// A project test whose run the engine cannot follow to its end in the
/// budget (a long computation first): the seed is a test all the same, run by
/// its suite with the whole timeout (`SYMTEST_EXPECT_RECORDED`, not the half
/// second of a path the engine stopped), so the native run reaches its last
/// stage: a conversion that overflows, which the suite's sanitized build
/// reports on stderr and aborts at. The suite, made in the build directory
/// and run from the project (another build: the report's paths differ),
/// passes on the unmodified program.
#[test]
fn a_seed_the_engine_cannot_finish_is_a_test_that_runs_to_its_end() {
    let dir = copy_fixture("seed-slow", "seeds-unfinished");
    let o = symtest_in(&dir, &["--max-time", "3"]);
    assert!(o.status.success(), "{}", shown(&o));
    let r = report(&dir, "slowub");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["seeds"]["seeds"], 1, "{r:#}");
    let vectors =
        std::fs::read_to_string(dir.join("tests/symtest/slowub/symtest_tests.c")).unwrap();
    assert!(vectors.contains("SYMTEST_EXPECT_RECORDED"), "{vectors}");
    let expected = dir.join("tests/symtest/slowub/expected");
    let recorded = std::fs::read_dir(&expected)
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.unwrap().path().join("stderr")).ok())
        .find(|s| s.contains("runtime error"));
    assert!(
        recorded.is_some(),
        "no test recorded the sanitizer's report: the seed's run did not reach its end"
    );
    let suite = std::process::Command::new("make")
        .args(["-C", "tests/symtest/slowub", "test"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(suite.status.success(), "{}", shown(&suite));
}

/// A test command that regenerates a header the program is built from (as a
/// `check` that reconfigures, or a `test` target that builds one command of
/// a multi-call program with another configuration): the header is put back
/// as the build left it, with a warning naming it, so the native build
/// compiles the program that was explored: no native disagreement, and the
/// suite passes on the program.
#[test]
fn a_header_the_tests_regenerate_is_put_back() {
    let dir = scratch("seeds-header-put-back");
    let files: &[(&str, &str)] = &[
        ("config.h", "#define MODE 1\n"),
        (
            "prog.c",
            "#include \"config.h\"\nint main(int argc, char **argv) {\n  if (argc > 1 && argv[1][0] == 'x')\n    return MODE;\n  return 0;\n}\n",
        ),
        (
            "Makefile",
            "prog: prog.c config.h\n\t$(CC) -O0 -g -o prog prog.c\ncheck: prog\n\t./prog x || true\n\tprintf '#define MODE 2\\n' > config.h\n.PHONY: check\n",
        ),
        (
            "symtest.toml",
            "[[target]]\nname = \"prog\"\nkind = \"program\"\nbuild = [\"make\", \"prog\"]\nbinary = \"prog\"\nargs = [\"--sym-args\", \"0\", \"1\", \"1\"]\nseed-tests = [\"make\", \"check\"]\nmax-time = 5\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let o = symtest_in(&dir, &["--max-time", "5"]);
    assert!(o.status.success(), "{}", shown(&o));
    let out = shown(&o);
    assert!(
        out.contains("changed 1 C source(s) or header(s)") && out.contains("config.h"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("config.h")).unwrap(),
        "#define MODE 1\n"
    );
    let r = report(&dir, "prog");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let suite = Command::new("make")
        .args(["-C", "tests/symtest/prog", "test"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(suite.status.success(), "{}", shown(&suite));
}
