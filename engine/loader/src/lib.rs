//! Reads LLVM 19 bitcode (as produced by `clang-19 -emit-llvm -c -g`) and lowers it
//! into [`symtest_ir::Module`]. This is the only crate of symtest that names LLVM.
//!
//! Lowering resolves every operand to a register or a deduplicated module constant,
//! precomputes type sizes and GEP offsets from the module's data layout, and attaches
//! source locations from debug info. Constructs symtest cannot execute lower to
//! [`symtest_ir::Op::Unsupported`] (or [`symtest_ir::Intrinsic::Unsupported`]), so
//! only the states that reach them fail.
//!
//! Before lowering, a few intrinsics are expanded in the LLVM module (integer
//! `llvm.vector.reduce.*`, `llvm.fmuladd`, `llvm.is.constant`, `llvm.objectsize`)
//! and, if the module contains vector instructions (auto-vectorised optimised code),
//! LLVM's `scalarizer` pass splits them into scalar ones, as KLEE does. Modules
//! without these (typical `-O0` code) are lowered instruction for instruction.
//!
//! # LLVM bindings: inkwell where safe, raw llvm-sys where not
//!
//! The loader talks to LLVM through [inkwell] wherever inkwell is safe for *any*
//! valid (or invalid) input: the context, memory buffer, bitcode parsing,
//! verification, function/global/block/instruction iteration, the target triple,
//! and the `TargetData` behind every size, alignment and offset. It falls back to
//! raw [`llvm_sys`] calls only where inkwell would panic on valid IR (its value and
//! type enums reject metadata, label, token, `x86_mmx`, `x86_amx` and
//! target-extension types, which appear as operands, parameters, initializers and
//! aggregate elements) or has no API (value kinds, constant expressions,
//! debug-info metadata, switch/phi/branch operands, shufflevector masks, the
//! diagnostic handler, pass pipelines without a target machine); each such call
//! carries a comment saying why. Either way, all `unsafe` code lives in the private
//! `llvm` module (`src/llvm/`); the rest of the crate is `#![deny(unsafe_code)]`
//! and sees only its checked, panic-free wrappers.
//!
//! [inkwell]: https://docs.rs/inkwell

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod asm;
mod constants;
mod debuginfo;
mod function;
mod instructions;
mod intrinsics;
#[allow(unsafe_code)] // the LLVM C API; see `llvm/mod.rs`
mod llvm;
mod module;

use std::path::{Path, PathBuf};

use symtest_ir::Module;

/// Why a bitcode file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read `{}`: {source}; check that the path exists and is readable", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file does not start with the LLVM bitcode magic.
    #[error("`{}` is not LLVM bitcode (no `BC` 0xC0DE magic); compile the program with `clang-19 -emit-llvm -c -g`", path.display())]
    NotBitcode {
        /// The file.
        path: PathBuf,
    },
    /// LLVM rejected the bitcode (corrupt, truncated, or from another LLVM version).
    #[error("cannot parse `{}` as LLVM bitcode: {message}; produced by a different LLVM version? symtest reads LLVM 19 bitcode (clang-19)", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// LLVM's message (one line).
        message: String,
    },
    /// The module uses something symtest can never run.
    #[error(
        "{loc}: {what}{} is not supported by symtest; rebuild for x86-64 Linux with clang-19",
        in_function(function)
    )]
    Unsupported {
        /// The function concerned (empty for module-level constructs).
        function: String,
        /// The construct.
        what: String,
        /// Where (`file:line`, or the module's path).
        loc: String,
    },
}

fn in_function(f: &str) -> String {
    if f.is_empty() {
        String::new()
    } else {
        format!(" (in function `{f}`)")
    }
}

/// Loads and lowers the bitcode file at `path`.
pub fn load_bitcode(path: &Path) -> Result<Module, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    load_impl(&bytes, path)
}

/// Loads and lowers bitcode held in memory; `name` stands for the file in
/// messages and in [`Module::source`].
pub fn load_bitcode_bytes(bytes: &[u8], name: &str) -> Result<Module, LoadError> {
    load_impl(bytes, Path::new(name))
}

/// Loads two programs into one module for crosschecking (paper §5.5): every
/// symbol of the second but LLVM's own is renamed with
/// [`symtest_ir::SECOND_PREFIX`], so the two share nothing but the engine's
/// special functions (which the executor finds by their plain names).
pub fn load_bitcode_pair(first: &Path, second: &Path) -> Result<Module, LoadError> {
    let read = |path: &Path| {
        let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if !is_bitcode(&bytes) {
            return Err(LoadError::NotBitcode {
                path: path.to_path_buf(),
            });
        }
        Ok(bytes)
    };
    let (a, b) = (read(first)?, read(second)?);
    let context = llvm::LlvmContext::new();
    let parse = |bytes: &[u8], path: &Path| {
        let mut m = context
            .parse(bytes, &path.display().to_string())
            .map_err(|m| LoadError::Parse {
                path: path.to_path_buf(),
                message: one_line(&m),
            })?;
        llvm::prepare::prepare(&mut m);
        Ok::<_, LoadError>(m)
    };
    let mut one = parse(&a, first)?;
    let two = parse(&b, second)?;
    one.link_renamed(two, symtest_ir::SECOND_PREFIX)
        .map_err(|m| LoadError::Parse {
            path: second.to_path_buf(),
            message: format!("linking it beside {}: {}", first.display(), one_line(&m)),
        })?;
    module::lower_module(&one, &first.display().to_string())
}

/// Raw bitcode magic (`BC` 0xC0DE).
const RAW_MAGIC: [u8; 4] = [b'B', b'C', 0xC0, 0xDE];
/// Bitcode wrapper magic (0x0B17C0DE, little-endian), used on Darwin.
const WRAPPER_MAGIC: [u8; 4] = [0xDE, 0xC0, 0x17, 0x0B];

fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(&RAW_MAGIC) || bytes.starts_with(&WRAPPER_MAGIC)
}

/// Makes an LLVM message fit on one (not too long) line.
fn one_line(s: &str) -> String {
    const MAX: usize = 300;
    let parts: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let mut joined = parts.join("; ");
    if joined.len() > MAX {
        let mut cut = MAX;
        while !joined.is_char_boundary(cut) {
            cut -= 1;
        }
        joined.truncate(cut);
        joined.push_str("...");
    }
    if joined.is_empty() {
        "unknown error".into()
    } else {
        joined
    }
}

fn load_impl(bytes: &[u8], path: &Path) -> Result<Module, LoadError> {
    if !is_bitcode(bytes) {
        return Err(LoadError::NotBitcode {
            path: path.to_path_buf(),
        });
    }
    let source = path.display().to_string();
    let context = llvm::LlvmContext::new();
    let mut llvm = context
        .parse(bytes, &source)
        .map_err(|m| LoadError::Parse {
            path: path.to_path_buf(),
            message: one_line(&m),
        })?;
    llvm::prepare::prepare(&mut llvm);
    module::lower_module(&llvm, &source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_non_bitcode_and_garbage_without_panicking() {
        assert!(matches!(
            load_bitcode_bytes(b"", "empty"),
            Err(LoadError::NotBitcode { .. })
        ));
        assert!(matches!(
            load_bitcode_bytes(b"int main() {}\n", "x.c"),
            Err(LoadError::NotBitcode { .. })
        ));
        // Magic followed by garbage of many lengths and patterns.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in 0..300usize {
            let mut b = RAW_MAGIC.to_vec();
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                b.push(seed as u8);
            }
            let e = load_bitcode_bytes(&b, "garbage.bc").unwrap_err();
            assert!(matches!(e, LoadError::Parse { .. }), "{e}");
            assert!(!e.to_string().contains('\n'));
        }
        let e = load_bitcode_bytes(&WRAPPER_MAGIC, "w.bc").unwrap_err();
        assert!(matches!(e, LoadError::Parse { .. }), "{e}");
    }

    #[test]
    fn messages_are_one_line() {
        assert_eq!(one_line("a\n  b\n\n"), "a; b");
        assert_eq!(one_line("\n"), "unknown error");
        let long = one_line(&"é".repeat(400));
        assert!(long.len() <= 303 && long.ends_with("..."));
    }
}
