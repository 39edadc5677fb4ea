//! Translation of [`ExprPool`] expressions into Bitwuzla terms: sorts,
//! constants, the per-pool memo and the iterative DAG walk (part of the
//! Bitwuzla backend; see the parent module for the design and the safety
//! rules every `unsafe` block here follows).

use super::{BitwuzlaSolver, Owned, Sort, Term, Want};
use crate::lookup::SmallLookup;
use crate::wellformed::{check_sorts, expands, malformed, store_chain_for, table_runs, TableRun};
use crate::SolverError;
use bitwuzla_sys as bz;
use rustc_hash::FxHashMap;
use std::ffi::CString;
use symtest_expr::{BinOp, CmpOp, ExprId, ExprPool, FpCmpOp, FpConvOp, Node};

/// A constant table of at most this many runs is read by range tests on the
/// index (see [`table_runs`]); one of more runs is tabulated over the small
/// value its index is a function of, where there is one (see
/// [`crate::lookup`]).
const FEW_RUNS: usize = 16;

/// Does `n` compute a floating-point value (translated in FP form first)?
pub(super) fn is_fp_valued(n: &Node) -> bool {
    match n {
        Node::FBin(..) | Node::FUn(..) | Node::FFma(..) => true,
        Node::FConv(op, ..) => matches!(
            op,
            FpConvOp::Resize | FpConvOp::FromSInt | FpConvOp::FromUInt
        ),
        _ => false,
    }
}

impl BitwuzlaSolver {
    // All return one owned reference.

    pub(super) fn bv_sort(&mut self, w: u32) -> Sort {
        let tm = self.tm;
        // SAFETY: `tm` is live; `w >= 1` is checked by the caller.
        *self
            .sorts
            .entry(w)
            .or_insert_with(|| unsafe { bz::bitwuzla_mk_bv_sort(tm, w as u64) })
    }

    pub(super) fn arr_sort(&mut self) -> Sort {
        if self.array_sort == 0 {
            let (i, e) = (self.bv_sort(32), self.bv_sort(8));
            // SAFETY: live manager, valid sorts.
            self.array_sort = unsafe { bz::bitwuzla_mk_array_sort(self.tm, i, e) };
        }
        self.array_sort
    }

    pub(super) fn mk1(&self, kind: bz::BitwuzlaKind, a: Term) -> Term {
        // SAFETY: live manager; operands are live terms whose sorts the
        // caller checked for `kind`.
        unsafe { bz::bitwuzla_mk_term1(self.tm, kind, a) }
    }

    pub(super) fn mk2(&self, kind: bz::BitwuzlaKind, a: Term, b: Term) -> Term {
        // SAFETY: as in `mk1`.
        unsafe { bz::bitwuzla_mk_term2(self.tm, kind, a, b) }
    }

    pub(super) fn mk3(&self, kind: bz::BitwuzlaKind, a: Term, b: Term, c: Term) -> Term {
        // SAFETY: as in `mk1`.
        unsafe { bz::bitwuzla_mk_term3(self.tm, kind, a, b, c) }
    }

    /// `select(base, ix)` over a constant table given as runs (see
    /// [`table_runs`]): `ite(lo <= ix <= hi, first + (ix - lo) * step, ...)`
    /// per run, `select(base, ix)` outside them.
    fn table_read(&mut self, runs: &[TableRun], ix: Term, base: Term) -> Term {
        use bz::{
            BITWUZLA_KIND_AND as AND, BITWUZLA_KIND_BV_ADD as ADD, BITWUZLA_KIND_BV_MUL as MUL,
            BITWUZLA_KIND_BV_ULE as ULE, BITWUZLA_KIND_EQUAL as EQ, BITWUZLA_KIND_ITE as ITE,
        };
        // Bits 7..0 of the index, for the runs of consecutive codes.
        let mut low: Option<Owned> = None;
        let mut t = Owned(self.mk2(bz::BITWUZLA_KIND_ARRAY_SELECT, base, ix));
        for r in runs.iter().rev() {
            let lo = Owned(self.bv_u64(32, u64::from(r.lo)));
            let cond = if r.lo == r.hi {
                Owned(self.mk2(EQ, ix, lo.0))
            } else {
                let hi = Owned(self.bv_u64(32, u64::from(r.hi)));
                let above = Owned(self.mk2(ULE, lo.0, ix));
                let below = Owned(self.mk2(ULE, ix, hi.0));
                Owned(self.mk2(AND, above.0, below.0))
            };
            let value = if r.step == 0 || r.lo == r.hi {
                Owned(self.bv_u64(8, u64::from(r.first)))
            } else {
                // first + (ix - lo) * step = low8(ix) * step + (first - lo * step)
                let step = Owned(self.bv_u64(8, u64::from(r.step)));
                let offset = r
                    .first
                    .wrapping_sub(((u64::from(r.lo) % 256 * u64::from(r.step)) % 256) as u8);
                let low = low.get_or_insert_with(|| {
                    // SAFETY: live manager and term; bits 7..0 of a 32-bit index.
                    Owned(unsafe {
                        bz::bitwuzla_mk_term1_indexed2(
                            self.tm,
                            bz::BITWUZLA_KIND_BV_EXTRACT,
                            ix,
                            7,
                            0,
                        )
                    })
                });
                let scaled = Owned(self.mk2(MUL, low.0, step.0));
                let offset = Owned(self.bv_u64(8, u64::from(offset)));
                Owned(self.mk2(ADD, scaled.0, offset.0))
            };
            t = Owned(self.mk3(ITE, cond.0, value.0, t.0));
        }
        let out = t.0;
        std::mem::forget(t);
        out
    }

    /// A constant-table read tabulated over the small value `var` (see
    /// [`crate::lookup`]): an XOR of the columns the low bits of `var - lo`
    /// select when the table is affine over GF(2), else a multiplexer
    /// over those bits.
    fn lookup_read(&mut self, l: &SmallLookup, var: Term) -> Term {
        use bz::{
            BITWUZLA_KIND_BV_SUB as SUB, BITWUZLA_KIND_BV_XOR as XOR, BITWUZLA_KIND_EQUAL as EQ,
            BITWUZLA_KIND_ITE as ITE,
        };
        let sel = if l.lo == 0 {
            Owned(self.copy(var))
        } else {
            // SAFETY: live manager and term.
            let w = unsafe { bz::bitwuzla_term_bv_get_size(var) } as u32;
            let lo = Owned(self.bv_u64(w, l.lo));
            Owned(self.mk2(SUB, var, lo.0))
        };
        let one = Owned(self.bv_u64(1, 1));
        let bits: Vec<Owned> = (0..l.select_bits())
            .map(|b| {
                // SAFETY: live manager/term; `b` is below the selector's width
                // (a range of n values fits ceil(log2 n) bits of the width).
                let bit = Owned(unsafe {
                    bz::bitwuzla_mk_term1_indexed2(
                        self.tm,
                        bz::BITWUZLA_KIND_BV_EXTRACT,
                        sel.0,
                        b as u64,
                        b as u64,
                    )
                });
                Owned(self.mk2(EQ, bit.0, one.0))
            })
            .collect();
        let t = if let Some((c, cols)) = l.affine() {
            let zero = Owned(self.bv_u64(8, 0));
            let mut t = Owned(self.bv_u64(8, u64::from(c)));
            for (b, &col) in cols.iter().enumerate() {
                if col == 0 {
                    continue;
                }
                let col = Owned(self.bv_u64(8, u64::from(col)));
                let picked = Owned(self.mk3(ITE, bits[b].0, col.0, zero.0));
                t = Owned(self.mk2(XOR, t.0, picked.0));
            }
            t
        } else {
            self.mux(l, &bits, bits.len(), 0)
        };
        let out = t.0;
        std::mem::forget(t);
        out
    }

    /// The entries `start..start + 2^level` of `l` selected by the low
    /// `level` bits of the selector.
    fn mux(&mut self, l: &SmallLookup, bits: &[Owned], level: usize, start: usize) -> Owned {
        let first = l.entry(start);
        if (start..start + (1 << level)).all(|k| l.entry(k) == first) {
            return Owned(self.bv_u64(8, u64::from(first)));
        }
        let half = 1 << (level - 1);
        let low = self.mux(l, bits, level - 1, start);
        let high = self.mux(l, bits, level - 1, start + half);
        Owned(self.mk3(bz::BITWUZLA_KIND_ITE, bits[level - 1].0, high.0, low.0))
    }

    pub(super) fn bool_const(&self, b: bool) -> Term {
        // SAFETY: live manager.
        unsafe {
            if b {
                bz::bitwuzla_mk_true(self.tm)
            } else {
                bz::bitwuzla_mk_false(self.tm)
            }
        }
    }

    pub(super) fn bv_const(&mut self, b: &symtest_expr::Bits) -> Term {
        let sort = self.bv_sort(b.width());
        if b.width() <= 64 {
            // SAFETY: live manager and sort; the value fits the width.
            return unsafe { bz::bitwuzla_mk_bv_value_uint64(self.tm, sort, b.to_u64()) };
        }
        let hex = CString::new(b.to_hex()).expect("hex digits contain no NUL");
        // SAFETY: live manager/sort; `hex` is a valid base-16 string of at
        // most `width` bits, alive for the call.
        unsafe { bz::bitwuzla_mk_bv_value(self.tm, sort, hex.as_ptr(), 16) }
    }

    pub(super) fn bv_u64(&mut self, w: u32, v: u64) -> Term {
        let sort = self.bv_sort(w);
        // SAFETY: live manager and sort.
        unsafe { bz::bitwuzla_mk_bv_value_uint64(self.tm, sort, v) }
    }

    pub(super) fn copy(&self, t: Term) -> Term {
        // SAFETY: `t` is a live term; the copy is a new owned reference.
        unsafe { bz::bitwuzla_term_copy(t) }
    }

    // ----- translation -----

    pub(super) fn memo(&self, want: Want) -> &FxHashMap<ExprId, Term> {
        match want {
            Want::Bool => &self.boolean,
            Want::Bv => &self.bv,
            Want::Fp => &self.fp,
        }
    }

    /// Dependencies of translating `id` in form `want`.
    pub(super) fn deps(pool: &ExprPool, id: ExprId, want: Want, out: &mut Vec<(ExprId, Want)>) {
        use Want::{Bool, Bv, Fp};
        match (want, pool.node(id)) {
            (Fp, n) if is_fp_valued(n) => match *n {
                Node::FConv(FpConvOp::FromSInt | FpConvOp::FromUInt, a, _) => out.push((a, Bv)),
                _ => out.extend(n.children().into_iter().map(|c| (c, Fp))),
            },
            (Fp, _) => out.push((id, Bv)),
            (Bool, Node::FCmp(_, a, b)) => out.extend([(*a, Fp), (*b, Fp)]),
            (Bv, n) if is_fp_valued(n) => out.push((id, Fp)),
            (Bv, Node::FConv(_, a, _)) => out.push((*a, Fp)),
            (Bv, Node::FCmp(..)) => out.push((id, Bool)),
            (_, Node::Const(_) | Node::Array(_)) => {}
            (Bool, Node::Cmp(_, a, b)) => out.extend([(*a, Bv), (*b, Bv)]),
            (Bool, Node::Not(a)) => out.push((*a, Bool)),
            (Bool, Node::Bin(BinOp::And | BinOp::Or | BinOp::Xor, a, b)) => {
                out.extend([(*a, Bool), (*b, Bool)])
            }
            (Bool, Node::Ite(c, t, e)) => out.extend([(*c, Bool), (*t, Bool), (*e, Bool)]),
            (Bool, _) => out.push((id, Bv)),
            (Bv, Node::Cmp(..)) => out.push((id, Bool)),
            (Bv, Node::Ite(c, t, e)) => out.extend([(*c, Bool), (*t, Bv), (*e, Bv)]),
            (Bv, &Node::Select { array, index }) if expands(pool, array, index) => {
                let (stores, base) = store_chain_for(pool, array, index);
                out.push((index, Bv));
                out.push((base, Bv));
                for (i, v) in stores {
                    out.extend([(i, Bv), (v, Bv)]);
                }
            }
            (Bv, n) => out.extend(n.children().into_iter().map(|c| (c, Bv))),
        }
    }

    /// The term for `root` in form `want`, translating what is missing.
    pub(super) fn translate(
        &mut self,
        pool: &ExprPool,
        root: ExprId,
        want: Want,
    ) -> Result<Term, SolverError> {
        let mut stack = vec![(root, want, false)];
        let mut deps = Vec::new();
        while let Some((id, w, expanded)) = stack.pop() {
            if self.memo(w).contains_key(&id) {
                continue;
            }
            if expanded {
                let t = self.build(pool, id, w)?;
                match w {
                    Want::Bool => self.boolean.insert(id, t),
                    Want::Bv => self.bv.insert(id, t),
                    Want::Fp => self.fp.insert(id, t),
                };
                continue;
            }
            stack.push((id, w, true));
            deps.clear();
            Self::deps(pool, id, w, &mut deps);
            for &(c, cw) in &deps {
                if !self.memo(cw).contains_key(&c) {
                    stack.push((c, cw, false));
                }
            }
        }
        Ok(self.memo(want)[&root])
    }

    /// Builds `id` in form `want`; its dependencies are memoised.
    pub(super) fn build(
        &mut self,
        pool: &ExprPool,
        id: ExprId,
        want: Want,
    ) -> Result<Term, SolverError> {
        check_sorts(pool, id)?;
        let bv = |s: &Self, e: ExprId| s.bv[&e];
        let bl = |s: &Self, e: ExprId| s.boolean[&e];
        if want == Want::Fp {
            return self.build_fp(pool, id);
        }
        if want == Want::Bv {
            if let Some(t) = self.build_fp_bits(pool, id) {
                return Ok(t);
            }
        }
        if want == Want::Bool {
            return self.build_bool(pool, id);
        }
        Ok(match *pool.node(id) {
            Node::Const(ref b) => self.bv_const(b),
            Node::Array(a) => {
                let sort = self.arr_sort();
                let name = pool.array_info(a).name.replace('\0', "_");
                let name = CString::new(name).expect("NUL bytes were replaced");
                // SAFETY: live manager and array sort; `name` outlives the call.
                unsafe { bz::bitwuzla_mk_const(self.tm, sort, name.as_ptr()) }
            }
            Node::Store {
                array,
                index,
                value,
            } => self.mk3(
                bz::BITWUZLA_KIND_ARRAY_STORE,
                bv(self, array),
                bv(self, index),
                bv(self, value),
            ),
            Node::Select { array, index } if expands(pool, array, index) => {
                self.build_expanded_read(pool, array, index)
            }
            Node::Select { array, index } => self.mk2(
                bz::BITWUZLA_KIND_ARRAY_SELECT,
                bv(self, array),
                bv(self, index),
            ),
            Node::Not(a) => self.mk1(bz::BITWUZLA_KIND_BV_NOT, bv(self, a)),
            Node::Bin(op, a, b) => self.mk2(bin_kind(op), bv(self, a), bv(self, b)),
            Node::Cmp(..) | Node::FCmp(..) => {
                let (one, zero) = (Owned(self.bv_u64(1, 1)), Owned(self.bv_u64(1, 0)));
                self.mk3(bz::BITWUZLA_KIND_ITE, bl(self, id), one.0, zero.0)
            }
            Node::Ite(c, t, e) => {
                self.mk3(bz::BITWUZLA_KIND_ITE, bl(self, c), bv(self, t), bv(self, e))
            }
            Node::Concat(h, l) => self.mk2(bz::BITWUZLA_KIND_BV_CONCAT, bv(self, h), bv(self, l)),
            Node::Extract { expr, lo, width } => {
                let hi = (lo + width - 1) as u64;
                let t = bv(self, expr);
                // SAFETY: live manager/term; `lo <= hi < width(expr)` was
                // checked by `check_sorts`.
                unsafe {
                    bz::bitwuzla_mk_term1_indexed2(
                        self.tm,
                        bz::BITWUZLA_KIND_BV_EXTRACT,
                        t,
                        hi,
                        lo as u64,
                    )
                }
            }
            Node::ZExt(a, w) | Node::SExt(a, w) => {
                let by = (w - pool.width(a)) as u64;
                let t = bv(self, a);
                if by == 0 {
                    self.copy(t)
                } else {
                    let kind = if matches!(pool.node(id), Node::ZExt(..)) {
                        bz::BITWUZLA_KIND_BV_ZERO_EXTEND
                    } else {
                        bz::BITWUZLA_KIND_BV_SIGN_EXTEND
                    };
                    // SAFETY: live manager/term, positive extension amount.
                    unsafe { bz::bitwuzla_mk_term1_indexed1(self.tm, kind, t, by) }
                }
            }
            Node::FBin(..) | Node::FUn(..) | Node::FFma(..) | Node::FConv(..) => {
                unreachable!("floating-point nodes are built by build_fp_bits")
            }
        })
    }

    /// Builds `id` as a Boolean term (its operands are memoised).
    fn build_bool(&mut self, pool: &ExprPool, id: ExprId) -> Result<Term, SolverError> {
        let bv = |s: &Self, e: ExprId| s.bv[&e];
        let bl = |s: &Self, e: ExprId| s.boolean[&e];
        if pool.width(id) != 1 {
            return Err(malformed(id, "Boolean use of a wide expression"));
        }
        Ok(match *pool.node(id) {
            Node::Const(ref b) => self.bool_const(b.is_true()),
            Node::Cmp(op, a, b) => self.mk2(cmp_kind(op), bv(self, a), bv(self, b)),
            Node::FCmp(op, a, b) => {
                let kind = match op {
                    FpCmpOp::Eq => bz::BITWUZLA_KIND_FP_EQUAL,
                    FpCmpOp::Lt => bz::BITWUZLA_KIND_FP_LT,
                    FpCmpOp::Le => bz::BITWUZLA_KIND_FP_LEQ,
                };
                self.mk2(kind, self.fp[&a], self.fp[&b])
            }
            Node::Not(a) => self.mk1(bz::BITWUZLA_KIND_NOT, bl(self, a)),
            Node::Bin(op @ (BinOp::And | BinOp::Or | BinOp::Xor), a, b) => {
                let kind = match op {
                    BinOp::And => bz::BITWUZLA_KIND_AND,
                    BinOp::Or => bz::BITWUZLA_KIND_OR,
                    _ => bz::BITWUZLA_KIND_XOR,
                };
                self.mk2(kind, bl(self, a), bl(self, b))
            }
            Node::Ite(c, t, e) => {
                self.mk3(bz::BITWUZLA_KIND_ITE, bl(self, c), bl(self, t), bl(self, e))
            }
            _ => {
                let one = Owned(self.bv_u64(1, 1));
                self.mk2(bz::BITWUZLA_KIND_EQUAL, bv(self, id), one.0)
            }
        })
    }

    /// Builds a read of `array` at `index` that [`expands`]: a lookup of a
    /// small table, a table of runs, or the read over writes as an `ite`
    /// chain (its operands are memoised).
    fn build_expanded_read(&mut self, pool: &ExprPool, array: ExprId, index: ExprId) -> Term {
        let bv = |s: &Self, e: ExprId| s.bv[&e];
        let (stores, base) = store_chain_for(pool, array, index);
        let runs = table_runs(pool, &stores);
        if runs.as_ref().is_none_or(|r| r.len() > FEW_RUNS) {
            if let Some(l) = crate::lookup::small_lookup(pool, index, &stores) {
                if let Some(&var) = self.bv.get(&l.var) {
                    return self.lookup_read(&l, var);
                }
            }
        }
        if let Some(runs) = runs {
            let (ix, base) = (bv(self, index), bv(self, base));
            return self.table_read(&runs, ix, base);
        }
        // Read over writes: ite(index == i_n, v_n, ite(..., select(base, index))),
        // outermost store first, instead of Bitwuzla's lemmas on demand
        // (one refinement round per lemma on long store chains).
        let ix = bv(self, index);
        let mut t = Owned(self.mk2(bz::BITWUZLA_KIND_ARRAY_SELECT, bv(self, base), ix));
        for &(i, v) in stores.iter().rev() {
            let c = Owned(self.mk2(bz::BITWUZLA_KIND_EQUAL, ix, bv(self, i)));
            t = Owned(self.mk3(bz::BITWUZLA_KIND_ITE, c.0, bv(self, v), t.0));
        }
        let out = t.0;
        std::mem::forget(t);
        out
    }
}

fn bin_kind(op: BinOp) -> bz::BitwuzlaKind {
    match op {
        BinOp::Add => bz::BITWUZLA_KIND_BV_ADD,
        BinOp::Sub => bz::BITWUZLA_KIND_BV_SUB,
        BinOp::Mul => bz::BITWUZLA_KIND_BV_MUL,
        BinOp::UDiv => bz::BITWUZLA_KIND_BV_UDIV,
        BinOp::SDiv => bz::BITWUZLA_KIND_BV_SDIV,
        BinOp::URem => bz::BITWUZLA_KIND_BV_UREM,
        BinOp::SRem => bz::BITWUZLA_KIND_BV_SREM,
        BinOp::And => bz::BITWUZLA_KIND_BV_AND,
        BinOp::Or => bz::BITWUZLA_KIND_BV_OR,
        BinOp::Xor => bz::BITWUZLA_KIND_BV_XOR,
        BinOp::Shl => bz::BITWUZLA_KIND_BV_SHL,
        BinOp::LShr => bz::BITWUZLA_KIND_BV_SHR,
        BinOp::AShr => bz::BITWUZLA_KIND_BV_ASHR,
    }
}

fn cmp_kind(op: CmpOp) -> bz::BitwuzlaKind {
    match op {
        CmpOp::Eq => bz::BITWUZLA_KIND_EQUAL,
        CmpOp::Ult => bz::BITWUZLA_KIND_BV_ULT,
        CmpOp::Ule => bz::BITWUZLA_KIND_BV_ULE,
        CmpOp::Slt => bz::BITWUZLA_KIND_BV_SLT,
        CmpOp::Sle => bz::BITWUZLA_KIND_BV_SLE,
        CmpOp::UAddO => bz::BITWUZLA_KIND_BV_UADD_OVERFLOW,
        CmpOp::SAddO => bz::BITWUZLA_KIND_BV_SADD_OVERFLOW,
        CmpOp::USubO => bz::BITWUZLA_KIND_BV_USUB_OVERFLOW,
        CmpOp::SSubO => bz::BITWUZLA_KIND_BV_SSUB_OVERFLOW,
        CmpOp::UMulO => bz::BITWUZLA_KIND_BV_UMUL_OVERFLOW,
        CmpOp::SMulO => bz::BITWUZLA_KIND_BV_SMUL_OVERFLOW,
    }
}
