//! Memory instructions: alloca, load, store, GEP, and pointer resolution (§3.1).
//!
//! A concrete pointer is checked directly. A symbolic pointer is resolved to the
//! objects it may point into: the object it was derived from when that is
//! known (the base of the GEP that made it or, for a pointer no GEP made, the
//! constant of `constant + offset`; a base kept or made NULL without a branch,
//! `(uintptr_t)p * keep` or `keep ? p : NULL`, is derived from `p`): an index
//! into an array stays in the array; otherwise by examples — ask the solver
//! for an address, take the object holding it, exclude that object, repeat —
//! forking one state per object and one error state for addresses in no
//! object.

use crate::executor::{Executor, AMBIGUOUS_ORIGIN};
use crate::memory::{Label, ObjKind, NULL_PAGE, REDZONE};
use crate::state::State;
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use symtest_expr::{BinOp, ExprId, Node};
use symtest_ir::{GepTerm, Operand, Reg};

/// How an access uses memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Access {
    Read,
    Write,
}

/// Where a symbolic pointer is invalid.
struct PtrError {
    cond: Value,
    message: String,
    /// Preferred values for the error test (just outside the object).
    prefer: Option<ExprId>,
}

/// What runs on each state where an access is valid: the state, the step's
/// context, the object's base and the 64-bit offset into it.
pub(crate) type AccessFn<'a, 'm> =
    dyn FnMut(&mut Executor<'m>, &mut State, &mut StepCtx, u64, &Value) -> Exec<()> + 'a;

/// One object a pointer resolved to, with the in-bounds condition.
struct Target {
    base: u64,
    in_bounds: Value,
}

/// The objects a symbolic pointer may point into, and where it is invalid
/// (each way it can be).
type Resolved = (Vec<Target>, Vec<PtrError>);

/// The object a symbolic pointer was derived from: the address it was
/// derived from and, for a base kept or made NULL without a branch
/// (`(uintptr_t)p * keep`, `keep ? p : NULL`), that base, which is 0 where
/// the pointer derives from NULL instead.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Origin {
    pub(crate) addr: u64,
    pub(crate) nullable: Option<ExprId>,
}

impl Origin {
    /// Derived from different bases ([`AMBIGUOUS_ORIGIN`]).
    const AMBIGUOUS: Origin = Origin {
        addr: AMBIGUOUS_ORIGIN,
        nullable: None,
    };

    fn of(addr: u64) -> Origin {
        Origin {
            addr,
            nullable: None,
        }
    }
}

impl<'m> Executor<'m> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn exec_alloca(
        &mut self,
        st: &mut State,
        _ctx: &mut StepCtx,
        dest: Option<Reg>,
        elem_bytes: u64,
        count: Operand,
        _count_bits: u32,
        align: u32,
    ) -> Exec<()> {
        let n = self.operand(st, count)?;
        let n = self.concretize(st, &n, "alloca size")?;
        let size = elem_bytes.saturating_mul(n.to_u64());
        if size > self.config.max_alloc_size {
            return Err(Stop::error(
                ErrorKind::Model,
                format!("alloca of {size} bytes is too large"),
            ));
        }
        let loc = self.current_loc(st);
        let func = st.frame().func;
        let obj =
            st.memory
                .allocate_stack(size, align as u64, ObjKind::Stack, Label::Alloca(func), loc);
        st.frame_mut().allocas.push(obj.base);
        self.set(st, dest, Value::from_u64(64, obj.base));
        Ok(())
    }

    pub(crate) fn exec_load(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        ptr: Operand,
        bytes: u32,
        bits: u32,
    ) -> Exec<()> {
        let p = self.operand(st, ptr)?;
        let dest_reg = dest;
        self.with_resolved(
            st,
            ctx,
            &p,
            bytes as u64,
            Access::Read,
            &mut |ex, s, base, off| {
                let v = ex.read_value(s, base, off, bytes, bits);
                ex.set(s, dest_reg, v);
                Ok(())
            },
        )
    }

    pub(crate) fn exec_store(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        ptr: Operand,
        value: Operand,
        bytes: u32,
        _bits: u32,
    ) -> Exec<()> {
        let p = self.operand(st, ptr)?;
        let v = self.operand(st, value)?;
        let v = Ops::resize(&mut self.pool, &v, bytes * 8);
        self.with_resolved(
            st,
            ctx,
            &p,
            bytes as u64,
            Access::Write,
            &mut |ex, s, base, off| {
                ex.write_at(s, base, off, bytes as usize, &v);
                Ok(())
            },
        )
    }

    pub(crate) fn exec_gep(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        base: Operand,
        offset: i64,
        terms: &[GepTerm],
    ) -> Exec<()> {
        let mut p = self.operand(st, base)?;
        p = Ops::resize(&mut self.pool, &p, 64);
        let origin = match &p {
            Value::Concrete(b) => Some(Origin::of(self.concrete_origin(st, b.to_u64()))),
            Value::Symbolic(e) => self
                .gep_origins
                .get(e)
                .copied()
                .or_else(|| self.nullable_origin(*e)),
        };
        if offset != 0 {
            p = self.add_value(&p, &Value::from_u64(64, offset as u64));
        }
        for t in terms {
            let idx = self.operand(st, t.index)?;
            let idx = Ops::sresize(&mut self.pool, &idx, 64);
            let scaled = Ops::bin(
                &mut self.pool,
                BinOp::Mul,
                &idx,
                &Value::from_u64(64, t.scale as u64),
            );
            p = self.add_value(&p, &scaled);
        }
        match (&p, origin) {
            (Value::Symbolic(e), Some(o)) => {
                self.gep_origins
                    .entry(*e)
                    .and_modify(|known| {
                        if *known != o {
                            *known = Origin::AMBIGUOUS;
                        }
                    })
                    .or_insert(o);
            }
            (Value::Concrete(b), Some(o)) => self.note_stray(st, b.to_u64(), o.addr),
            _ => {}
        }
        self.set(st, dest, p);
        Ok(())
    }

    /// Reads `n` bytes of the object at `base` at offset `off` (64-bit, in bounds).
    pub(crate) fn read_at(&mut self, st: &mut State, base: u64, off: &Value, n: usize) -> Value {
        match off {
            Value::Concrete(o) => {
                let entry = st.memory.get(base).expect("resolved object");
                entry.contents.read(&mut self.pool, o.to_u64() as usize, n)
            }
            Value::Symbolic(e) => {
                let (name, idx) = self.symbolic_index(st, base, *e);
                let c = st.memory.contents_mut(base).expect("resolved object");
                c.read_symbolic(&mut self.pool, &name, idx, n)
            }
        }
    }

    /// Writes `n` bytes at offset `off` (in bounds) of the object at `base`.
    pub(crate) fn write_at(&mut self, st: &mut State, base: u64, off: &Value, n: usize, v: &Value) {
        match off {
            Value::Concrete(o) => {
                let c = st.memory.contents_mut(base).expect("resolved object");
                c.write(&mut self.pool, o.to_u64() as usize, n, v)
            }
            Value::Symbolic(e) => {
                let (name, idx) = self.symbolic_index(st, base, *e);
                let c = st.memory.contents_mut(base).expect("resolved object");
                c.write_symbolic(&mut self.pool, &name, idx, n, v)
            }
        }
    }

    /// Reads the `bytes` bytes at offset `off` of the object at `base` as a
    /// value of `bits` bits (a load's or read-modify-write's old value).
    pub(crate) fn read_value(
        &mut self,
        st: &mut State,
        base: u64,
        off: &Value,
        bytes: u32,
        bits: u32,
    ) -> Value {
        let v = self.read_at(st, base, off, bytes as usize);
        Ops::resize(&mut self.pool, &v, bits)
    }

    /// The name of the object at `base` and the 32-bit index of the
    /// symbolic offset `off` into it.
    fn symbolic_index(&mut self, st: &State, base: u64, off: ExprId) -> (String, ExprId) {
        let name = st
            .memory
            .get(base)
            .map(|e| e.object.name(self.module))
            .unwrap_or_default();
        (name, self.pool.trunc(off, 32))
    }

    /// Resolves `ptr` for an access of `bytes` bytes and runs `access` on every state
    /// where it is valid, with the object's base and the 64-bit offset. Invalid cases
    /// end as `ptr`/`readonly` errors (forked off when valid cases exist too).
    pub(crate) fn with_resolved(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        ptr: &Value,
        bytes: u64,
        access: Access,
        f: &mut dyn FnMut(&mut Self, &mut State, u64, &Value) -> Exec<()>,
    ) -> Exec<()> {
        self.with_resolved_ctx(st, ctx, ptr, bytes, access, &mut |ex, s, _, base, off| {
            f(ex, s, base, off)
        })
    }

    /// [`Executor::with_resolved`] whose `access` also gets the step's
    /// context, so that it can resolve another pointer in each state it runs
    /// on (a copy's destination, in every state its source resolved in).
    pub(crate) fn with_resolved_ctx(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        ptr: &Value,
        bytes: u64,
        access: Access,
        f: &mut AccessFn<'_, 'm>,
    ) -> Exec<()> {
        if let Value::Concrete(b) = ptr {
            let addr = b.to_u64();
            let base = self.check_concrete(st, addr, bytes, access)?;
            let off = Value::from_u64(64, addr - base);
            self.check_terminated(st, ctx, base, &off, bytes)?;
            return f(self, st, ctx, base, &off);
        }
        if let Value::Symbolic(e) = ptr {
            if let Some(addr) = self.digest_address(st, *e) {
                let base = self.check_concrete(st, addr, bytes, access)?;
                let off = Value::from_u64(64, addr - base);
                self.check_terminated(st, ctx, base, &off, bytes)?;
                return f(self, st, ctx, base, &off);
            }
        }
        let (targets, errors) = self.resolve_symbolic(st, ptr, bytes)?;
        let n_errors = errors.len();
        for (i, err) in errors.into_iter().enumerate() {
            if targets.is_empty() && i + 1 == n_errors {
                // The last way left: this state takes it.
                if let Some(p) = err.prefer {
                    st.preferences.push(p);
                }
                return Err(Stop::error(ErrorKind::Ptr, err.message));
            }
            let mut bad = self.fork_state(st);
            self.add_constraint(&mut bad, &err.cond);
            if let Some(p) = err.prefer {
                bad.preferences.push(p);
            }
            ctx.ended
                .push((bad, Termination::Error(ErrorKind::Ptr, err.message)));
            let not = Ops::not(&mut self.pool, &err.cond);
            self.add_constraint(st, &not);
        }
        if targets.is_empty() {
            return Err(Stop::error(
                ErrorKind::Solver,
                "pointer resolves to nothing on a feasible path",
            ));
        }
        let mut targets = targets.into_iter();
        let first = targets.next().expect("at least one target");
        for t in targets {
            let mut child = self.fork_state(st);
            self.add_constraint(&mut child, &t.in_bounds);
            match self.access_target(&mut child, ctx, t.base, ptr, bytes, access, f) {
                Ok(()) => ctx.added.push(child),
                Err(stop) => ctx.ended.push((child, stop.into_termination())),
            }
        }
        self.add_constraint(st, &first.in_bounds);
        self.access_target(st, ctx, first.base, ptr, bytes, access, f)
    }

    #[allow(clippy::too_many_arguments)]
    fn access_target(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        base: u64,
        ptr: &Value,
        bytes: u64,
        access: Access,
        f: &mut AccessFn<'_, 'm>,
    ) -> Exec<()> {
        if access == Access::Write && st.memory.get(base).is_some_and(|e| e.contents.read_only) {
            return Err(Stop::error(
                ErrorKind::ReadOnly,
                "write to read-only memory",
            ));
        }
        let mut off = Ops::bin(&mut self.pool, BinOp::Sub, ptr, &Value::from_u64(64, base));
        if !off.is_concrete()
            && st
                .memory
                .get(base)
                .is_some_and(|e| !e.contents.allows_symbolic_offsets())
        {
            // A very large object is not turned into an array expression:
            // the access happens at one offset the path allows.
            let size = st.memory.get(base).map_or(0, |e| e.object.size);
            let what = format!("offset into an object of {size} bytes");
            off = Value::Concrete(self.concretize(st, &off, &what)?);
        }
        if let Value::Symbolic(e) = off {
            // A pointer chosen by a symbolic condition (`argv[flag ? 2 : 1]`,
            // a pointer loaded through such an index) is often fixed by the
            // path: then access at the one offset it can have, instead of
            // reading at an if-then-else offset whose terms every later
            // query on the loaded bytes would carry.
            if self.has_ite(e) {
                let v = self.get_value(st, &off)?;
                let same = Ops::cmp(
                    &mut self.pool,
                    symtest_expr::CmpOp::Eq,
                    &off,
                    &Value::Concrete(v.clone()),
                );
                let other = Ops::not(&mut self.pool, &same);
                if !self.may_be_true(st, &other)? {
                    off = Value::Concrete(v);
                }
            }
        }
        self.check_terminated(st, ctx, base, &off, bytes)?;
        f(self, st, ctx, base, &off)
    }

    /// Does `e` contain an if-then-else (looking at no more than a few
    /// hundred nodes)?
    fn has_ite(&self, e: ExprId) -> bool {
        let mut stack = vec![e];
        let mut seen = rustc_hash::FxHashSet::default();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) || seen.len() > 256 {
                continue;
            }
            match self.pool.node(x) {
                Node::Ite(..) => return true,
                Node::Const(_) | Node::Array(_) => {}
                n => stack.extend(n.children()),
            }
        }
        false
    }

    fn check_concrete(
        &mut self,
        st: &mut State,
        addr: u64,
        bytes: u64,
        access: Access,
    ) -> Exec<u64> {
        // The page at 0 holds nothing but fixed objects (klee_define_fixed_object).
        if addr < NULL_PAGE && st.memory.find(addr).is_none() {
            return Err(Stop::error(ErrorKind::Ptr, "null pointer dereference"));
        }
        let Some(entry) = st.memory.find_below(addr) else {
            return Err(Stop::error(
                ErrorKind::Ptr,
                format!("invalid pointer 0x{addr:x}: no object there"),
            ));
        };
        let obj = &entry.object;
        if addr >= obj.end() + REDZONE {
            return Err(Stop::error(
                ErrorKind::Ptr,
                format!("invalid pointer 0x{addr:x}: no object there"),
            ));
        }
        if entry.freed() {
            return Err(Stop::error(
                ErrorKind::Ptr,
                use_after_free_message(&obj.kind, &obj.name(self.module)),
            ));
        }
        if !st.strays.is_empty() {
            self.check_stray(st, addr, obj.base, bytes)?;
        }
        // `addr + bytes` may not fit in 64 bits (a length the program chose):
        // past the end all the same, never a wrap-around.
        if addr.checked_add(bytes).is_none_or(|end| end > obj.end()) {
            let what = if access == Access::Read {
                "read"
            } else {
                "write"
            };
            return Err(Stop::error(
                ErrorKind::Ptr,
                format!(
                    "out-of-bounds {what}: {bytes} byte(s) at offset {} of `{}` ({} bytes)",
                    addr - obj.base,
                    obj.name(self.module),
                    obj.size
                ),
            ));
        }
        if access == Access::Write && entry.contents.read_only {
            return Err(Stop::error(
                ErrorKind::ReadOnly,
                format!("write to read-only memory `{}`", obj.name(self.module)),
            ));
        }
        Ok(obj.base)
    }

    fn in_bounds_cond(&mut self, ptr: &Value, base: u64, size: u64, bytes: u64) -> Value {
        if size < bytes {
            return Value::from_bool(false);
        }
        let off = Ops::bin(&mut self.pool, BinOp::Sub, ptr, &Value::from_u64(64, base));
        Ops::cmp(
            &mut self.pool,
            symtest_expr::CmpOp::Ule,
            &off,
            &Value::from_u64(64, size - bytes),
        )
    }

    /// The object `ptr` was derived from: the base pointer of the GEP that
    /// made it or, for a pointer no GEP made, the constant part of `c + x`
    /// (or its nullable part, see [`Executor::nullable_origin`]). The
    /// constant part alone can mislead: `s + (i - 1)` folds to `(s - 1) + i`,
    /// and `s - k` may lie in the object below `s`.
    pub(crate) fn provenance(&self, ptr: ExprId) -> Option<Origin> {
        if let Some(&origin) = self.gep_origins.get(&ptr) {
            return (origin != Origin::AMBIGUOUS).then_some(origin);
        }
        match self.pool.node(ptr) {
            Node::Bin(BinOp::Add, a, b) => {
                match self.pool.as_const(*a).or_else(|| self.pool.as_const(*b)) {
                    Some(c) => Some(Origin::of(c.to_u64())),
                    None => self
                        .nullable_origin(*a)
                        .or_else(|| self.nullable_origin(*b)),
                }
            }
            _ => self.nullable_origin(ptr),
        }
    }

    /// A pointer kept or made NULL without a branch: `p * keep` (as
    /// `(uintptr_t)p * keep`) or `keep ? p : NULL`, for a constant `p`
    /// other than 0, is derived from `p` wherever it is not NULL (no other
    /// value of `keep` makes a pointer into `p`'s object).
    fn nullable_origin(&self, e: ExprId) -> Option<Origin> {
        let c = match self.pool.node(e) {
            Node::Bin(BinOp::Mul, a, b) => {
                self.pool.as_const(*a).or_else(|| self.pool.as_const(*b))
            }
            Node::Ite(_, a, b) => match (self.pool.as_const(*a), self.pool.as_const(*b)) {
                (Some(x), Some(y)) if y.is_zero() => Some(x),
                (Some(x), Some(y)) if x.is_zero() => Some(y),
                _ => None,
            },
            _ => None,
        }?;
        (!c.is_zero()).then(|| Origin {
            addr: c.to_u64(),
            nullable: Some(e),
        })
    }

    /// Objects a symbolic pointer may point into, and the condition (with a message)
    /// under which it points into none.
    fn resolve_symbolic(&mut self, st: &mut State, ptr: &Value, bytes: u64) -> Exec<Resolved> {
        let e = match ptr {
            Value::Symbolic(e) => *e,
            Value::Concrete(_) => unreachable!("concrete pointers are checked directly"),
        };
        if let Some(resolved) = self.resolve_by_provenance(st, ptr, e, bytes)? {
            return Ok(resolved);
        }
        // By examples: an address the solver picks, the object holding it, exclude
        // that object, repeat. Once an example lands outside every object, later
        // examples are asked to land inside one, so every target is still found.
        let mut excluded: Vec<ExprId> = Vec::new();
        let mut targets = Vec::new();
        let mut inside_any: Option<ExprId> = None;
        let mut outside_msg: Option<String> = None;
        loop {
            let mut query = excluded.clone();
            query.extend(inside_any);
            let Some(model) = self.solve(st, &query)? else {
                break;
            };
            let addr = self.pool.eval(e, &model).to_u64();
            let entry = st.memory.find(addr);
            let Some(entry) = entry.filter(|en| !en.freed()) else {
                if outside_msg.is_none() {
                    outside_msg = Some(if addr < NULL_PAGE && entry.is_none() {
                        "null pointer dereference".to_string()
                    } else if st.memory.find(addr).is_some() {
                        "use after free (through a symbolic pointer)".to_string()
                    } else {
                        format!("invalid pointer: may point outside every object (e.g. 0x{addr:x})")
                    });
                }
                if inside_any.is_some() {
                    break; // cannot happen: the model satisfies `inside_any`
                }
                inside_any = Some(self.inside_some_object(st, ptr));
                continue;
            };
            let obj = entry.object.clone();
            let inb = self.in_bounds_cond(ptr, obj.base, obj.size, bytes);
            let mut with = excluded.clone();
            let inb_e = inb.expr(&mut self.pool);
            with.push(inb_e);
            if self.solve(st, &with)?.is_some() {
                targets.push(Target {
                    base: obj.base,
                    in_bounds: inb,
                });
            }
            excluded.push(self.outside_object(ptr, obj.base, obj.size));
            if targets.len() as u32 >= self.config.max_resolutions {
                self.warn_once(format!(
                    "symbolic pointer resolved to {} objects; the remaining ones are not explored",
                    targets.len()
                ));
                return Ok((targets, Vec::new()));
            }
        }
        // Whatever no target covers is an invalid access, if it can happen.
        let rest = self.conjunction(&excluded);
        if !targets.is_empty() && !self.may_be_true(st, &rest)? {
            return Ok((targets, Vec::new()));
        }
        let message = outside_msg
            .unwrap_or_else(|| format!("invalid pointer: {bytes}-byte access out of bounds"));
        Ok((
            targets,
            vec![PtrError {
                cond: rest,
                message,
                prefer: None,
            }],
        ))
    }

    /// The resolution of symbolic pointer `ptr` (expression `e`) by its
    /// provenance: `&object + offset` stays in `object`, when that object
    /// is live and holds the provenance address; `None` otherwise. A pointer
    /// derived from a nullable base is a null pointer dereference where that
    /// base is 0, whatever the offset.
    fn resolve_by_provenance(
        &mut self,
        st: &mut State,
        ptr: &Value,
        e: ExprId,
        bytes: u64,
    ) -> Exec<Option<Resolved>> {
        let Some(origin) = self.provenance(e) else {
            return Ok(None);
        };
        let c = origin.addr;
        let Some(entry) = st.memory.find_below(c) else {
            return Ok(None);
        };
        let obj = entry.object.clone();
        if c > obj.end() || entry.freed() {
            return Ok(None);
        }
        let mut inb = self.in_bounds_cond(ptr, obj.base, obj.size, bytes);
        let mut errors = Vec::new();
        if let Some(base) = origin.nullable {
            let zero = Value::from_u64(self.pool.width(base), 0);
            let null = Ops::cmp(
                &mut self.pool,
                symtest_expr::CmpOp::Eq,
                &Value::Symbolic(base),
                &zero,
            );
            if self.may_be_true(st, &null)? {
                errors.push(PtrError {
                    cond: null.clone(),
                    message: "null pointer dereference".to_string(),
                    prefer: None,
                });
            }
            let not_null = Ops::not(&mut self.pool, &null);
            inb = Ops::bin(&mut self.pool, BinOp::And, &not_null, &inb);
            let outside = Ops::not(&mut self.pool, &inb);
            let cond = Ops::bin(&mut self.pool, BinOp::And, &not_null, &outside);
            self.push_out_of_bounds(st, &mut errors, cond, ptr, &obj, bytes)?;
        } else {
            let cond = Ops::not(&mut self.pool, &inb);
            self.push_out_of_bounds(st, &mut errors, cond, ptr, &obj, bytes)?;
        }
        let targets = if self.may_be_true(st, &inb)? {
            vec![Target {
                base: obj.base,
                in_bounds: inb,
            }]
        } else {
            Vec::new()
        };
        Ok(Some((targets, errors)))
    }

    /// Adds the out-of-bounds error of an access through `ptr` to `obj`
    /// under `cond` to `errors`, if it can happen.
    fn push_out_of_bounds(
        &mut self,
        st: &mut State,
        errors: &mut Vec<PtrError>,
        cond: Value,
        ptr: &Value,
        obj: &crate::memory::MemoryObject,
        bytes: u64,
    ) -> Exec<()> {
        if !self.may_be_true(st, &cond)? {
            return Ok(());
        }
        let prefer = self.near_bounds(ptr, obj.base, obj.end());
        errors.push(PtrError {
            cond,
            message: format!(
                "out-of-bounds access: {bytes} byte(s) outside `{}` ({} bytes)",
                obj.name(self.module),
                obj.size
            ),
            prefer,
        });
        Ok(())
    }

    /// `ptr` lies outside the object at `base` of `size` bytes: neither in
    /// bounds nor straddling its end.
    fn outside_object(&mut self, ptr: &Value, base: u64, size: u64) -> ExprId {
        let off = Ops::bin(&mut self.pool, BinOp::Sub, ptr, &Value::from_u64(64, base));
        let inside = Ops::cmp(
            &mut self.pool,
            symtest_expr::CmpOp::Ult,
            &off,
            &Value::from_u64(64, size.max(1)),
        );
        let outside = Ops::not(&mut self.pool, &inside);
        outside.expr(&mut self.pool)
    }

    /// `ptr` lies inside some live object (a disjunction over the address space).
    fn inside_some_object(&mut self, st: &State, ptr: &Value) -> ExprId {
        let ranges: Vec<(u64, u64)> = st.memory.live_ranges();
        let mut acc = self.pool.false_();
        for (base, size) in ranges {
            let off = Ops::bin(&mut self.pool, BinOp::Sub, ptr, &Value::from_u64(64, base));
            let inside = Ops::cmp(
                &mut self.pool,
                symtest_expr::CmpOp::Ult,
                &off,
                &Value::from_u64(64, size),
            );
            let ie = inside.expr(&mut self.pool);
            acc = self.pool.bool_or(acc, ie);
        }
        acc
    }

    fn conjunction(&mut self, conds: &[ExprId]) -> Value {
        let mut acc = self.pool.true_();
        for c in conds {
            acc = self.pool.bool_and(acc, *c);
        }
        Value::from_expr(&self.pool, acc)
    }

    /// For the test of an out-of-bounds path, prefer addresses just outside the object
    /// (so the native replay hits the sanitizer's redzone).
    fn near_bounds(&mut self, ptr: &Value, base: u64, end: u64) -> Option<ExprId> {
        let lo = Value::from_u64(64, base.saturating_sub(16));
        let hi = Value::from_u64(64, end + 16);
        let ge = Ops::cmp(&mut self.pool, symtest_expr::CmpOp::Ule, &lo, ptr);
        let lt = Ops::cmp(&mut self.pool, symtest_expr::CmpOp::Ult, ptr, &hi);
        match Ops::bin(&mut self.pool, BinOp::And, &ge, &lt) {
            Value::Symbolic(e) => Some(e),
            Value::Concrete(_) => None,
        }
    }
}

fn use_after_free_message(kind: &ObjKind, name: &str) -> String {
    match kind {
        ObjKind::Stack => format!("use of stack memory `{name}` after its function returned"),
        _ => format!("use after free of `{name}`"),
    }
}
