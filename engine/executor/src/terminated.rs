//! Strings whose accessible bytes end at their first NUL: the program's
//! symbolic arguments (`--sym-arg`, `--sym-args`).
//!
//! The POSIX model holds each symbolic argument in an object of `N + 1` bytes,
//! and the first NUL of its contents ends the string the program receives.
//! Natively an argument is exactly that string. The bytes after its NUL are
//! another argument's, or the end of the process's argument area. So a program
//! that reads past the terminator reads something the test cannot fix (`pr
//! --e=` stepped over the NUL of its option argument and printed a page in the
//! engine, then exited 1 natively). The model marks each such object with
//! `__symtest_terminated(s)`. An access at a byte after the first NUL of its
//! *initial* contents is then an out-of-bounds error, the `ptr` kind. Later
//! writes move no bound: natively the argument area stays as the kernel laid
//! it out. The native replay lays out every argument so that the page after its
//! NUL is unmapped (`SYMTEST_ARG_GUARD`, `libc-models/replay/symtest_fail.c`).
//! So the same access crashes there, and the error test replays as reported.
//!
//! Each state remembers how long a prefix of each string it has proven free
//! of NUL, so a loop over an argument asks one query per new byte at most.

use crate::executor::Executor;
use crate::state::State;
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use std::rc::Rc;
use symtest_expr::{BinOp, CmpOp, ExprId, Node};

/// An object whose accessible bytes end at the first NUL of `bytes`.
#[derive(Clone, Debug)]
pub struct Terminated {
    /// The object's base address.
    pub base: u64,
    /// Its contents when marked, one 8-bit expression per byte.
    pub bytes: Rc<[ExprId]>,
    /// On this path, `bytes[..proven]` hold no NUL.
    pub proven: u32,
}

impl Executor<'_> {
    /// `__symtest_terminated(s)`: `s` is the start of an object whose
    /// accessible bytes now end at its first NUL.
    pub(crate) fn mark_terminated(&mut self, st: &mut State, p: &Value) -> Exec<()> {
        let a = self
            .concretize(st, p, "__symtest_terminated pointer")?
            .to_u64();
        let Some(entry) = st.memory.find(a) else {
            return Err(Stop::error(
                ErrorKind::Model,
                format!("__symtest_terminated of 0x{a:x}, which is in no object"),
            ));
        };
        if entry.object.base != a {
            return Err(Stop::error(
                ErrorKind::Model,
                "__symtest_terminated of a pointer inside an object, not at its start",
            ));
        }
        let contents = entry.contents.clone();
        let size = entry.object.size as usize;
        let bytes: Rc<[ExprId]> = (0..size)
            .map(|i| contents.read(&mut self.pool, i, 1).expr(&mut self.pool))
            .collect();
        st.terminated.retain(|t| t.base != a);
        st.terminated.push(Terminated {
            base: a,
            bytes,
            proven: 0,
        });
        Ok(())
    }

    /// Checks an access of `n` bytes at offset `off` (in the object's bounds)
    /// of the object at `base` against its terminator, if it has one: an error
    /// path is forked off where the access reaches past it.
    pub(crate) fn check_terminated(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        base: u64,
        off: &Value,
        n: u64,
    ) -> Exec<()> {
        let Some(i) = st.terminated.iter().position(|t| t.base == base) else {
            return Ok(());
        };
        let t = st.terminated[i].clone();
        match off {
            Value::Concrete(o) => {
                // The access's last byte is readable when no byte before it is NUL.
                let last = (o.to_u64() + n.max(1) - 1).min(t.bytes.len() as u64) as u32;
                if last <= t.proven {
                    return Ok(());
                }
                let mut bad = Value::from_bool(false);
                for &b in &t.bytes[t.proven as usize..last as usize] {
                    let nul = self.is_nul(b);
                    bad = Ops::bin(&mut self.pool, BinOp::Or, &bad, &nul);
                }
                if bad.as_concrete().is_some_and(|b| !b.is_true()) {
                    st.terminated[i].proven = last;
                    return Ok(());
                }
                // Named only when an error may be reported: no string is
                // built for accesses whose bytes decide it (a completion's).
                let name = self.terminated_name(st, &t);
                let message = format!(
                    "out-of-bounds access: {n} byte(s) at offset {} of {name}, past the NUL that ends the string (natively the bytes after it are not the argument's)",
                    o.to_u64()
                );
                self.check_error(st, ctx, &bad, ErrorKind::Ptr, &message)?;
                st.terminated[i].proven = last;
                Ok(())
            }
            Value::Symbolic(e) => {
                // The offsets the access's last byte can be at: bytes at or
                // after the largest are never before it, bytes before the
                // smallest always are.
                let (lo, hi) = self.pool.unsigned_range(*e).unwrap_or((0, u64::MAX));
                let lo_last = lo.saturating_add(n.max(1) - 1);
                let hi_last = hi.saturating_add(n.max(1) - 1);
                if hi_last <= u64::from(t.proven) {
                    return Ok(());
                }
                // Some byte before the access's last one is NUL.
                let last = Ops::bin(
                    &mut self.pool,
                    BinOp::Add,
                    off,
                    &Value::from_u64(64, n.max(1) - 1),
                );
                let mut bad = Value::from_bool(false);
                let end = (hi_last.min(t.bytes.len() as u64)) as usize;
                for (j, &b) in t.bytes.iter().enumerate().take(end).skip(t.proven as usize) {
                    let nul = self.is_nul(b);
                    let both = if (j as u64) < lo_last {
                        nul
                    } else {
                        let before = Ops::cmp(
                            &mut self.pool,
                            CmpOp::Ult,
                            &Value::from_u64(64, j as u64),
                            &last,
                        );
                        Ops::bin(&mut self.pool, BinOp::And, &before, &nul)
                    };
                    bad = Ops::bin(&mut self.pool, BinOp::Or, &bad, &both);
                }
                if bad.as_concrete().is_some_and(|b| !b.is_true()) {
                    return Ok(());
                }
                let name = self.terminated_name(st, &t);
                let message = format!(
                    "out-of-bounds access: {n} byte(s) at a symbolic offset of {name}, past the NUL that ends the string (natively the bytes after it are not the argument's)"
                );
                self.check_error(st, ctx, &bad, ErrorKind::Ptr, &message)
            }
        }
    }

    /// The symbolic object the string was made from (`arg00`), else the
    /// memory object's name.
    fn terminated_name(&self, st: &State, t: &Terminated) -> String {
        let array = t.bytes.iter().find_map(|&b| match self.pool.node(b) {
            Node::Select { array, .. } => match self.pool.node(*array) {
                Node::Array(a) => Some(*a),
                _ => None,
            },
            _ => None,
        });
        if let Some(s) = array.and_then(|a| st.symbolics.iter().find(|s| s.array == a)) {
            return format!("argument {}", s.name);
        }
        let object = st
            .memory
            .get(t.base)
            .map(|e| e.object.name(self.module))
            .unwrap_or_default();
        format!("an argument (`{object}`)")
    }

    fn is_nul(&mut self, byte: ExprId) -> Value {
        let b = Value::from_expr(&self.pool, byte);
        Ops::cmp(&mut self.pool, CmpOp::Eq, &b, &Value::from_u64(8, 0))
    }
}
