//! `<math.h>` functions whose result IEEE 754 defines exactly (correctly
//! rounded `sqrt` and `fma`, the roundings to integral, `fabs`, `copysign`,
//! `fmin`/`fmax`, `fmod`): a call with a symbolic float or double argument
//! is computed as the floating-point expression it denotes instead of
//! running the library's bit-level code (musl's `sqrt` is a loop of integer
//! operations the solver would have to invert), also when no libc defines
//! it (a harness). With concrete arguments the call is an ordinary one (the
//! library's code, or an undefined function under `--external-calls`).
//! The results are the library's, but for the sign and payload of NaNs
//! (canonical here).

use crate::executor::Executor;
use crate::state::State;
use crate::step::Exec;
use crate::value::{Ops, Value};
use symtest_expr::{softfloat, BinOp, Bits, FpBinOp, FpUnOp};
use symtest_ir::{FMinMax, FloatTy, FuncId, Intrinsic, Module};

/// A math function computed as an expression.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LibmFn {
    /// One of the intrinsics' operations (`sqrt`, rounding, `fma`, min/max).
    Intrinsic(LibmIntrinsic),
    Fabs(FloatTy),
    Copysign(FloatTy),
    Fmod(FloatTy),
}

/// The intrinsic a math function is equal to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LibmIntrinsic {
    Unary(FpUnOp, FloatTy),
    Fma(FloatTy),
    MinMax(FMinMax, FloatTy),
}

/// `sqrt` is the double function, `sqrtf` the float one; of the `long
/// double` ones only those computed exactly by bit operations or
/// `softfloat` (`fabsl`, `copysignl`, `fmodl`).
fn by_name(name: &str) -> Option<LibmFn> {
    let long = name
        .strip_suffix('l')
        .and_then(|base| by_base(base, FloatTy::F80))
        .filter(|f| !matches!(f, LibmFn::Intrinsic(_)));
    name.strip_suffix('f')
        .and_then(|base| by_base(base, FloatTy::F32))
        .or(long)
        .or_else(|| by_base(name, FloatTy::F64))
}

fn by_base(base: &str, ty: FloatTy) -> Option<LibmFn> {
    use LibmIntrinsic::*;
    let i = |x| Some(LibmFn::Intrinsic(x));
    match base {
        "sqrt" => i(Unary(FpUnOp::Sqrt, ty)),
        "floor" => i(Unary(FpUnOp::Floor, ty)),
        "ceil" => i(Unary(FpUnOp::Ceil, ty)),
        "trunc" => i(Unary(FpUnOp::Trunc, ty)),
        "round" => i(Unary(FpUnOp::RoundAway, ty)),
        "rint" | "nearbyint" | "roundeven" => i(Unary(FpUnOp::RoundEven, ty)),
        "fma" => i(Fma(ty)),
        "fmin" => i(MinMax(FMinMax::MinNum, ty)),
        "fmax" => i(MinMax(FMinMax::MaxNum, ty)),
        "fabs" => Some(LibmFn::Fabs(ty)),
        "copysign" => Some(LibmFn::Copysign(ty)),
        "fmod" => Some(LibmFn::Fmod(ty)),
        _ => None,
    }
}

fn arity(f: LibmFn) -> usize {
    match f {
        LibmFn::Intrinsic(LibmIntrinsic::Unary(..)) | LibmFn::Fabs(_) => 1,
        LibmFn::Intrinsic(LibmIntrinsic::Fma(_)) => 3,
        _ => 2,
    }
}

fn float_ty(f: LibmFn) -> FloatTy {
    match f {
        LibmFn::Intrinsic(LibmIntrinsic::Unary(_, t))
        | LibmFn::Intrinsic(LibmIntrinsic::Fma(t))
        | LibmFn::Intrinsic(LibmIntrinsic::MinMax(_, t))
        | LibmFn::Fabs(t)
        | LibmFn::Copysign(t)
        | LibmFn::Fmod(t) => t,
    }
}

/// The math function each function of `module` is, when its name and
/// signature (float or double parameters and result) say so.
pub fn table(module: &Module) -> Vec<Option<LibmFn>> {
    module
        .functions
        .iter()
        .map(|func| {
            let f = by_name(symtest_ir::plain_name(&func.name))?;
            let w = float_ty(f).bits();
            let sig_ok = func.param_bits.len() == arity(f)
                && func.param_bits.iter().all(|&b| b == w)
                && func.ret_bits == Some(w);
            sig_ok.then_some(f)
        })
        .collect()
}

impl Executor<'_> {
    /// The result of math function `f`'s call with `args` when it is
    /// computed as an expression (a symbolic argument under `--fp
    /// symbolic`); `None`: call the function.
    pub(crate) fn call_libm(
        &mut self,
        st: &mut State,
        f: FuncId,
        args: &[Value],
    ) -> Exec<Option<Value>> {
        let Some(lf) = self.libm[f.0 as usize] else {
            return Ok(None);
        };
        let symbolic = args.iter().any(|a| !a.is_concrete());
        if args.len() < arity(lf) || !symbolic || !self.fp_symbolic(float_ty(lf)) {
            return Ok(None);
        }
        let ty = float_ty(lf);
        let w = ty.bits();
        let sign = Bits::from_u64(w, 1).shl(&Bits::from_u64(w, u64::from(w - 1)));
        let magnitude = |p: &mut _, v: &Value| {
            Ops::bin(p, BinOp::And, v, &Value::Concrete(Bits::ones(w).xor(&sign)))
        };
        Ok(Some(match lf {
            LibmFn::Intrinsic(i) => {
                let which = match i {
                    LibmIntrinsic::Unary(op, t) => Intrinsic::FUnary(op, t),
                    LibmIntrinsic::Fma(t) => Intrinsic::Fma(t),
                    LibmIntrinsic::MinMax(op, t) => Intrinsic::FMinMax(op, t),
                };
                self.exec_fp_intrinsic(st, &which, args[..arity(lf)].to_vec())?
            }
            LibmFn::Fabs(_) => magnitude(&mut self.pool, &args[0]),
            LibmFn::Copysign(_) => {
                let m = magnitude(&mut self.pool, &args[0]);
                let s = Ops::bin(&mut self.pool, BinOp::And, &args[1], &Value::Concrete(sign));
                Ops::bin(&mut self.pool, BinOp::Or, &m, &s)
            }
            LibmFn::Fmod(_) => {
                let x = self.fp_value(st, args[0].clone(), ty)?;
                let y = self.fp_value(st, args[1].clone(), ty)?;
                match (&x, &y) {
                    (Value::Concrete(a), Value::Concrete(b)) if ty == FloatTy::F80 => {
                        Value::Concrete(softfloat::bin(80, FpBinOp::Rem, a, b))
                    }
                    (Value::Concrete(a), Value::Concrete(b)) => {
                        Value::Concrete(FpBinOp::Rem.apply(a, b))
                    }
                    _ => {
                        let (a, b) = (x.expr(&mut self.pool), y.expr(&mut self.pool));
                        let e = self.pool.fbin(FpBinOp::Rem, a, b);
                        Value::from_expr(&self.pool, e)
                    }
                }
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_to_formats() {
        assert_eq!(
            by_name("sqrt"),
            Some(LibmFn::Intrinsic(LibmIntrinsic::Unary(
                FpUnOp::Sqrt,
                FloatTy::F64
            )))
        );
        assert_eq!(
            by_name("floorf"),
            Some(LibmFn::Intrinsic(LibmIntrinsic::Unary(
                FpUnOp::Floor,
                FloatTy::F32
            )))
        );
        assert_eq!(by_name("fmodf"), Some(LibmFn::Fmod(FloatTy::F32)));
        assert_eq!(by_name("fmod"), Some(LibmFn::Fmod(FloatTy::F64)));
        assert_eq!(by_name("modf"), None);
        assert_eq!(by_name("sqrtl"), None);
        assert_eq!(by_name("fmodl"), Some(LibmFn::Fmod(FloatTy::F80)));
        assert_eq!(by_name("fabsl"), Some(LibmFn::Fabs(FloatTy::F80)));
        assert_eq!(by_name("printf"), None);
    }
}
