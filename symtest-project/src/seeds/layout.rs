//! A run as a seed: a `.ktest` whose `args` are the engine argv of the run's
//! own symbolic environment, shaped to fit it exactly, and whose objects are
//! the objects the POSIX runtime (`libc-models/posix/init.c`,
//! `__symtest_posix_init`) makes for that argv, in its order, holding the
//! run's values:
//!
//! - each argument: `--sym-arg <its length>`, object `argNN` (the value, then
//!   NUL); a run's arguments given as concrete words (seed inputs) stay words;
//! - the files the arguments name: `--sym-files <count> <size>`, renamed `A`,
//!   `B`, ... in the arguments (the model's names), objects `A-data` (the
//!   contents, shorter files padded with zeros to the longest: the model gives
//!   every file one size, of at least 1 byte, so empty files are padded to
//!   one zero byte) and `A-data-stat` (the `struct stat` init.c's `sym_file`
//!   assumes);
//! - stdin, when the run read any: `--sym-stdin <length>`, objects `stdin`
//!   and `stdin-stat`;
//! - `model_version` (4 bytes, 1).
//!
//! An object longer than the bound (`seed-max-bytes`) is cut there, an
//! argument also at the longest symbolic argument the engine takes
//! ([`MAX_SYM_ARG_LEN`]); a run whose environment the engine would still
//! refuse (its arguments together too long) is no seed, with the reason:
//! one such seed would stop the target's whole exploration.

use crate::runtime::{check_env_options, MAX_SYM_ARG_LEN};
use symtest_ktest::{KTest, KTestObject};

/// One run of the program, as recorded or made from an input file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// `argv[1..]`.
    pub args: Vec<Vec<u8>>,
    /// The arguments are symbolic in the seed (`--sym-arg N` each: a
    /// recorded run), else concrete words (an input file's fixed words).
    pub symbolic_args: bool,
    /// The arguments that name a regular file, in argument order.
    pub files: Vec<FileArg>,
    /// What the run read on stdin (None: a terminal, or nothing to read).
    pub stdin: Option<Vec<u8>>,
}

/// An argument naming a file: the word, or its part after `=` (`--in=FILE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileArg {
    /// Index into [`Run::args`].
    pub index: usize,
    /// Where the path starts in the word.
    pub offset: usize,
    /// The file's first bytes (at least the bound plus one when it is longer).
    pub contents: Vec<u8>,
}

/// A run as a seed.
#[derive(Clone, Debug)]
pub struct Seed {
    pub ktest: KTest,
    /// What was cut at the bound (`argument 2`, `file A`, `stdin`).
    pub truncated: Vec<String>,
    /// Files padded with zeros to the size of the longest.
    pub padded: Vec<String>,
}

/// The model's device of its files (`MODEL_DEV` in libc-models/posix/model.h).
const MODEL_DEV: u64 = 0x53594d;
/// The inode number of the first file the model makes (`__symtest_new_file`
/// in libc-models/posix/fd.c numbers them from here, in creation order:
/// the files `A`, `B`, ..., then stdin).
const FIRST_INODE: u64 = 0x1000;
/// The model's clock: every file's times (init.c's `sym_file`).
const MODEL_TIME: u64 = 1_700_000_000;
/// `sizeof(struct stat)` on x86_64 (musl's and glibc's layout).
pub const STAT_SIZE: usize = 144;
/// The files the model holds (`--sym-files` takes at most 26).
pub const MAX_FILES: usize = 26;

/// The `struct stat` of a model file of `size` bytes, as init.c's
/// `sym_file` constrains it: a regular file of mode 0644 on the model's
/// device, its own inode, one link, owned by root, 4 KiB blocks, the model's
/// clock. Layout (x86_64): st_dev 0, st_ino 8, st_nlink 16, st_mode 24,
/// st_uid 28, st_gid 32, st_rdev 40, st_size 48, st_blksize 56, st_blocks
/// 64, st_atim 72, st_mtim 88, st_ctim 104 (seconds, then nanoseconds).
pub fn stat_bytes(size: u64, inode: u64) -> Vec<u8> {
    let mut b = vec![0u8; STAT_SIZE];
    let mut put = |at: usize, v: u64, width: usize| {
        b[at..at + width].copy_from_slice(&v.to_le_bytes()[..width]);
    };
    put(0, MODEL_DEV, 8);
    put(8, inode, 8);
    put(16, 1, 8);
    put(24, 0o100644, 4);
    put(48, size, 8);
    put(56, 4096, 8);
    put(64, size.div_ceil(4096) * 8, 8);
    for at in [72, 88, 104] {
        put(at, MODEL_TIME, 8);
    }
    b
}

/// The name init.c gives the `i`-th symbolic argument (two digits, wrapping
/// at 100 as its counter does).
fn arg_name(i: usize) -> String {
    format!("arg{}{}", i / 10 % 10, i % 10)
}

/// `bytes` cut at `max`; notes `what` when cut.
fn bounded(bytes: &[u8], max: usize, what: String, truncated: &mut Vec<String>) -> Vec<u8> {
    if bytes.len() > max {
        truncated.push(what);
        bytes[..max].to_vec()
    } else {
        bytes.to_vec()
    }
}

/// The seed of `run` for the program named `program` (argv[0]), each object
/// at most `max` bytes. Err: why the run cannot be a seed.
pub fn seed_of(program: &str, run: &Run, max: usize) -> Result<Seed, String> {
    let files = files_of(run)?;
    let mut s = Layout {
        args: vec![program.to_string()],
        objects: Vec::new(),
        truncated: Vec::new(),
        padded: Vec::new(),
    };
    s.arguments(run, &files.letter_of, max)?;
    if !files.contents.is_empty() {
        s.files(&files.contents, max);
    }
    if let Some(input) = run.stdin.as_ref().filter(|s| !s.is_empty()) {
        let input = bounded(input, max, "stdin".into(), &mut s.truncated);
        s.args
            .extend(["--sym-stdin".to_string(), input.len().to_string()]);
        let inode = FIRST_INODE + files.contents.len() as u64;
        let stat = stat_bytes(input.len() as u64, inode);
        s.objects.push(KTestObject::new("stdin", input));
        s.objects.push(KTestObject::new("stdin-stat", stat));
    }
    s.objects
        .push(KTestObject::new("model_version", 1u32.to_le_bytes()));
    // What the engine checks of any environment but its memory (which
    // depends on the target's --max-memory; the bound keeps a seed small).
    check_env_options(&s.args[1..], u64::MAX, 0)
        .map_err(|e| format!("the engine would refuse its environment: {e}"))?;
    Ok(Seed {
        ktest: KTest {
            args: s.args,
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: s.objects,
        },
        truncated: s.truncated,
        padded: s.padded,
    })
}

/// The files a run's arguments name.
struct Files {
    /// The contents of each distinct file (by path, in order of first
    /// mention): the model's file `A`, `B`, ...
    contents: Vec<Vec<u8>>,
    /// For each argument naming a file: (its file's number, where in the
    /// word its path starts).
    letter_of: Vec<Option<(usize, usize)>>,
}

fn files_of(run: &Run) -> Result<Files, String> {
    let mut paths: Vec<&[u8]> = Vec::new();
    let mut contents: Vec<Vec<u8>> = Vec::new();
    let mut letter_of = vec![None; run.args.len()];
    for f in &run.files {
        let word = run.args.get(f.index).ok_or_else(|| {
            format!(
                "a file names argument {} of {}",
                f.index + 1,
                run.args.len()
            )
        })?;
        let path = word.get(f.offset..).unwrap_or_default();
        let k = match paths.iter().position(|p| *p == path) {
            Some(k) => k,
            None => {
                paths.push(path);
                contents.push(f.contents.clone());
                paths.len() - 1
            }
        };
        letter_of[f.index] = Some((k, f.offset));
    }
    if paths.len() > MAX_FILES {
        return Err(format!(
            "its arguments name {} files; the model holds at most {MAX_FILES}",
            paths.len()
        ));
    }
    Ok(Files {
        contents,
        letter_of,
    })
}

/// A seed being laid out: the engine argv and the objects, and what was cut
/// or padded.
struct Layout {
    args: Vec<String>,
    objects: Vec<KTestObject>,
    truncated: Vec<String>,
    padded: Vec<String>,
}

impl Layout {
    /// The run's arguments, a file's path in each replaced by its letter:
    /// symbolic (`--sym-arg`) or as written.
    fn arguments(
        &mut self,
        run: &Run,
        letter_of: &[Option<(usize, usize)>],
        max: usize,
    ) -> Result<(), String> {
        for (i, word) in run.args.iter().enumerate() {
            let word = match letter_of[i] {
                Some((k, offset)) => [&word[..offset], &[b'A' + k as u8][..]].concat(),
                None => word.clone(),
            };
            if run.symbolic_args {
                let value = bounded(
                    &word,
                    max.min(MAX_SYM_ARG_LEN as usize),
                    format!("argument {}", i + 1),
                    &mut self.truncated,
                );
                self.args
                    .extend(["--sym-arg".to_string(), value.len().to_string()]);
                self.objects
                    .push(KTestObject::new(arg_name(i), [&value[..], &[0]].concat()));
            } else {
                let w = String::from_utf8(word)
                    .map_err(|_| format!("argument {} is not UTF-8", i + 1))?;
                self.args.push(w);
            }
        }
        Ok(())
    }

    /// The model's files (`--sym-files`), all of one size, of at least 1 byte.
    fn files(&mut self, contents: &[Vec<u8>], max: usize) {
        let data: Vec<Vec<u8>> = contents
            .iter()
            .enumerate()
            .map(|(k, c)| {
                bounded(
                    c,
                    max,
                    format!("file {}", (b'A' + k as u8) as char),
                    &mut self.truncated,
                )
            })
            .collect();
        let size = data.iter().map(Vec::len).max().unwrap_or(0).max(1);
        self.args.extend([
            "--sym-files".to_string(),
            contents.len().to_string(),
            size.to_string(),
        ]);
        for (k, mut d) in data.into_iter().enumerate() {
            let name = (b'A' + k as u8) as char;
            if d.len() < size {
                self.padded
                    .push(format!("file {name} ({} of {size} bytes)", d.len()));
                d.resize(size, 0);
            }
            self.objects
                .push(KTestObject::new(format!("{name}-data"), d));
            self.objects.push(KTestObject::new(
                format!("{name}-data-stat"),
                stat_bytes(size as u64, FIRST_INODE + k as u64),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_sizes(s: &Seed) -> Vec<(String, usize)> {
        s.ktest
            .objects
            .iter()
            .map(|o| (o.name.clone(), o.bytes.len()))
            .collect()
    }

    #[test]
    fn the_briefs_example() {
        // `prog -l notes.txt` with stdin `hello\n`, notes.txt 120 bytes.
        let run = Run {
            args: vec![b"-l".to_vec(), b"notes.txt".to_vec()],
            symbolic_args: true,
            files: vec![FileArg {
                index: 1,
                offset: 0,
                contents: vec![b'x'; 120],
            }],
            stdin: Some(b"hello\n".to_vec()),
        };
        let s = seed_of("prog", &run, 4096).unwrap();
        assert_eq!(
            s.ktest.args,
            [
                "prog",
                "--sym-arg",
                "2",
                "--sym-arg",
                "1",
                "--sym-files",
                "1",
                "120",
                "--sym-stdin",
                "6"
            ]
        );
        let want = [
            ("arg00", 3),
            ("arg01", 2),
            ("A-data", 120),
            ("A-data-stat", STAT_SIZE),
            ("stdin", 6),
            ("stdin-stat", STAT_SIZE),
            ("model_version", 4),
        ];
        let want: Vec<(String, usize)> = want.iter().map(|(n, s)| (n.to_string(), *s)).collect();
        assert_eq!(names_sizes(&s), want);
        assert_eq!(s.ktest.objects[0].bytes, b"-l\0");
        assert_eq!(s.ktest.objects[1].bytes, b"A\0");
        assert_eq!(s.ktest.objects[4].bytes, b"hello\n");
        assert_eq!(s.ktest.objects[6].bytes, [1, 0, 0, 0]);
        let st = &s.ktest.objects[3].bytes;
        assert_eq!(u64::from_le_bytes(st[48..56].try_into().unwrap()), 120);
        assert_eq!(u32::from_le_bytes(st[24..28].try_into().unwrap()), 0o100644);
        assert_eq!(u64::from_le_bytes(st[8..16].try_into().unwrap()), 0x1000);
        let st = &s.ktest.objects[5].bytes;
        assert_eq!(u64::from_le_bytes(st[8..16].try_into().unwrap()), 0x1001);
        assert_eq!(u64::from_le_bytes(st[64..72].try_into().unwrap()), 8);
        assert!(s.truncated.is_empty() && s.padded.is_empty());
    }

    #[test]
    fn files_named_twice_options_padding_and_the_bound() {
        let run = Run {
            args: vec![
                b"--in=a.txt".to_vec(),
                b"b.txt".to_vec(),
                b"a.txt".to_vec(),
                b"0123456789".to_vec(),
            ],
            symbolic_args: true,
            files: vec![
                FileArg {
                    index: 0,
                    offset: 5,
                    contents: b"short".to_vec(),
                },
                FileArg {
                    index: 1,
                    offset: 0,
                    contents: b"a longer file".to_vec(),
                },
                FileArg {
                    index: 2,
                    offset: 0,
                    contents: b"short".to_vec(),
                },
            ],
            stdin: Some(Vec::new()),
        };
        let s = seed_of("p", &run, 8).unwrap();
        assert_eq!(
            s.ktest.args,
            [
                "p",
                "--sym-arg",
                "6",
                "--sym-arg",
                "1",
                "--sym-arg",
                "1",
                "--sym-arg",
                "8",
                "--sym-files",
                "2",
                "8"
            ]
        );
        let o = &s.ktest.objects;
        assert_eq!(o[0].bytes, b"--in=A\0");
        assert_eq!(
            (o[1].bytes.as_slice(), o[2].bytes.as_slice()),
            (&b"B\0"[..], &b"A\0"[..])
        );
        assert_eq!(o[3].bytes, b"01234567\0");
        assert_eq!(o[4].bytes, b"short\0\0\0");
        assert_eq!(o[6].bytes, b"a longer");
        assert_eq!(s.truncated, ["argument 4", "file B"]);
        assert_eq!(s.padded, ["file A (5 of 8 bytes)"]);
        assert_eq!(o.last().unwrap().name, "model_version");
    }

    #[test]
    fn concrete_words_and_too_many_files() {
        let run = Run {
            args: vec![b"-c".to_vec(), b"in.json".to_vec()],
            symbolic_args: false,
            files: vec![FileArg {
                index: 1,
                offset: 0,
                contents: b"{}".to_vec(),
            }],
            stdin: None,
        };
        let s = seed_of("jq", &run, 4096).unwrap();
        assert_eq!(s.ktest.args, ["jq", "-c", "A", "--sym-files", "1", "2"]);
        assert_eq!(s.ktest.objects[0].name, "A-data");
        let many = Run {
            args: (0..27).map(|i| format!("f{i}").into_bytes()).collect(),
            symbolic_args: true,
            files: (0..27)
                .map(|i| FileArg {
                    index: i,
                    offset: 0,
                    contents: vec![],
                })
                .collect(),
            stdin: None,
        };
        assert!(seed_of("p", &many, 10).unwrap_err().contains("at most 26"));
        assert_eq!(arg_name(7), "arg07");
        assert_eq!(arg_name(123), "arg23");
    }

    #[test]
    fn what_the_engine_refuses_is_padded_cut_or_left_out() {
        // An empty file (`gawk -f empty.awk`): one zero byte, said.
        let empty = Run {
            args: vec![b"-f".to_vec(), b"empty.awk".to_vec()],
            symbolic_args: true,
            files: vec![FileArg {
                index: 1,
                offset: 0,
                contents: Vec::new(),
            }],
            stdin: Some(b"x".to_vec()),
        };
        let s = seed_of("gawk", &empty, 4096).unwrap();
        assert_eq!(
            s.ktest.args,
            [
                "gawk",
                "--sym-arg",
                "2",
                "--sym-arg",
                "1",
                "--sym-files",
                "1",
                "1",
                "--sym-stdin",
                "1"
            ]
        );
        assert_eq!(s.ktest.objects[2].bytes, [0]);
        assert_eq!(s.padded, ["file A (0 of 1 bytes)"]);
        // An argument longer than the engine's longest, under a larger bound.
        let long = Run {
            args: vec![vec![b'x'; 5000]],
            symbolic_args: true,
            ..Run::default()
        };
        let s = seed_of("p", &long, 1 << 20).unwrap();
        assert_eq!(s.ktest.args, ["p", "--sym-arg", "4096"]);
        assert_eq!(s.truncated, ["argument 1"]);
        // Arguments too long together: no seed, and why.
        let many = Run {
            args: vec![vec![b'y'; 4000]; 17],
            symbolic_args: true,
            ..Run::default()
        };
        let e = seed_of("p", &many, 4096).unwrap_err();
        assert!(e.starts_with("the engine would refuse its environment: --sym-arg 4000: the symbolic arguments add up to"), "{e}");
    }
}
