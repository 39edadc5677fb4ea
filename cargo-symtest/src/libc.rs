//! `--libc=musl` and `--posix-runtime`: links the program's bitcode with the musl
//! runtime that `cargo xtask setup` builds (musl as bitcode + the POSIX model), and
//! checks the KLEE-style environment options given after `--`.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../xtask/src/libc_key.rs"]
#[allow(dead_code)]
mod libc_key;

/// The runtime's entry when the POSIX runtime is on (libc-models/posix/entry).
pub const POSIX_ENTRY: &str = "__symtest_posix_main";

/// The cached runtime for the model sources this binary uses.
pub fn runtime_dir() -> Result<PathBuf, String> {
    let models = crate::paths::models_dir();
    let dir = libc_key::runtime_dir(&libc_key::cache_dir(), &models)
        .map_err(|e| format!("reading the models in {}: {e}", models.display()))?;
    if !dir.join("STAMP").exists() {
        return Err(format!(
            "the musl runtime for the models in {} is not built (expected {}); run `cargo xtask setup`",
            models.display(),
            dir.display()
        ));
    }
    Ok(dir)
}

/// A linked program in a temporary directory, removed on drop.
pub struct Linked {
    pub path: PathBuf,
    dir: PathBuf,
}

impl Drop for Linked {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A private temporary directory for linked or optimized bitcode.
fn temp_dir(what: &str) -> Result<PathBuf, String> {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "symtest-{what}-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    Ok(dir)
}

/// `exec --optimize`: the program through LLVM's -O2 pipeline (`opt-19`), as
/// KLEE's `--optimize` runs its optimization passes before exploring.
pub fn optimize(program: &Path) -> Result<Linked, String> {
    let dir = temp_dir("opt")?;
    let out = Linked {
        path: dir.join("optimized.bc"),
        dir,
    };
    let mut cmd = Command::new("opt-19");
    cmd.arg("-O2").arg(program).arg("-o").arg(&out.path);
    let line = format!("opt-19 -O2 {} -o {}", program.display(), out.path.display());
    let res = cmd
        .output()
        .map_err(|e| format!("could not run `{line}`: {e} (is llvm-19 installed?)"))?;
    if !res.status.success() {
        let msg = String::from_utf8_lossy(&res.stderr);
        return Err(format!(
            "--optimize: opt-19 failed: {} (command: {line})",
            msg.lines().next().unwrap_or("").trim()
        ));
    }
    Ok(out)
}

/// Links `program` with the runtime: `llvm-link-19 --only-needed`, so only the
/// libc functions the program reaches are loaded. With `posix`, the POSIX entry
/// (which builds argv and the symbolic files, then calls main) is linked first.
pub fn link(program: &Path, posix: bool) -> Result<Linked, String> {
    let rt = runtime_dir()?;
    let dir = temp_dir("link")?;
    let linked = Linked {
        path: dir.join("linked.bc"),
        dir: dir.clone(),
    };
    let mut first = program.to_path_buf();
    if posix {
        first = dir.join("with-entry.bc");
        run_link(
            Command::new("llvm-link-19")
                .arg(program)
                .arg(rt.join("entry.bc"))
                .arg("-o")
                .arg(&first),
        )?;
    }
    run_link(
        Command::new("llvm-link-19")
            .arg(&first)
            .arg("--only-needed")
            .arg(rt.join("runtime.bc"))
            .arg("-o")
            .arg(&linked.path),
    )?;
    Ok(linked)
}

fn run_link(cmd: &mut Command) -> Result<(), String> {
    let line = format!(
        "{} {}",
        cmd.get_program().to_string_lossy(),
        cmd.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let out = cmd
        .output()
        .map_err(|e| format!("could not run `{line}`: {e} (is llvm-19 installed?)"))?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "linking with the musl runtime failed: {} (command: {line})",
            msg.lines().next().unwrap_or("").trim()
        ));
    }
    Ok(())
}

/// Checks the environment options among the program arguments (KLEE's names,
/// one or two leading dashes), so that a mistake is a usage error before the run.
pub fn check_env_options(args: &[String]) -> Result<(), String> {
    let num = |opt: &str, v: Option<&String>| -> Result<u64, String> {
        let v = v.ok_or_else(|| format!("{opt} expects a number"))?;
        v.parse::<u64>()
            .ok()
            .filter(|n| *n <= 100_000_000)
            .ok_or_else(|| format!("{opt}: `{v}` is not a number"))
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let name = a.strip_prefix("--").or_else(|| a.strip_prefix('-'));
        match name {
            Some("sym-arg") => {
                num("--sym-arg", args.get(i + 1))?;
                i += 2;
            }
            Some("sym-args") => {
                let lo = num("--sym-args MIN MAX N", args.get(i + 1))?;
                let hi = num("--sym-args MIN MAX N", args.get(i + 2))?;
                num("--sym-args MIN MAX N", args.get(i + 3))?;
                if lo > hi {
                    return Err(format!("--sym-args: MIN ({lo}) is larger than MAX ({hi})"));
                }
                if hi > 100 {
                    return Err("--sym-args: at most 100 arguments".into());
                }
                i += 4;
            }
            Some("sym-files") => {
                let n = num("--sym-files NUM N", args.get(i + 1))?;
                let size = num("--sym-files NUM N", args.get(i + 2))?;
                if n > 26 {
                    return Err("--sym-files: at most 26 files (A to Z)".into());
                }
                if size == 0 {
                    return Err("--sym-files: files need at least 1 byte".into());
                }
                i += 3;
            }
            Some("sym-stdin") => {
                if num("--sym-stdin", args.get(i + 1))? == 0 {
                    return Err("--sym-stdin: stdin needs at least 1 byte".into());
                }
                i += 2;
            }
            Some("max-fail") => {
                num("--max-fail", args.get(i + 1))?;
                i += 2;
            }
            _ => i += 1,
        }
    }
    Ok(())
}
