//! Unit tests of each optimization layer (what it answers, what it passes
//! on, what it remembers), of layer-set parsing and of the chain's order;
//! the property test over all layer combinations is in `chain_tests.rs`.

use crate::chain_tests::{all_configs, chain, workload};
use crate::{
    build_chain, BitwuzlaSolver, CachingSolver, CexCachingSolver, IndependentSolver, LayerSet,
    SatResult, Solver, SolverError, SolverStats,
};
use std::time::{Duration, Instant};
use symtest_expr::{ArrayId, Assignment, BinOp, ExprId, ExprPool};

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

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
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
    // The bounds layer decides these queries itself and remembers nothing:
    // the configurations without it are the ones with something to test.
    for layers in all_configs().into_iter().filter(|l| !l.bounds) {
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
    assert_eq!(
        names("all"),
        [
            "independence",
            "bounds",
            "cex",
            "cache",
            "domain",
            "linear",
            "bitwuzla"
        ]
    );
    assert_eq!(
        names("cache,independence"),
        ["independence", "cache", "bitwuzla"]
    );
    assert_eq!(names("none"), ["bitwuzla"]);
    assert_eq!(names("rewrite,ivc"), ["bitwuzla"]);
    // Layer times are inclusive: each at least the one below.
    let Fixture {
        mut p, a, b, x, y, ..
    } = fixture();
    let mut s = chain(&LayerSet::all());
    let c = p.const_u64(32, 12345);
    // Two terms: no layer above the backend decides it.
    let sum = p.bin(BinOp::Add, x, y);
    let e = p.eq(sum, c);
    let a = [a, b];
    expect_sat(&mut *s, &p, &[e], &a);
    let ls = s.layer_stats();
    for w in ls.windows(2) {
        assert!(w[0].time >= w[1].time, "{ls:?}");
    }
    assert_eq!(s.stats().queries, 1);
    // Timeouts reach the backend through every layer.
    s.set_timeout(Some(Duration::from_secs(5)));
    expect_sat(&mut *s, &p, &[e], &a);
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

/// Every configuration of the chain, and alternative orders of its layers,
/// answers a generated workload query by query as the bare backend does
/// (prints CPU and wall time per configuration, and what each layer answered;
/// `--nocapture` to see them).
#[test]
fn chain_orders_agree() {
    let mut p = ExprPool::new();
    let queries = workload(&mut p, 7, 6, 6, 8, 25);
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
