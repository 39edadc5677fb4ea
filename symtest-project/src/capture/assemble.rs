//! After the build: whole-program bitcode per executable and static library,
//! `compile_commands.json` and the manifest, from the capture log.

use super::linkcache::LinkCache;
use super::log::Record;
use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One output of the build, as the manifest describes it.
#[derive(Debug, Serialize)]
pub struct Output {
    /// Path relative to the build root (`src/echo`, `lib/libfoo.a`).
    pub output: String,
    /// `executable`, `shared-library` or `static-library`.
    pub kind: &'static str,
    /// The linked module, relative to the capture directory; absent if none
    /// of its inputs had bitcode or linking failed (see `warnings`).
    pub bitcode: Option<String>,
    /// Objects and archives in link order (relative to the build root where
    /// inside it).
    pub inputs: Vec<String>,
    /// The C sources whose bitcode is in the module.
    pub sources: Vec<String>,
    /// Libraries the link named that the build did not produce (`-lm`, …).
    pub external_libraries: Vec<String>,
    /// Inputs without bitcode (assembly, C++, failed bitcode compiles).
    pub missing_bitcode: Vec<String>,
    /// Functions the module calls that objects without bitcode define.
    pub undefined_from_missing: Vec<String>,
    /// The objects (as their compiles named them) whose bitcode the module
    /// links whole, in link order: an executable's objects and the contents
    /// of the partial links and copies it names; a static library's members.
    pub objects: Vec<String>,
    /// The objects the output file itself names as carrying bitcode (its
    /// `.symtest_bc` section: what a stripped or renamed copy of it names too).
    pub carried: Vec<String>,
    /// The members of static libraries the linker took (the output names
    /// them: pulled by the startup files' reference to `main`, by `-u`,
    /// `--whole-archive`, a linker script): linked whole into the module
    /// too; the native builds take them from their archive.
    pub from_libraries: Vec<String>,
    /// The object whose code defines `main` (an executable's module).
    pub main_from: Option<String>,
    /// Functions the module defines.
    pub module_functions: Option<u64>,
    /// Functions the linked file defines (`nm`) that the project's files
    /// define (the rest come from the system: startup files, libgcc).
    pub native_functions: Option<u64>,
    /// Of those, the ones the module lacks, each with the file defining it.
    pub missing_functions: Vec<super::completeness::MissingFunction>,
    /// The module defines every function of the project the linked file
    /// has (None: the file is gone, or could not be compared).
    pub complete: Option<bool>,
    /// Why no target can name the output: not there when the build ends
    /// (deleted, replaced, not executable), or an empty archive. None: it
    /// is there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gone: Option<String>,
    /// The GNU build-id of an executable or shared library.
    pub build_id: Option<String>,
}

impl Output {
    /// An output of `kind` at `output` of which nothing is known yet.
    pub fn new(output: String, kind: &'static str) -> Output {
        Output {
            output,
            kind,
            bitcode: None,
            inputs: Vec::new(),
            sources: Vec::new(),
            external_libraries: Vec::new(),
            missing_bitcode: Vec::new(),
            undefined_from_missing: Vec::new(),
            objects: Vec::new(),
            carried: Vec::new(),
            from_libraries: Vec::new(),
            main_from: None,
            module_functions: None,
            native_functions: None,
            missing_functions: Vec::new(),
            complete: None,
            gone: None,
            build_id: None,
        }
    }
}

/// A link that is not an output of the build, and why.
#[derive(Debug, Clone, Serialize)]
pub struct LeftOut {
    pub output: String,
    pub why: String,
}

/// The manifest (`manifest.json`).
#[derive(Debug, Serialize)]
pub struct Manifest {
    pub version: u32,
    /// The build root (absolute).
    pub root: String,
    /// The build command.
    pub build: Vec<String>,
    /// Records this build added (compiles, archives, links); the rest come
    /// from the previous capture (`append`).
    pub recorded_now: usize,
    /// Outputs whose module an earlier capture linked from the same bytes
    /// (taken from it, not linked again: [`super::linkcache`]).
    pub links_reused: usize,
    pub outputs: Vec<Output>,
    /// Links that are not outputs: probes (`-o /dev/null`), files made
    /// outside the build root.
    pub left_out: Vec<LeftOut>,
    /// One entry per translation unit: source, object, bitcode, flags.
    pub compiles: Vec<CompileEntry>,
    /// Each flag the bitcode compiles dropped (clang-19 does not take it),
    /// with the number of compiles it was dropped from.
    pub dropped_flags: BTreeMap<String, usize>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct CompileEntry {
    pub source: String,
    pub object: String,
    pub bitcode: Option<String>,
    pub directory: String,
    pub arguments: Vec<String>,
    /// The arguments that matter for translating the source (`-D`, `-I`,
    /// `-std=`, ...), as the bitcode compile used them (what the native
    /// builds compile with).
    pub flags: Vec<String>,
    /// The build's flags clang-19 did not take, left out of `flags`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped_flags: Vec<String>,
    /// Flags added to `flags` so clang-19 compiles what GCC accepts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added_flags: Vec<String>,
    /// The default symbol versions the object defines (the native builds
    /// link them in, see [`super::symver`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<super::symver::DefaultVersion>,
}

/// `compile_commands.json` entry, the format clang tools read.
#[derive(Serialize)]
struct CompileCommand {
    directory: String,
    arguments: Vec<String>,
    file: String,
    output: String,
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned()
}

/// Links `inputs` into `out` with llvm-link-19; `libraries` follow with
/// `--only-needed` (each a whole archive's module, in link order). A link of
/// the same bytes an earlier capture made is taken from `cache`.
pub(super) fn llvm_link(
    objects: &[PathBuf],
    libraries: &[PathBuf],
    out: &Path,
    cache: &LinkCache,
) -> Result<(), String> {
    let key = cache.key(objects, libraries);
    if let Some(k) = &key {
        if cache.restore(k, out) {
            return Ok(());
        }
    }
    link_now(objects, libraries, out)?;
    if let Some(k) = &key {
        cache.keep(k, out);
    }
    Ok(())
}

fn link_now(objects: &[PathBuf], libraries: &[PathBuf], out: &Path) -> Result<(), String> {
    let run = |cmd: &mut Command| -> Result<(), String> {
        let o = cmd
            .output()
            .map_err(|e| format!("cannot run llvm-link-19: {e}"))?;
        if o.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&o.stderr)
                .lines()
                .take(4)
                .collect::<Vec<_>>()
                .join("; "))
        }
    };
    if libraries.is_empty() {
        return run(Command::new("llvm-link-19")
            .args(objects)
            .arg("-o")
            .arg(out));
    }
    let objs = out.with_extension("objects.bc");
    run(Command::new("llvm-link-19")
        .args(objects)
        .arg("-o")
        .arg(&objs))?;
    let r = run(Command::new("llvm-link-19")
        .arg(&objs)
        .arg("--only-needed")
        .args(libraries)
        .arg("-o")
        .arg(out));
    let _ = std::fs::remove_file(&objs);
    r
}

/// Names defined by a native object (`nm --defined-only`).
pub(super) fn defined_symbols(object: &Path) -> BTreeSet<String> {
    symbol_names("nm", "--defined-only", object)
}

/// Names a bitcode module declares but does not define.
pub(super) fn undefined_symbols(bc: &Path) -> BTreeSet<String> {
    symbol_names("llvm-nm-19", "--undefined-only", bc)
}

/// The names `nm` (or `llvm-nm`) lists for `file` with `filter`, in its
/// portable format; none when it cannot run.
fn symbol_names(nm: &str, filter: &str, file: &Path) -> BTreeSet<String> {
    let Ok(o) = Command::new(nm).args([filter, "-P"]).arg(file).output() else {
        return BTreeSet::new();
    };
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// The compiles of a capture, as the manifest and `compile_commands.json`
/// list them.
#[derive(Default)]
struct Compiles {
    entries: Vec<CompileEntry>,
    commands: Vec<CompileCommand>,
    /// Each flag dropped from the bitcode compiles, with how many compiles
    /// dropped it.
    dropped_flags: BTreeMap<String, usize>,
    /// (object, why) of the objects that do not name their bitcode.
    uncarried: Vec<(String, String)>,
}

impl Compiles {
    /// Adds compile record `r` (but a probe's, made outside the build
    /// `root`), with a warning when it made no bitcode.
    fn add(&mut self, root: &Path, r: &Record, warnings: &mut Vec<String>) {
        let Record::Compile {
            cwd,
            compiler,
            source,
            object,
            bitcode,
            arguments,
            error,
            dropped,
            added,
            carry_error,
            versions,
        } = r
        else {
            return;
        };
        // The objects of a compile-and-link made outside the build root
        // (a probe under a temporary name) are not the project's.
        if object.to_string_lossy().contains('#') && !object.starts_with(root) {
            return;
        }
        if let Some(e) = carry_error {
            self.uncarried.push((rel(root, object), e.clone()));
        }
        for d in dropped {
            *self.dropped_flags.entry(d.clone()).or_insert(0) += 1;
        }
        let mut flags = super::wrapper::translation_flags(arguments);
        for d in dropped {
            if let Some(i) = flags.iter().position(|f| f == d) {
                flags.remove(i);
            }
        }
        flags.extend(added.iter().cloned());
        if let Some(e) = error {
            warnings.push(format!(
                "{}: no bitcode (clang-19 failed: {})",
                rel(root, source),
                e.lines().next().unwrap_or("")
            ));
        }
        self.entries.push(CompileEntry {
            source: rel(root, source),
            object: rel(root, object),
            bitcode: bitcode.as_ref().map(|b| {
                format!(
                    "objects/{}",
                    b.file_name().unwrap_or_default().to_string_lossy()
                )
            }),
            directory: cwd.to_string_lossy().into_owned(),
            arguments: arguments.clone(),
            flags,
            dropped_flags: dropped.clone(),
            added_flags: added.clone(),
            versions: versions.clone(),
        });
        self.commands.push(CompileCommand {
            directory: cwd.to_string_lossy().into_owned(),
            arguments: std::iter::once(compiler.clone())
                .chain(arguments.iter().cloned())
                .collect(),
            file: source.to_string_lossy().into_owned(),
            output: object.to_string_lossy().into_owned(),
        });
    }

    /// The warnings about all the compiles: objects that do not name their
    /// bitcode, flags dropped.
    fn warn(&self, warnings: &mut Vec<String>) {
        if let Some((first, why)) = self.uncarried.first() {
            warnings.push(format!(
                "{} object(s) do not name their bitcode ({first}: {why}): copies of them \
                 (objcopy, strip, cp) are not recognised",
                self.uncarried.len()
            ));
        }
        if !self.dropped_flags.is_empty() {
            warnings.push(format!(
                "flags dropped from the bitcode compiles (clang-19 does not take them, they \
                 name a system include directory, which musl's headers must come before, or \
                 they ask for OpenMP, whose code runs serially; the build's own compiles keep \
                 them): {}",
                self.dropped_flags
                    .iter()
                    .map(|(f, n)| format!("{f} ({n} compile{})", if *n == 1 { "" } else { "s" }))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
}

/// Builds the capture directory's contents in `dest` (which exists).
pub fn assemble(
    root: &Path,
    build: &[String],
    records: Vec<Record>,
    dest: &Path,
) -> Result<Manifest> {
    let logged = super::parts::index(records, &dest.join("objects"));
    let cache = LinkCache::new(dest);
    let (outputs, left_out, mut warnings) = super::outputs::build(root, &logged, dest, &cache)?;
    cache.finish();
    let mut c = Compiles::default();
    for r in logged.compiles.values() {
        c.add(root, r, &mut warnings);
    }
    c.warn(&mut warnings);
    let Compiles {
        entries: compiles,
        commands,
        dropped_flags,
        ..
    } = c;
    for (object, source) in &logged.foreign {
        warnings.push(format!(
            "{}: not C (assembly or C++), no bitcode for {}",
            rel(root, source),
            rel(root, object)
        ));
    }
    std::fs::write(
        dest.join("compile_commands.json"),
        serde_json::to_string_pretty(&commands)?,
    )
    .context("writing compile_commands.json")?;
    let manifest = Manifest {
        version: 1,
        root: root.to_string_lossy().into_owned(),
        build: build.to_vec(),
        recorded_now: 0,
        links_reused: cache.reused(),
        outputs,
        left_out,
        compiles,
        dropped_flags,
        warnings,
    };
    write_manifest(dest, &manifest)?;
    Ok(manifest)
}

/// Writes `manifest.json` into the capture directory `dest`.
pub fn write_manifest(dest: &Path, manifest: &Manifest) -> Result<()> {
    std::fs::write(
        dest.join("manifest.json"),
        serde_json::to_string_pretty(manifest)?,
    )
    .context("writing manifest.json")
}
