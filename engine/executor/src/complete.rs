//! Completion: a state stopped before its end (the run halted, the memory cap
//! dropped it) whose test is written is first run to its end concretely on
//! that test's inputs. The test then records the outcome the program reaches
//! (exit status, error, standard output), which a native replay can check,
//! instead of only the reason the engine stopped the path.
//!
//! The state is made concrete under the test's model (registers, memory,
//! recorded output; the path condition holds under the model and is dropped),
//! so the run needs no solver. Input the program makes on the way (a
//! `klee_make_symbolic` after the point where the path stopped, the POSIX
//! model's files when it stopped during their set-up) is the one thing still
//! symbolic: the run may ask the solver about it (an assumption), and the test
//! gets those objects, with values that satisfy what the run assumed of them
//! (`write_early_test_in`), so that a native run finds every object the
//! program asks for. It is abandoned, and the test keeps its early outcome
//! with the reason, when the path would fork, ask the solver before making new
//! input, reach an engine limit, or not end within
//! `Config::completion_instructions`.

use crate::executor::Executor;
use crate::state::{Output, Slot, State};
use crate::step::StepCtx;
use crate::termination::Termination;
use crate::value::Value;
use std::time::Instant;
use symtest_expr::{Assignment, Evaluator};

/// Why a completion did not reach an end.
pub(crate) enum NotCompleted {
    /// The run was abandoned for this reason.
    Abandoned(String),
    /// The path ran this many instructions concretely without ending.
    NoEnd(u64),
}

impl Executor<'_> {
    /// When completions must stop: 8% of `--max-time` after the budget (the
    /// whole run stays within 110% of it).
    pub(crate) fn completion_deadline(&self) -> Option<Instant> {
        self.config
            .max_time
            .map(|t| self.started + t + t.mul_f64(0.08))
    }

    /// When the halt starts no more tests: 6% of `--max-time` after the
    /// budget (each may still complete until 8%).
    pub(crate) fn halt_tests_deadline(&self) -> Option<Instant> {
        self.config
            .max_time
            .map(|t| self.started + t + t.mul_f64(0.06))
    }

    /// Makes every value of `st` concrete under `model`; false when the
    /// completions' deadline passed first.
    fn concretize_state(&mut self, st: &mut State, model: &Assignment) -> bool {
        // Symbolic pointers resolve by provenance; once concrete, by
        // address: a pointer outside its object keeps it as a stray.
        for (addr, from) in self.strays_under(st, model) {
            self.note_stray(st, addr, from);
        }
        {
            let mut ev = Evaluator::new(&self.pool, model);
            for frame in &mut st.stack {
                if !frame.regs.iter().any(|s| matches!(s, Slot::Sym(_))) {
                    continue;
                }
                std::rc::Rc::make_mut(frame)
                    .regs
                    .rewrite(|slot| match slot {
                        Slot::Sym(e) => Some(Slot::of(Value::Concrete(ev.eval(*e)))),
                        _ => None,
                    });
            }
            let out = st.stdout.bytes(|e| ev.eval(e).to_u64() as u8);
            st.stdout = Output::concrete(out);
            let terminated: Vec<Vec<_>> = st
                .terminated
                .iter()
                .map(|t| t.bytes.iter().map(|&b| ev.eval(b)).collect())
                .collect();
            for (t, bytes) in st.terminated.iter_mut().zip(terminated) {
                t.bytes = bytes.into_iter().map(|b| self.pool.constant(b)).collect();
            }
        }
        // Millions of symbolic bytes take a second: concretizing stops when
        // the halt starts no more tests, leaving time to write this one.
        let deadline = self.halt_tests_deadline();
        for base in st.memory.bases_not_concrete() {
            if let Some(contents) = st.memory.contents_mut(base) {
                if !contents.concretize(&self.pool, model, deadline) {
                    return false;
                }
            }
        }
        st.constraints = Default::default();
        st.equalities = Default::default();
        st.preferences = Default::default();
        true
    }

    /// Runs `st` to its end on the inputs of `model`; the termination it
    /// reaches, or why it was abandoned.
    pub(crate) fn complete(
        &mut self,
        st: &mut State,
        model: &Assignment,
    ) -> Result<Termination, NotCompleted> {
        let limit = self.config.completion_instructions;
        if limit == 0 {
            return Err(NotCompleted::Abandoned("completion is off".into()));
        }
        if self.config.crosscheck.is_some() {
            return Err(NotCompleted::Abandoned(
                "a crosscheck's pair is compared only when explored".into(),
            ));
        }
        let deadline = self.completion_deadline();
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(NotCompleted::Abandoned(
                "no time left after --max-time to run it to its end".into(),
            ));
        }
        if !self.concretize_state(st, model) {
            return Err(NotCompleted::Abandoned(
                "no time left after --max-time to run it to its end".into(),
            ));
        }
        // The instructions of completions are counted apart: `instructions`
        // stays the exploration's (the budget's) figure.
        let explored = self.stats.instructions;
        let r = self.run_to_end(st, limit, deadline);
        self.stats.completion_instructions += self.stats.instructions - explored;
        self.stats.instructions = explored;
        r
    }

    fn run_to_end(
        &mut self,
        st: &mut State,
        limit: u64,
        deadline: Option<Instant>,
    ) -> Result<Termination, NotCompleted> {
        let symbolics = st.symbolics.len();
        let queries = self.solver.queries + self.solver.model_answers;
        let mut ctx = StepCtx::default();
        for n in 1..=limit {
            let step = self.step(st, &mut ctx);
            if !ctx.added.is_empty() || !ctx.ended.is_empty() {
                for s in ctx.added.drain(..) {
                    self.ptree.remove(s.ptree_node);
                }
                for (s, _) in ctx.ended.drain(..) {
                    self.ptree.remove(s.ptree_node);
                }
                return Err(NotCompleted::Abandoned("its concrete run forked".into()));
            }
            // Everything is concrete but the input made since: only that may
            // need the solver.
            if st.symbolics.len() == symbolics
                && self.solver.queries + self.solver.model_answers != queries
            {
                return Err(NotCompleted::Abandoned(
                    "its concrete run needed the solver".into(),
                ));
            }
            if let Err(stop) = step {
                return match stop.into_termination() {
                    t @ Termination::Exit(_) => Ok(t),
                    Termination::Error(kind, msg) if kind.is_bug() => {
                        Ok(Termination::Error(kind, msg))
                    }
                    Termination::Error(kind, msg) => Err(NotCompleted::Abandoned(format!(
                        "its end is beyond the engine ({}: {msg})",
                        kind.as_str()
                    ))),
                    Termination::Silent => Err(NotCompleted::Abandoned("it ended silently".into())),
                    Termination::Early(why) => Err(NotCompleted::Abandoned(why)),
                    // Natively the program waits there for ever.
                    Termination::Blocked(_) => Err(NotCompleted::NoEnd(n)),
                };
            }
            if n % 64 == 0 && self.completion_above_cap() {
                return Err(NotCompleted::Abandoned(
                    "its concrete run went past the memory cap (--max-memory)".into(),
                ));
            }
            if n % 4096 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(NotCompleted::Abandoned(
                    "no time left after --max-time to run it to its end".into(),
                ));
            }
        }
        Err(NotCompleted::NoEnd(limit))
    }
}
