//! A flip can move the decision onto the one the anchor's trap led to;
//! that trap then leads nowhere, and the critic turns such a variant down.
//! Rather than lose the side, the trap is re-aimed: its claim is told
//! again so that, honoured, it leads to yet another decision (see
//! `planted::claims::reaim`). The re-aiming is one more edit of the
//! candidate, recorded as every other edit is.

use std::hash::{Hash, Hasher};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::mutate::text_edit;
use crate::counterfactual::base::records::Evaluated;
use crate::counterfactual::base::vocab::{Candidate, Edit};
use crate::planted::claims::{Aim, Proof};
use crate::printer::predicate;
use crate::sema::{FormKind, Scenario};

/// The warning of a trap that leads nowhere.
const NOWHERE: &str = "cici::check::claim_leads_nowhere";

/// Whether the variant has a trap leading nowhere that the anchor did not.
pub(crate) fn needed(anchor_warnings: &[String], ev: &Evaluated) -> bool {
    ev.warnings.iter().any(|w| w == NOWHERE) && !anchor_warnings.iter().any(|w| w == NOWHERE)
}

/// The candidate with the variant's traps re-aimed and the edits that say
/// so; None when no re-aimed claim is proved. Deterministic: the draw is
/// seeded by the variant's text.
pub(crate) fn reaimed(candidate: &Candidate, ev: &Evaluated) -> Option<Candidate> {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    ev.text.hash(&mut hasher);
    let mut rng = ChaCha8Rng::seed_from_u64(hasher.finish());
    // The variant was checked: its proofs are those of its scenario.
    let proof = Proof::checked(&ev.checked.model, &ev.checked.report)?;
    let (scenario, edits) = with_edits(
        &ev.checked.scenario,
        (Aim::Lost, Some(&proof)),
        candidate.edits.clone(),
        &mut rng,
    )?;
    Some(Candidate {
        scenario: scenario.into(),
        edits,
        flow: candidate.flow.clone(),
    })
}

/// A hold that changes what the anchor's trap says and where it leads,
/// and nothing the decision rests on: the same kind of edit a flip makes
/// when it re-aims its trap, so the two read alike in a diff.
pub(crate) fn hold(sc: &Scenario, proof: &Proof, rng: &mut ChaCha8Rng) -> Option<Candidate> {
    let (scenario, edits) = with_edits(sc, (Aim::First, Some(proof)), Vec::new(), rng)?;
    Some(Candidate {
        scenario: scenario.into(),
        edits,
        flow: None,
    })
}

/// A hold `keep` (a fact replaced, the decision kept) with the trap
/// re-aimed besides: the two edits a flip makes when it moves the
/// decision off where the trap led, so that the number of edits does not
/// tell the sides apart either.
pub(crate) fn hold_after(keep: &Candidate, rng: &mut ChaCha8Rng) -> Option<Candidate> {
    let (scenario, edits) =
        with_edits(&keep.scenario, (Aim::First, None), keep.edits.clone(), rng)?;
    Some(Candidate {
        scenario: scenario.into(),
        edits,
        flow: None,
    })
}

/// The scenario with its claims re-aimed (`which`; from `proof` of it
/// when given, else proved afresh), and `edits` with the edits that say
/// so.
fn with_edits(
    sc: &Scenario,
    (which, proof): (Aim, Option<&Proof>),
    mut edits: Vec<Edit>,
    rng: &mut ChaCha8Rng,
) -> Option<(Scenario, Vec<Edit>)> {
    let before = sc;
    let mut sc = sc.clone();
    let changed = match proof {
        Some(p) => crate::planted::claims::reaim_proved(&mut sc, p, which, rng)?,
        None => crate::planted::claims::reaim(&mut sc, which, rng)?,
    };
    for r in changed {
        // A claim told again may be of another category, which the norms
        // give to other people.
        super::mutate::follow_norms(before, r.attribute, &mut sc, r.attribute);
        let holder = sc.attributes[r.attribute].holder;
        if holder != r.holder_from {
            let id = match sc.attributes[r.attribute].category {
                Some(c) => super::mutate::moved_id(before, r.attribute, &sc.people[holder].id, c),
                None => sc.attributes[r.attribute].id.clone(),
            };
            edits.push(Edit::SetHolder {
                attribute: before.attributes[r.attribute].id.clone(),
                from: sc.people[r.holder_from].id.clone(),
                to: sc.people[holder].id.clone(),
            });
            sc.attributes[r.attribute].id = id;
        }
        let attr = &sc.attributes[r.attribute];
        edits.push(Edit::ReplaceFact {
            attribute: attr.id.clone(),
            from: predicate(&sc, &r.from),
            to: predicate(&sc, &r.to),
        });
        edits.push(text_edit(
            &attr.id,
            FormKind::Raw,
            &r.text_from,
            &attr.raw.text,
        ));
    }
    Some((sc, edits))
}
