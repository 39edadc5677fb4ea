//! The regression suite `cargo symtest` emitted for a target, run on the
//! unmodified program (`make -C <suite_dir> test`, issue #46: every emitted
//! suite passes), and what its runner said.

use super::bounded::{key_line, wait_bounded};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// What one suite's run said.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SuiteRun {
    /// The runner's closing line, "N passed, M failed" (`None`: it did not
    /// get there; `note` says why).
    pub passed: Option<u64>,
    pub failed: Option<u64>,
    /// Of the failed, the tests that document a bug still present (they fail
    /// by design until the bug is fixed).
    pub bugs: Option<u64>,
    /// Why the suite did not run or finish, or its first failure that does
    /// not document a bug.
    pub note: Option<String>,
    pub seconds: f64,
}

/// Reads the runner's output: (passed, failed, failed tests that document a
/// bug still present, the first other failure) from its closing line "N
/// passed, M failed" and its "test NAME ... FAILED: why" lines; `None`
/// without a closing line.
pub fn parse(text: &str) -> Option<(u64, u64, u64, Option<String>)> {
    let (passed, failed) = text.lines().rev().find_map(|l| {
        let (p, f) = l.trim().split_once(" passed, ")?;
        let f = f.strip_suffix(" failed")?;
        Some((p.parse().ok()?, f.parse().ok()?))
    })?;
    let mut bugs = 0;
    let mut first = None;
    for l in text.lines() {
        let Some(rest) = l.strip_prefix("test ") else {
            continue;
        };
        let Some((name, why)) = rest.split_once(" ... FAILED") else {
            continue;
        };
        let why = why.trim_start_matches(':').trim();
        if why.starts_with("BUG still present") {
            bugs += 1;
        } else if first.is_none() {
            first = Some(format!("{name}: {why}"));
        }
    }
    Some((passed, failed, bugs, first))
}

/// Runs `make -C suite_dir test` until `until`, its output in `log`.
pub fn run(suite_dir: &Path, log: &Path, until: Instant) -> SuiteRun {
    let t = Instant::now();
    let mut out = SuiteRun::default();
    if !suite_dir.join("Makefile").is_file() {
        out.note = Some(format!("no suite at {}", suite_dir.display()));
        return out;
    }
    if Instant::now() >= until {
        out.note = Some("not run: the package's suites reached their time cap".into());
        return out;
    }
    let file = match std::fs::File::create(log) {
        Ok(f) => f,
        Err(e) => {
            out.note = Some(format!("creating {}: {e}", log.display()));
            return out;
        }
    };
    let mut cmd = Command::new("make");
    cmd.arg("-C").arg(suite_dir).arg("test");
    // The project's build flags are not the suite's (its Makefile sets its own).
    for v in ["CFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "MFLAGS"] {
        cmd.env_remove(v);
    }
    let status = match file.try_clone() {
        Ok(f2) => {
            cmd.stdout(f2).stderr(file);
            wait_bounded(&mut cmd, Some(until))
        }
        Err(e) => Err(e.into()),
    };
    out.seconds = t.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let counts = parse(&text);
    if let Some((p, f, b, first)) = &counts {
        out.passed = Some(*p);
        out.failed = Some(*f);
        out.bugs = Some(*b);
        out.note = first.clone();
    }
    match status {
        Err(e) => out.note = Some(format!("could not run make: {e:#}")),
        Ok(None) => {
            out.note = Some(format!(
                "timed out after {:.0} s (the package's suites' cap)",
                out.seconds
            ))
        }
        Ok(Some(_)) if counts.is_none() => {
            out.note = Some(format!("did not run: {}", key_line(&text)));
        }
        Ok(Some(_)) => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTPUT: &str = "make: Entering directory '/t/tests/symtest/delay'\n\
test test000001 ... ok\n\
test test000005 ... FAILED: expected exit 10, got exit 9 [exit 10]\n    \
reproduce: printf '\\000' | delay '-b+ '\n\
test test000009_bug_overflow_in_parse_cli ... FAILED: BUG still present: overflow: integer \
overflow in multiplication in parse_cli at main.c:104\n\
test test000012 ... FAILED: expected exit 1, got killed by SIGABRT\n\
8 passed, 3 failed\n\
make: *** [Makefile:138: test] Error 1\n\
make: Leaving directory '/t/tests/symtest/delay'\n";

    #[test]
    fn reads_the_runners_closing_line_and_failures() {
        let (p, f, b, first) = parse(OUTPUT).unwrap();
        assert_eq!((p, f, b), (8, 3, 1));
        assert_eq!(
            first.as_deref(),
            Some("test000005: expected exit 10, got exit 9 [exit 10]")
        );
        assert_eq!(parse("12 passed, 0 failed\n"), Some((12, 0, 0, None)));
        // A suite that did not build has no closing line.
        assert_eq!(parse("x.c:1:10: fatal error: y.h: No such file\n"), None);
    }

    #[test]
    fn a_suite_that_does_not_build_says_why() {
        let dir = std::env::temp_dir().join(format!("symtest-suite-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("suite.log");
        let until = Instant::now() + std::time::Duration::from_secs(60);
        assert!(run(&dir, &log, until).note.unwrap().starts_with("no suite"));
        std::fs::write(
            dir.join("Makefile"),
            "test:\n\t@echo 'x.c:1:10: fatal error: y.h: No such file or directory'; exit 1\n",
        )
        .unwrap();
        let r = run(&dir, &log, until);
        assert_eq!(r.passed, None);
        assert_eq!(
            r.note.as_deref(),
            Some("did not run: x.c:1:10: fatal error: y.h: No such file or directory")
        );
        std::fs::write(
            dir.join("Makefile"),
            "test:\n\t@echo 'test a ... ok'; echo '1 passed, 0 failed'\n",
        )
        .unwrap();
        let r = run(&dir, &log, until);
        assert_eq!(
            (r.passed, r.failed, r.bugs, r.note),
            (Some(1), Some(0), Some(0), None)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
