//! Repository checks, run as ordinary tests (`cargo test -p xtask`), and
//! `cargo xtask tidy`: a report (never a failure) of what the checks do not
//! enforce yet, today the non-test functions over [`LONG_FN_LINES`] lines.

use std::path::{Path, PathBuf};

use crate::paths::workspace_root;

/// A function longer than this many lines (from its `fn` line to its closing
/// brace) is listed by `cargo xtask tidy`.
pub const LONG_FN_LINES: usize = 100;

/// `cargo xtask tidy`: prints the report, never fails.
pub fn run() {
    let root = workspace_root();
    let mut files = Vec::new();
    rust_sources(&root, &mut files);
    files.sort();
    let mut long = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        for l in long_functions(&text, LONG_FN_LINES) {
            long.push((rel.clone(), l));
        }
    }
    long.sort_by(|(fa, a), (fb, b)| {
        b.lines
            .cmp(&a.lines)
            .then(fa.cmp(fb))
            .then(a.line.cmp(&b.line))
    });
    let (tables, others): (Vec<_>, Vec<_>) = long.iter().partition(|(_, l)| l.dispatch);
    println!(
        "non-test functions over {LONG_FN_LINES} lines: {} ({} more are `match` dispatch tables)",
        others.len(),
        tables.len()
    );
    for (f, l) in &others {
        println!("  {f}:{} {} {}", l.line, l.name, l.lines);
    }
    println!(
        "`match` dispatch tables over {LONG_FN_LINES} lines (one `match` spans 3/4 of the body or more): {}",
        tables.len()
    );
    for (f, l) in &tables {
        println!("  {f}:{} {} {}", l.line, l.name, l.lines);
    }
}

/// The non-test `.rs` files under `dir`: no `target/`, `.git/`, output
/// directories, nor `tests/` directories (integration tests and fixtures).
fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name == "target" || name == ".git" || name.starts_with("symtest-out") {
            continue;
        }
        if p.is_dir() {
            if name != "tests" {
                rust_sources(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A function of more than the asked number of lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongFn {
    pub name: String,
    /// 1-based line of its `fn`.
    pub line: usize,
    /// Lines from the `fn` line to the closing brace, both counted.
    pub lines: usize,
    /// One `match` spans at least 3/4 of its lines: a dispatch table.
    pub dispatch: bool,
}

/// The functions of Rust source `text` longer than `over` lines, in source
/// order, counted by brace matching (braces in comments, strings and character
/// literals do not count). Items under `#[test]` or `#[cfg(test)]` (test
/// functions, test modules) are left out; a function nested in another is
/// listed on its own as well.
pub fn long_functions(text: &str, over: usize) -> Vec<LongFn> {
    let code = mask(text);
    let line_of = |i: usize| 1 + code[..i].iter().filter(|&&c| c == '\n').count();
    let excluded = test_items(&code);
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = find_word(&code, "fn", i) {
        i = at + 2;
        if excluded.iter().any(|r| r.contains(&at)) {
            continue;
        }
        let mut j = skip_space(&code, at + 2);
        let start = j;
        while j < code.len() && is_ident(code[j]) {
            j += 1;
        }
        if j == start {
            continue; // `fn(u8) -> u8`, a macro's `fn $name`
        }
        let name: String = code[start..j].iter().collect();
        let Some(open) = item_body(&code, j) else {
            continue; // a declaration without a body
        };
        let Some(close) = matching_brace(&code, open) else {
            continue;
        };
        let (first, last) = (line_of(at), line_of(close));
        let lines = last - first + 1;
        if lines <= over {
            continue;
        }
        let widest_match = matches_in(&code, open, close)
            .map(|(o, c)| line_of(c) - line_of(o) + 1)
            .max()
            .unwrap_or(0);
        out.push(LongFn {
            name,
            line: first,
            lines,
            dispatch: widest_match * 4 >= lines * 3,
        });
    }
    out
}

/// `text` with comments, string and character literals blanked (newlines kept).
fn mask(text: &str) -> Vec<char> {
    let src: Vec<char> = text.chars().collect();
    let mut out = src.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in &mut out[from..to.min(src.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        let next = src.get(i + 1).copied();
        let ident_before = i > 0 && is_ident(src[i - 1]);
        if c == '/' && next == Some('/') {
            let end = src[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(src.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if c == '/' && next == Some('*') {
            let (mut j, mut depth) = (i + 2, 1);
            while j < src.len() && depth > 0 {
                if src[j] == '/' && src.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if src[j] == '*' && src.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if let Some((hashes, quote)) = raw_string_start(&src, i).filter(|_| !ident_before) {
            // r"..", r#".."#, br"..", cr"..": ends at `"` and as many `#`.
            let mut j = quote + 1;
            while j < src.len() {
                if src[j] == '"'
                    && src[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes
                {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            blank(&mut out, i, j);
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < src.len() && src[j] != '"' {
                j += if src[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), else a lifetime or label.
            let end = if next == Some('\\') {
                src.get(i + 3..)
                    .and_then(|r| r.iter().position(|&c| c == '\''))
                    .map(|n| i + 3 + n)
            } else if src.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    blank(&mut out, i, e + 1);
                    i = e + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

/// At `i`, the start of a raw string literal: its number of `#` and the
/// position of its opening quote.
fn raw_string_start(src: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if matches!(src[j], 'b' | 'c') && src.get(j + 1) == Some(&'r') {
        j += 1;
    }
    if src[j] != 'r' {
        return None;
    }
    j += 1;
    let hashes = src[j..].iter().take_while(|&&c| c == '#').count();
    (src.get(j + hashes) == Some(&'"')).then_some((hashes, j + hashes))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn skip_space(code: &[char], mut i: usize) -> usize {
    while i < code.len() && code[i].is_whitespace() {
        i += 1;
    }
    i
}

/// The next occurrence of the keyword `word` at or after `from`.
fn find_word(code: &[char], word: &str, from: usize) -> Option<usize> {
    let w: Vec<char> = word.chars().collect();
    (from..code.len().saturating_sub(w.len() - 1)).find(|&i| {
        code[i..i + w.len()] == w[..]
            && (i == 0 || !is_ident(code[i - 1]))
            && !matches!(code.get(i + w.len()), Some(&c) if is_ident(c))
    })
}

/// The `{` opening the item whose header starts at `from`, or `None` when
/// a `;` (outside parentheses and brackets) ends it first.
fn item_body(code: &[char], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &c) in code.iter().enumerate().skip(from) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' if depth == 0 => return Some(i),
            ';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The `}` closing the `{` at `open`.
fn matching_brace(code: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &c) in code.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The braces of each `match` between `open` and `close`.
fn matches_in(
    code: &[char],
    open: usize,
    close: usize,
) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = open;
    std::iter::from_fn(move || loop {
        let at = find_word(code, "match", i).filter(|&at| at < close)?;
        i = at + 5;
        if let Some(o) = item_body(code, i) {
            if let Some(c) = matching_brace(code, o) {
                return Some((o, c));
            }
        }
    })
}

/// The source ranges of the items under `#[test]` or `#[cfg(test)]`, from the
/// attribute to the item's closing brace (or its `;`).
fn test_items(code: &[char]) -> Vec<std::ops::Range<usize>> {
    let text: String = code.iter().collect();
    // Positions in chars, not bytes: the masked text may hold non-ASCII.
    let char_at: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
    let mut out = Vec::new();
    for attr in ["#[test]", "#[cfg(test)]"] {
        for (b, _) in text.match_indices(attr) {
            let at = char_at.partition_point(|&x| x < b);
            let after = at + attr.chars().count();
            let end = match item_body(code, after) {
                Some(o) => matching_brace(code, o).unwrap_or(code.len()),
                None => (after..code.len())
                    .find(|&i| code[i] == ';')
                    .unwrap_or(code.len()),
            };
            out.push(at..end + 1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_under(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            let name = e.file_name();
            if name == "target"
                || name == ".git"
                || name.to_string_lossy().starts_with("symtest-out")
            {
                continue;
            }
            if p.is_dir() {
                files_under(&p, ext, out);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }

    fn manifests() -> Vec<PathBuf> {
        let mut v = Vec::new();
        files_under(&workspace_root(), "toml", &mut v);
        v.retain(|p| p.file_name().is_some_and(|n| n == "Cargo.toml"));
        v
    }

    fn rel(p: &Path) -> String {
        p.strip_prefix(workspace_root())
            .unwrap_or(p)
            .display()
            .to_string()
    }

    fn dependency_lines(manifest: &Path) -> Vec<String> {
        let text = std::fs::read_to_string(manifest).unwrap();
        let mut in_deps = false;
        let mut out = Vec::new();
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with('[') {
                in_deps = t.contains("dependencies");
                continue;
            }
            if in_deps && !t.is_empty() && !t.starts_with('#') {
                out.push(t.to_string());
            }
        }
        out
    }

    #[test]
    fn long_functions_are_counted_by_braces_outside_tests() {
        let snippet = r####"
/// Braces in comments { and strings do not count.
fn long(x: [u8; 4]) -> u8 {
    let s = "}}}";
    let c = '}';
    let r = r#"{ "# ;
    /* } { */
    let _ = (s, c, r, '\'', '\\');
    x[0]
}

fn short<'a>(s: &'a str) -> &'a str {
    s
}

fn dispatch(op: u8) -> u8 {
    match op {
        0 => 1,
        1 => 2,
        2 => 3,
        _ => 0,
    }
}

trait T {
    fn declared(&self);
    fn with_default(&self) {
        let f: fn(u8) -> u8 = |x| {
            x + 1
        };
        f(0);
    }
}

#[test]
fn a_test() {
    let a = 1;
    let b = 2;
    let c = 3;
    assert_eq!(a + b, c);
}

#[cfg(test)]
mod tests {
    fn helper() {
        let a = 1;
        let b = 2;
        let c = 3;
        let _ = a + b + c;
    }
}
"####;
        let found = long_functions(snippet, 4);
        let got: Vec<(&str, usize, usize, bool)> = found
            .iter()
            .map(|f| (f.name.as_str(), f.line, f.lines, f.dispatch))
            .collect();
        assert_eq!(
            got,
            [
                ("long", 3, 8, false),
                ("dispatch", 16, 8, true),
                ("with_default", 27, 6, false),
            ]
        );
        // Over 100 lines: none in the snippet.
        assert!(long_functions(snippet, LONG_FN_LINES).is_empty());
    }

    #[test]
    fn only_the_loader_depends_on_llvm() {
        for m in manifests() {
            let r = rel(&m);
            if r == "Cargo.toml" || r == "engine/loader/Cargo.toml" {
                continue;
            }
            for dep in dependency_lines(&m) {
                assert!(
                    !dep.starts_with("inkwell") && !dep.starts_with("llvm-sys"),
                    "{r} depends on LLVM (`{dep}`): only engine/loader may"
                );
            }
        }
    }

    #[test]
    fn only_the_solver_depends_on_bitwuzla() {
        for m in manifests() {
            let r = rel(&m);
            if r == "Cargo.toml" || r == "engine/solver/Cargo.toml" {
                continue;
            }
            for dep in dependency_lines(&m) {
                assert!(
                    !dep.starts_with("bitwuzla-sys"),
                    "{r} depends on bitwuzla-sys (`{dep}`): only engine/solver may"
                );
            }
        }
        // Inside the solver crate, one module names the backend: bitwuzla.rs
        // and its submodules in bitwuzla/.
        let mut rs = Vec::new();
        files_under(&workspace_root().join("engine/solver/src"), "rs", &mut rs);
        for f in rs {
            let text = std::fs::read_to_string(&f).unwrap();
            let backend = f.file_name().is_some_and(|n| n == "bitwuzla.rs")
                || f.parent()
                    .is_some_and(|d| d.ends_with("engine/solver/src/bitwuzla"));
            if backend {
                continue;
            }
            assert!(
                !text.contains("bitwuzla_sys"),
                "{} names bitwuzla_sys: keep it in the backend module (bitwuzla.rs, bitwuzla/)",
                rel(&f)
            );
        }
    }

    #[test]
    fn engine_prints_nothing() {
        let mut rs = Vec::new();
        files_under(&workspace_root().join("engine"), "rs", &mut rs);
        for f in rs {
            let r = rel(&f);
            if r.contains("/tests/") || r.ends_with("tests.rs") || r.contains("build.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            // Only code before the unit-test module counts.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for bad in ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("] {
                assert!(
                    !code.contains(bad),
                    "{r} uses {bad}: the engine emits events, the CLI prints"
                );
            }
        }
    }

    #[test]
    fn the_project_library_neither_parses_flags_nor_draws() {
        // `symtest-project` is the pipeline; `cargo-symtest` parses flags and
        // draws its events (the nextest-runner / cargo-nextest split). The
        // one exception is the typed options of an engine run, which the
        // pipeline writes as `exec`'s arguments and `exec` flattens into its
        // own: their clap derive lives in `explore_options.rs` alone.
        let m = workspace_root().join("symtest-project/Cargo.toml");
        for dep in dependency_lines(&m) {
            assert!(
                !dep.starts_with("indicatif"),
                "symtest-project depends on `{dep}`: drawing belongs in cargo-symtest"
            );
        }
        let mut rs = Vec::new();
        files_under(&workspace_root().join("symtest-project/src"), "rs", &mut rs);
        for f in rs {
            let r = rel(&f);
            // The capture wrappers run as the build's compiler and report as one.
            if r.ends_with("capture/wrapper.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            if !r.ends_with("src/explore_options.rs") {
                assert!(
                    !code.contains("clap"),
                    "{r} uses clap: flags belong in cargo-symtest (the engine run's options in explore_options.rs)"
                );
            }
            for bad in ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("] {
                assert!(
                    !code.contains(bad),
                    "{r} uses {bad}: the library returns data and events, the binary prints"
                );
            }
        }
    }

    #[test]
    fn no_bitcode_is_committed() {
        let out = std::process::Command::new("git")
            .args(["ls-files", "*.bc", "*.ll"])
            .current_dir(workspace_root())
            .output();
        if let Ok(out) = out {
            let files = String::from_utf8_lossy(&out.stdout);
            assert!(files.trim().is_empty(), "bitcode committed: {files}");
        }
    }

    #[test]
    fn source_files_stay_small() {
        let mut rs = Vec::new();
        files_under(&workspace_root(), "rs", &mut rs);
        files_under(&workspace_root(), "c", &mut rs);
        for f in rs {
            let n = std::fs::read_to_string(&f)
                .map(|t| t.lines().count())
                .unwrap_or(0);
            assert!(n <= 1000, "{} has {n} lines: split it by concern", rel(&f));
        }
    }

    #[test]
    fn ci_runs_the_readme_test_command() {
        let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
        let ci = std::fs::read_to_string(workspace_root().join(".ci/run")).unwrap();
        let commands: Vec<&str> = readme
            .lines()
            .filter(|l| l.starts_with("cargo xtask "))
            .take(2)
            .collect();
        assert_eq!(
            commands,
            ["cargo xtask demo", "cargo xtask test"],
            "README must open with the two commands"
        );
        assert!(
            ci.lines().any(|l| l.trim() == "cargo xtask test"),
            ".ci/run must run `cargo xtask test`"
        );
    }
}
