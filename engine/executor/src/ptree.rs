//! The process tree of all states (KLEE's PTree), used by random-path search:
//! every fork splits a leaf in two, so walking from the root with fair coin flips
//! favours states high in the tree (few forks away from the start).

use crate::rng::Rng;
use crate::state::StateId;

#[derive(Clone, Debug, Default)]
struct Node {
    parent: Option<usize>,
    children: [Option<usize>; 2],
    state: Option<StateId>,
}

#[derive(Debug, Default)]
pub struct PTree {
    nodes: Vec<Node>,
    free: Vec<usize>,
    root: Option<usize>,
}

impl PTree {
    fn alloc(&mut self, node: Node) -> usize {
        if let Some(i) = self.free.pop() {
            self.nodes[i] = node;
            i
        } else {
            self.nodes.push(node);
            self.nodes.len() - 1
        }
    }

    /// Creates the root leaf for the initial state.
    pub fn init(&mut self, state: StateId) -> usize {
        let n = self.alloc(Node {
            state: Some(state),
            ..Node::default()
        });
        self.root = Some(n);
        n
    }

    /// Adds a leaf for `state` beside the whole tree (a new root above both).
    pub fn attach(&mut self, state: StateId) -> usize {
        let Some(old) = self.root else {
            return self.init(state);
        };
        let leaf = self.alloc(Node {
            state: Some(state),
            ..Node::default()
        });
        let root = self.alloc(Node {
            children: [Some(old), Some(leaf)],
            ..Node::default()
        });
        self.nodes[old].parent = Some(root);
        self.nodes[leaf].parent = Some(root);
        self.root = Some(root);
        leaf
    }

    /// Splits `leaf` (holding `parent_state`) into two leaves; returns
    /// (leaf of the parent state, leaf of the child state).
    pub fn split(
        &mut self,
        leaf: usize,
        parent_state: StateId,
        child_state: StateId,
    ) -> (usize, usize) {
        let a = self.alloc(Node {
            parent: Some(leaf),
            state: Some(parent_state),
            ..Node::default()
        });
        let b = self.alloc(Node {
            parent: Some(leaf),
            state: Some(child_state),
            ..Node::default()
        });
        let node = &mut self.nodes[leaf];
        node.state = None;
        node.children = [Some(a), Some(b)];
        (a, b)
    }

    /// Removes a leaf and every ancestor left without children.
    pub fn remove(&mut self, leaf: usize) {
        let mut cur = leaf;
        loop {
            let parent = self.nodes[cur].parent;
            self.nodes[cur] = Node::default();
            self.free.push(cur);
            match parent {
                None => {
                    self.root = None;
                    return;
                }
                Some(p) => {
                    let ch = &mut self.nodes[p].children;
                    for c in ch.iter_mut() {
                        if *c == Some(cur) {
                            *c = None;
                        }
                    }
                    if ch.iter().any(|c| c.is_some()) {
                        return;
                    }
                    cur = p;
                }
            }
        }
    }

    /// (nodes in use, bytes held) for memory accounting.
    pub fn footprint(&self) -> (usize, usize) {
        (
            self.nodes.len() - self.free.len(),
            self.nodes.capacity() * std::mem::size_of::<Node>() + self.free.capacity() * 8,
        )
    }

    /// Each state's position in a depth-first walk of the tree (neighbours
    /// in it share the most data).
    pub fn leaf_order(&self) -> rustc_hash::FxHashMap<StateId, usize> {
        let mut order = rustc_hash::FxHashMap::default();
        let mut stack: Vec<usize> = self.root.into_iter().collect();
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n];
            if let Some(s) = node.state {
                let k = order.len();
                order.insert(s, k);
            }
            stack.extend(node.children.iter().rev().flatten());
        }
        order
    }

    /// Walks from the root taking a random existing child at each node.
    pub fn random_path(&self, rng: &mut Rng) -> Option<StateId> {
        let mut cur = self.root?;
        loop {
            let node = &self.nodes[cur];
            if let Some(s) = node.state {
                return Some(s);
            }
            cur = match node.children {
                [Some(a), Some(b)] => {
                    if rng.bool() {
                        a
                    } else {
                        b
                    }
                }
                [Some(a), None] | [None, Some(a)] => a,
                [None, None] => return None,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_remove_and_walk() {
        let mut t = PTree::default();
        let r = t.init(1);
        let (a, b) = t.split(r, 1, 2);
        let (_a2, c) = t.split(a, 1, 3);
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 4];
        for _ in 0..400 {
            seen[t.random_path(&mut rng).unwrap() as usize] += 1;
        }
        // State 2 is one fork from the root: about half of the walks.
        assert!(seen[2] > 150 && seen[2] < 250, "{seen:?}");
        assert!(seen[1] > 50 && seen[3] > 50);
        t.remove(b);
        t.remove(c);
        for _ in 0..20 {
            assert_eq!(t.random_path(&mut rng), Some(1));
        }
    }
}
