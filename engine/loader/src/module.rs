//! Module-level lowering: the shared lowering context (constants table, files, id
//! maps), type widths, globals and functions.

use rustc_hash::FxHashMap;
use symtest_ir::{
    ConstId, Constant, FileId, FloatTy, FuncId, Function, Global, GlobalId, GlobalInit, Loc, Module,
};

use crate::constants::{ConstKey, Image};
use crate::function::lower_body;
use crate::llvm::{Layout, Llvm, Md, Ty, TyKind, VKind, Val};
use crate::LoadError;

/// State shared by the lowering of one module.
pub(crate) struct Cx<'m> {
    pub(crate) layout: &'m Layout,
    /// The `dbg` metadata kind id (global variables' debug info).
    pub(crate) dbg_kind: u32,
    pub(crate) constants: Vec<Constant>,
    pub(crate) dedup: FxHashMap<ConstKey, ConstId>,
    /// LLVM constants are uniqued, so a value already lowered maps to its id.
    pub(crate) const_cache: FxHashMap<Val<'m>, ConstId>,
    pub(crate) funcs: FxHashMap<Val<'m>, FuncId>,
    pub(crate) globals: FxHashMap<Val<'m>, GlobalId>,
    pub(crate) files: Vec<String>,
    pub(crate) file_index: FxHashMap<String, FileId>,
    pub(crate) file_cache: FxHashMap<Md<'m>, Option<FileId>>,
}

impl<'m> Cx<'m> {
    fn new(llvm: &'m Llvm<'_>) -> Cx<'m> {
        Cx {
            layout: llvm.layout(),
            dbg_kind: llvm.dbg_kind(),
            constants: Vec::new(),
            dedup: FxHashMap::default(),
            const_cache: FxHashMap::default(),
            funcs: FxHashMap::default(),
            globals: FxHashMap::default(),
            files: Vec::new(),
            file_index: FxHashMap::default(),
            file_cache: FxHashMap::default(),
        }
    }

    /// Width in bits of a first-class value of type `t` (see the `symtest_ir` crate
    /// docs): `iN` → N, pointers → 64, floats → their format, structs and arrays →
    /// 8 × alloc size, vectors → 8 × store size (elements packed at `i * elem`).
    /// `None` for `void`, labels, metadata, tokens and unsized types.
    pub(crate) fn bits(&self, t: Ty<'m>) -> Option<u32> {
        match t.kind() {
            TyKind::Int(n) => Some(n),
            TyKind::Pointer => Some(64),
            TyKind::Half | TyKind::BFloat => Some(16),
            TyKind::Float => Some(32),
            TyKind::Double => Some(64),
            TyKind::X86Fp80 => Some(80),
            TyKind::Fp128 | TyKind::PpcFp128 => Some(128),
            TyKind::Struct | TyKind::Array => {
                u32::try_from(self.layout.alloc_size(t)?.checked_mul(8)?).ok()
            }
            TyKind::Vector => u32::try_from(self.layout.store_size(t)?.checked_mul(8)?).ok(),
            _ => None,
        }
    }

    /// Like [`Cx::bits`] but with a message naming the type's kind.
    pub(crate) fn bits_or_err(&self, t: Option<Ty<'m>>) -> Result<u32, String> {
        let t = t.ok_or("value without a type")?;
        self.bits(t)
            .ok_or_else(|| format!("value of type {:?} (no fixed size)", t.kind()))
    }

    /// The symtest float format of a float type.
    pub(crate) fn float_ty(&self, t: Option<Ty<'m>>) -> Result<FloatTy, String> {
        match t.map(|t| t.kind()) {
            Some(TyKind::Float) => Ok(FloatTy::F32),
            Some(TyKind::Double) => Ok(FloatTy::F64),
            Some(TyKind::X86Fp80) => Ok(FloatTy::F80),
            Some(TyKind::Vector) => Err("vector floating-point operation".into()),
            Some(TyKind::Half) => Err("half-precision floating point".into()),
            Some(TyKind::BFloat) => Err("bfloat floating point".into()),
            Some(TyKind::Fp128) => Err("fp128 floating point".into()),
            Some(TyKind::PpcFp128) => Err("ppc_fp128 floating point".into()),
            other => Err(format!("floating-point operation on {other:?}")),
        }
    }

    pub(crate) fn alloc_size(&self, t: Option<Ty<'m>>) -> Result<u64, String> {
        t.and_then(|t| self.layout.alloc_size(t))
            .ok_or_else(|| "operation on an unsized type".to_string())
    }

    pub(crate) fn store_bytes(&self, t: Option<Ty<'m>>) -> Result<u32, String> {
        let n = t
            .and_then(|t| self.layout.store_size(t))
            .ok_or("memory access of an unsized type")?;
        u32::try_from(n).map_err(|_| format!("memory access of {n} bytes"))
    }
}

/// Lowers a parsed module.
pub(crate) fn lower_module(llvm: &Llvm<'_>, source: &str) -> Result<Module, LoadError> {
    let target_triple = llvm.target_triple();
    if !llvm.layout().little_endian() || llvm.layout().pointer_bytes() != 8 {
        return Err(LoadError::Unsupported {
            function: String::new(),
            what: format!(
                "target `{target_triple}` (symtest needs a little-endian target with 64-bit pointers)"
            ),
            loc: source.to_string(),
        });
    }
    let mut cx = Cx::new(llvm);
    let funcs = llvm.functions();
    let globals = llvm.globals();
    for (i, f) in funcs.iter().enumerate() {
        cx.funcs.insert(*f, FuncId(i as u32));
    }
    for (i, g) in globals.iter().enumerate() {
        cx.globals.insert(*g, GlobalId(i as u32));
    }

    let mut out_globals = Vec::with_capacity(globals.len());
    for (i, g) in globals.iter().enumerate() {
        out_globals.push(lower_global(&mut cx, *g, i)?);
    }
    let mut out_funcs = Vec::with_capacity(funcs.len());
    for (i, f) in funcs.iter().enumerate() {
        out_funcs.push(lower_function(&mut cx, *f, i));
    }

    let mut function_index = FxHashMap::default();
    for (i, f) in out_funcs.iter().enumerate() {
        function_index.insert(f.name.clone(), FuncId(i as u32));
    }
    let mut global_index = FxHashMap::default();
    for (i, g) in out_globals.iter().enumerate() {
        global_index.insert(g.name.clone(), GlobalId(i as u32));
    }
    Ok(Module {
        source: source.to_string(),
        target_triple,
        functions: out_funcs,
        globals: out_globals,
        constants: cx.constants,
        files: cx.files,
        function_index,
        global_index,
    })
}

/// Largest global with an initializer the loader builds an image of.
const MAX_GLOBAL_INIT: u64 = 1 << 30;

fn lower_global<'m>(cx: &mut Cx<'m>, g: Val<'m>, index: usize) -> Result<Global, LoadError> {
    let mut name = g.name();
    if name.is_empty() {
        name = format!("__unnamed_global_{index}");
    }
    let vty = g.global_value_type();
    let size = vty.and_then(|t| cx.layout.alloc_size(t)).unwrap_or(0);
    if size > MAX_GLOBAL_INIT && g.initializer().is_some() {
        let loc = cx.global_loc(g);
        return Err(LoadError::Unsupported {
            function: String::new(),
            what: format!("global `{name}` of {size} bytes (more than 1 GiB)"),
            loc: describe(cx, loc),
        });
    }
    let mut align = g.alignment();
    if align == 0 {
        align = vty.and_then(|t| cx.layout.abi_align(t)).unwrap_or(1);
    }
    let init = g.initializer().map(|v| {
        let mut img = Image::new(size);
        // A constant the loader cannot represent (a `blockaddress`, say) leaves
        // its bytes zero; only code that reads it is affected.
        let _ = cx.flatten(v, 0, &mut img, 0);
        img.into_global_init(size)
    });
    Ok(Global {
        name,
        size,
        align,
        is_const: g.is_global_constant(),
        init: init.map(|(bytes, relocs)| GlobalInit { bytes, relocs }),
        extern_weak: g.is_extern_weak(),
        loc: cx.global_loc(g),
    })
}

/// `file:line` for an error message.
fn describe(cx: &Cx<'_>, loc: Loc) -> String {
    match loc.file {
        Some(f) => format!("{}:{}", cx.files[f.0 as usize], loc.line),
        None => "??".to_string(),
    }
}

fn lower_function<'m>(cx: &mut Cx<'m>, f: Val<'m>, index: usize) -> Function {
    let mut name = f.name();
    if name.is_empty() {
        name = format!("__unnamed_function_{index}");
    }
    let (param_bits, ret_bits, is_vararg) = match f.global_value_type().and_then(|t| t.signature())
    {
        Some((params, ret, va)) => (
            params
                .iter()
                .map(|p| cx.bits(*p).unwrap_or(0))
                .collect::<Vec<_>>(),
            if ret.kind() == TyKind::Void {
                None
            } else {
                Some(cx.bits(ret).unwrap_or(0))
            },
            va,
        ),
        None => (Vec::new(), None, false),
    };
    let loc = cx.function_loc(f);
    let body = (!f.is_declaration() && f.kind() == VKind::Function).then(|| lower_body(cx, f, loc));
    Function {
        name,
        param_bits,
        ret_bits,
        is_vararg,
        extern_weak: f.is_extern_weak(),
        body,
        loc,
    }
}
