//! Tests of the optimization chain: the layers answer what they should,
//! and no combination of layers changes an answer (property test over
//! generated families of related queries). Models are always checked with
//! the solver-independent `ExprPool::eval`.

use crate::{build_chain, BitwuzlaSolver, LayerSet, LayerStats, SatResult, Solver};
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
pub(crate) struct Query {
    pub(crate) asserts: Vec<ExprId>,
    pub(crate) arrays: Vec<ArrayId>,
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
pub(crate) fn workload(
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

pub(crate) fn all_configs() -> Vec<LayerSet> {
    (0..64)
        .map(|bits| LayerSet {
            independence: bits & 1 != 0,
            cex: bits & 2 != 0,
            cache: bits & 4 != 0,
            bounds: bits & 8 != 0,
            domain: bits & 16 != 0,
            linear: bits & 32 != 0,
            ..LayerSet::none()
        })
        .collect()
}

pub(crate) fn chain(layers: &LayerSet) -> Box<dyn Solver> {
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
pub(crate) fn run_all_configs(p: &ExprPool, queries: &[Query]) -> Vec<(LayerSet, Vec<LayerStats>)> {
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
