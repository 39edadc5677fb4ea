//! Floating-point folding and evaluation against Rust's IEEE `f32`/`f64`.

use super::*;
use crate::eval::Assignment;
use crate::testutil::XorShift;

const D_EDGES: [f64; 16] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.5,
    -2.5,
    1e308,
    -1e308,
    f64::MIN_POSITIVE,
    5e-324,
    -5e-324,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    9007199254740993.0,
];

const F_EDGES: [f32; 14] = [
    0.0,
    -0.0,
    1.0,
    -1.5,
    0.1,
    3.4e38,
    -3.4e38,
    f32::MIN_POSITIVE,
    1e-45,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    16777217.0,
    0.5,
];

fn d(x: f64) -> Bits {
    Bits::from_u64(64, x.to_bits())
}

fn f(x: f32) -> Bits {
    Bits::from_u64(32, u64::from(x.to_bits()))
}

/// Rust's result with NaN made canonical.
fn want_d(x: f64) -> u64 {
    if x.is_nan() {
        0x7ff8_0000_0000_0000
    } else {
        x.to_bits()
    }
}

fn want_f(x: f32) -> u64 {
    if x.is_nan() {
        0x7fc0_0000
    } else {
        u64::from(x.to_bits())
    }
}

#[test]
fn arithmetic_matches_rust_on_edge_cases() {
    for &x in &D_EDGES {
        for &y in &D_EDGES {
            let (a, b) = (d(x), d(y));
            assert_eq!(
                FpBinOp::Add.apply(&a, &b).to_u64(),
                want_d(x + y),
                "{x}+{y}"
            );
            assert_eq!(
                FpBinOp::Sub.apply(&a, &b).to_u64(),
                want_d(x - y),
                "{x}-{y}"
            );
            assert_eq!(
                FpBinOp::Mul.apply(&a, &b).to_u64(),
                want_d(x * y),
                "{x}*{y}"
            );
            assert_eq!(
                FpBinOp::Div.apply(&a, &b).to_u64(),
                want_d(x / y),
                "{x}/{y}"
            );
            assert_eq!(
                FpBinOp::Rem.apply(&a, &b).to_u64(),
                want_d(x % y),
                "{x}%{y}"
            );
            assert_eq!(FpCmpOp::Eq.apply(&a, &b), x == y);
            assert_eq!(FpCmpOp::Lt.apply(&a, &b), x < y);
            assert_eq!(FpCmpOp::Le.apply(&a, &b), x <= y);
        }
    }
    for &x in &F_EDGES {
        for &y in &F_EDGES {
            let (a, b) = (f(x), f(y));
            assert_eq!(
                FpBinOp::Add.apply(&a, &b).to_u64(),
                want_f(x + y),
                "{x}+{y}"
            );
            assert_eq!(
                FpBinOp::Mul.apply(&a, &b).to_u64(),
                want_f(x * y),
                "{x}*{y}"
            );
            assert_eq!(
                FpBinOp::Div.apply(&a, &b).to_u64(),
                want_f(x / y),
                "{x}/{y}"
            );
            assert_eq!(
                FpBinOp::Rem.apply(&a, &b).to_u64(),
                want_f(x % y),
                "{x}%{y}"
            );
            assert_eq!(FpCmpOp::Lt.apply(&a, &b), x < y);
        }
    }
}

#[test]
fn ieee_special_values() {
    // 0/0, inf-inf and sqrt(-1) give the canonical NaN, not x86's negative one.
    let nan = canonical_nan(64);
    assert_eq!(FpBinOp::Div.apply(&d(0.0), &d(0.0)), nan);
    let inf = d(f64::INFINITY);
    assert_eq!(FpBinOp::Sub.apply(&inf, &inf), nan);
    assert_eq!(FpUnOp::Sqrt.apply(&d(-1.0)), nan);
    // Signed zeros: -0 + -0 = -0, -0 + 0 = +0, 1/-0 = -inf; -0 == +0.
    assert_eq!(FpBinOp::Add.apply(&d(-0.0), &d(-0.0)), d(-0.0));
    assert_eq!(FpBinOp::Add.apply(&d(-0.0), &d(0.0)), d(0.0));
    assert_eq!(FpBinOp::Div.apply(&d(1.0), &d(-0.0)), d(f64::NEG_INFINITY));
    assert!(FpCmpOp::Eq.apply(&d(-0.0), &d(0.0)));
    // Round to nearest, ties to even: 2^53 + 1 is not representable.
    let big = d(9007199254740992.0);
    assert_eq!(FpBinOp::Add.apply(&big, &d(1.0)), big);
    // 0.1 + 0.2 != 0.3.
    let s = FpBinOp::Add.apply(&d(0.1), &d(0.2));
    assert!(!FpCmpOp::Eq.apply(&s, &d(0.3)));
    // fmod keeps the dividend's sign.
    assert_eq!(FpBinOp::Rem.apply(&d(-7.0), &d(2.0)), d(-1.0));
    // Subnormals are kept (no flush to zero).
    let tiny = FpBinOp::Div.apply(&d(f64::MIN_POSITIVE), &d(4.0));
    assert_eq!(tiny.to_u64(), (f64::MIN_POSITIVE / 4.0).to_bits());
    assert_ne!(tiny.to_u64(), 0);
}

#[test]
fn rounding_to_integral() {
    let cases = [0.5, 1.5, 2.5, -0.5, -2.5, 3.7, -3.7, 1e300, -0.0];
    for &x in &cases {
        let a = d(x);
        assert_eq!(FpUnOp::Floor.apply(&a).to_u64(), x.floor().to_bits());
        assert_eq!(FpUnOp::Ceil.apply(&a).to_u64(), x.ceil().to_bits());
        assert_eq!(FpUnOp::Trunc.apply(&a).to_u64(), x.trunc().to_bits());
        assert_eq!(FpUnOp::RoundAway.apply(&a).to_u64(), x.round().to_bits());
        assert_eq!(
            FpUnOp::RoundEven.apply(&a).to_u64(),
            x.round_ties_even().to_bits()
        );
    }
    assert_eq!(FpUnOp::RoundEven.apply(&d(2.5)), d(2.0));
    assert_eq!(FpUnOp::RoundAway.apply(&d(2.5)), d(3.0));
    assert_eq!(FpUnOp::Ceil.apply(&d(-0.5)), d(-0.0));
    assert_eq!(FpUnOp::Sqrt.apply(&f(2.0)).to_u64(), want_f(2f32.sqrt()));
    // One rounding in fma: (1 + 2^-30)^2 - 1 keeps the 2^-60 term.
    let e = 1.0 + 2f64.powi(-30);
    let r = fma(&d(e), &d(e), &d(-1.0));
    assert_eq!(r.to_u64(), e.mul_add(e, -1.0).to_bits());
    assert_ne!(r.to_u64(), (e * e - 1.0).to_bits());
}

#[test]
fn conversions() {
    use FpConvOp::*;
    // fptosi truncates toward zero; out of range and NaN give INT_MIN.
    assert_eq!(ToSInt.apply(&d(-3.9), 32).to_i64(), -3);
    assert_eq!(ToSInt.apply(&d(2147483647.9), 32).to_i64(), 2147483647);
    assert_eq!(
        ToSInt.apply(&d(2147483648.0), 32).to_i64(),
        i64::from(i32::MIN)
    );
    assert_eq!(
        ToSInt.apply(&d(-2147483648.9), 32).to_i64(),
        i64::from(i32::MIN)
    );
    assert_eq!(
        ToSInt.apply(&d(-2147483649.0), 32).to_i64(),
        i64::from(i32::MIN)
    );
    assert_eq!(ToSInt.apply(&d(f64::NAN), 64).to_i64(), i64::MIN);
    assert_eq!(ToSInt.apply(&f(-128.5), 8).to_i64(), -128);
    // fptoui: (-1, 2^n) fits; -0.9 truncates to -0 = 0.
    assert_eq!(ToUInt.apply(&d(-0.9), 32).to_u64(), 0);
    assert_eq!(ToUInt.apply(&d(4294967295.5), 32).to_u64(), 4294967295);
    assert_eq!(ToUInt.apply(&d(4294967296.0), 32).to_u64(), 0);
    assert_eq!(ToUInt.apply(&d(-1.0), 32).to_u64(), 0);
    assert_eq!(ToUInt.apply(&d(1.8e19), 64).to_u64(), 18000000000000000000);
    // Integers to floating point round to nearest even.
    assert_eq!(
        FromSInt.apply(&Bits::from_i64(64, (1 << 53) + 1), 64),
        d(9007199254740992.0)
    );
    assert_eq!(FromSInt.apply(&Bits::from_i64(32, -1), 32), f(-1.0));
    assert_eq!(FromUInt.apply(&Bits::from_i64(32, -1), 64), d(4294967295.0));
    assert_eq!(
        FromUInt.apply(&Bits::from_u64(32, 16777217), 32),
        f(16777216.0)
    );
    assert_eq!(FromSInt.apply(&Bits::from_bool(true), 64), d(-1.0));
    // fpext is exact; fptrunc rounds to nearest even and overflows to inf.
    assert_eq!(Resize.apply(&f(0.1), 64), d(f64::from(0.1f32)));
    assert_eq!(Resize.apply(&d(0.1), 32), f(0.1));
    assert_eq!(Resize.apply(&d(1e39), 32), f(f32::INFINITY));
    assert_eq!(Resize.apply(&d(1.0 + 2f64.powi(-24)), 32), f(1.0));
    assert_eq!(Resize.apply(&d(f64::NAN), 32), canonical_nan(32));
}

#[test]
fn random_operands_fold_like_rust() {
    let mut rng = XorShift::new(7);
    for _ in 0..2000 {
        let (x, y) = (f64::from_bits(rng.next()), f64::from_bits(rng.next()));
        let (a, b) = (d(x), d(y));
        assert_eq!(FpBinOp::Add.apply(&a, &b).to_u64(), want_d(x + y));
        assert_eq!(FpBinOp::Div.apply(&a, &b).to_u64(), want_d(x / y));
        let (u, v) = (
            f32::from_bits(rng.next() as u32),
            f32::from_bits(rng.next() as u32),
        );
        assert_eq!(FpBinOp::Mul.apply(&f(u), &f(v)).to_u64(), want_f(u * v));
        assert_eq!(FpUnOp::Sqrt.apply(&f(u)).to_u64(), want_f(u.sqrt()));
    }
}

#[test]
fn symbolic_nodes_evaluate_like_folding() {
    let mut p = ExprPool::new();
    let arr = p.new_array("x", 16);
    let root = p.array(arr);
    let bytes: Vec<ExprId> = (0..16)
        .map(|i| {
            let ix = p.const_u64(32, i);
            p.select(root, ix)
        })
        .collect();
    let word = |p: &mut ExprPool, lo: usize, n: usize| {
        let mut e = bytes[lo];
        for &b in &bytes[lo + 1..lo + n] {
            e = p.concat(b, e);
        }
        e
    };
    let x = word(&mut p, 0, 8);
    let y = word(&mut p, 8, 8);
    let xf = p.extract(x, 0, 32);
    let sum = p.fbin(FpBinOp::Add, x, y);
    let root2 = p.fun(FpUnOp::Sqrt, sum);
    let lt = p.fcmp(FpCmpOp::Lt, x, y);
    let fused = p.ffma(x, y, sum);
    let narrowed = p.fconv(FpConvOp::Resize, root2, 32);
    let as_int = p.fconv(FpConvOp::ToSInt, x, 32);
    let from_int = p.fconv(FpConvOp::FromUInt, xf, 64);
    let mut rng = XorShift::new(3);
    for round in 0..200 {
        let (vx, vy) = if round < D_EDGES.len() * 2 {
            (
                D_EDGES[round % D_EDGES.len()],
                D_EDGES[(round / 2) % D_EDGES.len()],
            )
        } else {
            (
                f64::from_bits(rng.next()),
                (rng.below(2000) as f64) - 1000.5,
            )
        };
        let mut asg = Assignment::new();
        let mut mem = vx.to_bits().to_le_bytes().to_vec();
        mem.extend(vy.to_bits().to_le_bytes());
        asg.set(arr, mem);
        let s = FpBinOp::Add.apply(&d(vx), &d(vy));
        assert_eq!(p.eval(sum, &asg), s);
        assert_eq!(p.eval(root2, &asg), FpUnOp::Sqrt.apply(&s));
        assert_eq!(p.eval_bool(lt, &asg), vx < vy);
        assert_eq!(p.eval(fused, &asg), fma(&d(vx), &d(vy), &s));
        assert_eq!(
            p.eval(narrowed, &asg),
            FpConvOp::Resize.apply(&FpUnOp::Sqrt.apply(&s), 32)
        );
        assert_eq!(p.eval(as_int, &asg), FpConvOp::ToSInt.apply(&d(vx), 32));
        let low = Bits::from_u64(32, vx.to_bits() & 0xffff_ffff);
        assert_eq!(p.eval(from_int, &asg), FpConvOp::FromUInt.apply(&low, 64));
    }
    // x == x is not simplified to true (NaN).
    let same = p.fcmp(FpCmpOp::Eq, x, x);
    assert!(!p.is_constant(same));
    let mut asg = Assignment::new();
    asg.set(arr, f64::NAN.to_bits().to_le_bytes().to_vec());
    assert!(!p.eval_bool(same, &asg));
}
