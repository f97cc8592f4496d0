//! Why edits that came as data (a model's reply) do not apply to the
//! scenario they name.

use super::critic::MAX_EDITS;
use super::vocab::PublicField;
use crate::sema::FormKind;

/// The longest text an edit may write.
pub const MAX_TEXT: usize = 400;

/// Why an edit, or a list of edits, cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("the reply proposes no edit")]
    NoEdit,
    #[error("the reply proposes {0} edits, at most {MAX_EDITS}")]
    TooMany(usize),
    /// One edit of a list, numbered from 1.
    #[error("edit {index}: {error}")]
    At { index: usize, error: Box<EditError> },
    #[error("the text is empty")]
    EmptyText,
    #[error("the text is longer than {MAX_TEXT} characters")]
    LongText,
    #[error("the text holds the control character U+{:04X}", *.0 as u32)]
    ControlCharacter(char),
    #[error("the text holds template or quoting syntax `{0}`")]
    Markup(&'static str),
    #[error("`{0}` is not an identifier")]
    NotIdentifier(String),
    #[error("no person `{0}` in the scenario")]
    NoPerson(String),
    #[error("no attribute `{0}` in the scenario")]
    NoAttribute(String),
    #[error("no meeting `{0}`")]
    NoMeeting(String),
    #[error("no ticket `{0}`")]
    NoTicket(String),
    #[error("no room `{0}`")]
    NoRoom(String),
    #[error("`{0}` is not a fact")]
    NotAFact(String),
    #[error("`{text}` does not parse{}", detail(.error))]
    FactDoesNotParse { text: String, error: Option<String> },
    #[error("`{0}` is not a hard fact")]
    NotAHardFact(String),
    #[error("`{text}`: {}", .errors.join("; "))]
    FactDoesNotResolve { text: String, errors: Vec<String> },
    #[error("`toward` is soft only")]
    SoftOnly,
    #[error("`{attribute}` has no fact `{fact}`")]
    NoSuchFact { attribute: String, fact: String },
    #[error("`{0}` is not a norm")]
    NotANorm(String),
    #[error("the norms do not parse{}", detail(.0))]
    NormsDoNotParse(Option<String>),
    #[error("the norms do not resolve: {}", .0.join("; "))]
    NormsDoNotResolve(Vec<String>),
    #[error("norm {index} is not `{from}`")]
    StaleNorm { index: usize, from: String },
    #[error("`{person}` is not in [{}]", .groups.join(", "))]
    StaleGroups { person: String, groups: Vec<String> },
    #[error("a group may not be named like a person")]
    GroupNamedLikePerson,
    #[error("`{0}` has no sanitized form")]
    NoSanitizedForm(String),
    #[error("the {} text of `{attribute}` is not `{from}`", .form.name())]
    StaleText {
        attribute: String,
        form: FormKind,
        from: String,
    },
    #[error("`{0}` already names a person")]
    PersonTaken(String),
    #[error("`{person}` is not called `{name}`")]
    StaleName { person: String, name: String },
    #[error("`{0}` already names an attribute")]
    AttributeTaken(String),
    #[error("`{0}` is listed twice")]
    ListedTwice(String),
    #[error("a new order lists every attribute once")]
    IncompleteOrder,
    #[error("a meeting needs an attendee")]
    NoAttendee,
    #[error("only meetings have attendees")]
    NoMeetings,
    #[error("{0} is out of range (1 to 1000)")]
    OutOfRange(u32),
    #[error(
        "`{0}` is not a number of the public setting (a ticket's `hours`, a room's `capacity`)"
    )]
    NotInSetting(PublicField),
    /// The printer did not write what a probe looks for: a bug of cici's.
    #[error("internal: {0}")]
    Internal(&'static str),
}

/// `: <error>` when there is one.
fn detail(error: &Option<String>) -> String {
    error.as_ref().map(|e| format!(": {e}")).unwrap_or_default()
}
