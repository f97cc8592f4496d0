//! Errors of the syntax stage.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// Something the parser could not read.
///
/// A variant's doc shows the statement that gives it; a complete seed for
/// every variant is in `docs/diagnostics.md`, which the tests check.
#[derive(Debug, Clone, Error, Diagnostic, PartialEq, Eq)]
pub enum SyntaxError {
    /// The text does not fit the grammar at this point.
    ///
    /// ```text
    /// scenario s { family meeting_allocation titel "x" }
    /// ```
    #[error("expected {expected}, found {found}")]
    #[diagnostic(code(cici::syntax::unexpected))]
    Unexpected {
        expected: String,
        found: String,
        #[label("{expected} expected here")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A backslash escape other than `\"`, `\\` and `\n`.
    ///
    /// ```text
    /// raw "tab\there"
    /// ```
    #[error("unknown escape `{escape}` in a string")]
    #[diagnostic(
        code(cici::syntax::invalid_escape),
        help("strings know the escapes \\\", \\\\ and \\n; use a triple-quoted string for other text")
    )]
    InvalidEscape {
        escape: String,
        #[label("not a valid escape")]
        span: SourceSpan,
    },

    /// A time slot whose clock times are impossible or whose end is not after its start.
    ///
    /// ```text
    /// slots [tue 11:00-10:00]
    /// ```
    #[error("invalid time slot: {reason}")]
    #[diagnostic(
        code(cici::syntax::invalid_slot),
        help("write slots as `DAY HH:MM-HH:MM` with 00:00 <= start < end <= 24:00, e.g. `tue 10:00-11:00`")
    )]
    InvalidSlot {
        reason: String,
        #[label("{reason}")]
        span: SourceSpan,
    },

    /// An integer that does not fit in 32 bits.
    ///
    /// ```text
    /// hours 99999999999
    /// ```
    #[error("integer `{text}` is too large")]
    #[diagnostic(
        code(cici::syntax::integer_too_large),
        help("integers must be at most 4294967295")
    )]
    IntegerTooLarge {
        text: String,
        #[label("too large")]
        span: SourceSpan,
    },

    /// A file that defines no scenario: empty, or only comments.
    ///
    /// ```text
    /// # nothing but a comment
    /// ```
    #[error("the file defines no scenario")]
    #[diagnostic(
        code(cici::syntax::no_scenario),
        help("a seed file holds one or more `scenario <id> {{ ... }}` blocks; `cici new <family> <id>` writes a starter")
    )]
    NoScenario {
        #[label("no `scenario` block in this file")]
        span: SourceSpan,
    },

    /// Parentheses nested deeper than the parser accepts.
    ///
    /// ```text
    /// sev_1 when ((((((((... a = b ...))))))))
    /// ```
    #[error("parentheses are nested more than {limit} deep")]
    #[diagnostic(
        code(cici::syntax::too_deep),
        help("split the condition into simpler rules")
    )]
    TooDeep {
        limit: usize,
        #[label("nesting too deep from here")]
        span: SourceSpan,
    },

    /// A file that is not UTF-8 text. It is reported and left out; the
    /// other files of the run are still checked. Spans into a text with
    /// replacement characters would be off, so nothing is replaced.
    ///
    /// ```text
    /// scenario s { title "caf\xe9" }   (Latin-1 bytes)
    /// ```
    #[error("the file is not UTF-8 (first invalid byte at offset {offset})")]
    #[diagnostic(
        code(cici::syntax::not_utf8),
        help(
            "save the file as UTF-8 (for example `iconv -f latin1 -t utf-8`); seeds are UTF-8 text"
        )
    )]
    NotUtf8 {
        offset: usize,
        #[label("not UTF-8 from here")]
        span: SourceSpan,
    },
}
