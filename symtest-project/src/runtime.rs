//! The musl runtime that `cargo xtask setup` builds (musl as bitcode + the POSIX
//! model) and the KLEE-style environment options given after `--`. Linking a
//! program with it is the binary's (`cargo-symtest/src/libc.rs`): it runs under
//! the loading limits.

use std::path::PathBuf;

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
