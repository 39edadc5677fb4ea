//! Assorted constructs at `-O0`: wide and extended-precision constants, atomics,
//! inline asm, intrinsics expanded before lowering, vector extensions, and global
//! initializers holding function and string addresses.

use symtest_ir::{
    AtomicOp, Bits, Callee, Constant, FBinOp, FloatTy, Intrinsic, Module, Op, Operand,
};

use crate::common::*;

fn load() -> (TempDir, Module) {
    let dir = TempDir::new("misc");
    let bc = compile(&dir, "misc.c", O0);
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    (dir, m)
}

fn konst(m: &Module, o: Operand) -> &Constant {
    match o {
        Operand::Const(c) => m.constant(c),
        Operand::Reg(r) => panic!("register {r}, expected a constant"),
    }
}

#[test]
fn everything_lowers() {
    let (_dir, m) = load();
    for (f, inst) in all_insts(&m) {
        match &inst.op {
            Op::Unsupported { what } => panic!("{f}: unsupported {what}"),
            Op::Intrinsic {
                which: Intrinsic::Unsupported(name),
                ..
            } => {
                panic!("{f}: unsupported intrinsic {name}")
            }
            _ => {}
        }
    }
}

#[test]
fn float_and_wide_constants() {
    let (_dir, m) = load();
    // fmuladd is split into fmul + fadd, here in x86_fp80.
    let ops: Vec<(FBinOp, FloatTy, &Constant)> =
        find(&m, "muladd", |op| matches!(op, Op::FBin { .. }))
            .iter()
            .map(|i| match i.op {
                Op::FBin { op, ty, b, .. } => (op, ty, konst(&m, b)),
                _ => unreachable!(),
            })
            .collect();
    let two = Constant::Int(Bits::from_u128(80, 0x4000_8000_0000_0000_0000));
    let one = Constant::Int(Bits::from_u128(80, 0x3fff_8000_0000_0000_0000));
    assert_eq!(
        ops,
        vec![
            (FBinOp::Mul, FloatTy::F80, &two),
            (FBinOp::Add, FloatTy::F80, &one)
        ]
    );
    assert_eq!(
        find(&m, "dmuladd", |op| matches!(
            op,
            Op::FBin {
                ty: FloatTy::F64,
                ..
            }
        ))
        .len(),
        2
    );
    // 0.1f as float bits.
    let adds = find(&m, "fadd", |op| {
        matches!(
            op,
            Op::FBin {
                op: FBinOp::Add,
                ..
            }
        )
    });
    let Op::FBin { b, ty, .. } = adds[1].op else {
        unreachable!()
    };
    assert_eq!(ty, FloatTy::F32);
    assert_eq!(
        konst(&m, b),
        &Constant::Int(Bits::from_u64(32, 0.1f32.to_bits() as u64))
    );
    // A 128-bit constant above 64 bits: 5 << 70.
    let wide = find(&m, "wide", |op| {
        matches!(
            op,
            Op::Bin {
                op: symtest_ir::BinOp::Add,
                bits: 128,
                ..
            }
        )
    });
    let Op::Bin { b, .. } = wide[0].op else {
        unreachable!()
    };
    assert_eq!(
        konst(&m, b),
        &Constant::Int(Bits::from_u128(128, 5u128 << 70))
    );
}

#[test]
fn atomics_inline_asm_and_object_size() {
    let (_dir, m) = load();
    let rmw: Vec<AtomicOp> = find(&m, "atomics", |op| matches!(op, Op::AtomicRmw { .. }))
        .iter()
        .map(|i| match i.op {
            Op::AtomicRmw {
                op,
                bytes: 4,
                bits: 32,
                ..
            } => op,
            ref other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(rmw, vec![AtomicOp::Add, AtomicOp::Xchg]);
    assert_eq!(
        find(&m, "atomics", |op| matches!(
            op,
            Op::CmpXchg {
                bits: 32,
                bytes: 4,
                ..
            }
        ))
        .len(),
        1
    );
    let asm = find(&m, "asm_move", |op| matches!(op, Op::Call { .. }));
    let Op::Call {
        callee: Callee::InlineAsm(text),
        arg_bits,
        ret_bits,
        ..
    } = &asm[0].op
    else {
        panic!("{:?}", asm[0].op)
    };
    assert_eq!(text, "mov $1, $0");
    assert_eq!((arg_bits.as_slice(), *ret_bits), (&[32][..], Some(32)));
    // __builtin_object_size is "unknown": -1 for the maximum, 0 for the minimum.
    let calls = find(&m, "object_size", |op| {
        matches!(op, Op::Call { .. } | Op::Intrinsic { .. })
    });
    assert!(calls.is_empty(), "{calls:?}");
    let add = find(&m, "object_size", |op| matches!(op, Op::Bin { .. }));
    let Op::Bin { a, b, bits: 64, .. } = add[0].op else {
        unreachable!()
    };
    assert_eq!(konst(&m, a), &Constant::Int(Bits::from_i64(64, -1)));
    assert_eq!(konst(&m, b), &Constant::Int(Bits::zero(64)));
}

#[test]
fn vector_extensions_are_scalarised() {
    let (_dir, m) = load();
    let madd = body(&m, "vec_madd");
    assert!(madd
        .insts
        .iter()
        .all(|i| !matches!(i.op, Op::Bin { bits, .. } if bits != 32)));
    assert_eq!(
        madd.insts
            .iter()
            .filter(|i| matches!(i.op, Op::Bin { .. }))
            .count(),
        8
    );
    assert_eq!(
        madd.insts
            .iter()
            .filter(|i| matches!(
                i.op,
                Op::InsertElement {
                    elem_bits: 32,
                    len: 4,
                    ..
                }
            ))
            .count(),
        4
    );
    let f = m.function(m.function_by_name("vec_madd").unwrap());
    assert_eq!(
        (f.param_bits.as_slice(), f.ret_bits),
        (&[128, 128][..], Some(128))
    );
}

#[test]
fn initializer_with_function_and_string_addresses() {
    let (_dir, m) = load();
    let g = m.global(m.global_index["entries"]);
    assert_eq!(g.size, 128);
    let init = g.init.as_ref().unwrap();
    let relocs: Vec<(u64, &Constant, u32)> = init
        .relocs
        .iter()
        .map(|&(off, c, size)| (off, m.constant(c), size))
        .collect();
    let hello = m.function_by_name("hello").unwrap();
    let bye = m.function_by_name("bye").unwrap();
    assert_eq!(relocs.len(), 4);
    assert_eq!(
        (relocs[0].0, relocs[0].1, relocs[0].2),
        (0, &Constant::FuncAddr(hello), 8)
    );
    assert_eq!((relocs[2].0, relocs[2].1), (64, &Constant::FuncAddr(bye)));
    let Constant::GlobalAddr { global, offset: 0 } = *relocs[1].1 else {
        panic!()
    };
    assert_eq!(m.global(global).init.as_ref().unwrap().bytes, b"hello\0");
    let b = &init.bytes;
    assert_eq!(&b[16..26], &[0, 0, 0, 0, 0, 0, 0, 0xc0, 0xff, 0x3f]); // 1.5L
    assert_eq!(&b[32..36], &2.5f32.to_le_bytes());
    assert_eq!(&b[40..48], &(-0.1f64).to_le_bytes());
    assert_eq!(&b[48..64], &(1u128 << 100).to_le_bytes());
    assert_eq!(&b[112..128], &[0xff; 16]);
}
