//! `cargo symtest exec`'s command line turned into the engine's
//! configuration: the libc, error kinds, allocation limit, seeds, target
//! lines and every other flag of [`ExecArgs`].

use crate::exec::{program_name, seconds, ExecArgs, Libc};
use std::path::{Path, PathBuf};
use symtest_executor::{Config, ErrorKind, SearchKind};
use symtest_solver::LayerSet;

pub(crate) fn libc_of(a: &ExecArgs) -> Result<Libc, String> {
    let libc = match a.explore.libc.as_str() {
        "none" => Libc::None,
        "musl" | "uclibc" | "klee" => Libc::Musl,
        "auto" => Libc::Auto,
        other => {
            return Err(format!(
                "--libc: unknown libc `{other}` (choose auto, none, musl; KLEE's uclibc and klee mean musl)"
            ))
        }
    };
    if a.explore.posix_runtime {
        return match libc {
            Libc::None => {
                Err("--posix-runtime needs a libc (--libc=musl, or the default auto)".into())
            }
            _ => Ok(Libc::Musl),
        };
    }
    Ok(libc)
}

/// KLEE's termination-type names and symtest's kinds, for --exit-on-error-type.
fn exit_kind(name: &str) -> Result<Vec<ErrorKind>, String> {
    if let Some(k) = ErrorKind::parse(name) {
        return Ok(vec![k]);
    }
    let k = match name {
        "Ptr" | "BadVectorAccess" => ErrorKind::Ptr,
        "Free" => ErrorKind::Free,
        "Abort" => ErrorKind::Abort,
        "Assert" => ErrorKind::Assert,
        // KLEE reports division by zero and overshift through its own
        // checks; symtest has `div` and `overflow` for them.
        "Overflow" | "InvalidBuiltin" => return Ok(vec![ErrorKind::Overflow, ErrorKind::Div]),
        "ReadOnly" => ErrorKind::ReadOnly,
        "ReportError" | "User" => ErrorKind::User,
        "Execution" => ErrorKind::Exec,
        "External" => ErrorKind::External,
        "Model" => ErrorKind::Model,
        _ => {
            return Err(format!(
                "--exit-on-error-type: unknown kind `{name}` (symtest's: {}; KLEE's: Ptr, Free, Abort, Assert, Overflow, ReadOnly, ReportError, User, Execution, External, Model, BadVectorAccess, InvalidBuiltin)",
                ErrorKind::ALL.map(ErrorKind::as_str).join(", ")
            ))
        }
    };
    Ok(vec![k])
}

/// `--max-alloc-size`: the fixed default, or a whole number of MiB (at least
/// one), the unit in which native builds enforce the same limit
/// (AddressSanitizer's `max_allocation_size_mb`, where 0 means no limit).
pub fn max_alloc_size(given: Option<u64>) -> Result<u64, String> {
    match given {
        None => Ok(symtest_executor::DEFAULT_MAX_ALLOC_SIZE),
        Some(n) if n == 0 || n % (1 << 20) != 0 => Err(format!(
            "--max-alloc-size {n}: give a whole number of MiB (a multiple of 1048576 bytes, at least 1048576): native builds enforce the limit in MiB"
        )),
        Some(n) => Ok(n),
    }
}

/// The seeds of `--seed-file` and `--seed-dir`: each `.ktest`'s objects.
/// The seeds of --seed-file and --seed-dir, each with the arguments its
/// `.ktest` records.
type ReadSeed = (symtest_executor::Seed, Vec<String>, PathBuf);

fn read_seeds(files: &[PathBuf], dirs: &[PathBuf]) -> Result<Vec<ReadSeed>, String> {
    let mut paths: Vec<PathBuf> = files.to_vec();
    for d in dirs {
        let mut found: Vec<PathBuf> = std::fs::read_dir(d)
            .map_err(|e| format!("--seed-dir {}: {e}", d.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ktest"))
            .collect();
        found.sort();
        paths.extend(found);
    }
    paths
        .iter()
        .map(|p| {
            let t = symtest_ktest::KTest::read_from(p)
                .map_err(|e| format!("seed {}: {e}", p.display()))?;
            let objects = t.objects.into_iter().map(|o| (o.name, o.bytes)).collect();
            Ok((objects, t.args, p.clone()))
        })
        .collect()
}

/// A seed's own argv under --seed-own-args (`None`: it has none, it follows
/// the arguments after `--`), its environment options checked as those are.
fn own_args(a: &ExecArgs, args: &[String]) -> Result<Option<Vec<String>>, String> {
    let Some((_, rest)) = args.split_first() else {
        return Ok(None);
    };
    if a.explore.posix_runtime {
        symtest_project::runtime::check_env_options(
            rest,
            a.explore.max_memory,
            symtest_executor::SYMBOLIC_BYTE_COST,
        )
        .map_err(|e| format!("a seed's own arguments: {e}"))?;
    }
    // argv[0] is the program's name, as for the arguments after `--`.
    Ok(Some(
        std::iter::once(program_name(&a.program))
            .chain(rest.iter().cloned())
            .collect(),
    ))
}

/// `--target-line FILE:LINE` and the lines of `--target-lines FILE`.
fn target_lines(given: &[String], file: Option<&Path>) -> Result<Vec<(String, u32)>, String> {
    let mut all: Vec<(String, String)> = given
        .iter()
        .map(|g| ("--target-line".to_string(), g.clone()))
        .collect();
    if let Some(f) = file {
        let text = std::fs::read_to_string(f)
            .map_err(|e| format!("--target-lines {}: {e}", f.display()))?;
        for (n, l) in text.lines().enumerate() {
            if !l.trim().is_empty() {
                all.push((format!("{}:{}", f.display(), n + 1), l.trim().to_string()));
            }
        }
    }
    all.into_iter()
        .map(|(place, t)| {
            let (file, line) = t
                .rsplit_once(':')
                .and_then(|(f, l)| Some((f, l.parse::<u32>().ok()?)))
                .filter(|(f, l)| !f.is_empty() && *l > 0)
                .ok_or_else(|| format!("{place}: `{t}` is not FILE:LINE"))?;
            Ok((file.to_string(), line))
        })
        .collect()
}

pub(crate) fn config_of(a: &ExecArgs) -> Result<(Config, LayerSet), String> {
    let mut layer_spec = a.solver_layers.clone();
    for d in &a.drop_solver_layer {
        layer_spec.push_str(&format!(",-{d}"));
    }
    let layers = LayerSet::parse(&layer_spec).map_err(|e| format!("--solver-layers: {e}"))?;
    let mut c = Config {
        entry: a.explore.entry_point.clone(),
        rewrite_expressions: layers.rewrite,
        simplify_constraints: layers.simplify,
        implied_value_concretization: layers.ivc,
        reuse_state_model: layers.cex,
        symbolic_fp: a.fp != "concrete",
        symbolic_long_double: a.fp == "full",
        ..Config::default()
    };
    // argv[0] is the program's name, as a shell gives it to the native program
    // (`echo` for `src/echo.bc`): usage and error messages print it, and
    // `replay --native` and the emitted suites run the program under that name.
    c.argv = std::iter::once(program_name(&a.program))
        .chain(a.program_args.iter().cloned())
        .collect();
    set_limits(a, &mut c)?;
    set_search(a, &mut c)?;
    set_tests_and_stops(a, &mut c)?;
    set_seeds_and_targets(a, &mut c)?;
    set_checks(a, &mut c)?;
    set_environment(a, &mut c)?;
    Ok((c, layers))
}

/// Time, instructions, memory, forks, depth and solver time.
fn set_limits(a: &ExecArgs, c: &mut Config) -> Result<(), String> {
    if let Some(t) = a.explore.max_time {
        let d = seconds("max-time", t)?;
        if d.is_zero() {
            return Err("--max-time must be positive".into());
        }
        c.max_time = Some(d);
    }
    c.max_instructions = a.explore.max_instructions;
    if a.explore.max_instructions == Some(0) {
        return Err("--max-instructions must be at least 1".into());
    }
    crate::loading::check_memory(a.explore.max_memory)?;
    c.max_memory_mb = Some(a.explore.max_memory);
    c.max_suspend_disk_mb = a
        .max_suspend_disk
        .unwrap_or(a.explore.max_memory.saturating_mul(4));
    c.max_forks = a.max_forks;
    c.max_depth = a.max_depth;
    let st = seconds("max-solver-time", a.max_solver_time)?;
    c.max_solver_time = (!st.is_zero()).then_some(st);
    Ok(())
}

/// The searchers, batches, merging and the random seed.
fn set_search(a: &ExecArgs, c: &mut Config) -> Result<(), String> {
    if !a.explore.search.is_empty() {
        c.search = a
            .explore
            .search
            .iter()
            .map(|s| {
                SearchKind::parse(s).ok_or_else(|| {
                    format!(
                        "unknown searcher `{s}` (choose from: {})",
                        SearchKind::NAMES.join(", ")
                    )
                })
            })
            .collect::<Result<_, _>>()?;
    }
    if a.batch_instructions == 0 {
        return Err("--batch-instructions must be at least 1".into());
    }
    c.batch_instructions = a.batch_instructions;
    c.dive_forks = a.dive;
    c.merge_loops = a.merge_loops;
    if let Some(t) = a.batch_time {
        c.batch_time = Some(seconds("batch-time", t)?);
    }
    c.seed = a.explore.seed;
    c.completion_instructions = a.completion_instructions;
    Ok(())
}

/// Which tests are written, and which errors stop the run.
fn set_tests_and_stops(a: &ExecArgs, c: &mut Config) -> Result<(), String> {
    c.emit_all = a.emit_all;
    c.emit_all_errors = a.emit_all || a.emit_all_errors;
    if a.exit_on_error {
        c.exit_on_error = ErrorKind::ALL.into_iter().filter(|k| k.is_bug()).collect();
    }
    for name in &a.exit_on_error_type {
        for k in exit_kind(name.trim())? {
            if !c.exit_on_error.contains(&k) {
                c.exit_on_error.push(k);
            }
        }
    }
    if a.max_tests == Some(0) {
        return Err("--max-tests must be at least 1".into());
    }
    c.max_tests = a.max_tests;
    c.silent_assume = a.silent_klee_assume;
    Ok(())
}

/// Seeds, option seeds, target lines and the share of the budget they get.
fn set_seeds_and_targets(a: &ExecArgs, c: &mut Config) -> Result<(), String> {
    let o = &a.explore;
    if !(0.0..=1.0).contains(&o.directed_share) {
        return Err(format!(
            "--directed-share must be between 0 and 1 (got {})",
            o.directed_share
        ));
    }
    c.directed_share = o.directed_share;
    let mut seeds = read_seeds(&o.seed_file, &o.seed_dir)?;
    if o.seed_own_args {
        // A seed whose own environment the engine refuses is left out, said
        // on stderr; the other seeds and the run go on.
        let mut kept = Vec::with_capacity(seeds.len());
        for (objects, args, path) in seeds {
            match own_args(a, &args) {
                Ok(own) => {
                    c.seed_args.push(own);
                    kept.push((objects, args, path));
                }
                Err(e) => eprintln!("warning: seed {} left out: {e}", path.display()),
            }
        }
        seeds = kept;
    }
    c.seeds = seeds.into_iter().map(|(s, ..)| s).collect();
    c.allow_seed_extension = o.allow_seed_extension;
    c.option_seeds = o.option_seeds && !o.no_option_seeds;
    c.target_lines = target_lines(&o.target_line, o.target_lines.as_deref())?;
    Ok(())
}

/// The engine's checks and heuristics on the program's operations:
/// digests, library forks, overshift, division, comparisons, allocations,
/// external calls.
fn set_checks(a: &ExecArgs, c: &mut Config) -> Result<(), String> {
    c.digest_depth = (a.digest_depth > 0).then_some(a.digest_depth);
    c.library_forks = (a.library_forks > 0).then_some(a.library_forks);
    c.check_overshift = a.check_overshift && !a.optimize;
    c.check_div_zero = a.check_div_zero;
    c.summarize_comparisons = a.summarize_comparisons;
    if a.max_sym_alloc_sizes == 0 {
        return Err("--max-sym-alloc-sizes must be at least 1".into());
    }
    c.max_sym_alloc_sizes = a.max_sym_alloc_sizes;
    c.max_alloc_size = max_alloc_size(a.max_alloc_size)?;
    (c.external_calls_concrete, c.external_calls_all) =
        match a.external_calls.as_deref().unwrap_or("none") {
            "none" => (false, false),
            "concrete" => (true, false),
            "all" => (true, true),
            other => {
                return Err(format!(
                    "--external-calls: unknown mode `{other}` (choose none, concrete or all)"
                ))
            }
        };
    Ok(())
}

/// The C library, the POSIX runtime and its environment options, the
/// crosscheck's second program.
fn set_environment(a: &ExecArgs, c: &mut Config) -> Result<(), String> {
    let o = &a.explore;
    libc_of(a)?;
    if o.posix_runtime {
        if o.entry_point != "main" {
            return Err(
                "--posix-runtime runs main; it cannot be combined with --entry-point".into(),
            );
        }
        symtest_project::runtime::check_env_options(
            &a.program_args,
            o.max_memory,
            symtest_executor::SYMBOLIC_BYTE_COST,
        )?;
        c.entry = symtest_project::runtime::POSIX_ENTRY.into();
    }
    if let Some(second) = &o.crosscheck {
        if !o.posix_runtime {
            return Err(
                "--crosscheck compares two programs' outputs: it needs --posix-runtime".into(),
            );
        }
        let shared = a.program_args.get(o.first_fixed..).ok_or_else(|| {
            format!(
                "--first-fixed {} is more than the {} program arguments",
                o.first_fixed,
                a.program_args.len()
            )
        })?;
        let argv = std::iter::once(program_name(second))
            .chain(o.crosscheck_fixed.iter().cloned())
            .chain(shared.iter().cloned())
            .collect();
        c.crosscheck = Some((format!("{}{}", symtest_ir::SECOND_PREFIX, c.entry), argv));
    }
    Ok(())
}
