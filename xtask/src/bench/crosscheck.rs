//! `cargo xtask bench crosscheck [--quick] [--budget S] [--only a,b] [--out DIR]
//! [--rebuild]`: GNU coreutils 9.1 crosschecked against toybox 0.8.9 (the KLEE
//! paper's §5.5, there against BusyBox), through the product's `[[crosscheck]]`.
//!
//! 1. `<out>/crosscheck/project/` holds copies of both sources (Debian's, as
//!    `bench coreutils` and `bench projects` fetch them): `coreutils/`
//!    configured for musl as `bench coreutils` configures it, `toybox/` after
//!    `make defconfig` (its README's build), built for musl too
//!    ([`TOYBOX_MAKE_VARS`]). `<out>/crosscheck/toybox-native/` is a third
//!    copy, built so once: its `toybox` lists the commands the configuration
//!    provides (and runs mismatches by hand).
//! 2. The tools: see [`choose`] (the rule) and [`EXCLUDED`].
//! 3. Per tool, `symtest-<tool>.toml` declares two program targets from the
//!    two builds and one `[[crosscheck]]` between them in the paper's
//!    environment ([`environment`]). One file per tool because a program runs
//!    under its target's name (`argv[0]`) and toybox chooses its command by
//!    `argv[0]`: its side is the target `toybox` with the tool's name as its
//!    first word, GNU's the target named after the tool (its usage and
//!    `--help` name it), and two targets of one file cannot share a name.
//! 4. `cargo symtest --config symtest-<tool>.toml --target <tool>-vs-toybox
//!    --jobs 1` runs the crosscheck alone (both builds captured, both modules
//!    compiled, the engine, native confirmation of every mismatch); its
//!    `symtest-out/<tool>-vs-toybox/summary.json` gives the row.
//! 5. `<out>/crosscheck.json` and `<out>/crosscheck.md`: pairs compared,
//!    proven equal, mismatches confirmed natively or not, low-level bugs, and
//!    each tool's first mismatches with both inputs and first differing lines.

use super::{coreutils, projects};
use crate::{paths, setup, util};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

pub const FULL_BUDGET_S: f64 = 60.0;
/// `--quick`: three tools at 10 s each (a smoke run).
pub const QUICK: &[&str] = &["basename", "dirname", "echo"];
pub const QUICK_BUDGET_S: f64 = 10.0;
/// Distinct native differences per tool shown in the Markdown report.
pub const SHOWN_MISMATCHES: usize = 8;

/// Tools both implementations provide that the benchmark leaves out, with the
/// reason. The rule: a crosscheck compares what two programs print for the
/// same arguments, files and stdin, so a tool is compared when its output is
/// a function of those inputs alone; not when it changes the file system or
/// the system (its native confirmation would do so on this machine, with
/// symbolic arguments such as `/`), runs another command, prints the machine's
/// state (clock, users, disks, directories, terminal, environment), or never
/// ends or waits on the clock. `[` is test's other name in both.
pub const EXCLUDED: &[(&str, &[&str])] = &[
    (
        "changes the file system",
        &[
            "chgrp", "chmod", "chown", "cp", "install", "link", "ln", "mkdir", "mkfifo", "mknod",
            "mktemp", "mv", "rm", "rmdir", "shred", "split", "sync", "tee", "touch", "truncate",
            "unlink",
        ],
    ),
    ("acts on other processes", &["kill"]),
    (
        "runs another command",
        &["chroot", "env", "nice", "nohup", "timeout"],
    ),
    (
        "prints the machine's state",
        &[
            "date", "df", "du", "groups", "id", "logname", "ls", "nproc", "printenv", "pwd",
            "readlink", "realpath", "stat", "tty", "uname", "uptime", "who", "whoami",
        ],
    ),
    ("never ends or waits on the clock", &["sleep", "yes"]),
    ("test's other name in both", &["["]),
];

/// The options of `bench crosscheck`.
#[derive(clap::Parser)]
pub struct Options {
    /// basename, dirname and echo only, 10 s each unless --budget says
    /// otherwise
    #[arg(long)]
    pub quick: bool,
    /// Seconds of exploration per tool, 0 < S <= 86400 [default: 60, 10 with
    /// --quick]
    #[arg(long = "budget", value_name = "SECONDS", value_parser = super::seconds)]
    pub budget_s: Option<f64>,
    /// Only these tools (comma-separated), of those both provide that the
    /// benchmark keeps
    // Checked against the tools both provide once they are known.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Where `crosscheck/` (the project) and the reports go [default:
    /// target/bench]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Copy, configure and build both sources again (else the trees of the
    /// last run are reused)
    #[arg(long)]
    pub rebuild: bool,
    /// Run nothing: write the reports again from the last run's summaries
    /// (as its crosscheck.json lists them)
    #[arg(long)]
    pub report_only: bool,
}

const USAGE: &str = "usage: cargo xtask bench crosscheck [--quick] [--budget SECONDS] \
                     [--only a,b] [--out DIR] [--rebuild] [--report-only]";

/// The programs the configured coreutils tree builds: `bin_PROGRAMS` of its
/// top-level `Makefile` (`src/wc$(EXEEXT)` ...), continuation lines included.
pub fn coreutils_programs(makefile: &str) -> Result<Vec<String>> {
    let mut lines = makefile.lines();
    let first = lines
        .find(|l| l.starts_with("bin_PROGRAMS ="))
        .context("the configured Makefile has no `bin_PROGRAMS =` line")?;
    let mut text = first.to_string();
    let mut line = first;
    while line.ends_with('\\') {
        line = lines.next().unwrap_or("");
        text.push(' ');
        text.push_str(line);
    }
    Ok(text
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("src/"))
        .map(|w| w.trim_end_matches("$(EXEEXT)").to_string())
        .collect())
}

/// The commands a toybox binary provides: what it prints when run with no
/// arguments, one name per word.
pub fn toybox_commands(listing: &str) -> Vec<String> {
    listing.split_whitespace().map(str::to_string).collect()
}

/// The reason [`EXCLUDED`] gives for `tool`.
pub fn excluded_because(tool: &str) -> Option<&'static str> {
    EXCLUDED
        .iter()
        .find(|(_, tools)| tools.contains(&tool))
        .map(|(why, _)| *why)
}

/// The benchmark's tools: every program the coreutils build makes whose name
/// is also a command of the toybox build (both build it, both provide it),
/// less [`EXCLUDED`]; sorted. Also the tools left out, with the reason.
pub fn choose(coreutils: &[String], toybox: &[String]) -> (Vec<String>, Vec<(String, String)>) {
    let mut both: Vec<&String> = coreutils.iter().filter(|t| toybox.contains(t)).collect();
    both.sort();
    both.dedup();
    let mut chosen = Vec::new();
    let mut left_out = Vec::new();
    for t in both {
        match excluded_because(t) {
            Some(why) => left_out.push((t.clone(), why.to_string())),
            None if !valid_name(t) => left_out.push((
                t.clone(),
                "its name cannot name a target (letters, digits, `-`, `_`, `.`)".to_string(),
            )),
            None => chosen.push(t.clone()),
        }
    }
    (chosen, left_out)
}

/// A target name symtest accepts (it names directories).
fn valid_name(n: &str) -> bool {
    !n.is_empty()
        && !n.starts_with('.')
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The symbolic environment both implementations of `tool` share: the one
/// `bench coreutils` explores GNU's `tool` with (the paper's, or its wider
/// arguments), with one failing system call per path (`--max-fail 1`):
/// both programs see the same failures (the n-th call of a kind fails in
/// each), and a program that injects failures is built natively against
/// musl, the libc the coreutils tree is configured for (its gnulib
/// replacements for glibc's stdio internals and `stropts.h` do not build
/// against the host's glibc, which native builds of programs that inject
/// none use).
pub fn environment(tool: &str) -> Vec<&'static str> {
    coreutils::args_of(tool)
}

/// The crosscheck's name for `tool` (also its `symtest-out/` directory).
pub fn crosscheck_name(tool: &str) -> String {
    format!("{tool}-vs-toybox")
}

fn quoted(words: &[&str]) -> String {
    let q: Vec<String> = words
        .iter()
        .map(|w| format!("\"{}\"", w.replace('\\', "\\\\").replace('"', "\\\"")))
        .collect();
    q.join(", ")
}

/// `symtest-<tool>.toml`: GNU's `tool` (the target named after it, from
/// the coreutils build), toybox's (the target `toybox`, the tool's name its
/// first word) and the crosscheck between them.
pub fn config(tool: &str, budget_s: f64) -> String {
    let env = environment(tool);
    let mut toybox_args = vec![tool];
    toybox_args.extend(&env);
    format!(
        "# GNU coreutils' `{tool}` crosschecked against toybox's (the KLEE paper's §5.5):\n\
         # one symbolic environment, stdout and exit status compared on every pair of paths.\n\
         \n[[target]]\nname = \"{tool}\"\nkind = \"program\"\n\
         build = [\"make\", \"-C\", \"coreutils\", \"-j2\"]\nbinary = \"coreutils/src/{tool}\"\n\
         args = [{env}]\nseed = 1\n\
         \n# toybox chooses its command by argv[0] (the target's name), then by argv[1].\n\
         [[target]]\nname = \"toybox\"\nkind = \"program\"\n\
         build = [{toybox_build}]\nbinary = \"toybox/toybox\"\n\
         args = [{toybox}]\nseed = 1\n\
         \n[[crosscheck]]\nname = \"{name}\"\nprograms = [\"{tool}\", \"toybox\"]\n\
         args = [{env}]\nmax-time = {budget_s}\nseed = 1\n",
        env = quoted(&env),
        toybox = quoted(&toybox_args),
        toybox_build = quoted(&[&["make", "-C", "toybox"], TOYBOX_MAKE_VARS].concat()),
        name = crosscheck_name(tool),
    )
}

/// The trees of the benchmark.
struct Trees {
    /// The project: `coreutils/`, `toybox/` and the configurations.
    project: PathBuf,
    coreutils_programs: Vec<String>,
    toybox_commands: Vec<String>,
    /// The natively built toybox (for the command list and runs by hand).
    toybox_native: PathBuf,
}

/// toybox is built for musl, as coreutils is configured (the libc the engine
/// runs, and the one native builds of programs that inject system-call
/// failures use): `make` with these variables, from the tree. musl ships no
/// kernel headers: `kernel-include/` links those of the system
/// ([`KERNEL_HEADERS`]).
pub const TOYBOX_MAKE_VARS: &[&str] = &["CC=musl-gcc", "CFLAGS=-Ikernel-include"];
/// The kernel's header directories toybox includes, linked into the tree's
/// `kernel-include/`.
const KERNEL_HEADERS: &[(&str, &str)] = &[
    ("linux", "/usr/include/linux"),
    ("asm", "/usr/include/x86_64-linux-gnu/asm"),
    ("asm-generic", "/usr/include/asm-generic"),
    ("mtd", "/usr/include/mtd"),
];
/// `make defconfig`'s commands that call `crypt()`, which Debian's musl does
/// not provide: switched off (none is a tool coreutils has).
const TOYBOX_NEED_CRYPT: &[&str] = &["LOGIN", "MKPASSWD", "PASSWD", "SU"];

/// Fixes applied to toybox's source before it is configured, as the paper
/// crosschecked a bug-patched BusyBox: (file, text, replacement, why). Each
/// text must be found once. Both are the same bug, found by the benchmark
/// (a low-level bug of toybox's side): a flag `1<<31` overflows int
/// (undefined in C; UBSan's shift check, which the engine reports and ends
/// the path at). The replacement has the value compilers give the original.
pub const TOYBOX_PATCHES: &[(&str, &str, &str, &str)] = &[
    (
        "lib/lib.h",
        "#define WARN_ONLY        (1<<31)",
        "#define WARN_ONLY        ((int)(1u<<31))",
        "every path that reads a file through loopfiles() would end there",
    ),
    (
        "toys/posix/sort.c",
        "#define FLAG_bb (1<<31)",
        "#define FLAG_bb ((int)(1u<<31))",
        "every sort path that compares two lines would end there",
    ),
];

/// `text` with each of `patches` for `file` applied, or why not.
pub fn patched(file: &str, text: &str, patches: &[(&str, &str, &str, &str)]) -> Result<String> {
    let mut out = text.to_string();
    for (f, from, to, _) in patches.iter().filter(|p| p.0 == file) {
        if out.matches(from).count() != 1 {
            bail!("{f}: `{from}` is not found exactly once: the patch does not apply");
        }
        out = out.replace(from, to);
    }
    Ok(out)
}

/// Whether a toybox tree was set up completely by [`toybox_tree`]:
/// patched, configured, `kernel-include/` linked (made last but the build).
fn toybox_ready(dir: &Path) -> bool {
    let patched = TOYBOX_PATCHES
        .iter()
        .all(|(f, _, to, _)| std::fs::read_to_string(dir.join(f)).is_ok_and(|t| t.contains(to)));
    patched && dir.join("kernel-include").exists()
}

/// `.config` with `CONFIG_<name>=y` of each of `names` switched off.
pub fn switch_off(config: &str, names: &[&str]) -> String {
    let mut out = String::new();
    for line in config.lines() {
        match names.iter().find(|n| line == format!("CONFIG_{n}=y")) {
            Some(n) => out.push_str(&format!("# CONFIG_{n} is not set")),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A copy of toybox's source at `dir` with [`TOYBOX_PATCHES`], configured
/// for musl: `make defconfig` (its recipe in `bench projects`) less
/// [`TOYBOX_NEED_CRYPT`], the kernel's headers linked; when `build`, also
/// built.
fn toybox_tree(dir: &Path, build: bool, log: &Path) -> Result<()> {
    let recipe = projects::recipes::all()
        .into_iter()
        .find(|r| r.name == "toybox")
        .context("no toybox recipe in bench projects")?;
    let src = projects::fetch(&recipe)?;
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    util::run(Command::new("cp").arg("-a").arg(&src).arg(dir))?;
    for (file, ..) in TOYBOX_PATCHES {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        std::fs::write(&path, patched(file, &text, TOYBOX_PATCHES)?)?;
    }
    util::run_logged(
        Command::new("sh")
            .arg("-c")
            .arg(recipe.prepare)
            .current_dir(dir),
        log,
    )
    .context("configuring toybox")?;
    let config = dir.join(".config");
    let text = std::fs::read_to_string(&config).context("reading toybox's .config")?;
    std::fs::write(&config, switch_off(&text, TOYBOX_NEED_CRYPT))?;
    let include = dir.join("kernel-include");
    std::fs::create_dir_all(&include)?;
    for (name, target) in KERNEL_HEADERS {
        if !Path::new(target).is_dir() {
            bail!(
                "{target} is missing: install the kernel headers (apt-get install linux-libc-dev)"
            );
        }
        std::os::unix::fs::symlink(target, include.join(name))
            .with_context(|| format!("linking {}", include.join(name).display()))?;
    }
    if build {
        util::run_logged(
            Command::new("make").args(TOYBOX_MAKE_VARS).current_dir(dir),
            &log.with_extension("make.log"),
        )
        .context("building toybox for musl")?;
    }
    Ok(())
}

/// Sets up (or reuses) the project and the native toybox; lists both
/// implementations' tools.
fn trees(work: &Path, rebuild: bool) -> Result<Trees> {
    let project = work.join("project");
    if rebuild && work.exists() {
        std::fs::remove_dir_all(work)?;
    }
    std::fs::create_dir_all(&project)?;
    let coreutils_dir = project.join("coreutils");
    if !coreutils_dir.join("config.status").exists() {
        coreutils::configured_copy(&coreutils_dir, &work.join("configure.log"))?;
    }
    let toybox_dir = project.join("toybox");
    if !toybox_ready(&toybox_dir) {
        toybox_tree(&toybox_dir, false, &work.join("toybox-defconfig.log"))?;
    }
    let toybox_native = work.join("toybox-native");
    if !toybox_native.join("toybox").is_file() || !toybox_ready(&toybox_native) {
        eprintln!("bench crosscheck: building toybox natively for its list of commands");
        toybox_tree(&toybox_native, true, &work.join("toybox-native.log"))?;
    }
    let makefile = std::fs::read_to_string(coreutils_dir.join("Makefile"))
        .context("reading coreutils' configured Makefile")?;
    let listing = Command::new(toybox_native.join("toybox"))
        .output()
        .context("running the native toybox")?;
    Ok(Trees {
        project,
        coreutils_programs: coreutils_programs(&makefile)?,
        toybox_commands: toybox_commands(&String::from_utf8_lossy(&listing.stdout)),
        toybox_native,
    })
}

/// The tools of this run: `--only`, `--quick` or all chosen ones.
fn selected(o: &Options, chosen: &[String], left_out: &[(String, String)]) -> Result<Vec<String>> {
    let pick: Vec<String> = if !o.only.is_empty() {
        o.only.clone()
    } else if o.quick {
        QUICK.iter().map(|s| s.to_string()).collect()
    } else {
        return Ok(chosen.to_vec());
    };
    for t in &pick {
        if !chosen.contains(t) {
            let why = left_out
                .iter()
                .find(|(l, _)| l == t)
                .map_or("not provided by both".to_string(), |(_, w)| {
                    format!("left out: {w}")
                });
            return Err(util::UsageError(format!(
                "--only: `{t}` is not one of the benchmark's tools ({why}; tools: {})\n{USAGE}",
                chosen.join(" ")
            ))
            .into());
        }
    }
    Ok(pick)
}

/// One crosscheck run by `cargo symtest`: its exit code and wall seconds.
fn run_one(bin: &Path, project: &Path, tool: &str, log: &Path) -> Result<(i32, f64)> {
    let mut cmd = Command::new(bin);
    cmd.args(["symtest", "--config"])
        .arg(format!("symtest-{tool}.toml"))
        .arg("--target")
        .arg(crosscheck_name(tool))
        .args(["--jobs", "1"])
        .current_dir(project);
    let file = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
    eprintln!(
        "$ {}  (in {}, log {})",
        util::display(&cmd),
        project.display(),
        log.display()
    );
    let started = Instant::now();
    let status = cmd
        .stdout(file.try_clone()?)
        .stderr(file)
        .status()
        .context("starting cargo-symtest")?;
    Ok((status.code().unwrap_or(-1), started.elapsed().as_secs_f64()))
}

/// Runs the benchmark; writes `crosscheck.json` and `crosscheck.md` beside
/// the project's directory and returns the rows.
pub fn run(o: &Options) -> Result<Vec<Value>> {
    let root = paths::workspace_root();
    let report_dir = o
        .out
        .clone()
        .unwrap_or_else(|| super::target_dir(&root).join("bench"));
    if o.report_only {
        return rewrite(&report_dir, &o.only);
    }
    setup::ensure()?;
    let bin = super::bench_binary("bench crosscheck")?;
    let work = report_dir.join("crosscheck");
    let t = trees(&work, o.rebuild)?;
    let (chosen, left_out) = choose(&t.coreutils_programs, &t.toybox_commands);
    let tools = selected(o, &chosen, &left_out)?;
    let budget = o.budget_s.unwrap_or(if o.quick {
        QUICK_BUDGET_S
    } else {
        FULL_BUDGET_S
    });
    eprintln!(
        "bench crosscheck: {} tools both provide, {} compared ({} left out), {budget} s each",
        chosen.len() + left_out.len(),
        chosen.len(),
        left_out.len()
    );
    let logs = work.join("logs");
    std::fs::create_dir_all(&logs)?;
    let started = Instant::now();
    let commit = super::crosscheck_report::commit(&root);
    let mut rows = Vec::new();
    for tool in &tools {
        std::fs::write(
            t.project.join(format!("symtest-{tool}.toml")),
            config(tool, budget),
        )?;
        let log = logs.join(format!("{tool}.log"));
        let (code, wall) = run_one(&bin, &t.project, tool, &log)?;
        let mut row = super::crosscheck_report::row(&t.project, tool, code, wall, &log);
        row["commit"] = json!(commit);
        eprintln!("bench crosscheck: {}", super::crosscheck_report::line(&row));
        rows.push(row);
    }
    if rows.is_empty() {
        bail!("no tool to crosscheck");
    }
    let run = json!({
        "command": command_line(o),
        "budget_s": budget,
        "wall_s": started.elapsed().as_secs_f64(),
        "coreutils_programs": t.coreutils_programs,
        "toybox_commands": t.toybox_commands,
        "chosen": chosen,
        "left_out": left_out.iter().map(|(t, w)| json!({"tool": t, "reason": w})).collect::<Vec<_>>(),
        "project": t.project,
        "toybox_native": t.toybox_native,
        "commit": commit,
    });
    let (rows, run) = if o.only.is_empty() {
        (rows, run)
    } else {
        merge_into_last(&report_dir, rows, run, budget)?
    };
    super::crosscheck_report::write(&report_dir, &rows, &run)?;
    Ok(rows)
}

/// `--only`: this run's rows merged into the last run's report when there
/// is one at the same budget ([`super::crosscheck_report::merged`]: the
/// other tools' rows kept, each row with the commit it ran at); otherwise
/// this run's rows alone.
fn merge_into_last(
    report_dir: &Path,
    rows: Vec<Value>,
    run: Value,
    budget: f64,
) -> Result<(Vec<Value>, Value)> {
    let path = report_dir.join("crosscheck.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok((rows, run));
    };
    let last: Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let rerun = json!({
        "command": run["command"],
        "tools": rows.iter().map(|r| r["tool"].clone()).collect::<Vec<_>>(),
        "commit": run["commit"],
        "wall_s": run["wall_s"],
    });
    match super::crosscheck_report::merged(&last, rows.clone(), budget, rerun) {
        Some(m) => {
            eprintln!(
                "bench crosscheck: rows merged into the last run's report ({})",
                path.display()
            );
            Ok(m)
        }
        None => {
            eprintln!(
                "bench crosscheck: the last run's report ({}) has another budget per tool: \
                 this report holds this run's rows alone",
                path.display()
            );
            Ok((rows, run))
        }
    }
}

/// `--report-only`: the reports rewritten from the summaries of the tools
/// the last run's `crosscheck.json` lists (those of `only`, if given), with
/// that run's exit codes, times and settings.
fn rewrite(report_dir: &Path, only: &[String]) -> Result<Vec<Value>> {
    let path = report_dir.join("crosscheck.json");
    let last: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).with_context(|| {
            format!("--report-only: no last run to report ({})", path.display())
        })?)
        .with_context(|| format!("parsing {}", path.display()))?;
    let project = PathBuf::from(last["run"]["project"].as_str().unwrap_or_default());
    let mut rows = Vec::new();
    for r in last["tools"].as_array().into_iter().flatten() {
        let tool = r["tool"].as_str().unwrap_or_default();
        if !only.is_empty() && !only.iter().any(|t| t == tool) {
            continue;
        }
        let mut row = super::crosscheck_report::row(
            &project,
            tool,
            r["exit_code"].as_i64().unwrap_or(-1) as i32,
            r["wall_s"].as_f64().unwrap_or(0.0),
            Path::new(r["log"].as_str().unwrap_or_default()),
        );
        row["commit"] = r["commit"].clone();
        rows.push(row);
    }
    if rows.is_empty() {
        bail!(
            "--report-only: {} lists none of the tools asked for",
            path.display()
        );
    }
    super::crosscheck_report::write(report_dir, &rows, &last["run"])?;
    Ok(rows)
}

fn command_line(o: &Options) -> String {
    format!(
        "cargo xtask bench crosscheck{}",
        super::suite::shown_flags(o.quick, o.budget_s, &o.only)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use symtest_project::config::{is_environment_option, parse_config_file, validate};

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    /// `bin_PROGRAMS` of a configured Makefile, continuation lines included,
    /// names without `src/` and `$(EXEEXT)` (`[` too).
    #[test]
    fn coreutils_programs_from_the_configured_makefile() {
        let mk = "EXTRA_PROGRAMS = $(am__EXEEXT_1)\n\
                  bin_PROGRAMS = src/chroot$(EXEEXT) src/[$(EXEEXT) \\\n\
                  \tsrc/wc$(EXEEXT) $(am__EXEEXT_2)\n\
                  other = src/ls$(EXEEXT)\n";
        assert_eq!(
            coreutils_programs(mk).unwrap(),
            words(&["chroot", "[", "wc"])
        );
        let e = coreutils_programs("all: foo\n").unwrap_err();
        assert!(e.to_string().contains("bin_PROGRAMS"), "{e}");
    }

    /// The rule: both build it and both provide it, less the tools whose
    /// output is not a function of their inputs (each with its reason).
    #[test]
    fn tools_are_the_intersection_less_the_excluded_ones() {
        let gnu = words(&["wc", "rm", "[", "date", "sort", "ptx", "cat", "yes"]);
        let toybox = toybox_commands("[ cat date\nhexedit rm sort\twc yes\n");
        assert_eq!(toybox.len(), 8);
        let (chosen, left_out) = choose(&gnu, &toybox);
        // ptx: coreutils only; hexedit: toybox only.
        assert_eq!(chosen, words(&["cat", "sort", "wc"]));
        let left: Vec<(&str, &str)> = left_out
            .iter()
            .map(|(t, w)| (t.as_str(), w.as_str()))
            .collect();
        assert_eq!(
            left,
            [
                ("[", "test's other name in both"),
                ("date", "prints the machine's state"),
                ("rm", "changes the file system"),
                ("yes", "never ends or waits on the clock"),
            ]
        );
        // A tool both provide whose name cannot name a target is left out
        // with that reason, not passed on.
        let (chosen, left_out) = choose(&words(&["a+b"]), &words(&["a+b"]));
        assert!(chosen.is_empty());
        assert!(
            left_out[0].1.contains("cannot name a target"),
            "{left_out:?}"
        );
        // No tool is listed under two reasons.
        let mut all: Vec<&str> = EXCLUDED
            .iter()
            .flat_map(|(_, t)| t.iter().copied())
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    /// The paper's environment (tr's and echo's wider arguments), with one
    /// failing system call per path.
    #[test]
    fn environment_is_the_papers() {
        assert_eq!(
            environment("wc").join(" "),
            "--sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8 --sym-stdin 8 --max-fail 1"
        );
        assert_eq!(
            environment("tr").join(" "),
            "--sym-args 0 3 10 --sym-files 1 8 --sym-stdin 8 --max-fail 1"
        );
    }

    /// The generated file is a valid symtest.toml: GNU's program under the
    /// tool's name, toybox's as `toybox` with the tool as its fixed first
    /// word, and one crosscheck between them with the shared environment
    /// and the budget.
    #[test]
    fn config_is_a_valid_crosscheck_of_two_program_targets() {
        let text = config("wc", 60.0);
        let file = Path::new("symtest-wc.toml");
        let cfg = parse_config_file(file, &text).expect("parses");
        validate(file, &text, &cfg).expect("valid");
        assert_eq!(cfg.target.len(), 2);
        let (gnu, toybox) = (cfg.target[0].get_ref(), cfg.target[1].get_ref());
        assert_eq!(gnu.name.get_ref(), "wc");
        assert_eq!(gnu.binary.as_ref().unwrap().get_ref(), "coreutils/src/wc");
        assert_eq!(
            gnu.build.as_ref().unwrap().get_ref(),
            &words(&["make", "-C", "coreutils", "-j2"])
        );
        assert_eq!(toybox.name.get_ref(), "toybox");
        assert_eq!(
            toybox.build.as_ref().unwrap().get_ref(),
            &words(&[
                "make",
                "-C",
                "toybox",
                "CC=musl-gcc",
                "CFLAGS=-Ikernel-include"
            ])
        );
        assert_eq!(toybox.binary.as_ref().unwrap().get_ref(), "toybox/toybox");
        let fixed: Vec<&String> = toybox
            .args
            .iter()
            .take_while(|a| !is_environment_option(a))
            .collect();
        assert_eq!(fixed, ["wc"]);
        // GNU's program has no fixed word: its environment starts at once.
        assert!(is_environment_option(&gnu.args[0]), "{:?}", gnu.args);
        assert_eq!(cfg.crosscheck.len(), 1);
        let c = cfg.crosscheck[0].get_ref();
        assert_eq!(c.name.get_ref(), "wc-vs-toybox");
        assert_eq!(
            c.programs.as_ref().unwrap().get_ref(),
            &words(&["wc", "toybox"])
        );
        assert_eq!(
            c.args.as_ref().unwrap().get_ref(),
            &environment("wc")
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
        );
        assert_eq!(*c.max_time.as_ref().unwrap().get_ref(), 60.0);
        assert_eq!(c.seed, Some(1));
    }

    /// Only the named commands are switched off, each line kept otherwise.
    #[test]
    fn switch_off_edits_only_the_named_commands() {
        let config = "CONFIG_SU=y\nCONFIG_SUM=y\n# CONFIG_PASSWD is not set\nCONFIG_LOGIN=y\n";
        assert_eq!(
            switch_off(config, &["SU", "LOGIN", "PASSWD"]),
            "# CONFIG_SU is not set\nCONFIG_SUM=y\n# CONFIG_PASSWD is not set\n# CONFIG_LOGIN is not set\n"
        );
    }

    /// The patches apply to the text they were written for, once; a text
    /// not found (another toybox) is an error, not a silent no-op.
    #[test]
    fn patches_apply_exactly_once_or_fail() {
        let header = "#define X 1\n#define WARN_ONLY        (1<<31) // don't exit, just warn\n";
        let out = patched("lib/lib.h", header, TOYBOX_PATCHES).unwrap();
        assert!(
            out.contains("#define WARN_ONLY        ((int)(1u<<31)) // don't exit"),
            "{out}"
        );
        assert_eq!(patched("main.c", header, TOYBOX_PATCHES).unwrap(), header);
        let e = patched("lib/lib.h", "#define X 1\n", TOYBOX_PATCHES).unwrap_err();
        assert!(e.to_string().contains("does not apply"), "{e}");
    }

    /// `--only` names tools of the benchmark; anything else is a usage
    /// error saying why.
    #[test]
    fn only_is_checked_against_the_chosen_tools() {
        let chosen = words(&["cat", "wc"]);
        let left = vec![("rm".to_string(), "changes the file system".to_string())];
        let parse = |args: &[&str]| {
            Options::try_parse_from(std::iter::once("crosscheck").chain(args.iter().copied()))
        };
        let o = parse(&["--only", "wc"]).unwrap();
        assert_eq!(selected(&o, &chosen, &left).unwrap(), ["wc"]);
        let o = parse(&["--only", "rm"]).unwrap();
        let e = selected(&o, &chosen, &left).unwrap_err().to_string();
        assert!(e.contains("left out: changes the file system"), "{e}");
        let o = parse(&["--only", "ptx"]).unwrap();
        let e = selected(&o, &chosen, &left).unwrap_err().to_string();
        assert!(e.contains("not provided by both"), "{e}");
        let o = parse(&[]).unwrap();
        assert_eq!(selected(&o, &chosen, &left).unwrap(), chosen);
        assert!(parse(&["--budget", "0"]).is_err());
        assert!(parse(&["--bogus"]).is_err());
    }
}
