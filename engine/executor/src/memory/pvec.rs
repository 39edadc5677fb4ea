//! A persistent vector: a 16-way trie of reference-counted nodes.
//!
//! Cloning is O(1) (the root is shared). `set`, `get_mut` and `push` copy the
//! nodes on the path to the changed element that another vector still shares,
//! and nothing else: one leaf of 16 elements and a few 16-pointer inner nodes,
//! whatever the length. A state's address space is one of these (objects are
//! appended in address order), so a state that writes one object after a fork
//! pays for a leaf and its path, not for a copy of a 64-entry map node per level.

use crate::suspend::wire::{DecodeError, Decoded, Image, Pieces, Reader, Table, Writer};
use std::rc::Rc;

const BITS: u32 = 4;
const WIDTH: usize = 1 << BITS;
const MASK: usize = WIDTH - 1;

#[derive(Clone, Debug)]
enum Node<T> {
    Inner(Vec<Rc<Node<T>>>),
    Leaf(Vec<T>),
}

#[derive(Clone, Debug)]
pub struct PVec<T> {
    root: Option<Rc<Node<T>>>,
    len: usize,
    /// Bits of the index the root's level consumes above the leaf level
    /// (0: the root is a leaf).
    shift: u32,
}

impl<T> Default for PVec<T> {
    fn default() -> Self {
        PVec {
            root: None,
            len: 0,
            shift: 0,
        }
    }
}

/// A node's share of memory for accounting: its address (identity), bytes,
/// and whether another vector holds it too.
#[derive(Clone, Copy, Debug)]
pub struct NodeInfo {
    pub addr: usize,
    pub bytes: usize,
    pub shared: bool,
}

impl<T: Clone> PVec<T> {
    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        let mut node = self.root.as_deref()?;
        let mut shift = self.shift;
        loop {
            match node {
                Node::Inner(ch) => {
                    node = &ch[(i >> shift) & MASK];
                    shift -= BITS;
                }
                Node::Leaf(items) => return items.get(i & MASK),
            }
        }
    }

    pub fn last(&self) -> Option<&T> {
        self.get(self.len.checked_sub(1)?)
    }

    /// Mutable access, copying the shared nodes on the path first.
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i >= self.len {
            return None;
        }
        let mut node = Rc::make_mut(self.root.as_mut()?);
        let mut shift = self.shift;
        loop {
            match node {
                Node::Inner(ch) => {
                    node = Rc::make_mut(&mut ch[(i >> shift) & MASK]);
                    shift -= BITS;
                }
                Node::Leaf(items) => return items.get_mut(i & MASK),
            }
        }
    }

    pub fn push(&mut self, v: T) {
        let i = self.len;
        let Some(root) = self.root.as_mut() else {
            let mut items = Vec::with_capacity(WIDTH);
            items.push(v);
            self.root = Some(Rc::new(Node::Leaf(items)));
            self.len = 1;
            return;
        };
        if i == WIDTH << self.shift {
            // Full: a new root above the old one.
            let old = root.clone();
            *root = Rc::new(Node::Inner(vec![old]));
            self.shift += BITS;
        }
        let mut node = Rc::make_mut(self.root.as_mut().expect("non-empty"));
        let mut shift = self.shift;
        loop {
            match node {
                Node::Inner(ch) => {
                    let k = (i >> shift) & MASK;
                    if k == ch.len() {
                        ch.push(Rc::new(empty_path(shift - BITS)));
                    }
                    node = Rc::make_mut(&mut ch[k]);
                    shift -= BITS;
                }
                Node::Leaf(items) => {
                    items.push(v);
                    break;
                }
            }
        }
        self.len += 1;
    }

    /// Removes and returns the last element, copying the shared nodes on its
    /// path first; emptied nodes are removed and a root left with one child
    /// is replaced by it, so the shape is the one `push` alone would build.
    pub fn pop(&mut self) -> Option<T> {
        fn take<T: Clone>(node: &mut Rc<Node<T>>, i: usize, shift: u32) -> (T, bool) {
            match Rc::make_mut(node) {
                Node::Leaf(items) => {
                    let v = items.pop().expect("the last element");
                    (v, items.is_empty())
                }
                Node::Inner(ch) => {
                    let k = (i >> shift) & MASK;
                    let (v, emptied) = take(&mut ch[k], i, shift - BITS);
                    if emptied {
                        ch.pop();
                    }
                    (v, ch.is_empty())
                }
            }
        }
        let i = self.len.checked_sub(1)?;
        let root = self.root.as_mut()?;
        let (v, emptied) = take(root, i, self.shift);
        self.len = i;
        if emptied {
            self.root = None;
            self.shift = 0;
        }
        while self.shift > 0 {
            let only = match self.root.as_deref() {
                Some(Node::Inner(ch)) if ch.len() == 1 => ch[0].clone(),
                _ => break,
            };
            self.root = Some(only);
            self.shift -= BITS;
        }
        Some(v)
    }

    /// Index of the last element for which `below(element)` holds, given that
    /// it holds for a prefix of the vector (binary search).
    pub fn last_where(&self, below: impl Fn(&T) -> bool) -> Option<usize> {
        let (mut lo, mut hi) = (0usize, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if below(self.get(mid).expect("in range")) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo.checked_sub(1)
    }

    /// The elements in order.
    pub fn iter(&self) -> Iter<'_, T> {
        let mut it = Iter {
            stack: Vec::new(),
            leaf: [].iter(),
        };
        if let Some(r) = &self.root {
            it.descend(r);
        }
        it
    }

    /// Calls `f` for every node with the elements it holds (none for inner
    /// nodes); `f` returns whether to visit the node's children (an accounting
    /// pass skips subtrees it has seen through another vector sharing them).
    pub fn visit_nodes(&self, mut f: impl FnMut(NodeInfo, &[T]) -> bool) {
        fn walk<T>(n: &Rc<Node<T>>, f: &mut impl FnMut(NodeInfo, &[T]) -> bool) {
            let fixed = std::mem::size_of::<Node<T>>() + 2 * std::mem::size_of::<usize>();
            let info = |bytes| NodeInfo {
                addr: Rc::as_ptr(n) as usize,
                bytes: fixed + bytes,
                shared: Rc::strong_count(n) > 1,
            };
            match &**n {
                Node::Inner(ch) => {
                    if f(
                        info(ch.capacity() * std::mem::size_of::<Rc<Node<T>>>()),
                        &[],
                    ) {
                        for c in ch {
                            walk(c, f);
                        }
                    }
                }
                Node::Leaf(items) => {
                    f(info(items.capacity() * std::mem::size_of::<T>()), items);
                }
            }
        }
        if let Some(r) = &self.root {
            walk(r, &mut f);
        }
    }
}

impl<T: Clone + 'static> PVec<T> {
    /// Writes the vector for suspension: each node once per file (`item`
    /// writes one element).
    pub fn encode(
        &self,
        w: &mut Writer,
        t: &mut Table<'_>,
        item: &mut dyn FnMut(&T, &mut Writer, &mut Table<'_>),
    ) {
        fn node<T: Clone + 'static>(
            n: &Rc<Node<T>>,
            w: &mut Writer,
            t: &mut Table<'_>,
            item: &mut dyn FnMut(&T, &mut Writer, &mut Table<'_>),
        ) {
            if t.write(w, n) {
                return;
            }
            match &**n {
                Node::Inner(ch) => {
                    w.u8(0);
                    w.usize(ch.len());
                    for c in ch {
                        node(c, w, t, item);
                    }
                }
                Node::Leaf(items) => {
                    w.u8(1);
                    w.usize(items.len());
                    for x in items {
                        item(x, w, t);
                    }
                }
            }
            t.done(n);
        }
        w.usize(self.len);
        w.u32(self.shift);
        if let Some(r) = &self.root {
            node(r, w, t, item);
        }
    }

    /// Registers every node (and, through `item`, every element's pieces) as
    /// start-image pieces.
    pub fn register(&self, image: &mut Image, item: &mut dyn FnMut(&T, &mut Image)) {
        fn walk<T: Clone + 'static>(
            n: &Rc<Node<T>>,
            image: &mut Image,
            item: &mut dyn FnMut(&T, &mut Image),
        ) {
            image.add(n);
            match &**n {
                Node::Inner(ch) => ch.iter().for_each(|c| walk(c, image, item)),
                Node::Leaf(items) => items.iter().for_each(|x| item(x, image)),
            }
        }
        if let Some(r) = &self.root {
            walk(r, image, item);
        }
    }

    /// Reads what [`PVec::encode`] wrote, checking the trie's shape.
    pub fn decode(
        r: &mut Reader<'_>,
        p: &mut Pieces<'_>,
        item: &mut dyn FnMut(&mut Reader<'_>, &mut Pieces<'_>) -> Decoded<T>,
    ) -> Decoded<PVec<T>> {
        /// The node and the number of elements under it.
        fn node<T: Clone + 'static>(
            shift: u32,
            r: &mut Reader<'_>,
            p: &mut Pieces<'_>,
            item: &mut dyn FnMut(&mut Reader<'_>, &mut Pieces<'_>) -> Decoded<T>,
        ) -> Decoded<(Rc<Node<T>>, usize)> {
            let bad = DecodeError::Invalid("object vector");
            if let Some(n) = p.read::<Node<T>>(r)? {
                let (count, depth) = shape(&n);
                if depth != shift {
                    return Err(bad);
                }
                return Ok((n, count));
            }
            let (n, count) = match (r.u8()?, shift) {
                (0, s) if s > 0 => {
                    let k = r.len(1)?;
                    if k == 0 || k > WIDTH {
                        return Err(bad);
                    }
                    let full = WIDTH << (s - BITS);
                    let mut ch = Vec::with_capacity(k);
                    let mut total = 0;
                    for i in 0..k {
                        let (c, n) = node(s - BITS, r, p, item)?;
                        if i + 1 < k && n != full {
                            return Err(bad);
                        }
                        total += n;
                        ch.push(c);
                    }
                    (Node::Inner(ch), total)
                }
                (1, 0) => {
                    let k = r.len(1)?;
                    if k == 0 || k > WIDTH {
                        return Err(bad);
                    }
                    let mut items = Vec::with_capacity(WIDTH);
                    for _ in 0..k {
                        items.push(item(r, p)?);
                    }
                    (Node::Leaf(items), k)
                }
                _ => return Err(bad),
            };
            Ok((p.done(Rc::new(n)), count))
        }
        /// (elements, shift of the node's level).
        fn shape<T>(n: &Node<T>) -> (usize, u32) {
            match n {
                Node::Inner(ch) => {
                    let mut total = 0;
                    let mut depth = 0;
                    for c in ch {
                        let (k, d) = shape(c);
                        total += k;
                        depth = d + BITS;
                    }
                    (total, depth)
                }
                Node::Leaf(items) => (items.len(), 0),
            }
        }
        let len = r.usize()?;
        let shift = r.u32()?;
        if shift % BITS != 0 || shift > 60 {
            return Err(DecodeError::Invalid("object vector depth"));
        }
        if len == 0 {
            return Ok(PVec::default());
        }
        let (root, n) = node(shift, r, p, item)?;
        if n != len {
            return Err(DecodeError::Invalid("object vector length"));
        }
        Ok(PVec {
            root: Some(root),
            len,
            shift,
        })
    }
}

/// A chain of single-child inner nodes ending in an empty leaf, for `shift`.
fn empty_path<T>(shift: u32) -> Node<T> {
    if shift == 0 {
        Node::Leaf(Vec::with_capacity(WIDTH))
    } else {
        Node::Inner(vec![Rc::new(empty_path(shift - BITS))])
    }
}

pub struct Iter<'a, T> {
    stack: Vec<std::slice::Iter<'a, Rc<Node<T>>>>,
    leaf: std::slice::Iter<'a, T>,
}

impl<'a, T> Iter<'a, T> {
    fn descend(&mut self, mut n: &'a Rc<Node<T>>) {
        loop {
            match &**n {
                Node::Inner(ch) => {
                    let mut it = ch.iter();
                    match it.next() {
                        Some(first) => {
                            self.stack.push(it);
                            n = first;
                        }
                        None => return,
                    }
                }
                Node::Leaf(items) => {
                    self.leaf = items.iter();
                    return;
                }
            }
        }
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        loop {
            if let Some(x) = self.leaf.next() {
                return Some(x);
            }
            let top = self.stack.last_mut()?;
            match top.next() {
                Some(n) => self.descend(n),
                None => {
                    self.stack.pop();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pop_matches_a_vec_and_leaves_the_shape_push_builds() {
        let mut v: PVec<u32> = PVec::default();
        let mut model = Vec::new();
        // Grow and shrink across leaf and level boundaries, with clones held
        // at some points (they must keep their contents).
        let mut snapshots = Vec::new();
        for round in 0..6u32 {
            for i in 0..(300 + round * 40) {
                v.push(i + round);
                model.push(i + round);
            }
            snapshots.push((v.clone(), model.clone()));
            for _ in 0..(280 + round * 30) {
                assert_eq!(v.pop(), model.pop());
            }
            assert_eq!(v.len, model.len());
            assert_eq!(v.iter().copied().collect::<Vec<_>>(), model);
            // The same shape as a vector built by pushes alone.
            let mut fresh = PVec::default();
            model.iter().for_each(|&x| fresh.push(x));
            assert_eq!(v.shift, fresh.shift);
        }
        for (s, m) in snapshots {
            assert_eq!(s.iter().copied().collect::<Vec<_>>(), m);
        }
        while v.pop().is_some() {}
        assert_eq!((v.len, v.shift), (0, 0));
        assert!(v.root.is_none());
        v.push(7);
        assert_eq!(v.get(0), Some(&7));
    }

    #[test]
    fn matches_a_vec_and_clones_share_until_written() {
        let mut v: PVec<u32> = PVec::default();
        let mut model = Vec::new();
        for i in 0..5000u32 {
            v.push(i * 3);
            model.push(i * 3);
            if i % 97 == 0 {
                let snapshot = v.clone();
                let before: Vec<u32> = snapshot.iter().copied().collect();
                let k = (i as usize * 31) % model.len();
                *v.get_mut(k).unwrap() += 1;
                model[k] += 1;
                // The clone kept its contents.
                assert_eq!(snapshot.iter().copied().collect::<Vec<_>>(), before);
            }
        }
        assert_eq!(v.len, model.len());
        assert_eq!(v.iter().copied().collect::<Vec<_>>(), model);
        for (i, x) in model.iter().enumerate() {
            assert_eq!(v.get(i), Some(x));
        }
        assert_eq!(v.get(model.len()), None);
        let sorted: PVec<u32> = {
            let mut s = PVec::default();
            (0..300).for_each(|i| s.push(i * 10));
            s
        };
        assert_eq!(sorted.last_where(|&x| x <= 55), Some(5));
        assert_eq!(sorted.last_where(|&x| x < 5), Some(0));
        assert_eq!(sorted.last_where(|_| false), None);
        assert_eq!(sorted.last_where(|_| true), Some(299));
    }

    #[test]
    fn a_write_after_a_clone_copies_one_path() {
        let mut a: PVec<u64> = PVec::default();
        (0..4096).for_each(|i| a.push(i));
        let mut b = a.clone();
        *b.get_mut(1234).unwrap() = 7;
        let mut seen = std::collections::HashSet::new();
        a.visit_nodes(|n, _| seen.insert(n.addr));
        let mut fresh = 0;
        b.visit_nodes(|n, _| {
            let new = seen.insert(n.addr);
            fresh += new as usize;
            new
        });
        // 4096 elements: three levels (root, inner, leaf) copied, nothing else.
        assert_eq!(fresh, 3);
        assert_eq!(a.get(1234), Some(&1234));
        assert_eq!(b.get(1234), Some(&7));
    }
}
