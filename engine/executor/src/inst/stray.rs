//! Concrete pointers that left their object and landed in another one.
//!
//! A symbolic pointer is resolved by its provenance (`memory_ops`): an index
//! into an array stays in the array, so `a + i` that can reach another object
//! is an out-of-bounds access, not an access of that object. A concrete
//! pointer has no expression to key its provenance by, and the engine's heap
//! layout is not the native one: `vc + (-1071)` computed from concrete values
//! (a path fixed by its input, or run to its end concretely after the
//! deadline) may land inside another object of the engine's address space,
//! where the native run finds unmapped memory or an ASan redzone.
//!
//! So a state remembers, by address, each concrete pointer a GEP computed
//! outside the object its base points into that lands inside another object
//! (a *stray*), with the base of the object it derives from; an access at that
//! address is an out-of-bounds access of that object. The same address
//! computed again inside its own object forgets the entry. Objects are at
//! least `REDZONE` bytes apart, so a pointer less than that from its base
//! within its object never lands in another one (no lookup).

use crate::executor::Executor;
use crate::memory::REDZONE;
use crate::state::State;
use crate::step::{Exec, Stop};
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use std::rc::Rc;
use symtest_expr::{Assignment, BinOp, CmpOp, Evaluator, ExprId};

/// The most strays one state remembers (past it, no more are noted: an
/// access is then checked by address alone, as without this).
const MAX_STRAYS: usize = 4096;

impl Executor<'_> {
    /// The address a concrete pointer `addr` derives from: the base of its
    /// object when it is a stray, else `addr` itself.
    pub(crate) fn concrete_origin(&self, st: &State, addr: u64) -> u64 {
        if st.strays.is_empty() {
            return addr;
        }
        st.strays.get(&addr).copied().unwrap_or(addr)
    }

    /// Notes that the concrete pointer `addr` was computed from the pointer
    /// `from` (a GEP's base, or its provenance): a stray when it is outside
    /// the object holding `from` and inside another one.
    pub(crate) fn note_stray(&mut self, st: &mut State, addr: u64, from: u64) {
        let none_yet = st.strays.is_empty();
        let from_stray = if none_yet {
            None
        } else {
            st.strays.get(&from).copied()
        };
        let from = from_stray.unwrap_or(from);
        if from_stray.is_none()
            && addr.abs_diff(from) < REDZONE
            && (none_yet || !st.strays.contains_key(&addr))
        {
            return;
        }
        let origin = holding(st, from)
            .filter(|e| !e.freed())
            .map(|e| (e.object.base, e.object.end()));
        let stray = origin.and_then(|(base, end)| {
            let inside_own = addr >= base && addr <= end;
            let elsewhere = st.memory.find(addr).is_some_and(|e| e.object.base != base);
            (!inside_own && elsewhere).then_some(base)
        });
        match stray {
            Some(base) if st.strays.len() < MAX_STRAYS => {
                Rc::make_mut(&mut st.strays).insert(addr, base);
            }
            Some(_) => {}
            None => {
                if st.strays.contains_key(&addr) {
                    Rc::make_mut(&mut st.strays).remove(&addr);
                }
            }
        }
    }

    /// Before a state is made concrete under `model` (completion): the
    /// strays its symbolic pointers become, as (address, derived from) for
    /// [`Executor::note_stray`]: each 64-bit value in a register or stored
    /// whole in memory whose provenance is known, where it is not NULL.
    pub(crate) fn strays_under(&self, st: &State, model: &Assignment) -> Vec<(u64, u64)> {
        let mut values: Vec<ExprId> = Vec::new();
        for frame in &st.stack {
            for slot in frame.regs.iter() {
                if let crate::state::Slot::Sym(e) = slot {
                    values.push(*e);
                }
            }
        }
        for base in st.memory.bases_not_concrete() {
            if let Some(entry) = st.memory.get(base) {
                values.extend(entry.contents.stored_words(&self.pool));
            }
        }
        let mut ev = Evaluator::new(&self.pool, model);
        let mut found = Vec::new();
        for e in values {
            if self.pool.width(e) != 64 {
                continue;
            }
            let Some(origin) = self.provenance(e) else {
                continue;
            };
            if origin
                .nullable
                .is_some_and(|base| ev.eval(base).to_u64() == 0)
            {
                continue;
            }
            found.push((ev.eval(e).to_u64(), origin.addr));
        }
        found
    }

    /// `symtest_points_into(p, base, size)`: does `p` lie in `[base, base +
    /// size]` (one past the end included)? By address, as natively, except
    /// that a pointer derived from another object (its provenance) never
    /// points into the one at `base`: where it lands depends on the heap's
    /// layout, which the engine's is not. The library harness names the
    /// input a returned pointer points into with it. 32-bit 0 or 1.
    pub(crate) fn points_into(
        &mut self,
        st: &State,
        p: &Value,
        base: &Value,
        size: &Value,
    ) -> Value {
        let p = Ops::resize(&mut self.pool, p, 64);
        let base = Ops::resize(&mut self.pool, base, 64);
        let size = Ops::resize(&mut self.pool, size, 64);
        let derived = match &p {
            Value::Concrete(a) => Some(self.concrete_origin(st, a.to_u64())),
            Value::Symbolic(e) => self.provenance(*e).map(|o| o.addr),
        };
        if let (Some(from), Some(b)) = (derived, base.as_concrete()) {
            let object_of = |addr: u64| holding(st, addr).map(|e| e.object.base);
            if object_of(from) != object_of(b.to_u64()) {
                return Value::from_u64(32, 0);
            }
        }
        let off = Ops::bin(&mut self.pool, BinOp::Sub, &p, &base);
        let within = Ops::cmp(&mut self.pool, CmpOp::Ule, &off, &size);
        Ops::zext(&mut self.pool, &within, 32)
    }

    /// An access of `bytes` bytes at the concrete address `addr`, which lies
    /// in the object at `found`: an out-of-bounds error when `addr` is a
    /// stray from another object that is still live.
    pub(crate) fn check_stray(&self, st: &State, addr: u64, found: u64, bytes: u64) -> Exec<()> {
        let Some(&origin) = st.strays.get(&addr) else {
            return Ok(());
        };
        if origin == found {
            return Ok(());
        }
        let Some(entry) = st.memory.get(origin).filter(|e| !e.freed()) else {
            return Ok(());
        };
        let obj = &entry.object;
        Err(Stop::error(
            ErrorKind::Ptr,
            format!(
                "out-of-bounds access: {bytes} byte(s) outside `{}` ({} bytes)",
                obj.name(self.module),
                obj.size
            ),
        ))
    }
}

/// The object `addr` lies in, one past its end included (a pointer's own
/// object, freed or not).
fn holding(st: &State, addr: u64) -> Option<&crate::memory::address_space::Entry> {
    st.memory
        .find_below(addr)
        .filter(|e| addr <= e.object.end())
}
