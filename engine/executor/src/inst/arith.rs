//! Integer arithmetic, comparisons, casts and select.

use crate::executor::Executor;
use crate::state::State;
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use symtest_expr::{BinOp, CmpOp, ExprPool};
use symtest_ir::{self as ir, CastOp, IntPred, Operand, Reg};

/// Per function: does it call `__ubsan_handle_shift_out_of_bounds`? Such a
/// function was compiled with UBSan's shift check, which guards each of its
/// shifts before the shift runs: the engine's own overshift check would only
/// repeat it (a query per symbolic shift, to learn the guard's answer).
pub fn ubsan_shift_checked(module: &ir::Module) -> Vec<bool> {
    module
        .functions
        .iter()
        .map(|f| {
            f.body.as_ref().is_some_and(|b| {
                b.insts.iter().any(|i| {
                    matches!(&i.op, ir::Op::Call { callee: ir::Callee::Direct(g), .. }
                        if symtest_ir::plain_name(&module.function(*g).name).starts_with("__ubsan_handle_shift_out_of_bounds"))
                })
            })
        })
        .collect()
}

pub fn bin_op(op: ir::BinOp) -> BinOp {
    match op {
        ir::BinOp::Add => BinOp::Add,
        ir::BinOp::Sub => BinOp::Sub,
        ir::BinOp::Mul => BinOp::Mul,
        ir::BinOp::UDiv => BinOp::UDiv,
        ir::BinOp::SDiv => BinOp::SDiv,
        ir::BinOp::URem => BinOp::URem,
        ir::BinOp::SRem => BinOp::SRem,
        ir::BinOp::Shl => BinOp::Shl,
        ir::BinOp::LShr => BinOp::LShr,
        ir::BinOp::AShr => BinOp::AShr,
        ir::BinOp::And => BinOp::And,
        ir::BinOp::Or => BinOp::Or,
        ir::BinOp::Xor => BinOp::Xor,
    }
}

/// Integer comparison as a width-1 value.
pub fn icmp(pool: &mut ExprPool, pred: IntPred, a: &Value, b: &Value) -> Value {
    let (op, swap, negate) = match pred {
        IntPred::Eq => (CmpOp::Eq, false, false),
        IntPred::Ne => (CmpOp::Eq, false, true),
        IntPred::Ult => (CmpOp::Ult, false, false),
        IntPred::Ule => (CmpOp::Ule, false, false),
        IntPred::Ugt => (CmpOp::Ult, true, false),
        IntPred::Uge => (CmpOp::Ule, true, false),
        IntPred::Slt => (CmpOp::Slt, false, false),
        IntPred::Sle => (CmpOp::Sle, false, false),
        IntPred::Sgt => (CmpOp::Slt, true, false),
        IntPred::Sge => (CmpOp::Sle, true, false),
    };
    let r = if swap {
        Ops::cmp(pool, op, b, a)
    } else {
        Ops::cmp(pool, op, a, b)
    };
    if negate {
        Ops::not(pool, &r)
    } else {
        r
    }
}

impl Executor<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn exec_bin(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        op: ir::BinOp,
        a: Operand,
        b: Operand,
        bits: u32,
    ) -> Exec<()> {
        let x = self.operand(st, a)?;
        let y = self.operand(st, b)?;
        if self.config.check_div_zero
            && matches!(
                op,
                ir::BinOp::UDiv | ir::BinOp::SDiv | ir::BinOp::URem | ir::BinOp::SRem
            )
        {
            let zero = Value::from_u64(bits, 0);
            let is_zero = self.eq_value(&y, &zero);
            let what = if matches!(op, ir::BinOp::UDiv | ir::BinOp::SDiv) {
                "division by zero"
            } else {
                "remainder by zero"
            };
            self.check_error(st, ctx, &is_zero, ErrorKind::Div, what)?;
        }
        let in_range = y
            .as_concrete()
            .is_some_and(|b| b.to_u64() < u64::from(bits));
        if self.config.check_overshift
            && !in_range
            && matches!(op, ir::BinOp::Shl | ir::BinOp::LShr | ir::BinOp::AShr)
        {
            self.check_overshift(st, ctx, &y, bits)?;
        }
        let r = Ops::bin(&mut self.pool, bin_op(op), &x, &y);
        self.set(st, dest, r);
        Ok(())
    }

    /// KLEE's overshift check: shifting by the value's width or more is
    /// undefined in C (a poison value in LLVM). Only the program's own code
    /// is checked (a libc compiled with optimizations may hold shifts LLVM
    /// speculated, whose out-of-range results are never used), and not in
    /// functions compiled with UBSan's shift check, which already guards
    /// every shift (its branch excludes the bad amounts before the shift, so
    /// nothing would be reported twice anyway: skipping saves the query).
    fn check_overshift(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        amount: &Value,
        bits: u32,
    ) -> Exec<()> {
        if self.ubsan_shift_checked[st.frame().func.0 as usize] {
            return Ok(());
        }
        let loc = self.current_loc(st);
        if !self.coverage.is_program_file(loc.file) {
            return Ok(());
        }
        let width = Value::from_u64(amount.width(&self.pool), u64::from(bits));
        let bad = Ops::cmp(&mut self.pool, CmpOp::Ule, &width, amount);
        self.check_error(
            st,
            ctx,
            &bad,
            ErrorKind::Overflow,
            "overshift: shift amount at least the width of the value",
        )
    }

    pub(crate) fn exec_icmp(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        pred: IntPred,
        a: Operand,
        b: Operand,
    ) -> Exec<()> {
        let x = self.operand(st, a)?;
        let y = self.operand(st, b)?;
        let r = icmp(&mut self.pool, pred, &x, &y);
        self.set(st, dest, r);
        Ok(())
    }

    pub(crate) fn exec_cast(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        op: CastOp,
        a: Operand,
        to: u32,
    ) -> Exec<()> {
        let x = self.operand(st, a)?;
        let r = match op {
            CastOp::Trunc | CastOp::ZExt => Ops::resize(&mut self.pool, &x, to),
            CastOp::SExt => Ops::sresize(&mut self.pool, &x, to),
            CastOp::Same => Ops::resize(&mut self.pool, &x, to),
        };
        self.set(st, dest, r);
        Ok(())
    }

    pub(crate) fn exec_select(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        c: Operand,
        t: Operand,
        f: Operand,
    ) -> Exec<()> {
        let c = self.operand(st, c)?;
        let t = self.operand(st, t)?;
        let f = self.operand(st, f)?;
        let c = if c.width(&self.pool) != 1 {
            // Vector selects are not lowered as such; treat a wider condition bitwise-nonzero.
            return Err(Stop::error(
                ErrorKind::Exec,
                "select with a vector condition",
            ));
        } else {
            c
        };
        let r = Ops::ite(&mut self.pool, &c, &t, &f);
        self.set(st, dest, r);
        Ok(())
    }
}
