//! The engine's heap: `malloc`, `calloc`, `realloc`, `free`, the aligned
//! family and `malloc_usable_size`, replacing whatever the program or its libc
//! defines, so every heap bug is caught.
//!
//! A symbolic pointer given to `free`, `realloc` (or `klee_get_obj_size`) is
//! resolved as KLEE's `resolveExact` does: one state per object whose start
//! the pointer can be (NULL included for `free`/`realloc`), plus one error
//! state for the values that are the start of no such object.

use crate::executor::Executor;
use crate::memory::address_space::Entry;
use crate::memory::{Label, ObjKind};
use crate::state::State;
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use symtest_expr::{Bits, ExprId};
use symtest_ir::Reg;

/// The objects a symbolic pointer can be the exact start of.
pub(crate) struct Exact {
    /// (address, condition `p == address`), NULL first when it is possible.
    pub targets: Vec<(u64, Value)>,
    /// The condition under which `p` is none of the candidates, and an example.
    pub bad: Option<(Value, u64)>,
}

/// Where an `Exact` operation's result goes.
#[derive(Clone, Copy)]
pub(crate) struct ResultSlot {
    pub dest: Option<Reg>,
    pub bits: Option<u32>,
}

type ExactOp<'a, 'm> =
    dyn FnMut(&mut Executor<'m>, &mut State, &mut StepCtx, u64) -> Exec<Option<Value>> + 'a;

impl<'m> Executor<'m> {
    pub(crate) fn malloc(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        size: &Value,
        _zero: bool,
    ) -> Exec<Value> {
        let size = match size {
            Value::Concrete(b) => b.clone(),
            sym => self.symbolic_size(st, ctx, sym)?,
        };
        let n = size.to_u64();
        if n > self.config.max_alloc_size {
            self.warn_once(format!(
                "allocation of {n} bytes refused (returns NULL): more than --max-alloc-size ({} bytes)",
                self.config.max_alloc_size
            ));
            return Ok(Value::from_u64(64, 0));
        }
        let loc = self.current_loc(st);
        let obj = st.memory.allocate(n, 16, ObjKind::Heap, Label::Heap, loc);
        Ok(Value::from_u64(64, obj.base))
    }

    /// `__symtest_aligned_malloc(align, size)`: whole objects at alignments up
    /// to a page; larger alignments fail (NULL) as the runtime documents.
    pub(crate) fn aligned_malloc(&mut self, st: &mut State, args: &[Value]) -> Exec<Value> {
        let (Some(align), Some(n)) = (args.first(), args.get(1)) else {
            return Err(Stop::error(
                ErrorKind::Exec,
                "aligned allocation called with too few arguments",
            ));
        };
        let align = self.concretize(st, align, "allocation alignment")?.to_u64();
        let n = self.concretize(st, n, "allocation size")?.to_u64();
        if n > self.config.max_alloc_size || align > 4096 {
            self.warn_once(format!(
                "aligned allocation of {n} bytes at {align} refused (returns NULL); limits are --max-alloc-size and 4096-byte alignment"
            ));
            return Ok(Value::from_u64(64, 0));
        }
        let loc = self.current_loc(st);
        let obj = st
            .memory
            .allocate(n, align, ObjKind::Heap, Label::Heap, loc);
        Ok(Value::from_u64(64, obj.base))
    }

    pub(crate) fn calloc(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        args: &[Value],
    ) -> Exec<Value> {
        let (Some(n), Some(sz)) = (args.first(), args.get(1)) else {
            return Err(Stop::error(
                ErrorKind::Exec,
                "calloc called with too few arguments",
            ));
        };
        let n = self.concretize(st, n, "calloc count")?.to_u64();
        let sz = self.concretize(st, sz, "calloc size")?.to_u64();
        match n.checked_mul(sz) {
            Some(total) => self.malloc(st, ctx, &Value::from_u64(64, total), true),
            None => Ok(Value::from_u64(64, 0)),
        }
    }

    /// `malloc_usable_size(p)`: the heap object's exact size.
    pub(crate) fn malloc_usable_size(&mut self, st: &mut State, p: &Value) -> Exec<Value> {
        let p = self
            .concretize(st, p, "malloc_usable_size pointer")?
            .to_u64();
        let n = match st.memory.get(p) {
            _ if p == 0 => 0,
            Some(e) if !e.freed() && e.object.kind == ObjKind::Heap => e.object.size,
            _ => {
                return Err(Stop::error(
                    ErrorKind::Ptr,
                    format!("malloc_usable_size of 0x{p:x}, which is not a live heap object"),
                ))
            }
        };
        Ok(Value::from_u64(64, n))
    }

    /// A few concrete values of a symbolic allocation size (at most
    /// `Config::max_sym_alloc_sizes`), each with its condition.
    fn concrete_sizes(&mut self, st: &mut State, size: &Value) -> Exec<Vec<(Bits, Value)>> {
        let e = size.expr(&mut self.pool);
        let mut sizes: Vec<(Bits, Value)> = Vec::new();
        let mut excluded: Vec<ExprId> = Vec::new();
        while sizes.len() < self.config.max_sym_alloc_sizes as usize {
            let Some(m) = self.solve(st, &excluded)? else {
                break;
            };
            let b = self.pool.eval(e, &m);
            let eq = self.eq_value(size, &Value::Concrete(b.clone()));
            let ne = Ops::not(&mut self.pool, &eq);
            excluded.push(ne.expr(&mut self.pool));
            sizes.push((b, eq));
        }
        self.warn_once(format!(
            "symbolic allocation size: trying {} concrete size(s), other sizes are not explored",
            sizes.len()
        ));
        Ok(sizes)
    }

    /// A symbolic allocation size: a few concrete sizes, one state each.
    fn symbolic_size(&mut self, st: &mut State, ctx: &mut StepCtx, size: &Value) -> Exec<Bits> {
        let sizes = self.concrete_sizes(st, size)?;
        let mut it = sizes.into_iter();
        let (first, first_eq) = it
            .next()
            .ok_or_else(|| Stop::error(ErrorKind::Solver, "no allocation size feasible"))?;
        // Other sizes re-run the call in forked states (pc still points after it,
        // so they allocate here directly).
        for (b, eq) in it {
            let mut child = self.fork_state(st);
            self.add_constraint(&mut child, &eq);
            let frame = child.frame().clone();
            let inst_dest = self
                .module
                .function(frame.func)
                .body
                .as_ref()
                .expect("defined")
                .insts[frame.cur as usize]
                .dest;
            match self.malloc(&mut child, ctx, &Value::Concrete(b), false) {
                Ok(v) => {
                    if let Some(d) = inst_dest {
                        child.set_reg(d, v);
                    }
                    ctx.added.push(child);
                }
                Err(stop) => ctx.ended.push((child, stop.into_termination())),
            }
        }
        self.add_constraint(st, &first_eq);
        Ok(first)
    }

    /// `free(p)`.
    pub(crate) fn free(&mut self, st: &mut State, ctx: &mut StepCtx, p: &Value) -> Exec<()> {
        let slot = ResultSlot {
            dest: None,
            bits: None,
        };
        self.for_each_exact(st, ctx, p, slot, "free", &mut |ex, s, _, addr| {
            ex.free_at(s, addr).map(|()| None)
        })
    }

    /// `free` of a concrete address.
    fn free_at(&mut self, st: &mut State, addr: u64) -> Exec<()> {
        if addr == 0 {
            return Ok(());
        }
        if let Some(msg) = self.not_a_heap_start(st, addr, "free") {
            return Err(Stop::error(ErrorKind::Free, msg));
        }
        let entry = st.memory.get(addr).expect("checked above");
        if entry.freed() {
            let loc = entry.object.alloc_loc;
            return Err(Stop::error(
                ErrorKind::Free,
                format!(
                    "double free of the object allocated at {}",
                    self.module.describe_loc(loc)
                ),
            ));
        }
        st.memory.mark_freed(addr);
        Ok(())
    }

    /// Why `addr` is not the start of a heap object (`None` if it is one, live
    /// or freed), in the words of `verb` (`free`, `realloc`).
    fn not_a_heap_start(&self, st: &State, addr: u64, verb: &str) -> Option<String> {
        let Some(entry) = st.memory.find_below(addr) else {
            return Some(format!("{verb} of an invalid pointer"));
        };
        let obj = &entry.object;
        if addr != obj.base {
            return Some(if obj.contains(addr) {
                format!(
                    "{verb} of an interior pointer (offset {} into `{}`)",
                    addr - obj.base,
                    obj.name(self.module)
                )
            } else {
                format!("{verb} of an invalid pointer")
            });
        }
        match obj.kind {
            ObjKind::Heap => None,
            ObjKind::Stack => Some(format!("{verb} of alloca `{}`", obj.name(self.module))),
            ObjKind::Global(_) => Some(format!("{verb} of global `{}`", obj.name(self.module))),
            ObjKind::Engine => Some(format!("{verb} of `{}`", obj.name(self.module))),
        }
    }

    /// `realloc(p, size)`.
    pub(crate) fn realloc(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        p: &Value,
        size: &Value,
        slot: ResultSlot,
    ) -> Exec<()> {
        let size = size.clone();
        self.for_each_exact(st, ctx, p, slot, "realloc", &mut |ex, s, c, addr| {
            ex.realloc_at(s, c, addr, &size, slot).map(Some)
        })
    }

    /// `realloc` of the object at `addr` (or NULL). A symbolic size takes a
    /// few concrete values, one state each (as `malloc`'s), so a pointer
    /// resolved over several objects has a path per object and size.
    fn realloc_at(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        addr: u64,
        size: &Value,
        slot: ResultSlot,
    ) -> Exec<Value> {
        if addr == 0 {
            return self.malloc(st, ctx, size, false);
        }
        if let Some(msg) = self.not_a_heap_start(st, addr, "realloc") {
            return Err(Stop::error(ErrorKind::Free, msg));
        }
        if st.memory.get(addr).is_some_and(|e| e.freed()) {
            return Err(Stop::error(ErrorKind::Free, "realloc of a freed pointer"));
        }
        let n = match size {
            Value::Concrete(b) => b.to_u64(),
            sym => {
                let mut sizes = self.concrete_sizes(st, sym)?.into_iter();
                let Some((first, first_eq)) = sizes.next() else {
                    return Err(Stop::error(ErrorKind::Solver, "no realloc size feasible"));
                };
                for (b, eq) in sizes {
                    let mut child = self.fork_state(st);
                    self.add_constraint(&mut child, &eq);
                    match self.realloc_sized(&mut child, ctx, addr, b.to_u64()) {
                        Ok(v) => {
                            if let (Some(d), Some(bits)) = (slot.dest, slot.bits) {
                                let v = Ops::resize(&mut self.pool, &v, bits);
                                child.set_reg(d, v);
                            }
                            ctx.added.push(child);
                        }
                        Err(stop) => ctx.ended.push((child, stop.into_termination())),
                    }
                }
                self.add_constraint(st, &first_eq);
                first.to_u64()
            }
        };
        self.realloc_sized(st, ctx, addr, n)
    }

    /// `realloc` of the live heap object at `addr` to `n` bytes. With `n` 0
    /// it frees the object and returns NULL, as glibc (and AddressSanitizer,
    /// which the native replay of harnesses runs under) and KLEE do.
    fn realloc_sized(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        addr: u64,
        n: u64,
    ) -> Exec<Value> {
        if n == 0 {
            st.memory.mark_freed(addr);
            return Ok(Value::from_u64(64, 0));
        }
        let old_size = st.memory.get(addr).expect("a heap object").object.size;
        let new = self.malloc(st, ctx, &Value::from_u64(64, n), false)?;
        let new_base = new.as_concrete().map_or(0, |b| b.to_u64());
        if new_base != 0 {
            // Chunk by chunk (raw bytes where concrete), the run's limits
            // checked between chunks.
            let keep = old_size.min(n);
            let zero = Value::from_u64(64, 0);
            self.copy_range(st, (addr, &zero), (new_base, &zero), keep, "realloc's copy")?;
            st.memory.mark_freed(addr);
        }
        Ok(new)
    }

    /// Runs `op` on every state in which `p` is the start of a heap object (or
    /// NULL); `p` values that are neither end in a `free` error. `op`'s result
    /// goes to `slot` in each state.
    pub(crate) fn for_each_exact(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        p: &Value,
        slot: ResultSlot,
        verb: &str,
        op: &mut ExactOp<'_, 'm>,
    ) -> Exec<()> {
        let set = |ex: &mut Self, s: &mut State, v: Option<Value>| {
            if let (Some(d), Some(bits), Some(v)) = (slot.dest, slot.bits, v) {
                let v = Ops::resize(&mut ex.pool, &v, bits);
                s.set_reg(d, v);
            }
        };
        if let Value::Concrete(b) = p {
            let r = op(self, st, ctx, b.to_u64())?;
            set(self, st, r);
            return Ok(());
        }
        let exact = self.resolve_exact(st, p, |e| e.object.kind == ObjKind::Heap, true)?;
        if let Some((cond, example)) = exact.bad {
            let msg = self
                .not_a_heap_start(st, example, verb)
                .unwrap_or_else(|| format!("{verb} of an invalid pointer"));
            if exact.targets.is_empty() {
                self.add_constraint(st, &cond);
                return Err(Stop::error(ErrorKind::Free, msg));
            }
            let mut bad = self.fork_state(st);
            self.add_constraint(&mut bad, &cond);
            ctx.ended
                .push((bad, Termination::Error(ErrorKind::Free, msg)));
            let not = Ops::not(&mut self.pool, &cond);
            self.add_constraint(st, &not);
        }
        let mut targets = exact.targets.into_iter();
        let Some((first, first_eq)) = targets.next() else {
            return Err(Stop::error(
                ErrorKind::Solver,
                "pointer resolves to nothing on a feasible path",
            ));
        };
        for (addr, eq) in targets {
            let mut child = self.fork_state(st);
            self.add_constraint(&mut child, &eq);
            match op(self, &mut child, ctx, addr) {
                Ok(r) => {
                    set(self, &mut child, r);
                    ctx.added.push(child);
                }
                Err(stop) => ctx.ended.push((child, stop.into_termination())),
            }
        }
        self.add_constraint(st, &first_eq);
        let r = op(self, st, ctx, first)?;
        set(self, st, r);
        Ok(())
    }

    /// The addresses `p` can take among the starts of the objects `candidate`
    /// accepts (and NULL with `null`), one condition each, and the condition
    /// under which it is none of them (with an example value).
    pub(crate) fn resolve_exact(
        &mut self,
        st: &mut State,
        p: &Value,
        candidate: fn(&Entry) -> bool,
        null: bool,
    ) -> Exec<Exact> {
        let mut starts: Vec<u64> = st.memory.bases_where(candidate);
        if null {
            starts.insert(0, 0);
        }
        let mut any = self.pool.false_();
        for b in &starts {
            let eq = self.eq_value(p, &Value::from_u64(64, *b));
            let e = eq.expr(&mut self.pool);
            any = self.pool.bool_or(any, e);
        }
        let any = Value::from_expr(&self.pool, any);
        let none = Ops::not(&mut self.pool, &any);
        let pe = p.expr(&mut self.pool);
        let bad = match &none {
            Value::Concrete(b) if !b.is_true() => None,
            _ => {
                let ne = none.expr(&mut self.pool);
                self.solve(st, &[ne])?
                    .map(|m| (none.clone(), self.pool.eval(pe, &m).to_u64()))
            }
        };
        let mut targets = Vec::new();
        let mut query = vec![any.expr(&mut self.pool)];
        loop {
            if targets.len() >= self.config.max_resolutions as usize {
                self.warn_once(format!(
                    "symbolic pointer may be the start of more than {} objects; the others are not explored",
                    targets.len()
                ));
                break;
            }
            let Some(m) = self.solve(st, &query)? else {
                break;
            };
            let v = self.pool.eval(pe, &m).to_u64();
            let eq = self.eq_value(p, &Value::from_u64(64, v));
            let ne = Ops::not(&mut self.pool, &eq);
            query.push(ne.expr(&mut self.pool));
            targets.push((v, eq));
        }
        Ok(Exact { targets, bad })
    }
}
