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

/// The cache for toolchain artefacts (see `libc_key::cache_dir`).
pub fn cache_dir() -> PathBuf {
    crate::libc_key::cache_dir()
}

/// `$CARGO_HOME`, else `~/.cargo`.
pub fn cargo_home() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_HOME") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
    PathBuf::from(home).join(".cargo")
}
