//! Aggregate and vector values: flat bit-vectors with precomputed offsets.

use crate::executor::Executor;
use crate::state::State;
use crate::step::{Exec, Stop};
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use symtest_ir::{Operand, Reg};

impl Executor<'_> {
    pub(crate) fn exec_extractvalue(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        agg: Operand,
        off: u32,
        bits: u32,
    ) -> Exec<()> {
        let a = self.operand(st, agg)?;
        let r = Ops::extract(&mut self.pool, &a, off, bits);
        self.set(st, dest, r);
        Ok(())
    }

    pub(crate) fn exec_insertvalue(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        agg: Operand,
        value: Operand,
        off: u32,
    ) -> Exec<()> {
        let a = self.operand(st, agg)?;
        let v = self.operand(st, value)?;
        let r = Ops::insert(&mut self.pool, &a, &v, off);
        self.set(st, dest, r);
        Ok(())
    }

    fn vector_index(&mut self, st: &mut State, index: Operand, len: u32) -> Exec<u32> {
        let i = self.operand(st, index)?;
        let i = self.concretize(st, &i, "vector index")?.to_u64();
        if i >= len as u64 {
            return Err(Stop::error(
                ErrorKind::Ptr,
                format!("vector index {i} out of bounds ({len} elements)"),
            ));
        }
        Ok(i as u32)
    }

    pub(crate) fn exec_extractelement(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        vector: Operand,
        index: Operand,
        elem_bits: u32,
        len: u32,
    ) -> Exec<()> {
        let v = self.operand(st, vector)?;
        let i = self.vector_index(st, index, len)?;
        let r = Ops::extract(&mut self.pool, &v, i * elem_bits, elem_bits);
        self.set(st, dest, r);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn exec_insertelement(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        vector: Operand,
        value: Operand,
        index: Operand,
        elem_bits: u32,
        len: u32,
    ) -> Exec<()> {
        let v = self.operand(st, vector)?;
        let x = self.operand(st, value)?;
        let i = self.vector_index(st, index, len)?;
        let r = Ops::insert(&mut self.pool, &v, &x, i * elem_bits);
        self.set(st, dest, r);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn exec_shuffle(
        &mut self,
        st: &mut State,
        dest: Option<Reg>,
        a: Operand,
        b: Operand,
        mask: &[i32],
        elem_bits: u32,
        in_len: u32,
    ) -> Exec<()> {
        let va = self.operand(st, a)?;
        let vb = self.operand(st, b)?;
        let both = Ops::concat(&mut self.pool, &vb, &va);
        let mut acc: Option<Value> = None;
        for m in mask {
            let elem = if *m < 0 || *m as u32 >= 2 * in_len {
                Value::from_u64(elem_bits, 0)
            } else {
                Ops::extract(&mut self.pool, &both, *m as u32 * elem_bits, elem_bits)
            };
            acc = Some(match acc {
                None => elem,
                Some(lo) => Ops::concat(&mut self.pool, &elem, &lo),
            });
        }
        let r = acc.unwrap_or_else(|| Value::from_u64(1, 0));
        self.set(st, dest, r);
        Ok(())
    }
}
