//! Finding the targets: `cargo metadata` for a Cargo workspace (each package's
//! `[package.metadata.symtest]` and a `symtest.toml` beside its Cargo.toml), or a
//! `symtest.toml` in the current directory, or the file named by `--config`.

use crate::config::{self, ConfigError, ConfigFile, Kind};
use crate::glob;
use std::path::{Path, PathBuf};

/// A target, resolved: absolute paths, defaults applied.
#[derive(Clone, Debug)]
pub struct Target {
    pub name: String,
    pub kind: Kind,
    pub package: Option<String>,
    /// The directory of the file that defines the target (paths are relative to it).
    pub root: PathBuf,
    pub config_file: PathBuf,
    pub line: usize,
    pub sources: Vec<PathBuf>,
    pub include: Vec<PathBuf>,
    pub defines: Vec<String>,
    pub cflags: Vec<String>,
    pub sanitize: Vec<String>,
    pub args: Vec<String>,
    pub max_time: Option<f64>,
    pub max_instructions: Option<u64>,
    pub max_memory: Option<u64>,
    pub seed: Option<u64>,
    /// Seeds from the program's options (`option-seeds`, default on).
    pub option_seeds: bool,
    pub search: Vec<String>,
    pub entry_point: Option<String>,
    pub exec_args: Vec<String>,
    pub suite_dir: PathBuf,
    /// A target from the project's build (`build` with `binary` or `library`).
    pub build: Option<BuildSpec>,
    /// A `library` target's interface and input shapes.
    pub library: Option<LibrarySpec>,
    /// A program target's seeds from the project's tests or input files.
    pub seeds: Option<SeedSpec>,
}

/// Where a program target's seeds come from (`seed-tests`, `seed-inputs`).
#[derive(Clone, Debug)]
pub struct SeedSpec {
    /// The project's test command, run from the config file's directory
    /// with the program wrapped, and the line of `seed-tests`.
    pub tests: Option<(Vec<String>, usize)>,
    /// The input files `seed-inputs` matches (absolute paths, sorted), and
    /// the glob as written.
    pub inputs: Vec<PathBuf>,
    pub inputs_glob: Option<String>,
    pub inputs_as: config::SeedInputsAs,
    /// The largest object of a seed (`seed-max-bytes`).
    pub max_bytes: usize,
}

/// What a `library` target tests, and how its inputs are shaped.
#[derive(Clone, Debug, Default)]
pub struct LibrarySpec {
    /// The public headers (absolute paths).
    pub headers: Vec<PathBuf>,
    /// Globs over function names (empty: every function).
    pub functions: Vec<String>,
    /// Preconditions per function (C expressions over its parameters).
    pub assume: std::collections::BTreeMap<String, Vec<String>>,
    /// Elements of the object a pointer points to.
    pub pointer_elements: u32,
    /// How deep pointers inside structures are followed.
    pub pointer_depth: u32,
    /// Calls after the one that makes a handle, in a call sequence (0: none).
    pub sequence_length: u32,
    /// The generated harness, once written (a source of the derived harness
    /// target; copied into the suite, left out of coverage).
    pub generated: Option<PathBuf>,
}

/// Default elements of a pointer parameter's object.
pub const DEFAULT_POINTER_ELEMENTS: u32 = 16;
/// Default depth of pointers inside structures.
pub const DEFAULT_POINTER_DEPTH: u32 = 2;
/// Default length of call sequences (calls after the one making the handle).
pub const DEFAULT_SEQUENCE_LENGTH: u32 = 3;

/// What a target from a build tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Artifact {
    /// `binary`: an executable the build links (absolute path).
    Binary(PathBuf),
    /// `library`: a static library the build makes (absolute path; when no
    /// output has that path, an output with that file name).
    Library(PathBuf),
}

/// A target's `build`, `binary` / `library`.
#[derive(Clone, Debug)]
pub struct BuildSpec {
    /// The build command, run from the project root under capture.
    pub command: Vec<String>,
    /// The line of `build`.
    pub command_line: usize,
    pub artifact: Artifact,
    /// `binary` / `library` as written, and the line it is on.
    pub written: String,
    pub line: usize,
}

impl BuildSpec {
    /// `binary` or `library`.
    pub fn key(&self) -> &'static str {
        match self.artifact {
            Artifact::Binary(_) => "binary",
            Artifact::Library(_) => "library",
        }
    }
}

/// A `[[crosscheck]]`, resolved: two implementations run in one symbolic
/// environment and their outputs compared ([`crate::crosscheck`]).
#[derive(Clone, Debug)]
pub struct Crosscheck {
    pub name: String,
    pub package: Option<String>,
    /// The directory of the file that defines it.
    pub root: PathBuf,
    pub config_file: PathBuf,
    pub line: usize,
    pub form: CrosscheckForm,
    /// The symbolic environment both sides share (`--sym-args 0 2 2`, ...).
    pub args: Vec<String>,
    pub max_time: Option<f64>,
    pub max_instructions: Option<u64>,
    pub seed: Option<u64>,
}

/// What a crosscheck compares.
#[derive(Clone, Debug)]
pub enum CrosscheckForm {
    /// Two program targets (`programs`), each with its own fixed leading
    /// words ([`crate::crosscheck::fixed_words`]).
    Programs(Box<[Target; 2]>),
    /// Two library functions (`functions`: `f(x)` against `g(x)`) or an
    /// inverse pair (`inverse`: `x` against `dec(enc(x))`), each side a
    /// harness generated from its library target's headers.
    Functions(Box<FunctionPair>),
}

/// The functions of a function-level crosscheck.
#[derive(Clone, Debug)]
pub struct FunctionPair {
    /// The `kind = "library"` target of each function.
    pub libraries: [Target; 2],
    pub functions: [String; 2],
    pub pairing: crate::library::cross::Pairing,
}

impl CrosscheckForm {
    /// The targets it needs built: its programs, or its functions' libraries.
    pub fn targets(&self) -> &[Target; 2] {
        match self {
            CrosscheckForm::Programs(p) => p,
            CrosscheckForm::Functions(f) => &f.libraries,
        }
    }

    /// What it compares, for listings: `wc against other-wc`, `lib:f against lib:g`.
    pub fn describe(&self) -> String {
        match self {
            CrosscheckForm::Programs(p) => format!("programs {} against {}", p[0].name, p[1].name),
            CrosscheckForm::Functions(f) => {
                let [a, b] = &f.libraries;
                let [x, y] = &f.functions;
                match f.pairing {
                    crate::library::cross::Pairing::Equal => {
                        format!("functions {}:{x} against {}:{y}", a.name, b.name)
                    }
                    crate::library::cross::Pairing::Inverse => {
                        format!("x against {}:{y}({}:{x}(x))", b.name, a.name)
                    }
                }
            }
        }
    }
}

/// What discovery found, and where it looked.
pub struct Project {
    /// Workspace root, or the directory of the config file.
    pub root: PathBuf,
    pub targets: Vec<Target>,
    /// The `[[crosscheck]]` tables (their programs are also in `targets`,
    /// unless a selection left them out).
    pub crosschecks: Vec<Crosscheck>,
    pub searched: Vec<String>,
    pub cargo: bool,
}

/// Bad input found while discovering (exit code 2).
#[derive(Debug)]
pub enum DiscoveryError {
    Config(ConfigError),
    Other(String),
}

impl std::fmt::Display for DiscoveryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiscoveryError::Config(e) => write!(f, "{e}"),
            DiscoveryError::Other(m) => f.write_str(m),
        }
    }
}

impl From<ConfigError> for DiscoveryError {
    fn from(e: ConfigError) -> Self {
        DiscoveryError::Config(e)
    }
}

/// Checks a whole `cargo-symtest exec ...` command line as `exec` would.
pub type ExecArgsCheck = fn(&[String]) -> Result<(), String>;

pub struct DiscoveryOptions<'a> {
    pub cwd: &'a Path,
    pub config: Option<&'a Path>,
    pub packages: &'a [String],
    pub check_exec_args: Option<ExecArgsCheck>,
}

pub fn discover(o: &DiscoveryOptions) -> Result<Project, DiscoveryError> {
    if let Some(file) = o.config {
        let file = absolute(o.cwd, file);
        let root = file.parent().unwrap_or(o.cwd).to_path_buf();
        let text = std::fs::read_to_string(&file)
            .map_err(|e| DiscoveryError::Other(format!("cannot read {}: {e}", file.display())))?;
        let cfg = config::parse_config_file(&file, &text)?;
        config::validate(&file, &text, &cfg)?;
        let (targets, crosschecks) = resolve_file(&file, &text, &cfg, None, o.check_exec_args)?;
        return Ok(Project {
            root,
            targets,
            crosschecks,
            searched: vec![file.display().to_string()],
            cargo: false,
        });
    }
    let local = o.cwd.join("symtest.toml");
    let in_cargo = o.cwd.ancestors().any(|d| d.join("Cargo.toml").is_file());
    if !in_cargo || (local.is_file() && !o.cwd.join("Cargo.toml").is_file()) {
        if !o.packages.is_empty() {
            return Err(DiscoveryError::Other(
                "-p/--package needs a Cargo workspace (none found here)".into(),
            ));
        }
        let (mut targets, mut crosschecks) = (Vec::new(), Vec::new());
        if local.is_file() {
            let text = read(&local)?;
            let cfg = config::parse_config_file(&local, &text)?;
            config::validate(&local, &text, &cfg)?;
            (targets, crosschecks) = resolve_file(&local, &text, &cfg, None, o.check_exec_args)?;
        }
        return Ok(Project {
            root: o.cwd.to_path_buf(),
            targets,
            crosschecks,
            searched: vec![local.display().to_string()],
            cargo: false,
        });
    }
    cargo_project(o)
}

fn cargo_project(o: &DiscoveryOptions) -> Result<Project, DiscoveryError> {
    let meta = cargo_metadata::MetadataCommand::new()
        .no_deps()
        .current_dir(o.cwd)
        .exec()
        .map_err(|e| DiscoveryError::Other(format!("`cargo metadata` failed: {e}")))?;
    let members: Vec<&cargo_metadata::Package> = meta.workspace_packages();
    for p in o.packages {
        if !members.iter().any(|m| m.name.as_str() == p) {
            return Err(DiscoveryError::Other(format!(
                "package `{p}` is not in this workspace (packages: {})",
                members
                    .iter()
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    let mut targets: Vec<Target> = Vec::new();
    let mut crosschecks: Vec<Crosscheck> = Vec::new();
    let mut searched = Vec::new();
    for pkg in members {
        if !o.packages.is_empty() && !o.packages.iter().any(|p| p == pkg.name.as_str()) {
            continue;
        }
        // Validates one of the package's files and adds what it declares.
        let mut add = |file: &Path, text: &str, cfg: &ConfigFile| -> Result<(), DiscoveryError> {
            config::validate(file, text, cfg)?;
            let package = Some(pkg.name.to_string());
            let (t, c) = resolve_file(file, text, cfg, package, o.check_exec_args)?;
            targets.extend(t);
            crosschecks.extend(c);
            Ok(())
        };
        let manifest = PathBuf::from(pkg.manifest_path.as_std_path());
        searched.push(format!("{} [package.metadata.symtest]", manifest.display()));
        if !pkg.metadata.is_null() && pkg.metadata.get("symtest").is_some() {
            let text = read(&manifest)?;
            if let Some(cfg) = config::parse_manifest(&manifest, &text)? {
                add(&manifest, &text, &cfg)?;
            }
        }
        let beside = manifest.with_file_name("symtest.toml");
        searched.push(beside.display().to_string());
        if beside.is_file() {
            let text = read(&beside)?;
            let cfg = config::parse_config_file(&beside, &text)?;
            add(&beside, &text, &cfg)?;
        }
    }
    let places: Vec<(&str, &Path, usize)> = targets
        .iter()
        .map(|t| (t.name.as_str(), t.config_file.as_path(), t.line))
        .chain(
            crosschecks
                .iter()
                .map(|c| (c.name.as_str(), c.config_file.as_path(), c.line)),
        )
        .collect();
    for (i, (name, file, line)) in places.iter().enumerate() {
        if let Some((_, other, other_line)) = places[..i].iter().find(|o| o.0 == *name) {
            return Err(DiscoveryError::Other(format!(
                "{}:{line}: target name `{name}` is also used at {}:{other_line} (target and crosscheck names must be unique in a workspace)",
                file.display(),
                other.display(),
            )));
        }
    }
    Ok(Project {
        root: PathBuf::from(meta.workspace_root.as_std_path()),
        targets,
        crosschecks,
        searched,
        cargo: true,
    })
}

fn read(p: &Path) -> Result<String, DiscoveryError> {
    std::fs::read_to_string(p)
        .map_err(|e| DiscoveryError::Other(format!("cannot read {}: {e}", p.display())))
}

fn absolute(base: &Path, p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    }
}

/// The targets and crosschecks of one file.
fn resolve_file(
    file: &Path,
    text: &str,
    cfg: &ConfigFile,
    package: Option<String>,
    check_exec_args: Option<ExecArgsCheck>,
) -> Result<(Vec<Target>, Vec<Crosscheck>), DiscoveryError> {
    let targets = resolve(file, text, cfg, package.clone(), check_exec_args)?;
    let mut crosschecks = Vec::new();
    for spanned in &cfg.crosscheck {
        let c = spanned.get_ref();
        let at = |key: &str, message: String| ConfigError {
            file: file.to_path_buf(),
            line: Some(config::line_of(text, spanned.span().start)),
            key: Some(key.into()),
            message,
        };
        let side = |i: usize| -> Result<Target, ConfigError> {
            let name = c.programs.as_ref().and_then(|p| p.get_ref().get(i));
            name.and_then(|n| targets.iter().find(|t| &t.name == n))
                .cloned()
                .ok_or_else(|| at("programs", "names no program target".into()))
        };
        let form = match config::function_form(c) {
            None => CrosscheckForm::Programs(Box::new([side(0)?, side(1)?])),
            Some((key, pairing, entries)) => {
                let function = |i: usize| -> Result<(Target, String), ConfigError> {
                    let (lib, f) = entries
                        .get(i)
                        .and_then(|e| e.split_once(':'))
                        .ok_or_else(|| at(key, "needs `target:function` entries".into()))?;
                    let t = targets
                        .iter()
                        .find(|t| t.name == lib)
                        .cloned()
                        .ok_or_else(|| at(key, format!("names no library target `{lib}`")))?;
                    Ok((t, f.to_string()))
                };
                let ((a, f), (b, g)) = (function(0)?, function(1)?);
                CrosscheckForm::Functions(Box::new(FunctionPair {
                    libraries: [a, b],
                    functions: [f, g],
                    pairing,
                }))
            }
        };
        let cc = Crosscheck {
            name: c.name.get_ref().clone(),
            package: package.clone(),
            root: targets
                .first()
                .map_or_else(PathBuf::new, |t| t.root.clone()),
            config_file: file.to_path_buf(),
            line: config::line_of(text, spanned.span().start),
            form,
            args: c
                .args
                .as_ref()
                .map_or_else(Vec::new, |a| a.get_ref().clone()),
            max_time: c.max_time.as_ref().map(|m| *m.get_ref()),
            max_instructions: c.max_instructions.as_ref().map(|v| *v.get_ref()),
            seed: c.seed,
        };
        if let Some(check) = check_exec_args {
            crate::crosscheck::environment_ok(&cc, check).map_err(|why| {
                let span = c.args.as_ref().map_or_else(|| spanned.span(), |a| a.span());
                ConfigError {
                    line: Some(config::line_of(text, span.start)),
                    ..at("args", format!("{why} (crosscheck `{}`)", cc.name))
                }
            })?;
        }
        crosschecks.push(cc);
    }
    Ok((targets, crosschecks))
}

fn resolve(
    file: &Path,
    text: &str,
    cfg: &ConfigFile,
    package: Option<String>,
    check_exec_args: Option<ExecArgsCheck>,
) -> Result<Vec<Target>, DiscoveryError> {
    let root = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let root = root.canonicalize().unwrap_or(root);
    let mut out = Vec::new();
    for spanned in &cfg.target {
        let t = spanned.get_ref();
        let line = config::line_of(text, spanned.span().start);
        let sources = target_sources(file, text, &root, t, line)?;
        let name = t.name.get_ref().clone();
        let library = library_spec(file, text, &root, t, &name)?;
        let build = build_spec(text, &root, t);
        out.push(Target {
            kind: t.kind,
            package: package.clone(),
            root: root.clone(),
            config_file: file.to_path_buf(),
            line,
            sources,
            include: t.include.iter().map(|i| root.join(i)).collect(),
            defines: t.defines.clone(),
            cflags: t.cflags.clone(),
            sanitize: t.sanitize.clone().unwrap_or_else(|| {
                config::DEFAULT_SANITIZE
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
            }),
            args: t.args.clone(),
            max_time: t.max_time.as_ref().map(|m| *m.get_ref()),
            max_instructions: t.max_instructions.as_ref().map(|v| *v.get_ref()),
            max_memory: t.max_memory.as_ref().map(|v| *v.get_ref()),
            seed: t.seed,
            option_seeds: t.option_seeds.unwrap_or(true),
            search: t.search.clone(),
            entry_point: t.entry_point.clone(),
            exec_args: t
                .exec_args
                .as_ref()
                .map_or_else(Vec::new, |e| e.get_ref().clone()),
            suite_dir: root.join(
                t.suite_dir
                    .as_ref()
                    .map(|d| d.get_ref().clone())
                    .unwrap_or_else(|| format!("tests/symtest/{name}")),
            ),
            seeds: seed_spec(file, text, t, &root)?,
            name,
            build,
            library,
        });
        let target = out.last().expect("just pushed");
        check_target(file, text, &root, spanned, target, check_exec_args)?;
    }
    Ok(out)
}

/// Target `t`'s `sources` globs expanded under `root` (a glob matching no
/// file, or a file the generated Makefile cannot name, is an error), each
/// file once, in order; `line` is the target's.
fn target_sources(
    file: &Path,
    text: &str,
    root: &Path,
    t: &config::TargetTable,
    line: usize,
) -> Result<Vec<PathBuf>, DiscoveryError> {
    let mut sources = Vec::new();
    let (patterns, sources_line) = match &t.sources {
        Some(s) => (
            s.get_ref().as_slice(),
            config::line_of(text, s.span().start),
        ),
        None => (&[][..], line),
    };
    for pat in patterns {
        let found = glob::expand(root, pat);
        if found.is_empty() {
            return Err(ConfigError {
                file: file.to_path_buf(),
                line: Some(sources_line),
                key: Some("sources".into()),
                message: format!(
                    "`{pat}` matches no file under {} (target `{}`)",
                    root.display(),
                    t.name.get_ref()
                ),
            }
            .into());
        }
        for f in found {
            let shown = f
                .strip_prefix(root)
                .unwrap_or(&f)
                .to_string_lossy()
                .into_owned();
            if let Some(c) = crate::escape::unsafe_file_name(&shown) {
                return Err(ConfigError {
                    file: file.to_path_buf(),
                    line: Some(sources_line),
                    key: Some("sources".into()),
                    message: format!(
                        "`{shown}` (matched by `{pat}`) has {c:?} in its name, which the \
                         generated Makefile cannot name safely: rename the file or \
                         narrow the glob (target `{}`)",
                        t.name.get_ref()
                    ),
                }
                .into());
            }
            if !sources.contains(&f) {
                sources.push(f);
            }
        }
    }
    Ok(sources)
}

/// The library spec of a `library` target `t` named `name` with
/// `headers` (their globs expanded under `root`; a glob matching no file is
/// an error); `None` for other targets.
fn library_spec(
    file: &Path,
    text: &str,
    root: &Path,
    t: &config::TargetTable,
    name: &str,
) -> Result<Option<LibrarySpec>, DiscoveryError> {
    Ok(match &t.headers {
        Some(h) if t.kind == config::Kind::Library => {
            let mut headers = Vec::new();
            for pat in h.get_ref() {
                let found = glob::expand(root, pat);
                if found.is_empty() {
                    return Err(ConfigError {
                        file: file.to_path_buf(),
                        line: Some(config::line_of(text, h.span().start)),
                        key: Some("headers".into()),
                        message: format!(
                            "`{pat}` matches no file under {} (target `{name}`)",
                            root.display()
                        ),
                    }
                    .into());
                }
                for f in found {
                    if !headers.contains(&f) {
                        headers.push(f);
                    }
                }
            }
            Some(LibrarySpec {
                headers,
                functions: t.functions.clone(),
                assume: t.assume.clone(),
                pointer_elements: t
                    .pointer_elements
                    .as_ref()
                    .map_or(DEFAULT_POINTER_ELEMENTS, |v| *v.get_ref() as u32),
                pointer_depth: t
                    .pointer_depth
                    .as_ref()
                    .map_or(DEFAULT_POINTER_DEPTH, |v| *v.get_ref() as u32),
                sequence_length: t
                    .sequence_length
                    .as_ref()
                    .map_or(DEFAULT_SEQUENCE_LENGTH, |v| *v.get_ref() as u32),
                generated: None,
            })
        }
        _ => None,
    })
}

/// Target `t`'s build spec: its `build` command and the `binary` or
/// `library` it makes (under `root`), if it has them.
fn build_spec(text: &str, root: &Path, t: &config::TargetTable) -> Option<BuildSpec> {
    t.build.as_ref().and_then(|b| {
        let (written, artifact) = match (&t.binary, &t.library) {
            (Some(p), _) => (p, Artifact::Binary(root.join(p.get_ref()))),
            (None, Some(p)) => (p, Artifact::Library(root.join(p.get_ref()))),
            (None, None) => return None,
        };
        Some(BuildSpec {
            command: b.get_ref().clone(),
            command_line: config::line_of(text, b.span().start),
            artifact,
            written: written.get_ref().clone(),
            line: config::line_of(text, written.span().start),
        })
    })
}

/// Checks built target `target` (of table `spanned`): its suite
/// directory, and its exec options with `check_exec_args`.
fn check_target(
    file: &Path,
    text: &str,
    root: &Path,
    spanned: &toml::Spanned<config::TargetTable>,
    target: &Target,
    check_exec_args: Option<ExecArgsCheck>,
) -> Result<(), DiscoveryError> {
    let t = spanned.get_ref();
    let at = |span: std::ops::Range<usize>, key: &str, message: String| ConfigError {
        file: file.to_path_buf(),
        line: Some(config::line_of(text, span.start)),
        key: Some(key.into()),
        message,
    };
    if let Some(d) = &t.suite_dir {
        if let Err(why) = suite_dir_ok(root, target) {
            return Err(at(d.span(), "suite-dir", format!("`{}` {why}", d.get_ref())).into());
        }
    }
    if let Err((key, why)) = check_exec_args.map_or(Ok(()), |c| exec_options_ok(target, c)) {
        let span = if key == "args" {
            spanned.span()
        } else {
            t.exec_args
                .as_ref()
                .map_or_else(|| spanned.span(), |e| e.span())
        };
        return Err(at(span, key, format!("{why} (target `{}`)", target.name)).into());
    }
    Ok(())
}

/// A target's seed keys, its input glob expanded (a glob matching no file
/// is an error, as for `sources`).
fn seed_spec(
    file: &Path,
    text: &str,
    t: &config::TargetTable,
    root: &Path,
) -> Result<Option<SeedSpec>, DiscoveryError> {
    if t.seed_tests.is_none() && t.seed_inputs.is_none() {
        return Ok(None);
    }
    let mut inputs = Vec::new();
    if let Some(g) = &t.seed_inputs {
        inputs = glob::expand(root, g.get_ref());
        if inputs.is_empty() {
            return Err(ConfigError {
                file: file.to_path_buf(),
                line: Some(config::line_of(text, g.span().start)),
                key: Some("seed-inputs".into()),
                message: format!(
                    "`{}` matches no file under {} (target `{}`)",
                    g.get_ref(),
                    root.display(),
                    t.name.get_ref()
                ),
            }
            .into());
        }
        inputs.sort();
    }
    Ok(Some(SeedSpec {
        tests: t
            .seed_tests
            .as_ref()
            .map(|c| (c.get_ref().clone(), config::line_of(text, c.span().start))),
        inputs,
        inputs_glob: t.seed_inputs.as_ref().map(|g| g.get_ref().clone()),
        inputs_as: t
            .seed_inputs_as
            .as_ref()
            .map_or(config::SeedInputsAs::Stdin, |a| *a.get_ref()),
        max_bytes: t
            .seed_max_bytes
            .as_ref()
            .map_or(config::DEFAULT_SEED_MAX_BYTES, |v| *v.get_ref()) as usize,
    }))
}

/// The suite directory, once symbolic links are followed as far as it
/// exists, must stay inside the project and hold none of the target's sources
/// (the suite replaces the whole directory).
fn suite_dir_ok(root: &Path, t: &Target) -> Result<(), String> {
    let dir = &t.suite_dir;
    let mut existing = dir.as_path();
    while !existing.exists() {
        match existing.parent() {
            Some(p) => existing = p,
            None => break,
        }
    }
    let real = existing
        .canonicalize()
        .map_err(|e| format!("cannot be resolved: {e}"))?;
    if !real.starts_with(root) {
        return Err(format!(
            "leads outside the project (to {}) through a symbolic link",
            real.display()
        ));
    }
    if let Some(src) = t.sources.iter().find(|s| s.starts_with(dir)) {
        return Err(format!(
            "holds the source {}: the emitted suite replaces the whole directory",
            src.display()
        ));
    }
    if t.config_file.starts_with(dir) {
        return Err(
            "holds the configuration file: the emitted suite replaces the whole directory".into(),
        );
    }
    Ok(())
}

/// The options the pipeline will give `exec` for the target, checked now:
/// `args` as the POSIX environment's options, `exec-args` as `exec` options
/// that do not repeat what the pipeline sets. Err: (key, why).
fn exec_options_ok(t: &Target, check: ExecArgsCheck) -> Result<(), (&'static str, String)> {
    // The suite's native build enforces the engine's default allocation
    // limit (its sanitizer options, symtest_env.c): a target's own would
    // make its tests disagree natively.
    if t.exec_args
        .iter()
        .any(|w| w == "--max-alloc-size" || w.starts_with("--max-alloc-size="))
    {
        return Err((
            "exec-args",
            "--max-alloc-size: a target keeps the default limit (1 GiB), which its suite's native build enforces too".into(),
        ));
    }
    let parse = |t: &Target| -> Result<(), String> {
        let mut argv = vec!["cargo-symtest".to_string()];
        argv.extend(crate::explore::exec_args(
            t,
            Path::new("target.bc"),
            Path::new("out"),
            1.0,
        ));
        check(&argv)
    };
    let without = Target {
        exec_args: Vec::new(),
        ..t.clone()
    };
    parse(&without).map_err(|e| ("args", e))?;
    parse(t).map_err(|e| {
        (
            "exec-args",
            format!("{e} (the pipeline sets the program, --output-dir, --max-time, --quiet, --progress-json and, for programs, --libc, --posix-runtime and the arguments after --)"),
        )
    })
}

/// The message for "no targets": where discovery looked and how to add one.
pub fn no_targets_message(p: &Project) -> String {
    let mut s = String::from("no symtest targets found; looked in:\n");
    for w in &p.searched {
        s.push_str(&format!("  {w}\n"));
    }
    s.push_str(
        "add one with `cargo symtest init` (writes a commented symtest.toml and an example harness), or write:\n\
         \n  [[target]]\n  name = \"mytarget\"\n  kind = \"harness\"\n  sources = [\"tests/harness.c\", \"src/*.c\"]\n\n\
         in symtest.toml (or as [[package.metadata.symtest.target]] in Cargo.toml)",
    );
    s
}
