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

/// The longest symbolic argument: 4,096 bytes (`PATH_MAX`, the longest path
/// an argument can usefully name). Far below Linux's `MAX_ARG_STRLEN`
/// (131,072, the most `execve` passes, so the most native replay could): the
/// engine proves an argument free of NUL one byte and one query at a time,
/// each query carrying a model of the whole argument, so memory grows with
/// the square of the length, outside what the memory cap samples: a few
/// arguments of 4,096 bytes take about 100 MiB, a few times longer already
/// gigabytes.
pub const MAX_SYM_ARG_LEN: u64 = 4096;

/// The most bytes all symbolic arguments may have together (each with its
/// NUL): a model of every argument travels with each query about one, so
/// the solver's memory grows with the square of the total, in transients
/// inside single queries that no limit samples: this total keeps the peak
/// to a few hundred MiB.
pub const MAX_SYM_ARG_BYTES: u64 = 65_536;

/// The most bytes a symbolic file or stdin may have: the POSIX model's limit
/// for files (a host file above 16 MiB fails to open with EFBIG), and already
/// about 5 GiB of engine memory at ~320 bytes per symbolic byte.
pub const MAX_SYM_FILE_LEN: u64 = 16 * 1024 * 1024;

/// The most arguments `--sym-args` makes (the model's array), and the most
/// symbolic files (`A` to `Z`).
pub const MAX_SYM_ARGS: u64 = 100;
pub const MAX_SYM_FILES: u64 = 26;

/// Bytes of the model's symbolic `struct stat` of each symbolic file (x86-64).
const STAT_BYTES: u64 = 144;

const MIB: u64 = 1024 * 1024;

/// Checks the environment options among the program arguments (KLEE's names,
/// one or two leading dashes), so that a mistake is a usage error before the
/// run: counts and lengths up to the bounds above, and symbolic bytes that fit
/// in half of `--max-memory` (`max_memory_mib`) at `byte_cost` bytes of engine
/// memory each (the engine's measured figure, `SYMBOLIC_BYTE_COST`): the
/// other half is what exploring needs (a state that writes an input object
/// copies it, suspended states are encoded in memory first); past it the cap
/// cannot be held within 10%. An environment that cannot fit is refused
/// before anything is built, naming the option and its size.
pub fn check_env_options(
    args: &[String],
    max_memory_mib: u64,
    byte_cost: u64,
) -> Result<(), String> {
    let mut m = EnvMemory {
        cap_bytes: max_memory_mib.saturating_mul(MIB) / 2,
        max_memory_mib,
        byte_cost,
        total: 0,
        shown: Vec::new(),
        arg_bytes: 0,
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let name = a.strip_prefix("--").or_else(|| a.strip_prefix('-'));
        match name {
            Some("sym-arg") => {
                let n = num("--sym-arg", args.get(i + 1))?;
                m.fits(format!("--sym-arg {n}"), n.saturating_add(1))?;
                arg_len("--sym-arg", n)?;
                m.args_total(format!("--sym-arg {n}"), n + 1)?;
                i += 2;
            }
            Some("sym-args") => {
                let lo = num("--sym-args MIN MAX N", args.get(i + 1))?;
                let hi = num("--sym-args MIN MAX N", args.get(i + 2))?;
                let n = num("--sym-args MIN MAX N", args.get(i + 3))?;
                if lo > hi {
                    return Err(format!("--sym-args: MIN ({lo}) is larger than MAX ({hi})"));
                }
                if hi > MAX_SYM_ARGS {
                    return Err(format!("--sym-args: at most {MAX_SYM_ARGS} arguments"));
                }
                m.fits(
                    format!("--sym-args {lo} {hi} {n}"),
                    hi.saturating_mul(n.saturating_add(1)).saturating_add(4),
                )?;
                arg_len("--sym-args", n)?;
                m.args_total(format!("--sym-args {lo} {hi} {n}"), hi * (n + 1))?;
                i += 4;
            }
            Some("sym-files") => {
                let k = num("--sym-files NUM N", args.get(i + 1))?;
                let size = num("--sym-files NUM N", args.get(i + 2))?;
                if k > MAX_SYM_FILES {
                    return Err(format!(
                        "--sym-files: at most {MAX_SYM_FILES} files (A to Z)"
                    ));
                }
                if size == 0 {
                    return Err("--sym-files: files need at least 1 byte".into());
                }
                m.fits(
                    format!("--sym-files {k} {size}"),
                    k.saturating_mul(size.saturating_add(STAT_BYTES)),
                )?;
                file_len("--sym-files", size, byte_cost)?;
                i += 3;
            }
            Some("sym-stdin") => {
                let n = num("--sym-stdin", args.get(i + 1))?;
                if n == 0 {
                    return Err("--sym-stdin: stdin needs at least 1 byte".into());
                }
                m.fits(format!("--sym-stdin {n}"), n.saturating_add(STAT_BYTES))?;
                file_len("--sym-stdin", n, byte_cost)?;
                i += 2;
            }
            Some("max-fail") => {
                let n = num("--max-fail", args.get(i + 1))?;
                if n > 100_000_000 {
                    return Err(format!(
                        "--max-fail: {n} is larger than 100000000, the most the POSIX model reads"
                    ));
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    Ok(())
}

/// A number option's value (all digits; too many of them is simply too
/// large), or why it is not one.
fn num(opt: &str, v: Option<&String>) -> Result<u64, String> {
    let v = v.ok_or_else(|| format!("{opt} expects a number"))?;
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{opt}: `{v}` is not a number"));
    }
    Ok(v.parse::<u64>().unwrap_or(u64::MAX))
}

/// Refuses a symbolic argument of `n` bytes past [`MAX_SYM_ARG_LEN`].
fn arg_len(opt: &str, n: u64) -> Result<(), String> {
    if n > MAX_SYM_ARG_LEN {
        return Err(format!(
            "{opt}: an argument of {n} bytes is longer than {MAX_SYM_ARG_LEN} (PATH_MAX): \
             the engine's cost of a symbolic argument grows with the square of its length"
        ));
    }
    Ok(())
}

/// Refuses a symbolic file of `n` bytes past [`MAX_SYM_FILE_LEN`] (at
/// `byte_cost` bytes of engine memory each).
fn file_len(opt: &str, n: u64, byte_cost: u64) -> Result<(), String> {
    if n > MAX_SYM_FILE_LEN {
        return Err(format!(
            "{opt}: {n} bytes is larger than {MAX_SYM_FILE_LEN} (16 MiB), the largest file \
             the POSIX model reads (and about {} GiB of engine memory)",
            MAX_SYM_FILE_LEN.saturating_mul(byte_cost) >> 30
        ));
    }
    Ok(())
}

/// The symbolic bytes of the environment options checked so far, against
/// half of `--max-memory`.
struct EnvMemory {
    /// Half of `--max-memory`, in bytes.
    cap_bytes: u64,
    max_memory_mib: u64,
    /// Bytes of engine memory per symbolic byte.
    byte_cost: u64,
    /// Symbolic bytes of the options so far.
    total: u64,
    /// Those options.
    shown: Vec<String>,
    /// Bytes of the symbolic arguments so far (each with its NUL).
    arg_bytes: u64,
}

impl EnvMemory {
    /// Adds option `what` of `bytes` symbolic bytes, refused when it, or
    /// the options so far with it, need more than the cap.
    fn fits(&mut self, what: String, bytes: u64) -> Result<(), String> {
        let (byte_cost, max_memory_mib) = (self.byte_cost, self.max_memory_mib);
        let need = bytes.saturating_mul(byte_cost);
        if need > self.cap_bytes {
            return Err(format!(
                "{what} needs about {} MiB of engine memory for its {bytes} symbolic bytes \
                 (about {byte_cost} bytes each), more than half of --max-memory {max_memory_mib} MiB",
                need.div_ceil(MIB)
            ));
        }
        self.total = self.total.saturating_add(bytes);
        self.shown.push(what);
        let total = self.total;
        let need = total.saturating_mul(byte_cost);
        if need > self.cap_bytes {
            return Err(format!(
                "the symbolic environment ({}) needs about {} MiB of engine memory for its \
                 {total} symbolic bytes (about {byte_cost} bytes each), more than half of \
                 --max-memory {max_memory_mib} MiB",
                self.shown.join(", "),
                need.div_ceil(MIB)
            ));
        }
        Ok(())
    }

    /// Adds `bytes` of symbolic arguments (option `what`), refused past
    /// [`MAX_SYM_ARG_BYTES`] in all.
    fn args_total(&mut self, what: String, bytes: u64) -> Result<(), String> {
        self.arg_bytes = self.arg_bytes.saturating_add(bytes);
        let arg_bytes = self.arg_bytes;
        if arg_bytes > MAX_SYM_ARG_BYTES {
            return Err(format!(
                "{what}: the symbolic arguments add up to {arg_bytes} bytes (each with its NUL), \
                 more than {MAX_SYM_ARG_BYTES}: the solver's memory grows with the square of \
                 their total"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(args: &str, cap: u64) -> Result<(), String> {
        let v: Vec<String> = args.split_whitespace().map(String::from).collect();
        check_env_options(&v, cap, 320)
    }

    #[test]
    fn symbolic_bytes_that_cannot_fit_the_cap_are_refused_naming_the_option() {
        let e = check("--sym-stdin 100000000", 1000).unwrap_err();
        assert!(
            e.starts_with("--sym-stdin 100000000 needs about 30518 MiB")
                && e.ends_with("more than half of --max-memory 1000 MiB"),
            "{e}"
        );
        let e = check("--sym-files 2 8000000", 1000).unwrap_err();
        assert!(e.starts_with("--sym-files 2 8000000 needs about"), "{e}");
        let e = check("--sym-args 0 100 100000", 1000).unwrap_err();
        assert!(e.starts_with("--sym-args 0 100 100000 needs about"), "{e}");
        // Each fits alone, not together.
        let e = check("--sym-stdin 1000000 --sym-files 1 1000000", 1000).unwrap_err();
        assert!(
            e.starts_with("the symbolic environment (--sym-stdin 1000000, --sym-files 1 1000000)"),
            "{e}"
        );
        check("--sym-stdin 1000000", 1000).unwrap();
        assert!(check("--sym-stdin 1700000", 1000).is_err());
        check("--sym-stdin 1600000", 1000).unwrap();
        check(
            "--sym-args 0 2 4 --sym-files 1 8 --sym-stdin 8 --max-fail 1",
            1,
        )
        .unwrap();
    }

    #[test]
    fn lengths_past_the_bounds_are_refused_whatever_the_cap() {
        let big = 16 * 1024 * 1024;
        let e = check("--sym-arg 4097", big).unwrap_err();
        assert!(e.contains("longer than 4096 (PATH_MAX)"), "{e}");
        check("--sym-arg 4096", big).unwrap();
        check("--sym-args 0 16 4095", big).unwrap();
        let e = check("--sym-args 0 16 4095 --sym-arg 1", big).unwrap_err();
        assert!(
            e.starts_with("--sym-arg 1: the symbolic arguments add up to 65538 bytes"),
            "{e}"
        );
        assert!(check("--sym-args 0 100 4096", big).is_err());
        let e = check("--sym-stdin 16777217", big).unwrap_err();
        assert!(e.contains("larger than 16777216 (16 MiB)"), "{e}");
        check("--sym-stdin 16777216", big).unwrap();
        let e = check("--sym-files 1 99999999999999999999999", big).unwrap_err();
        assert!(e.contains("needs about") || e.contains("16 MiB"), "{e}");
        assert!(check("--sym-args 0 101 1", big).is_err());
        assert!(check("--sym-files 27 1", big).is_err());
        assert!(check("--sym-stdin 1e9", big)
            .unwrap_err()
            .contains("is not a number"));
        assert!(check("--sym-stdin -5", big)
            .unwrap_err()
            .contains("is not a number"));
    }
}
