//! Flow labels held to an independent reading of the norms: who may receive
//! a form is worked out here again from the seed's syntax tree (groups,
//! reporting lines, the purpose, the `norms` block, labels, categories and
//! `visible` clauses, with the defaults of `docs/language.md` written
//! afresh), and whether the task needs the form from the brute-force
//! relevance of `reference.rs`. Nothing of the product's norm derivation,
//! flow label or solver is used.

use std::collections::HashMap;

use cici::syntax::{self as ast, AttributeItem, Item, VisibilityAst};

use super::common::check;
use super::reference;

const PERSONAL: [&str; 12] = [
    "health",
    "mental_health",
    "family",
    "relationships",
    "legal",
    "financial",
    "employment",
    "performance",
    "identity",
    "contact",
    "location",
    "beliefs",
];

struct Norm {
    kinds: Vec<String>,
    to: Vec<String>,
    purpose: Option<String>,
}

/// Everything the reading needs of one scenario's syntax.
struct Reading<'a> {
    executor: String,
    purpose: String,
    groups: HashMap<String, Vec<String>>,
    manager: HashMap<String, String>,
    people: Vec<String>,
    norms: Vec<Norm>,
    attributes: Vec<&'a ast::AttributeAst>,
}

fn read(sc: &ast::ScenarioAst) -> Reading<'_> {
    let mut r = Reading {
        executor: String::new(),
        purpose: String::new(),
        groups: HashMap::new(),
        manager: HashMap::new(),
        people: Vec::new(),
        norms: Vec::new(),
        attributes: Vec::new(),
    };
    let mut family = String::new();
    let mut stated = None;
    for item in &sc.items {
        match item {
            Item::Family(f) => family = f.name.clone(),
            Item::Executor(e) => r.executor = e.name.clone(),
            Item::Purpose(p) => r.purpose = p.name.clone(),
            Item::Person(p) => {
                r.people.push(p.id.name.clone());
                let groups = p.groups.as_ref().map_or(Vec::new(), |(_, l)| {
                    l.items.iter().map(|g| g.name.clone()).collect()
                });
                r.groups.insert(p.id.name.clone(), groups);
                if let Some((_, m)) = &p.reports_to {
                    r.manager.insert(p.id.name.clone(), m.name.clone());
                }
            }
            Item::Norms(n) => stated = Some(n),
            Item::Attribute(a) => r.attributes.push(a),
            _ => {}
        }
    }
    if r.purpose.is_empty() {
        r.purpose = match family.as_str() {
            "meeting_allocation" => "scheduling",
            "jira_allocation" => "staffing",
            "severity_classification" => "incident_response",
            _ => "review",
        }
        .into();
    }
    let names = |l: &ast::List<ast::Ident>| l.items.iter().map(|i| i.name.clone()).collect();
    r.norms = match stated {
        Some(n) => n
            .rules
            .iter()
            .map(|n| Norm {
                kinds: names(&n.kinds),
                to: names(&n.recipients),
                purpose: n.purpose.as_ref().map(|p| p.name.clone()),
            })
            .collect(),
        None => vec![
            Norm {
                kinds: vec!["appropriate".into()],
                to: vec!["everyone".into()],
                purpose: None,
            },
            Norm {
                kinds: vec!["inappropriate".into()],
                to: vec!["holder".into(), "subject".into()],
                purpose: None,
            },
        ],
    };
    r
}

/// Whether `person` may receive form `form` (`raw` or `sanitized`) of the
/// attribute, and whether that form carries the attribute's facts and is
/// appropriate.
fn may_receive(r: &Reading, a: &ast::AttributeAst, form: &str, person: &str) -> (bool, bool) {
    let mut holder = String::new();
    let mut about = None;
    let mut category = None;
    let mut forms: HashMap<&str, &ast::FormAst> = HashMap::new();
    let mut facts = 0;
    for item in &a.items {
        match item {
            AttributeItem::Holder(_, h) => holder = h.name.clone(),
            AttributeItem::About(_, s) => about = Some(s.name.clone()),
            AttributeItem::Category(_, c) => category = Some(c.name.clone()),
            AttributeItem::Raw(f) => {
                forms.insert("raw", f);
            }
            AttributeItem::Sanitized(f) => {
                forms.insert("sanitized", f);
            }
            AttributeItem::Fact(_) => facts += 1,
            AttributeItem::Soft(_) | AttributeItem::Claim(..) => {}
        }
    }
    let about = about.unwrap_or_else(|| holder.clone());
    let f = forms[form];
    let has_twin = forms.contains_key("sanitized");
    let appropriate = f
        .label
        .as_ref()
        .map_or(form == "sanitized" || (!has_twin && facts > 0), |l| {
            l.appropriate
        });
    let carries = facts > 0 && (form == "sanitized" || !has_twin);
    if person == holder {
        return (true, carries && appropriate);
    }
    let visible = match &f.visible {
        Some(VisibilityAst::All(_)) => true,
        Some(VisibilityAst::AllExcept(l)) => l.items.iter().all(|i| i.name != person),
        Some(VisibilityAst::Only(l)) => l.items.iter().any(|i| i.name == person),
        None => r.norms.iter().any(|n| {
            let holds = n.purpose.as_ref().is_none_or(|p| *p == r.purpose);
            let speaks = n.kinds.iter().any(|k| match k.as_str() {
                "any" => true,
                "raw" | "sanitized" => k == form,
                "appropriate" => appropriate,
                "inappropriate" => !appropriate,
                "personal" => {
                    form == "raw" && category.as_deref().is_some_and(|c| PERSONAL.contains(&c))
                }
                c => form == "raw" && category.as_deref() == Some(c),
            });
            let names = n.to.iter().any(|t| match t.as_str() {
                "everyone" => true,
                "executor" => person == r.executor,
                "holder" => person == holder,
                "subject" => person == about,
                "manager" => r.manager.get(&about).is_some_and(|m| m == person),
                t if r.people.iter().any(|p| p == t) => person == t,
                g => r.groups[person].iter().any(|x| x == g),
            });
            holds && speaks && names
        }),
    };
    (visible, carries && appropriate)
}

/// The flow label's two halves read independently: whether the task needs
/// the form (it carries the facts, is appropriate, and one of its facts is
/// relevant by brute force), and whether the recipient may receive it.
fn independent_reasons(seed: &str, flow: &cici::counterfactual::vocab::Flow) -> (bool, bool) {
    let (file, errors) = cici::syntax::parse(cici::span::SourceId(0), seed);
    assert!(errors.is_empty(), "{errors:?}");
    let r = read(&file.scenarios[0]);
    let run = check("side.cici", seed);
    let sc = &run.checked[0].scenario;
    let a = r
        .attributes
        .iter()
        .position(|a| a.id.name == flow.attribute)
        .expect("the flow's attribute");
    let form = match flow.form {
        cici::sema::FormKind::Raw => "raw",
        cici::sema::FormKind::Sanitized => "sanitized",
    };
    let (visible, carries) = may_receive(&r, r.attributes[a], form, &flow.person);
    let all = reference::facts(sc);
    let relevant = (0..all.len())
        .any(|f| all[f].attribute == a && all[f].appropriate && reference::relevant(sc, &all, f));
    (carries && relevant, visible)
}

fn planted_with_norms(family: cici::sema::Family, seed: u64) -> String {
    cici::printer::print(&cici::planted::generate(&cici::planted::Config {
        family,
        people: 5,
        size: 3,
        soft: 1,
        irrelevant: 1,
        seed,
        id: None,
        norms: true,
    }))
}

#[test]
fn every_flow_label_is_the_independent_readings() {
    use cici::counterfactual::{Config, Kind, Label};
    use cici::sema::Family;
    let templates = cici::render::Templates::builtin();
    let config = Config::symbolic(vec![Kind::Flow], 3, 0, 32, Default::default());
    let (mut sides, mut yes) = (0, 0);
    let mut seeds: Vec<String> = Vec::new();
    for family in Family::ALL {
        for seed in 0..4 {
            seeds.push(planted_with_norms(family, seed));
        }
    }
    for name in [
        "ops_scheduling",
        "payments_sprint",
        "vendor_review",
        "meridian_incident",
    ] {
        seeds.push(
            std::fs::read_to_string(super::common::root().join(format!("seeds/{name}.cici")))
                .unwrap(),
        );
    }
    for text in &seeds {
        let run = check("seed.cici", text);
        assert_eq!(run.errors(), 0, "{text}");
        let triplets =
            cici::counterfactual::triplets(&run.checked[0], &config, &templates).unwrap();
        for t in triplets {
            for side in [&t.anchor, &t.flipped.side, &t.held.side] {
                let Label::Flow(label) = side.label else {
                    panic!("a flow triplet");
                };
                let flow = side.flow.as_ref().expect("a flow");
                let (needed, permitted) = independent_reasons(&side.seed, flow);
                assert_eq!(label, needed && permitted, "{flow:?} in\n{}", side.seed);
                let reasons = side.reasons.as_ref().expect("a flow's reasons");
                assert_eq!(
                    (reasons.needed, reasons.permitted),
                    (needed, permitted),
                    "{flow:?} in\n{}",
                    side.seed
                );
                sides += 1;
                yes += usize::from(label);
            }
        }
    }
    assert!(sides >= 60, "only {sides} sides");
    assert!(
        yes * 10 >= sides * 3 && yes * 10 <= sides * 7,
        "{yes} of {sides} yes"
    );
}

/// A form's recipients, found by marking each recipient's people at once
/// (`Env::derive`, `Env::gives`), are the people that the per-person
/// reading of every recipient (`Recipient::includes`) lets in, for every
/// form of planted seeds and of `seeds/`, under every norm list an edit of
/// one norm's recipients gives.
#[test]
fn marked_recipients_are_the_ones_each_person_is_asked_for() {
    use cici::sema::norm::Recipient;
    let mut seeds: Vec<String> = Vec::new();
    for family in cici::sema::Family::ALL {
        for seed in 0..3 {
            seeds.push(planted_with_norms(family, seed));
        }
    }
    for name in ["ops_scheduling", "payments_sprint", "vendor_review"] {
        let path = super::common::root().join(format!("seeds/{name}.cici"));
        seeds.push(std::fs::read_to_string(path).unwrap());
    }
    let mut forms = 0;
    for text in &seeds {
        let run = check("seed.cici", text);
        assert_eq!(run.errors(), 0, "{text}");
        let sc = &run.checked[0].scenario;
        let mut lists = vec![sc.norms().into_owned()];
        // Each norm told to every single recipient kind and group too.
        let mut others = vec![Recipient::Everyone, Recipient::Executor, Recipient::Holder];
        others.extend([Recipient::Subject, Recipient::Manager, Recipient::Person(1)]);
        others.extend(
            sc.people[0]
                .groups
                .iter()
                .map(|g| Recipient::Group(g.clone())),
        );
        for i in 0..lists[0].len() {
            for r in &others {
                let mut list = lists[0].clone();
                list[i].recipients = vec![r.clone()];
                lists.push(list);
            }
        }
        for norms in &lists {
            let env = sc.env(norms);
            for a in &sc.attributes {
                for (kind, form) in a.forms() {
                    let asked: Vec<usize> = (0..sc.people.len())
                        .filter(|&p| {
                            p == a.holder
                                || norms.iter().any(|n| {
                                    n.applies(env.purpose)
                                        && n.matches(a, kind)
                                        && n.recipients
                                            .iter()
                                            .any(|r| r.includes(&env, a.holder, a.about, p))
                                })
                        })
                        .collect();
                    assert_eq!(env.derive(a, kind), asked, "{} in {}", a.id, sc.id);
                    assert!(env.gives(a, kind, &asked));
                    let follows = form.visible == asked;
                    assert_eq!(env.gives(a, kind, &form.visible), follows);
                    let mut other = asked.clone();
                    other.reverse();
                    assert_eq!(env.gives(a, kind, &other), other.len() < 2);
                    forms += 1;
                }
            }
        }
    }
    assert!(forms >= 1000, "only {forms} forms");
}
