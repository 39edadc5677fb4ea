//! Shared helpers: compiling fixtures, walking lowered modules.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use symtest_ir::{Body, Inst, Module, Op};

/// A temporary directory removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "symtest-loader-{}-{}-{}",
            tag,
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Path of a fixture source file.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/fixtures")
        .join(name)
}

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Compiles a fixture to bitcode with `clang-19 -emit-llvm -c -g` plus `flags`.
pub fn compile(dir: &TempDir, fixture_name: &str, flags: &[&str]) -> PathBuf {
    let out = dir.path(&format!(
        "{}{}.bc",
        fixture_name.trim_end_matches(".c"),
        flags.join("").replace(['-', '=', ' '], "_")
    ));
    run(Command::new("clang-19")
        .args(["-emit-llvm", "-c", "-g"])
        .args(flags)
        .arg(fixture(fixture_name))
        .arg("-o")
        .arg(&out));
    out
}

/// Assembles LLVM IR text (`name.ll` in `dir`) into bitcode with `llvm-as-19`.
pub fn assemble(dir: &TempDir, name: &str, ir: &str) -> PathBuf {
    let ll = dir.path(&format!("{name}.ll"));
    let bc = dir.path(&format!("{name}.bc"));
    std::fs::write(&ll, ir).expect("write .ll");
    run(Command::new("llvm-as-19").arg(&ll).arg("-o").arg(&bc));
    bc
}

/// The `-O0` build symtest uses (`optnone` disabled so the code stays analysable).
pub const O0: &[&str] = &["-O0", "-Xclang", "-disable-O0-optnone"];

/// Compiles a C file natively and runs it, returning its standard output.
pub fn run_native(dir: &TempDir, source: &Path) -> String {
    let exe = dir.path("native");
    run(Command::new("clang-19").arg(source).arg("-o").arg(&exe));
    run(&mut Command::new(&exe))
}

/// `llvm-dis-19` text of a bitcode file.
pub fn disassemble(bc: &Path) -> String {
    run(Command::new("llvm-dis-19").arg(bc).arg("-o").arg("-"))
}

/// The body of a defined function, by name.
pub fn body<'a>(m: &'a Module, name: &str) -> &'a Body {
    let f = m
        .function_by_name(name)
        .unwrap_or_else(|| panic!("no function {name}"));
    m.function(f)
        .body
        .as_ref()
        .unwrap_or_else(|| panic!("{name} has no body"))
}

/// Every instruction of every defined function, with the function's name.
pub fn all_insts(m: &Module) -> impl Iterator<Item = (&str, &Inst)> {
    m.functions.iter().flat_map(|f| {
        f.body
            .iter()
            .flat_map(|b| b.insts.iter())
            .map(move |i| (f.name.as_str(), i))
    })
}

/// Instructions of a function matching `pred`.
pub fn find<'a>(m: &'a Module, func: &str, pred: impl Fn(&Op) -> bool) -> Vec<&'a Inst> {
    body(m, func).insts.iter().filter(|i| pred(&i.op)).collect()
}
