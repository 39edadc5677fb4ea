//! JUnit XML: one `<testsuite>` per target, one `<testcase>` per kept test; a test
//! that documents a bug is a `<failure>`, a target that failed is an `<error>`.

use crate::report::{Status, TargetReport};
use std::fmt::Write as _;

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

pub fn render(reports: &[TargetReport]) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let changes: usize = reports.iter().map(|r| r.behaviour_changes.len()).sum();
    let tests: usize = reports
        .iter()
        .map(|r| r.tests.len().max(usize::from(r.status != Status::Ok)))
        .sum::<usize>()
        + changes;
    let failures: usize = reports
        .iter()
        .map(|r| r.tests.iter().filter(|t| t.bug.is_some()).count())
        .sum::<usize>()
        + changes;
    let errors = reports.iter().filter(|r| r.status != Status::Ok).count();
    let time: f64 = reports.iter().map(|r| r.total_s).sum();
    let _ = writeln!(s, "<testsuites name=\"symtest\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{time:.3}\">");
    for r in reports {
        let f = r.tests.iter().filter(|t| t.bug.is_some()).count();
        let e = usize::from(r.status != Status::Ok);
        let n = r.tests.len().max(e);
        let _ = writeln!(
            s,
            "  <testsuite name=\"{}\" tests=\"{n}\" failures=\"{f}\" errors=\"{e}\" skipped=\"0\" time=\"{:.3}\">",
            esc(&r.name),
            r.total_s
        );
        if r.status != Status::Ok {
            let _ = writeln!(
                s,
                "    <testcase classname=\"{0}\" name=\"{0}\" time=\"{1:.3}\">\n      <error message=\"{2}\" type=\"{2}\">{3}</error>\n    </testcase>",
                esc(&r.name),
                r.total_s,
                esc(r.status.as_str()),
                esc(r.message.as_deref().unwrap_or(""))
            );
        }
        for t in &r.tests {
            let _ = write!(
                s,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"0\"",
                esc(&r.name),
                esc(&t.suite_name)
            );
            match t.bug.and_then(|i| r.bugs.get(i)) {
                Some(b) => {
                    let _ = writeln!(
                        s,
                        ">\n      <failure message=\"{}\" type=\"{}\">{}:{}: {} in {} (id {})</failure>\n    </testcase>",
                        esc(&b.message),
                        esc(&b.kind),
                        esc(&b.file),
                        b.line,
                        esc(&b.message),
                        esc(&b.function),
                        esc(&b.id)
                    );
                }
                None => s.push_str("/>\n"),
            }
        }
        s.push_str("  </testsuite>\n");
        // Behaviour changes of a gate run, apart from the target's tests.
        if !r.behaviour_changes.is_empty() {
            let _ = writeln!(
                s,
                "  <testsuite name=\"{} (behaviour changes)\" tests=\"{n}\" failures=\"{n}\" errors=\"0\" skipped=\"0\" time=\"0\">",
                esc(&r.name),
                n = r.behaviour_changes.len()
            );
            for b in &r.behaviour_changes {
                let _ = writeln!(
                    s,
                    "    <testcase classname=\"{}\" name=\"{}\" time=\"0\">\n      <failure message=\"behaviour change\" type=\"behaviour-change\">{}{}</failure>\n    </testcase>",
                    esc(&r.name),
                    esc(&b.test),
                    esc(&b.detail),
                    esc(&b.reproduce.as_ref().map(|x| format!("\nreproduce: {x}")).unwrap_or_default())
                );
            }
            s.push_str("  </testsuite>\n");
        }
    }
    s.push_str("</testsuites>\n");
    s
}
