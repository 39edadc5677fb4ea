//! `cargo symtest cc [--native [--coverage]] CLANG_ARGS...`: compile C the
//! way the engine and the native replay expect it.
//!
//! - Default: LLVM 19 bitcode with clang-19, the standard flags (`-emit-llvm
//!   -c -g -O0 -Xclang -disable-O0-optnone`, UBSan overflow/shift/division
//!   checks) against the musl headers (so the program links cleanly with the
//!   patched libc of `exec --libc=musl`) and `libc-models/include`.
//! - `--native`: an executable built with musl-gcc (dynamic, the same musl
//!   code as the engine's libc) for `replay --native`, with UBSan checks
//!   that trap (SIGILL, no runtime needed) and the engine's allocation limit
//!   (the link adds `libc-models/replay/symtest_alloc_limit.c`), optionally
//!   `--coverage` (the link then adds `libc-models/replay/gcov_crash.c`,
//!   which writes the coverage data when the program dies of a crash signal).

use anyhow::{bail, Context, Result};
use clap::Args;
use std::ffi::OsString;
use std::process::Command;
use symtest_project::toolchain::{musl_include, resource_include, BITCODE_FLAGS};

#[derive(Args, Debug)]
pub struct CcArgs {
    /// Build a native executable with musl-gcc (for `replay --native`)
    /// instead of bitcode.
    #[arg(long)]
    pub native: bool,
    /// With --native: instrument for gcov (`--coverage`).
    #[arg(long, requires = "native")]
    pub coverage: bool,
    /// Print the compiler command line before running it.
    #[arg(long)]
    pub print_command: bool,
    /// Compiler arguments: sources, -o, -D, -I, ... (symtest's own options
    /// come first).
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "COMPILER_ARGS"
    )]
    pub args: Vec<OsString>,
}

/// Flags of every native build: the checks of the bitcode build that the
/// hardware does not already make (division by zero traps with SIGFPE), plus
/// array bounds, as traps.
pub const NATIVE_FLAGS: &[&str] = &[
    "-g",
    "-O0",
    "-fsanitize=bounds,signed-integer-overflow,shift",
    "-fsanitize-undefined-trap-on-error",
];

/// The calls `libc-models/replay/symtest_alloc_limit.c` wraps in a native
/// build without AddressSanitizer (the suite's Makefile and symtest.cmake
/// wrap the same).
pub const ALLOC_WRAP: &[&str] = &[
    "--wrap=malloc",
    "--wrap=calloc",
    "--wrap=realloc",
    "--wrap=reallocarray",
    "--wrap=aligned_alloc",
    "--wrap=posix_memalign",
    "--wrap=memalign",
];

/// The C sources among compiler arguments (words ending in `.c` that are not
/// the value of an option), by position.
fn sources(args: &[OsString]) -> Vec<usize> {
    let takes_value = [
        "-o", "-I", "-D", "-U", "-include", "-isystem", "-iquote", "-x", "-MF", "-MT",
    ];
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let s = args[i].to_string_lossy();
        if takes_value.contains(&s.as_ref()) {
            i += 2;
            continue;
        }
        if !s.starts_with('-') && s.ends_with(".c") {
            out.push(i);
        }
        i += 1;
    }
    out
}

/// `cc a.c b.c -o prog.bc` (bitcode, no `-c`/`-S`/`-E`): each source compiled
/// on its own, then one module linked with llvm-link-19, as a compiler driver
/// compiles and links.
fn compile_and_link(a: &CcArgs, srcs: &[usize]) -> Result<u8> {
    let out_at = a.args.iter().position(|x| x == "-o");
    let Some(out) = out_at.and_then(|i| a.args.get(i + 1)) else {
        bail!("several sources: name the linked module with -o FILE.bc");
    };
    let common: Vec<OsString> = a
        .args
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            !srcs.contains(i) && Some(*i) != out_at && Some(*i) != out_at.map(|o| o + 1)
        })
        .map(|(_, x)| x.clone())
        .collect();
    let tmp = std::env::temp_dir().join(format!("symtest-cc-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let result = (|| -> Result<u8> {
        let mut parts = Vec::new();
        for (k, &i) in srcs.iter().enumerate() {
            let bc = tmp.join(format!("{k}.bc"));
            let mut args = common.clone();
            args.extend([
                "-c".into(),
                a.args[i].clone(),
                "-o".into(),
                bc.clone().into_os_string(),
            ]);
            let one = CcArgs {
                native: false,
                coverage: false,
                print_command: a.print_command,
                args,
            };
            let code = run_one(&one)?;
            if code != 0 {
                return Ok(code);
            }
            parts.push(bc);
        }
        let status = Command::new("llvm-link-19")
            .args(&parts)
            .arg("-o")
            .arg(out)
            .status()
            .context("cannot run llvm-link-19 (install LLVM 19: `cargo xtask setup`)")?;
        Ok(if status.success() {
            0
        } else {
            crate::EXIT_BAD_INPUT
        })
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

/// The command line for a build.
pub fn command(a: &CcArgs) -> Result<Command> {
    let models = symtest_project::paths::models_dir().join("include");
    let mut cmd;
    if a.native {
        let gcc = std::env::var_os("SYMTEST_MUSL_GCC")
            .filter(|c| !c.is_empty())
            .unwrap_or_else(|| "musl-gcc".into());
        cmd = Command::new(gcc);
        symtest_project::toolchain::fixed_date(&mut cmd);
        cmd.args(NATIVE_FLAGS);
        if a.coverage {
            cmd.arg("--coverage");
        }
        cmd.arg("-I").arg(&models);
        let stage = ["-c", "-S", "-E"];
        if !a.args.iter().any(|x| stage.iter().any(|s| x == s)) {
            let replay = symtest_project::paths::models_dir().join("replay");
            cmd.args(&a.args);
            // Linking: the engine's allocation limit (no AddressSanitizer
            // here to enforce it) and, for coverage, the handler that writes
            // coverage data on a crash.
            cmd.arg(replay.join("symtest_alloc_limit.c"))
                .arg(format!("-Wl,{}", ALLOC_WRAP.join(",")));
            if a.coverage {
                cmd.arg(replay.join("gcov_crash.c"));
            }
            return Ok(cmd);
        }
    } else {
        cmd = Command::new(symtest_project::toolchain::clang());
        symtest_project::toolchain::fixed_date(&mut cmd);
        cmd.args(BITCODE_FLAGS);
        let stage = ["-c", "-S", "-E"];
        if !a.args.iter().any(|x| stage.iter().any(|s| x == s)) {
            cmd.arg("-c");
        }
        cmd.arg("-nostdinc")
            .arg("-isystem")
            .arg(musl_include().map_err(anyhow::Error::msg)?);
        // clang's own headers (cpuid.h, immintrin.h, stdarg.h, ...).
        if let Some(res) = resource_include() {
            cmd.arg("-isystem").arg(res);
        }
        cmd.arg("-I").arg(&models);
    }
    cmd.args(&a.args);
    Ok(cmd)
}

pub fn run(a: CcArgs) -> Result<u8> {
    let stage = ["-c", "-S", "-E"];
    let srcs = sources(&a.args);
    if !a.native && srcs.len() > 1 && !a.args.iter().any(|x| stage.iter().any(|s| x == s)) {
        return compile_and_link(&a, &srcs);
    }
    run_one(&a)
}

fn run_one(a: &CcArgs) -> Result<u8> {
    let mut cmd = command(a)?;
    if a.print_command {
        let words: Vec<String> = std::iter::once(cmd.get_program())
            .chain(cmd.get_args())
            .map(|w| w.to_string_lossy().into_owned())
            .collect();
        eprintln!("{}", words.join(" "));
    }
    let program = cmd.get_program().to_string_lossy().into_owned();
    let status = cmd.status().with_context(|| {
        if a.native {
            format!("cannot run {program} (install musl-tools: `cargo xtask setup`)")
        } else {
            format!("cannot run {program} (install clang-19 or set SYMTEST_CLANG)")
        }
    })?;
    if status.success() {
        Ok(0)
    } else {
        // The compiler printed its diagnostics.
        eprintln!("error: {program} failed ({status})");
        Ok(crate::EXIT_BAD_INPUT)
    }
}
