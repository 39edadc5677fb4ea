//! Default symbol versions. A library that versions its symbols defines a
//! function under an implementation name and gives it its public name with a
//! version: `__attribute__((symver("f@@V_2")))` on `f_v2` (GCC), or the
//! assembler's `.symver f_v2, f@@V_2`. The object then defines `f@@V_2`
//! beside `f_v2`, and a link resolves a call of `f` to it. clang-19 ignores
//! the attribute, and bitcode holds no symbol of top-level assembly, so
//! neither the bitcode compile nor a native build compiled by clang defines
//! `f`: a program of the project that calls `f` does not link.
//!
//! The build's own object says what it defines: each default version
//! `name@@VERSION` at the address of an external symbol `target` without a
//! version, `name` itself not defined. The bitcode gets `name` as an alias of
//! `target`; the native builds link with `--defsym=name=target`.

use serde::{Deserialize, Serialize};
use std::path::Path;
use std::process::Command;

/// A name an object defines as the default version of another symbol.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct DefaultVersion {
    /// The public name (`f` of `f@@V_2`).
    pub name: String,
    /// The symbol it is defined at (`f_v2`).
    pub target: String,
}

impl DefaultVersion {
    /// The link options that give a native link `name` at `target`: `target`
    /// is made wanted, so the archive member that defines it is taken even
    /// when nothing but `name` is called.
    pub fn link_words(&self) -> [String; 2] {
        [
            format!("-Wl,--undefined={}", self.target),
            format!("-Wl,--defsym={}={}", self.name, self.target),
        ]
    }
}

/// Whether `s` is a name both the linker options and LLVM's assembly take as
/// it is (C identifiers are).
fn plain_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || "_.$".contains(c))
}

/// The default versions the ELF object at `object` defines (none when it
/// cannot be read or is not ELF).
pub fn default_versions(object: &Path) -> Vec<DefaultVersion> {
    let Ok(data) = super::elf::read_quietly(object) else {
        return Vec::new();
    };
    // Most objects name no version: no symbol table to read.
    if !data.windows(2).any(|w| w == b"@@") {
        return Vec::new();
    }
    of_symbols(&super::elf::symbols(&data).unwrap_or_default())
}

/// Sections 0 (undefined) and 0xff00.. (absolute, common, ...) are no place
/// code is defined at.
fn defined_in_section(s: &super::elf::Symbol) -> bool {
    s.section != 0 && s.section < 0xff00
}

fn of_symbols(symbols: &[super::elf::Symbol]) -> Vec<DefaultVersion> {
    let defined = |name: &str| {
        symbols
            .iter()
            .any(|s| s.name == name && defined_in_section(s))
    };
    let mut out: Vec<DefaultVersion> = Vec::new();
    for v in symbols.iter().filter(|s| defined_in_section(s)) {
        let Some((name, _)) = v.name.split_once("@@") else {
            continue;
        };
        if !plain_name(name) || defined(name) || out.iter().any(|d| d.name == name) {
            continue;
        }
        let target = symbols.iter().find(|s| {
            s.external
                && s.section == v.section
                && s.value == v.value
                && plain_name(&s.name)
                && s.name != name
        });
        if let Some(t) = target {
            out.push(DefaultVersion {
                name: name.to_string(),
                target: t.name.clone(),
            });
        }
    }
    out
}

/// Whether the textual IR line `line` defines global `name`.
fn defines(line: &str, name: &str) -> bool {
    let at = format!("@{name}");
    if line.starts_with("define ") {
        return line.contains(&format!(" {at}("));
    }
    line.strip_prefix(&at)
        .and_then(|r| r.strip_prefix(" = "))
        .is_some_and(|r| !r.starts_with("external "))
}

/// Whether the textual IR line `line` declares global `name` (a function
/// or a variable defined elsewhere).
fn declares(line: &str, name: &str) -> bool {
    let at = format!("@{name}");
    if line.starts_with("declare ") {
        return line.contains(&format!(" {at}("));
    }
    line.strip_prefix(&at)
        .and_then(|r| r.strip_prefix(" = "))
        .is_some_and(|r| r.starts_with("external "))
}

/// The module `ir` (textual) with each of `versions` whose target it defines
/// and whose name it does not define, defined as an alias of the target (a
/// declaration of the name removed: its uses are the alias's); None when it
/// takes none of them.
fn with_aliases(ir: &str, versions: &[DefaultVersion]) -> Option<String> {
    let lines: Vec<&str> = ir.lines().collect();
    let taken: Vec<&DefaultVersion> = versions
        .iter()
        .filter(|v| {
            lines.iter().any(|l| defines(l, &v.target))
                && !lines.iter().any(|l| defines(l, &v.name))
        })
        .collect();
    if taken.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(ir.len() + 64 * taken.len());
    for l in lines {
        if !taken.iter().any(|v| declares(l, &v.name)) {
            out.push_str(l);
            out.push('\n');
        }
    }
    for v in taken {
        // The alias's value type does not matter to a link or to the
        // engine's loader (both follow it to its target).
        out.push_str(&format!("@{} = alias i8, ptr @{}\n", v.name, v.target));
    }
    Some(out)
}

fn run(cmd: &mut Command) -> Result<Vec<u8>, String> {
    let o = cmd
        .output()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    if o.status.success() {
        Ok(o.stdout)
    } else {
        let err = String::from_utf8_lossy(&o.stderr);
        Err(format!(
            "{:?} failed: {}",
            cmd.get_program(),
            err.lines().next().unwrap_or("")
        ))
    }
}

/// Defines each of `versions` in the bitcode file `bc` (rewritten in place).
pub fn define_in_bitcode(bc: &Path, versions: &[DefaultVersion]) -> Result<(), String> {
    use crate::toolchain::tool;
    let ir = run(Command::new(tool("SYMTEST_LLVM_DIS", "llvm-dis-19"))
        .arg(bc)
        .arg("-o")
        .arg("-"))?;
    let Some(ir) = with_aliases(&String::from_utf8_lossy(&ir), versions) else {
        return Ok(());
    };
    let mut text = bc.as_os_str().to_owned();
    text.push(".versions.ll");
    std::fs::write(&text, ir).map_err(|e| format!("cannot write {text:?}: {e}"))?;
    let r = run(Command::new(tool("SYMTEST_LLVM_AS", "llvm-as-19"))
        .arg(&text)
        .arg("-o")
        .arg(bc));
    let _ = std::fs::remove_file(&text);
    r.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::elf::Symbol;

    fn sym(name: &str, section: u16, value: u64, external: bool) -> Symbol {
        Symbol {
            name: name.into(),
            section,
            value,
            external,
        }
    }

    #[test]
    fn a_default_version_names_the_symbol_at_its_address() {
        let symbols = [
            sym("f_v1", 1, 0, true),
            sym("f@V_1", 1, 0, true),
            sym("f_v2", 1, 16, true),
            sym("f@@V_2", 1, 16, true),
            // Defined under its own name as well: nothing to add.
            sym("g", 1, 32, true),
            sym("g@@V_2", 1, 32, true),
            // At a local symbol only: no name another object can use.
            sym(".L3", 1, 48, false),
            sym("h@@V_2", 1, 48, true),
            sym("undefined@@V_2", 0, 0, true),
        ];
        assert_eq!(
            of_symbols(&symbols),
            [DefaultVersion {
                name: "f".into(),
                target: "f_v2".into()
            }]
        );
    }

    #[test]
    fn the_bitcode_gets_an_alias_in_place_of_a_declaration() {
        let v = [
            DefaultVersion {
                name: "f".into(),
                target: "f_v2".into(),
            },
            DefaultVersion {
                name: "absent".into(),
                target: "not_here".into(),
            },
        ];
        let ir = "define dso_local i32 @f_v2(i32 noundef %0) #0 {\n  ret i32 %0\n}\n\
                  declare i32 @f(i32 noundef) #1\ndeclare i32 @fx(i32)\n";
        let out = with_aliases(ir, &v).unwrap();
        assert!(!out.contains("declare i32 @f("));
        assert!(out.contains("declare i32 @fx(i32)"));
        assert!(out.ends_with("@f = alias i8, ptr @f_v2\n"));
        assert!(!out.contains("@absent"));
        assert_eq!(with_aliases("@f_v2 = external global i32\n", &v), None);
    }
}
