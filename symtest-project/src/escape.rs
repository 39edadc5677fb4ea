//! Quoting for the files the pipeline generates: every value from
//! `symtest.toml` or from the file system that reaches a Makefile (make, then
//! the shell of its recipes) or a CMake file is quoted for that language, so
//! it reaches the compiler as one word and never runs as a command. What no
//! quoting can carry (a newline; a file name make cannot name) is refused
//! before anything is generated.

/// Characters a shell word may hold without quotes.
fn shell_safe(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c)
}

/// One shell word: as is when safe, else in single quotes (`'` as `'\''`).
pub fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(shell_safe) {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A shell word as it must appear in a make variable or recipe: `$` doubled,
/// `#` escaped (make would start a comment).
pub fn make_shell_word(s: &str) -> String {
    shell_word(s).replace('$', "$$").replace('#', "\\#")
}

/// Why a value cannot be put in a generated build file, if it cannot.
pub fn unrepresentable(s: &str) -> Option<&'static str> {
    if s.contains(['\n', '\r']) {
        Some("holds a line break, which no generated build file can carry")
    } else if s.contains('\0') {
        Some("holds a NUL byte")
    } else {
        None
    }
}

/// Why a file name cannot be a make prerequisite or object name, if it cannot
/// (make splits words at blanks and gives `$`, `#`, `%`, `:`, `;`, `\`, `*`,
/// `?`, `[` and quotes their own meanings there).
pub fn unsafe_file_name(s: &str) -> Option<char> {
    s.chars()
        .find(|c| !(c.is_alphanumeric() || "_+=,./-@~^".contains(*c)))
}

/// One CMake argument: double-quoted, with `\`, `"`, `$` and `;` escaped
/// (no variable references, generator expressions or list splits).
pub fn cmake_arg(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if matches!(c, '\\' | '"' | '$' | ';') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_run_nothing() {
        assert_eq!(shell_word("NDEBUG"), "NDEBUG");
        assert_eq!(shell_word("-DX=1"), "-DX=1");
        assert_eq!(shell_word("PW=$(touch p)"), "'PW=$(touch p)'");
        assert_eq!(shell_word("a'b"), "'a'\\''b'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(
            make_shell_word("PW=$(shell touch p)"),
            "'PW=$$(shell touch p)'"
        );
        assert_eq!(make_shell_word("a#b"), "'a\\#b'");
        assert_eq!(make_shell_word("`id`"), "'`id`'");
    }

    #[test]
    fn cmake_arguments_are_literal() {
        assert_eq!(cmake_arg("X=1"), "\"X=1\"");
        assert_eq!(cmake_arg("${FOO};a\"b\\"), "\"\\${FOO}\\;a\\\"b\\\\\"");
    }

    #[test]
    fn refusals() {
        assert!(unrepresentable("a\nb").is_some());
        assert!(unrepresentable("ok $x").is_none());
        assert_eq!(unsafe_file_name("src/a-b_c.c"), None);
        assert_eq!(unsafe_file_name("c$(shell touch x).c"), Some('$'));
        assert_eq!(unsafe_file_name("my file.c"), Some(' '));
    }
}
