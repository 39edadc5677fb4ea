//! Hash-consed bit-vector and array expressions for symtest.
//!
//! * [`Bits`]: arbitrary-width two's-complement constants with SMT-LIB
//!   semantics (division by zero, over-wide shifts), so constant folding
//!   always agrees with the solver. Widths up to 64 take a single-word fast
//!   path; up to 128 bits stay allocation-free.
//! * [`ExprPool`]: an arena of hash-consed [`Node`]s addressed by
//!   [`ExprId`]; structurally equal expressions get the same id, so
//!   equality is an integer compare. Builders fold constants and apply
//!   local rewrites (see the `rewrite` module docs for the canonical forms)
//!   unless [`ExprPool::set_simplify`] turns them off.
//! * Symbolic inputs are byte arrays ([`ArrayId`], 32-bit index, 8-bit
//!   value) read with `select` through chains of `store`s.
//! * [`Assignment`] + [`ExprPool::eval`]: solver-independent concrete
//!   evaluation, used to check models.
//! * Floating point: IEEE bit patterns (width 32: float, 64: double, 80:
//!   x86_fp80) with operator nodes (`FBin`, `FUn`, `FFma`, `FCmp`, `FConv`)
//!   whose exact semantics are in the `fp` module (round to nearest even,
//!   canonical NaN) and [`softfloat`] (exact arithmetic in any of the three
//!   formats, as the x87 computes x86_fp80).
//! * [`ExprPool::display`]: a kquery-like printer.

mod bits;
mod display;
mod eval;
mod fp;
mod ops;
mod pool;
mod range;
mod rewrite;
mod shorthands;
pub mod softfloat;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;

pub use bits::Bits;
pub use display::ExprDisplay;
pub use eval::{Assignment, Evaluator};
pub use fp::{
    canonical_nan, conv_widths_ok, fma, format, int_range, is_fp_width, FpBinOp, FpCmpOp, FpConvOp,
    FpUnOp,
};
pub use pool::{ArrayId, ArrayInfo, BinOp, CmpOp, ExprId, ExprPool, Node};
