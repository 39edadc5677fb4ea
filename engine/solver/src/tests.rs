//! Tests of the Bitwuzla backend and the cache; models are always checked
//! with the solver-independent `ExprPool::eval`.

use crate::BitwuzlaMode;
use crate::{BitwuzlaSolver, CachingSolver, SatResult, Solver, SolverError};
use std::time::{Duration, Instant};
use symtest_expr::{ArrayId, Assignment, BinOp, Bits, CmpOp, ExprId, ExprPool};

pub(crate) fn read_le(p: &mut ExprPool, a: ArrayId, base: u64, n: u64) -> ExprId {
    let arr = p.array(a);
    let mut v: Option<ExprId> = None;
    for i in 0..n {
        let idx = p.const_u64(32, base + i);
        let b = p.select(arr, idx);
        v = Some(match v {
            None => b,
            Some(lo) => p.concat(b, lo),
        });
    }
    v.unwrap()
}

/// Asserts Sat and that the model satisfies every assertion.
pub(crate) fn expect_sat(
    s: &mut impl Solver,
    p: &ExprPool,
    asserts: &[ExprId],
    arrays: &[ArrayId],
) -> Assignment {
    match s.check(p, asserts, arrays).expect("solver error") {
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

pub(crate) fn expect_unsat(s: &mut impl Solver, p: &ExprPool, asserts: &[ExprId]) {
    let r = s.check(p, asserts, &[]).expect("solver error");
    assert_eq!(r, SatResult::Unsat);
}

#[test]
fn bv_and_array_query_is_sat_with_checked_model() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 8);
    let x = read_le(&mut p, a, 0, 4);
    let three = p.const_u64(32, 3);
    let prod = p.mul(x, three);
    let c21 = p.const_u64(32, 21);
    let e1 = p.eq(prod, c21);
    let arr = p.array(a);
    let i5 = p.const_u64(32, 5);
    let b5 = p.select(arr, i5);
    let c41 = p.const_u64(8, 0x41);
    let e2 = p.eq(b5, c41);
    for mode in [
        BitwuzlaMode::Fresh,
        BitwuzlaMode::Incremental,
        BitwuzlaMode::PushPop,
    ] {
        let mut s = BitwuzlaSolver::with_mode(mode).unwrap();
        let m = expect_sat(&mut s, &p, &[e1, e2], &[a]);
        assert_eq!(&m.bytes(a)[..4], &[7, 0, 0, 0]);
        assert_eq!(m.bytes(a)[5], 0x41);
        assert_eq!(s.stats().sat, 1);
    }
}

#[test]
fn contradiction_is_unsat() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 4);
    let x = read_le(&mut p, a, 0, 4);
    let (c5, c10) = (p.const_u64(32, 5), p.const_u64(32, 10));
    let lt = p.ult(x, c5);
    let gt = p.ugt(x, c10);
    let mut s = BitwuzlaSolver::new().unwrap();
    expect_unsat(&mut s, &p, &[lt, gt]);
    // Each alone is satisfiable.
    expect_sat(&mut s, &p, &[lt], &[a]);
    expect_sat(&mut s, &p, &[gt], &[a]);
    let st = s.stats();
    assert_eq!((st.queries, st.sat, st.unsat), (3, 2, 1));
}

#[test]
fn trivial_queries_skip_the_backend() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 3);
    let (t, f) = (p.true_(), p.false_());
    let mut s = BitwuzlaSolver::new().unwrap();
    let m = expect_sat(&mut s, &p, &[t, t], &[a]);
    assert_eq!(m.bytes(a), &[0, 0, 0]);
    assert_eq!(s.check(&p, &[t, f], &[a]).unwrap(), SatResult::Unsat);
    let x = read_le(&mut p, a, 0, 2);
    let r = s.check(&p, &[x], &[a]);
    assert!(matches!(r, Err(SolverError::NotBoolean { width: 16, .. })));
    let bogus = p.new_array("b", 1);
    let other = ExprPool::new();
    assert!(matches!(
        s.check(&other, &[], &[bogus]),
        Err(SolverError::UnknownArray(_))
    ));
}

/// SMT-LIB division/remainder/shift corner cases: the solver must agree
/// with `Bits` (which is what constant folding and `eval` use).
#[test]
fn division_and_shift_semantics_agree_with_bits() {
    let mut p = ExprPool::new_unsimplified();
    let a = p.new_array("a", 8);
    let x = read_le(&mut p, a, 0, 4);
    let y = read_le(&mut p, a, 4, 4);
    let mut s = BitwuzlaSolver::new().unwrap();
    let cases: &[(BinOp, i64, i64)] = &[
        (BinOp::SDiv, -7, 2),
        (BinOp::SDiv, 7, -2),
        (BinOp::SDiv, -7, 0),
        (BinOp::SDiv, 7, 0),
        (BinOp::SDiv, i32::MIN as i64, -1),
        (BinOp::SRem, -7, 2),
        (BinOp::SRem, 7, -2),
        (BinOp::SRem, -7, 0),
        (BinOp::UDiv, 7, 0),
        (BinOp::URem, 7, 0),
        (BinOp::Shl, 3, 32),
        (BinOp::Shl, 3, 31),
        (BinOp::LShr, -1, 40),
        (BinOp::AShr, -8, 100),
        (BinOp::AShr, -8, 1),
        (BinOp::AShr, 8, -1),
    ];
    for &(op, xv, yv) in cases {
        let (bx, by) = (Bits::from_i64(32, xv), Bits::from_i64(32, yv));
        let want = op.apply(&bx, &by);
        let (cx, cy, cw) = (p.constant(bx), p.constant(by), p.constant(want.clone()));
        let (ex, ey) = (p.eq(x, cx), p.eq(y, cy));
        let r = p.bin(op, x, y);
        let good = p.eq(r, cw);
        let bad = p.not(good);
        let m = expect_sat(&mut s, &p, &[ex, ey, good], &[a]);
        assert_eq!(p.eval(r, &m), want);
        expect_unsat(&mut s, &p, &[ex, ey, bad]);
        // And with y free: the solver finds some y giving the result.
        let m = expect_sat(&mut s, &p, &[ex, good], &[a]);
        assert_eq!(p.eval(r, &m), want, "{op:?} x={xv}");
    }
}

#[test]
fn extract_concat_sext_ite_store_chains() {
    let mut p = ExprPool::new();
    let inp = p.new_array("in", 4);
    let mem = p.new_array("mem", 16);
    let x = read_le(&mut p, inp, 0, 4);
    // Store x into mem at a symbolic offset j in 0..8, then read it back.
    let arr = p.array(inp);
    let i0 = p.const_u64(32, 0);
    let b0 = p.select(arr, i0);
    let seven = p.const_u64(8, 7);
    let jb = p.and(b0, seven);
    let j = p.zext(jb, 32);
    let mut m = p.array(mem);
    for k in 0..4u32 {
        let ck = p.const_u64(32, k as u64);
        let idx = p.add(j, ck);
        let byte = p.extract(x, 8 * k, 8);
        m = p.store(m, idx, byte);
    }
    let mut back: Option<ExprId> = None;
    for k in 0..4u64 {
        let ck = p.const_u64(32, k);
        let idx = p.add(j, ck);
        let b = p.select(m, idx);
        back = Some(match back {
            None => b,
            Some(lo) => p.concat(b, lo),
        });
    }
    let back = back.unwrap();
    let same = p.eq(back, x);
    let differ = p.not(same);
    let mut s = BitwuzlaSolver::new().unwrap();
    expect_unsat(&mut s, &p, &[differ]);
    // sext / ite / extract constraints with a model.
    let hi = p.extract(x, 16, 16);
    let shi = p.sext(hi, 64);
    let m1 = p.constant(Bits::from_i64(64, -2));
    let c1 = p.eq(shi, m1);
    let zero32 = p.const_u64(32, 0);
    let neg = p.slt(x, zero32);
    let (c100, c200) = (p.const_u64(32, 100), p.const_u64(32, 200));
    let it = p.ite(neg, c100, c200);
    let c100b = p.const_u64(32, 100);
    let c2 = p.eq(it, c100b);
    let lowb = p.extract(x, 0, 8);
    let kf0 = p.const_u64(8, 0xf0);
    let c3 = p.ult(kf0, lowb);
    let wide = p.zext(x, 100);
    let big = p.constant(Bits::from_u128(100, 1u128 << 90));
    let sum = p.add(wide, big);
    let top = p.extract(sum, 90, 10);
    let one10 = p.const_u64(10, 1);
    let c4 = p.eq(top, one10);
    let mdl = expect_sat(&mut s, &p, &[c1, c2, c3, c4], &[inp, mem]);
    let xv = p.eval(x, &mdl).to_u64();
    assert_eq!(xv >> 16, 0xfffe);
    assert!(xv as u8 > 0xf0);
}

/// A small random expression generator for differential testing.
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
}

fn random_expr(p: &mut ExprPool, rng: &mut Rng, a: ArrayId, w: u32, depth: u32) -> ExprId {
    if depth == 0 || rng.below(4) == 0 {
        if rng.below(3) == 0 {
            let v = rng.next() >> rng.below(64);
            return p.constant(Bits::from_u64(w, v));
        }
        let idx = p.const_u64(32, rng.below(6));
        let arr = p.array(a);
        let b = p.select(arr, idx);
        return match w.cmp(&8) {
            std::cmp::Ordering::Equal => b,
            std::cmp::Ordering::Less => p.extract(b, rng.below((9 - w) as u64) as u32, w),
            std::cmp::Ordering::Greater if rng.below(2) == 0 => p.sext(b, w),
            std::cmp::Ordering::Greater => p.zext(b, w),
        };
    }
    let d = depth - 1;
    match rng.below(9) {
        0..=2 => {
            let op = BinOp::ALL[rng.below(13) as usize];
            let x = random_expr(p, rng, a, w, d);
            let y = random_expr(p, rng, a, w, d);
            p.bin(op, x, y)
        }
        3 => {
            let x = random_expr(p, rng, a, w, d);
            p.not(x)
        }
        4 => {
            let iw = [1, 8, 16, 32][rng.below(4) as usize];
            let op = CmpOp::ALL[rng.below(5) as usize];
            let x = random_expr(p, rng, a, iw, d);
            let y = random_expr(p, rng, a, iw, d);
            let c = p.cmp(op, x, y);
            if w == 1 {
                c
            } else {
                let t = random_expr(p, rng, a, w, d);
                let e = random_expr(p, rng, a, w, d);
                p.ite(c, t, e)
            }
        }
        5 if w > 1 => {
            let lw = 1 + rng.below((w - 1) as u64) as u32;
            let h = random_expr(p, rng, a, w - lw, d);
            let l = random_expr(p, rng, a, lw, d);
            p.concat(h, l)
        }
        6 => {
            let sw = w + rng.below(20) as u32;
            let x = random_expr(p, rng, a, sw, d);
            let lo = rng.below((sw - w + 1) as u64) as u32;
            p.extract(x, lo, w)
        }
        7 if w == 8 => {
            let mut arr = p.array(a);
            for _ in 0..1 + rng.below(3) {
                let iv = random_expr(p, rng, a, 8, d);
                let i = p.zext(iv, 32);
                let v = random_expr(p, rng, a, 8, d);
                arr = p.store(arr, i, v);
            }
            let jv = random_expr(p, rng, a, 8, d);
            let j = p.zext(jv, 32);
            p.select(arr, j)
        }
        _ => {
            let x = random_expr(p, rng, a, w, d);
            let y = random_expr(p, rng, a, w, d);
            p.add(x, y)
        }
    }
}

/// For random expressions `e` and random inputs: pinning the inputs,
/// `e == eval(e)` must be Sat and `e != eval(e)` Unsat.
#[test]
fn translation_agrees_with_eval_on_random_expressions() {
    for (mode, simplify) in [
        (BitwuzlaMode::Fresh, false),
        (BitwuzlaMode::Incremental, true),
        (BitwuzlaMode::PushPop, false),
    ] {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut p = ExprPool::new();
        p.set_simplify(simplify);
        let a = p.new_array("in", 6);
        let mut s = BitwuzlaSolver::with_mode(mode).unwrap();
        for round in 0..60 {
            let w = [1, 8, 13, 32, 64, 70][rng.below(6) as usize];
            let e = random_expr(&mut p, &mut rng, a, w, 4);
            let bytes: Vec<u8> = (0..6).map(|_| rng.next() as u8).collect();
            let mut asg = Assignment::new();
            asg.set(a, bytes.clone());
            let want = p.eval(e, &asg);
            let arr = p.array(a);
            let mut pins = Vec::new();
            for (i, &b) in bytes.iter().enumerate() {
                let idx = p.const_u64(32, i as u64);
                let sel = p.select(arr, idx);
                let v = p.const_u64(8, b as u64);
                pins.push(p.eq(sel, v));
            }
            let c = p.constant(want.clone());
            let good = p.eq(e, c);
            let bad = p.not(good);
            pins.push(good);
            let m = expect_sat(&mut s, &p, &pins, &[a]);
            assert_eq!(m.bytes(a), &bytes[..], "round {round}");
            pins.pop();
            pins.push(bad);
            let r = s.check(&p, &pins, &[a]).unwrap();
            assert_eq!(r, SatResult::Unsat, "round {round}: {}", p.display(e));
        }
    }
}

#[test]
fn cache_answers_repeated_queries() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 4);
    let x = read_le(&mut p, a, 0, 4);
    let c = p.const_u64(32, 1000);
    let lt = p.ult(x, c);
    let k = p.const_u64(32, 3);
    let odd = p.urem(x, k);
    let one = p.const_u64(32, 1);
    let e2 = p.eq(odd, one);
    let mut s = CachingSolver::new(BitwuzlaSolver::new().unwrap());
    let m1 = expect_sat(&mut s, &p, &[lt, e2], &[a]);
    let m2 = expect_sat(&mut s, &p, &[e2, lt, e2], &[a]);
    assert_eq!(m1, m2);
    assert_eq!(
        s.inner().stats().queries,
        1,
        "the repeat never reached Bitwuzla"
    );
    // `stats` describes the backend; the hit is counted in `cache_hits`.
    let st = s.stats();
    assert_eq!((st.queries, st.cache_hits, st.sat), (1, 1, 1));
    let ls = s.layer_stats();
    assert_eq!(ls[0].name, "cache");
    assert_eq!((ls[0].queries, ls[0].answered), (2, 1));
    assert_eq!((ls[1].name, ls[1].queries), ("bitwuzla", 1));
    // A different array request is a different query.
    assert!(s.check(&p, &[lt, e2], &[]).unwrap().is_sat());
    assert_eq!(s.inner().stats().queries, 2);
    let gt = p.ugt(x, c);
    expect_unsat(&mut s, &p, &[lt, gt]);
    expect_unsat(&mut s, &p, &[gt, lt]);
    assert_eq!(s.inner().stats().queries, 3);
    assert_eq!(s.stats().cache_hits, 2);
    assert_eq!(s.cache_len(), 3);
    // Another pool clears the cache instead of answering from it.
    let mut q = ExprPool::new();
    let qa = q.new_array("a", 4);
    let qx = read_le(&mut q, qa, 0, 4);
    let qc = q.const_u64(32, 5);
    let qe = q.eq(qx, qc);
    expect_sat(&mut s, &q, &[qe], &[qa]);
    assert_eq!(s.cache_len(), 1);
}

#[test]
fn recycled_instances_still_answer_correctly() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 2);
    let x = read_le(&mut p, a, 0, 2);
    let mut s = BitwuzlaSolver::new().unwrap();
    s.set_recycle_queries(2);
    for k in 0..7u64 {
        let c = p.const_u64(16, 1000 * k + 1);
        let lo = p.ult(x, c);
        let c2 = p.const_u64(16, 1000 * k);
        let hi = p.uge(x, c2);
        let m = expect_sat(&mut s, &p, &[lo, hi], &[a]);
        assert_eq!(p.eval(x, &m).to_u64(), 1000 * k);
        let c3 = p.const_u64(16, 1000 * k + 1);
        let gt = p.uge(x, c3);
        expect_unsat(&mut s, &p, &[lo, gt]);
    }
    assert_eq!(s.stats().queries, 14);
}

/// Push/pop mode keeps the agreeing prefix of the previous query asserted:
/// queries that grow, shrink, branch off and contradict a pushed prefix
/// get the same answers as a fresh instance per query, with checked models.
#[test]
fn push_pop_follows_growing_and_shrinking_paths() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 4);
    let bytes: Vec<ExprId> = (0..4)
        .map(|i| {
            let arr = p.array(a);
            let idx = p.const_u64(32, i);
            p.select(arr, idx)
        })
        .collect();
    let mut conds = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        let lo = p.const_u64(8, 10 * i as u64 + 5);
        conds.push(p.ugt(b, lo));
        let hi = p.const_u64(8, 10 * i as u64 + 8);
        conds.push(p.ult(b, hi));
    }
    let c3 = p.const_u64(8, 3);
    let b0_is_3 = p.eq(bytes[0], c3); // contradicts conds[0] (b0 > 5)
    let queries: Vec<Vec<ExprId>> = vec![
        conds[..2].to_vec(),
        conds[..4].to_vec(),
        conds[..8].to_vec(),
        vec![conds[0], conds[1], b0_is_3],
        vec![conds[0], b0_is_3, conds[2]],
        conds[..3].to_vec(),
        vec![conds[2], conds[3]],
        vec![b0_is_3],
        conds[..8].to_vec(),
        vec![conds[0], conds[1], conds[2], b0_is_3, conds[4]],
        conds[..6].to_vec(),
    ];
    let mut pp = BitwuzlaSolver::with_mode(BitwuzlaMode::PushPop).unwrap();
    pp.set_recycle_queries(4);
    let mut fresh = BitwuzlaSolver::with_mode(BitwuzlaMode::Fresh).unwrap();
    for q in &queries {
        let want = fresh.check(&p, q, &[a]).unwrap();
        let got = pp.check(&p, q, &[a]).unwrap();
        assert_eq!(got.is_sat(), want.is_sat(), "{q:?}");
        if let SatResult::Sat(m) = &got {
            assert!(q.iter().all(|&e| p.eval_bool(e, m)), "{q:?}");
        }
    }
}

#[test]
fn switching_pools_resets_translations() {
    let mut s = BitwuzlaSolver::new().unwrap();
    for round in 0..3u64 {
        let mut p = ExprPool::new();
        if round == 1 {
            p.new_array("pad", 1); // shifts every id
        }
        let a = p.new_array("a", 2);
        let x = read_le(&mut p, a, 0, 2);
        let c = p.const_u64(16, 0x1234 + round);
        let e = p.eq(x, c);
        let m = expect_sat(&mut s, &p, &[e], &[a]);
        assert_eq!(p.eval(x, &m).to_u64(), 0x1234 + round);
    }
}

#[test]
fn tiny_timeout_gives_unknown_or_an_answer() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 16);
    let x = read_le(&mut p, a, 0, 8);
    let y = read_le(&mut p, a, 8, 8);
    let (wx, wy) = (p.zext(x, 128), p.zext(y, 128));
    let prod = p.mul(wx, wy);
    // A product of two large 64-bit primes: factoring is hard.
    let n = (18_446_744_073_709_551_557u128) * (18_446_744_073_709_551_533u128);
    let cn = p.constant(Bits::from_u128(128, n));
    let e = p.eq(prod, cn);
    let one = p.const_u64(64, 1);
    let (gx, gy) = (p.ugt(x, one), p.ugt(y, one));
    for solver in [
        BitwuzlaMode::Fresh,
        BitwuzlaMode::Incremental,
        BitwuzlaMode::PushPop,
    ] {
        let mut s = BitwuzlaSolver::with_mode(solver).unwrap();
        s.set_timeout(Some(Duration::from_millis(1)));
        let start = Instant::now();
        let r = s.check(&p, &[e, gx, gy], &[a]).unwrap();
        assert!(start.elapsed() < Duration::from_secs(20));
        match r {
            SatResult::Unknown(why) => assert_eq!(why, "timeout"),
            SatResult::Sat(m) => assert!(p.eval_bool(e, &m)),
            SatResult::Unsat => panic!("the query is satisfiable"),
        }
        // The solver stays usable after a timeout, also without limit.
        s.set_timeout(None);
        let c = p.const_u64(64, 77);
        let easy = p.eq(x, c);
        expect_sat(&mut s, &p, &[easy], &[a]);
    }
}

#[test]
fn a_deadline_stops_a_query_in_progress() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 16);
    let x = read_le(&mut p, a, 0, 8);
    let y = read_le(&mut p, a, 8, 8);
    // Sixteen rounds of a multiplicative hash of x and y, then a remainder:
    // far longer than the deadline for the solver.
    let (k29, one, golden) = (
        p.const_u64(64, 29),
        p.const_u64(64, 1),
        p.const_u64(64, 0x9e37_79b9_7f4a_7c15),
    );
    let odd = p.bin(BinOp::Or, y, one);
    let mut h = x;
    for _ in 0..16 {
        let sh = p.bin(BinOp::LShr, h, k29);
        let mixed = p.bin(BinOp::Xor, h, sh);
        let prod = p.bin(BinOp::Mul, mixed, odd);
        h = p.bin(BinOp::Add, prod, golden);
    }
    let modulus = p.const_u64(64, 1_000_003);
    let r = p.bin(BinOp::URem, h, modulus);
    let five = p.const_u64(64, 5);
    let e = p.eq(r, five);
    let gx = p.ugt(x, one);
    let gy = p.ugt(y, one);
    for mode in [
        BitwuzlaMode::Fresh,
        BitwuzlaMode::Incremental,
        BitwuzlaMode::PushPop,
    ] {
        // Through the whole chain: every layer passes the deadline down.
        let backend = BitwuzlaSolver::with_mode(mode).unwrap();
        let mut s = crate::build_chain(&crate::LayerSet::all(), Box::new(backend));
        let start = Instant::now();
        s.set_deadline(Some(start + Duration::from_millis(300)));
        let r = s.check(&p, &[e, gx, gy], &[a]).unwrap();
        let took = start.elapsed();
        match r {
            SatResult::Unknown(why) => assert!(why.contains("deadline"), "{why}"),
            other => panic!("factored in {took:?}? {other:?}"),
        }
        assert!(
            took < Duration::from_secs(3),
            "{mode:?}: stopped after {took:?}"
        );
        // Without a deadline the solver answers again.
        s.set_deadline(None);
        let c = p.const_u64(64, 77);
        let easy = p.eq(x, c);
        let r = s.check(&p, &[easy], &[a]).unwrap();
        assert!(matches!(r, SatResult::Sat(_)), "{r:?}");
    }
}

/// The three ways queries reach Bitwuzla (a fresh instance per query, one
/// instance with assumptions, push/pop of the path prefix) answer a
/// path-condition-like workload identically, query by query.
#[test]
fn modes_agree_on_a_path_workload() {
    let mut answers_by_mode = Vec::new();
    for mode in [
        BitwuzlaMode::Fresh,
        BitwuzlaMode::Incremental,
        BitwuzlaMode::PushPop,
    ] {
        let mut p = ExprPool::new();
        let a = p.new_array("in", 32);
        let mut s = BitwuzlaSolver::with_mode(mode).unwrap();
        let mut rng = Rng(42);
        let mut pc: Vec<ExprId> = Vec::new();
        let mut answers = Vec::new();
        for _ in 0..120 {
            let e = random_expr(&mut p, &mut rng, a, 32, 2);
            let c = p.const_u64(32, rng.next() >> 40);
            let cond = p.ult(e, c);
            let mut q = pc.clone();
            q.push(cond);
            let sat = s.check(&p, &q, &[a]).unwrap().is_sat();
            answers.push(sat);
            pc.push(if sat { cond } else { p.not(cond) });
            if pc.len() > 40 {
                pc.clear();
            }
        }
        answers_by_mode.push((mode, answers));
    }
    let (first, want) = &answers_by_mode[0];
    assert!(
        want.iter().any(|&a| a) && want.iter().any(|&a| !a),
        "{want:?}"
    );
    for (mode, got) in &answers_by_mode[1..] {
        assert_eq!(got, want, "{mode:?} answered differently from {first:?}");
    }
}

fn rss_kb() -> u64 {
    let s = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = s
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    pages * 4
}

/// Repeats the same queries (fresh pools too) and checks resident memory
/// stays flat. Measured in a process of its own (this test run again with
/// only itself selected): the other tests' threads allocate in this one.
#[test]
fn memory_is_flat_across_queries() {
    const ALONE: &str = "SYMTEST_SOLVER_RSS_TEST_ALONE";
    if std::env::var_os(ALONE).is_none() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "tests::memory_is_flat_across_queries",
                "--test-threads=1",
                "--nocapture",
            ])
            .env(ALONE, "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("rss samples"),
            "the test did not run in its own process"
        );
        return;
    }
    let mut s = BitwuzlaSolver::new().unwrap();
    s.set_recycle_queries(100);
    let mut samples = Vec::new();
    for round in 0..3000u64 {
        let mut p = ExprPool::new();
        let a = p.new_array("a", 64);
        let x = read_le(&mut p, a, 0, 4);
        let c = p.const_u64(32, round * 7919);
        let k = p.const_u64(32, 3);
        let y = p.mul(x, k);
        let e = p.eq(y, c);
        expect_sat(&mut s, &p, &[e], &[a]);
        if round % 500 == 499 {
            samples.push(rss_kb());
        }
    }
    eprintln!("rss samples (KiB): {samples:?}");
    let (first, last) = (samples[1], *samples.last().unwrap());
    assert!(last < first + first / 5, "memory grew: {samples:?}");
}

/// A symbolic-index read of a constant lookup table (`is_control[128]`, a
/// base64 alphabet) is translated as range tests over the table's runs:
/// every entry reads back exactly, and an index outside the table still
/// reads the unconstrained array below it.
#[test]
fn constant_table_reads_are_exact() {
    let is_control: Vec<u8> = (0..128u32).map(|i| u8::from(i < 32 || i == 127)).collect();
    let alphabet: Vec<u8> =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".to_vec();
    for table in [is_control, alphabet] {
        let mut p = ExprPool::new();
        let base = p.new_array("table", 256);
        let mut arr = p.array(base);
        // Stores from the last index to the first, plus one overwritten entry
        // (the outermost store of an index wins).
        let (i0, junk) = (p.const_u64(32, 0), p.const_u64(8, 0xee));
        arr = p.store(arr, i0, junk);
        for (i, &v) in table.iter().enumerate().rev() {
            let (ic, vc) = (p.const_u64(32, i as u64), p.const_u64(8, u64::from(v)));
            arr = p.store(arr, ic, vc);
        }
        let x = p.new_array("x", 1);
        let xa = p.array(x);
        let zero = p.const_u64(32, 0);
        let xb = p.select(xa, zero);
        let ix = p.zext(xb, 32);
        let read = p.select(arr, ix);
        let mut s = BitwuzlaSolver::new().unwrap();
        for i in [0usize, 1, 25, 26, 31, 32, 51, 52, 61, 62, 63, 100, 126, 127] {
            if i >= table.len() {
                continue;
            }
            let ic = p.const_u64(32, i as u64);
            let at = p.eq(ix, ic);
            let want = p.const_u64(8, u64::from(table[i]));
            let same = p.eq(read, want);
            let differs = p.not(same);
            expect_sat(&mut s, &p, &[at, same], &[x]);
            expect_unsat(&mut s, &p, &[at, differs]);
        }
        // Past the table: whatever the array below holds.
        let past = p.const_u64(32, 200);
        let at = p.eq(ix, past);
        let want = p.const_u64(8, 0x5a);
        let same = p.eq(read, want);
        let m = expect_sat(&mut s, &p, &[at, same], &[x, base]);
        assert_eq!(m.bytes(x), &[200]);
    }
}

/// A read at `base + (x & 0xff) * 4 + 1` of a large object (16 KiB of
/// stores, as a flushed CRC table) reaches only 256 of its bytes: the
/// translation expands over those, and every one still reads back exactly,
/// including bytes overwritten later in the chain and a store at a symbolic
/// index that may alias them.
#[test]
fn reads_expand_over_the_stores_their_index_can_reach() {
    let mut p = ExprPool::new();
    let root = p.new_array("crc_table", 16384);
    let mut arr = p.array(root);
    let value = |i: u64| ((i * 2_654_435_761) >> 7) as u8;
    for i in 0..16384u64 {
        let (ic, vc) = (p.const_u64(32, i), p.const_u64(8, u64::from(value(i))));
        arr = p.store(arr, ic, vc);
    }
    // Later writes: one inside the reachable window, one outside.
    let (i_in, v_in) = (p.const_u64(32, 4096 + 4 * 7 + 1), p.const_u64(8, 0xa5));
    arr = p.store(arr, i_in, v_in);
    let (i_out, v_out) = (p.const_u64(32, 9000), p.const_u64(8, 0x11));
    arr = p.store(arr, i_out, v_out);
    // A store at a symbolic index within the window (y in 0..=255, at 4096 + y).
    let y = p.new_array("y", 1);
    let ya = p.array(y);
    let zero = p.const_u64(32, 0);
    let yb = p.select(ya, zero);
    let yw = p.zext(yb, 32);
    let base = p.const_u64(32, 4096);
    let yi = p.add(base, yw);
    let sym_v = p.const_u64(8, 0x77);
    arr = p.store(arr, yi, sym_v);

    let x = p.new_array("x", 1);
    let xa = p.array(x);
    let xb = p.select(xa, zero);
    let xw = p.zext(xb, 32);
    let four = p.const_u64(32, 4);
    let scaled = p.mul(xw, four);
    let off = p.const_u64(32, 4096 + 1);
    let ix = p.add(off, scaled);
    let read = p.select(arr, ix);
    let mut s = BitwuzlaSolver::new().unwrap();
    // y points elsewhere (y = 0): the table's bytes, and the later write.
    let c0 = p.const_u64(8, 0);
    let y0 = p.eq(yb, c0);
    for k in [0u64, 1, 6, 7, 8, 200, 255] {
        let kc = p.const_u64(8, k);
        let at = p.eq(xb, kc);
        let idx = 4096 + 1 + 4 * k;
        let want = if k == 7 { 0xa5 } else { value(idx) };
        let wc = p.const_u64(8, u64::from(want));
        let same = p.eq(read, wc);
        let differs = p.not(same);
        expect_sat(&mut s, &p, &[y0, at, same], &[x, y]);
        expect_unsat(&mut s, &p, &[y0, at, differs]);
    }
    // The symbolic store wins where it aliases the read: y = 4k + 1.
    let (c3, c13) = (p.const_u64(8, 3), p.const_u64(8, 13));
    let at = p.eq(xb, c3);
    let alias = p.eq(yb, c13);
    let same = p.eq(read, sym_v);
    let differs = p.not(same);
    expect_unsat(&mut s, &p, &[at, alias, differs]);
}
