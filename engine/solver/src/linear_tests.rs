//! The linear layer: checksums over GF(2) decided by elimination, what it
//! passes down, and its answers against Bitwuzla's on random XOR networks.

use crate::lookup::tests::crc_entries;
use crate::test_rng::Rng;
use crate::{BitwuzlaSolver, LinearSolver, SatResult, Solver};
use symtest_expr::{ArrayId, BinOp, ExprId, ExprPool};

fn layer() -> LinearSolver<BitwuzlaSolver> {
    LinearSolver::new(BitwuzlaSolver::new().unwrap())
}

fn backend_queries(s: &LinearSolver<BitwuzlaSolver>) -> u64 {
    s.inner().stats().queries
}

fn byte(p: &mut ExprPool, a: ArrayId, i: u64) -> ExprId {
    let arr = p.array(a);
    let idx = p.const_u64(32, i);
    p.select(arr, idx)
}

fn crc32(data: &[u8]) -> u32 {
    let t = crc_entries();
    let mut c = !0u32;
    for &b in data {
        c = t[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// The table as a store chain of 4-byte little-endian entries (as a
/// program's flushed `crctab` looks to the solver).
fn crc_table(p: &mut ExprPool) -> ExprId {
    let a = p.new_array("crctab", 1024);
    let mut t = p.array(a);
    for (i, e) in crc_entries().iter().enumerate() {
        for (j, b) in e.to_le_bytes().iter().enumerate() {
            let ix = p.const_u64(32, (4 * i + j) as u64);
            let v = p.const_u64(8, u64::from(*b));
            t = p.store(t, ix, v);
        }
    }
    t
}

/// `~crc32(input[0..n])` as an expression, read through the table.
fn crc_expr(p: &mut ExprPool, table: ExprId, input: ArrayId, n: u64) -> ExprId {
    let mut c = p.const_u64(32, 0xffff_ffff);
    for k in 0..n {
        let b = byte(p, input, k);
        let b = p.zext(b, 32);
        let x = p.bin(BinOp::Xor, c, b);
        let ff = p.const_u64(32, 0xff);
        let low = p.bin(BinOp::And, x, ff);
        let two = p.const_u64(32, 2);
        let base = p.bin(BinOp::Shl, low, two);
        let mut entry = None;
        for j in (0..4).rev() {
            let off = p.const_u64(32, j);
            let ix = p.bin(BinOp::Add, base, off);
            let r = p.select(table, ix);
            entry = Some(match entry {
                None => r,
                Some(hi) => p.concat(hi, r),
            });
        }
        let eight = p.const_u64(32, 8);
        let shifted = p.bin(BinOp::LShr, c, eight);
        c = p.bin(BinOp::Xor, entry.unwrap(), shifted);
    }
    p.not(c)
}

fn model_bytes(res: &SatResult, a: ArrayId) -> Vec<u8> {
    res.model().expect("sat").bytes(a).to_vec()
}

/// cksum's question: can the checksum of eight input bytes take a given
/// value (Bitwuzla: 5.6 s)? Decided by elimination, with a model whose
/// checksum is that value; two different values at once are unsatisfiable.
#[test]
fn a_crc_of_eight_input_bytes_is_inverted_without_the_backend() {
    let mut p = ExprPool::new();
    let input = p.new_array("stdin", 8);
    let t = crc_table(&mut p);
    let crc = crc_expr(&mut p, t, input, 8);
    let mut s = layer();
    for want in [0u32, 0xffff_ffff, 0x1234_5678] {
        let k = p.const_u64(32, u64::from(want));
        let q = p.eq(crc, k);
        let res = s.check(&p, &[q], &[input]).unwrap();
        let bytes = model_bytes(&res, input);
        assert_eq!(bytes.len(), 8);
        assert_eq!(crc32(&bytes), want, "model {bytes:?}");
    }
    let (k1, k2) = (p.const_u64(32, 1), p.const_u64(32, 2));
    let (q1, q2) = (p.eq(crc, k1), p.eq(crc, k2));
    assert_eq!(s.check(&p, &[q1, q2], &[input]).unwrap(), SatResult::Unsat);
    assert_eq!(backend_queries(&s), 0);
    let st = &s.layer_stats()[0];
    assert_eq!((st.name, st.queries, st.answered), ("linear", 4, 4));
}

/// Printing a checksum asks `crc != 0`, then `crc / 10 != 0`, `crc / 100
/// != 0`, ...: bounds of the checksum, decided as cases of fixed high bits.
#[test]
fn bounds_of_a_checksum_and_of_its_quotients_are_decided_as_cases() {
    let mut p = ExprPool::new();
    let input = p.new_array("stdin", 6);
    let t = crc_table(&mut p);
    let crc = crc_expr(&mut p, t, input, 6);
    let mut s = layer();
    let ten = p.const_u64(32, 10);
    let hundred = p.const_u64(32, 100);
    let zero = p.const_u64(32, 0);
    let q10 = p.bin(BinOp::UDiv, crc, ten);
    let q1000 = p.bin(BinOp::UDiv, q10, hundred);
    // 10 <= crc < 1000, written as the digit loop's conditions.
    let ge10 = {
        let e = p.eq(q10, zero);
        p.bool_not(e)
    };
    let lt1000 = p.eq(q1000, zero);
    let res = s.check(&p, &[ge10, lt1000], &[input]).unwrap();
    let c = crc32(&model_bytes(&res, input));
    assert!((10..1000).contains(&c), "crc {c}");
    // crc < 7 and crc > 3, odd.
    let (three, seven, one) = (p.const_u64(32, 3), p.const_u64(32, 7), p.const_u64(32, 1));
    let lt = p.ult(crc, seven);
    let gt = p.ult(three, crc);
    let low = p.bin(BinOp::And, crc, one);
    let odd = p.eq(low, one);
    let res = s.check(&p, &[lt, gt, odd], &[input]).unwrap();
    assert_eq!(crc32(&model_bytes(&res, input)), 5);
    // crc < 3 and crc > 7.
    let lt3 = p.ult(crc, three);
    let gt7 = p.ult(seven, crc);
    assert_eq!(
        s.check(&p, &[lt3, gt7], &[input]).unwrap(),
        SatResult::Unsat
    );
    assert_eq!(backend_queries(&s), 0);
}

/// Queries with no XOR or table read, or with a product, pass down with
/// the backend's answer.
#[test]
fn queries_that_are_not_linear_pass_down() {
    let mut p = ExprPool::new();
    let input = p.new_array("in", 4);
    let (b0, b1) = (byte(&mut p, input, 0), byte(&mut p, input, 1));
    let k = p.const_u64(8, 42);
    let plain = p.eq(b0, k);
    let mut s = layer();
    assert!(s.check(&p, &[plain], &[input]).unwrap().is_sat());
    let prod = p.bin(BinOp::Mul, b0, b1);
    let x = p.bin(BinOp::Xor, prod, b1);
    let q = p.eq(x, k);
    let res = s.check(&p, &[q], &[input]).unwrap();
    assert!(res.is_sat());
    let m = res.model().unwrap();
    assert!(p.eval_bool(q, m));
    assert_eq!(backend_queries(&s), 2);
    assert_eq!(s.layer_stats()[0].answered, 0);
}

/// Random XOR networks over three bytes (shifts, masks, NOT, a linear
/// table, equalities and bounds): the layer's answers equal Bitwuzla's and
/// its models satisfy every assertion.
#[test]
fn random_linear_queries_agree_with_bitwuzla() {
    let mut rng = Rng(0x005e_ed0f_11ea_u64);
    let mut p = ExprPool::new();
    let input = p.new_array("in", 3);
    let t = crc_table(&mut p);
    let mut s = layer();
    let mut oracle = BitwuzlaSolver::new().unwrap();
    let mut decided = 0;
    for _ in 0..200 {
        let mut vals: Vec<ExprId> = (0..3)
            .map(|i| {
                let b = byte(&mut p, input, i);
                p.zext(b, 16)
            })
            .collect();
        for _ in 0..4 {
            let a = vals[rng.below(vals.len() as u64) as usize];
            let b = vals[rng.below(vals.len() as u64) as usize];
            let k = p.const_u64(16, rng.below(16));
            let v = match rng.below(6) {
                0 => p.bin(BinOp::Xor, a, b),
                1 => p.bin(BinOp::Shl, a, k),
                2 => p.bin(BinOp::LShr, a, k),
                3 => p.not(a),
                4 => {
                    let m = p.const_u64(16, rng.next() & 0xffff);
                    p.bin(BinOp::And, a, m)
                }
                _ => {
                    // One byte of a table entry at index a & 0xff.
                    let ff = p.const_u64(16, 0xff);
                    let low = p.bin(BinOp::And, a, ff);
                    let w = p.zext(low, 32);
                    let two = p.const_u64(32, 2);
                    let ix = p.bin(BinOp::Shl, w, two);
                    let r = p.select(t, ix);
                    p.zext(r, 16)
                }
            };
            vals.push(v);
        }
        let top = *vals.last().unwrap();
        let last = p.bin(BinOp::Xor, top, vals[1]);
        let k = p.const_u64(16, rng.below(1 << 16));
        let mut asserts = vec![if rng.below(2) == 0 {
            p.eq(last, k)
        } else {
            p.ult(last, k)
        }];
        if rng.below(2) == 0 {
            let other = vals[3 + rng.below(3) as usize];
            let k2 = p.const_u64(16, rng.below(1 << 16));
            asserts.push(p.ult(k2, other));
        }
        let want = oracle.check(&p, &asserts, &[input]).unwrap();
        let before = s.layer_stats()[0].answered;
        let got = s.check(&p, &asserts, &[input]).unwrap();
        assert_eq!(
            got.is_sat(),
            want.is_sat(),
            "{:?}",
            asserts
                .iter()
                .map(|a| p.display(*a).to_string())
                .collect::<Vec<_>>()
        );
        if let Some(m) = got.model() {
            for &a in &asserts {
                assert!(p.eval_bool(a, m), "model violates {}", p.display(a));
            }
        }
        decided += s.layer_stats()[0].answered - before;
    }
    assert!(decided >= 100, "the layer decided only {decided} of 200");
}
