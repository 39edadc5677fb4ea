//! Adding constraints to a path condition, with two of the optimizations of §3.3
//! that live in the executor (each switchable through `Config::solver_layers`):
//!
//! - **constraint-set simplification**: a new constraint `x = c` (or a Boolean `b`,
//!   `¬b`) is substituted into the earlier constraints, which are rewritten and
//!   dropped when they become true; later constraints are rewritten with the known
//!   equalities before they join;
//! - **implied value concretization**: when `x = c` fixes input bytes, memory bytes
//!   holding exactly those input bytes become the concrete values, so later reads
//!   are constants.

use crate::executor::Executor;
use crate::state::State;
use crate::value::Value;
use rustc_hash::FxHashMap;
use symtest_expr::{ArrayId, CmpOp, ExprId, ExprPool, Node};

/// Rebuilds `e` with `map` applied to its subexpressions (memoised per call).
/// A subexpression that reads none of the arrays the keys read cannot hold a
/// key and is kept as it is, without a walk (a store chain over another
/// array, a digest of another input).
pub fn substitute(pool: &mut ExprPool, e: ExprId, map: &FxHashMap<ExprId, ExprId>) -> ExprId {
    let mut memo: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    let mut keys: Vec<ArrayId> = Vec::new();
    let mut prune = true;
    for k in map.keys() {
        let arrays = pool.arrays_in_slice(*k);
        prune &= !arrays.is_empty();
        keys.extend_from_slice(arrays);
    }
    keys.sort_unstable();
    keys.dedup();
    let keys = Keys {
        arrays: keys,
        prune,
    };
    subst(pool, e, map, &keys, &mut memo)
}

/// The arrays a substitution's keys read, and whether subexpressions that
/// read none of them may be skipped (no key is free of arrays).
struct Keys {
    arrays: Vec<ArrayId>,
    prune: bool,
}

fn subst(
    pool: &mut ExprPool,
    e: ExprId,
    map: &FxHashMap<ExprId, ExprId>,
    keys: &Keys,
    memo: &mut FxHashMap<ExprId, ExprId>,
) -> ExprId {
    if let Some(r) = map.get(&e) {
        return *r;
    }
    if let Some(r) = memo.get(&e) {
        return *r;
    }
    if keys.prune
        && !pool
            .arrays_in_slice(e)
            .iter()
            .any(|a| keys.arrays.binary_search(a).is_ok())
    {
        return e;
    }
    let node = pool.node(e).clone();
    let mut s = |x: ExprId, pool: &mut ExprPool| subst(pool, x, map, keys, memo);
    let r = match node {
        Node::Const(_) | Node::Array(_) => e,
        Node::Store {
            array,
            index,
            value,
        } => {
            let (a, i, v) = (s(array, pool), s(index, pool), s(value, pool));
            pool.store(a, i, v)
        }
        Node::Select { array, index } => {
            let (a, i) = (s(array, pool), s(index, pool));
            pool.select(a, i)
        }
        Node::Not(a) => {
            let a = s(a, pool);
            pool.not(a)
        }
        Node::Bin(op, a, b) => {
            let (a, b) = (s(a, pool), s(b, pool));
            pool.bin(op, a, b)
        }
        Node::Cmp(op, a, b) => {
            let (a, b) = (s(a, pool), s(b, pool));
            pool.cmp(op, a, b)
        }
        Node::Ite(c, t, f) => {
            let (c, t, f) = (s(c, pool), s(t, pool), s(f, pool));
            pool.ite(c, t, f)
        }
        Node::Concat(h, l) => {
            let (h, l) = (s(h, pool), s(l, pool));
            pool.concat(h, l)
        }
        Node::Extract { expr, lo, width } => {
            let x = s(expr, pool);
            pool.extract(x, lo, width)
        }
        Node::ZExt(a, w) => {
            let a = s(a, pool);
            pool.zext(a, w)
        }
        Node::SExt(a, w) => {
            let a = s(a, pool);
            pool.sext(a, w)
        }
        Node::FBin(op, a, b) => {
            let (a, b) = (s(a, pool), s(b, pool));
            pool.fbin(op, a, b)
        }
        Node::FUn(op, a) => {
            let a = s(a, pool);
            pool.fun(op, a)
        }
        Node::FFma(a, b, c) => {
            let (a, b, c) = (s(a, pool), s(b, pool), s(c, pool));
            pool.ffma(a, b, c)
        }
        Node::FCmp(op, a, b) => {
            let (a, b) = (s(a, pool), s(b, pool));
            pool.fcmp(op, a, b)
        }
        Node::FConv(op, a, w) => {
            let a = s(a, pool);
            pool.fconv(op, a, w)
        }
    };
    memo.insert(e, r);
    r
}

/// The equality a constraint states, as (expression, constant), if any.
fn equality(pool: &mut ExprPool, c: ExprId) -> Option<(ExprId, ExprId)> {
    match pool.node(c).clone() {
        Node::Cmp(CmpOp::Eq, a, b) if pool.is_constant(a) && !pool.is_constant(b) => Some((b, a)),
        Node::Cmp(CmpOp::Eq, a, b) if pool.is_constant(b) && !pool.is_constant(a) => Some((a, b)),
        Node::Not(x) => {
            let f = pool.false_();
            Some((x, f))
        }
        _ if pool.width(c) == 1 => {
            let t = pool.true_();
            Some((c, t))
        }
        _ => None,
    }
}

/// The 8-bit input reads `e` is made of, with their bit offsets in `e`
/// (`select(array, i)` bytes joined by concatenation).
fn byte_pieces(pool: &ExprPool, e: ExprId, lo: u32, out: &mut Vec<(ExprId, u32)>) -> bool {
    match pool.node(e) {
        Node::Select { .. } => {
            out.push((e, lo));
            true
        }
        Node::Concat(h, l) => {
            let lw = pool.width(*l);
            let (h, l) = (*h, *l);
            byte_pieces(pool, l, lo, out) && byte_pieces(pool, h, lo + lw, out)
        }
        _ => false,
    }
}

impl Executor<'_> {
    /// Adds `cond` (feasible on this path) to the path condition.
    pub(crate) fn add_constraint(&mut self, st: &mut State, cond: &Value) {
        let mut c = match cond {
            Value::Concrete(_) => return,
            Value::Symbolic(e) => *e,
        };
        if self.config.simplify_constraints && !st.equalities.is_empty() {
            let map: FxHashMap<ExprId, ExprId> = st.equalities.iter().collect();
            c = substitute(&mut self.pool, c, &map);
            if let Some(b) = self.pool.as_const(c) {
                if b.is_true() {
                    return;
                }
            }
        }
        if let Some(m) = &st.model {
            if !self.pool.eval(c, m).is_true() {
                st.model = None;
            }
        }
        if !st.seeds.is_empty() {
            self.keep_seeds_where(st, c);
        }
        let eq = equality(&mut self.pool, c);
        if let (true, Some((x, k))) = (self.config.simplify_constraints, eq) {
            let map: FxHashMap<ExprId, ExprId> = std::iter::once((x, k)).collect();
            let mut rewritten = Vec::with_capacity(st.constraints.len() + 1);
            for ci in st.constraints.iter() {
                let r = substitute(&mut self.pool, ci, &map);
                if self.pool.as_const(r).is_some_and(|b| b.is_true()) {
                    continue;
                }
                rewritten.push(r);
            }
            st.constraints.replace_with(&rewritten);
            st.equalities.push((x, k));
        }
        st.constraints.push(c);
        if let (true, Some((x, k))) = (self.config.implied_value_concretization, eq) {
            self.concretize_implied(st, x, k);
        }
    }

    /// Adds `select(array, i) = v` for each `(array, i, v)` at once: one
    /// substitution pass over the path condition and one over memory, instead
    /// of one per byte.
    pub(crate) fn fix_input_bytes(&mut self, st: &mut State, bytes: &[(ArrayId, u32, u8)]) {
        if bytes.is_empty() {
            return;
        }
        let mut map: FxHashMap<ExprId, ExprId> = FxHashMap::default();
        let mut values: FxHashMap<ExprId, u8> = FxHashMap::default();
        for &(a, i, v) in bytes {
            let root = self.pool.array(a);
            let idx = self.pool.const_u64(32, u64::from(i));
            let sel = self.pool.select(root, idx);
            let k = self.pool.const_u64(8, u64::from(v));
            map.insert(sel, k);
            values.insert(sel, v);
        }
        if let Some(m) = &st.model {
            let still = map.iter().all(|(sel, k)| {
                self.pool.eval(*sel, m) == *self.pool.as_const(*k).expect("constant")
            });
            if !still {
                st.model = None;
            }
        }
        if self.config.simplify_constraints {
            let old = std::mem::take(&mut st.constraints);
            for ci in old.iter() {
                let r = substitute(&mut self.pool, ci, &map);
                if self.pool.as_const(r).is_some_and(|b| b.is_true()) {
                    continue;
                }
                st.constraints.push(r);
            }
            let old_eqs = std::mem::take(&mut st.equalities);
            for (x, k) in old_eqs.iter() {
                let x = substitute(&mut self.pool, x, &map);
                if !self.pool.is_constant(x) {
                    st.equalities.push((x, k));
                }
            }
        }
        let mut sorted: Vec<(ExprId, ExprId)> = map.into_iter().collect();
        sorted.sort_unstable();
        for (sel, k) in sorted {
            let eq = self.pool.eq(sel, k);
            st.constraints.push(eq);
            if self.config.simplify_constraints {
                st.equalities.push((sel, k));
            }
        }
        if self.config.implied_value_concretization {
            for base in st
                .memory
                .bases_with_symbolic_bytes(|c| c.holds_any(&values))
            {
                if let Some(c) = st.memory.contents_mut(base) {
                    c.replace_symbolic_bytes(&values);
                }
            }
        }
    }

    /// Writes the values an equality fixes back to memory (§3.3).
    fn concretize_implied(&mut self, st: &mut State, x: ExprId, k: ExprId) {
        let Some(kv) = self.pool.as_const(k).cloned() else {
            return;
        };
        let mut pieces = Vec::new();
        if !byte_pieces(&self.pool, x, 0, &mut pieces) {
            return;
        }
        let values: FxHashMap<ExprId, u8> = pieces
            .into_iter()
            .map(|(sel, lo)| (sel, kv.extract(lo, 8).to_u64() as u8))
            .collect();
        // Only objects holding one of those bytes are written (and so copied
        // if shared): the others keep sharing their contents.
        let bases: Vec<u64> = st
            .memory
            .bases_with_symbolic_bytes(|c| c.holds_any(&values));
        for base in bases {
            if let Some(c) = st.memory.contents_mut(base) {
                c.replace_symbolic_bytes(&values);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symtest_expr::{Assignment, BinOp};

    /// A substitution rewrites what reads the keys' arrays and hands back
    /// the very same expression for what reads none of them.
    #[test]
    fn substitution_skips_what_reads_none_of_the_keys_arrays() {
        let mut pool = ExprPool::new();
        let (a, b) = (pool.new_array("a", 4), pool.new_array("b", 4));
        let (ra, rb) = (pool.array(a), pool.array(b));
        let i0 = pool.const_u64(32, 0);
        let i1 = pool.const_u64(32, 1);
        let a0 = pool.select(ra, i0);
        let b0 = pool.select(rb, i0);
        let b1 = pool.select(rb, i1);
        // A store chain over `b` that stores a byte of `a`.
        let chain = pool.store(rb, i1, a0);
        let chain = pool.store(chain, i0, b1);
        let only_b = pool.bin(BinOp::Add, b0, b1);
        let mixed = pool.bin(BinOp::Add, a0, b0);
        let three = pool.const_u64(8, 3);
        let map: FxHashMap<ExprId, ExprId> = std::iter::once((a0, three)).collect();
        assert_eq!(substitute(&mut pool, only_b, &map), only_b);
        let r = substitute(&mut pool, mixed, &map);
        assert_ne!(r, mixed);
        let mut m = Assignment::new();
        m.set(b, vec![7, 1, 0, 0]);
        assert_eq!(pool.eval(r, &m).to_u64(), 10);
        // The chain reads `a` through a stored value: it is rewritten.
        let read = pool.select(chain, i1);
        let r = substitute(&mut pool, read, &map);
        assert_eq!(pool.eval(r, &m).to_u64(), 3);
    }
}
