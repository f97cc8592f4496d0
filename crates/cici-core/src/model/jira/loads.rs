//! Lower bounds on JIRA loads that the capacities imply together.
//!
//! Every seat is filled once, so the loads add up to the hours of all
//! seats, H. Take a set S of people with a capacity: with the capacities
//! of everyone else with one in force, those others carry at most the sum
//! of theirs, C, so S and the people without a capacity carry at least
//! H - C. Each capacity alone bounds one person from above; these bounds
//! from below let the solver see, early, that hours moved off one person
//! must land somewhere.
//!
//! S is each person with a capacity alone (the bounds of the check with
//! every capacity in force), and each pair of them, of use while one of
//! the two capacities is off: the necessity of a capacity is proven with
//! that capacity out of force, where the bounds of one person would all
//! lean on it. Only where no one has two capacity facts.

use super::Lowering;
use crate::model::{Constraint, FactId, Implied, Lit};
use crate::sema::PersonId;

/// Pairs are added up to this many capacities (quadratic in them).
const PAIRS_UP_TO: usize = 64;

pub(super) fn implied(
    l: &Lowering,
    people: usize,
    capacities: &[(FactId, PersonId, u32)],
) -> Vec<Implied> {
    let mut capped = vec![false; people];
    for &(_, p, _) in capacities {
        if std::mem::replace(&mut capped[p], true) {
            return Vec::new();
        }
    }
    let seats: u64 =
        l.js.tickets
            .iter()
            .map(|t| u64::from(t.hours) + u64::from(t.second_seat().map_or(0, |(_, h)| h)))
            .sum();
    let free: Vec<(Lit, u32)> = (0..people)
        .filter(|&q| !capped[q])
        .flat_map(|q| l.load_terms(q))
        .collect();
    // Each capped person's seats, once: every bound of a pair reads two.
    let loads: Vec<Vec<(Lit, u32)>> = capacities.iter().map(|c| l.load_terms(c.1)).collect();
    let bound = |set: &[usize]| {
        let mut terms = free.clone();
        for &i in set {
            terms.extend_from_slice(&loads[i]);
        }
        let others = (0..capacities.len()).filter(|i| !set.contains(i));
        let carried: u64 = others.clone().map(|i| u64::from(capacities[i].2)).sum();
        let constraint = at_least(terms, seats.checked_sub(carried)?)?;
        let useful_without = match set {
            [_] => Vec::new(),
            _ => set.iter().map(|&i| capacities[i].0).collect(),
        };
        Some(Implied {
            when: others.map(|i| capacities[i].0).collect(),
            useful_without,
            constraint,
        })
    };
    let n = capacities.len();
    let mut out: Vec<Implied> = (0..n).filter_map(|i| bound(&[i])).collect();
    if n <= PAIRS_UP_TO {
        for i in 0..n {
            out.extend((i + 1..n).filter_map(|j| bound(&[i, j])));
        }
    }
    out
}

/// `sum >= need` as an upper bound on the terms left out; `None` when it
/// says nothing (or too much to write).
fn at_least(terms: Vec<(Lit, u32)>, need: u64) -> Option<Constraint> {
    if need == 0 {
        return None;
    }
    let total: u64 = terms.iter().map(|(_, w)| u64::from(*w)).sum();
    Some(match total.checked_sub(need) {
        None => Constraint::Clause(Vec::new()),
        Some(slack) => Constraint::AtMost {
            terms: terms.into_iter().map(|(l, w)| (!l, w)).collect(),
            bound: u32::try_from(slack).ok()?,
        },
    })
}
