//! Concrete bytes of an object: small objects in one vector, larger ones in
//! 256-byte pages shared between copies until written, very large ones
//! (more than [`SPARSE_MIN`] bytes) in a map holding only the pages written.
//!
//! Copying an object on the first write after a fork then copies the page
//! vector and the page written, not the whole object: a state that read a few
//! bytes into a 1 KiB stdio buffer, or bumped a counter in the POSIX model's
//! 1.4 KiB descriptor table, pays for one page. Pages never written are one
//! shared zero page, so a large allocation costs its page vector until used.
//! A program may `malloc` more than 4 GiB and touch a few bytes of it, as the
//! native allocator allows without committing the memory: such objects keep
//! no page vector at all, only the pages written.

use std::rc::Rc;

/// Bytes per page.
pub const PAGE: usize = 256;
/// Objects up to this size keep a single vector.
const FLAT_MAX: usize = 512;
/// Objects above this size keep only the pages written (zero elsewhere).
pub const SPARSE_MIN: usize = 16 << 20;

type Page = Rc<[u8; PAGE]>;

/// A page of zeros to compare with (a `memcmp`, not a loop per byte: a
/// `memset` of a very large object compares millions of pages).
static ZEROS: [u8; PAGE] = [0; PAGE];

thread_local! {
    static ZERO_PAGE: Page = Rc::new([0; PAGE]);
}

/// Registers the shared zero page as a start-image piece.
pub fn register_zero_page(image: &mut crate::suspend::wire::Image) {
    ZERO_PAGE.with(|z| image.add(z));
}

/// The bytes `off..off + n` page by page: (page, offset in the page, offset
/// in the range, length).
fn chunks(off: usize, n: usize) -> impl Iterator<Item = (usize, usize, usize, usize)> {
    let mut done = 0;
    std::iter::from_fn(move || {
        (done < n).then(|| {
            let at = off + done;
            let (p, o) = (at / PAGE, at % PAGE);
            let k = (PAGE - o).min(n - done);
            let chunk = (p, o, done, k);
            done += k;
            chunk
        })
    })
}

#[derive(Clone, Debug)]
pub enum Bytes {
    Flat(Vec<u8>),
    Paged {
        pages: Vec<Page>,
        len: usize,
    },
    /// Page index → page; a missing page reads as zeros.
    Sparse {
        pages: std::collections::BTreeMap<usize, Page>,
        len: usize,
    },
}

impl Bytes {
    /// `n` zero bytes.
    pub fn zeroed(n: usize) -> Bytes {
        if n <= FLAT_MAX {
            return Bytes::Flat(vec![0; n]);
        }
        if n > SPARSE_MIN {
            return Bytes::Sparse {
                pages: Default::default(),
                len: n,
            };
        }
        let zero = ZERO_PAGE.with(Rc::clone);
        Bytes::Paged {
            pages: vec![zero; n.div_ceil(PAGE)],
            len: n,
        }
    }

    pub fn from_vec(v: Vec<u8>) -> Bytes {
        if v.len() <= FLAT_MAX {
            return Bytes::Flat(v);
        }
        let mut b = Bytes::zeroed(v.len());
        b.write(0, &v);
        b
    }

    pub fn len(&self) -> usize {
        match self {
            Bytes::Flat(v) => v.len(),
            Bytes::Paged { len, .. } | Bytes::Sparse { len, .. } => *len,
        }
    }

    /// Are only the written pages kept (a very large object)?
    pub fn is_sparse(&self) -> bool {
        matches!(self, Bytes::Sparse { .. })
    }

    pub fn get(&self, i: usize) -> u8 {
        match self {
            Bytes::Flat(v) => v[i],
            Bytes::Paged { pages, .. } => pages[i / PAGE][i % PAGE],
            Bytes::Sparse { pages, .. } => pages.get(&(i / PAGE)).map_or(0, |p| p[i % PAGE]),
        }
    }

    pub fn set(&mut self, i: usize, b: u8) {
        match self {
            Bytes::Flat(v) => v[i] = b,
            Bytes::Paged { pages, .. } => Rc::make_mut(&mut pages[i / PAGE])[i % PAGE] = b,
            Bytes::Sparse { .. } => self.write(i, &[b]),
        }
    }

    /// `n` bytes at `off` as one slice, when they are stored contiguously
    /// (always for small objects; within one page for large ones).
    pub fn slice(&self, off: usize, n: usize) -> Option<&[u8]> {
        match self {
            Bytes::Flat(v) => Some(&v[off..off + n]),
            Bytes::Paged { pages, .. } => {
                let (p, o) = (off / PAGE, off % PAGE);
                (o + n <= PAGE).then(|| &pages[p][o..o + n])
            }
            Bytes::Sparse { pages, .. } => {
                let (p, o) = (off / PAGE, off % PAGE);
                if o + n > PAGE {
                    return None;
                }
                pages.get(&p).map(|p| &p[o..o + n])
            }
        }
    }

    /// Copies `out.len()` bytes at `off` into `out`.
    pub fn read(&self, off: usize, out: &mut [u8]) {
        match self {
            Bytes::Flat(v) => out.copy_from_slice(&v[off..off + out.len()]),
            Bytes::Paged { pages, .. } => {
                for (p, o, d, k) in chunks(off, out.len()) {
                    out[d..d + k].copy_from_slice(&pages[p][o..o + k]);
                }
            }
            Bytes::Sparse { pages, .. } => {
                for (p, o, d, k) in chunks(off, out.len()) {
                    match pages.get(&p) {
                        Some(page) => out[d..d + k].copy_from_slice(&page[o..o + k]),
                        None => out[d..d + k].fill(0),
                    }
                }
            }
        }
    }

    /// Writes `src` at `off`.
    pub fn write(&mut self, off: usize, src: &[u8]) {
        match self {
            Bytes::Flat(v) => v[off..off + src.len()].copy_from_slice(src),
            Bytes::Paged { pages, .. } => {
                for (p, o, d, k) in chunks(off, src.len()) {
                    let part = &src[d..d + k];
                    if pages[p][o..o + k] != *part {
                        Rc::make_mut(&mut pages[p])[o..o + k].copy_from_slice(part);
                    }
                }
            }
            Bytes::Sparse { pages, .. } => {
                for (p, o, d, k) in chunks(off, src.len()) {
                    let part = &src[d..d + k];
                    match pages.get_mut(&p) {
                        Some(page) => {
                            if page[o..o + k] != *part {
                                Rc::make_mut(page)[o..o + k].copy_from_slice(part);
                            }
                        }
                        // Zeros into a page never written: nothing to store.
                        None if *part == ZEROS[..k] => {}
                        None => {
                            let mut page = [0u8; PAGE];
                            page[o..o + k].copy_from_slice(part);
                            pages.insert(p, Rc::new(page));
                        }
                    }
                }
            }
        }
    }

    /// Heap bytes held, counting each page once: `first_sight(page address,
    /// shared)` says whether a page has not been counted yet (pages are shared).
    pub fn footprint(&self, first_sight: &mut dyn FnMut(usize, bool) -> bool) -> usize {
        match self {
            Bytes::Flat(v) => v.capacity(),
            Bytes::Paged { pages, .. } => {
                let own: usize = pages
                    .iter()
                    .filter(|p| first_sight(Rc::as_ptr(p) as usize, Rc::strong_count(p) > 1))
                    .count();
                pages.capacity() * std::mem::size_of::<Page>()
                    + own * (PAGE + 2 * std::mem::size_of::<usize>())
            }
            Bytes::Sparse { pages, .. } => {
                let own = pages
                    .values()
                    .filter(|p| first_sight(Rc::as_ptr(p) as usize, Rc::strong_count(p) > 1))
                    .count();
                // A B-tree entry: key, pointer and about as much again in nodes.
                pages.len() * 4 * std::mem::size_of::<usize>()
                    + own * (PAGE + 2 * std::mem::size_of::<usize>())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paged_bytes_match_a_vector_and_copies_share_pages() {
        for n in [0, 1, 300, FLAT_MAX, FLAT_MAX + 1, 5000] {
            let mut b = Bytes::zeroed(n);
            let mut model = vec![0u8; n];
            let mut x: u64 = 0x2545_f491_4f6c_dd1d ^ n as u64;
            for _ in 0..2000 {
                if n == 0 {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let off = (x as usize) % n;
                let k = ((x >> 20) as usize % 40).min(n - off);
                if x & 1 == 0 {
                    let src: Vec<u8> = (0..k).map(|i| (x >> 8) as u8 ^ i as u8).collect();
                    b.write(off, &src);
                    model[off..off + k].copy_from_slice(&src);
                } else {
                    b.set(off, x as u8);
                    model[off] = x as u8;
                }
                let mut out = vec![0; k];
                b.read(off, &mut out);
                assert_eq!(out, model[off..off + k]);
                if let Some(s) = b.slice(off, k) {
                    assert_eq!(s, &model[off..off + k]);
                }
            }
            assert_eq!(b.len(), n);
            assert!((0..n).all(|i| b.get(i) == model[i]));
        }
        // A copy shares every page until one is written.
        let mut a = Bytes::from_vec(vec![7; 4 * PAGE]);
        let mut c = a.clone();
        c.set(PAGE + 3, 1);
        let mut seen = std::collections::HashSet::new();
        let mut sight = |p, _| seen.insert(p);
        let first = a.footprint(&mut sight);
        let second = c.footprint(&mut sight);
        assert!(first >= 4 * PAGE);
        assert!(second < PAGE + 100, "one page copied: {second} bytes");
        assert_eq!(a.get(PAGE + 3), 7);
        assert_eq!(c.get(PAGE + 3), 1);
        // Writing the same bytes again copies nothing.
        let before = Rc::as_ptr(match &a {
            Bytes::Paged { pages, .. } => &pages[0],
            _ => unreachable!(),
        });
        let _keep = a.clone();
        a.write(0, &[7; 10]);
        let after = Rc::as_ptr(match &a {
            Bytes::Paged { pages, .. } => &pages[0],
            _ => unreachable!(),
        });
        assert_eq!(before, after);
    }

    #[test]
    fn very_large_objects_hold_only_the_pages_written() {
        let size = (1usize << 32) + 1;
        let mut b = Bytes::zeroed(size);
        assert!(b.is_sparse());
        assert_eq!(b.len(), size);
        b.write(size - 1, &[7]);
        b.write(PAGE - 2, &[1, 2, 3, 4]);
        b.write(10 * PAGE, &[0, 0, 0]);
        let Bytes::Sparse { pages, .. } = &b else {
            unreachable!()
        };
        assert_eq!(
            pages.len(),
            3,
            "two pages for the straddling write, one at the end"
        );
        assert_eq!(b.get(size - 1), 7);
        assert_eq!(b.get(size - 2), 0);
        let mut out = [9u8; 4];
        b.read(PAGE - 2, &mut out);
        assert_eq!(out, [1, 2, 3, 4]);
        b.read(5 * PAGE, &mut out);
        assert_eq!(out, [0, 0, 0, 0]);
        assert_eq!(b.slice(PAGE - 2, 2), Some(&[1u8, 2][..]));
        // Copies share pages until one writes.
        let mut c = b.clone();
        c.set(size - 1, 9);
        assert_eq!(b.get(size - 1), 7);
        assert_eq!(c.get(size - 1), 9);
    }
}
