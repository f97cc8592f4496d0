//! Planted `policy_decision` scenarios: a readiness review of N
//! three-state checks. The outcome names the first failed check, or
//! `ready` when none failed; with exclusions (half the seeds), at most one
//! check may fail, as in the PiSAs task-family seeds' invalid
//! configurations.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::Config;
use crate::sema::*;
use crate::span::Span;

const STATES: [&str; 3] = ["passed", "pending", "failed"];

/// The checks of a review, in the order they are made.
pub(super) const CHECKS: [&str; 10] = [
    "security_review",
    "privacy_review",
    "load_test",
    "accessibility_audit",
    "legal_signoff",
    "data_retention",
    "backup_restore",
    "dependency_audit",
    "licence_scan",
    "incident_drill",
];
const FAILED: usize = 2;

/// The setting, and the configuration the oracle comes from.
pub(super) fn setting(cfg: &Config, rng: &mut ChaCha8Rng) -> (Scenario, Vec<usize>) {
    let people = super::people(
        cfg.people.max(2),
        ("lead", "Robin Diaz", "Review lead"),
        rng,
    );
    let n = cfg.size.max(1);
    let names = super::drawn_names(&CHECKS, n, rng);
    let evidence: Vec<Evidence> = names
        .iter()
        .map(|name| Evidence {
            id: name.clone(),
            values: STATES.iter().map(|s| s.to_string()).collect(),
            span: Span::DERIVED,
        })
        .collect();
    let mut levels: Vec<Level> = names
        .iter()
        .map(|name| Level {
            id: format!("resolve_{name}"),
            span: Span::DERIVED,
        })
        .collect();
    levels.push(Level {
        id: "ready".into(),
        span: Span::DERIVED,
    });
    let exclusive = rng.random_bool(0.5);
    let (rules, excludes) = rules(n, exclusive);
    // A configuration: every check passed or pending, and (mostly) one
    // failed check, at most one when the exclusions hold.
    let mut configuration: Vec<usize> = (0..n).map(|_| rng.random_range(0..2)).collect();
    if rng.random_bool(0.8) {
        let failed = rng.random_range(0..n);
        configuration[failed] = FAILED;
        if !exclusive {
            for (v, state) in configuration.iter_mut().enumerate() {
                if v > failed && rng.random_bool(0.3) {
                    *state = FAILED;
                }
            }
        }
    }
    let rubric = Rubric {
        rules,
        otherwise: Some(n),
        span: Span::DERIVED,
    };
    let oracle = rubric
        .level(&configuration)
        .expect("the rules have otherwise");
    let id = cfg
        .id
        .clone()
        .unwrap_or_else(|| format!("policy_planted_{}", cfg.seed));
    let sc = Scenario::derived(
        id,
        format!("{} team readiness review", super::team(cfg.seed)),
        "Record the first unresolved check, or ready if every check passes.",
        people,
        Setting::Rule(RuleSetting {
            kind: RuleKind::Policy,
            levels,
            evidence,
            rubric,
            excludes,
        }),
        Decision::Rule(oracle),
    );
    (sc, configuration)
}

/// The rules of `n` checks, each naming its check when it failed, and
/// the exclusions when they hold (`exclusive`).
fn rules(n: usize, exclusive: bool) -> (Vec<RubricRule>, Vec<Exclusion>) {
    // With the exclusions a failed check decides alone; without them each
    // rule says that the earlier checks did not fail, so that no two rules
    // hold together and the order of the rules never decides.
    let rules = (0..n)
        .map(|v| {
            let mut parts = vec![Condition::Eq(v, FAILED)];
            if !exclusive {
                parts.extend((0..v).map(|u| Condition::Ne(u, FAILED)));
            }
            RubricRule {
                level: v,
                when: if parts.len() == 1 {
                    parts.remove(0)
                } else {
                    Condition::And(parts)
                },
                span: Span::DERIVED,
            }
        })
        .collect();
    let excludes = if exclusive {
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .map(|(a, b)| Exclusion {
                when: Condition::And(vec![Condition::Eq(a, FAILED), Condition::Eq(b, FAILED)]),
                span: Span::DERIVED,
            })
            .collect()
    } else {
        Vec::new()
    };
    (rules, excludes)
}
