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

pub mod apply;
pub mod critic;
pub mod llm;
pub mod mutate;
pub mod output;
mod rejections;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::analysis::Options;
use crate::driver::{Checked, Run};
use crate::export::OracleEntryExport;
use crate::render::{Cue, RuleCondition, Templates};
use crate::sema::Scenario;
use mutate::{Candidate, Edit, Flow};
pub use rejections::Rejections;

pub use critic::Verdict;

/// Which labels to flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Decision,
    Flow,
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
    /// The executor's task (strict rule) and what the executor may see
    /// (combined cues), as rendered for an agent.
    pub vignette: String,
}

/// How small an edit is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Minimality {
    pub edits: usize,
    /// Characters inserted or deleted between the seeds.
    pub seed_chars: usize,
    /// Characters inserted or deleted between the vignettes.
    pub vignette_chars: usize,
}

/// The edited side of a triplet, with everything about the edit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Variant {
    #[serde(flatten)]
    pub side: Side,
    pub edits: Vec<Edit>,
    /// Unified diff of the seed texts.
    pub seed_diff: String,
    /// Unified diff of the vignettes.
    pub vignette_diff: String,
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
    pub reason: String,
}

/// One line of `triplets.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "cici counterfactual triplet")]
pub struct TripletRecord {
    pub id: String,
    pub kind: Kind,
    /// The seed scenario the triplet grew from.
    pub scenario: String,
    /// For flow triplets: the flow whose label is at stake.
    pub flow: Option<Flow>,
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

/// The evaluator's reasons for a candidate with no single decision.
const NO_DECISION: &str = "the edited facts allow no decision";
const SEVERAL_DECISIONS: &str = "the edited facts allow more than one decision";
const WRONG_LABEL: &str = "the label is not the one wanted";

/// A list of candidates, in order, that learns from the rejections: some
/// numbers are monotone, so one changed one way and turned down rules out
/// changing it further the same way. Raising a ticket's hours, or lowering
/// a room's capacity or a person's `capacity` fact, only removes decisions:
/// once none is left, changing it further leaves none either. Changing it the other way only
/// adds decisions: once several are allowed, further still allows several.
/// And once a change leaves exactly one decision with the wrong label,
/// going further leaves that decision or none (tighter), or that decision
/// or several (looser): wrong again. Candidates that differ from a
/// rejected one in their texts alone meet the same decision. Such
/// candidates are dropped unseen, so they use up no round.
pub struct Listed {
    rest: std::collections::VecDeque<Candidate>,
    /// Rejections already learnt from.
    seen: usize,
}

impl Listed {
    pub fn new(candidates: Vec<Candidate>) -> Listed {
        Listed {
            rest: candidates.into(),
            seen: 0,
        }
    }

    fn learn(&mut self, r: &Rejection) {
        // These reasons depend on the decision alone, which texts do not
        // change: a candidate making the same other edits meets the same.
        let about_decision =
            [NO_DECISION, SEVERAL_DECISIONS, WRONG_LABEL].contains(&r.reason.as_str());
        if !about_decision {
            return;
        }
        let structural = |edits: &[Edit]| -> Vec<Edit> {
            edits
                .iter()
                .filter(|e| !matches!(e, Edit::ReplaceText { .. }))
                .cloned()
                .collect()
        };
        let same = structural(&r.edits);
        self.rest.retain(|c| structural(&c.edits) != same);
        let Some(k) = Knob::of(&r.edits) else {
            return;
        };
        let tight = k.tightens();
        let dead_end = r.reason == WRONG_LABEL
            || (tight && r.reason == NO_DECISION)
            || (!tight && r.reason == SEVERAL_DECISIONS);
        if !dead_end {
            return;
        }
        self.rest.retain(|c| {
            // Same number, same start, same direction, at least as far.
            !Knob::of(&c.edits).is_some_and(|o| {
                o.what == k.what
                    && o.from == k.from
                    && o.tightens() == tight
                    && o.to.abs_diff(o.from) >= k.to.abs_diff(k.from)
            })
        });
    }
}

/// A number that only removes decisions when it moves one way: a ticket's
/// hours (up), a room's capacity (down), a person's `capacity` fact (down).
struct Knob {
    what: String,
    from: u32,
    to: u32,
    /// Whether raising the number removes decisions.
    up_tightens: bool,
}

impl Knob {
    /// The knob an edit turns, when that is all it does to the decision
    /// (text edits beside it change no decision).
    fn of(edits: &[Edit]) -> Option<Knob> {
        let mut knobs = edits
            .iter()
            .filter(|e| !matches!(e, Edit::ReplaceText { .. }));
        let knob = match (knobs.next()?, knobs.next()) {
            (
                Edit::SetPublic {
                    target,
                    field,
                    from,
                    to,
                },
                None,
            ) => Knob {
                what: format!("{target}.{field}"),
                from: *from,
                to: *to,
                up_tightens: match field.as_str() {
                    "hours" => true,
                    "capacity" => false,
                    _ => return None,
                },
            },
            (
                Edit::ReplaceFact {
                    attribute,
                    from,
                    to,
                },
                None,
            ) => {
                // `capacity(<person>, <n>)` on both sides, the same person.
                let parse = |f: &str| -> Option<(String, u32)> {
                    let args = f.trim().strip_prefix("capacity(")?.strip_suffix(')')?;
                    let (who, n) = args.split_once(',')?;
                    Some((who.trim().to_string(), n.trim().parse().ok()?))
                };
                let ((p, a), (q, b)) = (parse(from)?, parse(to)?);
                if p != q {
                    return None;
                }
                Knob {
                    what: format!("{attribute}.capacity({p})"),
                    from: a,
                    to: b,
                    up_tightens: false,
                }
            }
            _ => return None,
        };
        Some(knob)
    }

    fn tightens(&self) -> bool {
        (self.to > self.from) == self.up_tightens
    }
}

impl Proposer for Listed {
    fn next(&mut self, rejected: &[Rejection]) -> Proposal {
        for r in &rejected[self.seen.min(rejected.len())..] {
            self.learn(r);
        }
        self.seen = rejected.len();
        self.rest
            .pop_front()
            .map_or(Proposal::Done, |c| Proposal::Candidate(Box::new(c)))
    }
}

/// What the evaluator found about a candidate.
pub struct Evaluated {
    pub checked: Checked,
    pub text: String,
}

/// Compiles a candidate from its printed text. The oracle of a decision
/// candidate is the one decision its facts allow, found by the solver;
/// `None` with a reason when there is no single one or the seed has errors.
pub fn evaluate(candidate: &Candidate, options: &Options) -> Result<Evaluated, String> {
    compile(with_oracle(candidate)?, options)
}

/// The candidate's scenario with its oracle set to the one decision its
/// facts allow.
fn with_oracle(candidate: &Candidate) -> Result<Scenario, String> {
    let mut sc = candidate.scenario.clone();
    let model = crate::model::lower(&sc);
    let mut session = crate::solver::Session::new(&model, None);
    let on: Vec<bool> = model
        .facts
        .iter()
        .map(|f| f.status == crate::model::FactStatus::Appropriate)
        .collect();
    let crate::solver::Outcome::Sat(first) = session.solve(&on, &[]) else {
        return Err(NO_DECISION.into());
    };
    let other = session.differ_from(&first);
    if let crate::solver::Outcome::Sat(_) = session.solve(&on, &[other]) {
        return Err(SEVERAL_DECISIONS.into());
    }
    sc.oracle = model.decode(&first);
    Ok(sc)
}

/// Prints a scenario and runs the whole compiler on the text.
fn compile(sc: Scenario, options: &Options) -> Result<Evaluated, String> {
    let text = crate::printer::print(&sc);
    let mut run = Run::new();
    run.check_text(format!("{}.cici", sc.id), text.clone(), options);
    if run.errors() > 0 || run.checked.len() != 1 {
        let codes: Vec<String> = run
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .filter_map(|d| d.diagnostic.code().map(|c| c.to_string()))
            .collect();
        return Err(format!("the variant does not check: {}", codes.join(", ")));
    }
    let checked = run.checked.pop().expect("one scenario");
    Ok(Evaluated { checked, text })
}

/// The decision label of a checked scenario.
pub fn decision_label(c: &Checked) -> Label {
    decision_label_of(&c.scenario)
}

/// The decision label of a scenario's oracle.
fn decision_label_of(sc: &Scenario) -> Label {
    Label::Decision(
        crate::analysis::decision_rows(sc, &sc.oracle)
            .into_iter()
            .map(|(target, value)| OracleEntryExport { target, value })
            .collect(),
    )
}

/// The flow label: the form is appropriate, a fact of it is relevant to the
/// task, and the person may see it. Computed from the prover's report.
pub fn flow_label(c: &Checked, flow: &Flow) -> Option<bool> {
    let sc = &c.scenario;
    let a = sc.attribute(&flow.attribute)?;
    let p = sc.person(&flow.person)?;
    let form = sc.attributes[a].form(flow.form)?;
    let relevant = sc.attributes[a].fact_form().0 == flow.form
        && crate::export::is_evidence(&c.report, &c.model, a);
    Some(form.appropriate && relevant && form.visible.contains(&p))
}

/// The vignette of a scenario: the executor's task under the strict rule
/// and the executor's knowledge under combined cues.
pub fn vignette(c: &Checked, templates: &Templates) -> String {
    let (task, knowledge) =
        crate::render::executor_view(c, templates, Cue::Combined, RuleCondition::Strict)
            .expect("the built-in templates render every checked scenario");
    format!("{task}\n{knowledge}")
}

fn char_distance(a: &str, b: &str) -> usize {
    similar::TextDiff::from_chars(a, b)
        .ops()
        .iter()
        .map(|op| match op.tag() {
            similar::DiffTag::Equal => 0,
            similar::DiffTag::Delete => op.old_range().len(),
            similar::DiffTag::Insert => op.new_range().len(),
            similar::DiffTag::Replace => op.old_range().len().max(op.new_range().len()),
        })
        .sum()
}

fn unified(a: &str, b: &str, name: &str) -> String {
    similar::TextDiff::from_lines(a, b)
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

/// The anchor side of a checked seed.
struct Anchor<'a> {
    checked: &'a Checked,
    text: String,
    vignette: String,
}

/// Tries candidates until one is accepted: it compiles, has the wanted
/// label relation to the anchor, and passes the critic (and the model
/// critic, when one is configured).
fn accept(
    anchor: &Anchor,
    proposer: &mut dyn Proposer,
    goal: &str,
    want: Want,
    accepted: &mut std::collections::HashSet<String>,
    config: &Config,
    templates: &Templates,
) -> Attempt {
    let mut rejected = Vec::new();
    for round in 0..config.rounds {
        let candidate = match proposer.next(&rejected) {
            Proposal::Candidate(c) => *c,
            Proposal::Rejected(r) => {
                rejected.push(r);
                continue;
            }
            Proposal::Done => {
                config
                    .rejections
                    .add(&anchor.checked.scenario.id, &rejected);
                return Attempt::Failed;
            }
            Proposal::Wait | Proposal::Stop => return Attempt::Waiting,
        };
        let reject = |reason: String, rejected: &mut Vec<Rejection>| {
            rejected.push(Rejection {
                edits: candidate.edits.clone(),
                reason,
            })
        };
        let sc = match with_oracle(&candidate) {
            Ok(sc) => sc,
            Err(reason) => {
                reject(reason, &mut rejected);
                continue;
            }
        };
        // A decision label is known once the oracle is: a candidate with
        // the wrong one is turned down before the whole compiler runs.
        if let Want::Decision { flip, base } = &want {
            if (decision_label_of(&sc) == **base) == *flip {
                reject(WRONG_LABEL.into(), &mut rejected);
                continue;
            }
        }
        let ev = match compile(sc, &config.options) {
            Ok(ev) => ev,
            Err(reason) => {
                reject(reason, &mut rejected);
                continue;
            }
        };
        let Some(label) = want.label(&ev.checked) else {
            reject(WRONG_LABEL.into(), &mut rejected);
            continue;
        };
        let mut verdicts = critic::judge(anchor.checked, &ev, &candidate.edits, accepted);
        if verdicts.iter().all(|v| v.ok) {
            if let Some(model) = &config.critic_llm {
                match llm::critique(
                    model,
                    templates,
                    anchor.checked,
                    &ev.checked,
                    &candidate,
                    goal,
                ) {
                    Some(v) => verdicts.extend(v),
                    // Waiting for a batch, or stopped: nothing more this run.
                    None => return Attempt::Waiting,
                }
            }
        }
        if !verdicts.iter().all(|v| v.ok) {
            let why: Vec<String> = verdicts
                .iter()
                .filter(|v| !v.ok)
                .map(|v| format!("{}: {}", v.check, v.reason))
                .collect();
            reject(format!("critic: {}", why.join("; ")), &mut rejected);
            continue;
        }
        accepted.insert(ev.text.clone());
        let vignette = vignette(&ev.checked, templates);
        return Attempt::Accepted(Box::new(Variant {
            minimality: Minimality {
                edits: candidate.edits.len(),
                seed_chars: char_distance(&anchor.text, &ev.text),
                vignette_chars: char_distance(&anchor.vignette, &vignette),
            },
            seed_diff: unified(
                &anchor.text,
                &ev.text,
                &format!("{}.cici", anchor.checked.scenario.id),
            ),
            vignette_diff: unified(&anchor.vignette, &vignette, "vignette.md"),
            side: Side {
                seed: ev.text,
                label,
                vignette,
            },
            edits: candidate.edits,
            critic: verdicts,
            rounds: round + 1,
            rejected,
        }));
    }
    config
        .rejections
        .add(&anchor.checked.scenario.id, &rejected);
    Attempt::Failed
}

/// How one side of a triplet came out.
enum Attempt {
    Accepted(Box<Variant>),
    /// No candidate made it within the rounds.
    Failed,
    /// A model's answer waits in a batch (or the model stopped the run).
    Waiting,
}

/// Computes the wanted label of a compiled variant, if it has it.
type LabelFn<'a> = Box<dyn Fn(&Checked) -> Option<Label> + 'a>;

/// Which label a side wants.
enum Want<'a> {
    /// The decision differs from `base` (`flip`) or equals it.
    Decision { flip: bool, base: &'a Label },
    /// A flow label, computed from the compiled variant.
    Flow(LabelFn<'a>),
}

impl Want<'_> {
    fn label(&self, c: &Checked) -> Option<Label> {
        match self {
            Want::Decision { flip, base } => {
                Some(decision_label(c)).filter(|l| (l != *base) == *flip)
            }
            Want::Flow(f) => f(c),
        }
    }
}

/// The model's proposer for one side, or the listed candidates.
fn proposer<'a>(
    config: &'a Config,
    templates: &'a Templates,
    anchor: &'a Anchor,
    goal: &str,
    taken: &[Variant],
    listed: Vec<Candidate>,
) -> Box<dyn Proposer + 'a> {
    match &config.generator_llm {
        Some(model) => Box::new(llm::LlmProposer {
            llm: model,
            templates,
            anchor: anchor.checked,
            seed_text: &anchor.text,
            goal: goal.to_string(),
            taken: taken
                .iter()
                .map(|v| serde_json::to_string(&v.edits).expect("edits serialize"))
                .collect(),
        }),
        None => Box::new(Listed::new(listed)),
    }
}

/// The decision in words, for a goal.
fn decision_words(c: &Checked) -> String {
    crate::analysis::decision_rows(&c.scenario, &c.scenario.oracle)
        .iter()
        .map(|(t, v)| format!("{t} -> {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The triplets of one seed, in a fixed order for a given `config.seed`.
pub fn triplets(seed: &Checked, config: &Config, templates: &Templates) -> Vec<TripletRecord> {
    let sc = &seed.scenario;
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed ^ fnv(&sc.id));
    let text = crate::printer::print(sc);
    // The anchor is the seed in canonical form, compiled again from text.
    let Ok(ev) = evaluate(
        &Candidate {
            scenario: sc.clone(),
            edits: Vec::new(),
        },
        &config.options,
    ) else {
        return Vec::new();
    };
    let anchor_checked = ev.checked;
    let anchor = Anchor {
        checked: &anchor_checked,
        vignette: vignette(&anchor_checked, templates),
        text,
    };
    let mut accepted = std::collections::HashSet::new();
    let mut out = Vec::new();
    for &kind in &config.kinds {
        match kind {
            Kind::Decision => {
                let base = decision_label(&anchor_checked);
                let words = decision_words(&anchor_checked);
                let flip_goal = format!(
                    "make a minimal edit after which the one decision the scenario allows is different from the current one ({words})"
                );
                let hold_goal = format!(
                    "make a minimal edit that leaves the decision exactly as it is ({words}): paraphrase a text and keep what it states, add a personal detail with no bearing on the task, drop a detail the decision does not need, or rename a person"
                );
                let (mut flips_taken, mut holds_taken) = (Vec::new(), Vec::new());
                for k in 0..config.per_seed {
                    // Candidates of every fact and of the public setting,
                    // interleaved so that no single fact uses up the rounds.
                    // Both lists are drawn up front, so that the random
                    // stream does not depend on which side succeeds.
                    let mut flip_list =
                        mutate::decision_flips(&anchor_checked, templates.facts(), &mut rng);
                    flip_list.extend(mutate::public_edits(sc, &mut rng));
                    rand::seq::SliceRandom::shuffle(&mut flip_list[..], &mut rng);
                    let hold_list =
                        mutate::decision_holds(&anchor_checked, templates.facts(), &mut rng);
                    let mut flips = proposer(
                        config,
                        templates,
                        &anchor,
                        &flip_goal,
                        &flips_taken,
                        flip_list,
                    );
                    let flipped = accept(
                        &anchor,
                        flips.as_mut(),
                        &flip_goal,
                        Want::Decision {
                            flip: true,
                            base: &base,
                        },
                        &mut accepted,
                        config,
                        templates,
                    );
                    if matches!(flipped, Attempt::Failed) {
                        break;
                    }
                    let mut holds = proposer(
                        config,
                        templates,
                        &anchor,
                        &hold_goal,
                        &holds_taken,
                        hold_list,
                    );
                    // Tried even while the flip waits for a batch, so that
                    // both sides' requests go out in the same batch.
                    let held = accept(
                        &anchor,
                        holds.as_mut(),
                        &hold_goal,
                        Want::Decision {
                            flip: false,
                            base: &base,
                        },
                        &mut accepted,
                        config,
                        templates,
                    );
                    let (Attempt::Accepted(flipped), Attempt::Accepted(held)) = (flipped, held)
                    else {
                        break;
                    };
                    let (flipped, held) = (*flipped, *held);
                    flips_taken.push(flipped.clone());
                    holds_taken.push(held.clone());
                    out.push(record(
                        sc,
                        kind,
                        k,
                        None,
                        &anchor,
                        base.clone(),
                        flipped,
                        held,
                        config,
                    ));
                }
            }
            Kind::Flow => {
                let mut flows = mutate::flows(&anchor_checked);
                rand::seq::SliceRandom::shuffle(&mut flows[..], &mut rng);
                let mut k = 0;
                for (a, form, p) in flows {
                    if k == config.per_seed {
                        break;
                    }
                    let flow = Flow {
                        attribute: sc.attributes[a].id.clone(),
                        form,
                        person: sc.people[p].id.clone(),
                    };
                    let Some(base) = flow_label(&anchor_checked, &flow) else {
                        continue;
                    };
                    let visible = sc.attributes[a]
                        .form(form)
                        .map(|f| f.visible.clone())
                        .unwrap_or_default();
                    // Flip: the recipient changes; the sentence does not.
                    let flip = mutate::set_visibility(
                        sc,
                        a,
                        form,
                        visible.iter().copied().filter(|&q| q != p).collect(),
                    );
                    // Hold: someone else stops seeing it; this flow is untouched.
                    let holds: Vec<Candidate> = visible
                        .iter()
                        .copied()
                        .filter(|&q| {
                            q != p
                                && q != sc.executor
                                && q != sc.attributes[a].holder
                                && q != sc.attributes[a].about
                        })
                        .map(|q| {
                            mutate::set_visibility(
                                sc,
                                a,
                                form,
                                visible.iter().copied().filter(|&x| x != q).collect(),
                            )
                        })
                        .chain(mutate::rename(
                            sc,
                            (0..sc.people.len())
                                .find(|&q| q != p && q != sc.executor)
                                .unwrap_or(p),
                            &mut rng,
                        ))
                        .collect();
                    let flow_for = |c: &Checked| {
                        // A rename changes ids: follow the anchor's flow by position.
                        let f = Flow {
                            attribute: c.scenario.attributes.get(a)?.id.clone(),
                            form,
                            person: c.scenario.people.get(p)?.id.clone(),
                        };
                        flow_label(c, &f)
                    };
                    let form_name = match form {
                        crate::sema::FormKind::Raw => "raw",
                        crate::sema::FormKind::Sanitized => "sanitized",
                    };
                    let now = if base {
                        "appropriate"
                    } else {
                        "not appropriate"
                    };
                    let flip_goal = format!(
                        "the flow: sharing the {form_name} form of `{}` with `{}`, which is now {now} for the task; make a minimal edit after which it is {}, for instance by changing who may see the form",
                        flow.attribute,
                        flow.person,
                        if base { "not appropriate" } else { "appropriate" }
                    );
                    let hold_goal = format!(
                        "the flow: sharing the {form_name} form of `{}` with `{}`, which is now {now} for the task; make a minimal edit elsewhere that keeps it {now}",
                        flow.attribute, flow.person
                    );
                    let mut flips =
                        proposer(config, templates, &anchor, &flip_goal, &[], vec![flip]);
                    let flipped = accept(
                        &anchor,
                        flips.as_mut(),
                        &flip_goal,
                        Want::Flow(Box::new(|c| {
                            flow_for(c).filter(|&l| l != base).map(Label::Flow)
                        })),
                        &mut accepted,
                        config,
                        templates,
                    );
                    if matches!(flipped, Attempt::Failed) {
                        continue;
                    }
                    let mut held_source =
                        proposer(config, templates, &anchor, &hold_goal, &[], holds);
                    let held = accept(
                        &anchor,
                        held_source.as_mut(),
                        &hold_goal,
                        Want::Flow(Box::new(|c| {
                            flow_for(c).filter(|&l| l == base).map(Label::Flow)
                        })),
                        &mut accepted,
                        config,
                        templates,
                    );
                    let (flipped, held) = match (flipped, held) {
                        (Attempt::Accepted(f), Attempt::Accepted(h)) => (*f, *h),
                        // Later flows wait too, so that a triplet's number
                        // does not depend on which answers are in yet.
                        (Attempt::Waiting, _) | (_, Attempt::Waiting) => break,
                        _ => continue,
                    };
                    out.push(record(
                        sc,
                        kind,
                        k,
                        Some(flow),
                        &anchor,
                        Label::Flow(base),
                        flipped,
                        held,
                        config,
                    ));
                    k += 1;
                }
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn record(
    sc: &Scenario,
    kind: Kind,
    k: usize,
    flow: Option<Flow>,
    anchor: &Anchor,
    label: Label,
    flipped: Variant,
    held: Variant,
    config: &Config,
) -> TripletRecord {
    let kind_name = match kind {
        Kind::Decision => "decision",
        Kind::Flow => "flow",
    };
    TripletRecord {
        id: format!("{}-{kind_name}-{k}", sc.id),
        kind,
        scenario: sc.id.clone(),
        flow,
        anchor: Side {
            seed: anchor.text.clone(),
            label,
            vignette: anchor.vignette.clone(),
        },
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
