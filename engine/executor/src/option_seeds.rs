//! Option seeds (`--option-seeds`): the program's own command-line options,
//! read from the calls that declare them (getopt's tables, argmatch's
//! lists), become seeds of its symbolic arguments. A run starts by following `--help`, `-n 1`,
//! `--lines` and every other option the program declares, and forks off from
//! there, instead of waiting for the search to spell an option out byte by
//! byte (KLEE's seed mode, fed the way a fuzzer feeds its dictionary).
//!
//! The words come from the constant arguments of the calls that declare
//! the options, each kind of call read by one of the [`sources`]: getopt's
//! family gives the short-option string (`"c:n:qvz"`) and the `struct
//! option` array (name, `has_arg`); gnulib's argmatch (`XARGMATCH`) the
//! list of values an option's argument is checked against (`--algorithm`
//! of cksum: `bsd`, `md5`, `blake2b`, ...). Each option becomes one seed,
//! and a word whose option takes an argument a second one followed by `1`;
//! then pairs of options, a short flag with each other option (`-sw 1`),
//! for the code where two options meet. Each value of a list is a seed of
//! its own, written attached (`-ablake2b`, or `--a=md5` without a short
//! form). With a symbolic file (`--sym-files`), the program also runs on
//! it by name, alone and after each option (`tail -f A`, `head -n 1 A`),
//! before the pairs; then each option that takes an argument gets `-1`
//! (`head -c -1`). The seed holds only the `--sym-arg`/`--sym-args` objects, laid out as the POSIX runtime makes
//! them; the objects after them (files, stdin, failure counters) extend the
//! seed ([`crate::seeds`]): the files and stdin hold a few lines of text
//! ([`extension_bytes`]), the others take the values the runtime's own
//! assumptions need.

mod sources;

use crate::config::Seed;
use symtest_ir::Module;

/// At most this many option seeds: room for every single option of a long
/// option table, alone and on a file, and for its `-1` arguments; the pairs,
/// which come last and grow with the square of the table, are cut first.
pub const MAX_OPTION_SEEDS: usize = 200;

/// An option the program declares: how it is written (`-n`, `--lines`, a
/// unique prefix of a long name) and whether it takes an argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionWord {
    pub text: String,
    pub takes_arg: bool,
    /// The option is also spelt another way the list holds (a long name
    /// whose `val` is one of the short options): pairs use the short one.
    pub alias: bool,
    /// Written as a short option (`-c`, `-cVALUE`), which another short
    /// option can join in one word (`-sc`).
    pub short: bool,
}

/// One argument group of the symbolic command line, in the order the
/// runtime makes their objects: `--sym-arg N` (one argument, no count) or
/// `--sym-args MIN MAX N` (an `n_args` count, then MAX arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgGroup {
    pub counted: bool,
    pub min: u32,
    pub max: u32,
    /// Longest argument, in bytes (the object has one more, the NUL).
    pub size: u32,
}

/// The argument groups of a POSIX-runtime command line (`argv[1..]`).
/// Options are read as the runtime reads them (`-name` or `--name`); a
/// malformed group ends the list (the runtime rejects that command line).
pub fn arg_groups(argv: &[String]) -> Vec<ArgGroup> {
    let num = |s: Option<&String>| s.and_then(|s| s.parse::<u32>().ok());
    let name = |a: &str| {
        a.strip_prefix("--")
            .or_else(|| a.strip_prefix('-'))
            .map(str::to_owned)
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < argv.len() {
        match name(&argv[k]).as_deref() {
            Some("sym-arg") => {
                let Some(size) = num(argv.get(k + 1)) else {
                    break;
                };
                out.push(ArgGroup {
                    counted: false,
                    min: 1,
                    max: 1,
                    size,
                });
                k += 2;
            }
            Some("sym-args") => {
                let (Some(min), Some(max), Some(size)) = (
                    num(argv.get(k + 1)),
                    num(argv.get(k + 2)),
                    num(argv.get(k + 3)),
                ) else {
                    break;
                };
                if min > max || max > 100 {
                    break;
                }
                out.push(ArgGroup {
                    counted: true,
                    min,
                    max,
                    size,
                });
                k += 4;
            }
            _ => k += 1,
        }
    }
    out
}

/// The name of the first symbolic file of a POSIX-runtime command line
/// (`A` when `--sym-files N SIZE` gives at least one), if any.
pub fn first_sym_file(argv: &[String]) -> Option<String> {
    let at = argv
        .iter()
        .position(|a| a == "--sym-files" || a == "-sym-files")?;
    let n: u32 = argv.get(at + 1)?.parse().ok()?;
    (n >= 1 && argv.get(at + 2)?.parse::<u32>().is_ok()).then(|| "A".to_owned())
}

/// The options the program declares, as the calls of its option-parsing
/// functions show them (each [`sources::OptionSource`]: getopt's family,
/// argmatch's lists of values): in the order of the calls and the tables,
/// each once; then the values of the options whose argument is checked
/// against a list.
pub fn option_words(module: &Module) -> Vec<OptionWord> {
    let mut declared = sources::Declared::default();
    for call in sources::calls(module) {
        for source in sources::SOURCES {
            if source.read(&call, &mut declared) {
                break;
            }
        }
    }
    let sources::Declared {
        mut words,
        shorts,
        longs,
        value_lists,
    } = declared;
    for (name, values) in value_lists {
        let Some(o) = longs.iter().find(|o| o.name == name) else {
            continue;
        };
        // `-aVALUE` when the option has a short form taking an argument,
        // else `--name=VALUE` (the name as its shortest unique prefix).
        let short = o
            .short_char(&shorts)
            .filter(|c| shorts.contains(&format!("{c}:")));
        let long = format!("--{}", unique_prefix(&name, &longs));
        words.extend(values.into_iter().map(|v| OptionWord {
            text: match short {
                Some(c) => format!("-{c}{v}"),
                None => format!("{long}={v}"),
            },
            takes_arg: false,
            alias: false,
            short: short.is_some(),
        }));
    }
    let mut seen = std::collections::HashSet::new();
    words.retain(|w| seen.insert(w.text.clone()));
    words
}

/// An entry of a `struct option` table.
#[derive(Clone, Debug, PartialEq, Eq)]
struct LongOption {
    name: String,
    has_arg: u32,
    val: i32,
}

impl LongOption {
    /// The short option this entry stands for: its `val`, when that is an
    /// option character the getopt string `shorts` declares.
    fn short_char(&self, shorts: &str) -> Option<char> {
        let c = u8::try_from(self.val).ok()? as char;
        (c.is_ascii_graphic() && !matches!(c, ':' | '-' | '+') && shorts.contains(c)).then_some(c)
    }
}

/// The shortest prefix of `name` no other name of `table` starts with
/// (getopt_long takes it for the whole name); `name` itself if another
/// name extends it.
fn unique_prefix<'a>(name: &'a str, table: &[LongOption]) -> &'a str {
    (1..=name.len())
        .map(|k| &name[..k])
        .find(|p| {
            table
                .iter()
                .filter(|m| m.name.starts_with(p))
                .all(|m| m.name == name)
        })
        .unwrap_or(name)
}

/// The seeds for `words` on the command line `groups` lays out: each word
/// alone, and a word taking an argument also followed by `1`; then pairs of
/// options ([`pair_lines`]); then each word taking an argument followed by
/// `-1`, where a program reads a number's sign as a mode (`head -c -1`
/// elides the end, `tail -n -1`) or rejects it. A seed holds the argument groups' objects
/// (`n_args`, `argNN`): the words in the first slots long enough for them,
/// in order, the other arguments empty and left out of the count (down to
/// the group's minimum). Lines that fit no slots give no seed.
pub fn option_seeds(words: &[OptionWord], groups: &[ArgGroup], file: Option<&str>) -> Vec<Seed> {
    let singles = words.iter().flat_map(|w| {
        let alone = vec![w.text.clone()];
        let with_arg = w.takes_arg.then(|| vec![w.text.clone(), "1".to_owned()]);
        std::iter::once(alone).chain(with_arg)
    });
    // The program on a named file, alone and after each option: code for a
    // file operand differs from stdin's (`tail -f A` watches the file).
    let on_file = file.into_iter().flat_map(|f| {
        let named = words.iter().filter(|w| !w.alias).map(move |w| {
            let mut line = vec![w.text.clone()];
            if w.takes_arg {
                line.push("1".to_owned());
            }
            line.push(f.to_owned());
            line
        });
        std::iter::once(vec![f.to_owned()]).chain(named)
    });
    let negatives = words
        .iter()
        .filter(|w| w.takes_arg)
        .map(|w| vec![w.text.clone(), "-1".to_owned()]);
    singles
        .chain(on_file)
        .chain(pair_lines(words))
        .chain(negatives)
        .filter_map(|line| {
            let line: Vec<&str> = line.iter().map(String::as_str).collect();
            lay_out(&line, groups)
        })
        .take(MAX_OPTION_SEEDS)
        .collect()
}

/// Command lines of two options: a short flag (`-s`) with another option,
/// so a run also starts on the paths where options meet (`fold -s -w 1`,
/// `md5sum --check --zero`). The flag joins a short partner in one word
/// (`-sw 1`, `-camd5`) and follows a long one (`--tag -t`). Aliases,
/// `--help` and `--version` are left out. With many options the pairs go
/// round the flags, each partner with a different flag per round, so the
/// first pairs kept under [`MAX_OPTION_SEEDS`] spread over every option.
fn pair_lines(words: &[OptionWord]) -> Vec<Vec<String>> {
    let flags: Vec<&OptionWord> = words
        .iter()
        .filter(|w| w.short && w.text.len() == 2 && !w.takes_arg)
        .collect();
    let partners: Vec<&OptionWord> = words
        .iter()
        .filter(|w| !w.alias)
        .filter(|w| {
            let name = w.text.trim_start_matches('-');
            name != "help" && name != "version"
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for round in 0..flags.len() {
        for (j, p) in partners.iter().enumerate() {
            let f = flags[(j + round) % flags.len()];
            let (a, b) = if f.text < p.text {
                (&f.text, &p.text)
            } else {
                (&p.text, &f.text)
            };
            if f.text == p.text || !seen.insert((a.clone(), b.clone())) {
                continue;
            }
            let arg = p.takes_arg.then(|| "1".to_owned());
            let line = if p.short {
                std::iter::once(format!("{}{}", f.text, &p.text[1..]))
                    .chain(arg)
                    .collect()
            } else {
                std::iter::once(p.text.clone())
                    .chain(arg)
                    .chain([f.text.clone()])
                    .collect()
            };
            out.push(line);
        }
    }
    out
}

/// What an option seed holds in an object it lacks: the contents of the
/// runtime's symbolic files and stdin (`A-data` .. `Z-data`, `stdin`) are
/// two short lines of words and numbers, repeated or cut to the size, so an
/// option's path runs over text as the program expects it (lines, fields,
/// words, numbers, unsorted, a repeated field); anything else is zeros.
pub fn extension_bytes(name: &str, size: u32) -> Vec<u8> {
    const TEXT: &[u8] = b"b 1\na 1\n";
    let is_file = name == "stdin"
        || name
            .strip_suffix("-data")
            .is_some_and(|f| f.len() == 1 && f.as_bytes()[0].is_ascii_uppercase());
    if !is_file {
        return vec![0; size as usize];
    }
    TEXT.iter().copied().cycle().take(size as usize).collect()
}

/// The argument objects of `line` placed into `groups`; `None` if some word
/// finds no slot.
fn lay_out(line: &[&str], groups: &[ArgGroup]) -> Option<Seed> {
    let mut seed: Seed = Vec::new();
    let mut next = 0;
    let mut index = 0;
    for g in groups {
        let mut args: Vec<Vec<u8>> = vec![vec![0; g.size as usize + 1]; g.max as usize];
        let mut placed = 0;
        while placed < g.max as usize && next < line.len() && line[next].len() <= g.size as usize {
            args[placed][..line[next].len()].copy_from_slice(line[next].as_bytes());
            placed += 1;
            next += 1;
        }
        if g.counted {
            let count = (placed as u32).max(g.min) as i32;
            seed.push(("n_args".into(), count.to_le_bytes().to_vec()));
        }
        for a in args {
            seed.push((format!("arg{:02}", index % 100), a));
            index += 1;
        }
    }
    (next == line.len()).then_some(seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An option word that is no alias (short unless it starts with `--`).
    pub(super) fn w(text: &str, takes_arg: bool) -> OptionWord {
        OptionWord {
            text: text.into(),
            takes_arg,
            alias: false,
            short: !text.starts_with("--"),
        }
    }

    #[test]
    fn pairs_join_a_short_flag_to_each_other_option_once() {
        let mut long_alias = w("--spaces", false);
        long_alias.alias = true;
        let words = [
            w("-b", false),
            w("-s", false),
            w("-w", true),
            long_alias,
            w("--tag", false),
            w("--help", false),
            w("-amd5", false),
        ];
        let lines = pair_lines(&words);
        let texts: Vec<String> = lines.iter().map(|l| l.join(" ")).collect();
        assert_eq!(
            texts,
            ["-bw 1", "--tag -s", "-bamd5", "-sb", "-sw 1", "--tag -b", "-samd5"]
        );
        // No flags, no pairs.
        assert!(pair_lines(&[w("-n", true), w("--lines", true)]).is_empty());
    }

    #[test]
    fn files_and_stdin_of_an_option_seed_hold_text() {
        assert_eq!(extension_bytes("A-data", 8), b"b 1\na 1\n");
        assert_eq!(extension_bytes("stdin", 3), b"b 1");
        assert_eq!(extension_bytes("stdin", 10), b"b 1\na 1\nb ");
        assert_eq!(extension_bytes("A-data-stat", 4), [0; 4]);
        assert_eq!(extension_bytes("model_version", 4), [0; 4]);
    }

    #[test]
    fn groups_follow_the_runtime_s_reading_of_the_command_line() {
        let argv: Vec<String> = "--sym-args 0 1 10 -sym-arg 3 --sym-files 1 8 --sym-args 0 2 2"
            .split(' ')
            .map(String::from)
            .collect();
        assert_eq!(
            arg_groups(&argv),
            vec![
                ArgGroup {
                    counted: true,
                    min: 0,
                    max: 1,
                    size: 10
                },
                ArgGroup {
                    counted: false,
                    min: 1,
                    max: 1,
                    size: 3
                },
                ArgGroup {
                    counted: true,
                    min: 0,
                    max: 2,
                    size: 2
                },
            ]
        );
    }

    #[test]
    fn words_take_the_first_slots_long_enough_in_order() {
        let groups = [
            ArgGroup {
                counted: true,
                min: 0,
                max: 1,
                size: 10,
            },
            ArgGroup {
                counted: true,
                min: 0,
                max: 2,
                size: 2,
            },
        ];
        let seeds = option_seeds(&[w("--lines", true)], &groups, None);
        // `--lines`, `--lines 1`, and last `--lines -1`.
        assert_eq!(seeds.len(), 3);
        assert_eq!(&seeds[2][3].1, b"-1\0");
        let names: Vec<&str> = seeds[1].iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["n_args", "arg00", "n_args", "arg01", "arg02"]);
        assert_eq!(seeds[0][0].1, 1i32.to_le_bytes());
        assert_eq!(&seeds[0][1].1, b"--lines\0\0\0\0");
        assert_eq!(seeds[0][2].1, 0i32.to_le_bytes());
        assert_eq!(seeds[1][2].1, 1i32.to_le_bytes());
        assert_eq!(&seeds[1][3].1, b"1\0\0");
        assert_eq!(&seeds[1][4].1, b"\0\0\0");
        // A word too long for every slot gives no seed; one that fits only
        // the later group skips the earlier one (left empty, not counted).
        assert!(option_seeds(&[w("--verylongword", false)], &groups, None).is_empty());
        let late = [
            ArgGroup {
                counted: true,
                min: 0,
                max: 1,
                size: 1,
            },
            ArgGroup {
                counted: false,
                min: 1,
                max: 1,
                size: 4,
            },
        ];
        let s = &option_seeds(&[w("-n", false)], &late, None)[0];
        assert_eq!(s[0].1, 0i32.to_le_bytes());
        assert_eq!(&s[2].1, b"-n\0\0\0");
    }

    /// With a symbolic file, the program runs on it by name: alone, then
    /// after each option (`-f A`, `-n 1 A`), before the pairs; the name
    /// goes to the next slot it fits.
    #[test]
    fn a_symbolic_file_is_named_alone_and_after_each_option() {
        let argv: Vec<String> = "--sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8"
            .split(' ')
            .map(str::to_owned)
            .collect();
        assert_eq!(first_sym_file(&argv).as_deref(), Some("A"));
        assert_eq!(first_sym_file(&argv[..6]), None);
        let none: Vec<String> = ["--sym-files", "0", "8"].map(str::to_owned).to_vec();
        assert_eq!(first_sym_file(&none), None);
        let groups = arg_groups(&argv);
        let words = [w("-f", false), w("-n", true), w("-q", false)];
        let lines: Vec<Vec<String>> = option_seeds(&words, &groups, Some("A"))
            .iter()
            .map(|s| {
                s.iter()
                    .filter(|(n, _)| n.starts_with("arg"))
                    .map(|(_, b)| {
                        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                        String::from_utf8_lossy(&b[..end]).into_owned()
                    })
                    .filter(|a| !a.is_empty())
                    .collect()
            })
            .collect();
        let want: Vec<Vec<&str>> = vec![
            vec!["-f"],
            vec!["-n"],
            vec!["-n", "1"],
            vec!["-q"],
            vec!["A"],
            vec!["-f", "A"],
            vec!["-n", "1", "A"],
            vec!["-q", "A"],
        ];
        assert_eq!(lines[..want.len()], want, "{lines:?}");
        // Without a symbolic file, none of them.
        let plain = option_seeds(&words, &groups, None);
        assert_eq!(plain.len() + 4, lines.len());
    }
}
