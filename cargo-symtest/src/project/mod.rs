//! `cargo symtest` with no subcommand: the project pipeline of FEATURES §2 — find the
//! targets, then per target (in parallel, each engine run in its own process) compile,
//! explore, minimize, replay under gcov and emit a native regression suite; finally
//! the summary, the baseline gate, SARIF and JUnit.

mod baseline;
mod compile;
pub mod config;
mod coverage;
mod discovery;
mod emit;
mod escape;
mod explore;
mod fsutil;
mod gcov;
mod glob;
pub mod init;
mod junit;
mod minimize;
mod native;
mod pipeline;
pub mod progress;
mod report;
mod sarif;
mod testcases;

use anyhow::{Context, Result};
use clap::Args;
use discovery::{DiscoveryOptions, Project, Target};
use progress::{Color, Event, MessageFormat, Reporter};
use report::{Status, TargetReport};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};

/// Default per-target exploration budget in seconds.
pub const DEFAULT_MAX_TIME: f64 = 60.0;

/// Options shared by the pipeline, `list` and `init`: where targets are found.
#[derive(Args, Debug, Clone, Default)]
pub struct SelectArgs {
    /// Only the targets of this package (repeatable).
    #[arg(short = 'p', long = "package", value_name = "SPEC")]
    pub packages: Vec<String>,
    /// All packages of the workspace (the default).
    #[arg(long)]
    pub workspace: bool,
    /// Use this symtest.toml instead of discovering targets.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Only the target with this name (repeatable).
    #[arg(long = "target", value_name = "NAME")]
    pub targets: Vec<String>,
}

#[derive(Args, Debug, Clone)]
pub struct ProjectArgs {
    #[command(flatten)]
    pub select: SelectArgs,
    /// Directory for intermediate builds (default: `target/` of the workspace, or
    /// `symtest-out/.build` outside Cargo).
    #[arg(long, value_name = "DIR")]
    pub target_dir: Option<PathBuf>,
    /// Where the per-target results go (default `symtest-out/` at the project root).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Exploration budget per target in seconds (overrides the targets' `max-time`;
    /// default: the target's `max-time`, else 60).
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// A total exploration budget split evenly across the targets (taking `--jobs` into account).
    #[arg(long, value_name = "SECONDS", conflicts_with = "max_time")]
    pub total_time: Option<f64>,
    /// Targets processed in parallel (default: the number of CPUs).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Run only every n-th target starting at the k-th (1-based), e.g. `2/3`, so CI
    /// matrix jobs share the work.
    #[arg(long, value_name = "K/N")]
    pub partition: Option<String>,
    /// Exit with 1 if a bug is found that this baseline file does not list.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Rewrite the baseline file (`--baseline`, default `symtest-baseline.json`) with the bugs found.
    #[arg(long)]
    pub update_baseline: bool,
    /// Write a SARIF 2.1.0 report (for code scanning).
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// Write a JUnit XML report.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Do not write the regression suites (tests/symtest/<target>/).
    #[arg(long)]
    pub no_emit: bool,
    /// Count every error the engine reports as a bug. By default an error is a
    /// bug (in the summary, SARIF, JUnit and the baseline) only once its test
    /// reproduces it on the native sanitizer build; the others are listed as
    /// not reproduced, with what the native run did.
    #[arg(long)]
    pub no_validate: bool,
    /// human (status lines, bars on a terminal, a summary table) or json (one event per line on stdout).
    #[arg(long, value_enum, default_value = "human", value_name = "FMT")]
    pub message_format: MessageFormat,
    /// Print only errors.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print more (minimization counts, progress lines without a terminal).
    #[arg(short, long)]
    pub verbose: bool,
    /// Colored output: auto, always, never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub color: Color,
}

fn cwd() -> Result<PathBuf> {
    std::env::current_dir().context("reading the current directory")
}

/// Discovery with the selection applied; bad input is reported and gives `Err(2)`.
pub fn select(s: &SelectArgs) -> Result<std::result::Result<Project, u8>> {
    let cwd = cwd()?;
    let opts = DiscoveryOptions {
        cwd: &cwd,
        config: s.config.as_deref(),
        packages: &s.packages,
    };
    let mut project = match discovery::discover(&opts) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(Err(crate::EXIT_BAD_INPUT));
        }
    };
    if project.targets.is_empty() {
        eprintln!("error: {}", discovery::no_targets_message(&project));
        return Ok(Err(crate::EXIT_BAD_INPUT));
    }
    for name in &s.targets {
        if !project.targets.iter().any(|t| &t.name == name) {
            eprintln!(
                "error: no target named `{name}` (targets: {})",
                project
                    .targets
                    .iter()
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return Ok(Err(crate::EXIT_BAD_INPUT));
        }
    }
    if !s.targets.is_empty() {
        project.targets.retain(|t| s.targets.contains(&t.name));
    }
    Ok(Ok(project))
}

fn parse_partition(s: &str) -> Option<(usize, usize)> {
    let (k, n) = s.split_once('/')?;
    let (k, n) = (k.trim().parse().ok()?, n.trim().parse().ok()?);
    (n >= 1 && k >= 1 && k <= n).then_some((k, n))
}

fn budget_of(a: &ProjectArgs, t: &Target, targets: usize, jobs: usize) -> f64 {
    if let Some(m) = a.max_time {
        return m;
    }
    if let Some(total) = a.total_time {
        let rounds = targets.div_ceil(jobs.max(1)).max(1);
        return total / rounds as f64;
    }
    t.max_time.unwrap_or(DEFAULT_MAX_TIME)
}

pub fn run(a: ProjectArgs) -> Result<u8> {
    for (name, v) in [("max-time", a.max_time), ("total-time", a.total_time)] {
        if let Some(v) = v {
            if !v.is_finite() || v <= 0.0 || v > config::MAX_SECONDS {
                eprintln!(
                    "error: --{name} must be a positive number of seconds up to {:e} (got {v})",
                    config::MAX_SECONDS
                );
                return Ok(crate::EXIT_BAD_INPUT);
            }
        }
    }
    if a.jobs == Some(0) {
        eprintln!("error: --jobs must be at least 1");
        return Ok(crate::EXIT_BAD_INPUT);
    }
    let partition = match a.partition.as_deref().map(|p| (p, parse_partition(p))) {
        Some((p, None)) => {
            eprintln!("error: --partition `{p}` must be K/N with 1 <= K <= N (e.g. 1/2)");
            return Ok(crate::EXIT_BAD_INPUT);
        }
        Some((_, Some(kn))) => Some(kn),
        None => None,
    };
    let baseline_known = match (&a.baseline, a.update_baseline) {
        (Some(p), false) => match baseline::load(p) {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!("error: {e:#}");
                return Ok(crate::EXIT_BAD_INPUT);
            }
        },
        _ => None,
    };
    let mut project = match select(&a.select)? {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    if let Some((k, n)) = partition {
        project.targets = project
            .targets
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, t)| t)
            .collect();
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(project.targets.len().max(1));
    let cwd = cwd()?;
    let abs = |p: &Path| {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            cwd.join(p)
        }
    };
    let out_root = a
        .out_dir
        .as_deref()
        .map_or_else(|| project.root.join("symtest-out"), abs);
    let build_root = match &a.target_dir {
        Some(d) => abs(d).join("symtest"),
        None if project.cargo => project.root.join("target").join("symtest"),
        None => out_root.join(".build"),
    };
    std::fs::create_dir_all(&out_root)
        .with_context(|| format!("creating {}", out_root.display()))?;
    let ctx = pipeline::Ctx {
        root: project.root.clone(),
        out_root,
        build_root,
        models_include: crate::paths::models_dir().join("include"),
        emit: !a.no_emit,
        validate: !a.no_validate,
    };
    let mut reporter = Reporter::new(
        a.message_format,
        a.quiet,
        a.verbose,
        a.color,
        project.targets.len(),
    );
    let n_targets = project.targets.len();
    let queue: Mutex<Vec<(usize, &Target)>> =
        Mutex::new(project.targets.iter().enumerate().rev().collect());
    let (tx, rx) = mpsc::channel::<Event>();
    let mut reports: Vec<(usize, TargetReport)> = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (queue, ctx, a) = (&queue, &ctx, &a);
            scope.spawn(move || {
                let tx = Mutex::new(tx);
                let send = |e: Event| {
                    let _ = tx.lock().expect("sender").send(e);
                };
                loop {
                    let Some((_, t)) = queue.lock().expect("queue").pop() else {
                        break;
                    };
                    let budget = budget_of(a, t, n_targets, jobs);
                    let r = pipeline::process(t, ctx, budget, &send);
                    send(Event::TargetFinished {
                        report: Box::new(r),
                    });
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
            reporter.event(e);
        }
    });
    reports.sort_by_key(|(i, _)| *i);
    let reports: Vec<TargetReport> = reports.into_iter().map(|(_, r)| r).collect();
    let all = serde_json::json!({ "targets": reports });
    fsutil::write_atomic(
        &ctx.out_root.join("summary.json"),
        serde_json::to_string_pretty(&all)?.as_bytes(),
    )?;
    finish(&a, &project, &reports, baseline_known, reporter)
}

fn finish(
    a: &ProjectArgs,
    project: &Project,
    reports: &[TargetReport],
    known: Option<Vec<baseline::Bug>>,
    mut reporter: Reporter,
) -> Result<u8> {
    let bugs: Vec<baseline::Bug> = reports
        .iter()
        .flat_map(|r| r.bugs.iter().cloned())
        .collect();
    let mut code = 0u8;
    if reports
        .iter()
        .any(|r| matches!(r.status, Status::EngineFailed | Status::Failed))
    {
        code = crate::EXIT_FOUND;
    }
    let mut gate = String::new();
    if let Some(known) = &known {
        let new = baseline::new_bugs(&bugs, known);
        if !new.is_empty() {
            code = crate::EXIT_FOUND;
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
        fsutil::write_atomic(p, sarif::render(reports).as_bytes())?;
    }
    if let Some(p) = &a.junit {
        fsutil::write_atomic(p, junit::render(reports).as_bytes())?;
    }
    if reports.iter().any(|r| r.status == Status::CompileError) {
        code = crate::EXIT_BAD_INPUT;
    }
    let summary = report::table(reports);
    let closing = serde_json::json!({
        "event": "finished",
        "exit_code": code,
        "targets": reports.len(),
        "bugs": bugs.len(),
        "not_reproduced": reports.iter().map(|r| r.unconfirmed.len()).sum::<usize>(),
        "new_bugs": known.as_ref().map(|k| baseline::new_bugs(&bugs, k).len()),
    });
    reporter.finish(&summary, closing);
    // The gate's verdict is printed whatever the mode: CI logs must show it.
    eprint!("{gate}");
    Ok(code)
}

/// `cargo symtest list`: the targets found.
pub fn list(s: SelectArgs) -> Result<u8> {
    let project = match select(&s)? {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    for t in &project.targets {
        let files: Vec<String> = t
            .sources
            .iter()
            .map(|f| fsutil::relative(f, &project.root).display().to_string())
            .collect();
        println!(
            "{}\t{}\t{}{}:{}\t{}",
            t.name,
            t.kind.as_str(),
            t.package
                .as_deref()
                .map(|p| format!("{p}\t"))
                .unwrap_or_default(),
            fsutil::relative(&t.config_file, &project.root).display(),
            t.line,
            files.join(" ")
        );
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn target(kind: config::Kind) -> discovery::Target {
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
            search: vec![],
            entry_point: None,
            exec_args: vec![],
            suite_dir: dir,
        }
    }

    #[test]
    fn program_targets_get_the_posix_environment() {
        let bc = std::path::Path::new("p.bc");
        let h = explore::exec_args(&target(config::Kind::Harness), bc, bc, 5.0);
        assert!(
            !h.iter().any(|a| a.starts_with("--libc") || a == "--"),
            "{h:?}"
        );
        let p = explore::exec_args(&target(config::Kind::Program), bc, bc, 5.0);
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
                "--",
                "--sym-args",
                "0",
                "2",
                "4"
            ]
        );
        assert!(p.windows(2).any(|w| w == ["--seed", "3"]), "{p:?}");
    }

    #[test]
    fn partitions_and_budgets() {
        assert_eq!(parse_partition("2/3"), Some((2, 3)));
        assert_eq!(parse_partition("0/3"), None);
        assert_eq!(parse_partition("4/3"), None);
        assert_eq!(parse_partition("x"), None);
        #[derive(clap::Parser)]
        struct W {
            #[command(flatten)]
            a: ProjectArgs,
        }
        let args = |max: Option<f64>, total: Option<f64>| {
            let mut a = <W as clap::Parser>::try_parse_from(["x"]).unwrap().a;
            a.max_time = max;
            a.total_time = total;
            a
        };
        let t = target(config::Kind::Harness);
        assert_eq!(budget_of(&args(None, None), &t, 4, 2), 7.0);
        assert_eq!(budget_of(&args(Some(3.0), None), &t, 4, 2), 3.0);
        // 5 targets on 2 jobs run in 3 rounds.
        assert_eq!(budget_of(&args(None, Some(30.0)), &t, 5, 2), 10.0);
    }
}
