//! Tests of `ObjectState`: per-byte contents, flushing, symbolic-offset accesses.

use super::*;
use crate::memory::sym_bytes::HIGH;

/// An access at an offset of a few possible values in a large object is
/// an `ite` over them: the object is not flushed, and the values read
/// and written are those of the offset each input gives.
#[test]
fn small_window_accesses_are_ites_without_flushing() {
    let mut pool = ExprPool::new();
    let mut o = ObjectState::new(4096);
    for k in 0..8usize {
        o.write(&mut pool, k, 1, &Value::from_u64(8, 0x10 + k as u64));
    }
    // off = 3 + (b & 3): one of 3..=6.
    let arr = pool.new_array("b", 1);
    let root = pool.array(arr);
    let z = pool.const_u64(32, 0);
    let b = pool.select(root, z);
    let b32 = pool.zext(b, 32);
    let three = pool.const_u64(32, 3);
    let masked = pool.and(b32, three);
    let off = pool.add(three, masked);
    let r = o.read_symbolic(&mut pool, "buf", off, 2).expr(&mut pool);
    let v = Value::Symbolic(pool.zext(b, 16));
    o.write_symbolic(&mut pool, "buf", off, 2, &v);
    assert!(o.flushed.is_none(), "a window access flushed the object");
    for x in 0..4u8 {
        let mut m = symtest_expr::Assignment::new();
        m.set(arr, vec![x]);
        let k = 3 + x as u64;
        assert_eq!(pool.eval(r, &m).to_u64(), (0x11 + k) << 8 | (0x10 + k));
        // After the write, bytes k and k+1 hold x and 0; the others are as before.
        for j in 0..10usize {
            let e = o.read(&mut pool, j, 1).expr(&mut pool);
            let want = if j as u64 == k {
                x as u64
            } else if j as u64 == k + 1 {
                0
            } else if j < 8 {
                0x10 + j as u64
            } else {
                0
            };
            assert_eq!(pool.eval(e, &m).to_u64(), want, "byte {j}, input {x}");
        }
    }
}

#[test]
fn symbolic_bytes_round_trip_and_flush_preserves_contents() {
    let mut pool = ExprPool::new();
    let arr = pool.new_array("x", 4);
    let root = pool.array(arr);
    let mut o = ObjectState::new(8);
    o.write(&mut pool, 0, 4, &Value::from_u64(32, 0x11223344));
    for i in 0..4u64 {
        let idx = pool.const_u64(32, i);
        let b = pool.select(root, idx);
        o.write(&mut pool, 4 + i as usize, 1, &Value::Symbolic(b));
    }
    // Reading the four symbolic bytes back gives one 32-bit expression.
    let v = o.read(&mut pool, 4, 4);
    let Value::Symbolic(e) = v else {
        panic!("expected a symbolic read")
    };
    let mut m = symtest_expr::Assignment::new();
    m.set(arr, vec![0xaa, 0xbb, 0xcc, 0xdd]);
    assert_eq!(pool.eval(e, &m).to_u64(), 0xddccbbaa);
    // A symbolic-offset access flushes; concrete contents are preserved.
    let i = pool.new_array("i", 4);
    let ir = pool.array(i);
    let z = pool.const_u64(32, 0);
    let i0 = pool.select(ir, z);
    let off = pool.zext(i0, 32);
    let r = o.read_symbolic(&mut pool, "obj", off, 1);
    let re = r.expr(&mut pool);
    let mut m2 = m.clone();
    m2.set(i, vec![2, 0, 0, 0]);
    assert_eq!(pool.eval(re, &m2).to_u64(), 0x22);
    m2.set(i, vec![5, 0, 0, 0]);
    assert_eq!(pool.eval(re, &m2).to_u64(), 0xbb);
    assert_eq!(
        o.read(&mut pool, 0, 4).expr(&mut pool),
        pool.const_u64(32, 0x11223344)
    );
}

#[test]
fn objects_above_4_gib_keep_bytes_at_any_offset() {
    let mut pool = ExprPool::new();
    let size = (1usize << 32) + 16;
    let mut o = ObjectState::new(size);
    assert!(
        !o.allows_symbolic_offsets(),
        "a paged object is never flushed"
    );
    let arr = pool.new_array("x", 1);
    let idx = pool.const_u64(32, 0);
    let b = pool.select(pool.array(arr), idx);
    // Symbolic bytes on both sides of the 4 GiB boundary, concrete ones too.
    o.write(&mut pool, HIGH - 1, 1, &Value::Symbolic(b));
    o.write(&mut pool, HIGH + 3, 1, &Value::Symbolic(b));
    o.write(&mut pool, HIGH + 8, 4, &Value::from_u64(32, 0xaabbccdd));
    assert_eq!(o.read(&mut pool, HIGH - 1, 1), Value::Symbolic(b));
    assert_eq!(o.read(&mut pool, HIGH + 3, 1), Value::Symbolic(b));
    assert_eq!(o.read(&mut pool, HIGH, 1), Value::from_u64(8, 0));
    assert_eq!(
        o.read(&mut pool, HIGH + 8, 4),
        Value::from_u64(32, 0xaabbccdd)
    );
    assert!(o.concrete_bytes(HIGH - 2, 4).is_none());
    assert_eq!(
        o.concrete_bytes(HIGH + 4, 4).as_deref(),
        Some(&[0u8; 4][..])
    );
    // A concrete write over the high symbolic byte makes it concrete.
    o.write(&mut pool, HIGH + 2, 2, &Value::from_u64(16, 0x0102));
    assert_eq!(o.read(&mut pool, HIGH + 3, 1), Value::from_u64(8, 1));
    assert!(
        o.has_symbolic_bytes(),
        "the byte below 4 GiB is still symbolic"
    );
}

#[test]
fn sparse_symbolic_bytes_match_a_dense_model() {
    let mut pool = ExprPool::new();
    let a = pool.new_array("a", 64);
    let root = pool.array(a);
    let exprs: Vec<ExprId> = (0..64)
        .map(|i| {
            let idx = pool.const_u64(32, i);
            pool.select(root, idx)
        })
        .collect();
    let mut sparse = SymBytes::default();
    let mut dense: Vec<Option<ExprId>> = vec![None; 64];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for step in 0..5000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let off = (x % 64) as usize;
        let n = 1 + ((x >> 8) % 8) as usize;
        match (x >> 16) % 4 {
            0 | 1 => {
                sparse.set(off, exprs[(x >> 20) as usize % 64]);
                dense[off] = Some(exprs[(x >> 20) as usize % 64]);
            }
            2 => {
                let n = n.min(64 - off);
                sparse.remove_range(off, n);
                dense[off..off + n].iter_mut().for_each(|b| *b = None);
            }
            _ => {
                let drop = exprs[(x >> 24) as usize % 64];
                sparse.retain(|_, e| e != drop);
                dense.iter_mut().for_each(|b| {
                    if *b == Some(drop) {
                        *b = None
                    }
                });
            }
        }
        for (o, want) in dense.iter().enumerate() {
            assert_eq!(sparse.get(o), *want, "step {step} offset {o}");
        }
        let n = n.min(64 - off);
        assert_eq!(
            sparse.any_in(off, n),
            dense[off..off + n].iter().any(Option::is_some),
            "step {step}"
        );
        assert_eq!(sparse.is_empty(), dense.iter().all(Option::is_none));
    }
}

/// Two states' copies of the same read-only table, read at a symbolic
/// offset, are the same array expression (so solver caches keyed by it are
/// shared); a writable object with the same bytes, or a table with other
/// bytes, gets an array of its own.
#[test]
fn copies_of_a_read_only_table_flush_into_one_array() {
    let mut pool = ExprPool::new();
    let arr = pool.new_array("c", 1);
    let root = pool.array(arr);
    let z = pool.const_u64(32, 0);
    let c = pool.select(root, z);
    let off = pool.zext(c, 32);
    let bytes: Vec<u8> = (0..64u8).map(|k| k.wrapping_mul(7)).collect();
    let read = |pool: &mut ExprPool, bytes: &[u8], read_only: bool| {
        let mut o = ObjectState::with_bytes(bytes.to_vec());
        o.read_only = read_only;
        o.read_symbolic(pool, "table", off, 1);
        o.flushed.expect("a symbolic read flushed the object")
    };
    let a = read(&mut pool, &bytes, true);
    let b = read(&mut pool, &bytes, true);
    assert_eq!(a, b);
    assert_ne!(read(&mut pool, &bytes, false), a);
    let mut other = bytes.clone();
    other[5] ^= 1;
    assert_ne!(read(&mut pool, &other, true), a);
}
