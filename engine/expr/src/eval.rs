//! Concrete evaluation of expressions under an assignment of the symbolic
//! arrays. Independent of any solver: tests use it to check models.

use crate::bits::Bits;
use crate::pool::{ArrayId, ExprId, ExprPool, Node};
use rustc_hash::FxHashMap;

/// Concrete contents for symbolic arrays. Bytes not given (missing arrays,
/// indices past the end of a vector) read as 0.
///
/// Compact: one byte buffer and an index sorted by array (two allocations
/// whatever the number of arrays), since every execution state may keep one.
#[derive(Clone, Debug, Default)]
pub struct Assignment {
    /// (array, start in `data`, length), sorted by array.
    index: Vec<(ArrayId, u32, u32)>,
    data: Vec<u8>,
}

impl PartialEq for Assignment {
    fn eq(&self, other: &Assignment) -> bool {
        self.len() == other.len() && self.iter().all(|(a, b)| other.get(a) == Some(b))
    }
}

impl Eq for Assignment {}

impl Assignment {
    /// An empty assignment (every byte reads as 0).
    pub fn new() -> Assignment {
        Assignment::default()
    }

    fn slot(&self, a: ArrayId) -> Result<usize, usize> {
        self.index.binary_search_by_key(&a, |&(x, _, _)| x)
    }

    /// Sets the contents of array `a`.
    pub fn set(&mut self, a: ArrayId, bytes: Vec<u8>) {
        match self.slot(a) {
            Ok(i) => {
                let (_, start, len) = self.index[i];
                if len as usize == bytes.len() {
                    let start = start as usize;
                    self.data[start..start + bytes.len()].copy_from_slice(&bytes);
                    return;
                }
                // A different length: rebuild without the old contents.
                let old = std::mem::take(self);
                for (x, b) in old.iter().filter(|&(x, _)| x != a) {
                    self.append(x, b);
                }
                self.set(a, bytes);
            }
            Err(_) => self.append(a, &bytes),
        }
    }

    fn append(&mut self, a: ArrayId, bytes: &[u8]) {
        let start = u32::try_from(self.data.len()).expect("assignment below 4 GiB");
        let len = u32::try_from(bytes.len()).expect("array below 4 GiB");
        self.data.extend_from_slice(bytes);
        let i = self.slot(a).unwrap_or_else(|i| i);
        self.index.insert(i, (a, start, len));
    }

    /// The contents of `a`, if set.
    pub fn get(&self, a: ArrayId) -> Option<&[u8]> {
        let (_, start, len) = self.index[self.slot(a).ok()?];
        Some(&self.data[start as usize..(start + len) as usize])
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

    /// The arrays with contents, in increasing array order.
    pub fn iter(&self) -> impl Iterator<Item = (ArrayId, &[u8])> {
        self.index
            .iter()
            .map(|&(a, s, l)| (a, &self.data[s as usize..(s + l) as usize]))
    }

    /// Number of arrays with contents.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// True if no array has contents.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Releases spare capacity (an assignment kept for long).
    pub fn shrink_to_fit(&mut self) {
        self.index.shrink_to_fit();
        self.data.shrink_to_fit();
    }

    /// Heap bytes held (for memory accounting).
    pub fn heap_bytes(&self) -> usize {
        self.index.capacity() * std::mem::size_of::<(ArrayId, u32, u32)>() + self.data.capacity()
    }
}

/// Evaluates several expressions under one assignment, sharing a memo.
///
/// Evaluation is lazy where the value does not need every operand: an
/// `ite` evaluates its condition and then only the side it takes, and a
/// read through a chain of stores evaluates its index, then walks the chain
/// from the newest store, evaluating store indices only until one matches,
/// and only that store's value. A lookup table or a buffer written many
/// times is a long chain; evaluating all of it for one read was most of
/// the cost of checking a model on code that reads memory at symbolic
/// offsets.
pub struct Evaluator<'a> {
    pool: &'a ExprPool,
    asg: &'a Assignment,
    /// Values of the non-constant bit-vector nodes evaluated so far.
    memo: FxHashMap<ExprId, Bits>,
}

/// Work items of [`Evaluator::eval`]'s explicit stack.
enum Step {
    /// Evaluate this node (if not known yet).
    Enter(ExprId),
    /// Every operand is known: compute the node.
    Finish(ExprId),
    /// The condition of this `ite` is known: evaluate the side it takes.
    Choose(ExprId),
    /// The node's value is that of `from`, now known.
    Copy { id: ExprId, from: ExprId },
    /// A read whose index is known, walking its store chain at `cur`.
    Walk { id: ExprId, cur: ExprId },
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

    /// Evaluates `e` as having value `v` from now on (whatever its operands
    /// are): a function of `e` can then be tabulated over `e`'s values.
    pub fn assume(&mut self, e: ExprId, v: Bits) {
        debug_assert_eq!(self.pool.width(e), v.width());
        self.memo.insert(e, v);
    }

    /// Is the value of `e` known (a constant, or evaluated)?
    #[inline]
    fn known(&self, e: ExprId) -> bool {
        self.pool.as_const(e).is_some() || self.memo.contains_key(&e)
    }

    /// The value of bit-vector expression `e`.
    pub fn eval(&mut self, e: ExprId) -> Bits {
        assert!(!self.pool.is_array(e), "eval of an array-sorted expression");
        let mut stack = vec![Step::Enter(e)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Enter(id) => {
                    if self.known(id) {
                        continue;
                    }
                    match *self.pool.node(id) {
                        Node::Select { array, index } => {
                            stack.push(Step::Walk { id, cur: array });
                            stack.push(Step::Enter(index));
                        }
                        Node::Ite(c, _, _) => {
                            stack.push(Step::Choose(id));
                            stack.push(Step::Enter(c));
                        }
                        Node::Array(_) | Node::Store { .. } => {
                            unreachable!("array-sorted operand of a bit-vector node")
                        }
                        ref node => {
                            stack.push(Step::Finish(id));
                            for c in node.children() {
                                if !self.known(c) {
                                    stack.push(Step::Enter(c));
                                }
                            }
                        }
                    }
                }
                Step::Finish(id) => {
                    let v = self.compute(id);
                    self.memo.insert(id, v);
                }
                Step::Choose(id) => {
                    let Node::Ite(c, t, f) = *self.pool.node(id) else {
                        unreachable!("Choose of a non-ite node")
                    };
                    let from = if self.value(c).is_true() { t } else { f };
                    self.copy_or_enter(&mut stack, id, from);
                }
                Step::Copy { id, from } => {
                    let v = self.value(from).clone();
                    self.memo.insert(id, v);
                }
                Step::Walk { id, mut cur } => {
                    let Node::Select { index, .. } = *self.pool.node(id) else {
                        unreachable!("Walk of a non-select node")
                    };
                    loop {
                        match *self.pool.node(cur) {
                            Node::Store {
                                array: base,
                                index: i,
                                value,
                            } => {
                                if !self.known(i) {
                                    stack.push(Step::Walk { id, cur });
                                    stack.push(Step::Enter(i));
                                    break;
                                }
                                if self.value(i) == self.value(index) {
                                    self.copy_or_enter(&mut stack, id, value);
                                    break;
                                }
                                cur = base;
                            }
                            Node::Array(a) => {
                                let byte = self
                                    .value(index)
                                    .as_u64_exact()
                                    .map_or(0, |i| self.asg.byte(a, i));
                                self.memo.insert(id, Bits::from_u64(8, byte as u64));
                                break;
                            }
                            ref other => unreachable!("select from non-array node {other:?}"),
                        }
                    }
                }
            }
        }
        self.value(e).clone()
    }

    /// `id` takes the value of `from`: now if known, else once evaluated.
    fn copy_or_enter(&mut self, stack: &mut Vec<Step>, id: ExprId, from: ExprId) {
        if self.known(from) {
            let v = self.value(from).clone();
            self.memo.insert(id, v);
        } else {
            stack.push(Step::Copy { id, from });
            stack.push(Step::Enter(from));
        }
    }

    /// The value of width-1 expression `e` as a bool.
    pub fn eval_bool(&mut self, e: ExprId) -> bool {
        debug_assert_eq!(self.pool.width(e), 1);
        self.eval(e).is_true()
    }

    /// The value of a known node.
    #[inline]
    fn value(&self, e: ExprId) -> &Bits {
        match self.pool.as_const(e) {
            Some(b) => b,
            None => &self.memo[&e],
        }
    }

    /// Computes `id` (neither a read, an `ite` nor array-sorted) whose
    /// operands are all known.
    fn compute(&self, id: ExprId) -> Bits {
        let v = |e: ExprId| self.value(e);
        match self.pool.node(id) {
            Node::Const(b) => b.clone(),
            Node::Array(_) | Node::Store { .. } | Node::Select { .. } | Node::Ite(..) => {
                unreachable!("computed lazily or array-sorted")
            }
            Node::Not(a) => v(*a).not(),
            Node::Bin(op, a, b) => op.apply(v(*a), v(*b)),
            Node::Cmp(op, a, b) => Bits::from_bool(op.apply(v(*a), v(*b))),
            Node::Concat(h, l) => Bits::concat(v(*h), v(*l)),
            Node::Extract { expr, lo, width } => v(*expr).extract(*lo, *width),
            Node::ZExt(a, w) => v(*a).zext(*w),
            Node::SExt(a, w) => v(*a).sext(*w),
            Node::FBin(op, a, b) => op.apply(v(*a), v(*b)),
            Node::FUn(op, a) => op.apply(v(*a)),
            Node::FFma(a, b, c) => crate::fp::fma(v(*a), v(*b), v(*c)),
            Node::FCmp(op, a, b) => Bits::from_bool(op.apply(v(*a), v(*b))),
            Node::FConv(op, a, w) => op.apply(v(*a), *w),
        }
    }

    /// The first `len` bytes of array-sorted expression `array` (a chain of
    /// stores over an array): one walk of the chain, where reading each byte
    /// through it would walk it once per byte.
    pub fn eval_array(&mut self, array: ExprId, len: usize) -> Vec<u8> {
        let mut stores = Vec::new();
        let mut cur = array;
        let root = loop {
            match self.pool.node(cur) {
                Node::Store {
                    array: base,
                    index,
                    value,
                } => {
                    stores.push((*index, *value));
                    cur = *base;
                }
                Node::Array(a) => break *a,
                other => unreachable!("array expression over {other:?}"),
            }
        };
        let mut out: Vec<u8> = (0..len as u64).map(|i| self.asg.byte(root, i)).collect();
        // Oldest store first: later ones overwrite.
        for (index, value) in stores.into_iter().rev() {
            let i = self.eval(index);
            if let Some(i) = i.as_u64_exact().filter(|&i| i < len as u64) {
                out[i as usize] = self.eval(value).to_u64() as u8;
            }
        }
        out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole store chain evaluated at once agrees with reading each byte
    /// through it, stores at symbolic and out-of-range indices included.
    #[test]
    fn eval_array_matches_byte_by_byte_selects() {
        let mut pool = ExprPool::new();
        let input = pool.new_array("in", 4);
        let root = pool.new_array("mem", 8);
        let inp = pool.array(input);
        let mut arr = pool.array(root);
        let mut m = Assignment::new();
        m.set(input, vec![3, 200, 7, 5]);
        m.set(root, vec![1, 2, 3, 4, 5, 6, 7, 8]);
        for k in 0..12u64 {
            let at = pool.const_u64(32, k % 4);
            let sym = pool.select(inp, at);
            let idx = if k % 3 == 0 {
                pool.zext(sym, 32)
            } else {
                pool.const_u64(32, (k * 5) % 9)
            };
            let v = pool.const_u64(8, 100 + k);
            arr = pool.store(arr, idx, v);
        }
        let whole = Evaluator::new(&pool, &m).eval_array(arr, 8);
        let each: Vec<u8> = (0..8)
            .map(|i| {
                let idx = pool.const_u64(32, i);
                let e = pool.select(arr, idx);
                pool.eval(e, &m).to_u64() as u8
            })
            .collect();
        assert_eq!(whole, each);
    }

    #[test]
    fn assignment_set_get_replace_and_compare() {
        let mut pool = ExprPool::new();
        let (a, b, c) = (
            pool.new_array("a", 2),
            pool.new_array("b", 3),
            pool.new_array("c", 1),
        );
        let mut m = Assignment::new();
        m.set(c, vec![9]);
        m.set(a, vec![1, 2]);
        m.set(b, vec![3, 4, 5]);
        assert_eq!(m.get(a), Some(&[1u8, 2][..]));
        assert_eq!(m.bytes(b), &[3, 4, 5]);
        assert_eq!(m.byte(b, 7), 0);
        // Same length: in place; another length: replaced.
        m.set(a, vec![7, 8]);
        m.set(b, vec![6]);
        assert_eq!(m.get(a), Some(&[7u8, 8][..]));
        assert_eq!(m.get(b), Some(&[6u8][..]));
        assert_eq!(m.get(c), Some(&[9u8][..]));
        assert_eq!(m.len(), 3);
        let arrays: Vec<ArrayId> = m.iter().map(|(x, _)| x).collect();
        assert_eq!(arrays, vec![a, b, c], "iteration in array order");
        // Equality ignores the order the arrays were set in.
        let mut n = Assignment::new();
        n.set(b, vec![6]);
        n.set(a, vec![7, 8]);
        assert_ne!(m, n);
        n.set(c, vec![9]);
        assert_eq!(m, n);
    }
}
