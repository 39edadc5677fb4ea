//! Special functions: the `symtest.h` API (with KLEE's `klee_*` names), the heap,
//! process exit, assertion failure and the UBSan handlers. A table maps names to
//! handlers; the engine's heap functions replace any definition in the program.

use crate::executor::Executor;

use crate::state::{State, SymbolicObject};
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use symtest_expr::ExprId;
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
    /// `__symtest_terminated(s)`: accesses past the first NUL of `s` are errors.
    Terminated,
    /// `__symtest_unsupported(msg)`: a model limitation ends the path.
    Unsupported,
    /// `__symtest_blocked(msg)`: the program waits for an event nothing in
    /// the modelled environment makes (a `poll` without a timeout on an
    /// inotify descriptor): the path ends, natively it would not.
    Blocked,
    /// `setjmp` family: records the continuation; `longjmp` family: resumes it.
    Setjmp,
    Longjmp,
    /// POSIX model: `__symtest_stdout(buf, n)` records bytes written to fd 1.
    Stdout,
    /// `--external-calls concrete`: an allow-listed pure function run natively.
    External(FuncId),
    /// `--external-calls all`: a host C library function (at this address)
    /// run natively in a child process (special_native.rs).
    Native(FuncId, usize),
    /// The rest of KLEE 3's `klee.h` (special_klee.rs).
    GetObjSize,
    Choose,
    IsReplay,
    MarkGlobal,
    CheckMemoryAccess,
    SetForking,
    StackTrace,
    PrintRange,
    /// `klee_open_merge` / `klee_close_merge`.
    Merge,
    GetErrno,
    /// `__errno_location` when no libc defines it.
    ErrnoLocation,
    DefineFixedObject,
    AliasFunction,
    /// `symtest_expect_output`: the suite's oracle records the value
    /// natively; the engine checks it can be read.
    ExpectOutput,
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
/// With `--external-calls concrete`, undefined allow-listed pure functions run
/// natively; with `all`, also any other function the host's C library exports.
pub fn table(module: &symtest_ir::Module, config: &crate::Config) -> Vec<Option<Special>> {
    module
        .functions
        .iter()
        .enumerate()
        .map(|(i, func)| {
            let name = symtest_ir::plain_name(&func.name);
            let undefined = func.body.is_none() && lookup(name).is_none();
            if undefined
                && config.external_calls_concrete
                && crate::special_env::external_fn(name).is_some()
            {
                return Some(Special::External(FuncId(i as u32)));
            }
            if undefined && config.external_calls_all && !name.starts_with("llvm.") {
                if let Some(addr) = crate::native_call::host_symbol(name) {
                    return Some(Special::Native(FuncId(i as u32), addr));
                }
            }
            let (s, overrides) = lookup(name)?;
            (overrides || func.body.is_none()).then_some(s)
        })
        .collect()
}

/// Functions `module` calls or names but defines nowhere, other than the
/// engine's own (special functions, LLVM intrinsics): what a C library would
/// have to provide.
pub fn undefined_functions(module: &symtest_ir::Module) -> Vec<String> {
    module
        .functions
        .iter()
        .filter(|f| f.body.is_none() && !f.extern_weak && !f.name.starts_with("llvm."))
        .filter(|f| lookup(symtest_ir::plain_name(&f.name)).is_none())
        .map(|f| f.name.clone())
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
    } else if api("get_obj_size") {
        GetObjSize
    } else if api("choose") {
        Choose
    } else if api("is_replay") {
        IsReplay
    } else if api("mark_global") {
        MarkGlobal
    } else if api("check_memory_access") {
        CheckMemoryAccess
    } else if api("set_forking") {
        SetForking
    } else if api("stack_trace") {
        StackTrace
    } else if api("print_range") {
        PrintRange
    } else if api("open_merge") || api("close_merge") {
        Merge
    } else if api("get_errno") {
        GetErrno
    } else if api("define_fixed_object") {
        DefineFixedObject
    } else if api("alias_function") {
        AliasFunction
    } else if name == "klee_posix_prefer_cex" {
        PreferCex
    } else if name == "symtest_expect_output" {
        ExpectOutput
    } else {
        match name {
            "malloc" => Malloc,
            "__symtest_aligned_malloc" => AlignedMalloc,
            "malloc_usable_size" => MallocUsableSize,
            "calloc" => Calloc,
            "realloc" => Realloc,
            "free" => Free,
            "__assert_fail" | "__assert_rtn" | "__assert" | "klee_assert_fail" => AssertFail,
            "__errno_location" => ErrnoLocation,
            "abort" => Abort,
            "exit" | "_exit" | "_Exit" | "__symtest_exit" => Exit,
            "__symtest_host_stat" => HostStat,
            "__symtest_host_read" => HostRead,
            "__symtest_model_warning" => ModelWarning,
            "__symtest_terminated" => Terminated,
            "__symtest_unsupported" => Unsupported,
            "__symtest_blocked" => Blocked,
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
    // A libc's errno (and `klee_get_errno` over it, in the musl runtime) wins.
    let overrides = !matches!(s, Exit | Abort | AssertFail | ErrnoLocation | GetErrno);
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
                    return Err(self.prune_assumption(st));
                }
                if let Value::Symbolic(e) = &c {
                    self.repair_seeds(st, *e);
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
                        // Constant bounds that make an empty range are the
                        // harness's error, as KLEE reports it; symbolic ones
                        // that cannot hold here are a false assumption (KLEE's
                        // klee_range assumes the range).
                        if lo.is_concrete() && hi.is_concrete() {
                            return Err(Stop::error(ErrorKind::User, "invalid range: empty"));
                        }
                        return Err(self.prune_assumption(st));
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
                if args.get(3).is_some() {
                    let suffix = self.read_name(st, args.get(3));
                    st.error_suffix = self.report_suffix(&suffix);
                }
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
                let v = self.aligned_malloc(st, args)?;
                ret(self, st, v);
                Ok(())
            }
            Special::MallocUsableSize => {
                let v = self.malloc_usable_size(st, arg(0)?)?;
                ret(self, st, v);
                Ok(())
            }
            Special::Calloc => {
                let v = self.calloc(st, ctx, args)?;
                ret(self, st, v);
                Ok(())
            }
            Special::Realloc => {
                let (p, size) = (arg(0)?.clone(), arg(1)?.clone());
                let slot = crate::special_heap::ResultSlot {
                    dest,
                    bits: ret_bits,
                };
                self.realloc(st, ctx, &p, &size, slot)
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
            Special::Terminated => self.mark_terminated(st, arg(0)?),
            Special::ModelWarning => {
                let msg = self.read_name(st, args.first());
                self.warn_once(format!("model: {msg}"));
                Ok(())
            }
            Special::Unsupported => {
                let msg = self.read_name(st, args.first());
                Err(Stop::error(ErrorKind::Model, msg))
            }
            Special::Blocked => {
                let msg = self.read_name(st, args.first());
                Err(Stop::Terminate(Termination::Blocked(msg)))
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
            Special::Native(callee, addr) => {
                let v = self.call_native(st, callee, addr, args)?;
                if let Some(v) = v {
                    ret(self, st, v);
                }
                Ok(())
            }
            Special::GetObjSize => {
                let v = self.klee_get_obj_size(st, arg(0)?)?;
                ret(self, st, v);
                Ok(())
            }
            Special::Choose => {
                let n = arg(0)?.clone();
                let v = self.klee_choose(st, ctx, &n)?;
                ret(self, st, v);
                Ok(())
            }
            Special::IsReplay => {
                ret(self, st, Value::from_u64(32, 0));
                Ok(())
            }
            Special::MarkGlobal => self.klee_mark_global(st, arg(0)?),
            Special::CheckMemoryAccess => {
                let (p, n) = (arg(0)?.clone(), arg(1)?.clone());
                self.klee_check_memory_access(st, ctx, &p, &n)
            }
            Special::SetForking => {
                let on = self.concretize(st, arg(0)?, "klee_set_forking argument")?;
                st.forking_disabled = on.to_u64() == 0;
                Ok(())
            }
            Special::StackTrace => {
                self.klee_stack_trace(st);
                Ok(())
            }
            Special::ExpectOutput => {
                let (p, n) = (arg(1)?.clone(), arg(2)?.clone());
                self.klee_check_memory_access(st, ctx, &p, &n)
            }
            Special::PrintRange => {
                let name = self.read_name(st, args.first());
                let x = arg(1)?.clone();
                self.klee_print_range(st, &name, &x)
            }
            Special::Merge => {
                self.warn_once(
                    "klee_open_merge/klee_close_merge: paths are not merged (state merging is not implemented; KLEE without --use-merge does the same)".into(),
                );
                Ok(())
            }
            Special::GetErrno => {
                let v = self.klee_get_errno(st);
                ret(self, st, v);
                Ok(())
            }
            Special::ErrnoLocation => {
                let v = self.errno_location(st);
                ret(self, st, v);
                Ok(())
            }
            Special::DefineFixedObject => {
                let (p, n) = (arg(0)?.clone(), arg(1)?.clone());
                self.klee_define_fixed_object(st, &p, &n)
            }
            Special::AliasFunction => {
                let old = self.read_name(st, args.first());
                let new = self.read_name(st, args.get(1));
                self.klee_alias_function(st, &old, &new)
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

    /// A harness's assumption that cannot hold on this path (often the
    /// false side of `&&` in `assume(a && b)`): the path is not one the
    /// harness wants explored. It ends without a test and is no bug of the
    /// code under test; a one-time warning names the line.
    fn prune_assumption(&mut self, st: &State) -> Stop {
        self.stats.assumptions_pruned += 1;
        if !self.config.silent_assume {
            let loc = self.current_loc(st);
            self.warn_once(format!(
                "{}: an assumption is false on some paths (e.g. where `&&` or `||` in it decided the value); they end there without a test",
                self.module.describe_loc(loc)
            ));
        }
        Stop::Terminate(Termination::Silent)
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
    pub(crate) fn fresh_symbolic(&mut self, st: &mut State, name: &str, size: u32) -> Value {
        // A crosscheck's second program reads the first one's input (an
        // object that does not match is a new input of the second).
        let arr = match self.cross_input(st, name, size) {
            Ok(Some(arr)) => arr,
            _ => {
                let arr = self.pool.new_array(name, size);
                std::rc::Rc::make_mut(&mut st.symbolics).push(SymbolicObject {
                    name: name.to_string(),
                    array: arr,
                    size,
                });
                arr
            }
        };
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
        if addr.checked_add(size).is_none_or(|end| end > obj.end()) {
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
        // The run's limits hold inside this one call: bytes that cannot fit
        // under --max-memory are refused before any is built, and the
        // deadline and the cap are checked as the bytes are made.
        if let Err(r) = self
            .refuse_symbolic_size(name, size)
            .and_then(|()| self.reserve_for_symbolic(name, size))
        {
            return Err(self.stop_in_long_op(st, r));
        }
        // A crosscheck's second program reads the first one's input.
        let reused = self.cross_input(st, name, size as u32)?;
        let arr = match reused {
            Some(arr) => arr,
            None => {
                let arr = self.pool.new_array(name, size as u32);
                let index = st.symbolics.len();
                std::rc::Rc::make_mut(&mut st.symbolics).push(SymbolicObject {
                    name: name.to_string(),
                    array: arr,
                    size: size as u32,
                });
                self.bind_seeds(st, index, arr, name, size as u32);
                arr
            }
        };
        let root = self.pool.array(arr);
        let off0 = (addr - obj.base) as usize;
        for i in 0..size as usize {
            if i % crate::budget::LONG_OP_CHECK_EVERY == crate::budget::LONG_OP_CHECK_EVERY - 1 {
                let what = format!("while making `{name}` symbolic ({i} of {size} bytes)");
                if let Some(r) = self.long_op_limit(&what) {
                    // The input was never made: it is not part of the test.
                    if reused.is_none() {
                        std::rc::Rc::make_mut(&mut st.symbolics).pop();
                    }
                    return Err(self.stop_in_long_op(st, r));
                }
            }
            let idx = self.pool.const_u64(32, i as u64);
            let b = self.pool.select(root, idx);
            let c = st.memory.contents_mut(obj.base).expect("found above");
            c.write(&mut self.pool, off0 + i, 1, &Value::Symbolic(b));
        }
        Ok(())
    }
}
