//! Unsigned value ranges of expressions, read off their structure (no
//! solver, no path condition): `x % 5` lies in `0..=4`, `8 + zext(b)` in
//! `8..=263`. The rewriter uses them to see that a store at a symbolic
//! index cannot touch a byte read at another index, so reading a block
//! header after a write into the block's payload stays a plain read.
//!
//! Every range is sound (contains every value the expression can take); an
//! expression the analysis does not understand gets its width's full range.

use crate::pool::{BinOp, ExprId, ExprPool, Node};

/// How deep the analysis looks below an expression.
const DEPTH: u32 = 8;

/// Inclusive unsigned bounds `(lo, hi)` of `e`, for widths up to 64 bits.
pub(crate) fn urange(p: &ExprPool, e: ExprId) -> Option<(u64, u64)> {
    (p.width(e) <= 64).then(|| range(p, e, DEPTH))
}

fn full(w: u32) -> (u64, u64) {
    (0, if w >= 64 { u64::MAX } else { (1u64 << w) - 1 })
}

fn range(p: &ExprPool, e: ExprId, depth: u32) -> (u64, u64) {
    let w = p.width(e);
    let all = full(w);
    if let Some(c) = p.as_const(e) {
        let v = c.to_u64();
        return (v, v);
    }
    if depth == 0 || w > 64 {
        return all;
    }
    let sub = |x: ExprId| range(p, x, depth - 1);
    let max = all.1;
    match *p.node(e) {
        Node::Select { .. } => all,
        Node::ZExt(a, _) => sub(a),
        Node::Extract { expr, lo: 0, width } => {
            let (l, h) = sub(expr);
            if h <= full(width).1 {
                (l, h)
            } else {
                all
            }
        }
        Node::Ite(_, t, f) => {
            let (a, b) = (sub(t), sub(f));
            (a.0.min(b.0), a.1.max(b.1))
        }
        Node::Bin(op, a, b) => {
            let (ra, rb) = (sub(a), sub(b));
            match op {
                BinOp::Add => match (ra.1.checked_add(rb.1), ra.0.checked_add(rb.0)) {
                    (Some(h), Some(l)) if h <= max => (l, h),
                    _ => all,
                },
                BinOp::Mul => match (ra.1.checked_mul(rb.1), ra.0.checked_mul(rb.0)) {
                    (Some(h), Some(l)) if h <= max => (l, h),
                    _ => all,
                },
                // x % 0 = x
                BinOp::URem if rb.0 > 0 => (0, (rb.1 - 1).min(ra.1)),
                BinOp::URem => (0, ra.1),
                BinOp::UDiv if rb.0 > 0 => (ra.0 / rb.1, ra.1 / rb.0),
                BinOp::And => (0, ra.1.min(rb.1)),
                BinOp::Shl if rb.0 == rb.1 && rb.0 < u64::from(w) => {
                    let k = rb.0 as u32;
                    if ra.1.leading_zeros() >= k + (64 - w) {
                        (ra.0 << k, ra.1 << k)
                    } else {
                        all
                    }
                }
                BinOp::LShr if rb.0 == rb.1 && rb.0 < u64::from(w) => (ra.0 >> rb.0, ra.1 >> rb.0),
                _ => all,
            }
        }
        _ => all,
    }
}

/// Can `a` and `b` (same width) never be equal, judging by their ranges?
pub(crate) fn disjoint(p: &ExprPool, a: ExprId, b: ExprId) -> bool {
    match (urange(p, a), urange(p, b)) {
        (Some((al, ah)), Some((bl, bh))) => ah < bl || bh < al,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ArrayId;

    /// A one-byte symbolic array and its byte.
    fn byte(p: &mut ExprPool) -> (ArrayId, ExprId) {
        let a = p.new_array("b", 1);
        let arr = p.array(a);
        let i0 = p.const_u64(32, 0);
        (a, p.select(arr, i0))
    }

    #[test]
    fn ranges_of_index_shapes() {
        let mut p = ExprPool::new();
        let (_, byte) = byte(&mut p);
        let x = p.zext(byte, 32);
        assert_eq!(urange(&p, x), Some((0, 255)));
        let five = p.const_u64(32, 5);
        let r = p.bin(BinOp::URem, x, five);
        assert_eq!(urange(&p, r), Some((0, 4)));
        let r64 = p.zext(r, 64);
        let eight = p.const_u64(64, 8);
        let idx = p.bin(BinOp::Add, eight, r64);
        assert_eq!(urange(&p, idx), Some((8, 12)));
        let idx32 = p.extract(idx, 0, 32);
        assert_eq!(urange(&p, idx32), Some((8, 12)));
        let three = p.const_u64(32, 3);
        assert!(disjoint(&p, idx32, three));
        let ten = p.const_u64(32, 10);
        assert!(!disjoint(&p, idx32, ten));
        // x * 4 + 1 may wrap in 8 bits: full range.
        let four = p.const_u64(8, 4);
        let m = p.bin(BinOp::Mul, byte, four);
        assert_eq!(urange(&p, m), Some((0, 255)));
        // x & 7, x >> 4, x << 2 of a byte in 32 bits
        let seven = p.const_u64(32, 7);
        let masked = p.bin(BinOp::And, x, seven);
        assert_eq!(urange(&p, masked), Some((0, 7)));
        let four32 = p.const_u64(32, 4);
        let hi = p.bin(BinOp::LShr, x, four32);
        assert_eq!(urange(&p, hi), Some((0, 15)));
        let two = p.const_u64(32, 2);
        let sh = p.bin(BinOp::Shl, x, two);
        assert_eq!(urange(&p, sh), Some((0, 1020)));
    }

    /// The ranges hold for every value of a byte (exhaustively).
    #[test]
    fn ranges_are_sound() {
        let mut p = ExprPool::new();
        let (a, byte) = byte(&mut p);
        let x = p.zext(byte, 16);
        let c = |p: &mut ExprPool, v| p.const_u64(16, v);
        let (c3, c7, c200, c1000) = (c(&mut p, 3), c(&mut p, 7), c(&mut p, 200), c(&mut p, 1000));
        let exprs = [
            p.bin(BinOp::URem, x, c7),
            p.bin(BinOp::UDiv, x, c3),
            p.bin(BinOp::Add, x, c200),
            p.bin(BinOp::Mul, x, c200),
            p.bin(BinOp::Mul, x, c1000),
            p.bin(BinOp::Shl, x, c7),
            p.bin(BinOp::And, x, c200),
        ];
        for e in exprs {
            let (lo, hi) = urange(&p, e).unwrap();
            for v in 0..=255u8 {
                let mut m = crate::Assignment::new();
                m.set(a, vec![v]);
                let got = p.eval(e, &m).to_u64();
                assert!(
                    lo <= got && got <= hi,
                    "{} = {got} outside {lo}..={hi}",
                    p.display(e)
                );
            }
        }
    }
}
