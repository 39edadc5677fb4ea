//! Executable lines as the KLEE paper counts them (ELOC): "the total number
//! of executable lines in the final executable after global optimization,
//! which eliminates uncalled functions and other dead code".
//!
//! gcov lists every line of every function compiled, dead or not. A program
//! built from sources it shares with others carries their code: coreutils'
//! `sum` compiles `digest.c`, whose `--check` reader (`digest_check` and its
//! helpers, a third of the file) no option of `sum` can reach. Here the
//! target's bitcode goes through `opt-19` as a whole program (everything but
//! the entry point, `main` by default, internalized, locals promoted to registers, constants propagated
//! across functions, the branches they decide folded, unreferenced
//! functions dropped); a function of the module that does not survive is
//! dead, and so are the lines gcov places in it. The line coverage over the
//! lines that remain is the paper's figure; the coverage over all of gcov's
//! lines stays the headline.
//!
//! The analysis is conservative: a function whose name is ambiguous in the
//! module (a static function of two files, renamed by the linker) is never
//! dead, and a function with a line the kept tests execute natively is never
//! dead whatever the optimizer said.

use crate::covdata::FileCoverage;
use crate::discovery::Target;
use crate::toolchain::tool;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// The function exploration starts in: the target's `entry-point`, or an
/// `--entry-point` among its `exec-args`, else `main`.
pub fn entry_of(t: &Target) -> String {
    let mut entry = t.entry_point.clone();
    let mut args = t.exec_args.iter();
    while let Some(a) = args.next() {
        if a == "--entry-point" {
            entry = args.next().cloned().or(entry);
        } else if let Some(e) = a.strip_prefix("--entry-point=") {
            entry = Some(e.to_string());
        }
    }
    entry.unwrap_or_else(|| "main".into())
}

/// The passes: whole-program dead-code elimination after interprocedural
/// constant propagation, with no inlining (a function inlined everywhere
/// would otherwise look dead).
const PASSES: &str =
    "internalize,function(mem2reg),globalopt,ipsccp,function(simplifycfg),globaldce";

/// The functions `bitcode` defines (`llvm-nm-19 --defined-only`, text symbols).
fn defined_functions(bitcode: &Path) -> Result<BTreeSet<String>, String> {
    let out = Command::new(tool("SYMTEST_LLVM_NM", "llvm-nm-19"))
        .arg("--defined-only")
        .arg(bitcode)
        .output()
        .map_err(|e| format!("cannot run llvm-nm-19: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "llvm-nm-19 {} failed: {}",
            bitcode.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(parse_nm(&String::from_utf8_lossy(&out.stdout)))
}

/// Text symbols (`t`, `T`, `W`) of `llvm-nm` output.
fn parse_nm(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let (_, kind, name) = (parts.next()?, parts.next()?, parts.next()?);
            matches!(kind, "t" | "T" | "W" | "w").then(|| name.to_string())
        })
        .collect()
}

/// The functions whole-program optimization removes from `bitcode` when
/// only `entry` (the function exploration starts in) is kept, by the name
/// gcov gives them; `scratch` is a directory for the optimized module. An
/// error when the module does not define `entry` or a tool fails.
pub fn dead_functions(
    bitcode: &Path,
    entry: &str,
    scratch: &Path,
) -> Result<BTreeSet<String>, String> {
    let before = defined_functions(bitcode)?;
    if !before.contains(entry) {
        return Err(format!("the module defines no `{entry}`"));
    }
    std::fs::create_dir_all(scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let optimized = scratch.join("eloc.bc");
    let out = Command::new(tool("SYMTEST_OPT", "opt-19"))
        .arg(format!("-passes={PASSES}"))
        .arg(format!("-internalize-public-api-list={entry}"))
        .arg(bitcode)
        .arg("-o")
        .arg(&optimized)
        .output()
        .map_err(|e| format!("cannot run opt-19: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "opt-19 on {} failed: {}",
            bitcode.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let after = defined_functions(&optimized);
    let _ = std::fs::remove_file(&optimized);
    Ok(removed(&before, &after?))
}

/// The names of `before` missing from `after`, less every name the linker
/// may have renamed (`name.N` next to `name`: statics of two files).
fn removed(before: &BTreeSet<String>, after: &BTreeSet<String>) -> BTreeSet<String> {
    let renamed: BTreeSet<&str> = before
        .iter()
        .filter_map(|n| {
            let (base, suffix) = n.rsplit_once('.')?;
            (!suffix.is_empty() && suffix.bytes().all(|b| b.is_ascii_digit())).then_some(base)
        })
        .collect();
    before
        .iter()
        .filter(|n| !after.contains(*n) && !renamed.contains(n.as_str()))
        .cloned()
        .collect()
}

/// The lines of `fc` that lie in dead functions, with the function's name:
/// a line belongs to the function gcov starts last at or before it
/// (`starts`: line -> the functions starting there). Where several start on
/// one line (a macro defining them) all must be dead; a function with a
/// covered line is not.
pub fn dead_lines(
    fc: &FileCoverage,
    starts: &BTreeMap<u32, Vec<String>>,
    dead: &BTreeSet<String>,
) -> BTreeMap<u32, String> {
    let mut out = BTreeMap::new();
    let mut spans: Vec<(&[String], Vec<u32>)> = Vec::new();
    for &line in fc.lines.keys() {
        if let Some(names) = starts.get(&line) {
            spans.push((names, Vec::new()));
        }
        if let Some((_, lines)) = spans.last_mut() {
            lines.push(line);
        }
    }
    for (names, lines) in spans {
        let all_dead = !names.is_empty() && names.iter().all(|n| dead.contains(n));
        let covered = lines
            .iter()
            .any(|l| fc.lines.get(l).is_some_and(|c| *c > 0));
        if all_dead && !covered {
            for l in lines {
                out.insert(l, names.join(", "));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn nm_text_symbols_only() {
        let text = "---------------- D Version\n---------------- t digest_check\n---------------- T main\n                 U printf\n";
        assert_eq!(parse_nm(text), set(&["digest_check", "main"]));
    }

    #[test]
    fn renamed_statics_are_never_dead() {
        let before = set(&["main", "numcompare", "numcompare.646", "split_3", "usage"]);
        let after = set(&["main", "usage"]);
        assert_eq!(
            removed(&before, &after),
            set(&["numcompare.646", "split_3"])
        );
    }

    #[test]
    fn lines_belong_to_the_last_function_started() {
        let fc = FileCoverage {
            lines: [(1, 1), (2, 1), (5, 0), (6, 0), (9, 0), (10, 2), (12, 0)]
                .into_iter()
                .collect(),
            ..FileCoverage::default()
        };
        let starts: BTreeMap<u32, Vec<String>> = [
            (1, vec!["main".to_string()]),
            (5, vec!["check".to_string()]),
            (9, vec!["covered_anyway".to_string()]),
            (12, vec!["a".to_string(), "b".to_string()]),
        ]
        .into_iter()
        .collect();
        let dead = set(&["check", "covered_anyway", "a"]);
        let d = dead_lines(&fc, &starts, &dead);
        assert_eq!(d.keys().copied().collect::<Vec<_>>(), [5, 6]);
        assert_eq!(d[&5], "check");
    }

    /// The optimizer on a real module: a function called only under a local
    /// flag that no code sets is dead, one the flag's other value calls is not.
    #[test]
    fn a_function_behind_a_constant_local_is_dead() {
        let dir = std::env::temp_dir().join(format!("symtest-eloc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("p.c");
        std::fs::write(
            &src,
            "static int check(void) { return 3; }\nint sum(int x) { return x + 1; }\nint main(int argc, char **argv) {\n  int do_check = 0;\n  if (argc > 5) argc = 2;\n  if (do_check) return check();\n  return sum(argc);\n}\n",
        )
        .unwrap();
        let bc = dir.join("p.bc");
        let ok = Command::new(crate::toolchain::clang())
            .args([
                "-c",
                "-emit-llvm",
                "-g",
                "-O0",
                "-Xclang",
                "-disable-O0-optnone",
            ])
            .arg(&src)
            .arg("-o")
            .arg(&bc)
            .status()
            .unwrap()
            .success();
        assert!(ok);
        let dead = dead_functions(&bc, "main", &dir).unwrap();
        // Kept from another entry, `main` itself is dead.
        let other = dead_functions(&bc, "sum", &dir);
        let none = dead_functions(&bc, "nosuch", &dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(dead, set(&["check"]));
        assert_eq!(other.unwrap(), set(&["check", "main"]));
        assert_eq!(none.unwrap_err(), "the module defines no `nosuch`");
    }
}
