//! Just enough of ELF and `ar` to read what capture puts in objects: one
//! section's contents (of an object, an executable, a shared library, or of
//! each member of an archive, thin archives included) and the GNU build-id
//! note. 64- and 32-bit, little- and big-endian; anything else is "not ELF".

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Files larger than this are not read (no object or program is).
const MAX_FILE: u64 = 1 << 32;

/// Reads a file without updating its access time where the system allows
/// it (`O_NOATIME`: capture tells programs the build ran by their access
/// times, see `init --from-build`).
pub fn read_quietly(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut f = open_quietly(path)?;
    let len = f.metadata()?.len();
    if len > MAX_FILE {
        return Err(std::io::Error::other("file too large"));
    }
    let mut buf = Vec::with_capacity(len as usize);
    f.read_to_end(&mut buf)?;
    Ok(buf)
}

/// Opens a file for reading without updating its access time where the
/// system allows it.
pub fn open_quietly(path: &Path) -> std::io::Result<std::fs::File> {
    let open = |flags: i32| {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(flags)
            .open(path)
    };
    open(libc::O_NOATIME).or_else(|_| open(0))
}

/// The first bytes of a file (at most `n`), read without touching it.
pub fn head(path: &Path, n: usize) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; n];
    let mut f = open_quietly(path).ok()?;
    let mut got = 0;
    while got < n {
        match f.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(_) => return None,
        }
    }
    buf.truncate(got);
    Some(buf)
}

/// An ELF file's sections, by name.
struct Elf<'a> {
    data: &'a [u8],
    /// (name, offset, size, type) of each section.
    sections: Vec<(&'a [u8], usize, usize, u32)>,
}

fn uint(data: &[u8], off: usize, len: usize, big: bool) -> Option<u64> {
    let b = data.get(off..off.checked_add(len)?)?;
    let mut v: u64 = 0;
    for i in 0..len {
        let byte = if big { b[i] } else { b[len - 1 - i] };
        v = (v << 8) | u64::from(byte);
    }
    Some(v)
}

fn parse(data: &[u8]) -> Option<Elf<'_>> {
    if data.get(..4)? != b"\x7fELF" {
        return None;
    }
    let wide = match data.get(4)? {
        1 => false,
        2 => true,
        _ => return None,
    };
    let big = match data.get(5)? {
        1 => false,
        2 => true,
        _ => return None,
    };
    let u = |off: usize, len: usize| uint(data, off, len, big);
    let word = if wide { 8 } else { 4 };
    let (shoff, shentsize, shnum, shstrndx) = if wide {
        (u(0x28, 8)?, u(0x3a, 2)?, u(0x3c, 2)?, u(0x3e, 2)?)
    } else {
        (u(0x20, 4)?, u(0x2e, 2)?, u(0x30, 2)?, u(0x32, 2)?)
    };
    let shoff = usize::try_from(shoff).ok()?;
    let entsize = usize::try_from(shentsize).ok()?;
    let header = |i: usize| -> Option<(u64, u32, usize, usize)> {
        let h = shoff.checked_add(i.checked_mul(entsize)?)?;
        let name = u(h, 4)?;
        let kind = u32::try_from(u(h + 4, 4)?).ok()?;
        let (off, size) = (u(h + 8 + 2 * word, word)?, u(h + 8 + 3 * word, word)?);
        Some((
            name,
            kind,
            usize::try_from(off).ok()?,
            usize::try_from(size).ok()?,
        ))
    };
    let mut shnum = usize::try_from(shnum).ok()?;
    let mut shstrndx = usize::try_from(shstrndx).ok()?;
    if shoff == 0 {
        return Some(Elf {
            data,
            sections: Vec::new(),
        });
    }
    // Extended numbering: the counts live in section 0.
    if shnum == 0 {
        shnum = usize::try_from(u(shoff + 8 + 3 * word, word)?).ok()?;
    }
    if shstrndx == 0xffff {
        shstrndx = usize::try_from(u(shoff + 8 + 4 * word, 4)?).ok()?;
    }
    if shnum > 1 << 20 {
        return None;
    }
    let (_, _, stroff, strsize) = header(shstrndx)?;
    let strtab = data.get(stroff..stroff.checked_add(strsize)?)?;
    let mut sections = Vec::with_capacity(shnum);
    for i in 0..shnum {
        let (name, kind, off, size) = header(i)?;
        let name = usize::try_from(name).ok()?;
        let rest = strtab.get(name..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        sections.push((&rest[..end], off, size, kind));
    }
    Some(Elf { data, sections })
}

impl<'a> Elf<'a> {
    fn section(&self, name: &str) -> Option<&'a [u8]> {
        // SHT_NOBITS (8) has no contents in the file.
        let (_, off, size, _) = self
            .sections
            .iter()
            .find(|(n, _, _, kind)| *n == name.as_bytes() && *kind != 8)?;
        self.data.get(*off..off.checked_add(*size)?)
    }
}

/// Whether `data` is an ELF file.
pub fn is_elf(data: &[u8]) -> bool {
    data.starts_with(b"\x7fELF")
}

/// The contents of section `name` of the ELF file in `data`, if it has one.
pub fn section<'a>(data: &'a [u8], name: &str) -> Option<&'a [u8]> {
    parse(data)?.section(name)
}

/// The GNU build-id of an ELF file, in hex.
pub fn build_id(data: &[u8]) -> Option<String> {
    let elf = parse(data)?;
    let big = data.get(5) == Some(&2);
    let note = elf.section(".note.gnu.build-id")?;
    let namesz = usize::try_from(uint(note, 0, 4, big)?).ok()?;
    let descsz = usize::try_from(uint(note, 4, 4, big)?).ok()?;
    let desc_at = 12 + namesz.div_ceil(4) * 4;
    let desc = note.get(desc_at..desc_at.checked_add(descsz)?)?;
    Some(desc.iter().map(|b| format!("{b:02x}")).collect())
}

/// One entry of an ELF file's symbol table (`.symtab`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// The index of the section it is defined in (0: undefined).
    pub section: u16,
    pub value: u64,
    /// Bound global or weak (not local).
    pub external: bool,
}

/// The symbol table of the ELF file in `data` (empty without one); None if
/// it is not ELF or the table is cut short.
pub fn symbols(data: &[u8]) -> Option<Vec<Symbol>> {
    let elf = parse(data)?;
    let (wide, big) = (data.get(4) == Some(&2), data.get(5) == Some(&2));
    let (Some(table), Some(names)) = (elf.section(".symtab"), elf.section(".strtab")) else {
        return Some(Vec::new());
    };
    let size = if wide { 24 } else { 16 };
    let mut out = Vec::with_capacity(table.len() / size);
    for entry in table.chunks_exact(size) {
        let u = |off: usize, len: usize| uint(entry, off, len, big);
        let name = usize::try_from(u(0, 4)?).ok()?;
        let (info, section, value) = if wide {
            (u(4, 1)?, u(6, 2)?, u(8, 8)?)
        } else {
            (u(12, 1)?, u(14, 2)?, u(4, 4)?)
        };
        let rest = names.get(name..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        out.push(Symbol {
            name: String::from_utf8_lossy(&rest[..end]).into_owned(),
            section: u16::try_from(section).ok()?,
            value,
            // STB_GLOBAL (1), STB_WEAK (2), STB_GNU_UNIQUE (10).
            external: matches!(info >> 4, 1 | 2 | 10),
        });
    }
    Some(out)
}

/// One member of an archive: its name, and its contents (absent from a
/// thin archive, whose members are files named relative to the archive).
pub struct Member<'a> {
    pub name: String,
    pub data: Option<&'a [u8]>,
}

/// The members of a `!<arch>` or `!<thin>` archive (symbol and name tables
/// left out); None if `data` is not an archive.
pub fn members(data: &[u8]) -> Option<Vec<Member<'_>>> {
    let thin = if data.starts_with(b"!<arch>\n") {
        false
    } else if data.starts_with(b"!<thin>\n") {
        true
    } else {
        return None;
    };
    let mut out = Vec::new();
    let mut names: &[u8] = &[];
    let mut at = 8;
    while at + 60 <= data.len() {
        let h = &data[at..at + 60];
        let text = |r: std::ops::Range<usize>| String::from_utf8_lossy(&h[r]).trim().to_string();
        let raw_name = text(0..16);
        let size: usize = text(48..58).parse().ok()?;
        let body = at + 60;
        // A thin archive stores only its symbol and name tables.
        let stored = !thin || raw_name == "/" || raw_name == "//" || raw_name.starts_with("/SYM");
        let end = if stored {
            body.checked_add(size)?
        } else {
            body
        };
        let contents = data.get(body..end)?;
        if raw_name == "//" {
            names = contents;
        } else if raw_name == "/" || raw_name.starts_with("/SYM") || raw_name == "__.SYMDEF" {
        } else {
            let name = if let Some(off) = raw_name.strip_prefix('/') {
                let off: usize = off.parse().ok()?;
                let rest = names.get(off..)?;
                let end = rest
                    .windows(2)
                    .position(|w| w == b"/\n")
                    .or_else(|| rest.iter().position(|&b| b == b'\n'))
                    .unwrap_or(rest.len());
                String::from_utf8_lossy(&rest[..end]).into_owned()
            } else {
                raw_name.trim_end_matches('/').to_string()
            };
            out.push(Member {
                name,
                data: stored.then_some(contents),
            });
        }
        at = end + (end & 1);
    }
    Some(out)
}

/// The file a thin archive's member names, relative to the archive.
pub fn thin_member_path(archive: &Path, member: &str) -> PathBuf {
    let dir = archive.parent().unwrap_or(Path::new(""));
    super::log::normalize(dir, Path::new(member))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_archives_with_long_names() {
        let mut a = b"!<arch>\n".to_vec();
        let names = b"a_very_long_member_name.o/\n";
        a.extend(
            format!(
                "{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
                "//",
                "",
                "",
                "",
                "",
                names.len()
            )
            .as_bytes(),
        );
        a.extend(names);
        if a.len() % 2 == 1 {
            a.push(b'\n');
        }
        a.extend(
            format!(
                "{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
                "/0", "0", "0", "0", "644", 3
            )
            .as_bytes(),
        );
        a.extend(b"abc\n");
        a.extend(
            format!(
                "{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
                "b.o/", "0", "0", "0", "644", 2
            )
            .as_bytes(),
        );
        a.extend(b"xy");
        let m = members(&a).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].name, "a_very_long_member_name.o");
        assert_eq!(m[0].data, Some(&b"abc"[..]));
        assert_eq!(m[1].name, "b.o");
        assert_eq!(m[1].data, Some(&b"xy"[..]));
        assert!(members(b"\x7fELF").is_none());
    }
}
