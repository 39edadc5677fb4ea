//! SARIF 2.1.0 (code scanning) from the bugs found.

use crate::baseline::Bug;
use crate::report::TargetReport;
use serde_json::{json, Value};

const RULES: &[(&str, &str)] = &[
    (
        "ptr",
        "Invalid memory access (out of bounds, null, use after free)",
    ),
    ("free", "Invalid or double free"),
    ("div", "Division or remainder by zero"),
    ("overflow", "Integer overflow or invalid shift"),
    ("assert", "Assertion failure"),
    ("abort", "Call to abort"),
    ("readonly", "Write to read-only memory"),
    (
        "user",
        "Error reported by the program (symtest_report_error)",
    ),
];

fn result(b: &Bug, rule_index: usize) -> Value {
    json!({
        "ruleId": b.kind,
        "ruleIndex": rule_index,
        "level": "error",
        "message": { "text": format!("{} in {} (symtest target `{}`; stack: {})", b.message, b.function, b.target, b.stack.join(" <- ")) },
        "locations": [{
            "physicalLocation": {
                "artifactLocation": { "uri": b.file.replace('\\', "/"), "uriBaseId": "%SRCROOT%" },
                "region": { "startLine": b.line.max(1) }
            },
            "logicalLocations": [{ "name": b.function, "kind": "function" }]
        }],
        "partialFingerprints": { "symtestBugId/v1": format!("{}/{}", b.target, b.id) }
    })
}

/// The SARIF log of a run.
pub fn render(reports: &[TargetReport]) -> String {
    let mut rules: Vec<Value> = RULES
        .iter()
        .map(|(id, d)| json!({ "id": id, "name": id, "shortDescription": { "text": d } }))
        .collect();
    rules.push(json!({
        "id": "behaviour-change",
        "name": "behaviour-change",
        "shortDescription": { "text": "A test of the committed regression suite behaves differently on the new code" }
    }));
    let mut results: Vec<Value> = reports
        .iter()
        .flat_map(|r| r.bugs.iter())
        .map(|b| {
            result(
                b,
                RULES.iter().position(|(id, _)| *id == b.kind).unwrap_or(0),
            )
        })
        .collect();
    // Behaviour changes of a gate run: notes, not bugs.
    for r in reports {
        for b in &r.behaviour_changes {
            results.push(json!({
                "ruleId": "behaviour-change",
                "ruleIndex": RULES.len(),
                "level": "note",
                "message": { "text": format!(
                    "behaviour change in symtest target `{}`: test {}: {}{}",
                    r.name,
                    b.test,
                    b.detail,
                    b.reproduce.as_ref().map(|x| format!(" (reproduce: {x})")).unwrap_or_default()
                ) },
                "partialFingerprints": { "symtestBehaviour/v1": format!("{}/{}", r.name, b.test) }
            }));
        }
    }
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "symtest",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules
            }},
            "results": results
        }]
    });
    serde_json::to_string_pretty(&log).expect("serializable")
}
