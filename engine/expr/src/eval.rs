//! Concrete evaluation of expressions under an assignment of the symbolic
//! arrays. Independent of any solver: tests use it to check models.

use crate::bits::Bits;
use crate::pool::{ArrayId, ExprId, ExprPool, Node};
use rustc_hash::FxHashMap;

/// Concrete contents for symbolic arrays. Bytes not given (missing arrays,
/// indices past the end of a vector) read as 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    arrays: FxHashMap<ArrayId, Vec<u8>>,
}

impl Assignment {
    /// An empty assignment (every byte reads as 0).
    pub fn new() -> Assignment {
        Assignment::default()
    }

    /// Sets the contents of array `a`.
    pub fn set(&mut self, a: ArrayId, bytes: Vec<u8>) {
        self.arrays.insert(a, bytes);
    }

    /// The contents of `a`, if set.
    pub fn get(&self, a: ArrayId) -> Option<&[u8]> {
        self.arrays.get(&a).map(Vec::as_slice)
    }

    /// The contents of `a`; empty if not set.
    pub fn bytes(&self, a: ArrayId) -> &[u8] {
        self.get(a).unwrap_or(&[])
    }

    /// Byte `i` of `a` (0 if not set).
    pub fn byte(&self, a: ArrayId, i: u64) -> u8 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.bytes(a).get(i).copied())
            .unwrap_or(0)
    }

    /// The arrays with contents, in unspecified order.
    pub fn iter(&self) -> impl Iterator<Item = (ArrayId, &[u8])> {
        self.arrays.iter().map(|(&a, v)| (a, v.as_slice()))
    }

    /// Number of arrays with contents.
    pub fn len(&self) -> usize {
        self.arrays.len()
    }

    /// True if no array has contents.
    pub fn is_empty(&self) -> bool {
        self.arrays.is_empty()
    }
}

/// Evaluates several expressions under one assignment, sharing a memo.
pub struct Evaluator<'a> {
    pool: &'a ExprPool,
    asg: &'a Assignment,
    /// `None` marks an evaluated array-sorted node.
    memo: FxHashMap<ExprId, Option<Bits>>,
}

impl<'a> Evaluator<'a> {
    /// An evaluator for `pool` under `asg`.
    pub fn new(pool: &'a ExprPool, asg: &'a Assignment) -> Evaluator<'a> {
        Evaluator {
            pool,
            asg,
            memo: FxHashMap::default(),
        }
    }

    /// The value of bit-vector expression `e`.
    pub fn eval(&mut self, e: ExprId) -> Bits {
        assert!(!self.pool.is_array(e), "eval of an array-sorted expression");
        let mut stack = vec![(e, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.memo.contains_key(&id) {
                continue;
            }
            if expanded {
                let v = self.compute(id);
                self.memo.insert(id, v);
            } else {
                stack.push((id, true));
                for c in self.pool.node(id).children() {
                    if !self.memo.contains_key(&c) {
                        stack.push((c, false));
                    }
                }
            }
        }
        self.value(e).clone()
    }

    /// The value of width-1 expression `e` as a bool.
    pub fn eval_bool(&mut self, e: ExprId) -> bool {
        debug_assert_eq!(self.pool.width(e), 1);
        self.eval(e).is_true()
    }

    fn value(&self, e: ExprId) -> &Bits {
        self.memo[&e]
            .as_ref()
            .expect("bit-vector value of an array-sorted node")
    }

    /// Computes `id` whose children are all in the memo.
    fn compute(&self, id: ExprId) -> Option<Bits> {
        let v = |e: ExprId| self.value(e);
        Some(match self.pool.node(id) {
            Node::Const(b) => b.clone(),
            Node::Array(_) | Node::Store { .. } => return None,
            Node::Select { array, index } => self.select(*array, v(*index)),
            Node::Not(a) => v(*a).not(),
            Node::Bin(op, a, b) => op.apply(v(*a), v(*b)),
            Node::Cmp(op, a, b) => Bits::from_bool(op.apply(v(*a), v(*b))),
            Node::Ite(c, t, e) => {
                if v(*c).is_true() {
                    v(*t).clone()
                } else {
                    v(*e).clone()
                }
            }
            Node::Concat(h, l) => Bits::concat(v(*h), v(*l)),
            Node::Extract { expr, lo, width } => v(*expr).extract(*lo, *width),
            Node::ZExt(a, w) => v(*a).zext(*w),
            Node::SExt(a, w) => v(*a).sext(*w),
            Node::FBin(op, a, b) => op.apply(v(*a), v(*b)),
            Node::FUn(op, a) => op.apply(v(*a)),
            Node::FFma(a, b, c) => crate::fp::fma(v(*a), v(*b), v(*c)),
            Node::FCmp(op, a, b) => Bits::from_bool(op.apply(v(*a), v(*b))),
            Node::FConv(op, a, w) => op.apply(v(*a), *w),
        })
    }

    /// Reads byte `index` through a store chain.
    fn select(&self, mut array: ExprId, index: &Bits) -> Bits {
        loop {
            match self.pool.node(array) {
                Node::Store {
                    array: base,
                    index: i,
                    value,
                } => {
                    if self.value(*i) == index {
                        return self.value(*value).clone();
                    }
                    array = *base;
                }
                Node::Array(a) => {
                    let byte = index.as_u64_exact().map_or(0, |i| self.asg.byte(*a, i));
                    return Bits::from_u64(8, byte as u64);
                }
                other => unreachable!("select from non-array node {other:?}"),
            }
        }
    }
}

impl ExprPool {
    /// The value of bit-vector expression `e` under `asg` (memoised within
    /// the call).
    pub fn eval(&self, e: ExprId, asg: &Assignment) -> Bits {
        Evaluator::new(self, asg).eval(e)
    }

    /// The value of width-1 expression `e` under `asg`.
    pub fn eval_bool(&self, e: ExprId, asg: &Assignment) -> bool {
        Evaluator::new(self, asg).eval_bool(e)
    }
}
