//! Is a module what the linker linked? The functions the output file defines
//! (its symbol table, `nm`) against the functions its module defines
//! (`llvm-nm-19`), counted over the code of the project: a function the file
//! has that no file of the project defines came from the system (the C
//! runtime's startup files, `libc_nonshared.a`, libgcc), whose part of the
//! program the engine's own libc provides.

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A function the linked file has and its module lacks.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MissingFunction {
    pub symbol: String,
    /// The project's file that defines it (`dir/x.o`, `lib.a[x.o]`).
    pub object: String,
    /// The object that defines it is in the module, but its bitcode does
    /// not define it: the bitcode compile (against musl's headers, where
    /// `#ifdef __GLIBC__` code differs) made other code of the same source,
    /// not a link that left code out.
    pub compiled_differently: bool,
}

/// The comparison of one output with its module.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completeness {
    /// Functions the module defines.
    pub module_functions: u64,
    /// Functions the output file defines that the project's files define.
    pub native_functions: u64,
    /// Those of them the module lacks.
    pub missing: Vec<MissingFunction>,
}

/// A symbol's name without the suffixes compilers add to a function's
/// clones and renamed copies (GCC's `f.constprop.0`, `f.part.0`, `f.cold`;
/// llvm-link's `f.2` for a second static `f`): C names have no dot.
fn base_name(symbol: &str) -> &str {
    symbol.split('.').next().unwrap_or(symbol)
}

/// Whether an `nm -P` type letter is a defined function.
fn is_function(kind: &str) -> bool {
    matches!(kind, "T" | "t" | "W" | "i")
}

/// The functions `nm`-like output (`-P`) defines, by base name; with
/// `--print-file-name` (`file: name type ...`), the file of each.
fn parse(text: &str, with_files: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let (file, rest) = if with_files {
            match line.split_once(": ") {
                Some((f, r)) => (f.to_string(), r),
                None => continue,
            }
        } else {
            (String::new(), line)
        };
        let mut words = rest.split_whitespace();
        let (Some(name), Some(kind)) = (words.next(), words.next()) else {
            continue;
        };
        if is_function(kind) {
            out.push((base_name(name).to_string(), file));
        }
    }
    out
}

fn run(cmd: &mut Command) -> Option<String> {
    let o = cmd.output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The functions a bitcode module defines, by name, and the number of its
/// function definitions (statics of the same name counted each); None if
/// llvm-nm cannot read it.
fn module_functions(module: &Path) -> Option<(BTreeSet<String>, u64)> {
    let text = run(Command::new("llvm-nm-19")
        .args(["--defined-only", "-P"])
        .arg(module))?;
    let defs = parse(&text, false);
    let count = defs.len() as u64;
    Some((defs.into_iter().map(|(n, _)| n).collect(), count))
}

/// The number of function definitions in a bitcode module.
pub fn count_functions(module: &Path) -> Option<u64> {
    module_functions(module).map(|(_, n)| n)
}

/// Which of `bitcode` (each the bitcode of an object) defines an external
/// `main`: the object's index.
pub fn defines_main(bitcode: &[PathBuf]) -> Option<usize> {
    if bitcode.is_empty() {
        return None;
    }
    let text = run(Command::new("llvm-nm-19")
        .args(["--defined-only", "--extern-only", "--print-file-name", "-P"])
        .args(bitcode))?;
    let by_file: BTreeMap<String, usize> = bitcode
        .iter()
        .enumerate()
        .map(|(i, b)| (b.to_string_lossy().into_owned(), i))
        .collect();
    parse(&text, true)
        .into_iter()
        .find(|(name, _)| name == "main")
        .and_then(|(_, file)| {
            // A single file is printed without its name by some versions.
            by_file
                .get(&file)
                .copied()
                .or((bitcode.len() == 1).then_some(0))
        })
}

/// The functions a C program gets from the system rather than from its
/// code: the startup files' (a program of an empty `main` linked by `cc`,
/// with and without `-no-pie`),
/// libgcc's and libc_nonshared's. Worked out once.
fn system_functions() -> &'static BTreeSet<String> {
    static SYSTEM: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    SYSTEM.get_or_init(|| {
        let mut out = BTreeSet::new();
        let dir = std::env::temp_dir().join(format!("symtest-crt-{}", std::process::id()));
        if std::fs::create_dir_all(&dir).is_err() {
            return out;
        }
        let src = dir.join("empty.c");
        let mut files = Vec::new();
        if std::fs::write(&src, "int main(void) { return 0; }\n").is_ok() {
            // The startup files of a position-independent program and of
            // one that is not (crt1.o's _dl_relocate_static_pie).
            for (name, flags) in [("empty", &[][..]), ("empty-no-pie", &["-no-pie"][..])] {
                let exe = dir.join(name);
                if Command::new("cc")
                    .args(flags)
                    .arg(&src)
                    .arg("-o")
                    .arg(&exe)
                    .output()
                    .is_ok_and(|o| o.status.success())
                {
                    files.push(exe);
                }
            }
        }
        // The toolchain's own objects a link may add: libgcc, glibc's static
        // part, and the startup object `-ffast-math`/`-Ofast` links
        // (crtfastmath.o's `set_fast_math`).
        for q in [
            "-print-libgcc-file-name",
            "-print-file-name=libc_nonshared.a",
            "-print-file-name=crtfastmath.o",
        ] {
            if let Some(p) = run(Command::new("cc").arg(q)) {
                let p = PathBuf::from(p.trim());
                if p.is_absolute() && p.is_file() {
                    files.push(p);
                }
            }
        }
        for f in &files {
            if let Some(text) = run(Command::new("nm").args(["--defined-only", "-P"]).arg(f)) {
                // Archives print a member header line (`x.o:`), skipped by
                // the parser as a line without a type.
                out.extend(parse(&text, false).into_iter().map(|(n, _)| n));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        out
    })
}

/// Runs `f`, which reads the file at `path`, and gives the file back the
/// access time it had: `init --from-build` tells the programs the build ran
/// from those it left untouched by that time.
fn keeping_access_time<T>(path: &Path, f: impl FnOnce() -> T) -> T {
    let before = std::fs::metadata(path).and_then(|m| m.accessed()).ok();
    let r = f();
    if let Some(t) = before {
        if let Ok(file) = std::fs::File::options().write(true).open(path) {
            let _ = file.set_times(std::fs::FileTimes::new().set_accessed(t));
        }
    }
    r
}

/// Compares the linked file `linked` with its module. `project_files` are
/// the project's files the link read (objects, partial links, archives, the
/// objects the file names): what defines a function of the project.
/// None when either side cannot be read (the file is gone, nm is missing).
/// `linked_objects` are the objects whose bitcode the module holds.
pub fn compare(
    linked: &Path,
    module: &Path,
    project_files: &[PathBuf],
    linked_objects: &[PathBuf],
) -> Option<Completeness> {
    let native: BTreeSet<String> = parse(
        &keeping_access_time(linked, || {
            run(Command::new("nm")
                .args(["--defined-only", "-P"])
                .arg(linked))
        })?,
        false,
    )
    .into_iter()
    .map(|(n, _)| n)
    .collect();
    let (module_defs, module_count) = module_functions(module)?;
    let files: Vec<&PathBuf> = project_files.iter().filter(|f| f.is_file()).collect();
    // The project's definition of each function the file has (the first
    // file that defines it).
    let mut owner: BTreeMap<String, String> = BTreeMap::new();
    if !files.is_empty() {
        if let Some(text) = run(Command::new("nm")
            .args(["--defined-only", "-A", "-P"])
            .args(&files))
        {
            for (name, file) in parse(&text, true) {
                if native.contains(&name) {
                    owner.entry(name).or_insert(file);
                }
            }
        }
    }
    // The project's functions: those a file of the project defines, and
    // those no file left defines (an object the build deleted: a compile
    // and link in one step) that are not the system's.
    let system = system_functions();
    let project: Vec<&String> = native
        .iter()
        .filter(|n| owner.contains_key(*n) || !system.contains(*n))
        .collect();
    let missing: Vec<MissingFunction> = project
        .iter()
        .filter(|name| !module_defs.contains(**name))
        .map(|name| match owner.get(*name) {
            Some(file) => MissingFunction {
                symbol: (*name).clone(),
                object: file.clone(),
                compiled_differently: in_module(file, linked_objects),
            },
            None => MissingFunction {
                symbol: (*name).clone(),
                object: "(no file of the project left defines it)".into(),
                compiled_differently: false,
            },
        })
        .collect();
    Some(Completeness {
        module_functions: module_count,
        native_functions: project.len() as u64,
        missing,
    })
}

/// Whether the file `nm` named (`dir/x.o`, `dir/lib.a[x.o]`) is one of the
/// objects the module holds: the same path, or an archive's member of the
/// name of an object in the archive's directory tree.
fn in_module(file: &str, linked_objects: &[PathBuf]) -> bool {
    match file.strip_suffix(']').and_then(|f| f.split_once('[')) {
        Some((archive, member)) => {
            let dir = Path::new(archive).parent().unwrap_or(Path::new(""));
            linked_objects
                .iter()
                .any(|o| o.starts_with(dir) && o.file_name().is_some_and(|n| n == member))
        }
        None => linked_objects.iter().any(|o| o == Path::new(file)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the toolchain links of its own (the startup files, libgcc, the
    /// `-ffast-math` startup object) is not the project's.
    #[test]
    fn the_toolchains_own_functions_are_the_systems() {
        let system = system_functions();
        assert!(system.contains("_start"), "{system:?}");
        let fast_math = run(Command::new("cc").arg("-print-file-name=crtfastmath.o"))
            .map(|p| PathBuf::from(p.trim()))
            .filter(|p| p.is_absolute() && p.is_file());
        if fast_math.is_some() {
            assert!(system.contains("set_fast_math"), "{system:?}");
        }
    }

    #[test]
    fn clones_and_renamed_statics_count_as_their_function() {
        let text = "f.constprop.0 t 10 5\nf T 0 6\ng.2 t 1 1\nx D 0 4\nmain T 0 1\nh U\n";
        let names: Vec<String> = parse(text, false).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["f", "f", "g", "main"]);
    }

    #[test]
    fn file_names_come_with_archive_members() {
        let text = "lib.a[a.o]: f T 0 6\na.o: h T 10 6\nlib.a[m.o]: v D 0 4\n";
        assert_eq!(
            parse(text, true),
            [
                ("f".to_string(), "lib.a[a.o]".to_string()),
                ("h".to_string(), "a.o".to_string())
            ]
        );
    }
}

#[cfg(test)]
mod member_tests {
    use super::*;

    #[test]
    fn an_archive_member_is_in_the_module_by_its_name_under_the_archive() {
        let linked = [PathBuf::from("/p/libbb/sysconf.o"), PathBuf::from("/p/a.o")];
        assert!(in_module("/p/libbb/lib.a[sysconf.o]", &linked));
        assert!(!in_module("/p/other/lib.a[sysconf.o]", &linked));
        assert!(in_module("/p/a.o", &linked));
        assert!(!in_module("/p/b.o", &linked));
    }
}
