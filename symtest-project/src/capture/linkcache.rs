//! The modules an earlier capture linked, reused when a link's inputs are the
//! same bytes: a re-run on an unchanged build (every `cargo symtest` after the
//! first) does not run llvm-link again for each of the build's outputs.
//!
//! Each linked module is kept under `links/<key>.bc` of the capture directory,
//! the key a hash of what the link reads (the objects' and libraries' bytes,
//! in order). A new capture looks a key up in the previous capture's `links/`
//! (hard-linked into `links-previous/` of the staging directory before the
//! build runs) and keeps only the entries it used.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// Where the capture being built keeps its modules.
pub const DIR: &str = "links";
/// The previous capture's modules, while this one is built.
pub const PREVIOUS: &str = "links-previous";

pub struct LinkCache {
    previous: PathBuf,
    current: PathBuf,
    /// Each input's hash, computed once (a library is read by every link).
    hashes: RefCell<HashMap<PathBuf, Option<u64>>>,
    reused: Cell<usize>,
}

impl LinkCache {
    /// The cache of the capture being built in `staging`.
    pub(super) fn new(staging: &Path) -> Self {
        LinkCache {
            previous: staging.join(PREVIOUS),
            current: staging.join(DIR),
            hashes: RefCell::new(HashMap::new()),
            reused: Cell::new(0),
        }
    }

    /// How many links [`LinkCache::restore`] answered.
    pub(super) fn reused(&self) -> usize {
        self.reused.get()
    }

    /// Drops the previous capture's modules once this one is assembled.
    pub(super) fn finish(&self) {
        let _ = std::fs::remove_dir_all(&self.previous);
    }

    /// The hash of `p`'s bytes, read once per capture.
    fn hash_of(&self, p: &Path) -> Option<u64> {
        if let Some(h) = self.hashes.borrow().get(p) {
            return *h;
        }
        let h = std::fs::read(p).ok().map(|bytes| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut h);
            h.finish()
        });
        self.hashes.borrow_mut().insert(p.to_path_buf(), h);
        h
    }

    /// The key of a link of `objects` then `libraries` (None: an input cannot
    /// be read, so the link is not cached).
    pub(super) fn key(&self, objects: &[PathBuf], libraries: &[PathBuf]) -> Option<String> {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        "symtest link v1".hash(&mut h);
        for list in [objects, libraries] {
            list.len().hash(&mut h);
            for p in list {
                self.hash_of(p)?.hash(&mut h);
            }
        }
        Some(format!("{:016x}", h.finish()))
    }

    /// Puts the module of `key` at `out` if an earlier capture linked it
    /// (and keeps it for the next one); false when it must be linked.
    pub(super) fn restore(&self, key: &str, out: &Path) -> bool {
        let name = format!("{key}.bc");
        let cached = self.previous.join(&name);
        if !cached.is_file() {
            return false;
        }
        let _ = std::fs::remove_file(out);
        if std::fs::hard_link(&cached, out).is_err() && std::fs::copy(&cached, out).is_err() {
            return false;
        }
        self.keep(key, out);
        self.reused.set(self.reused.get() + 1);
        true
    }

    /// Keeps the module just linked at `out` under `key`.
    pub(super) fn keep(&self, key: &str, out: &Path) {
        if std::fs::create_dir_all(&self.current).is_err() {
            return;
        }
        let to = self.current.join(format!("{key}.bc"));
        if !to.exists() && std::fs::hard_link(out, &to).is_err() {
            let _ = std::fs::copy(out, &to);
        }
    }
}

/// Hard-links the modules of the capture in `out` into `staging`'s
/// [`PREVIOUS`] directory (nothing when there is none).
pub(super) fn carry_over(out: &Path, staging: &Path) {
    let Ok(entries) = std::fs::read_dir(out.join(DIR)) else {
        return;
    };
    let to = staging.join(PREVIOUS);
    if std::fs::create_dir_all(&to).is_err() {
        return;
    }
    for e in entries.flatten() {
        let _ = std::fs::hard_link(e.path(), to.join(e.file_name()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(p: &Path) -> Vec<PathBuf> {
        vec![p.to_path_buf()]
    }

    #[test]
    fn a_link_of_the_same_bytes_is_restored_and_another_is_not() {
        let root = std::env::temp_dir().join(format!("symtest-linkcache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = &root;
        let old = dir.join("old");
        let staging = dir.join("staging");
        std::fs::create_dir_all(&old).unwrap();
        std::fs::create_dir_all(&staging).unwrap();
        let a = dir.join("a.bc");
        let lib = dir.join("lib.bc");
        std::fs::write(&a, b"object a").unwrap();
        std::fs::write(&lib, b"library").unwrap();

        // First capture: nothing cached; the linked module is kept.
        let first = LinkCache::new(&old);
        let key = first.key(&only(&a), &only(&lib)).unwrap();
        let out = old.join("prog.bc");
        assert!(!first.restore(&key, &out));
        std::fs::write(&out, b"linked module").unwrap();
        first.keep(&key, &out);

        // Second capture of the same inputs: restored, kept again.
        carry_over(&old, &staging);
        let second = LinkCache::new(&staging);
        let again = second.key(&only(&a), &only(&lib)).unwrap();
        assert_eq!(again, key);
        let out2 = staging.join("prog.bc");
        assert!(second.restore(&again, &out2));
        assert_eq!(std::fs::read(&out2).unwrap(), b"linked module");
        assert_eq!(second.reused(), 1);
        second.finish();
        assert!(staging.join(DIR).join(format!("{key}.bc")).is_file());
        assert!(!staging.join(PREVIOUS).exists());

        // Changed bytes, or the same files in other roles, give other keys.
        let third = LinkCache::new(&staging);
        assert_ne!(third.key(&only(&lib), &only(&a)).unwrap(), key);
        assert_ne!(third.key(&[a.clone(), lib.clone()], &[]).unwrap(), key);
        std::fs::write(&a, b"object A").unwrap();
        let fourth = LinkCache::new(&staging);
        assert_ne!(fourth.key(&only(&a), &only(&lib)).unwrap(), key);
        assert!(third.key(&[dir.join("missing.bc")], &[]).is_none());
        let _ = std::fs::remove_dir_all(&root);
    }
}
