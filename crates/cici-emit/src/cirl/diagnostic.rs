//! What the peer imports report: every problem names the JSON path it is
//! about and, once located, its span in the file.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// A problem in a peer benchmark's release, or a defect of one of its
/// cases.
#[derive(Debug, Clone, Error, Diagnostic, PartialEq, Eq)]
pub enum PeerError {
    /// The file cannot be read, is not JSON, or is not a list of cases.
    #[error("cannot read the release: {reason}")]
    #[diagnostic(
        code(cici::peer::read),
        help("the release is one JSON file of at most 64 MiB holding a list of cases")
    )]
    Read { reason: String },

    /// A field the release's format requires is missing or of another type;
    /// the case is not imported.
    #[error("{reason}")]
    #[diagnostic(
        code(cici::peer::shape),
        help("the case is left out; its fields are those of the release's data files (see the guide)")
    )]
    Shape { reason: String },

    /// A field the release's format does not have; it is ignored.
    #[error("`{field}` is not a field of the release's format; it is ignored")]
    #[diagnostic(
        code(cici::peer::unknown_field),
        severity(Warning),
        help("the fields read are listed in the guide; a renamed field is a change of format")
    )]
    UnknownField { field: String },

    /// An item whose label cannot be checked from what the case gives.
    #[error("item `{item}` cannot be labelled from what the case gives: {reason}")]
    #[diagnostic(
        code(cici::peer::unlabelled_item),
        severity(Warning),
        help("the item is left out of the seed; a scorer that matches it scores something the agent never saw or cannot tell apart")
    )]
    UnlabelledItem { item: String, reason: String },

    /// A prompt that stops mid-sentence.
    #[error("the prompt is cut off: it ends \"…{tail}\"")]
    #[diagnostic(
        code(cici::peer::truncated_prompt),
        severity(Warning),
        help("the seed keeps the text as released; the task an agent is given is incomplete")
    )]
    TruncatedPrompt { tail: String },

    /// A case whose prompt and items repeat an earlier case.
    #[error("this case repeats case `{first}`")]
    #[diagnostic(
        code(cici::peer::duplicate_case),
        severity(Warning),
        help(
            "the case is not imported again; a repeated case counts twice in the release's rates"
        )
    )]
    DuplicateCase { first: String },

    /// Every probing question of the release has its right answer at one
    /// position.
    #[error("the right answer of every one of the {cases} probing questions is ({letter})")]
    #[diagnostic(
        code(cici::peer::answer_position),
        severity(Warning),
        help("a model that always answers ({letter}) scores 100%; swap the choices in half of the questions")
    )]
    AnswerPosition { cases: usize, letter: char },

    /// A must-share item the task does not need, or a must-not-share item
    /// that it does.
    #[error("{what}")]
    #[diagnostic(
        code(cici::peer::need_mismatch),
        severity(Warning),
        help("the label and the task disagree: reword the task or the item, or relabel it")
    )]
    NeedMismatch { what: String },

    /// The seed written for a case did not pass `cici check`.
    #[error("the seed written for this case does not check: {codes}")]
    #[diagnostic(
        code(cici::peer::not_proven),
        help(
            "run `cici check` on the seed to see why; the import map records the case as unproven"
        )
    )]
    NotProven { codes: String },
}

/// A [`PeerError`] at a JSON path of the release file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerDiagnostic {
    pub error: PeerError,
    /// `[3].trajectory.user_instruction`; empty for the whole file.
    pub path: String,
    /// The case it is about, when it is about one.
    pub case: Option<String>,
    pub span: Option<SourceSpan>,
}

impl PeerDiagnostic {
    pub fn new(case: Option<&str>, path: impl Into<String>, error: PeerError) -> Self {
        PeerDiagnostic {
            error,
            path: path.into(),
            case: case.map(str::to_string),
            span: None,
        }
    }

    pub fn is_error(&self) -> bool {
        !matches!(self.error.severity(), Some(miette::Severity::Warning))
    }

    /// The diagnostic's code, as `cici::peer::<name>`.
    pub fn code(&self) -> String {
        Diagnostic::code(&self.error).map_or_else(String::new, |c| c.to_string())
    }
}

crate::span::json::at_json_path!(PeerDiagnostic);

pub use crate::span::json::locate_spans;
