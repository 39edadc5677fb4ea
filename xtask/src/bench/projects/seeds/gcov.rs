//! The package built natively with gcc's `--coverage` (every compiler the
//! build runs — `gcc`, `cc`, `x86_64-linux-gnu-gcc` — found first on the
//! `PATH` as a script adding the flag, so the recipe's own configure and
//! build are unchanged), and the lines of the program's sources that runs
//! on it execute: the project's test command, and `cargo symtest replay
//! --native` of seeds and kept tests. All four measures of a program are
//! thus lines of one build counted by one tool (gcov's executable lines:
//! gcc's, which differ a little from the pipeline's own clang figure).

use super::super::recipes::Recipe;
use super::super::{build_env, words};
use super::specs::Spec;
use crate::util;
use anyhow::{bail, Context, Result};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

/// The compilers a build may run by name.
const COMPILERS: &[&str] = &["gcc", "cc", "x86_64-linux-gnu-gcc"];
/// The file that marks a finished gcov build.
const BUILT: &str = ".symtest-gcov-built";
/// `.gcda` files handed to one `gcov` run.
const GCOV_BATCH: usize = 64;

/// One source file's lines: those with code (gcov lists a count), and those
/// executed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileLines {
    pub code: BTreeSet<u32>,
    pub covered: BTreeSet<u32>,
}

/// Per source file, relative to the tree.
pub type Lines = BTreeMap<String, FileLines>;

/// A program's lines on the gcov build, over its sources (the files of the
/// pipeline's coverage report): the lines with code, and how many of them
/// each measure executes.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Figures {
    pub lines: u64,
    /// The project's own test command.
    pub tests: u64,
    /// The seeds replayed alone.
    pub seeds: u64,
    /// The kept tests of the run without seeds, and with.
    pub plain: u64,
    pub seeded: u64,
    /// Executed with seeds and not by the project's tests.
    pub beyond_tests: u64,
    /// Executed with seeds and neither by the project's tests nor by the
    /// seeds alone: what symtest adds beyond the project's suite.
    pub beyond: u64,
    /// The same without seeds.
    pub plain_beyond: u64,
    /// Executed by the seeds alone and not by the kept tests with seeds.
    pub seeds_not_kept: u64,
    /// `file:line` of each line counted in `beyond`.
    #[serde(default)]
    pub beyond_lines: Vec<String>,
}

impl Figures {
    pub fn of(
        files: &[String],
        tests: &Lines,
        seeds: &Lines,
        plain: &Lines,
        seeded: &Lines,
    ) -> Figures {
        let mut f = Figures::default();
        let empty = FileLines::default();
        for file in files {
            let [t, s, p, w] = [tests, seeds, plain, seeded].map(|m| m.get(file).unwrap_or(&empty));
            let code: BTreeSet<u32> = [t, s, p, w]
                .iter()
                .flat_map(|x| x.code.iter().copied())
                .collect();
            let cov = |x: &FileLines| -> BTreeSet<u32> {
                x.covered.intersection(&code).copied().collect()
            };
            let (t, s, p, w) = (cov(t), cov(s), cov(p), cov(w));
            let known: BTreeSet<u32> = t.union(&s).copied().collect();
            f.lines += code.len() as u64;
            f.tests += t.len() as u64;
            f.seeds += s.len() as u64;
            f.plain += p.len() as u64;
            f.seeded += w.len() as u64;
            f.beyond_tests += w.difference(&t).count() as u64;
            f.plain_beyond += p.difference(&known).count() as u64;
            f.seeds_not_kept += s.difference(&w).count() as u64;
            for l in w.difference(&known) {
                f.beyond += 1;
                f.beyond_lines.push(format!("{file}:{l}"));
            }
        }
        f
    }
}

/// The gcov build of a package.
pub struct Build {
    pub tree: PathBuf,
    env: Vec<(String, String)>,
}

impl Build {
    /// A fresh copy of `src` at `tree`, configured and built as the recipe
    /// says with every compiler adding `--coverage` (with `reuse`, the one
    /// an earlier run built there).
    pub fn make(r: &Recipe, src: &Path, tree: &Path, dir: &Path, reuse: bool) -> Result<Build> {
        let wrappers = dir.join("coverage-cc");
        write_wrappers(&wrappers)?;
        let path = format!(
            "{}:{}",
            wrappers.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let built = tree.join(BUILT);
        if reuse && built.is_file() {
            let tree = tree.canonicalize()?;
            let mut env = build_env(r, &tree);
            env.push(("PATH".into(), path));
            return Ok(Build { tree, env });
        }
        if tree.exists() {
            std::fs::remove_dir_all(tree)?;
        }
        util::run(Command::new("cp").arg("-a").arg(src).arg(tree))?;
        let tree = tree.canonicalize()?;
        let mut env = build_env(r, &tree);
        env.push(("PATH".into(), path));
        let b = Build { tree, env };
        if !r.prepare.is_empty() {
            let script = r.prepare.replace("{tree}", &b.tree.display().to_string());
            util::run_logged(
                b.command("sh").arg("-c").arg(&script),
                &dir.join("gcov-configure.log"),
            )
            .context("configuring the gcov build")?;
        }
        let build = words(r, &b.tree);
        util::run_logged(
            b.command(&build[0]).args(&build[1..]),
            &dir.join("gcov-build.log"),
        )
        .context("the gcov build")?;
        std::fs::write(&built, "")?;
        Ok(b)
    }

    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.tree);
        c
    }

    /// The lines of each of `programs` (name, path on this build) that the
    /// project's test command executes in their own runs: each program is
    /// replaced, for the command, by a program that runs it with its coverage
    /// data sent to a directory of its own (`GCOV_PREFIX`), so that other
    /// programs of the tests that link the same objects (sqlite's
    /// testfixture links its library) do not count. The command may fail:
    /// its runs count all the same, as the recording's do.
    pub fn project_tests(
        &self,
        spec: &Spec,
        programs: &[(String, PathBuf)],
        dir: &Path,
    ) -> Result<BTreeMap<String, Lines>> {
        clear_gcda(&self.tree)?;
        let data = |name: &str| dir.join("gcov-tests").join(name);
        let mut wrapped = Vec::new();
        for (name, path) in programs {
            let _ = std::fs::remove_dir_all(data(name));
            std::fs::create_dir_all(data(name))?;
            wrapped.push(Wrapped::new(path, &data(name), dir)?);
        }
        let words = spec.command(&self.tree);
        let log = dir.join("gcov-tests.log");
        let file = std::fs::File::create(&log)?;
        let mut cmd = self.command(&words[0]);
        cmd.args(&words[1..])
            .stdin(Stdio::null())
            .stdout(file.try_clone()?)
            .stderr(file);
        eprintln!("$ {}  (log: {})", util::display(&cmd), log.display());
        let status = cmd
            .status()
            .with_context(|| format!("running `{}`", words.join(" ")))?;
        drop(wrapped);
        if !status.success() {
            eprintln!(
                "bench seeds: the test command on the gcov build failed ({status}); its runs count all the same"
            );
        }
        let mut out = BTreeMap::new();
        for (name, _) in programs {
            clear_gcda(&self.tree)?;
            place(&data(name), &self.tree)?;
            out.insert(name.clone(), collect(&self.tree)?);
        }
        Ok(out)
    }

    /// The program `binary` (relative to the tree) of the gcov build, made
    /// to load the tree's own shared libraries: where the system has a
    /// library of the same name (an installed jq's `libjq.so.1`), the
    /// uninstalled program would otherwise load that one.
    pub fn program(&self, binary: &str) -> Result<PathBuf> {
        let p = self.tree.join(binary);
        if !p.is_file() {
            bail!("the gcov build made no {}", p.display());
        }
        let needed = util::output("patchelf", &["--print-needed", &p.display().to_string()])
            .with_context(|| format!("patchelf --print-needed {}", p.display()))?;
        let mut dirs: Vec<PathBuf> = Vec::new();
        for soname in needed.lines().map(str::trim).filter(|l| !l.is_empty()) {
            for f in files_named(&self.tree, soname) {
                let d = f.parent().expect("a file has a parent").to_path_buf();
                if !dirs.contains(&d) {
                    dirs.push(d);
                }
            }
        }
        if dirs.is_empty() {
            return Ok(p);
        }
        let rpath: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        util::run(
            Command::new("patchelf")
                .arg("--set-rpath")
                .arg(rpath.join(":"))
                .arg(&p),
        )?;
        let ldd = Command::new("ldd").arg(&p).env_clear().output()?;
        let ldd = String::from_utf8_lossy(&ldd.stdout);
        for l in ldd.lines() {
            let Some((soname, to)) = l.trim().split_once(" => ") else {
                continue;
            };
            if !files_named(&self.tree, soname).is_empty()
                && !to.starts_with(&self.tree.display().to_string())
            {
                bail!(
                    "{} loads {soname} from {to}, not from the tree",
                    p.display()
                );
            }
        }
        Ok(p)
    }

    /// The lines the tests of `tests` (a directory of `.ktest` files, none
    /// at all for no line) execute when replayed on `program` (`cargo symtest replay --native`,
    /// each test in the model's environment); `work` keeps the replay's
    /// output and coverage data.
    pub fn replayed(&self, bin: &Path, program: &Path, tests: &Path, work: &Path) -> Result<Lines> {
        clear_gcda(&self.tree)?;
        let _ = std::fs::remove_dir_all(work);
        if with_ext(tests, "ktest").is_empty() {
            // No test: no line.
            return Ok(Lines::new());
        }
        let data = work.join("gcda");
        std::fs::create_dir_all(&data)?;
        let out = work.join("replay.jsonl");
        let err = work.join("replay.stderr");
        let mut cmd = Command::new(bin);
        cmd.arg("replay")
            .arg("--native")
            .arg(program)
            .arg("--gcov-dir")
            .arg(&data)
            .arg("--json")
            .arg(tests)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out)?)
            .stderr(std::fs::File::create(&err)?);
        eprintln!("$ {}", util::display(&cmd));
        cmd.status().context("running cargo symtest replay")?;
        let text = std::fs::read_to_string(&out)?;
        if !text.lines().any(|l| l.starts_with("{\"summary\"")) {
            bail!(
                "cargo symtest replay --native on {} did not finish: {}",
                tests.display(),
                std::fs::read_to_string(&err).unwrap_or_default().trim()
            );
        }
        place(&data, &self.tree)?;
        collect(&self.tree)
    }
}

/// A program replaced by a small C program that runs it with its coverage
/// data sent to a directory (flat, as `replay --native --gcov-dir` writes
/// it), under the same argv; put back when dropped. (Not a shell script: a
/// shell warns on stderr when the tests set a locale the machine lacks, and
/// tests compare stderr.)
struct Wrapped {
    path: PathBuf,
    real: PathBuf,
}

impl Wrapped {
    fn new(path: &Path, data: &Path, work: &Path) -> Result<Wrapped> {
        let name = path
            .file_name()
            .context("a program has a name")?
            .to_string_lossy()
            .into_owned();
        let real = path.with_file_name(format!("{name}.gcov-real"));
        let src = work.join(format!("wrap-{name}.c"));
        let exe = work.join(format!("wrap-{name}"));
        std::fs::write(
            &src,
            format!(
                "#include <stdlib.h>\n#include <unistd.h>\n\
                 int main(int argc, char **argv) {{\n\
                 (void)argc;\n\
                 setenv(\"GCOV_PREFIX\", {}, 1);\n\
                 setenv(\"GCOV_PREFIX_STRIP\", \"1000\", 1);\n\
                 execv({}, argv);\n\
                 return 127;\n}}\n",
                c_string(&data.display().to_string()),
                c_string(&real.display().to_string())
            ),
        )?;
        util::run(Command::new("gcc").arg("-O1").arg("-o").arg(&exe).arg(&src))?;
        // A run stopped while the program was wrapped left the wrapper in
        // its place and the program beside it: the program goes back first
        // (wrapping the wrapper would make it run itself forever).
        if real.is_file() {
            std::fs::rename(&real, path)
                .with_context(|| format!("putting {} back", path.display()))?;
        }
        std::fs::rename(path, &real)?;
        let w = Wrapped {
            path: path.to_path_buf(),
            real,
        };
        std::fs::copy(&exe, &w.path)?;
        Ok(w)
    }
}

/// `s` as a C string literal.
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Drop for Wrapped {
    fn drop(&mut self) {
        let _ = std::fs::rename(&self.real, &self.path);
    }
}

/// `dir/<compiler>` for each of [`COMPILERS`] on the `PATH`: a script that
/// runs it with `--coverage`.
fn write_wrappers(dir: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir)?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in COMPILERS {
        let Some(real) = std::env::split_paths(&path)
            .filter(|d| d != dir)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
        else {
            continue;
        };
        let script = dir.join(name);
        std::fs::write(
            &script,
            format!("#!/bin/sh\nexec {} --coverage \"$@\"\n", real.display()),
        )?;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// The files under `dir` whose path ends in `ext` (not under a directory
/// symtest writes).
fn files_with(dir: &Path, pred: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                if !e.file_name().to_string_lossy().starts_with("symtest-out") {
                    todo.push(p);
                }
            } else if pred(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn files_named(dir: &Path, name: &str) -> Vec<PathBuf> {
    files_with(dir, &|p| p.file_name().is_some_and(|n| n == name))
}

fn with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    files_with(dir, &|p| p.extension().is_some_and(|x| x == ext))
}

fn clear_gcda(tree: &Path) -> Result<()> {
    for p in with_ext(tree, "gcda") {
        std::fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
    }
    Ok(())
}

/// The compilation's stamp a `.gcno` and its `.gcda` share (bytes 8..12).
fn stamp(p: &Path) -> Option<[u8; 4]> {
    use std::io::Read;
    let mut head = [0u8; 12];
    std::fs::File::open(p).ok()?.read_exact(&mut head).ok()?;
    Some([head[8], head[9], head[10], head[11]])
}

/// Puts each `.gcda` of `data` (written flat by the replay, under its
/// object's file name) beside the `.gcno` of the same name and compilation
/// stamp in the tree.
fn place(data: &Path, tree: &Path) -> Result<()> {
    let mut notes: HashMap<(String, [u8; 4]), PathBuf> = HashMap::new();
    for n in with_ext(tree, "gcno") {
        if let (Some(stem), Some(s)) = (n.file_stem(), stamp(&n)) {
            notes.insert((stem.to_string_lossy().into_owned(), s), n);
        }
    }
    for d in with_ext(data, "gcda") {
        let stem = d
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let s = stamp(&d).with_context(|| format!("reading {}", d.display()))?;
        let note = notes.get(&(stem, s)).with_context(|| {
            format!(
                "{}: no .gcno of this name and compilation in {}",
                d.display(),
                tree.display()
            )
        })?;
        std::fs::copy(&d, note.with_extension("gcda"))?;
    }
    Ok(())
}

/// The lines of every `.gcda` of the tree (gcov's JSON), per source file
/// of the tree.
fn collect(tree: &Path) -> Result<Lines> {
    let mut lines = Lines::new();
    let data = with_ext(tree, "gcda");
    for batch in data.chunks(GCOV_BATCH) {
        let out = Command::new("gcov")
            .args(["--json-format", "--stdout"])
            .args(batch)
            .current_dir(tree)
            .stderr(Stdio::null())
            .output()
            .context("running gcov (install gcc)")?;
        for doc in String::from_utf8_lossy(&out.stdout).lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(doc) else {
                continue;
            };
            add_doc(&mut lines, &v, tree);
        }
    }
    Ok(lines)
}

/// Adds one object's gcov JSON document to `lines`.
fn add_doc(lines: &mut Lines, v: &serde_json::Value, tree: &Path) {
    let cwd = Path::new(v["current_working_directory"].as_str().unwrap_or("/"));
    for f in v["files"].as_array().into_iter().flatten() {
        let Some(file) = f["file"].as_str() else {
            continue;
        };
        let Ok(rel) = normalized(&cwd.join(file))
            .strip_prefix(tree)
            .map(Path::to_path_buf)
        else {
            continue;
        };
        let entry = lines.entry(rel.display().to_string()).or_default();
        for l in f["lines"].as_array().into_iter().flatten() {
            let Some(n) = l["line_number"].as_u64() else {
                continue;
            };
            entry.code.insert(n as u32);
            if l["count"].as_u64().is_some_and(|c| c > 0) {
                entry.covered.insert(n as u32);
            }
        }
    }
}

/// `p` with `.` and `..` resolved lexically.
fn normalized(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(code: &[u32], covered: &[u32]) -> FileLines {
        FileLines {
            code: code.iter().copied().collect(),
            covered: covered.iter().copied().collect(),
        }
    }

    #[test]
    fn figures_count_lines_beyond_the_project_s_tests() {
        let one = |fl: FileLines| -> Lines { [("a.c".to_string(), fl)].into_iter().collect() };
        let tests = one(lines(&[1, 2, 3, 4, 5], &[1, 2]));
        let seeds = one(lines(&[1, 2, 3, 4, 5], &[1, 3]));
        let plain = one(lines(&[1, 2, 3, 4, 5], &[1, 5]));
        let seeded = one(lines(&[1, 2, 3, 4, 5, 6], &[1, 2, 4, 6]));
        let files = vec!["a.c".to_string(), "gone.c".to_string()];
        let f = Figures::of(&files, &tests, &seeds, &plain, &seeded);
        assert_eq!(
            (f.lines, f.tests, f.seeds, f.plain, f.seeded),
            (6, 2, 2, 2, 4)
        );
        assert_eq!(f.beyond_tests, 2); // 4, 6
        assert_eq!(f.beyond, 2); // 4, 6 (3 is the seeds')
        assert_eq!(f.plain_beyond, 1); // 5
        assert_eq!(f.seeds_not_kept, 1); // 3
        assert_eq!(f.beyond_lines, ["a.c:4", "a.c:6"]);
    }

    /// A wrapper an interrupted run left in place is not wrapped again:
    /// the program beside it goes back first, and back again at the end.
    #[test]
    fn a_wrapper_left_in_place_is_replaced_not_wrapped() {
        let dir = std::env::temp_dir().join(format!("seeds-wrap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let prog = dir.join("prog");
        std::fs::write(&prog, "left wrapper").unwrap();
        std::fs::write(dir.join("prog.gcov-real"), "real program").unwrap();
        {
            let _w = Wrapped::new(&prog, &dir.join("data"), &dir).unwrap();
            assert_eq!(
                std::fs::read_to_string(dir.join("prog.gcov-real")).unwrap(),
                "real program"
            );
        }
        assert_eq!(std::fs::read_to_string(&prog).unwrap(), "real program");
        assert!(!dir.join("prog.gcov-real").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn c_strings_escape_quotes_and_backslashes() {
        assert_eq!(c_string("/a/b c"), "\"/a/b c\"");
        assert_eq!(c_string("x\"y\\z"), "\"x\\\"y\\\\z\"");
    }

    #[test]
    fn gcov_documents_are_read_relative_to_the_tree() {
        let doc = serde_json::json!({
            "current_working_directory": "/t/src",
            "files": [
                {"file": "../lib/x.c", "lines": [
                    {"line_number": 3, "count": 2}, {"line_number": 4, "count": 0}]},
                {"file": "/usr/include/stdio.h", "lines": [{"line_number": 1, "count": 1}]}
            ]
        });
        let mut l = Lines::new();
        add_doc(&mut l, &doc, Path::new("/t"));
        assert_eq!(l.len(), 1);
        assert_eq!(l["lib/x.c"], lines(&[3, 4], &[3]));
    }
}
