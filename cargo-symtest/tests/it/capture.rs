//! `cargo symtest capture`: real builds (plain Make with a static library in a
//! subdirectory, a configure script that compiles and runs a test program,
//! CMake with Ninja and with Make) turned into bitcode that the engine runs,
//! each with a planted bug found in the captured program.

use crate::support::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

/// A fresh copy of `tests/fixtures/NAME`.
fn fixture(name: &str) -> PathBuf {
    let dir = scratch(&format!("capture-{name}"));
    copy_dir(&workspace().join("tests/fixtures").join(name), &dir);
    dir
}

fn capture(dir: &Path, build: &[&str]) -> Output {
    Command::new(bin())
        .arg("capture")
        .arg("-v")
        .arg("--")
        .args(build)
        .current_dir(dir)
        .output()
        .expect("run cargo-symtest capture")
}

fn manifest(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("symtest-out/capture/manifest.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn output<'a>(m: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    m["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["output"] == name)
        .unwrap_or_else(|| panic!("no output {name} in {m:#}"))
}

fn defined(bc: &Path) -> Vec<String> {
    let o = Command::new("llvm-nm-19")
        .args(["--defined-only", "-P"])
        .arg(bc)
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Runs the captured program with musl and the POSIX model; the errors found.
fn explore(dir: &Path, bc: &str, args: &[&str]) -> std::collections::BTreeSet<(String, u32)> {
    let out = dir.join(format!("explore-{}", bc.replace('/', "_")));
    let bc = dir.join("symtest-out/capture").join(bc);
    let mut v = vec![
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--libc=musl",
        "--posix-runtime",
        "--max-time",
        "60",
        "--",
    ];
    v.extend_from_slice(args);
    let o = symtest(&v);
    assert!(
        o.status.code() == Some(0) || o.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    reported_errors(&out)
}

#[test]
fn make_project_with_a_static_library_in_a_subdirectory() {
    let dir = fixture("capture-make");
    let o = capture(&dir, &["make"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("captured 3 translation units, 2 outputs (2 with bitcode)"),
        "{stderr}"
    );
    // The build itself still produced its native program.
    let native = Command::new(dir.join("app/wordcount"))
        .arg("a bb")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&native.stdout).starts_with("2 words"),
        "{native:?}"
    );
    let m = manifest(&dir);
    let lib = output(&m, "lib/libtok.a");
    assert_eq!(lib["kind"], "static-library");
    assert_eq!(
        lib["sources"],
        serde_json::json!(["lib/tokens.c", "lib/checksum.c"])
    );
    let app = output(&m, "app/wordcount");
    assert_eq!(app["kind"], "executable");
    assert_eq!(
        app["inputs"],
        serde_json::json!(["app/main.o", "lib/libtok.a"])
    );
    assert_eq!(app["bitcode"], "app/wordcount.bc");
    // What the linker took of the archive: the members that define what
    // the program calls, whole (checksum.o's unused function with them, as
    // in the linked program), and nothing else.
    let syms = defined(&dir.join("symtest-out/capture/app/wordcount.bc"));
    for f in ["main", "tok_split", "tok_checksum", "tok_unused"] {
        assert!(syms.iter().any(|s| s == f), "{f} missing: {syms:?}");
    }
    assert_eq!(
        app["from_libraries"],
        serde_json::json!(["lib/tokens.o", "lib/checksum.o"])
    );
    assert_eq!(app["main_from"], "app/main.c");
    assert_eq!(app["complete"], true, "{app:#}");
    // compile_commands.json: one entry per translation unit, as clang tools read it.
    let cc: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("symtest-out/capture/compile_commands.json")).unwrap(),
    )
    .unwrap();
    let entries = cc.as_array().unwrap();
    assert_eq!(entries.len(), 3);
    for e in entries {
        assert!(Path::new(e["file"].as_str().unwrap()).is_absolute());
        assert!(e["arguments"].as_array().unwrap().len() > 2);
        assert!(e["directory"]
            .as_str()
            .unwrap()
            .starts_with(dir.to_str().unwrap()));
    }
    let tokens = entries
        .iter()
        .find(|e| e["file"].as_str().unwrap().ends_with("tokens.c"))
        .unwrap();
    assert!(tokens["arguments"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "-DTOK_MAX=8"));
    // The planted out-of-bounds read (three words or more).
    let errors = explore(&dir, "app/wordcount.bc", &["--sym-arg", "6"]);
    assert!(errors.contains(&("ptr".to_string(), 14)), "{errors:?}");
}

/// A capture of an unchanged build takes each output's module from the
/// previous capture (the same bytes linked: no llvm-link run again, as every
/// `cargo symtest` after the first recaptures the project's build); a changed
/// object links again what contains it, and only that.
#[test]
fn a_recapture_reuses_the_modules_of_unchanged_outputs() {
    let dir = scratch("capture-make-reuse");
    copy_dir(&workspace().join("tests/fixtures/capture-make"), &dir);
    let o = capture(&dir, &["make"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(manifest(&dir)["links_reused"], 0);
    let app_bc = dir.join("symtest-out/capture/app/wordcount.bc");
    let first = std::fs::read(&app_bc).unwrap();
    let recapture = |dir: &Path| {
        let o = Command::new(bin())
            .args(["capture", "--append", "--", "make"])
            .current_dir(dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{stderr}");
        stderr
    };
    let stderr = recapture(&dir);
    assert!(
        stderr.contains("2 linked modules reused from the previous capture"),
        "{stderr}"
    );
    assert_eq!(manifest(&dir)["links_reused"], 2);
    assert_eq!(std::fs::read(&app_bc).unwrap(), first);
    // The program's object changes: the library's module is reused, the
    // program's is linked again, with the change.
    let main = dir.join("app/main.c");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(
        &main,
        format!("{text}\nint symtest_reuse_marker(void) {{ return 7; }}\n"),
    )
    .unwrap();
    recapture(&dir);
    assert_eq!(manifest(&dir)["links_reused"], 1);
    let syms = defined(&app_bc);
    assert!(syms.iter().any(|s| s == "symtest_reuse_marker"), "{syms:?}");
}

#[test]
fn configure_script_that_compiles_and_runs_a_test_program() {
    let dir = fixture("capture-configure");
    let o = capture(&dir, &["sh", "-c", "./configure && make"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    // The probe program was compiled and run through the wrapper.
    let config = std::fs::read_to_string(dir.join("config.h")).unwrap();
    assert!(config.contains("SIZEOF_LONG 8"), "{config}");
    let m = manifest(&dir);
    let outputs = m["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), 1, "probes are not outputs: {m:#}");
    assert_eq!(output(&m, "rot")["bitcode"], "rot.bc");
    let errors = explore(&dir, "rot.bc", &["--sym-stdin", "3"]);
    assert!(errors.contains(&("div".to_string(), 19)), "{errors:?}");
}

#[test]
fn cmake_projects_with_ninja_and_make() {
    for generator in ["Ninja", "Unix Makefiles"] {
        let dir = fixture("capture-cmake");
        let script = format!("cmake -S . -B build -G '{generator}' && cmake --build build");
        let o = capture(&dir, &["sh", "-c", &script]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "[{generator}] {stderr}");
        let m = manifest(&dir);
        let names: Vec<&str> = m["outputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["output"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["build/libkvparse.a", "build/kvget"],
            "[{generator}] compiler-identification and try-compile probes are left out"
        );
        let kv = output(&m, "build/kvget");
        assert_eq!(kv["bitcode"], "build/kvget.bc");
        let errors = explore(&dir, "build/kvget.bc", &["--sym-arg", "6"]);
        assert!(
            errors.contains(&("ptr".to_string(), 15)),
            "[{generator}] {errors:?}"
        );
    }
}

#[test]
fn a_failing_build_exits_2_and_keeps_the_previous_capture() {
    let dir = fixture("capture-configure");
    let o = capture(&dir, &["sh", "-c", "./configure && make"]);
    assert!(o.status.success());
    let before = std::fs::read_to_string(dir.join("symtest-out/capture/manifest.json")).unwrap();
    let o = capture(&dir, &["sh", "-c", "echo compiling...; exit 3"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("failed"), "{stderr}");
    // The build's own output is shown as it ran.
    assert!(String::from_utf8_lossy(&o.stdout).contains("compiling..."));
    let after = std::fs::read_to_string(dir.join("symtest-out/capture/manifest.json")).unwrap();
    assert_eq!(before, after);
    let mut leftovers: Vec<_> = std::fs::read_dir(dir.join("symtest-out"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    leftovers.sort();
    // The wrapper directory stays (build systems remember its path).
    assert_eq!(
        leftovers,
        [".capture.bin", "capture"],
        "no staging directory left behind"
    );
    // Nothing compiled through the wrappers (an up-to-date build): an error.
    let o = capture(&dir, &["true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("compiled nothing"));
}

#[test]
fn assembly_sources_are_named_with_the_symbols_they_leave_undefined() {
    let dir = scratch("capture-asm");
    std::fs::write(
        dir.join("main.c"),
        "int asm_twice(int);\nint main(int argc, char **argv) { (void)argv; return asm_twice(argc); }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("twice.s"),
        "\t.text\n\t.globl asm_twice\nasm_twice:\n\tleal (%rdi,%rdi), %eax\n\tret\n\t.section .note.GNU-stack,\"\",@progbits\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("Makefile"),
        "prog: main.o twice.o\n\t$(CC) main.o twice.o -o prog\n",
    )
    .unwrap();
    let o = capture(&dir, &["make"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let m = manifest(&dir);
    let prog = output(&m, "prog");
    assert_eq!(prog["missing_bitcode"], serde_json::json!(["twice.o"]));
    assert_eq!(
        prog["undefined_from_missing"],
        serde_json::json!(["asm_twice"])
    );
    assert!(stderr.contains("twice.s: not C"), "{stderr}");
    assert!(stderr.contains("asm_twice"), "{stderr}");
}

#[test]
fn cc_compiles_several_sources_into_one_module_and_reaches_clang_headers() {
    let dir = fixture("capture-make");
    let out = dir.join("wordcount.bc");
    let o = symtest(&[
        "cc",
        "-DTOK_MAX=8",
        "-I",
        dir.join("lib").to_str().unwrap(),
        dir.join("app/main.c").to_str().unwrap(),
        dir.join("lib/tokens.c").to_str().unwrap(),
        dir.join("lib/checksum.c").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let syms = defined(&out);
    for f in ["main", "tok_split", "tok_checksum", "tok_unused"] {
        assert!(syms.iter().any(|s| s == f), "{f}: {syms:?}");
    }
    // Several sources need -o.
    let o = symtest(&["cc", "a.c", "b.c"]);
    assert_eq!(o.status.code(), Some(2));
    // clang's resource headers stay reachable beside musl's.
    let src = dir.join("cpu.c");
    std::fs::write(
        &src,
        "#include <cpuid.h>\nint f(void) { unsigned a, b, c, d; return __get_cpuid(0, &a, &b, &c, &d); }\n",
    )
    .unwrap();
    let bc = dir.join("cpu.bc");
    let o = symtest(&["cc", src.to_str().unwrap(), "-o", bc.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A Kbuild-style build: a GCC-only flag, partial links (`ld -r`), a thin
/// archive, a generator the build runs, link probes, and the program linked
/// as `multi_unstripped` then stripped into `multi`. Every compile gets
/// bitcode (the flag dropped from the bitcode compile only), the program's
/// module holds what the partial link and the archive hold, the stripped
/// copy names the same objects, and the identity asm on its first path
/// executes.
#[test]
fn kbuild_partial_links_thin_archive_and_a_stripped_copy() {
    let dir = fixture("capture-kbuild");
    let o = capture(&dir, &["make"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(!stderr.contains("no bitcode"), "{stderr}");
    let m = manifest(&dir);
    // The build's own compiles kept the flag; the bitcode compiles dropped it.
    assert_eq!(
        m["dropped_flags"],
        serde_json::json!({"-malign-data=abi": 5})
    );
    for c in m["compiles"].as_array().unwrap() {
        assert!(c["bitcode"].is_string(), "{c}");
        let flags = c["flags"].as_array().unwrap();
        assert!(!flags.iter().any(|f| f == "-malign-data=abi"), "{c}");
        if c["source"] != "gen/mktable.c" {
            assert!(c["arguments"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a == "-malign-data=abi"));
            assert_eq!(c["dropped_flags"], serde_json::json!(["-malign-data=abi"]));
        }
    }
    // Outputs: the thin archive, the generator and the program; the
    // partial link is not one, nor are the probes.
    let names: Vec<&str> = m["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["output"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["util/lib.a", "gen/mktable", "multi_unstripped"],
        "{m:#}"
    );
    let left: Vec<&str> = m["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["output"].as_str().unwrap())
        .collect();
    assert!(left.contains(&"/dev/null"), "{left:?}");
    assert!(
        left.iter()
            .any(|l| l.starts_with(std::env::temp_dir().to_str().unwrap())),
        "{left:?}"
    );
    let lib = output(&m, "util/lib.a");
    assert_eq!(
        lib["objects"],
        serde_json::json!(["util/sum.o", "util/digits.o"])
    );
    let prog = output(&m, "multi_unstripped");
    assert_eq!(
        prog["inputs"],
        serde_json::json!(["main.o", "core/built-in.o", "util/lib.a"])
    );
    assert_eq!(
        prog["objects"],
        serde_json::json!(["main.o", "core/up.o", "core/rev.o"])
    );
    assert_eq!(prog["missing_bitcode"], serde_json::json!([]));
    let syms = defined(&dir.join("symtest-out/capture/multi_unstripped.bc"));
    for f in ["main", "up_main", "rev_main", "sum_main", "digit_value"] {
        assert!(syms.iter().any(|s| s == f), "{f} missing: {syms:?}");
    }
    // The program names the objects it holds, and so does its stripped copy
    // (which has no symbols left).
    let section = |file: &str| {
        let o = Command::new("objcopy")
            .args(["--dump-section", ".symtest_bc=/dev/stdout"])
            .arg(dir.join(file))
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let carried = section("multi_unstripped");
    assert_eq!(carried.lines().count(), 5, "{carried}");
    assert_eq!(section("multi"), carried);
    assert_eq!(prog["carried"].as_array().unwrap().len(), 5);
    let nm = Command::new("nm").arg(dir.join("multi")).output().unwrap();
    assert!(
        String::from_utf8_lossy(&nm.stderr).contains("no symbols"),
        "{nm:?}"
    );
    // The identity and barrier asms execute: nothing unsupported, and the
    // bug past them is found (the program runs as `up`, argv[0] dispatch).
    let bc = dir.join("symtest-out/capture/multi_unstripped.bc");
    let o = symtest(&["inspect", "--unsupported", bc.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    std::fs::copy(&bc, dir.join("symtest-out/capture/up.bc")).unwrap();
    let errors = explore(&dir, "up.bc", &["--sym-arg", "3"]);
    assert!(errors.contains(&("ptr".to_string(), 26)), "{errors:?}");
    assert!(!errors.iter().any(|(k, _)| k == "exec"), "{errors:?}");
}

/// Captures `make` of the one-file program `source` against musl's headers:
/// its bitcode is made, with `added` the flags added for it; the manifest.
fn capture_one_file_against_musl(name: &str, source: &str, added: &[&str]) -> serde_json::Value {
    let dir = scratch(name);
    std::fs::write(dir.join("m.c"), source).unwrap();
    std::fs::write(dir.join("Makefile"), "m: m.c\n\t$(CC) -O2 -o $@ m.c\n").unwrap();
    let o = Command::new(bin())
        .args(["capture", "--musl", "--", "make"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", shown(&o));
    let m = manifest(&dir);
    let c = &m["compiles"][0];
    assert!(c["bitcode"].is_string(), "{c:#}");
    assert_eq!(c["added_flags"], serde_json::json!(added), "{c:#}");
    m
}

/// A source that gets `u_char` from glibc's <stdlib.h> alone (which
/// includes <sys/types.h>; musl's does not: libbtbb's pcap.c) still gets
/// bitcode against musl's headers: <sys/types.h> is included for it.
#[test]
fn a_bsd_type_that_glibc_headers_bring_along_compiles_against_musl() {
    capture_one_file_against_musl(
        "capture-bsd-types",
        "#include <stdlib.h>\n#include <stdio.h>\n\
         int main(void) { u_char c = 1; u_int n = c; return printf(\"%u\\n\", n) < 0; }\n",
        &["-includesys/types.h"],
    );
}

/// A source that gets `PATH_MAX` from glibc's <dirent.h> alone (musl's
/// headers define it only in <limits.h>) still gets bitcode against musl's
/// headers: <limits.h> is included for it, and the manifest records it.
#[test]
fn a_limit_that_glibc_headers_bring_along_compiles_against_musl() {
    let m = capture_one_file_against_musl(
        "capture-limits",
        "#include <dirent.h>\n#include <stdio.h>\n\
         int main(void) { char p[PATH_MAX]; p[0] = 0; return puts(p) < 0; }\n",
        &["-includelimits.h"],
    );
    assert_eq!(output(&m, "m")["main_from"], "m.c");
}
