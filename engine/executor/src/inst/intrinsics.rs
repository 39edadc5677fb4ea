//! LLVM intrinsics clang emits for C.

use super::memory_ops::Access;
use crate::executor::Executor;
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

    /// `memcpy`/`memmove` semantics (reads all, then writes).
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
        let mut data: Option<Value> = None;
        self.with_resolved(st, ctx, s, n, Access::Read, &mut |ex, s2, base, off| {
            data = Some(ex.read_bytes(s2, base, off, n as usize));
            Ok(())
        })?;
        let data = data.expect("read ran");
        self.with_resolved(st, ctx, d, n, Access::Write, &mut |ex, s2, base, off| {
            ex.write_at(s2, base, off, n as usize, &data);
            Ok(())
        })
    }

    fn read_bytes(&mut self, st: &mut State, base: u64, off: &Value, n: usize) -> Value {
        self.read_at(st, base, off, n)
    }

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
        let fill = match &byte {
            Value::Concrete(bb) => Value::Concrete(Bits::from_bytes_le(
                (n * 8) as u32,
                &vec![bb.to_u64() as u8; n as usize],
            )),
            Value::Symbolic(_) => {
                let mut acc = byte.clone();
                for i in 1..n as usize {
                    if i % crate::budget::LONG_OP_CHECK_EVERY == 0 {
                        let what = format!("while memset filled {n} bytes with a symbolic byte");
                        if let Some(r) = self.long_op_limit(&what) {
                            return Err(self.stop_in_long_op(st, r));
                        }
                    }
                    acc = Ops::concat(&mut self.pool, &byte, &acc);
                }
                acc
            }
        };
        self.with_resolved(st, ctx, d, n, Access::Write, &mut |ex, s2, base, off| {
            ex.write_at(s2, base, off, n as usize, &fill);
            Ok(())
        })
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
