//! Texts printed from the phrasing tables agree with their facts; the
//! same text printed for a fact with one argument changed does not.

use cici::analysis::agreement::check;
use cici::analysis::mentions::Reader;
use cici::analysis::{CheckDiagnostic, Class};
use cici::phrasing::{statement, FactTexts};
use cici::planted::{generate, Config};
use cici::sema::{ArgKind, ArgValue, Bound, Family, Predicate, Scenario, Slot};
use proptest::prelude::*;

/// Whether `d` is one of the fact-text diagnostics.
fn about_text(d: &CheckDiagnostic) -> bool {
    matches!(
        d,
        CheckDiagnostic::TextContradictsFact { .. }
            | CheckDiagnostic::TextStatesMore { .. }
            | CheckDiagnostic::TextStatesNothing { .. }
    )
}

/// Another value for argument `i` of `p` that the check reads, if any.
fn changed(sc: &Scenario, p: &Predicate, i: usize) -> Option<Predicate> {
    let spec = p.spec();
    let mut args = p.args();
    let param = spec.params[i];
    let others = |n: usize, x: usize| (0..n).find(|&y| y != x);
    let new = match (&args[i], param.kind) {
        (ArgValue::Person(x), _) => {
            let taken: Vec<usize> = args
                .iter()
                .filter_map(|a| match a {
                    ArgValue::Person(y) => Some(*y),
                    _ => None,
                })
                .collect();
            ArgValue::Person((0..sc.people.len()).find(|y| !taken.contains(y) && y != x)?)
        }
        (ArgValue::Slot(s), _) => {
            let day = cici::sema::Day::ALL[(s.day as usize + 2) % 5];
            ArgValue::Slot(Slot { day, ..*s })
        }
        (ArgValue::Room(x), _) => ArgValue::Room(others(sc.meeting_setting()?.rooms.len(), *x)?),
        (ArgValue::Meeting(x), _) => {
            ArgValue::Meeting(others(sc.meeting_setting()?.meetings.len(), *x)?)
        }
        (ArgValue::Ticket(x), _) => ArgValue::Ticket(others(sc.jira_setting()?.tickets.len(), *x)?),
        (ArgValue::Feature(f), _) => {
            let ms = sc.meeting_setting()?;
            let all = ms.rooms.iter().flat_map(|r| &r.features);
            ArgValue::Feature(all.into_iter().find(|g| *g != f)?.clone())
        }
        (ArgValue::Integer(n), ArgKind::Integer) => match param.bound {
            Bound::Quantity => ArgValue::Integer(n + 3),
            Bound::Hour { after: None } => ArgValue::Integer(n.checked_sub(2)?),
            Bound::Hour { after: Some(_) } => ArgValue::Integer((n + 2).min(24)),
            Bound::None => return None,
        },
        _ => return None,
    };
    if new == args[i] {
        return None;
    }
    args[i] = new;
    Predicate::from_args(spec.kind, &args)
}

fn planted(family: Family, seed: u64) -> Scenario {
    generate(&Config::pisas(family, seed))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn printed_texts_agree_and_a_changed_argument_is_caught(
        family in prop::sample::select(vec![Family::MeetingAllocation, Family::JiraAllocation]),
        seed in 0u64..1_000,
        pick in any::<prop::sample::Index>(),
        arg in any::<prop::sample::Index>(),
    ) {
        let sc = planted(family, seed);
        let reader = Reader::new(&sc);
        for attr in &sc.attributes {
            let found: Vec<CheckDiagnostic> = check(&sc, &reader, attr, Class::Critical)
                .into_iter()
                .filter(about_text)
                .collect();
            prop_assert!(found.is_empty(), "{}: {:?}\n{:?}", attr.id, found, attr);
        }
        // One attribute with a hard fact, its text printed for a fact with
        // one argument changed.
        let with_fact: Vec<usize> = (0..sc.attributes.len())
            .filter(|&a| !sc.attributes[a].fact_form().1.facts.is_empty())
            .collect();
        prop_assume!(!with_fact.is_empty());
        let a = with_fact[pick.index(with_fact.len())];
        let fact = sc.attributes[a].fact_form().1.facts[0].predicate.clone();
        let i = arg.index(fact.spec().params.len());
        let Some(other) = changed(&sc, &fact, i) else { return Ok(()) };
        let Some(text) = statement(FactTexts::builtin(), &sc, &other) else { return Ok(()) };
        let mut edited = sc.clone();
        match &mut edited.attributes[a].sanitized {
            Some(s) => s.text = text.clone(),
            None => edited.attributes[a].raw.text = text.clone(),
        }
        let found = check(&edited, &Reader::new(&edited), &edited.attributes[a], Class::Critical);
        prop_assert!(
            found.iter().any(|d| matches!(d, CheckDiagnostic::TextContradictsFact { .. })),
            "{text:?} for {} (argument {i} changed to {:?}) gives {found:?}",
            cici::printer::predicate(&sc, &fact),
            cici::printer::predicate(&sc, &other),
        );
    }
}
