//! One instruction: fetch, count coverage, dispatch (one line per kind).

use crate::executor::Executor;
use crate::query::SolverFailure;
use crate::state::{CoverNode, State};
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;
use std::rc::Rc;
use symtest_ir::{Op, Operand};

/// Why an instruction handler stopped the current state.
#[derive(Debug)]
pub enum Stop {
    Terminate(Termination),
    Solver(SolverFailure),
}

impl From<SolverFailure> for Stop {
    fn from(f: SolverFailure) -> Stop {
        Stop::Solver(f)
    }
}

impl Stop {
    pub fn error(kind: ErrorKind, msg: impl Into<String>) -> Stop {
        Stop::Terminate(Termination::Error(kind, msg.into()))
    }

    pub fn into_termination(self) -> Termination {
        match self {
            Stop::Terminate(t) => t,
            // The run's time ran out during a query: the path halts with the
            // run (its test, if any, is completed and compared like the other
            // halted paths'), it did not meet a query the solver cannot answer.
            Stop::Solver(f) if f.run_deadline => {
                Termination::Early("halted: --max-time reached while a solver query ran".into())
            }
            Stop::Solver(f) => Termination::Error(ErrorKind::Solver, f.message),
        }
    }
}

pub type Exec<T> = Result<T, Stop>;

/// States produced while executing one instruction besides the current one.
#[derive(Default)]
pub struct StepCtx {
    /// New running states (forks).
    pub added: Vec<State>,
    /// States that ended immediately (error paths forked off a check).
    pub ended: Vec<(State, Termination)>,
}

impl Executor<'_> {
    pub(crate) fn operand(&self, st: &State, o: Operand) -> Exec<Value> {
        match o {
            Operand::Const(c) => Ok(self.consts[c.0 as usize].clone()),
            Operand::Reg(r) => st.reg(r).ok_or_else(|| {
                Stop::error(
                    ErrorKind::Exec,
                    format!("read of register %{r} before it was defined"),
                )
            }),
        }
    }

    /// Executes the instruction at the state's pc.
    pub(crate) fn step(&mut self, st: &mut State, ctx: &mut StepCtx) -> Exec<()> {
        let module = self.module;
        let frame = st.frame_mut();
        let func = frame.func;
        let pc = frame.pc;
        frame.cur = pc;
        frame.pc += 1;
        let body = module
            .function(func)
            .body
            .as_ref()
            .expect("running a defined function");
        let inst = &body.insts[pc as usize];
        st.instructions += 1;
        self.stats.instructions += 1;
        if self.coverage.hit(module, func, pc) {
            self.first_hit(st, func, pc);
        }
        let dest = inst.dest;
        match &inst.op {
            Op::Bin { op, a, b, bits } => self.exec_bin(st, ctx, dest, *op, *a, *b, *bits),
            Op::ICmp { pred, a, b, .. } => self.exec_icmp(st, dest, *pred, *a, *b),
            Op::FBin { op, a, b, ty } => self.exec_fbin(st, dest, *op, *a, *b, *ty),
            Op::FNeg { a, ty } => self.exec_fneg(st, dest, *a, *ty),
            Op::FCmp { pred, a, b, ty } => self.exec_fcmp(st, dest, *pred, *a, *b, *ty),
            Op::Cast { op, a, to_bits, .. } => self.exec_cast(st, dest, *op, *a, *to_bits),
            Op::FCast { op, a } => self.exec_fcast(st, ctx, dest, *op, *a),
            Op::Select { cond, t, f, .. } => self.exec_select(st, dest, *cond, *t, *f),
            Op::Alloca {
                elem_bytes,
                count,
                count_bits,
                align,
            } => self.exec_alloca(st, ctx, dest, *elem_bytes, *count, *count_bits, *align),
            Op::Load { ptr, bytes, bits } => self.exec_load(st, ctx, dest, *ptr, *bytes, *bits),
            Op::Store {
                ptr,
                value,
                bytes,
                bits,
            } => self.exec_store(st, ctx, *ptr, *value, *bytes, *bits),
            Op::Gep {
                base,
                offset,
                terms,
            } => self.exec_gep(st, dest, *base, *offset, terms),
            Op::Phi { .. } => Ok(()), // evaluated on block entry
            Op::Br { target } => self.jump(st, *target),
            Op::CondBr {
                cond,
                then_block,
                else_block,
            } => self.exec_condbr(st, ctx, *cond, *then_block, *else_block),
            Op::Switch {
                cond,
                default,
                cases,
                ..
            } => self.exec_switch(st, ctx, *cond, Some(*default), cases),
            Op::IndirectBr { addr, targets } => self.exec_switch(st, ctx, *addr, None, targets),
            Op::Ret { value } => self.exec_ret(st, *value),
            Op::Unreachable => Err(Stop::error(ErrorKind::Exec, "reached `unreachable`")),
            Op::Call {
                callee,
                args,
                arg_bits,
                ret_bits,
                ..
            } => self.exec_call(st, ctx, dest, callee, args, arg_bits, *ret_bits),
            Op::Intrinsic {
                which,
                args,
                bits,
                ret_bits,
                ..
            } => self.exec_intrinsic(st, ctx, dest, which, args, *bits, *ret_bits),
            Op::ExtractValue {
                agg,
                bit_offset,
                bits,
            } => self.exec_extractvalue(st, dest, *agg, *bit_offset, *bits),
            Op::InsertValue {
                agg,
                value,
                bit_offset,
                ..
            } => self.exec_insertvalue(st, dest, *agg, *value, *bit_offset),
            Op::ExtractElement {
                vector,
                index,
                elem_bits,
                len,
                ..
            } => self.exec_extractelement(st, dest, *vector, *index, *elem_bits, *len),
            Op::InsertElement {
                vector,
                value,
                index,
                elem_bits,
                len,
                ..
            } => self.exec_insertelement(st, dest, *vector, *value, *index, *elem_bits, *len),
            Op::ShuffleVector {
                a,
                b,
                mask,
                elem_bits,
                in_len,
            } => self.exec_shuffle(st, dest, *a, *b, mask, *elem_bits, *in_len),
            Op::VaArg { list, bytes, bits } => self.exec_vaarg(st, ctx, dest, *list, *bytes, *bits),
            Op::AtomicRmw {
                op,
                ptr,
                value,
                bytes,
                bits,
            } => self.exec_atomicrmw(st, ctx, dest, *op, *ptr, *value, *bytes, *bits),
            Op::CmpXchg {
                ptr,
                expected,
                new,
                bytes,
                bits,
            } => self.exec_cmpxchg(st, ctx, dest, *ptr, *expected, *new, *bytes, *bits),
            Op::Unsupported { what } => Err(Stop::error(
                ErrorKind::Exec,
                format!("unsupported instruction: {what}"),
            )),
        }
    }

    /// Records when the run last covered a new source line.
    /// `st` ran instruction `pc` of `func` first of all states: the search's
    /// targets, the state's coverage marks and its pending-cover chain, and
    /// the library-fork credit when the code is the program's.
    pub(crate) fn first_hit(&mut self, st: &mut State, func: symtest_ir::FuncId, pc: u32) {
        self.note_new_coverage();
        let inst = self.coverage.index(func, pc);
        if let Some(t) = &mut self.targets {
            t.note(inst);
        }
        if self.coverage.is_program_function(func) {
            st.last_new_cover = st.instructions;
            self.credit_library_site(st);
        }
        st.last_new_cover_global = self.stats.instructions;
        st.pending_cover = Some(Rc::new(CoverNode {
            inst,
            next: st.pending_cover.take(),
        }));
    }

    pub(crate) fn note_new_coverage(&mut self) {
        let lines = self.coverage.covered_lines() as u64;
        if lines > self.stats.covered_lines {
            self.stats.covered_lines = lines;
            self.stats.last_new_line_s = self.started.elapsed().as_secs_f64();
        }
    }

    pub(crate) fn set(&mut self, st: &mut State, dest: Option<u32>, v: Value) {
        if let Some(r) = dest {
            st.set_reg(r, v);
        }
    }
}
