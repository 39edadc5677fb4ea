//! Memory objects (what was allocated, where) and their contents (per state).
//!
//! Contents keep concrete bytes concrete. A byte written with a symbolic value is
//! kept as an 8-bit expression. A write or read at a symbolic offset "flushes" the
//! object into an array expression (a chain of stores over a fresh root), as KLEE's
//! update lists do (seed 002); after that every access goes through the array.

use super::bytes::{Bytes, PAGE};
use super::sym_bytes::SymBytes;
use crate::suspend::wire::{DecodeError, Decoded, Image, Pieces, Reader, Table, Writer};
use crate::value::{Ops, Value};
use std::borrow::Cow;
use symtest_expr::{Assignment, Bits, Evaluator, ExprId, ExprPool};
use symtest_ir::{FuncId, GlobalId, Loc, Module};

/// Where an object came from; decides what `free` may do with it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ObjKind {
    Global(GlobalId),
    Heap,
    Stack,
    /// Engine-made objects (argv strings, varargs areas): not freeable.
    Engine,
}

/// What an object is called in messages, rendered only when needed (an
/// allocation formats no string).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Label {
    /// The global's own name.
    Global(GlobalId),
    /// A stack slot of a function.
    Alloca(FuncId),
    /// A heap object, named after where it was allocated.
    Heap,
    /// `argv[i]`.
    Argv(u32),
    /// Other engine-made objects.
    Engine(EngineObject),
}

/// The objects the engine makes itself (a one-byte label: every record of
/// an object is shared by the states that have it, but each call's
/// variadic area is a record of its own).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EngineObject {
    Argv,
    Envp,
    Varargs,
    Errno,
    Fixed,
}

impl EngineObject {
    /// Every engine object, in the order the suspension format numbers them.
    pub const ALL: [EngineObject; 5] = [
        EngineObject::Argv,
        EngineObject::Envp,
        EngineObject::Varargs,
        EngineObject::Errno,
        EngineObject::Fixed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EngineObject::Argv => "argv",
            EngineObject::Envp => "envp",
            EngineObject::Varargs => "varargs",
            EngineObject::Errno => "errno",
            EngineObject::Fixed => "fixed object",
        }
    }
}

/// An allocation: immutable once made; shared by every state that has it.
#[derive(Debug)]
pub struct MemoryObject {
    pub base: u64,
    pub size: u64,
    pub kind: ObjKind,
    pub label: Label,
    pub alloc_loc: Loc,
}

impl MemoryObject {
    /// The object's name in messages.
    pub fn name(&self, module: &Module) -> String {
        match self.label {
            Label::Global(g) => module.globals[g.0 as usize].name.clone(),
            Label::Alloca(f) => format!("alloca in {}", module.function(f).name),
            Label::Heap => format!(
                "heap object allocated at {}",
                module.describe_loc(self.alloc_loc)
            ),
            Label::Argv(i) => format!("argv[{i}]"),
            Label::Engine(o) => o.name().to_string(),
        }
    }

    pub fn end(&self) -> u64 {
        self.base + self.size
    }

    pub fn contains(&self, addr: u64) -> bool {
        addr >= self.base && addr < self.end()
    }
}

/// The contents of one object in one state (copied on first write after a fork).
#[derive(Clone, Debug)]
pub struct ObjectState {
    concrete: Bytes,
    /// The bytes that hold symbolic values (sparse: a state that copied a few
    /// symbolic bytes into a large buffer pays for those bytes only).
    symbolic: SymBytes,
    /// Array expression holding the whole contents once flushed.
    flushed: Option<ExprId>,
    pub read_only: bool,
    /// The object was freed (heap) or its function returned (stack).
    pub freed: bool,
}

/// Bytes read out of an object for a copy ([`ObjectState::read_run`]).
#[derive(Clone, Debug, PartialEq)]
pub enum ByteRun {
    /// Every byte concrete.
    Concrete(Vec<u8>),
    /// One 8-bit value per byte.
    Values(Vec<Value>),
}

/// Bytes [`ObjectState::fill`] writes at a time.
const FILL_BUF: usize = 4096;

/// Most offsets a symbolic access may be at for it to be an `ite` over
/// them instead of a read from the flushed object
/// ([`ObjectState::read_symbolic`]).
pub const SYMBOLIC_WINDOW: u64 = 16;

/// Smallest object whose symbolic accesses use the window: a smaller one
/// flushes into a short chain, which Bitwuzla reads as cheaply (a small
/// table read through nested `ite`s is slower, not faster).
pub const WINDOW_MIN_SIZE: usize = 1024;

impl ObjectState {
    pub fn new(size: usize) -> ObjectState {
        ObjectState {
            concrete: Bytes::zeroed(size),
            symbolic: SymBytes::default(),
            flushed: None,
            read_only: false,
            freed: false,
        }
    }

    /// The contents of a freed object.
    pub fn freed() -> ObjectState {
        ObjectState {
            freed: true,
            ..ObjectState::new(0)
        }
    }

    pub fn with_bytes(bytes: Vec<u8>) -> ObjectState {
        ObjectState {
            concrete: Bytes::from_vec(bytes),
            symbolic: SymBytes::default(),
            flushed: None,
            read_only: false,
            freed: false,
        }
    }

    fn byte(&self, pool: &mut ExprPool, off: usize) -> Value {
        if let Some(arr) = self.flushed {
            let idx = pool.const_u64(32, off as u64);
            let e = pool.select(arr, idx);
            return Value::from_expr(pool, e);
        }
        if let Some(e) = self.symbolic.get(off) {
            return Value::Symbolic(e);
        }
        Value::from_u64(8, self.concrete.get(off) as u64)
    }

    /// Reads `n` bytes at a concrete offset as a little-endian value of `8 * n` bits
    /// (`n` as a load's: a copy of a length the program chose goes through
    /// [`ObjectState::read_run`] chunk by chunk).
    pub fn read(&self, pool: &mut ExprPool, off: usize, n: usize) -> Value {
        let fast = self.flushed.is_none() && !self.symbolic.any_in(off, n);
        if fast {
            if let Some(s) = self.concrete.slice(off, n) {
                return Value::Concrete(Bits::from_bytes_le((n * 8) as u32, s));
            }
            let mut buf = vec![0; n];
            self.concrete.read(off, &mut buf);
            return Value::Concrete(Bits::from_bytes_le((n * 8) as u32, &buf));
        }
        let mut acc = self.byte(pool, off);
        for i in 1..n {
            let b = self.byte(pool, off + i);
            acc = Ops::concat(pool, &b, &acc);
        }
        acc
    }

    fn set_byte(&mut self, pool: &mut ExprPool, off: usize, v: Value) {
        if let Some(arr) = self.flushed {
            let idx = pool.const_u64(32, off as u64);
            let ve = v.expr(pool);
            self.flushed = Some(pool.store(arr, idx, ve));
            return;
        }
        match v {
            Value::Concrete(b) => {
                self.concrete.set(off, b.to_u64() as u8);
                self.symbolic.remove_range(off, 1);
            }
            Value::Symbolic(e) => self.symbolic.set(off, e),
        }
    }

    /// Writes a value of `8 * n` bits little-endian at a concrete offset (`n`
    /// as a store's: long fills and copies use [`ObjectState::fill`] and
    /// [`ObjectState::write_run`]).
    pub fn write(&mut self, pool: &mut ExprPool, off: usize, n: usize, v: &Value) {
        if let (Value::Concrete(b), None) = (v, self.flushed) {
            if n <= 8 {
                self.concrete.write(off, &b.to_u64().to_le_bytes()[..n]);
            } else {
                let bytes = b.to_bytes_le();
                self.concrete.write(off, &bytes[..n]);
            }
            self.symbolic.remove_range(off, n);
            return;
        }
        for i in 0..n {
            let byte = Ops::extract(pool, v, (i * 8) as u32, 8);
            self.set_byte(pool, off + i, byte);
        }
    }

    /// Sets the `n` bytes at concrete offset `off` to `byte` (an 8-bit
    /// value) without building an `8 * n`-bit value: a `memset`'s length is
    /// the program's, and a value is at most `u32::MAX` bits wide.
    pub fn fill(&mut self, pool: &mut ExprPool, off: usize, n: usize, byte: &Value) {
        if let (Value::Concrete(b), None) = (byte, self.flushed) {
            let buf = [b.to_u64() as u8; FILL_BUF];
            let mut k = 0;
            while k < n {
                let m = FILL_BUF.min(n - k);
                self.concrete.write(off + k, &buf[..m]);
                k += m;
            }
            self.symbolic.remove_range(off, n);
            return;
        }
        for i in 0..n {
            self.set_byte(pool, off + i, byte.clone());
        }
    }

    /// The `n` bytes at concrete offset `off` for a copy: raw when all are
    /// concrete, else one 8-bit value each (never one `8 * n`-bit value,
    /// whose bytes would each be extracted again).
    pub fn read_run(&self, pool: &mut ExprPool, off: usize, n: usize) -> ByteRun {
        if let Some(b) = self.concrete_bytes(off, n) {
            return ByteRun::Concrete(b.into_owned());
        }
        ByteRun::Values((0..n).map(|i| self.byte(pool, off + i)).collect())
    }

    /// Writes bytes [`ObjectState::read_run`] read at concrete offset `off`.
    pub fn write_run(&mut self, pool: &mut ExprPool, off: usize, run: &ByteRun) {
        match run {
            ByteRun::Concrete(b) if self.flushed.is_none() => {
                self.concrete.write(off, b);
                self.symbolic.remove_range(off, b.len());
            }
            ByteRun::Concrete(b) => {
                for (i, &x) in b.iter().enumerate() {
                    self.set_byte(pool, off + i, Value::from_u64(8, u64::from(x)));
                }
            }
            ByteRun::Values(vs) => {
                for (i, v) in vs.iter().enumerate() {
                    self.set_byte(pool, off + i, v.clone());
                }
            }
        }
    }

    /// The whole contents as an array expression (flushing the object).
    fn flush(&mut self, pool: &mut ExprPool, name: &str) -> ExprId {
        if let Some(arr) = self.flushed {
            return arr;
        }
        let root = if self.read_only && self.symbolic.is_empty() {
            let mut bytes = vec![0; self.concrete.len()];
            self.concrete.read(0, &mut bytes);
            pool.constant_root(name, &bytes)
        } else {
            pool.new_array(name, self.concrete.len() as u32)
        };
        let mut arr = pool.array(root);
        for off in 0..self.concrete.len() {
            let v = self.byte(pool, off);
            let ve = v.expr(pool);
            let idx = pool.const_u64(32, off as u64);
            arr = pool.store(arr, idx, ve);
        }
        self.flushed = Some(arr);
        self.symbolic = SymBytes::default();
        arr
    }

    /// The offsets an access of `n` bytes at symbolic offset `off` can be at,
    /// when its structural range (`ExprPool::unsigned_range`) holds at most
    /// [`SYMBOLIC_WINDOW`] of them inside the object. The caller checked
    /// bounds, so offsets past the end are infeasible and left out.
    fn window(&self, pool: &ExprPool, off: ExprId, n: usize) -> Option<(usize, usize)> {
        if self.flushed.is_some() || self.concrete.len() < WINDOW_MIN_SIZE {
            return None;
        }
        let (lo, hi) = pool.unsigned_range(off)?;
        let last = (self.concrete.len() as u64).checked_sub(n as u64)?;
        let hi = hi.min(last);
        (lo <= hi && hi - lo < SYMBOLIC_WINDOW).then_some((lo as usize, hi as usize))
    }

    /// Reads `n` bytes at a symbolic 32-bit offset (the caller checked bounds).
    ///
    /// An offset that can only take a few values (a pointer advanced by a
    /// decoded character's length, `buf + (c >> 7)`) reads as an `ite` over
    /// the reads at those offsets, and the object keeps its per-byte
    /// contents. Otherwise the object is flushed into an array (every byte a
    /// store: a 16 KiB buffer is a chain of 16,384 stores, which each query
    /// that reads through it carries) and read with `select`.
    pub fn read_symbolic(
        &mut self,
        pool: &mut ExprPool,
        name: &str,
        off: ExprId,
        n: usize,
    ) -> Value {
        if let Some((lo, hi)) = self.window(pool, off, n) {
            let mut acc = self.read(pool, hi, n);
            for k in (lo..hi).rev() {
                let at = pool.const_u64(pool.width(off), k as u64);
                let c = Value::Symbolic(pool.eq(off, at));
                let v = self.read(pool, k, n);
                acc = Ops::ite(pool, &c, &v, &acc);
            }
            return acc;
        }
        let arr = self.flush(pool, name);
        let mut acc: Option<Value> = None;
        for i in 0..n {
            let k = pool.const_u64(32, i as u64);
            let idx = pool.add(off, k);
            let e = pool.select(arr, idx);
            let b = Value::from_expr(pool, e);
            acc = Some(match acc {
                None => b,
                Some(lo) => Ops::concat(pool, &b, &lo),
            });
        }
        acc.expect("reads are at least one byte")
    }

    /// Writes `n` bytes at a symbolic 32-bit offset (the caller checked bounds).
    pub fn write_symbolic(
        &mut self,
        pool: &mut ExprPool,
        name: &str,
        off: ExprId,
        n: usize,
        v: &Value,
    ) {
        if let Some((lo, hi)) = self.window(pool, off, n) {
            // Each byte the write may touch becomes an `ite` over the
            // offsets that put one of the written bytes there.
            for j in lo..hi + n {
                let mut byte = self.byte(pool, j);
                for k in lo..=hi {
                    if j < k || j >= k + n {
                        continue;
                    }
                    let at = pool.const_u64(pool.width(off), k as u64);
                    let c = Value::Symbolic(pool.eq(off, at));
                    let b = Ops::extract(pool, v, ((j - k) * 8) as u32, 8);
                    byte = Ops::ite(pool, &c, &b, &byte);
                }
                self.set_byte(pool, j, byte);
            }
            return;
        }
        let mut arr = self.flush(pool, name);
        for i in 0..n {
            let k = pool.const_u64(32, i as u64);
            let idx = pool.add(off, k);
            let byte = Ops::extract(pool, v, (i * 8) as u32, 8);
            let be = byte.expr(pool);
            arr = pool.store(arr, idx, be);
        }
        self.flushed = Some(arr);
    }

    /// Does every byte hold a concrete value?
    pub fn is_concrete(&self) -> bool {
        self.flushed.is_none() && self.symbolic.is_empty()
    }

    /// Replaces every symbolic byte by its value under `asg`: the object is
    /// concrete afterwards (a path run to its end on a test's inputs).
    /// False when `deadline` passed first (millions of symbolic bytes take
    /// a second): the object is then left partly concrete.
    pub fn concretize(
        &mut self,
        pool: &ExprPool,
        asg: &Assignment,
        deadline: Option<std::time::Instant>,
    ) -> bool {
        let mut ev = Evaluator::new(pool, asg);
        if let Some(arr) = self.flushed.take() {
            let bytes = ev.eval_array(arr, self.concrete.len());
            self.concrete.write(0, &bytes);
        } else {
            let mut bytes = Vec::new();
            self.symbolic.retain(|off, e| {
                bytes.push((off, e));
                true
            });
            for (i, (off, e)) in bytes.into_iter().enumerate() {
                if i % 4096 == 4095 && deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                    return false;
                }
                self.concrete.set(off, ev.eval(e).to_u64() as u8);
            }
        }
        self.symbolic = SymBytes::default();
        true
    }

    /// Heap bytes held: (concrete bytes and the record, symbolic byte pairs);
    /// `first_sight` tells shared pages seen before (counted once).
    pub fn footprint(&self, first_sight: &mut dyn FnMut(usize, bool) -> bool) -> (usize, usize) {
        (
            std::mem::size_of::<ObjectState>() + self.concrete.footprint(first_sight),
            self.symbolic.footprint(),
        )
    }

    /// The 64-bit values stored whole at offsets that are multiples of 8 (a
    /// pointer the program stored): each the value whose eight bytes, in
    /// order, are the symbolic bytes there.
    pub fn stored_words(&self, pool: &ExprPool) -> Vec<ExprId> {
        if self.flushed.is_some() {
            return Vec::new();
        }
        let byte_of = |e: ExprId| match pool.node(e) {
            symtest_expr::Node::Extract { expr, lo, width: 8 } => Some((*expr, *lo)),
            _ => None,
        };
        let mut words = Vec::new();
        for (off, e) in self.symbolic.iter() {
            if off % 8 != 0 {
                continue;
            }
            let Some((word, 0)) = byte_of(e) else {
                continue;
            };
            let whole = pool.width(word) == 64
                && (1..8).all(|k| {
                    self.symbolic
                        .get(off + k)
                        .and_then(byte_of)
                        .is_some_and(|(w, lo)| w == word && lo == 8 * k as u32)
                });
            if whole {
                words.push(word);
            }
        }
        words
    }

    /// Does the object hold per-byte symbolic values (and is not flushed)?
    pub fn has_symbolic_bytes(&self) -> bool {
        self.flushed.is_none() && !self.symbolic.is_empty()
    }

    /// Does a symbolic byte hold exactly one of `values`' keys?
    pub fn holds_any(&self, values: &rustc_hash::FxHashMap<ExprId, u8>) -> bool {
        self.symbolic.iter().any(|(_, e)| values.contains_key(&e))
    }

    /// Replaces symbolic bytes that are exactly one of `values`' keys by the value.
    pub fn replace_symbolic_bytes(&mut self, values: &rustc_hash::FxHashMap<ExprId, u8>) {
        let concrete = &mut self.concrete;
        self.symbolic.retain(|off, e| match values.get(&e) {
            Some(v) => {
                concrete.set(off, *v);
                false
            }
            None => true,
        });
    }

    /// Concrete bytes if the object holds no symbolic byte in `off..off + n`.
    pub fn concrete_bytes(&self, off: usize, n: usize) -> Option<Cow<'_, [u8]>> {
        if self.flushed.is_some() {
            return None;
        }
        if self.symbolic.any_in(off, n) {
            return None;
        }
        if let Some(s) = self.concrete.slice(off, n) {
            return Some(Cow::Borrowed(s));
        }
        let mut out = vec![0; n];
        self.concrete.read(off, &mut out);
        Some(Cow::Owned(out))
    }

    /// Can the object be read and written at symbolic offsets (flushed into
    /// an array expression)? Not for very large objects (more than
    /// `SPARSE_MIN` bytes): accesses at symbolic offsets into them are made
    /// at a concrete offset instead.
    pub fn allows_symbolic_offsets(&self) -> bool {
        !self.concrete.is_sparse()
    }

    /// The offsets at which `self` and `other` may hold different bytes
    /// (state merging), at most `limit` of them. `None` when more differ, or
    /// when they cannot be compared byte by byte: different sizes or flags,
    /// an object larger than [`MERGE_COMPARE_MAX`], or a flushed one larger
    /// than [`MERGE_FLUSHED_MAX`] holding another array.
    pub fn differing_bytes(
        &self,
        other: &ObjectState,
        pool: &mut ExprPool,
        limit: usize,
    ) -> Option<Vec<usize>> {
        let n = self.concrete.len();
        if n != other.concrete.len()
            || self.read_only != other.read_only
            || self.freed != other.freed
        {
            return None;
        }
        if self.flushed.is_some() && self.flushed == other.flushed {
            return Some(Vec::new());
        }
        let mut out = Vec::new();
        if self.flushed.is_some() || other.flushed.is_some() {
            if n > MERGE_FLUSHED_MAX {
                return None;
            }
            for k in 0..n {
                if self.byte(pool, k) != other.byte(pool, k) {
                    out.push(k);
                    if out.len() > limit {
                        return None;
                    }
                }
            }
            return Some(out);
        }
        if n > MERGE_COMPARE_MAX {
            return None;
        }
        // Concrete bytes chunk by chunk, then every offset either side holds
        // a symbolic byte at.
        const CHUNK: usize = 16 * PAGE;
        let (mut a, mut b) = (vec![0u8; CHUNK], vec![0u8; CHUNK]);
        let mut at = 0;
        while at < n {
            let m = CHUNK.min(n - at);
            self.concrete.read(at, &mut a[..m]);
            other.concrete.read(at, &mut b[..m]);
            for k in 0..m {
                if a[k] != b[k]
                    && self.symbolic.get(at + k).is_none()
                    && other.symbolic.get(at + k).is_none()
                {
                    out.push(at + k);
                }
            }
            if out.len() > limit {
                return None;
            }
            at += m;
        }
        let mut sym: Vec<usize> = self
            .symbolic
            .iter()
            .chain(other.symbolic.iter())
            .map(|(k, _)| k)
            .collect();
        sym.sort_unstable();
        sym.dedup();
        for k in sym {
            if self.symbolic.get(k) != other.symbolic.get(k) {
                out.push(k);
                if out.len() > limit {
                    return None;
                }
            }
        }
        out.sort_unstable();
        Some(out)
    }

    /// Makes each byte at `offsets` `ite(cond, self's byte, other's byte)`
    /// (state merging; a flushed object is first turned back into one
    /// expression per byte, each a read of its array at a constant offset).
    pub fn merge_bytes(
        &mut self,
        other: &ObjectState,
        pool: &mut ExprPool,
        offsets: &[usize],
        cond: ExprId,
    ) {
        let merged: Vec<(usize, Value)> = offsets
            .iter()
            .map(|&k| {
                let (t, f) = (self.byte(pool, k), other.byte(pool, k));
                (k, Ops::ite(pool, &Value::Symbolic(cond), &t, &f))
            })
            .collect();
        if self.flushed.is_some() {
            let n = self.concrete.len();
            let bytes: Vec<Value> = (0..n).map(|k| self.byte(pool, k)).collect();
            self.flushed = None;
            for (k, v) in bytes.into_iter().enumerate() {
                self.set_byte(pool, k, v);
            }
        }
        for (k, v) in merged {
            self.set_byte(pool, k, v);
        }
    }

    /// The largest merged byte's depth among `offsets` (the merge's cost).
    pub fn max_depth_at(&self, pool: &mut ExprPool, offsets: &[usize]) -> u32 {
        offsets
            .iter()
            .map(|&k| match self.byte(pool, k) {
                Value::Symbolic(e) => pool.depth(e),
                Value::Concrete(_) => 0,
            })
            .max()
            .unwrap_or(0)
    }
}

/// The largest object state merging compares byte by byte.
pub const MERGE_COMPARE_MAX: usize = 1 << 20;

/// The largest flushed object state merging turns back into bytes.
pub const MERGE_FLUSHED_MAX: usize = 1024;

impl ObjectState {
    /// Registers the pages as start-image pieces.
    pub(crate) fn register_pages(&self, image: &mut Image) {
        match &self.concrete {
            Bytes::Paged { pages, .. } => pages.iter().for_each(|p| image.add(p)),
            Bytes::Sparse { pages, .. } => pages.values().for_each(|p| image.add(p)),
            Bytes::Flat(_) => {}
        }
    }

    /// Writes the contents for suspension (each page once per file).
    pub(crate) fn encode(&self, w: &mut Writer, t: &mut Table<'_>) {
        let mut page = |w: &mut Writer, p: &std::rc::Rc<[u8; PAGE]>| {
            if !t.write(w, p) {
                w.buf.extend_from_slice(&p[..]);
                t.done(p);
            }
        };
        match &self.concrete {
            Bytes::Flat(v) => {
                w.u8(0);
                w.bytes(v);
            }
            Bytes::Paged { pages, len } => {
                w.u8(1);
                w.usize(*len);
                for p in pages {
                    page(w, p);
                }
            }
            Bytes::Sparse { pages, len } => {
                w.u8(2);
                w.usize(*len);
                w.usize(pages.len());
                for (&i, p) in pages {
                    w.usize(i);
                    page(w, p);
                }
            }
        }
        w.usize(self.symbolic.len());
        for (off, e) in self.symbolic.iter() {
            w.usize(off);
            w.u32(e.index() as u32);
        }
        w.opt_u32(self.flushed.map(|e| e.index() as u32));
        w.bool(self.read_only);
        w.bool(self.freed);
    }

    /// Reads what [`ObjectState::encode`] wrote; expression ids must exist in `pool`.
    pub(crate) fn decode(
        r: &mut Reader<'_>,
        p: &mut Pieces<'_>,
        pool: &ExprPool,
    ) -> Decoded<ObjectState> {
        let expr = |i: u32| {
            pool.id_at(i as usize)
                .ok_or(DecodeError::Invalid("expression"))
        };
        let page = |r: &mut Reader<'_>, p: &mut Pieces<'_>| -> Decoded<std::rc::Rc<[u8; PAGE]>> {
            Ok(match p.read::<[u8; PAGE]>(r)? {
                Some(page) => page,
                None => {
                    let mut page = [0u8; PAGE];
                    for b in page.iter_mut() {
                        *b = r.u8()?;
                    }
                    p.done(std::rc::Rc::new(page))
                }
            })
        };
        let concrete = match r.u8()? {
            0 => Bytes::Flat(r.bytes()?.to_vec()),
            1 => {
                let len = r.usize()?;
                let n = len.div_ceil(PAGE);
                // Each page is at least a one-byte pin marker.
                if n > r.remaining() {
                    return Err(DecodeError::Truncated);
                }
                let mut pages = Vec::with_capacity(n);
                for _ in 0..n {
                    pages.push(page(r, p)?);
                }
                Bytes::Paged { pages, len }
            }
            2 => {
                let len = r.usize()?;
                let n = r.len(2)?;
                let mut pages = std::collections::BTreeMap::new();
                let mut last = None;
                for _ in 0..n {
                    let i = r.usize()?;
                    if i >= len.div_ceil(PAGE) || last.is_some_and(|l| l >= i) {
                        return Err(DecodeError::Invalid("page index"));
                    }
                    last = Some(i);
                    pages.insert(i, page(r, p)?);
                }
                Bytes::Sparse { pages, len }
            }
            _ => return Err(DecodeError::Invalid("object bytes")),
        };
        let n = r.len(2)?;
        let mut symbolic = SymBytes::default();
        let mut last = None;
        for _ in 0..n {
            let off = r.usize()?;
            if off >= concrete.len() || last.is_some_and(|l| l >= off) {
                return Err(DecodeError::Invalid("symbolic byte offset"));
            }
            last = Some(off);
            symbolic.set(off, expr(r.u32()?)?);
        }
        let flushed = r.opt_u32()?.map(expr).transpose()?;
        Ok(ObjectState {
            concrete,
            symbolic,
            flushed,
            read_only: r.bool()?,
            freed: r.bool()?,
        })
    }
}

#[cfg(test)]
#[path = "object_tests.rs"]
mod tests;
