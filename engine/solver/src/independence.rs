//! Constraint independence (paper §3.3, from EXE).
//!
//! The assertions are split into groups that read disjoint memory,
//! transitively (union-find). As in KLEE, the unit is the **byte**: a read
//! of an array's root at a constant index (`select(root, 7)`) is that one
//! byte; any other use of the array (a symbolic index, a read through
//! stores) stands for the whole array and joins all its bytes. A buffer of
//! symbolic input whose bytes are tested one at a time (a parser, a
//! command-line argument) thus splits into one group per byte, and each
//! group is posed to the inner solver as its own query, with the arrays
//! it reads, so a group that recurs unchanged (typically the parts of a
//! path condition a new branch does not touch, and the same question
//! about one byte on many paths) is answered by the caches below. The
//! query is Unsat if any group is Unsat; otherwise the groups' models are
//! combined byte by byte (each byte from the group that reads it, a whole
//! array from its group), and bytes no assertion reads are 0.
//!
//! * What each assertion reads is computed once per assertion (a walk of
//!   its DAG, pruned at subterms that read no array) and memoised.
//! * Constant `true` assertions are dropped, a constant `false` one makes
//!   the query Unsat; a non-constant assertion that reads no array (only
//!   possible in an unsimplified pool) is decided by [`ExprPool::eval`].
//! * Groups are solved in order of their latest assertion, latest first:
//!   the executor appends the new branch condition last, so the group
//!   most likely to be Unsat is tried first and an Unsat answer skips the
//!   rest.
//! * Told that the leading assertions hold under a model the caller has
//!   ([`Solver::check_known`]: an executor's path condition and the model
//!   it keeps for the state), a group made only of those assertions takes
//!   its bytes from that model and is not asked below: a branch then costs
//!   the one group its condition joins, not one query per group of the
//!   whole path condition, whose number grows with the path.
//! * An `Unknown` group answer makes the query `Unknown`, unless another
//!   group is Unsat (then the query is Unsat).
//! * The time limit applies per group query, so one query can take up to
//!   (number of groups) × limit.
//!
//! Cost: `O(total bytes read by the assertions)` hash/union-find steps,
//! plus the first walk of each new assertion.

use crate::{
    project, validate, Known, LayerCounters, LayerStats, SatResult, Solver, SolverError,
    SolverStats,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};
use symtest_expr::{ArrayId, Assignment, ExprId, ExprPool, Node};

/// What the independence layer did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndependenceStats {
    /// Group queries posed to the inner solver.
    pub group_queries: u64,
    /// Queries that split into two or more groups.
    pub split_queries: u64,
    /// Largest number of groups of one query.
    pub max_groups: u64,
    /// Assertions dropped as constant or array-free.
    pub dropped: u64,
    /// Groups of known assertions whose model came from the caller's
    /// ([`Solver::check_known`]) instead of a group query.
    pub known_groups: u64,
}

/// Splits queries into independent groups (see the module docs).
pub struct IndependentSolver<S: Solver> {
    inner: S,
    /// Per assertion: the elements it reads (for the pool `pool_uid`).
    footprints: FxHashMap<ExprId, Arc<[Elem]>>,
    pool_uid: u64,
    counters: LayerCounters,
    stats: IndependenceStats,
    /// Per-query working storage, kept between queries so that a query
    /// allocates (and rehashes) nothing once the largest has been seen.
    scratch: Scratch,
}

/// The union-find and grouping state of one query (cleared, not freed).
#[derive(Default)]
struct Scratch {
    /// (assertion, position) of the assertions not decided outright.
    live: Vec<(ExprId, usize)>,
    /// Element -> local number.
    local: FxHashMap<Elem, u32>,
    /// Local number -> element.
    order: Vec<Elem>,
    parent: Vec<u32>,
    /// Per live assertion: the local number of its first element.
    first_of: Vec<u32>,
    whole_of: FxHashMap<ArrayId, u32>,
    group_of_root: FxHashMap<u32, usize>,
    /// Per element (local number): its group.
    elem_group: Vec<usize>,
    /// Groups in use are `groups[..used]`; the rest keep their capacity.
    groups: Vec<Group>,
    /// Order in which the groups are posed.
    idx: Vec<usize>,
}

impl Scratch {
    fn clear(&mut self) {
        self.live.clear();
        self.local.clear();
        self.order.clear();
        self.parent.clear();
        self.first_of.clear();
        self.whole_of.clear();
        self.group_of_root.clear();
        self.elem_group.clear();
        self.idx.clear();
    }

    /// Groups the elements by union-find root (numbered in order of first
    /// appearance) and puts each live assertion in its group; how many
    /// groups are in use.
    fn form_groups(&mut self) -> usize {
        let mut used = 0usize;
        for i in 0..self.order.len() {
            let r = find(&mut self.parent, i as u32);
            let g = match self.group_of_root.get(&r) {
                Some(&g) => g,
                None => {
                    let g = self.new_group(&mut used);
                    self.group_of_root.insert(r, g);
                    g
                }
            };
            self.groups[g].arrays.push(self.order[i].array);
            self.elem_group.push(g);
        }
        for k in 0..self.live.len() {
            let (e, pos) = self.live[k];
            let r = find(&mut self.parent, self.first_of[k]);
            let g = &mut self.groups[self.group_of_root[&r]];
            g.assertions.push(e);
            g.last = g.last.max(pos);
        }
        for g in self.groups[..used].iter_mut() {
            g.assertions.sort_unstable();
            g.assertions.dedup();
            g.arrays.sort_unstable();
            g.arrays.dedup();
        }
        used
    }

    /// A new empty group (reusing a previous query's storage); its index.
    fn new_group(&mut self, used: &mut usize) -> usize {
        if *used == self.groups.len() {
            self.groups.push(Group::default());
        }
        let g = &mut self.groups[*used];
        g.assertions.clear();
        g.arrays.clear();
        g.last = 0;
        g.model = None;
        g.known = false;
        *used += 1;
        *used - 1
    }
}

#[derive(Default)]
struct Group {
    assertions: Vec<ExprId>,
    arrays: Vec<ArrayId>,
    /// Largest position in the query of one of its assertions.
    last: usize,
    model: Option<Assignment>,
    /// Every assertion is among the caller's known ones: the model is
    /// the caller's.
    known: bool,
}

/// What an assertion reads: one byte of an array (a constant-index read of
/// the array's root) or, with `byte == WHOLE`, the whole array (any other
/// use: a symbolic index, a read through stores).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
struct Elem {
    array: ArrayId,
    byte: u64,
}

/// The `byte` of an [`Elem`] standing for the whole array.
const WHOLE: u64 = u64::MAX;

/// Above this many memoised footprints the memo is cleared.
const FOOTPRINT_MEMO_LIMIT: usize = 1 << 20;

/// The elements `root` reads, sorted and deduplicated.
fn compute_footprint(pool: &ExprPool, root: ExprId) -> Vec<Elem> {
    let mut out = Vec::new();
    let mut seen: FxHashSet<ExprId> = FxHashSet::default();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        if pool.arrays_in_slice(e).is_empty() || !seen.insert(e) {
            continue;
        }
        match *pool.node(e) {
            Node::Select { array, index } => match (pool.node(array), pool.as_const(index)) {
                (&Node::Array(a), Some(i)) => out.push(Elem {
                    array: a,
                    byte: i.to_u64(),
                }),
                _ => stack.extend([array, index]),
            },
            Node::Array(a) => out.push(Elem {
                array: a,
                byte: WHOLE,
            }),
            ref n => stack.extend(n.children()),
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[rb as usize] = ra;
    }
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let p = parent[x as usize];
        parent[x as usize] = parent[p as usize];
        x = p;
    }
    x
}

impl<S: Solver> IndependentSolver<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        IndependentSolver {
            inner,
            footprints: FxHashMap::default(),
            pool_uid: 0,
            counters: LayerCounters::default(),
            stats: IndependenceStats::default(),
            scratch: Scratch::default(),
        }
    }

    /// The wrapped solver.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The wrapped solver, mutably.
    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Unwraps the inner solver.
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// What the layer did so far.
    pub fn independence_stats(&self) -> IndependenceStats {
        self.stats.clone()
    }

    /// The elements `e` reads (memoised).
    fn footprint(&mut self, pool: &ExprPool, e: ExprId) -> Arc<[Elem]> {
        if let Some(fp) = self.footprints.get(&e) {
            return fp.clone();
        }
        if self.footprints.len() >= FOOTPRINT_MEMO_LIMIT {
            self.footprints.clear();
        }
        let fp: Arc<[Elem]> = compute_footprint(pool, e).into();
        self.footprints.insert(e, fp.clone());
        fp
    }

    fn check_inner(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
        known: Option<Known<'_>>,
    ) -> Result<SatResult, SolverError> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let r = self.check_with(&mut scratch, pool, assertions, arrays, known);
        self.scratch = scratch;
        r
    }

    fn check_with(
        &mut self,
        sc: &mut Scratch,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
        known: Option<Known<'_>>,
    ) -> Result<SatResult, SolverError> {
        validate(pool, assertions, arrays)?;
        if pool.uid() != self.pool_uid {
            self.footprints.clear();
            self.pool_uid = pool.uid();
        }
        if let Some(answer) = self.decide_outright(sc, pool, assertions, arrays) {
            self.counters.answered += 1;
            return Ok(answer);
        }
        self.join_elements(sc, pool);
        let used = sc.form_groups();
        let groups = &mut sc.groups[..used];
        let n = groups.len() as u64;
        if n > 1 {
            self.stats.split_queries += 1;
        }
        self.stats.max_groups = self.stats.max_groups.max(n);
        sc.idx.extend(0..groups.len());
        sc.idx.sort_by_key(|&g| std::cmp::Reverse(groups[g].last));
        if let Some(answer) = self.solve_groups(pool, groups, &sc.idx, known)? {
            return Ok(answer);
        }
        let model = combine(pool, arrays, &sc.order, &sc.elem_group, groups, known);
        Ok(SatResult::Sat(model))
    }

    /// Drops the constant `true` assertions and decides the array-free
    /// ones, leaving the others in `sc.live` as (assertion, position);
    /// the answer when that decides the query (one is false, or none is
    /// left).
    fn decide_outright(
        &mut self,
        sc: &mut Scratch,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Option<SatResult> {
        let empty = Assignment::new();
        for (pos, &e) in assertions.iter().enumerate() {
            let holds = match pool.as_const(e) {
                Some(b) => Some(b.is_true()),
                None if pool.arrays_in_slice(e).is_empty() => Some(pool.eval_bool(e, &empty)),
                None => None,
            };
            match holds {
                Some(true) => self.stats.dropped += 1,
                Some(false) => return Some(SatResult::Unsat),
                None => sc.live.push((e, pos)),
            }
        }
        sc.live
            .is_empty()
            .then(|| SatResult::Sat(project(pool, &empty, arrays)))
    }

    /// Union-find over the elements the live assertions read (array bytes
    /// at constant indices, whole arrays), numbered locally; a whole-array
    /// element joins every byte of its array.
    fn join_elements(&mut self, sc: &mut Scratch, pool: &ExprPool) {
        for k in 0..sc.live.len() {
            let fp = self.footprint(pool, sc.live[k].0);
            let mut first: Option<u32> = None;
            for &el in fp.iter() {
                let i = *sc.local.entry(el).or_insert_with(|| {
                    sc.order.push(el);
                    sc.parent.push(sc.parent.len() as u32);
                    (sc.parent.len() - 1) as u32
                });
                match first {
                    None => first = Some(i),
                    Some(f) => union(&mut sc.parent, f, i),
                }
            }
            sc.first_of
                .push(first.expect("a live assertion reads an array"));
        }
        for (i, el) in sc.order.iter().enumerate() {
            if el.byte == WHOLE {
                sc.whole_of.insert(el.array, i as u32);
            }
        }
        if !sc.whole_of.is_empty() {
            for (i, el) in sc.order.iter().enumerate() {
                if let Some(&w) = sc.whole_of.get(&el.array) {
                    union(&mut sc.parent, w, i as u32);
                }
            }
        }
    }

    /// Poses each group not made of known assertions to the inner solver,
    /// in the order `idx`, keeping its model; the query's answer when a
    /// group is Unsat, else when one is Unknown.
    fn solve_groups(
        &mut self,
        pool: &ExprPool,
        groups: &mut [Group],
        idx: &[usize],
        known: Option<Known<'_>>,
    ) -> Result<Option<SatResult>, SolverError> {
        let mut unknown: Option<String> = None;
        for &g in idx {
            let grp = &mut groups[g];
            if let Some(k) = known.filter(|k| grp.last < k.prefix) {
                debug_assert!(
                    grp.assertions.iter().all(|&a| pool.eval_bool(a, k.model)),
                    "a known assertion does not hold under the known model"
                );
                grp.known = true;
                self.stats.known_groups += 1;
                continue;
            }
            self.stats.group_queries += 1;
            match self.inner.check(pool, &grp.assertions, &grp.arrays)? {
                SatResult::Sat(m) => grp.model = Some(m),
                SatResult::Unsat => return Ok(Some(SatResult::Unsat)),
                SatResult::Unknown(why) => {
                    unknown.get_or_insert(why);
                }
            }
        }
        Ok(unknown.map(SatResult::Unknown))
    }
}

/// The combined model: each byte from the model of the group that reads it
/// (a whole array from its group's model), the rest zeros. `arrays` is
/// sorted (the caller's, deduplicated), so a byte finds its buffer by
/// binary search.
fn combine(
    pool: &ExprPool,
    arrays: &[ArrayId],
    order: &[Elem],
    elem_group: &[usize],
    groups: &[Group],
    known: Option<Known<'_>>,
) -> Assignment {
    let mut bufs: Vec<(ArrayId, Vec<u8>)> = arrays
        .iter()
        .map(|&a| (a, vec![0u8; pool.array_info(a).size as usize]))
        .collect();
    let sorted = bufs.windows(2).all(|w| w[0].0 < w[1].0);
    if !sorted {
        bufs.sort_by_key(|&(a, _)| a);
        bufs.dedup_by_key(|&mut (a, _)| a);
    }
    for (i, el) in order.iter().enumerate() {
        let Ok(slot) = bufs.binary_search_by_key(&el.array, |&(a, _)| a) else {
            continue;
        };
        let bytes = &mut bufs[slot].1;
        let grp = &groups[elem_group[i]];
        let m = match (grp.known, known, grp.model.as_ref()) {
            (true, Some(k), _) => k.model,
            (_, _, Some(m)) => m,
            _ => continue,
        };
        let src = m.bytes(el.array);
        if el.byte == WHOLE {
            let n = src.len().min(bytes.len());
            bytes[..n].copy_from_slice(&src[..n]);
        } else if let (Some(slot), Some(&v)) =
            (bytes.get_mut(el.byte as usize), src.get(el.byte as usize))
        {
            *slot = v;
        }
    }
    let mut model = Assignment::new();
    for (a, bytes) in bufs {
        model.set(a, bytes);
    }
    model
}

impl<S: Solver> IndependentSolver<S> {
    /// [`IndependentSolver::check_inner`], counted in the layer's stats.
    fn check_timed(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
        known: Option<Known<'_>>,
    ) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        self.counters.queries += 1;
        let res = self.check_inner(pool, assertions, arrays, known);
        self.counters.time += start.elapsed();
        res
    }
}

impl<S: Solver> Solver for IndependentSolver<S> {
    fn check(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        self.check_timed(pool, assertions, arrays, None)
    }

    fn check_known(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
        known: Known<'_>,
    ) -> Result<SatResult, SolverError> {
        self.check_timed(pool, assertions, arrays, Some(known))
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
    }

    /// The inner solver's counters (this layer answers nothing from a
    /// cache).
    fn stats(&self) -> SolverStats {
        self.inner.stats()
    }

    fn layer_stats(&self) -> Vec<LayerStats> {
        self.counters
            .stacked("independence", self.inner.layer_stats())
    }
}
