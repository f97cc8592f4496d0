//! Planted-oracle scenarios at any size, built backwards as PiSAs
//! Appendix A describes: choose the public setting and the oracle first,
//! then add restricting facts (each one ruling out an allowed decision
//! other than the oracle, found by the solver) until the oracle is unique,
//! then add distractors: soft facts (traps and benign) and irrelevant
//! personal details.
//!
//! In: a [`Config`]. Out: a resolved [`Scenario`] whose nodes carry derived
//! spans; [`crate::printer::print`] turns it into seed text.

pub(crate) mod claims;
mod idle;
mod jira;
mod meeting;
mod norms;
mod policy;
mod severity;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::model;
use crate::sema::{
    Attribute, Category, Decision, Fact, Family, Form, PersonId, Predicate, RulePredicate, Scenario,
};
use crate::solver::{Outcome, Session};
use crate::span::Span;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Config {
    pub family: Family,
    /// People in the scenario, the executor included.
    pub people: usize,
    /// Tickets, meetings or evidence variables.
    pub size: usize,
    /// Soft distractors to add.
    pub soft: usize,
    /// Irrelevant personal details to add.
    pub irrelevant: usize,
    pub seed: u64,
    /// The scenario id; derived from the family and seed when `None`.
    pub id: Option<String>,
    /// Whether to state norms (groups, reporting lines, share rules) and
    /// derive visibility from them, instead of the family's defaults.
    pub norms: bool,
}

impl Config {
    /// A PiSAs-size scenario of the family (4-10 people, 15-35 attributes).
    pub fn pisas(family: Family, seed: u64) -> Config {
        let (people, size) = match family {
            Family::JiraAllocation => (8, 8),
            Family::MeetingAllocation => (8, 4),
            Family::SeverityClassification => (5, 3),
            Family::PolicyDecision => (6, 6),
        };
        Config {
            family,
            people,
            size,
            soft: 3,
            irrelevant: 4,
            seed,
            id: None,
            norms: false,
        }
    }
}

/// Settings drawn, at most, in search of one that takes a consequential
/// trap; after that the first is kept without one.
const SETTINGS_FOR_A_TRAP: usize = 8;

/// Generates a scenario whose oracle is unique by construction (checked
/// with the solver as it is built).
pub fn generate(config: &Config) -> Scenario {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    // A consequential trap: a personal detail whose claim, honoured, leads
    // to another decision. Not every setting takes one (honouring a claim
    // may leave two decisions open); then draw another.
    let mut first = None;
    for _ in 0..SETTINGS_FOR_A_TRAP {
        let mut sc = unique_setting(config, &mut rng);
        if let Some(to) = claims::plant(&mut sc, &mut rng) {
            return finish(config, sc, Some(&to), &mut rng);
        }
        first.get_or_insert(sc);
    }
    let sc = first.expect("at least one setting was drawn");
    finish(config, sc, None, &mut rng)
}

/// A setting and facts that make its oracle unique.
fn unique_setting(config: &Config, rng: &mut ChaCha8Rng) -> Scenario {
    // A setting can admit two decisions that no fact of the family tells
    // apart (two pair tickets of equal hours with their collaborators
    // swapped); then draw a new setting from the same stream.
    loop {
        let mut sc = match config.family {
            Family::JiraAllocation => jira::setting(config, rng),
            Family::MeetingAllocation => meeting::setting(config, rng),
            Family::SeverityClassification => {
                let (mut sc, completion) = severity::setting(config, rng);
                severity::restrict(&mut sc, &completion, rng);
                sc
            }
            Family::PolicyDecision => {
                let (mut sc, configuration) = policy::setting(config, rng);
                severity::restrict(&mut sc, &configuration, rng);
                sc
            }
        };
        if config.family.is_rule_based() || restrict_until_unique(&mut sc, rng) {
            break sc;
        }
    }
}

/// Distractors, irrelevant details and norms; `trap_to` is where the
/// planted trap leads, if one was planted.
fn finish(
    config: &Config,
    mut sc: Scenario,
    trap_to: Option<&Decision>,
    rng: &mut ChaCha8Rng,
) -> Scenario {
    match config.family {
        Family::JiraAllocation => jira::distractors(&mut sc, config.soft, rng),
        Family::MeetingAllocation => meeting::distractors(&mut sc, config.soft, rng),
        Family::SeverityClassification | Family::PolicyDecision => {
            severity::distractors(&mut sc, config.soft, trap_to, rng);
            severity::side_findings(&mut sc, rng);
        }
    }
    for _ in 0..config.irrelevant {
        let holder = rng.random_range(1..sc.people.len());
        let first = crate::words::leading_word(&sc.people[holder].name)
            .unwrap_or_default()
            .to_string();
        let (category, raw) =
            crate::phrasing::irrelevant(crate::phrasing::FactTexts::builtin(), &first, None, rng);
        push_attribute(
            &mut sc,
            holder,
            Some(category),
            raw.to_string(),
            None,
            Vec::new(),
            Vec::new(),
        );
    }
    if config.norms {
        idle::plant(&mut sc, config.seed);
        norms::apply(&mut sc, rng);
    }
    sc
}

/// Adds facts until the oracle is the only allowed decision (allocation
/// families; severity adds the evidence of its completion instead). False
/// when some allowed decision cannot be ruled out by any fact.
fn restrict_until_unique(sc: &mut Scenario, rng: &mut ChaCha8Rng) -> bool {
    // Each round rules out one decision, so the loop ends; the bound only
    // guards against a generator bug.
    for _ in 0..10_000 {
        let m = model::lower(sc);
        let mut session = Session::new(&m, None);
        let oracle = m
            .encode(&sc.oracle)
            .expect("the planted oracle fits the public setting");
        let not_oracle = session.differ_from(&oracle);
        let all_on = vec![true; m.facts.len()];
        let other = match session.solve(&all_on, &[not_oracle]) {
            Outcome::Sat(c) => m.decode(&c),
            _ => return true,
        };
        let useful: Vec<Predicate> = separating_facts(sc, &other)
            .into_iter()
            .filter(|p| {
                crate::model::direct::allowed(sc, &sc.oracle, &[p])
                    && !crate::model::direct::allowed(sc, &other, &[p])
            })
            .collect();
        if useful.is_empty() {
            // No fact of the family can tell these two apart: narrow the
            // public setting instead, which is ours to choose.
            if sc.family() == Family::MeetingAllocation && meeting::narrow(sc, &other) {
                continue;
            }
            return false;
        }
        let pick = useful[rng.random_range(0..useful.len())].clone();
        let holder = pick
            .subject()
            .unwrap_or_else(|| rng.random_range(1..sc.people.len()));
        add_fact(sc, holder, pick, rng);
    }
    false
}

/// Facts of the scenario's family that rule out `other` (the caller checks
/// which of them also allow the decision it wants to keep).
pub(crate) fn separating_facts(sc: &Scenario, other: &crate::sema::Decision) -> Vec<Predicate> {
    separating_facts_from(sc, &sc.oracle, other)
}

/// [`separating_facts`] as if `oracle` were the scenario's, without a copy
/// of the scenario that states it.
pub(crate) fn separating_facts_from(
    sc: &Scenario,
    oracle: &crate::sema::Decision,
    other: &crate::sema::Decision,
) -> Vec<Predicate> {
    match sc.family() {
        Family::JiraAllocation => jira::candidates(sc, oracle, other),
        Family::MeetingAllocation => meeting::candidates(sc, oracle, other),
        Family::SeverityClassification | Family::PolicyDecision => Vec::new(),
    }
}

/// Appends an attribute that states `fact`, its texts from the built-in
/// phrasing: a personal reason and a sanitized form for facts about a person.
pub(crate) fn add_fact(sc: &mut Scenario, holder: PersonId, fact: Predicate, rng: &mut ChaCha8Rng) {
    let t = crate::phrasing::hard(crate::phrasing::FactTexts::builtin(), sc, &fact, rng);
    push_texts(sc, holder, t, fact);
}

/// Appends an attribute of `holder` with the drawn texts `t` that states
/// `fact` (in its sanitized form where `t` has one).
fn push_texts(sc: &mut Scenario, holder: PersonId, t: crate::phrasing::Texts, fact: Predicate) {
    push_attribute(
        sc,
        holder,
        Some(t.category),
        t.raw,
        t.sanitized,
        vec![fact],
        Vec::new(),
    );
}

/// Share of a rule family's findings that a teammate tells together with
/// a personal reason of theirs.
const PERSONAL_FINDINGS: f64 = 0.35;

/// Appends an attribute that states finding `fact`: mostly in the words of
/// the record; for a share of the findings a teammate holds, together
/// with a personal reason of theirs, the finding alone in a sanitized form
/// (see [`crate::phrasing::personal_finding`]). Traps are told in the same
/// words, so a reader tells the two apart by the norms, not the wording.
pub(crate) fn add_finding(
    sc: &mut Scenario,
    holder: PersonId,
    fact: Predicate,
    rng: &mut ChaCha8Rng,
) {
    if holder != sc.executor && rng.random_bool(PERSONAL_FINDINGS) {
        let texts = crate::phrasing::FactTexts::builtin();
        if let Some(t) = crate::phrasing::personal_finding(texts, sc, &fact, holder, None, rng) {
            push_texts(sc, holder, t, fact);
            return;
        }
    }
    add_fact(sc, holder, fact, rng);
}

/// Appends an attribute that states `fact` with a work reason anyone may
/// read (see [`crate::phrasing::operational`]); a personal reason with a sanitized
/// form where the fact has no such phrasing.
pub fn add_operational_fact(
    sc: &mut Scenario,
    holder: PersonId,
    fact: Predicate,
    rng: &mut ChaCha8Rng,
) {
    match crate::phrasing::operational(crate::phrasing::FactTexts::builtin(), sc, &fact, rng) {
        // An operational text has no sanitized form.
        Some(t) => push_texts(sc, holder, t, fact),
        None => add_fact(sc, holder, fact, rng),
    }
}

/// Appends an attribute with default labels: a sanitized form when given
/// (raw inappropriate), else an appropriate raw form if it has facts.
pub fn push_attribute(
    sc: &mut Scenario,
    holder: PersonId,
    category: Option<Category>,
    raw: String,
    sanitized: Option<String>,
    facts: Vec<Predicate>,
    soft: Vec<Predicate>,
) {
    let everyone: Vec<PersonId> = (0..sc.people.len()).collect();
    let facts: Vec<Fact> = facts.into_iter().map(Fact::derived).collect();
    let form = |text: String, appropriate: bool, facts: Vec<Fact>| Form {
        text,
        appropriate,
        visible: if appropriate {
            everyone.clone()
        } else {
            vec![holder]
        },
        facts,
        span: Span::DERIVED,
        text_span: Span::DERIVED,
    };
    let n = sc.attributes.len() + 1;
    let id = format!("a{n:03}_{}", sc.people[holder].id);
    let (raw, sanitized) = match sanitized {
        Some(s) => (form(raw, false, Vec::new()), Some(form(s, true, facts))),
        None => {
            let appropriate = !facts.is_empty();
            (form(raw, appropriate, facts), None)
        }
    };
    sc.attributes.push(Attribute::derived(
        id, holder, category, raw, sanitized, soft,
    ));
}

/// Names for generated people, executor first.
const NAMES: &[&str] = &[
    "avi", "bea", "cal", "dana", "eli", "farah", "gil", "hana", "ines", "jas", "kai", "lena",
    "milo", "ned", "oda", "parker", "quinn", "riley", "sana", "tariq", "uma", "val", "wen", "xia",
    "yara", "zed", "bo", "cyd", "dev", "eve", "gus", "ivo", "jon", "kit", "lou", "mo", "noor",
    "otto", "pia", "rex", "sol", "tia", "ugo", "vik", "wim", "yul", "zia", "ash", "bex", "cruz",
];

/// `n` distinct people; person 0 is the executor with the given role.
pub(crate) fn people(
    n: usize,
    executor: (&str, &str, &str),
    rng: &mut ChaCha8Rng,
) -> Vec<crate::sema::Person> {
    const ROLES: &[&str] = &[
        "Backend Engineer",
        "Frontend Engineer",
        "QA Engineer",
        "SRE",
        "Data Engineer",
        "Designer",
        "Product Manager",
        "Security Engineer",
        "ML Engineer",
        "Mobile Engineer",
    ];
    let mut out = vec![crate::sema::Person {
        id: executor.0.into(),
        name: executor.1.into(),
        role: executor.2.into(),
        skills: Vec::new(),
        groups: Vec::new(),
        manager: None,
        span: Span::DERIVED,
    }];
    // Names from an offset the seed draws: each team has other people.
    let offset = rng.random_range(0..NAMES.len());
    for i in 0..n.saturating_sub(1) {
        let base = NAMES[(offset + i) % NAMES.len()];
        let id = if i < NAMES.len() {
            base.to_string()
        } else {
            format!("{base}{}", i / NAMES.len() + 1)
        };
        let mut name = id.clone();
        name[..1].make_ascii_uppercase();
        out.push(crate::sema::Person {
            id,
            name,
            role: ROLES[rng.random_range(0..ROLES.len())].into(),
            skills: Vec::new(),
            groups: Vec::new(),
            manager: None,
            span: Span::DERIVED,
        });
    }
    out
}

/// The facts in force: every appropriate fact the attributes state.
fn in_force(sc: &Scenario) -> Vec<Predicate> {
    sc.attributes
        .iter()
        .map(Attribute::fact_form)
        .filter(|(_, f)| f.appropriate)
        .flat_map(|(_, f)| f.facts.iter().map(|f| f.predicate.clone()))
        .collect()
}

/// [`pin_oracle`] for a rule-based scenario: evidence added until only
/// the oracle's level is left.
fn pin_level(
    sc: &Scenario,
    ss: &crate::sema::RuleSetting,
    deadline: std::time::Instant,
) -> Option<Vec<Predicate>> {
    let mut added: Vec<Predicate> = Vec::new();
    let mut facts = in_force(sc);
    let Decision::Rule(oracle) = sc.oracle else {
        return None;
    };
    // Levels are found by walking the completions of the unknown
    // evidence: too many of them, and no fix is offered.
    let completions: Option<u64> = ss
        .evidence
        .iter()
        .enumerate()
        .filter(|(v, _)| {
            !facts
                .iter()
                .any(|f| matches!(f, Predicate::Rule(RulePredicate::Evidence { variable, .. }) if variable == v))
        })
        .map(|(_, e)| e.values.len() as u64)
        .try_fold(1u64, |acc, n| acc.checked_mul(n).filter(|&p| p <= 1 << 12));
    completions?;
    loop {
        if std::time::Instant::now() > deadline {
            return None;
        }
        let refs: Vec<&Predicate> = facts.iter().collect();
        let levels = crate::model::direct::severity_levels(ss, &refs);
        if !levels.contains(&oracle) {
            return None;
        }
        if levels.len() <= 1 {
            return Some(added);
        }
        // The evidence that keeps the oracle and leaves fewest levels.
        let mut best: Option<(usize, Predicate)> = None;
        for (variable, e) in ss.evidence.iter().enumerate() {
            for value in 0..e.values.len() {
                let p = Predicate::Rule(RulePredicate::Evidence { variable, value });
                if facts.contains(&p) {
                    continue;
                }
                let mut with = refs.clone();
                with.push(&p);
                let left = crate::model::direct::severity_levels(ss, &with);
                if left.contains(&oracle)
                    && left.len() < levels.len()
                    && best.as_ref().is_none_or(|(n, _)| left.len() < *n)
                {
                    best = Some((left.len(), p));
                }
            }
        }
        let (_, p) = best?;
        facts.push(p.clone());
        added.push(p);
    }
}

/// Facts that, added one by one, make the scenario's oracle the only
/// allowed decision, each keeping the oracle allowed: for every decision
/// still allowed beside the oracle, one fact that rules it out. `None` when
/// no fact of the family tells some decision from the oracle, or the oracle
/// itself is not allowed, or the search would pass `deadline`.
/// Deterministic: the same scenario, the same facts.
pub fn pin_oracle(sc: &Scenario, deadline: std::time::Instant) -> Option<Vec<Predicate>> {
    if let Some(ss) = sc.rule_setting() {
        return pin_level(sc, ss, deadline);
    }
    let mut added: Vec<Predicate> = Vec::new();
    let mut work = sc.clone();
    // Each round rules out one more decision; the bound keeps a scenario
    // with a huge decision space from running long.
    for _ in 0..32 {
        let m = model::lower(&work);
        let mut session = Session::new(&m, Some(deadline));
        let oracle = m.encode(&work.oracle)?;
        let not_oracle = session.differ_from(&oracle);
        let on: Vec<bool> = m
            .facts
            .iter()
            .map(|f| f.status == model::FactStatus::Appropriate)
            .collect();
        if !matches!(session.solve(&on, &[]), Outcome::Sat(_)) {
            return None;
        }
        let other = match session.solve(&on, &[not_oracle]) {
            Outcome::Sat(c) => m.decode(&c),
            Outcome::Unsat => return Some(added),
            _ => return None,
        };
        let base = in_force(&work);
        let pick = separating_facts(&work, &other).into_iter().find(|p| {
            let mut refs: Vec<&Predicate> = base.iter().collect();
            refs.push(p);
            crate::model::direct::allowed(&work, &work.oracle, &refs)
                && !crate::model::direct::allowed(&work, &other, &refs)
        })?;
        let holder = pick.subject().unwrap_or(1.min(work.people.len() - 1));
        push_attribute(
            &mut work,
            holder,
            None,
            String::new(),
            None,
            vec![pick.clone()],
            Vec::new(),
        );
        added.push(pick);
    }
    None
}

/// The `i`th name of a pool, numbered past the pool's end (`cedar`, …,
/// `cedar_2`), so that generated ids and texts read as names, never as
/// `room_3` or `signal_2`.
pub(crate) fn pooled(pool: &[&str], i: usize) -> String {
    let base = pool[i % pool.len()];
    match i / pool.len() {
        0 => base.to_string(),
        n => format!("{base}_{}", n + 1),
    }
}

/// The checks or signals a rule family's planted scenarios draw their
/// variables from; empty for the allocation families.
pub(crate) fn side_pool(family: Family) -> &'static [&'static str] {
    match family {
        Family::PolicyDecision => &policy::CHECKS,
        Family::SeverityClassification => &severity::SIGNALS,
        Family::JiraAllocation | Family::MeetingAllocation => &[],
    }
}

/// The written names of the checks or signals of the family's pool that
/// the scenario's rules do not name: what a side finding is about.
pub(crate) fn side_names(sc: &Scenario) -> Vec<&'static str> {
    let texts = crate::phrasing::FactTexts::builtin();
    let Some(ss) = sc.rule_setting() else {
        return Vec::new();
    };
    side_pool(sc.family())
        .iter()
        .filter(|id| ss.evidence.iter().all(|e| e.id != **id))
        .filter_map(|id| crate::phrasing::evidence_name(texts, id))
        .collect()
}

/// The states of the rule setting's findings, each variable's in turn
/// (a state two variables share is listed twice).
pub(crate) fn finding_states(ss: &crate::sema::RuleSetting) -> Vec<&String> {
    ss.evidence.iter().flat_map(|e| &e.values).collect()
}

/// `n` names from `pool`: a draw of distinct ones, in the pool's order,
/// when the pool has enough, else the pool's names in turn (see
/// [`pooled`]). A name one scenario's rules use is then another's side
/// finding, so that no name tells which findings count.
pub(crate) fn drawn_names(pool: &[&str], n: usize, rng: &mut ChaCha8Rng) -> Vec<String> {
    if n > pool.len() {
        return (0..n).map(|i| pooled(pool, i)).collect();
    }
    let mut picked = rand::seq::index::sample(rng, pool.len(), n).into_vec();
    picked.sort_unstable();
    picked.into_iter().map(|i| pool[i].to_string()).collect()
}

/// A team name for a generated title, from the seed: titles never carry
/// the scenario id.
pub(crate) fn team(seed: u64) -> &'static str {
    const TEAMS: [&str; 12] = [
        "Atlas", "Beacon", "Comet", "Delta", "Ember", "Falcon", "Granite", "Harbor", "Iris",
        "Juniper", "Kestrel", "Lumen",
    ];
    TEAMS[(seed % TEAMS.len() as u64) as usize]
}

/// `cedar_2` as a display name: `Cedar 2`.
pub(crate) fn display(id: &str) -> String {
    let spaced = id.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => spaced,
    }
}
