//! Reads of a constant lookup table at an index that is a function of one
//! small value: a CRC's `crctab[k][(crc >> 24 ^ byte) & 0xff]`, whose 4-byte
//! entries are read byte by byte at `base + (v << 2) + j` with `v` in
//! `0..=255`. Compared store by store, such a read is an `ite` chain over
//! every store the index's range reaches (1,021 for that read, each a 32-bit
//! comparison), and a CRC of eight input bytes is 32 such chains deep: the
//! first query about such a checksum runs into its time limit.
//!
//! Tabulated over the small value instead, the read is a table of at most
//! [`LOOKUP_MAX_VALUES`] bytes selected by the low bits of `v - lo`: the
//! backend builds a multiplexer over those bits, or, when the table is affine
//! over GF(2) (`t[a ^ b] = t[a] ^ t[b] ^ t[0]`, which every CRC table is), an
//! XOR of constant columns selected by those bits, so the whole checksum is
//! linear in the input bits. Same meaning: only the encoding changes.

use rustc_hash::FxHashMap;
use symtest_expr::{Assignment, Bits, Evaluator, ExprId, ExprPool, Node};

/// Most values the small value may take.
pub(crate) const LOOKUP_MAX_VALUES: u64 = 256;

/// Nodes of the index looked at when searching for the small value.
const INDEX_WALK_LIMIT: usize = 64;

/// A read tabulated over the small value its index is a function of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SmallLookup {
    /// The value the index is a function of.
    pub var: ExprId,
    /// Its least value (by structure): `bytes[k]` is read when `var == lo + k`.
    pub lo: u64,
    /// The byte read for each value of `var` from `lo` on.
    pub bytes: Vec<u8>,
}

impl SmallLookup {
    /// How many low bits of `var - lo` select an entry (at least 1).
    pub(crate) fn select_bits(&self) -> u32 {
        let n = self.bytes.len().max(2) as u64;
        64 - (n - 1).leading_zeros()
    }

    /// The entry for selector value `k`; past the last entry (values `var`
    /// never takes) the last entry.
    pub(crate) fn entry(&self, k: usize) -> u8 {
        self.bytes[k.min(self.bytes.len() - 1)]
    }

    /// `(c, cols)` with `bytes[k] == c ^ XOR { cols[b] : bit b of k set }`
    /// for every `k`, when the table has a power-of-two length and is affine
    /// over GF(2).
    pub(crate) fn affine(&self) -> Option<(u8, Vec<u8>)> {
        let n = self.bytes.len();
        if n < 2 || !n.is_power_of_two() {
            return None;
        }
        let c = self.bytes[0];
        let cols: Vec<u8> = (0..n.trailing_zeros())
            .map(|b| self.bytes[1 << b] ^ c)
            .collect();
        let holds = self.bytes.iter().enumerate().all(|(k, &v)| {
            let predicted = cols
                .iter()
                .enumerate()
                .filter(|&(b, _)| k >> b & 1 == 1)
                .fold(c, |acc, (_, &col)| acc ^ col);
            predicted == v
        });
        holds.then_some((c, cols))
    }
}

/// The read of `index` over `stores` (the `(index, value)` pairs of a store
/// chain, outermost first, covering every index the read can take) as a
/// table over the small value its index is a function of, when there is one
/// and every entry is a constant byte of `stores`.
pub(crate) fn small_lookup(
    pool: &ExprPool,
    index: ExprId,
    stores: &[(ExprId, ExprId)],
) -> Option<SmallLookup> {
    if pool.as_const(index).is_some() {
        return None;
    }
    let (var, lo, hi) = small_var(pool, index)?;
    let mut table: FxHashMap<u64, u8> = FxHashMap::default();
    for &(i, v) in stores.iter().rev() {
        // Oldest first: the outermost store of an index wins.
        if let (Some(i), Some(v)) = (pool.as_const(i), pool.as_const(v)) {
            table.insert(i.to_u64(), v.to_u64() as u8);
        } else if let Some(i) = pool.as_const(i) {
            table.remove(&i.to_u64());
        } else {
            // A store at a symbolic index may hide any entry.
            return None;
        }
    }
    let empty = Assignment::new();
    let width = pool.width(var);
    let mut bytes = Vec::with_capacity((hi - lo + 1) as usize);
    for k in lo..=hi {
        let mut ev = Evaluator::new(pool, &empty);
        ev.assume(var, Bits::from_u64(width, k));
        let at = ev.eval(index).as_u64_exact()?;
        bytes.push(*table.get(&at)?);
    }
    Some(SmallLookup { var, lo, bytes })
}

/// The outermost node of `index` that takes at most [`LOOKUP_MAX_VALUES`]
/// values (by its structural range) and that `index` depends on alone, with
/// that range.
fn small_var(pool: &ExprPool, index: ExprId) -> Option<(ExprId, u64, u64)> {
    let mut queue = std::collections::VecDeque::from([index]);
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some(e) = queue.pop_front() {
        if !seen.insert(e) || seen.len() > INDEX_WALK_LIMIT {
            break;
        }
        if pool.as_const(e).is_some() || pool.is_array(e) {
            continue;
        }
        if let Some((lo, hi)) = pool.unsigned_range(e) {
            if hi - lo < LOOKUP_MAX_VALUES && depends_only_on(pool, index, e) {
                return Some((e, lo, hi));
            }
        }
        if matches!(pool.node(e), Node::Select { .. }) {
            continue;
        }
        queue.extend(pool.node(e).children());
    }
    None
}

/// Is every non-constant leaf of `root` below `var` (so `root`'s value is a
/// function of `var`'s)? Gives up (false) past [`INDEX_WALK_LIMIT`] nodes.
fn depends_only_on(pool: &ExprPool, root: ExprId, var: ExprId) -> bool {
    let mut stack = vec![root];
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some(e) = stack.pop() {
        if e == var || pool.as_const(e).is_some() || !seen.insert(e) {
            continue;
        }
        if seen.len() > INDEX_WALK_LIMIT {
            return false;
        }
        match pool.node(e) {
            Node::Array(_) | Node::Select { .. } | Node::Store { .. } => return false,
            n => stack.extend(n.children()),
        }
    }
    true
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use symtest_expr::BinOp;

    /// CRC-32's table (reflected polynomial 0xEDB88320).
    pub(crate) fn crc_entries() -> Vec<u32> {
        (0..256u32)
            .map(|i| {
                (0..8).fold(i, |c, _| {
                    if c & 1 == 1 {
                        0xEDB8_8320 ^ (c >> 1)
                    } else {
                        c >> 1
                    }
                })
            })
            .collect()
    }

    /// The bytes of the CRC-32 table, little-endian, 4 per entry.
    fn crc_table() -> Vec<u8> {
        crc_entries().iter().flat_map(|e| e.to_le_bytes()).collect()
    }

    fn table_chain(p: &mut ExprPool, base: u64, bytes: &[u8]) -> Vec<(ExprId, ExprId)> {
        let mut v: Vec<(ExprId, ExprId)> = bytes
            .iter()
            .enumerate()
            .map(|(i, &b)| (p.const_u64(32, base + i as u64), p.const_u64(8, b as u64)))
            .collect();
        v.reverse(); // outermost (last written) first
        v
    }

    /// `base + ((x & 0xff) << 2) + j`, x a 4-byte input word.
    fn crc_index(p: &mut ExprPool, x: ExprId, base: u64, j: u64) -> ExprId {
        let m = p.const_u64(32, 0xff);
        let low = p.bin(BinOp::And, x, m);
        let two = p.const_u64(32, 2);
        let scaled = p.bin(BinOp::Shl, low, two);
        let b = p.const_u64(32, base + j);
        p.bin(BinOp::Add, scaled, b)
    }

    fn input_word(p: &mut ExprPool) -> ExprId {
        let a = p.new_array("in", 4);
        let arr = p.array(a);
        let mut w = None;
        for i in (0..4).rev() {
            let ix = p.const_u64(32, i);
            let byte = p.select(arr, ix);
            w = Some(match w {
                None => byte,
                Some(hi) => p.concat(hi, byte),
            });
        }
        w.unwrap()
    }

    #[test]
    fn a_crc_table_byte_is_tabulated_over_the_index_byte_and_is_affine() {
        let mut p = ExprPool::new();
        let table = crc_table();
        let stores = table_chain(&mut p, 7168, &table);
        let x = input_word(&mut p);
        for j in 0..4 {
            let ix = crc_index(&mut p, x, 7168, j);
            let l = small_lookup(&p, ix, &stores).expect("tabulated");
            assert_eq!(l.lo, 0);
            assert_eq!(l.bytes.len(), 256);
            assert_eq!(l.select_bits(), 8);
            for k in 0..256usize {
                assert_eq!(l.bytes[k], table[4 * k + j as usize], "entry {k} byte {j}");
            }
            let (c, cols) = l.affine().expect("a CRC table is linear");
            assert_eq!(c, 0);
            assert_eq!(cols.len(), 8);
        }
    }

    #[test]
    fn a_table_that_is_not_affine_is_tabulated_but_not_linearised() {
        let mut p = ExprPool::new();
        let bytes: Vec<u8> = (0..256u32).map(|i| (i * i % 251) as u8).collect();
        let stores = table_chain(&mut p, 100, &bytes);
        let x = input_word(&mut p);
        let m = p.const_u64(32, 0xff);
        let low = p.bin(BinOp::And, x, m);
        let b = p.const_u64(32, 100);
        let ix = p.bin(BinOp::Add, low, b);
        let l = small_lookup(&p, ix, &stores).expect("tabulated");
        assert_eq!(l.bytes, bytes);
        assert!(l.affine().is_none());
    }

    /// An index of two independent input bytes, a store at a symbolic
    /// index, or an entry no store holds: no table.
    #[test]
    fn reads_that_are_not_a_function_of_one_small_value_are_left_alone() {
        let mut p = ExprPool::new();
        let bytes: Vec<u8> = (0..512u32).map(|i| i as u8).collect();
        let stores = table_chain(&mut p, 0, &bytes);
        let a = p.new_array("a", 2);
        let arr = p.array(a);
        let (i0, i1) = (p.const_u64(32, 0), p.const_u64(32, 1));
        let (b0, b1) = (p.select(arr, i0), p.select(arr, i1));
        let (z0, z1) = (p.zext(b0, 32), p.zext(b1, 32));
        let sum = p.bin(BinOp::Add, z0, z1);
        assert_eq!(small_lookup(&p, sum, &stores), None);
        // One byte: tabulated.
        assert!(small_lookup(&p, z0, &stores).is_some());
        // A symbolic store in the chain.
        let mut with_sym = stores.clone();
        with_sym.insert(0, (z1, b0));
        assert_eq!(small_lookup(&p, z0, &with_sym), None);
        // Entries 256.. missing.
        let few = table_chain(&mut p, 0, &bytes[..200]);
        assert_eq!(small_lookup(&p, z0, &few), None);
    }

    #[test]
    fn a_range_that_is_not_a_power_of_two_selects_by_enough_bits() {
        let mut p = ExprPool::new();
        let l = SmallLookup {
            var: p.const_u64(8, 0),
            lo: 3,
            bytes: vec![1, 2, 3, 4, 5],
        };
        assert_eq!(l.select_bits(), 3);
        assert_eq!(l.entry(7), 5);
        assert!(l.affine().is_none());
    }
}
