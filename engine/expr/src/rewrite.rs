//! Construction-time simplification: constant folding and local rewrites.
//!
//! Every rule here preserves semantics exactly (SMT-LIB bit-vector
//! semantics, as implemented by [`Bits`]). Each builder entry point folds
//! constants, canonicalises operand order, then tries its rules in turn; a
//! rule returns `Some(id)` when it fires. Rules may call the public
//! builders recursively, always on strictly smaller operands.
//!
//! Canonical forms:
//! * commutative operators (`Add Mul And Or Xor`, and `Eq`) have a constant
//!   operand on the left; two non-constants are ordered by id;
//! * `x - c` becomes `(-c) + x`; `x * 2^n` becomes `x << n`;
//! * zero-extension is always `ZExt` (`concat(0, x)` becomes `zext(x)`);
//! * concat chains are right-nested (`concat(a, concat(b, c))`) and
//!   adjacent extracts of one value merge, so reassembling a value from
//!   its bytes in any grouping gives back the value itself;
//! * negated unsigned/signed comparisons are flipped
//!   (`!(a < b)` becomes `b <= a`); `!(a == b)` stays a `Not`.

use crate::bits::Bits;
use crate::pool::{BinOp, CmpOp, ExprId, ExprPool, Node};

fn konst(p: &ExprPool, e: ExprId) -> Option<Bits> {
    p.as_const(e).cloned()
}

fn is_zero(p: &ExprPool, e: ExprId) -> bool {
    p.as_const(e).is_some_and(Bits::is_zero)
}

fn is_ones(p: &ExprPool, e: ExprId) -> bool {
    p.as_const(e).is_some_and(Bits::is_ones)
}

fn is_one(p: &ExprPool, e: ExprId) -> bool {
    p.as_const(e).is_some_and(Bits::is_one)
}

/// True if `a` is `not(b)` or `b` is `not(a)`.
fn complementary(p: &ExprPool, a: ExprId, b: ExprId) -> bool {
    matches!(p.node(a), Node::Not(x) if *x == b) || matches!(p.node(b), Node::Not(x) if *x == a)
}

// ------------------------------------------------------------------ bin

pub(crate) fn bin(p: &mut ExprPool, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
    if let (Some(x), Some(y)) = (p.as_const(a), p.as_const(b)) {
        let r = op.apply(x, y);
        return p.constant(r);
    }
    let (a, b) = if op.is_commutative() {
        order(p, a, b)
    } else {
        (a, b)
    };
    let r = match op {
        BinOp::Add => add(p, a, b),
        BinOp::Sub => sub(p, a, b),
        BinOp::Mul => mul(p, a, b),
        BinOp::UDiv => udiv(p, a, b),
        BinOp::URem => urem(p, a, b),
        BinOp::SDiv => sdiv(p, a, b),
        BinOp::SRem => srem(p, a, b),
        BinOp::And => and(p, a, b),
        BinOp::Or => or(p, a, b),
        BinOp::Xor => xor(p, a, b),
        BinOp::Shl | BinOp::LShr | BinOp::AShr => shift(p, op, a, b),
    };
    r.unwrap_or_else(|| p.mk_bin(op, a, b))
}

/// Canonical operand order for commutative operators: constant left,
/// otherwise smaller id left.
fn order(p: &ExprPool, a: ExprId, b: ExprId) -> (ExprId, ExprId) {
    let (ca, cb) = (p.is_constant(a), p.is_constant(b));
    if (cb && !ca) || (ca == cb && b < a) {
        (b, a)
    } else {
        (a, b)
    }
}

/// `0 + x = x`; `c1 + (c2 + x) = (c1 + c2) + x`.
fn add(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    let c = konst(p, a)?;
    if c.is_zero() {
        return Some(b);
    }
    if let Node::Bin(BinOp::Add, x, y) = *p.node(b) {
        if let Some(c2) = konst(p, x) {
            let k = p.constant(c.add(&c2));
            return Some(p.add(k, y));
        }
    }
    None
}

/// `x - x = 0`; `x - c = (-c) + x`.
fn sub(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    if a == b {
        return Some(p.const_u64(p.width(a), 0));
    }
    let c = konst(p, b)?;
    let k = p.constant(c.neg());
    Some(p.add(k, a))
}

/// `0 * x = 0`; `1 * x = x`; `2^n * x = x << n`.
fn mul(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    let c = konst(p, a)?;
    if c.is_zero() {
        return Some(a);
    }
    let n = c.exact_log2()?;
    if n == 0 {
        return Some(b);
    }
    let k = p.const_u64(c.width(), n as u64);
    Some(p.shl(b, k))
}

/// `x udiv 2^n = x >> n`.
fn udiv(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    let n = p.as_const(b)?.exact_log2()?;
    let k = p.const_u64(p.width(a), n as u64);
    Some(p.lshr(a, k))
}

/// `x urem 2^n = x & (2^n - 1)`.
fn urem(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    let c = konst(p, b)?;
    c.exact_log2()?;
    let m = p.constant(c.sub(&Bits::from_u64(c.width(), 1)));
    Some(p.and(m, a))
}

/// `x sdiv 1 = x`.
fn sdiv(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    is_one(p, b).then_some(a)
}

/// `x srem 1 = 0`.
fn srem(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    is_one(p, b).then(|| p.const_u64(p.width(a), 0))
}

/// `0 & x = 0`; `ones & x = x`; `x & x = x`; `x & !x = 0`.
fn and(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    if is_zero(p, a) || a == b {
        return Some(a);
    }
    if is_ones(p, a) {
        return Some(b);
    }
    complementary(p, a, b).then(|| p.const_u64(p.width(a), 0))
}

/// `0 | x = x`; `ones | x = ones`; `x | x = x`; `x | !x = ones`.
fn or(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    if is_ones(p, a) || a == b {
        return Some(a);
    }
    if is_zero(p, a) {
        return Some(b);
    }
    complementary(p, a, b).then(|| p.constant(Bits::ones(p.width(a))))
}

/// `0 ^ x = x`; `ones ^ x = !x`; `x ^ x = 0`; `x ^ !x = ones`.
fn xor(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    if is_zero(p, a) {
        return Some(b);
    }
    if is_ones(p, a) {
        return Some(p.not(b));
    }
    if a == b {
        return Some(p.const_u64(p.width(a), 0));
    }
    complementary(p, a, b).then(|| p.constant(Bits::ones(p.width(a))))
}

/// `x shift 0 = x`; `0 shift x = 0`; `x shl/lshr c = 0` for `c >= width`.
fn shift(p: &mut ExprPool, op: BinOp, a: ExprId, b: ExprId) -> Option<ExprId> {
    if is_zero(p, a) || is_zero(p, b) {
        return Some(a);
    }
    let c = konst(p, b)?;
    let w = p.width(a) as u64;
    let too_big = match c.as_u64_exact() {
        Some(s) => s >= w,
        None => true,
    };
    (too_big && op != BinOp::AShr).then(|| p.const_u64(w as u32, 0))
}

// ------------------------------------------------------------------ not

pub(crate) fn not(p: &mut ExprPool, a: ExprId) -> ExprId {
    if let Some(c) = p.as_const(a) {
        let r = c.not();
        return p.constant(r);
    }
    match *p.node(a) {
        // not(not x) = x
        Node::Not(x) => x,
        // !(a < b) = b <= a, !(a <= b) = b < a (signed alike)
        Node::Cmp(CmpOp::Ult, x, y) => p.cmp(CmpOp::Ule, y, x),
        Node::Cmp(CmpOp::Ule, x, y) => p.cmp(CmpOp::Ult, y, x),
        Node::Cmp(CmpOp::Slt, x, y) => p.cmp(CmpOp::Sle, y, x),
        Node::Cmp(CmpOp::Sle, x, y) => p.cmp(CmpOp::Slt, y, x),
        _ => p.mk_not(a),
    }
}

// ------------------------------------------------------------------ cmp

pub(crate) fn cmp(p: &mut ExprPool, op: CmpOp, a: ExprId, b: ExprId) -> ExprId {
    if let (Some(x), Some(y)) = (p.as_const(a), p.as_const(b)) {
        let r = op.apply(x, y);
        return p.bool_const(r);
    }
    if !op.is_order() {
        return p.mk_cmp(op, a, b);
    }
    if a == b {
        return p.bool_const(matches!(op, CmpOp::Eq | CmpOp::Ule | CmpOp::Sle));
    }
    if op == CmpOp::Eq {
        let (a, b) = order(p, a, b);
        return eq(p, a, b).unwrap_or_else(|| p.mk_cmp(op, a, b));
    }
    let r = match op {
        CmpOp::Ult | CmpOp::Ule => ucmp(p, op, a, b),
        _ => scmp(p, op, a, b),
    };
    r.unwrap_or_else(|| p.mk_cmp(op, a, b))
}

/// Rules for `c == x` (constant already on the left).
fn eq(p: &mut ExprPool, a: ExprId, b: ExprId) -> Option<ExprId> {
    let c = konst(p, a)?;
    let w = c.width();
    if w == 1 {
        // true == x  ->  x;  false == x  ->  !x
        return Some(if c.is_true() { b } else { p.not(b) });
    }
    match *p.node(b) {
        // c == c2 + x  ->  c - c2 == x
        Node::Bin(BinOp::Add, x, y) if p.is_constant(x) => {
            let k = p.constant(c.sub(p.as_const(x)?));
            Some(p.eq(k, y))
        }
        // c == c2 ^ x  ->  c ^ c2 == x
        Node::Bin(BinOp::Xor, x, y) if p.is_constant(x) => {
            let k = p.constant(c.xor(p.as_const(x)?));
            Some(p.eq(k, y))
        }
        // c == !x  ->  !c == x
        Node::Not(x) => {
            let k = p.constant(c.not());
            Some(p.eq(k, x))
        }
        // c == zext(x)  ->  trunc(c) == x, or false if c does not fit
        Node::ZExt(x, _) => {
            let t = c.trunc(p.width(x));
            if t.zext(w) != c {
                return Some(p.false_());
            }
            let k = p.constant(t);
            Some(p.eq(k, x))
        }
        // c == sext(x)  ->  trunc(c) == x, or false if c does not fit
        Node::SExt(x, _) => {
            let t = c.trunc(p.width(x));
            if t.sext(w) != c {
                return Some(p.false_());
            }
            let k = p.constant(t);
            Some(p.eq(k, x))
        }
        _ => None,
    }
}

/// `x < 0 = false`; `0 <= x = true`; `x <= ones = true`;
/// `ones < x = false`.
fn ucmp(p: &mut ExprPool, op: CmpOp, a: ExprId, b: ExprId) -> Option<ExprId> {
    match op {
        CmpOp::Ult if is_zero(p, b) || is_ones(p, a) => Some(p.false_()),
        CmpOp::Ule if is_zero(p, a) || is_ones(p, b) => Some(p.true_()),
        _ => None,
    }
}

/// `x <s MIN = false`; `MAX <s x = false`; `MIN <=s x = true`;
/// `x <=s MAX = true`.
fn scmp(p: &mut ExprPool, op: CmpOp, a: ExprId, b: ExprId) -> Option<ExprId> {
    let w = p.width(a);
    let min = Bits::from_u64(w, 1).shl(&Bits::from_u64(w, w as u64 - 1));
    let is = |e: ExprId, v: &Bits| p.as_const(e) == Some(v);
    let max = min.not();
    match op {
        CmpOp::Slt if is(b, &min) || is(a, &max) => Some(p.false_()),
        CmpOp::Sle if is(a, &min) || is(b, &max) => Some(p.true_()),
        _ => None,
    }
}

// ------------------------------------------------------------------ ite

pub(crate) fn ite(p: &mut ExprPool, c: ExprId, t: ExprId, e: ExprId) -> ExprId {
    if let Some(k) = p.as_const(c) {
        return if k.is_true() { t } else { e };
    }
    if t == e {
        return t;
    }
    // ite(!c, t, e) = ite(c, e, t)
    if let Node::Not(x) = *p.node(c) {
        return p.ite(x, e, t);
    }
    if p.width(t) == 1 {
        if let Some(r) = ite_bool(p, c, t, e) {
            return r;
        }
    }
    p.mk_ite(c, t, e)
}

/// Width-1 `ite`: `ite(c,1,0) = c`, `ite(c,0,1) = !c`, `ite(c,1,x) = c|x`,
/// `ite(c,0,x) = !c&x`, `ite(c,x,0) = c&x`, `ite(c,x,1) = !c|x`.
fn ite_bool(p: &mut ExprPool, c: ExprId, t: ExprId, e: ExprId) -> Option<ExprId> {
    let (tc, ec) = (konst(p, t), konst(p, e));
    match (tc.map(|b| b.is_true()), ec.map(|b| b.is_true())) {
        (Some(true), Some(false)) => Some(c),
        (Some(false), Some(true)) => Some(p.not(c)),
        (Some(true), None) => Some(p.or(c, e)),
        (Some(false), None) => {
            let nc = p.not(c);
            Some(p.and(nc, e))
        }
        (None, Some(false)) => Some(p.and(c, t)),
        (None, Some(true)) => {
            let nc = p.not(c);
            Some(p.or(nc, t))
        }
        _ => None,
    }
}

// ------------------------------------------------------------------ concat / extract / ext

pub(crate) fn concat(p: &mut ExprPool, hi: ExprId, lo: ExprId) -> ExprId {
    if let (Some(h), Some(l)) = (p.as_const(hi), p.as_const(lo)) {
        let r = Bits::concat(h, l);
        return p.constant(r);
    }
    let w = p.width(hi) + p.width(lo);
    // concat(0, x) = zext(x)
    if is_zero(p, hi) {
        return p.zext(lo, w);
    }
    if let Some(r) = merge_extracts(p, hi, lo) {
        return r;
    }
    // Right-nesting: concat(concat(a, b), c) = concat(a, concat(b, c))
    if let Node::Concat(a, b) = *p.node(hi) {
        let bc = p.concat(b, lo);
        return p.concat(a, bc);
    }
    // concat(extract(x, k+w2, w1), concat(extract(x, k, w2), r))
    //   = concat(extract(x, k, w1+w2), r)
    if let Node::Concat(lh, ll) = *p.node(lo) {
        if let Some(m) = merge_extracts(p, hi, lh) {
            return p.concat(m, ll);
        }
    }
    p.mk_concat(hi, lo)
}

/// `concat(extract(x, k+w2, w1), extract(x, k, w2)) = extract(x, k, w1+w2)`.
fn merge_extracts(p: &mut ExprPool, hi: ExprId, lo: ExprId) -> Option<ExprId> {
    let (
        &Node::Extract {
            expr: x1,
            lo: k1,
            width: w1,
        },
        &Node::Extract {
            expr: x2,
            lo: k2,
            width: w2,
        },
    ) = (p.node(hi), p.node(lo))
    else {
        return None;
    };
    (x1 == x2 && k1 == k2 + w2).then(|| p.extract(x1, k2, w1 + w2))
}

pub(crate) fn extract(p: &mut ExprPool, e: ExprId, lo: u32, w: u32) -> ExprId {
    if lo == 0 && w == p.width(e) {
        return e;
    }
    if let Some(c) = p.as_const(e) {
        let r = c.extract(lo, w);
        return p.constant(r);
    }
    match *p.node(e) {
        // extract(extract(x, k, _), lo, w) = extract(x, k + lo, w)
        Node::Extract { expr, lo: k, .. } => p.extract(expr, k + lo, w),
        Node::Concat(h, l) => extract_concat(p, h, l, lo, w),
        Node::ZExt(x, _) => extract_zext(p, x, lo, w),
        Node::SExt(x, _) => extract_sext(p, x, lo, w),
        _ => p.mk_extract(e, lo, w),
    }
}

/// Extract from a concat: pick the side it falls in, or split a straddling
/// extract into a concat of two extracts.
fn extract_concat(p: &mut ExprPool, h: ExprId, l: ExprId, lo: u32, w: u32) -> ExprId {
    let lw = p.width(l);
    if lo + w <= lw {
        p.extract(l, lo, w)
    } else if lo >= lw {
        p.extract(h, lo - lw, w)
    } else {
        let hi_part = p.extract(h, 0, lo + w - lw);
        let lo_part = p.extract(l, lo, lw - lo);
        p.concat(hi_part, lo_part)
    }
}

/// Extract from `zext(x)`: inside `x`, inside the zero fill, or straddling
/// (`zext(extract(x, lo, ..), w)`).
fn extract_zext(p: &mut ExprPool, x: ExprId, lo: u32, w: u32) -> ExprId {
    let xw = p.width(x);
    if lo + w <= xw {
        p.extract(x, lo, w)
    } else if lo >= xw {
        p.const_u64(w, 0)
    } else {
        let part = p.extract(x, lo, xw - lo);
        p.zext(part, w)
    }
}

/// Extract from `sext(x)`: inside `x`, or a sign-extension of the part of
/// `x` at and above `lo` (at least the sign bit).
fn extract_sext(p: &mut ExprPool, x: ExprId, lo: u32, w: u32) -> ExprId {
    let xw = p.width(x);
    if lo + w <= xw {
        return p.extract(x, lo, w);
    }
    let start = lo.min(xw - 1);
    let part = p.extract(x, start, xw - start);
    p.sext(part, w)
}

pub(crate) fn zext(p: &mut ExprPool, e: ExprId, w: u32) -> ExprId {
    if w == p.width(e) {
        return e;
    }
    if let Some(c) = p.as_const(e) {
        let r = c.zext(w);
        return p.constant(r);
    }
    match *p.node(e) {
        // zext(zext(x)) = zext(x)
        Node::ZExt(x, _) => p.zext(x, w),
        _ => p.mk_zext(e, w),
    }
}

pub(crate) fn sext(p: &mut ExprPool, e: ExprId, w: u32) -> ExprId {
    if w == p.width(e) {
        return e;
    }
    if let Some(c) = p.as_const(e) {
        let r = c.sext(w);
        return p.constant(r);
    }
    match *p.node(e) {
        // sext(sext(x)) = sext(x)
        Node::SExt(x, _) => p.sext(x, w),
        // sext(zext(x, v)) = zext(x, w) when v > width(x) (sign bit is 0)
        Node::ZExt(x, v) if v > p.width(x) => p.zext(x, w),
        _ => p.mk_sext(e, w),
    }
}

// ------------------------------------------------------------------ arrays

/// `store(store(a, i, v1), i, v2) = store(a, i, v2)`.
pub(crate) fn store(p: &mut ExprPool, a: ExprId, i: ExprId, v: ExprId) -> ExprId {
    if let Node::Store { array, index, .. } = *p.node(a) {
        if index == i {
            return p.store(array, i, v);
        }
    }
    p.mk_store(a, i, v)
}

/// `select(store(a, i, v), i) = v`; skips stores at constant indices
/// different from a constant `j`.
pub(crate) fn select(p: &mut ExprPool, a: ExprId, j: ExprId) -> ExprId {
    let mut cur = a;
    while let Node::Store {
        array,
        index,
        value,
    } = *p.node(cur)
    {
        if index == j {
            return value;
        }
        match (p.as_const(index), p.as_const(j)) {
            (Some(x), Some(y)) if x != y => cur = array,
            // A symbolic index whose range cannot reach the other one.
            (None, _) | (_, None) if crate::range::disjoint(p, index, j) => cur = array,
            _ => break,
        }
    }
    p.mk_select(cur, j)
}

#[cfg(test)]
#[path = "rewrite_tests.rs"]
mod tests;
