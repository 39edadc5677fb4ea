//! Execution states to bytes and back (see `wire` for the format).
//!
//! Not written: the state's model (a cache of the solver's answers; the state
//! asks again when it needs one) and its process-tree node (the resumed state
//! gets a new leaf). Everything read back is checked against the module and
//! the expression pool, so bytes that pass the file checksum but were not
//! written for this run cannot make the engine index out of range.

use super::wire::{encode_chain, DecodeError, Decoded, Pieces, Reader, Table, Writer};
use crate::memory::AddressSpace;
use crate::plist::PList;
use crate::state::{CoverNode, Frame, JmpTarget, Output, Slot, State, SymbolicObject};
use crate::terminated::Terminated;
use crate::value::Value;
use std::rc::Rc;
use symtest_expr::{Bits, ExprId, ExprPool};
use symtest_ir::{BlockId, FuncId, Module};

/// Format version of an encoded state (bump on any change).
pub const FORMAT: u32 = 5;

fn expr(w: &mut Writer, e: ExprId) {
    w.u32(e.index() as u32);
}

fn read_expr(r: &mut Reader<'_>, pool: &ExprPool) -> Decoded<ExprId> {
    pool.id_at(r.usize()?)
        .ok_or(DecodeError::Invalid("expression"))
}

pub fn encode_state(st: &State, w: &mut Writer, t: &mut Table<'_>) {
    w.u64(st.id);
    w.usize(st.stack.len());
    for f in &st.stack {
        if !t.write(w, f) {
            encode_frame(f, w, t);
            t.done(f);
        }
    }
    st.constraints.encode(w, t, &mut |&e, w, _| expr(w, e));
    st.equalities.encode(w, t, &mut |&(a, b), w, _| {
        expr(w, a);
        expr(w, b);
    });
    st.preferences.encode(w, t, &mut |&e, w, _| expr(w, e));
    st.memory.encode(w, t);
    if !t.write(w, &st.symbolics) {
        w.usize(st.symbolics.len());
        for s in st.symbolics.iter() {
            w.str(&s.name);
            w.u32(s.array.index() as u32);
            w.u32(s.size);
        }
        t.done(&st.symbolics);
    }
    w.u32(st.depth);
    w.u64(st.instructions);
    w.u64(st.last_new_cover);
    w.u64(st.last_new_cover_global);
    encode_cover(st.pending_cover.as_ref(), w, t);
    w.u64(st.query_cost_us);
    w.u32(st.forks);
    w.usize(st.jmp_targets.len());
    for t in &st.jmp_targets {
        w.usize(t.depth);
        w.u32(t.func.0);
        w.u32(t.block.0);
        w.opt_u32(t.prev_block.map(|b| b.0));
        w.u32(t.pc);
        w.opt_u32(t.dest);
    }
    st.stdout.encode(w, t);
    w.bool(st.forking_disabled);
    w.usize(st.aliases.len());
    for &(a, b) in &st.aliases {
        w.u32(a.0);
        w.u32(b.0);
    }
    w.opt_u64(st.errno_obj);
    match &st.error_suffix {
        Some(s) => {
            w.bool(true);
            w.str(s);
        }
        None => w.bool(false),
    }
    w.usize(st.terminated.len());
    for t in &st.terminated {
        w.u64(t.base);
        w.usize(t.bytes.len());
        for &b in t.bytes.iter() {
            expr(w, b);
        }
        w.u32(t.proven);
    }
    match &st.cross {
        Some(c) => {
            w.bool(true);
            c.encode(w, t);
        }
        None => w.bool(false),
    }
    match &st.argv {
        Some(a) => {
            w.bool(true);
            w.usize(a.len());
            for s in a.iter() {
                w.str(s);
            }
        }
        None => w.bool(false),
    }
    let mut strays: Vec<(u64, u64)> = st.strays.iter().map(|(&a, &b)| (a, b)).collect();
    strays.sort_unstable();
    w.usize(strays.len());
    for (addr, origin) in strays {
        w.u64(addr);
        w.u64(origin);
    }
}

pub fn decode_state(
    r: &mut Reader<'_>,
    p: &mut Pieces<'_>,
    module: &Module,
    pool: &ExprPool,
) -> Decoded<State> {
    let id = r.u64()?;
    let stack = decode_stack(r, p, module, pool)?;
    let constraints = PList::decode(r, p, &mut |r, _| read_expr(r, pool))?;
    let equalities = PList::decode(r, p, &mut |r, _| {
        Ok((read_expr(r, pool)?, read_expr(r, pool)?))
    })?;
    let preferences = PList::decode(r, p, &mut |r, _| read_expr(r, pool))?;
    let memory = AddressSpace::decode(r, p, module, pool)?;
    let symbolics = decode_symbolics(r, p, pool)?;
    let depth = r.u32()?;
    let instructions = r.u64()?;
    let last_new_cover = r.u64()?;
    let last_new_cover_global = r.u64()?;
    let pending_cover = decode_cover(r, p, module)?;
    let query_cost_us = r.u64()?;
    let forks = r.u32()?;
    let jmp_targets = decode_jmp_targets(r, module)?;
    let stdout = Output::decode(r, p, pool)?;
    let forking_disabled = r.bool()?;
    let n = r.len(8)?;
    let mut aliases = Vec::with_capacity(n);
    for _ in 0..n {
        aliases.push((func_id(r.u32()?, module)?, func_id(r.u32()?, module)?));
    }
    let errno_obj = r.opt_u64()?;
    let error_suffix = if r.bool()? { Some(r.string()?) } else { None };
    let terminated = decode_terminated(r, pool)?;
    let cross = if r.bool()? {
        Some(Box::new(crate::crosscheck::SecondRun::decode(r, p, pool)?))
    } else {
        None
    };
    let argv = decode_argv(r)?;
    let n = r.len(16)?;
    let mut strays = rustc_hash::FxHashMap::default();
    for _ in 0..n {
        strays.insert(r.u64()?, r.u64()?);
    }
    Ok(State {
        id,
        stack,
        constraints,
        equalities,
        preferences,
        memory,
        symbolics,
        model: None,
        depth,
        instructions,
        last_new_cover,
        last_new_cover_global,
        pending_cover,
        // Not written: a state read back earns its site no credit.
        library_site: None,
        // Seeds are not written: a state suspended and read back follows none.
        seeds: std::rc::Rc::new(Vec::new()),
        query_cost_us,
        forks,
        ptree_node: 0,
        jmp_targets,
        stdout,
        forking_disabled,
        aliases,
        errno_obj,
        error_suffix,
        terminated,
        cross,
        argv,
        strays: Rc::new(strays),
    })
}

/// The frames of a state's stack (each shared one read once), not empty.
fn decode_stack(
    r: &mut Reader<'_>,
    p: &mut Pieces<'_>,
    module: &Module,
    pool: &ExprPool,
) -> Decoded<Vec<Rc<Frame>>> {
    let n = r.len(1)?;
    let mut stack = Vec::with_capacity(n);
    for _ in 0..n {
        let f = match p.read::<Frame>(r)? {
            Some(f) => f,
            None => {
                let f = decode_frame(r, p, module, pool)?;
                p.done(Rc::new(f))
            }
        };
        stack.push(f);
    }
    if stack.is_empty() {
        return Err(DecodeError::Invalid("empty stack"));
    }
    Ok(stack)
}

/// A state's symbolic objects (shared between states, read once).
fn decode_symbolics(
    r: &mut Reader<'_>,
    p: &mut Pieces<'_>,
    pool: &ExprPool,
) -> Decoded<Rc<Vec<SymbolicObject>>> {
    Ok(match p.read::<Vec<SymbolicObject>>(r)? {
        Some(s) => s,
        None => {
            let n = r.len(3)?;
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                let name = r.string()?;
                let array = pool
                    .array_at(r.usize()?)
                    .ok_or(DecodeError::Invalid("array"))?;
                v.push(SymbolicObject {
                    name,
                    array,
                    size: r.u32()?,
                });
            }
            p.done(Rc::new(v))
        }
    })
}

/// Where each `setjmp` of a state's path may return again.
fn decode_jmp_targets(r: &mut Reader<'_>, module: &Module) -> Decoded<Vec<JmpTarget>> {
    let n = r.len(6)?;
    let mut jmp_targets = Vec::with_capacity(n);
    for _ in 0..n {
        let depth = r.usize()?;
        let func = func_id(r.u32()?, module)?;
        jmp_targets.push(JmpTarget {
            depth,
            func,
            block: BlockId(r.u32()?),
            prev_block: r.opt_u32()?.map(BlockId),
            pc: r.u32()?,
            dest: r.opt_u32()?,
        });
    }
    Ok(jmp_targets)
}

/// A state's objects whose accessible bytes end at their first NUL, with
/// what its path proved of them.
fn decode_terminated(r: &mut Reader<'_>, pool: &ExprPool) -> Decoded<Vec<Terminated>> {
    let n = r.len(9)?;
    let mut terminated = Vec::with_capacity(n);
    for _ in 0..n {
        let base = r.u64()?;
        let len = r.len(1)?;
        let bytes = (0..len)
            .map(|_| read_expr(r, pool))
            .collect::<Decoded<Rc<[ExprId]>>>()?;
        terminated.push(Terminated {
            base,
            bytes,
            proven: r.u32()?,
        });
    }
    Ok(terminated)
}

/// The argv a state's path started with, when not the configuration's.
fn decode_argv(r: &mut Reader<'_>) -> Decoded<Option<Rc<Vec<String>>>> {
    Ok(if r.bool()? {
        let n = r.len(1)?;
        let mut a = Vec::with_capacity(n);
        for _ in 0..n {
            a.push(r.string()?);
        }
        Some(Rc::new(a))
    } else {
        None
    })
}

fn func_id(f: u32, module: &Module) -> Decoded<FuncId> {
    ((f as usize) < module.functions.len())
        .then_some(FuncId(f))
        .ok_or(DecodeError::Invalid("function"))
}

fn encode_frame(f: &Frame, w: &mut Writer, t: &mut Table<'_>) {
    w.u32(f.func.0);
    w.usize(f.regs.len());
    for s in f.regs.iter() {
        match s {
            Slot::Undef => w.u8(0),
            Slot::Small { width, bits } => {
                w.u8(1);
                w.u32(*width);
                w.u64(*bits);
            }
            Slot::Sym(e) => {
                w.u8(2);
                expr(w, *e);
            }
            Slot::Wide(b) => {
                w.u8(3);
                if !t.write(w, b) {
                    w.u32(b.width());
                    w.bytes(&b.to_bytes_le());
                    t.done(b);
                }
            }
        }
    }
    w.u32(f.block.0);
    w.opt_u32(f.prev_block.map(|b| b.0));
    w.u32(f.pc);
    w.u32(f.cur);
    w.opt_u32(f.ret_dest);
    w.usize(f.allocas.len());
    for a in &f.allocas {
        w.u64(*a);
    }
    match f.varargs {
        None => w.u8(0),
        Some(v) => {
            w.u8(1);
            w.u64(v);
        }
    }
}

fn decode_frame(
    r: &mut Reader<'_>,
    p: &mut Pieces<'_>,
    module: &Module,
    pool: &ExprPool,
) -> Decoded<Frame> {
    let func = func_id(r.u32()?, module)?;
    let body = module
        .function(func)
        .body
        .as_ref()
        .ok_or(DecodeError::Invalid("frame of a declaration"))?;
    let n = r.len(1)?;
    if n != body.num_regs as usize {
        return Err(DecodeError::Invalid("register count"));
    }
    let mut regs = Vec::with_capacity(n);
    for _ in 0..n {
        regs.push(match r.u8()? {
            0 => Slot::Undef,
            1 => {
                let width = r.u32()?;
                let bits = r.u64()?;
                if width == 0 || width > 64 {
                    return Err(DecodeError::Invalid("register width"));
                }
                // Through a value, so the bits above the width are cleared.
                Slot::of(Value::from_u64(width, bits))
            }
            2 => Slot::Sym(read_expr(r, pool)?),
            3 => match p.read::<Bits>(r)? {
                Some(b) => Slot::Wide(b),
                None => {
                    let width = r.u32()?;
                    let bytes = r.bytes()?;
                    if width <= 64 || bytes.len() != width.div_ceil(8) as usize {
                        return Err(DecodeError::Invalid("wide register"));
                    }
                    Slot::Wide(p.done(Rc::new(Bits::from_bytes_le(width, bytes))))
                }
            },
            _ => return Err(DecodeError::Invalid("register")),
        });
    }
    let block = BlockId(r.u32()?);
    let prev_block = r.opt_u32()?.map(BlockId);
    let pc = r.u32()?;
    let cur = r.u32()?;
    let blocks = body.blocks.len() as u32;
    let insts = body.insts.len() as u32;
    if block.0 >= blocks || prev_block.is_some_and(|b| b.0 >= blocks) || pc > insts || cur >= insts
    {
        return Err(DecodeError::Invalid("program counter"));
    }
    let ret_dest = r.opt_u32()?;
    let n = r.len(1)?;
    let mut allocas = Vec::with_capacity(n);
    for _ in 0..n {
        allocas.push(r.u64()?);
    }
    let varargs = if r.bool()? { Some(r.u64()?) } else { None };
    Ok(Frame {
        func,
        regs: regs.into(),
        block,
        prev_block,
        pc,
        cur,
        ret_dest,
        allocas,
        varargs,
    })
}

/// The not-yet-tested coverage list: the nodes not yet in the file (oldest
/// first) on top of the rest, referred to.
fn encode_cover(cur: Option<&Rc<CoverNode>>, w: &mut Writer, t: &mut Table<'_>) {
    encode_chain(cur, |n| n.next.as_ref(), w, t, |n, w, _| w.u32(n.inst));
}

fn decode_cover(
    r: &mut Reader<'_>,
    p: &mut Pieces<'_>,
    module: &Module,
) -> Decoded<Option<Rc<CoverNode>>> {
    let total: usize = module
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .map(|b| b.insts.len())
        .sum();
    let mut list = if r.bool()? {
        Some(
            p.read::<CoverNode>(r)?
                .ok_or(DecodeError::Invalid("coverage list"))?,
        )
    } else {
        None
    };
    let n = r.len(1)?;
    for _ in 0..n {
        let inst = r.u32()?;
        if inst as usize >= total {
            return Err(DecodeError::Invalid("instruction index"));
        }
        list = Some(p.done(Rc::new(CoverNode { inst, next: list })));
    }
    Ok(list)
}

/// Writes a batch of states into one payload (pieces they share, once).
pub struct BatchWriter<'a> {
    w: Writer,
    t: Table<'a>,
    n: usize,
}

impl<'a> BatchWriter<'a> {
    pub fn new(image: &'a super::wire::Image) -> BatchWriter<'a> {
        BatchWriter {
            w: Writer::default(),
            t: Table::new(image),
            n: 0,
        }
    }

    pub fn add(&mut self, st: &State) {
        encode_state(st, &mut self.w, &mut self.t);
        self.n += 1;
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.w.buf.len()
    }

    /// The payload: the number of states, then the states.
    pub fn finish(self) -> Vec<u8> {
        let mut head = Writer::default();
        head.usize(self.n);
        head.buf.extend_from_slice(&self.w.buf);
        head.buf
    }
}

/// Reads a payload written by [`BatchWriter`].
pub fn decode_batch(
    payload: &[u8],
    image: &super::wire::Image,
    module: &Module,
    pool: &ExprPool,
) -> Decoded<Vec<State>> {
    let mut r = Reader::new(payload);
    let mut p = Pieces::new(image);
    let n = r.len(1)?;
    let mut states = Vec::with_capacity(n);
    for _ in 0..n {
        states.push(decode_state(&mut r, &mut p, module, pool)?);
    }
    if !r.at_end() {
        return Err(DecodeError::Invalid("trailing data"));
    }
    Ok(states)
}
