//! Unweighted searchers: depth-first, breadth-first, random state, random path.

use super::{Searcher, StateView};
use crate::rng::Rng;
use crate::state::StateId;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// Depth-first: always the newest state.
#[derive(Default)]
pub struct Dfs {
    stack: Vec<StateId>,
}

impl Searcher for Dfs {
    fn select(&mut self, _: &mut dyn StateView, _: &mut Rng) -> Option<StateId> {
        self.stack.last().copied()
    }

    fn update(&mut self, _current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.stack.extend_from_slice(added);
        if removed.len() > 8 {
            // Many at once (states leaving memory at the cap): one pass.
            let gone: FxHashSet<StateId> = removed.iter().copied().collect();
            self.stack.retain(|s| !gone.contains(s));
            return;
        }
        for r in removed {
            if let Some(pos) = self.stack.iter().rposition(|s| s == r) {
                self.stack.remove(pos);
            }
        }
    }
}

/// Breadth-first: the oldest state; a state that forked moves to the back.
/// Removals are lazy (skipped when they reach the front), so updates are O(1).
/// A state removed and added again (suspended at the memory cap, then
/// resumed) has stale entries before its live one: `stale` counts them.
#[derive(Default)]
pub struct Bfs {
    queue: VecDeque<StateId>,
    stale: rustc_hash::FxHashMap<StateId, u32>,
}

impl Bfs {
    fn front(&mut self) -> Option<StateId> {
        while let Some(&s) = self.queue.front() {
            match self.stale.get_mut(&s) {
                Some(n) => {
                    *n -= 1;
                    if *n == 0 {
                        self.stale.remove(&s);
                    }
                    self.queue.pop_front();
                }
                None => return Some(s),
            }
        }
        None
    }
}

impl Searcher for Bfs {
    fn select(&mut self, _: &mut dyn StateView, _: &mut Rng) -> Option<StateId> {
        self.front()
    }

    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        if let Some(c) = current {
            if !added.is_empty() && !removed.contains(&c) && self.front() == Some(c) {
                self.queue.pop_front();
                self.queue.push_back(c);
            }
        }
        self.queue.extend(added.iter().copied());
        for &r in removed {
            *self.stale.entry(r).or_insert(0) += 1;
        }
    }
}

/// Uniformly random among all states (O(1) updates through an index map).
#[derive(Default)]
pub struct RandomState {
    states: Vec<StateId>,
    index: rustc_hash::FxHashMap<StateId, usize>,
}

impl Searcher for RandomState {
    fn select(&mut self, _: &mut dyn StateView, rng: &mut Rng) -> Option<StateId> {
        if self.states.is_empty() {
            return None;
        }
        Some(self.states[rng.below(self.states.len() as u64) as usize])
    }

    fn update(&mut self, _current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        for a in added {
            self.index.insert(*a, self.states.len());
            self.states.push(*a);
        }
        for r in removed {
            if let Some(i) = self.index.remove(r) {
                self.states.swap_remove(i);
                if let Some(moved) = self.states.get(i) {
                    self.index.insert(*moved, i);
                }
            }
        }
    }
}

/// Random walk down the process tree (§3.4): states with few forks above them are
/// favoured, which avoids starving shallow paths in loops that fork a lot.
#[derive(Default)]
pub struct RandomPath {
    count: usize,
}

impl Searcher for RandomPath {
    fn select(&mut self, view: &mut dyn StateView, rng: &mut Rng) -> Option<StateId> {
        view.ptree().random_path(rng)
    }

    fn update(&mut self, _current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.count = (self.count + added.len()).saturating_sub(removed.len());
    }
}
