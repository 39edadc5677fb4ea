//! Temporary directories of this process: `$TMPDIR/symtest-<what>-<pid>-<n>`,
//! removed when dropped (normal return, error, panic). A process killed
//! before it could clean up (SIGKILL, a watchdog) leaves its directories
//! behind; [`sweep`] removes those of processes that no longer exist.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The kinds of directories this binary creates (the `<what>` above).
pub const KINDS: &[&str] = &["replay", "link", "native", "validate"];

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A directory removed (with its contents) on drop, unless [`TempDir::keep`].
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
    keep: bool,
}

impl TempDir {
    /// Creates a fresh `symtest-<what>-<pid>-<n>` in the system's temporary directory.
    pub fn new(what: &str) -> io::Result<TempDir> {
        debug_assert!(KINDS.contains(&what), "{what} is not listed in KINDS");
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path =
                std::env::temp_dir().join(format!("symtest-{what}-{}-{n}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(TempDir { path, keep: false }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!("cannot create {}: {e}", path.display()),
                    ))
                }
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Leaves the directory in place (its path is returned).
    pub fn keep(mut self) -> PathBuf {
        self.keep = true;
        self.path.clone()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// Directories younger than this are left alone even when their process is
/// gone (a process of another PID namespace sharing the directory may own them).
const SWEEP_MIN_AGE: Duration = Duration::from_secs(600);

/// Removes `symtest-<kind>-<pid>-<n>` directories in `dir` whose process no
/// longer exists and that were not modified for ten minutes. Best effort:
/// errors are ignored. Returns how many were removed.
pub fn sweep_in(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = owner_pid(&name.to_string_lossy()) else {
            continue;
        };
        if pid == std::process::id() || process_exists(pid) {
            continue;
        }
        let old = e
            .metadata()
            .ok()
            .filter(|m| m.is_dir())
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= SWEEP_MIN_AGE);
        if old && std::fs::remove_dir_all(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// [`sweep_in`] the system's temporary directory.
pub fn sweep() -> usize {
    sweep_in(&std::env::temp_dir())
}

/// The pid in `symtest-<kind>-<pid>-<n>`.
fn owner_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("symtest-")?;
    let (kind, rest) = rest.split_once('-')?;
    if !KINDS.contains(&kind) {
        return None;
    }
    let (pid, n) = rest.split_once('-')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok().filter(|&p| p > 0)
}

fn process_exists(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: kill(2) with signal 0 sends nothing; it only checks the pid.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(owner_pid("symtest-replay-123-0"), Some(123));
        assert_eq!(owner_pid("symtest-link-7-12"), Some(7));
        assert_eq!(owner_pid("symtest-replay-123"), None);
        assert_eq!(owner_pid("symtest-other-123-0"), None);
        assert_eq!(owner_pid("symtest-replay-x-0"), None);
        assert_eq!(owner_pid("symtest-replay-0-0"), None);
    }

    #[test]
    fn dropped_directories_disappear_and_dead_owners_are_swept() {
        let d = TempDir::new("replay").unwrap();
        let p = d.path().to_path_buf();
        std::fs::write(p.join("f"), "x").unwrap();
        drop(d);
        assert!(!p.exists());

        let base = std::env::temp_dir().join(format!("symtest-sweep-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        // A pid that cannot exist (above the kernel's maximum), one that does (ours
        // is skipped by rule, 1 is init), an unrelated name.
        let dead = base.join("symtest-replay-2147483646-0");
        let alive = base.join("symtest-replay-1-0");
        let other = base.join("symtest-replay-2147483646");
        let fresh = base.join("symtest-link-2147483646-1");
        for d in [&dead, &alive, &other, &fresh] {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join("f"), "x").unwrap();
        }
        // Old enough: set the modification time an hour back.
        for d in [&dead, &alive, &other] {
            let c = std::ffi::CString::new(d.as_os_str().as_encoded_bytes()).unwrap();
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs() as libc::time_t;
            let t = libc::timespec {
                tv_sec: now - 3600,
                tv_nsec: 0,
            };
            // SAFETY: a valid NUL-terminated path and two timespecs.
            let r = unsafe { libc::utimensat(libc::AT_FDCWD, c.as_ptr(), [t, t].as_ptr(), 0) };
            assert_eq!(r, 0);
        }
        assert_eq!(sweep_in(&base), 1);
        assert!(!dead.exists());
        assert!(alive.exists() && other.exists() && fresh.exists());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
