//! The run loop (§2.2): select a state, run it for a batch, apply forks and
//! terminations, stop at a limit; then write tests for unfinished states that
//! covered code no written test covers.

use crate::executor::Executor;
use crate::search::{StateInfo, StateView};
use crate::state::{State, StateId};
use crate::step::{StepCtx, Stop};
use crate::termination::{StackEntry, Termination};
use crate::{Event, RunSummary};
use std::time::{Duration, Instant};
use symtest_ir::Loc;

/// A dive ends at a fork once its batch has asked the solver chain this many
/// times: in a solver-bound program a long dive spends the budget in one
/// subtree, and a bound on forks alone lets a dive whose every fork costs
/// queries go on too long. A few queries per dive give the searcher back
/// the choice of where the budget goes.
const DIVE_QUERIES: u64 = 8;

/// The directed phase of a run (seeds and target lines first) and when its
/// share of the budget is used.
struct Directed {
    on: bool,
    until: Option<Instant>,
    instructions: Option<u64>,
}

/// One batch under way: its clock, the instructions left, and its dive.
struct Batch {
    start: Instant,
    budget: u64,
    /// Forks the batch has seen (`StepCtx::added` when last looked at).
    forks_seen: usize,
    dive_forks: u32,
    /// The solver chain's query count when the batch began.
    queries_at_start: u64,
}

struct View<'a, 'm> {
    ex: &'a mut Executor<'m>,
}

impl StateView for View<'_, '_> {
    fn info(&mut self, id: StateId) -> StateInfo {
        let ex = &mut *self.ex;
        let Some(st) = ex.states.get(&id) else {
            return StateInfo::default();
        };
        let f = st.frame();
        let (func, pc, depth, since, qc) = (
            f.func,
            f.pc,
            st.depth,
            st.instructions - st.last_new_cover,
            st.query_cost_us,
        );
        let body_len = |func| {
            ex.module
                .function(func)
                .body
                .as_ref()
                .map_or(0, |b: &symtest_ir::Body| b.insts.len() as u32)
        };
        let pc = pc.min(body_len(func).saturating_sub(1));
        // Distance to uncovered code of the program: inside the libc or a
        // model, from the innermost program frame the call returns to; when
        // none is reachable from there, to the library's own uncovered code
        // (a search that has covered the program keeps a gradient).
        let md2u = ex
            .coverage
            .program_frame(st)
            .and_then(|f| {
                let pc = f.pc.min(body_len(f.func).saturating_sub(1));
                ex.coverage.md2u(ex.module, f.func, pc)
            })
            .or_else(|| {
                if ex.coverage.is_program_function(func) {
                    None
                } else {
                    ex.coverage.md2u(ex.module, func, pc)
                }
            });
        let target_dist = match &mut ex.targets {
            Some(t) => {
                let frames: Vec<(symtest_ir::FuncId, u32)> = st
                    .stack
                    .iter()
                    .map(|f| (f.func, f.pc.min(body_len(f.func).saturating_sub(1))))
                    .collect();
                t.distance(ex.module, &ex.coverage, &frames)
            }
            None => None,
        };
        StateInfo {
            depth,
            since_new_cover: since,
            md2u,
            inst_count: ex.coverage.count(func, pc),
            call_path_count: ex.coverage.func_count(func),
            query_cost_us: qc,
            target_dist,
            seeded: !st.seeds.is_empty() && ex.stats.seeding_s.is_none(),
        }
    }

    fn ptree(&self) -> &crate::ptree::PTree {
        &self.ex.ptree
    }
}

impl Executor<'_> {
    pub fn run(&mut self) -> RunSummary {
        let ids = self.start_run();
        let mut directed = self.begin_directed();
        self.searcher.update(None, &ids, &[]);
        self.stats.states_peak = ids.len() as u64;
        self.write_seed_tests();
        let mut last_progress = Instant::now();
        let reason = loop {
            if let Some(r) = self.limit_reached() {
                break r;
            }
            self.end_directed_when_over(&mut directed);
            if let Some(r) = self.cap.too_small.take() {
                break r;
            }
            if self.states.is_empty() && self.merge.has_parked() {
                self.release_parked(false);
                continue;
            }
            if self.states.is_empty() && !self.suspended.is_empty() {
                self.resume_nearest(0.0);
                continue;
            }
            if self.states.is_empty() {
                break self.all_explored_reason();
            }
            if let Err(r) = self.next_batch() {
                break r;
            }
            self.after_batch(&mut last_progress);
        };
        self.release_parked(false);
        // The last census walks every live state: a run its time stopped
        // keeps the one taken at the last fourfold growth instead of
        // spending its halt's grace on it.
        if self.deadline.is_none_or(|d| Instant::now() < d) {
            self.take_census();
        }
        self.note_pending();
        self.halt(&reason);
        self.refresh_stats();
        RunSummary {
            stats: self.stats.clone(),
            halt_reason: reason,
            covered_lines: self.coverage.covered_line_list(self.module),
            target_lines: self
                .targets
                .as_ref()
                .map(|t| crate::targets::describe(self.module, t))
                .unwrap_or_default(),
            why: self.why_report(),
        }
    }

    /// Starts the run's clock and deadline and puts the initial states in
    /// place; returns their ids.
    fn start_run(&mut self) -> Vec<StateId> {
        // The run's clock (statistics, --max-time) starts with the command
        // when the CLI says so: loading and linking count.
        self.started = self.config.started_at.unwrap_or_else(Instant::now);
        // A query in progress when the time is up gives up then (its branch
        // follows the path's model, as after any solver give-up).
        self.deadline = self.config.max_time.map(|t| self.started + t);
        self.solver.set_deadline(self.deadline);
        let initial = std::mem::take(&mut self.initial);
        let ids: Vec<StateId> = initial.iter().map(|s| s.id).collect();
        for st in initial {
            self.states.insert(st.id, st);
        }
        ids
    }

    /// Seeds and target lines: paths that follow a seed run first, then
    /// those nearest a target line not reached, for the directed share of
    /// the budget; then the configured searcher.
    fn begin_directed(&mut self) -> Directed {
        self.stats.seeds = self.config.seeds.len() as u64;
        let on = self.targets.is_some() || !self.config.seeds.is_empty();
        if on {
            let inner = if self.targets.is_some() {
                crate::search::build(&[crate::config::SearchKind::Nurs(
                    crate::config::Weight::Target,
                )])
            } else {
                crate::search::build(&self.config.search)
            };
            self.searcher = Box::new(crate::seeds::SeedFirst::new(inner));
        }
        let share = self.config.directed_share.clamp(0.0, 1.0);
        Directed {
            on,
            until: self
                .config
                .max_time
                .map(|t| self.started + t.mul_f64(share)),
            instructions: self
                .config
                .max_instructions
                .map(|m| (m as f64 * share) as u64),
        }
    }

    /// Once the directed share is used, the configured searcher takes over
    /// every state.
    fn end_directed_when_over(&mut self, d: &mut Directed) {
        if !d.on {
            return;
        }
        let over = d.until.is_some_and(|t| Instant::now() >= t)
            || d.instructions.is_some_and(|m| self.stats.instructions >= m);
        if over {
            d.on = false;
            self.searcher = crate::search::build(&self.config.search);
            let mut ids: Vec<StateId> = self.states.keys().copied().collect();
            ids.sort_unstable();
            self.searcher.update(None, &ids, &[]);
        }
    }

    /// The halt reason when no state is left: what, if anything, cut paths
    /// short on the way.
    fn all_explored_reason(&self) -> String {
        let counts: [(u64, &str); 5] = [
            (
                self.stats.states_dropped,
                "state(s) dropped by the memory cap",
            ),
            (
                self.stats.solver_failures,
                "path(s) ended where the solver failed (gave up or erred)",
            ),
            (
                self.stats.tests_unsolved,
                "test(s) not written (path condition not solved)",
            ),
            (
                self.solver.degraded,
                "branch(es) followed the path's model after the solver gave up",
            ),
            (
                self.solver.digest_branches,
                "branch(es) on a digest or checksum followed the path's model \
                 (--digest-depth)",
            ),
        ];
        let lost: Vec<String> = counts
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        if lost.is_empty() {
            "all paths explored".to_string()
        } else {
            format!("all remaining paths explored; {}", lost.join("; "))
        }
    }

    /// The next state to run: one a merge waits for, else the searcher's.
    /// Also says whether the merge picked it.
    fn pick(&mut self) -> (Option<StateId>, bool) {
        if let Some(id) = self.merge_pick() {
            return (Some(id), true);
        }
        let mut searcher =
            std::mem::replace(&mut self.searcher, Box::new(crate::search::Dfs::default()));
        let mut rng = std::mem::replace(&mut self.rng, crate::rng::Rng::new(0));
        let pick = searcher.select(&mut View { ex: self }, &mut rng);
        self.rng = rng;
        self.searcher = searcher;
        (pick, false)
    }

    /// Picks a state and runs its batch; the states it made and ended go to
    /// the searcher and the merger. Err: the halt reason (an internal error).
    fn next_batch(&mut self) -> Result<(), String> {
        let (id, merge_picked) = self.pick();
        let Some(id) = id else {
            return Err("searcher has no state (internal error)".to_string());
        };
        if self.merge.is_parked(id) {
            self.unpark(id);
        }
        let instructions_before = self.stats.instructions;
        let Some(mut st) = self.states.remove(&id) else {
            return Err("searcher chose a dead state (internal error)".to_string());
        };
        if self.stats.seeding_s.is_none()
            && !merge_picked
            && !self.config.seeds.is_empty()
            && (st.seeds.is_empty() || self.seeding_share_used())
        {
            self.stats.seeding_s = Some(self.started.elapsed().as_secs_f64());
            self.stats.seeding_instructions = Some(self.stats.instructions);
        }
        let mut ctx = StepCtx::default();
        let ended = self.run_batch(&mut st, &mut ctx);
        let (added, removed, current) = self.settle_batch(id, st, ctx, ended);
        self.searcher.update(Some(id), &added, &removed);
        if merge_picked {
            self.note_tracked_batch(self.stats.instructions - instructions_before);
        }
        self.merge_after_batch(id, current, &added);
        Ok(())
    }

    /// The states a batch of picked state `id` left: new ones stored, ended
    /// ones terminated. The batch may have moved on from the picked state (a
    /// dive continues in the newest child): the searcher learns of every
    /// state but the picked one as added, and of the picked one as removed
    /// if it ended. Returns (added, removed, the state the batch ended in if
    /// it lives on).
    fn settle_batch(
        &mut self,
        id: StateId,
        mut st: State,
        ctx: StepCtx,
        ended: Option<Termination>,
    ) -> (Vec<StateId>, Vec<StateId>, Option<StateId>) {
        let mut added = Vec::new();
        let mut removed = Vec::new();
        for mut s in ctx.added {
            if s.id != id {
                added.push(s.id);
            }
            self.release_stalled_seeds(&mut s);
            self.states.insert(s.id, s);
        }
        for (s, t) in ctx.ended {
            if s.id == id {
                removed.push(id);
            }
            self.terminate(s, t);
        }
        let current = match ended {
            Some(t) => {
                if st.id == id {
                    removed.push(id);
                }
                self.terminate(st, t);
                None
            }
            None => {
                if st.id != id {
                    added.push(st.id);
                }
                self.release_stalled_seeds(&mut st);
                let cur = st.id;
                self.states.insert(st.id, st);
                Some(cur)
            }
        };
        (added, removed, current)
    }

    /// After each batch: the state count and its peak, the memory cap, and
    /// about once a second the progress event.
    fn after_batch(&mut self, last_progress: &mut Instant) {
        self.stats.states = self.states.len() as u64;
        if self.stats.states > self.stats.states_peak {
            self.stats.states_peak = self.stats.states;
            self.maybe_census();
        }
        self.memory_tick();
        if last_progress.elapsed() >= Duration::from_secs(1) {
            *last_progress = Instant::now();
            self.refresh_stats();
            let stats = self.stats.clone();
            self.sink.event(Event::Progress(&stats));
        }
    }

    /// Runs `st` until it forks, ends, or its batch is used up. In a dive
    /// (`Config::dive_forks` > 0), a fork does not end the batch until that
    /// many forks, or until the batch has asked the solver chain more than
    /// `DIVE_QUERIES` times: it goes on in the newest child, and a path that
    /// ends hands over to the newest waiting child.
    fn run_batch(&mut self, st: &mut State, ctx: &mut StepCtx) -> Option<Termination> {
        let mut b = Batch {
            start: Instant::now(),
            budget: self.config.batch_instructions,
            forks_seen: 0,
            dive_forks: 0,
            queries_at_start: self.solver.queries,
        };
        loop {
            // A loop head where the state may wait for its siblings
            // (`--merge-loops`): the batch ends there.
            if self.merge.at_merge_point(st) {
                return None;
            }
            if let Err(stop) = self.step(st, ctx) {
                match self.path_stopped(&mut b, st, ctx, stop) {
                    Some(t) => return Some(t),
                    None => continue,
                }
            }
            b.budget -= 1;
            if b.budget == 0 || self.batch_over(&mut b, st, ctx) {
                return None;
            }
        }
    }

    /// The path of `st` stopped in a step: its termination, or None when the
    /// batch goes on (in the crosscheck's second program, or in a dive's
    /// newest waiting child).
    fn path_stopped(
        &mut self,
        b: &mut Batch,
        st: &mut State,
        ctx: &mut StepCtx,
        stop: Stop,
    ) -> Option<Termination> {
        if matches!(&stop, Stop::Solver(f) if f.run_deadline) {
            // The run's time ran out inside this instruction: it is
            // run again if the halted path is completed (its result
            // was never written).
            let f = st.frame_mut();
            f.pc = f.cur;
        }
        let t = match stop.into_termination() {
            Termination::Exit(code) if self.config.crosscheck.is_some() => {
                match self.cross_exit(st, code) {
                    // The path goes on in the second program.
                    Ok(None) => {
                        b.budget = b.budget.saturating_sub(1).max(1);
                        return None;
                    }
                    Ok(Some(t)) => t,
                    Err(stop) => stop.into_termination(),
                }
            }
            t => t,
        };
        // --exit-on-error: the run stops at the first such error.
        let stops_run =
            matches!(&t, Termination::Error(k, _) if self.config.exit_on_error.contains(k));
        if self.config.dive_forks > 0 && b.budget > 1 && !stops_run {
            if let Some(next) = ctx.added.pop() {
                let done = std::mem::replace(st, next);
                ctx.ended.push((done, t));
                b.forks_seen = ctx.added.len();
                b.budget -= 1;
                return None;
            }
        }
        Some(t)
    }

    /// After a step that did not end the path: whether the batch ends here
    /// (an error that stops the run, the dive's end, a limit, the memory
    /// cap's sample, --batch-time, the deadline). A fork in a dive goes on
    /// in the newest child.
    fn batch_over(&mut self, b: &mut Batch, st: &mut State, ctx: &mut StepCtx) -> bool {
        // --exit-on-error: the run stops at the first such error, as KLEE
        // stops after the instruction that found it.
        if !self.config.exit_on_error.is_empty()
            && ctx.ended.iter().any(|(_, t)| {
                matches!(t, Termination::Error(k, _) if self.config.exit_on_error.contains(k))
            })
        {
            return true;
        }
        if ctx.added.len() > b.forks_seen {
            b.dive_forks += 1;
            if b.dive_forks >= self.config.dive_forks
                || self.solver.queries - b.queries_at_start > DIVE_QUERIES
            {
                return true;
            }
            // Dive into the newest child, unless this path follows a
            // seed the child does not (seeds are followed first).
            let child = ctx.added.last_mut().expect("a fork");
            if st.seeds.is_empty() || !child.seeds.is_empty() {
                std::mem::swap(st, child);
            }
            b.forks_seen = ctx.added.len();
        }
        if let Some(max) = self.config.max_instructions {
            if self.stats.instructions >= max {
                return true;
            }
        }
        // One instruction can allocate megabytes (malloc, memset): the
        // memory cap gets its sample before a batch runs away with it.
        if self.heap_grew() {
            return true;
        }
        if b.budget.is_multiple_of(1024) {
            if let Some(t) = self.config.batch_time {
                if b.start.elapsed() >= t {
                    return true;
                }
            }
        }
        // Every 64 instructions: one instruction can take milliseconds
        // (a fork that copies an object of a million symbolic bytes).
        b.budget.is_multiple_of(64) && self.past_deadline()
    }

    fn limit_reached(&self) -> Option<String> {
        if let Some(r) = &self.halt_requested {
            return Some(r.clone());
        }
        if let Some(max) = self.config.max_instructions {
            if self.stats.instructions >= max {
                return Some(format!("--max-instructions {max} reached"));
            }
        }
        if let (Some(t), Some(d)) = (self.config.max_time, self.deadline) {
            if Instant::now() >= d {
                return Some(format!("--max-time {}s reached", t.as_secs_f64()));
            }
        }
        None
    }

    /// Ends the run: unfinished states that covered untested code get a test.
    fn halt(&mut self, reason: &str) {
        // The tests of unfinished states may need a query each: a short
        // grace (5% of --max-time); their concrete runs to the end stop 8%
        // after it (complete.rs), so the run ends within 10% of it.
        if let (Some(t), Some(d)) = (self.config.max_time, self.deadline) {
            let grace = (t / 20).max(Duration::from_millis(50));
            self.solver
                .set_deadline(Some((Instant::now() + grace).max(d)));
        }
        let mut ids: Vec<StateId> = self.states.keys().copied().collect();
        ids.sort_unstable();
        // Paths that get a test first (in memory, then suspended), while the
        // grace lasts: they are run to their ends. Letting go of the others
        // (a hundred thousand states at a 2 GiB cap) takes time too.
        let mut memo = crate::testgen::CoverMemo::default();
        let (with_test, rest): (Vec<StateId>, Vec<StateId>) = ids
            .into_iter()
            .partition(|id| self.has_untested_cover_memo(&self.states[id], &mut memo));
        drop(memo);
        let end = self.halt_tests_deadline();
        let last_end = self.completion_deadline();
        let mut late = 0u64;
        // How long the last test took: one that would not be written before
        // the completions' deadline is not started.
        let mut took = Duration::ZERO;
        for id in with_test {
            if let Some(st) = self.states.remove(&id) {
                // An earlier halted state's test may have covered what this
                // one had: it needs no test, and ending it costs nothing.
                if !self.has_untested_cover(&st) {
                    self.terminate(st, Termination::Early(format!("halted: {reason}")));
                    continue;
                }
                let now = Instant::now();
                // Tests are started up to 6% after --max-time (their
                // completions stop at 8%, and writing the last one takes
                // time too); past it, solving the tests of states with
                // millions of symbolic bytes would take the run far over
                // its budget.
                if end.is_some_and(|d| now >= d) || last_end.is_some_and(|d| now + took >= d) {
                    late += 1;
                    self.drop_halted(st);
                    continue;
                }
                self.terminate(st, Termination::Early(format!("halted: {reason}")));
                took = now.elapsed();
            }
        }
        if late > 0 {
            self.warn_once(format!(
                "{late} halted state(s) that covered untested code got no test: \
                 the run's time (--max-time + 6%) was up"
            ));
        }
        self.halt_suspended(reason);
        // Nothing they covered was untested, and tests only mark more code
        // tested: they end with no test.
        for id in rest {
            if let Some(st) = self.states.remove(&id) {
                self.drop_halted(st);
            }
        }
    }

    pub(crate) fn refresh_stats(&mut self) {
        if let Some(t) = &self.targets {
            let lines: Vec<bool> = t.lines().map(|(_, r)| r).collect();
            self.stats.target_lines = lines.len() as u64;
            self.stats.target_lines_reached = lines.iter().filter(|r| **r).count() as u64;
        }
        let s = &mut self.stats;
        s.queries = self.solver.queries + self.solver.model_answers;
        s.chain_queries = self.solver.queries;
        s.solver_queries = self.solver.backend_queries();
        s.solver_time_s = self.solver.time.as_secs_f64();
        s.solver_degraded = self.solver.degraded;
        s.digest_branches = self.solver.digest_branches;
        s.solver_timeouts = self.solver.timeouts;
        s.solver_query_times = crate::query::DURATION_CLASSES
            .iter()
            .zip(self.solver.by_duration)
            .map(|(took, (queries, t))| crate::stats::QueryTimeClass {
                took: took.to_string(),
                queries,
                time_s: t.as_secs_f64(),
            })
            .collect();
        s.solver_layers = self.solver.layer_stats(self.config.reuse_state_model);
        s.time_s = self.started.elapsed().as_secs_f64();
        s.covered_instructions = self.coverage.covered_instructions() as u64;
        s.total_instructions = self.coverage.total_instructions() as u64;
        s.covered_lines = self.coverage.covered_lines() as u64;
        s.total_lines = self.coverage.total_lines() as u64;
        s.memory_peak_mb = s.memory_peak_mb.max(crate::rss::peak_mb());
        s.states_suspended = self.suspended_count as u64;
        if let Some(store) = &self.store {
            s.suspend_disk_peak_mb = store.peak_bytes as f64 / (1024.0 * 1024.0);
        }
    }

    pub(crate) fn current_loc(&self, st: &State) -> Loc {
        let f = st.frame();
        self.module
            .function(f.func)
            .body
            .as_ref()
            .and_then(|b| b.insts.get(f.cur as usize))
            .map_or(Loc::default(), |i| i.loc)
    }

    pub(crate) fn stack_of(&self, st: &State) -> Vec<StackEntry> {
        st.stack
            .iter()
            .rev()
            .map(|f| {
                let func = self.module.function(f.func);
                let loc = func
                    .body
                    .as_ref()
                    .and_then(|b| b.insts.get(f.cur as usize))
                    .map_or(Loc::default(), |i| i.loc);
                StackEntry {
                    function: func.name.clone(),
                    file: loc
                        .file
                        .map_or_else(String::new, |x| self.module.file(x).to_string()),
                    line: loc.line,
                }
            })
            .collect()
    }
}
