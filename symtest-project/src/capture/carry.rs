//! Bitcode that travels with the object: after each compile the wrapper adds a
//! section to the build's object naming it (its path when it was compiled,
//! whose bitcode the capture's store holds), as gllvm and wllvm do. The
//! section is not allocated (nothing of it is loaded when the program runs)
//! and linkers concatenate same-named sections, so whatever the build does
//! with the object afterwards — a partial link (`ld -r`), an archive (thin or
//! not), `objcopy`, `cp`, `install`, `strip`, a rename, libtool's `.libs/`
//! and the members it extracts and re-archives — the file that comes out
//! names the objects whose code it holds, in link order. A stripped or
//! renamed copy of a program is matched to the program the build linked by
//! that list (and by build-id), see [`super::identity`].

use super::elf;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The section's name (not `.llvm_bc`, which gllvm fills with bitcode paths;
/// not `.note*` or `.comment`, which strip scripts remove).
pub const SECTION: &str = ".symtest_bc";

/// The object paths a section's contents name, one per line.
pub fn entries(contents: &[u8]) -> Vec<PathBuf> {
    String::from_utf8_lossy(contents)
        .lines()
        .filter(|l| l.starts_with('/'))
        .map(PathBuf::from)
        .collect()
}

/// What the file at `path` carries: for an ELF file the objects its section
/// names; for an archive, those of every member in order (a thin archive's
/// members read from their files). None if the file cannot be read or is
/// neither.
pub fn carried(path: &Path) -> Option<Vec<PathBuf>> {
    let data = elf::read_quietly(path).ok()?;
    carried_in(path, &data, 0)
}

fn carried_in(path: &Path, data: &[u8], depth: u32) -> Option<Vec<PathBuf>> {
    if elf::is_elf(data) {
        return Some(elf::section(data, SECTION).map(entries).unwrap_or_default());
    }
    let members = elf::members(data)?;
    let mut out = Vec::new();
    for m in members {
        match m.data {
            Some(d) => out.extend(carried_in(path, d, depth + 1).unwrap_or_default()),
            None if depth < 4 => {
                let file = elf::thin_member_path(path, &m.name);
                if let Ok(d) = elf::read_quietly(&file) {
                    out.extend(carried_in(&file, &d, depth + 1).unwrap_or_default());
                }
            }
            None => {}
        }
    }
    Some(out)
}

/// The build-id of the ELF file at `path`.
pub fn build_id(path: &Path) -> Option<String> {
    elf::build_id(&elf::read_quietly(path).ok()?)
}

/// Adds `objects` to the section of the ELF file `file` (after what it
/// already names), with `objcopy`. The file keeps its mode.
pub fn embed(file: &Path, objects: &[PathBuf]) -> Result<(), String> {
    let data = elf::read_quietly(file).map_err(|e| format!("reading {}: {e}", file.display()))?;
    if !elf::is_elf(&data) {
        return Err(format!("{} is not an ELF file", file.display()));
    }
    let existing = elf::section(&data, SECTION);
    let mut text: Vec<u8> = existing.map(<[u8]>::to_vec).unwrap_or_default();
    let have = entries(&text);
    for o in objects {
        let line = o.to_string_lossy();
        if have.iter().any(|h| h == o) || line.contains('\n') {
            continue;
        }
        text.extend_from_slice(line.as_bytes());
        text.push(b'\n');
    }
    let had = existing.is_some();
    drop(data);
    let tmp = std::env::temp_dir().join(format!(
        "symtest-carry-{}-{:016x}",
        std::process::id(),
        super::wrapper::path_hash(file)
    ));
    std::fs::write(&tmp, &text).map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    let op = if had {
        "--update-section"
    } else {
        "--add-section"
    };
    let out = Command::new("objcopy")
        .arg(op)
        .arg(format!("{SECTION}={}", tmp.display()))
        .arg(file)
        .output();
    let _ = std::fs::remove_file(&tmp);
    match out {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!(
            "objcopy: {}",
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .next()
                .unwrap_or("")
        )),
        Err(e) => Err(format!("cannot run objcopy: {e}")),
    }
}
