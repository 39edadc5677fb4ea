//! Non-uniform random search (KLEE's `nurs:*`): a state is picked with
//! probability proportional to a heuristic weight.

use super::{Searcher, StateInfo, StateView};
use crate::config::Weight;
use crate::rng::Rng;
use crate::state::StateId;
use rustc_hash::FxHashMap;

/// States with cached weights in a Fenwick tree: a pick costs O(log n).
///
/// As in KLEE, a weight is recomputed when its state ran (`current`) or was
/// added; the others are refreshed all at once after as many picks as there
/// are states, so weights that depend on global coverage (md2u, covnew) never
/// stay stale for long while a pick stays amortized O(log n).
pub struct WeightedRandom {
    weight: Weight,
    states: Vec<StateId>,
    slot: FxHashMap<StateId, usize>,
    weights: Vec<f64>,
    tree: Fenwick,
    dirty: Vec<StateId>,
    picks_since_refresh: usize,
}

impl WeightedRandom {
    pub fn new(weight: Weight) -> WeightedRandom {
        WeightedRandom {
            weight,
            states: Vec::new(),
            slot: FxHashMap::default(),
            weights: Vec::new(),
            tree: Fenwick::default(),
            dirty: Vec::new(),
            picks_since_refresh: 0,
        }
    }

    fn weigh(&self, view: &mut dyn StateView, id: StateId) -> f64 {
        weight_of(self.weight, &view.info(id)).max(f64::MIN_POSITIVE)
    }

    fn set(&mut self, i: usize, w: f64) {
        let delta = w - self.weights[i];
        self.weights[i] = w;
        self.tree.add(i, delta);
    }
}

/// Prefix sums over slot weights (1-based internally: `t[0]` is unused).
struct Fenwick {
    t: Vec<f64>,
}

impl Default for Fenwick {
    fn default() -> Self {
        Fenwick { t: vec![0.0] }
    }
}

impl Fenwick {
    fn rebuild(&mut self, w: &[f64]) {
        let n = w.len();
        self.t = vec![0.0; n + 1];
        for (i, &x) in w.iter().enumerate() {
            self.t[i + 1] += x;
            let j = (i + 1) + ((i + 1) & (i + 1).wrapping_neg());
            if j <= n {
                let v = self.t[i + 1];
                self.t[j] += v;
            }
        }
    }

    fn add(&mut self, i: usize, delta: f64) {
        let mut k = i + 1;
        while k < self.t.len() {
            self.t[k] += delta;
            k += k & k.wrapping_neg();
        }
    }

    fn total(&self) -> f64 {
        let mut k = self.t.len() - 1;
        let mut s = 0.0;
        while k > 0 {
            s += self.t[k];
            k -= k & k.wrapping_neg();
        }
        s
    }

    /// The slot whose cumulative range contains `target` (0 ≤ target < total).
    fn find(&self, mut target: f64) -> usize {
        let n = self.t.len() - 1;
        let mut pos = 0;
        let mut step = n.next_power_of_two();
        while step > 0 {
            let next = pos + step;
            if next <= n && self.t[next] <= target {
                pos = next;
                target -= self.t[next];
            }
            step >>= 1;
        }
        pos.min(n.saturating_sub(1))
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
        // Nearer first, steeply: a state a call away from a changed line
        // runs far more often than one a function away.
        Weight::Target => match i.target_dist {
            Some(d) => 1.0 / (d as f64 + 1.0).powi(3),
            None => 1e-12,
        },
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
        if self.picks_since_refresh >= self.states.len() {
            self.picks_since_refresh = 0;
            self.dirty.clear();
            let ws: Vec<f64> = self.states.iter().map(|&s| self.weigh(view, s)).collect();
            self.weights = ws;
            self.tree.rebuild(&self.weights);
        } else {
            for id in std::mem::take(&mut self.dirty) {
                if let Some(&i) = self.slot.get(&id) {
                    let w = self.weigh(view, id);
                    self.set(i, w);
                }
            }
        }
        self.picks_since_refresh += 1;
        let total = self.tree.total();
        let i = self.tree.find(rng.unit() * total);
        Some(self.states[i])
    }

    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        // Adds first: a state may be created and end within one step.
        for &id in added {
            self.slot.insert(id, self.states.len());
            self.states.push(id);
            self.weights.push(0.0);
            // Grow the tree by one slot: its node covers a range ending here.
            let n = self.states.len();
            let lo = n - (n & n.wrapping_neg());
            let sum: f64 = self.weights[lo..n].iter().sum();
            self.tree.t.push(sum);
            self.dirty.push(id);
        }
        for &id in removed {
            let Some(i) = self.slot.remove(&id) else {
                continue;
            };
            let last = self.states.len() - 1;
            if i != last {
                let moved = self.states[last];
                let w = self.weights[last];
                self.states[i] = moved;
                self.slot.insert(moved, i);
                self.set(i, w);
            }
            self.set(last, 0.0);
            self.states.pop();
            self.weights.pop();
            self.tree.t.pop();
        }
        if let Some(c) = current {
            self.dirty.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Fenwick, WeightedRandom};
    use crate::config::Weight;
    use crate::ptree::PTree;
    use crate::rng::Rng;
    use crate::search::{Searcher, StateInfo, StateView};
    use crate::state::StateId;

    /// Depth = id % 5: the weight `nurs:depth` gives is id % 5 + 1.
    struct Fake(PTree);
    impl StateView for Fake {
        fn info(&mut self, id: StateId) -> StateInfo {
            StateInfo {
                depth: (id % 5) as u32,
                ..StateInfo::default()
            }
        }
        fn ptree(&self) -> &PTree {
            &self.0
        }
    }

    #[test]
    fn picks_follow_the_weights_through_adds_and_removes() {
        let mut view = Fake(PTree::default());
        let mut rng = Rng::new(7);
        let mut s = WeightedRandom::new(Weight::Depth);
        let mut live: Vec<StateId> = Vec::new();
        let mut next = 0;
        for round in 0..400u64 {
            let added: Vec<StateId> = (0..(round % 3 + 1)).map(|k| next + k).collect();
            next += added.len() as u64;
            live.extend(&added);
            let removed: Vec<StateId> = if round % 4 == 3 {
                let r = vec![live[(round as usize * 31) % live.len()]];
                live.retain(|x| !r.contains(x));
                r
            } else {
                Vec::new()
            };
            s.update(live.first().copied(), &added, &removed);
            let picked = s.select(&mut view, &mut rng).unwrap();
            assert!(live.contains(&picked));
            let want: f64 = live.iter().map(|id| (id % 5 + 1) as f64).sum();
            assert!((s.tree.total() - want).abs() < 1e-6, "round {round}");
        }
        // Frequencies follow the weights: ids with depth 4 (weight 5) are picked
        // about five times as often as those with depth 0 (weight 1).
        let (mut heavy, mut light) = (0u32, 0u32);
        for _ in 0..20_000 {
            match s.select(&mut view, &mut rng).unwrap() % 5 {
                4 => heavy += 1,
                0 => light += 1,
                _ => {}
            }
        }
        let ratio = heavy as f64 / light as f64;
        assert!((4.0..6.5).contains(&ratio), "ratio {ratio}");
    }

    #[test]
    fn fenwick_sums_and_finds_like_a_linear_scan() {
        let w: Vec<f64> = (0..37).map(|i| ((i * 7919) % 13) as f64 + 0.5).collect();
        let mut f = Fenwick::default();
        f.rebuild(&w);
        let total: f64 = w.iter().sum();
        assert!((f.total() - total).abs() < 1e-9);
        let mut acc = 0.0;
        for (i, x) in w.iter().enumerate() {
            assert_eq!(f.find(acc + x / 2.0), i);
            acc += x;
        }
        f.add(3, -w[3]);
        let mut acc = 0.0;
        for (i, x) in w.iter().enumerate().take(4) {
            if i != 3 {
                assert_eq!(f.find(acc + x / 2.0), i);
                acc += x;
            }
        }
        assert_eq!(f.find(acc), 4);
    }
}
