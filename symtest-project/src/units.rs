//! What the native builds compile and link for a target: translation units
//! (a source, its directory and flags), static libraries of units, objects the
//! project's build made (assembly), system libraries. A target with `sources`
//! has one unit per source with the target's flags; a target from a build has
//! the recorded compile commands of the code its module holds.
//!
//! Paths in flags are kept absolute ([`Arg::Path`]) so that each generated
//! build file can name them its own way (relative to the suite directory).

use crate::discovery::Target;
use std::path::{Path, PathBuf};

/// One compiler argument of a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A word passed as is (`-DX=1`, `-std=c99`).
    Word(String),
    /// A path, absolute, after `flag` in the same word (`-I/p/inc`), or as the
    /// next word when `flag` is empty (after `-include`).
    Path { flag: String, path: PathBuf },
    /// `-I` the directory of the suite's own headers (`symtest.h`,
    /// `klee/klee.h`): harness sources need them.
    SuiteDir,
}

/// One translation unit. Its paths are absolute, so it compiles the same from
/// any directory (the native build compiles every unit from the target's root,
/// where gcov then finds the sources).
#[derive(Clone, Debug)]
pub struct Unit {
    /// The C file (absolute).
    pub source: PathBuf,
    pub args: Vec<Arg>,
    /// Options a link of its object needs (the default symbol versions the
    /// build's object defines and clang's does not: `-Wl,--defsym=f=f_v2`).
    pub link: Vec<String>,
}

/// A static library the program links, rebuilt from its members.
#[derive(Clone, Debug)]
pub struct Archive {
    /// The build's archive (names the rebuilt one).
    pub path: PathBuf,
    pub members: Vec<Unit>,
    /// Members the build made from no C source (assembly), as they are.
    pub objects: Vec<PathBuf>,
}

/// Everything a native build of the target compiles and links, in link order
/// (units, then objects, then archives, then libraries).
#[derive(Clone, Debug, Default)]
pub struct NativeInputs {
    pub units: Vec<Unit>,
    /// Objects the project's build made that have no C source (assembly):
    /// linked as they are.
    pub objects: Vec<PathBuf>,
    /// Each static library once.
    pub archives: Vec<Archive>,
    /// The archives in link order, as indices into `archives` (a library
    /// named twice on the link line, as coreutils names libcoreutils.a, is
    /// built once and linked twice).
    pub archive_links: Vec<usize>,
    /// System libraries (`-lm`, a path to a `.so`).
    pub libs: Vec<String>,
    /// The code is OpenMP code, run serially: the build links symtest's
    /// OpenMP routines (`libc-models/openmp/omp.c`, as an archive after the
    /// code), never an OpenMP runtime ([`NativeInputs::serial_openmp`]).
    pub openmp: bool,
}

impl NativeInputs {
    /// The units of a target's own `sources`, with its flags.
    pub fn of_sources(t: &Target) -> NativeInputs {
        let mut n = NativeInputs {
            units: t.sources.iter().map(|s| harness_unit(t, s)).collect(),
            ..NativeInputs::default()
        };
        n.serial_openmp();
        n
    }

    /// Every unit, archive members included (what gcov measures).
    pub fn all_units(&self) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .chain(self.archives.iter().flat_map(|a| a.members.iter()))
    }

    /// Adds to `libs` the link options of every unit, each once.
    pub fn add_unit_link_options(&mut self) {
        let words: Vec<String> = self.all_units().flat_map(|u| u.link.clone()).collect();
        for w in words {
            if !self.libs.contains(&w) {
                self.libs.push(w);
            }
        }
    }
}

/// Whether a system library is an OpenMP runtime (GCC's libgomp, LLVM's
/// libomp, Intel's libiomp5), by `-l` name or path.
fn is_openmp_runtime(lib: &str) -> bool {
    const NAMES: &[&str] = &["gomp", "omp", "iomp5"];
    if let Some(name) = lib.strip_prefix("-l") {
        return NAMES.contains(&name);
    }
    let file = Path::new(lib)
        .file_name()
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    NAMES.iter().any(|n| {
        file.strip_prefix(&format!("lib{n}"))
            .is_some_and(|rest| rest.starts_with(".so") || rest == ".a")
    })
}

impl NativeInputs {
    /// Serial OpenMP, as the engine runs it: the OpenMP runtime libraries
    /// the build linked are left out, and [`NativeInputs::openmp`] is set when
    /// there was one or a unit finds symtest's `omp.h` (the capture adds its
    /// directory, `crate::paths::openmp_dir`, to an OpenMP unit's flags).
    pub fn serial_openmp(&mut self) {
        let before = self.libs.len();
        self.libs.retain(|l| !is_openmp_runtime(l));
        let dir = crate::paths::openmp_dir();
        let includes = self.all_units().any(|u| {
            u.args
                .iter()
                .any(|a| matches!(a, Arg::Path { path, .. } if *path == dir))
        });
        self.openmp |= includes || self.libs.len() != before;
    }
}

/// A unit of the target's own sources: the suite's headers (copies of
/// symtest's `symtest.h` and `klee/klee.h`), the target's include directories,
/// defines and cflags (OpenMP's replaced by symtest's `omp.h`).
pub fn harness_unit(t: &Target, source: &Path) -> Unit {
    let dir = |p: &Path| Arg::Path {
        flag: "-I".into(),
        path: p.to_path_buf(),
    };
    let mut args = vec![Arg::SuiteDir];
    args.extend(t.include.iter().map(|i| dir(i)));
    args.extend(t.defines.iter().map(|d| Arg::Word(format!("-D{d}"))));
    // Serial OpenMP, as the bitcode compile (`compile::common_args`).
    let openmp = |f: &String| crate::capture::bitcode::is_openmp_flag(f);
    args.extend(
        t.cflags
            .iter()
            .filter(|f| !openmp(f))
            .cloned()
            .map(Arg::Word),
    );
    if t.cflags.iter().any(openmp) {
        args.push(Arg::Path {
            flag: "-isystem".into(),
            path: crate::paths::openmp_dir(),
        });
    }
    Unit {
        source: source.to_path_buf(),
        args,
        link: Vec::new(),
    }
}

/// Flags whose value is a path: `(flag, joined form allowed)`.
const PATH_FLAGS: &[(&str, bool)] = &[
    ("-I", true),
    ("-isystem", true),
    ("-iquote", true),
    ("-idirafter", true),
    ("-include", false),
    ("-imacros", false),
];

/// The recorded translation flags of a compile run in `dir`, with their
/// paths made absolute.
pub fn recorded_args(flags: &[String], dir: &Path) -> Vec<Arg> {
    let abs = |p: &str| crate::capture::log::normalize(dir, Path::new(p));
    let mut out = Vec::new();
    let mut i = 0;
    while i < flags.len() {
        let f = &flags[i];
        i += 1;
        if let Some((flag, _)) = PATH_FLAGS.iter().find(|(flag, _)| f == flag) {
            if let Some(v) = flags.get(i) {
                i += 1;
                if *flag == "-include" || *flag == "-imacros" {
                    out.push(Arg::Word(flag.to_string()));
                    out.push(Arg::Path {
                        flag: String::new(),
                        path: abs(v),
                    });
                } else {
                    out.push(Arg::Path {
                        flag: flag.to_string(),
                        path: abs(v),
                    });
                }
            }
            continue;
        }
        let joined = PATH_FLAGS
            .iter()
            .filter(|(_, j)| *j)
            .find_map(|(flag, _)| f.strip_prefix(flag).map(|v| (*flag, v)));
        match joined {
            Some((flag, v)) if !v.is_empty() => out.push(Arg::Path {
                flag: flag.to_string(),
                path: abs(v),
            }),
            _ => out.push(Arg::Word(f.clone())),
        }
    }
    out
}

/// The arguments as one compiler command line takes them; `suite` is the
/// directory of the suite's headers.
pub fn render_native(args: &[Arg], suite: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for a in args {
        match a {
            Arg::Word(w) => out.push(w.clone()),
            Arg::Path { flag, path } if flag.is_empty() => out.push(path.display().to_string()),
            Arg::Path { flag, path } => out.push(format!("{flag}{}", path.display())),
            Arg::SuiteDir => out.push(format!("-I{}", suite.display())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openmp_runtimes_are_left_out_for_the_serial_routines() {
        let mut n = NativeInputs {
            libs: ["-lm", "-lgomp", "/usr/lib/libomp.so.5", "-lompx", "-liomp5"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            ..NativeInputs::default()
        };
        n.serial_openmp();
        assert_eq!(n.libs, ["-lm", "-lompx"]);
        assert!(n.openmp);
        let mut plain = NativeInputs {
            libs: vec!["-lm".into()],
            ..NativeInputs::default()
        };
        plain.serial_openmp();
        assert!(!plain.openmp);
        let mut unit = NativeInputs {
            units: vec![Unit {
                source: PathBuf::from("/p/a.c"),
                args: recorded_args(
                    &[format!("-isystem{}", crate::paths::openmp_dir().display())],
                    Path::new("/p"),
                ),
                link: Vec::new(),
            }],
            ..NativeInputs::default()
        };
        unit.serial_openmp();
        assert!(unit.openmp);
    }

    #[test]
    fn recorded_paths_become_absolute() {
        let flags: Vec<String> = [
            "-I../lib",
            "-I",
            "inc",
            "-DX=1",
            "-include",
            "config.h",
            "-std=c99",
            "-isystem/usr/x",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let args = recorded_args(&flags, Path::new("/p/app"));
        let p = |flag: &str, path: &str| Arg::Path {
            flag: flag.into(),
            path: PathBuf::from(path),
        };
        assert_eq!(
            args,
            [
                p("-I", "/p/lib"),
                p("-I", "/p/app/inc"),
                Arg::Word("-DX=1".into()),
                Arg::Word("-include".into()),
                p("", "/p/app/config.h"),
                Arg::Word("-std=c99".into()),
                p("-isystem", "/usr/x"),
            ]
        );
        assert_eq!(
            render_native(&args[..2], Path::new("/s")),
            ["-I/p/lib", "-I/p/app/inc"]
        );
    }
}
