//! Solver errors.

use symtest_expr::ExprId;
use thiserror::Error;

/// Why a query could not be answered (as opposed to `Unknown`, which is a
/// legitimate answer such as a timeout).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolverError {
    /// An assertion is not a width-1 expression.
    #[error("assertion {id:?} has width {width}, expected 1")]
    NotBoolean {
        /// The offending assertion.
        id: ExprId,
        /// Its width.
        width: u32,
    },
    /// An expression cannot be translated (ill-sorted or unsupported).
    #[error("cannot translate expression {id:?}: {reason}")]
    Malformed {
        /// The offending expression.
        id: ExprId,
        /// What is wrong with it.
        reason: String,
    },
    /// A requested array is not registered in the pool.
    #[error("unknown array {0}")]
    UnknownArray(usize),
    /// The backend failed to start or answered something unexpected.
    #[error("solver backend error: {0}")]
    Backend(String),
}
