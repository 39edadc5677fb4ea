//! The Bitwuzla backend. This is the only module that names `bitwuzla-sys`;
//! all `unsafe` code of the crate lives here and in its submodule
//! `translate` (expressions to terms); this file holds the solver session:
//! configuration, push/pop, solving and models.
//!
//! # Design
//!
//! * One long-lived term manager per [`BitwuzlaSolver`], with a persistent
//!   memo `ExprId -> term` (one memo for bit-vector terms, one for Boolean
//!   terms). Width-1 expressions used as conditions (assertions, `ite`
//!   conditions, operands of width-1 `and/or/xor/not`) are translated to
//!   Bitwuzla Booleans; comparisons used as values become `ite(c, #b1, #b0)`.
//!   The memo is tied to one [`ExprPool`] (by [`ExprPool::uid`]); a query
//!   over another pool, or a memo past [`MEMO_LIMIT`] terms, drops the term
//!   manager and starts afresh.
//! * **One persistent `Bitwuzla` instance, solved incrementally along a
//!   path** is the default ([`BitwuzlaMode::PushPop`]): a query's
//!   assertions but the last stay asserted, one push level each, and the
//!   next query pops only the levels where its assertions differ, pushes
//!   the rest, and passes its last assertion to `check_sat_assuming`.
//!   Queries of one path condition share long prefixes, so Bitwuzla
//!   preprocesses and bit-blasts only what is new (`check_sat_assuming`
//!   alone re-asserts and re-preprocesses every assumption on every
//!   check). The alternatives: every assertion an assumption
//!   ([`BitwuzlaMode::Incremental`]) and a fresh instance per query
//!   ([`BitwuzlaMode::Fresh`]). The instance is recreated every
//!   [`RECYCLE_QUERIES`] queries (and on timeout changes): its SAT solver
//!   keeps every circuit and learned clause, and checks get slower as it
//!   ages. Pushed terms are never released while pushed (the memo owns
//!   them), and the push stack is only ever compared by term identity.
//! * Options: Bitwuzla's skeleton preprocessing is off. It creates a new
//!   CaDiCaL instance on every check with one variable per term id of the
//!   (long-lived) term manager, so its cost grows with every term ever
//!   built, and over a long exploration it becomes a large share of the
//!   solver's time.
//! * **Reads at symbolic indices through stores** (`select(store(...),
//!   i)`, e.g. a lookup table flushed into an array) are expanded into
//!   `ite(i == i_n, v_n, ...ite(i == i_1, v_1, select(base, i)))` over at
//!   most `READ_OVER_WRITE_LIMIT` (1,024) stores, outermost first (same
//!   meaning). Bitwuzla's lemmas on demand need one SAT round per lemma
//!   on such chains, so a table read at a few symbolic indices costs many
//!   rounds per query where the expanded read is solved in one.
//! * These choices (the read-over-write expansion, skeleton preprocessing
//!   off, push/pop, the recycling interval) are each a clear gain on the
//!   query sequences of real explorations, replayed exactly
//!   (`cargo xtask bench solver`), with and without the chain's layers;
//!   the interval matters little within a wide range around its value.
//!   Not kept, for no gain or a mixed one per workload: embedded-constraint
//!   preprocessing off, preprocessing off, rewrite level 0 or 1 (the SAT
//!   solver gets more work), and plain bit-vector variables for
//!   constant-index reads of root arrays.
//! * Memory: every term handle the memo holds owns exactly one reference;
//!   temporary terms (model reads) are released right after use; the
//!   instance, options and term manager are deleted on drop / reset, so
//!   nothing leaks across queries.
//! * Floating-point nodes use Bitwuzla's floating-point theory
//!   (`bitwuzla/fp.rs`): operands are `to_fp` of their bits, and the bits
//!   of a result are a fresh constant defined by `to_fp(b) = r`; the
//!   definitions are asserted once per instance, below every push level
//!   (the path prefix is popped and re-pushed when new ones appear).
//! * Bitwuzla aborts the process on API misuse, so expressions are checked
//!   for well-sortedness before any term is built ([`SolverError::Malformed`]).

use crate::wellformed::malformed;
use crate::{SatResult, Solver, SolverError, SolverStats};
use bitwuzla_sys as bz;
use rustc_hash::FxHashMap;
use std::ffi::CStr;
use std::time::{Duration, Instant};
use symtest_expr::{ArrayId, Assignment, ExprId, ExprPool};

mod fp;
mod translate;

type Term = bz::BitwuzlaTerm;
type Sort = bz::BitwuzlaSort;

/// Above this many memoised terms the term manager is recreated.
pub const MEMO_LIMIT: usize = 4_000_000;

/// The persistent instance is recreated after this many queries, bounding
/// the memory it accumulates and the slowdown of an aging instance;
/// recreated much more often, it preprocesses the shared path prefixes
/// again and again (see the module docs).
pub const RECYCLE_QUERIES: u32 = 200;

/// How queries are posed to Bitwuzla.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitwuzlaMode {
    /// A new solver instance per query.
    Fresh,
    /// One persistent instance, all assertions passed as assumptions.
    Incremental,
    /// One persistent instance (default): the assertions of a query but
    /// the last are asserted one push level each and stay asserted for
    /// the next query as far as its assertions agree (a path condition
    /// grows and shrinks like a stack); the last one is an assumption.
    PushPop,
}

/// The Bitwuzla solver backend.
pub struct BitwuzlaSolver {
    tm: *mut bz::BitwuzlaTermManager,
    options: *mut bz::BitwuzlaOptions,
    /// Persistent instance (incremental mode only), else null.
    persistent: *mut bz::Bitwuzla,
    mode: BitwuzlaMode,
    /// Push/pop mode: the terms asserted on the persistent instance, one
    /// push level each.
    stack: Vec<Term>,
    /// Queries posed to the current persistent instance.
    instance_queries: u32,
    recycle_queries: u32,
    timeout: Option<Duration>,
    /// The run's deadline, read by the termination callback of every
    /// instance (boxed: the callback keeps its address).
    deadline: Box<std::cell::Cell<Option<Instant>>>,
    pool_uid: u64,
    bv: FxHashMap<ExprId, Term>,
    boolean: FxHashMap<ExprId, Term>,
    fp: FxHashMap<ExprId, Term>,
    /// Definitions `to_fp(b) = r` of the fresh bit-vector constants that
    /// stand for the bits of floating-point results (see `bitwuzla/fp.rs`),
    /// in creation order.
    fp_defs: Vec<Term>,
    /// How many of `fp_defs` are asserted (at the bottom level) on the
    /// persistent instance.
    fp_defs_asserted: usize,
    sorts: FxHashMap<u32, Sort>,
    array_sort: Sort,
    stats: SolverStats,
}

// SAFETY: the solver exclusively owns its term manager, options and
// instance; no handle is shared with another object, and Bitwuzla's C API
// has no thread affinity (its thread-local buffers are only used within a
// single call). Moving the whole solver to another thread is therefore
// sound; `&self` methods do not touch Bitwuzla, and it is not `Sync`.
unsafe impl Send for BitwuzlaSolver {}

/// A term with one reference owned by this guard, released on drop.
struct Owned(Term);

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: the guard owns one reference to a live term (terms stay
        // valid until released or the term manager is deleted, and guards
        // never outlive a query, during which the manager is not replaced).
        unsafe { bz::bitwuzla_term_release(self.0) }
    }
}

/// Bitwuzla's termination callback: 1 (stop) once the deadline `state`
/// points to has passed.
unsafe extern "C" fn past_deadline(state: *mut std::ffi::c_void) -> i32 {
    // SAFETY: `state` is the solver's deadline cell (see `watch_deadline`).
    let deadline = unsafe { &*(state as *const std::cell::Cell<Option<Instant>>) };
    i32::from(deadline.get().is_some_and(|d| Instant::now() >= d))
}

/// A solver instance deleted on drop (fresh mode).
struct Instance(*mut bz::Bitwuzla);

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: created by `bitwuzla_new` and deleted exactly once here.
        unsafe { bz::bitwuzla_delete(self.0) }
    }
}

/// Translation request: the Boolean, bit-vector or floating-point form of
/// a node (the last for the operands of floating-point nodes).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Bool,
    Bv,
    Fp,
}

impl BitwuzlaSolver {
    /// A solver in [`BitwuzlaMode::PushPop`] mode without time limit.
    pub fn new() -> Result<Self, SolverError> {
        Self::with_mode(BitwuzlaMode::PushPop)
    }

    /// A solver in the given mode without time limit.
    pub fn with_mode(mode: BitwuzlaMode) -> Result<Self, SolverError> {
        // SAFETY: plain constructors without preconditions.
        let tm = unsafe { bz::bitwuzla_term_manager_new() };
        if tm.is_null() {
            return Err(SolverError::Backend("cannot create term manager".into()));
        }
        let mut s = BitwuzlaSolver {
            tm,
            options: std::ptr::null_mut(),
            persistent: std::ptr::null_mut(),
            mode,
            stack: Vec::new(),
            instance_queries: 0,
            recycle_queries: RECYCLE_QUERIES,
            timeout: None,
            deadline: Box::new(std::cell::Cell::new(None)),
            pool_uid: 0,
            bv: FxHashMap::default(),
            boolean: FxHashMap::default(),
            fp: FxHashMap::default(),
            fp_defs: Vec::new(),
            fp_defs_asserted: 0,
            sorts: FxHashMap::default(),
            array_sort: 0,
            stats: SolverStats::default(),
        };
        s.configure()?;
        Ok(s)
    }

    /// The query mode.
    pub fn mode(&self) -> BitwuzlaMode {
        self.mode
    }

    /// Recreate the persistent instance after `n` queries (incremental and
    /// push/pop modes; default [`RECYCLE_QUERIES`], minimum 1).
    pub fn set_recycle_queries(&mut self, n: u32) {
        self.recycle_queries = n.max(1);
    }

    /// Number of memoised translations (Boolean, bit-vector, floating-point).
    pub fn memo_len(&self) -> usize {
        self.bv.len() + self.boolean.len() + self.fp.len()
    }

    /// (Re)creates the options and, unless in fresh mode, the instance.
    fn configure(&mut self) -> Result<(), SolverError> {
        self.drop_instance();
        self.instance_queries = 0;
        // SAFETY: `self.options` is null or owned by us; it is deleted once
        // and replaced by a fresh, owned options object.
        unsafe {
            if !self.options.is_null() {
                bz::bitwuzla_options_delete(self.options);
            }
            self.options = bz::bitwuzla_options_new();
            if self.options.is_null() {
                return Err(SolverError::Backend("cannot create options".into()));
            }
            bz::bitwuzla_set_option(self.options, bz::BITWUZLA_OPT_PRODUCE_MODELS, 1);
            // Skeleton preprocessing builds a new CaDiCaL instance on every
            // check, sized by the largest term id of the long-lived term
            // manager: its cost grows with the manager's age (module docs).
            bz::bitwuzla_set_option(self.options, bz::BITWUZLA_OPT_PP_SKELETON_PREPROC, 0);
            // No preprocessing at all: the engine's queries are many and small
            // over a long-lived assertion stack, and Bitwuzla's passes (variable
            // substitution, normalization) re-ran over it on every check — most
            // of a query's time went to building and dropping nodes, not to the
            // SAT solver. Without them each query is cheaper, on whole programs
            // and on solver-bound harnesses alike.
            bz::bitwuzla_set_option(self.options, bz::BITWUZLA_OPT_PREPROCESS, 0);
            if let Some(t) = self.timeout {
                let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1);
                bz::bitwuzla_set_option(self.options, bz::BITWUZLA_OPT_TIME_LIMIT_PER, ms);
            }
            if self.mode != BitwuzlaMode::Fresh {
                self.persistent = bz::bitwuzla_new(self.tm, self.options);
                if self.persistent.is_null() {
                    return Err(SolverError::Backend("cannot create solver".into()));
                }
                self.watch_deadline(self.persistent);
            }
        }
        Ok(())
    }

    /// Makes `bzla` give up once the deadline has passed.
    fn watch_deadline(&self, bzla: *mut bz::Bitwuzla) {
        let state: *const std::cell::Cell<Option<Instant>> = &*self.deadline;
        // SAFETY: `bzla` is a live instance owned by this solver; `state`
        // points into a box owned by this solver that outlives the instance
        // (instances are deleted before the solver is dropped) and is only
        // read, on this thread, during this solver's calls.
        unsafe {
            bz::bitwuzla_set_termination_callback(
                bzla,
                Some(past_deadline),
                state as *mut std::ffi::c_void,
            )
        };
    }

    fn drop_instance(&mut self) {
        if !self.persistent.is_null() {
            // SAFETY: owned instance, deleted once, pointer cleared.
            unsafe { bz::bitwuzla_delete(self.persistent) };
            self.persistent = std::ptr::null_mut();
            self.stack.clear();
        }
        self.fp_defs_asserted = 0;
    }

    /// Drops all terms (new term manager) and the persistent instance.
    fn reset_terms(&mut self) -> Result<(), SolverError> {
        self.drop_instance();
        // SAFETY: no instance refers to the old manager any more (deleted
        // above; fresh instances never outlive a query); deleting it
        // invalidates all memoised handles, which are cleared right after.
        unsafe {
            bz::bitwuzla_term_manager_delete(self.tm);
            self.tm = bz::bitwuzla_term_manager_new();
        }
        self.bv.clear();
        self.boolean.clear();
        self.fp.clear();
        self.fp_defs.clear();
        self.sorts.clear();
        self.array_sort = 0;
        if self.tm.is_null() {
            return Err(SolverError::Backend("cannot create term manager".into()));
        }
        self.configure()
    }

    // ----- models -----

    /// The bytes `0..size` of array `a` in the current model.
    fn model_bytes(
        &mut self,
        bzla: *mut bz::Bitwuzla,
        pool: &ExprPool,
        a: ArrayId,
    ) -> Result<Vec<u8>, SolverError> {
        let size = pool.array_info(a).size as usize;
        let Some(&arr) = self.bv.get(&pool.array(a)) else {
            // The array does not occur in the query: any contents will do.
            return Ok(vec![0; size]);
        };
        if let Some(bytes) = self.array_value(bzla, arr, size)? {
            return Ok(bytes);
        }
        // Fallback: read byte by byte.
        let mut out = Vec::with_capacity(size);
        for i in 0..size {
            let idx = Owned(self.bv_u64(32, i as u64));
            let sel = Owned(self.mk2(bz::BITWUZLA_KIND_ARRAY_SELECT, arr, idx.0));
            // SAFETY: the last check on `bzla` was Sat with models enabled.
            let val = Owned(unsafe { bz::bitwuzla_get_value(bzla, sel.0) });
            out.push(value_u64(val.0)? as u8);
        }
        Ok(out)
    }

    /// Parses the model value of array term `arr` (a chain of stores over
    /// a constant array); `None` if it has another shape.
    fn array_value(
        &mut self,
        bzla: *mut bz::Bitwuzla,
        arr: Term,
        size: usize,
    ) -> Result<Option<Vec<u8>>, SolverError> {
        // SAFETY: the last check on `bzla` was Sat with models enabled.
        let mut owned = vec![Owned(unsafe { bz::bitwuzla_get_value(bzla, arr) })];
        let mut set: Vec<Option<u8>> = vec![None; size];
        let mut cur = owned[0].0;
        let default = loop {
            // SAFETY: `cur` is a live term owned by `owned`.
            let kind = unsafe { bz::bitwuzla_term_get_kind(cur) };
            let kids = children(cur);
            let n = kids.len();
            owned.extend(kids.iter().map(|&k| Owned(k)));
            match (kind, n) {
                (bz::BITWUZLA_KIND_ARRAY_STORE, 3) => {
                    let (i, v) = (value_u64(kids[1])?, value_u64(kids[2])?);
                    if let Some(slot) = usize::try_from(i).ok().and_then(|i| set.get_mut(i)) {
                        slot.get_or_insert(v as u8);
                    }
                    cur = kids[0];
                }
                (bz::BITWUZLA_KIND_CONST_ARRAY, 1) => break value_u64(kids[0])? as u8,
                _ => return Ok(None),
            }
        };
        Ok(Some(
            set.into_iter().map(|b| b.unwrap_or(default)).collect(),
        ))
    }

    /// Runs the query on the translated assertion terms.
    fn solve(
        &mut self,
        pool: &ExprPool,
        terms: &mut [Term],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        let fresh;
        let bzla = if self.mode != BitwuzlaMode::Fresh {
            self.instance_queries += 1;
            self.persistent
        } else {
            // SAFETY: live manager and options; deleted by the guard.
            fresh = Instance(unsafe { bz::bitwuzla_new(self.tm, self.options) });
            if fresh.0.is_null() {
                return Err(SolverError::Backend("cannot create solver".into()));
            }
            self.watch_deadline(fresh.0);
            fresh.0
        };
        // SAFETY: `bzla` is live; terms are live Boolean terms of its
        // manager (the memo owns them until the manager is reset, which
        // deletes the instance and clears the push stack first); the
        // assumption array is valid for `len` elements.
        let res = unsafe {
            // The definitions of floating-point result bits hold in every
            // model (each constrains its own fresh constant only), so they
            // are asserted once per instance, below every push level.
            if self.mode == BitwuzlaMode::Fresh {
                for &d in &self.fp_defs {
                    bz::bitwuzla_assert(bzla, d);
                }
            } else if self.fp_defs_asserted < self.fp_defs.len() {
                if !self.stack.is_empty() {
                    bz::bitwuzla_pop(bzla, self.stack.len() as u64);
                    self.stack.clear();
                }
                for &d in &self.fp_defs[self.fp_defs_asserted..] {
                    bz::bitwuzla_assert(bzla, d);
                }
                self.fp_defs_asserted = self.fp_defs.len();
            }
            if self.mode == BitwuzlaMode::PushPop {
                let (last, prefix) = terms.split_last_mut().expect("at least one term");
                // Keep the pushed levels this query agrees with, in order.
                let keep = self
                    .stack
                    .iter()
                    .zip(prefix.iter())
                    .take_while(|(a, b)| a == b)
                    .count();
                let drop = self.stack.len() - keep;
                if drop > 0 {
                    bz::bitwuzla_pop(bzla, drop as u64);
                    self.stack.truncate(keep);
                }
                for &t in &prefix[keep..] {
                    bz::bitwuzla_push(bzla, 1);
                    bz::bitwuzla_assert(bzla, t);
                    self.stack.push(t);
                }
                bz::bitwuzla_check_sat_assuming(bzla, 1, last as *mut Term)
            } else if self.mode == BitwuzlaMode::Incremental {
                bz::bitwuzla_check_sat_assuming(bzla, terms.len() as u32, terms.as_mut_ptr())
            } else {
                for &t in terms.iter() {
                    bz::bitwuzla_assert(bzla, t);
                }
                bz::bitwuzla_check_sat(bzla)
            }
        };
        Ok(match res {
            bz::BITWUZLA_SAT => {
                let mut model = Assignment::new();
                for &a in arrays {
                    let bytes = self.model_bytes(bzla, pool, a)?;
                    model.set(a, bytes);
                }
                SatResult::Sat(model)
            }
            bz::BITWUZLA_UNSAT => SatResult::Unsat,
            _ if self.deadline.get().is_some_and(|d| Instant::now() >= d) => {
                SatResult::Unknown("its deadline passed".into())
            }
            _ if self.timeout.is_some() => SatResult::Unknown("timeout".into()),
            _ => SatResult::Unknown("unknown".into()),
        })
    }

    fn check_inner(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        let mut arrays = arrays.to_vec();
        arrays.sort_unstable();
        arrays.dedup();
        if let Some(a) = arrays.iter().find(|a| a.index() >= pool.arrays().len()) {
            return Err(SolverError::UnknownArray(a.index()));
        }
        if pool.uid() != self.pool_uid || self.memo_len() > MEMO_LIMIT {
            self.reset_terms()?;
            self.pool_uid = pool.uid();
        }
        let incremental = self.mode != BitwuzlaMode::Fresh;
        if self.options.is_null()
            || (incremental && self.persistent.is_null())
            || self.instance_queries >= self.recycle_queries
        {
            self.configure()?;
        }
        let mut terms = Vec::with_capacity(assertions.len());
        for &e in assertions {
            if e.index() >= pool.len() {
                return Err(malformed(e, "not in this pool"));
            }
            let width = pool.width(e);
            if width != 1 {
                return Err(SolverError::NotBoolean { id: e, width });
            }
            match pool.as_const(e) {
                Some(b) if b.is_true() => continue,
                Some(_) => return Ok(SatResult::Unsat),
                None => terms.push(self.translate(pool, e, Want::Bool)?),
            }
        }
        // Deduplicate without reordering: the assertion order must not depend on
        // term addresses, or models (and so tests) would vary between runs.
        let mut seen = rustc_hash::FxHashSet::default();
        terms.retain(|t| seen.insert(*t));
        if terms.is_empty() {
            let mut model = Assignment::new();
            for &a in &arrays {
                model.set(a, vec![0; pool.array_info(a).size as usize]);
            }
            return Ok(SatResult::Sat(model));
        }
        self.solve(pool, &mut terms, &arrays)
    }
}

impl Solver for BitwuzlaSolver {
    fn check(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let res = self.check_inner(pool, assertions, arrays)?;
        self.stats.record(&res, start.elapsed());
        Ok(res)
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        if self.timeout != timeout {
            self.timeout = timeout;
            // On failure the options stay null and the next query retries
            // (and reports the error).
            let _ = self.configure();
        }
    }

    fn stats(&self) -> SolverStats {
        self.stats.clone()
    }

    fn layer_stats(&self) -> Vec<crate::LayerStats> {
        vec![crate::LayerStats {
            name: "bitwuzla",
            queries: self.stats.queries,
            answered: self.stats.sat + self.stats.unsat,
            time: self.stats.time,
        }]
    }
}

impl Drop for BitwuzlaSolver {
    fn drop(&mut self) {
        self.drop_instance();
        // SAFETY: owned objects, each deleted exactly once; no instance
        // refers to the manager any more.
        unsafe {
            if !self.options.is_null() {
                bz::bitwuzla_options_delete(self.options);
            }
            bz::bitwuzla_term_manager_delete(self.tm);
        }
    }
}

/// The children of `t`, each an owned reference the caller must release.
fn children(t: Term) -> Vec<Term> {
    let mut n: usize = 0;
    // SAFETY: `t` is live; the returned buffer (thread-local in Bitwuzla)
    // holds `n` terms and is copied out before any other API call.
    unsafe {
        let p = bz::bitwuzla_term_get_children(t, &mut n);
        if p.is_null() || n == 0 {
            return Vec::new();
        }
        std::slice::from_raw_parts(p, n).to_vec()
    }
}

/// The value of bit-vector value term `t` (at most 64 bits).
fn value_u64(t: Term) -> Result<u64, SolverError> {
    // SAFETY: `t` is live; the string buffer is copied before the next call.
    let s = unsafe {
        if !bz::bitwuzla_term_is_bv_value(t) {
            return Err(SolverError::Backend(
                "model value is not a bit-vector value".into(),
            ));
        }
        let p = bz::bitwuzla_term_value_get_str_fmt(t, 16);
        if p.is_null() {
            return Err(SolverError::Backend("model value has no string".into()));
        }
        CStr::from_ptr(p).to_string_lossy().into_owned()
    };
    u64::from_str_radix(&s, 16)
        .map_err(|e| SolverError::Backend(format!("bad model value {s:?}: {e}")))
}
