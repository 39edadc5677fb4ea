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

/// The byte of `o` at `off` if concrete.
fn concrete_at(pool: &mut ExprPool, o: &ObjectState, off: usize) -> Option<u64> {
    o.read(pool, off, 1).as_concrete().map(Bits::to_u64)
}

/// `fill` sets every byte of its range and no other, concrete or symbolic,
/// in small, paged and flushed objects, and a concrete fill replaces the
/// symbolic bytes it covers.
#[test]
fn fill_sets_exactly_its_range() {
    let mut pool = ExprPool::new();
    let arr = pool.new_array("x", 1);
    let root = pool.array(arr);
    let z = pool.const_u64(32, 0);
    let x = pool.select(root, z);
    for size in [64usize, 5000, 3 << 20] {
        let mut o = ObjectState::new(size);
        o.write(&mut pool, 9, 1, &Value::Symbolic(x));
        let (off, n) = (7, size - 20);
        o.fill(&mut pool, off, n, &Value::from_u64(8, 0x5a));
        for k in [0, off - 1, off, 9, size / 2, off + n - 1, off + n, size - 1] {
            let want = if (off..off + n).contains(&k) { 0x5a } else { 0 };
            assert_eq!(
                concrete_at(&mut pool, &o, k),
                Some(want),
                "size {size}, byte {k}"
            );
        }
        assert!(o.is_concrete(), "the fill replaced the symbolic byte");
        o.fill(&mut pool, 3, 5, &Value::Symbolic(x));
        for k in 3..8 {
            assert_eq!(o.read(&mut pool, k, 1), Value::Symbolic(x), "byte {k}");
        }
        assert_eq!(concrete_at(&mut pool, &o, 8), Some(0x5a));
        assert_eq!(concrete_at(&mut pool, &o, 2), Some(0));
    }
    // A flushed object: a store per byte, read back at constant offsets.
    let mut o = ObjectState::new(32);
    let off = pool.zext(x, 32);
    o.write_symbolic(&mut pool, "buf", off, 1, &Value::from_u64(8, 1));
    assert!(o.flushed.is_some());
    o.fill(&mut pool, 4, 10, &Value::from_u64(8, 0xee));
    let mut m = Assignment::new();
    m.set(arr, vec![20]);
    for k in 0..32usize {
        let e = o.read(&mut pool, k, 1).expr(&mut pool);
        let want = match k {
            4..=13 => 0xee,
            20 => 1,
            _ => 0,
        };
        assert_eq!(pool.eval(e, &m).to_u64(), want, "byte {k}");
    }
}

/// A fill longer than a value can be wide (more than 2^29 bytes, the
/// `memset` of the report) on a very large object: zeros store nothing,
/// other bytes store only the pages they touch.
#[test]
fn fills_beyond_a_value_s_width_on_very_large_objects() {
    let mut pool = ExprPool::new();
    let size = (1usize << 29) + 3 * PAGE + 5;
    let mut o = ObjectState::new(size);
    assert!(!o.allows_symbolic_offsets(), "a sparse object");
    o.write(&mut pool, size - 1, 1, &Value::from_u64(8, 7));
    o.fill(&mut pool, 1, size - 1, &Value::from_u64(8, 0));
    assert_eq!(concrete_at(&mut pool, &o, size - 1), Some(0));
    let mut pages = 0;
    o.footprint(&mut |_, _| {
        pages += 1;
        true
    });
    assert_eq!(pages, 1, "only the page written before the fill");
    let (off, n) = (size - 2 * PAGE - 3, 2 * PAGE);
    o.fill(&mut pool, off, n, &Value::from_u64(8, 0x71));
    for (k, want) in [(off - 1, 0), (off, 0x71), (off + n - 1, 0x71), (off + n, 0)] {
        assert_eq!(concrete_at(&mut pool, &o, k), Some(want), "byte {k}");
    }
}

/// `read_run` and `write_run` move concrete, symbolic and flushed bytes
/// one by one, as a read and write of the whole value would.
#[test]
fn runs_move_every_kind_of_byte() {
    let mut pool = ExprPool::new();
    let arr = pool.new_array("x", 2);
    let root = pool.array(arr);
    let bytes: Vec<ExprId> = (0..2)
        .map(|i| {
            let idx = pool.const_u64(32, i);
            pool.select(root, idx)
        })
        .collect();
    let mut src = ObjectState::with_bytes((0..40u8).collect());
    let all = src.read_run(&mut pool, 2, 30);
    assert_eq!(all, ByteRun::Concrete((2..32u8).collect()));
    src.write(&mut pool, 10, 1, &Value::Symbolic(bytes[0]));
    let run = src.read_run(&mut pool, 8, 4);
    let want: Vec<Value> = vec![
        Value::from_u64(8, 8),
        Value::from_u64(8, 9),
        Value::Symbolic(bytes[0]),
        Value::from_u64(8, 11),
    ];
    assert_eq!(run, ByteRun::Values(want.clone()));
    // Into a plain object: the same bytes; a later concrete run replaces them.
    let mut dst = ObjectState::new(600);
    dst.write_run(&mut pool, 500, &run);
    for (i, w) in want.iter().enumerate() {
        assert_eq!(dst.read(&mut pool, 500 + i, 1), *w);
    }
    dst.write_run(&mut pool, 500, &all);
    assert!(dst.is_concrete());
    assert_eq!(concrete_at(&mut pool, &dst, 502), Some(4));
    // Into and out of a flushed object.
    let off = pool.zext(bytes[1], 32);
    let mut flushed = ObjectState::new(16);
    flushed.write_symbolic(&mut pool, "f", off, 1, &Value::from_u64(8, 0xcc));
    flushed.write_run(&mut pool, 0, &run);
    flushed.write_run(&mut pool, 4, &ByteRun::Concrete(vec![1, 2]));
    let back = flushed.read_run(&mut pool, 0, 8);
    let ByteRun::Values(back) = back else {
        panic!("a flushed object's bytes are values")
    };
    let mut m = Assignment::new();
    m.set(arr, vec![0x77, 7]);
    let got: Vec<u64> = back
        .iter()
        .map(|v| {
            let e = v.expr(&mut pool);
            pool.eval(e, &m).to_u64()
        })
        .collect();
    assert_eq!(got, [8, 9, 0x77, 11, 1, 2, 0, 0xcc]);
}

/// `stored_words` finds a symbolic 64-bit value stored whole at an offset
/// that is a multiple of 8 (a pointer the program stored), and nothing
/// where it is unaligned, narrower, or partly overwritten.
#[test]
fn stored_words_are_whole_aligned_64_bit_values() {
    let mut pool = ExprPool::new();
    // `base + 32 * i` for a symbolic 32-bit `i`: a pointer into an array.
    let arr = pool.new_array("i", 4);
    let root = pool.array(arr);
    let z = pool.const_u64(32, 0);
    let i = pool.select(root, z);
    let i64_ = pool.zext(i, 64);
    let scale = pool.const_u64(64, 32);
    let scaled = pool.mul(i64_, scale);
    let base = pool.const_u64(64, 0x7000_0000_1000);
    let word = pool.add(base, scaled);
    let ptr = Value::Symbolic(word);
    let mut o = ObjectState::new(64);
    o.write(&mut pool, 8, 8, &ptr); // aligned: found
    o.write(&mut pool, 20, 8, &ptr); // unaligned: not
    let narrow = Value::Symbolic(pool.trunc(word, 32));
    o.write(&mut pool, 32, 4, &narrow); // 32 bits: not
    o.write(&mut pool, 40, 8, &ptr);
    o.write(&mut pool, 44, 1, &Value::from_u64(8, 0)); // partly overwritten: not
    assert_eq!(o.stored_words(&pool), vec![word]);
}
