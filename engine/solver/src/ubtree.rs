//! An UBTree (Hoffmann & Koehler, "A new method to index and query sets",
//! IJCAI 1999): a trie over sorted sets that finds the stored subsets and
//! supersets of a query set without looking at every stored set. KLEE's
//! counter-example cache uses the same structure.
//!
//! # Representation
//!
//! Every stored set is a path of strictly increasing keys from the root;
//! the node where it ends carries its value. Nodes live in an arena (freed
//! slots are reused); each node keeps its children as a vector sorted by
//! key, searched by binary search. Sets sharing a prefix share its nodes.
//!
//! # Complexity
//!
//! Let `m` be the size of the query set, `b` the largest number of
//! children of a node and `N` the number of nodes (at most the summed
//! sizes of the stored sets).
//!
//! * [`UBTree::insert`], [`UBTree::get`], [`UBTree::remove`]:
//!   `O(m log b)` (plus `O(b)` to shift a child vector on insert/remove).
//! * [`UBTree::for_each_subset`]: visits exactly the nodes whose root path
//!   is a subset of the query (each step follows only children whose key
//!   is in the query, found by intersecting the smaller of the two sorted
//!   lists against the larger by binary search): `O(V · min(b, m) · log)`
//!   for `V` visited nodes, `V <= N` and usually far smaller; the callback
//!   can stop the walk at the first match.
//! * [`UBTree::for_each_superset`]: visits the nodes whose root path can
//!   still be extended to a superset (every key on it is either a query
//!   element or smaller than the next query element still missing), so
//!   branches that skipped a query element are cut at once: `O(V log b)`,
//!   `V <= N`; again the callback can stop early.
//! * Both walks stop after a given number of visited nodes: a cache asks
//!   for a bounded search (a superset walk over a tree of long path
//!   conditions can visit thousands of nodes per query, for a hit on few
//!   of them).
//!
//! Walks use an explicit stack (no recursion depth limit for long sets).

use std::ops::ControlFlow;

const ROOT: u32 = 0;

struct Node<K, V> {
    /// Children sorted by key.
    children: Vec<(K, u32)>,
    /// Value of the set ending here.
    value: Option<V>,
}

impl<K, V> Node<K, V> {
    fn empty() -> Self {
        Node {
            children: Vec::new(),
            value: None,
        }
    }
}

/// A map from sorted, duplicate-free key sets to values with subset and
/// superset queries. Keys passed in must be strictly increasing (checked
/// in debug builds).
pub(crate) struct UBTree<K, V> {
    nodes: Vec<Node<K, V>>,
    free: Vec<u32>,
    len: usize,
}

impl<K: Ord + Copy, V> Default for UBTree<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Ord + Copy, V> UBTree<K, V> {
    /// An empty tree.
    pub(crate) fn new() -> Self {
        UBTree {
            nodes: vec![Node::empty()],
            free: Vec::new(),
            len: 0,
        }
    }

    /// Number of stored sets.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Number of live trie nodes (root included).
    #[cfg(test)]
    pub(crate) fn node_count(&self) -> usize {
        self.nodes.len() - self.free.len()
    }

    /// Removes every set.
    pub(crate) fn clear(&mut self) {
        *self = Self::new();
    }

    fn child(&self, n: u32, k: K) -> Option<u32> {
        let ch = &self.nodes[n as usize].children;
        ch.binary_search_by(|c| c.0.cmp(&k)).ok().map(|i| ch[i].1)
    }

    fn alloc(&mut self) -> u32 {
        match self.free.pop() {
            Some(i) => i,
            None => {
                self.nodes.push(Node::empty());
                (self.nodes.len() - 1) as u32
            }
        }
    }

    /// Stores `value` for `key`; returns the value it replaces.
    pub(crate) fn insert(&mut self, key: &[K], value: V) -> Option<V> {
        debug_assert!(key.windows(2).all(|w| w[0] < w[1]), "unsorted key");
        let mut n = ROOT;
        for &k in key {
            let pos = self.nodes[n as usize]
                .children
                .binary_search_by(|c| c.0.cmp(&k));
            n = match pos {
                Ok(i) => self.nodes[n as usize].children[i].1,
                Err(i) => {
                    let c = self.alloc();
                    self.nodes[n as usize].children.insert(i, (k, c));
                    c
                }
            };
        }
        let old = self.nodes[n as usize].value.replace(value);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    /// The value stored for exactly `key`.
    pub(crate) fn get(&self, key: &[K]) -> Option<&V> {
        let mut n = ROOT;
        for &k in key {
            n = self.child(n, k)?;
        }
        self.nodes[n as usize].value.as_ref()
    }

    /// Removes `key`, pruning nodes left without value and children.
    pub(crate) fn remove(&mut self, key: &[K]) -> Option<V> {
        let mut path = Vec::with_capacity(key.len() + 1);
        let mut n = ROOT;
        path.push(n);
        for &k in key {
            n = self.child(n, k)?;
            path.push(n);
        }
        let old = self.nodes[n as usize].value.take()?;
        self.len -= 1;
        // Prune bottom-up while the node is empty.
        for d in (1..path.len()).rev() {
            let node = path[d];
            let nd = &self.nodes[node as usize];
            if nd.value.is_some() || !nd.children.is_empty() {
                break;
            }
            let parent = path[d - 1];
            let ch = &mut self.nodes[parent as usize].children;
            let i = ch
                .binary_search_by(|c| c.0.cmp(&key[d - 1]))
                .expect("child on the path");
            ch.remove(i);
            self.nodes[node as usize] = Node::empty();
            self.free.push(node);
        }
        Some(old)
    }

    /// Calls `f(set, value)` for every stored set that is a subset of
    /// `query` (the empty set and `query` itself included) until `f`
    /// breaks or `max_visits` nodes were visited. Order: depth-first.
    pub(crate) fn for_each_subset<F>(&self, query: &[K], max_visits: usize, mut f: F)
    where
        F: FnMut(&[K], &V) -> ControlFlow<()>,
    {
        debug_assert!(query.windows(2).all(|w| w[0] < w[1]), "unsorted query");
        let mut path: Vec<K> = Vec::new();
        // (node, first query index its children may use, depth, key into node)
        let mut stack: Vec<(u32, usize, usize, Option<K>)> = vec![(ROOT, 0, 0, None)];
        let mut matched: Vec<(usize, u32)> = Vec::new();
        let mut visits = 0usize;
        while let Some((n, qi, depth, k)) = stack.pop() {
            visits += 1;
            if visits > max_visits {
                return;
            }
            path.truncate(depth.saturating_sub(1));
            if let Some(k) = k {
                path.push(k);
            }
            let node = &self.nodes[n as usize];
            if let Some(v) = &node.value {
                if f(&path, v).is_break() {
                    return;
                }
            }
            let rest = &query[qi..];
            let ch = &node.children;
            if rest.is_empty() || ch.is_empty() {
                continue;
            }
            matched.clear();
            if ch.len() <= rest.len() {
                // Each child: is its key among the remaining query elements?
                let lo = ch.partition_point(|c| c.0 < rest[0]);
                for &(ck, c) in &ch[lo..] {
                    if let Ok(j) = rest.binary_search(&ck) {
                        matched.push((qi + j + 1, c));
                    }
                }
            } else {
                // Each remaining query element: is there such a child?
                for (j, &qk) in rest.iter().enumerate() {
                    if let Ok(i) = ch.binary_search_by(|c| c.0.cmp(&qk)) {
                        matched.push((qi + j + 1, ch[i].1));
                    }
                }
            }
            // Push in reverse so smaller keys are visited first.
            for &(nqi, c) in matched.iter().rev() {
                let ck = query[nqi - 1];
                stack.push((c, nqi, depth + 1, Some(ck)));
            }
        }
    }

    /// Calls `f(set, value)` for every stored set that is a superset of
    /// `query` (`query` itself included) until `f` breaks or `max_visits`
    /// nodes were visited. Order: depth-first, the child that matches the
    /// next query element first (a stored set extending `query` with larger
    /// elements, such as a longer path condition, is found in `|query|`
    /// steps).
    pub(crate) fn for_each_superset<F>(&self, query: &[K], max_visits: usize, mut f: F)
    where
        F: FnMut(&[K], &V) -> ControlFlow<()>,
    {
        debug_assert!(query.windows(2).all(|w| w[0] < w[1]), "unsorted query");
        let mut path: Vec<K> = Vec::new();
        // (node, number of query elements matched on the path, depth, key)
        let mut stack: Vec<(u32, usize, usize, Option<K>)> = vec![(ROOT, 0, 0, None)];
        let mut visits = 0usize;
        while let Some((n, qi, depth, k)) = stack.pop() {
            visits += 1;
            if visits > max_visits {
                return;
            }
            path.truncate(depth.saturating_sub(1));
            if let Some(k) = k {
                path.push(k);
            }
            let node = &self.nodes[n as usize];
            if qi == query.len() {
                if let Some(v) = &node.value {
                    if f(&path, v).is_break() {
                        return;
                    }
                }
            }
            let ch = &node.children;
            if qi == query.len() {
                for &(ck, c) in ch.iter().rev() {
                    stack.push((c, qi, depth + 1, Some(ck)));
                }
                continue;
            }
            // Keys past the next missing query element can never lead to
            // a superset (keys only grow along a path).
            let next = query[qi];
            let hi = ch.partition_point(|c| c.0 < next);
            for &(ck, c) in ch[..hi].iter().rev() {
                stack.push((c, qi, depth + 1, Some(ck)));
            }
            // The child matching the next query element is walked first.
            if let Some(&(ck, c)) = ch.get(hi).filter(|c| c.0 == next) {
                stack.push((c, qi + 1, depth + 1, Some(ck)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UBTree;
    use std::collections::BTreeMap;
    use std::ops::ControlFlow;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_set(rng: &mut Rng, universe: u64, density: u64) -> Vec<u32> {
        (0..universe as u32)
            .filter(|_| rng.below(100) < density)
            .collect()
    }

    fn is_subset(a: &[u32], b: &[u32]) -> bool {
        a.iter().all(|x| b.binary_search(x).is_ok())
    }

    fn subsets(t: &UBTree<u32, usize>, q: &[u32]) -> Vec<(Vec<u32>, usize)> {
        let mut out = Vec::new();
        t.for_each_subset(q, usize::MAX, |s, &v| {
            out.push((s.to_vec(), v));
            ControlFlow::Continue(())
        });
        out.sort();
        out
    }

    fn supersets(t: &UBTree<u32, usize>, q: &[u32]) -> Vec<(Vec<u32>, usize)> {
        let mut out = Vec::new();
        t.for_each_superset(q, usize::MAX, |s, &v| {
            out.push((s.to_vec(), v));
            ControlFlow::Continue(())
        });
        out.sort();
        out
    }

    /// Random inserts, removals and queries against a brute-force model.
    #[test]
    fn queries_agree_with_brute_force() {
        for (seed, universe, density) in [(1u64, 8u64, 40u64), (2, 16, 25), (3, 40, 10), (4, 5, 60)]
        {
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed);
            let mut t: UBTree<u32, usize> = UBTree::new();
            let mut model: BTreeMap<Vec<u32>, usize> = BTreeMap::new();
            for step in 0..3000usize {
                let s = random_set(&mut rng, universe, density);
                match rng.below(10) {
                    0..=3 => {
                        assert_eq!(t.insert(&s, step), model.insert(s, step));
                    }
                    4 => {
                        // Remove a stored set (or a random one).
                        let key = if !model.is_empty() && rng.below(2) == 0 {
                            let i = rng.below(model.len() as u64) as usize;
                            model.keys().nth(i).unwrap().clone()
                        } else {
                            s
                        };
                        assert_eq!(t.remove(&key), model.remove(&key));
                    }
                    5 => assert_eq!(t.get(&s), model.get(&s)),
                    _ => {
                        let want_sub: Vec<(Vec<u32>, usize)> = model
                            .iter()
                            .filter(|(k, _)| is_subset(k, &s))
                            .map(|(k, &v)| (k.clone(), v))
                            .collect();
                        assert_eq!(subsets(&t, &s), want_sub, "subsets of {s:?}");
                        let want_sup: Vec<(Vec<u32>, usize)> = model
                            .iter()
                            .filter(|(k, _)| is_subset(&s, k))
                            .map(|(k, &v)| (k.clone(), v))
                            .collect();
                        assert_eq!(supersets(&t, &s), want_sup, "supersets of {s:?}");
                    }
                }
                assert_eq!(t.len(), model.len());
            }
            // Removing everything frees every node but the root.
            let keys: Vec<Vec<u32>> = model.keys().cloned().collect();
            for k in keys {
                assert!(t.remove(&k).is_some());
            }
            assert_eq!((t.len(), t.node_count()), (0, 1));
        }
    }

    #[test]
    fn empty_set_and_early_stop() {
        let mut t: UBTree<u32, &str> = UBTree::new();
        t.insert(&[], "empty");
        t.insert(&[1, 2], "12");
        t.insert(&[1, 2, 3], "123");
        t.insert(&[2, 5], "25");
        assert_eq!(t.get(&[]), Some(&"empty"));
        let mut seen = Vec::new();
        t.for_each_subset(&[1, 2, 3], usize::MAX, |_, v| {
            seen.push(*v);
            ControlFlow::Continue(())
        });
        seen.sort();
        assert_eq!(seen, ["12", "123", "empty"]);
        let mut n = 0;
        t.for_each_superset(&[2], usize::MAX, |_, _| {
            n += 1;
            ControlFlow::Break(())
        });
        assert_eq!(n, 1, "the walk stops at the first break");
        let mut sup = Vec::new();
        t.for_each_superset(&[], usize::MAX, |s, _| {
            sup.push(s.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(sup.len(), 4, "every set is a superset of the empty set");
        // Shared prefixes share nodes: root, 1, 2, 3, 2', 5.
        assert_eq!(t.node_count(), 6);
        t.clear();
        assert_eq!((t.len(), t.node_count(), t.get(&[1, 2])), (0, 1, None));
    }

    /// Many long disjoint sets: both walks find exactly the related one.
    #[test]
    fn walks_over_many_long_sets() {
        let mut t: UBTree<u32, usize> = UBTree::new();
        // 1000 disjoint chains of 20 keys each.
        for i in 0..1000u32 {
            let s: Vec<u32> = (0..20).map(|j| i * 100 + j).collect();
            t.insert(&s, i as usize);
        }
        let q: Vec<u32> = (0..20).map(|j| 500 * 100 + j).collect();
        let mut calls = 0;
        t.for_each_subset(&q, usize::MAX, |_, _| {
            calls += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(calls, 1);
        let mut found = Vec::new();
        t.for_each_superset(&q[..5], usize::MAX, |_, &v| {
            found.push(v);
            ControlFlow::Continue(())
        });
        assert_eq!(found, [500]);
    }

    /// A bounded superset walk follows the query's own keys first: a set
    /// extending the query is found within |set| + 1 visits even when many
    /// sets branch off below the query's next key at every step.
    #[test]
    fn a_bounded_superset_walk_finds_an_extension_first() {
        let mut t: UBTree<u32, usize> = UBTree::new();
        let q: Vec<u32> = (1..=10).map(|j| j * 100).collect();
        // At every prefix of q, 20 sets branch off with smaller keys.
        for d in 0..q.len() {
            for b in 1..=20u32 {
                let mut s = q[..d].to_vec();
                s.push(q[d] - b);
                s.push(5000 + b);
                t.insert(&s, 0);
            }
        }
        let mut ext = q.clone();
        ext.push(9000);
        t.insert(&ext, 7);
        let mut found = None;
        t.for_each_superset(&q, ext.len() + 1, |_, &v| {
            found = Some(v);
            ControlFlow::Break(())
        });
        assert_eq!(found, Some(7));
        // Cut before the set: nothing.
        let mut found = None;
        t.for_each_superset(&q, q.len(), |_, &v| {
            found = Some(v);
            ControlFlow::Break(())
        });
        assert_eq!(found, None);
    }
}
