//! The merge operation: path conditions, `ite` values, refusals.

use super::join::{merge, Limits, Refusal};
use crate::memory::{AddressSpace, Label, ObjKind};
use crate::state::{Frame, Slot, State};
use crate::value::Value;
use std::rc::Rc;
use symtest_expr::{ArrayId, Assignment, BinOp, CmpOp, ExprId, ExprPool};
use symtest_ir::{BlockId, FuncId, Loc};

fn state(regs: Vec<Slot>, memory: AddressSpace) -> State {
    State {
        id: 0,
        stack: vec![Rc::new(Frame {
            func: FuncId(0),
            regs: regs.into(),
            block: BlockId(3),
            prev_block: Some(BlockId(5)),
            pc: 7,
            cur: 6,
            ret_dest: None,
            allocas: Vec::new(),
            varargs: None,
        })],
        constraints: Default::default(),
        equalities: Default::default(),
        preferences: Default::default(),
        memory,
        symbolics: Default::default(),
        seeds: Default::default(),
        model: None,
        depth: 0,
        instructions: 0,
        last_new_cover: 0,
        last_new_cover_global: 0,
        library_site: None,
        pending_cover: None,
        query_cost_us: 0,
        forks: 0,
        ptree_node: 0,
        jmp_targets: Vec::new(),
        stdout: Default::default(),
        forking_disabled: false,
        aliases: Vec::new(),
        errno_obj: None,
        error_suffix: None,
        terminated: Vec::new(),
        cross: None,
        argv: None,
        strays: Default::default(),
    }
}

fn small(width: u32, bits: u64) -> Slot {
    Slot::Small { width, bits }
}

/// An input byte `in[i]`, and `in[i] == k`.
struct Input {
    array: ArrayId,
}

impl Input {
    fn new(pool: &mut ExprPool) -> Input {
        Input {
            array: pool.new_array("in", 4),
        }
    }

    fn byte(&self, pool: &mut ExprPool, i: u64) -> ExprId {
        let root = pool.array(self.array);
        let idx = pool.const_u64(32, i);
        pool.select(root, idx)
    }

    fn is(&self, pool: &mut ExprPool, i: u64, k: u64) -> ExprId {
        let b = self.byte(pool, i);
        let k = pool.const_u64(8, k);
        pool.cmp(CmpOp::Eq, b, k)
    }

    fn assignment(&self, bytes: [u8; 4]) -> Assignment {
        let mut a = Assignment::new();
        a.set(self.array, bytes.to_vec());
        a
    }
}

/// Two paths forked on `in[0] == ' '` after a common `in[1] == 'x'`: one
/// counted a word (register 0 is 1, a byte of memory 'w'), the other not.
fn forked(pool: &mut ExprPool, input: &Input) -> (State, State, [ExprId; 3]) {
    let mut memory = AddressSpace::default();
    let obj = memory.allocate(16, 16, ObjKind::Heap, Label::Heap, Loc::default());
    let common = input.is(pool, 1, b'x' as u64);
    let space = input.is(pool, 0, b' ' as u64);
    let not_space = pool.not(space);
    let tail = input.is(pool, 2, b'y' as u64);
    let mut a = state(vec![small(32, 1), small(8, 9), Slot::Undef], memory.clone());
    let mut b = state(vec![small(32, 2), small(8, 9), small(8, 4)], memory);
    a.memory
        .contents_mut(obj.base)
        .unwrap()
        .write(pool, 3, 1, &Value::from_u64(8, b'w' as u64));
    let sym = input.byte(pool, 2);
    b.memory
        .contents_mut(obj.base)
        .unwrap()
        .write(pool, 3, 1, &Value::Symbolic(sym));
    for s in [&mut a, &mut b] {
        s.constraints.push(common);
    }
    a.constraints.push(space);
    a.constraints.push(tail);
    b.id = 1;
    b.constraints.push(not_space);
    (a, b, [common, space, tail])
}

fn reg(st: &State, r: usize) -> Value {
    st.stack[0].regs[r].value().expect("defined")
}

#[test]
fn merged_path_condition_is_the_prefix_and_a_disjunction() {
    let mut pool = ExprPool::new();
    let input = Input::new(&mut pool);
    let (a, b, [common, space, tail]) = forked(&mut pool, &input);
    let m = merge(&mut pool, &a, &b, Limits::default()).expect("mergeable");
    let pc = m.constraints.to_vec();
    assert_eq!(pc.len(), 2);
    assert_eq!(pc[0], common);
    let t = pool.true_();
    let rest_a = pool.bin(BinOp::And, t, space);
    let rest_a = pool.bin(BinOp::And, rest_a, tail);
    let not_space = pool.not(space);
    let rest_b = pool.bin(BinOp::And, t, not_space);
    let expected = pool.bin(BinOp::Or, rest_a, rest_b);
    assert_eq!(pc[1], expected);
    // Inputs of either path satisfy it; one of neither does not.
    for (bytes, holds) in [
        (*b" xy.", true),
        (*b"qx..", true),
        (*b" xz.", false),
        (*b"qq..", false),
    ] {
        let asg = input.assignment(bytes);
        let all = pc.iter().all(|&c| pool.eval(c, &asg).is_true());
        assert_eq!(all, holds, "{:?}", std::str::from_utf8(&bytes));
    }
    assert_eq!(
        m.id, a.id,
        "the merged state keeps the first one's identity"
    );
}

#[test]
fn differing_registers_and_bytes_become_ites() {
    let mut pool = ExprPool::new();
    let input = Input::new(&mut pool);
    let (a, b, _) = forked(&mut pool, &input);
    let m = merge(&mut pool, &a, &b, Limits::default()).expect("mergeable");
    // Equal registers stay as they were; one only `b` defined takes its value.
    assert_eq!(reg(&m, 1), Value::from_u64(8, 9));
    assert_eq!(reg(&m, 2), Value::from_u64(8, 4));
    let Value::Symbolic(count) = reg(&m, 0) else {
        panic!("a differing register is an ite");
    };
    let base = m.memory.entries().next().unwrap().object.base;
    let Value::Symbolic(byte) = m.memory.get(base).unwrap().contents.read(&mut pool, 3, 1) else {
        panic!("a differing byte is an ite");
    };
    // Under an input of the first path: its values; of the second: its own.
    let first = input.assignment(*b" xy.");
    assert_eq!(pool.eval(count, &first).to_u64(), 1);
    assert_eq!(pool.eval(byte, &first).to_u64(), b'w' as u64);
    let second = input.assignment(*b"qxk.");
    assert_eq!(pool.eval(count, &second).to_u64(), 2);
    assert_eq!(pool.eval(byte, &second).to_u64(), b'k' as u64);
    // Bytes that agree stay concrete.
    let other = m.memory.get(base).unwrap().contents.read(&mut pool, 4, 1);
    assert_eq!(other, Value::from_u64(8, 0));
}

#[test]
fn paths_not_provably_disjoint_are_not_merged() {
    let mut pool = ExprPool::new();
    let input = Input::new(&mut pool);
    let (a, mut b, _) = forked(&mut pool, &input);
    // `b` instead of `in[0] != ' '` holds `in[3] == 'z'`: both could hold.
    let other = input.is(&mut pool, 3, b'z' as u64);
    b.constraints
        .replace_with(&[a.constraints.to_vec()[0], other]);
    assert_eq!(
        merge(&mut pool, &a, &b, Limits::default()).err(),
        Some(Refusal::NotDisjoint)
    );
    // The same path condition on both sides: nothing tells them apart.
    assert_eq!(
        merge(&mut pool, &a, &a.clone(), Limits::default()).err(),
        Some(Refusal::NotDisjoint)
    );
}

#[test]
fn different_stacks_objects_or_costs_are_refused() {
    let mut pool = ExprPool::new();
    let input = Input::new(&mut pool);
    let (a, b, _) = forked(&mut pool, &input);
    let mut elsewhere = b.clone();
    Rc::make_mut(&mut elsewhere.stack[0]).block = BlockId(4);
    assert_eq!(
        merge(&mut pool, &a, &elsewhere, Limits::default()).err(),
        Some(Refusal::Shape)
    );
    let mut more = b.clone();
    more.memory
        .allocate(8, 16, ObjKind::Heap, Label::Heap, Loc::default());
    assert_eq!(
        merge(&mut pool, &a, &more, Limits::default()).err(),
        Some(Refusal::Objects)
    );
    let tight = Limits {
        max_diffs: 1,
        ..Limits::default()
    };
    assert_eq!(merge(&mut pool, &a, &b, tight).err(), Some(Refusal::Cost));
    let shallow = Limits {
        max_depth: 1,
        ..Limits::default()
    };
    assert_eq!(merge(&mut pool, &a, &b, shallow).err(), Some(Refusal::Cost));
    // The first path added two constraints since they parted.
    let recent = Limits {
        max_rest: 1,
        ..Limits::default()
    };
    assert_eq!(merge(&mut pool, &a, &b, recent).err(), Some(Refusal::Cost));
    assert!(merge(&mut pool, &a, &b, Limits::default()).is_ok());
}
