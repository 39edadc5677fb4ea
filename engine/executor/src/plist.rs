//! A persistent append-only list: forked states share every element added
//! before the fork, and each side's later elements are its own.
//!
//! Path conditions are this: a fork adds one constraint to each side, so a
//! state pays for the constraints it added itself, not for a copy of the
//! whole path condition.

use crate::suspend::wire::{encode_chain, DecodeError, Decoded, Pieces, Reader, Table, Writer};
use std::rc::Rc;

#[derive(Debug)]
struct Node<T> {
    item: T,
    next: Option<Rc<Node<T>>>,
}

/// Newest element first internally; [`PList::to_vec`] and [`PList::iter`]
/// give the elements oldest first.
#[derive(Debug)]
pub struct PList<T> {
    head: Option<Rc<Node<T>>>,
    len: usize,
}

impl<T> Clone for PList<T> {
    fn clone(&self) -> Self {
        PList {
            head: self.head.clone(),
            len: self.len,
        }
    }
}

impl<T> Default for PList<T> {
    fn default() -> Self {
        PList { head: None, len: 0 }
    }
}

impl<T> Drop for PList<T> {
    /// Iterative, so dropping a long unshared list cannot overflow the stack.
    fn drop(&mut self) {
        let mut cur = self.head.take();
        while let Some(node) = cur {
            match Rc::try_unwrap(node) {
                Ok(mut n) => cur = n.next.take(),
                Err(_) => break,
            }
        }
    }
}

impl<T: Clone> PList<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, item: T) {
        let next = self.head.take();
        self.head = Some(Rc::new(Node { item, next }));
        self.len += 1;
    }

    /// Newest first.
    fn newest_first(&self) -> impl Iterator<Item = &Node<T>> {
        std::iter::successors(self.head.as_deref(), |n| n.next.as_deref())
    }

    /// The elements, oldest first.
    pub fn to_vec(&self) -> Vec<T> {
        let mut v: Vec<T> = self.newest_first().map(|n| n.item.clone()).collect();
        v.reverse();
        v
    }

    /// The elements, oldest first.
    pub fn iter(&self) -> std::vec::IntoIter<T> {
        self.to_vec().into_iter()
    }

    /// The list of the oldest `n` elements (sharing their nodes).
    fn prefix(&self, n: usize) -> PList<T> {
        let mut cur = self.head.clone();
        for _ in n..self.len {
            cur = cur.and_then(|node| node.next.clone());
        }
        PList { head: cur, len: n }
    }

    /// Replaces the elements by `items` (oldest first), keeping the nodes of
    /// the longest unchanged prefix shared.
    pub fn replace_with(&mut self, items: &[T])
    where
        T: PartialEq,
    {
        let old = self.to_vec();
        let same = old.iter().zip(items).take_while(|(a, b)| a == b).count();
        if same == old.len() && same == items.len() {
            return;
        }
        let mut list = self.prefix(same);
        for x in &items[same..] {
            list.push(x.clone());
        }
        *self = list;
    }

    /// Calls `f` with the address of each node and whether another list
    /// holds it too, newest first, while `f` returns true (memory accounting:
    /// a node seen through another list is shared from there on).
    pub fn visit_nodes(&self, mut f: impl FnMut(usize, bool) -> bool) {
        let mut cur = self.head.as_ref();
        while let Some(n) = cur {
            if !f(Rc::as_ptr(n) as usize, Rc::strong_count(n) > 1) {
                break;
            }
            cur = n.next.as_ref();
        }
    }

    /// Bytes of one node.
    pub const NODE_BYTES: usize = std::mem::size_of::<Node<T>>() + 2 * std::mem::size_of::<usize>();
}

impl<T: Clone + 'static> PList<T> {
    /// Writes the list for suspension: the nodes not yet in the file (oldest
    /// first, `item` writes one element) on top of the rest, referred to.
    pub fn encode(
        &self,
        w: &mut Writer,
        t: &mut Table<'_>,
        item: &mut dyn FnMut(&T, &mut Writer, &mut Table<'_>),
    ) {
        w.usize(self.len);
        encode_chain(
            self.head.as_ref(),
            |n| n.next.as_ref(),
            w,
            t,
            |n, w, t| item(&n.item, w, t),
        );
    }

    /// Reads what [`PList::encode`] wrote.
    pub fn decode(
        r: &mut Reader<'_>,
        p: &mut Pieces<'_>,
        item: &mut dyn FnMut(&mut Reader<'_>, &mut Pieces<'_>) -> Decoded<T>,
    ) -> Decoded<PList<T>> {
        let len = r.usize()?;
        let tail = if r.bool()? {
            Some(p.read::<Node<T>>(r)?.ok_or(DecodeError::Invalid("list"))?)
        } else {
            None
        };
        let tail_len = std::iter::successors(tail.as_deref(), |n| n.next.as_deref()).count();
        let k = r.len(1)?;
        if tail_len + k != len {
            return Err(DecodeError::Invalid("list length"));
        }
        let mut list = PList {
            head: tail,
            len: tail_len,
        };
        for _ in 0..k {
            let x = item(r, p)?;
            list.push(x);
            let head = list.head.as_ref().expect("just pushed");
            p.done(head.clone());
        }
        Ok(list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forks_share_their_prefix_and_replacement_keeps_it() {
        let mut a: PList<u32> = PList::default();
        (0..10).for_each(|i| a.push(i));
        let mut b = a.clone();
        a.push(100);
        b.push(200);
        assert_eq!(a.to_vec(), (0..10).chain([100]).collect::<Vec<_>>());
        assert_eq!(b.to_vec(), (0..10).chain([200]).collect::<Vec<_>>());
        let mut seen = std::collections::HashSet::new();
        a.visit_nodes(|p, _| seen.insert(p));
        let mut fresh = 0;
        b.visit_nodes(|p, _| {
            let new = seen.insert(p);
            fresh += new as usize;
            new
        });
        assert_eq!(fresh, 1, "only b's own constraint is its own");
        // Rewriting element 7 keeps elements 0..7 shared.
        let mut items = b.to_vec();
        items[7] = 77;
        items.remove(8);
        b.replace_with(&items);
        assert_eq!(b.to_vec(), items);
        assert_eq!(b.len(), items.len());
        let mut fresh = 0;
        b.visit_nodes(|p, _| {
            let new = !seen.contains(&p);
            fresh += new as usize;
            new
        });
        assert_eq!(fresh, 3, "77, 9 and 200 are new");
        assert_eq!(a.to_vec().len(), 11, "a is unchanged");
    }

    #[test]
    fn a_long_list_drops_without_recursion() {
        let mut l: PList<u32> = PList::default();
        (0..1_000_000).for_each(|i| l.push(i));
        drop(l);
    }
}
