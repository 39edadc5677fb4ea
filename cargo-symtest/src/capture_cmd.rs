//! `cargo symtest capture [--out DIR] -- BUILD COMMAND...`: the project's own
//! build with the compiler, archiver and linker interposed
//! (`symtest_project::capture`); prints the warnings and a summary.

use anyhow::{Context, Result};
use clap::Args;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use symtest_project::capture::{self, assemble::Manifest, CaptureError, CaptureOptions};
use symtest_project::EXIT_BAD_INPUT;

#[derive(Args, Debug)]
pub struct CaptureArgs {
    /// Where the bitcode, compile_commands.json and manifest.json go.
    #[arg(long, value_name = "DIR", default_value = "symtest-out/capture")]
    pub out: PathBuf,
    /// Compile bitcode against musl's headers whatever compiler the build
    /// uses (always so when it uses musl-gcc).
    #[arg(long)]
    pub musl: bool,
    /// Keep what the previous capture in DIR recorded: objects this build does
    /// not recompile (an incremental build) keep their bitcode.
    #[arg(long)]
    pub append: bool,
    /// Print one line per captured output at the end.
    #[arg(short, long)]
    pub verbose: bool,
    /// The build command (after `--`), run from the current directory.
    #[arg(last = true, required = true, value_name = "BUILD_COMMAND")]
    pub build: Vec<OsString>,
}

pub fn run(a: CaptureArgs) -> Result<u8> {
    let root = std::env::current_dir().context("reading the current directory")?;
    let options = CaptureOptions {
        root: root.clone(),
        out: a.out.clone(),
        musl: a.musl,
        build: a.build.clone(),
        quiet_build: false,
        append: a.append,
    };
    match capture::capture(&options) {
        Ok(manifest) => {
            let out = if a.out.is_absolute() {
                a.out.clone()
            } else {
                root.join(&a.out)
            };
            report(&a, &root, &out, &manifest);
            Ok(0)
        }
        Err(e @ (CaptureError::BuildFailed { .. } | CaptureError::NothingCompiled { .. })) => {
            eprintln!("error: {e}");
            Ok(EXIT_BAD_INPUT)
        }
        Err(e) => Err(e.into()),
    }
}

fn report(a: &CaptureArgs, root: &Path, out: &Path, m: &Manifest) {
    let shown = out.strip_prefix(root).unwrap_or(out);
    let with_bc = m.outputs.iter().filter(|o| o.bitcode.is_some()).count();
    for w in &m.warnings {
        eprintln!("warning: {w}");
    }
    for l in &m.left_out {
        eprintln!("note: left out {}: {}", l.output, l.why);
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
    if a.append {
        eprintln!(
            "({} records from this build; {} linked modules reused from the previous capture)",
            m.recorded_now, m.links_reused
        );
    }
}
