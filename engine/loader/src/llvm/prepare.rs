//! Rewrites applied to the LLVM module before lowering, as KLEE does in its
//! module preparation (raw llvm-sys throughout; see the comments at the calls):
//!
//! * integer `llvm.vector.reduce.*` calls are expanded into `extractelement` and
//!   scalar operations, `llvm.fmuladd` into `fmul` + `fadd` (the unfused result is
//!   one of the two LLVM allows);
//! * `llvm.is.constant` becomes `false` and `llvm.objectsize` "unknown" (`-1`, or
//!   `0` when asked for the minimum), as in KLEE;
//! * `llvm.ptrmask` becomes `ptrtoint`/`and`/`inttoptr`, and the constrained
//!   floating-point intrinsics (`llvm.experimental.constrained.*`, from code built
//!   with `FENV_ACCESS ON`) their plain instructions (the engine's floating-point
//!   environment is the default one);
//! * `main` is made to run the global constructors first and the destructors at
//!   exit (`structors.rs`);
//! * if any instruction still produces a vector, LLVM's `scalarizer` pass splits
//!   vector arithmetic, comparisons, selects, casts and phis into per-element scalar
//!   instructions (optimised code is auto-vectorised even without `-march`).
//!
//! Modules without vector instructions (all `-O0` code, typically) and without
//! global constructors or destructors are untouched, so their instruction counts
//! match `llvm-dis`.

use std::ffi::CString;

use llvm_sys::core::*;
use llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use llvm_sys::error::{LLVMDisposeErrorMessage, LLVMGetErrorMessage};
use llvm_sys::prelude::*;
use llvm_sys::transforms::pass_builder::{
    LLVMCreatePassBuilderOptions, LLVMDisposePassBuilderOptions, LLVMRunPasses,
};
use llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMRealPredicate};

use super::{Llvm, Opcode, TyKind, VKind, Val};

/// How an integer reduction combines two elements.
#[derive(Clone, Copy)]
enum Combine {
    Bin(LLVMOpcode),
    Pick(LLVMIntPredicate),
}

fn reduction_kind(name: &str) -> Option<Combine> {
    let op = name
        .strip_prefix("llvm.vector.reduce.")?
        .split('.')
        .next()?;
    Some(match op {
        "add" => Combine::Bin(LLVMOpcode::LLVMAdd),
        "mul" => Combine::Bin(LLVMOpcode::LLVMMul),
        "and" => Combine::Bin(LLVMOpcode::LLVMAnd),
        "or" => Combine::Bin(LLVMOpcode::LLVMOr),
        "xor" => Combine::Bin(LLVMOpcode::LLVMXor),
        "smax" => Combine::Pick(LLVMIntPredicate::LLVMIntSGT),
        "smin" => Combine::Pick(LLVMIntPredicate::LLVMIntSLT),
        "umax" => Combine::Pick(LLVMIntPredicate::LLVMIntUGT),
        "umin" => Combine::Pick(LLVMIntPredicate::LLVMIntULT),
        _ => return None,
    })
}

/// A call the preparation replaces. Operands are read from the call only when it
/// is rewritten: an earlier rewrite may have replaced one of them (one `fmuladd`
/// feeding another), and the value seen at collection time is then erased.
enum Rewrite {
    /// An integer vector reduction (of operand 0): (length, combine).
    Reduce(u64, Combine),
    /// `llvm.fmuladd(a, b, c)`.
    FMulAdd,
    /// Replaced by an integer constant of the call's type (all ones if `true`).
    Constant(bool),
    /// `llvm.ptrmask(p, mask)`: `inttoptr(ptrtoint(p) & mask)`.
    PtrMask,
    /// A constrained floating-point intrinsic (`#pragma STDC FENV_ACCESS ON` code,
    /// e.g. musl's `fma`, `lrintl`, `ilogb`): the plain instruction. The engine
    /// runs in the default environment (round to nearest, exceptions masked), the
    /// one the constrained forms leave their results unchanged in.
    Constrained(Strict),
}

/// The plain form of a constrained floating-point intrinsic.
#[derive(Clone, Copy)]
enum Strict {
    /// Binary arithmetic (`fadd` ... `frem`) of operands 0 and 1.
    Bin(LLVMOpcode),
    /// A conversion of operand 0 to the call's type.
    Cast(LLVMOpcode),
    /// `fcmp`/`fcmps` of operands 0 and 1; the predicate is operand 2 (metadata).
    Cmp,
}

fn constrained_kind(name: &str) -> Option<Rewrite> {
    use LLVMOpcode::*;
    let op = name
        .strip_prefix("llvm.experimental.constrained.")?
        .split('.')
        .next()?;
    Some(Rewrite::Constrained(match op {
        "fadd" => Strict::Bin(LLVMFAdd),
        "fsub" => Strict::Bin(LLVMFSub),
        "fmul" => Strict::Bin(LLVMFMul),
        "fdiv" => Strict::Bin(LLVMFDiv),
        "frem" => Strict::Bin(LLVMFRem),
        "fpext" => Strict::Cast(LLVMFPExt),
        "fptrunc" => Strict::Cast(LLVMFPTrunc),
        "sitofp" => Strict::Cast(LLVMSIToFP),
        "uitofp" => Strict::Cast(LLVMUIToFP),
        "fptosi" => Strict::Cast(LLVMFPToSI),
        "fptoui" => Strict::Cast(LLVMFPToUI),
        "fcmp" | "fcmps" => Strict::Cmp,
        "fmuladd" => return Some(Rewrite::FMulAdd),
        _ => return None,
    }))
}

/// The predicate of a constrained comparison, from its metadata string.
fn fcmp_predicate(name: &[u8]) -> Option<LLVMRealPredicate> {
    use LLVMRealPredicate::*;
    Some(match name {
        b"oeq" => LLVMRealOEQ,
        b"ogt" => LLVMRealOGT,
        b"oge" => LLVMRealOGE,
        b"olt" => LLVMRealOLT,
        b"ole" => LLVMRealOLE,
        b"one" => LLVMRealONE,
        b"ord" => LLVMRealORD,
        b"uno" => LLVMRealUNO,
        b"ueq" => LLVMRealUEQ,
        b"ugt" => LLVMRealUGT,
        b"uge" => LLVMRealUGE,
        b"ult" => LLVMRealULT,
        b"ule" => LLVMRealULE,
        b"une" => LLVMRealUNE,
        _ => return None,
    })
}

fn rewrite_of(inst: Val<'_>) -> Option<Rewrite> {
    if inst.opcode() != Some(Opcode::LLVMCall) {
        return None;
    }
    let callee = inst.called_value()?;
    if callee.kind() != VKind::Function {
        return None;
    }
    let name = callee.name();
    let int_result = matches!(inst.ty()?.kind(), TyKind::Int(_));
    if name.starts_with("llvm.fmuladd.") && inst.num_args() == 3 {
        return Some(Rewrite::FMulAdd);
    }
    if name.starts_with("llvm.ptrmask.") && inst.num_args() == 2 {
        return Some(Rewrite::PtrMask);
    }
    if let Some(r) = constrained_kind(&name) {
        return Some(r);
    }
    if name.starts_with("llvm.is.constant.") && int_result {
        return Some(Rewrite::Constant(false));
    }
    if name.starts_with("llvm.objectsize.") && int_result {
        // Second argument: report the minimum (0) instead of the maximum (-1).
        let min = inst.operand(1)?.const_int_u64()? != 0;
        return Some(Rewrite::Constant(!min));
    }
    let combine = reduction_kind(&name)?;
    if inst.num_args() != 1 {
        return None;
    }
    let vector = inst.operand(0)?;
    let vty = vector.ty()?;
    let len = vty.len();
    let elem_is_int = matches!(vty.elem()?.kind(), TyKind::Int(_));
    (vty.kind() == TyKind::Vector && elem_is_int && len > 0 && len <= 4096)
        .then_some(Rewrite::Reduce(len, combine))
}

/// Applies the rewrites described in the module documentation.
pub(crate) fn prepare(llvm: &mut Llvm<'_>) {
    super::structors::inject(llvm);
    let mut rewrites = Vec::new();
    let mut has_vectors = false;
    for f in llvm.functions() {
        for b in f.blocks() {
            for i in b.instructions() {
                if let Some(r) = rewrite_of(i) {
                    rewrites.push((i, r));
                }
                has_vectors |= i.ty().is_some_and(|t| t.kind() == TyKind::Vector);
            }
        }
    }
    let ctx = llvm.raw_context();
    if !rewrites.is_empty() {
        // Raw: the rewrites start from untyped `Val` handles (operands that are
        // vectors, floats or vectors of floats; integer or float results). inkwell's
        // builder wants typed values, so each operand, the call and its type would
        // be re-wrapped through `unsafe` constructors (`BasicValueEnum::new` and
        // friends, which panic on a type they do not expect) only to hand the same
        // pointers back to the same C functions.
        // SAFETY: the builder is created in the module's context and positioned
        // before each (live) call. Every replacement has the call's type: a
        // reduction combines elements of the vector operand, whose element type
        // is the result type; fmul/fadd of fmuladd's operands have its type;
        // constants are built with the call's (integer) type. Operands are read from
        // the call as it is rewritten, so they are live (an earlier replacement
        // updated them through RAUW). The call is erased
        // only after all its uses were replaced.
        unsafe {
            let b = LLVMCreateBuilderInContext(ctx);
            let i64t = LLVMInt64TypeInContext(ctx);
            for (call, rewrite) in rewrites {
                LLVMPositionBuilderBefore(b, call.raw());
                LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call.raw()));
                let Some(new) = replacement(b, i64t, call, rewrite) else {
                    continue;
                };
                LLVMReplaceAllUsesWith(call.raw(), new);
                LLVMInstructionEraseFromParent(call.raw());
            }
            LLVMDisposeBuilder(b);
        }
    }
    if has_vectors {
        run_passes(llvm.raw_module(), "scalarizer");
    }
}

/// The value that replaces `call` under `rewrite`, built before it; `None`
/// to keep the call (a constrained comparison with an unknown predicate).
///
/// # Safety
/// As in [`prepare`]: the builder `b` is positioned before the live `call`,
/// and `i64t` is the context's `i64`.
unsafe fn replacement(
    b: LLVMBuilderRef,
    i64t: LLVMTypeRef,
    call: Val<'_>,
    rewrite: Rewrite,
) -> Option<LLVMValueRef> {
    let empty = c"".as_ptr();
    Some(match rewrite {
        Rewrite::Reduce(len, combine) => {
            let vector = LLVMGetOperand(call.raw(), 0);
            let elem = |i: u64| LLVMBuildExtractElement(b, vector, LLVMConstInt(i64t, i, 0), empty);
            let mut acc = elem(0);
            for i in 1..len {
                let e = elem(i);
                acc = match combine {
                    Combine::Bin(op) => LLVMBuildBinOp(b, op, acc, e, empty),
                    Combine::Pick(pred) => {
                        let c = LLVMBuildICmp(b, pred, acc, e, empty);
                        LLVMBuildSelect(b, c, acc, e, empty)
                    }
                };
            }
            acc
        }
        Rewrite::FMulAdd => {
            let arg = |i| LLVMGetOperand(call.raw(), i);
            let m = LLVMBuildFMul(b, arg(0), arg(1), empty);
            LLVMBuildFAdd(b, m, arg(2), empty)
        }
        Rewrite::Constant(ones) => {
            let v = if ones { u64::MAX } else { 0 };
            LLVMConstInt(LLVMTypeOf(call.raw()), v, ones as i32)
        }
        Rewrite::PtrMask => {
            let p = LLVMGetOperand(call.raw(), 0);
            let mask = LLVMGetOperand(call.raw(), 1);
            let int = LLVMBuildPtrToInt(b, p, LLVMTypeOf(mask), empty);
            let masked = LLVMBuildAnd(b, int, mask, empty);
            LLVMBuildIntToPtr(b, masked, LLVMTypeOf(call.raw()), empty)
        }
        Rewrite::Constrained(strict) => {
            let arg = |i| LLVMGetOperand(call.raw(), i);
            match strict {
                Strict::Bin(op) => LLVMBuildBinOp(b, op, arg(0), arg(1), empty),
                Strict::Cast(op) => LLVMBuildCast(b, op, arg(0), LLVMTypeOf(call.raw()), empty),
                Strict::Cmp => {
                    let mut len = 0;
                    let text = LLVMGetMDString(arg(2), &mut len);
                    let pred = (!text.is_null())
                        .then(|| std::slice::from_raw_parts(text.cast::<u8>(), len as usize))
                        .and_then(fcmp_predicate);
                    match pred {
                        Some(p) => LLVMBuildFCmp(b, p, arg(0), arg(1), empty),
                        // Unknown predicate: keep the call (it lowers
                        // to an unsupported intrinsic).
                        None => return None,
                    }
                }
            }
        }
    })
}

/// Runs a new-pass-manager pipeline; on failure the module is left as it is (the
/// constructs concerned then lower to `Op::Unsupported`).
fn run_passes(module: LLVMModuleRef, pipeline: &str) {
    let Ok(p) = CString::new(pipeline) else {
        return;
    };
    // Raw: inkwell's `Module::run_passes` requires a `TargetMachine`, which the
    // scalarizer does not need and which cannot be made for a module whose target
    // is not compiled into LLVM; `LLVMRunPasses` accepts none.
    // SAFETY: the module is alive; no target machine is needed by the passes we
    // run (null is accepted); the options and the error are disposed once.
    unsafe {
        let opts = LLVMCreatePassBuilderOptions();
        let err = LLVMRunPasses(module, p.as_ptr(), std::ptr::null_mut(), opts);
        if !err.is_null() {
            let msg = LLVMGetErrorMessage(err);
            LLVMDisposeErrorMessage(msg);
        }
        LLVMDisposePassBuilderOptions(opts);
    }
}
