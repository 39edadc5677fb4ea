//! A state's address space: the objects in address order, in two persistent
//! vectors: one for the stack (allocas and variadic-argument areas, which
//! come and go in call order) and one for everything else (globals, heap,
//! engine objects). Objects are only ever appended, at increasing addresses
//! in each; a returning frame's stack objects are always the last of the
//! stack vector, so they are removed, whatever the call allocated on the heap.
//!
//! Cloning is O(1) (the vector is shared); writing an object copies the path to
//! its leaf in the vector and, if another state still shares the object's
//! contents, the contents (copy on first write after a fork, paper §3.2).

use super::object::{EngineObject, Label, MemoryObject, ObjKind, ObjectState};
use super::pvec::{NodeInfo, PVec};
use crate::suspend::wire::{DecodeError, Decoded, Image, Pieces, Reader, Table, Writer};
use std::cell::Cell;
use std::rc::Rc;
use symtest_expr::ExprPool;
use symtest_ir::Loc;
use symtest_ir::{FileId, FuncId, GlobalId, Module};

/// Addresses below this are null-pointer dereferences.
pub const NULL_PAGE: u64 = 4096;
/// Bytes left free after every object so small overflows land in no object.
pub const REDZONE: u64 = 64;
/// Bytes left free after a heap or engine object: an access that leaves its
/// object by less lands in no object, an error. Natively, under
/// AddressSanitizer, such an access lands in a redzone, in memory of the
/// allocator's no chunk holds, or below a size class's region: an error too
/// (a harness's table indexed a few elements before its start read its
/// neighbour in the engine, 64 bytes apart, and faulted natively).
pub const HEAP_GAP: u64 = 4096;
/// First address for engine-allocated heap and engine objects.
pub const DYNAMIC_BASE: u64 = 0x7000_0000_0000;
/// First address for stack objects (up to [`DYNAMIC_BASE`]).
pub const STACK_BASE: u64 = 0x6000_0000_0000;
/// Marks a lookup-cache index as one into the stack vector.
const STACK_BIT: u32 = 1 << 31;
/// First address for globals: far above any offset a program adds to a
/// null pointer (an `int` or `unsigned` index scaled by an element size stays
/// below 2^40), so such an access lands in no object and is an error, as
/// natively it faults (with globals low, a table pointer left null and a
/// large bucket index read a global in the engine).
pub const GLOBAL_BASE: u64 = 0x5000_0000_0000;
/// Size of the lookup cache of recently found objects.
const HINTS: usize = 8;

thread_local! {
    /// The contents of every freed object (nothing may read them again).
    static FREED: Rc<ObjectState> = Rc::new(ObjectState::freed());
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub object: Rc<MemoryObject>,
    pub contents: Rc<ObjectState>,
}

impl Entry {
    /// Freed heap object or popped stack slot: any access is a use after free.
    pub fn freed(&self) -> bool {
        self.contents.freed
    }
}

/// Recently found objects as (base, end + REDZONE, index): most accesses hit one of a few
/// objects again. One cache serves a state and every state forked from it
/// (not a copy per state): a hint is checked against the state's own object
/// at that index before it is used.
#[derive(Debug, Default)]
struct Hints {
    slots: [Cell<(u64, u64, u32)>; HINTS],
    next: Cell<u8>,
}

#[derive(Clone, Debug)]
pub struct AddressSpace {
    /// Globals, heap and engine objects.
    objects: PVec<Entry>,
    /// Allocas and variadic-argument areas, from [`STACK_BASE`].
    stack: PVec<Entry>,
    hints: Rc<Hints>,
    next_dynamic: u64,
    next_stack: u64,
}

impl Default for AddressSpace {
    fn default() -> Self {
        AddressSpace {
            objects: PVec::default(),
            stack: PVec::default(),
            hints: Rc::default(),
            next_dynamic: DYNAMIC_BASE,
            next_stack: STACK_BASE,
        }
    }
}

/// Where an entry is: its vector and index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    Main(usize),
    Stack(usize),
}

impl At {
    fn tagged(self) -> u32 {
        match self {
            At::Main(i) => i as u32,
            At::Stack(i) => i as u32 | STACK_BIT,
        }
    }

    fn untag(t: u32) -> At {
        if t & STACK_BIT != 0 {
            At::Stack((t & !STACK_BIT) as usize)
        } else {
            At::Main(t as usize)
        }
    }
}

/// Two address-ordered entry iterators merged into one.
pub struct Entries<'a> {
    main: std::iter::Peekable<super::pvec::Iter<'a, Entry>>,
    stack: std::iter::Peekable<super::pvec::Iter<'a, Entry>>,
}

impl<'a> Iterator for Entries<'a> {
    type Item = &'a Entry;

    fn next(&mut self) -> Option<&'a Entry> {
        match (self.main.peek(), self.stack.peek()) {
            (Some(m), Some(s)) if s.object.base < m.object.base => self.stack.next(),
            (Some(_), _) => self.main.next(),
            (None, _) => self.stack.next(),
        }
    }
}

/// Appends a new object with its contents to `v` (above every object there).
fn push_entry(
    v: &mut PVec<Entry>,
    object: MemoryObject,
    contents: ObjectState,
) -> Rc<MemoryObject> {
    let object = Rc::new(object);
    v.push(Entry {
        object: object.clone(),
        contents: Rc::new(contents),
    });
    object
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

impl AddressSpace {
    /// Places an object at a fixed address above every object placed so far
    /// (globals are laid out by the executor).
    pub fn insert_at(&mut self, object: MemoryObject, contents: ObjectState) -> Rc<MemoryObject> {
        debug_assert!(
            self.objects
                .last()
                .is_none_or(|e| e.object.base < object.base),
            "objects are appended in address order"
        );
        push_entry(&mut self.objects, object, contents)
    }

    /// Places an object at a free address anywhere (`klee_define_fixed_object`):
    /// appended when it lies above every object, else the object vector is
    /// rebuilt in address order (rare; the lookup cache starts afresh).
    pub fn insert_fixed(
        &mut self,
        object: MemoryObject,
        contents: ObjectState,
    ) -> Rc<MemoryObject> {
        let above = self
            .objects
            .last()
            .is_none_or(|e| e.object.base < object.base);
        if above {
            self.reserve_in_stack_region(&object);
            return self.insert_at(object, contents);
        }
        let object = Rc::new(object);
        let mut all: Vec<Entry> = self.objects.iter().cloned().collect();
        let at = all.partition_point(|e| e.object.base < object.base);
        all.insert(
            at,
            Entry {
                object: object.clone(),
                contents: Rc::new(contents),
            },
        );
        let mut objects = PVec::default();
        for e in all {
            objects.push(e);
        }
        self.objects = objects;
        self.hints = Rc::default();
        self.reserve_in_stack_region(&object);
        object
    }

    /// Later stack objects go above an object placed in the stack region.
    fn reserve_in_stack_region(&mut self, object: &MemoryObject) {
        if (STACK_BASE..DYNAMIC_BASE).contains(&object.base) {
            self.next_stack = self
                .next_stack
                .max(align_up(object.end().max(object.base + 1) + REDZONE, 16));
        }
    }

    /// Allocates a fresh zero-filled object at the next dynamic address. Addresses
    /// are deterministic and never reused within a state.
    pub fn allocate(
        &mut self,
        size: u64,
        align: u64,
        kind: ObjKind,
        label: Label,
        loc: Loc,
    ) -> Rc<MemoryObject> {
        let align = align.clamp(16, 4096);
        let base = align_up(self.next_dynamic, align);
        self.next_dynamic = align_up(
            base.saturating_add(size.max(1)).saturating_add(HEAP_GAP),
            16,
        );
        let object = MemoryObject {
            base,
            size,
            kind,
            label,
            alloc_loc: loc,
        };
        self.insert_at(object, ObjectState::new(size as usize))
    }

    /// Allocates a zero-filled stack object (an alloca or a variadic-argument
    /// area) at the next stack address: the stack objects of a frame are the
    /// last of the stack vector when it returns, so
    /// [`AddressSpace::release_frame`] removes them. Addresses are never reused.
    pub fn allocate_stack(
        &mut self,
        size: u64,
        align: u64,
        kind: ObjKind,
        label: Label,
        loc: Loc,
    ) -> Rc<MemoryObject> {
        let align = align.clamp(16, 4096);
        let base = align_up(self.next_stack, align);
        let next = base
            .checked_add(size.max(1) + REDZONE)
            .map(|n| align_up(n, 16))
            .filter(|&n| n <= DYNAMIC_BASE);
        let Some(next) = next else {
            // The stack region is spent (16 TiB of addresses): among the rest.
            return self.allocate(size, align, kind, label, loc);
        };
        self.next_stack = next;
        let object = MemoryObject {
            base,
            size,
            kind,
            label,
            alloc_loc: loc,
        };
        push_entry(&mut self.stack, object, ObjectState::new(size as usize))
    }

    fn entry(&self, at: At) -> Option<&Entry> {
        match at {
            At::Main(i) => self.objects.get(i),
            At::Stack(i) => self.stack.get(i),
        }
    }

    fn entry_mut(&mut self, at: At) -> Option<&mut Entry> {
        match at {
            At::Main(i) => self.objects.get_mut(i),
            At::Stack(i) => self.stack.get_mut(i),
        }
    }

    fn remember(&self, e: &Entry, at: At) {
        let h = &self.hints;
        let i = h.next.get() as usize;
        h.slots[i].set((e.object.base, e.object.end() + REDZONE, at.tagged()));
        h.next.set(((i + 1) % HINTS) as u8);
    }

    /// Where the object is whose base is the greatest not above `addr`.
    fn index_below(&self, addr: u64) -> Option<At> {
        // Objects are at least REDZONE bytes apart, so an address below the end of
        // an object plus the redzone has that object as its nearest below.
        for h in &self.hints.slots {
            let (base, limit, tagged) = h.get();
            if addr >= base && addr < limit {
                let at = At::untag(tagged);
                if let Some(e) = self.entry(at) {
                    if e.object.base == base && addr < e.object.end() + REDZONE {
                        return Some(at);
                    }
                }
            }
        }
        let main = self.objects.last_where(|e| e.object.base <= addr);
        let stack = self.stack.last_where(|e| e.object.base <= addr);
        let at = match (main, stack) {
            (Some(m), Some(s)) => {
                let base = |v: &PVec<Entry>, i| v.get(i).expect("found").object.base;
                if base(&self.stack, s) > base(&self.objects, m) {
                    At::Stack(s)
                } else {
                    At::Main(m)
                }
            }
            (Some(m), None) => At::Main(m),
            (None, Some(s)) => At::Stack(s),
            (None, None) => return None,
        };
        self.remember(self.entry(at).expect("found"), at);
        Some(at)
    }

    /// The object whose base is the greatest not above `addr` (it may not contain it).
    pub fn find_below(&self, addr: u64) -> Option<&Entry> {
        self.index_below(addr).and_then(|at| self.entry(at))
    }

    /// The object containing `addr`, if any (freed objects included).
    pub fn find(&self, addr: u64) -> Option<&Entry> {
        self.find_below(addr)
            .filter(|e| e.object.contains(addr) || (e.object.size == 0 && e.object.base == addr))
    }

    /// The object at `base`.
    pub fn get(&self, base: u64) -> Option<&Entry> {
        self.find_below(base).filter(|e| e.object.base == base)
    }

    /// Mutable contents of the object at `base`, copied first if shared.
    pub fn contents_mut(&mut self, base: u64) -> Option<&mut ObjectState> {
        let at = self.index_below(base)?;
        let entry = self.entry_mut(at)?;
        if entry.object.base != base {
            return None;
        }
        Some(Rc::make_mut(&mut entry.contents))
    }

    /// Gives the object at `base` another kind (in this address space only).
    pub fn retag(&mut self, base: u64, kind: ObjKind) {
        let Some(at) = self.index_below(base) else {
            return;
        };
        if let Some(entry) = self.entry_mut(at).filter(|e| e.object.base == base) {
            let o = &entry.object;
            entry.object = Rc::new(MemoryObject {
                base: o.base,
                size: o.size,
                kind,
                label: o.label,
                alloc_loc: o.alloc_loc,
            });
        }
    }

    /// Marks an object freed (its address stays reserved so later uses are caught).
    pub fn mark_freed(&mut self, base: u64) {
        let Some(at) = self.index_below(base) else {
            return;
        };
        if let Some(entry) = self.entry_mut(at).filter(|e| e.object.base == base) {
            // Drop the contents: nothing may read them again.
            entry.contents = FREED.with(Rc::clone);
        }
    }

    /// Releases the stack objects of a returning frame (its variadic-argument
    /// area, made at the call, and its allocas, in allocation order). They
    /// are the last of the stack vector (frames return in call order) and
    /// are removed: the state stops carrying a record per call it ever made,
    /// even where the call allocated heap objects. One that is not last (the
    /// stack region spent) stays, freed.
    ///
    /// Their addresses are reused by the next call, as a native stack's are
    /// (frames come and go in call order): the distance between a local of
    /// an outer frame and one of an inner frame is what the frames between
    /// them hold, not what every call made so far held (a program that
    /// bounds its recursion by that distance recursed natively and not in
    /// the engine). An access through a dangling pointer to a returned frame
    /// lands in no object until a later call's stack reaches its address,
    /// then in that call's object, as natively.
    pub fn release_frame(&mut self, bases: &[u64], varargs: Option<u64>) {
        for base in bases.iter().rev().copied().chain(varargs) {
            if self.stack.last().is_some_and(|e| e.object.base == base) {
                self.stack.pop();
            } else if self.objects.last().is_some_and(|e| e.object.base == base) {
                self.objects.pop();
            } else {
                self.mark_freed(base);
            }
        }
        self.next_stack = self.stack_top();
    }

    /// The lowest address a new stack object may take: above the last stack
    /// object and above any object placed in the stack region by address.
    fn stack_top(&self) -> u64 {
        let above = |o: &MemoryObject| align_up(o.end().max(o.base + 1) + REDZONE, 16);
        let top = self.stack.last().map_or(STACK_BASE, |e| above(&e.object));
        let fixed = self
            .objects
            .last_where(|e| e.object.base < DYNAMIC_BASE)
            .and_then(|i| self.objects.get(i))
            .filter(|e| e.object.base >= STACK_BASE)
            .map_or(STACK_BASE, |e| above(&e.object));
        top.max(fixed)
    }

    /// Where the next heap and the next stack object go (states merge only
    /// where both agree).
    pub fn next_addresses(&self) -> (u64, u64) {
        (self.next_dynamic, self.next_stack)
    }

    /// Every object, in address order.
    pub fn entries(&self) -> Entries<'_> {
        Entries {
            main: self.objects.iter().peekable(),
            stack: self.stack.iter().peekable(),
        }
    }

    /// Every object, one vector after the other: for scans that sort what
    /// they keep (cheaper than [`AddressSpace::entries`]' merge, and a scan
    /// for objects with symbolic bytes runs at every equality the path
    /// condition gains).
    fn scan(&self) -> impl Iterator<Item = &Entry> {
        self.objects.iter().chain(self.stack.iter())
    }

    /// The bases of the objects `keep` accepts, in address order.
    fn sorted_bases(&self, keep: impl Fn(&Entry) -> bool) -> Vec<u64> {
        let mut bases: Vec<u64> = self
            .scan()
            .filter(|e| keep(e))
            .map(|e| e.object.base)
            .collect();
        bases.sort_unstable();
        bases
    }

    /// (base, size) of every live, non-empty object, in address order.
    pub fn live_ranges(&self) -> Vec<(u64, u64)> {
        let mut ranges: Vec<(u64, u64)> = self
            .scan()
            .filter(|e| !e.freed() && e.object.size > 0)
            .map(|e| (e.object.base, e.object.size))
            .collect();
        ranges.sort_unstable();
        ranges
    }

    /// Bases of the objects (freed ones included) `keep` accepts, in address order.
    pub fn bases_where(&self, keep: impl Fn(&Entry) -> bool) -> Vec<u64> {
        self.sorted_bases(keep)
    }

    /// Bases of the objects holding symbolic bytes (not flushed to arrays)
    /// whose contents pass `keep`, in address order.
    pub fn bases_with_symbolic_bytes(&self, keep: impl Fn(&ObjectState) -> bool) -> Vec<u64> {
        self.sorted_bases(|e| e.contents.has_symbolic_bytes() && keep(&e.contents))
    }

    /// Bases of the objects whose contents are not wholly concrete (symbolic
    /// bytes or flushed to an array), freed ones included, in address order.
    pub fn bases_not_concrete(&self) -> Vec<u64> {
        self.sorted_bases(|e| !e.contents.is_concrete())
    }

    /// Continues dynamic allocation after the globals (called once at start-up).
    pub fn set_next_dynamic(&mut self, addr: u64) {
        self.next_dynamic = self.next_dynamic.max(addr);
    }

    /// The nodes of the object vector with the entries of each leaf (for
    /// memory accounting; see [`PVec::visit_nodes`]).
    pub fn visit_nodes(&self, mut f: impl FnMut(NodeInfo, &[Entry]) -> bool) {
        self.objects.visit_nodes(&mut f);
        self.stack.visit_nodes(&mut f);
    }
}

impl AddressSpace {
    /// Writes the address space for suspension (see `suspend::wire`).
    pub(crate) fn encode(&self, w: &mut Writer, t: &mut Table<'_>) {
        w.u64(self.next_dynamic);
        w.u64(self.next_stack);
        for v in [&self.objects, &self.stack] {
            v.encode(w, t, &mut |e, w, t| {
                if !t.write(w, &e.object) {
                    encode_object(&e.object, w);
                    t.done(&e.object);
                }
                if !t.write(w, &e.contents) {
                    e.contents.encode(w, t);
                    t.done(&e.contents);
                }
            });
        }
    }

    /// Reads what [`AddressSpace::encode`] wrote (ids checked against `module`
    /// and `pool`).
    pub(crate) fn decode(
        r: &mut Reader<'_>,
        p: &mut Pieces<'_>,
        module: &Module,
        pool: &ExprPool,
    ) -> Decoded<AddressSpace> {
        let next_dynamic = r.u64()?;
        let next_stack = r.u64()?;
        let mut vectors = Vec::with_capacity(2);
        for _ in 0..2 {
            let v = PVec::decode(r, p, &mut |r, p| {
                let object = match p.read::<MemoryObject>(r)? {
                    Some(o) => o,
                    None => p.done(Rc::new(decode_object(r, module)?)),
                };
                let contents = match p.read::<ObjectState>(r)? {
                    Some(c) => c,
                    None => {
                        let c = ObjectState::decode(r, p, pool)?;
                        p.done(Rc::new(c))
                    }
                };
                Ok(Entry { object, contents })
            })?;
            let sorted = v
                .iter()
                .zip(v.iter().skip(1))
                .all(|(a, b)| a.object.base < b.object.base);
            if !sorted {
                return Err(DecodeError::Invalid("object order"));
            }
            vectors.push(v);
        }
        let stack = vectors.pop().expect("two vectors");
        let objects = vectors.pop().expect("two vectors");
        Ok(AddressSpace {
            objects,
            stack,
            hints: Rc::default(),
            next_dynamic,
            next_stack,
        })
    }

    /// Registers the pieces of this address space (the start image) that
    /// suspended states refer to by number.
    pub(crate) fn register_image(&self, image: &mut Image) {
        for v in [&self.objects, &self.stack] {
            v.register(image, &mut |e, image| {
                image.add(&e.object);
                image.add(&e.contents);
                e.contents.register_pages(image);
            });
        }
        super::bytes::register_zero_page(image);
    }
}

fn encode_object(o: &MemoryObject, w: &mut Writer) {
    w.u64(o.base);
    w.u64(o.size);
    match o.kind {
        ObjKind::Global(g) => {
            w.u8(0);
            w.u32(g.0);
        }
        ObjKind::Heap => w.u8(1),
        ObjKind::Stack => w.u8(2),
        ObjKind::Engine => w.u8(3),
    }
    match o.label {
        Label::Global(g) => {
            w.u8(0);
            w.u32(g.0);
        }
        Label::Alloca(f) => {
            w.u8(1);
            w.u32(f.0);
        }
        Label::Heap => w.u8(2),
        Label::Argv(i) => {
            w.u8(3);
            w.u32(i);
        }
        Label::Engine(e) => {
            w.u8(4);
            let i = EngineObject::ALL.iter().position(|x| *x == e);
            w.usize(i.expect("every engine object is in ALL"));
        }
    }
    w.opt_u32(o.alloc_loc.file.map(|f| f.0));
    w.u32(o.alloc_loc.line);
    w.u32(o.alloc_loc.col);
}

fn decode_object(r: &mut Reader<'_>, module: &Module) -> Decoded<MemoryObject> {
    let global = |g: u32| {
        ((g as usize) < module.globals.len())
            .then_some(GlobalId(g))
            .ok_or(DecodeError::Invalid("global"))
    };
    let base = r.u64()?;
    let size = r.u64()?;
    let kind = match r.u8()? {
        0 => ObjKind::Global(global(r.u32()?)?),
        1 => ObjKind::Heap,
        2 => ObjKind::Stack,
        3 => ObjKind::Engine,
        _ => return Err(DecodeError::Invalid("object kind")),
    };
    let label = match r.u8()? {
        0 => Label::Global(global(r.u32()?)?),
        1 => {
            let f = r.u32()?;
            if f as usize >= module.functions.len() {
                return Err(DecodeError::Invalid("function"));
            }
            Label::Alloca(FuncId(f))
        }
        2 => Label::Heap,
        3 => Label::Argv(r.u32()?),
        4 => Label::Engine(
            *EngineObject::ALL
                .get(r.usize()?)
                .ok_or(DecodeError::Invalid("label"))?,
        ),
        _ => return Err(DecodeError::Invalid("label")),
    };
    let file = r.opt_u32()?;
    if file.is_some_and(|f| f as usize >= module.files.len()) {
        return Err(DecodeError::Invalid("file"));
    }
    let alloc_loc = Loc {
        file: file.map(FileId),
        line: r.u32()?,
        col: r.u32()?,
    };
    if base.checked_add(size).is_none() {
        return Err(DecodeError::Invalid("object bounds"));
    }
    Ok(MemoryObject {
        base,
        size,
        kind,
        label,
        alloc_loc,
    })
}

#[cfg(test)]
#[path = "address_space_tests.rs"]
mod tests;
