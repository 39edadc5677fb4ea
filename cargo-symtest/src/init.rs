//! `cargo symtest init`: a commented starter `symtest.toml` and an example harness;
//! `--make` also installs `symtest.mk`, `--ci` the GitHub Actions workflow.

use anyhow::{Context, Result};
use clap::Args;
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
# sanitize = ["signed-integer-overflow", "shift", "integer-divide-by-zero"]
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
    if !config.exists() || a.force {
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
