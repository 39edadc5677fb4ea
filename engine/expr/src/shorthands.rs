//! Shorthand constructors of the pool: one method per binary operator and
//! per comparison (`add`, `ult`, `sge`, ...).

use crate::{BinOp, CmpOp, ExprId, ExprPool};

macro_rules! bin_shorthands {
    ($($name:ident => $op:ident),* $(,)?) => {
        impl ExprPool {
            $(
                #[doc = concat!("Shorthand for `bin(BinOp::", stringify!($op), ", a, b)`.")]
                pub fn $name(&mut self, a: ExprId, b: ExprId) -> ExprId {
                    self.bin(BinOp::$op, a, b)
                }
            )*
        }
    };
}

bin_shorthands! {
    add => Add, sub => Sub, mul => Mul, udiv => UDiv, sdiv => SDiv, urem => URem,
    srem => SRem, and => And, or => Or, xor => Xor, shl => Shl, lshr => LShr, ashr => AShr,
}

impl ExprPool {
    /// `a == b`.
    pub fn eq(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Eq, a, b)
    }

    /// `a != b`, built as `not(a == b)`.
    pub fn ne(&mut self, a: ExprId, b: ExprId) -> ExprId {
        let e = self.eq(a, b);
        self.not(e)
    }

    /// Unsigned `a < b`.
    pub fn ult(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Ult, a, b)
    }

    /// Unsigned `a <= b`.
    pub fn ule(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Ule, a, b)
    }

    /// Unsigned `a > b`, built as `b < a`.
    pub fn ugt(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Ult, b, a)
    }

    /// Unsigned `a >= b`, built as `b <= a`.
    pub fn uge(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Ule, b, a)
    }

    /// Signed `a < b`.
    pub fn slt(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Slt, a, b)
    }

    /// Signed `a <= b`.
    pub fn sle(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Sle, a, b)
    }

    /// Signed `a > b`, built as `b < a`.
    pub fn sgt(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Slt, b, a)
    }

    /// Signed `a >= b`, built as `b <= a`.
    pub fn sge(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Sle, b, a)
    }
}
