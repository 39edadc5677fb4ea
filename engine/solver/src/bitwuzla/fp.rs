//! Floating-point terms (part of the Bitwuzla backend; see the parent
//! module for the safety rules every `unsafe` block here follows).
//!
//! Expressions hold IEEE bit patterns; Bitwuzla's floating-point theory
//! works on values. A bit-vector operand becomes a value with `to_fp`
//! (exact: every pattern denotes one value, all NaNs denote NaN). A value
//! has no bit-vector form in SMT-LIB, so the bits of a floating-point
//! result `r` are a fresh constant `b` defined by `to_fp(b) = r` (SMT
//! equality: unique for every value but NaN), read as
//! `ite(isNaN(r), canonical NaN, b)` so the bits are a function of the
//! operands exactly as in `symtest_expr`'s evaluation. The definitions
//! only constrain their own fresh constants, so the session asserts them
//! once per instance below every push level.

use super::translate::is_fp_valued;
use super::{BitwuzlaSolver, Owned, Term};
use crate::SolverError;
use bitwuzla_sys as bz;
use std::ffi::CString;
use symtest_expr::{
    canonical_nan, format, int_range, softfloat, Bits, ExprId, ExprPool, FpBinOp, FpConvOp, FpUnOp,
    Node,
};

impl BitwuzlaSolver {
    fn rm(&self, mode: bz::BitwuzlaRoundingMode) -> Owned {
        // SAFETY: live manager; `mode` is one of the five rounding modes.
        Owned(unsafe { bz::bitwuzla_mk_rm_value(self.tm, mode) })
    }

    fn extract(&self, t: Term, hi: u32, lo: u32) -> Owned {
        // SAFETY: live manager/term; `lo <= hi < width(t)` by construction.
        Owned(unsafe {
            bz::bitwuzla_mk_term1_indexed2(
                self.tm,
                bz::BITWUZLA_KIND_BV_EXTRACT,
                t,
                u64::from(hi),
                u64::from(lo),
            )
        })
    }

    /// `to_fp` of the bit pattern `t` of width `w`. An x86_fp80 pattern
    /// drops its integer bit (a (15, 64) value), with the x87's readings of
    /// non-canonical patterns: a pseudo-denormal (exponent 0, integer bit
    /// set) is the normal number of exponent 1; an unnormal (integer bit
    /// clear under a non-zero, non-maximal exponent) is NaN.
    fn fp_of_bits(&mut self, t: Term, w: u32) -> Term {
        if w == 80 {
            return self.fp_of_x87(t);
        }
        self.fp_of_ieee(t, w)
    }

    fn fp_of_ieee(&self, t: Term, w: u32) -> Term {
        let (eb, sb) = format(w);
        // SAFETY: live manager/term; `t` is a bit-vector of width eb + sb.
        unsafe {
            bz::bitwuzla_mk_term1_indexed2(
                self.tm,
                bz::BITWUZLA_KIND_FP_TO_FP_FROM_BV,
                t,
                eb as u64,
                sb as u64,
            )
        }
    }

    fn fp_of_x87(&mut self, t: Term) -> Term {
        use bz::{
            BITWUZLA_KIND_AND as AND, BITWUZLA_KIND_BV_CONCAT as CONCAT, BITWUZLA_KIND_EQUAL as EQ,
            BITWUZLA_KIND_ITE as ITE, BITWUZLA_KIND_NOT as NOT,
        };
        let sign = self.extract(t, 79, 79);
        let exp = self.extract(t, 78, 64);
        let int = self.extract(t, 63, 63);
        let frac = self.extract(t, 62, 0);
        let (zero, one, max) = (
            Owned(self.bv_u64(15, 0)),
            Owned(self.bv_u64(15, 1)),
            Owned(self.bv_u64(15, 0x7fff)),
        );
        let bit1 = Owned(self.bv_u64(1, 1));
        let int_set = Owned(self.mk2(EQ, int.0, bit1.0));
        let exp_zero = Owned(self.mk2(EQ, exp.0, zero.0));
        let exp_max = Owned(self.mk2(EQ, exp.0, max.0));
        let pseudo = Owned(self.mk2(AND, exp_zero.0, int_set.0));
        let exp = Owned(self.mk3(ITE, pseudo.0, one.0, exp.0));
        let special = Owned(self.mk2(bz::BITWUZLA_KIND_OR, exp_zero.0, exp_max.0));
        let ordinary = Owned(self.mk1(NOT, special.0));
        let int_clear = Owned(self.mk1(NOT, int_set.0));
        let unnormal = Owned(self.mk2(AND, ordinary.0, int_clear.0));
        let hi = Owned(self.mk2(CONCAT, sign.0, exp.0));
        let ieee = Owned(self.mk2(CONCAT, hi.0, frac.0));
        let (eb, sb) = format(80);
        // SAFETY: live manager/term; `ieee` has eb + sb = 79 bits.
        let value = Owned(unsafe {
            bz::bitwuzla_mk_term1_indexed2(
                self.tm,
                bz::BITWUZLA_KIND_FP_TO_FP_FROM_BV,
                ieee.0,
                u64::from(eb),
                u64::from(sb),
            )
        });
        let nan_bits = Owned(self.bv_const(&canonical_nan(80)));
        let nan = self.fp_of_x87_nan(nan_bits.0);
        let nan = Owned(nan);
        self.mk3(ITE, unnormal.0, nan.0, value.0)
    }

    /// The NaN value (the canonical x86_fp80 NaN read as (15, 64)).
    fn fp_of_x87_nan(&mut self, nan_bits: Term) -> Term {
        let sign = self.extract(nan_bits, 79, 64);
        let frac = self.extract(nan_bits, 62, 0);
        let ieee = Owned(self.mk2(bz::BITWUZLA_KIND_BV_CONCAT, sign.0, frac.0));
        let (eb, sb) = format(80);
        // SAFETY: live manager/term; 79 bits.
        unsafe {
            bz::bitwuzla_mk_term1_indexed2(
                self.tm,
                bz::BITWUZLA_KIND_FP_TO_FP_FROM_BV,
                ieee.0,
                u64::from(eb),
                u64::from(sb),
            )
        }
    }

    /// The floating-point constant `v` (exactly representable) of width `w`.
    fn fp_const(&mut self, w: u32, v: f64) -> Owned {
        let bits = softfloat::convert(64, w, &Bits::from_u64(64, v.to_bits()));
        let b = Owned(self.bv_const(&bits));
        Owned(self.fp_of_bits(b.0, w))
    }

    /// The floating-point form of `id`; its dependencies are memoised.
    pub(super) fn build_fp(&mut self, pool: &ExprPool, id: ExprId) -> Result<Term, SolverError> {
        use bz::{
            BITWUZLA_RM_RNA as RNA, BITWUZLA_RM_RNE as RNE, BITWUZLA_RM_RTN as RTN,
            BITWUZLA_RM_RTP as RTP, BITWUZLA_RM_RTZ as RTZ,
        };
        let w = pool.width(id);
        let fp = |s: &Self, e: ExprId| s.fp[&e];
        Ok(match *pool.node(id) {
            Node::FBin(FpBinOp::Rem, a, b) => self.fmod(fp(self, a), fp(self, b)),
            Node::FBin(op, a, b) => {
                let kind = match op {
                    FpBinOp::Add => bz::BITWUZLA_KIND_FP_ADD,
                    FpBinOp::Sub => bz::BITWUZLA_KIND_FP_SUB,
                    FpBinOp::Mul => bz::BITWUZLA_KIND_FP_MUL,
                    _ => bz::BITWUZLA_KIND_FP_DIV,
                };
                let rm = self.rm(RNE);
                self.mk3(kind, rm.0, fp(self, a), fp(self, b))
            }
            Node::FUn(op, a) => {
                let (kind, mode) = match op {
                    FpUnOp::Sqrt => (bz::BITWUZLA_KIND_FP_SQRT, RNE),
                    FpUnOp::Floor => (bz::BITWUZLA_KIND_FP_RTI, RTN),
                    FpUnOp::Ceil => (bz::BITWUZLA_KIND_FP_RTI, RTP),
                    FpUnOp::Trunc => (bz::BITWUZLA_KIND_FP_RTI, RTZ),
                    FpUnOp::RoundEven => (bz::BITWUZLA_KIND_FP_RTI, RNE),
                    FpUnOp::RoundAway => (bz::BITWUZLA_KIND_FP_RTI, RNA),
                };
                let rm = self.rm(mode);
                self.mk2(kind, rm.0, fp(self, a))
            }
            Node::FFma(a, b, c) => {
                let rm = self.rm(RNE);
                let mut args = [rm.0, fp(self, a), fp(self, b), fp(self, c)];
                // SAFETY: live manager; four live terms of matching sorts.
                unsafe {
                    bz::bitwuzla_mk_term(self.tm, bz::BITWUZLA_KIND_FP_FMA, 4, args.as_mut_ptr())
                }
            }
            Node::FConv(op, a, _) if is_fp_valued(pool.node(id)) => {
                let (kind, arg) = match op {
                    FpConvOp::Resize => (bz::BITWUZLA_KIND_FP_TO_FP_FROM_FP, fp(self, a)),
                    FpConvOp::FromSInt => (bz::BITWUZLA_KIND_FP_TO_FP_FROM_SBV, self.bv[&a]),
                    _ => (bz::BITWUZLA_KIND_FP_TO_FP_FROM_UBV, self.bv[&a]),
                };
                let (eb, sb) = format(w);
                let rm = self.rm(RNE);
                // SAFETY: live manager/terms; the target format is binary32/64.
                unsafe {
                    bz::bitwuzla_mk_term2_indexed2(self.tm, kind, rm.0, arg, eb as u64, sb as u64)
                }
            }
            _ => self.fp_of_bits(self.bv[&id], w),
        })
    }

    /// C's `fmod` from IEEE `remainder` (`r = x - n*y`, `n` the quotient
    /// rounded to nearest): when `r` is non-zero with the sign opposite to
    /// `x`'s, `fmod = r + copysign(|y|, x)` (exactly representable, so the
    /// addition is exact).
    fn fmod(&mut self, x: Term, y: Term) -> Term {
        let r = Owned(self.mk2(bz::BITWUZLA_KIND_FP_REM, x, y));
        let neg_r = Owned(self.mk1(bz::BITWUZLA_KIND_FP_IS_NEG, r.0));
        let neg_x = Owned(self.mk1(bz::BITWUZLA_KIND_FP_IS_NEG, x));
        let zero = Owned(self.mk1(bz::BITWUZLA_KIND_FP_IS_ZERO, r.0));
        let differ = Owned(self.mk2(bz::BITWUZLA_KIND_XOR, neg_r.0, neg_x.0));
        let nonzero = Owned(self.mk1(bz::BITWUZLA_KIND_NOT, zero.0));
        let fix = Owned(self.mk2(bz::BITWUZLA_KIND_AND, differ.0, nonzero.0));
        let abs_y = Owned(self.mk1(bz::BITWUZLA_KIND_FP_ABS, y));
        let neg_abs_y = Owned(self.mk1(bz::BITWUZLA_KIND_FP_NEG, abs_y.0));
        let adj = Owned(self.mk3(bz::BITWUZLA_KIND_ITE, neg_x.0, neg_abs_y.0, abs_y.0));
        let rm = self.rm(bz::BITWUZLA_RM_RNE);
        let sum = Owned(self.mk3(bz::BITWUZLA_KIND_FP_ADD, rm.0, r.0, adj.0));
        self.mk3(bz::BITWUZLA_KIND_ITE, fix.0, sum.0, r.0)
    }

    /// The bit-vector form of a floating-point node (`None` for other
    /// nodes); the node's floating-point form (or its operand's, for
    /// conversions to integers) is memoised.
    pub(super) fn build_fp_bits(&mut self, pool: &ExprPool, id: ExprId) -> Option<Term> {
        let node = pool.node(id);
        if is_fp_valued(node) {
            let w = pool.width(id);
            let r = self.fp[&id];
            // x86_fp80: the (15, 64) bits, the integer bit added below.
            let bw = if w == 80 { 79 } else { w };
            let sort = self.bv_sort(bw);
            let name = CString::new(format!("fpbits{}", id.index())).expect("no NUL");
            // SAFETY: live manager and sort; `name` outlives the call.
            let b = Owned(unsafe { bz::bitwuzla_mk_const(self.tm, sort, name.as_ptr()) });
            let back = Owned(self.fp_of_ieee(b.0, if w == 80 { 79 } else { w }));
            let def = self.mk2(bz::BITWUZLA_KIND_EQUAL, back.0, r);
            self.fp_defs.push(def);
            let bits = if w == 80 {
                // sign and exponent, the integer bit (set unless the
                // exponent is 0), the fraction.
                let hi = self.extract(b.0, 78, 63);
                let exp = self.extract(b.0, 77, 63);
                let zero = Owned(self.bv_u64(15, 0));
                let exp_zero = Owned(self.mk2(bz::BITWUZLA_KIND_EQUAL, exp.0, zero.0));
                let (b0, b1) = (Owned(self.bv_u64(1, 0)), Owned(self.bv_u64(1, 1)));
                let int = Owned(self.mk3(bz::BITWUZLA_KIND_ITE, exp_zero.0, b0.0, b1.0));
                let frac = self.extract(b.0, 62, 0);
                let top = Owned(self.mk2(bz::BITWUZLA_KIND_BV_CONCAT, hi.0, int.0));
                Owned(self.mk2(bz::BITWUZLA_KIND_BV_CONCAT, top.0, frac.0))
            } else {
                Owned(self.copy(b.0))
            };
            let nan = Owned(self.mk1(bz::BITWUZLA_KIND_FP_IS_NAN, r));
            let canon = Owned(self.bv_const(&canonical_nan(w)));
            return Some(self.mk3(bz::BITWUZLA_KIND_ITE, nan.0, canon.0, bits.0));
        }
        let Node::FConv(op @ (FpConvOp::ToSInt | FpConvOp::ToUInt), a, to) = *node else {
            return None;
        };
        let signed = op == FpConvOp::ToSInt;
        let fw = pool.width(a);
        let x = self.fp[&a];
        let rtz = self.rm(bz::BITWUZLA_RM_RTZ);
        let t = Owned(self.mk2(bz::BITWUZLA_KIND_FP_RTI, rtz.0, x));
        let (lo, hi) = int_range(to, signed);
        let (lo, hi) = (self.fp_const(fw, lo), self.fp_const(fw, hi));
        let above = Owned(self.mk2(bz::BITWUZLA_KIND_FP_GEQ, t.0, lo.0));
        let below = Owned(self.mk2(bz::BITWUZLA_KIND_FP_LT, t.0, hi.0));
        let fits = Owned(self.mk2(bz::BITWUZLA_KIND_AND, above.0, below.0));
        let kind = if signed {
            bz::BITWUZLA_KIND_FP_TO_SBV
        } else {
            bz::BITWUZLA_KIND_FP_TO_UBV
        };
        // SAFETY: live manager/terms; result width 1..=128 (checked sorts).
        let conv = Owned(unsafe {
            bz::bitwuzla_mk_term2_indexed1(self.tm, kind, rtz.0, x, u64::from(to))
        });
        let indefinite = if signed {
            Bits::from_u64(to, 1).shl(&Bits::from_u64(to, u64::from(to - 1)))
        } else {
            Bits::zero(to)
        };
        let other = Owned(self.bv_const(&indefinite));
        Some(self.mk3(bz::BITWUZLA_KIND_ITE, fits.0, conv.0, other.0))
    }
}
