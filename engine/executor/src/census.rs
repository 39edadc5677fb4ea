//! Memory accounting: a census of every live state (`stats.json`'s `memory`).
//!
//! States share data (object contents until written, address-space nodes,
//! models, coverage lists); the census counts each shared piece once, by
//! address, and attributes what the start image holds to `image_bytes`. Sizes
//! are the allocations' payloads (capacity × element size, plus reference
//! counts), so the categories are comparable to each other; the allocator's
//! own overhead is in the gap to the OS's figure.

use crate::executor::Executor;
use crate::memory::AddressSpace;
use crate::plist::PList;
use crate::state::State;
use crate::stats::MemoryCensus;
use rustc_hash::FxHashSet;
use std::mem::size_of;
use std::time::Instant;

/// Has a piece not been counted yet? One that nothing else holds cannot have
/// been (no lookup); a shared one is looked up by address.
fn fresh(seen: &mut FxHashSet<usize>, addr: usize, shared: bool) -> bool {
    !shared || seen.insert(addr)
}

fn rc_fresh<T>(seen: &mut FxHashSet<usize>, rc: &std::rc::Rc<T>) -> bool {
    fresh(
        seen,
        std::rc::Rc::as_ptr(rc) as *const u8 as usize,
        std::rc::Rc::strong_count(rc) > 1,
    )
}

/// Bytes of an `Rc` allocation's counters.
const RC: usize = 2 * size_of::<usize>();

/// What the start image holds (its nodes, records and contents, which are
/// no state's own), each piece marked seen.
fn image_bytes(image: &AddressSpace, seen: &mut FxHashSet<usize>) -> u64 {
    let mut bytes = 0usize;
    image.visit_nodes(|n, entries| {
        seen.insert(n.addr);
        bytes += n.bytes;
        for e in entries {
            seen.insert(std::rc::Rc::as_ptr(&e.object) as usize);
            if seen.insert(std::rc::Rc::as_ptr(&e.contents) as usize) {
                bytes += e.contents.footprint(&mut |p, _| seen.insert(p)).0 + RC;
            }
        }
        true
    });
    bytes as u64
}

/// A state's stack: its frames and their register chunks not counted before.
fn count_stack(st: &State, seen: &mut FxHashSet<usize>, c: &mut MemoryCensus) {
    c.stack_bytes += (st.stack.capacity() * size_of::<usize>()) as u64;
    for f in &st.stack {
        if !rc_fresh(seen, f) {
            continue;
        }
        c.stack_frames += 1;
        c.stack_bytes += (RC
            + size_of::<crate::state::Frame>()
            + f.regs.chunks().count() * size_of::<usize>()
            + f.allocas.capacity() * 8) as u64;
        for chunk in f.regs.chunks() {
            if rc_fresh(seen, chunk) {
                c.stack_bytes += crate::regs::Regs::CHUNK_BYTES as u64;
            }
        }
    }
}

impl Executor<'_> {
    /// Takes a census if the live states grew fourfold since the last one.
    pub(crate) fn maybe_census(&mut self) {
        let n = self.states.len() as u64;
        let last = self.stats.memory.states;
        if n >= 2 && n >= 4 * last {
            self.take_census();
        }
    }

    /// Takes a census now; it replaces the reported one if it saw more states.
    pub(crate) fn take_census(&mut self) {
        let t = Instant::now();
        let mut c = self.census();
        let spent = self.stats.memory.census_time_s + t.elapsed().as_secs_f64();
        if c.states >= self.stats.memory.states {
            c.census_time_s = spent;
            self.stats.memory = c;
        } else {
            self.stats.memory.census_time_s = spent;
        }
    }

    fn census(&self) -> MemoryCensus {
        let mut c = MemoryCensus {
            states: self.states.len() as u64,
            time_s: self.started.elapsed().as_secs_f64(),
            rss_mb: crate::rss::current_mb(),
            ..MemoryCensus::default()
        };
        let mut seen: FxHashSet<usize> = FxHashSet::default();
        if let Some(image) = &self.image {
            c.image_bytes = image_bytes(image, &mut seen);
        }
        let mut ids: Vec<_> = self.states.keys().copied().collect();
        ids.sort_unstable();
        for id in ids {
            self.count_state(&self.states[&id], &mut seen, &mut c);
        }
        c.suspended = self.suspended_count as u64;
        c.suspended_record_bytes = self.suspended.iter().map(|s| s.record_bytes() as u64).sum();
        let (nodes, bytes) = self.ptree.footprint();
        c.ptree_nodes = nodes as u64;
        c.ptree_bytes = bytes as u64;
        let total = c.object_bytes
            + c.symbolic_bytes
            + c.object_record_bytes
            + c.address_space_bytes
            + c.constraint_bytes
            + c.stack_bytes
            + c.stdout_bytes
            + c.state_bytes
            + c.model_bytes
            + c.cover_bytes
            + c.ptree_bytes;
        c.per_state_bytes = if c.states == 0 {
            0.0
        } else {
            total as f64 / c.states as f64
        };
        c.expr_nodes = self.pool.len() as u64;
        c.expr_pool_bytes = self.pool.heap_bytes() as u64;
        c
    }

    /// One state's pieces not counted before: its memory, stack,
    /// constraints, output, own record, inputs, model and pending coverage.
    fn count_state(&self, st: &State, seen: &mut FxHashSet<usize>, c: &mut MemoryCensus) {
        self.count_memory(&st.memory, seen, c);
        count_stack(st, seen, c);
        let mut count = |addr: usize, shared: bool, bytes: usize| {
            let new = fresh(seen, addr, shared);
            if new {
                c.constraints += 1;
                c.constraint_bytes += bytes as u64;
            }
            new
        };
        type L = PList<symtest_expr::ExprId>;
        type E = PList<(symtest_expr::ExprId, symtest_expr::ExprId)>;
        st.constraints
            .visit_nodes(|p, shared| count(p, shared, L::NODE_BYTES));
        st.preferences
            .visit_nodes(|p, shared| count(p, shared, L::NODE_BYTES));
        st.equalities
            .visit_nodes(|p, shared| count(p, shared, E::NODE_BYTES));
        c.stdout_bytes += st.stdout.footprint(&mut |p, shared| fresh(seen, p, shared)) as u64;
        c.state_bytes += (size_of::<State>()
            + size_of::<crate::state::StateId>()
            + st.jmp_targets.capacity() * size_of::<crate::state::JmpTarget>())
            as u64;
        if rc_fresh(seen, &st.symbolics) {
            c.state_bytes += (RC
                + size_of::<Vec<crate::state::SymbolicObject>>()
                + st.symbolics.capacity() * size_of::<crate::state::SymbolicObject>()
                + st.symbolics
                    .iter()
                    .map(|s| s.name.capacity())
                    .sum::<usize>()) as u64;
        }
        if let Some(m) = &st.model {
            if rc_fresh(seen, m) {
                c.models += 1;
                c.model_bytes +=
                    (RC + size_of::<symtest_expr::Assignment>() + m.heap_bytes()) as u64;
            }
        }
        let mut cur = st.pending_cover.as_ref();
        while let Some(node) = cur {
            if !rc_fresh(seen, node) {
                break;
            }
            c.cover_nodes += 1;
            c.cover_bytes += (RC + size_of::<crate::state::CoverNode>()) as u64;
            cur = node.next.as_ref();
        }
    }

    fn count_memory(&self, m: &AddressSpace, seen: &mut FxHashSet<usize>, c: &mut MemoryCensus) {
        // A leaf seen before (shared with the image or another state) holds
        // entries counted before: only new leaves are looked into.
        m.visit_nodes(|n, entries| {
            if !fresh(seen, n.addr, n.shared) {
                return false;
            }
            c.address_space_nodes += 1;
            c.address_space_bytes += n.bytes as u64;
            for e in entries {
                if rc_fresh(seen, &e.object) {
                    c.object_records += 1;
                    c.object_record_bytes +=
                        (RC + size_of::<crate::memory::object::MemoryObject>()) as u64;
                }
                if rc_fresh(seen, &e.contents) {
                    let (concrete, symbolic) = e
                        .contents
                        .footprint(&mut |p, shared| fresh(seen, p, shared));
                    c.objects_copied += 1;
                    c.object_bytes += (RC + concrete) as u64;
                    c.symbolic_byte_entries += (symbolic / 8) as u64;
                    c.symbolic_bytes += symbolic as u64;
                }
            }
            true
        });
    }
}
