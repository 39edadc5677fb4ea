//! The pipeline of one target: compile, explore, minimize, replay under gcov, emit the
//! regression suite, and write `symtest-out/<target>/` (replaced atomically at the end,
//! so a failed step never loses the previous results).

use super::baseline::{self, Bug};
use super::coverage;
use super::discovery::Target;
use super::emit::{self, SuiteCase};
use super::fsutil::{replace_dir, write_atomic};
use super::progress::{Event, Level, Phase};
use super::report::{KeptTest, Status, TargetReport};
use super::testcases::{self, EngineTest, Outcome};
use super::{compile, explore, minimize, native};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub struct Ctx {
    pub root: PathBuf,
    pub out_root: PathBuf,
    pub build_root: PathBuf,
    pub models_include: PathBuf,
    pub emit: bool,
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

fn describe(test: &EngineTest, bug: Option<&Bug>) -> String {
    match (&test.outcome, bug) {
        (_, Some(b)) => format!(
            "{}: {} in {} at {}:{} [bug id {}]",
            b.kind, b.message, b.function, b.file, b.line, b.id
        ),
        (Outcome::Exit { code }, None) => format!("exit {code}"),
        (Outcome::Error(e), None) => format!("engine stopped the path: {}: {}", e.kind, e.message),
        (Outcome::Early { reason }, None) => format!("engine stopped the path early: {reason}"),
    }
}

fn steps(
    t: &Target,
    ctx: &Ctx,
    budget_s: f64,
    send: Send,
    r: &mut TargetReport,
    started: Instant,
) -> Result<()> {
    let build = ctx.build_root.join(&t.name);
    // 1. bitcode
    phase(
        send,
        t,
        Phase::Compiling,
        format!("({}, {} source files)", t.kind.as_str(), t.sources.len()),
    );
    let bc = match compile::to_bitcode(t, &ctx.models_include, &build.join("bc")) {
        Ok(bc) => bc,
        Err(e) => {
            r.status = Status::CompileError;
            anyhow::bail!(
                "does not compile; target skipped\n{}\n{}",
                e.command,
                e.diagnostics.trim_end()
            );
        }
    };
    // 2. exploration, in a subprocess
    phase(send, t, Phase::Exploring, format!("(budget {budget_s}s)"));
    let run_dir = build.join("run");
    let res = explore::run(t, &bc, &run_dir, budget_s, |live| {
        send(Event::Progress {
            target: t.name.clone(),
            live,
        });
    });
    r.explore_s = res.elapsed_s;
    if let Err(e) = res.status {
        r.status = Status::EngineFailed;
        anyhow::bail!("{e}");
    }
    let (stats, claim) = if res.overran {
        send(Event::Message {
            target: t.name.clone(),
            level: Level::Warning,
            text: format!(
                "the engine overran its {budget_s}s budget and was stopped; the tests it wrote are kept (no statistics or coverage claim)"
            ),
        });
        (serde_json::json!({}), serde_json::json!({}))
    } else {
        (
            read_json(&run_dir.join("stats.json"))?,
            read_json(&run_dir.join("coverage.json"))?,
        )
    };
    r.paths = stats
        .get("paths_completed")
        .and_then(|v| v.as_u64())
        .unwrap_or(0);
    r.halt_reason = std::fs::read_to_string(run_dir.join("info"))
        .ok()
        .and_then(|i| {
            i.lines()
                .find_map(|l| l.strip_prefix("halt reason: ").map(str::to_string))
        });
    let tests = testcases::read_dir(&run_dir)?;
    r.tests_written = tests.len();

    // Bug identities; the first test of each identity represents it.
    let mut bugs: Vec<Bug> = Vec::new();
    let mut bug_of: Vec<Option<usize>> = Vec::new();
    for test in &tests {
        bug_of.push(test.bug().map(|e| {
            let b = baseline::identify(e, &ctx.root, &t.name);
            match bugs.iter().position(|k| k.id == b.id) {
                Some(i) => i,
                None => {
                    bugs.push(b);
                    bugs.len() - 1
                }
            }
        }));
    }
    let forced: Vec<usize> = (0..bugs.len())
        .filter_map(|b| bug_of.iter().position(|x| *x == Some(b)))
        .collect();

    // 3. minimization over per-test native coverage
    phase(
        send,
        t,
        Phase::Minimizing,
        format!("({} tests)", tests.len()),
    );
    let all_cases: Vec<SuiteCase> = tests
        .iter()
        .zip(&bug_of)
        .map(|(test, b)| SuiteCase {
            name: test.name.clone(),
            test,
            description: describe(test, b.map(|i| &bugs[i])),
        })
        .collect();
    let nb = native::build(t, &ctx.models_include, &build.join("native"), &all_cases)
        .map_err(|e| anyhow::anyhow!("native coverage build failed:\n{e}"))?;
    let names: Vec<&str> = tests.iter().map(|x| x.name.as_str()).collect();
    let sets = minimize::per_test(&nb, &names, 3, 2).map_err(anyhow::Error::msg)?;
    let keep = minimize::greedy_cover(&sets, &forced);
    r.tests_kept = keep.len();
    send(Event::Message {
        target: t.name.clone(),
        level: Level::Info,
        text: format!(
            "minimized {} tests to {} ({} bugs)",
            tests.len(),
            keep.len(),
            bugs.len()
        ),
    });

    // 4. replay of the kept tests under gcov
    phase(
        send,
        t,
        Phase::Replaying,
        format!("({} kept tests)", keep.len()),
    );
    let staging = ctx.out_root.join(format!(".{}.new~", t.name));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
    let kept_names: Vec<&str> = keep.iter().map(|&i| names[i]).collect();
    let replay_out = nb.run_tests(&kept_names, 10).map_err(anyhow::Error::msg)?;
    for line in replay_out
        .lines()
        .filter(|l| l.contains("FAILED") && !l.contains("BUG still present"))
    {
        send(Event::Message {
            target: t.name.clone(),
            level: Level::Warning,
            text: format!("native replay differs from the engine: {line}"),
        });
    }
    let cov = coverage::report(t, &ctx.root, &nb, &claim, &staging.join("coverage"))?;
    r.lines = Some(cov.lines);
    r.branches = Some(cov.branches);
    r.engine_lines = Some(cov.engine_lines);
    for w in &cov.warnings {
        send(Event::Message {
            target: t.name.clone(),
            level: Level::Warning,
            text: format!("soundness: {w}"),
        });
    }
    r.soundness_warnings = cov.warnings;
    if let Some(e) = cov.html_error {
        send(Event::Message {
            target: t.name.clone(),
            level: Level::Warning,
            text: e,
        });
    }

    // 5. outputs: kept tests renumbered, the suite
    phase(send, t, Phase::Emitting, format!("({} tests)", keep.len()));
    let mut suite_cases = Vec::new();
    let mut mapping = Vec::new();
    for (k, &i) in keep.iter().enumerate() {
        let new = format!("test{:06}", k + 1);
        let test = &tests[i];
        for f in test.files() {
            let fname = f
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .replacen(&test.name, &new, 1);
            std::fs::copy(&f, staging.join(&fname))
                .with_context(|| format!("copying {}", f.display()))?;
        }
        let bug = bug_of[i];
        let suite_name = match bug {
            Some(b) => format!(
                "{new}_bug_{}_in_{}",
                bugs[b].kind,
                sanitize_ident(&bugs[b].function)
            ),
            None => new.clone(),
        };
        r.tests.push(KeptTest {
            name: new.clone(),
            suite_name: suite_name.clone(),
            outcome: describe(test, bug.map(|b| &bugs[b])),
            bug,
        });
        mapping.push(serde_json::json!({ "kept": new, "engine": test.name, "suite": suite_name }));
        suite_cases.push(SuiteCase {
            name: suite_name,
            test,
            description: describe(test, bug.map(|b| &bugs[b])),
        });
    }
    r.bugs = bugs;
    for f in ["stats.json", "coverage.json", "info"] {
        let _ = std::fs::copy(run_dir.join(f), staging.join(f));
    }
    let minimize_json = serde_json::json!({
        "tests_before": tests.len(),
        "tests_after": keep.len(),
        "bugs": r.bugs.len(),
        "kept": mapping,
    });
    write_atomic(
        &staging.join("minimize.json"),
        serde_json::to_string_pretty(&minimize_json)?.as_bytes(),
    )?;
    if ctx.emit {
        emit::write_suite(t, &suite_cases)?;
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

fn sanitize_ident(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

fn read_json(p: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", p.display()))
}
