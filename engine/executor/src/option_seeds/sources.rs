//! Where the option words come from: the calls of the program's
//! option-parsing functions, each family read by one [`OptionSource`]
//! ([`SOURCES`]). getopt's family declares the options themselves (a
//! short-option string, `struct option` tables); gnulib's argmatch declares
//! the values an option's argument is checked against (a null-terminated
//! list of strings). Another library's parser is one more source: what its
//! calls declare goes into the same [`Declared`].

use super::{unique_prefix, LongOption, OptionWord};
use symtest_ir::{Body, Callee, ConstId, Constant, GlobalId, GlobalInit, Module, Op, Operand, Reg};

/// The readers of option-parsing calls; a call goes to the first that
/// knows its callee.
pub(super) const SOURCES: &[&dyn OptionSource] = &[&Getopt, &Argmatch];

/// What the calls of a module's option-parsing functions declare.
#[derive(Default)]
pub(super) struct Declared {
    /// The options, in the order of the calls and of their tables.
    pub words: Vec<OptionWord>,
    /// The short-option strings (getopt's `"c:n:qvz"`), one after the other.
    pub shorts: String,
    /// The entries of the long-option tables.
    pub longs: Vec<LongOption>,
    /// (a long option's name, the values its argument is checked against).
    pub value_lists: Vec<(String, Vec<String>)>,
}

/// A direct call in the module: the function it is in, the callee's name
/// (as the program spells it: [`symtest_ir::plain_name`]) and the arguments.
pub(super) struct Call<'m> {
    module: &'m Module,
    body: &'m Body,
    callee: &'m str,
    args: &'m [Operand],
}

/// Every direct call of `module`, in the order of its functions and code.
pub(super) fn calls(module: &Module) -> impl Iterator<Item = Call<'_>> {
    module
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .flat_map(|body| body.insts.iter().map(move |inst| (body, inst)))
        .filter_map(move |(body, inst)| match &inst.op {
            Op::Call {
                callee: Callee::Direct(callee),
                args,
                ..
            } => Some(Call {
                module,
                body,
                callee: symtest_ir::plain_name(&module.function(*callee).name),
                args,
            }),
            _ => None,
        })
}

/// A reader of the calls of one family of option-parsing functions.
pub(super) trait OptionSource {
    /// Adds what `call` declares to `out`, when its callee is of this
    /// family (then `true`: no other source reads the call).
    fn read(&self, call: &Call<'_>, out: &mut Declared) -> bool;
}

/// getopt, getopt_long and getopt_long_only: the short-option string and
/// the `struct option` tables among a call's arguments (constants, or the
/// constants a local variable holds).
struct Getopt;

impl OptionSource for Getopt {
    fn read(&self, call: &Call<'_>, out: &mut Declared) -> bool {
        let Some(long_only) = getopt_kind(call.callee) else {
            return false;
        };
        let module = call.module;
        let globals = call.args.iter().flat_map(|a| {
            global_of(module, a)
                .map(|g| vec![g])
                .unwrap_or_else(|| stored_globals(module, call.body, a))
        });
        let mut short_seen = false;
        for g in globals {
            match c_string(module, g) {
                Some(s) if !short_seen => {
                    short_seen = true;
                    out.words.extend(short_options(&s));
                    out.shorts.push_str(&s);
                }
                _ => {
                    if let Some(table) = long_table(module, g) {
                        out.words
                            .extend(long_options(&table, long_only, &out.shorts));
                        out.longs.extend(table);
                    }
                }
            }
        }
        true
    }
}

/// gnulib's argmatch: `XARGMATCH` (`__xargmatch_internal(context, arg,
/// list, ..)`) checks an option's argument against a list of values.
struct Argmatch;

impl OptionSource for Argmatch {
    fn read(&self, call: &Call<'_>, out: &mut Declared) -> bool {
        if call.callee.trim_start_matches('_') != "xargmatch_internal" {
            return false;
        }
        out.value_lists
            .extend(argmatch_list(call.module, call.args));
        true
    }
}

/// The option an `XARGMATCH` call checks (its context, `--name`) and the
/// list of values it accepts (`__xargmatch_internal(context, arg, list, ..)`).
fn argmatch_list(module: &Module, args: &[Operand]) -> Option<(String, Vec<String>)> {
    let context = c_string(module, global_of(module, args.first()?)?)?;
    let values = string_list(module, global_of(module, args.get(2)?)?)?;
    Some((context.strip_prefix("--")?.to_owned(), values))
}

/// The strings of a constant, null-terminated array of string pointers
/// (an `XARGMATCH` list).
fn string_list(module: &Module, g: GlobalId) -> Option<Vec<String>> {
    let init = module.global(g).init.as_ref()?;
    let mut out = Vec::new();
    for i in 0..init.bytes.len() as u64 / 8 {
        let Some(value) = string_at(module, init, i * 8) else {
            break;
        };
        out.push(value?);
    }
    (!out.is_empty()).then_some(out)
}

/// Whether `name` is getopt, getopt_long or getopt_long_only (also under a
/// replacement's prefix: gnulib's `rpl_`, glibc's `__posix_`), and then
/// whether long options take one dash (`getopt_long_only`).
pub(super) fn getopt_kind(name: &str) -> Option<bool> {
    let bare = name.trim_start_matches('_');
    let bare = ["rpl_", "posix_"]
        .iter()
        .find_map(|p| bare.strip_prefix(p))
        .unwrap_or(bare);
    match bare {
        "getopt" | "getopt_long" => Some(false),
        "getopt_long_only" => Some(true),
        _ => None,
    }
}

/// `-c` for each option character of a getopt string, and whether it takes
/// an argument (`c:`; an optional one, `c::`, is left out).
pub(super) fn short_options(s: &str) -> Vec<OptionWord> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        i += 1;
        if matches!(c, b'+' | b'-' | b':') {
            continue;
        }
        let mut colons = 0;
        while i < b.len() && b[i] == b':' {
            colons += 1;
            i += 1;
        }
        out.push(OptionWord {
            text: format!("-{}", c as char),
            takes_arg: colons == 1,
            alias: false,
            short: true,
        });
    }
    out
}

/// Longest long-option word kept whole; longer names are written as their
/// shortest unambiguous prefix (getopt_long accepts one), if there is one
/// this short.
const LONG_WORD_MAX: usize = 10;

/// `--name` for each entry of a long-option table (`-name` under
/// getopt_long_only), or its [`unique_prefix`] when the name is long;
/// `has_arg == 1` (required) marks an argument, a `val` among the short
/// options of `shorts` (a getopt string) an alias.
pub(super) fn long_options(table: &[LongOption], long_only: bool, shorts: &str) -> Vec<OptionWord> {
    let dash = if long_only { "-" } else { "--" };
    table
        .iter()
        .filter(|o| !o.name.is_empty())
        .map(|o| {
            let text = if dash.len() + o.name.len() > LONG_WORD_MAX {
                unique_prefix(&o.name, table)
            } else {
                &o.name
            };
            let alias = o.short_char(shorts).is_some();
            OptionWord {
                text: format!("{dash}{text}"),
                takes_arg: o.has_arg == 1,
                alias,
                short: false,
            }
        })
        .collect()
}

/// The global an operand is the address of (offset 0).
fn global_of(module: &Module, op: &Operand) -> Option<GlobalId> {
    let Operand::Const(c) = op else { return None };
    global_at(module, *c)
}

/// The globals an argument loaded from a local variable may be: the
/// constant addresses stored to that variable's stack slot (unoptimized
/// code keeps `char const *short_opts = "bctwz";` there); none if anything
/// else is stored to it, or its address is stored or passed to a call.
fn stored_globals(module: &Module, body: &Body, op: &Operand) -> Vec<GlobalId> {
    let def = |r: Reg| body.insts.iter().find(|i| i.dest == Some(r)).map(|i| &i.op);
    let Operand::Reg(r) = op else {
        return Vec::new();
    };
    let Some(Op::Load {
        ptr: Operand::Reg(slot),
        ..
    }) = def(*r)
    else {
        return Vec::new();
    };
    if !matches!(def(*slot), Some(Op::Alloca { .. })) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for inst in &body.insts {
        match &inst.op {
            Op::Store { ptr, value, .. } if *ptr == Operand::Reg(*slot) => {
                match global_of(module, value) {
                    Some(g) => out.push(g),
                    None => return Vec::new(),
                }
            }
            // The slot's address stored or passed on: anything may write it.
            Op::Store { value, .. } if *value == Operand::Reg(*slot) => return Vec::new(),
            Op::Call { args, .. } if args.contains(&Operand::Reg(*slot)) => return Vec::new(),
            _ => {}
        }
    }
    out
}

/// The global a constant is the address of (offset 0).
fn global_at(module: &Module, c: ConstId) -> Option<GlobalId> {
    match module.constant(c) {
        Constant::GlobalAddr { global, offset: 0 } => Some(*global),
        _ => None,
    }
}

/// The string a pointer at byte `at` of `init` points to: `None` when no
/// pointer is there (a null), `Some(None)` when it points to something else.
fn string_at(module: &Module, init: &GlobalInit, at: u64) -> Option<Option<String>> {
    let (_, c, _) = init
        .relocs
        .iter()
        .find(|(off, _, size)| *off == at && *size == 8)?;
    Some(global_at(module, *c).and_then(|g| c_string(module, g)))
}

/// A constant global holding one NUL-terminated string of printable
/// characters (and nothing after the NUL).
fn c_string(module: &Module, g: GlobalId) -> Option<String> {
    let init = module.global(g).init.as_ref()?;
    if !init.relocs.is_empty() {
        return None;
    }
    let end = init.bytes.iter().position(|&b| b == 0)?;
    let s = &init.bytes[..end];
    (s.iter().all(|b| (0x20..0x7f).contains(b)) && init.bytes[end..].iter().all(|&b| b == 0))
        .then(|| String::from_utf8_lossy(s).into_owned())
}

/// Size of `struct option` on LP64 targets: name, has_arg, flag, val.
const OPTION_SIZE: u64 = 32;

/// The entries of a `struct option` array, up to its terminating entry
/// with a null name.
fn long_table(module: &Module, g: GlobalId) -> Option<Vec<LongOption>> {
    let init = module.global(g).init.as_ref()?;
    if !(init.bytes.len() as u64).is_multiple_of(OPTION_SIZE) || init.relocs.is_empty() {
        return None;
    }
    let int_at = |at: usize| {
        let b = &init.bytes[at..at + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    };
    let mut out = Vec::new();
    for i in 0..init.bytes.len() as u64 / OPTION_SIZE {
        let at = i * OPTION_SIZE;
        let Some(name) = string_at(module, init, at) else {
            break;
        };
        out.push(LongOption {
            name: name?,
            has_arg: int_at(at as usize + 8),
            val: int_at(at as usize + 24) as i32,
        });
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::option_seeds::tests::w;

    #[test]
    fn getopt_s_family_and_its_replacements_only() {
        assert_eq!(getopt_kind("getopt"), Some(false));
        assert_eq!(getopt_kind("rpl_getopt_long"), Some(false));
        assert_eq!(getopt_kind("__posix_getopt"), Some(false));
        assert_eq!(getopt_kind("getopt_long_only"), Some(true));
        assert_eq!(getopt_kind("__getopt_msg"), None);
        assert_eq!(getopt_kind("_getopt_internal_r"), None);
    }

    #[test]
    fn short_option_strings_give_one_word_per_option() {
        assert_eq!(
            short_options("+c:n:qz::"),
            vec![w("-c", true), w("-n", true), w("-q", false), w("-z", false)]
        );
    }

    #[test]
    fn long_names_too_long_become_their_shortest_unique_prefix() {
        let table: Vec<LongOption> = [
            ("lines", 1),
            ("ignore-leading-blanks", 0),
            ("ignore-case", 0),
            ("version", 0),
            ("version-sort", 0),
            ("zero-terminated", 0),
        ]
        .iter()
        .map(|(n, a)| LongOption {
            name: n.to_string(),
            has_arg: *a,
            val: 0,
        })
        .collect();
        let words = long_options(&table, false, "");
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        // `--version` is exact and `--version-sort` shares it: the longer
        // name needs `version-` to be unambiguous.
        assert_eq!(
            texts,
            [
                "--lines",
                "--ignore-l",
                "--ignore-c",
                "--version",
                "--version-",
                "--z"
            ]
        );
        assert!(words[0].takes_arg && !words[1].takes_arg);
        assert_eq!(long_options(&table[..1], true, "")[0].text, "-lines");
    }
}
