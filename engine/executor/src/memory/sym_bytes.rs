//! An object's symbolic bytes: sparse (offset, 8-bit expression) pairs,
//! behind one pointer that is empty while the object holds none.

use symtest_expr::ExprId;

/// Symbolic bytes of an object: (offset, 8-bit expression), sorted by offset.
/// Writes mostly go forward through a buffer, so appends are the common case.
/// Offsets of 4 GiB and more (objects that large are rare) go to `high`.
#[derive(Clone, Debug, Default)]
struct SymMap {
    low: Vec<(u32, ExprId)>,
    // Boxed: one pointer in every object's contents, not a whole map.
    #[allow(clippy::box_collection)]
    high: Option<Box<std::collections::BTreeMap<u64, ExprId>>>,
}

/// First offset kept in `SymMap::high`.
pub(super) const HIGH: usize = 1 << 32;

/// An object's symbolic bytes: one pointer in the contents of every object
/// (most hold none; a copy of an object's contents is made per state that
/// writes it).
#[derive(Clone, Debug, Default)]
pub(super) struct SymBytes(Option<Box<SymMap>>);

impl SymBytes {
    pub(super) fn get(&self, off: usize) -> Option<ExprId> {
        self.0.as_ref()?.get(off)
    }

    pub(super) fn set(&mut self, off: usize, e: ExprId) {
        self.0.get_or_insert_default().set(off, e)
    }

    pub(super) fn any_in(&self, off: usize, n: usize) -> bool {
        self.0.as_ref().is_some_and(|m| m.any_in(off, n))
    }

    pub(super) fn remove_range(&mut self, off: usize, n: usize) {
        if let Some(m) = &mut self.0 {
            m.remove_range(off, n);
            if m.is_empty() {
                self.0 = None;
            }
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|m| m.is_empty())
    }

    pub(super) fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |m| m.len())
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (usize, ExprId)> + '_ {
        self.0.iter().flat_map(|m| m.iter())
    }

    pub(super) fn footprint(&self) -> usize {
        self.0
            .as_ref()
            .map_or(0, |m| std::mem::size_of::<SymMap>() + m.footprint())
    }

    pub(super) fn retain(&mut self, keep: impl FnMut(usize, ExprId) -> bool) {
        if let Some(m) = &mut self.0 {
            m.retain(keep);
            if m.is_empty() {
                self.0 = None;
            }
        }
    }
}

impl SymMap {
    fn position(&self, off: usize) -> Result<usize, usize> {
        let off = off.min(HIGH - 1) as u32;
        self.low.binary_search_by_key(&off, |&(o, _)| o)
    }

    fn get(&self, off: usize) -> Option<ExprId> {
        if off >= HIGH {
            return self.high.as_ref()?.get(&(off as u64)).copied();
        }
        if self.low.is_empty() {
            return None;
        }
        self.position(off).ok().map(|i| self.low[i].1)
    }

    fn set(&mut self, off: usize, e: ExprId) {
        if off >= HIGH {
            self.high.get_or_insert_default().insert(off as u64, e);
            return;
        }
        if self.low.last().is_none_or(|&(o, _)| (o as usize) < off) {
            self.low.push((off as u32, e));
            return;
        }
        match self.position(off) {
            Ok(i) => self.low[i].1 = e,
            Err(i) => self.low.insert(i, (off as u32, e)),
        }
    }

    /// Is any byte of `off..off + n` symbolic?
    fn any_in(&self, off: usize, n: usize) -> bool {
        if let Some(h) = &self.high {
            if off + n > HIGH
                && h.range(off.max(HIGH) as u64..(off + n) as u64)
                    .next()
                    .is_some()
            {
                return true;
            }
        }
        if self.low.is_empty() || off >= HIGH {
            return false;
        }
        let i = self.position(off).unwrap_or_else(|i| i);
        self.low
            .get(i)
            .is_some_and(|&(o, _)| (o as usize) < off + n)
    }

    fn remove_range(&mut self, off: usize, n: usize) {
        if !self.any_in(off, n) {
            return;
        }
        if let Some(h) = &mut self.high {
            let keys: Vec<u64> = h
                .range(off.max(HIGH) as u64..(off + n).max(HIGH) as u64)
                .map(|(k, _)| *k)
                .collect();
            for k in keys {
                h.remove(&k);
            }
        }
        if off >= HIGH {
            return;
        }
        let start = self.position(off).unwrap_or_else(|i| i);
        let end = if off + n >= HIGH {
            self.low.len()
        } else {
            self.position(off + n).unwrap_or_else(|i| i)
        };
        self.low.drain(start..end);
    }

    fn is_empty(&self) -> bool {
        self.low.is_empty() && self.high.as_ref().is_none_or(|h| h.is_empty())
    }

    fn len(&self) -> usize {
        self.low.len() + self.high.as_ref().map_or(0, |h| h.len())
    }

    /// (offset, byte) in offset order.
    fn iter(&self) -> impl Iterator<Item = (usize, ExprId)> + '_ {
        let low = self.low.iter().map(|&(o, e)| (o as usize, e));
        let high = self
            .high
            .iter()
            .flat_map(|h| h.iter().map(|(&o, &e)| (o as usize, e)));
        low.chain(high)
    }

    /// Heap bytes held.
    fn footprint(&self) -> usize {
        self.low.capacity() * std::mem::size_of::<(u32, ExprId)>()
            + self
                .high
                .as_ref()
                .map_or(0, |h| h.len() * 2 * std::mem::size_of::<(u64, ExprId)>())
    }

    fn retain(&mut self, mut keep: impl FnMut(usize, ExprId) -> bool) {
        self.low.retain(|&(o, e)| keep(o as usize, e));
        if let Some(h) = &mut self.high {
            h.retain(|&o, e| keep(o as usize, *e));
        }
    }
}
