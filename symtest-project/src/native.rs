//! The native coverage build of a target: the suite runner (with every test the engine
//! wrote) and the target's sources built with clang-19 `--coverage` and sanitizers; runs
//! of selected tests, and gcov (`llvm-cov-19 gcov`) of the target's sources.
//!
//! clang builds both the bitcode and this binary, so the engine's lines and gcov's
//! lines come from the same front end.
//!
//! Program targets that inject system-call failures (`--max-fail`) are built against
//! musl when it is installed (Debian `musl-tools`: headers, crt files, loader), the
//! libc the engine runs, so the runner replays the failures exactly (the linked
//! shim `symtest_fail.c`); UBSan in trap mode then replaces AddressSanitizer.

use crate::discovery::Target;
use crate::emit::{self, SuiteCase};
use crate::gcov::{self, FileCoverage};
use crate::units::{render_native, NativeInputs, Unit};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Sanitizers of the native build (bugs end the run with a signal).
pub const NATIVE_SANITIZE: &str =
    "-fsanitize=address,undefined,integer-divide-by-zero,signed-integer-overflow,shift";

/// Where Debian's `musl-tools` puts musl for x86_64.
const MUSL_INCLUDE: &str = "/usr/include/x86_64-linux-musl";
const MUSL_LIB: &str = "/usr/lib/x86_64-linux-musl";
const MUSL_LOADER: &str = "/lib/ld-musl-x86_64.so.1";

/// Sanitizers of a musl build: checks that need no runtime library (they trap).
const MUSL_SANITIZE: &[&str] = &[
    "-fsanitize=integer-divide-by-zero,signed-integer-overflow,shift,bounds,null,pointer-overflow",
    "-fsanitize-trap=all",
];

/// The glibc fortify entry points clang's profile runtime (built against glibc) calls.
const MUSL_COMPAT_C: &str = r#"/* glibc entry points of libclang_rt.profile, for a musl link. */
#include <stdarg.h>
#include <stdio.h>
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...) {
  va_list ap;
  int r;
  (void)flag;
  va_start(ap, fmt);
  r = vfprintf(f, fmt, ap);
  va_end(ap);
  return r;
}
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap) {
  (void)flag;
  return vfprintf(f, fmt, ap);
}
"#;

/// How to compile and link against musl with clang (None: musl or clang's profile
/// runtime is missing).
struct Musl {
    compile: Vec<String>,
    link_pre: Vec<String>,
    link_post: Vec<String>,
}

fn clang_print(flag: &str) -> Option<PathBuf> {
    let o = Command::new(clang()).arg(flag).output().ok()?;
    let p = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
    (o.status.success() && p.exists()).then_some(p)
}

fn musl() -> Option<Musl> {
    let lib = Path::new(MUSL_LIB);
    let found = Path::new(MUSL_INCLUDE).join("stdio.h").is_file()
        && lib.join("crt1.o").is_file()
        && Path::new(MUSL_LOADER).exists();
    if !found {
        return None;
    }
    let resource = clang_print("-print-resource-dir")?;
    let profile = [
        "lib/linux/libclang_rt.profile-x86_64.a",
        "lib/x86_64-unknown-linux-gnu/libclang_rt.profile.a",
    ]
    .iter()
    .map(|r| resource.join(r))
    .find(|p| p.is_file())?;
    let s = |p: PathBuf| p.display().to_string();
    let mut link_post = vec![s(profile), format!("-L{MUSL_LIB}"), "-lc".into()];
    if let Some(libgcc) = clang_print("-print-libgcc-file-name") {
        link_post.push(s(libgcc));
    }
    link_post.push(s(lib.join("crtn.o")));
    Some(Musl {
        compile: vec![
            "-nostdinc".into(),
            "-isystem".into(),
            MUSL_INCLUDE.into(),
            "-isystem".into(),
            s(resource.join("include")),
        ],
        link_pre: vec![
            "-nostdlib".into(),
            "-no-pie".into(),
            format!("-Wl,-dynamic-linker,{MUSL_LOADER}"),
            s(lib.join("crt1.o")),
            s(lib.join("crti.o")),
        ],
        link_post,
    })
}

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

/// The archiver for rebuilt static libraries: `$SYMTEST_AR`, else `llvm-ar-19`.
fn ar() -> String {
    std::env::var("SYMTEST_AR")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "llvm-ar-19".into())
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

/// Builds the coverage binary in `dir` (recreated) from the target's units
/// (its sources, or the recorded compile commands of a target from a build).
pub fn build(
    target: &Target,
    inputs: &NativeInputs,
    dir: &Path,
    cases: &[SuiteCase],
) -> Result<NativeBuild, String> {
    let _ = std::fs::remove_dir_all(dir);
    let src = dir.join("suite");
    let obj = dir.join("obj");
    std::fs::create_dir_all(&obj).map_err(|e| format!("creating {}: {e}", obj.display()))?;
    emit::write_sources(&src, target, cases).map_err(|e| format!("{e:#}"))?;
    let musl = if emit::injects_failures(target) {
        musl()
    } else {
        None
    };
    let (libc, sanitize): (Vec<String>, Vec<String>) = match &musl {
        Some(m) => (
            m.compile.clone(),
            MUSL_SANITIZE.iter().map(|s| s.to_string()).collect(),
        ),
        None => (Vec::new(), vec![NATIVE_SANITIZE.to_string()]),
    };
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
        .args(&libc)
        .args(&sanitize)
        .arg("-DSYMTEST_COVERAGE")
        .arg(format!("-I{}", src.display()))
        .arg("-c")
        .arg(src.join("symtest_runner.c"))
        .arg("-o")
        .arg(&runner_o))?;
    let tests_o = obj.join("symtest_tests.o");
    run(Command::new(clang())
        .args(base)
        .args(&libc)
        .arg(format!("-I{}", src.display()))
        .arg("-c")
        .arg(src.join("symtest_tests.c"))
        .arg("-o")
        .arg(&tests_o))?;
    objs_all.push(runner_o);
    objs_all.push(tests_o);
    if musl.is_some() {
        let shim_o = obj.join("symtest_fail.o");
        run(Command::new(clang())
            .args(&libc)
            .args(["-O2", "-fno-stack-protector", "-fno-builtin", "-w"])
            .arg("-DSYMTEST_FAIL_LINKED")
            .arg("-c")
            .arg(src.join("symtest_fail.c"))
            .arg("-o")
            .arg(&shim_o))?;
        let compat_c = src.join("symtest_musl_compat.c");
        std::fs::write(&compat_c, MUSL_COMPAT_C)
            .map_err(|e| format!("writing {}: {e}", compat_c.display()))?;
        let compat_o = obj.join("symtest_musl_compat.o");
        run(Command::new(clang())
            .args(&libc)
            .args(["-O2", "-w", "-c"])
            .arg(&compat_c)
            .arg("-o")
            .arg(&compat_o))?;
        objs_all.push(shim_o);
        objs_all.push(compat_o);
    }
    let mut objects = Vec::new();
    let mut n = 0usize;
    let mut compile =
        |u: &Unit, objects: &mut Vec<(PathBuf, PathBuf)>| -> Result<PathBuf, String> {
            let stem = u
                .source
                .file_stem()
                .map_or("src".into(), |x| x.to_string_lossy().into_owned());
            let o = obj.join(format!("{n:02}_{stem}.o"));
            n += 1;
            run(Command::new(clang())
                .args(base)
                .args(&libc)
                .args(&sanitize)
                .arg("--coverage")
                .arg("-Dmain=symtest_target_main")
                .args(render_native(&u.args, &src))
                .arg("-c")
                .arg(&u.source)
                .arg("-o")
                .arg(&o)
                .current_dir(&target.root))?;
            objects.push((u.source.clone(), o.clone()));
            Ok(o)
        };
    for u in &inputs.units {
        objs_all.push(compile(u, &mut objects)?);
    }
    objs_all.extend(inputs.objects.iter().cloned());
    // Each static library rebuilt from its members, linked as an archive (the
    // linker takes the members the program needs, as in the project's build).
    let mut built = Vec::new();
    for (k, a) in inputs.archives.iter().enumerate() {
        let mut members = Vec::new();
        for u in &a.members {
            members.push(compile(u, &mut objects)?);
        }
        members.extend(a.objects.iter().cloned());
        let stem = a
            .path
            .file_stem()
            .map_or("lib".into(), |x| x.to_string_lossy().into_owned());
        let lib = obj.join(format!("{k:02}_{stem}.a"));
        run(Command::new(ar()).arg("rcs").arg(&lib).args(&members))?;
        built.push(lib);
    }
    let archives: Vec<&PathBuf> = inputs.archive_links.iter().map(|&i| &built[i]).collect();
    let exe = dir.join("symtest_suite");
    match &musl {
        Some(m) => run(Command::new(clang())
            .args(&m.link_pre)
            .args(&objs_all)
            .args(&archives)
            .args(&inputs.libs)
            .args(&m.link_post)
            .arg("-o")
            .arg(&exe))?,
        None => run(Command::new(clang())
            .arg(NATIVE_SANITIZE)
            .arg("--coverage")
            .args(&objs_all)
            .args(&archives)
            .args(&inputs.libs)
            .arg("-o")
            .arg(&exe))?,
    }
    Ok(NativeBuild {
        dir: dir.to_path_buf(),
        exe,
        objects,
        src_root: target.root.clone(),
    })
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
            // Only the objects the test executed (those with counters): the
            // others add nothing to its covered lines and branches.
            let objects: Vec<(PathBuf, PathBuf)> = self
                .objects
                .iter()
                .filter_map(|(src, o)| {
                    let rel = o.strip_prefix("/").unwrap_or(o);
                    let moved = root.join(name).join(rel);
                    if !moved.with_extension("gcda").is_file() {
                        return None;
                    }
                    let _ = std::fs::copy(o.with_extension("gcno"), moved.with_extension("gcno"));
                    Some((src.clone(), moved))
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
