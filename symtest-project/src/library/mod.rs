//! `kind = "library"` targets: a library tested with no hand-written harness.
//!
//! [`prepare`] turns such a target into a harness target: it reads the public
//! headers' functions and types from clang's AST ([`ast`], [`types`]), what
//! the library's code does with its pointers from its module's IR ([`ir`]),
//! and writes a harness ([`harness`]) that calls every public function the
//! module defines with inputs built from its types and records what it
//! returned and wrote. The stages then run the derived target as any harness
//! target; its suite carries the generated file, and coverage leaves it out.

pub mod ast;
pub mod cross;
mod dispatch;
pub mod harness;
pub mod ir;
pub mod readable;
mod readable_c;
mod readable_checks;
mod readable_seq;
mod records;
pub mod sequences;
pub mod status;
pub mod types;

use crate::compile::CompileError;
use crate::discovery::{LibrarySpec, Target};
use crate::from_build::Captured;
use crate::toolchain::tool;
use crate::units::{self, Arg};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The generated harness's file name (in the target's build directory, and in
/// its suite).
pub const HARNESS_FILE: &str = "symtest_library.c";

/// What [`prepare`] made of a library target.
pub struct Prepared {
    /// The harness target the stages run.
    pub target: Target,
    /// Its capture, with the harness added (a target from a build).
    pub captured: Option<Captured>,
    /// The functions the harness calls.
    pub functions: Vec<String>,
    /// Functions of the headers with no call, and why.
    pub skipped: Vec<harness::Skipped>,
    /// The call sequences: name and what each calls.
    pub sequences: Vec<(String, String)>,
    /// What each call sequence calls, by the `function` value that runs it.
    pub calls: Vec<(usize, sequences::Calls)>,
    /// The calls that get a made-up handle.
    pub made_up: sequences::MadeUp,
}

fn failed(command: &str, diagnostics: String) -> CompileError {
    CompileError {
        command: command.to_string(),
        diagnostics,
    }
}

/// The flags that decide how the headers parse: the target's, then those of
/// the library's recorded compiles (`-I`, `-D`, `-include`, `-std`).
fn header_flags(t: &Target, captured: Option<&Captured>, models_include: &Path) -> Vec<String> {
    let mut flags = crate::compile::common_args(t, models_include);
    flags.extend(capture_flags(captured));
    flags
}

/// The translation flags of the library's recorded compiles (`-I`, `-D`,
/// `-U`, `-include`, `-std`, `-m`): the harness compiles with them, as the
/// headers were read with them (`-D_LARGEFILE64_SOURCE` declares `gzopen64`).
fn capture_flags(captured: Option<&Captured>) -> Vec<String> {
    let mut flags = Vec::new();
    if let Some(cap) = captured {
        let unit = cap.native.all_units().next();
        for a in unit.map_or(&[][..], |u| u.args.as_slice()) {
            match a {
                Arg::Word(w) if ["-D", "-U", "-std=", "-m"].iter().any(|p| w.starts_with(p)) => {
                    flags.push(w.clone());
                }
                Arg::Path { flag, path } if !flag.is_empty() => {
                    flags.push(format!("{flag}{}", path.display()));
                }
                Arg::Path { path, .. } => {
                    flags.push("-include".into());
                    flags.push(path.display().to_string());
                }
                _ => {}
            }
        }
    }
    flags
}

/// Whether `name` matches one of the globs (`*`, `?`); every name when none.
fn selected(globs: &[String], name: &str) -> bool {
    fn matches(p: &[u8], s: &[u8]) -> bool {
        match (p.first(), s.first()) {
            (None, None) => true,
            (Some(b'*'), _) => matches(&p[1..], s) || (!s.is_empty() && matches(p, &s[1..])),
            (Some(b'?'), Some(_)) => matches(&p[1..], &s[1..]),
            (Some(a), Some(b)) if a == b => matches(&p[1..], &s[1..]),
            _ => false,
        }
    }
    globs.is_empty() || globs.iter().any(|g| matches(g.as_bytes(), name.as_bytes()))
}

/// The library's module: the captured one, or its sources compiled.
fn module(
    t: &Target,
    captured: Option<&Captured>,
    models_include: &Path,
    dir: &Path,
) -> Result<PathBuf, CompileError> {
    if let Some(cap) = captured {
        return Ok(cap.bitcode.clone());
    }
    let mut lib = t.clone();
    lib.kind = crate::config::Kind::Harness;
    lib.name = format!("{}.library", t.name);
    crate::compile::to_bitcode(&lib, models_include, &dir.join("module"))
}

/// A library read for generating a harness: its interface, what its code
/// does with its pointers, and the harness target to be.
pub(crate) struct Loaded {
    pub(crate) api: ast::Api,
    pub(crate) facts: ir::Facts,
    /// Header names as a harness includes them.
    pub(crate) includes: Vec<String>,
    /// The harness target (sources, flags and include directories), before
    /// the harness is added to its sources.
    pub(crate) derived: Target,
    pub(crate) clang: String,
}

/// Reads library target `t` (its module's IR, its headers' AST) in `dir`.
pub(crate) fn load(
    t: &Target,
    spec: &LibrarySpec,
    captured: Option<&Captured>,
    models_include: &Path,
    dir: &Path,
) -> Result<Loaded, CompileError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| failed(&format!("mkdir {}", dir.display()), e.to_string()))?;
    let bc = module(t, captured, models_include, dir)?;
    let dis = tool("SYMTEST_LLVM_DIS", "llvm-dis-19");
    let out = Command::new(&dis)
        .arg(&bc)
        .arg("-o")
        .arg("-")
        .output()
        .map_err(|e| failed(&dis, e.to_string()))?;
    if !out.status.success() {
        return Err(failed(
            &format!("{dis} {}", bc.display()),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ));
    }
    let facts = ir::analyse(&String::from_utf8_lossy(&out.stdout));
    let clang = tool("SYMTEST_CLANG", "clang-19");
    let flags = header_flags(t, captured, models_include);
    let (api, used) = ast::read(&clang, &spec.headers, &flags, &dir.join("headers.c"))
        .map_err(|e| failed("reading the library's headers", e))?;
    // Header names as the harness includes them, found through their directories.
    let mut include_dirs: Vec<PathBuf> = Vec::new();
    let mut includes = Vec::new();
    for h in &used {
        if let (Some(d), Some(n)) = (h.parent(), h.file_name()) {
            if !include_dirs.iter().any(|x| x == d) {
                include_dirs.push(d.to_path_buf());
            }
            includes.push(n.to_string_lossy().into_owned());
        }
    }
    let mut derived = t.clone();
    derived.kind = crate::config::Kind::Harness;
    derived.cflags.extend(capture_flags(captured));
    for d in include_dirs {
        if !derived.include.contains(&d) {
            derived.include.push(d);
        }
    }
    Ok(Loaded {
        api,
        facts,
        includes,
        derived,
        clang,
    })
}

/// Writes the harness of library target `t` into `dir` and returns the
/// harness target to run.
pub fn prepare(
    t: &Target,
    spec: &LibrarySpec,
    captured: Option<&Captured>,
    models_include: &Path,
    dir: &Path,
) -> Result<Prepared, CompileError> {
    let loaded = load(t, spec, captured, models_include, dir)?;
    let (mut candidates, mut skipped) = callable(&loaded, spec)?;
    let file = dir.join(HARNESS_FILE);
    let o = harness::Options {
        elements: spec.pointer_elements,
        depth: spec.pointer_depth,
        sequence_length: spec.sequence_length,
    };
    let generated = generate_compiling(
        &loaded,
        spec,
        &o,
        &file,
        models_include,
        &mut candidates,
        &mut skipped,
    )?;
    skipped.extend(generated.skipped.iter().cloned());
    skipped.sort_by(|a, b| a.function.cmp(&b.function));
    write_plan(&loaded, &o, &generated, models_include, dir)?;
    let (target, captured) = with_harness(loaded.derived, captured, &file);
    Ok(Prepared {
        target,
        captured,
        functions: generated.functions,
        skipped,
        sequences: generated.sequences,
        calls: generated.selectors,
        made_up: generated.made_up,
    })
}

/// The functions of the headers the harness may call (selected, not
/// `static`, defined by the library's module), and those left out with
/// why; an error when none is left.
fn callable<'a>(
    loaded: &'a Loaded,
    spec: &LibrarySpec,
) -> Result<(Vec<&'a ast::Function>, Vec<harness::Skipped>), CompileError> {
    let Loaded { api, facts, .. } = loaded;
    let mut skipped = Vec::new();
    let mut candidates = Vec::new();
    for f in &api.functions {
        if !selected(&spec.functions, &f.name) {
            continue;
        }
        let reason = if f.is_static {
            "it is `static` in the header"
        } else if !facts.defined.contains(&f.name) {
            "the library's module does not define it"
        } else {
            candidates.push(f);
            continue;
        };
        skipped.push(harness::Skipped {
            function: f.name.clone(),
            reason: reason.into(),
        });
    }
    if !candidates.is_empty() {
        return Ok((candidates, skipped));
    }
    let why = if api.functions.is_empty() {
        "the headers declare no function".to_string()
    } else {
        format!(
            "no function of the headers can be called: {}",
            skipped
                .iter()
                .take(8)
                .map(|s| format!("`{}` ({})", s.function, s.reason))
                .collect::<Vec<_>>()
                .join("; ")
        )
    };
    Err(failed("generating the library's harness", why))
}

/// Generates the harness into `file` until it compiles: a call that does
/// not (a type the generator spells wrongly, an assumption naming no
/// parameter) drops its function or sequence, with clang's word.
fn generate_compiling(
    loaded: &Loaded,
    spec: &LibrarySpec,
    o: &harness::Options,
    file: &Path,
    models_include: &Path,
    candidates: &mut Vec<&ast::Function>,
    skipped: &mut Vec<harness::Skipped>,
) -> Result<harness::Generated, CompileError> {
    let Loaded {
        api,
        facts,
        includes,
        derived,
        clang,
    } = loaded;
    let mut excluded = std::collections::BTreeSet::new();
    loop {
        let generated =
            harness::generate(api, facts, o, candidates, &spec.assume, includes, &excluded);
        std::fs::write(file, &generated.text)
            .map_err(|e| failed(&format!("writing {}", file.display()), e.to_string()))?;
        let flags = crate::compile::common_args(derived, models_include);
        let check = Command::new(clang)
            .args(["-fsyntax-only", "-w"])
            .args(&flags)
            .arg(file)
            .output()
            .map_err(|e| failed(clang, e.to_string()))?;
        if check.status.success() {
            return Ok(generated);
        }
        let err = String::from_utf8_lossy(&check.stderr).into_owned();
        let bad = functions_at_errors(&generated.text, &err, file, &generated.sequences);
        if bad.is_empty() {
            return Err(failed(
                &format!("{clang} -fsyntax-only {}", file.display()),
                err,
            ));
        }
        for (name, why) in bad {
            let what = if name.starts_with("sequence ") {
                excluded.insert(name.clone());
                "calls do not"
            } else {
                candidates.retain(|f| f.name != name);
                "call does not"
            };
            skipped.push(harness::Skipped {
                function: name,
                reason: format!("its generated {what} compile: {why}"),
            });
        }
        if candidates.is_empty() {
            return Err(failed(
                "generating the library's harness",
                "no generated call compiles".into(),
            ));
        }
    }
}

/// Writes the readable tests' plan: what each call's inputs are in C terms.
fn write_plan(
    loaded: &Loaded,
    o: &harness::Options,
    generated: &harness::Generated,
    models_include: &Path,
    dir: &Path,
) -> Result<(), CompileError> {
    let Loaded {
        api,
        facts,
        includes,
        derived,
        clang,
    } = loaded;
    let layouts = record_layouts(api, facts, includes, derived, clang, models_include, dir);
    let plan = readable::plan(
        api,
        facts,
        o,
        &generated.functions,
        &generated.selectors,
        includes,
        &layouts,
    );
    let plan_file = dir.join(readable::PLAN_FILE);
    let json = serde_json::to_string_pretty(&plan).unwrap_or_default();
    std::fs::write(&plan_file, json)
        .map_err(|e| failed(&format!("writing {}", plan_file.display()), e.to_string()))
}

/// The layouts of the headers' flat structures, from clang's IR of a probe
/// (none when it does not compile: the readable tests then leave them out).
fn record_layouts(
    api: &ast::Api,
    facts: &ir::Facts,
    includes: &[String],
    derived: &Target,
    clang: &str,
    models_include: &Path,
    dir: &Path,
) -> readable::Layouts {
    let (text, keys) = readable::layout_probe(api, includes);
    let file = dir.join("symtest_layouts.c");
    if keys.is_empty() || std::fs::write(&file, text).is_err() {
        return readable::Layouts::new();
    }
    let out = Command::new(clang)
        .args(["-S", "-emit-llvm", "-w", "-o", "-"])
        .args(crate::compile::common_args(derived, models_include))
        .arg(&file)
        .output();
    match out {
        Ok(o) if o.status.success() => {
            readable::layouts(api, facts, &keys, &String::from_utf8_lossy(&o.stdout))
        }
        _ => readable::Layouts::new(),
    }
}

/// The harness target: `derived` with the generated `file` first among its
/// sources (and in its capture's native units).
pub(crate) fn with_harness(
    mut derived: Target,
    captured: Option<&Captured>,
    file: &Path,
) -> (Target, Option<Captured>) {
    derived.sources.insert(0, file.to_path_buf());
    if let Some(l) = derived.library.as_mut() {
        l.generated = Some(file.to_path_buf());
    }
    let captured = captured.map(|c| {
        let mut c = c.clone();
        c.native
            .units
            .insert(0, units::harness_unit(&derived, file));
        c
    });
    (derived, captured)
}

/// The functions whose `symtest_call_<name>` holds a line clang reported an
/// error at, with the first error message of each.
fn functions_at_errors(
    text: &str,
    stderr: &str,
    file: &Path,
    sequences: &[(String, String)],
) -> Vec<(String, String)> {
    let prefix = format!("{}:", file.display());
    let mut owner: Vec<Option<String>> = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("static void symtest_call_") {
            current = rest.split('(').next().map(str::to_string);
        }
        if let Some(rest) = line.strip_prefix("static void symtest_seq_") {
            current = rest
                .split('(')
                .next()
                .and_then(|k| k.parse::<usize>().ok())
                .and_then(|k| sequences.get(k))
                .map(|(n, _)| n.clone());
        }
        owner.push(current.clone());
        if line == "}" {
            current = None;
        }
    }
    let mut out: Vec<(String, String)> = Vec::new();
    for l in stderr.lines() {
        let Some(rest) = l.strip_prefix(&prefix) else {
            continue;
        };
        if !rest.contains("error:") {
            continue;
        }
        let n: usize = rest
            .split(':')
            .next()
            .and_then(|x| x.parse().ok())
            .unwrap_or(0);
        if let Some(Some(f)) = owner.get(n.wrapping_sub(1)) {
            if !out.iter().any(|(g, _)| g == f) {
                let why = rest
                    .split_once("error:")
                    .map_or("", |(_, w)| w)
                    .trim()
                    .to_string();
                out.push((f.clone(), why));
            }
        }
    }
    out
}

/// The functions of `functions` (in selector order) that one of `tests`
/// calls: the value of its `function` object (none when the harness calls one
/// function).
pub fn functions_of<'t>(
    functions: &[String],
    tests: impl Iterator<Item = &'t crate::testcases::EngineTest>,
) -> Vec<String> {
    let mut hit = vec![false; functions.len()];
    for t in tests {
        let k = match t.objects.iter().find(|(n, _)| n == "function") {
            Some((_, b)) if b.len() == 4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
            Some(_) => continue,
            None => 0,
        };
        if let Some(h) = hit.get_mut(k) {
            *h = true;
        }
    }
    functions
        .iter()
        .zip(hit)
        .filter(|(_, h)| *h)
        .map(|(f, _)| f.clone())
        .collect()
}

/// The public functions a harness calls (`functions`, alone, or in the call
/// sequences `calls`), and those of them that one of `tests` calls: alone,
/// or in a sequence, as its selector objects chose.
pub fn public_functions_of<'t>(
    functions: &[String],
    calls: &[(usize, sequences::Calls)],
    tests: impl Iterator<Item = &'t crate::testcases::EngineTest>,
) -> (Vec<String>, Vec<String>) {
    let mut all: std::collections::BTreeSet<String> = functions
        .iter()
        .filter(|f| !f.starts_with("sequence "))
        .cloned()
        .collect();
    for (_, c) in calls {
        all.extend(
            c.selectors
                .iter()
                .flat_map(|s| s.1.iter().flatten().cloned()),
        );
        all.extend(c.ender.iter().cloned());
    }
    let mut tested = std::collections::BTreeSet::new();
    for t in tests {
        let k = match t.objects.iter().find(|(n, _)| n == "function") {
            Some((_, b)) if b.len() == 4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
            Some(_) => continue,
            None => 0,
        };
        match calls.iter().find(|(i, _)| *i == k) {
            Some((_, c)) => {
                let ended = matches!(t.outcome, crate::testcases::Outcome::Exit { .. });
                tested.extend(c.called(&t.objects, ended));
            }
            None => tested.extend(functions.get(k).cloned()),
        }
    }
    (all.into_iter().collect(), tested.into_iter().collect())
}

/// How a bug of a library target reads: `contract` when an assertion of the
/// called public function itself failed (the function checks its
/// precondition, and the generated input or call order broke it), or when
/// the call under which it happened got a made-up handle (`made_up`: a
/// structure the library makes with a function of its own, given as
/// symbolic bytes: its inner state is one the library never makes);
/// `harness` when the generated code failed, else `bug`. A pointer the
/// call returned that points to no object (`symtest_lib_returned`) is the
/// call's result, not the generated code's failure.
pub fn triage(b: &crate::baseline::Bug, made_up: &sequences::MadeUp) -> &'static str {
    let first = b.stack.first().map_or("", String::as_str);
    let caller = b.stack.get(1).map_or("", String::as_str);
    // The generated function the bug happened under, and the library
    // function it was calling (the stack is innermost first).
    let at = b
        .stack
        .iter()
        .position(|f| f.starts_with("symtest_call_") || f.starts_with("symtest_seq_"));
    let made_up_handle = at.is_some_and(|k| match b.stack[k].strip_prefix("symtest_call_") {
        Some(f) => made_up.alone.contains(f),
        None => k > 0 && made_up.in_sequence.contains(&b.stack[k - 1]),
    });
    let generated = first.starts_with("symtest_lib_") && first != "symtest_lib_returned";
    if generated || first.starts_with("symtest_call_") || first == "main" {
        "harness"
    } else if b.kind == "assert"
        && (caller == format!("symtest_call_{first}") || caller.starts_with("symtest_seq_"))
        || made_up_handle
    {
        "contract"
    } else {
        "bug"
    }
}
