//! The language-model critic: judges fluency, whether the texts state
//! their facts, and whether a sanitized text gives the reason away, with a
//! prompt rendered from `templates/prompts/critic.j2`; its verdicts join
//! the rule-based critic's.
//!
//! In: the anchor, the compiled variant and its candidate. Out: the
//! model's `Verdict`s, or `None` while the model waits.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::counterfactual::base::prompt::{attributes, edits_json, schema_of, SYSTEM};
use crate::counterfactual::base::records::{verdict, Verdict};
use crate::counterfactual::base::vocab::{Candidate, Check};
use crate::driver::Checked;
use crate::llm::{extract_json, CallError, Llm, Message, ReplyError};
use crate::render::Templates;

/// What the critic must reply.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CriticReply {
    pub fluent: bool,
    pub states_fact: bool,
    pub sanitized_gives_away: bool,
    #[serde(default)]
    pub reason: String,
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
            return Some(vec![verdict(
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
            return Some(vec![verdict(
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
        Err(why) => vec![verdict(
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
                verdict(Check::LlmFluent, r.fluent, reason.clone()),
                verdict(Check::LlmStatesFact, r.states_fact, reason.clone()),
                verdict(Check::LlmNoGiveaway, !r.sanitized_gives_away, reason),
            ]
        }
    })
}
