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

pub mod critic;
pub mod mutate;
pub mod output;

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
    /// `symbolic`.
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
    let mut sc = candidate.scenario.clone();
    let model = crate::model::lower(&sc);
    let mut session = crate::solver::Session::new(&model, None);
    let on: Vec<bool> = model
        .facts
        .iter()
        .map(|f| f.status == crate::model::FactStatus::Appropriate)
        .collect();
    let crate::solver::Outcome::Sat(first) = session.solve(&on, &[]) else {
        return Err("the edited facts allow no decision".into());
    };
    let other = session.differ_from(&first);
    if let crate::solver::Outcome::Sat(_) = session.solve(&on, &[other]) {
        return Err("the edited facts allow more than one decision".into());
    }
    sc.oracle = model.decode(&first);
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
    Label::Decision(
        crate::analysis::decision_rows(&c.scenario, &c.scenario.oracle)
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
/// label relation to the anchor, and passes the critic.
fn accept(
    anchor: &Anchor,
    candidates: Vec<Candidate>,
    want: impl Fn(&Checked) -> Option<Label>,
    accepted: &mut std::collections::HashSet<String>,
    config: &Config,
    templates: &Templates,
) -> Option<Variant> {
    let mut rejected = Vec::new();
    for (round, candidate) in candidates.into_iter().take(config.rounds).enumerate() {
        let reject = |reason: String, rejected: &mut Vec<Rejection>| {
            rejected.push(Rejection {
                edits: candidate.edits.clone(),
                reason,
            })
        };
        let ev = match evaluate(&candidate, &config.options) {
            Ok(ev) => ev,
            Err(reason) => {
                reject(reason, &mut rejected);
                continue;
            }
        };
        let Some(label) = want(&ev.checked) else {
            reject("the label is not the one wanted".into(), &mut rejected);
            continue;
        };
        let verdicts = critic::judge(anchor.checked, &ev, &candidate.edits, accepted);
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
        return Some(Variant {
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
        });
    }
    None
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
                for k in 0..config.per_seed {
                    // Candidates of every fact and of the public setting,
                    // interleaved so that no single fact uses up the rounds.
                    let mut flips =
                        mutate::decision_flips(&anchor_checked, templates.facts(), &mut rng);
                    flips.extend(mutate::public_edits(sc, &mut rng));
                    rand::seq::SliceRandom::shuffle(&mut flips[..], &mut rng);
                    let holds =
                        mutate::decision_holds(&anchor_checked, templates.facts(), &mut rng);
                    let flip_label = |c: &Checked| Some(decision_label(c)).filter(|l| *l != base);
                    let hold_label = |c: &Checked| Some(decision_label(c)).filter(|l| *l == base);
                    let Some(flipped) =
                        accept(&anchor, flips, flip_label, &mut accepted, config, templates)
                    else {
                        break;
                    };
                    let Some(held) =
                        accept(&anchor, holds, hold_label, &mut accepted, config, templates)
                    else {
                        break;
                    };
                    out.push(record(
                        sc,
                        kind,
                        k,
                        None,
                        &anchor,
                        base.clone(),
                        flipped,
                        held,
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
                            attribute: c.scenario.attributes[a].id.clone(),
                            form,
                            person: c.scenario.people[p].id.clone(),
                        };
                        flow_label(c, &f)
                    };
                    let Some(flipped) = accept(
                        &anchor,
                        vec![flip],
                        |c| flow_for(c).filter(|&l| l != base).map(Label::Flow),
                        &mut accepted,
                        config,
                        templates,
                    ) else {
                        continue;
                    };
                    let Some(held) = accept(
                        &anchor,
                        holds,
                        |c| flow_for(c).filter(|&l| l == base).map(Label::Flow),
                        &mut accepted,
                        config,
                        templates,
                    ) else {
                        continue;
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
        generator: "symbolic".into(),
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
