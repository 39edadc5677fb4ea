//! Generic build recipes of corpus packages without a hand recipe, by build
//! system (tests/bench/corpus/RULE.md, section 6).

use std::path::Path;

/// What a generic recipe does: configure commands (a shell script, empty for
/// none), the build command `init --from-build` captures, and its
/// description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generic {
    pub how: String,
    pub prepare: String,
    pub build: Vec<String>,
}

fn sh(script: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script.into()]
}

/// The recipe for a tree of `build_system` (its source at `tree`).
pub fn recipe(build_system: &str, tree: &Path) -> Generic {
    let make = vec!["make".to_string(), "-j2".to_string()];
    match build_system {
        "autotools" | "libtool" => {
            let (how, prepare) = if tree.join("configure").is_file() {
                (
                    "generic autotools recipe: `./configure --prefix=/usr`, `make -j2`",
                    "./configure --prefix=/usr",
                )
            } else {
                (
                    "generic autotools recipe (no configure script): `autoreconf -fi`, \
                     `./configure --prefix=/usr`, `make -j2`",
                    "autoreconf -fi && ./configure --prefix=/usr",
                )
            };
            Generic {
                how: how.into(),
                prepare: prepare.into(),
                build: make,
            }
        }
        "cmake" => Generic {
            how: "generic CMake recipe: `cmake -S . -B build` and `cmake --build build -j2`, \
                  configured within the captured command"
                .into(),
            prepare: String::new(),
            build: sh(
                "cmake -S . -B build -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_BUILD_TYPE=None \
                 && cmake --build build -j2",
            ),
        },
        "meson" => Generic {
            how: "generic Meson recipe: `meson setup build` and `ninja -C build`, configured \
                  within the captured command"
                .into(),
            prepare: String::new(),
            build: sh("meson setup build --prefix=/usr --buildtype=plain && ninja -C build -j2"),
        },
        "kbuild" => Generic {
            how: "generic Kconfig recipe: `make defconfig`, `make -j2`".into(),
            prepare: "make defconfig".into(),
            build: make,
        },
        // A hand-written configure script (not Autoconf's) comes first, as
        // its README would say.
        "make" if is_executable(&tree.join("configure")) => Generic {
            how: "generic Makefile recipe with the tree's own configure script: \
                  `./configure --prefix=/usr`, `make -j2`"
                .into(),
            prepare: "./configure --prefix=/usr".into(),
            build: make,
        },
        "make" => Generic {
            how: "generic Makefile recipe: `make -j2`".into(),
            prepare: String::new(),
            build: make,
        },
        _ => Generic {
            how: "generic recipe of an unrecognized build: Debian's `debian/rules build-arch` \
                  (DEB_BUILD_OPTIONS=\"nocheck parallel=2\")"
                .into(),
            prepare: String::new(),
            build: vec!["debian/rules".into(), "build-arch".into()],
        },
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The install of a build into `DESTDIR`: (command, environment, a dry run
/// whose output must name the destination), derived from the build command
/// as `init --from-build` derives its own; `Err` says why there is none.
pub type Install = (Vec<String>, Vec<(String, String)>, Option<Vec<String>>);

pub fn install(build: &[String], dest: &Path) -> Result<Install, String> {
    let dest = dest.display().to_string();
    let make = |dir: Option<&str>| -> Install {
        let mut c = vec!["make".to_string()];
        if let Some(d) = dir {
            c.extend(["-C".to_string(), d.to_string()]);
        }
        let mut dry = c.clone();
        dry.push("-n".into());
        for x in [&mut c, &mut dry] {
            x.push("install".into());
            x.push(format!("DESTDIR={dest}"));
        }
        (c, Vec::new(), Some(dry))
    };
    let Some((prog, args)) = build.split_first() else {
        return Err("no build command".into());
    };
    let last: Vec<String> = if prog == "sh" && args.first().is_some_and(|a| a == "-c") {
        let script = args.get(1).cloned().unwrap_or_default();
        script
            .split("&&")
            .last()
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    } else {
        build.to_vec()
    };
    let word = |i: usize| last.get(i).map(String::as_str);
    match (word(0), word(1)) {
        (Some("make" | "gmake"), _) => {
            let dir = last
                .iter()
                .position(|w| w == "-C")
                .and_then(|i| last.get(i + 1));
            Ok(make(dir.map(String::as_str)))
        }
        (Some("cmake"), Some("--build")) => {
            let dir = word(2).ok_or("cmake --build without a directory")?;
            Ok((
                vec!["cmake".into(), "--install".into(), dir.into()],
                vec![("DESTDIR".into(), dest)],
                None,
            ))
        }
        (Some("ninja"), _) => {
            let mut c = vec!["ninja".to_string()];
            if let Some(i) = last.iter().position(|w| w == "-C") {
                c.extend(last[i..].iter().take(2).cloned());
            }
            c.push("install".into());
            Ok((c, vec![("DESTDIR".into(), dest)], None))
        }
        _ => Err(format!("no install step known for `{}`", build.join(" "))),
    }
}

/// Whether the file at `p` is an ELF executable (64-bit little-endian, with
/// a program interpreter: not a shared library).
pub fn is_elf_program(p: &Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = std::fs::File::open(p) else {
        return false;
    };
    let mut h = [0u8; 64];
    if f.read_exact(&mut h).is_err() || &h[..4] != b"\x7fELF" || h[4] != 2 || h[5] != 1 {
        return false;
    }
    let u16_at = |o: usize| u16::from_le_bytes([h[o], h[o + 1]]) as u64;
    let phoff = u64::from_le_bytes(h[32..40].try_into().expect("8 bytes"));
    let (phentsize, phnum) = (u16_at(54), u16_at(56));
    if !matches!(u16_at(16), 2 | 3) || phentsize < 4 {
        return false;
    }
    for i in 0..phnum {
        let mut t = [0u8; 4];
        if f.seek(SeekFrom::Start(phoff + i * phentsize)).is_err() || f.read_exact(&mut t).is_err()
        {
            return false;
        }
        if u32::from_le_bytes(t) == 3 {
            return true;
        }
    }
    false
}

/// The installed programs under `dest`: the names of the regular files that
/// are ELF executables, sorted.
pub fn installed_programs(dest: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dest.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(e.path());
            } else if ft.is_file() && is_elf_program(&e.path()) {
                out.push(e.file_name().to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipes_by_build_system() {
        let d = std::env::temp_dir();
        assert_eq!(recipe("make", &d).build, ["make", "-j2"]);
        assert_eq!(recipe("kbuild", &d).prepare, "make defconfig");
        assert!(recipe("cmake", &d).build[2].contains("cmake --build build"));
        assert!(recipe("meson", &d).build[2].contains("ninja -C build"));
        assert_eq!(recipe("other", &d).build, ["debian/rules", "build-arch"]);
    }

    #[test]
    fn installs_derive_from_the_build() {
        let dest = Path::new("/tmp/d");
        let w = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let (c, _, dry) = install(&w(&["make", "-j2"]), dest).unwrap();
        assert_eq!(c, ["make", "install", "DESTDIR=/tmp/d"]);
        assert_eq!(dry.unwrap(), ["make", "-n", "install", "DESTDIR=/tmp/d"]);
        let cm = recipe("cmake", dest).build;
        let (c, env, _) = install(&cm, dest).unwrap();
        assert_eq!(c, ["cmake", "--install", "build"]);
        assert_eq!(env[0].1, "/tmp/d");
        let (c, _, _) = install(&recipe("meson", dest).build, dest).unwrap();
        assert_eq!(c, ["ninja", "-C", "build", "install"]);
        assert!(install(&recipe("other", dest).build, dest).is_err());
    }

    #[test]
    fn finds_elf_programs() {
        assert!(is_elf_program(Path::new("/bin/sh")));
        assert!(!is_elf_program(Path::new("/etc/passwd")));
    }
}
