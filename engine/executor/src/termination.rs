//! How a path ends: its outcome is data, never an `Err`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Error kinds (KLEE's termination classes), each with its `.err` file suffix
/// (KLEE's `testN.<kind>.err`), which is also its name in the JSON files and on
/// the command line: [`ErrorKind::as_str`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// Invalid memory access: out of bounds, null dereference, use after free.
    Ptr,
    /// Invalid free: double free, free of a non-heap or interior pointer.
    Free,
    /// Division or remainder by zero.
    Div,
    /// Integer overflow and oversized shifts (UBSan checks): signed overflow,
    /// overlong or negative shift, negation overflow.
    Overflow,
    /// A failed assertion (`assert`, `klee_assert`, `symtest_assert`).
    Assert,
    /// `abort()` / `klee_abort()`.
    Abort,
    /// Write to read-only memory (string literals, const globals).
    ReadOnly,
    /// A user-reported error (`symtest_report_error`, `klee_report_error`).
    User,
    /// The engine could not execute something (unsupported instruction, …).
    Exec,
    /// Call of a function with no definition and no model.
    External,
    /// A model limitation hit on this path.
    Model,
    /// The solver failed (timeout, unknown) on this path.
    Solver,
    /// Crosschecking: the two programs' outputs differ on this path's input.
    Mismatch,
}

impl ErrorKind {
    /// The kind's name: the `.err` file suffix, its JSON form (serde) and
    /// its [`Display`](fmt::Display) form.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Ptr => "ptr",
            ErrorKind::Free => "free",
            ErrorKind::Div => "div",
            ErrorKind::Overflow => "overflow",
            ErrorKind::Assert => "assert",
            ErrorKind::Abort => "abort",
            ErrorKind::ReadOnly => "readonly",
            ErrorKind::User => "user",
            ErrorKind::Exec => "exec",
            ErrorKind::External => "external",
            ErrorKind::Model => "model",
            ErrorKind::Solver => "solver",
            ErrorKind::Mismatch => "mismatch",
        }
    }

    /// The kind named exactly `s` (as [`ErrorKind::as_str`] gives it). The
    /// [`FromStr`] parse is lenient instead: it trims and ignores case.
    pub fn parse(s: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.iter().copied().find(|k| k.as_str() == s)
    }

    pub const ALL: [ErrorKind; 13] = [
        ErrorKind::Ptr,
        ErrorKind::Free,
        ErrorKind::Div,
        ErrorKind::Overflow,
        ErrorKind::Assert,
        ErrorKind::Abort,
        ErrorKind::ReadOnly,
        ErrorKind::User,
        ErrorKind::Exec,
        ErrorKind::External,
        ErrorKind::Model,
        ErrorKind::Solver,
        ErrorKind::Mismatch,
    ];

    /// Kinds that are program bugs (the others are limits of the engine or models).
    pub fn is_bug(self) -> bool {
        !matches!(
            self,
            ErrorKind::Exec | ErrorKind::External | ErrorKind::Model | ErrorKind::Solver
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Returned by `ErrorKind::from_str` for an unknown name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownErrorKind(pub String);

impl fmt::Display for UnknownErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown error kind '{}' (expected one of: {})",
            self.0,
            ErrorKind::ALL.map(ErrorKind::as_str).join(", ")
        )
    }
}

impl std::error::Error for UnknownErrorKind {}

/// Lenient: surrounding whitespace and case are ignored (`"ReadOnly"` is
/// [`ErrorKind::ReadOnly`]); [`ErrorKind::parse`] is the exact match.
impl FromStr for ErrorKind {
    type Err = UnknownErrorKind;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        ErrorKind::ALL
            .into_iter()
            .find(|k| k.as_str().eq_ignore_ascii_case(t))
            .ok_or_else(|| UnknownErrorKind(s.to_string()))
    }
}

/// One frame of an error's stack, innermost first.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct StackEntry {
    pub function: String,
    pub file: String,
    pub line: u32,
}

/// What an error path reports.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ErrorReport {
    pub kind: ErrorKind,
    pub message: String,
    pub file: String,
    pub line: u32,
    pub stack: Vec<StackEntry>,
    /// The error file's suffix `klee_report_error` gave (`foo.err` for
    /// `testN.foo.err`); `None`: `<kind>.err`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
}

impl ErrorReport {
    /// The suffix of this error's file: `testN.<suffix>`.
    pub fn file_suffix(&self) -> String {
        match &self.suffix {
            Some(s) => s.clone(),
            None => format!("{}.err", self.kind.as_str()),
        }
    }

    /// The `.err` file text: `Error:`, `File:`, `Line:`, then `Stack:`.
    pub fn render(&self) -> String {
        let mut s = format!(
            "Error: {}\nFile: {}\nLine: {}\nStack:\n",
            self.message, self.file, self.line
        );
        for (i, f) in self.stack.iter().enumerate() {
            s.push_str(&format!("\t#{i} {} at {}:{}\n", f.function, f.file, f.line));
        }
        s
    }
}

/// Why a state stopped.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Termination {
    /// `main` returned or `exit` was called.
    Exit(i64),
    /// A bug or an engine/model limitation on this path.
    Error(ErrorKind, String),
    /// `symtest_silent_exit`, or an assumption that cannot hold: no test.
    Silent,
    /// A limit stopped the state before it finished (`--max-depth`, memory cap, halt).
    Early(String),
    /// The program waits for an event nothing in the modelled environment
    /// makes (`__symtest_blocked`): the path has no end, natively neither.
    Blocked(String),
}

/// Outcome recorded with each test.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TestOutcome {
    Exit {
        code: i64,
    },
    Error(ErrorReport),
    Early {
        reason: String,
        /// Run to its end concretely on the test's inputs, the path ran this
        /// many instructions without ending (a native run is expected not to
        /// end either: replay checks that it times out); 0 when the path
        /// blocked, waiting for an event nothing in the environment makes.
        #[serde(skip_serializing_if = "Option::is_none")]
        no_end_within: Option<u64>,
    },
}
