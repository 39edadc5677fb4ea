//! Tests of the optimization chain: the layers answer what they should,
//! and no combination of layers changes an answer (property test over
//! generated families of related queries). Models are always checked with
//! the solver-independent `ExprPool::eval`.

use crate::{
    build_chain, BitwuzlaSolver, CachingSolver, CexCachingSolver, IndependentSolver, LayerSet,
    LayerStats, SatResult, Solver, SolverError, SolverStats,
};
use std::time::{Duration, Instant};
use symtest_expr::{ArrayId, Assignment, BinOp, Bits, CmpOp, ExprId, ExprPool};

// ----- generator -----

/// xorshift64 (deterministic).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u64) as usize]
    }
}

/// Bytes per generated array (a power of two: symbolic indices are masked
/// into range, because `eval` reads bytes past the end as 0 while the
/// backend leaves them free).
const SIZE: u32 = 4;

/// A byte of one of `arrs`, at a constant or masked symbolic index.
fn byte(p: &mut ExprPool, rng: &mut Rng, arrs: &[ArrayId], depth: u32) -> ExprId {
    let a = rng.pick(arrs);
    let idx = if depth > 0 && rng.below(5) == 0 {
        let i = byte(p, rng, arrs, depth - 1);
        let m = p.const_u64(8, (SIZE - 1) as u64);
        let i = p.and(i, m);
        p.zext(i, 32)
    } else {
        p.const_u64(32, rng.below(SIZE as u64))
    };
    let arr = p.array(a);
    p.select(arr, idx)
}

/// A random bit-vector expression of width `w` over `arrs`.
fn expr(p: &mut ExprPool, rng: &mut Rng, arrs: &[ArrayId], w: u32, depth: u32) -> ExprId {
    if depth == 0 || rng.below(3) == 0 {
        if rng.below(4) == 0 {
            return p.constant(Bits::from_u64(w, rng.next() >> rng.below(64)));
        }
        let b = byte(p, rng, arrs, depth);
        return match w.cmp(&8) {
            std::cmp::Ordering::Equal => b,
            std::cmp::Ordering::Less => p.extract(b, rng.below((9 - w) as u64) as u32, w),
            std::cmp::Ordering::Greater if rng.below(2) == 0 => p.sext(b, w),
            std::cmp::Ordering::Greater => p.zext(b, w),
        };
    }
    let d = depth - 1;
    match rng.below(8) {
        0..=2 => {
            let op = BinOp::ALL[rng.below(BinOp::ALL.len() as u64) as usize];
            let x = expr(p, rng, arrs, w, d);
            let y = expr(p, rng, arrs, w, d);
            p.bin(op, x, y)
        }
        3 => {
            let x = expr(p, rng, arrs, w, d);
            p.not(x)
        }
        4 => {
            let c = atom_of(p, rng, arrs, d);
            let t = expr(p, rng, arrs, w, d);
            let e = expr(p, rng, arrs, w, d);
            p.ite(c, t, e)
        }
        5 if w > 1 => {
            let lw = 1 + rng.below((w - 1) as u64) as u32;
            let h = expr(p, rng, arrs, w - lw, d);
            let l = expr(p, rng, arrs, lw, d);
            p.concat(h, l)
        }
        6 if w == 8 => {
            // A read through stores at masked indices.
            let mut arr = p.array(rng.pick(arrs));
            let m = p.const_u64(8, (SIZE - 1) as u64);
            for _ in 0..1 + rng.below(2) {
                let iv = expr(p, rng, arrs, 8, d);
                let iv = p.and(iv, m);
                let i = p.zext(iv, 32);
                let v = expr(p, rng, arrs, 8, d);
                arr = p.store(arr, i, v);
            }
            let jv = expr(p, rng, arrs, 8, d);
            let jv = p.and(jv, m);
            let j = p.zext(jv, 32);
            p.select(arr, j)
        }
        _ => {
            let x = expr(p, rng, arrs, w, d);
            let y = expr(p, rng, arrs, w, d);
            p.add(x, y)
        }
    }
}

/// A random width-1 constraint over `arrs`.
fn atom_of(p: &mut ExprPool, rng: &mut Rng, arrs: &[ArrayId], depth: u32) -> ExprId {
    match rng.below(6) {
        // Small-domain equalities make contradictions likely.
        0 | 1 => {
            let b = byte(p, rng, arrs, 0);
            let c = p.const_u64(8, rng.below(4));
            if rng.below(3) == 0 {
                p.ne(b, c)
            } else {
                p.eq(b, c)
            }
        }
        2 | 3 => {
            let w = rng.pick(&[8, 16]);
            let e = expr(p, rng, arrs, w, depth);
            let c = p.constant(Bits::from_u64(w, rng.next() >> rng.below(64)));
            let op = CmpOp::ALL[rng.below(CmpOp::ALL.len() as u64) as usize];
            p.cmp(op, e, c)
        }
        4 => {
            let w = rng.pick(&[1, 8, 16]);
            let x = expr(p, rng, arrs, w, depth);
            let y = expr(p, rng, arrs, w, depth);
            let op = CmpOp::ALL[rng.below(CmpOp::ALL.len() as u64) as usize];
            p.cmp(op, x, y)
        }
        _ => {
            let x = atom_of(p, rng, arrs, depth.saturating_sub(1));
            let y = atom_of(p, rng, arrs, depth.saturating_sub(1));
            if rng.below(2) == 0 {
                p.bool_or(x, y)
            } else {
                p.bool_and(x, y)
            }
        }
    }
}

/// A query as the executor poses it: assertions and every array they
/// read, sometimes plus an unrelated one.
#[derive(Clone, Debug)]
struct Query {
    asserts: Vec<ExprId>,
    arrays: Vec<ArrayId>,
}

fn arrays_of(p: &ExprPool, asserts: &[ExprId]) -> Vec<ArrayId> {
    let mut v: Vec<ArrayId> = asserts
        .iter()
        .flat_map(|&e| p.arrays_in_slice(e).iter().copied())
        .collect();
    v.sort();
    v.dedup();
    v
}

struct Gen {
    rng: Rng,
    arrays: Vec<ArrayId>,
    /// Array clusters atoms are drawn over (some overlap, so independence
    /// has transitive unions to find).
    clusters: Vec<Vec<ArrayId>>,
}

impl Gen {
    fn new(p: &mut ExprPool, seed: u64, n_arrays: usize) -> Gen {
        let arrays: Vec<ArrayId> = (0..n_arrays)
            .map(|i| p.new_array(&format!("in{i}"), SIZE))
            .collect();
        let mut clusters: Vec<Vec<ArrayId>> = arrays.iter().map(|&a| vec![a]).collect();
        for w in arrays.windows(2).step_by(2) {
            clusters.push(w.to_vec());
        }
        Gen {
            rng: Rng(0x2545_f491_4f6c_dd1d ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            arrays,
            clusters,
        }
    }

    fn atom(&mut self, p: &mut ExprPool) -> ExprId {
        let c = self.clusters[self.rng.below(self.clusters.len() as u64) as usize].clone();
        let depth = 1 + self.rng.below(2) as u32;
        let mut e = atom_of(p, &mut self.rng, &c, depth);
        if !p.simplify() && self.rng.below(12) == 0 {
            // Array-free but not constant (unsimplified pools only).
            let x = p.constant(Bits::from_u64(8, self.rng.below(4)));
            let y = p.constant(Bits::from_u64(8, self.rng.below(4)));
            let k = p.ule(x, y);
            e = p.bool_and(k, e);
            if self.rng.below(2) == 0 {
                e = k;
            }
        }
        e
    }

    fn finish(&mut self, p: &mut ExprPool, mut asserts: Vec<ExprId>) -> Query {
        // Order and duplicates must not matter; constants get dropped.
        if asserts.len() > 1 && self.rng.below(4) == 0 {
            let i = self.rng.below(asserts.len() as u64) as usize;
            asserts.push(asserts[i]);
            let j = self.rng.below(asserts.len() as u64) as usize;
            asserts.swap(0, j);
        }
        if self.rng.below(10) == 0 {
            asserts.push(p.true_());
        }
        let mut arrays = arrays_of(p, &asserts);
        if self.rng.below(3) == 0 {
            arrays = self.arrays.clone();
        }
        Query { asserts, arrays }
    }

    /// A random walk over subsets/supersets of a small universe of atoms.
    fn walk_family(&mut self, p: &mut ExprPool, steps: usize, out: &mut Vec<Query>) {
        let universe: Vec<ExprId> = (0..6 + self.rng.below(6)).map(|_| self.atom(p)).collect();
        let mut cur: Vec<ExprId> = Vec::new();
        for _ in 0..steps {
            match self.rng.below(8) {
                0 | 1 => cur.push(self.rng.pick(&universe)),
                2 if !cur.is_empty() => {
                    let i = self.rng.below(cur.len() as u64) as usize;
                    cur.remove(i);
                }
                3 => {} // a repeat
                4 => cur.retain(|_| self.rng.below(3) != 0),
                5 => {
                    let a = self.rng.pick(&universe);
                    cur.push(p.not(a));
                }
                6 => cur.push(self.atom(p)),
                _ => {
                    cur = universe
                        .iter()
                        .copied()
                        .filter(|_| self.rng.below(2) == 0)
                        .collect();
                }
            }
            cur.sort();
            cur.dedup();
            let q = self.finish(p, cur.clone());
            out.push(q);
        }
    }

    /// Executor-like: a path condition grows by a branch condition or its
    /// negation (whichever `oracle` finds feasible); each branch asks
    /// `pc ∧ c` and `pc ∧ ¬c`.
    fn path_family(
        &mut self,
        p: &mut ExprPool,
        oracle: &mut dyn Solver,
        steps: usize,
        out: &mut Vec<Query>,
    ) {
        let mut pc: Vec<ExprId> = Vec::new();
        for _ in 0..steps {
            let c = self.atom(p);
            let nc = p.not(c);
            let mut both = Vec::new();
            for cond in [c, nc] {
                let mut a = pc.clone();
                a.push(cond);
                let q = self.finish(p, a);
                let sat = oracle.check(p, &q.asserts, &q.arrays).unwrap().is_sat();
                both.push(sat);
                out.push(q);
            }
            if both[0] && (!both[1] || self.rng.below(2) == 0) {
                pc.push(c);
            } else if both[1] {
                pc.push(nc);
            }
        }
    }
}

/// `families` walk families and `paths` path families of `steps` queries.
fn workload(
    p: &mut ExprPool,
    seed: u64,
    n_arrays: usize,
    families: usize,
    paths: usize,
    steps: usize,
) -> Vec<Query> {
    let mut g = Gen::new(p, seed, n_arrays);
    let mut oracle = BitwuzlaSolver::new().unwrap();
    let mut out = Vec::new();
    for _ in 0..families {
        g.walk_family(p, steps, &mut out);
    }
    for _ in 0..paths {
        g.path_family(p, &mut oracle, steps, &mut out);
    }
    out
}

// ----- checking -----

fn all_configs() -> Vec<LayerSet> {
    (0..8)
        .map(|bits| LayerSet {
            independence: bits & 1 != 0,
            cex: bits & 2 != 0,
            cache: bits & 4 != 0,
            ..LayerSet::none()
        })
        .collect()
}

fn chain(layers: &LayerSet) -> Box<dyn Solver> {
    build_chain(layers, Box::new(BitwuzlaSolver::new().unwrap()))
}

/// Checks a Sat model: full-size bytes for every requested array, and
/// every assertion true under `eval`.
fn check_model(p: &ExprPool, q: &Query, m: &Assignment, what: &str) {
    for &a in &q.arrays {
        assert_eq!(m.bytes(a).len(), SIZE as usize, "{what}: model size");
    }
    for &e in &q.asserts {
        assert!(p.eval_bool(e, m), "{what}: model violates {}", p.display(e));
    }
}

/// Runs `queries` through every configuration; all must agree on
/// satisfiability and give valid models. Returns each configuration's
/// layer stats.
fn run_all_configs(p: &ExprPool, queries: &[Query]) -> Vec<(LayerSet, Vec<LayerStats>)> {
    let configs = all_configs();
    let mut reference: Vec<bool> = Vec::new();
    let mut out = Vec::new();
    for layers in &configs {
        let mut s = chain(layers);
        for (i, q) in queries.iter().enumerate() {
            let what = format!("[{layers}] query {i}");
            let sat = match s.check(p, &q.asserts, &q.arrays).unwrap() {
                SatResult::Sat(m) => {
                    check_model(p, q, &m, &what);
                    true
                }
                SatResult::Unsat => false,
                SatResult::Unknown(why) => panic!("{what}: unknown ({why})"),
            };
            if reference.len() == i {
                reference.push(sat);
            }
            assert_eq!(sat, reference[i], "{what}: answer differs from `none`");
        }
        out.push((*layers, s.layer_stats()));
    }
    out
}

fn layer<'a>(stats: &'a [LayerStats], name: &str) -> &'a LayerStats {
    stats.iter().find(|l| l.name == name).unwrap()
}

/// The invariant: removing any layer changes speed, never answers.
#[test]
fn every_layer_combination_gives_the_same_answers() {
    for (seed, simplify) in [(1u64, true), (2, false), (3, true)] {
        let mut p = ExprPool::new();
        p.set_simplify(simplify);
        let queries = workload(&mut p, seed, 5, 6, 4, 30);
        let sats = {
            let mut s = BitwuzlaSolver::new().unwrap();
            queries
                .iter()
                .filter(|q| s.check(&p, &q.asserts, &q.arrays).unwrap().is_sat())
                .count()
        };
        // The workload must exercise both answers.
        assert!(
            sats > queries.len() / 5 && sats < queries.len() * 9 / 10,
            "seed {seed}: {sats}/{} sat",
            queries.len()
        );
        let results = run_all_configs(&p, &queries);
        let n = queries.len() as u64;
        for (layers, stats) in &results {
            // Every configuration saw every query at its top layer.
            assert_eq!(stats[0].queries, n, "[{layers}]");
            let backend = layer(stats, "bitwuzla");
            if layers.cex || layers.cache {
                assert!(backend.queries < n, "[{layers}] caches never hit");
            }
            if *layers == LayerSet::none() {
                assert_eq!(backend.queries, n);
            }
            if layers.cex {
                let cex = layer(stats, "cex");
                assert!(cex.answered > 0, "[{layers}] cex never answered");
            }
            if layers.independence {
                // More group queries than queries: splitting happened.
                let below = &stats[1];
                assert!(below.queries > n, "[{layers}] nothing was split");
            }
        }
    }
}

// ----- layer unit tests -----

fn read32(p: &mut ExprPool, a: ArrayId) -> ExprId {
    let arr = p.array(a);
    let mut v: Option<ExprId> = None;
    for i in 0..4 {
        let idx = p.const_u64(32, i);
        let b = p.select(arr, idx);
        v = Some(match v {
            None => b,
            Some(lo) => p.concat(b, lo),
        });
    }
    v.unwrap()
}

struct Fixture {
    p: ExprPool,
    a: ArrayId,
    b: ArrayId,
    x: ExprId,
    y: ExprId,
}

fn fixture() -> Fixture {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 4);
    let b = p.new_array("b", 4);
    let x = read32(&mut p, a);
    let y = read32(&mut p, b);
    Fixture { p, a, b, x, y }
}

fn expect_sat(
    s: &mut dyn Solver,
    p: &ExprPool,
    asserts: &[ExprId],
    arrays: &[ArrayId],
) -> Assignment {
    match s.check(p, asserts, arrays).unwrap() {
        SatResult::Sat(m) => {
            for &a in arrays {
                assert_eq!(m.bytes(a).len(), p.array_info(a).size as usize);
            }
            for &e in asserts {
                assert!(p.eval_bool(e, &m), "model violates {}", p.display(e));
            }
            m
        }
        other => panic!("expected Sat, got {other:?}"),
    }
}

fn backend_queries(s: &dyn Solver) -> u64 {
    s.layer_stats().last().unwrap().queries
}

#[test]
fn cex_answers_subsets_of_solved_and_supersets_of_unsat_sets() {
    let Fixture { mut p, a, b, x, y } = fixture();
    let (c10, c5, c20, c3) = (
        p.const_u64(32, 10),
        p.const_u64(32, 5),
        p.const_u64(32, 20),
        p.const_u64(32, 3),
    );
    let x_lt10 = p.ult(x, c10);
    let x_gt5 = p.ugt(x, c5);
    let y_eq3 = p.eq(y, c3);
    let x_gt20 = p.ugt(x, c20);
    let mut s = CexCachingSolver::new(BitwuzlaSolver::new().unwrap());
    // {x<10, x>5, y=3}: solved by the backend.
    expect_sat(&mut s, &p, &[x_lt10, x_gt5, y_eq3], &[a, b]);
    assert_eq!(backend_queries(&s), 1);
    // Subsets are answered by the superset's solution.
    expect_sat(&mut s, &p, &[x_gt5, x_lt10], &[a]);
    expect_sat(&mut s, &p, &[y_eq3], &[b]);
    expect_sat(&mut s, &p, &[y_eq3, x_lt10], &[a, b]);
    assert_eq!(backend_queries(&s), 1);
    assert_eq!(s.cex_stats().sat_superset_hits, 3);
    // The same set again (other order, duplicates): exact hit.
    expect_sat(&mut s, &p, &[y_eq3, x_gt5, x_lt10, y_eq3], &[a, b]);
    assert_eq!(s.cex_stats().exact_hits, 1);
    // {x<10, x>20} is unsat; every superset is unsat without the backend.
    assert_eq!(
        s.check(&p, &[x_gt20, x_lt10], &[a]).unwrap(),
        SatResult::Unsat
    );
    assert_eq!(backend_queries(&s), 2);
    assert_eq!(
        s.check(&p, &[x_gt20, y_eq3, x_lt10, x_gt5], &[a, b])
            .unwrap(),
        SatResult::Unsat
    );
    assert_eq!(backend_queries(&s), 2);
    assert_eq!(s.cex_stats().unsat_subset_hits, 1);
    let ls = s.layer_stats();
    assert_eq!(ls[0].name, "cex");
    assert_eq!((ls[0].queries, ls[0].answered), (7, 5));
    assert_eq!((ls[1].name, ls[1].queries), ("bitwuzla", 2));
    // `stats` describes the backend, with the hits in `cache_hits`.
    let st = s.stats();
    assert_eq!((st.queries, st.cache_hits), (2, 5));
}

#[test]
fn cex_tries_subset_and_recent_solutions() {
    let Fixture { mut p, a, b, x, y } = fixture();
    let c10 = p.const_u64(32, 10);
    let x_lt10 = p.ult(x, c10);
    let mut s = CexCachingSolver::new(BitwuzlaSolver::new().unwrap());
    let m = expect_sat(&mut s, &p, &[x_lt10], &[a]);
    let xv = p.eval(x, &m).to_u64();
    // A constraint the subset's solution happens to satisfy.
    let cx = p.const_u64(32, xv);
    let x_le = p.ule(x, cx);
    let m2 = expect_sat(&mut s, &p, &[x_lt10, x_le], &[a]);
    assert_eq!(p.eval(x, &m2).to_u64(), xv);
    assert_eq!(s.cex_stats().subset_solution_hits, 1);
    assert_eq!(backend_queries(&s), 1);
    // Now cached exactly.
    expect_sat(&mut s, &p, &[x_le, x_lt10], &[a]);
    assert_eq!(s.cex_stats().exact_hits, 1);
    // Neither subset nor superset of a cached set, but a recent solution
    // fits (y reads as 0 in it; the model still has all of `b`).
    let c100 = p.const_u64(32, 100);
    let (x_lt100, y_lt100) = (p.ult(x, c100), p.ult(y, c100));
    expect_sat(&mut s, &p, &[x_lt100, y_lt100], &[a, b]);
    assert_eq!(s.cex_stats().recent_solution_hits, 1);
    assert_eq!(backend_queries(&s), 1);
    // A constraint the guesses violate reaches the backend.
    let cx1 = p.const_u64(32, xv + 1);
    let x_ne = p.eq(x, cx1);
    let m3 = expect_sat(&mut s, &p, &[x_lt100, x_ne], &[a]);
    assert_eq!(p.eval(x, &m3).to_u64(), xv + 1);
    assert_eq!(backend_queries(&s), 2);
    assert_eq!(s.cex_stats().misses, 2);
}

#[test]
fn cex_memory_is_bounded_and_pools_do_not_mix() {
    let Fixture { mut p, a, x, .. } = fixture();
    let mut s = CexCachingSolver::with_capacity(BitwuzlaSolver::new().unwrap(), 5, 8);
    for k in 0..20u64 {
        let c = p.const_u64(32, k * 1000);
        let e = p.eq(x, c);
        let m = expect_sat(&mut s, &p, &[e], &[a]);
        assert_eq!(p.eval(x, &m).to_u64(), k * 1000);
        assert!(s.len() <= 5);
    }
    assert_eq!(s.cex_stats().evictions, 15);
    // Bounded by key elements too: 3 sets of 3 ids exceed 8.
    for k in 0..3u64 {
        let cs: Vec<ExprId> = (0..3)
            .map(|j| {
                let c = p.const_u64(32, 100_000 + 10 * k + j);
                p.ne(x, c)
            })
            .collect();
        expect_sat(&mut s, &p, &cs, &[a]);
    }
    assert!(s.len() <= 2, "{} entries", s.len());
    // A query over another pool never sees this pool's entries.
    let mut q = ExprPool::new();
    let qa = q.new_array("a", 4);
    let qx = read32(&mut q, qa);
    let c = q.const_u64(32, 7);
    let e = q.eq(qx, c);
    let m = expect_sat(&mut s, &q, &[e], &[qa]);
    assert_eq!(q.eval(qx, &m).to_u64(), 7);
    assert_eq!(s.len(), 1);
}

#[test]
fn independence_splits_and_reuses_groups() {
    let Fixture { mut p, a, b, x, y } = fixture();
    let c = p.new_array("c", 3);
    let (c7, c9, c1) = (p.const_u64(32, 7), p.const_u64(32, 9), p.const_u64(32, 1));
    let x7 = p.eq(x, c7);
    let y9 = p.eq(y, c9);
    let y_gt1 = p.ugt(y, c1);
    let mut s = IndependentSolver::new(CachingSolver::new(BitwuzlaSolver::new().unwrap()));
    // Two groups, two backend queries; `c` is requested but unconstrained.
    let m = expect_sat(&mut s, &p, &[x7, y9], &[a, b, c]);
    assert_eq!(m.bytes(c), &[0, 0, 0]);
    assert_eq!((p.eval(x, &m).to_u64(), p.eval(y, &m).to_u64()), (7, 9));
    assert_eq!(backend_queries(&s), 2);
    // The x group recurs and hits the cache; only the new y group is new.
    expect_sat(&mut s, &p, &[x7, y9, y_gt1], &[a, b]);
    assert_eq!(backend_queries(&s), 3);
    let ls = s.layer_stats();
    let names: Vec<&str> = ls.iter().map(|l| l.name).collect();
    assert_eq!(names, ["independence", "cache", "bitwuzla"]);
    assert_eq!((ls[0].queries, ls[1].queries, ls[1].answered), (2, 4, 1));
    // An unsat group decides: the group of the last assertion goes first,
    // so the x group is never asked.
    let y_lt1 = p.ult(y, c1);
    let before = backend_queries(&s);
    let x_ne7 = p.ne(x, c9);
    assert_eq!(
        s.check(&p, &[x_ne7, y9, y_lt1], &[a, b]).unwrap(),
        SatResult::Unsat
    );
    assert_eq!(backend_queries(&s), before + 1);
    let st = s.independence_stats();
    assert_eq!((st.split_queries, st.max_groups), (3, 2));
}

#[test]
fn independence_joins_arrays_transitively() {
    let mut p = ExprPool::new();
    let arrs: Vec<ArrayId> = (0..4).map(|i| p.new_array(&format!("a{i}"), 1)).collect();
    let bytes: Vec<ExprId> = arrs
        .iter()
        .map(|&a| {
            let arr = p.array(a);
            let i0 = p.const_u64(32, 0);
            p.select(arr, i0)
        })
        .collect();
    // a0 < a1, a1 < a2 (one group through a1), a3 == 5 (another).
    let e01 = p.ult(bytes[0], bytes[1]);
    let e12 = p.ult(bytes[1], bytes[2]);
    let c5 = p.const_u64(8, 5);
    let e3 = p.eq(bytes[3], c5);
    let mut s = IndependentSolver::new(BitwuzlaSolver::new().unwrap());
    let m = expect_sat(&mut s, &p, &[e01, e3, e12], &arrs);
    assert!(m.bytes(arrs[0])[0] < m.bytes(arrs[1])[0]);
    assert_eq!(backend_queries(&s), 2);
    assert_eq!(s.independence_stats().max_groups, 2);
}

#[test]
fn constants_are_decided_without_the_backend() {
    let Fixture { mut p, a, x, .. } = fixture();
    let (t, f) = (p.true_(), p.false_());
    let c = p.const_u64(32, 3);
    let e = p.eq(x, c);
    for layers in [
        LayerSet::parse("independence").unwrap(),
        LayerSet::parse("cex").unwrap(),
    ] {
        let mut s = chain(&layers);
        let m = expect_sat(&mut *s, &p, &[t, t], &[a]);
        assert_eq!(m.bytes(a), &[0, 0, 0, 0]);
        assert_eq!(s.check(&p, &[e, f], &[a]).unwrap(), SatResult::Unsat);
        assert_eq!(backend_queries(&*s), 0, "[{layers}]");
        assert_eq!(s.layer_stats()[0].answered, 2);
        // Errors are reported as the backend reports them.
        let wide = read32(&mut p, a);
        assert!(matches!(
            s.check(&p, &[wide], &[a]),
            Err(SolverError::NotBoolean { width: 32, .. })
        ));
        let other = ExprPool::new();
        assert!(matches!(
            s.check(&other, &[], &[a]),
            Err(SolverError::UnknownArray(_))
        ));
    }
    // An array-free comparison in an unsimplified pool is evaluated.
    let mut q = ExprPool::new_unsimplified();
    let qa = q.new_array("a", 1);
    let (k1, k2) = (q.const_u64(8, 1), q.const_u64(8, 2));
    let lt = q.ult(k1, k2);
    let gt = q.ugt(k1, k2);
    let mut s = IndependentSolver::new(BitwuzlaSolver::new().unwrap());
    expect_sat(&mut s, &q, &[lt], &[qa]);
    assert_eq!(s.check(&q, &[lt, gt], &[qa]).unwrap(), SatResult::Unsat);
    assert_eq!(backend_queries(&s), 0);
}

/// A backend that answers `Unknown` while `unknowns` lasts.
struct Flaky {
    inner: BitwuzlaSolver,
    unknowns: u32,
}

impl Solver for Flaky {
    fn check(
        &mut self,
        pool: &ExprPool,
        assertions: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<SatResult, SolverError> {
        if self.unknowns > 0 {
            self.unknowns -= 1;
            return Ok(SatResult::Unknown("timeout".into()));
        }
        self.inner.check(pool, assertions, arrays)
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn stats(&self) -> SolverStats {
        self.inner.stats()
    }
}

#[test]
fn unknown_is_never_cached() {
    let Fixture { mut p, a, b, x, y } = fixture();
    let (c10, c20) = (p.const_u64(32, 10), p.const_u64(32, 20));
    let lt = p.ult(x, c10);
    let gt = p.ugt(x, c20);
    let ylt = p.ult(y, c10);
    for layers in all_configs() {
        let backend = Flaky {
            inner: BitwuzlaSolver::new().unwrap(),
            unknowns: 1,
        };
        let mut s = build_chain(&layers, Box::new(backend));
        // Unknown passes through every layer...
        let r = s.check(&p, &[lt], &[a]).unwrap();
        assert_eq!(r, SatResult::Unknown("timeout".into()), "[{layers}]");
        // ...and is not remembered as either answer.
        expect_sat(&mut *s, &p, &[lt], &[a]);
        expect_sat(&mut *s, &p, &[lt, ylt], &[a, b]);
        let mut s2 = build_chain(
            &layers,
            Box::new(Flaky {
                inner: BitwuzlaSolver::new().unwrap(),
                unknowns: 1,
            }),
        );
        assert!(matches!(
            s2.check(&p, &[lt, gt], &[a]).unwrap(),
            SatResult::Unknown(_)
        ));
        assert_eq!(s2.check(&p, &[lt, gt], &[a]).unwrap(), SatResult::Unsat);
        assert_eq!(
            s2.check(&p, &[lt, gt, ylt], &[a, b]).unwrap(),
            SatResult::Unsat
        );
    }
    // With independence, an Unsat group beats an Unknown one.
    let mut s = IndependentSolver::new(Flaky {
        inner: BitwuzlaSolver::new().unwrap(),
        unknowns: 1,
    });
    assert_eq!(
        s.check(&p, &[lt, gt, ylt], &[a, b]).unwrap(),
        SatResult::Unsat
    );
}

// ----- LayerSet and build_chain -----

#[test]
fn layer_set_parsing() {
    let s = LayerSet::parse("independence,cex,cache").unwrap();
    assert!(s.independence && s.cex && s.cache && !s.rewrite && !s.simplify && !s.ivc);
    assert_eq!(LayerSet::parse("none").unwrap(), LayerSet::none());
    assert_eq!(LayerSet::parse("all").unwrap(), LayerSet::all());
    assert_eq!(LayerSet::default(), LayerSet::all());
    let s = LayerSet::parse(" all , -cex,-ivc ").unwrap();
    assert!(!s.cex && !s.ivc && s.cache && s.rewrite && s.independence);
    let s = LayerSet::parse("rewrite,simplify,ivc").unwrap();
    assert!(s.rewrite && s.simplify && s.ivc && !s.cache);
    assert_eq!(s.to_string(), "rewrite,simplify,ivc");
    for text in [
        "all",
        "none",
        "cex",
        "independence,cache",
        "rewrite,ivc,cex",
    ] {
        let s: LayerSet = text.parse().unwrap();
        assert_eq!(LayerSet::parse(&s.to_string()).unwrap(), s, "{text}");
    }
    let err = LayerSet::parse("cex,stp").unwrap_err();
    assert_eq!(err.item, "stp");
    let msg = err.to_string();
    for name in LayerSet::NAMES {
        assert!(msg.contains(name), "{msg}");
    }
    assert!(LayerSet::parse("").is_err());
    assert!(LayerSet::parse("-bogus").is_err());
    assert_eq!(LayerSet::all().get("cex"), Some(true));
    assert_eq!(LayerSet::all().get("stp"), None);
}

#[test]
fn build_chain_stacks_in_order() {
    let names = |l: &str| -> Vec<&'static str> {
        chain(&LayerSet::parse(l).unwrap())
            .layer_stats()
            .iter()
            .map(|s| s.name)
            .collect()
    };
    assert_eq!(names("all"), ["independence", "cex", "cache", "bitwuzla"]);
    assert_eq!(
        names("cache,independence"),
        ["independence", "cache", "bitwuzla"]
    );
    assert_eq!(names("none"), ["bitwuzla"]);
    assert_eq!(names("rewrite,ivc"), ["bitwuzla"]);
    // Layer times are inclusive: each at least the one below.
    let Fixture { mut p, a, x, .. } = fixture();
    let mut s = chain(&LayerSet::all());
    let c = p.const_u64(32, 12345);
    let e = p.eq(x, c);
    expect_sat(&mut *s, &p, &[e], &[a]);
    let ls = s.layer_stats();
    for w in ls.windows(2) {
        assert!(w[0].time >= w[1].time, "{ls:?}");
    }
    assert_eq!(s.stats().queries, 1);
    // Timeouts reach the backend through every layer.
    s.set_timeout(Some(Duration::from_secs(5)));
    expect_sat(&mut *s, &p, &[e], &[a]);
}

// ----- measurement -----

/// Builds the alternative orders the chain docs discuss.
fn ordered_chain(order: &str) -> Box<dyn Solver> {
    let bz = BitwuzlaSolver::new().unwrap();
    match order {
        "independence>cache>cex" => Box::new(IndependentSolver::new(CachingSolver::new(
            CexCachingSolver::new(bz),
        ))),
        "cache>independence>cex" => Box::new(CachingSolver::new(IndependentSolver::new(
            CexCachingSolver::new(bz),
        ))),
        "cache>independence>cex>cache" => Box::new(CachingSolver::new(IndependentSolver::new(
            CexCachingSolver::new(CachingSolver::new(bz)),
        ))),
        _ => build_chain(&LayerSet::parse(order).unwrap(), Box::new(bz)),
    }
}

/// CPU time of the calling thread (robust against other load on the
/// machine, unlike wall time): `/proc/thread-self/schedstat`, in ns.
fn thread_cpu() -> Duration {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let ns: u64 = s
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    Duration::from_nanos(ns)
}

/// Measures every configuration (and alternative orders) on a workload
/// from the generator; run with
/// `cargo test --release -p symtest-solver bench_chain -- --ignored --nocapture`.
/// Prints, per configuration: CPU time of the whole run (the backend runs
/// on this thread), wall time, queries reaching Bitwuzla and Bitwuzla's
/// wall time, and `layer:answered/queries` for every layer.
#[test]
#[ignore]
fn bench_chain() {
    let mut p = ExprPool::new();
    let queries = workload(&mut p, 7, 8, 20, 30, 40);
    eprintln!("{} queries", queries.len());
    let orders = [
        "none",
        "independence",
        "cex",
        "cache",
        "independence,cex",
        "independence,cache",
        "cex,cache",
        "all",
        "independence>cache>cex",
        "cache>independence>cex",
        "cache>independence>cex>cache",
    ];
    let mut reference: Option<Vec<bool>> = None;
    for order in orders {
        let mut s = ordered_chain(order);
        let (cpu0, start) = (thread_cpu(), Instant::now());
        let answers: Vec<bool> = queries
            .iter()
            .map(|q| s.check(&p, &q.asserts, &q.arrays).unwrap().is_sat())
            .collect();
        let (cpu, wall) = (thread_cpu() - cpu0, start.elapsed());
        match &reference {
            None => reference = Some(answers),
            Some(r) => assert_eq!(r, &answers, "{order}"),
        }
        let ls = s.layer_stats();
        let bz = ls.last().unwrap();
        let layers: Vec<String> = ls
            .iter()
            .map(|l| format!("{}:{}/{}", l.name, l.answered, l.queries))
            .collect();
        eprintln!(
            "{order:30} cpu {:>7.0} ms  wall {:>7.0} ms  bitwuzla {:>5} queries {:>7.0} ms   {}",
            cpu.as_secs_f64() * 1e3,
            wall.as_secs_f64() * 1e3,
            bz.queries,
            bz.time.as_secs_f64() * 1e3,
            layers.join(" ")
        );
    }
}
