//! Writing tests (§3.4 of the paper): a terminated path's test with its
//! outcome, the test of a path stopped early that covered code no test has,
//! and which instructions a written test covers.

use crate::complete::NotCompleted;
use crate::executor::Executor;
use crate::state::{CoverNode, State};
use crate::termination::{ErrorKind, ErrorReport, Termination, TestOutcome};
use crate::{Event, TestCase};
use symtest_expr::Assignment;
use symtest_ktest::{KTest, KTestObject};

/// What [`Executor::has_untested_cover_memo`] learned of the cover lists'
/// nodes (by address; valid while no state is dropped and no test written).
#[derive(Default)]
pub(crate) struct CoverMemo {
    clean: rustc_hash::FxHashSet<usize>,
    dirty: rustc_hash::FxHashSet<usize>,
}

impl Executor<'_> {
    pub(crate) fn has_untested_cover(&self, st: &State) -> bool {
        let mut cur = st.pending_cover.as_deref();
        while let Some(n) = cur {
            if !self.coverage.is_tested(n.inst) {
                return true;
            }
            cur = n.next.as_deref();
        }
        false
    }

    /// [`Self::has_untested_cover`] over many states at once, while no test
    /// is written: states share the tails of their lists, so a node seen
    /// before answers for its tail (`clean`: it and every node after it are
    /// tested; `dirty`: it or a node after it is not).
    pub(crate) fn has_untested_cover_memo(&self, st: &State, memo: &mut CoverMemo) -> bool {
        let mut walked: Vec<usize> = Vec::new();
        let mut cur = st.pending_cover.as_deref();
        let untested = loop {
            let Some(n) = cur else { break false };
            let key = n as *const CoverNode as usize;
            if memo.clean.contains(&key) {
                break false;
            }
            if memo.dirty.contains(&key) || !self.coverage.is_tested(n.inst) {
                break true;
            }
            walked.push(key);
            cur = n.next.as_deref();
        };
        if untested {
            memo.dirty.extend(walked);
        } else {
            memo.clean.extend(walked);
        }
        untested
    }

    /// A halted state with nothing untested in what it covered: it ends with
    /// no test (as [`Self::terminate`] ends it).
    pub(crate) fn drop_halted(&mut self, st: State) {
        self.cap.forget(st.id);
        self.why.fixed.remove(&st.id);
        self.stats.paths_early += 1;
        self.ptree.remove(st.ptree_node);
    }

    fn mark_tested(&mut self, st: &State) {
        let mut cur = st.pending_cover.clone();
        while let Some(n) = cur {
            self.coverage.mark_tested(n.inst);
            cur = n.next.clone();
        }
    }

    /// Records a path's end and writes its test when it should have one.
    pub(crate) fn terminate(&mut self, mut st: State, t: Termination) {
        self.cap.forget(st.id);
        self.why.fixed.remove(&st.id);
        if let Termination::Early(reason) = t {
            self.stats.paths_early += 1;
            if self.has_untested_cover(&st) {
                self.write_early_test(st, reason);
            } else {
                self.ptree.remove(st.ptree_node);
            }
            return;
        }
        // Every other end completes the path.
        self.ptree.remove(st.ptree_node);
        self.stats.paths_completed += 1;
        if !matches!(t, Termination::Silent) {
            self.note_seeds_ended(&st);
        }
        let covered_new = self.has_untested_cover(&st);
        let wanted = self.config.emit_all || covered_new;
        let outcome = match t {
            Termination::Early(_) | Termination::Silent => return,
            Termination::Blocked(_) | Termination::Exit(_) if !wanted => return,
            // A native run waits there too: its replay expects the timeout.
            Termination::Blocked(why) => TestOutcome::Early {
                reason: format!("blocked: {why}"),
                no_end_within: Some(0),
            },
            Termination::Exit(code) => TestOutcome::Exit { code: code & 0xff },
            Termination::Error(kind, message) => {
                if kind == ErrorKind::Solver {
                    self.stats.solver_failures += 1;
                }
                if !kind.is_bug() {
                    *self
                        .stats
                        .paths_ended_by_engine_limit
                        .entry(kind.as_str().to_string())
                        .or_default() += 1;
                }
                let (outcome, new) = self.error_outcome(&mut st, kind, message);
                if !new {
                    return;
                }
                outcome
            }
        };
        let Some((ktest, model)) = self.solve_test(&mut st) else {
            self.stats.tests_unsolved += 1;
            self.warn_once("could not solve a path condition for its test; test skipped".into());
            return;
        };
        let stdout = self.stdout_of(&st, &model);
        self.emit_test(&st, ktest, outcome, covered_new, stdout, None);
    }

    /// A stopped path that covered untested code: its test, with the outcome
    /// its concrete run to the end reaches when that run succeeds.
    fn write_early_test(&mut self, st: State, reason: String) {
        self.write_early_test_in(st, reason, true);
    }

    /// The test of a state about to be merged at a loop head (a copy of one
    /// that goes on, so it stays in the process tree).
    pub(crate) fn witness_test(&mut self, st: State) {
        self.write_early_test_in(st, "merged at a loop head".into(), false);
    }

    fn write_early_test_in(&mut self, mut st: State, reason: String, in_tree: bool) {
        let Some((mut ktest, mut model)) = self.solve_test(&mut st) else {
            if in_tree {
                self.ptree.remove(st.ptree_node);
            }
            self.stats.tests_unsolved += 1;
            self.warn_once("could not solve a path condition for its test; test skipped".into());
            return;
        };
        let made = st.symbolics.len();
        let mut completed = self.complete(&mut st, &model);
        // The input the run to the end made (the only symbolic values left):
        // its objects join the test, with values that satisfy what the run
        // assumed of them, so a native run finds every object it asks for.
        if st.symbolics.len() > made {
            match self.solve_test(&mut st) {
                Some((more, m)) => {
                    ktest.objects.extend(more.objects.into_iter().skip(made));
                    model = m;
                }
                None => {
                    completed = Err(NotCompleted::Abandoned(
                        "the input it made could not be solved".into(),
                    ))
                }
            }
        }
        let (outcome, completed_after) = match completed {
            Ok(Termination::Exit(code)) => {
                self.stats.paths_run_to_end += 1;
                (TestOutcome::Exit { code: code & 0xff }, Some(reason))
            }
            Ok(Termination::Error(kind, message)) => {
                self.stats.paths_run_to_end += 1;
                (self.error_outcome(&mut st, kind, message).0, Some(reason))
            }
            Ok(other) => (
                TestOutcome::Early {
                    reason: format!("{reason}; not run to its end: {other:?}"),
                    no_end_within: None,
                },
                None,
            ),
            Err(NotCompleted::Abandoned(why)) => (
                TestOutcome::Early {
                    reason: format!("{reason}; not run to its end: {why}"),
                    no_end_within: None,
                },
                None,
            ),
            Err(NotCompleted::NoEnd(n)) => (
                TestOutcome::Early {
                    reason: format!(
                        "{reason}; run concretely on these inputs, it did not end within {n} instructions"
                    ),
                    no_end_within: Some(n),
                },
                None,
            ),
        };
        if in_tree {
            self.ptree.remove(st.ptree_node);
        }
        let stdout = self.stdout_of(&st, &model);
        self.emit_test(&st, ktest, outcome, true, stdout, completed_after);
    }

    /// The report of an error at `st`'s current instruction, and whether it
    /// is written as a test: the first at its place (kind, file, line; in
    /// library code, under one call of the program), or every one under
    /// `--emit-all-errors`. Counts the bugs written and requests the halt of
    /// `--exit-on-error`.
    fn error_outcome(
        &mut self,
        st: &mut State,
        kind: ErrorKind,
        message: String,
    ) -> (TestOutcome, bool) {
        let stack = self.stack_of(st);
        let (file, line) = stack
            .first()
            .map_or((String::new(), 0), |s| (s.file.clone(), s.line));
        // As KLEE: one test per error location, unless --emit-all-errors. An
        // error in the libc or a model is the program's at the call that led
        // there: the same library line reached from another call of the
        // program is another error (KLEE reports each failing external call).
        let via = if self.coverage.is_program_function(st.frame().func) {
            None
        } else {
            self.coverage.program_frame(st).map(|f| (f.func, f.cur))
        };
        let first = self.emitted_errors.insert((kind, file.clone(), line, via));
        // Every pair of paths that differs is its own finding.
        let emit = first || self.config.emit_all_errors || kind == ErrorKind::Mismatch;
        if emit && kind.is_bug() {
            self.stats.errors += 1;
            if self.stats.errors == 1 {
                self.stats.first_bug_s = self.started.elapsed().as_secs_f64();
            }
        }
        if emit && self.config.exit_on_error.contains(&kind) && self.halt_requested.is_none() {
            self.halt_requested = Some(format!(
                "--exit-on-error: {} error at {file}:{line}",
                kind.as_str()
            ));
        }
        let report = ErrorReport {
            kind,
            message,
            file,
            line,
            stack,
            suffix: st.error_suffix.take(),
        };
        (TestOutcome::Error(report), emit)
    }

    fn emit_test(
        &mut self,
        st: &State,
        ktest: KTest,
        outcome: TestOutcome,
        covered_new: bool,
        stdout: Vec<u8>,
        completed_after: Option<String>,
    ) {
        self.mark_tested(st);
        self.stats.tests += 1;
        if let Some(max) = self.config.max_tests {
            if self.stats.tests >= max && self.halt_requested.is_none() {
                self.halt_requested = Some(format!("--max-tests {max} reached"));
            }
        }
        let mut lines = std::collections::BTreeSet::new();
        let mut cur = st.pending_cover.as_deref();
        while let Some(n) = cur {
            if let Some((file, line)) = self.coverage.line_of(self.module, n.inst) {
                lines.insert((file, line));
            }
            cur = n.next.as_deref();
        }
        let mut first_lines: Vec<(String, u32)> = lines
            .into_iter()
            .filter_map(|(f, l)| Some((self.module.files.get(f.0 as usize)?.clone(), l)))
            .collect();
        first_lines.sort();
        let tc = TestCase {
            ktest,
            outcome,
            covered_new,
            instructions_covered: self.coverage.covered_instructions(),
            first_lines,
            elapsed_s: self.started.elapsed().as_secs_f64(),
            stdout,
            completed_after,
        };
        self.sink.event(Event::Test(&tc));
    }

    /// Concrete inputs for a path, preferring `prefer_cex` constraints when
    /// they can hold, and the model they come from.
    fn solve_test(&mut self, st: &mut State) -> Option<(KTest, Assignment)> {
        let mut model = None;
        if !st.preferences.is_empty() {
            let prefs = st.preferences.to_vec();
            if let Ok(Some(m)) = self.solve(st, &prefs) {
                model = Some(m);
            }
        }
        let model = match model {
            Some(m) => m,
            None => match &st.model {
                Some(m) => (**m).clone(),
                None => self.solve(st, &[]).ok()??,
            },
        };
        let objects = st
            .symbolics
            .iter()
            .map(|s| {
                let mut bytes = model.get(s.array).map(|b| b.to_vec()).unwrap_or_default();
                bytes.resize(s.size as usize, 0);
                KTestObject {
                    name: s.name.clone(),
                    bytes,
                }
            })
            .collect();
        Some((
            KTest {
                args: match &st.argv {
                    Some(a) => a.to_vec(),
                    None => self.config.argv.clone(),
                },
                sym_argvs: 0,
                sym_argv_len: 0,
                objects,
            },
            model,
        ))
    }

    /// The path's standard output (POSIX model) under `model`.
    fn stdout_of(&self, st: &State, model: &Assignment) -> Vec<u8> {
        st.stdout.bytes(|e| self.pool.eval(e, model).to_u64() as u8)
    }
}
