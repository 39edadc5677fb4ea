//! `cargo symtest init`: a commented starter `symtest.toml` and an example harness;
//! `--make` also installs `symtest.mk`, `--ci` the GitHub Actions workflow;
//! `--from-build -- BUILD...` runs the project's build under capture and writes
//! one program target per executable it produced.

use anyhow::{Context, Result};
use clap::Args;
use std::ffi::OsString;
use std::path::Path;

#[derive(Args, Debug)]
pub struct InitArgs {
    /// Also install `symtest.mk` (for `include symtest.mk` / `make symtest`).
    #[arg(long)]
    pub make: bool,
    /// Also install the CI workflow as `.github/workflows/symtest.yml`.
    #[arg(long)]
    pub ci: bool,
    /// Overwrite files that exist.
    #[arg(long)]
    pub force: bool,
    /// Run the project's build (the command after `--`) under capture and write
    /// a symtest.toml with one program target per executable it produced.
    #[arg(long, requires = "build")]
    pub from_build: bool,
    /// The build command (after `--`), with --from-build.
    #[arg(last = true, value_name = "BUILD_COMMAND", requires = "from_build")]
    pub build: Vec<OsString>,
}

pub const SYMTEST_MK: &str = include_str!("../../templates/symtest.mk");
pub const CI_WORKFLOW: &str = include_str!("../../templates/ci/symtest.yml");

const STARTER: &str = r#"# symtest.toml - targets for `cargo symtest` (and `make symtest`).
# Every path is relative to this file. Run `cargo symtest list` to check them.

[[target]]
# Names the outputs: symtest-out/<name>/ and tests/symtest/<name>/.
name = "example"
# "harness": a C file whose main() marks inputs symbolic (#include "symtest.h").
# "program": an unmodified main(argc, argv) run with a symbolic environment (args).
kind = "harness"
# C sources (globs: *, ?, **): the harness and the code it calls.
sources = ["symtest/example_harness.c"]
# include = ["include"]           # -I directories
# defines = ["NDEBUG"]            # -D macros
# cflags = ["-std=c11"]           # extra compiler flags
# sanitize = ["signed-integer-overflow", "shift", "integer-divide-by-zero", "bounds"]
# args = ["--sym-args", "0", "2", "4", "--sym-stdin", "10"]   # kind = "program" only
max-time = 10                     # exploration budget in seconds
# max-instructions = 1000000      # deterministic budget
# seed = 1
# search = ["random-path", "nurs:covnew", "nurs:md2u"]
# suite-dir = "tests/symtest/example"   # where the regression suite is written
"#;

const HARNESS: &str = r#"/* An example symtest harness: inputs are marked symbolic, the engine explores
 * every path, finds the division by zero and writes a test for each path. */
#include "symtest.h"

static int scale(int value, int divisor) {
  if (value < 0)
    return -1;
  return value * 10 / divisor; /* divisor == 0 is a bug */
}

int main(void) {
  int value, divisor;
  symtest_make_symbolic(&value, sizeof value, "value");
  symtest_make_symbolic(&divisor, sizeof divisor, "divisor");
  symtest_assume(value < 1000);
  return scale(value, divisor) > 5;
}
"#;

fn write_new(path: &Path, text: &str, force: bool) -> Result<bool> {
    if path.exists() && !force {
        eprintln!(
            "error: {} exists (use --force to overwrite)",
            path.display()
        );
        return Ok(false);
    }
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    symtest_project::fsutil::write_atomic(path, text.as_bytes())?;
    eprintln!("     Created {}", path.display());
    Ok(true)
}

pub fn run(a: InitArgs) -> Result<u8> {
    let dir = std::env::current_dir()?;
    let mut files: Vec<(&str, &str)> = Vec::new();
    let config = dir.join("symtest.toml");
    if a.from_build {
        // Written by from_build, after the build.
    } else if !config.exists() || a.force {
        files.push(("symtest.toml", STARTER));
        files.push(("symtest/example_harness.c", HARNESS));
    } else if !a.make && !a.ci {
        eprintln!(
            "error: {} exists (use --force to overwrite)",
            config.display()
        );
        return Ok(crate::EXIT_BAD_INPUT);
    }
    if a.make {
        files.push(("symtest.mk", SYMTEST_MK));
    }
    if a.ci {
        files.push((".github/workflows/symtest.yml", CI_WORKFLOW));
    }
    // Check everything first, so a refusal writes nothing.
    if !a.force {
        if let Some((f, _)) = files.iter().find(|(f, _)| dir.join(f).exists()) {
            eprintln!(
                "error: {} exists (use --force to overwrite)",
                dir.join(f).display()
            );
            return Ok(crate::EXIT_BAD_INPUT);
        }
    }
    if a.from_build {
        let code = from_build(&a, &dir)?;
        if code != 0 {
            return Ok(code);
        }
    }
    for (f, text) in files {
        if !write_new(&dir.join(f), text, a.force)? {
            return Ok(crate::EXIT_BAD_INPUT);
        }
    }
    if a.make {
        eprintln!(
            "        Note add `include symtest.mk` to your Makefile, then run `make symtest`"
        );
    }
    Ok(0)
}

/// A TOML basic string (JSON's escapes are TOML's).
fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A target name from an executable's path: its file name, or the path with
/// `/` as `-` when two executables share a file name.
fn target_names(executables: &[String]) -> Vec<String> {
    let clean = |s: &str| -> String {
        let n: String = s
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        n.trim_start_matches('.').to_string()
    };
    let base = |p: &str| clean(p.rsplit('/').next().unwrap_or(p));
    executables
        .iter()
        .map(|e| {
            let b = base(e);
            if executables.iter().filter(|o| base(o) == b).count() > 1 || b.is_empty() {
                clean(&e.replace('/', "-"))
            } else {
                b
            }
        })
        .collect()
}

/// `symtest.toml` with one program target per executable.
fn from_build_config(command: &[String], executables: &[String]) -> String {
    let build = format!(
        "[{}]",
        command
            .iter()
            .map(|w| toml_string(w))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut s = format!(
        "# symtest.toml - written by `cargo symtest init --from-build -- {}`:\n\
         # one target per executable the build produced. `cargo symtest` runs the\n\
         # build again under capture (an up-to-date build reuses what was recorded)\n\
         # and tests each executable with a symbolic environment (`args`, KLEE's\n\
         # --sym-args/--sym-files/--sym-stdin). Paths are relative to this file.\n",
        command.join(" ")
    );
    for (name, exe) in target_names(executables).iter().zip(executables) {
        s.push_str(&format!(
            "\n[[target]]\nname = {}\nkind = \"program\"\nbuild = {build}\nbinary = {}\n\
             # up to 2 arguments of up to 4 bytes, a file A of 8 bytes, 8 bytes of stdin\n\
             args = [\"--sym-args\", \"0\", \"2\", \"4\", \"--sym-files\", \"1\", \"8\", \"--sym-stdin\", \"8\"]\n\
             max-time = 60\n",
            toml_string(name),
            toml_string(exe)
        ));
    }
    s
}

/// `cargo symtest init --from-build -- BUILD...`.
fn from_build(a: &InitArgs, dir: &Path) -> Result<u8> {
    let config = dir.join("symtest.toml");
    if config.exists() && !a.force {
        eprintln!(
            "error: {} exists (use --force to overwrite)",
            config.display()
        );
        return Ok(crate::EXIT_BAD_INPUT);
    }
    let command: Vec<String> = a
        .build
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let project = symtest_project::discovery::Project {
        root: dir.to_path_buf(),
        targets: Vec::new(),
        searched: Vec::new(),
        cargo: dir.join("Cargo.toml").is_file(),
    };
    let (_, build_root) = symtest_project::run::locations(&project, None, None)?;
    // The capture writes where the pipeline builds: one at a time.
    let _lock =
        match symtest_project::lock::lock_dirs(std::slice::from_ref(&build_root), true, &mut |e| {
            if let symtest_project::progress::Event::WaitingForLock { dir, .. } = e {
                eprintln!(
                    "    Blocking waiting for another cargo symtest to finish with {}",
                    dir.display()
                );
            }
        }) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(crate::EXIT_BAD_INPUT);
            }
        };
    let produced = match symtest_project::from_build::produced(dir, &build_root, &command) {
        Ok(p) => p,
        Err(symtest_project::Error::BadInput(m)) => {
            eprintln!("error: {m}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
        Err(e) => return Err(e.into()),
    };
    for w in &produced.warnings {
        eprintln!("warning: {w}");
    }
    if produced.executables.is_empty() {
        eprintln!(
            "error: the build `{}` linked no executable with bitcode{}",
            command.join(" "),
            if produced.libraries.is_empty() {
                String::new()
            } else {
                format!(
                    "; it made the static libraries {}: test one through a harness \
                     (kind = \"harness\", library = \"...\", sources = [\"your_harness.c\"])",
                    produced.libraries.join(", ")
                )
            }
        );
        return Ok(crate::EXIT_BAD_INPUT);
    }
    symtest_project::fsutil::write_atomic(
        &config,
        from_build_config(&command, &produced.executables).as_bytes(),
    )?;
    eprintln!(
        "     Created {} ({} targets: {})",
        config.display(),
        produced.executables.len(),
        target_names(&produced.executables).join(", ")
    );
    Ok(0)
}
