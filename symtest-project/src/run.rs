//! `cargo symtest` with no subcommand: the project pipeline of FEATURES §2 — find the
//! targets, then per target (in parallel, each engine run in its own process) compile,
//! explore, minimize, replay under gcov and emit a native regression suite; finally
//! the summary, the baseline gate, SARIF and JUnit.

use crate::crosscheck::report::CrosscheckReport;
use crate::discovery::{self, Crosscheck, DiscoveryOptions, Project, Target};
use crate::progress::Event;
use crate::report::{self, Status, TargetReport};
use crate::{
    baseline, config, from_build, fsutil, junit, pipeline, sarif, Error, EXIT_BAD_INPUT, EXIT_FOUND,
};
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};

/// The share of a target's budget a gate run directs at the changed lines
/// (the engine's default; the rest is undirected).
pub const DEFAULT_DIRECTED_SHARE: f64 = 0.7;

/// Default per-target exploration budget in seconds.
pub const DEFAULT_MAX_TIME: f64 = 60.0;

/// Where targets are found (shared by the pipeline and `list`).
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Only the targets of these packages.
    pub packages: Vec<String>,
    /// This symtest.toml instead of discovering targets.
    pub config: Option<PathBuf>,
    /// Only the targets with these names.
    pub targets: Vec<String>,
    /// Checks the `exec` command line the pipeline will run for a target
    /// (its `args` and `exec-args`), so a mistake is a config error before
    /// anything runs; given by the binary that owns `exec`'s options.
    pub check_exec_args: Option<crate::discovery::ExecArgsCheck>,
}

/// Options of one pipeline run (`cargo symtest` with no subcommand).
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub select: Selection,
    /// Directory for intermediate builds (default: `target/` of the workspace, or
    /// `symtest-out/.build` outside Cargo).
    pub target_dir: Option<PathBuf>,
    /// Where the per-target results go (default `symtest-out/` at the project root).
    pub out_dir: Option<PathBuf>,
    /// Exploration budget per target in seconds (overrides the targets' `max-time`).
    pub max_time: Option<f64>,
    /// A total exploration budget split evenly across the targets.
    pub total_time: Option<f64>,
    /// Targets processed in parallel (default: the number of CPUs).
    pub jobs: Option<usize>,
    /// `K/N`: only every n-th target starting at the k-th (1-based).
    pub partition: Option<String>,
    /// Exit with 1 on a bug this baseline file does not list.
    pub baseline: Option<PathBuf>,
    /// Rewrite the baseline file with the bugs found.
    pub update_baseline: bool,
    /// Write a SARIF 2.1.0 report here.
    pub sarif: Option<PathBuf>,
    /// Write a JUnit XML report here.
    pub junit: Option<PathBuf>,
    /// Do not write the regression suites.
    pub no_emit: bool,
    /// Count every error as a bug (no native validation).
    pub no_validate: bool,
    /// Fail at once (exit 2) when another run holds the output or build
    /// directory, instead of waiting for it.
    pub no_wait: bool,
    /// A gate run: direct exploration at the lines changed since this git
    /// revision, seeded by the previous run's tests; report the committed
    /// suites' behaviour changes.
    pub changed_since: Option<String>,
    /// The share of each target's budget a gate run directs (default 0.7).
    pub directed_share: Option<f64>,
}

/// What a finished run hands back for drawing.
#[derive(Debug)]
pub struct Finished {
    /// 0 success, 1 a target failed or a bug not in the baseline, 2 bad input.
    pub exit_code: u8,
    pub reports: Vec<TargetReport>,
    /// The crosschecks' reports.
    pub crosschecks: Vec<CrosscheckReport>,
    /// The summary table.
    pub summary: String,
    /// The closing `finished` event of `--message-format json`.
    pub closing: serde_json::Value,
    /// The baseline gate's verdict (printed whatever the output mode).
    pub gate: String,
}

fn cwd() -> Result<PathBuf, Error> {
    Ok(std::env::current_dir().context("reading the current directory")?)
}

/// Discovery with the selection applied.
pub fn select(s: &Selection) -> Result<Project, Error> {
    let cwd = cwd()?;
    let opts = DiscoveryOptions {
        cwd: &cwd,
        config: s.config.as_deref(),
        packages: &s.packages,
        check_exec_args: s.check_exec_args,
    };
    let mut project = discovery::discover(&opts)?;
    if project.targets.is_empty() {
        return Err(Error::BadInput(discovery::no_targets_message(&project)));
    }
    // `--target NAME` picks targets and crosschecks by name.
    for name in &s.targets {
        if !project.targets.iter().any(|t| &t.name == name)
            && !project.crosschecks.iter().any(|c| &c.name == name)
        {
            let names: Vec<&str> = project
                .targets
                .iter()
                .map(|t| t.name.as_str())
                .chain(project.crosschecks.iter().map(|c| c.name.as_str()))
                .collect();
            return Err(Error::BadInput(format!(
                "no target named `{name}` (targets: {})",
                names.join(", ")
            )));
        }
    }
    if !s.targets.is_empty() {
        project.targets.retain(|t| s.targets.contains(&t.name));
        project.crosschecks.retain(|c| s.targets.contains(&c.name));
    }
    Ok(project)
}

/// Where the results go (`--out-dir`, default `symtest-out/` at the project
/// root) and where intermediate builds and captures go (`--target-dir`/symtest,
/// the workspace's `target/symtest`, or `symtest-out/.build`).
pub fn locations(
    project: &Project,
    out_dir: Option<&Path>,
    target_dir: Option<&Path>,
) -> Result<(PathBuf, PathBuf), Error> {
    let cwd = cwd()?;
    let abs = |p: &Path| {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            cwd.join(p)
        }
    };
    let out_root = out_dir.map_or_else(|| project.root.join("symtest-out"), abs);
    let build_root = match target_dir {
        Some(d) => abs(d).join("symtest"),
        None if project.cargo => project.root.join("target").join("symtest"),
        None => out_root.join(".build"),
    };
    Ok((out_root, build_root))
}

fn parse_partition(s: &str) -> Option<(usize, usize)> {
    let (k, n) = s.split_once('/')?;
    let (k, n) = (k.trim().parse().ok()?, n.trim().parse().ok()?);
    (n >= 1 && k >= 1 && k <= n).then_some((k, n))
}

/// The budget of a target or crosscheck whose own `max-time` is `own`, among
/// `items` run on `jobs` workers.
fn budget_of(a: &RunOptions, own: Option<f64>, items: usize, jobs: usize) -> f64 {
    if let Some(m) = a.max_time {
        return m;
    }
    if let Some(total) = a.total_time {
        let rounds = items.div_ceil(jobs.max(1)).max(1);
        return total / rounds as f64;
    }
    own.unwrap_or(DEFAULT_MAX_TIME)
}

/// One unit of a run's work: a target's pipeline or a crosscheck.
#[derive(Clone, Copy)]
enum Work<'a> {
    Target(&'a Target),
    Crosscheck(&'a Crosscheck),
}

/// The targets a run's captures must cover: those run, and the programs of
/// its crosschecks (once each).
fn captured_targets(project: &Project) -> Vec<Target> {
    let mut all: Vec<Target> = project.targets.clone();
    for c in &project.crosschecks {
        for t in c.form.targets() {
            if !all.iter().any(|x| x.name == t.name) {
                all.push(t.clone());
            }
        }
    }
    all
}

/// Runs the pipeline; `on_event` sees every [`Event`] on the calling thread.
pub fn run(a: RunOptions, on_event: &mut dyn FnMut(Event)) -> Result<Finished, Error> {
    for (name, v) in [("max-time", a.max_time), ("total-time", a.total_time)] {
        if let Some(v) = v {
            if !v.is_finite() || v <= 0.0 || v > config::MAX_SECONDS {
                return Err(Error::BadInput(format!(
                    "--{name} must be a positive number of seconds up to {:e} (got {v})",
                    config::MAX_SECONDS
                )));
            }
        }
    }
    if a.jobs == Some(0) {
        return Err(Error::BadInput("--jobs must be at least 1".into()));
    }
    let partition = match a.partition.as_deref().map(|p| (p, parse_partition(p))) {
        Some((p, None)) => {
            return Err(Error::BadInput(format!(
                "--partition `{p}` must be K/N with 1 <= K <= N (e.g. 1/2)"
            )));
        }
        Some((_, Some(kn))) => Some(kn),
        None => None,
    };
    let baseline_known = match (&a.baseline, a.update_baseline) {
        (Some(p), false) => Some(baseline::load(p).map_err(|e| Error::BadInput(format!("{e:#}")))?),
        _ => None,
    };
    let mut project = select(&a.select)?;
    if let Some((k, n)) = partition {
        partition_project(&mut project, k, n);
    }
    let n_items = project.targets.len() + project.crosschecks.len();
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(n_items.max(1));
    let (out_root, build_root) =
        locations(&project, a.out_dir.as_deref(), a.target_dir.as_deref())?;
    // One run at a time writes these directories (crate::lock); the lock is
    // held until the run returns.
    let _lock = crate::lock::lock_dirs(
        &[out_root.clone(), build_root.clone()],
        !a.no_wait,
        on_event,
    )?;
    on_event(Event::Started {
        targets: project.targets.len(),
        crosschecks: project.crosschecks.len(),
    });
    let models_include = crate::paths::models_dir().join("include");
    // Targets from a build: each build runs once, before any target, so a
    // failing build stops the run with nothing written.
    let captured = from_build::capture_all(
        &project.root,
        &captured_targets(&project),
        &build_root,
        on_event,
    )?;
    // Seeds from the projects' own tests: after the builds, before any
    // target, one test command at a time (each runs the built programs).
    let seeds = crate::seeds::prepare_all(&project.targets, &build_root, on_event)?;
    std::fs::create_dir_all(&out_root)
        .with_context(|| format!("creating {}", out_root.display()))?;
    let gate = match &a.changed_since {
        Some(base) => {
            let share = a.directed_share.unwrap_or(DEFAULT_DIRECTED_SHARE);
            if !(0.0..=1.0).contains(&share) {
                return Err(Error::BadInput(format!(
                    "--directed-share must be between 0 and 1 (got {share})"
                )));
            }
            let changed =
                crate::gate::changed_since(&project.root, base).map_err(Error::BadInput)?;
            Some(pipeline::Gate {
                changed,
                directed_share: share,
            })
        }
        None => None,
    };
    let ctx = pipeline::Ctx {
        root: project.root.clone(),
        out_root,
        build_root,
        models_include,
        emit: !a.no_emit,
        validate: !a.no_validate,
        captured,
        gate,
        seeds,
    };
    let (reports, crosschecks) = work_all(&a, &project, &ctx, jobs, on_event);
    let all = serde_json::json!({ "targets": reports, "crosschecks": crosschecks });
    fsutil::write_atomic(
        &ctx.out_root.join("summary.json"),
        serde_json::to_string_pretty(&all)?.as_bytes(),
    )?;
    Ok(finish(&a, &project, reports, crosschecks, baseline_known)?)
}

/// Only every n-th target and crosscheck starting at the k-th (1-based),
/// crosschecks numbered after the targets.
fn partition_project(project: &mut Project, k: usize, n: usize) {
    let offset = project.targets.len();
    let keep = |i: usize| i % n == k - 1;
    let targets = std::mem::take(&mut project.targets);
    project.targets = targets
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep(*i))
        .map(|(_, t)| t)
        .collect();
    let crosschecks = std::mem::take(&mut project.crosschecks);
    project.crosschecks = crosschecks
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep(i + offset))
        .map(|(_, c)| c)
        .collect();
}

/// Every target's pipeline and every crosscheck on `jobs` workers; events
/// reach `on_event` on the calling thread. The reports, in the project's order.
fn work_all(
    a: &RunOptions,
    project: &Project,
    ctx: &pipeline::Ctx,
    jobs: usize,
    on_event: &mut dyn FnMut(Event),
) -> (Vec<TargetReport>, Vec<CrosscheckReport>) {
    let n_items = project.targets.len() + project.crosschecks.len();
    let work: Vec<Work> = project
        .targets
        .iter()
        .map(Work::Target)
        .chain(project.crosschecks.iter().map(Work::Crosscheck))
        .collect();
    let queue: Mutex<Vec<Work>> = Mutex::new(work.into_iter().rev().collect());
    let (tx, rx) = mpsc::channel::<Event>();
    let mut reports: Vec<(usize, TargetReport)> = Vec::new();
    let mut crosschecks: Vec<CrosscheckReport> = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let queue = &queue;
            scope.spawn(move || {
                let tx = Mutex::new(tx);
                let send = |e: Event| {
                    let _ = tx.lock().expect("sender").send(e);
                };
                loop {
                    let Some(w) = queue.lock().expect("queue").pop() else {
                        break;
                    };
                    match w {
                        Work::Target(t) => {
                            let budget = budget_of(a, t.max_time, n_items, jobs);
                            let r = pipeline::process(t, ctx, budget, &send);
                            send(Event::TargetFinished {
                                report: Box::new(r),
                            });
                        }
                        Work::Crosscheck(c) => {
                            let budget = budget_of(a, c.max_time, n_items, jobs);
                            let r = crate::crosscheck::process(c, ctx, budget, &send);
                            send(Event::CrosscheckFinished {
                                report: Box::new(r),
                            });
                        }
                    }
                }
            });
        }
        drop(tx);
        for e in rx {
            if let Event::TargetFinished { report } = &e {
                let i = project
                    .targets
                    .iter()
                    .position(|t| t.name == report.name)
                    .unwrap_or(0);
                reports.push((i, (**report).clone()));
            }
            if let Event::CrosscheckFinished { report } = &e {
                crosschecks.push((**report).clone());
            }
            on_event(e);
        }
    });
    reports.sort_by_key(|(i, _)| *i);
    let reports: Vec<TargetReport> = reports.into_iter().map(|(_, r)| r).collect();
    crosschecks.sort_by_key(|r| {
        project
            .crosschecks
            .iter()
            .position(|c| c.name == r.name)
            .unwrap_or(0)
    });
    (reports, crosschecks)
}

/// A gate run: the changed lines each target reached, and behaviour
/// changes (listed apart from bugs; they do not fail the run).
fn gate_notes(a: &RunOptions, reports: &[TargetReport]) -> String {
    let mut gate = String::new();
    for r in reports {
        if a.changed_since.is_some() && r.status == Status::Ok {
            let reached: Vec<String> = r
                .changed_lines
                .iter()
                .filter_map(|l| {
                    l.reached_by
                        .as_ref()
                        .map(|t| format!("{}:{} by {t}", l.file, l.line))
                })
                .collect();
            let missed: Vec<String> = r
                .changed_lines
                .iter()
                .filter(|l| l.reached_by.is_none())
                .map(|l| format!("{}:{}", l.file, l.line))
                .collect();
            gate.push_str(&format!(
                "changed lines: {}: {} of {} with code reached{}{}
",
                r.name,
                reached.len(),
                r.changed_lines.len(),
                if reached.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", reached.join(", "))
                },
                if missed.is_empty() {
                    String::new()
                } else {
                    format!("; not reached: {}", missed.join(", "))
                }
            ));
        }
        for b in &r.behaviour_changes {
            gate.push_str(&format!(
                "behaviour change: {}: {}: {}
",
                r.name, b.test, b.detail
            ));
            if let Some(rep) = &b.reproduce {
                gate.push_str(&format!(
                    "    reproduce: {rep}
"
                ));
            }
        }
    }
    gate
}

fn finish(
    a: &RunOptions,
    project: &Project,
    reports: Vec<TargetReport>,
    crosschecks: Vec<CrosscheckReport>,
    known: Option<Vec<baseline::Bug>>,
) -> anyhow::Result<Finished> {
    let bugs: Vec<baseline::Bug> = reports
        .iter()
        .flat_map(|r| r.bugs.iter().cloned())
        .collect();
    let mut code = 0u8;
    if reports
        .iter()
        .any(|r| matches!(r.status, Status::EngineFailed | Status::Failed))
        || crosschecks
            .iter()
            .any(|r| matches!(r.status, Status::EngineFailed | Status::Failed))
    {
        code = EXIT_FOUND;
    }
    // A crosscheck claims the two programs equivalent: a mismatch the native
    // programs confirm fails the run, as a failed target does.
    if crosschecks.iter().any(|r| r.mismatches_confirmed > 0) {
        code = EXIT_FOUND;
    }
    let mut gate = String::new();
    if let Some(known) = &known {
        let new = baseline::new_bugs(&bugs, known);
        if !new.is_empty() {
            code = EXIT_FOUND;
            gate.push_str(&format!("{} new bug(s) not in the baseline:\n", new.len()));
            for b in &new {
                gate.push_str(&format!(
                    "  {}: {}:{}: {}: {} in {} [id {}]\n",
                    b.target, b.file, b.line, b.kind, b.message, b.function, b.id
                ));
            }
        } else {
            gate.push_str(&format!("baseline: no new bugs ({} known)\n", bugs.len()));
        }
    }
    gate.push_str(&gate_notes(a, &reports));
    if a.update_baseline {
        let path = a
            .baseline
            .clone()
            .unwrap_or_else(|| project.root.join("symtest-baseline.json"));
        // Keep the entries of targets not run this time (partitions, --target).
        let mut all: Vec<baseline::Bug> = baseline::load(&path)
            .unwrap_or_default()
            .into_iter()
            .filter(|b| !reports.iter().any(|r| r.name == b.target))
            .collect();
        all.extend(bugs.iter().cloned());
        baseline::save(&path, &all)?;
        gate.push_str(&format!(
            "baseline: wrote {} bug(s) to {}\n",
            all.len(),
            path.display()
        ));
    }
    if let Some(p) = &a.sarif {
        fsutil::write_atomic(p, sarif::render(&reports).as_bytes())?;
    }
    if let Some(p) = &a.junit {
        fsutil::write_atomic(p, junit::render(&reports).as_bytes())?;
    }
    if reports.iter().any(|r| r.status == Status::CompileError)
        || crosschecks.iter().any(|r| r.status == Status::CompileError)
    {
        code = EXIT_BAD_INPUT;
    }
    let mut summary = if reports.is_empty() {
        String::new()
    } else {
        report::table(&reports)
    };
    summary.push_str(&crate::crosscheck::report::lines(&crosschecks));
    let closing = serde_json::json!({
        "event": "finished",
        "exit_code": code,
        "targets": reports.len(),
        "crosschecks": crosschecks.len(),
        "mismatches_confirmed": crosschecks.iter().map(|r| r.mismatches_confirmed).sum::<usize>(),
        "mismatches_not_confirmed": crosschecks.iter().map(|r| r.unconfirmed()).sum::<usize>(),
        "bugs": bugs.len(),
        "not_reproduced": reports.iter().map(|r| r.unconfirmed.len()).sum::<usize>(),
        "new_bugs": known.as_ref().map(|k| baseline::new_bugs(&bugs, k).len()),
    });
    Ok(Finished {
        exit_code: code,
        reports,
        crosschecks,
        summary,
        closing,
        gate,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn target(kind: config::Kind) -> discovery::Target {
        let dir = std::env::temp_dir();
        discovery::Target {
            name: "t".into(),
            kind,
            package: None,
            root: dir.clone(),
            config_file: dir.join("symtest.toml"),
            line: 1,
            sources: vec![],
            include: vec![],
            defines: vec![],
            cflags: vec![],
            sanitize: vec![],
            args: vec!["--sym-args".into(), "0".into(), "2".into(), "4".into()],
            max_time: Some(7.0),
            max_instructions: None,
            max_memory: None,
            seed: Some(3),
            option_seeds: true,
            search: vec![],
            entry_point: None,
            exec_args: vec![],
            suite_dir: dir,
            build: None,
            library: None,
            seeds: None,
        }
    }

    #[test]
    fn program_targets_get_the_posix_environment() {
        let bc = std::path::Path::new("p.bc");
        let h = crate::explore::exec_args(&target(config::Kind::Harness), bc, bc, 5.0);
        assert!(
            !h.iter().any(|a| a.starts_with("--libc") || a == "--"),
            "{h:?}"
        );
        let p = crate::explore::exec_args(&target(config::Kind::Program), bc, bc, 5.0);
        let tail: Vec<&str> = p
            .iter()
            .map(String::as_str)
            .skip_while(|a| *a != "--libc=musl")
            .collect();
        assert_eq!(
            tail,
            [
                "--libc=musl",
                "--posix-runtime",
                "--option-seeds",
                "--",
                "--sym-args",
                "0",
                "2",
                "4"
            ]
        );
        assert!(p.windows(2).any(|w| w == ["--seed", "3"]), "{p:?}");
        assert!(!h.iter().any(|a| a == "--option-seeds"), "{h:?}");
        let mut off = target(config::Kind::Program);
        off.option_seeds = false;
        let p = crate::explore::exec_args(&off, bc, bc, 5.0);
        assert!(!p.iter().any(|a| a == "--option-seeds"), "{p:?}");
    }

    #[test]
    fn partitions_and_budgets() {
        assert_eq!(parse_partition("2/3"), Some((2, 3)));
        assert_eq!(parse_partition("0/3"), None);
        assert_eq!(parse_partition("4/3"), None);
        assert_eq!(parse_partition("x"), None);
        let args = |max: Option<f64>, total: Option<f64>| RunOptions {
            max_time: max,
            total_time: total,
            ..RunOptions::default()
        };
        let t = target(config::Kind::Harness);
        assert_eq!(budget_of(&args(None, None), t.max_time, 4, 2), 7.0);
        assert_eq!(budget_of(&args(Some(3.0), None), t.max_time, 4, 2), 3.0);
        // 5 targets on 2 jobs run in 3 rounds.
        assert_eq!(budget_of(&args(None, Some(30.0)), t.max_time, 5, 2), 10.0);
    }
}
