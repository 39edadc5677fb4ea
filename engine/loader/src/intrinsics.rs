//! Calls: direct, indirect and inline-asm callees, and LLVM intrinsics.

use symtest_ir::{Callee, FloatTy, Intrinsic, Op};

use crate::instructions::L;
use crate::llvm::{Opcode, TyKind, VKind, Val};

type R<T> = Result<T, String>;

/// True if `name` is `base` or `base.<overload suffix>`.
fn is(name: &str, base: &str) -> bool {
    name.strip_prefix(base)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// How the overloaded-integer width (`bits`) of an intrinsic is found.
#[derive(Clone, Copy)]
enum Width {
    None,
    /// Width of argument `i`.
    Arg(u32),
}

/// Classifies an intrinsic by name.
fn classify(name: &str) -> (Intrinsic, Width) {
    use Intrinsic::*;
    let table: &[(&str, Intrinsic, Width)] = &[
        ("llvm.memcpy", Memcpy, Width::Arg(2)),
        ("llvm.memcpy.inline", Memcpy, Width::Arg(2)),
        ("llvm.memmove", Memmove, Width::Arg(2)),
        ("llvm.memset", Memset, Width::Arg(2)),
        ("llvm.memset.inline", Memset, Width::Arg(2)),
        ("llvm.sadd.with.overflow", SAddWithOverflow, Width::Arg(0)),
        ("llvm.uadd.with.overflow", UAddWithOverflow, Width::Arg(0)),
        ("llvm.ssub.with.overflow", SSubWithOverflow, Width::Arg(0)),
        ("llvm.usub.with.overflow", USubWithOverflow, Width::Arg(0)),
        ("llvm.smul.with.overflow", SMulWithOverflow, Width::Arg(0)),
        ("llvm.umul.with.overflow", UMulWithOverflow, Width::Arg(0)),
        ("llvm.bswap", Bswap, Width::Arg(0)),
        ("llvm.bitreverse", Bitreverse, Width::Arg(0)),
        ("llvm.ctpop", Ctpop, Width::Arg(0)),
        ("llvm.ctlz", Ctlz, Width::Arg(0)),
        ("llvm.cttz", Cttz, Width::Arg(0)),
        ("llvm.fshl", Fshl, Width::Arg(0)),
        ("llvm.fshr", Fshr, Width::Arg(0)),
        ("llvm.abs", Abs, Width::Arg(0)),
        ("llvm.smin", SMin, Width::Arg(0)),
        ("llvm.smax", SMax, Width::Arg(0)),
        ("llvm.umin", UMin, Width::Arg(0)),
        ("llvm.umax", UMax, Width::Arg(0)),
        ("llvm.uadd.sat", UAddSat, Width::Arg(0)),
        ("llvm.usub.sat", USubSat, Width::Arg(0)),
        ("llvm.sadd.sat", SAddSat, Width::Arg(0)),
        ("llvm.ssub.sat", SSubSat, Width::Arg(0)),
        // Intrinsics that return their first argument unchanged.
        ("llvm.expect", Expect, Width::Arg(0)),
        ("llvm.expect.with.probability", Expect, Width::Arg(0)),
        ("llvm.annotation", Expect, Width::Arg(0)),
        ("llvm.ptr.annotation", Expect, Width::Arg(0)),
        ("llvm.launder.invariant.group", Expect, Width::Arg(0)),
        ("llvm.strip.invariant.group", Expect, Width::Arg(0)),
        ("llvm.ssa.copy", Expect, Width::Arg(0)),
        // A thread-local global's address in the one thread symtest runs.
        ("llvm.threadlocal.address", Expect, Width::Arg(0)),
        ("llvm.assume", Assume, Width::None),
        ("llvm.stacksave", StackSave, Width::None),
        ("llvm.stackrestore", StackRestore, Width::None),
        ("llvm.trap", Trap, Width::None),
        ("llvm.ubsantrap", Trap, Width::None),
        ("llvm.debugtrap", Trap, Width::None),
        ("llvm.va_start", VaStart, Width::None),
        ("llvm.va_end", VaEnd, Width::None),
        ("llvm.va_copy", VaCopy, Width::None),
    ];
    // Longest matching base wins (`llvm.memcpy.inline` over `llvm.memcpy`).
    let mut best: Option<&(&str, Intrinsic, Width)> = None;
    for e in table {
        if is(name, e.0) && best.map_or(true, |b| b.0.len() < e.0.len()) {
            best = Some(e);
        }
    }
    if let Some((_, which, width)) = best {
        return (which.clone(), *width);
    }
    const NOPS: &[&str] = &[
        "llvm.lifetime.start",
        "llvm.lifetime.end",
        "llvm.donothing",
        "llvm.sideeffect",
        "llvm.experimental.noalias.scope.decl",
        "llvm.pseudoprobe",
        "llvm.var.annotation",
        "llvm.codeview.annotation",
        "llvm.prefetch",
        "llvm.instrprof.increment",
    ];
    if name.starts_with("llvm.dbg.") || NOPS.iter().any(|n| is(name, n)) {
        return (Nop, Width::None);
    }
    (Unsupported(name.to_string()), Width::None)
}

/// Follows constant casts and aliases from a called operand to a function or
/// inline asm, if it is one.
fn strip_callee(mut v: Val<'_>) -> Val<'_> {
    for _ in 0..32 {
        match v.kind() {
            VKind::ConstExpr
                if matches!(
                    v.opcode(),
                    Some(Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast)
                ) =>
            {
                match v.operand(0) {
                    Some(inner) => v = inner,
                    None => return v,
                }
            }
            VKind::GlobalAlias => match v.aliasee() {
                Some(inner) => v = inner,
                None => return v,
            },
            _ => return v,
        }
    }
    v
}

/// The callee of a call of inline assembly: a barrier or register identity
/// the engine executes by its meaning, else the text (unsupported).
fn lower_asm<'m>(l: &L<'_, 'm>, asm: Val<'m>) -> R<Callee> {
    let text = asm.inline_asm_text().unwrap_or_default();
    let constraints = asm.inline_asm_constraints().unwrap_or_default();
    let Some(args) = crate::asm::meaning(&text, &constraints) else {
        return Ok(Callee::InlineAsm(text));
    };
    if args.iter().any(|&a| a >= l.inst.num_args()) {
        return Ok(Callee::InlineAsm(text));
    }
    let ty = l.inst.ty();
    let mut ties = Vec::with_capacity(args.len());
    match (args.as_slice(), ty) {
        ([], _) => {}
        ([arg], Some(t)) if t.kind() != TyKind::Struct => ties.push(symtest_ir::AsmTie {
            arg: *arg,
            bit_offset: 0,
            bits: l.result_bits()?,
        }),
        (_, Some(t)) if t.kind() == TyKind::Struct => {
            for (k, arg) in args.iter().enumerate() {
                let k = u32::try_from(k).map_err(|_| "too many asm outputs")?;
                let field = t.field(k).ok_or("asm output without a field")?;
                ties.push(symtest_ir::AsmTie {
                    arg: *arg,
                    bit_offset: crate::instructions::agg_offset(l.cx, t, &[k])?,
                    bits: l.cx.bits_or_err(Some(field))?,
                });
            }
        }
        _ => return Ok(Callee::InlineAsm(text)),
    }
    Ok(Callee::AsmMove(ties))
}

/// Lowers a `call` instruction.
pub(crate) fn lower_call(l: &mut L<'_, '_>) -> R<Op> {
    let inst = l.inst;
    let called = inst.called_value().ok_or("call without callee")?;
    let target = strip_callee(called);
    let ret_bits = match inst.ty().map(|t| t.kind()) {
        Some(TyKind::Void) => None,
        _ => Some(l.result_bits()?),
    };
    let callee = match target.kind() {
        VKind::Function if target.name().starts_with("llvm.") => {
            return lower_intrinsic(l, &target.name(), ret_bits);
        }
        VKind::Function => Callee::Direct(
            *l.cx
                .funcs
                .get(&target)
                .ok_or("call to a function of another module")?,
        ),
        VKind::InlineAsm => lower_asm(l, target)?,
        _ => Callee::Indirect(l.f.operand(l.cx, called)?),
    };
    let (args, arg_bits) = lower_args(l)?;
    let is_float = |t: Option<TyKind>| matches!(t, Some(TyKind::Float | TyKind::Double));
    let is_pointer = |t: Option<TyKind>| matches!(t, Some(TyKind::Pointer));
    let mut shape = symtest_ir::CallShape {
        float_ret: is_float(inst.ty().map(|t| t.kind())),
        pointer_ret: is_pointer(inst.ty().map(|t| t.kind())),
        ..Default::default()
    };
    for i in 0..l.inst.num_args().min(64) {
        let kind = l.val(i)?.ty().map(|t| t.kind());
        if is_float(kind) {
            shape.float_args |= 1 << i;
        }
        if is_pointer(kind) {
            shape.pointer_args |= 1 << i;
        }
    }
    Ok(Op::Call {
        callee,
        args,
        arg_bits,
        ret_bits,
        shape,
    })
}

fn lower_args(l: &mut L<'_, '_>) -> R<(Vec<symtest_ir::Operand>, Vec<u32>)> {
    let n = l.inst.num_args();
    let mut args = Vec::with_capacity(n as usize);
    let mut bits = Vec::with_capacity(n as usize);
    for i in 0..n {
        bits.push(l.op_bits(i)?);
        args.push(l.op(i)?);
    }
    Ok((args, bits))
}

type MakeFloatIntrinsic = fn(FloatTy) -> Intrinsic;

/// The floating-point intrinsics overloaded on their first argument's type
/// (scalar float, double or x86_fp80; vector overloads stay unsupported).
fn float_intrinsic(name: &str) -> Option<MakeFloatIntrinsic> {
    use symtest_ir::{FMinMax, FpUnOp};
    let table: &[(&str, MakeFloatIntrinsic)] = &[
        ("llvm.sqrt", |t| Intrinsic::FUnary(FpUnOp::Sqrt, t)),
        ("llvm.floor", |t| Intrinsic::FUnary(FpUnOp::Floor, t)),
        ("llvm.ceil", |t| Intrinsic::FUnary(FpUnOp::Ceil, t)),
        ("llvm.trunc", |t| Intrinsic::FUnary(FpUnOp::Trunc, t)),
        ("llvm.rint", |t| Intrinsic::FUnary(FpUnOp::RoundEven, t)),
        ("llvm.nearbyint", |t| {
            Intrinsic::FUnary(FpUnOp::RoundEven, t)
        }),
        ("llvm.roundeven", |t| {
            Intrinsic::FUnary(FpUnOp::RoundEven, t)
        }),
        ("llvm.round", |t| Intrinsic::FUnary(FpUnOp::RoundAway, t)),
        ("llvm.fma", Intrinsic::Fma),
        ("llvm.minnum", |t| Intrinsic::FMinMax(FMinMax::MinNum, t)),
        ("llvm.maxnum", |t| Intrinsic::FMinMax(FMinMax::MaxNum, t)),
        ("llvm.minimum", |t| Intrinsic::FMinMax(FMinMax::Minimum, t)),
        ("llvm.maximum", |t| Intrinsic::FMinMax(FMinMax::Maximum, t)),
        ("llvm.is.fpclass", Intrinsic::IsFpClass),
    ];
    table
        .iter()
        .find(|(base, _)| is(name, base))
        .map(|&(_, make)| make)
}

fn lower_intrinsic(l: &mut L<'_, '_>, name: &str, ret_bits: Option<u32>) -> R<Op> {
    let (mut which, width) = classify(name);
    if name.starts_with("llvm.fabs.") {
        which = match l.val(0).ok().and_then(|v| l.cx.float_ty(v.ty()).ok()) {
            Some(ty) => Intrinsic::FAbs(ty),
            None => Intrinsic::Unsupported(name.to_string()),
        };
    }
    if name.starts_with("llvm.copysign.") {
        which = match l.val(0).ok().and_then(|v| l.cx.float_ty(v.ty()).ok()) {
            Some(ty) => Intrinsic::CopySign(ty),
            None => Intrinsic::Unsupported(name.to_string()),
        };
    }
    if let Some(make) = float_intrinsic(name) {
        which = match l.val(0).ok().and_then(|v| l.cx.float_ty(v.ty()).ok()) {
            Some(ty) => make(ty),
            None => Intrinsic::Unsupported(name.to_string()),
        };
    }
    let bits = match width {
        Width::None => 0,
        Width::Arg(i) => match l.val(i)?.ty().map(|t| t.kind()) {
            Some(TyKind::Int(n)) => n,
            Some(TyKind::Pointer) => 64,
            // Vector overloads the scalarizer left alone.
            _ => {
                which = Intrinsic::Unsupported(name.to_string());
                0
            }
        },
    };
    // No-ops and unsupported intrinsics keep no operands (they may be metadata).
    let (args, arg_bits) = match which {
        Intrinsic::Nop | Intrinsic::Unsupported(_) => (Vec::new(), Vec::new()),
        _ => lower_args(l)?,
    };
    Ok(Op::Intrinsic {
        which,
        args,
        arg_bits,
        bits,
        ret_bits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_name() {
        assert_eq!(classify("llvm.memcpy.p0.p0.i64").0, Intrinsic::Memcpy);
        assert_eq!(
            classify("llvm.memcpy.inline.p0.p0.i64").0,
            Intrinsic::Memcpy
        );
        assert_eq!(classify("llvm.memset.p0.i64").0, Intrinsic::Memset);
        assert_eq!(
            classify("llvm.sadd.with.overflow.i32").0,
            Intrinsic::SAddWithOverflow
        );
        assert_eq!(classify("llvm.expect.i64").0, Intrinsic::Expect);
        assert_eq!(
            classify("llvm.expect.with.probability.i64").0,
            Intrinsic::Expect
        );
        assert_eq!(classify("llvm.lifetime.start.p0").0, Intrinsic::Nop);
        assert_eq!(classify("llvm.dbg.value").0, Intrinsic::Nop);
        assert_eq!(classify("llvm.trap").0, Intrinsic::Trap);
        assert_eq!(classify("llvm.ubsantrap").0, Intrinsic::Trap);
        assert_eq!(classify("llvm.va_start.p0").0, Intrinsic::VaStart);
        assert_eq!(classify("llvm.stacksave.p0").0, Intrinsic::StackSave);
        assert!(float_intrinsic("llvm.sqrt.f64").is_some());
        assert!(float_intrinsic("llvm.is.fpclass.f32").is_some());
        assert!(float_intrinsic("llvm.roundx.f32").is_none());
        assert_eq!(
            classify("llvm.sqrt.f64").0,
            Intrinsic::Unsupported("llvm.sqrt.f64".into())
        );
        // A prefix is not a match unless followed by a `.`.
        assert_eq!(
            classify("llvm.trapx").0,
            Intrinsic::Unsupported("llvm.trapx".into())
        );
    }
}
