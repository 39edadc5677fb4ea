//! The bounds layer: interval sets against brute force, and the layer's
//! answers against Bitwuzla on random bounds queries.

use crate::bounds::IntervalSet;
use crate::test_rng::Rng;
use crate::{BitwuzlaSolver, BoundsSolver, SatResult, Solver};
use symtest_expr::{ArrayId, BinOp, CmpOp, ExprId, ExprPool};

fn members(s: &IntervalSet, width: u32) -> Vec<bool> {
    (0..1u128 << width).map(|v| s.contains(v)).collect()
}

#[test]
fn interval_sets_match_brute_force_at_8_bits() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..2000 {
        let (a, b) = (rng.below(256) as u128, rng.below(256) as u128);
        let (c, d) = (rng.below(256) as i128 - 128, rng.below(256) as i128 - 128);
        let s1 = IntervalSet::range(8, a, b);
        let s2 = IntervalSet::signed_range(8, c, d);
        let m1: Vec<bool> = (0..256u128).map(|v| a <= v && v <= b).collect();
        let m2: Vec<bool> = (0..256u128)
            .map(|v| {
                let sv = if v >= 128 { v as i128 - 256 } else { v as i128 };
                c <= sv && sv <= d
            })
            .collect();
        assert_eq!(members(&s1, 8), m1);
        assert_eq!(members(&s2, 8), m2);
        let and: Vec<bool> = m1.iter().zip(&m2).map(|(x, y)| *x && *y).collect();
        let or: Vec<bool> = m1.iter().zip(&m2).map(|(x, y)| *x || *y).collect();
        let not: Vec<bool> = m1.iter().map(|x| !x).collect();
        assert_eq!(members(&s1.intersect(&s2), 8), and);
        assert_eq!(members(&s1.union(&s2), 8), or);
        assert_eq!(members(&s1.complement(), 8), not);
        assert_eq!(s1.complement().complement(), s1);
        let k = rng.below(256) as u128;
        let shifted: Vec<bool> = (0..256u128).map(|v| m2[((v + k) % 256) as usize]).collect();
        assert_eq!(members(&s2.shift_down(k), 8), shifted);
        assert_eq!(s2.is_empty(), !m2.iter().any(|x| *x));
        if let Some(min) = s2.min() {
            assert_eq!(Some(min as usize), m2.iter().position(|x| *x));
        }
    }
    assert!(IntervalSet::full(8).complement().is_empty());
    assert_eq!(IntervalSet::empty(8).complement(), IntervalSet::full(8));
}

/// The dividends of quotients in a set (`x / k` in it), against brute force.
#[test]
fn quotient_preimages_match_brute_force_at_8_bits() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for _ in 0..2000 {
        let (a, b) = (rng.below(256) as u128, rng.below(256) as u128);
        let (c, d) = (rng.below(256) as u128, rng.below(256) as u128);
        let s = IntervalSet::range(8, a, b).union(&IntervalSet::range(8, c, d));
        let k = 1 + rng.below(255) as u128;
        let want: Vec<bool> = (0..256u128).map(|v| s.contains(v / k)).collect();
        assert_eq!(members(&s.udiv_preimage(k), 8), want, "{s:?} / {k}");
    }
}

/// A random comparison of the atom (wrapped in `+ c`, `zext`, `sext`) with a
/// constant, possibly negated or combined with another.
fn random_constraint(p: &mut ExprPool, rng: &mut Rng, x: ExprId, depth: u32) -> ExprId {
    if depth > 0 && rng.below(4) == 0 {
        let a = random_constraint(p, rng, x, depth - 1);
        let b = random_constraint(p, rng, x, depth - 1);
        return if rng.below(2) == 0 {
            p.bool_and(a, b)
        } else {
            p.bool_or(a, b)
        };
    }
    let w = p.width(x);
    let mut term = x;
    match rng.below(6) {
        0 => {
            let c = p.const_u64(w, rng.next());
            term = p.bin(BinOp::Add, term, c);
        }
        1 => term = p.zext(term, 64),
        2 => term = p.sext(term, 64),
        3 => {
            let k = p.const_u64(w, 1 + rng.below(20));
            term = p.bin(BinOp::UDiv, term, k);
        }
        _ => {}
    }
    let tw = p.width(term);
    // Constants near interesting points: small, near the sign boundary, near max.
    let raw = match rng.below(4) {
        0 => rng.below(8),
        1 => (1u64 << (w - 1)).wrapping_add(rng.below(5)).wrapping_sub(2),
        2 => u64::MAX - rng.below(4),
        _ => rng.next(),
    };
    let c = p.const_u64(tw, raw);
    let op = [CmpOp::Eq, CmpOp::Ult, CmpOp::Ule, CmpOp::Slt, CmpOp::Sle][rng.below(5) as usize];
    let cmp = if rng.below(2) == 0 {
        p.cmp(op, term, c)
    } else {
        p.cmp(op, c, term)
    };
    if rng.below(3) == 0 {
        p.bool_not(cmp)
    } else {
        cmp
    }
}

fn read(p: &mut ExprPool, a: ArrayId, bytes: u32) -> ExprId {
    let arr = p.array(a);
    let mut v: Option<ExprId> = None;
    for i in 0..bytes {
        let idx = p.const_u64(32, i as u64);
        let b = p.select(arr, idx);
        v = Some(match v {
            None => b,
            Some(lo) => p.concat(b, lo),
        });
    }
    v.unwrap()
}

#[test]
fn bounds_layer_agrees_with_bitwuzla() {
    let mut rng = Rng(42);
    let mut p = ExprPool::new();
    let a8 = p.new_array("a8", 1);
    let a32 = p.new_array("a32", 4);
    let x8 = read(&mut p, a8, 1);
    let x32 = read(&mut p, a32, 4);
    let mut layer = BoundsSolver::new(BitwuzlaSolver::new().unwrap());
    let mut oracle = BitwuzlaSolver::new().unwrap();
    let (mut sat, mut unsat) = (0, 0);
    for i in 0..600 {
        let (x, arr) = if i % 2 == 0 { (x8, a8) } else { (x32, a32) };
        let n = 1 + rng.below(5);
        let asserts: Vec<ExprId> = (0..n)
            .map(|_| random_constraint(&mut p, &mut rng, x, 2))
            .collect();
        let got = layer.check(&p, &asserts, &[arr]).unwrap();
        let want = oracle.check(&p, &asserts, &[arr]).unwrap();
        assert_eq!(got.is_sat(), want.is_sat(), "query {i}");
        assert_eq!(got.is_unsat(), want.is_unsat(), "query {i}");
        if let SatResult::Sat(m) = &got {
            for &e in &asserts {
                assert!(
                    p.eval_bool(e, m),
                    "query {i}: model violates {}",
                    p.display(e)
                );
            }
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    // The layer decided nearly everything itself (constants folded away
    // are the only exceptions), and both answers occurred.
    let stats = layer.layer_stats();
    assert_eq!(stats[0].name, "bounds");
    assert!(stats[0].answered >= 550, "{stats:?}");
    assert!(sat > 100 && unsat > 100, "sat {sat} unsat {unsat}");
}

#[test]
fn queries_over_two_terms_pass_through() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 4);
    let b = p.new_array("b", 4);
    let x = read(&mut p, a, 4);
    let y = read(&mut p, b, 4);
    let c = p.const_u64(32, 10);
    let e1 = p.ult(x, c);
    let e2 = p.ult(y, c);
    let prod = p.bin(BinOp::Mul, x, x);
    let e3 = p.eq(prod, c);
    let mut layer = BoundsSolver::new(BitwuzlaSolver::new().unwrap());
    // x < 10 beside x * x == 10: neither extreme (0, 9) satisfies the
    // product, so the backend answers.
    assert!(layer.check(&p, &[e1, e3], &[a]).unwrap().is_unsat());
    assert_eq!(layer.layer_stats()[0].answered, 0);
    // x < 10 beside y < 10: the smallest x (0) with y read as 0 is a model.
    assert!(layer.check(&p, &[e1, e2], &[a, b]).unwrap().is_sat());
    assert_eq!(layer.layer_stats()[0].answered, 1);
    // One term: answered, with the model written into its bytes.
    let lo = p.const_u64(32, 7);
    let e4 = p.ule(lo, x);
    match layer.check(&p, &[e1, e4], &[a]).unwrap() {
        SatResult::Sat(m) => assert_eq!(m.bytes(a), &[7, 0, 0, 0]),
        other => panic!("{other:?}"),
    }
    assert_eq!(layer.layer_stats()[0].answered, 2);
}

#[test]
fn pinned_terms_decide_the_other_assertions() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 4);
    let x = read(&mut p, a, 4);
    let (c5, c6, c24, c25) = (
        p.const_u64(32, 5),
        p.const_u64(32, 6),
        p.const_u64(32, 24),
        p.const_u64(32, 25),
    );
    let ge5 = p.sle(c5, x);
    let lt6 = p.slt(x, c6);
    let sq = p.bin(BinOp::Mul, x, x);
    let is25 = p.eq(sq, c25);
    let is24 = p.eq(sq, c24);
    let mut layer = BoundsSolver::new(BitwuzlaSolver::new().unwrap());
    match layer.check(&p, &[ge5, lt6, is25], &[a]).unwrap() {
        SatResult::Sat(m) => assert_eq!(m.bytes(a), &[5, 0, 0, 0]),
        other => panic!("{other:?}"),
    }
    assert!(layer.check(&p, &[ge5, is24, lt6], &[a]).unwrap().is_unsat());
    assert_eq!(layer.layer_stats()[0].answered, 2);
    // Not determined: a second array beside the pinned one goes down (the
    // guess y = 0 fails; 5 is invertible modulo 2^32, so y exists).
    let b = p.new_array("b", 4);
    let y = read(&mut p, b, 4);
    let prod = p.bin(BinOp::Mul, x, y);
    let odd = p.eq(prod, c24);
    assert!(layer.check(&p, &[ge5, lt6, odd], &[a, b]).unwrap().is_sat());
    assert_eq!(layer.layer_stats()[0].answered, 2);
}

/// A bound outside the term's structural range is unsatisfiable on its
/// own, whatever else the query holds: the bounds check of a lookup
/// table's index (`8188 < (x & 255) << 2`) never reaches the backend.
#[test]
fn bounds_outside_the_structural_range_are_unsat() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 4);
    let b = p.new_array("b", 4);
    let x = read(&mut p, a, 4);
    let y = read(&mut p, b, 4);
    let mask = p.const_u64(32, 255);
    let two = p.const_u64(32, 2);
    let masked = p.bin(BinOp::And, x, mask);
    let idx = p.bin(BinOp::Shl, masked, two);
    let limit = p.const_u64(32, 8188);
    let oob = p.ult(limit, idx);
    // Beside an assertion on another term the layer would otherwise pass.
    let prod = p.bin(BinOp::Mul, x, y);
    let k = p.const_u64(32, 77);
    let other = p.eq(prod, k);
    let mut layer = BoundsSolver::new(BitwuzlaSolver::new().unwrap());
    assert!(layer.check(&p, &[other, oob], &[a, b]).unwrap().is_unsat());
    assert_eq!(layer.layer_stats()[0].answered, 1);
    // Inside the range the layer decides nothing by it: 1000 < idx holds
    // for some x.
    let k1000 = p.const_u64(32, 1000);
    let inside = p.ult(k1000, idx);
    assert!(layer.check(&p, &[other, inside], &[a, b]).unwrap().is_sat());
    assert_eq!(layer.layer_stats()[0].answered, 1);
}
