//! Flow triplets: whether one form of one attribute may go to one person
//! for the task. A flip changes the context, not the information: the
//! recipient, the wording (raw or sanitized), or whom the holder shared the
//! form with. A hold changes what the reader sees and keeps the label.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::accept::{accept, proposer, Anchor, Attempt, Search, Want};
use super::mutate::{self, Candidate, Flow};
use super::{flow_label, item, record, Config, Kind, Label, Side, TripletRecord};
use crate::driver::Checked;
use crate::render::{RenderError, Templates};
use crate::sema::{FormKind, PersonId, Scenario};

/// A flow by position: attribute index, form, recipient index.
type At = (usize, FormKind, PersonId);

/// Every flow worth asking about: each form of an attribute whose fact is
/// evidence for the task, to each person but its holder. (A flow of a
/// detail that does not matter is never appropriate, whatever the context.)
fn flows(c: &Checked) -> Vec<At> {
    let sc = &c.scenario;
    let mut out = Vec::new();
    for (a, attr) in sc.attributes.iter().enumerate() {
        if !crate::export::is_evidence(&c.report, &c.model, a) {
            continue;
        }
        let forms = std::iter::once(FormKind::Raw)
            .chain(attr.sanitized.as_ref().map(|_| FormKind::Sanitized));
        for kind in forms {
            for p in (0..sc.people.len()).filter(|&p| p != attr.holder) {
                out.push((a, kind, p));
            }
        }
    }
    out
}

fn flow_at(sc: &Scenario, (a, form, p): At) -> Flow {
    Flow {
        attribute: sc.attributes[a].id.clone(),
        form,
        person: sc.people[p].id.clone(),
    }
}

/// The same seed asking about another flow.
fn ask(shared: &std::sync::Arc<Scenario>, at: At) -> Candidate {
    let sc = shared.as_ref();
    Candidate {
        scenario: shared.clone(),
        edits: Vec::new(),
        flow: Some(flow_at(sc, at)),
    }
}

/// Flips and holds offered for one anchor flow, before the prover labels
/// them: other recipients, the other wording, and visibility edits.
fn context_changes(
    shared: &std::sync::Arc<Scenario>,
    (a, form, p): At,
    rng: &mut ChaCha8Rng,
) -> Vec<Candidate> {
    let sc = shared.as_ref();
    let attr = &sc.attributes[a];
    let mut out: Vec<Candidate> = (0..sc.people.len())
        .filter(|&q| q != p && q != attr.holder)
        .map(|q| ask(shared, (a, form, q)))
        .collect();
    let other = match form {
        FormKind::Raw => FormKind::Sanitized,
        FormKind::Sanitized => FormKind::Raw,
    };
    if attr.form(other).is_some() {
        out.push(ask(shared, (a, other, p)));
    }
    let visible = attr
        .form(form)
        .map(|f| f.visible.clone())
        .unwrap_or_default();
    // The holder shares with the recipient, or stops sharing with them.
    let toggled: Vec<PersonId> = if visible.contains(&p) {
        visible.iter().copied().filter(|&q| q != p).collect()
    } else {
        let mut v = visible.clone();
        v.push(p);
        v.sort_unstable();
        v
    };
    out.push(mutate::set_visibility(sc, a, form, toggled));
    out.shuffle(rng);
    out
}

/// Holds that touch neither the form nor the recipient: someone else's
/// sharing, or a person renamed.
fn other_holds(sc: &Scenario, (a, form, p): At, rng: &mut ChaCha8Rng) -> Vec<Candidate> {
    let attr = &sc.attributes[a];
    let visible = attr
        .form(form)
        .map(|f| f.visible.clone())
        .unwrap_or_default();
    let mut out: Vec<Candidate> = (0..sc.people.len())
        .filter(|&q| q != p && q != attr.holder && q != sc.executor)
        .map(|q| {
            let to: Vec<PersonId> = if visible.contains(&q) {
                visible.iter().copied().filter(|&x| x != q).collect()
            } else {
                let mut v = visible.clone();
                v.push(q);
                v.sort_unstable();
                v
            };
            mutate::set_visibility(sc, a, form, to)
        })
        .collect();
    let mut people: Vec<PersonId> = (0..sc.people.len()).filter(|&q| q != sc.executor).collect();
    people.shuffle(rng);
    out.extend(
        people
            .into_iter()
            .take(2)
            .filter_map(|q| mutate::rename(sc, q, rng)),
    );
    out.shuffle(rng);
    out
}

/// The flow triplets of one anchor, balanced: anchors whose flow is
/// appropriate and anchors whose flow is not take turns, so that the
/// position of a side never predicts its label.
pub(super) fn triplets(
    anchor: &Anchor,
    config: &Config,
    templates: &Templates,
    rng: &mut ChaCha8Rng,
    accepted: &mut std::collections::HashSet<String>,
) -> Result<Vec<TripletRecord>, RenderError> {
    let c = anchor.checked;
    let sc = &c.scenario;
    let mut pools: [Vec<At>; 2] = [Vec::new(), Vec::new()];
    for at in flows(c) {
        if let Some(l) = flow_label(c, &flow_at(sc, at)) {
            pools[usize::from(l)].push(at);
        }
    }
    for pool in &mut pools {
        pool.shuffle(rng);
        pool.reverse(); // popped from the back: keep the shuffled order
    }
    let shared = std::sync::Arc::new(sc.clone());
    let mut made = [0usize; 2];
    let mut out = Vec::new();
    while out.len() < config.per_seed {
        // The label with fewer triplets so far goes next, if it has flows left.
        let want = if made[1] <= made[0] { 1 } else { 0 };
        // The other label only while the two are even, so that a seed
        // never gives more than one triplet more of one label than the other.
        let next = match pools[want].pop() {
            Some(at) => Some(at),
            None if made[1 - want] <= made[want] => pools[1 - want].pop(),
            None => None,
        };
        let Some(at) = next else {
            break;
        };
        let flow = flow_at(sc, at);
        let base = flow_label(c, &flow).expect("the flow exists");
        let side = Side {
            seed: anchor.text.clone(),
            label: Label::Flow(base),
            answer: item::flow_answer(base),
            flow: Some(flow.clone()),
            item: item::flow_item(c, &flow, templates)?,
        };
        // Both lists are drawn up front, so that the random stream does not
        // depend on which side succeeds.
        let changes = context_changes(&shared, at, rng);
        let mut holds = other_holds(sc, at, rng);
        holds.extend(changes.iter().cloned());
        let form_name = at.1.name();
        let now = if base {
            "appropriate"
        } else {
            "not appropriate"
        };
        let flip_goal = format!(
            "the flow: sharing the {form_name} form of `{}` with `{}`, which is now {now} for the task; make a minimal edit after which it is {}, for instance by changing whom the holder shares the form with",
            flow.attribute,
            flow.person,
            if base { "not appropriate" } else { "appropriate" }
        );
        let hold_goal = format!(
            "the flow: sharing the {form_name} form of `{}` with `{}`, which is now {now} for the task; make a minimal edit elsewhere that keeps it {now} and that a reader of the item sees",
            flow.attribute, flow.person
        );
        let want_at = (at.0, at.2);
        let mut flips = proposer(config, templates, anchor, &flip_goal, &[], changes);
        let flipped = accept(
            &Search {
                anchor,
                side: &side,
                goal: &flip_goal,
                want: Want::Flow {
                    flip: true,
                    base,
                    at: want_at,
                    anchor: &flow,
                },
            },
            flips.as_mut(),
            accepted,
            config,
            templates,
        );
        if matches!(flipped, Attempt::Failed) {
            continue;
        }
        let mut held_source = proposer(config, templates, anchor, &hold_goal, &[], holds);
        let held = accept(
            &Search {
                anchor,
                side: &side,
                goal: &hold_goal,
                want: Want::Flow {
                    flip: false,
                    base,
                    at: want_at,
                    anchor: &flow,
                },
            },
            held_source.as_mut(),
            accepted,
            config,
            templates,
        );
        let (flipped, held) = match (flipped, held) {
            (Attempt::Accepted(f), Attempt::Accepted(h)) => (*f, *h),
            // Later flows wait too, so that which triplets a run makes does
            // not depend on which answers are in yet.
            (Attempt::Waiting, _) | (_, Attempt::Waiting) => break,
            _ => continue,
        };
        made[usize::from(base)] += 1;
        out.push(record(sc, Kind::Flow, side, flipped, held, config));
    }
    Ok(out)
}
