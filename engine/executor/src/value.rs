//! Register values: concrete bits stay concrete; anything touched by symbolic
//! input is an expression id. Operations take the concrete fast path when every
//! operand is concrete and build (folded, hash-consed) expressions otherwise.

use symtest_expr::{BinOp, Bits, CmpOp, ExprId, ExprPool};

/// The value of a register or of a memory read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Value {
    Concrete(Bits),
    Symbolic(ExprId),
}

impl Value {
    pub fn from_u64(width: u32, v: u64) -> Value {
        Value::Concrete(Bits::from_u64(width, v))
    }

    pub fn from_bool(b: bool) -> Value {
        Value::Concrete(Bits::from_bool(b))
    }

    pub fn width(&self, pool: &ExprPool) -> u32 {
        match self {
            Value::Concrete(b) => b.width(),
            Value::Symbolic(e) => pool.width(*e),
        }
    }

    pub fn as_concrete(&self) -> Option<&Bits> {
        match self {
            Value::Concrete(b) => Some(b),
            Value::Symbolic(_) => None,
        }
    }

    pub fn is_concrete(&self) -> bool {
        matches!(self, Value::Concrete(_))
    }

    /// The value as an expression (constants are interned).
    pub fn expr(&self, pool: &mut ExprPool) -> ExprId {
        match self {
            Value::Concrete(b) => pool.constant(b.clone()),
            Value::Symbolic(e) => *e,
        }
    }

    /// Turns a folded expression back into a concrete value when it is a constant.
    pub fn from_expr(pool: &ExprPool, e: ExprId) -> Value {
        match pool.as_const(e) {
            Some(b) => Value::Concrete(b.clone()),
            None => Value::Symbolic(e),
        }
    }
}

/// Arithmetic over [`Value`]s with a concrete fast path.
pub struct Ops;

impl Ops {
    pub fn bin(pool: &mut ExprPool, op: BinOp, a: &Value, b: &Value) -> Value {
        if let (Value::Concrete(x), Value::Concrete(y)) = (a, b) {
            return Value::Concrete(op.apply(x, y));
        }
        let (x, y) = (a.expr(pool), b.expr(pool));
        let r = pool.bin(op, x, y);
        Value::from_expr(pool, r)
    }

    pub fn cmp(pool: &mut ExprPool, op: CmpOp, a: &Value, b: &Value) -> Value {
        if let (Value::Concrete(x), Value::Concrete(y)) = (a, b) {
            return Value::from_bool(op.apply(x, y));
        }
        let (x, y) = (a.expr(pool), b.expr(pool));
        let e = pool.cmp(op, x, y);
        Value::from_expr(pool, e)
    }

    pub fn not(pool: &mut ExprPool, a: &Value) -> Value {
        match a {
            Value::Concrete(x) => Value::Concrete(x.not()),
            Value::Symbolic(e) => {
                let r = pool.not(*e);
                Value::from_expr(pool, r)
            }
        }
    }

    pub fn zext(pool: &mut ExprPool, a: &Value, to: u32) -> Value {
        match a {
            Value::Concrete(x) => Value::Concrete(x.zext(to)),
            Value::Symbolic(e) => {
                let r = pool.zext_or_trunc(*e, to);
                Value::from_expr(pool, r)
            }
        }
    }

    pub fn sext(pool: &mut ExprPool, a: &Value, to: u32) -> Value {
        match a {
            Value::Concrete(x) => Value::Concrete(x.sext(to)),
            Value::Symbolic(e) => {
                let r = pool.sext_or_trunc(*e, to);
                Value::from_expr(pool, r)
            }
        }
    }

    /// Zero-extends or truncates to `to` bits.
    pub fn resize(pool: &mut ExprPool, a: &Value, to: u32) -> Value {
        let w = a.width(pool);
        if w == to {
            a.clone()
        } else if w < to {
            Ops::zext(pool, a, to)
        } else {
            Ops::extract(pool, a, 0, to)
        }
    }

    /// Sign-extends or truncates to `to` bits.
    pub fn sresize(pool: &mut ExprPool, a: &Value, to: u32) -> Value {
        let w = a.width(pool);
        if w == to {
            a.clone()
        } else if w < to {
            Ops::sext(pool, a, to)
        } else {
            Ops::extract(pool, a, 0, to)
        }
    }

    pub fn extract(pool: &mut ExprPool, a: &Value, lo: u32, width: u32) -> Value {
        match a {
            Value::Concrete(x) => Value::Concrete(x.extract(lo, width)),
            Value::Symbolic(e) => {
                let r = pool.extract(*e, lo, width);
                Value::from_expr(pool, r)
            }
        }
    }

    /// `hi ++ lo`.
    pub fn concat(pool: &mut ExprPool, hi: &Value, lo: &Value) -> Value {
        if let (Value::Concrete(h), Value::Concrete(l)) = (hi, lo) {
            return Value::Concrete(Bits::concat(h, l));
        }
        let (h, l) = (hi.expr(pool), lo.expr(pool));
        let r = pool.concat(h, l);
        Value::from_expr(pool, r)
    }

    pub fn ite(pool: &mut ExprPool, c: &Value, t: &Value, f: &Value) -> Value {
        if let Value::Concrete(cb) = c {
            return if cb.is_true() { t.clone() } else { f.clone() };
        }
        if t == f {
            return t.clone();
        }
        let (ce, te, fe) = (c.expr(pool), t.expr(pool), f.expr(pool));
        let r = pool.ite(ce, te, fe);
        Value::from_expr(pool, r)
    }

    /// Replaces bits `[lo, lo + width(v))` of `agg` with `v`.
    pub fn insert(pool: &mut ExprPool, agg: &Value, v: &Value, lo: u32) -> Value {
        let total = agg.width(pool);
        let vw = v.width(pool);
        let mut out = v.clone();
        if lo > 0 {
            let low = Ops::extract(pool, agg, 0, lo);
            out = Ops::concat(pool, &out, &low);
        }
        if lo + vw < total {
            let high = Ops::extract(pool, agg, lo + vw, total - lo - vw);
            out = Ops::concat(pool, &high, &out);
        }
        out
    }
}
