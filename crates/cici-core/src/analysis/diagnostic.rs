//! What `cici check` reports about a well-formed scenario.

use miette::{Diagnostic, LabeledSpan, SourceSpan};
use thiserror::Error;

/// A finding of the analyses: errors break the scenario, warnings flag
/// something an author should look at.
///
/// A variant's doc shows the statement that gives it; a complete seed for
/// every variant is in `docs/diagnostics.md`, which the tests check.
#[derive(Debug, Clone, Error, Diagnostic, PartialEq, Eq)]
pub enum CheckDiagnostic {
    /// The public constraints alone allow no decision.
    ///
    /// ```text
    /// meeting m "M" { attendees [a, b, c, d] slots [mon 09:00-10:00] rooms [cedar] }   # cedar holds 3
    /// ```
    #[error("the public constraints alone allow no decision")]
    #[diagnostic(code(cici::check::public_infeasible))]
    PublicInfeasible {
        #[label("no decision fits this scenario's public setting")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A rule setting's exclusions together rule out every configuration;
    /// the labels are a smallest set of them that does.
    ///
    /// ```text
    /// exclude signoff = given
    /// exclude signoff = missing      # signoff [given, missing]: nothing is left
    /// ```
    #[error("these exclusions together rule out every configuration")]
    #[diagnostic(code(cici::check::exclusions_rule_out_all))]
    ExclusionsRuleOutAll {
        #[label(collection)]
        excludes: Vec<LabeledSpan>,
        #[help]
        help: Option<String>,
    },

    /// The facts of the appropriate forms allow no decision at all.
    ///
    /// ```text
    /// fact unavailable(eli, mon 09:00-10:00)   # in one attribute
    /// fact unavailable(eli, tue 10:00-11:00)   # in another: no slot is left
    /// ```
    #[error("the facts of {attributes} conflict: together they allow no decision")]
    #[diagnostic(code(cici::check::conflict))]
    Conflict {
        attributes: String,
        #[label(collection)]
        facts: Vec<LabeledSpan>,
        #[help]
        help: Option<String>,
    },

    /// The oracle breaks a public constraint.
    ///
    /// ```text
    /// oracle { eng_101 -> kai }   # kai lacks the needed skill
    /// ```
    #[error("the oracle breaks the public constraints: {reason}")]
    #[diagnostic(
        code(cici::check::oracle_breaks_public),
        help("change the oracle, or the public setting it must fit")
    )]
    OracleBreaksPublic {
        reason: String,
        #[label("this decision is not allowed")]
        span: SourceSpan,
    },

    /// Facts of appropriate forms rule the oracle out.
    ///
    /// ```text
    /// fact avoid_room(eli, elm)   # while the oracle puts Eli's meeting in elm
    /// ```
    #[error("the oracle is ruled out by the facts of {attributes}")]
    #[diagnostic(code(cici::check::oracle_forbidden))]
    OracleForbidden {
        attributes: String,
        #[label("the oracle")]
        span: SourceSpan,
        #[label(collection)]
        facts: Vec<LabeledSpan>,
        #[help]
        help: Option<String>,
    },

    /// A valid configuration that no rule matches, in `rules` without
    /// `otherwise`: the seed gives it no outcome.
    ///
    /// ```text
    /// evidence w [ok, bad]
    /// rules { go when w = ok }   # and nothing for w = bad
    /// ```
    #[error("no rule gives an outcome when {configuration}")]
    #[diagnostic(
        code(cici::check::uncovered_configuration),
        help("add a rule that covers it, an `otherwise`, or an `exclude` if it cannot occur")
    )]
    UncoveredConfiguration {
        configuration: String,
        #[label("no rule matches {configuration}")]
        span: SourceSpan,
    },

    /// A rule that no valid configuration reaches first: an earlier rule
    /// or an exclusion always takes its configurations.
    ///
    /// ```text
    /// rules { hold when w = bad  stop when w = bad and v = bad  otherwise go }
    /// ```
    #[error("the rule for `{outcome}` never fires")]
    #[diagnostic(code(cici::check::dead_rule), severity(Warning))]
    DeadRule {
        outcome: String,
        #[label("no valid configuration reaches this rule first")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A severity rubric gives a more severe level for less evidence of
    /// harm: raising one variable to a worse state (by the state words,
    /// `absent` < `suspected` < `present`, `confirmed`) gives a milder one.
    ///
    /// ```text
    /// rubric { sev_1 when exploitation = absent  otherwise sev_4 }
    /// ```
    #[error("the rubric gives `{level}` when {configuration}, but the milder `{milder}` once `{variable}` is `{worse}`")]
    #[diagnostic(code(cici::check::rubric_inverts_harm), severity(Warning))]
    RubricInvertsHarm {
        level: String,
        milder: String,
        configuration: String,
        variable: String,
        worse: String,
        #[label("more severe for less harm")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// Rules with different outcomes whose conditions hold together for
    /// some valid configuration: only their order decides, which is easy
    /// to misread in prose (`policy_decision`). One warning per scenario,
    /// on the first such pair, with the number of pairs.
    ///
    /// ```text
    /// rules { hold when w = bad  stop when v = bad  otherwise go }   # w = bad, v = bad
    /// ```
    #[error("the rules for `{first}` and `{second}` both hold when {configuration} ({pairs} such pair{s})", s = if *pairs == 1 { "" } else { "s" })]
    #[diagnostic(
        code(cici::check::overlapping_rules),
        severity(Warning),
        help("only the order decides (`{first}` comes first); make the conditions exclusive, or `exclude` configurations that cannot occur")
    )]
    OverlappingRules {
        first: String,
        second: String,
        configuration: String,
        pairs: usize,
        #[label("holds")]
        first_span: SourceSpan,
        #[label("also holds")]
        second_span: SourceSpan,
    },

    /// More than one decision is allowed.
    ///
    /// ```text
    /// slots [mon 09:00-10:00, tue 10:00-11:00, wed 11:00-12:00]
    /// fact unavailable(eli, mon 09:00-10:00)   # tue and wed are both still open
    /// ```
    #[error("the oracle is not the only allowed decision\n{table}")]
    #[diagnostic(code(cici::check::not_unique))]
    NotUnique {
        table: String,
        #[label("also allowed: {other}")]
        span: SourceSpan,
        other: String,
        #[help]
        help: Option<String>,
    },

    /// Only the facts of inappropriate forms pin the oracle down.
    ///
    /// ```text
    /// attribute a { holder eli raw "Oncology infusion Tue 10-11" inappropriate fact unavailable(eli, tue 10:00-11:00) }
    /// ```
    #[error("the oracle can only be reached with inappropriate information from {attributes}")]
    #[diagnostic(code(cici::check::inappropriate_need))]
    InappropriateNeed {
        attributes: String,
        #[label(collection)]
        forms: Vec<LabeledSpan>,
        #[help]
        help: Option<String>,
    },

    /// The public constraints alone already determine the oracle.
    ///
    /// ```text
    /// meeting m "M" { attendees [a] slots [mon 09:00-10:00] rooms [cedar] }   # one option
    /// ```
    #[error("the scenario is trivial: the public constraints alone allow only the oracle")]
    #[diagnostic(
        code(cici::check::trivial),
        severity(Warning),
        help("widen the candidates so that the attributes are needed to decide")
    )]
    Trivial {
        #[label("no attribute is needed to decide this")]
        span: SourceSpan,
    },

    /// An appropriate form with a relevant fact that the executor may not see.
    ///
    /// ```text
    /// sanitized "Eli is unavailable Tuesday 10-11." visible [eli]
    /// ```
    #[error("the executor `{executor}` cannot see `{form}`, which the decision needs")]
    #[diagnostic(code(cici::check::executor_cannot_see))]
    ExecutorCannotSee {
        executor: String,
        form: String,
        #[label("not visible to `{executor}`")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// An appropriate fact that forbids nothing the public constraints allow.
    ///
    /// ```text
    /// fact unavailable(eli, sun 09:00-10:00)   # no candidate slot is on Sunday
    /// ```
    #[error("the fact of `{attribute}` rules out nothing the public constraints allow")]
    #[diagnostic(code(cici::check::idle_fact), severity(Warning))]
    IdleFact {
        attribute: String,
        #[label("forbids no allowed decision")]
        span: SourceSpan,
        /// Data minimization, and why the fact forbids nothing where that
        /// can be told (a slot no candidate meeting of the person has).
        #[help]
        help: String,
    },

    /// A `claim` that, honoured, leads to no one other decision: it tests
    /// nothing a reader could be caught answering.
    ///
    /// ```text
    /// claim unavailable(eli, mon 09:00-10:00)   # the oracle is on tuesday
    /// ```
    #[error("the claim of `{attribute}` leads to no one decision: {found}")]
    #[diagnostic(
        code(cici::check::claim_leads_nowhere),
        severity(Warning),
        help("a claim should rule out the oracle and, with the fewest appropriate facts given up, allow exactly one other decision")
    )]
    ClaimLeadsNowhere {
        attribute: String,
        found: String,
        #[label("a trap that leads nowhere")]
        span: SourceSpan,
    },

    /// A sanitized text repeats words of its raw text.
    ///
    /// ```text
    /// raw "Oncology infusion Tuesday 10-11."
    /// sanitized "Eli has an infusion Tuesday 10-11."
    /// ```
    #[error("the sanitized form of `{attribute}` repeats {words} from its raw text")]
    #[diagnostic(code(cici::check::leak), severity(Warning))]
    Leak {
        attribute: String,
        words: String,
        /// Each leaking word where it stands in the sanitized text, or the
        /// whole text when the words cannot be placed.
        #[label(collection)]
        at: Vec<LabeledSpan>,
        #[help]
        help: Option<String>,
    },

    /// A text names another value than its attribute's facts: another day,
    /// time, person, room, meeting, feature, ticket, number, level or state.
    ///
    /// ```text
    /// sanitized "Lena is unavailable Thursday 15-16."
    /// fact unavailable(lena, mon 09:00-10:00)
    /// ```
    #[error("the {form} text of `{attribute}` says `{word}`, which its facts do not")]
    #[diagnostic(code(cici::check::text_contradicts_fact))]
    TextContradictsFact {
        attribute: String,
        form: String,
        word: String,
        #[label("not what the fact says")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A text names what its facts say and more of the same kind: a second
    /// day, time, room or number.
    ///
    /// ```text
    /// sanitized "Ben can meet 10-16, and Ana 9-12."
    /// fact within_hours(ben, 10, 16)
    /// ```
    #[error("the {form} text of `{attribute}` says `{word}` besides what its facts say")]
    #[diagnostic(code(cici::check::text_states_more), severity(Warning))]
    TextStatesMore {
        attribute: String,
        form: String,
        word: String,
        #[label("no fact of the attribute says this")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// The form that carries a critical or supporting fact names nothing of
    /// it: no day, time, room, ticket or number the fact is about.
    ///
    /// ```text
    /// sanitized "Tomas has a scheduling constraint this week."
    /// fact unavailable(tomas, tue 10:00-11:00)
    /// ```
    #[error("the {form} text of `{attribute}` names nothing of the fact the decision rests on")]
    #[diagnostic(code(cici::check::text_states_nothing), severity(Warning))]
    TextStatesNothing {
        attribute: String,
        form: String,
        #[label("a reader cannot tell the fact from this")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A text says the opposite of its fact: its subject free, available
    /// or able on an unavailability, or unavailable or busy where the fact
    /// gives hours or a window.
    ///
    /// ```text
    /// sanitized "Eli is free Monday 9-10."
    /// fact unavailable(eli, mon 09:00-10:00)
    /// ```
    #[error("the {form} text of `{attribute}` says `{word}`, the opposite of its fact")]
    #[diagnostic(code(cici::check::text_opposes_fact))]
    TextOpposesFact {
        attribute: String,
        form: String,
        word: String,
        #[label("the fact says the opposite")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A text states another attribute's fact: it names a person of that
    /// fact and, with them, a number, day, time, ticket or room its own
    /// facts do not say.
    ///
    /// ```text
    /// sanitized "Mila has 4 hours available this sprint, and Jonas has 2."
    /// fact capacity(mila, 4)   # capacity(jonas, 5) is another attribute's
    /// ```
    #[error("the {form} text of `{attribute}` states a fact of `{other}` about `{word}`")]
    #[diagnostic(code(cici::check::text_states_other_fact), severity(Warning))]
    TextStatesOtherFact {
        attribute: String,
        form: String,
        word: String,
        other: String,
        #[label("the fact of another attribute")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A text names a person who is no one of the scenario's team.
    ///
    /// ```text
    /// sanitized "Eli and Jonas are unavailable Monday 9-10."   # no `jonas` on the team
    /// ```
    #[error("the {form} text of `{attribute}` names `{word}`, who is not on the team")]
    #[diagnostic(code(cici::check::text_names_unknown_person))]
    TextNamesUnknownPerson {
        attribute: String,
        form: String,
        word: String,
        #[label("no one of the scenario")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A `# cici:` comment that does not set a lint level: an unknown
    /// level or lint, or no lint at all.
    ///
    /// ```text
    /// # cici: permit idle_fact
    /// ```
    #[error("this `# cici:` comment sets no lint level: {reason}")]
    #[diagnostic(code(cici::check::lint_comment))]
    LintComment {
        reason: String,
        #[label("{label}")]
        span: SourceSpan,
        /// What is wrong with it where it stands.
        label: String,
        #[help]
        help: Option<String>,
    },

    /// The model judge (`cici check --judge`) reads the text as not stating
    /// its fact: a negation, a paraphrase that says something else, a text
    /// that only hints.
    ///
    /// ```text
    /// sanitized "No sign that balances were read."   # evidence(data_exposure, confirmed)
    /// ```
    #[error(
        "the model judge reads the {form} text of `{attribute}` as not stating its fact: {why}"
    )]
    #[diagnostic(code(cici::check::judge_entailment), severity(Warning))]
    JudgeEntailment {
        attribute: String,
        form: String,
        why: String,
        #[label("does not state the fact, says the judge")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// The model judge (`cici check --judge`) reads a sanitized text as
    /// revealing or implying its raw form's private reason.
    ///
    /// ```text
    /// sanitized "Eli is unavailable Tuesday 10-11 for treatment."
    /// ```
    #[error("the model judge reads the sanitized text of `{attribute}` as revealing its private reason: {why}")]
    #[diagnostic(
        code(cici::check::judge_reveals),
        severity(Warning),
        help("state only the operational implication (who, when, where), not the reason")
    )]
    JudgeReveals {
        attribute: String,
        why: String,
        #[label("reveals the reason, says the judge")]
        span: SourceSpan,
    },

    /// A personal raw form that states a fact but has no sanitized form.
    ///
    /// ```text
    /// attribute a { holder eli category health raw "Infusion Tue 10-11" appropriate fact ... }
    /// ```
    #[error("`{attribute}` is {category} and states a fact, but has no sanitized form")]
    #[diagnostic(
        code(cici::check::missing_sanitized),
        severity(Warning),
        help("add `sanitized \"...\"` with the operational implication only, e.g. \"Eli is unavailable Tuesday 10-11.\"")
    )]
    MissingSanitized {
        attribute: String,
        category: String,
        #[label("personal detail used as evidence")]
        span: SourceSpan,
    },

    /// A form's `visible` clause gives it other recipients than the
    /// scenario's norms do.
    ///
    /// ```text
    /// norms { share sanitized with executor }
    /// sanitized "Eli is unavailable Tuesday 10-11." visible all
    /// ```
    #[error("`{form}` is visible to other people than the norms allow: {differs}")]
    #[diagnostic(
        code(cici::check::visibility_exception),
        severity(Warning),
        help("drop the `visible` clause to follow the norms, or state the norm that gives it to them")
    )]
    VisibilityException {
        form: String,
        differs: String,
        #[label("an exception to the norms")]
        span: SourceSpan,
    },

    /// The scenario would lower to a model too large to analyse.
    ///
    /// ```text
    /// meeting m "M" { ... slots [ 400 slots ] rooms [ 300 rooms ] }
    /// ```
    #[error(
        "`{scenario}` is too large to analyse: about {estimate} constraints, the limit is {limit}"
    )]
    #[diagnostic(
        code(cici::check::too_large),
        help("split the scenario, or narrow the candidate slots, rooms or people")
    )]
    TooLarge {
        scenario: String,
        estimate: u64,
        limit: u64,
        #[label("too large")]
        span: SourceSpan,
    },

    /// The analyses did not finish within the time bound.
    ///
    /// ```text
    /// cici check --max-solve-ms 1 huge.cici
    /// ```
    #[error("the analysis of `{scenario}` did not finish within {ms} ms")]
    #[diagnostic(
        code(cici::check::timeout),
        help("raise the bound with --max-solve-ms, or split the scenario")
    )]
    Timeout {
        scenario: String,
        ms: u64,
        #[label("gave up here")]
        span: SourceSpan,
    },
}

impl CheckDiagnostic {
    pub fn is_error(&self) -> bool {
        !matches!(
            self.severity(),
            Some(miette::Severity::Warning) | Some(miette::Severity::Advice)
        )
    }
}
