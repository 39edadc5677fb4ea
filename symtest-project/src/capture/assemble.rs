//! After the build: whole-program bitcode per executable and static library,
//! `compile_commands.json` and the manifest, from the capture log.

use super::log::{is_probe, normalize, Record};
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
    pub outputs: Vec<Output>,
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

struct Logged {
    compiles: BTreeMap<PathBuf, Record>,
    foreign: BTreeMap<PathBuf, PathBuf>,
    archives: BTreeMap<PathBuf, Vec<PathBuf>>,
    links: BTreeMap<PathBuf, Record>,
}

fn index(records: Vec<Record>) -> Logged {
    let mut l = Logged {
        compiles: BTreeMap::new(),
        foreign: BTreeMap::new(),
        archives: BTreeMap::new(),
        links: BTreeMap::new(),
    };
    for r in records {
        let probe = match &r {
            Record::Compile { object, .. } | Record::Foreign { object, .. } => is_probe(object),
            Record::Archive { archive, .. } => is_probe(archive),
            // rustc links through `cc` too (build scripts, tests, binaries of
            // a cargo build): not C outputs.
            Record::Link { output, inputs, .. } => is_probe(output) || is_rust_link(inputs),
        };
        if probe {
            continue;
        }
        match &r {
            Record::Compile { object, .. } => {
                l.foreign.remove(object);
                l.compiles.insert(object.clone(), r);
            }
            Record::Foreign { source, object } => {
                l.compiles.remove(object);
                l.foreign.insert(object.clone(), source.clone());
            }
            Record::Archive { archive, members } => {
                let list = l.archives.entry(archive.clone()).or_default();
                for m in members {
                    // `ar r` replaces a member of the same name.
                    list.retain(|x| x.file_name() != m.file_name());
                    list.push(m.clone());
                }
            }
            Record::Link { output, .. } => {
                l.links.insert(output.clone(), r);
            }
        }
    }
    l
}

/// Whether a link's inputs are rustc's (`.rlib`, codegen units `*.rcgu.o`).
fn is_rust_link(inputs: &[String]) -> bool {
    inputs
        .iter()
        .any(|i| i.ends_with(".rlib") || i.ends_with(".rcgu.o"))
}

/// Links `inputs` into `out` with llvm-link-19; `libraries` follow with
/// `--only-needed` (each a whole archive's module, in link order).
fn llvm_link(objects: &[PathBuf], libraries: &[PathBuf], out: &Path) -> Result<(), String> {
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
fn defined_symbols(object: &Path) -> BTreeSet<String> {
    let Ok(o) = Command::new("nm")
        .args(["--defined-only", "-P"])
        .arg(object)
        .output()
    else {
        return BTreeSet::new();
    };
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Names a bitcode module declares but does not define.
fn undefined_symbols(bc: &Path) -> BTreeSet<String> {
    let Ok(o) = Command::new("llvm-nm-19")
        .args(["--undefined-only", "-P"])
        .arg(bc)
        .output()
    else {
        return BTreeSet::new();
    };
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Builds the capture directory's contents in `dest` (which exists).
pub fn assemble(
    root: &Path,
    build: &[String],
    records: Vec<Record>,
    dest: &Path,
) -> Result<Manifest> {
    let logged = index(records);
    let mut warnings = Vec::new();
    let mut outputs = Vec::new();
    let bitcode_of = |object: &Path| -> Option<PathBuf> {
        match logged.compiles.get(object) {
            Some(Record::Compile { bitcode, .. }) => bitcode.clone(),
            _ => None,
        }
    };
    let source_of = |object: &Path| -> Option<String> {
        match logged.compiles.get(object) {
            Some(Record::Compile { source, .. }) => Some(rel(root, source)),
            _ => logged.foreign.get(object).map(|s| rel(root, s)),
        }
    };
    let dest_for = |output: &Path| -> Option<PathBuf> {
        let r = output.strip_prefix(root).ok()?;
        let mut name = r.as_os_str().to_os_string();
        name.push(".bc");
        Some(dest.join(name))
    };
    // Static libraries: every member with bitcode, in one module.
    let mut library_bc: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    for (archive, members) in &logged.archives {
        let (have, missing): (Vec<&PathBuf>, Vec<&PathBuf>) =
            members.iter().partition(|m| bitcode_of(m).is_some());
        let bcs: Vec<PathBuf> = have.iter().filter_map(|m| bitcode_of(m)).collect();
        let mut out = Output {
            output: rel(root, archive),
            kind: "static-library",
            bitcode: None,
            inputs: members.iter().map(|m| rel(root, m)).collect(),
            sources: have.iter().filter_map(|m| source_of(m)).collect(),
            external_libraries: Vec::new(),
            missing_bitcode: missing.iter().map(|m| rel(root, m)).collect(),
            undefined_from_missing: Vec::new(),
        };
        match dest_for(archive) {
            Some(target) if !bcs.is_empty() => {
                std::fs::create_dir_all(target.parent().expect("has a parent"))?;
                match llvm_link(&bcs, &[], &target) {
                    Ok(()) => {
                        out.bitcode = Some(rel(dest, &target));
                        library_bc.insert(archive.clone(), target);
                    }
                    Err(e) => warnings.push(format!("{}: llvm-link failed: {e}", out.output)),
                }
            }
            Some(_) => warnings.push(format!("{}: no member has bitcode", out.output)),
            None => warnings.push(format!("{}: outside the build root, skipped", out.output)),
        }
        outputs.push(out);
    }
    // Executables and shared libraries.
    for (output, link) in &logged.links {
        let Record::Link {
            cwd,
            inputs,
            shared,
            ..
        } = link
        else {
            continue;
        };
        let mut search: Vec<PathBuf> = vec![cwd.clone()];
        let mut objects = Vec::new();
        let mut libraries = Vec::new();
        let mut out = Output {
            output: rel(root, output),
            kind: if *shared {
                "shared-library"
            } else {
                "executable"
            },
            bitcode: None,
            inputs: Vec::new(),
            sources: Vec::new(),
            external_libraries: Vec::new(),
            missing_bitcode: Vec::new(),
            undefined_from_missing: Vec::new(),
        };
        let mut missing_objects = Vec::new();
        let mut i = 0;
        while i < inputs.len() {
            let a = &inputs[i];
            i += 1;
            let value = |flag: &str| -> Option<String> {
                if a == flag {
                    inputs.get(i).cloned()
                } else {
                    a.strip_prefix(flag).map(str::to_string)
                }
            };
            if let Some(dir) = value("-L") {
                if a == "-L" {
                    i += 1;
                }
                search.push(normalize(cwd, Path::new(&dir)));
                continue;
            }
            if let Some(lib) = value("-l") {
                if a == "-l" {
                    i += 1;
                }
                let file = format!("lib{lib}.a");
                match search
                    .iter()
                    .map(|d| d.join(&file))
                    .find(|p| logged.archives.contains_key(p))
                {
                    Some(p) => {
                        out.inputs.push(rel(root, &p));
                        if let Some(bc) = library_bc.get(&p) {
                            libraries.push(bc.clone());
                        }
                    }
                    None => out.external_libraries.push(format!("-l{lib}")),
                }
                continue;
            }
            let p = normalize(cwd, Path::new(a));
            if logged.archives.contains_key(&p) {
                out.inputs.push(rel(root, &p));
                if let Some(bc) = library_bc.get(&p) {
                    libraries.push(bc.clone());
                }
            } else if a.ends_with(".a") || a.contains(".so") {
                out.external_libraries.push(a.clone());
            } else {
                out.inputs.push(rel(root, &p));
                match bitcode_of(&p) {
                    Some(bc) => {
                        objects.push(bc);
                        out.sources.extend(source_of(&p));
                    }
                    None => {
                        out.missing_bitcode.push(rel(root, &p));
                        missing_objects.push(p);
                    }
                }
            }
        }
        match dest_for(output) {
            Some(target) if !objects.is_empty() => {
                std::fs::create_dir_all(target.parent().expect("has a parent"))?;
                match llvm_link(&objects, &libraries, &target) {
                    Ok(()) => {
                        out.bitcode = Some(rel(dest, &target));
                        if !missing_objects.is_empty() {
                            let undefined = undefined_symbols(&target);
                            let mut left: BTreeSet<String> = BTreeSet::new();
                            for m in &missing_objects {
                                left.extend(defined_symbols(m).intersection(&undefined).cloned());
                            }
                            out.undefined_from_missing = left.into_iter().collect();
                        }
                    }
                    Err(e) => warnings.push(format!("{}: llvm-link failed: {e}", out.output)),
                }
            }
            Some(_) => warnings.push(format!("{}: no input has bitcode", out.output)),
            None => warnings.push(format!("{}: outside the build root, skipped", out.output)),
        }
        if !out.missing_bitcode.is_empty() {
            warnings.push(format!(
                "{}: no bitcode for {} (assembly, C++ or a failed compile); {}",
                out.output,
                out.missing_bitcode.join(", "),
                if out.undefined_from_missing.is_empty() {
                    "the module does not call into them".to_string()
                } else {
                    format!(
                        "the module calls {} which they define (undefined in the bitcode)",
                        out.undefined_from_missing.join(", ")
                    )
                }
            ));
        }
        outputs.push(out);
    }
    let mut compiles = Vec::new();
    let mut commands = Vec::new();
    let mut dropped_flags: BTreeMap<String, usize> = BTreeMap::new();
    for r in logged.compiles.values() {
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
        } = r
        else {
            continue;
        };
        for d in dropped {
            *dropped_flags.entry(d.clone()).or_insert(0) += 1;
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
        compiles.push(CompileEntry {
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
        });
        commands.push(CompileCommand {
            directory: cwd.to_string_lossy().into_owned(),
            arguments: std::iter::once(compiler.clone())
                .chain(arguments.iter().cloned())
                .collect(),
            file: source.to_string_lossy().into_owned(),
            output: object.to_string_lossy().into_owned(),
        });
    }
    if !dropped_flags.is_empty() {
        warnings.push(format!(
            "flags clang-19 does not take, dropped from the bitcode compiles (the build's own \
             compiles keep them): {}",
            dropped_flags
                .iter()
                .map(|(f, n)| format!("{f} ({n} compile{})", if *n == 1 { "" } else { "s" }))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
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
        outputs,
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
