//! Repository checks, run as ordinary tests (`cargo test -p xtask`).

#[cfg(test)]
mod tests {
    use crate::paths::workspace_root;
    use std::path::{Path, PathBuf};

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
        // draws its events (the nextest-runner / cargo-nextest split).
        let m = workspace_root().join("symtest-project/Cargo.toml");
        for dep in dependency_lines(&m) {
            assert!(
                !dep.starts_with("clap") && !dep.starts_with("indicatif"),
                "symtest-project depends on `{dep}`: flags and drawing belong in cargo-symtest"
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
