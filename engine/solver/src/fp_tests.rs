//! Floating-point terms in the Bitwuzla backend: the translation agrees
//! with `ExprPool::eval` bit for bit (NaN canonicalization, rounding,
//! conversions), and models of free floating-point queries check out.

use crate::tests::{expect_sat, expect_unsat, read_le};
use crate::{BitwuzlaMode, BitwuzlaSolver, SatResult, Solver};
use symtest_expr::{
    softfloat, ArrayId, Assignment, Bits, ExprId, ExprPool, FpBinOp, FpCmpOp, FpConvOp, FpUnOp,
};

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

const EDGES: [f64; 12] = [
    0.0,
    -0.0,
    1.0,
    -2.5,
    0.1,
    1e300,
    5e-324,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    2147483648.0,
    -7.0,
];

/// The constant `x` in the format of width `w`.
fn fconst(p: &mut ExprPool, w: u32, x: f64) -> ExprId {
    let b = softfloat::convert(64, w, &Bits::from_u64(64, x.to_bits()));
    p.constant(b)
}

/// A float, double or x86_fp80 operand: an input (the bytes at offset 0 or
/// 12 of `a`), a constant, or a random operator over them.
fn random_fp(p: &mut ExprPool, rng: &mut Rng, a: ArrayId, w: u32, depth: u32) -> ExprId {
    if depth == 0 || rng.below(3) == 0 {
        return match rng.below(4) {
            0 => {
                let x = EDGES[rng.below(EDGES.len() as u64) as usize];
                fconst(p, w, x)
            }
            k => read_le(p, a, 12 * (k % 2), u64::from(w / 8)),
        };
    }
    let d = depth - 1;
    match rng.below(7) {
        0 | 1 => {
            // Division and remainder of doubles make big circuits: keep them
            // to floats.
            let n = if w == 32 { 5 } else { 3 };
            let op = FpBinOp::ALL[rng.below(n) as usize];
            let x = random_fp(p, rng, a, w, d);
            let y = random_fp(p, rng, a, w, d);
            p.fbin(op, x, y)
        }
        2 => {
            let op = FpUnOp::ALL[rng.below(6) as usize];
            let op = if w != 32 && op == FpUnOp::Sqrt {
                FpUnOp::Trunc
            } else {
                op
            };
            let x = random_fp(p, rng, a, w, d);
            p.fun(op, x)
        }
        3 => {
            let from = [32, 64, 80]
                .into_iter()
                .filter(|&f| f != w)
                .nth(rng.below(2) as usize);
            let x = random_fp(p, rng, a, from.unwrap(), d);
            p.fconv(FpConvOp::Resize, x, w)
        }
        4 => {
            let iw = [8, 32, 64][rng.below(3) as usize];
            let i = read_le(p, a, rng.below(8), iw / 8);
            let op = if rng.below(2) == 0 {
                FpConvOp::FromSInt
            } else {
                FpConvOp::FromUInt
            };
            p.fconv(op, i, w)
        }
        5 if w == 32 => {
            let x = random_fp(p, rng, a, w, d);
            let y = random_fp(p, rng, a, w, d);
            let z = random_fp(p, rng, a, w, d);
            p.ffma(x, y, z)
        }
        _ => {
            let op = FpCmpOp::ALL[rng.below(3) as usize];
            let x = random_fp(p, rng, a, w, d);
            let y = random_fp(p, rng, a, w, d);
            let c = p.fcmp(op, x, y);
            let t = random_fp(p, rng, a, w, d);
            let e = random_fp(p, rng, a, w, d);
            p.ite(c, t, e)
        }
    }
}

/// Two 12-byte slots, each holding a float, double or x86_fp80 (random
/// bytes after it).
fn input_bytes(rng: &mut Rng, round: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for k in 0..2 {
        let x = if (round + k).is_multiple_of(3) {
            f64::from_bits(rng.next())
        } else {
            EDGES[rng.below(EDGES.len() as u64) as usize]
        };
        let mut slot: Vec<u8> = (0..12).map(|_| rng.next() as u8).collect();
        let bytes = match rng.below(3) {
            0 => (x as f32).to_bits().to_le_bytes().to_vec(),
            1 => x.to_bits().to_le_bytes().to_vec(),
            _ => softfloat::convert(64, 80, &Bits::from_u64(64, x.to_bits())).to_bytes_le(),
        };
        slot[..bytes.len()].copy_from_slice(&bytes);
        v.extend(slot);
    }
    v
}

/// Pinning the inputs, `e == eval(e)` is Sat and `e != eval(e)` Unsat, for
/// random floating-point expressions, their comparisons and conversions
/// to integers.
#[test]
fn fp_translation_agrees_with_eval() {
    for (mode, simplify) in [
        (BitwuzlaMode::PushPop, false),
        (BitwuzlaMode::Incremental, true),
        (BitwuzlaMode::Fresh, false),
    ] {
        let mut rng = Rng(0x5eed_f10a_7000_0001);
        let mut p = ExprPool::new();
        p.set_simplify(simplify);
        let a = p.new_array("in", 24);
        let mut s = BitwuzlaSolver::with_mode(mode).unwrap();
        let rounds = if mode == BitwuzlaMode::PushPop {
            30
        } else {
            10
        };
        for round in 0..rounds {
            let w = [32, 64, 80][rng.below(3) as usize];
            let x = random_fp(&mut p, &mut rng, a, w, 3);
            let e = match rng.below(4) {
                0 => {
                    let y = random_fp(&mut p, &mut rng, a, w, 1);
                    p.fcmp(FpCmpOp::ALL[rng.below(3) as usize], x, y)
                }
                1 => {
                    let op = if rng.below(2) == 0 {
                        FpConvOp::ToSInt
                    } else {
                        FpConvOp::ToUInt
                    };
                    p.fconv(op, x, [8, 32, 64][rng.below(3) as usize])
                }
                _ => x,
            };
            let bytes = input_bytes(&mut rng, round);
            let mut asg = Assignment::new();
            asg.set(a, bytes.clone());
            let want = p.eval(e, &asg);
            let arr = p.array(a);
            let mut pins = Vec::new();
            for (i, &b) in bytes.iter().enumerate() {
                let idx = p.const_u64(32, i as u64);
                let sel = p.select(arr, idx);
                let v = p.const_u64(8, u64::from(b));
                pins.push(p.eq(sel, v));
            }
            let c = p.constant(want);
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

fn dconst(p: &mut ExprPool, x: f64) -> ExprId {
    p.const_u64(64, x.to_bits())
}

/// Free floating-point queries: Bitwuzla finds inputs, `eval` confirms them.
#[test]
fn fp_queries_find_checked_models() {
    let mut p = ExprPool::new();
    let a = p.new_array("x", 8);
    let x = read_le(&mut p, a, 0, 8);
    let mut s = BitwuzlaSolver::new().unwrap();
    // (x - 32) * 5 / 9 > 100 (Celsius), x < 300.
    let c32 = dconst(&mut p, 32.0);
    let c5 = dconst(&mut p, 5.0);
    let c9 = dconst(&mut p, 9.0);
    let t = p.fbin(FpBinOp::Sub, x, c32);
    let t = p.fbin(FpBinOp::Mul, t, c5);
    let t = p.fbin(FpBinOp::Div, t, c9);
    let c100 = dconst(&mut p, 100.0);
    let hot = p.fcmp(FpCmpOp::Lt, c100, t);
    let c300 = dconst(&mut p, 300.0);
    let below = p.fcmp(FpCmpOp::Lt, x, c300);
    let m = expect_sat(&mut s, &p, &[hot, below], &[a]);
    let v = f64::from_bits(u64::from_le_bytes(m.bytes(a).try_into().unwrap()));
    assert!(v > 212.0 && v < 300.0, "{v}");
    // x + 1 == x for a finite, non-NaN x: a large magnitude.
    let one = dconst(&mut p, 1.0);
    let sum = p.fbin(FpBinOp::Add, x, one);
    let same = p.fcmp(FpCmpOp::Eq, sum, x);
    let inf = dconst(&mut p, f64::INFINITY);
    let finite = p.fcmp(FpCmpOp::Lt, x, inf);
    let m = expect_sat(&mut s, &p, &[same, finite], &[a]);
    let v = f64::from_bits(u64::from_le_bytes(m.bytes(a).try_into().unwrap()));
    assert!(v.abs() >= 9007199254740992.0, "{v}");
    // (int)x == 7 && x < 7: unsat (truncation of [7, 8)).
    let i = p.fconv(FpConvOp::ToSInt, x, 32);
    let seven = p.const_u64(32, 7);
    let is7 = p.eq(i, seven);
    let c7 = dconst(&mut p, 7.0);
    let lt7 = p.fcmp(FpCmpOp::Lt, x, c7);
    expect_unsat(&mut s, &p, &[is7, lt7]);
    // The bits of x / x: a NaN (x zero, infinite or NaN) is the canonical one.
    let q = p.fbin(FpBinOp::Div, x, x);
    let nan_bits = p.const_u64(64, 0x7ff8_0000_0000_0000);
    let is_canon = p.eq(q, nan_bits);
    let not_nan_x = p.fcmp(FpCmpOp::Eq, x, x);
    let m = expect_sat(&mut s, &p, &[is_canon, not_nan_x], &[a]);
    let v = f64::from_bits(u64::from_le_bytes(m.bytes(a).try_into().unwrap()));
    assert!(v == 0.0 || v.is_infinite(), "{v}");
    let neg_nan = p.const_u64(64, 0xfff8_0000_0000_0000);
    let is_neg_nan = p.eq(q, neg_nan);
    expect_unsat(&mut s, &p, &[is_neg_nan]);
    // fmod(x, 2) == -1: x is a negative odd integer (float x: small circuit).
    let xf = p.extract(x, 0, 32);
    let two = p.const_u64(32, u64::from(2f32.to_bits()));
    let r = p.fbin(FpBinOp::Rem, xf, two);
    let m1 = p.const_u64(32, u64::from((-1f32).to_bits()));
    let is_m1 = p.eq(r, m1);
    let m = expect_sat(&mut s, &p, &[is_m1], &[a]);
    let v = f32::from_bits(u32::from_le_bytes(m.bytes(a)[..4].try_into().unwrap()));
    assert!(v < 0.0 && v.fract() == 0.0 && v % 2.0 == -1.0, "{v}");
    // Signed zero: x == 0 but its sign bit set.
    let zero = dconst(&mut p, 0.0);
    let eq0 = p.fcmp(FpCmpOp::Eq, x, zero);
    let sign = p.extract(x, 63, 1);
    let m = expect_sat(&mut s, &p, &[eq0, sign], &[a]);
    assert_eq!(
        u64::from_le_bytes(m.bytes(a).try_into().unwrap()),
        (-0.0f64).to_bits()
    );
}

/// A float read from array `a` (4 bytes), or a float constant.
fn float_operand(p: &mut ExprPool, rng: &mut Rng, arrs: &[ArrayId]) -> ExprId {
    if rng.below(3) == 0 {
        let x = [0.0f32, -0.0, 1.5, -3.0, 100.0, 1e-40, f32::INFINITY][rng.below(7) as usize];
        return p.const_u64(32, u64::from(x.to_bits()));
    }
    read_le(p, arrs[rng.below(arrs.len() as u64) as usize], 0, 4)
}

/// A random floating-point constraint: an ordered comparison of float
/// arithmetic, a test on the result's bits, or a conversion to an integer.
fn fp_atom(p: &mut ExprPool, rng: &mut Rng, arrs: &[ArrayId]) -> ExprId {
    let x = float_operand(p, rng, arrs);
    let y = float_operand(p, rng, arrs);
    let v = match rng.below(4) {
        0 => p.fbin(FpBinOp::Add, x, y),
        1 => p.fbin(FpBinOp::Mul, x, y),
        2 => p.fun(FpUnOp::Floor, x),
        _ => x,
    };
    match rng.below(5) {
        0 => {
            let c = float_operand(p, rng, arrs);
            p.fcmp(FpCmpOp::Lt, v, c)
        }
        1 => p.fcmp(FpCmpOp::Eq, v, y),
        2 => {
            // The sign bit of the result (its bit-vector form).
            p.extract(v, 31, 1)
        }
        3 => {
            let i = p.fconv(FpConvOp::ToSInt, v, 8);
            let c = p.const_u64(8, rng.below(8));
            p.eq(i, c)
        }
        _ => {
            let c = p.fcmp(FpCmpOp::Le, v, v);
            p.bool_not(c)
        }
    }
}

/// No combination of the chain's layers changes an answer on queries with
/// floating-point terms (the property of `chain_tests`, on path-like
/// families of floating-point constraints).
#[test]
fn every_layer_combination_agrees_on_fp_queries() {
    use crate::chain_tests::{run_all_configs, Query};
    let mut p = ExprPool::new();
    let arrs: Vec<ArrayId> = (0..3).map(|i| p.new_array(&format!("f{i}"), 4)).collect();
    let mut rng = Rng(0xf00d_0000_0000_0001);
    let mut oracle = BitwuzlaSolver::new().unwrap();
    let mut queries = Vec::new();
    let mut sats = 0;
    for _ in 0..5 {
        let mut pc: Vec<ExprId> = Vec::new();
        for _ in 0..6 {
            let atom = fp_atom(&mut p, &mut rng, &arrs);
            let mut q = pc.clone();
            q.push(atom);
            let sat = oracle.check(&p, &q, &arrs).unwrap().is_sat();
            queries.push(Query {
                asserts: q,
                arrays: arrs.clone(),
            });
            let not = p.bool_not(atom);
            let mut q = pc.clone();
            q.push(not);
            sats += usize::from(sat) + usize::from(oracle.check(&p, &q, &arrs).unwrap().is_sat());
            queries.push(Query {
                asserts: q,
                arrays: arrs.clone(),
            });
            pc.push(if sat { atom } else { not });
        }
    }
    // Both answers occur.
    assert!(
        sats > queries.len() / 5 && sats < queries.len(),
        "{sats}/{}",
        queries.len()
    );
    let results = run_all_configs(&p, &queries);
    assert_eq!(results.len(), crate::chain_tests::all_configs().len());
}
