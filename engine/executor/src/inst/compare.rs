//! The C library's byte-string comparisons (`strcmp`, `strncmp`, `memcmp`,
//! `bcmp`) on symbolic bytes, computed as one expression instead of running
//! the library's loop.
//!
//! The loop forks at every byte it compares (equal or not, end of string or
//! not), so matching a symbolic argument against a table of option names
//! (`getopt_long`, `argmatch`) makes a state per byte of every name. The
//! result is instead the library's own value written as a chain of
//! if-then-else over the positions, `ite(stop_0, a_0 - b_0, ite(stop_1, ...))`
//! (musl's: the difference of the first unequal bytes as unsigned chars), so
//! the caller's test of it forks once: equal or not, less or greater.
//!
//! The summary applies when both pointers are concrete, every byte the loop
//! can read is inside both objects (for the string functions: a concrete
//! terminating NUL, or the length limit, comes first), the length is
//! concrete, and some byte compared is symbolic. Otherwise the call is an
//! ordinary one, whose own accesses are checked as any other.

use crate::executor::Executor;
use crate::state::State;
use crate::value::{Ops, Value};
use symtest_expr::{BinOp, CmpOp};
use symtest_ir::{FuncId, Module};

/// Which comparison a function is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CompareFn {
    /// `strcmp(a, b)`: up to and including the first NUL.
    Strcmp,
    /// `strncmp(a, b, n)`: as `strcmp`, at most `n` bytes.
    Strncmp,
    /// `memcmp(a, b, n)` and `bcmp`: exactly `n` bytes.
    Memcmp,
}

/// Functions longer than this are compared by the library's loop: the
/// expression grows with the bytes compared.
const MAX_BYTES: u64 = 4096;

/// The comparison each function of `module` is, by name and signature
/// (pointer arguments, an `int` result).
pub fn table(module: &Module) -> Vec<Option<CompareFn>> {
    module
        .functions
        .iter()
        .map(|func| {
            let (f, arity) = match func.name.as_str() {
                "strcmp" => (CompareFn::Strcmp, 2),
                "strncmp" => (CompareFn::Strncmp, 3),
                "memcmp" | "bcmp" => (CompareFn::Memcmp, 3),
                _ => return None,
            };
            let sig_ok = func.param_bits.len() == arity
                && func.param_bits[..2].iter().all(|&b| b == 64)
                && func.param_bits[2..].iter().all(|&b| b == 64)
                && func.ret_bits == Some(32)
                && !func.is_vararg;
            sig_ok.then_some(f)
        })
        .collect()
}

impl Executor<'_> {
    /// The result of comparison `f`'s call with `args` as an expression
    /// over the bytes compared, when the summary applies (see the module
    /// documentation); `None`: call the function.
    pub(crate) fn call_compare(&mut self, st: &mut State, f: FuncId, args: &[Value]) -> Option<Value> {
        let cf = self.compare_fns[f.0 as usize]?;
        let a = args.first()?.as_concrete()?.to_u64();
        let b = args.get(1)?.as_concrete()?.to_u64();
        let limit = match cf {
            CompareFn::Strcmp => u64::MAX,
            CompareFn::Strncmp | CompareFn::Memcmp => args.get(2)?.as_concrete()?.to_u64(),
        };
        if limit == 0 {
            return None;
        }
        let room = |addr: u64| -> Option<u64> {
            let e = st.memory.find(addr)?;
            (!e.freed()).then(|| e.object.end() - addr)
        };
        let room = room(a)?.min(room(b)?);
        // Positions the loop may read: all `limit` for memcmp; for the
        // string functions up to the first concrete NUL of either side.
        let mut bytes: Vec<(Value, Value)> = Vec::new();
        let mut symbolic = false;
        let mut ended = false;
        let mut i = 0u64;
        while i < limit {
            if i >= room || i >= MAX_BYTES {
                return None;
            }
            let x = self.byte_at(st, a + i)?;
            let y = self.byte_at(st, b + i)?;
            symbolic |= !x.is_concrete() || !y.is_concrete();
            let nul = |v: &Value| v.as_concrete().is_some_and(|c| c.to_u64() == 0);
            let stop = cf != CompareFn::Memcmp && (nul(&x) || nul(&y));
            bytes.push((x, y));
            i += 1;
            if stop {
                ended = true;
                break;
            }
        }
        if !symbolic {
            return None;
        }
        let pool = &mut self.pool;
        let zero8 = Value::from_u64(8, 0);
        // From the last position back: the value if the loop gets there
        // (memcmp past its last byte: equal; the string functions stop at
        // their last position, which sets it).
        let mut acc = Value::from_u64(32, 0);
        let last = bytes.len() - 1;
        for (k, (x, y)) in bytes.iter().enumerate().rev() {
            let x32 = Ops::zext(pool, x, 32);
            let y32 = Ops::zext(pool, y, 32);
            let diff = Ops::bin(pool, BinOp::Sub, &x32, &y32);
            let string_end =
                cf != CompareFn::Memcmp && k == last && (ended || limit == k as u64 + 1);
            if string_end {
                // musl's strcmp/strncmp return the difference where the
                // loop stops: here, whatever the bytes.
                acc = diff;
                continue;
            }
            let eq = Ops::cmp(pool, CmpOp::Eq, x, y);
            let mut cont = eq;
            if cf != CompareFn::Memcmp {
                let x_nul = Ops::cmp(pool, CmpOp::Eq, x, &zero8);
                let not_nul = Ops::bin(pool, BinOp::Xor, &x_nul, &Value::from_u64(1, 1));
                cont = Ops::bin(pool, BinOp::And, &cont, &not_nul);
            }
            acc = Ops::ite(pool, &cont, &acc, &diff);
        }
        Some(acc)
    }

    /// The byte at `addr` (inside a live object: the caller checked).
    fn byte_at(&mut self, st: &mut State, addr: u64) -> Option<Value> {
        let e = st.memory.find(addr)?;
        let off = addr - e.object.base;
        let contents = e.contents.clone();
        Some(contents.read(&mut self.pool, off as usize, 1))
    }
}
