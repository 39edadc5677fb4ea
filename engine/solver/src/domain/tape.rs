//! The compiled query of the small-domain layer (a tape of operations on
//! 64-bit words) and its depth-first search over the variables' values.

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
        let mut slot: FxHashMap<ExprId, u32> = FxHashMap::default();
        let mut chain_of: FxHashMap<ExprId, u32> = FxHashMap::default();
        // Per read slot: its variable, if it reads a root at a constant index.
        let mut read_var: FxHashMap<u32, usize> = FxHashMap::default();
        let mut stack: Vec<(ExprId, bool)> = assertions.iter().rev().map(|&a| (a, false)).collect();
        while let Some((e, expanded)) = stack.pop() {
            if slot.contains_key(&e) {
                continue;
            }
            let node = pool.node(e);
            if !expanded {
                stack.push((e, true));
                let kids: Vec<ExprId> = match node {
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
                };
                stack.extend(
                    kids.into_iter()
                        .rev()
                        .filter(|k| !slot.contains_key(k))
                        .map(|k| (k, false)),
                );
                continue;
            }
            let s = |x: &ExprId| slot[x];
            let op = match node {
                Node::Const(_) => Op::Const,
                Node::Not(a) => Op::Not(s(a)),
                Node::Bin(op, a, b) => {
                    if nonlinear(pool, *op, *a, *b) {
                        t.nonlinear += 1;
                    }
                    Op::Bin(*op, s(a), s(b))
                }
                Node::Cmp(op, a, b) => Op::Cmp(*op, s(a), s(b)),
                Node::Ite(c, a, b) => Op::Ite(s(c), s(a), s(b)),
                Node::Concat(h, l) => Op::Concat(s(h), s(l)),
                Node::Extract { expr, lo, width } => Op::Extract(s(expr), *lo, *width),
                Node::ZExt(a, _) => Op::ZExt(s(a)),
                Node::SExt(a, w) => Op::SExt(s(a), *w),
                Node::Select { array, index } => {
                    let c = match chain_of.get(array) {
                        Some(&c) => c,
                        None => {
                            let c = t.chains.len() as u32;
                            let chain = match memo.const_table(pool, *array) {
                                Some(table) => Chain {
                                    stores: Vec::new(),
                                    by_index: None,
                                    root: table.root,
                                    consts: Some(table),
                                    mask: 0,
                                },
                                None => Self::chain(pool, *array, &slot),
                            };
                            t.chains.push(chain);
                            chain_of.insert(*array, c);
                            c
                        }
                    };
                    if let Some(i) = pool.as_const(*index) {
                        let root = t.chains[c as usize].root;
                        let i = i.as_u64_exact()?;
                        if i >= u64::from(pool.array_info(root).size) {
                            return None;
                        }
                        let var = match t.vars.iter().position(|&v| v == (root, i)) {
                            Some(v) => v,
                            None => {
                                if t.vars.len() == DOMAIN_MAX_VARS {
                                    return None;
                                }
                                t.vars.push((root, i));
                                t.vars.len() - 1
                            }
                        };
                        read_var.insert(t.ops.len() as u32, var);
                    } else {
                        t.symbolic_reads += 1;
                    }
                    Op::Read(s(index), c)
                }
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
            slot.insert(e, t.ops.len() as u32);
            t.ops.push(op);
            t.vals.push(value);
            t.widths.push(width);
            if t.ops.len() > DOMAIN_MAX_NODES {
                return None;
            }
        }
        t.values = vec![0; t.vars.len()];
        // Dependencies, in tape order (operands come first).
        for c in 0..t.chains.len() {
            t.chains[c].mask = 0;
        }
        t.masks = vec![0; t.ops.len()];
        let mut chain_done = vec![false; t.chains.len()];
        for i in 0..t.ops.len() {
            let m = match &t.ops[i] {
                Op::Const => 0,
                Op::Not(a) | Op::Extract(a, ..) | Op::ZExt(a) | Op::SExt(a, _) => {
                    t.masks[*a as usize]
                }
                Op::Bin(_, a, b) | Op::Cmp(_, a, b) | Op::Concat(a, b) => {
                    t.masks[*a as usize] | t.masks[*b as usize]
                }
                Op::Ite(c, a, b) => {
                    t.masks[*c as usize] | t.masks[*a as usize] | t.masks[*b as usize]
                }
                Op::Read(index, c) => {
                    let c = *c as usize;
                    if !chain_done[c] {
                        let ch = &t.chains[c];
                        let m = ch.stores.iter().fold(0, |m, &(si, sv)| {
                            m | t.masks[si as usize] | t.masks[sv as usize]
                        });
                        t.chains[c].mask = m;
                        chain_done[c] = true;
                    }
                    let ch = &t.chains[c];
                    let own = match read_var.get(&(i as u32)) {
                        Some(&v) => 1u64 << v,
                        // A read at a symbolic index may reach any variable
                        // of its root.
                        None => t
                            .vars
                            .iter()
                            .enumerate()
                            .filter(|(_, v)| v.0 == ch.root)
                            .fold(0, |m, (k, _)| m | 1u64 << k),
                    };
                    own | ch.mask | t.masks[*index as usize]
                }
            };
            t.masks[i] = m;
        }
        // Each assertion's own tape: the slots it reaches, in tape order.
        let mut stamp = vec![u32::MAX; t.ops.len()];
        for (k, a) in assertions.iter().enumerate() {
            let root = slot[a];
            let mut reached = Vec::new();
            let mut todo = vec![root];
            stamp[root as usize] = k as u32;
            while let Some(x) = todo.pop() {
                if !matches!(t.ops[x as usize], Op::Const) {
                    reached.push(x);
                }
                let mut visit = |y: u32| {
                    if stamp[y as usize] != k as u32 {
                        stamp[y as usize] = k as u32;
                        todo.push(y);
                    }
                };
                match &t.ops[x as usize] {
                    Op::Const => {}
                    Op::Not(a) | Op::Extract(a, ..) | Op::ZExt(a) | Op::SExt(a, _) => visit(*a),
                    Op::Bin(_, a, b) | Op::Cmp(_, a, b) | Op::Concat(a, b) => {
                        visit(*a);
                        visit(*b);
                    }
                    Op::Ite(c, a, b) => {
                        visit(*c);
                        visit(*a);
                        visit(*b);
                    }
                    Op::Read(index, c) => {
                        visit(*index);
                        for &(si, sv) in &t.chains[*c as usize].stores {
                            visit(si);
                            visit(sv);
                        }
                    }
                }
            }
            reached.sort_unstable();
            t.checks.push(Check {
                expr: *a,
                tape: reached,
                root,
                mask: t.masks[root as usize],
            });
        }
        Some(t)
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

    /// Searches the variables' values: `Some(true)` with the model in
    /// `values` (found), `Some(false)` (proved unsatisfiable) or `None`
    /// (undecided: over budget, or a tainted rejection).
    pub(super) fn search(
        &mut self,
        allowed: &[Option<[bool; 256]>],
        memo: &mut Memo,
    ) -> Option<bool> {
        let n = self.vars.len();
        let mut incomplete = false;
        // Assertions without variables, then each variable's own ones.
        let mut unary: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut multi: Vec<usize> = Vec::new();
        for k in 0..self.checks.len() {
            let m = self.checks[k].mask;
            if m == 0 {
                self.tainted = false;
                if !self.eval(k)? {
                    if !self.tainted {
                        return Some(false);
                    }
                    incomplete = true;
                }
            } else if m.count_ones() == 1 {
                unary[m.trailing_zeros() as usize].push(k);
            } else {
                multi.push(k);
            }
        }
        if incomplete {
            return None;
        }
        let exhausted = |incomplete: bool| if incomplete { None } else { Some(false) };
        let used = self.checks.iter().fold(0u64, |m, c| m | c.mask);
        // Each variable's domain: the values its bounds allow and each of
        // its own assertions holds for (tabulated over all 256 once, then
        // remembered).
        let mut doms: Vec<ByteSet> = vec![ByteSet::default(); n];
        for v in 0..n {
            if used & (1 << v) == 0 {
                continue;
            }
            let mut dom = match &allowed[v] {
                Some(m) => ByteSet::of_mask(m),
                None => ByteSet::full(),
            };
            for &k in &unary[v] {
                let (e, var) = (self.checks[k].expr, self.vars[v]);
                let (holds, tainted) = match memo.unary(e, var) {
                    Some(u) => (u.holds, u.tainted),
                    None => {
                        let (mut holds, mut tainted) = (ByteSet::default(), ByteSet::default());
                        for x in 0..=255u8 {
                            self.values[v] = x;
                            self.tainted = false;
                            if self.eval(k)? {
                                holds.insert(x);
                            } else if self.tainted {
                                tainted.insert(x);
                            }
                        }
                        memo.set_unary(
                            e,
                            Unary {
                                var,
                                holds,
                                tainted,
                            },
                        );
                        (holds, tainted)
                    }
                };
                incomplete |= tainted.intersects(&dom);
                dom = dom.and(&holds);
            }
            doms[v] = dom;
            if dom.is_empty() {
                return exhausted(incomplete);
            }
        }
        for v in 0..n {
            if used & (1 << v) == 0 {
                self.values[v] = 0;
            }
        }
        // Two-variable assertions become tables when the budget covers
        // them, and the domains are pruned to arc consistency with them.
        let (rels, rest) = self.relations(&multi, &doms, &mut incomplete, memo)?;
        if !arc_consistency(&mut doms, &rels) {
            return exhausted(incomplete);
        }
        // Three-variable assertions become tables over the pruned domains.
        let mut tern: Vec<TernaryTable> = Vec::new();
        let mut general = Vec::new();
        for k in rest {
            if self.checks[k].mask.count_ones() == 3 {
                if let Some((t, tv)) = self.ternary(k, &doms, memo) {
                    incomplete |= t.tainted;
                    tern.push((t, tv, k));
                    continue;
                }
            }
            general.push(k);
        }
        // Arc consistency with the two-variable tables, then support in
        // the three-variable ones, until neither prunes (or a few rounds).
        for _ in 0..8 {
            if !arc_consistency(&mut doms, &rels) {
                return exhausted(incomplete);
            }
            let mut changed = false;
            for (t, tv, _) in &tern {
                match prune_ternary(&mut doms, t, *tv) {
                    None => return exhausted(incomplete),
                    Some(c) => changed |= c,
                }
            }
            if !changed {
                break;
            }
        }
        let linking: Vec<usize> = general
            .iter()
            .copied()
            .chain(tern.iter().map(|t| t.2))
            .collect();
        let order = Self::order(n, used, &doms, &rels, &linking, &self.checks);
        if order.is_empty() {
            return Some(true);
        }
        let mut depth_of = vec![usize::MAX; n];
        for (d, &v) in order.iter().enumerate() {
            depth_of[v] = d;
        }
        // At each depth: the relations to variables fixed before it, and the
        // other assertions whose last variable (in this order) it is.
        let mut links: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
        for (i, r) in rels.iter().enumerate() {
            links[depth_of[r.a].max(depth_of[r.b])].push(i);
        }
        // Three-variable tables: a filter at the depth of their last
        // variable when that is the one their rows give, else a lookup.
        let mut filters: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
        let mut lookups: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
        for (i, (_, tv, _)) in tern.iter().enumerate() {
            let last = tv
                .iter()
                .map(|&v| depth_of[v])
                .max()
                .expect("three variables");
            if depth_of[tv[2]] == last {
                filters[last].push(i);
            } else {
                lookups[last].push(i);
            }
        }
        let mut at_depth: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
        for &k in &general {
            let m = self.checks[k].mask;
            let depth = order
                .iter()
                .rposition(|&v| m & (1 << v) != 0)
                .expect("a multi-variable assertion has variables");
            at_depth[depth].push(k);
        }
        // A search that cannot finish within the budget unless pruning
        // halves it is not started: the worst case (no pruning but by the
        // tables) is the sum over depths of the candidates at that depth
        // times its checks.
        let mut worst = 0f64;
        let mut candidates = 1f64;
        for (d, &v) in order.iter().enumerate() {
            let branching = links[d]
                .iter()
                .map(|&i| {
                    let u = rels[i].other(v);
                    rels[i].branching(u, &doms[u], &doms[v])
                })
                .min()
                .unwrap_or(doms[v].len());
            candidates *= branching as f64;
            let cost: usize = at_depth[d].iter().map(|&k| self.checks[k].tape.len()).sum();
            worst += candidates * (cost + lookups[d].len()) as f64;
        }
        if worst > 2.0 * (self.limit.saturating_sub(self.spent)) as f64 {
            return None;
        }
        // Depth first; at each depth the candidates are the variable's
        // domain less what the tables of its fixed neighbours rule out.
        let mut cand = vec![ByteSet::default(); order.len()];
        let mut next = vec![0usize; order.len()];
        let enter = |d: usize, values: &[u8]| {
            let v = order[d];
            let c = links[d].iter().fold(doms[v], |c, &i| {
                let u = rels[i].other(v);
                c.and(&rels[i].supports(u, values[u]))
            });
            filters[d].iter().fold(c, |c, &i| {
                let (t, tv, _) = &tern[i];
                c.and(t.row(values[tv[0]], values[tv[1]]))
            })
        };
        cand[0] = enter(0, &self.values);
        let mut d = 0;
        loop {
            let Some(x) = cand[d].next_from(next[d]) else {
                if d == 0 {
                    return exhausted(incomplete);
                }
                d -= 1;
                continue;
            };
            next[d] = usize::from(x) + 1;
            self.spent += 1;
            if self.spent > self.limit {
                return None;
            }
            self.values[order[d]] = x;
            let values = &self.values;
            if !lookups[d].iter().all(|&i| {
                let (t, tv, _) = &tern[i];
                t.row(values[tv[0]], values[tv[1]]).contains(values[tv[2]])
            }) {
                continue;
            }
            if !self.all_hold(&at_depth[d], &mut incomplete)? {
                continue;
            }
            if d + 1 == order.len() {
                return Some(true);
            }
            d += 1;
            cand[d] = enter(d, &self.values);
            next[d] = 0;
        }
    }

    /// The search order over the used variables: the smallest domain
    /// first, then repeatedly the variable with the most assertions and
    /// tables linking it to those already placed (then the smallest
    /// domain, then the lowest number), so that each table is checked as
    /// soon as possible and a tree of tables is searched along its edges.
    pub(super) fn order(
        n: usize,
        used: u64,
        doms: &[ByteSet],
        rels: &[Relation],
        linking: &[usize],
        checks: &[Check],
    ) -> Vec<usize> {
        let mut placed = 0u64;
        let mut order = Vec::new();
        let mut left: Vec<usize> = (0..n).filter(|&v| used & (1 << v) != 0).collect();
        while !left.is_empty() {
            let links = |v: usize| {
                let r = rels
                    .iter()
                    .filter(|r| (r.a == v || r.b == v) && placed & (1 << r.other(v)) != 0)
                    .count();
                let g = linking
                    .iter()
                    .filter(|&&k| {
                        let m = checks[k].mask;
                        m & (1 << v) != 0 && m & placed != 0
                    })
                    .count();
                r + g
            };
            let (p, &v) = left
                .iter()
                .enumerate()
                .min_by_key(|&(_, &v)| (std::cmp::Reverse(links(v)), doms[v].len(), v))
                .expect("not empty");
            left.remove(p);
            placed |= 1 << v;
            order.push(v);
        }
        order
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
