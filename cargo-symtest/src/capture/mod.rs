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

pub mod assemble;
pub mod log;
pub mod wrapper;

use crate::EXIT_BAD_INPUT;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Args, Debug)]
pub struct CaptureArgs {
    /// Where the bitcode, compile_commands.json and manifest.json go.
    #[arg(long, value_name = "DIR", default_value = "symtest-out/capture")]
    pub out: PathBuf,
    /// Compile bitcode against musl's headers whatever compiler the build
    /// uses (always so when it uses musl-gcc).
    #[arg(long)]
    pub musl: bool,
    /// Print one line per captured output at the end.
    #[arg(short, long)]
    pub verbose: bool,
    /// The build command (after `--`), run from the current directory.
    #[arg(last = true, required = true, value_name = "BUILD_COMMAND")]
    pub build: Vec<OsString>,
}

fn staging_for(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "capture".into());
    out.with_file_name(format!(".{name}.partial-{}", std::process::id()))
}

pub fn run(a: CaptureArgs) -> Result<u8> {
    let root = std::env::current_dir().context("reading the current directory")?;
    let out = if a.out.is_absolute() {
        a.out.clone()
    } else {
        root.join(&a.out)
    };
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let staging = staging_for(&out);
    let _ = std::fs::remove_dir_all(&staging);
    let bin = staging.join(".bin");
    let store = staging.join("objects");
    std::fs::create_dir_all(&bin)?;
    std::fs::create_dir_all(&store)?;
    let result = capture_into(&a, &root, &staging, &bin, &store);
    let _ = std::fs::remove_dir_all(&bin);
    match result {
        Ok(Some(manifest)) => {
            publish(&staging, &out)?;
            report(&a, &root, &out, &manifest);
            Ok(0)
        }
        Ok(None) => {
            let _ = std::fs::remove_dir_all(&staging);
            Ok(EXIT_BAD_INPUT)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            Err(e)
        }
    }
}

/// Runs the build under the wrappers and assembles; `None` if the build failed
/// (its output has been shown).
fn capture_into(
    a: &CaptureArgs,
    root: &Path,
    staging: &Path,
    bin: &Path,
    store: &Path,
) -> Result<Option<assemble::Manifest>> {
    let me = std::env::current_exe().context("locating the cargo-symtest binary")?;
    let tools = wrapper::COMPILERS
        .iter()
        .chain(wrapper::ARCHIVERS)
        .chain(wrapper::LINKERS)
        .chain(wrapper::ASSEMBLERS)
        .chain(wrapper::PASS_THROUGH);
    let path = std::env::var_os("PATH").unwrap_or_default();
    for t in tools {
        // Only tools the machine has: a wrapper for a missing one would make
        // a configure script believe it exists.
        if std::env::split_paths(&path).any(|d| d.join(t).is_file()) {
            std::os::unix::fs::symlink(&me, bin.join(t))
                .with_context(|| format!("creating the {t} wrapper"))?;
        }
    }
    let log = staging.join("capture.log");
    let mut cmd = Command::new(&a.build[0]);
    cmd.args(&a.build[1..]);
    let mut new_path = OsString::from(bin.as_os_str());
    new_path.push(":");
    new_path.push(&path);
    cmd.env("PATH", new_path)
        .env(log::LOG_ENV, &log)
        .env(wrapper::BIN_ENV, bin)
        .env(wrapper::STORE_ENV, store);
    if a.musl {
        cmd.env(wrapper::MUSL_ENV, "1");
    }
    if let Ok(inc) = crate::cc_cmd::musl_include() {
        cmd.env(wrapper::MUSL_INCLUDE_ENV, inc);
    }
    for (var, default) in [
        ("CC", "cc"),
        ("AR", "ar"),
        ("RANLIB", "ranlib"),
        ("LD", "ld"),
    ] {
        match std::env::var(var) {
            Ok(v) if v.contains('/') => eprintln!(
                "warning: {var}={v} is a path: the build calls it directly and the capture \
                 does not see it (name the tool, e.g. {var}={})",
                Path::new(&v)
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
            ),
            Ok(_) => {}
            Err(_) => {
                if bin.join(default).exists() {
                    cmd.env(var, default);
                }
            }
        }
    }
    let words: Vec<String> = a
        .build
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let status = cmd
        .status()
        .with_context(|| format!("cannot run the build command `{}`", words.join(" ")))?;
    if !status.success() {
        eprintln!(
            "error: the build command `{}` failed ({status}); nothing was captured",
            words.join(" ")
        );
        return Ok(None);
    }
    let records = log::read(&log).context("reading the capture log")?;
    if records.is_empty() {
        bail!(
            "the build command `{}` compiled nothing through the wrappers (an up-to-date \
             build? run `make clean` first; a compiler named by absolute path?)",
            words.join(" ")
        );
    }
    assemble::assemble(root, &words, records, staging).map(Some)
}

/// Replaces `out` with `staging` (the old directory is removed only once the
/// new one is in place).
fn publish(staging: &Path, out: &Path) -> Result<()> {
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

fn report(a: &CaptureArgs, root: &Path, out: &Path, m: &assemble::Manifest) {
    let shown = out.strip_prefix(root).unwrap_or(out);
    let with_bc = m.outputs.iter().filter(|o| o.bitcode.is_some()).count();
    for w in &m.warnings {
        eprintln!("warning: {w}");
    }
    if a.verbose {
        for o in &m.outputs {
            eprintln!(
                "  {:<15} {:<40} {}",
                o.kind,
                o.output,
                o.bitcode.as_deref().unwrap_or("(no bitcode)")
            );
        }
    }
    eprintln!(
        "captured {} translation units, {} outputs ({} with bitcode) into {}",
        m.compiles.len(),
        m.outputs.len(),
        with_bc,
        shown.display()
    );
}
