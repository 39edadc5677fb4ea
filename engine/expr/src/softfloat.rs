//! Exact concrete arithmetic for x86_fp80 (`long double`), as the x87 FPU
//! computes it with its default 64-bit precision and round to nearest even:
//! values are unpacked to `m * 2^e` with an exact integer `m`, operated on
//! exactly in wide integers (`Bits`) and rounded once. Also the exact
//! conversions between x86_fp80, double, float and integers. NaN rules are
//! the x87's: an invalid operation gives the negative "real indefinite"
//! quiet NaN, a NaN operand is returned quieted (the one with the larger
//! significand when both are NaN); conversions keep a NaN's sign and the
//! top bits of its payload.

//!
//! Formats are named by width: 32 (binary32), 64 (binary64), 80 (x87
//! extended, explicit integer bit).

use crate::bits::Bits;
use crate::fp::{FpBinOp as FBinOp, FpUnOp};
use std::cmp::Ordering;

/// A format by width (32, 64 or 80).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[allow(clippy::upper_case_acronyms)]
enum FloatTy {
    F32,
    F64,
    F80,
}

impl FloatTy {
    fn of(w: u32) -> FloatTy {
        match w {
            32 => FloatTy::F32,
            64 => FloatTy::F64,
            80 => FloatTy::F80,
            _ => panic!("no floating-point format of width {w}"),
        }
    }

    fn bits(self) -> u32 {
        match self {
            FloatTy::F32 => 32,
            FloatTy::F64 => 64,
            FloatTy::F80 => 80,
        }
    }
}

/// Width of the intermediate integers.
const W: u32 = 512;

struct Fmt {
    /// Significand precision, integer bit included.
    p: u32,
    exp_bits: u32,
    bias: i64,
    /// The integer bit is stored (x86_fp80).
    explicit: bool,
}

fn fmt(ty: FloatTy) -> Fmt {
    match ty {
        FloatTy::F32 => Fmt {
            p: 24,
            exp_bits: 8,
            bias: 127,
            explicit: false,
        },
        FloatTy::F64 => Fmt {
            p: 53,
            exp_bits: 11,
            bias: 1023,
            explicit: false,
        },
        FloatTy::F80 => Fmt {
            p: 64,
            exp_bits: 15,
            bias: 16383,
            explicit: true,
        },
    }
}

impl Fmt {
    fn frac_bits(&self) -> u32 {
        if self.explicit {
            self.p
        } else {
            self.p - 1
        }
    }

    fn max_exp(&self) -> i64 {
        (1 << self.exp_bits) - 1
    }

    /// Exponent of the unit in the last place of subnormals.
    fn emin(&self) -> i64 {
        1 - self.bias - i64::from(self.p - 1)
    }
}

/// An unpacked value.
#[derive(Clone, Debug)]
enum Val {
    /// Sign, quiet-NaN payload below the quiet bit (as a fraction of 62
    /// bits, left-aligned).
    Nan(bool, u64),
    Inf(bool),
    /// `(-1)^neg * m * 2^e` (m may be 0).
    Num(bool, Bits, i64),
}

fn wide(v: u128) -> Bits {
    Bits::from_u128(W, v)
}

fn shl(b: &Bits, n: u32) -> Bits {
    b.shl(&Bits::from_u64(b.width(), u64::from(n)))
}

fn lshr(b: &Bits, n: u32) -> Bits {
    b.lshr(&Bits::from_u64(b.width(), u64::from(n)))
}

fn unpack(ty: FloatTy, b: &Bits) -> Val {
    let f = fmt(ty);
    let w = ty.bits();
    let v = b.to_u128();
    let neg = (v >> (w - 1)) & 1 == 1;
    let field = ((v >> f.frac_bits()) as i64) & f.max_exp();
    let frac = v & ((1u128 << f.frac_bits()) - 1);
    let payload_bits = f.p - 2; // below the quiet bit
    let payload = (frac & ((1u128 << payload_bits) - 1)) as u64;
    let payload = payload << (64 - payload_bits);
    if field == f.max_exp() {
        let mag = if f.explicit {
            frac & ((1 << 63) - 1)
        } else {
            frac
        };
        return if mag == 0 {
            Val::Inf(neg)
        } else {
            Val::Nan(neg, payload)
        };
    }
    if field == 0 {
        return Val::Num(neg, wide(frac), f.emin());
    }
    let m = if f.explicit {
        if frac >> 63 == 0 {
            // An unnormal: the x87 rejects it as an invalid operand.
            return Val::Nan(true, 0);
        }
        frac
    } else {
        frac | (1 << (f.p - 1))
    };
    Val::Num(neg, wide(m), field - f.bias - i64::from(f.p - 1))
}

fn pack_nan(ty: FloatTy, neg: bool, payload: u64) -> Bits {
    let f = fmt(ty);
    let sign = u128::from(neg) << (ty.bits() - 1);
    let exp = (f.max_exp() as u128) << f.frac_bits();
    let quiet = 1u128 << (f.p - 2);
    let int_bit = if f.explicit { 1u128 << 63 } else { 0 };
    let payload = u128::from(payload >> (64 - (f.p - 2)));
    Bits::from_u128(ty.bits(), sign | exp | int_bit | quiet | payload)
}

/// The x87 "real indefinite" (or the default NaN of float/double).
fn indefinite(ty: FloatTy) -> Bits {
    pack_nan(ty, true, 0)
}

fn pack_inf(ty: FloatTy, neg: bool) -> Bits {
    let f = fmt(ty);
    let int_bit = if f.explicit { 1u128 << 63 } else { 0 };
    let v =
        (u128::from(neg) << (ty.bits() - 1)) | ((f.max_exp() as u128) << f.frac_bits()) | int_bit;
    Bits::from_u128(ty.bits(), v)
}

/// Rounds `(-1)^neg * m * 2^e` to `ty`, to nearest even.
fn round_pack(ty: FloatTy, neg: bool, m: &Bits, e: i64) -> Bits {
    let f = fmt(ty);
    let sign = u128::from(neg) << (ty.bits() - 1);
    if m.is_zero() {
        return Bits::from_u128(ty.bits(), sign);
    }
    let n = i64::from(m.width() - m.leading_zeros());
    let p = i64::from(f.p);
    let mut ulp = (e + n - p).max(f.emin());
    let s = ulp - e;
    let mut q: u128 = if s <= 0 {
        shl(m, (-s) as u32).to_u128()
    } else if s > n {
        0
    } else if s == n {
        // m in [2^(n-1), 2^n), half an ulp is 2^(n-1).
        u128::from(m.popcount() > 1)
    } else {
        let s = s as u32;
        let q = lshr(m, s);
        let rem = m.sub(&shl(&q, s));
        let half = shl(&Bits::from_u64(m.width(), 1), s - 1);
        let q = q.to_u128();
        let up = half.ult(&rem) || (rem == half && q & 1 == 1);
        q + u128::from(up)
    };
    if q == 1 << f.p {
        q >>= 1;
        ulp += 1;
    }
    let normal = q >> (f.p - 1) == 1;
    let field = if normal { ulp + p - 1 + f.bias } else { 0 };
    if field >= f.max_exp() {
        return pack_inf(ty, neg);
    }
    let frac = if f.explicit {
        q
    } else {
        q & ((1 << (f.p - 1)) - 1)
    };
    Bits::from_u128(ty.bits(), sign | ((field as u128) << f.frac_bits()) | frac)
}

/// The NaN result of an operation with a NaN operand (x87 rule).
fn nan_of(ty: FloatTy, a: &Val, b: &Val) -> Option<Bits> {
    match (a, b) {
        (Val::Nan(sa, pa), Val::Nan(sb, pb)) => Some(if pb > pa {
            pack_nan(ty, *sb, *pb)
        } else {
            pack_nan(ty, *sa, *pa)
        }),
        (Val::Nan(s, p), _) | (_, Val::Nan(s, p)) => Some(pack_nan(ty, *s, *p)),
        _ => None,
    }
}

fn add(ty: FloatTy, a: Val, b: Val) -> Bits {
    match (a, b) {
        (Val::Inf(x), Val::Inf(y)) if x != y => indefinite(ty),
        (Val::Inf(x), _) | (_, Val::Inf(x)) => pack_inf(ty, x),
        (Val::Num(na, ma, ea), Val::Num(nb, mb, eb)) => {
            if ma.is_zero() && mb.is_zero() {
                return round_pack(ty, na && nb, &ma, 0);
            }
            if ma.is_zero() {
                return round_pack(ty, nb, &mb, eb);
            }
            if mb.is_zero() {
                return round_pack(ty, na, &ma, ea);
            }
            // Align to the smaller exponent; a difference beyond 300 bits
            // leaves the smaller operand as a sticky bit.
            let ((nh, mh, eh), (nl, ml, el)) = if ea >= eb {
                ((na, ma, ea), (nb, mb, eb))
            } else {
                ((nb, mb, eb), (na, ma, ea))
            };
            let d = eh - el;
            let (hi, lo, e) = if d > 300 {
                (shl(&mh, 300), wide(1), eh - 300)
            } else {
                (shl(&mh, d as u32), ml, el)
            };
            if nh == nl {
                return round_pack(ty, nh, &hi.add(&lo), e);
            }
            match lo.ult(&hi) {
                true => round_pack(ty, nh, &hi.sub(&lo), e),
                false if lo == hi => round_pack(ty, false, &wide(0), 0),
                false => round_pack(ty, nl, &lo.sub(&hi), e),
            }
        }
        _ => unreachable!("NaN operands are handled first"),
    }
}

fn mul(ty: FloatTy, a: Val, b: Val) -> Bits {
    match (a, b) {
        (Val::Inf(x), Val::Num(y, m, _)) | (Val::Num(y, m, _), Val::Inf(x)) => {
            if m.is_zero() {
                indefinite(ty)
            } else {
                pack_inf(ty, x != y)
            }
        }
        (Val::Inf(x), Val::Inf(y)) => pack_inf(ty, x != y),
        (Val::Num(na, ma, ea), Val::Num(nb, mb, eb)) => {
            round_pack(ty, na != nb, &ma.mul(&mb), ea + eb)
        }
        _ => unreachable!("NaN operands are handled first"),
    }
}

fn div(ty: FloatTy, a: Val, b: Val) -> Bits {
    match (a, b) {
        (Val::Inf(_), Val::Inf(_)) => indefinite(ty),
        (Val::Inf(x), Val::Num(y, _, _)) => pack_inf(ty, x != y),
        (Val::Num(x, _, _), Val::Inf(y)) => round_pack(ty, x != y, &wide(0), 0),
        (Val::Num(na, ma, ea), Val::Num(nb, mb, eb)) => {
            if mb.is_zero() {
                return if ma.is_zero() {
                    indefinite(ty)
                } else {
                    pack_inf(ty, na != nb)
                };
            }
            let (q, r) = shl(&ma, 256).udivrem(&mb);
            // A non-zero remainder is a sticky bit below the 256 extra bits.
            let q = shl(&q, 1).or(&wide(u128::from(!r.is_zero())));
            round_pack(ty, na != nb, &q, ea - eb - 257)
        }
        _ => unreachable!("NaN operands are handled first"),
    }
}

/// C's `fmod` (x87 `fprem` to completion): exact.
fn rem(ty: FloatTy, a: Val, b: Val) -> Bits {
    match (a, b) {
        (Val::Inf(_), _) => indefinite(ty),
        (Val::Num(_, _, _), Val::Num(_, mb, _)) if mb.is_zero() => indefinite(ty),
        (Val::Num(n, m, e), Val::Inf(_)) => round_pack(ty, n, &m, e),
        (Val::Num(na, ma, ea), Val::Num(_, mb, eb)) => {
            let d = (ea - eb).unsigned_abs() as u32;
            let width = (W + d).div_ceil(64) * 64;
            let (ma, mb) = (ma.zext(width), mb.zext(width));
            let (r, e) = if ea >= eb {
                (shl(&ma, d).urem(&mb), eb)
            } else {
                (ma.urem(&shl(&mb, d)), ea)
            };
            round_pack(ty, na, &r, e)
        }
        _ => unreachable!("NaN operands are handled first"),
    }
}

/// `a op b` in format `ty` (exact, rounded once).
pub fn bin(w: u32, op: FBinOp, a: &Bits, b: &Bits) -> Bits {
    let ty = FloatTy::of(w);
    let (x, y) = (unpack(ty, a), unpack(ty, b));
    if let Some(n) = nan_of(ty, &x, &y) {
        return n;
    }
    match op {
        FBinOp::Add => add(ty, x, y),
        FBinOp::Sub => add(ty, x, negate(y)),
        FBinOp::Mul => mul(ty, x, y),
        FBinOp::Div => div(ty, x, y),
        FBinOp::Rem => rem(ty, x, y),
    }
}

fn negate(v: Val) -> Val {
    match v {
        Val::Inf(n) => Val::Inf(!n),
        Val::Num(n, m, e) => Val::Num(!n, m, e),
        nan => nan,
    }
}

/// Fused multiply-add `a * b + c`, rounded once.
pub fn fma(w: u32, a: &Bits, b: &Bits, c: &Bits) -> Bits {
    let ty = FloatTy::of(w);
    let (x, y, z) = (unpack(ty, a), unpack(ty, b), unpack(ty, c));
    if let Some(n) = nan_of(ty, &x, &y) {
        return n;
    }
    if let Val::Nan(n, p) = z {
        return pack_nan(ty, n, p);
    }
    let product = match (x, y) {
        (Val::Inf(p), Val::Num(q, m, _)) | (Val::Num(q, m, _), Val::Inf(p)) => {
            if m.is_zero() {
                return indefinite(ty);
            }
            Val::Inf(p != q)
        }
        (Val::Inf(p), Val::Inf(q)) => Val::Inf(p != q),
        (Val::Num(p, m, e), Val::Num(q, n, f)) => Val::Num(p != q, m.mul(&n), e + f),
        _ => unreachable!("NaN operands are handled first"),
    };
    add(ty, product, z)
}

/// The square root, correctly rounded.
pub fn sqrt(w: u32, a: &Bits) -> Bits {
    let ty = FloatTy::of(w);
    match unpack(ty, a) {
        Val::Nan(n, p) => pack_nan(ty, n, p),
        Val::Inf(false) => pack_inf(ty, false),
        Val::Num(n, m, e) if m.is_zero() => round_pack(ty, n, &m, e),
        Val::Inf(true) | Val::Num(true, _, _) => indefinite(ty),
        Val::Num(false, m, e) => {
            // m * 2^s with at least 2p + 2 bits and e - s even.
            let n = i64::from(m.width() - m.leading_zeros());
            let mut s = 140 - n;
            if (e - s) % 2 != 0 {
                s += 1;
            }
            let big = shl(&m, s as u32);
            let q = isqrt(&big);
            let exact = q.mul(&q) == big;
            let q = shl(&q, 1).or(&wide(u128::from(!exact)));
            round_pack(ty, false, &q, (e - s) / 2 - 1)
        }
    }
}

/// The integer square root (floor) by Newton's iteration.
fn isqrt(n: &Bits) -> Bits {
    let bits = n.width() - n.leading_zeros();
    let mut x = shl(&wide(1), bits.div_ceil(2));
    loop {
        let y = x.add(&n.udiv(&x));
        let y = lshr(&y, 1);
        if !y.ult(&x) {
            return x;
        }
        x = y;
    }
}

/// The order of `a` and `b` (`None` if either is NaN).
pub fn compare(w: u32, a: &Bits, b: &Bits) -> Option<Ordering> {
    let ty = FloatTy::of(w);
    let key = |v: Val| -> Option<(i8, i64, Bits)> {
        // A sortable key: sign class, then magnitude (normalised).
        match v {
            Val::Nan(..) => None,
            Val::Inf(n) => Some((if n { -2 } else { 2 }, 0, wide(0))),
            Val::Num(_, m, _) if m.is_zero() => Some((0, 0, wide(0))),
            Val::Num(n, m, e) => {
                let lz = m.leading_zeros();
                let top = e + i64::from(W - lz);
                Some((if n { -1 } else { 1 }, top, shl(&m, lz)))
            }
        }
    };
    let (x, y) = (key(unpack(ty, a))?, key(unpack(ty, b))?);
    let mag = |k: &(i8, i64, Bits), o: &(i8, i64, Bits)| {
        k.1.cmp(&o.1).then_with(|| {
            if k.2 == o.2 {
                Ordering::Equal
            } else if k.2.ult(&o.2) {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        })
    };
    Some(match x.0.cmp(&y.0) {
        Ordering::Equal if x.0 == 1 => mag(&x, &y),
        Ordering::Equal if x.0 == -1 => mag(&y, &x),
        other => other,
    })
}

/// `x` rounded to an integral value (`op` one of the rounding operators;
/// `Sqrt` is not one and returns `None`).
pub fn round_integral(w: u32, op: FpUnOp, x: &Bits) -> Option<Bits> {
    let ty = FloatTy::of(w);
    let Val::Num(neg, m, e) = unpack(ty, x) else {
        return Some(match unpack(ty, x) {
            Val::Nan(n, p) => pack_nan(ty, n, p),
            _ => x.clone(),
        });
    };
    if e >= 0 || m.is_zero() {
        return Some(x.clone());
    }
    let s = (-e).min(i64::from(W)) as u32;
    let int = if s >= W { wide(0) } else { lshr(&m, s) };
    let frac = m.sub(&shl(&int, s.min(W - 1)));
    let frac = if s >= W { m.clone() } else { frac };
    let half = if s >= W {
        None
    } else {
        Some(shl(&wide(1), s - 1))
    };
    let cmp_half = |h: &Option<Bits>| match h {
        None => Ordering::Less,
        Some(h) if frac == *h => Ordering::Equal,
        Some(h) if frac.ult(h) => Ordering::Less,
        Some(_) => Ordering::Greater,
    };
    let inexact = !frac.is_zero();
    let odd = int.bit(0);
    let up = match op {
        FpUnOp::Trunc => false,
        FpUnOp::Floor => neg && inexact,
        FpUnOp::Ceil => !neg && inexact,
        FpUnOp::RoundAway => cmp_half(&half) != Ordering::Less,
        FpUnOp::RoundEven => match cmp_half(&half) {
            Ordering::Greater => true,
            Ordering::Equal => odd,
            Ordering::Less => false,
        },
        FpUnOp::Sqrt => return None,
    };
    let int = if up { int.add(&wide(1)) } else { int };
    Some(round_pack(ty, neg, &int, 0))
}

/// Converts between formats (exact or rounded to nearest even).
pub fn convert(from: u32, to: u32, x: &Bits) -> Bits {
    let (from, to) = (FloatTy::of(from), FloatTy::of(to));
    match unpack(from, x) {
        Val::Nan(n, p) => pack_nan(to, n, p),
        Val::Inf(n) => pack_inf(to, n),
        Val::Num(n, m, e) => round_pack(to, n, &m, e),
    }
}

/// The integer `x` (signed or not, `bits` wide) converted to `to`.
pub fn from_int(x: &Bits, signed: bool, to: u32) -> Bits {
    let to = FloatTy::of(to);
    let neg = signed && x.sign_bit();
    let w = x.width().max(W);
    let mag = if signed { x.sext(w) } else { x.zext(w) };
    let mag = if neg { mag.neg() } else { mag };
    round_pack(to, neg, &mag, 0)
}

/// `x` truncated toward zero as a `bits`-bit integer, `None` if NaN,
/// infinite or out of range.
pub fn to_int(from: u32, x: &Bits, bits: u32, signed: bool) -> Option<Bits> {
    let from = FloatTy::of(from);
    let Val::Num(neg, m, e) = unpack(from, x) else {
        return None;
    };
    let w = W.max(bits + 2);
    let m = m.zext(w);
    let t = if e >= 0 {
        if e > i64::from(bits) {
            return (m.is_zero()).then(|| Bits::zero(bits));
        }
        shl(&m, e as u32)
    } else if -e >= i64::from(w) {
        Bits::zero(w)
    } else {
        lshr(&m, (-e) as u32)
    };
    let limit = shl(&Bits::from_u64(w, 1), if signed { bits - 1 } else { bits });
    let fits = if t.is_zero() {
        true
    } else if !signed {
        !neg && t.ult(&limit)
    } else if neg {
        t.ule(&limit)
    } else {
        t.ult(&limit)
    };
    fits.then(|| {
        let v = if neg { t.neg() } else { t };
        v.trunc(bits)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: f64) -> Bits {
        Bits::from_u64(64, x.to_bits())
    }

    fn ld(x: f64) -> Bits {
        convert(64, 80, &d(x))
    }

    fn back(x: &Bits) -> f64 {
        f64::from_bits(convert(80, 64, x).to_u64())
    }

    #[test]
    fn double_arithmetic_matches_rust() {
        let xs = [
            0.0,
            -0.0,
            1.0,
            -2.5,
            0.1,
            1e300,
            5e-324,
            2.2250738585072014e-308,
            7.0,
            3.0,
        ];
        for &x in &xs {
            for &y in &xs {
                for (op, want) in [
                    (FBinOp::Add, x + y),
                    (FBinOp::Sub, x - y),
                    (FBinOp::Mul, x * y),
                    (FBinOp::Div, x / y),
                    (FBinOp::Rem, x % y),
                ] {
                    let got = bin(64, op, &d(x), &d(y));
                    if want.is_nan() {
                        assert!(f64::from_bits(got.to_u64()).is_nan(), "{op:?} {x} {y}");
                    } else {
                        assert_eq!(got.to_u64(), want.to_bits(), "{op:?} {x} {y}");
                    }
                }
                assert_eq!(compare(64, &d(x), &d(y)), x.partial_cmp(&y), "{x} {y}");
            }
        }
    }

    #[test]
    fn extended_precision_keeps_64_bits() {
        // 1 + 2^-60 exists in x86_fp80 (not in double).
        let tiny = ld(2f64.powi(-60));
        let s = bin(80, FBinOp::Add, &ld(1.0), &tiny);
        assert_ne!(s, ld(1.0));
        assert_eq!(compare(80, &s, &ld(1.0)), Some(Ordering::Greater));
        let r = bin(80, FBinOp::Sub, &s, &ld(1.0));
        assert_eq!(back(&r), 2f64.powi(-60));
        // 1/3 in 64 bits: 0xAAAA...AAAB x 2^-65, times 3 rounds back to 1.
        let third = bin(80, FBinOp::Div, &ld(1.0), &ld(3.0));
        assert_eq!(third.to_u128(), 0x3ffd_aaaa_aaaa_aaaa_aaab);
        assert_eq!(bin(80, FBinOp::Mul, &third, &ld(3.0)), ld(1.0));
        // 1.0L, 0.1L as an x87 stores them.
        assert_eq!(ld(1.0).to_u128(), 0x3fff_8000_0000_0000_0000);
        let tenth = bin(80, FBinOp::Div, &ld(1.0), &ld(10.0));
        assert_eq!(tenth.to_u128(), 0x3ffb_cccc_cccc_cccc_cccd);
        // Rounded to double: 0.1.
        assert_eq!(back(&tenth), 0.1);
        // Invalid operations give the negative indefinite NaN.
        let inf = ld(f64::INFINITY);
        let nan = bin(80, FBinOp::Sub, &inf, &inf);
        assert_eq!(nan.to_u128(), 0xffff_c000_0000_0000_0000);
        assert_eq!(compare(80, &nan, &nan), None);
        // Integers: 2^63 + 1 is exact in x86_fp80.
        let big = from_int(&Bits::from_u64(64, (1 << 63) + 1), false, 80);
        assert_eq!(to_int(80, &big, 64, false).unwrap().to_u64(), (1 << 63) + 1);
        assert!(to_int(80, &big, 64, true).is_none());
        let m = from_int(&Bits::from_i64(32, -7), true, 80);
        assert_eq!(back(&m), -7.0);
        assert_eq!(to_int(80, &ld(-7.9), 32, true).unwrap().to_i64(), -7);
        assert_eq!(
            to_int(80, &ld(-2147483648.5), 32, true).unwrap().to_i64(),
            i64::from(i32::MIN)
        );
        assert!(to_int(80, &ld(-2147483649.0), 32, true).is_none());
        // Subnormal doubles survive the round trip through x86_fp80.
        assert_eq!(back(&ld(5e-324)), 5e-324);
        // Rounding to integral beyond double's precision.
        let big = from_int(&Bits::from_u64(64, (1 << 62) + 1), false, 80);
        let half = bin(80, FBinOp::Add, &big, &ld(0.5));
        assert_eq!(round_integral(80, FpUnOp::Floor, &half), Some(big.clone()));
        for (x, op, want) in [
            (2.5, FpUnOp::RoundEven, 2.0),
            (2.5, FpUnOp::RoundAway, 3.0),
            (-2.5, FpUnOp::Floor, -3.0),
            (-2.5, FpUnOp::Ceil, -2.0),
            (-0.5, FpUnOp::Ceil, -0.0),
            (-0.7, FpUnOp::Trunc, -0.0),
            (3.5, FpUnOp::RoundEven, 4.0),
            (1e-300, FpUnOp::Ceil, 1.0),
        ] {
            let r = round_integral(80, op, &ld(x)).unwrap();
            assert_eq!(back(&r).to_bits(), f64::to_bits(want), "{op:?}({x})");
        }
        // sqrt and fma, checked on doubles against Rust.
        for x in [2.0, 0.5, 1e-310, 3.0, 1e300, 0.0, -0.0] {
            let r = sqrt(64, &d(x));
            assert_eq!(r.to_u64(), x.sqrt().to_bits(), "sqrt {x}");
        }
        assert!(f64::from_bits(sqrt(64, &d(-1.0)).to_u64()).is_nan());
        let e = 1.0 + 2f64.powi(-30);
        assert_eq!(
            fma(64, &d(e), &d(e), &d(-1.0)).to_u64(),
            e.mul_add(e, -1.0).to_bits()
        );
        // sqrt(2) in 64 bits: 0xB504F333F9DE6484 (rounded down).
        assert_eq!(sqrt(80, &ld(2.0)).to_u128(), 0x3fff_b504_f333_f9de_6484);
        // fmod is exact across a huge exponent difference.
        let r = bin(80, FBinOp::Rem, &ld(1e300), &ld(3.0));
        assert_eq!(back(&r), 1e300 % 3.0);
    }
}
