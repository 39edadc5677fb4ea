//! clang-19 to bitcode (the flags of FEATURES §2.1) and `llvm-link-19` of a target's sources.

use crate::config::Kind;
use crate::discovery::Target;
use crate::toolchain::{tool, BITCODE_FLAGS};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Flags every bitcode compile of a target's sources gets (then its UBSan
/// checks, include dirs, defines, cflags): [`BITCODE_FLAGS`], the flags of
/// every bitcode build, with two differences on purpose:
/// - `-c`, right after `-emit-llvm`: each source compiles to its own module,
///   linked after (`cargo symtest cc` and the capture wrappers add `-c`
///   themselves, when the command they wrap compiles only);
/// - no `-fsanitize=` list: the target's own `sanitize` (symtest.toml, by
///   default the same checks) follows instead, and none when it is empty.
pub fn bitcode_flags() -> Vec<&'static str> {
    let mut flags: Vec<&'static str> = BITCODE_FLAGS
        .iter()
        .copied()
        .filter(|f| !f.starts_with("-fsanitize="))
        .collect();
    debug_assert_eq!(flags.first(), Some(&"-emit-llvm"));
    flags.insert(1, "-c");
    flags
}

/// Why a target did not compile: the command and clang's own diagnostics.
#[derive(Debug)]
pub struct CompileError {
    pub command: String,
    pub diagnostics: String,
}

/// The compiler arguments shared by the bitcode and native builds (-I, -D,
/// cflags). OpenMP flags in `cflags` (`-fopenmp`) are left out and symtest's
/// `omp.h` is found instead: the code runs as serial OpenMP
/// (`crate::capture::bitcode`, [`crate::units::harness_unit`]).
pub fn common_args(t: &Target, models_include: &Path) -> Vec<String> {
    let mut a = Vec::new();
    for i in &t.include {
        a.push(format!("-I{}", i.display()));
    }
    a.push(format!("-I{}", models_include.display()));
    for d in &t.defines {
        a.push(format!("-D{d}"));
    }
    let openmp = |f: &&String| crate::capture::bitcode::is_openmp_flag(f);
    a.extend(t.cflags.iter().filter(|f| !openmp(f)).cloned());
    if t.cflags.iter().any(|f| openmp(&f)) {
        a.push(format!("-isystem{}", crate::paths::openmp_dir().display()));
    }
    a
}

/// The module of a target from a build: the captured executable's (as
/// `dir/<name>.bc`, so the program runs under the target's name, as its suite
/// does), or the harness compiled and linked with the captured library
/// (`--only-needed`, as a linker takes members from an archive).
pub fn from_capture(
    t: &Target,
    captured: &crate::from_build::Captured,
    models_include: &Path,
    dir: &Path,
) -> Result<PathBuf, CompileError> {
    if t.kind == Kind::Harness {
        let libraries: Vec<&Path> = std::iter::once(&captured.bitcode)
            .chain(&captured.dependencies)
            .map(PathBuf::as_path)
            .collect();
        return link_sources(t, models_include, dir, &libraries);
    }
    std::fs::create_dir_all(dir).map_err(|e| CompileError {
        command: format!("mkdir {}", dir.display()),
        diagnostics: e.to_string(),
    })?;
    let linked = dir.join(format!("{}.bc", t.name));
    std::fs::copy(&captured.bitcode, &linked).map_err(|e| CompileError {
        command: format!(
            "copying {} to {}",
            captured.bitcode.display(),
            linked.display()
        ),
        diagnostics: e.to_string(),
    })?;
    Ok(linked)
}

/// Compiles each source to `dir/NN_stem.bc` and links them into `dir/<name>.bc`.
pub fn to_bitcode(t: &Target, models_include: &Path, dir: &Path) -> Result<PathBuf, CompileError> {
    link_sources(t, models_include, dir, &[])
}

/// The target's sources compiled and linked, then `libraries` (modules: the
/// library, then the project's libraries it needs) with `--only-needed`.
fn link_sources(
    t: &Target,
    models_include: &Path,
    dir: &Path,
    libraries: &[&Path],
) -> Result<PathBuf, CompileError> {
    std::fs::create_dir_all(dir).map_err(|e| CompileError {
        command: format!("mkdir {}", dir.display()),
        diagnostics: e.to_string(),
    })?;
    let clang = tool("SYMTEST_CLANG", "clang-19");
    // clang's own headers (cpuid.h, immintrin.h, ...), after musl's for programs.
    let resource = (t.kind == Kind::Program)
        .then(crate::toolchain::resource_include)
        .flatten();
    let mut objects = Vec::new();
    for (i, src) in t.sources.iter().enumerate() {
        let stem = src
            .file_stem()
            .map_or("src".into(), |s| s.to_string_lossy().into_owned());
        let out = dir.join(format!("{i:02}_{stem}.bc"));
        let mut cmd = Command::new(&clang);
        crate::toolchain::fixed_date(&mut cmd);
        cmd.args(bitcode_flags());
        if !t.sanitize.is_empty() {
            cmd.arg(format!("-fsanitize={}", t.sanitize.join(",")));
        }
        if t.kind == Kind::Program {
            // Whole programs link with musl (`exec --libc=musl`): its headers, not the host's.
            let rt = crate::runtime::runtime_dir().map_err(|e| CompileError {
                command: "locating the musl runtime".into(),
                diagnostics: e,
            })?;
            cmd.arg("-nostdinc").arg("-isystem").arg(rt.join("include"));
            if let Some(res) = &resource {
                cmd.arg("-isystem").arg(res);
            }
        }
        cmd.args(common_args(t, models_include))
            .arg(src)
            .arg("-o")
            .arg(&out)
            .current_dir(&t.root);
        run(cmd)?;
        objects.push(out);
    }
    let linked = dir.join(format!("{}.bc", t.name));
    let link = || Command::new(tool("SYMTEST_LLVM_LINK", "llvm-link-19"));
    if libraries.is_empty() {
        let mut cmd = link();
        cmd.args(&objects).arg("-o").arg(&linked);
        run(cmd)?;
        return Ok(linked);
    }
    // llvm-link applies --only-needed to every file after the first: link the
    // harness whole first, then what it needs of the library, then what
    // those need of the libraries the library needs, in link order.
    let own = dir.join(format!("{}.own.bc", t.name));
    let mut cmd = link();
    cmd.args(&objects).arg("-o").arg(&own);
    run(cmd)?;
    let mut cmd = link();
    cmd.arg(&own)
        .arg("--only-needed")
        .args(libraries)
        .arg("-o")
        .arg(&linked);
    run(cmd)?;
    Ok(linked)
}

fn run(mut cmd: Command) -> Result<(), CompileError> {
    let command = format!("{cmd:?}").replace('"', "");
    match cmd.output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(CompileError {
            command,
            diagnostics: String::from_utf8_lossy(&o.stderr).into_owned(),
        }),
        Err(e) => Err(CompileError {
            command,
            diagnostics: format!("cannot run the compiler: {e} (run `cargo xtask setup`)"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_compiles_get_the_bitcode_flags_with_c_and_without_their_checks() {
        // The list a target's compile has always had, in its order.
        assert_eq!(
            bitcode_flags(),
            [
                "-emit-llvm",
                "-c",
                "-g",
                "-O0",
                "-Xclang",
                "-disable-O0-optnone",
                "-fno-sanitize-recover=all",
            ]
        );
    }
}
