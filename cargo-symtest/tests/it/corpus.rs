//! The C corpus (`tests/programs/*.c`): each program states its expectations inline
//! (see `tests/programs/README.md`). Every program is explored by the real binary,
//! the reported errors and path counts are compared with the expectations, and
//! every test written is replayed natively: the replay rate must be 100%.

use crate::support::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[derive(Debug, Default)]
struct Expect {
    errors: BTreeSet<(String, u32)>,
    paths: Option<u64>,
    no_errors: bool,
    options: Vec<String>,
    /// `// CFLAGS:` extra compiler flags.
    cflags: Vec<String>,
    /// `// EXPECT-STAT: key N`: a counter of stats.json.
    stats: Vec<(String, u64)>,
}

fn parse_expectations(src: &str) -> Expect {
    let mut e = Expect::default();
    for (i, line) in src.lines().enumerate() {
        let line_no = i as u32 + 1;
        if let Some(rest) = line.split("EXPECT-ERROR:").nth(1) {
            e.errors.insert((rest.trim().to_string(), line_no));
        }
        if let Some(rest) = line.split("EXPECT-PATHS:").nth(1) {
            e.paths = Some(rest.trim().parse().expect("EXPECT-PATHS takes a number"));
        }
        if line.contains("EXPECT-NO-ERRORS") {
            e.no_errors = true;
        }
        if let Some(rest) = line.split("OPTIONS:").nth(1) {
            e.options.extend(rest.split_whitespace().map(String::from));
        }
        if let Some(rest) = line.split("CFLAGS:").nth(1) {
            e.cflags.extend(rest.split_whitespace().map(String::from));
        }
        if let Some(rest) = line.split("EXPECT-STAT:").nth(1) {
            let mut w = rest.split_whitespace();
            let (Some(k), Some(n)) = (w.next(), w.next().and_then(|n| n.parse().ok())) else {
                panic!("EXPECT-STAT takes a stats.json key and a number: {line}");
            };
            e.stats.push((k.to_string(), n));
        }
    }
    e
}

fn stat(out: &Path, key: &str) -> u64 {
    let s = std::fs::read_to_string(out.join("stats.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("stats.json lacks {key}"))
}

/// Kinds whose tests cannot be replayed natively (the engine's own limits).
fn replayable(kind_or_exit: &str) -> bool {
    !matches!(kind_or_exit, "exec" | "external" | "model" | "solver")
}

#[test]
fn corpus_programs_meet_their_expectations_and_replay_natively() {
    run_corpus("tests/programs", 40, BITCODE_FLAGS);
}

#[test]
fn klee_style_harnesses_meet_their_expectations_and_replay_natively() {
    run_corpus("tests/klee", 15, KLEE_FLAGS);
}

/// Can a process of this user map the page at address 0 (below
/// `vm.mmap_min_addr`: root with raw I/O allowed)? What the native replay
/// of a fixed object there needs.
fn can_map_page_zero() -> bool {
    // SAFETY: a private anonymous mapping at 0 that nothing else uses,
    // unmapped again at once.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        );
        if p == libc::MAP_FAILED {
            return false;
        }
        libc::munmap(p, 4096);
        p.is_null()
    }
}

/// Explores every program of `dir` (relative to the workspace) compiled
/// with `flags` (+ its `CFLAGS:`), checks its expectations and replays every
/// test natively.
fn run_corpus(dir: &str, at_least: usize, flags: &[&str]) {
    let root = workspace().join(dir);
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    programs.sort();
    assert!(
        programs.len() >= at_least,
        "{dir} should hold at least {at_least} programs, has {}",
        programs.len()
    );
    let dir = scratch(&format!("corpus-{}", dir.replace('/', "-")));
    let mut failures = Vec::new();
    let (mut replayed, mut reproduced) = (0u32, 0u32);
    for prog in &programs {
        let name = prog.file_stem().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(prog).unwrap();
        let expect = parse_expectations(&src);
        let work = dir.join(&name);
        std::fs::create_dir_all(&work).unwrap();
        let cflags: Vec<&str> = expect.cflags.iter().map(String::as_str).collect();
        let bc = match compile_with(prog, &work, flags, &cflags) {
            Ok(bc) => bc,
            Err(e) => {
                failures.push(format!("{name}: does not compile:\n{e}"));
                continue;
            }
        };
        let out = work.join("out");
        let mut args: Vec<String> = vec![
            "exec".into(),
            bc.display().to_string(),
            "--output-dir".into(),
            out.display().to_string(),
            // Some corpus queries (64-bit division, popcount identities) take
            // seconds each; on a loaded machine neither the run nor a query may
            // hit its limit (every program finishes well before either).
            "--max-time".into(),
            "600".into(),
            "--max-solver-time".into(),
            "120".into(),
            "--quiet".into(),
        ];
        args.extend(expect.options.iter().cloned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = symtest(&args);
        if !run.status.success() {
            failures.push(format!(
                "{name}: exec failed: {}",
                String::from_utf8_lossy(&run.stderr)
            ));
            continue;
        }
        let errors = reported_errors(&out);
        if !expect.errors.is_empty() || expect.no_errors {
            let bugs: BTreeSet<(String, u32)> = errors
                .iter()
                .filter(|(k, _)| replayable(k))
                .cloned()
                .collect();
            let want: BTreeSet<(String, u32)> = expect.errors.clone();
            if bugs != want && errors != want {
                failures.push(format!("{name}: errors {errors:?}, expected {want:?}"));
            }
        }
        if let Some(p) = expect.paths {
            let got = stat(&out, "paths_completed");
            if got != p {
                failures.push(format!("{name}: {got} paths completed, expected {p}"));
            }
        }
        for (key, want) in &expect.stats {
            let got = stat(&out, key);
            if got != *want {
                failures.push(format!("{name}: stats.json {key} = {got}, expected {want}"));
            }
        }
        // Native replay of every test.
        let tests = std::fs::read_dir(&out)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "ktest")
            })
            .count();
        if src.contains("NO-NATIVE-REPLAY") || tests == 0 {
            continue;
        }
        if src.contains("NATIVE-REPLAY-NEEDS-PAGE-ZERO") && !can_map_page_zero() {
            eprintln!("{name}: not replayed: this process may not map the page at address 0");
            continue;
        }
        let build = std::process::Command::new(bin())
            .args(["replay", "--source"])
            .arg(prog)
            .arg("--timeout")
            .arg("10")
            .arg(&out)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&build.stdout);
        for line in stdout.lines() {
            if line.contains(".ktest:") && !line.contains(": skipped (") {
                replayed += 1;
                if line.ends_with(" ok") {
                    reproduced += 1;
                } else if !line.contains("no recorded outcome") {
                    failures.push(format!("{name}: replay: {line}"));
                }
            }
        }
        if !build.status.success() && build.status.code() != Some(1) {
            failures.push(format!(
                "{name}: replay failed: {}",
                String::from_utf8_lossy(&build.stderr)
            ));
        }
    }
    eprintln!(
        "{}: {} programs, {reproduced}/{replayed} tests reproduced natively",
        root.display(),
        programs.len()
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(replayed > 0);
    assert_eq!(reproduced, replayed, "replay rate must be 100%");
}
