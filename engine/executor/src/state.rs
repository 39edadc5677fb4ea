//! Execution states: stack, program counter, path condition, address space.

use crate::memory::AddressSpace;
use crate::value::Value;
use std::rc::Rc;
use symtest_expr::{ArrayId, Assignment, ExprId};
use symtest_ir::{BlockId, FuncId, Reg};

/// Identifies a state for the searchers and the process tree.
pub type StateId = u64;

/// One activation record.
#[derive(Clone, Debug)]
pub struct Frame {
    pub func: FuncId,
    pub regs: Vec<Option<Value>>,
    pub block: BlockId,
    /// The block control came from (for phis).
    pub prev_block: Option<BlockId>,
    /// Index of the next instruction in the function body.
    pub pc: u32,
    /// Index of the instruction being executed (the call, in caller frames).
    pub cur: u32,
    /// Register of the caller receiving the return value.
    pub ret_dest: Option<Reg>,
    /// Stack objects to free on return.
    pub allocas: Vec<u64>,
    /// Address of the engine object holding the variadic arguments.
    pub varargs: Option<u64>,
}

/// A symbolic input object (one `.ktest` object).
#[derive(Clone, Debug)]
pub struct SymbolicObject {
    /// The name the program gave it (ktest object name).
    pub name: String,
    pub array: ArrayId,
    pub size: u32,
}

/// A persistent list of instructions this path covered first that no written test
/// includes yet; shared between forked states.
#[derive(Debug)]
pub struct CoverNode {
    pub inst: u32,
    pub next: Option<Rc<CoverNode>>,
}

#[derive(Clone, Debug)]
pub struct State {
    pub id: StateId,
    pub stack: Vec<Frame>,
    pub constraints: Vec<ExprId>,
    /// Equalities `expr = constant` the path condition states (for simplification).
    pub equalities: Vec<(ExprId, ExprId)>,
    /// Constraints to prefer when choosing the test's concrete values (`prefer_cex`,
    /// just-out-of-bounds offsets for pointer errors).
    pub preferences: Vec<ExprId>,
    pub memory: AddressSpace,
    pub symbolics: Vec<SymbolicObject>,
    /// A satisfying assignment of `constraints`, when one is known.
    pub model: Option<Rc<Assignment>>,
    pub depth: u32,
    pub instructions: u64,
    /// Instruction count (of this state) when it last covered new code.
    pub last_new_cover: u64,
    /// Run-wide instruction count when this state last covered new code.
    pub last_new_cover_global: u64,
    pub pending_cover: Option<Rc<CoverNode>>,
    /// Accumulated solver time spent for this state (query-cost searcher).
    pub query_cost_us: u64,
    /// Output of `symtest_print_expr`/warnings belongs to the run, not the state.
    pub forks: u32,
    pub ptree_node: usize,
    /// Where each `setjmp` of this path may return again (`longjmp`); a jmp_buf
    /// holds the index + 1 of its entry.
    pub jmp_targets: Vec<JmpTarget>,
    /// Bytes the program wrote to standard output (POSIX model), up to a cap.
    pub stdout: Vec<Value>,
    /// `klee_set_forking(0)`: branches follow one feasible side.
    pub forking_disabled: bool,
    /// `klee_alias_function(old, new)`: calls of `old` go to `new`.
    pub aliases: Vec<(FuncId, FuncId)>,
    /// The engine's `errno` object (`__errno_location` without a libc).
    pub errno_obj: Option<u64>,
    /// The file suffix `klee_report_error` gave for the error ending this path.
    pub error_suffix: Option<String>,
}

/// The continuation of a `setjmp` call.
#[derive(Clone, Debug)]
pub struct JmpTarget {
    /// Stack depth of the frame that called setjmp.
    pub depth: usize,
    pub func: FuncId,
    pub block: BlockId,
    pub prev_block: Option<BlockId>,
    pub pc: u32,
    pub dest: Option<Reg>,
}

impl State {
    pub fn frame(&self) -> &Frame {
        self.stack.last().expect("a running state has a frame")
    }

    pub fn frame_mut(&mut self) -> &mut Frame {
        self.stack.last_mut().expect("a running state has a frame")
    }

    pub fn reg(&self, r: Reg) -> Option<&Value> {
        self.frame().regs.get(r as usize).and_then(|v| v.as_ref())
    }

    pub fn set_reg(&mut self, r: Reg, v: Value) {
        let regs = &mut self.frame_mut().regs;
        regs[r as usize] = Some(v);
    }
}
