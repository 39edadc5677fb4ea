//! Non-uniform random search (KLEE's `nurs:*`): a state is picked with
//! probability proportional to a heuristic weight.

use super::{Searcher, StateInfo, StateView};
use crate::config::Weight;
use crate::rng::Rng;
use crate::state::StateId;
use rustc_hash::FxHashSet;

pub struct WeightedRandom {
    weight: Weight,
    states: Vec<StateId>,
}

impl WeightedRandom {
    pub fn new(weight: Weight) -> WeightedRandom {
        WeightedRandom {
            weight,
            states: Vec::new(),
        }
    }
}

/// The weight of a state under a heuristic (higher = more likely).
pub fn weight_of(w: Weight, i: &StateInfo) -> f64 {
    let inv_sq = |x: f64| 1.0 / (x * x).max(1.0);
    match w {
        Weight::Depth => i.depth as f64 + 1.0,
        Weight::Rp => 0.5f64.powi(i.depth.min(1000) as i32),
        Weight::Icnt => inv_sq(i.inst_count as f64),
        Weight::Cpicnt => inv_sq(i.call_path_count as f64),
        Weight::Qc => 1.0 / (i.query_cost_us as f64 + 1.0),
        Weight::Md2u => inv_sq(i.md2u.unwrap_or(10_000) as f64),
        Weight::CovNew => {
            // As KLEE: recent new coverage and nearness to uncovered code.
            let md2u = inv_sq(i.md2u.unwrap_or(10_000) as f64);
            let since = i.since_new_cover.saturating_sub(1000) as f64;
            let covnew = inv_sq(since);
            covnew + md2u
        }
    }
}

impl Searcher for WeightedRandom {
    fn select(&mut self, view: &mut dyn StateView, rng: &mut Rng) -> Option<StateId> {
        if self.states.is_empty() {
            return None;
        }
        let weights: Vec<f64> = self
            .states
            .iter()
            .map(|s| weight_of(self.weight, &view.info(*s)).max(f64::MIN_POSITIVE))
            .collect();
        let total: f64 = weights.iter().sum();
        let mut pick = rng.unit() * total;
        for (s, w) in self.states.iter().zip(&weights) {
            if pick < *w {
                return Some(*s);
            }
            pick -= w;
        }
        self.states.last().copied()
    }

    fn update(&mut self, _current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.states.extend_from_slice(added);
        if !removed.is_empty() {
            let gone: FxHashSet<StateId> = removed.iter().copied().collect();
            self.states.retain(|s| !gone.contains(s));
        }
    }
}
