//! Debian source packages, fetched once with `apt-get source` through a
//! private sources list and lists directory (the machine's apt configuration
//! is not touched) and cached unpacked under the cache directory.

use crate::{paths, util};
use anyhow::{bail, Context, Result};
use std::fs;
use std::path::PathBuf;
use std::process::Command;

/// `~/.cache/symtest/<unpacked>-src`: the source of `package` at `version`
/// (Debian's, with its patches applied), unpacked by `apt-get source` into a
/// directory named `unpacked`; `marker` is a file of the tree that proves it
/// complete.
pub fn fetch(package: &str, version: &str, unpacked: &str, marker: &str) -> Result<PathBuf> {
    fetch_with(package, version, unpacked, marker, false)
}

/// Like [`fetch`], for a package whose Debian packaging (`.debian.tar.xz`)
/// the mirror does not serve: the upstream tarball alone (`apt-get source
/// --tar-only`), unpacked with `tar`, without Debian's patches.
pub fn fetch_upstream(
    package: &str,
    version: &str,
    unpacked: &str,
    marker: &str,
) -> Result<PathBuf> {
    fetch_with(package, version, unpacked, marker, true)
}

fn fetch_with(
    package: &str,
    version: &str,
    unpacked: &str,
    marker: &str,
    tar_only: bool,
) -> Result<PathBuf> {
    let dir = paths::cache_dir().join(format!("{unpacked}-src"));
    if dir.join(marker).exists() {
        return Ok(dir);
    }
    // Private to this process: concurrent setups must not share apt's lists.
    let apt = paths::cache_dir().join(format!("apt-src-{package}-{}", std::process::id()));
    let lists = apt.join("lists");
    fs::create_dir_all(lists.join("partial"))?;
    let sources = apt.join("sources.list");
    fs::write(
        &sources,
        "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] \
         http://deb.debian.org/debian bookworm main\n",
    )?;
    let opts = |c: &mut Command| {
        c.arg("-o")
            .arg(format!("Dir::Etc::SourceList={}", sources.display()))
            .arg("-o")
            .arg("Dir::Etc::SourceParts=-")
            .arg("-o")
            .arg(format!("Dir::State::Lists={}", lists.display()))
            .arg("-o")
            .arg("APT::Sandbox::User=root");
    };
    let mut update = Command::new("apt-get");
    opts(&mut update);
    update.arg("update");
    util::run_logged(&mut update, &apt.join("update.log")).with_context(|| {
        format!("fetching the Debian source index for {package} (is deb.debian.org reachable?)")
    })?;
    let fetch = apt.join("fetch");
    if fetch.exists() {
        fs::remove_dir_all(&fetch)?;
    }
    fs::create_dir_all(&fetch)?;
    let mut source = Command::new("apt-get");
    opts(&mut source);
    source.arg("source");
    if tar_only {
        source.arg("--tar-only");
    }
    source
        .arg(format!("{package}={version}"))
        .current_dir(&fetch);
    util::run_logged(&mut source, &apt.join("source.log"))
        .with_context(|| format!("`apt-get source {package}` failed (dpkg-dev installed?)"))?;
    if tar_only {
        for e in fs::read_dir(&fetch)?.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.contains(".orig.tar.") {
                util::run(Command::new("tar").arg("xf").arg(&name).current_dir(&fetch))?;
            }
        }
    }
    let tree = fetch.join(unpacked);
    if !tree.join(marker).exists() {
        bail!("apt-get source {package} did not unpack {}", tree.display());
    }
    if !dir.join(marker).exists() {
        if dir.exists() {
            fs::remove_dir_all(&dir)?;
        }
        if fs::rename(&tree, &dir).is_err() && !dir.join(marker).exists() {
            bail!("could not move the {package} source into {}", dir.display());
        }
    }
    fs::remove_dir_all(&apt).ok();
    Ok(dir)
}
