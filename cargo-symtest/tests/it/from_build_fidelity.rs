//! Targets from a project's build run as the build made them: a library
//! that calls another library of the same build is explored and linked with
//! it, a library whose build names objects `*.so` is linked with no such
//! file, and what a compile records of when and how it ran (`__DATE__`, a
//! system header included inside a function) does not make the engine, the
//! native builds and the emitted suite disagree.

use crate::project::{fixture, make, report, reports, run_in, text};
use std::path::Path;

/// The emitted suite's failures other than the tests that document a bug.
fn unexpected_failures(suite: &Path) -> Vec<String> {
    let o = make(suite, &["test"]);
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.contains("FAILED") && !l.contains("BUG still present"))
        .map(str::to_string)
        .collect()
}

/// `tests/fixtures/library-needs`: `libfront.a` calls `libcore.a` (a static
/// library records no link; the program `demo` links the two in that
/// order), `libplug.so` calls `libhost.so`, which its link names. Each
/// library target's module holds the code it calls (the bug is found there,
/// not reported as a call of an undefined function), and its native builds
/// link it (the coverage build and the suite link).
#[test]
fn a_library_that_needs_another_library_of_the_build_is_explored_and_linked_with_it() {
    let dir = fixture("library-needs", "library-needs");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    for (target, callee, file) in [
        ("front", "core_div", "core.c"),
        ("plug", "host_div", "host.c"),
    ] {
        let r = report(&rs, target);
        assert_eq!(r["status"], "ok", "{r:#}");
        let div: Vec<&serde_json::Value> = r["bugs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["kind"] == "div")
            .collect();
        assert_eq!(div.len(), 1, "{r:#}");
        assert_eq!(div[0]["function"], callee, "{r:#}");
        assert_eq!(div[0]["file"], file, "{r:#}");
        assert!(
            !r["bugs"].to_string().contains("undefined function"),
            "{r:#}"
        );
        assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
        let suite = Path::new(r["suite_dir"].as_str().unwrap());
        let makefile = std::fs::read_to_string(suite.join("Makefile")).unwrap();
        let dep = if target == "front" {
            "libcore.a"
        } else {
            "libhost.a"
        };
        assert!(makefile.contains(dep), "{makefile}");
        assert_eq!(unexpected_failures(suite), Vec::<String>::new());
    }
}

/// `tests/fixtures/build-date`: a program printing `__DATE__` and
/// `__TIME__`, with a system header included inside `main` (as unzip
/// includes `<langinfo.h>`). Every compile sees the model's date, so the
/// engine's recorded output is what the native builds print and the suite
/// passes; the coverage build reads (llvm-cov used to refuse such a
/// function's mapping as "truncated coverage data").
#[test]
fn every_compile_sees_one_date_and_a_header_inside_a_function_is_measured() {
    let dir = fixture("build-date", "build-date");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "stamp");
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let lines = r["lines"].as_array().unwrap();
    assert!(lines[0].as_u64().unwrap() > 0, "{r:#}");
    let out = dir.join("symtest-out/stamp");
    let mut seen = 0;
    for e in std::fs::read_dir(&out).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") && p.to_string_lossy().contains("test0") {
            let t: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            let stdout = t["stdout"].as_str().unwrap_or_default();
            assert!(
                stdout.starts_with("compiled at Nov 14 2023, 22:13:20\n"),
                "{}: {stdout}",
                p.display()
            );
            seen += 1;
        }
    }
    assert!(seen > 0, "no test recorded in {}", out.display());
    let suite = Path::new(r["suite_dir"].as_str().unwrap());
    let o = make(suite, &["test"]);
    assert!(o.status.success(), "{}", text(&o));
}

/// `tests/fixtures/library-renamed-objects`: the build makes `libhist.a`
/// and, as readline does, a shared library of the same source linked from
/// objects named `hist.so`. Those are the shared library's objects, not
/// libraries it was linked with: the library target's native builds link
/// no file of that name, and its suite passes.
#[test]
fn objects_named_like_shared_libraries_are_not_linked_as_libraries() {
    let dir = fixture("library-renamed-objects", "library-renamed-objects");
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let r = report(&rs, "hist");
    assert_eq!(r["status"], "ok", "{r:#}");
    let bugs = r["bugs"].as_array().unwrap();
    assert!(!bugs.is_empty(), "{r:#}");
    assert!(bugs.iter().all(|b| b["function"] == "hist_ratio"), "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    let suite = Path::new(r["suite_dir"].as_str().unwrap());
    let makefile = std::fs::read_to_string(suite.join("Makefile")).unwrap();
    assert!(!makefile.contains("hist.so"), "{makefile}");
    assert_eq!(unexpected_failures(suite), Vec::<String>::new());
}
