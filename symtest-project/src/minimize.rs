//! Minimization: the per-test coverage of every test (native runs, each test
//! writing its own profile), then a greedy set cover over covered lines and taken branches,
//! after one test per unique bug.

use crate::native::{NativeBuild, PerTest};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// A coverage element: a line or a branch of a source file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Element {
    Line(PathBuf, u32),
    Branch(PathBuf, u32, u32),
}

/// Per-test coverage, in the order of `names`, and the run it came from
/// (the runner's output, each test's verdict; its times).
pub fn per_test(
    build: &NativeBuild,
    names: &[&str],
    timeout_s: u32,
    jobs: usize,
) -> Result<(PerTest, Vec<BTreeSet<Element>>), String> {
    let mut run = build.per_test_coverage(names, timeout_s, jobs)?;
    let sets = std::mem::take(&mut run.coverage)
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
    Ok((run, sets))
}

/// Indices of the tests to keep: all of `forced`, then greedily the test adding the
/// most uncovered elements until the union of all sets is reached. Ties go to the
/// earlier test, so the choice is deterministic.
pub fn greedy_cover(sets: &[BTreeSet<Element>], forced: &[usize]) -> Vec<usize> {
    // Elements numbered once, each set a bit vector: a test's gain is a
    // popcount, not a search per element (tests x elements x rounds).
    let mut ids: BTreeMap<&Element, usize> = BTreeMap::new();
    for e in sets.iter().flatten() {
        let next = ids.len();
        ids.entry(e).or_insert(next);
    }
    let words = ids.len().div_ceil(64);
    let bits: Vec<Vec<u64>> = sets
        .iter()
        .map(|s| {
            let mut b = vec![0u64; words];
            for e in s {
                let id = ids[e];
                b[id / 64] |= 1 << (id % 64);
            }
            b
        })
        .collect();
    let mut covered = vec![0u64; words];
    let mut kept = vec![false; sets.len()];
    let mut keep: Vec<usize> = Vec::new();
    let mut take = |i: usize, covered: &mut [u64], kept: &mut [bool]| {
        if !std::mem::replace(&mut kept[i], true) {
            keep.push(i);
            for (c, b) in covered.iter_mut().zip(&bits[i]) {
                *c |= b;
            }
        }
    };
    for &i in forced.iter().filter(|&&i| i < sets.len()) {
        take(i, &mut covered, &mut kept);
    }
    loop {
        let best = (0..sets.len())
            .filter(|&i| !kept[i])
            .map(|i| {
                let gain: u32 = bits[i]
                    .iter()
                    .zip(&covered)
                    .map(|(b, c)| (b & !c).count_ones())
                    .sum();
                (gain, i)
            })
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        match best {
            Some((g, i)) if g > 0 => take(i, &mut covered, &mut kept),
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

    #[test]
    fn cover_over_many_elements_keeps_every_one() {
        // 200 lines (several words of the bit vectors) and branches: the
        // cover reaches the union, and the test adding most goes first.
        let mut sets: Vec<BTreeSet<Element>> = (0..10)
            .map(|k| set(&(k * 20..k * 20 + 20).collect::<Vec<u32>>()))
            .collect();
        sets.push(set(&(0..150).collect::<Vec<u32>>()));
        sets[3].insert(Element::Branch(PathBuf::from("a.c"), 70, 1));
        let keep = greedy_cover(&sets, &[]);
        let union: BTreeSet<&Element> = sets.iter().flatten().collect();
        let kept: BTreeSet<&Element> = keep.iter().flat_map(|&i| &sets[i]).collect();
        assert_eq!(kept, union);
        assert_eq!(keep, vec![3, 7, 8, 9, 10]);
    }
}
