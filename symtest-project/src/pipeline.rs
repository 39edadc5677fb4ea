//! The pipeline of one target: the stages of [`crate::stages`] (compile, explore,
//! minimize, replay under gcov, emit the regression suite) in order, with progress
//! events and the target's report; `symtest-out/<target>/` is replaced atomically at
//! the end, so a failed step never loses the previous results.

use crate::discovery::Target;
use crate::explore_options::ExploreOptions;
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
    let mut s = Stages {
        c: TargetCtx {
            target: t,
            root: &ctx.root,
            build: ctx.build_root.join(&t.name),
            models_include: &ctx.models_include,
            captured,
        },
        ctx,
        send,
        clock: Instant::now(),
    };
    // 1. bitcode
    let compiled = s.compile(r)?;
    // 2. exploration, in a subprocess
    let options = s.explore_options(budget_s, r)?;
    let mut e = s.explore(&compiled, budget_s, &options, r)?;
    // 3. minimization over per-test native coverage
    let m = s.minimize(&compiled, &e, r)?;
    // 4. replay of the kept tests under gcov
    let staging = ctx.out_root.join(format!(".{}.new~", t.name));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
    s.replay(&compiled, &mut e, &m, &staging, r)?;
    // 5. outputs: kept tests renumbered, the suite
    s.emit(&compiled, &e, &m, &staging, r)?;
    s.report_limits(&e, &m, r);
    if let Some(g) = &ctx.gate {
        s.gate_reach(g, &m, r);
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

/// One target going through the stages: its context, where its events go,
/// and the clock of the stage under way.
struct Stages<'a> {
    c: TargetCtx<'a>,
    ctx: &'a Ctx,
    send: Send<'a>,
    clock: Instant,
}

impl Stages<'_> {
    fn message(&self, level: Level, text: String) {
        (self.send)(Event::Message {
            target: self.c.target.name.clone(),
            level,
            text,
        })
    }

    fn phase(&self, p: Phase, detail: String) {
        phase(self.send, self.c.target, p, detail);
    }

    /// Records the time since the last lap as `stage`'s.
    fn lap(&mut self, r: &mut TargetReport, stage: &str) {
        r.stage_s
            .insert(stage.to_string(), self.clock.elapsed().as_secs_f64());
        self.clock = Instant::now();
    }

    /// The target's bitcode (a compile error skips the target).
    fn compile(&mut self, r: &mut TargetReport) -> Result<stages::Compiled> {
        let t = self.c.target;
        let detail = match self.c.captured {
            Some(cap) => format!(
                "({}, {} from the build, {} source files)",
                t.kind.as_str(),
                cap.output,
                cap.native.all_units().count()
            ),
            None => format!("({}, {} source files)", t.kind.as_str(), t.sources.len()),
        };
        self.phase(Phase::Compiling, detail);
        self.clock = Instant::now();
        let compiled = match stages::compile(&self.c) {
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
        self.lap(r, "compile");
        Ok(compiled)
    }

    /// The engine's options: the target's, then the seeds from the
    /// project's tests (each starts its own path under its own symbolic
    /// environment) and a gate run's directions.
    fn explore_options(&self, budget_s: f64, r: &mut TargetReport) -> Result<ExploreOptions> {
        let t = self.c.target;
        let mut o = stages::explore_options(&self.c, budget_s);
        if let Some(s) = self.ctx.seeds.get(&t.name) {
            r.stage_s.insert("seeds".into(), s.seconds);
            r.seeds = Some(s.report.clone());
            s.add_to(&mut o);
        }
        if let Some(g) = &self.ctx.gate {
            self.gate_directions(g, &mut o, r)?;
        }
        Ok(o)
    }

    /// A gate run: the committed suite on the new code (behaviour changes),
    /// then seeds and target lines for a directed exploration.
    fn gate_directions(
        &self,
        g: &Gate,
        o: &mut ExploreOptions,
        r: &mut TargetReport,
    ) -> Result<()> {
        let t = self.c.target;
        match crate::gate::behaviour_changes(&t.suite_dir) {
            Ok(Some(changes)) => {
                for b in &changes {
                    self.message(
                        Level::Warning,
                        format!("behaviour change: {}: {}", b.test, b.detail),
                    );
                }
                r.behaviour_changes = changes;
            }
            Ok(None) => {}
            Err(e) => self.message(Level::Warning, e),
        }
        let gate_seeds = self.c.build.join("gate-seeds");
        let seeds = crate::gate::write_seeds(&r.out_dir, &t.suite_dir, &gate_seeds)
            .map_err(anyhow::Error::msg)?;
        if seeds > 0 {
            o.seed_dir.push(gate_seeds);
        }
        // The previous run's tests already reach the options it found;
        // the directed share goes to the changed lines instead.
        o.no_option_seeds = true;
        let lines = self.c.build.join("target-lines.txt");
        std::fs::create_dir_all(&self.c.build)?;
        std::fs::write(&lines, g.changed.target_lines())?;
        o.target_lines = Some(lines);
        o.directed_share = g.directed_share;
        self.message(
            Level::Info,
            format!(
                "gate: {} changed line(s) since {}, {seeds} seed(s), {:.0}% of the budget directed",
                g.changed.count(),
                g.changed.base,
                g.directed_share * 100.0
            ),
        );
        Ok(())
    }

    /// The engine run, with its progress; its paths and tests in the report.
    fn explore(
        &mut self,
        compiled: &stages::Compiled,
        budget_s: f64,
        options: &ExploreOptions,
        r: &mut TargetReport,
    ) -> Result<stages::Explored> {
        let t = self.c.target;
        self.phase(Phase::Exploring, format!("(budget {budget_s}s)"));
        let explored = stages::explore(&self.c, compiled, budget_s, options, |live| {
            (self.send)(Event::Progress {
                target: t.name.clone(),
                live,
            });
        })?;
        let e = match explored {
            Ok(e) => e,
            Err(failed) => {
                r.explore_s = failed.elapsed_s;
                r.status = Status::EngineFailed;
                anyhow::bail!("{}", failed.message);
            }
        };
        r.explore_s = e.elapsed_s;
        self.lap(r, "explore");
        r.engine_overran = e.overran;
        if e.overran {
            self.message(
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
        Ok(e)
    }

    /// Minimization over per-test native coverage; the native runs that
    /// disagree with the engine.
    fn minimize(
        &mut self,
        compiled: &stages::Compiled,
        e: &stages::Explored,
        r: &mut TargetReport,
    ) -> Result<stages::Minimized> {
        self.phase(Phase::Minimizing, format!("({} tests)", e.tests.len()));
        let m = stages::minimize(&self.c, compiled, e)?;
        self.lap(r, "minimize");
        for (part, s) in &m.parts_s {
            r.stage_s.insert(part.to_string(), *s);
        }
        r.tests_kept = m.keep.len();
        if let Some(lib) = r.library.as_mut() {
            self.library_tested(lib, e, &m);
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
            self.message(
                Level::Warning,
                format!("native run disagrees with the engine: {d}"),
            );
        }
        self.message(
            Level::Info,
            format!(
                "minimized {} tests to {} ({} bugs)",
                e.tests.len(),
                m.keep.len(),
                e.bugs.len()
            ),
        );
        Ok(m)
    }

    /// A library target: the functions its kept tests call.
    fn library_tested(
        &self,
        lib: &mut crate::report::LibraryReport,
        e: &stages::Explored,
        m: &stages::Minimized,
    ) {
        lib.tested =
            crate::library::functions_of(&lib.functions, m.keep.iter().map(|&i| &e.tests[i]));
        (lib.public, lib.public_tested) = crate::library::public_functions_of(
            &lib.functions,
            &lib.calls,
            m.keep.iter().map(|&i| &e.tests[i]),
        );
        self.message(
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

    /// The kept tests replayed under gcov into `staging`; their coverage in
    /// the report, and (validating) the bugs that did not reproduce.
    fn replay(
        &mut self,
        compiled: &stages::Compiled,
        e: &mut stages::Explored,
        m: &stages::Minimized,
        staging: &Path,
        r: &mut TargetReport,
    ) -> Result<()> {
        self.phase(Phase::Replaying, format!("({} kept tests)", m.keep.len()));
        let replayed = stages::replay(&self.c, compiled, e, m, &staging.join("coverage"))?;
        self.lap(r, "replay");
        // Disagreements of kept tests were reported with the coverage run; a
        // verdict that changed between the two runs is reported here.
        for f in &replayed.flaky {
            self.message(
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
            self.message(Level::Warning, format!("soundness: {w}"));
        }
        r.soundness_warnings = cov.warnings.clone();
        if let Some(err) = &cov.html_error {
            self.message(Level::Warning, err.clone());
        }
        if self.ctx.validate {
            let unconfirmed = stages::validate(e, &replayed);
            for u in &unconfirmed {
                self.message(
                    Level::Warning,
                    format!(
                        "not reported as a bug: the engine's {} at {}:{} did not reproduce natively ({})",
                        u.bug.kind, u.bug.file, u.bug.line, u.native
                    ),
                );
            }
            r.unconfirmed = unconfirmed;
        }
        Ok(())
    }

    /// The kept tests renumbered and the suite, into `staging`.
    fn emit(
        &mut self,
        compiled: &stages::Compiled,
        e: &stages::Explored,
        m: &stages::Minimized,
        staging: &Path,
        r: &mut TargetReport,
    ) -> Result<()> {
        self.phase(Phase::Emitting, format!("({} tests)", m.keep.len()));
        let emitted = stages::emit(&self.c, compiled, e, m, staging, self.ctx.emit)?;
        self.lap(r, "emit");
        for n in &emitted.not_compared {
            self.message(Level::Info, format!("suite oracle: {n}"));
        }
        for n in &emitted.not_recorded {
            self.message(
                Level::Warning,
                format!("native run disagrees with the engine when recorded: {n}"),
            );
        }
        r.tests = emitted.kept;
        r.not_compared = emitted.not_compared;
        Ok(())
    }

    /// A path the engine stopped at one of its limits claims nothing of its
    /// end: its test's native end is not a disagreement, but it is said.
    fn report_limits(&self, e: &stages::Explored, m: &stages::Minimized, r: &mut TargetReport) {
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
            self.message(
                Level::Info,
                format!(
                    "{stopped} path(s) stopped at an engine limit ({}); {} kept test(s) of them are compared natively only with the behaviour the suite recorded",
                    kinds.join(", "),
                    r.stopped_at_limits.len()
                ),
            );
        }
    }

    /// A gate run: which changed lines the kept tests reach.
    fn gate_reach(&self, g: &Gate, m: &stages::Minimized, r: &mut TargetReport) {
        let names: Vec<String> = r.tests.iter().map(|k| k.suite_name.clone()).collect();
        r.changed_lines = stages::changed_lines(&self.c, m, &g.changed, &names);
        let reached = r
            .changed_lines
            .iter()
            .filter(|l| l.reached_by.is_some())
            .count();
        self.message(
            Level::Info,
            format!(
                "gate: {reached} of {} changed line(s) with code reached by a kept test",
                r.changed_lines.len()
            ),
        );
    }
}
