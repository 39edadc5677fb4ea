//! Questions the executor asks about a state's path condition.
//!
//! A state keeps a satisfying assignment of its path condition when one is known;
//! a condition that holds under it is feasible without asking the solver, and
//! `get_value` reads values off it. Everything else goes to the solver chain.

use crate::executor::Executor;
use crate::state::State;
use crate::value::Value;
use std::rc::Rc;
use std::time::{Duration, Instant};
use symtest_expr::{ArrayId, Assignment, Bits, ExprId};
use symtest_solver::{Known, SatResult, Solver};

/// The solver failed to answer (timeout, unknown, backend error): ends the
/// state, or halts it when the run's own time is up.
#[derive(Debug, Clone)]
pub struct SolverFailure {
    pub message: String,
    /// The query stopped because the run's time was up, not because it was
    /// hard: the path then halts with the run instead of ending in an error.
    pub run_deadline: bool,
}

impl SolverFailure {
    fn new(message: impl Into<String>) -> SolverFailure {
        SolverFailure {
            message: message.into(),
            run_deadline: false,
        }
    }

    fn run_deadline() -> SolverFailure {
        SolverFailure {
            message: "solver gave up: the run's time limit (--max-time) was reached".into(),
            run_deadline: true,
        }
    }
}

pub struct SolverHandle {
    inner: Box<dyn Solver>,
    /// Queries posed to the solver chain.
    pub queries: u64,
    pub time: Duration,
    /// Feasibility questions answered by a state's own model (no query).
    pub model_answers: u64,
    /// Time spent evaluating conditions under states' models.
    pub model_time: Duration,
    /// Branches where the solver gave up and the path followed its model.
    pub degraded: u64,
    /// Branches on a digest or checksum that followed the path's model
    /// (`Config::digest_depth`).
    pub digest_branches: u64,
    /// No query runs past this point (`--max-time`).
    deadline: Option<Instant>,
    /// Time limit of one query before any give-up (see [`query_limit`]).
    base_limit: Option<Duration>,
    /// Give-ups (time limit reached) per place in the program where the
    /// question was asked: later questions there get less time.
    slow_sites: rustc_hash::FxHashMap<(symtest_ir::FuncId, u32), u32>,
    /// Per place where a query reached its time limit: the least depth
    /// ([`symtest_expr::ExprPool::depth`]) of the conditions that did, when
    /// at least [`SLOW_SITE_MIN_DEPTH`]. A later branch there on a condition
    /// at least as deep follows the path's input without asking (see
    /// `Executor::slow_site_depth`).
    slow_depths: rustc_hash::FxHashMap<(symtest_ir::FuncId, u32), u32>,
    /// Queries that reached their time limit.
    pub timeouts: u64,
    /// (queries, time) by how long a query took: below 1 ms, 10 ms, 100 ms,
    /// 1 s, and longer.
    pub by_duration: [(u64, Duration); 5],
}

/// A condition that reached its time limit marks its place as slow for
/// conditions as deep only from this depth on (three lookups at symbolic
/// indices): below it the time went to the path condition, not to the
/// condition, and the next path there may well be quick.
pub const SLOW_SITE_MIN_DEPTH: u32 = 24;

/// Names of [`SolverHandle::by_duration`]'s classes.
pub const DURATION_CLASSES: [&str; 5] = ["<1ms", "1-10ms", "10-100ms", "100ms-1s", ">=1s"];

/// The time one query may take at a place where `give_ups` earlier queries
/// reached their limit: the base limit, divided by 4 for each (at least
/// 50 ms). A digest or checksum of symbolic data is asked about at the same
/// few places (the digit loop of `printf`, the comparison of a checksum),
/// and after the first give-up the path goes on concretely anyway, so each
/// new path that gets there should not pay the whole limit again.
pub fn query_limit(base: Duration, give_ups: u32) -> Duration {
    let div = 4u32.saturating_pow(give_ups.min(8));
    (base / div).max(Duration::from_millis(50).min(base))
}

impl SolverHandle {
    pub fn new(inner: Box<dyn Solver>) -> SolverHandle {
        SolverHandle {
            inner,
            queries: 0,
            time: Duration::ZERO,
            model_answers: 0,
            model_time: Duration::ZERO,
            degraded: 0,
            digest_branches: 0,
            deadline: None,
            base_limit: None,
            slow_sites: rustc_hash::FxHashMap::default(),
            slow_depths: rustc_hash::FxHashMap::default(),
            timeouts: 0,
            by_duration: [(0, Duration::ZERO); 5],
        }
    }

    /// The time limit of one query (`--max-solver-time`), enforced with
    /// the deadline each query gets (the backend's own limit stays off, so
    /// changing the limit from query to query costs nothing).
    pub fn set_timeout(&mut self, t: Option<Duration>) {
        self.base_limit = t;
        self.inner.set_timeout(None);
    }

    /// Queries give up at `d` (also in the middle of solving).
    pub fn set_deadline(&mut self, d: Option<Instant>) {
        self.deadline = d;
        self.inner.set_deadline(d);
    }

    pub fn backend_queries(&self) -> u64 {
        self.inner.stats().queries
    }

    /// The chain's layers, outermost first, preceded by the executor's state-model
    /// check when it is on (`reuse`): every question enters it.
    pub fn layer_stats(&self, reuse: bool) -> Vec<crate::stats::LayerStat> {
        let model = reuse.then(|| crate::stats::LayerStat {
            name: "state-model".to_string(),
            queries: self.queries + self.model_answers,
            answered: self.model_answers,
            time_s: self.model_time.as_secs_f64(),
        });
        model
            .into_iter()
            .chain(
                self.inner
                    .layer_stats()
                    .into_iter()
                    .map(|l| crate::stats::LayerStat {
                        name: l.name.to_string(),
                        queries: l.queries,
                        answered: l.answered,
                        time_s: l.time.as_secs_f64(),
                    }),
            )
            .collect()
    }
}

impl Executor<'_> {
    fn arrays_of(&self, exprs: &[ExprId]) -> Vec<ArrayId> {
        let mut v: Vec<ArrayId> = Vec::new();
        for e in exprs {
            v.extend_from_slice(self.pool.arrays_in_slice(*e));
        }
        v.sort();
        v.dedup();
        v
    }

    /// Solves `st.constraints ∧ extra`; Some(model) if satisfiable.
    pub(crate) fn solve(
        &mut self,
        st: &mut State,
        extra: &[ExprId],
    ) -> Result<Option<Assignment>, SolverFailure> {
        if self.solver.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(SolverFailure::run_deadline());
        }
        let mut assertions = st.constraints.to_vec();
        assertions.extend_from_slice(extra);
        let arrays = self.arrays_of(&assertions);
        self.solver.queries += 1;
        let t = Instant::now();
        // This query's deadline: its time limit (shorter where earlier
        // queries of the same place gave up), never past the run's.
        let site = st.stack.last().map(|f| (f.func, f.cur));
        let limit = self.solver.base_limit.map(|base| {
            let give_ups = site.and_then(|s| self.solver.slow_sites.get(&s).copied());
            query_limit(base, give_ups.unwrap_or(0))
        });
        let own = limit.map(|l| t + l);
        let deadline = match (own, self.solver.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.solver.inner.set_deadline(deadline);
        // The state's model satisfies its path condition (kept true by
        // `add_constraint`): the solver need not re-solve the parts of it
        // the new conditions do not touch.
        let r = match (&st.model, self.config.reuse_state_model) {
            (Some(m), true) => {
                let known = Known {
                    model: m,
                    prefix: st.constraints.len(),
                };
                self.solver
                    .inner
                    .check_known(&self.pool, &assertions, &arrays, known)
            }
            _ => self.solver.inner.check(&self.pool, &assertions, &arrays),
        };
        let dt = t.elapsed();
        self.solver.time += dt;
        let class = match dt.as_micros() {
            0..1_000 => 0,
            1_000..10_000 => 1,
            10_000..100_000 => 2,
            100_000..1_000_000 => 3,
            _ => 4,
        };
        self.solver.by_duration[class].0 += 1;
        self.solver.by_duration[class].1 += dt;
        st.query_cost_us += dt.as_micros() as u64;
        match r {
            Ok(SatResult::Sat(mut m)) => {
                // States keep models: no spare capacity.
                m.shrink_to_fit();
                Ok(Some(m))
            }
            Ok(SatResult::Unsat) => Ok(None),
            Ok(SatResult::Unknown(why)) => {
                let now = Instant::now();
                if self.solver.deadline.is_some_and(|d| now >= d) {
                    return Err(SolverFailure::run_deadline());
                }
                if let (Some(own), Some(limit)) = (own, limit) {
                    if now >= own {
                        self.solver.timeouts += 1;
                        if let Some(s) = site {
                            *self.solver.slow_sites.entry(s).or_default() += 1;
                            let depth = extra.iter().map(|e| self.pool.depth(*e)).max();
                            if let Some(d) = depth.filter(|&d| d >= SLOW_SITE_MIN_DEPTH) {
                                let min = self.solver.slow_depths.entry(s).or_insert(d);
                                *min = (*min).min(d);
                            }
                        }
                        return Err(SolverFailure::new(format!(
                            "solver gave up: timeout ({:.2} s for this query)",
                            limit.as_secs_f64()
                        )));
                    }
                }
                Err(SolverFailure::new(format!("solver gave up: {why}")))
            }
            Err(e) => Err(SolverFailure::new(format!("solver error: {e}"))),
        }
    }

    /// The depth from which a condition asked at `st`'s current place
    /// follows the path's input without a query: a condition that deep
    /// reached its time limit here before (a digest or checksum printed,
    /// compared or looped over in the same place on every path).
    pub(crate) fn slow_site_depth(&self, st: &State) -> Option<u32> {
        let f = st.stack.last()?;
        self.solver.slow_depths.get(&(f.func, f.cur)).copied()
    }

    /// Can `cond` (width 1) be true on this path?
    pub(crate) fn may_be_true(
        &mut self,
        st: &mut State,
        cond: &Value,
    ) -> Result<bool, SolverFailure> {
        Ok(self.witness(st, cond)?.is_some())
    }

    /// A model of `pc ∧ cond` if there is one: the state's own model when it
    /// satisfies `cond` (no query), else the solver's. `None` for a concrete
    /// `true` (no model needed) is expressed as `Some(None)`.
    pub(crate) fn witness(
        &mut self,
        st: &mut State,
        cond: &Value,
    ) -> Result<Option<Option<Rc<Assignment>>>, SolverFailure> {
        let c = match cond {
            Value::Concrete(b) => return Ok(b.is_true().then_some(None)),
            Value::Symbolic(e) => *e,
        };
        if let (true, Some(m)) = (self.config.reuse_state_model, &st.model) {
            let t = Instant::now();
            let holds = self.pool.eval(c, m).is_true();
            self.solver.model_time += t.elapsed();
            if holds {
                self.solver.model_answers += 1;
                return Ok(Some(Some(m.clone())));
            }
        }
        match self.solve(st, &[c])? {
            Some(m) => {
                let m = Rc::new(m);
                // A model of pc ∧ c is a model of pc: keep it if the state has none.
                if st.model.is_none() {
                    st.model = Some(m.clone());
                }
                Ok(Some(Some(m)))
            }
            None => Ok(None),
        }
    }

    /// Must `cond` be true on this path?
    pub(crate) fn must_be_true(
        &mut self,
        st: &mut State,
        cond: &Value,
    ) -> Result<bool, SolverFailure> {
        let neg = crate::value::Ops::not(&mut self.pool, cond);
        Ok(!self.may_be_true(st, &neg)?)
    }

    /// A value `e` can take on this path (from the state's model).
    pub(crate) fn get_value(&mut self, st: &mut State, v: &Value) -> Result<Bits, SolverFailure> {
        let e = match v {
            Value::Concrete(b) => return Ok(b.clone()),
            Value::Symbolic(e) => *e,
        };
        let m = self.model(st)?;
        Ok(self.pool.eval(e, &m))
    }

    /// A satisfying assignment of the path condition (cached in the state).
    pub(crate) fn model(&mut self, st: &mut State) -> Result<Rc<Assignment>, SolverFailure> {
        if let Some(m) = &st.model {
            return Ok(m.clone());
        }
        match self.solve(st, &[])? {
            Some(m) => {
                let m = Rc::new(m);
                st.model = Some(m.clone());
                Ok(m)
            }
            None => Err(SolverFailure::new(
                "path condition became unsatisfiable (engine invariant broken)",
            )),
        }
    }
}
