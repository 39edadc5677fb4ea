//! The C toolchain symtest drives: clang-19 and its flags, the musl headers,
//! clang's resource headers.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

/// Flags of every bitcode build (TOOLCHAIN.md, the README): what `cargo
/// symtest cc` and the capture wrappers give clang-19, and, with `-c` and a
/// target's own checks for the `-fsanitize=` list, a target's compile
/// ([`crate::compile::bitcode_flags`]).
pub const BITCODE_FLAGS: &[&str] = &[
    "-emit-llvm",
    "-g",
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-fsanitize=signed-integer-overflow,shift,integer-divide-by-zero,bounds",
    "-fno-sanitize-recover=all",
];

/// The date every compile symtest makes sees (`__DATE__`, `__TIME__`,
/// `__TIMESTAMP__`, through `SOURCE_DATE_EPOCH`, which clang-19 honours): the
/// model's fixed time (`MODEL_TIME` of libc-models/posix/model.h). A program
/// that prints when it was compiled prints the same date under the engine,
/// in the native builds and in its emitted suite (templates/suite/Makefile.in
/// sets the same value).
pub const SOURCE_DATE_EPOCH: &str = "1700000000";

/// `cmd` (a compile, or a build that compiles) with [`SOURCE_DATE_EPOCH`].
pub fn fixed_date(cmd: &mut Command) -> &mut Command {
    cmd.env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
}

/// A tool of LLVM 19 (or clang): `$<var>` when set and not empty, else `default`.
pub fn tool(var: &str, default: &str) -> String {
    std::env::var(var)
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| default.to_string())
}

/// The clang used for bitcode and native builds: `$SYMTEST_CLANG`, else `clang-19`.
pub fn clang() -> OsString {
    std::env::var_os("SYMTEST_CLANG")
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| OsString::from("clang-19"))
}

/// The musl headers: `$SYMTEST_MUSL_INCLUDE`, else those installed with the
/// musl runtime `cargo xtask setup` builds, else those of the musl-dev package
/// that musl-tools installs (the same musl 1.2.3).
pub fn musl_include() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("SYMTEST_MUSL_INCLUDE").filter(|d| !d.is_empty()) {
        let d = PathBuf::from(d);
        if !d.join("stdio.h").is_file() {
            return Err(format!(
                "$SYMTEST_MUSL_INCLUDE={} holds no stdio.h",
                d.display()
            ));
        }
        return Ok(d);
    }
    if let Ok(rt) = crate::runtime::runtime_dir() {
        let d = rt.join("include");
        if d.join("stdio.h").is_file() {
            return Ok(d);
        }
    }
    let d = PathBuf::from("/usr/include/x86_64-linux-musl");
    if d.join("stdio.h").is_file() {
        return Ok(d);
    }
    Err(format!(
        "musl headers not found in {} (run `cargo xtask setup`, which installs musl-tools, \
         or set SYMTEST_MUSL_INCLUDE)",
        d.display()
    ))
}

/// clang-19's resource include directory (`clang-19 -print-resource-dir`),
/// where its own headers live; `-nostdinc` would hide them.
pub fn resource_include() -> Option<PathBuf> {
    let out = Command::new(clang())
        .arg("-print-resource-dir")
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    let inc = PathBuf::from(dir.trim()).join("include");
    inc.is_dir().then_some(inc)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_suite_and_the_model_see_the_date_every_compile_sees() {
        let line = format!("export SOURCE_DATE_EPOCH := {}\n", super::SOURCE_DATE_EPOCH);
        assert!(crate::emit::MAKEFILE_IN.contains(&line));
        let model = include_str!("../../libc-models/posix/model.h");
        assert!(model.contains(&format!("#define MODEL_TIME {}L", super::SOURCE_DATE_EPOCH)));
    }
}
