//! The language-model generator.
//!
//! It asks the model for edits as JSON (structured output where
//! the server supports it) with a prompt rendered from
//! `templates/prompts/generate.j2`; the reply is parsed into the same
//! [`Edit`] operations the symbolic generator writes and applied by
//! [`crate::counterfactual::apply`], so the evaluator and the rule-based
//! critic treat both alike. Each new attempt tells the model why the
//! earlier ones failed.
//!
//! In: the anchor, the side's goal and the rejections so far. Out: the
//! next `Proposal`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::proposal::{Proposal, Proposer};
use crate::counterfactual::base::prompt::{
    attributes, edits_json, schema_of, AttributeCtx, SYSTEM,
};
use crate::counterfactual::base::records::Rejection;
use crate::counterfactual::base::vocab::{Edit, Reason};
use crate::driver::Checked;
use crate::llm::{extract_json, CallError, Llm, Message, ReplyError};
use crate::render::Templates;

/// What the generator must reply.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditsReply {
    pub edits: Vec<Edit>,
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
        match crate::counterfactual::apply::candidate(sc, edits.clone()) {
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
