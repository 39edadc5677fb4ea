//! Tests of the why report: classification and its text.

use super::*;
use serde_json::json;

/// A source file, the native coverage of the kept tests, and the
/// engine's claim and record for it.
fn setup() -> (tempdir::Dir, PathBuf, FileCoverage, serde_json::Value) {
    let dir = tempdir::Dir::new("why-classify");
    let src = dir.0.join("a.c");
    std::fs::write(
        &src,
        "int f(int x) {\n  if (x > 3)\n    return 1;\n  if (!x)\n    return 2;\n  return 0;\n}\nint g(void) {\n  return 5;\n}\n",
    )
    .unwrap();
    let mut fc = FileCoverage::default();
    for (l, c) in [
        (1, 2),
        (2, 2),
        (3, 0),
        (4, 2),
        (5, 0),
        (6, 2),
        (7, 2),
        (8, 0),
        (9, 0),
    ] {
        fc.lines.insert(l, c);
    }
    // `x > 3` never held; `!x` never held (the compiler put its sides the
    // other way round: the engine's untaken side is `false`).
    for (k, c, region) in [
        ((2, 0), 0, (7, 2, 11)),
        ((2, 1), 2, (7, 2, 11)),
        ((4, 0), 0, (7, 4, 8)),
        ((4, 1), 2, (7, 4, 8)),
    ] {
        fc.branches.insert(k, c);
        fc.regions.insert(k, region);
    }
    let name = src.display().to_string();
    let reason = |kind: &str, detail: &str| json!({"reason": "infeasible", "kind": kind, "detail": format!("{detail} at {name}:2"), "at": {"file": name, "line": 2, "col": 9}});
    let mut r3 = reason("solver", "x > 3");
    r3["file"] = json!(name);
    r3["line"] = json!(3);
    let mut r9 =
        json!({"reason": "not-reached", "kind": "no-caller", "detail": "no state entered `g`"});
    r9["file"] = json!(name);
    r9["line"] = json!(9);
    let mut b2 = reason("solver", "x > 3");
    b2["file"] = json!(name);
    b2["line"] = json!(2);
    b2["col"] = json!(9);
    b2["side"] = json!("true");
    let mut b4 = reason("concrete", "!x");
    b4["file"] = json!(name);
    b4["line"] = json!(4);
    b4["col"] = json!(8);
    b4["side"] = json!("false");
    let claim = json!({
        "lines": {name.clone(): [2, 4, 5, 6]},
        "why": {"lines": [r3, r9], "branches": [b2, b4], "pending_states": 0, "suspended_states": 0},
    });
    (dir, src, fc, claim)
}

/// [`classify`] of the fixture's one file (no kept tests), its lines in
/// `dead` being dead.
fn classify_fixture(
    dir: &tempdir::Dir,
    src: PathBuf,
    fc: FileCoverage,
    claim: &serde_json::Value,
    dead: &BTreeMap<PathBuf, BTreeMap<u32, String>>,
) -> WhyReport {
    let sources = ClaimSources {
        tests: &[],
        verdicts: &[],
    };
    classify("t", &dir.0, &dir.0, &[(src, fc)], claim, &sources, dead)
}

#[test]
fn each_uncovered_line_and_branch_side_gets_a_reason() {
    let (dir, src, fc, claim) = setup();
    let r = classify_fixture(&dir, src, fc, &claim, &BTreeMap::new());
    let f = &r.files[0];
    assert_eq!(f.file, "a.c");
    let by_line: BTreeMap<u32, &Reason> = f.lines.iter().map(|l| (l.line, &l.reason)).collect();
    assert_eq!(by_line.keys().copied().collect::<Vec<_>>(), [3, 5, 8, 9]);
    // The engine's own record, its paths shown relative to the root.
    assert_eq!(by_line[&3].reason, "infeasible");
    assert_eq!(by_line[&3].detail, "x > 3 at a.c:2");
    assert_eq!(by_line[&3].at.as_deref(), Some("a.c:2"));
    // Claimed by the engine, not executed natively: no test.
    assert_eq!(by_line[&5].reason, "no-test");
    assert!(
        by_line[&5].detail.starts_with("no test:"),
        "{}",
        by_line[&5].detail
    );
    // A function's header line: the reason of its first statement.
    assert_eq!(by_line[&8].kind, "no-caller");
    assert_eq!(by_line[&8], by_line[&9]);
    // Branch sides: by the condition's extent; the inverted one too.
    let sides: Vec<(u32, u32, &str, &str)> = f
        .branches
        .iter()
        .map(|b| {
            (
                b.line,
                b.index,
                b.reason.reason.as_str(),
                b.reason.kind.as_str(),
            )
        })
        .collect();
    assert_eq!(
        sides,
        [
            (2, 0, "infeasible", "solver"),
            (4, 0, "infeasible", "concrete")
        ]
    );
    assert_eq!(r.counts.lines["no-test"], 1);
    assert_eq!(r.counts.lines["infeasible"], 1);
    assert_eq!(r.counts.lines["not-reached"], 2);
    assert_eq!(r.counts.branches["infeasible"], 2);
    // The text groups runs of lines and answers for one line.
    let t = text(&r);
    assert!(
        t.starts_with("why uncovered: t (4 lines, 2 branch sides"),
        "{t}"
    );
    assert!(t.contains("  8-9: not-reached (no-caller): "), "{t}");
    let one = line_text(&r, "a.c", 3).unwrap();
    assert!(
        one.starts_with("a.c:3: infeasible (solver): x > 3 at a.c:2\n"),
        "{one}"
    );
    assert!(line_text(&r, "a.c", 1)
        .unwrap()
        .contains("covered by the kept tests"));
    assert!(line_text(&r, "a.c", 12).is_err());
    assert!(line_text(&r, "b.c", 3).is_err());
}

#[test]
fn without_the_engine_s_record_every_line_still_has_a_reason() {
    let (dir, src, fc, _) = setup();
    let r = classify_fixture(&dir, src, fc, &json!({}), &BTreeMap::new());
    assert_eq!(r.files[0].lines.len(), 4);
    assert!(r.files[0]
        .lines
        .iter()
        .all(|l| l.reason.kind == "no-engine-record"));
}

/// A `case` label the kept tests never match, whose destination the
/// engine ran through another label: no test; a plain condition on a
/// line the engine executed with both sides taken: no test either; a
/// line the engine never executed: not reached.
#[test]
fn case_labels_and_conditions_without_an_engine_record() {
    let dir = tempdir::Dir::new("why-case");
    let names = Names::new(&dir.0, &dir.0);
    let mut e = EngineFile::default();
    e.claimed.extend([10, 12]);
    let side = |line, case_label| NativeSide {
        line,
        want: "true",
        extent: (5, line, 20),
        other: 3,
        case_label,
    };
    let r = branch_reason(&e, &names, &side(11, true), None);
    assert_eq!(
        (r.reason.as_str(), r.kind.as_str()),
        ("no-test", "case-shared")
    );
    let r = branch_reason(&e, &names, &side(10, false), None);
    assert_eq!(
        (r.reason.as_str(), r.kind.as_str()),
        ("no-test", "branch-taken")
    );
    let r = branch_reason(&e, &names, &side(11, false), None);
    assert_eq!(
        (r.reason.as_str(), r.kind.as_str()),
        ("not-reached", "engine-not-here")
    );
    // Never evaluated: the earlier condition's reason.
    let earlier = reason("infeasible", "concrete", "x".into());
    let r = branch_reason(
        &e,
        &names,
        &NativeSide {
            other: 0,
            ..side(10, false)
        },
        Some(&earlier),
    );
    assert_eq!(r.kind, "concrete");
    assert!(
        r.detail.starts_with("the condition is never evaluated"),
        "{}",
        r.detail
    );
}

/// A scratch directory removed on drop.
mod tempdir {
    pub struct Dir(pub std::path::PathBuf);
    impl Dir {
        pub fn new(name: &str) -> Dir {
            let d = std::env::temp_dir().join(format!("symtest-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            Dir(d.canonicalize().unwrap())
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Lines of a function whole-program optimization removes are `dead`,
/// whatever the engine says of them; the others keep the engine's reason.
#[test]
fn lines_of_removed_functions_are_dead() {
    let (dir, src, fc, claim) = setup();
    let dead: BTreeMap<PathBuf, BTreeMap<u32, String>> = [(
        src.clone(),
        [(8, "g".to_string()), (9, "g".to_string())].into(),
    )]
    .into();
    let r = classify_fixture(&dir, src, fc, &claim, &dead);
    let by_line: BTreeMap<u32, &Reason> = r.files[0]
        .lines
        .iter()
        .map(|l| (l.line, &l.reason))
        .collect();
    assert_eq!(by_line[&9].reason, "dead");
    assert!(by_line[&9].detail.contains("`g`"), "{}", by_line[&9].detail);
    assert_eq!(by_line[&8].reason, "dead");
    assert_eq!(by_line[&3].reason, "infeasible");
    assert_eq!(r.counts.lines.get("dead"), Some(&2));
    assert!(
        r.counts.text().contains("dead 2 lines"),
        "{}",
        r.counts.text()
    );
}
