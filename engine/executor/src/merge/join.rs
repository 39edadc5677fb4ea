//! The merge of two states that stand at the same place (state merging,
//! Kuznetsov et al., PLDI 2012): the path condition becomes the common
//! prefix and `rest_a ∨ rest_b`, every register and memory byte that differs
//! becomes `ite(rest_a, a's value, b's value)`.
//!
//! Sound only when the two paths' conditions exclude each other (then each
//! input satisfying the merged condition takes exactly one of them, and the
//! merged values are that path's values), so the merge needs a structural
//! witness of it: a constraint of one path whose negation the other holds,
//! or an expression the two paths fix to different constants.

use crate::memory::{AddressSpace, ObjectState};
use crate::state::{Frame, Slot, State};
use crate::value::{Ops, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;
use symtest_expr::{BinOp, ExprId, ExprPool};

/// What a merge may cost (the query-cost estimate): values that differ
/// become `ite`s every later query over them carries, and the parts of the
/// path conditions past their common prefix a disjunction every later query
/// carries, so the merge is made only when few values differ, none of them
/// becomes deep, and the paths parted recently. (Loose enough that the
/// states a loop over the input forks merge again at its head, so its later
/// iterations run once for them all; tight enough that no merged value or
/// disjunction makes the later queries cost more than the paths it saves.)
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Registers and memory bytes that may differ.
    pub max_diffs: usize,
    /// Depth (`ExprPool::depth`) a merged value may have.
    pub max_depth: u32,
    /// Constraints either path may have past the common prefix: paths that
    /// parted long ago join into a disjunction every later query carries.
    pub max_rest: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_diffs: 16,
            max_depth: 64,
            max_rest: 8,
        }
    }
}

/// Why two states were not merged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Different stacks, symbolic inputs, output or engine state.
    Shape,
    /// Different objects (addresses, sizes, kinds) or allocation point.
    Objects,
    /// The path conditions do not provably exclude each other.
    NotDisjoint,
    /// More values differ, or a merged value is deeper, than [`Limits`] allow.
    Cost,
}

fn same_frame(a: &Frame, b: &Frame) -> bool {
    a.func == b.func
        && a.block == b.block
        && a.pc == b.pc
        && a.cur == b.cur
        && a.ret_dest == b.ret_dest
        && a.allocas == b.allocas
        && a.varargs == b.varargs
        && a.regs.len() == b.regs.len()
}

fn same_slot(a: &Slot, b: &Slot) -> bool {
    match (a, b) {
        (Slot::Undef, _) | (_, Slot::Undef) => true,
        (Slot::Small { width, bits }, Slot::Small { width: w, bits: x }) => width == w && bits == x,
        (Slot::Sym(x), Slot::Sym(y)) => x == y,
        (Slot::Wide(x), Slot::Wide(y)) => x == y,
        _ => false,
    }
}

/// Everything but registers, memory and the path condition agrees.
fn same_shape(a: &State, b: &State) -> bool {
    let symbolics = Rc::ptr_eq(&a.symbolics, &b.symbolics)
        || (a.symbolics.len() == b.symbolics.len()
            && a.symbolics
                .iter()
                .zip(b.symbolics.iter())
                .all(|(x, y)| x.array == y.array && x.size == y.size && x.name == y.name));
    let jumps = a.jmp_targets.len() == b.jmp_targets.len()
        && a.jmp_targets.iter().zip(&b.jmp_targets).all(|(x, y)| {
            (x.depth, x.func, x.block, x.prev_block, x.pc, x.dest)
                == (y.depth, y.func, y.block, y.prev_block, y.pc, y.dest)
        });
    let terminated = a.terminated.len() == b.terminated.len()
        && a.terminated
            .iter()
            .zip(&b.terminated)
            .all(|(x, y)| x.base == y.base && Rc::ptr_eq(&x.bytes, &y.bytes));
    let argv = match (&a.argv, &b.argv) {
        (None, None) => true,
        (Some(x), Some(y)) => x == y,
        _ => false,
    };
    let cross = argv
        && match (&a.cross, &b.cross) {
            (None, None) => true,
            (Some(x), Some(y)) => x.same_as(y),
            _ => false,
        };
    cross
        && a.stack.len() == b.stack.len()
        && a.stack.iter().zip(&b.stack).all(|(x, y)| same_frame(x, y))
        && symbolics
        && jumps
        && terminated
        && a.stdout.same_as(&b.stdout)
        && a.seeds.is_empty()
        && b.seeds.is_empty()
        && a.forking_disabled == b.forking_disabled
        && a.aliases == b.aliases
        && a.errno_obj == b.errno_obj
        && a.error_suffix.is_none()
        && b.error_suffix.is_none()
}

/// Is there a structural witness that `ra` and `rb` (with the equalities
/// each path states) cannot hold together?
fn disjoint(
    pool: &mut ExprPool,
    ra: &[ExprId],
    rb: &[ExprId],
    eqa: &[(ExprId, ExprId)],
    eqb: &[(ExprId, ExprId)],
) -> bool {
    let sa: FxHashSet<ExprId> = ra.iter().copied().collect();
    let sb: FxHashSet<ExprId> = rb.iter().copied().collect();
    for &y in rb {
        let ny = pool.not(y);
        if sa.contains(&ny) {
            return true;
        }
    }
    for &x in ra {
        let nx = pool.not(x);
        if sb.contains(&nx) {
            return true;
        }
    }
    let fixed: FxHashMap<ExprId, ExprId> = eqa.iter().copied().collect();
    eqb.iter()
        .any(|(x, k)| fixed.get(x).is_some_and(|ka| ka != k))
}

fn conjunction(pool: &mut ExprPool, cs: &[ExprId]) -> ExprId {
    let mut acc = pool.true_();
    for &c in cs {
        acc = pool.bin(BinOp::And, acc, c);
    }
    acc
}

/// One differing memory object: its base and the offsets that differ.
struct ObjectDiff {
    base: u64,
    offsets: Vec<usize>,
}

/// Offsets at which the two address spaces' objects differ; `Err` when the
/// objects themselves differ, or too many bytes do.
fn memory_diffs(
    pool: &mut ExprPool,
    a: &AddressSpace,
    b: &AddressSpace,
    budget: usize,
) -> Result<Vec<ObjectDiff>, Refusal> {
    if a.next_addresses() != b.next_addresses() {
        return Err(Refusal::Objects);
    }
    let mut out = Vec::new();
    let mut left = budget;
    let (mut ia, mut ib) = (a.entries(), b.entries());
    loop {
        let (x, y) = match (ia.next(), ib.next()) {
            (None, None) => break,
            (Some(x), Some(y)) => (x, y),
            _ => return Err(Refusal::Objects),
        };
        let (ox, oy) = (&x.object, &y.object);
        if !Rc::ptr_eq(ox, oy) && (ox.base, ox.size, ox.kind) != (oy.base, oy.size, oy.kind) {
            return Err(Refusal::Objects);
        }
        if Rc::ptr_eq(&x.contents, &y.contents) {
            continue;
        }
        let Some(offsets) = x.contents.differing_bytes(&y.contents, pool, left) else {
            return Err(Refusal::Cost);
        };
        if !offsets.is_empty() {
            left -= offsets.len();
            out.push(ObjectDiff {
                base: ox.base,
                offsets,
            });
        }
    }
    Ok(out)
}

/// The elements of `a` that `b` holds too, in `a`'s order.
fn common<T: Clone + Eq + std::hash::Hash>(a: &[T], b: &[T]) -> Vec<T> {
    let sb: FxHashSet<&T> = b.iter().collect();
    a.iter().filter(|x| sb.contains(x)).cloned().collect()
}

/// `a` and `b` merged into one state with `a`'s identity (id, process-tree
/// node, model: `a`'s model satisfies the merged path condition), or why not.
/// The caller deals with coverage neither path's test has recorded yet.
pub fn merge(pool: &mut ExprPool, a: &State, b: &State, limits: Limits) -> Result<State, Refusal> {
    if !same_shape(a, b) {
        return Err(Refusal::Shape);
    }
    // Path conditions: common prefix, and the parts that must exclude each other.
    let (va, vb) = (a.constraints.to_vec(), b.constraints.to_vec());
    let p = va.iter().zip(&vb).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&va[p..], &vb[p..]);
    let (eqa, eqb) = (a.equalities.to_vec(), b.equalities.to_vec());
    if ra.len().max(rb.len()) > limits.max_rest {
        return Err(Refusal::Cost);
    }
    if ra.is_empty() || rb.is_empty() || !disjoint(pool, ra, rb, &eqa, &eqb) {
        return Err(Refusal::NotDisjoint);
    }
    // Registers that differ: (frame, register).
    let mut regs: Vec<(usize, usize)> = Vec::new();
    for (i, (fa, fb)) in a.stack.iter().zip(&b.stack).enumerate() {
        if Rc::ptr_eq(fa, fb) {
            continue;
        }
        for (r, (x, y)) in fa.regs.iter().zip(fb.regs.iter()).enumerate() {
            if !same_slot(x, y) {
                regs.push((i, r));
            }
        }
    }
    if regs.len() > limits.max_diffs {
        return Err(Refusal::Cost);
    }
    let objects = memory_diffs(pool, &a.memory, &b.memory, limits.max_diffs - regs.len())?;
    let ca = conjunction(pool, ra);
    let cb = conjunction(pool, rb);
    let cond = Value::Symbolic(ca);
    let mut m = a.clone();
    for (i, r) in regs {
        let (Some(x), Some(y)) = (a.stack[i].regs[r].value(), b.stack[i].regs[r].value()) else {
            continue;
        };
        let v = Ops::ite(pool, &cond, &x, &y);
        if let Value::Symbolic(e) = v {
            if pool.depth(e) > limits.max_depth {
                return Err(Refusal::Cost);
            }
        }
        Rc::make_mut(&mut m.stack[i]).regs.set(r, Slot::of(v));
    }
    // `Undef` in `a` where `b` has a value: the value (no path reads a
    // register its blocks did not define, so either is right).
    for (fm, fb) in m.stack.iter_mut().zip(&b.stack) {
        let fill: Vec<usize> = fm
            .regs
            .iter()
            .zip(fb.regs.iter())
            .enumerate()
            .filter(|(_, (x, y))| matches!(x, Slot::Undef) && !matches!(y, Slot::Undef))
            .map(|(r, _)| r)
            .collect();
        if !fill.is_empty() {
            let f = Rc::make_mut(fm);
            for r in fill {
                f.regs.set(r, fb.regs[r].clone());
            }
        }
    }
    for d in &objects {
        let other: &ObjectState = &b.memory.get(d.base).expect("compared").contents;
        let other = other.clone();
        let mine = m.memory.contents_mut(d.base).expect("compared");
        mine.merge_bytes(&other, pool, &d.offsets, ca);
        if mine.max_depth_at(pool, &d.offsets) > limits.max_depth {
            return Err(Refusal::Cost);
        }
    }
    let mut pc: Vec<ExprId> = va[..p].to_vec();
    pc.push(pool.bin(BinOp::Or, ca, cb));
    m.constraints.replace_with(&pc);
    m.equalities.replace_with(&common(&eqa, &eqb));
    m.preferences
        .replace_with(&common(&a.preferences.to_vec(), &b.preferences.to_vec()));
    for (t, u) in m.terminated.iter_mut().zip(&b.terminated) {
        t.proven = t.proven.min(u.proven);
    }
    m.depth = a.depth.max(b.depth);
    m.instructions = a.instructions.max(b.instructions);
    m.last_new_cover = a.last_new_cover.max(b.last_new_cover);
    m.last_new_cover_global = a.last_new_cover_global.max(b.last_new_cover_global);
    m.query_cost_us = a.query_cost_us + b.query_cost_us;
    m.forks = a.forks.max(b.forks);
    if m.model.is_none() {
        m.model = b.model.clone();
    }
    Ok(m)
}
