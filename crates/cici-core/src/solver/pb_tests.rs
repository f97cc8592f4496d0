//! The native at-most propagator against enumeration of every assignment:
//! random weighted constraints (either polarity, guarded or not) and
//! clauses over a few variables, solved several times under assumptions,
//! with constraints added between the solves.

use proptest::prelude::*;

use crate::model::{Lit, Var};
use crate::solver::{Backend, BatsatBackend};

/// One constraint of a random instance.
#[derive(Clone, Debug)]
enum Item {
    AtMost {
        terms: Vec<(Lit, u32)>,
        bound: u64,
        guard: Option<Lit>,
    },
    Clause(Vec<Lit>),
}

const VARS: u32 = 9;

fn lit(code: u32) -> Lit {
    let v = Var(code / 2 % VARS);
    if code.is_multiple_of(2) {
        Lit::pos(v)
    } else {
        Lit::neg(v)
    }
}

fn item() -> impl Strategy<Value = Item> {
    let terms = proptest::collection::vec((0u32..2 * VARS, 1u32..6), 1..7);
    let at_most = (terms, 0u64..14, proptest::option::of(0u32..2 * VARS)).prop_map(|(t, b, g)| {
        Item::AtMost {
            terms: t.into_iter().map(|(c, w)| (lit(c), w)).collect(),
            bound: b,
            guard: g.map(lit),
        }
    });
    let clause = proptest::collection::vec(0u32..2 * VARS, 1..4)
        .prop_map(|c| Item::Clause(c.into_iter().map(lit).collect()));
    prop_oneof![3 => at_most, 1 => clause]
}

fn true_in(l: Lit, bits: u32) -> bool {
    (bits >> l.var().0 & 1 == 1) != l.is_neg()
}

fn holds(item: &Item, bits: u32) -> bool {
    match item {
        Item::AtMost {
            terms,
            bound,
            guard,
        } => {
            guard.is_some_and(|g| !true_in(g, bits))
                || terms
                    .iter()
                    .filter(|(l, _)| true_in(*l, bits))
                    .map(|(_, w)| u64::from(*w))
                    .sum::<u64>()
                    <= *bound
        }
        Item::Clause(c) => c.iter().any(|&l| true_in(l, bits)),
    }
}

/// Whether some assignment meets every item and assumption.
fn brute(items: &[Item], assumptions: &[Lit]) -> bool {
    (0..1u32 << VARS)
        .any(|b| items.iter().all(|i| holds(i, b)) && assumptions.iter().all(|&l| true_in(l, b)))
}

fn add(backend: &mut BatsatBackend, item: &Item) {
    match item {
        Item::AtMost {
            terms,
            bound,
            guard,
        } => assert!(backend.at_most(terms, *bound, *guard).is_some()),
        Item::Clause(c) => backend.add_clause(c),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn solves_agree_with_enumeration(
        first in proptest::collection::vec(item(), 1..9),
        rounds in proptest::collection::vec(
            (proptest::collection::vec(item(), 0..3), proptest::collection::vec(0u32..2 * VARS, 0..5)),
            1..5,
        ),
    ) {
        let mut backend = BatsatBackend::default();
        backend.reserve(VARS);
        let mut items = Vec::new();
        for i in first {
            add(&mut backend, &i);
            items.push(i);
        }
        for (more, assume) in rounds {
            for i in more {
                add(&mut backend, &i);
                items.push(i);
            }
            let assumptions: Vec<Lit> = assume.into_iter().map(lit).collect();
            let sat = backend.solve(&assumptions, None).expect("no deadline");
            prop_assert_eq!(sat, brute(&items, &assumptions));
            if sat {
                let bits = (0..VARS)
                    .filter(|&v| backend.value(Lit::pos(Var(v))))
                    .fold(0, |b, v| b | 1 << v);
                prop_assert!(items.iter().all(|i| holds(i, bits)), "the model breaks an item");
                prop_assert!(assumptions.iter().all(|&l| true_in(l, bits)));
            } else {
                let core = backend.failed_assumptions();
                prop_assert!(core.iter().all(|l| assumptions.contains(l)));
                prop_assert!(!brute(&items, &core), "the core alone is satisfiable");
            }
        }
    }

    /// Constraints switched by a guard of their own, assumed while they
    /// are in and taken out between solves: the rest stays exact, with what
    /// was learnt from them kept.
    #[test]
    fn removed_constraints_leave_the_rest_exact(
        first in proptest::collection::vec(item(), 0..6),
        rounds in proptest::collection::vec(
            (proptest::collection::vec(item(), 0..3), any::<u8>(), proptest::collection::vec(0u32..2 * VARS, 0..4)),
            1..6,
        ),
    ) {
        let mut backend = BatsatBackend::default();
        backend.reserve(VARS);
        for i in &first {
            add(&mut backend, i);
        }
        // (guard, id, the constraint) of each constraint in now.
        let mut live: Vec<(Lit, u32, Item)> = Vec::new();
        let mut next_guard = VARS;
        for (more, out, assume) in rounds {
            if !live.is_empty() && out % 2 == 0 {
                let (_, id, _) = live.remove(usize::from(out) % live.len());
                backend.remove_at_most(id);
            }
            for i in more {
                let Item::AtMost { terms, bound, .. } = i else { continue };
                let guard = Lit::pos(Var(next_guard));
                next_guard += 1;
                let id = backend.at_most(&terms, bound, Some(guard)).expect("native");
                live.push((guard, id, Item::AtMost { terms, bound, guard: None }));
            }
            let mut assumptions: Vec<Lit> = assume.into_iter().map(lit).collect();
            let problem = assumptions.clone();
            assumptions.extend(live.iter().map(|l| l.0));
            let mut items = first.clone();
            items.extend(live.iter().map(|l| l.2.clone()));
            let sat = backend.solve(&assumptions, None).expect("no deadline");
            prop_assert_eq!(sat, brute(&items, &problem));
            if !sat {
                let core = backend.failed_assumptions();
                let mut used = first.clone();
                used.extend(live.iter().filter(|l| core.contains(&l.0)).map(|l| l.2.clone()));
                let lits: Vec<Lit> = core.into_iter().filter(|l| l.var().0 < VARS).collect();
                prop_assert!(!brute(&used, &lits), "the core alone is satisfiable");
            }
        }
    }
}
