//! Holds that move a detail to another person, as most allocation flips
//! do: a flip gives a critical fact (`cannot_own(wen, eng_545)`) to
//! someone else and so lets another decision in; a hold gives a
//! supporting fact to someone else and the decision stays. Without them a
//! moved detail would read as a flip.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::mutate::{decides, flip_candidate, reads_well, with_fact};
use crate::analysis::Class;
use crate::counterfactual::base::vocab::Candidate;
use crate::driver::Checked;
use crate::model::FactStatus;
use crate::phrasing::FactTexts;
use crate::sema::{ArgValue, PersonId, Predicate};

/// People tried, at most, for each supporting fact.
const TRIES: usize = 2;

/// Moved holds offered, at most, per seed: as many as a seed's triplets
/// may pair with flips that move a detail. Each costs a proof.
const MOVED: usize = 2;

/// For each supporting fact about someone, the same fact about another
/// teammate, the detail moving to them, when the oracle is still the one
/// decision allowed (one per fact, [`MOVED`] in all, at most).
pub(crate) fn supporting(c: &Checked, texts: &FactTexts, rng: &mut ChaCha8Rng) -> Vec<Candidate> {
    let sc = &c.scenario;
    let mut out = Vec::new();
    let mut facts: Vec<(usize, usize)> = c
        .report
        .attributes
        .iter()
        .enumerate()
        .filter(|(_, finding)| finding.class == Class::Supporting)
        .flat_map(|(a, finding)| finding.facts.iter().map(move |&f| (a, f)))
        .collect();
    facts.shuffle(rng);
    // The scenario each new fact is tried in, and taken back from.
    let mut work = sc.clone();
    for (a, f) in facts {
        if out.len() >= MOVED {
            break;
        }
        if c.model.facts[f].status != FactStatus::Appropriate {
            continue;
        }
        let index = c.model.facts[f].origin.index;
        let old = &sc.attributes[a].fact_form().1.facts[index].predicate;
        let Some(subject) = old.subject() else {
            continue;
        };
        let mut others: Vec<PersonId> = (0..sc.people.len())
            .filter(|&p| p != subject && p != sc.executor)
            .collect();
        others.shuffle(rng);
        let found = others
            .into_iter()
            .filter_map(|p| about(old, p))
            .filter(|p| reads_well(p) && crate::model::direct::allowed(sc, &sc.oracle, &[p]))
            .take(TRIES)
            .find(|p| keeps_and_bears(&mut work, (a, index), p));
        if let Some(new) = found {
            out.push(flip_candidate(texts, sc, (a, index), old, new, true, rng));
        }
    }
    out
}

/// Whether, once fact `at` (attribute, index among its form's facts) is
/// `new`, the oracle is still the one decision allowed and the fact still
/// rules out a decision the public setting allows: a moved fact about
/// someone it cannot bear on is idle, and a writer would drop it.
fn keeps_and_bears(work: &mut crate::sema::Scenario, at: (usize, usize), new: &Predicate) -> bool {
    with_fact(work, at, new, |v| {
        let model = crate::model::lower(v);
        let kind = v.attributes[at.0].fact_form().0;
        // No deadline, as for the oracle: the output must not depend on
        // the machine's speed.
        let options = crate::analysis::Options { max_solve: None };
        decides(&model, &v.oracle)
            && crate::analysis::form_needed_proved(v, &model, at.0, kind, &options) == Some(true)
    })
}

/// `p` about `person` in place of its subject.
fn about(p: &Predicate, person: PersonId) -> Option<Predicate> {
    let i = p.spec().subject?;
    let mut args = p.args();
    *args.get_mut(i)? = ArgValue::Person(person);
    Predicate::from_args(p.kind(), &args)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::analysis::{decided, Decided, Options};
    use crate::counterfactual::base::vocab::Edit;
    use crate::driver::Run;
    use crate::sema::Family;

    /// Every moved hold of planted allocation seeds moves its detail,
    /// leaves no other fact idle than the seed has and keeps the oracle as the one decision, read
    /// back from its printed text.
    #[test]
    fn a_moved_supporting_fact_keeps_the_oracle() {
        let mut moved = 0;
        for family in [Family::JiraAllocation, Family::MeetingAllocation] {
            for seed in 0..6 {
                let mut config = crate::planted::Config::pisas(family, seed);
                config.norms = true;
                let text = crate::printer::print(&crate::planted::generate(&config));
                let mut run = Run::new();
                run.check_text("seed.cici", text, &Options::default());
                let c = &run.checked[0];
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for h in supporting(c, FactTexts::builtin(), &mut rng) {
                    assert!(h.edits.iter().any(|e| matches!(e, Edit::SetHolder { .. })));
                    let mut back = Run::new();
                    back.check_text(
                        "hold.cici",
                        crate::printer::print(&h.scenario),
                        &Options::default(),
                    );
                    let idle = |r: &crate::analysis::Report| {
                        r.facts.iter().filter(|f| f.relevant == Some(false)).count()
                    };
                    assert_eq!(
                        idle(&back.checked[0].report),
                        idle(&c.report),
                        "a fact went idle"
                    );
                    let model = crate::model::lower(&back.checked[0].scenario);
                    assert!(
                        matches!(decided(&model, None), Decided::One(d) if d == c.scenario.oracle)
                    );
                    moved += 1;
                }
            }
        }
        assert!(moved >= 3, "only {moved} moved holds");
    }
}
