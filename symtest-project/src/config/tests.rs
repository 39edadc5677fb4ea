//! Unit tests of the configuration's parsing and checks.

use super::*;

#[test]
fn names_file_line_and_key() {
    let text =
        "[[target]]\nname = \"a\"\nkind = \"harness\"\nsources = [\"a.c\"]\nmax-time = \"x\"\n";
    let e = parse_config_file(Path::new("symtest.toml"), text).unwrap_err();
    assert_eq!(e.line, Some(5), "{e}");
    assert_eq!(e.key.as_deref(), Some("max-time"), "{e}");
    let text = "[[target]]\nname = \"a\"\nkind = \"harness\"\nsources = [\"a.c\"]\nmaxtime = 3\n";
    let e = parse_config_file(Path::new("symtest.toml"), text).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("maxtime"), "{e}");
    assert!(e.to_string().starts_with("symtest.toml:"), "{e}");
    let text = "[[target]]\nname = \"a\"\nkind = \"fuzz\"\nsources = [\"a.c\"]\n";
    let e = parse_config_file(Path::new("s.toml"), text).unwrap_err();
    assert_eq!((e.line, e.key.as_deref()), (Some(3), Some("kind")), "{e}");
}

#[test]
fn validation_names_the_key() {
    let text = "[[target]]\nname = \"a b\"\nkind = \"harness\"\nsources = [\"a.c\"]\n";
    let cfg = parse_config_file(Path::new("s.toml"), text).unwrap();
    let e = validate(Path::new("s.toml"), text, &cfg).unwrap_err();
    assert_eq!((e.line, e.key.as_deref()), (Some(2), Some("name")), "{e}");
}

#[test]
fn targets_from_a_build() {
    let check = |body: &str| {
        let text = format!("[[target]]\nname = \"t\"\n{body}");
        let cfg = parse_config_file(Path::new("s.toml"), &text).unwrap();
        validate(Path::new("s.toml"), &text, &cfg).map_err(|e| (e.line, e.key.unwrap()))
    };
    assert!(check("kind = \"program\"\nbuild = [\"make\"]\nbinary = \"src/echo\"\n").is_ok());
    assert!(check(
        "kind = \"harness\"\nbuild = [\"make\"]\nlibrary = \"libfoo.a\"\nsources = [\"h.c\"]\n"
    )
    .is_ok());
    let e = |l: usize, k: &str| Err((Some(l), k.to_string()));
    assert_eq!(
        check("kind = \"program\"\nbuild = [\"make\"]\nbinary = \"p\"\nsources = [\"a.c\"]\n"),
        e(6, "sources")
    );
    assert_eq!(
        check("kind = \"harness\"\nbuild = [\"make\"]\nlibrary = \"l.a\"\n"),
        e(4, "sources")
    );
    assert_eq!(
        check("kind = \"harness\"\nbuild = [\"make\"]\nbinary = \"p\"\nsources = [\"h.c\"]\n"),
        e(5, "binary")
    );
    assert_eq!(
        check("kind = \"program\"\nbinary = \"p\"\nsources = [\"a.c\"]\n"),
        e(4, "binary")
    );
    assert_eq!(
        check("kind = \"program\"\nbuild = [\"make\"]\nbinary = \"p\"\nlibrary = \"l.a\"\n"),
        e(6, "library")
    );
    assert_eq!(check("kind = \"program\"\n"), e(2, "sources"));
    assert_eq!(
        check("kind = \"program\"\nbuild = [\"\"]\nbinary = \"p\"\n"),
        e(4, "build")
    );
}

#[test]
fn seed_keys() {
    let check = |body: &str| {
        let text = format!("[[target]]\nname = \"t\"\n{body}");
        let cfg =
            parse_config_file(Path::new("s.toml"), &text).map_err(|e| (e.line, e.key.unwrap()))?;
        validate(Path::new("s.toml"), &text, &cfg).map_err(|e| (e.line, e.key.unwrap()))
    };
    let build = "kind = \"program\"\nbuild = [\"make\"]\nbinary = \"p\"\n";
    let sources = "kind = \"program\"\nsources = [\"a.c\"]\n";
    assert!(check(&format!(
        "{build}seed-tests = [\"make\", \"check\"]\nseed-max-bytes = 64\n"
    ))
    .is_ok());
    assert!(check(&format!(
        "{sources}seed-inputs = \"t/*.json\"\nseed-inputs-as = \"file\"\n"
    ))
    .is_ok());
    let e = |l: usize, k: &str| Err((Some(l), k.to_string()));
    assert_eq!(
        check(&format!("{sources}seed-tests = [\"make\", \"check\"]\n")),
        e(5, "seed-tests")
    );
    assert_eq!(
        check(&format!("{build}seed-tests = []\n")),
        e(6, "seed-tests")
    );
    assert_eq!(
        check(&format!(
            "{build}seed-tests = [\"make\"]\nseed-max-bytes = 0\n"
        )),
        e(7, "seed-max-bytes")
    );
    assert_eq!(
        check(&format!("{sources}seed-max-bytes = 9\n")),
        e(5, "seed-max-bytes")
    );
    assert_eq!(
        check(&format!("{sources}seed-inputs-as = \"file\"\n")),
        e(5, "seed-inputs-as")
    );
    assert_eq!(
        check(&format!(
            "{build}seed-tests = [\"make\"]\nseed-inputs-as = \"stdin\"\n"
        )),
        e(7, "seed-inputs-as")
    );
    assert_eq!(
        check(&format!(
            "{sources}seed-inputs = \"x\"\nseed-inputs-as = \"pipe\"\n"
        )),
        e(6, "seed-inputs-as")
    );
    assert_eq!(
        check("kind = \"harness\"\nsources = [\"h.c\"]\nseed-inputs = \"x\"\n"),
        e(5, "seed-inputs")
    );
}

#[test]
fn crosscheck_tables() {
    let programs = "[[target]]\nname = \"a\"\nkind = \"program\"\nsources = [\"a.c\"]\n\
                    [[target]]\nname = \"b\"\nkind = \"program\"\nsources = [\"b.c\"]\n\
                    [[target]]\nname = \"h\"\nkind = \"harness\"\nsources = [\"h.c\"]\n";
    let check = |body: &str| {
        let text = format!("{programs}[[crosscheck]]\nname = \"x\"\n{body}");
        let cfg =
            parse_config_file(Path::new("s.toml"), &text).map_err(|e| (e.line, e.key.unwrap()))?;
        validate(Path::new("s.toml"), &text, &cfg).map_err(|e| (e.line, e.key.unwrap()))
    };
    assert!(
        check("programs = [\"a\", \"b\"]\nargs = [\"--sym-stdin\", \"4\"]\nmax-time = 9\n").is_ok()
    );
    let e = |l: usize, k: &str| Err((Some(l), k.to_string()));
    assert_eq!(
        check("programs = [\"a\", \"c\"]\nargs = []\n"),
        e(15, "programs")
    );
    assert_eq!(
        check("programs = [\"a\", \"h\"]\nargs = []\n"),
        e(15, "programs")
    );
    assert_eq!(check("programs = [\"a\"]\nargs = []\n"), e(15, "programs"));
    assert_eq!(
        check("programs = [\"b\", \"b\"]\nargs = []\n"),
        e(15, "programs")
    );
    assert_eq!(check("programs = [\"a\", \"b\"]\n"), e(14, "args"));
    assert_eq!(check("args = []\n"), e(14, "programs"));
    assert_eq!(check("inverse = [\"e\", \"d\"]\n"), e(15, "inverse"));
    assert_eq!(
        check("programs = [\"a\", \"b\"]\nargs = []\nmax-instructions = 0\n"),
        e(17, "max-instructions")
    );
    assert_eq!(
        check("programs = [\"a\", \"b\"]\nargs = []\nsources = []\n"),
        e(17, "sources")
    );
    let text =
        format!("{programs}[[crosscheck]]\nname = \"a\"\nprograms = [\"a\", \"b\"]\nargs = []\n");
    let cfg = parse_config_file(Path::new("s.toml"), &text).unwrap();
    let err = validate(Path::new("s.toml"), &text, &cfg).unwrap_err();
    assert_eq!(
        (err.line, err.key.as_deref()),
        (Some(14), Some("name")),
        "{err}"
    );
    assert!(is_environment_option("-sym-args") && is_environment_option("--max-fail"));
    assert!(!is_environment_option("wc") && !is_environment_option("--sym"));
}

#[test]
fn manifest_table() {
    let text = "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[package.metadata.symtest]\n[[package.metadata.symtest.target]]\nname = \"t\"\nkind = \"harness\"\nsources = [\"c/*.c\"]\n";
    let cfg = parse_manifest(Path::new("Cargo.toml"), text)
        .unwrap()
        .unwrap();
    assert_eq!(cfg.target.len(), 1);
    let text = "[package]\nname = \"x\"\n[package.metadata.symtest]\n[[package.metadata.symtest.target]]\nname = \"t\"\nkind = \"harness\"\nsources = 3\n";
    let e = parse_manifest(Path::new("Cargo.toml"), text).unwrap_err();
    assert_eq!(
        (e.line, e.key.as_deref()),
        (Some(7), Some("sources")),
        "{e}"
    );
}

mod path_tests {
    use super::super::*;

    #[test]
    fn paths_inside_the_project() {
        assert!(inside_relative("tests/suite").is_ok());
        assert!(inside_relative("a/../b").is_ok());
        assert!(inside_relative("./x").is_ok());
        assert!(inside_relative("../../X").is_err());
        assert!(inside_relative("a/../../b").is_err());
        assert!(inside_relative("/tmp/x").is_err());
        assert!(inside_relative(".").is_err());
        assert!(inside_relative("a/..").is_err());
        assert!(inside_relative("").is_err());
    }

    #[test]
    fn reserved_and_long_names() {
        for n in ["summary.json", "exec-last", "exec-12", "capture"] {
            assert!(reserved_name(n).is_some(), "{n}");
        }
        for n in ["exec", "exec-", "exec-1a", "summary", "captured"] {
            assert!(reserved_name(n).is_none(), "{n}");
        }
        let file = Path::new("/tmp/symtest.toml");
        assert!(name_too_long(file, &"a".repeat(200)).is_none());
        let e = name_too_long(file, &"a".repeat(300)).unwrap();
        assert!(e.contains("File name too long"), "{e}");
    }
}
