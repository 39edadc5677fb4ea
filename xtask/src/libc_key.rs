//! Where the libc runtime (musl as bitcode + the POSIX model) lives in the cache, and
//! the key that names it. Shared by `xtask` (which builds it) and `cargo-symtest`
//! (which links programs against it), so both agree on the directory.

use std::path::{Path, PathBuf};

/// The musl release Debian bookworm's source package carries.
pub const MUSL_VERSION: &str = "1.2.3";

/// Flags every musl source file is compiled with (besides include paths).
pub const MUSL_CFLAGS: &[&str] = &[
    "-std=c99",
    "-nostdinc",
    "-ffreestanding",
    // No -frounding-math (musl's default): it turns floating point into
    // constrained intrinsics. No PIC: it turns switch tables into llvm.load.relative.
    "-fno-pic",
    "-D_XOPEN_SOURCE=700",
    "-fno-stack-protector",
    "-fno-strict-aliasing",
    "-Werror=implicit-function-declaration",
    "-Werror=implicit-int",
    "-Werror=int-conversion",
    "-Wno-everything",
    "-emit-llvm",
    "-c",
    "-g",
    "-O1",
];

/// musl files that read strings a machine word at a time when `__GNUC__` is
/// defined (reading past the terminating NUL within an aligned word, which the
/// engine reports as out of bounds): compiled with `-U__GNUC__`, byte by byte.
pub const BYTEWISE_FILES: &[&str] = &[
    "src/string/memccpy.c",
    "src/string/memchr.c",
    "src/string/stpcpy.c",
    "src/string/stpncpy.c",
    "src/string/strchrnul.c",
    "src/string/strlcpy.c",
    "src/string/strlen.c",
    "src/multibyte/mbsrtowcs.c",
];

/// Flags of the POSIX model sources (libc-models/posix), compiled against musl's headers.
pub const MODEL_CFLAGS: &[&str] = &[
    "-std=gnu11",
    "-nostdinc",
    "-fno-pic",
    "-ffreestanding",
    "-fno-stack-protector",
    "-Wall",
    "-Werror=implicit-function-declaration",
    "-emit-llvm",
    "-c",
    "-g",
    "-O1",
];

/// The musl build (libc.bc, include/) for the patches under `models`
/// (the `libc-models` directory): `musl-<version>-<key>`, where the key hashes the
/// version, the flags and every file of `libc-models/musl`.
pub fn musl_dir(cache: &Path, models: &Path) -> std::io::Result<PathBuf> {
    Ok(cache.join(format!("musl-{MUSL_VERSION}-{:016x}", musl_key(models)?)))
}

/// The runtime (runtime.bc = musl + the POSIX model, entry.bc, include/):
/// `runtime-<key>`, where the key also hashes every file of `libc-models/posix`
/// and `libc-models/openmp`,
/// so any change to our patches or models selects a new build.
pub fn runtime_dir(cache: &Path, models: &Path) -> std::io::Result<PathBuf> {
    let mut h = Fnv::new();
    h.write(&musl_key(models)?.to_le_bytes());
    for f in MODEL_CFLAGS {
        h.write(f.as_bytes());
        h.write(&[0]);
    }
    hash_dir(&mut h, models, "posix")?;
    hash_dir(&mut h, models, "openmp")?;
    Ok(cache.join(format!("runtime-musl-{MUSL_VERSION}-{:016x}", h.0)))
}

fn musl_key(models: &Path) -> std::io::Result<u64> {
    let mut h = Fnv::new();
    h.write(MUSL_VERSION.as_bytes());
    for f in MUSL_CFLAGS.iter().chain(BYTEWISE_FILES) {
        h.write(f.as_bytes());
        h.write(&[0]);
    }
    hash_dir(&mut h, models, "musl")?;
    Ok(h.0)
}

fn hash_dir(h: &mut Fnv, models: &Path, dir: &str) -> std::io::Result<()> {
    let mut files = Vec::new();
    collect(&models.join(dir), &mut files)?;
    files.sort();
    for f in files {
        let rel = f.strip_prefix(models).unwrap_or(&f);
        h.write(rel.to_string_lossy().as_bytes());
        h.write(&[0]);
        h.write(&std::fs::read(&f)?);
        h.write(&[0]);
    }
    Ok(())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let p = entry.path();
        if entry.file_type()?.is_dir() {
            collect(&p, out)?;
        } else {
            out.push(p);
        }
    }
    Ok(())
}

/// FNV-1a, 64 bits: stable across Rust versions (unlike `DefaultHasher`).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The cache for toolchain artefacts, outside any checkout so CI runs share it:
/// `$SYMTEST_CACHE_DIR`, else `$XDG_CACHE_HOME/symtest`, else `~/.cache/symtest`.
/// Keep in sync with `engine/bitwuzla-link/build.rs`.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SYMTEST_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("symtest");
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
    PathBuf::from(home).join(".cache").join("symtest")
}
