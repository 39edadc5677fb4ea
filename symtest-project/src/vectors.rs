//! Test vectors a person can read in a pull request: bytes as C string
//! literals with escapes (hex only for binary data), and each test's input as
//! the command line that runs it by hand (the same rendering as the suite
//! runner's "reproduce:" line).

use crate::config::Kind;
use crate::discovery::Target;
use crate::testcases::EngineTest;
use std::fmt::Write as _;

/// Whether `bytes` read as text: before the NULs that end them (arguments
/// end in NULs), nine in ten are printable ASCII, newlines or tabs.
fn text_like(bytes: &[u8]) -> bool {
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
    let body = &bytes[..end];
    let texty = body
        .iter()
        .filter(|&&b| (0x20..0x7f).contains(&b) || b == b'\n' || b == b'\t')
        .count();
    !body.is_empty() && texty * 10 >= body.len() * 9
}

/// A C string literal of exactly `bytes` (escapes for what is not
/// printable; octal escapes always have three digits, so a following digit
/// stays a digit; `?` escaped against trigraphs).
pub fn c_literal(bytes: &[u8]) -> String {
    let mut o = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => o.push_str("\\\""),
            b'\\' => o.push_str("\\\\"),
            b'?' => o.push_str("\\?"),
            b'\n' => o.push_str("\\n"),
            b'\t' => o.push_str("\\t"),
            0x20..=0x7e => o.push(b as char),
            _ => {
                let _ = write!(o, "\\{b:03o}");
            }
        }
    }
    o.push('"');
    o
}

/// The declaration of one object's bytes: a string literal when they read as
/// text, else hex. The array has exactly their length (a string literal's
/// terminating NUL is not part of it, as C allows).
pub fn object_decl(var: &str, bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return format!("static const unsigned char {var}[1] = {{0}};");
    }
    if text_like(bytes) {
        return format!(
            "static const unsigned char {var}[{}] = {};",
            bytes.len(),
            c_literal(bytes)
        );
    }
    let hex: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
    format!(
        "static const unsigned char {var}[] = {{{}}};",
        hex.join(", ")
    )
}

/// One shell word: 'plain', or $'with\nescapes' for bytes a terminal would
/// not show.
fn shell_word(s: &[u8]) -> String {
    if !s.is_empty()
        && s.iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"_@%+=:,./-".contains(&b))
    {
        return String::from_utf8_lossy(s).into_owned();
    }
    if s.iter().all(|&b| (0x20..0x7f).contains(&b)) {
        return format!("'{}'", String::from_utf8_lossy(s).replace('\'', "'\\''"));
    }
    let mut o = String::from("$'");
    for &b in s {
        match b {
            b'\n' => o.push_str("\\n"),
            b'\t' => o.push_str("\\t"),
            b'\'' | b'\\' => {
                o.push('\\');
                o.push(b as char);
            }
            0x20..=0x7e => o.push(b as char),
            _ => {
                let _ = write!(o, "\\{b:03o}");
            }
        }
    }
    o.push('\'');
    o
}

/// `printf '...'` of `bytes` (POSIX printf: octal escapes).
fn printf_bytes(bytes: &[u8]) -> String {
    let mut o = String::from("printf '");
    for &b in bytes {
        match b {
            b'\n' => o.push_str("\\n"),
            b'\'' | b'\\' | b'%' => {
                let _ = write!(o, "\\{b:03o}");
            }
            0x20..=0x7e => o.push(b as char),
            _ => {
                let _ = write!(o, "\\{b:03o}");
            }
        }
    }
    o.push('\'');
    o
}

fn opt_is(a: &str, name: &str) -> bool {
    let a = a.strip_prefix("--").or_else(|| a.strip_prefix('-'));
    a == Some(name)
}

/// The permission bits of a recorded `struct stat` (x86_64 Linux: `st_mode`
/// at offset 24), `None` when the object is too short to hold them.
fn stat_mode(stat: &[u8]) -> Option<u32> {
    let b: [u8; 4] = stat.get(24..28)?.try_into().ok()?;
    Some(u32::from_le_bytes(b) & 0o7777)
}

/// The test's input: for a whole program the shell command that runs it by
/// hand (files written, stdin piped, arguments quoted), for a harness the
/// values of its symbolic objects.
pub fn input_line(target: &Target, test: &EngineTest) -> String {
    if target.kind != Kind::Program {
        return harness_values(test);
    }
    let args = test.own_args(target).unwrap_or(&target.args);
    let mut line = String::new();
    write_files_and_stdin(test, args, &mut line);
    line.push_str(&target.name);
    write_arguments(test, args, &mut line);
    let fails: Vec<String> = test
        .objects
        .iter()
        .filter(|(n, b)| n.ends_with("_fail") && b.len() == 4 && b.iter().any(|&x| x != 0))
        .map(|(n, b)| {
            format!(
                "{}={}",
                n.trim_end_matches("_fail"),
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            )
        })
        .collect();
    if !fails.is_empty() {
        let _ = write!(line, "   (failures injected: {})", fails.join(","));
    }
    line
}

/// The `nth` object of the test named `name`.
fn object<'a>(test: &'a EngineTest, name: &str, nth: usize) -> Option<&'a [u8]> {
    test.objects
        .iter()
        .filter(|(n, _)| n == name)
        .nth(nth)
        .map(|(_, b)| b.as_slice())
}

/// A harness test's symbolic objects: small binary ones as numbers, the
/// others as C literals.
fn harness_values(test: &EngineTest) -> String {
    let parts: Vec<String> = test
        .objects
        .iter()
        .map(|(n, b)| {
            if b.len() <= 8 && !text_like(b) {
                let v = b
                    .iter()
                    .rev()
                    .fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
                format!("{n} = {v} (0x{v:0w$x})", w = b.len() * 2)
            } else {
                format!("{n} = {}", c_literal(b))
            }
        })
        .collect();
    parts.join(", ")
}

/// The shell commands that write the test's files (and their modes), then
/// the pipe of its stdin.
fn write_files_and_stdin(test: &EngineTest, args: &[String], line: &mut String) {
    if let Some(files) = args
        .windows(2)
        .find(|w| opt_is(&w[0], "sym-files"))
        .and_then(|w| w[1].parse::<usize>().ok())
    {
        for k in 0..files.min(26) {
            let letter = (b'A' + k as u8) as char;
            if let Some(b) = object(test, &format!("{letter}-data"), 0) {
                let _ = write!(line, "{} > {letter}; ", printf_bytes(b));
            }
            // The mode the engine chose, when a shell's umask 022 would not
            // give it.
            if let Some(m) = object(test, &format!("{letter}-data-stat"), 0)
                .and_then(stat_mode)
                .filter(|&m| m != 0o644)
            {
                let _ = write!(line, "chmod {m:o} {letter}; ");
            }
        }
    }
    if let Some(b) = object(test, "stdin", 0) {
        let _ = write!(line, "{} | ", printf_bytes(b));
    }
}

/// The program's arguments, shell-quoted: the symbolic ones as the test
/// gives them, the environment options left out, the others as written.
fn write_arguments(test: &EngineTest, args: &[String], line: &mut String) {
    let until_nul = |b: &[u8]| {
        b.iter()
            .take_while(|&&x| x != 0)
            .copied()
            .collect::<Vec<u8>>()
    };
    let (mut k, mut sym, mut nargs) = (0usize, 0usize, 0usize);
    while k < args.len() {
        let a = &args[k];
        if opt_is(a, "sym-arg") && k + 1 < args.len() {
            if let Some(b) = object(test, &format!("arg{sym:02}"), 0) {
                let _ = write!(line, " {}", shell_word(&until_nul(b)));
            }
            sym += 1;
            k += 2;
        } else if opt_is(a, "sym-args") && k + 3 < args.len() {
            let hi: usize = args[k + 2].parse().unwrap_or(0);
            let count = object(test, "n_args", nargs)
                .filter(|b| b.len() == 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
            nargs += 1;
            for j in 0..hi {
                if j < count {
                    if let Some(b) = object(test, &format!("arg{sym:02}"), 0) {
                        let _ = write!(line, " {}", shell_word(&until_nul(b)));
                    }
                }
                sym += 1;
            }
            k += 4;
        } else if opt_is(a, "sym-files") {
            k += 3;
        } else if opt_is(a, "sym-stdin") || opt_is(a, "max-fail") {
            k += 2;
        } else if opt_is(a, "sym-stdout") {
            k += 1;
        } else {
            let _ = write!(line, " {}", shell_word(a.as_bytes()));
            k += 1;
        }
    }
}

/// What a test covered first in the engine, briefly (`src/uniq.c:461,462`).
pub fn first_lines_note(test: &EngineTest) -> Option<String> {
    let mut parts = Vec::new();
    for (file, lines) in &test.first_lines {
        if lines.is_empty() {
            continue;
        }
        let shown: Vec<String> = lines.iter().take(6).map(u32::to_string).collect();
        let more = if lines.len() > 6 {
            format!(" and {} more", lines.len() - 6)
        } else {
            String::new()
        };
        let name = file.rsplit('/').next().unwrap_or(file);
        parts.push(format!("{name}:{}{more}", shown.join(",")));
        if parts.len() == 3 {
            break;
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// A comment's text: nothing in it can end the comment.
pub fn comment_safe(s: &str) -> String {
    s.replace("*/", "* /").replace(['\n', '\r'], " ")
}

/// The bytes a C string literal of [`c_literal`] holds (escapes undone).
fn unescape_literal(body: &str) -> Vec<u8> {
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        i += 2;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                let mut k = 0;
                while k < 2 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    k += 1;
                }
                out.push(v as u8);
            }
            other => out.push(other),
        }
    }
    out
}

/// The test vectors of a suite's `symtest_tests.c` (as [`object_decl`] and
/// the suite writer make it): per test, its objects in order.
pub fn parse_tests_c(text: &str) -> Vec<Vec<(String, Vec<u8>)>> {
    use std::collections::BTreeMap;
    let mut arrays: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut tables: BTreeMap<usize, Vec<(String, usize, String)>> = BTreeMap::new();
    let mut in_table: Option<usize> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("static const unsigned char ") {
            let Some((decl, init)) = rest.split_once(" = ") else {
                continue;
            };
            let var = decl.split('[').next().unwrap_or("").to_string();
            let init = init.trim_end_matches(';').trim();
            let bytes = if let Some(lit) = init.strip_prefix('"').and_then(|x| x.strip_suffix('"'))
            {
                unescape_literal(lit)
            } else {
                init.trim_start_matches('{')
                    .trim_end_matches('}')
                    .split(',')
                    .filter_map(|x| {
                        let x = x.trim();
                        x.strip_prefix("0x").map_or_else(
                            || x.parse::<u8>().ok(),
                            |h| u8::from_str_radix(h, 16).ok(),
                        )
                    })
                    .collect()
            };
            arrays.insert(var, bytes);
            continue;
        }
        if let Some(rest) = t.strip_prefix("static const struct symtest_object t") {
            in_table = rest.split('_').next().and_then(|n| n.parse().ok());
            continue;
        }
        if t == "};" {
            in_table = None;
            continue;
        }
        if let Some(k) = in_table {
            // {"name", size, tI_oJ},
            let Some(inner) = t.strip_prefix("{\"").and_then(|x| x.strip_suffix("},")) else {
                continue;
            };
            let Some((name, rest)) = inner.rsplit_once("\", ") else {
                continue;
            };
            let mut parts = rest.split(',').map(str::trim);
            let (Some(size), Some(var)) = (parts.next().and_then(|x| x.parse().ok()), parts.next())
            else {
                continue;
            };
            let name = String::from_utf8_lossy(&unescape_literal(name)).into_owned();
            tables
                .entry(k)
                .or_default()
                .push((name, size, var.to_string()));
        }
    }
    tables
        .into_values()
        .map(|objs| {
            objs.into_iter()
                .map(|(name, size, var)| {
                    let mut b = arrays.get(&var).cloned().unwrap_or_default();
                    b.resize(size, 0);
                    (name, b)
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_hold_exactly_the_bytes() {
        assert_eq!(c_literal(b"-c\0"), "\"-c\\000\"");
        assert_eq!(c_literal(b"a\n\x001"), "\"a\\n\\0001\"");
        assert_eq!(c_literal(b"??="), "\"\\?\\?=\"");
        assert_eq!(
            object_decl("x", b"-c\0"),
            "static const unsigned char x[3] = \"-c\\000\";"
        );
        assert!(
            object_decl("y", &[0x4d, 0x59, 0x53, 0x01, 0x02, 0x03, 0x04, 0x05])
                .contains("0x4d, 0x59")
        );
        assert_eq!(
            object_decl("z", b""),
            "static const unsigned char z[1] = {0};"
        );
    }

    #[test]
    fn suite_vectors_read_back() {
        let text = format!(
            "{}\n{}\n{}\nstatic const struct symtest_object t0_objects[] = {{\n  {{\"arg00\", 3, t0_o0}},\n  {{\"A-data-stat\", 8, t0_o1}},\n  {{\"stdin\", 0, t0_o2}},\n}};\n",
            object_decl("t0_o0", b"-c\0"),
            object_decl("t0_o1", &[0x4d, 0x59, 0x53, 1, 2, 3, 0x80, 0xff]),
            object_decl("t0_o2", b""),
        );
        let v = parse_tests_c(&text);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0][0], ("arg00".to_string(), b"-c\0".to_vec()));
        assert_eq!(v[0][1].1, [0x4d, 0x59, 0x53, 1, 2, 3, 0x80, 0xff]);
        assert_eq!(v[0][2].1, Vec::<u8>::new());
        assert_eq!(unescape_literal("a\\n\\0001\\?"), b"a\n\x001?");
    }

    #[test]
    fn shell_words_quote_and_escape() {
        assert_eq!(shell_word(b"x y"), "'x y'");
        assert_eq!(shell_word(b"-w"), "-w");
        assert_eq!(shell_word(b""), "''");
        assert_eq!(shell_word(b"it's"), "'it'\\''s'");
        assert_eq!(shell_word(b"\x01a"), "$'\\001a'");
        assert_eq!(printf_bytes(b"a\n%\0"), "printf 'a\\n\\045\\000'");
    }
}
