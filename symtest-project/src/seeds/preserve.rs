//! What the project's test command may not change: the C sources and
//! headers under the project's root, as the build left them. The module was
//! explored as built from them, and the native build (coverage, minimizing,
//! the emitted suite) compiles them again; a test command that regenerates
//! a header with another configuration (a `test` target that builds one
//! command of a multi-call program, a check that reconfigures) would make
//! every native run disagree with the engine. Each such file is put back,
//! and the caller warns, naming them.

use std::path::{Path, PathBuf};

/// The extensions of the files kept: C sources, headers and the fragments
/// they include.
const KEPT: &[&str] = &["c", "h", "inc", "def"];

/// The kept files under a root, with their contents.
pub struct Snapshot {
    files: Vec<(PathBuf, Vec<u8>)>,
}

/// Whether `path` is a file [`take`] keeps.
fn kept(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| KEPT.contains(&e))
}

/// The kept files under `root` (but under `skip`, symtest's own outputs,
/// and version-control directories), read now.
pub fn take(root: &Path, skip: &[&Path]) -> Snapshot {
    let walk = walkdir::WalkDir::new(root).follow_links(false).into_iter();
    let files = walk
        .filter_entry(|e| {
            let vcs =
                e.depth() > 0 && matches!(e.file_name().to_str(), Some(".git" | ".hg" | ".svn"));
            !vcs && !skip.iter().any(|s| e.path() == *s)
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && kept(e.path()))
        .filter_map(|e| {
            let bytes = std::fs::read(e.path()).ok()?;
            Some((e.into_path(), bytes))
        })
        .collect();
    Snapshot { files }
}

impl Snapshot {
    /// Puts back each file whose contents changed or that was removed since
    /// [`take`]; the files put back (or that could not be, with why).
    pub fn restore(self) -> Vec<(PathBuf, Option<String>)> {
        let mut out = Vec::new();
        for (path, bytes) in self.files {
            if std::fs::read(&path).is_ok_and(|now| now == bytes) {
                continue;
            }
            let failed = std::fs::write(&path, &bytes).err().map(|e| e.to_string());
            out.push((path, failed));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_and_removed_sources_are_put_back() {
        let dir = std::env::temp_dir().join(format!("symtest-preserve-{}", std::process::id()));
        let out = dir.join("symtest-out");
        std::fs::create_dir_all(dir.join("gen")).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(dir.join("gen/config.h"), "#define MULTI 1\n").unwrap();
        std::fs::write(dir.join("main.c"), "int main(void) { return 0; }\n").unwrap();
        std::fs::write(dir.join("same.h"), "int x;\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "before\n").unwrap();
        std::fs::write(out.join("own.c"), "before\n").unwrap();
        let snap = take(&dir, &[out.as_path()]);
        std::fs::write(dir.join("gen/config.h"), "#define MULTI 0\n").unwrap();
        std::fs::remove_file(dir.join("main.c")).unwrap();
        std::fs::write(dir.join("same.h"), "int x;\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "after\n").unwrap();
        std::fs::write(dir.join("new.c"), "int y;\n").unwrap();
        std::fs::write(out.join("own.c"), "after\n").unwrap();
        let mut back: Vec<_> = snap
            .restore()
            .into_iter()
            .map(|(p, e)| (p, e.is_none()))
            .collect();
        back.sort();
        assert_eq!(
            back,
            vec![(dir.join("gen/config.h"), true), (dir.join("main.c"), true)]
        );
        let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
        assert_eq!(read("gen/config.h"), "#define MULTI 1\n");
        assert_eq!(read("main.c"), "int main(void) { return 0; }\n");
        assert_eq!(read("notes.txt"), "after\n");
        assert_eq!(read("new.c"), "int y;\n");
        assert_eq!(read("symtest-out/own.c"), "after\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
