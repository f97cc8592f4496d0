//! The owned syntax tree: what was written, where, nothing resolved yet.
//!
//! Every node carries a [`Span`]. The tree keeps statements in source order
//! and does not yet know which statements a family allows, which names exist
//! or what a fact means: that is the resolver's job.

use crate::span::Span;

/// A name as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A string literal with escapes processed and triple-quoted text dedented.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Str {
    pub value: String,
    pub span: Span,
}

/// An integer literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Int {
    pub value: u32,
    pub span: Span,
}

/// A day of the week, Monday first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Day {
    Mon,
    Tue,
    Wed,
    Thu,
    Fri,
    Sat,
    Sun,
}

impl Day {
    pub const ALL: [Day; 7] = [
        Day::Mon,
        Day::Tue,
        Day::Wed,
        Day::Thu,
        Day::Fri,
        Day::Sat,
        Day::Sun,
    ];

    pub fn keyword(self) -> &'static str {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][self as usize]
    }

    pub fn name(self) -> &'static str {
        [
            "Monday",
            "Tuesday",
            "Wednesday",
            "Thursday",
            "Friday",
            "Saturday",
            "Sunday",
        ][self as usize]
    }

    pub fn from_keyword(s: &str) -> Option<Day> {
        Day::ALL.into_iter().find(|d| d.keyword() == s)
    }
}

/// A time slot: a day and a half-open range of minutes since midnight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot {
    pub day: Day,
    pub start: u16,
    pub end: u16,
}

impl Slot {
    /// Minutes since Monday 00:00 at which the slot starts.
    pub fn week_start(&self) -> u32 {
        self.day as u32 * 1440 + self.start as u32
    }

    /// Minutes since Monday 00:00 at which the slot ends.
    pub fn week_end(&self) -> u32 {
        self.day as u32 * 1440 + self.end as u32
    }

    /// Same day and intersecting ranges; touching ends do not overlap.
    pub fn overlaps(&self, other: &Slot) -> bool {
        self.day == other.day && self.start < other.end && other.start < self.end
    }
}

impl std::fmt::Display for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {:02}:{:02}-{:02}:{:02}",
            self.day.keyword(),
            self.start / 60,
            self.start % 60,
            self.end / 60,
            self.end % 60
        )
    }
}

/// A slot as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotLit {
    pub slot: Slot,
    pub span: Span,
}

/// A bracketed list as written, with the span of the brackets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List<T> {
    pub items: Vec<T>,
    pub span: Span,
}

/// A parsed seed file.
#[derive(Clone, Debug, Default)]
pub struct File {
    /// The scenarios that parse without an error.
    pub scenarios: Vec<ScenarioAst>,
    /// The scenarios with a syntax error, holding only the statements that
    /// parse on their own: what the editor reads while a line is being
    /// typed. Later stages never read them, so a file with a syntax error
    /// never checks or builds.
    pub partial: Vec<ScenarioAst>,
}

/// `scenario <id> { ... }`
#[derive(Clone, Debug)]
pub struct ScenarioAst {
    pub id: Ident,
    pub items: Vec<Item>,
    pub span: Span,
}

/// One statement of a scenario block, in source order.
#[derive(Clone, Debug)]
pub enum Item {
    Family(Ident),
    Title(Str),
    Task(Str),
    Executor(Ident),
    Recipient(Str),
    Public(Str),
    Policy(Str),
    /// `purpose <purpose>`
    Purpose(Ident),
    /// `norms { ... }`
    Norms(NormsAst),
    Person(PersonAst),
    Room(RoomAst),
    Meeting(MeetingAst),
    Ticket(TicketAst),
    Levels(List<Ident>),
    Outcomes(List<Ident>),
    Evidence(EvidenceAst),
    Rubric(RubricAst),
    Rules(RubricAst),
    Exclude(ExcludeAst),
    Attribute(AttributeAst),
    Oracle(OracleAst),
}

impl Item {
    /// The statement's span; for a one-value statement (`family x`,
    /// `title "..."`, `levels [...]`), its value's.
    pub fn span(&self) -> Span {
        match self {
            Item::Family(i) | Item::Executor(i) | Item::Purpose(i) => i.span,
            Item::Title(s) | Item::Task(s) | Item::Recipient(s) | Item::Public(s) => s.span,
            Item::Policy(s) => s.span,
            Item::Norms(n) => n.span,
            Item::Person(p) => p.span,
            Item::Room(r) => r.span,
            Item::Meeting(m) => m.span,
            Item::Ticket(t) => t.span,
            Item::Levels(l) | Item::Outcomes(l) => l.span,
            Item::Evidence(e) => e.span,
            Item::Rubric(r) | Item::Rules(r) => r.span,
            Item::Exclude(e) => e.span,
            Item::Attribute(a) => a.span,
            Item::Oracle(o) => o.span,
        }
    }
}

/// A statement's keyword span, for "statement not allowed here" messages.
#[derive(Clone, Debug)]
pub struct Keyword {
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct PersonAst {
    pub id: Ident,
    pub name: Str,
    pub role: Str,
    pub skills: Option<(Keyword, List<Ident>)>,
    /// `groups [...]`
    pub groups: Option<(Keyword, List<Ident>)>,
    /// `reports_to <person>`
    pub reports_to: Option<(Keyword, Ident)>,
    /// Every clause's keyword as written, in order, with the ones given
    /// again (the fields above keep the first of each).
    pub clauses: Vec<(&'static str, Keyword)>,
    pub span: Span,
}

/// `share <kinds> with <recipients> [for <purpose>]`. A single name is a
/// list of one, spanning the name.
#[derive(Clone, Debug)]
pub struct NormAst {
    pub kinds: List<Ident>,
    pub recipients: List<Ident>,
    pub purpose: Option<Ident>,
    pub span: Span,
}

/// `norms { ... }`
#[derive(Clone, Debug)]
pub struct NormsAst {
    pub rules: Vec<NormAst>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct RoomAst {
    pub id: Ident,
    pub name: Option<Str>,
    pub capacity: Int,
    pub features: Option<List<Ident>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum MeetingItem {
    Attendees(Keyword, List<Ident>),
    Slots(Keyword, List<SlotLit>),
    Rooms(Keyword, List<Ident>),
    Features(Keyword, List<Ident>),
}

#[derive(Clone, Debug)]
pub struct MeetingAst {
    pub id: Ident,
    pub title: Str,
    pub items: Vec<MeetingItem>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TicketItem {
    Needs(Keyword, Ident),
    Hours(Keyword, Int),
    Pair(Keyword),
    /// `with <skill> hours <int>`: a second seat of another skill.
    With(Keyword, Ident, Int),
    /// `priority low|medium|high`: the level's word and span.
    Priority(Keyword, Ident),
    CollaborationHeavy(Keyword),
    Sensitive(Keyword),
}

#[derive(Clone, Debug)]
pub struct TicketAst {
    pub id: Ident,
    pub title: Str,
    pub items: Vec<TicketItem>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EvidenceAst {
    pub variable: Ident,
    pub values: List<Ident>,
    pub span: Span,
}

/// A boolean condition of a rubric rule.
#[derive(Clone, Debug)]
pub enum Cond {
    Eq(Ident, Ident, Span),
    Ne(Ident, Ident, Span),
    In(Ident, List<Ident>, Span),
    Not(Box<Cond>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
}

#[derive(Clone, Debug)]
pub struct RubricRuleAst {
    pub level: Ident,
    pub when: Cond,
    pub span: Span,
}

/// A `rubric` (severity) or `rules` (policy) block; `otherwise` is
/// required in a rubric, optional in rules.
#[derive(Clone, Debug)]
pub struct RubricAst {
    pub rules: Vec<RubricRuleAst>,
    pub otherwise: Option<Ident>,
    pub span: Span,
}

/// `exclude <condition>`
#[derive(Clone, Debug)]
pub struct ExcludeAst {
    pub when: Cond,
    pub span: Span,
}

/// `appropriate` / `inappropriate` as written.
#[derive(Clone, Debug)]
pub struct LabelAst {
    pub appropriate: bool,
    pub span: Span,
}

/// A visibility clause as written.
#[derive(Clone, Debug)]
pub enum VisibilityAst {
    All(Span),
    AllExcept(List<Ident>),
    Only(List<Ident>),
}

/// `raw "..." [label] [visible ...]` or `sanitized ...`.
#[derive(Clone, Debug)]
pub struct FormAst {
    pub keyword: Keyword,
    pub text: Str,
    pub label: Option<LabelAst>,
    pub visible: Option<VisibilityAst>,
    pub span: Span,
}

/// An argument of a fact.
#[derive(Clone, Debug)]
pub enum Arg {
    Name(Ident),
    Slot(SlotLit),
    Int(Int),
}

impl Arg {
    pub fn span(&self) -> Span {
        match self {
            Arg::Name(i) => i.span,
            Arg::Slot(s) => s.span,
            Arg::Int(i) => i.span,
        }
    }
}

/// `predicate(arg, ...)`
#[derive(Clone, Debug)]
pub struct FactAst {
    pub predicate: Ident,
    pub args: Vec<Arg>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum AttributeItem {
    Holder(Keyword, Ident),
    About(Keyword, Ident),
    Category(Keyword, Ident),
    Raw(FormAst),
    Sanitized(FormAst),
    Fact(FactAst),
    Soft(FactAst),
    /// `claim <fact>`: what the raw form would impose if misused.
    Claim(Keyword, FactAst),
}

#[derive(Clone, Debug)]
pub struct AttributeAst {
    pub id: Ident,
    pub items: Vec<AttributeItem>,
    pub span: Span,
}

/// The value an oracle entry gives its target.
#[derive(Clone, Debug)]
pub enum OracleValue {
    SlotRoom(SlotLit, Ident),
    People(Ident, Option<Ident>),
}

#[derive(Clone, Debug)]
pub struct OracleEntry {
    pub target: Ident,
    pub value: OracleValue,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum OracleBody {
    Entries(Vec<OracleEntry>),
    Level(Ident),
}

#[derive(Clone, Debug)]
pub struct OracleAst {
    pub body: OracleBody,
    pub span: Span,
}
