//! The bounds layer: queries that only bound one value, decided exactly
//! without the backend.
//!
//! A loop over a symbolic bound (`for (i = 1; i <= n; i++)`) forks at every
//! iteration, and each fork asks a question of the form
//! `0 <= n ∧ n < 1000 ∧ 1 <= n ∧ … ∧ k <= n ∧ ¬(k + 1 <= n)`: a conjunction of
//! comparisons of one term with constants. Such a set is an exact union of
//! unsigned intervals, so satisfiability is an interval intersection, and a
//! model is any member written back into the bytes the term reads.
//!
//! What is recognised (anything else passes the query to the inner solver):
//! * every assertion is built from comparisons (`=`, `<u`, `≤u`, `<s`, `≤s`)
//!   of a constant with `t`, `t + c`, `zext(…)` or `sext(…)` of such, for one
//!   and the same non-constant term `t` of at most 64 bits, combined with
//!   `¬`, `∧` and `∨` (on width-1 values), or is a constant;
//! * for a `Sat` answer, `t` must be a plain read: bytes of array roots at
//!   constant indices, concatenated (how a symbolic integer is read). Other
//!   terms still get exact `Unsat` answers.
//! * Assertions of any other form may stand beside the bounds of the term
//!   the most assertions bound: the bounds alone being unsatisfiable makes
//!   the query `Unsat`; when they pin a plain read covering whole arrays to
//!   one value and the other assertions read only those arrays, evaluating
//!   them decides the query (the path `n == k` of a loop, where
//!   `2 * s == n * (n + 1)` is checked); otherwise the smallest and largest
//!   allowed values are tried as models, and the query passes down if
//!   neither satisfies everything.
//!
//! * Bounds of any term outside its structural range
//!   (`ExprPool::unsigned_range`: `(x & 255) << 2` is at most 1020) make the
//!   query `Unsat` on their own: the bounds check of a lookup table's index.
//!
//! Every model is checked by evaluating all assertions before it is
//! returned; a failed check (never expected) passes the query down.

use crate::{project, validate, LayerCounters, SatResult, Solver, SolverError};
use symtest_expr::{ArrayId, Assignment, BinOp, CmpOp, ExprId, ExprPool, Node};

/// A set of `w`-bit values as sorted, disjoint, non-adjacent inclusive
/// intervals of their unsigned readings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IntervalSet {
    width: u32,
    ranges: Vec<(u128, u128)>,
}

impl IntervalSet {
    fn max_of(width: u32) -> u128 {
        (1u128 << width) - 1
    }

    fn max(&self) -> u128 {
        Self::max_of(self.width)
    }

    pub(crate) fn empty(width: u32) -> Self {
        IntervalSet {
            width,
            ranges: Vec::new(),
        }
    }

    pub(crate) fn full(width: u32) -> Self {
        IntervalSet {
            width,
            ranges: vec![(0, Self::max_of(width))],
        }
    }

    /// `lo..=hi` (unsigned); empty if `lo > hi`.
    pub(crate) fn range(width: u32, lo: u128, hi: u128) -> Self {
        let mut s = Self::empty(width);
        if lo <= hi {
            s.ranges.push((lo, hi.min(Self::max_of(width))));
        }
        s
    }

    /// The values whose signed reading is in `lo..=hi` (signed); empty if
    /// `lo > hi`.
    pub(crate) fn signed_range(width: u32, lo: i128, hi: i128) -> Self {
        if lo > hi {
            return Self::empty(width);
        }
        let m = 1i128 << width;
        let un = |x: i128| (if x < 0 { x + m } else { x }) as u128;
        if lo >= 0 || hi < 0 {
            Self::range(width, un(lo), un(hi))
        } else {
            Self::range(width, 0, hi as u128).union(&Self::range(
                width,
                un(lo),
                Self::max_of(width),
            ))
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The smallest member (unsigned reading).
    pub(crate) fn min(&self) -> Option<u128> {
        self.ranges.first().map(|r| r.0)
    }

    /// The largest member (unsigned reading).
    pub(crate) fn max_member(&self) -> Option<u128> {
        self.ranges.last().map(|r| r.1)
    }

    /// The width of the values.
    pub(crate) fn width(&self) -> u32 {
        self.width
    }

    /// The intervals, ascending.
    pub(crate) fn ranges(&self) -> &[(u128, u128)] {
        &self.ranges
    }

    /// The values `x` with `x / k` (unsigned, `k > 0`) in `self`: each
    /// interval `lo..=hi` of quotients is the dividends `lo * k ..= hi * k + k - 1`.
    pub(crate) fn udiv_preimage(&self, k: u128) -> Self {
        let max = self.max();
        let r = self
            .ranges
            .iter()
            .filter(|&&(lo, _)| lo.checked_mul(k).is_some_and(|v| v <= max))
            .map(|&(lo, hi)| {
                let top = hi
                    .checked_add(1)
                    .and_then(|h| h.checked_mul(k))
                    .map_or(max, |v| (v - 1).min(max));
                (lo * k, top)
            })
            .collect();
        Self::normalized(self.width, r)
    }

    #[cfg(test)]
    pub(crate) fn contains(&self, v: u128) -> bool {
        self.ranges.iter().any(|&(lo, hi)| lo <= v && v <= hi)
    }

    fn normalized(width: u32, mut ranges: Vec<(u128, u128)>) -> Self {
        ranges.sort_unstable();
        let mut out: Vec<(u128, u128)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        IntervalSet { width, ranges: out }
    }

    pub(crate) fn union(&self, o: &Self) -> Self {
        let mut r = self.ranges.clone();
        r.extend_from_slice(&o.ranges);
        Self::normalized(self.width, r)
    }

    pub(crate) fn intersect(&self, o: &Self) -> Self {
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while i < self.ranges.len() && j < o.ranges.len() {
            let (a, b) = (self.ranges[i], o.ranges[j]);
            let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
            if lo <= hi {
                out.push((lo, hi));
            }
            if a.1 < b.1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        IntervalSet {
            width: self.width,
            ranges: out,
        }
    }

    pub(crate) fn complement(&self) -> Self {
        let mut out = Vec::new();
        let mut next = 0u128;
        for &(lo, hi) in &self.ranges {
            if lo > next {
                out.push((next, lo - 1));
            }
            if hi == self.max() {
                return IntervalSet {
                    width: self.width,
                    ranges: out,
                };
            }
            next = hi + 1;
        }
        out.push((next, self.max()));
        IntervalSet {
            width: self.width,
            ranges: out,
        }
    }

    /// `{x - c mod 2^w | x ∈ self}`.
    pub(crate) fn shift_down(&self, c: u128) -> Self {
        let m = self.max();
        let c = c & m;
        let mut out = Vec::new();
        for &(lo, hi) in &self.ranges {
            let (nlo, nhi) = (lo.wrapping_sub(c) & m, hi.wrapping_sub(c) & m);
            if nlo <= nhi {
                out.push((nlo, nhi));
            } else {
                out.push((nlo, m));
                out.push((0, nhi));
            }
        }
        Self::normalized(self.width, out)
    }

    /// The `narrow`-bit values whose zero extension is in `self`.
    fn zext_preimage(&self, narrow: u32) -> Self {
        let top = Self::max_of(narrow);
        Self::normalized(
            narrow,
            self.intersect(&Self::range(self.width, 0, top)).ranges,
        )
    }

    /// The `narrow`-bit values whose sign extension is in `self`.
    fn sext_preimage(&self, narrow: u32) -> Self {
        let half = 1u128 << (narrow - 1);
        let low = self.intersect(&Self::range(self.width, 0, half - 1));
        // Negative narrow values x (x ≥ half) extend to x + (2^W − 2^w).
        let offset = self.max() - Self::max_of(narrow);
        let high = self.intersect(&Self::range(self.width, offset + half, self.max()));
        let mut r = low.ranges;
        r.extend(
            high.ranges
                .iter()
                .map(|&(lo, hi)| (lo - offset, hi - offset)),
        );
        Self::normalized(narrow, r)
    }
}

/// Why a query is not one this layer decides.
struct NotBounds;

/// Walks the assertions, finding the one term they bound.
struct Matcher<'p> {
    pool: &'p ExprPool,
    atom: Option<ExprId>,
}

impl Matcher<'_> {
    /// The set of values of the atom for which the width-1 `e` is true.
    fn boolean(&mut self, e: ExprId) -> Result<IntervalSet, NotBounds> {
        let pool = self.pool;
        if let Some(c) = pool.as_const(e) {
            let w = self.atom_width()?;
            return Ok(if c.is_true() {
                IntervalSet::full(w)
            } else {
                IntervalSet::empty(w)
            });
        }
        match *pool.node(e) {
            Node::Not(x) => Ok(self.boolean(x)?.complement()),
            Node::Bin(op @ (BinOp::And | BinOp::Or), a, b) if pool.width(e) == 1 => {
                let (sa, sb) = (self.boolean(a)?, self.boolean(b)?);
                Ok(if op == BinOp::And {
                    sa.intersect(&sb)
                } else {
                    sa.union(&sb)
                })
            }
            Node::Cmp(op, a, b) if op.is_order() => {
                let width = pool.width(a);
                if width > 64 {
                    return Err(NotBounds);
                }
                // `const op term` or `term op const`.
                let (term, c, term_left) = match (pool.as_const(a), pool.as_const(b)) {
                    (None, Some(c)) => (a, c.to_u128(), true),
                    (Some(c), None) => (b, c.to_u128(), false),
                    _ => return Err(NotBounds),
                };
                let set = comparison_set(op, width, c, term_left);
                self.preimage(term, set)
            }
            _ => Err(NotBounds),
        }
    }

    fn atom_width(&self) -> Result<u32, NotBounds> {
        self.atom.map(|a| self.pool.width(a)).ok_or(NotBounds)
    }

    /// The values of the atom for which `term ∈ set`.
    fn preimage(&mut self, term: ExprId, set: IntervalSet) -> Result<IntervalSet, NotBounds> {
        let pool = self.pool;
        if self.atom == Some(term) {
            return Ok(set);
        }
        match *pool.node(term) {
            Node::Bin(BinOp::Add, x, y) => {
                let (inner, c) = match (pool.as_const(x), pool.as_const(y)) {
                    (Some(c), None) => (y, c.to_u128()),
                    (None, Some(c)) => (x, c.to_u128()),
                    _ => return self.bind(term, set),
                };
                self.preimage(inner, set.shift_down(c))
            }
            Node::Bin(BinOp::UDiv, x, y) => match pool.as_const(y).map(|k| k.to_u128()) {
                Some(k) if k > 0 => self.preimage(x, set.udiv_preimage(k)),
                _ => self.bind(term, set),
            },
            Node::ZExt(x, _) => {
                let narrow = pool.width(x);
                self.preimage(x, set.zext_preimage(narrow))
            }
            Node::SExt(x, _) => {
                let narrow = pool.width(x);
                self.preimage(x, set.sext_preimage(narrow))
            }
            _ => self.bind(term, set),
        }
    }

    /// `term` is the atom: the first one seen becomes it, any other is a
    /// second term (not a bounds query).
    fn bind(&mut self, term: ExprId, set: IntervalSet) -> Result<IntervalSet, NotBounds> {
        match self.atom {
            None if self.pool.width(term) <= 64 && !self.pool.is_array(term) => {
                self.atom = Some(term);
                Ok(set)
            }
            _ => Err(NotBounds),
        }
    }
}

/// The values `x` of `width` bits with `x op c` (`term_left`) or `c op x`.
fn comparison_set(op: CmpOp, width: u32, c: u128, term_left: bool) -> IntervalSet {
    let max = IntervalSet::max_of(width);
    let smin = -(1i128 << (width - 1));
    let smax = (1i128 << (width - 1)) - 1;
    let cs = if c >> (width - 1) & 1 == 1 {
        c as i128 - (1i128 << width)
    } else {
        c as i128
    };
    let r = |lo: u128, hi: u128| IntervalSet::range(width, lo, hi);
    let s = |lo: i128, hi: i128| IntervalSet::signed_range(width, lo, hi);
    match (op, term_left) {
        (CmpOp::Eq, _) => r(c, c),
        (CmpOp::Ult, true) if c == 0 => IntervalSet::empty(width),
        (CmpOp::Ult, true) => r(0, c - 1),
        (CmpOp::Ule, true) => r(0, c),
        (CmpOp::Ult, false) if c == max => IntervalSet::empty(width),
        (CmpOp::Ult, false) => r(c + 1, max),
        (CmpOp::Ule, false) => r(c, max),
        (CmpOp::Slt, true) if cs == smin => IntervalSet::empty(width),
        (CmpOp::Slt, true) => s(smin, cs - 1),
        (CmpOp::Sle, true) => s(smin, cs),
        (CmpOp::Slt, false) if cs == smax => IntervalSet::empty(width),
        (CmpOp::Slt, false) => s(cs + 1, smax),
        (CmpOp::Sle, false) => s(cs, smax),
        _ => unreachable!("only ordering comparisons reach here"),
    }
}

/// The term the width-1 `assertion` bounds and the set of its values it
/// allows, if the assertion is a bounds assertion (see the module docs).
pub(crate) fn bound_of(pool: &ExprPool, assertion: ExprId) -> Option<(ExprId, IntervalSet)> {
    if pool.as_const(assertion).is_some() {
        return None;
    }
    let mut m = Matcher { pool, atom: None };
    let set = m.boolean(assertion).ok()?;
    Some((m.atom?, set))
}

/// The bytes a plain read consists of, most significant first: `(array,
/// index)` of each `select(root, constant)` in a concatenation.
pub(crate) fn plain_read(pool: &ExprPool, e: ExprId, out: &mut Vec<(ArrayId, u32)>) -> bool {
    match *pool.node(e) {
        Node::Concat(hi, lo) => plain_read(pool, hi, out) && plain_read(pool, lo, out),
        Node::Select { array, index } => match (pool.node(array), pool.as_const(index)) {
            (&Node::Array(a), Some(i)) => {
                out.push((a, i.to_u64() as u32));
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// Decides bounds-only queries (see the module docs); everything else goes
/// to `inner`.
pub struct BoundsSolver<S: Solver> {
    inner: S,
    counters: LayerCounters,
}

impl<S: Solver> BoundsSolver<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        BoundsSolver {
            inner,
            counters: LayerCounters::default(),
        }
    }

    /// The answer, if the query is one this layer decides.
    fn decide(pool: &ExprPool, assertions: &[ExprId], arrays: &[ArrayId]) -> Option<SatResult> {
        if assertions
            .iter()
            .any(|&a| pool.as_const(a).is_some_and(|c| !c.is_true()))
        {
            return Some(SatResult::Unsat);
        }
        // Each assertion on its own: the term it bounds and how.
        let matched: Vec<Option<(ExprId, IntervalSet)>> =
            assertions.iter().map(|&a| bound_of(pool, a)).collect();
        // A term's values also lie in its structural range (`(x & 255) << 2`
        // is at most 1020): bounds outside it are unsatisfiable on their own
        // (the bounds check of a lookup table's index).
        for (t, s) in matched.iter().flatten() {
            if let Some((lo, hi)) = pool.unsigned_range(*t) {
                let within = IntervalSet::range(pool.width(*t), u128::from(lo), u128::from(hi));
                if s.intersect(&within).is_empty() {
                    return Some(SatResult::Unsat);
                }
            }
        }
        let atom = choose_atom(pool, &matched)?;
        let mut set = IntervalSet::full(pool.width(atom));
        let mut others = Vec::new();
        for (&a, m) in assertions.iter().zip(&matched) {
            match m {
                Some((t, s)) if *t == atom => set = set.intersect(s),
                _ if pool.as_const(a).is_some() => {}
                _ => others.push(a),
            }
        }
        if set.is_empty() {
            // A subset of the assertions is already unsatisfiable.
            return Some(SatResult::Unsat);
        }
        let mut bytes = Vec::new();
        if !plain_read(pool, atom, &mut bytes) || bytes.len() * 8 != pool.width(atom) as usize {
            return None;
        }
        let model_for = |value: u128| {
            let mut model = Assignment::new();
            for (k, &(array, index)) in bytes.iter().rev().enumerate() {
                let size = pool.array_info(array).size as usize;
                let mut content = model.bytes(array).to_vec();
                content.resize(size.max(index as usize + 1), 0);
                content[index as usize] = (value >> (8 * k)) as u8;
                model.set(array, content);
            }
            project(pool, &model, arrays)
        };
        let holds = |model: &Assignment| assertions.iter().all(|&a| pool.eval_bool(a, model));
        let (lo, hi) = (set.min()?, set.max_member()?);
        if others.is_empty() {
            let model = model_for(lo);
            return holds(&model).then_some(SatResult::Sat(model));
        }
        // The other assertions: decided exactly when the bounds pin the term
        // to one value and they read nothing the term does not determine;
        // otherwise the bounds' extremes are tried as models.
        if lo == hi && determined_by(pool, &bytes, &others) {
            let model = model_for(lo);
            return Some(if holds(&model) {
                SatResult::Sat(model)
            } else {
                SatResult::Unsat
            });
        }
        [lo, hi]
            .into_iter()
            .map(model_for)
            .find(holds)
            .map(SatResult::Sat)
    }
}

/// The term most assertions bound, preferring plain reads (which can be
/// given a model).
fn choose_atom(pool: &ExprPool, matched: &[Option<(ExprId, IntervalSet)>]) -> Option<ExprId> {
    let mut counts: Vec<(ExprId, usize)> = Vec::new();
    for (t, _) in matched.iter().flatten() {
        match counts.iter_mut().find(|(u, _)| u == t) {
            Some((_, n)) => *n += 1,
            None => counts.push((*t, 1)),
        }
    }
    let plain = |t: ExprId| plain_read(pool, t, &mut Vec::new());
    counts
        .iter()
        .max_by_key(|&&(t, n)| (plain(t), n, std::cmp::Reverse(t)))
        .map(|&(t, _)| t)
}

/// Whether the `bytes` of a plain read cover whole arrays and `others`
/// read no other array: their values are then fixed by the read's value.
fn determined_by(pool: &ExprPool, bytes: &[(ArrayId, u32)], others: &[ExprId]) -> bool {
    let mut covered: Vec<(ArrayId, Vec<bool>)> = Vec::new();
    for &(array, index) in bytes {
        let size = pool.array_info(array).size as usize;
        let entry = match covered.iter().position(|(a, _)| *a == array) {
            Some(i) => &mut covered[i].1,
            None => {
                covered.push((array, vec![false; size]));
                &mut covered.last_mut().expect("just pushed").1
            }
        };
        match entry.get_mut(index as usize) {
            Some(slot) => *slot = true,
            None => return false,
        }
    }
    covered.iter().all(|(_, seen)| seen.iter().all(|b| *b))
        && others.iter().all(|&e| {
            pool.arrays_in_slice(e)
                .iter()
                .all(|a| covered.iter().any(|(c, _)| c == a))
        })
}

impl<S: Solver> Solver for BoundsSolver<S> {
    fn check(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        let inner = &mut self.inner;
        self.counters.own_or_below(
            || {
                validate(pool, assertions, arrays)?;
                Ok(Self::decide(pool, assertions, arrays))
            },
            || inner.check(pool, assertions, arrays),
        )
    }

    crate::answering_layer_plumbing!("bounds");
}
