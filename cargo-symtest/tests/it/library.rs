//! `kind = "library"` targets: a library tested with no hand-written harness,
//! from its public header (`tests/fixtures/library-shapes`: struct,
//! nested-pointer, string, array, enum, float and function-pointer
//! parameters, and planted bugs).

use crate::project::{fixture, make, report, reports, run_in, text};
use std::path::Path;

/// The suite's failures other than the tests that document a bug.
fn unexpected_failures(o: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.contains("FAILED") && !l.contains("BUG still present"))
        .map(str::to_string)
        .collect()
}

/// The lines of the source ending in `file` that the target's kept tests
/// cover (its `coverage.json`).
fn covered(dir: &Path, target: &str, file: &str) -> Vec<u64> {
    let path = dir.join("symtest-out").join(target).join("coverage.json");
    let cov: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let lines = cov["lines"].as_object().unwrap();
    let (_, l) = lines.iter().find(|(f, _)| f.ends_with(file)).unwrap();
    l.as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_u64())
        .collect()
}

fn mutate(dir: &Path, from: &str, to: &str) -> String {
    let file = dir.join("src/shapes.c");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(from), "{from} not in shapes.c");
    std::fs::write(&file, text.replacen(from, to, 1)).unwrap();
    text
}

#[test]
fn library_target_tests_every_public_function_without_a_harness() {
    let dir = fixture("library-shapes", "library-shapes");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "shapes");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["kind"], "library", "{r:#}");
    // Every function of the header is called, and each has a kept test.
    let names = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    let functions = names(&r["library"]["functions"]);
    // 12 functions called alone, and one call sequence over the handle
    // `struct counter` (its users take a type the header only declares).
    assert_eq!(functions.len(), 13, "{r:#}");
    assert!(
        functions.contains(&"sequence struct counter".to_string()),
        "{r:#}"
    );
    let skipped: Vec<&str> = r["library"]["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s[0].as_str().unwrap())
        .collect();
    assert_eq!(
        skipped,
        ["counter_add", "counter_free", "counter_total"],
        "{r:#}"
    );
    let tested = names(&r["library"]["tested"]);
    assert!(tested.len() * 10 >= functions.len() * 9, "{r:#}");
    // The planted bugs, and no report from an input the code never checks
    // (`join_words`'s words are not NULL: the library never compares them).
    let bugs: Vec<(String, String)> = r["bugs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["kind"].as_str().unwrap().to_string(),
                b["function"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        bugs.contains(&("div".into(), "list_sum".into())),
        "{bugs:?}"
    );
    assert!(
        bugs.contains(&("ptr".into(), "box_total".into())),
        "{bugs:?}"
    );
    // Only a sequence reaches it: new, then three adds.
    assert!(
        bugs.contains(&("ptr".into(), "counter_add".into())),
        "{bugs:?}"
    );
    assert_eq!(bugs.len(), 3, "{bugs:?}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let lines = r["lines"].as_array().unwrap();
    let (c, n) = (lines[0].as_u64().unwrap(), lines[1].as_u64().unwrap());
    assert!(c * 10 >= n * 9, "lines {c}/{n}");
    // The harness travels with the suite; the suite passes on the library
    // as it is (its bug tests document the bugs), with clang and with gcc.
    let suite = dir.join("tests/symtest/shapes");
    assert!(suite.join("symtest_library.c").is_file());
    for cc in ["clang-19", "gcc"] {
        let _ = make(&suite, &["clean"]);
        let o = make(&suite, &["test", &format!("CC={cc}")]);
        assert_eq!(
            unexpected_failures(&o),
            Vec::<String>::new(),
            "{cc}: {}",
            text(&o)
        );
        assert!(
            String::from_utf8_lossy(&o.stdout).contains(" passed, 3 failed"),
            "{cc}: {}",
            text(&o)
        );
    }
    // A mutant that changes a return value fails the suite ...
    let original = mutate(&dir, "return a + b;", "return a + b + 1;");
    let o = make(&suite, &["test"]);
    assert!(
        !unexpected_failures(&o).is_empty(),
        "return-value mutant survived: {}",
        text(&o)
    );
    std::fs::write(dir.join("src/shapes.c"), &original).unwrap();
    // ... and so does one that changes a field written through a pointer.
    mutate(&dir, "b->len = 0;", "b->len = 1;");
    let o = make(&suite, &["test"]);
    assert!(
        !unexpected_failures(&o).is_empty(),
        "out-parameter mutant survived: {}",
        text(&o)
    );
    std::fs::write(dir.join("src/shapes.c"), &original).unwrap();
}

#[test]
fn library_target_keys_are_checked() {
    let dir = crate::support::scratch("library-bad-keys");
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"l\"\nkind = \"library\"\nsources = [\"a.c\"]\n",
    )
    .unwrap();
    std::fs::write(dir.join("a.c"), "int f(int x) { return x; }\n").unwrap();
    let o = run_in(&dir, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("needs `headers`"), "{}", text(&o));
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"h\"\nkind = \"harness\"\nsources = [\"a.c\"]\nheaders = [\"a.h\"]\n",
    )
    .unwrap();
    let o = run_in(&dir, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("is a key of `library` targets"),
        "{}",
        text(&o)
    );
}

/// `init --from-build` proposes a `library` target for a library whose
/// headers the install step installs, and it runs as written.
#[test]
fn init_from_build_proposes_a_library_target_with_its_installed_headers() {
    let dir = fixture("library-shapes", "library-shapes-init");
    std::fs::remove_file(dir.join("symtest.toml")).unwrap();
    let o = run_in(&dir, &["init", "--from-build", "--", "make"]);
    assert!(o.status.success(), "{}", text(&o));
    let toml = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    assert!(toml.contains("kind = \"library\""), "{toml}");
    assert!(toml.contains("library = \"libshapes.a\""), "{toml}");
    assert!(toml.contains("headers = [\"include/shapes.h\"]"), "{toml}");
    let o = run_in(&dir, &["--max-time", "5", "--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "shapes");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(
        r["library"]["functions"].as_array().unwrap().len(),
        13,
        "{r:#}"
    );
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
}

/// A handle whose consumers read what a setter kept in it
/// (`tests/fixtures/library-reader`: `reader_set_input` keeps the text it is
/// given): the call sequence runs the setter first, and the consumer reaches
/// the bug planted behind the text.
#[test]
fn library_sequence_sets_a_handle_input_before_its_consumers() {
    let dir = fixture("library-reader", "library-reader");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "reader");
    assert_eq!(r["status"], "ok", "{r:#}");
    let seq = &r["library"]["sequences"][0];
    assert_eq!(seq[0], "sequence struct reader", "{r:#}");
    let what = seq[1].as_str().unwrap();
    assert!(
        what.starts_with("reader_new → one of {reader_set_input} or none → up to 2 of {"),
        "{what}"
    );
    assert!(!what.contains("reader_set_input,"), "{what}");
    assert!(what.ends_with("→ reader_free"), "{what}");
    let names = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    // Every function of the header, those only a sequence calls included,
    // has a kept test.
    let public = names(&r["library"]["public"]);
    assert_eq!(public.len(), 7, "{r:#}");
    assert_eq!(names(&r["library"]["public_tested"]), public, "{r:#}");
    let bugs: Vec<(&str, &str)> = r["bugs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["kind"].as_str().unwrap(), b["function"].as_str().unwrap()))
        .collect();
    // The planted bug (through `reader_next` or `reader_skip`), and no other.
    assert!(!bugs.is_empty(), "{r:#}");
    assert!(bugs.iter().all(|b| *b == ("div", "reader_next")), "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    readable_sequences(&dir);
}

/// The readable tests of the `library-reader` suite in `dir`: each kept
/// call sequence is a C function that makes the handle, calls each step in
/// a block of its own with its checks, and ends the handle; they build with
/// gcc and clang and pass on the library; a mutant of a value a user returns
/// fails a check that names it.
fn readable_sequences(dir: &Path) {
    let suite = dir.join("tests/symtest/reader");
    let c = std::fs::read_to_string(suite.join("readable_tests.c")).unwrap();
    assert!(!c.contains(": not written: "), "{c}");
    let tests: Vec<&str> = c
        .lines()
        .filter_map(|l| l.strip_prefix("static void "))
        .filter_map(|l| l.strip_suffix("(void) {"))
        .filter(|l| l.starts_with("test_reader_new_sequence_"))
        .collect();
    assert!(tests.len() >= 3, "{c}");
    assert!(c.contains("  struct reader *h;\n"), "{c}");
    assert!(
        c.contains("  /* Set: reader_set_input. */\n  char set_text[17] = \""),
        "{c}"
    );
    assert!(
        c.contains("    reader_set_input(h, set_text, set_len);\n"),
        "{c}"
    );
    assert!(c.contains("  /* Step 1: "), "{c}");
    assert!(
        c.contains("  /* End: reader_free. */\n  {\n    reader_free(h);\n  }\n"),
        "{c}"
    );
    // The planted bug is documented by the sequence that reaches it.
    assert!(
        c.contains("/* Documents a bug: div at src/reader.c:29: division by zero."),
        "{c}"
    );
    // `reader_offset` (only a sequence calls it) has its return checked.
    assert!(
        c.contains("check_uint(\"the value reader_offset (step "),
        "{c}"
    );
    let build = dir.join("readable-build");
    for cc in ["gcc", "clang-19"] {
        let o = make_readable(&suite, &build, cc);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{cc}: {}", text(&o));
        for t in &tests {
            assert!(
                out.contains(&format!("{t}: passed"))
                    || out.contains(&format!("{t}: documents a bug")),
                "{cc}: {t}: {out}"
            );
        }
        let bugs = c.matches("/* Documents a bug: ").count();
        assert!(
            out.contains(&format!(" passed, 0 failed, {bugs} document bugs; 0 tests")),
            "{cc}: {out}"
        );
    }
    // A mutant of the value a user returns fails the check naming it.
    let file = dir.join("src/reader.c");
    let src = std::fs::read_to_string(&file).unwrap();
    let from = "{ return r->pos; }";
    assert!(src.contains(from), "{src}");
    std::fs::write(&file, src.replacen(from, "{ return r->pos + 1; }", 1)).unwrap();
    let o = make_readable(&suite, &build, "gcc");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(!o.status.success(), "reader_offset mutant survived: {out}");
    assert!(
        out.contains("FAILED the value reader_offset (step "),
        "{out}"
    );
}

#[test]
fn library_sequence_stops_at_a_maker_that_failed() {
    // Makers that fail: an initializer with a negative status, one with a
    // truth value, a constructor returning NULL. Their users read the
    // handle unchecked: called after a failed maker, they would crash on a
    // handle never made (NULL data) and be reported.
    let dir = fixture("library-makers", "library-makers");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "makers");
    assert_eq!(r["status"], "ok", "{r:#}");
    let seqs: Vec<&str> = r["library"]["sequences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s[1].as_str().unwrap())
        .collect();
    for start in ["buf_init → ", "stack_init → ", "pool_new → "] {
        assert!(seqs.iter().any(|s| s.starts_with(start)), "{seqs:?}");
    }
    assert_eq!(
        r["library"]["public_tested"].as_array().unwrap().len(),
        10,
        "{r:#}"
    );
    // No bug under a sequence: each stopped where its maker failed. (The
    // single calls of `buf_put` on a made-up `struct buf` may still write
    // past its data: a contract violation, not the sequences'.)
    let bugs = r["bugs"].as_array().unwrap();
    assert!(
        bugs.iter()
            .all(|b| !b["id"].as_str().unwrap().contains("symtest_seq_")),
        "{r:#}"
    );
    assert!(bugs.iter().all(|b| b["function"] == "buf_put"), "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    // The readable tests: a sequence whose maker failed ends there (an
    // initializer's handle freed); what `buf_free` is given is on the heap,
    // as the harness gave it (it frees `b->data`). They build and pass.
    let suite = dir.join("tests/symtest/makers");
    let c = std::fs::read_to_string(suite.join("readable_tests.c")).unwrap();
    assert!(
        c.contains("  /* buf_init failed (`ret < 0`): the sequence ends here, as in the suite's test. */\n  free(h);\n"),
        "{c}"
    );
    assert!(
        c.contains("  /* pool_new failed (`ret == NULL`): the sequence ends here"),
        "{c}"
    );
    assert!(c.contains("  char *b_data = on_heap((char[17]){\""), "{c}");
    let o = make_readable(&suite, &dir.join("readable-build"), "gcc");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}", text(&o));
    assert!(out.contains(" passed, 0 failed, "), "{out}");
}

#[test]
fn library_oracle_reads_no_returned_pointer_past_an_input() {
    // `next_string` returns one past the end of its string when it is the
    // last: a valid pointer, told as an offset into the input, not read.
    // `table_at` on a made-up table (its `n` beyond its items, or its items
    // NULL) returns a pointer to no object: the call's result, a contract
    // violation, not a failure of the generated code nor a difference
    // between the engine and the native run.
    let dir = fixture("library-returns", "library-returns");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "returns");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(
        r["library"]["public_tested"].as_array().unwrap().len(),
        5,
        "{r:#}"
    );
    let triage = r["library"]["triage"].as_array().unwrap();
    assert!(!triage.is_empty(), "{r:#}");
    for t in triage {
        assert!(
            t[0].as_str().unwrap().contains("symtest_call_table_at"),
            "{r:#}"
        );
        assert_eq!(t[1], "contract", "{r:#}");
    }
    assert!(
        r["bugs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["function"] == "symtest_lib_returned"),
        "{r:#}"
    );
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
}

/// `make readable` in a build directory of its own, with compiler `cc`.
fn make_readable(suite: &Path, build: &Path, cc: &str) -> std::process::Output {
    let _ = std::fs::remove_dir_all(build);
    std::fs::create_dir_all(build).unwrap();
    std::process::Command::new("make")
        .arg("-f")
        .arg(suite.join("Makefile"))
        .args(["readable", &format!("CC={cc}")])
        .current_dir(build)
        .output()
        .expect("run make")
}

#[test]
fn library_suite_has_readable_tests_that_build_and_run_natively() {
    let dir = fixture("library-shapes", "library-readable");
    let o = run_in(&dir, &[]);
    assert!(o.status.success(), "{}", text(&o));
    let suite = dir.join("tests/symtest/shapes");
    let c = std::fs::read_to_string(suite.join("readable_tests.c")).unwrap();
    // One function per written test, named after the function it calls.
    let tests: Vec<String> = c
        .lines()
        .filter_map(|l| l.strip_prefix("static void test_"))
        .map(|l| format!("test_{}", l.split('(').next().unwrap()))
        .collect();
    for f in [
        "add_checked",
        "count_char",
        "parse_digit",
        "scale",
        "fill_squares",
    ] {
        assert!(
            tests.iter().any(|t| t.starts_with(&format!("test_{f}_"))),
            "no test of {f}: {tests:?}"
        );
    }
    // Inputs are literals: a string is a C string, a double a literal.
    assert!(c.contains("  char s[17] = \""), "{c}");
    assert!(c.contains("  double x = "), "{c}");
    // A structure is a designated initializer; a linked node is a local
    // passed by address, as deep as the harness built it.
    assert!(c.contains("  struct point p = {.x = "), "{c}");
    assert!(c.contains(", .next = &n_next}"), "{c}");
    // A bug test documents the bug, and is listed without failing the run.
    assert!(c.contains("/* Documents a bug: div at "), "{c}");
    // What cannot be written says so, and is counted.
    let not_written = c.matches(": not written: ").count();
    assert!(c.contains("a function pointer"), "{c}");
    // A call sequence is a test too: the handle made, then its steps.
    assert!(
        tests
            .iter()
            .any(|t| t.starts_with("test_counter_new_sequence_")),
        "{tests:?}"
    );
    assert!(
        c.contains(&format!(
            "{not_written} tests of the suite are not written here"
        )),
        "{c}"
    );
    // They build against the library with no symtest, and pass on it.
    let build = dir.join("readable-build");
    for cc in ["gcc", "clang-19"] {
        let o = make_readable(&suite, &build, cc);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{cc}: {}", text(&o));
        for t in &tests {
            assert!(
                out.contains(&format!("{t}: passed"))
                    || out.contains(&format!("{t}: documents a bug")),
                "{cc}: {t}: {out}"
            );
        }
        let bugs = c.matches("/* Documents a bug: ").count();
        assert!(
            out.contains(&format!(
                "{} passed, 0 failed, {bugs} document bugs",
                tests.len() - bugs
            )),
            "{cc}: {out}"
        );
    }
    // Run, the tests that document bugs fail while the bugs are there.
    let o = std::process::Command::new(build.join("readable_tests"))
        .arg("--bugs")
        .output()
        .unwrap();
    assert!(!o.status.success(), "{}", text(&o));
    // A mutant that changes a return value fails one of them, naming it.
    mutate(&dir, "return a + b;", "return a + b + 1;");
    let o = make_readable(&suite, &build, "gcc");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(!o.status.success(), "return-value mutant survived: {out}");
    assert!(
        out.contains("FAILED the value add_checked returns"),
        "{out}"
    );
}

/// A function that reads a stream from a callback with no end of its own
/// (`stream_weight`): the harness's callback makes a new input on every
/// call, so the engine halts the path and, run concretely for its
/// allowance, sees no end. The native run goes on past that allowance and
/// asks for more input than the test holds: past its last object it takes
/// zeros (the engine claims nothing there), so the run goes on until the
/// suite's timeout stops it, the test passes, and the recording and the
/// report see no disagreement.
#[test]
fn library_test_without_end_takes_zeros_past_its_inputs() {
    let dir = fixture("library-generator", "library-generator");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "generator");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let suite = dir.join("tests/symtest/generator");
    let vectors = std::fs::read_to_string(suite.join("symtest_tests.c")).unwrap();
    // Run concretely for its allowance (or, on a slow machine, halted
    // before that): a test that makes no claim on its end.
    assert!(
        vectors.contains("SYMTEST_EXPECT_NO_END") || vectors.contains("SYMTEST_EXPECT_STOPPED"),
        "{}",
        &vectors[vectors.len().saturating_sub(2000)..]
    );
    let o = make(&suite, &["test"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(unexpected_failures(&o).is_empty(), "{}", text(&o));
    // The recording runs the test too, with the same verdict.
    let o = make(&suite, &["update-expected"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains(" 0 not matching the engine"), "{out}");
}

/// A library's functions that make directories (libtar's mkdirhier): the
/// model has no mkdir, and each native test runs in the model's world as a
/// program's does, so mkdir fails there too and no test disagrees (natively
/// mkdir(".") failed with EEXIST and went on to read a null table the
/// engine's path never reached).
#[test]
fn library_tests_run_in_the_models_world_natively() {
    let dir = fixture("library-dirs", "library-dirs");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "dirs");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let o = make(&dir.join("tests/symtest/dirs"), &["test"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(unexpected_failures(&o).is_empty(), "{}", text(&o));
}

/// A structure that keeps a queue as pointers into one array (libyaml's
/// events: `tail - head`, `tail < end`): the library subtracts and orders
/// those fields, which C defines only within one array, so the harness makes
/// them point into one array. Before, each was an object of its own, and
/// `tail - head` depended on where the allocator put them: the engine's
/// path returned, the native run overflowed the heap (1 disagreement).
#[test]
fn fields_the_library_subtracts_point_into_one_array() {
    let dir = fixture("library-spans", "library-spans");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "spans");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let suite = dir.join("tests/symtest/spans");
    let harness = std::fs::read_to_string(suite.join("symtest_library.c")).unwrap();
    for field in ["head", "tail"] {
        assert!(
            harness.contains(&format!("o->{field} = symtest_lib_range(o->end,")),
            "{harness}"
        );
    }
    // The loop from head to tail ran (line 8), and every line the engine
    // claims a kept test ran natively too.
    assert!(
        covered(&dir, "spans", "src/spans.c").contains(&8),
        "{}",
        text(&o)
    );
    assert!(!text(&o).contains("soundness:"), "{}", text(&o));
    let o = make(&suite, &["test"]);
    assert!(unexpected_failures(&o).is_empty(), "{}", text(&o));
}

/// A function that calls a generator callback until it returns NULL, as
/// readline's `rl_completion_matches` does (`count_generated`): the library
/// compares what the callback returns with NULL (read from its IR), so the
/// harness's callback returns NULL on some paths, and the loop's end and
/// what follows it are reached and run natively. Before, the callback never
/// returned NULL and the line after the loop was never reached.
#[test]
fn a_callback_whose_result_the_library_checks_returns_null_on_some_paths() {
    let dir = fixture("library-generator", "library-generator-null");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "generator");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let harness =
        std::fs::read_to_string(dir.join("tests/symtest/generator/symtest_library.c")).unwrap();
    assert!(
        harness.contains("symtest_lib_nullable(symtest_lib_alloc("),
        "{harness}"
    );
    // `return weight % 2 ? n : -n;`, after the loop.
    let lines = covered(&dir, "generator", "src/generator.c");
    assert!(lines.contains(&22), "{lines:?}");
    assert!(!text(&o).contains("soundness:"), "{}", text(&o));
}

/// libvorbis's `ov_comment` returns `vf->vc + vf->current_link`: an index
/// the test makes up into an input's array. The oracle names the input a
/// returned pointer points into, by address natively; in the engine a
/// pointer computed from the records array is never "into" another input
/// (where it lands past the array depends on the heap's layout: natively it
/// was unmapped memory), it is out of the array's bounds.
#[test]
fn a_pointer_computed_from_one_input_is_never_into_another() {
    let dir = fixture("library-cursor", "library-cursor");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "cursor");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let bugs = r["bugs"].as_array().unwrap();
    assert!(
        bugs.iter().any(|b| b["function"] == "symtest_lib_returned"
            && b["message"].as_str().unwrap().contains("out-of-bounds")),
        "{r:#}"
    );
    // What each kept test's native run found the result points into.
    let expected = dir.join("tests/symtest/cursor/expected");
    for t in std::fs::read_dir(&expected).unwrap() {
        let out = std::fs::read_to_string(t.unwrap().path().join("outputs/001")).unwrap();
        assert!(
            !out.starts_with("into") || out.contains(".records at offset"),
            "{out}"
        );
    }
}
