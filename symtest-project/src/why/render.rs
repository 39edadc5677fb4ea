//! The why report as text: `why.txt` and `cargo symtest why TARGET [FILE:LINE]`.

use super::{BranchWhy, FileWhy, LineWhy, Reason, WhyReport};
use std::fmt::Write as _;

/// Consecutive lines with the same reason, as ranges.
fn runs(lines: &[LineWhy]) -> Vec<(u32, u32, &Reason)> {
    let mut out: Vec<(u32, u32, &Reason)> = Vec::new();
    for l in lines {
        match out.last_mut() {
            Some((_, end, r)) if *end + 1 == l.line && **r == l.reason => *end = l.line,
            _ => out.push((l.line, l.line, &l.reason)),
        }
    }
    out
}

fn reason_text(r: &Reason) -> String {
    let so_far = if r.pending_can_reach && r.reason != "pending" {
        " [states pending at the deadline could still reach it]"
    } else {
        ""
    };
    let seeds = match r.seeds.as_deref() {
        Some("reached") => {
            " [a seeded path reached that branch; exploration could not vary it past there]"
        }
        Some("not-reached") => " [no seed reached it]",
        _ => "",
    };
    format!("{} ({}): {}{so_far}{seeds}", r.reason, r.kind, r.detail)
}

/// The report as text (`why.txt`, `cargo symtest why TARGET`).
pub fn text(r: &WhyReport) -> String {
    let mut t = String::new();
    let (lines, branches): (u64, u64) = (
        r.counts.lines.values().sum(),
        r.counts.branches.values().sum(),
    );
    let _ = writeln!(
        t,
        "why uncovered: {} ({lines} lines, {branches} branch sides not covered by the kept tests)",
        r.target
    );
    let _ = writeln!(t, "{}", r.counts.text());
    for f in &r.files {
        if f.lines.is_empty() && f.branches.is_empty() {
            continue;
        }
        let _ = writeln!(
            t,
            "\n{} ({} of {} lines covered)",
            f.file,
            f.covered.len(),
            f.lines_total
        );
        for (a, b, reason) in runs(&f.lines) {
            let at = if a == b {
                format!("{a}")
            } else {
                format!("{a}-{b}")
            };
            let _ = writeln!(t, "  {at}: {}", reason_text(reason));
        }
        for b in &f.branches {
            if f.lines.iter().any(|l| l.line == b.line) {
                continue;
            }
            let _ = writeln!(
                t,
                "  {}:{} {} side: {}",
                b.line,
                b.col,
                b.side,
                reason_text(&b.reason)
            );
        }
    }
    t
}

/// What `cargo symtest why TARGET FILE:LINE` prints: the line's reason and
/// its branch sides', or an error naming what is wrong.
pub fn line_text(r: &WhyReport, file: &str, line: u32) -> Result<String, String> {
    let matching: Vec<&FileWhy> = r
        .files
        .iter()
        .filter(|f| f.file == file || f.file.ends_with(&format!("/{file}")))
        .collect();
    let f = match matching.as_slice() {
        [f] => *f,
        [] => {
            return Err(format!(
                "no source file `{file}` in {}'s coverage (files: {})",
                r.target,
                r.files
                    .iter()
                    .map(|f| f.file.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        many => {
            return Err(format!(
                "`{file}` names several files: {}",
                many.iter()
                    .map(|f| f.file.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    };
    let mut t = String::new();
    let branches: Vec<&BranchWhy> = f.branches.iter().filter(|b| b.line == line).collect();
    if let Some(l) = f.lines.iter().find(|l| l.line == line) {
        let _ = writeln!(t, "{}:{line}: {}", f.file, reason_text(&l.reason));
        if let Some(at) = &l.reason.at {
            let _ = writeln!(t, "  nearest executed predecessor: {at}");
        }
    } else if f.covered.binary_search(&line).is_ok() {
        let _ = writeln!(t, "{}:{line}: covered by the kept tests", f.file);
    } else if branches.is_empty() {
        return Err(format!(
            "{}:{line} is not a line with code (nothing to cover there)",
            f.file
        ));
    }
    for b in branches {
        let _ = writeln!(
            t,
            "{}:{line}:{} {} side: {}",
            f.file,
            b.col,
            b.side,
            reason_text(&b.reason)
        );
    }
    Ok(t)
}
