//! The constraints a lowering adds as consequences of facts (the JIRA
//! loads that capacities imply together) are consequences: every decision
//! brute force allows, with the facts a constraint follows from in force,
//! meets it. The reference shares no code with the lowering.

use proptest::prelude::*;

use cici::model::{lower, Constraint, Lit, Model};
use cici::sema::*;

use super::properties::{add_fact, predicates, small, vary_tickets};

/// Whether the decision `choice` (an option per group) meets `c`.
fn meets(model: &Model, choice: &[usize], c: &Constraint) -> bool {
    let chosen: Vec<_> = model
        .decision_groups
        .iter()
        .zip(choice)
        .map(|(g, &o)| g.options[o])
        .collect();
    let is_true = |l: &Lit| chosen.contains(&l.var()) != l.is_neg();
    match c {
        Constraint::Clause(lits) => lits.iter().any(is_true),
        Constraint::AtMost { terms, bound } => {
            terms
                .iter()
                .filter(|(l, _)| is_true(l))
                .map(|(_, w)| u64::from(*w))
                .sum::<u64>()
                <= u64::from(*bound)
        }
    }
}

/// A small JIRA scenario with a capacity for most people; returns how many
/// implied constraints were checked, over how many decisions.
fn check(seed: u64, hours: &[u32]) -> (usize, usize) {
    let mut sc = small(Family::JiraAllocation, seed);
    vary_tickets(&mut sc, seed);
    for (person, &h) in hours.iter().enumerate().take(sc.people.len()) {
        // 0 and 1 mean no capacity: someone without one takes what is left.
        if h >= 2 {
            let p = Predicate::Jira(JiraPredicate::Capacity {
                person,
                hours: h - 2,
            });
            add_fact(&mut sc, p, (seed % 3) as usize);
        }
    }
    let model = lower(&sc);
    let preds = predicates(&sc);
    let mut decisions = 0;
    for imp in &model.implied {
        let on: Vec<&Predicate> = imp.when.iter().map(|&f| &preds[f]).collect();
        for d in super::reference::allowed_set(&sc, &on) {
            let choice = model
                .encode(&d)
                .expect("an allowed decision fits the groups");
            assert!(
                meets(&model, &choice, &imp.constraint),
                "{d:?} breaks {:?}, implied by {:?}",
                imp.constraint,
                on
            );
            decisions += 1;
        }
    }
    (model.implied.len(), decisions)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn implied_loads_hold_wherever_their_capacities_do(
        seed in 0u64..10_000,
        hours in proptest::collection::vec(0u32..12, 4),
    ) {
        check(seed, &hours);
    }
}

/// The property is not vacuous: the scenarios it walks have implied
/// constraints, and decisions to hold them to.
#[test]
fn small_scenarios_have_implied_loads_to_check() {
    let (mut constraints, mut decisions) = (0, 0);
    for seed in 0..40 {
        let (c, d) = check(seed, &[3, 4, 1, 5]);
        constraints += c;
        decisions += d;
    }
    assert!(
        constraints >= 40,
        "{constraints} implied constraints, {decisions} decisions"
    );
    assert!(decisions >= 40, "{decisions} decisions checked");
}
