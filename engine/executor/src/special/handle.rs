use super::{Call, UbsanCheck};
use crate::executor::Executor;
use crate::step::{Exec, Stop};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use symtest_expr::{BinOp, CmpOp};

pub(super) fn make_symbolic(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let (p, n) = (c.arg(0)?, c.arg(1)?);
    let name = ex.read_name(c.st, c.args.get(2));
    ex.make_symbolic(c.st, c.ctx, p, n, &name)
}

pub(super) fn assume(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let cond = ex.nonzero(c.arg(0)?);
    if !ex.may_be_true(c.st, &cond)? {
        return Err(ex.prune_assumption(c.st));
    }
    if let Value::Symbolic(e) = &cond {
        ex.repair_seeds(c.st, *e);
    }
    ex.add_constraint(c.st, &cond);
    Ok(())
}

/// `symtest_range(lo, hi, name)`: a symbolic `int` in `[lo, hi)`.
pub(super) fn range(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    // As KLEE: a one-value range creates no symbolic object.
    if let (Some(Value::Concrete(lo)), Some(Value::Concrete(hi))) = (c.args.first(), c.args.get(1))
    {
        if hi.to_i64().wrapping_sub(lo.to_i64()) == 1 {
            let v = Value::Concrete(lo.clone());
            return c.ret(ex, v);
        }
    }
    let name = ex.read_name(c.st, c.args.get(2));
    let (lo, hi) = (c.arg(0)?, c.arg(1)?);
    let x = ex.fresh_symbolic(c.st, &name, 4);
    let lo = Ops::resize(&mut ex.pool, lo, 32);
    let hi = Ops::resize(&mut ex.pool, hi, 32);
    let ge = Ops::cmp(&mut ex.pool, CmpOp::Sle, &lo, &x);
    let lt = Ops::cmp(&mut ex.pool, CmpOp::Slt, &x, &hi);
    let in_range = Ops::bin(&mut ex.pool, BinOp::And, &ge, &lt);
    if !ex.may_be_true(c.st, &in_range)? {
        // Constant bounds that make an empty range are the harness's
        // error, as KLEE reports it; symbolic ones that cannot hold here
        // are a false assumption (KLEE's klee_range assumes the range).
        if lo.is_concrete() && hi.is_concrete() {
            return Err(Stop::error(ErrorKind::User, "invalid range: empty"));
        }
        return Err(ex.prune_assumption(c.st));
    }
    ex.add_constraint(c.st, &in_range);
    c.ret(ex, x)
}

/// `symtest_int(name)`: a symbolic `int`.
pub(super) fn int(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let name = ex.read_name(c.st, c.args.first());
    let x = ex.fresh_symbolic(c.st, &name, 4);
    c.ret(ex, x)
}

pub(super) fn assert(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let nz = ex.nonzero(c.arg(0)?);
    let bad = Ops::not(&mut ex.pool, &nz);
    ex.check_error(c.st, c.ctx, &bad, ErrorKind::Assert, "assertion failed")
}

pub(super) fn prefer_cex(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    if let Value::Symbolic(e) = ex.nonzero(c.arg(1)?) {
        c.st.preferences.push(e);
    }
    Ok(())
}

pub(super) fn is_symbolic(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = Value::from_u64(32, u64::from(!c.arg(0)?.is_concrete()));
    c.ret(ex, v)
}

pub(super) fn get_value(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    // As KLEE: a value the expression can take; the path is not constrained.
    let b = ex.get_value(c.st, c.arg(0)?)?;
    c.ret(ex, Value::Concrete(b))
}

pub(super) fn silent_exit(_: &mut Executor<'_>, _: &mut Call<'_>) -> Exec<()> {
    Err(Stop::Terminate(Termination::Silent))
}

pub(super) fn report_error(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let msg = ex.read_name(c.st, c.args.get(2));
    if c.args.get(3).is_some() {
        let suffix = ex.read_name(c.st, c.args.get(3));
        c.st.error_suffix = ex.report_suffix(&suffix);
    }
    Err(Stop::error(ErrorKind::User, msg))
}

pub(super) fn abort(_: &mut Executor<'_>, _: &mut Call<'_>) -> Exec<()> {
    Err(Stop::error(ErrorKind::Abort, "abort() called"))
}

pub(super) fn print_expr(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let msg = ex.read_name(c.st, c.args.first());
    let text = match c.args.get(1) {
        Some(Value::Symbolic(e)) => format!("{msg}: {}", ex.pool.display(*e)),
        Some(Value::Concrete(b)) => format!("{msg}: {b}"),
        None => msg,
    };
    ex.sink.event(crate::Event::Print(&text));
    Ok(())
}

pub(super) fn warning(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let msg = ex.read_name(c.st, c.args.first());
    let func = ex.module.function(c.st.frame().func).name.clone();
    ex.warn_once(format!("{func}: {msg}"));
    Ok(())
}

pub(super) fn get_obj_size(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = ex.klee_get_obj_size(c.st, c.arg(0)?)?;
    c.ret(ex, v)
}

pub(super) fn choose(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = ex.klee_choose(c.st, c.ctx, c.arg(0)?)?;
    c.ret(ex, v)
}

pub(super) fn is_replay(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    c.ret(ex, Value::from_u64(32, 0))
}

pub(super) fn mark_global(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    ex.klee_mark_global(c.st, c.arg(0)?)
}

pub(super) fn check_memory_access(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let (p, n) = (c.arg(0)?, c.arg(1)?);
    ex.klee_check_memory_access(c.st, c.ctx, p, n)
}

pub(super) fn set_forking(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let on = ex.concretize(c.st, c.arg(0)?, "klee_set_forking argument")?;
    c.st.forking_disabled = on.to_u64() == 0;
    Ok(())
}

pub(super) fn stack_trace(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    ex.klee_stack_trace(c.st);
    Ok(())
}

pub(super) fn print_range(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let name = ex.read_name(c.st, c.args.first());
    ex.klee_print_range(c.st, &name, c.arg(1)?)
}

pub(super) fn merge(ex: &mut Executor<'_>, _: &mut Call<'_>) -> Exec<()> {
    ex.warn_once(
        "klee_open_merge/klee_close_merge: paths are not merged (state merging is not implemented; KLEE without --use-merge does the same)".into(),
    );
    Ok(())
}

pub(super) fn get_errno(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = ex.klee_get_errno(c.st);
    c.ret(ex, v)
}

pub(super) fn define_fixed_object(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let (p, n) = (c.arg(0)?, c.arg(1)?);
    ex.klee_define_fixed_object(c.st, p, n)
}

pub(super) fn alias_function(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let old = ex.read_name(c.st, c.args.first());
    let new = ex.read_name(c.st, c.args.get(1));
    ex.klee_alias_function(c.st, &old, &new)
}

/// `symtest_expect_output(name, p, n)`: the suite's oracle records the
/// value natively; the engine checks it can be read.
pub(super) fn expect_output(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let (p, n) = (c.arg(1)?, c.arg(2)?);
    ex.klee_check_memory_access(c.st, c.ctx, p, n)
}

/// `symtest_points_into(p, base, size)` (inst/stray.rs).
pub(super) fn points_into(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let (p, base, size) = (c.arg(0)?.clone(), c.arg(1)?.clone(), c.arg(2)?.clone());
    let v = ex.points_into(c.st, &p, &base, &size);
    c.ret(ex, v)
}

pub(super) fn malloc(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let p = ex.malloc(c.st, c.ctx, c.arg(0)?, false)?;
    c.ret(ex, p)
}

/// `__symtest_aligned_malloc(align, size)`: the musl runtime's aligned
/// allocation family (`aligned_alloc`, `posix_memalign`, `memalign`).
pub(super) fn aligned_malloc(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = ex.aligned_malloc(c.st, c.args)?;
    c.ret(ex, v)
}

/// `malloc_usable_size(p)`: the size of the heap object at `p`.
pub(super) fn malloc_usable_size(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = ex.malloc_usable_size(c.st, c.arg(0)?)?;
    c.ret(ex, v)
}

pub(super) fn calloc(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = ex.calloc(c.st, c.ctx, c.args)?;
    c.ret(ex, v)
}

pub(super) fn realloc(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let (p, size) = (c.arg(0)?, c.arg(1)?);
    let slot = crate::special_heap::ResultSlot {
        dest: c.dest,
        bits: c.ret_bits,
    };
    ex.realloc(c.st, c.ctx, p, size, slot)
}

pub(super) fn free(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    ex.free(c.st, c.ctx, c.arg(0)?)
}

pub(super) fn assert_fail(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let text = ex.read_name(c.st, c.args.first());
    Err(Stop::error(
        ErrorKind::Assert,
        format!("assertion failed: {text}"),
    ))
}

/// `__errno_location` when no libc defines it.
pub(super) fn errno_location(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = ex.errno_location(c.st);
    c.ret(ex, v)
}

pub(super) fn exit(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let code = ex.concretize(c.st, c.arg(0)?, "exit status")?;
    Err(Stop::Terminate(Termination::Exit(code.to_i64())))
}

/// POSIX model: `__symtest_host_stat(path, struct stat *)`.
pub(super) fn host_stat(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = ex.host_stat(c.st, c.args)?;
    c.ret(ex, v)
}

/// POSIX model: `__symtest_host_read`.
pub(super) fn host_read(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let v = ex.host_read(c.st, c.args)?;
    c.ret(ex, v)
}

/// POSIX model: `__symtest_model_warning(msg)` (once per message).
pub(super) fn model_warning(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let msg = ex.read_name(c.st, c.args.first());
    ex.warn_once(format!("model: {msg}"));
    Ok(())
}

/// `__symtest_terminated(s)`: accesses past the first NUL of `s` are errors.
pub(super) fn terminated(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    ex.mark_terminated(c.st, c.arg(0)?)
}

/// `__symtest_unsupported(msg)`: a model limitation ends the path.
pub(super) fn unsupported(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let msg = ex.read_name(c.st, c.args.first());
    Err(Stop::error(ErrorKind::Model, msg))
}

/// `__symtest_blocked(msg)`: the program waits for an event nothing in
/// the modelled environment makes (a `poll` without a timeout on an
/// inotify descriptor): the path ends, natively it would not.
pub(super) fn blocked(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let msg = ex.read_name(c.st, c.args.first());
    Err(Stop::Terminate(Termination::Blocked(msg)))
}

/// POSIX model: `__symtest_stdout(buf, n)` records bytes written to fd 1.
pub(super) fn stdout(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let (buf, n) = (c.arg(0)?, c.arg(1)?);
    ex.record_stdout(c.st, buf, n)
}

/// The `setjmp` family: records the continuation.
pub(super) fn setjmp(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    ex.setjmp(c.st, c.dest, c.arg(0)?)?;
    c.ret(ex, Value::from_u64(32, 0))
}

/// The `longjmp` family: resumes a continuation `setjmp` recorded.
pub(super) fn longjmp(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let (buf, val) = (c.arg(0)?, c.arg(1)?);
    ex.longjmp(c.st, buf, val)
}

/// `__ubsan_handle_<check>`: the check failed on this path.
pub(super) fn ubsan(ex: &mut Executor<'_>, c: &mut Call<'_>) -> Exec<()> {
    let check = UbsanCheck::of_handler(symtest_ir::plain_name(&c.func.name));
    Err(ex.ubsan(c.st, check, c.args))
}
