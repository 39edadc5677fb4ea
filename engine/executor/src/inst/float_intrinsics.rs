//! The floating-point intrinsics clang emits for C's math builtins
//! (`sqrt`, rounding, `fma`, `fmin`/`fmax`, `isnan`/`isinf`/`fpclassify`
//! through `llvm.is.fpclass`). Float and double are symbolic like the
//! other floating-point instructions (`float.rs`); `x86_fp80` is concrete.
//! `minnum`/`maxnum`/`minimum`/`maximum` and `is.fpclass` are built from
//! comparisons and bit tests, so they need no solver support of their own.

use crate::executor::Executor;
use crate::state::State;
use crate::step::{Exec, Stop};
use crate::termination::ErrorKind;
use crate::value::Value;
use symtest_expr::{canonical_nan, fma, softfloat, Bits, ExprId, ExprPool, FpCmpOp};
use symtest_ir::{FMinMax, FloatTy, Intrinsic};

/// `llvm.is.fpclass` test bits.
const SNAN: u64 = 1 << 0;
const QNAN: u64 = 1 << 1;
const NEG_INF: u64 = 1 << 2;
const NEG_NORMAL: u64 = 1 << 3;
const NEG_SUBNORMAL: u64 = 1 << 4;
const NEG_ZERO: u64 = 1 << 5;
const POS_ZERO: u64 = 1 << 6;
const POS_SUBNORMAL: u64 = 1 << 7;
const POS_NORMAL: u64 = 1 << 8;
const POS_INF: u64 = 1 << 9;

/// `is.fpclass(x, mask)` as bit tests on the pattern of `x` (exponent and
/// fraction fields; x86_fp80's explicit integer bit is not part of the
/// fraction).
fn fpclass_expr(p: &mut ExprPool, ty: FloatTy, x: ExprId, mask: u64) -> ExprId {
    let (frac_bits, exp_bits) = match ty {
        FloatTy::F32 => (23, 8),
        FloatTy::F64 => (52, 11),
        FloatTy::F80 => (63, 15),
    };
    let exp_lo = if ty == FloatTy::F80 { 64 } else { frac_bits };
    let exp = p.extract(x, exp_lo, exp_bits);
    let frac = p.extract(x, 0, frac_bits);
    let sign = p.extract(x, ty.bits() - 1, 1);
    let quiet = p.extract(x, frac_bits - 1, 1);
    let zero_exp = p.const_u64(exp_bits, 0);
    let max_exp = p.const_u64(exp_bits, (1 << exp_bits) - 1);
    let zero_frac = p.const_u64(frac_bits, 0);
    let exp_zero = p.eq(exp, zero_exp);
    let exp_max = p.eq(exp, max_exp);
    let frac_zero = p.eq(frac, zero_frac);
    let frac_nonzero = p.bool_not(frac_zero);
    let nan = p.bool_and(exp_max, frac_nonzero);
    let qnan = p.bool_and(nan, quiet);
    let not_quiet = p.bool_not(quiet);
    let snan = p.bool_and(nan, not_quiet);
    let inf = p.bool_and(exp_max, frac_zero);
    let zero = p.bool_and(exp_zero, frac_zero);
    let subnormal = p.bool_and(exp_zero, frac_nonzero);
    let special = p.bool_or(exp_zero, exp_max);
    let normal = p.bool_not(special);
    let pos = p.bool_not(sign);
    let mut r = p.false_();
    let classes = [
        (SNAN, snan, None),
        (QNAN, qnan, None),
        (NEG_INF, inf, Some(true)),
        (NEG_NORMAL, normal, Some(true)),
        (NEG_SUBNORMAL, subnormal, Some(true)),
        (NEG_ZERO, zero, Some(true)),
        (POS_ZERO, zero, Some(false)),
        (POS_SUBNORMAL, subnormal, Some(false)),
        (POS_NORMAL, normal, Some(false)),
        (POS_INF, inf, Some(false)),
    ];
    for (bit, class, negative) in classes {
        if mask & bit == 0 {
            continue;
        }
        let t = match negative {
            None => class,
            Some(true) => p.bool_and(class, sign),
            Some(false) => p.bool_and(class, pos),
        };
        r = p.bool_or(r, t);
    }
    r
}

/// `minnum`/`maxnum`/`minimum`/`maximum` of float/double `a`, `b`: `-0`
/// orders below `+0` (equal operands are combined bitwise: `a | b` for the
/// minimum is `-0` when either zero is negative, `a & b` for the maximum);
/// a NaN result is the canonical one.
fn minmax_expr(p: &mut ExprPool, op: FMinMax, a: ExprId, b: ExprId) -> ExprId {
    let w = p.width(a);
    let nan = p.constant(canonical_nan(w));
    let (a_ok, b_ok) = (p.fcmp(FpCmpOp::Eq, a, a), p.fcmp(FpCmpOp::Eq, b, b));
    let (a_nan, b_nan) = (p.bool_not(a_ok), p.bool_not(b_ok));
    let min = matches!(op, FMinMax::MinNum | FMinMax::Minimum);
    let a_less = p.fcmp(FpCmpOp::Lt, a, b);
    let b_less = p.fcmp(FpCmpOp::Lt, b, a);
    let (pick_a, pick_b) = if min {
        (a_less, b_less)
    } else {
        (b_less, a_less)
    };
    let tie = if min { p.or(a, b) } else { p.and(a, b) };
    let inner = p.ite(pick_b, b, tie);
    let ordered = p.ite(pick_a, a, inner);
    match op {
        FMinMax::MinNum | FMinMax::MaxNum => {
            let both = p.bool_and(a_nan, b_nan);
            let only_b = p.ite(b_nan, a, ordered);
            let only_a = p.ite(a_nan, b, only_b);
            p.ite(both, nan, only_a)
        }
        FMinMax::Minimum | FMinMax::Maximum => {
            let any = p.bool_or(a_nan, b_nan);
            p.ite(any, nan, ordered)
        }
    }
}

impl Executor<'_> {
    pub(crate) fn exec_fp_intrinsic(
        &mut self,
        st: &mut State,
        which: &Intrinsic,
        args: Vec<Value>,
    ) -> Exec<Value> {
        let ty = match *which {
            Intrinsic::FUnary(_, ty)
            | Intrinsic::Fma(ty)
            | Intrinsic::FMinMax(_, ty)
            | Intrinsic::IsFpClass(ty) => ty,
            _ => unreachable!("not a floating-point intrinsic"),
        };
        let want = match which {
            Intrinsic::FUnary(..) => 1,
            Intrinsic::Fma(_) => 3,
            _ => 2,
        };
        if args.len() < want {
            return Err(Stop::error(
                ErrorKind::Exec,
                format!("intrinsic {which:?} with too few arguments"),
            ));
        }
        if let Intrinsic::IsFpClass(_) = which {
            // The class test is bit tests only: exact for every format.
            let mask = self.concretize(st, &args[1], "is.fpclass mask")?.to_u64();
            let x = args[0].expr(&mut self.pool);
            let e = fpclass_expr(&mut self.pool, ty, x, mask);
            return Ok(Value::from_expr(&self.pool, e));
        }
        let mut vals = Vec::with_capacity(want);
        for v in args.into_iter().take(want) {
            vals.push(self.fp_value(st, v, ty)?);
        }
        if let Some(c) = vals
            .iter()
            .map(|v| v.as_concrete().cloned())
            .collect::<Option<Vec<Bits>>>()
        {
            return Ok(Value::Concrete(concrete(which, ty, &c)));
        }
        let p = &mut self.pool;
        let x: Vec<ExprId> = vals.iter().map(|v| v.expr(p)).collect();
        let e = match *which {
            Intrinsic::FUnary(op, _) => p.fun(op, x[0]),
            Intrinsic::Fma(_) => p.ffma(x[0], x[1], x[2]),
            Intrinsic::FMinMax(op, _) => minmax_expr(p, op, x[0], x[1]),
            _ => unreachable!(),
        };
        Ok(Value::from_expr(p, e))
    }
}

/// A floating-point intrinsic on constants (x86_fp80 through `softfloat`,
/// with the x87's NaN rules).
fn concrete(which: &Intrinsic, ty: FloatTy, c: &[Bits]) -> Bits {
    let w = ty.bits();
    match *which {
        Intrinsic::FUnary(op, _) if ty == FloatTy::F80 => {
            softfloat::round_integral(w, op, &c[0]).unwrap_or_else(|| softfloat::sqrt(w, &c[0]))
        }
        Intrinsic::FUnary(op, _) => op.apply(&c[0]),
        Intrinsic::Fma(_) if ty == FloatTy::F80 => softfloat::fma(w, &c[0], &c[1], &c[2]),
        Intrinsic::Fma(_) => fma(&c[0], &c[1], &c[2]),
        Intrinsic::FMinMax(op, _) => {
            let mut p = ExprPool::new();
            let (a, b) = (p.constant(c[0].clone()), p.constant(c[1].clone()));
            let e = minmax_expr(&mut p, op, a, b);
            p.as_const(e).expect("constants fold").clone()
        }
        _ => unreachable!("not a floating-point intrinsic"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The semantics of `minmax_expr`, on f64 (the test's oracle).
    fn minmax_f64(op: FMinMax, x: f64, y: f64) -> f64 {
        let min = matches!(op, FMinMax::MinNum | FMinMax::Minimum);
        if x.is_nan() || y.is_nan() {
            return match op {
                FMinMax::MinNum | FMinMax::MaxNum if !x.is_nan() => x,
                FMinMax::MinNum | FMinMax::MaxNum if !y.is_nan() => y,
                _ => f64::NAN,
            };
        }
        if x == y {
            let neg = if min {
                x.is_sign_negative() || y.is_sign_negative()
            } else {
                x.is_sign_negative() && y.is_sign_negative()
            };
            return if neg { -x.abs() } else { x.abs() };
        }
        if (x < y) == min {
            x
        } else {
            y
        }
    }

    const EDGES: [f64; 10] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        5e-324,
        -5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];

    fn bits(x: f64) -> Bits {
        Bits::from_u64(64, x.to_bits())
    }

    #[test]
    fn minmax_expressions_fold_like_the_concrete_semantics() {
        let mut p = ExprPool::new();
        for op in [
            FMinMax::MinNum,
            FMinMax::MaxNum,
            FMinMax::Minimum,
            FMinMax::Maximum,
        ] {
            for &x in &EDGES {
                for &y in &EDGES {
                    let (a, b) = (p.constant(bits(x)), p.constant(bits(y)));
                    let e = minmax_expr(&mut p, op, a, b);
                    let got = p.as_const(e).expect("folds").to_u64();
                    let want = minmax_f64(op, x, y);
                    let want = if want.is_nan() {
                        0x7ff8_0000_0000_0000
                    } else {
                        want.to_bits()
                    };
                    assert_eq!(got, want, "{op:?}({x}, {y})");
                }
            }
        }
        assert_eq!(
            minmax_f64(FMinMax::MinNum, -0.0, 0.0).to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(minmax_f64(FMinMax::MaxNum, -0.0, 0.0).to_bits(), 0);
        assert_eq!(minmax_f64(FMinMax::MaxNum, f64::NAN, -3.0), -3.0);
        assert!(minmax_f64(FMinMax::Maximum, f64::NAN, -3.0).is_nan());
    }

    #[test]
    fn fpclass_matches_rust_classification() {
        use std::num::FpCategory::*;
        let mut p = ExprPool::new();
        for &x in &EDGES {
            let c = p.constant(bits(x));
            let neg = x.is_sign_negative();
            let class = match x.classify() {
                Nan => 0b11,
                Infinite => {
                    if neg {
                        NEG_INF
                    } else {
                        POS_INF
                    }
                }
                Zero => {
                    if neg {
                        NEG_ZERO
                    } else {
                        POS_ZERO
                    }
                }
                Subnormal => {
                    if neg {
                        NEG_SUBNORMAL
                    } else {
                        POS_SUBNORMAL
                    }
                }
                Normal => {
                    if neg {
                        NEG_NORMAL
                    } else {
                        POS_NORMAL
                    }
                }
            };
            for bit in 0..10 {
                let e = fpclass_expr(&mut p, FloatTy::F64, c, 1 << bit);
                let got = p.as_const(e).expect("folds").is_true();
                assert_eq!(
                    got,
                    class & (1 << bit) != 0 && !(x.is_nan() && bit == 0),
                    "{x} bit {bit}"
                );
            }
        }
        // A signalling NaN (quiet bit clear) of a float.
        let snan = p.const_u64(32, 0x7f80_0001);
        let e = fpclass_expr(&mut p, FloatTy::F32, snan, SNAN);
        assert!(p.as_const(e).unwrap().is_true());
        let e = fpclass_expr(&mut p, FloatTy::F32, snan, QNAN);
        assert!(!p.as_const(e).unwrap().is_true());
    }
}
