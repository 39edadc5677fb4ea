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
        for r in removed {
            if let Some(pos) = self.stack.iter().rposition(|s| s == r) {
                self.stack.remove(pos);
            }
        }
    }
}

/// Breadth-first: the oldest state; a state that forked moves to the back.
#[derive(Default)]
pub struct Bfs {
    queue: VecDeque<StateId>,
}

impl Searcher for Bfs {
    fn select(&mut self, _: &mut dyn StateView, _: &mut Rng) -> Option<StateId> {
        self.queue.front().copied()
    }

    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        if let Some(c) = current {
            if !added.is_empty() && !removed.contains(&c) {
                if let Some(pos) = self.queue.iter().position(|s| *s == c) {
                    self.queue.remove(pos);
                    self.queue.push_back(c);
                }
            }
        }
        self.queue.extend(added.iter().copied());
        if !removed.is_empty() {
            let gone: FxHashSet<StateId> = removed.iter().copied().collect();
            self.queue.retain(|s| !gone.contains(s));
        }
    }
}

/// Uniformly random among all states.
#[derive(Default)]
pub struct RandomState {
    states: Vec<StateId>,
}

impl Searcher for RandomState {
    fn select(&mut self, _: &mut dyn StateView, rng: &mut Rng) -> Option<StateId> {
        if self.states.is_empty() {
            return None;
        }
        Some(self.states[rng.below(self.states.len() as u64) as usize])
    }

    fn update(&mut self, _current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.states.extend_from_slice(added);
        if !removed.is_empty() {
            let gone: FxHashSet<StateId> = removed.iter().copied().collect();
            self.states.retain(|s| !gone.contains(s));
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
        self.count = self.count + added.len() - removed.len();
    }
}
