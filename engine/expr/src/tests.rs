//! Tests for the pool (hash-consing, arrays), evaluation and display.

use crate::{Assignment, BinOp, Bits, ExprId, ExprPool, Node};

fn read_le(p: &mut ExprPool, arr: ExprId, base: u64, n: u64) -> ExprId {
    let mut v: Option<ExprId> = None;
    for i in 0..n {
        let idx = p.const_u64(32, base + i);
        let b = p.select(arr, idx);
        v = Some(match v {
            None => b,
            Some(lo) => p.concat(b, lo),
        });
    }
    v.unwrap()
}

#[test]
fn hash_consing_gives_identical_ids() {
    for mut p in [ExprPool::new(), ExprPool::new_unsimplified()] {
        let a = p.new_array("a", 4);
        let arr = p.array(a);
        let x = read_le(&mut p, arr, 0, 4);
        let y = read_le(&mut p, arr, 0, 4);
        assert_eq!(x, y);
        let n = p.len();
        let c1 = p.const_u64(32, 7);
        let s1 = p.add(x, c1);
        let c2 = p.const_u64(32, 7);
        let s2 = p.add(x, c2);
        assert_eq!(c1, c2);
        assert_eq!(s1, s2);
        assert_eq!(p.len(), n + 2);
        let c3 = p.const_u64(32, 8);
        assert_ne!(p.add(x, c3), s1);
        assert_ne!(p.const_u64(16, 7), c1, "same value, different width");
        assert_eq!(p.true_(), p.constant(Bits::from_bool(true)));
    }
}

#[test]
fn pool_accessors() {
    let mut p = ExprPool::new();
    assert!(p.is_empty());
    let a = p.new_array("in", 4);
    let b = p.new_array("in", 2);
    assert_eq!(p.array_info(a).name, "in");
    assert_ne!(p.array_info(b).name, "in", "names are made unique");
    assert_eq!(p.arrays().len(), 2);
    assert_eq!(p.array_info(b).size, 2);
    let (ra, rb) = (p.array(a), p.array(b));
    assert!(p.is_array(ra) && p.width(ra) == 0);
    assert!(matches!(p.node(ra), Node::Array(x) if *x == a));
    let xa = read_le(&mut p, ra, 0, 2);
    let xb = read_le(&mut p, rb, 0, 2);
    assert_eq!(p.width(xa), 16);
    let s = p.add(xb, xa);
    let mut both = vec![a, b];
    both.sort();
    assert_eq!(p.arrays_in(s), both);
    assert_eq!(p.arrays_in(xa), vec![a]);
    let c = p.const_u64(16, 3);
    assert!(p.arrays_in(c).is_empty());
    assert!(p.is_constant(c) && !p.is_constant(s));
    assert_eq!(p.as_const(c), Some(&Bits::from_u64(16, 3)));
    // Stores contribute the arrays of their index/value.
    let i = p.const_u64(32, 0);
    let v = p.extract(xb, 0, 8);
    let st = p.store(ra, i, v);
    let j = p.const_u64(32, 1);
    let r = p.select(st, j);
    assert_eq!(p.arrays_in(r), vec![a]);
    assert_eq!(p.arrays_in(st), both);
    // Clones keep ids valid but get a new identity.
    let q = p.clone();
    assert_ne!(q.uid(), p.uid());
    assert_ne!(ExprPool::new().uid(), ExprPool::new().uid());
    assert_eq!(q.node(st), p.node(st));
}

#[test]
fn byte_split_round_trip_through_memory() {
    let mut p = ExprPool::new();
    let inp = p.new_array("in", 4);
    let mem = p.new_array("mem", 16);
    let src = p.array(inp);
    let x = read_le(&mut p, src, 0, 4);
    let y = p.mul(x, x); // an arbitrary symbolic 32-bit value
                         // Store y little-endian at mem[8..12], then load it back.
    let mut m = p.array(mem);
    for k in 0..4 {
        let idx = p.const_u64(32, 8 + k);
        let byte = p.extract(y, 8 * k as u32, 8);
        m = p.store(m, idx, byte);
    }
    assert_eq!(read_le(&mut p, m, 8, 4), y);
    assert_eq!(read_le(&mut p, m, 10, 2), p.extract(y, 16, 16));
    // And a 64-bit value stored in two 32-bit halves.
    let w = p.zext(y, 64);
    let lo = p.extract(w, 0, 32);
    let hi = p.extract(w, 32, 32);
    assert_eq!(p.concat(hi, lo), w);
}

#[test]
fn eval_reads_stores_and_defaults() {
    let mut p = ExprPool::new_unsimplified();
    let a = p.new_array("a", 4);
    let arr = p.array(a);
    let x = read_le(&mut p, arr, 0, 4);
    let mut asg = Assignment::new();
    asg.set(a, vec![0x78, 0x56, 0x34, 0x12]);
    assert_eq!(p.eval(x, &asg).to_u64(), 0x1234_5678);
    assert_eq!(asg.get(a), Some(&[0x78u8, 0x56, 0x34, 0x12][..]));
    // Missing arrays and bytes read as zero.
    let empty = Assignment::new();
    assert_eq!(p.eval(x, &empty).to_u64(), 0);
    assert!(empty.bytes(a).is_empty());
    let i9 = p.const_u64(32, 9);
    let oob = p.select(arr, i9);
    assert_eq!(p.eval(oob, &asg).to_u64(), 0);
    // Store chain: newest store wins; symbolic index.
    let (i1, v1, v2) = (
        p.const_u64(32, 1),
        p.const_u64(8, 0xaa),
        p.const_u64(8, 0xbb),
    );
    let s1 = p.store(arr, i1, v1);
    let b0 = p.extract(x, 0, 8);
    let j = p.zext(b0, 32); // index = byte 0 of a
    let s2 = p.store(s1, j, v2);
    let r1 = p.select(s2, i1);
    let mut asg2 = Assignment::new();
    asg2.set(a, vec![1, 2, 3, 4]);
    assert_eq!(p.eval(r1, &asg2).to_u64(), 0xbb, "j == 1 overrides");
    asg2.set(a, vec![3, 2, 3, 4]);
    assert_eq!(p.eval(r1, &asg2).to_u64(), 0xaa);
    let i2 = p.const_u64(32, 2);
    let r2 = p.select(s2, i2);
    assert_eq!(p.eval(r2, &asg2).to_u64(), 3, "falls through to the input");
    // Arithmetic, comparisons and ite.
    let c = p.const_u64(32, 0x0403_0203);
    let eq = p.eq(x, c);
    assert!(p.eval_bool(eq, &asg2));
    let t = p.const_u64(32, 1);
    let f = p.const_u64(32, 2);
    let it = p.ite(eq, t, f);
    assert_eq!(p.eval(it, &asg2).to_u64(), 1);
    let z = p.const_u64(32, 0);
    let sd = p.sdiv(x, z);
    assert!(p.eval(sd, &asg2).is_ones(), "positive sdiv 0 = -1");
    let sx = p.sext(b0, 64);
    asg2.set(a, vec![0x80]);
    assert_eq!(p.eval(sx, &asg2).to_i64(), -128);
}

#[test]
fn eval_handles_deep_chains() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 1);
    let arr = p.array(a);
    let i0 = p.const_u64(32, 0);
    let b = p.select(arr, i0);
    let mut e = p.zext(b, 64);
    for k in 0..200_000u64 {
        let c = p.const_u64(64, k | 1);
        e = if k % 2 == 0 { p.xor(c, e) } else { p.mul(e, c) };
    }
    let mut asg = Assignment::new();
    asg.set(a, vec![5]);
    let mut want = 5u64;
    for k in 0..200_000u64 {
        want = if k % 2 == 0 {
            want ^ (k | 1)
        } else {
            want.wrapping_mul(k | 1)
        };
    }
    assert_eq!(p.eval(e, &asg).to_u64(), want);
}

#[test]
fn display_is_kquery_like() {
    let mut p = ExprPool::new();
    let a = p.new_array("input", 8);
    let arr = p.array(a);
    let i3 = p.const_u64(32, 3);
    let r = p.select(arr, i3);
    let z = p.zext(r, 32);
    let one = p.const_u64(32, 1);
    let s = p.add(z, one);
    assert_eq!(
        p.display(s).to_string(),
        "(Add w32 1 (ZExt w32 (Read w8 3 input)))"
    );
    let c = p.const_u64(8, 0x41);
    let e = p.eq(r, c);
    assert_eq!(p.display(e).to_string(), "(Eq 65 (Read w8 3 input))");
    assert_eq!(p.display(c).to_string(), "(w8 65)");
    let t = p.true_();
    assert_eq!(p.display(t).to_string(), "true");
    // Shared subterm gets a label.
    let sq = p.mul(s, s);
    assert_eq!(
        p.display(sq).to_string(),
        "(Mul w32 N5:(Add w32 1 (ZExt w32 (Read w8 3 input))) N5)"
    );
    // Store chains.
    let (i0, v) = (p.const_u64(32, 0), p.const_u64(8, 7));
    let st = p.store(arr, i0, v);
    let st2 = p.store(st, i3, r);
    let j = p.zext(r, 32);
    let rd = p.select(st2, j);
    assert_eq!(
        p.display(rd).to_string(),
        "(Read w8 (ZExt w32 N2:(Read w8 3 input)) [3=N2, 0=7] @ input)"
    );
}

/// Depth counts operations down to inputs: one per operator, one for a read
/// at a constant index, eight for a read at a symbolic index, and nothing
/// for the stores of a lookup table.
#[test]
fn depth_counts_operations_not_table_stores() {
    let mut p = ExprPool::new();
    let a = p.new_array("in", 8);
    let root = p.array(a);
    let i0 = p.const_u64(32, 0);
    let b0 = p.select(root, i0);
    assert_eq!(p.depth(i0), 0);
    assert_eq!(p.depth(b0), 1);
    let w = p.zext(b0, 32);
    let one = p.const_u64(32, 1);
    let sum = p.bin(BinOp::Add, w, one);
    assert_eq!(p.depth(sum), 3);
    // A 256-entry constant table read at the symbolic `sum`.
    let t = p.new_array("table", 256);
    let mut chain = p.array(t);
    for k in 0..256u64 {
        let i = p.const_u64(32, k);
        let v = p.const_u64(8, k * 7 % 256);
        chain = p.store(chain, i, v);
    }
    assert_eq!(p.depth(chain), 1);
    let read = p.select(chain, sum);
    assert_eq!(p.depth(read), 3 + 8);
    // A chained hash grows with every byte mixed in.
    let mut h = p.const_u64(32, 2166136261);
    for i in 0..8 {
        let idx = p.const_u64(32, i);
        let b = p.select(root, idx);
        let b = p.zext(b, 32);
        let x = p.bin(BinOp::Xor, h, b);
        let prime = p.const_u64(32, 16777619);
        h = p.bin(BinOp::Mul, x, prime);
    }
    assert!(p.depth(h) >= 16, "{}", p.depth(h));
}
