//! The small-domain layer's search over a compiled query's variables:
//! each variable's domain, the tables pruning the domains, and the depth
//! first enumeration of what is left.

use super::tape::Check;
use super::*;

/// The checks with variables: each variable's own ones, and those over
/// several variables.
type ByVars = (Vec<Vec<usize>>, Vec<usize>);

/// The depth-first search's plan: the order the variables are fixed in,
/// and what is checked at each depth.
struct Plan {
    order: Vec<usize>,
    /// At each depth: the relations to variables fixed before it.
    links: Vec<Vec<usize>>,
    /// At each depth: the three-variable tables whose rows give the
    /// variable of that depth (they filter its candidates).
    filters: Vec<Vec<usize>>,
    /// At each depth: the other three-variable tables whose last variable
    /// is that depth's (a lookup once it is fixed).
    lookups: Vec<Vec<usize>>,
    /// At each depth: the other assertions whose last variable (in this
    /// order) it is.
    at_depth: Vec<Vec<usize>>,
}

impl Tape {
    /// Searches the variables' values: `Some(true)` with the model in
    /// `values` (found), `Some(false)` (proved unsatisfiable) or `None`
    /// (undecided: over budget, or a tainted rejection).
    pub(super) fn search(
        &mut self,
        allowed: &[Option<[bool; 256]>],
        memo: &mut Memo,
    ) -> Option<bool> {
        let n = self.vars.len();
        let (unary, multi) = match self.sort_checks(n) {
            Ok(sorted) => sorted,
            Err(answer) => return answer,
        };
        let mut incomplete = false;
        let exhausted = |incomplete: bool| if incomplete { None } else { Some(false) };
        let used = self.checks.iter().fold(0u64, |m, c| m | c.mask);
        let mut doms = match self.domains(allowed, &unary, used, &mut incomplete, memo) {
            Ok(doms) => doms,
            Err(answer) => return answer,
        };
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
        let (tern, general) = self.ternaries(rest, &doms, &mut incomplete, memo);
        if !propagate(&mut doms, &rels, &tern) {
            return exhausted(incomplete);
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
        let plan = self.plan(order, &rels, &tern, &general);
        // A search that cannot finish within the budget unless pruning
        // halves it is not started.
        if self.worst_case(&plan, &doms, &rels)
            > 2.0 * (self.limit.saturating_sub(self.spent)) as f64
        {
            return None;
        }
        if self.descend(&plan, &doms, &rels, &tern, &mut incomplete)? {
            Some(true)
        } else {
            exhausted(incomplete)
        }
    }

    /// Evaluates the assertions without variables and sorts the others:
    /// each variable's own ones, and those over several variables.
    /// `Err` holds the search's answer when an assertion without variables
    /// fails (`Some(false)`, or `None` if that evaluation was tainted) or
    /// the budget runs out (`None`).
    fn sort_checks(&mut self, n: usize) -> Result<ByVars, Option<bool>> {
        let mut incomplete = false;
        let mut unary: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut multi: Vec<usize> = Vec::new();
        for k in 0..self.checks.len() {
            let m = self.checks[k].mask;
            if m == 0 {
                self.tainted = false;
                if !self.eval(k).ok_or(None)? {
                    if !self.tainted {
                        return Err(Some(false));
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
            return Err(None);
        }
        Ok((unary, multi))
    }

    /// Each variable's domain: the values its bounds allow and each of its
    /// own assertions holds for (tabulated over all 256 once, then
    /// remembered); the unused variables' are empty. `Err` holds the
    /// search's answer when a domain is empty or the budget runs out.
    fn domains(
        &mut self,
        allowed: &[Option<[bool; 256]>],
        unary: &[Vec<usize>],
        used: u64,
        incomplete: &mut bool,
        memo: &mut Memo,
    ) -> Result<Vec<ByteSet>, Option<bool>> {
        let n = self.vars.len();
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
                let (holds, tainted) = self.unary_table(k, v, memo).ok_or(None)?;
                *incomplete |= tainted.intersects(&dom);
                dom = dom.and(&holds);
            }
            doms[v] = dom;
            if dom.is_empty() {
                return Err(if *incomplete { None } else { Some(false) });
            }
        }
        Ok(doms)
    }

    /// The values of variable `v` its own check `k` holds for, and those a
    /// tainted evaluation rejected (from the memo, or tabulated over all
    /// 256 and remembered); `None` past the budget.
    fn unary_table(&mut self, k: usize, v: usize, memo: &mut Memo) -> Option<(ByteSet, ByteSet)> {
        let (e, var) = (self.checks[k].expr, self.vars[v]);
        if let Some(u) = memo.unary(e, var) {
            return Some((u.holds, u.tainted));
        }
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
        Some((holds, tainted))
    }

    /// The three-variable assertions of `rest` as tables over the pruned
    /// domains (when the budget covers them), and the assertions left for
    /// the search.
    fn ternaries(
        &mut self,
        rest: Vec<usize>,
        doms: &[ByteSet],
        incomplete: &mut bool,
        memo: &mut Memo,
    ) -> (Vec<TernaryTable>, Vec<usize>) {
        let mut tern: Vec<TernaryTable> = Vec::new();
        let mut general = Vec::new();
        for k in rest {
            if self.checks[k].mask.count_ones() == 3 {
                if let Some((t, tv)) = self.ternary(k, doms, memo) {
                    *incomplete |= t.tainted;
                    tern.push((t, tv, k));
                    continue;
                }
            }
            general.push(k);
        }
        (tern, general)
    }

    /// Where each check goes in the search along `order`.
    fn plan(
        &self,
        order: Vec<usize>,
        rels: &[Relation],
        tern: &[TernaryTable],
        general: &[usize],
    ) -> Plan {
        let mut depth_of = vec![usize::MAX; self.vars.len()];
        for (d, &v) in order.iter().enumerate() {
            depth_of[v] = d;
        }
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
        for &k in general {
            let m = self.checks[k].mask;
            let depth = order
                .iter()
                .rposition(|&v| m & (1 << v) != 0)
                .expect("a multi-variable assertion has variables");
            at_depth[depth].push(k);
        }
        Plan {
            order,
            links,
            filters,
            lookups,
            at_depth,
        }
    }

    /// The search's worst case (no pruning but by the tables): the sum
    /// over depths of the candidates at that depth times its checks.
    fn worst_case(&self, plan: &Plan, doms: &[ByteSet], rels: &[Relation]) -> f64 {
        let mut worst = 0f64;
        let mut candidates = 1f64;
        for (d, &v) in plan.order.iter().enumerate() {
            let branching = plan.links[d]
                .iter()
                .map(|&i| {
                    let u = rels[i].other(v);
                    rels[i].branching(u, &doms[u], &doms[v])
                })
                .min()
                .unwrap_or(doms[v].len());
            candidates *= branching as f64;
            let cost: usize = plan.at_depth[d]
                .iter()
                .map(|&k| self.checks[k].tape.len())
                .sum();
            worst += candidates * (cost + plan.lookups[d].len()) as f64;
        }
        worst
    }

    /// The depth-first search along `plan`: at each depth the candidates
    /// are the variable's domain less what the tables of its fixed
    /// neighbours rule out. `Some(true)` with the model in `values`,
    /// `Some(false)` when exhausted, `None` past the budget.
    fn descend(
        &mut self,
        plan: &Plan,
        doms: &[ByteSet],
        rels: &[Relation],
        tern: &[TernaryTable],
        incomplete: &mut bool,
    ) -> Option<bool> {
        let order = &plan.order;
        let mut cand = vec![ByteSet::default(); order.len()];
        let mut next = vec![0usize; order.len()];
        let enter = |d: usize, values: &[u8]| {
            let v = order[d];
            let c = plan.links[d].iter().fold(doms[v], |c, &i| {
                let u = rels[i].other(v);
                c.and(&rels[i].supports(u, values[u]))
            });
            plan.filters[d].iter().fold(c, |c, &i| {
                let (t, tv, _) = &tern[i];
                c.and(t.row(values[tv[0]], values[tv[1]]))
            })
        };
        cand[0] = enter(0, &self.values);
        let mut d = 0;
        loop {
            let Some(x) = cand[d].next_from(next[d]) else {
                if d == 0 {
                    return Some(false);
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
            if !plan.lookups[d].iter().all(|&i| {
                let (t, tv, _) = &tern[i];
                t.row(values[tv[0]], values[tv[1]]).contains(values[tv[2]])
            }) {
                continue;
            }
            if !self.all_hold(&plan.at_depth[d], incomplete)? {
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
}

/// Arc consistency with the two-variable tables, then support in the
/// three-variable ones, until neither prunes (or a few rounds); `false`
/// when a domain runs empty.
fn propagate(doms: &mut [ByteSet], rels: &[Relation], tern: &[TernaryTable]) -> bool {
    for _ in 0..8 {
        if !arc_consistency(doms, rels) {
            return false;
        }
        let mut changed = false;
        for (t, tv, _) in tern {
            match prune_ternary(doms, t, *tv) {
                None => return false,
                Some(c) => changed |= c,
            }
        }
        if !changed {
            break;
        }
    }
    true
}
