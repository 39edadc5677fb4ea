//! Floating point. `float`, `double` and `long double` (x86_fp80) are
//! symbolic: an operation on a symbolic operand builds a floating-point
//! expression (`symtest_expr`'s IEEE nodes, solved with Bitwuzla's
//! floating-point theory); constants fold with the same exact semantics
//! (round to nearest even, canonical NaN results), constant long doubles
//! through `symtest_expr::softfloat` with the x87's NaN rules. A symbolic
//! long double operand is concretized with a warning unless `--fp full`
//! (`Config::symbolic_long_double`); under `--fp concrete`
//! (`Config::symbolic_fp` off) every symbolic operand is.

use crate::executor::Executor;
use crate::state::State;
use crate::step::{Exec, StepCtx};
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use symtest_expr::{
    int_range, softfloat, BinOp, Bits, ExprId, ExprPool, FpBinOp, FpCmpOp, FpConvOp, FpUnOp,
};
use symtest_ir::{FBinOp, FCastOp, FloatPred, FloatTy, Operand, Reg};

fn fp_bin_op(op: FBinOp) -> FpBinOp {
    match op {
        FBinOp::Add => FpBinOp::Add,
        FBinOp::Sub => FpBinOp::Sub,
        FBinOp::Mul => FpBinOp::Mul,
        FBinOp::Div => FpBinOp::Div,
        FBinOp::Rem => FpBinOp::Rem,
    }
}

/// `fcmp pred a, b` from the three ordered comparisons (float/double).
pub(crate) fn fcmp_expr(p: &mut ExprPool, pred: FloatPred, a: ExprId, b: ExprId) -> ExprId {
    use FloatPred::*;
    let mut f = |op: FpCmpOp, x: ExprId, y: ExprId| p.fcmp(op, x, y);
    let (r, negate) = match pred {
        False => return p.false_(),
        True => return p.true_(),
        Oeq => (f(FpCmpOp::Eq, a, b), false),
        Une => (f(FpCmpOp::Eq, a, b), true),
        Olt => (f(FpCmpOp::Lt, a, b), false),
        Uge => (f(FpCmpOp::Lt, a, b), true),
        Ole => (f(FpCmpOp::Le, a, b), false),
        Ugt => (f(FpCmpOp::Le, a, b), true),
        Ogt => (f(FpCmpOp::Lt, b, a), false),
        Ule => (f(FpCmpOp::Lt, b, a), true),
        Oge => (f(FpCmpOp::Le, b, a), false),
        Ult => (f(FpCmpOp::Le, b, a), true),
        One | Ueq => {
            let (lt, gt) = (f(FpCmpOp::Lt, a, b), f(FpCmpOp::Lt, b, a));
            (p.bool_or(lt, gt), pred == Ueq)
        }
        Ord | Uno => {
            let (x, y) = (f(FpCmpOp::Eq, a, a), f(FpCmpOp::Eq, b, b));
            (p.bool_and(x, y), pred == Uno)
        }
    };
    if negate {
        p.bool_not(r)
    } else {
        r
    }
}

fn concrete_fcmp(pred: FloatPred, order: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    use FloatPred::*;
    match (pred, order) {
        (False, _) => false,
        (True, _) => true,
        (Uno | Ueq | Ugt | Uge | Ult | Ule | Une, None) => true,
        (_, None) => false,
        (Ord, _) => true,
        (Uno, _) => false,
        (Oeq | Ueq, Some(o)) => o == Equal,
        (Ogt | Ugt, Some(o)) => o == Greater,
        (Oge | Uge, Some(o)) => o != Less,
        (Olt | Ult, Some(o)) => o == Less,
        (Ole | Ule, Some(o)) => o != Greater,
        (One | Une, Some(o)) => o != Equal,
    }
}

/// A cast of a constant through `softfloat` (exact, x87 NaN rules).
fn concrete_cast(op: FCastOp, x: &Bits) -> Bits {
    match op {
        FCastOp::Convert { from, to } => softfloat::convert(from.bits(), to.bits(), x),
        FCastOp::FpToSi { from, bits } | FCastOp::FpToUi { from, bits } => {
            let signed = matches!(op, FCastOp::FpToSi { .. });
            // Out of range was reported before; what is left fits.
            softfloat::to_int(from.bits(), x, bits, signed).unwrap_or_else(|| Bits::zero(bits))
        }
        FCastOp::SiToFp { to, .. } => softfloat::from_int(x, true, to.bits()),
        FCastOp::UiToFp { to, .. } => softfloat::from_int(x, false, to.bits()),
    }
}

fn conv_what(op: FCastOp) -> &'static str {
    match op {
        FCastOp::SiToFp { .. } | FCastOp::UiToFp { .. } => "integer converted to floating point",
        _ => "floating-point operand",
    }
}

impl Executor<'_> {
    /// `fptosi`/`fptoui` of a value whose truncation does not fit the
    /// integer type (or of NaN) is undefined behaviour (UBSan's
    /// float-cast-overflow, which the native replay build checks): such a
    /// value is an `overflow` error path; the state continues with the
    /// values that fit.
    fn check_conversion_range(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        v: &Value,
        from: FloatTy,
        bits: u32,
        signed: bool,
    ) -> Exec<()> {
        if !(1..=128).contains(&bits) {
            return Ok(());
        }
        let (lo, hi) = int_range(bits, signed);
        let bad = match v {
            Value::Concrete(b) => {
                Value::from_bool(softfloat::to_int(from.bits(), b, bits, signed).is_none())
            }
            Value::Symbolic(_) if !self.fp_symbolic(from) => {
                let b = self.concretize(st, v, "floating-point operand")?;
                Value::from_bool(softfloat::to_int(from.bits(), &b, bits, signed).is_none())
            }
            Value::Symbolic(e) => {
                let p = &mut self.pool;
                let w = from.bits();
                // Powers of two: exact in every format (2^128 is +inf in float).
                let konst = |p: &mut ExprPool, x: f64| {
                    let b = softfloat::convert(64, w, &Bits::from_u64(64, x.to_bits()));
                    p.constant(b)
                };
                let t = p.fun(FpUnOp::Trunc, *e);
                let (lo, hi) = (konst(p, lo), konst(p, hi));
                let above = p.fcmp(FpCmpOp::Le, lo, t);
                let below = p.fcmp(FpCmpOp::Lt, t, hi);
                let fits = p.bool_and(above, below);
                let bad = p.bool_not(fits);
                Value::from_expr(p, bad)
            }
        };
        let what = if signed { "fptosi" } else { "fptoui" };
        self.check_error(
            st,
            ctx,
            &bad,
            ErrorKind::Overflow,
            &format!("floating-point value out of the range of i{bits} ({what})"),
        )
    }

    /// Is `ty` computed symbolically (float/double under `--fp symbolic`)?
    pub(crate) fn fp_symbolic(&self, ty: FloatTy) -> bool {
        self.config.symbolic_fp && (ty != FloatTy::F80 || self.config.symbolic_long_double)
    }

    /// The operand's value; concretized (with a warning) unless `ty` is
    /// computed symbolically.
    pub(crate) fn fp_value(&mut self, st: &mut State, v: Value, ty: FloatTy) -> Exec<Value> {
        if v.is_concrete() || self.fp_symbolic(ty) {
            return Ok(v);
        }
        Ok(Value::Concrete(self.concretize(
            st,
            &v,
            "floating-point operand",
        )?))
    }

    fn fp_operand(&mut self, st: &mut State, o: Operand, ty: FloatTy) -> Exec<Value> {
        let v = self.operand(st, o)?;
        self.fp_value(st, v, ty)
    }

    pub(crate) fn exec_fbin(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        op: FBinOp,
        a: Operand,
        b: Operand,
        ty: FloatTy,
    ) -> Exec<()> {
        let x = self.fp_operand(st, a, ty)?;
        let y = self.fp_operand(st, b, ty)?;
        let r = match (&x, &y) {
            (Value::Concrete(x), Value::Concrete(y)) if ty == FloatTy::F80 => {
                Value::Concrete(softfloat::bin(80, fp_bin_op(op), x, y))
            }
            (Value::Concrete(x), Value::Concrete(y)) => Value::Concrete(fp_bin_op(op).apply(x, y)),
            _ => {
                let (x, y) = (x.expr(&mut self.pool), y.expr(&mut self.pool));
                let e = self.pool.fbin(fp_bin_op(op), x, y);
                Value::from_expr(&self.pool, e)
            }
        };
        self.set(st, dest, r);
        Ok(())
    }

    /// `fneg` flips the sign bit (NaN payloads kept), symbolic or not.
    pub(crate) fn exec_fneg(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        a: Operand,
        ty: FloatTy,
    ) -> Exec<()> {
        let x = self.operand(st, a)?;
        let w = ty.bits();
        let sign = Bits::from_u64(w, 1).shl(&Bits::from_u64(w, u64::from(w - 1)));
        let r = Ops::bin(&mut self.pool, BinOp::Xor, &x, &Value::Concrete(sign));
        self.set(st, dest, r);
        Ok(())
    }

    pub(crate) fn exec_fcmp(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        pred: FloatPred,
        a: Operand,
        b: Operand,
        ty: FloatTy,
    ) -> Exec<()> {
        let x = self.fp_operand(st, a, ty)?;
        let y = self.fp_operand(st, b, ty)?;
        let r = match (&x, &y) {
            (Value::Concrete(x), Value::Concrete(y)) => {
                Value::from_bool(concrete_fcmp(pred, softfloat::compare(ty.bits(), x, y)))
            }
            _ => {
                let (x, y) = (x.expr(&mut self.pool), y.expr(&mut self.pool));
                let e = fcmp_expr(&mut self.pool, pred, x, y);
                Value::from_expr(&self.pool, e)
            }
        };
        self.set(st, dest, r);
        Ok(())
    }

    pub(crate) fn exec_fcast(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        op: FCastOp,
        a: Operand,
    ) -> Exec<()> {
        let v = self.operand(st, a)?;
        if let FCastOp::FpToSi { from, bits } | FCastOp::FpToUi { from, bits } = op {
            let signed = matches!(op, FCastOp::FpToSi { .. });
            self.check_conversion_range(st, ctx, &v, from, bits, signed)?;
        }
        // The expression form of the cast, when integers have at most 128
        // bits; concrete x86_fp80 conversions keep the x87's NaN payloads.
        let (conv, to, fty) = match op {
            FCastOp::Convert { from, to } => (FpConvOp::Resize, to.bits(), [from, to]),
            FCastOp::FpToSi { from, bits } => (FpConvOp::ToSInt, bits, [from, from]),
            FCastOp::FpToUi { from, bits } => (FpConvOp::ToUInt, bits, [from, from]),
            FCastOp::SiToFp { to, .. } => (FpConvOp::FromSInt, to.bits(), [to, to]),
            FCastOp::UiToFp { to, .. } => (FpConvOp::FromUInt, to.bits(), [to, to]),
        };
        let int_bits = match op {
            FCastOp::FpToSi { bits, .. }
            | FCastOp::FpToUi { bits, .. }
            | FCastOp::SiToFp { bits, .. }
            | FCastOp::UiToFp { bits, .. } => bits,
            FCastOp::Convert { .. } => 1,
        };
        let exact = (1..=128).contains(&int_bits);
        if let FCastOp::Convert { from, to } = op {
            if from == to {
                self.set(st, dest, v);
                return Ok(());
            }
        }
        if exact {
            let r = match &v {
                Value::Symbolic(e) if fty.iter().all(|&t| self.fp_symbolic(t)) => {
                    let e = self.pool.fconv(conv, *e, to);
                    Value::from_expr(&self.pool, e)
                }
                _ if fty.contains(&FloatTy::F80) => {
                    let x = self.concretize(st, &v, conv_what(op))?;
                    Value::Concrete(concrete_cast(op, &x))
                }
                _ => {
                    let what = conv_what(op);
                    let b = self.concretize(st, &v, what)?;
                    Value::Concrete(conv.apply(&b, to))
                }
            };
            self.set(st, dest, r);
            return Ok(());
        }
        let x = self.concretize(st, &v, conv_what(op))?;
        self.set(st, dest, Value::Concrete(concrete_cast(op, &x)));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f80_round_trips_common_values() {
        let ld = |x: f64| softfloat::convert(64, 80, &Bits::from_u64(64, x.to_bits()));
        for x in [0.0, 1.0, -2.5, std::f64::consts::PI, 1e300, -1e-300, 5e-324] {
            let back = softfloat::convert(80, 64, &ld(x));
            assert_eq!(f64::from_bits(back.to_u64()), x, "{x}");
        }
        // 1.0L: exponent 16383, explicit integer bit.
        assert_eq!(ld(1.0).to_u128(), (16383u128 << 64) | (1u128 << 63));
    }

    #[test]
    fn every_predicate_from_the_ordered_comparisons() {
        use std::cmp::Ordering;
        let preds = [
            FloatPred::Oeq,
            FloatPred::Ogt,
            FloatPred::Oge,
            FloatPred::Olt,
            FloatPred::Ole,
            FloatPred::One,
            FloatPred::Ord,
            FloatPred::Ueq,
            FloatPred::Ugt,
            FloatPred::Uge,
            FloatPred::Ult,
            FloatPred::Ule,
            FloatPred::Une,
            FloatPred::Uno,
        ];
        let xs = [0.0, -0.0, 1.0, -1.0, f64::INFINITY, f64::NAN];
        let mut p = ExprPool::new();
        for &x in &xs {
            for &y in &xs {
                let (a, b) = (p.const_u64(64, x.to_bits()), p.const_u64(64, y.to_bits()));
                let order = x.partial_cmp(&y);
                for pred in preds {
                    let e = fcmp_expr(&mut p, pred, a, b);
                    let folded = p.as_const(e).unwrap().is_true();
                    assert_eq!(folded, concrete_fcmp(pred, order), "{pred:?} {x} {y}");
                }
                let uno = order.is_none();
                assert_eq!(concrete_fcmp(FloatPred::Ult, order), uno || x < y);
                assert_eq!(concrete_fcmp(FloatPred::One, order), !uno && x != y);
                assert_eq!(order == Some(Ordering::Equal), x == y);
            }
        }
    }
}
