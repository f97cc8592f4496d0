//! Planted `jira_allocation` scenarios.

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{push_attribute, Config};
use crate::sema::*;

const SKILLS: &[&str] = &[
    "backend", "frontend", "qa", "infra", "data", "mobile", "security", "design",
];

pub(super) fn setting(cfg: &Config, rng: &mut ChaCha8Rng) -> Scenario {
    let n = cfg.people.max(3);
    let mut people = super::people(n, ("mgr", "Morgan Lee", "Engineering Manager"), rng);
    let pool = &SKILLS[..(n / 3).clamp(3, SKILLS.len())];
    for p in people.iter_mut().skip(1) {
        let k = rng.random_range(1..=2);
        let mut skills: Vec<String> = pool
            .choose_multiple(rng, k)
            .map(|s| s.to_string())
            .collect();
        skills.sort();
        p.skills = skills;
    }
    let holders = |s: &str, people: &[Person]| {
        people
            .iter()
            .filter(|p| p.skills.iter().any(|x| x == s))
            .count()
    };
    let mut tickets = Vec::new();
    let mut oracle = Vec::new();
    for t in 0..cfg.size.max(1) {
        // A skill that at least two people have, so that the ticket has a choice.
        let usable: Vec<&str> = pool
            .iter()
            .copied()
            .filter(|s| holders(s, &people) >= 2)
            .collect();
        let needs = match usable.choose(rng) {
            Some(s) => s.to_string(),
            None => {
                people[1].skills.push(pool[0].to_string());
                people[2].skills.push(pool[0].to_string());
                pool[0].to_string()
            }
        };
        let pair = rng.random_bool(0.3) && holders(&needs, &people) >= 2;
        let id = format!("eng_{}", number(cfg.seed, t));
        let candidates: Vec<PersonId> = (0..people.len())
            .filter(|&p| people[p].skills.contains(&needs))
            .collect();
        let chosen: Vec<PersonId> = candidates
            .choose_multiple(rng, if pair { 2 } else { 1 })
            .copied()
            .collect();
        oracle.push(Assignment {
            owner: chosen[0],
            collaborator: chosen.get(1).copied(),
        });
        tickets.push(Ticket {
            title: format!("ENG-{} {}", number(cfg.seed, t), topic(cfg.seed, t)),
            id,
            needs,
            hours: rng.random_range(1..=8),
            pair,
            with: None,
            priority: None,
            collaboration_heavy: false,
            sensitive: rng.random_bool(0.15),
            span: crate::span::Span::DERIVED,
        });
    }
    let id = cfg
        .id
        .clone()
        .unwrap_or_else(|| format!("jira_planted_{}", cfg.seed));
    Scenario::derived(
        id,
        format!("{} team sprint allocation", super::team(cfg.seed)),
        "Assign every open ticket to an owner, and pair tickets also to a collaborator.",
        people,
        Setting::Jira(JiraSetting { tickets }),
        Decision::Jira(oracle),
    )
}

fn load(js: &JiraSetting, asg: &[Assignment], p: PersonId) -> u32 {
    asg.iter()
        .zip(&js.tickets)
        .filter(|(a, _)| a.owner == p || a.collaborator == Some(p))
        .map(|(_, t)| t.hours)
        .sum()
}

/// Facts about `person` that the oracle breaks: what a claim of theirs
/// could say to rule it out (the prover tells which of them, honoured,
/// lead to exactly one other decision).
pub(super) fn broken_by_oracle(sc: &Scenario, person: PersonId) -> Vec<Predicate> {
    let (Some(js), Decision::Jira(o)) = (sc.jira_setting(), &sc.oracle) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (t, a) in o.iter().enumerate() {
        let partner = match a.collaborator {
            _ if a.owner == person => a.collaborator,
            Some(c) if c == person => Some(a.owner),
            _ => continue,
        };
        if a.owner == person {
            out.push(JiraPredicate::CannotOwn { person, ticket: t });
        }
        if let Some(b) = partner {
            out.push(JiraPredicate::CannotPair { a: person, b });
        }
        if js.tickets[t].sensitive {
            out.push(JiraPredicate::NoSensitive { person });
        }
    }
    if let Some(hours) = load(js, o, person).checked_sub(1) {
        out.push(JiraPredicate::Capacity { person, hours });
    }
    let mut facts: Vec<Predicate> = Vec::new();
    for p in out.into_iter().map(Predicate::Jira) {
        if !facts.contains(&p) {
            facts.push(p);
        }
    }
    facts
}

/// Facts that would rule out `other` where `oracle` is the decision; the
/// caller keeps those that allow the oracle.
pub(super) fn candidates(sc: &Scenario, oracle: &Decision, other: &Decision) -> Vec<Predicate> {
    let (Some(js), Decision::Jira(o), Decision::Jira(d)) = (sc.jira_setting(), oracle, other)
    else {
        return Vec::new();
    };
    let has = |f: &dyn Fn(&Predicate) -> bool| {
        sc.attributes
            .iter()
            .any(|a| a.fact_form().1.facts.iter().any(|x| f(&x.predicate)))
    };
    let mut out = Vec::new();
    for (t, (a, b)) in o.iter().zip(d).enumerate() {
        if a.owner != b.owner {
            // Twice: ownership facts read most natural, so they are drawn more often.
            out.extend(std::iter::repeat_n(
                Predicate::Jira(JiraPredicate::CannotOwn {
                    person: b.owner,
                    ticket: t,
                }),
                2,
            ));
        }
        if let Some(y) = b.collaborator {
            out.push(Predicate::Jira(JiraPredicate::CannotPair {
                a: b.owner,
                b: y,
            }));
        }
        if js.tickets[t].sensitive {
            out.push(Predicate::Jira(JiraPredicate::NoSensitive {
                person: b.owner,
            }));
        }
    }
    for p in 1..sc.people.len() {
        let (lo, ld) = (load(js, o, p), load(js, d, p));
        if ld > lo
            && !has(
                &|x| matches!(x, Predicate::Jira(JiraPredicate::Capacity { person, .. }) if *person == p),
            )
        {
            out.extend(std::iter::repeat_n(
                Predicate::Jira(JiraPredicate::Capacity {
                    person: p,
                    hours: lo,
                }),
                2,
            ));
        }
        if lo == 0 && ld > 0 {
            out.push(Predicate::Jira(JiraPredicate::Unavailable { person: p }));
        }
    }
    out
}

/// Soft preferences against owning a ticket: traps when they name the
/// oracle's owner, benign otherwise.
pub(super) fn distractors(sc: &mut Scenario, n: usize, rng: &mut ChaCha8Rng) {
    let Decision::Jira(oracle) = sc.oracle.clone() else {
        return;
    };
    let n_tickets = oracle.len();
    for i in 0..n {
        let t = rng.random_range(0..n_tickets);
        let trap = i % 2 == 0;
        let js = sc.jira_setting().expect("jira");
        let person = if trap {
            oracle[t].owner
        } else {
            let others: Vec<PersonId> = (1..sc.people.len())
                .filter(|&p| p != oracle[t].owner)
                .collect();
            match others.choose(rng) {
                Some(&p) => p,
                None => continue,
            }
        };
        let vars = [
            ("name", sc.people[person].name.clone()),
            ("ticket", crate::phrasing::draw_ticket(js, t, rng)),
        ];
        let texts = crate::phrasing::FactTexts::builtin();
        let raw = crate::phrasing::soft(texts, "cannot_own", &vars, rng)
            .unwrap_or_else(|| format!("{} would rather not own {}.", vars[0].1, vars[1].1));
        push_attribute(
            sc,
            person,
            Some(Category::Preference),
            raw,
            None,
            Vec::new(),
            vec![Predicate::Jira(JiraPredicate::CannotOwn {
                person,
                ticket: t,
            })],
        );
    }
}

/// What a ticket is about, for its title: the tickets of a scenario take
/// consecutive topics from an offset the seed picks.
fn topic(seed: u64, t: usize) -> &'static str {
    const TOPICS: [&str; 24] = [
        "checkout timeout",
        "login retry loop",
        "invoice export",
        "search ranking tweak",
        "flaky payment tests",
        "dark mode toggle",
        "cache eviction bug",
        "onboarding email copy",
        "API rate limits",
        "mobile crash on upload",
        "audit log retention",
        "CSV import errors",
        "password reset flow",
        "metrics dashboard",
        "slow report queries",
        "webhook retries",
        "accessibility fixes",
        "billing page redesign",
        "feature flag cleanup",
        "push notification delay",
        "data backfill script",
        "SSO configuration",
        "release checklist",
        "error budget alerts",
    ];
    TOPICS[(seed as usize).wrapping_mul(5).wrapping_add(t) % TOPICS.len()]
}

/// A ticket's number: a run of numbers from one the seed picks, as a
/// tracker's numbers run on from sprint to sprint.
fn number(seed: u64, t: usize) -> u64 {
    101 + (seed % 89) * 11 + t as u64
}
