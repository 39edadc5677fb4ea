//! The compiled query of the small-domain layer (a tape of operations on
//! 64-bit words) and its evaluation; `search.rs` searches the variables'
//! values over it.

use super::*;

/// One operation of the tape; operands are slots.
pub(super) enum Op {
    Const,
    Not(u32),
    Bin(BinOp, u32, u32),
    Cmp(CmpOp, u32, u32),
    Ite(u32, u32, u32),
    Concat(u32, u32),
    Extract(u32, u32, u32),
    ZExt(u32),
    SExt(u32, u32),
    /// Byte read: index slot, chain number.
    Read(u32, u32),
}

/// A store chain over an array root, as read by [`Op::Read`].
pub(super) struct Chain {
    /// (index slot, value slot) of each store, newest first.
    pub(super) stores: Vec<(u32, u32)>,
    /// When every store index is a constant: the value slot of the newest
    /// store at each index.
    pub(super) by_index: Option<FxHashMap<u64, u32>>,
    /// A chain of constant stores (a lookup table): its contents, shared
    /// by the queries that read it (no slots, no stores).
    pub(super) consts: Option<Rc<ConstTable>>,
    pub(super) root: ArrayId,
    /// Variables any store's index or value depends on.
    pub(super) mask: u64,
}

/// One assertion: the slots to evaluate (in order), its result slot, and
/// the variables it depends on.
pub(super) struct Check {
    /// The assertion.
    pub(super) expr: ExprId,
    pub(super) tape: Vec<u32>,
    pub(super) root: u32,
    pub(super) mask: u64,
}

/// The compiled query and the search state.
pub(super) struct Tape {
    pub(super) ops: Vec<Op>,
    /// Current value of each slot (all widths are at most 64 bits).
    pub(super) vals: Vec<u64>,
    pub(super) widths: Vec<u32>,
    pub(super) masks: Vec<u64>,
    pub(super) chains: Vec<Chain>,
    /// (array, index) of each variable.
    pub(super) vars: Vec<(ArrayId, u64)>,
    pub(super) values: Vec<u8>,
    pub(super) checks: Vec<Check>,
    /// Reads at a symbolic index.
    pub(super) symbolic_reads: usize,
    /// Products of two non-constants, and divisions and remainders but by
    /// a constant power of two.
    pub(super) nonlinear: usize,
    pub(super) tainted: bool,
    pub(super) spent: u64,
    /// Node evaluations (and candidates tried) the query may spend.
    pub(super) limit: u64,
}

/// Where each node of a query being compiled went.
#[derive(Default)]
struct Slots {
    /// The slot of each compiled node.
    slot: FxHashMap<ExprId, u32>,
    /// The chain number of each array a read goes through.
    chain_of: FxHashMap<ExprId, u32>,
    /// Per read slot: its variable, if it reads a root at a constant index.
    read_var: FxHashMap<u32, usize>,
}

impl Tape {
    /// Compiles `assertions`, or `None` when the query is out of scope.
    pub(super) fn build(pool: &ExprPool, assertions: &[ExprId], memo: &mut Memo) -> Option<Tape> {
        let mut t = Tape {
            ops: Vec::new(),
            vals: Vec::new(),
            widths: Vec::new(),
            masks: Vec::new(),
            chains: Vec::new(),
            vars: Vec::new(),
            values: Vec::new(),
            checks: Vec::new(),
            symbolic_reads: 0,
            nonlinear: 0,
            tainted: false,
            spent: 0,
            limit: DOMAIN_BUDGET,
        };
        let mut sl = Slots::default();
        let mut stack: Vec<(ExprId, bool)> = assertions.iter().rev().map(|&a| (a, false)).collect();
        while let Some((e, expanded)) = stack.pop() {
            if sl.slot.contains_key(&e) {
                continue;
            }
            if !expanded {
                stack.push((e, true));
                let kids = Self::kids(pool, e, memo)?;
                stack.extend(
                    kids.into_iter()
                        .rev()
                        .filter(|k| !sl.slot.contains_key(k))
                        .map(|k| (k, false)),
                );
                continue;
            }
            t.push_node(pool, e, memo, &mut sl)?;
        }
        t.values = vec![0; t.vars.len()];
        t.dependencies(&sl.read_var);
        t.compile_checks(assertions, &sl.slot);
        Some(t)
    }

    /// The nodes `e` needs slots for before its own (a read's store chain
    /// included, but for a read of a constant table), or `None` when `e`
    /// is out of scope.
    fn kids(pool: &ExprPool, e: ExprId, memo: &mut Memo) -> Option<Vec<ExprId>> {
        Some(match pool.node(e) {
            Node::Select { array, index } if memo.const_table(pool, *array).is_some() => {
                vec![*index]
            }
            Node::Select { array, index } => {
                let mut v = vec![*index];
                let mut cur = *array;
                loop {
                    match pool.node(cur) {
                        Node::Store {
                            array: base,
                            index,
                            value,
                        } => {
                            v.push(*index);
                            v.push(*value);
                            cur = *base;
                        }
                        Node::Array(_) => break,
                        _ => return None,
                    }
                }
                v
            }
            Node::FBin(..)
            | Node::FUn(..)
            | Node::FFma(..)
            | Node::FCmp(..)
            | Node::FConv(..)
            | Node::Array(_)
            | Node::Store { .. } => return None,
            other => other.children().to_vec(),
        })
    }

    /// Compiles node `e` (its operands have slots) into the next slot, or
    /// `None` when it is out of scope or the tape is full.
    fn push_node(
        &mut self,
        pool: &ExprPool,
        e: ExprId,
        memo: &mut Memo,
        sl: &mut Slots,
    ) -> Option<()> {
        let node = pool.node(e);
        let s = |x: &ExprId| sl.slot[x];
        let op = match node {
            Node::Const(_) => Op::Const,
            Node::Not(a) => Op::Not(s(a)),
            Node::Bin(op, a, b) => {
                if nonlinear(pool, *op, *a, *b) {
                    self.nonlinear += 1;
                }
                Op::Bin(*op, s(a), s(b))
            }
            Node::Cmp(op, a, b) => Op::Cmp(*op, s(a), s(b)),
            Node::Ite(c, a, b) => Op::Ite(s(c), s(a), s(b)),
            Node::Concat(h, l) => Op::Concat(s(h), s(l)),
            Node::Extract { expr, lo, width } => Op::Extract(s(expr), *lo, *width),
            Node::ZExt(a, _) => Op::ZExt(s(a)),
            Node::SExt(a, w) => Op::SExt(s(a), *w),
            Node::Select { array, index } => self.read_op(pool, *array, *index, memo, sl)?,
            _ => return None,
        };
        let width = pool.width(e);
        if width > 64 {
            return None;
        }
        let value = match node {
            Node::Const(b) => b.to_u64(),
            _ => 0,
        };
        sl.slot.insert(e, self.ops.len() as u32);
        self.ops.push(op);
        self.vals.push(value);
        self.widths.push(width);
        if self.ops.len() > DOMAIN_MAX_NODES {
            return None;
        }
        Some(())
    }

    /// The read of `array` at `index` for the next slot: its chain (made on
    /// the first read of `array`) and, at a constant index, its variable
    /// (`None` past the array's size or [`DOMAIN_MAX_VARS`]).
    fn read_op(
        &mut self,
        pool: &ExprPool,
        array: ExprId,
        index: ExprId,
        memo: &mut Memo,
        sl: &mut Slots,
    ) -> Option<Op> {
        let c = match sl.chain_of.get(&array) {
            Some(&c) => c,
            None => {
                let c = self.chains.len() as u32;
                let chain = match memo.const_table(pool, array) {
                    Some(table) => Chain {
                        stores: Vec::new(),
                        by_index: None,
                        root: table.root,
                        consts: Some(table),
                        mask: 0,
                    },
                    None => Self::chain(pool, array, &sl.slot),
                };
                self.chains.push(chain);
                sl.chain_of.insert(array, c);
                c
            }
        };
        if let Some(i) = pool.as_const(index) {
            let root = self.chains[c as usize].root;
            let i = i.as_u64_exact()?;
            if i >= u64::from(pool.array_info(root).size) {
                return None;
            }
            let var = match self.vars.iter().position(|&v| v == (root, i)) {
                Some(v) => v,
                None => {
                    if self.vars.len() == DOMAIN_MAX_VARS {
                        return None;
                    }
                    self.vars.push((root, i));
                    self.vars.len() - 1
                }
            };
            sl.read_var.insert(self.ops.len() as u32, var);
        } else {
            self.symbolic_reads += 1;
        }
        Some(Op::Read(sl.slot[&index], c))
    }

    /// Sets the variables each slot and each chain depends on, in tape
    /// order (operands come first); `read_var` gives the variable of each
    /// read at a constant index.
    fn dependencies(&mut self, read_var: &FxHashMap<u32, usize>) {
        for c in 0..self.chains.len() {
            self.chains[c].mask = 0;
        }
        self.masks = vec![0; self.ops.len()];
        let mut chain_done = vec![false; self.chains.len()];
        for i in 0..self.ops.len() {
            let m = match &self.ops[i] {
                Op::Const => 0,
                Op::Not(a) | Op::Extract(a, ..) | Op::ZExt(a) | Op::SExt(a, _) => {
                    self.masks[*a as usize]
                }
                Op::Bin(_, a, b) | Op::Cmp(_, a, b) | Op::Concat(a, b) => {
                    self.masks[*a as usize] | self.masks[*b as usize]
                }
                Op::Ite(c, a, b) => {
                    self.masks[*c as usize] | self.masks[*a as usize] | self.masks[*b as usize]
                }
                Op::Read(index, c) => {
                    let c = *c as usize;
                    if !chain_done[c] {
                        let ch = &self.chains[c];
                        let m = ch.stores.iter().fold(0, |m, &(si, sv)| {
                            m | self.masks[si as usize] | self.masks[sv as usize]
                        });
                        self.chains[c].mask = m;
                        chain_done[c] = true;
                    }
                    let ch = &self.chains[c];
                    let own = match read_var.get(&(i as u32)) {
                        Some(&v) => 1u64 << v,
                        // A read at a symbolic index may reach any variable
                        // of its root.
                        None => self
                            .vars
                            .iter()
                            .enumerate()
                            .filter(|(_, v)| v.0 == ch.root)
                            .fold(0, |m, (k, _)| m | 1u64 << k),
                    };
                    own | ch.mask | self.masks[*index as usize]
                }
            };
            self.masks[i] = m;
        }
    }

    /// Each assertion's own check: the slots it reaches, in tape order.
    fn compile_checks(&mut self, assertions: &[ExprId], slot: &FxHashMap<ExprId, u32>) {
        let mut stamp = vec![u32::MAX; self.ops.len()];
        for (k, a) in assertions.iter().enumerate() {
            let root = slot[a];
            let mut reached = Vec::new();
            let mut todo = vec![root];
            stamp[root as usize] = k as u32;
            while let Some(x) = todo.pop() {
                if !matches!(self.ops[x as usize], Op::Const) {
                    reached.push(x);
                }
                self.operands(x, |y: u32| {
                    if stamp[y as usize] != k as u32 {
                        stamp[y as usize] = k as u32;
                        todo.push(y);
                    }
                });
            }
            reached.sort_unstable();
            self.checks.push(Check {
                expr: *a,
                tape: reached,
                root,
                mask: self.masks[root as usize],
            });
        }
    }

    /// The chain of stores `array` heads (every operand already has a slot).
    pub(super) fn chain(pool: &ExprPool, array: ExprId, slot: &FxHashMap<ExprId, u32>) -> Chain {
        let mut stores = Vec::new();
        let mut all_const = true;
        let mut cur = array;
        let root = loop {
            match pool.node(cur) {
                Node::Store {
                    array: base,
                    index,
                    value,
                } => {
                    all_const &= pool.as_const(*index).is_some();
                    stores.push((slot[index], slot[value]));
                    cur = *base;
                }
                Node::Array(a) => break *a,
                other => unreachable!("checked before: chain over {other:?}"),
            }
        };
        let by_index = all_const.then(|| {
            let mut m = FxHashMap::default();
            let mut c = array;
            let mut k = 0;
            while let Node::Store {
                array: base, index, ..
            } = pool.node(c)
            {
                if let Some(i) = pool.as_const(*index).and_then(Bits::as_u64_exact) {
                    // Newest first: the first store at an index wins.
                    m.entry(i).or_insert(stores[k].1);
                }
                k += 1;
                c = *base;
            }
            m
        });
        Chain {
            stores,
            by_index,
            consts: None,
            root,
            mask: 0,
        }
    }

    /// Evaluates check `k` under the current values (setting `tainted` if
    /// a read fell through to a byte the search does not own), or `None`
    /// past the budget.
    pub(super) fn eval(&mut self, k: usize) -> Option<bool> {
        let n = self.checks[k].tape.len() as u64;
        self.spent += n.max(1);
        if self.spent > self.limit {
            return None;
        }
        for j in 0..self.checks[k].tape.len() {
            let x = self.checks[k].tape[j] as usize;
            let v = self.compute(x);
            self.vals[x] = v;
        }
        Some(self.vals[self.checks[k].root as usize] != 0)
    }

    pub(super) fn compute(&mut self, x: usize) -> u64 {
        let v = &self.vals;
        let w = self.widths[x];
        let g = |s: &u32| v[*s as usize];
        match &self.ops[x] {
            Op::Const => v[x],
            Op::Not(a) => !g(a) & mask(w),
            Op::Bin(op, a, b) => bin64(*op, g(a), g(b), w),
            Op::Cmp(op, a, b) => u64::from(cmp64(*op, g(a), g(b), self.widths[*a as usize])),
            Op::Ite(c, a, b) => {
                if g(c) != 0 {
                    g(a)
                } else {
                    g(b)
                }
            }
            Op::Concat(h, l) => (g(h) << self.widths[*l as usize]) | g(l),
            Op::Extract(a, lo, w) => (g(a) >> lo) & mask(*w),
            Op::ZExt(a) => g(a),
            Op::SExt(a, to) => sx(g(a), self.widths[*a as usize]) as u64 & mask(*to),
            Op::Read(index, c) => {
                let ch = &self.chains[*c as usize];
                let i = g(index);
                if let Some(t) = &ch.consts {
                    if let Some(&b) = t.bytes.get(&i) {
                        return u64::from(b);
                    }
                }
                let hit = match &ch.by_index {
                    Some(m) => m.get(&i).copied(),
                    None => ch
                        .stores
                        .iter()
                        .find(|&&(si, _)| v[si as usize] == i)
                        .map(|&(_, sv)| sv),
                };
                if let Some(sv) = hit {
                    return v[sv as usize];
                }
                let root = ch.root;
                match self.vars.iter().position(|&w| w == (root, i)) {
                    Some(p) => u64::from(self.values[p]),
                    None => {
                        self.tainted = true;
                        0
                    }
                }
            }
        }
    }

    /// Whether every check of `ks` holds under the current values (the first
    /// failing one ends the evaluation; if it was tainted, `incomplete` is
    /// set), or `None` past the budget.
    pub(super) fn all_hold(&mut self, ks: &[usize], incomplete: &mut bool) -> Option<bool> {
        for &k in ks {
            self.tainted = false;
            if !self.eval(k)? {
                *incomplete |= self.tainted;
                return Some(false);
            }
        }
        Some(true)
    }

    /// The current values as a model: every variable's array at its full
    /// size, other bytes 0.
    pub(super) fn assignment(&self, pool: &ExprPool) -> Assignment {
        let mut by_array: Vec<(ArrayId, Vec<u8>)> = Vec::new();
        for (k, &(a, i)) in self.vars.iter().enumerate() {
            let p = match by_array.iter().position(|(b, _)| *b == a) {
                Some(p) => p,
                None => {
                    by_array.push((a, vec![0; pool.array_info(a).size as usize]));
                    by_array.len() - 1
                }
            };
            by_array[p].1[i as usize] = self.values[k];
        }
        let mut m = Assignment::new();
        for (a, bytes) in by_array {
            m.set(a, bytes);
        }
        m
    }
}
