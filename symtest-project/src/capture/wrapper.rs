//! The interposed tools of `cargo symtest capture`: the `cargo-symtest` binary
//! started under the name of a compiler (`cc`, `gcc`, `clang`, `c99`,
//! `musl-gcc`), an archiver (`ar`) or a linker (`ld`) from the wrapper
//! directory that capture puts first on `PATH`.
//!
//! Each wrapper runs the real tool with the same arguments first (the build
//! gets exactly what it asked for, configure probes included) and then
//! records what it saw as one JSON line appended to the capture log
//! (`O_APPEND` writes of one line each, so parallel `make -j` jobs do not
//! interleave). A compile also produces LLVM 19 bitcode of each C source it
//! compiled; a bitcode failure is recorded, never fails the build.

use super::log::{Record, LOG_ENV};
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The environment variable naming the wrapper directory (to find the real
/// tools on `PATH` after it).
pub const BIN_ENV: &str = "SYMTEST_CAPTURE_BIN";
/// Where bitcode objects are stored.
pub const STORE_ENV: &str = "SYMTEST_CAPTURE_STORE";
/// Set to `1` to compile bitcode against musl's headers whatever the compiler.
pub const MUSL_ENV: &str = "SYMTEST_CAPTURE_MUSL";
/// The musl include directory to use (set by capture).
pub const MUSL_INCLUDE_ENV: &str = "SYMTEST_CAPTURE_MUSL_INCLUDE";

/// Names under which the binary acts as a compiler (the GNU triplet's
/// names too: Debian's rules call `x86_64-linux-gnu-gcc`).
pub const COMPILERS: &[&str] = &[
    "cc",
    "gcc",
    "clang",
    "c99",
    "c89",
    "musl-gcc",
    "x86_64-linux-gnu-gcc",
];
/// Names under which it acts as an archiver.
pub const ARCHIVERS: &[&str] = &["ar", "x86_64-linux-gnu-ar"];
/// Names under which it acts as a linker.
pub const LINKERS: &[&str] = &["ld", "x86_64-linux-gnu-ld"];
/// Names under which it acts as an assembler (a direct call: make's rule for
/// `.s` files).
pub const ASSEMBLERS: &[&str] = &["as"];
/// Names it only passes through.
pub const PASS_THROUGH: &[&str] = &["ranlib", "x86_64-linux-gnu-ranlib"];

/// The file that marks a wrapper directory.
pub const MARKER: &str = ".symtest-wrappers";

/// If this process was started as one of the wrappers, runs it and returns its
/// exit code: under a capture (`SYMTEST_CAPTURE_LOG` set) it records, else
/// (a build system that remembered the wrapper's path, as CMake does) it only
/// runs the real tool.
pub fn dispatch() -> Option<ExitCode> {
    let argv0 = std::env::args_os().next()?;
    let capturing = std::env::var_os(LOG_ENV).is_some();
    let dir = Path::new(&argv0)
        .parent()
        .filter(|d| !d.as_os_str().is_empty());
    if !capturing && !dir.is_some_and(|d| d.join(MARKER).is_file()) {
        return None;
    }
    let name = Path::new(&argv0).file_name()?.to_str()?.to_string();
    let known = COMPILERS
        .iter()
        .chain(ARCHIVERS)
        .chain(LINKERS)
        .chain(ASSEMBLERS)
        .chain(PASS_THROUGH)
        .any(|n| *n == name);
    if !known {
        return None;
    }
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if !capturing {
        return Some(pass_through(&name, dir, &args));
    }
    Some(run(&name, &args))
}

/// Runs the real tool (the first `name` on `PATH` outside the wrapper
/// directory `ours`) and records nothing.
fn pass_through(name: &str, ours: Option<&Path>, args: &[OsString]) -> ExitCode {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let ours = ours.and_then(|d| d.canonicalize().ok());
    let real = std::env::split_paths(&path)
        .filter(|d| d.canonicalize().ok() != ours)
        .map(|d| d.join(name))
        .find(|p| p.is_file());
    let Some(real) = real else {
        eprintln!("symtest wrapper: no `{name}` on PATH");
        return ExitCode::from(127);
    };
    match Command::new(&real).args(args).status() {
        Ok(s) => ExitCode::from(s.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("symtest wrapper: cannot run {}: {e}", real.display());
            ExitCode::from(127)
        }
    }
}

fn run(name: &str, args: &[OsString]) -> ExitCode {
    let real = match real_tool(name) {
        Some(r) => r,
        None => {
            eprintln!("symtest capture: no `{name}` on PATH after the wrappers");
            return ExitCode::from(127);
        }
    };
    let status = match Command::new(&real).args(args).status() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("symtest capture: cannot run {}: {e}", real.display());
            return ExitCode::from(127);
        }
    };
    let code = status.code().unwrap_or(1);
    if status.success() {
        let cwd = std::env::current_dir().unwrap_or_default();
        let args = &expand_response_files(args, &cwd);
        let record = if COMPILERS.contains(&name) {
            compile_records(name, args, &cwd)
        } else if ARCHIVERS.contains(&name) {
            archive_record(args, &cwd).into_iter().collect()
        } else if LINKERS.contains(&name) && !called_by_compiler_driver() {
            link_record(args, &cwd, false).into_iter().collect()
        } else if ASSEMBLERS.contains(&name) && !called_by_compiler_driver() {
            assembly_record(args, &cwd).into_iter().collect()
        } else {
            Vec::new()
        };
        for r in record {
            append(&r);
        }
    }
    ExitCode::from(code.clamp(0, 255) as u8)
}

/// Whether the parent process is a compiler driver's linker stage (gcc's
/// `collect2`, or a driver itself): that link was recorded by the compiler
/// wrapper already.
fn called_by_compiler_driver() -> bool {
    let ppid = std::os::unix::process::parent_id();
    let comm = std::fs::read_to_string(format!("/proc/{ppid}/comm")).unwrap_or_default();
    let comm = comm.trim();
    comm == "collect2"
        || COMPILERS.contains(&comm)
        || comm.starts_with("clang")
        || comm.starts_with("x86_64-linux-g")
}

/// The real `name`: the first on `PATH` outside the wrapper directory.
fn real_tool(name: &str) -> Option<PathBuf> {
    let ours = std::env::var_os(BIN_ENV).map(PathBuf::from);
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|d| ours.as_deref() != Some(d.as_path()))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn append(r: &Record) {
    let Some(log) = std::env::var_os(LOG_ENV) else {
        return;
    };
    let Ok(mut line) = serde_json::to_string(r) else {
        return;
    };
    line.push('\n');
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
    {
        let _ = f.write_all(line.as_bytes());
    }
}

fn lossy(v: &[OsString]) -> Vec<String> {
    v.iter().map(|a| a.to_string_lossy().into_owned()).collect()
}

fn abs(cwd: &Path, p: &OsStr) -> PathBuf {
    super::log::normalize(cwd, Path::new(p))
}

/// Options whose value is the next argument.
const WITH_VALUE: &[&str] = &[
    "-o",
    "-I",
    "-D",
    "-U",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-x",
    "-MF",
    "-MT",
    "-MQ",
    "-L",
    "-l",
    "-Xlinker",
    "-Xpreprocessor",
    "-Xassembler",
    "-T",
    "-u",
    "-e",
    "--param",
    "-aux-info",
];

/// What a compiler command line does.
#[derive(Default)]
struct Compile {
    /// `-c`, `-S` or `-E`: no link.
    stage: Option<String>,
    output: Option<OsString>,
    /// (source, language given by `-x`).
    sources: Vec<(OsString, Option<String>)>,
    /// Flags that matter for the translation of a C file.
    cflags: Vec<OsString>,
    /// Objects, archives and `-l`/`-L` in order (for a link).
    link_inputs: Vec<OsString>,
    shared: bool,
    /// `-r`: a partial link (objects combined into one object).
    relocatable: bool,
    /// `-M`/`-MM` without `-MD`: dependencies only.
    deps_only: bool,
    /// The OpenMP flags (`-fopenmp`...): the bitcode compile drops them, as
    /// it runs OpenMP code serially (`bitcode::drop_openmp`).
    openmp: Vec<OsString>,
}

fn is_c(path: &OsStr, lang: Option<&str>) -> bool {
    match lang {
        Some(l) => l == "c",
        None => Path::new(path).extension().is_some_and(|e| e == "c"),
    }
}

fn is_source(path: &OsStr, lang: Option<&str>) -> bool {
    if lang.is_some_and(|l| l != "none") {
        return true;
    }
    let ext = Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().into_owned());
    matches!(
        ext.as_deref(),
        Some("c" | "i" | "s" | "S" | "sx" | "cc" | "cpp" | "cxx" | "C" | "c++" | "m")
    )
}

fn parse(args: &[OsString]) -> Compile {
    let mut c = Compile::default();
    let mut lang: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let s = a.to_string_lossy();
        let next = args.get(i + 1);
        if WITH_VALUE.contains(&s.as_ref()) {
            let Some(v) = next else { break };
            match s.as_ref() {
                "-o" => c.output = Some(v.clone()),
                "-x" => lang = Some(v.to_string_lossy().into_owned()),
                "-I" | "-D" | "-U" | "-include" | "-imacros" | "-isystem" | "-iquote"
                | "-idirafter" => {
                    c.cflags.push(a.clone());
                    c.cflags.push(v.clone());
                }
                "-L" | "-l" => {
                    c.link_inputs.push(a.clone());
                    c.link_inputs.push(v.clone());
                }
                _ => {}
            }
            i += 2;
            continue;
        }
        match s.as_ref() {
            "-c" | "-S" | "-E" => c.stage = Some(s.into_owned()),
            "-shared" => c.shared = true,
            "-r" | "-Wl,-r" | "-Wl,--relocatable" => c.relocatable = true,
            "-M" | "-MM" => c.deps_only = true,
            _ if s.starts_with("-o") && s.len() > 2 => c.output = Some(s[2..].into()),
            _ if s.starts_with("-x") && s.len() > 2 => lang = Some(s[2..].to_string()),
            _ if ["-I", "-D", "-U"].iter().any(|p| s.starts_with(p)) => c.cflags.push(a.clone()),
            _ if s.starts_with("-std=")
                || s.starts_with("-fno-builtin")
                || s == "-ansi"
                || s == "-funsigned-char"
                || s == "-fsigned-char"
                || s == "-pthread"
                || s.starts_with("-fshort-")
                || (s.starts_with("-m") && !s.starts_with("-mf")) =>
            {
                c.cflags.push(a.clone())
            }
            _ if s.starts_with("-L") || s.starts_with("-l") => c.link_inputs.push(a.clone()),
            _ if super::bitcode::is_openmp_flag(&s) => c.openmp.push(a.clone()),
            _ if s.starts_with('-') => {}
            _ => {
                if is_source(a, lang.as_deref()) {
                    c.sources.push((a.clone(), lang.clone()));
                } else {
                    c.link_inputs.push(a.clone());
                }
            }
        }
        i += 1;
    }
    c
}

/// The arguments of a compiler command line that matter for translating a C
/// source: include directories, macros, language standard, target options.
pub fn translation_flags(args: &[String]) -> Vec<String> {
    let os: Vec<OsString> = args.iter().map(OsString::from).collect();
    lossy(&parse(&os).cflags)
}

/// Records of one compiler invocation: a compile record per C source (with
/// its bitcode), a warning per source that is not C, and a link record when
/// the invocation links.
fn compile_records(name: &str, args: &[OsString], cwd: &Path) -> Vec<Record> {
    let c = parse(args);
    let mut out = Vec::new();
    if c.deps_only || c.stage.as_deref().is_some_and(|s| s != "-c") {
        return out;
    }
    let links = c.stage.is_none();
    // `-o /dev/null` (a compiler or link probe): nothing to record but that.
    if let Some(o) = &c.output {
        let output = abs(cwd, o);
        if std::fs::metadata(&output).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            out.push(Record::Probe { output });
            return out;
        }
    }
    let mut objects = Vec::new();
    // Objects of this command with bitcode.
    let mut private = Vec::new();
    for (src, lang) in &c.sources {
        let source = abs(cwd, src);
        let object = match (&c.output, links, c.sources.len()) {
            (Some(o), false, 1) => abs(cwd, o),
            _ => {
                // `cc -c a.c b.c` writes a.o, b.o here; a compile-and-link
                // keeps its objects private: name them after the output.
                let stem = Path::new(src).file_stem().unwrap_or_default();
                let mut n = stem.to_os_string();
                n.push(".o");
                if links {
                    let exe = c.output.clone().unwrap_or_else(|| "a.out".into());
                    let mut p = abs(cwd, &exe).into_os_string();
                    p.push("#");
                    p.push(&n);
                    PathBuf::from(p)
                } else {
                    cwd.join(n)
                }
            }
        };
        let probe = super::log::is_probe(&source) || super::log::is_probe(&object);
        if probe {
        } else if !is_c(src, lang.as_deref()) {
            out.push(Record::Foreign {
                source: source.clone(),
                object: object.clone(),
            });
        } else {
            let mut r = bitcode(name, &c, &source, &object, args, cwd);
            // The object names its bitcode (a compile-and-link's objects are
            // temporary: the program names them below).
            if let Record::Compile {
                bitcode: Some(_),
                carry_error,
                ..
            } = &mut r
            {
                if !links {
                    *carry_error =
                        super::carry::embed(&object, std::slice::from_ref(&object)).err();
                }
                private.push(object.clone());
            }
            out.push(r);
        }
        objects.push(object);
    }
    // A driver call with nothing to link (`cc -v`, `cc -print-file-name=...`).
    let nothing = objects.is_empty()
        && !c
            .link_inputs
            .iter()
            .any(|a| !a.to_string_lossy().starts_with('-'));
    let probe_sources = c
        .sources
        .iter()
        .any(|(src, _)| super::log::is_probe(&abs(cwd, src)));
    if links && !nothing && !probe_sources {
        let mut inputs: Vec<OsString> = objects.into_iter().map(PathBuf::into_os_string).collect();
        inputs.extend(c.link_inputs.iter().cloned());
        let exe = c.output.clone().unwrap_or_else(|| "a.out".into());
        if !super::log::is_probe(&abs(cwd, &exe)) {
            let output = abs(cwd, &exe);
            if !private.is_empty() {
                // The objects a compile-and-link compiled are gone; the
                // program names them.
                let _ = super::carry::embed(&output, &private);
            }
            out.extend(finish_link(Record::Link {
                cwd: cwd.to_path_buf(),
                output,
                inputs: lossy(&inputs),
                shared: c.shared,
                relocatable: c.relocatable,
                carried: Vec::new(),
                build_id: None,
            }));
        }
    }
    out
}

/// A link record completed from the file it made: what the file carries
/// (read now: the build may delete or move it later) and its build-id. None
/// when the output is not a regular file (`-o /dev/null`: a probe).
fn finish_link(mut r: Record) -> Option<Record> {
    if let Record::Link {
        output,
        carried,
        build_id,
        ..
    } = &mut r
    {
        if !std::fs::metadata(&*output).is_ok_and(|m| m.is_file()) {
            return None;
        }
        *carried = super::carry::carried(output).unwrap_or_default();
        *build_id = super::carry::build_id(output);
        settle_access_time(output);
    }
    Some(r)
}

/// Sets a file's access time to its modification time, so that the next
/// time anything opens it (the build running it, `strip` reading it) the
/// system records the access (Linux's default `relatime` updates the access
/// time only when it is not already later than the modification time, and
/// a linker may have read its output back). `init --from-build` tells the
/// programs the build ran from those it left untouched by it.
fn settle_access_time(path: &Path) {
    let Ok(f) = super::elf::open_quietly(path) else {
        return;
    };
    if let Ok(mtime) = f.metadata().and_then(|m| m.modified()) {
        let _ = f.set_times(std::fs::FileTimes::new().set_accessed(mtime));
    }
}

/// The arguments with each `@FILE` (a response file, as gcc, ld and ar read
/// them) replaced by the words it holds.
fn expand_response_files(args: &[OsString], cwd: &Path) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len());
    for a in args {
        let s = a.to_string_lossy();
        let text = s
            .strip_prefix('@')
            .and_then(|f| std::fs::read_to_string(cwd.join(f)).ok());
        match text {
            Some(t) => out.extend(split_words(&t).into_iter().map(OsString::from)),
            None => out.push(a.clone()),
        }
    }
    out
}

/// Words as gcc reads a response file: blanks separate, quotes group,
/// backslash escapes.
fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        match (ch, quote) {
            ('\\', _) => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
                in_word = true;
            }
            (q, Some(open)) if q == open => quote = None,
            (_, Some(_)) => word.push(ch),
            ('\'' | '"', None) => {
                quote = Some(ch);
                in_word = true;
            }
            (c, None) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (c, None) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Compiles `source` to bitcode into the store; the record says where, or why not.
fn bitcode(
    name: &str,
    c: &Compile,
    source: &Path,
    object: &Path,
    args: &[OsString],
    cwd: &Path,
) -> Record {
    let store = std::env::var_os(STORE_ENV).map(PathBuf::from);
    let bc = store.map(|s| s.join(format!("{:016x}.bc", path_hash(object))));
    let mut outcome = super::bitcode::Outcome::default();
    if let Some(bc) = &bc {
        let mut base: Vec<OsString> = crate::toolchain::BITCODE_FLAGS
            .iter()
            .chain(&["-c", "-w"])
            .map(OsString::from)
            .collect();
        let musl = name == "musl-gcc" || std::env::var_os(MUSL_ENV).is_some_and(|v| v == "1");
        if musl {
            if let Some(inc) = std::env::var_os(MUSL_INCLUDE_ENV) {
                base.extend(["-nostdinc".into(), "-isystem".into(), inc]);
                // clang's own headers (cpuid.h, immintrin.h, stdarg.h...).
                if let Some(res) = crate::toolchain::resource_include() {
                    base.extend(["-isystem".into(), res.into_os_string()]);
                }
            }
        }
        let flags: Vec<OsString> = c.cflags.iter().chain(&c.openmp).cloned().collect();
        outcome = super::bitcode::compile(&base, &flags, source, bc, cwd);
    }
    let super::bitcode::Outcome {
        mut error,
        dropped,
        added,
    } = outcome;
    // The build's object names the default symbol versions clang-19 left
    // out of the bitcode (symver.rs).
    let versions = super::symver::default_versions(object);
    if let (Some(bc), None, false) = (&bc, &error, versions.is_empty()) {
        error = super::symver::define_in_bitcode(bc, &versions)
            .err()
            .map(|e| format!("cannot define the default symbol versions: {e}"));
    }
    Record::Compile {
        cwd: cwd.to_path_buf(),
        compiler: name.to_string(),
        source: source.to_path_buf(),
        object: object.to_path_buf(),
        bitcode: if error.is_none() { bc } else { None },
        arguments: args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        error,
        dropped,
        added,
        carry_error: None,
        versions,
    }
}

/// A stable 64-bit FNV-1a hash of a path (names bitcode objects).
pub fn path_hash(p: &Path) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in p.as_os_str().as_encoded_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// `ar` with an operation that adds members (`r`, `q`): the archive and its
/// new members, in order.
fn archive_record(args: &[OsString], cwd: &Path) -> Option<Record> {
    let mut it = args
        .iter()
        .filter(|a| !a.to_string_lossy().starts_with("--"));
    let ops = it
        .next()?
        .to_string_lossy()
        .trim_start_matches('-')
        .to_string();
    if !ops.contains('r') && !ops.contains('q') {
        return None;
    }
    // Modifiers `a`, `b`, `i` take a position member name before the archive.
    let mut rest: Vec<&OsString> = it.collect();
    if ops.contains('a') || ops.contains('b') || ops.contains('i') {
        if rest.is_empty() {
            return None;
        }
        rest.remove(0);
    }
    let (archive, members) = rest.split_first()?;
    Some(Record::Archive {
        archive: abs(cwd, archive),
        members: members.iter().map(|m| abs(cwd, m)).collect(),
    })
}

/// `as` invoked directly: its source and object (no bitcode can be made).
fn assembly_record(args: &[OsString], cwd: &Path) -> Option<Record> {
    let mut output = None;
    let mut source = None;
    let mut i = 0;
    while i < args.len() {
        let s = args[i].to_string_lossy();
        if s == "-o" {
            output = args.get(i + 1).cloned();
            i += 1;
        } else if !s.starts_with('-') {
            source = Some(args[i].clone());
        }
        i += 1;
    }
    Some(Record::Foreign {
        source: abs(cwd, &source?),
        object: abs(cwd, &output.unwrap_or_else(|| "a.out".into())),
    })
}

/// `ld` invoked directly: its output and inputs.
fn link_record(args: &[OsString], cwd: &Path, shared: bool) -> Option<Record> {
    let mut output = None;
    let mut inputs = Vec::new();
    let mut shared = shared;
    let mut relocatable = false;
    let mut i = 0;
    while i < args.len() {
        let s = args[i].to_string_lossy();
        match s.as_ref() {
            "-o" => {
                output = args.get(i + 1).cloned();
                i += 1;
            }
            "-L" | "-l" => {
                inputs.push(args[i].clone());
                if let Some(v) = args.get(i + 1) {
                    inputs.push(v.clone());
                }
                i += 1;
            }
            "-shared" => shared = true,
            "-r" | "--relocatable" | "-i" | "-Ur" => relocatable = true,
            _ if s.starts_with("-l") || s.starts_with("-L") => inputs.push(args[i].clone()),
            _ if s.starts_with('-') => {}
            _ => inputs.push(args[i].clone()),
        }
        i += 1;
    }
    // `ld -v`, `ld --version`: nothing linked.
    if !inputs.iter().any(|a| !a.to_string_lossy().starts_with('-')) {
        return None;
    }
    finish_link(Record::Link {
        cwd: cwd.to_path_buf(),
        output: abs(cwd, &output.unwrap_or_else(|| "a.out".into())),
        inputs: lossy(&inputs),
        shared,
        relocatable,
        carried: Vec::new(),
        build_id: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_compile_and_link_lines() {
        let c = parse(&os(&[
            "-O2", "-DX=1", "-I", "inc", "-c", "a.c", "-o", "obj/a.o", "-Wall",
        ]));
        assert_eq!(c.stage.as_deref(), Some("-c"));
        assert_eq!(c.output, Some("obj/a.o".into()));
        assert_eq!(c.sources.len(), 1);
        assert_eq!(c.cflags, os(&["-DX=1", "-I", "inc"]));
        let l = parse(&os(&[
            "main.o",
            "-L.",
            "-lfoo",
            "lib/libbar.a",
            "-o",
            "prog",
            "-lm",
        ]));
        assert!(l.stage.is_none());
        assert_eq!(
            l.link_inputs,
            os(&["main.o", "-L.", "-lfoo", "lib/libbar.a", "-lm"])
        );
        let x = parse(&os(&["-x", "c", "prog.in", "-c"]));
        assert_eq!(x.sources[0].1.as_deref(), Some("c"));
    }

    #[test]
    fn archive_operations_with_members() {
        let cwd = Path::new("/b");
        let Some(Record::Archive { archive, members }) =
            archive_record(&os(&["cru", "libx.a", "a.o", "sub/b.o"]), cwd)
        else {
            panic!()
        };
        assert_eq!(archive, PathBuf::from("/b/libx.a"));
        assert_eq!(
            members,
            [PathBuf::from("/b/a.o"), PathBuf::from("/b/sub/b.o")]
        );
        assert!(archive_record(&os(&["t", "libx.a"]), cwd).is_none());
        assert!(archive_record(&os(&["-rcs", "l.a", "x.o"]), cwd).is_some());
    }
}
