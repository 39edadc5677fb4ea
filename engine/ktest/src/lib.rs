//! KLEE's binary `.ktest` test-case format, byte for byte.
//!
//! Layout (all integers are big-endian `u32`):
//!
//! ```text
//! "KTEST"                         magic (KLEE also accepts the old "BOUT\n")
//! version                         3 when written; 1..=3 accepted
//! numArgs, then per arg:          len, bytes (no terminating NUL)
//! symArgvs, symArgvLen            only when version >= 2
//! numObjects, then per object:    name len, name bytes, size, bytes
//! ```
//!
//! [`KTest::render`] prints a test the way KLEE's `ktest-tool` does.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The magic bytes at offset 0.
pub const MAGIC: &[u8; 5] = b"KTEST";
/// KLEE's legacy magic, accepted when reading.
pub const LEGACY_MAGIC: &[u8; 5] = b"BOUT\n";
/// The version written by [`KTest::to_bytes`].
pub const VERSION: u32 = 3;

/// One test case: the program arguments and the concrete bytes of every
/// symbolic object, in creation order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KTest {
    pub args: Vec<String>,
    pub sym_argvs: u32,
    pub sym_argv_len: u32,
    pub objects: Vec<KTestObject>,
}

/// A named symbolic object and its concrete contents.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KTestObject {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Why a `.ktest` could not be read or written.  Parse errors name the byte
/// offset at which the problem was found.
#[derive(Debug, thiserror::Error)]
pub enum KTestError {
    #[error(
        "not a .ktest file: magic at offset 0 is {}, expected b'KTEST'",
        py_bytes_repr(found)
    )]
    BadMagic { found: Vec<u8> },
    #[error("unsupported .ktest version {version} at offset {offset} (supported: 1 to 3)")]
    UnsupportedVersion { version: u32, offset: usize },
    #[error(
        "truncated .ktest: {what} at offset {offset} needs {needed} bytes but only {available} remain"
    )]
    Truncated {
        what: String,
        offset: usize,
        needed: u64,
        available: usize,
    },
    #[error("invalid .ktest: {what} at offset {offset} is not valid UTF-8")]
    InvalidUtf8 { what: String, offset: usize },
    #[error("invalid .ktest: {count} unexpected bytes after the last object, at offset {offset}")]
    TrailingBytes { offset: usize, count: usize },
    #[error("{op} {}: {source}", path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl KTestObject {
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        KTestObject {
            name: name.into(),
            bytes: bytes.into(),
        }
    }
}

fn push_u32(out: &mut Vec<u8>, v: usize, what: &str) {
    let v = u32::try_from(v).unwrap_or_else(|_| panic!("{what} does not fit a .ktest u32: {v}"));
    out.extend_from_slice(&v.to_be_bytes());
}

fn push_bytes(out: &mut Vec<u8>, bytes: &[u8], what: &str) {
    push_u32(out, bytes.len(), what);
    out.extend_from_slice(bytes);
}

/// Bounds-checked reader over the file contents.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: u64, what: impl FnOnce() -> String) -> Result<&'a [u8], KTestError> {
        let available = self.data.len() - self.pos;
        if n > available as u64 {
            return Err(KTestError::Truncated {
                what: what(),
                offset: self.pos,
                needed: n,
                available,
            });
        }
        let s = &self.data[self.pos..self.pos + n as usize];
        self.pos += n as usize;
        Ok(s)
    }

    fn u32(&mut self, what: impl FnOnce() -> String) -> Result<u32, KTestError> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A length-prefixed byte string: the length is described by `what`'s
    /// "length of ..." and the bytes by `what` itself.
    fn string(&mut self, what: &dyn Fn() -> String) -> Result<&'a [u8], KTestError> {
        let n = self.u32(|| format!("length of {}", what()))?;
        self.take(u64::from(n), what)
    }

    fn utf8(&mut self, what: &dyn Fn() -> String) -> Result<String, KTestError> {
        let start = self.pos + 4;
        let bytes = self.string(what)?;
        String::from_utf8(bytes.to_vec()).map_err(|e| KTestError::InvalidUtf8 {
            what: what(),
            offset: start + e.utf8_error().valid_up_to(),
        })
    }
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl KTest {
    /// The file contents (always version 3).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_be_bytes());
        push_u32(&mut out, self.args.len(), "argument count");
        for a in &self.args {
            push_bytes(&mut out, a.as_bytes(), "argument length");
        }
        out.extend_from_slice(&self.sym_argvs.to_be_bytes());
        out.extend_from_slice(&self.sym_argv_len.to_be_bytes());
        push_u32(&mut out, self.objects.len(), "object count");
        for o in &self.objects {
            push_bytes(&mut out, o.name.as_bytes(), "object name length");
            push_bytes(&mut out, &o.bytes, "object size");
        }
        out
    }

    /// Parse a `.ktest` (versions 1 to 3, magic "KTEST" or KLEE's legacy
    /// "BOUT\n").  Never panics: every defect is a [`KTestError`].
    pub fn from_bytes(data: &[u8]) -> Result<KTest, KTestError> {
        let mut r = Reader { data, pos: 0 };
        let head = &data[..data.len().min(5)];
        let is_prefix = MAGIC.starts_with(head) || LEGACY_MAGIC.starts_with(head);
        if head.len() < 5 && is_prefix {
            // A (possibly empty) start of a valid magic: the file was cut.
            r.take(5, || "magic".to_string())?;
        }
        if head != MAGIC && head != LEGACY_MAGIC {
            return Err(KTestError::BadMagic {
                found: head.to_vec(),
            });
        }
        r.pos = 5;
        let version = r.u32(|| "version".to_string())?;
        if !(1..=VERSION).contains(&version) {
            return Err(KTestError::UnsupportedVersion { version, offset: 5 });
        }
        let nargs = r.u32(|| "argument count".to_string())?;
        let mut args = Vec::new();
        for i in 0..nargs {
            args.push(r.utf8(&|| format!("argument {i}"))?);
        }
        let (sym_argvs, sym_argv_len) = if version >= 2 {
            (
                r.u32(|| "sym-argvs".to_string())?,
                r.u32(|| "sym-argv-len".to_string())?,
            )
        } else {
            (0, 0)
        };
        let nobjs = r.u32(|| "object count".to_string())?;
        let mut objects = Vec::new();
        for i in 0..nobjs {
            let name = r.utf8(&|| format!("name of object {i}"))?;
            let bytes = r.string(&|| format!("bytes of object {i} ('{name}')"))?;
            objects.push(KTestObject {
                name,
                bytes: bytes.to_vec(),
            });
        }
        if r.pos != data.len() {
            return Err(KTestError::TrailingBytes {
                offset: r.pos,
                count: data.len() - r.pos,
            });
        }
        Ok(KTest {
            args,
            sym_argvs,
            sym_argv_len,
            objects,
        })
    }

    /// Write atomically: the bytes go to a temporary file in the same
    /// directory, which is then renamed over `path`.
    pub fn write_to(&self, path: impl AsRef<Path>) -> Result<(), KTestError> {
        let path = path.as_ref();
        let io = |op: &'static str, p: &Path| {
            let p = p.to_path_buf();
            move |source| KTestError::Io {
                op,
                path: p,
                source,
            }
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "ktest".to_string());
        let tmp = dir.join(format!(
            ".{file_name}.tmp.{}.{}",
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let result = (|| {
            let mut f = fs::File::create(&tmp).map_err(io("cannot create", &tmp))?;
            f.write_all(&self.to_bytes())
                .map_err(io("cannot write", &tmp))?;
            f.sync_all().map_err(io("cannot sync", &tmp))?;
            drop(f);
            fs::rename(&tmp, path).map_err(io("cannot rename temporary file to", path))
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    /// Read and parse a `.ktest` file.
    pub fn read_from(path: impl AsRef<Path>) -> Result<KTest, KTestError> {
        let path = path.as_ref();
        let data = fs::read(path).map_err(|source| KTestError::Io {
            op: "cannot read",
            path: path.to_path_buf(),
            source,
        })?;
        KTest::from_bytes(&data)
    }

    /// The body of KLEE's `ktest-tool` output (everything after the
    /// `ktest file : '...'` line, which the caller prints), one line per
    /// item, each ending in a newline.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let args: Vec<String> = self.args.iter().map(|a| py_str_repr(a)).collect();
        let _ = writeln!(s, "args       : [{}]", args.join(", "));
        let _ = writeln!(s, "num objects: {}", self.objects.len());
        // ktest-tool pads the index to the width of the largest index.
        let width = self
            .objects
            .len()
            .saturating_sub(1)
            .max(1)
            .to_string()
            .len();
        for (i, o) in self.objects.iter().enumerate() {
            let data = &o.bytes;
            let _ = writeln!(s, "object {i:width$}: name: '{}'", o.name);
            let _ = writeln!(s, "object {i:width$}: size: {}", data.len());
            let _ = writeln!(s, "object {i:width$}: data: {}", py_bytes_repr(data));
            let hex: String = data.iter().map(|b| format!("{b:02x}")).collect();
            let _ = writeln!(s, "object {i:width$}: hex : 0x{hex}");
            // Native (little-endian on every host we run on) like struct.unpack.
            let ints: Option<(i128, u128)> = match data.len() {
                1 => Some((i128::from(data[0] as i8), u128::from(data[0]))),
                2 => {
                    let b = [data[0], data[1]];
                    Some((
                        i128::from(i16::from_ne_bytes(b)),
                        u128::from(u16::from_ne_bytes(b)),
                    ))
                }
                4 => {
                    let b = [data[0], data[1], data[2], data[3]];
                    Some((
                        i128::from(i32::from_ne_bytes(b)),
                        u128::from(u32::from_ne_bytes(b)),
                    ))
                }
                8 => {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(data);
                    Some((
                        i128::from(i64::from_ne_bytes(b)),
                        u128::from(u64::from_ne_bytes(b)),
                    ))
                }
                _ => None,
            };
            if let Some((signed, unsigned)) = ints {
                let _ = writeln!(s, "object {i:width$}: int : {signed}");
                let _ = writeln!(s, "object {i:width$}: uint: {unsigned}");
            }
            let text: String = data
                .iter()
                .map(|&b| {
                    if (0x20..0x7f).contains(&b) {
                        b as char
                    } else {
                        '.'
                    }
                })
                .collect();
            let _ = writeln!(s, "object {i:width$}: text: {text}");
        }
        s
    }
}

/// Python's `repr()` of a `bytes` value, e.g. `b'a\x00'`.
pub fn py_bytes_repr(data: &[u8]) -> String {
    let quote = if data.contains(&b'\'') && !data.contains(&b'"') {
        b'"'
    } else {
        b'\''
    };
    let mut s = String::with_capacity(data.len() + 3);
    s.push('b');
    s.push(quote as char);
    for &b in data {
        match b {
            b'\\' => s.push_str("\\\\"),
            b'\t' => s.push_str("\\t"),
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            _ if b == quote => {
                s.push('\\');
                s.push(b as char);
            }
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s.push(quote as char);
    s
}

/// Python's `repr()` of a `str` value (as printed inside a list).
pub fn py_str_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut s = String::with_capacity(text.len() + 2);
    s.push(quote);
    for c in text.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '\t' => s.push_str("\\t"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            _ if c == quote => {
                s.push('\\');
                s.push(c);
            }
            _ if (c as u32) < 0x20 || (0x7f..0xa0).contains(&(c as u32)) => {
                let _ = write!(s, "\\x{:02x}", c as u32);
            }
            _ => s.push(c),
        }
    }
    s.push(quote);
    s
}

#[cfg(test)]
mod tests;
