//! Arbitrary-width two's-complement bit-vector constants.
//!
//! [`Bits`] stores its value in little-endian 64-bit words. Widths up to 64
//! take a single-word fast path; widths up to 128 stay inline (no heap
//! allocation). Division by zero and over-wide shifts follow SMT-LIB
//! semantics exactly, so constant folding agrees with the solver.

use smallvec::SmallVec;
use std::cmp::Ordering;
use std::fmt;

type Words = SmallVec<[u64; 2]>;

/// An arbitrary-width (1..) two's-complement bit-vector constant.
///
/// Invariant: the number of words is `ceil(width / 64)` and all bits at or
/// above `width` are zero.
#[derive(PartialEq, Eq, Hash, Debug)]
pub struct Bits {
    width: u32,
    words: Words,
}

#[inline]
fn nwords(width: u32) -> usize {
    width.div_ceil(64) as usize
}

/// Mask of the valid bits of a single-word value of `width` (1..=64).
#[inline]
fn mask64(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Mask of the valid bits in the top word of a value of `width`.
#[inline]
fn top_mask(width: u32) -> u64 {
    match width % 64 {
        0 => u64::MAX,
        r => (1u64 << r) - 1,
    }
}

impl Clone for Bits {
    /// Copies the words directly (the derived clone goes through an iterator,
    /// which is measurably slower on the interpreter's hot path).
    #[inline]
    fn clone(&self) -> Bits {
        Bits {
            width: self.width,
            words: SmallVec::from_slice(&self.words),
        }
    }
}

impl Bits {
    /// Single-word constructor; `v` is truncated to `width` (must be <= 64).
    #[inline]
    fn small(width: u32, v: u64) -> Bits {
        debug_assert!((1..=64).contains(&width));
        Bits {
            width,
            words: SmallVec::from_buf_and_len([v & mask64(width), 0], 1),
        }
    }

    /// Builds from words, resizing to the right count and masking the top.
    fn from_words(width: u32, mut words: Words) -> Bits {
        assert!(width > 0, "bit-vector width must be at least 1");
        words.resize(nwords(width), 0);
        let last = words.len() - 1;
        words[last] &= top_mask(width);
        Bits { width, words }
    }

    #[inline]
    fn is_small(&self) -> bool {
        self.width <= 64
    }

    #[inline]
    fn w0(&self) -> u64 {
        self.words[0]
    }

    /// The value `v` truncated to `width` bits.
    #[inline]
    pub fn from_u64(width: u32, v: u64) -> Bits {
        assert!(width > 0, "bit-vector width must be at least 1");
        if width <= 64 {
            return Bits::small(width, v);
        }
        let mut w: Words = SmallVec::from_elem(0, nwords(width));
        w[0] = v;
        Bits::from_words(width, w)
    }

    /// The value `v` truncated to `width` bits.
    pub fn from_u128(width: u32, v: u128) -> Bits {
        assert!(width > 0, "bit-vector width must be at least 1");
        if width <= 64 {
            return Bits::small(width, v as u64);
        }
        let mut w: Words = SmallVec::from_elem(0, nwords(width));
        w[0] = v as u64;
        w[1] = (v >> 64) as u64;
        Bits::from_words(width, w)
    }

    /// The value `v` sign-extended to `width` bits (or truncated).
    pub fn from_i64(width: u32, v: i64) -> Bits {
        assert!(width > 0, "bit-vector width must be at least 1");
        if width <= 64 {
            return Bits::small(width, v as u64);
        }
        let fill = if v < 0 { u64::MAX } else { 0 };
        let mut w: Words = SmallVec::from_elem(fill, nwords(width));
        w[0] = v as u64;
        Bits::from_words(width, w)
    }

    /// The value `v` sign-extended to `width` bits (or truncated).
    pub fn from_i128(width: u32, v: i128) -> Bits {
        if width <= 128 {
            return Bits::from_u128(width, v as u128);
        }
        let fill = if v < 0 { u64::MAX } else { 0 };
        let mut w: Words = SmallVec::from_elem(fill, nwords(width));
        w[0] = v as u64;
        w[1] = ((v as u128) >> 64) as u64;
        Bits::from_words(width, w)
    }

    /// All-zero value of `width` bits.
    pub fn zero(width: u32) -> Bits {
        Bits::from_u64(width, 0)
    }

    /// All-ones value (`-1`) of `width` bits.
    pub fn ones(width: u32) -> Bits {
        assert!(width > 0, "bit-vector width must be at least 1");
        Bits::from_words(width, SmallVec::from_elem(u64::MAX, nwords(width)))
    }

    /// The 1-bit value of `b`.
    pub fn from_bool(b: bool) -> Bits {
        Bits::small(1, b as u64)
    }

    /// Builds a value from little-endian bytes; missing bytes are zero and
    /// excess bits are truncated.
    pub fn from_bytes_le(width: u32, bytes: &[u8]) -> Bits {
        assert!(width > 0, "bit-vector width must be at least 1");
        if width <= 64 && bytes.len() <= 8 {
            let mut buf = [0u8; 8];
            buf[..bytes.len()].copy_from_slice(bytes);
            return Bits::from_u64(width, u64::from_le_bytes(buf));
        }
        let n = nwords(width);
        let mut w: Words = SmallVec::from_elem(0, n);
        for (i, &b) in bytes.iter().enumerate().take(n * 8) {
            w[i / 8] |= (b as u64) << ((i % 8) * 8);
        }
        Bits::from_words(width, w)
    }

    /// The value as `ceil(width / 8)` little-endian bytes.
    pub fn to_bytes_le(&self) -> Vec<u8> {
        let n = self.width.div_ceil(8) as usize;
        (0..n)
            .map(|i| (self.words[i / 8] >> ((i % 8) * 8)) as u8)
            .collect()
    }

    /// Width in bits.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The little-endian 64-bit words (bits above the width are zero).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The low 64 bits, zero-extended.
    #[inline]
    pub fn to_u64(&self) -> u64 {
        self.w0()
    }

    /// The low 128 bits, zero-extended.
    pub fn to_u128(&self) -> u128 {
        let hi = self.words.get(1).copied().unwrap_or(0) as u128;
        (hi << 64) | self.w0() as u128
    }

    /// The value sign-extended from its width, truncated to 64 bits.
    pub fn to_i64(&self) -> i64 {
        if self.width >= 64 {
            self.w0() as i64
        } else {
            let s = 64 - self.width;
            ((self.w0() << s) as i64) >> s
        }
    }

    /// The value sign-extended from its width, truncated to 128 bits.
    pub fn to_i128(&self) -> i128 {
        if self.width >= 128 {
            self.to_u128() as i128
        } else {
            let s = 128 - self.width;
            ((self.to_u128() << s) as i128) >> s
        }
    }

    /// True if the value is zero.
    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// True if every bit is set.
    pub fn is_ones(&self) -> bool {
        let last = self.words.len() - 1;
        self.words[..last].iter().all(|&w| w == u64::MAX)
            && self.words[last] == top_mask(self.width)
    }

    /// True if the value is the 1-bit `true`.
    pub fn is_true(&self) -> bool {
        self.width == 1 && self.w0() == 1
    }

    /// True if the value is one.
    pub fn is_one(&self) -> bool {
        self.w0() == 1 && self.words[1..].iter().all(|&w| w == 0)
    }

    /// Bit `i` (0 = least significant).
    #[inline]
    pub fn bit(&self, i: u32) -> bool {
        debug_assert!(i < self.width);
        (self.words[(i / 64) as usize] >> (i % 64)) & 1 == 1
    }

    fn set_bit(&mut self, i: u32) {
        self.words[(i / 64) as usize] |= 1u64 << (i % 64);
    }

    /// The most significant bit.
    #[inline]
    pub fn sign_bit(&self) -> bool {
        self.bit(self.width - 1)
    }

    /// If the value is a power of two, its exponent.
    pub fn exact_log2(&self) -> Option<u32> {
        (self.popcount() == 1).then(|| self.trailing_zeros())
    }

    /// Low 64 bits if all higher bits are zero.
    pub fn as_u64_exact(&self) -> Option<u64> {
        self.words[1..].iter().all(|&w| w == 0).then_some(self.w0())
    }

    #[inline]
    fn check(&self, o: &Bits) {
        debug_assert_eq!(self.width, o.width, "bit-vector width mismatch");
    }

    /// Wrapping addition.
    pub fn add(&self, o: &Bits) -> Bits {
        self.check(o);
        if self.is_small() {
            return Bits::small(self.width, self.w0().wrapping_add(o.w0()));
        }
        self.add_carry(&o.words, false)
    }

    fn add_carry(&self, o: &[u64], mut carry: bool) -> Bits {
        let words = self
            .words
            .iter()
            .zip(o)
            .map(|(&a, &b)| {
                let (s1, c1) = a.overflowing_add(b);
                let (s2, c2) = s1.overflowing_add(carry as u64);
                carry = c1 || c2;
                s2
            })
            .collect();
        Bits::from_words(self.width, words)
    }

    /// Wrapping subtraction.
    pub fn sub(&self, o: &Bits) -> Bits {
        self.check(o);
        if self.is_small() {
            return Bits::small(self.width, self.w0().wrapping_sub(o.w0()));
        }
        let inv: Words = o.words.iter().map(|w| !w).collect();
        self.add_carry(&inv, true)
    }

    /// Wrapping multiplication.
    pub fn mul(&self, o: &Bits) -> Bits {
        self.check(o);
        if self.is_small() {
            return Bits::small(self.width, self.w0().wrapping_mul(o.w0()));
        }
        let n = self.words.len();
        let mut out: Words = SmallVec::from_elem(0, n);
        for i in 0..n {
            let mut carry: u128 = 0;
            for j in 0..n - i {
                let t = out[i + j] as u128 + self.words[i] as u128 * o.words[j] as u128 + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
        }
        Bits::from_words(self.width, out)
    }

    /// Unsigned quotient and remainder with SMT-LIB division by zero
    /// (`x / 0 = ones`, `x % 0 = x`).
    pub fn udivrem(&self, o: &Bits) -> (Bits, Bits) {
        self.check(o);
        if o.is_zero() {
            return (Bits::ones(self.width), self.clone());
        }
        if self.is_small() {
            let (a, b) = (self.w0(), o.w0());
            return (
                Bits::small(self.width, a / b),
                Bits::small(self.width, a % b),
            );
        }
        if self.width <= 128 {
            let (a, b) = (self.to_u128(), o.to_u128());
            return (
                Bits::from_u128(self.width, a / b),
                Bits::from_u128(self.width, a % b),
            );
        }
        // Restoring long division in width + 1 bits.
        let w = self.width;
        let b = o.zext(w + 1);
        let mut q = Bits::zero(w);
        let mut r = Bits::zero(w + 1);
        let one = Bits::from_u64(w + 1, 1);
        for i in (0..w).rev() {
            r = r.shl_u32(1);
            if self.bit(i) {
                r = r.or(&one);
            }
            if b.ule(&r) {
                r = r.sub(&b);
                q.set_bit(i);
            }
        }
        (q, r.extract(0, w))
    }

    /// Unsigned division (`x / 0 = ones`).
    pub fn udiv(&self, o: &Bits) -> Bits {
        if self.is_small() {
            self.check(o);
            return match o.w0() {
                0 => Bits::ones(self.width),
                b => Bits::small(self.width, self.w0() / b),
            };
        }
        self.udivrem(o).0
    }

    /// Unsigned remainder (`x % 0 = x`).
    pub fn urem(&self, o: &Bits) -> Bits {
        if self.is_small() {
            self.check(o);
            return match o.w0() {
                0 => self.clone(),
                b => Bits::small(self.width, self.w0() % b),
            };
        }
        self.udivrem(o).1
    }

    /// Signed division, SMT-LIB `bvsdiv` (`x / 0 = x < 0 ? 1 : -1`).
    pub fn sdiv(&self, o: &Bits) -> Bits {
        self.check(o);
        let (ns, nt) = (self.sign_bit(), o.sign_bit());
        let a = if ns { self.neg() } else { self.clone() };
        let b = if nt { o.neg() } else { o.clone() };
        let q = a.udiv(&b);
        if ns != nt {
            q.neg()
        } else {
            q
        }
    }

    /// Signed remainder, SMT-LIB `bvsrem` (sign follows the dividend;
    /// `x % 0 = x`).
    pub fn srem(&self, o: &Bits) -> Bits {
        self.check(o);
        let (ns, nt) = (self.sign_bit(), o.sign_bit());
        let a = if ns { self.neg() } else { self.clone() };
        let b = if nt { o.neg() } else { o.clone() };
        let r = a.urem(&b);
        if ns {
            r.neg()
        } else {
            r
        }
    }

    fn zip_words(&self, o: &Bits, f: impl Fn(u64, u64) -> u64) -> Bits {
        self.check(o);
        if self.is_small() {
            return Bits::small(self.width, f(self.w0(), o.w0()));
        }
        let words = self.words.iter().zip(&o.words).map(|(&a, &b)| f(a, b));
        Bits::from_words(self.width, words.collect())
    }

    /// Bitwise and.
    pub fn and(&self, o: &Bits) -> Bits {
        self.zip_words(o, |a, b| a & b)
    }

    /// Bitwise or.
    pub fn or(&self, o: &Bits) -> Bits {
        self.zip_words(o, |a, b| a | b)
    }

    /// Bitwise exclusive or.
    pub fn xor(&self, o: &Bits) -> Bits {
        self.zip_words(o, |a, b| a ^ b)
    }

    /// Bitwise complement.
    pub fn not(&self) -> Bits {
        if self.is_small() {
            return Bits::small(self.width, !self.w0());
        }
        Bits::from_words(self.width, self.words.iter().map(|w| !w).collect())
    }

    /// Two's-complement negation.
    pub fn neg(&self) -> Bits {
        if self.is_small() {
            return Bits::small(self.width, self.w0().wrapping_neg());
        }
        Bits::zero(self.width).sub(self)
    }

    /// Shift amount as u32 if it is below `width`, else `None`.
    fn shift_amount(&self, o: &Bits) -> Option<u32> {
        self.check(o);
        let amt = o.as_u64_exact()?;
        (amt < self.width as u64).then_some(amt as u32)
    }

    /// Logical left shift of words by `s` (< width).
    fn shl_u32(&self, s: u32) -> Bits {
        if self.is_small() {
            return Bits::small(self.width, self.w0() << s);
        }
        let n = self.words.len();
        let (ws, bs) = ((s / 64) as usize, s % 64);
        let mut out: Words = SmallVec::from_elem(0, n);
        for i in ws..n {
            let src = i - ws;
            let mut v = self.words[src] << bs;
            if bs != 0 && src > 0 {
                v |= self.words[src - 1] >> (64 - bs);
            }
            out[i] = v;
        }
        Bits::from_words(self.width, out)
    }

    /// Logical right shift of words by `s` (< width), filling with `fill`
    /// bits (all-zero or all-one word) above the width.
    fn shr_u32(&self, s: u32, fill: bool) -> Bits {
        let n = self.words.len();
        let fillw = if fill { u64::MAX } else { 0 };
        // Word array with the fill bits above `width` made explicit.
        let get = |i: usize| -> u64 {
            if i >= n {
                fillw
            } else if i == n - 1 && fill {
                self.words[i] | !top_mask(self.width)
            } else {
                self.words[i]
            }
        };
        let (ws, bs) = ((s / 64) as usize, s % 64);
        let out: Words = (0..n)
            .map(|i| {
                let lo = get(i + ws) >> bs;
                if bs == 0 {
                    lo
                } else {
                    lo | (get(i + ws + 1) << (64 - bs))
                }
            })
            .collect();
        Bits::from_words(self.width, out)
    }

    /// Left shift; amounts >= width give zero.
    pub fn shl(&self, o: &Bits) -> Bits {
        match self.shift_amount(o) {
            Some(s) => self.shl_u32(s),
            None => Bits::zero(self.width),
        }
    }

    /// Logical right shift; amounts >= width give zero.
    pub fn lshr(&self, o: &Bits) -> Bits {
        match self.shift_amount(o) {
            Some(s) if self.is_small() => Bits::small(self.width, self.w0() >> s),
            Some(s) => self.shr_u32(s, false),
            None => Bits::zero(self.width),
        }
    }

    /// Arithmetic right shift; amounts >= width give the sign fill.
    pub fn ashr(&self, o: &Bits) -> Bits {
        match self.shift_amount(o) {
            Some(s) if self.is_small() => {
                let sh = 64 - self.width;
                Bits::small(self.width, ((((self.w0() << sh) as i64) >> sh) >> s) as u64)
            }
            Some(s) => self.shr_u32(s, self.sign_bit()),
            None if self.sign_bit() => Bits::ones(self.width),
            None => Bits::zero(self.width),
        }
    }

    /// Rotate left by `s` bits (modulo the width).
    pub fn rotate_left(&self, s: u32) -> Bits {
        let s = s % self.width;
        if s == 0 {
            return self.clone();
        }
        self.shl_u32(s).or(&self.shr_u32(self.width - s, false))
    }

    /// Rotate right by `s` bits (modulo the width).
    pub fn rotate_right(&self, s: u32) -> Bits {
        let s = s % self.width;
        self.rotate_left(self.width - s)
    }

    fn ucmp(&self, o: &Bits) -> Ordering {
        self.check(o);
        if self.is_small() {
            return self.w0().cmp(&o.w0());
        }
        self.words.iter().rev().cmp(o.words.iter().rev())
    }

    fn scmp(&self, o: &Bits) -> Ordering {
        match (self.sign_bit(), o.sign_bit()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.ucmp(o),
        }
    }

    /// Equality (same as `==`, named for symmetry with the other predicates).
    #[allow(clippy::should_implement_trait)]
    pub fn eq(&self, o: &Bits) -> bool {
        self.check(o);
        self.words == o.words
    }

    /// Unsigned less-than.
    pub fn ult(&self, o: &Bits) -> bool {
        self.ucmp(o) == Ordering::Less
    }

    /// Unsigned less-or-equal.
    pub fn ule(&self, o: &Bits) -> bool {
        self.ucmp(o) != Ordering::Greater
    }

    /// Signed less-than.
    pub fn slt(&self, o: &Bits) -> bool {
        self.scmp(o) == Ordering::Less
    }

    /// Signed less-or-equal.
    pub fn sle(&self, o: &Bits) -> bool {
        self.scmp(o) != Ordering::Greater
    }

    /// Zero-extends to `to` bits (`to >= width`).
    pub fn zext(&self, to: u32) -> Bits {
        debug_assert!(to >= self.width);
        if to <= 64 {
            return Bits::small(to, self.w0());
        }
        Bits::from_words(to, self.words.clone())
    }

    /// Sign-extends to `to` bits (`to >= width`).
    pub fn sext(&self, to: u32) -> Bits {
        debug_assert!(to >= self.width);
        if to <= 64 {
            return Bits::small(to, self.to_i64() as u64);
        }
        let mut r = self.zext(to);
        if self.sign_bit() {
            let n = self.words.len();
            r.words[n - 1] |= !top_mask(self.width);
            for w in &mut r.words[n..] {
                *w = u64::MAX;
            }
            let last = r.words.len() - 1;
            r.words[last] &= top_mask(to);
        }
        r
    }

    /// Bits `lo .. lo + width` as a new value of `width` bits.
    pub fn extract(&self, lo: u32, width: u32) -> Bits {
        debug_assert!(width > 0 && lo + width <= self.width);
        if self.is_small() {
            return Bits::small(width, self.w0() >> lo);
        }
        let (ws, bs) = ((lo / 64) as usize, lo % 64);
        let get = |i: usize| self.words.get(i).copied().unwrap_or(0);
        let words = (0..nwords(width))
            .map(|i| {
                let v = get(i + ws) >> bs;
                if bs == 0 {
                    v
                } else {
                    v | (get(i + ws + 1) << (64 - bs))
                }
            })
            .collect();
        Bits::from_words(width, words)
    }

    /// Truncates to the low `width` bits.
    pub fn trunc(&self, width: u32) -> Bits {
        self.extract(0, width)
    }

    /// Concatenation: `hi` in the high bits, `lo` in the low bits.
    pub fn concat(hi: &Bits, lo: &Bits) -> Bits {
        let w = hi.width + lo.width;
        if w <= 64 {
            return Bits::small(w, (hi.w0() << lo.width) | lo.w0());
        }
        hi.zext(w).shl_u32(lo.width).or(&lo.zext(w))
    }

    /// Number of set bits.
    pub fn popcount(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    /// Number of leading zero bits (counted from bit `width - 1`).
    pub fn leading_zeros(&self) -> u32 {
        let pad = self.words.len() as u32 * 64 - self.width;
        let mut n = 0;
        for &w in self.words.iter().rev() {
            n += w.leading_zeros();
            if w != 0 {
                break;
            }
        }
        n - pad
    }

    /// Number of trailing zero bits (`width` if zero).
    pub fn trailing_zeros(&self) -> u32 {
        let mut n = 0;
        for &w in &self.words {
            n += w.trailing_zeros();
            if w != 0 {
                break;
            }
        }
        n.min(self.width)
    }

    /// Reverses the byte order (width must be a multiple of 8).
    pub fn bswap(&self) -> Bits {
        debug_assert_eq!(self.width % 8, 0, "bswap needs whole bytes");
        if self.is_small() {
            return Bits::small(self.width, self.w0().swap_bytes() >> (64 - self.width));
        }
        let mut b = self.to_bytes_le();
        b.reverse();
        Bits::from_bytes_le(self.width, &b)
    }

    /// Lowercase hexadecimal digits without prefix, zero-padded to
    /// `ceil(width / 4)` digits.
    pub fn to_hex(&self) -> String {
        let digits = self.width.div_ceil(4) as usize;
        let mut s = String::with_capacity(digits);
        for d in (0..digits).rev() {
            let v = (self.words[d / 16] >> ((d % 16) * 4)) & 0xf;
            s.push(char::from_digit(v as u32, 16).unwrap_or('?'));
        }
        s
    }
}

impl fmt::Display for Bits {
    /// Unsigned decimal for widths up to 128 bits, `0x`-prefixed hex above.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.width <= 128 {
            write!(f, "{}", self.to_u128())
        } else {
            write!(f, "0x{}", self.to_hex())
        }
    }
}

#[cfg(test)]
#[path = "bits_tests.rs"]
mod tests;
