//! symtest's own program representation.
//!
//! The loader lowers LLVM bitcode into these types once; the executor interprets
//! them. Nothing here names LLVM: operands are already resolved to registers or
//! module-level constants, GEP offsets and type sizes are precomputed from the data
//! layout, and every instruction carries its source location.
//!
//! Values are flat bit-vectors. An integer of type `iN` is `N` bits; a pointer is 64
//! bits; `float`/`double` are their IEEE bits (32/64), `x86_fp80` is 80 bits; an
//! aggregate (struct, array) or vector value is the little-endian image of its memory
//! layout, so loading or storing it is a plain byte copy and `extractvalue` is an
//! extract at a precomputed bit offset.

use rustc_hash::FxHashMap;
pub use symtest_expr::{Bits, FpUnOp};

/// The prefix of every symbol of the second program of a crosscheck, in a
/// module holding two programs side by side.
pub const SECOND_PREFIX: &str = "second:";

/// A symbol's name as its program wrote it: without the second program's
/// prefix (special functions, libm and the C library's globals are known by
/// these names on either side).
pub fn plain_name(name: &str) -> &str {
    name.strip_prefix(SECOND_PREFIX).unwrap_or(name)
}

/// A virtual register of a function: parameters are `0..params.len()`, then one per
/// value-producing instruction.
pub type Reg = u32;

/// Index of a function in [`Module::functions`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct FuncId(pub u32);

/// Index of a global variable in [`Module::globals`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct GlobalId(pub u32);

/// Index of a basic block in [`Body::blocks`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct BlockId(pub u32);

/// Index of a constant in [`Module::constants`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ConstId(pub u32);

/// Index of a source file in [`Module::files`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct FileId(pub u32);

/// A source position. `line == 0` means unknown.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Loc {
    pub file: Option<FileId>,
    pub line: u32,
    pub col: u32,
}

/// An instruction operand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Operand {
    Reg(Reg),
    Const(ConstId),
}

/// A module-level constant, evaluated once by the executor after it has placed the
/// globals and functions in memory.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Constant {
    /// An integer, float bits, or a null pointer (64 zero bits).
    Int(Bits),
    /// `undef`/`poison` of the given width; the executor reads it as zero.
    Undef { bits: u32 },
    /// The address of a global plus a byte offset.
    GlobalAddr { global: GlobalId, offset: i64 },
    /// The address of a function (for indirect calls).
    FuncAddr(FuncId),
    /// An aggregate or vector constant: pieces placed at bit offsets in a
    /// zero-filled value of `bits` bits.
    Aggregate {
        bits: u32,
        pieces: Vec<(u32, ConstId)>,
    },
    /// A constant expression that could not be folded by the loader (it involves an
    /// address). Operates on the values of `args`; result has `bits` bits.
    Expr {
        op: ConstOp,
        args: Vec<ConstId>,
        bits: u32,
    },
}

/// Operations allowed in [`Constant::Expr`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ConstOp {
    Bin(BinOp),
    ICmp(IntPred),
    /// Truncate, zero- or sign-extend (by the widths involved); also ptrtoint/inttoptr.
    Trunc,
    ZExt,
    SExt,
}

/// Integer binary operations (LLVM semantics; the executor checks division by zero
/// and oversized shifts).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

/// Integer comparison predicates.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum IntPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

/// Floating-point formats.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatTy {
    F32,
    F64,
    /// x86 80-bit extended precision (`long double`); computed through f64.
    F80,
}

impl FloatTy {
    pub fn bits(self) -> u32 {
        match self {
            FloatTy::F32 => 32,
            FloatTy::F64 => 64,
            FloatTy::F80 => 80,
        }
    }
}

/// The minimum/maximum intrinsics: `*num` return the other operand when one
/// is NaN; `minimum`/`maximum` propagate NaN. Both order -0 below +0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FMinMax {
    MinNum,
    MaxNum,
    Minimum,
    Maximum,
}

/// Floating-point binary operations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FBinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// Floating-point comparison predicates (LLVM's `fcmp`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatPred {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

/// Integer casts. Pointer casts are integer casts on 64-bit values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    /// Same width reinterpretation (bitcast, ptrtoint/inttoptr of equal width, freeze).
    Same,
}

/// Casts involving floating point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FCastOp {
    /// fptrunc / fpext between `from` and `to` float formats.
    Convert {
        from: FloatTy,
        to: FloatTy,
    },
    FpToUi {
        from: FloatTy,
        bits: u32,
    },
    FpToSi {
        from: FloatTy,
        bits: u32,
    },
    UiToFp {
        bits: u32,
        to: FloatTy,
    },
    SiToFp {
        bits: u32,
        to: FloatTy,
    },
}

/// One scaled index term of a GEP: `sext_or_trunc(index, 64) * scale`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GepTerm {
    pub index: Operand,
    pub index_bits: u32,
    pub scale: i64,
}

/// The C-level classes of a call's arguments and result, as a native call
/// (`--external-calls all`) must pass them: bit `i` of `float_args` /
/// `pointer_args` is set when argument `i` (of the first 64) is a `float` or
/// `double` / a pointer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CallShape {
    pub float_args: u64,
    pub pointer_args: u64,
    pub float_ret: bool,
    pub pointer_ret: bool,
}

/// The callee of a call instruction.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Callee {
    Direct(FuncId),
    Indirect(Operand),
    /// Inline assembly: cannot be executed (but for the processor-feature probes
    /// of [`is_cpu_feature_probe`]); the state ends with an `exec` error.
    InlineAsm(String),
    /// Inline assembly whose template does nothing to a single-threaded
    /// program's registers or memory (empty or comment-only, `nop`, `pause`,
    /// `rep; nop`, fences) and whose register outputs are each tied to an input
    /// (`asm("" : "=r"(p) : "0"(q))`, `"+r"(x)`): the compiler's barriers and
    /// register identities. The result is built from the tied arguments; with
    /// no ties it is a no-op.
    AsmMove(Vec<AsmTie>),
}

/// One register output of an [`Callee::AsmMove`]: it takes the value of
/// argument `arg`, at `bit_offset` in the call's result (0 for a single
/// output; its field's offset when the asm returns a struct of outputs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AsmTie {
    pub arg: u32,
    pub bit_offset: u32,
    pub bits: u32,
}

/// LLVM intrinsics the executor implements. `bits` in [`Op::Intrinsic`] is the
/// width of the overloaded integer type (0 where there is none).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Intrinsic {
    /// (dst, src, len, volatile)
    Memcpy,
    Memmove,
    /// (dst, byte, len, volatile)
    Memset,
    /// `{iN, i1}` results: value at bit 0, overflow flag at bit `bits`.
    SAddWithOverflow,
    UAddWithOverflow,
    SSubWithOverflow,
    USubWithOverflow,
    SMulWithOverflow,
    UMulWithOverflow,
    Bswap,
    /// Bit `i` of the result is bit `bits - 1 - i` of the argument.
    Bitreverse,
    Ctpop,
    /// (x, is_zero_poison)
    Ctlz,
    Cttz,
    Fshl,
    Fshr,
    /// (x, is_int_min_poison)
    Abs,
    SMin,
    SMax,
    UMin,
    UMax,
    /// Saturating arithmetic (`llvm.{u,s}{add,sub}.sat`).
    UAddSat,
    USubSat,
    SAddSat,
    SSubSat,
    /// `llvm.expect`: returns its first argument.
    Expect,
    /// `llvm.assume(cond)`.
    Assume,
    StackSave,
    StackRestore,
    /// `llvm.trap` and `llvm.ubsantrap`.
    Trap,
    VaStart,
    VaEnd,
    VaCopy,
    FAbs(FloatTy),
    /// `llvm.copysign`: magnitude of the first argument, sign of the second.
    CopySign(FloatTy),
    /// `llvm.sqrt`, `floor`, `ceil`, `trunc`, `rint`/`nearbyint`/`roundeven`
    /// (ties to even), `round` (ties away from zero).
    FUnary(FpUnOp, FloatTy),
    /// `llvm.fma`: `a * b + c` with one rounding.
    Fma(FloatTy),
    /// `llvm.minnum`/`maxnum`/`minimum`/`maximum`.
    FMinMax(FMinMax, FloatTy),
    /// `llvm.is.fpclass(x, i32 mask)`: width-1 result.
    IsFpClass(FloatTy),
    /// lifetime markers, `dbg.*`, `donothing`, `sideeffect`, fences of no consequence.
    Nop,
    /// Anything else: executing it ends the state with an `exec` error.
    Unsupported(String),
}

/// The instruction set.
#[derive(Clone, PartialEq, Debug)]
pub enum Op {
    Bin {
        op: BinOp,
        a: Operand,
        b: Operand,
        bits: u32,
    },
    ICmp {
        pred: IntPred,
        a: Operand,
        b: Operand,
        bits: u32,
    },
    FBin {
        op: FBinOp,
        a: Operand,
        b: Operand,
        ty: FloatTy,
    },
    FNeg {
        a: Operand,
        ty: FloatTy,
    },
    FCmp {
        pred: FloatPred,
        a: Operand,
        b: Operand,
        ty: FloatTy,
    },
    Cast {
        op: CastOp,
        a: Operand,
        from_bits: u32,
        to_bits: u32,
    },
    FCast {
        op: FCastOp,
        a: Operand,
    },
    Select {
        cond: Operand,
        t: Operand,
        f: Operand,
        bits: u32,
    },
    /// Allocates `elem_bytes * count` bytes on the stack; the result is its address.
    Alloca {
        elem_bytes: u64,
        count: Operand,
        count_bits: u32,
        align: u32,
    },
    /// Reads `bytes` bytes; the result is the low `bits` bits (`bits <= 8 * bytes`).
    Load {
        ptr: Operand,
        bytes: u32,
        bits: u32,
    },
    /// Writes the low `8 * bytes` bits of `value` (zero-extended from `bits`).
    Store {
        ptr: Operand,
        value: Operand,
        bytes: u32,
        bits: u32,
    },
    /// `base + offset + Σ term.index * term.scale`, all in 64 bits.
    Gep {
        base: Operand,
        offset: i64,
        terms: Vec<GepTerm>,
    },
    /// Evaluated on block entry, all phis of a block at once.
    Phi {
        incoming: Vec<(BlockId, Operand)>,
        bits: u32,
    },
    Br {
        target: BlockId,
    },
    CondBr {
        cond: Operand,
        then_block: BlockId,
        else_block: BlockId,
    },
    Switch {
        cond: Operand,
        bits: u32,
        default: BlockId,
        cases: Vec<(Bits, BlockId)>,
    },
    /// `indirectbr` (GCC's computed `goto *p`): a jump to the destination
    /// whose [`block_address`] the 64-bit `addr` holds; any other address is
    /// an error.
    IndirectBr {
        addr: Operand,
        targets: Vec<(Bits, BlockId)>,
    },
    Ret {
        value: Option<Operand>,
    },
    Unreachable,
    /// `arg_bits[i]` is the width of `args[i]` (needed for varargs);
    /// `ret_bits` is `None` for `void`. `shape` says which arguments are
    /// floating-point values or pointers (for native calls).
    Call {
        callee: Callee,
        args: Vec<Operand>,
        arg_bits: Vec<u32>,
        ret_bits: Option<u32>,
        shape: CallShape,
    },
    Intrinsic {
        which: Intrinsic,
        args: Vec<Operand>,
        arg_bits: Vec<u32>,
        bits: u32,
        ret_bits: Option<u32>,
    },
    ExtractValue {
        agg: Operand,
        bit_offset: u32,
        bits: u32,
    },
    InsertValue {
        agg: Operand,
        value: Operand,
        agg_bits: u32,
        bit_offset: u32,
        value_bits: u32,
    },
    ExtractElement {
        vector: Operand,
        index: Operand,
        index_bits: u32,
        elem_bits: u32,
        len: u32,
    },
    InsertElement {
        vector: Operand,
        value: Operand,
        index: Operand,
        index_bits: u32,
        elem_bits: u32,
        len: u32,
    },
    /// `mask[i]` picks element `mask[i]` of the concatenation `a ++ b`; `-1` is undef (zero).
    ShuffleVector {
        a: Operand,
        b: Operand,
        mask: Vec<i32>,
        elem_bits: u32,
        in_len: u32,
    },
    /// `va_arg` on the `va_list` pointed to by `list`.
    VaArg {
        list: Operand,
        bytes: u32,
        bits: u32,
    },
    /// `atomicrmw`: returns the old value.
    AtomicRmw {
        op: AtomicOp,
        ptr: Operand,
        value: Operand,
        bytes: u32,
        bits: u32,
    },
    /// `cmpxchg`: result `{old, success}` with the flag at bit `bits`.
    CmpXchg {
        ptr: Operand,
        expected: Operand,
        new: Operand,
        bytes: u32,
        bits: u32,
    },
    /// A construct the loader could not lower. Reaching it ends the state with an
    /// `exec` error naming `what`.
    Unsupported {
        what: String,
    },
}

/// Operations of `atomicrmw`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AtomicOp {
    Xchg,
    Add,
    Sub,
    And,
    Nand,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
}

/// One instruction: operation, destination register (if it produces a value) and
/// source location.
#[derive(Clone, PartialEq, Debug)]
pub struct Inst {
    pub op: Op,
    pub dest: Option<Reg>,
    pub loc: Loc,
}

/// A basic block: `insts[first..first + len]` of its function body, phis first.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Block {
    /// The LLVM name, or `bb<N>` for unnamed blocks.
    pub name: String,
    pub first: u32,
    pub len: u32,
}

/// The body of a defined function.
#[derive(Clone, PartialEq, Debug)]
pub struct Body {
    pub num_regs: u32,
    /// Entry block is `blocks[0]`.
    pub blocks: Vec<Block>,
    pub insts: Vec<Inst>,
}

impl Body {
    pub fn block_insts(&self, b: BlockId) -> &[Inst] {
        let blk = &self.blocks[b.0 as usize];
        &self.insts[blk.first as usize..(blk.first + blk.len) as usize]
    }
}

/// A function definition or declaration.
#[derive(Clone, PartialEq, Debug)]
pub struct Function {
    pub name: String,
    /// Width in bits of each parameter.
    pub param_bits: Vec<u32>,
    /// Width of the return value; `None` for `void`.
    pub ret_bits: Option<u32>,
    pub is_vararg: bool,
    /// An `extern_weak` declaration (`__attribute__((weak))` with no definition
    /// anywhere): its address is null, as a static linker resolves it.
    pub extern_weak: bool,
    /// `None` for a declaration (an external function).
    pub body: Option<Body>,
    pub loc: Loc,
}

/// Initial contents of a global: literal bytes with non-literal constants (addresses)
/// patched in at byte offsets.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct GlobalInit {
    pub bytes: Vec<u8>,
    /// (byte offset, constant, size in bytes)
    pub relocs: Vec<(u64, ConstId, u32)>,
}

/// A global variable.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Global {
    pub name: String,
    pub size: u64,
    pub align: u32,
    /// `constant` in LLVM: writes are `readonly` errors.
    pub is_const: bool,
    /// `None` for an external declaration (no initializer in this module).
    pub init: Option<GlobalInit>,
    /// An `extern_weak` declaration: its address is null (no object).
    pub extern_weak: bool,
    pub loc: Loc,
}

/// A whole program.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Module {
    /// Where the module came from (a path), for messages.
    pub source: String,
    pub target_triple: String,
    pub functions: Vec<Function>,
    pub globals: Vec<Global>,
    pub constants: Vec<Constant>,
    pub files: Vec<String>,
    pub function_index: FxHashMap<String, FuncId>,
    pub global_index: FxHashMap<String, GlobalId>,
}

impl Module {
    pub fn function(&self, f: FuncId) -> &Function {
        &self.functions[f.0 as usize]
    }

    pub fn global(&self, g: GlobalId) -> &Global {
        &self.globals[g.0 as usize]
    }

    pub fn constant(&self, c: ConstId) -> &Constant {
        &self.constants[c.0 as usize]
    }

    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.function_index.get(name).copied()
    }

    pub fn file(&self, f: FileId) -> &str {
        &self.files[f.0 as usize]
    }

    /// `file:line` of a location, or `??` when unknown.
    pub fn describe_loc(&self, loc: Loc) -> String {
        match loc.file {
            Some(f) if loc.line > 0 => format!("{}:{}", self.file(f), loc.line),
            Some(f) => self.file(f).to_string(),
            None => "??".to_string(),
        }
    }

    /// Number of instructions over all defined functions.
    pub fn instruction_count(&self) -> usize {
        self.functions
            .iter()
            .filter_map(|f| f.body.as_ref())
            .map(|b| b.insts.len())
            .sum()
    }
}

/// Where a `blockaddress` constant (GCC's `&&label`) points: a value no object
/// ever has (the engine's addresses are far below), unique per function and
/// block, so that `indirectbr` can tell its destinations apart and a stray
/// dereference is an invalid pointer.
pub fn block_address(function: FuncId, block: BlockId) -> u64 {
    BLOCK_ADDRESS_BASE | (u64::from(function.0) << 24) | u64::from(block.0 & 0xff_ffff)
}

/// The high bits of every [`block_address`].
pub const BLOCK_ADDRESS_BASE: u64 = 0xb10c_0000_0000_0000;

/// One construct the engine cannot execute, found in a loaded module: the state that
/// reaches it ends with an `exec` error.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnsupportedSite {
    pub function: String,
    pub loc: Loc,
    /// What it is: the instruction, the intrinsic's name or the inline assembly.
    pub what: String,
}

impl Module {
    /// Every unsupported instruction, intrinsic and inline assembly (other than
    /// barriers, register identities and processor-feature probes), in module
    /// order.
    pub fn unsupported(&self) -> Vec<UnsupportedSite> {
        let mut out = Vec::new();
        for f in &self.functions {
            let Some(body) = &f.body else { continue };
            for inst in &body.insts {
                let what = match &inst.op {
                    Op::Unsupported { what } => what.clone(),
                    Op::Intrinsic {
                        which: Intrinsic::Unsupported(name),
                        ..
                    } => format!("intrinsic {name}"),
                    Op::Call {
                        callee: Callee::InlineAsm(text),
                        ..
                    } if !is_cpu_feature_probe(text) => {
                        if text.trim().is_empty() {
                            "inline assembly `` with a register output tied to no input \
                             (its value is whatever the register held)"
                                .to_string()
                        } else {
                            format!("inline assembly `{}`", text.trim())
                        }
                    }
                    _ => continue,
                };
                out.push(UnsupportedSite {
                    function: f.name.clone(),
                    loc: inst.loc,
                    what,
                });
            }
        }
        out
    }
}

/// Function-level statistics, as `cargo symtest` reports for a loaded module.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FunctionSummary {
    pub name: String,
    pub blocks: usize,
    pub instructions: usize,
}

impl Module {
    /// One summary per defined function, in module order.
    pub fn summaries(&self) -> Vec<FunctionSummary> {
        self.functions
            .iter()
            .filter_map(|f| {
                f.body.as_ref().map(|b| FunctionSummary {
                    name: f.name.clone(),
                    blocks: b.blocks.len(),
                    instructions: b.insts.len(),
                })
            })
            .collect()
    }
}

/// Inline assembly that only asks the processor which features it has
/// (`cpuid`, `xgetbv`): the executor answers it as a processor with no optional
/// features.
pub fn is_cpu_feature_probe(text: &str) -> bool {
    let words: Vec<&str> = text
        .split([';', '\n'])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    !words.is_empty()
        && words.iter().all(|w| {
            let op = w.split_whitespace().next().unwrap_or("");
            matches!(
                op,
                "cpuid" | "xgetbv" | "xchgq" | "xchgl" | "movq" | "movl" | "mov"
            )
        })
        && words
            .iter()
            .any(|w| w.starts_with("cpuid") || w.starts_with("xgetbv"))
}

#[cfg(test)]
mod cpu_probe_tests {
    use super::is_cpu_feature_probe;

    #[test]
    fn recognises_cpuid_and_xgetbv() {
        assert!(is_cpu_feature_probe("cpuid"));
        assert!(is_cpu_feature_probe(
            "xchgq %rbx, ${1:q}\n\tcpuid\n\txchgq %rbx, ${1:q}"
        ));
        assert!(is_cpu_feature_probe("xgetbv"));
        assert!(!is_cpu_feature_probe("rdtsc"));
        assert!(!is_cpu_feature_probe("mov $1,%rsp ; jmp *$0"));
        assert!(!is_cpu_feature_probe("movq %rax, %rbx"));
    }
}
