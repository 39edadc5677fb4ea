//! `-O0` fixture: structure against an `llvm-dis` oracle, source lines, constants,
//! GEP offsets.

use std::collections::BTreeMap;

use symtest_ir::{BinOp, Bits, Constant, Op, Operand};

use crate::common::*;

/// (blocks, instructions) per defined function, from `llvm-dis` text: blocks are
/// the labels, plus the entry block when it is unlabeled; instructions are the
/// two-space-indented lines that are neither debug records (`#dbg_…`) nor the
/// closing line of a `switch` (its cases are indented further).
fn oracle(text: &str) -> BTreeMap<String, (usize, usize)> {
    struct Cur {
        name: String,
        labels: usize,
        insts: usize,
        seen_any: bool,
        entry_labeled: bool,
    }
    let mut out = BTreeMap::new();
    let mut cur: Option<Cur> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("define ") {
            let at = rest.find('@').expect("define without @");
            let name: String = rest[at + 1..].chars().take_while(|&c| c != '(').collect();
            cur = Some(Cur {
                name: name.trim_matches('"').to_string(),
                labels: 0,
                insts: 0,
                seen_any: false,
                entry_labeled: false,
            });
            continue;
        }
        let Some(c) = cur.as_mut() else { continue };
        if line == "}" {
            let blocks = c.labels + usize::from(!c.entry_labeled);
            out.insert(std::mem::take(&mut c.name), (blocks, c.insts));
            cur = None;
            continue;
        }
        let code = line.split(';').next().unwrap_or("").trim_end();
        if !line.starts_with(' ') && code.ends_with(':') {
            c.entry_labeled |= !c.seen_any;
            c.seen_any = true;
            c.labels += 1;
            continue;
        }
        let indented = line.starts_with("  ") && !line[2..].starts_with(' ');
        let trimmed = line.trim_start();
        if indented && !trimmed.starts_with(']') && !trimmed.starts_with("#dbg_") {
            c.seen_any = true;
            c.insts += 1;
        }
    }
    out
}

#[test]
fn oracle_parser_counts_blocks_and_instructions() {
    let text = "define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n    #dbg_value(i32 %0, !1, !DIExpression(), !2)\n  switch i32 %2, label %3 [\n    i32 1, label %4\n  ]\n\n3:\n  ret i32 0\n\n4:  ; preds = %1\n  ret i32 1\n}\n\
define void @g() {\nentry:\n  ret void\n}\n";
    let o = oracle(text);
    assert_eq!(o["f"], (3, 4));
    assert_eq!(o["g"], (1, 1));
}

#[test]
fn functions_blocks_and_instructions_match_llvm_dis() {
    let dir = TempDir::new("smoke");
    let bc = compile(&dir, "smoke.c", O0);
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    let expected = oracle(&disassemble(&bc));
    let ours: BTreeMap<String, (usize, usize)> = m
        .summaries()
        .into_iter()
        .map(|s| (s.name, (s.blocks, s.instructions)))
        .collect();
    assert_eq!(ours, expected);
    for name in ["divide", "sum_table", "classify", "length", "main", "elem3"] {
        assert!(ours.contains_key(name), "{name} missing");
    }
    // Loops and a switch produce several blocks.
    assert!(ours["sum_table"].0 >= 4);
    assert!(ours["classify"].0 >= 5);
    // Block names: unnamed blocks are numbered.
    let b = body(&m, "classify");
    assert_eq!(b.blocks[0].name, "bb0");
    // Registers: parameters first, then one per value-producing instruction.
    let produced = b.insts.iter().filter(|i| i.dest.is_some()).count() as u32;
    assert_eq!(b.num_regs, 1 + produced);
    let dests: Vec<u32> = b.insts.iter().filter_map(|i| i.dest).collect();
    assert_eq!(dests, (1..1 + produced).collect::<Vec<_>>());
    // Declarations are functions too, without a body.
    assert!(m
        .functions
        .iter()
        .all(|f| f.body.is_some() || !f.name.is_empty()));
    assert_eq!(m.target_triple, "x86_64-pc-linux-gnu");
    for (f, inst) in all_insts(&m) {
        assert!(
            !matches!(inst.op, Op::Unsupported { .. }),
            "{f}: {:?}",
            inst.op
        );
    }
}

#[test]
fn division_has_its_source_line() {
    let dir = TempDir::new("lines");
    let bc = compile(&dir, "smoke.c", O0);
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    let src = std::fs::read_to_string(fixture("smoke.c")).unwrap();
    let line = 1 + src.lines().position(|l| l.contains("/* DIV */")).unwrap() as u32;
    let divs = find(&m, "divide", |op| {
        matches!(
            op,
            Op::Bin {
                op: BinOp::SDiv,
                bits: 32,
                ..
            }
        )
    });
    assert_eq!(divs.len(), 1);
    let loc = divs[0].loc;
    assert_eq!(loc.line, line);
    assert!(loc.col > 0);
    assert!(m.describe_loc(loc).ends_with(&format!("smoke.c:{line}")));
    let file = m.file(loc.file.unwrap());
    assert!(file.starts_with('/'), "{file} should be absolute");
    // One file-table entry per distinct file.
    let mut files = m.files.clone();
    files.dedup();
    assert_eq!(files.len(), m.files.len());
    // Functions have the line of their definition.
    let f = m.function(m.function_by_name("divide").unwrap());
    assert_eq!(f.loc.line + 1, line);
    assert_eq!(f.param_bits, vec![32, 32]);
    assert_eq!(f.ret_bits, Some(32));
}

#[test]
fn constants_are_deduplicated() {
    let dir = TempDir::new("consts");
    let bc = compile(&dir, "smoke.c", O0);
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    for (i, a) in m.constants.iter().enumerate() {
        for b in &m.constants[i + 1..] {
            assert_ne!(a, b, "duplicate constant");
        }
    }
    // `classify` returns 42 from two places: the same constant id both times.
    let stores: Vec<Operand> = find(&m, "classify", |op| matches!(op, Op::Store { .. }))
        .iter()
        .filter_map(|i| match i.op {
            Op::Store {
                value: v @ Operand::Const(c),
                ..
            } if m.constant(c) == &Constant::Int(Bits::from_u64(32, 42)) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(stores.len(), 2);
    assert_eq!(stores[0], stores[1]);
    // The switch has its cases at the condition's width.
    let sw = find(&m, "classify", |op| matches!(op, Op::Switch { .. }));
    let Op::Switch { bits, cases, .. } = &sw[0].op else {
        unreachable!()
    };
    assert_eq!(*bits, 32);
    let values: Vec<i64> = cases.iter().map(|(v, _)| v.to_i64()).collect();
    assert_eq!(values, vec![1, 7, -3]);
    assert!(cases.iter().all(|(v, _)| v.width() == 32));
}

#[test]
fn gep_offsets_match_native_layout() {
    let dir = TempDir::new("gep");
    let bc = compile(&dir, "smoke.c", O0);
    let m = symtest_loader::load_bitcode(&bc).expect("load");
    // offsetof(l), offsetof(arr), offsetof(i), sizeof from a native build.
    let offs = native_offsets(&dir);
    let (off_l, off_arr, sizeof_s) = (offs[0], offs[1], offs[3]);

    let geps = |f: &str| -> Vec<(i64, Vec<(u32, i64)>)> {
        find(&m, f, |op| matches!(op, Op::Gep { .. }))
            .iter()
            .map(|i| match &i.op {
                Op::Gep { offset, terms, .. } => (
                    *offset,
                    terms.iter().map(|t| (t.index_bits, t.scale)).collect(),
                ),
                _ => unreachable!(),
            })
            .collect()
    };
    // s->l: one constant-offset GEP.
    assert_eq!(geps("get_l"), vec![(off_l, vec![])]);
    // &s->arr[3]: the struct field, then a constant array element.
    let g = geps("elem3");
    assert_eq!(g.iter().map(|x| x.0).sum::<i64>(), off_arr + 3 * 2);
    assert!(g.iter().all(|x| x.1.is_empty()));
    // s->arr[i]: a variable index scaled by sizeof(short).
    let g = geps("elem");
    assert_eq!(g.iter().map(|x| x.0).sum::<i64>(), off_arr);
    assert_eq!(
        g.iter().flat_map(|x| x.1.clone()).collect::<Vec<_>>(),
        vec![(64, 2)]
    );
    // The global struct has the native size.
    let gs = m.global(m.global_index["gs"]);
    assert_eq!(gs.size as i64, sizeof_s);
}

/// Runs a native build of the fixture's `print_offsets`.
fn native_offsets(dir: &TempDir) -> Vec<i64> {
    let driver = dir.path("driver.c");
    std::fs::write(
        &driver,
        format!(
            "#define main unused_main\n#define NATIVE_OFFSETS\n#include \"{}\"\n#undef main\nint main(void) {{ print_offsets(); return 0; }}\n",
            fixture("smoke.c").display()
        ),
    )
    .unwrap();
    run_native(dir, &driver)
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect()
}
