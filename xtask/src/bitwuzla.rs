//! Builds the static Bitwuzla that `engine/bitwuzla-link` links, offline, from the
//! source vendored in the bitwuzla-sys crate, against Debian's gmp, CaDiCaL and symfpu.
//!
//! The result is cached by version under the cache dir (outside the checkout), so a
//! second run, or a second CI run on the same machine, does not rebuild it.

use crate::{paths, util};
use anyhow::{bail, Context, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The bitwuzla-sys version the workspace depends on; its vendored source is what we build.
pub const VERSION: &str = "0.8.0";

/// Install prefix of the cached build. Keep in sync with `engine/bitwuzla-link/build.rs`.
pub fn prefix() -> PathBuf {
    paths::cache_dir().join(format!("bitwuzla-{VERSION}"))
}

const LIBS: &[&str] = &[
    "libbitwuzla.a",
    "libbitwuzlals.a",
    "libbitwuzlabb.a",
    "libbitwuzlabv.a",
];

fn is_built(prefix: &Path) -> bool {
    prefix.join("STAMP").exists() && LIBS.iter().all(|l| prefix.join("lib").join(l).exists())
}

pub fn ensure() -> Result<()> {
    let prefix = prefix();
    if is_built(&prefix) {
        eprintln!("setup: Bitwuzla {VERSION} cached at {}", prefix.display());
        return Ok(());
    }
    let started = std::time::Instant::now();
    eprintln!("setup: building Bitwuzla {VERSION} (about 80 s on 2 cores; cached afterwards)");
    let source = vendored_source()?;
    let work = paths::cache_dir().join(format!("build-bitwuzla-{VERSION}"));
    if work.exists() {
        fs::remove_dir_all(&work).with_context(|| format!("removing {}", work.display()))?;
    }
    let src = work.join("src");
    copy_dir(&source, &src)?;
    patch_gmp_version(&src)?;
    let pkgconfig = work.join("pkgconfig");
    fs::create_dir_all(&pkgconfig)?;
    // Debian ships symfpu as headers only; meson wants a pkg-config file.
    fs::write(
        pkgconfig.join("symfpu.pc"),
        "Name: symfpu\nDescription: symfpu headers\nVersion: 0.0.1\nCflags: -I/usr/include\n",
    )?;
    let staging = paths::cache_dir().join(format!("bitwuzla-{VERSION}.partial"));
    if staging.exists() {
        fs::remove_dir_all(&staging)?;
    }
    let build = work.join("build");
    let pkg_path = match std::env::var("PKG_CONFIG_PATH") {
        Ok(p) if !p.is_empty() => format!("{}:{p}", pkgconfig.display()),
        _ => pkgconfig.display().to_string(),
    };
    util::run_logged(
        Command::new("meson")
            .arg("setup")
            .arg(&build)
            .arg(&src)
            .args([
                "--wrap-mode=nodownload",
                "--buildtype=release",
                "-Ddefault_library=static",
                "-Dtesting=disabled",
                "-Dunit_testing=disabled",
                "--libdir=lib",
            ])
            .arg(format!("--prefix={}", staging.display()))
            .env("PKG_CONFIG_PATH", &pkg_path),
        &work.join("meson-setup.log"),
    )?;
    util::run_logged(
        Command::new("meson").arg("compile").arg("-C").arg(&build),
        &work.join("meson-compile.log"),
    )?;
    util::run_logged(
        Command::new("meson").arg("install").arg("-C").arg(&build),
        &work.join("meson-install.log"),
    )?;
    for lib in LIBS {
        if !staging.join("lib").join(lib).exists() {
            bail!(
                "Bitwuzla built but {lib} is missing from {}",
                staging.join("lib").display()
            );
        }
    }
    fs::write(staging.join("STAMP"), format!("bitwuzla {VERSION}\n"))?;
    if prefix.exists() {
        fs::remove_dir_all(&prefix)?;
    }
    fs::rename(&staging, &prefix)?;
    fs::remove_dir_all(&work).ok();
    eprintln!(
        "setup: Bitwuzla {VERSION} built in {:.0} s into {}",
        started.elapsed().as_secs_f64(),
        prefix.display()
    );
    Ok(())
}

/// The Bitwuzla source tree inside the bitwuzla-sys crate in cargo's registry,
/// fetched through cargo (crates.io is reachable) if not there yet.
fn vendored_source() -> Result<PathBuf> {
    if let Some(dir) = find_in_registry() {
        return Ok(dir);
    }
    util::run(
        Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .arg("fetch")
            .current_dir(paths::workspace_root()),
    )?;
    find_in_registry().with_context(|| {
        format!(
            "bitwuzla-sys-{VERSION} not found under {}/registry/src after `cargo fetch`",
            paths::cargo_home().display()
        )
    })
}

fn find_in_registry() -> Option<PathBuf> {
    let src = paths::cargo_home().join("registry").join("src");
    let mut found: Vec<PathBuf> = fs::read_dir(&src)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| {
            e.path()
                .join(format!("bitwuzla-sys-{VERSION}"))
                .join("bitwuzla")
        })
        .filter(|p| p.join("meson.build").exists())
        .collect();
    found.sort();
    found.into_iter().next()
}

fn patch_gmp_version(src: &Path) -> Result<()> {
    let file = src.join("src").join("meson.build");
    let text = fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    // Debian bookworm has gmp 6.2.1; Bitwuzla works with it.
    let patched = text.replace("version: '>=6.3'", "version: '>=6.2'");
    fs::write(&file, patched)?;
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    for entry in fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_symlink() {
            let link = fs::read_link(entry.path())?;
            std::os::unix::fs::symlink(link, &target)?;
        } else {
            fs::copy(entry.path(), &target)
                .with_context(|| format!("copying {}", entry.path().display()))?;
        }
    }
    Ok(())
}
