//! Seed mode (KLEE's `--seed-file`/`--seed-dir`): concrete inputs that guide
//! exploration. A path carries the seeds its constraints hold under; each
//! seed's values are bound to the arrays of the symbolic objects such paths
//! make, in order (a test's objects, as the `.ktest` lists them). The first
//! seed a path carries is its model, so the branches seeds decide cost no
//! query and the side a seed takes keeps it; the other side, when feasible,
//! is an ordinary path. Paths carrying seeds run first (the search wrapper
//! [`SeedFirst`]), so a run starts by going where the previous run's tests
//! went and forks off from there.

use crate::executor::Executor;
use crate::search::{Searcher, StateView};
use crate::state::{State, StateId};
use crate::termination::TestOutcome;
use crate::{Event, TestCase};
use std::rc::Rc;
use symtest_expr::{ArrayId, ExprId};
use symtest_ktest::{KTest, KTestObject};

impl Executor<'_> {
    /// Binds the `index`-th symbolic object `st` made (`array`, `size`
    /// bytes) to each of its seeds' `index`-th object; a seed without one
    /// (the program makes more objects than the test had) is dropped.
    pub(crate) fn bind_seeds(
        &mut self,
        st: &mut State,
        index: usize,
        array: ArrayId,
        name: &str,
        size: u32,
    ) {
        if st.seeds.is_empty() {
            return;
        }
        let mut keep = Vec::with_capacity(st.seeds.len());
        for &k in st.seeds.iter() {
            let Some((seed_name, bytes)) = self.config.seeds[k as usize].get(index).cloned() else {
                // An object the seed lacks: zeros (an option seed's files
                // and stdin: a few lines of text), for a seed that may be
                // extended (its assumptions repair them), else the seed goes.
                if let Some(ext) = &mut self.seed_extended[k as usize] {
                    ext.push(array);
                    self.stats.seed_objects_extended += 1;
                    let bytes = if k as usize >= self.first_option_seed {
                        crate::option_seeds::extension_bytes(name, size)
                    } else {
                        vec![0; size as usize]
                    };
                    Rc::make_mut(&mut self.seed_models[k as usize]).set(array, bytes);
                    keep.push(k);
                } else {
                    self.stats.seeds_dropped += 1;
                }
                continue;
            };
            if seed_name != name {
                self.warn_once(format!(
                    "a seed's object {index} is `{seed_name}`, the program made `{name}`: its bytes are used in order"
                ));
            }
            let mut b = bytes;
            b.resize(size as usize, 0);
            Rc::make_mut(&mut self.seed_models[k as usize]).set(array, b);
            // A recorded run knows a file's contents, not the model's
            // metadata of it (device, inode, times): the model's
            // assumptions on its `-stat` object repair what it gave.
            let recorded = self
                .config
                .seed_args
                .get(k as usize)
                .is_some_and(Option::is_some);
            if recorded && name.ends_with("-stat") {
                if let Some(ext) = &mut self.seed_extended[k as usize] {
                    ext.push(array);
                }
            }
            keep.push(k);
        }
        st.seeds = Rc::new(keep);
        if let Some(&k) = st.seeds.first() {
            st.model = Some(self.seed_models[k as usize].clone());
        }
    }

    /// Before `st` assumes `c`: the seeds `c` does not hold under, whose
    /// extended objects are all `c` reads, take those objects' values from a
    /// model of the path with `c` (KLEE patches a seed the same way), when
    /// the seed then satisfies the whole path. Their other objects stay as
    /// the seed gave them; a seed not repaired leaves at `c` as usual.
    pub(crate) fn repair_seeds(&mut self, st: &mut State, c: ExprId) {
        if st.seeds.is_empty() {
            return;
        }
        let reads = self.pool.arrays_in_slice(c).to_vec();
        let broken: Vec<u32> = st
            .seeds
            .iter()
            .copied()
            .filter(|&k| {
                self.seed_extended[k as usize]
                    .as_ref()
                    .is_some_and(|ext| reads.iter().all(|a| ext.contains(a)))
                    && !self.pool.eval(c, &self.seed_models[k as usize]).is_true()
            })
            .collect();
        if broken.is_empty() {
            return;
        }
        let Ok(Some(m)) = self.solve(st, &[c]) else {
            return;
        };
        for k in broken {
            let k = k as usize;
            let mut patched = (*self.seed_models[k]).clone();
            for a in self.seed_extended[k].iter().flatten() {
                if let Some(bytes) = m.get(*a) {
                    patched.set(*a, bytes.to_vec());
                }
            }
            let holds = std::iter::once(c)
                .chain(st.constraints.iter())
                .all(|e| self.pool.eval(e, &patched).is_true());
            if holds {
                self.seed_models[k] = Rc::new(patched);
            }
        }
    }

    /// Keeps the seeds of `st` under which `c` holds (a constraint just
    /// added); the first left is the path's model.
    pub(crate) fn keep_seeds_where(&mut self, st: &mut State, c: ExprId) {
        let before = st.seeds.len();
        let keep: Vec<u32> = st
            .seeds
            .iter()
            .copied()
            .filter(|&k| self.pool.eval(c, &self.seed_models[k as usize]).is_true())
            .collect();
        if keep.len() != before {
            if keep.is_empty() {
                self.stats.seed_paths_left += 1;
            }
            st.seeds = Rc::new(keep);
        }
        if let Some(&k) = st.seeds.first() {
            st.model = Some(self.seed_models[k as usize].clone());
        }
    }
}

/// A path following a seed that runs this many instructions without
/// covering new code (`tail -f` waiting for its file to grow) stops being
/// followed first: it goes on as an ordinary path, and the other seeds and
/// the search get their turn. (Much higher, a few seeds that loop without
/// covering anything can take all of seeding's share of the budget before
/// the other seeds run.)
pub const SEED_STALL_INSTRUCTIONS: u64 = 500_000;

/// The share of the budget (`--max-time`, `--max-instructions`) paths
/// following option seeds may take first; then the search proper begins and
/// they go on as ordinary paths (KLEE's `--seed-time`, as a share). Seeds
/// given by `--seed-file`/`--seed-dir` (a gate run's previous tests) keep
/// the whole budget.
pub const SEEDING_SHARE: f64 = 0.25;

impl Executor<'_> {
    /// Whether seeded paths have had their [`SEEDING_SHARE`] of the budget
    /// (runs whose seeds are all option seeds).
    pub(crate) fn seeding_share_used(&self) -> bool {
        if self.first_option_seed > 0 {
            return false;
        }
        let time = self.config.max_time.is_some_and(|t| {
            self.started.elapsed().as_secs_f64() >= SEEDING_SHARE * t.as_secs_f64()
        });
        let instructions = self
            .config
            .max_instructions
            .is_some_and(|n| self.stats.instructions as f64 >= SEEDING_SHARE * n as f64);
        time || instructions
    }

    /// Releases `st` from its seeds once it has stalled
    /// ([`SEED_STALL_INSTRUCTIONS`]); its model stays.
    pub(crate) fn release_stalled_seeds(&mut self, st: &mut State) {
        if !st.seeds.is_empty() && st.instructions - st.last_new_cover >= SEED_STALL_INSTRUCTIONS {
            st.seeds = Rc::new(Vec::new());
            self.stats.seed_paths_stalled += 1;
        }
    }
}

/// Runs the states that still follow a seed first, newest first (a seed's
/// path depth-first), then asks `inner`.
pub struct SeedFirst {
    pub inner: Box<dyn Searcher>,
    /// States added, newest last; those that no longer follow a seed are
    /// dropped from it when met (a state never takes a seed back).
    stack: Vec<StateId>,
    live: rustc_hash::FxHashSet<StateId>,
}

impl SeedFirst {
    pub fn new(inner: Box<dyn Searcher>) -> SeedFirst {
        SeedFirst {
            inner,
            stack: Vec::new(),
            live: Default::default(),
        }
    }
}

impl Searcher for SeedFirst {
    fn select(&mut self, view: &mut dyn StateView, rng: &mut crate::rng::Rng) -> Option<StateId> {
        while let Some(&id) = self.stack.last() {
            if self.live.contains(&id) && view.info(id).seeded {
                return Some(id);
            }
            self.stack.pop();
        }
        self.inner.select(view, rng)
    }

    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        for r in removed {
            self.live.remove(r);
        }
        for a in added {
            self.live.insert(*a);
            self.stack.push(*a);
        }
        self.inner.update(current, added, removed);
    }
}

impl Executor<'_> {
    /// A path that ended (not stopped early): the recorded seeds it still
    /// carried went its whole way (`seeds_ended`).
    pub(crate) fn note_seeds_ended(&mut self, st: &State) {
        for &k in st.seeds.iter() {
            let k = k as usize;
            if self.is_recorded_seed(k) && !std::mem::replace(&mut self.seed_done[k], true) {
                self.stats.seeds_ended += 1;
            }
        }
    }

    fn is_recorded_seed(&self, k: usize) -> bool {
        self.config.seed_args.get(k).is_some_and(Option::is_some)
    }

    /// Before the run: each recorded seed's run is a test, its inputs as
    /// recorded, outcome early (its native replay runs it to its end and the
    /// suite records what it does). The project's tests then cover what their
    /// runs cover even where the engine's run of one takes longer than the
    /// whole budget (a jq run is hundreds of millions of instructions). They
    /// are written first, not at the halt: each test's `.ktest` is synced, and
    /// hundreds at the halt would take the run past its budget; a seed whose
    /// path ends gets that path's test too when it covers new code.
    pub(crate) fn write_seed_tests(&mut self) {
        for k in 0..self.config.seeds.len() {
            if !self.is_recorded_seed(k) {
                continue;
            }
            if self
                .config
                .max_tests
                .is_some_and(|max| self.stats.tests >= max)
            {
                return;
            }
            self.write_seed_test(k);
        }
    }

    fn write_seed_test(&mut self, k: usize) {
        let ktest = KTest {
            args: self.config.seed_args[k].clone().unwrap_or_default(),
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: self.config.seeds[k]
                .iter()
                .map(|(name, bytes)| KTestObject {
                    name: name.clone(),
                    bytes: bytes.clone(),
                })
                .collect(),
        };
        let tc = TestCase {
            ktest,
            outcome: TestOutcome::Early {
                reason: "a seed from the project's tests: its inputs as recorded, written before the engine ran it".into(),
                no_end_within: None,
            },
            covered_new: false,
            instructions_covered: self.coverage.covered_instructions(),
            first_lines: Vec::new(),
            elapsed_s: self.started.elapsed().as_secs_f64(),
            stdout: Vec::new(),
            completed_after: None,
        };
        self.stats.tests += 1;
        self.stats.seed_tests += 1;
        self.sink.event(Event::Test(&tc));
    }
}
