//! `[[crosscheck]]` (the KLEE paper's §5.5): two program targets run one
//! after the other in one symbolic environment (the same arguments, files and
//! stdin), their exit statuses and stdout compared by the engine
//! (`exec FIRST.bc --crosscheck SECOND.bc`). A pair of paths whose outputs can
//! differ gives a `mismatch` test; each is replayed on both native programs
//! and reported confirmed (they differ natively: the first differing line) or
//! not reproduced (with the reason). `symtest-out/<name>/` is replaced
//! atomically, as a target's.

pub mod confirm;
pub mod report;

use crate::compile::CompileError;
use crate::discovery::{Crosscheck, CrosscheckForm, ExecArgsCheck, Target};
use crate::explore_options::ExploreOptions;
use crate::from_build::Captured;
use crate::fsutil::{replace_dir, write_atomic};
use crate::library::cross::Pairing;
use crate::pipeline::Ctx;
use crate::progress::{Event, Level, Phase};
use crate::report::Status;
use crate::stages::{self, Compiled, TargetCtx};
use crate::testcases::{self, EngineTest, Outcome};
use anyhow::{Context, Result};
use confirm::{Side, SideNative};
use report::{CrosscheckReport, SideBug};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The error kind of a test whose two programs' outputs differ.
pub const MISMATCH_KIND: &str = "mismatch";

/// A program's fixed leading words in a crosscheck: the words of its `args`
/// before the first option of the symbolic environment (a multi-call
/// binary's tool name); the crosscheck's `args` replace the rest.
pub fn fixed_words(t: &Target) -> Vec<String> {
    t.args
        .iter()
        .take_while(|a| !crate::config::is_environment_option(a))
        .cloned()
        .collect()
}

/// The program target as the crosscheck runs it: its fixed words, then the
/// shared environment (what its native runner rebuilds argv from).
pub fn side_target(t: &Target, shared: &[String]) -> Target {
    let mut args = fixed_words(t);
    args.extend(shared.iter().cloned());
    Target {
        args,
        exec_args: Vec::new(),
        option_seeds: false,
        ..t.clone()
    }
}

/// The two programs of a crosscheck, each as it runs there (a function
/// crosscheck's sides are generated when it runs: [`side_programs`]).
pub fn sides(c: &Crosscheck) -> Option<[Target; 2]> {
    match &c.form {
        CrosscheckForm::Programs(p) => {
            Some([side_target(&p[0], &c.args), side_target(&p[1], &c.args)])
        }
        CrosscheckForm::Functions(_) => None,
    }
}

/// The names of a crosscheck's two sides (directories of its output).
pub fn side_names(c: &Crosscheck) -> [String; 2] {
    match &c.form {
        CrosscheckForm::Programs(p) => [p[0].name.clone(), p[1].name.clone()],
        CrosscheckForm::Functions(f) => {
            let [a, b] = &f.libraries;
            let [x, y] = &f.functions;
            match f.pairing {
                Pairing::Equal => [format!("{}.{x}", a.name), format!("{}.{y}", b.name)],
                Pairing::Inverse => [
                    format!("{}.{x}.input", a.name),
                    format!("{}.{y}.{x}", b.name),
                ],
            }
        }
    }
}

/// The two programs the engine runs, with their captures: the program
/// targets, or the harnesses generated for two functions.
fn side_programs(
    c: &Crosscheck,
    ctx: &Ctx,
) -> std::result::Result<([Target; 2], [Option<Captured>; 2]), CompileError> {
    if let Some([a, b]) = sides(c) {
        let cap = |t: &Target| ctx.captured.get(&t.name).cloned();
        let captured = [cap(&a), cap(&b)];
        return Ok(([a, b], captured));
    }
    let CrosscheckForm::Functions(f) = &c.form else {
        unreachable!("a crosscheck has programs or functions")
    };
    let spec = |t: &Target| {
        t.library.clone().ok_or_else(|| CompileError {
            command: "crosscheck".into(),
            diagnostics: format!("`{}` is not a library target", t.name),
        })
    };
    let [la, lb] = &f.libraries;
    let (sa, sb) = (spec(la)?, spec(lb)?);
    let names = side_names(c);
    let [p, q] = crate::library::cross::prepare_pair(
        &names,
        [
            crate::library::cross::Side {
                target: la,
                spec: &sa,
                captured: ctx.captured.get(&la.name),
                function: &f.functions[0],
            },
            crate::library::cross::Side {
                target: lb,
                spec: &sb,
                captured: ctx.captured.get(&lb.name),
                function: &f.functions[1],
            },
        ],
        f.pairing,
        &ctx.models_include,
        &ctx.build_root.join(&c.name).join("generated"),
    )?;
    Ok(([p.target, q.target], [p.captured, q.captured]))
}

/// The shared environment checked as `exec` checks a program's: each side's
/// command line as an ordinary run would be.
pub fn environment_ok(c: &Crosscheck, check: ExecArgsCheck) -> Result<(), String> {
    for s in sides(c).into_iter().flatten() {
        let mut argv = vec!["cargo-symtest".to_string()];
        argv.extend(crate::explore::exec_args(
            &s,
            Path::new("target.bc"),
            Path::new("out"),
            1.0,
        ));
        check(&argv)?;
    }
    Ok(())
}

/// `cargo-symtest exec FIRST.bc --crosscheck SECOND.bc ...`: the first
/// program's argv after its name is its fixed words then the environment
/// (`--first-fixed` counts the former); the second's is its own fixed words
/// (`--crosscheck-fixed`) then the same environment.
pub fn exec_args(c: &Crosscheck, bitcode: [&Path; 2], out: &Path, budget_s: f64) -> Vec<String> {
    let (first, second) = match &c.form {
        CrosscheckForm::Programs(p) => (fixed_words(&p[0]), fixed_words(&p[1])),
        CrosscheckForm::Functions(_) => (Vec::new(), Vec::new()),
    };
    let mut o = ExploreOptions {
        crosscheck: Some(bitcode[1].to_path_buf()),
        crosscheck_fixed: second,
        first_fixed: first.len(),
        output_dir: Some(out.to_path_buf()),
        max_time: Some(budget_s),
        quiet: true,
        progress_json: true,
        max_instructions: c.max_instructions,
        libc: "musl".into(),
        posix_runtime: true,
        ..ExploreOptions::default()
    };
    if let Some(n) = c.seed {
        o.seed = n;
    }
    let mut a: Vec<String> = vec!["exec".into(), bitcode[0].display().to_string()];
    a.extend(o.to_args());
    a.push("--".into());
    a.extend(first);
    a.extend(c.args.iter().cloned());
    a
}

pub fn is_mismatch(t: &EngineTest) -> bool {
    matches!(&t.outcome, Outcome::Error(e) if e.kind == MISMATCH_KIND)
}

/// What the engine says of a test, briefly.
pub fn engine_message(t: &EngineTest) -> String {
    match &t.outcome {
        Outcome::Exit { code } => format!("exit {code}"),
        Outcome::Error(e) => format!("{}: {}", e.kind, e.message),
        Outcome::Early { reason, .. } => format!("stopped early: {reason}"),
    }
}

type Send<'a> = &'a (dyn Fn(Event) + Sync);

/// Runs one crosscheck: compile both programs, explore, confirm natively,
/// write `symtest-out/<name>/`.
pub fn process(c: &Crosscheck, ctx: &Ctx, budget_s: f64, send: Send) -> CrosscheckReport {
    let started = Instant::now();
    let mut r = CrosscheckReport::new(
        &c.name,
        c.package.clone(),
        side_names(c),
        ctx.out_root.join(&c.name),
    );
    r.budget_s = budget_s;
    let result = match side_programs(c, ctx) {
        Ok((targets, captured)) => steps(c, targets, &captured, ctx, send, &mut r, started),
        Err(e) => {
            r.status = Status::CompileError;
            Err(anyhow::anyhow!(
                "no harness could be generated; crosscheck skipped\n{}\n{}",
                e.command,
                e.diagnostics.trim_end()
            ))
        }
    };
    if let Err(e) = result {
        if r.status == Status::Ok {
            r.status = Status::Failed;
        }
        let text = format!("{e:#}");
        message(send, c, Level::Error, text.clone());
        r.message = Some(text);
    }
    r.total_s = started.elapsed().as_secs_f64();
    r
}

fn message(send: Send, c: &Crosscheck, level: Level, text: String) {
    send(Event::Message {
        target: c.name.clone(),
        level,
        text,
    });
}

fn phase(send: Send, c: &Crosscheck, phase: Phase, detail: String) {
    send(Event::Phase {
        target: c.name.clone(),
        phase,
        detail,
    });
}

fn steps(
    c: &Crosscheck,
    targets: [Target; 2],
    captured: &[Option<Captured>; 2],
    ctx: &Ctx,
    send: Send,
    r: &mut CrosscheckReport,
    started: Instant,
) -> Result<()> {
    let build = ctx.build_root.join(&c.name);
    phase(
        send,
        c,
        Phase::Compiling,
        format!(
            "(crosscheck: `{}` against `{}`)",
            r.programs[0], r.programs[1]
        ),
    );
    let compiled = compile_sides(&targets, captured, ctx, &build, r)?;
    phase(
        send,
        c,
        Phase::Exploring,
        format!("(budget {}s)", r.budget_s),
    );
    let run_dir = build.join("run");
    let args = exec_args(
        c,
        [&compiled[0].bitcode, &compiled[1].bitcode],
        &run_dir,
        r.budget_s,
    );
    let res = crate::explore::run_exec(&args, &c.root, &run_dir, r.budget_s, |live| {
        send(Event::Progress {
            target: c.name.clone(),
            live,
        })
    });
    r.explore_s = res.elapsed_s;
    if let Err(m) = res.status {
        r.status = Status::EngineFailed;
        anyhow::bail!("{m}");
    }
    r.engine_overran = res.overran;
    read_engine_results(&run_dir, r)?;
    let mut tests = testcases::read_dir(&run_dir)?;
    // The engine records the first program's arguments with each test; each
    // side replays under its own (its fixed words, then the shared ones).
    for t in &mut tests {
        t.program_args = None;
    }
    r.tests_written = tests.len();
    let staging = ctx.out_root.join(format!(".{}.new~", c.name));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
    let sides: [Side; 2] = {
        let [a, b] = targets;
        let [ca, cb] = &compiled;
        [
            Side {
                target: a,
                compiled: ca,
                build: build.join("first"),
            },
            Side {
                target: b,
                compiled: cb,
                build: build.join("second"),
            },
        ]
    };
    confirm_all(c, ctx, &sides, &tests, &staging, send, r)?;
    for t in &tests {
        for f in t.files() {
            let name = f.file_name().unwrap_or_default();
            std::fs::copy(&f, staging.join(name))
                .with_context(|| format!("copying {}", f.display()))?;
        }
    }
    for f in ["stats.json", "info"] {
        let _ = std::fs::copy(run_dir.join(f), staging.join(f));
    }
    r.total_s = started.elapsed().as_secs_f64();
    write_atomic(
        &staging.join("summary.json"),
        serde_json::to_string_pretty(&*r)?.as_bytes(),
    )?;
    replace_dir(&staging, &r.out_dir)
}

/// Both programs' bitcode, each in its own directory under `build`.
fn compile_sides(
    targets: &[Target; 2],
    captured: &[Option<Captured>; 2],
    ctx: &Ctx,
    build: &Path,
    r: &mut CrosscheckReport,
) -> Result<[Compiled; 2]> {
    let one = |i: usize, dir: &str| -> Result<Compiled> {
        let t = &targets[i];
        let tc = TargetCtx {
            target: t,
            root: &ctx.root,
            build: build.join(dir),
            models_include: &ctx.models_include,
            captured: captured[i].as_ref(),
        };
        stages::compile(&tc).map_err(|e| {
            anyhow::anyhow!(
                "program `{}` does not compile; crosscheck skipped\n{}\n{}",
                t.name,
                e.command,
                e.diagnostics.trim_end()
            )
        })
    };
    let compiled = one(0, "first").and_then(|a| Ok([a, one(1, "second")?]));
    if compiled.is_err() {
        r.status = Status::CompileError;
    }
    compiled
}

/// The pair counts of the engine's statistics and its halt reason.
fn read_engine_results(run_dir: &Path, r: &mut CrosscheckReport) -> Result<()> {
    r.halt_reason = std::fs::read_to_string(run_dir.join("info"))
        .ok()
        .and_then(|i| {
            i.lines()
                .find_map(|l| l.strip_prefix("halt reason: ").map(str::to_string))
        });
    if r.engine_overran {
        return Ok(());
    }
    let p = run_dir.join("stats.json");
    let text = std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
    let stats: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", p.display()))?;
    let n = |k: &str| stats.get(k).and_then(|v| v.as_u64());
    r.paths = n("crosscheck_pairs").with_context(|| {
        format!(
            "{} has no `crosscheck_pairs`: the engine did not run a crosscheck",
            p.display()
        )
    })?;
    r.paths_equal = n("crosscheck_equal").unwrap_or(0);
    Ok(())
}

/// Every mismatch replayed on both native programs and compared; every
/// low-level bug's test replayed on both sanitizer builds.
fn confirm_all(
    c: &Crosscheck,
    ctx: &Ctx,
    sides: &[Side; 2],
    tests: &[EngineTest],
    staging: &Path,
    send: Send,
    r: &mut CrosscheckReport,
) -> Result<()> {
    let mismatches: Vec<&EngineTest> = tests.iter().filter(|t| is_mismatch(t)).collect();
    let bugs = representatives(tests, &ctx.root, &c.name);
    let bug_tests: Vec<&EngineTest> = bugs.iter().map(|(_, t)| *t).collect();
    r.mismatches = mismatches.len();
    if mismatches.is_empty() && bugs.is_empty() {
        return Ok(());
    }
    phase(
        send,
        c,
        Phase::Replaying,
        format!(
            "({} mismatch and {} bug test(s) on both native programs)",
            mismatches.len(),
            bugs.len()
        ),
    );
    let native_dir = |i: usize| -> PathBuf { staging.join("native").join(&sides[i].target.name) };
    let native: [SideNative; 2] = [
        confirm::run_side(
            &sides[0],
            &ctx.root,
            &mismatches,
            &bug_tests,
            &native_dir(0),
        )?,
        confirm::run_side(
            &sides[1],
            &ctx.root,
            &mismatches,
            &bug_tests,
            &native_dir(1),
        )?,
    ];
    r.mismatch_list = mismatches
        .iter()
        .map(|t| confirm::compare(t, sides, &native))
        .collect();
    r.mismatches_confirmed = r.mismatch_list.iter().filter(|m| m.confirmed).count();
    r.bugs = bugs
        .into_iter()
        .enumerate()
        .map(|(k, (bug, t))| SideBug {
            bug,
            test: t.name.clone(),
            reproduced_by: (0..2)
                .filter(|&i| {
                    native[i].bug_verdicts[k]
                        .as_deref()
                        .is_some_and(|v| v.contains("BUG still present"))
                })
                .map(|i| sides[i].target.name.clone())
                .collect(),
        })
        .collect();
    report_findings(c, send, r);
    if ctx.emit {
        r.suite_dirs = emit_suites(c, ctx, sides, &mismatches, r, staging)?;
    }
    Ok(())
}

/// The suites that document the difference: per program, its native
/// behaviour on each confirmed mismatch as recorded (exit status, streams,
/// files), in `tests/symtest/<name>/<program>/` beside the configuration. A
/// fix that makes the programs agree changes one side's behaviour: its suite
/// then fails on that test.
fn emit_suites(
    c: &Crosscheck,
    ctx: &Ctx,
    sides: &[Side; 2],
    mismatches: &[&EngineTest],
    r: &CrosscheckReport,
    staging: &Path,
) -> Result<Vec<PathBuf>> {
    let confirmed: Vec<(&EngineTest, &report::Mismatch)> = mismatches
        .iter()
        .zip(&r.mismatch_list)
        .filter(|(_, m)| m.confirmed)
        .map(|(t, m)| (*t, m))
        .collect();
    if confirmed.is_empty() {
        return Ok(Vec::new());
    }
    let mut dirs = Vec::new();
    for (i, side) in sides.iter().enumerate() {
        let other = &sides[1 - i].target.name;
        let target = Target {
            suite_dir: c
                .root
                .join("tests/symtest")
                .join(&c.name)
                .join(&side.target.name),
            ..side.target.clone()
        };
        let cases: Vec<crate::emit::SuiteCase> = confirmed
            .iter()
            .map(|(t, m)| crate::emit::SuiteCase {
                name: t.name.clone(),
                test: t,
                description: format!(
                    "crosscheck {}: differs from `{other}` ({})",
                    c.name,
                    m.differs.join(" and ")
                ),
                bug: false,
            })
            .collect();
        let expected: Vec<(PathBuf, String)> = confirmed
            .iter()
            .map(|(t, _)| {
                let dir = staging.join("native").join(&side.target.name).join(&t.name);
                (dir, t.name.clone())
            })
            .collect();
        crate::emit::write_suite(&target, &side.compiled.inputs, &ctx.root, &cases, &expected)?;
        dirs.push(target.suite_dir);
    }
    Ok(dirs)
}

/// The first test of each low-level bug (by identity), with the bug.
fn representatives<'a>(
    tests: &'a [EngineTest],
    root: &Path,
    name: &str,
) -> Vec<(crate::baseline::Bug, &'a EngineTest)> {
    let mut out: Vec<(crate::baseline::Bug, &EngineTest)> = Vec::new();
    for t in tests.iter().filter(|t| !is_mismatch(t)) {
        if let Some(e) = t.bug() {
            let b = crate::baseline::identify(e, root, name);
            if !out.iter().any(|(k, _)| k.id == b.id) {
                out.push((b, t));
            }
        }
    }
    out
}

/// Each confirmed mismatch as a note, the unconfirmed ones loudly.
fn report_findings(c: &Crosscheck, send: Send, r: &CrosscheckReport) {
    for m in &r.mismatch_list {
        if m.confirmed {
            let detail = match m.stdout_line {
                Some(l) => format!(
                    "stdout line {l}: {:?} against {:?}",
                    m.sides[0]
                        .first_differing_line
                        .as_deref()
                        .unwrap_or("(end of output)"),
                    m.sides[1]
                        .first_differing_line
                        .as_deref()
                        .unwrap_or("(end of output)")
                ),
                None => format!(
                    "`{}` against `{}`",
                    m.sides[0].status.as_deref().unwrap_or("?"),
                    m.sides[1].status.as_deref().unwrap_or("?")
                ),
            };
            message(
                send,
                c,
                Level::Info,
                format!(
                    "mismatch {} confirmed natively: {detail}; input: {}",
                    m.test, m.sides[0].input
                ),
            );
        } else {
            message(
                send,
                c,
                Level::Warning,
                format!(
                    "mismatch {} NOT confirmed natively: {}",
                    m.test,
                    m.reason.as_deref().unwrap_or("")
                ),
            );
        }
    }
    if r.unconfirmed() > 0 {
        message(
            send,
            c,
            Level::Warning,
            format!(
                "{} of {} mismatches were not confirmed by the native programs (see {}/summary.json)",
                r.unconfirmed(),
                r.mismatches,
                r.out_dir.display()
            ),
        );
    }
    for b in r.bugs.iter().filter(|b| b.reproduced_by.is_empty()) {
        message(
            send,
            c,
            Level::Warning,
            format!(
                "the engine's {} at {}:{} (test {}) did not reproduce on either native program",
                b.bug.kind, b.bug.file, b.bug.line, b.test
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_words_stop_at_the_environment() {
        let mut t = crate::run::tests::target(crate::config::Kind::Program);
        t.args = ["wc", "-l", "--sym-args", "0", "2", "2", "--x"]
            .map(String::from)
            .to_vec();
        assert_eq!(fixed_words(&t), ["wc", "-l"]);
        let s = side_target(&t, &["-sym-stdin".into(), "8".into()]);
        assert_eq!(s.args, ["wc", "-l", "-sym-stdin", "8"]);
        assert!(!s.option_seeds);
    }

    #[test]
    fn the_engine_gets_both_programs_and_their_fixed_words() {
        let mut a = crate::run::tests::target(crate::config::Kind::Program);
        a.args = vec!["--sym-args".into(), "0".into(), "1".into(), "2".into()];
        let mut b = a.clone();
        b.name = "b".into();
        b.args = vec!["wc".into(), "-x".into()];
        let c = Crosscheck {
            name: "vs".into(),
            package: None,
            root: a.root.clone(),
            config_file: a.config_file.clone(),
            line: 1,
            form: CrosscheckForm::Programs(Box::new([a, b])),
            args: vec!["--sym-stdin".into(), "4".into()],
            max_time: None,
            max_instructions: Some(9),
            seed: Some(2),
        };
        let args = exec_args(
            &c,
            [Path::new("a.bc"), Path::new("b.bc")],
            Path::new("o"),
            5.0,
        );
        let s: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(
            &s[..6],
            [
                "exec",
                "a.bc",
                "--crosscheck",
                "b.bc",
                "--crosscheck-fixed=wc",
                "--crosscheck-fixed=-x"
            ]
        );
        assert!(s.windows(2).any(|w| w == ["--first-fixed", "0"]), "{s:?}");
        assert!(s.windows(2).any(|w| w == ["--seed", "2"]), "{s:?}");
        let tail: Vec<&str> = s.iter().copied().skip_while(|a| *a != "--").collect();
        assert_eq!(tail, ["--", "--sym-stdin", "4"]);
    }
}
