//! Control flow: phis, branches, switch, return.

use super::fork::Branch;
use crate::executor::Executor;
use crate::state::State;
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use symtest_expr::Bits;
use symtest_ir::{BlockId, Op, Operand};

impl Executor<'_> {
    /// Transfers control to `target`, evaluating its phis against the block we came from.
    pub(crate) fn jump(&mut self, st: &mut State, target: BlockId) -> Exec<()> {
        let module = self.module;
        let frame = st.frame();
        let from = frame.block;
        let body = module.function(frame.func).body.as_ref().expect("defined");
        let blk = &body.blocks[target.0 as usize];
        let mut pc = blk.first;
        let mut assigns: Vec<(u32, Value)> = Vec::new();
        while pc < blk.first + blk.len {
            let inst = &body.insts[pc as usize];
            let Op::Phi { incoming, .. } = &inst.op else {
                break;
            };
            let Some((_, op)) = incoming.iter().find(|(b, _)| *b == from) else {
                return Err(Stop::error(
                    ErrorKind::Exec,
                    "phi has no value for the incoming block",
                ));
            };
            let v = self.operand(st, *op)?;
            if let Some(d) = inst.dest {
                assigns.push((d, v));
            }
            let func = st.frame().func;
            if self.coverage.hit(module, func, pc) {
                self.first_hit(st, func, pc);
            }
            pc += 1;
        }
        let frame = st.frame_mut();
        frame.prev_block = Some(from);
        frame.block = target;
        frame.pc = pc;
        for (d, v) in assigns {
            st.set_reg(d, v);
        }
        Ok(())
    }

    pub(crate) fn exec_condbr(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        cond: Operand,
        then_block: BlockId,
        else_block: BlockId,
    ) -> Exec<()> {
        let c = self.operand(st, cond)?;
        match self.branch(st, &c)? {
            Branch::Only(true) => self.jump(st, then_block),
            Branch::Only(false) => self.jump(st, else_block),
            Branch::Both(mut child) => {
                self.jump(st, then_block)?;
                match self.jump(&mut child, else_block) {
                    Ok(()) => ctx.added.push(*child),
                    Err(stop) => ctx.ended.push((*child, stop.into_termination())),
                }
                Ok(())
            }
        }
    }

    pub(crate) fn exec_switch(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        cond: Operand,
        default: Option<BlockId>,
        cases: &[(Bits, BlockId)],
    ) -> Exec<()> {
        // An `indirectbr` (no default) to an address none of its destinations has.
        let stray = || {
            Stop::error(
                ErrorKind::Ptr,
                "computed goto to an address that is not one of its labels",
            )
        };
        let c = self.operand(st, cond)?;
        if let Value::Concrete(b) = &c {
            let target = cases.iter().find(|(v, _)| v == b).map(|x| x.1).or(default);
            return match target {
                Some(t) => {
                    self.note_switch(st, &c, &[t], &[], 0);
                    self.jump(st, t)
                }
                None => Err(stray()),
            };
        }
        // Group case values by target so each successor forks once.
        let mut targets: Vec<(BlockId, Value)> = Vec::new();
        let mut none_matches = Value::from_bool(true);
        for (v, blk) in cases {
            let eq = self.eq_value(&c, &Value::Concrete(v.clone()));
            let ne = Ops::not(&mut self.pool, &eq);
            none_matches = Ops::bin(&mut self.pool, symtest_expr::BinOp::And, &none_matches, &ne);
            match targets.iter_mut().find(|t| t.0 == *blk) {
                Some(t) => t.1 = Ops::bin(&mut self.pool, symtest_expr::BinOp::Or, &t.1, &eq),
                None => targets.push((*blk, eq)),
            }
        }
        match default {
            Some(default) => match targets.iter_mut().find(|t| t.0 == default) {
                Some(t) => {
                    t.1 = Ops::bin(&mut self.pool, symtest_expr::BinOp::Or, &t.1, &none_matches)
                }
                None => targets.push((default, none_matches)),
            },
            None => {
                if self.may_be_true(st, &none_matches)? {
                    let mut bad = self.fork_state(st);
                    self.add_constraint(&mut bad, &none_matches);
                    ctx.ended.push((bad, stray().into_termination()));
                }
            }
        }
        let mut feasible: Vec<(BlockId, Value)> = Vec::new();
        let mut infeasible = Vec::new();
        for (blk, cond) in targets {
            if self.may_be_true(st, &cond)? {
                feasible.push((blk, cond));
            } else {
                infeasible.push(blk);
            }
        }
        let mut limited = 0;
        if feasible.len() > 1 && !self.may_fork(st) {
            // Fork limit reached: follow one feasible case at random.
            let k = self.rng.below(feasible.len() as u64) as usize;
            limited = feasible.len() - 1;
            feasible = vec![feasible.swap_remove(k)];
        }
        let taken: Vec<BlockId> = feasible.iter().map(|f| f.0).collect();
        self.note_switch(st, &c, &taken, &infeasible, limited);
        let Some((last_blk, last_cond)) = feasible.pop() else {
            return Err(Stop::error(ErrorKind::Solver, "no switch case is feasible"));
        };
        for (blk, cond) in feasible {
            let mut child = self.fork_state(st);
            self.add_constraint(&mut child, &cond);
            match self.jump(&mut child, blk) {
                Ok(()) => ctx.added.push(child),
                Err(stop) => ctx.ended.push((child, stop.into_termination())),
            }
        }
        self.add_constraint(st, &last_cond);
        self.jump(st, last_blk)
    }

    pub(crate) fn exec_ret(&mut self, st: &mut State, value: Option<Operand>) -> Exec<()> {
        let v = match value {
            Some(o) => Some(self.operand(st, o)?),
            None => None,
        };
        let frame = st.stack.pop().expect("running frame");
        st.memory.release_frame(&frame.allocas, frame.varargs);
        if st.stack.is_empty() {
            // Returning from the entry function: the exit code is its int result.
            let code = match v {
                Some(Value::Concrete(b)) => b.to_i64(),
                Some(sym @ Value::Symbolic(_)) => {
                    let b = self.get_value(st, &sym)?;
                    let eq = self.eq_value(&sym, &Value::Concrete(b.clone()));
                    self.add_constraint(st, &eq);
                    b.to_i64()
                }
                None => 0,
            };
            return Err(Stop::Terminate(Termination::Exit(code)));
        }
        if let (Some(d), Some(v)) = (frame.ret_dest, v) {
            st.set_reg(d, v);
        }
        Ok(())
    }
}
