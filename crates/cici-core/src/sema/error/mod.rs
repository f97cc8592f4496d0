//! Errors of the resolve stage: the enum, with a statement that gives each
//! variant; `names` reads the spans and help of the unknown-name ones.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// A scenario that parses but does not make sense: a name that resolves to
/// nothing, a statement the family does not know, a fact of the wrong shape.
///
/// A variant's doc shows the statement that gives it; a complete seed for
/// every variant is in `docs/diagnostics.md`, which the tests check.
#[derive(Debug, Clone, Error, Diagnostic, PartialEq, Eq)]
pub enum ResolveError {
    /// `family` names no known family.
    ///
    /// ```text
    /// family meeting_alocation
    /// ```
    #[error("unknown family `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_family))]
    UnknownFamily {
        name: String,
        #[label("not a family")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A required statement is absent.
    ///
    /// ```text
    /// scenario s { family jira_allocation title "t" task "t" }   # no executor
    /// ```
    #[error("{container} has no `{what}`")]
    #[diagnostic(code(cici::resolve::missing_statement))]
    Missing {
        what: String,
        container: String,
        #[label("`{what}` missing in here")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A statement that may appear once appears again.
    ///
    /// ```text
    /// title "One"
    /// title "Two"
    /// ```
    #[error("`{what}` is given more than once")]
    #[diagnostic(
        code(cici::resolve::duplicate_statement),
        help("keep one `{what}` and remove the others")
    )]
    DuplicateStatement {
        what: String,
        #[label("again here")]
        span: SourceSpan,
        #[label("first given here")]
        first: SourceSpan,
    },

    /// Two declarations of the same kind share a name.
    ///
    /// ```text
    /// person eli "Eli" role "A"
    /// person eli "Eli B" role "B"
    /// ```
    #[error("{kind} `{name}` is declared twice")]
    #[diagnostic(
        code(cici::resolve::duplicate_name),
        help("names are unique per kind within a scenario; rename one of them")
    )]
    DuplicateName {
        kind: String,
        name: String,
        #[label("declared again here")]
        span: SourceSpan,
        #[label("first declared here")]
        first: SourceSpan,
    },

    /// A quantity above the documented maximum (100,000): sums of hours and
    /// capacities must never wrap.
    ///
    /// ```text
    /// hours 4294967295
    /// ```
    #[error("{what} {value} is larger than {max}")]
    #[diagnostic(
        code(cici::resolve::number_too_large),
        help("quantities (room capacity, ticket hours, a person's capacity) are at most {max}")
    )]
    NumberTooLarge {
        what: String,
        value: u32,
        max: u32,
        #[label("at most {max}")]
        span: SourceSpan,
    },

    /// An identifier longer than 64 characters: ids name output files.
    ///
    /// ```text
    /// person a_very_long_identifier_of_more_than_sixty_four_characters_in_all_of_it "A" role "B"
    /// ```
    #[error("{kind} id of {length} characters is longer than {max}")]
    #[diagnostic(
        code(cici::resolve::name_too_long),
        help("ids name output files and folders; use a shorter id (the display name can be long)")
    )]
    NameTooLong {
        kind: String,
        length: usize,
        max: usize,
        #[label("at most {max} characters")]
        span: SourceSpan,
    },

    /// Two scenarios in one run share an id.
    ///
    /// ```text
    /// scenario s { ... }
    /// scenario s { ... }
    /// ```
    #[error("scenario `{name}` is declared twice")]
    #[diagnostic(
        code(cici::resolve::duplicate_scenario),
        help("scenario ids name the output folders and must be unique across the inputs")
    )]
    DuplicateScenario {
        name: String,
        #[label("declared again here")]
        span: SourceSpan,
    },

    /// A statement that the scenario's family does not use.
    ///
    /// ```text
    /// family jira_allocation
    /// room cedar capacity 3
    /// ```
    #[error("`{what}` is not part of the `{family}` family")]
    #[diagnostic(code(cici::resolve::not_in_family))]
    NotInFamily {
        what: String,
        family: String,
        #[label("not allowed in {family}")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A name used where a person is expected resolves to no person.
    ///
    /// ```text
    /// executor mya
    /// ```
    #[error("unknown person `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_person))]
    UnknownPerson {
        name: String,
        #[label("no person has this id")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A name used where a room is expected resolves to no room.
    ///
    /// ```text
    /// rooms [ceder]
    /// ```
    #[error("unknown room `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_room))]
    UnknownRoom {
        name: String,
        #[label("no room has this id")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A name used where a meeting is expected resolves to no meeting.
    ///
    /// ```text
    /// fact needs_feature(meet_9, video)
    /// ```
    #[error("unknown meeting `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_meeting))]
    UnknownMeeting {
        name: String,
        #[label("no meeting has this id")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A name used where a ticket is expected resolves to no ticket.
    ///
    /// ```text
    /// fact cannot_own(omar, eng_999)
    /// ```
    #[error("unknown ticket `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_ticket))]
    UnknownTicket {
        name: String,
        #[label("no ticket has this id")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A room feature that no room has and no meeting requires.
    ///
    /// ```text
    /// fact needs_feature(meet_001, vidoe)
    /// ```
    #[error("unknown room feature `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_feature))]
    UnknownFeature {
        name: String,
        #[label("no room has this feature")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A ticket needs a skill that no person has.
    ///
    /// ```text
    /// needs bakend
    /// ```
    #[error("no person has the skill `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_skill))]
    UnknownSkill {
        name: String,
        #[label("nobody can take this ticket")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A name used where a severity level is expected resolves to no level.
    ///
    /// ```text
    /// oracle sev_0
    /// ```
    #[error("unknown level `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_level))]
    UnknownLevel {
        name: String,
        #[label("not in `levels`")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A name used where an outcome of `policy_decision` is expected
    /// resolves to no outcome.
    ///
    /// ```text
    /// oracle hold_for_reveiw
    /// ```
    #[error("unknown outcome `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_outcome))]
    UnknownOutcome {
        name: String,
        #[label("not in `outcomes`")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A name used where an evidence variable is expected resolves to none.
    ///
    /// ```text
    /// fact evidence(exploitation, present)
    /// ```
    #[error("unknown evidence variable `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_variable))]
    UnknownVariable {
        name: String,
        #[label("no `evidence` declares this")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A value outside an evidence variable's domain.
    ///
    /// ```text
    /// fact evidence(active_exploitation, maybe)
    /// ```
    #[error("`{name}` is not a value of `{variable}`")]
    #[diagnostic(code(cici::resolve::unknown_value))]
    UnknownValue {
        name: String,
        variable: String,
        #[label("not in the domain of `{variable}`")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// `category` names no known category.
    ///
    /// ```text
    /// category helth
    /// ```
    #[error("unknown category `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_category))]
    UnknownCategory {
        name: String,
        #[label("not a category")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A norm names a kind of information cici does not know.
    ///
    /// ```text
    /// share medical with [hr]
    /// ```
    #[error("unknown kind of information `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_norm_kind))]
    UnknownNormKind {
        name: String,
        #[label("not a kind of information")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A norm names a recipient that is no person, no group a person
    /// belongs to, and none of the recipient words.
    ///
    /// ```text
    /// share health with [hr]   # no person is in `groups [hr]`
    /// ```
    #[error("unknown recipient `{name}`")]
    #[diagnostic(code(cici::resolve::unknown_recipient))]
    UnknownRecipient {
        name: String,
        #[label("no person, group or recipient word is called this")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A norm's recipient is both a person's id and a group's name.
    ///
    /// ```text
    /// person hr "Hana" role "HR" groups [hr]
    /// ```
    #[error("recipient `{name}` is both a person and a group")]
    #[diagnostic(
        code(cici::resolve::ambiguous_recipient),
        help("rename the group or the person, so that a norm names one of them")
    )]
    AmbiguousRecipient {
        name: String,
        #[label("a person's id and a group's name")]
        span: SourceSpan,
    },

    /// A person reports to themself.
    ///
    /// ```text
    /// person eli "Eli" role "Lead" reports_to eli
    /// ```
    #[error("`{name}` reports to themself")]
    #[diagnostic(
        code(cici::resolve::reports_to_self),
        help("name the person's manager, or drop `reports_to`")
    )]
    ReportsToSelf {
        name: String,
        #[label("the person's own id")]
        span: SourceSpan,
    },

    /// A fact whose predicate the family does not define.
    ///
    /// ```text
    /// fact unavailble(eli, tue 10:00-11:00)
    /// ```
    #[error("`{name}` is not a fact of the `{family}` family")]
    #[diagnostic(code(cici::resolve::unknown_predicate))]
    UnknownPredicate {
        name: String,
        family: String,
        #[label("unknown predicate")]
        span: SourceSpan,
        #[help]
        help: Option<crate::suggest::Help>,
    },

    /// A fact with too many or too few arguments.
    ///
    /// ```text
    /// fact avoid_room(eli)
    /// ```
    #[error("`{name}` takes {expected} argument(s), found {found}")]
    #[diagnostic(code(cici::resolve::wrong_arity), help("write it as `{signature}`"))]
    WrongArity {
        name: String,
        expected: usize,
        found: usize,
        signature: String,
        #[label("{found} argument(s)")]
        span: SourceSpan,
    },

    /// A fact argument of the wrong kind.
    ///
    /// ```text
    /// fact unavailable(eli, delta)      # a slot is expected
    /// ```
    #[error("argument {position} of `{name}` must be {expected}")]
    #[diagnostic(code(cici::resolve::wrong_argument), help("write it as `{signature}`"))]
    WrongArgument {
        name: String,
        position: usize,
        expected: String,
        signature: String,
        #[label("expected {expected}")]
        span: SourceSpan,
    },

    /// A fact that only makes sense as `soft`, written as `fact`.
    ///
    /// ```text
    /// fact toward(sev_3_medium)
    /// ```
    #[error("`{name}` records pressure and cannot be a hard fact")]
    #[diagnostic(code(cici::resolve::soft_only), help("write it as `soft {name}(...)`"))]
    SoftOnly {
        name: String,
        #[label("used as a hard fact")]
        span: SourceSpan,
    },

    /// A `claim` on a raw form that is appropriate: a claim is what the raw
    /// form would impose if misused, so only an inappropriate one has it.
    ///
    /// ```text
    /// raw "Eli and Ana fell out." appropriate
    /// claim cannot_pair(eli, ana)
    /// ```
    #[error("a `claim` belongs to an inappropriate raw form")]
    #[diagnostic(
        code(cici::resolve::claim_on_appropriate),
        help("label the raw form `inappropriate`, or state the constraint as a `fact` if it is in force")
    )]
    ClaimOnAppropriate {
        #[label("claimed here")]
        span: SourceSpan,
        #[label("this raw form is appropriate")]
        raw: SourceSpan,
    },

    /// A list that must not be empty is empty.
    ///
    /// ```text
    /// slots []
    /// ```
    #[error("{what} is empty")]
    #[diagnostic(code(cici::resolve::empty_domain))]
    EmptyDomain {
        what: String,
        #[label("nothing to choose from")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A scenario with fewer than two people.
    ///
    /// ```text
    /// person maya "Maya" role "Lead"    # and nobody else
    /// ```
    #[error("a scenario needs at least two people, found {found}")]
    #[diagnostic(
        code(cici::resolve::too_few_people),
        help("a shared agent serves a team: declare the other people with `person`")
    )]
    TooFewPeople {
        found: usize,
        #[label("in this scenario")]
        span: SourceSpan,
    },

    /// The oracle is of the wrong shape for the family, or misses part of
    /// the decision, or names a value outside the decision space.
    ///
    /// ```text
    /// oracle { meet_001 -> mon 09:00-10:00 @ cedar }   # cedar is not a candidate room
    /// ```
    #[error("the oracle is not a decision of this scenario: {reason}")]
    #[diagnostic(code(cici::resolve::oracle_outside))]
    OracleOutside {
        reason: String,
        #[label("{reason}")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A person or group named with a word the norms read as a recipient.
    ///
    /// ```text
    /// person manager "Avi Shah" role "Lead"
    /// ```
    #[error("{kind} `{name}` is named with a word the norms reserve")]
    #[diagnostic(
        code(cici::resolve::reserved_name),
        help("in a norm `{name}` means {meaning}; give the {kind} another name")
    )]
    ReservedName {
        kind: &'static str,
        name: String,
        meaning: &'static str,
        #[label("a norm reads this as its own word")]
        span: SourceSpan,
    },

    /// Reporting lines that go round: nobody in them has a top manager.
    ///
    /// ```text
    /// person eli "Eli" role "A" reports_to ana
    /// person ana "Ana" role "B" reports_to eli
    /// ```
    #[error("reporting lines go round: {cycle}")]
    #[diagnostic(
        code(cici::resolve::reports_to_cycle),
        help("a reporting line ends at someone who reports to no one: drop or change one `reports_to` of the cycle")
    )]
    ReportsToCycle {
        cycle: String,
        #[label("closes the cycle")]
        span: SourceSpan,
    },

    /// Two people with one display name: texts, bundles and the decision
    /// rule name people by it.
    ///
    /// ```text
    /// person avi "Avi Shah" role "A"
    /// person avi2 "Avi Shah" role "B"
    /// ```
    #[error("two people have the display name `{name}`")]
    #[diagnostic(
        code(cici::resolve::duplicate_display_name),
        help("texts and outputs name people by their display names: give each person their own, such as a surname")
    )]
    DuplicateDisplayName {
        /// The name as first given.
        name: String,
        #[label("read as the same name")]
        span: SourceSpan,
        #[label("first given here")]
        first: SourceSpan,
    },

    /// A name, role, title or task with no visible character.
    ///
    /// ```text
    /// person eli "  " role "Lead"
    /// ```
    #[error("the {what} is blank")]
    #[diagnostic(
        code(cici::resolve::blank_text),
        help("write the {what}: it is shown in every brief and output")
    )]
    BlankText {
        what: &'static str,
        #[label("no visible character")]
        span: SourceSpan,
    },
}

mod names;
