//! The resolved scenario: names bound to indices, defaults applied, the
//! attribute forms split, every fact typed for its family.

use super::ticket::Ticket;
use schemars::JsonSchema;
use serde::Serialize;

pub use super::category::Category;
pub use super::family::Family;
use crate::span::{SourceId, Span};
pub use crate::syntax::{Day, Slot};

/// Index of a person in [`Scenario::people`].
pub type PersonId = usize;
/// Index of a room in [`MeetingSetting::rooms`].
pub type RoomId = usize;
/// Index of a meeting in [`MeetingSetting::meetings`].
pub type MeetingId = usize;
/// Index of a ticket in [`JiraSetting::tickets`].
pub type TicketId = usize;
/// Index of a level in [`RuleSetting::levels`].
pub type LevelId = usize;
/// Index of an evidence variable in [`RuleSetting::evidence`].
pub type VariableId = usize;
/// Index of an attribute in [`Scenario::attributes`].
pub type AttributeId = usize;

/// What kind of thing a fact argument names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    Person,
    Room,
    Meeting,
    Feature,
    Slot,
    Ticket,
    Integer,
    Variable,
    Value,
    Level,
}

impl ArgKind {
    pub fn describe(self) -> &'static str {
        match self {
            ArgKind::Person => "a person",
            ArgKind::Room => "a room",
            ArgKind::Meeting => "a meeting",
            ArgKind::Feature => "a room feature",
            ArgKind::Slot => "a time slot",
            ArgKind::Ticket => "a ticket",
            ArgKind::Integer => "an integer",
            ArgKind::Variable => "an evidence variable",
            ArgKind::Value => "an evidence value",
            ArgKind::Level => "a level",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    pub id: String,
    pub name: String,
    pub role: String,
    pub skills: Vec<String>,
    /// The groups and functions the person belongs to (`hr`, `security`).
    pub groups: Vec<String>,
    /// The person's manager, for norms that name `manager`.
    pub manager: Option<PersonId>,
    pub span: Span,
}

impl Person {
    /// A person with no groups and no manager.
    pub fn new(id: String, name: String, role: String, skills: Vec<String>, span: Span) -> Person {
        Person {
            id,
            name,
            role,
            skills,
            groups: Vec::new(),
            manager: None,
            span,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    pub id: String,
    pub name: Option<String>,
    pub capacity: u32,
    pub features: Vec<String>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meeting {
    pub id: String,
    pub title: String,
    pub attendees: Vec<PersonId>,
    pub slots: Vec<Slot>,
    pub rooms: Vec<RoomId>,
    pub features: Vec<String>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeetingSetting {
    pub rooms: Vec<Room>,
    pub meetings: Vec<Meeting>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JiraSetting {
    pub tickets: Vec<Ticket>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub id: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    pub id: String,
    pub values: Vec<String>,
    pub span: Span,
}

/// A resolved rubric condition over evidence variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    Eq(VariableId, usize),
    Ne(VariableId, usize),
    /// The variable has one of these values.
    In(VariableId, Vec<usize>),
    Not(Box<Condition>),
    And(Vec<Condition>),
    Or(Vec<Condition>),
}

impl Condition {
    /// Evaluates the condition on a full assignment of values.
    pub fn eval(&self, values: &[usize]) -> bool {
        match self {
            Condition::Eq(v, x) => values[*v] == *x,
            Condition::Ne(v, x) => values[*v] != *x,
            Condition::In(v, xs) => xs.contains(&values[*v]),
            Condition::Not(c) => !c.eval(values),
            Condition::And(cs) => cs.iter().all(|c| c.eval(values)),
            Condition::Or(cs) => cs.iter().any(|c| c.eval(values)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RubricRule {
    pub level: LevelId,
    pub when: Condition,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rubric {
    pub rules: Vec<RubricRule>,
    /// Always given in a severity rubric; optional in policy rules that
    /// cover every valid configuration.
    pub otherwise: Option<LevelId>,
    pub span: Span,
}

impl Rubric {
    /// The level the rubric gives a full assignment: the first rule that
    /// holds, else `otherwise`; `None` when neither gives one.
    pub fn level(&self, values: &[usize]) -> Option<LevelId> {
        self.rules
            .iter()
            .find(|r| r.when.eval(values))
            .map(|r| r.level)
            .or(self.otherwise)
    }
}

/// `exclude <condition>`: configurations that cannot occur.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exclusion {
    pub when: Condition,
    pub span: Span,
}

/// Which kind of rules a rule-based setting holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// `severity_classification`: levels and a rubric.
    Severity,
    /// `policy_decision`: outcomes and rules.
    Policy,
}

impl RuleKind {
    /// The family whose setting this is.
    pub fn family(self) -> Family {
        match self {
            RuleKind::Severity => Family::SeverityClassification,
            RuleKind::Policy => Family::PolicyDecision,
        }
    }
}

/// The public setting of a rule-based family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSetting {
    pub kind: RuleKind,
    /// Levels (severity) or outcomes (policy), in order.
    pub levels: Vec<Level>,
    pub evidence: Vec<Evidence>,
    pub rubric: Rubric,
    /// Configurations the process rules out.
    pub excludes: Vec<Exclusion>,
}

impl RuleSetting {
    /// Whether a full configuration is valid: no exclusion holds.
    pub fn valid(&self, values: &[usize]) -> bool {
        !self.excludes.iter().any(|e| e.when.eval(values))
    }
}

/// The family-specific public declarations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    Meeting(MeetingSetting),
    Jira(JiraSetting),
    /// Of a rule-based family: severity classification or policy decision.
    Rule(RuleSetting),
}

/// A typed fact: what it restricts, of the family whose setting it is
/// read against. Resolution gives a scenario facts of its own family only,
/// so each family's lowering matches its own predicates exhaustively.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Predicate {
    Meeting(MeetingPredicate),
    Jira(JiraPredicate),
    /// Of a rule-based family: severity classification or policy decision.
    Rule(RulePredicate),
}

impl Predicate {
    /// The fact, if it is of `meeting_allocation`.
    pub fn meeting(&self) -> Option<&MeetingPredicate> {
        match self {
            Predicate::Meeting(p) => Some(p),
            _ => None,
        }
    }

    /// The fact, if it is of `jira_allocation`.
    pub fn jira(&self) -> Option<&JiraPredicate> {
        match self {
            Predicate::Jira(p) => Some(p),
            _ => None,
        }
    }

    /// The fact, if it is of a rule-based family.
    pub fn rule(&self) -> Option<&RulePredicate> {
        match self {
            Predicate::Rule(p) => Some(p),
            _ => None,
        }
    }
}

/// A fact of `meeting_allocation`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MeetingPredicate {
    /// No meeting the person attends in a slot overlapping this one.
    Unavailable { person: PersonId, slot: Slot },
    /// No meeting the person attends in this room.
    AvoidRoom { person: PersonId, room: RoomId },
    /// The meeting is only in rooms with the feature.
    NeedsFeature { meeting: MeetingId, feature: String },
    /// The person attends the meeting too.
    Attends {
        person: PersonId,
        meeting: MeetingId,
    },
    /// The meeting starts no earlier in the week than the slot.
    NotBefore { meeting: MeetingId, slot: Slot },
    /// The meeting ends no later in the week than the slot.
    NotAfter { meeting: MeetingId, slot: Slot },
    /// Every meeting the person attends is in a room with the feature.
    RequiresFeature { person: PersonId, feature: String },
    /// Every meeting the person attends starts at `earliest:00` or
    /// later and ends by `latest:00`, on any day.
    WithinHours {
        person: PersonId,
        earliest: u32,
        latest: u32,
    },
    /// The first meeting ends no later in the week than the
    /// second starts.
    Before { first: MeetingId, second: MeetingId },
}

/// A fact of `jira_allocation`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum JiraPredicate {
    /// The person's total hours are at most this.
    Capacity { person: PersonId, hours: u32 },
    /// The person does not own the ticket.
    CannotOwn { person: PersonId, ticket: TicketId },
    /// The person is on no sensitive ticket.
    NoSensitive { person: PersonId },
    /// The two people are not together on one ticket.
    CannotPair { a: PersonId, b: PersonId },
    /// The person is on no `priority high` ticket.
    NoHighPriority { person: PersonId },
    /// The person is on no ticket that is `collaboration_heavy` or has
    /// a second seat.
    NoCollaborationHeavy { person: PersonId },
    /// The person is on no ticket with one seat (never its sole owner).
    CannotBeSoleOwner { person: PersonId },
    /// The person is on no ticket.
    Unavailable { person: PersonId },
}

/// A fact of a rule-based family.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RulePredicate {
    /// The variable has this value.
    Evidence { variable: VariableId, value: usize },
    /// Pressure toward a level (soft only).
    Toward { level: LevelId },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    pub predicate: Predicate,
    pub span: Span,
}

impl Fact {
    /// A fact no seed text spells: generated, imported or edited.
    pub fn derived(predicate: Predicate) -> Fact {
        Fact {
            predicate,
            span: Span::DERIVED,
        }
    }
}

/// Which form of an attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FormKind {
    Raw,
    Sanitized,
}

impl FormKind {
    /// `raw` or `sanitized`, as the language writes it.
    pub fn name(self) -> &'static str {
        match self {
            FormKind::Raw => "raw",
            FormKind::Sanitized => "sanitized",
        }
    }
}

/// One form of an attribute, with its labels applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    pub text: String,
    pub appropriate: bool,
    /// Who may receive the form, sorted, always including the holder: what
    /// the norms give it, or what its `visible` clause says.
    pub visible: Vec<PersonId>,
    /// Hard facts this form states.
    pub facts: Vec<Fact>,
    pub span: Span,
    pub text_span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    pub id: String,
    pub holder: PersonId,
    pub about: PersonId,
    pub category: Option<Category>,
    pub raw: Form,
    pub sanitized: Option<Form>,
    /// Non-binding preferences or pressures; they belong to the raw form.
    pub soft: Vec<Fact>,
    /// What the raw form would impose if it were used: hard-looking
    /// constraints that are not in force (only on an inappropriate raw form).
    pub claims: Vec<Fact>,
    pub span: Span,
    pub id_span: Span,
}

impl Attribute {
    /// The detail passes to `to`: held by and about them, and each form
    /// seen by them wherever its old holder saw it, and by them besides.
    pub fn pass_to(&mut self, to: PersonId) {
        let from = self.holder;
        self.holder = to;
        self.about = to;
        for form in std::iter::once(&mut self.raw).chain(self.sanitized.as_mut()) {
            for p in form.visible.iter_mut().filter(|p| **p == from) {
                *p = to;
            }
            if !form.visible.contains(&to) {
                form.visible.push(to);
            }
            form.visible.sort_unstable();
            form.visible.dedup();
        }
    }

    /// An attribute no seed text spells (generated, imported): about its
    /// holder, its soft facts derived too.
    pub fn derived(
        id: String,
        holder: PersonId,
        category: Option<Category>,
        raw: Form,
        sanitized: Option<Form>,
        soft: Vec<Predicate>,
    ) -> Attribute {
        Attribute {
            id,
            holder,
            about: holder,
            category,
            raw,
            sanitized,
            soft: soft.into_iter().map(Fact::derived).collect(),
            claims: Vec::new(),
            span: Span::DERIVED,
            id_span: Span::DERIVED,
        }
    }

    /// The form the hard facts belong to: the sanitized form where there is one.
    pub fn fact_form(&self) -> (FormKind, &Form) {
        match &self.sanitized {
            Some(s) => (FormKind::Sanitized, s),
            None => (FormKind::Raw, &self.raw),
        }
    }

    /// The form the hard facts belong to, to edit.
    pub fn fact_form_mut(&mut self) -> &mut Form {
        match &mut self.sanitized {
            Some(s) => s,
            None => &mut self.raw,
        }
    }

    pub fn form_mut(&mut self, kind: FormKind) -> Option<&mut Form> {
        match kind {
            FormKind::Raw => Some(&mut self.raw),
            FormKind::Sanitized => self.sanitized.as_mut(),
        }
    }

    pub fn form(&self, kind: FormKind) -> Option<&Form> {
        match kind {
            FormKind::Raw => Some(&self.raw),
            FormKind::Sanitized => self.sanitized.as_ref(),
        }
    }

    /// Both forms, raw first.
    pub fn forms(&self) -> impl Iterator<Item = (FormKind, &Form)> {
        std::iter::once((FormKind::Raw, &self.raw))
            .chain(self.sanitized.iter().map(|s| (FormKind::Sanitized, s)))
    }

    /// The id a form has in outputs: the attribute id, or `<id>.sanitized`.
    pub fn form_id(&self, kind: FormKind) -> String {
        match kind {
            FormKind::Raw => self.id.clone(),
            FormKind::Sanitized => format!("{}.sanitized", self.id),
        }
    }
}

/// Where one meeting goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// Index into the meeting's candidate slots.
    pub slot: usize,
    pub room: RoomId,
}

/// Who takes one ticket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Assignment {
    pub owner: PersonId,
    pub collaborator: Option<PersonId>,
}

impl Setting {
    /// The family the setting is of: a scenario's family is its setting's.
    pub fn family(&self) -> Family {
        match self {
            Setting::Meeting(_) => Family::MeetingAllocation,
            Setting::Jira(_) => Family::JiraAllocation,
            Setting::Rule(rs) => rs.kind.family(),
        }
    }
}

/// One decision of the scenario's decision space.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Decision {
    Meeting(Vec<Placement>),
    Jira(Vec<Assignment>),
    /// A level or an outcome of a rule-based family.
    Rule(LevelId),
}

/// A resolved scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub id: String,
    pub source: SourceId,
    pub span: Span,
    pub id_span: Span,
    pub title: String,
    pub task: String,
    pub recipient: Option<String>,
    pub public: Vec<String>,
    pub policy: Option<String>,
    /// What the task is for (`purpose`); `None` for the family's.
    pub purpose: Option<String>,
    /// The scenario's norms (`norms { ... }`); `None` for the family's.
    pub norms: Option<Vec<super::norm::Norm>>,
    pub executor: PersonId,
    pub people: Vec<Person>,
    pub setting: Setting,
    pub attributes: Vec<Attribute>,
    pub oracle: Decision,
    pub oracle_span: Span,
    /// The span of each oracle entry, by target (meeting or ticket) index;
    /// empty when the scenario was not read from text.
    pub oracle_entries: Vec<Span>,
}

impl Scenario {
    /// The scenario's family, which its setting determines.
    pub fn family(&self) -> Family {
        self.setting.family()
    }

    /// A scenario no seed text spells (planted, imported): the common
    /// fields filled in, the executor first among `people`, no attributes.
    pub fn derived(
        id: String,
        title: String,
        task: &str,
        people: Vec<Person>,
        setting: Setting,
        oracle: Decision,
    ) -> Scenario {
        Scenario {
            id,
            source: SourceId::DERIVED,
            span: Span::DERIVED,
            id_span: Span::DERIVED,
            title,
            task: task.into(),
            recipient: None,
            public: Vec::new(),
            policy: None,
            purpose: None,
            norms: None,
            executor: 0,
            people,
            setting,
            attributes: Vec::new(),
            oracle,
            oracle_span: Span::DERIVED,
            oracle_entries: Vec::new(),
        }
    }

    pub fn person(&self, name: &str) -> Option<PersonId> {
        self.people.iter().position(|p| p.id == name)
    }

    pub fn attribute(&self, name: &str) -> Option<AttributeId> {
        self.attributes.iter().position(|a| a.id == name)
    }

    pub fn meeting_setting(&self) -> Option<&MeetingSetting> {
        match &self.setting {
            Setting::Meeting(m) => Some(m),
            _ => None,
        }
    }

    pub fn jira_setting(&self) -> Option<&JiraSetting> {
        match &self.setting {
            Setting::Jira(j) => Some(j),
            _ => None,
        }
    }

    pub fn rule_setting(&self) -> Option<&RuleSetting> {
        match &self.setting {
            Setting::Rule(s) => Some(s),
            _ => None,
        }
    }
}
