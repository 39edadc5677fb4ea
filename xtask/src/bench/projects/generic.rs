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

/// What a package's `debian/rules` says about its build (a debhelper `dh`
/// sequence): the build system named on the `dh` line (`--buildsystem X`,
/// `-S X`), and whether an override of `dh_auto_configure` or
/// `dh_auto_build` runs commands of its own instead of the debhelper step
/// (one that calls the step, with extra arguments, keeps it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DebianRules {
    /// A recipe line runs `dh` (the rules drive a debhelper sequence).
    pub uses_dh: bool,
    pub buildsystem: Option<String>,
    /// The debhelper steps (`dh_auto_configure`, `dh_auto_build`) an
    /// override replaces with its own commands.
    pub replaced: Vec<String>,
}

/// Reads a `debian/rules` file's text (a makefile): see [`DebianRules`].
pub fn debian_rules(text: &str) -> DebianRules {
    let mut r = DebianRules::default();
    // The override being read: (step, whether its commands call the step).
    let mut open: Option<(String, bool)> = None;
    let close = |open: &mut Option<(String, bool)>, r: &mut DebianRules| {
        if let Some((step, calls)) = open.take() {
            if !calls && !r.replaced.contains(&step) {
                r.replaced.push(step);
            }
        }
    };
    for line in text.lines() {
        if let Some(cmd) = line.strip_prefix('\t') {
            let words: Vec<&str> = cmd.split_whitespace().collect();
            let first = words.first().map(|w| w.trim_start_matches(['@', '-', '+']));
            if first == Some("dh") {
                r.uses_dh = true;
                for (i, w) in words.iter().enumerate() {
                    let named = if let Some(v) = w.strip_prefix("--buildsystem=") {
                        Some(v.to_string())
                    } else if *w == "--buildsystem" || *w == "-S" {
                        words.get(i + 1).map(|v| v.to_string())
                    } else {
                        w.strip_prefix("-S")
                            .filter(|v| !v.is_empty() && !v.starts_with('-'))
                            .map(str::to_string)
                    };
                    if named.is_some() {
                        r.buildsystem = named;
                    }
                }
            }
            if let Some((step, calls)) = &mut open {
                if words
                    .iter()
                    .any(|w| w.trim_start_matches(['@', '-', '+']) == step)
                {
                    *calls = true;
                }
            }
            continue;
        }
        let t = line.trim();
        // Conditionals do not end a recipe.
        let conditional = ["ifeq", "ifneq", "ifdef", "ifndef", "else", "endif"]
            .iter()
            .any(|c| t.split_whitespace().next() == Some(c));
        if t.is_empty() || t.starts_with('#') || conditional {
            continue;
        }
        close(&mut open, &mut r);
        let target = t.split(':').next().unwrap_or("").trim();
        for step in ["dh_auto_configure", "dh_auto_build"] {
            let o = format!("override_{step}");
            if t.contains(':') && (target == o || target == format!("{o}-arch")) {
                open = Some((step.to_string(), false));
            }
        }
    }
    close(&mut open, &mut r);
    r
}

/// The build system debhelper would choose in `tree` by itself
/// (`dh_assistant which-build-system`), if debhelper can say.
fn debhelper_detects(tree: &Path) -> Option<String> {
    let o = std::process::Command::new("dh_assistant")
        .arg("which-build-system")
        .current_dir(tree)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !o.status.success() {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).ok()?;
    v["build-system"].as_str().map(str::to_string)
}

/// The recipe family for a debhelper build system (`None`: debhelper uses
/// none, so the content classification decides; `other`: one the generic
/// recipes do not drive, so Debian's rules are run).
pub fn family_of_debhelper(build_system: &str) -> Option<&'static str> {
    match build_system {
        "none" => None,
        "autoconf" => Some("autotools"),
        "makefile" => Some("make"),
        b if b.starts_with("cmake") => Some("cmake"),
        b if b.starts_with("meson") => Some("meson"),
        _ => Some("other"),
    }
}

/// The recipe for a package whose content classification is
/// `build_system`, its source at `tree`: built as Debian's packaging drives
/// it when `debian/rules` runs a debhelper sequence (RULE.md, section 6).
/// Rules that replace debhelper's configure or build step with commands of
/// their own are run themselves (`debian/rules build-arch`); otherwise the
/// generic recipe of the build system debhelper uses (the one the `dh` line
/// names, else debhelper's own detection), and the classification's when
/// debhelper finds none.
pub fn recipe_for(build_system: &str, tree: &Path) -> Generic {
    let Ok(text) = std::fs::read_to_string(tree.join("debian/rules")) else {
        return recipe(build_system, tree);
    };
    let rules = debian_rules(&text);
    if !rules.uses_dh {
        return recipe(build_system, tree);
    }
    // Debian's rules themselves, and why.
    let rules_build = |why: String| Generic {
        how: format!(
            "{why}: Debian's `debian/rules build-arch` (DEB_BUILD_OPTIONS=\"nocheck parallel=2\")"
        ),
        ..recipe("other", tree)
    };
    if !rules.replaced.is_empty() {
        return rules_build(format!(
            "Debian's rules replace debhelper's {} with their own commands",
            rules
                .replaced
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    let (debhelper, source) = match &rules.buildsystem {
        Some(b) => (Some(b.clone()), "the `dh` line of debian/rules names"),
        None => (debhelper_detects(tree), "debhelper detects"),
    };
    let Some(bs) = debhelper else {
        return recipe(build_system, tree);
    };
    match family_of_debhelper(&bs) {
        Some("other") => rules_build(format!(
            "{source} debhelper's `{bs}` build system, which no generic recipe drives"
        )),
        Some(family) => {
            let mut g = recipe(family, tree);
            if g != recipe(build_system, tree) {
                g.how = format!(
                    "{source} `{bs}` (the tree classifies as {build_system}): {}",
                    g.how
                );
            }
            g
        }
        None => recipe(build_system, tree),
    }
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

pub fn install(build: &[String], tree: &Path, dest: &Path) -> Result<Install, String> {
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
        // Anything else (Debian's rules): the Makefile the build left, as
        // `init --from-build` does.
        _ if ["Makefile", "makefile", "GNUmakefile"]
            .iter()
            .any(|m| tree.join(m).is_file()) =>
        {
            Ok(make(None))
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
    fn reads_how_debian_rules_drive_debhelper() {
        // An override that calls the step keeps it (extra arguments).
        let kept = "#!/usr/bin/make -f\n%:\n\tdh $@\n\n\
                    override_dh_auto_configure:\n\t# a comment\n\
                    \tdh_auto_configure -- --without-zlib\n\n\
                    override_dh_auto_build:\nifeq (a,b)\n\techo x\nendif\n\tdh_auto_build -- CFLAGS=x\n";
        let r = debian_rules(kept);
        assert!(r.uses_dh);
        assert_eq!(r.buildsystem, None);
        assert!(r.replaced.is_empty(), "{r:?}");
        // One that runs its own commands replaces it (an empty one too).
        let own = "%:\n\tdh $@\n\noverride_dh_auto_configure:\n\techo x > h\n\n\
                   override_dh_auto_build-arch:\n\t$(MAKE) linux MYLIBS=$(MYLIBS)\n\n\
                   override_dh_auto_install:\n\t$(MAKE) install\n";
        assert_eq!(
            debian_rules(own).replaced,
            ["dh_auto_configure", "dh_auto_build"]
        );
        let empty = "%:\n\tdh $@\noverride_dh_auto_build:\nX := 1\n";
        assert_eq!(debian_rules(empty).replaced, ["dh_auto_build"]);
        // The build system the dh line names, in each spelling.
        for line in [
            "\tdh $@ --buildsystem=lua --with lua",
            "\tdh $@ --buildsystem lua",
            "\tdh $@ -S lua",
            "\tdh $@ -Slua",
        ] {
            let r = debian_rules(&format!("%:\n{line}\n"));
            assert_eq!(r.buildsystem.as_deref(), Some("lua"), "{line}");
        }
        // Rules without a dh sequence.
        let old = "build-arch:\n\t./configure && $(MAKE)\n";
        assert_eq!(debian_rules(old), DebianRules::default());
        assert_eq!(family_of_debhelper("autoconf"), Some("autotools"));
        assert_eq!(family_of_debhelper("cmake+ninja"), Some("cmake"));
        assert_eq!(family_of_debhelper("meson+ninja"), Some("meson"));
        assert_eq!(family_of_debhelper("makefile"), Some("make"));
        assert_eq!(family_of_debhelper("none"), None);
        assert_eq!(family_of_debhelper("lua"), Some("other"));
    }

    #[test]
    fn recipes_follow_debian_rules() {
        let tree = std::env::temp_dir().join(format!("symtest-recipe-{}", std::process::id()));
        std::fs::create_dir_all(tree.join("debian")).unwrap();
        std::fs::write(tree.join("Makefile"), "linux:\n").unwrap();
        // Debian's own build step: its rules are run.
        std::fs::write(
            tree.join("debian/rules"),
            "%:\n\tdh $@\noverride_dh_auto_build:\n\t$(MAKE) linux\n",
        )
        .unwrap();
        let g = recipe_for("make", &tree);
        assert_eq!(g.build, ["debian/rules", "build-arch"]);
        assert!(g.how.contains("`dh_auto_build`"), "{}", g.how);
        // A build system the generic recipes do not drive: its rules too.
        std::fs::write(tree.join("debian/rules"), "%:\n\tdh $@ --buildsystem=lua\n").unwrap();
        assert_eq!(
            recipe_for("make", &tree).build,
            ["debian/rules", "build-arch"]
        );
        // One they drive, named on the dh line.
        std::fs::write(tree.join("debian/rules"), "%:\n\tdh $@ -S cmake\n").unwrap();
        assert!(recipe_for("make", &tree).build[2].contains("cmake --build build"));
        // No dh sequence: the classification's recipe.
        std::fs::write(tree.join("debian/rules"), "build:\n\t$(MAKE)\n").unwrap();
        assert_eq!(recipe_for("make", &tree), recipe("make", &tree));
        std::fs::remove_dir_all(&tree).unwrap();
    }

    #[test]
    fn installs_derive_from_the_build() {
        let dest = Path::new("/tmp/d");
        let w = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let none = Path::new("/nonexistent");
        let (c, _, dry) = install(&w(&["make", "-j2"]), none, dest).unwrap();
        assert_eq!(c, ["make", "install", "DESTDIR=/tmp/d"]);
        assert_eq!(dry.unwrap(), ["make", "-n", "install", "DESTDIR=/tmp/d"]);
        let cm = recipe("cmake", dest).build;
        let (c, env, _) = install(&cm, none, dest).unwrap();
        assert_eq!(c, ["cmake", "--install", "build"]);
        assert_eq!(env[0].1, "/tmp/d");
        let (c, _, _) = install(&recipe("meson", dest).build, none, dest).unwrap();
        assert_eq!(c, ["ninja", "-C", "build", "install"]);
        assert!(install(&recipe("other", dest).build, none, dest).is_err());
        // Debian's rules: the Makefile the build left.
        let tree = std::env::temp_dir().join(format!("symtest-rules-{}", std::process::id()));
        std::fs::create_dir_all(&tree).unwrap();
        std::fs::write(tree.join("Makefile"), "all:\n").unwrap();
        let (c, _, _) = install(&recipe("other", dest).build, &tree, dest).unwrap();
        assert_eq!(c, ["make", "install", "DESTDIR=/tmp/d"]);
        std::fs::remove_dir_all(&tree).unwrap();
    }

    #[test]
    fn finds_elf_programs() {
        assert!(is_elf_program(Path::new("/bin/sh")));
        assert!(!is_elf_program(Path::new("/etc/passwd")));
    }
}
