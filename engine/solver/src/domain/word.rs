//! Bit-vector operators on 64-bit words, with the semantics of
//! [`symtest_expr::Bits`] (checked against it by `word_operators_match_bits`).

use symtest_expr::{BinOp, CmpOp};

/// The valid bits of a `w`-bit value (1..=64).
pub(crate) fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// `a` (a `w`-bit value) read as signed.
pub(crate) fn sx(a: u64, w: u32) -> i64 {
    let sh = 64 - w;
    ((a << sh) as i64) >> sh
}

fn sign(a: u64, w: u32) -> bool {
    (a >> (w - 1)) & 1 == 1
}

/// `op` on `w`-bit values, as [`BinOp::apply`] computes it (SMT-LIB
/// division by zero, over-shifts to zero or the sign fill).
pub(crate) fn bin64(op: BinOp, a: u64, b: u64, w: u32) -> u64 {
    let m = mask(w);
    let neg = |x: u64| x.wrapping_neg() & m;
    match op {
        BinOp::Add => a.wrapping_add(b) & m,
        BinOp::Sub => a.wrapping_sub(b) & m,
        BinOp::Mul => a.wrapping_mul(b) & m,
        BinOp::UDiv => a.checked_div(b).unwrap_or(m),
        BinOp::URem => a.checked_rem(b).unwrap_or(a),
        BinOp::SDiv | BinOp::SRem => {
            let (ns, nt) = (sign(a, w), sign(b, w));
            let ua = if ns { neg(a) } else { a };
            let ub = if nt { neg(b) } else { b };
            if op == BinOp::SDiv {
                let q = ua.checked_div(ub).unwrap_or(m);
                if ns != nt {
                    neg(q)
                } else {
                    q
                }
            } else {
                let r = ua.checked_rem(ub).unwrap_or(ua);
                if ns {
                    neg(r)
                } else {
                    r
                }
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl if b < u64::from(w) => (a << b) & m,
        BinOp::LShr if b < u64::from(w) => a >> b,
        BinOp::AShr if b < u64::from(w) => (sx(a, w) >> b) as u64 & m,
        BinOp::Shl | BinOp::LShr => 0,
        BinOp::AShr => {
            if sign(a, w) {
                m
            } else {
                0
            }
        }
    }
}

/// `op` on `w`-bit operands, as [`CmpOp::apply`] decides it.
pub(crate) fn cmp64(op: CmpOp, a: u64, b: u64, w: u32) -> bool {
    let m = mask(w);
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ult => a < b,
        CmpOp::Ule => a <= b,
        CmpOp::Slt => sx(a, w) < sx(b, w),
        CmpOp::Sle => sx(a, w) <= sx(b, w),
        CmpOp::UAddO => (a.wrapping_add(b) & m) < a,
        CmpOp::SAddO => {
            let s = a.wrapping_add(b) & m;
            sign(a, w) == sign(b, w) && sign(s, w) != sign(a, w)
        }
        CmpOp::USubO => a < b,
        CmpOp::SSubO => {
            let d = a.wrapping_sub(b) & m;
            sign(a, w) != sign(b, w) && sign(d, w) != sign(a, w)
        }
        CmpOp::UMulO => (u128::from(a) * u128::from(b)) >> w != 0,
        CmpOp::SMulO => {
            let p = i128::from(sx(a, w)) * i128::from(sx(b, w));
            p != i128::from(sx(a.wrapping_mul(b) & m, w))
        }
    }
}
