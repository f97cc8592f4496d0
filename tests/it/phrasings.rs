//! Every predicate of the table through the phrasing: a personal fact gets
//! a reason in its raw form and a sanitized form without it, and the
//! paraphrases and fix-it texts that build on them. Every spelling of a
//! slot and of a ticket is read back as that slot and that ticket by the
//! text checks' reader, so a text that draws any of them is held to its
//! fact as the first spelling is.

use cici::analysis::mentions::{Named, Reader};
use cici::phrasing::{
    canonical_sanitized, hard, paraphrases, slot_words, ticket_words, when_words, FactTexts,
};
use cici::planted::{generate, Config};
use cici::sema::{
    ArgKind, ArgValue, Category, Day, Family, Predicate, PredicateSpec, Scenario, Slot,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A predicate of `spec` whose arguments exist in `sc`.
pub(crate) fn sample(sc: &Scenario, spec: &PredicateSpec) -> Predicate {
    let ms = sc.meeting_setting();
    let args: Vec<ArgValue> = spec
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| match p.kind {
            ArgKind::Person => ArgValue::Person(1 + i),
            ArgKind::Room => ArgValue::Room(0),
            ArgKind::Meeting => ArgValue::Meeting(i),
            ArgKind::Feature => ArgValue::Feature(
                ms.and_then(|m| m.rooms.iter().flat_map(|r| r.features.first()).next())
                    .cloned()
                    .unwrap_or_else(|| "projector".into()),
            ),
            ArgKind::Slot => ArgValue::Slot(ms.expect("meeting setting").meetings[0].slots[0]),
            ArgKind::Ticket => ArgValue::Ticket(0),
            ArgKind::Integer => ArgValue::Integer(8 + 4 * i as u32),
            ArgKind::Variable => ArgValue::Variable(0),
            ArgKind::Value => ArgValue::Value(0),
            ArgKind::Level => ArgValue::Level(0),
        })
        .collect();
    Predicate::from_args(spec.kind, &args).expect("arguments of the table's kinds")
}

#[test]
fn every_predicate_is_phrased_and_every_personal_one_sanitized() {
    let texts = FactTexts::builtin();
    for family in Family::ALL {
        let sc = generate(&Config::pisas(family, 3));
        for spec in family.predicates().filter(|s| !s.soft_only) {
            let p = sample(&sc, spec);
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let t = hard(texts, &sc, &p, &mut rng);
            let what = format!("{} in {}", spec.name, family.name());
            assert!(
                !t.raw.is_empty() && !t.raw.contains("{{"),
                "{what}: {:?}",
                t.raw
            );
            let Some(subject) = p.subject() else {
                assert_eq!(t.category, Category::Operational, "{what}");
                assert!(!paraphrases(texts, &sc, &p, cici::sema::FormKind::Raw).is_empty());
                continue;
            };
            let first =
                cici::counterfactual::wording::subject_name(&sc, &p).expect("a subject name");
            assert!(sc.people[subject].name.starts_with(&first), "{what}");
            assert!(t.raw.contains(&first), "{what}: {:?} names {first}", t.raw);
            if spec.kind == cici::sema::PredicateKind::Attends {
                // Attending is said as it is: there is no reason to hide.
                continue;
            }
            assert_ne!(t.category, Category::Operational, "{what}");
            let sanitized = t
                .sanitized
                .unwrap_or_else(|| panic!("{what}: no sanitized form"));
            assert!(sanitized.contains(&first), "{what}: {sanitized:?}");
            let held = paraphrases(texts, &sc, &p, cici::sema::FormKind::Sanitized);
            assert!(held.len() >= 2, "{what}: paraphrases {held:?}");
            assert!(canonical_sanitized(texts, &sc, &p).is_some(), "{what}");
        }
    }
}

/// Whether a time the reader found is the slot's: the range itself (on
/// the twelve-hour clock where the hours are bare), a time within it, or
/// a part of the day it falls in.
fn within(slot: &Slot, n: &Named) -> bool {
    match *n {
        Named::Time { start, end, twelve } => {
            let later =
                twelve.then(|| (start + 720, end.map(|e| if e <= 720 { e + 720 } else { e })));
            std::iter::once((start, end))
                .chain(later)
                .any(|(a, b)| match b {
                    Some(b) => a == slot.start && b == slot.end,
                    None => slot.start <= a && a <= slot.end,
                })
        }
        Named::PartOfDay(a, b) => slot.start < b && a < slot.end,
        _ => false,
    }
}

#[test]
fn every_slot_spelling_reads_as_its_slot() {
    let sc = generate(&Config::pisas(Family::MeetingAllocation, 3));
    let reader = Reader::new(&sc);
    let mut starts: Vec<(u16, u16)> = (7..22).map(|h| (h * 60, h * 60 + 60)).collect();
    starts.extend([(570, 630), (720, 840), (690, 750), (870, 930), (1380, 1440)]);
    let mut read = 0;
    for day in Day::ALL {
        for &(start, end) in &starts {
            let slot = Slot { day, start, end };
            let all = slot_words(&slot);
            assert!(all.len() >= 6, "{slot:?}");
            assert_eq!(all[0].when, when_words(&slot));
            for text in all.iter().flat_map(|w| [&w.when, &w.at_when]) {
                let found = reader.read(text);
                let days: Vec<&Named> = found
                    .iter()
                    .map(|m| &m.what)
                    .filter(|n| matches!(n, Named::Day(_)))
                    .collect();
                assert_eq!(days, [&Named::Day(day)], "{text:?}: {found:?}");
                let times: Vec<&Named> = found
                    .iter()
                    .map(|m| &m.what)
                    .filter(|n| !matches!(n, Named::Day(_)))
                    .collect();
                assert!(!times.is_empty(), "{text:?} names no time");
                for t in times {
                    assert!(within(&slot, t), "{text:?}: {t:?} is not {slot:?}");
                }
                read += 1;
            }
        }
    }
    assert!(read > 1000, "only {read} spellings read");
}

#[test]
fn every_ticket_spelling_names_its_ticket_alone() {
    for seed in [3, 11, 29] {
        let sc = generate(&Config::pisas(Family::JiraAllocation, seed));
        let js = sc.jira_setting().expect("a JIRA setting");
        let reader = Reader::new(&sc);
        for t in 0..js.tickets.len() {
            let all = ticket_words(js, t);
            assert_eq!(all[0], js.tickets[t].title);
            assert_eq!(all.len(), 4, "{:?} has a key and a topic", all[0]);
            for text in &all {
                let found: Vec<Named> = reader.read(text).into_iter().map(|m| m.what).collect();
                assert!(!found.is_empty(), "{text:?} names nothing");
                assert!(
                    found.iter().all(|n| *n == Named::Ticket(t)),
                    "{text:?}: {found:?}"
                );
            }
        }
    }
}
