//! `cargo xtask bench projects [--only a,b] [--budget S] [--out DIR] [--no-plain]`:
//! real C code bases captured with their own, unmodified builds — the eight
//! Debian source packages of [`recipes`] — as a new user would:
//!
//! 1. The source is fetched once with `apt-get source` ([`crate::debsrc`]).
//! 2. A copy is configured as Debian's rules (or the README) say and built
//!    plainly (`make -j2`), for the build time (`--no-plain` skips it).
//! 3. Another copy is configured the same way and built by `cargo symtest init
//!    --from-build -- BUILD`: the capture time, and the `symtest.toml` it
//!    writes. The outputs the recipe names as build-time helpers, tests or
//!    examples must be left out of it.
//! 4. The benchmark adds a harness target for each library the recipe has a
//!    harness for (`tests/bench/projects/`), then runs `cargo symtest
//!    --max-time 10`: every listed program and harness explored for the
//!    budget, its tests minimized, replayed natively, measured by gcov.
//! 5. `inspect --unsupported` on every target's module.
//!
//! Writes `projects.md` and `projects.json` into the output directory
//! (default `target/bench/projects/`).

mod recipes;
mod report;

use crate::{debsrc, paths, setup, util};
use anyhow::{bail, Context, Result};
use recipes::Recipe;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

pub const DEFAULT_BUDGET_S: f64 = 10.0;

pub struct Options {
    pub only: Vec<String>,
    pub budget_s: f64,
    pub out: Option<PathBuf>,
    pub plain: bool,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options> {
        let names: Vec<&str> = recipes::all().iter().map(|r| r.name).collect();
        let mut o = Options {
            only: Vec::new(),
            budget_s: DEFAULT_BUDGET_S,
            out: None,
            plain: true,
        };
        let usage = |m: String| -> anyhow::Error {
            util::UsageError(format!(
                "{m}\nusage: cargo xtask bench projects [--only a,b] [--budget SECONDS] \
                 [--out DIR] [--no-plain]"
            ))
            .into()
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--no-plain" => o.plain = false,
                "--budget" => {
                    let v = it
                        .next()
                        .ok_or_else(|| usage("--budget needs SECONDS".into()))?;
                    o.budget_s = v
                        .parse()
                        .ok()
                        .filter(|b: &f64| b.is_finite() && *b > 0.0 && *b <= 86_400.0)
                        .ok_or_else(|| usage(format!("--budget: `{v}` is not 0 < S <= 86400")))?;
                }
                "--only" => {
                    let v = it
                        .next()
                        .ok_or_else(|| usage("--only needs a list".into()))?;
                    for p in v.split(',').filter(|p| !p.is_empty()) {
                        if !names.contains(&p) {
                            return Err(usage(format!(
                                "--only: `{p}` is not one of the projects ({})",
                                names.join(" ")
                            )));
                        }
                        o.only.push(p.to_string());
                    }
                }
                "--out" => {
                    o.out = Some(PathBuf::from(
                        it.next().ok_or_else(|| usage("--out needs DIR".into()))?,
                    ))
                }
                other => return Err(usage(format!("unknown option `{other}`"))),
            }
        }
        Ok(o)
    }
}

/// One target of a project's run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TargetResult {
    pub name: String,
    pub kind: String,
    /// What the target names (`binary` or `library`).
    pub artifact: String,
    pub status: String,
    pub paths: u64,
    pub tests_written: u64,
    pub tests_kept: u64,
    /// Kept tests whose native replay differs from the engine's outcome.
    pub replay_differs: u64,
    /// Errors whose test did not fail natively.
    pub unconfirmed: u64,
    pub bugs: Vec<String>,
    pub lines: (u64, u64),
    pub unsupported: Option<u64>,
    /// The budget it ran with (three times the benchmark's when loading the
    /// module alone took longer than that).
    pub budget_s: f64,
}

/// One project's figures.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ProjectResult {
    pub name: String,
    pub version: String,
    pub how: String,
    pub configure_s: f64,
    pub plain_build_s: Option<f64>,
    pub capture_s: f64,
    pub run_s: f64,
    pub compiles: u64,
    pub compiles_with_bitcode: u64,
    pub outputs: u64,
    pub outputs_with_bitcode: u64,
    pub dropped_flags: serde_json::Value,
    /// How `init` chose the programs (its comment's first line).
    pub rule: String,
    pub programs: Vec<String>,
    pub libraries: Vec<String>,
    /// (output, why) for what `init` left out.
    pub left_out: Vec<(String, String)>,
    pub targets: Vec<TargetResult>,
}

/// `dpkg-buildflags`'s CFLAGS, CPPFLAGS and LDFLAGS under the recipe's
/// maintainer options, plus sqlite3's own.
fn build_env(r: &Recipe, tree: &Path) -> Vec<(String, String)> {
    let get = |what: &str| {
        Command::new("dpkg-buildflags")
            .args(["--get", what])
            .env("DEB_BUILD_MAINT_OPTIONS", r.maint_options)
            .current_dir(tree)
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    vec![
        ("CFLAGS".into(), get("CFLAGS")),
        ("CPPFLAGS".into(), get("CPPFLAGS")),
        ("LDFLAGS".into(), get("LDFLAGS")),
        ("SQLITE_CFLAGS".into(), recipes::sqlite_cflags().to_string()),
    ]
}

fn fetch(r: &Recipe) -> Result<PathBuf> {
    if r.upstream_only {
        debsrc::fetch_upstream(r.package, r.version, r.unpacked, r.marker)
    } else {
        debsrc::fetch(r.package, r.version, r.unpacked, r.marker)
    }
}

fn words(r: &Recipe, tree: &Path) -> Vec<String> {
    r.build
        .iter()
        .map(|w| w.replace("{tree}", &tree.display().to_string()))
        .collect()
}

/// A fresh copy of `src` at `tree`, configured; the time configuring took.
fn prepared(r: &Recipe, src: &Path, tree: &Path, log: &Path) -> Result<f64> {
    if tree.exists() {
        std::fs::remove_dir_all(tree)?;
    }
    std::fs::create_dir_all(tree.parent().expect("has a parent"))?;
    util::run(Command::new("cp").arg("-a").arg(src).arg(tree))?;
    if r.prepare.is_empty() {
        std::fs::write(log, "")?;
        return Ok(0.0);
    }
    let t = Instant::now();
    let script = r.prepare.replace("{tree}", &tree.display().to_string());
    util::run_logged(
        Command::new("sh")
            .arg("-c")
            .arg(&script)
            .envs(build_env(r, tree))
            .current_dir(tree),
        log,
    )
    .with_context(|| format!("configuring {}", r.name))?;
    Ok(t.elapsed().as_secs_f64())
}

/// The capture `init` made (the one directory under the build root's
/// `capture/`).
fn manifest(tree: &Path) -> Result<serde_json::Value> {
    let dir = tree.join("symtest-out/.build/capture");
    let capture = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                && p.join("manifest.json").is_file()
        })
        .with_context(|| format!("no capture under {}", dir.display()))?;
    Ok(serde_json::from_str(&std::fs::read_to_string(
        capture.join("manifest.json"),
    )?)?)
}

/// (programs as (name, binary), libraries, left out, rule) from the
/// `symtest.toml` `init` wrote.
type Listed = (
    Vec<(String, String)>,
    Vec<String>,
    Vec<(String, String)>,
    String,
);

fn listed(config: &str) -> Result<Listed> {
    let doc: toml::Value = toml::from_str(config).context("parsing the symtest.toml init wrote")?;
    let programs = doc
        .get("target")
        .and_then(|t| t.as_array())
        .map(|ts| {
            ts.iter()
                .filter_map(|t| {
                    Some((
                        t.get("name")?.as_str()?.to_string(),
                        t.get("binary")?.as_str()?.to_string(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let libraries = config
        .lines()
        .filter_map(|l| l.strip_prefix("# library = "))
        .map(|l| l.trim_matches('"').to_string())
        .collect();
    let mut left_out = Vec::new();
    let mut in_left = false;
    for l in config.lines() {
        if l == "# Left out:" {
            in_left = true;
            continue;
        }
        if in_left {
            match l.strip_prefix("#   ").and_then(|x| x.split_once(": ")) {
                Some((o, why)) => left_out.push((o.to_string(), why.to_string())),
                None => in_left = false,
            }
        }
    }
    let rule = config
        .lines()
        .find_map(|l| l.strip_prefix("# Programs: "))
        .unwrap_or("")
        .to_string();
    Ok((programs, libraries, left_out, rule))
}

/// Fails if `init` listed a program it must not have: a build-time helper,
/// test or example of the recipe, a probe (`/dev/null`, a temporary file),
/// or a file outside the tree.
fn check_listing(
    r: &Recipe,
    programs: &[(String, String)],
    left: &[(String, String)],
) -> Result<()> {
    for (name, binary) in programs {
        if r.not_programs.contains(&binary.as_str())
            || binary.starts_with('/')
            || binary.contains("..")
        {
            bail!(
                "{}: init --from-build listed `{name}` (binary = {binary}), which is not a \
                 program of the project",
                r.name
            );
        }
    }
    for helper in r.not_programs {
        if !left.iter().any(|(o, _)| o == helper) {
            bail!(
                "{}: init --from-build did not name `{helper}` among what it left out \
                 (left out: {left:?})",
                r.name
            );
        }
    }
    Ok(())
}

/// The harness targets of the recipe, appended to the config (their sources
/// copied into the tree's `symtest/`).
fn add_harnesses(r: &Recipe, tree: &Path, build: &[String]) -> Result<String> {
    let src_dir = paths::workspace_root().join("tests/bench/projects");
    let mut s = String::new();
    let toml_list = |v: &[String]| -> String {
        format!(
            "[{}]",
            v.iter()
                .map(|w| serde_json::to_string(w).unwrap_or_default())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    for h in r.harnesses {
        std::fs::create_dir_all(tree.join("symtest"))?;
        std::fs::copy(src_dir.join(h.source), tree.join("symtest").join(h.source))
            .with_context(|| format!("copying {}", h.source))?;
        s.push_str(&format!(
            "\n# Added by cargo xtask bench projects: a harness of tests/bench/projects/.\n\
             [[target]]\nname = \"{}\"\nkind = \"harness\"\nbuild = {}\nlibrary = \"{}\"\n\
             sources = [\"symtest/{}\"]\ninclude = {}\nmax-time = 60\n",
            h.name,
            toml_list(build),
            h.library,
            h.source,
            toml_list(&h.include.iter().map(|i| i.to_string()).collect::<Vec<_>>())
        ));
    }
    Ok(s)
}

/// The number of constructs `inspect --unsupported` lists in a module.
fn unsupported(bin: &Path, module: &Path) -> Option<u64> {
    let o = Command::new(bin)
        .args(["inspect", "--unsupported"])
        .arg(module)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&o.stdout);
    text.lines()
        .find_map(|l| {
            l.split(": ")
                .nth(1)?
                .strip_suffix(" unsupported construct(s)")
        })
        .and_then(|n| n.trim().parse().ok())
}

fn run_project(bin: &Path, r: &Recipe, work: &Path, o: &Options) -> Result<ProjectResult> {
    let src = fetch(r)?;
    let dir = work.join(r.name);
    std::fs::create_dir_all(&dir)?;
    let plain_build_s = if o.plain {
        let plain = dir.join("plain");
        prepared(r, &src, &plain, &dir.join("configure-plain.log"))?;
        let build = words(r, &plain);
        let t = Instant::now();
        util::run_logged(
            Command::new(&build[0])
                .args(&build[1..])
                .envs(build_env(r, &plain))
                .current_dir(&plain),
            &dir.join("build-plain.log"),
        )
        .with_context(|| format!("the plain build of {}", r.name))?;
        let s = t.elapsed().as_secs_f64();
        std::fs::remove_dir_all(&plain)?;
        Some(s)
    } else {
        None
    };
    let tree = dir.join("tree");
    let configure_s = prepared(r, &src, &tree, &dir.join("configure.log"))?;
    let build = words(r, &tree);
    let t = Instant::now();
    util::run_logged(
        Command::new(bin)
            .args(["init", "--from-build", "--"])
            .args(&build)
            .envs(build_env(r, &tree))
            .current_dir(&tree),
        &dir.join("init.log"),
    )
    .with_context(|| format!("cargo symtest init --from-build on {}", r.name))?;
    let capture_s = t.elapsed().as_secs_f64();
    let config_path = tree.join("symtest.toml");
    let mut config = std::fs::read_to_string(&config_path)?;
    let (programs, libraries, left_out, rule) = listed(&config)?;
    check_listing(r, &programs, &left_out)?;
    config.push_str(&add_harnesses(r, &tree, &build)?);
    std::fs::write(&config_path, &config)?;
    let m = manifest(&tree)?;
    let count = |key: &str, pred: &dyn Fn(&serde_json::Value) -> bool| -> u64 {
        m[key]
            .as_array()
            .map_or(0, |a| a.iter().filter(|x| pred(x)).count() as u64)
    };
    let t = Instant::now();
    let (mut reports, mut differs) = pipeline(bin, r, &tree, &dir, o.budget_s, None)?;
    // A module whose loading alone takes the budget on this machine (loading
    // counts against --max-time) runs again, alone, with three times it.
    let mut budgets: std::collections::BTreeMap<String, f64> = Default::default();
    for rep in reports.clone() {
        let name = rep["name"].as_str().unwrap_or("").to_string();
        let slow_load = rep["message"]
            .as_str()
            .is_some_and(|m| m.contains("did not finish within --max-time"));
        if rep["status"] == "engine-failed" && slow_load {
            let budget = 3.0 * o.budget_s;
            let (again, d) = pipeline(bin, r, &tree, &dir, budget, Some(&name))?;
            if let Some(a) = again.into_iter().find(|x| x["name"] == name.as_str()) {
                reports.retain(|x| x["name"] != name.as_str());
                reports.push(a);
                differs.extend(d);
                budgets.insert(name, budget);
            }
        }
    }
    let run_s = t.elapsed().as_secs_f64();
    let mut targets = Vec::new();
    for t in &reports {
        let name = t["name"].as_str().unwrap_or("").to_string();
        let module = tree
            .join("symtest-out/.build")
            .join(&name)
            .join("bc")
            .join(format!("{name}.bc"));
        let artifact = programs
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| b.clone())
            .or_else(|| {
                r.harnesses
                    .iter()
                    .find(|h| h.name == name)
                    .map(|h| h.library.to_string())
            })
            .unwrap_or_default();
        let pair = |v: &serde_json::Value| (v[0].as_u64().unwrap_or(0), v[1].as_u64().unwrap_or(0));
        targets.push(TargetResult {
            kind: t["kind"].as_str().unwrap_or("").into(),
            artifact,
            status: t["status"].as_str().unwrap_or("").into(),
            paths: t["paths"].as_u64().unwrap_or(0),
            tests_written: t["tests_written"].as_u64().unwrap_or(0),
            tests_kept: t["tests_kept"].as_u64().unwrap_or(0),
            replay_differs: differs.get(&name).copied().unwrap_or(0),
            unconfirmed: t["unconfirmed"].as_array().map_or(0, |a| a.len() as u64),
            bugs: t["bugs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|b| {
                    format!(
                        "{} in {} at {}:{}",
                        b["kind"].as_str().unwrap_or(""),
                        b["function"].as_str().unwrap_or(""),
                        b["file"].as_str().unwrap_or(""),
                        b["line"]
                    )
                })
                .collect(),
            lines: pair(&t["lines"]),
            unsupported: unsupported(bin, &module),
            budget_s: budgets.get(&name).copied().unwrap_or(o.budget_s),
            name,
        });
    }
    Ok(ProjectResult {
        name: r.name.into(),
        version: r.version.into(),
        how: r.how.into(),
        configure_s,
        plain_build_s,
        capture_s,
        run_s,
        compiles: count("compiles", &|_| true),
        compiles_with_bitcode: count("compiles", &|c| c["bitcode"].is_string()),
        outputs: count("outputs", &|_| true),
        outputs_with_bitcode: count("outputs", &|x| x["bitcode"].is_string()),
        dropped_flags: m["dropped_flags"].clone(),
        rule,
        programs: programs.iter().map(|(n, _)| n.clone()).collect(),
        libraries,
        left_out,
        targets,
    })
}

/// `cargo symtest --max-time BUDGET --jobs 1` on the tree (one target with
/// `only`): the targets' reports in order, and per target the number of kept
/// tests whose native replay differs from the engine's outcome.
type Reports = (
    Vec<serde_json::Value>,
    std::collections::BTreeMap<String, u64>,
);

fn pipeline(
    bin: &Path,
    r: &Recipe,
    tree: &Path,
    dir: &Path,
    budget: f64,
    only: Option<&str>,
) -> Result<Reports> {
    let tag = only.map_or(String::new(), |n| format!("-{n}"));
    let mut cmd = Command::new(bin);
    // One target at a time: each has the machine for its budget (a native
    // build beside it slowed a big module's loading past 10 s).
    cmd.args(["--max-time", &budget.to_string(), "--jobs", "1"])
        .args(["--message-format", "json"]);
    if let Some(n) = only {
        cmd.args(["--target", n]);
    }
    let run = cmd
        .envs(build_env(r, tree))
        .current_dir(tree)
        .output()
        .with_context(|| format!("cargo symtest on {}", r.name))?;
    std::fs::write(dir.join(format!("run{tag}-events.jsonl")), &run.stdout)?;
    std::fs::write(dir.join(format!("run{tag}.stderr")), &run.stderr)?;
    if !matches!(run.status.code(), Some(0 | 1)) {
        bail!(
            "cargo symtest on {} exited {} (see {})",
            r.name,
            run.status,
            dir.join(format!("run{tag}.stderr")).display()
        );
    }
    let mut differs: std::collections::BTreeMap<String, u64> = Default::default();
    let mut reports = Vec::new();
    for line in String::from_utf8_lossy(&run.stdout).lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if v["event"] == "message"
            && v["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("native replay differs"))
        {
            *differs
                .entry(v["target"].as_str().unwrap_or("").into())
                .or_default() += 1;
        }
        if v["event"] == "target-finished" {
            reports.push(v["report"].clone());
        }
    }
    Ok((reports, differs))
}

/// Runs the benchmark; writes `projects.md` and `projects.json`.
pub fn run(o: &Options) -> Result<Vec<ProjectResult>> {
    setup::ensure()?;
    setup::ensure_these(setup::PROJECT_PACKAGES)?;
    let root = paths::workspace_root();
    let bin = super::release_binary()?;
    let work = o
        .out
        .clone()
        .unwrap_or_else(|| super::target_dir(&root).join("bench").join("projects"));
    std::fs::create_dir_all(&work)?;
    let t = Instant::now();
    let mut results = Vec::new();
    let mut failures = Vec::new();
    for r in recipes::all() {
        if !o.only.is_empty() && !o.only.iter().any(|n| n == r.name) {
            continue;
        }
        eprintln!("bench projects: {} {}", r.name, r.version);
        match run_project(&bin, &r, &work, o) {
            Ok(p) => results.push(p),
            Err(e) => {
                eprintln!("bench projects: {} failed: {e:#}", r.name);
                failures.push(format!("{}: {e:#}", r.name));
            }
        }
    }
    let total_s = t.elapsed().as_secs_f64();
    report::write(&work, &results, &failures, o, total_s)?;
    if !failures.is_empty() {
        bail!(
            "{} project(s) failed:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRITTEN: &str =
        "# symtest.toml - written by `cargo symtest init --from-build -- make`.\n\
# Programs: what `make install DESTDIR=<tmp>` installs.\n\
#\n\
# Left out:\n\
#   lemon: built but not installed (a build-time helper, a test or an example)\n\
#   /dev/null: not a file (a probe of the compiler)\n\
\n\
[[target]]\n\
name = \"sqlite3\"\n\
kind = \"program\"\n\
build = [\"make\"]\n\
binary = \".libs/sqlite3\"\n\
\n\
# [[target]]\n\
# name = \"sqlite3\"\n\
# kind = \"harness\"\n\
# library = \".libs/libsqlite3.a\"\n";

    #[test]
    fn reads_what_init_listed_and_left_out() {
        let (programs, libraries, left, rule) = listed(WRITTEN).unwrap();
        assert_eq!(
            programs,
            [("sqlite3".to_string(), ".libs/sqlite3".to_string())]
        );
        assert_eq!(libraries, [".libs/libsqlite3.a"]);
        assert_eq!(left.len(), 2);
        assert_eq!(left[0].0, "lemon");
        assert!(rule.starts_with("what `make install"), "{rule}");
        let sqlite = recipes::all()
            .into_iter()
            .find(|r| r.name == "sqlite3")
            .unwrap();
        // lemon is named; mkkeywordhash and mksourceid are not: a failure.
        assert!(check_listing(&sqlite, &programs, &left).is_err());
        let all: Vec<(String, String)> = sqlite
            .not_programs
            .iter()
            .map(|p| (p.to_string(), "built but not installed".into()))
            .collect();
        assert!(check_listing(&sqlite, &programs, &all).is_ok());
        // A helper listed as a program is a failure too.
        let helper = [("lemon".to_string(), "lemon".to_string())];
        assert!(check_listing(&sqlite, &helper, &all).is_err());
    }

    #[test]
    fn options_are_checked() {
        assert!(Options::parse(&["--only".into(), "zlib,jq".into()]).is_ok());
        assert!(Options::parse(&["--only".into(), "coreutils".into()]).is_err());
        assert!(Options::parse(&["--budget".into(), "0".into()]).is_err());
        assert!(!Options::parse(&["--no-plain".into()]).unwrap().plain);
        // Every recipe's harness exists.
        let dir = paths::workspace_root().join("tests/bench/projects");
        for r in recipes::all() {
            for h in r.harnesses {
                assert!(dir.join(h.source).is_file(), "{}", h.source);
            }
        }
    }
}
