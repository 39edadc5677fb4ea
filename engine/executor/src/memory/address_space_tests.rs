//! Unit tests of the address space (`address_space.rs`).

use super::*;
use crate::value::Value;
use symtest_expr::ExprPool;

fn space_with(n: usize) -> (AddressSpace, Vec<u64>) {
    let mut s = AddressSpace::default();
    let bases = (0..n)
        .map(|_| {
            s.allocate(64, 16, ObjKind::Heap, Label::Heap, Loc::default())
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
    parent
        .contents_mut(bases[7])
        .unwrap()
        .write(&mut pool, 0, 4, &Value::from_u64(32, 0xdeadbeef));
    assert!(!Rc::ptr_eq(
        &parent.get(bases[7]).unwrap().contents,
        &child.get(bases[7]).unwrap().contents
    ));
    assert!(Rc::ptr_eq(
        &parent.get(bases[8]).unwrap().contents,
        &child.get(bases[8]).unwrap().contents
    ));
    let read =
        |s: &AddressSpace, pool: &mut ExprPool| s.get(bases[7]).unwrap().contents.read(pool, 0, 4);
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
fn a_returning_frame_s_stack_objects_go_even_below_its_heap_objects() {
    let mut s = AddressSpace::default();
    let loc = Loc::default();
    let earlier = s.allocate(8, 16, ObjKind::Heap, Label::Heap, loc).base;
    // A call: its variadic area, a local, then a heap object it returns.
    let varargs = s
        .allocate_stack(
            16,
            16,
            ObjKind::Engine,
            Label::Engine(EngineObject::Varargs),
            loc,
        )
        .base;
    let local = s
        .allocate_stack(4, 4, ObjKind::Stack, Label::Alloca(FuncId(0)), loc)
        .base;
    let heap = s.allocate(32, 16, ObjKind::Heap, Label::Heap, loc).base;
    assert!(
        local > varargs && heap > local,
        "stack objects sit below the heap"
    );
    let order: Vec<u64> = s.entries().map(|e| e.object.base).collect();
    assert_eq!(
        order,
        vec![varargs, local, earlier, heap],
        "entries in address order"
    );
    assert_eq!(s.find(local + 3).unwrap().object.base, local);
    assert_eq!(
        s.find_below(local + 4 + REDZONE - 1).unwrap().object.base,
        local
    );
    s.release_frame(&[local], Some(varargs));
    assert!(s.find(local).is_none(), "the local is gone, not kept freed");
    assert!(s.find(varargs).is_none());
    assert_eq!(s.entries().count(), 2, "one record per live object");
    assert_eq!(s.find(heap + 31).unwrap().object.base, heap);
    // The next call's stack objects reuse the returned frame's addresses,
    // as a native stack's frames do.
    let next = s
        .allocate_stack(16, 16, ObjKind::Stack, Label::Alloca(FuncId(0)), loc)
        .base;
    assert_eq!(next, varargs);
    assert_eq!(s.find(varargs + 3).unwrap().object.base, next);
}

#[test]
fn the_stack_reuses_addresses_below_an_object_placed_in_its_region() {
    let mut s = AddressSpace::default();
    let loc = Loc::default();
    let local = s
        .allocate_stack(4, 4, ObjKind::Stack, Label::Alloca(FuncId(0)), loc)
        .base;
    let fixed = MemoryObject {
        base: STACK_BASE + 4096,
        size: 8,
        kind: ObjKind::Heap,
        label: Label::Heap,
        alloc_loc: loc,
    };
    s.insert_fixed(fixed, ObjectState::new(8));
    s.release_frame(&[local], None);
    let next = s
        .allocate_stack(4, 4, ObjKind::Stack, Label::Alloca(FuncId(0)), loc)
        .base;
    assert!(next > STACK_BASE + 4096, "no stack object over a fixed one");
    let empty = AddressSpace::default();
    assert_eq!(empty.stack_top(), STACK_BASE);
}

#[test]
fn heap_objects_keep_a_page_between_them() {
    let mut s = AddressSpace::default();
    let loc = Loc::default();
    let a = s.allocate(16, 16, ObjKind::Heap, Label::Heap, loc).base;
    let b = s.allocate(128, 16, ObjKind::Heap, Label::Heap, loc).base;
    assert!(b >= a + 16 + HEAP_GAP);
    assert!(s.find(b - 80).is_none(), "before an object: in no object");
    assert_eq!(s.find(a + 15).unwrap().object.base, a);
}

#[test]
fn freed_objects_stay_reserved() {
    let (mut s, b) = space_with(2);
    s.mark_freed(b[0]);
    let e = s.find(b[0] + 1).unwrap();
    assert!(e.freed());
    assert!(!s.find(b[1]).unwrap().freed());
}
