//! The project configuration: `[[target]]` tables in `symtest.toml`, or under
//! `[package.metadata.symtest]` in a package's Cargo.toml.
//!
//! Errors name the file, the line and the key at fault (from the TOML spans).

use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};
use toml::Spanned;

mod crosscheck;
pub use crosscheck::function_form;

/// The largest `max-memory` (and `--max-memory`) accepted anywhere (MiB): 16 TiB.
pub const MAX_MEMORY_MIB: u64 = 1 << 24;

/// What a target is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A C file whose `main` marks inputs symbolic through `symtest.h`.
    Harness,
    /// An unmodified `main(argc, argv)` run in the symbolic environment (`args`).
    Program,
    /// A library tested through a harness generated from its public headers
    /// (`headers`): every function declared there, with inputs from its types.
    Library,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Harness => "harness",
            Kind::Program => "program",
            Kind::Library => "library",
        }
    }
}

/// One `[[target]]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TargetTable {
    pub name: Spanned<String>,
    pub kind: Kind,
    /// Globs relative to the config file's directory (`*`, `?`, `**`).
    /// Optional for a target from a build (`build`): a program's sources come
    /// from the build; a harness lists only its own files.
    pub sources: Option<Spanned<Vec<String>>>,
    /// The project's own build command, run from the project root under
    /// `cargo symtest capture` (`["make", "-j2"]`, `["cargo", "build"]`).
    pub build: Option<Spanned<Vec<String>>>,
    /// `program` from a build: the executable the build links (a path relative
    /// to the config file's directory, e.g. `src/echo`).
    pub binary: Option<Spanned<String>>,
    /// `harness` from a build: the static library the build makes (a path, or a
    /// file name found among the build's outputs, e.g. `libfoo.a`).
    pub library: Option<Spanned<String>>,
    #[serde(default)]
    pub include: Vec<String>,
    #[serde(default)]
    pub defines: Vec<String>,
    /// Extra compiler flags (both for bitcode and native builds).
    #[serde(default)]
    pub cflags: Vec<String>,
    /// UBSan checks compiled into the bitcode (default: [`DEFAULT_SANITIZE`]).
    pub sanitize: Option<Vec<String>>,
    /// Program arguments / symbolic environment (`--sym-args 0 2 4`, ...); `program` only.
    #[serde(default)]
    pub args: Vec<String>,
    pub max_time: Option<Spanned<f64>>,
    pub max_instructions: Option<Spanned<u64>>,
    pub max_memory: Option<Spanned<u64>>,
    pub seed: Option<u64>,
    /// `program` only: seed the run with the program's own options, read
    /// from its getopt tables (`exec --option-seeds`). Default: on.
    pub option_seeds: Option<bool>,
    #[serde(default)]
    pub search: Vec<String>,
    pub entry_point: Option<String>,
    /// Further `cargo symtest exec` options, passed as written.
    pub exec_args: Option<Spanned<Vec<String>>>,
    /// Where the native regression suite goes (default `tests/symtest/<name>`),
    /// relative to the config file's directory and inside it.
    pub suite_dir: Option<Spanned<String>>,
    /// `library` only: the public headers (globs), whose functions are tested.
    pub headers: Option<Spanned<Vec<String>>>,
    /// `library` only: only the functions whose names match these globs.
    #[serde(default)]
    pub functions: Vec<String>,
    /// `library` only: preconditions per function, C expressions over its
    /// parameters (`assume = { parse = ["len <= 64", "s != NULL"] }`).
    #[serde(default)]
    pub assume: std::collections::BTreeMap<String, Vec<String>>,
    /// `library` only: the elements of the object a pointer parameter points to.
    pub pointer_elements: Option<Spanned<u64>>,
    /// `library` only: how deep pointers inside structures are followed.
    pub pointer_depth: Option<Spanned<u64>>,
    /// `library` only: calls after the one that makes a handle in a call
    /// sequence (0: no sequences).
    pub sequence_length: Option<Spanned<u64>>,
    /// `program` from a build only: the project's test command (`["make",
    /// "check"]`), run from the config file's directory after the build with
    /// the program (`binary`) wrapped; each run of it becomes a seed.
    pub seed_tests: Option<Spanned<Vec<String>>>,
    /// `program` only: a glob of input files, each a seed.
    pub seed_inputs: Option<Spanned<String>>,
    /// How a `seed-inputs` file reaches the program (default: stdin).
    pub seed_inputs_as: Option<Spanned<SeedInputsAs>>,
    /// The largest object (argument, file, stdin) of a seed, in bytes; larger
    /// ones are cut there (default [`DEFAULT_SEED_MAX_BYTES`]).
    pub seed_max_bytes: Option<Spanned<u64>>,
}

/// How a `seed-inputs` file reaches the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeedInputsAs {
    /// As its standard input: `prog < input`.
    Stdin,
    /// As its file argument: `prog A` with the model's file `A` holding it.
    File,
}

/// The default `seed-max-bytes`.
pub const DEFAULT_SEED_MAX_BYTES: u64 = 4096;

/// The largest `seed-max-bytes` accepted (1 MiB per object).
pub const MAX_SEED_MAX_BYTES: u64 = 1 << 20;

/// The longest time budget accepted anywhere (about 115 days): every duration
/// is checked against it before it becomes a `Duration` (which panics on
/// values it cannot hold) or reaches the engine.
pub const MAX_SECONDS: f64 = 1e7;

/// UBSan checks the bitcode gets unless a target says otherwise.
pub const DEFAULT_SANITIZE: &[&str] = crate::recipe::DEFAULT_UBSAN;

/// A whole `symtest.toml` (or the `[package.metadata.symtest]` table).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default)]
    pub target: Vec<Spanned<TargetTable>>,
    /// `[[crosscheck]]`: two implementations compared in one symbolic
    /// environment ([`crate::crosscheck`]).
    #[serde(default)]
    pub crosscheck: Vec<Spanned<CrosscheckTable>>,
}

/// One `[[crosscheck]]` table as written. Exactly one of its forms is given:
/// `programs` (two program targets of the same file; `args` their shared
/// symbolic environment), `functions` (`["lib:f", "lib:g"]`, two functions of
/// one signature from library targets) or `inverse` (`["lib:enc",
/// "lib:dec"]`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CrosscheckTable {
    pub name: Spanned<String>,
    /// The names of two `kind = "program"` targets of the same file.
    pub programs: Option<Spanned<Vec<String>>>,
    /// Function level (`["libA:f", "libB:g"]`): `f(x)` against `g(x)`.
    pub functions: Option<Spanned<Vec<String>>>,
    /// An inverse pair (`["lib:encode", "lib:decode"]`): `x` against
    /// `decode(encode(x))`.
    pub inverse: Option<Spanned<Vec<String>>>,
    /// The symbolic environment both programs share (`--sym-args 0 2 2`, ...).
    pub args: Option<Spanned<Vec<String>>>,
    pub max_time: Option<Spanned<f64>>,
    pub max_instructions: Option<Spanned<u64>>,
    pub seed: Option<u64>,
}

#[derive(Deserialize)]
struct Manifest {
    package: Option<ManifestPackage>,
}
#[derive(Deserialize)]
struct ManifestPackage {
    metadata: Option<ManifestMetadata>,
}
#[derive(Deserialize)]
struct ManifestMetadata {
    symtest: Option<ConfigFile>,
}

/// A configuration error at a place in a file.
#[derive(Debug)]
pub struct ConfigError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if let Some(k) = &self.key {
            write!(f, ": key `{k}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// 1-based line of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The key assigned on the line holding `offset` (`key = value`), if any.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?;
    let (k, _) = line.split_once('=')?;
    let k = k.trim();
    let ok = !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.\"".contains(c));
    ok.then(|| k.trim_matches('"').to_string())
}

fn from_toml_error(file: &Path, text: &str, e: &toml::de::Error) -> ConfigError {
    let offset = e.span().map(|s| s.start);
    let mut key = offset.and_then(|o| key_at(text, o));
    let message = e.message().trim().to_string();
    if key.is_none() {
        // serde names missing or unknown fields in its message.
        key = ["missing field `", "unknown field `"]
            .iter()
            .find_map(|p| message.split_once(p))
            .and_then(|(_, rest)| rest.split('`').next())
            .map(str::to_string);
    }
    ConfigError {
        file: file.to_path_buf(),
        line: offset.map(|o| line_of(text, o)),
        key,
        message,
    }
}

/// Parses a `symtest.toml`.
pub fn parse_config_file(file: &Path, text: &str) -> Result<ConfigFile, ConfigError> {
    toml::from_str::<ConfigFile>(text).map_err(|e| from_toml_error(file, text, &e))
}

/// Parses the `[package.metadata.symtest]` table of a Cargo.toml (None if absent).
pub fn parse_manifest(file: &Path, text: &str) -> Result<Option<ConfigFile>, ConfigError> {
    let m = toml::from_str::<Manifest>(text).map_err(|e| from_toml_error(file, text, &e))?;
    Ok(m.package.and_then(|p| p.metadata).and_then(|m| m.symtest))
}

/// Checks what serde cannot: names, non-empty sources, positive budgets.
pub fn validate(file: &Path, text: &str, cfg: &ConfigFile) -> Result<(), ConfigError> {
    let err = |span: std::ops::Range<usize>, key: &str, message: String| ConfigError {
        file: file.to_path_buf(),
        line: Some(line_of(text, span.start)),
        key: Some(key.to_string()),
        message,
    };
    let mut seen = std::collections::HashSet::new();
    for t in &cfg.target {
        let t = t.get_ref();
        let name = t.name.get_ref();
        check_name(file, "target", &t.name, &err)?;
        if !seen.insert(name.clone()) {
            return Err(err(
                t.name.span(),
                "name",
                format!("two targets are named `{name}`"),
            ));
        }
        for (key, values) in [
            ("defines", &t.defines),
            ("cflags", &t.cflags),
            ("include", &t.include),
            ("args", &t.args),
        ] {
            for v in values {
                if let Some(why) = crate::escape::unrepresentable(v) {
                    return Err(err(
                        t.name.span(),
                        key,
                        format!("{v:?} {why} (target `{name}`)"),
                    ));
                }
            }
        }
        check_build(t, &err)?;
        check_library(t, &err)?;
        check_seeds(t, &err)?;
        if let Some(d) = &t.suite_dir {
            if let Err(why) = inside_relative(d.get_ref()) {
                return Err(err(
                    d.span(),
                    "suite-dir",
                    format!(
                        "`{}` {why}: the suite must stay inside the project (target `{name}`)",
                        d.get_ref()
                    ),
                ));
            }
        }
        for (key, v, max) in [
            ("max-memory", t.max_memory.as_ref(), MAX_MEMORY_MIB),
            ("max-instructions", t.max_instructions.as_ref(), u64::MAX),
        ] {
            if let Some(v) = v {
                let n = *v.get_ref();
                if n == 0 || n > max {
                    return Err(err(
                        v.span(),
                        key,
                        format!("must be between 1 and {max} (got {n}; target `{name}`)"),
                    ));
                }
            }
        }
        check_max_time(t.max_time.as_ref(), &err)?;
    }
    for c in &cfg.crosscheck {
        crosscheck::check_crosscheck(file, cfg, c.get_ref(), &mut seen, &err)?;
    }
    Ok(())
}

/// A name of a target or crosscheck (`what`): it names directories.
fn check_name(
    file: &Path,
    what: &str,
    name: &Spanned<String>,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    let n = name.get_ref();
    let why = if n.is_empty()
        || !n
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        || n.starts_with('.')
    {
        Some(format!(
            "{what} name `{n}` must be letters, digits, `-`, `_` or `.` (it names directories)"
        ))
    } else if let Some(why) = reserved_name(n) {
        Some(format!("{what} name `{n}` {why}; choose another name"))
    } else {
        name_too_long(file, n)
    };
    why.map_or(Ok(()), |why| Err(err(name.span(), "name", why)))
}

/// Words of a program's `args` that are options of the symbolic environment
/// (KLEE's, with one or two dashes).
pub fn is_environment_option(word: &str) -> bool {
    let name = word.strip_prefix("--").or_else(|| word.strip_prefix('-'));
    matches!(
        name,
        Some("sym-arg" | "sym-args" | "sym-files" | "sym-stdin" | "sym-stdout" | "max-fail")
    )
}

/// The keys of a target from a build (`build`, `binary`, `library`) and its
/// `sources`, together.
fn check_build(
    t: &TargetTable,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    let name = t.name.get_ref();
    let Some(build) = &t.build else {
        return check_sources_only(t, err);
    };
    if build.get_ref().is_empty() || build.get_ref()[0].trim().is_empty() {
        return Err(err(
            build.span(),
            "build",
            "the build command is empty (e.g. build = [\"make\", \"-j2\"])".into(),
        ));
    }
    for w in build.get_ref() {
        if w.contains('\n') || w.contains('\0') {
            return Err(err(
                build.span(),
                "build",
                format!("{w:?} holds a line break or NUL (target `{name}`)"),
            ));
        }
    }
    check_build_output(t, build.span(), err)
}

/// A target without `build`: its `sources`, and no build output named.
fn check_sources_only(
    t: &TargetTable,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    let name = t.name.get_ref();
    for (key, v) in [("binary", &t.binary), ("library", &t.library)] {
        if let Some(v) = v {
            return Err(err(
                v.span(),
                key,
                format!("`{key}` names an output of the project's build: give the build command as `build` (e.g. build = [\"make\"]) (target `{name}`)"),
            ));
        }
    }
    let sources_empty = t.sources.as_ref().is_none_or(|s| s.get_ref().is_empty());
    match &t.sources {
        Some(s) if sources_empty => Err(err(
            s.span(),
            "sources",
            "a target needs at least one source file or glob".into(),
        )),
        Some(_) => Ok(()),
        None => Err(err(
            t.name.span(),
            "sources",
            format!("target `{name}` needs `sources` (its C files), or `build` with `binary`/`library` to take them from the project's build"),
        )),
    }
}

/// A target from a build (`build` at `build_span`): the output its kind
/// tests (`binary` or `library`), and `sources` where its kind takes them.
fn check_build_output(
    t: &TargetTable,
    build_span: std::ops::Range<usize>,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    let name = t.name.get_ref();
    let sources_empty = t.sources.as_ref().is_none_or(|s| s.get_ref().is_empty());
    match (t.kind, &t.binary, &t.library) {
        (_, Some(_), Some(l)) => Err(err(
            l.span(),
            "library",
            format!("target `{name}` names both `binary` and `library`: one target tests one output"),
        )),
        (Kind::Library, Some(b), None) => Err(err(
            b.span(),
            "binary",
            format!("a `library` target tests a library: name it with `library` (e.g. library = \"libfoo.a\") (target `{name}`)"),
        )),
        (Kind::Library, None, None) => Err(err(
            build_span,
            "library",
            format!("target `{name}` has `build` but no `library`: name the static or shared library the build makes (e.g. library = \"libfoo.a\")"),
        )),
        (Kind::Library, None, Some(_)) => Ok(()),
        (Kind::Program, None, Some(l)) => Err(err(
            l.span(),
            "library",
            format!("a `program` target runs an executable: name it with `binary`, or make target `{name}` kind = \"harness\" to test the library through a harness"),
        )),
        (Kind::Harness, Some(b), None) => Err(err(
            b.span(),
            "binary",
            format!("a `harness` target runs a harness against a library: name it with `library`, or make target `{name}` kind = \"program\" to run the executable"),
        )),
        (Kind::Program, None, None) => Err(err(
            build_span,
            "binary",
            format!("target `{name}` has `build` but no `binary`: name the executable the build links (e.g. binary = \"src/echo\")"),
        )),
        (Kind::Harness, None, None) => Err(err(
            build_span,
            "library",
            format!("target `{name}` has `build` but no `library`: name the static library the build makes (e.g. library = \"libfoo.a\")"),
        )),
        (Kind::Program, Some(_), None) => match &t.sources {
            Some(s) => Err(err(
                s.span(),
                "sources",
                format!("`sources` and `build` together: program target `{name}` takes its sources from the build (remove `sources`, or `build` and `binary`)"),
            )),
            None => Ok(()),
        },
        (Kind::Harness, None, Some(_)) => match &t.sources {
            Some(_) if !sources_empty => Ok(()),
            Some(s) => Err(err(
                s.span(),
                "sources",
                "a harness needs at least one source file or glob (the harness itself)".into(),
            )),
            None => Err(err(
                build_span,
                "sources",
                format!("harness target `{name}` needs `sources`: the harness file(s) that call the library"),
            )),
        },
    }
}

/// The keys of a `library` target (`headers`, `functions`, `assume`,
/// `pointer-elements`, `pointer-depth`), and that no other kind has them.
fn check_library(
    t: &TargetTable,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    let name = t.name.get_ref();
    if t.kind != Kind::Library {
        let given = [
            ("headers", t.headers.as_ref().map(|h| h.span())),
            (
                "pointer-elements",
                t.pointer_elements.as_ref().map(|v| v.span()),
            ),
            ("pointer-depth", t.pointer_depth.as_ref().map(|v| v.span())),
            (
                "sequence-length",
                t.sequence_length.as_ref().map(|v| v.span()),
            ),
        ];
        if let Some((key, Some(span))) = given.into_iter().find(|(_, s)| s.is_some()) {
            return Err(err(
                span,
                key,
                format!(
                    "`{key}` is a key of `library` targets (target `{name}` is kind = \"{}\")",
                    t.kind.as_str()
                ),
            ));
        }
        if !t.functions.is_empty() || !t.assume.is_empty() {
            let key = if t.functions.is_empty() {
                "assume"
            } else {
                "functions"
            };
            return Err(err(
                t.name.span(),
                key,
                format!(
                    "`{key}` is a key of `library` targets (target `{name}` is kind = \"{}\")",
                    t.kind.as_str()
                ),
            ));
        }
        return Ok(());
    }
    match &t.headers {
        None => {
            return Err(err(
                t.name.span(),
                "headers",
                format!("library target `{name}` needs `headers`: the public headers whose functions are tested (e.g. headers = [\"include/foo.h\"])"),
            ))
        }
        Some(h) if h.get_ref().is_empty() => {
            return Err(err(h.span(), "headers", "a library target needs at least one header".into()))
        }
        Some(_) => {}
    }
    for (key, v, lo, hi) in [
        ("pointer-elements", t.pointer_elements.as_ref(), 1, 4096),
        ("pointer-depth", t.pointer_depth.as_ref(), 0, 8),
        ("sequence-length", t.sequence_length.as_ref(), 0, 8),
    ] {
        if let Some(v) = v {
            let n = *v.get_ref();
            if n < lo || n > hi {
                return Err(err(
                    v.span(),
                    key,
                    format!("must be between {lo} and {hi} (got {n}; target `{name}`)"),
                ));
            }
        }
    }
    for (f, conds) in &t.assume {
        for c in conds {
            if c.trim().is_empty() || c.contains(';') || c.contains('\n') || c.contains('{') {
                return Err(err(
                    t.name.span(),
                    "assume",
                    format!("assumption {c:?} of `{f}` must be one C expression over its parameters (target `{name}`)"),
                ));
            }
        }
    }
    Ok(())
}

/// The seed keys (`seed-tests`, `seed-inputs`, `seed-inputs-as`,
/// `seed-max-bytes`): program targets only; the test command needs the
/// program the tests run (`build` with `binary`).
/// A `max-time`: a positive number of seconds, at most `MAX_SECONDS`.
fn check_max_time(
    max_time: Option<&Spanned<f64>>,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    if let Some(mt) = max_time {
        let v = *mt.get_ref();
        if !v.is_finite() || v <= 0.0 || v > MAX_SECONDS {
            return Err(err(
                mt.span(),
                "max-time",
                format!("must be a positive number of seconds up to {MAX_SECONDS:e} (got {v})"),
            ));
        }
    }
    Ok(())
}

fn check_seeds(
    t: &TargetTable,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    let name = t.name.get_ref();
    let given = [
        ("seed-tests", t.seed_tests.as_ref().map(|v| v.span())),
        ("seed-inputs", t.seed_inputs.as_ref().map(|v| v.span())),
        (
            "seed-inputs-as",
            t.seed_inputs_as.as_ref().map(|v| v.span()),
        ),
        (
            "seed-max-bytes",
            t.seed_max_bytes.as_ref().map(|v| v.span()),
        ),
    ];
    if t.kind != Kind::Program {
        if let Some((key, Some(span))) = given.iter().find(|(_, s)| s.is_some()).cloned() {
            return Err(err(
                span,
                key,
                format!(
                    "`{key}` is a key of `program` targets (target `{name}` is kind = \"{}\")",
                    t.kind.as_str()
                ),
            ));
        }
        return Ok(());
    }
    if let Some(cmd) = &t.seed_tests {
        if cmd.get_ref().is_empty() || cmd.get_ref()[0].trim().is_empty() {
            return Err(err(
                cmd.span(),
                "seed-tests",
                format!("the test command of target `{name}` is empty: give its words (e.g. seed-tests = [\"make\", \"check\"])"),
            ));
        }
        if t.build.is_none() || t.binary.is_none() {
            return Err(err(
                cmd.span(),
                "seed-tests",
                format!("`seed-tests` records the runs of the program the build links: target `{name}` needs `build` and `binary` (a target from sources can take seeds from `seed-inputs`)"),
            ));
        }
    }
    if let Some(g) = &t.seed_inputs {
        if g.get_ref().trim().is_empty() {
            return Err(err(
                g.span(),
                "seed-inputs",
                format!("an empty glob (target `{name}`)"),
            ));
        }
    }
    if t.seed_tests.is_none() && t.seed_inputs.is_none() {
        if let Some((key, Some(span))) = given[2..].iter().find(|(_, s)| s.is_some()).cloned() {
            return Err(err(
                span,
                key,
                format!(
                    "`{key}` has no effect without `seed-tests` or `seed-inputs` (target `{name}`)"
                ),
            ));
        }
    }
    if let (None, Some(a)) = (&t.seed_inputs, &t.seed_inputs_as) {
        return Err(err(
            a.span(),
            "seed-inputs-as",
            format!("`seed-inputs-as` says how the files of `seed-inputs` are given: target `{name}` has none"),
        ));
    }
    if let Some(v) = &t.seed_max_bytes {
        let n = *v.get_ref();
        if n == 0 || n > MAX_SEED_MAX_BYTES {
            return Err(err(
                v.span(),
                "seed-max-bytes",
                format!("must be between 1 and {MAX_SEED_MAX_BYTES} (got {n}; target `{name}`)"),
            ));
        }
    }
    Ok(())
}

/// Why a target name cannot be used: it is the name of something else the
/// pipeline or `exec` writes into `symtest-out/`.
fn reserved_name(name: &str) -> Option<&'static str> {
    let exec_run = name
        .strip_prefix("exec-")
        .is_some_and(|n| n == "last" || (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())));
    if name == "summary.json" {
        Some("is the file of the project summary in symtest-out/")
    } else if exec_run {
        Some("is a name `cargo symtest exec` gives its output directories in symtest-out/")
    } else if name == "capture" {
        Some("is the directory `cargo symtest capture` writes in symtest-out/")
    } else {
        None
    }
}

/// The longest file name the pipeline derives from a target name: the
/// staging directory `.<name>.new~`.
const DERIVED_NAME_EXTRA: usize = ".new~".len() + 1;

/// The file system's error when a name derived from `name` is longer than
/// it allows in one file name (checked where the config file lives).
fn name_too_long(file: &Path, name: &str) -> Option<String> {
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let max = name_max(dir);
    let longest = name.len() + DERIVED_NAME_EXTRA;
    (longest > max).then(|| {
        format!(
            "target name of {} bytes: the staging directory `.<name>.new~` symtest derives from it has {longest}, \
             more than this file system allows in a file name ({max}): {}",
            name.len(),
            std::io::Error::from_raw_os_error(libc::ENAMETOOLONG)
        )
    })
}

/// The longest file name the file system holding `dir` accepts.
fn name_max(dir: &Path) -> usize {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return 255;
    };
    // SAFETY: a valid NUL-terminated path; pathconf(3) only reads it.
    let n = unsafe { libc::pathconf(c.as_ptr(), libc::_PC_NAME_MAX) };
    if n > 0 {
        n as usize
    } else {
        255
    }
}

/// Checks that a path from the config file is relative and, read lexically,
/// names something strictly inside the config file's directory.
pub fn inside_relative(p: &str) -> Result<(), &'static str> {
    use std::path::Component;
    let path = Path::new(p);
    if p.is_empty() {
        return Err("is empty");
    }
    if path.is_absolute() {
        return Err("is an absolute path (give one on the command line instead)");
    }
    let mut depth = 0usize;
    for c in path.components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth = depth.checked_sub(1).ok_or("leaves the project directory")?;
            }
            Component::RootDir | Component::Prefix(_) => return Err("is an absolute path"),
        }
    }
    if depth == 0 {
        return Err("is the project directory itself");
    }
    Ok(())
}

#[cfg(test)]
mod tests;
