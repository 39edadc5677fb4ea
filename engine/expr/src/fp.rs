//! IEEE 754 floating-point operators over bit patterns, and their exact
//! concrete semantics.
//!
//! Floating-point values are ordinary bit-vector expressions holding IEEE
//! bit patterns: width 32 is binary32 (`float`), width 64 is binary64
//! (`double`), width 80 is x86_fp80 (`long double`, computed by
//! `softfloat`); no other width is a floating-point operand. Arithmetic
//! rounds to nearest, ties to even (round-to-integral operators name their
//! mode). Every NaN an operator produces is the canonical quiet NaN
//! ([`canonical_nan`]: sign clear, quiet bit set, payload zero), so results
//! are deterministic and the solver can represent them exactly; operators
//! that only move bits (negation, `fabs`, `copysign`) are bit-vector
//! operations and keep payloads, as hardware does.
//!
//! Conversions to integers truncate toward zero; a NaN or a value whose
//! truncation does not fit the integer type (poison in LLVM) gives the x86
//! "integer indefinite" value for signed results (the minimum integer) and
//! 0 for unsigned ones, in the solver too.

use crate::bits::Bits;
use crate::softfloat;

/// Binary arithmetic on two operands of the same format.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum FpBinOp {
    /// `fadd`.
    Add,
    /// `fsub`.
    Sub,
    /// `fmul`.
    Mul,
    /// `fdiv`.
    Div,
    /// `frem`: C's `fmod` (exact; sign of the dividend).
    Rem,
}

/// Unary operators (same format in and out).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum FpUnOp {
    /// Correctly rounded square root.
    Sqrt,
    /// Round to integral toward -inf.
    Floor,
    /// Round to integral toward +inf.
    Ceil,
    /// Round to integral toward zero.
    Trunc,
    /// Round to integral, ties to even (`rint`, `nearbyint`, `roundeven`).
    RoundEven,
    /// Round to integral, ties away from zero (`round`).
    RoundAway,
}

/// Ordered comparisons (false when either operand is NaN); width-1 result.
/// The other LLVM predicates are Boolean combinations of these.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum FpCmpOp {
    /// IEEE equality (`+0 == -0`, NaN unequal to everything).
    Eq,
    /// IEEE less-than.
    Lt,
    /// IEEE less-or-equal.
    Le,
}

/// Conversions; the node's width is the result width.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum FpConvOp {
    /// `fpext` / `fptrunc` between float and double.
    Resize,
    /// `sitofp`: signed integer (1..=128 bits) to float or double.
    FromSInt,
    /// `uitofp`: unsigned integer (1..=128 bits) to float or double.
    FromUInt,
    /// `fptosi` to an integer of 1..=128 bits.
    ToSInt,
    /// `fptoui` to an integer of 1..=128 bits.
    ToUInt,
}

/// Is `w` the width of a floating-point format (32, 64 or 80)?
pub fn is_fp_width(w: u32) -> bool {
    w == 32 || w == 64 || w == 80
}

/// The canonical quiet NaN of width `w` (32, 64: positive; 80: the x87's
/// negative "real indefinite", what its invalid operations produce).
pub fn canonical_nan(w: u32) -> Bits {
    match w {
        32 => Bits::from_u64(32, 0x7fc0_0000),
        64 => Bits::from_u64(64, 0x7ff8_0000_0000_0000),
        _ => Bits::from_u128(80, 0xffff_c000_0000_0000_0000),
    }
}

/// Exponent and significand widths (SMT-LIB: significand includes the
/// hidden bit) of the format of width `w`. x86_fp80 stores its integer
/// bit; its value has the precision of an IEEE-style (15, 64) format.
pub fn format(w: u32) -> (u32, u32) {
    match w {
        32 => (8, 24),
        64 => (11, 53),
        _ => (15, 64),
    }
}

/// x86_fp80 results: `softfloat`'s with any NaN made canonical.
fn canon80(b: Bits) -> Bits {
    let v = b.to_u128();
    let nan = (v >> 64) & 0x7fff == 0x7fff && v & ((1 << 63) - 1) != 0;
    if nan {
        canonical_nan(80)
    } else {
        b
    }
}

// NaN is recognised from the bit pattern: with optimizations, rustc's
// `is_nan` on a folded `0.0 / 0.0` answered false for x86's negative NaN
// (release builds only; `fp_tests::ieee_special_values`).
fn f32_bits(x: f32) -> Bits {
    let b = x.to_bits();
    if b & 0x7f80_0000 == 0x7f80_0000 && b & 0x007f_ffff != 0 {
        canonical_nan(32)
    } else {
        Bits::from_u64(32, u64::from(b))
    }
}

fn f64_bits(x: f64) -> Bits {
    let b = x.to_bits();
    if b & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000 && b & 0x000f_ffff_ffff_ffff != 0 {
        canonical_nan(64)
    } else {
        Bits::from_u64(64, b)
    }
}

fn as_f32(b: &Bits) -> f32 {
    f32::from_bits(b.to_u64() as u32)
}

fn as_f64(b: &Bits) -> f64 {
    f64::from_bits(b.to_u64())
}

/// Applies `$body` to the value of `$a` in its own format and rounds the
/// result back to that format.
macro_rules! per_format {
    ($w:expr, |$x:ident| $body:expr, $a:expr) => {
        if $w == 32 {
            let $x = as_f32($a);
            f32_bits($body)
        } else {
            let $x = as_f64($a);
            f64_bits($body)
        }
    };
}

impl FpBinOp {
    /// All operators.
    pub const ALL: [FpBinOp; 5] = [
        FpBinOp::Add,
        FpBinOp::Sub,
        FpBinOp::Mul,
        FpBinOp::Div,
        FpBinOp::Rem,
    ];

    /// Applies the operator to bit patterns of width 32, 64 or 80.
    pub fn apply(self, a: &Bits, b: &Bits) -> Bits {
        let w = a.width();
        if w == 80 {
            return canon80(softfloat::bin(80, self, a, b));
        }
        if w == 32 {
            let (x, y) = (as_f32(a), as_f32(b));
            f32_bits(match self {
                FpBinOp::Add => x + y,
                FpBinOp::Sub => x - y,
                FpBinOp::Mul => x * y,
                FpBinOp::Div => x / y,
                FpBinOp::Rem => x % y,
            })
        } else {
            let (x, y) = (as_f64(a), as_f64(b));
            f64_bits(match self {
                FpBinOp::Add => x + y,
                FpBinOp::Sub => x - y,
                FpBinOp::Mul => x * y,
                FpBinOp::Div => x / y,
                FpBinOp::Rem => x % y,
            })
        }
    }
}

impl FpUnOp {
    /// All operators.
    pub const ALL: [FpUnOp; 6] = [
        FpUnOp::Sqrt,
        FpUnOp::Floor,
        FpUnOp::Ceil,
        FpUnOp::Trunc,
        FpUnOp::RoundEven,
        FpUnOp::RoundAway,
    ];

    /// Applies the operator to a bit pattern of width 32, 64 or 80.
    pub fn apply(self, a: &Bits) -> Bits {
        let w = a.width();
        if w == 80 {
            return canon80(match softfloat::round_integral(80, self, a) {
                Some(r) => r,
                None => softfloat::sqrt(80, a),
            });
        }
        match self {
            FpUnOp::Sqrt => per_format!(w, |x| x.sqrt(), a),
            FpUnOp::Floor => per_format!(w, |x| x.floor(), a),
            FpUnOp::Ceil => per_format!(w, |x| x.ceil(), a),
            FpUnOp::Trunc => per_format!(w, |x| x.trunc(), a),
            FpUnOp::RoundEven => per_format!(w, |x| x.round_ties_even(), a),
            FpUnOp::RoundAway => per_format!(w, |x| x.round(), a),
        }
    }
}

/// Fused multiply-add `a * b + c` with one rounding.
pub fn fma(a: &Bits, b: &Bits, c: &Bits) -> Bits {
    if a.width() == 80 {
        return canon80(softfloat::fma(80, a, b, c));
    }
    if a.width() == 32 {
        f32_bits(as_f32(a).mul_add(as_f32(b), as_f32(c)))
    } else {
        f64_bits(as_f64(a).mul_add(as_f64(b), as_f64(c)))
    }
}

impl FpCmpOp {
    /// All operators.
    pub const ALL: [FpCmpOp; 3] = [FpCmpOp::Eq, FpCmpOp::Lt, FpCmpOp::Le];

    /// Applies the comparison to IEEE bit patterns of width 32 or 64.
    pub fn apply(self, a: &Bits, b: &Bits) -> bool {
        if a.width() == 80 {
            let o = softfloat::compare(80, a, b);
            return match self {
                FpCmpOp::Eq => o == Some(std::cmp::Ordering::Equal),
                FpCmpOp::Lt => o == Some(std::cmp::Ordering::Less),
                FpCmpOp::Le => matches!(
                    o,
                    Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
                ),
            };
        }
        // Both formats widen to f64 exactly, NaN stays NaN.
        let (x, y) = if a.width() == 32 {
            (f64::from(as_f32(a)), f64::from(as_f32(b)))
        } else {
            (as_f64(a), as_f64(b))
        };
        match self {
            FpCmpOp::Eq => x == y,
            FpCmpOp::Lt => x < y,
            FpCmpOp::Le => x <= y,
        }
    }
}

/// What a conversion to an integer gives for NaN or out-of-range values:
/// the minimum signed integer (x86's "integer indefinite"), or 0.
pub fn indefinite(to: u32, signed: bool) -> Bits {
    if signed {
        Bits::from_u64(to, 1).shl(&Bits::from_u64(to, u64::from(to - 1)))
    } else {
        Bits::zero(to)
    }
}

/// The half-open range `[lo, hi)` of values whose truncation fits an
/// integer of `bits` bits (signed or not), as f64 (powers of two; exact).
pub fn int_range(bits: u32, signed: bool) -> (f64, f64) {
    if signed {
        (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
    } else {
        (0.0, 2f64.powi(bits as i32))
    }
}

impl FpConvOp {
    /// Applies the conversion to `a`, giving a value of width `to`.
    pub fn apply(self, a: &Bits, to: u32) -> Bits {
        let from = a.width();
        if from == 80 || (to == 80 && self != FpConvOp::ToSInt && self != FpConvOp::ToUInt) {
            return match self {
                FpConvOp::Resize => {
                    let r = softfloat::convert(from, to, a);
                    if FpCmpOp::Eq.apply(&r, &r) {
                        r
                    } else {
                        canonical_nan(to)
                    }
                }
                FpConvOp::FromSInt | FpConvOp::FromUInt => {
                    softfloat::from_int(a, self == FpConvOp::FromSInt, to)
                }
                FpConvOp::ToSInt | FpConvOp::ToUInt => {
                    let signed = self == FpConvOp::ToSInt;
                    softfloat::to_int(80, a, to, signed).unwrap_or_else(|| indefinite(to, signed))
                }
            };
        }
        match self {
            FpConvOp::Resize => {
                if to == 64 {
                    f64_bits(f64::from(as_f32(a)))
                } else {
                    f32_bits(as_f64(a) as f32)
                }
            }
            FpConvOp::FromSInt => {
                let v = a.to_i128();
                if to == 32 {
                    f32_bits(v as f32)
                } else {
                    f64_bits(v as f64)
                }
            }
            FpConvOp::FromUInt => {
                let v = a.to_u128();
                if to == 32 {
                    f32_bits(v as f32)
                } else {
                    f64_bits(v as f64)
                }
            }
            FpConvOp::ToSInt | FpConvOp::ToUInt => {
                let signed = self == FpConvOp::ToSInt;
                let x = if a.width() == 32 {
                    f64::from(as_f32(a))
                } else {
                    as_f64(a)
                };
                let t = x.trunc();
                let (lo, hi) = int_range(to, signed);
                if !(t >= lo && t < hi) {
                    return indefinite(to, signed);
                }
                if signed {
                    Bits::from_i128(to, t as i128)
                } else {
                    Bits::from_u128(to, t as u128)
                }
            }
        }
    }
}

// ----- builders -----

use crate::pool::{ExprId, ExprPool, Node};

impl ExprPool {
    fn all_const(&self, ids: &[ExprId]) -> Option<Vec<Bits>> {
        if !self.simplify() {
            return None;
        }
        ids.iter().map(|&e| self.as_const(e).cloned()).collect()
    }

    /// Floating-point `a op b` (equal widths, 32 or 64).
    pub fn fbin(&mut self, op: FpBinOp, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        debug_assert!(is_fp_width(w) && self.width(b) == w, "{op:?} on widths");
        if let Some(c) = self.all_const(&[a, b]) {
            return self.constant(op.apply(&c[0], &c[1]));
        }
        self.intern(Node::FBin(op, a, b), w)
    }

    /// Floating-point unary operator (width 32 or 64).
    pub fn fun(&mut self, op: FpUnOp, a: ExprId) -> ExprId {
        let w = self.width(a);
        debug_assert!(is_fp_width(w), "{op:?} on width {w}");
        if let Some(c) = self.all_const(&[a]) {
            return self.constant(op.apply(&c[0]));
        }
        self.intern(Node::FUn(op, a), w)
    }

    /// Fused multiply-add `a * b + c` (equal widths, 32 or 64).
    pub fn ffma(&mut self, a: ExprId, b: ExprId, c: ExprId) -> ExprId {
        let w = self.width(a);
        debug_assert!(is_fp_width(w) && self.width(b) == w && self.width(c) == w);
        if let Some(k) = self.all_const(&[a, b, c]) {
            return self.constant(fma(&k[0], &k[1], &k[2]));
        }
        self.intern(Node::FFma(a, b, c), w)
    }

    /// Ordered floating-point comparison (equal widths, 32 or 64); width 1.
    /// Not simplified beyond constant folding: `x == x` is false for NaN.
    pub fn fcmp(&mut self, op: FpCmpOp, a: ExprId, b: ExprId) -> ExprId {
        debug_assert!(is_fp_width(self.width(a)) && self.width(b) == self.width(a));
        if let Some(c) = self.all_const(&[a, b]) {
            return self.bool_const(op.apply(&c[0], &c[1]));
        }
        self.intern(Node::FCmp(op, a, b), 1)
    }

    /// Conversion `op` of `a` to width `to` (see [`FpConvOp`] for the
    /// widths each takes).
    pub fn fconv(&mut self, op: FpConvOp, a: ExprId, to: u32) -> ExprId {
        debug_assert!(conv_widths_ok(op, self.width(a), to), "{op:?} to {to}");
        if let Some(c) = self.all_const(&[a]) {
            return self.constant(op.apply(&c[0], to));
        }
        self.intern(Node::FConv(op, a, to), to)
    }
}

/// Are `from` and `to` valid operand and result widths of `op`?
pub fn conv_widths_ok(op: FpConvOp, from: u32, to: u32) -> bool {
    let int = |w: u32| (1..=128).contains(&w);
    match op {
        FpConvOp::Resize => is_fp_width(from) && is_fp_width(to) && from != to,
        FpConvOp::FromSInt | FpConvOp::FromUInt => int(from) && is_fp_width(to),
        FpConvOp::ToSInt | FpConvOp::ToUInt => is_fp_width(from) && int(to),
    }
}

#[cfg(test)]
#[path = "fp_tests.rs"]
mod tests;
