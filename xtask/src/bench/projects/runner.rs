//! `cargo xtask bench projects --corpus`: every package of
//! `tests/bench/corpus/corpus.toml`, one row each, written to
//! `<out>/<package>/result.json` as soon as the package finishes (a rerun
//! skips packages that have one, unless `--fresh`); the report is assembled
//! from every result present. `--quick` runs one small package end to end and
//! checks its row (for `cargo xtask test`). `SYMTEST_BENCH_BIN=PATH` runs a
//! fixed `cargo-symtest` binary instead of building the workspace's (the same
//! binary for every shard of one corpus run).

use super::corpus::{self, Member};
use super::recipes::{self, Recipe};
use super::{
    generic, key_line, report, run_logged_until, run_project, LibraryOnly, ProjectResult, Run,
    Step, TimedOut,
};
use crate::{debsrc, paths, setup, util};
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The install that counts a package's programs may take this long after
/// the package's run (its own cap, beyond the package's).
const INSTALL_TIMEOUT_S: u64 = 180;

/// The `cargo-symtest` binary: `$SYMTEST_BENCH_BIN` when set (a fixed
/// binary for every shard of a corpus run, not rebuilt), else the release
/// build of the workspace.
fn binary() -> Result<PathBuf> {
    super::super::bench_binary("bench projects")
}

/// One package's row.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub package: String,
    pub version: String,
    pub build_system: String,
    pub c_lines: u64,
    pub rank: u64,
    pub hand: bool,
    pub reserve: bool,
    /// `ok`, `failed`, `timed out`, or `library only` (the capture worked
    /// and listed libraries, no program: nothing to run until `init
    /// --from-build` lists library targets).
    pub outcome: String,
    /// The step that failed or timed out (empty when ok).
    pub step: String,
    /// Why (the error's first lines).
    pub reason: String,
    pub wall_s: f64,
    /// Packages `apt-get build-dep` installed, and its time.
    pub deps_installed: Option<u64>,
    pub deps_s: Option<f64>,
    /// The ELF programs the package's own install put into a `DESTDIR`.
    pub installed: Option<Vec<String>>,
    /// How they were installed, or why they were not counted.
    pub install_note: String,
    pub project: ProjectResult,
}

impl Row {
    fn new(m: &Member) -> Row {
        Row {
            package: m.name.clone(),
            version: m.version.clone(),
            build_system: m.build_system.clone(),
            c_lines: m.c_lines,
            rank: m.rank,
            hand: m.hand,
            reserve: m.reserve,
            outcome: "ok".into(),
            step: String::new(),
            reason: String::new(),
            wall_s: 0.0,
            deps_installed: None,
            deps_s: None,
            installed: None,
            install_note: String::new(),
            project: ProjectResult {
                name: m.name.clone(),
                version: m.version.clone(),
                ..Default::default()
            },
        }
    }

    /// Whether the row counts as run end to end.
    pub fn ok(&self) -> bool {
        self.outcome == "ok"
    }
}

/// `apt-get build-dep --arch-only` on the package's `.dsc`, after a
/// simulation that must remove nothing: the number of packages installed.
fn build_deps(dsc: &Path, log: &Path, deadline: Option<Instant>) -> Result<u64> {
    let sim = Command::new("apt-get")
        .args([
            "-s",
            "build-dep",
            "--arch-only",
            "-y",
            "--no-install-recommends",
        ])
        .arg(dsc)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()?;
    let out = String::from_utf8_lossy(&sim.stdout);
    if !sim.status.success() {
        let err = String::from_utf8_lossy(&sim.stderr);
        let mut said: Vec<&str> = out
            .lines()
            .chain(err.lines())
            .filter(|l| l.starts_with(' ') || l.starts_with("E:"))
            .collect();
        said.truncate(6);
        bail!(
            "apt-get build-dep (simulated) failed: {}",
            said.join(" ").trim()
        );
    }
    let removed: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("Remv "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    if !removed.is_empty() {
        bail!(
            "apt-get build-dep would remove installed packages ({}): not done",
            removed.join(", ")
        );
    }
    let n = out.lines().filter(|l| l.starts_with("Inst ")).count() as u64;
    if n == 0 {
        return Ok(0);
    }
    if !util::is_root() {
        bail!("{n} build dependencies missing, and not root to install them");
    }
    run_logged_until(
        Command::new("apt-get")
            .args(["build-dep", "--arch-only", "-y", "--no-install-recommends"])
            .arg(dsc)
            .env("DEBIAN_FRONTEND", "noninteractive"),
        log,
        deadline,
    )?;
    Ok(n)
}

/// The package's own install into `<dir>/destdir`: the ELF programs it
/// installed, or why there are none counted.
fn count_installed(r: &Recipe, tree: &Path, dir: &Path) -> (Option<Vec<String>>, String) {
    let dest = dir.join("destdir");
    let _ = std::fs::remove_dir_all(&dest);
    if std::fs::create_dir_all(&dest).is_err() {
        return (None, format!("cannot create {}", dest.display()));
    }
    let build = super::words(r, tree);
    let (command, env, dry) = match generic::install(&build, tree, &dest) {
        Ok(i) => i,
        Err(why) => return (None, why),
    };
    let shown = command
        .join(" ")
        .replace(&dest.display().to_string(), "<destdir>");
    let benv = super::build_env(r, tree);
    if let Some(dry) = dry {
        let o = Command::new(&dry[0])
            .args(&dry[1..])
            .envs(benv.iter().cloned())
            .current_dir(tree)
            .output();
        match o {
            Ok(o) if o.status.success() => {
                if !String::from_utf8_lossy(&o.stdout).contains(&dest.display().to_string()) {
                    return (
                        None,
                        format!("`{shown}` does not honour DESTDIR (its dry run never names it)"),
                    );
                }
            }
            _ => return (None, format!("`{shown}`: no install target")),
        }
    }
    let deadline = Some(Instant::now() + Duration::from_secs(INSTALL_TIMEOUT_S));
    let res = run_logged_until(
        Command::new(&command[0])
            .args(&command[1..])
            .envs(benv)
            .envs(env)
            .current_dir(tree),
        &dir.join("install.log"),
        deadline,
    );
    let out = match res {
        Ok(()) => (
            Some(generic::installed_programs(&dest)),
            format!("`{shown}`"),
        ),
        Err(e) => (
            None,
            format!(
                "`{shown}` failed: {}",
                format!("{e:#}").lines().last().unwrap_or("").trim()
            ),
        ),
    };
    let _ = std::fs::remove_dir_all(&dest);
    out
}

/// Runs one member into `<work>/<name>/` and returns its row.
fn run_member(bin: &Path, m: &Member, work: &Path, budget_s: f64, timeout_s: f64) -> Row {
    let t = Instant::now();
    let deadline = Some(t + Duration::from_secs_f64(timeout_s));
    let dir = work.join(&m.name);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    let mut row = Row::new(m);
    let hand: Option<Recipe<'static>> = if m.hand {
        recipes::all().into_iter().find(|r| r.name == m.name)
    } else {
        None
    };
    let mut step: Step = "fetch";
    let fetched: Result<(PathBuf, Option<PathBuf>)> = match &hand {
        Some(r) => super::fetch(r).map(|p| (p, None)),
        None if m.hand => Err(anyhow::anyhow!("no hand recipe named {}", m.name)),
        None => debsrc::fetch_cached(None, &m.name, &m.version).map(|c| (c.tree, Some(c.dsc))),
    };
    let (src, dsc) = match fetched {
        Ok(f) => f,
        Err(e) => {
            fail(&mut row, step, &e);
            row.wall_s = t.elapsed().as_secs_f64();
            return row;
        }
    };
    let g = generic::recipe_for(&m.build_system, &src);
    let build_words: Vec<&str> = g.build.iter().map(String::as_str).collect();
    let generic_recipe = Recipe {
        name: &m.name,
        package: &m.name,
        version: &m.version,
        unpacked: "",
        marker: "",
        upstream_only: false,
        how: &g.how,
        maint_options: "",
        prepare: &g.prepare,
        build: &build_words,
        harnesses: &[],
        not_programs: &[],
    };
    let r: &Recipe = hand.as_ref().unwrap_or(&generic_recipe);
    row.project.how = r.how.to_string();
    let x = Run {
        bin,
        dir: dir.clone(),
        budget_s,
        plain: false,
        deadline,
    };
    let res = (|| -> Result<()> {
        if let Some(dsc) = &dsc {
            step = "build-deps";
            let td = Instant::now();
            let n = build_deps(dsc, &dir.join("build-deps.log"), deadline);
            row.deps_s = Some(td.elapsed().as_secs_f64());
            row.deps_installed = Some(n?);
        }
        run_project(&x, r, &src, &mut row.project, &mut step)
    })();
    if let Err(e) = &res {
        fail(&mut row, step, e);
    }
    // The package's own install, once its build is there.
    if matches!(step, "listing" | "run") {
        let (installed, note) = count_installed(r, &dir.join("tree"), &dir);
        row.installed = installed;
        row.install_note = note;
    } else {
        row.install_note = format!("not built ({step} did not finish)");
    }
    row.wall_s = t.elapsed().as_secs_f64();
    row
}

fn fail(row: &mut Row, step: Step, e: &anyhow::Error) {
    row.step = step.to_string();
    if e.downcast_ref::<TimedOut>().is_some() {
        row.outcome = "timed out".into();
        row.reason = format!("{e}");
    } else if e.downcast_ref::<LibraryOnly>().is_some() {
        row.outcome = "library only".into();
        row.reason = format!("{e}");
    } else {
        row.outcome = "failed".into();
        let text = format!("{e:#}");
        // The build itself failed under the capture (configure steps run
        // within the captured command fail here too).
        if step == "capture" && text.contains("nothing was captured") {
            row.step = "build".into();
        }
        let key = key_line(&text);
        let mut lines: Vec<&str> = vec![&key];
        lines.extend(text.lines().skip_while(|l| l.trim() == key));
        // The error's chain and the log's last lines: the first and the last few.
        if lines.len() > 9 {
            let tail = lines.split_off(lines.len() - 5);
            lines.truncate(4);
            lines.push("...");
            lines.extend(tail);
        }
        row.reason = lines.join("\n");
    }
}

fn result_path(work: &Path, name: &str) -> PathBuf {
    work.join(name).join("result.json")
}

/// The row a package left, if any.
pub fn read_row(work: &Path, name: &str) -> Option<Row> {
    serde_json::from_str(&std::fs::read_to_string(result_path(work, name)).ok()?).ok()
}

/// `apt-get update` of the machine's lists, once per run (build-dep reads
/// them).
fn update_apt_lists() {
    if util::is_root() {
        let _ = util::run(
            Command::new("apt-get")
                .arg("update")
                .env("DEBIAN_FRONTEND", "noninteractive"),
        );
    }
}

/// The members `o` selects: `--only`, then `--shard K/N` (positions K-1,
/// K-1+N, ... of the rank order).
fn chosen<'m>(members: &'m [Member], o: &super::Options) -> Result<Vec<&'m Member>> {
    if let Some(p) = o
        .only
        .iter()
        .find(|p| !members.iter().any(|m| &m.name == *p))
    {
        return Err(util::UsageError(format!(
            "--only: `{p}` is not in tests/bench/corpus/corpus.toml"
        ))
        .into());
    }
    Ok(members
        .iter()
        .enumerate()
        .filter(|(i, m)| {
            (o.only.is_empty() || o.only.contains(&m.name))
                && o.shard.is_none_or(|(k, n)| i % n == k - 1)
        })
        .map(|(_, m)| m)
        .collect())
}

/// Runs the corpus (or the part `o` selects); writes the report from every
/// row present.
pub fn run(o: &super::Options) -> Result<Vec<Row>> {
    setup::ensure()?;
    setup::ensure_these(setup::PROJECT_PACKAGES)?;
    let members = corpus::members()?;
    let todo = chosen(&members, o)?;
    let root = paths::workspace_root();
    let work = o
        .out
        .clone()
        .unwrap_or_else(|| super::super::target_dir(&root).join("bench").join("corpus"));
    std::fs::create_dir_all(&work)?;
    let bin = binary()?;
    let t = Instant::now();
    let mut updated = false;
    for (i, m) in todo.iter().enumerate() {
        if !o.fresh && result_path(&work, &m.name).is_file() {
            eprintln!(
                "bench projects --corpus: [{}/{}] {}: has a result (--fresh to run it again)",
                i + 1,
                todo.len(),
                m.name
            );
            continue;
        }
        if !m.hand && !updated {
            update_apt_lists();
            updated = true;
        }
        eprintln!(
            "bench projects --corpus: [{}/{}] {} {} ({}, {} C lines)",
            i + 1,
            todo.len(),
            m.name,
            m.version,
            m.build_system,
            m.c_lines
        );
        let row = run_member(&bin, m, &work, o.budget_s, o.package_timeout_s);
        eprintln!(
            "bench projects --corpus: {}: {}{} in {:.0} s",
            m.name,
            row.outcome,
            if row.step.is_empty() {
                String::new()
            } else {
                format!(
                    " at {}: {}",
                    row.step,
                    row.reason.lines().next().unwrap_or("")
                )
            },
            row.wall_s
        );
        std::fs::write(
            result_path(&work, &m.name),
            serde_json::to_string_pretty(&row)?,
        )?;
    }
    let rows: Vec<Option<Row>> = members.iter().map(|m| read_row(&work, &m.name)).collect();
    report::write_corpus(&work, &members, &rows, o, t.elapsed().as_secs_f64())?;
    Ok(rows.into_iter().flatten().collect())
}

/// The package of `--quick`: the sampled `make` package with the fewest C
/// lines.
fn quick_member(members: &[Member]) -> Option<&Member> {
    members
        .iter()
        .filter(|m| !m.hand && m.build_system == "make")
        .min_by_key(|m| (m.c_lines, m.rank))
}

/// The quick subset of the corpus for `cargo xtask test`: one small package
/// (see [`quick_member`]) fetched, built, captured and every listed program
/// run for 5 s; fails unless the row ran end to end with no panic, no engine
/// crash, no native replay difference, no native disagreement, and every
/// emitted suite passes (but its tests that document a bug still present).
pub fn quick() -> Result<()> {
    setup::ensure()?;
    let members = corpus::members()?;
    let m = quick_member(&members)
        .ok_or_else(|| anyhow::anyhow!("corpus.toml has no sampled make package"))?
        .clone();
    let root = paths::workspace_root();
    let work = super::super::target_dir(&root)
        .join("bench")
        .join("corpus-quick");
    std::fs::create_dir_all(&work)?;
    let bin = binary()?;
    update_apt_lists();
    eprintln!(
        "bench projects --quick: {} {} ({} C lines)",
        m.name, m.version, m.c_lines
    );
    let row = run_member(&bin, &m, &work, 5.0, 600.0);
    std::fs::write(
        result_path(&work, &m.name),
        serde_json::to_string_pretty(&row)?,
    )?;
    let problems = quick_problems(&row);
    if !problems.is_empty() {
        bail!(
            "bench projects --quick: {}: {}\n(row in {})",
            m.name,
            problems.join("; "),
            result_path(&work, &m.name).display()
        );
    }
    eprintln!(
        "bench projects --quick: {}: {} target(s) ok, {} kept test(s), 0 panics, 0 crashes, \
         0 replay differences, every suite passes ({} test(s))",
        m.name,
        row.project.targets.len(),
        row.project
            .targets
            .iter()
            .map(|t| t.tests_kept)
            .sum::<u64>(),
        row.project
            .targets
            .iter()
            .filter_map(|t| t.suite_passed)
            .sum::<u64>()
    );
    Ok(())
}

/// What is wrong with a quick row.
fn quick_problems(row: &Row) -> Vec<String> {
    let mut p = Vec::new();
    if !row.ok() {
        p.push(format!(
            "{} at {}: {}",
            row.outcome,
            row.step,
            row.reason.lines().next().unwrap_or("")
        ));
    }
    if row.ok() && row.project.targets.is_empty() {
        p.push("no target ran".into());
    }
    for t in &row.project.targets {
        if t.panic {
            p.push(format!(
                "{}: panic ({})",
                t.name,
                t.message.as_deref().unwrap_or("")
            ));
        }
        if let Some(c) = &t.crash {
            p.push(format!("{}: engine crash ({c})", t.name));
        }
        if t.status != "ok" && !t.panic && t.crash.is_none() {
            p.push(format!(
                "{}: status {} ({})",
                t.name,
                t.status,
                t.message.as_deref().unwrap_or("")
            ));
        }
        if t.replay_differs > 0 || t.native_disagreements > 0 {
            p.push(format!(
                "{}: {} replay difference(s), {} native disagreement(s)",
                t.name, t.replay_differs, t.native_disagreements
            ));
        }
        if !t.suite_passes() {
            let note = t.suite_note.as_deref().unwrap_or("");
            p.push(match (t.suite_passed, t.suite_failed) {
                (Some(n), Some(f)) => {
                    format!("{}: suite: {n} passed, {f} failed: {note}", t.name)
                }
                _ => format!("{}: suite: {note}", t.name),
            });
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn member(name: &str, bs: &str, lines: u64, rank: u64, hand: bool) -> Member {
        Member {
            name: name.into(),
            version: "1".into(),
            build_system: bs.into(),
            c_lines: lines,
            rank,
            hand,
            reserve: false,
        }
    }

    #[test]
    fn failures_are_told_by_their_key_line() {
        let text = "cargo symtest init --from-build on x: `init` failed (exit status: 2); \
                    last lines of init.log:\n-- Detecting C compile features\n\
                    CMake Error at CMakeLists.txt:9 (set_target_properties):\n  \
                    set_target_properties called with incorrect number of arguments.\n\
                    error: the build command `sh` failed (exit status: 1); nothing was captured";
        assert_eq!(
            key_line(text),
            "CMake Error at CMakeLists.txt:9 (set_target_properties): set_target_properties \
             called with incorrect number of arguments."
        );
        let mut row = Row::new(&member("x", "cmake", 1, 1, false));
        fail(&mut row, "capture", &anyhow::anyhow!("{text}"));
        assert_eq!(row.step, "build");
        assert!(row.reason.starts_with("CMake Error"), "{}", row.reason);
        assert_eq!(key_line("just this"), "just this");
    }

    #[test]
    fn shards_partition_the_corpus() {
        let ms: Vec<Member> = (0..10)
            .map(|i| member(&format!("p{i}"), "make", 10, i, false))
            .collect();
        let mut seen = Vec::new();
        for k in 1..=3 {
            let o = super::super::Options::try_parse_from([
                "projects".to_string(),
                "--corpus".into(),
                "--shard".into(),
                format!("{k}/3"),
            ])
            .unwrap();
            seen.extend(chosen(&ms, &o).unwrap().iter().map(|m| m.name.clone()));
        }
        seen.sort();
        let mut all: Vec<String> = ms.iter().map(|m| m.name.clone()).collect();
        all.sort();
        assert_eq!(seen, all);
        let o =
            super::super::Options::try_parse_from(["projects", "--corpus", "--only", "x"]).unwrap();
        assert!(chosen(&ms, &o).is_err());
    }

    #[test]
    fn quick_takes_the_smallest_sampled_make_package() {
        let ms = vec![
            member("a", "make", 500, 1, false),
            member("b", "cmake", 10, 2, false),
            member("c", "make", 100, 3, false),
            member("d", "make", 5, 4, true),
        ];
        assert_eq!(quick_member(&ms).unwrap().name, "c");
    }

    #[test]
    fn a_quick_row_with_a_crash_is_refused() {
        let mut row = Row::new(&member("a", "make", 1, 1, false));
        assert_eq!(quick_problems(&row), ["no target ran"]);
        row.project.targets.push(super::super::TargetResult {
            name: "a".into(),
            kind: "program".into(),
            artifact: "a".into(),
            status: "engine-failed".into(),
            paths: 0,
            tests_written: 0,
            tests_kept: 0,
            replay_differs: 0,
            unconfirmed: 0,
            bugs: Vec::new(),
            lines: (0, 0),
            unsupported: None,
            budget_s: 5.0,
            message: Some("the engine was killed by signal 11 (SIGSEGV: crashed)".into()),
            native_disagreements: 0,
            panic: false,
            crash: Some("the engine was killed by signal 11 (SIGSEGV: crashed)".into()),
            module: None,
            suite_dir: None,
            suite_passed: Some(3),
            suite_failed: Some(1),
            suite_bugs: Some(1),
            suite_note: None,
            suite_s: Some(1.0),
        });
        let p = quick_problems(&row);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].contains("engine crash"), "{p:?}");
        // A suite that fails (other than by a documented bug), or did not run.
        let t = &mut row.project.targets[0];
        t.crash = None;
        t.status = "ok".into();
        t.suite_failed = Some(2);
        t.suite_note = Some("test000002: expected exit 1, got exit 0".into());
        let p = quick_problems(&row);
        assert_eq!(
            p,
            ["a: suite: 3 passed, 2 failed: test000002: expected exit 1, got exit 0"]
        );
        let t = &mut row.project.targets[0];
        (t.suite_passed, t.suite_failed, t.suite_bugs) = (None, None, None);
        t.suite_note = Some("did not run: x.c:1: fatal error: y.h".into());
        assert_eq!(
            quick_problems(&row),
            ["a: suite: did not run: x.c:1: fatal error: y.h"]
        );
    }

    #[test]
    fn a_library_only_capture_is_not_a_failure() {
        let mut row = Row::new(&member("a", "cmake", 1, 1, false));
        let e: anyhow::Error = LibraryOnly {
            what: "init --from-build listed no program (1 output(s) with bitcode, 0 left out; \
                   libraries: liba.a)"
                .into(),
        }
        .into();
        fail(&mut row, "listing", &e);
        assert_eq!(row.outcome, "library only");
        assert!(!row.ok());
        assert!(row.reason.ends_with("libraries: liba.a)"), "{}", row.reason);
    }
}
