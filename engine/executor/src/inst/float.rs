//! Floating point, computed concretely (a symbolic operand is concretized with a
//! warning; symbolic floating point is future work). `x86_fp80` goes through f64.

use crate::executor::Executor;
use crate::state::State;
use crate::step::Exec;
use crate::value::Value;
use symtest_expr::Bits;
use symtest_ir::{FBinOp, FCastOp, FloatPred, FloatTy, Operand, Reg};

fn to_f64(ty: FloatTy, b: &Bits) -> f64 {
    match ty {
        FloatTy::F32 => f32::from_bits(b.to_u64() as u32) as f64,
        FloatTy::F64 => f64::from_bits(b.to_u64()),
        FloatTy::F80 => f80_to_f64(b.to_u128()),
    }
}

fn from_f64(ty: FloatTy, x: f64) -> Bits {
    match ty {
        FloatTy::F32 => Bits::from_u64(32, (x as f32).to_bits() as u64),
        FloatTy::F64 => Bits::from_u64(64, x.to_bits()),
        FloatTy::F80 => Bits::from_u128(80, f64_to_f80(x)),
    }
}

/// x87 extended precision (1 sign, 15 exponent, 64 mantissa with explicit integer bit).
fn f80_to_f64(v: u128) -> f64 {
    let sign = (v >> 79) & 1;
    let exp = ((v >> 64) & 0x7fff) as i32;
    let mant = v as u64;
    let s = if sign == 1 { -1.0 } else { 1.0 };
    if exp == 0 && mant == 0 {
        return s * 0.0;
    }
    if exp == 0x7fff {
        return if mant << 1 == 0 {
            s * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    // Scale in steps so tiny and huge exponents do not under/overflow early.
    let mut r = mant as f64;
    let mut k = exp - 16383 - 63;
    while k < -1000 {
        r *= 2f64.powi(-1000);
        k += 1000;
    }
    while k > 1000 {
        r *= 2f64.powi(1000);
        k -= 1000;
    }
    s * r * 2f64.powi(k)
}

fn f64_to_f80(x: f64) -> u128 {
    let sign: u128 = if x.is_sign_negative() { 1 } else { 0 };
    if x == 0.0 {
        return sign << 79;
    }
    if x.is_nan() {
        return (0x7fffu128 << 64) | (0xC000_0000_0000_0000u128);
    }
    if x.is_infinite() {
        return (sign << 79) | (0x7fffu128 << 64) | (1u128 << 63);
    }
    let bits = x.abs().to_bits();
    let mut exp = ((bits >> 52) & 0x7ff) as i32;
    let mut frac = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        // Subnormal double: normalise.
        let shift = frac.leading_zeros() - 11;
        frac <<= shift;
        frac &= (1u64 << 52) - 1;
        exp = 1 - shift as i32;
    }
    let mant = (1u64 << 63) | (frac << 11);
    let e80 = (exp - 1023 + 16383) as u128;
    (sign << 79) | (e80 << 64) | mant as u128
}

impl Executor<'_> {
    fn float_operand(&mut self, st: &mut State, o: Operand) -> Exec<Bits> {
        let v = self.operand(st, o)?;
        self.concretize(st, &v, "floating-point operand")
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
        let x = self.float_operand(st, a)?;
        let y = self.float_operand(st, b)?;
        let r = if ty == FloatTy::F32 {
            let (x, y) = (
                f32::from_bits(x.to_u64() as u32),
                f32::from_bits(y.to_u64() as u32),
            );
            let r = match op {
                FBinOp::Add => x + y,
                FBinOp::Sub => x - y,
                FBinOp::Mul => x * y,
                FBinOp::Div => x / y,
                FBinOp::Rem => x % y,
            };
            Bits::from_u64(32, r.to_bits() as u64)
        } else {
            let (x, y) = (to_f64(ty, &x), to_f64(ty, &y));
            let r = match op {
                FBinOp::Add => x + y,
                FBinOp::Sub => x - y,
                FBinOp::Mul => x * y,
                FBinOp::Div => x / y,
                FBinOp::Rem => x % y,
            };
            from_f64(ty, r)
        };
        self.set(st, dest, Value::Concrete(r));
        Ok(())
    }

    pub(crate) fn exec_fneg(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        a: Operand,
        ty: FloatTy,
    ) -> Exec<()> {
        let x = self.float_operand(st, a)?;
        let sign = ty.bits() - 1;
        let r = x.xor(&Bits::from_u64(ty.bits(), 1).shl(&Bits::from_u64(ty.bits(), sign as u64)));
        self.set(st, dest, Value::Concrete(r));
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
        let x = to_f64(ty, &self.float_operand(st, a)?);
        let y = to_f64(ty, &self.float_operand(st, b)?);
        let uno = x.is_nan() || y.is_nan();
        let r = match pred {
            FloatPred::False => false,
            FloatPred::True => true,
            FloatPred::Ord => !uno,
            FloatPred::Uno => uno,
            FloatPred::Oeq => !uno && x == y,
            FloatPred::Ogt => !uno && x > y,
            FloatPred::Oge => !uno && x >= y,
            FloatPred::Olt => !uno && x < y,
            FloatPred::Ole => !uno && x <= y,
            FloatPred::One => !uno && x != y,
            FloatPred::Ueq => uno || x == y,
            FloatPred::Ugt => uno || x > y,
            FloatPred::Uge => uno || x >= y,
            FloatPred::Ult => uno || x < y,
            FloatPred::Ule => uno || x <= y,
            FloatPred::Une => uno || x != y,
        };
        self.set(st, dest, Value::from_bool(r));
        Ok(())
    }

    pub(crate) fn exec_fcast(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        op: FCastOp,
        a: Operand,
    ) -> Exec<()> {
        let v = self.operand(st, a)?;
        let r = match op {
            FCastOp::Convert { from, to } => {
                let x = self.concretize(st, &v, "floating-point operand")?;
                from_f64(to, to_f64(from, &x))
            }
            FCastOp::FpToSi { from, bits } => {
                let x = to_f64(from, &self.concretize(st, &v, "floating-point operand")?);
                Bits::from_i128(bits, x as i128)
            }
            FCastOp::FpToUi { from, bits } => {
                let x = to_f64(from, &self.concretize(st, &v, "floating-point operand")?);
                Bits::from_u128(bits, x as u128)
            }
            FCastOp::SiToFp { to, .. } => {
                let x = self.concretize(st, &v, "integer converted to floating point")?;
                from_f64(to, x.to_i128() as f64)
            }
            FCastOp::UiToFp { to, .. } => {
                let x = self.concretize(st, &v, "integer converted to floating point")?;
                from_f64(to, x.to_u128() as f64)
            }
        };
        self.set(st, dest, Value::Concrete(r));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f80_round_trips_common_values() {
        for x in [0.0, 1.0, -2.5, std::f64::consts::PI, 1e300, -1e-300, 5e-324] {
            assert_eq!(f80_to_f64(f64_to_f80(x)), x, "{x}");
        }
        // 1.0L: exponent 16383, explicit integer bit.
        assert_eq!(f64_to_f80(1.0), (16383u128 << 64) | (1u128 << 63));
    }
}
