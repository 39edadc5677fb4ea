//! The options of an engine run (`cargo-symtest exec`) that the project
//! pipeline sets: budget, output, seeds, directed exploration, crosscheck,
//! the C library. One typed value, [`ExploreOptions`]: the pipeline builds
//! it, [`ExploreOptions::to_args`] turns it into the engine's command line,
//! and `cargo-symtest exec` parses that line back into the same type (its
//! arguments flatten this struct), so the two agree by construction.

use clap::{Args, Parser};
use std::path::{Path, PathBuf};

/// The exploration options of `cargo-symtest exec` that the pipeline sets.
/// Their help texts are the `exec --help` of each flag.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct ExploreOptions {
    /// Where to write tests (default: a new `symtest-out/exec-N`, linked as `symtest-out/exec-last`).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Stop after this much wall-clock time, counted from the start of the
    /// command, loading the bitcode included (without it, loading stops after
    /// 300 s); tests so far are kept; a solver query running at the deadline
    /// gives up then: seconds, or KLEE's spans such as `60s`, `1min`,
    /// `1h30min`, `500ms`.
    #[arg(long, value_name = "TIME", value_parser = parse_span)]
    pub max_time: Option<f64>,
    /// Stop after this many LLVM instructions (deterministic budget).
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// Memory cap in MiB (1 to 16777216) of resident memory (as the OS counts it): near it,
    /// states are suspended to disk and resumed when memory frees up (dropped, and counted,
    /// if that fails). Loading the bitcode runs in a child process whose address space is
    /// limited to it (at least 256 MiB).
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    pub max_memory: u64,
    /// Seed mode (KLEE's): a `.ktest` whose inputs guide the run; repeat for
    /// several. Paths that agree with a seed run first and the branches it
    /// decides cost no solver query; the other sides are explored as usual.
    /// A seed's objects are matched to the objects the program makes, in order.
    #[arg(long = "seed-file", value_name = "KTEST")]
    pub seed_file: Vec<PathBuf>,
    /// Every `.ktest` of DIR as a seed (KLEE's --seed-dir; sorted by name).
    #[arg(long = "seed-dir", value_name = "DIR")]
    pub seed_dir: Vec<PathBuf>,
    /// Keep a seed that has fewer objects than the program makes (KLEE's
    /// --allow-seed-extension): the objects it lacks start as zeros and take
    /// the values the program's assumptions on them need.
    #[arg(long = "allow-seed-extension")]
    pub allow_seed_extension: bool,
    /// Each seed whose `.ktest` records its own arguments (a run of the
    /// program recorded from the project's tests) starts its own path with
    /// those arguments as the program's argv — its own symbolic environment
    /// (`--sym-arg`, `--sym-files`, `--sym-stdin` shaped to the recorded run) —
    /// instead of following the path of the arguments after `--`.
    #[arg(long = "seed-own-args")]
    pub seed_own_args: bool,
    /// Seed the run with the program's own options: one seed per option its
    /// getopt/getopt_long tables declare (`-n`, `--lines`, and `-n 1` for one
    /// taking an argument), placed in the --sym-arg/--sym-args arguments.
    /// The run follows each first, then forks off from there.
    #[arg(long = "option-seeds", overrides_with = "no_option_seeds")]
    pub option_seeds: bool,
    /// Undoes an earlier --option-seeds (the last of the two given wins).
    #[arg(long = "no-option-seeds", overrides_with = "option_seeds")]
    pub no_option_seeds: bool,
    /// Directed exploration: a source line to reach (FILE:LINE, FILE as a diff
    /// names it, matched against the module's file names by path suffix);
    /// repeat for several. States nearest a target line not reached yet run
    /// first (distance through the control-flow and call graphs), for
    /// --directed-share of the budget; which lines were reached is in
    /// coverage.json (`targets`) and stats.json.
    #[arg(long = "target-line", value_name = "FILE:LINE")]
    pub target_line: Vec<String>,
    /// A file of target lines, one FILE:LINE per line (as --target-line).
    #[arg(long = "target-lines", value_name = "FILE")]
    pub target_lines: Option<PathBuf>,
    /// The share of --max-time (or --max-instructions) spent on seeds and
    /// target lines before the --search heuristics take over (0 to 1).
    #[arg(long, value_name = "SHARE", default_value_t = crate::run::DEFAULT_DIRECTED_SHARE)]
    pub directed_share: f64,
    /// Search heuristic; repeat to interleave: dfs, bfs, random-state, random-path,
    /// nurs:covnew, nurs:md2u, nurs:depth, nurs:rp, nurs:icnt, nurs:cpicnt, nurs:qc,
    /// nurs:target (nearest a --target-line first).
    /// Default: random-path, nurs:covnew and nurs:md2u interleaved (KLEE's
    /// random-path + covnew, plus the distance-to-uncovered heuristic, which
    /// reaches deep code such as bugs behind well-formed prefixes sooner).
    #[arg(long = "search", value_name = "NAME")]
    pub search: Vec<String>,
    /// Seed of the engine's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Function to start from.
    #[arg(long, value_name = "NAME", default_value = "main")]
    pub entry_point: String,
    /// Crosscheck (paper §5.5): a second program, linked the same way, run
    /// after the first on each path from the same symbolic environment; the
    /// two exit statuses and standard outputs are compared by the solver
    /// (needs --posix-runtime). A pair that can differ is a `mismatch` test.
    #[arg(long, value_name = "BITCODE")]
    pub crosscheck: Option<PathBuf>,
    /// A fixed leading word of the second program's arguments (a multi-call
    /// binary's tool name); repeatable, in order.
    #[arg(
        long,
        value_name = "WORD",
        allow_hyphen_values = true,
        requires = "crosscheck"
    )]
    pub crosscheck_fixed: Vec<String>,
    /// How many leading program arguments (after `--`) are the first
    /// program's own fixed words: the second program gets its
    /// --crosscheck-fixed words in their place.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "crosscheck")]
    pub first_fixed: usize,
    /// The C library: `auto` (default: musl when the program calls functions
    /// it does not define, other than symtest's own; none otherwise), `none`,
    /// `musl` (musl 1.2.3 built by `cargo xtask setup`; its system calls go to
    /// the POSIX model, so printf, fopen, getopt, strtol, qsort... run
    /// symbolically); KLEE's `uclibc` and `klee` mean `musl`.
    #[arg(long, value_name = "LIBC", default_value = "auto")]
    pub libc: String,
    /// Run the program under the POSIX runtime (needs --libc=musl): the program
    /// arguments after `--` may then hold KLEE's environment options --sym-arg N,
    /// --sym-args MIN MAX N, --sym-files NUM N, --sym-stdin N, --sym-stdout and
    /// --max-fail N; main runs on the argv they build, then exit().
    #[arg(long)]
    pub posix_runtime: bool,
    /// Print only errors.
    #[arg(short, long)]
    pub quiet: bool,
    /// Also print the statistics as one JSON object per line on stdout, about once a
    /// second (what `cargo symtest` reads to draw a target's progress line).
    #[arg(long)]
    pub progress_json: bool,
}

/// [`ExploreOptions`] alone on a command line, for [`ExploreOptions::parse`].
#[derive(Parser)]
#[command(name = "exec", no_binary_name = true, disable_help_flag = true)]
struct Alone {
    #[command(flatten)]
    options: ExploreOptions,
}

impl Default for ExploreOptions {
    /// Every option at the default `exec` gives it when not given.
    fn default() -> Self {
        Self::parse(&[]).expect("no options parse to the defaults")
    }
}

impl ExploreOptions {
    /// The options of `args` (options of these only), as `exec` reads them.
    pub fn parse(args: &[String]) -> Result<Self, clap::Error> {
        Alone::try_parse_from(args).map(|a| a.options)
    }

    /// The options as `exec` arguments: each option whose value differs from
    /// the default (`--first-fixed` always with `--crosscheck`), so that
    /// [`ExploreOptions::parse`] gives the value back.
    pub fn to_args(&self) -> Vec<String> {
        self.to_args_with(&[])
    }

    /// [`ExploreOptions::to_args`] with a target's own further `exec`
    /// options (its `exec-args`, as written) in their place: after the
    /// options a target's keys set (so a `--search` of theirs comes after
    /// the target's `search`) and before those the pipeline adds for the
    /// program, its seeds and a gate run (so `--option-seeds` overrides a
    /// `--no-option-seeds` of theirs, and their `--seed-dir` comes first).
    pub fn to_args_with(&self, own: &[String]) -> Vec<String> {
        let d = Self::default();
        let mut a = Line(Vec::new());
        self.crosscheck_args(&mut a);
        a.value("--output-dir", self.output_dir.as_deref().map(path));
        a.value("--max-time", self.max_time);
        a.flag("--quiet", self.quiet);
        a.flag("--progress-json", self.progress_json);
        self.target_key_args(&d, &mut a);
        a.0.extend(own.iter().cloned());
        if self.libc != d.libc {
            a.0.push(format!("--libc={}", self.libc));
        }
        a.flag("--posix-runtime", self.posix_runtime);
        a.flag("--option-seeds", self.option_seeds);
        self.direction_args(&d, &mut a);
        a.0
    }

    /// `--crosscheck`, its fixed words and `--first-fixed`.
    fn crosscheck_args(&self, a: &mut Line) {
        let Some(second) = &self.crosscheck else {
            return;
        };
        a.value("--crosscheck", Some(path(second)));
        // `=`: a word may start with `-`.
        for w in &self.crosscheck_fixed {
            a.0.push(format!("--crosscheck-fixed={w}"));
        }
        a.value("--first-fixed", Some(self.first_fixed));
    }

    /// The options a target's keys set (`max-instructions`, `max-memory`,
    /// `seed`, `search`, `entry-point`).
    fn target_key_args(&self, d: &Self, a: &mut Line) {
        a.value("--max-instructions", self.max_instructions);
        a.value(
            "--max-memory",
            (self.max_memory != d.max_memory).then_some(self.max_memory),
        );
        a.value("--seed", (self.seed != d.seed).then_some(self.seed));
        for s in &self.search {
            a.value("--search", Some(s));
        }
        a.value(
            "--entry-point",
            (self.entry_point != d.entry_point).then_some(&self.entry_point),
        );
    }

    /// Seeds and target lines.
    fn direction_args(&self, d: &Self, a: &mut Line) {
        for f in &self.seed_file {
            a.value("--seed-file", Some(path(f)));
        }
        for dir in &self.seed_dir {
            a.value("--seed-dir", Some(path(dir)));
        }
        a.flag("--allow-seed-extension", self.allow_seed_extension);
        a.flag("--seed-own-args", self.seed_own_args);
        a.flag("--no-option-seeds", self.no_option_seeds);
        for l in &self.target_line {
            a.value("--target-line", Some(l));
        }
        a.value("--target-lines", self.target_lines.as_deref().map(path));
        a.value(
            "--directed-share",
            (self.directed_share != d.directed_share).then_some(self.directed_share),
        );
    }
}

/// A command line being written.
struct Line(Vec<String>);

impl Line {
    fn flag(&mut self, name: &str, on: bool) {
        if on {
            self.0.push(name.into());
        }
    }

    fn value(&mut self, name: &str, v: Option<impl std::fmt::Display>) {
        if let Some(v) = v {
            self.0.extend([name.to_string(), v.to_string()]);
        }
    }
}

fn path(p: &Path) -> std::path::Display<'_> {
    p.display()
}

/// A KLEE time span as a number of seconds: a plain number is seconds;
/// otherwise numbers with units `h`, `min`, `s`, `ms`, `us`, `ns`, e.g.
/// `60s`, `1min`, `1h30min`, `500ms`.
pub fn parse_span(s: &str) -> Result<f64, String> {
    let t = s.trim();
    if let Ok(v) = t.parse::<f64>() {
        return check_span(s, v);
    }
    let mut total = 0.0;
    let mut rest = t;
    if rest.is_empty() {
        return Err(format!(
            "`{s}` is not a time (e.g. 60, 60s, 1min, 1h30min, 500ms)"
        ));
    }
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (num, after) = rest.split_at(num_len);
        let unit_len = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, next) = after.split_at(unit_len);
        let n: f64 = num
            .parse()
            .map_err(|_| format!("`{s}` is not a time (e.g. 60, 60s, 1min, 1h30min, 500ms)"))?;
        let scale = match unit {
            "h" => 3600.0,
            "min" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" => 1e-6,
            "ns" => 1e-9,
            _ => {
                return Err(format!(
                    "`{s}`: unknown time unit `{unit}` (h, min, s, ms, us, ns)"
                ))
            }
        };
        total += n * scale;
        rest = next;
    }
    check_span(s, total)
}

fn check_span(s: &str, v: f64) -> Result<f64, String> {
    if !v.is_finite() || !(0.0..=1e9).contains(&v) {
        return Err(format!("`{s}`: a time between 0 and 1e9 seconds"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(v: &ExploreOptions) {
        let args = v.to_args();
        let back = ExploreOptions::parse(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(&back, v, "{args:?}");
    }

    #[test]
    fn defaults_write_nothing_and_parse_back() {
        let d = ExploreOptions::default();
        assert_eq!(d.to_args(), Vec::<String>::new());
        assert_eq!(d.max_memory, 2048);
        assert_eq!(d.seed, 1);
        assert_eq!(d.entry_point, "main");
        assert_eq!(d.libc, "auto");
        round_trip(&d);
    }

    /// Every field away from its default at least once.
    #[test]
    fn values_parse_back_from_their_arguments() {
        let program = ExploreOptions {
            output_dir: Some("out dir".into()),
            max_time: Some(2.5),
            max_instructions: Some(1_000_000),
            max_memory: 1000,
            seed_file: vec!["a.ktest".into(), "b.ktest".into()],
            seed_dir: vec!["seeds".into(), "gate-seeds".into()],
            allow_seed_extension: true,
            seed_own_args: true,
            option_seeds: true,
            target_line: vec!["src/a.c:3".into()],
            target_lines: Some("lines.txt".into()),
            directed_share: 0.25,
            search: vec!["dfs".into(), "nurs:covnew".into()],
            seed: 7,
            entry_point: "start".into(),
            libc: "musl".into(),
            posix_runtime: true,
            quiet: true,
            progress_json: true,
            ..ExploreOptions::default()
        };
        round_trip(&program);
        let gate = ExploreOptions {
            no_option_seeds: true,
            ..ExploreOptions::default()
        };
        round_trip(&gate);
        let crosscheck = ExploreOptions {
            crosscheck: Some("second.bc".into()),
            crosscheck_fixed: vec!["wc".into(), "-x".into()],
            first_fixed: 2,
            ..ExploreOptions::default()
        };
        round_trip(&crosscheck);
        // --first-fixed goes with --crosscheck even at 0.
        let zero = ExploreOptions {
            first_fixed: 0,
            ..crosscheck
        };
        assert!(zero
            .to_args()
            .windows(2)
            .any(|w| w == ["--first-fixed", "0"]));
        round_trip(&zero);
    }

    #[test]
    fn own_options_go_between_the_keys_and_the_pipelines() {
        let v = ExploreOptions {
            search: vec!["dfs".into()],
            libc: "musl".into(),
            option_seeds: true,
            ..ExploreOptions::default()
        };
        let own = ["--search".to_string(), "bfs".to_string()];
        assert_eq!(
            v.to_args_with(&own),
            [
                "--search",
                "dfs",
                "--search",
                "bfs",
                "--libc=musl",
                "--option-seeds"
            ]
        );
    }

    #[test]
    fn spans() {
        assert_eq!(parse_span("1h30min").unwrap(), 5400.0);
        assert!(parse_span("-3").is_err());
    }
}
