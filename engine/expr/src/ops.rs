//! The operators of expression nodes and their concrete semantics.

use crate::bits::Bits;

/// Binary bit-vector operators (operands and result of equal width).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum BinOp {
    /// Wrapping addition.
    Add,
    /// Wrapping subtraction.
    Sub,
    /// Wrapping multiplication.
    Mul,
    /// Unsigned division (`x / 0 = ones`).
    UDiv,
    /// Signed division, SMT-LIB `bvsdiv`.
    SDiv,
    /// Unsigned remainder (`x % 0 = x`).
    URem,
    /// Signed remainder, SMT-LIB `bvsrem`.
    SRem,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// Left shift (amount >= width gives 0).
    Shl,
    /// Logical right shift.
    LShr,
    /// Arithmetic right shift.
    AShr,
}

impl BinOp {
    /// All operators, for iteration in tests and tools.
    pub const ALL: [BinOp; 13] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::UDiv,
        BinOp::SDiv,
        BinOp::URem,
        BinOp::SRem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::LShr,
        BinOp::AShr,
    ];

    /// True for operators with `a op b == b op a`.
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor
        )
    }

    /// Applies the operator to constants.
    pub fn apply(self, a: &Bits, b: &Bits) -> Bits {
        match self {
            BinOp::Add => a.add(b),
            BinOp::Sub => a.sub(b),
            BinOp::Mul => a.mul(b),
            BinOp::UDiv => a.udiv(b),
            BinOp::SDiv => a.sdiv(b),
            BinOp::URem => a.urem(b),
            BinOp::SRem => a.srem(b),
            BinOp::And => a.and(b),
            BinOp::Or => a.or(b),
            BinOp::Xor => a.xor(b),
            BinOp::Shl => a.shl(b),
            BinOp::LShr => a.lshr(b),
            BinOp::AShr => a.ashr(b),
        }
    }
}

/// Comparison operators (result width 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum CmpOp {
    /// Equality.
    Eq,
    /// Unsigned less-than.
    Ult,
    /// Unsigned less-or-equal.
    Ule,
    /// Signed less-than.
    Slt,
    /// Signed less-or-equal.
    Sle,
    /// `a + b` overflows (unsigned).
    UAddO,
    /// `a + b` overflows (signed).
    SAddO,
    /// `a - b` overflows (unsigned, i.e. `a < b`).
    USubO,
    /// `a - b` overflows (signed).
    SSubO,
    /// `a * b` overflows (unsigned).
    UMulO,
    /// `a * b` overflows (signed).
    SMulO,
}

impl CmpOp {
    /// All operators.
    pub const ALL: [CmpOp; 11] = [
        CmpOp::Eq,
        CmpOp::Ult,
        CmpOp::Ule,
        CmpOp::Slt,
        CmpOp::Sle,
        CmpOp::UAddO,
        CmpOp::SAddO,
        CmpOp::USubO,
        CmpOp::SSubO,
        CmpOp::UMulO,
        CmpOp::SMulO,
    ];

    /// Is this one of the ordering comparisons (as opposed to an overflow predicate)?
    pub fn is_order(self) -> bool {
        matches!(
            self,
            CmpOp::Eq | CmpOp::Ult | CmpOp::Ule | CmpOp::Slt | CmpOp::Sle
        )
    }

    /// Applies the comparison to constants.
    pub fn apply(self, a: &Bits, b: &Bits) -> bool {
        match self {
            CmpOp::Eq => a.eq(b),
            CmpOp::Ult => a.ult(b),
            CmpOp::Ule => a.ule(b),
            CmpOp::Slt => a.slt(b),
            CmpOp::Sle => a.sle(b),
            CmpOp::UAddO => a.add(b).ult(a),
            CmpOp::SAddO => {
                let s = a.add(b);
                a.sign_bit() == b.sign_bit() && s.sign_bit() != a.sign_bit()
            }
            CmpOp::USubO => a.ult(b),
            CmpOp::SSubO => {
                let d = a.sub(b);
                a.sign_bit() != b.sign_bit() && d.sign_bit() != a.sign_bit()
            }
            CmpOp::UMulO => {
                let w = a.width();
                let p = a.zext(2 * w).mul(&b.zext(2 * w));
                !p.extract(w, w).is_zero()
            }
            CmpOp::SMulO => {
                let w = a.width();
                let p = a.sext(2 * w).mul(&b.sext(2 * w));
                !p.eq(&a.mul(b).sext(2 * w))
            }
        }
    }
}
