//! `--libc=musl` and `--posix-runtime`: links the program's bitcode with the musl
//! runtime that `cargo xtask setup` builds (musl as bitcode + the POSIX model), and
//! checks the KLEE-style environment options given after `--`.

use std::path::PathBuf;
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
    _dir: crate::tempdir::TempDir,
}

/// Links the program (its checked `bytes`; `name` in messages) with the
/// runtime: `llvm-link-19 --only-needed`, so only the libc functions the
/// program reaches are loaded. With `posix`, the POSIX entry (which builds
/// argv and the symbolic files, then calls main) is linked first. The links
/// run under the loading limits.
pub fn link(
    bytes: &[u8],
    name: &str,
    posix: bool,
    limits: &crate::loading::Limits,
) -> Result<Linked, String> {
    let rt = runtime_dir()?;
    let dir = crate::tempdir::TempDir::new("link").map_err(|e| e.to_string())?;
    let program = dir.path().join("program.bc");
    std::fs::write(&program, bytes).map_err(|e| format!("writing {}: {e}", program.display()))?;
    let linked = dir.path().join("linked.bc");
    let mut first = program;
    if posix {
        let with_entry = dir.path().join("with-entry.bc");
        let mut cmd = Command::new("llvm-link-19");
        cmd.arg(&first)
            .arg(rt.join("entry.bc"))
            .arg("-o")
            .arg(&with_entry);
        run_link(cmd, name, limits)?;
        first = with_entry;
    }
    let mut cmd = Command::new("llvm-link-19");
    cmd.arg(&first)
        .arg("--only-needed")
        .arg(rt.join("runtime.bc"))
        .arg("-o")
        .arg(&linked);
    run_link(cmd, name, limits)?;
    Ok(Linked {
        path: linked,
        _dir: dir,
    })
}

fn run_link(cmd: Command, name: &str, limits: &crate::loading::Limits) -> Result<(), String> {
    let what = format!("linking `{name}` with the musl runtime");
    let out = crate::loading::run_tool(cmd, &what, limits)?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "{what} failed: {}",
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
