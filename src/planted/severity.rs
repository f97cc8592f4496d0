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

/// The evidence variables, in the order they are made.
const SIGNALS: [&str; 10] = [
    "active_exploitation",
    "data_exfiltration",
    "customer_data_access",
    "privilege_escalation",
    "lateral_movement",
    "service_outage",
    "malware_detected",
    "credential_theft",
    "ransom_demand",
    "insider_access",
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
            id: super::pooled(&SIGNALS, i),
            values: vec!["present".into(), "absent".into()],
            span: Span::DERIVED,
        })
        .collect();
    // Rules drawn at random can shadow each other; draw again (a few
    // times) until every rule can fire, else drop the ones that cannot.
    let mut rubric = draw_rubric(k, rng);
    for _ in 0..32 {
        if dead(&rubric, &evidence).is_empty() {
            break;
        }
        rubric = draw_rubric(k, rng);
    }
    for i in dead(&rubric, &evidence).into_iter().rev() {
        rubric.rules.remove(i);
    }
    let completion: Vec<usize> = (0..k).map(|_| rng.random_range(0..2)).collect();
    let oracle = rubric.level(&completion).expect("the rubric has otherwise");
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
    let sc = Scenario::derived(
        id,
        format!("{} team incident", super::team(cfg.seed)),
        "Classify the open incident into one severity level.",
        people,
        Setting::Rule(RuleSetting {
            kind: RuleKind::Severity,
            levels,
            evidence,
            rubric,
            excludes: Vec::new(),
        }),
        Decision::Rule(oracle),
    );
    (sc, completion)
}

fn draw_rubric(k: usize, rng: &mut ChaCha8Rng) -> Rubric {
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
    Rubric {
        rules,
        otherwise: Some(LEVELS.len() - 1),
        span: Span::DERIVED,
    }
}

fn dead(rubric: &Rubric, evidence: &[Evidence]) -> Vec<usize> {
    crate::analysis::dead_rules(&RuleSetting {
        kind: RuleKind::Severity,
        levels: Vec::new(),
        evidence: evidence.to_vec(),
        rubric: rubric.clone(),
        excludes: Vec::new(),
    })
}

/// How many decisions (0, 1, or 2 meaning "several") the scenario's facts
/// allow without attribute `skip`: a solver query, so the cost grows with
/// the rules, not with the number of configurations.
fn decisions_left(sc: &Scenario, skip: Option<usize>) -> usize {
    let mut sc = sc.clone();
    if let Some(i) = skip {
        sc.attributes.remove(i);
    }
    let model = crate::model::lower(&sc);
    let mut session = crate::solver::Session::new(&model, None);
    let all = vec![true; model.facts.len()];
    let first = match session.solve(&all, &[]) {
        crate::solver::Outcome::Sat(c) => c,
        _ => return 0,
    };
    let other = session.differ_from(&first);
    match session.solve(&all, &[other]) {
        crate::solver::Outcome::Sat(_) => 2,
        _ => 1,
    }
}

/// Adds evidence of the completion, in random order, until the decision is
/// unique; then drops what became redundant, so every fact left is critical.
pub(super) fn restrict(sc: &mut Scenario, completion: &[usize], rng: &mut ChaCha8Rng) {
    let mut order: Vec<usize> = (0..completion.len()).collect();
    order.shuffle(rng);
    for v in order {
        if decisions_left(sc, None) <= 1 {
            break;
        }
        let p = Predicate::Rule(RulePredicate::Evidence {
            variable: v,
            value: completion[v],
        });
        let holder = rng.random_range(0..sc.people.len());
        super::add_fact(sc, holder, p, rng);
    }
    // An early fact can become redundant once later ones are in: drop every
    // fact the decision no longer needs, so that each one left is critical.
    let mut i = 0;
    while i < sc.attributes.len() {
        if decisions_left(sc, Some(i)) <= 1 {
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
    let Decision::Rule(oracle) = sc.oracle else {
        return;
    };
    let levels: Vec<String> = sc
        .rule_setting()
        .map(|ss| ss.levels.iter().map(|l| l.id.clone()).collect())
        .unwrap_or_default();
    if levels.len() < 2 {
        return;
    }
    let policy = sc.family() == Family::PolicyDecision;
    for i in 0..n {
        let level = if i % 2 == 0 {
            (oracle + 1 + rng.random_range(0..levels.len() - 1)) % levels.len()
        } else {
            oracle
        };
        let holder = rng.random_range(1..sc.people.len());
        let key = if policy { "policy_toward" } else { "toward" };
        let vars = [
            ("name", sc.people[holder].name.clone()),
            ("level", levels[level].replace('_', " ")),
        ];
        let texts = crate::phrasing::FactTexts::builtin();
        let raw = crate::phrasing::soft(texts, key, &vars, rng)
            .unwrap_or_else(|| format!("Someone would rather see this as {}.", vars[1].1));
        push_attribute(
            sc,
            holder,
            Some(Category::Pressure),
            raw,
            None,
            Vec::new(),
            vec![Predicate::Rule(RulePredicate::Toward { level })],
        );
    }
}
