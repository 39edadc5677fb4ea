//! The modules of the build's outputs: per static library one module of its
//! objects; per executable and shared library its objects (direct, or the
//! contents of the partial links and copies it names) linked whole, then,
//! with `llvm-link --only-needed` in link order, the modules of the static
//! and shared libraries of the project it links, as a linker resolves them.

use super::assemble::{defined_symbols, llvm_link, undefined_symbols, LeftOut, Output};
use super::linkcache::LinkCache;
use super::log::{normalize, Record};
use super::parts::Logged;
use anyhow::Result;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned()
}

struct Builder<'a> {
    root: &'a Path,
    logged: &'a Logged,
    dest: &'a Path,
    warnings: Vec<String>,
    /// The module of each library built so far (None: it has none).
    modules: BTreeMap<PathBuf, Option<PathBuf>>,
    /// Objects of each library (what a link takes from it is not linked whole).
    library_objects: BTreeMap<PathBuf, Vec<PathBuf>>,
    archives: BTreeMap<PathBuf, Output>,
    links: BTreeMap<PathBuf, Output>,
    /// Links in progress (a cycle of shared libraries stops there).
    visiting: BTreeSet<PathBuf>,
    cache: &'a LinkCache,
}

/// The outputs of the build (static libraries first, then executables and
/// shared libraries, each by path), the links it left out (made outside the
/// build root, or not files), and the warnings about them.
pub fn build(
    root: &Path,
    logged: &Logged,
    dest: &Path,
    cache: &LinkCache,
) -> Result<(Vec<Output>, Vec<LeftOut>, Vec<String>)> {
    let mut b = Builder {
        root,
        logged,
        dest,
        warnings: Vec::new(),
        modules: BTreeMap::new(),
        library_objects: BTreeMap::new(),
        archives: BTreeMap::new(),
        links: BTreeMap::new(),
        visiting: BTreeSet::new(),
        cache,
    };
    let mut outside = Vec::new();
    for archive in logged.archives.keys() {
        if archive.starts_with(root) {
            b.archive(archive)?;
        } else {
            outside.push(archive.display().to_string());
        }
    }
    for output in logged.links.keys() {
        if output.starts_with(root) {
            b.link(output)?;
        } else {
            outside.push(output.display().to_string());
        }
    }
    let mut left_out: Vec<LeftOut> = outside
        .into_iter()
        .map(|output| LeftOut {
            output,
            why: "made outside the build root (a probe or a temporary file)".into(),
        })
        .collect();
    left_out.extend(logged.probes.iter().map(|p| LeftOut {
        output: p.display().to_string(),
        why: "not a file (a probe of the compiler)".into(),
    }));
    let mut outputs: Vec<Output> = b.archives.into_values().collect();
    outputs.extend(b.links.into_values());
    Ok((outputs, left_out, b.warnings))
}

impl Builder<'_> {
    fn dest_for(&self, output: &Path) -> Option<PathBuf> {
        let r = output.strip_prefix(self.root).ok()?;
        let mut name = r.as_os_str().to_os_string();
        name.push(".bc");
        Some(self.dest.join(name))
    }

    fn source_of(&self, object: &Path) -> Option<String> {
        match self.logged.compiles.get(object) {
            Some(Record::Compile { source, .. }) => Some(rel(self.root, source)),
            _ => self.logged.foreign.get(object).map(|s| rel(self.root, s)),
        }
    }

    /// A static library: every object with bitcode, in one module.
    fn archive(&mut self, archive: &Path) -> Result<Option<PathBuf>> {
        if let Some(m) = self.modules.get(archive) {
            return Ok(m.clone());
        }
        let parts = self.logged.parts(archive);
        let bcs: Vec<PathBuf> = parts
            .with_bitcode
            .iter()
            .filter_map(|o| self.logged.bitcode_of(o))
            .collect();
        let objects: Vec<String> = parts
            .with_bitcode
            .iter()
            .map(|o| rel(self.root, o))
            .collect();
        let inputs = match self.logged.archives.get(archive) {
            Some(members) => members.iter().map(|m| rel(self.root, m)).collect(),
            None => objects.clone(),
        };
        let mut out = Output {
            output: rel(self.root, archive),
            kind: "static-library",
            bitcode: None,
            inputs,
            sources: parts
                .with_bitcode
                .iter()
                .filter_map(|o| self.source_of(o))
                .collect(),
            external_libraries: Vec::new(),
            missing_bitcode: parts.without.iter().map(|m| rel(self.root, m)).collect(),
            undefined_from_missing: Vec::new(),
            carried: objects.clone(),
            objects,
            build_id: None,
        };
        let mut module = None;
        match self.dest_for(archive) {
            Some(target) if !bcs.is_empty() => {
                std::fs::create_dir_all(target.parent().expect("has a parent"))?;
                match llvm_link(&bcs, &[], &target, self.cache) {
                    Ok(()) => {
                        out.bitcode = Some(rel(self.dest, &target));
                        module = Some(target);
                    }
                    Err(e) => self
                        .warnings
                        .push(format!("{}: llvm-link failed: {e}", out.output)),
                }
            }
            Some(_) => self
                .warnings
                .push(format!("{}: no member has bitcode", out.output)),
            None => {}
        }
        self.modules.insert(archive.to_path_buf(), module.clone());
        self.library_objects
            .insert(archive.to_path_buf(), parts.with_bitcode);
        self.archives.insert(archive.to_path_buf(), out);
        Ok(module)
    }

    /// A library a link names (`-lNAME` or a path): a shared library the
    /// build linked, else a static library the build made or one whose
    /// members carry bitcode; None for the system's.
    /// The library's path as an output and its module.
    fn library(&mut self, p: &Path) -> Result<Option<(PathBuf, Option<PathBuf>)>> {
        if let Some(so) = self.shared_output(p) {
            let module = self.link(&so)?;
            return Ok(Some((so, module)));
        }
        if self.logged.is_archive(p)
            && p.starts_with(self.root)
            && (self.logged.archives.contains_key(p) || !self.logged.parts(p).is_empty())
        {
            let module = self.archive(p)?;
            return Ok(Some((p.to_path_buf(), module)));
        }
        Ok(None)
    }

    /// The shared library the build linked that `p` is (itself, or a
    /// symbolic link to it: `libfoo.so` -> `libfoo.so.1.2.3`).
    fn shared_output(&self, p: &Path) -> Option<PathBuf> {
        let is_shared = |q: &Path| {
            matches!(
                self.logged.links.get(q),
                Some(Record::Link { shared: true, .. })
            )
        };
        if is_shared(p) {
            return Some(p.to_path_buf());
        }
        let real = std::fs::canonicalize(p).ok()?;
        if is_shared(&real) {
            return Some(real);
        }
        // The build root itself may be reached through a symbolic link.
        self.logged
            .links
            .keys()
            .find(|k| is_shared(k) && std::fs::canonicalize(k).ok().as_deref() == Some(&real))
            .cloned()
    }

    /// `-lNAME` on the search path: the shared library if the build linked
    /// one there, else the static library, directory by directory.
    fn find_library(&self, search: &[PathBuf], name: &str) -> Option<PathBuf> {
        for d in search {
            let so = d.join(format!("lib{name}.so"));
            if self.shared_output(&so).is_some() {
                return Some(so);
            }
            let a = d.join(format!("lib{name}.a"));
            if self.logged.archives.contains_key(&a) || (a.starts_with(self.root) && a.is_file()) {
                return Some(a);
            }
        }
        None
    }

    /// An executable or shared library; its module.
    fn link(&mut self, output: &Path) -> Result<Option<PathBuf>> {
        if let Some(m) = self.modules.get(output) {
            return Ok(m.clone());
        }
        if !self.visiting.insert(output.to_path_buf()) {
            return Ok(None);
        }
        let Some(Record::Link {
            cwd,
            inputs,
            shared,
            carried,
            build_id,
            ..
        }) = self.logged.links.get(output)
        else {
            return Ok(None);
        };
        let mut search: Vec<PathBuf> = vec![cwd.clone()];
        let mut whole: Vec<PathBuf> = Vec::new();
        let mut libraries: Vec<PathBuf> = Vec::new();
        let mut taken_from_libraries: BTreeSet<PathBuf> = BTreeSet::new();
        let mut out = Output {
            output: rel(self.root, output),
            kind: if *shared {
                "shared-library"
            } else {
                "executable"
            },
            bitcode: None,
            inputs: Vec::new(),
            sources: Vec::new(),
            external_libraries: Vec::new(),
            missing_bitcode: Vec::new(),
            undefined_from_missing: Vec::new(),
            objects: Vec::new(),
            carried: carried.iter().map(|o| rel(self.root, o)).collect(),
            build_id: build_id.clone(),
        };
        let mut missing_objects = Vec::new();
        let mut i = 0;
        while i < inputs.len() {
            let a = &inputs[i];
            i += 1;
            let value = |flag: &str| -> Option<String> {
                if a == flag {
                    inputs.get(i).cloned()
                } else {
                    a.strip_prefix(flag).map(str::to_string)
                }
            };
            if let Some(dir) = value("-L") {
                if a == "-L" {
                    i += 1;
                }
                search.push(normalize(cwd, Path::new(&dir)));
                continue;
            }
            let (path, written) = if let Some(lib) = value("-l") {
                if a == "-l" {
                    i += 1;
                }
                match self.find_library(&search, &lib) {
                    Some(p) => (p, format!("-l{lib}")),
                    None => {
                        out.external_libraries.push(format!("-l{lib}"));
                        continue;
                    }
                }
            } else if a.starts_with('-') {
                continue;
            } else {
                (normalize(cwd, Path::new(a)), a.clone())
            };
            match self.library(&path)? {
                Some((lib, module)) => {
                    out.inputs.push(rel(self.root, &lib));
                    libraries.extend(module);
                    if let Some(objs) = self.library_objects.get(&lib) {
                        taken_from_libraries.extend(objs.iter().cloned());
                    }
                }
                None if written.starts_with("-l")
                    || a.ends_with(".a")
                    || a.contains(".so")
                    || self.logged.is_archive(&path) =>
                {
                    out.external_libraries.push(written)
                }
                None => {
                    out.inputs.push(rel(self.root, &path));
                    let parts = self.logged.parts(&path);
                    if parts.is_empty() {
                        out.missing_bitcode.push(rel(self.root, &path));
                        missing_objects.push(path);
                        continue;
                    }
                    for o in parts.with_bitcode {
                        if !whole.contains(&o) {
                            whole.push(o);
                        }
                    }
                    for o in parts.without {
                        out.missing_bitcode.push(rel(self.root, &o));
                        missing_objects.push(o);
                    }
                }
            }
        }
        // What the output itself names that its inputs do not explain
        // (objects the build deleted after the link, as libtool does with
        // the members it extracts): linked whole too.
        for o in carried {
            if !whole.contains(o)
                && !taken_from_libraries.contains(o)
                && self.logged.bitcode_of(o).is_some()
            {
                whole.push(o.clone());
            }
        }
        out.sources = whole.iter().filter_map(|o| self.source_of(o)).collect();
        out.objects = whole.iter().map(|o| rel(self.root, o)).collect();
        let bcs: Vec<PathBuf> = whole
            .iter()
            .filter_map(|o| self.logged.bitcode_of(o))
            .collect();
        let mut module = None;
        match self.dest_for(output) {
            Some(target) if !bcs.is_empty() => {
                std::fs::create_dir_all(target.parent().expect("has a parent"))?;
                match llvm_link(&bcs, &libraries, &target, self.cache) {
                    Ok(()) => {
                        out.bitcode = Some(rel(self.dest, &target));
                        if !missing_objects.is_empty() {
                            let undefined = undefined_symbols(&target);
                            let mut left: BTreeSet<String> = BTreeSet::new();
                            for m in &missing_objects {
                                left.extend(defined_symbols(m).intersection(&undefined).cloned());
                            }
                            out.undefined_from_missing = left.into_iter().collect();
                        }
                        module = Some(target);
                    }
                    Err(e) => self
                        .warnings
                        .push(format!("{}: llvm-link failed: {e}", out.output)),
                }
            }
            Some(_) => self
                .warnings
                .push(format!("{}: no input has bitcode", out.output)),
            None => {}
        }
        if !out.missing_bitcode.is_empty() {
            self.warnings.push(format!(
                "{}: no bitcode for {} (assembly, C++ or a failed compile); {}",
                out.output,
                out.missing_bitcode.join(", "),
                if out.undefined_from_missing.is_empty() {
                    "the module does not call into them".to_string()
                } else {
                    format!(
                        "the module calls {} which they define (undefined in the bitcode)",
                        out.undefined_from_missing.join(", ")
                    )
                }
            ));
        }
        self.modules.insert(output.to_path_buf(), module.clone());
        self.library_objects.insert(output.to_path_buf(), whole);
        self.links.insert(output.to_path_buf(), out);
        Ok(module)
    }
}
