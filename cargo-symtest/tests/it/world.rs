//! The POSIX model's world, natively: what the model has none of (other
//! processes and programs, a network, directory listings, the host's devices
//! and /proc's contents) fails or reads empty in the engine and in every
//! native run of a test alike (`libc-models/replay/symtest_world.c`'s world
//! filter, armed by the replay shim and by the emitted suite's runner), so
//! each path's outcome replays: busybox's `sh`, `ip`, `top`, `rdev` and `beep`
//! disagreed natively, running commands and reading the host's interfaces,
//! processes, devices and /proc where the engine saw a failure.

use crate::native_replay::native_build;
use crate::support::*;
use std::collections::BTreeSet;

/// Explores `tests/posix/<name>.c` with every path's test (`--emit-all`),
/// replays them all natively and requires every one to agree; returns
/// (stdin byte, exit code, stdout) of each test.
fn explore_and_replay(name: &str, args: &[&str]) -> Vec<(u8, i64, String)> {
    let dir = scratch(&format!("world-{name}"));
    let src = workspace().join(format!("tests/posix/{name}.c"));
    let bc = cc_bitcode(&src, &dir);
    let out = dir.join("out");
    posix_exec(&bc, &out, &["--emit-all"], args);
    let prog = native_build(&src, &dir, &[]);
    let (summary, runs) = replay_json(&prog, &out, 5, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["not_compared"], 0, "{runs:#?}");
    assert_eq!(
        summary["passed"].as_u64(),
        Some(runs.len() as u64),
        "{runs:#?}"
    );
    test_jsons(&out)
        .iter()
        .map(|t| {
            let stdin = t["objects"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == "stdin")
                .and_then(|o| o["hex"].as_str())
                .map_or(0, |h| u8::from_str_radix(&h[..2], 16).unwrap());
            let code = t["outcome"]["exit"]["code"].as_i64().unwrap_or(-1);
            (stdin, code, t["stdout"].as_str().unwrap_or("").to_string())
        })
        .collect()
}

fn path_of(paths: &[(u8, i64, String)], c: u8) -> (i64, String) {
    let p = paths
        .iter()
        .find(|p| p.0 == c)
        .unwrap_or_else(|| panic!("no path read {:?}: {paths:#?}", c as char));
    (p.1, p.2.clone())
}

/// A shell's command (fork, then execve) and env's (execve): the model runs
/// one process and no other program, and natively neither runs: fork fails
/// with ENOSYS (the shell's "can't fork", exit 2, where natively the child
/// ran), execve with ENOENT for a missing program (127) and EACCES for one
/// there is (126, where natively /bin/sh ran).
#[test]
fn a_command_runs_neither_in_the_engine_nor_natively() {
    let paths = explore_and_replay("spawn", &["--sym-files", "1", "1", "--sym-stdin", "1"]);
    assert_eq!(path_of(&paths, b's'), (2, "cannot fork: errno 38\n".into()));
    assert_eq!(
        path_of(&paths, b'S'),
        (126, "cannot run /bin/sh: errno 13\n".into())
    );
    assert_eq!(path_of(&paths, b'n').0, 127);
    assert_eq!(path_of(&paths, b'p').0, 127);
    assert_eq!(
        path_of(&paths, b'A'),
        (126, "cannot run A: errno 13\n".into())
    );
}

/// `ip`, `nc` and `tc` open a socket first: the model has no network, and
/// natively no socket opens either (EAFNOSUPPORT, as on a kernel without
/// networking), rather than the host's.
#[test]
fn no_socket_opens_in_the_engine_nor_natively() {
    let paths = explore_and_replay("sockets", &["--sym-stdin", "1"]);
    let codes: BTreeSet<i64> = paths.iter().map(|p| p.1).collect();
    assert_eq!(codes, [1].into_iter().collect(), "{paths:#?}");
    assert_eq!(path_of(&paths, b'n').1, "socket: errno 97\n");
    assert_eq!(path_of(&paths, b'u').1, "socket: errno 97\n");
}

/// `id root` and `su` (toybox): getgrouplist and initgroups of musl, the
/// engine's C library, ask nscd over a Unix socket first and read /etc/group
/// when the socket's address family is not supported; a socket failing with
/// ENOSYS failed them (`id`: "getgroups", exit 1; `su`: exit 1 where natively
/// it went on to exec the shell). The model's socket fails as a kernel
/// without networking does, so both C libraries read /etc/group.
#[test]
fn the_group_list_is_read_from_etc_group_in_the_engine_and_natively() {
    let paths = explore_and_replay("groups", &["--sym-stdin", "1"]);
    assert_eq!(path_of(&paths, b'g'), (0, "groups of root: found\n".into()));
    let codes: BTreeSet<i64> = paths.iter().map(|p| p.1).collect();
    assert_eq!(codes, [0].into_iter().collect(), "{paths:#?}");
}

/// The model's user is root, which may set its credentials as natively
/// (toybox's `su`: initgroups, setgid, setuid, then the shell; the calls
/// failed with ENOSYS in the model, exit 1 where natively it went on).
#[test]
fn root_sets_its_credentials_in_the_engine_as_natively() {
    let paths = explore_and_replay("credentials", &["--sym-stdin", "1"]);
    assert_eq!(
        path_of(&paths, b's'),
        (0, "uid 0 0 0, gid 0, groups from 0\n".into())
    );
    assert_eq!(path_of(&paths, b'g'), (0, "groups 1\n".into()));
}

/// "./A" and ".//A" name the file A of the working directory in the engine
/// as natively: linking A to "./A" (toybox's `ln A`) fails with EEXIST
/// (the model took "./A" for a new name: exit 0, natively 1), reading through
/// the prefix reads A, and a file created as ".//B" is B.
#[test]
fn dot_slash_names_the_working_directorys_file() {
    let paths = explore_and_replay("dot_slash", &["--sym-files", "1", "1", "--sym-stdin", "1"]);
    assert_eq!(path_of(&paths, b'l'), (1, "link A ./A: errno 17\n".into()));
    assert_eq!(path_of(&paths, b'r'), (0, "same file\n".into()));
    assert_eq!(
        path_of(&paths, b'c'),
        (0, "B: 120, ./B exclusive: exists\n".into())
    );
}

/// `top` lists /proc, `rdev` /dev: the engine reads no host directory, and
/// natively none is read either (getdents: ENOSYS), so /proc shows no
/// process in both.
#[test]
fn directories_list_nothing_in_the_engine_nor_natively() {
    let paths = explore_and_replay("listdir", &["--sym-stdin", "1"]);
    assert_eq!(
        path_of(&paths, b'p'),
        (0, "/proc: 0 entries, errno 38\n".into())
    );
    assert_eq!(
        path_of(&paths, b'd'),
        (0, "/dev: 0 entries, errno 38\n".into())
    );
    let codes: BTreeSet<i64> = paths.iter().map(|p| p.1).collect();
    assert_eq!(codes, [0].into_iter().collect(), "{paths:#?}");
}

/// The host's devices do not open (EACCES; /dev/null does, empty), a file of
/// /proc reads as empty and opens read-only, in the engine and natively
/// (`beep` opened the host's console natively; `top` read its /proc/stat).
#[test]
fn host_devices_and_proc_files_are_the_models_natively() {
    let paths = explore_and_replay("devices", &["--sym-stdin", "1"]);
    assert_eq!(path_of(&paths, b'z'), (1, "/dev/zero: errno 13\n".into()));
    assert_eq!(
        path_of(&paths, b'c'),
        (1, "/dev/console: errno 13\n".into())
    );
    assert_eq!(path_of(&paths, b'n'), (2, "/dev/null: read 0\n".into()));
    assert_eq!(path_of(&paths, b's'), (2, "/proc/stat: read 0\n".into()));
    assert_eq!(
        path_of(&paths, b'h'),
        (1, "/proc/sys/kernel/hostname: errno 13\n".into())
    );
}

/// The same programs as a project's targets (`cargo symtest`): the emitted
/// suite (clang, AddressSanitizer, glibc) runs every test in the model's
/// world too, so no kept test disagrees with its native run.
#[test]
fn a_projects_native_suite_runs_in_the_models_world() {
    use crate::project::{report, reports, run_in, text};
    let dir = scratch("project-world");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let mut toml = String::new();
    for (name, args) in [
        ("spawn", r#""--sym-files", "1", "1", "--sym-stdin", "1""#),
        ("sockets", r#""--sym-stdin", "1""#),
        ("listdir", r#""--sym-stdin", "1""#),
        ("devices", r#""--sym-stdin", "1""#),
    ] {
        std::fs::copy(
            workspace().join(format!("tests/posix/{name}.c")),
            dir.join(format!("src/{name}.c")),
        )
        .unwrap();
        toml.push_str(&format!(
            "[[target]]\nname = \"{name}\"\nkind = \"program\"\nsources = [\"src/{name}.c\"]\nargs = [{args}]\nmax-time = 10\n\n"
        ));
    }
    std::fs::write(dir.join("symtest.toml"), toml).unwrap();
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let rs = reports(&o);
    for name in ["spawn", "sockets", "listdir", "devices"] {
        let r = report(&rs, name);
        assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
        assert_eq!(r["claimed_not_executed"], 0, "{r:#}");
    }
}

/// A program that ignores SIGSYS, sets its own handler for it or blocks
/// every signal (pv ignores it), then opens and copies a file: every path
/// replays natively (the world filter keeps SIGSYS its own, reporting the
/// program's disposition back to it), and sendfile fails with ENOSYS in both
/// (the model has no copy made by the kernel), so the copy falls back to read.
#[test]
fn a_program_that_takes_sigsys_for_itself_still_runs_in_the_models_world() {
    let paths = explore_and_replay("sigsys", &["--sym-files", "1", "4", "--sym-stdin", "1"]);
    for c in [b'i', b'h', b'b', 0] {
        assert_eq!(
            path_of(&paths, c),
            (0, "sendfile: errno 38, read 4 byte(s)\n".into()),
            "{paths:#?}"
        );
    }
}

/// A path built from getcwd() (sqlite's "<cwd>/A") names the working
/// directory's file A, a new file beside it and the directory itself, in the
/// engine as natively (the model answered ENOENT: sqlite3 exited 1 on every
/// database file, natively 0).
#[test]
fn paths_from_the_working_directory_name_its_files() {
    let paths = explore_and_replay("cwd_paths", &["--sym-files", "1", "1", "--sym-stdin", "1"]);
    assert_eq!(path_of(&paths, b'r'), (0, "same file\n".into()));
    assert_eq!(
        path_of(&paths, b'd'),
        (0, "stat cwd: 0, directory: 1\n".into())
    );
    assert_eq!(path_of(&paths, b'w'), (0, "A: 120, A.new: -2\n".into()));
    assert_eq!(path_of(&paths, b'u'), (0, "unlink: 0, A: -2\n".into()));
}

/// A program that takes the timer and SIGALRM for itself and then waits
/// without end (`tests/posix/own_timer.c`, as pv's display updates do): the
/// emitted suite's runner ends that test past its timeout itself, so the
/// pipeline's runs and `make test` finish and pass (they waited for ever).
#[test]
fn a_program_owning_the_timer_is_stopped_by_the_suite_runner() {
    use crate::project::{run_in, text};
    let dir = posix_project(
        "project-own-timer",
        "own_timer",
        "own_timer",
        &["--sym-stdin", "1"],
        10,
    );
    let o = run_in(&dir, &["--message-format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let suite = dir.join("tests/symtest/own_timer");
    let started = std::time::Instant::now();
    let o = std::process::Command::new("timeout")
        .args(["120", "make", "test"])
        .current_dir(&suite)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains(" passed, 0 failed"),
        "{}",
        text(&o)
    );
    assert!(started.elapsed().as_secs() < 100, "{}", text(&o));
    let list = std::fs::read_to_string(suite.join("symtest_tests.c")).unwrap();
    assert!(
        list.contains("'w'") || list.contains("\"w\""),
        "no waiting test: {list}"
    );
}

/// Names relative to the working directory (`tests/posix/relative_paths.c`):
/// natively each test runs in a fresh directory holding only the model's
/// files, so the program's own name (argv[0], which unzipsfx opens as its
/// archive) and a file or directory beside the engine name nothing in the
/// engine either, and "." and ".." are directories (the engine read the
/// project's build of unzipsfx, exit 2, where natively there was none, exit 9).
#[test]
fn relative_names_are_only_the_working_directorys_files() {
    let dir = scratch("world-relative-paths");
    let src = workspace().join("tests/posix/relative_paths.c");
    let bc = cc_bitcode(&src, &dir);
    // Where the engine runs: the program under its own name, a file, a directory.
    let prog = native_build(&src, &dir, &[]);
    std::fs::write(dir.join("data"), "x").unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let out = dir.join("out");
    let o = symtest_in(
        &dir,
        &[
            "exec",
            bc.to_str().unwrap(),
            "--output-dir",
            out.to_str().unwrap(),
            "--libc=musl",
            "--posix-runtime",
        ],
    );
    assert!(o.status.success(), "{}", shown(&o));
    let (summary, runs) = replay_json(&prog, &out, 5, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["passed"], 1, "{runs:#?}");
    let t = &test_jsons(&out)[0];
    assert_eq!(t["outcome"]["exit"]["code"], 0, "{t}");
    let none = [
        "relative_paths",
        "open",
        "data",
        "./data",
        "sub",
        "sub/../data",
    ];
    let dirs = [".", "./", "..", "../..", "/"];
    let want: String = none
        .iter()
        .map(|p| format!("{p}: none\n"))
        .chain(dirs.iter().map(|p| format!("{p}: directory\n")))
        .collect();
    assert_eq!(t["stdout"].as_str(), Some(want.as_str()), "{t}");
}

/// The working directory's mode and times may be set
/// (`tests/posix/cwd_meta.c`): natively each test runs in a fresh directory
/// of its own, and the engine said EPERM (libtar's `tar_extract_file` of an
/// entry named "." went on natively to a NULL `strlen` the engine never saw).
#[test]
fn the_working_directory_is_the_tests_own() {
    let dir = scratch("world-cwd-meta");
    let src = workspace().join("tests/posix/cwd_meta.c");
    let bc = cc_bitcode(&src, &dir);
    let prog = native_build(&src, &dir, &[]);
    let out = dir.join("out");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--libc=musl",
        "--posix-runtime",
    ]);
    assert!(o.status.success(), "{}", shown(&o));
    let t = &test_jsons(&out)[0];
    assert_eq!(
        t["stdout"].as_str(),
        Some("chmod .: 0\nchmod ./: 0\nutimensat .: 0\nchmod missing: -1\n"),
        "{t}"
    );
    let (summary, runs) = replay_json(&prog, &out, 5, &[]);
    assert_eq!(summary["failed"], 0, "{runs:#?}");
    assert_eq!(summary["passed"], 1, "{runs:#?}");
}
