//! Solver interface for symtest and its Bitwuzla backend.
//!
//! * [`Solver`]: "is this conjunction of width-1 expressions satisfiable,
//!   and if so give me the bytes of these arrays".
//! * [`BitwuzlaSolver`]: the Bitwuzla backend (the only code that touches
//!   the C API; see its module docs for the translation and lifetime rules).
//! * [`CachingSolver`]: a decorator that answers repeated queries from a
//!   result cache.

use std::time::Duration;
use symtest_bitwuzla_link as _;
use symtest_expr::{ArrayId, Assignment, ExprId, ExprPool};

mod bitwuzla;
mod cache;
mod error;
#[cfg(test)]
mod tests;

pub use bitwuzla::{BitwuzlaMode, BitwuzlaSolver, MEMO_LIMIT, RECYCLE_QUERIES};
pub use cache::CachingSolver;
pub use error::SolverError;

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

    /// Per-query time limit; `None` for no limit.
    fn set_timeout(&mut self, timeout: Option<Duration>);

    /// Counters so far.
    fn stats(&self) -> SolverStats;
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

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        (**self).set_timeout(timeout)
    }

    fn stats(&self) -> SolverStats {
        (**self).stats()
    }
}
