//! Links the static Bitwuzla built by `cargo xtask setup`.
//!
//! The prefix is `$SYMTEST_BITWUZLA_PREFIX`, else `<cache>/bitwuzla-0.8.0` where
//! `<cache>` is `$SYMTEST_CACHE_DIR`, `$XDG_CACHE_HOME/symtest` or `~/.cache/symtest`
//! (the same rule as `xtask/src/paths.rs`).

use std::path::PathBuf;

const VERSION: &str = "0.8.0";

fn prefix() -> PathBuf {
    if let Some(p) = std::env::var_os("SYMTEST_BITWUZLA_PREFIX") {
        return PathBuf::from(p);
    }
    let cache = if let Some(dir) = std::env::var_os("SYMTEST_CACHE_DIR") {
        PathBuf::from(dir)
    } else if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        PathBuf::from(dir).join("symtest")
    } else {
        let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
        PathBuf::from(home).join(".cache").join("symtest")
    };
    cache.join(format!("bitwuzla-{VERSION}"))
}

fn main() {
    for var in [
        "SYMTEST_BITWUZLA_PREFIX",
        "SYMTEST_CACHE_DIR",
        "XDG_CACHE_HOME",
        "HOME",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let prefix = prefix();
    let lib = prefix.join("lib");
    println!(
        "cargo:rerun-if-changed={}",
        lib.join("libbitwuzla.a").display()
    );
    if !lib.join("libbitwuzla.a").exists() {
        eprintln!(
            "error: static Bitwuzla {VERSION} not found in {}\nfix: run `cargo xtask setup` (it builds and caches it)",
            lib.display()
        );
        std::process::exit(1);
    }
    println!("cargo:rustc-link-search=native={}", lib.display());
    println!("cargo:rustc-link-search=native=/usr/lib/x86_64-linux-gnu");
    for l in ["bitwuzla", "bitwuzlals", "bitwuzlabb", "bitwuzlabv"] {
        println!("cargo:rustc-link-lib=static={l}");
    }
    println!("cargo:rustc-link-lib=static=cadical");
    println!("cargo:rustc-link-lib=static=gmp");
    println!("cargo:rustc-link-lib=dylib=stdc++");
    println!("cargo:include={}", prefix.join("include").display());
}
