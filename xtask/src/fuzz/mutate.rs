//! Mutants of real inputs (bitcode, `.ktest` files, `symtest.toml`): byte
//! flips, random bytes, truncations, deletions, duplications and splices of
//! other inputs (and, for text, hostile tokens). Deterministic for a seed.
//!
//! Shared by `cargo xtask fuzz` and the bounded fuzz test of
//! `cargo-symtest/tests/it/fuzz.rs` (included there with `#[path]`): std only.

/// xorshift64*: small, seeded, the same sequence on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Avoid the all-zero state; spread nearby seeds.
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x2545_f491_4f6c_dd1d | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Values that make length and count fields interesting.
const INTERESTING_U32: &[u32] = &[
    0,
    1,
    2,
    0x7f,
    0x80,
    0xff,
    0x100,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_fffe,
    0xffff_ffff,
];

/// One mutant of `input`: one to four edits, `others` as splice donors.
/// The result is never identical to `input` unless `input` is empty.
pub fn mutate_bytes(rng: &mut Rng, input: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
    let mut d = input.to_vec();
    // Mostly one edit: binary formats rarely survive several, and a mutant
    // the first check refuses tests nothing deeper.
    let edits = if rng.chance(70) { 1 } else { 2 + rng.below(3) };
    for _ in 0..edits {
        if d.is_empty() {
            d.push(rng.next() as u8);
            continue;
        }
        match rng.below(9) {
            // Flip bits.
            0 => {
                for _ in 0..1 + rng.below(8) {
                    let i = rng.below(d.len());
                    d[i] ^= 1 << rng.below(8);
                }
            }
            // Random bytes.
            1 => {
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(d.len());
                    d[i] = rng.next() as u8;
                }
            }
            // Truncate.
            2 => {
                let n = rng.below(d.len());
                d.truncate(n);
            }
            // Delete a range.
            3 => {
                let a = rng.below(d.len());
                let b = (a + 1 + rng.below(64)).min(d.len());
                d.drain(a..b);
            }
            // Duplicate a range in place.
            4 => {
                let a = rng.below(d.len());
                let b = (a + 1 + rng.below(256)).min(d.len());
                let chunk = d[a..b].to_vec();
                let at = rng.below(d.len() + 1);
                d.splice(at..at, chunk);
            }
            // Splice a piece of another input in.
            5 if !others.is_empty() => {
                let o = rng.pick(others);
                if !o.is_empty() {
                    let a = rng.below(o.len());
                    let b = (a + 1 + rng.below(512)).min(o.len());
                    let at = rng.below(d.len() + 1);
                    d.splice(at..at, o[a..b].iter().copied());
                }
            }
            // An interesting 32-bit value over four bytes (either byte order).
            6 | 5 => {
                if d.len() >= 4 {
                    let v = *rng.pick(INTERESTING_U32);
                    let bytes = if rng.chance(50) {
                        v.to_be_bytes()
                    } else {
                        v.to_le_bytes()
                    };
                    let i = rng.below(d.len() - 3);
                    d[i..i + 4].copy_from_slice(&bytes);
                }
            }
            // Append bytes (trailing data).
            7 => {
                for _ in 0..1 + rng.below(16) {
                    d.push(rng.next() as u8);
                }
            }
            // Add or subtract a small amount from one byte.
            _ => {
                let i = rng.below(d.len());
                let delta = 1 + rng.below(16) as u8;
                d[i] = if rng.chance(50) {
                    d[i].wrapping_add(delta)
                } else {
                    d[i].wrapping_sub(delta)
                };
            }
        }
    }
    if d == input && !input.is_empty() {
        let i = rng.below(d.len());
        d[i] ^= 0x55;
    }
    d
}

/// Tokens a hostile or careless `symtest.toml` may hold.
pub const TOML_TOKENS: &[&str] = &[
    "1e300",
    "-1",
    "0",
    "nan",
    "inf",
    "-inf",
    "18446744073709551616",
    "9223372036854775807",
    "4294967296",
    "0.0000001",
    "\"../../escaped\"",
    "\"/tmp/symtest-fuzz-absolute\"",
    "\".\"",
    "\"src\"",
    "\"summary.json\"",
    "\"exec-last\"",
    "\"capture\"",
    "'$(shell touch pwned_fuzz)'",
    "\"`touch pwned_fuzz`\"",
    "\";touch pwned_fuzz\"",
    "[\"--output-dir\", \"/tmp/symtest-fuzz-out\"]",
    "[\"--max-time\", \"1e300\"]",
    "[\"--\", \"x\"]",
    "[\"--sym-args\", \"9\", \"1\", \"2\"]",
    "[\"--sym-files\", \"27\", \"1\"]",
    "[\"--help\"]",
    "[\"--sym-stdin\", \"100000000\"]",
    "[\"--sym-files\", \"26\", \"16777216\"]",
    "[\"--sym-args\", \"0\", \"100\", \"4096\"]",
    "[\"--sym-arg\", \"4294967296\"]",
    "[\"--sym-stdin\", \"2000000\", \"--sym-files\", \"1\", \"2000000\"]",
    "true",
    "[]",
    "[[target]]",
    "]]",
    "\"\"\"",
    "'''",
    "\"\\u0000\"",
    "\"a\\nb\"",
    "\"\u{e9}\u{1f600}\"",
    "{ a = 1 }",
    "\n",
    "=",
    "#",
];

/// The POSIX environment's options (KLEE's) that mutants of a program's
/// arguments start from, and the sizes they put in: the bounds and one past
/// them, sizes whose symbolic bytes cannot fit the memory cap, integer
/// limits, and words that are no number.
pub const ENV_SEED: &[&str] = &[
    "--sym-args",
    "0",
    "2",
    "4",
    "--sym-files",
    "1",
    "8",
    "--sym-stdin",
    "8",
    "--max-fail",
    "1",
];
pub const ENV_OPTIONS: &[&str] = &[
    "--sym-arg",
    "--sym-args",
    "--sym-files",
    "--sym-stdin",
    "--max-fail",
    "--sym-stdout",
    "-sym-stdin",
    "-sym-arg",
];
pub const ENV_SIZES: &[&str] = &[
    "0",
    "1",
    "2",
    "8",
    "26",
    "27",
    "100",
    "101",
    "255",
    "4096",
    "4097",
    "65536",
    "131071",
    "131072",
    "1000000",
    "2000000",
    "3000000",
    "16777216",
    "16777217",
    "100000000",
    "999999999",
    "1000000000",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "-1",
    "1e9",
    "0x10",
    "",
    " 5",
    "5 ",
    "+5",
];

/// One mutant of an environment option list: sizes replaced by hostile ones,
/// options inserted, dropped, duplicated or cut short.
pub fn mutate_env(rng: &mut Rng) -> Vec<String> {
    let mut v: Vec<String> = ENV_SEED.iter().map(|s| s.to_string()).collect();
    for _ in 0..1 + rng.below(3) {
        match rng.below(6) {
            // A number replaced.
            0 | 1 => {
                let nums: Vec<usize> = (0..v.len()).filter(|&i| !v[i].starts_with('-')).collect();
                if let Some(&i) = nums.get(rng.below(nums.len().max(1))) {
                    v[i] = rng.pick(ENV_SIZES).to_string();
                }
            }
            // An option with hostile sizes inserted.
            2 | 3 => {
                let opt = *rng.pick(ENV_OPTIONS);
                let n = match opt.trim_start_matches('-') {
                    "sym-args" => 3,
                    "sym-files" => 2,
                    "sym-stdout" => 0,
                    _ => 1,
                };
                let at = rng.below(v.len() + 1);
                let mut words = vec![opt.to_string()];
                for _ in 0..n {
                    words.push(rng.pick(ENV_SIZES).to_string());
                }
                v.splice(at..at, words);
            }
            // A word dropped or duplicated.
            4 => {
                let i = rng.below(v.len().max(1));
                if i < v.len() {
                    if rng.chance(50) {
                        v.remove(i);
                    } else {
                        let w = v[i].clone();
                        v.insert(i, w);
                    }
                }
            }
            // Cut short.
            _ => {
                let n = rng.below(v.len() + 1);
                v.truncate(n);
            }
        }
    }
    v
}

/// Keys a mutant may add or repeat.
pub const TOML_KEYS: &[&str] = &[
    "name",
    "kind",
    "sources",
    "include",
    "defines",
    "cflags",
    "sanitize",
    "args",
    "max-time",
    "max-instructions",
    "max-memory",
    "seed",
    "search",
    "entry-point",
    "exec-args",
    "suite-dir",
    "unknown-key",
];

/// One mutant of a TOML text: byte-level edits, line edits, or a hostile
/// value or key inserted.
pub fn mutate_toml(rng: &mut Rng, input: &str) -> Vec<u8> {
    let lines: Vec<&str> = input.lines().collect();
    match rng.below(6) {
        0 | 1 => mutate_bytes(rng, input.as_bytes(), &[]),
        // Replace the value of a `key = value` line.
        2 => {
            let mut out = lines.clone();
            let kv: Vec<usize> = (0..out.len()).filter(|&i| out[i].contains('=')).collect();
            let token = *rng.pick(TOML_TOKENS);
            let replaced;
            if let Some(&i) = kv.get(rng.below(kv.len().max(1))) {
                let key = out[i].split('=').next().unwrap_or("").trim_end();
                replaced = format!("{key} = {token}");
                out[i] = &replaced;
            }
            join(&out)
        }
        // Insert `key = token` somewhere.
        3 => {
            let mut out: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            let at = rng.below(out.len() + 1);
            let line = format!("{} = {}", rng.pick(TOML_KEYS), rng.pick(TOML_TOKENS));
            out.insert(at, line);
            out.join("\n").into_bytes()
        }
        // Delete, duplicate or swap lines.
        4 => {
            let mut out = lines.clone();
            if !out.is_empty() {
                let i = rng.below(out.len());
                match rng.below(3) {
                    0 => {
                        out.remove(i);
                    }
                    1 => out.insert(i, lines[rng.below(lines.len())]),
                    _ => {
                        let j = rng.below(out.len());
                        out.swap(i, j);
                    }
                }
            }
            join(&out)
        }
        // A token spliced into the middle of a line.
        _ => {
            let mut text = input.as_bytes().to_vec();
            let at = rng.below(text.len() + 1);
            text.splice(at..at, rng.pick(TOML_TOKENS).bytes());
            text
        }
    }
}

fn join(lines: &[&str]) -> Vec<u8> {
    let mut s = lines.join("\n");
    s.push('\n');
    s.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_different() {
        let input: Vec<u8> = (0..200u8).collect();
        let a: Vec<Vec<u8>> = {
            let mut r = Rng::new(7);
            (0..50).map(|_| mutate_bytes(&mut r, &input, &[])).collect()
        };
        let b: Vec<Vec<u8>> = {
            let mut r = Rng::new(7);
            (0..50).map(|_| mutate_bytes(&mut r, &input, &[])).collect()
        };
        assert_eq!(a, b);
        assert!(a.iter().all(|m| m != &input));
        let mut r = Rng::new(8);
        let t = "[[target]]\nname = \"a\"\n";
        let m: Vec<Vec<u8>> = (0..50).map(|_| mutate_toml(&mut r, t)).collect();
        assert!(m.iter().any(|x| x != t.as_bytes()));
    }
}
