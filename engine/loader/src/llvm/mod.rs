//! Safe wrappers over LLVM. `unsafe` code of the crate is confined to this module
//! (`mod.rs`, `value.rs`, `prepare.rs`, `structors.rs`); the crate root denies it
//! everywhere else.
//!
//! The rule (see the crate documentation): **inkwell where it is safe, raw llvm-sys
//! where it is not.** inkwell owns the context, the memory buffer, the parsed module
//! (parsing, verification, debug-info stripping, function and global iteration, the
//! target triple), the [`TargetData`] behind every size, alignment and offset query,
//! basic blocks and instruction iteration, and the instruction queries it answers
//! without panicking. Raw llvm-sys calls remain where inkwell would panic on valid
//! input (its value and type enums reject metadata, label, token, `x86_mmx`,
//! `x86_amx` and target-extension types with `panic!`/`unreachable!`, so operands,
//! parameters, initializers, aggregate element types and signatures stay raw) or has
//! no API (diagnostic handler, command-line options, value kinds, constant
//! expressions, debug-info metadata, switch/phi/branch operands, shufflevector masks,
//! inline asm, pass pipelines without a target machine). Each raw call says why.
//!
//! Every wrapper checks the kind of the value/type/metadata it is given before
//! calling an LLVM function that would `cast<>` it (which is undefined behaviour in
//! a release LLVM when the cast is wrong), so any `Val`/`Ty`/`Md` can be passed to
//! any method: the answer is `None`/empty/0 where the question makes no sense.
//!
//! Handles carry the lifetime `'m` of the borrow of the [`Llvm`] they came from, so
//! none can outlive the module; the [`Llvm`] itself borrows its [`LlvmContext`].

use std::cell::RefCell;
use std::ffi::{c_char, c_uint, c_void, CStr};
use std::marker::PhantomData;
use std::ptr::NonNull;

use inkwell::basic_block::BasicBlock;
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::targets::{ByteOrdering, TargetData};
use inkwell::types::{AnyTypeEnum, AsTypeRef, BasicType, BasicTypeEnum};
use inkwell::values::AsValueRef;
use llvm_sys::core::{
    LLVMContextSetDiagnosticHandler, LLVMCountParamTypes, LLVMDisposeMessage, LLVMGetArrayLength2,
    LLVMGetDiagInfoDescription, LLVMGetDiagInfoSeverity, LLVMGetElementType,
    LLVMGetFirstGlobalAlias, LLVMGetIntTypeWidth, LLVMGetNextGlobalAlias, LLVMGetParamTypes,
    LLVMGetReturnType, LLVMGetTypeKind, LLVMGetValueName2, LLVMIsFunctionVarArg, LLVMSetValueName2,
    LLVMStructGetTypeAtIndex,
};
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;
use llvm_sys::support::LLVMParseCommandLineOptions;
use llvm_sys::{LLVMDiagnosticSeverity, LLVMTypeKind};

pub(crate) use llvm_sys::LLVMOpcode as Opcode;
pub(crate) use value::{VKind, Val};

pub(crate) mod prepare;
mod structors;
mod value;

/// Copies a C string that LLVM owns (may be null).
///
/// SAFETY (for callers): `p` is null or points to a NUL-terminated string that
/// stays valid for the duration of the call.
unsafe fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// Copies a (pointer, length) string that LLVM owns.
///
/// SAFETY (for callers): `p` is null or points to at least `len` readable bytes.
unsafe fn lstr(p: *const c_char, len: usize) -> String {
    if p.is_null() || len == 0 {
        String::new()
    } else {
        let bytes = std::slice::from_raw_parts(p as *const u8, len);
        String::from_utf8_lossy(bytes).into_owned()
    }
}

/// Takes ownership of a message allocated by LLVM (`LLVMDisposeMessage`).
///
/// SAFETY (for callers): `p` is null or a message LLVM allocated for us to free.
unsafe fn take_message(p: *mut c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    let s = cstr(p);
    LLVMDisposeMessage(p);
    s
}

/// Messages of error diagnostics reported through the context.
#[derive(Default)]
struct Diags(RefCell<Vec<String>>);

/// Collects error diagnostics instead of letting LLVM's default handler print them
/// and `exit(1)` the process.
extern "C" fn diagnostic_handler(info: LLVMDiagnosticInfoRef, ctx: *mut c_void) {
    // SAFETY: `ctx` is the `Diags` allocated by `LlvmContext::new`, freed only after
    // the handler is unregistered; `info` is valid during the callback; the
    // description is ours to free.
    unsafe {
        let sev = LLVMGetDiagInfoSeverity(info);
        if sev == LLVMDiagnosticSeverity::LLVMDSError {
            let msg = take_message(LLVMGetDiagInfoDescription(info));
            if let Some(d) = (ctx as *const Diags).as_ref() {
                // Never panic across the C boundary: a (never expected) nested
                // borrow drops the message instead.
                if let Ok(mut v) = d.0.try_borrow_mut() {
                    v.push(msg);
                }
            }
        }
    }
}

/// An inkwell [`Context`] whose error diagnostics are collected rather than
/// printed (LLVM's default handler would `exit(1)` the process).
pub(crate) struct LlvmContext {
    context: Context,
    /// Heap-allocated (`Box::leak`) so that its address, given to LLVM, stays
    /// put; freed in `Drop` after the handler is unregistered.
    diags: NonNull<Diags>,
}

impl LlvmContext {
    pub(crate) fn new() -> LlvmContext {
        let context = Context::create();
        let diags = NonNull::from(Box::leak(Box::<Diags>::default()));
        // SAFETY: raw because inkwell has no API for diagnostic handlers. The
        // context is alive; `diags` stays allocated until `Drop`, which unregisters
        // the handler first.
        unsafe {
            LLVMContextSetDiagnosticHandler(
                context.raw(),
                Some(diagnostic_handler),
                diags.as_ptr() as *mut c_void,
            );
        }
        LlvmContext { context, diags }
    }

    fn diags(&self) -> &Diags {
        // SAFETY: `diags` is allocated for the lifetime of `self` (see `Drop`).
        unsafe { self.diags.as_ref() }
    }

    fn diag_messages(&self) -> String {
        self.diags()
            .0
            .try_borrow()
            .map(|v| v.join("; "))
            .unwrap_or_default()
    }

    /// Parses bitcode (already checked for the magic) and verifies the module.
    /// Invalid debug info is dropped (as LLVM's own auto-upgrade would); any other
    /// verifier failure is an error.
    pub(crate) fn parse(&self, bytes: &[u8], name: &str) -> Result<Llvm<'_>, String> {
        disable_fatal_upgrade();
        let buffer = MemoryBuffer::create_from_memory_range_copy(bytes, &name.replace('\0', "?"));
        // inkwell parses with `LLVMParseBitcodeInContext`, which reports errors in a
        // message (the non-deprecated variant goes through the diagnostic handler).
        let module = Module::parse_bitcode_from_buffer(&buffer, &self.context).map_err(|msg| {
            let mut m = msg.to_string();
            if m.is_empty() {
                m = self.diag_messages();
            }
            if m.is_empty() {
                m = "unknown bitcode reader error".into();
            }
            m
        })?;
        // The module owns copies of everything it needs from the buffer.
        drop(buffer);
        if module.verify().is_err() {
            module.strip_debug_info();
            if let Err(msg) = module.verify() {
                return Err(format!("the module is invalid: {}", msg.to_string().trim()));
            }
        }
        let diags = self.diag_messages();
        if !diags.is_empty() {
            return Err(diags);
        }
        let layout = Layout::of(&module)?;
        Ok(Llvm {
            context: &self.context,
            module,
            layout,
        })
    }
}

impl Drop for LlvmContext {
    fn drop(&mut self) {
        // SAFETY: raw because inkwell has no API for diagnostic handlers. The
        // handler is unregistered before `diags` (from `Box::leak`) is freed, once;
        // the context itself is disposed afterwards by inkwell.
        unsafe {
            LLVMContextSetDiagnosticHandler(self.context.raw(), None, std::ptr::null_mut());
            drop(Box::from_raw(self.diags.as_ptr()));
        }
    }
}

/// Turns off LLVM's debug-info auto-upgrade, once per process: when a module's
/// debug info is current, the upgrade runs the verifier and *aborts the process*
/// (`report_fatal_error`) if the module is broken. We verify ourselves instead
/// (see [`LlvmContext::parse`]), which turns corrupt bitcode into an error.
fn disable_fatal_upgrade() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let argv = [
            c"symtest".as_ptr(),
            c"-disable-auto-upgrade-debug-info".as_ptr(),
        ];
        // SAFETY: raw because inkwell has no API for LLVM command-line options.
        // `argv` holds two NUL-terminated strings that outlive the call; the
        // option exists in every LLVM since 6; errors go to a null stream, not exit.
        unsafe { LLVMParseCommandLineOptions(2, argv.as_ptr(), c"".as_ptr()) };
    });
}

/// The data layout of a module: sizes, alignments and field offsets of types.
pub(crate) struct Layout {
    td: TargetData,
}

impl Layout {
    /// The module's data layout, as an owned inkwell [`TargetData`]. The string was
    /// parsed (and rejected if malformed) by the bitcode reader, so parsing it again
    /// here cannot fail.
    fn of(module: &Module<'_>) -> Result<Layout, String> {
        let dl = module.get_data_layout();
        let s = dl
            .as_str()
            .to_str()
            .map_err(|_| "the module's data layout is not valid UTF-8".to_string())?;
        Ok(Layout {
            td: TargetData::create(s),
        })
    }

    /// True if the data layout is little-endian.
    pub(crate) fn little_endian(&self) -> bool {
        self.td.get_byte_ordering() == ByteOrdering::LittleEndian
    }

    /// Pointer size in bytes (address space 0).
    pub(crate) fn pointer_bytes(&self) -> u32 {
        self.td.get_pointer_byte_size(None)
    }

    /// The inkwell type of `t` if it is sized with a fixed size (the data-layout
    /// queries are meaningless, or undefined, otherwise). Void and function types
    /// are never sized, so a sized type is a [`BasicTypeEnum`].
    fn sized<'m>(&self, t: Ty<'m>) -> Option<BasicTypeEnum<'m>> {
        if matches!(t.kind(), TyKind::ScalableVector) || !t.all_components_sized() {
            return None;
        }
        let basic = BasicTypeEnum::try_from(t.ink()?).ok()?;
        basic.is_sized().then_some(basic)
    }

    /// `getTypeAllocSize`, or `None` for unsized types.
    pub(crate) fn alloc_size(&self, t: Ty<'_>) -> Option<u64> {
        self.sized(t).map(|i| self.td.get_abi_size(&i))
    }

    /// `getTypeStoreSize`, or `None` for unsized types.
    pub(crate) fn store_size(&self, t: Ty<'_>) -> Option<u64> {
        self.sized(t).map(|i| self.td.get_store_size(&i))
    }

    /// ABI alignment in bytes, or `None` for unsized types.
    pub(crate) fn abi_align(&self, t: Ty<'_>) -> Option<u32> {
        self.sized(t).map(|i| self.td.get_abi_alignment(&i))
    }

    /// Byte offset of field `i` of a sized struct type.
    pub(crate) fn field_offset(&self, t: Ty<'_>, i: u32) -> Option<u64> {
        // The bound is checked here: inkwell's `offset_of_element` computes
        // `count_fields() - 1`, which overflows for an empty struct.
        if i >= t.struct_len() {
            return None;
        }
        match self.sized(t)? {
            BasicTypeEnum::StructType(s) => self.td.offset_of_element(&s, i),
            _ => None,
        }
    }
}

/// A parsed, verified LLVM module (owned by inkwell) and its data layout.
pub(crate) struct Llvm<'ctx> {
    context: &'ctx Context,
    module: Module<'ctx>,
    layout: Layout,
}

impl<'ctx> Llvm<'ctx> {
    /// For the raw calls of `prepare` (see there why they are raw).
    pub(crate) fn raw_module(&self) -> LLVMModuleRef {
        self.module.as_mut_ptr()
    }

    /// For the raw calls of `prepare` (see there why they are raw).
    pub(crate) fn raw_context(&self) -> LLVMContextRef {
        self.context.raw()
    }

    /// The module's target triple.
    pub(crate) fn target_triple(&self) -> String {
        self.module
            .get_triple()
            .as_str()
            .to_string_lossy()
            .into_owned()
    }

    /// The module's data layout.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// All functions (definitions and declarations) in module order.
    pub(crate) fn functions(&self) -> Vec<Val<'_>> {
        self.module
            .get_functions()
            .map(|f| Val::new(f.as_value_ref()))
            .collect()
    }

    /// All global variables in module order.
    pub(crate) fn globals(&self) -> Vec<Val<'_>> {
        self.module
            .get_globals()
            .map(|g| Val::new(g.as_value_ref()))
            .collect()
    }

    /// Renames every named function, global variable and alias of the
    /// module but LLVM's own (`llvm.*`) to `prefix` + its name, then links
    /// `other` into this module: two programs, side by side, that share no
    /// symbol (crosschecking). Err: the linker's message.
    pub(crate) fn link_renamed(&mut self, other: Llvm<'ctx>, prefix: &str) -> Result<(), String> {
        let rename = |v: LLVMValueRef| {
            // SAFETY: raw because inkwell renames only some value kinds. `v`
            // is a global value of `other`, alive; the name is copied by LLVM.
            unsafe {
                let mut len = 0usize;
                let p = LLVMGetValueName2(v, &mut len);
                if p.is_null() || len == 0 {
                    return;
                }
                let name = std::slice::from_raw_parts(p as *const u8, len);
                if name.starts_with(b"llvm.") {
                    return;
                }
                let mut new = prefix.as_bytes().to_vec();
                new.extend_from_slice(name);
                LLVMSetValueName2(v, new.as_ptr() as *const _, new.len());
            }
        };
        for f in other.module.get_functions() {
            rename(f.as_value_ref());
        }
        for g in other.module.get_globals() {
            rename(g.as_value_ref());
        }
        // SAFETY: raw because inkwell has no alias iterator; the module is alive.
        unsafe {
            let mut a = LLVMGetFirstGlobalAlias(other.module.as_mut_ptr());
            while !a.is_null() {
                rename(a);
                a = LLVMGetNextGlobalAlias(a);
            }
        }
        self.module
            .link_in_module(other.module)
            .map_err(|e| e.to_string())
    }

    /// The `dbg` metadata kind id of this context.
    pub(crate) fn dbg_kind(&self) -> u32 {
        self.context.get_kind_id("dbg")
    }
}

/// An LLVM type of the module `'m`. Kept as a raw reference because a type may be
/// of a kind inkwell's `AnyTypeEnum` cannot hold (see [`Ty::ink`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Ty<'m> {
    pub(super) raw: LLVMTypeRef,
    _m: PhantomData<&'m ()>,
}

/// An LLVM metadata node of the module `'m` (raw: inkwell has no metadata-kind
/// query, and none of the kind-checked debug-info accessors used here).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Md<'m> {
    pub(super) raw: LLVMMetadataRef,
    _m: PhantomData<&'m ()>,
}

/// A basic block of the module `'m`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Block<'m> {
    bb: BasicBlock<'m>,
}

impl std::fmt::Debug for Block<'_> {
    /// The address only: inkwell's `Debug` prints (and leaks) the whole block.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Block").field(&self.bb.as_mut_ptr()).finish()
    }
}

/// The kinds of types the loader distinguishes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum TyKind {
    Void,
    Half,
    BFloat,
    Float,
    Double,
    X86Fp80,
    Fp128,
    PpcFp128,
    Int(u32),
    Function,
    Struct,
    Array,
    Pointer,
    Vector,
    ScalableVector,
    Label,
    Metadata,
    Token,
    Other,
}

impl<'m> Ty<'m> {
    pub(super) fn new(raw: LLVMTypeRef) -> Option<Ty<'m>> {
        (!raw.is_null()).then_some(Ty {
            raw,
            _m: PhantomData,
        })
    }

    fn from_ink(t: impl AsTypeRef) -> Option<Ty<'m>> {
        Ty::new(t.as_type_ref())
    }

    /// The inkwell view of this type; `None` for the kinds `AnyTypeEnum::new`
    /// panics on (label, metadata, token, `x86_mmx`, `x86_amx`, target extension).
    pub(super) fn ink(self) -> Option<AnyTypeEnum<'m>> {
        match self.kind() {
            TyKind::Label | TyKind::Metadata | TyKind::Token | TyKind::Other => None,
            // SAFETY: `raw` is a live type of one of the kinds `AnyTypeEnum` holds.
            _ => Some(unsafe { AnyTypeEnum::new(self.raw) }),
        }
    }

    pub(crate) fn kind(self) -> TyKind {
        use LLVMTypeKind::*;
        // Raw: inkwell tells a type's kind only through `AnyTypeEnum::new`, which
        // panics on label, metadata, token, x86_mmx, x86_amx and target-extension
        // types (all legal operand or result types), and its `FloatType` does not
        // tell half from bfloat nor fp128 from ppc_fp128.
        // SAFETY: `raw` is a live type; the width query is only made on integers.
        unsafe {
            match LLVMGetTypeKind(self.raw) {
                LLVMVoidTypeKind => TyKind::Void,
                LLVMHalfTypeKind => TyKind::Half,
                LLVMBFloatTypeKind => TyKind::BFloat,
                LLVMFloatTypeKind => TyKind::Float,
                LLVMDoubleTypeKind => TyKind::Double,
                LLVMX86_FP80TypeKind => TyKind::X86Fp80,
                LLVMFP128TypeKind => TyKind::Fp128,
                LLVMPPC_FP128TypeKind => TyKind::PpcFp128,
                LLVMIntegerTypeKind => TyKind::Int(LLVMGetIntTypeWidth(self.raw)),
                LLVMFunctionTypeKind => TyKind::Function,
                LLVMStructTypeKind => TyKind::Struct,
                LLVMArrayTypeKind => TyKind::Array,
                LLVMPointerTypeKind => TyKind::Pointer,
                LLVMVectorTypeKind => TyKind::Vector,
                LLVMScalableVectorTypeKind => TyKind::ScalableVector,
                LLVMLabelTypeKind => TyKind::Label,
                LLVMMetadataTypeKind => TyKind::Metadata,
                LLVMTokenTypeKind => TyKind::Token,
                _ => TyKind::Other,
            }
        }
    }

    /// Number of fields of a struct type (0 otherwise).
    pub(crate) fn struct_len(self) -> u32 {
        match self.ink() {
            Some(AnyTypeEnum::StructType(s)) => s.count_fields(),
            _ => 0,
        }
    }

    /// Field `i` of a struct type.
    pub(crate) fn field(self, i: u32) -> Option<Ty<'m>> {
        if i >= self.struct_len() {
            return None;
        }
        // Raw: struct fields may be x86_amx or target-extension types, on which
        // inkwell's `get_field_type_at_index` (via `BasicTypeEnum::new`) panics.
        // SAFETY: `raw` is a struct type with more than `i` fields.
        Ty::new(unsafe { LLVMStructGetTypeAtIndex(self.raw, i) })
    }

    /// Element type of an array or (fixed or scalable) vector type.
    pub(crate) fn elem(self) -> Option<Ty<'m>> {
        match self.ink()? {
            // Vector elements are integers, floats or pointers (LLVM rejects any
            // other element type), all of which inkwell represents.
            AnyTypeEnum::VectorType(v) => Ty::from_ink(v.get_element_type()),
            AnyTypeEnum::ScalableVectorType(v) => Ty::from_ink(v.get_element_type()),
            // Raw: array elements may be x86_mmx or target-extension types, on
            // which inkwell's `ArrayType::get_element_type` panics.
            // SAFETY: `raw` is an array type.
            AnyTypeEnum::ArrayType(_) => Ty::new(unsafe { LLVMGetElementType(self.raw) }),
            _ => None,
        }
    }

    /// Number of elements of an array or fixed vector type (0 otherwise).
    pub(crate) fn len(self) -> u64 {
        match self.ink() {
            Some(AnyTypeEnum::VectorType(v)) => u64::from(v.get_size()),
            // Raw: inkwell's `ArrayType::len` is the 32-bit `LLVMGetArrayLength`,
            // which truncates lengths of 2^32 and more.
            // SAFETY: `raw` is an array type.
            Some(AnyTypeEnum::ArrayType(_)) => unsafe { LLVMGetArrayLength2(self.raw) },
            _ => 0,
        }
    }

    /// Parameter types, return type and varargs flag of a function type.
    pub(crate) fn signature(self) -> Option<(Vec<Ty<'m>>, Ty<'m>, bool)> {
        if self.kind() != TyKind::Function {
            return None;
        }
        // Raw: parameter and return types may be token, metadata, x86_mmx or
        // target-extension types, on which inkwell's `FunctionType` accessors panic.
        // SAFETY: `raw` is a function type; `params` has room for every parameter.
        unsafe {
            let n = LLVMCountParamTypes(self.raw) as usize;
            let mut params: Vec<LLVMTypeRef> = vec![std::ptr::null_mut(); n];
            LLVMGetParamTypes(self.raw, params.as_mut_ptr());
            let ret = Ty::new(LLVMGetReturnType(self.raw))?;
            let params = params.into_iter().filter_map(Ty::new).collect();
            Some((params, ret, LLVMIsFunctionVarArg(self.raw) != 0))
        }
    }

    /// False if an aggregate contains a scalable vector or other type without a
    /// fixed size (those would make the data-layout queries meaningless).
    fn all_components_sized(self) -> bool {
        fn walk(t: Ty<'_>, depth: u32) -> bool {
            if depth > 64 {
                return false;
            }
            match t.kind() {
                TyKind::ScalableVector | TyKind::Token | TyKind::Other => false,
                TyKind::Struct => {
                    (0..t.struct_len()).all(|i| t.field(i).is_some_and(|f| walk(f, depth + 1)))
                }
                TyKind::Array | TyKind::Vector => t.elem().is_some_and(|e| walk(e, depth + 1)),
                _ => true,
            }
        }
        walk(self, 0)
    }
}

/// Debug-info metadata is read through raw llvm-sys calls: inkwell's `DI*` types
/// cannot be built from a metadata reference, have no kind query (a wrong `cast<>`
/// is undefined behaviour), and lack the file, directory and variable accessors.
impl<'m> Md<'m> {
    pub(super) fn new(raw: LLVMMetadataRef) -> Option<Md<'m>> {
        (!raw.is_null()).then_some(Md {
            raw,
            _m: PhantomData,
        })
    }

    pub(super) fn kind(self) -> LLVMMetadataKind {
        // Raw: inkwell has no metadata-kind query.
        // SAFETY: `raw` is live metadata; the query accepts every kind.
        unsafe { LLVMGetMetadataKind(self.raw) }
    }

    /// (line, column, scope) of a `DILocation`.
    pub(crate) fn location(self) -> Option<(u32, u32, Option<Md<'m>>)> {
        if !matches!(self.kind(), LLVMMetadataKind::LLVMDILocationMetadataKind) {
            return None;
        }
        // Raw: inkwell's `DILocation` cannot be built from a metadata reference.
        // SAFETY: `raw` is a DILocation.
        unsafe {
            Some((
                LLVMDILocationGetLine(self.raw),
                LLVMDILocationGetColumn(self.raw),
                Md::new(LLVMDILocationGetScope(self.raw)),
            ))
        }
    }

    /// The `DIFile` of a scope (subprogram, lexical block, file, compile unit).
    pub(crate) fn scope_file(self) -> Option<Md<'m>> {
        use LLVMMetadataKind::*;
        match self.kind() {
            LLVMDIFileMetadataKind => Some(self),
            LLVMDISubprogramMetadataKind
            | LLVMDILexicalBlockMetadataKind
            | LLVMDILexicalBlockFileMetadataKind
            | LLVMDICompileUnitMetadataKind
            | LLVMDINamespaceMetadataKind
            | LLVMDIModuleMetadataKind => {
                // Raw: inkwell has no `DIScope` file accessor.
                // SAFETY: `raw` is one of the DIScope subclasses above.
                Md::new(unsafe { LLVMDIScopeGetFile(self.raw) })
            }
            _ => None,
        }
    }

    /// (directory, filename) of a `DIFile`.
    pub(crate) fn file_name(self) -> Option<(String, String)> {
        if !matches!(self.kind(), LLVMMetadataKind::LLVMDIFileMetadataKind) {
            return None;
        }
        // Raw: inkwell's `DIFile` has no name or directory accessor.
        // SAFETY: `raw` is a DIFile; the strings are (pointer, length) pairs.
        unsafe {
            let mut dlen: c_uint = 0;
            let d = LLVMDIFileGetDirectory(self.raw, &mut dlen);
            let mut flen: c_uint = 0;
            let f = LLVMDIFileGetFilename(self.raw, &mut flen);
            Some((lstr(d, dlen as usize), lstr(f, flen as usize)))
        }
    }

    /// Line of a `DISubprogram`.
    pub(crate) fn subprogram_line(self) -> Option<u32> {
        if !matches!(self.kind(), LLVMMetadataKind::LLVMDISubprogramMetadataKind) {
            return None;
        }
        // Raw: inkwell's `DISubprogram` has no line accessor.
        // SAFETY: `raw` is a DISubprogram.
        Some(unsafe { LLVMDISubprogramGetLine(self.raw) })
    }

    /// (file, line) of a `DIGlobalVariableExpression`'s variable.
    pub(crate) fn global_var_decl(self) -> Option<(Option<Md<'m>>, u32)> {
        if !matches!(
            self.kind(),
            LLVMMetadataKind::LLVMDIGlobalVariableExpressionMetadataKind
        ) {
            return None;
        }
        // Raw: inkwell has no accessors for global-variable debug info.
        // SAFETY: `raw` is a DIGlobalVariableExpression; its variable is checked to
        // be a DIGlobalVariable before the DIVariable queries.
        unsafe {
            let var = Md::new(LLVMDIGlobalVariableExpressionGetVariable(self.raw))?;
            if !matches!(
                var.kind(),
                LLVMMetadataKind::LLVMDIGlobalVariableMetadataKind
            ) {
                return None;
            }
            Some((
                Md::new(LLVMDIVariableGetFile(var.raw)),
                LLVMDIVariableGetLine(var.raw),
            ))
        }
    }
}

impl<'m> Block<'m> {
    pub(super) fn new(raw: LLVMBasicBlockRef) -> Option<Block<'m>> {
        // SAFETY: `raw` is null or a live basic block (`BasicBlock::new` checks).
        unsafe { BasicBlock::new(raw) }.map(|bb| Block { bb })
    }

    /// The block's name (empty if unnamed).
    pub(crate) fn name(self) -> String {
        self.bb.get_name().to_string_lossy().into_owned()
    }

    /// The instructions of the block, in order (debug records are not instructions).
    pub(crate) fn instructions(self) -> Vec<Val<'m>> {
        self.bb
            .get_instructions()
            .map(|i| Val::new(i.as_value_ref()))
            .collect()
    }
}
