//! Source globs: `*` and `?` within one path component, `**` across components.
//! Files are found with walkdir under the config file's directory.

use std::path::{Path, PathBuf};

/// Does the `/`-separated relative path match the pattern?
pub fn matches(pattern: &str, path: &str) -> bool {
    let p: Vec<&str> = pattern
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    let s: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
    match_components(&p, &s)
}

fn match_components(p: &[&str], s: &[&str]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some(&"**") => (0..=s.len()).any(|i| match_components(&p[1..], &s[i..])),
        Some(c) => {
            !s.is_empty()
                && match_one(c.as_bytes(), s[0].as_bytes())
                && match_components(&p[1..], &s[1..])
        }
    }
}

fn match_one(p: &[u8], s: &[u8]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some(b'*') => (0..=s.len()).any(|i| match_one(&p[1..], &s[i..])),
        Some(b'?') => !s.is_empty() && match_one(&p[1..], &s[1..]),
        Some(c) => s.first() == Some(c) && match_one(&p[1..], &s[1..]),
    }
}

pub fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?'])
}

/// The files under `root` matching `pattern` (sorted); a plain path is returned if it exists.
/// Hidden directories and `target/`, `symtest-out/` are not searched.
pub fn expand(root: &Path, pattern: &str) -> Vec<PathBuf> {
    if !is_glob(pattern) {
        let p = root.join(pattern);
        return if p.is_file() { vec![p] } else { vec![] };
    }
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0 || !(name.starts_with('.') || name == "target" || name == "symtest-out")
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| {
            e.path()
                .strip_prefix(root)
                .ok()
                .and_then(|r| r.to_str())
                .is_some_and(|r| matches(pattern, r))
        })
        .map(|e| e.into_path())
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn globs() {
        assert!(matches("src/*.c", "src/a.c"));
        assert!(!matches("src/*.c", "src/x/a.c"));
        assert!(matches("src/**/*.c", "src/x/y/a.c"));
        assert!(matches("src/**/*.c", "src/a.c"));
        assert!(matches("./a?.c", "ab.c"));
        assert!(!matches("*.c", "a.h"));
    }
}
