//! The C library's byte-string comparisons (`strcmp`, `strncmp`, `memcmp`,
//! `bcmp`) computed as one expression instead of run byte by byte, under
//! `--summarize-comparisons` (`Config::summarize_comparisons`; off by
//! default: it changes which options a run reaches more than how much it
//! covers).
//!
//! Run by the library's loop, a comparison of a symbolic string with a
//! constant forks at every byte: `strcmp(arg, "help")` leaves one path per
//! position of the first difference, and each goes on through the same
//! caller (getopt's scan of its long options does this for every option).
//! Here the result is the expression the loop computes, `a[k] - b[k]` at the
//! first position `k` where the loop stops, as a chain of `ite`s over the
//! positions; the caller then forks once on what it tests (`== 0`, `< 0`).
//!
//! Only the linked C library's definitions are summarised (a program's own
//! `strcmp` runs as written). The value is bit for bit the library's (musl's
//! loops, which the native build runs): the difference of the two unsigned bytes where the scan
//! stops, 0 for `memcmp` when no byte differs. The summary applies only when
//! the scan provably stops inside both objects: concrete pointers into live
//! objects, a concrete length, and a position, before either object ends,
//! where the stop is certain (a concrete NUL for the string functions, two
//! different concrete bytes, the length's last byte), and one of the two
//! bytes concrete at every position read (a symbolic string against a
//! constant, as option and keyword matching do; two symbolic strings, as a
//! sort compares lines, give chains that cost the solver more than the forks
//! they save). Otherwise the call is
//! an ordinary one, and the library's code makes the engine's checks (an
//! out-of-bounds read, a read past a symbolic argument's terminator). The
//! string functions never read past the first NUL of either string, so the
//! terminator checks cannot fire on a summarised call; `memcmp` on a
//! terminated object is always run by the library.

use crate::executor::Executor;
use crate::state::State;
use crate::step::Exec;
use crate::value::{Ops, Value};
use symtest_expr::{BinOp, CmpOp};
use symtest_ir::{FuncId, Module};

/// Scans longer than this many bytes run in the library's code.
const MAX_SCAN: u64 = 4096;

/// A comparison computed as an expression.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StrCmpFn {
    /// `strcmp(a, b)`: stops at the first difference or NUL.
    Strcmp,
    /// `strncmp(a, b, n)`: also after `n` bytes.
    Strncmp,
    /// `memcmp(a, b, n)` and `bcmp`: stops at the first difference; 0 after `n`.
    Memcmp,
}

impl StrCmpFn {
    fn by_name(name: &str) -> Option<StrCmpFn> {
        Some(match name {
            "strcmp" => StrCmpFn::Strcmp,
            "strncmp" => StrCmpFn::Strncmp,
            "memcmp" | "bcmp" => StrCmpFn::Memcmp,
            _ => return None,
        })
    }

    fn arity(self) -> usize {
        match self {
            StrCmpFn::Strcmp => 2,
            StrCmpFn::Strncmp | StrCmpFn::Memcmp => 3,
        }
    }
}

/// The comparison each function of `module` is, when its name and signature
/// (pointer and size parameters, an `int` result) say so.
pub fn table(module: &Module) -> Vec<Option<StrCmpFn>> {
    module
        .functions
        .iter()
        .map(|func| {
            let f = StrCmpFn::by_name(symtest_ir::plain_name(&func.name))?;
            let sig_ok = func.param_bits.len() == f.arity()
                && func.param_bits.iter().all(|&b| b == 64)
                && func.ret_bits == Some(32);
            sig_ok.then_some(f)
        })
        .collect()
}

/// One position of the scan: the two bytes read there.
struct Position {
    a: Value,
    b: Value,
}

impl Executor<'_> {
    /// The result of comparison `f`'s call with `args` when it can be computed
    /// as an expression (see the module's comment); `None`: call the function.
    pub(crate) fn call_strcmp(
        &mut self,
        st: &mut State,
        f: FuncId,
        args: &[Value],
    ) -> Exec<Option<Value>> {
        let Some(kind) = self.strcmp_fns.get(f.0 as usize).copied().flatten() else {
            return Ok(None);
        };
        // Only the linked C library's definition is known to compute what
        // the summary does; a program's own `strcmp` runs as written.
        if !self.config.summarize_comparisons
            || args.len() < kind.arity()
            || self.module.function(f).body.is_none()
            || self.coverage.is_program_function(f)
        {
            return Ok(None);
        }
        let (Some(pa), Some(pb)) = (args[0].as_concrete(), args[1].as_concrete()) else {
            return Ok(None);
        };
        let (pa, pb) = (pa.to_u64(), pb.to_u64());
        let limit = match kind {
            StrCmpFn::Strcmp => None,
            _ => match args[2].as_concrete() {
                Some(n) if n.width() <= 64 => Some(n.to_u64()),
                _ => return Ok(None),
            },
        };
        if limit == Some(0) {
            // Neither loop reads a byte.
            return Ok(Some(Value::from_u64(32, 0)));
        }
        let Some((positions, falls_off)) = self.scan(st, kind, pa, pb, limit) else {
            return Ok(None);
        };
        Ok(Some(self.chain(kind, &positions, falls_off)))
    }

    /// The bytes the library's loop may read, up to the first position where
    /// it certainly stops; `None` when that position is not inside both live
    /// objects (or too far).
    fn scan(
        &mut self,
        st: &State,
        kind: StrCmpFn,
        pa: u64,
        pb: u64,
        limit: Option<u64>,
    ) -> Option<(Vec<Position>, bool)> {
        let ea = st.memory.find(pa)?;
        let eb = st.memory.find(pb)?;
        if ea.freed() || eb.freed() {
            return None;
        }
        if kind == StrCmpFn::Memcmp
            && st
                .terminated
                .iter()
                .any(|t| t.base == ea.object.base || t.base == eb.object.base)
        {
            return None;
        }
        let room = (ea.object.end() - pa).min(eb.object.end() - pb);
        let (oa, ob) = (
            (pa - ea.object.base) as usize,
            (pb - eb.object.base) as usize,
        );
        let (ca, cb) = (ea.contents.clone(), eb.contents.clone());
        let mut positions = Vec::new();
        for i in 0..room.min(MAX_SCAN) {
            let a = ca.read(&mut self.pool, oa + i as usize, 1);
            let b = cb.read(&mut self.pool, ob + i as usize, 1);
            let last = limit.is_some_and(|n| i + 1 == n);
            let (stops, equal) = match (a.as_concrete(), b.as_concrete()) {
                (Some(x), Some(y)) => {
                    let (x, y) = (x.to_u64(), y.to_u64());
                    let nul = kind != StrCmpFn::Memcmp && x == 0;
                    (x != y || nul || last, x == y && !nul)
                }
                (Some(x), None) | (None, Some(x)) => {
                    (last || (kind != StrCmpFn::Memcmp && x.to_u64() == 0), false)
                }
                // Two symbolic bytes (two input strings compared, as a sort
                // does): the chain would be as costly to solve as the forks
                // it saves.
                (None, None) => return None,
            };
            if equal && !stops {
                // Two equal non-NUL bytes: the loop goes on, the result is unchanged.
                continue;
            }
            positions.push(Position { a, b });
            if stops {
                // memcmp over all `n` bytes with no difference returns 0.
                let falls_off = kind == StrCmpFn::Memcmp && last;
                return Some((positions, falls_off));
            }
        }
        None
    }

    /// `a[k] - b[k]` at the first position `k` where the loop stops, as
    /// `ite`s from the last position read backwards.
    fn chain(&mut self, kind: StrCmpFn, positions: &[Position], falls_off: bool) -> Value {
        let zero8 = Value::from_u64(8, 0);
        // After the last position: memcmp found no difference (else the loop
        // certainly stopped there and the first step below replaces this).
        let mut result = Value::from_u64(32, 0);
        for (i, p) in positions.iter().enumerate().rev() {
            let wa = Ops::zext(&mut self.pool, &p.a, 32);
            let wb = Ops::zext(&mut self.pool, &p.b, 32);
            let diff = Ops::bin(&mut self.pool, BinOp::Sub, &wa, &wb);
            let certain = i + 1 == positions.len() && !falls_off;
            if certain {
                result = diff;
                continue;
            }
            let same = Ops::cmp(&mut self.pool, CmpOp::Eq, &p.a, &p.b);
            let mut stop = Ops::not(&mut self.pool, &same);
            if kind != StrCmpFn::Memcmp {
                let nul = Ops::cmp(&mut self.pool, CmpOp::Eq, &p.a, &zero8);
                stop = Ops::bin(&mut self.pool, BinOp::Or, &stop, &nul);
            }
            result = Ops::ite(&mut self.pool, &stop, &diff, &result);
        }
        result
    }
}
