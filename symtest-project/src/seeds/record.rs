//! Recording the runs of programs under the project's own test command
//! (`seed-tests`): each target's executable (`binary`) is moved aside and
//! replaced by a small recorder (`wrapper.c`, compiled with the toolchain's
//! clang) that writes what each run gets (argv, stdin, the files its
//! arguments name, the working directory, the environment) and execs the
//! real program with the same argv and stdin, so the tests behave as
//! before. Runs from shell scripts, test drivers and pipelines are all
//! recorded: the recorder is the program file itself. The programs are put
//! back afterwards in every case: errors and panics drop the [`Swap`];
//! SIGINT, SIGTERM and SIGHUP are held until the programs are back (the test
//! command, in its own process group, is stopped first), then take their
//! usual effect; a recorder left by a run killed outright is recognised by
//! its marker and the program put back by the next run.

use super::layout::{FileArg, Run};
use crate::discovery::{Artifact, Target};
use crate::interrupt;
use crate::Error;
use anyhow::Context;
use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The recorder's source (`SYMTEST_REAL`, `SYMTEST_RECORDS` and
/// `SYMTEST_MAX` are defined before it).
const WRAPPER_C: &str = include_str!("wrapper.c");
/// Bytes every recorder holds (`symtest_seed_wrapper_marker` in wrapper.c).
const MARKER: &[u8] = b"symtest-seed-wrapper-v1";

/// What the recorder wrote of one run.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub run: Run,
    /// The command line as the tests ran it, for reports.
    pub shown: String,
    /// The environment variables the run had that the test command did not
    /// (or had with another value).
    pub environment: BTreeSet<String>,
    /// The tests ran the program under valgrind (its preload library is in
    /// the run's `LD_PRELOAD`): valgrind ran the recorder, and the program
    /// the recorder then executes runs without it.
    pub under_valgrind: bool,
}

/// The runs of each target's program under one test command.
pub struct Recording {
    /// How the test command ended, when not with status 0.
    pub failed: Option<String>,
    /// Its output.
    pub log: PathBuf,
    /// Per target name: every run, or why its record is unusable.
    pub runs: HashMap<String, Vec<Result<Recorded, String>>>,
    /// The C sources and headers the test command changed or removed, put
    /// back as the build left them (or why one could not be).
    pub put_back: Vec<(PathBuf, Option<String>)>,
}

/// Where a target's recording works: `<build>/<target>/seed-record/`.
pub fn work_dir(build_root: &Path, t: &Target) -> PathBuf {
    build_root.join(&t.name).join("seed-record")
}

/// The executable a target from a build names.
fn binary_of(t: &Target) -> Option<&Path> {
    match &t.build.as_ref()?.artifact {
        Artifact::Binary(p) => Some(p),
        Artifact::Library(_) => None,
    }
}

/// Runs `command` from `root` with each of `targets`' programs wrapped;
/// `place` is where the config names the command (for errors).
pub fn record(
    root: &Path,
    command: &[String],
    place: &str,
    targets: &[&Target],
    build_root: &Path,
    max_bytes: impl Fn(&Target) -> usize,
) -> Result<Recording, Error> {
    let mut swaps = Vec::new();
    for t in targets {
        let binary = binary_of(t).ok_or_else(|| {
            Error::BadInput(format!(
                "{place}: target `{}` has no `binary` whose runs could be recorded",
                t.name
            ))
        })?;
        let work = work_dir(build_root, t);
        let saved = work
            .join("real")
            .join(binary.file_name().unwrap_or_default());
        put_back_interrupted(binary, &saved).map_err(Error::BadInput)?;
        if !binary.is_file() {
            return Err(Error::BadInput(format!(
                "{place}: the program `{}` of target `{}` does not exist after the build",
                binary.display(),
                t.name
            )));
        }
        let runs = work.join("runs");
        let _ = std::fs::remove_dir_all(&runs);
        std::fs::create_dir_all(&runs).with_context(|| format!("creating {}", runs.display()))?;
        let wrapper = build_wrapper(&work, &saved, &runs, max_bytes(t))?;
        swaps.push((
            t.name.clone(),
            runs,
            Swap::install(binary, &saved, &wrapper)?,
        ));
    }
    let log = targets
        .first()
        .map(|t| work_dir(build_root, t).join("tests.log"))
        .unwrap_or_else(|| build_root.join("seed-tests.log"));
    let sources = super::preserve::take(root, &[build_root]);
    let guard = interrupt::Guard::install();
    let ended = run_command(root, command, &log, &guard);
    let put_back = sources.restore();
    let mut runs = HashMap::new();
    let mut restore_errors = Vec::new();
    for (name, dir, mut swap) in swaps {
        if let Err(e) = swap.restore() {
            restore_errors.push(e);
        }
        runs.insert(name, read_runs(&dir));
    }
    if let Some(sig) = guard.caught() {
        guard.reraise(sig);
    }
    drop(guard);
    if !restore_errors.is_empty() {
        return Err(Error::Other(anyhow::anyhow!(
            "{}",
            restore_errors.join("\n")
        )));
    }
    let failed = ended.map_err(|e| Error::BadInput(format!("{place}: {e}")))?;
    Ok(Recording {
        failed,
        log,
        runs,
        put_back,
    })
}

/// A C string literal of `bytes` (octal escapes but for plain characters).
fn c_string(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"/._-+".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\{b:03o}"));
        }
    }
    s.push('"');
    s
}

/// Compiles the recorder of one program into `work/wrapper`.
fn build_wrapper(work: &Path, real: &Path, runs: &Path, max: usize) -> Result<PathBuf, Error> {
    let src = work.join("wrapper.c");
    let exe = work.join("wrapper");
    let text = format!(
        "#define SYMTEST_REAL {}\n#define SYMTEST_RECORDS {}\n#define SYMTEST_MAX {max}\n{WRAPPER_C}",
        c_string(real.as_os_str().as_bytes()),
        c_string(runs.as_os_str().as_bytes()),
    );
    std::fs::write(&src, text).with_context(|| format!("writing {}", src.display()))?;
    let out = Command::new(crate::toolchain::clang())
        .args(["-O1", "-w", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .with_context(|| format!("running {:?}", crate::toolchain::clang()))?;
    if !out.status.success() {
        return Err(Error::Other(anyhow::anyhow!(
            "compiling the seed recorder {} failed:\n{}",
            src.display(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        )));
    }
    Ok(exe)
}

/// Whether the file at `p` is a recorder.
fn is_recorder(p: &Path) -> bool {
    std::fs::read(p).is_ok_and(|b| b.windows(MARKER.len()).any(|w| w == MARKER))
}

/// A recorder left at `binary` by a run killed outright: the program put
/// back from `saved`. Err: the recorder is there and the program is gone.
fn put_back_interrupted(binary: &Path, saved: &Path) -> Result<(), String> {
    if !is_recorder(binary) {
        return Ok(());
    }
    if !saved.is_file() {
        return Err(format!(
            "{} is symtest's seed recorder, left by an interrupted run, and the program is gone: rebuild it",
            binary.display()
        ));
    }
    move_file(saved, binary).map_err(|e| {
        format!(
            "putting {} back from {}: {e}",
            binary.display(),
            saved.display()
        )
    })
}

/// Renames `from` to `to`, or copies it across file systems.
fn move_file(from: &Path, to: &Path) -> std::io::Result<()> {
    match std::fs::rename(from, to) {
        Err(e) if e.raw_os_error() == Some(libc::EXDEV) => {
            std::fs::copy(from, to)?;
            std::fs::remove_file(from)
        }
        r => r,
    }
}

/// A program moved aside and its recorder in its place, until [`Swap::restore`]
/// (or drop) puts it back.
struct Swap {
    binary: PathBuf,
    saved: PathBuf,
    done: bool,
}

impl Swap {
    fn install(binary: &Path, saved: &Path, wrapper: &Path) -> Result<Swap, Error> {
        let parent = saved.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
        move_file(binary, saved)
            .with_context(|| format!("moving {} to {}", binary.display(), saved.display()))?;
        let mut swap = Swap {
            binary: binary.to_path_buf(),
            saved: saved.to_path_buf(),
            done: false,
        };
        if let Err(e) = std::fs::copy(wrapper, binary) {
            let _ = swap.restore();
            return Err(Error::Other(anyhow::anyhow!(
                "putting the seed recorder at {}: {e}",
                binary.display()
            )));
        }
        Ok(swap)
    }

    /// The program back in its place. When the tests rebuilt it (the file
    /// there is no longer the recorder), the new one stays.
    fn restore(&mut self) -> Result<(), String> {
        if self.done {
            return Ok(());
        }
        self.done = true;
        if self.binary.exists() && !is_recorder(&self.binary) {
            let _ = std::fs::remove_file(&self.saved);
            return Ok(());
        }
        let _ = std::fs::remove_file(&self.binary);
        move_file(&self.saved, &self.binary).map_err(|e| {
            format!(
                "putting the program {} back failed ({e}): it is at {}",
                self.binary.display(),
                self.saved.display()
            )
        })
    }
}

impl Drop for Swap {
    fn drop(&mut self) {
        let _ = self.restore();
    }
}

/// Runs the test command in its own process group, its output to `log`.
/// Ok(None): it exited with 0; Ok(Some(how)): it failed or was stopped;
/// Err: it could not start.
fn run_command(
    root: &Path,
    command: &[String],
    log: &Path,
    guard: &interrupt::Guard,
) -> Result<Option<String>, String> {
    use std::os::unix::process::CommandExt;
    let out = std::fs::File::create(log).map_err(|e| format!("creating {}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run the test command `{}`: {e}", command.join(" ")))?;
    let pgid = child.id() as libc::pid_t;
    let mut stopping: Option<std::time::Instant> = None;
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(None),
            Ok(Some(status)) => return Ok(Some(format!("{status}"))),
            Ok(None) => {}
            Err(e) => return Ok(Some(format!("waiting for it failed: {e}"))),
        }
        if guard.caught().is_some() {
            // SAFETY: signalling the test command's own process group.
            match stopping {
                None => {
                    unsafe { libc::killpg(pgid, libc::SIGTERM) };
                    stopping = Some(std::time::Instant::now());
                }
                Some(at) if at.elapsed() > Duration::from_secs(2) => {
                    unsafe { libc::killpg(pgid, libc::SIGKILL) };
                }
                Some(_) => {}
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The runs recorded in `dir`, in the order of their names (a record not
/// completed is an error entry).
fn read_runs(dir: &Path) -> Vec<Result<Recorded, String>> {
    let base: HashMap<OsString, OsString> = std::env::vars_os().collect();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    names.sort();
    names
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            if name.starts_with(".tmp-") {
                Err("its record is incomplete (the recorder could not write it, or the run was stopped while it did)".to_string())
            } else {
                read_run(p, &base)
            }
        })
        .collect()
}

fn split_nul(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = bytes.split(|&b| b == 0).map(<[u8]>::to_vec).collect();
    if bytes.last() == Some(&0) || bytes.is_empty() {
        v.pop();
    }
    v
}

/// One run's record.
fn read_run(dir: &Path, base: &HashMap<OsString, OsString>) -> Result<Recorded, String> {
    let read = |name: &str| std::fs::read(dir.join(name));
    let argv = split_nul(&read("argv").map_err(|e| format!("its record has no argv: {e}"))?);
    if argv.is_empty() {
        return Err("it was run with no argv[0]".into());
    }
    let args = argv[1..].to_vec();
    let shown = shown_command(&argv);
    let mut files = Vec::new();
    let manifest = read("files").unwrap_or_default();
    for line in String::from_utf8_lossy(&manifest).lines() {
        let mut w = line.splitn(4, ' ');
        let (Some(k), Some(offset), Some(status)) = (w.next(), w.next(), w.next()) else {
            continue;
        };
        let (Ok(k), Ok(offset)) = (k.parse::<usize>(), offset.parse::<usize>()) else {
            continue;
        };
        let word = args
            .get(k.wrapping_sub(1))
            .map(|a| String::from_utf8_lossy(a));
        if status != "ok" {
            return Err(format!(
                "`{}` (argument {k} of `{shown}`) names a file that could not be read: {}",
                word.unwrap_or_default(),
                w.next().unwrap_or("")
            ));
        }
        let contents = read(&format!("arg-{k}"))
            .map_err(|e| format!("the recorded contents of argument {k} of `{shown}`: {e}"))?;
        files.push(FileArg {
            index: k - 1,
            offset,
            contents,
        });
    }
    let environ = split_nul(&read("environ").unwrap_or_default());
    let under_valgrind = environ.iter().any(|e| under_valgrind(e));
    let environment = environ
        .into_iter()
        .filter_map(|e| {
            let at = e.iter().position(|&b| b == b'=')?;
            let (name, value) = (OsString::from_vec(e[..at].to_vec()), &e[at + 1..]);
            let same = base.get(&name).is_some_and(|v| v.as_bytes() == value);
            (!same).then(|| name.to_string_lossy().into_owned())
        })
        .collect();
    let stdin = read("stdin").ok();
    let shown = match &stdin {
        Some(s) if !s.is_empty() => format!("{shown} (with stdin)"),
        _ => shown,
    };
    Ok(Recorded {
        run: Run {
            args,
            symbolic_args: true,
            files,
            stdin,
        },
        shown,
        environment,
        under_valgrind,
    })
}

/// Whether an environment entry is valgrind's `LD_PRELOAD`: it preloads
/// its `vgpreload_*.so` libraries into the program it runs.
fn under_valgrind(entry: &[u8]) -> bool {
    let Some(value) = entry.strip_prefix(b"LD_PRELOAD=") else {
        return false;
    };
    value.split(|&b| b == b':' || b == b' ').any(|lib| {
        lib.rsplit(|&b| b == b'/')
            .next()
            .is_some_and(|n| n.starts_with(b"vgpreload_"))
    })
}

/// A command line as a shell would take it back.
pub fn shown_command(argv: &[Vec<u8>]) -> String {
    argv.iter()
        .map(|w| {
            let s = String::from_utf8_lossy(w);
            let plain = !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b));
            if plain {
                s.into_owned()
            } else {
                format!("'{}'", s.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_strings_and_shown_commands() {
        assert_eq!(c_string(b"/a b/\"x\""), "\"/a\\040b/\\042x\\042\"");
        let argv: Vec<Vec<u8>> = vec![
            b"./prog".to_vec(),
            b"-n".to_vec(),
            b"a b".to_vec(),
            b"it's".to_vec(),
        ];
        assert_eq!(shown_command(&argv), r"./prog -n 'a b' 'it'\''s'");
        assert_eq!(split_nul(b"a\0b\0"), [b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(split_nul(b"a\0\0"), [b"a".to_vec(), Vec::new()]);
        assert!(split_nul(b"").is_empty());
    }

    #[test]
    fn valgrind_s_preload_is_recognised() {
        let vg = b"LD_PRELOAD=/usr/libexec/valgrind/vgpreload_core-amd64-linux.so:/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so";
        assert!(under_valgrind(vg));
        assert!(under_valgrind(
            b"LD_PRELOAD=libx.so vgpreload_core-x86-linux.so"
        ));
        assert!(!under_valgrind(b"LD_PRELOAD=/usr/lib/libasan.so"));
        assert!(!under_valgrind(b"LD_PRELOADED=vgpreload_core.so"));
        assert!(!under_valgrind(b"PATH=/opt/vgpreload_x"));
    }
}
