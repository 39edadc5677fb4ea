//! The native build recipe: how symtest compiles, links and runs C code natively.
//! There is one. The emitted suite's `Makefile` is written from it, and the
//! pipeline's own native build (the per-test coverage runs of minimization, the
//! replay of the kept tests, gcov) *is* that Makefile, run with
//! `SYMTEST_COVERAGE=1` in the target's build directory; the benchmark runs the
//! pipeline. So the coverage report, the minimization and the suite a developer
//! runs give the same answer about the same test.
//!
//! **One definition of a bug.** A native build compiles exactly the checks the
//! engine makes:
//! - the UBSan checks compiled into the bitcode (a target's `sanitize`, by
//!   default [`DEFAULT_UBSAN`]; a target from a build gets what the capture
//!   compiled, the default), plus `float-cast-overflow`, which the engine makes
//!   itself at every float-to-integer conversion;
//! - memory errors, which the engine checks at every access: AddressSanitizer
//!   against glibc. Against musl (programs that inject system-call failures,
//!   `--max-fail`, replayed exactly with the failure shim) there is no
//!   AddressSanitizer: the UBSan checks trap, and an invalid access shows only
//!   where it faults (a bug the engine reports that does not fault there is
//!   listed as not reproduced, never counted).
//!
//! UBSan checks the engine does not make — `pointer-overflow` (`NULL + 0`, as in
//! gnulib's `readlinebuffer_delim`), `alignment`, `null`,
//! `nonnull-attribute`, `vla-bound`, `return`, ... — are never compiled in: a
//! native run must not trap on a path the engine called clean.

use crate::config::Kind;
use crate::discovery::Target;

/// The UBSan checks every bitcode build compiles in by default (`symtest.toml`'s
/// `sanitize` overrides it for a target with sources; the capture always uses
/// it): [`crate::toolchain::BITCODE_FLAGS`] spells the same list. `bounds`
/// (an index past an array of known size) is there because a build against
/// musl has no AddressSanitizer: without it a one-byte overflow of a global
/// or stack array is found by the engine and by nothing natively, and the bug
/// would not count; with it the engine reports the same access as the
/// native trap does (`ptr`, "array index out of bounds").
pub const DEFAULT_UBSAN: &[&str] = &[
    "signed-integer-overflow",
    "shift",
    "integer-divide-by-zero",
    "bounds",
];

/// Checks the engine makes itself, whatever the bitcode holds: a
/// float-to-integer conversion that does not fit is reported at the conversion.
pub const ENGINE_UBSAN: &[&str] = &["float-cast-overflow"];

/// The C library a native build links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Libc {
    /// The host's (glibc): AddressSanitizer and the UBSan runtime.
    Host,
    /// musl (Debian's musl-tools), the libc the engine runs: system-call
    /// failures replay exactly; UBSan in trap mode, no AddressSanitizer.
    Musl,
}

impl Libc {
    /// The value of the suite Makefile's `LIBC` variable.
    pub fn as_make(self) -> &'static str {
        match self {
            Libc::Host => "host",
            Libc::Musl => "musl",
        }
    }
}

/// Whether the target injects system-call failures (`--max-fail N`, N > 0).
pub fn injects_failures(target: &Target) -> bool {
    target.kind == Kind::Program
        && target.args.windows(2).any(|w| {
            w[0].trim_start_matches('-') == "max-fail" && w[1].parse::<u64>().is_ok_and(|n| n > 0)
        })
}

/// The libc of the target's native builds: musl for a program that injects
/// failures (so they replay exactly), the host's otherwise. The engine runs
/// musl's code either way; where glibc differs in what a program sees
/// (strtol's errno without digits, atoi's overflow), the POSIX runtime picks
/// the same libc by the same `--max-fail` rule and the model answers as it
/// (`libc-models/musl/src/internal/symtest_glibc.h`).
pub fn libc(target: &Target) -> Libc {
    if injects_failures(target) {
        Libc::Musl
    } else {
        Libc::Host
    }
}

/// The UBSan checks of the target's native builds: those its bitcode has
/// compiled in, then those the engine makes itself, each once.
pub fn ubsan_checks(target: &Target) -> Vec<String> {
    let compiled: Vec<String> = if target.build.is_some() {
        DEFAULT_UBSAN.iter().map(|s| s.to_string()).collect()
    } else {
        target.sanitize.clone()
    };
    let mut out: Vec<String> = Vec::new();
    for c in compiled
        .into_iter()
        .chain(ENGINE_UBSAN.iter().map(|s| s.to_string()))
    {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The sanitizer flags of a build with the host's libc (what the CMake snippet
/// and `replay --source` use; the Makefile spells them from [`ubsan_checks`]).
pub fn host_sanitize_flags(checks: &[String]) -> Vec<String> {
    vec![
        format!("-fsanitize=address,{}", checks.join(",")),
        "-fno-sanitize-recover=all".into(),
    ]
}

/// The sanitizer flags of a musl build: the UBSan checks in trap mode.
pub fn musl_sanitize_flags(checks: &[String]) -> Vec<String> {
    vec![
        format!("-fsanitize={}", checks.join(",")),
        "-fsanitize-trap=all".into(),
    ]
}

/// The sanitizer flags of a native harness build with the default checks (no
/// target at hand: `replay --source`, `exec --validate`).
pub fn default_host_sanitize_flags() -> Vec<String> {
    let checks: Vec<String> = DEFAULT_UBSAN
        .iter()
        .chain(ENGINE_UBSAN)
        .map(|s| s.to_string())
        .collect();
    host_sanitize_flags(&checks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bitcode_flags_spell_the_default_checks() {
        let flag = format!("-fsanitize={}", DEFAULT_UBSAN.join(","));
        assert!(
            crate::toolchain::BITCODE_FLAGS.contains(&flag.as_str()),
            "{flag} not in {:?}",
            crate::toolchain::BITCODE_FLAGS
        );
        assert_eq!(
            crate::config::DEFAULT_SANITIZE,
            DEFAULT_UBSAN,
            "symtest.toml's default `sanitize` is the capture's"
        );
    }

    #[test]
    fn native_builds_never_compile_checks_the_engine_does_not_make() {
        let flags = default_host_sanitize_flags();
        for absent in ["pointer-overflow", "alignment", "null", "undefined"] {
            assert!(
                !flags[0].split([',', '=']).any(|c| c == absent),
                "{absent} in {flags:?}"
            );
        }
        assert!(flags[0].contains("float-cast-overflow"));
    }
}
