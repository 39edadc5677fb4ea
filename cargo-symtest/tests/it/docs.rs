//! The documentation: README.md, the user guide (`docs/`), BENCHMARKS.md and
//! ARCHITECTURE.md. Every relative link and `#anchor` resolves (the guide is
//! plain Markdown: this is its build check); the configuration reference lists
//! every `symtest.toml` key the parser accepts, every `symtest.mk` variable and
//! every flag of every subcommand's `--help`, and nothing they lack; the
//! README's quick start, run as written on a scratch C project, gives a
//! passing suite.

use crate::support::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Markdown files whose links are checked.
fn doc_files() -> Vec<PathBuf> {
    let ws = workspace();
    let mut files: Vec<PathBuf> = ["README.md", "BENCHMARKS.md", "ARCHITECTURE.md"]
        .iter()
        .map(|f| ws.join(f))
        .collect();
    let mut guide: Vec<PathBuf> = std::fs::read_dir(ws.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guide.sort();
    files.extend(guide);
    files
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn rel(p: &Path) -> String {
    p.strip_prefix(workspace())
        .unwrap_or(p)
        .display()
        .to_string()
}

/// Whether a line opens or closes a fenced code block.
fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// The text with fenced code blocks and inline code spans blanked out (each
/// character but newlines replaced by a space, so line numbers stay). A code
/// span ends at the next run of as many backticks within its paragraph.
fn without_code(text: &str) -> String {
    let mut fenced = String::with_capacity(text.len());
    let mut in_fence = false;
    for line in text.split_inclusive('\n') {
        let fence = is_fence(line);
        if in_fence || fence {
            fenced.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            fenced.push_str(line);
        }
        if fence {
            in_fence = !in_fence;
        }
    }
    let chars: Vec<char> = fenced.chars().collect();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i] == '`' {
            i += 1;
        }
        let run = i - start;
        // The closing run: exactly `run` backticks, before a blank line.
        let mut j = i;
        let mut end = None;
        while j < chars.len() {
            if chars[j] == '\n' && chars.get(j + 1) == Some(&'\n') {
                break;
            }
            if chars[j] == '`' {
                let s = j;
                while j < chars.len() && chars[j] == '`' {
                    j += 1;
                }
                if j - s == run {
                    end = Some(j);
                    break;
                }
                continue;
            }
            j += 1;
        }
        if let Some(e) = end {
            for c in &mut out[start..e] {
                if *c != '\n' {
                    *c = ' ';
                }
            }
            i = e;
        }
    }
    out.into_iter().collect()
}

/// GitHub's anchor of a heading: the text as rendered (links become their
/// text), lower case, without punctuation but `-` and `_`, spaces as `-`.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](") {
            Some(mid) => {
                let close = rest[open + mid..].find(')').map(|c| open + mid + c);
                let Some(close) = close else { break };
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..open + mid]);
                rest = &rest[close + 1..];
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The ATX headings of a Markdown text outside code blocks: (level, text, line).
fn headings(text: &str) -> Vec<(usize, String, usize)> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for (n, line) in text.lines().enumerate() {
        if is_fence(line) {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let level = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&level) && line[level..].starts_with(' ') {
            out.push((level, line[level..].trim().to_string(), n + 1));
        }
    }
    out
}

/// The anchors GitHub gives a file's headings (repeated ones get `-1`, `-2`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, h, _) in headings(text) {
        let s = slug(&h);
        let n = seen.entry(s.clone()).or_insert(0);
        out.insert(if *n == 0 {
            s.clone()
        } else {
            format!("{s}-{n}")
        });
        *n += 1;
    }
    out
}

/// The link targets of a Markdown text outside code: inline links and images
/// `[text](target "title")` and reference definitions `[label]: target`.
fn links(text: &str) -> Vec<(usize, String)> {
    let text = without_code(text);
    let mut out = Vec::new();
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let mut from = 0;
    while let Some(i) = text[from..].find("](") {
        let start = from + i + 2;
        let Some(len) = text[start..].find(')') else {
            break;
        };
        let raw = text[start..start + len].trim();
        let target = raw
            .trim_start_matches('<')
            .split(['>', ' '])
            .next()
            .unwrap_or("");
        out.push((line_of(start), target.to_string()));
        from = start + len;
    }
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix('[') {
            if let Some(close) = rest.find("]:") {
                if !rest[..close].contains('[') {
                    let target = rest[close + 2..].split_whitespace().next().unwrap_or("");
                    out.push((n + 1, target.to_string()));
                }
            }
        }
    }
    out
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let ws = workspace();
    let files = doc_files();
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = read(file);
        for (line, target) in links(&text) {
            if target.is_empty() {
                failures.push(format!("{}:{line}: empty link", rel(file)));
                continue;
            }
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let Ok(dest) = dest.canonicalize() else {
                failures.push(format!(
                    "{}:{line}: `{target}`: no such file or directory",
                    rel(file)
                ));
                continue;
            };
            if !dest.starts_with(ws.canonicalize().unwrap()) {
                failures.push(format!(
                    "{}:{line}: `{target}` leaves the repository",
                    rel(file)
                ));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if !matches!(dest.extension(), Some(e) if e == "md") {
                failures.push(format!(
                    "{}:{line}: `{target}`: an anchor into a file that is not Markdown",
                    rel(file)
                ));
                continue;
            }
            let known = anchors(&read(&dest));
            if !known.contains(anchor) {
                let near: Vec<&String> = known
                    .iter()
                    .filter(|a| {
                        a.split('-')
                            .filter(|w| w.len() > 3)
                            .any(|w| anchor.contains(w))
                    })
                    .take(5)
                    .collect();
                failures.push(format!(
                    "{}:{line}: `{target}`: no heading of {} has the anchor `#{anchor}` (near: {near:?})",
                    rel(file),
                    rel(&dest)
                ));
            }
        }
    }
    assert!(checked > 100, "only {checked} links checked");
    // Every page of the guide is on its index.
    let index = read(&ws.join("docs/README.md"));
    let linked: BTreeSet<String> = links(&index).into_iter().map(|(_, t)| t).collect();
    for f in &files {
        if f.parent() == Some(ws.join("docs").as_path()) && !f.ends_with("docs/README.md") {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if !linked
                .iter()
                .any(|t| t.split('#').next() == Some(name.as_str()))
            {
                failures.push(format!("docs/README.md: no link to the page {name}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_readme_is_short_and_opens_with_the_two_commands() {
    let readme = read(&workspace().join("README.md"));
    let n = readme.lines().count();
    assert!(n <= 200, "README.md has {n} lines: move the rest to docs/");
    let first: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("cargo "))
        .take(2)
        .collect();
    assert_eq!(first, ["cargo xtask demo", "cargo xtask test"]);
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(
        slug("GNU coreutils 9.1 — real code nobody here wrote (the yardstick)"),
        "gnu-coreutils-91--real-code-nobody-here-wrote-the-yardstick"
    );
    assert_eq!(
        slug("Writing symtest.toml from the build: `init --from-build`"),
        "writing-symtesttoml-from-the-build-init---from-build"
    );
    assert_eq!(slug("KLEE's command line"), "klees-command-line");
    assert_eq!(slug("A [link](x.md) `max_fail`"), "a-link-max_fail");
    let a = anchors("# A\n## A\n```\n# not a heading\n```\n### A\n");
    assert_eq!(
        a,
        ["a", "a-1", "a-2"].iter().map(|s| s.to_string()).collect()
    );
    let l = links("[a](x.md#y) `[b](no.md)` ``[c](`no`)`` ![i](p.svg \"t\")\n[d]: ref.md\n");
    let t: Vec<&str> = l.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(t, ["x.md#y", "p.svg", "ref.md"]);
}

// ----- the configuration reference -----

/// The part of `text` under the heading line `heading`, up to the next heading
/// of the same or a higher level.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let level = heading.chars().take_while(|&c| c == '#').count();
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/reference.md has no heading `{heading}`"))
        + heading.len()
        + 2;
    let mut end = text.len();
    let mut at = start;
    let mut in_fence = false;
    for line in text[start..].split_inclusive('\n') {
        if is_fence(line) {
            in_fence = !in_fence;
        }
        let l = line.chars().take_while(|&c| c == '#').count();
        if !in_fence && (1..=level).contains(&l) && line[l..].starts_with(' ') {
            end = at;
            break;
        }
        at += line.len();
    }
    &text[start..end]
}

/// Whether `text` shows `name` in code: `` `name` ``, or `` `name <VALUE>` ``,
/// `` `name[=BOOL]` `` (the name not continued by another name character).
fn shows(text: &str, name: &str) -> bool {
    let needle = format!("`{name}");
    text.match_indices(&needle).any(|(i, _)| {
        text[i + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    })
}

/// The names in code in the first column of a section's table rows.
fn first_column_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("| `")) {
        let cell = line[1..].split(" | ").next().unwrap_or("");
        for part in cell.split('`').skip(1).step_by(2) {
            let name = part.split([' ', '[', '=']).next().unwrap_or("").to_string();
            out.push(name);
        }
    }
    out
}

/// The keys the configuration parser accepts: its own error for an unknown
/// key lists them (`expected one of ...`).
fn accepted_keys(toml: &str) -> Vec<String> {
    let dir = scratch("docs-config-keys");
    std::fs::write(dir.join("symtest.toml"), toml).unwrap();
    let o = symtest_in(&dir, &["list"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
    let list = err
        .split_once("expected")
        .unwrap_or_else(|| panic!("the parser no longer lists the keys it accepts: {err}"))
        .1;
    list.lines()
        .next()
        .unwrap_or("")
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The flags of a `--help` text: (short or long names of each option line).
fn help_flags(args: &[&str]) -> Vec<String> {
    let o = symtest(args);
    assert!(o.status.success(), "{args:?}: {}", shown(&o));
    let help = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut out = Vec::new();
    for line in help.lines() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim_start();
        if !(1..=6).contains(&indent) || !t.starts_with('-') {
            continue;
        }
        let names = t.split("  ").next().unwrap_or("");
        for n in names.split(", ") {
            let n: String = n
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if n.len() > 1 {
                out.push(n);
            }
        }
    }
    assert!(!out.is_empty(), "{args:?}: no flags in\n{help}");
    out
}

/// The subcommands `cargo symtest --help` lists.
fn subcommands() -> Vec<String> {
    let o = symtest(&["--help"]);
    let help = String::from_utf8_lossy(&o.stdout).into_owned();
    let list = help
        .split_once("Commands:\n")
        .expect("`cargo symtest --help` lists its commands")
        .1;
    list.lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_reference_lists_every_config_key_and_flag() {
    let reference = read(&workspace().join("docs/reference.md"));
    let mut missing = Vec::new();
    let mut stale = Vec::new();

    // symtest.toml: every key a target accepts, and the top-level `target`.
    let mut keys =
        accepted_keys("[[target]]\nname = \"x\"\nkind = \"harness\"\nzz-no-such-key = 1\n");
    assert!(keys.len() >= 15, "keys: {keys:?}");
    let top = accepted_keys("zz-no-such-key = 1\n");
    assert_eq!(top, ["target", "crosscheck"]);
    let toml = section(&reference, "## symtest.toml");
    for k in &keys {
        if !shows(toml, k) {
            missing.push(format!("symtest.toml key `{k}`"));
        }
    }
    if !toml.contains("`[[target]]`") {
        missing.push("symtest.toml: the `[[target]]` table".into());
    }
    keys.push("target".into());
    for k in first_column_names(toml) {
        if !keys.contains(&k) {
            stale.push(format!("symtest.toml key `{k}` (the parser rejects it)"));
        }
    }

    // `[[crosscheck]]`: every key of its table, in its own section.
    let cc_keys = accepted_keys("[[crosscheck]]\nname = \"x\"\nzz-no-such-key = 1\n");
    assert!(cc_keys.len() >= 5, "keys: {cc_keys:?}");
    if !toml.contains("`[[crosscheck]]`") {
        missing.push("symtest.toml: the `[[crosscheck]]` table".into());
    }
    let cc = section(&reference, "## `[[crosscheck]]` tables");
    for k in &cc_keys {
        if !shows(cc, k) {
            missing.push(format!("[[crosscheck]] key `{k}`"));
        }
    }
    for k in first_column_names(cc) {
        if !cc_keys.contains(&k) {
            stale.push(format!("[[crosscheck]] key `{k}` (the parser rejects it)"));
        }
    }

    // symtest.mk: every SYMTEST variable of the template.
    let mk = read(&workspace().join("templates/symtest.mk"));
    let mut vars = BTreeSet::new();
    let b = mk.as_bytes();
    for (i, _) in mk.match_indices("SYMTEST") {
        if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
            continue;
        }
        let v: String = mk[i..]
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || *c == '_')
            .collect();
        vars.insert(v.trim_end_matches('_').to_string());
    }
    assert!(vars.len() >= 10, "{vars:?}");
    let mk_section = section(&reference, "## symtest.mk");
    for v in &vars {
        if !shows(mk_section, v) {
            missing.push(format!("symtest.mk variable `{v}`"));
        }
    }
    for v in first_column_names(mk_section) {
        if !vars.contains(&v) {
            stale.push(format!(
                "symtest.mk variable `{v}` (not in templates/symtest.mk)"
            ));
        }
    }

    // Every flag of `cargo symtest` and of each subcommand, in its own section.
    let subs = subcommands();
    assert!(subs.len() >= 9, "{subs:?}");
    let mut commands: Vec<(String, Vec<&str>)> = vec![("cargo symtest".into(), vec!["--help"])];
    for s in &subs {
        commands.push((format!("cargo symtest {s}"), vec![s.as_str(), "--help"]));
    }
    for (name, args) in &commands {
        let flags = help_flags(args);
        let heading = format!("### `{name}`");
        if !reference.contains(&format!("\n{heading}\n")) {
            missing.push(format!("a section `{heading}` for `{name}`"));
            continue;
        }
        let sec = section(&reference, &heading);
        for f in &flags {
            if !shows(sec, f) {
                missing.push(format!("`{name}`: flag `{f}`"));
            }
        }
        let mut known = flags.clone();
        if name == "cargo symtest" {
            known.extend(["-V".to_string(), "--version".to_string()]);
        }
        for f in first_column_names(sec) {
            if !known.contains(&f) {
                stale.push(format!("`{name}`: flag `{f}` (not in its --help)"));
            }
        }
    }
    assert!(
        missing.is_empty() && stale.is_empty(),
        "docs/reference.md is out of date.\nmissing:\n  {}\nlisted but gone:\n  {}",
        missing.join("\n  "),
        stale.join("\n  ")
    );
}

// ----- the README's quick start -----

/// The commands of the README's "Your project in three commands" block.
fn quick_start_commands() -> Vec<String> {
    let readme = read(&workspace().join("README.md"));
    let after = readme
        .split_once("\n## Your project in three commands\n")
        .expect("README.md has `## Your project in three commands`")
        .1;
    let block = after
        .split_once("```sh\n")
        .expect("a ```sh block in the quick start")
        .1;
    let block = &block[..block.find("```").expect("the block ends")];
    block
        .lines()
        .map(|l| l.split(" #").next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

const GREET_C: &str = r#"#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    puts("usage: greet NAME");
    return 2;
  }
  if (strcmp(argv[1], "-h") == 0) {
    puts("greet NAME: say hello");
    return 0;
  }
  if (argv[1][0] == '!')
    printf("hello, %s!\n", argv[1] + 1);
  else
    printf("hello, %s\n", argv[1]);
  return 0;
}
"#;

#[test]
fn the_readme_quick_start_runs_as_written() {
    let commands = quick_start_commands();
    assert_eq!(commands.len(), 3, "{commands:?}");
    let dir = scratch("docs-quick-start");
    std::fs::write(dir.join("greet.c"), GREET_C).unwrap();
    std::fs::write(
        dir.join("Makefile"),
        "greet: greet.c\n\t$(CC) $(CFLAGS) -o $@ greet.c\n\nclean:\n\trm -f greet\n",
    )
    .unwrap();
    let mut target: Option<String> = None;
    for command in &commands {
        let words: Vec<String> = command
            .split_whitespace()
            .map(|w| match (w.contains("<target>"), &target) {
                (true, Some(t)) => w.replace("<target>", t.as_str()),
                (true, None) => panic!("`{command}`: <target> before any target exists"),
                (false, _) => w.to_string(),
            })
            .collect();
        let mut cmd = match words.as_slice() {
            [cargo, symtest, rest @ ..] if cargo == "cargo" && symtest == "symtest" => {
                let mut c = Command::new(bin());
                c.args(rest);
                c
            }
            [program, rest @ ..] => {
                let mut c = Command::new(program);
                c.args(rest);
                c
            }
            [] => unreachable!(),
        };
        let o = cmd.current_dir(&dir).output().expect("run the command");
        assert!(o.status.success(), "`{command}`: {}", shown(&o));
        if target.is_none() && command.starts_with("cargo symtest init") {
            // `<target>` is a target's name, as `cargo symtest list` shows it.
            let l = symtest_in(&dir, &["list"]);
            assert!(l.status.success(), "{}", shown(&l));
            let out = String::from_utf8_lossy(&l.stdout).into_owned();
            let names: Vec<&str> = out.lines().filter_map(|l| l.split('\t').next()).collect();
            assert_eq!(names, ["greet"], "{out}");
            target = Some(names[0].to_string());
        }
        if command.starts_with("make") {
            // The runner's last line: `N passed, 0 failed`, N > 0.
            let out = String::from_utf8_lossy(&o.stdout).into_owned();
            let passed = out
                .lines()
                .find_map(|l| l.strip_suffix(" passed, 0 failed"))
                .and_then(|n| n.trim().parse::<u32>().ok());
            assert!(passed.is_some_and(|n| n > 0), "`{command}`: {out}");
        }
    }
    assert!(
        target.is_some(),
        "the quick start never ran `cargo symtest init`"
    );
    let suite = dir.join("tests/symtest/greet");
    assert!(suite.join("Makefile").is_file() && suite.join("expected").is_dir());
}
