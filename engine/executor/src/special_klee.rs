//! The rest of KLEE 3's `klee/klee.h`: object sizes, `klee_choose`, memory
//! access checks, forking control, stack traces and value ranges, state
//! merging markers, errno, fixed objects, function aliases, global marking.

use crate::executor::Executor;
use crate::inst::fork::Branch;
use crate::inst::memory_ops::Access;
use crate::memory::{EngineObject, Label, MemoryObject, ObjKind, ObjectState, REDZONE};
use crate::state::State;
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use symtest_expr::CmpOp;

/// Longest suffix `klee_report_error` may give an error file.
const MAX_SUFFIX: usize = 64;

impl Executor<'_> {
    /// `klee_get_obj_size(p)`: the size of the object `p` is the start of (a
    /// symbolic `p` is concretized).
    pub(crate) fn klee_get_obj_size(&mut self, st: &mut State, p: &Value) -> Exec<Value> {
        let addr = self
            .concretize(st, p, "klee_get_obj_size pointer")?
            .to_u64();
        match st.memory.get(addr) {
            Some(e) if !e.freed() => Ok(Value::from_u64(64, e.object.size)),
            _ => Err(Stop::error(
                ErrorKind::Ptr,
                format!("klee_get_obj_size of 0x{addr:x}, which is not the start of a live object"),
            )),
        }
    }

    /// `klee_choose(n)`: a symbolic value below `n` (an 8-byte object named
    /// `klee_choose`); as KLEE's, the paths where it is `n` or more end
    /// silently.
    pub(crate) fn klee_choose(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        n: &Value,
    ) -> Exec<Value> {
        let x = self.fresh_symbolic(st, "klee_choose", 8);
        let n = Ops::resize(&mut self.pool, n, 64);
        let below = Ops::cmp(&mut self.pool, CmpOp::Ult, &x, &n);
        match self.branch(st, &below)? {
            Branch::Only(true) => {}
            Branch::Only(false) => return Err(Stop::Terminate(Termination::Silent)),
            Branch::Both(child) => ctx.ended.push((*child, Termination::Silent)),
        }
        Ok(x)
    }

    /// `klee_check_memory_access(p, n)`: the `n` bytes at `p` must be
    /// accessible (a `ptr` error otherwise, forked off where they may not be).
    pub(crate) fn klee_check_memory_access(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        p: &Value,
        n: &Value,
    ) -> Exec<()> {
        let n = self
            .concretize(st, n, "klee_check_memory_access size")?
            .to_u64();
        if n == 0 {
            return Ok(());
        }
        let p = Ops::resize(&mut self.pool, p, 64);
        self.with_resolved(st, ctx, &p, n, Access::Read, &mut |_, _, _, _| Ok(()))
    }

    /// `klee_stack_trace()`: prints the call stack, innermost frame first.
    pub(crate) fn klee_stack_trace(&mut self, st: &State) {
        let mut text = String::from("stack trace:");
        for (i, f) in self.stack_of(st).iter().enumerate() {
            text.push_str(&format!("\n\t#{i} {} at {}:{}", f.function, f.file, f.line));
        }
        self.sink.event(crate::Event::Print(&text));
    }

    /// `klee_print_range(name, x)`: prints the value of `x`, or the unsigned
    /// range it can take on this path.
    pub(crate) fn klee_print_range(&mut self, st: &mut State, name: &str, x: &Value) -> Exec<()> {
        let text = match x {
            Value::Concrete(b) => format!("{name}: {}", b.to_u64()),
            Value::Symbolic(_) => {
                let example = self.get_value(st, x)?;
                let w = x.width(&self.pool);
                let same = self.eq_value(x, &Value::Concrete(example.clone()));
                if self.must_be_true(st, &same)? {
                    format!("{name}: {} (the only value on this path)", example.to_u64())
                } else {
                    let lo = self.bound(st, x, w, false)?;
                    let hi = self.bound(st, x, w, true)?;
                    format!("{name}: [{lo}, {hi}] (unsigned; e.g. {})", example.to_u64())
                }
            }
        };
        self.sink.event(crate::Event::Print(&text));
        Ok(())
    }

    /// The least (or greatest, `max`) unsigned value `x` can take: binary search.
    fn bound(&mut self, st: &mut State, x: &Value, w: u32, max: bool) -> Exec<u64> {
        let top = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
        let (mut lo, mut hi) = (0u64, top);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            // min: can x be <= mid?  max: can x be > mid?
            let k = Value::from_u64(w, mid);
            let le = Ops::cmp(&mut self.pool, CmpOp::Ule, x, &k);
            if max {
                let gt = Ops::not(&mut self.pool, &le);
                if self.may_be_true(st, &gt)? {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            } else if self.may_be_true(st, &le)? {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Ok(lo)
    }

    /// `__errno_location()` with no libc defining it: the path's own `errno`.
    pub(crate) fn errno_location(&mut self, st: &mut State) -> Value {
        let base = match st.errno_obj {
            Some(b) => b,
            None => {
                let loc = self.current_loc(st);
                let b = st
                    .memory
                    .allocate(
                        4,
                        16,
                        ObjKind::Engine,
                        Label::Engine(EngineObject::Errno),
                        loc,
                    )
                    .base;
                st.errno_obj = Some(b);
                b
            }
        };
        Value::from_u64(64, base)
    }

    /// `klee_get_errno()` with no libc defining it: the path's `errno` (0
    /// until something sets it).
    pub(crate) fn klee_get_errno(&mut self, st: &mut State) -> Value {
        match st.errno_obj.and_then(|b| st.memory.get(b)) {
            Some(e) => e.contents.read(&mut self.pool, 0, 4),
            None => Value::from_u64(32, 0),
        }
    }

    /// `klee_define_fixed_object(addr, n)`: an object of `n` bytes at `addr`
    /// (zero-filled, not freeable); it must not overlap another. As KLEE's, it
    /// may lie in the page at address 0 (a device's registers at 0x80): an
    /// access there is the object's, not a null pointer dereference.
    pub(crate) fn klee_define_fixed_object(
        &mut self,
        st: &mut State,
        addr: &Value,
        n: &Value,
    ) -> Exec<()> {
        let a = self
            .concretize(st, addr, "klee_define_fixed_object address")?
            .to_u64();
        let n = self
            .concretize(st, n, "klee_define_fixed_object size")?
            .to_u64();
        let end = a.checked_add(n).filter(|_| a > 0 && n > 0);
        let Some(end) = end else {
            return Err(Stop::error(
                ErrorKind::User,
                format!("klee_define_fixed_object of {n} bytes at 0x{a:x}: not a valid range"),
            ));
        };
        if n > self.config.max_alloc_size {
            return Err(Stop::error(
                ErrorKind::User,
                format!("klee_define_fixed_object of {n} bytes: more than --max-alloc-size"),
            ));
        }
        // The last object starting before the new one's end (and redzone):
        // objects are disjoint and sorted, so if it ends (with its redzone)
        // before `a`, every earlier one does too.
        let clash = st
            .memory
            .find_below(end + REDZONE - 1)
            .filter(|e| e.object.end().max(e.object.base + 1) + REDZONE > a);
        if let Some(e) = clash {
            return Err(Stop::error(
                ErrorKind::User,
                format!(
                    "klee_define_fixed_object at 0x{a:x} overlaps `{}` (objects keep {REDZONE} bytes apart)",
                    e.object.name(self.module)
                ),
            ));
        }
        let loc = self.current_loc(st);
        st.memory.insert_fixed(
            MemoryObject {
                base: a,
                size: n,
                kind: ObjKind::Engine,
                label: Label::Engine(EngineObject::Fixed),
                alloc_loc: loc,
            },
            ObjectState::new(n as usize),
        );
        st.memory.set_next_dynamic(end + REDZONE);
        Ok(())
    }

    /// `klee_mark_global(p)`: the object holding `p` is treated as a global
    /// (freeing it is an error).
    pub(crate) fn klee_mark_global(&mut self, st: &mut State, p: &Value) -> Exec<()> {
        let a = self.concretize(st, p, "klee_mark_global pointer")?.to_u64();
        let Some(base) = st.memory.find(a).map(|e| e.object.base) else {
            return Err(Stop::error(
                ErrorKind::Ptr,
                format!("klee_mark_global of 0x{a:x}, which is in no object"),
            ));
        };
        st.memory.retag(base, ObjKind::Engine);
        Ok(())
    }

    /// `klee_alias_function(old, new)`: later calls of `old` (on this path) go
    /// to `new`; `new` equal to `old` removes the alias.
    pub(crate) fn klee_alias_function(&mut self, st: &mut State, old: &str, new: &str) -> Exec<()> {
        let find = |name: &str| {
            self.module.function_by_name(name).ok_or_else(|| {
                Stop::error(
                    ErrorKind::User,
                    format!("klee_alias_function: no function named `{name}`"),
                )
            })
        };
        let (from, to) = (find(old)?, find(new)?);
        st.aliases.retain(|(f, _)| *f != from);
        if from != to {
            st.aliases.push((from, to));
        }
        Ok(())
    }

    /// The error-file suffix `klee_report_error` asked for (KLEE writes
    /// `testN.<suffix>`): letters, digits, `_`, `-` and `.`, ending in `.err`
    /// (added when missing, so it never names another file of the test).
    pub(crate) fn report_suffix(&mut self, suffix: &str) -> Option<String> {
        let ok = !suffix.is_empty()
            && suffix.len() <= MAX_SUFFIX
            && !suffix.starts_with('.')
            && suffix
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
        if !ok {
            if suffix != "unnamed" {
                self.warn_once(format!(
                    "klee_report_error suffix `{suffix}` is not a file name suffix (letters, digits, `_-.`, at most {MAX_SUFFIX}); the error file is named by its kind"
                ));
            }
            return None;
        }
        Some(if suffix.ends_with(".err") {
            suffix.to_string()
        } else {
            format!("{suffix}.err")
        })
    }
}
