//! KLEE's command line for `cargo symtest exec`: the options scripts written
//! for `klee` pass, in either of LLVM's spellings (`-opt`, `--opt`, `=value`
//! or a separate value), and KLEE's `klee [options] prog.bc [program args]`
//! form without `--`.
//!
//! Before clap sees the arguments, each KLEE option is translated: options
//! `exec` has under the same name pass through; the others are mapped to
//! `exec`'s own, accepted with a note (no effect here, with the reason) or
//! refused with a message naming the option. README.md has the table.

use std::ffi::OsString;

/// What happens to a KLEE option `exec` does not spell the same way.
#[derive(Clone, Copy)]
enum Action {
    /// Becomes these `exec` arguments (`{}` is replaced by the value).
    Map(&'static [&'static str]),
    /// A KLEE boolean: `true` gives the first list, `false` the second.
    Bool(&'static [&'static str], &'static [&'static str]),
    /// Accepted; no effect here, for the reason given.
    Ignore(&'static str),
    /// Refused (exit 2) with this reason.
    Refuse(&'static str),
}

/// A KLEE option: name, whether it takes a value, what it becomes.
struct KleeOpt {
    name: &'static str,
    value: bool,
    action: Action,
}

const fn opt(name: &'static str, value: bool, action: Action) -> KleeOpt {
    KleeOpt {
        name,
        value,
        action,
    }
}

use Action::*;

/// KLEE 3 options whose spelling or meaning differs from `exec`'s (options
/// with the same name and meaning, e.g. `--max-time`, `--output-dir`,
/// `--search`, `--libc`, `--posix-runtime`, `--emit-all-errors`, are `exec`'s
/// own and not listed).
const KLEE_OPTS: &[KleeOpt] = &[
    opt("rng-initial-seed", true, Map(&["--seed={}"])),
    opt(
        "only-output-states-covering-new",
        false,
        Bool(&[], &["--emit-all"]),
    ),
    opt("allow-external-sym-calls", false, Bool(&["--external-calls=all"], &[])),
    opt("use-cex-cache", false, Bool(&[], &["--drop-solver-layer=cex"])),
    opt(
        "use-independent-solver",
        false,
        Bool(&[], &["--drop-solver-layer=independence"]),
    ),
    opt("use-branch-cache", false, Bool(&[], &["--drop-solver-layer=cache"])),
    opt(
        "equality-substitution",
        false,
        Bool(&[], &["--drop-solver-layer=simplify"]),
    ),
    opt(
        "rewrite-equalities",
        false,
        Bool(&[], &["--drop-solver-layer=simplify"]),
    ),
    opt(
        "watchdog",
        false,
        Ignore("--max-time is enforced in-process: the run stops at the limit and each solver query is cut at the time left"),
    ),
    opt(
        "use-forked-solver",
        false,
        Ignore("queries run in-process, bounded by --max-solver-time and the time left"),
    ),
    opt(
        "use-batching-search",
        false,
        Ignore("states always run in batches of --batch-instructions"),
    ),
    opt(
        "simplify-sym-indices",
        false,
        Ignore("expressions are simplified as they are built"),
    ),
    opt("disable-inlining", false, Ignore("the engine inlines nothing")),
    opt("disable-verify", false, Ignore("the loader checks what it lowers")),
    opt(
        "switch-type",
        true,
        Ignore("a switch forks once per feasible destination"),
    ),
    opt(
        "max-memory-inhibit",
        false,
        Ignore("above --max-memory states are dropped (see README), forking is never inhibited"),
    ),
    opt("max-static-fork-pct", true, Ignore("no static fork limits")),
    opt("max-static-solve-pct", true, Ignore("no static solver-time limits")),
    opt("max-static-cpfork-pct", true, Ignore("no static fork limits")),
    opt("max-static-cpsolve-pct", true, Ignore("no static solver-time limits")),
    opt(
        "max-sym-array-size",
        true,
        Ignore("symbolic arrays are never concretized by size (objects above 16 MiB are accessed at concrete offsets)"),
    ),
    opt("use-call-paths", false, Ignore("statistics are kept per function")),
    opt(
        "dump-states-on-halt",
        false,
        Ignore("at a halt, unfinished states that covered untested code always get a test"),
    ),
    opt("ubsan-runtime", false, Ignore("UBSan's handlers are always intercepted by the engine")),
    opt(
        "warnings-only-to-file",
        false,
        Ignore("warnings go to stderr (once each); -q silences them"),
    ),
    opt("output-module", false, Ignore("no assembly file is written")),
    opt("output-source", false, Ignore("no assembly file is written")),
    opt("output-stats", false, Ignore("stats.json is always written")),
    opt("output-istats", false, Ignore("no per-instruction statistics file; coverage.json holds the lines executed")),
    opt("write-cov", false, Ignore("coverage.json holds the lines executed, for all tests")),
    opt("write-test-info", false, Ignore("testN.json holds each test's outcome and objects")),
    opt("write-paths", false, Ignore("no .path files are written")),
    opt("write-sym-paths", false, Ignore("no .sym.path files are written")),
    opt("write-kqueries", false, Ignore("no .kquery files are written")),
    opt("write-cvcs", false, Ignore("no .cvc files are written")),
    opt("write-smt2s", false, Ignore("no .smt2 files are written")),
    opt("write-xml-tests", false, Ignore("no XML test files are written")),
    opt("write-exec-tree", false, Ignore("no execution-tree database is written")),
    opt("write-ktests", false, Bool(&[], &["--write-no-tests"])),
    opt("istats-write-interval", true, Ignore("no per-instruction statistics file")),
    opt("stats-write-interval", true, Ignore("stats.json is written at the end")),
    opt("istats-write-after-instructions", true, Ignore("no per-instruction statistics file")),
    opt("stats-write-after-instructions", true, Ignore("stats.json is written at the end")),
    opt("timer-interval", true, Ignore("time limits are checked every 1,024 instructions")),
    opt("ignore-stp-failures", false, Ignore("a query the solver gives up on never ends the run")),
    opt(
        "kdalloc",
        false,
        Ignore("objects always get deterministic addresses, never reused within a path"),
    ),
    opt(
        "kdalloc-quarantine",
        true,
        Ignore("freed objects are never reused (use after free is always caught)"),
    ),
    opt("use-query-log", true, Ignore("queries are not logged")),
    opt("log-timed-out-queries", false, Ignore("queries are not logged")),
    opt("min-query-time-to-log", true, Ignore("queries are not logged")),
    opt("use-merge", false, Refuse("state merging is not implemented (klee_open_merge/klee_close_merge are accepted and do not merge)")),
    opt("use-incomplete-merge", false, Refuse("state merging is not implemented")),
    opt("use-iterative-deepening-time-search", false, Refuse("not implemented; choose a searcher with --search")),
    opt("seed-file", true, Map(&["--seed-file={}"])),
    opt("seed-dir", true, Map(&["--seed-dir={}"])),
    opt("allow-seed-extension", false, Bool(&["--allow-seed-extension"], &[])),
    opt("only-seed", false, Refuse("not implemented: seeds are followed first, then the exploration goes on")),
    opt("only-replay-seeds", false, Refuse("not implemented: replay tests with `cargo symtest replay`")),
    opt("replay-ktest-file", true, Refuse("use `cargo symtest replay` to run tests")),
    opt("replay-ktest-dir", true, Refuse("use `cargo symtest replay` to run tests")),
    opt("replay-path", true, Refuse(".path files are not supported")),
    opt("libcxx", false, Refuse("there is no C++ runtime; symtest explores C programs")),
    opt("link-llvm-lib", true, Refuse("link libraries into the program first (`cargo symtest cc` or llvm-link-19)")),
    opt("solver-backend", true, Refuse("symtest's solver is Bitwuzla (there is no other backend)")),
    opt("run-in-dir", true, Refuse("the POSIX program's working directory is the one `exec` runs in (its files are read-only copies of the host's)")),
    opt("env-file", true, Refuse("the program's environment is fixed (HOME, PATH, PWD), under the engine and in native replay, so tests do not depend on the machine; set variables in the harness (setenv) instead")),
    opt("make-concrete-symbolic", true, Refuse("not implemented")),
    opt("return-null-on-zero-malloc", false, Refuse("malloc(0) returns a unique pointer, as glibc and musl do")),
];

/// `exec`'s own long options: name → takes a value.
pub struct OwnOptions(pub Vec<(String, bool)>);

impl OwnOptions {
    pub fn of(cmd: &clap::Command) -> OwnOptions {
        let mut v = Vec::new();
        for a in cmd.get_arguments() {
            let takes = a.get_action().takes_values() && !a.is_require_equals_set();
            if let Some(l) = a.get_long() {
                v.push((l.to_string(), takes));
            }
            for al in a.get_all_aliases().unwrap_or_default() {
                v.push((al.to_string(), takes));
            }
            if let Some(s) = a.get_short() {
                v.push((s.to_string(), takes));
            }
        }
        v.push(("help".into(), false));
        OwnOptions(v)
    }

    fn get(&self, name: &str) -> Option<bool> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, t)| *t)
    }
}

/// The translated arguments and the notes to print (options accepted
/// without effect).
#[derive(Debug, PartialEq)]
pub struct Translated {
    pub args: Vec<OsString>,
    pub notes: Vec<String>,
}

fn parse_bool(name: &str, v: Option<&str>) -> Result<bool, String> {
    match v {
        None | Some("true" | "TRUE" | "True" | "1") => Ok(true),
        Some("false" | "FALSE" | "False" | "0") => Ok(false),
        Some(other) => Err(format!(
            "--{name}: `{other}` is not a boolean (true, false, 1 or 0)"
        )),
    }
}

/// KLEE option `k` (with its `value` from `--name=value`, else the next
/// argument, at `*i`, when it takes one) translated into `out`, or its note
/// in `notes` when it has no effect.
fn klee_option(
    k: &KleeOpt,
    value: Option<&str>,
    args: &[OsString],
    i: &mut usize,
    out: &mut Vec<OsString>,
    notes: &mut Vec<String>,
) -> Result<(), String> {
    let name = k.name;
    let value = match value {
        Some(v) => Some(v.to_string()),
        None if k.value => {
            let v = args
                .get(*i)
                .and_then(|v| v.to_str())
                .ok_or_else(|| format!("KLEE option --{name} expects a value"))?;
            *i += 1;
            Some(v.to_string())
        }
        None => None,
    };
    match k.action {
        Map(list) => {
            let v = value.unwrap_or_default();
            out.extend(list.iter().map(|a| OsString::from(a.replace("{}", &v))));
        }
        Bool(on, off) => {
            let list = if parse_bool(name, value.as_deref())? {
                on
            } else {
                off
            };
            out.extend(list.iter().map(OsString::from));
        }
        Ignore(why) => notes.push(format!("KLEE option --{name} accepted; no effect: {why}")),
        Refuse(why) => return Err(format!("KLEE option --{name} is not supported: {why}")),
    }
    Ok(())
}

/// Translates the arguments after `exec`.
pub fn translate(args: &[OsString], own: &OwnOptions) -> Result<Translated, String> {
    let mut out: Vec<OsString> = Vec::new();
    let mut notes = Vec::new();
    let mut seen_program = false;
    let mut i = 0;
    while i < args.len() {
        let raw = &args[i];
        let Some(tok) = raw.to_str() else {
            // Not UTF-8: a path or a program argument.
            if seen_program {
                out.push("--".into());
                out.extend(args[i..].iter().cloned());
                break;
            }
            seen_program = true;
            out.push(raw.clone());
            i += 1;
            continue;
        };
        if tok == "--" {
            out.extend(args[i..].iter().cloned());
            break;
        }
        let body = tok.strip_prefix("--").or_else(|| tok.strip_prefix('-'));
        let Some(body) = body.filter(|b| !b.is_empty() && !b.starts_with('-')) else {
            // A positional: the program, then (KLEE's form) its arguments.
            if seen_program {
                out.push("--".into());
                out.extend(args[i..].iter().cloned());
                break;
            }
            seen_program = true;
            out.push(raw.clone());
            i += 1;
            continue;
        };
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        // A short option such as `-q` (one letter after one dash).
        if !tok.starts_with("--") && name.len() == 1 {
            match own.get(name) {
                Some(takes) => {
                    out.push(raw.clone());
                    i += 1;
                    if takes && value.is_none() && i < args.len() {
                        out.push(args[i].clone());
                        i += 1;
                    }
                    continue;
                }
                None if seen_program => {
                    out.push("--".into());
                    out.extend(args[i..].iter().cloned());
                    break;
                }
                None => {
                    out.push(raw.clone());
                    i += 1;
                    continue;
                }
            }
        }
        if let Some(takes) = own.get(name) {
            out.push(format!("--{body}").into());
            i += 1;
            if takes && value.is_none() && i < args.len() {
                out.push(args[i].clone());
                i += 1;
            }
            continue;
        }
        if let Some(k) = KLEE_OPTS.iter().find(|k| k.name == name) {
            i += 1;
            klee_option(k, value, args, &mut i, &mut out, &mut notes)?;
            continue;
        }
        if seen_program {
            // KLEE's form: everything after the program is its arguments.
            out.push("--".into());
            out.extend(args[i..].iter().cloned());
            break;
        }
        // Unknown: clap reports it.
        out.push(raw.clone());
        i += 1;
    }
    Ok(Translated { args: out, notes })
}

pub use symtest_project::explore_options::parse_span;

#[cfg(test)]
mod tests {
    use super::*;

    fn own() -> OwnOptions {
        OwnOptions(vec![
            ("max-time".into(), true),
            ("output-dir".into(), true),
            ("emit-all".into(), false),
            ("posix-runtime".into(), false),
            ("libc".into(), true),
            ("quiet".into(), false),
            ("q".into(), false),
        ])
    }

    fn t(args: &[&str]) -> Result<Translated, String> {
        let a: Vec<OsString> = args.iter().map(OsString::from).collect();
        translate(&a, &own())
    }

    fn strs(t: &Translated) -> Vec<String> {
        t.args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn klee_command_lines_become_exec_ones() {
        let r = t(&[
            "-max-time=60",
            "--libc=uclibc",
            "-posix-runtime",
            "--watchdog",
            "--only-output-states-covering-new",
            "prog.bc",
            "--sym-args",
            "0",
            "1",
            "10",
        ])
        .unwrap();
        assert_eq!(
            strs(&r),
            [
                "--max-time=60",
                "--libc=uclibc",
                "--posix-runtime",
                "prog.bc",
                "--",
                "--sym-args",
                "0",
                "1",
                "10"
            ]
        );
        assert_eq!(r.notes.len(), 1);
        assert!(r.notes[0].contains("--watchdog"));
    }

    #[test]
    fn options_after_the_program_stay_options_until_an_unknown_word() {
        let r = t(&[
            "prog.bc",
            "--max-time",
            "5",
            "-q",
            "--emit-all",
            "A",
            "--max-time",
        ])
        .unwrap();
        assert_eq!(
            strs(&r),
            [
                "prog.bc",
                "--max-time",
                "5",
                "-q",
                "--emit-all",
                "--",
                "A",
                "--max-time"
            ]
        );
        let r = t(&["prog.bc", "--", "--max-time"]).unwrap();
        assert_eq!(strs(&r), ["prog.bc", "--", "--max-time"]);
        let r = t(&["prog.bc", "-q", "--emit-all", "-n", "3"]).unwrap();
        assert_eq!(strs(&r), ["prog.bc", "-q", "--emit-all", "--", "-n", "3"]);
    }

    #[test]
    fn booleans_and_values_map() {
        let r = t(&[
            "--only-output-states-covering-new=false",
            "--use-cex-cache=0",
            "p.bc",
        ])
        .unwrap();
        assert_eq!(strs(&r), ["--emit-all", "--drop-solver-layer=cex", "p.bc"]);
        let r = t(&["--rng-initial-seed", "7", "p.bc"]).unwrap();
        assert_eq!(strs(&r), ["--seed=7", "p.bc"]);
        assert!(t(&["--use-cex-cache=maybe", "p.bc"]).is_err());
    }

    #[test]
    fn refused_options_name_themselves() {
        let e = t(&["--use-merge", "p.bc"]).unwrap_err();
        assert!(e.contains("--use-merge") && e.contains("merging"), "{e}");
        let r = t(&["-seed-file=x.ktest", "p.bc"]).unwrap();
        assert_eq!(strs(&r), ["--seed-file=x.ktest", "p.bc"]);
    }

    #[test]
    fn unknown_options_before_the_program_are_left_to_clap() {
        let r = t(&["--frobnicate", "p.bc"]).unwrap();
        assert_eq!(strs(&r), ["--frobnicate", "p.bc"]);
    }

    #[test]
    fn time_spans() {
        assert_eq!(parse_span("60").unwrap(), 60.0);
        assert_eq!(parse_span("2.5").unwrap(), 2.5);
        assert_eq!(parse_span("60s").unwrap(), 60.0);
        assert_eq!(parse_span("1min").unwrap(), 60.0);
        assert_eq!(parse_span("1h30min").unwrap(), 5400.0);
        assert!((parse_span("500ms").unwrap() - 0.5).abs() < 1e-12);
        assert!(parse_span("5 parsecs").is_err());
        assert!(parse_span("").is_err());
        assert!(parse_span("-3").is_err());
        assert!(parse_span("1e300").is_err());
    }
}
