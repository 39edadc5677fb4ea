//! The system libraries a library says it needs in the pkg-config file its
//! build made (`readline.pc`: `Requires.private: tinfo`). A shared library
//! may be linked with none of them (the symbols it leaves undefined are the
//! program's to bring), so its link record names nothing; a native build of
//! the library's own harness must link them. `pkg-config --static --libs`
//! reads them from the file, the project's other `.pc` files found first.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Directories this deep below the root are searched for `.pc` files.
const MAX_DEPTH: usize = 4;

/// At most this many directories are searched.
const MAX_DIRS: usize = 4000;

/// The `.pc` files of the tree at `root` (hidden directories and symtest's
/// own output left out), in path order.
fn pc_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![(root.to_path_buf(), 0usize)];
    let mut seen = 0usize;
    while let Some((dir, depth)) = todo.pop() {
        seen += 1;
        if seen > MAX_DIRS {
            break;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                if depth < MAX_DEPTH && !name.starts_with('.') && name != "symtest-out" {
                    todo.push((e.path(), depth + 1));
                }
            } else if kind.is_file() && name.ends_with(".pc") {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// Whether the `.pc` text's `Libs:` line links `-l<name>`.
fn links(text: &str, name: &str) -> bool {
    let flag = format!("-l{name}");
    text.lines()
        .filter_map(|l| l.strip_prefix("Libs:"))
        .any(|l| l.split_whitespace().any(|w| w == flag))
}

/// The `-l` name of a library file's stem (`readline` of `libreadline`).
fn link_name(stem: &str) -> &str {
    stem.strip_prefix("lib").unwrap_or(stem)
}

/// The words of `pkg-config --static --libs` for `pc` (None when it fails:
/// a package it requires is not installed), with the directories of all of
/// the project's `.pc` files searched first.
fn pkg_config(pc: &Path, dirs: &[PathBuf]) -> Option<Vec<String>> {
    let mut path: Vec<PathBuf> = dirs.to_vec();
    if let Some(old) = std::env::var_os("PKG_CONFIG_PATH") {
        path.extend(std::env::split_paths(&old));
    }
    let o = Command::new("pkg-config")
        .args(["--static", "--libs"])
        .arg(pc)
        .env("PKG_CONFIG_PATH", std::env::join_paths(path).ok()?)
        .output()
        .ok()?;
    o.status.success().then(|| {
        String::from_utf8_lossy(&o.stdout)
            .split_whitespace()
            .map(str::to_string)
            .collect()
    })
}

/// The `-l` words of the `Libs:` and `Libs.private:` lines without variables
/// (what the file says when pkg-config cannot resolve what it requires).
fn written_libs(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("Libs:").or(l.strip_prefix("Libs.private:")))
        .flat_map(str::split_whitespace)
        .filter(|w| w.starts_with("-l") && !w.contains('$'))
        .map(str::to_string)
        .collect()
}

/// The system libraries (`-ltinfo`, `-pthread`) the pkg-config file of the
/// library of stem `stem` names, in its order; `project` are the stems of
/// the project's libraries (itself included), which are left out: the
/// native builds link the project's own as archives.
pub(super) fn system_libraries(root: &Path, stem: &str, project: &BTreeSet<String>) -> Vec<String> {
    let files = pc_files(root);
    let name = link_name(stem);
    let Some((pc, text)) = files.iter().find_map(|f| {
        let text = std::fs::read_to_string(f).ok()?;
        links(&text, name).then(|| (f.clone(), text))
    }) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = files
        .iter()
        .filter_map(|f| f.parent().map(Path::to_path_buf))
        .collect();
    dirs.dedup();
    let words = pkg_config(&pc, &dirs).unwrap_or_else(|| written_libs(&text));
    let mut out: Vec<String> = Vec::new();
    for w in words {
        let keep = match w.strip_prefix("-l") {
            Some(l) => !project.iter().any(|p| link_name(p) == l),
            None => w == "-pthread",
        };
        if keep && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_is_found_by_its_libs_line_and_the_project_left_out() {
        let dir = std::env::temp_dir().join(format!("symtest-pc-{}", std::process::id()));
        let sub = dir.join("lib");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(dir.join(".hidden")).unwrap();
        std::fs::write(
            sub.join("ours.pc"),
            "prefix=/usr\nlibdir=${prefix}/lib\nName: ours\nDescription: d\nVersion: 1\n\
             Libs: -L${libdir} -lours\nLibs.private: -lhelper -lm\n",
        )
        .unwrap();
        std::fs::write(dir.join(".hidden/ours.pc"), "Libs: -lours -lwrong\n").unwrap();
        let project = BTreeSet::from(["libours".to_string(), "libhelper".to_string()]);
        assert_eq!(system_libraries(&dir, "libours", &project), ["-lm"]);
        assert!(system_libraries(&dir, "libother", &project).is_empty());
        assert_eq!(
            written_libs("Libs: -L/x -lours\nLibs.private: -l${x} -lz\n"),
            ["-lours", "-lz"]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
