//! What each file of the build is made of: the objects (as the compiles
//! named them) whose code a file holds, from what the file itself carries
//! (its section, see [`super::carry`]) and, where the file is gone or carries
//! nothing, from the records of the compiles, archives and partial links that
//! made it.

use super::carry;
use super::log::{is_probe, Record};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The records of a capture, by the file each made.
pub struct Logged {
    pub compiles: BTreeMap<PathBuf, Record>,
    pub foreign: BTreeMap<PathBuf, PathBuf>,
    pub archives: BTreeMap<PathBuf, Vec<PathBuf>>,
    /// Executables and shared libraries.
    pub links: BTreeMap<PathBuf, Record>,
    /// Partial links (`ld -r`): objects made of objects.
    pub partials: BTreeMap<PathBuf, Record>,
    /// Outputs of probes that are not files (`/dev/null`).
    pub probes: Vec<PathBuf>,
    /// Where the bitcode of objects without a record may be (the store).
    store: PathBuf,
    /// What each file read carries (files are read once).
    read: RefCell<HashMap<PathBuf, Option<Vec<PathBuf>>>>,
}

/// The objects a file is made of.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Parts {
    /// Objects with bitcode, in link order.
    pub with_bitcode: Vec<PathBuf>,
    /// Objects without (assembly, C++, failed bitcode compiles).
    pub without: Vec<PathBuf>,
}

impl Parts {
    fn extend(&mut self, other: Parts) {
        for o in other.with_bitcode {
            if !self.with_bitcode.contains(&o) {
                self.with_bitcode.push(o);
            }
        }
        for o in other.without {
            if !self.without.contains(&o) {
                self.without.push(o);
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.with_bitcode.is_empty() && self.without.is_empty()
    }
}

/// Whether a link's inputs are rustc's (`.rlib`, codegen units `*.rcgu.o`).
fn is_rust_link(inputs: &[String]) -> bool {
    inputs
        .iter()
        .any(|i| i.ends_with(".rlib") || i.ends_with(".rcgu.o"))
}

/// Indexes the records (the last record of a file wins; probes and links of
/// Rust code are left out).
pub fn index(records: Vec<Record>, store: &Path) -> Logged {
    let mut l = Logged {
        compiles: BTreeMap::new(),
        foreign: BTreeMap::new(),
        archives: BTreeMap::new(),
        links: BTreeMap::new(),
        partials: BTreeMap::new(),
        probes: Vec::new(),
        store: store.to_path_buf(),
        read: RefCell::new(HashMap::new()),
    };
    for r in records {
        let probe = match &r {
            Record::Compile { object, .. } | Record::Foreign { object, .. } => is_probe(object),
            Record::Archive { archive, .. } => is_probe(archive),
            // rustc links through `cc` too (build scripts, tests, binaries of
            // a cargo build): not C outputs.
            Record::Link { output, inputs, .. } => is_probe(output) || is_rust_link(inputs),
            Record::Probe { output } => {
                if !l.probes.contains(output) {
                    l.probes.push(output.clone());
                }
                true
            }
        };
        if probe {
            continue;
        }
        match &r {
            Record::Compile { object, .. } => {
                l.foreign.remove(object);
                l.compiles.insert(object.clone(), r);
            }
            Record::Foreign { source, object } => {
                l.compiles.remove(object);
                l.foreign.insert(object.clone(), source.clone());
            }
            Record::Archive { archive, members } => {
                let list = l.archives.entry(archive.clone()).or_default();
                for m in members {
                    // `ar r` replaces a member of the same name.
                    list.retain(|x| x.file_name() != m.file_name());
                    list.push(m.clone());
                }
            }
            Record::Probe { .. } => {}
            Record::Link {
                output,
                relocatable,
                ..
            } => {
                l.links.remove(output);
                l.partials.remove(output);
                if *relocatable {
                    l.partials.insert(output.clone(), r);
                } else {
                    l.links.insert(output.clone(), r);
                }
            }
        }
    }
    l
}

impl Logged {
    /// The bitcode of an object (as a compile named it): its record's, else
    /// the store's file of that name.
    pub fn bitcode_of(&self, object: &Path) -> Option<PathBuf> {
        match self.compiles.get(object) {
            Some(Record::Compile { bitcode, .. }) => bitcode.clone(),
            _ => {
                let bc = self
                    .store
                    .join(format!("{:016x}.bc", super::wrapper::path_hash(object)));
                bc.is_file().then_some(bc)
            }
        }
    }

    /// What the file at `path` carries, read once.
    pub fn carried(&self, path: &Path) -> Option<Vec<PathBuf>> {
        self.read
            .borrow_mut()
            .entry(path.to_path_buf())
            .or_insert_with(|| carry::carried(path))
            .clone()
    }

    /// Whether `path` is a static library: the build archived it, or the
    /// file is an archive.
    pub fn is_archive(&self, path: &Path) -> bool {
        self.archives.contains_key(path)
            || super::elf::head(path, 8).is_some_and(|m| m == b"!<arch>\n" || m == b"!<thin>\n")
    }

    /// The objects `path` (an object, a partial link, an archive or a copy
    /// of any of them) is made of.
    pub fn parts(&self, path: &Path) -> Parts {
        self.parts_at(path, 0)
    }

    fn parts_at(&self, path: &Path, depth: u32) -> Parts {
        let mut p = Parts::default();
        if depth > 16 {
            return p;
        }
        if let Some(Record::Compile { bitcode, .. }) = self.compiles.get(path) {
            if bitcode.is_some() {
                p.with_bitcode.push(path.to_path_buf());
            } else {
                p.without.push(path.to_path_buf());
            }
            return p;
        }
        if self.foreign.contains_key(path) {
            p.without.push(path.to_path_buf());
            return p;
        }
        // What the file names (the truth for the file as it is now), else
        // what made it: a partial link's or an archive's records. Objects
        // without bitcode name nothing: they come from the records.
        // (An archive may hold a member twice, as coreutils' holds
        // backupfile.o: a linker takes the first.)
        let mut from_file: Vec<PathBuf> = Vec::new();
        for o in self.carried(path).unwrap_or_default() {
            if !from_file.contains(&o) && self.bitcode_of(&o).is_some() {
                from_file.push(o);
            }
        }
        let made_of: Vec<PathBuf> = match (self.partials.get(path), self.archives.get(path)) {
            (Some(Record::Link { inputs, cwd, .. }), _) => inputs
                .iter()
                .filter(|i| !i.starts_with('-'))
                .map(|i| super::log::normalize(cwd, Path::new(i)))
                .collect(),
            (_, Some(members)) => members.clone(),
            _ => Vec::new(),
        };
        let mut from_records = Parts::default();
        for input in made_of {
            from_records.extend(self.parts_at(&input, depth + 1));
        }
        // A partial link recorded what it carried when it was made.
        if let Some(Record::Link { carried, .. }) = self.partials.get(path) {
            from_records.extend(Parts {
                with_bitcode: carried
                    .iter()
                    .filter(|o| self.bitcode_of(o).is_some())
                    .cloned()
                    .collect(),
                without: Vec::new(),
            });
        }
        if from_file.is_empty() {
            return from_records;
        }
        p.with_bitcode = from_file;
        p.without = from_records.without;
        p
    }
}
