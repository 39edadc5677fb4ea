//! The project lock: one pipeline run at a time per output directory and per
//! build directory, as Cargo locks its build directory ("Blocking waiting for
//! file lock").
//!
//! A run takes an advisory `flock` on `.symtest.lock` in each directory it
//! writes that another run may share: the results (`symtest-out/`, or
//! `--out-dir`) and the builds (`<target-dir>/symtest`, or
//! `symtest-out/.build`). A second run waits, after one
//! [`Event::WaitingForLock`], or with `--no-wait` fails at once (exit 2). The
//! kernel releases a `flock` when its process dies, however it dies: a lock
//! file left behind by a killed run is only a file, taken over by the next
//! run. The file holds the holder's process id, for the message only.

use crate::progress::Event;
use crate::Error;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// The lock file's name in each locked directory.
pub const LOCK_FILE: &str = ".symtest.lock";

/// Locks held for a run; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct ProjectLock {
    _files: Vec<File>,
}

/// `flock` on `f`; Ok(false) when another process holds it (non-blocking).
fn flock(f: &File, blocking: bool) -> std::io::Result<bool> {
    let op = libc::LOCK_EX | if blocking { 0 } else { libc::LOCK_NB };
    loop {
        // SAFETY: flock on a descriptor this process owns.
        if unsafe { libc::flock(f.as_raw_fd(), op) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) if !blocking => return Ok(false),
            _ => return Err(e),
        }
    }
}

/// The process id the holder wrote, if the file holds one.
fn holder(f: &mut File) -> Option<u32> {
    let mut s = String::new();
    f.seek(SeekFrom::Start(0)).ok()?;
    f.take(32).read_to_string(&mut s).ok()?;
    s.trim().parse().ok()
}

fn lock_one(dir: &Path, wait: bool, on_event: &mut dyn FnMut(Event)) -> Result<File, Error> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::Other(anyhow::anyhow!("creating {}: {e}", dir.display())))?;
    let path = dir.join(LOCK_FILE);
    let open = |p: &Path| {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(p)
    };
    let mut f = open(&path).map_err(|e| {
        Error::BadInput(format!(
            "cannot open the lock file {}: {e} (remove it if it is not a regular file)",
            path.display()
        ))
    })?;
    let unsupported = |e: std::io::Error| {
        Error::Other(anyhow::anyhow!(
            "cannot lock {}: {e} (the file system does not support flock)",
            path.display()
        ))
    };
    if !flock(&f, false).map_err(unsupported)? {
        let pid = holder(&mut f);
        let by = pid.map_or_else(
            || "another cargo symtest".to_string(),
            |p| format!("another cargo symtest (process {p})"),
        );
        if !wait {
            return Err(Error::BadInput(format!(
                "{} is in use by {by}; not waiting (--no-wait)",
                dir.display()
            )));
        }
        on_event(Event::WaitingForLock {
            dir: dir.to_path_buf(),
            holder: pid,
        });
        flock(&f, true).map_err(unsupported)?;
    }
    // Ours now: the file names us for whoever waits next.
    let _ = f.set_len(0);
    let _ = f.seek(SeekFrom::Start(0));
    let _ = writeln!(f, "{}", std::process::id());
    Ok(f)
}

/// Locks `dirs` in order (a directory named twice is locked once), waiting
/// for another run unless `wait` is false. Each directory has its own lock,
/// nested ones too (`symtest-out/.build` inside `symtest-out/`): a command
/// that writes only the build directory (`init --from-build`) locks that one.
pub fn lock_dirs(
    dirs: &[PathBuf],
    wait: bool,
    on_event: &mut dyn FnMut(Event),
) -> Result<ProjectLock, Error> {
    let mut files = Vec::new();
    let mut done: Vec<&PathBuf> = Vec::new();
    for d in dirs {
        if done.contains(&d) {
            continue;
        }
        files.push(lock_one(d, wait, on_event)?);
        done.push(d);
    }
    Ok(ProjectLock { _files: files })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("symtest-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_second_lock_fails_without_waiting_and_is_taken_once_released() {
        let d = scratch("second");
        let mut events = Vec::new();
        let first = lock_dirs(std::slice::from_ref(&d), false, &mut |e| events.push(e)).unwrap();
        // flock locks belong to open file descriptions: a second open in the
        // same process conflicts as another process would.
        let e = lock_dirs(std::slice::from_ref(&d), false, &mut |e| events.push(e)).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("is in use by another cargo symtest (process "),
            "{msg}"
        );
        assert!(msg.contains("--no-wait"), "{msg}");
        drop(first);
        lock_dirs(std::slice::from_ref(&d), false, &mut |e| events.push(e)).unwrap();
        assert!(events.is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_waiting_lock_says_so_once_and_gets_it() {
        let d = scratch("wait");
        let first = lock_dirs(std::slice::from_ref(&d), false, &mut |_| {}).unwrap();
        let d2 = d.clone();
        let t = std::thread::spawn(move || {
            let mut events = Vec::new();
            let l = lock_dirs(&[d2], true, &mut |e| events.push(e)).map(|_| ());
            (l.is_ok(), events.len())
        });
        std::thread::sleep(std::time::Duration::from_millis(300));
        drop(first);
        assert_eq!(t.join().unwrap(), (true, 1));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_lock_file_left_behind_does_not_block() {
        let d = scratch("stale");
        std::fs::write(d.join(LOCK_FILE), "4194304\n").unwrap();
        lock_dirs(std::slice::from_ref(&d), false, &mut |_| {}).unwrap();
        let pid = std::fs::read_to_string(d.join(LOCK_FILE)).unwrap();
        assert_eq!(pid.trim(), std::process::id().to_string());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn each_directory_has_its_own_lock() {
        let d = scratch("nested");
        let inner = d.join(".build");
        let both = lock_dirs(&[d.clone(), inner.clone(), d.clone()], false, &mut |_| {}).unwrap();
        assert!(inner.join(LOCK_FILE).exists());
        // The build directory alone is taken too.
        assert!(lock_dirs(std::slice::from_ref(&inner), false, &mut |_| {}).is_err());
        drop(both);
        lock_dirs(std::slice::from_ref(&inner), false, &mut |_| {}).unwrap();
        let _ = std::fs::remove_dir_all(&d);
    }
}
