//! Helpers: compiling C fixtures, running the binary, temporary directories.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub fn models() -> PathBuf {
    workspace().join("libc-models")
}

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cargo-symtest"))
}

/// A fresh directory under the target dir (kept for inspection after a failure).
pub fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The flags `cargo symtest` compiles harnesses with.
pub const BITCODE_FLAGS: &[&str] = &[
    "-emit-llvm",
    "-c",
    "-g",
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-fsanitize=signed-integer-overflow,shift,integer-divide-by-zero",
    "-fno-sanitize-recover=all",
    "-Wno-everything",
];

/// How KLEE's users compile a harness (no sanitizer checks: the engine
/// checks overshift and division by zero itself).
pub const KLEE_FLAGS: &[&str] = &[
    "-emit-llvm",
    "-c",
    "-g",
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-Wno-everything",
];

/// Compiles a C file to bitcode; returns the .bc path or clang's diagnostics.
pub fn compile(src: &Path, out_dir: &Path, extra: &[&str]) -> Result<PathBuf, String> {
    compile_with(src, out_dir, BITCODE_FLAGS, extra)
}

/// Like [`compile`] with other base flags than `BITCODE_FLAGS`.
pub fn compile_with(
    src: &Path,
    out_dir: &Path,
    flags: &[&str],
    extra: &[&str],
) -> Result<PathBuf, String> {
    let bc = out_dir.join(format!("{}.bc", src.file_stem().unwrap().to_string_lossy()));
    let out = Command::new("clang-19")
        .args(flags)
        .args(extra)
        .arg("-I")
        .arg(models().join("include"))
        .arg(src)
        .arg("-o")
        .arg(&bc)
        .output()
        .map_err(|e| format!("cannot run clang-19: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(bc)
}

pub fn symtest(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .output()
        .expect("run cargo-symtest")
}

/// `cargo symtest cc SRC -o DIR/<stem>.bc` (bitcode against the musl
/// headers), asserting that it compiles.
pub fn cc_bitcode(src: &Path, dir: &Path) -> PathBuf {
    let bc = dir.join(format!("{}.bc", src.file_stem().unwrap().to_string_lossy()));
    let o = symtest(&["cc", src.to_str().unwrap(), "-o", bc.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    bc
}

/// `exec BC --libc=musl --posix-runtime ENGINE... -- ARGS...` into `out`,
/// asserting that the run succeeds.
pub fn posix_exec(bc: &Path, out: &Path, engine: &[&str], args: &[&str]) -> Output {
    let mut v = vec![
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--libc=musl",
        "--posix-runtime",
    ];
    v.extend_from_slice(engine);
    v.push("--");
    v.extend_from_slice(args);
    let o = symtest(&v);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// (kind, line) of every `.err` file in an output directory.
pub fn reported_errors(out: &Path) -> BTreeSet<(String, u32)> {
    let mut set = BTreeSet::new();
    for entry in std::fs::read_dir(out).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(kind) = name.strip_suffix(".err").and_then(|n| n.split('.').nth(1)) {
            let text = std::fs::read_to_string(&p).unwrap();
            let line = text
                .lines()
                .find_map(|l| l.strip_prefix("Line: "))
                .and_then(|l| l.trim().parse().ok())
                .unwrap_or(0);
            set.insert((kind.to_string(), line));
        }
    }
    set
}

/// Builds `src` natively with `cargo symtest cc --native --coverage` into
/// `dir/<name>`, object file first so that the gcov notes are
/// `dir/<name>.gcno`. Returns the executable.
pub fn native_coverage_build(src: &Path, dir: &Path, name: &str) -> PathBuf {
    let obj = dir.join(format!("{name}.o"));
    let exe = dir.join(name);
    let (src, obj_s, exe_s) = (
        src.to_str().unwrap(),
        obj.to_str().unwrap(),
        exe.to_str().unwrap(),
    );
    for args in [
        vec!["cc", "--native", "--coverage", "-c", src, "-o", obj_s],
        vec!["cc", "--native", "--coverage", obj_s, "-o", exe_s],
    ] {
        let out = symtest(&args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    exe
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// A fresh copy of `tests/fixtures/NAME` in the scratch directory `scratch_name`.
pub fn copy_fixture(name: &str, scratch_name: &str) -> PathBuf {
    let d = scratch(scratch_name);
    copy_dir(&workspace().join("tests/fixtures").join(name), &d);
    d
}

/// A project in the scratch directory `scratch_name` whose one program
/// target `target` is `tests/posix/<program>.c` (copied to `src/`), run with
/// the symbolic arguments `args` for `max_time` seconds.
pub fn posix_project(
    scratch_name: &str,
    program: &str,
    target: &str,
    args: &[&str],
    max_time: u32,
) -> PathBuf {
    let dir = scratch(scratch_name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let file = format!("{program}.c");
    std::fs::copy(
        workspace().join("tests/posix").join(&file),
        dir.join("src").join(&file),
    )
    .unwrap();
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    std::fs::write(
        dir.join("symtest.toml"),
        format!(
            "[[target]]\nname = \"{target}\"\nkind = \"program\"\nsources = [\"src/{file}\"]\nargs = [{}]\nmax-time = {max_time}\n",
            args.join(", ")
        ),
    )
    .unwrap();
    dir
}

/// Runs the binary with `args` in `dir`.
pub fn symtest_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run cargo-symtest")
}

/// Status, stdout and stderr of a run, for assertion messages.
pub fn shown(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `replay --native --json` of `out` on `prog` with a per-test timeout of
/// `timeout_s` seconds and `extra` options: (summary, per-test objects).
pub fn replay_json(
    prog: &Path,
    out: &Path,
    timeout_s: u32,
    extra: &[&str],
) -> (serde_json::Value, Vec<serde_json::Value>) {
    let r = Command::new(bin())
        .args(["replay", "--json", "--timeout", &timeout_s.to_string()])
        .args(extra)
        .arg("--native")
        .arg(prog)
        .arg(out)
        .output()
        .unwrap();
    let mut summary = serde_json::Value::Null;
    let mut tests = Vec::new();
    for line in String::from_utf8_lossy(&r.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["summary"].is_null() {
            tests.push(v);
        } else {
            summary = v["summary"].clone();
        }
    }
    (summary, tests)
}

/// The records (`testNNNNNN.json`) of an output directory, in name order.
pub fn test_jsons(out: &Path) -> Vec<serde_json::Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && p.file_name().unwrap().to_string_lossy().starts_with("test")
        })
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}
