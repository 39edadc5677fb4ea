//! The memory cap (`--max-memory`), held against the resident memory the OS
//! reports for the process.
//!
//! Memory is sampled (one `pread` of `/proc/self/statm`) every 20,000
//! instructions, every 256 forks, and whenever the allocator's count of
//! memory in use has grown by 1/64 of the cap since the last sample (one
//! load of a counter, checked after every batch; a single instruction such
//! as a `memset` can allocate megabytes). Above 90% of the cap, states are
//! taken out of memory until the estimate of memory in use is back at 75%:
//! suspended to disk (`suspend`), or, where that fails (no directory, disk
//! full, its budget used up), dropped and counted. Which states go: not
//! those that covered new code or came back from disk in the last 100,000
//! instructions (unless every state did), then the farthest from uncovered
//! code first (a seeded order among equals); they are suspended in batches
//! of neighbours in the process tree, which share the most.
//!
//! Suspended batches come back, nearest to uncovered code first, when the
//! estimate is below 60% of the cap with room for the batch (three times its
//! size on disk), or one batch whatever the memory when no state is left in
//! memory.
//!
//! The estimate of memory in use is the allocator's count plus what the
//! process held outside it at start: memory freed stays resident until
//! reused, and counting it would take out states for memory that is in fact
//! free. The allocator is asked to return free pages after each round
//! (`malloc_trim`). Above 105% of the cap (resident, when freed memory is
//! scattered over pages still in use), relief goes further below the target.

use crate::executor::Executor;
use crate::state::{State, StateId};
use crate::termination::Termination;

/// Relief starts above this share of the cap...
const HIGH: f64 = 0.90;
/// ...and is pushed further above this one (resident memory).
const HARD: f64 = 1.05;
/// Relief goes down to this share.
const TARGET: f64 = 0.75;
/// Suspended states come back below this share.
const RESUME: f64 = 0.60;
/// Most states, and most bytes (as a share of the cap), per suspended batch.
const BATCH_STATES: usize = 256;
const BATCH_CAP_SHARE: f64 = 1.0 / 64.0;
/// Memory a batch takes back in memory, per byte on disk (estimate).
const EXPANSION: f64 = 3.0;
/// Instructions, new states and heap growth (share of the cap) between samples.
const SAMPLE_INSTRUCTIONS: u64 = 20_000;
const SAMPLE_FORKS: u64 = 256;
const SAMPLE_GROWTH: f64 = 1.0 / 64.0;
/// Instructions during which a state that covered new code or was resumed
/// is spared.
const SPARE_INSTRUCTIONS: u64 = 100_000;

const MIB: f64 = 1024.0 * 1024.0;

/// What the cap logic remembers between samples.
#[derive(Debug, Default)]
pub struct CapState {
    last_instructions: u64,
    last_forks: u64,
    last_heap: usize,
    ticks: u64,
    /// The tick from which the allocator may be asked again (without a count).
    next_precise: u64,
    /// Resident memory outside the allocator at start (binary, stacks), MiB.
    outside_heap_mb: f64,
    /// Run-wide instruction count when each resumed state came back.
    resumed_at: rustc_hash::FxHashMap<StateId, u64>,
    /// Set when one state alone exceeds the cap: the run stops with this.
    pub too_small: Option<String>,
}

impl CapState {
    /// A state left memory (suspended or ended).
    pub fn forget(&mut self, id: StateId) {
        self.resumed_at.remove(&id);
    }
}

/// Bytes the allocator has handed out and not taken back: counted by the
/// installed [`crate::CountingAllocator`], else asked of glibc (`mallinfo2`,
/// which walks its free lists), else unknown.
fn heap_in_use() -> Option<f64> {
    if let Some(n) = crate::rss::counted_heap_bytes() {
        return Some(n as f64);
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallinfo2 only reads the allocator's statistics.
        let m = unsafe { libc::mallinfo2() };
        Some((m.uordblks + m.hblkhd) as f64)
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    None
}

impl Executor<'_> {
    /// Resident memory now, MiB.
    fn rss_now(&mut self) -> f64 {
        let rss = self.rss.sample_mb();
        self.stats.memory_peak_mb = self.stats.memory_peak_mb.max(rss);
        rss
    }

    /// The estimate of memory in use, MiB.
    pub(crate) fn memory_used(&mut self) -> f64 {
        let rss = self.rss_now();
        match heap_in_use() {
            Some(b) => (b / MIB + self.cap.outside_heap_mb).min(rss),
            None => rss,
        }
    }

    /// At start: the process's memory outside the allocator; an error if the
    /// cap is already (nearly) used before exploring.
    pub(crate) fn check_cap_at_start(&mut self) -> Result<(), crate::ExecError> {
        let rss = self.rss.sample_mb();
        if let Some(heap) = heap_in_use() {
            self.cap.outside_heap_mb = (rss - heap / MIB).max(0.0);
        }
        let Some(cap) = self.config.max_memory_mb else {
            return Ok(());
        };
        let used = self.memory_used();
        if used > cap as f64 * HIGH {
            return Err(crate::ExecError::MemoryCap {
                cap,
                needed: used.ceil() as u64,
            });
        }
        Ok(())
    }

    /// Has the memory in use grown by a sampling step since the last sample?
    /// (One load of the allocator's counter; false without a cap or count.)
    pub(crate) fn heap_grew(&self) -> bool {
        let (Some(cap), Some(heap)) = (self.config.max_memory_mb, crate::rss::counted_heap_bytes())
        else {
            return false;
        };
        heap.saturating_sub(self.cap.last_heap) as f64 > cap as f64 * MIB * SAMPLE_GROWTH
    }

    /// Is the memory in use above the cap? Asked while a completion runs one
    /// state to its end outside the batch loop (where states could be taken
    /// out of memory instead); sampled only when the heap grew.
    pub(crate) fn completion_above_cap(&mut self) -> bool {
        let Some(cap) = self.config.max_memory_mb else {
            return false;
        };
        if !self.heap_grew() {
            return false;
        }
        self.cap.last_heap = crate::rss::counted_heap_bytes().unwrap_or(0);
        self.memory_used() > cap as f64
    }

    /// Called by the run loop after each batch.
    pub(crate) fn memory_tick(&mut self) {
        let Some(cap) = self.config.max_memory_mb.map(|c| c as f64) else {
            if self.stats.instructions - self.cap.last_instructions >= SAMPLE_INSTRUCTIONS {
                self.cap.last_instructions = self.stats.instructions;
                self.rss_now();
            }
            return;
        };
        let heap = crate::rss::counted_heap_bytes().unwrap_or(0);
        let grown = heap.saturating_sub(self.cap.last_heap) as f64 > cap * MIB * SAMPLE_GROWTH;
        let due = grown
            || self.stats.instructions - self.cap.last_instructions >= SAMPLE_INSTRUCTIONS
            || self.stats.forks - self.cap.last_forks >= SAMPLE_FORKS
            || (self.states.is_empty() && !self.suspended.is_empty());
        if !due {
            return;
        }
        self.cap.last_instructions = self.stats.instructions;
        self.cap.last_forks = self.stats.forks;
        self.cap.last_heap = heap;
        self.cap.ticks += 1;
        let rss = self.rss_now();
        if rss > cap * HIGH {
            // The resident figure bounds the memory in use from above. The
            // count is cheap; without it the allocator is asked (which walks
            // its free lists) on one sample in 8, or in 2 above the hard line.
            let hard = rss > cap * HARD;
            let counted = crate::rss::counted_heap_bytes().is_some();
            if counted
                || self.cap.ticks >= self.cap.next_precise
                || (hard && self.cap.ticks.is_multiple_of(2))
            {
                self.cap.next_precise = self.cap.ticks + 8;
                let used = self.memory_used();
                if used > cap * HIGH || hard {
                    self.relieve(cap, hard);
                }
                return;
            }
        }
        if self.suspended.is_empty() {
            return;
        }
        if self.states.is_empty() {
            self.resume_nearest(0.0);
        } else if rss < cap * HIGH {
            let used = self.memory_used();
            if used < cap * RESUME {
                self.resume_nearest(cap * RESUME - used);
            }
        }
    }

    /// Takes states out of memory until the estimate is at the target; when
    /// the resident figure is past the hard line, further below it.
    fn relieve(&mut self, cap: f64, hard: bool) {
        // Past --max-time the run halts next: writing states to disk now
        // (seconds for states of millions of symbolic bytes) would only
        // delay it.
        if self.past_deadline() {
            return;
        }
        let mut target = cap * TARGET;
        if hard {
            target = target.min(self.memory_used() * 0.8);
            // Resident memory past the hard line while the memory the engine
            // counts is already below the target: it is held outside the
            // states (the solver's own allocations: a hundred symbolic
            // arguments of 4 KiB grew Bitwuzla to 2 GiB), which taking states
            // out cannot give back. Free pages go back to the OS first; if
            // the run is still over the cap, it stops with the reason.
            if self.memory_used() <= cap * TARGET {
                crate::rss::release_free_memory();
                let rss = self.rss_now();
                if rss > cap * HARD {
                    self.cap.too_small.get_or_insert(format!(
                        "--max-memory {cap:.0} MiB is too small for this program: the run uses {rss:.0} MiB, most of it outside its states (the solver's memory); raise --max-memory"
                    ));
                }
                return;
            }
        }
        for _ in 0..8 {
            let used = self.memory_used();
            if used <= target {
                break;
            }
            let live = self.states.len();
            if live <= 1 {
                if used > cap {
                    self.cap.too_small = Some(format!(
                        "--max-memory {cap:.0} MiB is too small for this program: with one state in memory the run uses {used:.0} MiB; raise --max-memory"
                    ));
                }
                break;
            }
            let share = (used - target) / used;
            let k = ((live as f64 * share).ceil() as usize).clamp(1, live - 1);
            let mut victims = self.victims(k);
            self.searcher.update(None, &[], &victims);
            // Neighbours in the process tree share the most: batch them
            // (taken from the back of `pending`, so in walk order).
            let order = self.ptree.leaf_order();
            victims.sort_by_key(|id| std::cmp::Reverse(order.get(id).copied().unwrap_or(0)));
            let mut pending: Vec<State> = victims
                .iter()
                .filter_map(|id| self.states.remove(id))
                .collect();
            let max_bytes = (cap * MIB * BATCH_CAP_SHARE) as usize;
            while !pending.is_empty() {
                if self.past_deadline() {
                    // The halt that comes next ends them (with their tests).
                    let back: Vec<StateId> = pending.iter().map(|s| s.id).collect();
                    for st in pending.drain(..) {
                        self.states.insert(st.id, st);
                    }
                    self.searcher.update(None, &back, &[]);
                    return;
                }
                if let Err((states, why)) = self.suspend(&mut pending, BATCH_STATES, max_bytes) {
                    self.warn_once(format!(
                        "cannot suspend states to disk ({why}); dropping them at the memory cap"
                    ));
                    for st in states {
                        self.drop_state(st);
                    }
                }
            }
            crate::rss::release_free_memory();
        }
        crate::rss::release_free_memory();
    }

    /// Ends a state at the memory cap (when it cannot be suspended).
    pub(crate) fn drop_state(&mut self, st: State) {
        self.stats.states_dropped += 1;
        self.cap.forget(st.id);
        self.terminate(st, Termination::Early("dropped at the memory cap".into()));
    }

    /// The `k` states to take out of memory first (see the module comment).
    fn victims(&mut self, k: usize) -> Vec<StateId> {
        let mut ids: Vec<StateId> = self.states.keys().copied().collect();
        ids.sort_unstable();
        let now = self.stats.instructions;
        let resumed = &self.cap.resumed_at;
        let spared = |s: &State| {
            (s.last_new_cover > 0 && now - s.last_new_cover_global < SPARE_INSTRUCTIONS)
                || resumed
                    .get(&s.id)
                    .is_some_and(|&t| now - t < SPARE_INSTRUCTIONS)
        };
        let mut candidates: Vec<StateId> = ids
            .iter()
            .copied()
            .filter(|i| !spared(&self.states[i]))
            .collect();
        if candidates.len() < k {
            candidates = ids;
        }
        for i in (1..candidates.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            candidates.swap(i, j);
        }
        let mut keyed: Vec<(u32, StateId)> = candidates
            .into_iter()
            .map(|id| {
                let f = self.states[&id].frame();
                let (func, pc) = (f.func, f.pc);
                let d = self
                    .coverage
                    .md2u(self.module, func, pc)
                    .unwrap_or(u32::MAX);
                (d, id)
            })
            .collect();
        keyed.sort_by_key(|&(d, _)| std::cmp::Reverse(d));
        keyed.into_iter().take(k).map(|(_, id)| id).collect()
    }

    /// Brings back suspended batches, the one holding the state nearest to
    /// uncovered code first, while their estimated memory fits in `room_mb`
    /// (at least one batch).
    pub(crate) fn resume_nearest(&mut self, room_mb: f64) {
        let mut keyed: Vec<(u32, usize)> = Vec::with_capacity(self.suspended.len());
        for (i, b) in self.suspended.iter().enumerate() {
            let d = b
                .states
                .iter()
                .map(|s| {
                    self.coverage
                        .md2u(self.module, s.func, s.pc)
                        .unwrap_or(u32::MAX)
                })
                .min()
                .unwrap_or(u32::MAX);
            keyed.push((d, i));
        }
        keyed.sort_unstable();
        let mut take = Vec::new();
        let mut need = 0.0;
        for (_, i) in keyed {
            let est = self.suspended[i].disk_bytes() as f64 * EXPANSION / MIB;
            if !take.is_empty() && need + est > room_mb {
                break;
            }
            need += est;
            take.push(i);
        }
        // Remove from the back so the other indices stay valid.
        take.sort_unstable_by(|a, b| b.cmp(a));
        let mut back = Vec::new();
        let now = self.stats.instructions;
        for i in take {
            let batch = self.suspended.swap_remove(i);
            for st in self.resume(batch) {
                back.push(st.id);
                self.cap.resumed_at.insert(st.id, now);
                self.states.insert(st.id, st);
            }
        }
        back.sort_unstable();
        self.searcher.update(None, &back, &[]);
    }

    /// At the end of the run: batches holding a state that covered code no
    /// test covers yet come back for its test; the others end unread.
    pub(crate) fn halt_suspended(&mut self, reason: &str) {
        let batches = std::mem::take(&mut self.suspended);
        let end = self.halt_tests_deadline();
        let mut late = 0u64;
        for batch in batches {
            // Reading batches back takes time in proportion to their states:
            // once the halt's time is used up, the rest end unread.
            if end.is_some_and(|d| std::time::Instant::now() >= d) {
                late += batch.states.iter().filter(|p| p.untested).count() as u64;
                self.stats.paths_early += batch.states.len() as u64;
                self.discard(batch);
                continue;
            }
            if !batch.states.iter().any(|p| p.untested) {
                self.stats.paths_early += batch.states.len() as u64;
                self.discard(batch);
                continue;
            }
            // A refused file is warned about and counted as dropped by `resume`.
            for st in self.resume(batch) {
                self.terminate(st, Termination::Early(format!("halted: {reason}")));
            }
        }
        if late > 0 {
            self.warn_once(format!(
                "{late} suspended state(s) that covered untested code got no test: \
                 the run's time (--max-time + 6%) was up before they could be read back"
            ));
        }
    }
}
