//! Host files a whole program opens (tests/posix/hostfiles.c): devices, a
//! FIFO, /proc and huge files never make the engine read without end, block,
//! or grow past its limits; the program sees documented errors.

use crate::support::*;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn devices_fifos_and_huge_files_are_refused_or_bounded() {
    let dir = scratch("host-files");
    let src = workspace().join("tests/posix/hostfiles.c");
    let bc = cc_bitcode(&src, &dir);
    let fifo = dir.join("fifo");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    // Sparse: 20 MiB and 100 GiB of nothing on disk.
    let huge = dir.join("huge");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(20 << 20)
        .unwrap();
    let vast = dir.join("vast");
    std::fs::File::create(&vast)
        .unwrap()
        .set_len(100 << 30)
        .unwrap();
    let small = dir.join("small");
    std::fs::write(&small, "hello\n").unwrap();
    let out = dir.join("out");
    let paths = [
        "/dev/zero".to_string(),
        "/dev/urandom".into(),
        fifo.display().to_string(),
        "/proc/self/status".into(),
        huge.display().to_string(),
        vast.display().to_string(),
        small.display().to_string(),
        "/dev/null".into(),
        dir.join("missing").display().to_string(),
    ];
    let mut args = vec![
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--libc=musl",
        "--posix-runtime",
        "--max-time",
        "60",
        "--max-memory",
        "1024",
        "--",
    ];
    args.extend(paths.iter().map(String::as_str));
    let started = Instant::now();
    let o = symtest(&args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(
        stderr.contains("a host device, FIFO or socket cannot be opened (EACCES)"),
        "{stderr}"
    );
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("test000001.json")).unwrap())
            .unwrap();
    let want: String = [
        ("/dev/zero", "error 13"),
        ("/dev/urandom", "error 13"),
        (paths[2].as_str(), "error 13"),
        ("/proc/self/status", "read 0"),
        (paths[4].as_str(), "error 27"),
        (paths[5].as_str(), "error 27"),
        (paths[6].as_str(), "read 6"),
        ("/dev/null", "read 0"),
        (paths[8].as_str(), "error 2"),
    ]
    .iter()
    .map(|(p, r)| format!("{p}: {r}\n"))
    .collect();
    assert_eq!(t["stdout"].as_str(), Some(want.as_str()));
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    let peak = stats["memory_peak_mb"].as_f64().unwrap();
    assert!(peak < 512.0, "peak {peak} MiB");
}

/// The engine's own host read (what the model calls) refuses what is not a
/// regular file even when asked directly, and never copies more than asked.
#[test]
fn the_engine_reads_only_regular_files() {
    let dir = scratch("host-read");
    let small = dir.join("small");
    std::fs::write(&small, "0123456789").unwrap();
    let src = dir.join("host_read.c");
    std::fs::write(
        &src,
        format!(
            r#"#include "symtest.h"
long __symtest_host_read(const char *path, void *buf, unsigned long n);
int main(void) {{
  char buf[4];
  if (__symtest_host_read("/dev/zero", buf, sizeof buf) != -13) return 1;
  if (__symtest_host_read("/dev/urandom", buf, sizeof buf) != -13) return 2;
  if (__symtest_host_read("/", buf, sizeof buf) != -21) return 3;
  if (__symtest_host_read("{}", buf, sizeof buf) != 4) return 4;
  if (buf[0] != '0' || buf[3] != '3') return 5;
  return 0;
}}
"#,
            small.display()
        ),
    )
    .unwrap();
    let bc = compile(&src, &dir, &[]).unwrap();
    let out = dir.join("out");
    let o = symtest(&[
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--max-time",
        "30",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("test000001.json")).unwrap())
            .unwrap();
    assert_eq!(t["outcome"]["exit"]["code"].as_i64(), Some(0), "{t}");
}
