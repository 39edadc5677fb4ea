//! Link-only crate: its build script links the static Bitwuzla that
//! `cargo xtask setup` builds. Depend on it next to `bitwuzla-sys`.
