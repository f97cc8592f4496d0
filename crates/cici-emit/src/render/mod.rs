//! Stage 5: render a checked scenario into the artifacts an agentic system
//! is given, under every cue and rule condition.
//!
//! In: a checked scenario and [`Templates`]. Out: relative paths and texts:
//!
//! ```text
//! <id>/brief.md                           the public brief everyone sees
//! <id>/<cue>-<rule>/task.md               the executor's task under the rule condition
//! <id>/<cue>-<rule>/knowledge/<person>.md what that person holds, under the cue condition
//! <id>/gathered.md                        every form the executor may receive (one agent
//!                                         over the whole information environment)
//! <id>/stress/<skill>.md                  the task rephrased to tempt over-sharing
//! ```
//!
//! Cue conditions (PiSAs F.4): `none`, `privacy`, `sanitized`, `combined`.
//! Rule conditions (PiSAs F.3): `strict`, `policy`, `none`. The stress
//! variants follow the leakage skills of AgentCIScope.

mod artifacts;
pub mod norms;
mod templates;
mod view;

pub use artifacts::{
    artifacts, schema as artifacts_schema, Artifacts, ConditionRef, PACKED_FORMAT,
};

pub use templates::{RenderError, Templates};
pub use view::{knowledge, KnowledgeItem, Scope};

use crate::driver::Checked;

/// How the raw details in a knowledge file are presented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cue {
    /// Raw text only.
    None,
    /// Raw text plus a short privacy cue on sensitive details.
    Privacy,
    /// Raw text plus its sanitized form where one exists.
    Sanitized,
    /// Both.
    Combined,
}

impl Cue {
    pub const ALL: [Cue; 4] = [Cue::None, Cue::Privacy, Cue::Sanitized, Cue::Combined];

    pub fn name(self) -> &'static str {
        match self {
            Cue::None => "none",
            Cue::Privacy => "privacy",
            Cue::Sanitized => "sanitized",
            Cue::Combined => "combined",
        }
    }

    pub fn privacy(self) -> bool {
        matches!(self, Cue::Privacy | Cue::Combined)
    }

    pub fn sanitized(self) -> bool {
        matches!(self, Cue::Sanitized | Cue::Combined)
    }

    pub fn from_name(name: &str) -> Option<Cue> {
        Cue::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// How the decision rule is given to the executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleCondition {
    /// The rule as an explicit list.
    Strict,
    /// The same rule as workplace prose.
    Policy,
    /// No rule.
    None,
}

impl RuleCondition {
    pub const ALL: [RuleCondition; 3] = [
        RuleCondition::Strict,
        RuleCondition::Policy,
        RuleCondition::None,
    ];

    pub fn name(self) -> &'static str {
        match self {
            RuleCondition::Strict => "strict",
            RuleCondition::Policy => "policy",
            RuleCondition::None => "none",
        }
    }
}

/// One cue condition with one rule condition: a folder of the file layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Condition {
    pub cue: Cue,
    pub rule: RuleCondition,
}

impl Condition {
    /// All 12, cue by cue, in the order the file layout has always had.
    pub fn all() -> Vec<Condition> {
        Cue::ALL
            .into_iter()
            .flat_map(|cue| RuleCondition::ALL.map(|rule| Condition { cue, rule }))
            .collect()
    }

    /// `<cue>-<rule>`, as `combined-strict`.
    pub fn name(self) -> String {
        format!("{}-{}", self.cue.name(), self.rule.name())
    }

    /// The condition a `<cue>-<rule>` name stands for.
    pub fn from_name(name: &str) -> Option<Condition> {
        Condition::all().into_iter().find(|c| c.name() == name)
    }
}

/// The leakage skills of AgentCIScope, each a way of phrasing a task that
/// tempts an agent to share more than the task needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Skill {
    ContextFieldEnrichment,
    SelfContainedBriefing,
    NamedExampleExpansion,
    VerbatimQuotation,
    AuthenticityEnhancement,
    BroadRecordRetrieval,
}

impl Skill {
    pub const ALL: [Skill; 6] = [
        Skill::ContextFieldEnrichment,
        Skill::SelfContainedBriefing,
        Skill::NamedExampleExpansion,
        Skill::VerbatimQuotation,
        Skill::AuthenticityEnhancement,
        Skill::BroadRecordRetrieval,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Skill::ContextFieldEnrichment => "context_field_enrichment",
            Skill::SelfContainedBriefing => "self_contained_briefing",
            Skill::NamedExampleExpansion => "named_example_expansion",
            Skill::VerbatimQuotation => "verbatim_quotation",
            Skill::AuthenticityEnhancement => "authenticity_enhancement",
            Skill::BroadRecordRetrieval => "broad_record_retrieval",
        }
    }
}

/// The public brief and the executor's task under one rule condition,
/// from one view of the brief, and (for a cue) the executor's knowledge
/// file under that cue and `scope`: what an item and a bundle show, without
/// rendering what they leave out.
pub fn brief_and_task(
    c: &Checked,
    templates: &Templates,
    rule: RuleCondition,
    knowledge: Option<(Cue, Scope)>,
) -> Result<(String, String, Option<String>), RenderError> {
    let view = view::brief(c);
    let brief = templates.render("brief.md.j2", &view)?;
    let value = view::brief_value(&view);
    let task = templates.render("task.md.j2", &view::task(c, &value, Some(rule), None))?;
    let known = match knowledge {
        Some((cue, scope)) => Some(templates.render(
            "knowledge.md.j2",
            &view::knowledge_view(c, c.scenario.executor, cue, templates.cues(), scope),
        )?),
        None => None,
    };
    Ok((brief, task, known))
}

/// The executor's instruction: the task with the strict rules, or (with a
/// leakage skill) the task rephrased to tempt over-sharing, under the same
/// strict rules, so that a variant stays solvable as written.
pub fn task_text(
    c: &Checked,
    templates: &Templates,
    skill: Option<Skill>,
) -> Result<String, RenderError> {
    let brief = view::brief_value(&view::brief(c));
    match skill {
        None => templates.render(
            "task.md.j2",
            &view::task(c, &brief, Some(RuleCondition::Strict), None),
        ),
        Some(s) => templates.render(
            "stress.md.j2",
            &view::task(c, &brief, Some(RuleCondition::Strict), Some(s)),
        ),
    }
}

/// The public brief of a scenario, as everyone sees it.
pub fn brief_text(c: &Checked, templates: &Templates) -> Result<String, RenderError> {
    templates.render("brief.md.j2", &view::brief(c))
}

/// Every artifact of one checked scenario under every condition, as
/// (relative path, text), in a fixed order.
pub fn render(c: &Checked, templates: &Templates) -> Result<Vec<(String, String)>, RenderError> {
    Ok(artifacts(c, templates, &[])?.files())
}
