//! Rewrites applied to the LLVM module before lowering, as KLEE does in its
//! module preparation (raw llvm-sys throughout; see the comments at the calls):
//!
//! * integer `llvm.vector.reduce.*` calls are expanded into `extractelement` and
//!   scalar operations, `llvm.fmuladd` into `fmul` + `fadd` (the unfused result is
//!   one of the two LLVM allows);
//! * `llvm.is.constant` becomes `false` and `llvm.objectsize` "unknown" (`-1`, or
//!   `0` when asked for the minimum), as in KLEE;
//! * if any instruction still produces a vector, LLVM's `scalarizer` pass splits
//!   vector arithmetic, comparisons, selects, casts and phis into per-element scalar
//!   instructions (optimised code is auto-vectorised even without `-march`).
//!
//! Modules without vector instructions (all `-O0` code, typically) are untouched, so
//! their instruction counts match `llvm-dis`.

use std::ffi::CString;

use llvm_sys::core::*;
use llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use llvm_sys::error::{LLVMDisposeErrorMessage, LLVMGetErrorMessage};
use llvm_sys::prelude::*;
use llvm_sys::transforms::pass_builder::{
    LLVMCreatePassBuilderOptions, LLVMDisposePassBuilderOptions, LLVMRunPasses,
};
use llvm_sys::{LLVMIntPredicate, LLVMOpcode};

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

/// A call the preparation replaces.
enum Rewrite<'m> {
    /// An integer vector reduction: (vector operand, length, combine).
    Reduce(Val<'m>, u64, Combine),
    /// `llvm.fmuladd(a, b, c)`.
    FMulAdd(Val<'m>, Val<'m>, Val<'m>),
    /// Replaced by an integer constant of the call's type (all ones if `true`).
    Constant(bool),
}

fn rewrite_of<'m>(inst: Val<'m>) -> Option<Rewrite<'m>> {
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
        return Some(Rewrite::FMulAdd(
            inst.operand(0)?,
            inst.operand(1)?,
            inst.operand(2)?,
        ));
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
        .then_some(Rewrite::Reduce(vector, len, combine))
}

/// Applies the rewrites described in the module documentation.
pub(crate) fn prepare(llvm: &mut Llvm<'_>) {
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
        // constants are built with the call's (integer) type. The call is erased
        // only after all its uses were replaced.
        unsafe {
            let b = LLVMCreateBuilderInContext(ctx);
            let i64t = LLVMInt64TypeInContext(ctx);
            let empty = c"".as_ptr();
            for (call, rewrite) in rewrites {
                LLVMPositionBuilderBefore(b, call.raw());
                LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call.raw()));
                let new = match rewrite {
                    Rewrite::Reduce(vector, len, combine) => {
                        let elem = |i: u64| {
                            LLVMBuildExtractElement(
                                b,
                                vector.raw(),
                                LLVMConstInt(i64t, i, 0),
                                empty,
                            )
                        };
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
                    Rewrite::FMulAdd(x, y, z) => {
                        let m = LLVMBuildFMul(b, x.raw(), y.raw(), empty);
                        LLVMBuildFAdd(b, m, z.raw(), empty)
                    }
                    Rewrite::Constant(ones) => {
                        let v = if ones { u64::MAX } else { 0 };
                        LLVMConstInt(LLVMTypeOf(call.raw()), v, ones as i32)
                    }
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
