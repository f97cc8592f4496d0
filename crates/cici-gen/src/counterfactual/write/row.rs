//! The dataset's record: one flat row per triplet, with the same columns
//! and column types for both kinds, so that every loader reads it. Parts
//! whose shape varies (labels, edits, critic verdicts, rejections) are JSON
//! text in a string column.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::counterfactual::base::records::{fnv, Kind, Side, TripletRecord, Variant};
use crate::counterfactual::base::vocab::Flow;

/// One line of `decision.jsonl` or `flow.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "cici counterfactual triplet")]
pub struct Row {
    /// A hash of the content (kind, anchor seed and flow, both changes):
    /// the same triplet has the same id in every run that makes it.
    pub id: String,
    /// `decision` or `flow`.
    pub kind: String,
    /// The seed scenario the triplet grew from.
    pub scenario: String,
    /// The scenario's family (`meeting_allocation`, `jira_allocation`,
    /// `severity_classification`, `policy_decision`).
    #[serde(default)]
    pub family: String,
    /// `symbolic`, or `llm:<model>`.
    pub generator: String,
    /// The cici version that made the row.
    pub cici_version: String,
    /// `train`, `validation` or `test`: every row of a seed is in the same
    /// split.
    #[serde(default)]
    pub split: String,
    /// For decisions, the cue condition all three items are written for
    /// (`none`, `privacy`, `sanitized`, `combined`); empty for flows.
    #[serde(default)]
    pub condition: String,
    /// A hash of the anchor item: rows with the same anchor item share it.
    #[serde(default)]
    pub anchor_group: String,
    /// 1 when an earlier row of the folder has the same anchor item, so
    /// that an evaluator can count each anchor once; else 0.
    #[serde(default)]
    pub anchor_repeat: u32,

    /// The anchor as one evaluation item.
    pub anchor_item: String,
    /// The anchor's label in the item's words.
    pub anchor_answer: String,
    /// The anchor's label as JSON: `{"decision": [{"target", "value"}]}` or `{"flow": bool}`.
    pub anchor_label: String,
    /// The flow asked about, as `attribute/form -> person`; empty for decisions.
    pub anchor_flow: String,
    pub anchor_seed: String,
    /// For flows, why the label is what it is, as JSON: `{"needed", "permitted", "norm"}`; empty for decisions.
    #[serde(default)]
    pub anchor_reasons: String,
    /// For decisions, the traps the item shows, as a JSON list of
    /// `{"attribute", "text", "honoured_answer"}`: a reader who honours one
    /// answers `honoured_answer` (or finds no decision, when it is empty).
    #[serde(default)]
    pub anchor_traps: String,

    pub flipped_item: String,
    pub flipped_answer: String,
    pub flipped_label: String,
    pub flipped_flow: String,
    pub flipped_seed: String,
    /// For flows, why the label is what it is, as JSON: `{"needed", "permitted", "norm"}`; empty for decisions.
    #[serde(default)]
    pub flipped_reasons: String,
    #[serde(default)]
    pub flipped_traps: String,
    /// What changed, in one line.
    pub flipped_change: String,
    /// The seed edits, as a JSON list.
    pub flipped_edits: String,
    pub flipped_seed_diff: String,
    pub flipped_item_diff: String,
    pub flipped_edit_count: u32,
    pub flipped_seed_chars: u32,
    pub flipped_item_chars: u32,
    /// The critic's verdicts, as a JSON list.
    pub flipped_critic: String,
    /// Candidates tried before this one was accepted.
    pub flipped_rounds: u32,
    /// Candidates turned down before, with reasons, as a JSON list.
    pub flipped_rejected: String,

    pub held_item: String,
    pub held_answer: String,
    pub held_label: String,
    pub held_flow: String,
    pub held_seed: String,
    /// For flows, why the label is what it is, as JSON: `{"needed", "permitted", "norm"}`; empty for decisions.
    #[serde(default)]
    pub held_reasons: String,
    #[serde(default)]
    pub held_traps: String,
    pub held_change: String,
    pub held_edits: String,
    pub held_seed_diff: String,
    pub held_item_diff: String,
    pub held_edit_count: u32,
    pub held_seed_chars: u32,
    pub held_item_chars: u32,
    pub held_critic: String,
    pub held_rounds: u32,
    pub held_rejected: String,
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("records serialize")
}

fn flow(f: &Option<Flow>) -> String {
    f.as_ref().map_or(String::new(), |f| {
        format!("{}/{} -> {}", f.attribute, f.form.name(), f.person)
    })
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

struct Cols {
    item: String,
    answer: String,
    label: String,
    flow: String,
    seed: String,
    reasons: String,
    traps: String,
}

fn side(s: &Side) -> Cols {
    Cols {
        item: s.item.clone(),
        answer: s.answer.clone(),
        label: json(&s.label),
        flow: flow(&s.flow),
        seed: s.seed.clone(),
        reasons: s.reasons.as_ref().map_or(String::new(), json),
        traps: if s.flow.is_some() {
            String::new()
        } else {
            json(&s.traps)
        },
    }
}

impl Row {
    /// A hash of an anchor item, for `anchor_group`.
    pub fn group_of(item: &str) -> String {
        let reversed: String = item.chars().rev().collect();
        format!("{:016x}{:016x}", fnv(item), fnv(&reversed))
    }

    /// The row of a triplet in its split; `repeat` when an earlier row has
    /// the same anchor item.
    pub fn of(t: &TripletRecord, split: &str, repeat: bool) -> Row {
        let a = side(&t.anchor);
        let (f, h) = (side(&t.flipped.side), side(&t.held.side));
        let v = |x: &Variant| {
            (
                x.change.clone(),
                json(&x.edits),
                x.seed_diff.clone(),
                x.item_diff.clone(),
                count(x.minimality.edits),
                count(x.minimality.seed_chars),
                count(x.minimality.item_chars),
                json(&x.critic),
                count(x.rounds),
                json(&x.rejected),
            )
        };
        let fv = v(&t.flipped);
        let hv = v(&t.held);
        Row {
            id: t.id.clone(),
            kind: t.kind.name().to_string(),
            scenario: t.scenario.clone(),
            family: t.family.clone(),
            generator: t.generator.clone(),
            cici_version: env!("CARGO_PKG_VERSION").to_string(),
            split: split.to_string(),
            condition: t.anchor.condition.clone(),
            anchor_group: Row::group_of(&a.item),
            anchor_repeat: u32::from(repeat),
            anchor_traps: a.traps,
            anchor_item: a.item,
            anchor_answer: a.answer,
            anchor_label: a.label,
            anchor_flow: a.flow,
            anchor_seed: a.seed,
            anchor_reasons: a.reasons,
            flipped_item: f.item,
            flipped_answer: f.answer,
            flipped_label: f.label,
            flipped_flow: f.flow,
            flipped_seed: f.seed,
            flipped_reasons: f.reasons,
            flipped_traps: f.traps,
            flipped_change: fv.0,
            flipped_edits: fv.1,
            flipped_seed_diff: fv.2,
            flipped_item_diff: fv.3,
            flipped_edit_count: fv.4,
            flipped_seed_chars: fv.5,
            flipped_item_chars: fv.6,
            flipped_critic: fv.7,
            flipped_rounds: fv.8,
            flipped_rejected: fv.9,
            held_item: h.item,
            held_answer: h.answer,
            held_label: h.label,
            held_flow: h.flow,
            held_seed: h.seed,
            held_reasons: h.reasons,
            held_traps: h.traps,
            held_change: hv.0,
            held_edits: hv.1,
            held_seed_diff: hv.2,
            held_item_diff: hv.3,
            held_edit_count: hv.4,
            held_seed_chars: hv.5,
            held_item_chars: hv.6,
            held_critic: hv.7,
            held_rounds: hv.8,
            held_rejected: hv.9,
        }
    }
}

/// The kinds, in the order of their files.
pub const KINDS: [Kind; 2] = [Kind::Decision, Kind::Flow];

/// The splits, in the order of the card.
pub const SPLITS: [&str; 3] = ["train", "validation", "test"];

/// The file of one kind's rows in one split.
pub fn file_name(kind: Kind, split: &str) -> String {
    format!("{}/{split}.jsonl", kind.name())
}

/// The JSON Schema of a row.
pub fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Row)).expect("schemas serialize")
}
