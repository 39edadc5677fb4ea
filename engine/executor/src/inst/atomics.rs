//! `atomicrmw` and `cmpxchg` (single-threaded: plain read-modify-write).

use super::memory_ops::Access;
use crate::executor::Executor;
use crate::state::State;
use crate::step::{Exec, StepCtx};
use crate::value::Ops;
use symtest_expr::{BinOp, CmpOp};
use symtest_ir::{AtomicOp, Operand, Reg};

impl Executor<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn exec_atomicrmw(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        op: AtomicOp,
        ptr: Operand,
        value: Operand,
        bytes: u32,
        bits: u32,
    ) -> Exec<()> {
        let p = self.operand(st, ptr)?;
        let v = self.operand(st, value)?;
        self.with_resolved(
            st,
            ctx,
            &p,
            bytes as u64,
            Access::Write,
            &mut |ex, s, base, off| {
                let old = ex.read_value(s, base, off, bytes, bits);
                let pool = &mut ex.pool;
                let new = match op {
                    AtomicOp::Xchg => v.clone(),
                    AtomicOp::Add => Ops::bin(pool, BinOp::Add, &old, &v),
                    AtomicOp::Sub => Ops::bin(pool, BinOp::Sub, &old, &v),
                    AtomicOp::And => Ops::bin(pool, BinOp::And, &old, &v),
                    AtomicOp::Or => Ops::bin(pool, BinOp::Or, &old, &v),
                    AtomicOp::Xor => Ops::bin(pool, BinOp::Xor, &old, &v),
                    AtomicOp::Nand => {
                        let a = Ops::bin(pool, BinOp::And, &old, &v);
                        Ops::not(pool, &a)
                    }
                    AtomicOp::Max | AtomicOp::Min | AtomicOp::UMax | AtomicOp::UMin => {
                        let cmp = if matches!(op, AtomicOp::Max | AtomicOp::Min) {
                            CmpOp::Slt
                        } else {
                            CmpOp::Ult
                        };
                        let lt = Ops::cmp(pool, cmp, &old, &v);
                        if matches!(op, AtomicOp::Max | AtomicOp::UMax) {
                            Ops::ite(pool, &lt, &v, &old)
                        } else {
                            Ops::ite(pool, &lt, &old, &v)
                        }
                    }
                };
                let new = Ops::resize(&mut ex.pool, &new, bytes * 8);
                ex.write_at(s, base, off, bytes as usize, &new);
                ex.set(s, dest, old);
                Ok(())
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn exec_cmpxchg(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        ptr: Operand,
        expected: Operand,
        new: Operand,
        bytes: u32,
        bits: u32,
    ) -> Exec<()> {
        let p = self.operand(st, ptr)?;
        let e = self.operand(st, expected)?;
        let n = self.operand(st, new)?;
        self.with_resolved(
            st,
            ctx,
            &p,
            bytes as u64,
            Access::Write,
            &mut |ex, s, base, off| {
                let old = ex.read_value(s, base, off, bytes, bits);
                let ok = Ops::cmp(&mut ex.pool, CmpOp::Eq, &old, &e);
                let stored = Ops::ite(&mut ex.pool, &ok, &n, &old);
                let stored_w = Ops::resize(&mut ex.pool, &stored, bytes * 8);
                ex.write_at(s, base, off, bytes as usize, &stored_w);
                // { old, success } with the flag at bit `bits`, padded to the struct size.
                let total = (bits / 8 * 2).max(2) * 8;
                let flag = Ops::zext(&mut ex.pool, &ok, total - bits);
                let r = Ops::concat(&mut ex.pool, &flag, &old);
                ex.set(s, dest, r);
                Ok(())
            },
        )
    }
}
