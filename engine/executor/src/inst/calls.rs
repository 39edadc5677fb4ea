//! Calls (direct, through function pointers, special functions) and varargs.

use crate::executor::Executor;
use crate::memory::{EngineObject, Label, ObjKind};
use crate::state::{Frame, State};
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use symtest_ir::{BlockId, Callee, FuncId, Operand, Reg};

/// Deeper call stacks end the state (runaway recursion).
const MAX_STACK_DEPTH: usize = 4096;

impl Executor<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn exec_call(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        callee: &Callee,
        args: &[Operand],
        arg_bits: &[u32],
        ret_bits: Option<u32>,
    ) -> Exec<()> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.operand(st, *a)?);
        }
        match callee {
            Callee::Direct(f) => self.call_function(st, ctx, dest, *f, vals, arg_bits, ret_bits),
            Callee::AsmMove(ties) => {
                // A barrier or register identity: each output takes its tied
                // input's value (see the loader's `asm.rs`).
                if let Some(bits) = ret_bits {
                    let v = match ties.as_slice() {
                        [t] if t.bit_offset == 0 && t.bits == bits => {
                            Ops::resize(&mut self.pool, &vals[t.arg as usize], bits)
                        }
                        _ => {
                            let mut agg = Value::Concrete(symtest_expr::Bits::zero(bits));
                            for t in ties {
                                let v = Ops::resize(&mut self.pool, &vals[t.arg as usize], t.bits);
                                agg = Ops::insert(&mut self.pool, &agg, &v, t.bit_offset);
                            }
                            agg
                        }
                    };
                    self.set(st, dest, v);
                }
                Ok(())
            }
            Callee::InlineAsm(text) if symtest_ir::is_cpu_feature_probe(text) => {
                // `cpuid`/`xgetbv`: a processor with no optional features, so
                // programs take their portable code paths (the ones the engine
                // executes).
                if let Some(bits) = ret_bits {
                    self.set(st, dest, Value::from_u64(bits, 0));
                }
                Ok(())
            }
            Callee::InlineAsm(text) => Err(Stop::error(
                ErrorKind::Exec,
                format!("inline assembly cannot be executed: `{}`", text.trim()),
            )),
            Callee::Indirect(op) => {
                let fp = self.operand(st, *op)?;
                if let Value::Concrete(b) = &fp {
                    let Some(f) = self.function_at(b.to_u64()) else {
                        return Err(Stop::error(
                            ErrorKind::Ptr,
                            format!(
                                "call through an invalid function pointer 0x{:x}",
                                b.to_u64()
                            ),
                        ));
                    };
                    return self.call_function(st, ctx, dest, f, vals, arg_bits, ret_bits);
                }
                // A symbolic function pointer: one state per possible target.
                let mut targets: Vec<(FuncId, Value)> = Vec::new();
                let mut excluded: Vec<symtest_expr::ExprId> = Vec::new();
                let fpe = fp.expr(&mut self.pool);
                while targets.len() < self.config.max_resolutions as usize {
                    let Some(m) = self.solve(st, &excluded)? else {
                        break;
                    };
                    let addr = self.pool.eval(fpe, &m).to_u64();
                    let eq = self.eq_value(&fp, &Value::from_u64(64, addr));
                    let Some(f) = self.function_at(addr) else {
                        let mut bad = self.fork_state(st);
                        self.add_constraint(&mut bad, &eq);
                        ctx.ended.push((
                            bad,
                            crate::termination::Termination::Error(
                                ErrorKind::Ptr,
                                format!("call through an invalid function pointer 0x{addr:x}"),
                            ),
                        ));
                        let ne = Ops::not(&mut self.pool, &eq);
                        excluded.push(ne.expr(&mut self.pool));
                        continue;
                    };
                    let ne = Ops::not(&mut self.pool, &eq);
                    excluded.push(ne.expr(&mut self.pool));
                    targets.push((f, eq));
                }
                let Some((first_f, first_eq)) = targets.first().cloned() else {
                    return Err(Stop::error(
                        ErrorKind::Ptr,
                        "call through an invalid function pointer",
                    ));
                };
                for (f, eq) in targets.into_iter().skip(1) {
                    let mut child = self.fork_state(st);
                    self.add_constraint(&mut child, &eq);
                    match self.call_function(
                        &mut child,
                        ctx,
                        dest,
                        f,
                        vals.clone(),
                        arg_bits,
                        ret_bits,
                    ) {
                        Ok(()) => ctx.added.push(child),
                        Err(stop) => ctx.ended.push((child, stop.into_termination())),
                    }
                }
                self.add_constraint(st, &first_eq);
                self.call_function(st, ctx, dest, first_f, vals, arg_bits, ret_bits)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call_function(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        f: FuncId,
        args: Vec<Value>,
        arg_bits: &[u32],
        ret_bits: Option<u32>,
    ) -> Exec<()> {
        let f = match st.aliases.iter().find(|(from, _)| *from == f) {
            Some((_, to)) => *to,
            None => f,
        };
        let module = self.module;
        let func = module.function(f);
        if let Some(v) = self.call_libm(st, f, &args)? {
            if let (Some(d), Some(bits)) = (dest, ret_bits) {
                let v = Ops::resize(&mut self.pool, &v, bits);
                st.set_reg(d, v);
            }
            return Ok(());
        }
        if let Some(v) = self.call_strcmp(st, f, &args)? {
            if let Some(d) = dest {
                st.set_reg(d, v);
            }
            return Ok(());
        }
        if let Some(special) = self.special_for(f) {
            let mut call = crate::special::Call {
                st,
                ctx,
                func,
                dest,
                args: &args,
                ret_bits,
            };
            return self.call_special(special, &mut call);
        }
        let Some(body) = &func.body else {
            if func.extern_weak {
                // Natively a jump to address 0.
                return Err(Stop::error(
                    ErrorKind::Ptr,
                    format!(
                        "call of weak function `{}`, which nothing defines (a null function pointer)",
                        func.name
                    ),
                ));
            }
            return Err(Stop::error(
                ErrorKind::External,
                format!(
                    "call of undefined function `{}`: external calls disallowed (no definition, no model, and --external-calls does not run it)",
                    func.name
                ),
            ));
        };
        if st.stack.len() >= MAX_STACK_DEPTH {
            return Err(Stop::error(
                ErrorKind::Exec,
                format!("call stack deeper than {MAX_STACK_DEPTH} frames (runaway recursion?)"),
            ));
        }
        let mut regs = crate::regs::Regs::new(body.num_regs as usize);
        for (i, bits) in func.param_bits.iter().enumerate() {
            let v = match args.get(i) {
                Some(v) => Ops::resize(&mut self.pool, v, *bits),
                None => Value::from_u64(*bits, 0),
            };
            regs.set(i, crate::state::Slot::of(v));
        }
        let varargs = if func.is_vararg {
            Some(self.lay_out_varargs(
                st,
                &args[func.param_bits.len().min(args.len())..],
                &arg_bits[func.param_bits.len().min(arg_bits.len())..],
            ))
        } else {
            None
        };
        st.stack.push(std::rc::Rc::new(Frame {
            func: f,
            regs,
            block: BlockId(0),
            prev_block: None,
            pc: 0,
            cur: 0,
            ret_dest: dest,
            allocas: Vec::new(),
            varargs,
        }));
        Ok(())
    }

    /// Variadic arguments go to an engine object read through `overflow_arg_area`
    /// (x86-64 SysV: each argument 8-byte aligned, 16 for wider ones).
    fn lay_out_varargs(&mut self, st: &mut State, args: &[Value], bits: &[u32]) -> u64 {
        let mut offsets = Vec::with_capacity(args.len());
        let mut size = 0u64;
        for (i, _) in args.iter().enumerate() {
            let w = bits.get(i).copied().unwrap_or(64);
            let bytes = (w as u64).div_ceil(8).max(1);
            let align = if w > 64 { 16 } else { 8 };
            size = size.div_ceil(align) * align;
            offsets.push(size);
            size += bytes.div_ceil(8) * 8;
        }
        let loc = self.current_loc(st);
        let obj = st.memory.allocate_stack(
            size.max(8),
            16,
            ObjKind::Engine,
            Label::Engine(EngineObject::Varargs),
            loc,
        );
        for (i, v) in args.iter().enumerate() {
            let w = bits.get(i).copied().unwrap_or(64);
            let bytes = (w as usize).div_ceil(8).max(1);
            let v = Ops::resize(&mut self.pool, v, bytes as u32 * 8);
            let c = st.memory.contents_mut(obj.base).expect("just allocated");
            c.write(&mut self.pool, offsets[i] as usize, bytes, &v);
        }
        obj.base
    }

    /// `llvm.va_start(list)`: all arguments come from the overflow area.
    pub(crate) fn va_start(&mut self, st: &mut State, ctx: &mut StepCtx, list: &Value) -> Exec<()> {
        let Some(area) = st.frame().varargs else {
            return Err(Stop::error(
                ErrorKind::Exec,
                "va_start in a function that is not variadic",
            ));
        };
        // { i32 gp_offset = 48, i32 fp_offset = 304, ptr overflow_arg_area, ptr reg_save_area }
        let mut image = Vec::with_capacity(24);
        image.extend_from_slice(&48u32.to_le_bytes());
        image.extend_from_slice(&304u32.to_le_bytes());
        image.extend_from_slice(&area.to_le_bytes());
        image.extend_from_slice(&0u64.to_le_bytes());
        let v = Value::Concrete(symtest_expr::Bits::from_bytes_le(192, &image));
        self.with_resolved(
            st,
            ctx,
            list,
            24,
            super::memory_ops::Access::Write,
            &mut |ex, s, base, off| {
                ex.write_at(s, base, off, 24, &v);
                Ok(())
            },
        )
    }

    pub(crate) fn exec_vaarg(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        list: Operand,
        bytes: u32,
        bits: u32,
    ) -> Exec<()> {
        let list = self.operand(st, list)?;
        let slot = self.add_value(&list, &Value::from_u64(64, 8));
        let mut area = Value::from_u64(64, 0);
        self.with_resolved(
            st,
            ctx,
            &slot,
            8,
            super::memory_ops::Access::Read,
            &mut |ex, s, base, off| {
                area = ex.read_at(s, base, off, 8);
                Ok(())
            },
        )?;
        let mut v = Value::from_u64(bits, 0);
        self.with_resolved(
            st,
            ctx,
            &area,
            bytes as u64,
            super::memory_ops::Access::Read,
            &mut |ex, s, base, off| {
                let r = ex.read_at(s, base, off, bytes as usize);
                v = Ops::resize(&mut ex.pool, &r, bits);
                Ok(())
            },
        )?;
        let next = self.add_value(&area, &Value::from_u64(64, (bytes as u64).div_ceil(8) * 8));
        self.with_resolved(
            st,
            ctx,
            &slot,
            8,
            super::memory_ops::Access::Write,
            &mut |ex, s, base, off| {
                ex.write_at(s, base, off, 8, &next);
                Ok(())
            },
        )?;
        self.set(st, dest, v);
        Ok(())
    }
}
