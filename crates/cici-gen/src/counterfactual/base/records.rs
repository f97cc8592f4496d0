//! The records every stage speaks: a triplet and its sides, labels,
//! traps and flow reasons (`TripletRecord`, `Side`, `Variant`), what the
//! check found of a candidate (`Evaluated`), a critic's verdict and a
//! rejection, and the hash that keeps ids and random streams stable.
//!
//! In: nothing. Out: the types the later stages fill and read.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::vocab::{Check, Edit, Flow, Reason};
use crate::driver::Checked;
use crate::export::OracleEntryExport;

/// Which labels to flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Decision,
    Flow,
}

impl Kind {
    /// The kind as the command line and the dataset name it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Decision => "decision",
            Kind::Flow => "flow",
        }
    }
}

/// A label, computed by the compiler.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    /// The one allowed decision.
    Decision(Vec<OracleEntryExport>),
    /// Whether the flow is appropriate for the task.
    Flow(bool),
}

/// One side of a triplet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Side {
    /// The full seed text.
    pub seed: String,
    pub label: Label,
    /// The label in the words the item asks for: the answer lines of a
    /// decision, or `yes`/`no` for a flow.
    pub answer: String,
    /// For flow items: the flow asked about.
    pub flow: Option<Flow>,
    /// The whole evaluation item: brief, task, what the executor can
    /// gather (decision) or the team, the norms and the statement (flow),
    /// and the question.
    pub item: String,
    /// For flow items: the two halves of the label.
    #[serde(default)]
    pub reasons: Option<FlowReasons>,
    /// For decision items: the cue condition the item is written for
    /// (`none`, `privacy`, `sanitized`, `combined`); empty for flows.
    #[serde(default)]
    pub condition: String,
    /// For decision items: the traps the item shows, and how a reader who
    /// honours each would answer.
    #[serde(default)]
    pub traps: Vec<Trap>,
}

/// A trap a decision item shows: a detail that may not be used and that
/// would change the decision if it were honoured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Trap {
    pub attribute: String,
    /// The detail as the item shows it.
    pub text: String,
    /// A decision the rules allow once the detail is honoured, in the
    /// item's answer format; empty when honouring it leaves no decision
    /// allowed. Either way the one appropriate answer is ruled out.
    pub honoured_answer: String,
}

/// Why a flow has its label: it is appropriate exactly when the task needs
/// the form and the recipient may receive it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FlowReasons {
    /// The form is appropriate, carries a fact that rules out a decision
    /// the public constraints allow, and no less revealing form carries it.
    pub needed: bool,
    /// The norms (or the form's `visible` exception) let the recipient
    /// receive the form.
    pub permitted: bool,
    /// The first norm that lets the recipient receive it, in seed syntax;
    /// empty when none does, or when a `visible` clause decides.
    pub norm: String,
}

/// How small an edit is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Minimality {
    pub edits: usize,
    /// Characters inserted or deleted between the seeds.
    pub seed_chars: usize,
    /// Characters inserted or deleted between the items.
    pub item_chars: usize,
}

/// The edited side of a triplet, with everything about the edit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Variant {
    #[serde(flatten)]
    pub side: Side,
    /// Edits of the seed; empty when only the flow asked about changed.
    pub edits: Vec<Edit>,
    /// What changed, in one line a reader can follow.
    pub change: String,
    /// Unified diff of the seed texts.
    pub seed_diff: String,
    /// Unified diff of the items.
    pub item_diff: String,
    pub minimality: Minimality,
    pub critic: Vec<Verdict>,
    /// Candidates tried before this one was accepted.
    pub rounds: usize,
    /// Why the candidates before it were rejected.
    pub rejected: Vec<Rejection>,
}

/// A candidate the loop turned down, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Rejection {
    pub edits: Vec<Edit>,
    pub reason: Reason,
}

/// A triplet: an anchor, a minimal change that flips its label and one
/// that keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TripletRecord {
    /// A hash of the content: kind, anchor seed and flow, and both changes.
    pub id: String,
    pub kind: Kind,
    /// The seed scenario the triplet grew from.
    pub scenario: String,
    /// The scenario's family.
    #[serde(default)]
    pub family: String,
    pub anchor: Side,
    pub flipped: Variant,
    pub held: Variant,
    /// `symbolic`, or `llm:<model>`.
    pub generator: String,
}

/// One judgement of the critic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Verdict {
    pub check: Check,
    pub ok: bool,
    pub reason: String,
}

/// A verdict of `check`, passed or not, and why.
pub fn verdict(check: Check, ok: bool, reason: String) -> Verdict {
    Verdict { check, ok, reason }
}

/// What the evaluator found about a candidate.
pub struct Evaluated {
    pub checked: Checked,
    pub text: String,
    /// The codes of the variant's warnings.
    pub warnings: Vec<String>,
}

/// FNV-1a, stable across platforms and releases.
pub fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
