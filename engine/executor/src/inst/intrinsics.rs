//! LLVM intrinsics clang emits for C.

use super::memory_ops::Access;
use crate::executor::Executor;
use crate::memory::object::ByteRun;
use crate::state::State;
use crate::step::{Exec, StepCtx, Stop};
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use symtest_expr::{BinOp, Bits, CmpOp};
use symtest_ir::{Intrinsic, Operand, Reg};

impl Executor<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn exec_intrinsic(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        dest: Option<Reg>,
        which: &Intrinsic,
        args: &[Operand],
        bits: u32,
        _ret_bits: Option<u32>,
    ) -> Exec<()> {
        let mut a = Vec::with_capacity(args.len());
        for o in args {
            a.push(self.operand(st, *o)?);
        }
        let arg = |i: usize| -> Exec<Value> {
            a.get(i).cloned().ok_or_else(|| {
                Stop::error(
                    ErrorKind::Exec,
                    format!("intrinsic {which:?} with too few arguments"),
                )
            })
        };
        let pool = &mut self.pool;
        let r: Option<Value> = match which {
            Intrinsic::Memcpy | Intrinsic::Memmove => {
                let (d, s, n) = (arg(0)?, arg(1)?, arg(2)?);
                self.mem_copy(st, ctx, &d, &s, &n)?;
                None
            }
            Intrinsic::Memset => {
                let (d, b, n) = (arg(0)?, arg(1)?, arg(2)?);
                self.mem_set(st, ctx, &d, &b, &n)?;
                None
            }
            Intrinsic::SAddWithOverflow
            | Intrinsic::UAddWithOverflow
            | Intrinsic::SSubWithOverflow
            | Intrinsic::USubWithOverflow
            | Intrinsic::SMulWithOverflow
            | Intrinsic::UMulWithOverflow => {
                let (x, y) = (arg(0)?, arg(1)?);
                Some(overflow_op(pool, which, &x, &y, bits))
            }
            Intrinsic::Bswap => {
                let x = arg(0)?;
                let mut acc: Option<Value> = None;
                for i in 0..bits / 8 {
                    let byte = Ops::extract(pool, &x, i * 8, 8);
                    acc = Some(match acc {
                        None => byte,
                        Some(hi) => Ops::concat(pool, &hi, &byte),
                    });
                }
                acc
            }
            Intrinsic::Bitreverse => {
                let x = arg(0)?;
                // Concatenate the bits low to high: bit 0 ends up most significant.
                let mut acc: Option<Value> = None;
                for i in 0..bits {
                    let bit = Ops::extract(pool, &x, i, 1);
                    acc = Some(match acc {
                        None => bit,
                        Some(hi) => Ops::concat(pool, &hi, &bit),
                    });
                }
                acc
            }
            Intrinsic::Ctpop => {
                let x = arg(0)?;
                let mut acc = Value::from_u64(bits, 0);
                for i in 0..bits {
                    let b = Ops::extract(pool, &x, i, 1);
                    let b = Ops::zext(pool, &b, bits);
                    acc = Ops::bin(pool, BinOp::Add, &acc, &b);
                }
                Some(acc)
            }
            Intrinsic::Ctlz | Intrinsic::Cttz => {
                let x = arg(0)?;
                // Fold from the far end: count = first set bit position seen.
                let mut acc = Value::from_u64(bits, bits as u64);
                let order: Vec<u32> = if *which == Intrinsic::Ctlz {
                    (0..bits).collect()
                } else {
                    (0..bits).rev().collect()
                };
                for i in order {
                    let b = Ops::extract(pool, &x, i, 1);
                    let count = if *which == Intrinsic::Ctlz {
                        bits - 1 - i
                    } else {
                        i
                    };
                    acc = Ops::ite(pool, &b, &Value::from_u64(bits, count as u64), &acc);
                }
                Some(acc)
            }
            Intrinsic::Fshl | Intrinsic::Fshr => {
                let (x, y, z) = (arg(0)?, arg(1)?, arg(2)?);
                let w = Value::from_u64(bits, bits as u64);
                let s = Ops::bin(pool, BinOp::URem, &z, &w);
                let both = Ops::concat(pool, &x, &y); // 2*bits
                let s2 = Ops::zext(pool, &s, 2 * bits);
                if *which == Intrinsic::Fshl {
                    let sh = Ops::bin(pool, BinOp::Shl, &both, &s2);
                    Some(Ops::extract(pool, &sh, bits, bits))
                } else {
                    let sh = Ops::bin(pool, BinOp::LShr, &both, &s2);
                    Some(Ops::extract(pool, &sh, 0, bits))
                }
            }
            Intrinsic::Abs => {
                let x = arg(0)?;
                let neg = Ops::bin(pool, BinOp::Sub, &Value::from_u64(bits, 0), &x);
                let is_neg = Ops::cmp(pool, CmpOp::Slt, &x, &Value::from_u64(bits, 0));
                Some(Ops::ite(pool, &is_neg, &neg, &x))
            }
            Intrinsic::SMin | Intrinsic::SMax | Intrinsic::UMin | Intrinsic::UMax => {
                let (x, y) = (arg(0)?, arg(1)?);
                let op = if matches!(which, Intrinsic::SMin | Intrinsic::SMax) {
                    CmpOp::Slt
                } else {
                    CmpOp::Ult
                };
                let lt = Ops::cmp(pool, op, &x, &y);
                let min = matches!(which, Intrinsic::SMin | Intrinsic::UMin);
                Some(if min {
                    Ops::ite(pool, &lt, &x, &y)
                } else {
                    Ops::ite(pool, &lt, &y, &x)
                })
            }
            Intrinsic::UAddSat => {
                let (x, y) = (arg(0)?, arg(1)?);
                let sum = Ops::bin(pool, BinOp::Add, &x, &y);
                let wrapped = Ops::cmp(pool, CmpOp::Ult, &sum, &x);
                let max = Value::Concrete(Bits::ones(bits));
                Some(Ops::ite(pool, &wrapped, &max, &sum))
            }
            Intrinsic::USubSat => {
                let (x, y) = (arg(0)?, arg(1)?);
                let diff = Ops::bin(pool, BinOp::Sub, &x, &y);
                let under = Ops::cmp(pool, CmpOp::Ult, &x, &y);
                Some(Ops::ite(pool, &under, &Value::from_u64(bits, 0), &diff))
            }
            Intrinsic::SAddSat | Intrinsic::SSubSat => {
                // Exact in bits + 1, then clamped to the signed range.
                let (x, y) = (arg(0)?, arg(1)?);
                let (wx, wy) = (
                    Ops::sresize(pool, &x, bits + 1),
                    Ops::sresize(pool, &y, bits + 1),
                );
                let op = if *which == Intrinsic::SAddSat {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let wide = Ops::bin(pool, op, &wx, &wy);
                let max = Bits::ones(bits - 1);
                let min = Bits::from_u64(bits, 1).shl(&Bits::from_u64(bits, u64::from(bits - 1)));
                let wmax = Value::Concrete(max.zext(bits + 1));
                let wmin = Ops::sresize(pool, &Value::Concrete(min.clone()), bits + 1);
                let hi = Ops::cmp(pool, CmpOp::Slt, &wmax, &wide);
                let lo = Ops::cmp(pool, CmpOp::Slt, &wide, &wmin);
                let t = Ops::resize(pool, &wide, bits);
                let t = Ops::ite(pool, &lo, &Value::Concrete(min), &t);
                Some(Ops::ite(pool, &hi, &Value::Concrete(max.zext(bits)), &t))
            }
            Intrinsic::Expect => Some(arg(0)?),
            Intrinsic::Assume => {
                let c = arg(0)?;
                if !self.may_be_true(st, &c)? {
                    return Err(Stop::error(
                        ErrorKind::Exec,
                        "llvm.assume of a false condition",
                    ));
                }
                self.add_constraint(st, &c);
                None
            }
            Intrinsic::StackSave => Some(Value::from_u64(64, 0)),
            Intrinsic::StackRestore | Intrinsic::VaEnd | Intrinsic::Nop => None,
            Intrinsic::Trap => {
                return Err(Stop::error(ErrorKind::Abort, "trap (llvm.trap) reached"))
            }
            Intrinsic::VaStart => {
                let l = arg(0)?;
                self.va_start(st, ctx, &l)?;
                None
            }
            Intrinsic::VaCopy => {
                let (d, s) = (arg(0)?, arg(1)?);
                self.mem_copy(st, ctx, &d, &s, &Value::from_u64(64, 24))?;
                None
            }
            Intrinsic::FAbs(ty) | Intrinsic::CopySign(ty) => {
                let x = arg(0)?;
                let w = ty.bits();
                let sign_off = match ty {
                    symtest_ir::FloatTy::F80 => 79,
                    _ => w - 1,
                };
                let sign = Bits::from_u64(w, 1).shl(&Bits::from_u64(w, sign_off as u64));
                let mask = Bits::ones(w).xor(&sign);
                let magnitude = Ops::bin(pool, BinOp::And, &x, &Value::Concrete(mask));
                if let Intrinsic::CopySign(_) = which {
                    let y = arg(1)?;
                    let s = Ops::bin(pool, BinOp::And, &y, &Value::Concrete(sign));
                    Some(Ops::bin(pool, BinOp::Or, &magnitude, &s))
                } else {
                    Some(magnitude)
                }
            }
            Intrinsic::FUnary(..)
            | Intrinsic::Fma(_)
            | Intrinsic::FMinMax(..)
            | Intrinsic::IsFpClass(_) => Some(self.exec_fp_intrinsic(st, which, a)?),
            Intrinsic::Unsupported(name) => {
                return Err(Stop::error(
                    ErrorKind::Exec,
                    format!("unsupported intrinsic `{name}`"),
                ));
            }
        };
        if let Some(v) = r {
            self.set(st, dest, v);
        }
        Ok(())
    }

    /// `memcpy`/`memmove` of `n` bytes. Both ranges are checked with the
    /// whole length before a byte moves (a length past its object is a
    /// `ptr` error, however large); the destination is resolved in every
    /// state the source resolved in. Up to [`DIRECT_MAX`] bytes move as one
    /// value read then written, as a load and a store; longer copies move
    /// chunk by chunk ([`Executor::copy_range`]) in the direction that keeps
    /// `memmove`'s overlapping ranges right.
    pub(crate) fn mem_copy(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        d: &Value,
        s: &Value,
        n: &Value,
    ) -> Exec<()> {
        let n = self.concretize(st, n, "memcpy length")?.to_u64();
        if n == 0 {
            return Ok(());
        }
        self.with_resolved_ctx(
            st,
            ctx,
            s,
            n,
            Access::Read,
            &mut |ex, s2, ctx2, sbase, soff| {
                if n <= DIRECT_MAX {
                    let data = ex.read_at(s2, sbase, soff, n as usize);
                    return ex.with_resolved(s2, ctx2, d, n, Access::Write, &mut |ex, s3, b, o| {
                        ex.write_at(s3, b, o, n as usize, &data);
                        Ok(())
                    });
                }
                ex.with_resolved(s2, ctx2, d, n, Access::Write, &mut |ex, s3, b, o| {
                    ex.copy_range(s3, (sbase, soff), (b, o), n, "memcpy")
                })
            },
        )
    }

    /// Copies `n` bytes from `src` to `dst` (each an object's base and an
    /// offset, both ranges checked), in chunks: at concrete offsets
    /// [`CHUNK`] bytes at a time, raw when concrete, else a value per byte,
    /// backwards when the ranges overlap with the destination above;
    /// with a symbolic offset (an object of at most 16 MiB: larger ones are
    /// accessed at concrete offsets) [`SYMBOLIC_CHUNK`] bytes as one value,
    /// the whole source read first when both are in one object. The run's
    /// limits are checked between chunks, except in an overlapping move,
    /// which could not be run again from the middle.
    pub(crate) fn copy_range(
        &mut self,
        st: &mut State,
        src: (u64, &Value),
        dst: (u64, &Value),
        n: u64,
        what: &str,
    ) -> Exec<()> {
        let ((sbase, soff), (dbase, doff)) = (src, dst);
        if let (Value::Concrete(so), Value::Concrete(dof)) = (soff, doff) {
            let (so, dof) = (so.to_u64(), dof.to_u64());
            let (overlap, backward) = move_plan(sbase == dbase, so, dof, n);
            // Symbolic bytes cost memory: after a chunk of them, check at once.
            let mut symbolic = false;
            for (k, len) in chunk_order(n, CHUNK, backward) {
                if !overlap && (symbolic || due(k, LIMIT_EVERY)) {
                    self.long_copy_limit(st, what, n)?;
                }
                let from = st.memory.get(sbase).expect("resolved object");
                let run = from
                    .contents
                    .read_run(&mut self.pool, (so + k) as usize, len as usize);
                symbolic = matches!(run, ByteRun::Values(_));
                let to = st.memory.contents_mut(dbase).expect("resolved object");
                to.write_run(&mut self.pool, (dof + k) as usize, &run);
            }
            return Ok(());
        }
        let chunks: Vec<(u64, u64)> = chunk_order(n, SYMBOLIC_CHUNK, false).collect();
        if sbase == dbase {
            // The offsets' order is unknown: read everything, then write.
            let mut parts = Vec::with_capacity(chunks.len());
            for &(k, len) in &chunks {
                let at = self.offset_plus(soff, k);
                parts.push(self.read_at(st, sbase, &at, len as usize));
            }
            for (&(k, len), v) in chunks.iter().zip(&parts) {
                let at = self.offset_plus(doff, k);
                self.write_at(st, dbase, &at, len as usize, v);
            }
            return Ok(());
        }
        for &(k, len) in &chunks {
            if due(k, LIMIT_EVERY_SYMBOLIC) {
                self.long_copy_limit(st, what, n)?;
            }
            let from = self.offset_plus(soff, k);
            let v = self.read_at(st, sbase, &from, len as usize);
            let to = self.offset_plus(doff, k);
            self.write_at(st, dbase, &to, len as usize, &v);
        }
        Ok(())
    }

    /// `off + k` (a 64-bit offset).
    fn offset_plus(&mut self, off: &Value, k: u64) -> Value {
        if k == 0 {
            return off.clone();
        }
        self.add_value(off, &Value::from_u64(64, k))
    }

    /// The run's limits between two chunks of a long copy or fill of `n`
    /// bytes.
    fn long_copy_limit(&mut self, st: &mut State, what: &str, n: u64) -> Exec<()> {
        match self.long_op_limit(&format!("while {what} of {n} bytes ran")) {
            Some(r) => Err(self.stop_in_long_op(st, r)),
            None => Ok(()),
        }
    }

    /// `memset` of `n` bytes: the range is checked with the whole length
    /// first; up to [`DIRECT_MAX`] bytes are one value written as a store,
    /// longer fills go chunk by chunk ([`Executor::fill_range`]).
    pub(crate) fn mem_set(
        &mut self,
        st: &mut State,
        ctx: &mut StepCtx,
        d: &Value,
        b: &Value,
        n: &Value,
    ) -> Exec<()> {
        let n = self.concretize(st, n, "memset length")?.to_u64();
        if n == 0 {
            return Ok(());
        }
        let byte = Ops::resize(&mut self.pool, b, 8);
        if n <= DIRECT_MAX {
            let fill = repeat_byte(&mut self.pool, &byte, n as usize);
            return self.with_resolved(st, ctx, d, n, Access::Write, &mut |ex, s2, base, off| {
                ex.write_at(s2, base, off, n as usize, &fill);
                Ok(())
            });
        }
        self.with_resolved(st, ctx, d, n, Access::Write, &mut |ex, s2, base, off| {
            ex.fill_range(s2, base, off, n, &byte)
        })
    }

    /// Sets `n` bytes at `off` (checked) of the object at `base` to `byte`:
    /// at a concrete offset [`CHUNK`] bytes at a time, byte by byte
    /// ([`ObjectState::fill`](crate::memory::ObjectState::fill)); at a
    /// symbolic one (an object of at most 16 MiB) as values of
    /// [`SYMBOLIC_CHUNK`] bytes. The run's limits are checked between chunks.
    pub(crate) fn fill_range(
        &mut self,
        st: &mut State,
        base: u64,
        off: &Value,
        n: u64,
        byte: &Value,
    ) -> Exec<()> {
        let what = if byte.is_concrete() {
            "memset"
        } else {
            "memset with a symbolic byte"
        };
        if let Value::Concrete(o) = off {
            let o = o.to_u64();
            // A symbolic byte costs memory: check after every chunk.
            let every = if byte.is_concrete() {
                LIMIT_EVERY
            } else {
                CHUNK
            };
            for (k, len) in chunk_order(n, CHUNK, false) {
                if due(k, every) {
                    self.long_copy_limit(st, what, n)?;
                }
                let c = st.memory.contents_mut(base).expect("resolved object");
                c.fill(&mut self.pool, (o + k) as usize, len as usize, byte);
            }
            return Ok(());
        }
        let full = repeat_byte(&mut self.pool, byte, SYMBOLIC_CHUNK as usize);
        for (k, len) in chunk_order(n, SYMBOLIC_CHUNK, false) {
            if due(k, LIMIT_EVERY_SYMBOLIC) {
                self.long_copy_limit(st, what, n)?;
            }
            let v = if len == SYMBOLIC_CHUNK {
                full.clone()
            } else {
                repeat_byte(&mut self.pool, byte, len as usize)
            };
            let at = self.offset_plus(off, k);
            self.write_at(st, base, &at, len as usize, &v);
        }
        Ok(())
    }
}

/// Longest `memcpy`/`memset` made as one value of `8 * n` bits, as a load
/// and a store are (struct copies and small buffers: the common case).
pub(crate) const DIRECT_MAX: u64 = 256;

/// Bytes a longer copy or fill moves at a time at concrete offsets.
pub(crate) const CHUNK: u64 = 64 * 1024;

/// Bytes a copy or fill at a symbolic offset moves at a time, as one value
/// (whose bytes are extracted again one by one: a short chunk keeps that
/// cheap).
pub(crate) const SYMBOLIC_CHUNK: u64 = 64;

/// Bytes a copy or fill at concrete offsets moves between two checks of the
/// run's limits (a multiple of [`CHUNK`]): one of a megabyte or less is
/// checked by the run loop after it, as a store is.
const LIMIT_EVERY: u64 = 1 << 20;

/// The same at a symbolic offset (each byte `ite`s or a store; a multiple
/// of [`SYMBOLIC_CHUNK`]).
const LIMIT_EVERY_SYMBOLIC: u64 = crate::budget::LONG_OP_CHECK_EVERY as u64;

/// Are the run's limits asked before the chunk at `k`, every `every` bytes?
/// Not before the first: the run loop asked them after the last instruction.
fn due(k: u64, every: u64) -> bool {
    k > 0 && k.is_multiple_of(every)
}

/// The chunks of a range of `n` bytes, `(offset in the range, length)`, each
/// at most `chunk` bytes, first to last or (`backward`) last to first. A
/// move whose destination overlaps its source from above goes backward, one
/// from below forward: each chunk is then read before a write reaches it.
pub(crate) fn chunk_order(n: u64, chunk: u64, backward: bool) -> impl Iterator<Item = (u64, u64)> {
    let count = n.div_ceil(chunk);
    (0..count).map(move |i| {
        let i = if backward { count - 1 - i } else { i };
        let k = i * chunk;
        (k, chunk.min(n - k))
    })
}

/// Whether a copy of `n` bytes from offset `so` to offset `dof` (in one
/// object or not) overlaps itself, and whether it must then go backward (the
/// destination above the source). The offsets are in bounds, so `off + n`
/// does not overflow.
pub(crate) fn move_plan(same_object: bool, so: u64, dof: u64, n: u64) -> (bool, bool) {
    let overlap = same_object && so < dof + n && dof < so + n;
    (overlap, overlap && dof > so)
}

/// `n` copies of `byte` (8 bits) as one value of `8 * n` bits (`n` at most
/// [`DIRECT_MAX`] or [`SYMBOLIC_CHUNK`]).
fn repeat_byte(pool: &mut symtest_expr::ExprPool, byte: &Value, n: usize) -> Value {
    debug_assert!(n as u64 <= DIRECT_MAX.max(SYMBOLIC_CHUNK));
    match byte {
        Value::Concrete(b) => Value::Concrete(Bits::from_bytes_le(
            n as u32 * 8,
            &vec![b.to_u64() as u8; n],
        )),
        Value::Symbolic(_) => {
            let mut acc = byte.clone();
            for _ in 1..n {
                acc = Ops::concat(pool, byte, &acc);
            }
            acc
        }
    }
}

/// `{iN result, i1 overflow}` as one value: result at bit 0, flag at bit N.
/// The flag uses the solver's native overflow predicates (no double-width product).
fn overflow_op(
    pool: &mut symtest_expr::ExprPool,
    which: &Intrinsic,
    x: &Value,
    y: &Value,
    bits: u32,
) -> Value {
    let (op, pred) = match which {
        Intrinsic::SAddWithOverflow => (BinOp::Add, CmpOp::SAddO),
        Intrinsic::UAddWithOverflow => (BinOp::Add, CmpOp::UAddO),
        Intrinsic::SSubWithOverflow => (BinOp::Sub, CmpOp::SSubO),
        Intrinsic::USubWithOverflow => (BinOp::Sub, CmpOp::USubO),
        Intrinsic::SMulWithOverflow => (BinOp::Mul, CmpOp::SMulO),
        _ => (BinOp::Mul, CmpOp::UMulO),
    };
    let result = Ops::bin(pool, op, x, y);
    let flag = Ops::cmp(pool, pred, x, y);
    // Layout: flag at bit `bits`, padding up to the struct's size.
    let total = (bits / 8 * 2).max(2) * 8;
    let flag_w = Ops::zext(pool, &flag, total - bits);
    Ops::concat(pool, &flag_w, &result)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunked move in [`move_plan`]'s direction, each chunk read before
    /// it is written, is `memmove` for every overlap, chunk size and length.
    #[test]
    fn chunked_moves_match_memmove() {
        let image: Vec<u8> = (0..40u8).collect();
        for chunk in [1u64, 3, 7, 64] {
            for n in 0..20u64 {
                for so in 0..=(40 - n) {
                    for dof in 0..=(40 - n) {
                        let mut want = image.clone();
                        want.copy_within(so as usize..(so + n) as usize, dof as usize);
                        let mut got = image.clone();
                        let (_, backward) = move_plan(true, so, dof, n);
                        for (k, len) in chunk_order(n, chunk, backward) {
                            let (s, d, l) = ((so + k) as usize, (dof + k) as usize, len as usize);
                            let part = got[s..s + l].to_vec();
                            got[d..d + l].copy_from_slice(&part);
                        }
                        assert_eq!(got, want, "chunk {chunk}, n {n}, {so} -> {dof}");
                    }
                }
            }
        }
    }

    #[test]
    fn chunks_cover_the_range_once_in_order() {
        let fwd: Vec<(u64, u64)> = chunk_order(10, 4, false).collect();
        assert_eq!(fwd, [(0, 4), (4, 4), (8, 2)]);
        let back: Vec<(u64, u64)> = chunk_order(10, 4, true).collect();
        assert_eq!(back, [(8, 2), (4, 4), (0, 4)]);
        assert_eq!(chunk_order(0, 4, false).count(), 0);
        // The report's length: 2,172,649,480 bytes, 33,153 chunks of 64 KiB.
        let n = 2_172_649_480u64;
        let total: u64 = chunk_order(n, CHUNK, false).map(|(_, l)| l).sum();
        assert_eq!(total, n);
        assert!(chunk_order(n, CHUNK, false).all(|(_, l)| l <= CHUNK));
        // Different objects never overlap.
        assert_eq!(move_plan(false, 0, 0, 8), (false, false));
        assert_eq!(move_plan(true, 0, 4, 8), (true, true));
        assert_eq!(move_plan(true, 4, 0, 8), (true, false));
        assert_eq!(move_plan(true, 0, 8, 8), (false, false));
    }

    /// A fill value is `n` copies of the byte, concrete or symbolic.
    #[test]
    fn repeated_bytes_have_the_byte_everywhere() {
        let mut pool = symtest_expr::ExprPool::new();
        let v = repeat_byte(&mut pool, &Value::from_u64(8, 0xab), 5);
        assert_eq!(v, Value::Concrete(Bits::from_bytes_le(40, &[0xab; 5])));
        let arr = pool.new_array("b", 1);
        let root = pool.array(arr);
        let z = pool.const_u64(32, 0);
        let b = pool.select(root, z);
        let v = repeat_byte(&mut pool, &Value::Symbolic(b), SYMBOLIC_CHUNK as usize);
        assert_eq!(v.width(&pool), SYMBOLIC_CHUNK as u32 * 8);
        for i in 0..SYMBOLIC_CHUNK as u32 {
            assert_eq!(Ops::extract(&mut pool, &v, i * 8, 8), Value::Symbolic(b));
        }
    }
}
