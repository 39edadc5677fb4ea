//! `cargo symtest capture [--out DIR] -- BUILD COMMAND...`: runs a project's own
//! build with the C compiler, archiver and linker interposed, and turns it into
//! LLVM 19 bitcode: one whole-program module per executable and per static
//! library, `compile_commands.json` and a manifest (`manifest.json`).
//!
//! How (as gllvm and Bear do, without ptrace): a private directory of wrappers
//! (`cc`, `gcc`, `clang`, `c99`, `c89`, `musl-gcc`, `ar`, `ranlib`, `ld`, `as`: each a
//! symbolic link to this binary) goes first on `PATH`, and `CC`, `AR`,
//! `RANLIB` and `LD` name them unless the environment already names a tool.
//! Each wrapper runs the real tool, then records what it did in a log
//! ([`log`]); compiles also make bitcode ([`wrapper`]). After a successful
//! build [`assemble`] links the modules. The directory appears whole or not
//! at all: it is built under a staging name and renamed at the end.
//!
//! The wrapper directory (`.<DIR name>.bin` beside `DIR`) stays after the
//! build, since build systems such as CMake record the compiler's absolute
//! path: started from there without a capture running, the wrappers only pass
//! their arguments to the real tool. With [`CaptureOptions::append`] a capture
//! starts from the records and bitcode of the previous one, so an incremental
//! (or up-to-date) build still describes every output.

pub mod assemble;
pub mod bitcode;
pub mod carry;
pub mod completeness;
pub mod elf;
pub mod identity;
pub mod linkcache;
pub mod log;
pub mod outputs;
pub mod parts;
pub mod symver;
pub mod wrapper;

use anyhow::Context;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

/// What to capture, and how.
#[derive(Debug, Clone)]
pub struct CaptureOptions {
    /// The directory the build runs in (the build root).
    pub root: PathBuf,
    /// Where the bitcode, compile_commands.json and manifest.json go (absolute,
    /// or relative to `root`).
    pub out: PathBuf,
    /// Compile bitcode against musl's headers whatever compiler the build uses
    /// (always so when it uses musl-gcc).
    pub musl: bool,
    /// The build command.
    pub build: Vec<OsString>,
    /// Collect the build's output (both streams) instead of letting it reach
    /// the terminal; it is handed back in [`CaptureError::BuildFailed`].
    pub quiet_build: bool,
    /// Keep what the previous capture in `out` recorded (objects the build
    /// does not recompile this time keep their bitcode).
    pub append: bool,
}

/// Why a capture produced nothing (the previous capture directory is intact).
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The build command failed; `output` is what it printed when collected.
    #[error("the build command `{command}` failed ({status}); nothing was captured")]
    BuildFailed {
        command: String,
        status: ExitStatus,
        output: Option<String>,
    },
    /// The build compiled no C through the wrappers.
    #[error(
        "the build command `{command}` compiled nothing through the wrappers (an up-to-date \
         build? run `make clean` first; a compiler named by absolute path?){}",
        notes.iter().map(|n| format!("\n  {n}")).collect::<String>()
    )]
    NothingCompiled { command: String, notes: Vec<String> },
    #[error("cannot run the build command `{command}`: {source}")]
    CannotRun {
        command: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

fn staging_for(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "capture".into());
    out.with_file_name(format!(".{name}.partial-{}", std::process::id()))
}

/// Runs the build under the wrappers and writes the capture directory
/// (replacing the previous one only when complete).
pub fn capture(o: &CaptureOptions) -> Result<assemble::Manifest, CaptureError> {
    let root = &o.root;
    let out = if o.out.is_absolute() {
        o.out.clone()
    } else {
        root.join(&o.out)
    };
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let staging = staging_for(&out);
    let _ = std::fs::remove_dir_all(&staging);
    let bin = wrapper_dir(&out);
    let store = staging.join("objects");
    std::fs::create_dir_all(&bin).with_context(|| format!("creating {}", bin.display()))?;
    std::fs::create_dir_all(&store).with_context(|| format!("creating {}", store.display()))?;
    linkcache::carry_over(&out, &staging);
    let result = seed(o, &out, &staging, &store)
        .and_then(|previous| capture_into(o, previous, &staging, &bin, &store));
    match result {
        Ok(manifest) => {
            publish(&staging, &out)?;
            Ok(manifest)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            Err(e)
        }
    }
}

/// The directory of wrappers for the capture directory `out`: `.<name>.bin`
/// beside it.
pub fn wrapper_dir(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "capture".into());
    out.with_file_name(format!(".{name}.bin"))
}

/// With `append`, copies the previous capture's log and bitcode store into
/// the staging directory; the number of records it held.
fn seed(
    o: &CaptureOptions,
    out: &Path,
    staging: &Path,
    store: &Path,
) -> Result<usize, CaptureError> {
    if !o.append || !out.join(log::LOG_FILE).is_file() {
        return Ok(0);
    }
    let old_store = out.join("objects");
    if let Ok(entries) = std::fs::read_dir(&old_store) {
        for e in entries.flatten() {
            let to = store.join(e.file_name());
            if std::fs::hard_link(e.path(), &to).is_err() {
                std::fs::copy(e.path(), &to)
                    .with_context(|| format!("copying {}", e.path().display()))?;
            }
        }
    }
    let log = staging.join(log::LOG_FILE);
    std::fs::copy(out.join(log::LOG_FILE), &log)
        .with_context(|| format!("copying {}", out.join(log::LOG_FILE).display()))?;
    Ok(log::read(&log).map(|r| r.len()).unwrap_or(0))
}

/// Puts a symbolic link to this binary in `bin` for each tool the machine has
/// (a wrapper for a missing one would make a configure script believe it
/// exists), replacing links left by an earlier capture.
fn install_wrappers(bin: &Path) -> Result<(), CaptureError> {
    let me = std::env::current_exe().context("locating the cargo-symtest binary")?;
    let tools = wrapper::COMPILERS
        .iter()
        .chain(wrapper::ARCHIVERS)
        .chain(wrapper::LINKERS)
        .chain(wrapper::ASSEMBLERS)
        .chain(wrapper::PASS_THROUGH);
    let path = std::env::var_os("PATH").unwrap_or_default();
    for t in tools {
        let dest = bin.join(t);
        let real = std::env::split_paths(&path)
            .filter(|d| d.as_path() != bin)
            .any(|d| d.join(t).is_file());
        if !real {
            let _ = std::fs::remove_file(&dest);
            continue;
        }
        let tmp = bin.join(format!(".{t}.{}", std::process::id()));
        let _ = std::fs::remove_file(&tmp);
        std::os::unix::fs::symlink(&me, &tmp)
            .with_context(|| format!("creating the {t} wrapper"))?;
        std::fs::rename(&tmp, &dest).with_context(|| format!("creating the {t} wrapper"))?;
    }
    std::fs::write(bin.join(wrapper::MARKER), "symtest capture wrappers\n")
        .with_context(|| format!("writing {}", bin.join(wrapper::MARKER).display()))?;
    Ok(())
}

/// Points the build's `CC`, `AR`, `RANLIB` and `LD` at the wrappers in
/// `bin` when the environment does not set them; the notes on those it
/// sets to a path (which the capture then does not see).
fn tool_env(cmd: &mut Command, bin: &Path) -> Vec<String> {
    let mut notes = Vec::new();
    for (var, default) in [
        ("CC", "cc"),
        ("AR", "ar"),
        ("RANLIB", "ranlib"),
        ("LD", "ld"),
    ] {
        match std::env::var(var) {
            Ok(v) if v.contains('/') => notes.push(format!(
                "{var}={v} is a path: the build calls it directly and the capture \
                 does not see it (name the tool, e.g. {var}={})",
                Path::new(&v)
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
            )),
            Ok(_) => {}
            Err(_) => {
                if bin.join(default).exists() {
                    cmd.env(var, default);
                }
            }
        }
    }
    notes
}

/// Runs the build under the wrappers and assembles.
fn capture_into(
    o: &CaptureOptions,
    previous: usize,
    staging: &Path,
    bin: &Path,
    store: &Path,
) -> Result<assemble::Manifest, CaptureError> {
    install_wrappers(bin)?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let log = staging.join(log::LOG_FILE);
    let Some((program, args)) = o.build.split_first() else {
        return Err(anyhow::anyhow!("no build command").into());
    };
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(&o.root);
    let mut new_path = OsString::from(bin.as_os_str());
    new_path.push(":");
    new_path.push(&path);
    cmd.env("PATH", new_path)
        .env(log::LOG_ENV, &log)
        .env(wrapper::BIN_ENV, bin)
        .env(wrapper::STORE_ENV, store);
    if o.musl {
        cmd.env(wrapper::MUSL_ENV, "1");
    }
    if let Ok(inc) = crate::toolchain::musl_include() {
        cmd.env(wrapper::MUSL_INCLUDE_ENV, inc);
    }
    let mut notes = tool_env(&mut cmd, bin);
    let words: Vec<String> = o
        .build
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let command = words.join(" ");
    let build_log = staging.join("build-output.txt");
    if o.quiet_build {
        let f = std::fs::File::create(&build_log)
            .with_context(|| format!("creating {}", build_log.display()))?;
        let g = f.try_clone().context("duplicating a file descriptor")?;
        cmd.stdin(Stdio::null()).stdout(f).stderr(g);
    }
    let status = cmd.status().map_err(|source| CaptureError::CannotRun {
        command: command.clone(),
        source,
    })?;
    let output = if o.quiet_build {
        let text = std::fs::read(&build_log).unwrap_or_default();
        let _ = std::fs::remove_file(&build_log);
        Some(String::from_utf8_lossy(&text).into_owned())
    } else {
        None
    };
    if !status.success() {
        return Err(CaptureError::BuildFailed {
            command,
            status,
            output,
        });
    }
    let mut records = log::read(&log).context("reading the capture log")?;
    if records.is_empty() {
        return Err(CaptureError::NothingCompiled { command, notes });
    }
    let recompiled = records.len() - previous.min(records.len());
    // Bitcode is found in this capture's store (the records of an earlier
    // capture name the store it had while it was being built).
    for r in &mut records {
        if let log::Record::Compile { bitcode, .. } = r {
            *bitcode = bitcode
                .as_ref()
                .and_then(|b| b.file_name())
                .map(|n| store.join(n))
                .filter(|b| b.is_file());
        }
    }
    let mut manifest = assemble::assemble(&o.root, &words, records, staging)?;
    manifest.recorded_now = recompiled;
    notes.append(&mut manifest.warnings);
    manifest.warnings = notes;
    assemble::write_manifest(staging, &manifest)?;
    Ok(manifest)
}

/// Replaces `out` with `staging` (the old directory is removed only once the
/// new one is in place).
fn publish(staging: &Path, out: &Path) -> anyhow::Result<()> {
    let old = out.with_file_name(format!(
        ".{}.old-{}",
        out.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    if out.exists() {
        std::fs::rename(out, &old).with_context(|| format!("moving {} aside", out.display()))?;
    }
    std::fs::rename(staging, out).with_context(|| format!("creating {}", out.display()))?;
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}
