//! A readable, kquery-like S-expression printer.
//!
//! Examples: `(Add w32 (Read w8 3 input) 1)`, `(Eq 65 (Read w8 5 a))`.
//! Constants print bare where the width is implied by the parent and as
//! `(w8 65)` elsewhere; width-1 constants print as `true`/`false`. Nodes
//! used more than once print as `N<id>:(...)` the first time and `N<id>`
//! afterwards; shared store chains likewise as `U<id>:[...]`. A read from
//! a store chain prints as `(Read w8 idx [i=v, ...] @ name)`, newest store
//! first. `Ite` prints as kquery's `Select`.

use crate::pool::{BinOp, CmpOp, ExprId, ExprPool, Node};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// Displays an expression; see [`ExprPool::display`].
pub struct ExprDisplay<'a> {
    pool: &'a ExprPool,
    root: ExprId,
}

impl ExprPool {
    /// A printable view of `e` (kquery-like S-expression).
    pub fn display(&self, e: ExprId) -> ExprDisplay<'_> {
        ExprDisplay {
            pool: self,
            root: e,
        }
    }
}

fn bin_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "Add",
        BinOp::Sub => "Sub",
        BinOp::Mul => "Mul",
        BinOp::UDiv => "UDiv",
        BinOp::SDiv => "SDiv",
        BinOp::URem => "URem",
        BinOp::SRem => "SRem",
        BinOp::And => "And",
        BinOp::Or => "Or",
        BinOp::Xor => "Xor",
        BinOp::Shl => "Shl",
        BinOp::LShr => "LShr",
        BinOp::AShr => "AShr",
    }
}

fn cmp_name(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "Eq",
        CmpOp::Ult => "Ult",
        CmpOp::Ule => "Ule",
        CmpOp::Slt => "Slt",
        CmpOp::Sle => "Sle",
        CmpOp::UAddO => "UAddO",
        CmpOp::SAddO => "SAddO",
        CmpOp::USubO => "USubO",
        CmpOp::SSubO => "SSubO",
        CmpOp::UMulO => "UMulO",
        CmpOp::SMulO => "SMulO",
    }
}

struct Printer<'a, 'f, 'b> {
    pool: &'a ExprPool,
    f: &'f mut fmt::Formatter<'b>,
    shared: FxHashSet<ExprId>,
    printed: FxHashSet<ExprId>,
}

/// Nodes (other than leaves) referenced more than once from `root`.
fn shared_nodes(pool: &ExprPool, root: ExprId) -> FxHashSet<ExprId> {
    let mut refs: FxHashMap<ExprId, u32> = FxHashMap::default();
    let mut stack = vec![root];
    refs.insert(root, 1);
    while let Some(e) = stack.pop() {
        for c in pool.node(e).children() {
            let n = refs.entry(c).or_insert(0);
            *n += 1;
            if *n == 1 {
                stack.push(c);
            }
        }
    }
    refs.into_iter()
        .filter(|&(e, n)| n > 1 && !matches!(pool.node(e), Node::Const(_) | Node::Array(_)))
        .map(|(e, _)| e)
        .collect()
}

impl Printer<'_, '_, '_> {
    fn expr(&mut self, e: ExprId, typed_const: bool) -> fmt::Result {
        let pool = self.pool;
        if let Node::Const(b) = pool.node(e) {
            return match (b.width(), typed_const) {
                (1, _) => write!(self.f, "{}", if b.is_true() { "true" } else { "false" }),
                (w, true) => write!(self.f, "(w{w} {b})"),
                (_, false) => write!(self.f, "{b}"),
            };
        }
        if self.shared.contains(&e) {
            if !self.printed.insert(e) {
                return write!(self.f, "N{}", e.index());
            }
            write!(self.f, "N{}:", e.index())?;
        }
        let w = pool.width(e);
        match *pool.node(e) {
            Node::Const(_) => unreachable!(),
            Node::Array(_) | Node::Store { .. } => self.array(e),
            Node::Select { array, index } => {
                write!(self.f, "(Read w8 ")?;
                self.expr(index, false)?;
                write!(self.f, " ")?;
                self.array(array)?;
                write!(self.f, ")")
            }
            Node::Not(a) => {
                write!(self.f, "(Not w{w} ")?;
                self.expr(a, false)?;
                write!(self.f, ")")
            }
            Node::Bin(op, a, b) => {
                write!(self.f, "({} w{w} ", bin_name(op))?;
                self.pair(a, b, false)
            }
            Node::Cmp(op, a, b) => {
                write!(self.f, "({} ", cmp_name(op))?;
                let typed = pool.is_constant(a) && pool.is_constant(b);
                self.pair(a, b, typed)
            }
            Node::Ite(c, t, el) => {
                write!(self.f, "(Select w{w} ")?;
                self.expr(c, false)?;
                write!(self.f, " ")?;
                self.pair(t, el, false)
            }
            Node::Concat(h, l) => {
                write!(self.f, "(Concat w{w} ")?;
                self.pair(h, l, true)
            }
            Node::Extract { expr, lo, width } => {
                write!(self.f, "(Extract w{width} {lo} ")?;
                self.expr(expr, true)?;
                write!(self.f, ")")
            }
            Node::ZExt(a, _) | Node::SExt(a, _) => {
                let name = if matches!(pool.node(e), Node::ZExt(..)) {
                    "ZExt"
                } else {
                    "SExt"
                };
                write!(self.f, "({name} w{w} ")?;
                self.expr(a, true)?;
                write!(self.f, ")")
            }
            Node::FBin(op, a, b) => {
                write!(self.f, "(F{op:?} w{w} ")?;
                self.pair(a, b, true)
            }
            Node::FCmp(op, a, b) => {
                write!(self.f, "(FO{op:?} ")?;
                self.pair(a, b, true)
            }
            Node::FUn(op, a) => {
                write!(self.f, "(F{op:?} w{w} ")?;
                self.expr(a, true)?;
                write!(self.f, ")")
            }
            Node::FConv(op, a, _) => {
                write!(self.f, "(F{op:?} w{w} ")?;
                self.expr(a, true)?;
                write!(self.f, ")")
            }
            Node::FFma(a, b, c) => {
                write!(self.f, "(FFma w{w} ")?;
                self.expr(a, true)?;
                write!(self.f, " ")?;
                self.pair(b, c, true)
            }
        }
    }

    fn pair(&mut self, a: ExprId, b: ExprId, typed: bool) -> fmt::Result {
        self.expr(a, typed)?;
        write!(self.f, " ")?;
        self.expr(b, typed)?;
        write!(self.f, ")")
    }

    /// Prints an array-sorted expression: `name` or `[i=v, ...] @ rest`.
    fn array(&mut self, mut cur: ExprId) -> fmt::Result {
        loop {
            if let Node::Array(a) = *self.pool.node(cur) {
                return write!(self.f, "{}", self.pool.array_info(a).name);
            }
            if self.shared.contains(&cur) {
                if !self.printed.insert(cur) {
                    return write!(self.f, "U{}", cur.index());
                }
                write!(self.f, "U{}:", cur.index())?;
            }
            write!(self.f, "[")?;
            let mut first = true;
            while let Node::Store {
                array,
                index,
                value,
            } = *self.pool.node(cur)
            {
                if !first {
                    if self.shared.contains(&cur) {
                        break;
                    }
                    write!(self.f, ", ")?;
                }
                first = false;
                self.expr(index, false)?;
                write!(self.f, "=")?;
                self.expr(value, false)?;
                cur = array;
            }
            write!(self.f, "] @ ")?;
        }
    }
}

impl fmt::Display for ExprDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shared = shared_nodes(self.pool, self.root);
        let mut p = Printer {
            pool: self.pool,
            f,
            shared,
            printed: FxHashSet::default(),
        };
        p.expr(self.root, true)
    }
}
