//! A query-result cache in front of another solver.

use crate::{LayerCounters, LayerStats, SatResult, Solver, SolverError, SolverStats};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};
use symtest_expr::{ArrayId, ExprId, ExprPool};

/// Default bound on cached answers; past it the oldest are evicted.
pub const CACHE_MAX_ENTRIES: usize = 100_000;

/// Cache key: the sorted, deduplicated assertion ids and requested arrays.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct QueryKey {
    assertions: Box<[ExprId]>,
    arrays: Box<[ArrayId]>,
}

/// Answers repeated queries from a cache; only misses reach the inner
/// solver. `Sat` and `Unsat` answers are cached, `Unknown` ones are not (a
/// retry may succeed, e.g. with a longer timeout). The cache belongs to one
/// [`ExprPool`] (by [`ExprPool::uid`]) and is cleared when another pool is
/// queried. At most [`CACHE_MAX_ENTRIES`] answers are kept (oldest
/// evicted first).
pub struct CachingSolver<S: Solver> {
    inner: S,
    cache: FxHashMap<Arc<QueryKey>, SatResult>,
    /// Keys in insertion order, for eviction.
    order: VecDeque<Arc<QueryKey>>,
    max_entries: usize,
    pool_uid: u64,
    counters: LayerCounters,
}

impl<S: Solver> CachingSolver<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        Self::with_capacity(inner, CACHE_MAX_ENTRIES)
    }

    /// Wraps `inner`, keeping at most `max_entries` answers.
    pub fn with_capacity(inner: S, max_entries: usize) -> Self {
        CachingSolver {
            inner,
            cache: FxHashMap::default(),
            order: VecDeque::new(),
            max_entries,
            pool_uid: 0,
            counters: LayerCounters::default(),
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

    /// Number of cached answers.
    pub fn cache_len(&self) -> usize {
        self.cache.len()
    }

    /// Forgets all cached answers.
    pub fn clear_cache(&mut self) {
        self.cache.clear();
        self.order.clear();
    }
}

impl<S: Solver> Solver for CachingSolver<S> {
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
        s.cache_hits += self.counters.answered;
        s
    }

    fn layer_stats(&self) -> Vec<LayerStats> {
        self.counters.stacked("cache", self.inner.layer_stats())
    }
}

impl<S: Solver> CachingSolver<S> {
    fn check_inner(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        if pool.uid() != self.pool_uid {
            self.clear_cache();
            self.pool_uid = pool.uid();
        }
        let mut a = assertions.to_vec();
        a.sort_unstable();
        a.dedup();
        let mut arrs = arrays.to_vec();
        arrs.sort_unstable();
        arrs.dedup();
        let key = QueryKey {
            assertions: a.into(),
            arrays: arrs.into(),
        };
        if let Some(hit) = self.cache.get(&key) {
            self.counters.answered += 1;
            return Ok(hit.clone());
        }
        let res = self.inner.check(pool, &key.assertions, &key.arrays)?;
        if !matches!(res, SatResult::Unknown(_)) {
            let key = Arc::new(key);
            self.order.push_back(key.clone());
            self.cache.insert(key, res.clone());
            while self.cache.len() > self.max_entries {
                let Some(old) = self.order.pop_front() else {
                    break;
                };
                self.cache.remove(&old);
            }
        }
        Ok(res)
    }
}
