//! What an AgentCIBench import reports: every problem names the JSON path
//! it is about, and carries a span in the JSON text once located.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// A problem in an AgentCIBench scenario file, or a defect of the case it
/// holds.
#[derive(Debug, Clone, Error, Diagnostic, PartialEq, Eq)]
pub enum AcbError {
    /// The file cannot be read, or is not JSON.
    #[error("cannot read the file: {reason}")]
    #[diagnostic(
        code(cici::agentcibench::read),
        help("cici reads AgentCIBench scenarios as JSON files of at most 64 MiB")
    )]
    Read { reason: String },

    /// A field the format requires is missing or has another type.
    #[error("expected {expected}")]
    #[diagnostic(
        code(cici::agentcibench::shape),
        help("a scenario holds scenario_id, track, scenario_family, failure_mode, source, initial_states (an object per app), task_prompt and ground_truth {{must_share, must_not_share}} (lists of strings)")
    )]
    Shape { expected: String },

    /// A field the format does not have: read past, never taken silently.
    #[error("`{name}` is not a field of an AgentCIBench scenario; it is ignored")]
    #[diagnostic(
        code(cici::agentcibench::unknown_field),
        severity(Warning),
        help("remove it, or check its spelling against the release's scenario files")
    )]
    UnknownField { name: String },

    /// Two files hold the same scenario id.
    #[error("scenario id `{id}` is also the id of {first}; this case is not imported")]
    #[diagnostic(
        code(cici::agentcibench::duplicate_id),
        help("give every case an id of its own, or import one of the two folders")
    )]
    DuplicateId { id: String, first: String },

    /// A ground-truth item that the case gives no way to label: found in
    /// neither the apps' states nor the prompt, a placeholder, or in both
    /// lists.
    #[error("`{item}` cannot be labelled from what the case gives: {reason}")]
    #[diagnostic(
        code(cici::agentcibench::unlabelled),
        help("an item is a phrase found word for word in initial_states or the task prompt, in one list only")
    )]
    Unlabelled { item: String, reason: String },

    /// The prompt stops mid-sentence.
    #[error("the task prompt is truncated: it ends with `{ending}`")]
    #[diagnostic(
        code(cici::agentcibench::truncated_prompt),
        help("finish the sentence; a truncated prompt leaves what the task needs unsaid")
    )]
    TruncatedPrompt { ending: String },

    /// The same prompt as a case of another seed.
    #[error("the task prompt is word for word that of `{other}`, a case of another seed")]
    #[diagnostic(
        code(cici::agentcibench::duplicated_prompt),
        help("one instruction with two sets of labels: write a prompt that asks for this case's items")
    )]
    DuplicatedPrompt { other: String },

    /// A must-not-share item that the task needs.
    #[error("the task needs must-not-share item `{item}`: {reason}")]
    #[diagnostic(
        code(cici::agentcibench::kept_item_needed),
        help("drop the item from must_not_share, or reword the prompt and must_share so a correct agent can leave it out")
    )]
    KeptItemNeeded { item: String, reason: String },

    /// No must-share item: the task needs nothing, so there is no flow a
    /// correct agent makes and no decision to prove.
    #[error("must_share is empty: the task needs none of the user's information")]
    #[diagnostic(
        code(cici::agentcibench::nothing_to_share),
        help("list what a correct answer carries under ground_truth.must_share")
    )]
    NothingToShare,
}

/// An [`AcbError`] at a JSON path of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcbDiagnostic {
    pub error: AcbError,
    /// Where in the JSON: `ground_truth.must_share[2]`; empty for the file.
    pub path: String,
    /// The span of the path in the JSON text, once located.
    pub span: Option<SourceSpan>,
}

impl AcbDiagnostic {
    pub fn new(path: impl Into<String>, error: AcbError) -> Self {
        AcbDiagnostic {
            error,
            path: path.into(),
            span: None,
        }
    }

    pub fn is_error(&self) -> bool {
        !matches!(self.error.severity(), Some(miette::Severity::Warning))
    }

    /// The code's last part: `truncated_prompt`.
    pub fn name(&self) -> String {
        let code = self.error.code().map(|c| c.to_string()).unwrap_or_default();
        code.rsplit("::").next().unwrap_or_default().to_string()
    }
}

crate::span::json::at_json_path!(AcbDiagnostic);

pub use crate::span::json::locate_spans;
