//! Solver interface for symtest and its Bitwuzla backend.
//!
//! * [`Solver`]: "is this conjunction of width-1 expressions satisfiable,
//!   and if so give me the bytes of these arrays".
//! * [`BitwuzlaSolver`]: the Bitwuzla backend (the only code that touches
//!   the C API; see its module docs for the translation and lifetime rules).
//! * The query optimization chain (paper §3.3), each layer a decorator
//!   implementing [`Solver`] that can be left out without changing any
//!   answer, only speed:
//!   [`IndependentSolver`] (constraint independence) →
//!   [`BoundsSolver`] (one value's bounds, decided by intervals) →
//!   [`CexCachingSolver`] (counter-example cache over a UBTree) →
//!   [`CachingSolver`] (query-result cache) → [`DomainSolver`] (search
//!   over a few input bytes) → [`LinearSolver`] (Gaussian elimination
//!   over GF(2)) → [`BitwuzlaSolver`].
//!   [`build_chain`] assembles it from a [`LayerSet`].
//! * Statistics: [`Solver::stats`] describes what reached the backend;
//!   [`Solver::layer_stats`] gives per-layer counters, outermost first.

use std::time::Duration;
use symtest_bitwuzla_link as _;
use symtest_expr::{ArrayId, Assignment, ExprId, ExprPool};

mod bitwuzla;
mod bounds;
#[cfg(test)]
mod bounds_tests;
mod cache;
mod cex_cache;
mod chain;
#[cfg(test)]
mod chain_tests;
mod domain;
#[cfg(test)]
mod domain_tests;
mod error;
#[cfg(test)]
mod fp_tests;
mod independence;
#[cfg(test)]
mod independence_tests;
#[cfg(test)]
mod layer_tests;
mod linear;
#[cfg(test)]
mod linear_tests;
mod lookup;
#[cfg(test)]
mod test_rng;
#[cfg(test)]
mod tests;
mod ubtree;
mod wellformed;

pub use bitwuzla::{BitwuzlaMode, BitwuzlaSolver, MEMO_LIMIT, RECYCLE_QUERIES};
pub use bounds::BoundsSolver;
pub use cache::{CachingSolver, CACHE_MAX_ENTRIES};
pub use cex_cache::{
    CexCachingSolver, CexStats, CEX_MAX_ENTRIES, CEX_MAX_KEY_ELEMS, CEX_MAX_SUBSET_TRIES,
    CEX_RECENT,
};
pub use chain::{build_chain, LayerSet, LayerSetError};
pub use domain::{DomainSolver, DOMAIN_BUDGET, DOMAIN_MAX_NODES, DOMAIN_MAX_VARS};
pub use error::SolverError;
pub use independence::{IndependenceStats, IndependentSolver};
pub use linear::{LinearSolver, LINEAR_MAX_BYTES, LINEAR_MAX_CASES, LINEAR_MAX_NODES};

/// Answer to a satisfiability query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    /// Satisfiable; the model gives every byte of each requested array.
    Sat(Assignment),
    /// Unsatisfiable.
    Unsat,
    /// Neither could be shown (e.g. `"timeout"`).
    Unknown(String),
}

impl SatResult {
    /// True for `Sat`.
    pub fn is_sat(&self) -> bool {
        matches!(self, SatResult::Sat(_))
    }

    /// True for `Unsat`.
    pub fn is_unsat(&self) -> bool {
        matches!(self, SatResult::Unsat)
    }

    /// The model, if `Sat`.
    pub fn model(&self) -> Option<&Assignment> {
        match self {
            SatResult::Sat(m) => Some(m),
            _ => None,
        }
    }
}

/// Counters kept by a solver.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Queries answered (including cache hits for caching solvers).
    pub queries: u64,
    /// `Sat` answers.
    pub sat: u64,
    /// `Unsat` answers.
    pub unsat: u64,
    /// `Unknown` answers.
    pub unknown: u64,
    /// Wall-clock time spent answering.
    pub time: Duration,
    /// Queries answered from a cache.
    pub cache_hits: u64,
}

impl SolverStats {
    /// Counts one answer.
    pub fn record(&mut self, result: &SatResult, time: Duration) {
        self.queries += 1;
        self.time += time;
        match result {
            SatResult::Sat(_) => self.sat += 1,
            SatResult::Unsat => self.unsat += 1,
            SatResult::Unknown(_) => self.unknown += 1,
        }
    }
}

/// Counters of one layer of a solver chain (see [`Solver::layer_stats`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerStats {
    /// Layer name: `"independence"`, `"cex"`, `"cache"`, `"bitwuzla"`, ...
    pub name: &'static str,
    /// Queries that entered the layer.
    pub queries: u64,
    /// Queries the layer answered itself, without asking the layer below
    /// (for a backend: its Sat and Unsat answers, i.e. all but Unknown).
    pub answered: u64,
    /// Wall-clock time spent in the layer, including the layers below.
    pub time: Duration,
}

/// Counters every decorator keeps for its [`LayerStats`].
#[derive(Clone, Debug, Default)]
pub(crate) struct LayerCounters {
    pub(crate) queries: u64,
    pub(crate) answered: u64,
    pub(crate) time: Duration,
}

impl LayerCounters {
    pub(crate) fn to_stats(&self, name: &'static str) -> LayerStats {
        LayerStats {
            name,
            queries: self.queries,
            answered: self.answered,
            time: self.time,
        }
    }

    /// A decorator's [`Solver::layer_stats`]: its own entry (`name`) in front
    /// of the inner solver's list.
    pub(crate) fn stacked(&self, name: &'static str, inner: Vec<LayerStats>) -> Vec<LayerStats> {
        let mut v = vec![self.to_stats(name)];
        v.extend(inner);
        v
    }

    /// One query of a layer that answers some queries itself: `own` decides
    /// it or returns `None`, and then `below` asks the inner solver. Counted
    /// and timed (the time includes the layers below).
    pub(crate) fn own_or_below(
        &mut self,
        own: impl FnOnce() -> Result<Option<SatResult>, SolverError>,
        below: impl FnOnce() -> Result<SatResult, SolverError>,
    ) -> Result<SatResult, SolverError> {
        let start = std::time::Instant::now();
        self.queries += 1;
        let res = match own() {
            Ok(Some(answer)) => {
                self.answered += 1;
                Ok(answer)
            }
            Ok(None) => below(),
            Err(e) => Err(e),
        };
        self.time += start.elapsed();
        res
    }
}

/// The `Solver` methods of a layer that answers some queries itself and
/// passes the rest to its `inner` solver (fields `inner` and `counters`):
/// limits go down unchanged, its answers count as `cache_hits`, and its
/// `LayerStats` entry, named `$name`, stands in front of the inner list.
macro_rules! answering_layer_plumbing {
    ($name:literal) => {
        fn set_timeout(&mut self, timeout: Option<std::time::Duration>) {
            self.inner.set_timeout(timeout);
        }

        fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
            self.inner.set_deadline(deadline);
        }

        fn stats(&self) -> $crate::SolverStats {
            let mut s = self.inner.stats();
            s.cache_hits += self.counters.answered;
            s
        }

        fn layer_stats(&self) -> Vec<$crate::LayerStats> {
            self.counters.stacked($name, self.inner.layer_stats())
        }
    };
}
pub(crate) use answering_layer_plumbing;

/// Checks that every assertion is a width-1 expression of `pool` and
/// every requested array is registered; the errors match the backend's.
pub(crate) fn validate(
    pool: &ExprPool,
    assertions: &[ExprId],
    arrays: &[ArrayId],
) -> Result<(), SolverError> {
    if let Some(a) = arrays.iter().find(|a| a.index() >= pool.arrays().len()) {
        return Err(SolverError::UnknownArray(a.index()));
    }
    for &e in assertions {
        if e.index() >= pool.len() {
            return Err(SolverError::Malformed {
                id: e,
                reason: "not in this pool".into(),
            });
        }
        let width = pool.width(e);
        if width != 1 {
            return Err(SolverError::NotBoolean { id: e, width });
        }
    }
    Ok(())
}

/// The model for `arrays` read off `src`: every array gets exactly its
/// `size` bytes, bytes `src` lacks are 0 (as [`ExprPool::eval`] reads them).
pub(crate) fn project(pool: &ExprPool, src: &Assignment, arrays: &[ArrayId]) -> Assignment {
    let mut out = Assignment::new();
    for &a in arrays {
        let size = pool.array_info(a).size as usize;
        let mut bytes = src.bytes(a).to_vec();
        bytes.resize(size, 0);
        out.set(a, bytes);
    }
    out
}

/// What a caller already knows about a query: `assertions[..prefix]` all
/// hold under `model` (an executor's path condition and the model it keeps
/// for it). See [`Solver::check_known`].
#[derive(Clone, Copy, Debug)]
pub struct Known<'a> {
    /// A satisfying assignment of the prefix (bytes it lacks read as 0).
    pub model: &'a Assignment,
    /// How many leading assertions it satisfies.
    pub prefix: usize,
}

/// A decision procedure for conjunctions of width-1 expressions.
pub trait Solver {
    /// Is the conjunction of `assertions` (width-1 exprs) satisfiable? On
    /// Sat the assignment gives every byte (`0..size`) of each array in
    /// `arrays` (the model).
    fn check(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError>;

    /// As [`Solver::check`], with `known` satisfied by the leading
    /// assertions. Same answers; a layer may use it to skip work (the
    /// independence layer takes the model of each group made only of
    /// known assertions from it instead of asking below). The default
    /// ignores it.
    fn check_known(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
        known: Known<'_>,
    ) -> Result<SatResult, SolverError> {
        let _ = known;
        self.check(pool, assertions, arrays)
    }

    /// Per-query time limit; `None` for no limit.
    fn set_timeout(&mut self, timeout: Option<Duration>);

    /// A point in time after which every query gives up (`Unknown`), even in
    /// the middle of solving (the run's `--max-time`); `None` for none.
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>);

    /// Counters so far. For a decorator chain these describe the queries
    /// that reached the backend (`queries`, `sat`, `unsat`, `unknown`,
    /// `time`), with `cache_hits` summed over the caching layers.
    fn stats(&self) -> SolverStats;

    /// Per-layer counters, outermost layer first; a decorator puts its own
    /// entry in front of its inner solver's list. The default describes a
    /// backend from [`Solver::stats`].
    fn layer_stats(&self) -> Vec<LayerStats> {
        let s = self.stats();
        vec![LayerStats {
            name: "backend",
            queries: s.queries,
            answered: s.sat + s.unsat,
            time: s.time,
        }]
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn check(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        (**self).check(pool, assertions, arrays)
    }

    fn check_known(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
        known: Known<'_>,
    ) -> Result<SatResult, SolverError> {
        (**self).check_known(pool, assertions, arrays, known)
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        (**self).set_timeout(timeout)
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        (**self).set_deadline(deadline)
    }

    fn stats(&self) -> SolverStats {
        (**self).stats()
    }

    fn layer_stats(&self) -> Vec<LayerStats> {
        (**self).layer_stats()
    }
}
