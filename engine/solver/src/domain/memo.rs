//! What the small-domain layer learnt of single assertions, kept across
//! queries.
//!
//! A path condition grows by a conjunct per branch, so consecutive queries
//! repeat nearly all their assertions; tabulating each over its bytes'
//! values again would be most of the layer's work (a two-byte link of a
//! UTF-8 decoder: 51 x 256 evaluations, on every query). An assertion's truth
//! over the values of its one or two variables is a pure function of them
//! (the expression is hash-consed, a variable is an input byte, and a read
//! at a symbolic index that reaches a byte the query does not own reads 0,
//! as in every query where the assertion has the same variables), so it is
//! kept here, keyed by the assertion and checked against its variables.

use super::relation::ByteSet;
use rustc_hash::FxHashMap;
use std::rc::Rc;
use symtest_expr::{ArrayId, Bits, ExprId, ExprPool, Node};

/// An input byte: its array and index.
pub(super) type Var = (ArrayId, u64);

/// Rows (tabulated values of one variable) the memo holds before it is
/// emptied: at most 8 MiB.
pub(super) const MEMO_MAX_ROWS: usize = 1 << 18;

/// The values of its one variable an assertion holds for.
pub(super) struct Unary {
    pub(super) var: Var,
    pub(super) holds: ByteSet,
    /// The values rejected by an evaluation that read a byte the query
    /// does not own (as 0): the rejection holds for that byte's 0 only.
    pub(super) tainted: ByteSet,
}

/// The value pairs of its two variables an assertion holds for, over the
/// domains it was tabulated on.
pub(super) struct Binary {
    pub(super) vars: [Var; 2],
    pub(super) doms: [ByteSet; 2],
    /// Per value of `doms[0]`, ascending: the values of `vars[1]` in
    /// `doms[1]` it holds with.
    pub(super) rows: Vec<ByteSet>,
    pub(super) tainted: bool,
}

impl Binary {
    /// The values of `vars[1]` that `x` (a member of `doms[0]`) holds with.
    pub(super) fn row(&self, x: u8) -> &ByteSet {
        &self.rows[self.doms[0].rank(x)]
    }
}

/// The value triples of its three variables (ordered by [`Var`]) an
/// assertion holds for, over the domains it was tabulated on.
pub(super) struct Ternary {
    pub(super) vars: [Var; 3],
    pub(super) doms: [ByteSet; 3],
    /// Per pair of values of `doms[0]` and `doms[1]` (row-major, each
    /// ascending): the values of `vars[2]` in `doms[2]` it holds with.
    pub(super) rows: Vec<ByteSet>,
    pub(super) tainted: bool,
}

impl Ternary {
    /// The values of `vars[2]` that `x` and `y` (members of `doms[0]` and
    /// `doms[1]`) hold with.
    pub(super) fn row(&self, x: u8, y: u8) -> &ByteSet {
        &self.rows[self.doms[0].rank(x) * self.doms[1].len() + self.doms[1].rank(y)]
    }
}

/// A chain of stores of constant bytes at constant indices over an array
/// root: a lookup table.
pub(super) struct ConstTable {
    pub(super) root: ArrayId,
    /// The newest store's byte at each index.
    pub(super) bytes: FxHashMap<u64, u8>,
}

/// The memo of one expression pool.
#[derive(Default)]
pub(super) struct Memo {
    pool_uid: u64,
    unary: FxHashMap<ExprId, Unary>,
    binary: FxHashMap<ExprId, Rc<Binary>>,
    ternary: FxHashMap<ExprId, Rc<Ternary>>,
    /// Per array expression: its lookup table, `None` if it is not one.
    tables: FxHashMap<ExprId, Option<Rc<ConstTable>>>,
    rows: usize,
    /// Lookups answered, for tests.
    pub(super) hits: u64,
}

impl Memo {
    /// Forgets everything when the queries come from another pool.
    pub(super) fn begin(&mut self, pool_uid: u64) {
        if pool_uid != self.pool_uid {
            self.clear();
            self.pool_uid = pool_uid;
        }
    }

    fn clear(&mut self) {
        self.unary.clear();
        self.binary.clear();
        self.ternary.clear();
        self.tables.clear();
        self.rows = 0;
    }

    /// Room for `rows` more rows, emptying the memo if need be.
    fn reserve(&mut self, rows: usize) {
        if self.rows + rows > MEMO_MAX_ROWS {
            self.clear();
        }
        self.rows += rows;
    }

    pub(super) fn unary(&mut self, e: ExprId, var: Var) -> Option<&Unary> {
        let u = self.unary.get(&e).filter(|u| u.var == var)?;
        self.hits += 1;
        Some(u)
    }

    pub(super) fn set_unary(&mut self, e: ExprId, u: Unary) {
        self.reserve(1);
        self.unary.insert(e, u);
    }

    /// The assertion's table, if one was made over the variables `vars`
    /// (in either order) and domains covering `doms`.
    pub(super) fn binary(
        &mut self,
        e: ExprId,
        vars: [Var; 2],
        doms: [&ByteSet; 2],
    ) -> Option<(Rc<Binary>, bool)> {
        let b = self.binary.get(&e)?;
        let swapped = if b.vars == vars {
            false
        } else if b.vars == [vars[1], vars[0]] {
            true
        } else {
            return None;
        };
        let (d0, d1) = if swapped {
            (doms[1], doms[0])
        } else {
            (doms[0], doms[1])
        };
        if !d0.is_subset(&b.doms[0]) || !d1.is_subset(&b.doms[1]) {
            return None;
        }
        self.hits += 1;
        Some((b.clone(), swapped))
    }

    /// The domains an earlier table of `e` over `vars` covered, to widen a
    /// new one to (so that sibling paths narrowing a byte differently share
    /// it).
    pub(super) fn binary_doms(&self, e: ExprId, vars: [Var; 2]) -> Option<[ByteSet; 2]> {
        let b = self.binary.get(&e)?;
        if b.vars == vars {
            Some(b.doms)
        } else if b.vars == [vars[1], vars[0]] {
            Some([b.doms[1], b.doms[0]])
        } else {
            None
        }
    }

    pub(super) fn set_binary(&mut self, e: ExprId, b: Rc<Binary>) {
        self.reserve(b.rows.len());
        if let Some(old) = self.binary.insert(e, b) {
            self.rows -= old.rows.len().min(self.rows);
        }
    }

    /// The assertion's table over `vars` (in [`Var`] order), if one was
    /// made over domains covering `doms`.
    pub(super) fn ternary(
        &mut self,
        e: ExprId,
        vars: [Var; 3],
        doms: [&ByteSet; 3],
    ) -> Option<Rc<Ternary>> {
        let t = self.ternary.get(&e).filter(|t| t.vars == vars)?;
        if !(0..3).all(|i| doms[i].is_subset(&t.doms[i])) {
            return None;
        }
        self.hits += 1;
        Some(t.clone())
    }

    /// The domains an earlier table of `e` over `vars` covered.
    pub(super) fn ternary_doms(&self, e: ExprId, vars: [Var; 3]) -> Option<[ByteSet; 3]> {
        self.ternary
            .get(&e)
            .filter(|t| t.vars == vars)
            .map(|t| t.doms)
    }

    pub(super) fn set_ternary(&mut self, e: ExprId, t: Rc<Ternary>) {
        self.reserve(t.rows.len());
        if let Some(old) = self.ternary.insert(e, t) {
            self.rows -= old.rows.len().min(self.rows);
        }
    }

    /// `array` as a lookup table, if it is a chain of constant stores at
    /// constant indices over a root (with at least one store).
    pub(super) fn const_table(&mut self, pool: &ExprPool, array: ExprId) -> Option<Rc<ConstTable>> {
        if let Some(t) = self.tables.get(&array) {
            return t.clone();
        }
        let mut bytes = FxHashMap::default();
        let mut cur = array;
        let table = loop {
            match pool.node(cur) {
                Node::Store {
                    array: base,
                    index,
                    value,
                } => {
                    let (Some(i), Some(v)) = (
                        pool.as_const(*index).and_then(Bits::as_u64_exact),
                        pool.as_const(*value).and_then(Bits::as_u64_exact),
                    ) else {
                        break None;
                    };
                    // Newest first: the first store at an index wins.
                    bytes.entry(i).or_insert(v as u8);
                    cur = *base;
                }
                Node::Array(root) if cur != array => {
                    break Some(Rc::new(ConstTable { root: *root, bytes }));
                }
                _ => break None,
            }
        };
        self.reserve(1);
        self.tables.insert(array, table.clone());
        table
    }
}
