//! Properties that must hold for every scenario:
//!
//! - the solver allows exactly the decisions that brute-force enumeration
//!   of the reference semantics (`reference.rs`, which shares no code with
//!   the product) allows, with any subset of facts in force, also where a
//!   decision group has more than 16 options;
//! - uniqueness, every attribute's class (critical, supporting, idle, trap,
//!   benign, irrelevant) and every fact's relevance agree with brute force;
//! - adding a fact never widens the allowed set (monotonicity);
//! - no input, however broken, makes the pipeline panic.

use miette::Diagnostic as _;
use std::collections::BTreeSet;

use proptest::prelude::*;

use cici::analysis::{analyse, Class, Options};
use cici::authoring::fixit::Fixes as _;
use cici::model::{lower, FactStatus};
use cici::planted::{generate, Config};
use cici::sema::*;
use cici::solver::{Outcome, Session};
use cici::span::Span;

/// A small planted scenario whose decision space brute force can walk.
pub(super) fn small(family: Family, seed: u64) -> Scenario {
    let (people, size) = match family {
        Family::JiraAllocation => (4, 3),
        Family::MeetingAllocation => (5, 3),
        Family::SeverityClassification => (3, 3),
        Family::PolicyDecision => (4, 4),
    };
    let mut sc = generate(&Config {
        family,
        people,
        size,
        soft: 2,
        irrelevant: 1,
        seed,
        id: None,
        norms: seed.is_multiple_of(3),
    });
    vary_tickets(&mut sc, seed);
    touching_slots(&mut sc, seed);
    sc
}

/// Gives planted meetings slots that touch: for odd seeds, the second
/// meeting may start the moment one of the first's slots ends, and the first
/// may end the moment the second's first slot starts. Touching is where
/// `before` allows what overlap would not, and where `unavailable` and
/// `within_hours` meet their bounds.
fn touching_slots(sc: &mut Scenario, seed: u64) {
    let Setting::Meeting(ms) = &mut sc.setting else {
        return;
    };
    if seed.is_multiple_of(2) || ms.meetings.len() < 2 {
        return;
    }
    let ends = ms.meetings[0].slots[(seed >> 1) as usize % ms.meetings[0].slots.len()];
    let starts = ms.meetings[1].slots[0];
    // Each ends, or starts, on a whole hour, where `within_hours` bounds lie.
    let after = Slot {
        day: ends.day,
        start: ends.end,
        end: ((ends.end / 60 + 1) * 60).min(1440),
    };
    let before = Slot {
        day: starts.day,
        start: (starts.start / 60).saturating_sub(1) * 60,
        end: starts.start,
    };
    for (m, slot) in [(1, after), (0, before)] {
        let slots = &mut ms.meetings[m].slots;
        if slot.start < slot.end && !slots.contains(&slot) {
            slots.push(slot);
        }
    }
}

/// Gives planted tickets what the generator leaves out: priorities, the
/// collaboration-heavy flag, and second seats of another skill (`with`),
/// chosen from the seed, so that every ticket property meets the facts.
pub(super) fn vary_tickets(sc: &mut Scenario, seed: u64) {
    let skills: Vec<String> = sc.people.iter().flat_map(|p| p.skills.clone()).collect();
    let Setting::Jira(js) = &mut sc.setting else {
        return;
    };
    for (t, ticket) in js.tickets.iter_mut().enumerate() {
        let r = seed.rotate_left(7 * t as u32 + 3);
        ticket.priority = [None, Some(Priority::Low), Some(Priority::High)][(r % 3) as usize];
        ticket.collaboration_heavy = r & 8 != 0;
        if r & 16 != 0 && !skills.is_empty() {
            ticket.pair = true;
            ticket.with = Some(Seat {
                skill: skills[(r >> 5) as usize % skills.len()].clone(),
                hours: 1 + (r >> 9) as u32 % 4,
            });
        }
    }
}

/// A random fact of the scenario's family, from a few random numbers.
pub(super) fn random_fact(sc: &Scenario, r: &[usize; 4]) -> Predicate {
    let person = r[1] % sc.people.len();
    match &sc.setting {
        Setting::Meeting(ms) => {
            let m = r[2] % ms.meetings.len();
            let slots: Vec<Slot> = ms
                .meetings
                .iter()
                .flat_map(|m| m.slots.iter().copied())
                .collect();
            let slot = slots[r[3] % slots.len()];
            let features: Vec<&String> = ms.rooms.iter().flat_map(|r| &r.features).collect();
            match r[0] % 9 {
                0 => Predicate::Meeting(MeetingPredicate::Unavailable { person, slot }),
                1 => Predicate::Meeting(MeetingPredicate::AvoidRoom {
                    person,
                    room: r[3] % ms.rooms.len(),
                }),
                2 => Predicate::Meeting(MeetingPredicate::NeedsFeature {
                    meeting: m,
                    feature: features[r[3] % features.len()].clone(),
                }),
                3 => Predicate::Meeting(MeetingPredicate::Attends { person, meeting: m }),
                4 => Predicate::Meeting(MeetingPredicate::NotBefore { meeting: m, slot }),
                5 => Predicate::Meeting(MeetingPredicate::RequiresFeature {
                    person,
                    feature: features[r[3] % features.len()].clone(),
                }),
                6 => Predicate::Meeting(MeetingPredicate::WithinHours {
                    person,
                    earliest: 8 + (r[3] % 4) as u32,
                    latest: 12 + (r[2] % 6) as u32,
                }),
                7 => Predicate::Meeting(MeetingPredicate::Before {
                    first: m,
                    second: r[3] % ms.meetings.len(),
                }),
                _ => Predicate::Meeting(MeetingPredicate::NotAfter { meeting: m, slot }),
            }
        }
        Setting::Jira(js) => match r[0] % 8 {
            0 => Predicate::Jira(JiraPredicate::Capacity {
                person,
                hours: (r[3] % 16) as u32,
            }),
            1 => Predicate::Jira(JiraPredicate::CannotOwn {
                person,
                ticket: r[2] % js.tickets.len(),
            }),
            2 => Predicate::Jira(JiraPredicate::NoSensitive { person }),
            3 => Predicate::Jira(JiraPredicate::CannotPair {
                a: person,
                b: r[2] % sc.people.len(),
            }),
            4 => Predicate::Jira(JiraPredicate::NoHighPriority { person }),
            5 => Predicate::Jira(JiraPredicate::NoCollaborationHeavy { person }),
            6 => Predicate::Jira(JiraPredicate::CannotBeSoleOwner { person }),
            _ => Predicate::Jira(JiraPredicate::Unavailable { person }),
        },
        Setting::Rule(ss) => {
            let variable = r[2] % ss.evidence.len();
            Predicate::Rule(RulePredicate::Evidence {
                variable,
                value: r[3] % ss.evidence[variable].values.len(),
            })
        }
    }
}

/// Adds a fact as its own attribute: appropriate, inappropriate or soft.
/// Adds a random fact of the scenario's family for each entry, as
/// `add_fact` files it.
pub(super) fn add_random_facts(sc: &mut Scenario, extra: &[([usize; 4], usize)]) {
    for (r, kind) in extra {
        let p = random_fact(sc, r);
        add_fact(sc, p, *kind);
    }
}

/// Which of the scenario's facts are in force, one bit of `bits` each.
pub(super) fn masked(sc: &Scenario, bits: u64) -> Vec<bool> {
    (0..predicates(sc).len())
        .map(|i| bits >> (i % 64) & 1 == 1)
        .collect()
}

pub(super) fn add_fact(sc: &mut Scenario, p: Predicate, kind: usize) {
    let everyone: Vec<PersonId> = (0..sc.people.len()).collect();
    let fact = Fact {
        predicate: p,
        span: Span::DERIVED,
    };
    let (appropriate, facts, soft) = match kind % 3 {
        0 => (true, vec![fact], vec![]),
        1 => (false, vec![fact], vec![]),
        _ => (false, vec![], vec![fact]),
    };
    sc.attributes.push(Attribute {
        id: format!("extra_{}", sc.attributes.len()),
        holder: 1,
        about: 1,
        category: Some(Category::Operational),
        raw: Form {
            text: "extra".into(),
            appropriate,
            visible: if appropriate { everyone } else { vec![1] },
            facts,
            span: Span::DERIVED,
            text_span: Span::DERIVED,
        },
        sanitized: None,
        soft,
        claims: Vec::new(),
        span: Span::DERIVED,
        id_span: Span::DERIVED,
    });
}

/// Every decision the solver allows with the given facts in force.
fn solver_allowed(sc: &Scenario, in_force: &[bool]) -> BTreeSet<Decision> {
    let model = lower(sc);
    let mut session = Session::new(&model, None);
    let mut blocks = Vec::new();
    let mut out = BTreeSet::new();
    while let Outcome::Sat(choice) = session.solve(in_force, &blocks) {
        assert!(
            out.insert(model.decode(&choice)),
            "the solver found a decision twice"
        );
        blocks.push(session.differ_from(&choice));
        assert!(out.len() < 100_000);
    }
    out
}

/// Every decision brute force allows with the given facts in force.
pub(super) fn brute_allowed(sc: &Scenario, in_force: &[bool]) -> BTreeSet<Decision> {
    let preds = predicates(sc);
    let on: Vec<&Predicate> = preds
        .iter()
        .zip(in_force)
        .filter(|(_, &b)| b)
        .map(|(p, _)| p)
        .collect();
    super::reference::allowed_set(sc, &on)
}

/// Widens the first decision group past 16 options, so that the model's
/// sequential at-most-one encoding is in play: a meeting gets more slots
/// (the oracle keeps its indexes), an evidence variable more values.
fn widen(sc: &mut Scenario) {
    match &mut sc.setting {
        Setting::Meeting(ms) => {
            let m = &mut ms.meetings[0];
            let all = Day::ALL
                .iter()
                .flat_map(|&day| (6u16..20).map(move |h| (day, h)));
            for (day, hour) in all {
                if m.slots.len() * m.rooms.len() > 16 {
                    break;
                }
                let slot = Slot {
                    day,
                    start: hour * 60,
                    end: hour * 60 + 30,
                };
                if !m.slots.contains(&slot) {
                    m.slots.push(slot);
                }
            }
        }
        Setting::Rule(ss) => {
            let e = &mut ss.evidence[0];
            while e.values.len() <= 16 {
                e.values.push(format!("extra_{}", e.values.len()));
            }
        }
        Setting::Jira(_) => {}
    }
}

/// The facts of a scenario in the model's order (hard, then soft, then
/// claims, per attribute).
pub(super) fn predicates(sc: &Scenario) -> Vec<Predicate> {
    let mut out = Vec::new();
    for a in &sc.attributes {
        out.extend(a.fact_form().1.facts.iter().map(|f| f.predicate.clone()));
        out.extend(a.soft.iter().map(|f| f.predicate.clone()));
        out.extend(a.claims.iter().map(|f| f.predicate.clone()));
    }
    out
}

fn family(i: u8) -> Family {
    Family::ALL[i as usize % Family::ALL.len()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn solver_agrees_with_brute_force(
        fam in 0u8..4,
        seed in 0u64..10_000,
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..4),
        mask_bits in any::<u64>(),
    ) {
        let mut sc = small(family(fam), seed);
        add_random_facts(&mut sc, &extra);
        let in_force = masked(&sc, mask_bits);
        prop_assert_eq!(solver_allowed(&sc, &in_force), brute_allowed(&sc, &in_force));
    }

    /// Meetings whose slots touch, with `before` between the first two in
    /// either order and the time facts at the touching slot's bounds: the
    /// boundaries where "ends by" and "overlaps" differ.
    #[test]
    fn touching_slots_agree_with_brute_force(
        seed in 0u64..10_000,
        order in 0usize..2,
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..3),
        mask_bits in any::<u64>(),
    ) {
        let mut sc = small(Family::MeetingAllocation, seed | 1);
        let ms = sc.meeting_setting().unwrap();
        let touching = *ms.meetings[1].slots.last().unwrap();
        let leading = *ms.meetings[0].slots.last().unwrap();
        // People who attend: the facts about them bite.
        let pick = |m: usize| ms.meetings[m].attendees[seed as usize % ms.meetings[m].attendees.len()];
        let (in_first, in_second) = (pick(0), pick(1));
        add_fact(&mut sc, Predicate::Meeting(MeetingPredicate::Before { first: order, second: 1 - order }), 0);
        add_fact(&mut sc, Predicate::Meeting(MeetingPredicate::Unavailable { person: in_first, slot: touching }), 0);
        // One bound each, at the slot's edge; the other wide open, so that
        // the person's other meetings still fit.
        let latest = u32::from(touching.end).div_ceil(60);
        add_fact(&mut sc, Predicate::Meeting(MeetingPredicate::WithinHours { person: in_second, earliest: 0, latest }), 0);
        let earliest = u32::from(leading.start / 60);
        add_fact(&mut sc, Predicate::Meeting(MeetingPredicate::WithinHours { person: in_first, earliest, latest: 24 }), 0);
        add_fact(&mut sc, Predicate::Meeting(MeetingPredicate::NotAfter { meeting: 0, slot: touching }), 0);
        add_random_facts(&mut sc, &extra);
        let in_force = masked(&sc, mask_bits);
        prop_assert_eq!(solver_allowed(&sc, &in_force), brute_allowed(&sc, &in_force));
    }

    #[test]
    fn verdicts_agree_with_brute_force(
        fam in 0u8..4,
        seed in 0u64..10_000,
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..3),
    ) {
        let mut sc = small(family(fam), seed);
        add_random_facts(&mut sc, &extra);
        let model = lower(&sc);
        let report = analyse(&sc, &model, &Options::default());
        let appropriate: Vec<bool> = model.facts.iter().map(|f| f.status == FactStatus::Appropriate).collect();
        let allowed = brute_allowed(&sc, &appropriate);
        let unique = allowed.len() == 1 && allowed.contains(&sc.oracle);
        prop_assert_eq!(report.unique, unique);
        prop_assert_eq!(report.oracle_allowed, allowed.contains(&sc.oracle));
        if unique {
            for (a, finding) in report.attributes.iter().enumerate() {
                let critical = finding.facts.iter().any(|&f| {
                    if !appropriate[f] {
                        return false;
                    }
                    let mut without = appropriate.clone();
                    without[f] = false;
                    brute_allowed(&sc, &without).len() > 1
                });
                prop_assert_eq!(finding.class == Class::Critical, critical, "attribute {}", sc.attributes[a].id);
            }
        }
    }

    #[test]
    fn every_class_and_relevance_agree_with_brute_force(
        fam in 0u8..4,
        seed in 0u64..10_000,
        extra in proptest::collection::vec(([0usize..1000, 0..1000, 0..1000, 0..1000], 0usize..3), 0..3),
        wide in any::<bool>(),
    ) {
        let mut sc = small(family(fam), seed);
        if wide {
            widen(&mut sc);
        }
        add_random_facts(&mut sc, &extra);
        // Brute force walks the whole space for each fact: keep it small.
        prop_assume!(super::reference::space_size(&sc) <= 3_000);
        let model = lower(&sc);
        let report = analyse(&sc, &model, &Options::default());
        match super::reference::classes(&sc) {
            None => prop_assert!(!report.unique),
            Some(classes) => {
                prop_assert!(report.unique);
                for (a, finding) in report.attributes.iter().enumerate() {
                    prop_assert_eq!(
                        finding.class.name(),
                        classes[a],
                        "attribute {}",
                        &sc.attributes[a].id
                    );
                }
            }
        }
        // Relevance of every fact the checker decided, in the model's order.
        let facts = super::reference::facts(&sc);
        prop_assert_eq!(facts.len(), model.facts.len());
        for (f, found) in report.facts.iter().enumerate() {
            prop_assert_eq!(facts[f].attribute, model.facts[f].origin.attribute);
            if let Some(relevant) = found.relevant {
                if model.facts[f].status == FactStatus::Appropriate {
                    prop_assert_eq!(
                        relevant,
                        super::reference::relevant(&sc, &facts, f),
                        "fact {} of {}",
                        f,
                        &sc.attributes[facts[f].attribute].id
                    );
                }
            }
        }
    }

    #[test]
    fn solver_agrees_with_brute_force_on_wide_groups(
        fam in 0u8..4,
        seed in 0u64..10_000,
        mask_bits in any::<u64>(),
    ) {
        let mut sc = small(family(fam), seed);
        widen(&mut sc);
        // The solver lists every allowed decision: keep the space small.
        prop_assume!(super::reference::space_size(&sc) <= 3_000);
        let in_force = masked(&sc, mask_bits);
        prop_assert_eq!(solver_allowed(&sc, &in_force), brute_allowed(&sc, &in_force));
    }

    #[test]
    fn counts_agree_with_brute_force(
        fam in 0u8..4,
        seed in 0u64..10_000,
        mask_bits in any::<u64>(),
        bound in 1u64..60,
        wide in any::<bool>(),
    ) {
        let mut sc = small(family(fam), seed);
        if wide {
            widen(&mut sc);
        }
        prop_assume!(super::reference::space_size(&sc) <= 3_000);
        let in_force = masked(&sc, mask_bits);
        let truth = brute_allowed(&sc, &in_force).len() as u64;
        let model = lower(&sc);
        match cici::solver::count(&model, &in_force, bound, None) {
            cici::solver::Count::Exact(n) => prop_assert_eq!(n, truth),
            cici::solver::Count::AtLeast { count, stop } => {
                prop_assert_eq!(stop, cici::solver::Stop::Bound);
                prop_assert!(count >= 1 && count <= truth, "{} of {}", count, truth);
            }
        }
        let exact = cici::solver::count(&model, &in_force, u64::MAX, None);
        prop_assert_eq!(exact, cici::solver::Count::Exact(truth));
    }

    #[test]
    fn adding_a_fact_never_widens_the_allowed_set(
        fam in 0u8..4,
        seed in 0u64..10_000,
        r in [0usize..1000, 0..1000, 0..1000, 0..1000],
        mask_bits in any::<u64>(),
    ) {
        let mut sc = small(family(fam), seed);
        let n = predicates(&sc).len();
        let mut in_force: Vec<bool> = (0..n).map(|i| mask_bits >> (i % 64) & 1 == 1).collect();
        let before = solver_allowed(&sc, &{
            let mut m = in_force.clone();
            m.push(false);
            m
        });
        let p = random_fact(&sc, &r);
        add_fact(&mut sc, p, 0);
        in_force.push(true);
        let after = solver_allowed(&sc, &in_force);
        prop_assert!(after.is_subset(&before), "{:?} is not within {:?}", after, before);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut run = cici::driver::Run::new();
        run.check_text("fuzz.cici", text.clone(), &Options::default());
        for d in &run.diagnostics {
            prop_assert!(d.diagnostic.code().is_some());
        }
        run.compute_fixes(&Options::default());
        if let Ok(formatted) = cici::syntax::format(&text) {
            let again = cici::syntax::format(&formatted).ok();
            prop_assert_eq!(again.as_deref(), Some(formatted.as_str()));
        }
    }

    #[test]
    fn mutated_seeds_never_panic(
        seed in 0usize..3,
        edits in proptest::collection::vec((0usize..100_000, 0usize..12, any::<char>()), 1..6),
    ) {
        let texts = ["ops_scheduling", "payments_sprint", "meridian_incident"];
        let path = super::common::root().join(format!("seeds/{}.cici", texts[seed]));
        let mut text: Vec<char> = std::fs::read_to_string(path).unwrap().chars().collect();
        for (at, len, c) in edits {
            let at = at % (text.len() + 1);
            let end = (at + len % 4).min(text.len());
            text.splice(at..end, std::iter::once(c).take(len % 2));
        }
        let text: String = text.into_iter().collect();
        let mut run = cici::driver::Run::new();
        run.check_text("mutated.cici", text.clone(), &Options::default());
        // Fixes are proposed and verified without panicking, and every one
        // applies to the text it was made for.
        run.compute_fixes(&Options::default());
        for d in &run.diagnostics {
            for fix in &d.fixes {
                prop_assert!(cici::authoring::fixit::apply(&text, &fix.edits).is_some());
            }
        }
        if let Ok(formatted) = cici::syntax::format(&text) {
            let again = cici::syntax::format(&formatted).ok();
            prop_assert_eq!(again.as_deref(), Some(formatted.as_str()));
        }
    }
}

/// Once broke the generator: no room was large enough for the attendees.
#[test]
fn regression_meeting_4865() {
    let sc = small(Family::MeetingAllocation, 4865);
    let n = predicates(&sc).len();
    let none = vec![false; n];
    assert_eq!(solver_allowed(&sc, &none), brute_allowed(&sc, &none));
}

/// A rubric whose condition nests `depth` parentheses deep.
fn nested_rubric(depth: usize) -> String {
    let cond = format!("{}x = yes{}", "(".repeat(depth), ")".repeat(depth));
    format!(
        "scenario s {{ family severity_classification title \"t\" task \"t\" executor a
         person a \"A\" role \"r\" person b \"B\" role \"r\"
         levels [high, low] evidence x [yes, no]
         rubric {{ high when {cond} otherwise low }}
         attribute e {{ holder b raw \"x is no\" fact evidence(x, no) }}
         oracle low }}"
    )
}

/// The parser runs without a stack guard of its own: the nesting bound is
/// what keeps its recursion in the stack. The deepest nesting allowed parses
/// and checks on a thread with a small stack; one level deeper is refused.
#[test]
fn nesting_is_bounded_before_the_parser_recurses() {
    let depth = cici::syntax::MAX_NESTING;
    let checked = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let mut run = cici::driver::Run::new();
            run.check_text("deep.cici", nested_rubric(depth), &Options::default());
            (run.errors(), run.checked.len())
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(checked, (0, 1));
    let mut run = cici::driver::Run::new();
    run.check_text("deeper.cici", nested_rubric(depth + 1), &Options::default());
    let codes: Vec<String> = run
        .diagnostics
        .iter()
        .map(|d| d.diagnostic.code_name())
        .collect();
    assert_eq!(codes, ["cici::syntax::too_deep"]);
}

/// Long chains of `not` fold instead of nesting: no stack to exhaust.
#[test]
fn long_negation_chains_do_not_nest() {
    let nots = "not ".repeat(200_001);
    let text = format!(
        "scenario s {{ family severity_classification title \"t\" task \"t\" executor a
         person a \"A\" role \"r\" person b \"B\" role \"r\"
         levels [high, low] evidence x [yes, no]
         rubric {{ high when {nots} x = yes otherwise low }}
         attribute e {{ holder b raw \"x is no\" fact evidence(x, no) }}
         oracle high }}"
    );
    let mut run = cici::driver::Run::new();
    run.check_text("nots.cici", text, &Options::default());
    assert_eq!(run.errors(), 0);
    assert!(run.checked[0].report.unique);
}
