//! Expression nodes, the hash-consing [`ExprPool`] and its builder API.

use crate::bits::Bits;
use crate::fp::{FpBinOp, FpCmpOp, FpConvOp, FpUnOp};
pub use crate::ops::{BinOp, CmpOp};
use crate::rewrite;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

/// Handle of an expression in an [`ExprPool`]. Equal expressions built in
/// the same pool have the same id (hash-consing).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ExprId(u32);

impl ExprId {
    /// The raw index into the pool's arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Handle of a symbolic byte array registered in an [`ExprPool`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArrayId(u32);

impl ArrayId {
    /// The raw index into [`ExprPool::arrays`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A symbolic byte array: index domain 32 bits, range 8 bits.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ArrayInfo {
    /// Unique name (the pool appends `_N` to a name already taken).
    pub name: String,
    /// Number of meaningful bytes (model size).
    pub size: u32,
}

/// One expression node. Children are ids in the same pool.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    /// A constant bit-vector.
    Const(Bits),
    /// The root (unmodified) value of a symbolic array; array-sorted.
    Array(ArrayId),
    /// `array` with byte `index` (width 32) replaced by `value` (width 8);
    /// array-sorted.
    Store {
        /// Array-sorted base.
        array: ExprId,
        /// 32-bit index.
        index: ExprId,
        /// 8-bit value.
        value: ExprId,
    },
    /// Byte `index` (width 32) of the array-sorted `array`; width 8.
    Select {
        /// Array-sorted base.
        array: ExprId,
        /// 32-bit index.
        index: ExprId,
    },
    /// Bitwise complement.
    Not(ExprId),
    /// Binary operator.
    Bin(BinOp, ExprId, ExprId),
    /// Comparison; width 1.
    Cmp(CmpOp, ExprId, ExprId),
    /// If-then-else: (width-1 condition, then, else).
    Ite(ExprId, ExprId, ExprId),
    /// Concatenation (hi, lo).
    Concat(ExprId, ExprId),
    /// Bits `lo .. lo + width` of `expr`.
    Extract {
        /// Operand.
        expr: ExprId,
        /// Lowest extracted bit.
        lo: u32,
        /// Result width.
        width: u32,
    },
    /// Zero-extension to the given width.
    ZExt(ExprId, u32),
    /// Sign-extension to the given width.
    SExt(ExprId, u32),
    /// Floating-point arithmetic on IEEE bit patterns (width 32 or 64).
    FBin(FpBinOp, ExprId, ExprId),
    /// Floating-point unary operator (width 32 or 64).
    FUn(FpUnOp, ExprId),
    /// Fused multiply-add `a * b + c` (width 32 or 64).
    FFma(ExprId, ExprId, ExprId),
    /// Ordered floating-point comparison; width 1.
    FCmp(FpCmpOp, ExprId, ExprId),
    /// Conversion from or to floating point, giving the given width.
    FConv(FpConvOp, ExprId, u32),
}

impl Node {
    /// The child expression ids, in operand order.
    pub fn children(&self) -> SmallVec<[ExprId; 3]> {
        let mut v = SmallVec::new();
        match *self {
            Node::Const(_) | Node::Array(_) => {}
            Node::Store {
                array,
                index,
                value,
            } => v.extend([array, index, value]),
            Node::Select { array, index } => v.extend([array, index]),
            Node::Not(a)
            | Node::ZExt(a, _)
            | Node::SExt(a, _)
            | Node::FUn(_, a)
            | Node::FConv(_, a, _) => v.push(a),
            Node::Extract { expr, .. } => v.push(expr),
            Node::Bin(_, a, b)
            | Node::Cmp(_, a, b)
            | Node::Concat(a, b)
            | Node::FBin(_, a, b)
            | Node::FCmp(_, a, b) => v.extend([a, b]),
            Node::Ite(c, t, e) | Node::FFma(c, t, e) => v.extend([c, t, e]),
        }
        v
    }
}

/// Arena of hash-consed expressions plus the registered symbolic arrays.
///
/// Builders apply constant folding and the rewrites of the `rewrite`
/// module unless simplification is turned off with
/// [`ExprPool::set_simplify`] (then only hash-consing is done).
///
/// Each pool (and each clone) has a process-unique [`ExprPool::uid`], so
/// caches keyed by [`ExprId`] (e.g. in solvers) can tell pools apart.
#[derive(Debug)]
pub struct ExprPool {
    uid: u64,
    nodes: Vec<Node>,
    widths: Vec<u32>,
    /// Per node: index into `array_sets` of the arrays it reads.
    node_arrays: Vec<u32>,
    /// Per node: its depth (see [`ExprPool::depth`]), saturating.
    depths: Vec<u16>,
    array_sets: Vec<Box<[ArrayId]>>,
    array_set_ids: FxHashMap<Box<[ArrayId]>, u32>,
    memo: FxHashMap<Node, ExprId>,
    arrays: Vec<ArrayInfo>,
    array_roots: Vec<ExprId>,
    array_names: FxHashMap<String, u32>,
    /// Roots of constant contents flushed into arrays, by name and bytes
    /// ([`ExprPool::constant_root`]).
    constant_roots: FxHashMap<(Box<str>, Box<[u8]>), ArrayId>,
    simplify: bool,
}

static NEXT_POOL_UID: AtomicU64 = AtomicU64::new(1);

fn fresh_uid() -> u64 {
    NEXT_POOL_UID.fetch_add(1, AtomicOrdering::Relaxed)
}

impl Clone for ExprPool {
    /// A copy with a fresh [`ExprPool::uid`] (ids stay valid in the copy).
    fn clone(&self) -> Self {
        ExprPool {
            uid: fresh_uid(),
            nodes: self.nodes.clone(),
            widths: self.widths.clone(),
            node_arrays: self.node_arrays.clone(),
            depths: self.depths.clone(),
            array_sets: self.array_sets.clone(),
            array_set_ids: self.array_set_ids.clone(),
            memo: self.memo.clone(),
            arrays: self.arrays.clone(),
            array_roots: self.array_roots.clone(),
            array_names: self.array_names.clone(),
            constant_roots: self.constant_roots.clone(),
            simplify: self.simplify,
        }
    }
}

impl Default for ExprPool {
    fn default() -> Self {
        ExprPool::new()
    }
}

impl ExprPool {
    /// An empty pool with simplification enabled.
    pub fn new() -> ExprPool {
        let mut array_set_ids = FxHashMap::default();
        array_set_ids.insert(Box::<[ArrayId]>::from([]), 0);
        ExprPool {
            uid: fresh_uid(),
            nodes: Vec::new(),
            widths: Vec::new(),
            node_arrays: Vec::new(),
            depths: Vec::new(),
            array_sets: vec![Box::from([])],
            array_set_ids,
            memo: FxHashMap::default(),
            arrays: Vec::new(),
            array_roots: Vec::new(),
            array_names: FxHashMap::default(),
            constant_roots: FxHashMap::default(),
            simplify: true,
        }
    }

    /// An empty pool that only hash-conses (no folding or rewrites).
    pub fn new_unsimplified() -> ExprPool {
        let mut p = ExprPool::new();
        p.simplify = false;
        p
    }

    /// Process-unique identity of this pool (a clone gets a new one).
    pub fn uid(&self) -> u64 {
        self.uid
    }

    /// Turns folding and rewrites on or off for subsequent constructions.
    pub fn set_simplify(&mut self, on: bool) {
        self.simplify = on;
    }

    /// Whether builders fold and rewrite.
    pub fn simplify(&self) -> bool {
        self.simplify
    }

    /// The node of `e`.
    #[inline]
    pub fn node(&self, e: ExprId) -> &Node {
        &self.nodes[e.index()]
    }

    /// Width in bits of `e`; 0 for array-sorted expressions.
    #[inline]
    pub fn width(&self, e: ExprId) -> u32 {
        self.widths[e.index()]
    }

    /// True if `e` is array-sorted (an `Array` or `Store`).
    #[inline]
    pub fn is_array(&self, e: ExprId) -> bool {
        self.widths[e.index()] == 0
    }

    /// The value of `e` if it is a constant node.
    #[inline]
    pub fn as_const(&self, e: ExprId) -> Option<&Bits> {
        match self.node(e) {
            Node::Const(b) => Some(b),
            _ => None,
        }
    }

    /// True if `e` is a constant node.
    #[inline]
    pub fn is_constant(&self, e: ExprId) -> bool {
        matches!(self.node(e), Node::Const(_))
    }

    /// The id of node `index`, if the pool has that many nodes (for ids read
    /// back from a serialized form).
    pub fn id_at(&self, index: usize) -> Option<ExprId> {
        (index < self.nodes.len()).then_some(ExprId(index as u32))
    }

    /// The id of array `index`, if the pool has registered that many arrays.
    pub fn array_at(&self, index: usize) -> Option<ArrayId> {
        (index < self.arrays.len()).then_some(ArrayId(index as u32))
    }

    /// Number of nodes in the pool.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True if the pool has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Inclusive unsigned bounds of the values `e` can take, read off its
    /// structure (no path condition): `x % 5` lies in `0..=4`. Sound; the
    /// width's full range where the structure says nothing. `None` above
    /// 64 bits.
    pub fn unsigned_range(&self, e: ExprId) -> Option<(u64, u64)> {
        crate::range::urange(self, e)
    }

    /// Approximate heap bytes the pool holds (node vectors, memo table, array
    /// sets), for memory accounting.
    pub fn heap_bytes(&self) -> usize {
        let node = std::mem::size_of::<Node>();
        // A hash table entry: key, value and one control byte.
        let memo = self.memo.capacity() * (node + std::mem::size_of::<ExprId>() + 1);
        let sets: usize = self
            .array_sets
            .iter()
            .map(|s| s.len() * std::mem::size_of::<ArrayId>() * 2 + 16)
            .sum();
        self.nodes.capacity() * node
            + self.widths.capacity() * 4
            + self.node_arrays.capacity() * 4
            + self.depths.capacity() * 2
            + memo
            + sets
    }

    /// The longest chain of operations from `e` down to a constant or an
    /// array root, not counting the stores a read walks through (a lookup
    /// table's thousand constant stores add one level, not a thousand):
    /// a store counts its index and value, a read its index and array, and
    /// a read at a symbolic index counts eight levels. Saturates at 65,535.
    /// A digest or checksum of eight input bytes is a hundred and more
    /// deep; a number parsed from ten digits about forty.
    pub fn depth(&self, e: ExprId) -> u32 {
        u32::from(self.depths[e.index()])
    }

    fn depth_of_new_node(&self, node: &Node) -> u16 {
        let d = |e: &ExprId| self.depths[e.index()];
        match node {
            Node::Const(_) | Node::Array(_) => 0,
            // A chain of constant stores stays at depth 1.
            Node::Store {
                array,
                index,
                value,
            } => d(array).max(d(index).max(d(value)).saturating_add(1)),
            // A read at a symbolic index selects among a table's entries:
            // it counts as eight levels (a CRC chains one per input byte).
            Node::Select { array, index } => {
                let step = if self.as_const(*index).is_some() {
                    1
                } else {
                    8
                };
                d(array).max(d(index)).saturating_add(step)
            }
            other => other
                .children()
                .iter()
                .map(d)
                .max()
                .unwrap_or(0)
                .saturating_add(1),
        }
    }

    /// The arrays read by `e`, sorted and deduplicated (cached per node).
    pub fn arrays_in(&self, e: ExprId) -> Vec<ArrayId> {
        self.arrays_in_slice(e).to_vec()
    }

    /// Like [`ExprPool::arrays_in`] without allocating.
    pub fn arrays_in_slice(&self, e: ExprId) -> &[ArrayId] {
        &self.array_sets[self.node_arrays[e.index()] as usize]
    }

    fn array_set_id(&mut self, set: Vec<ArrayId>) -> u32 {
        if let Some(&id) = self.array_set_ids.get(set.as_slice()) {
            return id;
        }
        let id = self.array_sets.len() as u32;
        let set: Box<[ArrayId]> = set.into();
        self.array_sets.push(set.clone());
        self.array_set_ids.insert(set, id);
        id
    }

    fn arrays_of_new_node(&mut self, node: &Node) -> u32 {
        if let Node::Array(a) = node {
            return self.array_set_id(vec![*a]);
        }
        let mut id = 0;
        let mut merged: Option<Vec<ArrayId>> = None;
        for c in node.children() {
            let cid = self.node_arrays[c.index()];
            if cid == 0 || cid == id {
                continue;
            }
            if id == 0 && merged.is_none() {
                id = cid;
                continue;
            }
            let cur = merged.get_or_insert_with(|| self.array_sets[id as usize].to_vec());
            cur.extend_from_slice(&self.array_sets[cid as usize]);
        }
        match merged {
            Some(mut v) => {
                v.sort_unstable();
                v.dedup();
                self.array_set_id(v)
            }
            None => id,
        }
    }

    /// Makes room for `additional` new nodes at once: a caller about to add
    /// millions (one `make_symbolic`) grows the tables once, before it
    /// starts, instead of doubling them as it goes (each doubling holds the
    /// old and the new memo table at once: a jump of resident memory no
    /// check between nodes sees coming).
    pub fn reserve(&mut self, additional: usize) {
        self.nodes.reserve(additional);
        self.widths.reserve(additional);
        self.node_arrays.reserve(additional);
        self.depths.reserve(additional);
        self.memo.reserve(additional);
    }

    /// Bytes [`ExprPool::reserve`] of `additional` nodes allocates at once
    /// for the memo table: a new table, while the old one still lives (0
    /// when the table has room).
    pub fn reserve_bytes(&self, additional: usize) -> usize {
        let need = self.memo.len().saturating_add(additional);
        if need <= self.memo.capacity() {
            return 0;
        }
        let buckets = need.saturating_mul(8).div_ceil(7).next_power_of_two();
        buckets.saturating_mul(std::mem::size_of::<(Node, ExprId)>() + 1)
    }

    /// Returns the id of `node`, adding it if new. `width` is 0 for
    /// array-sorted nodes.
    pub(crate) fn intern(&mut self, node: Node, width: u32) -> ExprId {
        if let Some(&id) = self.memo.get(&node) {
            return id;
        }
        let id = ExprId(u32::try_from(self.nodes.len()).expect("expression pool overflow"));
        let arrs = self.arrays_of_new_node(&node);
        self.node_arrays.push(arrs);
        let depth = self.depth_of_new_node(&node);
        self.depths.push(depth);
        self.widths.push(width);
        self.nodes.push(node.clone());
        self.memo.insert(node, id);
        id
    }

    // ----- leaves -----

    /// The constant `b`.
    pub fn constant(&mut self, b: Bits) -> ExprId {
        let w = b.width();
        self.intern(Node::Const(b), w)
    }

    /// The constant `v` truncated to `width` bits.
    pub fn const_u64(&mut self, width: u32, v: u64) -> ExprId {
        self.constant(Bits::from_u64(width, v))
    }

    /// The 1-bit constant true.
    pub fn true_(&mut self) -> ExprId {
        self.constant(Bits::from_bool(true))
    }

    /// The 1-bit constant false.
    pub fn false_(&mut self) -> ExprId {
        self.constant(Bits::from_bool(false))
    }

    /// The 1-bit constant `b`.
    pub fn bool_const(&mut self, b: bool) -> ExprId {
        self.constant(Bits::from_bool(b))
    }

    /// Registers a new symbolic byte array of `size` bytes.
    pub fn new_array(&mut self, name: &str, size: u32) -> ArrayId {
        let id = ArrayId(self.arrays.len() as u32);
        let mut unique = name.to_string();
        while self.array_names.contains_key(&unique) {
            let n = self.array_names.entry(name.to_string()).or_insert(0);
            *n += 1;
            unique = format!("{name}_{n}");
        }
        self.array_names.insert(unique.clone(), 0);
        self.arrays.push(ArrayInfo { name: unique, size });
        let root = self.intern(Node::Array(id), 0);
        self.array_roots.push(root);
        id
    }

    /// The root for an array whose every byte is then stored with the
    /// constant `bytes` (read-only data read at a symbolic index): one root
    /// per name and contents, so that every state's copy of the same table
    /// is the same expression (and solvers' caches of queries over it are
    /// shared), where [`ExprPool::new_array`] would give each a new one.
    pub fn constant_root(&mut self, name: &str, bytes: &[u8]) -> ArrayId {
        if let Some(&a) = self
            .constant_roots
            .get(&(Box::from(name), Box::from(bytes)))
        {
            return a;
        }
        let a = self.new_array(name, bytes.len() as u32);
        self.constant_roots.insert((name.into(), bytes.into()), a);
        a
    }

    /// Name and size of array `a`.
    pub fn array_info(&self, a: ArrayId) -> &ArrayInfo {
        &self.arrays[a.index()]
    }

    /// All registered arrays, indexed by [`ArrayId`].
    pub fn arrays(&self) -> &[ArrayInfo] {
        &self.arrays
    }

    /// The array-sorted root expression of `a`.
    pub fn array(&self, a: ArrayId) -> ExprId {
        self.array_roots[a.index()]
    }

    // ----- raw constructors (hash-consing only) -----

    pub(crate) fn mk_store(&mut self, array: ExprId, index: ExprId, value: ExprId) -> ExprId {
        self.intern(
            Node::Store {
                array,
                index,
                value,
            },
            0,
        )
    }

    pub(crate) fn mk_select(&mut self, array: ExprId, index: ExprId) -> ExprId {
        self.intern(Node::Select { array, index }, 8)
    }

    pub(crate) fn mk_not(&mut self, a: ExprId) -> ExprId {
        let w = self.width(a);
        self.intern(Node::Not(a), w)
    }

    pub(crate) fn mk_bin(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        self.intern(Node::Bin(op, a, b), w)
    }

    pub(crate) fn mk_cmp(&mut self, op: CmpOp, a: ExprId, b: ExprId) -> ExprId {
        self.intern(Node::Cmp(op, a, b), 1)
    }

    pub(crate) fn mk_ite(&mut self, c: ExprId, t: ExprId, e: ExprId) -> ExprId {
        let w = self.width(t);
        self.intern(Node::Ite(c, t, e), w)
    }

    pub(crate) fn mk_concat(&mut self, hi: ExprId, lo: ExprId) -> ExprId {
        let w = self.width(hi) + self.width(lo);
        self.intern(Node::Concat(hi, lo), w)
    }

    pub(crate) fn mk_extract(&mut self, expr: ExprId, lo: u32, width: u32) -> ExprId {
        self.intern(Node::Extract { expr, lo, width }, width)
    }

    pub(crate) fn mk_zext(&mut self, a: ExprId, w: u32) -> ExprId {
        self.intern(Node::ZExt(a, w), w)
    }

    pub(crate) fn mk_sext(&mut self, a: ExprId, w: u32) -> ExprId {
        self.intern(Node::SExt(a, w), w)
    }

    // ----- public builders -----

    /// `array` with byte `index` (32-bit) set to `value` (8-bit).
    pub fn store(&mut self, array: ExprId, index: ExprId, value: ExprId) -> ExprId {
        debug_assert!(self.is_array(array), "store on a non-array");
        debug_assert_eq!(self.width(index), 32, "store index must be 32 bits");
        debug_assert_eq!(self.width(value), 8, "store value must be 8 bits");
        if self.simplify {
            rewrite::store(self, array, index, value)
        } else {
            self.mk_store(array, index, value)
        }
    }

    /// Byte `index` (32-bit) of the array-sorted `array`.
    pub fn select(&mut self, array: ExprId, index: ExprId) -> ExprId {
        debug_assert!(self.is_array(array), "select on a non-array");
        debug_assert_eq!(self.width(index), 32, "select index must be 32 bits");
        if self.simplify {
            rewrite::select(self, array, index)
        } else {
            self.mk_select(array, index)
        }
    }

    /// Binary operator `a op b` (equal widths).
    pub fn bin(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        debug_assert!(!self.is_array(a) && !self.is_array(b), "bv op on array");
        debug_assert_eq!(self.width(a), self.width(b), "{op:?} width mismatch");
        if self.simplify {
            rewrite::bin(self, op, a, b)
        } else {
            self.mk_bin(op, a, b)
        }
    }

    /// Bitwise complement.
    pub fn not(&mut self, a: ExprId) -> ExprId {
        debug_assert!(!self.is_array(a), "not on array");
        if self.simplify {
            rewrite::not(self, a)
        } else {
            self.mk_not(a)
        }
    }

    /// Two's-complement negation, built as `0 - a`.
    pub fn neg(&mut self, a: ExprId) -> ExprId {
        let z = self.const_u64(self.width(a), 0);
        self.sub(z, a)
    }

    /// Comparison `a op b` (equal widths); width 1.
    pub fn cmp(&mut self, op: CmpOp, a: ExprId, b: ExprId) -> ExprId {
        debug_assert!(!self.is_array(a) && !self.is_array(b), "cmp on array");
        debug_assert_eq!(self.width(a), self.width(b), "{op:?} width mismatch");
        if self.simplify {
            rewrite::cmp(self, op, a, b)
        } else {
            self.mk_cmp(op, a, b)
        }
    }

    /// If-then-else; `c` has width 1, `t` and `e` equal widths.
    pub fn ite(&mut self, c: ExprId, t: ExprId, e: ExprId) -> ExprId {
        debug_assert_eq!(self.width(c), 1, "ite condition must be 1 bit");
        debug_assert_eq!(self.width(t), self.width(e), "ite width mismatch");
        debug_assert!(!self.is_array(t), "ite on arrays is not supported");
        if self.simplify {
            rewrite::ite(self, c, t, e)
        } else {
            self.mk_ite(c, t, e)
        }
    }

    /// Concatenation, `hi` in the high bits.
    pub fn concat(&mut self, hi: ExprId, lo: ExprId) -> ExprId {
        debug_assert!(!self.is_array(hi) && !self.is_array(lo), "concat on array");
        if self.simplify {
            rewrite::concat(self, hi, lo)
        } else {
            self.mk_concat(hi, lo)
        }
    }

    /// Bits `lo .. lo + width` of `e`.
    pub fn extract(&mut self, e: ExprId, lo: u32, width: u32) -> ExprId {
        debug_assert!(!self.is_array(e), "extract on array");
        debug_assert!(width > 0 && lo + width <= self.width(e), "bad extract");
        if self.simplify {
            rewrite::extract(self, e, lo, width)
        } else {
            self.mk_extract(e, lo, width)
        }
    }

    /// Zero-extension to `w` bits (`w >= width(e)`).
    pub fn zext(&mut self, e: ExprId, w: u32) -> ExprId {
        debug_assert!(!self.is_array(e) && w >= self.width(e), "bad zext");
        if self.simplify {
            rewrite::zext(self, e, w)
        } else {
            self.mk_zext(e, w)
        }
    }

    /// Sign-extension to `w` bits (`w >= width(e)`).
    pub fn sext(&mut self, e: ExprId, w: u32) -> ExprId {
        debug_assert!(!self.is_array(e) && w >= self.width(e), "bad sext");
        if self.simplify {
            rewrite::sext(self, e, w)
        } else {
            self.mk_sext(e, w)
        }
    }

    /// Truncation to the low `w` bits.
    pub fn trunc(&mut self, e: ExprId, w: u32) -> ExprId {
        self.extract(e, 0, w)
    }

    /// Zero-extends or truncates `e` to `w` bits.
    pub fn zext_or_trunc(&mut self, e: ExprId, w: u32) -> ExprId {
        if w >= self.width(e) {
            self.zext(e, w)
        } else {
            self.trunc(e, w)
        }
    }

    /// Sign-extends or truncates `e` to `w` bits.
    pub fn sext_or_trunc(&mut self, e: ExprId, w: u32) -> ExprId {
        if w >= self.width(e) {
            self.sext(e, w)
        } else {
            self.trunc(e, w)
        }
    }

    /// Boolean (width-1) conjunction.
    pub fn bool_and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        debug_assert_eq!(self.width(a), 1);
        self.and(a, b)
    }

    /// Boolean (width-1) disjunction.
    pub fn bool_or(&mut self, a: ExprId, b: ExprId) -> ExprId {
        debug_assert_eq!(self.width(a), 1);
        self.or(a, b)
    }

    /// Boolean (width-1) negation.
    pub fn bool_not(&mut self, a: ExprId) -> ExprId {
        debug_assert_eq!(self.width(a), 1);
        self.not(a)
    }

    /// Boolean implication `a -> b`, built as `!a | b`.
    pub fn implies(&mut self, a: ExprId, b: ExprId) -> ExprId {
        let na = self.bool_not(a);
        self.bool_or(na, b)
    }
}
