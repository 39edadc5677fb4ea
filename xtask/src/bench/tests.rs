//! The suite benchmark end to end: two harness programs and one whole
//! program, a tiny budget, real runs of both tools, then checks that the
//! report's figures are present, come from gcov files, and that both tools
//! had the same budget. (The debug
//! engine, which the workspace's tests build anyway.)

use super::gcov;
use super::suite::{run, Options};
use crate::paths;

#[test]
fn quick_bench_on_three_programs() {
    let out = super::target_dir(&paths::workspace_root()).join("bench-selftest");
    let _ = std::fs::remove_dir_all(&out);
    let budget = 3.0;
    let results = run(&Options {
        quick: true,
        budget_s: Some(budget),
        only: vec!["csv_parse".into(), "ring_buffer".into(), "wc".into()],
        out: Some(out.clone()),
        release: false,
    })
    .expect("bench runs");
    assert_eq!(results.len(), 3);

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    let programs = json["programs"].as_array().unwrap();
    assert_eq!(programs.len(), 3);
    for p in programs {
        for tool in ["symtest", "random"] {
            let t = &p[tool];
            // same budget, and each tool kept to it (with slack for start-up)
            assert_eq!(t["budget_s"].as_f64(), Some(budget), "{tool}");
            let wall = t["wall_s"].as_f64().unwrap();
            assert!(
                wall >= budget * 0.9 || tool == "symtest",
                "{tool} ran {wall} s"
            );
            assert!(wall < budget + 5.0, "{tool} ran {wall} s");
            for k in [
                "tests",
                "lines_total",
                "lines_covered",
                "line_pct",
                "branches_total",
                "branches_taken",
                "branch_pct",
            ] {
                assert!(t[k].is_number(), "{tool}.{k} missing");
            }
            assert!(t["tests"].as_u64().unwrap() > 0, "{tool} kept no test");
            assert!(t["lines_total"].as_u64().unwrap() > 30);
            assert!(t["line_pct"].as_f64().unwrap() > 0.0);
            assert_eq!(t["gcov_consistent"], true, "{tool}");
            // the figures are those of the .gcov file gcov wrote
            let file = std::path::PathBuf::from(t["gcov_file"].as_str().unwrap());
            assert_eq!(file.extension().unwrap(), "gcov");
            let text = std::fs::read_to_string(&file).unwrap();
            assert!(text.contains("0:Source:"), "{}", file.display());
            let c = gcov::parse(&text);
            assert_eq!(c.lines.len() as u64, t["lines_total"].as_u64().unwrap());
            assert_eq!(c.covered.len() as u64, t["lines_covered"].as_u64().unwrap());
            assert_eq!(c.taken.len() as u64, t["branches_taken"].as_u64().unwrap());
        }
        // the tools' own accounts of their budget
        assert_eq!(p["random"]["stats"]["budget_s"].as_f64(), Some(budget));
        assert!(p["symtest"]["stats"]["time_s"].as_f64().unwrap() <= budget + 1.0);
        assert!(p["symtest"]["stats"]["instructions"].as_f64().unwrap() > 0.0);
        assert!(p["symtest"]["stats"]["solver_layers"].is_array());
    }
    // the random tool's tests are KLEE .ktest files
    let rnd = out.join("programs").join("csv_parse").join("random-out");
    let k = symtest_ktest::KTest::read_from(rnd.join("test000001.ktest")).unwrap();
    assert_eq!(k.objects[0].name, "len");
    assert_eq!(k.objects[1].name, "text");
    // csv_parse's planted bug is found by symtest within 3 s
    let csv = programs.iter().find(|p| p["name"] == "csv_parse").unwrap();
    assert_eq!(csv["symtest"]["planted_found"], 1);
    let ring = programs
        .iter()
        .find(|p| p["name"] == "ring_buffer")
        .unwrap();
    assert_eq!(ring["planted"].as_array().unwrap().len(), 0);

    // the whole program: random inputs of the target's shapes, recorded as
    // the POSIX environment's objects, and both tools' tests replayed
    // natively (`replay --native`) with coverage from gcov
    let wc = programs.iter().find(|p| p["name"] == "wc").unwrap();
    let shape = [
        "--sym-args",
        "0",
        "3",
        "4",
        "--sym-files",
        "1",
        "8",
        "--sym-stdin",
        "8",
    ];
    let rnd = out.join("programs").join("wc").join("random-out");
    let k = symtest_ktest::KTest::read_from(rnd.join("test000001.ktest")).unwrap();
    assert_eq!(k.args[0], "program");
    assert_eq!(&k.args[1..], shape);
    let names: Vec<&str> = k.objects.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "n_args",
            "arg00",
            "arg01",
            "arg02",
            "A-data",
            "A-data-stat",
            "stdin",
            "stdin-stat",
            "model_version"
        ]
    );
    for tool in ["symtest", "random"] {
        // wc has about 40 executable lines; any test covers its main
        assert!(wc[tool]["lines_covered"].as_u64().unwrap() >= 10, "{tool}");
        assert_eq!(wc[tool]["replay_mismatches"], 0, "{tool}");
    }
    assert!(
        wc["symtest"]["stats"]["paths_completed"]
            .as_u64()
            .unwrap_or(1)
            > 0
    );

    let md = std::fs::read_to_string(out.join("bench.md")).unwrap();
    assert!(md.contains("| csv_parse |") && md.contains("| **overall** |"));
    assert!(md.contains("| **average** |") && md.contains("| **median** |"));
    let svg = std::fs::read_to_string(out.join("coverage.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("polyline"));
}
