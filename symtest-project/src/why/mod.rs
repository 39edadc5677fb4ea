//! Why uncovered: a reason for every line and branch side of the target's
//! sources that no kept test executes natively (`coverage/why.json`,
//! `coverage/why.txt`; `cargo symtest why` prints them).
//!
//! The native coverage of the kept tests says what is uncovered; the
//! engine's record (`coverage.json`'s `why`, written by `exec`) says why:
//! - `not-reached`: no state ever executed it (with the nearest executed
//!   predecessor);
//! - `infeasible`: a state reached the branch before it, but the condition
//!   could not hold under the symbolic environment (the solver said so, or it
//!   was concrete);
//! - `heuristic`: a heuristic cut it (`--digest-depth`, `--library-forks`, a
//!   solver time-out or unknown, `--max-forks`, the memory cap);
//! - `pending`: a state still pending or suspended at the deadline was at or
//!   before it;
//! - `no-test`: the engine executed it, but no kept test does natively (the
//!   path that did wrote no test, or its native run went elsewhere);
//! - `dead`: it is in a function whole-program optimization removes
//!   ([`crate::eloc`]): no input can run it.

use crate::covdata::FileCoverage;
use crate::coverage::ClaimSources;
use crate::fsutil::relative;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod render;
#[cfg(test)]
mod tests;

pub use render::{line_text, text};

/// The categories, in the order reports list them.
pub const CATEGORIES: [&str; 6] = [
    "not-reached",
    "infeasible",
    "heuristic",
    "pending",
    "no-test",
    "dead",
];

/// One reason.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Reason {
    /// One of [`CATEGORIES`].
    pub reason: String,
    /// What exactly (`no-caller`, `path-ended`, `solver`, `concrete`,
    /// `digest-depth`, `library-forks`, `waiting`, `claimed`, ...).
    pub kind: String,
    pub detail: String,
    /// The nearest executed predecessor (`file:line`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The symbolic inputs an infeasible condition reads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<String>,
    /// States still pending at the deadline could reach it: the reason is
    /// what the run saw so far.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pending_can_reach: bool,
    /// A run with seeds of its own (the project's tests, `--seed-file`):
    /// `reached` when a seeded path executed the branch this comes from
    /// (the seeds got there, exploration could not vary them past it),
    /// `not-reached` when no seed did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LineWhy {
    pub line: u32,
    #[serde(flatten)]
    pub reason: Reason,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BranchWhy {
    pub line: u32,
    /// The side's index on its line, as in the `.gcov`/lcov branch data
    /// (`2k`: the `k`-th condition holds, `2k + 1`: it fails).
    pub index: u32,
    /// The condition's first column.
    pub col: u32,
    /// `true` or `false`.
    pub side: String,
    #[serde(flatten)]
    pub reason: Reason,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FileWhy {
    /// Relative to the project root.
    pub file: String,
    pub lines_total: u64,
    /// The lines the kept tests execute.
    pub covered: Vec<u32>,
    pub lines: Vec<LineWhy>,
    pub branches: Vec<BranchWhy>,
}

/// Uncovered lines and branch sides per category.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Counts {
    pub lines: BTreeMap<String, u64>,
    pub branches: BTreeMap<String, u64>,
    /// Lines whose reason is not `pending` but which states still pending at
    /// the deadline could reach.
    #[serde(default)]
    pub lines_pending_can_reach: u64,
}

impl Counts {
    fn add(map: &mut BTreeMap<String, u64>, category: &str) {
        *map.entry(category.to_string()).or_default() += 1;
    }

    /// `category: lines / branch sides` for the categories that occur.
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        for c in CATEGORIES {
            let (l, b) = (
                self.lines.get(c).copied().unwrap_or(0),
                self.branches.get(c).copied().unwrap_or(0),
            );
            if l + b > 0 {
                parts.push(format!("{c} {l} lines, {b} branch sides"));
            }
        }
        if parts.is_empty() {
            "nothing uncovered".into()
        } else if self.lines_pending_can_reach > 0 {
            format!(
                "{} ({} of the lines not pending are reachable from states pending at the deadline)",
                parts.join("; "),
                self.lines_pending_can_reach
            )
        } else {
            parts.join("; ")
        }
    }
}

/// `coverage/why.json`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct WhyReport {
    pub target: String,
    pub counts: Counts,
    /// States still pending (in memory, suspended) when exploration ended.
    pub pending_states: u64,
    pub suspended_states: u64,
    pub files: Vec<FileWhy>,
}

/// The engine's record of one reason, as `coverage.json` holds it.
#[derive(Deserialize)]
struct EngineReason {
    reason: String,
    kind: String,
    detail: String,
    #[serde(default)]
    at: Option<EngineAt>,
    #[serde(default)]
    inputs: Vec<String>,
    #[serde(default)]
    pending_can_reach: bool,
    #[serde(default)]
    seeds: Option<String>,
}

#[derive(Deserialize)]
struct EngineAt {
    file: String,
    line: u32,
}

#[derive(Deserialize)]
struct EngineLine {
    file: String,
    line: u32,
    #[serde(flatten)]
    reason: EngineReason,
}

#[derive(Deserialize)]
struct EngineBranch {
    file: String,
    line: u32,
    col: u32,
    side: String,
    #[serde(default)]
    target_line: Option<u32>,
    #[serde(flatten)]
    reason: EngineReason,
}

#[derive(Deserialize, Default)]
struct EngineWhy {
    #[serde(default)]
    lines: Vec<EngineLine>,
    #[serde(default)]
    branches: Vec<EngineBranch>,
    #[serde(default)]
    pending_states: u64,
    #[serde(default)]
    suspended_states: u64,
}

/// Paths the engine names, resolved against the project root once each.
struct Names<'a> {
    /// Where relative names resolve (the target's directory).
    base: &'a Path,
    prefixes: Vec<String>,
    resolved: BTreeMap<String, Option<PathBuf>>,
}

impl<'a> Names<'a> {
    fn new(base: &'a Path, root: &Path) -> Names<'a> {
        let mut prefixes = vec![format!("{}/", root.display())];
        if let Ok(c) = root.canonicalize() {
            let c = format!("{}/", c.display());
            if !prefixes.contains(&c) {
                prefixes.push(c);
            }
        }
        Names {
            base,
            prefixes,
            resolved: BTreeMap::new(),
        }
    }

    /// The engine's file name as a path, canonical when it exists.
    fn path(&mut self, name: &str) -> Option<PathBuf> {
        let base = self.base;
        self.resolved
            .entry(name.to_string())
            .or_insert_with(|| {
                let p = PathBuf::from(name);
                let p = if p.is_absolute() { p } else { base.join(p) };
                Some(p.canonicalize().unwrap_or(p))
            })
            .clone()
    }

    /// Text with the project root's prefix removed from paths.
    fn relative_text(&self, text: &str) -> String {
        let mut t = text.to_string();
        for p in &self.prefixes {
            t = t.replace(p.as_str(), "");
        }
        t
    }

    fn reason(&self, r: &EngineReason) -> Reason {
        Reason {
            reason: r.reason.clone(),
            kind: r.kind.clone(),
            detail: self.relative_text(&r.detail),
            at: r
                .at
                .as_ref()
                .map(|a| format!("{}:{}", self.relative_text(&a.file), a.line)),
            inputs: r.inputs.clone(),
            pending_can_reach: r.pending_can_reach,
            seeds: r.seeds.clone(),
        }
    }
}

fn reason(category: &str, kind: &str, detail: String) -> Reason {
    Reason {
        reason: category.into(),
        kind: kind.into(),
        detail,
        at: None,
        inputs: Vec::new(),
        pending_can_reach: false,
        seeds: None,
    }
}

/// What the engine says about one source file.
#[derive(Default)]
struct EngineFile<'e> {
    claimed: BTreeSet<u32>,
    lines: BTreeMap<u32, &'e EngineReason>,
    branches: Vec<&'e EngineBranch>,
}

/// A line without an engine record of its own (a function's header or
/// closing brace, a declaration): the reason of the nearest line that has
/// one (the first statement after a header, the last before a closing
/// brace), or what the engine's coverage near it says.
fn nearby(line: u32, text: &str, e: &EngineFile, names: &Names) -> Reason {
    let closing = text.trim_start().starts_with('}');
    let after = (line + 1..=line + 30).collect::<Vec<_>>();
    let before = (line.saturating_sub(30).max(1)..line)
        .rev()
        .collect::<Vec<_>>();
    let order = if closing {
        [before, after]
    } else {
        [after, before]
    };
    for &c in order.iter().flatten() {
        if let Some(r) = e.lines.get(&c) {
            return names.reason(r);
        }
        if e.claimed.contains(&c) {
            return if closing {
                reason(
                    "not-reached",
                    "no-return",
                    format!("the function ends here and no kept test returned through its end (line {c} before it was executed: paths left the function another way)"),
                )
            } else {
                reason(
                    "no-test",
                    "claimed-nearby",
                    format!("the engine executed line {c} next to it, but no kept test executes this part natively"),
                )
            };
        }
    }
    reason(
        "not-reached",
        "no-engine-line",
        "the engine has no code on or near this line (no state executed anything it records here)"
            .into(),
    )
}

/// Classifies what the kept tests leave uncovered in `files` (their native
/// coverage), using the engine's claim and record (`claim`, the contents of
/// `coverage.json`, whose relative names resolve against `base`); paths are
/// shown relative to the project's `root`. `dead` holds, per file, the lines
/// of functions whole-program optimization removes, with their function.
pub fn classify(
    target: &str,
    base: &Path,
    root: &Path,
    files: &[(PathBuf, FileCoverage)],
    claim: &serde_json::Value,
    sources: &ClaimSources,
    dead: &BTreeMap<PathBuf, BTreeMap<u32, String>>,
) -> WhyReport {
    let engine: EngineWhy = claim
        .get("why")
        .and_then(|w| serde_json::from_value(w.clone()).ok())
        .unwrap_or_default();
    let mut names = Names::new(base, root);
    let by_file = engine_by_file(claim, &engine, &mut names);
    let no_record = claim.get("lines").is_none();
    let empty = EngineFile::default();
    let mut report = WhyReport {
        target: target.to_string(),
        pending_states: engine.pending_states,
        suspended_states: engine.suspended_states,
        ..WhyReport::default()
    };
    for (src, fc) in files {
        let key = src.canonicalize().unwrap_or_else(|_| src.clone());
        let e = by_file.get(&key).unwrap_or(&empty);
        let text = std::fs::read_to_string(src).unwrap_or_default();
        let source: Vec<&str> = text.lines().collect();
        let mut fw = FileWhy {
            file: relative(src, root).display().to_string(),
            lines_total: fc.lines.len() as u64,
            covered: fc.covered_lines().into_iter().collect(),
            ..FileWhy::default()
        };
        // Without the engine's record (it was stopped), no engine reason.
        let record = (!no_record).then_some((e, &names));
        let line_reason = line_reasons(fc, record, dead.get(src), &source, |line| {
            sources.cause(base, src, line)
        });
        fw.branches = branch_whys(fc, e, &names, &line_reason, &source);
        fw.lines = line_reason
            .into_iter()
            .map(|(line, reason)| LineWhy { line, reason })
            .collect();
        for l in &fw.lines {
            Counts::add(&mut report.counts.lines, &l.reason.reason);
            if l.reason.pending_can_reach && l.reason.reason != "pending" {
                report.counts.lines_pending_can_reach += 1;
            }
        }
        for b in &fw.branches {
            Counts::add(&mut report.counts.branches, &b.reason.reason);
        }
        report.files.push(fw);
    }
    report
}

/// The engine's claim (`claim`'s `lines`) and record (`engine`) per source
/// file, by the path its name resolves to.
fn engine_by_file<'e>(
    claim: &serde_json::Value,
    engine: &'e EngineWhy,
    names: &mut Names,
) -> BTreeMap<PathBuf, EngineFile<'e>> {
    let mut by_file: BTreeMap<PathBuf, EngineFile> = BTreeMap::new();
    if let Some(lines) = claim.get("lines").and_then(|l| l.as_object()) {
        for (f, ls) in lines {
            let Some(p) = names.path(f) else { continue };
            by_file.entry(p).or_default().claimed.extend(
                ls.as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_u64())
                    .map(|v| v as u32),
            );
        }
    }
    for l in &engine.lines {
        if let Some(p) = names.path(&l.file) {
            by_file
                .entry(p)
                .or_default()
                .lines
                .insert(l.line, &l.reason);
        }
    }
    for b in &engine.branches {
        if let Some(p) = names.path(&b.file) {
            by_file.entry(p).or_default().branches.push(b);
        }
    }
    by_file
}

/// The text of line `l` (from 1) of `source`, or "".
fn source_line<'s>(source: &[&'s str], l: u32) -> &'s str {
    source.get(l as usize - 1).copied().unwrap_or("")
}

/// Why each line of `fc` the kept tests never ran is uncovered: removed by
/// optimization (`dead_here`), no engine record (`engine` is `None`), the
/// engine claims it (`cause` says why no kept test runs it natively), the
/// engine's reason, or what the engine did nearby.
fn line_reasons(
    fc: &FileCoverage,
    engine: Option<(&EngineFile, &Names)>,
    dead_here: Option<&BTreeMap<u32, String>>,
    source: &[&str],
    cause: impl Fn(u32) -> String,
) -> BTreeMap<u32, Reason> {
    let mut line_reason: BTreeMap<u32, Reason> = BTreeMap::new();
    for (&line, &count) in &fc.lines {
        if count > 0 {
            continue;
        }
        let r = if let Some(f) = dead_here.and_then(|d| d.get(&line)) {
            reason(
                "dead",
                "removed-by-optimization",
                format!("in `{f}`, which whole-program optimization removes: once constants are propagated across functions no call to it remains, so no input runs it (not an executable line in the KLEE paper's sense)"),
            )
        } else if let Some((e, names)) = engine {
            if e.claimed.contains(&line) {
                reason("no-test", "claimed", cause(line))
            } else if let Some(r) = e.lines.get(&line) {
                names.reason(r)
            } else {
                nearby(line, source_line(source, line), e, names)
            }
        } else {
            reason(
                "not-reached",
                "no-engine-record",
                "the engine left no record (it was stopped by the watchdog)".into(),
            )
        };
        line_reason.insert(line, r);
    }
    line_reason
}

/// Why each branch side of `fc` the kept tests never took is uncovered:
/// its line's reason when the line is uncovered (`line_reason`), else the
/// engine's account of the condition.
fn branch_whys(
    fc: &FileCoverage,
    e: &EngineFile,
    names: &Names,
    line_reason: &BTreeMap<u32, Reason>,
    source: &[&str],
) -> Vec<BranchWhy> {
    let mut branches: Vec<BranchWhy> = Vec::new();
    for (&(line, index), &count) in &fc.branches {
        if count > 0 {
            continue;
        }
        let want = if index % 2 == 0 { "true" } else { "false" };
        let (col, end_line, end_col) =
            fc.regions
                .get(&(line, index))
                .copied()
                .unwrap_or((0, line, u32::MAX));
        let other = fc.branches.get(&(line, index ^ 1)).copied().unwrap_or(0);
        // An earlier condition of the line with a side never taken: what
        // keeps a later one from being evaluated.
        let earlier = branches
            .iter()
            .rev()
            .find(|b| b.line == line && b.index / 2 < index / 2)
            .map(|b| &b.reason);
        let r = match line_reason.get(&line) {
            Some(r) => {
                let mut r = r.clone();
                r.detail = format!("its line is not covered: {}", r.detail);
                r
            }
            None => branch_reason(
                e,
                names,
                &NativeSide {
                    line,
                    want,
                    extent: (col, end_line, end_col),
                    other,
                    case_label: {
                        let t = source_line(source, line).trim_start();
                        t.starts_with("case ") || t.starts_with("default")
                    },
                },
                earlier,
            ),
        };
        branches.push(BranchWhy {
            line,
            index,
            col,
            side: want.to_string(),
            reason: r,
        });
    }
    branches
}

/// A side of a condition the kept tests never take, as llvm-cov shows it.
struct NativeSide<'a> {
    line: u32,
    /// `true` or `false`.
    want: &'a str,
    /// (column, end line, end column) of the condition.
    extent: (u32, u32, u32),
    /// How often the kept tests take the condition's other side.
    other: u64,
    /// The line is a `case`/`default` label.
    case_label: bool,
}

/// The reason a side of a condition on a covered line was never taken:
/// the engine's record of the branch whose condition lies in the same
/// extent, else what the engine did on that line. `earlier`: the reason of
/// an earlier condition of the line with a side never taken.
fn branch_reason(
    e: &EngineFile,
    names: &Names,
    side: &NativeSide,
    earlier: Option<&Reason>,
) -> Reason {
    let NativeSide {
        line,
        want,
        extent: (col, end_line, end_col),
        other,
        case_label,
    } = *side;
    let inside = |b: &&&EngineBranch| {
        b.line == line && b.col >= col && (end_line > line || b.col <= end_col)
    };
    let conds: Vec<&&EngineBranch> = e
        .branches
        .iter()
        .filter(|b| b.side == "true" || b.side == "false")
        .filter(inside)
        .collect();
    if other == 0 {
        // The kept tests never evaluate the condition.
        if let Some(r) = earlier {
            let mut r = r.clone();
            r.detail = format!("the condition is never evaluated (an earlier condition of the line decides first): {}", r.detail);
            return r;
        }
        if let Some(b) = conds.iter().find(|b| b.side == want).or(conds.first()) {
            return names.reason(&b.reason);
        }
        return reason(
            "not-reached",
            "not-evaluated",
            "the kept tests never evaluate this condition".into(),
        );
    }
    // The kept tests take the other side, so the engine did too: its one
    // side never taken is this one (the compiler may have put the sides of
    // a negated condition the other way round).
    if let Some(b) = conds.iter().find(|b| b.side == want).or(conds.first()) {
        return names.reason(&b.reason);
    }
    // A `case` label: the switch destination that starts there.
    if want == "true" {
        if let Some(b) = e.branches.iter().find(|b| {
            b.side != "true"
                && b.side != "false"
                && b.target_line
                    .is_some_and(|t| (line..=line + 2).contains(&t))
        }) {
            return names.reason(&b.reason);
        }
        // A `case` label whose destination's code ran in the engine, reached
        // through another label or value of the same switch.
        if case_label
            && !e.claimed.contains(&line)
            && (line + 1..=line + 2).any(|l| e.claimed.contains(&l))
        {
            return reason(
                "no-test",
                "case-shared",
                "the engine ran the code this label leads to, but no path that got there through this label wrote a test (the code was covered already)".into(),
            );
        }
    }
    if e.lines.contains_key(&line) || !e.claimed.contains(&line) {
        return reason(
            "not-reached",
            "engine-not-here",
            "the engine never executed this line (the kept tests that execute it natively went where the engine did not)".into(),
        );
    }
    reason(
        "no-test",
        "branch-taken",
        "the engine took both sides of this condition, but no kept test takes this one natively (the paths that took it covered no new instruction, so they wrote no test)".into(),
    )
}

/// Writes `why.json` and `why.txt` into `dir`.
pub fn write(dir: &Path, r: &WhyReport) -> anyhow::Result<()> {
    std::fs::write(dir.join("why.json"), serde_json::to_string_pretty(r)?)?;
    std::fs::write(dir.join("why.txt"), text(r))?;
    Ok(())
}

/// Reads a target's `coverage/why.json`.
pub fn read(target_dir: &Path) -> Result<WhyReport, String> {
    let p = target_dir.join("coverage").join("why.json");
    let s = std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    serde_json::from_str(&s).map_err(|e| format!("{} is not a why report: {e}", p.display()))
}
