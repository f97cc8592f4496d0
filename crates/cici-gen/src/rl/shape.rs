//! The rows each trainer reads, one JSON object a line.
//!
//! - verl: `data_source`, `prompt` (a chat), `ability`, `reward_model`
//!   (`{"style": "rule", "ground_truth"}`) and `extra_info`.
//! - TRL: a conversational `prompt` and `completion` (the proven answer),
//!   with `ground_truth` and the metadata as extra columns, which
//!   `GRPOTrainer` hands its reward functions; preference rows are
//!   `prompt`, `chosen` and `rejected`.
//! - OpenRLHF: `input`, `label` (the ground truth, for `--label_key
//!   label`) and `output`; preference rows `prompt`, `chosen`, `rejected`.
//!
//! The ground truth is JSON text in every shape, so that every loader
//! gives it one column type whatever the kind.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::read::{sides, Dataset, Located, RlError};

use super::truth::Truth;

/// The trainer whose rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Verl,
    Trl,
    Openrlhf,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Verl => "verl",
            Format::Trl => "trl",
            Format::Openrlhf => "openrlhf",
        }
    }
}

/// What an export writes.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub format: Format,
    /// Also write preference pairs, `dpo/<split>.jsonl`.
    pub dpo: bool,
    /// Ask for the details the answer rests on, after it (decision items).
    pub explain: bool,
}

/// What `--explain` adds to a decision item.
pub const EXPLAIN: &str = "After the answer, on a line of its own that starts with `Because:`, \
give the details the answer rests on, worded so that everyone on the team may read them.";

/// The file a trainer loads the reward from.
pub const REWARD_FILE: &str = r#""""The reward of this folder, written by `cici export rl`: the cici-inspect
package's (`pip install ./python` in the cici repository).

    verl:     custom_reward_function.path=reward.py custom_reward_function.name=compute_score
    OpenRLHF: --remote_rm_url reward.py --label_key label
    TRL:      from cici_inspect.reward import trl_reward; GRPOTrainer(reward_funcs=[trl_reward], ...)
"""

from cici_inspect.reward import compute_score, reward_func, score, trl_reward  # noqa: F401
"#;

/// One side of one row, as a prompt.
struct Side<'a> {
    l: &'a Located,
    name: &'static str,
    item: &'a str,
    truth: &'a Truth,
}

impl Side<'_> {
    fn prompt(&self, explain: bool) -> String {
        if explain && self.truth.kind == "decision" {
            format!("{}\n\n{EXPLAIN}", self.item.trim_end())
        } else {
            self.item.to_string()
        }
    }

    fn meta(&self) -> serde_json::Map<String, Value> {
        let r = &self.l.row;
        let mut m = serde_json::Map::new();
        for (k, v) in [
            ("id", format!("{}/{}", r.id, self.name)),
            ("triplet", r.id.clone()),
            ("kind", r.kind.clone()),
            ("family", r.family.clone()),
            ("scenario", r.scenario.clone()),
            ("split", self.l.split.clone()),
            ("side", self.name.into()),
            ("condition", r.condition.clone()),
            ("anchor_group", r.anchor_group.clone()),
        ] {
            m.insert(k.into(), Value::String(v));
        }
        m
    }
}

fn chat(role: &str, content: &str) -> Value {
    json!([{ "role": role, "content": content }])
}

/// The prompt row of one side.
fn prompt_row(s: &Side, format: Format, explain: bool, index: usize) -> Value {
    let truth = serde_json::to_string(s.truth).expect("truths serialize");
    let prompt = s.prompt(explain);
    let mut meta = s.meta();
    match format {
        Format::Verl => {
            meta.insert("index".into(), json!(index));
            json!({
                "data_source": format!("cici/{}", s.truth.kind),
                "prompt": chat("user", &prompt),
                "ability": "contextual_integrity",
                "reward_model": { "style": "rule", "ground_truth": truth },
                "extra_info": meta,
            })
        }
        Format::Trl => {
            meta.insert("prompt".into(), chat("user", &prompt));
            meta.insert("completion".into(), chat("assistant", &s.truth.answer));
            meta.insert("ground_truth".into(), json!(truth));
            Value::Object(meta)
        }
        Format::Openrlhf => {
            meta.insert("input".into(), json!(prompt));
            meta.insert("output".into(), json!(s.truth.answer));
            meta.insert("label".into(), json!(truth));
            Value::Object(meta)
        }
    }
}

/// The preference pairs of one row: each flipped side prefers its own
/// answer to the anchor's (and the anchor its own to the flipped one's),
/// so that a model that reads past the change is penalised; and every
/// decision side prefers its answer to the one honouring a trap gives.
fn pairs<'a>(l: &'a Located, truths: &'a [Truth; 3]) -> Vec<(Side<'a>, &'a str, &'a str)> {
    let s = sides(&l.row);
    let side = |i: usize| Side {
        l,
        name: s[i].0,
        item: s[i].1,
        truth: &truths[i],
    };
    let fresh = |i: usize| i != 0 || l.row.anchor_repeat == 0;
    let mut out = Vec::new();
    for (i, other) in [(1, 0), (0, 1)] {
        if fresh(i) && s[i].2 != s[other].2 {
            out.push((side(i), s[other].2, "flip"));
        }
    }
    for i in (0..3).filter(|&i| fresh(i)) {
        let mut seen: Vec<&str> = Vec::new();
        for honoured in &l.traps[i] {
            if honoured != s[i].2 && !seen.contains(&honoured.as_str()) {
                seen.push(honoured);
                out.push((side(i), honoured.as_str(), "trap"));
            }
        }
    }
    out
}

fn pair_row(s: &Side, rejected: &str, source: &str, format: Format) -> Value {
    let mut meta = s.meta();
    meta.insert("pair".into(), json!(source));
    let prompt = s.prompt(false);
    match format {
        Format::Trl => {
            meta.insert("prompt".into(), chat("user", &prompt));
            meta.insert("chosen".into(), chat("assistant", &s.truth.answer));
            meta.insert("rejected".into(), chat("assistant", rejected));
        }
        Format::Openrlhf | Format::Verl => {
            meta.insert("prompt".into(), json!(prompt));
            meta.insert("chosen".into(), json!(s.truth.answer));
            meta.insert("rejected".into(), json!(rejected));
        }
    }
    Value::Object(meta)
}

fn push_line(files: &mut BTreeMap<String, String>, path: String, v: &Value) {
    let text = files.entry(path).or_default();
    text.push_str(&serde_json::to_string(v).expect("rows serialize"));
    text.push('\n');
}

/// Every file of the export, as (relative path, text); `truths` holds the
/// ground truths of `data`'s rows, in order.
pub fn files(
    data: &Dataset,
    truths: &[[Truth; 3]],
    options: Options,
) -> Result<BTreeMap<String, String>, RlError> {
    if options.dpo && options.format == Format::Verl {
        return Err(RlError::DpoFormat {
            format: options.format.name().into(),
        });
    }
    let mut files = BTreeMap::new();
    let mut index = 0;
    for (l, three) in data.rows.iter().zip(truths) {
        let split = &l.split;
        for (i, (name, item, ..)) in sides(&l.row).into_iter().enumerate() {
            if i == 0 && l.row.anchor_repeat != 0 {
                continue;
            }
            let side = Side {
                l,
                name,
                item,
                truth: &three[i],
            };
            let row = prompt_row(&side, options.format, options.explain, index);
            push_line(&mut files, format!("{split}.jsonl"), &row);
            index += 1;
        }
        if options.dpo {
            for (side, rejected, source) in pairs(l, three) {
                let row = pair_row(&side, rejected, source, options.format);
                push_line(&mut files, format!("dpo/{split}.jsonl"), &row);
            }
        }
    }
    files.insert("reward.py".into(), REWARD_FILE.into());
    Ok(files)
}
