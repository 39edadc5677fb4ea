//! Sets of byte values and the binary relations between two variables of
//! the small-domain search, made arc consistent before it.
//!
//! A multibyte decoder checks each input byte against the one before it (a
//! continuation byte's range depends on the lead byte's table entry): eight
//! bytes form a chain of two-variable assertions, whose product of domains
//! (51 lead values, 64 or 256 others) no plain depth-first search finishes.
//! Tabulated once (51 x 256 evaluations per link), the links are pruned to
//! arc consistency, after which a chain or any other tree of links is
//! searched without backtracking (each variable, in an order where it has
//! one earlier neighbour, only takes values that neighbour supports and
//! that have support further on).

use super::memo::Ternary;
use std::collections::VecDeque;

/// A set of byte values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ByteSet([u64; 4]);

impl ByteSet {
    /// The set of `values`.
    #[cfg(test)]
    pub(super) fn of(values: &[u8]) -> ByteSet {
        let mut s = ByteSet::default();
        for &x in values {
            s.insert(x);
        }
        s
    }

    /// The values `m` marks.
    pub(super) fn of_mask(m: &[bool; 256]) -> ByteSet {
        let mut s = ByteSet::default();
        for (x, _) in m.iter().enumerate().filter(|(_, &b)| b) {
            s.insert(x as u8);
        }
        s
    }

    /// All 256 values.
    pub(super) fn full() -> ByteSet {
        ByteSet([u64::MAX; 4])
    }

    pub(super) fn insert(&mut self, x: u8) {
        self.0[usize::from(x >> 6)] |= 1 << (x & 63);
    }

    pub(super) fn contains(&self, x: u8) -> bool {
        self.0[usize::from(x >> 6)] >> (x & 63) & 1 == 1
    }

    pub(super) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    pub(super) fn and(&self, o: &ByteSet) -> ByteSet {
        ByteSet(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    pub(super) fn or(&self, o: &ByteSet) -> ByteSet {
        ByteSet(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    pub(super) fn is_subset(&self, o: &ByteSet) -> bool {
        self.0.iter().zip(&o.0).all(|(a, b)| a & !b == 0)
    }

    /// How many members are below `x`.
    pub(super) fn rank(&self, x: u8) -> usize {
        let w = usize::from(x >> 6);
        let below: usize = self.0[..w].iter().map(|v| v.count_ones() as usize).sum();
        below + (self.0[w] & ((1u64 << (x & 63)) - 1)).count_ones() as usize
    }

    pub(super) fn intersects(&self, o: &ByteSet) -> bool {
        self.0.iter().zip(&o.0).any(|(a, b)| a & b != 0)
    }

    /// The smallest member at least `from` (0..=256).
    pub(super) fn next_from(&self, from: usize) -> Option<u8> {
        let mut w = from / 64;
        if w >= 4 {
            return None;
        }
        let mut bits = self.0[w] & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                return Some((w * 64 + bits.trailing_zeros() as usize) as u8);
            }
            w += 1;
            if w == 4 {
                return None;
            }
            bits = self.0[w];
        }
    }

    /// The members, ascending.
    pub(super) fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        let mut at = 0usize;
        std::iter::from_fn(move || {
            let x = self.next_from(at)?;
            at = usize::from(x) + 1;
            Some(x)
        })
    }
}

/// The value pairs variables `a` and `b` (`a < b`) may take together.
pub(super) struct Relation {
    pub(super) a: usize,
    pub(super) b: usize,
    /// By value of `a`: the values of `b` it allows.
    fwd: Vec<ByteSet>,
}

impl Relation {
    /// The relation allowing, for each value `x` of `a`, the values
    /// `fwd[x]` of `b`.
    pub(super) fn from_rows(a: usize, b: usize, fwd: Vec<ByteSet>) -> Relation {
        debug_assert!(a < b && fwd.len() == 256);
        Relation { a, b, fwd }
    }

    /// The other variable of the relation.
    pub(super) fn other(&self, var: usize) -> usize {
        if var == self.a {
            self.b
        } else {
            self.a
        }
    }

    /// The values of the other variable `var = x` allows.
    pub(super) fn supports(&self, var: usize, x: u8) -> ByteSet {
        if var == self.a {
            self.fwd[usize::from(x)]
        } else {
            let mut s = ByteSet::default();
            for (v, row) in self.fwd.iter().enumerate() {
                if row.contains(x) {
                    s.insert(v as u8);
                }
            }
            s
        }
    }

    /// The values in `dom` of variable `var` with a supporting value of
    /// the other variable in `other`.
    fn supported(&self, var: usize, dom: &ByteSet, other: &ByteSet) -> ByteSet {
        if var == self.a {
            let mut s = ByteSet::default();
            for x in dom.iter() {
                if self.fwd[usize::from(x)].intersects(other) {
                    s.insert(x);
                }
            }
            s
        } else {
            let reach = other
                .iter()
                .fold(ByteSet::default(), |s, x| s.or(&self.fwd[usize::from(x)]));
            dom.and(&reach)
        }
    }

    /// The most values of the other variable in `other` one value of `var`
    /// in `dom` allows: the branching a search fixing `var` first meets.
    pub(super) fn branching(&self, var: usize, dom: &ByteSet, other: &ByteSet) -> usize {
        dom.iter()
            .map(|x| self.supports(var, x).and(other).len())
            .max()
            .unwrap_or(0)
    }
}

/// Removes from the domains of a three-variable table's variables (`vars`,
/// the query's numbers of its `Var`s in order) the values no triple it
/// allows within the domains supports; `None` when a domain empties, else
/// whether any changed.
pub(super) fn prune_ternary(doms: &mut [ByteSet], t: &Ternary, vars: [usize; 3]) -> Option<bool> {
    let [a, b, c] = vars;
    let mut sup = [ByteSet::default(); 3];
    for x in doms[a].iter() {
        for y in doms[b].iter() {
            let r = t.row(x, y).and(&doms[c]);
            if !r.is_empty() {
                sup[0].insert(x);
                sup[1].insert(y);
                sup[2] = sup[2].or(&r);
            }
        }
    }
    let mut changed = false;
    for (i, &v) in vars.iter().enumerate() {
        let d = doms[v].and(&sup[i]);
        if d != doms[v] {
            changed = true;
            doms[v] = d;
        }
        if d.is_empty() {
            return None;
        }
    }
    Some(changed)
}

/// Prunes `doms` to arc consistency with `rels` (every value of a variable
/// has a supporting value in each relation it is in); `false` when a
/// domain empties. Deterministic: arcs are revised in queue order.
pub(super) fn arc_consistency(doms: &mut [ByteSet], rels: &[Relation]) -> bool {
    // Arc (r, v): the values of variable v need support in relation r.
    let mut queue: VecDeque<(usize, usize)> = VecDeque::new();
    let mut queued = vec![[false; 2]; rels.len()];
    let side = |r: &Relation, v: usize| usize::from(v != r.a);
    for (i, r) in rels.iter().enumerate() {
        for v in [r.a, r.b] {
            queue.push_back((i, v));
            queued[i][side(r, v)] = true;
        }
    }
    while let Some((i, v)) = queue.pop_front() {
        let r = &rels[i];
        queued[i][side(r, v)] = false;
        let o = r.other(v);
        let kept = r.supported(v, &doms[v], &doms[o]);
        let changed = kept != doms[v];
        doms[v] = kept;
        if !changed {
            continue;
        }
        if doms[v].is_empty() {
            return false;
        }
        // Whatever v supported in its other relations may have lost it.
        for (j, s) in rels.iter().enumerate() {
            if j == i || (s.a != v && s.b != v) {
                continue;
            }
            let w = s.other(v);
            if !queued[j][side(s, w)] {
                queued[j][side(s, w)] = true;
                queue.push_back((j, w));
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sets_iterate_in_order() {
        let s = ByteSet::of(&[255, 0, 64, 63, 128]);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 128, 255]);
        assert_eq!(s.len(), 5);
        assert_eq!(s.next_from(65), Some(128));
        assert_eq!(s.next_from(256), None);
        assert!(!s.contains(1) && s.contains(63));
    }

    /// A chain x0 < x1 < x2 over 0..=2 leaves exactly x = (0, 1, 2).
    #[test]
    fn a_chain_of_orders_is_pruned_to_its_one_solution() {
        let mut doms = vec![ByteSet::of(&[0, 1, 2]); 3];
        let mut rels = Vec::new();
        for (a, b) in [(0, 1), (1, 2)] {
            let mut fwd = vec![ByteSet::default(); 256];
            for x in 0..3u8 {
                for y in x + 1..3 {
                    fwd[usize::from(x)].insert(y);
                }
            }
            rels.push(Relation::from_rows(a, b, fwd));
        }
        assert!(arc_consistency(&mut doms, &rels));
        assert_eq!(
            doms,
            vec![ByteSet::of(&[0]), ByteSet::of(&[1]), ByteSet::of(&[2])]
        );
        // x2 < x0 closes a cycle no assignment satisfies.
        let mut fwd = vec![ByteSet::default(); 256];
        for x in 0..3u8 {
            for y in 0..x {
                fwd[usize::from(x)].insert(y);
            }
        }
        rels.push(Relation::from_rows(0, 2, fwd));
        let mut doms = vec![ByteSet::of(&[0, 1, 2]); 3];
        assert!(!arc_consistency(&mut doms, &rels));
    }
}
