//! Safe wrappers over LLVM values (see the module documentation of `llvm`).
//!
//! A [`Val`] is a raw value reference: an operand may be metadata, a basic block,
//! inline asm or a value of a type inkwell's value enums reject with a panic
//! (token, label, x86_mmx, target extension), so the handle cannot be an inkwell
//! value. Where inkwell has a typed wrapper that accepts every value of a kind —
//! [`FunctionValue`], [`GlobalValue`], [`InstructionValue`] — the queries go
//! through it, after a kind check.

use std::ffi::c_uint;
use std::marker::PhantomData;

use inkwell::values::{FunctionValue, GlobalValue, InstructionValue};
use inkwell::{AtomicRMWBinOp, FloatPredicate, IntPredicate};
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMValueKind;
use symtest_ir::{AtomicOp, FloatPred, IntPred};

use super::{lstr, take_message, Block, Md, Opcode, Ty, TyKind};

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
    _m: PhantomData<&'m ()>,
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

    /// The inkwell view of a function.
    fn function(self) -> Option<FunctionValue<'m>> {
        // SAFETY: `raw` is a live value; `FunctionValue::new` checks that it is a
        // function (`None` otherwise).
        unsafe { FunctionValue::new(self.raw) }
    }

    /// The inkwell view of a global value (variable, function, alias, ifunc).
    fn global(self) -> Option<GlobalValue<'m>> {
        // SAFETY: `raw` is a live, non-null global value.
        self.is_global_value()
            .then(|| unsafe { GlobalValue::new(self.raw) })
    }

    /// The inkwell view of an instruction.
    fn inst(self) -> Option<InstructionValue<'m>> {
        // SAFETY: `raw` is a live, non-null instruction.
        self.is_inst()
            .then(|| unsafe { InstructionValue::new(self.raw) })
    }

    pub(crate) fn kind(self) -> VKind {
        use LLVMValueKind::*;
        // Raw: inkwell has no value-kind query that accepts every value (its
        // `AnyValueEnum::new` panics on metadata, labels and tokens).
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
        // Raw: see `kind` (inkwell reaches a value's type through its value enums).
        // SAFETY: every value has a type.
        Ty::new(unsafe { LLVMTypeOf(self.raw) })
    }

    /// The value's name (empty if unnamed).
    pub(crate) fn name(self) -> String {
        // Raw: inkwell's `get_name` returns a `&CStr`, cut at the first NUL, but
        // LLVM names may contain NUL bytes; `LLVMGetValueName2` gives the length.
        // SAFETY: `raw` is live; the name is a (pointer, length) pair it owns.
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetValueName2(self.raw, &mut len);
            lstr(p, len)
        }
    }

    /// The value printed as LLVM assembly (used for wide and exotic constants).
    pub(crate) fn print(self) -> String {
        // Raw: works on every value, including those inkwell cannot wrap.
        // SAFETY: the returned message is ours to free.
        unsafe { take_message(LLVMPrintValueToString(self.raw)) }
    }

    pub(crate) fn num_operands(self) -> u32 {
        if !self.is_user() {
            return 0;
        }
        // Raw: constants and constant expressions have operands too, and inkwell
        // only counts those of instructions.
        // SAFETY: `raw` is a User.
        let n = unsafe { LLVMGetNumOperands(self.raw) };
        n.max(0) as u32
    }

    pub(crate) fn operand(self, i: u32) -> Option<Val<'m>> {
        if i >= self.num_operands() {
            return None;
        }
        // Raw: operands may be metadata (debug intrinsics), on which inkwell's
        // `get_operand` panics, or operands of constants.
        // SAFETY: `raw` is a User with more than `i` operands.
        Val::opt(unsafe { LLVMGetOperand(self.raw, i) })
    }

    /// Opcode of an instruction or constant expression.
    pub(crate) fn opcode(self) -> Option<Opcode> {
        // Raw: inkwell has no opcode of constant expressions; one opcode type
        // serves both.
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
        // Raw: the handle is not an inkwell `IntValue`, whose accessor would need
        // an `unsafe` re-wrap (and returns `None` above 64 bits, unlike this).
        // SAFETY: `raw` is a ConstantInt.
        Some(unsafe { LLVMConstIntGetZExtValue(self.raw) })
    }

    /// The value of a `ConstantFP` as a double (exact for float and double).
    pub(crate) fn const_fp_double(self) -> Option<f64> {
        if self.kind() != VKind::ConstFP {
            return None;
        }
        let mut loses = 0;
        // Raw: as for `const_int_u64`.
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
        // Raw: inkwell has no element access for every kind of constant aggregate.
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
        // Raw: inkwell's `ArrayValue::as_const_string` would need an `unsafe`
        // re-wrap and does not cover vectors.
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

    /// Predicate of an `icmp` instruction (LLVM 19 has no icmp constant
    /// expressions).
    pub(crate) fn icmp_pred(self) -> Option<IntPred> {
        Some(match self.inst()?.get_icmp_predicate()? {
            IntPredicate::EQ => IntPred::Eq,
            IntPredicate::NE => IntPred::Ne,
            IntPredicate::UGT => IntPred::Ugt,
            IntPredicate::UGE => IntPred::Uge,
            IntPredicate::ULT => IntPred::Ult,
            IntPredicate::ULE => IntPred::Ule,
            IntPredicate::SGT => IntPred::Sgt,
            IntPredicate::SGE => IntPred::Sge,
            IntPredicate::SLT => IntPred::Slt,
            IntPredicate::SLE => IntPred::Sle,
        })
    }

    /// Predicate of an `fcmp` instruction.
    pub(crate) fn fcmp_pred(self) -> Option<FloatPred> {
        Some(match self.inst()?.get_fcmp_predicate()? {
            FloatPredicate::PredicateFalse => FloatPred::False,
            FloatPredicate::OEQ => FloatPred::Oeq,
            FloatPredicate::OGT => FloatPred::Ogt,
            FloatPredicate::OGE => FloatPred::Oge,
            FloatPredicate::OLT => FloatPred::Olt,
            FloatPredicate::OLE => FloatPred::Ole,
            FloatPredicate::ONE => FloatPred::One,
            FloatPredicate::ORD => FloatPred::Ord,
            FloatPredicate::UNO => FloatPred::Uno,
            FloatPredicate::UEQ => FloatPred::Ueq,
            FloatPredicate::UGT => FloatPred::Ugt,
            FloatPredicate::UGE => FloatPred::Uge,
            FloatPredicate::ULT => FloatPred::Ult,
            FloatPredicate::ULE => FloatPred::Ule,
            FloatPredicate::UNE => FloatPred::Une,
            FloatPredicate::PredicateTrue => FloatPred::True,
        })
    }

    /// Allocated type of an `alloca`.
    pub(crate) fn allocated_type(self) -> Option<Ty<'m>> {
        if !self.is_inst() || self.opcode() != Some(Opcode::LLVMAlloca) {
            return None;
        }
        // Raw: inkwell's `get_allocated_type` panics on allocas of target-extension
        // types (via `BasicTypeEnum::new`).
        // SAFETY: `raw` is an alloca.
        Ty::new(unsafe { LLVMGetAllocatedType(self.raw) })
    }

    /// Source element type of a GEP instruction or constant expression.
    pub(crate) fn gep_source_type(self) -> Option<Ty<'m>> {
        if self.opcode() != Some(Opcode::LLVMGetElementPtr) {
            return None;
        }
        // Raw: inkwell only answers for GEP instructions, not constant expressions.
        // SAFETY: `raw` is a GEPOperator (instruction or constant expression).
        Ty::new(unsafe { LLVMGetGEPSourceElementType(self.raw) })
    }

    /// Alignment of a global variable, function, alloca, load, store, atomicrmw or cmpxchg.
    pub(crate) fn alignment(self) -> u32 {
        if matches!(self.kind(), VKind::GlobalVariable | VKind::Function) {
            return self.global().map_or(0, |g| g.get_alignment());
        }
        let Some(inst) = self.inst() else {
            return 0;
        };
        match self.opcode() {
            Some(Opcode::LLVMAlloca | Opcode::LLVMLoad | Opcode::LLVMStore) => {
                inst.get_alignment().unwrap_or(0)
            }
            Some(Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg) => {
                // Raw: inkwell's `get_alignment` only accepts alloca, load and store.
                // SAFETY: `raw` is an atomicrmw or cmpxchg, which have an alignment.
                unsafe { LLVMGetAlignment(self.raw) }
            }
            _ => 0,
        }
    }

    /// Indices of an `extractvalue`/`insertvalue` instruction.
    pub(crate) fn agg_indices(self) -> Vec<u32> {
        self.inst().map(|i| i.get_indices()).unwrap_or_default()
    }

    /// Mask of a `shufflevector` (`-1` for undefined elements).
    pub(crate) fn shuffle_mask(self) -> Vec<i32> {
        if !self.is_inst() || self.opcode() != Some(Opcode::LLVMShuffleVector) {
            return Vec::new();
        }
        // Raw: inkwell has no shufflevector mask accessor.
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
        // Raw: the callee may be inline asm or any pointer value; inkwell's
        // `CallSiteValue::get_called_fn_value` only yields functions.
        // SAFETY: `raw` is a CallBase.
        Val::opt(unsafe { LLVMGetCalledValue(self.raw) })
    }

    /// Number of argument operands of a call.
    pub(crate) fn num_args(self) -> u32 {
        if !self.is_call_like() {
            return 0;
        }
        // Raw: inkwell's `CallSiteValue` covers only `call`, not invoke/callbr.
        // SAFETY: `raw` is a CallBase.
        unsafe { LLVMGetNumArgOperands(self.raw) }
    }

    /// Assembly text of an inline asm value.
    pub(crate) fn inline_asm_text(self) -> Option<String> {
        if self.kind() != VKind::InlineAsm {
            return None;
        }
        // Raw: inkwell has no inline asm accessors.
        // SAFETY: `raw` is an InlineAsm; the text is a (pointer, length) pair.
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetInlineAsmAsmString(self.raw, &mut len);
            Some(lstr(p, len))
        }
    }

    /// The function and block of a `blockaddress` constant.
    pub(crate) fn block_address(self) -> Option<(Val<'m>, Block<'m>)> {
        if self.kind() != VKind::BlockAddress {
            return None;
        }
        // Raw: inkwell has no blockaddress accessors.
        // SAFETY: `raw` is a BlockAddress constant.
        unsafe {
            let f = Val::opt(LLVMGetBlockAddressFunction(self.raw))?;
            let b = Block::new(LLVMGetBlockAddressBasicBlock(self.raw))?;
            Some((f, b))
        }
    }

    /// Constraint string of an inline asm value (`=r,0,~{memory}`).
    pub(crate) fn inline_asm_constraints(self) -> Option<String> {
        if self.kind() != VKind::InlineAsm {
            return None;
        }
        // Raw: inkwell has no inline asm accessors.
        // SAFETY: `raw` is an InlineAsm; the string is a (pointer, length) pair.
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetInlineAsmConstraintString(self.raw, &mut len);
            Some(lstr(p, len))
        }
    }

    /// Successor `i` of a terminator.
    pub(crate) fn successor(self, i: u32) -> Option<Block<'m>> {
        // Raw: inkwell has no successor accessors (its `get_operand` panics on
        // metadata operands and does not order successors).
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
        // Raw: inkwell's `get_operand` would hand back a typed `BasicValueEnum`,
        // and its operand order for `br` is LLVM's internal one.
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
        // Raw: switch, indirectbr and other operands may be blocks, which inkwell
        // only exposes through its panicking `get_operand`.
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
        // Raw: inkwell's `PhiValue::get_incoming` wraps each value in a
        // `BasicValueEnum`, which panics on phis of x86_mmx or target-extension type.
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
        Some(match self.inst()?.get_atomic_rmw_bin_op()? {
            AtomicRMWBinOp::Xchg => Ok(AtomicOp::Xchg),
            AtomicRMWBinOp::Add => Ok(AtomicOp::Add),
            AtomicRMWBinOp::Sub => Ok(AtomicOp::Sub),
            AtomicRMWBinOp::And => Ok(AtomicOp::And),
            AtomicRMWBinOp::Nand => Ok(AtomicOp::Nand),
            AtomicRMWBinOp::Or => Ok(AtomicOp::Or),
            AtomicRMWBinOp::Xor => Ok(AtomicOp::Xor),
            AtomicRMWBinOp::Max => Ok(AtomicOp::Max),
            AtomicRMWBinOp::Min => Ok(AtomicOp::Min),
            AtomicRMWBinOp::UMax => Ok(AtomicOp::UMax),
            AtomicRMWBinOp::UMin => Ok(AtomicOp::UMin),
            AtomicRMWBinOp::FAdd => Err("fadd"),
            AtomicRMWBinOp::FSub => Err("fsub"),
            AtomicRMWBinOp::FMax => Err("fmax"),
            AtomicRMWBinOp::FMin => Err("fmin"),
            AtomicRMWBinOp::UIncWrap => Err("uinc_wrap"),
            AtomicRMWBinOp::UDecWrap => Err("udec_wrap"),
        })
    }

    /// The `DILocation` attached to an instruction (decoded by [`Md::location`]).
    pub(crate) fn debug_loc(self) -> Option<Md<'m>> {
        Md::new(self.inst()?.get_debug_location()?.as_mut_ptr())
    }

    /// The `DISubprogram` of a function.
    pub(crate) fn subprogram(self) -> Option<Md<'m>> {
        Md::new(self.function()?.get_subprogram()?.as_mut_ptr())
    }

    /// Metadata attachments of kind `kind` on a global variable.
    pub(crate) fn global_metadata(self, kind: u32) -> Vec<Md<'m>> {
        if self.kind() != VKind::GlobalVariable {
            return Vec::new();
        }
        let mut out = Vec::new();
        // Raw: inkwell has no API listing a global's metadata attachments.
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
        // Raw: inkwell's `get_value_type` panics on globals of x86_mmx or
        // target-extension type (via `AnyTypeEnum::new`).
        // SAFETY: `raw` is a GlobalValue.
        Ty::new(unsafe { LLVMGlobalGetValueType(self.raw) })
    }

    /// Initializer of a global variable (`None` for declarations).
    pub(crate) fn initializer(self) -> Option<Val<'m>> {
        if self.kind() != VKind::GlobalVariable {
            return None;
        }
        // Raw: inkwell's `get_initializer` panics on initializers of x86_mmx or
        // target-extension type (via `BasicValueEnum::new`).
        // SAFETY: `raw` is a global variable; null means no initializer.
        Val::opt(unsafe { LLVMGetInitializer(self.raw) })
    }

    /// The `constant` flag of a global variable.
    pub(crate) fn is_global_constant(self) -> bool {
        self.kind() == VKind::GlobalVariable && self.global().is_some_and(|g| g.is_constant())
    }

    /// True for a function declaration (no body).
    pub(crate) fn is_declaration(self) -> bool {
        self.global().is_some_and(|g| g.is_declaration())
    }

    /// An `extern_weak` declaration (a weak reference nothing defines).
    pub(crate) fn is_extern_weak(self) -> bool {
        if !self.is_global_value() {
            return false;
        }
        // SAFETY: `raw` is a GlobalValue.
        unsafe { LLVMGetLinkage(self.raw) == llvm_sys::LLVMLinkage::LLVMExternalWeakLinkage }
    }

    /// The aliasee of a global alias.
    pub(crate) fn aliasee(self) -> Option<Val<'m>> {
        if self.kind() != VKind::GlobalAlias {
            return None;
        }
        // Raw: inkwell has no alias API.
        // SAFETY: `raw` is a GlobalAlias.
        Val::opt(unsafe { LLVMAliasGetAliasee(self.raw) })
    }

    /// Parameters of a function.
    pub(crate) fn params(self) -> Vec<Val<'m>> {
        if self.kind() != VKind::Function {
            return Vec::new();
        }
        // Raw: inkwell's `get_params` wraps each in a `BasicValueEnum`, which
        // panics on parameters of x86_mmx or target-extension type.
        // SAFETY: `raw` is a function; indices are below its parameter count.
        unsafe {
            (0..LLVMCountParams(self.raw))
                .filter_map(|i| Val::opt(LLVMGetParam(self.raw, i)))
                .collect()
        }
    }

    /// Basic blocks of a function, entry first.
    pub(crate) fn blocks(self) -> Vec<Block<'m>> {
        self.function()
            .map(|f| {
                f.get_basic_block_iter()
                    .filter_map(|b| Block::new(b.as_mut_ptr()))
                    .collect()
            })
            .unwrap_or_default()
    }
}
