//! A state's address space: a persistent ordered map from base address to object.
//!
//! Cloning is O(1) (the map is shared); writing an object copies the path in the
//! map and, if another state still shares the object's contents, the contents
//! (copy on first write after a fork, paper §3.2).

use super::object::{MemoryObject, ObjKind, ObjectState};
use im_rc::OrdMap;
use std::cell::Cell;
use std::rc::Rc;
use symtest_ir::Loc;

/// Addresses below this are null-pointer dereferences.
pub const NULL_PAGE: u64 = 4096;
/// Bytes left free after every object so small overflows land in no object.
pub const REDZONE: u64 = 64;
/// First address for engine-allocated stack/heap/engine objects.
pub const DYNAMIC_BASE: u64 = 0x7000_0000_0000;
/// First address for globals.
pub const GLOBAL_BASE: u64 = 0x1000_0000;
/// Size of the lookup cache of recently found objects.
const HINTS: usize = 8;

#[derive(Clone, Debug)]
pub struct Entry {
    pub object: Rc<MemoryObject>,
    pub contents: Rc<ObjectState>,
    /// Freed heap object or popped stack slot: any access is a use after free.
    pub freed: bool,
}

#[derive(Clone, Debug)]
pub struct AddressSpace {
    objects: OrdMap<u64, Entry>,
    /// Recently found objects as (base, end + REDZONE): most accesses hit one of
    /// a few objects again. Objects are never removed, so entries stay valid.
    hints: [Cell<(u64, u64)>; HINTS],
    next_hint: Cell<usize>,
    next_dynamic: u64,
    bytes_live: u64,
}

impl Default for AddressSpace {
    fn default() -> Self {
        AddressSpace {
            objects: OrdMap::new(),
            hints: Default::default(),
            next_hint: Cell::new(0),
            next_dynamic: DYNAMIC_BASE,
            bytes_live: 0,
        }
    }
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

impl AddressSpace {
    /// Places an object at a fixed address (globals are laid out by the executor).
    pub fn insert_at(
        &mut self,
        base: u64,
        size: u64,
        kind: ObjKind,
        name: String,
        contents: ObjectState,
        loc: Loc,
    ) -> Rc<MemoryObject> {
        let object = Rc::new(MemoryObject {
            base,
            size,
            kind,
            name,
            alloc_loc: loc,
        });
        self.bytes_live += size;
        self.objects.insert(
            base,
            Entry {
                object: object.clone(),
                contents: Rc::new(contents),
                freed: false,
            },
        );
        object
    }

    /// Allocates a fresh zero-filled object at the next dynamic address. Addresses
    /// are deterministic and never reused within a state.
    pub fn allocate(
        &mut self,
        size: u64,
        align: u64,
        kind: ObjKind,
        name: String,
        loc: Loc,
    ) -> Rc<MemoryObject> {
        let align = align.clamp(16, 4096);
        let base = align_up(self.next_dynamic, align);
        self.next_dynamic = align_up(base + size.max(1) + REDZONE, 16);
        self.insert_at(base, size, kind, name, ObjectState::new(size as usize), loc)
    }

    /// The object whose base is the greatest not above `addr` (it may not contain it).
    pub fn find_below(&self, addr: u64) -> Option<&Entry> {
        // Objects are at least REDZONE bytes apart, so an address below the end of
        // a cached object plus the redzone has that object as its nearest below.
        for h in &self.hints {
            let (base, limit) = h.get();
            if addr >= base && addr < limit {
                return self.objects.get(&base);
            }
        }
        let found = self.objects.range(..=addr).next_back().map(|(_, e)| e);
        if let Some(e) = found {
            let i = self.next_hint.get();
            self.hints[i].set((e.object.base, e.object.end() + REDZONE));
            self.next_hint.set((i + 1) % HINTS);
        }
        found
    }

    /// The object containing `addr`, if any (freed objects included).
    pub fn find(&self, addr: u64) -> Option<&Entry> {
        self.find_below(addr)
            .filter(|e| e.object.contains(addr) || (e.object.size == 0 && e.object.base == addr))
    }

    pub fn get(&self, base: u64) -> Option<&Entry> {
        self.objects.get(&base)
    }

    /// Mutable contents of the object at `base`, copied first if shared.
    pub fn contents_mut(&mut self, base: u64) -> Option<&mut ObjectState> {
        let entry = self.objects.get_mut(&base)?;
        Some(Rc::make_mut(&mut entry.contents))
    }

    /// Gives the object at `base` another kind (in this address space only).
    pub fn retag(&mut self, base: u64, kind: ObjKind) {
        if let Some(entry) = self.objects.get_mut(&base) {
            let o = &entry.object;
            entry.object = Rc::new(MemoryObject {
                base: o.base,
                size: o.size,
                kind,
                name: o.name.clone(),
                alloc_loc: o.alloc_loc,
            });
        }
    }

    /// Marks an object freed (its address stays reserved so later uses are caught).
    pub fn mark_freed(&mut self, base: u64) {
        if let Some(entry) = self.objects.get_mut(&base) {
            entry.freed = true;
            self.bytes_live = self.bytes_live.saturating_sub(entry.object.size);
            // Drop the contents: nothing may read them again.
            entry.contents = Rc::new(ObjectState::new(0));
        }
    }

    /// (base, size) of every live, non-empty object.
    pub fn live_ranges(&self) -> Vec<(u64, u64)> {
        self.objects
            .values()
            .filter(|e| !e.freed && e.object.size > 0)
            .map(|e| (e.object.base, e.object.size))
            .collect()
    }

    /// Bases of the objects (freed ones included) `keep` accepts, in address order.
    pub fn bases_where(&self, keep: impl Fn(&Entry) -> bool) -> Vec<u64> {
        self.objects
            .iter()
            .filter(|(_, e)| keep(e))
            .map(|(b, _)| *b)
            .collect()
    }

    /// Bases of the objects holding symbolic bytes (not flushed to arrays).
    pub fn bases_with_symbolic_bytes(&self) -> Vec<u64> {
        self.objects
            .iter()
            .filter(|(_, e)| !e.freed && e.contents.has_symbolic_bytes())
            .map(|(b, _)| *b)
            .collect()
    }

    /// Bases of the objects whose contents are not wholly concrete (symbolic
    /// bytes or flushed to an array), freed ones included.
    pub fn bases_not_concrete(&self) -> Vec<u64> {
        self.objects
            .iter()
            .filter(|(_, e)| !e.contents.is_concrete())
            .map(|(b, _)| *b)
            .collect()
    }

    /// Continues dynamic allocation after the globals (called once at start-up).
    pub fn set_next_dynamic(&mut self, addr: u64) {
        self.next_dynamic = self.next_dynamic.max(addr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;
    use symtest_expr::ExprPool;

    fn space_with(n: usize) -> (AddressSpace, Vec<u64>) {
        let mut s = AddressSpace::default();
        let bases = (0..n)
            .map(|i| {
                s.allocate(64, 16, ObjKind::Heap, format!("o{i}"), Loc::default())
                    .base
            })
            .collect();
        (s, bases)
    }

    #[test]
    fn fork_shares_objects_and_copies_on_first_write() {
        let mut pool = ExprPool::new();
        let (mut parent, bases) = space_with(1000);
        let child = parent.clone();
        // Nothing copied at fork: every object is shared.
        for b in &bases {
            assert!(Rc::ptr_eq(
                &parent.get(*b).unwrap().contents,
                &child.get(*b).unwrap().contents
            ));
        }
        // The first write copies only the written object.
        parent.contents_mut(bases[7]).unwrap().write(
            &mut pool,
            0,
            4,
            &Value::from_u64(32, 0xdeadbeef),
        );
        assert!(!Rc::ptr_eq(
            &parent.get(bases[7]).unwrap().contents,
            &child.get(bases[7]).unwrap().contents
        ));
        assert!(Rc::ptr_eq(
            &parent.get(bases[8]).unwrap().contents,
            &child.get(bases[8]).unwrap().contents
        ));
        let read = |s: &AddressSpace, pool: &mut ExprPool| {
            s.get(bases[7]).unwrap().contents.read(pool, 0, 4)
        };
        assert_eq!(read(&parent, &mut pool), Value::from_u64(32, 0xdeadbeef));
        assert_eq!(read(&child, &mut pool), Value::from_u64(32, 0));
    }

    #[test]
    fn addresses_are_deterministic_disjoint_and_resolvable() {
        let (a, ba) = space_with(50);
        let (_, bb) = space_with(50);
        assert_eq!(ba, bb, "same allocations, same addresses");
        for w in ba.windows(2) {
            assert!(
                w[1] >= w[0] + 64 + REDZONE,
                "objects keep a redzone between them"
            );
        }
        let e = a.find(ba[3] + 10).unwrap();
        assert_eq!(e.object.base, ba[3]);
        assert!(
            a.find(ba[3] + 64).is_none(),
            "one past the end is in no object"
        );
        assert_eq!(a.find_below(ba[3] + 64).unwrap().object.base, ba[3]);
    }

    #[test]
    fn freed_objects_stay_reserved() {
        let (mut s, b) = space_with(2);
        s.mark_freed(b[0]);
        let e = s.find(b[0] + 1).unwrap();
        assert!(e.freed);
        assert!(!s.find(b[1]).unwrap().freed);
    }
}
