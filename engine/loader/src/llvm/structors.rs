//! Global constructors and destructors (`@llvm.global_ctors`,
//! `@llvm.global_dtors`: C's `__attribute__((constructor))` and
//! `((destructor))`), which natively the C runtime runs around `main`. As KLEE
//! injects calls of them into its entry function, the loader adds code that runs
//! them to the module:
//!
//! * `main` starts by calling `__symtest_global_init(argc, argv, envp)`, which
//!   only on its first call (a hidden flag: a recursive `main` does not run them
//!   again) runs the constructors in ascending priority, equal priorities in
//!   array order (their `data` field is ignored, as for C). Whatever the engine
//!   starts in (`main`, or the POSIX runtime's entry, which sets up argv and the
//!   files and then calls `main`), they run once, before `main`'s body.
//! * The destructors are run by `__symtest_global_dtors` (at most once), in the
//!   reverse of that order, at `exit` after the handlers registered with
//!   `atexit`, as glibc does: when the module defines `exit` and `atexit` (musl
//!   linked in), it is registered with `atexit` before the constructors run (a
//!   handler a constructor registers then runs before it, as natively); when it
//!   defines `exit` but not `atexit` (so no handler exists), `exit` starts by
//!   calling it; when `exit` is the engine's own, it is called before each call
//!   of `exit`. A return from the first `main` call is `exit(status)` when the
//!   module defines `exit` (the handlers and destructors run, stdio is flushed,
//!   as natively after `main` returns), else calls it directly.
//!
//! Modules without constructors and destructors, or without a `main` defined, are
//! left as they are. Raw llvm-sys throughout, for the reasons given in `prepare`.

use llvm_sys::core::*;
use llvm_sys::debuginfo::{LLVMDIBuilderCreateDebugLocation, LLVMInstructionGetDebugLoc};
use llvm_sys::prelude::*;
use llvm_sys::LLVMLinkage;

use super::{Llvm, Md, Opcode, Ty, TyKind, VKind, Val};

/// How the call of a constructor or destructor gets each argument.
#[derive(Clone, Copy)]
enum Arg<'m> {
    /// Parameter `i` of `__symtest_global_init` (main's argc, argv, envp: what
    /// glibc passes to the functions of `.init_array`).
    Init(u32),
    /// A zero of this type.
    Zero(Ty<'m>),
}

/// A function to call: the function and how each argument is made.
struct Structor<'m> {
    f: Val<'m>,
    ty: Ty<'m>,
    args: Vec<Arg<'m>>,
}

/// The function a structor entry names (through aliases and pointer casts).
fn function_of(v: Val<'_>, depth: u32) -> Option<Val<'_>> {
    if depth > 8 {
        return None;
    }
    match v.kind() {
        VKind::Function => Some(v),
        VKind::GlobalAlias => function_of(v.aliasee()?, depth + 1),
        VKind::ConstExpr
            if matches!(
                v.opcode(),
                Some(Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast)
            ) =>
        {
            function_of(v.operand(0)?, depth + 1)
        }
        _ => None,
    }
}

/// The argument kinds a call can be given a zero of.
fn zeroable(t: Ty<'_>) -> bool {
    matches!(
        t.kind(),
        TyKind::Half
            | TyKind::BFloat
            | TyKind::Float
            | TyKind::Double
            | TyKind::X86Fp80
            | TyKind::Fp128
            | TyKind::Int(_)
            | TyKind::Pointer
            | TyKind::Struct
            | TyKind::Array
            | TyKind::Vector
    )
}

/// The call plan of function `f`; with `main_args`, `(i32, ptr, ptr)` leading
/// parameters get main's arguments.
fn structor(f: Val<'_>, main_args: bool) -> Option<Structor<'_>> {
    let ty = f.global_value_type()?;
    let (params, _, _) = ty.signature()?;
    let expect = [TyKind::Int(32), TyKind::Pointer, TyKind::Pointer];
    let mut args = Vec::new();
    for (i, p) in params.iter().enumerate() {
        if !zeroable(*p) {
            return None;
        }
        let from_main = main_args && expect.get(i) == Some(&p.kind());
        args.push(if from_main {
            Arg::Init(i as u32)
        } else {
            Arg::Zero(*p)
        });
    }
    Some(Structor { f, ty, args })
}

/// The functions of `@name` (`llvm.global_ctors` or `llvm.global_dtors`), in
/// ascending priority, equal priorities in array order; null entries skipped.
fn structors<'m>(llvm: &'m Llvm<'_>, name: &str, main_args: bool) -> Vec<Structor<'m>> {
    let Some(init) = llvm
        .globals()
        .into_iter()
        .find(|g| g.name() == name)
        .and_then(|g| g.initializer())
    else {
        return Vec::new();
    };
    // `zeroinitializer` (no entries) is not a `ConstArray`.
    if init.kind() != VKind::ConstArray {
        return Vec::new();
    }
    let n = init.ty().map_or(0, |t| t.len()).min(u64::from(u32::MAX));
    let mut list: Vec<(u64, Structor<'m>)> = (0..n as u32)
        .filter_map(|i| {
            let entry = init.aggregate_element(i)?;
            let priority = entry.aggregate_element(0)?.const_int_u64()?;
            let f = function_of(entry.aggregate_element(1)?, 0)?;
            Some((priority, structor(f, main_args)?))
        })
        .collect();
    list.sort_by_key(|(p, _)| *p); // stable: equal priorities keep array order
    list.into_iter().map(|(_, s)| s).collect()
}

/// What the injected code calls and where it goes: found in the module
/// before anything is added.
struct Plan<'m> {
    ctors: Vec<Structor<'m>>,
    /// The destructors, in the order they run.
    dtors: Vec<Structor<'m>>,
    /// `exit(int)` defined in the module (a libc).
    exit: Option<Val<'m>>,
    /// `atexit(void (*)(void))` defined in the module (only with `exit`).
    atexit: Option<Val<'m>>,
    /// Where the destructors run at `exit` when `atexit` cannot register
    /// them: at the start of the module's `exit`, or before each call of
    /// the engine's.
    dtor_sites: Vec<Val<'m>>,
    main_returns_int: bool,
    /// main's first instruction that is not an `alloca`.
    main_start: Val<'m>,
    /// main's `ret`s (collected only when there are destructors).
    main_rets: Vec<Val<'m>>,
    main_sp: Option<Md<'m>>,
    main_line: u32,
    /// main's argc, argv and envp, where its parameters have those kinds.
    main_args: Vec<Option<Val<'m>>>,
}

/// The plan of [`inject`], or `None` when the module is left as it is (no
/// constructors or destructors, or no `main` defined).
fn plan<'m>(llvm: &'m Llvm<'_>) -> Option<Plan<'m>> {
    let ctors = structors(llvm, "llvm.global_ctors", true);
    let mut dtors = structors(llvm, "llvm.global_dtors", false);
    if ctors.is_empty() && dtors.is_empty() {
        return None;
    }
    dtors.reverse();
    let functions = llvm.functions();
    let named = |n: &str| functions.iter().copied().find(|f| f.name() == n);
    let defined = |n: &str| named(n).filter(|f| !f.is_declaration());
    let main = defined("main")?;
    let (main_params, main_ret, _) = main.global_value_type().and_then(|t| t.signature())?;
    let main_returns_int = main_ret.kind() == TyKind::Int(32);
    let fn_of = |f: Val<'_>, params: &[TyKind], ret: TyKind| {
        f.global_value_type()
            .and_then(|t| t.signature())
            .is_some_and(|(p, r, _)| {
                r.kind() == ret && p.iter().map(|t| t.kind()).eq(params.iter().copied())
            })
    };
    let exit = defined("exit").filter(|f| fn_of(*f, &[TyKind::Int(32)], TyKind::Void));
    let atexit = defined("atexit")
        .filter(|f| fn_of(*f, &[TyKind::Pointer], TyKind::Int(32)))
        .filter(|_| exit.is_some());
    let mut dtor_sites = Vec::new();
    if !dtors.is_empty() && atexit.is_none() {
        match exit {
            Some(e) => dtor_sites.extend(
                e.blocks()
                    .first()
                    .and_then(|b| b.instructions().first().copied()),
            ),
            None => {
                if let Some(e) = named("exit") {
                    dtor_sites = calls_of(&functions, e);
                }
            }
        }
    }
    let main_blocks = main.blocks();
    let main_start = main_blocks.first().and_then(|b| {
        b.instructions()
            .into_iter()
            .find(|i| i.opcode() != Some(Opcode::LLVMAlloca))
    })?;
    let main_rets: Vec<Val<'_>> = if dtors.is_empty() {
        Vec::new()
    } else {
        main_blocks
            .iter()
            .flat_map(|b| b.instructions())
            .filter(|i| i.opcode() == Some(Opcode::LLVMRet))
            .collect()
    };
    let main_sp = main.subprogram();
    let main_line = main_sp.and_then(|s| s.subprogram_line()).unwrap_or(0);
    let main_arg_kinds = [TyKind::Int(32), TyKind::Pointer, TyKind::Pointer];
    let main_args: Vec<Option<Val<'_>>> = (0..3)
        .map(|i| {
            let p = main.params().get(i).copied()?;
            (main_params.get(i)?.kind() == main_arg_kinds[i]).then_some(p)
        })
        .collect();
    Some(Plan {
        ctors,
        dtors,
        exit,
        atexit,
        dtor_sites,
        main_returns_int,
        main_start,
        main_rets,
        main_sp,
        main_line,
        main_args,
    })
}

/// The calls of `callee` in `functions`.
fn calls_of<'m>(functions: &[Val<'m>], callee: Val<'m>) -> Vec<Val<'m>> {
    let mut calls = Vec::new();
    for f in functions {
        for b in f.blocks() {
            calls.extend(b.instructions().into_iter().filter(|i| {
                i.opcode() == Some(Opcode::LLVMCall) && i.called_value() == Some(callee)
            }));
        }
    }
    calls
}

/// Adds the calls described in the module documentation.
pub(crate) fn inject(llvm: &Llvm<'_>) {
    let Some(plan) = plan(llvm) else {
        return;
    };
    let ctx = llvm.raw_context();
    // SAFETY: the builder and every type, global and function are created in the
    // module's context; the builder is positioned at the end of blocks it just
    // appended, or before live instructions of the module (collected by `plan`;
    // none is erased). Each call is built with its callee's own function type and
    // one argument of the matching type per parameter (`structor` checked the
    // kinds zeroes are made of; `Init` arguments are of `init`'s parameter types,
    // which `structor` matched); `exit` and `atexit` were checked to have the
    // signatures they are called with. Debug locations are those of the
    // instruction built before, or a new one in main's `DISubprogram`.
    unsafe {
        let e = Emitter {
            ctx,
            m: llvm.raw_module(),
            b: LLVMCreateBuilderInContext(ctx),
            empty: c"".as_ptr(),
            void: LLVMVoidTypeInContext(ctx),
            i1: LLVMInt1TypeInContext(ctx),
            i32t: LLVMInt32TypeInContext(ctx),
            ptr: LLVMPointerTypeInContext(ctx, 0),
        };
        let run_dtors = e.dtors_fn(&plan.dtors);
        let (init, init_ty) = e.init_fn(&plan, run_dtors);
        let first = e.call_init(&plan, init, init_ty);
        if let Some((run, run_ty)) = run_dtors {
            e.dtors_at_end(&plan, run, run_ty, first);
        }
        LLVMDisposeBuilder(e.b);
    }
}

/// The builder of the injected code, and the types it uses.
struct Emitter {
    ctx: LLVMContextRef,
    m: LLVMModuleRef,
    b: LLVMBuilderRef,
    /// The empty name.
    empty: *const std::ffi::c_char,
    void: LLVMTypeRef,
    i1: LLVMTypeRef,
    i32t: LLVMTypeRef,
    ptr: LLVMTypeRef,
}

impl Emitter {
    /// A new internal function `name`, and its type.
    ///
    /// # Safety
    /// As in [`inject`]: `ret` and `params` are types of the module's context.
    unsafe fn internal_fn(
        &self,
        name: &std::ffi::CStr,
        ret: LLVMTypeRef,
        params: &mut [LLVMTypeRef],
    ) -> (LLVMValueRef, LLVMTypeRef) {
        let ty = LLVMFunctionType(ret, params.as_mut_ptr(), params.len() as u32, 0);
        let f = LLVMAddFunction(self.m, name.as_ptr(), ty);
        LLVMSetLinkage(f, LLVMLinkage::LLVMInternalLinkage);
        (f, ty)
    }

    /// `entry: br flag, again, first; first: flag = true` in `f`, with a new
    /// flag global `name` (builder left in `first`); returns `again`.
    ///
    /// # Safety
    /// As in [`inject`]: `f` is a function of the module without blocks.
    unsafe fn once(&self, f: LLVMValueRef, name: &std::ffi::CStr) -> LLVMBasicBlockRef {
        let (b, i1) = (self.b, self.i1);
        let flag = LLVMAddGlobal(self.m, i1, name.as_ptr());
        LLVMSetLinkage(flag, LLVMLinkage::LLVMInternalLinkage);
        LLVMSetInitializer(flag, LLVMConstInt(i1, 0, 0));
        let entry = LLVMAppendBasicBlockInContext(self.ctx, f, c"entry".as_ptr());
        let first = LLVMAppendBasicBlockInContext(self.ctx, f, c"first".as_ptr());
        let again = LLVMAppendBasicBlockInContext(self.ctx, f, c"again".as_ptr());
        LLVMPositionBuilderAtEnd(b, entry);
        let done = LLVMBuildLoad2(b, i1, flag, self.empty);
        LLVMBuildCondBr(b, done, again, first);
        LLVMPositionBuilderAtEnd(b, first);
        LLVMBuildStore(b, LLVMConstInt(i1, 1, 0), flag);
        again
    }

    /// A call of `s` at the builder, its `Init` arguments the parameters
    /// of `init`.
    ///
    /// # Safety
    /// As in [`inject`]: the builder is positioned in a block of `init`.
    unsafe fn call(&self, s: &Structor<'_>, init: LLVMValueRef) {
        let mut args: Vec<LLVMValueRef> = s
            .args
            .iter()
            .map(|a| match *a {
                Arg::Init(i) => LLVMGetParam(init, i),
                Arg::Zero(t) => LLVMConstNull(t.raw),
            })
            .collect();
        let n = args.len() as u32;
        LLVMBuildCall2(
            self.b,
            s.ty.raw,
            s.f.raw(),
            args.as_mut_ptr(),
            n,
            self.empty,
        );
    }

    /// `void __symtest_global_dtors()`, which runs the destructors at most
    /// once, and its type; `None` without destructors.
    ///
    /// # Safety
    /// As in [`inject`].
    unsafe fn dtors_fn(&self, dtors: &[Structor<'_>]) -> Option<(LLVMValueRef, LLVMTypeRef)> {
        if dtors.is_empty() {
            return None;
        }
        let (f, ty) = self.internal_fn(c"__symtest_global_dtors", self.void, &mut []);
        let again = self.once(f, c"__symtest_global_dtors_done");
        for d in dtors {
            self.call(d, f);
        }
        LLVMBuildRetVoid(self.b);
        LLVMPositionBuilderAtEnd(self.b, again);
        LLVMBuildRetVoid(self.b);
        Some((f, ty))
    }

    /// `i1 __symtest_global_init(argc, argv, envp)`, true on its first
    /// call, which registers `run_dtors` with `atexit` when the module has
    /// both, then runs the constructors; and its type.
    ///
    /// # Safety
    /// As in [`inject`].
    unsafe fn init_fn(
        &self,
        plan: &Plan<'_>,
        run_dtors: Option<(LLVMValueRef, LLVMTypeRef)>,
    ) -> (LLVMValueRef, LLVMTypeRef) {
        let (b, i1, empty) = (self.b, self.i1, self.empty);
        let (init, init_ty) = self.internal_fn(
            c"__symtest_global_init",
            i1,
            &mut [self.i32t, self.ptr, self.ptr],
        );
        let again = self.once(init, c"__symtest_global_init_done");
        if let (Some(a), Some((run, _))) = (plan.atexit, run_dtors) {
            let aty = a
                .global_value_type()
                .map_or(std::ptr::null_mut(), |t| t.raw);
            let mut args = [run];
            LLVMBuildCall2(b, aty, a.raw(), args.as_mut_ptr(), 1, empty);
        }
        for c in &plan.ctors {
            self.call(c, init);
        }
        LLVMBuildRet(b, LLVMConstInt(i1, 1, 0));
        LLVMPositionBuilderAtEnd(b, again);
        LLVMBuildRet(b, LLVMConstInt(i1, 0, 0));
        (init, init_ty)
    }

    /// The call of `init` at main's start, located at main's line; its
    /// result (true on the first call).
    ///
    /// # Safety
    /// As in [`inject`].
    unsafe fn call_init(
        &self,
        plan: &Plan<'_>,
        init: LLVMValueRef,
        init_ty: LLVMTypeRef,
    ) -> LLVMValueRef {
        let b = self.b;
        LLVMPositionBuilderBefore(b, plan.main_start.raw());
        let loc = match plan.main_sp {
            Some(sp) => LLVMDIBuilderCreateDebugLocation(
                self.ctx,
                plan.main_line,
                0,
                sp.raw,
                std::ptr::null_mut(),
            ),
            None => std::ptr::null_mut(),
        };
        LLVMSetCurrentDebugLocation2(b, loc);
        let init_params = [self.i32t, self.ptr, self.ptr];
        let mut args: Vec<LLVMValueRef> = plan
            .main_args
            .iter()
            .zip(init_params)
            .map(|(a, t)| a.map_or_else(|| LLVMConstNull(t), |a| a.raw()))
            .collect();
        LLVMBuildCall2(b, init_ty, init, args.as_mut_ptr(), 3, self.empty)
    }

    /// `void __symtest_main_returns(i1 first, i32 status)`, called before
    /// each of main's returns with `first` (the result of the init call):
    /// on the first `main` call it is `exit(status)` when the module
    /// defines `exit` (and main returns an `int`), else runs the
    /// destructors `run`. And a call of `run` at each of the plan's
    /// destructor sites.
    ///
    /// # Safety
    /// As in [`inject`]: `run` is `__symtest_global_dtors` of type `run_ty`.
    unsafe fn dtors_at_end(
        &self,
        plan: &Plan<'_>,
        run: LLVMValueRef,
        run_ty: LLVMTypeRef,
        first: LLVMValueRef,
    ) {
        let (b, empty) = (self.b, self.empty);
        let (ret_fn, ret_ty) = self.internal_fn(
            c"__symtest_main_returns",
            self.void,
            &mut [self.i1, self.i32t],
        );
        let entry = LLVMAppendBasicBlockInContext(self.ctx, ret_fn, c"entry".as_ptr());
        let end = LLVMAppendBasicBlockInContext(self.ctx, ret_fn, c"end".as_ptr());
        let back = LLVMAppendBasicBlockInContext(self.ctx, ret_fn, c"back".as_ptr());
        LLVMPositionBuilderAtEnd(b, entry);
        LLVMSetCurrentDebugLocation2(b, std::ptr::null_mut());
        LLVMBuildCondBr(b, LLVMGetParam(ret_fn, 0), end, back);
        LLVMPositionBuilderAtEnd(b, end);
        match plan.exit.filter(|_| plan.main_returns_int) {
            Some(e) => {
                let ety = e
                    .global_value_type()
                    .map_or(std::ptr::null_mut(), |t| t.raw);
                let mut args = [LLVMGetParam(ret_fn, 1)];
                LLVMBuildCall2(b, ety, e.raw(), args.as_mut_ptr(), 1, empty);
                LLVMBuildUnreachable(b);
            }
            None => {
                LLVMBuildCall2(b, run_ty, run, std::ptr::null_mut(), 0, empty);
                LLVMBuildRetVoid(b);
            }
        }
        LLVMPositionBuilderAtEnd(b, back);
        LLVMBuildRetVoid(b);
        for r in &plan.main_rets {
            LLVMPositionBuilderBefore(b, r.raw());
            LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(r.raw()));
            let status = match r.operand(0) {
                Some(v) if plan.main_returns_int => v.raw(),
                _ => LLVMConstInt(self.i32t, 0, 0),
            };
            let mut args = [first, status];
            LLVMBuildCall2(b, ret_ty, ret_fn, args.as_mut_ptr(), 2, empty);
        }
        for site in &plan.dtor_sites {
            LLVMPositionBuilderBefore(b, site.raw());
            LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(site.raw()));
            LLVMBuildCall2(b, run_ty, run, std::ptr::null_mut(), 0, empty);
        }
    }
}
