//! `--external-calls all`: a function neither the program nor a linked libc
//! defines, but the host's C library exports, runs natively (native_call.rs)
//! on concrete arguments, as KLEE's external calls do. Symbolic arguments,
//! and symbolic bytes of the objects pointer arguments point into, are
//! concretized (the choice is added to the path condition); the objects are
//! copied to the call and back. Pointers stored inside those objects are not
//! translated (a function that follows them fails, which ends the path with
//! an `external` error), nor is a returned pointer into the host's memory.

use crate::executor::Executor;
use crate::native_call::{self, NativeArg, NativeOutcome};
use crate::state::State;
use crate::step::{Exec, Stop};
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use symtest_expr::Bits;
use symtest_ir::{CallShape, FuncId, Op};

/// `stdin`, `stdout` and `stderr` of a program without a libc hold these
/// values under `--external-calls all`, passed natively as the host's streams.
pub const STDIO_SENTINEL: u64 = 0x0000_00f1_1e00_0000;
/// Objects larger than this are not copied to a native call.
const MAX_COPY: u64 = 64 << 20;

/// The objects copied to a native call: (engine base, bytes) of each.
type Copied = Vec<(u64, Vec<u8>)>;

impl Executor<'_> {
    /// The argument classes of the call being executed.
    fn current_call_shape(&self, st: &State) -> CallShape {
        let f = st.frame();
        match self
            .module
            .function(f.func)
            .body
            .as_ref()
            .and_then(|b| b.insts.get(f.cur as usize))
            .map(|i| &i.op)
        {
            Some(Op::Call { shape, .. }) => *shape,
            _ => CallShape::default(),
        }
    }

    /// Calls the host function at `addr` (`callee`) natively on the
    /// concretized `args`; what it wrote to the objects they point into, and
    /// `errno`, come back to the state.
    pub(crate) fn call_native(
        &mut self,
        st: &mut State,
        callee: FuncId,
        addr: usize,
        args: &[Value],
    ) -> Exec<Option<Value>> {
        let name = symtest_ir::plain_name(&self.module.function(callee).name).to_string();
        let fail = |msg: String| native_failure(&name, msg);
        let shape = self.current_call_shape(st);
        let (native, objects) = self.native_args(st, &name, args, shape)?;
        self.warn_once(format!(
            "calling `{name}` natively (--external-calls all): arguments and the objects they point to are concretized"
        ));
        let buffers: Vec<Vec<u8>> = objects.iter().map(|(_, b)| b.clone()).collect();
        let outcome = native_call::call(addr, &native, &buffers, shape.float_ret).map_err(fail)?;
        let (value, errno, points_into, after) = match outcome {
            NativeOutcome::Failed(msg) => return Err(fail(msg)),
            NativeOutcome::Returned {
                value,
                errno,
                points_into,
                buffers,
            } => (value, errno, points_into, buffers),
        };
        self.copy_back(st, &name, &objects, &after)?;
        let errno_at = self.errno_location(st);
        let errno_base = errno_at.as_concrete().map_or(0, |b| b.to_u64());
        if let Some(c) = st.memory.contents_mut(errno_base) {
            c.write(
                &mut self.pool,
                0,
                4,
                &Value::from_u64(32, errno as u32 as u64),
            );
        }
        if shape.pointer_ret {
            return match points_into {
                Some((k, off)) => Ok(Some(Value::from_u64(64, objects[k].0 + off))),
                None if value == 0 => Ok(Some(Value::from_u64(64, 0))),
                None => Err(fail(format!(
                    "it returned a pointer into the host's memory (0x{value:x}), which the engine cannot follow"
                ))),
            };
        }
        Ok(Some(Value::from_u64(64, value)))
    }

    /// The native call's arguments, concretized in order, and the objects
    /// its pointer arguments point into: (engine base, bytes) of each, once.
    fn native_args(
        &mut self,
        st: &mut State,
        name: &str,
        args: &[Value],
        shape: CallShape,
    ) -> Exec<(Vec<NativeArg>, Copied)> {
        let mut native = Vec::with_capacity(args.len());
        let mut objects: Copied = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let bit = if i < 64 { 1u64 << i } else { 0 };
            let v = self.concretize(
                st,
                a,
                &format!("argument {} of external call `{name}`", i + 1),
            )?;
            if shape.pointer_args & bit != 0 {
                let arg = self.native_pointer(st, name, i, v.to_u64(), &mut objects)?;
                native.push(arg);
            } else if shape.float_args & bit != 0 {
                native.push(NativeArg::Float(v.to_u64()));
            } else {
                native.push(NativeArg::Int(v.to_u64()));
            }
        }
        Ok((native, objects))
    }

    /// Pointer argument `i` (value `p`) of a native call: null, one of the
    /// host's standard streams, or a place in an object copied to the call
    /// (added to `objects` the first time).
    fn native_pointer(
        &mut self,
        st: &mut State,
        name: &str,
        i: usize,
        p: u64,
        objects: &mut Copied,
    ) -> Exec<NativeArg> {
        if p == 0 {
            return Ok(NativeArg::Int(0));
        }
        if (STDIO_SENTINEL..STDIO_SENTINEL + 3).contains(&p) {
            return Ok(NativeArg::Stdio((p - STDIO_SENTINEL) as u8));
        }
        if self.function_at(p).is_some() {
            return Err(native_failure(
                name,
                format!(
                    "argument {} is a function pointer, which cannot be called natively",
                    i + 1
                ),
            ));
        }
        let Some((base, end)) = st
            .memory
            .find_below(p)
            .filter(|e| !e.freed() && p <= e.object.end())
            .map(|e| (e.object.base, e.object.end()))
        else {
            return Err(native_failure(
                name,
                format!("argument {} (0x{p:x}) points to no object", i + 1),
            ));
        };
        if end - base > MAX_COPY {
            return Err(native_failure(
                name,
                format!(
                    "argument {} points into an object of {} bytes (at most {MAX_COPY} are copied)",
                    i + 1,
                    end - base
                ),
            ));
        }
        let buf = match objects.iter().position(|(b, _)| *b == base) {
            Some(k) => k,
            None => {
                let bytes = self.concrete_object(st, base)?;
                objects.push((base, bytes));
                objects.len() - 1
            }
        };
        Ok(NativeArg::Ptr {
            buf,
            offset: p - base,
        })
    }

    /// The bytes a native call changed in the objects copied to it
    /// (`before`, `after`), written back to the state's objects.
    fn copy_back(
        &mut self,
        st: &mut State,
        name: &str,
        objects: &[(u64, Vec<u8>)],
        after: &[Vec<u8>],
    ) -> Exec<()> {
        for ((base, before), after) in objects.iter().zip(after) {
            if before == after {
                continue;
            }
            if st.memory.get(*base).is_some_and(|e| e.contents.read_only) {
                return Err(Stop::error(
                    ErrorKind::ReadOnly,
                    format!("`{name}` wrote to read-only memory"),
                ));
            }
            let c = st.memory.contents_mut(*base).expect("copied above");
            for (i, (b, a)) in before.iter().zip(after).enumerate() {
                if b != a {
                    c.write(&mut self.pool, i, 1, &Value::from_u64(8, u64::from(*a)));
                }
            }
        }
        Ok(())
    }

    /// The bytes of the object at `base`, symbolic ones fixed to the path's
    /// model (and constrained to it).
    fn concrete_object(&mut self, st: &mut State, base: u64) -> Exec<Vec<u8>> {
        let (size, contents) = {
            let e = st.memory.get(base).expect("a live object");
            (e.object.size as usize, e.contents.clone())
        };
        if let Some(b) = contents.concrete_bytes(0, size) {
            return Ok(b.into_owned());
        }
        let mut out = Vec::with_capacity(size);
        for i in 0..size {
            let v = contents.read(&mut self.pool, i, 1);
            let b = match &v {
                Value::Concrete(b) => b.clone(),
                Value::Symbolic(_) => {
                    let b: Bits = self.get_value(st, &v)?;
                    let eq = Ops::cmp(
                        &mut self.pool,
                        symtest_expr::CmpOp::Eq,
                        &v,
                        &Value::Concrete(b.clone()),
                    );
                    self.add_constraint(st, &eq);
                    b
                }
            };
            out.push(b.to_u64() as u8);
        }
        Ok(out)
    }
}

/// A native call of `name` that could not be made, or failed.
fn native_failure(name: &str, msg: String) -> Stop {
    Stop::error(
        ErrorKind::External,
        format!("native call of `{name}`: {msg}"),
    )
}
