//! A frame's registers, in chunks shared between forked states.
//!
//! A function of a real program can have hundreds of registers (a `main`
//! that parses options and dispatches on them), and every state that runs
//! after a fork has its own copy of the frame it runs in. Copied whole, the
//! frames of many states that differ in a few registers each become most
//! of the engine's memory. Here a copy shares every chunk of [`CHUNK`]
//! registers until the state writes one of it, so two states that differ in
//! a few registers hold one chunk each of their own.

use crate::state::Slot;
use std::rc::Rc;

/// Registers per shared chunk.
pub const CHUNK: usize = 16;

type Chunk = [Slot; CHUNK];

#[derive(Clone, Debug, Default)]
pub struct Regs {
    chunks: Vec<Rc<Chunk>>,
    len: usize,
}

fn empty_chunk() -> Rc<Chunk> {
    Rc::new(std::array::from_fn(|_| Slot::Undef))
}

impl Regs {
    /// `n` registers, none defined.
    pub fn new(n: usize) -> Regs {
        // One undefined chunk shared by all: a register is copied out of it
        // when first written.
        let undef = empty_chunk();
        Regs {
            chunks: vec![undef; n.div_ceil(CHUNK)],
            len: n,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn get(&self, i: usize) -> Option<&Slot> {
        if i >= self.len {
            return None;
        }
        Some(&self.chunks[i / CHUNK][i % CHUNK])
    }

    /// Writes register `i` (its chunk copied first if another frame shares it).
    ///
    /// # Panics
    /// If `i` is not a register of the frame (the loader numbers registers
    /// per function, so this is a bug of the engine).
    #[inline]
    pub fn set(&mut self, i: usize, s: Slot) {
        assert!(i < self.len, "register {i} of {}", self.len);
        Rc::make_mut(&mut self.chunks[i / CHUNK])[i % CHUNK] = s;
    }

    pub fn iter(&self) -> impl Iterator<Item = &Slot> + '_ {
        self.chunks.iter().flat_map(|c| c.iter()).take(self.len)
    }

    /// Rewrites every register through `f`, copying only the chunks where
    /// `f` changes a register (`f` returns the new slot, or None to keep it).
    pub fn rewrite(&mut self, mut f: impl FnMut(&Slot) -> Option<Slot>) {
        let len = self.len;
        for (k, chunk) in self.chunks.iter_mut().enumerate() {
            let n = CHUNK.min(len - k * CHUNK);
            for j in 0..n {
                if let Some(new) = f(&chunk[j]) {
                    Rc::make_mut(chunk)[j] = new;
                }
            }
        }
    }

    /// The chunks, for memory accounting (each shared one counted once).
    pub fn chunks(&self) -> impl Iterator<Item = &Rc<Chunk>> + '_ {
        self.chunks.iter()
    }

    /// Bytes of one chunk's allocation (its slots and reference counts).
    pub const CHUNK_BYTES: usize = std::mem::size_of::<Chunk>() + 2 * std::mem::size_of::<usize>();
}

impl std::ops::Index<usize> for Regs {
    type Output = Slot;

    fn index(&self, i: usize) -> &Slot {
        self.get(i)
            .unwrap_or_else(|| panic!("register {i} of {}", self.len))
    }
}

impl From<Vec<Slot>> for Regs {
    fn from(v: Vec<Slot>) -> Regs {
        let len = v.len();
        let mut chunks = Vec::with_capacity(len.div_ceil(CHUNK));
        let mut it = v.into_iter();
        for _ in 0..len.div_ceil(CHUNK) {
            let mut c: Chunk = std::array::from_fn(|_| Slot::Undef);
            for (slot, s) in c.iter_mut().zip(it.by_ref()) {
                *slot = s;
            }
            chunks.push(Rc::new(c));
        }
        Regs { chunks, len }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(v: u64) -> Slot {
        Slot::Small { width: 32, bits: v }
    }

    fn bits(s: Option<&Slot>) -> Option<u64> {
        match s {
            Some(Slot::Small { bits, .. }) => Some(*bits),
            _ => None,
        }
    }

    #[test]
    fn a_copy_shares_chunks_until_written() {
        let mut a = Regs::new(40);
        assert_eq!(a.len(), 40);
        assert!(matches!(a.get(39), Some(Slot::Undef)));
        assert!(a.get(40).is_none());
        a.set(3, small(7));
        a.set(35, small(9));
        let mut b = a.clone();
        b.set(3, small(8));
        // a keeps its value; the copy changed only register 3's chunk.
        assert_eq!(bits(a.get(3)), Some(7));
        assert_eq!(bits(b.get(3)), Some(8));
        assert_eq!(bits(b.get(35)), Some(9));
        assert!(!Rc::ptr_eq(&a.chunks[0], &b.chunks[0]));
        assert!(Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        assert!(Rc::ptr_eq(&a.chunks[2], &b.chunks[2]));
        assert_eq!(a.iter().count(), 40);
    }

    #[test]
    fn from_a_vector_and_rewrite_keep_every_register() {
        let v: Vec<Slot> = (0..21).map(small).collect();
        let mut r = Regs::from(v);
        assert_eq!(r.len(), 21);
        let before = r.clone();
        r.rewrite(|s| match s {
            Slot::Small { bits, .. } if *bits >= 16 => Some(small(bits + 100)),
            _ => None,
        });
        let got: Vec<u64> = r.iter().map(|s| bits(Some(s)).unwrap()).collect();
        let want: Vec<u64> = (0..21).map(|i| if i >= 16 { i + 100 } else { i }).collect();
        assert_eq!(got, want);
        // The first chunk had no change: still shared.
        assert!(Rc::ptr_eq(&r.chunks[0], &before.chunks[0]));
        assert!(!Rc::ptr_eq(&r.chunks[1], &before.chunks[1]));
    }
}
