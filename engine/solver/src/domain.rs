//! The small-domain layer: queries over a few input bytes decided by
//! enumerating their values, without the backend.
//!
//! In programs that parse or transform text, most of the backend's time
//! goes to queries over one to four bytes of input that read them through
//! lookup tables: a multibyte decoder indexing a 51-entry table by
//! `c - 0xc2`, a `switch` on a character, `isspace` and friends. Nearly all
//! of them read at most two distinct input bytes, through a read at a
//! symbolic index, and each costs milliseconds (Bitwuzla rewrites,
//! bit-blasts and solves the table on every check). 256 or 65,536
//! candidate values are a small search when each assertion is checked as
//! soon as the bytes it reads are fixed.
//!
//! How a query is decided:
//! * **Variables** are the root-array bytes read at constant indices. More
//!   than [`DOMAIN_MAX_VARS`] of them, more than [`DOMAIN_MAX_NODES`]
//!   expression nodes, floating point, or a read through anything but a
//!   chain of stores over an array root: the query passes down untouched.
//! * The assertions are compiled to a tape of operations on 64-bit words
//!   (wider nodes pass down) with the reference evaluator's semantics,
//!   division by zero and over-shifts included (checked against [`Bits`]
//!   by test; every model is checked by the evaluator itself). A read at a
//!   symbolic index walks its store chain (a hash lookup when every store
//!   index is a constant, as in a lookup table); when it falls through to
//!   a root byte that is not a variable, that byte reads 0 (as
//!   [`ExprPool::eval`] reads bytes a model lacks) and the evaluation is
//!   *tainted*: its outcome holds for that choice of the byte only.
//! * Each variable's domain is the values its own (one-variable)
//!   assertions allow; variables are then searched smallest domain first,
//!   depth first, values ascending, each assertion checked at the depth
//!   where its last variable is fixed. The first full assignment is the
//!   model (deterministic).
//! * `Sat` only for a model every assertion holds under by the reference
//!   evaluator; `Unsat` only when the search is exhausted and no
//!   assertion was found false in a tainted evaluation; past
//!   [`DOMAIN_BUDGET`] node evaluations, or when a tainted evaluation
//!   rejected a candidate and nothing was found, the query passes down.

use crate::bounds::{bound_of, plain_read, IntervalSet};
use crate::{project, validate, LayerCounters, SatResult, Solver, SolverError};
use rustc_hash::FxHashMap;
use symtest_expr::{ArrayId, Assignment, BinOp, Bits, CmpOp, Evaluator, ExprId, ExprPool, Node};

mod memo;
mod relation;
mod search;
mod tables;
mod tape;
mod word;
use memo::{ConstTable, Memo, Ternary, Unary};
use relation::{arc_consistency, prune_ternary, ByteSet, Relation};
use std::rc::Rc;
use tape::{Op, Tape};

/// A three-variable table of a query: the query's numbers of its variables
/// (in [`memo::Var`] order) and its check.
type TernaryTable = (Rc<Ternary>, [usize; 3], usize);
pub(crate) use word::{bin64, cmp64, mask, sx};

/// At most this many distinct input bytes (variables) are searched.
pub const DOMAIN_MAX_VARS: usize = 8;

/// Queries with more expression nodes than this pass down.
pub const DOMAIN_MAX_NODES: usize = 20_000;

/// Node evaluations one query may spend before it passes down (about 2 ms).
pub const DOMAIN_BUDGET: u64 = 1_000_000;

/// Decides queries over few input bytes by search; see the module docs.
pub struct DomainSolver<S: Solver> {
    inner: S,
    counters: LayerCounters,
    memo: Memo,
}

impl<S: Solver> DomainSolver<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        DomainSolver {
            inner,
            counters: LayerCounters::default(),
            memo: Memo::default(),
        }
    }

    /// The wrapped solver.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Tables and domains of single assertions reused from earlier queries.
    #[cfg(test)]
    pub(crate) fn memo_hits(&self) -> u64 {
        self.memo.hits
    }
}

impl<S: Solver> Solver for DomainSolver<S> {
    fn check(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        let (inner, memo) = (&mut self.inner, &mut self.memo);
        self.counters.own_or_below(
            || decide(pool, assertions, arrays, memo),
            || inner.check(pool, assertions, arrays),
        )
    }

    crate::answering_layer_plumbing!("domain");
}

/// The answer if the search decides the query, `None` to pass it down.
fn decide(
    pool: &ExprPool,
    assertions: &[ExprId],
    arrays: &[ArrayId],
    memo: &mut Memo,
) -> Result<Option<SatResult>, SolverError> {
    validate(pool, assertions, arrays)?;
    memo.begin(pool.uid());
    let Some(mut tape) = Tape::build(pool, assertions, memo) else {
        return Ok(None);
    };
    let allowed = byte_domains(pool, assertions, &tape.vars);
    // Plain bit-vector arithmetic over several bytes is the backend's
    // strength (a 16-bit word's bounds: one cheap query for Bitwuzla,
    // 65,536 candidates here); reads at symbolic indices are its weakness. So is
    // nonlinear arithmetic (products of symbolic values, a geometric series
    // over a ratio in 2..=50; divisions): such a query is searched here when
    // the bounds of the integers the bytes form leave few candidates.
    if tape.symbolic_reads == 0 && tape.vars.len() > 1 {
        if tape.nonlinear == 0 {
            return Ok(None);
        }
        let candidates: f64 = allowed
            .iter()
            .map(|m| {
                m.as_ref()
                    .map_or(256.0, |m| m.iter().filter(|&&b| b).count() as f64)
            })
            .product();
        if candidates > PLAIN_MAX_CANDIDATES {
            return Ok(None);
        }
    }
    let r = tape.search(&allowed, memo);
    Ok(match r {
        None => None,
        Some(false) => Some(SatResult::Unsat),
        Some(true) => confirm(pool, assertions, arrays, &tape),
    })
}

/// Is `a op b` arithmetic the backend bit-blasts into a multiplier or a
/// divider: a product of two non-constants, a division or remainder but by
/// a constant power of two?
fn nonlinear(pool: &ExprPool, op: BinOp, a: ExprId, b: ExprId) -> bool {
    match op {
        BinOp::Mul => !pool.is_constant(a) && !pool.is_constant(b),
        BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem => {
            !matches!(pool.as_const(b), Some(c) if c.exact_log2().is_some())
        }
        _ => false,
    }
}

/// Most candidate assignments a query without reads at symbolic indices
/// may have for it to be searched here rather than by the backend.
pub const PLAIN_MAX_CANDIDATES: f64 = 4096.0;

/// The values each variable can take given the bounds assertions place on
/// the integers read from its bytes (`2 <= z <= 50` for a 4-byte `z`: its
/// low byte in 2..=50, the others 0), or `None` where they do not narrow it.
/// An over-approximation (the hull of each integer's allowed values,
/// projected onto each byte): the search still checks every assertion.
fn byte_domains(
    pool: &ExprPool,
    assertions: &[ExprId],
    vars: &[(ArrayId, u64)],
) -> Vec<Option<[bool; 256]>> {
    let mut bounded: Vec<(ExprId, IntervalSet)> = Vec::new();
    for &a in assertions {
        if let Some((t, set)) = bound_of(pool, a) {
            match bounded.iter_mut().find(|(u, _)| *u == t) {
                Some((_, s)) => *s = s.intersect(&set),
                None => bounded.push((t, set)),
            }
        }
    }
    let mut out: Vec<Option<[bool; 256]>> = vec![None; vars.len()];
    for (t, set) in bounded {
        let mut bytes = Vec::new();
        if !plain_read(pool, t, &mut bytes) || bytes.len() * 8 != pool.width(t) as usize {
            continue;
        }
        let (Some(lo), Some(hi)) = (set.min(), set.max_member()) else {
            continue;
        };
        // Least significant byte first.
        for (k, &(array, index)) in bytes.iter().rev().enumerate() {
            let Some(v) = vars
                .iter()
                .position(|&(a, i)| a == array && i == u64::from(index))
            else {
                continue;
            };
            let (l, h) = (lo >> (8 * k), hi >> (8 * k));
            if h - l >= 255 {
                continue;
            }
            let mut m = [false; 256];
            for x in l..=h {
                m[(x & 255) as usize] = true;
            }
            if let Some(old) = &out[v] {
                for (b, o) in m.iter_mut().zip(old) {
                    *b &= *o;
                }
            }
            out[v] = Some(m);
        }
    }
    out
}

/// The search's model, re-checked by the reference evaluator and projected
/// onto the requested arrays; a failed check (never expected) passes down.
fn confirm(
    pool: &ExprPool,
    assertions: &[ExprId],
    arrays: &[ArrayId],
    tape: &Tape,
) -> Option<SatResult> {
    let model = tape.assignment(pool);
    let mut ev = Evaluator::new(pool, &model);
    if !assertions.iter().all(|&a| ev.eval_bool(a)) {
        debug_assert!(false, "small-domain model fails the reference evaluator");
        return None;
    }
    Some(SatResult::Sat(project(pool, &model, arrays)))
}
