//! The capture log: one JSON record per line, appended by the wrappers.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The environment variable naming the log file (its presence turns the
/// wrappers on).
pub const LOG_ENV: &str = "SYMTEST_CAPTURE_LOG";

/// The log's name in the capture directory.
pub const LOG_FILE: &str = "capture.log";

/// What one wrapper saw.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Record {
    /// A C translation unit compiled to an object (and, if `bitcode` is set,
    /// to bitcode).
    Compile {
        cwd: PathBuf,
        compiler: String,
        source: PathBuf,
        object: PathBuf,
        bitcode: Option<PathBuf>,
        arguments: Vec<String>,
        /// Why no bitcode was made.
        error: Option<String>,
        /// The build's flags clang-19 did not take, left out of the bitcode
        /// compile.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dropped: Vec<String>,
        /// Flags the bitcode compile added (`-Wno-error=...`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        added: Vec<String>,
        /// Why the object could not be made to name its bitcode (objcopy).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        carry_error: Option<String>,
        /// The default symbol versions the object defines (`f@@V_2` at
        /// `f_v2`), defined in the bitcode as aliases.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        versions: Vec<super::symver::DefaultVersion>,
    },
    /// A source that is not C (assembly, C++): its object has no bitcode.
    Foreign { source: PathBuf, object: PathBuf },
    /// Members added to a static library.
    Archive {
        archive: PathBuf,
        members: Vec<PathBuf>,
    },
    /// A compile or link whose output is not a file (`-o /dev/null`): a
    /// probe of the compiler, named in the manifest's `left_out`.
    Probe { output: PathBuf },
    /// An executable (or shared library) linked from objects, archives and
    /// `-L`/`-l` options, in command-line order.
    Link {
        cwd: PathBuf,
        output: PathBuf,
        inputs: Vec<String>,
        shared: bool,
        /// A partial link (`ld -r`, `cc -r`): an object, not an output.
        #[serde(default)]
        relocatable: bool,
        /// The objects the output names as carrying bitcode (its section,
        /// read right after the link), in link order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        carried: Vec<PathBuf>,
        /// The output's GNU build-id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        build_id: Option<String>,
    },
}

/// Reads every record of a log (lines that do not parse are skipped: a
/// wrapper killed mid-write leaves at most a torn last line).
pub fn read(path: &Path) -> std::io::Result<Vec<Record>> {
    let text = std::fs::read_to_string(path).or_else(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Ok(String::new())
        } else {
            Err(e)
        }
    })?;
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

/// `base/p` with `.` and `..` resolved lexically (no file system access), so
/// `app/../lib/libtok.a` and `lib/libtok.a` name the same file.
pub fn normalize(base: &Path, p: &Path) -> PathBuf {
    use std::path::Component;
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether a file belongs to a configuration probe rather than the project:
/// autoconf's `conftest*`, cc-rs's flag checks, CMake's compiler identification (`CompilerIdC/`)
/// and try-compile projects (`CMakeScratch/`, `CMakeTmp/`). Probes get no
/// bitcode and no manifest entry.
pub fn is_probe(p: &Path) -> bool {
    p.file_name().is_some_and(|f| {
        let f = f.to_string_lossy();
        // cc-rs (the `cc` crate of Rust build scripts) probes flags with
        // `flag_check.c` and the compiler with `detect_compiler_family.c`.
        f.starts_with("conftest")
            || f.starts_with("flag_check")
            || f.starts_with("detect_compiler_family")
    }) || p.components().any(|c| {
        let c = c.as_os_str().to_string_lossy();
        c == "CMakeScratch" || c == "CMakeTmp" || c.starts_with("CompilerId")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_lexically() {
        let b = Path::new("/p/app");
        assert_eq!(
            normalize(b, Path::new("../lib/x.a")),
            PathBuf::from("/p/lib/x.a")
        );
        assert_eq!(
            normalize(b, Path::new("./m.o")),
            PathBuf::from("/p/app/m.o")
        );
        assert_eq!(normalize(b, Path::new("/abs/./y")), PathBuf::from("/abs/y"));
    }
}
