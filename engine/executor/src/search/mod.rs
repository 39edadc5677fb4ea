//! Searchers (§3.4): one small interface, several strategies.
//!
//! The run loop asks `select` for the state to run next and reports every change
//! of the state set through `update`; searchers never own states.

mod simple;
mod weighted;

use crate::config::SearchKind;
use crate::ptree::PTree;
use crate::rng::Rng;
use crate::state::StateId;

pub use simple::{Bfs, Dfs, RandomPath, RandomState};
pub use weighted::WeightedRandom;

/// What weighted searchers may ask about a state.
#[derive(Clone, Copy, Debug, Default)]
pub struct StateInfo {
    pub depth: u32,
    /// Instructions executed since the state last covered new code.
    pub since_new_cover: u64,
    /// Distance (in instructions) to the nearest uncovered instruction, if any.
    pub md2u: Option<u32>,
    /// How often the state's current instruction has been executed overall.
    pub inst_count: u64,
    /// How often instructions of the state's current function have been executed.
    pub call_path_count: u64,
    /// Solver time spent for this state, in microseconds.
    pub query_cost_us: u64,
    /// Distance to the nearest target line not reached yet (directed runs).
    pub target_dist: Option<u32>,
    /// The state still follows a seed.
    pub seeded: bool,
}

/// Gives searchers read access to states and the process tree.
pub trait StateView {
    fn info(&mut self, id: StateId) -> StateInfo;
    fn ptree(&self) -> &PTree;
}

pub trait Searcher {
    fn select(&mut self, view: &mut dyn StateView, rng: &mut Rng) -> Option<StateId>;
    /// `current` ran last; `added` were created, `removed` terminated (or dropped).
    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]);
}

/// Several searchers taking turns (KLEE's interleaved searcher).
pub struct Interleaved {
    searchers: Vec<Box<dyn Searcher>>,
    next: usize,
}

impl Searcher for Interleaved {
    fn select(&mut self, view: &mut dyn StateView, rng: &mut Rng) -> Option<StateId> {
        let n = self.searchers.len();
        let i = self.next % n;
        self.next = (self.next + 1) % n;
        self.searchers[i].select(view, rng)
    }

    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        for s in &mut self.searchers {
            s.update(current, added, removed);
        }
    }
}

/// Builds the searcher for `--search` (several kinds interleave).
pub fn build(kinds: &[SearchKind]) -> Box<dyn Searcher> {
    let mut list: Vec<Box<dyn Searcher>> = kinds.iter().map(|k| one(*k)).collect();
    if list.is_empty() {
        list.push(one(SearchKind::RandomPath));
    }
    if list.len() == 1 {
        return list.pop().expect("one searcher");
    }
    Box::new(Interleaved {
        searchers: list,
        next: 0,
    })
}

fn one(kind: SearchKind) -> Box<dyn Searcher> {
    match kind {
        SearchKind::Dfs => Box::new(Dfs::default()),
        SearchKind::Bfs => Box::new(Bfs::default()),
        SearchKind::RandomState => Box::new(RandomState::default()),
        SearchKind::RandomPath => Box::new(RandomPath::default()),
        SearchKind::Nurs(w) => Box::new(WeightedRandom::new(w)),
    }
}
