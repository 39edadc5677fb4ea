//! Safe wrappers over the LLVM C API (llvm-sys). `unsafe` code of the crate is
//! confined to this module (`mod.rs`, `value.rs`, `prepare.rs`); the crate root
//! denies it everywhere else.
//!
//! Every wrapper checks the kind of the value/type/metadata it is given before
//! calling an LLVM function that would `cast<>` it (which is undefined behaviour in
//! a release LLVM when the cast is wrong), so any `Val`/`Ty`/`Md` can be passed to
//! any method: the answer is `None`/empty/0 where the question makes no sense.
//!
//! Handles borrow the [`Llvm`] that owns the context and module (`'m`), so none can
//! outlive it.

use std::ffi::{c_char, c_uint, c_void, CStr, CString};
use std::marker::PhantomData;

use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
#[allow(deprecated)] // see `Llvm::parse`
use llvm_sys::bit_reader::LLVMParseBitcodeInContext;
use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;
use llvm_sys::support::LLVMParseCommandLineOptions;
use llvm_sys::target::*;
use llvm_sys::{LLVMDiagnosticSeverity, LLVMTypeKind};

pub(crate) use llvm_sys::LLVMOpcode as Opcode;
pub(crate) use value::{VKind, Val};

pub(crate) mod prepare;
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

/// Collects error diagnostics instead of letting LLVM's default handler print them
/// and `exit(1)` the process.
extern "C" fn diagnostic_handler(info: LLVMDiagnosticInfoRef, ctx: *mut c_void) {
    // SAFETY: `ctx` is the `Diags` boxed in `Llvm::diags`, alive as long as the
    // context; `info` is valid during the callback; the description is ours to free.
    unsafe {
        let sev = LLVMGetDiagInfoSeverity(info);
        if sev == LLVMDiagnosticSeverity::LLVMDSError {
            let msg = take_message(LLVMGetDiagInfoDescription(info));
            if let Some(d) = (ctx as *mut Diags).as_mut() {
                d.0.push(msg);
            }
        }
    }
}

/// Messages of error diagnostics.
#[derive(Default)]
struct Diags(Vec<String>);

/// A parsed, verified LLVM module with its own context.
pub(crate) struct Llvm {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    td: LLVMTargetDataRef,
    /// Error diagnostics reported through the context (see `diagnostic_handler`);
    /// boxed so that its address, given to LLVM, stays put when `Llvm` moves.
    diags: Box<Diags>,
}

impl Drop for Llvm {
    fn drop(&mut self) {
        // SAFETY: we own both; the module belongs to the context and goes first.
        unsafe {
            LLVMDisposeModule(self.module);
            LLVMContextDispose(self.ctx);
        }
    }
}

/// Turns off LLVM's debug-info auto-upgrade, once per process: when a module's
/// debug info is current, the upgrade runs the verifier and *aborts the process*
/// (`report_fatal_error`) if the module is broken. We verify ourselves instead
/// (see [`Llvm::parse`]), which turns corrupt bitcode into an error.
fn disable_fatal_upgrade() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let argv = [
            c"symtest".as_ptr(),
            c"-disable-auto-upgrade-debug-info".as_ptr(),
        ];
        // SAFETY: `argv` holds two NUL-terminated strings that outlive the call; the
        // option exists in every LLVM since 6; errors go to a null stream, not exit.
        unsafe { LLVMParseCommandLineOptions(2, argv.as_ptr(), c"".as_ptr()) };
    });
}

/// Runs the verifier; `Some(message)` if the module is broken.
///
/// SAFETY (for callers): `module` is a live module.
unsafe fn verify(module: LLVMModuleRef) -> Option<String> {
    let mut msg: *mut c_char = std::ptr::null_mut();
    let broken = LLVMVerifyModule(
        module,
        LLVMVerifierFailureAction::LLVMReturnStatusAction,
        &mut msg,
    );
    let msg = take_message(msg);
    (broken != 0).then_some(msg)
}

impl Llvm {
    /// Parses bitcode (already checked for the magic) and verifies the module.
    /// Invalid debug info is dropped (as LLVM's own auto-upgrade would); any other
    /// verifier failure is an error.
    pub(crate) fn parse(bytes: &[u8], name: &str) -> Result<Llvm, String> {
        disable_fatal_upgrade();
        let cname = CString::new(name.replace('\0', "?")).unwrap_or_default();
        // SAFETY: plain C API calls on objects we create here; the buffer is a copy
        // of `bytes`; every out-pointer points to a local; messages are freed.
        unsafe {
            let ctx = LLVMContextCreate();
            let mut diags: Box<Diags> = Box::default();
            LLVMContextSetDiagnosticHandler(
                ctx,
                Some(diagnostic_handler),
                &mut *diags as *mut Diags as *mut c_void,
            );
            let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
                bytes.as_ptr() as *const c_char,
                bytes.len(),
                cname.as_ptr(),
            );
            let mut module: LLVMModuleRef = std::ptr::null_mut();
            let mut msg: *mut c_char = std::ptr::null_mut();
            #[allow(deprecated)] // the non-deprecated variant reports errors via exit(1)
            let failed = LLVMParseBitcodeInContext(ctx, buf, &mut module, &mut msg);
            LLVMDisposeMemoryBuffer(buf);
            let msg = take_message(msg);
            if failed != 0 || module.is_null() {
                let mut m = msg;
                if m.is_empty() {
                    m = diags.0.join("; ");
                }
                if m.is_empty() {
                    m = "unknown bitcode reader error".into();
                }
                if !module.is_null() {
                    LLVMDisposeModule(module);
                }
                LLVMContextDispose(ctx);
                return Err(m);
            }
            let td = LLVMGetModuleDataLayout(module);
            let llvm = Llvm {
                ctx,
                module,
                td,
                diags,
            };
            if verify(module).is_some() {
                LLVMStripModuleDebugInfo(module);
                if let Some(msg) = verify(module) {
                    return Err(format!("the module is invalid: {}", msg.trim()));
                }
            }
            if !llvm.diags.0.is_empty() {
                return Err(llvm.diags.0.join("; "));
            }
            Ok(llvm)
        }
    }

    pub(crate) fn raw_module(&self) -> LLVMModuleRef {
        self.module
    }

    pub(crate) fn raw_context(&self) -> LLVMContextRef {
        self.ctx
    }

    /// The module's target triple.
    pub(crate) fn target_triple(&self) -> String {
        // SAFETY: the module is alive; the string is owned by it.
        unsafe { cstr(LLVMGetTarget(self.module)) }
    }

    /// True if the data layout is little-endian.
    pub(crate) fn little_endian(&self) -> bool {
        // SAFETY: `td` belongs to the live module.
        unsafe { LLVMByteOrder(self.td) == LLVMByteOrdering::LLVMLittleEndian }
    }

    /// Pointer size in bytes (address space 0).
    pub(crate) fn pointer_bytes(&self) -> u32 {
        // SAFETY: `td` belongs to the live module.
        unsafe { LLVMPointerSize(self.td) }
    }

    fn iter_list<'m>(
        &'m self,
        first: unsafe extern "C" fn(LLVMModuleRef) -> LLVMValueRef,
        next: unsafe extern "C" fn(LLVMValueRef) -> LLVMValueRef,
    ) -> Vec<Val<'m>> {
        let mut out = Vec::new();
        // SAFETY: module-list iteration on the live module.
        unsafe {
            let mut v = first(self.module);
            while !v.is_null() {
                out.push(Val::new(v));
                v = next(v);
            }
        }
        out
    }

    /// All functions (definitions and declarations) in module order.
    pub(crate) fn functions(&self) -> Vec<Val<'_>> {
        self.iter_list(LLVMGetFirstFunction, LLVMGetNextFunction)
    }

    /// All global variables in module order.
    pub(crate) fn globals(&self) -> Vec<Val<'_>> {
        self.iter_list(LLVMGetFirstGlobal, LLVMGetNextGlobal)
    }

    fn sized(&self, t: Ty<'_>) -> bool {
        // SAFETY: `t` is a live type; `LLVMTypeIsSized` accepts every type.
        let sized = unsafe { LLVMTypeIsSized(t.raw) != 0 };
        sized
            && !matches!(
                t.kind(),
                TyKind::ScalableVector | TyKind::Token | TyKind::Other
            )
            && t.all_components_sized()
    }

    /// `getTypeAllocSize`, or `None` for unsized types.
    pub(crate) fn alloc_size(&self, t: Ty<'_>) -> Option<u64> {
        // SAFETY: only called on sized, fixed-size types.
        self.sized(t)
            .then(|| unsafe { LLVMABISizeOfType(self.td, t.raw) })
    }

    /// `getTypeStoreSize`, or `None` for unsized types.
    pub(crate) fn store_size(&self, t: Ty<'_>) -> Option<u64> {
        // SAFETY: only called on sized, fixed-size types.
        self.sized(t)
            .then(|| unsafe { LLVMStoreSizeOfType(self.td, t.raw) })
    }

    /// ABI alignment in bytes, or `None` for unsized types.
    pub(crate) fn abi_align(&self, t: Ty<'_>) -> Option<u32> {
        // SAFETY: only called on sized, fixed-size types.
        self.sized(t)
            .then(|| unsafe { LLVMABIAlignmentOfType(self.td, t.raw) })
    }

    /// Byte offset of field `i` of a sized struct type.
    pub(crate) fn field_offset(&self, t: Ty<'_>, i: u32) -> Option<u64> {
        if t.kind() != TyKind::Struct || i >= t.struct_len() || !self.sized(t) {
            return None;
        }
        // SAFETY: `t` is a sized struct with more than `i` fields.
        Some(unsafe { LLVMOffsetOfElement(self.td, t.raw, i) })
    }

    /// The `dbg` metadata kind id of this context.
    pub(crate) fn dbg_kind(&self) -> u32 {
        // SAFETY: the context is alive; the name is a valid byte string.
        unsafe { LLVMGetMDKindIDInContext(self.ctx, b"dbg".as_ptr() as *const c_char, 3) }
    }
}

/// An LLVM type of the module `'m`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Ty<'m> {
    pub(super) raw: LLVMTypeRef,
    _m: PhantomData<&'m Llvm>,
}

/// An LLVM metadata node of the module `'m`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Md<'m> {
    pub(super) raw: LLVMMetadataRef,
    _m: PhantomData<&'m Llvm>,
}

/// A basic block of the module `'m`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Block<'m> {
    pub(super) raw: LLVMBasicBlockRef,
    _m: PhantomData<&'m Llvm>,
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

    pub(crate) fn kind(self) -> TyKind {
        use LLVMTypeKind::*;
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
        if self.kind() != TyKind::Struct {
            return 0;
        }
        // SAFETY: `raw` is a struct type.
        unsafe { LLVMCountStructElementTypes(self.raw) }
    }

    /// Field `i` of a struct type.
    pub(crate) fn field(self, i: u32) -> Option<Ty<'m>> {
        if i >= self.struct_len() {
            return None;
        }
        // SAFETY: `raw` is a struct type with more than `i` fields.
        Ty::new(unsafe { LLVMStructGetTypeAtIndex(self.raw, i) })
    }

    /// Element type of an array or (fixed or scalable) vector type.
    pub(crate) fn elem(self) -> Option<Ty<'m>> {
        match self.kind() {
            // SAFETY: `raw` is an array or vector type.
            TyKind::Array | TyKind::Vector | TyKind::ScalableVector => {
                Ty::new(unsafe { LLVMGetElementType(self.raw) })
            }
            _ => None,
        }
    }

    /// Number of elements of an array or fixed vector type (0 otherwise).
    pub(crate) fn len(self) -> u64 {
        // SAFETY: each query is made on the matching type kind.
        unsafe {
            match self.kind() {
                TyKind::Array => LLVMGetArrayLength2(self.raw),
                TyKind::Vector => LLVMGetVectorSize(self.raw) as u64,
                _ => 0,
            }
        }
    }

    /// Parameter types, return type and varargs flag of a function type.
    pub(crate) fn signature(self) -> Option<(Vec<Ty<'m>>, Ty<'m>, bool)> {
        if self.kind() != TyKind::Function {
            return None;
        }
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

impl<'m> Md<'m> {
    pub(super) fn new(raw: LLVMMetadataRef) -> Option<Md<'m>> {
        (!raw.is_null()).then_some(Md {
            raw,
            _m: PhantomData,
        })
    }

    pub(super) fn kind(self) -> LLVMMetadataKind {
        // SAFETY: `raw` is live metadata; the query accepts every kind.
        unsafe { LLVMGetMetadataKind(self.raw) }
    }

    /// (line, column, scope) of a `DILocation`.
    pub(crate) fn location(self) -> Option<(u32, u32, Option<Md<'m>>)> {
        if !matches!(self.kind(), LLVMMetadataKind::LLVMDILocationMetadataKind) {
            return None;
        }
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
        (!raw.is_null()).then_some(Block {
            raw,
            _m: PhantomData,
        })
    }

    /// The block's name (empty if unnamed).
    pub(crate) fn name(self) -> String {
        // SAFETY: `raw` is a live block; the name is owned by it.
        unsafe { cstr(LLVMGetBasicBlockName(self.raw)) }
    }

    /// The instructions of the block, in order (debug records are not instructions).
    pub(crate) fn instructions(self) -> Vec<Val<'m>> {
        let mut out = Vec::new();
        // SAFETY: iteration over a live block's instruction list.
        unsafe {
            let mut i = LLVMGetFirstInstruction(self.raw);
            while !i.is_null() {
                out.push(Val::new(i));
                i = LLVMGetNextInstruction(i);
            }
        }
        out
    }
}
