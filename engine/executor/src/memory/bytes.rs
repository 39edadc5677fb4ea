//! The concrete bytes of an object: one vector for ordinary objects, pages
//! allocated on first write for very large ones (a program may `malloc` more
//! than 4 GiB and touch a few bytes of it, as the native allocator allows
//! without committing the memory).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Page size of large objects.
const PAGE: usize = 4096;
/// Objects above this size keep their bytes in pages (zero until written).
pub const DENSE_MAX: usize = 16 << 20;

#[derive(Clone, Debug)]
pub enum ConcreteBytes {
    Dense(Vec<u8>),
    /// Page index → page; a missing page reads as zeros. Pages are shared
    /// between copies of the object until one of them writes the page.
    Paged {
        size: usize,
        pages: BTreeMap<usize, Rc<[u8; PAGE]>>,
    },
}

impl ConcreteBytes {
    /// `size` zero bytes.
    pub fn zeroed(size: usize) -> ConcreteBytes {
        if size > DENSE_MAX {
            ConcreteBytes::Paged {
                size,
                pages: BTreeMap::new(),
            }
        } else {
            ConcreteBytes::Dense(vec![0; size])
        }
    }

    pub fn len(&self) -> usize {
        match self {
            ConcreteBytes::Dense(v) => v.len(),
            ConcreteBytes::Paged { size, .. } => *size,
        }
    }

    pub fn is_paged(&self) -> bool {
        matches!(self, ConcreteBytes::Paged { .. })
    }

    pub fn get(&self, off: usize) -> u8 {
        match self {
            ConcreteBytes::Dense(v) => v[off],
            ConcreteBytes::Paged { pages, .. } => {
                pages.get(&(off / PAGE)).map_or(0, |p| p[off % PAGE])
            }
        }
    }

    /// Bytes `off..off + n` (borrowed when they are contiguous in memory).
    pub fn slice(&self, off: usize, n: usize) -> Cow<'_, [u8]> {
        match self {
            ConcreteBytes::Dense(v) => Cow::Borrowed(&v[off..off + n]),
            ConcreteBytes::Paged { pages, .. } => {
                let (first, last) = (off / PAGE, (off + n.max(1) - 1) / PAGE);
                if first == last {
                    if let Some(p) = pages.get(&first) {
                        let o = off % PAGE;
                        return Cow::Borrowed(&p[o..o + n]);
                    }
                }
                Cow::Owned((off..off + n).map(|i| self.get(i)).collect())
            }
        }
    }

    /// Writes `bytes` at `off` (in bounds).
    pub fn write(&mut self, off: usize, bytes: &[u8]) {
        match self {
            ConcreteBytes::Dense(v) => v[off..off + bytes.len()].copy_from_slice(bytes),
            ConcreteBytes::Paged { pages, .. } => {
                for (i, b) in bytes.iter().enumerate() {
                    let at = off + i;
                    let page = at / PAGE;
                    match pages.get_mut(&page) {
                        Some(p) => Rc::make_mut(p)[at % PAGE] = *b,
                        // Zero into a page never written: nothing to store.
                        None if *b == 0 => {}
                        None => {
                            let mut p = [0u8; PAGE];
                            p[at % PAGE] = *b;
                            pages.insert(page, Rc::new(p));
                        }
                    }
                }
            }
        }
    }

    pub fn set(&mut self, off: usize, b: u8) {
        match self {
            ConcreteBytes::Dense(v) => v[off] = b,
            ConcreteBytes::Paged { .. } => self.write(off, &[b]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_objects_allocate_only_the_pages_written() {
        let size = (1usize << 32) + 1;
        let mut b = ConcreteBytes::zeroed(size);
        assert!(b.is_paged());
        assert_eq!(b.len(), size);
        b.write(size - 1, &[7]);
        b.write(PAGE - 2, &[1, 2, 3, 4]);
        b.write(10 * PAGE, &[0, 0, 0]);
        let ConcreteBytes::Paged { pages, .. } = &b else {
            unreachable!()
        };
        assert_eq!(
            pages.len(),
            3,
            "two pages for the straddling write, one at the end"
        );
        assert_eq!(b.get(size - 1), 7);
        assert_eq!(b.get(size - 2), 0);
        assert_eq!(&*b.slice(PAGE - 2, 4), &[1, 2, 3, 4]);
        assert_eq!(&*b.slice(5 * PAGE, 3), &[0, 0, 0]);
        // Copies share pages until one writes.
        let mut c = b.clone();
        c.set(size - 1, 9);
        assert_eq!(b.get(size - 1), 7);
        assert_eq!(c.get(size - 1), 9);
    }

    #[test]
    fn small_objects_stay_dense() {
        let mut b = ConcreteBytes::zeroed(64);
        assert!(!b.is_paged());
        b.write(60, &[1, 2, 3, 4]);
        assert_eq!(&*b.slice(59, 5), &[0, 1, 2, 3, 4]);
    }
}
