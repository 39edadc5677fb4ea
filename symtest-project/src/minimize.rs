//! Minimization: the per-test coverage of every test (native runs, each test
//! writing its own profile), then a greedy set cover over covered lines and taken branches,
//! after one test per unique bug.

use crate::native::NativeBuild;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// A coverage element: a line or a branch of a source file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Element {
    Line(PathBuf, u32),
    Branch(PathBuf, u32, u32),
}

/// Per-test coverage, in the order of `names`, and the runner's output of
/// that run (each test's verdict).
pub fn per_test(
    build: &NativeBuild,
    names: &[&str],
    timeout_s: u32,
    jobs: usize,
) -> Result<(String, Vec<BTreeSet<Element>>), String> {
    let (output, per) = build.per_test_coverage(names, timeout_s, jobs)?;
    let sets = per
        .into_iter()
        .map(|files| {
            let mut set = BTreeSet::new();
            for (src, fc) in files {
                for l in fc.covered_lines() {
                    set.insert(Element::Line(src.clone(), l));
                }
                for (l, b) in fc.taken_branches() {
                    set.insert(Element::Branch(src.clone(), l, b));
                }
            }
            set
        })
        .collect();
    Ok((output, sets))
}

/// Indices of the tests to keep: all of `forced`, then greedily the test adding the
/// most uncovered elements until the union of all sets is reached. Ties go to the
/// earlier test, so the choice is deterministic.
pub fn greedy_cover(sets: &[BTreeSet<Element>], forced: &[usize]) -> Vec<usize> {
    let universe: BTreeSet<&Element> = sets.iter().flatten().collect();
    let mut covered: BTreeSet<&Element> = BTreeSet::new();
    let mut keep: Vec<usize> = Vec::new();
    for &i in forced {
        if !keep.contains(&i) {
            keep.push(i);
            covered.extend(sets[i].iter());
        }
    }
    while covered.len() < universe.len() {
        let best = sets
            .iter()
            .enumerate()
            .filter(|(i, _)| !keep.contains(i))
            .map(|(i, s)| (s.iter().filter(|e| !covered.contains(e)).count(), i))
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        match best {
            Some((gain, i)) if gain > 0 => {
                keep.push(i);
                covered.extend(sets[i].iter());
            }
            _ => break,
        }
    }
    keep.sort_unstable();
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(lines: &[u32]) -> BTreeSet<Element> {
        lines
            .iter()
            .map(|l| Element::Line(PathBuf::from("a.c"), *l))
            .collect()
    }

    #[test]
    fn cover_keeps_the_union_with_fewer_tests() {
        let sets = vec![
            set(&[1, 2]),
            set(&[1, 2, 3]),
            set(&[4]),
            set(&[1, 4]),
            set(&[2]),
        ];
        let keep = greedy_cover(&sets, &[]);
        assert_eq!(keep, vec![1, 2]);
        let keep = greedy_cover(&sets, &[4]);
        assert_eq!(keep, vec![1, 2, 4]);
    }
}
