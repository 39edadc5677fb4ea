//! Safe wrappers over LLVM values (see the module documentation of `llvm`).

use std::ffi::c_uint;
use std::marker::PhantomData;

use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMAtomicRMWBinOp, LLVMIntPredicate, LLVMRealPredicate, LLVMValueKind};
use symtest_ir::{AtomicOp, FloatPred, IntPred};

use super::{lstr, take_message, Block, Llvm, Md, Opcode, Ty, TyKind};

/// The kinds of values the loader distinguishes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum VKind {
    Argument,
    BasicBlock,
    Function,
    GlobalAlias,
    GlobalIFunc,
    GlobalVariable,
    BlockAddress,
    ConstExpr,
    ConstArray,
    ConstStruct,
    ConstVector,
    Undef,
    Poison,
    AggregateZero,
    DataArray,
    DataVector,
    ConstInt,
    ConstFP,
    Null,
    Metadata,
    InlineAsm,
    Instruction,
    /// Token none, target none, ptrauth, memory SSA values.
    Other,
}

/// An LLVM value of the module `'m`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Val<'m> {
    raw: LLVMValueRef,
    _m: PhantomData<&'m Llvm>,
}

impl<'m> Val<'m> {
    pub(super) fn new(raw: LLVMValueRef) -> Val<'m> {
        Val {
            raw,
            _m: PhantomData,
        }
    }

    fn opt(raw: LLVMValueRef) -> Option<Val<'m>> {
        (!raw.is_null()).then(|| Val::new(raw))
    }

    pub(crate) fn raw(self) -> LLVMValueRef {
        self.raw
    }

    pub(crate) fn kind(self) -> VKind {
        use LLVMValueKind::*;
        // SAFETY: `raw` is a live value; the query accepts every value.
        match unsafe { LLVMGetValueKind(self.raw) } {
            LLVMArgumentValueKind => VKind::Argument,
            LLVMBasicBlockValueKind => VKind::BasicBlock,
            LLVMFunctionValueKind => VKind::Function,
            LLVMGlobalAliasValueKind => VKind::GlobalAlias,
            LLVMGlobalIFuncValueKind => VKind::GlobalIFunc,
            LLVMGlobalVariableValueKind => VKind::GlobalVariable,
            LLVMBlockAddressValueKind => VKind::BlockAddress,
            LLVMConstantExprValueKind => VKind::ConstExpr,
            LLVMConstantArrayValueKind => VKind::ConstArray,
            LLVMConstantStructValueKind => VKind::ConstStruct,
            LLVMConstantVectorValueKind => VKind::ConstVector,
            LLVMUndefValueValueKind => VKind::Undef,
            LLVMPoisonValueKind => VKind::Poison,
            LLVMConstantAggregateZeroValueKind => VKind::AggregateZero,
            LLVMConstantDataArrayValueKind => VKind::DataArray,
            LLVMConstantDataVectorValueKind => VKind::DataVector,
            LLVMConstantIntValueKind => VKind::ConstInt,
            LLVMConstantFPValueKind => VKind::ConstFP,
            LLVMConstantPointerNullValueKind => VKind::Null,
            LLVMMetadataAsValueValueKind => VKind::Metadata,
            LLVMInlineAsmValueKind => VKind::InlineAsm,
            LLVMInstructionValueKind => VKind::Instruction,
            _ => VKind::Other,
        }
    }

    /// True for values that are `User`s (instructions, constants, globals).
    fn is_user(self) -> bool {
        !matches!(
            self.kind(),
            VKind::Argument | VKind::BasicBlock | VKind::Metadata | VKind::InlineAsm | VKind::Other
        )
    }

    fn is_global_value(self) -> bool {
        matches!(
            self.kind(),
            VKind::Function | VKind::GlobalAlias | VKind::GlobalIFunc | VKind::GlobalVariable
        )
    }

    fn is_inst(self) -> bool {
        self.kind() == VKind::Instruction
    }

    pub(crate) fn ty(self) -> Option<Ty<'m>> {
        // SAFETY: every value has a type.
        Ty::new(unsafe { LLVMTypeOf(self.raw) })
    }

    /// The value's name (empty if unnamed).
    pub(crate) fn name(self) -> String {
        // SAFETY: `raw` is live; the name is a (pointer, length) pair it owns.
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetValueName2(self.raw, &mut len);
            lstr(p, len)
        }
    }

    /// The value printed as LLVM assembly (used for wide and exotic constants).
    pub(crate) fn print(self) -> String {
        // SAFETY: the returned message is ours to free.
        unsafe { take_message(LLVMPrintValueToString(self.raw)) }
    }

    pub(crate) fn num_operands(self) -> u32 {
        if !self.is_user() {
            return 0;
        }
        // SAFETY: `raw` is a User.
        let n = unsafe { LLVMGetNumOperands(self.raw) };
        n.max(0) as u32
    }

    pub(crate) fn operand(self, i: u32) -> Option<Val<'m>> {
        if i >= self.num_operands() {
            return None;
        }
        // SAFETY: `raw` is a User with more than `i` operands.
        Val::opt(unsafe { LLVMGetOperand(self.raw, i) })
    }

    /// Opcode of an instruction or constant expression.
    pub(crate) fn opcode(self) -> Option<Opcode> {
        // SAFETY: each query is made on the matching value kind.
        unsafe {
            match self.kind() {
                VKind::Instruction => Some(LLVMGetInstructionOpcode(self.raw)),
                VKind::ConstExpr => Some(LLVMGetConstOpcode(self.raw)),
                _ => None,
            }
        }
    }

    /// The value of a `ConstantInt` of width <= 64, zero-extended.
    pub(crate) fn const_int_u64(self) -> Option<u64> {
        if self.kind() != VKind::ConstInt {
            return None;
        }
        // SAFETY: `raw` is a ConstantInt.
        Some(unsafe { LLVMConstIntGetZExtValue(self.raw) })
    }

    /// The value of a `ConstantFP` as a double (exact for float and double).
    pub(crate) fn const_fp_double(self) -> Option<f64> {
        if self.kind() != VKind::ConstFP {
            return None;
        }
        let mut loses = 0;
        // SAFETY: `raw` is a ConstantFP.
        Some(unsafe { LLVMConstRealGetDouble(self.raw, &mut loses) })
    }

    /// Element `i` of an aggregate, vector or data-sequential constant.
    pub(crate) fn aggregate_element(self, i: u32) -> Option<Val<'m>> {
        if !matches!(
            self.kind(),
            VKind::ConstArray
                | VKind::ConstStruct
                | VKind::ConstVector
                | VKind::DataArray
                | VKind::DataVector
                | VKind::AggregateZero
                | VKind::Undef
                | VKind::Poison
        ) {
            return None;
        }
        // SAFETY: `raw` is a constant; LLVM returns null for an out-of-range index.
        Val::opt(unsafe { LLVMGetAggregateElement(self.raw, i) })
    }

    /// The raw bytes of a `ConstantDataArray`/`Vector` of `i8`.
    pub(crate) fn i8_data(self) -> Option<Vec<u8>> {
        if !matches!(self.kind(), VKind::DataArray | VKind::DataVector) {
            return None;
        }
        let elem = self.ty()?.elem()?;
        if elem.kind() != TyKind::Int(8) {
            return None;
        }
        // SAFETY: `raw` is a ConstantDataSequential of i8 (a "string"), for which
        // `getAsString` is defined; the data is `len` bytes owned by the constant.
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetAsString(self.raw, &mut len);
            if p.is_null() {
                return None;
            }
            Some(std::slice::from_raw_parts(p as *const u8, len).to_vec())
        }
    }

    /// Predicate of an `icmp` instruction.
    pub(crate) fn icmp_pred(self) -> Option<IntPred> {
        // LLVM 19 has no icmp constant expressions (and the C API answers 0, not a
        // predicate, for anything but an instruction).
        if !self.is_inst() || self.opcode() != Some(Opcode::LLVMICmp) {
            return None;
        }
        use LLVMIntPredicate::*;
        // SAFETY: `raw` is an icmp instruction.
        Some(match unsafe { LLVMGetICmpPredicate(self.raw) } {
            LLVMIntEQ => IntPred::Eq,
            LLVMIntNE => IntPred::Ne,
            LLVMIntUGT => IntPred::Ugt,
            LLVMIntUGE => IntPred::Uge,
            LLVMIntULT => IntPred::Ult,
            LLVMIntULE => IntPred::Ule,
            LLVMIntSGT => IntPred::Sgt,
            LLVMIntSGE => IntPred::Sge,
            LLVMIntSLT => IntPred::Slt,
            LLVMIntSLE => IntPred::Sle,
        })
    }

    /// Predicate of an `fcmp` instruction.
    pub(crate) fn fcmp_pred(self) -> Option<FloatPred> {
        if !self.is_inst() || self.opcode() != Some(Opcode::LLVMFCmp) {
            return None;
        }
        use LLVMRealPredicate::*;
        // SAFETY: `raw` is an fcmp instruction.
        Some(match unsafe { LLVMGetFCmpPredicate(self.raw) } {
            LLVMRealPredicateFalse => FloatPred::False,
            LLVMRealOEQ => FloatPred::Oeq,
            LLVMRealOGT => FloatPred::Ogt,
            LLVMRealOGE => FloatPred::Oge,
            LLVMRealOLT => FloatPred::Olt,
            LLVMRealOLE => FloatPred::Ole,
            LLVMRealONE => FloatPred::One,
            LLVMRealORD => FloatPred::Ord,
            LLVMRealUNO => FloatPred::Uno,
            LLVMRealUEQ => FloatPred::Ueq,
            LLVMRealUGT => FloatPred::Ugt,
            LLVMRealUGE => FloatPred::Uge,
            LLVMRealULT => FloatPred::Ult,
            LLVMRealULE => FloatPred::Ule,
            LLVMRealUNE => FloatPred::Une,
            LLVMRealPredicateTrue => FloatPred::True,
        })
    }

    /// Allocated type of an `alloca`.
    pub(crate) fn allocated_type(self) -> Option<Ty<'m>> {
        if !self.is_inst() || self.opcode() != Some(Opcode::LLVMAlloca) {
            return None;
        }
        // SAFETY: `raw` is an alloca.
        Ty::new(unsafe { LLVMGetAllocatedType(self.raw) })
    }

    /// Source element type of a GEP instruction or constant expression.
    pub(crate) fn gep_source_type(self) -> Option<Ty<'m>> {
        if self.opcode() != Some(Opcode::LLVMGetElementPtr) {
            return None;
        }
        // SAFETY: `raw` is a GEPOperator (instruction or constant expression).
        Ty::new(unsafe { LLVMGetGEPSourceElementType(self.raw) })
    }

    /// Alignment of a global variable, function, alloca, load, store, atomicrmw or cmpxchg.
    pub(crate) fn alignment(self) -> u32 {
        let ok = match self.opcode() {
            Some(
                Opcode::LLVMAlloca
                | Opcode::LLVMLoad
                | Opcode::LLVMStore
                | Opcode::LLVMAtomicRMW
                | Opcode::LLVMAtomicCmpXchg,
            ) => self.is_inst(),
            _ => matches!(self.kind(), VKind::GlobalVariable | VKind::Function),
        };
        if !ok {
            return 0;
        }
        // SAFETY: `raw` is one of the value kinds that have an alignment.
        unsafe { LLVMGetAlignment(self.raw) }
    }

    /// Indices of an `extractvalue`/`insertvalue` instruction.
    pub(crate) fn agg_indices(self) -> Vec<u32> {
        if !self.is_inst()
            || !matches!(
                self.opcode(),
                Some(Opcode::LLVMExtractValue | Opcode::LLVMInsertValue)
            )
        {
            return Vec::new();
        }
        // SAFETY: `raw` is an extractvalue/insertvalue; the index array has
        // `LLVMGetNumIndices` entries and is owned by the instruction.
        unsafe {
            let n = LLVMGetNumIndices(self.raw) as usize;
            let p = LLVMGetIndices(self.raw);
            if p.is_null() || n == 0 {
                return Vec::new();
            }
            std::slice::from_raw_parts(p, n).to_vec()
        }
    }

    /// Mask of a `shufflevector` (`-1` for undefined elements).
    pub(crate) fn shuffle_mask(self) -> Vec<i32> {
        if !self.is_inst() || self.opcode() != Some(Opcode::LLVMShuffleVector) {
            return Vec::new();
        }
        // SAFETY: `raw` is a shufflevector; indices are below the element count.
        unsafe {
            let undef = LLVMGetUndefMaskElem();
            (0..LLVMGetNumMaskElements(self.raw))
                .map(|i| {
                    let m = LLVMGetMaskValue(self.raw, i);
                    if m == undef {
                        -1
                    } else {
                        m
                    }
                })
                .collect()
        }
    }

    fn is_call_like(self) -> bool {
        self.is_inst()
            && matches!(
                self.opcode(),
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr)
            )
    }

    /// Called operand of a call (function, constant, register or inline asm).
    pub(crate) fn called_value(self) -> Option<Val<'m>> {
        if !self.is_call_like() {
            return None;
        }
        // SAFETY: `raw` is a CallBase.
        Val::opt(unsafe { LLVMGetCalledValue(self.raw) })
    }

    /// Number of argument operands of a call.
    pub(crate) fn num_args(self) -> u32 {
        if !self.is_call_like() {
            return 0;
        }
        // SAFETY: `raw` is a CallBase.
        unsafe { LLVMGetNumArgOperands(self.raw) }
    }

    /// Assembly text of an inline asm value.
    pub(crate) fn inline_asm_text(self) -> Option<String> {
        if self.kind() != VKind::InlineAsm {
            return None;
        }
        // SAFETY: `raw` is an InlineAsm; the text is a (pointer, length) pair.
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetInlineAsmAsmString(self.raw, &mut len);
            Some(lstr(p, len))
        }
    }

    /// Successor `i` of a terminator.
    pub(crate) fn successor(self, i: u32) -> Option<Block<'m>> {
        // SAFETY: `LLVMIsATerminatorInst` is a checked cast accepting every value.
        let is_term = self.is_inst() && unsafe { !LLVMIsATerminatorInst(self.raw).is_null() };
        // SAFETY: `raw` is a terminator with more than `i` successors.
        unsafe {
            if !is_term || i >= LLVMGetNumSuccessors(self.raw) {
                return None;
            }
            Block::new(LLVMGetSuccessor(self.raw, i))
        }
    }

    /// Condition of a conditional `br`.
    pub(crate) fn branch_condition(self) -> Option<Val<'m>> {
        if !self.is_inst() || self.opcode() != Some(Opcode::LLVMBr) {
            return None;
        }
        // SAFETY: `raw` is a branch instruction.
        unsafe {
            if LLVMIsConditional(self.raw) == 0 {
                return None;
            }
            Val::opt(LLVMGetCondition(self.raw))
        }
    }

    /// The block a basic-block operand (of a switch, say) stands for.
    pub(crate) fn as_block(self) -> Option<Block<'m>> {
        // SAFETY: `LLVMValueIsBasicBlock` accepts every value; the conversion is
        // only made on basic blocks.
        unsafe {
            if LLVMValueIsBasicBlock(self.raw) == 0 {
                return None;
            }
            Block::new(LLVMValueAsBasicBlock(self.raw))
        }
    }

    /// Incoming (value, block) pairs of a `phi`.
    pub(crate) fn incoming(self) -> Vec<(Val<'m>, Option<Block<'m>>)> {
        if !self.is_inst() || self.opcode() != Some(Opcode::LLVMPHI) {
            return Vec::new();
        }
        // SAFETY: `raw` is a phi; indices are below its incoming count.
        unsafe {
            (0..LLVMCountIncoming(self.raw))
                .filter_map(|i| {
                    let v = Val::opt(LLVMGetIncomingValue(self.raw, i))?;
                    Some((v, Block::new(LLVMGetIncomingBlock(self.raw, i))))
                })
                .collect()
        }
    }

    /// Operation of an `atomicrmw`, or the name of an unsupported one.
    pub(crate) fn atomic_rmw_op(self) -> Option<Result<AtomicOp, &'static str>> {
        if !self.is_inst() || self.opcode() != Some(Opcode::LLVMAtomicRMW) {
            return None;
        }
        use LLVMAtomicRMWBinOp::*;
        // SAFETY: `raw` is an atomicrmw.
        Some(match unsafe { LLVMGetAtomicRMWBinOp(self.raw) } {
            LLVMAtomicRMWBinOpXchg => Ok(AtomicOp::Xchg),
            LLVMAtomicRMWBinOpAdd => Ok(AtomicOp::Add),
            LLVMAtomicRMWBinOpSub => Ok(AtomicOp::Sub),
            LLVMAtomicRMWBinOpAnd => Ok(AtomicOp::And),
            LLVMAtomicRMWBinOpNand => Ok(AtomicOp::Nand),
            LLVMAtomicRMWBinOpOr => Ok(AtomicOp::Or),
            LLVMAtomicRMWBinOpXor => Ok(AtomicOp::Xor),
            LLVMAtomicRMWBinOpMax => Ok(AtomicOp::Max),
            LLVMAtomicRMWBinOpMin => Ok(AtomicOp::Min),
            LLVMAtomicRMWBinOpUMax => Ok(AtomicOp::UMax),
            LLVMAtomicRMWBinOpUMin => Ok(AtomicOp::UMin),
            LLVMAtomicRMWBinOpFAdd => Err("fadd"),
            LLVMAtomicRMWBinOpFSub => Err("fsub"),
            LLVMAtomicRMWBinOpFMax => Err("fmax"),
            LLVMAtomicRMWBinOpFMin => Err("fmin"),
            LLVMAtomicRMWBinOpUIncWrap => Err("uinc_wrap"),
            LLVMAtomicRMWBinOpUDecWrap => Err("udec_wrap"),
        })
    }

    /// The `DILocation` attached to an instruction.
    pub(crate) fn debug_loc(self) -> Option<Md<'m>> {
        if !self.is_inst() {
            return None;
        }
        // SAFETY: `raw` is an instruction.
        Md::new(unsafe { LLVMInstructionGetDebugLoc(self.raw) })
    }

    /// The `DISubprogram` of a function.
    pub(crate) fn subprogram(self) -> Option<Md<'m>> {
        if self.kind() != VKind::Function {
            return None;
        }
        // SAFETY: `raw` is a function.
        Md::new(unsafe { LLVMGetSubprogram(self.raw) })
    }

    /// Metadata attachments of kind `kind` on a global variable.
    pub(crate) fn global_metadata(self, kind: u32) -> Vec<Md<'m>> {
        if self.kind() != VKind::GlobalVariable {
            return Vec::new();
        }
        let mut out = Vec::new();
        // SAFETY: `raw` is a GlobalObject; entries are indexed below their count
        // and freed once.
        unsafe {
            let mut n = 0usize;
            let entries = LLVMGlobalCopyAllMetadata(self.raw, &mut n);
            if entries.is_null() {
                return out;
            }
            for i in 0..n as c_uint {
                if LLVMValueMetadataEntriesGetKind(entries, i) == kind {
                    if let Some(m) = Md::new(LLVMValueMetadataEntriesGetMetadata(entries, i)) {
                        out.push(m);
                    }
                }
            }
            LLVMDisposeValueMetadataEntries(entries);
        }
        out
    }

    /// Value type of a global (variable, function, alias).
    pub(crate) fn global_value_type(self) -> Option<Ty<'m>> {
        if !self.is_global_value() {
            return None;
        }
        // SAFETY: `raw` is a GlobalValue.
        Ty::new(unsafe { LLVMGlobalGetValueType(self.raw) })
    }

    /// Initializer of a global variable (`None` for declarations).
    pub(crate) fn initializer(self) -> Option<Val<'m>> {
        if self.kind() != VKind::GlobalVariable {
            return None;
        }
        // SAFETY: `raw` is a global variable; null means no initializer.
        Val::opt(unsafe { LLVMGetInitializer(self.raw) })
    }

    /// The `constant` flag of a global variable.
    pub(crate) fn is_global_constant(self) -> bool {
        // SAFETY: only queried on global variables.
        self.kind() == VKind::GlobalVariable && unsafe { LLVMIsGlobalConstant(self.raw) != 0 }
    }

    /// True for a function declaration (no body).
    pub(crate) fn is_declaration(self) -> bool {
        // SAFETY: only queried on global values.
        self.is_global_value() && unsafe { LLVMIsDeclaration(self.raw) != 0 }
    }

    /// The aliasee of a global alias.
    pub(crate) fn aliasee(self) -> Option<Val<'m>> {
        if self.kind() != VKind::GlobalAlias {
            return None;
        }
        // SAFETY: `raw` is a GlobalAlias.
        Val::opt(unsafe { LLVMAliasGetAliasee(self.raw) })
    }

    /// Parameters of a function.
    pub(crate) fn params(self) -> Vec<Val<'m>> {
        if self.kind() != VKind::Function {
            return Vec::new();
        }
        // SAFETY: `raw` is a function; indices are below its parameter count.
        unsafe {
            (0..LLVMCountParams(self.raw))
                .filter_map(|i| Val::opt(LLVMGetParam(self.raw, i)))
                .collect()
        }
    }

    /// Basic blocks of a function, entry first.
    pub(crate) fn blocks(self) -> Vec<Block<'m>> {
        let mut out = Vec::new();
        if self.kind() != VKind::Function {
            return out;
        }
        // SAFETY: iteration over a live function's block list.
        unsafe {
            let mut b = LLVMGetFirstBasicBlock(self.raw);
            while !b.is_null() {
                out.extend(Block::new(b));
                b = LLVMGetNextBasicBlock(b);
            }
        }
        out
    }
}
