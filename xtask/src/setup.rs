//! `cargo xtask setup`: installs the system packages symtest needs and builds Bitwuzla.
//!
//! Idempotent: a second run finds everything present and does nothing.

use crate::{bitwuzla, libc, util};
use anyhow::{bail, Context, Result};
use std::process::Command;

/// Debian packages the project needs, with what each is for.
pub const PACKAGES: &[(&str, &str)] = &[
    ("clang-19", "compiles C under test to LLVM bitcode"),
    (
        "llvm-19-dev",
        "LLVM 19 libraries the loader links (inkwell/llvm-sys)",
    ),
    ("libpolly-19-dev", "named on LLVM 19's static link line"),
    ("libzstd-dev", "LLVM link dependency"),
    ("zlib1g-dev", "LLVM link dependency"),
    ("libffi-dev", "LLVM link dependency"),
    ("g++", "builds Bitwuzla"),
    ("meson", "builds Bitwuzla"),
    ("ninja-build", "builds Bitwuzla"),
    ("pkg-config", "builds Bitwuzla"),
    ("libgmp-dev", "Bitwuzla dependency (linked statically)"),
    (
        "libcadical-dev",
        "Bitwuzla's SAT solver (linked statically)",
    ),
    ("libsymfpu-dev", "Bitwuzla's floating-point headers"),
    (
        "libclang-rt-19-dev",
        "sanitizer runtimes for native replay of tests",
    ),
    ("gcc", "native builds of generated tests"),
    ("make", "native regression suites"),
    (
        "dpkg-dev",
        "`apt-get source musl` (the libc compiled to bitcode)",
    ),
    ("gcovr", "coverage reports"),
    (
        "musl-tools",
        "musl-gcc: native whole-program replay against the same libc as the engine",
    ),
    ("cmake", "tests build emitted regression suites with CMake"),
    (
        "python3-jsonschema",
        "tests validate SARIF output against its JSON schema",
    ),
];

/// What `cargo xtask bench projects` needs beyond [`PACKAGES`] to build the
/// Debian source packages it captures (their build dependencies), installed
/// by that benchmark.
pub const PROJECT_PACKAGES: &[(&str, &str)] = &[
    (
        "autoconf",
        "jq, libyaml, lua5.4: autoreconf (Debian's dh_autoreconf)",
    ),
    ("automake", "jq, libyaml: autoreconf"),
    ("libtool", "jq, libyaml, lua5.4, sqlite3: libtool builds"),
    (
        "bison",
        "jq's parser, gawk's grammar (as Debian builds them)",
    ),
    ("flex", "jq's lexer"),
    (
        "libonig-dev",
        "jq's regular expressions (Debian configures jq with it)",
    ),
    (
        "tcl8.6-dev",
        "sqlite3: tclsh generates sources; --with-tcl as Debian's rules",
    ),
    (
        "libreadline-dev",
        "lua5.4 (linux-readline, as Debian's rules)",
    ),
];

/// Everything `cargo xtask setup` does; other commands call this first.
pub fn ensure() -> Result<()> {
    ensure_packages()?;
    verify_versions()?;
    bitwuzla::ensure()?;
    libc::ensure()?;
    Ok(())
}

fn missing_packages(packages: &[(&'static str, &str)]) -> Result<Vec<&'static str>> {
    if util::output("dpkg-query", &["--version"]).is_none() {
        bail!(
            "dpkg-query not found: symtest's setup supports Debian/Ubuntu only.\n\
             fix: install these packages with your system's package manager: {}",
            packages.iter().map(|p| p.0).collect::<Vec<_>>().join(" ")
        );
    }
    let mut missing = Vec::new();
    for (pkg, _) in packages {
        let status = util::output("dpkg-query", &["-W", "-f=${Status}", pkg]).unwrap_or_default();
        if !status.contains("install ok installed") {
            missing.push(*pkg);
        }
    }
    Ok(missing)
}

fn ensure_packages() -> Result<()> {
    ensure_these(PACKAGES)
}

/// Installs those of `packages` that are missing (as root, else the error
/// names the `apt-get` command).
pub fn ensure_these(packages: &[(&'static str, &str)]) -> Result<()> {
    let missing = missing_packages(packages)?;
    if missing.is_empty() {
        eprintln!("setup: all {} system packages present", packages.len());
        return Ok(());
    }
    let list = missing.join(" ");
    if !util::is_root() {
        bail!(
            "missing system packages: {list}\n\
             fix: sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends {list}"
        );
    }
    eprintln!("setup: installing {list}");
    util::run(
        Command::new("apt-get")
            .arg("update")
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
    .context("apt-get update failed (is a package mirror reachable?)")?;
    util::run(
        Command::new("apt-get")
            .args(["install", "-y", "--no-install-recommends"])
            .args(&missing)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )?;
    let still = missing_packages(packages)?;
    if !still.is_empty() {
        bail!(
            "apt-get finished but these packages are still missing: {}",
            still.join(" ")
        );
    }
    Ok(())
}

fn verify_versions() -> Result<()> {
    let clang = util::output("clang-19", &["--version"]).unwrap_or_default();
    if !clang.contains("version 19.") {
        bail!(
            "clang-19 --version did not report version 19 (got: {:?})\n\
             fix: apt-get install clang-19",
            clang.lines().next().unwrap_or("nothing")
        );
    }
    let llvm = util::output("/usr/lib/llvm-19/bin/llvm-config", &["--version"]).unwrap_or_default();
    if !llvm.starts_with("19.") {
        bail!(
            "/usr/lib/llvm-19/bin/llvm-config --version did not report 19.x (got: {:?})\n\
             fix: apt-get install llvm-19-dev",
            llvm.trim()
        );
    }
    for tool in [
        "llvm-link-19",
        "dpkg-source",
        "llvm-dis-19",
        "llvm-as-19",
        "llvm-cov-19",
        "opt-19",
        "llvm-nm-19",
        "gcov",
        "gcovr",
        "meson",
        "ninja",
    ] {
        if util::output("which", &[tool]).is_none() {
            bail!("`{tool}` is not on PATH although its package is installed\nfix: reinstall the package providing {tool}");
        }
    }
    eprintln!(
        "setup: clang {} / LLVM {}",
        clang_version(&clang),
        llvm.trim()
    );
    Ok(())
}

fn clang_version(text: &str) -> &str {
    text.split_whitespace()
        .skip_while(|w| *w != "version")
        .nth(1)
        .unwrap_or("?")
}
