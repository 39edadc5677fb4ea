//! Targets from the project's own build (`build` with `binary` or `library`):
//! one capture per distinct build command for all its targets, then per
//! target the module to explore and the recorded compile commands of the code
//! in it (what the native coverage build and the emitted suite compile).

use crate::capture::assemble::{Manifest, Output};
use crate::capture::{self, CaptureError, CaptureOptions};
use crate::config::Kind;
use crate::discovery::{Artifact, BuildSpec, Target};
use crate::escape::{unrepresentable, unsafe_file_name};
use crate::fsutil::relative;
use crate::progress::{Event, Phase};
use crate::units::{self, Archive, Arg, NativeInputs, Unit};
use crate::Error;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

mod deps;
mod pkgconfig;

/// A target's share of a capture.
#[derive(Clone, Debug)]
pub struct Captured {
    /// The captured module: the executable's (`binary`) or the library's.
    pub bitcode: PathBuf,
    /// The modules of the project's libraries the library (`library`)
    /// needs, in link order: what a module linked with the library takes
    /// after it, as needed (a static library's module holds none of them).
    pub dependencies: Vec<PathBuf>,
    /// What the native builds compile and link (harness sources included).
    pub native: NativeInputs,
    /// The capture directory (bitcode, `compile_commands.json`, `manifest.json`).
    pub capture_dir: PathBuf,
    /// The output as the manifest names it (relative to the project root).
    pub output: String,
}

/// Where the pipeline keeps the capture of a build command: one directory per
/// command (and header set), so each keeps its records from run to run.
pub fn capture_dir(build_root: &Path, command: &[String], musl: bool) -> PathBuf {
    let mut slug: String = command
        .join("-")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let key = format!("{}\0{musl}", command.join("\0"));
    let hash = crate::capture::wrapper::path_hash(Path::new(&key));
    slug.push_str(&format!("-{:08x}", hash as u32));
    if musl {
        slug.push_str("-musl");
    }
    build_root.join("capture").join(slug)
}

/// Captures every build the targets name (once per command) and resolves each
/// target's output. Bad input (a failing build, an output the build did not
/// produce) is an error before any target runs.
pub fn capture_all(
    root: &Path,
    targets: &[Target],
    build_root: &Path,
    on_event: &mut dyn FnMut(Event),
) -> Result<HashMap<String, Captured>, Error> {
    let mut groups: Vec<(&[String], Vec<&Target>)> = Vec::new();
    for t in targets {
        let Some(b) = &t.build else { continue };
        match groups.iter_mut().find(|(c, _)| *c == b.command.as_slice()) {
            Some((_, ts)) => ts.push(t),
            None => groups.push((&b.command, vec![t])),
        }
    }
    let mut out = HashMap::new();
    for (command, ts) in groups {
        // The engine runs programs with musl: their bitcode is compiled
        // against musl's headers (as `capture --musl`).
        // A capture against musl's headers, which `init --from-build` makes,
        // serves harnesses too (they run with musl as well): an up-to-date
        // build is described by its records.
        let musl = ts.iter().any(|t| t.kind == Kind::Program)
            || capture_dir(build_root, command, true)
                .join(crate::capture::log::LOG_FILE)
                .is_file();
        let dir = capture_dir(build_root, command, musl);
        for t in &ts {
            on_event(Event::Phase {
                target: t.name.clone(),
                phase: Phase::Capturing,
                detail: format!("(`{}`)", command.join(" ")),
            });
        }
        let options = CaptureOptions {
            root: root.to_path_buf(),
            out: dir.clone(),
            musl,
            build: command.iter().map(Into::into).collect(),
            quiet_build: true,
            append: true,
        };
        let first = ts[0];
        let place = format!(
            "{}:{}: key `build`",
            first.config_file.display(),
            first.build.as_ref().map_or(first.line, |b| b.command_line)
        );
        let manifest = match capture::capture(&options) {
            Ok(m) => m,
            Err(CaptureError::BuildFailed { output, .. }) => {
                return Err(Error::BuildFailed {
                    message: format!(
                        "{place}: the build command `{}` failed; no target was run \
                         (its output is above)",
                        command.join(" ")
                    ),
                    output: output.unwrap_or_default(),
                })
            }
            Err(e @ CaptureError::NothingCompiled { .. }) => {
                return Err(Error::BadInput(format!(
                    "{place}: {e}\n  symtest must see the compiles once: clean the build \
                     (e.g. `make clean`) and run again; later runs reuse what it recorded"
                )))
            }
            Err(e) => return Err(Error::BadInput(format!("{place}: {e}"))),
        };
        for t in ts {
            let spec = t.build.as_ref().expect("grouped by build");
            let c = resolve(root, &dir, &manifest, t, spec)?;
            out.insert(t.name.clone(), c);
        }
    }
    Ok(out)
}

/// What a build produced, for `cargo symtest init --from-build`.
#[derive(Debug)]
pub struct Produced {
    /// The programs and libraries to list, and what was left out.
    pub selection: crate::user_targets::Selection,
    /// The capture's warnings.
    pub warnings: Vec<String>,
    /// Where the capture went (the pipeline reuses it).
    pub capture_dir: PathBuf,
}

/// Runs `command` from `root` under capture, where the pipeline keeps the
/// capture of that build for program targets (so its first run reuses what
/// this one recorded), and lists what the build produced for its users
/// ([`crate::user_targets`]). The build's output goes to the terminal.
pub fn produced(root: &Path, build_root: &Path, command: &[String]) -> Result<Produced, Error> {
    let dir = capture_dir(build_root, command, true);
    let options = CaptureOptions {
        root: root.to_path_buf(),
        out: dir.clone(),
        musl: true,
        build: command.iter().map(Into::into).collect(),
        quiet_build: false,
        append: true,
    };
    let m = match capture::capture(&options) {
        Ok(m) => m,
        Err(e @ (CaptureError::BuildFailed { .. } | CaptureError::NothingCompiled { .. })) => {
            return Err(Error::BadInput(e.to_string()))
        }
        Err(e) => return Err(Error::Other(anyhow::Error::new(e))),
    };
    Ok(Produced {
        selection: crate::user_targets::select(root, &m, command, &dir),
        warnings: m.warnings.clone(),
        capture_dir: dir,
    })
}

/// What a target's module lacks that exploring it needs: `main` (a
/// program), any function (a library); with the inputs that had no bitcode.
fn lacking_code(m: &Manifest, output: &Output, kind: Kind) -> Option<String> {
    output.bitcode.as_ref()?;
    let lacks = if kind == Kind::Program && output.kind == "executable" {
        output.main_from.is_none().then_some("has no `main`")
    } else {
        (output.module_functions == Some(0)).then_some("defines no function")
    }?;
    let mut without: Vec<String> = output.missing_bitcode.clone();
    for input in &output.inputs {
        if let Some(lib) = m.outputs.iter().find(|o| &o.output == input) {
            if lib.bitcode.is_none() || !lib.missing_bitcode.is_empty() {
                without.push(format!(
                    "{input} ({})",
                    if lib.bitcode.is_none() {
                        "no member has bitcode".to_string()
                    } else {
                        format!("no bitcode for {}", lib.missing_bitcode.join(", "))
                    }
                ));
            }
        }
    }
    Some(if without.is_empty() {
        format!(
            "{lacks}: none of the code the linker put into it defines one (its objects: {})",
            if output.carried.is_empty() {
                output.inputs.join(", ")
            } else {
                output.carried.join(", ")
            }
        )
    } else {
        format!(
            "{lacks}: the objects or archives without bitcode are {} (assembly, C++ or a \
             compile clang-19 refused)",
            without.join(", ")
        )
    })
}

/// What `cargo symtest list` says of a build target's module, from the
/// last capture of its build (None: not captured yet).
pub fn module_summary(root: &Path, build_root: &Path, t: &Target) -> Option<String> {
    let spec = t.build.as_ref()?;
    let manifest = [true, false].iter().find_map(|&musl| {
        let p = capture_dir(build_root, &spec.command, musl).join("manifest.json");
        let text = std::fs::read_to_string(p).ok()?;
        serde_json::from_str::<serde_json::Value>(&text).ok()
    })?;
    let wanted = match &spec.artifact {
        Artifact::Binary(p) | Artifact::Library(p) => relative(p, root),
    };
    let outputs = manifest["outputs"].as_array()?;
    let o = outputs
        .iter()
        .find(|o| o["output"].as_str().map(Path::new) == Some(wanted.as_path()))
        .or_else(|| {
            outputs.iter().find(|o| {
                o["output"]
                    .as_str()
                    .is_some_and(|n| Path::new(n).ends_with(&spec.written))
            })
        })
        .or_else(|| {
            // A copy (stripped, renamed): the output with its build-id.
            let id = crate::capture::carry::build_id(&root.join(&wanted))?;
            outputs
                .iter()
                .find(|o| o["build_id"].as_str() == Some(id.as_str()))
        })?;
    let functions = o["module_functions"]
        .as_u64()
        .map_or("?".to_string(), |n| n.to_string());
    let mut text = format!("module: {functions} functions");
    if o["kind"] == "executable" {
        match o["main_from"].as_str() {
            Some(src) => text.push_str(&format!(", main from {src}")),
            None => text.push_str(", no main"),
        }
    }
    let missing = o["missing_functions"].as_array().map_or(0, |m| {
        m.iter()
            .filter(|f| f["compiled_differently"] != true)
            .count()
    });
    if missing > 0 {
        text.push_str(&format!(", {missing} functions of the linked file missing"));
    }
    if let Some(why) = o["gone"].as_str() {
        text.push_str(&format!(", output gone: {why}"));
    }
    Some(text)
}

/// The message for an output the build did not produce.
fn not_produced(t: &Target, spec: &BuildSpec, kind: &str, produced: &[&Output]) -> Error {
    let list = if produced.is_empty() {
        format!("it produced no {kind}")
    } else {
        format!(
            "it produced: {}",
            produced
                .iter()
                .map(|o| o.output.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Error::BadInput(format!(
        "{}:{}: key `{}`: the build `{}` did not produce `{}` (target `{}`); {list}",
        t.config_file.display(),
        spec.line,
        spec.key(),
        spec.command.join(" "),
        spec.written,
        t.name,
    ))
}

/// The output a target names: by path, else (one) by file name or trailing
/// path components among outputs that exist.
fn find<'m>(root: &Path, outputs: &[&'m Output], wanted: &Path, written: &str) -> Vec<&'m Output> {
    let abs = |o: &Output| crate::capture::log::normalize(root, Path::new(&o.output));
    let wanted = crate::capture::log::normalize(root, wanted);
    let exact: Vec<&Output> = outputs
        .iter()
        .copied()
        .filter(|o| abs(o) == wanted)
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    let tail = Path::new(written);
    let by_tail: Vec<&Output> = outputs
        .iter()
        .copied()
        .filter(|o| abs(o).ends_with(tail) && abs(o).exists())
        .collect();
    if !by_tail.is_empty() {
        return by_tail;
    }
    // A copy of an output (stripped, renamed), a libtool wrapper script or
    // `.la` file: the output it is.
    let kind = outputs.first().map_or("", |o| o.kind);
    crate::capture::identity::find(root, outputs, &wanted, kind)
}

fn resolve(
    root: &Path,
    dir: &Path,
    m: &Manifest,
    t: &Target,
    spec: &BuildSpec,
) -> Result<Captured, Error> {
    let output = output_of(root, m, t, spec)?;
    let bc = bitcode_of(m, output, t, spec)?;
    let (native, dependencies) = match &spec.artifact {
        Artifact::Binary(_) => (program_inputs(root, dir, m, output, bc), Vec::new()),
        Artifact::Library(_) => {
            let needs = deps::library_dependencies(m, output);
            let modules = needs
                .iter()
                .filter_map(|d| d.bitcode.as_ref().map(|b| dir.join(b)))
                .collect();
            (library_inputs(root, dir, m, t, output, bc, &needs), modules)
        }
    };
    check_nameable(root, t, &native)?;
    Ok(Captured {
        bitcode: dir.join(bc),
        dependencies,
        native,
        capture_dir: dir.to_path_buf(),
        output: output.output.clone(),
    })
}

/// The output of the build `spec` names, or why there is none (or several).
fn output_of<'m>(
    root: &Path,
    m: &'m Manifest,
    t: &Target,
    spec: &BuildSpec,
) -> Result<&'m Output, Error> {
    let (kind, wanted) = match &spec.artifact {
        Artifact::Binary(p) => ("executable", p),
        Artifact::Library(p) => ("static-library", p),
    };
    let of_kind: Vec<&Output> = m.outputs.iter().filter(|o| o.kind == kind).collect();
    let mut found = find(root, &of_kind, wanted, &spec.written);
    if found.is_empty() && kind == "static-library" {
        // A harness may link a shared library's objects as well.
        let shared: Vec<&Output> = m
            .outputs
            .iter()
            .filter(|o| o.kind == "shared-library")
            .collect();
        found = find(root, &shared, wanted, &spec.written);
    }
    match found.as_slice() {
        [] => {
            let what = if kind == "executable" {
                "executable"
            } else {
                "static library"
            };
            Err(not_produced(t, spec, what, &of_kind))
        }
        [o] => Ok(*o),
        many => Err(Error::BadInput(format!(
                "{}:{}: key `{}`: `{}` names several outputs of the build: {}; give its path (target `{}`)",
                t.config_file.display(),
                spec.line,
                spec.key(),
                spec.written,
                many.iter().map(|o| o.output.as_str()).collect::<Vec<_>>().join(", "),
                t.name
            ))),
    }
}

/// The bitcode of `output`, or why it cannot be tested: the build
/// removed or replaced it, its module lacks code, or it has no bitcode.
fn bitcode_of<'m>(
    m: &Manifest,
    output: &'m Output,
    t: &Target,
    spec: &BuildSpec,
) -> Result<&'m String, Error> {
    let place = format!(
        "{}:{}: key `{}`",
        t.config_file.display(),
        spec.line,
        spec.key()
    );
    if let Some(why) = &output.gone {
        return Err(Error::BadInput(format!(
            "{place}: `{}` cannot be tested after the build `{}`: {why} (target `{}`)",
            output.output,
            spec.command.join(" "),
            t.name
        )));
    }
    if let Some(missing) = lacking_code(m, output, t.kind) {
        return Err(Error::BadInput(format!(
            "{place}: the module of `{}` {missing}; not explored (target `{}`){}",
            output.output,
            t.name,
            m.warnings
                .iter()
                .filter(|w| w.starts_with(&format!("{}:", output.output)))
                .map(|w| format!("\n  {w}"))
                .collect::<String>()
        )));
    }
    output.bitcode.as_ref().ok_or_else(|| {
        let why: Vec<&String> = m
            .warnings
            .iter()
            .filter(|w| w.starts_with(&output.output))
            .collect();
        Error::BadInput(format!(
            "{}:{}: key `{}`: the build produced `{}` but no bitcode of it (target `{}`){}",
            t.config_file.display(),
            spec.line,
            spec.key(),
            output.output,
            t.name,
            why.iter().map(|w| format!("\n  {w}")).collect::<String>()
        ))
    })
}

/// What a program's native build links: the project's libraries (as
/// archives of the members the module `bc` took, the members `output`
/// names linked whole), its objects and the external libraries.
fn program_inputs(
    root: &Path,
    dir: &Path,
    m: &Manifest,
    output: &Output,
    bc: &str,
) -> NativeInputs {
    let mut native = NativeInputs::default();
    // The members the program's module took from each archive: the
    // native link takes the same ones (a coreutils utility links 280
    // of gnulib's members into libcoreutils.a and needs a few dozen).
    let needed = symbols(&[dir.join(bc)])
        .and_then(|mut d| d.pop())
        .map(|(_, syms)| syms.defined);
    // The libraries of the project, each rebuilt from what a linker
    // takes of it (a shared library's objects as a static one).
    // The archive members the output names are linked whole, as
    // the linker did; of each library, the other members the module
    // took something from stay in an archive.
    let whole: BTreeSet<&String> = output.from_libraries.iter().collect();
    for input in &output.inputs {
        let lib = m
            .outputs
            .iter()
            .find(|o| &o.output == input && matches!(o.kind, "static-library" | "shared-library"));
        if let Some(lib) = lib {
            let path = root.join(&lib.output);
            let i = match native.archives.iter().position(|a| a.path == path) {
                Some(i) => i,
                None => {
                    let a = archive(root, dir, m, lib, needed.as_ref(), &whole);
                    if a.members.is_empty() && a.objects.is_empty() {
                        continue;
                    }
                    native.archives.push(a);
                    native.archives.len() - 1
                }
            };
            native.archive_links.push(i);
        }
    }
    // The objects linked whole (those inside partial links and
    // copies included); objects without bitcode as the build made them.
    for object in output.objects.iter().chain(&output.from_libraries) {
        native.units.extend(unit_of(root, m, object));
    }
    for object in &output.missing_bitcode {
        let path = root.join(object);
        if path.is_file() && !native.objects.contains(&path) {
            native.objects.push(path);
        }
    }
    native.libs = output.external_libraries.clone();
    // A shared library of the project is linked as an archive of its
    // objects: what it was linked with comes along (`-ljpeg`).
    for input in &output.inputs {
        if let Some(lib) = m
            .outputs
            .iter()
            .find(|o| &o.output == input && o.kind == "shared-library")
        {
            for l in &lib.external_libraries {
                if !native.libs.contains(l) {
                    native.libs.push(l.clone());
                }
            }
        }
    }
    native.add_unit_link_options();
    native.serial_openmp();
    native
}

/// What a library target's native build links: its harness sources and
/// the library (as an archive), with what the library was linked with: the
/// project's libraries it needs (`needs`, as archives of the members that
/// define what its module `bc` defines or calls), then the system's.
fn library_inputs(
    root: &Path,
    dir: &Path,
    m: &Manifest,
    t: &Target,
    output: &Output,
    bc: &str,
    needs: &[&Output],
) -> NativeInputs {
    let mut native = NativeInputs {
        units: t
            .sources
            .iter()
            .map(|s| units::harness_unit(t, s))
            .collect(),
        ..NativeInputs::default()
    };
    native
        .archives
        .push(archive(root, dir, m, output, None, &BTreeSet::new()));
    native.archive_links.push(0);
    // What a shared library was linked with (`-lonig` for libjq.so);
    // a static one records nothing, so the shared library the build
    // made of the same name says it (libtool makes both: `-lxml2`).
    native.libs = output.external_libraries.clone();
    if native.libs.is_empty() && output.kind == "static-library" {
        let mine = deps::stem(&output.output);
        if let Some(shared) = m
            .outputs
            .iter()
            .find(|o| o.kind == "shared-library" && deps::stem(&o.output) == mine)
        {
            native.libs = shared.external_libraries.clone();
        }
    }
    // What its pkg-config file says it needs of the system: a shared
    // library's link may name none of it (readline's `tinfo`).
    let project: BTreeSet<String> = m
        .outputs
        .iter()
        .filter(|o| matches!(o.kind, "static-library" | "shared-library"))
        .map(|o| deps::stem(&o.output))
        .collect();
    for l in pkgconfig::system_libraries(root, &deps::stem(&output.output), &project) {
        if !native.libs.contains(&l) {
            native.libs.push(l);
        }
    }
    // The module's defined functions hold what a shared library's module
    // took of its dependencies; its undefined ones what a static one calls.
    let wanted: Option<BTreeSet<String>> = symbols(&[dir.join(bc)])
        .and_then(|mut d| d.pop())
        .map(|(_, s)| s.defined.union(&s.undefined).cloned().collect());
    for lib in needs {
        let a = archive(root, dir, m, lib, wanted.as_ref(), &BTreeSet::new());
        if a.members.is_empty() && a.objects.is_empty() {
            continue;
        }
        native.archives.push(a);
        native.archive_links.push(native.archives.len() - 1);
        for l in &lib.external_libraries {
            if !native.libs.contains(l) {
                native.libs.push(l.clone());
            }
        }
    }
    native.add_unit_link_options();
    native.serial_openmp();
    native
}

/// The native builds check no more undefined behaviour in the project's code
/// than the engine does: UBSan's `pointer-overflow` check (which aborts on
/// `NULL + 0`, as toybox's and jq's startup code do on every run) is not in the
/// captured bitcode, so the native sanitizer build leaves it out too (this
/// flag comes after the build's `-fsanitize=` flags and overrides them).
const NOT_CHECKED: &str = "-fno-sanitize=pointer-overflow";

/// The unit that made `object` (relative to the root), from its compile entry.
fn unit_of(root: &Path, m: &Manifest, object: &str) -> Option<Unit> {
    let c = m.compiles.iter().find(|c| c.object == object)?;
    let mut args = units::recorded_args(&c.flags, Path::new(&c.directory));
    args.push(Arg::Word(NOT_CHECKED.into()));
    Some(Unit {
        source: crate::capture::log::normalize(root, Path::new(&c.source)),
        args,
        link: c.versions.iter().flat_map(|v| v.link_words()).collect(),
    })
}

/// A static library's members as units; with `needed` (the external symbols
/// a program's module defines), only the members a linker takes: those that
/// define one of them, then those that define a symbol a taken member leaves
/// undefined, until no more are taken (the module was linked function by
/// function, a native link takes whole members). Members without bitcode are
/// kept; those in `linked_whole` (compiled as the program's own units) are not.
fn archive(
    root: &Path,
    dir: &Path,
    m: &Manifest,
    lib: &Output,
    needed: Option<&BTreeSet<String>>,
    linked_whole: &BTreeSet<&String>,
) -> Archive {
    let mut a = Archive {
        path: root.join(&lib.output),
        members: Vec::new(),
        objects: Vec::new(),
    };
    let bitcode = |member: &String| -> Option<PathBuf> {
        let c = m.compiles.iter().find(|c| &c.object == member)?;
        c.bitcode.as_ref().map(|b| dir.join(b))
    };
    // Its objects with bitcode (the contents of partial links and nested
    // archives included, and for a shared library the members of static
    // libraries its linker took: a Meson library's `--whole-archive`d
    // helper libraries), then its objects without.
    let members: Vec<&String> = if lib.objects.is_empty() && lib.from_libraries.is_empty() {
        lib.inputs.iter().collect()
    } else {
        lib.objects
            .iter()
            .chain(&lib.from_libraries)
            .chain(&lib.missing_bitcode)
            .collect()
    };
    let members_bc: Vec<PathBuf> = members.iter().filter_map(|m| bitcode(m)).collect();
    let table: Option<BTreeMap<PathBuf, Symbols>> = needed
        .and_then(|_| symbols(&members_bc))
        .map(|v| v.into_iter().collect());
    let taken: Option<BTreeSet<PathBuf>> = match (needed, &table) {
        (Some(needed), Some(table)) => Some(closure(needed, table)),
        _ => None,
    };
    for member in members {
        let wanted = match (&taken, bitcode(member)) {
            (Some(taken), Some(bc)) => taken.contains(&bc),
            _ => true,
        };
        if !wanted || linked_whole.contains(member) {
            continue;
        }
        // A member without bitcode (assembly, a failed compile) is linked
        // as the build made it.
        match unit_of(root, m, member).filter(|_| bitcode(member).is_some()) {
            Some(u) => a.members.push(u),
            None => a.objects.push(root.join(member)),
        }
    }
    a
}

/// The members a linker takes for a program whose code defines `needed`.
fn closure(needed: &BTreeSet<String>, table: &BTreeMap<PathBuf, Symbols>) -> BTreeSet<PathBuf> {
    let mut taken: BTreeSet<PathBuf> = table
        .iter()
        .filter(|(_, s)| !s.defined.is_disjoint(needed))
        .map(|(f, _)| f.clone())
        .collect();
    loop {
        let defined: BTreeSet<&String> =
            taken.iter().flat_map(|f| table[f].defined.iter()).collect();
        let wanted: BTreeSet<&String> = taken
            .iter()
            .flat_map(|f| table[f].undefined.iter())
            .filter(|u| !defined.contains(u) && !needed.contains(*u))
            .collect();
        let more: Vec<PathBuf> = table
            .iter()
            .filter(|(f, s)| !taken.contains(*f) && s.defined.iter().any(|d| wanted.contains(d)))
            .map(|(f, _)| f.clone())
            .collect();
        if more.is_empty() {
            return taken;
        }
        taken.extend(more);
    }
}

/// The external symbols a bitcode file defines, and those it needs from
/// elsewhere (strong undefined: what makes a linker take an archive member).
#[derive(Debug, Default)]
struct Symbols {
    defined: BTreeSet<String>,
    undefined: BTreeSet<String>,
}

/// The symbols of each bitcode file (`llvm-nm-19`, one call); None if
/// llvm-nm cannot run.
fn symbols(files: &[PathBuf]) -> Option<Vec<(PathBuf, Symbols)>> {
    if files.is_empty() {
        return Some(Vec::new());
    }
    let o = std::process::Command::new("llvm-nm-19")
        .args(["--extern-only", "--print-file-name", "-P"])
        .args(files)
        .output()
        .ok()?;
    if !o.status.success() {
        return None;
    }
    let mut by_file: BTreeMap<PathBuf, Symbols> = files
        .iter()
        .map(|f| (f.clone(), Symbols::default()))
        .collect();
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        // `FILE: SYMBOL TYPE VALUE SIZE` (llvm-nm prints the file even for one).
        let Some((file, rest)) = line.rsplit_once(": ") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let (Some(set), Some(sym), Some(kind)) =
            (by_file.get_mut(Path::new(file)), words.next(), words.next())
        else {
            continue;
        };
        match kind {
            "U" => {
                set.undefined.insert(sym.to_string());
            }
            // Weak undefined symbols take no member.
            "w" | "v" => {}
            _ => {
                set.defined.insert(sym.to_string());
            }
        }
    }
    Some(by_file.into_iter().collect())
}

/// The generated Makefile names every file and flag: refuse what it cannot.
fn check_nameable(root: &Path, t: &Target, n: &NativeInputs) -> Result<(), Error> {
    let bad = |what: String| {
        Err(Error::BadInput(format!(
            "target `{}`: {what}, which the generated suite cannot name",
            t.name
        )))
    };
    let files = n
        .all_units()
        .map(|u| &u.source)
        .chain(&n.objects)
        .chain(n.archives.iter().flat_map(|a| a.objects.iter()));
    for f in files {
        let shown = relative(f, root).display().to_string();
        if let Some(c) = unsafe_file_name(&shown) {
            return bad(format!("`{shown}` has {c:?} in its name"));
        }
    }
    for u in n.all_units() {
        for a in &u.args {
            let text = match a {
                Arg::Word(w) => w.clone(),
                Arg::Path { path, .. } => path.display().to_string(),
                Arg::SuiteDir => continue,
            };
            if let Some(why) = unrepresentable(&text) {
                return bad(format!(
                    "a compile flag of {} {text:?} {why}",
                    relative(&u.source, root).display()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_a_linker_takes() {
        let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
        let sym = |d: &[&str], u: &[&str]| Symbols {
            defined: set(d),
            undefined: set(u),
        };
        // xmalloc.o is needed for xmalloc; its ximalloc calls imalloc (in
        // ialloc.o), which the function-level bitcode link did not need.
        let table: BTreeMap<PathBuf, Symbols> = [
            (
                "xmalloc",
                sym(&["xmalloc", "ximalloc"], &["imalloc", "malloc"]),
            ),
            ("ialloc", sym(&["imalloc"], &["malloc"])),
            ("unused", sym(&["other"], &["imalloc"])),
        ]
        .into_iter()
        .map(|(f, s)| (PathBuf::from(f), s))
        .collect();
        let taken = closure(&set(&["main", "xmalloc"]), &table);
        assert_eq!(
            taken,
            [PathBuf::from("ialloc"), PathBuf::from("xmalloc")]
                .into_iter()
                .collect()
        );
    }

    #[test]
    fn one_capture_directory_per_command() {
        let b = Path::new("/b");
        let make = ["make".to_string(), "-j2".to_string()];
        let a = capture_dir(b, &make, false);
        assert!(a.starts_with("/b/capture"));
        assert!(a
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("make--j2-"));
        assert_eq!(a, capture_dir(b, &make, false));
        assert_ne!(a, capture_dir(b, &make, true));
        assert_ne!(a, capture_dir(b, &["make".to_string()], false));
    }
}
