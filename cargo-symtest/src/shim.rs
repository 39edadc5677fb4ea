//! The failure-injection shim (`libc-models/replay/symtest_fail.c`, with the
//! model's world in `symtest_world.c` and what they share in `symtest_fail.h`),
//! built on first use into the cache
//! (`<cache>/replay-shim/<hash>/libsymtest_fail.so`) with
//! `$SYMTEST_CLANG`/clang-19, or `cc` when clang is missing.  The hash covers
//! the sources and the compiler, so an edited shim is rebuilt.

use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The shim's files in `libc-models/replay/`: the sources compiled (the
/// `.c` files), and the header they share.
const SHIM_FILES: &[&str] = &["symtest_fail.c", "symtest_world.c", "symtest_fail.h"];

/// Flags for a freestanding shared object that uses no libc function.
const SHIM_FLAGS: &[&str] = &[
    "-shared",
    "-fPIC",
    "-O2",
    "-nostdlib",
    "-ffreestanding",
    "-fno-stack-protector",
    "-fno-builtin",
];

fn fnv1a(data: &[u8], mut h: u64) -> u64 {
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

fn compilers() -> Vec<OsString> {
    let mut v = vec![symtest_project::toolchain::clang()];
    v.push(OsString::from("cc"));
    v
}

/// The path of the built shim, building it if needed.
pub fn shim(models_dir: &Path) -> Result<PathBuf> {
    let replay = models_dir.join("replay");
    let mut hash = 0xcbf2_9ce4_8422_2325;
    for name in SHIM_FILES {
        let path = replay.join(name);
        let text = std::fs::read(&path)
            .with_context(|| format!("cannot read the replay shim source {}", path.display()))?;
        hash = fnv1a(&text, fnv1a(name.as_bytes(), hash));
    }
    let srcs: Vec<PathBuf> = SHIM_FILES
        .iter()
        .filter(|n| n.ends_with(".c"))
        .map(|n| replay.join(n))
        .collect();
    let shown = srcs
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let mut errors = Vec::new();
    for cc in compilers() {
        let key = fnv1a(cc.as_encoded_bytes(), hash);
        let dir = symtest_project::paths::cache_dir()
            .join("replay-shim")
            .join(format!("{key:016x}"));
        let so = dir.join("libsymtest_fail.so");
        if so.is_file() {
            return Ok(so);
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let tmp = dir.join(format!("libsymtest_fail.so.{}.tmp", std::process::id()));
        let out = Command::new(&cc)
            .args(SHIM_FLAGS)
            .args(&srcs)
            .arg("-o")
            .arg(&tmp)
            .stdin(Stdio::null())
            .output();
        match out {
            Ok(o) if o.status.success() => {
                std::fs::rename(&tmp, &so)
                    .with_context(|| format!("cannot move the shim to {}", so.display()))?;
                return Ok(so);
            }
            Ok(o) => {
                let _ = std::fs::remove_file(&tmp);
                errors.push(format!(
                    "{} {}: {}",
                    cc.to_string_lossy(),
                    shown,
                    String::from_utf8_lossy(&o.stderr).trim_end()
                ))
            }
            Err(e) => errors.push(format!("{}: {e}", cc.to_string_lossy())),
        }
    }
    bail!(
        "cannot build the replay shim (install clang-19 or a C compiler):\n{}",
        errors.join("\n")
    )
}
