//! Pipeline runs that meet trouble on a fixture project: an engine killed
//! mid-run, two runs of one project at once, `--no-wait` against a held lock.

use crate::project::{fixture, make, report, reports, run_in, text};
use crate::support::bin;
use serde_json::Value;
use std::process::Command;
use std::time::{Duration, Instant};

/// The pids of running `cargo-symtest exec` processes on `bc_name`.
fn engine_pids(bc_name: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().filter_map(|e| e.ok()) {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmd
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        if args.get(1).is_some_and(|a| a == "exec")
            && args.get(2).is_some_and(|a| a.ends_with(bc_name))
        {
            pids.push(pid);
        }
    }
    pids
}

#[test]
fn killed_engine_fails_its_target_only_and_max_time_is_honoured() {
    let dir = fixture("make-project", "project-kill");
    let child = Command::new(bin())
        .args([
            "--max-time",
            "4",
            "-j",
            "2",
            "--target",
            "spin",
            "--target",
            "ratio",
            "--message-format",
            "json",
            "--no-emit",
        ])
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let victim = loop {
        let pids = engine_pids("/spin.bc");
        if let Some(p) = pids.first() {
            break *p;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the engine of `spin` never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    std::thread::sleep(Duration::from_millis(300));
    assert!(Command::new("kill")
        .args(["-9", &victim.to_string()])
        .status()
        .unwrap()
        .success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let rs = reports(&o);
    assert_eq!(
        report(&rs, "spin")["status"],
        "engine-failed",
        "{}",
        text(&o)
    );
    assert!(
        report(&rs, "spin")["message"]
            .as_str()
            .unwrap()
            .contains("signal 9"),
        "{}",
        text(&o)
    );
    assert_eq!(report(&rs, "ratio")["status"], "ok", "{}", text(&o));
    assert!(dir.join("symtest-out/ratio/test000001.ktest").is_file());
    assert!(!dir.join("symtest-out/spin").exists());

    // --max-time: the exploration of `spin` (2^24 paths) stops at its budget, within 10%.
    let o = run_in(
        &dir,
        &[
            "--max-time",
            "5",
            "--target",
            "spin",
            "--message-format",
            "json",
            "--no-emit",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    let t = report(&rs, "spin")["explore_s"].as_f64().unwrap();
    assert!((4.5..=5.5).contains(&t), "explored {t}s for a 5s budget");
    let stats: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/spin/stats.json")).unwrap(),
    )
    .unwrap();
    assert!(stats["time_s"].as_f64().unwrap() <= 5.5, "{stats}");
}

/// Two pipeline runs of one project at once (a second terminal, an editor's
/// run-on-save) share `symtest-out/` and its `.build`: the second waits for
/// the first with one line, and both end as a complete run does.
#[test]
fn two_runs_at_once_wait_for_each_other_and_both_complete() {
    let dir = fixture("program-project", "project-concurrent");
    let start = || {
        Command::new(bin())
            .args([
                "--target",
                "mini_wc",
                "--max-time",
                "2",
                "--message-format",
                "json",
            ])
            .current_dir(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run cargo-symtest")
    };
    let (a, b) = (start(), start());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let mut waited = 0;
    for o in [&a, &b] {
        assert_eq!(o.status.code(), Some(0), "{}", text(o));
        let rs = reports(o);
        let r = report(&rs, "mini_wc");
        assert_eq!(r["status"], "ok", "{r}");
        assert!(r["tests_kept"].as_u64().unwrap() >= 1, "{r}");
        let err = String::from_utf8_lossy(&o.stderr);
        if err.contains("Blocking waiting for another cargo symtest to finish with") {
            waited += 1;
            assert!(err.contains("symtest-out"), "{err}");
        }
        let events: Vec<Value> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let waits = events
            .iter()
            .filter(|e| e["event"] == "waiting-for-lock")
            .count();
        assert!(waits <= 1, "{}", text(o));
    }
    assert_eq!(
        waited,
        1,
        "exactly one run waits:\n{}\n{}",
        text(&a),
        text(&b)
    );
    // The results are those of a complete run.
    let out = dir.join("symtest-out/mini_wc");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["status"], "ok", "{summary}");
    assert!(!out.join("STALE").exists());
    assert!(out.join("stats.json").is_file() && out.join("coverage.json").is_file());
    let all: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(all["targets"][0]["name"], "mini_wc", "{all}");
    let suite = dir.join("tests/symtest/mini_wc");
    assert!(suite.join("Makefile").is_file() && suite.join("symtest.cmake").is_file());
    assert!(make(&suite, &[]).status.success());
    assert!(make(&suite, &["test-no-bugs"]).status.success());
}

/// `--no-wait` fails at once (exit 2, one line) while another run holds the
/// project; a run killed while it holds the lock leaves a lock file that
/// does not block the next one; runs with their own output and build
/// directories do not wait for each other.
#[test]
fn no_wait_fails_at_once_and_a_killed_run_does_not_block() {
    let dir = fixture("program-project", "project-no-wait");
    let lock = dir.join("symtest-out/.symtest.lock");
    let mut first = Command::new(bin())
        .args(["--target", "mini_wc", "--max-time", "5", "-q"])
        .current_dir(&dir)
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let pid = first.id().to_string();
    while std::fs::read_to_string(&lock).map_or(true, |s| s.trim() != pid) {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the lock was never taken"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let t1 = Instant::now();
    let o = run_in(
        &dir,
        &["--target", "mini_wc", "--max-time", "3", "--no-wait"],
    );
    assert!(t1.elapsed() < Duration::from_secs(5), "{}", text(&o));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!(
            "is in use by another cargo symtest (process {pid}); not waiting (--no-wait)"
        )),
        "{err}"
    );
    // Other directories: no wait, even while the first holds its own.
    let o = run_in(
        &dir,
        &[
            "--target",
            "mini_wc",
            "--max-time",
            "3",
            "--no-wait",
            "--no-emit",
            "--out-dir",
            "other-out",
            "--target-dir",
            "other-target",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Killed while holding it: the kernel lets go of the lock, the file stays.
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(first.id() as libc::pid_t, libc::SIGKILL) };
    first.wait().unwrap();
    assert!(lock.is_file());
    let o = run_in(
        &dir,
        &["--target", "mini_wc", "--max-time", "3", "--no-wait"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("Blocking"));
}

/// A whole program that writes a file by name into its working directory
/// (gawk's `awkvars.out`): each suite test runs it in the test's own
/// directory, files or not, so running the suite leaves nothing in the
/// suite's directory and the next `cargo symtest` regenerates it (a file
/// added there would make it refuse to).
#[test]
fn a_suite_run_leaves_nothing_in_the_suite_directory() {
    let dir = crate::support::scratch("suite-cwd");
    std::fs::write(
        dir.join("stamp.c"),
        "#include <stdio.h>\nint main(int argc, char **argv) {\n  FILE *f = fopen(\"stamp.out\", \"w\");\n  if (!f) return 2;\n  fputs(argc > 1 ? argv[1] : \"none\", f);\n  fclose(f);\n  return argc > 1 && argv[1][0] == 'x';\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"stamp\"\nkind = \"program\"\nsources = [\"stamp.c\"]\n\
         args = [\"--sym-args\", \"0\", \"1\", \"1\"]\nmax-time = 5\n",
    )
    .unwrap();
    for round in 0..2 {
        let o = run_in(&dir, &["--max-time", "5"]);
        assert!(o.status.success(), "round {round}: {}", text(&o));
        let suite = dir.join("tests/symtest/stamp");
        let m = make(&suite, &["test"]);
        assert!(m.status.success(), "{}", text(&m));
        assert!(
            !suite.join("stamp.out").exists(),
            "the program wrote into the suite's directory"
        );
    }
    assert!(!dir.join("stamp.out").exists());
}
