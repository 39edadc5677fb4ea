//! OpenMP code runs as serial OpenMP (issue #46): the build's `-fopenmp` is
//! dropped from the bitcode compile and from the native builds alike (every
//! `#pragma omp` ignored, `_OPENMP` not defined), `<omp.h>` is symtest's
//! (`libc-models/openmp`), and its routines answer for one thread, in the
//! engine's runtime and in the native builds, which link them instead of
//! libgomp.

use crate::support::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap()
}

/// `tests/fixtures/openmp-serial`: a program built with `-fopenmp` and
/// `-lgomp` (a parallel reduction, `omp_get_max_threads`, a lock per
/// thread's share) whose division by the number of threads beyond the first
/// is by zero on one thread, and a file built without `-fopenmp` that
/// includes `<omp.h>`. Both files have bitcode (the module is whole), the
/// bug is found and confirmed natively with no disagreement (so the native
/// build runs serially too: libgomp would give it two threads here), the
/// tests recorded the serial branch of `#ifdef _OPENMP`, and the emitted
/// suite, which carries `omp.h` and the routines and names no libgomp,
/// builds and passes.
#[test]
fn openmp_code_runs_serially_in_the_engine_and_natively() {
    let dir = copy_fixture("openmp-serial", "openmp-serial");
    let o = symtest_in(&dir, &["--max-time", "20"]);
    assert!(o.status.success(), "{}", shown(&o));
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("no bitcode"),
        "{}",
        shown(&o)
    );
    let capture = std::fs::read_dir(dir.join("symtest-out/.build/capture"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let m = read_json(&capture.join("manifest.json"));
    let compiles = m["compiles"].as_array().unwrap();
    for (source, dropped) in [("main.c", vec!["-fopenmp"]), ("procs.c", vec![])] {
        let c = compiles
            .iter()
            .find(|c| c["source"] == source)
            .unwrap_or_else(|| panic!("{m:#}"));
        assert!(c["bitcode"].is_string(), "{c:#}");
        // Listed when not empty.
        let listed: Vec<&str> = c["dropped_flags"]
            .as_array()
            .map_or(vec![], |d| d.iter().map(|f| f.as_str().unwrap()).collect());
        assert_eq!(listed, dropped, "{c:#}");
        let flags = c["flags"].as_array().unwrap();
        assert!(
            flags
                .iter()
                .any(|f| f.as_str().unwrap().ends_with("libc-models/openmp")),
            "{c:#}"
        );
    }
    let suite = confirmed_serially(&dir);
    let makefile = std::fs::read_to_string(suite.join("Makefile")).unwrap();
    assert!(
        makefile.contains("-isystem$(SUITE_DIR)/openmp") && !makefile.contains("gomp"),
        "{makefile}"
    );
    assert!(suite.join("openmp/omp.h").is_file() && suite.join("openmp/omp.c").is_file());
    let mut stdout = String::new();
    for e in std::fs::read_dir(suite.join("expected")).unwrap() {
        let p = e.unwrap().path().join("stdout");
        stdout.push_str(&std::fs::read_to_string(&p).unwrap_or_default());
    }
    assert!(
        stdout.contains("serial\nthreads 1, sum ")
            && stdout.contains("spare processors 0")
            && !stdout.contains("parallel"),
        "{stdout}"
    );
    let o = Command::new("make")
        .arg("test-no-bugs")
        .current_dir(&suite)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", shown(&o));
}

/// The same program as a target with `sources` and `cflags = ["-fopenmp"]`:
/// the flag is left out of its bitcode and native compiles alike, so the
/// engine's bug is confirmed natively with no disagreement and the emitted
/// suite links symtest's routines.
#[test]
fn a_target_with_openmp_cflags_runs_serially() {
    let dir = copy_fixture("openmp-serial", "openmp-serial-sources");
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"tally\"\nkind = \"program\"\n\
         sources = [\"main.c\", \"procs.c\"]\ncflags = [\"-fopenmp\"]\n\
         args = [\"--sym-stdin\", \"8\"]\nmax-time = 20\n",
    )
    .unwrap();
    let o = symtest_in(&dir, &["--max-time", "20"]);
    assert!(o.status.success(), "{}", shown(&o));
    let suite = confirmed_serially(&dir);
    let makefile = std::fs::read_to_string(suite.join("Makefile")).unwrap();
    assert!(!makefile.contains("-fopenmp"), "{makefile}");
    let o = Command::new("make")
        .arg("test-no-bugs")
        .current_dir(&suite)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", shown(&o));
}

/// The `tally` target ran: its division by zero in `main` (main.c:44, one
/// thread) found and confirmed natively, no disagreement, and its suite
/// links symtest's OpenMP routines. Returns the suite's directory.
fn confirmed_serially(dir: &Path) -> std::path::PathBuf {
    let all = read_json(&dir.join("symtest-out/summary.json"));
    let r = &all["targets"][0];
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    assert_eq!(r["unconfirmed"], serde_json::json!([]), "{r:#}");
    let div_in_main = |b: &Value| {
        b["kind"] == "div" && b["function"] == "main" && b["file"] == "main.c" && b["line"] == 44
    };
    assert!(
        r["bugs"].as_array().unwrap().iter().any(div_in_main),
        "{r:#}"
    );
    let suite = dir.join("tests/symtest/tally");
    let makefile = std::fs::read_to_string(suite.join("Makefile")).unwrap();
    assert!(
        makefile.contains("CODE_LINK := symtest_omp.a"),
        "{makefile}"
    );
    suite
}
