//! The shortcuts the counterfactual loop takes to a candidate's oracle and
//! flow label answer as the whole proofs do:
//!
//! - what the appropriate facts decide (`decided`, asked of a session
//!   compiled with only those facts, and kept by what the solver is given)
//!   is what brute force over the reference semantics finds, asked once or
//!   again;
//! - whether the task needs a form (`form_needed_proved`, from the
//!   relevance of the attribute's facts alone) is what the whole report
//!   says (`form_needed`);
//! - whether a claim leads a reader to one other decision (`claim_leads`,
//!   which re-aiming a trap asks) is what the whole report says of its
//!   uniqueness and of that claim's trap; and, of a scenario that differs
//!   from one proved unique only in its claims, `claim_leads_unique` (which
//!   takes the uniqueness as proved) answers as `claim_leads` does;
//! - the proofs of the decision alone (`prove_decision`, which re-aiming
//!   the first trap reads) find what the whole proofs find of uniqueness,
//!   relevance, triviality and necessity, and leave the traps unasked.

use proptest::prelude::*;

use cici::analysis::{
    claim_leads, claim_leads_unique, decided, form_needed, form_needed_proved, prove,
    prove_decision, Decided, Options, TrapEffect,
};
use cici::model::{lower, FactStatus};
use cici::sema::*;

use cici::span::Span;

use super::properties::{add_random_facts, brute_allowed, random_fact, small};

fn family(i: u8) -> Family {
    Family::ALL[i as usize % Family::ALL.len()]
}

/// Random claims, each on the attribute its number picks.
fn add_claims(sc: &mut Scenario, claims: &[([usize; 4], usize)]) {
    for (r, at) in claims {
        let predicate = random_fact(sc, r);
        let a = at % sc.attributes.len();
        sc.attributes[a].claims.push(Fact {
            predicate,
            span: Span::DERIVED,
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn decided_agrees_with_brute_force(
        fam in 0u8..4,
        seed in 0u64..10_000,
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..4),
    ) {
        let mut sc = small(family(fam), seed);
        add_random_facts(&mut sc, &extra);
        let model = lower(&sc);
        let on: Vec<bool> = model
            .facts
            .iter()
            .map(|f| f.status == FactStatus::Appropriate)
            .collect();
        let allowed = brute_allowed(&sc, &on);
        let expected = match allowed.len() {
            0 => Decided::Nothing,
            1 => Decided::One(allowed.into_iter().next().expect("one decision")),
            _ => Decided::Several,
        };
        prop_assert_eq!(decided(&model, None), expected.clone());
        // Asked again, the kept answer is the same.
        prop_assert_eq!(decided(&model, None), expected);
    }

    #[test]
    fn form_needed_from_relevance_alone_agrees_with_the_whole_report(
        fam in 0u8..4,
        seed in 0u64..10_000,
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..3),
    ) {
        let mut sc = small(family(fam), seed);
        add_random_facts(&mut sc, &extra);
        let model = lower(&sc);
        let options = Options::default();
        let report = prove(&sc, &model, &options);
        prop_assert!(!report.timed_out);
        for a in 0..sc.attributes.len() {
            for kind in [FormKind::Raw, FormKind::Sanitized] {
                if sc.attributes[a].form(kind).is_none() {
                    continue;
                }
                prop_assert_eq!(
                    form_needed_proved(&sc, &model, a, kind, &options),
                    Some(form_needed(&sc, &report, &model, a, kind)),
                    "attribute {} form {:?}",
                    &sc.attributes[a].id,
                    kind
                );
            }
        }
    }

    #[test]
    fn claim_leads_agrees_with_the_whole_report(
        fam in 0u8..4,
        seed in 0u64..10_000,
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..3),
        claims in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..1000), 1..4),
    ) {
        let mut sc = small(family(fam), seed);
        add_random_facts(&mut sc, &extra);
        add_claims(&mut sc, &claims);
        let model = lower(&sc);
        let options = Options::default();
        let report = prove(&sc, &model, &options);
        prop_assert!(!report.timed_out);
        for a in 0..sc.attributes.len() {
            // One index past the attribute's claims: no fact, so it leads
            // wherever the oracle is unique.
            for i in 0..=sc.attributes[a].claims.len() {
                let leads = model
                    .facts
                    .iter()
                    .zip(&report.facts)
                    .filter(|(f, _)| f.status == FactStatus::Claim)
                    .filter(|(f, _)| (f.origin.attribute, f.origin.index) == (a, i))
                    .all(|(_, r)| matches!(r.trap, Some(TrapEffect::Leads(_))));
                prop_assert_eq!(
                    claim_leads(&sc, &model, (a, i), &options),
                    report.unique && leads,
                    "attribute {} claim {}",
                    &sc.attributes[a].id,
                    i
                );
            }
        }
    }

    #[test]
    fn claim_leads_unique_agrees_where_only_claims_changed(
        fam in 0u8..4,
        seed in 0u64..10_000,
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..3),
        claims in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..1000), 1..4),
        told in (0usize..1000, 0usize..1000),
    ) {
        let mut sc = small(family(fam), seed);
        add_random_facts(&mut sc, &extra);
        let options = Options::default();
        let proved = prove(&sc, &lower(&sc), &options);
        prop_assume!(proved.unique && !proved.timed_out);
        // Claims added, one of them told by another holder, and the
        // categories changed, as re-aiming does.
        add_claims(&mut sc, &claims);
        let a = told.0 % sc.attributes.len();
        sc.attributes[a].pass_to(told.1 % sc.people.len());
        sc.attributes[a].category = Some(Category::Health);
        let model = lower(&sc);
        for a in 0..sc.attributes.len() {
            for i in 0..sc.attributes[a].claims.len() {
                prop_assert_eq!(
                    claim_leads_unique(&sc, &model, (a, i), &options),
                    claim_leads(&sc, &model, (a, i), &options),
                    "attribute {} claim {}",
                    &sc.attributes[a].id,
                    i
                );
            }
        }
    }

    #[test]
    fn prove_decision_agrees_with_prove_on_the_decision(
        fam in 0u8..4,
        seed in 0u64..10_000,
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..3),
        claims in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..1000), 0..3),
    ) {
        let mut sc = small(family(fam), seed);
        add_random_facts(&mut sc, &extra);
        add_claims(&mut sc, &claims);
        let model = lower(&sc);
        let options = Options::default();
        let whole = prove(&sc, &model, &options);
        let decision = prove_decision(&sc, &model, &options);
        prop_assert!(!whole.timed_out && !decision.timed_out);
        prop_assert_eq!(decision.unique, whole.unique);
        prop_assert_eq!(decision.oracle_allowed, whole.oracle_allowed);
        prop_assert_eq!(decision.trivial, whole.trivial);
        prop_assert_eq!(&decision.alternative, &whole.alternative);
        prop_assert!(decision.reader.is_none() && decision.attributes.is_empty());
        for (d, w) in decision.facts.iter().zip(&whole.facts) {
            prop_assert_eq!(d.relevant, w.relevant);
            prop_assert_eq!(&d.forbids, &w.forbids);
            prop_assert_eq!(d.necessary, w.necessary);
            prop_assert_eq!(&d.lets_in, &w.lets_in);
            prop_assert!(d.trap.is_none() && d.drops.is_none());
        }
    }
}
