//! Unit tests for each rewrite rule, plus a randomized check that
//! simplified and unsimplified construction evaluate identically.

use crate::bits::Bits;
use crate::eval::Assignment;
use crate::pool::{ArrayId, BinOp, CmpOp, ExprId, ExprPool, Node};
use crate::testutil::XorShift;

struct Fx {
    p: ExprPool,
    a: ArrayId,
    /// Byte 0 of `a`.
    b: ExprId,
    /// Little-endian 32-bit value from bytes 0..4 of `a`.
    x: ExprId,
    /// Little-endian 32-bit value from bytes 4..8 of `a`.
    y: ExprId,
}

fn read32(p: &mut ExprPool, a: ArrayId, base: u64) -> ExprId {
    let arr = p.array(a);
    let mut v = None;
    for i in 0..4 {
        let idx = p.const_u64(32, base + i);
        let byte = p.select(arr, idx);
        v = Some(match v {
            None => byte,
            Some(lo) => p.concat(byte, lo),
        });
    }
    v.unwrap()
}

fn fx() -> Fx {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 8);
    let x = read32(&mut p, a, 0);
    let y = read32(&mut p, a, 4);
    let arr = p.array(a);
    let i0 = p.const_u64(32, 0);
    let b = p.select(arr, i0);
    Fx { p, a, b, x, y }
}

#[test]
fn constant_folding() {
    let mut p = ExprPool::new();
    let (c7, c3) = (p.const_u64(8, 7), p.const_u64(8, 3));
    for op in BinOp::ALL {
        let r = p.bin(op, c7, c3);
        let want = op.apply(&Bits::from_u64(8, 7), &Bits::from_u64(8, 3));
        assert_eq!(p.as_const(r), Some(&want), "{op:?}");
    }
    for op in CmpOp::ALL {
        let r = p.cmp(op, c7, c3);
        assert_eq!(
            p.as_const(r).map(Bits::is_true),
            Some(op.apply(&Bits::from_u64(8, 7), &Bits::from_u64(8, 3)))
        );
    }
    let n = p.not(c7);
    assert_eq!(p.as_const(n).unwrap().to_u64(), 0xf8);
    let z = p.zext(c7, 16);
    assert_eq!(p.width(z), 16);
    let ff = p.const_u64(8, 0xff);
    let s = p.sext(ff, 16);
    assert_eq!(p.as_const(s).unwrap().to_u64(), 0xffff);
    let e = p.extract(s, 4, 8);
    assert_eq!(p.as_const(e).unwrap().to_u64(), 0xff);
    let c = p.concat(c7, c3);
    assert_eq!(p.as_const(c).unwrap().to_u64(), 0x0703);
}

#[test]
fn arithmetic_identities() {
    let Fx { mut p, x, y, .. } = fx();
    let (z, one, ones) = (
        p.const_u64(32, 0),
        p.const_u64(32, 1),
        p.constant(Bits::ones(32)),
    );
    assert_eq!(p.add(x, z), x);
    assert_eq!(p.add(z, x), x);
    assert_eq!(p.mul(x, one), x);
    assert_eq!(p.mul(x, z), z);
    assert_eq!(p.and(x, z), z);
    assert_eq!(p.and(x, ones), x);
    assert_eq!(p.or(x, z), x);
    assert_eq!(p.or(x, ones), ones);
    assert_eq!(p.xor(x, z), x);
    assert_eq!(p.xor(x, x), z);
    assert_eq!(p.sub(x, x), z);
    assert_eq!(p.and(x, x), x);
    assert_eq!(p.or(x, x), x);
    let nx = p.not(x);
    assert_eq!(p.not(nx), x);
    assert_eq!(p.and(x, nx), z);
    assert_eq!(p.or(nx, x), ones);
    assert_eq!(p.xor(x, ones), nx);
    assert_eq!(p.sdiv(x, one), x);
    assert_eq!(p.srem(x, one), z);
    assert_eq!(p.shl(x, z), x);
    let big = p.const_u64(32, 40);
    assert_eq!(p.shl(x, big), z);
    assert_eq!(p.lshr(x, big), z);
    let sa = p.ashr(x, big);
    assert!(!p.is_constant(sa));
    assert_eq!(p.ashr(z, y), z);
    // Commutative canonical order: constant left, else by id.
    assert_eq!(p.add(x, y), p.add(y, x));
    let c5 = p.const_u64(32, 5);
    let xc = p.add(x, c5);
    assert!(matches!(p.node(xc), Node::Bin(BinOp::Add, k, v) if *k == c5 && *v == x));
}

#[test]
fn strength_reduction_and_constant_merging() {
    let Fx { mut p, x, .. } = fx();
    let c8 = p.const_u64(32, 8);
    let m = p.mul(x, c8);
    let c3 = p.const_u64(32, 3);
    assert_eq!(m, p.shl(x, c3));
    let d = p.udiv(x, c8);
    assert_eq!(d, p.lshr(x, c3));
    let r = p.urem(x, c8);
    let c7 = p.const_u64(32, 7);
    assert_eq!(r, p.and(c7, x));
    // (x + 3) + 5 = 8 + x; x - 3 = -3 + x
    let c5 = p.const_u64(32, 5);
    let a = p.add(x, c3);
    let a = p.add(a, c5);
    assert_eq!(a, p.add(c8, x));
    let s = p.sub(x, c3);
    let m3 = p.constant(Bits::from_i64(32, -3));
    assert_eq!(s, p.add(m3, x));
    // 10 == x + 3  ->  7 == x
    let xp3 = p.add(x, c3);
    let c10 = p.const_u64(32, 10);
    let e = p.eq(c10, xp3);
    assert_eq!(e, p.eq(c7, x));
}

#[test]
fn comparison_rules() {
    let Fx { mut p, x, b, .. } = fx();
    let (t, f) = (p.true_(), p.false_());
    assert_eq!(p.eq(x, x), t);
    assert_eq!(p.ult(x, x), f);
    assert_eq!(p.slt(x, x), f);
    assert_eq!(p.ule(x, x), t);
    assert_eq!(p.sle(x, x), t);
    let bit = p.extract(b, 0, 1);
    assert_eq!(p.eq(bit, t), bit);
    let nb = p.not(bit);
    assert_eq!(p.eq(f, bit), nb);
    let z = p.const_u64(32, 0);
    assert_eq!(p.ult(x, z), f);
    assert_eq!(p.ule(z, x), t);
    // !(x < y) = y <= x
    let c9 = p.const_u64(32, 9);
    let lt = p.ult(x, c9);
    let nlt = p.not(lt);
    assert_eq!(nlt, p.ule(c9, x));
    assert_eq!(p.ugt(x, c9), p.ult(c9, x));
    // c == zext(b): fits -> narrowed, does not fit -> false
    let zb = p.zext(b, 32);
    let c65 = p.const_u64(32, 65);
    let want = p.const_u64(8, 65);
    assert_eq!(p.eq(c65, zb), p.eq(want, b));
    let c300 = p.const_u64(32, 300);
    assert_eq!(p.eq(zb, c300), f);
    let sb = p.sext(b, 32);
    let m1 = p.constant(Bits::ones(32));
    let ff = p.const_u64(8, 0xff);
    assert_eq!(p.eq(m1, sb), p.eq(ff, b));
    assert_eq!(p.eq(c300, sb), f);
    // ne(zext(cond), 0) = cond
    let zc = p.zext(lt, 8);
    let z8 = p.const_u64(8, 0);
    assert_eq!(p.ne(zc, z8), lt);
}

#[test]
fn ite_rules() {
    let Fx { mut p, x, b, .. } = fx();
    let (t, f) = (p.true_(), p.false_());
    let c = p.extract(b, 3, 1);
    let z = p.const_u64(32, 0);
    assert_eq!(p.ite(t, x, z), x);
    assert_eq!(p.ite(f, x, z), z);
    assert_eq!(p.ite(c, x, x), x);
    assert_eq!(p.ite(c, t, f), c);
    let nc = p.not(c);
    assert_eq!(p.ite(c, f, t), nc);
    assert_eq!(p.ite(nc, x, z), p.ite(c, z, x));
}

#[test]
fn extract_concat_rules() {
    let Fx { mut p, x, b, .. } = fx();
    assert_eq!(p.extract(x, 0, 32), x);
    // Byte split and concat round trip.
    let bytes: Vec<ExprId> = (0..4).map(|i| p.extract(x, 8 * i, 8)).collect();
    let mut v = bytes[0];
    for &hi in &bytes[1..] {
        v = p.concat(hi, v);
    }
    assert_eq!(v, x);
    let hi = p.concat(bytes[3], bytes[2]);
    let lo = p.concat(bytes[1], bytes[0]);
    assert_eq!(p.concat(hi, lo), x);
    // The same with a non-concat value (bytes are Extract nodes).
    let m = p.mul(x, x);
    let mb: Vec<ExprId> = (0..4).map(|i| p.extract(m, 8 * i, 8)).collect();
    let hi = p.concat(mb[3], mb[2]);
    let lo = p.concat(mb[1], mb[0]);
    assert_eq!(p.concat(hi, lo), m);
    let mid = p.concat(mb[2], mb[1]);
    let top = p.concat(mb[3], mid);
    assert_eq!(p.concat(top, mb[0]), m);
    // Left-nested order too.
    let h2 = p.concat(bytes[3], bytes[2]);
    let h3 = p.concat(h2, bytes[1]);
    assert_eq!(p.concat(h3, bytes[0]), x);
    // Nested extracts.
    let e16 = p.extract(x, 8, 16);
    assert_eq!(p.extract(e16, 8, 8), bytes[2]);
    // Extract from concat picks a side or splits.
    let c = p.concat(b, x);
    assert_eq!(p.extract(c, 32, 8), b);
    assert_eq!(p.extract(c, 8, 8), bytes[1]);
    let straddle = p.extract(c, 24, 16);
    let b0 = p.extract(b, 0, 8);
    assert_eq!(straddle, p.concat(b0, bytes[3]));
    // Extract of zext.
    let zb = p.zext(b, 32);
    assert_eq!(p.extract(zb, 0, 8), b);
    let z8 = p.const_u64(8, 0);
    assert_eq!(p.extract(zb, 16, 8), z8);
    let lo4 = p.extract(b, 4, 4);
    assert_eq!(p.extract(zb, 4, 8), p.zext(lo4, 8));
    // Extract of sext.
    let sb = p.sext(b, 32);
    assert_eq!(p.extract(sb, 0, 8), b);
    let top = p.extract(b, 7, 1);
    assert_eq!(p.extract(sb, 16, 8), p.sext(top, 8));
    // concat(0, x) canonicalises to zext.
    let z = p.const_u64(32, 0);
    let cz = p.concat(z, x);
    assert!(matches!(p.node(cz), Node::ZExt(e, 64) if *e == x));
    // Nested extensions.
    let z16 = p.zext(b, 16);
    assert_eq!(p.zext(z16, 32), zb);
    let s16 = p.sext(b, 16);
    assert_eq!(p.sext(s16, 32), sb);
    assert_eq!(p.sext(z16, 32), zb);
}

#[test]
fn select_store_rules() {
    let Fx { mut p, a, b, x, .. } = fx();
    let arr = p.array(a);
    let (i1, i2) = (p.const_u64(32, 1), p.const_u64(32, 2));
    let v = p.extract(x, 8, 8);
    let s1 = p.store(arr, i1, v);
    assert_eq!(p.select(s1, i1), v);
    assert_eq!(p.select(s1, i2), p.select(arr, i2));
    // Symbolic index j: cannot skip.
    let j = p.zext(b, 32);
    let sj = p.select(s1, j);
    assert!(matches!(p.node(sj), Node::Select { array, .. } if *array == s1));
    let s2 = p.store(s1, j, b);
    assert_eq!(p.select(s2, j), b);
    // Overwriting the same index drops the older store.
    let s3 = p.store(s1, i1, b);
    assert_eq!(s3, p.store(arr, i1, b));
}

/// A random expression shape, built identically in two pools.
#[derive(Clone, Debug)]
enum R {
    Const(Bits),
    Read(u32, Box<R>),
    ReadStores(u32, Vec<(R, R)>, Box<R>),
    Bin(BinOp, Box<R>, Box<R>),
    Cmp(CmpOp, Box<R>, Box<R>),
    Not(Box<R>),
    Ite(Box<R>, Box<R>, Box<R>),
    Concat(Box<R>, Box<R>),
    Extract(Box<R>, u32, u32),
    ZExt(Box<R>, u32),
    SExt(Box<R>, u32),
}

const WIDTHS: &[u32] = &[1, 3, 8, 16, 32, 64, 65];

fn special(rng: &mut XorShift, w: u32) -> Bits {
    match rng.below(7) {
        0 => Bits::zero(w),
        1 => Bits::from_u64(w, 1),
        2 => Bits::ones(w),
        3 => Bits::from_u64(w, 1 << rng.below(w.min(64) as u64)),
        4 => Bits::from_u64(w, 1).shl(&Bits::from_u64(w, w as u64 - 1)),
        5 => Bits::from_u64(w, rng.below(10)),
        _ => Bits::from_u128(w, ((rng.next() as u128) << 64) | rng.next() as u128),
    }
}

fn index(rng: &mut XorShift, depth: u32) -> R {
    if depth > 0 && rng.below(4) == 0 {
        R::ZExt(Box::new(gen(rng, 8, depth - 1)), 32)
    } else {
        R::Const(Bits::from_u64(32, rng.below(6)))
    }
}

fn leaf(rng: &mut XorShift, w: u32) -> R {
    if rng.below(3) == 0 {
        return R::Const(special(rng, w));
    }
    let read = |rng: &mut XorShift| R::Read(rng.below(2) as u32, Box::new(index(rng, 0)));
    let mut r = read(rng);
    let mut rw = 8;
    while rw < w {
        r = R::Concat(Box::new(read(rng)), Box::new(r));
        rw += 8;
    }
    if rw > w {
        r = R::Extract(Box::new(r), rng.below((rw - w + 1) as u64) as u32, w);
    }
    r
}

fn gen(rng: &mut XorShift, w: u32, depth: u32) -> R {
    if depth == 0 || rng.below(5) == 0 {
        return leaf(rng, w);
    }
    let d = depth - 1;
    let sub = |rng: &mut XorShift, w| Box::new(gen(rng, w, d));
    match rng.below(12) {
        0 | 1 => {
            let op = BinOp::ALL[rng.below(13) as usize];
            R::Bin(op, sub(rng, w), sub(rng, w))
        }
        2 => {
            let op = BinOp::ALL[rng.below(13) as usize];
            let c = Box::new(R::Const(special(rng, w)));
            if rng.below(2) == 0 {
                R::Bin(op, sub(rng, w), c)
            } else {
                R::Bin(op, c, sub(rng, w))
            }
        }
        3 => {
            let op = BinOp::ALL[rng.below(13) as usize];
            let s = sub(rng, w);
            R::Bin(op, s.clone(), s)
        }
        4 => R::Not(sub(rng, w)),
        5 => {
            let t = sub(rng, w);
            let e = if rng.below(3) == 0 {
                t.clone()
            } else {
                sub(rng, w)
            };
            R::Ite(sub(rng, 1), t, e)
        }
        6 if w == 1 => {
            let op = CmpOp::ALL[rng.below(5) as usize];
            let iw = WIDTHS[rng.below(WIDTHS.len() as u64) as usize];
            let a = sub(rng, iw);
            let b = match rng.below(3) {
                0 => a.clone(),
                1 => Box::new(R::Const(special(rng, iw))),
                _ => sub(rng, iw),
            };
            R::Cmp(op, a, b)
        }
        7 if w > 1 => {
            let lw = 1 + rng.below((w - 1) as u64) as u32;
            R::Concat(sub(rng, w - lw), sub(rng, lw))
        }
        8 => {
            let sw = w + rng.below(33) as u32;
            let lo = rng.below((sw - w + 1) as u64) as u32;
            R::Extract(sub(rng, sw), lo, w)
        }
        9 if w > 1 => {
            let sw = 1 + rng.below((w - 1) as u64) as u32;
            if rng.below(2) == 0 {
                R::ZExt(sub(rng, sw), w)
            } else {
                R::SExt(sub(rng, sw), w)
            }
        }
        10 if w & 7 == 0 && w > 8 => {
            // Byte split and reassembly of one value.
            let x = sub(rng, w);
            let mut r = R::Extract(x.clone(), 0, 8);
            for k in 1..w / 8 {
                r = R::Concat(Box::new(R::Extract(x.clone(), 8 * k, 8)), Box::new(r));
            }
            r
        }
        11 if w == 8 => {
            let n = 1 + rng.below(3);
            let stores = (0..n).map(|_| (index(rng, d), gen(rng, 8, d))).collect();
            R::ReadStores(rng.below(2) as u32, stores, Box::new(index(rng, d)))
        }
        _ => R::Bin(BinOp::Add, sub(rng, w), sub(rng, w)),
    }
}

fn build(p: &mut ExprPool, arrs: &[ArrayId], r: &R) -> ExprId {
    match r {
        R::Const(b) => p.constant(b.clone()),
        R::Read(a, i) => {
            let i = build(p, arrs, i);
            let arr = p.array(arrs[*a as usize]);
            p.select(arr, i)
        }
        R::ReadStores(a, stores, i) => {
            let mut arr = p.array(arrs[*a as usize]);
            for (si, sv) in stores {
                let (si, sv) = (build(p, arrs, si), build(p, arrs, sv));
                arr = p.store(arr, si, sv);
            }
            let i = build(p, arrs, i);
            p.select(arr, i)
        }
        R::Bin(op, a, b) => {
            let (a, b) = (build(p, arrs, a), build(p, arrs, b));
            p.bin(*op, a, b)
        }
        R::Cmp(op, a, b) => {
            let (a, b) = (build(p, arrs, a), build(p, arrs, b));
            p.cmp(*op, a, b)
        }
        R::Not(a) => {
            let a = build(p, arrs, a);
            p.not(a)
        }
        R::Ite(c, t, e) => {
            let (c, t, e) = (build(p, arrs, c), build(p, arrs, t), build(p, arrs, e));
            p.ite(c, t, e)
        }
        R::Concat(h, l) => {
            let (h, l) = (build(p, arrs, h), build(p, arrs, l));
            p.concat(h, l)
        }
        R::Extract(e, lo, w) => {
            let e = build(p, arrs, e);
            p.extract(e, *lo, *w)
        }
        R::ZExt(e, w) => {
            let e = build(p, arrs, e);
            p.zext(e, *w)
        }
        R::SExt(e, w) => {
            let e = build(p, arrs, e);
            p.sext(e, *w)
        }
    }
}

fn random_assignment(rng: &mut XorShift, arrs: &[ArrayId]) -> Assignment {
    let mut asg = Assignment::new();
    for &a in arrs {
        let bytes = (0..4)
            .map(|_| match rng.below(5) {
                0 => 0,
                1 => 0xff,
                2 => 0x80,
                3 => rng.below(6) as u8,
                _ => rng.next() as u8,
            })
            .collect();
        asg.set(a, bytes);
    }
    asg
}

#[test]
fn rewrites_preserve_semantics() {
    let mut rng = XorShift::new(2024);
    let mut simp = ExprPool::new();
    let mut raw = ExprPool::new_unsimplified();
    let arrs: Vec<ArrayId> = (0..2)
        .map(|i| simp.new_array(&format!("in{i}"), 4))
        .collect();
    let arrs_raw: Vec<ArrayId> = (0..2)
        .map(|i| raw.new_array(&format!("in{i}"), 4))
        .collect();
    assert_eq!(arrs, arrs_raw);
    let mut changed = 0;
    for round in 0..4000 {
        let w = WIDTHS[rng.below(WIDTHS.len() as u64) as usize];
        let r = gen(&mut rng, w, 4);
        let es = build(&mut simp, &arrs, &r);
        let er = build(&mut raw, &arrs, &r);
        assert_eq!(simp.width(es), w);
        assert_eq!(raw.width(er), w);
        if simp.node(es) != raw.node(er) {
            changed += 1;
        }
        for a in simp.arrays_in(es) {
            assert!(raw.arrays_in(er).contains(&a));
        }
        for _ in 0..8 {
            let asg = random_assignment(&mut rng, &arrs);
            let (vs, vr) = (simp.eval(es, &asg), raw.eval(er, &asg));
            assert_eq!(
                vs,
                vr,
                "round {round}: rewrite changed semantics\nsimplified: {}\nraw: {}\nasg: {asg:?}",
                simp.display(es),
                raw.display(er)
            );
        }
    }
    assert!(changed > 1000, "rewrites fired only {changed} times");
}
