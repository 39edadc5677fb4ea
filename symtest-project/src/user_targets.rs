//! Which outputs of a captured build `cargo symtest init --from-build` lists:
//! the programs the project builds for its users and its static libraries
//! (for harnesses), not the programs the build runs itself (generators),
//! probes, or files that are not files.
//!
//! Two rules, the first that applies:
//! - **What the project installs.** For a build with an install step (`make
//!   install` whose dry run honours `DESTDIR`, `cmake --install`, `ninja
//!   install`, `meson install --destdir`), the install runs into a temporary
//!   `DESTDIR`; the programs are
//!   the installed files that are (copies of) executables the build linked,
//!   each named as installed (a program installed under several names is a
//!   multi-call program: the names are its tools); the libraries, the
//!   installed static libraries.
//! - **What the build left untouched.** Without one, a program is an
//!   executable the build linked (or a copy of it in the tree: a stripped or
//!   renamed one, a libtool wrapper script) that nothing has opened since it
//!   was written: a generator the build ran, or the input of `strip`/`cp`,
//!   was opened (its access time is later than its modification time; capture
//!   itself reads without touching it, and the times are read before
//!   symtest's own install attempt, which may run a program and fail).
//!   Every static library is listed.
//!
//! What is left out is named with the reason.

use crate::capture::assemble::{Manifest, Output};
use crate::capture::identity;
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A program to test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The target's name: the file's name as installed (or in the tree).
    pub name: String,
    /// What `binary` names, relative to the root.
    pub binary: String,
    /// The other names it is installed under (a multi-call program's tools).
    pub also: Vec<String>,
}

/// A static (or, without one, shared) library to test through a harness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Library {
    pub name: String,
    /// What `library` names, relative to the root.
    pub path: String,
    /// The headers the install step installed, as the tree has them
    /// (relative to the root): the library's public interface (empty when
    /// nothing was installed).
    pub headers: Vec<String>,
}

/// How the programs were chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// What the install command installed.
    Installed { command: String },
    /// What the build left untouched (no install step: why).
    Untouched { why: String },
}

/// What `init --from-build` lists, and what it leaves out.
#[derive(Debug, Clone)]
pub struct Selection {
    pub rule: Rule,
    pub programs: Vec<Program>,
    pub libraries: Vec<Library>,
    /// (output, why it is not listed).
    pub left_out: Vec<(String, String)>,
}

/// How to install the build into `destdir`: the command, its environment,
/// and a dry run whose output must name `destdir` (proof that the install
/// honours `DESTDIR` and writes nowhere else).
struct Install {
    command: Vec<String>,
    env: Vec<(String, String)>,
    dry_run: Option<Vec<String>>,
}

fn program_name(w: &str) -> &str {
    w.rsplit('/').next().unwrap_or(w)
}

/// How to install what `build` (run in `root`) made into `destdir`, when
/// symtest knows how: make's `install` target, `cmake --install`, `meson
/// install` or ninja's `install` target, or the install of a script's last
/// build command.
fn install_for(root: &Path, build: &[String], destdir: &Path) -> Option<Install> {
    let dest = destdir.display().to_string();
    let (prog, args) = build.split_first()?;
    match program_name(prog) {
        "make" | "gmake" => Some(make_install(prog, args, &dest)),
        "cmake" if args.first().is_some_and(|a| a == "--build") => {
            let dir = args.get(1)?;
            root.join(dir)
                .join("cmake_install.cmake")
                .is_file()
                .then(|| Install {
                    command: vec![prog.clone(), "--install".into(), dir.clone()],
                    env: vec![("DESTDIR".into(), dest.clone())],
                    dry_run: None,
                })
        }
        "ninja" => Some(ninja_install(root, prog, args, &dest)),
        // A script (`sh -c "cmake -S . -B b && cmake --build b"`): its last
        // command, from the directory it ran in.
        "sh" | "bash" | "dash" if args.first().is_some_and(|a| a == "-c") => {
            let inner = script_build(args.get(1)?)?;
            install_for(root, &inner, destdir)
        }
        // Anything else: the Makefile it left.
        _ => ["Makefile", "makefile", "GNUmakefile"]
            .iter()
            .any(|m| root.join(m).is_file())
            .then(|| make_install("make", &[], &dest)),
    }
}

/// `make install` into `dest` with where the build ran `make` (its `args`:
/// -C, -f), nothing else, and its dry run.
fn make_install(make: &str, args: &[String], dest: &str) -> Install {
    let mut keep = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "-C" || a == "-f" || a == "--file" || a == "--directory" {
            keep.push(a.clone());
            keep.extend(args.get(i + 1).cloned());
            i += 2;
            continue;
        }
        if (a.starts_with("-C") || a.starts_with("-f") && a.len() > 2)
            || a.starts_with("--directory=")
            || a.starts_with("--file=")
            || a.starts_with("--makefile=")
        {
            keep.push(a.clone());
        }
        i += 1;
    }
    let mut command = vec![make.to_string()];
    command.extend(keep);
    let mut dry = command.clone();
    dry.push("-n".into());
    for c in [&mut command, &mut dry] {
        c.push("install".into());
        c.push(format!("DESTDIR={dest}"));
    }
    Install {
        command,
        env: Vec::new(),
        dry_run: Some(dry),
    }
}

/// The install of a ninja build (`prog args`, run in `root`) into `dest`:
/// `meson install --destdir` for a Meson build (ninja's dry run of
/// `install` only names `meson install`, never DESTDIR), else ninja's
/// `install` target with its dry run.
fn ninja_install(root: &Path, prog: &str, args: &[String], dest: &str) -> Install {
    let dir = args
        .iter()
        .position(|a| a == "-C")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let build_dir = root.join(dir.as_deref().unwrap_or("."));
    if build_dir.join("meson-private").is_dir() {
        return Install {
            command: vec![
                "meson".into(),
                "install".into(),
                "-C".into(),
                build_dir.display().to_string(),
                "--no-rebuild".into(),
                "--quiet".into(),
                "--destdir".into(),
                dest.to_string(),
            ],
            env: Vec::new(),
            dry_run: None,
        };
    }
    let mut command = vec![prog.to_string()];
    if let Some(d) = &dir {
        command.extend(["-C".to_string(), d.clone()]);
    }
    let mut dry = command.clone();
    dry.push("-n".into());
    command.push("install".into());
    dry.push("install".into());
    Install {
        command,
        env: vec![("DESTDIR".into(), dest.to_string())],
        dry_run: Some(dry),
    }
}

/// The build command of a shell `script`: its last command (make, cmake
/// or ninja), run from the directory it changed to.
fn script_build(script: &str) -> Option<Vec<String>> {
    let mut dir: Option<String> = None;
    let mut last: Vec<String> = Vec::new();
    for cmd in script.split(['\n', ';']).flat_map(|c| c.split("&&")) {
        let words: Vec<String> = cmd
            .split_whitespace()
            .map(|w| w.trim_matches(['\'', '"']).to_string())
            .collect();
        match words.as_slice() {
            [] => {}
            [cd, d] if cd == "cd" => dir = Some(d.clone()),
            _ => last = words,
        }
    }
    let (prog, rest) = last.split_first()?;
    Some(match program_name(prog) {
        "make" | "gmake" => {
            let mut w = vec![prog.clone()];
            if let Some(d) = &dir {
                w.extend(["-C".to_string(), d.clone()]);
            }
            w.extend(rest.iter().cloned());
            w
        }
        "cmake" | "ninja" if dir.is_none() => last.clone(),
        _ => return None,
    })
}

/// Runs the install step into a fresh temporary directory; that directory,
/// or why there is none.
fn install(root: &Path, build: &[String]) -> Result<(PathBuf, String), String> {
    let dest = std::env::temp_dir().join(format!("symtest-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dest);
    std::fs::create_dir_all(&dest).map_err(|e| format!("creating {}: {e}", dest.display()))?;
    let Some(i) = install_for(root, build, &dest) else {
        let _ = std::fs::remove_dir_all(&dest);
        return Err("the build has no install step symtest knows how to run".into());
    };
    let shown = i
        .command
        .join(" ")
        .replace(&dest.display().to_string(), "<tmp>");
    let run = |words: &[String]| {
        Command::new(&words[0])
            .args(&words[1..])
            .envs(i.env.iter().map(|(k, v)| (k, v)))
            .current_dir(root)
            .stdin(std::process::Stdio::null())
            .output()
    };
    if let Some(dry) = &i.dry_run {
        match run(dry) {
            Ok(o) if o.status.success() => {
                let text = String::from_utf8_lossy(&o.stdout);
                if !text.contains(&dest.display().to_string()) {
                    let _ = std::fs::remove_dir_all(&dest);
                    return Err(format!(
                        "`{shown}` does not install into DESTDIR (its dry run never names it), \
                         so it was not run"
                    ));
                }
            }
            _ => {
                let _ = std::fs::remove_dir_all(&dest);
                return Err(format!("`{shown}` has nothing to run (no install target)"));
            }
        }
    }
    match run(&i.command) {
        Ok(o) if o.status.success() => Ok((dest, shown)),
        Ok(o) => {
            let _ = std::fs::remove_dir_all(&dest);
            Err(format!(
                "`{shown}` failed: {}",
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            ))
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&dest);
            Err(format!("cannot run `{shown}`: {e}"))
        }
    }
}

/// Every file under `dir` (symbolic links as the file they name, inside
/// `dir` when absolute): (path, file it is).
fn installed_files(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).into_iter().flatten() {
        let p = e.path().to_path_buf();
        let file = if e.path_is_symlink() {
            match std::fs::read_link(&p) {
                Ok(t) if t.is_absolute() => dir.join(t.strip_prefix("/").unwrap_or(&t)),
                Ok(t) => p.parent().unwrap_or(dir).join(t),
                Err(_) => continue,
            }
        } else {
            p.clone()
        };
        if std::fs::metadata(&file).is_ok_and(|m| m.is_file()) {
            out.push((p, file));
        }
    }
    out.sort();
    out
}

/// The installed C headers (`.h`), each as the file of the tree with its
/// name and its content (relative to the root), in order.
fn installed_headers(root: &Path, files: &[(PathBuf, PathBuf)]) -> Vec<String> {
    let wanted: Vec<(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "h"))
        .filter_map(|(p, f)| Some((name_of(p), std::fs::read(f).ok()?)))
        .collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<String> = Vec::new();
    let walk = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.') || e.depth() == 0)
        .flatten();
    for e in walk {
        if !e.file_type().is_file() {
            continue;
        }
        let name = name_of(e.path());
        if !wanted.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let Ok(bytes) = std::fs::read(e.path()) else {
            continue;
        };
        if wanted.iter().any(|(n, b)| *n == name && *b == bytes) {
            let rel = e.path().strip_prefix(root).unwrap_or(e.path());
            let rel = rel.to_string_lossy().into_owned();
            if !found.iter().any(|f| name_of(Path::new(f)) == name) {
                found.push(rel);
            }
        }
    }
    found.sort();
    found
}

fn name_of(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Whether a file was opened after it was last written (run, or read by
/// `strip`, `cp`...).
fn accessed_since_written(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| (m.atime(), m.atime_nsec()) > (m.mtime(), m.mtime_nsec()))
}

/// Files in the tree that are (copies of, wrapper scripts of) outputs: the
/// executables with the exec bit that are not outputs themselves.
fn copies_in_tree<'m>(
    root: &Path,
    execs: &[&'m Output],
    capture_dir: &Path,
) -> Vec<(PathBuf, &'m Output)> {
    let outputs: Vec<PathBuf> = execs.iter().map(|o| root.join(&o.output)).collect();
    let mut out = Vec::new();
    let walk = walkdir::WalkDir::new(root).into_iter().filter_entry(|e| {
        let n = e.file_name().to_string_lossy();
        !(e.file_type().is_dir() && (n == ".git" || n == "symtest-out" || e.path() == capture_dir))
    });
    for e in walk.flatten() {
        let p = e.path();
        let Ok(m) = std::fs::symlink_metadata(p) else {
            continue;
        };
        if !m.is_file() || m.mode() & 0o111 == 0 || outputs.iter().any(|o| o == p) {
            continue;
        }
        let Some(magic) = crate::capture::elf::head(p, 4) else {
            continue;
        };
        if !magic.starts_with(b"\x7fELF") && !magic.starts_with(b"#!") {
            continue;
        }
        if let [o] = identity::find(root, execs, p, "executable").as_slice() {
            out.push((p.to_path_buf(), *o));
        }
    }
    out
}

/// Chooses the programs and libraries of a captured build.
pub fn select(root: &Path, m: &Manifest, build: &[String], capture_dir: &Path) -> Selection {
    let of = |kind: &str| -> Vec<&Output> {
        m.outputs
            .iter()
            .filter(|o| o.kind == kind && o.bitcode.is_some() && o.gone.is_none())
            .collect()
    };
    let c = Candidates {
        execs: of("executable")
            .into_iter()
            .filter(|o| o.main_from.is_some())
            .collect(),
        statics: of("static-library"),
        shared: of("shared-library"),
    };
    let mut sel = Selection {
        rule: Rule::Untouched { why: String::new() },
        programs: Vec::new(),
        libraries: Vec::new(),
        left_out: not_listable(m),
    };
    // The second rule's evidence, read before the install attempt below
    // touches the tree: a `make install` that fails may still have run or
    // read the programs (a recipe running `./prog --version`), and what it
    // did is no evidence of what the build ran.
    let untouched = untouched_copies(root, &c.execs, capture_dir);
    sel.rule = match install(root, build) {
        Ok((dest, command)) => {
            by_install(root, &c, &dest, &mut sel);
            Rule::Installed { command }
        }
        Err(why) => {
            by_untouched(root, &c, untouched, &mut sel);
            Rule::Untouched { why }
        }
    };
    sel
}

/// The outputs with bitcode a selection chooses from.
struct Candidates<'m> {
    /// The executables whose module has a `main`.
    execs: Vec<&'m Output>,
    statics: Vec<&'m Output>,
    shared: Vec<&'m Output>,
}

/// The outputs that cannot be listed (removed or replaced by the build,
/// without bitcode, executables without `main`) and those the capture left
/// out, with why.
fn not_listable(m: &Manifest) -> Vec<(String, String)> {
    let mut left_out: Vec<(String, String)> = Vec::new();
    for o in &m.outputs {
        if let Some(why) = &o.gone {
            left_out.push((o.output.clone(), why.clone()));
        } else if o.bitcode.is_none() {
            left_out.push((
                o.output.clone(),
                "no bitcode (see the capture's warnings)".into(),
            ));
        } else if o.kind == "executable" && o.main_from.is_none() {
            left_out.push((
                o.output.clone(),
                "its module has no `main` (see the capture's warnings)".into(),
            ));
        }
    }
    for l in &m.left_out {
        left_out.push((l.output.clone(), l.why.clone()));
    }
    left_out
}

/// Each executable with the first of its copies in the tree (then itself)
/// that nothing accessed since it was written, if any.
fn untouched_copies<'m>(
    root: &Path,
    execs: &[&'m Output],
    capture_dir: &Path,
) -> Vec<(&'m Output, Option<PathBuf>)> {
    let copies = copies_in_tree(root, execs, capture_dir);
    execs
        .iter()
        .map(|o| {
            let mut candidates: Vec<PathBuf> = copies
                .iter()
                .filter(|(_, c)| std::ptr::eq(*c, *o))
                .map(|(p, _)| p.clone())
                .collect();
            candidates.push(root.join(&o.output));
            (
                *o,
                candidates.into_iter().find(|p| !accessed_since_written(p)),
            )
        })
        .collect()
}

/// The first rule: the programs and libraries the install step installed
/// into `dest` (then removed), named as installed; the others left out.
fn by_install(root: &Path, c: &Candidates, dest: &Path, sel: &mut Selection) {
    let files = installed_files(dest);
    // Installed names of each output, in order.
    let mut names: BTreeMap<&str, Vec<(bool, String)>> = BTreeMap::new();
    let mut libs: BTreeMap<&str, String> = BTreeMap::new();
    for (path, file) in &files {
        if let [o] = identity::find(root, &c.execs, file, "executable").as_slice() {
            names
                .entry(o.output.as_str())
                .or_default()
                .push((path != file, name_of(path)));
        } else if let Some(o) = identity::find(root, &c.statics, file, "static-library")
            .first()
            .or(identity::find(root, &c.shared, file, "shared-library").first())
        {
            libs.entry(o.output.as_str())
                .or_insert_with(|| name_of(path));
        }
    }
    let headers = installed_headers(root, &files);
    let _ = std::fs::remove_dir_all(dest);
    for o in &c.execs {
        match names.get(o.output.as_str()) {
            Some(n) => {
                // Named as installed: the file itself first, then the
                // links to it (a multi-call program's tools).
                let mut n = n.clone();
                n.sort();
                let mut n: Vec<String> = n.into_iter().map(|(_, name)| name).collect();
                n.dedup();
                sel.programs.push(Program {
                    name: n[0].clone(),
                    binary: o.output.clone(),
                    also: n[1..].to_vec(),
                });
            }
            None => sel.left_out.push((
                o.output.clone(),
                "built but not installed (a build-time helper, a test or an example)".into(),
            )),
        }
    }
    for o in c.statics.iter().chain(&c.shared) {
        match libs.get(o.output.as_str()) {
            Some(n) => sel.libraries.push(Library {
                name: n.clone(),
                path: o.output.clone(),
                headers: headers.clone(),
            }),
            None if o.kind == "static-library" => sel.left_out.push((
                o.output.clone(),
                "a static library that is not installed (the build's own)".into(),
            )),
            None => {}
        }
    }
    // Shared libraries only where no static one is installed.
    if sel
        .libraries
        .iter()
        .any(|l| c.statics.iter().any(|o| o.output == l.path))
    {
        sel.libraries
            .retain(|l| c.statics.iter().any(|o| o.output == l.path));
    }
}

/// The second rule (no install step): the executables the build left
/// untouched after linking them, and the static libraries (else the shared
/// ones).
fn by_untouched(
    root: &Path,
    c: &Candidates,
    untouched: Vec<(&Output, Option<PathBuf>)>,
    sel: &mut Selection,
) {
    for (o, untouched) in untouched {
        match untouched {
            Some(p) => sel.programs.push(Program {
                name: name_of(&p),
                binary: p
                    .strip_prefix(root)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned(),
                also: Vec::new(),
            }),
            None => sel.left_out.push((
                o.output.clone(),
                "run or read by the build after it was linked (a build-time helper, \
                 or what strip or cp made the program from)"
                    .into(),
            )),
        }
    }
    let libs = if c.statics.is_empty() {
        &c.shared
    } else {
        &c.statics
    };
    for o in libs {
        sel.libraries.push(Library {
            name: name_of(Path::new(&o.output)),
            path: o.output.clone(),
            headers: Vec::new(),
        });
    }
}
