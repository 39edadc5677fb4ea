//! The byte format of suspended states: LEB128 integers, and reference-
//! counted pieces written once per file.
//!
//! States share data (copied-on-write objects, frames, address-space nodes,
//! path-condition prefixes). A batch of states is written to one file, and a
//! piece several of them share is written once: later uses are back
//! references, so the states come back sharing it again. Pieces of the
//! program's start image, which the run keeps for its whole length, are
//! referred to by number and never written. A piece is numbered after its
//! contents (post-order), the order in which reading completes it.

use rustc_hash::FxHashMap;
use std::any::Any;
use std::rc::Rc;

/// Why bytes could not be read back as a state.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DecodeError {
    #[error("truncated")]
    Truncated,
    #[error("invalid {0}")]
    Invalid(&'static str),
}

pub type Decoded<T> = Result<T, DecodeError>;

#[derive(Default)]
pub struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    pub fn bool(&mut self, v: bool) {
        self.u8(v as u8);
    }

    pub fn u64(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.buf.push(b);
                return;
            }
            self.buf.push(b | 0x80);
        }
    }

    pub fn u32(&mut self, v: u32) {
        self.u64(v as u64);
    }

    pub fn usize(&mut self, v: usize) {
        self.u64(v as u64);
    }

    pub fn bytes(&mut self, b: &[u8]) {
        self.usize(b.len());
        self.buf.extend_from_slice(b);
    }

    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    pub fn opt_u32(&mut self, v: Option<u32>) {
        match v {
            None => self.u8(0),
            Some(x) => {
                self.u8(1);
                self.u32(x);
            }
        }
    }

    pub fn opt_u64(&mut self, v: Option<u64>) {
        match v {
            None => self.u8(0),
            Some(x) => {
                self.u8(1);
                self.u64(x);
            }
        }
    }
}

pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf, pos: 0 }
    }

    pub fn at_end(&self) -> bool {
        self.pos == self.buf.len()
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn u8(&mut self) -> Decoded<u8> {
        let b = *self.buf.get(self.pos).ok_or(DecodeError::Truncated)?;
        self.pos += 1;
        Ok(b)
    }

    pub fn bool(&mut self) -> Decoded<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(DecodeError::Invalid("flag")),
        }
    }

    pub fn u64(&mut self) -> Decoded<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(DecodeError::Invalid("integer"))
    }

    pub fn u32(&mut self) -> Decoded<u32> {
        u32::try_from(self.u64()?).map_err(|_| DecodeError::Invalid("32-bit integer"))
    }

    pub fn usize(&mut self) -> Decoded<usize> {
        usize::try_from(self.u64()?).map_err(|_| DecodeError::Invalid("size"))
    }

    /// A length that the rest of the input can hold `unit` bytes each of (so
    /// a corrupt length cannot make the reader allocate without bound).
    pub fn len(&mut self, unit: usize) -> Decoded<usize> {
        let n = self.usize()?;
        if n.saturating_mul(unit.max(1)) > self.buf.len() - self.pos {
            return Err(DecodeError::Truncated);
        }
        Ok(n)
    }

    pub fn bytes(&mut self) -> Decoded<&'a [u8]> {
        let n = self.len(1)?;
        let b = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(b)
    }

    pub fn string(&mut self) -> Decoded<String> {
        String::from_utf8(self.bytes()?.to_vec()).map_err(|_| DecodeError::Invalid("string"))
    }

    pub fn opt_u32(&mut self) -> Decoded<Option<u32>> {
        Ok(if self.bool()? {
            Some(self.u32()?)
        } else {
            None
        })
    }

    pub fn opt_u64(&mut self) -> Decoded<Option<u64>> {
        Ok(if self.bool()? {
            Some(self.u64()?)
        } else {
            None
        })
    }
}

/// The start image's pieces by address (what files refer to by number).
#[derive(Default)]
pub struct Image {
    index: FxHashMap<usize, u32>,
    pieces: Vec<Rc<dyn Any>>,
}

impl Image {
    /// Registers a piece of the image.
    pub fn add<T: 'static>(&mut self, rc: &Rc<T>) {
        let addr = Rc::as_ptr(rc) as *const u8 as usize;
        if !self.index.contains_key(&addr) {
            self.index.insert(addr, self.pieces.len() as u32);
            self.pieces.push(rc.clone() as Rc<dyn Any>);
        }
    }
}

/// Writing: the pieces written so far in this file, by address.
pub struct Table<'a> {
    image: &'a Image,
    written: FxHashMap<usize, u32>,
    next: u32,
}

/// Writes a persistent linked list (newest node first, `next` gives the older
/// one): the nodes not yet in the file, oldest first (`item` writes one), on
/// top of the rest, referred to.
pub fn encode_chain<N: 'static>(
    mut cur: Option<&Rc<N>>,
    next: impl Fn(&N) -> Option<&Rc<N>>,
    w: &mut Writer,
    t: &mut Table<'_>,
    mut item: impl FnMut(&N, &mut Writer, &mut Table<'_>),
) {
    let mut new = Vec::new();
    while let Some(n) = cur {
        if t.knows(n) {
            break;
        }
        new.push(n);
        cur = next(n);
    }
    match cur {
        Some(known) => {
            w.u8(1);
            t.write(w, known);
        }
        None => w.u8(0),
    }
    w.usize(new.len());
    for n in new.into_iter().rev() {
        item(n, w, t);
        t.done(n);
    }
}

impl<'a> Table<'a> {
    pub fn new(image: &'a Image) -> Table<'a> {
        Table {
            image,
            written: FxHashMap::default(),
            next: 0,
        }
    }

    /// Writes a reference to `rc` if it is an image piece or already in the
    /// file (returns true); otherwise a marker after which the caller writes
    /// the contents and then calls [`Table::done`] (returns false).
    pub fn write<T: 'static>(&mut self, w: &mut Writer, rc: &Rc<T>) -> bool {
        let addr = Rc::as_ptr(rc) as *const u8 as usize;
        if let Some(&i) = self.image.index.get(&addr) {
            w.u8(1);
            w.u32(i);
            return true;
        }
        if let Some(&i) = self.written.get(&addr) {
            w.u8(2);
            w.u32(i);
            return true;
        }
        w.u8(0);
        false
    }

    /// Is `rc` an image piece or already in the file?
    pub fn knows<T: 'static>(&self, rc: &Rc<T>) -> bool {
        let addr = Rc::as_ptr(rc) as *const u8 as usize;
        self.image.index.contains_key(&addr) || self.written.contains_key(&addr)
    }

    /// The contents of `rc` were written: later uses refer to them.
    pub fn done<T: 'static>(&mut self, rc: &Rc<T>) {
        self.written
            .insert(Rc::as_ptr(rc) as *const u8 as usize, self.next);
        self.next += 1;
    }
}

/// Reading: the pieces read so far in this file.
pub struct Pieces<'a> {
    image: &'a Image,
    read: Vec<Rc<dyn Any>>,
}

impl<'a> Pieces<'a> {
    pub fn new(image: &'a Image) -> Pieces<'a> {
        Pieces {
            image,
            read: Vec::new(),
        }
    }

    /// Reads what [`Table::write`] wrote: the piece referred to, or `None`
    /// when the contents follow (the caller reads them and calls [`Pieces::done`]).
    pub fn read<T: 'static>(&self, r: &mut Reader<'_>) -> Decoded<Option<Rc<T>>> {
        let list = match r.u8()? {
            0 => return Ok(None),
            1 => &self.image.pieces,
            2 => &self.read,
            _ => return Err(DecodeError::Invalid("piece marker")),
        };
        let i = r.usize()?;
        let any = list.get(i).ok_or(DecodeError::Invalid("piece reference"))?;
        any.clone()
            .downcast::<T>()
            .map(Some)
            .map_err(|_| DecodeError::Invalid("piece type"))
    }

    /// A piece whose contents were read.
    pub fn done<T: 'static>(&mut self, rc: Rc<T>) -> Rc<T> {
        self.read.push(rc.clone() as Rc<dyn Any>);
        rc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_strings_and_pieces_round_trip() {
        let mut w = Writer::default();
        let vals = [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX];
        for v in vals {
            w.u64(v);
        }
        w.str("héllo");
        w.opt_u32(None);
        w.opt_u32(Some(7));
        let in_image = Rc::new(42u32);
        let mut image = Image::default();
        image.add(&in_image);
        let twice = Rc::new(5u32);
        let mut t = Table::new(&image);
        assert!(t.write(&mut w, &in_image));
        assert!(!t.write(&mut w, &twice));
        w.u32(*twice);
        t.done(&twice);
        assert!(t.write(&mut w, &twice), "the second use is a reference");
        let mut r = Reader::new(&w.buf);
        for v in vals {
            assert_eq!(r.u64().unwrap(), v);
        }
        assert_eq!(r.string().unwrap(), "héllo");
        assert_eq!(r.opt_u32().unwrap(), None);
        assert_eq!(r.opt_u32().unwrap(), Some(7));
        let mut p = Pieces::new(&image);
        let back: Rc<u32> = p.read(&mut r).unwrap().unwrap();
        assert!(
            Rc::ptr_eq(&back, &in_image),
            "image pieces are the image's own"
        );
        assert_eq!(p.read::<u32>(&mut r).unwrap(), None);
        let first = p.done(Rc::new(r.u32().unwrap()));
        let second: Rc<u32> = p.read(&mut r).unwrap().unwrap();
        assert!(
            Rc::ptr_eq(&first, &second),
            "shared in the file, shared again"
        );
        assert_eq!(*second, 5);
        assert!(r.at_end());
        // Wrong piece type or number, truncation, absurd lengths: errors.
        let mut r = Reader::new(&[1, 0]);
        assert_eq!(
            p.read::<u64>(&mut r).unwrap_err(),
            DecodeError::Invalid("piece type")
        );
        let mut r = Reader::new(&[2, 9]);
        assert_eq!(
            p.read::<u32>(&mut r).unwrap_err(),
            DecodeError::Invalid("piece reference")
        );
        assert_eq!(
            Reader::new(&[0x80]).u64().unwrap_err(),
            DecodeError::Truncated
        );
        assert_eq!(
            Reader::new(&[0xff, 0xff, 0xff, 0x0f]).bytes().unwrap_err(),
            DecodeError::Truncated
        );
    }
}
