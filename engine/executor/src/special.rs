//! Special functions: the `symtest.h` API (with KLEE's `klee_*` names), the heap,
//! process exit, assertion failure and the UBSan handlers. A table maps names to
//! handlers; the engine's heap functions replace any definition in the program.

use crate::executor::Executor;
use crate::memory::{Label, ObjKind};
use crate::state::{State, SymbolicObject};
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use symtest_expr::{Bits, ExprId};
use symtest_ir::{FuncId, Reg};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Special {
    MakeSymbolic,
    Assume,
    Range,
    Int,
    Assert,
    PreferCex,
    IsSymbolic,
    GetValue,
    SilentExit,
    ReportError,
    Abort,
    PrintExpr,
    Warning,
    Malloc,
    /// `__symtest_aligned_malloc(align, size)`: the musl runtime's aligned
    /// allocation family (`aligned_alloc`, `posix_memalign`, `memalign`).
    AlignedMalloc,
    /// `malloc_usable_size(p)`: the size of the heap object at `p`.
    MallocUsableSize,
    Calloc,
    Realloc,
    Free,
    AssertFail,
    Exit,
    /// `__ubsan_handle_*`: which check failed.
    Ubsan(UbsanCheck),
    /// POSIX model: `__symtest_host_stat`, `__symtest_host_read`.
    HostStat,
    HostRead,
    /// POSIX model: `__symtest_model_warning(msg)` (once per message).
    ModelWarning,
    /// `__symtest_unsupported(msg)`: a model limitation ends the path.
    Unsupported,
    /// `setjmp` family: records the continuation; `longjmp` family: resumes it.
    Setjmp,
    Longjmp,
    /// POSIX model: `__symtest_stdout(buf, n)` records bytes written to fd 1.
    Stdout,
    /// `--external-calls concrete`: an allow-listed pure function run natively.
    External(FuncId),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UbsanCheck {
    Add,
    Sub,
    Mul,
    Negate,
    DivRem,
    Shift,
    PointerOverflow,
    OutOfBounds,
    TypeMismatch,
    Other,
}

/// The special handler of every function of `module` (indexed by `FuncId`).
/// With `external_concrete`, undefined allow-listed pure functions run natively.
pub fn table(module: &symtest_ir::Module, external_concrete: bool) -> Vec<Option<Special>> {
    module
        .functions
        .iter()
        .enumerate()
        .map(|(i, func)| {
            if func.body.is_none()
                && external_concrete
                && crate::special_env::external_fn(&func.name).is_some()
                && lookup(&func.name).is_none()
            {
                return Some(Special::External(FuncId(i as u32)));
            }
            let (s, overrides) = lookup(&func.name)?;
            (overrides || func.body.is_none()).then_some(s)
        })
        .collect()
}

/// The handler for a function name, and whether it replaces a definition.
pub fn lookup(name: &str) -> Option<(Special, bool)> {
    use Special::*;
    let api = |s: &str| {
        name.strip_prefix("symtest_")
            .or_else(|| name.strip_prefix("klee_"))
            .is_some_and(|rest| rest == s)
    };
    let s = if api("make_symbolic") {
        MakeSymbolic
    } else if api("assume") {
        Assume
    } else if api("range") {
        Range
    } else if api("int") {
        Int
    } else if api("assert") {
        Assert
    } else if api("prefer_cex") {
        PreferCex
    } else if api("is_symbolic") {
        IsSymbolic
    } else if name.starts_with("symtest_get_value") || name.starts_with("klee_get_value") {
        GetValue
    } else if api("silent_exit") {
        SilentExit
    } else if api("report_error") {
        ReportError
    } else if api("abort") {
        Abort
    } else if api("print_expr") {
        PrintExpr
    } else if api("warning") || api("warning_once") {
        Warning
    } else {
        match name {
            "malloc" => Malloc,
            "__symtest_aligned_malloc" => AlignedMalloc,
            "malloc_usable_size" => MallocUsableSize,
            "calloc" => Calloc,
            "realloc" => Realloc,
            "free" => Free,
            "__assert_fail" | "__assert_rtn" | "__assert" => AssertFail,
            "abort" => Abort,
            "exit" | "_exit" | "_Exit" | "__symtest_exit" => Exit,
            "__symtest_host_stat" => HostStat,
            "__symtest_host_read" => HostRead,
            "__symtest_model_warning" => ModelWarning,
            "__symtest_unsupported" => Unsupported,
            "__symtest_stdout" => Stdout,
            "setjmp" | "_setjmp" | "sigsetjmp" | "__sigsetjmp" => Setjmp,
            "longjmp" | "_longjmp" | "siglongjmp" => Longjmp,
            _ => {
                let check = name.strip_prefix("__ubsan_handle_")?;
                let check = check.strip_suffix("_abort").unwrap_or(check);
                Ubsan(match check {
                    "add_overflow" => UbsanCheck::Add,
                    "sub_overflow" => UbsanCheck::Sub,
                    "mul_overflow" => UbsanCheck::Mul,
                    "negate_overflow" => UbsanCheck::Negate,
                    "divrem_overflow" => UbsanCheck::DivRem,
                    "shift_out_of_bounds" => UbsanCheck::Shift,
                    "pointer_overflow" => UbsanCheck::PointerOverflow,
                    "out_of_bounds" => UbsanCheck::OutOfBounds,
                    "type_mismatch" | "type_mismatch_v1" => UbsanCheck::TypeMismatch,
                    _ => UbsanCheck::Other,
                })
            }
        }
    };
    // The symtest API, the heap and exit are the engine's own, whatever the program
    // defines (the native replay runtime defines the API too).
    let overrides = !matches!(s, Exit | Abort | AssertFail);
    Some((s, overrides))
}

impl Executor<'_> {
    /// The special handler for `f`, if the call must go to the engine.
    pub(crate) fn special_for(&self, f: FuncId) -> Option<Special> {
        self.specials[f.0 as usize]
    }

    pub(crate) fn call_special(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        special: Special,
        args: &[Value],
        ret_bits: Option<u32>,
    ) -> Exec<()> {
        let arg = |i: usize| -> Exec<&Value> {
            args.get(i).ok_or_else(|| {
                Stop::error(
                    ErrorKind::Exec,
                    format!("{special:?} called with too few arguments"),
                )
            })
        };
        let ret = |ex: &mut Self, st: &mut State, v: Value| {
            if let (Some(d), Some(bits)) = (dest, ret_bits) {
                let v = Ops::resize(&mut ex.pool, &v, bits);
                st.set_reg(d, v);
            }
        };
        match special {
            Special::MakeSymbolic => {
                let (p, n) = (arg(0)?.clone(), arg(1)?.clone());
                let name = self.read_name(st, args.get(2));
                self.make_symbolic(st, ctx, &p, &n, &name)
            }
            Special::Assume => {
                let c = self.nonzero(arg(0)?);
                if !self.may_be_true(st, &c)? {
                    return Err(Stop::error(
                        ErrorKind::User,
                        "invalid assumption: provably false on this path",
                    ));
                }
                self.add_constraint(st, &c);
                Ok(())
            }
            Special::Range | Special::Int => {
                if special == Special::Range {
                    // As KLEE: a one-value range creates no symbolic object.
                    if let (Some(Value::Concrete(lo)), Some(Value::Concrete(hi))) =
                        (args.first(), args.get(1))
                    {
                        if hi.to_i64().wrapping_sub(lo.to_i64()) == 1 {
                            let v = Value::Concrete(lo.clone());
                            ret(self, st, v);
                            return Ok(());
                        }
                    }
                }
                let (name, lo, hi) = if special == Special::Range {
                    (
                        self.read_name(st, args.get(2)),
                        Some(arg(0)?.clone()),
                        Some(arg(1)?.clone()),
                    )
                } else {
                    (self.read_name(st, args.first()), None, None)
                };
                let x = self.fresh_symbolic(st, &name, 4);
                if let (Some(lo), Some(hi)) = (lo, hi) {
                    let lo = Ops::resize(&mut self.pool, &lo, 32);
                    let hi = Ops::resize(&mut self.pool, &hi, 32);
                    let ge = Ops::cmp(&mut self.pool, symtest_expr::CmpOp::Sle, &lo, &x);
                    let lt = Ops::cmp(&mut self.pool, symtest_expr::CmpOp::Slt, &x, &hi);
                    let c = Ops::bin(&mut self.pool, symtest_expr::BinOp::And, &ge, &lt);
                    if !self.may_be_true(st, &c)? {
                        return Err(Stop::error(ErrorKind::User, "invalid range: empty"));
                    }
                    self.add_constraint(st, &c);
                }
                ret(self, st, x);
                Ok(())
            }
            Special::Assert => {
                let bad = {
                    let nz = self.nonzero(arg(0)?);
                    Ops::not(&mut self.pool, &nz)
                };
                self.check_error(st, ctx, &bad, ErrorKind::Assert, "assertion failed")
            }
            Special::PreferCex => {
                let c = self.nonzero(arg(1)?);
                if let Value::Symbolic(e) = c {
                    st.preferences.push(e);
                }
                Ok(())
            }
            Special::IsSymbolic => {
                let v = Value::from_u64(32, u64::from(!arg(0)?.is_concrete()));
                ret(self, st, v);
                Ok(())
            }
            Special::GetValue => {
                // As KLEE: a value the expression can take; the path is not constrained.
                let v = arg(0)?.clone();
                let b = self.get_value(st, &v)?;
                ret(self, st, Value::Concrete(b));
                Ok(())
            }
            Special::SilentExit => Err(Stop::Terminate(Termination::Silent)),
            Special::ReportError => {
                let msg = self.read_name(st, args.get(2));
                Err(Stop::error(ErrorKind::User, msg))
            }
            Special::Abort => Err(Stop::error(ErrorKind::Abort, "abort() called")),
            Special::PrintExpr => {
                let msg = self.read_name(st, args.first());
                let text = match args.get(1) {
                    Some(Value::Symbolic(e)) => format!("{msg}: {}", self.pool.display(*e)),
                    Some(Value::Concrete(b)) => format!("{msg}: {b}"),
                    None => msg,
                };
                self.sink.event(crate::Event::Print(&text));
                Ok(())
            }
            Special::Warning => {
                let msg = self.read_name(st, args.first());
                let func = self.module.function(st.frame().func).name.clone();
                self.warn_once(format!("{func}: {msg}"));
                Ok(())
            }
            Special::Malloc => {
                let size = arg(0)?.clone();
                let p = self.malloc(st, ctx, &size, false)?;
                ret(self, st, p);
                Ok(())
            }
            Special::AlignedMalloc => {
                let align = self
                    .concretize(st, arg(0)?, "allocation alignment")?
                    .to_u64();
                let n = self.concretize(st, arg(1)?, "allocation size")?.to_u64();
                let v = if n > self.config.max_alloc_size || align > 4096 {
                    self.warn_once(format!(
                        "aligned allocation of {n} bytes at {align} refused (returns NULL); limits are --max-alloc-size and 4096-byte alignment"
                    ));
                    Value::from_u64(64, 0)
                } else {
                    let loc = self.current_loc(st);
                    let obj = st
                        .memory
                        .allocate(n, align, ObjKind::Heap, Label::Heap, loc);
                    Value::from_u64(64, obj.base)
                };
                ret(self, st, v);
                Ok(())
            }
            Special::MallocUsableSize => {
                let p = self
                    .concretize(st, arg(0)?, "malloc_usable_size pointer")?
                    .to_u64();
                let n = match st.memory.get(p) {
                    _ if p == 0 => 0,
                    Some(e) if !e.freed() && e.object.kind == ObjKind::Heap => e.object.size,
                    _ => {
                        return Err(Stop::error(
                            ErrorKind::Ptr,
                            format!(
                                "malloc_usable_size of 0x{p:x}, which is not a live heap object"
                            ),
                        ))
                    }
                };
                ret(self, st, Value::from_u64(64, n));
                Ok(())
            }
            Special::Calloc => {
                let n = self.concretize(st, arg(0)?, "calloc count")?.to_u64();
                let sz = self.concretize(st, arg(1)?, "calloc size")?.to_u64();
                let v = match n.checked_mul(sz) {
                    Some(total) => self.malloc(st, ctx, &Value::from_u64(64, total), true)?,
                    None => Value::from_u64(64, 0),
                };
                ret(self, st, v);
                Ok(())
            }
            Special::Realloc => {
                let p = arg(0)?.clone();
                let size = arg(1)?.clone();
                let v = self.realloc(st, ctx, &p, &size)?;
                ret(self, st, v);
                Ok(())
            }
            Special::Free => {
                let p = arg(0)?.clone();
                self.free(st, ctx, &p)
            }
            Special::AssertFail => {
                let text = self.read_name(st, args.first());
                Err(Stop::error(
                    ErrorKind::Assert,
                    format!("assertion failed: {text}"),
                ))
            }
            Special::Exit => {
                let code = self.concretize(st, arg(0)?, "exit status")?;
                Err(Stop::Terminate(Termination::Exit(code.to_i64())))
            }
            Special::Ubsan(check) => Err(self.ubsan(st, check, args)),
            Special::HostStat => {
                let v = self.host_stat(st, args)?;
                ret(self, st, v);
                Ok(())
            }
            Special::HostRead => {
                let v = self.host_read(st, args)?;
                ret(self, st, v);
                Ok(())
            }
            Special::ModelWarning => {
                let msg = self.read_name(st, args.first());
                self.warn_once(format!("model: {msg}"));
                Ok(())
            }
            Special::Unsupported => {
                let msg = self.read_name(st, args.first());
                Err(Stop::error(ErrorKind::Model, msg))
            }
            Special::Setjmp => {
                let buf = arg(0)?.clone();
                self.setjmp(st, dest, &buf)?;
                ret(self, st, Value::from_u64(32, 0));
                Ok(())
            }
            Special::Longjmp => {
                let (buf, val) = (arg(0)?.clone(), arg(1)?.clone());
                self.longjmp(st, &buf, &val)
            }
            Special::Stdout => {
                let (buf, n) = (arg(0)?.clone(), arg(1)?.clone());
                self.record_stdout(st, &buf, &n)
            }
            Special::External(callee) => {
                let name = self.module.function(callee).name.clone();
                let f = crate::special_env::external_fn(&name).expect("allow-listed in table()");
                let v = self.call_external(st, &name, f, args)?;
                ret(self, st, v);
                Ok(())
            }
        }
    }

    fn ubsan(&mut self, st: &mut State, check: UbsanCheck, args: &[Value]) -> Stop {
        let (kind, msg) = match check {
            UbsanCheck::Add => (ErrorKind::Overflow, "integer overflow in addition"),
            UbsanCheck::Sub => (ErrorKind::Overflow, "integer overflow in subtraction"),
            UbsanCheck::Mul => (ErrorKind::Overflow, "integer overflow in multiplication"),
            UbsanCheck::Negate => (ErrorKind::Overflow, "integer overflow in negation"),
            UbsanCheck::DivRem => {
                // The divisor is the third argument: zero means division by zero.
                let zero = args.get(2).map(|d| {
                    let z = Value::from_u64(d.width(&self.pool), 0);
                    self.eq_value(d, &z)
                });
                let by_zero = match zero {
                    Some(z) => self.must_be_true(st, &z).unwrap_or(false),
                    None => false,
                };
                if by_zero {
                    (ErrorKind::Div, "division by zero")
                } else {
                    (
                        ErrorKind::Overflow,
                        "integer overflow in division (INT_MIN / -1)",
                    )
                }
            }
            UbsanCheck::Shift => (ErrorKind::Overflow, "shift amount out of bounds"),
            UbsanCheck::PointerOverflow => (ErrorKind::Overflow, "pointer arithmetic overflow"),
            UbsanCheck::OutOfBounds => (ErrorKind::Ptr, "array index out of bounds"),
            UbsanCheck::TypeMismatch => (ErrorKind::Ptr, "misaligned or null pointer use"),
            UbsanCheck::Other => (
                ErrorKind::Overflow,
                "undefined behaviour detected by a UBSan check",
            ),
        };
        Stop::error(kind, msg)
    }

    fn nonzero(&mut self, v: &Value) -> Value {
        let w = v.width(&self.pool);
        let z = Value::from_u64(w, 0);
        let eq = self.eq_value(v, &z);
        Ops::not(&mut self.pool, &eq)
    }

    /// A NUL-terminated string argument (names, messages); symbolic bytes become '?'.
    pub(crate) fn read_name(&mut self, st: &mut State, p: Option<&Value>) -> String {
        let Some(Value::Concrete(b)) = p else {
            return "unnamed".into();
        };
        let addr = b.to_u64();
        let Some(entry) = st.memory.find(addr) else {
            return "unnamed".into();
        };
        let (base, end) = (entry.object.base, entry.object.end());
        let contents = entry.contents.clone();
        let mut out = Vec::new();
        let mut a = addr;
        while a < end && out.len() < 4096 {
            match contents.concrete_bytes((a - base) as usize, 1).as_deref() {
                Some([0]) => break,
                Some([c]) => out.push(*c),
                _ => out.push(b'?'),
            }
            a += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// A fresh symbolic input of `size` bytes not backed by memory (`symtest_int`).
    fn fresh_symbolic(&mut self, st: &mut State, name: &str, size: u32) -> Value {
        let arr = self.pool.new_array(name, size);
        std::rc::Rc::make_mut(&mut st.symbolics).push(SymbolicObject {
            name: name.to_string(),
            array: arr,
            size,
        });
        let root = self.pool.array(arr);
        let mut acc: Option<ExprId> = None;
        for i in 0..size {
            let idx = self.pool.const_u64(32, i as u64);
            let b = self.pool.select(root, idx);
            acc = Some(match acc {
                None => b,
                Some(lo) => self.pool.concat(b, lo),
            });
        }
        Value::Symbolic(acc.expect("size > 0"))
    }

    fn make_symbolic(
        &mut self,
        st: &mut State,
        _ctx: &mut StepCtx,
        p: &Value,
        n: &Value,
        name: &str,
    ) -> Exec<()> {
        let addr = self.concretize(st, p, "make_symbolic address")?.to_u64();
        let size = self.concretize(st, n, "make_symbolic size")?.to_u64();
        let Some(entry) = st.memory.find(addr).filter(|e| !e.freed()) else {
            return Err(Stop::error(
                ErrorKind::User,
                "make_symbolic on an invalid address",
            ));
        };
        let obj = entry.object.clone();
        if addr + size > obj.end() {
            return Err(Stop::error(
                ErrorKind::User,
                "make_symbolic beyond the end of the object",
            ));
        }
        if size == 0 || size > u32::MAX as u64 {
            return Err(Stop::error(
                ErrorKind::User,
                format!("make_symbolic of {size} bytes"),
            ));
        }
        let arr = self.pool.new_array(name, size as u32);
        std::rc::Rc::make_mut(&mut st.symbolics).push(SymbolicObject {
            name: name.to_string(),
            array: arr,
            size: size as u32,
        });
        let root = self.pool.array(arr);
        let off0 = (addr - obj.base) as usize;
        for i in 0..size as usize {
            let idx = self.pool.const_u64(32, i as u64);
            let b = self.pool.select(root, idx);
            let c = st.memory.contents_mut(obj.base).expect("found above");
            c.write(&mut self.pool, off0 + i, 1, &Value::Symbolic(b));
        }
        Ok(())
    }

    fn malloc(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        size: &Value,
        _zero: bool,
    ) -> Exec<Value> {
        let size = match size {
            Value::Concrete(b) => b.clone(),
            sym => self.symbolic_size(st, ctx, sym)?,
        };
        let n = size.to_u64();
        if n > self.config.max_alloc_size {
            self.warn_once(format!(
                "allocation of {n} bytes refused (returns NULL); limit is --max-alloc-size"
            ));
            return Ok(Value::from_u64(64, 0));
        }
        let loc = self.current_loc(st);
        let obj = st.memory.allocate(n, 16, ObjKind::Heap, Label::Heap, loc);
        Ok(Value::from_u64(64, obj.base))
    }

    /// A symbolic allocation size: a few concrete sizes, one state each.
    fn symbolic_size(&mut self, st: &mut State, ctx: &mut StepCtx, size: &Value) -> Exec<Bits> {
        let e = size.expr(&mut self.pool);
        let mut sizes: Vec<(Bits, Value)> = Vec::new();
        let mut excluded: Vec<ExprId> = Vec::new();
        while sizes.len() < self.config.max_sym_alloc_sizes as usize {
            let Some(m) = self.solve(st, &excluded)? else {
                break;
            };
            let b = self.pool.eval(e, &m);
            let eq = self.eq_value(size, &Value::Concrete(b.clone()));
            let ne = Ops::not(&mut self.pool, &eq);
            excluded.push(ne.expr(&mut self.pool));
            sizes.push((b, eq));
        }
        self.warn_once(format!(
            "symbolic allocation size: trying {} concrete size(s), other sizes are not explored",
            sizes.len()
        ));
        let mut it = sizes.into_iter();
        let (first, first_eq) = it
            .next()
            .ok_or_else(|| Stop::error(ErrorKind::Solver, "no allocation size feasible"))?;
        // Other sizes re-run the call in forked states (pc still points after it,
        // so they allocate here directly).
        for (b, eq) in it {
            let mut child = self.fork_state(st);
            self.add_constraint(&mut child, &eq);
            let frame = child.frame().clone();
            let inst_dest = self
                .module
                .function(frame.func)
                .body
                .as_ref()
                .expect("defined")
                .insts[frame.cur as usize]
                .dest;
            match self.malloc(&mut child, ctx, &Value::Concrete(b), false) {
                Ok(v) => {
                    if let Some(d) = inst_dest {
                        child.set_reg(d, v);
                    }
                    ctx.added.push(child);
                }
                Err(stop) => ctx.ended.push((child, stop.into_termination())),
            }
        }
        self.add_constraint(st, &first_eq);
        Ok(first)
    }

    fn free(&mut self, st: &mut State, ctx: &mut StepCtx, p: &Value) -> Exec<()> {
        let addr = match p {
            Value::Concrete(b) => b.to_u64(),
            Value::Symbolic(_) => self.resolve_freed_pointer(st, ctx, p)?,
        };
        if addr == 0 {
            return Ok(());
        }
        let Some(entry) = st.memory.find_below(addr) else {
            return Err(Stop::error(ErrorKind::Free, "free of an invalid pointer"));
        };
        let obj = entry.object.clone();
        let freed = entry.freed();
        if addr != obj.base {
            let msg = if obj.contains(addr) {
                format!(
                    "free of an interior pointer (offset {} into `{}`)",
                    addr - obj.base,
                    obj.name(self.module)
                )
            } else {
                "free of an invalid pointer".to_string()
            };
            return Err(Stop::error(ErrorKind::Free, msg));
        }
        match obj.kind {
            ObjKind::Stack => {
                return Err(Stop::error(
                    ErrorKind::Free,
                    format!("free of alloca `{}`", obj.name(self.module)),
                ))
            }
            ObjKind::Global(_) => {
                return Err(Stop::error(
                    ErrorKind::Free,
                    format!("free of global `{}`", obj.name(self.module)),
                ))
            }
            ObjKind::Engine => {
                return Err(Stop::error(
                    ErrorKind::Free,
                    format!("free of `{}`", obj.name(self.module)),
                ))
            }
            ObjKind::Heap => {}
        }
        if freed {
            return Err(Stop::error(
                ErrorKind::Free,
                format!(
                    "double free of the object allocated at {}",
                    self.module.describe_loc(obj.alloc_loc)
                ),
            ));
        }
        st.memory.mark_freed(obj.base);
        Ok(())
    }

    /// A symbolic pointer given to `free`: NULL (a no-op, forked off when possible)
    /// or exactly the start of the object an example address lies in; anything else
    /// is an invalid free, forked off as an error.
    fn resolve_freed_pointer(&mut self, st: &mut State, ctx: &mut StepCtx, p: &Value) -> Exec<u64> {
        let null = self.eq_value(p, &Value::from_u64(64, 0));
        if self.may_be_true(st, &null)? {
            let not_null = Ops::not(&mut self.pool, &null);
            if !self.may_be_true(st, &not_null)? {
                return Ok(0);
            }
            let mut child = self.fork_state(st);
            self.add_constraint(&mut child, &null);
            ctx.added.push(child);
            self.add_constraint(st, &not_null);
        }
        let example = self.get_value(st, p)?.to_u64();
        let (base, inside) = match st.memory.find_below(example) {
            Some(e) => (e.object.base, e.object.contains(example)),
            None => (example, false),
        };
        let at_base = self.eq_value(p, &Value::from_u64(64, base));
        let bad = Ops::not(&mut self.pool, &at_base);
        let msg = if inside {
            "free of an interior pointer"
        } else {
            "free of an invalid pointer"
        };
        self.check_error(st, ctx, &bad, ErrorKind::Free, msg)?;
        Ok(base)
    }

    fn realloc(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        p: &Value,
        size: &Value,
    ) -> Exec<Value> {
        let addr = self
            .concretize(st, p, "pointer passed to realloc")?
            .to_u64();
        if addr == 0 {
            return self.malloc(st, ctx, size, false);
        }
        let n = self.concretize(st, size, "realloc size")?.to_u64();
        let Some(entry) = st
            .memory
            .find(addr)
            .filter(|e| !e.freed() && e.object.base == addr)
        else {
            return Err(Stop::error(
                ErrorKind::Free,
                "realloc of an invalid pointer",
            ));
        };
        let old = entry.object.clone();
        if old.kind != ObjKind::Heap {
            return Err(Stop::error(
                ErrorKind::Free,
                format!("realloc of non-heap memory `{}`", old.name(self.module)),
            ));
        }
        let new = self.malloc(st, ctx, &Value::from_u64(64, n), false)?;
        let new_base = new.as_concrete().map_or(0, |b| b.to_u64());
        if new_base != 0 {
            let keep = old.size.min(n) as usize;
            let contents = st.memory.get(old.base).expect("found").contents.clone();
            for i in 0..keep {
                let b = contents.read(&mut self.pool, i, 1);
                let c = st.memory.contents_mut(new_base).expect("allocated");
                c.write(&mut self.pool, i, 1, &b);
            }
            st.memory.mark_freed(old.base);
        }
        Ok(new)
    }
}
