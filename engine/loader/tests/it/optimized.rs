//! Optimised code (`-O1`, `-O2`, sanitizers): everything lowers to supported
//! operations, including phis, switches, indirect and varargs calls, overflow and
//! memory intrinsics, aggregates returned by value and auto-vectorised loops.

use symtest_ir::{Callee, Intrinsic, Module, Op, Operand};

use crate::common::*;

fn load(dir: &TempDir, flags: &[&str]) -> Module {
    let bc = compile(dir, "features.c", flags);
    symtest_loader::load_bitcode(&bc).unwrap_or_else(|e| panic!("{flags:?}: {e}"))
}

/// No `Op::Unsupported` and no unsupported intrinsic anywhere.
fn assert_fully_supported(m: &Module, what: &str) {
    for (f, inst) in all_insts(m) {
        match &inst.op {
            Op::Unsupported { what: w } => panic!("{what}: {f}: unsupported {w}"),
            Op::Intrinsic {
                which: Intrinsic::Unsupported(name),
                ..
            } => panic!("{what}: {f}: unsupported intrinsic {name}"),
            _ => {}
        }
    }
}

fn count(m: &Module, pred: impl Fn(&Op) -> bool) -> usize {
    all_insts(m).filter(|(_, i)| pred(&i.op)).count()
}

#[test]
fn o1_code_is_fully_lowered() {
    let dir = TempDir::new("o1");
    let m = load(&dir, &["-O1"]);
    assert_fully_supported(&m, "-O1");

    assert!(count(&m, |op| matches!(op, Op::Phi { .. })) > 0, "phis");
    let phis = find(&m, "loop_sum", |op| matches!(op, Op::Phi { .. }));
    assert!(!phis.is_empty());
    for p in phis {
        let Op::Phi { incoming, bits } = &p.op else {
            unreachable!()
        };
        assert_eq!(incoming.len(), 2);
        assert!(*bits == 32 || *bits == 64);
    }

    // Indirect call through the first parameter.
    let calls = find(&m, "apply", |op| matches!(op, Op::Call { .. }));
    let Op::Call {
        callee,
        args,
        arg_bits,
        ret_bits,
        shape,
    } = &calls[0].op
    else {
        unreachable!()
    };
    assert_eq!(callee, &Callee::Indirect(Operand::Reg(0)));
    assert_eq!(args, &vec![Operand::Reg(1), Operand::Reg(2)]);
    assert_eq!(arg_bits, &vec![32, 32]);
    assert_eq!(*ret_bits, Some(32));
    assert_eq!(
        *shape,
        symtest_ir::CallShape::default(),
        "int arguments and result"
    );

    // The varargs function and its va_start/va_end.
    let vsum = m.function(m.function_by_name("vsum").unwrap());
    assert!(vsum.is_vararg);
    assert_eq!(vsum.param_bits, vec![32]);
    for which in [Intrinsic::VaStart, Intrinsic::VaEnd] {
        assert_eq!(
            find(
                &m,
                "vsum",
                |op| matches!(op, Op::Intrinsic { which: w, .. } if *w == which)
            )
            .len(),
            1,
            "{which:?}"
        );
    }
    let vcalls = find(
        &m,
        "main",
        |op| matches!(op, Op::Call { callee: Callee::Direct(f), .. } if m.function(*f).name == "vsum"),
    );
    let Op::Call { arg_bits, .. } = &vcalls[0].op else {
        unreachable!()
    };
    assert_eq!(arg_bits, &vec![32, 32, 32, 32]);

    // memcpy/memset with the width of their length operand.
    let mc = find(&m, "copy_big", |op| {
        matches!(
            op,
            Op::Intrinsic {
                which: Intrinsic::Memcpy,
                ..
            }
        )
    });
    let Op::Intrinsic {
        args,
        arg_bits,
        bits,
        ret_bits,
        ..
    } = &mc[0].op
    else {
        unreachable!()
    };
    assert_eq!(
        (args.len(), arg_bits.as_slice(), *bits, *ret_bits),
        (4, &[64, 64, 64, 1][..], 64, None)
    );
    assert_eq!(
        find(&m, "clear_big", |op| matches!(
            op,
            Op::Intrinsic {
                which: Intrinsic::Memset,
                bits: 64,
                ..
            }
        ))
        .len(),
        1
    );

    // A struct returned by value: `{ i64, i64 }` built with insertvalue.
    let ins = find(&m, "make_pair", |op| matches!(op, Op::InsertValue { .. }));
    let offsets: Vec<(u32, u32, u32)> = ins
        .iter()
        .map(|i| match i.op {
            Op::InsertValue {
                agg_bits,
                bit_offset,
                value_bits,
                ..
            } => (agg_bits, bit_offset, value_bits),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(offsets, vec![(128, 0, 64), (128, 64, 64)]);
    let mp = m.function(m.function_by_name("make_pair").unwrap());
    assert_eq!(mp.ret_bits, Some(128));
}

#[test]
fn switch_and_extractvalue_at_o1() {
    let dir = TempDir::new("o1b");
    let m = load(&dir, &["-O1", "-fno-inline"]);
    assert_fully_supported(&m, "-O1 -fno-inline");
    let sw = find(&m, "classify", |op| matches!(op, Op::Switch { .. }));
    assert_eq!(sw.len(), 1);
    let Op::Switch { bits, cases, .. } = &sw[0].op else {
        unreachable!()
    };
    assert_eq!(*bits, 32);
    let mut v: Vec<u64> = cases.iter().map(|(c, _)| c.to_u64()).collect();
    v.sort();
    assert_eq!(v, vec![0, 1, 2, 5, 9]);
    // main receives the pair by value and takes it apart.
    let ev = find(&m, "main", |op| matches!(op, Op::ExtractValue { .. }));
    let mut offs: Vec<(u32, u32)> = ev
        .iter()
        .map(|i| match i.op {
            Op::ExtractValue {
                bit_offset, bits, ..
            } => (bit_offset, bits),
            _ => unreachable!(),
        })
        .collect();
    offs.sort();
    assert_eq!(offs, vec![(0, 64), (64, 64)]);
}

#[test]
fn overflow_checks_use_with_overflow_intrinsics() {
    let dir = TempDir::new("san");
    let m = load(&dir, &["-O1", "-fsanitize=signed-integer-overflow"]);
    assert_fully_supported(&m, "-fsanitize=signed-integer-overflow");
    let ov = find(&m, "checked_add", |op| {
        matches!(
            op,
            Op::Intrinsic {
                which: Intrinsic::SAddWithOverflow,
                ..
            }
        )
    });
    assert_eq!(ov.len(), 1);
    let Op::Intrinsic {
        bits,
        ret_bits,
        arg_bits,
        ..
    } = &ov[0].op
    else {
        unreachable!()
    };
    assert_eq!(
        (*bits, *ret_bits, arg_bits.as_slice()),
        (32, Some(64), &[32, 32][..])
    );
    // The overflow flag is extracted from bit 32 of the `{i32, i1}` result.
    let flag = find(&m, "checked_add", |op| {
        matches!(
            op,
            Op::ExtractValue {
                bit_offset: 32,
                bits: 1,
                ..
            }
        )
    });
    assert_eq!(flag.len(), 1);
}

#[test]
fn o2_vectorised_code_is_scalarised() {
    let dir = TempDir::new("o2");
    let m = load(&dir, &["-O2"]);
    assert_fully_supported(&m, "-O2");
    // No arithmetic on vectors is left: binary operations are scalar.
    let wide = count(&m, |op| matches!(op, Op::Bin { bits, .. } if *bits > 64));
    assert_eq!(wide, 0);
    // Vector loads/stores remain, taken apart element by element.
    assert!(
        count(&m, |op| matches!(
            op,
            Op::Load {
                bytes: 16,
                bits: 128,
                ..
            }
        )) > 0
    );
    assert!(
        count(&m, |op| matches!(
            op,
            Op::ExtractElement {
                elem_bits: 32,
                len: 4,
                ..
            }
        )) > 0
    );
}
