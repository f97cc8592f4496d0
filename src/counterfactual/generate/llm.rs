//! The language-model generator and critic.
//!
//! The generator asks the model for edits as JSON (structured output where
//! the server supports it) with a prompt rendered from
//! `templates/prompts/generate.j2`; the reply is parsed into the same
//! [`Edit`] operations the symbolic generator writes and applied by
//! [`super::apply`], so the evaluator and the rule-based critic treat both
//! alike. Each new attempt tells the model why the earlier ones failed. The
//! critic (`templates/prompts/critic.j2`) judges fluency, whether the texts
//! state their facts, and whether a sanitized text gives the reason away;
//! its verdicts join the rule-based critic's.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::vocab::{Candidate, Check, Edit, Reason};
use super::{critic::Verdict, Proposal, Proposer, Rejection};
use crate::driver::Checked;
use crate::llm::{extract_json, CallError, Llm, Message, ReplyError};
use crate::render::Templates;

const SYSTEM: &str = "You edit and review scenarios of a privacy benchmark. You reply with one JSON object and nothing else.";

/// What the generator must reply.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditsReply {
    pub edits: Vec<Edit>,
}

/// What the critic must reply.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CriticReply {
    pub fluent: bool,
    pub states_fact: bool,
    pub sanitized_gives_away: bool,
    #[serde(default)]
    pub reason: String,
}

fn schema_of<T: JsonSchema>() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(T)).expect("schemas serialize")
}

/// Parses a generator reply into edits, or says what is wrong with it.
pub fn parse_edits(reply: &str) -> Result<Vec<Edit>, ReplyError> {
    let value = extract_json(reply)?;
    let parsed: EditsReply = serde_json::from_value(value).map_err(|e| ReplyError::Shape {
        expected: "the reply does not have the shape {\"edits\": [...]}",
        error: e.to_string(),
    })?;
    Ok(parsed.edits)
}

#[derive(Serialize)]
struct PersonCtx {
    id: String,
    name: String,
    role: String,
}

#[derive(Serialize)]
struct AttributeCtx {
    id: String,
    holder: String,
    category: Option<String>,
    raw: String,
    sanitized: Option<String>,
    facts: Vec<String>,
}

#[derive(Serialize)]
struct RejectedCtx {
    edits: String,
    reason: String,
}

#[derive(Serialize)]
struct GenerateCtx<'a> {
    seed: &'a str,
    goal: &'a str,
    people: Vec<PersonCtx>,
    attributes: Vec<AttributeCtx>,
    predicates: Vec<String>,
    rejected: Vec<RejectedCtx>,
    taken: Vec<String>,
}

fn attributes(c: &Checked, only: Option<&[String]>) -> Vec<AttributeCtx> {
    let sc = &c.scenario;
    sc.attributes
        .iter()
        .filter(|a| only.is_none_or(|ids| ids.contains(&a.id)))
        .map(|a| AttributeCtx {
            id: a.id.clone(),
            holder: sc.people[a.holder].id.clone(),
            category: a.category.map(|c| c.name().to_string()),
            raw: a.raw.text.clone(),
            sanitized: a.sanitized.as_ref().map(|s| s.text.clone()),
            facts: a
                .fact_form()
                .1
                .facts
                .iter()
                .chain(&a.soft)
                .map(|f| crate::printer::predicate(sc, &f.predicate))
                .collect(),
        })
        .collect()
}

fn edits_json(edits: &[Edit]) -> String {
    serde_json::to_string(edits).expect("edits serialize")
}

/// Proposes candidates for one side of a triplet by asking the model.
pub struct LlmProposer<'a> {
    pub llm: &'a Llm,
    pub templates: &'a Templates,
    pub anchor: &'a Checked,
    pub seed_text: &'a str,
    pub goal: String,
    /// Edits accepted earlier for this seed, as JSON.
    pub taken: Vec<String>,
}

impl Proposer for LlmProposer<'_> {
    fn next(&mut self, rejected: &[Rejection]) -> Proposal {
        let sc = &self.anchor.scenario;
        let ctx = GenerateCtx {
            seed: self.seed_text.trim_end(),
            goal: &self.goal,
            people: sc
                .people
                .iter()
                .map(|p| PersonCtx {
                    id: p.id.clone(),
                    name: p.name.clone(),
                    role: p.role.clone(),
                })
                .collect(),
            attributes: attributes(self.anchor, None),
            predicates: sc
                .family()
                .predicates()
                .map(|s| {
                    let args: Vec<String> = s
                        .params
                        .iter()
                        .map(|p| format!("{:?}", p.kind).to_lowercase())
                        .collect();
                    format!("{}({})", s.name, args.join(", "))
                })
                .collect(),
            // The latest attempts matter most; older ones only lengthen the prompt.
            rejected: rejected
                .iter()
                .rev()
                .take(6)
                .rev()
                .map(|r| RejectedCtx {
                    edits: edits_json(&r.edits),
                    reason: r.reason.to_string(),
                })
                .collect(),
            taken: self.taken.clone(),
        };
        let prompt = match self.templates.render("prompts/generate.j2", &ctx) {
            Ok(p) => p,
            Err(e) => {
                self.llm.stop(format!("the generator prompt: {e}"));
                return Proposal::Stop;
            }
        };
        let messages = [Message::system(SYSTEM), Message::user(prompt)];
        let reply = match self
            .llm
            .complete(&messages, Some(&schema_of::<EditsReply>()))
        {
            Ok(r) => r,
            Err(CallError::Pending) => return Proposal::Wait,
            Err(CallError::Fatal(_)) => return Proposal::Stop,
            Err(CallError::Failed(m)) => {
                return Proposal::Rejected(Rejection {
                    edits: Vec::new(),
                    reason: Reason::Model(m),
                })
            }
        };
        let edits = match parse_edits(&reply) {
            Ok(e) => e,
            Err(why) => {
                self.llm.note(false, &why.to_string());
                if self.llm.fatal().is_some() {
                    return Proposal::Stop;
                }
                return Proposal::Rejected(Rejection {
                    edits: Vec::new(),
                    reason: Reason::Reply(why),
                });
            }
        };
        match super::apply::candidate(sc, edits.clone()) {
            Ok(c) => {
                self.llm.note(true, "");
                Proposal::Candidate(Box::new(c))
            }
            Err(error) => {
                // Edits that name what is not there: nothing usable either.
                self.llm.note(false, &error.to_string());
                if self.llm.fatal().is_some() {
                    return Proposal::Stop;
                }
                Proposal::Rejected(Rejection {
                    edits,
                    reason: Reason::Edits(error),
                })
            }
        }
    }
}

/// The model's verdicts on a candidate the rules accepted; `None` when the
/// run must wait for a batch or stop (the model's fatal error is kept).
pub fn critique(
    llm: &Llm,
    templates: &Templates,
    anchor: &Checked,
    variant: &Checked,
    candidate: &Candidate,
    goal: &str,
) -> Option<Vec<Verdict>> {
    // The attributes whose texts the edit wrote.
    let changed: Vec<String> = variant
        .scenario
        .attributes
        .iter()
        .filter(|a| {
            anchor
                .scenario
                .attributes
                .iter()
                .find(|b| b.id == a.id)
                .is_none_or(|b| {
                    b.raw.text != a.raw.text
                        || b.sanitized.as_ref().map(|s| &s.text)
                            != a.sanitized.as_ref().map(|s| &s.text)
                })
        })
        .map(|a| a.id.clone())
        .collect();
    let ctx = serde_json::json!({
        "goal": goal,
        "edits": edits_json(&candidate.edits),
        "changed": serde_json::to_value(attributes(variant, Some(&changed))).expect("serializes"),
    });
    let prompt = match templates.render("prompts/critic.j2", &ctx) {
        Ok(p) => p,
        Err(e) => {
            return Some(vec![super::critic::verdict(
                Check::LlmCritic,
                false,
                format!("the critic prompt does not render: {e}"),
            )])
        }
    };
    let messages = [Message::system(SYSTEM), Message::user(prompt)];
    let reply = match llm.complete(&messages, Some(&schema_of::<CriticReply>())) {
        Ok(r) => r,
        Err(CallError::Pending | CallError::Fatal(_)) => return None,
        Err(CallError::Failed(m)) => {
            return Some(vec![super::critic::verdict(
                Check::LlmCritic,
                false,
                format!("the model: {m}"),
            )])
        }
    };
    let parsed = extract_json(&reply).and_then(|v| {
        serde_json::from_value::<CriticReply>(v).map_err(|e| ReplyError::Shape {
            expected: "wrong shape",
            error: e.to_string(),
        })
    });
    Some(match parsed {
        Err(why) => vec![super::critic::verdict(
            Check::LlmCritic,
            false,
            format!("the critic's reply is unusable: {why}"),
        )],
        Ok(r) => {
            // A decoded layer of the reply: masked whole, then cut.
            let reason: String = crate::llm::escape_controls(&llm.redact(&r.reason))
                .chars()
                .take(300)
                .collect();
            vec![
                super::critic::verdict(Check::LlmFluent, r.fluent, reason.clone()),
                super::critic::verdict(Check::LlmStatesFact, r.states_fact, reason.clone()),
                super::critic::verdict(Check::LlmNoGiveaway, !r.sanitized_gives_away, reason),
            ]
        }
    })
}
