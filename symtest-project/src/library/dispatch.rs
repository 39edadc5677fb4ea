//! Choosing one of several generated calls by a symbolic selector: a
//! balanced tree of `if`s, each case reached about as often as its weight.

use std::fmt::Write as _;

/// Statements that run `cases[k].0` when `var` is `k` (`0 <= var <
/// cases.len()`), through a tree of `if (var < m)` split where the cases'
/// weights (`.1`, [`weight`]) balance: a search that walks
/// the tree of forks from its root (random-path) reaches a case about as
/// often as its share of the weight, where a `switch`, whose cases fork one
/// after another, gives the first case half of its picks whatever it runs.
pub(super) fn dispatch(out: &mut String, var: &str, cases: &[(String, usize)], indent: &str) {
    fn go(out: &mut String, var: &str, lo: usize, cases: &[(String, usize)], indent: &str) {
        match cases {
            [] => {}
            [one] => {
                let _ = writeln!(out, "{indent}{{");
                for l in one.0.lines() {
                    let _ = writeln!(out, "{indent}{l}");
                }
                let _ = writeln!(out, "{indent}}}");
            }
            _ => {
                let total: usize = cases.iter().map(|c| c.1.max(1)).sum();
                let mut best = (usize::MAX, 1);
                let mut left = 0;
                for (m, c) in cases.iter().enumerate().take(cases.len() - 1) {
                    left += c.1.max(1);
                    let off = (2 * left).abs_diff(total);
                    if off < best.0 {
                        best = (off, m + 1);
                    }
                }
                let mid = best.1;
                let inner = format!("{indent}  ");
                let _ = writeln!(out, "{indent}if ({var} < {}) {{", lo + mid);
                go(out, var, lo, &cases[..mid], &inner);
                let _ = writeln!(out, "{indent}}} else {{");
                go(out, var, lo + mid, &cases[mid..], &inner);
                let _ = writeln!(out, "{indent}}}");
            }
        }
    }
    go(out, var, 0, cases, indent);
}

/// The weight of a call that can run `code` instructions: their square
/// root, so a search spends more on more code yet still reaches a small
/// function often.
pub(super) fn weight(code: usize) -> usize {
    ((code as f64).sqrt() as usize).max(1)
}

pub(super) fn indent(body: &str) -> String {
    body.lines().map(|l| format!("  {l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::dispatch;

    fn tree(weights: &[usize]) -> String {
        let cases: Vec<(String, usize)> = weights
            .iter()
            .enumerate()
            .map(|(i, w)| (format!("f{i}();"), *w))
            .collect();
        let mut out = String::new();
        dispatch(&mut out, "k", &cases, "");
        out
    }

    #[test]
    fn dispatch_splits_where_the_weights_balance() {
        // Alike: halves, each case two tests deep.
        let t = tree(&[1, 1, 1, 1]);
        assert!(
            t.starts_with("if (k < 2) {\n  if (k < 1) {\n    {\n    f0();"),
            "{t}"
        );
        assert_eq!(t.matches("if (").count(), 3, "{t}");
        // One case as heavy as the three others: one test from the root.
        let t = tree(&[1, 1, 1, 3]);
        assert!(t.starts_with("if (k < 3) {"), "{t}");
        assert!(t.ends_with("} else {\n  {\n  f3();\n  }\n}\n"), "{t}");
        // A single case is run with no test.
        assert_eq!(tree(&[5]), "{\nf0();\n}\n");
    }
}
