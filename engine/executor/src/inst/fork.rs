//! Forking: branches whose condition the path condition does not decide, and
//! implicit error branches at dangerous operations (§3.1).

use crate::executor::Executor;
use crate::query::SolverFailure;
use crate::state::State;
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use crate::why::{Cut, Decision};
use symtest_expr::{Assignment, ExprId};
use symtest_ir::FuncId;

/// Why a branch follows the path's model instead of forking.
enum Follow {
    /// The solver gave up on one side.
    GaveUp(SolverFailure),
    /// The condition is too deep in the inputs (`Config::digest_depth`).
    Digest,
    /// A condition as deep reached its time limit at the same place before.
    SlowSite,
    /// Library code under a program call site that used up its forks
    /// (`Config::library_forks`).
    Library,
}

impl Follow {
    /// The stop for a path that cannot follow a model.
    fn into_stop(self) -> Stop {
        match self {
            Follow::GaveUp(g) => g.into(),
            Follow::Digest | Follow::SlowSite | Follow::Library => Stop::error(
                ErrorKind::Solver,
                "no model of the path condition to follow",
            ),
        }
    }

    /// The heuristic cut, for why code stays uncovered.
    fn cut(&self) -> Cut {
        match self {
            Follow::GaveUp(_) => Cut::SolverGaveUp,
            Follow::Digest => Cut::Digest,
            Follow::SlowSite => Cut::SlowSite,
            Follow::Library => Cut::Library,
        }
    }
}

/// Which sides of a condition are feasible.
pub enum Branch {
    /// Only this side; the path condition already implies it.
    Only(bool),
    /// Both: the current state takes `true`, `child` (already constrained) `false`.
    Both(Box<State>),
}

impl Executor<'_> {
    /// A copy of `st` as a new state, split off in the process tree.
    pub(crate) fn fork_state(&mut self, st: &mut State) -> State {
        let mut child = st.clone();
        child.id = self.next_state_id;
        self.next_state_id += 1;
        let (a, b) = self.ptree.split(st.ptree_node, st.id, child.id);
        st.ptree_node = a;
        child.ptree_node = b;
        st.depth += 1;
        child.depth += 1;
        st.forks += 1;
        self.stats.forks += 1;
        self.note_fork(st.id, child.id);
        child
    }

    pub(crate) fn may_fork(&self, st: &State) -> bool {
        let forks_ok = self.config.max_forks.is_none_or(|m| self.stats.forks < m);
        let depth_ok = self.config.max_depth.is_none_or(|m| st.depth < m);
        forks_ok && depth_ok && !st.forking_disabled
    }

    /// Decides a width-1 condition, forking when both sides are feasible.
    pub(crate) fn branch(&mut self, st: &mut State, cond: &Value) -> Exec<Branch> {
        if let Some(b) = self.is_true_const(cond) {
            self.note_branch(st, cond, Decision::Concrete(b));
            return Ok(Branch::Only(b));
        }
        if let (Value::Symbolic(c), Some(limit)) = (cond, self.config.digest_depth) {
            if self.pool.depth(*c) >= limit {
                return self.follow_model(st, cond, Follow::Digest);
            }
        }
        if self.at_slow_site(st, cond) {
            return self.follow_model(st, cond, Follow::SlowSite);
        }
        let site = self.library_site(st);
        if let (Some(site), Some(limit)) = (site, self.config.library_forks) {
            if self.library_site_forks.get(&site).copied().unwrap_or(0) >= limit {
                return self.follow_model(st, cond, Follow::Library);
            }
        }
        let not = Ops::not(&mut self.pool, cond);
        let on_true = match self.witness(st, cond) {
            Ok(w) => w,
            Err(gave_up) => return self.follow_model(st, cond, Follow::GaveUp(gave_up)),
        };
        let on_false = match self.witness(st, &not) {
            Ok(w) => w,
            Err(gave_up) => return self.follow_model(st, cond, Follow::GaveUp(gave_up)),
        };
        match (on_true.is_some(), on_false.is_some()) {
            (true, false) => {
                self.note_branch(st, cond, Decision::Only(true));
                Ok(Branch::Only(true))
            }
            (false, true) => {
                self.note_branch(st, cond, Decision::Only(false));
                Ok(Branch::Only(false))
            }
            (false, false) => Err(Stop::error(
                ErrorKind::Solver,
                "neither side of a branch is feasible (path condition inconsistent)",
            )),
            (true, true) => {
                if !self.may_fork(st) {
                    // Limit reached: follow one side at random, constrained.
                    let side = self.rng.bool();
                    self.note_branch(st, cond, Decision::Followed(Cut::ForkLimit, side));
                    let c = if side { cond.clone() } else { not };
                    self.add_constraint(st, &c);
                    return Ok(Branch::Only(side));
                }
                if let Some(site) = site {
                    *self.library_site_forks.entry(site).or_default() += 1;
                    st.library_site = Some(site);
                }
                self.note_branch(st, cond, Decision::Both);
                let mut child = self.fork_state(st);
                // Each side keeps the model that proved it feasible, so neither
                // asks the solver again until a condition falsifies it.
                st.model = on_true.flatten();
                child.model = on_false.flatten();
                self.add_constraint(st, cond);
                self.add_constraint(&mut child, &not);
                Ok(Branch::Both(Box::new(child)))
            }
        }
    }

    /// `st` covered new code of the program after library code forked it
    /// under a program call site: that site's forks paid off, so a quarter of
    /// its budget is given back (once per such fork). The budget then goes
    /// on to call sites whose forks lead somewhere, as a tokenizer's on its
    /// input, and not to those whose forks only multiply paths through the
    /// same program code, as quoting a file name for an error message.
    pub(crate) fn credit_library_site(&mut self, st: &mut State) {
        let (Some(site), Some(limit)) = (st.library_site.take(), self.config.library_forks) else {
            return;
        };
        if let Some(n) = self.library_site_forks.get_mut(&site) {
            *n = n.saturating_sub((limit / 4).max(1));
        }
    }

    /// The program call site (function, call instruction) `st` is under when
    /// it runs library code (a function of no counted file); `None` in the
    /// program's own code, or with no program frame.
    fn library_site(&self, st: &State) -> Option<(FuncId, u32)> {
        self.config.library_forks?;
        if self.coverage.is_program_function(st.frame().func) {
            return None;
        }
        self.coverage.program_frame(st).map(|f| (f.func, f.cur))
    }

    /// Is `cond` at least as deep as a condition that reached its time
    /// limit at this place before?
    fn at_slow_site(&self, st: &State, cond: &Value) -> bool {
        let Value::Symbolic(c) = cond else {
            return false;
        };
        self.slow_site_depth(st)
            .is_some_and(|d| self.pool.depth(*c) >= d)
    }

    /// Checks a dangerous operation: if `bad` can hold, an error path is forked off
    /// (ending with `kind`); the current state continues where `bad` is false.
    /// If `bad` must hold, the current state ends with the error.
    pub(crate) fn check_error(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        bad: &Value,
        kind: ErrorKind,
        message: &str,
    ) -> Exec<()> {
        match self.branch_for_error(st, bad)? {
            Branch::Only(false) => Ok(()),
            Branch::Only(true) => Err(Stop::error(kind, message)),
            Branch::Both(child) => {
                // `st` took the bad side: swap so the error path is the child.
                let mut err = std::mem::replace(st, *child);
                std::mem::swap(&mut st.ptree_node, &mut err.ptree_node);
                std::mem::swap(&mut st.id, &mut err.id);
                ctx.ended
                    .push((err, Termination::Error(kind, message.to_string())));
                Ok(())
            }
        }
    }

    /// Like [`Executor::branch`] but error paths are forked regardless of
    /// `--max-forks`/`--max-depth`: a feasible bug is always reported.
    fn branch_for_error(&mut self, st: &mut State, bad: &Value) -> Exec<Branch> {
        if let Some(b) = self.is_true_const(bad) {
            return Ok(Branch::Only(b));
        }
        if self.at_slow_site(st, bad) {
            return self.follow_model(st, bad, Follow::SlowSite);
        }
        let not = Ops::not(&mut self.pool, bad);
        let on_bad = match self.witness(st, bad) {
            Ok(Some(w)) => w,
            Ok(None) => return Ok(Branch::Only(false)),
            Err(gave_up) => return self.follow_model(st, bad, Follow::GaveUp(gave_up)),
        };
        let on_good = match self.witness(st, &not) {
            Ok(Some(w)) => w,
            Ok(None) => return Ok(Branch::Only(true)),
            Err(gave_up) => return self.follow_model(st, bad, Follow::GaveUp(gave_up)),
        };
        let mut child = self.fork_state(st);
        st.model = on_bad;
        child.model = on_good;
        self.add_constraint(st, bad);
        self.add_constraint(&mut child, &not);
        Ok(Branch::Both(Box::new(child)))
    }
}

impl Executor<'_> {
    /// The solver gave up deciding `cond` on this path (a timeout): instead of
    /// ending the path, it follows the side its current model takes (a model of
    /// the path condition, so that side is feasible), constrained to it, and the
    /// symbolic inputs `cond` reads are concretized to the model. The other side
    /// is not explored; each such branch is counted
    /// (`solver_degraded` in the statistics) and warned about once. Without a
    /// model (and none to be had) the path ends with the solver's failure.
    fn follow_model(&mut self, st: &mut State, cond: &Value, why: Follow) -> Exec<Branch> {
        let Value::Symbolic(c) = cond else {
            return Err(why.into_stop());
        };
        if let Follow::GaveUp(g) = &why {
            if g.run_deadline {
                // The run is over: the path halts (and is completed from here).
                return Err(why.into_stop());
            }
        }
        let model = match &st.model {
            Some(m) => m.clone(),
            None => match self.model(st) {
                Ok(m) => m,
                Err(_) => return Err(why.into_stop()),
            },
        };
        let side = self.pool.eval(*c, &model).is_true();
        self.note_branch(st, cond, Decision::Followed(why.cut(), side));
        if !matches!(why, Follow::Library) {
            self.fix_inputs_to(st, *c, &model);
        }
        let taken = if side {
            cond.clone()
        } else {
            Ops::not(&mut self.pool, cond)
        };
        self.add_constraint(st, &taken);
        match why {
            Follow::GaveUp(g) => {
                self.solver.degraded += 1;
                self.warn_once(format!(
                    "{}; the path follows its current model there, with the inputs the condition reads fixed to it (the other side is not explored; counted as solver_degraded)",
                    g.message
                ));
            }
            Follow::SlowSite => {
                self.solver.digest_branches += 1;
                self.warn_once(
                    "a branch where the solver gave up before on a condition as deep (a digest or checksum) follows the current input, with the bytes it reads fixed (the other side is not explored; counted as digest_branches)".to_string(),
                );
            }
            Follow::Library => {
                self.stats.library_branches += 1;
                self.warn_once(format!(
                    "library code under one call of the program forked {} times (--library-forks); its further branches there follow the current input (the other sides are not explored; counted as library_branches)",
                    self.config.library_forks.unwrap_or(0)
                ));
            }
            Follow::Digest => {
                self.solver.digest_branches += 1;
                self.warn_once(format!(
                    "a branch on a value at least {} operations deep in the input (a digest or checksum; --digest-depth) follows the current input, with the bytes it reads fixed (the other side is not explored; counted as digest_branches)",
                    self.config.digest_depth.unwrap_or(0)
                ));
            }
        }
        Ok(Branch::Only(side))
    }

    /// Fixes the symbolic inputs `e` reads to `model`'s bytes, so what
    /// follows (typically more of the same digest or checksum) is concrete
    /// instead of one more query the solver gives up on. Only the program's
    /// symbolic inputs: arrays that hold flushed memory (a lookup table read
    /// at a symbolic index) are rewritten whole by their stores.
    /// Where `e` reads each input at constant indexes only, only those bytes
    /// are fixed (the bytes after a checksummed header stay free: a seed's
    /// record is still explored past its header); an input read at a
    /// symbolic index is fixed whole.
    fn fix_inputs_to(&mut self, st: &mut State, e: ExprId, model: &Assignment) {
        let read = self.pool.arrays_in_slice(e).to_vec();
        let bytes_read = self.input_bytes_read(e);
        let mut fixed = Vec::new();
        for input in st.symbolics.iter().filter(|s| read.contains(&s.array)) {
            let bytes = model.bytes(input.array);
            let value = |i: u32| bytes.get(i as usize).copied().unwrap_or(0);
            match bytes_read.as_ref().and_then(|r| r.get(&input.array)) {
                Some(indexes) => {
                    for &i in indexes.iter().filter(|&&i| i < input.size) {
                        fixed.push((input.array, i, value(i)));
                    }
                }
                None => {
                    for i in 0..input.size {
                        fixed.push((input.array, i, value(i)));
                    }
                }
            }
        }
        self.fix_input_bytes(st, &fixed);
    }

    /// The bytes of each input array `e` reads, when it reads each at
    /// constant indexes of the array itself (`None`: some read is at a
    /// symbolic index or through stores).
    fn input_bytes_read(
        &self,
        e: ExprId,
    ) -> Option<rustc_hash::FxHashMap<symtest_expr::ArrayId, Vec<u32>>> {
        use symtest_expr::Node;
        let mut out: rustc_hash::FxHashMap<symtest_expr::ArrayId, Vec<u32>> = Default::default();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            match self.pool.node(x) {
                Node::Select { array, index } => {
                    let (Node::Array(a), Some(i)) =
                        (self.pool.node(*array), self.pool.as_const(*index))
                    else {
                        return None;
                    };
                    out.entry(*a).or_default().push(i.to_u64() as u32);
                }
                Node::Store { .. } => return None,
                n => stack.extend(n.children()),
            }
        }
        Some(out)
    }

    /// The address a pointer at least `Config::digest_depth` deep in the
    /// inputs takes under the path's model (an index computed from a digest
    /// or checksum), fixed in the path condition together with the inputs it
    /// reads, instead of resolving it by queries the solver spends its time
    /// on. `None` for a shallower pointer, or without a model to follow.
    pub(crate) fn digest_address(&mut self, st: &mut State, ptr: ExprId) -> Option<u64> {
        let limit = self.config.digest_depth?;
        if self.pool.depth(ptr) < limit {
            return None;
        }
        let model = match &st.model {
            Some(m) => m.clone(),
            None => self.model(st).ok()?,
        };
        let addr = self.pool.eval(ptr, &model);
        self.fix_inputs_to(st, ptr, &model);
        let eq = self.eq_value(&Value::Symbolic(ptr), &Value::Concrete(addr.clone()));
        self.add_constraint(st, &eq);
        self.solver.digest_branches += 1;
        self.warn_once(format!(
            "a pointer at least {limit} operations deep in the input (an index computed from a digest or checksum; --digest-depth) takes the address the current input gives it, with the bytes it reads fixed (counted as digest_branches)"
        ));
        Some(addr.to_u64())
    }

    /// A concrete value for `v`, fixing it in the path condition (KLEE's
    /// concretization; used where the engine needs a number, e.g. a size).
    pub(crate) fn concretize(
        &mut self,
        st: &mut State,
        v: &Value,
        what: &str,
    ) -> Exec<symtest_expr::Bits> {
        if let Value::Concrete(b) = v {
            return Ok(b.clone());
        }
        let b = self.get_value(st, v)?;
        let eq = self.eq_value(v, &Value::Concrete(b.clone()));
        self.add_constraint(st, &eq);
        self.warn_once(format!("{what} is symbolic; it was concretized to {b}"));
        Ok(b)
    }
}
