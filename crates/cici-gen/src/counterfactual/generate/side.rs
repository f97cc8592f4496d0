//! Side findings in holds: findings about checks or signals of a rule
//! family that the scenario's rules do not name (see
//! `planted::severity::side_findings`). A hold tells one again in another
//! state, or adds one, as a flip sets or adds a finding that counts: the
//! diff then shows a state change that a reader has to check against the
//! rules.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::mutate::text_edit;
use crate::counterfactual::base::vocab::{Candidate, Edit};
use crate::phrasing::FactTexts;
use crate::sema::{FormKind, PersonId, Scenario};

/// A finding about something no rule names, told again in other states
/// (`failed`, `present`), as a flip sets a finding that counts: the diff
/// then shows a state change a reader must check against the rules.
pub(crate) fn told_again(
    sc: &Scenario,
    texts: &FactTexts,
    rng: &mut ChaCha8Rng,
    out: &mut Vec<Candidate>,
) {
    let mut states: Vec<&String> = sc
        .rule_setting()
        .map(crate::planted::finding_states)
        .unwrap_or_default();
    states.sort();
    states.dedup();
    states.shuffle(rng);
    let named: Vec<&str> = sc
        .rule_setting()
        .map(|ss| {
            ss.evidence
                .iter()
                .filter_map(|e| crate::phrasing::evidence_name(texts, &e.id))
                .collect()
        })
        .unwrap_or_default();
    for (a, attr) in sc.attributes.iter().enumerate() {
        let side = attr.raw.facts.is_empty()
            && attr.claims.is_empty()
            && attr.soft.is_empty()
            && attr.sanitized.is_none()
            && crate::phrasing::stated_state(texts, &attr.raw.text).is_some();
        // Never a finding the rules name: told in another state, a text
        // would state a value no fact carries.
        let Some(thing) = crate::phrasing::named_evidence(texts, &attr.raw.text)
            .filter(|t| side && !named.contains(t))
        else {
            continue;
        };
        if !seen_by_executor(sc, a, FormKind::Raw) {
            continue;
        }
        for state in states.iter().take(SIDE_STATES) {
            let Some(text) = crate::phrasing::side_finding(texts, thing, state, rng) else {
                continue;
            };
            if text == attr.raw.text {
                continue;
            }
            let mut v = sc.clone();
            v.attributes[a].raw.text = text.clone();
            out.push(Candidate {
                flow: None,
                edits: vec![text_edit(&attr.id, FormKind::Raw, &attr.raw.text, &text)],
                scenario: v.into(),
            });
        }
    }
}

/// A new finding from a teammate about a check or signal of the family
/// that the rules do not name, as a completed flip adds one that counts.
pub(crate) fn added(sc: &Scenario, texts: &FactTexts, rng: &mut ChaCha8Rng) -> Option<Candidate> {
    let ss = sc.rule_setting()?;
    let told = |name: &str| sc.attributes.iter().any(|a| a.raw.text.contains(name));
    let unused: Vec<&str> = crate::planted::side_names(sc)
        .into_iter()
        .filter(|name| !told(name))
        .collect();
    let states = crate::planted::finding_states(ss);
    let people: Vec<PersonId> = (0..sc.people.len()).filter(|&p| p != sc.executor).collect();
    if unused.is_empty() || states.is_empty() || people.is_empty() {
        return None;
    }
    let thing = unused[rng.random_range(0..unused.len())];
    let state = states[rng.random_range(0..states.len())];
    let text = crate::phrasing::side_finding(texts, thing, state, rng)?;
    let holder = people[rng.random_range(0..people.len())];
    let category = crate::sema::Category::Operational;
    let (mut v, edit) = with_detail(sc, holder, category, text, "finding");
    // Told to the team as the norms let an operational detail go.
    let added = v.attributes.last().expect("just added");
    let visible = v.derived_visibility(added, FormKind::Raw);
    v.attributes.last_mut().expect("just added").raw.visible = visible;
    Some(Candidate {
        flow: None,
        scenario: v.into(),
        edits: vec![edit],
    })
}

/// The scenario with a new detail of `holder` that states no fact, under
/// a free id `<holder>_<stem>_<n>`, and the edit that says so.
pub(crate) fn with_detail(
    sc: &Scenario,
    holder: PersonId,
    category: crate::sema::Category,
    text: String,
    stem: &str,
) -> (Scenario, Edit) {
    let mut v = sc.clone();
    let id = (1..)
        .map(|n| format!("{}_{stem}_{n}", sc.people[holder].id))
        .find(|id| sc.attribute(id).is_none())
        .expect("some id is free");
    crate::planted::push_attribute(
        &mut v,
        holder,
        Some(category),
        text.clone(),
        None,
        Vec::new(),
        Vec::new(),
    );
    v.attributes.last_mut().expect("just pushed").id = id.clone();
    let edit = Edit::AddAttribute {
        attribute: id,
        holder: sc.people[holder].id.clone(),
        text,
        fact: None,
    };
    (v, edit)
}

/// States a side finding is told in, at most, per hold list.
const SIDE_STATES: usize = 3;

/// Whether the executor sees attribute `a`'s form of `kind`.
pub(crate) fn seen_by_executor(sc: &Scenario, a: usize, kind: FormKind) -> bool {
    sc.attributes[a]
        .form(kind)
        .is_some_and(|f| f.visible.contains(&sc.executor))
}
