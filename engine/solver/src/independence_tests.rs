//! Byte-level constraint independence: which reads split a query into
//! groups, and how the groups' models are combined.

use crate::{BitwuzlaSolver, CachingSolver, IndependentSolver, SatResult, Solver};
use symtest_expr::{ArrayId, Assignment, ExprId, ExprPool};

fn byte(p: &mut ExprPool, a: ArrayId, i: u64) -> ExprId {
    let arr = p.array(a);
    let idx = p.const_u64(32, i);
    p.select(arr, idx)
}

fn sat(s: &mut dyn Solver, p: &ExprPool, asserts: &[ExprId], arrays: &[ArrayId]) -> Assignment {
    match s.check(p, asserts, arrays).unwrap() {
        SatResult::Sat(m) => {
            for &a in arrays {
                assert_eq!(m.bytes(a).len(), p.array_info(a).size as usize);
            }
            for &e in asserts {
                assert!(p.eval_bool(e, &m), "model violates {}", p.display(e));
            }
            m
        }
        other => panic!("expected Sat, got {other:?}"),
    }
}

#[test]
fn bytes_of_one_array_are_independent() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 6);
    let (b0, b1, b2) = (byte(&mut p, a, 0), byte(&mut p, a, 1), byte(&mut p, a, 2));
    let c = |p: &mut ExprPool, v| p.const_u64(8, v);
    let (k7, k9, k20) = (c(&mut p, 7), c(&mut p, 9), c(&mut p, 20));
    let e0 = p.eq(b0, k7);
    let e1 = p.ugt(b1, k20);
    let e12 = p.ult(b1, b2); // joins bytes 1 and 2
    let e2 = p.ne(b2, k9);
    let mut s = IndependentSolver::new(CachingSolver::new(BitwuzlaSolver::new().unwrap()));
    let m = sat(&mut s, &p, &[e0, e1, e12, e2], &[a]);
    assert_eq!(m.bytes(a)[0], 7);
    assert_eq!(&m.bytes(a)[3..], &[0, 0, 0], "unread bytes are 0");
    let st = s.independence_stats();
    assert_eq!(
        (st.split_queries, st.max_groups, st.group_queries),
        (1, 2, 2)
    );
    // The byte-0 group recurs on another path: only the new group is asked.
    let e1b = p.ule(b1, k20);
    let before = s.stats().queries;
    sat(&mut s, &p, &[e0, e1b], &[a]);
    assert_eq!(s.stats().queries, before + 1);
    // Contradicting byte 0 alone decides, whatever the other bytes do.
    let e0b = p.eq(b0, k9);
    assert_eq!(
        s.check(&p, &[e1, e0, e2, e0b], &[a]).unwrap(),
        SatResult::Unsat
    );
}

#[test]
fn symbolic_index_joins_the_whole_array() {
    let mut p = ExprPool::new();
    let a = p.new_array("a", 4);
    let i = p.new_array("i", 1);
    let (b0, b3) = (byte(&mut p, a, 0), byte(&mut p, a, 3));
    let ib = byte(&mut p, i, 0);
    let three = p.const_u64(8, 3);
    let masked = p.and(ib, three);
    let idx = p.zext(masked, 32);
    let arr = p.array(a);
    let sym = p.select(arr, idx); // a[i & 3]: any byte of `a`
    let k = |p: &mut ExprPool, v| p.const_u64(8, v);
    let (k1, k2, k50) = (k(&mut p, 1), k(&mut p, 2), k(&mut p, 50));
    let e0 = p.eq(b0, k1);
    let e3 = p.eq(b3, k2);
    let es = p.eq(sym, k50);
    let mut s = IndependentSolver::new(BitwuzlaSolver::new().unwrap());
    // Without the symbolic read: two groups (bytes 0 and 3).
    sat(&mut s, &p, &[e0, e3], &[a, i]);
    assert_eq!(s.independence_stats().max_groups, 2);
    // With it, `a` and `i` are one group: a[i & 3] == 50 forces i & 3 to
    // name a byte other than 0 and 3, and the model shows it.
    let m = sat(&mut s, &p, &[e0, e3, es], &[a, i]);
    let at = (m.bytes(i)[0] & 3) as usize;
    assert!(at == 1 || at == 2);
    assert_eq!(m.bytes(a)[at], 50);
    assert_eq!(s.independence_stats().group_queries, 3);
}

#[test]
fn reads_through_stores_join_the_whole_array() {
    let mut p = ExprPool::new();
    p.set_simplify(false); // keep select(store(...)) as built
    let a = p.new_array("a", 4);
    let (b0, b1) = (byte(&mut p, a, 0), byte(&mut p, a, 1));
    let arr = p.array(a);
    let i2 = p.const_u64(32, 2);
    let stored = p.store(arr, i2, b0); // a[2] := a[0]
    let i1 = p.const_u64(32, 1);
    let through = p.select(stored, i1); // reads a[1] through the store
    let k = |p: &mut ExprPool, v| p.const_u64(8, v);
    let (k4, k5) = (k(&mut p, 4), k(&mut p, 5));
    let e0 = p.eq(b0, k4);
    let e1 = p.eq(through, k5);
    let e1b = p.ne(b1, k4);
    let mut s = IndependentSolver::new(BitwuzlaSolver::new().unwrap());
    let m = sat(&mut s, &p, &[e0, e1, e1b], &[a]);
    assert_eq!(&m.bytes(a)[..2], &[4, 5]);
    assert_eq!(s.independence_stats().max_groups, 1);
}

/// With a known model of the leading assertions (a path condition and the
/// state's model), only groups the new assertions join are asked below;
/// the others' bytes come from the known model.
#[test]
fn groups_of_known_assertions_take_the_known_model() {
    use crate::Known;
    let mut p = ExprPool::new();
    let a = p.new_array("a", 4);
    let (b0, b1, b2) = (byte(&mut p, a, 0), byte(&mut p, a, 1), byte(&mut p, a, 2));
    let c = |p: &mut ExprPool, v| p.const_u64(8, v);
    let (k5, k9, k100) = (c(&mut p, 5), c(&mut p, 9), c(&mut p, 100));
    let pc = [p.ugt(b0, k5), p.ult(b1, k9), p.ugt(b2, k100)];
    let mut known_model = Assignment::new();
    known_model.set(a, vec![77, 3, 200, 0]);
    let known = Known {
        model: &known_model,
        prefix: pc.len(),
    };
    // The new condition joins byte 1 only.
    let k3 = c(&mut p, 3);
    let new = p.ne(b1, k3);
    let asserts = [pc[0], pc[1], pc[2], new];
    let mut s = IndependentSolver::new(BitwuzlaSolver::new().unwrap());
    let m = match s.check_known(&p, &asserts, &[a], known).unwrap() {
        SatResult::Sat(m) => m,
        other => panic!("expected Sat, got {other:?}"),
    };
    for &e in &asserts {
        assert!(p.eval_bool(e, &m), "model violates {}", p.display(e));
    }
    assert_eq!(
        (m.bytes(a)[0], m.bytes(a)[2]),
        (77, 200),
        "known bytes kept"
    );
    let st = s.independence_stats();
    assert_eq!((st.group_queries, st.known_groups), (1, 2));
    assert_eq!(s.stats().queries, 1);
    // An unsatisfiable new condition is still found so.
    let bad = p.ugt(b1, k9);
    let asserts = [pc[0], pc[1], pc[2], bad];
    assert_eq!(
        s.check_known(&p, &asserts, &[a], known).unwrap(),
        SatResult::Unsat
    );
}
