//! `cargo symtest` with no subcommand (the project pipeline of `symtest-project`)
//! and `cargo symtest list`: flags in, events drawn by the [`Reporter`].

use crate::reporter::{Color, MessageFormat, Reporter};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use symtest_project::{fsutil, RunOptions, Selection};

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
    /// Only the target or crosscheck with this name (repeatable).
    #[arg(long = "target", value_name = "NAME")]
    pub targets: Vec<String>,
}

impl SelectArgs {
    pub(crate) fn selection(&self) -> Selection {
        Selection {
            packages: self.packages.clone(),
            config: self.config.clone(),
            targets: self.targets.clone(),
            check_exec_args: Some(crate::exec::check_args),
        }
    }
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
    /// Fail at once (exit 2) when another `cargo symtest` run uses the same
    /// output or build directory, instead of waiting for it to finish.
    #[arg(long)]
    pub no_wait: bool,
    /// Gate a change: direct each target's exploration at the lines of C
    /// sources and headers changed since this git revision (`git diff REF`;
    /// in CI the pull request's base), starting from the previous run's kept
    /// tests (else the committed suite's vectors) as seeds; report which
    /// changed lines a kept test reaches, and run the committed suite on the
    /// new code first: a test whose outcome or output changed is reported as a
    /// behaviour change (not a bug; accepted by the next run, which records the
    /// new behaviour, or `make update-expected`).
    #[arg(long, value_name = "REF")]
    pub changed_since: Option<String>,
    /// With --changed-since: the share of each target's budget spent on the
    /// seeds and the changed lines before the undirected search (0 to 1).
    #[arg(long, value_name = "SHARE", requires = "changed_since")]
    pub directed_share: Option<f64>,
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

/// The pipeline: 0 success, 1 a target failed or a new bug, 2 bad input.
pub fn run(a: ProjectArgs) -> Result<u8> {
    let options = RunOptions {
        select: a.select.selection(),
        target_dir: a.target_dir,
        out_dir: a.out_dir,
        max_time: a.max_time,
        total_time: a.total_time,
        jobs: a.jobs,
        partition: a.partition,
        baseline: a.baseline,
        update_baseline: a.update_baseline,
        sarif: a.sarif,
        junit: a.junit,
        no_emit: a.no_emit,
        no_validate: a.no_validate,
        no_wait: a.no_wait,
        changed_since: a.changed_since,
        directed_share: a.directed_share,
    };
    let mut reporter = Reporter::new(a.message_format, a.quiet, a.verbose, a.color);
    let finished = symtest_project::run(options, &mut |e| reporter.event(e));
    match finished {
        Ok(f) => {
            reporter.finish(&f.summary, f.closing);
            // The gate's verdict is printed whatever the mode: CI logs must show it.
            eprint!("{}", f.gate);
            Ok(f.exit_code)
        }
        Err(e) => {
            reporter.clear();
            if let symtest_project::Error::BuildFailed { output, .. } = &e {
                // The build's own output first, as it would have appeared.
                eprint!("{output}");
                if !output.is_empty() && !output.ends_with('\n') {
                    eprintln!();
                }
            }
            eprintln!("error: {e:#}");
            Ok(symtest_project::EXIT_BAD_INPUT)
        }
    }
}

/// `cargo symtest list`: the targets found.
pub fn list(s: SelectArgs) -> Result<u8> {
    let project = match symtest_project::select(&s.selection()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(symtest_project::EXIT_BAD_INPUT);
        }
    };
    let build_root = symtest_project::run::locations(&project, None, None)
        .ok()
        .map(|(_, b)| b);
    for t in &project.targets {
        let mut files: Vec<String> = t
            .sources
            .iter()
            .map(|f| fsutil::relative(f, &project.root).display().to_string())
            .collect();
        if let Some(b) = &t.build {
            // A target from a build: its output, and the build that makes it.
            files.push(format!(
                "{} = {:?} from `{}`",
                b.key(),
                b.written,
                b.command.join(" ")
            ));
            // What the last capture made of it.
            files.push(
                build_root
                    .as_deref()
                    .and_then(|br| {
                        symtest_project::from_build::module_summary(&project.root, br, t)
                    })
                    .map_or("(module: not captured yet)".into(), |m| format!("({m})")),
            );
        }
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
    for c in &project.crosschecks {
        println!(
            "{}	crosscheck	{}{}:{}	{}, args = {:?}",
            c.name,
            c.package
                .as_deref()
                .map(|p| format!("{p}\t"))
                .unwrap_or_default(),
            fsutil::relative(&c.config_file, &project.root).display(),
            c.line,
            c.form.describe(),
            c.args
        );
    }
    Ok(0)
}
