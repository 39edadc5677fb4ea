//! The modules of the build's outputs: per static library one module of its
//! objects; per executable and shared library its objects (direct, or the
//! contents of the partial links and copies it names) linked whole, then,
//! with `llvm-link --only-needed` in link order, the modules of the static
//! and shared libraries of the project it links, as a linker resolves them.

use super::assemble::{defined_symbols, llvm_link, undefined_symbols, LeftOut, Output};
use super::completeness;
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
            inputs,
            sources: parts
                .with_bitcode
                .iter()
                .filter_map(|o| self.source_of(o))
                .collect(),
            missing_bitcode: parts.without.iter().map(|m| rel(self.root, m)).collect(),
            carried: objects.clone(),
            objects,
            gone: why_gone(archive, false, None),
            ..Output::new(rel(self.root, archive), "static-library")
        };
        let mut module = None;
        match self.dest_for(archive) {
            Some(target) if !bcs.is_empty() => {
                std::fs::create_dir_all(target.parent().expect("has a parent"))?;
                match llvm_link(&bcs, &[], &target, self.cache) {
                    Ok(()) => {
                        out.bitcode = Some(rel(self.dest, &target));
                        out.module_functions = completeness::count_functions(&target);
                        if out.module_functions == Some(0) {
                            self.warnings.push(format!(
                                "{}: its module defines no function (its members hold data only)",
                                out.output
                            ));
                        }
                        module = Some(target);
                    }
                    Err(e) => self
                        .warnings
                        .push(format!("{}: llvm-link failed: {e}", out.output)),
                }
            }
            Some(_) if out.inputs.is_empty() => out.gone = Some("an empty archive".into()),
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

    /// An executable or shared library; its module: the objects the output
    /// names (its section: exactly what the linker put into it, the members
    /// it took from archives included), then the inputs' objects that name
    /// nothing; then, `--only-needed`, the modules of the project's static
    /// and shared libraries it links, in link order (for an output that
    /// names nothing, that is how what a linker takes is worked out).
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
        let kind = if *shared {
            "shared-library"
        } else {
            "executable"
        };
        let mut out = Output {
            carried: carried.iter().map(|o| rel(self.root, o)).collect(),
            build_id: build_id.clone(),
            gone: why_gone(output, !*shared, build_id.as_deref()),
            ..Output::new(rel(self.root, output), kind)
        };
        let read = self.read_inputs(cwd, inputs, &mut out)?;
        // What the output names, in link order: the truth of what the
        // linker linked. Objects of the inputs that name nothing (a failed
        // objcopy) are linked whole after them.
        let named: Vec<PathBuf> = dedup(
            carried
                .iter()
                .filter(|o| self.logged.bitcode_of(o).is_some())
                .cloned(),
        );
        let mut whole: Vec<PathBuf> = read.whole.clone();
        let mut from_libraries: Vec<PathBuf> = Vec::new();
        for o in &named {
            if whole.contains(o) {
                continue;
            }
            if read.taken_from_libraries.contains(o) {
                from_libraries.push(o.clone());
            } else {
                // Objects the build deleted after the link (as libtool does
                // with the members it extracts): the output names them.
                whole.push(o.clone());
            }
        }
        // Then what the project's libraries define that the module still
        // lacks: nothing for code compiled as the build compiled it, but
        // clang-19 against musl's headers may call what GCC against glibc's
        // did not (a helper another compiler inlines).
        let mut libraries = read.shared_modules.clone();
        libraries.extend(read.static_modules.iter().cloned());
        let linked: Vec<PathBuf> = whole.iter().chain(&from_libraries).cloned().collect();
        out.sources = linked.iter().filter_map(|o| self.source_of(o)).collect();
        out.objects = whole.iter().map(|o| rel(self.root, o)).collect();
        out.from_libraries = from_libraries.iter().map(|o| rel(self.root, o)).collect();
        let bcs: Vec<PathBuf> = linked
            .iter()
            .filter_map(|o| self.logged.bitcode_of(o))
            .collect();
        let module = self.link_module(output, &bcs, &libraries, &linked, &read, &mut out)?;
        self.warn_missing_bitcode(&out);
        self.modules.insert(output.to_path_buf(), module.clone());
        self.library_objects.insert(output.to_path_buf(), linked);
        self.links.insert(output.to_path_buf(), out);
        Ok(module)
    }

    /// Links the module of `output` (`out`) from `bcs` and, only as needed,
    /// the modules of the project's `libraries`, into the capture
    /// directory, and checks it against the `linked` objects; the module,
    /// or `None` (a warning says why, unless the output has no place
    /// there).
    fn link_module(
        &mut self,
        output: &Path,
        bcs: &[PathBuf],
        libraries: &[PathBuf],
        linked: &[PathBuf],
        read: &Read,
        out: &mut Output,
    ) -> Result<Option<PathBuf>> {
        match self.dest_for(output) {
            Some(target) if !bcs.is_empty() => {
                std::fs::create_dir_all(target.parent().expect("has a parent"))?;
                match llvm_link(bcs, libraries, &target, self.cache) {
                    Ok(()) => {
                        out.bitcode = Some(rel(self.dest, &target));
                        if !read.missing_objects.is_empty() {
                            let undefined = undefined_symbols(&target);
                            let mut left: BTreeSet<String> = BTreeSet::new();
                            for m in &read.missing_objects {
                                left.extend(defined_symbols(m).intersection(&undefined).cloned());
                            }
                            out.undefined_from_missing = left.into_iter().collect();
                        }
                        self.check_module(output, &target, linked, bcs, read, out);
                        return Ok(Some(target));
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
        Ok(None)
    }

    /// The warning about the objects of `out` without bitcode: what the
    /// module calls that they define.
    fn warn_missing_bitcode(&mut self, out: &Output) {
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
    }

    /// Reads a link's command line: its objects (with the contents of
    /// partial links and copies), the libraries of the project it names, and
    /// what has no bitcode. Fills `out`'s inputs and external libraries.
    fn read_inputs(&mut self, cwd: &Path, inputs: &[String], out: &mut Output) -> Result<Read> {
        let mut search: Vec<PathBuf> = vec![cwd.to_path_buf()];
        let mut r = Read::default();
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
                    let is_shared = matches!(
                        self.logged.links.get(&lib),
                        Some(Record::Link { shared: true, .. })
                    );
                    if is_shared {
                        // Its functions are its own file's, not the
                        // program's (and it has startup code of its own).
                        r.shared_modules.extend(module);
                    } else {
                        r.files.push(lib.clone());
                        r.static_modules.extend(module);
                        if let Some(objs) = self.library_objects.get(&lib) {
                            r.taken_from_libraries.extend(objs.iter().cloned());
                        }
                    }
                }
                // An object is linked as one whatever its name (readline
                // renames its shared library's objects `history.so`).
                None if written.starts_with("-l")
                    || ((a.ends_with(".a") || is_shared_name(a)) && !is_object(&path))
                    || self.logged.is_archive(&path) =>
                {
                    out.external_libraries.push(written)
                }
                None => {
                    out.inputs.push(rel(self.root, &path));
                    r.files.push(path.clone());
                    let parts = self.logged.parts(&path);
                    if parts.is_empty() {
                        out.missing_bitcode.push(rel(self.root, &path));
                        r.missing_objects.push(path);
                        continue;
                    }
                    for o in parts.with_bitcode {
                        if !r.whole.contains(&o) {
                            r.whole.push(o);
                        }
                    }
                    for o in parts.without {
                        out.missing_bitcode.push(rel(self.root, &o));
                        r.missing_objects.push(o);
                    }
                }
            }
        }
        Ok(r)
    }

    /// Where `main` comes from, and the module against the linked file's
    /// symbol table: a function of the project the file has and the module
    /// lacks is a warning naming the file that defines it.
    fn check_module(
        &mut self,
        output: &Path,
        module: &Path,
        linked: &[PathBuf],
        bcs: &[PathBuf],
        read: &Read,
        out: &mut Output,
    ) {
        if out.kind == "executable" {
            let with_bc: Vec<&PathBuf> = linked
                .iter()
                .filter(|o| self.logged.bitcode_of(o).is_some())
                .collect();
            out.main_from = completeness::defines_main(bcs)
                .and_then(|i| with_bc.get(i))
                .map(|o| self.source_of(o).unwrap_or_else(|| rel(self.root, o)));
        }
        // Objects first: a function is named after the object that defines
        // it rather than the archive member or partial link holding it.
        let mut files: Vec<PathBuf> = linked.to_vec();
        files.extend(read.missing_objects.iter().cloned());
        files.extend(read.files.iter().cloned());
        match completeness::compare(output, module, &dedup(files.into_iter()), linked) {
            Some(c) => {
                out.module_functions = Some(c.module_functions);
                out.native_functions = Some(c.native_functions);
                let not_linked: Vec<&completeness::MissingFunction> = c
                    .missing
                    .iter()
                    .filter(|m| !m.compiled_differently)
                    .collect();
                out.complete = Some(not_linked.is_empty());
                if !not_linked.is_empty() {
                    let mut by_file: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
                    for m in &not_linked {
                        by_file.entry(&m.object).or_default().push(&m.symbol);
                    }
                    self.warnings.push(format!(
                        "{}: its module lacks {} of the {} function(s) the linked file has \
                         from the project: {}",
                        out.output,
                        not_linked.len(),
                        c.native_functions,
                        by_file
                            .iter()
                            .map(|(f, syms)| format!(
                                "{} ({})",
                                rel(self.root, Path::new(f)),
                                syms.join(", ")
                            ))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ));
                }
                out.missing_functions = c.missing;
            }
            None => out.module_functions = completeness::count_functions(module),
        }
        if out.kind == "executable" && out.main_from.is_none() {
            self.warnings.push(format!(
                "{}: its module has no `main`{}",
                out.output,
                if out.missing_bitcode.is_empty() {
                    String::new()
                } else {
                    format!(" (no bitcode for {})", out.missing_bitcode.join(", "))
                }
            ));
        }
    }
}

/// What a link's command line names.
#[derive(Default)]
struct Read {
    /// Objects linked whole, in link order.
    whole: Vec<PathBuf>,
    /// The members of the project's static libraries it names.
    taken_from_libraries: BTreeSet<PathBuf>,
    /// Modules of the project's static and shared libraries it names.
    static_modules: Vec<PathBuf>,
    shared_modules: Vec<PathBuf>,
    /// Objects without bitcode.
    missing_objects: Vec<PathBuf>,
    /// The project's files it names (objects, partial links, libraries).
    files: Vec<PathBuf>,
}

/// Why the output at `path` is not what the build made when the build ends:
/// deleted (a link probe, a configure test, a temporary file), replaced by
/// another file, or (an executable) without the permission to run it.
fn why_gone(path: &Path, executable: bool, build_id: Option<&str>) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(path) else {
        return Some(
            "deleted by the build after it was made (a link probe, a configure test or a \
             temporary file)"
                .into(),
        );
    };
    if !meta.is_file() {
        return Some("not a file when the build ends".into());
    }
    if let Some(id) = build_id {
        if super::carry::build_id(path).as_deref() != Some(id) {
            return Some("replaced after it was linked (the file there is another one)".into());
        }
    }
    if executable && meta.permissions().mode() & 0o111 == 0 {
        return Some("not executable when the build ends".into());
    }
    None
}

/// Whether a link input names a shared library by its file name
/// (`libz.so`, `libz.so.1.2.13`), not an object in a directory whose name has
/// `.so` in it (Meson's `libfoo.so.1.2.p/foo.c.o`).
fn is_shared_name(input: &str) -> bool {
    let name = Path::new(input)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.ends_with(".so") || name.contains(".so.")
}

/// Whether `path` is a relocatable ELF object (`ET_REL`), whatever its name.
fn is_object(path: &Path) -> bool {
    match super::elf::head(path, 18).as_deref() {
        Some([0x7f, b'E', b'L', b'F', _, endian, rest @ ..]) if rest.len() == 12 => {
            let t = [rest[10], rest[11]];
            let e_type = if *endian == 2 {
                u16::from_be_bytes(t)
            } else {
                u16::from_le_bytes(t)
            };
            e_type == 1
        }
        _ => false,
    }
}

fn dedup(items: impl Iterator<Item = PathBuf>) -> Vec<PathBuf> {
    let mut seen = BTreeSet::new();
    items.filter(|p| seen.insert(p.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::is_shared_name;

    #[test]
    fn a_shared_library_is_named_by_its_file_name() {
        assert!(is_shared_name("libz.so"));
        assert!(is_shared_name("/usr/lib/libz.so.1.2.13"));
        assert!(is_shared_name("../lib/libfoo.so.1"));
        assert!(!is_shared_name(
            "gdk-pixbuf/libgdk_pixbuf-2.0.so.0.4200.10.p/gdk-pixbuf.c.o"
        ));
        assert!(!is_shared_name("main.o"));
        assert!(!is_shared_name("libsoap.a"));
    }
}
