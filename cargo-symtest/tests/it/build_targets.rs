//! Targets from a project's own build (`build` with `binary` or `library` in
//! symtest.toml): a Make project with a static library and a program in
//! subdirectories (both a program target and a harness against the library,
//! captured once, also through `make symtest`), a CMake project, a
//! configure-style project whose configure compiles and runs a probe, and a
//! Cargo workspace whose build script compiles C with the `cc` crate. Each:
//! the planted bug found, gcov coverage of the build's own sources, the suite
//! emitted from the recorded compile commands and `make test` run on it
//! (failing while the bug is there, passing once it is fixed); bad input.

use crate::support::*;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn make(dir: &Path, args: &[&str]) -> Output {
    Command::new("make")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run make")
}

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

/// The one bug of a report: (kind, function, file, line).
fn only_bug(r: &Value) -> (String, String, String, u64) {
    let bugs = r["bugs"].as_array().unwrap();
    assert_eq!(bugs.len(), 1, "{r:#}");
    let b = &bugs[0];
    (
        b["kind"].as_str().unwrap().into(),
        b["function"].as_str().unwrap().into(),
        b["file"].as_str().unwrap().into(),
        b["line"].as_u64().unwrap(),
    )
}

/// gcov's (covered, total) lines of `file` (relative to the project root).
fn file_lines(dir: &Path, target: &str, file: &str) -> (u64, u64) {
    let s = read_json(
        &dir.join("symtest-out")
            .join(target)
            .join("coverage/summary.json"),
    );
    let f = s["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == file)
        .unwrap_or_else(|| panic!("{file} not measured: {s:#}"));
    assert_eq!(
        f["claimed_not_executed"],
        Value::Array(vec![]),
        "{target}: {f}"
    );
    (
        f["lines_covered"].as_u64().unwrap(),
        f["lines_total"].as_u64().unwrap(),
    )
}

/// The emitted suite builds with make; its tests that do not document a bug
/// pass; the one that documents `bug_name` fails while the bug is there.
fn suite_replays(dir: &Path, target: &str, bug_name: &str) {
    let suite = dir.join("tests/symtest").join(target);
    let o = make(&suite, &[]);
    assert!(o.status.success(), "{target}: {}", shown(&o));
    let o = make(&suite, &["test-no-bugs"]);
    assert!(o.status.success(), "{target}: {}", shown(&o));
    let o = make(&suite, &["test"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        !o.status.success() && out.contains(&format!("{bug_name} ... FAILED: BUG still present")),
        "{target}: {}",
        shown(&o)
    );
}

/// After the bug is fixed in the project's sources, the suite (rebuilt from
/// the same recorded compile commands) passes whole.
fn suite_passes(dir: &Path, target: &str) {
    let suite = dir.join("tests/symtest").join(target);
    let _ = make(&suite, &["clean"]);
    let o = make(&suite, &["test"]);
    assert!(o.status.success(), "{target}: {}", shown(&o));
}

fn replace_in(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{}: {from}", file.display());
    std::fs::write(file, text.replace(from, to)).unwrap();
}

/// `make symtest` on a Make project whose symtest.toml names the program its
/// build links and the library it makes (with a harness): one capture for both.
#[test]
fn make_project_program_and_library_from_one_build() {
    let dir = copy_fixture("capture-make", "build-make");
    let o = symtest_in(&dir, &["init", "--make"]);
    assert!(o.status.success(), "{}", shown(&o));
    let mut top = std::fs::read_to_string(dir.join("Makefile")).unwrap();
    top.push_str("-include symtest.mk\n");
    std::fs::write(dir.join("Makefile"), top).unwrap();
    let o = make(
        &dir,
        &[
            "symtest",
            &format!("SYMTEST={}", bin().display()),
            "SYMTEST_MAX_TIME=20",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{}", shown(&o));
    assert!(!err.contains("native replay differs"), "{err}");
    // One build, captured once for both targets.
    let captures: Vec<_> = std::fs::read_dir(dir.join("symtest-out/.build/capture"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert_eq!(captures.len(), 1, "{err}");
    assert_eq!(err.matches("Capturing").count(), 2, "{err}");
    // The program: the planted out-of-bounds read of app/main.c.
    let r = report(&dir, "wordcount");
    assert_eq!(
        only_bug(&r),
        ("ptr".into(), "main".into(), "app/main.c".into(), 14)
    );
    assert_eq!(r["soundness_warnings"], Value::Array(vec![]), "{r:#}");
    // Coverage of the program's own file and of the library it links.
    for f in ["app/main.c", "lib/tokens.c", "lib/checksum.c"] {
        let (c, n) = file_lines(&dir, "wordcount", f);
        assert!(c > 0 && n > 0, "{f}: {c}/{n}");
    }
    // The harness against the library: the bug is found in the library's code.
    let r = report(&dir, "tok");
    assert_eq!(
        only_bug(&r),
        ("ptr".into(), "tok_split".into(), "lib/tokens.c".into(), 12)
    );
    let (c, n) = file_lines(&dir, "tok", "lib/tokens.c");
    assert!(c >= 10 && n >= c, "{c}/{n}");
    // The suites, from the recorded compile commands (-DTOK_MAX=8, -I../lib).
    let makefile = std::fs::read_to_string(dir.join("tests/symtest/tok/Makefile")).unwrap();
    assert!(makefile.contains("-DTOK_MAX=8"), "{makefile}");
    suite_replays(&dir, "wordcount", "_bug_ptr_in_main");
    suite_replays(&dir, "tok", "_bug_ptr_in_tok_split");
    // Fixed in the project, the suites pass.
    replace_in(
        &dir.join("app/main.c"),
        "n >= 3 ? words[n] :",
        "n >= 3 ? words[2] :",
    );
    replace_in(
        &dir.join("tests/tok_harness.c"),
        "tok_split(s, words, 3)",
        "tok_split(s, words, 2)",
    );
    suite_passes(&dir, "wordcount");
    suite_passes(&dir, "tok");
}

/// A CMake project: the program the CMake build links. The second run's build
/// is up to date: the capture keeps what the first recorded, and the CMake
/// cache, which remembers the wrapper's path, keeps working outside symtest.
#[test]
fn cmake_project_program_from_its_build() {
    let dir = copy_fixture("capture-cmake", "build-cmake");
    let o = symtest_in(&dir, &["--max-time", "20"]);
    assert!(o.status.success(), "{}", shown(&o));
    let r = report(&dir, "kvget");
    assert_eq!(
        only_bug(&r),
        ("ptr".into(), "main".into(), "src/main.c".into(), 15)
    );
    for f in ["src/main.c", "src/kv.c"] {
        let (c, n) = file_lines(&dir, "kvget", f);
        assert!(c > 0 && n > 0, "{f}: {c}/{n}");
    }
    let makefile = std::fs::read_to_string(dir.join("tests/symtest/kvget/Makefile")).unwrap();
    assert!(makefile.contains("KV_SEP="), "{makefile}");
    suite_replays(&dir, "kvget", "_bug_ptr_in_main");
    // Up to date: nothing recompiled, the same bug from the kept capture.
    let o = symtest_in(&dir, &["--max-time", "10", "--no-emit"]);
    assert!(o.status.success(), "{}", shown(&o));
    assert_eq!(only_bug(&report(&dir, "kvget")).3, 15);
    // The CMake cache names the wrapper: without a capture it only passes through.
    std::fs::write(
        dir.join("src/kv.c"),
        std::fs::read_to_string(dir.join("src/kv.c")).unwrap() + "\n",
    )
    .unwrap();
    let o = Command::new("cmake")
        .args(["--build", "build"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", shown(&o));
    replace_in(
        &dir.join("src/main.c"),
        "memcpy(out, v, (size_t)n + 1);",
        "if (n > 2) return 3; memcpy(out, v, (size_t)n + 1);",
    );
    suite_passes(&dir, "kvget");
}

/// A configure-style project: configure compiles and runs a probe, the build
/// makes the program. A failing build shows its output and exits 2, leaving
/// the previous results as they were.
#[test]
fn configure_project_program_and_a_failing_build() {
    let dir = copy_fixture("capture-configure", "build-configure");
    let o = symtest_in(&dir, &["--max-time", "20"]);
    assert!(o.status.success(), "{}", shown(&o));
    // The probe ran through the wrappers and configured the build.
    let config = std::fs::read_to_string(dir.join("config.h")).unwrap();
    assert!(config.contains("SIZEOF_LONG 8"), "{config}");
    let r = report(&dir, "rot");
    assert_eq!(
        only_bug(&r),
        ("div".into(), "main".into(), "rot.c".into(), 19)
    );
    let (c, n) = file_lines(&dir, "rot", "rot.c");
    assert!(c > 0 && c <= n, "{c}/{n}");
    suite_replays(&dir, "rot", "_bug_div_in_main");
    // A failing build: its own output, exit 2, nothing written.
    let summary = std::fs::read(dir.join("symtest-out/summary.json")).unwrap();
    let kept = std::fs::read(dir.join("symtest-out/rot/summary.json")).unwrap();
    let vectors = std::fs::read(dir.join("tests/symtest/rot/symtest_tests.c")).unwrap();
    let good = std::fs::read_to_string(dir.join("rot.c")).unwrap();
    std::fs::write(dir.join("rot.c"), format!("{good}\nint broken(\n")).unwrap();
    let o = symtest_in(&dir, &["--max-time", "5", "--message-format", "json"]);
    assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(err.contains("rot.c:"), "the compiler's diagnostics: {err}");
    assert!(
        err.contains(
            "symtest.toml:6: key `build`: the build command `sh -c ./configure && make` failed"
        ),
        "{err}"
    );
    // The build's output went to stderr: stdout holds only JSON events.
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    assert_eq!(
        std::fs::read(dir.join("symtest-out/summary.json")).unwrap(),
        summary
    );
    assert_eq!(
        std::fs::read(dir.join("symtest-out/rot/summary.json")).unwrap(),
        kept
    );
    assert_eq!(
        std::fs::read(dir.join("tests/symtest/rot/symtest_tests.c")).unwrap(),
        vectors
    );
    let leftovers: Vec<String> = std::fs::read_dir(dir.join("symtest-out/.build/capture"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    std::fs::write(dir.join("rot.c"), &good).unwrap();
    replace_in(
        &dir.join("rot.c"),
        "100 / (zs - 2)",
        "(zs == 2 ? 0 : 100 / (zs - 2))",
    );
    suite_passes(&dir, "rot");
}

/// A Cargo workspace: `cargo build` runs the build script, which compiles the
/// vendored C with the `cc` crate; the static library it makes is a target
/// with no list of its sources.
#[test]
fn cargo_build_script_library_is_a_target_without_source_list() {
    let dir = copy_fixture("cargo-ws", "build-cargo");
    std::fs::write(
        dir.join("clib/symtest.toml"),
        "[[target]]\nname = \"parse-lib\"\nkind = \"harness\"\nbuild = [\"cargo\", \"build\"]\n\
         library = \"libparse.a\"\nsources = [\"symtest/parse_harness.c\"]\ninclude = [\"csrc\"]\n\
         max-time = 10\n",
    )
    .unwrap();
    let o = symtest_in(&dir, &["--target", "parse-lib"]);
    assert!(o.status.success(), "{}", shown(&o));
    let r = report(&dir, "parse-lib");
    let (kind, _, file, _) = only_bug(&r);
    assert_eq!(
        (kind.as_str(), file.as_str()),
        ("assert", "clib/symtest/parse_harness.c")
    );
    let (c, n) = file_lines(&dir, "parse-lib", "clib/csrc/parse.c");
    assert!(c > 0 && n > 0, "{c}/{n}");
    // The build's objects: the library the cc crate archived in OUT_DIR.
    let makefile =
        std::fs::read_to_string(dir.join("clib/tests/symtest/parse-lib/Makefile")).unwrap();
    assert!(makefile.contains("csrc/parse.c"), "{makefile}");
    let suite = dir.join("clib/tests/symtest/parse-lib");
    assert!(make(&suite, &[]).status.success());
    let o = make(&suite, &["test-no-bugs"]);
    assert!(o.status.success(), "{}", shown(&o));
}

/// `init --from-build`: one program target per executable, which the pipeline
/// then runs from the capture init made (the build is up to date by then).
#[test]
fn init_from_build_writes_one_target_per_executable() {
    let dir = copy_fixture("capture-make", "build-init");
    let o = symtest_in(&dir, &["init", "--from-build", "--", "make"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "symtest.toml exists: {}",
        shown(&o)
    );
    assert!(!dir.join("app/wordcount").exists(), "nothing ran");
    std::fs::remove_file(dir.join("symtest.toml")).unwrap();
    let o = symtest_in(&dir, &["init", "--from-build", "--", "make"]);
    assert!(o.status.success(), "{}", shown(&o));
    let o = symtest_in(&dir, &["list"]);
    assert!(o.status.success(), "{}", shown(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with("wordcount\tprogram\tsymtest.toml:")
            && lines[0].contains("binary = \"app/wordcount\" from `make` (module: ")
            && lines[0].ends_with("main from app/main.c)"),
        "{out}"
    );
    let o = symtest_in(&dir, &["--max-time", "10", "--no-emit"]);
    assert!(o.status.success(), "{}", shown(&o));
    assert_eq!(report(&dir, "wordcount")["status"], "ok");
}

/// Configuration errors name file:line:key; an output the build did not make
/// is an error listing what it made.
#[test]
fn build_targets_bad_input() {
    let dir = copy_fixture("capture-configure", "build-bad-input");
    let config = |body: &str| {
        std::fs::write(
            dir.join("symtest.toml"),
            format!("[[target]]\nname = \"rot\"\nkind = \"program\"\n{body}"),
        )
        .unwrap()
    };
    let fails = |needle: &str| {
        let o = symtest_in(&dir, &["--max-time", "5"]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
        assert!(err.contains(needle), "expected {needle:?}: {}", shown(&o));
    };
    config("build = [\"make\"]\nbinary = \"rot\"\nsources = [\"rot.c\"]\n");
    fails("symtest.toml:6: key `sources`: `sources` and `build` together");
    config("build = [\"make\"]\n");
    fails("symtest.toml:4: key `binary`: target `rot` has `build` but no `binary`");
    config("sources = [\"rot.c\"]\nbinary = \"rot\"\n");
    fails("symtest.toml:5: key `binary`: `binary` names an output of the project's build");
    config("build = [\"make\"]\nlibrary = \"librot.a\"\n");
    fails("symtest.toml:5: key `library`: a `program` target runs an executable");
    config("build = []\nbinary = \"rot\"\n");
    fails("symtest.toml:4: key `build`: the build command is empty");
    assert!(
        !dir.join("rot").exists(),
        "no build ran on a configuration error"
    );
    config("build = [\"sh\", \"-c\", \"./configure && make\"]\nbinary = \"rot13\"\n");
    fails("symtest.toml:5: key `binary`: the build `sh -c ./configure && make` did not produce `rot13` (target `rot`); it produced: rot");
    assert!(!dir.join("symtest-out/summary.json").exists());
}

/// A `build` target run three times on the unchanged project: each run
/// succeeds (the suite the previous one emitted, built and run in place, is
/// recognised and replaced), and with an instruction budget each emits the
/// same suite. A suite someone edited is refused, with the file named and
/// left as it is.
#[test]
fn build_target_reruns_emit_the_same_suite_and_refuse_an_edited_one() {
    let dir = copy_fixture("capture-make", "build-rerun");
    replace_in(
        &dir.join("symtest.toml"),
        "args = [\"--sym-arg\", \"6\"]\nmax-time = 30",
        "args = [\"--sym-arg\", \"6\"]\nmax-time = 60\nmax-instructions = 300000\nseed = 3",
    );
    let suite = dir.join("tests/symtest/wordcount");
    let files = ["Makefile", "symtest_tests.c", "symtest_runner.c"];
    let mut first: Option<Vec<String>> = None;
    for run in 1..=3 {
        let o = symtest_in(&dir, &["--target", "wordcount"]);
        assert!(o.status.success(), "run {run}: {}", shown(&o));
        let r = report(&dir, "wordcount");
        assert_eq!(r["status"], "ok", "run {run}: {r:#}");
        assert_eq!(
            r["native_disagreements"],
            Value::Array(vec![]),
            "run {run}: {r:#}"
        );
        assert_eq!(r["claimed_not_executed"], 0, "run {run}: {r:#}");
        let now: Vec<String> = files
            .iter()
            .map(|f| std::fs::read_to_string(suite.join(f)).unwrap())
            .collect();
        match &first {
            None => first = Some(now),
            Some(f) => assert!(f == &now, "run {run} emitted another suite"),
        }
        assert!(suite.join(".symtest-suite.json").is_file());
        // Built and run where it lies: what make leaves does not count as an edit.
        let o = make(&suite, &["test-no-bugs"]);
        assert!(o.status.success(), "run {run}: {}", shown(&o));
    }
    // An edit to a file symtest wrote: the next run refuses to replace it.
    let vectors = suite.join("symtest_tests.c");
    let edited = std::fs::read_to_string(&vectors).unwrap() + "/* reviewed */\n";
    std::fs::write(&vectors, &edited).unwrap();
    let o = symtest_in(&dir, &["--target", "wordcount"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{}", shown(&o));
    assert!(
        err.contains("symtest_tests.c was edited") && err.contains("git checkout"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&vectors).unwrap(), edited);
    // A file added by hand is an edit too; removing the directory starts over.
    std::fs::write(&vectors, first.as_ref().unwrap()[1].as_bytes()).unwrap();
    std::fs::write(suite.join("my_test.c"), "int x;\n").unwrap();
    let o = symtest_in(&dir, &["--target", "wordcount"]);
    assert!(
        !o.status.success() && String::from_utf8_lossy(&o.stderr).contains("my_test.c was added"),
        "{}",
        shown(&o)
    );
    std::fs::remove_dir_all(&suite).unwrap();
    let o = symtest_in(&dir, &["--target", "wordcount"]);
    assert!(o.status.success(), "{}", shown(&o));
}

/// A multi-call program from a Kbuild-style build (partial links, a thin
/// archive, a GCC-only flag), named by its stripped copy `multi`: one target
/// per tool, chosen by argv[0] (the target's name) or by argv[1] (the first
/// word of `args`), each finding its tool's planted bug in the engine and in
/// the emitted suite; and a harness against the thin archive.
#[test]
fn multi_call_program_per_tool_from_a_stripped_copy() {
    let dir = copy_fixture("capture-kbuild", "build-kbuild");
    let o = symtest_in(&dir, &[]);
    assert!(o.status.success(), "{}", shown(&o));
    // argv[0] = "up": the up tool.
    let r = report(&dir, "up");
    assert_eq!(
        only_bug(&r),
        ("ptr".into(), "up_main".into(), "core/up.c".into(), 26)
    );
    // argv[0] = "multi-rev" runs under the program's own name: argv[1] = "rev".
    let r = report(&dir, "multi-rev");
    assert_eq!(
        only_bug(&r),
        ("ptr".into(), "rev_main".into(), "core/rev.c".into(), 12)
    );
    let (c, n) = file_lines(&dir, "multi-rev", "core/rev.c");
    assert!(c > 0 && n > 0, "{c}/{n}");
    // Neither tool ran the other's code.
    assert_eq!(file_lines(&dir, "up", "core/rev.c").0, 0);
    let r = report(&dir, "sum");
    assert_eq!(
        only_bug(&r),
        ("div".into(), "sum_main".into(), "util/sum.c".into(), 18)
    );
    // The suites compile the recorded commands without the GCC-only flag.
    let makefile = std::fs::read_to_string(dir.join("tests/symtest/up/Makefile")).unwrap();
    assert!(!makefile.contains("malign-data"), "{makefile}");
    suite_replays(&dir, "up", "_bug_ptr_in_up_main");
    suite_replays(&dir, "multi-rev", "_bug_ptr_in_rev_main");
    suite_replays(&dir, "sum", "_bug_div_in_sum_main");
    replace_in(&dir.join("core/up.c"), "buf[n + 1] = '!';", "buf[0] = '!';");
    replace_in(
        &dir.join("core/rev.c"),
        "char last = w[n ? n - 1 : 1];",
        "char last = w[n ? n - 1 : 0];",
    );
    suite_passes(&dir, "up");
    suite_passes(&dir, "multi-rev");
}

/// `init --from-build` on a build with an install target lists what
/// `make install DESTDIR=<tmp>` installs, under the installed name: not the
/// generator the build runs, nor its link probes (`/dev/null`, a mktemp
/// name); the library as a harness to fill in.
#[test]
fn init_from_build_lists_what_the_build_installs() {
    let dir = copy_fixture("capture-kbuild", "build-init-install");
    std::fs::remove_file(dir.join("symtest.toml")).unwrap();
    let o = symtest_in(&dir, &["init", "--from-build", "--", "make"]);
    assert!(o.status.success(), "{}", shown(&o));
    let config = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    assert!(
        config.contains("what `make install DESTDIR=<tmp>` installs"),
        "{config}"
    );
    for left in [
        "#   gen/mktable: built but not installed",
        "#   /dev/null: not a file",
    ] {
        assert!(config.contains(left), "{left}: {config}");
    }
    assert!(config.contains("made outside the build root"), "{config}");
    assert!(config.contains("# library = \"util/lib.a\""), "{config}");
    let o = symtest_in(&dir, &["list"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with("multitool\tprogram\t")
            && lines[0].contains("binary = \"multi_unstripped\" from `make` (module: "),
        "{out}"
    );
    // Nothing was installed anywhere but the temporary DESTDIR.
    assert!(!dir.join("usr").exists());
    // The program runs under its installed name: argv[1] picks the tool.
    let o = symtest_in(&dir, &["--max-time", "10", "--no-emit"]);
    assert!(o.status.success(), "{}", shown(&o));
    let r = report(&dir, "multitool");
    assert!(r["bugs"].as_array().unwrap().len() >= 2, "{r:#}");
}

/// Without an install target, `init --from-build` lists the executables
/// the build left untouched: the stripped copy, not what strip read, not the
/// generator the build ran.
#[test]
fn init_from_build_without_install_lists_what_the_build_left_untouched() {
    let dir = copy_fixture("capture-kbuild", "build-init-untouched");
    std::fs::remove_file(dir.join("symtest.toml")).unwrap();
    let makefile = std::fs::read_to_string(dir.join("Makefile")).unwrap();
    let start = makefile.find("install: multi").unwrap();
    let end = start + makefile[start..].find("\n\n").unwrap();
    std::fs::write(
        dir.join("Makefile"),
        format!("{}{}", &makefile[..start], &makefile[end + 2..]),
    )
    .unwrap();
    let o = symtest_in(&dir, &["init", "--from-build", "--", "make"]);
    assert!(o.status.success(), "{}", shown(&o));
    let config = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    assert!(config.contains("left untouched after linking"), "{config}");
    assert!(
        config.contains("#   gen/mktable: run or read by the build"),
        "{config}"
    );
    let o = symtest_in(&dir, &["list"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with("multi\tprogram\t")
            && lines[0].contains("binary = \"multi\" from `make` (module: "),
        "{out}"
    );
}

/// An install step that runs the program (to stamp its version) and then
/// fails (`tests/fixtures/capture-install-runs`, as binkd's `make install`):
/// `init --from-build` falls back to what the build left untouched, judged
/// as the build left it, so the program symtest's own install attempt ran
/// is still listed.
#[test]
fn init_from_build_lists_what_a_failed_install_ran() {
    let dir = copy_fixture("capture-install-runs", "build-init-install-runs");
    let o = symtest_in(&dir, &["init", "--from-build", "--", "make"]);
    assert!(o.status.success(), "{}", shown(&o));
    // The install attempt ran the program, then failed.
    let version = std::fs::read_to_string(dir.join(".version")).unwrap();
    assert_eq!(version, "stamp 1.0\n");
    let config = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    assert!(config.contains("left untouched after linking"), "{config}");
    assert!(
        config.contains("`make install DESTDIR=<tmp>` failed"),
        "{config}"
    );
    let o = symtest_in(&dir, &["list"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with("stamp\tprogram\t")
            && lines[0].contains("binary = \"stamp\" from `make` (module: "),
        "{out}"
    );
}

/// A run in a build environment whose CFLAGS rename the files in debug info
/// and coverage data, as Debian's do (`-ffile-prefix-map=<tree>=.`): the
/// pipeline's native build takes the Makefile's flags, not the caller's, so
/// gcov measures the program's source and minimization keeps tests (with the
/// caller's CFLAGS, no line matched its source: 0 lines, 0 tests kept, on
/// every target of `bench projects`).
#[test]
fn native_build_ignores_the_callers_cflags() {
    let dir = scratch("build-prefix-map");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("src/sign.c"),
        "#include <stdio.h>\nint main(int argc, char **argv) {\n  if (argc < 2)\n    return 2;\n  \
         if (argv[1][0] == '-') {\n    puts(\"negative\");\n    return 1;\n  }\n  puts(\"other\");\n  \
         return 0;\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("Makefile"),
        "sign: src/sign.c\n\t$(CC) $(CFLAGS) -o $@ src/sign.c\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"sign\"\nkind = \"program\"\nbuild = [\"make\"]\nbinary = \"sign\"\n\
         args = [\"--sym-args\", \"1\", \"1\", \"2\"]\nmax-time = 10\n",
    )
    .unwrap();
    let o = Command::new(bin())
        .current_dir(&dir)
        .env(
            "CFLAGS",
            format!("-g -O2 -ffile-prefix-map={}=.", dir.display()),
        )
        .output()
        .expect("run cargo-symtest");
    assert!(o.status.success(), "{}", shown(&o));
    let r = report(&dir, "sign");
    assert!(r["tests_kept"].as_u64().unwrap() >= 2, "{r:#}");
    let (c, n) = file_lines(&dir, "sign", "src/sign.c");
    // Every line but `return 2;` (the program always gets one argument).
    assert!(n >= 6 && c + 1 == n, "{c}/{n}");
}

/// A program whose build links a library it does not make (the system's
/// zlib, as gdk-pixbuf's tests link glib): the engine stops the path at the
/// call of a function its module does not define and claims nothing of how
/// the run goes on, so the native run's end (here an abort after the call) is
/// no native disagreement; the summary still counts the paths stopped there
/// and names the kept test, and the emitted suite passes on the unmodified
/// program, comparing the behaviour it recorded (the abort included).
#[test]
fn a_path_stopped_at_an_undefined_function_makes_no_claim_on_its_end() {
    let dir = copy_fixture("capture-external", "build-external");
    let o = symtest_in(&dir, &["--max-time", "10"]);
    assert!(o.status.success(), "{}", shown(&o));
    let r = report(&dir, "prog");
    assert_eq!(r["native_disagreements"], Value::Array(vec![]), "{r:#}");
    assert!(
        r["paths_stopped_at_limits"]["external"].as_u64() >= Some(1),
        "{r:#}"
    );
    let stopped = r["stopped_at_limits"].as_array().unwrap();
    assert_eq!(stopped.len(), 1, "{r:#}");
    assert!(
        stopped[0].as_str().unwrap().contains(
            "engine stopped the path: external: call of undefined function `zlibVersion`"
        ),
        "{r:#}"
    );
    // The path that quits before the call is compared with the engine.
    let outcomes: Vec<&str> = r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["outcome"].as_str().unwrap())
        .collect();
    assert!(outcomes.contains(&"exit 3"), "{r:#}");
    // The suite records the abort and passes on the unmodified program.
    let suite = dir.join("tests/symtest/prog");
    let status = std::fs::read_dir(suite.join("expected"))
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("status")).ok())
        .collect::<Vec<_>>();
    assert!(status.iter().any(|s| s.contains("SIGABRT")), "{status:?}");
    // Its message names the source by its path from the project's root in
    // the pipeline's build of the suite and in the emitted one alike.
    let stderr = std::fs::read_dir(suite.join("expected"))
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stderr")).ok())
        .collect::<String>();
    assert!(
        stderr.contains("tests/main.c:") && !stderr.contains(".."),
        "{stderr}"
    );
    let o = make(&suite, &["test"]);
    assert!(o.status.success(), "{}", shown(&o));
}
