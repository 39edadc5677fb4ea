//! How a path ends: its outcome is data, never an `Err`.

use serde::Serialize;

/// Error kinds, each with its `.err` file suffix (KLEE's `testN.<kind>.err`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// Out-of-bounds access, null dereference, use after free.
    Ptr,
    /// Double free, invalid free.
    Free,
    /// Division or remainder by zero.
    Div,
    /// Integer overflow and oversized shifts (UBSan checks).
    Overflow,
    Assert,
    Abort,
    /// Write to read-only memory.
    ReadOnly,
    /// `symtest_report_error`.
    User,
    /// The engine could not execute something (unsupported instruction, …).
    Exec,
    /// Call of a function with no definition and no model.
    External,
    /// A model limitation hit on this path.
    Model,
    /// The solver failed (timeout, unknown) on this path.
    Solver,
}

impl ErrorKind {
    pub fn suffix(self) -> &'static str {
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
        }
    }

    pub fn parse(s: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.iter().copied().find(|k| k.suffix() == s)
    }

    pub const ALL: [ErrorKind; 12] = [
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
    ];

    /// Kinds that are program bugs (the others are limits of the engine or models).
    pub fn is_bug(self) -> bool {
        !matches!(
            self,
            ErrorKind::Exec | ErrorKind::External | ErrorKind::Model | ErrorKind::Solver
        )
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
            None => format!("{}.err", self.kind.suffix()),
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
