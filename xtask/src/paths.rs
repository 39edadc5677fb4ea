//! Where things live: the workspace root and the cache outside the checkout.

use std::path::PathBuf;

/// The workspace root (the parent of `xtask/`).
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
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

/// `$CARGO_HOME`, else `~/.cargo`.
pub fn cargo_home() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_HOME") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
    PathBuf::from(home).join(".cargo")
}
