//! Suspended states on disk: one file per state in the suspend directory.
//!
//! A file is a header (magic, format version, the identity of the binary and
//! of the run that wrote it, the payload's length and checksum) and the
//! encoded state. Reading checks all of it: a file that is damaged, cut short,
//! or written by another binary or run is refused with the reason, never
//! decoded. Files are removed when read back, and whatever is left when the
//! store goes away (the run ends) is removed too.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"SYMTSUSP";
const HEADER: usize = 8 + 4 + 8 + 8 + 8 + 8 + 8;

/// Why a state could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("the suspend directory's budget of {0} MiB is used up")]
    Budget(u64),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Why a suspended state's file was refused.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    #[error("it is corrupt ({0})")]
    Corrupt(&'static str),
    #[error("it was written by another symtest binary or format")]
    Foreign,
    #[error("it belongs to another run")]
    OtherRun,
}

/// Where one suspended state is.
#[derive(Debug)]
pub struct Ticket {
    seq: u64,
    /// Bytes of the file.
    pub bytes: u64,
}

pub struct Store {
    dir: PathBuf,
    created_dir: bool,
    build: u64,
    run: u64,
    next: u64,
    on_disk: u64,
    max_bytes: u64,
    /// Most bytes on disk at once.
    pub peak_bytes: u64,
}

/// FNV-1a, 64 bits: detects damaged payloads.
fn checksum(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Identity of the running binary: its version, the state format, and the
/// executable file (size, modification time, inode), so another build of
/// symtest cannot read these files as its own.
fn build_id() -> u64 {
    let mut key = format!("{} {}", env!("CARGO_PKG_VERSION"), super::codec::FORMAT);
    if let Ok(m) = std::fs::metadata("/proc/self/exe") {
        use std::os::unix::fs::MetadataExt;
        key.push_str(&format!(
            " {} {} {} {}",
            m.len(),
            m.mtime(),
            m.mtime_nsec(),
            m.ino()
        ));
    }
    checksum(key.as_bytes())
}

impl Store {
    /// A store writing into `dir` (created when the first state is saved), at
    /// most `max_bytes` on disk at once.
    pub fn new(dir: &Path, max_bytes: u64) -> Store {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Store::with_identity(
            dir,
            max_bytes,
            build_id(),
            checksum(&[t.to_le_bytes(), (std::process::id() as u64).to_le_bytes()].concat()),
        )
    }

    fn with_identity(dir: &Path, max_bytes: u64, build: u64, run: u64) -> Store {
        Store {
            dir: dir.to_path_buf(),
            created_dir: false,
            build,
            run,
            next: 0,
            on_disk: 0,
            max_bytes,
            peak_bytes: 0,
        }
    }

    fn path(&self, seq: u64) -> PathBuf {
        self.dir.join(format!("{:016x}-{seq}.state", self.run))
    }

    /// Bytes on disk now.
    #[cfg(test)]
    fn on_disk(&self) -> u64 {
        self.on_disk
    }

    /// Writes one encoded state.
    pub fn save(&mut self, payload: &[u8]) -> Result<Ticket, SaveError> {
        let bytes = (HEADER + payload.len()) as u64;
        if self.on_disk + bytes > self.max_bytes {
            return Err(SaveError::Budget(self.max_bytes >> 20));
        }
        if !self.created_dir {
            if !self.dir.exists() {
                std::fs::create_dir_all(&self.dir)?;
            }
            self.created_dir = true;
        }
        let seq = self.next;
        self.next += 1;
        let mut data = Vec::with_capacity(HEADER + payload.len());
        data.extend_from_slice(MAGIC);
        data.extend_from_slice(&super::codec::FORMAT.to_le_bytes());
        data.extend_from_slice(&self.build.to_le_bytes());
        data.extend_from_slice(&self.run.to_le_bytes());
        data.extend_from_slice(&seq.to_le_bytes());
        data.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        data.extend_from_slice(&checksum(payload).to_le_bytes());
        data.extend_from_slice(payload);
        // Written under a temporary name, then renamed: a file with the
        // final name is always complete.
        let path = self.path(seq);
        let tmp = path.with_extension("tmp");
        let written = File::create(&tmp)
            .and_then(|mut f| f.write_all(&data))
            .and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(SaveError::Io(e));
        }
        self.on_disk += bytes;
        self.peak_bytes = self.peak_bytes.max(self.on_disk);
        Ok(Ticket { seq, bytes })
    }

    /// Reads a state back (and removes its file), checking that this binary
    /// and run wrote it and that it is intact.
    pub fn load(&mut self, t: &Ticket) -> Result<Vec<u8>, LoadError> {
        let path = self.path(t.seq);
        // One allocation of the file's size (no doubling while reading).
        let read = std::fs::read(&path);
        self.discard(t);
        let data = read?;
        if data.len() < HEADER || &data[..8] != MAGIC {
            return Err(LoadError::Corrupt("no suspended-state header"));
        }
        let word = |i: usize| u64::from_le_bytes(data[i..i + 8].try_into().expect("8 bytes"));
        let format = u32::from_le_bytes(data[8..12].try_into().expect("4 bytes"));
        if format != super::codec::FORMAT || word(12) != self.build {
            return Err(LoadError::Foreign);
        }
        if word(20) != self.run || word(28) != t.seq {
            return Err(LoadError::OtherRun);
        }
        let len = word(36);
        let payload = &data[HEADER..];
        if payload.len() as u64 != len {
            return Err(LoadError::Corrupt("wrong length"));
        }
        if checksum(payload) != word(44) {
            return Err(LoadError::Corrupt("checksum mismatch"));
        }
        Ok(payload.to_vec())
    }

    /// Forgets a state (its file is removed).
    pub fn discard(&mut self, t: &Ticket) {
        let _ = std::fs::remove_file(self.path(t.seq));
        self.on_disk = self.on_disk.saturating_sub(t.bytes);
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        if !self.created_dir {
            return;
        }
        let prefix = format!("{:016x}-", self.run);
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(&prefix) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        // Only succeeds when nothing else is in it.
        let _ = std::fs::remove_dir(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("symtest-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn round_trip_and_refusals() {
        let d = dir("refuse");
        let mut s = Store::with_identity(&d, 1 << 20, 1, 2);
        let a = s.save(b"state a").unwrap();
        let b = s.save(b"state b").unwrap();
        let c = s.save(b"state c").unwrap();
        let e = s.save(b"state e").unwrap();
        assert_eq!(s.on_disk(), 4 * (HEADER as u64 + 7));
        assert_eq!(s.load(&a).unwrap(), b"state a");
        assert!(!s.path(a.seq).exists(), "a loaded state's file is removed");
        // One flipped byte in the payload.
        let p = s.path(b.seq);
        let mut data = std::fs::read(&p).unwrap();
        *data.last_mut().unwrap() ^= 1;
        std::fs::write(&p, &data).unwrap();
        assert!(matches!(
            s.load(&b),
            Err(LoadError::Corrupt("checksum mismatch"))
        ));
        // Cut short.
        let p = s.path(c.seq);
        std::fs::write(&p, &std::fs::read(&p).unwrap()[..HEADER + 3]).unwrap();
        assert!(matches!(
            s.load(&c),
            Err(LoadError::Corrupt("wrong length"))
        ));
        // Written by another binary (its identity differs).
        let mut other = Store::with_identity(&d, 1 << 20, 99, 2);
        let f = other.save(b"foreign").unwrap();
        std::fs::rename(other.path(f.seq), s.path(e.seq)).unwrap();
        assert!(matches!(s.load(&e), Err(LoadError::Foreign)));
        // Missing file.
        assert!(matches!(s.load(&a), Err(LoadError::Io(_))));
        assert_eq!(s.on_disk(), 0);
        drop(other);
        drop(s);
        assert!(!d.exists(), "the store removes its directory");
    }

    #[test]
    fn budget_and_full_disk_are_save_errors() {
        let d = dir("full");
        let mut s = Store::with_identity(&d, 2 * HEADER as u64 + 10, 1, 3);
        s.save(b"0123456789").unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(s.save(b"0123456789"), Err(SaveError::Budget(_))));
        // The next file is a link to /dev/full: writing fails with ENOSPC.
        let mut s = Store::with_identity(&d, 1 << 20, 1, 4);
        std::fs::create_dir_all(&d).unwrap();
        std::os::unix::fs::symlink("/dev/full", s.path(0).with_extension("tmp")).unwrap();
        match s.save(b"payload") {
            Err(SaveError::Io(e)) => assert_eq!(e.raw_os_error(), Some(libc::ENOSPC)),
            other => panic!("expected a full disk, got {other:?}"),
        }
        assert_eq!(s.on_disk(), 0);
        assert!(s.save(b"next").is_ok(), "the store keeps working");
        drop(s);
        let _ = std::fs::remove_dir_all(&d);
    }
}
