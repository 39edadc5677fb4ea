//! The bitcode compile of one translation unit, beside the build's real
//! compile: clang-19 with symtest's flags and the translation flags the build
//! gave its compiler (`-D`, `-I`, `-std=`, `-m...`). Flags clang does not take
//! (GCC's `-malign-data=abi`, `-mindirect-branch=...`, a CPU name it does not
//! know) are dropped one by one, each after clang names it, and the compile is
//! retried; diagnostics that clang makes errors by default where GCC only warns
//! (implicit function declarations, int/pointer conversions, implicit `int`)
//! are turned back into warnings (`-Wno-error=...`); against musl's headers, a
//! header musl does not have is looked for in `/usr/include` after musl's
//! (a library's: `oniguruma.h`, `tcl.h`), with glibc's declaration macros
//! defined empty for glibc-only headers (`mcheck.h`), and the headers whose
//! names glibc's headers bring along included (<limits.h>, <sys/types.h>).
//! OpenMP code runs serially: the build's `-fopenmp` (and its kin) is dropped,
//! so every `#pragma omp` is ignored and `_OPENMP` is not defined, and
//! `<omp.h>` is symtest's (`libc-models/openmp`: the runtime routines of one
//! thread), found by a unit built with `-fopenmp` and by any unit that
//! includes it (GCC finds its own `omp.h` without the flag). What was dropped and
//! added is recorded, so the manifest lists it and the native builds compile
//! with the same flags. The build's own compile is never changed.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// Where the system's library and kernel headers are (`asm/` is in the
/// multiarch directory).
const SYSTEM_INCLUDE: &[&str] = &["/usr/include", "/usr/include/x86_64-linux-gnu"];

/// Names of <limits.h> that glibc's other headers define as well.
const LIMITS_NAMES: &[&str] = &[
    "PATH_MAX",
    "NAME_MAX",
    "PIPE_BUF",
    "ARG_MAX",
    "LINE_MAX",
    "HOST_NAME_MAX",
    "LOGIN_NAME_MAX",
    "IOV_MAX",
];

/// The BSD type names of <sys/types.h>, which glibc's <stdlib.h> (and
/// others) bring along in its default mode; musl's do not.
const BSD_TYPE_NAMES: &[&str] = &[
    "u_char",
    "u_short",
    "u_int",
    "u_long",
    "ushort",
    "uint",
    "ulong",
    "u_int8_t",
    "u_int16_t",
    "u_int32_t",
    "u_int64_t",
    "quad_t",
    "u_quad_t",
    "caddr_t",
    "daddr_t",
];

/// The headers glibc's headers include along with others, by the names
/// they give a source.
const BROUGHT_ALONG: &[(&str, &[&str])] =
    &[("limits.h", LIMITS_NAMES), ("sys/types.h", BSD_TYPE_NAMES)];

/// `-include` flags for the headers whose names clang's errors in `stderr`
/// say are missing.
fn headers_brought_along(stderr: &str) -> Vec<String> {
    BROUGHT_ALONG
        .iter()
        .filter(|(_, names)| {
            names.iter().any(|n| {
                stderr.contains(&format!("undeclared identifier '{n}'"))
                    || stderr.contains(&format!("unknown type name '{n}'"))
            })
        })
        .map(|(header, _)| format!("-include{header}"))
        .collect()
}

/// glibc's <sys/cdefs.h> declaration macros, empty (what they expand to in C
/// for a compiler that needs none of their attributes).
const GLIBC_CDEFS: &[&str] = &[
    "-D__BEGIN_DECLS=",
    "-D__END_DECLS=",
    "-D__THROW=",
    "-D__wur=",
    "-D__nonnull(params)=",
    "-D__attribute_malloc__=",
    "-D__attribute_pure__=",
    "-D__attribute_const__=",
    "-D__attribute_deprecated__=",
];

/// The macro a `-DNAME...=` defines.
fn cdefs_name(define: &str) -> &str {
    let d = define.trim_start_matches("-D");
    let end = d.find(['(', '=']).unwrap_or(d.len());
    &d[..end]
}

/// At most this many retries per translation unit.
const MAX_RETRIES: usize = 24;

/// How a bitcode compile went.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Why it failed (clang's first lines), if it did.
    pub error: Option<String>,
    /// The build's flags clang-19 did not take, dropped.
    pub dropped: Vec<String>,
    /// Flags added so clang-19 compiles what GCC accepts (`-Wno-error=...`).
    pub added: Vec<String>,
}

/// Compiles `source` (run from `cwd`) to `out` with `base` (symtest's own
/// arguments: flags, header directories) then the build's `flags`.
pub fn compile(
    base: &[OsString],
    flags: &[OsString],
    source: &Path,
    out: &Path,
    cwd: &Path,
) -> Outcome {
    let mut flags: Vec<OsString> = flags.to_vec();
    let mut o = Outcome::default();
    if base.iter().any(|a| a == "-nostdinc") {
        o.dropped = drop_system_include_dirs(&mut flags);
    }
    let openmp = drop_openmp(&mut flags);
    if !openmp.is_empty() {
        o.added.push(openmp_include());
    }
    o.dropped.extend(openmp);
    for _ in 0..=MAX_RETRIES {
        let mut cmd = Command::new(crate::toolchain::clang());
        crate::toolchain::fixed_date(&mut cmd);
        cmd.args(base)
            .args(&o.added)
            .args(&flags)
            .arg(source)
            .arg("-o")
            .arg(out)
            .current_dir(cwd);
        let stderr = match cmd.output() {
            Ok(r) if r.status.success() => {
                o.error = None;
                return o;
            }
            Ok(r) => String::from_utf8_lossy(&r.stderr).into_owned(),
            Err(e) => {
                o.error = Some(format!("cannot run clang: {e}"));
                return o;
            }
        };
        // The error first (a header's error comes after "In file included
        // from" lines).
        let mut lines: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("error"))
            .take(3)
            .collect();
        lines.extend(stderr.lines().filter(|l| !l.contains("error")).take(2));
        o.error = Some(lines.join("\n"));
        let words: Vec<String> = flags
            .iter()
            .map(|f| f.to_string_lossy().into_owned())
            .collect();
        if let Some(i) = rejected_flag(&stderr, &words) {
            o.dropped.push(words[i].clone());
            flags.remove(i);
            continue;
        }
        let mut more: Vec<String> = default_errors(&stderr);
        // Against musl's headers, a library's header the system has
        // (`oniguruma.h`, `tcl.h`, `zlib.h` in /usr/include) is still found,
        // after musl's own.
        if stderr.contains("file not found") && base.iter().any(|a| a == "-nostdinc") {
            for dir in SYSTEM_INCLUDE {
                if Path::new(dir).is_dir() {
                    more.push(format!("-idirafter{dir}"));
                }
            }
        }
        // A glibc-only header found there (`mcheck.h`) uses glibc's
        // <sys/cdefs.h> macros, which musl has not: they mean nothing to C.
        if GLIBC_CDEFS
            .iter()
            .any(|d| stderr.contains(&format!("'{}'", cdefs_name(d))))
        {
            more.extend(GLIBC_CDEFS.iter().map(|d| d.to_string()));
        }
        // glibc's headers bring other headers' names along (<dirent.h> gives
        // <limits.h>'s PATH_MAX, <stdlib.h> <sys/types.h>'s `u_char`); musl's
        // do not: a source that relies on them gets the header included.
        if base.iter().any(|a| a == "-nostdinc") {
            more.extend(headers_brought_along(&stderr));
        }
        // `#include <omp.h>` without `-fopenmp` (GCC finds its own).
        if stderr.contains("'omp.h' file not found") {
            more.push(openmp_include());
        }
        more.retain(|a| !o.added.contains(a));
        if more.is_empty() {
            return o;
        }
        o.added.extend(more);
    }
    o
}

/// Whether `flag` asks the compiler for OpenMP: `-fopenmp`, `-fopenmp=LIB`,
/// `-fopenmp-simd` and the other `-fopenmp-...` options, Intel's `-qopenmp`
/// and `-openmp`, and `-fno-openmp`.
pub fn is_openmp_flag(flag: &str) -> bool {
    flag == "-fopenmp"
        || flag == "-fno-openmp"
        || flag == "-openmp"
        || flag.starts_with("-fopenmp=")
        || flag.starts_with("-fopenmp-")
        || flag.starts_with("-qopenmp")
}

/// Removes the OpenMP flags from `flags` (the code is compiled as serial
/// OpenMP: pragmas ignored, `_OPENMP` not defined); the words removed.
fn drop_openmp(flags: &mut Vec<OsString>) -> Vec<String> {
    let mut dropped = Vec::new();
    flags.retain(|f| {
        let f = f.to_string_lossy();
        let openmp = is_openmp_flag(&f);
        if openmp {
            dropped.push(f.into_owned());
        }
        !openmp
    });
    dropped
}

/// The flag that finds symtest's `omp.h` (after the code's own directories).
fn openmp_include() -> String {
    format!("-isystem{}", crate::paths::openmp_dir().display())
}

/// Removes `-I`/`-isystem` of the system's include directories (`-I/usr/include/`,
/// as pkg-config writes for some libraries): GCC ignores them, since it
/// searches those directories in their place anyway, but against musl's
/// headers they would put glibc's `stdio.h` before musl's. The words
/// removed, each as one flag.
fn drop_system_include_dirs(flags: &mut Vec<OsString>) -> Vec<String> {
    let system = |d: &str| {
        let d = d.trim_end_matches('/');
        SYSTEM_INCLUDE.contains(&d) || d == "/usr/local/include"
    };
    let mut dropped = Vec::new();
    let mut i = 0;
    while i < flags.len() {
        let f = flags[i].to_string_lossy().into_owned();
        let (opt, joined) = if let Some(d) = f.strip_prefix("-isystem") {
            ("-isystem", d.to_string())
        } else if let Some(d) = f.strip_prefix("-I") {
            ("-I", d.to_string())
        } else {
            i += 1;
            continue;
        };
        let (dir, words) = if joined.is_empty() {
            match flags.get(i + 1) {
                Some(d) => (d.to_string_lossy().into_owned(), 2),
                None => break,
            }
        } else {
            (joined, 1)
        };
        if system(&dir) {
            flags.drain(i..i + words);
            if words == 1 {
                dropped.push(f);
            } else {
                dropped.push(format!("{opt}{dir}"));
            }
        } else {
            i += words;
        }
    }
    dropped
}

/// The quoted words of clang's error lines (`'-malign-data=abi'`).
fn quoted(line: &str) -> Vec<&str> {
    line.split('\'').skip(1).step_by(2).collect()
}

/// Flags whose value is a path or a macro: never dropped (they change what
/// the code means); their errors are the code's, not the flag's.
fn droppable(flag: &str) -> bool {
    flag.starts_with('-') && !["-D", "-U", "-I", "-i"].iter().any(|p| flag.starts_with(p))
}

/// The index in `flags` of a flag clang's errors reject: named whole
/// (`unknown argument: '-mfoo'`, `unsupported option '-mfoo' for target`),
/// by option and value (`unsupported argument 'abi' to option
/// '-malign-data='`), or by its value (`unknown target CPU 'foo'` for
/// `-march=foo`).
pub fn rejected_flag(stderr: &str, flags: &[String]) -> Option<usize> {
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error:")).collect();
    let find = |pred: &dyn Fn(&str) -> bool| -> Option<usize> {
        flags.iter().position(|f| droppable(f) && pred(f))
    };
    for line in &errors {
        // Source diagnostics (`file.c:3:4: error: ...`) are not about flags.
        if !line.starts_with("clang") && !line.starts_with("error:") {
            continue;
        }
        let q = quoted(line);
        if let Some(i) = q.iter().find_map(|w| find(&|f| f == *w)) {
            return Some(i);
        }
        if line.contains("to option") {
            if let [value, option, ..] = q.as_slice() {
                let whole = format!("{option}{value}");
                if let Some(i) = find(&|f| f == whole || f.starts_with(*option)) {
                    return Some(i);
                }
            }
        }
        if let Some(i) = q.iter().find_map(|w| {
            let suffix = format!("={w}");
            find(&|f| f.ends_with(&suffix))
        }) {
            return Some(i);
        }
    }
    None
}

/// `-Wno-error=X` for each diagnostic clang reported as an error whose
/// warning group `X` GCC only warns about: C99's removals clang enforces by
/// default (implicit declarations and `int`, int/pointer conversions,
/// incompatible pointer types).
pub fn default_errors(stderr: &str) -> Vec<String> {
    const GROUPS: &[&str] = &[
        "implicit-function-declaration",
        "implicit-int",
        "int-conversion",
        "incompatible-pointer-types",
        "incompatible-function-pointer-types",
        "return-type",
        "int-to-pointer-cast",
        "pointer-to-int-cast",
    ];
    let mut out: Vec<String> = Vec::new();
    for line in stderr.lines().filter(|l| l.contains(": error: ")) {
        let Some(group) = line
            .rsplit_once("[-W")
            .and_then(|(_, g)| g.strip_suffix(']'))
        else {
            continue;
        };
        let group = group.split(',').next().unwrap_or(group);
        if GROUPS.contains(&group) {
            let flag = format!("-Wno-error={group}");
            if !out.contains(&flag) {
                out.push(flag);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn finds_the_flag_clang_rejects() {
        let flags = w(&["-DX=1", "-malign-data=abi", "-march=foo", "-std=gnu99"]);
        assert_eq!(
            rejected_flag(
                "clang-19: error: unknown argument: '-malign-data=abi'\n",
                &flags
            ),
            Some(1)
        );
        assert_eq!(
            rejected_flag(
                "clang-19: error: unsupported argument 'abi' to option '-malign-data='\n",
                &flags
            ),
            Some(1)
        );
        assert_eq!(
            rejected_flag(
                "error: unknown target CPU 'foo'\nnote: valid target CPU values are: ...\n",
                &flags
            ),
            Some(2)
        );
        let m = w(&["-mfoo"]);
        assert_eq!(
            rejected_flag(
                "clang-19: error: unknown argument '-mfoo'; did you mean '-mfma'?\n",
                &m
            ),
            Some(0)
        );
        assert_eq!(
            rejected_flag(
                "clang-19: error: unsupported option '-mfoo' for target 'x86_64-pc-linux-gnu'\n",
                &m
            ),
            Some(0)
        );
        // A source error never drops a flag, nor is a macro ever dropped.
        assert_eq!(
            rejected_flag("a.c:1:2: error: unknown type name 'X'\n", &w(&["-X"])),
            None
        );
        assert_eq!(
            rejected_flag("clang-19: error: unknown argument: '-DX=1'\n", &flags),
            None
        );
    }

    #[test]
    fn headers_glibc_brings_along_are_included_by_the_names_missing() {
        let e = "a.c:3:9: error: use of undeclared identifier 'PATH_MAX'\n\
                 a.c:4:20: error: unknown type name 'u_char'\n";
        assert_eq!(
            headers_brought_along(e),
            ["-includelimits.h", "-includesys/types.h"]
        );
        assert!(headers_brought_along("a.c:1:1: error: unknown type name 'x'\n").is_empty());
    }

    #[test]
    fn glibc_declaration_macros_by_name() {
        let names: Vec<&str> = GLIBC_CDEFS.iter().map(|d| cdefs_name(d)).collect();
        assert_eq!(
            &names[..5],
            [
                "__BEGIN_DECLS",
                "__END_DECLS",
                "__THROW",
                "__wur",
                "__nonnull"
            ]
        );
    }

    #[test]
    fn system_include_directories_are_not_searched_before_musl() {
        let mut f: Vec<OsString> = ["-I.", "-I/usr/include/", "-I", "/usr/include", "-Iinc"]
            .iter()
            .map(OsString::from)
            .collect();
        let dropped = drop_system_include_dirs(&mut f);
        assert_eq!(dropped, ["-I/usr/include/", "-I/usr/include"]);
        assert_eq!(f, [OsString::from("-I."), OsString::from("-Iinc")]);
    }

    #[test]
    fn openmp_flags_are_dropped_and_omp_h_is_symtests() {
        let mut f: Vec<OsString> = ["-DX", "-fopenmp", "-O2", "-fopenmp-simd", "-qopenmp"]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(
            drop_openmp(&mut f),
            ["-fopenmp", "-fopenmp-simd", "-qopenmp"]
        );
        assert_eq!(f, [OsString::from("-DX"), OsString::from("-O2")]);
        assert!(is_openmp_flag("-fopenmp=libgomp") && !is_openmp_flag("-fopenacc"));
        assert!(crate::paths::openmp_dir().join("omp.h").is_file());
        assert!(openmp_include().ends_with("libc-models/openmp"));
    }

    #[test]
    fn default_errors_become_warnings() {
        let e = "a.c:1:20: error: call to undeclared function 'g'; ISO C99 and later do not \
                 support implicit function declarations [-Wimplicit-function-declaration]\n\
                 a.c:2:6: error: incompatible integer to pointer conversion [-Wint-conversion]\n\
                 a.c:3:1: error: unknown type name 'x'\n";
        assert_eq!(
            default_errors(e),
            w(&[
                "-Wno-error=implicit-function-declaration",
                "-Wno-error=int-conversion"
            ])
        );
        assert!(default_errors("a.c:9:1: error: expected ';' [-Wsomething-else]\n").is_empty());
    }
}
