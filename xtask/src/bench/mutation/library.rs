//! The libraries of `bench mutation`: each Debian package of `bench projects`
//! that ships a library is copied and configured as that benchmark does, and
//! given one `kind = "library"` target (no harness: the tests are generated
//! from its public headers). The mutated files are the library's own sources
//! that the emitted suite compiles, read from the suite's Makefile.

use super::{kept, pipeline, score, Options, Score, Subject};
use crate::bench::projects;
use anyhow::{Context, Result};
use std::path::{Component, Path, PathBuf};

/// A library of the benchmark: its recipe in `bench projects` and the
/// headers it installs (its public interface).
pub struct Library {
    pub name: &'static str,
    pub headers: &'static [&'static str],
}

pub const LIBRARIES: &[Library] = &[
    Library {
        name: "cjson",
        headers: &["cJSON.h"],
    },
    Library {
        name: "zlib",
        headers: &["zconf.h", "zlib.h"],
    },
];

/// A string or an array of strings in TOML: as JSON writes it.
fn json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).expect("strings serialize")
}

/// The symtest.toml of a library target.
fn config(name: &str, build: &[String], library: &str, headers: &[&str], budget: f64) -> String {
    format!(
        "[[target]]\nname = {}\nkind = \"library\"\nbuild = {}\nlibrary = {}\nheaders = {}\nmax-time = {budget}\n",
        json(name),
        json(build),
        json(library),
        json(headers),
    )
}

/// `path` with its `.` and `..` taken out, without looking at the disk;
/// None when it climbs out of where it starts.
fn lexical(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// The project's source files the suite's Makefile compiles as the code
/// under test (its `symtest_uNN_*.o` rules), relative to the project, for
/// a suite at `suite_rel` in it; the suite's own files are left out.
pub(super) fn code_units(makefile: &str, suite_rel: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for line in makefile.lines() {
        let Some((goal, deps)) = line.split_once(':') else {
            continue;
        };
        let unit = goal
            .strip_prefix("symtest_u")
            .and_then(|g| g.strip_suffix(".o"))
            .is_some_and(|g| {
                g.split_once('_')
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            });
        let first = deps.split_whitespace().next().unwrap_or("");
        let Some(p) = first.strip_prefix("$(SUITE_DIR)/") else {
            continue;
        };
        if !unit {
            continue;
        }
        let Some(rel) = lexical(&suite_rel.join(p)) else {
            continue;
        };
        if rel.starts_with(suite_rel) || rel.is_absolute() {
            continue;
        }
        let rel = rel.to_string_lossy().into_owned();
        if !out.contains(&rel) {
            out.push(rel);
        }
    }
    out
}

/// The mutation score of `lib`'s emitted suite over `n` mutants of its
/// sources.
pub(super) fn score_library(
    lib: &Library,
    o: &Options,
    bin: &Path,
    tool: &[PathBuf],
    work: &Path,
    n: usize,
) -> Result<Score> {
    let name = lib.name;
    let r = projects::recipes::all()
        .into_iter()
        .find(|r| r.name == name)
        .with_context(|| format!("no recipe `{name}` in bench projects"))?;
    let library = r
        .harnesses
        .first()
        .with_context(|| format!("the recipe `{name}` names no library"))?
        .library;
    let src = projects::fetch(&r)?;
    let dir = work.join(name);
    eprintln!("bench mutation: {name}: copying and configuring the tree");
    projects::prepared(
        &r,
        &src,
        &dir,
        &work.join(format!("{name}-configure.log")),
        None,
    )?;
    let budget = o.budget_s.unwrap_or(60.0);
    let build = projects::words(&r, &dir);
    std::fs::write(
        dir.join("symtest.toml"),
        config(name, &build, library, lib.headers, budget),
    )?;
    eprintln!("bench mutation: {name}: cargo symtest (library target, {budget} s)");
    let env = projects::build_env(&r, &dir);
    pipeline(bin, &dir, budget, &work.join(format!("{name}.log")), &env)?;
    let suite_rel = Path::new("tests/symtest").join(name);
    let suite = dir.join(&suite_rel);
    let makefile = std::fs::read_to_string(suite.join("Makefile"))
        .with_context(|| format!("{name}: no suite emitted in {}", suite.display()))?;
    let rels = code_units(&makefile, &suite_rel);
    if rels.is_empty() {
        anyhow::bail!("{name}: the suite's Makefile compiles no source of the library");
    }
    let out = dir.join("symtest-out").join(name);
    let subject = Subject {
        target: name,
        project: &dir,
        rels: &rels,
        suite: &suite,
        out_dir: &out,
    };
    let mut s = score(&subject, tool, work, n, o.seed, None)?;
    s.tests_kept = kept(&out);
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_under_test_is_read_from_the_suite_makefile() {
        let mk = "symtest_suite: $(OBJECTS)\n\
            symtest_runner.o: $(SUITE_DIR)/symtest_runner.c $(SUITE_DIR)/symtest_tests.h\n\
            symtest_u00_symtest_library.o: $(SUITE_DIR)/symtest_library.c\n\
            \t$(CC) $(CODE_CFLAGS) -c $< -o $@\n\
            symtest_u01_adler32.o: $(SUITE_DIR)/../../../adler32.c\n\
            symtest_u02_gz_lib.o: $(SUITE_DIR)/../../../src/gz/lib.c $(SUITE_DIR)/x.h\n\
            symtest_u03_out.o: $(SUITE_DIR)/../../../../elsewhere.c\n\
            symtest_u04_adler32.o: $(SUITE_DIR)/../../../adler32.c\n";
        let units = code_units(mk, Path::new("tests/symtest/zlib"));
        assert_eq!(units, ["adler32.c", "src/gz/lib.c"]);
    }

    #[test]
    fn a_library_target_is_written_as_toml() {
        let build = vec![
            "sh".to_string(),
            "-c".to_string(),
            "make \"a b\"".to_string(),
        ];
        let text = config("zlib", &build, "libz.a", &["zconf.h", "zlib.h"], 60.0);
        assert_eq!(
            text,
            "[[target]]\nname = \"zlib\"\nkind = \"library\"\n\
             build = [\"sh\",\"-c\",\"make \\\"a b\\\"\"]\nlibrary = \"libz.a\"\n\
             headers = [\"zconf.h\",\"zlib.h\"]\nmax-time = 60\n"
        );
        assert!(LIBRARIES.iter().all(|l| projects::recipes::all()
            .iter()
            .any(|r| r.name == l.name && !r.harnesses.is_empty())));
    }
}
