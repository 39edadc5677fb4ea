//! Pure checks and helpers for the Bitwuzla translation that need no backend
//! calls: well-sortedness of expressions before any term is built (Bitwuzla
//! aborts the process on ill-sorted terms) and store-chain analysis.

use crate::SolverError;
use symtest_expr::{conv_widths_ok, is_fp_width, ExprId, ExprPool, Node};

/// Longest store chain a symbolic-index read is expanded over.
pub(crate) const READ_OVER_WRITE_LIMIT: usize = 1024;

/// Is `select(array, index)` translated by read-over-write expansion (a
/// non-constant index into a store chain)?
pub(crate) fn expands(pool: &ExprPool, array: ExprId, index: ExprId) -> bool {
    matches!(pool.node(array), Node::Store { .. }) && pool.as_const(index).is_none()
}

/// The (index, value) pairs of the store chain `array`, outermost first, at
/// most [`READ_OVER_WRITE_LIMIT`] of them, and the array below them.
pub(crate) fn store_chain(pool: &ExprPool, mut array: ExprId) -> (Vec<(ExprId, ExprId)>, ExprId) {
    let mut stores = Vec::new();
    while let Node::Store {
        array: inner,
        index,
        value,
    } = *pool.node(array)
    {
        if stores.len() == READ_OVER_WRITE_LIMIT {
            break;
        }
        stores.push((index, value));
        array = inner;
    }
    (stores, array)
}

/// Store nodes walked at most when looking for the stores a read can reach.
pub(crate) const STORE_WALK_LIMIT: usize = 1 << 16;

/// The stores of chain `array` a read at `index` can reach — those whose
/// index can equal `index`, judging by the unsigned ranges of both (a read
/// of `table[k & 0xff]` in a large flushed object reaches 256 of its bytes) —
/// outermost first, at most [`READ_OVER_WRITE_LIMIT`] of them, and the array
/// below the last store considered (the chain's root when it was walked
/// whole). Skipped stores cannot change the value read, so `select(array,
/// index)` equals the read over the stores returned, falling back to
/// `select(base, index)`.
pub(crate) fn store_chain_for(
    pool: &ExprPool,
    mut array: ExprId,
    index: ExprId,
) -> (Vec<(ExprId, ExprId)>, ExprId) {
    let Some((lo, hi)) = pool.unsigned_range(index) else {
        return store_chain(pool, array);
    };
    let mut stores = Vec::new();
    let mut walked = 0;
    while let Node::Store {
        array: inner,
        index: i,
        value,
    } = *pool.node(array)
    {
        if stores.len() == READ_OVER_WRITE_LIMIT || walked == STORE_WALK_LIMIT {
            break;
        }
        walked += 1;
        let reachable = match pool.unsigned_range(i) {
            Some((il, ih)) => il <= hi && lo <= ih,
            None => true,
        };
        if reachable {
            stores.push((i, value));
        }
        array = inner;
    }
    (stores, array)
}

/// Indices `lo..=hi` of a constant table holding `first + (i - lo) * step`
/// (mod 256): a run of equal bytes (`step` 0) or of consecutive codes such
/// as `'A'..'Z'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TableRun {
    pub lo: u32,
    pub hi: u32,
    pub first: u8,
    pub step: u8,
}

impl TableRun {
    /// The byte the run holds at `i` (`lo <= i <= hi`).
    pub(crate) fn at(&self, i: u32) -> u8 {
        let k = u64::from(i - self.lo) % 256;
        self.first
            .wrapping_add(((k * u64::from(self.step)) % 256) as u8)
    }
}

/// A store chain whose every store writes a constant byte at a constant index
/// (a lookup table such as `is_control[128]` or a base64 alphabet), as runs of
/// arithmetic progressions over its effective contents (the outermost store
/// of an index wins), when that takes at most half as many runs as stores.
/// A symbolic-index read of the table then costs a range test per run
/// instead of an index comparison per store.
pub(crate) fn table_runs(pool: &ExprPool, stores: &[(ExprId, ExprId)]) -> Option<Vec<TableRun>> {
    let mut table = std::collections::BTreeMap::new();
    for &(i, v) in stores {
        let i = u32::try_from(pool.as_const(i)?.to_u64()).ok()?;
        let v = pool.as_const(v)?.to_u64() as u8;
        table.entry(i).or_insert(v);
    }
    let mut runs: Vec<TableRun> = Vec::new();
    for (&i, &v) in &table {
        if let Some(r) = runs.last_mut() {
            if r.hi.checked_add(1) == Some(i) {
                if r.lo == r.hi {
                    r.step = v.wrapping_sub(r.first);
                    r.hi = i;
                    continue;
                }
                if r.at(i) == v {
                    r.hi = i;
                    continue;
                }
            }
        }
        runs.push(TableRun {
            lo: i,
            hi: i,
            first: v,
            step: 0,
        });
    }
    (runs.len() * 2 <= stores.len()).then_some(runs)
}

pub(crate) fn malformed(id: ExprId, reason: &str) -> SolverError {
    SolverError::Malformed {
        id,
        reason: reason.to_string(),
    }
}

/// Checks that `id`'s operands have the sorts Bitwuzla requires.
pub(crate) fn check_sorts(pool: &ExprPool, id: ExprId) -> Result<(), SolverError> {
    let w = |e: ExprId| pool.width(e);
    let bvs = |e: ExprId| !pool.is_array(e);
    let ok = match *pool.node(id) {
        Node::Const(ref b) => b.width() >= 1,
        Node::Array(a) => a.index() < pool.arrays().len(),
        Node::Store {
            array,
            index,
            value,
        } => pool.is_array(array) && w(index) == 32 && w(value) == 8 && bvs(index) && bvs(value),
        Node::Select { array, index } => pool.is_array(array) && w(index) == 32 && bvs(index),
        Node::Not(a) => bvs(a),
        Node::Bin(_, a, b) | Node::Cmp(_, a, b) => bvs(a) && bvs(b) && w(a) == w(b),
        Node::Ite(c, t, e) => w(c) == 1 && bvs(c) && bvs(t) && bvs(e) && w(t) == w(e),
        Node::Concat(h, l) => bvs(h) && bvs(l),
        Node::Extract { expr, lo, width } => {
            bvs(expr) && width >= 1 && lo.checked_add(width).is_some_and(|e| e <= w(expr))
        }
        Node::ZExt(a, to) | Node::SExt(a, to) => bvs(a) && to >= w(a),
        Node::FBin(_, a, b) | Node::FCmp(_, a, b) => {
            bvs(a) && bvs(b) && is_fp_width(w(a)) && w(a) == w(b)
        }
        Node::FUn(_, a) => bvs(a) && is_fp_width(w(a)),
        Node::FFma(a, b, c) => {
            bvs(a) && bvs(b) && bvs(c) && is_fp_width(w(a)) && w(a) == w(b) && w(a) == w(c)
        }
        Node::FConv(op, a, to) => bvs(a) && conv_widths_ok(op, w(a), to),
    };
    if ok {
        Ok(())
    } else {
        Err(malformed(id, "ill-sorted operands"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(p: &mut ExprPool, table: &[(u64, u64)]) -> Vec<(ExprId, ExprId)> {
        table
            .iter()
            .map(|&(i, v)| (p.const_u64(32, i), p.const_u64(8, v)))
            .collect()
    }

    /// Only the stores a read's index can reach are expanded: 256 of a
    /// 16 KiB object for `4096 + (x & 0xff)`, and the walk goes to the root.
    #[test]
    fn chains_keep_the_stores_a_read_can_reach() {
        let mut p = ExprPool::new();
        let root = p.new_array("big", 16384);
        let mut arr = p.array(root);
        for i in 0..16384u64 {
            let (ic, vc) = (p.const_u64(32, i), p.const_u64(8, i % 251));
            arr = p.store(arr, ic, vc);
        }
        let x = p.new_array("x", 1);
        let xa = p.array(x);
        let zero = p.const_u64(32, 0);
        let xb = p.select(xa, zero);
        let xw = p.zext(xb, 32);
        let base = p.const_u64(32, 4096);
        let ix = p.add(base, xw);
        let (stores, below) = store_chain_for(&p, arr, ix);
        assert_eq!(stores.len(), 256);
        assert_eq!(below, p.array(root));
        let idx: Vec<u64> = stores
            .iter()
            .map(|(i, _)| p.as_const(*i).unwrap().to_u64())
            .collect();
        assert_eq!(idx.first(), Some(&4351));
        assert_eq!(idx.last(), Some(&4096));
        // An index of unknown range keeps the first READ_OVER_WRITE_LIMIT.
        let wide = p.select(xa, zero);
        let wide = p.zext(wide, 32);
        let big = p.const_u64(32, 1 << 20);
        let wide = p.mul(wide, big);
        let (stores, _) = store_chain_for(&p, arr, wide);
        assert_eq!(stores.len(), READ_OVER_WRITE_LIMIT);
    }

    #[test]
    fn runs_of_lookup_tables() {
        let mut p = ExprPool::new();
        // is_control: 1 for 0..=31 and 127, else 0.
        let t: Vec<(u64, u64)> = (0..128)
            .map(|i| (i, u64::from(i < 32 || i == 127)))
            .collect();
        let stores = chain(&mut p, &t);
        let runs = table_runs(&p, &stores).unwrap();
        assert_eq!(
            runs,
            [
                TableRun {
                    lo: 0,
                    hi: 31,
                    first: 1,
                    step: 0
                },
                TableRun {
                    lo: 32,
                    hi: 126,
                    first: 0,
                    step: 0
                },
                TableRun {
                    lo: 127,
                    hi: 127,
                    first: 1,
                    step: 0
                },
            ]
        );
        // An alphabet: consecutive codes are one run each ('+' and '/' make
        // one run of step 4).
        let abc = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let t: Vec<(u64, u64)> = abc
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u64, u64::from(c)))
            .collect();
        let stores = chain(&mut p, &t);
        let runs = table_runs(&p, &stores).unwrap();
        assert_eq!(runs.len(), 4);
        for (i, &c) in abc.iter().enumerate() {
            let r = runs
                .iter()
                .find(|r| (r.lo..=r.hi).contains(&(i as u32)))
                .unwrap();
            assert_eq!(r.at(i as u32), c);
        }
        // The outermost store of an index wins.
        let stores = chain(&mut p, &[(0, 9), (0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]);
        let runs = table_runs(&p, &stores).unwrap();
        for (i, want) in [9u8, 1, 1, 1, 1].into_iter().enumerate() {
            let r = runs
                .iter()
                .find(|r| (r.lo..=r.hi).contains(&(i as u32)))
                .unwrap();
            assert_eq!(r.at(i as u32), want, "index {i}");
        }
        // Unstructured contents or symbolic stores keep the plain expansion.
        let stores = chain(&mut p, &[(0, 7), (1, 3), (2, 9), (3, 1), (4, 8)]);
        assert_eq!(table_runs(&p, &stores), None);
        let a = p.new_array("a", 1);
        let arr = p.array(a);
        let z = p.const_u64(32, 0);
        let sym = p.select(arr, z);
        let mut stores = chain(&mut p, &t);
        stores[3].1 = sym;
        assert_eq!(table_runs(&p, &stores), None);
    }
}
