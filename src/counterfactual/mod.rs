//! Stage 6: grow seeds into counterfactual triplets.
//!
//! In: checked seeds. Out: [`TripletRecord`]s, each an anchor, a minimal
//! edit that flips a label (`flipped`) and one that keeps it (`held`).
//!
//! ```text
//! seed ──generator──▶ candidate edit ──evaluator──▶ labels ──critic──▶ accept
//!                          ▲                                              │
//!                          └──────────── rejected, with reasons ◀─────────┘
//! ```
//!
//! The generator is symbolic ([`mutate`]). The evaluator prints the variant
//! as seed text and runs the whole compiler on it, so every label comes
//! from the prover, never from the generator's bookkeeping, and every
//! accepted variant is a seed that `cici check` passes. Two label kinds:
//! `decision` (the oracle) and `flow` (whether sharing one form with one
//! person is appropriate for the task).

mod accept;
pub mod apply;
pub mod card;
pub mod completed;
pub mod critic;
mod croissant;
mod decision;
mod flow;
mod holds;
mod idle;
pub mod item;
mod listed;
#[cfg(feature = "llm")]
pub mod llm;
#[cfg(not(feature = "llm"))]
#[path = "llm_off.rs"]
pub mod llm;
mod moved;
pub mod mutate;
mod neighbours;
mod norm_edits;
pub mod output;
mod reaim;
mod rejections;
mod row;
mod side;
pub mod vocab;
pub mod wording;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::analysis::Options;
use crate::driver::{Checked, Run};
use crate::export::OracleEntryExport;
use crate::render::{RenderError, Templates};
use crate::sema::Scenario;
pub use card::{Provenance, SeedSource};
pub use listed::Listed;
pub use rejections::Rejections;
pub use row::Row;
use vocab::{Candidate, Edit, Flow, Reason};

pub use critic::Verdict;

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

/// The traps of a checked scenario, from the prover's report: every
/// attribute classed `trap`, with what honouring its fact allows.
pub fn traps(c: &Checked) -> Vec<Trap> {
    let sc = &c.scenario;
    c.report
        .attributes
        .iter()
        .enumerate()
        .filter(|(_, f)| f.class == crate::analysis::Class::Trap)
        .map(|(a, f)| Trap {
            attribute: sc.attributes[a].id.clone(),
            text: sc.attributes[a].raw.text.clone(),
            honoured_answer: f
                .facts
                .iter()
                .find_map(|&fact| {
                    c.report.facts[fact]
                        .trap
                        .as_ref()
                        .and_then(crate::analysis::TrapEffect::leads)
                        .map(|d| item::answer(sc, d))
                })
                .unwrap_or_default(),
        })
        .collect()
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

/// Knobs of a run.
#[derive(Clone, Debug)]
pub struct Config {
    pub kinds: Vec<Kind>,
    /// Triplets per seed and kind, at most.
    pub per_seed: usize,
    pub seed: u64,
    /// Candidates tried per side before giving up on a triplet.
    pub rounds: usize,
    pub options: Options,
    /// The model that proposes edits; `None` for the symbolic generator.
    pub generator_llm: Option<std::sync::Arc<crate::llm::Llm>>,
    /// The model whose verdicts join the rule-based critic's.
    pub critic_llm: Option<std::sync::Arc<crate::llm::Llm>>,
    /// Seeds processed at once.
    pub workers: usize,
    /// Why candidates of sides that found none were rejected, per seed.
    pub rejections: Rejections,
    /// The command line and the seeds' files, for the dataset card.
    pub provenance: Provenance,
    /// The cue conditions decision items are written for: each decision
    /// triplet is grown once per condition, its three items in that
    /// condition.
    pub cues: Vec<crate::render::Cue>,
    /// The shares of seeds in `train`, `validation` and `test`.
    pub split: Split,
}

/// The shares of seeds in each split, in percent, summing to 100.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    pub train: u32,
    pub validation: u32,
    pub test: u32,
}

impl Default for Split {
    fn default() -> Split {
        Split {
            train: 80,
            validation: 10,
            test: 10,
        }
    }
}

impl Config {
    /// A symbolic run with the given kinds, on every core.
    pub fn symbolic(
        kinds: Vec<Kind>,
        per_seed: usize,
        seed: u64,
        rounds: usize,
        options: Options,
    ) -> Config {
        Config {
            kinds,
            per_seed,
            seed,
            rounds,
            options,
            generator_llm: None,
            critic_llm: None,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rejections: Rejections::default(),
            provenance: Provenance::default(),
            cues: vec![crate::render::Cue::None, crate::render::Cue::Combined],
            split: Split::default(),
        }
    }

    /// What goes in a record's `generator` field.
    pub fn generator_name(&self) -> String {
        match &self.generator_llm {
            None => "symbolic".into(),
            Some(llm) => format!("llm:{}", llm.model()),
        }
    }

    /// The fatal error of a model in use, if one stopped the run.
    pub fn fatal(&self) -> Option<String> {
        self.generator_llm
            .iter()
            .chain(&self.critic_llm)
            .find_map(|l| l.fatal())
    }
}

/// What a generator offers for the next round.
pub enum Proposal {
    Candidate(Box<Candidate>),
    /// The proposal was refused before evaluation (a malformed reply, an
    /// edit naming something unknown).
    Rejected(Rejection),
    /// No more candidates.
    Done,
    /// The answer waits in a batch: the triplet is finished by a later run.
    Wait,
    /// Nothing more can be done this run; the model keeps the reason and
    /// the run reports it.
    Stop,
}

/// A source of candidates that may learn from the rejections so far.
pub trait Proposer {
    fn next(&mut self, rejected: &[Rejection]) -> Proposal;
}

/// What the evaluator found about a candidate.
pub struct Evaluated {
    pub checked: Checked,
    pub text: String,
    /// The codes of the variant's warnings.
    pub warnings: Vec<String>,
}

/// Compiles a candidate from its printed text. The oracle of a decision
/// candidate is the one decision its facts allow, found by the solver;
/// `None` with a reason when there is no single one or the seed has errors.
pub fn evaluate(candidate: &Candidate, options: &Options) -> Result<Evaluated, Reason> {
    evaluate_scenario(with_oracle(candidate, options)?, options)
}

/// The candidate's scenario with its oracle set to the one decision its
/// facts allow (see [`oracle_of`]).
pub(super) fn with_oracle(candidate: &Candidate, options: &Options) -> Result<Scenario, Reason> {
    let decision = oracle_of(&candidate.scenario, options)?;
    let mut sc = Scenario::clone(&candidate.scenario);
    sc.oracle = decision;
    Ok(sc)
}

/// The one decision a scenario's facts allow, whatever oracle it states.
/// The solver honours the check's bound: a variant it cannot decide
/// within it does not check, as its check would time out.
pub(super) fn oracle_of(sc: &Scenario, options: &Options) -> Result<crate::sema::Decision, Reason> {
    let deadline = options.max_solve.map(|d| std::time::Instant::now() + d);
    match crate::analysis::decided(&crate::model::lower(sc), deadline) {
        crate::analysis::Decided::Nothing => Err(Reason::NoDecision),
        crate::analysis::Decided::Several => Err(Reason::SeveralDecisions),
        crate::analysis::Decided::Unknown => {
            let timeout = crate::analysis::CheckDiagnostic::Timeout {
                scenario: sc.id.clone(),
                ms: options.max_solve.map_or(0, |d| d.as_millis() as u64),
                span: sc.id_span.into(),
            };
            let code = miette::Diagnostic::code(&timeout).map(|c| c.to_string());
            Err(Reason::DoesNotCheck(code.into_iter().collect()))
        }
        crate::analysis::Decided::One(decision) => Ok(decision),
    }
}

/// Prints a scenario and runs the whole compiler on the text.
pub(super) fn evaluate_scenario(sc: Scenario, options: &Options) -> Result<Evaluated, Reason> {
    evaluate_text(&sc.id, crate::printer::print(&sc), options)
}

/// Runs the whole compiler on a scenario's printed text.
pub(super) fn evaluate_text(
    id: &str,
    text: String,
    options: &Options,
) -> Result<Evaluated, Reason> {
    let mut run = Run::new();
    run.check_text(format!("{id}.cici"), text.clone(), options);
    if run.errors() > 0 || run.checked.len() != 1 {
        let codes: Vec<String> = run
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.diagnostic.code_name())
            .collect();
        return Err(Reason::DoesNotCheck(codes));
    }
    let warnings = run
        .diagnostics
        .iter()
        .map(|d| d.diagnostic.code_name())
        .collect();
    let checked = run.checked.pop().expect("one scenario");
    Ok(Evaluated {
        checked,
        text,
        warnings,
    })
}

/// The decision label of a checked scenario.
pub fn decision_label(c: &Checked) -> Label {
    decision_label_of(&c.scenario)
}

/// The decision label of a scenario's oracle.
pub(super) fn decision_label_of(sc: &Scenario) -> Label {
    Label::Decision(
        crate::printer::decision_rows(sc, &sc.oracle)
            .into_iter()
            .map(|(target, value)| OracleEntryExport { target, value })
            .collect(),
    )
}

/// The flow label: the form is appropriate, a fact of it is relevant to the
/// task, and the person may see it. Computed from the prover's report.
pub fn flow_label(c: &Checked, flow: &Flow) -> Option<bool> {
    flow_reasons(c, flow).map(|r| r.needed && r.permitted)
}

/// Whether the recipients of a flow's form follow from the norms alone,
/// which the item states; a form with a written `visible` exception has
/// recipients that no reader of the item could work out, so it is not
/// asked about.
pub fn flow_stated(sc: &Scenario, flow: &Flow) -> bool {
    sc.attribute(&flow.attribute)
        .map(|a| &sc.attributes[a])
        .and_then(|attr| {
            let form = attr.form(flow.form)?;
            let norms = sc.norms();
            Some(sc.env(&norms).gives(attr, flow.form, &form.visible))
        })
        .unwrap_or(false)
}

/// The two halves of a flow's label, from the prover's report and the
/// norms.
pub fn flow_reasons(c: &Checked, flow: &Flow) -> Option<FlowReasons> {
    let sc = &c.scenario;
    let a = sc.attribute(&flow.attribute)?;
    let p = sc.person(&flow.person)?;
    let attr = &sc.attributes[a];
    let form = attr.form(flow.form)?;
    let needed = crate::driver::form_needed(c, a, flow.form);
    let norms = sc.norms();
    let env = sc.env(&norms);
    let follows = form.visible == env.derive(attr, flow.form);
    let norm = match env.grants(attr, flow.form, p).first() {
        Some((i, _)) if follows => crate::printer::norm(sc, &norms[*i]),
        _ => String::new(),
    };
    Some(FlowReasons {
        needed,
        permitted: form.visible.contains(&p),
        norm,
    })
}

/// The triplets of one seed, in a fixed order for a given `config.seed`;
/// an error when the templates cannot render the seed's items.
pub fn triplets(
    seed: &Checked,
    config: &Config,
    templates: &Templates,
) -> Result<Vec<TripletRecord>, RenderError> {
    let sc = &seed.scenario;
    let text = crate::printer::print(sc);
    // The anchor is the seed in canonical form, compiled again from text.
    let Ok(ev) = evaluate(
        &Candidate {
            scenario: std::sync::Arc::new(sc.clone()),
            edits: Vec::new(),
            flow: None,
        },
        &config.options,
    ) else {
        return Ok(Vec::new());
    };
    let mut accepted = std::collections::HashSet::new();
    let compiled = accept::Compiled::default();
    let mut out = Vec::new();
    for &kind in &config.kinds {
        // One random stream per kind, so that `--kind` changes no item.
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(
            config.seed ^ fnv(&sc.id) ^ fnv(kind.name()),
        );
        let anchor = accept::Anchor {
            checked: &ev.checked,
            ev: &ev,
            text: text.clone(),
            compiled: &compiled,
        };
        match kind {
            Kind::Decision => out.extend(decision::triplets(
                &anchor,
                config,
                templates,
                &mut rng,
                &mut accepted,
            )?),
            Kind::Flow => out.extend(flow::triplets(
                &anchor,
                config,
                templates,
                &mut rng,
                &mut accepted,
            )?),
        }
    }
    Ok(out)
}

/// A record's id: a hash of its kind, anchor and both changes, so that the
/// same triplet has the same id whatever else a run made.
fn content_id(kind: Kind, anchor: &Side, flipped: &Variant, held: &Variant) -> String {
    let key = serde_json::json!([
        kind.name(),
        anchor.seed,
        anchor.flow,
        anchor.condition,
        flipped.edits,
        flipped.side.flow,
        held.edits,
        held.side.flow,
    ]);
    let text = key.to_string();
    // FNV-1a of the text and of its reverse: 128 bits, stable everywhere.
    let second: String = text.chars().rev().collect();
    format!("{:016x}{:016x}", fnv(&text), fnv(&second))
}

fn record(
    sc: &Scenario,
    kind: Kind,
    anchor: Side,
    flipped: Variant,
    held: Variant,
    config: &Config,
) -> TripletRecord {
    TripletRecord {
        id: content_id(kind, &anchor, &flipped, &held),
        kind,
        scenario: sc.id.clone(),
        family: sc.family().name().to_string(),
        anchor,
        flipped,
        held,
        generator: config.generator_name(),
    }
}

/// FNV-1a, stable across platforms and releases.
fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
