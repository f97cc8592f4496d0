//! The release's scenario format as typed records, and a reader that
//! reports every missing, mistyped or unknown field by its JSON path
//! instead of failing on the first.
//!
//! A scenario file (`data/seeds/*.json`, `data/generated_merged/*.json`):
//!
//! ```json
//! {"scenario_id": "...", "track": "ui_local",
//!  "scenario_family": "ambiguity_trap", "failure_mode": "task_ambiguity_overshare",
//!  "source": "seed", "initial_states": {"open_todo": {"items": ["..."]}},
//!  "task_prompt": "...",
//!  "ground_truth": {"must_share": ["..."], "must_not_share": ["..."]}}
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::diagnostic::{AcbDiagnostic, AcbError};

/// One scenario of the release.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub scenario_id: String,
    pub track: String,
    pub scenario_family: String,
    pub failure_mode: String,
    pub source: String,
    /// App key (`open_todo`, `open_messenger`, ...) to that app's state.
    pub initial_states: Map<String, Value>,
    pub task_prompt: String,
    pub ground_truth: GroundTruth,
}

/// What a correct agent's output carries, and what it leaves out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroundTruth {
    pub must_share: Vec<String>,
    pub must_not_share: Vec<String>,
}

/// The top-level fields, in the release's order.
pub const FIELDS: [&str; 8] = [
    "scenario_id",
    "track",
    "scenario_family",
    "failure_mode",
    "source",
    "initial_states",
    "task_prompt",
    "ground_truth",
];

/// Reads one scenario from its JSON value; `None` when a required field
/// is missing or mistyped (each reported).
pub fn read(value: &Value, out: &mut Vec<AcbDiagnostic>) -> Option<Scenario> {
    let Some(object) = value.as_object() else {
        out.push(shape("", "a JSON object (one scenario)"));
        return None;
    };
    for key in object.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        out.push(AcbDiagnostic::new(
            key.clone(),
            AcbError::UnknownField { name: key.clone() },
        ));
    }
    let text = |key: &str, out: &mut Vec<AcbDiagnostic>| match object.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        _ => {
            out.push(shape(key, "a non-empty string"));
            None
        }
    };
    let id = text("scenario_id", out);
    let track = text("track", out);
    let family = text("scenario_family", out);
    let failure_mode = text("failure_mode", out);
    let source = text("source", out);
    let prompt = text("task_prompt", out);
    let states = states(object.get("initial_states"), out);
    let truth = ground_truth(object.get("ground_truth"), out);
    Some(Scenario {
        scenario_id: id?,
        track: track?,
        scenario_family: family?,
        failure_mode: failure_mode?,
        source: source?,
        initial_states: states?,
        task_prompt: prompt?,
        ground_truth: truth?,
    })
}

fn shape(path: &str, expected: &str) -> AcbDiagnostic {
    AcbDiagnostic::new(
        path,
        AcbError::Shape {
            expected: expected.to_string(),
        },
    )
}

fn states(value: Option<&Value>, out: &mut Vec<AcbDiagnostic>) -> Option<Map<String, Value>> {
    let Some(Value::Object(apps)) = value else {
        out.push(shape("initial_states", "an object of app states"));
        return None;
    };
    let mut ok = true;
    for (app, state) in apps {
        if !state.is_object() {
            out.push(shape(
                &format!("initial_states.{app}"),
                "an object (the app's state)",
            ));
            ok = false;
        }
    }
    ok.then(|| apps.clone())
}

fn ground_truth(value: Option<&Value>, out: &mut Vec<AcbDiagnostic>) -> Option<GroundTruth> {
    let Some(Value::Object(truth)) = value else {
        out.push(shape(
            "ground_truth",
            "an object with must_share and must_not_share",
        ));
        return None;
    };
    for key in truth
        .keys()
        .filter(|k| !["must_share", "must_not_share"].contains(&k.as_str()))
    {
        out.push(AcbDiagnostic::new(
            format!("ground_truth.{key}"),
            AcbError::UnknownField { name: key.clone() },
        ));
    }
    let must_share = strings(truth.get("must_share"), "ground_truth.must_share", out);
    let must_not_share = strings(
        truth.get("must_not_share"),
        "ground_truth.must_not_share",
        out,
    );
    Some(GroundTruth {
        must_share: must_share?,
        must_not_share: must_not_share?,
    })
}

fn strings(value: Option<&Value>, path: &str, out: &mut Vec<AcbDiagnostic>) -> Option<Vec<String>> {
    let Some(Value::Array(items)) = value else {
        out.push(shape(path, "a list of strings"));
        return None;
    };
    let mut ok = true;
    let mut list = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(s) => list.push(s.clone()),
            _ => {
                out.push(shape(&format!("{path}[{i}]"), "a string"));
                ok = false;
            }
        }
    }
    ok.then_some(list)
}

/// Every string of a JSON value (keys left out), in document order.
pub fn texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| texts(v, out)),
        Value::Object(map) => map.values().for_each(|v| texts(v, out)),
        _ => {}
    }
}
