//! Execution states: stack, program counter, path condition, address space.

use crate::memory::AddressSpace;
use crate::plist::PList;
use crate::suspend::wire::{DecodeError, Decoded, Pieces, Reader, Table, Writer};
use crate::value::Value;
use std::rc::Rc;
use symtest_expr::{ArrayId, Assignment, Bits, ExprId, ExprPool};
use symtest_ir::{BlockId, FuncId, Reg};

/// Identifies a state for the searchers and the process tree.
pub type StateId = u64;

/// A register's contents, in 16 bytes (a [`Value`] takes 40): values of up
/// to 64 bits inline, expressions by id, wider constants behind a shared box.
#[derive(Clone, Debug, Default)]
pub enum Slot {
    /// Not yet defined.
    #[default]
    Undef,
    Small {
        width: u32,
        bits: u64,
    },
    Sym(ExprId),
    Wide(Rc<Bits>),
}

impl Slot {
    #[inline]
    pub fn of(v: Value) -> Slot {
        match v {
            Value::Symbolic(e) => Slot::Sym(e),
            Value::Concrete(b) if b.width() <= 64 => Slot::Small {
                width: b.width(),
                bits: b.to_u64(),
            },
            Value::Concrete(b) => Slot::Wide(Rc::new(b)),
        }
    }

    #[inline]
    pub fn value(&self) -> Option<Value> {
        match self {
            Slot::Undef => None,
            Slot::Small { width, bits } => Some(Value::from_u64(*width, *bits)),
            Slot::Sym(e) => Some(Value::Symbolic(*e)),
            Slot::Wide(b) => Some(Value::Concrete((**b).clone())),
        }
    }
}

/// One activation record.
#[derive(Clone, Debug)]
pub struct Frame {
    pub func: FuncId,
    pub regs: crate::regs::Regs,
    pub block: BlockId,
    /// The block control came from (for phis).
    pub prev_block: Option<BlockId>,
    /// Index of the next instruction in the function body.
    pub pc: u32,
    /// Index of the instruction being executed (the call, in caller frames).
    pub cur: u32,
    /// Register of the caller receiving the return value.
    pub ret_dest: Option<Reg>,
    /// Stack objects to free on return.
    pub allocas: Vec<u64>,
    /// Address of the engine object holding the variadic arguments.
    pub varargs: Option<u64>,
}

/// A symbolic input object (one `.ktest` object).
#[derive(Clone, Debug)]
pub struct SymbolicObject {
    /// The name the program gave it (ktest object name).
    pub name: String,
    pub array: ArrayId,
    pub size: u32,
}

/// A persistent list of instructions this path covered first that no written test
/// includes yet; shared between forked states.
#[derive(Debug)]
pub struct CoverNode {
    pub inst: u32,
    pub next: Option<Rc<CoverNode>>,
}

#[derive(Clone, Debug)]
pub struct State {
    pub id: StateId,
    /// Frames are shared with forked states until written (copy on write), so a
    /// fork copies no frame and a state that runs copies only the frames it uses.
    pub stack: Vec<Rc<Frame>>,
    /// The path condition (shared with forked states up to the fork).
    pub constraints: PList<ExprId>,
    /// Equalities `expr = constant` the path condition states (for simplification).
    pub equalities: PList<(ExprId, ExprId)>,
    /// Constraints to prefer when choosing the test's concrete values (`prefer_cex`,
    /// just-out-of-bounds offsets for pointer errors).
    pub preferences: PList<ExprId>,
    pub memory: AddressSpace,
    /// The symbolic inputs, in creation order (shared until one is added).
    pub symbolics: Rc<Vec<SymbolicObject>>,
    /// A satisfying assignment of `constraints`, when one is known.
    /// Seeds (indices into `Config::seeds`) this path agrees with: its
    /// constraints hold under each. Empty: the path follows no seed.
    pub seeds: Rc<Vec<u32>>,
    pub model: Option<Rc<Assignment>>,
    pub depth: u32,
    pub instructions: u64,
    /// Instruction count (of this state) when it last covered new code.
    pub last_new_cover: u64,
    /// Run-wide instruction count when this state last covered new code.
    pub last_new_cover_global: u64,
    /// The program call site under which library code last forked this
    /// path, until the path covers new code of the program: that fork is
    /// then credited to the site (`Config::library_forks`).
    pub library_site: Option<(FuncId, u32)>,
    pub pending_cover: Option<Rc<CoverNode>>,
    /// Accumulated solver time spent for this state (query-cost searcher).
    pub query_cost_us: u64,
    /// Output of `symtest_print_expr`/warnings belongs to the run, not the state.
    pub forks: u32,
    pub ptree_node: usize,
    /// Where each `setjmp` of this path may return again (`longjmp`); a jmp_buf
    /// holds the index + 1 of its entry.
    pub jmp_targets: Vec<JmpTarget>,
    /// Bytes the program wrote to standard output (POSIX model), up to a cap.
    pub stdout: Output,
    /// `klee_set_forking(0)`: branches follow one feasible side.
    pub forking_disabled: bool,
    /// `klee_alias_function(old, new)`: calls of `old` go to `new`.
    pub aliases: Vec<(FuncId, FuncId)>,
    /// The engine's `errno` object (`__errno_location` without a libc).
    pub errno_obj: Option<u64>,
    /// The file suffix `klee_report_error` gave for the error ending this path.
    pub error_suffix: Option<String>,
    /// Objects whose accessible bytes end at their first NUL (the symbolic
    /// arguments, `__symtest_terminated`), with what this path proved of them.
    pub terminated: Vec<crate::terminated::Terminated>,
    /// Crosschecking: how the first program ended, once this path runs the
    /// second (`None` before).
    pub cross: Option<Box<crate::crosscheck::SecondRun>>,
    /// The argv this path started with, when not `Config::argv` (a seed
    /// with its own arguments): its tests record it.
    pub argv: Option<Rc<Vec<String>>>,
    /// Concrete pointers computed outside their object that land in another
    /// one, by address: the base of the object each derives from
    /// (`inst::stray`; shared until one is noted).
    pub strays: Rc<rustc_hash::FxHashMap<u64, u64>>,
}

/// What a path wrote to standard output: one chunk per write (concrete bytes
/// and the symbolic ones as sparse pairs), shared with forked states.
#[derive(Clone, Debug, Default)]
pub struct Output {
    chunks: PList<Rc<OutChunk>>,
    len: usize,
}

#[derive(Debug)]
pub struct OutChunk {
    bytes: Vec<u8>,
    symbolic: Vec<(u32, ExprId)>,
}

impl Output {
    /// Bytes recorded.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Appends one write (8-bit values).
    pub fn push(&mut self, values: &[Value]) {
        if values.is_empty() {
            return;
        }
        let mut chunk = OutChunk {
            bytes: Vec::with_capacity(values.len()),
            symbolic: Vec::new(),
        };
        for (i, v) in values.iter().enumerate() {
            match v {
                Value::Concrete(b) => chunk.bytes.push(b.to_u64() as u8),
                Value::Symbolic(e) => {
                    chunk.bytes.push(0);
                    chunk.symbolic.push((i as u32, *e));
                }
            }
        }
        self.len += values.len();
        self.chunks.push(Rc::new(chunk));
    }

    /// Each byte in order: concrete, or its 8-bit expression.
    pub fn cells(&self) -> Vec<Result<u8, ExprId>> {
        let mut out = Vec::with_capacity(self.len);
        for c in self.chunks.iter() {
            let start = out.len();
            out.extend(c.bytes.iter().map(|&b| Ok(b)));
            for &(i, e) in &c.symbolic {
                out[start + i as usize] = Err(e);
            }
        }
        out
    }

    /// Do both record the same writes (shared chunks, or equal ones)?
    pub fn same_as(&self, other: &Output) -> bool {
        if self.len != other.len || self.chunks.len() != other.chunks.len() {
            return false;
        }
        self.chunks
            .iter()
            .zip(other.chunks.iter())
            .all(|(x, y)| Rc::ptr_eq(&x, &y) || (x.bytes == y.bytes && x.symbolic == y.symbolic))
    }

    /// An output of concrete bytes (one chunk).
    pub fn concrete(bytes: Vec<u8>) -> Output {
        let mut out = Output::default();
        if !bytes.is_empty() {
            out.len = bytes.len();
            out.chunks.push(Rc::new(OutChunk {
                bytes,
                symbolic: Vec::new(),
            }));
        }
        out
    }

    /// The bytes in order, symbolic ones through `eval`.
    pub fn bytes(&self, mut eval: impl FnMut(ExprId) -> u8) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        for c in self.chunks.iter() {
            let start = out.len();
            out.extend_from_slice(&c.bytes);
            for &(i, e) in &c.symbolic {
                out[start + i as usize] = eval(e);
            }
        }
        out
    }

    /// Writes the output for suspension (each chunk once per file).
    pub(crate) fn encode(&self, w: &mut Writer, t: &mut Table<'_>) {
        w.usize(self.len);
        self.chunks.encode(w, t, &mut |c, w, t| {
            if !t.write(w, c) {
                w.bytes(&c.bytes);
                w.usize(c.symbolic.len());
                for &(i, e) in &c.symbolic {
                    w.u32(i);
                    w.u32(e.index() as u32);
                }
                t.done(c);
            }
        });
    }

    /// Reads what [`Output::encode`] wrote.
    pub(crate) fn decode(
        r: &mut Reader<'_>,
        p: &mut Pieces<'_>,
        pool: &ExprPool,
    ) -> Decoded<Output> {
        let len = r.usize()?;
        let chunks = PList::decode(r, p, &mut |r, p| {
            if let Some(c) = p.read::<OutChunk>(r)? {
                return Ok(c);
            }
            let bytes = r.bytes()?.to_vec();
            let n = r.len(2)?;
            let mut symbolic = Vec::with_capacity(n);
            for _ in 0..n {
                let i = r.u32()?;
                let e = pool
                    .id_at(r.u32()? as usize)
                    .ok_or(DecodeError::Invalid("expression"))?;
                if i as usize >= bytes.len() {
                    return Err(DecodeError::Invalid("output byte"));
                }
                symbolic.push((i, e));
            }
            Ok(p.done(Rc::new(OutChunk { bytes, symbolic })))
        })?;
        let total: usize = chunks.iter().map(|c| c.bytes.len()).sum();
        if total != len {
            return Err(DecodeError::Invalid("output length"));
        }
        Ok(Output { chunks, len })
    }

    /// (chunks not yet counted, their bytes) for memory accounting.
    pub fn footprint(&self, first_sight: &mut dyn FnMut(usize, bool) -> bool) -> usize {
        let mut bytes = 0;
        self.chunks.visit_nodes(|p, shared| {
            let new = first_sight(p, shared);
            if new {
                bytes += PList::<Rc<OutChunk>>::NODE_BYTES;
            }
            new
        });
        for c in self.chunks.iter() {
            if first_sight(Rc::as_ptr(&c) as usize, Rc::strong_count(&c) > 2) {
                bytes += 2 * std::mem::size_of::<usize>()
                    + std::mem::size_of::<OutChunk>()
                    + c.bytes.capacity()
                    + c.symbolic.capacity() * 8;
            }
        }
        bytes
    }
}

/// The continuation of a `setjmp` call.
#[derive(Clone, Debug)]
pub struct JmpTarget {
    /// Stack depth of the frame that called setjmp.
    pub depth: usize,
    pub func: FuncId,
    pub block: BlockId,
    pub prev_block: Option<BlockId>,
    pub pc: u32,
    pub dest: Option<Reg>,
}

impl State {
    #[inline]
    pub fn frame(&self) -> &Frame {
        self.stack.last().expect("a running state has a frame")
    }

    /// The running frame, copied first if a forked state shares it.
    #[inline]
    pub fn frame_mut(&mut self) -> &mut Frame {
        Rc::make_mut(self.stack.last_mut().expect("a running state has a frame"))
    }

    #[inline]
    pub fn reg(&self, r: Reg) -> Option<Value> {
        self.frame().regs.get(r as usize).and_then(Slot::value)
    }

    #[inline]
    pub fn set_reg(&mut self, r: Reg, v: Value) {
        self.frame_mut().regs.set(r as usize, Slot::of(v));
    }
}
