//! Paths and atomic replacement of files and directories.

use anyhow::{Context, Result};
use std::path::{Component, Path, PathBuf};

/// `path` relative to the directory `base` (both absolute), with `..` where needed.
pub fn relative(path: &Path, base: &Path) -> PathBuf {
    let p: Vec<Component> = path.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c.as_os_str());
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// Replaces directory `dest` by `staging` (a sibling): the old contents stay
/// complete until the new ones are in place.
pub fn replace_dir(staging: &Path, dest: &Path) -> Result<()> {
    let old = dest.with_file_name(format!(
        ".{}.old~",
        dest.file_name()
            .map_or("dir".into(), |n| n.to_string_lossy())
    ));
    let _ = std::fs::remove_dir_all(&old);
    if dest.exists() {
        std::fs::rename(dest, &old).with_context(|| format!("moving {} aside", dest.display()))?;
    }
    std::fs::rename(staging, dest)
        .with_context(|| format!("moving {} to {}", staging.display(), dest.display()))?;
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}

/// Copies the directory `from` (regular files and subdirectories) to `to`.
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for e in walkdir::WalkDir::new(from).sort_by_file_name() {
        let e = e.with_context(|| format!("reading {}", from.display()))?;
        let rel = e.path().strip_prefix(from).unwrap_or(e.path());
        let dest = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest)
                .with_context(|| format!("creating {}", dest.display()))?;
        } else if e.file_type().is_file() {
            std::fs::copy(e.path(), &dest)
                .with_context(|| format!("copying {} to {}", e.path().display(), dest.display()))?;
        }
    }
    Ok(())
}

/// Writes a file through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    let tmp = path.with_extension("tmp~");
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::relative;
    use std::path::Path;

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative(Path::new("/a/src/x.c"), Path::new("/a/tests/symtest/t")),
            Path::new("../../../src/x.c")
        );
        assert_eq!(
            relative(Path::new("/a/b"), Path::new("/a/b")),
            Path::new(".")
        );
    }
}
