//! Global variables: sizes, constness, initializer bytes and relocations.

use symtest_ir::Constant;

use crate::common::*;

#[test]
fn const_table_and_pointer_into_it() {
    let dir = TempDir::new("globals");
    let bc = compile(&dir, "smoke.c", O0);
    let m = symtest_loader::load_bitcode(&bc).expect("load");

    let table_id = m.global_index["table"];
    let table = m.global(table_id);
    assert!(table.is_const);
    assert_eq!(table.size, 16);
    let init = table.init.as_ref().expect("table has an initializer");
    let expected: Vec<u8> = [1u32, 2, 3, 4]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert_eq!(init.bytes, expected);
    assert!(init.relocs.is_empty());
    assert!(table.loc.line > 0, "table has a source line");

    let p = m.global(m.global_index["p"]);
    assert!(!p.is_const);
    assert_eq!(p.size, 8);
    let init = p.init.as_ref().unwrap();
    assert_eq!(init.bytes, vec![0; 8]);
    assert_eq!(init.relocs.len(), 1);
    let (off, c, size) = init.relocs[0];
    assert_eq!((off, size), (0, 8));
    assert_eq!(
        m.constant(c),
        &Constant::GlobalAddr {
            global: table_id,
            offset: 8
        }
    );

    // A string literal, and a pointer to it.
    let greeting = m.global(m.global_index["greeting"]);
    let (_, c, _) = greeting.init.as_ref().unwrap().relocs[0];
    let Constant::GlobalAddr { global, offset: 0 } = *m.constant(c) else {
        panic!("greeting should point at a global");
    };
    let lit = m.global(global);
    assert!(lit.is_const);
    assert_eq!(lit.init.as_ref().unwrap().bytes, b"hello, world\0");

    // A struct with padding: {'x', 7, {1..8}, -1}.
    let gs = m.global(m.global_index["gs"]);
    let b = &gs.init.as_ref().unwrap().bytes;
    assert_eq!(b.len() as u64, gs.size);
    assert_eq!(b[0], b'x');
    assert_eq!(&b[8..16], &7u64.to_le_bytes());
    assert_eq!(&b[16..18], &1u16.to_le_bytes());
    assert_eq!(&b[30..32], &8u16.to_le_bytes());
    assert_eq!(&b[32..36], &(-1i32).to_le_bytes());
    assert_eq!(gs.align, 8);

    // A zero-initialized global.
    let counter = m.global(m.global_index["counter"]);
    assert_eq!(counter.init.as_ref().unwrap().bytes, vec![0; 4]);
}

#[test]
fn declarations_have_no_initializer_or_body() {
    let dir = TempDir::new("decls");
    let src = dir.path("decl.c");
    std::fs::write(
        &src,
        "extern int ext_var;\nint ext_fn(int, ...);\nint use(void) { return ext_var + ext_fn(1, 2.0, (char)3); }\n",
    )
    .unwrap();
    let bc = dir.path("decl.bc");
    let st = std::process::Command::new("clang-19")
        .args([
            "-emit-llvm",
            "-c",
            "-g",
            "-O0",
            "-Xclang",
            "-disable-O0-optnone",
        ])
        .arg(&src)
        .arg("-o")
        .arg(&bc)
        .status()
        .unwrap();
    assert!(st.success());
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    let g = m.global(m.global_index["ext_var"]);
    assert!(g.init.is_none());
    assert_eq!(g.size, 4);
    let f = m.function(m.function_by_name("ext_fn").unwrap());
    assert!(f.body.is_none());
    assert!(f.is_vararg);
    assert_eq!(f.param_bits, vec![32]);
    // The varargs call passes every argument with its own width.
    let calls = find(&m, "use", |op| matches!(op, symtest_ir::Op::Call { .. }));
    let symtest_ir::Op::Call {
        arg_bits,
        ret_bits,
        callee,
        ..
    } = &calls[0].op
    else {
        unreachable!()
    };
    assert_eq!(arg_bits, &vec![32, 64, 32]);
    assert_eq!(*ret_bits, Some(32));
    assert_eq!(
        callee,
        &symtest_ir::Callee::Direct(m.function_by_name("ext_fn").unwrap())
    );
}
