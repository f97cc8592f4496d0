//! A checked cici scenario in AgentCIBench's scenario format, so that it
//! runs in the release's harness (`eval/run_benchmark.py --generated-dir`).
//!
//! The user's information sits in the OpenToDo app's items, one item per
//! form; the task prompt is the scenario's task. What a correct agent
//! shares is what `check` proves the task needs (each form of a critical or
//! supporting attribute that the recipient may receive: the sanitized form
//! when there is one); what it must not share is every inappropriate form.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::format::{GroundTruth, Scenario};
use crate::analysis::Class;
use crate::driver::Checked;

/// The scenario family and failure mode an exported case declares: the
/// task asks for some of the user's items next to others it does not need.
const FAMILY: (&str, &str) = ("ambiguity_trap", "task_ambiguity_overshare");

/// The AgentCIBench scenario of one proven scenario.
pub fn scenario(c: &Checked) -> Scenario {
    let s = &c.scenario;
    let mut items = Vec::new();
    let mut must_share = Vec::new();
    let mut must_not_share = Vec::new();
    for (a, finding) in s.attributes.iter().zip(&c.report.attributes) {
        let needed = matches!(finding.class, Class::Critical | Class::Supporting);
        let forms = std::iter::once(&a.raw).chain(a.sanitized.as_ref());
        for form in forms {
            push_unique(&mut items, &form.text);
            if !form.appropriate {
                push_unique(&mut must_not_share, &form.text);
            }
        }
        let shared = a.sanitized.as_ref().unwrap_or(&a.raw);
        if needed && shared.appropriate {
            push_unique(&mut must_share, &shared.text);
        }
    }
    let mut states = Map::new();
    states.insert("open_todo".to_string(), json!({ "items": items }));
    Scenario {
        scenario_id: s.id.clone(),
        track: "ui_local".to_string(),
        scenario_family: FAMILY.0.to_string(),
        failure_mode: FAMILY.1.to_string(),
        source: "cici".to_string(),
        initial_states: states,
        task_prompt: s.task.clone(),
        ground_truth: GroundTruth {
            must_share,
            must_not_share,
        },
    }
}

fn push_unique(list: &mut Vec<String>, text: &str) {
    if !list.iter().any(|t| t == text) {
        list.push(text.to_string());
    }
}

/// `<id>.json` per proven scenario, in the release's field order.
pub fn files(checked: &[&Checked]) -> Result<BTreeMap<String, String>, serde_json::Error> {
    checked
        .iter()
        .map(|c| {
            let value: Value = serde_json::to_value(scenario(c))?;
            let mut text = serde_json::to_string_pretty(&value)?;
            text.push('\n');
            Ok((format!("{}.json", c.scenario.id), text))
        })
        .collect()
}
