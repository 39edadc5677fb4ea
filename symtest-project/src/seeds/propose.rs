//! The project's test command, as `cargo symtest init --from-build` proposes
//! it for `seed-tests`: for a make build, `make check` or `make test` when
//! the Makefile has such a target (asked with `make -q`, which runs no
//! recipe: exit 0 or 1 when the target exists, 2 when make has no rule).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The targets a test suite goes by, in the order they are preferred.
const TEST_TARGETS: &[&str] = &["check", "test"];

/// How long `make -q` may take to answer.
const QUESTION_TIMEOUT: Duration = Duration::from_secs(30);

/// The options of a make command line that say which Makefile it reads
/// (`-C DIR`, `-f FILE` and their long forms), kept for the test command.
fn makefile_options(build: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = build.iter().skip(1);
    while let Some(w) = words.next() {
        let takes_next = matches!(
            w.as_str(),
            "-C" | "-f" | "--directory" | "--file" | "--makefile"
        );
        let joined = ["-C", "-f", "--directory=", "--file=", "--makefile="]
            .iter()
            .any(|p| w.len() > p.len() && w.starts_with(p));
        if takes_next {
            out.push(w.clone());
            if let Some(v) = words.next() {
                out.push(v.clone());
            }
        } else if joined {
            out.push(w.clone());
        }
    }
    out
}

/// Whether `build` runs make (`make`, `gmake`, `/usr/bin/make`).
fn is_make(build: &[String]) -> bool {
    build.first().is_some_and(|w| {
        let name = Path::new(w)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("");
        matches!(name, "make" | "gmake")
    })
}

/// `make -q TARGET` in `root`: whether make has a rule for it.
fn has_target(root: &Path, make: &[String], target: &str) -> bool {
    let Ok(mut child) = Command::new(&make[0])
        .args(&make[1..])
        .args(["-q", target])
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return matches!(s.code(), Some(0 | 1)),
            Ok(None) if started.elapsed() < QUESTION_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return false;
            }
        }
    }
}

/// The test command of a project built by `build` from `root`, if it has
/// one: `make [-C DIR] [-f FILE] check` (or `test`).
pub fn test_command(root: &Path, build: &[String]) -> Option<Vec<String>> {
    if !is_make(build) {
        return None;
    }
    let mut make = vec![build[0].clone()];
    make.extend(makefile_options(build));
    let target = TEST_TARGETS.iter().find(|t| has_target(root, &make, t))?;
    make.push(target.to_string());
    Some(make)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn makefile_options_are_kept() {
        assert_eq!(
            makefile_options(&words("make -j4 -C src -fGNUmakefile V=1 all")),
            words("-C src -fGNUmakefile")
        );
        assert!(makefile_options(&words("make -j2")).is_empty());
        assert!(is_make(&words("/usr/bin/gmake -j2")) && !is_make(&words("cmake --build b")));
    }

    #[test]
    fn a_check_target_is_found() {
        let dir = std::env::temp_dir().join(format!("symtest-propose-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("Makefile"),
            "all:\n\ttrue\ntest:\n\tfalse\n.PHONY: test\n",
        )
        .unwrap();
        assert_eq!(test_command(&dir, &words("make")), Some(words("make test")));
        std::fs::write(dir.join("Makefile"), "all:\n\ttrue\n").unwrap();
        assert_eq!(test_command(&dir, &words("make")), None);
        assert_eq!(test_command(&dir, &words("cmake --build .")), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
