//! Every row of the predicate table goes through every stage that handles
//! facts. A row added to `PREDICATES` fails to compile where `Predicate`
//! is matched, and fails here until the seed language, the printer, the
//! lowering, the phrasing templates and the person-level consumers (fix-its,
//! paraphrase holds, the critic's subject check) all handle it.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use cici::sema::{
    ArgKind, ArgValue, Bound, Family, Param, Predicate, PredicateSpec, Scenario, PREDICATES,
};

/// A scenario of the family, planted, so that every kind of argument has
/// something to name.
fn scenario(family: Family) -> Scenario {
    cici::planted::generate(&cici::planted::Config::pisas(family, 3))
}

/// An argument of the parameter's kind that the scenario has.
fn argument(sc: &Scenario, p: &Param) -> ArgValue {
    let ms = sc.meeting_setting();
    match p.kind {
        ArgKind::Person => ArgValue::Person((sc.executor + 1) % sc.people.len()),
        ArgKind::Room => ArgValue::Room(0),
        ArgKind::Meeting => ArgValue::Meeting(0),
        ArgKind::Feature => ArgValue::Feature(
            ms.and_then(|m| m.rooms.iter().find_map(|r| r.features.first().cloned()))
                .unwrap_or_else(|| "projector".into()),
        ),
        ArgKind::Slot => ArgValue::Slot(ms.expect("a meeting setting").meetings[0].slots[0]),
        ArgKind::Ticket => ArgValue::Ticket(0),
        ArgKind::Integer => ArgValue::Integer(match p.bound {
            Bound::Hour { after: None } => 9,
            Bound::Hour { after: Some(_) } => 17,
            Bound::Quantity | Bound::None => 2,
        }),
        ArgKind::Variable => ArgValue::Variable(0),
        ArgKind::Value => ArgValue::Value(0),
        ArgKind::Level => ArgValue::Level(0),
    }
}

/// The row's fact in a planted scenario of each of its families.
fn instances(spec: &PredicateSpec) -> Vec<(Scenario, Predicate)> {
    spec.families
        .iter()
        .map(|&family| {
            let sc = scenario(family);
            let args: Vec<ArgValue> = spec.params.iter().map(|p| argument(&sc, p)).collect();
            let p = Predicate::from_args(spec.kind, &args)
                .unwrap_or_else(|| panic!("{} takes its table parameters", spec.name));
            (sc, p)
        })
        .collect()
}

/// The scenario with one more attribute holding `p` (as a hard fact, or a
/// soft one for a soft-only row), printed, parsed and resolved again.
fn through_the_language(sc: &Scenario, p: &Predicate, soft: bool) -> Scenario {
    let mut with = sc.clone();
    let holder = p.subject().unwrap_or(sc.executor);
    let (hard, soft) = if soft {
        (Vec::new(), vec![p.clone()])
    } else {
        (vec![p.clone()], Vec::new())
    };
    cici::planted::push_attribute(&mut with, holder, None, "probe".into(), None, hard, soft);
    let text = cici::printer::print(&with);
    let (file, errors) = cici::syntax::parse(cici::span::SourceId(0), &text);
    assert!(errors.is_empty(), "{text}\n{errors:?}");
    cici::sema::resolve(&file.scenarios[0]).unwrap_or_else(|e| {
        panic!(
            "`{}` does not resolve: {e:?}",
            cici::printer::predicate(sc, p)
        )
    })
}

#[test]
fn every_row_is_written_read_and_lowered() {
    for spec in &PREDICATES {
        for (sc, p) in instances(spec) {
            let syntax = cici::printer::predicate(&sc, &p);
            assert!(syntax.starts_with(&format!("{}(", spec.name)), "{syntax}");
            let back = through_the_language(&sc, &p, spec.soft_only);
            let attr = back.attributes.last().expect("the probe");
            let facts = if spec.soft_only {
                &attr.soft
            } else {
                &attr.fact_form().1.facts
            };
            assert_eq!(facts[0].predicate, p, "{syntax} reads back");
            // The lowering has a fact for it, whatever family it is of.
            let before = cici::model::lower(&sc).facts.len();
            let after = cici::model::lower(&back).facts.len();
            assert_eq!(after, before + 1, "{syntax} is lowered");
        }
    }
}

#[test]
fn every_hard_row_has_its_phrasing() {
    let texts = cici::phrasing::FactTexts::builtin();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for spec in PREDICATES.iter().filter(|s| !s.soft_only) {
        for (sc, p) in instances(spec) {
            let t = cici::phrasing::hard(texts, &sc, &p, &mut rng);
            assert!(!t.raw.trim().is_empty(), "{} has a raw text", spec.name);
            let said = cici::phrasing::statement(texts, &sc, &p);
            assert!(
                said.is_some_and(|s| !s.is_empty()),
                "{} is stated",
                spec.name
            );
        }
    }
}

/// The consumers that need the person a fact is about: the critic's
/// subject check, and for a fact with a reason to hide the leak fix-it's
/// sanitized text and the paraphrase holds of its sanitized form; an
/// operational fact's paraphrase holds phrase its raw form.
#[test]
fn every_person_level_row_has_a_subject_for_its_consumers() {
    let texts = cici::phrasing::FactTexts::builtin();
    for spec in PREDICATES.iter().filter(|s| !s.soft_only) {
        for (sc, p) in instances(spec) {
            assert_eq!(
                p.subject().is_some(),
                spec.subject.is_some(),
                "{}",
                spec.name
            );
            let told = match (spec.subject, texts.has_sanitized(spec)) {
                (None, _) => Some(cici::sema::FormKind::Raw),
                (Some(_), true) => Some(cici::sema::FormKind::Sanitized),
                (Some(_), false) => None,
            };
            if let Some(told) = told {
                let holds = cici::phrasing::paraphrases(texts, &sc, &p, told);
                assert!(!holds.is_empty(), "{}: {told:?} paraphrases", spec.name);
            }
            if spec.subject.is_none() {
                continue;
            }
            let name = cici::counterfactual::wording::subject_name(&sc, &p);
            assert!(
                name.is_some(),
                "{}: the critic names its subject",
                spec.name
            );
            let fix = cici::phrasing::canonical_sanitized(texts, &sc, &p);
            assert_eq!(
                fix.is_some(),
                texts.has_sanitized(spec),
                "{}: the leak fix-it has a text where the fact has a sanitized phrasing",
                spec.name
            );
        }
    }
}
