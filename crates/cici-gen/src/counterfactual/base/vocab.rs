//! The counterfactual vocabulary: what a generator proposes (edits,
//! candidates, flows), what the critic checks, and why a candidate is
//! turned down.
//!
//! The symbolic generator (`mutate`), the model generator (`llm`), the
//! critic and the loop that accepts candidates are peers that all speak
//! this vocabulary; none of them owns it. Every reason and check is a
//! variant: code that acts on a rejection matches it, never its text.

use std::fmt;
use std::sync::{Arc, LazyLock};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sema::{FormKind, Scenario};

/// One edit operation, in terms a reader can follow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Edit {
    /// A hard fact of an attribute replaced by another, with its texts.
    ReplaceFact {
        attribute: String,
        from: String,
        to: String,
    },
    /// The text of one form replaced.
    ReplaceText {
        attribute: String,
        form: FormKind,
        from: String,
        to: String,
    },
    /// A person renamed everywhere: id, display name and every text.
    RenamePerson {
        from: String,
        to: String,
        name_from: String,
        name_to: String,
    },
    /// Who may see a form.
    SetVisibility {
        attribute: String,
        form: FormKind,
        from: Vec<String>,
        to: Vec<String>,
    },
    /// The attribute now belongs to, and is about, another person.
    SetHolder {
        attribute: String,
        from: String,
        to: String,
    },
    /// An attribute dropped, facts and texts with it.
    DropAttribute { attribute: String },
    /// A new attribute: a personal detail with no bearing on the task,
    /// or, with `fact`, an appropriate detail that states that fact.
    AddAttribute {
        attribute: String,
        holder: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fact: Option<String>,
    },
    /// Who attends a meeting.
    SetAttendees {
        meeting: String,
        from: Vec<String>,
        to: Vec<String>,
    },
    /// The attributes listed in another order (ids, old and new order).
    ReorderAttributes { from: Vec<String>, to: Vec<String> },
    /// One norm of the scenario replaced (`from` and `to` in seed syntax),
    /// added (`from` empty, `index` one past the last) or dropped (`to`
    /// empty). A scenario without norms has its family's defaults to edit.
    SetNorm {
        index: usize,
        from: String,
        to: String,
    },
    /// The groups a person belongs to.
    SetGroups {
        person: String,
        from: Vec<String>,
        to: Vec<String>,
    },
    /// A number of the public setting: a ticket's hours, a room's capacity.
    SetPublic {
        target: String,
        field: PublicField,
        from: u32,
        to: u32,
    },
}

/// The numbers of a public setting an edit may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PublicField {
    /// A ticket's hours (JIRA).
    Hours,
    /// A room's capacity (meetings).
    Capacity,
}

impl PublicField {
    /// The field's name, as edits spell it.
    pub fn name(self) -> &'static str {
        match self {
            PublicField::Hours => "hours",
            PublicField::Capacity => "capacity",
        }
    }
}

impl fmt::Display for PublicField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A proposed variant.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Shared: a candidate that asks about another flow shares its
    /// anchor's scenario. Built when first read: a generator lists many
    /// more candidates than a side tries.
    pub scenario: Later,
    pub edits: Vec<Edit>,
    /// For flow items: the flow the variant asks about, when it is not the
    /// anchor's (the recipient or the wording changed, not the seed).
    pub flow: Option<Flow>,
}

/// How a [`Later`] builds its scenario.
type Build = Box<dyn FnOnce() -> Arc<Scenario> + Send>;

/// A candidate's scenario, built the first time it is read and shared by
/// every copy of the candidate from then on, so that its address names it
/// (the loop keeps oracles by it). A generator that lists dozens of edits
/// of which a side tries a few pays for copying the seed only for those.
#[derive(Clone)]
pub struct Later(Arc<LazyLock<Arc<Scenario>, Build>>);

impl Later {
    /// A variant of `base`, made by `edit` on a copy of it when first read.
    pub fn variant(
        base: &Arc<Scenario>,
        edit: impl FnOnce(&mut Scenario) + Send + 'static,
    ) -> Later {
        let base = Arc::clone(base);
        Later(Arc::new(LazyLock::new(Box::new(move || {
            let mut v = Scenario::clone(&base);
            edit(&mut v);
            Arc::new(v)
        }))))
    }
}

impl std::ops::Deref for Later {
    type Target = Arc<Scenario>;
    fn deref(&self) -> &Arc<Scenario> {
        LazyLock::force(&self.0)
    }
}

impl From<Arc<Scenario>> for Later {
    fn from(sc: Arc<Scenario>) -> Later {
        Later(Arc::new(LazyLock::new(Box::new(move || sc))))
    }
}

impl From<Scenario> for Later {
    fn from(sc: Scenario) -> Later {
        Later::from(Arc::new(sc))
    }
}

impl fmt::Debug for Later {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Later")
    }
}

/// A flow: sharing one form of one attribute with one person.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Flow {
    pub attribute: String,
    pub form: FormKind,
    pub person: String,
}

/// One check of the critic, rule-based or asked of a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// At most `MAX_EDITS` changes (see [`changes`]).
    Minimal,
    /// The variant's item reads differently from its anchor's.
    ReadsDifferently,
    /// The variant adds no warning its anchor did not have.
    NoNewWarnings,
    /// Every edited text states its facts.
    StatesFact,
    /// No edited sanitized text repeats its raw reason.
    NoLeak,
    /// No edited text names a label.
    NoLabelWords,
    /// A decision item shows every trap of its scenario.
    ShowsTraps,
    /// The prover's findings support the label.
    SupportsLabel,
    /// No accepted variant reads the same.
    NotDuplicate,
    /// The model critic could not judge.
    LlmCritic,
    /// The model finds the edited texts fluent.
    LlmFluent,
    /// The model finds that the edited texts state their facts.
    LlmStatesFact,
    /// The model finds that no sanitized text gives its reason away.
    LlmNoGiveaway,
}

impl Check {
    /// Every check, in the order of their names.
    pub const ALL: [Check; 13] = [
        Check::Minimal,
        Check::ReadsDifferently,
        Check::NoNewWarnings,
        Check::StatesFact,
        Check::NoLeak,
        Check::NoLabelWords,
        Check::ShowsTraps,
        Check::SupportsLabel,
        Check::NotDuplicate,
        Check::LlmCritic,
        Check::LlmFluent,
        Check::LlmStatesFact,
        Check::LlmNoGiveaway,
    ];

    /// The check's name, as records spell it.
    pub fn name(self) -> &'static str {
        match self {
            Check::Minimal => "minimal",
            Check::ReadsDifferently => "reads_differently",
            Check::NoNewWarnings => "no_new_warnings",
            Check::StatesFact => "states_fact",
            Check::NoLeak => "no_leak",
            Check::NoLabelWords => "no_label_words",
            Check::ShowsTraps => "shows_traps",
            Check::SupportsLabel => "supports_label",
            Check::NotDuplicate => "not_duplicate",
            Check::LlmCritic => "llm_critic",
            Check::LlmFluent => "llm_fluent",
            Check::LlmStatesFact => "llm_states_fact",
            Check::LlmNoGiveaway => "llm_no_giveaway",
        }
    }

    fn from_name(name: &str) -> Option<Check> {
        Check::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a candidate was turned down.
///
/// Records spell a reason as one line of text (its `Display`); reading a
/// record back gives the same variant, or [`Reason::Recorded`] for a text
/// this version does not write, so a record read and written again is the
/// same to the byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The edited facts allow no decision.
    NoDecision,
    /// The edited facts allow more than one decision.
    SeveralDecisions,
    /// The candidate's label is not the one the side wants.
    WrongLabel,
    /// The variant has errors; the codes of its error diagnostics.
    DoesNotCheck(Vec<String>),
    /// A flow candidate that names no flow.
    NoFlow,
    /// A flow whose form's recipients come from a written exception, which
    /// the item does not state.
    UnstatedException,
    /// The item's template failed.
    ItemDoesNotRender(String),
    /// Checks of the critic that failed, each with its reason.
    Critic(Vec<(Check, String)>),
    /// Edits from a model that do not apply to the scenario.
    Edits(EditError),
    /// The model's call failed.
    Model(String),
    /// The model's reply is not a list of edits.
    Reply(crate::llm::ReplyError),
    /// A reason read from a record that this version does not write.
    Recorded(String),
}

impl Reason {
    /// The kind of reason, by which counts group alike ones: the critic's
    /// by its first failed check (and the warnings a variant adds).
    pub fn kind(&self) -> String {
        match self {
            Reason::DoesNotCheck(_) => "the variant does not check".into(),
            Reason::ItemDoesNotRender(_) => "the item does not render".into(),
            Reason::Critic(failed) => match failed.first() {
                // The warnings a variant adds say what in the seed to mend.
                Some((check @ Check::NoNewWarnings, why)) => format!("critic: {check}: {why}"),
                Some((check, _)) => format!("critic: {check}"),
                None => "critic".into(),
            },
            Reason::Edits(_) => "the edits do not apply".into(),
            Reason::Model(_) => "the model".into(),
            Reason::Reply(e) => e.kind().into(),
            Reason::Recorded(text) => text.chars().take(80).collect(),
            _ => self.to_string(),
        }
    }

    /// Whether the reason depends on the decision alone, which the texts
    /// of a candidate do not change.
    pub fn about_decision(&self) -> bool {
        matches!(
            self,
            Reason::NoDecision | Reason::SeveralDecisions | Reason::WrongLabel
        )
    }

    /// Reads a reason as a record spells it.
    pub fn parse(text: &str) -> Reason {
        let known = [
            Reason::NoDecision,
            Reason::SeveralDecisions,
            Reason::WrongLabel,
            Reason::NoFlow,
            Reason::UnstatedException,
        ];
        if let Some(r) = known.into_iter().find(|r| r.to_string() == text) {
            return r;
        }
        let parsed = if let Some(codes) = text.strip_prefix("the variant does not check: ") {
            Some(Reason::DoesNotCheck(
                codes.split(", ").map(str::to_string).collect(),
            ))
        } else if let Some(e) = text.strip_prefix("the item does not render: ") {
            Some(Reason::ItemDoesNotRender(e.to_string()))
        } else if let Some(failed) = text.strip_prefix("critic: ") {
            critic_checks(failed).map(Reason::Critic)
        } else {
            text.strip_prefix("the model: ")
                .map(|m| Reason::Model(m.to_string()))
        };
        // Only a reading that writes back the same text is taken.
        parsed
            .filter(|r| r.to_string() == text)
            .unwrap_or_else(|| Reason::Recorded(text.to_string()))
    }
}

/// `check: reason; check: reason`, each check one the critic has.
fn critic_checks(text: &str) -> Option<Vec<(Check, String)>> {
    text.split("; ")
        .map(|part| {
            let (check, why) = part.split_once(": ")?;
            Some((Check::from_name(check)?, why.to_string()))
        })
        .collect()
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NoDecision => f.write_str("the edited facts allow no decision"),
            Reason::SeveralDecisions => {
                f.write_str("the edited facts allow more than one decision")
            }
            Reason::WrongLabel => f.write_str("the label is not the one wanted"),
            Reason::DoesNotCheck(codes) => {
                write!(f, "the variant does not check: {}", codes.join(", "))
            }
            Reason::NoFlow => f.write_str("the variant asks about no flow"),
            Reason::UnstatedException => {
                f.write_str("the form's recipients come from an exception the item does not state")
            }
            Reason::ItemDoesNotRender(e) => write!(f, "the item does not render: {e}"),
            Reason::Critic(failed) => {
                let parts: Vec<String> = failed
                    .iter()
                    .map(|(c, why)| format!("{c}: {why}"))
                    .collect();
                write!(f, "critic: {}", parts.join("; "))
            }
            Reason::Edits(e) => write!(f, "{e}"),
            Reason::Model(m) => write!(f, "the model: {m}"),
            Reason::Reply(why) => write!(f, "{why}"),
            Reason::Recorded(why) => f.write_str(why),
        }
    }
}

impl From<EditError> for Reason {
    fn from(e: EditError) -> Reason {
        Reason::Edits(e)
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        String::deserialize(d).map(|text| Reason::parse(&text))
    }
}

impl JsonSchema for Reason {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Reason".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = String::json_schema(generator);
        schema.insert(
            "description".into(),
            "Why the candidate was turned down, in one line.".into(),
        );
        schema
    }
}

/// The most edit operations one candidate may make; the critic holds a
/// candidate to as many changes (see [`changes`]).
pub const MAX_EDITS: usize = 4;

/// The place of the attribute an edit of `anchor` into `variant` names:
/// its id in the variant, or, for one the edit moved and so renamed, its
/// id in the anchor (a move keeps an attribute's place).
pub(crate) fn place(id: &str, anchor: &Scenario, variant: &Scenario) -> Option<usize> {
    let at = |sc: &Scenario| sc.attributes.iter().position(|a| a.id == id);
    at(variant).or_else(|| at(anchor))
}

/// How many changes the edits of `anchor` into `variant` make: each edit
/// is one, but a text of an attribute whose fact the same edits replace
/// is part of that replacement (its texts say the new fact), so a fact
/// told with a personal reason and a sanitized twin is one change, as a
/// fact told once is. An attribute is known by its place, so a text
/// written under the id it has after a move still counts with its fact.
pub fn changes(edits: &[Edit], anchor: &Scenario, variant: &Scenario) -> usize {
    let at = |id: &str| place(id, anchor, variant);
    let replaced: Vec<usize> = edits
        .iter()
        .filter_map(|e| match e {
            Edit::ReplaceFact { attribute, .. } => at(attribute),
            _ => None,
        })
        .collect();
    let of_a_replacement = |e: &&Edit| match e {
        Edit::ReplaceText { attribute, .. } => at(attribute).is_some_and(|i| replaced.contains(&i)),
        _ => false,
    };
    edits.iter().filter(|e| !of_a_replacement(e)).count()
}

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
