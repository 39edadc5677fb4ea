//! `cargo symtest init`: a commented starter `symtest.toml` and an example harness;
//! `--make` also installs `symtest.mk`, `--ci` the GitHub Actions workflow;
//! `--from-build -- BUILD...` runs the project's build under capture and writes
//! one program target per executable it produced.

use anyhow::{Context, Result};
use clap::Args;
use std::ffi::OsString;
use std::path::Path;
use symtest_project::user_targets::{Rule, Selection};

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
# option-seeds = false           # kind = "program": don't seed with its getopt options
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

/// How many of a multi-call program's tool names the comment shows.
const TOOLS_SHOWN: usize = 12;

/// `symtest.toml` with one program target per program the build makes for
/// its users, and each static library as a harness target to fill in
/// (commented out); what was left out, and why, in comments.
fn from_build_config(command: &[String], sel: &Selection, seed_tests: Option<&[String]>) -> String {
    let build = format!(
        "[{}]",
        command
            .iter()
            .map(|w| toml_string(w))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let how = match &sel.rule {
        Rule::Installed { command } => format!("what `{command}` installs"),
        Rule::Untouched { why } => format!(
            "the executables the build left untouched after linking them\n\
             # ({why})"
        ),
    };
    let mut s = format!(
        "# symtest.toml - written by `cargo symtest init --from-build -- {}`.\n\
         # Programs: {how}.\n\
         # `cargo symtest` runs the build again under capture (an up-to-date build\n\
         # reuses what was recorded) and tests each program with a symbolic\n\
         # environment (`args`: KLEE's --sym-args/--sym-files/--sym-stdin).\n\
         # Paths are relative to this file.\n",
        command.join(" ")
    );
    if !sel.left_out.is_empty() {
        s.push_str("#\n# Left out:\n");
        for (o, why) in &sel.left_out {
            s.push_str(&format!("#   {o}: {why}\n"));
        }
    }
    let names: Vec<String> = sel.programs.iter().map(|p| p.name.clone()).collect();
    for (name, p) in target_names(&names).iter().zip(&sel.programs) {
        s.push_str(&program_target(name, p, &build, seed_tests));
    }
    if !sel.libraries.is_empty() {
        s.push_str(
            "\n# Libraries the build makes: a library whose headers the install step\n\
             # installs is a `library` target (its harness generated from them);\n\
             # another is tested through a harness you write (a C file whose main()\n\
             # calls it with symbolic input, see `cargo symtest init`): uncomment it.\n",
        );
        let lib_names = library_names(&names, &sel.libraries);
        for (name, l) in lib_names.iter().zip(&sel.libraries) {
            s.push_str(&library_target(name, l, &build));
        }
    }
    s
}

/// Program `p`'s target `name` (its build command the TOML array `build`),
/// seeded by the project's tests when `seed_tests` names them.
fn program_target(
    name: &str,
    p: &symtest_project::user_targets::Program,
    build: &str,
    seed_tests: Option<&[String]>,
) -> String {
    let mut s = format!("\n[[target]]\nname = {}\n", toml_string(name));
    if !p.also.is_empty() {
        let shown: Vec<&str> = p
            .also
            .iter()
            .take(TOOLS_SHOWN)
            .map(String::as_str)
            .collect();
        let more = p.also.len().saturating_sub(TOOLS_SHOWN);
        let example = p.also[0].as_str();
        s.push_str(&format!(
            "# A multi-call program, also installed as {}{}: test a tool by naming a\n\
             # target after it (argv[0] is the target's name), or with the tool first in\n\
             # args (argv[1]): args = [{}, \"--sym-args\", \"0\", \"2\", \"4\"].\n",
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
            toml_string(example)
        ));
    }
    s.push_str(&format!(
        "kind = \"program\"\nbuild = {build}\nbinary = {}\n\
         # up to 2 arguments of up to 4 bytes, a file A of 8 bytes, 8 bytes of stdin\n\
         args = [\"--sym-args\", \"0\", \"2\", \"4\", \"--sym-files\", \"1\", \"8\", \"--sym-stdin\", \"8\"]\n\
         max-time = 60\n",
        toml_string(&p.binary)
    ));
    if let Some(tests) = seed_tests {
        s.push_str(&format!(
            "# the project's own tests: each run of this program they make is a seed\n\
             seed-tests = [{}]\n",
            tests
                .iter()
                .map(|w| toml_string(w))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    s
}

/// The target names of `libraries`, unique among themselves and the
/// programs' `names`: a library named as a program (`faad` and `libfaad`)
/// keeps its `lib`; names still taken get a number.
fn library_names(
    names: &[String],
    libraries: &[symtest_project::user_targets::Library],
) -> Vec<String> {
    let lib_names: Vec<String> = libraries.iter().map(library_stem).collect();
    let mut taken = target_names(names);
    let mut unique = Vec::new();
    for n in target_names(&lib_names) {
        let mut name = if taken.contains(&n) {
            format!("lib{n}")
        } else {
            n
        };
        let mut k = 2;
        while taken.contains(&name) {
            name = format!(
                "{}-{k}",
                name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-')
            );
            k += 1;
        }
        taken.push(name.clone());
        unique.push(name);
    }
    unique
}

/// A library's name without `lib` and its suffix: libz.a -> z,
/// liblua5.4.a -> lua5.4, libz.so.1.2.13 -> z; util/lib.a -> util.
fn library_stem(l: &symtest_project::user_targets::Library) -> String {
    let stem = match l.name.find(".so") {
        Some(i) => &l.name[..i],
        None => l
            .name
            .strip_suffix(".a")
            .or_else(|| l.name.strip_suffix(".la"))
            .unwrap_or(&l.name),
    };
    match stem.strip_prefix("lib") {
        Some(n) if !n.is_empty() => n.to_string(),
        // A module without the prefix (`filefuncs.so`) keeps its name.
        None if !stem.is_empty() => stem.to_string(),
        _ => std::path::Path::new(&l.path)
            .parent()
            .and_then(|d| d.file_name())
            .map_or(stem.to_string(), |d| d.to_string_lossy().into_owned()),
    }
}

/// Library `l`'s target `name`: a library target when the install step
/// installs its headers (its interface, the harness generated from them),
/// else a harness target to fill in, commented out.
fn library_target(name: &str, l: &symtest_project::user_targets::Library, build: &str) -> String {
    if !l.headers.is_empty() {
        let headers: Vec<String> = l.headers.iter().map(|h| toml_string(h)).collect();
        return format!(
            "\n[[target]]\nname = {}\nkind = \"library\"\nbuild = {build}\n\
             library = {}\n# the headers `make install` installs\nheaders = [{}]\nmax-time = 60\n",
            toml_string(name),
            toml_string(&l.path),
            headers.join(", ")
        );
    }
    format!(
        "\n# [[target]]\n# name = {}\n# kind = \"harness\"\n# build = {build}\n\
         # library = {}\n# sources = [{}]\n# max-time = 60\n",
        toml_string(name),
        toml_string(&l.path),
        toml_string(&format!("symtest/{name}_harness.c"))
    )
}

/// The libraries listed, for the line saying what `init --from-build`
/// created: "; N library(ies) with its installed headers; M for harnesses,
/// commented out" (each part only when there are some).
fn libraries_note(libraries: &[symtest_project::user_targets::Library]) -> String {
    let with = libraries.iter().filter(|l| !l.headers.is_empty()).count();
    let without = libraries.len() - with;
    let plural = |n: usize| if n == 1 { "y" } else { "ies" };
    let mut t = String::new();
    if with > 0 {
        t.push_str(&format!(
            "; {with} librar{} with its installed headers",
            plural(with)
        ));
    }
    if without > 0 {
        t.push_str(&format!(
            "; {without} librar{} for harnesses, commented out",
            plural(without)
        ));
    }
    t
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
        crosschecks: Vec::new(),
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
    let sel = &produced.selection;
    if sel.programs.is_empty() && sel.libraries.is_empty() {
        eprintln!(
            "error: the build `{}` made no program or library with bitcode to list{}",
            command.join(" "),
            sel.left_out
                .iter()
                .map(|(o, why)| format!("\n  {o}: {why}"))
                .collect::<String>()
        );
        return Ok(crate::EXIT_BAD_INPUT);
    }
    // The project's own tests, when the build has a target for them, seed
    // each program with the runs they make.
    let seed_tests = symtest_project::seeds::propose::test_command(dir, &command);
    symtest_project::fsutil::write_atomic(
        &config,
        from_build_config(&command, sel, seed_tests.as_deref()).as_bytes(),
    )?;
    let names: Vec<String> = sel.programs.iter().map(|p| p.name.clone()).collect();
    eprintln!(
        "     Created {} ({} program target{}{}{})",
        config.display(),
        sel.programs.len(),
        if sel.programs.len() == 1 { "" } else { "s" },
        if names.is_empty() {
            String::new()
        } else {
            format!(": {}", target_names(&names).join(", "))
        },
        libraries_note(&sel.libraries)
    );
    for (o, why) in &sel.left_out {
        eprintln!("        Note left out {o}: {why}");
    }
    Ok(0)
}
