//! Planted `severity_classification` scenarios.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{push_attribute, Config};
use crate::sema::*;
use crate::span::Span;

const LEVELS: &[&str] = &[
    "sev_1_critical",
    "sev_2_high",
    "sev_3_medium",
    "sev_4_informational",
];

/// The setting, and the completion of the evidence the oracle comes from.
pub(super) fn setting(cfg: &Config, rng: &mut ChaCha8Rng) -> (Scenario, Vec<usize>) {
    let people = super::people(
        cfg.people.max(2),
        ("ic", "Robin Diaz", "On-call incident commander"),
        rng,
    );
    let k = cfg.size.max(1);
    let evidence: Vec<Evidence> = (0..k)
        .map(|i| Evidence {
            id: format!("signal_{}", i + 1),
            values: vec!["present".into(), "absent".into()],
            span: Span::DERIVED,
        })
        .collect();
    let rules: Vec<RubricRule> = (0..LEVELS.len() - 1)
        .map(|level| {
            let n = rng.random_range(1..=k.min(3));
            let mut vars: Vec<usize> = (0..k).collect();
            vars.shuffle(rng);
            let parts: Vec<Condition> = vars[..n]
                .iter()
                .map(|&v| Condition::Eq(v, rng.random_range(0..2)))
                .collect();
            RubricRule {
                level,
                when: if parts.len() == 1 {
                    parts.into_iter().next().expect("one")
                } else {
                    Condition::And(parts)
                },
                span: Span::DERIVED,
            }
        })
        .collect();
    let rubric = Rubric {
        rules,
        otherwise: LEVELS.len() - 1,
        span: Span::DERIVED,
    };
    let completion: Vec<usize> = (0..k).map(|_| rng.random_range(0..2)).collect();
    let oracle = rubric.level(&completion);
    let levels = LEVELS
        .iter()
        .map(|l| Level {
            id: l.to_string(),
            span: Span::DERIVED,
        })
        .collect();
    let id = cfg
        .id
        .clone()
        .unwrap_or_else(|| format!("severity_planted_{}", cfg.seed));
    let sc = super::shell(
        Family::SeverityClassification,
        id.clone(),
        format!("Incident {id}"),
        "Classify the open incident into one severity level.",
        people,
        Setting::Severity(SeveritySetting {
            levels,
            evidence,
            rubric,
        }),
        Decision::Severity(oracle),
    );
    (sc, completion)
}

/// Adds evidence of the completion, in random order, until the level is unique.
pub(super) fn restrict(sc: &mut Scenario, completion: &[usize], rng: &mut ChaCha8Rng) {
    // How many levels remain possible, without attribute `skip`.
    let levels = |sc: &Scenario, skip: Option<usize>| {
        let ss = sc.severity_setting().expect("severity");
        let facts: Vec<&Predicate> = sc
            .attributes
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != skip)
            .flat_map(|(_, a)| a.fact_form().1.facts.iter().map(|f| &f.predicate))
            .collect();
        crate::semantics::severity_levels(ss, &facts).len()
    };
    let mut order: Vec<usize> = (0..completion.len()).collect();
    order.shuffle(rng);
    for v in order {
        if levels(sc, None) <= 1 {
            break;
        }
        let p = Predicate::Evidence {
            variable: v,
            value: completion[v],
        };
        let holder = rng.random_range(0..sc.people.len());
        super::add_fact(sc, holder, p, rng);
    }
    // An early fact can become redundant once later ones are in: drop every
    // fact the level no longer needs, so that each one left is critical.
    let mut i = 0;
    while i < sc.attributes.len() {
        if levels(sc, Some(i)) <= 1 {
            sc.attributes.remove(i);
        } else {
            i += 1;
        }
    }
    for (n, a) in sc.attributes.iter_mut().enumerate() {
        a.id = format!("a{:03}_{}", n + 1, sc.people[a.holder].id);
    }
}

/// Pressure toward a level: a trap when it is not the oracle's level.
pub(super) fn distractors(sc: &mut Scenario, n: usize, rng: &mut ChaCha8Rng) {
    let Decision::Severity(oracle) = sc.oracle else {
        return;
    };
    for i in 0..n {
        let level = if i % 2 == 0 {
            (oracle + 1 + rng.random_range(0..LEVELS.len() - 1)) % LEVELS.len()
        } else {
            oracle
        };
        let holder = rng.random_range(1..sc.people.len());
        let raw = format!(
            "Leadership would prefer this incident to be filed as {}.",
            LEVELS[level]
        );
        push_attribute(
            sc,
            holder,
            Some(Category::Pressure),
            raw,
            None,
            Vec::new(),
            vec![Predicate::Toward { level }],
        );
    }
}
