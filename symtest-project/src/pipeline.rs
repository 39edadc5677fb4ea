//! The pipeline of one target: the stages of [`crate::stages`] (compile, explore,
//! minimize, replay under gcov, emit the regression suite) in order, with progress
//! events and the target's report; `symtest-out/<target>/` is replaced atomically at
//! the end, so a failed step never loses the previous results.

use crate::discovery::Target;
use crate::from_build::Captured;
use crate::fsutil::{replace_dir, write_atomic};
use crate::progress::{Event, Level, Phase};
use crate::report::{Status, TargetReport};
use crate::stages::{self, TargetCtx};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub struct Ctx {
    pub root: PathBuf,
    pub out_root: PathBuf,
    pub build_root: PathBuf,
    pub models_include: PathBuf,
    pub emit: bool,
    /// A bug counts only when its test reproduces it natively.
    pub validate: bool,
    /// The captured output of each target from a build, by target name.
    pub captured: HashMap<String, Captured>,
    /// A gate run (`--changed-since`): the changed lines and how much of the
    /// budget goes to them.
    pub gate: Option<Gate>,
    /// The seeds from the project's tests and input files, by target name.
    pub seeds: HashMap<String, crate::seeds::Prepared>,
}

/// What a gate run directs its exploration at.
pub struct Gate {
    pub changed: crate::gate::ChangedLines,
    pub directed_share: f64,
}

type Send<'a> = &'a (dyn Fn(Event) + Sync);

pub fn process(t: &Target, ctx: &Ctx, budget_s: f64, send: Send) -> TargetReport {
    let started = Instant::now();
    let out_dir = ctx.out_root.join(&t.name);
    let mut r = TargetReport::new(
        &t.name,
        t.kind.as_str(),
        t.package.clone(),
        out_dir,
        budget_s,
    );
    let msg = |level, text: String| {
        send(Event::Message {
            target: t.name.clone(),
            level,
            text,
        });
    };
    if let Err(e) = steps(t, ctx, budget_s, send, &mut r, started) {
        if r.status == Status::Ok {
            r.status = Status::Failed;
        }
        let mut text = format!("{e:#}");
        if let Some(note) = mark_stale(&r.out_dir, r.status, &text) {
            r.stale_results = true;
            text.push('\n');
            text.push_str(&note);
        }
        msg(Level::Error, text.clone());
        r.message = Some(text);
    }
    r.total_s = started.elapsed().as_secs_f64();
    r
}

/// The name of the marker a failed run leaves in the previous results.
pub const STALE_MARKER: &str = "STALE";

/// After a failed run, results of an earlier one in `out_dir` are kept (the
/// directory is only ever replaced whole) but marked: a `STALE` file saying
/// which run failed and why. Returns the note for the report, if there were
/// results to mark.
fn mark_stale(out_dir: &Path, status: Status, why: &str) -> Option<String> {
    if !out_dir.is_dir() {
        return None;
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let text = format!(
        "The results in this directory are from an earlier run: the run at {now} (unix time) \
         failed ({}) and did not replace them.\n\n{why}\n",
        status.as_str()
    );
    let note = format!(
        "the results in {} are from an earlier run and stale (see its {STALE_MARKER} file)",
        out_dir.display()
    );
    match write_atomic(&out_dir.join(STALE_MARKER), text.as_bytes()) {
        Ok(()) => Some(note),
        Err(e) => Some(format!("{note}; marking them failed: {e:#}")),
    }
}

fn phase(send: Send, t: &Target, phase: Phase, detail: String) {
    send(Event::Phase {
        target: t.name.clone(),
        phase,
        detail,
    });
}

fn steps(
    t: &Target,
    ctx: &Ctx,
    budget_s: f64,
    send: Send,
    r: &mut TargetReport,
    started: Instant,
) -> Result<()> {
    let captured = ctx.captured.get(&t.name);
    let Some(spec) = &t.library else {
        return target_steps(t, captured, ctx, budget_s, send, r, started);
    };
    // A library target: its harness generated from its headers, then run as
    // a harness target.
    phase(
        send,
        t,
        Phase::Compiling,
        "(library: generating the harness from its headers)".into(),
    );
    let dir = ctx.build_root.join(&t.name).join("library");
    let p = match crate::library::prepare(t, spec, captured, &ctx.models_include, &dir) {
        Ok(p) => p,
        Err(e) => {
            r.status = Status::CompileError;
            anyhow::bail!(
                "no harness could be generated; target skipped\n{}\n{}",
                e.command,
                e.diagnostics.trim_end()
            );
        }
    };
    send(Event::Message {
        target: t.name.clone(),
        level: Level::Info,
        text: format!(
            "library: {} function(s) called, {} call sequence(s), {} left out{}",
            p.functions.len() - p.sequences.len(),
            p.sequences.len(),
            p.skipped.len(),
            if p.skipped.is_empty() {
                String::new()
            } else {
                format!(
                    " ({})",
                    p.skipped
                        .iter()
                        .take(5)
                        .map(|s| format!("{}: {}", s.function, s.reason))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            }
        ),
    });
    r.library = Some(crate::report::LibraryReport {
        functions: p.functions.clone(),
        tested: Vec::new(),
        public: Vec::new(),
        public_tested: Vec::new(),
        calls: p.calls.clone(),
        made_up: p.made_up.clone(),
        triage: Vec::new(),
        sequences: p.sequences.clone(),
        skipped: p
            .skipped
            .iter()
            .map(|s| (s.function.clone(), s.reason.clone()))
            .collect(),
    });
    target_steps(
        &p.target,
        p.captured.as_ref(),
        ctx,
        budget_s,
        send,
        r,
        started,
    )
}

fn target_steps(
    t: &Target,
    captured: Option<&Captured>,
    ctx: &Ctx,
    budget_s: f64,
    send: Send,
    r: &mut TargetReport,
    started: Instant,
) -> Result<()> {
    let c = TargetCtx {
        target: t,
        root: &ctx.root,
        build: ctx.build_root.join(&t.name),
        models_include: &ctx.models_include,
        captured,
    };
    let message = |level, text: String| {
        send(Event::Message {
            target: t.name.clone(),
            level,
            text,
        })
    };
    // 1. bitcode
    let detail = match c.captured {
        Some(cap) => format!(
            "({}, {} from the build, {} source files)",
            t.kind.as_str(),
            cap.output,
            cap.native.all_units().count()
        ),
        None => format!("({}, {} source files)", t.kind.as_str(), t.sources.len()),
    };
    phase(send, t, Phase::Compiling, detail);
    let mut clock = Instant::now();
    let mut lap = |r: &mut TargetReport, stage: &str| {
        r.stage_s
            .insert(stage.to_string(), clock.elapsed().as_secs_f64());
        clock = Instant::now();
    };
    let compiled = match stages::compile(&c) {
        Ok(x) => x,
        Err(e) => {
            r.status = Status::CompileError;
            anyhow::bail!(
                "does not compile; target skipped\n{}\n{}",
                e.command,
                e.diagnostics.trim_end()
            );
        }
    };
    lap(r, "compile");
    // A gate run: the committed suite on the new code (behaviour changes),
    // then seeds and target lines for a directed exploration.
    let mut extra = Vec::new();
    // Seeds from the project's tests: each starts its own path under its
    // own symbolic environment.
    if let Some(s) = ctx.seeds.get(&t.name) {
        r.stage_s.insert("seeds".into(), s.seconds);
        r.seeds = Some(s.report.clone());
        extra.extend(s.exec_args());
    }
    if let Some(g) = &ctx.gate {
        match crate::gate::behaviour_changes(&t.suite_dir) {
            Ok(Some(changes)) => {
                for b in &changes {
                    message(
                        Level::Warning,
                        format!("behaviour change: {}: {}", b.test, b.detail),
                    );
                }
                r.behaviour_changes = changes;
            }
            Ok(None) => {}
            Err(e) => message(Level::Warning, e),
        }
        let gate_seeds = c.build.join("gate-seeds");
        let seeds = crate::gate::write_seeds(&r.out_dir, &t.suite_dir, &gate_seeds)
            .map_err(anyhow::Error::msg)?;
        if seeds > 0 {
            extra.extend(["--seed-dir".into(), gate_seeds.display().to_string()]);
        }
        // The previous run's tests already reach the options it found;
        // the directed share goes to the changed lines instead.
        extra.push("--no-option-seeds".into());
        let lines = c.build.join("target-lines.txt");
        std::fs::create_dir_all(&c.build)?;
        std::fs::write(&lines, g.changed.target_lines())?;
        extra.extend([
            "--target-lines".into(),
            lines.display().to_string(),
            "--directed-share".into(),
            g.directed_share.to_string(),
        ]);
        message(
            Level::Info,
            format!(
                "gate: {} changed line(s) since {}, {seeds} seed(s), {:.0}% of the budget directed",
                g.changed.count(),
                g.changed.base,
                g.directed_share * 100.0
            ),
        );
    }
    // 2. exploration, in a subprocess
    phase(send, t, Phase::Exploring, format!("(budget {budget_s}s)"));
    let explored = stages::explore(&c, &compiled, budget_s, &extra, |live| {
        send(Event::Progress {
            target: t.name.clone(),
            live,
        });
    })?;
    let mut e = match explored {
        Ok(e) => e,
        Err(failed) => {
            r.explore_s = failed.elapsed_s;
            r.status = Status::EngineFailed;
            anyhow::bail!("{}", failed.message);
        }
    };
    r.explore_s = e.elapsed_s;
    lap(r, "explore");
    r.engine_overran = e.overran;
    if e.overran {
        message(
            Level::Warning,
            format!(
                "the engine overran its {budget_s}s budget and was stopped; the tests it wrote are kept (no statistics or coverage claim)"
            ),
        );
    }
    r.paths = e.paths();
    r.paths_stopped_at_limits = e.paths_stopped_at_limits();
    r.halt_reason = e.halt_reason.clone();
    r.tests_written = e.tests.len();
    // 3. minimization over per-test native coverage
    phase(
        send,
        t,
        Phase::Minimizing,
        format!("({} tests)", e.tests.len()),
    );
    let m = stages::minimize(&c, &compiled, &e)?;
    lap(r, "minimize");
    for (part, s) in m.parts_s {
        r.stage_s.insert(part.to_string(), s);
    }
    r.tests_kept = m.keep.len();
    if let Some(lib) = r.library.as_mut() {
        lib.tested =
            crate::library::functions_of(&lib.functions, m.keep.iter().map(|&i| &e.tests[i]));
        (lib.public, lib.public_tested) = crate::library::public_functions_of(
            &lib.functions,
            &lib.calls,
            m.keep.iter().map(|&i| &e.tests[i]),
        );
        message(
            Level::Info,
            format!(
                "library: {} of {} functions called have a kept test ({} of {} entries, call sequences included)",
                lib.public_tested.len(),
                lib.public.len(),
                lib.tested.len(),
                lib.functions.len()
            ),
        );
    }
    for (i, v) in m.verdicts.iter().enumerate() {
        let name = &e.tests[i].name;
        match v {
            Some(v) if stages::disagrees(v) => r
                .native_disagreements
                .push(format!("{name}: {v} [{}]", e.describe(i))),
            None => r.native_disagreements.push(format!(
                "{name}: the native run gave no verdict [{}]",
                e.describe(i)
            )),
            Some(_) => {}
        }
    }
    for d in &r.native_disagreements {
        message(
            Level::Warning,
            format!("native run disagrees with the engine: {d}"),
        );
    }
    message(
        Level::Info,
        format!(
            "minimized {} tests to {} ({} bugs)",
            e.tests.len(),
            m.keep.len(),
            e.bugs.len()
        ),
    );
    // 4. replay of the kept tests under gcov
    phase(
        send,
        t,
        Phase::Replaying,
        format!("({} kept tests)", m.keep.len()),
    );
    let staging = ctx.out_root.join(format!(".{}.new~", t.name));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
    let replayed = stages::replay(&c, &compiled, &e, &m, &staging.join("coverage"))?;
    lap(r, "replay");
    // Disagreements of kept tests were reported with the coverage run; a
    // verdict that changed between the two runs is reported here.
    for f in &replayed.flaky {
        message(
            Level::Warning,
            format!("native verdict differs between two runs: {f}"),
        );
    }
    r.flaky = replayed.flaky.clone();
    let cov = &replayed.coverage;
    r.lines = Some(cov.lines);
    r.eloc_lines = cov.eloc_lines;
    r.branches = Some(cov.branches);
    r.engine_lines = Some(cov.engine_lines);
    r.claimed_not_executed = cov.claimed_not_executed;
    r.why = Some(cov.why.clone());
    for w in &cov.warnings {
        message(Level::Warning, format!("soundness: {w}"));
    }
    r.soundness_warnings = cov.warnings.clone();
    if let Some(err) = &cov.html_error {
        message(Level::Warning, err.clone());
    }
    if ctx.validate {
        let unconfirmed = stages::validate(&mut e, &replayed);
        for u in &unconfirmed {
            message(
                Level::Warning,
                format!(
                    "not reported as a bug: the engine's {} at {}:{} did not reproduce natively ({})",
                    u.bug.kind, u.bug.file, u.bug.line, u.native
                ),
            );
        }
        r.unconfirmed = unconfirmed;
    }
    // 5. outputs: kept tests renumbered, the suite
    phase(
        send,
        t,
        Phase::Emitting,
        format!("({} tests)", m.keep.len()),
    );
    let emitted = stages::emit(&c, &compiled, &e, &m, &staging, ctx.emit)?;
    lap(r, "emit");
    for n in &emitted.not_compared {
        message(Level::Info, format!("suite oracle: {n}"));
    }
    for n in &emitted.not_recorded {
        message(
            Level::Warning,
            format!("native run disagrees with the engine when recorded: {n}"),
        );
    }
    r.tests = emitted.kept;
    r.not_compared = emitted.not_compared;
    // A path the engine stopped at one of its limits claims nothing of its
    // end: its test's native end is not a disagreement, but it is said.
    r.stopped_at_limits = m
        .keep
        .iter()
        .zip(&r.tests)
        .filter(|(&i, _)| e.tests[i].stopped_at_limit().is_some())
        .map(|(_, k)| format!("{}: {}", k.suite_name, k.outcome))
        .collect();
    let stopped: u64 = r.paths_stopped_at_limits.values().sum();
    if stopped > 0 {
        let kinds: Vec<String> = r
            .paths_stopped_at_limits
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        message(
            Level::Info,
            format!(
                "{stopped} path(s) stopped at an engine limit ({}); {} kept test(s) of them are compared natively only with the behaviour the suite recorded",
                kinds.join(", "),
                r.stopped_at_limits.len()
            ),
        );
    }
    if let Some(g) = &ctx.gate {
        let names: Vec<String> = r.tests.iter().map(|k| k.suite_name.clone()).collect();
        r.changed_lines = stages::changed_lines(&c, &m, &g.changed, &names);
        let reached = r
            .changed_lines
            .iter()
            .filter(|l| l.reached_by.is_some())
            .count();
        message(
            Level::Info,
            format!(
                "gate: {reached} of {} changed line(s) with code reached by a kept test",
                r.changed_lines.len()
            ),
        );
    }
    r.bugs = e.bugs;
    if let Some(lib) = r.library.as_mut() {
        lib.triage = r
            .bugs
            .iter()
            .map(|b| {
                (
                    b.id.clone(),
                    crate::library::triage(b, &lib.made_up).to_string(),
                )
            })
            .collect();
    }
    if ctx.emit {
        r.suite_dir = Some(t.suite_dir.clone());
    }
    r.total_s = started.elapsed().as_secs_f64();
    write_atomic(
        &staging.join("summary.json"),
        serde_json::to_string_pretty(&*r)?.as_bytes(),
    )?;
    replace_dir(&staging, &r.out_dir)?;
    Ok(())
}
