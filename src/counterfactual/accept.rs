//! The loop of one side: candidates are evaluated, labelled, rendered as
//! items and judged until one is accepted or the rounds run out.

use super::critic::{self, Judged};
use super::item;
use super::mutate::{Candidate, Flow};
use super::{
    decision_label, decision_label_of, evaluate_scenario, flow_label, llm, with_oracle, Config,
    Evaluated, Label, Listed, Minimality, Proposal, Proposer, Rejection, Side, Variant,
    WRONG_LABEL,
};
use crate::build::unified;
use crate::driver::Checked;
use crate::render::{Cue, Templates};

/// Characters inserted or deleted between two texts: a line diff first,
/// then a character diff within each changed run of lines, so that long
/// items with a small change cost little.
pub(super) fn char_distance(a: &str, b: &str) -> usize {
    let lines = similar::TextDiff::from_lines(a, b);
    let old: Vec<&str> = lines.iter_old_slices().collect();
    let new: Vec<&str> = lines.iter_new_slices().collect();
    lines
        .ops()
        .iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
        .map(|op| {
            let x: String = old[op.old_range()].concat();
            let y: String = new[op.new_range()].concat();
            similar::TextDiff::from_chars(&x, &y)
                .ops()
                .iter()
                .map(|op| match op.tag() {
                    similar::DiffTag::Equal => 0,
                    similar::DiffTag::Delete => op.old_range().len(),
                    similar::DiffTag::Insert => op.new_range().len(),
                    similar::DiffTag::Replace => op.old_range().len().max(op.new_range().len()),
                })
                .sum::<usize>()
        })
        .sum()
}

/// The anchor of a seed: compiled from its canonical text.
pub(super) struct Anchor<'a> {
    pub checked: &'a Checked,
    /// The anchor compiled: what a candidate with no seed edit evaluates to.
    pub ev: &'a Evaluated,
    pub text: String,
}

/// Which label a side wants.
pub(super) enum Want<'a> {
    /// The decision differs from `base` (`flip`) or equals it; a flip
    /// also avoids the decisions in `avoid`.
    Decision {
        flip: bool,
        base: &'a Label,
        avoid: &'a [&'a Label],
        /// The cue condition of the items.
        cue: Cue,
    },
    /// A flow label that differs from `base` (`flip`) or equals it. The
    /// flow is the candidate's own, or else the anchor's followed by
    /// position (attribute and person index) through renames.
    Flow {
        flip: bool,
        base: bool,
        at: (usize, usize),
        anchor: &'a Flow,
    },
}

impl Want<'_> {
    /// The flow a compiled candidate asks about.
    fn flow(&self, c: &Checked, candidate: &Candidate) -> Option<Flow> {
        let Want::Flow { at, anchor, .. } = self else {
            return None;
        };
        if let Some(f) = &candidate.flow {
            return Some(f.clone());
        }
        Some(Flow {
            attribute: c.scenario.attributes.get(at.0)?.id.clone(),
            form: anchor.form,
            person: c.scenario.people.get(at.1)?.id.clone(),
        })
    }

    fn label(&self, c: &Checked, flow: Option<&Flow>) -> Option<Label> {
        match self {
            Want::Decision {
                flip, base, avoid, ..
            } => Some(decision_label(c)).filter(|l| (l != *base) == *flip && !avoid.contains(&l)),
            Want::Flow { flip, base, .. } => flow_label(c, flow?)
                .filter(|&l| (l != *base) == *flip)
                .map(Label::Flow),
        }
    }
}

/// How one side of a triplet came out.
pub(super) enum Attempt {
    Accepted(Box<Variant>),
    /// No candidate made it within the rounds.
    Failed,
    /// A model's answer waits in a batch (or the model stopped the run).
    Waiting,
}

/// One side's search.
pub(super) struct Search<'a> {
    pub anchor: &'a Anchor<'a>,
    /// The anchor's side, item included.
    pub side: &'a Side,
    pub goal: &'a str,
    pub want: Want<'a>,
}

/// Renders a variant's item, or why it cannot be.
fn item_of(
    c: &Checked,
    want: &Want,
    flow: Option<&Flow>,
    templates: &Templates,
) -> Result<String, String> {
    let rendered = match (want, flow) {
        (Want::Decision { cue, .. }, _) => item::decision_item(c, templates, *cue),
        (_, Some(f)) => item::flow_item(c, f, templates),
        (_, None) => return Err("the variant asks about no flow".into()),
    };
    rendered.map_err(|e| format!("the item does not render: {e}"))
}

/// Tries candidates until one is accepted: it compiles, has the wanted
/// label relation to the anchor, reads differently, and passes the critic
/// (and the model critic, when one is configured).
pub(super) fn accept(
    s: &Search,
    proposer: &mut dyn Proposer,
    accepted: &mut std::collections::HashSet<String>,
    config: &Config,
    templates: &Templates,
) -> Attempt {
    let anchor = s.anchor;
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
        // A candidate that only asks about another flow is the anchor's
        // seed: it is compiled already.
        let fresh;
        let ev: &Evaluated = if candidate.edits.is_empty() && candidate.flow.is_some() {
            anchor.ev
        } else {
            let sc = match with_oracle(&candidate) {
                Ok(sc) => sc,
                Err(reason) => {
                    reject(reason, &mut rejected);
                    continue;
                }
            };
            // A decision label is known once the oracle is: a candidate with
            // the wrong one is turned down before the whole compiler runs.
            if let Want::Decision {
                flip, base, avoid, ..
            } = &s.want
            {
                let label = decision_label_of(&sc);
                if (label == **base) == *flip || avoid.contains(&&label) {
                    reject(WRONG_LABEL.into(), &mut rejected);
                    continue;
                }
            }
            match evaluate_scenario(sc, &config.options) {
                Ok(ev) => {
                    fresh = ev;
                    &fresh
                }
                Err(reason) => {
                    reject(reason, &mut rejected);
                    continue;
                }
            }
        };
        let flow = s.want.flow(&ev.checked, &candidate);
        let Some(label) = s.want.label(&ev.checked, flow.as_ref()) else {
            reject(WRONG_LABEL.into(), &mut rejected);
            continue;
        };
        let item = match item_of(&ev.checked, &s.want, flow.as_ref(), templates) {
            Ok(item) => item,
            Err(reason) => {
                reject(reason, &mut rejected);
                continue;
            }
        };
        let changes_flow = flow.is_some() && candidate.flow.is_some() && flow != s.side.flow;
        let mut verdicts = critic::judge(
            &Judged {
                anchor: anchor.checked,
                anchor_item: &s.side.item,
                anchor_warnings: &anchor.ev.warnings,
                variant: ev,
                item: &item,
                edits: &candidate.edits,
                changes_flow,
                may_add: match s.want {
                    Want::Flow { .. } => &["idle_fact"],
                    Want::Decision { .. } => &[],
                },
                traps: matches!(s.want, Want::Decision { .. }),
            },
            accepted,
        );
        if verdicts.iter().all(|v| v.ok) {
            if let Some(model) = &config.critic_llm {
                match llm::critique(
                    model,
                    templates,
                    anchor.checked,
                    &ev.checked,
                    &candidate,
                    s.goal,
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
        accepted.insert(critic::accepted_key(&ev.text, &item));
        let text = ev.text.clone();
        let answer = match &label {
            Label::Flow(l) => item::flow_answer(*l),
            Label::Decision(_) => item::answer(&ev.checked.scenario, &ev.checked.scenario.oracle),
        };
        let change = item::change(&candidate.edits, s.side.flow.as_ref(), flow.as_ref());
        return Attempt::Accepted(Box::new(Variant {
            minimality: Minimality {
                edits: candidate.edits.len(),
                seed_chars: char_distance(&anchor.text, &text),
                item_chars: char_distance(&s.side.item, &item),
            },
            seed_diff: unified(
                &format!("{}.cici", anchor.checked.scenario.id),
                &anchor.text,
                &text,
                true,
            ),
            item_diff: unified("item.md", &s.side.item, &item, true),
            change,
            side: Side {
                seed: text,
                label,
                answer,
                reasons: flow
                    .as_ref()
                    .and_then(|f| super::flow_reasons(&ev.checked, f)),
                condition: s.side.condition.clone(),
                traps: match s.want {
                    Want::Decision { .. } => super::traps(&ev.checked),
                    Want::Flow { .. } => Vec::new(),
                },
                flow,
                item,
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

/// The model's proposer for one side, or the listed candidates.
pub(super) fn proposer<'a>(
    config: &'a Config,
    templates: &'a Templates,
    anchor: &'a Anchor,
    goal: &str,
    taken: &[Variant],
    listed: Vec<Candidate>,
    flows: bool,
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
        None if flows => Box::new(Listed::for_flows(listed)),
        None => Box::new(Listed::new(listed)),
    }
}
