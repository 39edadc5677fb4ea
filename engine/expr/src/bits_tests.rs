//! Tests for [`Bits`] against a `u128`/`i128` reference model.

use super::*;
use crate::testutil::XorShift;

fn mask(w: u32) -> u128 {
    if w == 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

fn sx(w: u32, v: u128) -> i128 {
    let s = 128 - w;
    ((v << s) as i128) >> s
}

/// A random value of width `w`, biased towards interesting edge cases.
fn value(rng: &mut XorShift, w: u32) -> u128 {
    let m = mask(w);
    let v = match rng.below(8) {
        0 => 0,
        1 => 1,
        2 => m,
        3 => 1u128 << (w - 1),
        4 => (1u128 << (w - 1)).wrapping_sub(1),
        5 => rng.below(w as u64 + 2) as u128,
        _ => ((rng.next() as u128) << 64) | rng.next() as u128,
    };
    v & m
}

const WIDTHS: &[u32] = &[1, 2, 7, 8, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128];

#[test]
fn arithmetic_matches_u128_reference() {
    let mut rng = XorShift::new(0x5eed);
    for &w in WIDTHS {
        let m = mask(w);
        for _ in 0..400 {
            let (a, b) = (value(&mut rng, w), value(&mut rng, w));
            let (ba, bb) = (Bits::from_u128(w, a), Bits::from_u128(w, b));
            let (sa, sb) = (sx(w, a), sx(w, b));
            let chk = |name: &str, got: Bits, want: u128| {
                assert_eq!(got.width(), w, "{name} width");
                assert_eq!(got.to_u128(), want & m, "{name} w{w} a={a:#x} b={b:#x}");
            };
            chk("add", ba.add(&bb), a.wrapping_add(b));
            chk("sub", ba.sub(&bb), a.wrapping_sub(b));
            chk("mul", ba.mul(&bb), a.wrapping_mul(b));
            chk("udiv", ba.udiv(&bb), a.checked_div(b).unwrap_or(m));
            chk("urem", ba.urem(&bb), if b == 0 { a } else { a % b });
            let sdiv = match (b, sa < 0) {
                (0, true) => 1,
                (0, false) => m,
                _ => sa.wrapping_div(sb) as u128,
            };
            chk("sdiv", ba.sdiv(&bb), sdiv);
            let srem = if b == 0 {
                a
            } else {
                sa.wrapping_rem(sb) as u128
            };
            chk("srem", ba.srem(&bb), srem);
            chk("and", ba.and(&bb), a & b);
            chk("or", ba.or(&bb), a | b);
            chk("xor", ba.xor(&bb), a ^ b);
            chk("not", ba.not(), !a);
            chk("neg", ba.neg(), a.wrapping_neg());
            let shl = if b >= w as u128 { 0 } else { a << b };
            chk("shl", ba.shl(&bb), shl);
            let lshr = if b >= w as u128 { 0 } else { a >> b };
            chk("lshr", ba.lshr(&bb), lshr);
            let ashr = (sa >> (b.min(127) as u32)) as u128;
            chk("ashr", ba.ashr(&bb), ashr);
            assert_eq!(ba.eq(&bb), a == b);
            assert_eq!(ba.ult(&bb), a < b);
            assert_eq!(ba.ule(&bb), a <= b);
            assert_eq!(ba.slt(&bb), sa < sb);
            assert_eq!(ba.sle(&bb), sa <= sb);
            assert_eq!(ba.popcount(), a.count_ones());
            assert_eq!(ba.leading_zeros(), a.leading_zeros() - (128 - w));
            assert_eq!(ba.trailing_zeros(), a.trailing_zeros().min(w));
            assert_eq!(ba.to_i64(), sa as i64);
            assert_eq!(ba.to_i128(), sa);
            assert_eq!(ba.is_zero(), a == 0);
            assert_eq!(ba.is_ones(), a == m);
            assert_eq!(ba.sign_bit(), sa < 0);
            let r = rng.below(w as u64) as u32;
            let rot = if r == 0 {
                a
            } else {
                ((a << r) | (a >> (w - r))) & m
            };
            chk("rotl", ba.rotate_left(r), rot);
            assert_eq!(ba.rotate_left(r).rotate_right(r), ba);
            // Extension, extraction and concatenation.
            let to = w + rng.below(129 - w as u64) as u32;
            let zx = ba.zext(to);
            assert_eq!((zx.width(), zx.to_u128()), (to, a));
            let sxv = ba.sext(to);
            assert_eq!(sxv.to_u128(), (sa as u128) & mask(to));
            let lo = rng.below(w as u64) as u32;
            let ew = 1 + rng.below((w - lo) as u64) as u32;
            assert_eq!(ba.extract(lo, ew).to_u128(), (a >> lo) & mask(ew));
            if w + ew <= 128 {
                let c = Bits::concat(&ba, &ba.extract(lo, ew));
                assert_eq!(c.width(), w + ew);
                assert_eq!(c.to_u128(), (a << ew) | ((a >> lo) & mask(ew)));
            }
            assert_eq!(Bits::from_bytes_le(w, &ba.to_bytes_le()), ba);
            if w & 7 == 0 {
                let bytes = (w / 8) as usize;
                let want = a.swap_bytes() >> (128 - 8 * bytes);
                chk("bswap", ba.bswap(), want);
            }
        }
    }
}

#[test]
fn wide_values_satisfy_identities() {
    let mut rng = XorShift::new(77);
    for &w in &[129u32, 192, 200, 256, 300] {
        for _ in 0..100 {
            let rand = |rng: &mut XorShift| {
                let bytes: Vec<u8> = (0..w.div_ceil(8)).map(|_| rng.next() as u8).collect();
                let mut v = Bits::from_bytes_le(w, &bytes);
                if rng.below(3) == 0 {
                    v = v.lshr(&Bits::from_u64(w, rng.below(w as u64)));
                }
                v
            };
            let (a, b) = (rand(&mut rng), rand(&mut rng));
            assert_eq!(a.add(&b).sub(&b), a);
            assert_eq!(a.sub(&b).add(&b), a);
            assert_eq!(a.add(&a.neg()), Bits::zero(w));
            assert_eq!(a.xor(&b).xor(&b), a);
            assert_eq!(a.not().not(), a);
            let (q, r) = a.udivrem(&b);
            if !b.is_zero() {
                assert!(r.ult(&b));
                assert_eq!(q.mul(&b).add(&r), a);
            }
            assert_eq!(a.sdiv(&b).mul(&b).add(&a.srem(&b)), a);
            let s = rng.below(w as u64) as u32;
            let sb = Bits::from_u64(w, s as u64);
            let pow = Bits::from_u64(w, 1).shl(&sb);
            assert_eq!(a.shl(&sb), a.mul(&pow));
            assert_eq!(a.lshr(&sb), a.udiv(&pow));
            assert_eq!(a.ashr(&sb).sign_bit(), a.sign_bit());
            assert_eq!(a.shl(&sb).lshr(&sb).shl(&sb), a.shl(&sb));
            let c = Bits::concat(&a, &b);
            assert_eq!(c.extract(0, w), b);
            assert_eq!(c.extract(w, w), a);
            assert_eq!(c.width(), 2 * w);
            assert_eq!(a.zext(w + 70).extract(0, w), a);
            assert_eq!(a.sext(w + 70).extract(w, 70).is_ones(), a.sign_bit());
            assert_eq!(Bits::from_bytes_le(w, &a.to_bytes_le()), a);
            if w & 7 == 0 {
                assert_eq!(a.bswap().bswap(), a);
            }
            assert_eq!(a.ult(&b), b.sub(&a).ule(&b) && a != b);
            assert_eq!(
                a.slt(&b),
                a.xor(&Bits::ones(w).lshr(&Bits::from_u64(w, 1)).not())
                    .ult(&b.xor(&Bits::ones(w).lshr(&Bits::from_u64(w, 1)).not()))
            );
        }
    }
}

#[test]
fn smtlib_division_by_zero_and_shifts() {
    for &w in &[1u32, 8, 32, 64, 65, 128, 200] {
        let z = Bits::zero(w);
        let x = Bits::from_u64(w, 5);
        let mx = Bits::from_i64(w, -5);
        assert!(x.udiv(&z).is_ones());
        assert_eq!(x.urem(&z), x);
        assert_eq!(mx.srem(&z), mx);
        assert_eq!(x.srem(&z), x);
        if w > 3 {
            assert!(x.sdiv(&z).is_ones(), "5 sdiv 0 = -1");
            assert_eq!(mx.sdiv(&z), Bits::from_u64(w, 1), "-5 sdiv 0 = 1");
        }
        let big = Bits::from_u64(w, w as u64);
        assert!(mx.shl(&big).is_zero());
        assert!(mx.lshr(&big).is_zero());
        assert!(mx.ashr(&big).is_ones() || w <= 3);
        assert!(x.ashr(&Bits::ones(w)).is_zero() || w <= 3);
        // sdiv MIN / -1 overflows to MIN.
        let min = Bits::from_u64(w, 1).shl(&Bits::from_u64(w, w as u64 - 1));
        assert_eq!(min.sdiv(&Bits::ones(w)), min);
        assert!(min.srem(&Bits::ones(w)).is_zero());
    }
    assert_eq!(
        Bits::from_i64(8, -7).sdiv(&Bits::from_u64(8, 2)).to_i64(),
        -3
    );
    assert_eq!(
        Bits::from_i64(8, -7).srem(&Bits::from_u64(8, 2)).to_i64(),
        -1
    );
    assert_eq!(
        Bits::from_i64(8, 7).srem(&Bits::from_i64(8, -2)).to_i64(),
        1
    );
}

#[test]
fn constructors_and_display() {
    assert_eq!(Bits::from_u64(8, 0x1ff).to_u64(), 0xff);
    assert_eq!(Bits::from_i64(16, -1).to_u64(), 0xffff);
    assert_eq!(Bits::from_i64(100, -1), Bits::ones(100));
    assert_eq!(Bits::from_i64(100, -2).to_i64(), -2);
    assert_eq!(Bits::from_u128(65, u128::MAX).to_u128(), (1u128 << 65) - 1);
    assert!(Bits::from_bool(true).is_true());
    assert!(!Bits::from_bool(false).is_true());
    assert_eq!(Bits::from_bytes_le(32, &[1, 2, 3, 4]).to_u64(), 0x0403_0201);
    assert_eq!(Bits::from_bytes_le(12, &[0xff, 0xff]).to_u64(), 0xfff);
    assert_eq!(Bits::from_u64(12, 0xabc).to_bytes_le(), vec![0xbc, 0x0a]);
    assert_eq!(Bits::from_u64(32, 42).to_string(), "42");
    assert_eq!(Bits::ones(128).to_string(), u128::MAX.to_string());
    assert_eq!(
        Bits::from_u64(200, 0xab).to_string(),
        format!("0x{:0>50}", "ab")
    );
    assert_eq!(Bits::from_u64(13, 0x1abc).to_hex(), "1abc");
    assert_eq!(
        Bits::from_u64(32, 0x0403_0201).bswap().to_u64(),
        0x0102_0304
    );
    assert_eq!(Bits::from_u64(32, 0x40).exact_log2(), Some(6));
    assert_eq!(Bits::from_u64(32, 0x41).exact_log2(), None);
    assert_eq!(Bits::zero(70).trailing_zeros(), 70);
    assert_eq!(Bits::zero(70).leading_zeros(), 70);
}
