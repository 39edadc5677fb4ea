//! State merging at loop heads (`Config::merge_loops`, `--merge-loops`).
//!
//! A state that enters a loop head of the program's own code (a block a back
//! edge of its function targets, [`loops`]) waits there, *parked*, under its
//! key: the call stack (functions and call sites) and the head. A state that
//! arrives where others wait is merged into the first of them it can be
//! merged with ([`join::merge`]); else it waits beside them (at most
//! [`MAX_PARKED`]), or goes on.
//!
//! While states wait, the run loop picks *tracked* states first, before the
//! searcher: the states forked by a tracked state, or by one released from a
//! wait, as long as they are still inside that loop (the frame of the loop's
//! function at a block of its body, under the same calls). They are the
//! siblings that will reach the head in the same iteration. When none is
//! left, every waiting state is released and tracked in turn: the loop runs
//! iteration by iteration as one merged state. Waits end too after
//! [`WINDOW`] instructions of the run, when the searcher picks a waiting
//! state, when no other state is left, and at the halt; tracked states take
//! at most half the run's instructions.
//!
//! Coverage: a merged state's test is one concrete input, which takes one of
//! the merged paths; so a state with code covered that no test has recorded
//! yet gets its own test before it is merged (an early test, completed to the
//! end of its path).
//!
//! Everything is ordered (keys in a `BTreeMap`, states in vectors), so runs
//! stay deterministic.

pub mod join;
pub mod loops;
#[cfg(test)]
mod tests;

use crate::executor::Executor;
use crate::state::{State, StateId};
use crate::termination::Termination;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Most states waiting at one loop head under one key.
pub const MAX_PARKED: usize = 4;
/// Instructions of the run a wait lasts at most.
pub const WINDOW: u64 = 200_000;
/// Instructions of the run before tracked states are held to half of them.
const BURN_IN: u64 = 1_000_000;

/// Where a state waits: its call stack at a loop head ((function, call
/// site) of each caller frame, then (function, head block)), and what any
/// state it merges with must share (symbolic inputs, where the next object
/// goes, output), so that states of other shapes (another argument count,
/// a file opened or not) wait apart and do not take each other's places.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Key {
    stack: Rc<[(u32, u32)]>,
    shape: (usize, (u64, u64), usize),
}

fn key_of(st: &State) -> Key {
    let n = st.stack.len();
    Key {
        stack: st
            .stack
            .iter()
            .enumerate()
            .map(|(i, f)| (f.func.0, if i + 1 == n { f.block.0 } else { f.cur }))
            .collect(),
        shape: (
            st.symbolics.len(),
            st.memory.next_addresses(),
            st.stdout.len(),
        ),
    }
}

/// The run's merging: loop heads, waiting states, tracked states.
#[derive(Default)]
pub struct MergeCtl {
    /// `None`: merging is off.
    loops: Option<loops::Loops>,
    limits: join::Limits,
    groups: BTreeMap<Key, Vec<State>>,
    parked: FxHashMap<StateId, Key>,
    /// Tracked states, the newest last, with the loop each is tracked in.
    tracked: Vec<StateId>,
    track_key: FxHashMap<StateId, Key>,
    /// A released state's instruction count at its release: it does not wait
    /// again before it has run on.
    released: FxHashMap<StateId, u64>,
    /// Run instructions when the oldest current wait began.
    window_start: Option<u64>,
    /// Instructions run by tracked states.
    tracked_instructions: u64,
}

impl MergeCtl {
    pub fn new(module: &symtest_ir::Module, program: impl Fn(symtest_ir::FuncId) -> bool) -> Self {
        MergeCtl {
            loops: Some(loops::Loops::new(module, program)),
            ..MergeCtl::default()
        }
    }

    pub fn is_on(&self) -> bool {
        self.loops.is_some()
    }

    pub fn is_parked(&self, id: StateId) -> bool {
        self.parked.contains_key(&id)
    }

    pub fn has_parked(&self) -> bool {
        !self.groups.is_empty()
    }

    /// Does `st` stand at a loop head, where it waits (not just released there)?
    #[inline]
    pub fn at_merge_point(&self, st: &State) -> bool {
        let Some(l) = &self.loops else {
            return false;
        };
        let f = st.frame();
        l.is_head_entry(f.func, f.block, f.pc)
            && self.released.get(&st.id) != Some(&st.instructions)
    }

    /// Is `st` still inside the loop `key` names?
    fn in_loop(&self, st: &State, key: &Key) -> bool {
        let Some(l) = &self.loops else {
            return false;
        };
        let key = &key.stack;
        let d = key.len() - 1;
        if st.stack.len() <= d {
            return false;
        }
        let callers = st.stack[..d]
            .iter()
            .zip(key.iter())
            .all(|(f, &(func, cur))| f.func.0 == func && f.cur == cur);
        let f = &st.stack[d];
        callers && f.func.0 == key[d].0 && l.in_body(f.func, key[d].1, f.block)
    }
}

impl Executor<'_> {
    /// The state to run next when merging picks it (a tracked state, or the
    /// first of the states released when no tracked one is left), and
    /// whether it did.
    pub(crate) fn merge_pick(&mut self) -> Option<StateId> {
        if !self.merge.is_on() {
            return None;
        }
        if let Some(t0) = self.merge.window_start {
            if self.stats.instructions.saturating_sub(t0) > WINDOW {
                self.release_parked(false);
                self.merge.tracked.clear();
                self.merge.track_key.clear();
            }
        }
        let budget = self.stats.instructions.max(BURN_IN) / 2;
        if self.merge.tracked_instructions > budget {
            return None;
        }
        loop {
            while let Some(&id) = self.merge.tracked.last() {
                let inside = match (self.states.get(&id), self.merge.track_key.get(&id)) {
                    (Some(st), Some(k)) => self.merge.in_loop(st, k),
                    _ => false,
                };
                if inside {
                    return Some(id);
                }
                self.merge.tracked.pop();
                if !self.merge.is_parked(id) {
                    self.merge.track_key.remove(&id);
                }
            }
            if !self.merge.has_parked() {
                return None;
            }
            self.release_parked(true);
        }
    }

    /// Counts the instructions of a batch merging picked.
    pub(crate) fn note_tracked_batch(&mut self, instructions: u64) {
        self.merge.tracked_instructions += instructions;
    }

    /// Every waiting state back to the running ones (tracked in its loop if
    /// `track`), in key order.
    pub(crate) fn release_parked(&mut self, track: bool) {
        let groups = std::mem::take(&mut self.merge.groups);
        self.merge.window_start = None;
        let mut leaders = Vec::new();
        for (key, states) in groups {
            for st in states {
                self.merge.parked.remove(&st.id);
                self.merge.released.insert(st.id, st.instructions);
                if track {
                    self.merge.track_key.insert(st.id, key.clone());
                    leaders.push(st.id);
                } else {
                    self.merge.track_key.remove(&st.id);
                }
                self.states.insert(st.id, st);
            }
        }
        // The first key's states run first (the newest tracked is picked).
        leaders.reverse();
        self.merge.tracked.extend(leaders);
    }

    /// The searcher picked a waiting state: its group runs again, untracked.
    pub(crate) fn unpark(&mut self, id: StateId) {
        let Some(key) = self.merge.parked.get(&id).cloned() else {
            return;
        };
        for st in self.merge.groups.remove(&key).unwrap_or_default() {
            self.merge.parked.remove(&st.id);
            self.merge.track_key.remove(&st.id);
            self.merge.released.insert(st.id, st.instructions);
            self.states.insert(st.id, st);
        }
        if self.merge.groups.is_empty() {
            self.merge.window_start = None;
        }
    }

    /// After a batch that ran `picked` and ended with `current` running (a
    /// dive may move on to a child) and `added` new: the states forked by a
    /// tracked one are tracked too, and those at a loop head wait or merge.
    pub(crate) fn merge_after_batch(
        &mut self,
        picked: StateId,
        current: Option<StateId>,
        added: &[StateId],
    ) {
        if !self.merge.is_on() {
            return;
        }
        let lineage = self.merge.track_key.get(&picked).cloned();
        let mut ids: Vec<StateId> = added.to_vec();
        ids.extend(current);
        if let Some(key) = lineage {
            for &id in &ids {
                if id != picked && self.states.contains_key(&id) {
                    self.merge.track_key.insert(id, key.clone());
                    self.merge.tracked.push(id);
                }
            }
        }
        for id in ids {
            let at_head = self
                .states
                .get(&id)
                .is_some_and(|st| self.merge.at_merge_point(st));
            if at_head {
                self.park_or_merge(id);
            }
        }
    }

    /// `id` (running, at a loop head) merges into a state waiting there, or
    /// waits itself, or (the head's places taken) goes on untracked.
    fn park_or_merge(&mut self, id: StateId) {
        let Some(st) = self.states.remove(&id) else {
            return;
        };
        let key = key_of(&st);
        let mut group = self.merge.groups.remove(&key).unwrap_or_default();
        for i in 0..group.len() {
            match join::merge(&mut self.pool, &group[i], &st, self.merge.limits) {
                Ok(mut merged) => {
                    // Coverage neither test has recorded: each path gets its
                    // own test first (the merged one's input takes one path).
                    if self.has_untested_cover(&group[i]) {
                        self.witness_test(group[i].clone());
                    }
                    merged.pending_cover = group[i].pending_cover.clone();
                    group[i] = merged;
                    self.stats.states_merged += 1;
                    self.searcher.update(None, &[], &[id]);
                    self.merge.track_key.remove(&id);
                    self.merge.released.remove(&id);
                    if self.has_untested_cover(&st) {
                        self.terminate(st, Termination::Early("merged at a loop head".into()));
                        // `terminate` counts it as a path stopped early; it
                        // was merged, not stopped.
                        self.stats.paths_early -= 1;
                    } else {
                        self.cap.forget(st.id);
                        self.why.fixed.remove(&st.id);
                        self.ptree.remove(st.ptree_node);
                    }
                    self.merge.groups.insert(key, group);
                    return;
                }
                Err(_) => self.stats.merges_refused += 1,
            }
        }
        if group.len() < MAX_PARKED {
            if group.is_empty() && self.merge.groups.is_empty() {
                self.merge.window_start = Some(self.stats.instructions);
            }
            self.merge.parked.insert(id, key.clone());
            group.push(st);
        } else {
            self.merge.track_key.remove(&id);
            self.merge.released.insert(id, st.instructions);
            self.states.insert(id, st);
        }
        if !group.is_empty() {
            self.merge.groups.insert(key, group);
        }
    }
}
