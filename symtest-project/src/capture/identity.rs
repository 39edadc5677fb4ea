//! Which output of a capture a file is: the output itself (or a symbolic
//! link to it), a copy of it — stripped, renamed, installed — recognised by
//! the objects it names (see [`super::carry`]) or its build-id, the program a
//! libtool wrapper script runs (`prog` for `.libs/prog`), or the library a
//! libtool `.la` file describes.

use super::assemble::Output;
use super::carry;
use std::path::{Path, PathBuf};

fn abs(root: &Path, o: &Output) -> PathBuf {
    super::log::normalize(root, Path::new(&o.output))
}

fn canonical(p: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(p).ok()
}

/// The program a libtool wrapper script runs (`# prog - temporary wrapper
/// script for .libs/prog`), relative to the script.
pub fn libtool_wrapped(script: &Path) -> Option<PathBuf> {
    let head = super::elf::head(script, 4096)?;
    let text = String::from_utf8_lossy(&head);
    if !text.starts_with("#!") {
        return None;
    }
    let line = text
        .lines()
        .find(|l| l.contains("temporary wrapper script for "))?;
    let target = line
        .split("temporary wrapper script for ")
        .nth(1)?
        .split_whitespace()
        .next()?;
    Some(super::log::normalize(
        script.parent().unwrap_or(Path::new("")),
        Path::new(target),
    ))
}

/// The libraries a libtool `.la` file names: the static one
/// (`old_library`) and the shared one (`dlname`), in `.libs/` beside it.
pub fn libtool_libraries(la: &Path) -> Vec<PathBuf> {
    let Ok(bytes) = super::elf::read_quietly(la) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    if !text.contains("libtool") {
        return Vec::new();
    }
    let dir = la.parent().unwrap_or(Path::new("")).join(".libs");
    text.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once('=')?;
            let v = v.trim().trim_matches('\'');
            (matches!(k.trim(), "old_library" | "dlname") && !v.is_empty()).then(|| dir.join(v))
        })
        .collect()
}

/// The outputs of `kind` that `file` is (relative to `root` unless
/// absolute). Several when identical programs match.
pub fn find<'m>(root: &Path, outputs: &[&'m Output], file: &Path, kind: &str) -> Vec<&'m Output> {
    let file = super::log::normalize(root, file);
    let of_kind: Vec<&Output> = outputs.iter().copied().filter(|o| o.kind == kind).collect();
    let same = |p: &Path| -> Vec<&'m Output> {
        let c = canonical(p);
        of_kind
            .iter()
            .copied()
            .filter(|o| abs(root, o) == p || (c.is_some() && canonical(&abs(root, o)) == c))
            .collect()
    };
    let direct = same(&file);
    if !direct.is_empty() {
        return direct;
    }
    if let Some(target) = libtool_wrapped(&file) {
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        let lt = target.with_file_name(format!("lt-{name}"));
        for p in [target.clone(), lt] {
            let found = same(&p);
            if !found.is_empty() {
                return found;
            }
        }
    }
    if file.extension().is_some_and(|e| e == "la") {
        for lib in libtool_libraries(&file) {
            let found = same(&lib);
            if !found.is_empty() {
                return found;
            }
        }
    }
    // A copy: the objects it names, then its build-id.
    let named: Vec<String> = carry::carried(&file)
        .unwrap_or_default()
        .iter()
        .map(|o| {
            o.strip_prefix(root)
                .unwrap_or(o)
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let id = carry::build_id(&file);
    let by_objects: Vec<&Output> = if named.is_empty() {
        Vec::new()
    } else {
        of_kind
            .iter()
            .copied()
            .filter(|o| o.carried == named)
            .collect()
    };
    if by_objects.len() > 1 && id.is_some() {
        let narrowed: Vec<&Output> = by_objects
            .iter()
            .copied()
            .filter(|o| o.build_id == id)
            .collect();
        if !narrowed.is_empty() {
            return narrowed;
        }
    }
    if !by_objects.is_empty() {
        return by_objects;
    }
    match id {
        Some(id) => of_kind
            .iter()
            .copied()
            .filter(|o| o.build_id.as_deref() == Some(id.as_str()))
            .collect(),
        None => Vec::new(),
    }
}
