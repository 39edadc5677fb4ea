//! Seeds from the project's own tests (`seed-tests`) and input files
//! (`seed-inputs`), for program targets (ZESTI: Marinescu and Cadar, ICSE
//! 2012; KLEE's seed mode).
//!
//! After the build, each test command runs once with the programs of the
//! targets naming it wrapped ([`record`]); every run of a program becomes a
//! seed of its target ([`layout`]): a `.ktest` carrying the engine argv of
//! the run's own symbolic environment and the run's values, which the engine
//! follows first (`exec --seed-dir <dir> --seed-own-args`). Seeds are
//! written to `<build>/<target>/seeds/` (`seedNNNNNN.ktest`, identical ones
//! once, in the order of their bytes; `seeds.json` tells where each came
//! from), and the recording is reported: runs seen, runs kept, what was cut
//! at the bound, and why any run was left out.

pub mod layout;
mod preserve;
pub mod propose;
pub mod record;

use crate::config::SeedInputsAs;
use crate::discovery::Target;
use crate::explore_options::ExploreOptions;
use crate::progress::{Event, Level, Phase};
use crate::report::SeedsReport;
use crate::Error;
use anyhow::Context;
use layout::{FileArg, Run, Seed};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};

/// A target's seeds, ready for the engine.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub report: SeedsReport,
    /// Seconds spent recording and writing them.
    pub seconds: f64,
}

impl Prepared {
    /// Hands the seeds to the engine (`--seed-dir DIR --seed-own-args`;
    /// nothing without seeds).
    pub fn add_to(&self, o: &mut ExploreOptions) {
        if self.report.seeds == 0 {
            return;
        }
        o.seed_dir.push(self.report.dir.clone());
        o.seed_own_args = true;
    }
}

/// One source of a seed, for `seeds.json` and the report.
#[derive(Clone, Debug)]
struct Origin {
    /// The command line as run (`./prog -l notes.txt`), or the input file.
    shown: String,
    environment: BTreeSet<String>,
}

/// Where a target's seeds go: `<build>/<target>/seeds/`.
pub fn seed_dir(build_root: &Path, t: &Target) -> PathBuf {
    build_root.join(&t.name).join("seeds")
}

/// The name a target's program runs under in the engine (argv[0]): its
/// bitcode is `<name>.bc` (compile.rs), and `exec` names the program after
/// the file.
fn program_name(t: &Target) -> &str {
    &t.name
}

/// A target's runs under its test command.
struct TestRuns {
    runs: Vec<Result<record::Recorded, String>>,
    /// The command as written (`make check`).
    command: String,
    /// How it failed, if it did.
    failed: Option<String>,
    /// The target's share of the time the command took.
    seconds: f64,
}

/// The targets that name one test command (from one directory).
struct Group<'a> {
    root: &'a Path,
    command: &'a [String],
    /// Where the first of them names it (`file:line: key ...`).
    place: String,
    targets: Vec<&'a Target>,
}

/// Records and writes the seeds of every target that has any, test commands
/// first (each once, for all the targets naming it, one after the other),
/// then input files. Per target name.
pub fn prepare_all(
    targets: &[Target],
    build_root: &Path,
    on_event: &mut dyn FnMut(Event),
) -> Result<HashMap<String, Prepared>, Error> {
    let mut recorded = record_all(targets, build_root, on_event)?;
    let mut out = HashMap::new();
    for t in targets {
        let Some(spec) = &t.seeds else { continue };
        let started = std::time::Instant::now();
        let mut report = SeedsReport {
            max_bytes: spec.max_bytes,
            dir: seed_dir(build_root, t),
            ..SeedsReport::default()
        };
        let mut runs: Vec<Result<(Run, Origin), String>> = Vec::new();
        let mut never_ran = false;
        let mut seconds = 0.0;
        if let Some(tr) = recorded.remove(&t.name) {
            never_ran = tr.runs.is_empty();
            seconds = tr.seconds;
            report.sources.push(tr.command);
            report.tests_failed = tr.failed;
            runs.extend(tr.runs.into_iter().map(|r| {
                r.map(|r| {
                    let o = Origin {
                        shown: r.shown,
                        environment: r.environment,
                    };
                    (r.run, o)
                })
            }));
        }
        if let Some(glob) = &spec.inputs_glob {
            let how = match spec.inputs_as {
                SeedInputsAs::Stdin => "stdin",
                SeedInputsAs::File => "file",
            };
            report.sources.push(format!("{glob} (as {how})"));
            runs.extend(
                spec.inputs
                    .iter()
                    .map(|p| input_run(t, p, spec.inputs_as, spec.max_bytes)),
            );
        }
        write_seeds(t, runs, &mut report)?;
        on_event(Event::Message {
            target: t.name.clone(),
            level: if report.left_out.is_empty() {
                Level::Info
            } else {
                Level::Warning
            },
            text: summary_line(t, &report, never_ran),
        });
        seconds += started.elapsed().as_secs_f64();
        out.insert(t.name.clone(), Prepared { report, seconds });
    }
    Ok(out)
}

/// Runs each test command once with the programs of all the targets naming
/// it wrapped. Per target name.
fn record_all(
    targets: &[Target],
    build_root: &Path,
    on_event: &mut dyn FnMut(Event),
) -> Result<HashMap<String, TestRuns>, Error> {
    let mut groups: Vec<Group> = Vec::new();
    for t in targets {
        let Some((command, line)) = t.seeds.as_ref().and_then(|s| s.tests.as_ref()) else {
            continue;
        };
        match groups
            .iter_mut()
            .find(|g| g.root == t.root.as_path() && g.command == command.as_slice())
        {
            Some(g) => g.targets.push(t),
            None => groups.push(Group {
                root: &t.root,
                command,
                place: format!("{}:{line}: key `seed-tests`", t.config_file.display()),
                targets: vec![t],
            }),
        }
    }
    let mut out = HashMap::new();
    for g in groups {
        let started = std::time::Instant::now();
        let shown = g.command.join(" ");
        for t in &g.targets {
            on_event(Event::Phase {
                target: t.name.clone(),
                phase: Phase::Seeding,
                detail: format!("(recording its runs under `{shown}`)"),
            });
        }
        let max = |t: &Target| t.seeds.as_ref().map_or(0, |s| s.max_bytes);
        let mut rec = record::record(g.root, g.command, &g.place, &g.targets, build_root, max)?;
        let seconds = started.elapsed().as_secs_f64() / g.targets.len() as f64;
        let put_back = put_back_warning(&shown, &rec.put_back, g.root);
        for t in &g.targets {
            if let Some(text) = &put_back {
                on_event(Event::Message {
                    target: t.name.clone(),
                    level: Level::Warning,
                    text: text.clone(),
                });
            }
            if let Some(how) = &rec.failed {
                on_event(Event::Message {
                    target: t.name.clone(),
                    level: Level::Warning,
                    text: format!(
                        "seeds: the test command `{shown}` failed ({how}; its output is in {}): the runs it made are used all the same",
                        rec.log.display()
                    ),
                });
            }
            let runs = rec.runs.remove(&t.name).unwrap_or_default();
            let under_valgrind = runs
                .iter()
                .filter(|r| r.as_ref().is_ok_and(|r| r.under_valgrind))
                .count();
            if under_valgrind > 0 {
                on_event(Event::Message {
                    target: t.name.clone(),
                    level: Level::Warning,
                    text: valgrind_warning(t, &shown, under_valgrind, rec.failed.is_some()),
                });
            }
            out.insert(
                t.name.clone(),
                TestRuns {
                    runs,
                    command: shown.clone(),
                    failed: rec.failed.clone(),
                    seconds,
                },
            );
        }
    }
    Ok(out)
}

/// The warning for the sources and headers the test command `shown`
/// changed, if it changed any: which, and that they are as the build left
/// them again (or which could not be put back).
fn put_back_warning(
    shown: &str,
    put_back: &[(PathBuf, Option<String>)],
    root: &Path,
) -> Option<String> {
    if put_back.is_empty() {
        return None;
    }
    let name = |p: &PathBuf| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let mut names: Vec<String> = put_back.iter().take(5).map(|(p, _)| name(p)).collect();
    if put_back.len() > 5 {
        names.push(format!("{} more", put_back.len() - 5));
    }
    let mut text = format!(
        "seeds: the test command `{shown}` changed {} C source(s) or header(s) the build had left ({}): put back as the build left them, so that the native build compiles what was explored",
        put_back.len(),
        names.join(", ")
    );
    for (p, e) in put_back {
        if let Some(e) = e {
            text.push_str(&format!("; {} could not be put back: {e}", name(p)));
        }
    }
    Some(text)
}

/// What `count` runs made under valgrind mean for the recording: the
/// recorder stands in for the program, so valgrind runs the recorder, and
/// the program it executes runs without valgrind (valgrind follows no
/// `exec` unless told to): valgrind reports nothing of the program, a test
/// that checks its report fails, and the runs a failing test script would
/// have made after it are missing.
fn valgrind_warning(t: &Target, shown: &str, count: usize, failed: bool) -> String {
    let program = t
        .build
        .as_ref()
        .map_or(t.name.clone(), |b| b.written.clone());
    format!(
        "seeds: {count} run(s) of `{program}` under `{shown}` were made under valgrind: valgrind ran the recorder that stands in for `{program}`, and `{program}` itself ran without valgrind, so valgrind reported nothing of it{}; run the tests without valgrind (the project's own switch for it, if it has one)",
        if failed {
            " (a test that checks valgrind's report fails, and the runs the tests would have made after it are missing)"
        } else {
            ""
        }
    )
}

/// The run an input file makes: the target's fixed leading words (its
/// `args` before the first option of the symbolic environment), then, as a
/// file, `A`; or the file on stdin.
fn input_run(
    t: &Target,
    path: &Path,
    how: SeedInputsAs,
    max: usize,
) -> Result<(Run, Origin), String> {
    let shown = path
        .strip_prefix(&t.root)
        .unwrap_or(path)
        .display()
        .to_string();
    let mut contents = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(max as u64 + 1).read_to_end(&mut contents))
        .map_err(|e| format!("the input file {shown} could not be read: {e}"))?;
    let mut args: Vec<Vec<u8>> = crate::crosscheck::fixed_words(t)
        .into_iter()
        .map(String::into_bytes)
        .collect();
    let mut run = Run::default();
    match how {
        SeedInputsAs::Stdin => run.stdin = Some(contents),
        SeedInputsAs::File => {
            run.files.push(FileArg {
                index: args.len(),
                offset: 0,
                contents,
            });
            args.push(std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).to_vec());
        }
    }
    run.args = args;
    let origin = Origin {
        shown,
        environment: BTreeSet::new(),
    };
    Ok((run, origin))
}

/// One entry of `seeds.json`.
#[derive(Serialize)]
struct SeedEntry<'a> {
    seed: String,
    /// The runs it stands for (identical runs make one seed).
    runs: Vec<&'a str>,
    args: &'a [String],
    truncated: &'a [String],
    padded: &'a [String],
}

/// Converts the runs, writes the distinct seeds (in the order of their
/// bytes) and `seeds.json`, and fills the report's counts.
fn write_seeds(
    t: &Target,
    runs: Vec<Result<(Run, Origin), String>>,
    report: &mut SeedsReport,
) -> Result<(), Error> {
    let max = report.max_bytes;
    let mut distinct: BTreeMap<Vec<u8>, (Seed, Vec<Origin>)> = BTreeMap::new();
    let mut environment = BTreeSet::new();
    report.runs_seen = runs.len();
    for r in runs {
        let (run, origin) = match r {
            Ok(x) => x,
            Err(why) => {
                report.left_out.push(why);
                continue;
            }
        };
        match layout::seed_of(program_name(t), &run, max) {
            Ok(seed) => {
                report.runs_kept += 1;
                environment.extend(origin.environment.iter().cloned());
                let entry = distinct
                    .entry(seed.ktest.to_bytes())
                    .or_insert_with(|| (seed, Vec::new()));
                entry.1.push(origin);
            }
            Err(why) => report.left_out.push(format!("`{}`: {why}", origin.shown)),
        }
    }
    report.environment = environment.into_iter().collect();
    report.seeds = distinct.len();
    let dir = &report.dir;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut entries = Vec::new();
    for (i, (bytes, (seed, origins))) in distinct.iter().enumerate() {
        let name = format!("seed{:06}", i + 1);
        let path = dir.join(format!("{name}.ktest"));
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        report.truncated += usize::from(!seed.truncated.is_empty());
        report.padded += usize::from(!seed.padded.is_empty());
        entries.push(SeedEntry {
            seed: name,
            runs: origins.iter().map(|o| o.shown.as_str()).collect(),
            args: &seed.ktest.args,
            truncated: &seed.truncated,
            padded: &seed.padded,
        });
    }
    let json = serde_json::to_string_pretty(&entries).context("seeds.json")?;
    let path = dir.join("seeds.json");
    std::fs::write(&path, json).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// The recording in one line.
fn summary_line(t: &Target, r: &SeedsReport, never_ran: bool) -> String {
    let program = t
        .build
        .as_ref()
        .map_or(t.name.clone(), |b| b.written.clone());
    let mut s = format!(
        "seeds: {} run(s) of `{program}` seen ({}), {} kept as {} distinct seed(s) in {}",
        r.runs_seen,
        r.sources.join("; "),
        r.runs_kept,
        r.seeds,
        r.dir.display()
    );
    if r.truncated > 0 {
        s.push_str(&format!(
            "; {} cut at seed-max-bytes = {}",
            r.truncated, r.max_bytes
        ));
    }
    if r.padded > 0 {
        s.push_str(&format!(
            "; {} with files padded with zeros to the longest (the model gives every file one size)",
            r.padded
        ));
    }
    if !r.environment.is_empty() {
        s.push_str(&format!(
            "; environment variables the tests set, not replayed (the model's environment is fixed): {}",
            r.environment.join(", ")
        ));
    }
    if !r.left_out.is_empty() {
        s.push_str(&format!("; {} left out:", r.left_out.len()));
        for why in r.left_out.iter().take(5) {
            s.push_str(&format!("\n  {why}"));
        }
        if r.left_out.len() > 5 {
            s.push_str(&format!(
                "\n  ... ({} more in summary.json)",
                r.left_out.len() - 5
            ));
        }
    }
    if never_ran {
        s.push_str(&format!(
            " (the test command never ran `{program}`: do its tests run this executable?)"
        ));
    }
    s
}
