//! A program's module is what the linker linked (`tests/fixtures/capture-linked`):
//! a Kbuild-style build whose link line names no object of its own, only
//! archives of partial links (`ld -r` objects inside `lib.a` files), whose
//! `main` lives in one of those archives and is pulled in by the C runtime's
//! reference alone, and whose plugin is linked only through
//! `-Wl,--whole-archive` (a constructor registers it). The build also links,
//! runs and deletes a probe under a `mktemp` name in its root. Built by GCC,
//! the program differs from clang's build of the same sources both ways: one
//! function only GCC compiles, one helper only clang's code calls.

use crate::support::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap()
}

fn output<'a>(m: &'a Value, name: &str) -> &'a Value {
    m["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["output"] == name)
        .unwrap_or_else(|| panic!("no output {name} in {m:#}"))
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect()
}

/// The capture links every member the linker took, `main`'s archive member
/// and the whole-archive plugin included; the module's functions equal the
/// program's own (`nm`); the deleted probe is not an output anyone can name.
#[test]
fn the_module_holds_what_the_linker_linked() {
    let dir = copy_fixture("capture-linked", "linked-capture");
    let o = symtest_in(&dir, &["capture", "--", "make"]);
    assert!(o.status.success(), "{}", shown(&o));
    let m = read_json(&dir.join("symtest-out/capture/manifest.json"));
    let prog = output(&m, "prog");
    // The link line names archives only.
    assert_eq!(strings(&prog["objects"]), Vec::<&str>::new(), "{prog:#}");
    let mut taken = strings(&prog["from_libraries"]);
    taken.sort_unstable();
    assert_eq!(
        taken,
        [
            "core/count.o",
            "core/upper.o",
            "plugins/shout.o",
            "shell/main.o",
            "shell/registry.o"
        ],
        "{prog:#}"
    );
    assert_eq!(prog["main_from"], "shell/main.c", "{prog:#}");
    // upper_main, count_main, count_twice, main, register_tool, find_tool,
    // shout_main and its constructor: gcc keeps all eight at -O2.
    assert_eq!(prog["native_functions"], 8, "{prog:#}");
    // count_twice is GCC's only: its object is in the module, whose bitcode
    // compile (clang) has no such function. Nothing the linker took is missing.
    assert_eq!(
        prog["missing_functions"],
        serde_json::json!([{
            "symbol": "count_twice",
            "object": dir.join("core/count.o").to_str().unwrap(),
            "compiled_differently": true
        }]),
        "{prog:#}"
    );
    assert_eq!(prog["complete"], true, "{prog:#}");
    assert!(prog["module_functions"].as_u64().unwrap() >= 8, "{prog:#}");
    let module = dir
        .join("symtest-out/capture")
        .join(prog["bitcode"].as_str().unwrap());
    let nm = Command::new("llvm-nm-19")
        .args(["--defined-only", "-P"])
        .arg(&module)
        .output()
        .unwrap();
    let defined = String::from_utf8_lossy(&nm.stdout).into_owned();
    // note_lookup: clang's registry.c calls it, GCC's link took no member
    // defining it; the project's library provides it to the module.
    for f in [
        "main ",
        "shout_main",
        "upper_main",
        "find_tool",
        "note_lookup",
    ] {
        assert!(defined.contains(f), "{f} not in the module:\n{defined}");
    }
    // The probe was linked in the build root, then deleted.
    let probe = m["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["output"].as_str().unwrap().starts_with("tmp."))
        .unwrap_or_else(|| panic!("the probe's link was recorded: {m:#}"));
    assert!(
        probe["gone"]
            .as_str()
            .is_some_and(|g| g.starts_with("deleted by the build")),
        "{probe:#}"
    );
    assert!(prog.get("gone").is_none(), "{prog:#}");
    let warnings = m["warnings"].to_string();
    assert!(!warnings.contains("lacks"), "{warnings}");
}

/// `init --from-build` lists the program, not the probe the build deleted
/// (named among what it left out, with the reason); `list` shows where the
/// program's `main` comes from; `cargo symtest` explores it like any other
/// program: the plugin's bug (reachable only through the constructor the
/// whole-archive member brings) is found and confirmed natively, no native
/// disagreement, and the emitted suite builds and replays.
#[test]
fn a_program_whose_main_is_in_a_static_library_is_explored() {
    let dir = copy_fixture("capture-linked", "linked-explore");
    std::fs::remove_file(dir.join("symtest.toml")).unwrap();
    let o = symtest_in(&dir, &["init", "--from-build", "--", "make"]);
    assert!(o.status.success(), "{}", shown(&o));
    let config = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    assert!(config.contains("binary = \"prog\""), "{config}");
    assert!(!config.contains("binary = \"tmp."), "{config}");
    assert!(
        config
            .lines()
            .any(|l| l.starts_with("#   tmp.") && l.contains("deleted by the build")),
        "{config}"
    );
    let o = symtest_in(&dir, &["list"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        out.starts_with("prog\tprogram\t") && out.contains("main from shell/main.c"),
        "{out}"
    );
    // The fixture's own arguments: a tool name and its argument.
    std::fs::copy(
        workspace().join("tests/fixtures/capture-linked/symtest.toml"),
        dir.join("symtest.toml"),
    )
    .unwrap();
    let o = symtest_in(&dir, &["--max-time", "30"]);
    assert!(o.status.success(), "{}", shown(&o));
    let all = read_json(&dir.join("symtest-out/summary.json"));
    let r = &all["targets"][0];
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    assert_eq!(r["unconfirmed"], serde_json::json!([]), "{r:#}");
    let bugs = r["bugs"].as_array().unwrap();
    assert!(
        bugs.iter()
            .any(|b| b["kind"] == "ptr" && b["file"] == "plugins/shout.c" && b["line"] == 13),
        "{r:#}"
    );
    let coverage = read_json(&dir.join("symtest-out/prog/coverage/summary.json"));
    for f in coverage["files"].as_array().unwrap() {
        assert!(f["lines_covered"].as_u64().unwrap() > 0, "{f}");
    }
    let suite = dir.join("tests/symtest/prog");
    let o = Command::new("make")
        .arg("test-no-bugs")
        .current_dir(&suite)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", shown(&o));
}

/// A program whose `main` has no bitcode (it is written in assembly) is
/// refused before exploring: exit 2, naming the object without bitcode.
#[test]
fn a_program_module_without_main_is_refused_at_the_front_door() {
    let dir = scratch("linked-no-main");
    std::fs::write(
        dir.join("start.s"),
        "\t.text\n\t.globl main\nmain:\n\tcall work@PLT\n\tret\n\t.section .note.GNU-stack,\"\",@progbits\n",
    )
    .unwrap();
    std::fs::write(dir.join("work.c"), "int work(void) { return 0; }\n").unwrap();
    std::fs::write(
        dir.join("Makefile"),
        "prog: start.o work.o\n\t$(CC) -o $@ start.o work.o\n\
         start.o: start.s\n\t$(CC) -c start.s -o $@\n\
         work.o: work.c\n\t$(CC) -O2 -c work.c -o $@\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("symtest.toml"),
        "[[target]]\nname = \"prog\"\nkind = \"program\"\nbuild = [\"make\"]\nbinary = \"prog\"\n",
    )
    .unwrap();
    let o = symtest_in(&dir, &["--max-time", "5"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
    assert!(
        err.contains("key `binary`: the module of `prog` has no `main`") && err.contains("start.o"),
        "{}",
        shown(&o)
    );
    assert!(!err.contains("paths"), "{}", shown(&o));
    assert!(!dir.join("symtest-out/prog/stats.json").exists());
}
