//! Reading a `cargo symtest --message-format json` run's events: the
//! native disagreements and panics per target, and the bugs of a report.

use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// The events of a `--message-format json` run, one JSON value per line
/// (lines that are not JSON left out).
pub(crate) fn read_events(path: &Path) -> Result<Vec<serde_json::Value>> {
    let events = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(String::from_utf8_lossy(&events)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

/// Counts in `differs` a kept test whose native run, recorded for the
/// suite, differs from the engine's outcome, and notes in `panics` a target
/// whose message reports a panic.
pub(crate) fn note_event(
    v: &serde_json::Value,
    differs: &mut BTreeMap<String, u64>,
    panics: &mut Vec<String>,
) {
    let target = v["target"].as_str().unwrap_or("");
    let text = v["text"].as_str().unwrap_or("");
    if v["event"] == "message"
        && (text.starts_with("native run disagrees with the engine when recorded")
            || text.starts_with("native replay differs"))
    {
        *differs.entry(target.to_string()).or_default() += 1;
    }
    if text.contains("panicked at") && !target.is_empty() {
        panics.push(target.to_string());
    }
}

/// A report's `bugs` as `KIND in FUNCTION at FILE:LINE` lines.
pub(crate) fn bug_lines(bugs: &serde_json::Value) -> Vec<String> {
    bugs.as_array()
        .into_iter()
        .flatten()
        .map(|b| {
            format!(
                "{} in {} at {}:{}",
                b["kind"].as_str().unwrap_or(""),
                b["function"].as_str().unwrap_or(""),
                b["file"].as_str().unwrap_or(""),
                b["line"]
            )
        })
        .collect()
}
