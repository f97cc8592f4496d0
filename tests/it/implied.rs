//! The constraints a lowering adds as consequences of facts (the JIRA
//! loads that capacities imply together) are consequences: every decision
//! brute force allows, with the facts a constraint follows from in force,
//! meets it. The reference shares no code with the lowering. And the
//! clausal encoding of weighted constraints, for a backend without a
//! propagator of its own, allows what brute force allows.

use std::collections::BTreeSet;

use proptest::prelude::*;

use cici::model::{lower, Constraint, Lit, Model};
use cici::sema::*;
use cici::solver::{Backend, BatsatBackend, Outcome, Purpose, Session};

use super::properties::{
    add_fact, add_random_facts, brute_allowed, masked, predicates, small, vary_tickets,
};

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

/// BatSat without its at-most theory: every weighted constraint goes to
/// RustSAT's generalized totalizer, the encoding for a backend that has no
/// propagator of its own.
#[derive(Default)]
struct Clausal(BatsatBackend);

impl Backend for Clausal {
    fn reserve(&mut self, n: u32) {
        self.0.reserve(n);
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.0.add_clause(lits);
    }
    fn solve(&mut self, assumptions: &[Lit], deadline: Option<std::time::Instant>) -> Option<bool> {
        self.0.solve(assumptions, deadline)
    }
    fn value(&self, lit: Lit) -> bool {
        self.0.value(lit)
    }
    fn failed_assumptions(&mut self) -> Vec<Lit> {
        self.0.failed_assumptions()
    }
}

/// Every decision a session on the clausal backend allows.
fn clausal_allowed(sc: &Scenario, in_force: &[bool]) -> BTreeSet<Decision> {
    let model = lower(sc);
    let mut session = Session::with_backend(&model, Clausal::default(), None, Purpose::Decide);
    let mut blocks = Vec::new();
    let mut out = BTreeSet::new();
    while let Outcome::Sat(choice) = session.solve(in_force, &blocks) {
        assert!(out.insert(model.decode(&choice)), "a decision found twice");
        blocks.push(session.differ_from(&choice));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The totalizer path, implied constraints included, allows what brute
    /// force allows.
    #[test]
    fn the_clausal_encoding_agrees_with_brute_force(
        seed in 0u64..10_000,
        jira in any::<bool>(),
        hours in proptest::collection::vec(0u32..12, 4),
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..4),
        mask_bits in any::<u64>(),
    ) {
        let family = if jira { Family::JiraAllocation } else { Family::MeetingAllocation };
        let mut sc = small(family, seed);
        if jira {
            vary_tickets(&mut sc, seed);
            for (person, &h) in hours.iter().enumerate().take(sc.people.len()) {
                if h >= 2 {
                    let p = Predicate::Jira(JiraPredicate::Capacity { person, hours: h - 2 });
                    add_fact(&mut sc, p, 0);
                }
            }
        }
        add_random_facts(&mut sc, &extra);
        let in_force = masked(&sc, mask_bits);
        prop_assert_eq!(clausal_allowed(&sc, &in_force), brute_allowed(&sc, &in_force));
    }
}
