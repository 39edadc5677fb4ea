//! Special functions: the `symtest.h` API (with KLEE's `klee_*` names), the heap,
//! process exit, assertion failure and the UBSan handlers. One table,
//! [`SPECIALS`], has a row per function: the names it answers to, whether it
//! replaces a definition in the program, and its handler (module `handle`).
//! Adding a special function is one row and one handler.

use crate::executor::Executor;

use crate::special_env::ExtFn;
use crate::state::{State, SymbolicObject};
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use symtest_expr::ExprId;
use symtest_ir::{FuncId, Function, Reg};

/// What a call of a function goes to instead of the function's body.
#[derive(Clone, Copy)]
pub enum Special {
    /// The engine's own function: a row of [`SPECIALS`].
    Engine(&'static SpecialFn),
    /// `--external-calls concrete`: an allow-listed pure function run natively.
    External(ExtFn),
    /// `--external-calls all`: a host C library function (at this address)
    /// run natively in a child process (special_native.rs).
    Native(FuncId, usize),
}

/// One special function: the names it answers to, whether the engine's
/// handler replaces a definition the program has, and the handler.
pub struct SpecialFn {
    names: &'static [Name],
    if_defined: IfDefined,
    handler: Handler,
}

/// A special function's handler: does what the call does, on the engine's
/// side (sets the call's result through [`Call::ret`]).
type Handler = fn(&mut Executor<'_>, &mut Call<'_>) -> Exec<()>;

/// A name a special function answers to, as the program (either program of
/// a crosscheck, [`symtest_ir::plain_name`]) spells it.
enum Name {
    /// `symtest_<s>` and KLEE's `klee_<s>`.
    Api(&'static str),
    /// Every name starting with `symtest_<s>` or `klee_<s>`
    /// (`klee_get_value_i32`, `klee_get_valuel`, ...).
    ApiFamily(&'static str),
    /// Exactly this name.
    Exact(&'static str),
    /// Every name starting with this one (`__ubsan_handle_*`).
    Family(&'static str),
}

impl Name {
    fn matches(&self, name: &str) -> bool {
        let api_rest = || {
            name.strip_prefix("symtest_")
                .or_else(|| name.strip_prefix("klee_"))
        };
        match *self {
            Name::Api(s) => api_rest() == Some(s),
            Name::ApiFamily(s) => api_rest().is_some_and(|rest| rest.starts_with(s)),
            Name::Exact(s) => name == s,
            Name::Family(prefix) => name.starts_with(prefix),
        }
    }
}

/// What a definition of the function in the program does to the engine's handler.
#[derive(Clone, Copy, PartialEq, Eq)]
enum IfDefined {
    /// The engine's handler runs whatever the program defines (the symtest API,
    /// the heap: the native replay runtime defines the API too).
    Replace,
    /// The program's definition wins (exit, abort, assertion failure, and a
    /// libc's errno, with `klee_get_errno` over it in the musl runtime).
    Keep,
}

impl SpecialFn {
    const fn new(names: &'static [Name], if_defined: IfDefined, handler: Handler) -> Self {
        SpecialFn {
            names,
            if_defined,
            handler,
        }
    }
}

/// The special functions, one row each: a name matches the first row that
/// names it.
#[rustfmt::skip]
static SPECIALS: &[SpecialFn] = {
    use IfDefined::{Keep, Replace};
    use Name::{Api, ApiFamily, Exact, Family};
    &[
        // symtest.h, with KLEE's klee.h names.
        SpecialFn::new(&[Api("make_symbolic")], Replace, handle::make_symbolic),
        SpecialFn::new(&[Api("assume")], Replace, handle::assume),
        SpecialFn::new(&[Api("range")], Replace, handle::range),
        SpecialFn::new(&[Api("int")], Replace, handle::int),
        SpecialFn::new(&[Api("assert")], Replace, handle::assert),
        SpecialFn::new(&[Api("prefer_cex"), Exact("klee_posix_prefer_cex")], Replace, handle::prefer_cex),
        SpecialFn::new(&[Api("is_symbolic")], Replace, handle::is_symbolic),
        SpecialFn::new(&[ApiFamily("get_value")], Replace, handle::get_value),
        SpecialFn::new(&[Api("silent_exit")], Replace, handle::silent_exit),
        SpecialFn::new(&[Api("report_error")], Replace, handle::report_error),
        SpecialFn::new(&[Api("abort"), Exact("abort")], Keep, handle::abort),
        SpecialFn::new(&[Api("print_expr")], Replace, handle::print_expr),
        SpecialFn::new(&[Api("warning"), Api("warning_once")], Replace, handle::warning),
        // The rest of KLEE 3's klee.h (special_klee.rs).
        SpecialFn::new(&[Api("get_obj_size")], Replace, handle::get_obj_size),
        SpecialFn::new(&[Api("choose")], Replace, handle::choose),
        SpecialFn::new(&[Api("is_replay")], Replace, handle::is_replay),
        SpecialFn::new(&[Api("mark_global")], Replace, handle::mark_global),
        SpecialFn::new(&[Api("check_memory_access")], Replace, handle::check_memory_access),
        SpecialFn::new(&[Api("set_forking")], Replace, handle::set_forking),
        SpecialFn::new(&[Api("stack_trace")], Replace, handle::stack_trace),
        SpecialFn::new(&[Api("print_range")], Replace, handle::print_range),
        SpecialFn::new(&[Api("open_merge"), Api("close_merge")], Replace, handle::merge),
        SpecialFn::new(&[Api("get_errno")], Keep, handle::get_errno),
        SpecialFn::new(&[Api("define_fixed_object")], Replace, handle::define_fixed_object),
        SpecialFn::new(&[Api("alias_function")], Replace, handle::alias_function),
        SpecialFn::new(&[Exact("symtest_expect_output")], Replace, handle::expect_output),
        SpecialFn::new(&[Exact("symtest_points_into")], Replace, handle::points_into),
        // The heap (special_heap.rs).
        SpecialFn::new(&[Exact("malloc")], Replace, handle::malloc),
        SpecialFn::new(&[Exact("__symtest_aligned_malloc")], Replace, handle::aligned_malloc),
        SpecialFn::new(&[Exact("malloc_usable_size")], Replace, handle::malloc_usable_size),
        SpecialFn::new(&[Exact("calloc")], Replace, handle::calloc),
        SpecialFn::new(&[Exact("realloc")], Replace, handle::realloc),
        SpecialFn::new(&[Exact("free")], Replace, handle::free),
        // The process's end and the C library's hooks.
        SpecialFn::new(
            &[Exact("__assert_fail"), Exact("__assert_rtn"), Exact("__assert"), Exact("klee_assert_fail")],
            Keep,
            handle::assert_fail,
        ),
        SpecialFn::new(&[Exact("__errno_location")], Keep, handle::errno_location),
        SpecialFn::new(&[Exact("exit"), Exact("_exit"), Exact("_Exit"), Exact("__symtest_exit")], Keep, handle::exit),
        // The POSIX model (libc-models/posix, special_env.rs).
        SpecialFn::new(&[Exact("__symtest_host_stat")], Replace, handle::host_stat),
        SpecialFn::new(&[Exact("__symtest_host_read")], Replace, handle::host_read),
        SpecialFn::new(&[Exact("__symtest_model_warning")], Replace, handle::model_warning),
        SpecialFn::new(&[Exact("__symtest_terminated")], Replace, handle::terminated),
        SpecialFn::new(&[Exact("__symtest_unsupported")], Replace, handle::unsupported),
        SpecialFn::new(&[Exact("__symtest_blocked")], Replace, handle::blocked),
        SpecialFn::new(&[Exact("__symtest_stdout")], Replace, handle::stdout),
        SpecialFn::new(
            &[Exact("setjmp"), Exact("_setjmp"), Exact("sigsetjmp"), Exact("__sigsetjmp")],
            Replace,
            handle::setjmp,
        ),
        SpecialFn::new(&[Exact("longjmp"), Exact("_longjmp"), Exact("siglongjmp")], Replace, handle::longjmp),
        // UBSan's handlers: which check failed is in the name.
        SpecialFn::new(&[Family("__ubsan_handle_")], Replace, handle::ubsan),
    ]
};

/// A UBSan check, from its handler's name (`__ubsan_handle_<check>[_abort]`).
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

impl UbsanCheck {
    fn of_handler(name: &str) -> UbsanCheck {
        let check = name.strip_prefix("__ubsan_handle_").unwrap_or(name);
        let check = check.strip_suffix("_abort").unwrap_or(check);
        match check {
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
        }
    }
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
            if undefined && config.external_calls_concrete {
                if let Some(f) = crate::special_env::external_fn(name) {
                    return Some(Special::External(f));
                }
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
    let f = SPECIALS
        .iter()
        .find(|f| f.names.iter().any(|n| n.matches(name)))?;
    Some((Special::Engine(f), f.if_defined == IfDefined::Replace))
}

/// One call of a special function: the state it runs in, its arguments and
/// where its result goes.
pub(crate) struct Call<'a> {
    pub st: &'a mut State,
    pub ctx: &'a mut StepCtx,
    /// The function called.
    pub func: &'a Function,
    pub dest: Option<Reg>,
    pub args: &'a [Value],
    pub ret_bits: Option<u32>,
}

impl<'a> Call<'a> {
    /// Argument `i`: an error if the call passes fewer.
    fn arg(&self, i: usize) -> Exec<&'a Value> {
        self.args.get(i).ok_or_else(|| {
            Stop::error(
                ErrorKind::Exec,
                format!(
                    "`{}` called with too few arguments",
                    symtest_ir::plain_name(&self.func.name)
                ),
            )
        })
    }

    /// The call's result (resized to the call's type; dropped if unused).
    fn ret(&mut self, ex: &mut Executor<'_>, v: Value) -> Exec<()> {
        if let (Some(d), Some(bits)) = (self.dest, self.ret_bits) {
            let v = Ops::resize(&mut ex.pool, &v, bits);
            self.st.set_reg(d, v);
        }
        Ok(())
    }
}

impl Executor<'_> {
    /// The special handler for `f`, if the call must go to the engine.
    pub(crate) fn special_for(&self, f: FuncId) -> Option<Special> {
        self.specials[f.0 as usize]
    }

    pub(crate) fn call_special(&mut self, special: Special, call: &mut Call<'_>) -> Exec<()> {
        match special {
            Special::Engine(f) => (f.handler)(self, call),
            Special::External(f) => {
                let v = self.call_external(call.st, &call.func.name, f, call.args)?;
                call.ret(self, v)
            }
            Special::Native(callee, addr) => {
                match self.call_native(call.st, callee, addr, call.args)? {
                    Some(v) => call.ret(self, v),
                    None => Ok(()),
                }
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

/// The handlers of [`SPECIALS`], one per special function.
mod handle;

#[cfg(test)]
mod tests {
    use super::*;

    /// The row `name` finds, and whether it replaces a definition.
    fn row(name: &str) -> Option<(*const SpecialFn, bool)> {
        lookup(name).map(|(s, replaces)| match s {
            Special::Engine(f) => (f as *const SpecialFn, replaces),
            _ => unreachable!("lookup finds the engine's functions"),
        })
    }

    #[test]
    fn every_name_finds_its_own_row() {
        for f in SPECIALS {
            for n in f.names {
                let spellings = match *n {
                    Name::Api(s) | Name::ApiFamily(s) => {
                        vec![format!("symtest_{s}"), format!("klee_{s}")]
                    }
                    Name::Exact(s) | Name::Family(s) => vec![s.to_string()],
                };
                for name in spellings {
                    let (found, _) = row(&name).expect("a special name");
                    assert!(
                        std::ptr::eq(found, f),
                        "`{name}` is shadowed by an earlier row"
                    );
                }
            }
        }
    }

    #[test]
    fn names_families_and_definitions() {
        assert_eq!(row("symtest_assume"), row("klee_assume"));
        assert!(row("assume").is_none() && row("klee_assume_x").is_none());
        assert_eq!(row("klee_get_value_i32"), row("symtest_get_value"));
        assert_eq!(row("klee_posix_prefer_cex"), row("symtest_prefer_cex"));
        assert!(row("symtest_expect_output").is_some() && row("klee_expect_output").is_none());
        assert_eq!(row("klee_abort"), row("abort"));
        assert_eq!(
            row("__ubsan_handle_foo"),
            row("__ubsan_handle_add_overflow_abort")
        );
        // The program's definition wins for the process's end and errno.
        for name in [
            "exit",
            "_Exit",
            "abort",
            "klee_abort",
            "__assert_fail",
            "__errno_location",
            "klee_get_errno",
        ] {
            assert_eq!(
                row(name).map(|(_, replaces)| replaces),
                Some(false),
                "{name}"
            );
        }
        for name in [
            "malloc",
            "free",
            "klee_make_symbolic",
            "setjmp",
            "__ubsan_handle_x",
        ] {
            assert_eq!(
                row(name).map(|(_, replaces)| replaces),
                Some(true),
                "{name}"
            );
        }
        assert!(row("main").is_none() && row("mallocx").is_none());
    }

    #[test]
    fn ubsan_checks_by_name() {
        let of = UbsanCheck::of_handler;
        assert_eq!(of("__ubsan_handle_add_overflow"), UbsanCheck::Add);
        assert_eq!(
            of("__ubsan_handle_divrem_overflow_abort"),
            UbsanCheck::DivRem
        );
        assert_eq!(
            of("__ubsan_handle_type_mismatch_v1"),
            UbsanCheck::TypeMismatch
        );
        assert_eq!(
            of("__ubsan_handle_vla_bound_not_positive"),
            UbsanCheck::Other
        );
    }
}
