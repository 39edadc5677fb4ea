//! The native coverage build of a target: the suite runner (with every test the engine
//! wrote) and the target's sources built with clang-19 `--coverage` and sanitizers; runs
//! of selected tests, and gcov (`llvm-cov-19 gcov`) of the target's sources.
//!
//! clang builds both the bitcode and this binary, so the engine's lines and gcov's
//! lines come from the same front end.

use super::compile::common_args;
use super::discovery::Target;
use super::emit::{self, SuiteCase};
use super::gcov::{self, FileCoverage};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Sanitizers of the native build (bugs end the run with a signal).
pub const NATIVE_SANITIZE: &str =
    "-fsanitize=address,undefined,integer-divide-by-zero,signed-integer-overflow,shift";

/// Coverage of each target source in one run.
pub type RunCoverage = Vec<(PathBuf, FileCoverage)>;

pub struct NativeBuild {
    pub dir: PathBuf,
    pub exe: PathBuf,
    /// (target source, its object file).
    pub objects: Vec<(PathBuf, PathBuf)>,
    /// Where the sources were compiled (gcov resolves source names from there).
    pub src_root: PathBuf,
}

fn clang() -> String {
    std::env::var("SYMTEST_CLANG")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "clang-19".into())
}

fn gcov_tool() -> (String, Vec<String>) {
    match std::env::var("SYMTEST_GCOV").ok().filter(|v| !v.is_empty()) {
        Some(v) => {
            let mut w = v.split_whitespace().map(str::to_string);
            (w.next().unwrap_or_default(), w.collect())
        }
        None => ("llvm-cov-19".into(), vec!["gcov".into()]),
    }
}

/// The gcov command as gcovr wants it.
pub fn gcov_command() -> String {
    let (t, a) = gcov_tool();
    std::iter::once(t).chain(a).collect::<Vec<_>>().join(" ")
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let o = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        ))
    }
}

/// Builds the coverage binary in `dir` (recreated).
pub fn build(
    target: &Target,
    models_include: &Path,
    dir: &Path,
    cases: &[SuiteCase],
) -> Result<NativeBuild, String> {
    let _ = std::fs::remove_dir_all(dir);
    let src = dir.join("suite");
    let obj = dir.join("obj");
    std::fs::create_dir_all(&obj).map_err(|e| format!("creating {}: {e}", obj.display()))?;
    emit::write_sources(&src, target, cases).map_err(|e| format!("{e:#}"))?;
    let base = [
        "-g",
        "-O0",
        "-fno-omit-frame-pointer",
        "-fno-sanitize-recover=all",
        "-w",
    ];
    let mut objs_all = Vec::new();
    let runner_o = obj.join("symtest_runner.o");
    run(Command::new(clang())
        .args(base)
        .arg(NATIVE_SANITIZE)
        .arg("-DSYMTEST_COVERAGE")
        .arg(format!("-I{}", src.display()))
        .arg("-c")
        .arg(src.join("symtest_runner.c"))
        .arg("-o")
        .arg(&runner_o))?;
    let tests_o = obj.join("symtest_tests.o");
    run(Command::new(clang())
        .args(base)
        .arg(format!("-I{}", src.display()))
        .arg("-c")
        .arg(src.join("symtest_tests.c"))
        .arg("-o")
        .arg(&tests_o))?;
    objs_all.push(runner_o);
    objs_all.push(tests_o);
    let mut objects = Vec::new();
    for (i, s) in target.sources.iter().enumerate() {
        let stem = s
            .file_stem()
            .map_or("src".into(), |x| x.to_string_lossy().into_owned());
        let o = obj.join(format!("{i:02}_{stem}.o"));
        run(Command::new(clang())
            .args(base)
            .arg(NATIVE_SANITIZE)
            .arg("--coverage")
            .arg("-Dmain=symtest_target_main")
            .arg(format!("-I{}", src.display()))
            .args(common_args(target, models_include))
            .arg("-c")
            .arg(s)
            .arg("-o")
            .arg(&o)
            .current_dir(&target.root))?;
        objs_all.push(o.clone());
        objects.push((s.clone(), o));
    }
    let exe = dir.join("symtest_suite");
    run(Command::new(clang())
        .arg(NATIVE_SANITIZE)
        .arg("--coverage")
        .args(&objs_all)
        .arg("-o")
        .arg(&exe))?;
    Ok(NativeBuild {
        dir: dir.to_path_buf(),
        exe,
        objects,
        src_root: target.root.clone(),
    })
}

impl NativeBuild {
    fn clear_counters(&self) {
        for (_, o) in &self.objects {
            let _ = std::fs::remove_file(o.with_extension("gcda"));
        }
    }

    /// Runs the named tests (all counters reset first); returns the runner's output.
    pub fn run_tests(&self, names: &[&str], timeout_s: u32) -> Result<String, String> {
        self.clear_counters();
        let o = Command::new(&self.exe)
            .arg("--timeout")
            .arg(timeout_s.to_string())
            .args(names)
            .current_dir(&self.dir)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        Ok(String::from_utf8_lossy(&o.stdout).into_owned())
    }

    /// The coverage of each named test on its own: one run of the runner, each test's
    /// child writing its counters under its own `GCOV_PREFIX`, then gcov per test
    /// (on `jobs` threads).
    pub fn per_test_gcov(
        &self,
        names: &[&str],
        timeout_s: u32,
        jobs: usize,
    ) -> Result<Vec<RunCoverage>, String> {
        let root = self.dir.join("per-test");
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).map_err(|e| format!("creating {}: {e}", root.display()))?;
        Command::new(&self.exe)
            .arg("--timeout")
            .arg(timeout_s.to_string())
            .arg("--coverage-dir")
            .arg(&root)
            .args(names)
            .current_dir(&self.dir)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        let one = |name: &str| -> Result<RunCoverage, String> {
            let objects: Vec<(PathBuf, PathBuf)> = self
                .objects
                .iter()
                .map(|(src, o)| {
                    let rel = o.strip_prefix("/").unwrap_or(o);
                    let moved = root.join(name).join(rel);
                    if moved.with_extension("gcda").is_file() {
                        let _ =
                            std::fs::copy(o.with_extension("gcno"), moved.with_extension("gcno"));
                    }
                    (src.clone(), moved)
                })
                .collect();
            Ok(self
                .gcov_of(&objects)?
                .into_iter()
                .map(|(s, _, fc)| (s, fc))
                .collect())
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
        let _ = std::fs::remove_dir_all(&root);
        results.into_iter().map(|(_, r)| r).collect()
    }

    /// gcov of each target source after a run: (source, gcov text, parsed).
    pub fn gcov(&self) -> Result<Vec<(PathBuf, String, FileCoverage)>, String> {
        self.gcov_of(&self.objects)
    }

    fn gcov_of(
        &self,
        objects: &[(PathBuf, PathBuf)],
    ) -> Result<Vec<(PathBuf, String, FileCoverage)>, String> {
        let (tool, pre) = gcov_tool();
        let mut out = Vec::new();
        for (src, o) in objects {
            let r = Command::new(&tool)
                .args(&pre)
                .args(["-b", "-c", "-t", "-o"])
                .arg(o)
                .arg(src)
                .current_dir(&self.src_root)
                .output()
                .map_err(|e| format!("cannot run {tool}: {e}"))?;
            // Without a counters file (never executed) gcov still lists the lines.
            if !r.status.success() && o.with_extension("gcda").is_file() {
                return Err(format!(
                    "{tool} gcov failed on {}:\n{}",
                    src.display(),
                    String::from_utf8_lossy(&r.stderr)
                ));
            }
            let text = String::from_utf8_lossy(&r.stdout).into_owned();
            let fc = gcov::parse(&text);
            out.push((src.clone(), text, fc));
        }
        Ok(out)
    }
}
