//! Pure checks and helpers for the Bitwuzla translation that need no backend
//! calls: well-sortedness of expressions before any term is built (Bitwuzla
//! aborts the process on ill-sorted terms) and store-chain analysis.

use crate::SolverError;
use symtest_expr::{ExprId, ExprPool, Node};

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
    };
    if ok {
        Ok(())
    } else {
        Err(malformed(id, "ill-sorted operands"))
    }
}
