//! The world a whole-program test describes (ENV_CONTRACT.md): argv rebuilt
//! from the program arguments given to `exec` after `--` and the `n_args` /
//! `argNN` objects, the symbolic files `A`, `B`, ... (`X-data`,
//! `X-data-stat`), stdin (`stdin`, `stdin-stat`) and the system-call failures
//! to inject (`read_fail`, ... from `--max-fail`).

use std::fmt;
use symtest_ktest::KTest;

/// The failure classes of `--max-fail`, in the order the POSIX model creates
/// their objects; `<class>_fail` is the object name.
pub const FAIL_CLASSES: [&str; 8] = [
    "read", "write", "close", "open", "lseek", "stat", "getcwd", "dup",
];

/// Size of `struct stat64` on x86_64 Linux, as recorded in `X-data-stat`.
pub const STAT_SIZE: usize = 144;
const ST_MODE_OFFSET: usize = 24;
const ST_SIZE_OFFSET: usize = 48;

/// A symbolic file to create in the test's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymFile {
    pub name: String,
    pub data: Vec<u8>,
    /// Permission bits (st_mode & 0o777).
    pub mode: u32,
}

/// Everything a native run of one test needs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct World {
    /// argv[1..] (argv[0] is the program).
    pub args: Vec<Vec<u8>>,
    pub files: Vec<SymFile>,
    /// Contents of stdin; `None`: stdin is /dev/null.
    pub stdin: Option<Vec<u8>>,
    /// (class, k): fail the k-th system call of the class.
    pub failures: Vec<(&'static str, u32)>,
}

/// Why a test's objects do not fit its program arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldError(pub String);

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WorldError {}

fn err<T>(msg: impl Into<String>) -> Result<T, WorldError> {
    Err(WorldError(msg.into()))
}

/// The option name without its dashes, if `word` is one of the environment
/// options (KLEE accepts one or two dashes).
fn env_option(word: &str) -> Option<&str> {
    let name = word.strip_prefix("--").or_else(|| word.strip_prefix('-'))?;
    [
        "sym-arg",
        "sym-args",
        "sym-files",
        "sym-stdin",
        "sym-stdout",
        "max-fail",
    ]
    .into_iter()
    .find(|n| *n == name)
}

fn number(args: &[String], i: usize, opt: &str) -> Result<u64, WorldError> {
    match args.get(i) {
        Some(w) => w.parse::<u64>().or_else(|_| {
            err(format!(
                "--{opt}: expected a number, got '{w}' in the program arguments"
            ))
        }),
        None => err(format!(
            "--{opt}: missing number at the end of the program arguments"
        )),
    }
}

fn le_u32(bytes: &[u8], at: usize) -> Option<u32> {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn le_u64(bytes: &[u8], at: usize) -> Option<u64> {
    bytes
        .get(at..at + 8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
}

/// The bytes of a file or stdin: the data object, cut to the stat's st_size
/// when that is smaller.
fn cut_to_stat(data: &[u8], stat: Option<&[u8]>) -> Vec<u8> {
    let size = stat
        .and_then(|s| le_u64(s, ST_SIZE_OFFSET))
        .map_or(data.len(), |n| n.min(data.len() as u64) as usize);
    data[..size].to_vec()
}

/// The C string of an `argNN` object (bytes up to the first NUL).
fn c_string(bytes: &[u8]) -> Vec<u8> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    bytes[..end].to_vec()
}

impl World {
    /// Rebuild the world of `ktest`, given the words that followed `--` on the
    /// `exec` command line (`program_args`).
    pub fn from_test(program_args: &[String], ktest: &KTest) -> Result<World, WorldError> {
        let object = |name: &str| ktest.objects.iter().find(|o| o.name == name);
        let mut world = World::default();
        let mut next_arg = 0usize;
        let mut groups = ktest.objects.iter().filter(|o| o.name == "n_args");
        let mut take_arg = |world: &mut World, pass: bool| -> Result<(), WorldError> {
            let name = format!("arg{next_arg:02}");
            next_arg += 1;
            match object(&name) {
                Some(o) if pass => {
                    world.args.push(c_string(&o.bytes));
                    Ok(())
                }
                Some(_) => Ok(()),
                None => err(format!(
                    "the test has no object '{name}' for a symbolic argument"
                )),
            }
        };
        let mut i = 0;
        while i < program_args.len() {
            let word = &program_args[i];
            match env_option(word) {
                Some("sym-arg") => {
                    number(program_args, i + 1, "sym-arg")?;
                    take_arg(&mut world, true)?;
                    i += 2;
                }
                Some("sym-args") => {
                    let min = number(program_args, i + 1, "sym-args")?;
                    let max = number(program_args, i + 2, "sym-args")?;
                    number(program_args, i + 3, "sym-args")?;
                    if min > max {
                        return err(format!("--sym-args {min} {max}: MIN is larger than MAX"));
                    }
                    let Some(n) = groups.next() else {
                        return err("the test has no 'n_args' object for a --sym-args group");
                    };
                    let Some(n) = le_u32(&n.bytes, 0).filter(|_| n.bytes.len() == 4) else {
                        return err("the 'n_args' object is not a 4-byte integer");
                    };
                    let n = u64::from(n).min(max);
                    for k in 0..max {
                        take_arg(&mut world, k < n)?;
                    }
                    i += 4;
                }
                Some("sym-files") => {
                    number(program_args, i + 1, "sym-files")?;
                    number(program_args, i + 2, "sym-files")?;
                    i += 3;
                }
                Some("sym-stdin") | Some("max-fail") => {
                    number(program_args, i + 1, word.trim_start_matches('-'))?;
                    i += 2;
                }
                Some(_) => i += 1, // --sym-stdout
                None => {
                    world.args.push(word.as_bytes().to_vec());
                    i += 1;
                }
            }
        }
        world.add_files(ktest)?;
        if let Some(o) = object("stdin") {
            let stat = object("stdin-stat").map(|s| s.bytes.as_slice());
            world.stdin = Some(cut_to_stat(&o.bytes, stat));
        }
        world.add_failures(ktest)?;
        Ok(world)
    }

    /// The symbolic files of `ktest` (its `NAME-data` objects, cut to the
    /// size of their `NAME-data-stat` ones, with their permissions).
    fn add_files(&mut self, ktest: &KTest) -> Result<(), WorldError> {
        let object = |name: &str| ktest.objects.iter().find(|o| o.name == name);
        for o in &ktest.objects {
            let Some(name) = o.name.strip_suffix("-data") else {
                continue;
            };
            if name.is_empty() || name.contains('/') || name == "." || name == ".." {
                return err(format!("invalid symbolic file name '{}'", o.name));
            }
            let stat = object(&format!("{}-stat", o.name)).map(|s| s.bytes.as_slice());
            if stat.is_some_and(|s| s.len() != STAT_SIZE) {
                return err(format!(
                    "the '{}-stat' object has {} bytes, expected {STAT_SIZE}",
                    o.name,
                    stat.map_or(0, <[u8]>::len)
                ));
            }
            let mode = stat
                .and_then(|s| le_u32(s, ST_MODE_OFFSET))
                .map_or(0o644, |m| m & 0o777);
            self.files.push(SymFile {
                name: name.to_string(),
                data: cut_to_stat(&o.bytes, stat),
                mode,
            });
        }
        Ok(())
    }

    /// The failures `ktest` injects (its `CLASS_fail` objects: the call of
    /// the class that fails, a positive 32-bit count).
    fn add_failures(&mut self, ktest: &KTest) -> Result<(), WorldError> {
        let object = |name: &str| ktest.objects.iter().find(|o| o.name == name);
        for class in FAIL_CLASSES {
            if let Some(o) = object(&format!("{class}_fail")) {
                let Some(k) = le_u32(&o.bytes, 0).filter(|_| o.bytes.len() == 4) else {
                    return err(format!("the '{class}_fail' object is not a 4-byte integer"));
                };
                // A negative or zero value means "never".
                if (1..=i32::MAX as u32).contains(&k) {
                    self.failures.push((class, k));
                }
            }
        }
        Ok(())
    }

    /// The failures as the shim's `SYMTEST_FAIL` value ("read=3,open=1").
    pub fn fail_spec(&self) -> String {
        self.failures
            .iter()
            .map(|(c, k)| format!("{c}={k}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symtest_ktest::KTestObject;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn stat(size: u64, mode: u32) -> Vec<u8> {
        let mut s = vec![0u8; STAT_SIZE];
        s[ST_MODE_OFFSET..ST_MODE_OFFSET + 4].copy_from_slice(&(0o100000 | mode).to_le_bytes());
        s[ST_SIZE_OFFSET..ST_SIZE_OFFSET + 8].copy_from_slice(&size.to_le_bytes());
        s
    }

    fn test(objects: Vec<(&str, Vec<u8>)>) -> KTest {
        KTest {
            objects: objects
                .into_iter()
                .map(|(n, b)| KTestObject::new(n, b))
                .collect(),
            ..KTest::default()
        }
    }

    #[test]
    fn argv_from_groups_and_concrete_words() {
        let t = test(vec![
            ("n_args", 2u32.to_le_bytes().to_vec()),
            ("arg00", b"-n\0\0".to_vec()),
            ("arg01", b"ab\0\0".to_vec()),
            ("arg02", b"zz\0\0".to_vec()),
            ("arg03", b"x\0y\0".to_vec()),
            ("model_version", 1u32.to_le_bytes().to_vec()),
        ]);
        let w = World::from_test(&words("-v --sym-args 0 3 3 FILE --sym-arg 3"), &t).unwrap();
        let args: Vec<&[u8]> = w.args.iter().map(|a| a.as_slice()).collect();
        assert_eq!(args, [&b"-v"[..], b"-n", b"ab", b"FILE", b"x"]);
        assert!(w.files.is_empty() && w.stdin.is_none() && w.failures.is_empty());
    }

    #[test]
    fn files_stdin_and_failures() {
        let t = test(vec![
            ("A-data", b"hello".to_vec()),
            ("A-data-stat", stat(3, 0o600)),
            ("B-data", b"xy".to_vec()),
            ("B-data-stat", stat(10, 0o444)),
            ("stdin", b"input".to_vec()),
            ("stdin-stat", stat(5, 0o644)),
            ("model_version", 1u32.to_le_bytes().to_vec()),
            ("read_fail", 3u32.to_le_bytes().to_vec()),
            ("write_fail", 0u32.to_le_bytes().to_vec()),
            ("open_fail", 1u32.to_le_bytes().to_vec()),
        ]);
        let w =
            World::from_test(&words("--sym-files 2 5 --sym-stdin 5 --max-fail 1 A"), &t).unwrap();
        assert_eq!(w.args, vec![b"A".to_vec()]);
        assert_eq!(
            w.files,
            vec![
                SymFile {
                    name: "A".into(),
                    data: b"hel".to_vec(),
                    mode: 0o600
                },
                SymFile {
                    name: "B".into(),
                    data: b"xy".to_vec(),
                    mode: 0o444
                },
            ]
        );
        assert_eq!(w.stdin.as_deref(), Some(&b"input"[..]));
        assert_eq!(w.fail_spec(), "read=3,open=1");
    }

    #[test]
    fn bad_tests_are_reported() {
        let t = test(vec![]);
        let e = World::from_test(&words("--sym-arg 3"), &t).unwrap_err();
        assert!(e.0.contains("no object 'arg00'"), "{e}");
        let e = World::from_test(&words("--sym-args 0 2"), &t).unwrap_err();
        assert!(e.0.contains("missing number"), "{e}");
        let e = World::from_test(&words("--sym-args 0 x 2"), &t).unwrap_err();
        assert!(e.0.contains("expected a number, got 'x'"), "{e}");
        let e = World::from_test(&words("--sym-args 0 1 2"), &t).unwrap_err();
        assert!(e.0.contains("n_args"), "{e}");
        let t = test(vec![("../x-data", vec![1])]);
        assert!(World::from_test(&[], &t).is_err());
    }
}
