//! Where each package's seeds come from: its own test command, the one that
//! runs its programs, and why that one.

use anyhow::{Context, Result};
use std::path::Path;

/// The seeds of one package's program targets.
pub struct Spec {
    /// The recipe's name.
    pub package: &'static str,
    /// The test command, run from the tree (`{tree}`: its absolute path):
    /// each program target's `seed-tests`.
    pub tests: &'static [&'static str],
    /// Why this command.
    pub why: &'static str,
    /// Input files a Debian package ships, each a seed of one program.
    pub inputs: Option<Inputs>,
}

/// Input files of one program target (`seed-inputs`), from a package: they
/// are copied into the tree ([`INPUTS_DIR`]) and given as its file argument.
pub struct Inputs {
    /// The program target they are seeds of.
    pub program: &'static str,
    /// The Debian package that ships them, and the files.
    pub package: &'static str,
    pub dir: &'static str,
    pub suffix: &'static str,
    pub why: &'static str,
}

/// Where a package's input files are copied, relative to the tree.
pub const INPUTS_DIR: &str = "symtest-seed-inputs";

impl Inputs {
    /// Copies the files into `tree`; how many.
    pub fn copy_into(&self, tree: &Path) -> Result<usize> {
        let to = tree.join(INPUTS_DIR);
        std::fs::create_dir_all(&to)?;
        let mut n = 0;
        for e in std::fs::read_dir(self.dir).with_context(|| format!("reading {}", self.dir))? {
            let p = e?.path();
            if p.is_file() && p.to_string_lossy().ends_with(self.suffix) {
                std::fs::copy(&p, to.join(p.file_name().unwrap_or_default()))?;
                n += 1;
            }
        }
        if n == 0 {
            anyhow::bail!("{} holds no *{} file", self.dir, self.suffix);
        }
        Ok(n)
    }

    /// The `seed-inputs` glob, relative to the tree.
    pub fn glob(&self) -> String {
        format!("{INPUTS_DIR}/*{}", self.suffix)
    }
}

impl Spec {
    /// The command as a shell would take it (with `{tree}` unexpanded).
    pub fn shown(&self) -> String {
        let words: Vec<String> = self
            .tests
            .iter()
            .map(|w| {
                if w.contains(' ') {
                    format!("'{w}'")
                } else {
                    w.to_string()
                }
            })
            .collect();
        words.join(" ")
    }

    /// The test command's words in `tree`.
    pub fn command(&self, tree: &Path) -> Vec<String> {
        self.tests
            .iter()
            .map(|w| w.replace("{tree}", &tree.display().to_string()))
            .collect()
    }
}

pub fn all() -> Vec<Spec> {
    vec![
        Spec {
            package: "jq",
            tests: &["make", "check", "NO_VALGRIND=1"],
            why: "jq's own `make check`: tests/jqtest, onigtest, mantest (`jq --run-tests` over \
                  jq.test, onig.test and the manual's examples) and shtest (about 80 command \
                  lines, and every prefix of tests/torture/input0.json). NO_VALGRIND=1, jq's own \
                  switch: configure found valgrind on this machine (Debian's build has none), and \
                  under valgrind the recorder, not jq, is what valgrind runs, so shtest's checks \
                  of valgrind's summary fail and its later runs are never made",
            inputs: None,
        },
        Spec {
            package: "gawk",
            tests: &["make", "check"],
            why: "gawk's own `make check` (test/Makefile: each test runs `gawk -f test.awk \
                  test.in` and compares the output)",
            inputs: None,
        },
        Spec {
            package: "lua5.4",
            tests: &["make", "test", "LIBTOOL={tree}/debian/libtool/libtool"],
            why: "the only test Debian's source of lua5.4 carries: `make test` runs `lua5.4 -v` \
                  (with the LIBTOOL of the recipe's build); the source ships no .lua file (Lua's \
                  own test suite is a separate upstream tarball, not in any Debian package)",
            inputs: Some(Inputs {
                program: "lua5.4",
                package: "lua5.1-doc",
                dir: "/usr/share/doc/lua5.1-doc/test",
                suffix: ".lua",
                why: "the one set of Lua test scripts a bookworm package ships: lua5.1-doc's \
                      test/ (the `test` directory of Lua 5.1's own distribution: 19 small \
                      programs, \"simple tests for Lua ... to make sure Lua is built correctly\"), \
                      each given to lua5.4 as its file argument (`seed-inputs-as = \"file\"`); \
                      written for Lua 5.1, 6 of them stop with an error under 5.4 (getfenv, \
                      table.getn, math.mod are gone; luac.lua wants an argument): those runs are \
                      seeds too",
            }),
        },
        Spec {
            package: "sqlite3",
            tests: &[
                "sh",
                "-c",
                "make testfixture USE_AMALGAMATION=1 && ./testfixture test/permutations.test shell",
            ],
            why: "what `make shelltest` runs, without building the other programs its \
                  prerequisites list (sqlite3_analyzer, sqldiff, dbhash, sqltclsh): testfixture \
                  runs test/shell1-8.test, each case `exec ./sqlite3 test.db < cmds.txt`. The \
                  rest of sqlite's suite runs the library inside testfixture (Tcl), never the \
                  shell, so it makes no seed. testfixture is built from the amalgamation \
                  (USE_AMALGAMATION=1, upstream's default): under Debian's \
                  --disable-amalgamation it does not link (ext/fts3/fts3_term.c is in both \
                  TESTSRC and TESTSRC2: `multiple definition of sqlite3Fts3InitTerm`), and \
                  Debian's rules run no test",
            inputs: None,
        },
    ]
}

/// The config `init` wrote with each program target's seed keys removed
/// and, with `spec`, its `seed-tests` set to the package's test command.
pub fn config(init: &str, spec: Option<&Spec>, tree: &Path) -> Result<String> {
    let mut doc: toml::Table =
        toml::from_str(init).context("parsing the symtest.toml init wrote")?;
    let targets = doc
        .get_mut("target")
        .and_then(|t| t.as_array_mut())
        .context("the symtest.toml init wrote has no [[target]]")?;
    for t in targets.iter_mut().filter_map(|t| t.as_table_mut()) {
        if t.get("kind").and_then(|k| k.as_str()) != Some("program") {
            continue;
        }
        t.retain(|k, _| !k.starts_with("seed-"));
        if let Some(s) = spec {
            let words = s
                .command(tree)
                .into_iter()
                .map(toml::Value::String)
                .collect();
            t.insert("seed-tests".into(), toml::Value::Array(words));
            let name = t.get("name").and_then(|n| n.as_str()).map(str::to_string);
            if let Some(i) = s
                .inputs
                .as_ref()
                .filter(|i| name.as_deref() == Some(i.program))
            {
                t.insert("seed-inputs".into(), toml::Value::String(i.glob()));
                t.insert("seed-inputs-as".into(), toml::Value::String("file".into()));
            }
        }
    }
    Ok(toml::to_string(&doc)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const INIT: &str = "[[target]]\nname = \"jq\"\nkind = \"program\"\nbuild = [\"make\"]\n\
                        binary = \".libs/jq\"\nseed-tests = [\"make\", \"check\"]\n\n\
                        [[target]]\nname = \"libjq\"\nkind = \"library\"\nbuild = [\"make\"]\n\
                        library = \".libs/libjq.so\"\n";

    #[test]
    fn program_targets_get_the_package_s_test_command() {
        let tree = Path::new("/t");
        let plain: toml::Table = toml::from_str(&config(INIT, None, tree).unwrap()).unwrap();
        let t = plain["target"].as_array().unwrap();
        assert!(t[0].get("seed-tests").is_none());
        assert_eq!(t[1]["kind"].as_str(), Some("library"));
        let lua = all().into_iter().find(|s| s.package == "lua5.4").unwrap();
        let seeded: toml::Table = toml::from_str(&config(INIT, Some(&lua), tree).unwrap()).unwrap();
        let t = seeded["target"].as_array().unwrap();
        let words: Vec<&str> = t[0]["seed-tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        assert_eq!(words, ["make", "test", "LIBTOOL=/t/debian/libtool/libtool"]);
        assert!(t[1].get("seed-tests").is_none());
        // lua5.4's scripts go to the interpreter only (here no target has its name).
        assert!(t[0].get("seed-inputs").is_none());
        let as_lua = INIT.replace("name = \"jq\"", "name = \"lua5.4\"");
        let seeded: toml::Table =
            toml::from_str(&config(&as_lua, Some(&lua), tree).unwrap()).unwrap();
        let t = seeded["target"].as_array().unwrap();
        assert_eq!(
            t[0]["seed-inputs"].as_str(),
            Some("symtest-seed-inputs/*.lua")
        );
        assert_eq!(t[0]["seed-inputs-as"].as_str(), Some("file"));
        let jq = all().into_iter().find(|s| s.package == "jq").unwrap();
        assert_eq!(jq.shown(), "make check NO_VALGRIND=1");
    }

    #[test]
    fn every_spec_names_a_recipe() {
        let names: Vec<&str> = super::super::recipes::all()
            .iter()
            .map(|r| r.name)
            .collect();
        for s in all() {
            assert!(names.contains(&s.package), "{}", s.package);
        }
    }
}
