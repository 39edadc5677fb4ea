//! The native coverage build of a target: the suite's own Makefile
//! ([`crate::recipe`], [`crate::emit::makefile`]) run with `SYMTEST_COVERAGE=1`
//! in the target's build directory, with every test the engine wrote; runs of
//! selected tests, each writing its own profile, and their line and branch
//! coverage ([`crate::covdata`]).
//!
//! clang builds both the bitcode and this binary, so the engine's lines and the
//! native lines come from the same front end; the suite a developer runs is
//! built by the same Makefile, so it gives the same verdicts.

use crate::covdata::{self, FileCoverage};
use crate::discovery::Target;
use crate::emit::{self, SuiteCase};
use crate::units::NativeInputs;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Coverage of each target source in one run.
pub type RunCoverage = Vec<(PathBuf, FileCoverage)>;

/// [`NativeBuild::per_test_coverage`]: the runner's output (each test's
/// verdict), each test's coverage (of the sources it ran code of: another
/// source has no line or branch it covers), and how long the runs and the
/// reading of their profiles took (seconds).
pub struct PerTest {
    pub output: String,
    pub coverage: Vec<RunCoverage>,
    pub run_s: f64,
    pub export_s: f64,
}

pub struct NativeBuild {
    /// Where the objects and the runner are (and the profiles go).
    pub dir: PathBuf,
    pub exe: PathBuf,
    /// The target's sources (every translation unit), with the executable
    /// lines of each (its object's debug line table).
    pub sources: Vec<(PathBuf, BTreeSet<u32>)>,
    /// Per source (as `sources`): the functions gcov places on each line.
    function_starts: Vec<std::collections::BTreeMap<u32, Vec<String>>>,
    /// Each source's position in `sources`, under its lexically normalized
    /// and its canonical name: how a file of `llvm-cov export` is matched to
    /// its source without a file-system walk per pair.
    index: HashMap<PathBuf, usize>,
}

fn clang() -> String {
    crate::toolchain::clang().to_string_lossy().into_owned()
}

/// The last lines of a failed command's output: what make and the compiler said.
fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Builds the coverage binary in `dir` (recreated): the suite's sources with
/// every test in `dir/suite`, its Makefile run with `SYMTEST_COVERAGE=1` in
/// `dir/obj`. `root` is the project root (the Makefile names what lies inside
/// it relative to the suite, as the emitted one does).
pub fn build(
    target: &Target,
    inputs: &NativeInputs,
    root: &Path,
    dir: &Path,
    cases: &[SuiteCase],
) -> Result<NativeBuild, String> {
    let _ = std::fs::remove_dir_all(dir);
    let src = dir.join("suite");
    let obj = dir.join("obj");
    std::fs::create_dir_all(&obj).map_err(|e| format!("creating {}: {e}", obj.display()))?;
    emit::write_sources(&src, target, inputs, cases).map_err(|e| format!("{e:#}"))?;
    let mk = emit::makefile(target, inputs, root, &src);
    let makefile = src.join("Makefile");
    std::fs::write(&makefile, &mk.text)
        .map_err(|e| format!("writing {}: {e}", makefile.display()))?;
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut cmd = Command::new("make");
    crate::toolchain::fixed_date(&mut cmd);
    cmd.arg("-f")
        .arg(&makefile)
        .arg(format!("-j{jobs}"))
        .arg("SYMTEST_COVERAGE=1")
        .arg(format!("CC={}", clang()))
        .arg("symtest_suite")
        .current_dir(&obj);
    // The Makefile's defaults, not the caller's: a build environment's
    // CFLAGS (Debian's carry `-ffile-prefix-map=<tree>=.`, which renames
    // every file in the coverage data, so no line matched its source and
    // nothing was measured) or LDFLAGS would change this build, which must
    // be the one of the engine's checks.
    for var in ["CFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "MFLAGS"] {
        cmd.env_remove(var);
    }
    if let Some(ar) = std::env::var_os("SYMTEST_AR").filter(|v| !v.is_empty()) {
        let mut a = std::ffi::OsString::from("AR=");
        a.push(ar);
        cmd.arg(a);
    }
    let o = cmd
        .output()
        .map_err(|e| format!("cannot run make (install make): {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "`make -f {} SYMTEST_COVERAGE=1` in {} failed:\n{}",
            makefile.display(),
            obj.display(),
            tail(&String::from_utf8_lossy(&o.stderr), 40)
        ));
    }
    let objects: Vec<(PathBuf, PathBuf)> = mk
        .objects
        .into_iter()
        .map(|(source, o)| (source, obj.join(o)))
        .collect();
    NativeBuild::of_objects(&obj, obj.join("symtest_suite"), objects)
}

/// The runner's verdict on one test in the output of [`NativeBuild::run_tests`]:
/// what follows `test NAME ... ` (`ok`, `ok (...)`, `FAILED: ...`).
pub fn verdict_of<'a>(runner_output: &'a str, name: &str) -> Option<&'a str> {
    let prefix = format!("test {name} ... ");
    runner_output
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
}

impl NativeBuild {
    /// The build in `dir` whose runner is `exe`, of the `(source, object)`
    /// pairs of the target's translation units (their gcov notes beside the
    /// objects).
    fn of_objects(
        dir: &Path,
        exe: PathBuf,
        objects: Vec<(PathBuf, PathBuf)>,
    ) -> Result<NativeBuild, String> {
        let gcov = covdata::gcov_lines(&objects)?;
        let function_starts = gcov.iter().map(|g| g.function_starts.clone()).collect();
        let sources: Vec<(PathBuf, BTreeSet<u32>)> = objects
            .into_iter()
            .map(|(s, _)| s)
            .zip(gcov.into_iter().map(|g| g.lines))
            .collect();
        let mut index = HashMap::new();
        for (i, (src, _)) in sources.iter().enumerate().rev() {
            index.insert(covdata::normalized(src), i);
            if let Ok(c) = src.canonicalize() {
                index.insert(c, i);
            }
        }
        Ok(NativeBuild {
            dir: dir.to_path_buf(),
            exe,
            sources,
            function_starts,
            index,
        })
    }

    /// The position in `sources` of a file as the coverage mapping names it.
    fn unit_of(&self, filename: &str) -> Option<usize> {
        let name = covdata::normalized(Path::new(filename));
        self.index
            .get(&name)
            .or_else(|| name.canonicalize().ok().and_then(|c| self.index.get(&c)))
            .copied()
    }

    /// Where the coverage run writes each test's profile.
    fn profiles(&self) -> PathBuf {
        self.dir.join("profiles")
    }

    fn run(&self, names: &[&str], timeout_s: u32, profiles: &Path) -> Result<String, String> {
        let _ = std::fs::remove_dir_all(profiles);
        std::fs::create_dir_all(profiles)
            .map_err(|e| format!("creating {}: {e}", profiles.display()))?;
        let o = Command::new(&self.exe)
            .arg("--timeout")
            .arg(timeout_s.to_string())
            .arg("--coverage-dir")
            .arg(profiles)
            .args(names)
            .current_dir(&self.dir)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        Ok(String::from_utf8_lossy(&o.stdout).into_owned())
    }

    /// Runs the named tests again (their profiles are not kept); returns the
    /// runner's output.
    pub fn run_tests(&self, names: &[&str], timeout_s: u32) -> Result<String, String> {
        let dir = self.dir.join("rerun-profiles");
        let out = self.run(names, timeout_s, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        out
    }

    /// Records what each named test does natively into `dir/<test>/` (the
    /// suite's oracle: exit status, stdout, stderr, files, harness outputs),
    /// each test run three times; returns the runner's output (which streams
    /// varied and are not compared).
    pub fn record(&self, names: &[&str], timeout_s: u32, dir: &Path) -> Result<String, String> {
        let _ = std::fs::remove_dir_all(dir);
        let profiles = self.dir.join("record-profiles");
        let o = Command::new(&self.exe)
            .arg("--timeout")
            .arg(timeout_s.to_string())
            .arg("--coverage-dir")
            .arg(&profiles)
            .arg("--record")
            .arg(dir)
            .args(names)
            .current_dir(&self.dir)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()));
        let _ = std::fs::remove_dir_all(&profiles);
        let o = o?;
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        if o.status.code() == Some(2) {
            return Err(format!(
                "recording the tests' behaviour failed:\n{out}{}",
                String::from_utf8_lossy(&o.stderr)
            ));
        }
        Ok(out)
    }

    /// The coverage of each named test on its own: one run of the runner,
    /// each test's child writing its own profile (kept for
    /// [`NativeBuild::coverage_of`]), then each profile read back (on `jobs`
    /// threads), only the sources its functions touch (those are all it can
    /// cover: another source is left out of its coverage). Also the runner's
    /// output: each test's verdict.
    pub fn per_test_coverage(
        &self,
        names: &[&str],
        timeout_s: u32,
        jobs: usize,
    ) -> Result<PerTest, String> {
        let profiles = self.profiles();
        let started = std::time::Instant::now();
        let output = self.run(names, timeout_s, &profiles)?;
        let run_s = started.elapsed().as_secs_f64();
        let started = std::time::Instant::now();
        // The functions of the binary, once: each test's export then reads
        // only the files its functions touch. Without them (llvm-cov could
        // not say), every test reads every file.
        let selector = self.selector(&profiles).ok();
        let one = |name: &str| -> Result<RunCoverage, String> {
            let raw = profiles.join(format!("{name}.profraw"));
            if !raw.is_file() {
                // No profile (the test did not run the program): nothing covered.
                return Ok(Vec::new());
            }
            let profdata = profiles.join(format!("{name}.profdata"));
            covdata::merge(&[raw], &profdata)?;
            if let Some(selector) = &selector {
                if let Some(cov) = self.selected_coverage(selector, &profdata)? {
                    return Ok(cov);
                }
            }
            self.coverage_of_profile(&profdata)
        };
        let jobs = jobs.max(1);
        let chunks: Vec<Vec<(usize, &str)>> = (0..jobs)
            .map(|j| {
                names
                    .iter()
                    .copied()
                    .enumerate()
                    .skip(j)
                    .step_by(jobs)
                    .collect()
            })
            .collect();
        let mut results: Vec<(usize, Result<RunCoverage, String>)> = std::thread::scope(|s| {
            let handles: Vec<_> = chunks
                .iter()
                .map(|chunk| {
                    s.spawn(move || chunk.iter().map(|(i, n)| (*i, one(n))).collect::<Vec<_>>())
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        });
        results.sort_by_key(|(i, _)| *i);
        let coverage = results
            .into_iter()
            .map(|(_, r)| r)
            .collect::<Result<_, _>>()?;
        Ok(PerTest {
            output,
            coverage,
            run_s,
            export_s: started.elapsed().as_secs_f64(),
        })
    }

    /// The coverage of the named tests together, from the profiles of the
    /// [`NativeBuild::per_test_coverage`] run (every source, run or not), and
    /// the merged profile it was read from.
    pub fn coverage_of(&self, names: &[&str]) -> Result<(RunCoverage, PathBuf), String> {
        let profiles = self.profiles();
        let raws: Vec<PathBuf> = names
            .iter()
            .map(|n| profiles.join(format!("{n}.profraw")))
            .filter(|p| p.is_file())
            .collect();
        let merged = self.dir.join("kept.profdata");
        let mut cov = if raws.is_empty() {
            Vec::new()
        } else {
            self.coverage_from(&raws, &merged)?
        };
        // Every source is in the report, counted zero where nothing ran.
        for (src, lines) in &self.sources {
            if !cov.iter().any(|(s, _)| s == src) {
                cov.push((
                    src.clone(),
                    FileCoverage {
                        lines: lines.iter().map(|l| (*l, 0)).collect(),
                        ..FileCoverage::default()
                    },
                ));
            }
        }
        cov.sort_by_key(|(s, _)| {
            self.sources
                .iter()
                .position(|(x, _)| x == s)
                .unwrap_or(usize::MAX)
        });
        Ok((cov, merged))
    }

    /// The functions gcov starts on each line of `src`, one of `sources`.
    pub fn function_starts_of(
        &self,
        src: &Path,
    ) -> Option<&std::collections::BTreeMap<u32, Vec<String>>> {
        let i = self.sources.iter().position(|(s, _)| s == src)?;
        self.function_starts.get(i)
    }

    /// The coverage of the target's sources under the merge of `raws`.
    fn coverage_from(&self, raws: &[PathBuf], merged: &Path) -> Result<RunCoverage, String> {
        covdata::merge(raws, merged)?;
        self.coverage_of_profile(merged)
    }

    /// The coverage of every target source under the indexed profile `profdata`.
    fn coverage_of_profile(&self, profdata: &Path) -> Result<RunCoverage, String> {
        let sources: Vec<&Path> = self.sources.iter().map(|(s, _)| s.as_path()).collect();
        let files = covdata::export(&self.exe, profdata, &sources)?;
        Ok(self.run_coverage(&files))
    }

    /// The coverage of the target's sources among `files`, in their order.
    fn run_coverage(&self, files: &[covdata::ExportFile]) -> RunCoverage {
        let mut out = Vec::new();
        let mut seen = vec![false; self.sources.len()];
        for f in files {
            if let Some(i) = self.unit_of(&f.filename) {
                if !std::mem::replace(&mut seen[i], true) {
                    let (src, lines) = &self.sources[i];
                    out.push((
                        src.clone(),
                        f.coverage_with(lines, &self.function_starts[i]),
                    ));
                }
            }
        }
        out
    }

    /// The binary's functions and the source each file of its coverage
    /// mapping is (`scratch`: a directory for a temporary profile).
    fn selector(&self, scratch: &Path) -> Result<Selector, String> {
        let Some((first, _)) = self.sources.first() else {
            return Err("no sources".into());
        };
        let map = covdata::FunctionMap::read(&self.exe, scratch, first)?;
        let units = map
            .files()
            .into_iter()
            .filter_map(|f| Some((f.to_string(), self.unit_of(f)?)))
            .collect();
        Ok(Selector { map, units })
    }

    /// The coverage of the sources the functions that ran under `profdata`
    /// touch, the same as [`NativeBuild::coverage_of_profile`]'s for them (a
    /// source no such function touches covers nothing, and is left out);
    /// `None` when the profile's functions cannot all be told apart.
    fn selected_coverage(
        &self,
        selector: &Selector,
        profdata: &Path,
    ) -> Result<Option<RunCoverage>, String> {
        // A profile `llvm-profdata show` does not list as expected: read everything.
        let Ok(counts) = covdata::profile_counts(profdata) else {
            return Ok(None);
        };
        let Some(sel) = selector.map.select(&counts) else {
            return Ok(None);
        };
        let units: BTreeSet<usize> = sel
            .files
            .iter()
            .filter_map(|f| selector.units.get(f).copied())
            .collect();
        let selected: Vec<&Path> = units
            .into_iter()
            .map(|i| self.sources[i].0.as_path())
            .collect();
        let files = covdata::export_selected(&self.exe, profdata, &selected, &selector.map, &sel)?;
        Ok(files.map(|files| self.run_coverage(&files)))
    }
}

/// [`NativeBuild::selected_coverage`]'s view of the binary: its functions,
/// and the target source each file of its coverage mapping is.
struct Selector {
    map: covdata::FunctionMap,
    units: HashMap<String, usize>,
}

#[cfg(test)]
mod verdict_tests {
    #[test]
    fn verdicts_by_name() {
        let out = "test test000001 ... ok\ntest test000012 ... FAILED: BUG still present: x (killed by SIGABRT)\n1 passed\n";
        assert_eq!(super::verdict_of(out, "test000001"), Some("ok"));
        assert!(super::verdict_of(out, "test000012")
            .unwrap()
            .starts_with("FAILED: BUG still present"));
        assert_eq!(super::verdict_of(out, "test00001"), None);
    }
}

/// Each test's export limited to the files its functions touch, on a real
/// build: the same coverage as the export of every file.
#[cfg(test)]
mod selection_tests {
    use super::*;

    fn cc(args: &[&str], dir: &Path) {
        let o = Command::new(crate::toolchain::clang())
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }

    fn covered(c: &RunCoverage) -> BTreeSet<(PathBuf, u32, u32)> {
        let mut s = BTreeSet::new();
        for (src, fc) in c {
            s.extend(
                fc.covered_lines()
                    .into_iter()
                    .map(|l| (src.clone(), l, u32::MAX)),
            );
            s.extend(
                fc.taken_branches()
                    .into_iter()
                    .map(|(l, b)| (src.clone(), l, b)),
            );
        }
        s
    }

    #[test]
    fn a_test_reads_only_the_files_it_ran_with_the_same_coverage() {
        let dir = std::env::temp_dir().join(format!("symtest-select-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let dir = dir.canonicalize().unwrap();
        // a.c: main, a static inline function of a header, a function a
        // macro defines; b.c: a function only some runs call, and c.c, a
        // file b.c includes (its code is b.c's unit's).
        std::fs::write(
            dir.join("h.h"),
            "static inline int twice(int x) {\n  if (x > 100)\n    return x;\n  return 2 * x;\n}\nint b(int);\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("a.c"),
            "#include \"h.h\"\n#define DEFINE(name) static int name(int v) { return v ? v + 1 : 0; }\nDEFINE(inc)\nint main(int argc, char **argv) {\n  (void)argv;\n  int r = twice(argc);\n  if (argc > 2)\n    r += b(argc);\n  return inc(r) & 0;\n}\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("c.c"),
            "static int helper(int x) {\n  return x > 3 ? x - 3 : x;\n}\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("b.c"),
            "#include \"h.h\"\n#include \"c.c\"\nint b(int x) {\n  if (x > 5)\n    return helper(x);\n  return twice(x) + helper(x);\n}\n",
        )
        .unwrap();
        let obj_dir = dir.join("obj");
        std::fs::create_dir_all(&obj_dir).unwrap();
        let flags = [
            "-O0",
            "-fprofile-instr-generate",
            "-fcoverage-mapping",
            "-ftest-coverage",
            "-c",
        ];
        for u in ["a", "b"] {
            // Absolute names, from another directory, as the suite's
            // Makefile gives them (gcov's notes name them so).
            let mut args = flags.to_vec();
            let src = dir.join(format!("{u}.c")).display().to_string();
            let obj = format!("{u}.o");
            args.extend([src.as_str(), "-o", obj.as_str()]);
            cc(&args, &obj_dir);
        }
        cc(
            &["-fprofile-instr-generate", "a.o", "b.o", "-o", "prog"],
            &obj_dir,
        );
        let nb = NativeBuild::of_objects(
            &obj_dir,
            obj_dir.join("prog"),
            vec![
                (dir.join("a.c"), obj_dir.join("a.o")),
                (dir.join("b.c"), obj_dir.join("b.o")),
            ],
        )
        .unwrap();
        let selector = nb.selector(&dir).unwrap();
        let mut runs = Vec::new();
        for (name, args) in [("one", &[][..]), ("three", &["x", "y"][..])] {
            let raw = dir.join(format!("{name}.profraw"));
            let st = Command::new(obj_dir.join("prog"))
                .args(args)
                .env("LLVM_PROFILE_FILE", &raw)
                .status()
                .unwrap();
            assert!(st.success());
            let profdata = dir.join(format!("{name}.profdata"));
            covdata::merge(&[raw], &profdata).unwrap();
            let full = nb.coverage_of_profile(&profdata).unwrap();
            let selected = nb.selected_coverage(&selector, &profdata).unwrap().unwrap();
            assert_eq!(covered(&full), covered(&selected), "{name}");
            // A file read is read whole, as the full export reads it.
            for (src, fc) in &selected {
                let (_, f) = full.iter().find(|(s, _)| s == src).unwrap();
                assert_eq!(fc.lines, f.lines, "{name}: {}", src.display());
                assert_eq!(fc.branches, f.branches, "{name}: {}", src.display());
            }
            runs.push((full, selected));
        }
        let files =
            |c: &RunCoverage| -> Vec<PathBuf> { c.iter().map(|(s, _)| s.clone()).collect() };
        // Without arguments b.c runs nothing: only a.c is read, and the full
        // export covers nothing of b.c.
        let (full, selected) = &runs[0];
        assert_eq!(files(full), [dir.join("a.c"), dir.join("b.c")]);
        assert_eq!(files(selected), [dir.join("a.c")]);
        assert!(full[1].1.covered_lines().is_empty());
        let a = &selected[0].1;
        // The line of the macro's use counts the function it defines; the
        // header's function counts in the header, not here.
        assert!(a.covered_lines().contains(&3), "{:?}", a.lines);
        assert!(a.covered_lines().contains(&9));
        assert!(!a.covered_lines().contains(&8));
        // With three arguments b.c (and the c.c it includes) runs too.
        let (full, selected) = &runs[1];
        assert_eq!(files(selected), [dir.join("a.c"), dir.join("b.c")]);
        assert!(!full[1].1.covered_lines().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
