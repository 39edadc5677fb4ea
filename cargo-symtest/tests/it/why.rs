//! Why uncovered: what `exec` records about code it never executes
//! (`coverage.json`'s `why`), the pipeline's classification of what the kept
//! tests leave uncovered (`coverage/why.json`, the target's report) and
//! `cargo symtest why`.

use crate::support::*;
use serde_json::Value;
use std::path::Path;

/// The line of `src` holding `marker`.
fn line_of(src: &str, marker: &str) -> u64 {
    src.lines()
        .position(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("no line with {marker}")) as u64
        + 1
}

/// `exec` of `bc` with `opts`; the `why` object of its coverage.json.
fn why_of(bc: &Path, out: &Path, opts: &[&str]) -> Value {
    let mut args = vec![
        "exec",
        bc.to_str().unwrap(),
        "--output-dir",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(opts);
    let o = symtest(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cov: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("coverage.json")).unwrap()).unwrap();
    cov["why"].clone()
}

/// The engine's reason for `line`: (category, kind, the whole entry).
fn reason_of(why: &Value, line: u64) -> (String, String, Value) {
    let e = why["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["line"] == line)
        .unwrap_or_else(|| panic!("no reason for line {line}: {why:#}"))
        .clone();
    (
        e["reason"].as_str().unwrap().to_string(),
        e["kind"].as_str().unwrap().to_string(),
        e,
    )
}

#[test]
fn exec_records_a_reason_for_every_line_it_never_executes() {
    let dir = scratch("why-exec");
    let src_path = workspace().join("cargo-symtest/tests/it/fixtures/why.c");
    let src = std::fs::read_to_string(&src_path).unwrap();
    let bc = compile(&src_path, &dir, &[]).unwrap();

    let why = why_of(&bc, &dir.join("plain"), &[]);
    let (c, k, e) = reason_of(&why, line_of(&src, "CONCRETE"));
    assert_eq!((c.as_str(), k.as_str()), ("infeasible", "concrete"), "{e}");
    assert!(
        e["detail"].as_str().unwrap().contains("were 0..=4 and 4"),
        "the compared values: {e}"
    );
    let (c, k, e) = reason_of(&why, line_of(&src, "SOLVER"));
    assert_eq!((c.as_str(), k.as_str()), ("infeasible", "solver"), "{e}");
    assert_eq!(e["inputs"], serde_json::json!(["x (4 bytes)"]), "{e}");
    let (c, k, e) = reason_of(&why, line_of(&src, "PATH-ENDED"));
    assert_eq!(
        (c.as_str(), k.as_str()),
        ("not-reached", "path-ended"),
        "{e}"
    );
    assert_eq!(e["at"]["line"], line_of(&src, "leave();"), "{e}");
    let (c, k, e) = reason_of(&why, line_of(&src, "NO-CALLER"));
    assert_eq!(
        (c.as_str(), k.as_str()),
        ("not-reached", "no-caller"),
        "{e}"
    );
    assert!(
        e["detail"].as_str().unwrap().contains("`by_pointer`"),
        "{e}"
    );
    // What only such a function calls: because of that function.
    let (c, k, e) = reason_of(&why, line_of(&src, "CALLED-BY-NO-CALLER"));
    assert_eq!(
        (c.as_str(), k.as_str()),
        ("not-reached", "no-caller"),
        "{e}"
    );
    assert!(
        e["detail"].as_str().unwrap().contains("`by_pointer`"),
        "{e}"
    );
    // Every line the run never executed has a reason, and only those.
    let stats: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("plain/stats.json")).unwrap())
            .unwrap();
    let uncovered =
        stats["total_lines"].as_u64().unwrap() - stats["covered_lines"].as_u64().unwrap();
    assert_eq!(
        why["lines"].as_array().unwrap().len() as u64,
        uncovered,
        "{why:#}"
    );
    // The branch sides no path took, with the branch's line.
    let sides: Vec<u64> = why["branches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["line"].as_u64().unwrap())
        .collect();
    assert!(sides.contains(&(line_of(&src, "CONCRETE") - 1)), "{why:#}");

    // A digest cut: the side it did not explore, and what it fixed after.
    let why = why_of(&bc, &dir.join("digest"), &["--digest-depth", "3"]);
    let (c, k, e) = reason_of(&why, line_of(&src, "DIGEST"));
    assert_eq!(
        (c.as_str(), k.as_str()),
        ("heuristic", "digest-depth"),
        "{e}"
    );
    let (c, k, e) = reason_of(&why, line_of(&src, "PATH-ENDED"));
    assert_eq!(
        (c.as_str(), k.as_str()),
        ("heuristic", "digest-depth"),
        "{e}"
    );
    assert!(
        e["detail"]
            .as_str()
            .unwrap()
            .contains("inputs had been fixed"),
        "{e}"
    );
    // The concrete condition before any cut stays infeasible.
    let (c, _, e) = reason_of(&why, line_of(&src, "CONCRETE"));
    assert_eq!(c, "infeasible", "{e}");

    // Stopped early: code states were still waiting for is pending.
    let why = why_of(&bc, &dir.join("short"), &["--max-instructions", "200"]);
    assert!(why["pending_states"].as_u64().unwrap() > 0, "{why:#}");
    let pending = why["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["reason"] == "pending")
        .count();
    assert!(pending > 0, "{why:#}");
}

fn run(args: &[&str], dir: &Path) -> std::process::Output {
    symtest_in(dir, args)
}

#[test]
fn the_pipeline_explains_every_uncovered_line_and_why_prints_it() {
    let proj = copy_fixture("program-project", "why-project");
    let o = run(&["--no-emit", "-j", "1", "--target", "first_byte"], &proj);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cov = proj.join("symtest-out/first_byte/coverage");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(cov.join("summary.json")).unwrap()).unwrap();
    let why: Value =
        serde_json::from_str(&std::fs::read_to_string(cov.join("why.json")).unwrap()).unwrap();
    // Every uncovered line and branch side has a reason.
    for f in summary["files"].as_array().unwrap() {
        let w = why["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["file"] == f["file"])
            .unwrap();
        let n = |k: &str| f[k].as_u64().unwrap();
        assert_eq!(
            w["lines"].as_array().unwrap().len() as u64,
            n("lines_total") - n("lines_covered"),
            "{w:#}"
        );
        assert_eq!(
            w["branches"].as_array().unwrap().len() as u64,
            n("branches_total") - n("branches_covered"),
            "{w:#}"
        );
    }
    // argc is fixed (one concrete argument); fopen of the symbolic file
    // cannot fail without --max-fail.
    let src = std::fs::read_to_string(proj.join("src/first_byte.c")).unwrap();
    let usage = line_of(&src, "return 2;");
    let failed = line_of(&src, "return 3;");
    let lines = why["files"][0]["lines"].as_array().unwrap();
    for l in [usage, failed] {
        let e = lines.iter().find(|e| e["line"] == l).unwrap();
        assert_eq!(e["reason"], "infeasible", "{e}");
        assert_eq!(e["kind"], "concrete", "{e}");
    }
    // The target's report counts them.
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(proj.join("symtest-out/first_byte/summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["why"]["lines"]["infeasible"], 2, "{}", report["why"]);

    // `cargo symtest why`.
    let o = run(&["why", "first_byte"], &proj);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text.starts_with("why uncovered: first_byte (2 lines"),
        "{text}"
    );
    assert!(text.contains("src/first_byte.c"), "{text}");
    let o = run(
        &["why", "first_byte", &format!("first_byte.c:{failed}")],
        &proj,
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text.starts_with(&format!(
            "src/first_byte.c:{failed}: infeasible (concrete): "
        )),
        "{text}"
    );
    assert!(
        text.contains("nearest executed predecessor: src/first_byte.c:"),
        "{text}"
    );
    let covered = line_of(&src, "fclose(f);");
    let o = run(
        &["why", "first_byte", &format!("src/first_byte.c:{covered}")],
        &proj,
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("covered by the kept tests"),
        "{o:?}"
    );
    let o = run(&["why", "first_byte", "--json"], &proj);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["target"], "first_byte");
    // Clear errors: unknown target, file, line; not FILE:LINE.
    for (args, says) in [
        (
            vec!["why", "nosuch"],
            "no target named `nosuch` (targets: mini_wc, first_byte, copy_in)",
        ),
        (
            vec!["why", "first_byte", "nosuch.c:3"],
            "no source file `nosuch.c`",
        ),
        (
            vec!["why", "first_byte", "src/first_byte.c:3"],
            "is not a line with code",
        ),
        (
            vec!["why", "first_byte", "src/first_byte.c"],
            "is not FILE:LINE",
        ),
        (vec!["why", "mini_wc"], "no results for target `mini_wc`"),
    ] {
        let o = run(&args, &proj);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A function only a local flag no code sets would call: whole-program
/// optimization removes it, its lines are `dead`, and the coverage over the
/// paper's ELOC leaves them out.
#[test]
fn lines_no_input_can_run_are_dead_and_left_out_of_eloc() {
    let proj = scratch("why-dead");
    std::fs::create_dir_all(proj.join("src")).unwrap();
    let src = "#include <string.h>\n\
static int checker(const char *s) {\n\
  int n = 0; /* DEAD */\n\
  while (*s)\n\
    n += *s++ == 'x';\n\
  return n;\n\
}\n\
int main(int argc, char **argv) {\n\
  int do_check = 0;\n\
  if (argc > 1 && strcmp(argv[1], \"-q\") == 0)\n\
    return 3;\n\
  if (do_check)\n\
    return checker(argv[0]);\n\
  return argc == 2;\n\
}\n";
    std::fs::write(proj.join("src/dead.c"), src).unwrap();
    std::fs::write(
        proj.join("symtest.toml"),
        "[[target]]\nname = \"dead\"\nkind = \"program\"\nsources = [\"src/dead.c\"]\nargs = [\"--sym-args\", \"0\", \"1\", \"2\"]\nmax-time = 5\n",
    )
    .unwrap();
    let o = run(&["--no-emit", "-j", "1"], &proj);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cov = proj.join("symtest-out/dead/coverage");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(cov.join("summary.json")).unwrap()).unwrap();
    let f = &summary["files"][0];
    assert_eq!(f["dead_functions"], serde_json::json!(["checker"]), "{f:#}");
    let dead = f["dead_lines"].as_u64().unwrap();
    assert!(dead >= 4, "checker's lines: {f:#}");
    assert_eq!(
        f["eloc_lines_total"].as_u64().unwrap(),
        f["lines_total"].as_u64().unwrap() - dead,
        "{f:#}"
    );
    // Everything else is covered but the call under the flag: the analysis
    // removes whole functions, and that line is main's.
    assert_eq!(
        summary["eloc_lines_covered"].as_u64().unwrap() + 1,
        summary["eloc_lines_total"].as_u64().unwrap(),
        "{summary:#}"
    );
    assert_eq!(
        summary["eloc_lines_covered"], f["lines_covered"],
        "{summary:#}"
    );
    // Their reason (the call under the flag keeps the engine's), and the
    // counts of the target's report.
    let why_at = |marker: &str| {
        let at = format!("src/dead.c:{}", line_of(src, marker));
        let o = run(&["why", "dead", &at], &proj);
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let text = why_at("DEAD");
    assert!(
        text.contains("dead (removed-by-optimization): in `checker`"),
        "{text}"
    );
    let text = why_at("return checker");
    assert!(text.contains(": infeasible (concrete)"), "{text}");
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(proj.join("symtest-out/dead/summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["why"]["lines"]["dead"], dead, "{}", report["why"]);
    assert_eq!(
        report["eloc_lines"],
        serde_json::json!([f["lines_covered"], f["eloc_lines_total"]]),
        "{report:#}"
    );
}
