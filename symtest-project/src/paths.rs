//! Where symtest's own files are.

use std::path::PathBuf;

/// The `libc-models` directory (headers, replay runtime, model sources):
/// `$SYMTEST_MODELS_DIR`, else the one in the source tree this binary was built from.
pub fn models_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("SYMTEST_MODELS_DIR") {
        return PathBuf::from(d);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(|p| p.join("libc-models"))
        .unwrap_or_else(|| PathBuf::from("libc-models"))
}

/// The directory of serial OpenMP's `omp.h` (and its routines, `omp.c`):
/// the header the compiles of code built with `-fopenmp` find.
pub fn openmp_dir() -> PathBuf {
    models_dir().join("openmp")
}

/// symtest's cache: `$SYMTEST_CACHE_DIR`, else `$XDG_CACHE_HOME/symtest`, else
/// `~/.cache/symtest` (the same rule as xtask/src/paths.rs).
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("SYMTEST_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("symtest");
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
    PathBuf::from(home).join(".cache").join("symtest")
}
