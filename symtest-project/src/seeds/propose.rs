//! The project's test command, as `cargo symtest init --from-build` proposes
//! it for `seed-tests`: for a make build, `make check` or `make test` when
//! the Makefile has such a target (read from make's database, `make -pq`,
//! which runs no recipe) and the target runs tests rather than builds a
//! program of that name.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The targets a test suite goes by, in the order they are preferred.
const TEST_TARGETS: &[&str] = &["check", "test"];

/// How long `make -pq` may take to answer.
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

/// make's database (`make -pq .DEFAULT`: read the Makefiles, run no recipe)
/// of the project in `root`, or nothing when make does not answer in time.
fn database(root: &Path, make: &[String]) -> Option<String> {
    let dir = std::env::temp_dir().join(format!("symtest-make-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let out_path = dir.join("database");
    let out = std::fs::File::create(&out_path).ok()?;
    let mut child = Command::new(&make[0])
        .args(&make[1..])
        .args(["-pq", ".DEFAULT"])
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let started = Instant::now();
    let answered = loop {
        match child.try_wait() {
            Ok(Some(_)) => break true,
            Ok(None) if started.elapsed() < QUESTION_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break false;
            }
        }
    };
    let text = answered.then(|| std::fs::read(&out_path).ok()).flatten();
    let _ = std::fs::remove_dir_all(&dir);
    text.map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Whether make's `database` has a rule for `target` that runs a test suite:
/// a phony target, or one none of whose prerequisites is a C source (a
/// non-phony `test` made from `.c` files is a program named `test`, and
/// making it rebuilds part of the project with another configuration).
fn is_test_target(database: &str, target: &str) -> bool {
    let mut lines = database.lines().peekable();
    let mut previous = "";
    while let Some(line) = lines.next() {
        let rule = line
            .strip_prefix(target)
            .and_then(|rest| rest.strip_prefix(':'))
            .filter(|rest| !rest.starts_with('='));
        if let (Some(rest), false) = (rule, previous == "# Not a target:") {
            let rest = rest.strip_prefix(':').unwrap_or(rest);
            let compiles = rest.split_whitespace().any(|p| p.ends_with(".c"));
            let mut phony = false;
            while let Some(note) = lines.next_if(|l| l.starts_with('#')) {
                phony |= note.contains("Phony target");
            }
            return phony || !compiles;
        }
        previous = line;
    }
    false
}

/// The test command of a project built by `build` from `root`, if it has
/// one: `make [-C DIR] [-f FILE] check` (or `test`).
pub fn test_command(root: &Path, build: &[String]) -> Option<Vec<String>> {
    if !is_make(build) {
        return None;
    }
    let mut make = vec![build[0].clone()];
    make.extend(makefile_options(build));
    let database = database(root, &make)?;
    let target = TEST_TARGETS.iter().find(|t| is_test_target(&database, t))?;
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
        // A program named `test`, made from C sources, is not a test suite
        // (a phony one is, whatever its prerequisites).
        std::fs::write(
            dir.join("Makefile"),
            "all:\n\ttrue\ntest: test.c main.c\n\tcc -o test test.c main.c\n",
        )
        .unwrap();
        assert_eq!(test_command(&dir, &words("make")), None);
        std::fs::write(
            dir.join("Makefile"),
            "all:\n\ttrue\ncheck: gen.c\n\tfalse\n.PHONY: check\ntest: test.c\n\tcc test.c\n",
        )
        .unwrap();
        assert_eq!(
            test_command(&dir, &words("make")),
            Some(words("make check"))
        );
        std::fs::write(dir.join("Makefile"), "all:\n\ttrue\n").unwrap();
        assert_eq!(test_command(&dir, &words("make")), None);
        assert_eq!(test_command(&dir, &words("cmake --build .")), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
