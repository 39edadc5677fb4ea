//! Lowering of individual instructions (calls are in `intrinsics.rs`).
//!
//! Every failure is a message naming the construct; [`lower_inst`] turns it into
//! `Op::Unsupported` so only states that reach the instruction are affected.

use symtest_ir::{Bits, BlockId, CastOp, FBinOp, FCastOp, GepTerm, Intrinsic, Op, Operand};

use crate::constants::bin_op;
use crate::function::FnCx;
use crate::llvm::{Opcode, Ty, TyKind, Val};
use crate::module::Cx;

/// Everything an instruction's lowering needs.
pub(crate) struct L<'a, 'm> {
    pub(crate) cx: &'a mut Cx<'m>,
    pub(crate) f: &'a FnCx<'m>,
    pub(crate) inst: Val<'m>,
}

type R<T> = Result<T, String>;

impl<'m> L<'_, 'm> {
    /// Operand `i` of the instruction, as an LLVM value.
    pub(crate) fn val(&self, i: u32) -> R<Val<'m>> {
        self.inst
            .operand(i)
            .ok_or_else(|| format!("{} without operand {i}", self.what()))
    }

    /// Operand `i` of the instruction, lowered.
    pub(crate) fn op(&mut self, i: u32) -> R<Operand> {
        let v = self.val(i)?;
        self.f.operand(self.cx, v)
    }

    /// Width of operand `i`.
    pub(crate) fn op_bits(&self, i: u32) -> R<u32> {
        let v = self.val(i)?;
        self.cx.bits_or_err(v.ty())
    }

    fn op_ty(&self, i: u32) -> R<Ty<'m>> {
        self.val(i)?
            .ty()
            .ok_or_else(|| "operand without a type".into())
    }

    /// Width of the instruction's result.
    pub(crate) fn result_bits(&self) -> R<u32> {
        self.cx.bits_or_err(self.inst.ty())
    }

    fn what(&self) -> String {
        self.inst
            .opcode()
            .map(mnemonic)
            .unwrap_or("unknown")
            .to_string()
    }

    /// Fails for vector-typed values (left over after scalarization).
    fn scalar_int(&self, t: Option<Ty<'m>>) -> R<u32> {
        match t.map(|t| t.kind()) {
            Some(TyKind::Int(n)) => Ok(n),
            Some(TyKind::Pointer) => Ok(64),
            Some(TyKind::Vector) => Err(format!("vector {} instruction", self.what())),
            other => Err(format!("{} instruction on {other:?}", self.what())),
        }
    }

    fn block_operand(&self, i: u32) -> R<BlockId> {
        self.f.block(self.val(i)?.as_block())
    }
}

/// Lowers one instruction; unsupported constructs become `Op::Unsupported`.
pub(crate) fn lower_inst<'m>(cx: &mut Cx<'m>, f: &FnCx<'m>, inst: Val<'m>) -> Op {
    let mut l = L { cx, f, inst };
    lower(&mut l).unwrap_or_else(|what| Op::Unsupported { what })
}

fn lower(l: &mut L<'_, '_>) -> R<Op> {
    use Opcode::*;
    let inst = l.inst;
    let opc = inst.opcode().ok_or("not an instruction")?;
    Ok(match opc {
        LLVMRet => Op::Ret {
            value: match inst.operand(0) {
                Some(_) => Some(l.op(0)?),
                None => None,
            },
        },
        LLVMBr => match inst.branch_condition() {
            Some(c) => Op::CondBr {
                cond: l.f.operand(l.cx, c)?,
                then_block: l.f.block(inst.successor(0))?,
                else_block: l.f.block(inst.successor(1))?,
            },
            None => Op::Br {
                target: l.f.block(inst.successor(0))?,
            },
        },
        LLVMSwitch => lower_switch(l)?,
        LLVMIndirectBr => lower_indirectbr(l)?,
        LLVMUnreachable => Op::Unreachable,
        LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl
        | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor => Op::Bin {
            op: bin_op(opc).ok_or("bad opcode")?,
            bits: l.scalar_int(inst.ty())?,
            a: l.op(0)?,
            b: l.op(1)?,
        },
        LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem => Op::FBin {
            op: match opc {
                LLVMFAdd => FBinOp::Add,
                LLVMFSub => FBinOp::Sub,
                LLVMFMul => FBinOp::Mul,
                LLVMFDiv => FBinOp::Div,
                _ => FBinOp::Rem,
            },
            ty: l.cx.float_ty(inst.ty())?,
            a: l.op(0)?,
            b: l.op(1)?,
        },
        LLVMFNeg => Op::FNeg {
            ty: l.cx.float_ty(inst.ty())?,
            a: l.op(0)?,
        },
        LLVMICmp => Op::ICmp {
            pred: inst.icmp_pred().ok_or("icmp without predicate")?,
            bits: l.scalar_int(Some(l.op_ty(0)?))?,
            a: l.op(0)?,
            b: l.op(1)?,
        },
        LLVMFCmp => Op::FCmp {
            pred: inst.fcmp_pred().ok_or("fcmp without predicate")?,
            ty: l.cx.float_ty(Some(l.op_ty(0)?))?,
            a: l.op(0)?,
            b: l.op(1)?,
        },
        LLVMTrunc | LLVMZExt | LLVMSExt => {
            let from_bits = l.scalar_int(Some(l.op_ty(0)?))?;
            let to_bits = l.scalar_int(inst.ty())?;
            Op::Cast {
                op: match opc {
                    LLVMTrunc => CastOp::Trunc,
                    LLVMZExt => CastOp::ZExt,
                    _ => CastOp::SExt,
                },
                a: l.op(0)?,
                from_bits,
                to_bits,
            }
        }
        LLVMPtrToInt | LLVMIntToPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze => {
            let from_bits = l.op_bits(0)?;
            let to_bits = l.result_bits()?;
            Op::Cast {
                op: match from_bits.cmp(&to_bits) {
                    std::cmp::Ordering::Equal => CastOp::Same,
                    std::cmp::Ordering::Greater => CastOp::Trunc,
                    std::cmp::Ordering::Less => CastOp::ZExt,
                },
                a: l.op(0)?,
                from_bits,
                to_bits,
            }
        }
        LLVMFPTrunc | LLVMFPExt | LLVMFPToUI | LLVMFPToSI | LLVMUIToFP | LLVMSIToFP => {
            lower_fcast(l, opc)?
        }
        LLVMSelect => {
            if l.op_ty(0)?.kind() != TyKind::Int(1) {
                return Err("vector select instruction".into());
            }
            Op::Select {
                bits: l.result_bits()?,
                cond: l.op(0)?,
                t: l.op(1)?,
                f: l.op(2)?,
            }
        }
        LLVMAlloca => {
            let ty = inst.allocated_type();
            Op::Alloca {
                elem_bytes: l.cx.alloc_size(ty)?,
                count_bits: l.op_bits(0)?,
                count: l.op(0)?,
                align: inst.alignment(),
            }
        }
        LLVMLoad => Op::Load {
            bytes: l.cx.store_bytes(inst.ty())?,
            bits: l.result_bits()?,
            ptr: l.op(0)?,
        },
        LLVMStore => Op::Store {
            bytes: l.cx.store_bytes(Some(l.op_ty(0)?))?,
            bits: l.op_bits(0)?,
            value: l.op(0)?,
            ptr: l.op(1)?,
        },
        LLVMGetElementPtr => lower_gep(l)?,
        LLVMPHI => {
            let mut incoming = Vec::new();
            for (v, b) in inst.incoming() {
                incoming.push((l.f.block(b)?, l.f.operand(l.cx, v)?));
            }
            Op::Phi {
                incoming,
                bits: l.result_bits()?,
            }
        }
        LLVMCall => crate::intrinsics::lower_call(l)?,
        LLVMVAArg => Op::VaArg {
            bytes: l.cx.store_bytes(inst.ty())?,
            bits: l.result_bits()?,
            list: l.op(0)?,
        },
        LLVMExtractValue => {
            let bit_offset = agg_offset(l.cx, l.op_ty(0)?, &inst.agg_indices())?;
            Op::ExtractValue {
                agg: l.op(0)?,
                bit_offset,
                bits: l.result_bits()?,
            }
        }
        LLVMInsertValue => {
            let bit_offset = agg_offset(l.cx, l.op_ty(0)?, &inst.agg_indices())?;
            Op::InsertValue {
                agg: l.op(0)?,
                value: l.op(1)?,
                agg_bits: l.op_bits(0)?,
                bit_offset,
                value_bits: l.op_bits(1)?,
            }
        }
        LLVMExtractElement => {
            let (elem_bits, len) = vector_shape(l.cx, l.op_ty(0)?)?;
            Op::ExtractElement {
                vector: l.op(0)?,
                index: l.op(1)?,
                index_bits: l.op_bits(1)?,
                elem_bits,
                len,
            }
        }
        LLVMInsertElement => {
            let (elem_bits, len) = vector_shape(l.cx, l.op_ty(0)?)?;
            Op::InsertElement {
                vector: l.op(0)?,
                value: l.op(1)?,
                index: l.op(2)?,
                index_bits: l.op_bits(2)?,
                elem_bits,
                len,
            }
        }
        LLVMShuffleVector => {
            let (elem_bits, in_len) = vector_shape(l.cx, l.op_ty(0)?)?;
            Op::ShuffleVector {
                a: l.op(0)?,
                b: l.op(1)?,
                mask: inst.shuffle_mask(),
                elem_bits,
                in_len,
            }
        }
        LLVMAtomicRMW => {
            let op = match inst.atomic_rmw_op() {
                Some(Ok(op)) => op,
                Some(Err(name)) => return Err(format!("atomicrmw {name} instruction")),
                None => return Err("atomicrmw without operation".into()),
            };
            Op::AtomicRmw {
                op,
                bytes: l.cx.store_bytes(Some(l.op_ty(1)?))?,
                bits: l.op_bits(1)?,
                ptr: l.op(0)?,
                value: l.op(1)?,
            }
        }
        LLVMAtomicCmpXchg => Op::CmpXchg {
            bytes: l.cx.store_bytes(Some(l.op_ty(1)?))?,
            bits: l.op_bits(1)?,
            ptr: l.op(0)?,
            expected: l.op(1)?,
            new: l.op(2)?,
        },
        LLVMFence => Op::Intrinsic {
            which: Intrinsic::Nop,
            args: Vec::new(),
            arg_bits: Vec::new(),
            bits: 0,
            ret_bits: None,
        },
        other => return Err(format!("{} instruction", mnemonic(other))),
    })
}

fn lower_switch(l: &mut L<'_, '_>) -> R<Op> {
    let bits = l.scalar_int(Some(l.op_ty(0)?))?;
    let cond = l.op(0)?;
    let default = l.block_operand(1)?;
    let n = l.inst.num_operands();
    let mut cases = Vec::with_capacity((n as usize).saturating_sub(2) / 2);
    for k in (2..n.saturating_sub(1)).step_by(2) {
        let value = l.cx.int_bits(l.val(k)?)?;
        cases.push((value, l.block_operand(k + 1)?));
    }
    Ok(Op::Switch {
        cond,
        bits,
        default,
        cases,
    })
}

/// `indirectbr ptr %a, [label %x, ...]`: each destination with the address
/// its `blockaddress` constant has.
fn lower_indirectbr(l: &mut L<'_, '_>) -> R<Op> {
    let addr = l.op(0)?;
    let f = l.f.id.ok_or("indirectbr in a function of another module")?;
    let mut targets = Vec::new();
    for k in 1..l.inst.num_operands() {
        let b = l.block_operand(k)?;
        targets.push((Bits::from_u64(64, symtest_ir::block_address(f, b)), b));
    }
    Ok(Op::IndirectBr { addr, targets })
}

fn lower_fcast(l: &mut L<'_, '_>, opc: Opcode) -> R<Op> {
    use Opcode::*;
    let from = l.op_ty(0)?;
    let to = l.inst.ty();
    let op = match opc {
        LLVMFPTrunc | LLVMFPExt => FCastOp::Convert {
            from: l.cx.float_ty(Some(from))?,
            to: l.cx.float_ty(to)?,
        },
        LLVMFPToUI => FCastOp::FpToUi {
            from: l.cx.float_ty(Some(from))?,
            bits: l.scalar_int(to)?,
        },
        LLVMFPToSI => FCastOp::FpToSi {
            from: l.cx.float_ty(Some(from))?,
            bits: l.scalar_int(to)?,
        },
        LLVMUIToFP => FCastOp::UiToFp {
            bits: l.scalar_int(Some(from))?,
            to: l.cx.float_ty(to)?,
        },
        _ => FCastOp::SiToFp {
            bits: l.scalar_int(Some(from))?,
            to: l.cx.float_ty(to)?,
        },
    };
    Ok(Op::FCast { op, a: l.op(0)? })
}

fn lower_gep(l: &mut L<'_, '_>) -> R<Op> {
    let inst = l.inst;
    if inst.ty().map(|t| t.kind()) == Some(TyKind::Vector) {
        return Err("vector getelementptr instruction".into());
    }
    let src = inst
        .gep_source_type()
        .ok_or("getelementptr without source type")?;
    let indices: Vec<_> = (1..inst.num_operands())
        .map(|i| l.val(i))
        .collect::<R<_>>()?;
    let walk = l.cx.gep_walk(src, &indices)?;
    let mut terms = Vec::with_capacity(walk.terms.len());
    for (v, index_bits, scale) in walk.terms {
        terms.push(GepTerm {
            index: l.f.operand(l.cx, v)?,
            index_bits,
            scale,
        });
    }
    Ok(Op::Gep {
        base: l.op(0)?,
        offset: walk.offset,
        terms,
    })
}

/// Bit offset of the member selected by `extractvalue`/`insertvalue` indices.
pub(crate) fn agg_offset<'m>(cx: &Cx<'m>, ty: Ty<'m>, indices: &[u32]) -> R<u32> {
    let mut off: u64 = 0;
    let mut t = ty;
    for &i in indices {
        match t.kind() {
            TyKind::Struct => {
                off += 8 * cx.layout.field_offset(t, i).ok_or("bad struct index")?;
                t = t.field(i).ok_or("bad struct index")?;
            }
            TyKind::Array => {
                let e = t.elem().ok_or("array without element type")?;
                off += 8 * i as u64 * cx.alloc_size(Some(e))?;
                t = e;
            }
            _ => return Err("extractvalue/insertvalue on a non-aggregate".into()),
        }
    }
    u32::try_from(off).map_err(|_| "aggregate too large".into())
}

/// (element bits, length) of a fixed vector type.
fn vector_shape<'m>(cx: &Cx<'m>, ty: Ty<'m>) -> R<(u32, u32)> {
    if ty.kind() != TyKind::Vector {
        return Err(format!("vector operation on {:?}", ty.kind()));
    }
    let elem_bits = cx.bits_or_err(ty.elem())?;
    let len = u32::try_from(ty.len()).map_err(|_| "vector too long")?;
    Ok((elem_bits, len))
}

/// The LLVM assembly name of an opcode.
pub(crate) fn mnemonic(op: Opcode) -> &'static str {
    use Opcode::*;
    match op {
        LLVMRet => "ret",
        LLVMBr => "br",
        LLVMSwitch => "switch",
        LLVMIndirectBr => "indirectbr",
        LLVMInvoke => "invoke",
        LLVMUnreachable => "unreachable",
        LLVMCallBr => "callbr",
        LLVMFNeg => "fneg",
        LLVMAdd => "add",
        LLVMFAdd => "fadd",
        LLVMSub => "sub",
        LLVMFSub => "fsub",
        LLVMMul => "mul",
        LLVMFMul => "fmul",
        LLVMUDiv => "udiv",
        LLVMSDiv => "sdiv",
        LLVMFDiv => "fdiv",
        LLVMURem => "urem",
        LLVMSRem => "srem",
        LLVMFRem => "frem",
        LLVMShl => "shl",
        LLVMLShr => "lshr",
        LLVMAShr => "ashr",
        LLVMAnd => "and",
        LLVMOr => "or",
        LLVMXor => "xor",
        LLVMAlloca => "alloca",
        LLVMLoad => "load",
        LLVMStore => "store",
        LLVMGetElementPtr => "getelementptr",
        LLVMTrunc => "trunc",
        LLVMZExt => "zext",
        LLVMSExt => "sext",
        LLVMFPToUI => "fptoui",
        LLVMFPToSI => "fptosi",
        LLVMUIToFP => "uitofp",
        LLVMSIToFP => "sitofp",
        LLVMFPTrunc => "fptrunc",
        LLVMFPExt => "fpext",
        LLVMPtrToInt => "ptrtoint",
        LLVMIntToPtr => "inttoptr",
        LLVMBitCast => "bitcast",
        LLVMAddrSpaceCast => "addrspacecast",
        LLVMICmp => "icmp",
        LLVMFCmp => "fcmp",
        LLVMPHI => "phi",
        LLVMCall => "call",
        LLVMSelect => "select",
        LLVMUserOp1 | LLVMUserOp2 => "user-op",
        LLVMVAArg => "va_arg",
        LLVMExtractElement => "extractelement",
        LLVMInsertElement => "insertelement",
        LLVMShuffleVector => "shufflevector",
        LLVMExtractValue => "extractvalue",
        LLVMInsertValue => "insertvalue",
        LLVMFreeze => "freeze",
        LLVMFence => "fence",
        LLVMAtomicCmpXchg => "cmpxchg",
        LLVMAtomicRMW => "atomicrmw",
        LLVMResume => "resume",
        LLVMLandingPad => "landingpad",
        LLVMCleanupRet => "cleanupret",
        LLVMCatchRet => "catchret",
        LLVMCatchPad => "catchpad",
        LLVMCleanupPad => "cleanuppad",
        LLVMCatchSwitch => "catchswitch",
    }
}
