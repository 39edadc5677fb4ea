//! Debian source packages, fetched once with `apt-get source` through a
//! private sources list and lists directory (the machine's apt configuration
//! is not touched) and cached unpacked under the cache directory.

use crate::{paths, util};
use anyhow::{bail, Context, Result};
use std::fs;
use std::path::{Path, PathBuf};
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

/// A private apt configuration for bookworm's `main` sources: its own
/// sources list and lists directory under the cache, updated once.
pub struct Apt {
    dir: PathBuf,
    sources: PathBuf,
    lists: PathBuf,
}

/// The source index an [`Apt`] fetched.
pub struct Index {
    /// The `Sources` file, decompressed.
    pub text: String,
    /// The release's `Date` and `Version` (from `InRelease`).
    pub date: String,
    pub version: String,
}

impl Apt {
    /// A fresh configuration in `~/.cache/symtest/apt-src-<tag>-<pid>`
    /// (private to this process: concurrent runs must not share apt's
    /// lists), after `apt-get update`.
    pub fn new(tag: &str) -> Result<Apt> {
        let dir = paths::cache_dir().join(format!("apt-src-{tag}-{}", std::process::id()));
        let lists = dir.join("lists");
        fs::create_dir_all(lists.join("partial"))?;
        let sources = dir.join("sources.list");
        fs::write(
            &sources,
            "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] \
             http://deb.debian.org/debian bookworm main\n",
        )?;
        let apt = Apt {
            dir,
            sources,
            lists,
        };
        let mut update = apt.command();
        update.arg("update");
        util::run_logged(&mut update, &apt.dir.join("update.log")).with_context(|| {
            format!("fetching the Debian source index for {tag} (is deb.debian.org reachable?)")
        })?;
        Ok(apt)
    }

    /// `apt-get` with this configuration.
    fn command(&self) -> Command {
        let mut c = Command::new("apt-get");
        c.arg("-o")
            .arg(format!("Dir::Etc::SourceList={}", self.sources.display()))
            .arg("-o")
            .arg("Dir::Etc::SourceParts=-")
            .arg("-o")
            .arg(format!("Dir::State::Lists={}", self.lists.display()))
            .arg("-o")
            .arg("APT::Sandbox::User=root");
        c
    }

    /// The `Sources` index the update fetched, decompressed with apt's own
    /// helper, and its release's date and version.
    pub fn index(&self) -> Result<Index> {
        let mut sources = None;
        let mut release = None;
        for e in fs::read_dir(&self.lists)?.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.contains("_main_source_Sources") {
                sources = Some(e.path());
            } else if name.ends_with("_InRelease") || name.ends_with("_Release") {
                release = Some(e.path());
            }
        }
        let sources = sources.context("apt-get update fetched no Sources index")?;
        let out = Command::new("/usr/lib/apt/apt-helper")
            .arg("cat-file")
            .arg(&sources)
            .output()
            .context("running /usr/lib/apt/apt-helper cat-file")?;
        if !out.status.success() {
            bail!(
                "apt-helper cat-file {} failed: {}",
                sources.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let rel = release
            .map(|r| fs::read_to_string(r).unwrap_or_default())
            .unwrap_or_default();
        let field = |k: &str| {
            rel.lines()
                .find_map(|l| l.strip_prefix(k))
                .map(|v| v.trim().to_string())
                .unwrap_or_default()
        };
        Ok(Index {
            text,
            date: field("Date:"),
            version: field("Version:"),
        })
    }

    /// `apt-get source PACKAGE=VERSION` in a fresh directory under this
    /// configuration's: the directory it unpacked and the `.dsc` beside it.
    pub fn source(&self, package: &str, version: &str) -> Result<(PathBuf, PathBuf)> {
        let fetch = self.dir.join(format!("fetch-{package}"));
        if fetch.exists() {
            fs::remove_dir_all(&fetch)?;
        }
        fs::create_dir_all(&fetch)?;
        let mut source = self.command();
        source
            .arg("source")
            .arg(format!("{package}={version}"))
            .current_dir(&fetch);
        util::run_logged(&mut source, &self.dir.join(format!("source-{package}.log")))
            .with_context(|| format!("`apt-get source {package}={version}` failed"))?;
        let mut dirs = Vec::new();
        let mut dsc = None;
        for e in fs::read_dir(&fetch)?.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "dsc") {
                dsc = Some(p);
            }
        }
        match (dirs.as_slice(), dsc) {
            ([d], Some(dsc)) => Ok((d.clone(), dsc)),
            _ => bail!(
                "apt-get source {package}={version} unpacked {} directories (expected one, \
                 beside a .dsc)",
                dirs.len()
            ),
        }
    }

    /// Removes the configuration (its lists and fetches).
    pub fn finish(self) {
        fs::remove_dir_all(&self.dir).ok();
    }
}

/// A source package of the corpus, cached: `~/.cache/symtest/corpus/src/
/// <package>_<version>/` holds the unpacked `tree/` and its `source.dsc`.
pub struct Cached {
    pub tree: PathBuf,
    pub dsc: PathBuf,
}

/// Where [`fetch_cached`] keeps `package` at `version`.
pub fn cached_dir(package: &str, version: &str) -> PathBuf {
    paths::cache_dir()
        .join("corpus")
        .join("src")
        .join(format!("{package}_{}", version.replace(':', "%3a")))
}

/// The cached source of `package` at `version`, fetched with `apt` (a new
/// [`Apt`] when `None`) unless the cache has it.
pub fn fetch_cached(apt: Option<&Apt>, package: &str, version: &str) -> Result<Cached> {
    let dir = cached_dir(package, version);
    let cached = Cached {
        tree: dir.join("tree"),
        dsc: dir.join("source.dsc"),
    };
    if dir.join(".complete").exists() {
        return Ok(cached);
    }
    let Some(apt) = apt else {
        let own = Apt::new(package)?;
        let got = fetch_cached(Some(&own), package, version);
        own.finish();
        return got;
    };
    let (tree, dsc) = apt.source(package, version)?;
    if dir.exists() {
        fs::remove_dir_all(&dir)?;
    }
    fs::create_dir_all(&dir)?;
    fs::copy(&dsc, &cached.dsc)?;
    move_dir(&tree, &cached.tree)?;
    fs::write(dir.join(".complete"), "")?;
    if let Some(parent) = tree.parent() {
        fs::remove_dir_all(parent).ok();
    }
    Ok(cached)
}

/// Renames `from` to `to`, or copies it where the two are on different file
/// systems.
fn move_dir(from: &Path, to: &Path) -> Result<()> {
    if fs::rename(from, to).is_ok() {
        return Ok(());
    }
    util::run(Command::new("cp").arg("-a").arg(from).arg(to))
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
    let apt = Apt::new(package)?;
    let fetch = apt.dir.join("fetch");
    if fetch.exists() {
        fs::remove_dir_all(&fetch)?;
    }
    fs::create_dir_all(&fetch)?;
    let mut source = apt.command();
    source.arg("source");
    if tar_only {
        source.arg("--tar-only");
    }
    source
        .arg(format!("{package}={version}"))
        .current_dir(&fetch);
    util::run_logged(&mut source, &apt.dir.join("source.log"))
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
    apt.finish();
    Ok(dir)
}
