//! A query-result cache in front of another solver.

use crate::{SatResult, Solver, SolverError, SolverStats};
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};
use symtest_expr::{ArrayId, ExprId, ExprPool};

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
/// queried.
pub struct CachingSolver<S: Solver> {
    inner: S,
    cache: FxHashMap<QueryKey, SatResult>,
    pool_uid: u64,
    stats: SolverStats,
}

impl<S: Solver> CachingSolver<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        CachingSolver {
            inner,
            cache: FxHashMap::default(),
            pool_uid: 0,
            stats: SolverStats::default(),
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
        if pool.uid() != self.pool_uid {
            self.cache.clear();
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
            let hit = hit.clone();
            self.stats.cache_hits += 1;
            self.stats.record(&hit, start.elapsed());
            return Ok(hit);
        }
        let res = self.inner.check(pool, &key.assertions, &key.arrays)?;
        if !matches!(res, SatResult::Unknown(_)) {
            self.cache.insert(key, res.clone());
        }
        self.stats.record(&res, start.elapsed());
        Ok(res)
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    /// Counts every query (hits included); `time` includes the inner
    /// solver's time.
    fn stats(&self) -> SolverStats {
        self.stats.clone()
    }
}
