//! The linear layer: queries whose constraints are affine over GF(2) in the
//! input bits, decided by Gaussian elimination without the backend.
//!
//! A CRC is linear over GF(2): each bit of the checksum is the XOR of some
//! input bits and a constant. Its table lookups are linear too (a CRC table
//! is affine in its index, see [`crate::lookup`]), but a SAT solver sees an
//! XOR network, which CDCL solves poorly: the first question about a CRC
//! of a few input bytes (`~crc == 0`, before printing it) can take seconds,
//! past a query's time limit. Here a 32-bit CRC of eight bytes is 32 equations
//! in 64 unknowns.
//!
//! How a query is decided:
//! * Only queries with an XOR of bit-vectors or a read of a constant table
//!   at a symbolic index are looked at (anything else passes down at once),
//!   with at most [`LINEAR_MAX_BYTES`] input bytes (root-array bytes read at
//!   constant indices; 8 unknowns each) and [`LINEAR_MAX_NODES`] nodes.
//! * Each bit of a value of at most 64 bits is an affine form over the
//!   unknowns where the value is built by XOR, NOT, shifts by constants,
//!   concatenation, extraction, extension, AND/OR where one side of each bit
//!   is constant, additions without carries (every bit of one side zero),
//!   and table reads whose table is affine in a small index of affine bits.
//! * Assertions: `a == b` over affine values gives one equation per bit;
//!   an affine width-1 value must be 1; bounds of one affine term
//!   (`bounds::bound_of`: `t <u c`, `t / 10 == 0`, ...) become a union of
//!   cubes (some high bits fixed), split into cases (at most
//!   [`LINEAR_MAX_CASES`]; further bounds are only checked). Anything else is
//!   only checked.
//! * Every case is eliminated; when none is consistent the query is `Unsat`
//!   (each equation follows from the assertions). Otherwise candidate models
//!   (free unknowns 0, then seeded pseudo-random) are checked against all
//!   assertions by the reference evaluator; the first that satisfies them
//!   all is the model, and when none does the query passes down.

use crate::bounds::{bound_of, IntervalSet};
use crate::lookup::{small_lookup, SmallLookup};
use crate::wellformed::store_chain_for;
use crate::{project, validate, LayerCounters, SatResult, Solver, SolverError};
use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::ControlFlow;
use std::rc::Rc;
use symtest_expr::{ArrayId, Assignment, BinOp, CmpOp, Evaluator, ExprId, ExprPool, Node};

/// At most this many input bytes are unknowns.
pub const LINEAR_MAX_BYTES: usize = 64;

/// Queries with more expression nodes than this pass down.
pub const LINEAR_MAX_NODES: usize = 20_000;

/// At most this many combinations of cubes are eliminated.
pub const LINEAR_MAX_CASES: usize = 256;

/// Candidate models checked per query.
const CANDIDATES: u32 = 16;

/// Decides queries that are linear over GF(2); see the module docs.
pub struct LinearSolver<S: Solver> {
    inner: S,
    counters: LayerCounters,
    /// Table reads tabulated so far, for the pool `pool_uid`.
    lookups: FxHashMap<ExprId, Option<Rc<SmallLookup>>>,
    pool_uid: u64,
}

/// Tabulated table reads kept across queries at most.
const LOOKUP_MEMO_LIMIT: usize = 20_000;

impl<S: Solver> LinearSolver<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        LinearSolver {
            inner,
            counters: LayerCounters::default(),
            lookups: FxHashMap::default(),
            pool_uid: 0,
        }
    }

    /// The wrapped solver.
    pub fn inner(&self) -> &S {
        &self.inner
    }
}

impl<S: Solver> Solver for LinearSolver<S> {
    fn check(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        if self.pool_uid != pool.uid() || self.lookups.len() > LOOKUP_MEMO_LIMIT {
            self.lookups.clear();
            self.pool_uid = pool.uid();
        }
        let (inner, lookups) = (&mut self.inner, &mut self.lookups);
        self.counters.own_or_below(
            || {
                validate(pool, assertions, arrays)?;
                Ok(decide(pool, assertions, arrays, lookups))
            },
            || inner.check(pool, assertions, arrays),
        )
    }

    crate::answering_layer_plumbing!("linear");
}

/// A row over the unknowns and the constant: bit `j < n` is unknown `j`,
/// bit `n` the constant 1.
type Row = Box<[u64]>;

/// The affine forms of a value's bits, least significant first.
type Form = Rc<Vec<Row>>;

/// How an assertion is encoded in the system.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoded {
    /// Exactly, by equations: every solution satisfies it.
    Exactly,
    /// As a bound of the term at this index of the bounds (exact when that
    /// bound is split into cases).
    Bound(usize),
    /// Not at all: candidates are checked against it.
    Checked,
}

/// The answer, if the query is linear enough to decide; `None` to pass it down.
pub(crate) fn decide(
    pool: &ExprPool,
    assertions: &[ExprId],
    arrays: &[ArrayId],
    lookups: &mut FxHashMap<ExprId, Option<Rc<SmallLookup>>>,
) -> Option<SatResult> {
    let unknowns = Unknowns::collect(pool, assertions)?;
    let mut lin = Linearizer {
        pool,
        unknowns: &unknowns,
        memo: FxHashMap::default(),
        lookups,
    };
    let Some(enc) = Encoding::of(&mut lin, assertions) else {
        return Some(SatResult::Unsat);
    };
    if !enc.parts.iter().any(|(_, e)| *e != Encoded::Checked) {
        return None;
    }
    let Some(splits) = splits(&enc.bounds) else {
        return Some(SatResult::Unsat);
    };
    let checked: Vec<ExprId> = enc
        .parts
        .iter()
        .filter(|(_, e)| match e {
            Encoded::Exactly => false,
            Encoded::Bound(k) => !splits.iter().any(|(s, _)| s == k),
            Encoded::Checked => true,
        })
        .map(|(a, _)| *a)
        .collect();
    let mut candidates = Candidates {
        rng: 0x9E37_79B9_7F4A_7C15u64,
        budget: CANDIDATES,
    };
    let mut choice = vec![0usize; splits.len()];
    let mut any_consistent = false;
    loop {
        if let Some(case) = enc.case(&mut lin, &splits, &choice) {
            any_consistent = true;
            let tried = candidates.try_case(&case, &unknowns, pool, &checked, assertions, arrays);
            if let ControlFlow::Break(answer) = tried {
                return answer;
            }
        }
        if !next_choice(&mut choice, &splits) {
            return (!any_consistent).then_some(SatResult::Unsat);
        }
    }
}

/// A bound split into cases: its index in the bounds, and its cubes
/// (value, mask of the bits it fixes).
type Split = (usize, Vec<(u64, u64)>);

/// Each bound as cubes; the fewest cubes first, and a bound that would
/// make too many cases is left out (only checked). `None` when a bound
/// allows no value.
fn splits(bounds: &[(ExprId, IntervalSet)]) -> Option<Vec<Split>> {
    let mut splits: Vec<Split> = Vec::new();
    for (k, (_, set)) in bounds.iter().enumerate() {
        let cubes = set_cubes(set);
        if cubes.is_empty() {
            return None;
        }
        splits.push((k, cubes));
    }
    splits.sort_by_key(|(_, c)| c.len());
    let mut cases = 1usize;
    splits.retain(|(_, c)| {
        if cases * c.len() <= LINEAR_MAX_CASES {
            cases *= c.len();
            true
        } else {
            false
        }
    });
    Some(splits)
}

/// Steps `choice` (a cube of each split) to the next combination; `false`
/// when every one has been tried.
fn next_choice(choice: &mut [usize], splits: &[Split]) -> bool {
    let mut k = 0;
    loop {
        if k == choice.len() {
            return false;
        }
        choice[k] += 1;
        if choice[k] < splits[k].1.len() {
            return true;
        }
        choice[k] = 0;
        k += 1;
    }
}

/// The encoding of a query's assertions.
struct Encoding {
    /// The equations.
    system: System,
    /// The bounded terms and the values they may take.
    bounds: Vec<(ExprId, IntervalSet)>,
    /// (assertion, how it is encoded); conjunctions are split.
    parts: Vec<(ExprId, Encoded)>,
}

impl Encoding {
    /// Encodes `assertions`, or `None` when one is false or contradicts
    /// the equations (the query is unsatisfiable).
    fn of(lin: &mut Linearizer, assertions: &[ExprId]) -> Option<Encoding> {
        let pool = lin.pool;
        let mut enc = Encoding {
            system: System::new(lin.unknowns.count),
            bounds: Vec::new(),
            parts: Vec::new(),
        };
        let mut todo: Vec<ExprId> = assertions.to_vec();
        while let Some(a) = todo.pop() {
            if let Some(c) = pool.as_const(a) {
                if c.is_true() {
                    continue;
                }
                return None;
            }
            if let Node::Bin(BinOp::And, x, y) = *pool.node(a) {
                todo.extend([x, y]);
                continue;
            }
            let how = enc.encode(lin, a)?;
            enc.parts.push((a, how));
        }
        Some(enc)
    }

    /// Encodes assertion `a` (not a conjunction) by equations, else as a
    /// bound, else not at all; `None` when its equations contradict the
    /// others.
    fn encode(&mut self, lin: &mut Linearizer, a: ExprId) -> Option<Encoded> {
        let pool = lin.pool;
        if let Node::Cmp(CmpOp::Eq, x, y) = *pool.node(a) {
            if pool.width(x) <= 64 {
                if let (Some(fx), Some(fy)) = (lin.form(x), lin.form(y)) {
                    for (rx, ry) in fx.iter().zip(fy.iter()) {
                        let mut r = rx.clone();
                        xor_into(&mut r, ry);
                        if !self.system.insert(r) {
                            return None;
                        }
                    }
                    return Some(Encoded::Exactly);
                }
            }
        }
        if let Some(f) = lin.form(a) {
            let mut r = f[0].clone();
            flip_constant(&mut r, lin.unknowns.count);
            if !self.system.insert(r) {
                return None;
            }
            return Some(Encoded::Exactly);
        }
        if let Some((t, set)) = bound_of(pool, a) {
            if pool.width(t) <= 64 && lin.form(t).is_some() {
                let k = match self.bounds.iter().position(|(u, _)| *u == t) {
                    Some(k) => {
                        self.bounds[k].1 = self.bounds[k].1.intersect(&set);
                        k
                    }
                    None => {
                        self.bounds.push((t, set));
                        self.bounds.len() - 1
                    }
                };
                return Some(Encoded::Bound(k));
            }
        }
        Some(Encoded::Checked)
    }

    /// The equations with each split bound fixed to its cube of `choice`,
    /// or `None` when they are inconsistent.
    fn case(&self, lin: &mut Linearizer, splits: &[Split], choice: &[usize]) -> Option<System> {
        let mut case = self.system.clone();
        for (k, (b, cubes)) in splits.iter().enumerate() {
            let (value, mask) = cubes[choice[k]];
            let f = lin
                .form(self.bounds[*b].0)
                .expect("bounded terms have forms");
            for (bit, row) in f.iter().enumerate() {
                if mask >> bit & 1 == 0 {
                    continue;
                }
                let mut r = row.clone();
                if value >> bit & 1 == 1 {
                    flip_constant(&mut r, lin.unknowns.count);
                }
                if !case.insert(r) {
                    return None;
                }
            }
        }
        Some(case)
    }
}

/// The candidate solutions tried across a query's cases.
struct Candidates {
    /// State of the pseudo-random choice of free unknowns.
    rng: u64,
    /// Candidates left.
    budget: u32,
}

impl Candidates {
    /// Tries solutions of `case`: free unknowns 0, then pseudo-random,
    /// while the budget lasts. `Break` with the query's answer when one
    /// satisfies the `checked` assertions (`Sat` if every assertion holds
    /// under it, else `None`: the encoding is not trusted); `Continue`
    /// for the next case.
    fn try_case(
        &mut self,
        case: &System,
        unknowns: &Unknowns,
        pool: &ExprPool,
        checked: &[ExprId],
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> ControlFlow<Option<SatResult>> {
        let mut first = true;
        while self.budget > 0 {
            self.budget -= 1;
            let rng = &mut self.rng;
            let bits = case.solve(|_| {
                if first {
                    return false;
                }
                *rng ^= *rng << 13;
                *rng ^= *rng >> 7;
                *rng ^= *rng << 17;
                *rng & 1 == 1
            });
            first = false;
            let model = unknowns.model(pool, &bits);
            let mut ev = Evaluator::new(pool, &model);
            if checked.iter().all(|&a| ev.eval_bool(a)) {
                // Every assertion, as a check of the encoding.
                if assertions.iter().all(|&a| ev.eval_bool(a)) {
                    return ControlFlow::Break(Some(SatResult::Sat(project(pool, &model, arrays))));
                }
                return ControlFlow::Break(None);
            }
            if checked.is_empty() {
                break;
            }
        }
        ControlFlow::Continue(())
    }
}

/// The input bytes of a query (root-array bytes read at constant indices),
/// eight unknowns each.
struct Unknowns {
    index: FxHashMap<(ArrayId, u64), usize>,
    bytes: Vec<(ArrayId, u64)>,
    count: usize,
}

impl Unknowns {
    /// The unknowns of `assertions`, or `None` when the query has no XOR of
    /// bit-vectors and no read of a table at a symbolic index, or is too big.
    fn collect(pool: &ExprPool, assertions: &[ExprId]) -> Option<Unknowns> {
        let mut seen = FxHashSet::default();
        let mut stack: Vec<ExprId> = assertions.to_vec();
        let mut index = FxHashMap::default();
        let mut bytes = Vec::new();
        let mut interesting = false;
        while let Some(e) = stack.pop() {
            if !seen.insert(e) {
                continue;
            }
            if seen.len() > LINEAR_MAX_NODES {
                return None;
            }
            match *pool.node(e) {
                Node::Select { array, index: ix } => {
                    if let (&Node::Array(a), Some(i)) = (pool.node(array), pool.as_const(ix)) {
                        let key = (a, i.to_u64());
                        if let std::collections::hash_map::Entry::Vacant(v) = index.entry(key) {
                            if bytes.len() == LINEAR_MAX_BYTES {
                                return None;
                            }
                            v.insert(bytes.len() * 8);
                            bytes.push(key);
                        }
                        continue;
                    }
                    if pool.as_const(ix).is_none() {
                        interesting = true;
                    }
                    // Only the index: the stores are the table's constants
                    // or, if not, make the read unsupported anyway.
                    stack.push(ix);
                    continue;
                }
                Node::Bin(BinOp::Xor, _, _) if pool.width(e) > 1 => interesting = true,
                Node::FBin(..)
                | Node::FUn(..)
                | Node::FFma(..)
                | Node::FCmp(..)
                | Node::FConv(..) => return None,
                _ => {}
            }
            stack.extend(pool.node(e).children());
        }
        if !interesting || bytes.is_empty() {
            return None;
        }
        let count = bytes.len() * 8;
        Some(Unknowns {
            index,
            bytes,
            count,
        })
    }

    /// Words in a row: the unknowns and the constant.
    fn words(&self) -> usize {
        (self.count + 1).div_ceil(64)
    }

    /// The assignment with these values of the unknowns.
    fn model(&self, pool: &ExprPool, bits: &[bool]) -> Assignment {
        let mut by_array: FxHashMap<ArrayId, Vec<u8>> = FxHashMap::default();
        for (k, &(a, i)) in self.bytes.iter().enumerate() {
            let size = pool.array_info(a).size as usize;
            let v = by_array.entry(a).or_insert_with(|| vec![0; size]);
            let byte = (0..8).fold(0u8, |acc, b| acc | (u8::from(bits[k * 8 + b]) << b));
            if let Some(slot) = v.get_mut(i as usize) {
                *slot = byte;
            }
        }
        let mut m = Assignment::new();
        let mut arrays: Vec<_> = by_array.into_iter().collect();
        arrays.sort_by_key(|(a, _)| a.index());
        for (a, v) in arrays {
            m.set(a, v);
        }
        m
    }
}

/// Affine forms of expressions (memoised; `None`: not affine here).
struct Linearizer<'a> {
    pool: &'a ExprPool,
    unknowns: &'a Unknowns,
    memo: FxHashMap<ExprId, Option<Form>>,
    /// Reads at symbolic indices tabulated over their small index value
    /// (kept across queries).
    lookups: &'a mut FxHashMap<ExprId, Option<Rc<SmallLookup>>>,
}

impl Linearizer<'_> {
    fn zero(&self) -> Row {
        vec![0u64; self.unknowns.words()].into_boxed_slice()
    }

    fn constant(&self, bit: bool) -> Row {
        let mut r = self.zero();
        if bit {
            flip_constant(&mut r, self.unknowns.count);
        }
        r
    }

    /// The constant value of a row, if it has no unknowns.
    fn as_const(&self, r: &Row) -> Option<bool> {
        let n = self.unknowns.count;
        let only_const = r.iter().enumerate().all(|(w, &word)| {
            let keep = if w == n / 64 { !(1u64 << (n % 64)) } else { !0 };
            word & keep == 0
        });
        only_const.then(|| r[n / 64] >> (n % 64) & 1 == 1)
    }

    /// The forms of `e`'s bits, if they are affine by the rules of the
    /// module docs.
    fn form(&mut self, e: ExprId) -> Option<Form> {
        if let Some(f) = self.memo.get(&e) {
            return f.clone();
        }
        // Operands first, without recursion on deep expressions.
        let mut stack = vec![(e, false)];
        while let Some((x, ready)) = stack.pop() {
            if self.memo.contains_key(&x) {
                continue;
            }
            if !ready {
                stack.push((x, true));
                for c in self.operands(x) {
                    if !self.memo.contains_key(&c) {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let f = self.build(x).map(Rc::new);
            self.memo.insert(x, f);
        }
        self.memo[&e].clone()
    }

    /// The read `e` (of a store chain at a symbolic index) as a table over
    /// its small index value, if it is one.
    fn lookup(&mut self, e: ExprId) -> Option<Rc<SmallLookup>> {
        if let Some(l) = self.lookups.get(&e) {
            return l.clone();
        }
        let l = match *self.pool.node(e) {
            Node::Select { array, index } if !matches!(self.pool.node(array), Node::Array(_)) => {
                let (stores, _) = store_chain_for(self.pool, array, index);
                small_lookup(self.pool, index, &stores).map(Rc::new)
            }
            _ => None,
        };
        self.lookups.insert(e, l.clone());
        l
    }

    /// The operands whose forms `build` needs.
    fn operands(&mut self, e: ExprId) -> Vec<ExprId> {
        let pool = self.pool;
        if pool.width(e) > 64 || pool.is_array(e) {
            return Vec::new();
        }
        match *pool.node(e) {
            Node::Select { .. } => match self.lookup(e) {
                Some(l) => vec![l.var],
                None => Vec::new(),
            },
            Node::Ite(c, t, f) => vec![c, t, f],
            Node::Cmp(..) => Vec::new(),
            ref n => n.children().into_vec(),
        }
    }

    fn get(&self, e: ExprId) -> Option<&Form> {
        if self.pool.as_const(e).is_some() {
            return None;
        }
        self.memo.get(&e).and_then(|f| f.as_ref())
    }

    /// The rows of `e`'s bits (its operands' forms are memoised).
    fn build(&self, e: ExprId) -> Option<Vec<Row>> {
        let pool = self.pool;
        let w = pool.width(e) as usize;
        if w > 64 || pool.is_array(e) {
            return None;
        }
        // A constant operand's rows.
        let rows_of = |x: ExprId| -> Option<Vec<Row>> {
            if let Some(c) = pool.as_const(x) {
                return Some(
                    (0..pool.width(x))
                        .map(|i| self.constant(c.bit(i)))
                        .collect(),
                );
            }
            self.get(x).map(|f| f.as_ref().clone())
        };
        match *pool.node(e) {
            Node::Const(ref c) => Some((0..w as u32).map(|i| self.constant(c.bit(i))).collect()),
            Node::Select { array, index } => {
                if let (&Node::Array(a), Some(i)) = (pool.node(array), pool.as_const(index)) {
                    let base = *self.unknowns.index.get(&(a, i.to_u64()))?;
                    return Some(
                        (0..8)
                            .map(|b| {
                                let mut r = self.zero();
                                r[(base + b) / 64] |= 1 << ((base + b) % 64);
                                r
                            })
                            .collect(),
                    );
                }
                let l = self.lookups.get(&e)?.as_ref()?;
                if l.lo != 0 {
                    return None;
                }
                let (c, cols) = l.affine()?;
                let var = rows_of(l.var)?;
                Some(
                    (0..8)
                        .map(|j| {
                            let mut r = self.constant(c >> j & 1 == 1);
                            for (b, col) in cols.iter().enumerate() {
                                if col >> j & 1 == 1 {
                                    xor_into(&mut r, &var[b]);
                                }
                            }
                            r
                        })
                        .collect(),
                )
            }
            Node::Not(a) => {
                let mut v = rows_of(a)?;
                for r in &mut v {
                    flip_constant(r, self.unknowns.count);
                }
                Some(v)
            }
            Node::Bin(op, a, b) => {
                let va = rows_of(a)?;
                match op {
                    BinOp::Shl | BinOp::LShr | BinOp::AShr => {
                        let s = pool.as_const(b)?.as_u64_exact().unwrap_or(u64::MAX);
                        let s = s.min(w as u64) as usize;
                        Some(
                            (0..w)
                                .map(|i| match op {
                                    BinOp::Shl if i >= s => va[i - s].clone(),
                                    BinOp::Shl => self.zero(),
                                    _ if i + s < w => va[i + s].clone(),
                                    BinOp::LShr => self.zero(),
                                    _ => va[w - 1].clone(),
                                })
                                .collect(),
                        )
                    }
                    BinOp::Xor | BinOp::And | BinOp::Or | BinOp::Add => {
                        let vb = rows_of(b)?;
                        va.into_iter()
                            .zip(vb)
                            .map(|(ra, rb)| self.bitwise(op, ra, rb))
                            .collect()
                    }
                    _ => None,
                }
            }
            Node::Concat(h, l) => {
                let mut v = rows_of(l)?;
                v.extend(rows_of(h)?);
                Some(v)
            }
            Node::Extract { expr, lo, width } => {
                let v = rows_of(expr)?;
                Some(v[lo as usize..(lo + width) as usize].to_vec())
            }
            Node::ZExt(a, _) => {
                let mut v = rows_of(a)?;
                v.resize_with(w, || self.zero());
                Some(v)
            }
            Node::SExt(a, _) => {
                let mut v = rows_of(a)?;
                let top = v.last()?.clone();
                v.resize(w, top);
                Some(v)
            }
            Node::Ite(c, t, f) => {
                let cond = rows_of(c)?;
                match self.as_const(&cond[0])? {
                    true => rows_of(t),
                    false => rows_of(f),
                }
            }
            _ => None,
        }
    }

    /// One bit of `a op b`, if affine: XOR always; AND and OR when one side
    /// is constant; ADD when one side is 0 (no carry in or out at any bit:
    /// the whole addition is checked bit by bit).
    fn bitwise(&self, op: BinOp, mut a: Row, b: Row) -> Option<Row> {
        let (ca, cb) = (self.as_const(&a), self.as_const(&b));
        match op {
            BinOp::Xor => {
                xor_into(&mut a, &b);
                Some(a)
            }
            BinOp::And => match (ca, cb) {
                (Some(false), _) | (_, Some(true)) => Some(a),
                (_, Some(false)) | (Some(true), _) => Some(b),
                _ => None,
            },
            BinOp::Or => match (ca, cb) {
                (Some(true), _) | (_, Some(false)) => Some(a),
                (_, Some(true)) | (Some(false), _) => Some(b),
                _ => None,
            },
            BinOp::Add => match (ca, cb) {
                (_, Some(false)) => Some(a),
                (Some(false), _) => Some(b),
                _ => None,
            },
            _ => None,
        }
    }
}

fn xor_into(a: &mut Row, b: &Row) {
    for (x, y) in a.iter_mut().zip(b.iter()) {
        *x ^= y;
    }
}

fn flip_constant(r: &mut Row, n: usize) {
    r[n / 64] ^= 1 << (n % 64);
}

/// A set of affine equations `row · (x, 1) = 0`, kept fully reduced: each
/// row has a pivot unknown that no other row has.
#[derive(Clone)]
struct System {
    n: usize,
    rows: Vec<(usize, Row)>,
}

impl System {
    fn new(n: usize) -> System {
        System {
            n,
            rows: Vec::new(),
        }
    }

    fn has(r: &Row, j: usize) -> bool {
        r[j / 64] >> (j % 64) & 1 == 1
    }

    /// Adds an equation; false when the system became inconsistent.
    fn insert(&mut self, mut r: Row) -> bool {
        for (p, row) in &self.rows {
            if Self::has(&r, *p) {
                xor_into(&mut r, row);
            }
        }
        let Some(pivot) = (0..self.n).find(|&j| Self::has(&r, j)) else {
            // No unknown left: 0 = 0 or 1 = 0.
            return !Self::has(&r, self.n);
        };
        for (_, row) in &mut self.rows {
            if Self::has(row, pivot) {
                xor_into(row, &r);
            }
        }
        self.rows.push((pivot, r));
        true
    }

    /// Values of the unknowns: free ones from `free`, pivots as the
    /// equations require.
    fn solve(&self, mut free: impl FnMut(usize) -> bool) -> Vec<bool> {
        let mut is_pivot = vec![false; self.n];
        for (p, _) in &self.rows {
            is_pivot[*p] = true;
        }
        let mut x: Vec<bool> = (0..self.n).map(|j| !is_pivot[j] && free(j)).collect();
        for (p, row) in &self.rows {
            // Pivot rows hold no other pivot: the free values decide.
            let mut v = Self::has(row, self.n);
            for (j, &xj) in x.iter().enumerate() {
                if j != *p && xj && Self::has(row, j) {
                    v = !v;
                }
            }
            x[*p] = v;
        }
        x
    }
}

/// `set` as cubes `(value, mask)`: the values `v` with `v & mask == value`
/// (high bits fixed, low ones free), disjoint, covering it exactly.
fn set_cubes(set: &IntervalSet) -> Vec<(u64, u64)> {
    let width = set.width();
    let all = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let mut out = Vec::new();
    for &(lo, hi) in set.ranges() {
        let mut lo = lo;
        loop {
            // The largest block of 2^k values aligned at `lo` that ends by `hi`.
            let mut k = if lo == 0 {
                width
            } else {
                lo.trailing_zeros().min(width)
            };
            while k > 0 && lo + ((1u128 << k) - 1) > hi {
                k -= 1;
            }
            let free = ((1u128 << k) - 1) as u64;
            out.push((lo as u64 & !free & all, !free & all));
            let end = lo + u128::from(free);
            if end >= hi {
                break;
            }
            lo = end + 1;
        }
    }
    out
}
