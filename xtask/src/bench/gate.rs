//! `cargo xtask bench gate [--quick] [--only a,b] [--bugs N] [--budget S]
//! [--seed S] [--out DIR]`: how often a gate run catches the bug a pull
//! request brings, directed (`--changed-since`) and undirected.
//!
//! On the coreutils project of `bench coreutils` (a git repository of its C
//! sources), `cargo symtest` runs once on the unmodified utilities: its kept
//! tests are the baseline and the seeds. Then, per utility, a seeded
//! generator plants bugs: a statement inserted before a line the kept tests
//! execute, which goes wrong on the line's (K+1)-th execution in one run,
//! K being the most any kept test executes it (a write or a read past an
//! array of K bytes, a loop bound one past such an array, a division by a
//! counter down to zero, a signed counter up past its maximum). So each bug
//! needs an input the kept tests do not have: one that runs the changed
//! line more often. A bug is kept only when a native input reaches it: a test
//! the base run wrote (kept or not) that runs the line more than K times,
//! replayed on the native build with the bug planted, must trap. Each kept
//! bug is then gated twice from the base's results and baseline, at the
//! budget: `cargo symtest --changed-since HEAD` and without it. A bug counts
//! as detected when the run reports a new bug on the planted lines.

use crate::{paths, setup, util};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

pub const UTILITIES: &[&str] = &[
    "uniq", "cut", "fold", "paste", "expand", "tac", "comm", "join", "nl", "tr",
];
/// The change to uniq's writeline() that a 60-s undirected gate missed
/// (issue 32), planted as written there, beside the generated bugs.
const ISSUE_UNIQ: &str = "issue-32";

const KINDS: &[&str] = &[
    "oob-write",
    "off-by-one",
    "div-zero",
    "oob-read",
    "overflow",
];
/// The options of `bench gate`.
#[derive(clap::Parser)]
pub struct Options {
    /// uniq and fold only, 2 bugs each, 20 s per run (unless the other
    /// options say otherwise)
    #[arg(long)]
    pub quick: bool,
    /// Only these coreutils utilities of the benchmarks (comma-separated)
    #[arg(long, value_name = "A,B", value_delimiter = ',', value_parser = utility)]
    pub only: Vec<String>,
    /// Bugs planted per utility, 1..=100 [default: 5, 2 with --quick]
    #[arg(long, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100))]
    pub bugs: Option<usize>,
    /// Seconds per gate run, 0 < S <= 86400 [default: 60, 20 with --quick]
    #[arg(long = "budget", value_name = "SECONDS", value_parser = super::seconds)]
    pub budget_s: Option<f64>,
    /// Seed of the bug generator
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Where the project and the reports go [default: target/bench/gate]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// An `--only` value: a coreutils utility of the benchmarks.
fn utility(u: &str) -> std::result::Result<String, String> {
    if super::coreutils::UTILITIES.contains(&u) {
        Ok(u.to_string())
    } else {
        Err(format!(
            "`{u}` is not a coreutils utility of the benchmarks"
        ))
    }
}

/// A planted bug.
#[derive(Clone)]
pub struct Plant {
    pub utility: String,
    /// The line it is inserted before (1-based, in the unmodified file).
    pub line: u32,
    pub kind: &'static str,
    /// The most executions of the line by one kept test.
    pub threshold: u64,
    /// The base run's test that reaches it natively.
    pub witness: String,
}

/// One gate run's result on a planted bug.
#[derive(Default, Clone)]
pub struct Gated {
    pub detected: bool,
    /// Seconds into the engine's run when the bug's test was written.
    pub time_s: Option<f64>,
    /// Changed lines with code, and those a kept test reaches (directed).
    pub changed: Option<(usize, usize)>,
    pub status: String,
}

/// The statement planted before a line, on one line (`k`: the threshold).
fn planted(kind: &str, k: u64) -> String {
    let k = k.max(1);
    match kind {
        "oob-write" => format!(
            "{{ static unsigned symtest_pl_n; static char symtest_pl_b[{k}]; symtest_pl_b[symtest_pl_n++] = 1; }} /* planted: {kind} */"
        ),
        "oob-read" => format!(
            "{{ static unsigned symtest_pl_n; static const char symtest_pl_b[{k}]; volatile char symtest_pl_x = symtest_pl_b[symtest_pl_n++]; (void)symtest_pl_x; }} /* planted: {kind} */"
        ),
        "off-by-one" => format!(
            "{{ static unsigned symtest_pl_n; char symtest_pl_b[{k}]; unsigned symtest_pl_i, symtest_pl_lim = ++symtest_pl_n; for (symtest_pl_i = 0; symtest_pl_i < symtest_pl_lim; symtest_pl_i++) symtest_pl_b[symtest_pl_i] = 0; (void)symtest_pl_b; }} /* planted: {kind} */"
        ),
        // Issue 32's pull request to uniq: under -c, a write past a
        // three-byte array once a line repeats four times.
        ISSUE_UNIQ => format!(
            "if (countmode == count_occurrences) {{ static char seen[3]; seen[linecount] = 1; }} /* planted: {kind} */"
        ),
        "div-zero" => format!(
            "{{ static int symtest_pl_n = {k}; volatile int symtest_pl_d = 100 / symtest_pl_n--; (void)symtest_pl_d; }} /* planted: {kind} */"
        ),
        _ => format!(
            "{{ static int symtest_pl_n = 2147483647 - {k}; symtest_pl_n++; }} /* planted: {kind} */"
        ),
    }
}

/// Whether a statement can be planted before line `i` (0-based) of `lines`:
/// a whole statement on its line after the end of another (not the body of
/// an `if`, `else`, loop or label, not the rest of an expression, not in a
/// macro).
fn plantable(lines: &[&str], i: usize) -> bool {
    let t = lines[i].trim();
    if !t.ends_with(';')
        || t.starts_with('}')
        || t.starts_with('#')
        || [
            "case ", "default", "else", "for ", "while", "do ", "static ", "typedef", "extern ",
        ]
        .iter()
        .any(|p| t.starts_with(p))
        || !t
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
    {
        return false;
    }
    let Some(prev) = lines[..i]
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
    else {
        return false;
    };
    (prev.ends_with(';') || prev.ends_with('{') || prev.ends_with('}'))
        && !prev.ends_with('\\')
        && !prev.starts_with('#')
}

fn run_quiet(cmd: &mut Command) -> Result<std::process::Output> {
    let line = util::display(cmd);
    cmd.output().with_context(|| format!("running `{line}`"))
}

/// Per test of the base run, how often each line of `src` ran natively
/// (from the profiles its coverage run kept).
fn line_counts(
    native: &Path,
    src: &Path,
    tests: &[String],
) -> Result<BTreeMap<String, BTreeMap<u32, u64>>> {
    let obj = native.join("obj");
    let stem = src.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let object = std::fs::read_dir(&obj)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.starts_with("symtest_u") && n.ends_with(&format!("_{stem}.o"))
        })
        .with_context(|| format!("no object of {} in {}", src.display(), obj.display()))?;
    let executable = symtest_project::covdata::executable_lines(&[(src.to_path_buf(), object)])
        .map_err(anyhow::Error::msg)?
        .pop()
        .unwrap_or_default();
    let exe = obj.join("symtest_suite");
    let mut out = BTreeMap::new();
    for t in tests {
        let raw = obj.join("profiles").join(format!("{t}.profraw"));
        if !raw.is_file() {
            continue;
        }
        let merged = obj.join("profiles").join(format!("{t}.gate.profdata"));
        symtest_project::covdata::merge(&[raw], &merged).map_err(anyhow::Error::msg)?;
        let files =
            symtest_project::covdata::export(&exe, &merged, &[]).map_err(anyhow::Error::msg)?;
        let want = symtest_project::covdata::normalized(src);
        if let Some(f) = files
            .iter()
            .find(|f| symtest_project::covdata::normalized(Path::new(&f.filename)) == want)
        {
            out.insert(t.clone(), f.coverage(&executable).lines);
        }
    }
    Ok(out)
}

/// The lines of `lines` a bug can be planted before, as (line, the most
/// times one kept test runs it, a test that runs it more often), in a
/// seeded shuffle: those some kept test runs at most 4096 times and some
/// other test of `tests` more often (`counts`: per test, per line).
fn plant_candidates(
    lines: &[&str],
    counts: &BTreeMap<String, BTreeMap<u32, u64>>,
    kept: &[String],
    tests: &[String],
    seed: u64,
) -> Vec<(u32, u64, String)> {
    let most = |line: u32, among: &mut dyn Iterator<Item = &String>| -> (u64, Option<String>) {
        let mut best = (0u64, None);
        for t in among {
            let c = counts
                .get(t)
                .and_then(|m| m.get(&line))
                .copied()
                .unwrap_or(0);
            if c > best.0 {
                best = (c, Some(t.clone()));
            }
        }
        best
    };
    let mut candidates: Vec<(u32, u64, String)> = Vec::new();
    for i in 0..lines.len() {
        if !plantable(lines, i) {
            continue;
        }
        let line = i as u32 + 1;
        let (k, _) = most(line, &mut kept.iter());
        let (all, witness) = most(line, &mut tests.iter());
        if k >= 1 && all > k && k <= 4096 {
            candidates.push((line, k, witness.expect("a test ran it")));
        }
    }
    // A seeded shuffle (the same seed plants the same bugs).
    let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
    for i in (1..candidates.len()).rev() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        candidates.swap(i, (state >> 33) as usize % (i + 1));
    }
    candidates
}

/// The hand-written bug of `uniq` (its source `lines`): before
/// writeline()'s `-c` branch; reached by `printf 'a\na\na\na\n' | uniq -c`
/// (8 bytes of stdin).
fn uniq_plant(lines: &[&str]) -> Option<Plant> {
    let w = lines.iter().position(|l| l.starts_with("writeline ("))?;
    let i = lines[w..]
        .iter()
        .position(|l| l.trim() == "if (countmode == count_occurrences)")
        .map(|i| w + i)?;
    Some(Plant {
        utility: "uniq".to_string(),
        line: i as u32 + 1,
        kind: ISSUE_UNIQ,
        threshold: 0,
        witness: "printf 'a\\na\\na\\na\\n' | uniq -c (by hand)".into(),
    })
}

/// Bugs planted in one utility's source and checked reachable natively.
fn plant(dir: &Path, u: &str, n: usize, seed: u64) -> Result<Vec<Plant>> {
    let src = dir.join("src").join(format!("{u}.c"));
    let original = std::fs::read_to_string(&src)?;
    let lines: Vec<&str> = original.lines().collect();
    let build = dir.join("symtest-out/.build").join(u);
    let native = build.join("native");
    let tests: Vec<String> = std::fs::read_dir(build.join("run"))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter_map(|n| n.strip_suffix(".ktest").map(str::to_string))
        .collect();
    let kept: Vec<String> = serde_json::from_str::<Value>(&std::fs::read_to_string(
        dir.join("symtest-out").join(u).join("minimize.json"),
    )?)?["kept"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|k| k["engine"].as_str().map(str::to_string))
        .collect();
    let counts = line_counts(&native, &src, &tests)?;
    let candidates = plant_candidates(&lines, &counts, &kept, &tests, seed);
    let makefile = native.join("suite/Makefile");
    let rebuild = || -> Result<bool> {
        Ok(run_quiet(
            Command::new("make")
                .arg("-f")
                .arg(&makefile)
                .args(["SYMTEST_COVERAGE=1", "symtest_suite"])
                .current_dir(native.join("obj")),
        )?
        .status
        .success())
    };
    let mut plants = Vec::new();
    for (line, k, witness) in candidates {
        if plants.len() == n {
            break;
        }
        let kind = KINDS[plants.len() % KINDS.len()];
        let mut text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        text.insert(line as usize - 1, planted(kind, k));
        std::fs::write(&src, text.join("\n") + "\n")?;
        let reached = rebuild()?
            && String::from_utf8_lossy(
                &run_quiet(
                    Command::new("./symtest_suite")
                        .args(["--timeout", "10"])
                        .arg(&witness)
                        .current_dir(native.join("obj")),
                )?
                .stdout,
            )
            .contains("killed by");
        std::fs::write(&src, &original)?;
        if reached {
            plants.push(Plant {
                utility: u.to_string(),
                line,
                kind,
                threshold: k,
                witness,
            });
        }
    }
    if u == "uniq" {
        plants.extend(uniq_plant(&lines));
    }
    rebuild()?;
    Ok(plants)
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    let _ = std::fs::remove_dir_all(to);
    util::run(Command::new("cp").arg("-a").arg(from).arg(to))
}

/// One gate run on a planted bug from the base's results.
fn gate(
    bin: &Path,
    dir: &Path,
    work: &Path,
    p: &Plant,
    directed: bool,
    budget: f64,
) -> Result<Gated> {
    let u = &p.utility;
    let out = dir.join("symtest-out").join(u);
    copy_dir(&work.join("base").join(u), &out)?;
    let src = dir.join("src").join(format!("{u}.c"));
    let original = std::fs::read_to_string(&src)?;
    let mut text: Vec<String> = original.lines().map(str::to_string).collect();
    text.insert(p.line as usize - 1, planted(p.kind, p.threshold));
    std::fs::write(&src, text.join("\n") + "\n")?;
    let mut cmd = Command::new(bin);
    cmd.args(["symtest", "--jobs", "1", "--no-emit", "--target", u])
        .arg("--max-time")
        .arg(budget.to_string())
        .args(["--baseline", "symtest-baseline.json"])
        .current_dir(dir);
    if directed {
        cmd.args(["--changed-since", "HEAD"]);
    }
    let o = run_quiet(&mut cmd);
    std::fs::write(&src, &original)?;
    let o = o?;
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("summary.json")).unwrap_or_else(|_| "{}".into()),
    )?;
    let mut g = Gated {
        status: summary["status"].as_str().unwrap_or("?").to_string(),
        ..Gated::default()
    };
    if g.status != "ok" {
        g.status = format!(
            "{} ({})",
            g.status,
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()
                .unwrap_or("")
        );
    }
    let file = format!("src/{u}.c");
    if let Some((i, _)) = summary["bugs"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .find(|(_, b)| b["file"] == file.as_str() && b["line"].as_u64() == Some(u64::from(p.line)))
    {
        g.detected = true;
        // The kept test of the bug, and when the engine wrote it.
        let minimize: Value = serde_json::from_str(
            &std::fs::read_to_string(out.join("minimize.json")).unwrap_or_else(|_| "{}".into()),
        )?;
        let kept = summary["tests"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["bug"].as_u64() == Some(i as u64))
            .and_then(|t| t["name"].as_str().map(str::to_string));
        let engine = minimize["kept"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|k| kept.as_deref().is_some_and(|n| k["kept"] == n))
            .and_then(|k| k["engine"].as_str().map(str::to_string));
        if let Some(e) = engine {
            let t: Value = serde_json::from_str(
                &std::fs::read_to_string(
                    dir.join("symtest-out/.build")
                        .join(u)
                        .join("run")
                        .join(format!("{e}.json")),
                )
                .unwrap_or_else(|_| "{}".into()),
            )?;
            g.time_s = t["elapsed_s"].as_f64();
        }
    }
    if directed {
        let lines = summary["changed_lines"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        g.changed = Some((
            lines.len(),
            lines.iter().filter(|l| l["reached_by"].is_string()).count(),
        ));
    }
    Ok(g)
}

/// A git repository of the C sources of the project in `dir`, committed:
/// the gate's diff is against HEAD.
fn init_repository(dir: &Path) -> Result<()> {
    let git = |args: &[&str]| {
        util::run(
            Command::new("git")
                .args([
                    "-c",
                    "user.name=symtest",
                    "-c",
                    "user.email=symtest@example.invalid",
                ])
                .args(args)
                .current_dir(dir),
        )
    };
    git(&["init", "-q"])?;
    let mut sources: Vec<String> = Vec::new();
    for sub in ["src", "lib"] {
        for e in std::fs::read_dir(dir.join(sub))? {
            let p = e?.path();
            if p.extension().is_some_and(|x| x == "c" || x == "h") {
                sources.push(p.strip_prefix(dir).unwrap_or(&p).display().to_string());
            }
        }
    }
    sources.sort();
    let mut add = vec!["add", "-f"];
    add.extend(sources.iter().map(String::as_str));
    git(&add)?;
    git(&["commit", "-q", "-m", "coreutils 9.1"])?;
    Ok(())
}

pub fn run(o: &Options) -> Result<()> {
    setup::ensure()?;
    let root = paths::workspace_root();
    let bin = super::engine_binary(true)?;
    let work = o
        .out
        .clone()
        .unwrap_or_else(|| super::target_dir(&root).join("bench").join("gate"));
    std::fs::create_dir_all(&work)?;
    let list: Vec<&str> = if !o.only.is_empty() {
        o.only.iter().map(String::as_str).collect()
    } else if o.quick {
        vec!["uniq", "fold"]
    } else {
        UTILITIES.to_vec()
    };
    let n = o.bugs.unwrap_or(if o.quick { 2 } else { 5 });
    let budget = o.budget_s.unwrap_or(if o.quick { 20.0 } else { 60.0 });
    let (dir, _) = super::coreutils::project(&work, false)?;
    if !dir.join(".git").is_dir() {
        init_repository(&dir)?;
    }
    std::fs::write(dir.join("symtest.toml"), super::coreutils::config(&list))?;
    eprintln!("bench gate: the base run ({} s per utility)", budget);
    let base = run_quiet(
        Command::new(&bin)
            .args(["symtest", "--jobs", "1", "--update-baseline"])
            .arg("--max-time")
            .arg(budget.to_string())
            .current_dir(&dir),
    )?;
    if !matches!(base.status.code(), Some(0 | 1)) {
        bail!(
            "the base run failed: {}",
            String::from_utf8_lossy(&base.stderr)
        );
    }
    std::fs::create_dir_all(work.join("base"))?;
    let mut plants = Vec::new();
    for u in &list {
        copy_dir(&dir.join("symtest-out").join(u), &work.join("base").join(u))?;
        let p = plant(&dir, u, n, o.seed)?;
        eprintln!(
            "bench gate: {u}: {} bug(s) planted and reached natively",
            p.len()
        );
        plants.extend(p);
    }
    let started = Instant::now();
    let mut rows = Vec::new();
    for (i, p) in plants.iter().enumerate() {
        let d = gate(&bin, &dir, &work, p, true, budget)?;
        let u = gate(&bin, &dir, &work, p, false, budget)?;
        eprintln!(
            "bench gate: {}/{}: {}:{} {} (K={}): directed {} {:?}, undirected {} {:?}",
            i + 1,
            plants.len(),
            p.utility,
            p.line,
            p.kind,
            p.threshold,
            d.detected,
            d.time_s,
            u.detected,
            u.time_s
        );
        rows.push((p.clone(), d, u));
    }
    for u in &list {
        copy_dir(&work.join("base").join(u), &dir.join("symtest-out").join(u))?;
    }
    write_report(&work, &rows, budget, o, started.elapsed().as_secs_f64())
}

fn write_report(
    work: &Path,
    rows: &[(Plant, Gated, Gated)],
    budget: f64,
    o: &Options,
    elapsed: f64,
) -> Result<()> {
    let rate = |f: &dyn Fn(&(Plant, Gated, Gated)) -> bool| {
        let k = rows.iter().filter(|r| f(r)).count();
        (
            k,
            if rows.is_empty() {
                0.0
            } else {
                100.0 * k as f64 / rows.len() as f64
            },
        )
    };
    let (dk, dr) = rate(&|r| r.1.detected);
    let (uk, ur) = rate(&|r| r.2.detected);
    let mean = |v: Vec<f64>| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    let dt = mean(rows.iter().filter_map(|r| r.1.time_s).collect());
    let ut = mean(rows.iter().filter_map(|r| r.2.time_s).collect());
    let (cl, cr): (usize, usize) = rows
        .iter()
        .filter_map(|r| r.1.changed)
        .fold((0, 0), |a, c| (a.0 + c.0, a.1 + c.1));
    let mut md = format!(
        "Planted bugs in coreutils 9.1 (seed {}), gated at {budget} s each from the base run's results: \
         directed (`--changed-since HEAD`: seeds, then the changed lines) and undirected; {:.0} s in all.\n\n\
         **Directed: {dk} of {} detected ({dr:.0}%), mean time to detection {dt:.1} s; undirected: {uk} \
         ({ur:.0}%), {ut:.1} s. Changed lines reached by a kept test (directed): {cr} of {cl} ({:.0}%).**\n\n\
         | utility | line | kind | K | directed | time | undirected | time | changed lines reached |\n\
         |---|---:|---|---:|---|---:|---|---:|---|\n",
        o.seed,
        elapsed,
        rows.len(),
        if cl == 0 { 0.0 } else { 100.0 * cr as f64 / cl as f64 }
    );
    let yes = |g: &Gated| {
        if g.detected {
            "found".to_string()
        } else if g.status == "ok" {
            "missed".into()
        } else {
            g.status.clone()
        }
    };
    let secs = |g: &Gated| g.time_s.map_or("-".into(), |t| format!("{t:.1} s"));
    for (p, d, u) in rows {
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            p.utility,
            p.line,
            p.kind,
            p.threshold,
            yes(d),
            secs(d),
            yes(u),
            secs(u),
            d.changed.map_or("-".into(), |(n, r)| format!("{r} of {n}"))
        ));
    }
    std::fs::write(work.join("gate.md"), &md)?;
    let j: Vec<Value> = rows
        .iter()
        .map(|(p, d, u)| {
            json!({"utility": p.utility, "line": p.line, "kind": p.kind, "threshold": p.threshold,
                "witness": p.witness,
                "directed": {"detected": d.detected, "time_s": d.time_s, "changed": d.changed, "status": d.status},
                "undirected": {"detected": u.detected, "time_s": u.time_s, "status": u.status}})
        })
        .collect();
    std::fs::write(
        work.join("gate.json"),
        serde_json::to_string_pretty(&json!({"budget_s": budget, "seed": o.seed, "bugs": j}))?,
    )?;
    println!("{md}");
    eprintln!("bench gate: report in {}", work.join("gate.md").display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn plantable_lines_are_whole_statements() {
        let src = [
            "int f(void) {",
            "  x = 1;",
            "  if (y)",
            "    z = 2;",
            "  w = 3;",
            "  a = (b +",
            "       c);",
            "}",
        ];
        let ok: Vec<usize> = (0..src.len()).filter(|&i| plantable(&src, i)).collect();
        assert_eq!(ok, [1, 4]);
        assert!(planted("div-zero", 3).contains("100 / symtest_pl_n--"));
        assert!(Options::try_parse_from(["gate", "--bugs", "0"]).is_err());
    }
}
