//! gcov's text format (as written by `llvm-cov-19 gcov -b -c`).

use std::collections::{BTreeMap, BTreeSet};

/// Line and branch counts of one source file.
#[derive(Clone, Debug, Default)]
pub struct FileCoverage {
    /// Executable lines and how often each ran.
    pub lines: BTreeMap<u32, u64>,
    /// (line, branch index on that line) -> times taken.
    pub branches: BTreeMap<(u32, u32), u64>,
}

impl FileCoverage {
    pub fn covered_lines(&self) -> BTreeSet<u32> {
        self.lines
            .iter()
            .filter(|(_, c)| **c > 0)
            .map(|(l, _)| *l)
            .collect()
    }
    pub fn taken_branches(&self) -> BTreeSet<(u32, u32)> {
        self.branches
            .iter()
            .filter(|(_, c)| **c > 0)
            .map(|(b, _)| *b)
            .collect()
    }
}

/// Parses one `.gcov` text.
pub fn parse(text: &str) -> FileCoverage {
    let mut fc = FileCoverage::default();
    let mut line = 0u32;
    let mut branch_idx = 0u32;
    for l in text.lines() {
        let t = l.trim_start();
        if let Some(rest) = t.strip_prefix("branch") {
            let mut w = rest.split_whitespace();
            let _idx = w.next();
            let taken = match (w.next(), w.next()) {
                (Some("taken"), Some(n)) => n.trim_end_matches('%').parse::<u64>().unwrap_or(0),
                _ => 0,
            };
            fc.branches.insert((line, branch_idx), taken);
            branch_idx += 1;
            continue;
        }
        let mut parts = l.splitn(3, ':');
        let (Some(count), Some(num)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Ok(n) = num.trim().parse::<u32>() else {
            continue;
        };
        let count = count.trim().trim_end_matches('*');
        if n == 0 || count == "-" {
            continue;
        }
        line = n;
        branch_idx = 0;
        let c = if count.starts_with('#') || count.starts_with('=') {
            0
        } else {
            count.parse::<u64>().unwrap_or(0)
        };
        fc.lines.insert(n, c);
    }
    fc
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_lines_and_branches() {
        let text = "        -:    0:Source:a.c\n        1:    3:int main(void) {\n        1:    4:  if (x)\nbranch  0 taken 1\nbranch  1 taken 0\n    #####:    5:    return 1;\n        -:    6:}\n";
        let fc = super::parse(text);
        assert_eq!(fc.lines.len(), 3);
        assert_eq!(
            fc.covered_lines().into_iter().collect::<Vec<_>>(),
            vec![3, 4]
        );
        assert_eq!(fc.branches.len(), 2);
        assert_eq!(fc.taken_branches().len(), 1);
    }
}
