//! Call shapes (which arguments are floating point or pointers) and
//! `extern_weak` declarations.

use symtest_ir::{CallShape, Callee, Op};

use crate::common::*;

#[test]
fn call_shapes_and_weak_references() {
    let dir = TempDir::new("calls");
    let bc = compile(&dir, "calls.c", O0);
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    let shape_of = |name: &str| -> CallShape {
        let calls = find(
            &m,
            "use_all",
            |op| matches!(op, Op::Call { callee: Callee::Direct(f), .. } if m.function(*f).name == name),
        );
        match &calls[0].op {
            Op::Call { shape, .. } => *shape,
            _ => unreachable!(),
        }
    };
    // scale(double, float, int, char *) -> double
    assert_eq!(
        shape_of("scale"),
        CallShape {
            float_args: 0b0011,
            pointer_args: 0b1000,
            float_ret: true,
            pointer_ret: false,
        }
    );
    // printf(const char *, char *, double) -> int: the vararg double too.
    assert_eq!(
        shape_of("printf"),
        CallShape {
            float_args: 0b100,
            pointer_args: 0b011,
            float_ret: false,
            pointer_ret: false,
        }
    );
    let f = m.function(m.function_by_name("optional_hook").unwrap());
    assert!(f.extern_weak && f.body.is_none());
    assert!(!m.function(m.function_by_name("scale").unwrap()).extern_weak);
    let g = m.global(m.global_index["optional_counter"]);
    assert!(g.extern_weak && g.init.is_none());
}
