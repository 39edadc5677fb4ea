//! The counter-example cache (paper §3.3; KLEE's `CexCachingSolver`).
//!
//! Maps constraint sets (sorted, deduplicated [`ExprId`] sets, constant
//! `true`s dropped) to a solution (an [`Assignment`] satisfying the set,
//! bytes it lacks reading as 0 as with [`ExprPool::eval`]) or to "no
//! solution", stored in a [`UBTree`]. A query `Q` is
//! answered without the inner solver when
//!
//! 1. `Q` itself is cached (exact hit);
//! 2. a cached **subset** of `Q` has no solution (adding constraints keeps
//!    a set unsatisfiable) → Unsat;
//! 3. a cached **superset** of `Q` has a solution (it satisfies every
//!    subset) → that solution;
//! 4. the solution of a cached **subset** `S` of `Q` satisfies the
//!    constraints of `Q \ S` (checked with [`ExprPool::eval`], up to
//!    [`CEX_MAX_SUBSET_TRIES`] subsets, largest first) → that solution;
//! 5. one of the [`CEX_RECENT`] most recent solutions satisfies all of
//!    `Q` (also checked with `eval`) → that solution.
//!
//! The subset and superset walks visit at most [`CEX_MAX_VISITS`] nodes
//! of the tree each (a bounded search: a hit beyond is missed).
//! Rules 1–3 are exact, 4–5 are checked, so no answer differs from the
//! inner solver's except in *which* model a satisfiable query gets.
//! Otherwise the inner solver is asked for `Q` with the arrays `Q` reads
//! (so the stored solution covers the whole set), and its Sat/Unsat answer
//! is stored; an `Unknown` answer is passed up and never stored.
//! Solutions are shared ([`Arc`]) between the keys they solve.
//!
//! Memory is bounded: at most [`CEX_MAX_ENTRIES`] sets holding at most
//! [`CEX_MAX_KEY_ELEMS`] constraint ids in all; past either bound the
//! oldest entries are evicted (first in, first out). The cache belongs to
//! one [`ExprPool`] (by [`ExprPool::uid`]) and is cleared when another
//! pool is queried.

use crate::ubtree::UBTree;
use crate::{
    project, validate, LayerCounters, LayerStats, SatResult, Solver, SolverError, SolverStats,
};
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};
use symtest_expr::{ArrayId, Assignment, Evaluator, ExprId, ExprPool};

/// Default bound on cached constraint sets.
pub const CEX_MAX_ENTRIES: usize = 20_000;

/// Default bound on the constraint ids held by all cached sets.
pub const CEX_MAX_KEY_ELEMS: usize = 1_000_000;

/// Cached subsets whose solutions are tried on a query (largest first).
pub const CEX_MAX_SUBSET_TRIES: usize = 16;

/// Nodes of the set tree one subset or superset walk visits at most
/// (rules 2–4 then miss what lies beyond; exact hits are unaffected). Over
/// long path conditions an unbounded superset walk visits thousands of nodes
/// per query for a hit on few of them, and the hits it finds lie near the
/// start of the walk: the bound keeps them and drops the cost.
pub const CEX_MAX_VISITS: usize = 256;

/// Most recent solutions tried on a query that no subset solves.
pub const CEX_RECENT: usize = 8;

/// How the counter-example cache answered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CexStats {
    /// The set itself was cached.
    pub exact_hits: u64,
    /// A cached subset has no solution.
    pub unsat_subset_hits: u64,
    /// A cached superset's solution.
    pub sat_superset_hits: u64,
    /// A cached subset's solution satisfied the set.
    pub subset_solution_hits: u64,
    /// A recent solution satisfied the set.
    pub recent_solution_hits: u64,
    /// Queries passed to the inner solver.
    pub misses: u64,
    /// Candidate solutions evaluated (rules 4 and 5).
    pub solutions_tried: u64,
    /// Entries evicted to stay within the bounds.
    pub evictions: u64,
}

impl CexStats {
    /// Queries answered from the cache (all kinds of hits).
    pub fn hits(&self) -> u64 {
        self.exact_hits
            + self.unsat_subset_hits
            + self.sat_superset_hits
            + self.subset_solution_hits
            + self.recent_solution_hits
    }
}

type Solution = Option<Arc<Assignment>>;

/// The counter-example cache in front of another solver (see the module
/// docs).
pub struct CexCachingSolver<S: Solver> {
    inner: S,
    tree: UBTree<ExprId, Solution>,
    /// Keys in insertion order, for eviction.
    order: VecDeque<Box<[ExprId]>>,
    key_elems: usize,
    max_entries: usize,
    max_key_elems: usize,
    recent: VecDeque<Arc<Assignment>>,
    pool_uid: u64,
    counters: LayerCounters,
    cex: CexStats,
}

impl<S: Solver> CexCachingSolver<S> {
    /// Wraps `inner` with the default bounds.
    pub fn new(inner: S) -> Self {
        Self::with_capacity(inner, CEX_MAX_ENTRIES, CEX_MAX_KEY_ELEMS)
    }

    /// Wraps `inner`, caching at most `max_entries` sets holding at most
    /// `max_key_elems` constraint ids in all.
    pub fn with_capacity(inner: S, max_entries: usize, max_key_elems: usize) -> Self {
        CexCachingSolver {
            inner,
            tree: UBTree::new(),
            order: VecDeque::new(),
            key_elems: 0,
            max_entries,
            max_key_elems,
            recent: VecDeque::new(),
            pool_uid: 0,
            counters: LayerCounters::default(),
            cex: CexStats::default(),
        }
    }

    /// The wrapped solver.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The wrapped solver, mutably.
    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Unwraps the inner solver.
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// Number of cached constraint sets.
    pub fn len(&self) -> usize {
        self.tree.len()
    }

    /// True if nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.tree.len() == 0
    }

    /// Forgets everything cached.
    pub fn clear(&mut self) {
        self.tree.clear();
        self.order.clear();
        self.recent.clear();
        self.key_elems = 0;
    }

    /// How queries were answered so far.
    pub fn cex_stats(&self) -> CexStats {
        self.cex.clone()
    }

    fn insert(&mut self, key: &[ExprId], sol: Solution) {
        if self.tree.insert(key, sol).is_none() {
            self.order.push_back(key.into());
            self.key_elems += key.len();
        }
        while self.tree.len() > self.max_entries || self.key_elems > self.max_key_elems {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            self.tree.remove(&old);
            self.key_elems -= old.len();
            self.cex.evictions += 1;
        }
    }

    fn remember(&mut self, sol: &Arc<Assignment>) {
        if let Some(i) = self.recent.iter().position(|r| Arc::ptr_eq(r, sol)) {
            self.recent.remove(i);
        }
        self.recent.push_front(sol.clone());
        self.recent.truncate(CEX_RECENT);
    }

    /// Answers `key` from the cache (rules 1–5 of the module docs):
    /// `Some(None)` unsat, `Some(Some(solution))` sat, `None` unknown.
    fn lookup(&mut self, pool: &ExprPool, key: &[ExprId]) -> Option<Solution> {
        if let Some(v) = self.tree.get(key) {
            self.cex.exact_hits += 1;
            return Some(v.clone());
        }
        // Subsets: an unsatisfiable one decides; satisfiable ones give
        // candidate solutions (with the constraints they must still meet).
        let mut unsat = false;
        let mut cands: Vec<(Arc<Assignment>, Vec<ExprId>)> = Vec::new();
        self.tree
            .for_each_subset(key, CEX_MAX_VISITS, |s, v| match v {
                None => {
                    unsat = true;
                    ControlFlow::Break(())
                }
                Some(sol) => {
                    if cands.len() < 4 * CEX_MAX_SUBSET_TRIES
                        && !cands.iter().any(|c| Arc::ptr_eq(&c.0, sol))
                    {
                        cands.push((sol.clone(), difference(key, s)));
                    }
                    ControlFlow::Continue(())
                }
            });
        if unsat {
            self.cex.unsat_subset_hits += 1;
            return Some(None);
        }
        let mut sup = None;
        self.tree
            .for_each_superset(key, CEX_MAX_VISITS, |_, v| match v {
                Some(sol) => {
                    sup = Some(sol.clone());
                    ControlFlow::Break(())
                }
                None => ControlFlow::Continue(()),
            });
        if let Some(sol) = sup {
            self.cex.sat_superset_hits += 1;
            return Some(Some(sol));
        }
        // Checked guesses: subsets' solutions (fewest missing constraints
        // first), then recent solutions.
        cands.sort_by_key(|c| c.1.len());
        cands.truncate(CEX_MAX_SUBSET_TRIES);
        for (sol, missing) in &cands {
            self.cex.solutions_tried += 1;
            if satisfies(pool, sol, missing) {
                self.cex.subset_solution_hits += 1;
                let sol = sol.clone();
                self.insert(key, Some(sol.clone()));
                self.remember(&sol);
                return Some(Some(sol));
            }
        }
        let recent: Vec<Arc<Assignment>> = self
            .recent
            .iter()
            .filter(|r| !cands.iter().any(|c| Arc::ptr_eq(&c.0, r)))
            .cloned()
            .collect();
        for sol in recent {
            self.cex.solutions_tried += 1;
            if satisfies(pool, &sol, key) {
                self.cex.recent_solution_hits += 1;
                self.insert(key, Some(sol.clone()));
                self.remember(&sol);
                return Some(Some(sol));
            }
        }
        None
    }

    fn check_inner(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        validate(pool, assertions, arrays)?;
        if pool.uid() != self.pool_uid {
            self.clear();
            self.pool_uid = pool.uid();
        }
        let mut key = Vec::with_capacity(assertions.len());
        for &e in assertions {
            match pool.as_const(e) {
                Some(b) if b.is_true() => {}
                Some(_) => {
                    self.counters.answered += 1;
                    return Ok(SatResult::Unsat);
                }
                None => key.push(e),
            }
        }
        key.sort_unstable();
        key.dedup();
        if key.is_empty() {
            self.counters.answered += 1;
            return Ok(SatResult::Sat(project(pool, &Assignment::new(), arrays)));
        }
        if let Some(hit) = self.lookup(pool, &key) {
            self.counters.answered += 1;
            return Ok(match hit {
                None => SatResult::Unsat,
                Some(sol) => SatResult::Sat(project(pool, &sol, arrays)),
            });
        }
        self.cex.misses += 1;
        let mut key_arrays: Vec<ArrayId> = Vec::new();
        for &e in &key {
            key_arrays.extend_from_slice(pool.arrays_in_slice(e));
        }
        key_arrays.sort_unstable();
        key_arrays.dedup();
        Ok(match self.inner.check(pool, &key, &key_arrays)? {
            SatResult::Sat(m) => {
                let sol = Arc::new(m);
                self.insert(&key, Some(sol.clone()));
                self.remember(&sol);
                SatResult::Sat(project(pool, &sol, arrays))
            }
            SatResult::Unsat => {
                self.insert(&key, None);
                SatResult::Unsat
            }
            unknown @ SatResult::Unknown(_) => unknown,
        })
    }
}

/// `a \ b` for sorted sets.
fn difference(a: &[ExprId], b: &[ExprId]) -> Vec<ExprId> {
    let mut out = Vec::with_capacity(a.len() - b.len().min(a.len()));
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j < b.len() && b[j] == x {
            j += 1;
        } else {
            out.push(x);
        }
    }
    out
}

/// Do all `exprs` hold under `sol`? Newest (highest id) first: the most
/// recently added constraints are the likeliest to fail.
fn satisfies(pool: &ExprPool, sol: &Assignment, exprs: &[ExprId]) -> bool {
    let mut ev = Evaluator::new(pool, sol);
    exprs.iter().rev().all(|&e| ev.eval_bool(e))
}

impl<S: Solver> Solver for CexCachingSolver<S> {
    fn check(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        self.counters.queries += 1;
        let res = self.check_inner(pool, assertions, arrays);
        self.counters.time += start.elapsed();
        res
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
    }

    /// The inner solver's counters, with this cache's hits added to
    /// `cache_hits`.
    fn stats(&self) -> SolverStats {
        let mut s = self.inner.stats();
        s.cache_hits += self.cex.hits();
        s
    }

    fn layer_stats(&self) -> Vec<LayerStats> {
        self.counters.stacked("cex", self.inner.layer_stats())
    }
}
