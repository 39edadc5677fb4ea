//! The small-domain layer's tables: two- and three-variable assertions
//! tabulated over the variables' domains (through the memo), for the
//! search in `domain.rs`.

use super::memo::{Binary, Memo, Ternary};
use super::relation::{ByteSet, Relation};
use super::{Op, Tape};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// A class of a variable's values in a two-variable table: the values of
/// the one-variable slots the two-variable part reads, the members, and
/// whether an evaluation of a member was tainted.
type Class = (Vec<u64>, ByteSet, bool);

impl Tape {
    /// The two-variable assertions of `multi` as tables over the domains
    /// (one relation per pair of variables, from the memo or tabulated
    /// while the budget lasts), and the assertions left for the search. A
    /// table a tainted evaluation rejected a pair of marks the search
    /// `incomplete`.
    pub(super) fn relations(
        &mut self,
        multi: &[usize],
        doms: &[ByteSet],
        incomplete: &mut bool,
        memo: &mut Memo,
    ) -> Option<(Vec<Relation>, Vec<usize>)> {
        // The tabled assertions of each pair of variables, in query order.
        let mut pairs: Vec<((usize, usize), Vec<usize>)> = Vec::new();
        let mut general = Vec::new();
        let mut tabled: Vec<(usize, Rc<Binary>)> = Vec::new();
        for &k in multi {
            let m = self.checks[k].mask;
            if m.count_ones() != 2 {
                general.push(k);
                continue;
            }
            let a = m.trailing_zeros() as usize;
            let b = (m & !(1 << a)).trailing_zeros() as usize;
            let (e, vars) = (self.checks[k].expr, [self.vars[a], self.vars[b]]);
            if let Some((t, _)) = memo.binary(e, vars, [&doms[a], &doms[b]]) {
                tabled.push((k, t));
            } else {
                // Tabulated over the domains an earlier table covered too.
                let wide = memo.binary_doms(e, vars).map_or([doms[a], doms[b]], |w| {
                    [w[0].or(&doms[a]), w[1].or(&doms[b])]
                });
                let Some((rows, tainted)) = self.tabulate(k, a, b, &wide) else {
                    general.push(k);
                    continue;
                };
                let t = Rc::new(Binary {
                    vars,
                    doms: wide,
                    rows,
                    tainted,
                });
                memo.set_binary(e, t.clone());
                tabled.push((k, t));
            }
            match pairs.iter_mut().find(|(p, _)| *p == (a, b)) {
                Some((_, ks)) => ks.push(k),
                None => pairs.push(((a, b), vec![k])),
            }
        }
        let mut rels = Vec::with_capacity(pairs.len());
        for ((a, b), ks) in pairs {
            let mut fwd = vec![ByteSet::default(); 256];
            for x in doms[a].iter() {
                fwd[usize::from(x)] = doms[b];
            }
            for k in ks {
                let t = &tabled
                    .iter()
                    .find(|(j, _)| *j == k)
                    .expect("tabled above")
                    .1;
                let swapped = t.vars[0] != self.vars[a];
                *incomplete |= t.tainted;
                if swapped {
                    // Rows by value of b: keep (x, y) only where y's row has x.
                    let mut keep = vec![ByteSet::default(); 256];
                    for y in doms[b].iter() {
                        for x in t.row(y).and(&doms[a]).iter() {
                            keep[usize::from(x)].insert(y);
                        }
                    }
                    for x in doms[a].iter() {
                        fwd[usize::from(x)] = fwd[usize::from(x)].and(&keep[usize::from(x)]);
                    }
                } else {
                    for x in doms[a].iter() {
                        fwd[usize::from(x)] = fwd[usize::from(x)].and(t.row(x));
                    }
                }
            }
            rels.push(Relation::from_rows(a, b, fwd));
        }
        Some((rels, general))
    }

    /// Three-variable check `k` as a table over the domains (from the memo,
    /// or tabulated if the budget covers it), with the query's numbers of
    /// its variables in [`memo::Var`] order.
    pub(super) fn ternary(
        &mut self,
        k: usize,
        doms: &[ByteSet],
        memo: &mut Memo,
    ) -> Option<(Rc<Ternary>, [usize; 3])> {
        let m = self.checks[k].mask;
        let mut tv: Vec<usize> = (0..self.vars.len())
            .filter(|&v| m & (1 << v) != 0)
            .collect();
        tv.sort_by_key(|&v| self.vars[v]);
        let tv = [tv[0], tv[1], tv[2]];
        let (e, vars) = (self.checks[k].expr, tv.map(|v| self.vars[v]));
        if let Some(t) = memo.ternary(e, vars, tv.map(|v| &doms[v])) {
            return Some((t, tv));
        }
        let cur = tv.map(|v| doms[v]);
        let wide = memo
            .ternary_doms(e, vars)
            .map_or(cur, |w| std::array::from_fn(|i| w[i].or(&cur[i])));
        let (rows, tainted) = self.tabulate3(k, tv, &wide)?;
        let t = Rc::new(Ternary {
            vars,
            doms: wide,
            rows,
            tainted,
        });
        memo.set_ternary(e, t.clone());
        Some((t, tv))
    }

    /// Check `k` over variables `tv` tabulated over `doms` (see
    /// [`Ternary`]), its slots evaluated in the loop of the last of the
    /// variables they depend on; `None` when that would overrun the budget.
    pub(super) fn tabulate3(
        &mut self,
        k: usize,
        tv: [usize; 3],
        doms: &[ByteSet; 3],
    ) -> Option<(Vec<ByteSet>, bool)> {
        let [a, b, c] = tv;
        let mut parts: [Vec<u32>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for &x in &self.checks[k].tape {
            let m = self.masks[x as usize];
            let p = if m & (1 << c) != 0 {
                2
            } else if m & (1 << b) != 0 {
                1
            } else {
                0
            };
            parts[p].push(x);
        }
        let n = doms.map(|d| d.len());
        let cost = n[0] * parts[0].len()
            + n[0] * n[1] * parts[1].len()
            + n[0] * n[1] * n[2] * parts[2].len().max(1);
        if cost as u64 > self.limit.saturating_sub(self.spent) {
            return None;
        }
        let root = self.checks[k].root as usize;
        let mut rows = vec![ByteSet::default(); n[0] * n[1]];
        let mut tainted = false;
        for (i, x) in doms[0].iter().enumerate() {
            self.values[a] = x;
            self.tainted = false;
            self.run(&parts[0]);
            let ta = self.tainted;
            for (j, y) in doms[1].iter().enumerate() {
                self.values[b] = y;
                self.tainted = ta;
                self.run(&parts[1]);
                let tb = self.tainted;
                for z in doms[2].iter() {
                    self.values[c] = z;
                    self.tainted = tb;
                    self.run(&parts[2]);
                    if self.vals[root] != 0 {
                        rows[i * n[1] + j].insert(z);
                    } else {
                        tainted |= self.tainted;
                    }
                }
            }
        }
        Some((rows, tainted))
    }

    /// Check `k` (over variables `a < b`) tabulated over `doms`: per value
    /// of `doms[0]`, ascending, the values of `doms[1]` it holds with; and
    /// whether a tainted evaluation rejected a pair. `None` when it would
    /// overrun the budget.
    ///
    /// The check's tape splits into the slots that depend on one variable
    /// only and those that depend on both. Values of a variable that give
    /// the same results at the one-variable slots the others read (a lead
    /// byte's table entry shifted right by 26, a continuation byte shifted
    /// right by 3) have the same row, so the two-variable part is evaluated
    /// once per pair of such classes, not per pair of values.
    pub(super) fn tabulate(
        &mut self,
        k: usize,
        a: usize,
        b: usize,
        doms: &[ByteSet; 2],
    ) -> Option<(Vec<ByteSet>, bool)> {
        let root = self.checks[k].root as usize;
        let mut one: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        let mut both = Vec::new();
        for &x in &self.checks[k].tape {
            let m = self.masks[x as usize];
            if m & (1 << b) == 0 {
                one[0].push(x);
            } else if m & (1 << a) == 0 {
                one[1].push(x);
            } else {
                both.push(x);
            }
        }
        let iface = self.interface(&one, &both);
        let vars = [a, b];
        // A read in the two-variable part that may fall through to either
        // variable's byte reads its value itself: then every value is its
        // own class.
        let direct = both.iter().any(|&x| match self.ops[x as usize] {
            Op::Read(_, c) => {
                let root = self.chains[c as usize].root;
                vars.iter().any(|&v| self.vars[v].0 == root)
            }
            _ => false,
        });
        let first = (doms[0].len() * one[0].len() + doms[1].len() * one[1].len()) as u64;
        if first > self.limit.saturating_sub(self.spent) {
            return None;
        }
        let classes: [Vec<Class>; 2] = std::array::from_fn(|side| {
            self.classes(vars[side], &doms[side], &one[side], &iface[side], direct)
        });
        let second = (classes[0].len() * classes[1].len() * both.len().max(1)) as u64;
        if second > self.limit.saturating_sub(self.spent) {
            return None;
        }
        let mut rows = vec![ByteSet::default(); doms[0].len()];
        let mut tainted = false;
        for (ka, xs, ta) in &classes[0] {
            for (&s, &v) in iface[0].iter().zip(ka) {
                self.vals[s as usize] = v;
            }
            for (kb, ys, tb) in &classes[1] {
                for (&s, &v) in iface[1].iter().zip(kb) {
                    self.vals[s as usize] = v;
                }
                self.tainted = false;
                // Reads in the two-variable part index by the values of
                // both variables: any member of each class gives them.
                self.values[a] = xs.next_from(0).expect("a class has members");
                self.values[b] = ys.next_from(0).expect("a class has members");
                self.run(&both);
                if self.vals[root] != 0 {
                    for x in xs.iter() {
                        let r = &mut rows[doms[0].rank(x)];
                        *r = r.or(ys);
                    }
                } else {
                    tainted |= self.tainted || *ta || *tb;
                }
            }
        }
        Some((rows, tainted))
    }

    /// The slots of `one` (each variable's one-variable slots) that the
    /// two-variable slots `both` read.
    fn interface(&self, one: &[Vec<u32>; 2], both: &[u32]) -> [Vec<u32>; 2] {
        let mut read = vec![false; self.ops.len()];
        for &x in both {
            self.operands(x, |o| read[o as usize] = true);
        }
        one.each_ref().map(|slots| {
            slots
                .iter()
                .copied()
                .filter(|&x| read[x as usize])
                .collect()
        })
    }

    /// The classes of variable `var`'s values over `dom`: those giving the
    /// same values at the `iface` slots after evaluating its one-variable
    /// slots `one` (each value its own class when `direct`), in order of
    /// their first member.
    fn classes(
        &mut self,
        var: usize,
        dom: &ByteSet,
        one: &[u32],
        iface: &[u32],
        direct: bool,
    ) -> Vec<Class> {
        let mut classes: Vec<Class> = Vec::new();
        let mut index: FxHashMap<Vec<u64>, usize> = FxHashMap::default();
        for x in dom.iter() {
            self.values[var] = x;
            self.tainted = false;
            self.run(one);
            let mut key: Vec<u64> = iface.iter().map(|&s| self.vals[s as usize]).collect();
            if direct {
                key.push(u64::from(x));
            }
            let c = *index.entry(key.clone()).or_insert_with(|| {
                classes.push((key, ByteSet::default(), false));
                classes.len() - 1
            });
            classes[c].1.insert(x);
            classes[c].2 |= self.tainted;
        }
        classes
    }

    /// Calls `f` on each operand slot of slot `x` (a read's store chain
    /// included).
    pub(super) fn operands(&self, x: u32, mut f: impl FnMut(u32)) {
        match &self.ops[x as usize] {
            Op::Const => {}
            Op::Not(a) | Op::Extract(a, ..) | Op::ZExt(a) | Op::SExt(a, _) => f(*a),
            Op::Bin(_, a, b) | Op::Cmp(_, a, b) | Op::Concat(a, b) => {
                f(*a);
                f(*b);
            }
            Op::Ite(c, a, b) => {
                f(*c);
                f(*a);
                f(*b);
            }
            Op::Read(index, c) => {
                f(*index);
                for &(si, sv) in &self.chains[*c as usize].stores {
                    f(si);
                    f(sv);
                }
            }
        }
    }

    /// Evaluates `slots` in order (counted against the budget by the
    /// caller's estimate).
    pub(super) fn run(&mut self, slots: &[u32]) {
        self.spent += slots.len() as u64;
        for &x in slots {
            let v = self.compute(x as usize);
            self.vals[x as usize] = v;
        }
    }
}
