//! `--libc=musl` and `--posix-runtime`: links the program's bitcode with the
//! musl runtime (`symtest_project::runtime`) under the loading limits.

use std::path::PathBuf;
use std::process::Command;
use symtest_project::runtime::runtime_dir;

/// A linked program in a temporary directory, removed on drop.
pub struct Linked {
    pub path: PathBuf,
    _dir: crate::tempdir::TempDir,
}

/// `exec --optimize`: the program's bitcode through LLVM's -O2 pipeline
/// (`opt-19`, under the loading limits), as KLEE's `--optimize` runs its
/// optimization passes before exploring.
pub fn optimize(
    bytes: &[u8],
    name: &str,
    limits: &crate::loading::Limits,
) -> Result<Vec<u8>, String> {
    let dir = crate::tempdir::TempDir::new("link").map_err(|e| e.to_string())?;
    let program = dir.path().join("program.bc");
    std::fs::write(&program, bytes).map_err(|e| format!("writing {}: {e}", program.display()))?;
    let optimized = dir.path().join("optimized.bc");
    let mut cmd = Command::new("opt-19");
    cmd.arg("-O2").arg(&program).arg("-o").arg(&optimized);
    let what = format!("--optimize: `opt-19 -O2` of `{name}`");
    let out = crate::loading::run_tool(cmd, &what, limits)?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "{what} failed: {}",
            msg.lines().next().unwrap_or("").trim()
        ));
    }
    std::fs::read(&optimized).map_err(|e| format!("reading {}: {e}", optimized.display()))
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
