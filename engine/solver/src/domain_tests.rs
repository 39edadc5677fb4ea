//! The small-domain layer: what it decides itself, what it passes down, and
//! its answers against Bitwuzla's on random queries over a few bytes read
//! through tables.

use crate::domain::{bin64, cmp64, mask};
use crate::test_rng::Rng;
use crate::{BitwuzlaSolver, DomainSolver, SatResult, Solver};
use symtest_expr::{ArrayId, BinOp, Bits, CmpOp, ExprId, ExprPool};

fn layer() -> DomainSolver<BitwuzlaSolver> {
    DomainSolver::new(BitwuzlaSolver::new().unwrap())
}

fn byte(p: &mut ExprPool, a: ArrayId, i: u64) -> ExprId {
    let arr = p.array(a);
    let idx = p.const_u64(32, i);
    p.select(arr, idx)
}

/// A constant table of `bytes` as a store chain over a fresh array.
fn table(p: &mut ExprPool, name: &str, bytes: &[u8]) -> ExprId {
    let a = p.new_array(name, bytes.len() as u32);
    let mut t = p.array(a);
    for (i, &b) in bytes.iter().enumerate() {
        let i = p.const_u64(32, i as u64);
        let v = p.const_u64(8, u64::from(b));
        t = p.store(t, i, v);
    }
    t
}

/// `table[zext(c) - base]` as a 32-bit index.
fn lookup(p: &mut ExprPool, t: ExprId, c: ExprId, base: u64) -> ExprId {
    let wide = p.zext(c, 32);
    let off = p.const_u64(32, base.wrapping_neg() & 0xffff_ffff);
    let idx = p.bin(BinOp::Add, wide, off);
    p.select(t, idx)
}

fn backend_queries(s: &DomainSolver<BitwuzlaSolver>) -> u64 {
    s.inner().stats().queries
}

fn check_model(p: &ExprPool, asserts: &[ExprId], res: &SatResult) {
    let m = res.model().expect("sat");
    for &a in asserts {
        assert!(p.eval_bool(a, m), "model violates {}", p.display(a));
    }
}

#[test]
fn a_table_read_at_a_symbolic_index_is_decided_without_the_backend() {
    let mut p = ExprPool::new();
    let input = p.new_array("arg", 4);
    let c = byte(&mut p, input, 1);
    // A decoder's table: entry k is (k * 7) mod 251, for c in 0xc2..=0xf4.
    let entries: Vec<u8> = (0..51u32).map(|k| (k * 7 % 251) as u8).collect();
    let t = table(&mut p, "bittab", &entries);
    let lo = p.const_u64(8, 0xc2);
    let hi = p.const_u64(8, 0xf4);
    let in_range = [p.uge(c, lo), p.ule(c, hi)];
    let read = lookup(&mut p, t, c, 0xc2);
    let want = p.const_u64(8, u64::from(entries[37]));
    let hit = p.eq(read, want);
    let mut s = layer();
    let asserts = [in_range[0], in_range[1], hit];
    let res = s.check(&p, &asserts, &[input]).unwrap();
    check_model(&p, &asserts, &res);
    assert_eq!(res.model().unwrap().bytes(input)[1], 0xc2 + 37);
    assert_eq!(res.model().unwrap().bytes(input).len(), 4);
    // No entry is 250 (k * 7 mod 251 == 250 needs k == 107): unsatisfiable.
    let none = p.const_u64(8, 250);
    let miss = p.eq(read, none);
    let res = s
        .check(&p, &[in_range[0], in_range[1], miss], &[input])
        .unwrap();
    assert_eq!(res, SatResult::Unsat);
    assert_eq!(backend_queries(&s), 0);
    let stats = s.layer_stats();
    assert_eq!(
        (stats[0].name, stats[0].queries, stats[0].answered),
        ("domain", 2, 2)
    );
}

#[test]
fn two_bytes_are_searched_together() {
    let mut p = ExprPool::new();
    let input = p.new_array("in", 2);
    let (x, y) = (byte(&mut p, input, 0), byte(&mut p, input, 1));
    // squares[x] * y == 143 with x, y > 1: only 11 * 13 (squares of 0..16,
    // then zeros).
    let squares: Vec<u8> = (0..256u32)
        .map(|k| if k < 16 { (k * k) as u8 } else { 0 })
        .collect();
    let t = table(&mut p, "squares", &squares);
    let sq = lookup(&mut p, t, x, 0);
    let one = p.const_u64(8, 1);
    let prod = p.bin(BinOp::Mul, sq, y);
    let k = p.const_u64(8, 143);
    let asserts = [p.ugt(x, one), p.ugt(y, one), p.eq(prod, k)];
    let mut s = layer();
    let res = s.check(&p, &asserts, &[input]).unwrap();
    check_model(&p, &asserts, &res);
    // With both below 11: 100 pairs, none works.
    let eleven = p.const_u64(8, 11);
    let asserts = [p.ult(x, eleven), p.ult(y, eleven), p.eq(prod, k)];
    assert_eq!(s.check(&p, &asserts, &[input]).unwrap(), SatResult::Unsat);
    // Division by zero reads as all ones, as in the evaluator.
    let zero = p.const_u64(8, 0);
    let q = p.bin(BinOp::UDiv, sq, y);
    let ones = p.const_u64(8, 255);
    let asserts = [p.eq(y, zero), p.eq(q, ones), p.ugt(x, one)];
    let res = s.check(&p, &asserts, &[input]).unwrap();
    check_model(&p, &asserts, &res);
    assert_eq!(backend_queries(&s), 0);
    // Plain arithmetic over two bytes is the backend's: passed down.
    let plain = p.bin(BinOp::Mul, x, y);
    let asserts = [p.eq(plain, k), p.ugt(x, one), p.ugt(y, one)];
    let res = s.check(&p, &asserts, &[input]).unwrap();
    check_model(&p, &asserts, &res);
    assert_eq!(backend_queries(&s), 1);
}

#[test]
fn queries_it_cannot_decide_pass_down_with_the_same_answer() {
    let mut p = ExprPool::new();
    // Nine bytes: too many variables.
    let wide = p.new_array("wide", 9);
    let mut sum = p.const_u64(16, 0);
    for i in 0..9 {
        let b = byte(&mut p, wide, i);
        let b = p.zext(b, 16);
        sum = p.bin(BinOp::Add, sum, b);
    }
    let k = p.const_u64(16, 2000);
    let many = p.eq(sum, k);
    let mut s = layer();
    let res = s.check(&p, &[many], &[wide]).unwrap();
    check_model(&p, &[many], &res);
    assert_eq!(backend_queries(&s), 1);
    // A read at a symbolic index of an input array whose bytes are not all
    // variables: the fall-through reads a byte the search does not own, so
    // a rejection proves nothing and the query passes down.
    let data = p.new_array("data", 4);
    let sel = p.new_array("sel", 1);
    let i = byte(&mut p, sel, 0);
    let three = p.const_u64(8, 3);
    let i = p.bin(BinOp::And, i, three);
    let i = p.zext(i, 32);
    let arr = p.array(data);
    let read = p.select(arr, i);
    let seven = p.const_u64(8, 7);
    let asserts = [p.eq(read, seven)];
    let res = s.check(&p, &asserts, &[data, sel]).unwrap();
    check_model(&p, &asserts, &res);
    assert_eq!(backend_queries(&s), 2);
    // The same read with its index pinned to a byte the search owns
    // (`data[2]`, read at a constant index too): decided by the layer.
    let b2 = byte(&mut p, data, 2);
    let two = p.const_u64(32, 2);
    let asserts = [p.eq(read, seven), p.eq(b2, seven), p.eq(i, two)];
    let res = s.check(&p, &asserts, &[data, sel]).unwrap();
    check_model(&p, &asserts, &res);
    assert_eq!(backend_queries(&s), 2);
    // Floating point is left to the backend.
    let f = p.new_array("f", 4);
    let bits = {
        let b: Vec<ExprId> = (0..4).map(|k| byte(&mut p, f, k)).collect();
        let hi = p.concat(b[3], b[2]);
        let lo = p.concat(b[1], b[0]);
        p.concat(hi, lo)
    };
    let before = backend_queries(&s);
    let fz = p.const_u64(32, 0);
    let cmp = p.fcmp(symtest_expr::FpCmpOp::Eq, bits, fz);
    let res = s.check(&p, &[cmp], &[f]).unwrap();
    assert!(res.is_sat());
    assert_eq!(backend_queries(&s), before + 1);
}

/// A random width-8 term over the bytes `xs`, with table reads.
fn term(p: &mut ExprPool, rng: &mut Rng, xs: &[ExprId], tables: &[ExprId], depth: u32) -> ExprId {
    if depth == 0 || rng.below(4) == 0 {
        return if rng.below(4) == 0 {
            p.const_u64(8, rng.below(256))
        } else {
            xs[rng.below(xs.len() as u64) as usize]
        };
    }
    let a = term(p, rng, xs, tables, depth - 1);
    match rng.below(6) {
        0 => {
            let t = tables[rng.below(tables.len() as u64) as usize];
            let i = p.zext(a, 32);
            p.select(t, i)
        }
        1 => p.not(a),
        _ => {
            let b = term(p, rng, xs, tables, depth - 1);
            let ops = [
                BinOp::Add,
                BinOp::Sub,
                BinOp::Mul,
                BinOp::UDiv,
                BinOp::URem,
                BinOp::SDiv,
                BinOp::And,
                BinOp::Xor,
                BinOp::Shl,
                BinOp::LShr,
                BinOp::AShr,
            ];
            p.bin(ops[rng.below(ops.len() as u64) as usize], a, b)
        }
    }
}

/// Random queries over one to three bytes, some reading 256-entry tables at
/// symbolic indices: the layer's answers equal Bitwuzla's, and it decides
/// those over one byte or with a table read itself, but for a few over
/// budget.
#[test]
fn answers_match_bitwuzla_on_random_small_queries() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut p = ExprPool::new();
    let input = p.new_array("in", 3);
    let xs: Vec<ExprId> = (0..3).map(|i| byte(&mut p, input, i)).collect();
    let tables: Vec<ExprId> = (0..2)
        .map(|k| {
            let bytes: Vec<u8> = (0..256).map(|_| rng.below(256) as u8).collect();
            table(&mut p, &format!("t{k}"), &bytes)
        })
        .collect();
    let mut s = layer();
    let mut reference = BitwuzlaSolver::new().unwrap();
    let (mut sat, mut unsat) = (0, 0);
    let cmps = [CmpOp::Eq, CmpOp::Ult, CmpOp::Ule, CmpOp::Slt, CmpOp::Sle];
    for q in 0..100 {
        let nvars = 1 + rng.below(3) as usize;
        let vars = &xs[..nvars];
        let n = 1 + rng.below(4);
        let asserts: Vec<ExprId> = (0..n)
            .map(|_| {
                let a = term(&mut p, &mut rng, vars, &tables, 3);
                let b = term(&mut p, &mut rng, vars, &tables, 2);
                let c = p.cmp(cmps[rng.below(cmps.len() as u64) as usize], a, b);
                if rng.below(3) == 0 {
                    p.bool_not(c)
                } else {
                    c
                }
            })
            .collect();
        let want = reference.check(&p, &asserts, &[input]).unwrap();
        let got = s.check(&p, &asserts, &[input]).unwrap();
        assert_eq!(got.is_sat(), want.is_sat(), "query {q}");
        if got.is_sat() {
            check_model(&p, &asserts, &got);
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    assert!(sat > 20 && unsat > 20, "{sat} sat, {unsat} unsat");
    let stats = s.layer_stats();
    assert!(
        stats[0].answered >= 50,
        "domain answered only {} of 100",
        stats[0].answered
    );
}

/// The word-level operators agree with [`Bits`] (the evaluator's
/// arithmetic) at every width, edge values included.
#[test]
fn word_operators_match_bits() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for w in [1u32, 2, 7, 8, 13, 16, 31, 32, 33, 63, 64] {
        let m = mask(w);
        let edges = [
            0,
            1,
            2,
            m,
            m - 1,
            m >> 1,
            (m >> 1) + 1,
            u64::from(w),
            u64::from(w) - 1,
        ];
        for i in 0..600 {
            let pick = |rng: &mut Rng, k: usize| {
                if k.is_multiple_of(3) {
                    edges[rng.below(edges.len() as u64) as usize] & m
                } else {
                    rng.next() & m
                }
            };
            let (a, b) = (pick(&mut rng, i), pick(&mut rng, i / 3));
            let (ba, bb) = (Bits::from_u64(w, a), Bits::from_u64(w, b));
            for op in BinOp::ALL {
                assert_eq!(
                    bin64(op, a, b, w),
                    op.apply(&ba, &bb).to_u64(),
                    "{op:?} {a:#x} {b:#x} at width {w}"
                );
            }
            for op in CmpOp::ALL {
                assert_eq!(
                    cmp64(op, a, b, w),
                    op.apply(&ba, &bb),
                    "{op:?} {a:#x} {b:#x} at width {w}"
                );
            }
        }
    }
}

/// Products of a bounded integer (a geometric series' ratio `2 <= z <= 50`,
/// read as 4 bytes): no read at a symbolic index, but the bounds leave 49
/// candidates, so the layer searches them instead of asking the backend to
/// bit-blast 64-bit multiplications.
#[test]
fn products_of_a_bounded_integer_are_decided_without_the_backend() {
    let mut p = ExprPool::new();
    let za = p.new_array("z", 4);
    let z = crate::tests::read_le(&mut p, za, 0, 4);
    let two = p.const_u64(32, 2);
    let fifty = p.const_u64(32, 50);
    let bounds = [p.sle(two, z), p.sle(z, fifty)];
    let wide = p.sext(z, 64);
    let mut cube = p.mul(wide, wide);
    cube = p.mul(cube, wide);
    let mut s = layer();
    // z^3 == 23^3.
    let want = p.const_u64(64, 23 * 23 * 23);
    let hit = p.eq(cube, want);
    let asserts = [bounds[0], bounds[1], hit];
    let res = s.check(&p, &asserts, &[za]).unwrap();
    check_model(&p, &asserts, &res);
    assert_eq!(res.model().unwrap().bytes(za), &[23, 0, 0, 0]);
    // z^3 == 1000 needs z == 10; z^3 == 1001 has no solution.
    let odd = p.const_u64(64, 1001);
    let miss = p.eq(cube, odd);
    let res = s.check(&p, &[bounds[0], bounds[1], miss], &[za]).unwrap();
    assert_eq!(res, SatResult::Unsat);
    assert_eq!(backend_queries(&s), 0);
    // Unbounded, the same product goes to the backend.
    let res = s.check(&p, &[hit], &[za]).unwrap();
    check_model(&p, &[hit], &res);
    assert_eq!(backend_queries(&s), 1);
}

/// Eight bytes linked pairwise as a UTF-8 decoder links them: each lead
/// byte in 0xc2..=0xf4 indexes a 51-entry table, and the entry fixes the
/// low nibble of the next byte. 51^8 candidates, but each link is a table
/// of at most 51 x 51 pairs and the chain is searched along it: decided
/// without the backend, both ways.
#[test]
fn a_chain_of_byte_links_is_decided_without_the_backend() {
    let mut p = ExprPool::new();
    let input = p.new_array("stdin", 8);
    let bs: Vec<ExprId> = (0..8).map(|i| byte(&mut p, input, i)).collect();
    // Even low nibbles only.
    let entries: Vec<u8> = (0..51u32).map(|k| ((k * 6) % 16) as u8).collect();
    let t = table(&mut p, "bittab", &entries);
    let (lo, hi) = (p.const_u64(8, 0xc2), p.const_u64(8, 0xf4));
    let nibble = p.const_u64(8, 0xf);
    let mut asserts = Vec::new();
    for i in 0..8 {
        asserts.push(p.uge(bs[i], lo));
        asserts.push(p.ule(bs[i], hi));
        if i + 1 < 8 {
            let e = lookup(&mut p, t, bs[i], 0xc2);
            let low = p.bin(BinOp::And, bs[i + 1], nibble);
            asserts.push(p.eq(e, low));
        }
    }
    let mut s = layer();
    let res = s.check(&p, &asserts, &[input]).unwrap();
    check_model(&p, &asserts, &res);
    // The last byte odd: no even entry gives it (arc consistency).
    let one = p.const_u64(8, 1);
    let odd = p.bin(BinOp::And, bs[7], one);
    asserts.push(p.eq(odd, one));
    assert_eq!(s.check(&p, &asserts, &[input]).unwrap(), SatResult::Unsat);
    assert_eq!(backend_queries(&s), 0);
    // The second query reused the first one's tables.
    assert!(s.memo_hits() >= 7, "{} memo hits", s.memo_hits());
}

/// A condition over three bytes (a sum read through a table, an exclusive
/// or) is tabulated over their domains and decided without the backend,
/// both ways.
#[test]
fn three_bytes_in_one_condition_are_tabulated() {
    let mut p = ExprPool::new();
    let input = p.new_array("in", 3);
    let (x, y, z) = (
        byte(&mut p, input, 0),
        byte(&mut p, input, 1),
        byte(&mut p, input, 2),
    );
    let c = |p: &mut ExprPool, v| p.const_u64(8, v);
    let (x_lo, x_hi) = (c(&mut p, 0x10), c(&mut p, 0x1f));
    let (y_lo, y_hi) = (c(&mut p, 0x20), c(&mut p, 0x3f));
    let (z_lo, z_hi) = (c(&mut p, 0x40), c(&mut p, 0x7f));
    let ranges = [
        p.uge(x, x_lo),
        p.ule(x, x_hi),
        p.uge(y, y_lo),
        p.ule(y, y_hi),
        p.uge(z, z_lo),
        p.ule(z, z_hi),
    ];
    // Through a table (identity), as decoders read: plain arithmetic over
    // three bytes is the backend's.
    let ident: Vec<u8> = (0..=255).collect();
    let t = table(&mut p, "ident", &ident);
    let sum = p.bin(BinOp::Add, x, y);
    let sum = lookup(&mut p, t, sum, 0);
    let mix = p.bin(BinOp::Xor, sum, z);
    let k = c(&mut p, 0x55);
    let mut asserts = ranges.to_vec();
    asserts.push(p.eq(mix, k));
    let mut s = layer();
    let res = s.check(&p, &asserts, &[input]).unwrap();
    check_model(&p, &asserts, &res);
    // Bit 7 of (x + y) ^ z is never set in these ranges.
    let top = c(&mut p, 0x80);
    let bit = p.bin(BinOp::And, mix, top);
    let mut asserts = ranges.to_vec();
    asserts.push(p.eq(bit, top));
    assert_eq!(s.check(&p, &asserts, &[input]).unwrap(), SatResult::Unsat);
    assert_eq!(backend_queries(&s), 0);
}

/// Random queries that share assertions with earlier ones (as consecutive
/// path conditions do) under other bounds: the tables reused from the
/// memo give Bitwuzla's answers.
#[test]
fn answers_match_bitwuzla_when_queries_share_assertions() {
    let mut rng = Rng(0x5eed_4321_0fed_0002);
    let mut p = ExprPool::new();
    let input = p.new_array("in", 3);
    let xs: Vec<ExprId> = (0..3).map(|i| byte(&mut p, input, i)).collect();
    let tables: Vec<ExprId> = (0..2)
        .map(|k| {
            let bytes: Vec<u8> = (0..256).map(|_| rng.below(256) as u8).collect();
            table(&mut p, &format!("t{k}"), &bytes)
        })
        .collect();
    let mut s = layer();
    let mut reference = BitwuzlaSolver::new().unwrap();
    let cmps = [CmpOp::Eq, CmpOp::Ult, CmpOp::Ule, CmpOp::Slt, CmpOp::Sle];
    let mut pool_of: Vec<ExprId> = Vec::new();
    let (mut sat, mut unsat) = (0, 0);
    for q in 0..150 {
        let mut asserts: Vec<ExprId> = Vec::new();
        // Up to three earlier assertions, then fresh ones and a bound.
        for _ in 0..rng.below(4) {
            if !pool_of.is_empty() {
                asserts.push(pool_of[rng.below(pool_of.len() as u64) as usize]);
            }
        }
        for _ in 0..1 + rng.below(2) {
            let a = term(&mut p, &mut rng, &xs, &tables, 2);
            let b = term(&mut p, &mut rng, &xs, &tables, 2);
            let c = p.cmp(cmps[rng.below(cmps.len() as u64) as usize], a, b);
            pool_of.push(c);
            asserts.push(c);
        }
        let v = xs[rng.below(3) as usize];
        let bound = p.const_u64(8, rng.below(256));
        asserts.push(if rng.below(2) == 0 {
            p.ule(v, bound)
        } else {
            p.uge(v, bound)
        });
        let want = reference.check(&p, &asserts, &[input]).unwrap();
        let got = s.check(&p, &asserts, &[input]).unwrap();
        assert_eq!(got.is_sat(), want.is_sat(), "query {q}");
        if got.is_sat() {
            check_model(&p, &asserts, &got);
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    assert!(sat > 20 && unsat > 10, "{sat} sat, {unsat} unsat");
    assert!(s.memo_hits() > 50, "{} memo hits", s.memo_hits());
}
