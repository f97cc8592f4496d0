//! What an import reports: every problem names the JSON path it is about,
//! and carries a span in the JSON text once [`locate_spans`] has run.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// A problem in a PiSAs file that cici reads.
#[derive(Debug, Clone, Error, Diagnostic, PartialEq, Eq)]
pub enum ImportError {
    /// The file cannot be read, or is not JSON.
    ///
    /// ```text
    /// {"task_family_id": "x",
    /// ```
    #[error("cannot read the file: {reason}")]
    #[diagnostic(
        code(cici::import::read),
        help("cici reads the PiSAs formats as JSON files of at most 64 MiB")
    )]
    Read { reason: String },

    /// A field the format requires is missing or has another type.
    ///
    /// ```text
    /// "evidence_variables": []      # an object is expected
    /// ```
    #[error("expected {expected}")]
    #[diagnostic(code(cici::import::shape))]
    Shape {
        expected: String,
        #[help]
        help: Option<String>,
    },

    /// A name that the rest of the file does not declare.
    ///
    /// ```text
    /// "when": {"evidence": "pilot_recncy", "is": "current"}
    /// ```
    #[error("`{name}` is not a known {kind}")]
    #[diagnostic(code(cici::import::unknown_name))]
    UnknownName {
        kind: String,
        name: String,
        #[help]
        help: Option<String>,
    },

    /// A name that cannot be a cici identifier even after cleaning.
    ///
    /// ```text
    /// "outcomes": ["", "ready"]
    /// ```
    #[error("`{name}` cannot be made an id (a {kind})")]
    #[diagnostic(
        code(cici::import::bad_name),
        help("ids are letters, digits and `_`, at most 64 characters, not starting with a digit")
    )]
    BadName { kind: String, name: String },

    /// A rule condition in a form cici does not read.
    ///
    /// ```text
    /// "when": {"evidence": "x", "between": [1, 2]}
    /// ```
    #[error("cannot read this condition: {reason}")]
    #[diagnostic(
        code(cici::import::condition),
        help("conditions are {{\"otherwise\": true}}, {{\"all\": [...]}}, {{\"any\": [...]}}, {{\"not\": ...}}, {{\"evidence\": VAR, \"is\": STATE}} or {{\"evidence\": VAR, \"in\": [STATE, ...]}}")
    )]
    Condition { reason: String },

    /// Rules after an `otherwise` rule can never fire; they are left out.
    ///
    /// ```text
    /// {"id": "ready", "when": {"otherwise": true}}, {"id": "late", ...}
    /// ```
    #[error("this rule comes after the `otherwise` rule and can never fire; it is left out")]
    #[diagnostic(code(cici::import::after_otherwise), severity(Warning))]
    AfterOtherwise,

    /// A valid configuration that no rule gives an outcome: the seed's
    /// rules do not cover it, so it is not imported.
    ///
    /// ```text
    /// rules without "otherwise" that say nothing for one configuration
    /// ```
    #[error("no rule gives an outcome to {count} valid configuration{s}, e.g. {configuration}; {them} not imported", s = if *count == 1 { "" } else { "s" }, them = if *count == 1 { "it is" } else { "they are" })]
    #[diagnostic(
        code(cici::import::uncovered),
        severity(Warning),
        help("add a rule or an `otherwise` rule, or list the configuration under generation_plan.invalid_configurations")
    )]
    Uncovered { configuration: String, count: usize },

    /// A `{placeholder}` in a text that names no cast member.
    ///
    /// ```text
    /// "text": "{pharmacy_lead} confirmed the list."
    /// ```
    #[error("`{{{name}}}` names no cast member; the text keeps it as written")]
    #[diagnostic(
        code(cici::import::placeholder),
        severity(Warning),
        help("placeholders are role ids (`{{operator}}`), `{{<role>_name}}`, `{{executor_name}}` and `{{subject_name}}`")
    )]
    Placeholder { name: String },

    /// More configurations than `--all` writes.
    ///
    /// ```text
    /// 16 variables of 3 states: 43,046,721 configurations
    /// ```
    #[error("the seed has more than {limit} valid configurations; `--all` would write them all")]
    #[diagnostic(
        code(cici::import::too_many),
        help("use --count N to import N configurations chosen by the seed's quotas and coverage cases")
    )]
    TooMany { limit: usize },

    /// No configuration survives the exclusions.
    ///
    /// ```text
    /// invalid_configurations that exclude every state of a variable
    /// ```
    #[error("no valid configuration: the invalid configurations exclude every one")]
    #[diagnostic(
        code(cici::import::no_configuration),
        help("check generation_plan.invalid_configurations")
    )]
    NoConfiguration,
}

/// An [`ImportError`] at a JSON path of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportDiagnostic {
    pub error: ImportError,
    /// Where in the JSON: `decision_policy.rules[3].when`; empty for the
    /// whole file.
    pub path: String,
    /// The span of the path in the JSON text, once located.
    pub span: Option<SourceSpan>,
}

impl ImportDiagnostic {
    pub fn new(path: impl Into<String>, error: ImportError) -> Self {
        ImportDiagnostic {
            error,
            path: path.into(),
            span: None,
        }
    }

    pub fn is_error(&self) -> bool {
        !matches!(self.error.severity(), Some(miette::Severity::Warning))
    }
}

crate::span::json::at_json_path!(ImportDiagnostic);

pub use crate::span::json::locate_spans;
