//! Attributes, their forms and facts, and the oracle.

use super::error::ResolveError;
use super::resolve::Cx;
use super::scenario::*;
use crate::suggest::help_for;
use crate::syntax::{self as ast, Arg, AttributeItem, FormAst, VisibilityAst};

pub(super) fn attribute(cx: &mut Cx, a: &ast::AttributeAst, n_people: usize) -> Option<Attribute> {
    let container = format!("attribute `{}`", a.id.name);
    let (mut holder, mut about, mut category, mut raw, mut sanitized) =
        (None, None, None, None, None);
    let mut facts = Vec::new();
    let mut soft = Vec::new();
    let mut ok = true;
    for item in &a.items {
        let (slot_name, span) = match item {
            AttributeItem::Holder(k, _) => ("holder", k.span),
            AttributeItem::About(k, _) => ("about", k.span),
            AttributeItem::Category(k, _) => ("category", k.span),
            AttributeItem::Raw(f) => ("raw", f.keyword.span),
            AttributeItem::Sanitized(f) => ("sanitized", f.keyword.span),
            AttributeItem::Fact(_) | AttributeItem::Soft(_) => ("", a.span),
        };
        let first = match item {
            AttributeItem::Holder(..) => holder.replace((item, span)),
            AttributeItem::About(..) => about.replace((item, span)),
            AttributeItem::Category(..) => category.replace((item, span)),
            AttributeItem::Raw(..) => raw.replace((item, span)),
            AttributeItem::Sanitized(..) => sanitized.replace((item, span)),
            AttributeItem::Fact(f) => {
                facts.push(f);
                None
            }
            AttributeItem::Soft(f) => {
                soft.push(f);
                None
            }
        };
        if let Some((prev, first_span)) = first {
            cx.errors.push(ResolveError::DuplicateStatement {
                what: slot_name.to_string(),
                span: span.into(),
                first: first_span.into(),
            });
            // Keep the first one.
            match item {
                AttributeItem::Holder(..) => holder = Some((prev, first_span)),
                AttributeItem::About(..) => about = Some((prev, first_span)),
                AttributeItem::Category(..) => category = Some((prev, first_span)),
                AttributeItem::Raw(..) => raw = Some((prev, first_span)),
                _ => sanitized = Some((prev, first_span)),
            }
        }
    }

    let holder = match holder {
        Some((AttributeItem::Holder(_, p), _)) => cx.person(p),
        _ => {
            cx.errors.push(missing(
                &container,
                "holder",
                a,
                Some("say who holds it: `holder <person>`"),
            ));
            None
        }
    };
    let about = match about {
        Some((AttributeItem::About(_, p), _)) => cx.person(p),
        _ => holder,
    };
    let category = match category {
        Some((AttributeItem::Category(_, c), _)) => match Category::from_name(&c.name) {
            Some(c) => Some(c),
            None => {
                cx.errors.push(ResolveError::UnknownCategory {
                    name: c.name.clone(),
                    span: c.span.into(),
                    help: help_for(&c.name, "category", Category::ALL.map(|c| c.name())),
                });
                ok = false;
                None
            }
        },
        _ => None,
    };
    let raw_ast = match raw {
        Some((AttributeItem::Raw(f), _)) => Some(f),
        _ => {
            cx.errors.push(missing(
                &container,
                "raw",
                a,
                Some("give the detail as its holder would say it: `raw \"...\"`"),
            ));
            None
        }
    };
    let sanitized_ast = match sanitized {
        Some((AttributeItem::Sanitized(f), _)) => Some(f),
        _ => None,
    };

    let hard: Vec<Fact> = facts.iter().filter_map(|f| fact(cx, f, false)).collect();
    let soft: Vec<Fact> = soft.iter().filter_map(|f| fact(cx, f, true)).collect();
    ok &= hard.len() == facts.len();

    let (holder, about, raw_ast) = (holder?, about?, raw_ast?);
    let subjects = [holder, about];
    let has_sanitized = sanitized_ast.is_some();
    let raw_default = !has_sanitized && !facts.is_empty();
    let mut raw = form(cx, raw_ast, raw_default, &subjects, n_people)?;
    let sanitized = match sanitized_ast {
        Some(s) => Some(form(cx, s, true, &subjects, n_people)?),
        None => None,
    };
    let sanitized = sanitized.map(|mut s| {
        s.facts = hard.clone();
        s
    });
    if sanitized.is_none() {
        raw.facts = hard;
    }
    if !ok {
        return None;
    }
    Some(Attribute {
        id: a.id.name.clone(),
        holder,
        about,
        category,
        raw,
        sanitized,
        soft,
        span: a.span,
        id_span: a.id.span,
    })
}

fn missing(container: &str, what: &str, a: &ast::AttributeAst, help: Option<&str>) -> ResolveError {
    ResolveError::Missing {
        what: what.to_string(),
        container: container.to_string(),
        span: a.id.span.into(),
        help: help.map(str::to_string),
    }
}

/// Applies the label and visibility defaults of the language reference.
fn form(
    cx: &mut Cx,
    f: &FormAst,
    default_appropriate: bool,
    subjects: &[PersonId; 2],
    n_people: usize,
) -> Option<Form> {
    let appropriate = f
        .label
        .as_ref()
        .map_or(default_appropriate, |l| l.appropriate);
    let mut visible: Vec<PersonId> = match &f.visible {
        None if appropriate => (0..n_people).collect(),
        None => subjects.to_vec(),
        Some(VisibilityAst::All(_)) => (0..n_people).collect(),
        Some(VisibilityAst::AllExcept(list)) => {
            let excluded: Vec<Option<PersonId>> = list.items.iter().map(|p| cx.person(p)).collect();
            if excluded.iter().any(Option::is_none) {
                return None;
            }
            (0..n_people)
                .filter(|p| !excluded.contains(&Some(*p)))
                .collect()
        }
        Some(VisibilityAst::Only(list)) => {
            let named: Vec<Option<PersonId>> = list.items.iter().map(|p| cx.person(p)).collect();
            named.into_iter().collect::<Option<Vec<_>>>()?
        }
    };
    // The holder always sees its own attribute.
    visible.push(subjects[0]);
    visible.sort_unstable();
    visible.dedup();
    Some(Form {
        text: f.text.value.clone(),
        appropriate,
        visible,
        facts: Vec::new(),
        span: f.span,
        text_span: f.text.span,
    })
}

fn signature(name: &str, kinds: &[ArgKind]) -> String {
    format!(
        "{name}({})",
        kinds
            .iter()
            .map(|k| k.placeholder())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Types a fact against its family's predicates.
pub(super) fn fact(cx: &mut Cx, f: &ast::FactAst, soft: bool) -> Option<Fact> {
    let family = cx.family;
    let name = f.predicate.name.as_str();
    let Some((_, kinds)) = family.predicates().iter().find(|(p, _)| *p == name) else {
        let elsewhere = Family::ALL
            .into_iter()
            .find(|other| *other != family && other.predicates().iter().any(|(p, _)| *p == name));
        let help = match elsewhere {
            Some(other) => Some(crate::suggest::Help::text(format!(
                "`{name}` is a fact of the `{}` family; this one knows {}",
                other.name(),
                family
                    .predicates()
                    .iter()
                    .map(|(p, _)| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            None => help_for(
                name,
                "predicate",
                family.predicates().iter().map(|(p, _)| *p),
            ),
        };
        cx.errors.push(ResolveError::UnknownPredicate {
            name: name.to_string(),
            family: family.name().to_string(),
            span: f.predicate.span.into(),
            help,
        });
        return None;
    };
    let sig = signature(name, kinds);
    if f.args.len() != kinds.len() {
        cx.errors.push(ResolveError::WrongArity {
            name: name.to_string(),
            expected: kinds.len(),
            found: f.args.len(),
            signature: sig,
            span: f.span.into(),
        });
        return None;
    }
    if name == "toward" && !soft {
        cx.errors.push(ResolveError::SoftOnly {
            name: name.to_string(),
            span: f.span.into(),
        });
        return None;
    }
    // Check the shape of every argument first, then resolve names.
    let mut shape_ok = true;
    for (i, (arg, kind)) in f.args.iter().zip(kinds.iter()).enumerate() {
        let fits = matches!(
            (arg, kind),
            (Arg::Slot(_), ArgKind::Slot) | (Arg::Int(_), ArgKind::Integer) | (Arg::Name(_), _)
        ) && !matches!(
            (arg, kind),
            (Arg::Name(_), ArgKind::Slot | ArgKind::Integer)
        );
        if !fits {
            shape_ok = false;
            cx.errors.push(ResolveError::WrongArgument {
                name: name.to_string(),
                position: i + 1,
                expected: kind.describe().to_string(),
                signature: sig.clone(),
                span: arg.span().into(),
            });
        }
    }
    if !shape_ok {
        return None;
    }
    let ident = |i: usize| match &f.args[i] {
        Arg::Name(id) => id,
        _ => unreachable!("argument shapes were checked"),
    };
    let slot = |i: usize| match &f.args[i] {
        Arg::Slot(s) => s.slot,
        _ => unreachable!("argument shapes were checked"),
    };
    let predicate = match (family, name) {
        (Family::MeetingAllocation, "unavailable") => Predicate::Unavailable {
            person: cx.person(ident(0))?,
            slot: slot(1),
        },
        (Family::MeetingAllocation, "avoid_room") => {
            let (p, r) = (cx.person(ident(0)), cx.room(ident(1)));
            Predicate::AvoidRoom {
                person: p?,
                room: r?,
            }
        }
        (Family::MeetingAllocation, "needs_feature") => {
            let (m, feat) = (cx.meeting(ident(0)), cx.feature(ident(1)));
            Predicate::NeedsFeature {
                meeting: m?,
                feature: feat?,
            }
        }
        (Family::MeetingAllocation, "attends") => {
            let (p, m) = (cx.person(ident(0)), cx.meeting(ident(1)));
            Predicate::Attends {
                person: p?,
                meeting: m?,
            }
        }
        (Family::MeetingAllocation, "not_before") => Predicate::NotBefore {
            meeting: cx.meeting(ident(0))?,
            slot: slot(1),
        },
        (Family::MeetingAllocation, "not_after") => Predicate::NotAfter {
            meeting: cx.meeting(ident(0))?,
            slot: slot(1),
        },
        (Family::MeetingAllocation, "requires_feature") => {
            let (p, feat) = (cx.person(ident(0)), cx.feature(ident(1)));
            Predicate::RequiresFeature {
                person: p?,
                feature: feat?,
            }
        }
        (Family::MeetingAllocation, "within_hours") => {
            let person = cx.person(ident(0));
            let hour = |cx: &mut Cx, i: usize, low: u32| match &f.args[i] {
                Arg::Int(h) if h.value >= low && h.value <= 24 => Some(h.value),
                Arg::Int(h) => {
                    cx.errors.push(ResolveError::WrongArgument {
                        name: name.to_string(),
                        position: i + 1,
                        expected: format!("an hour of the day from {low} to 24"),
                        signature: "within_hours(person, earliest, latest)".into(),
                        span: h.span.into(),
                    });
                    None
                }
                _ => unreachable!("argument shapes were checked"),
            };
            let earliest = hour(cx, 1, 0);
            let latest = earliest.and_then(|e| hour(cx, 2, e + 1));
            Predicate::WithinHours {
                person: person?,
                earliest: earliest?,
                latest: latest?,
            }
        }
        (Family::MeetingAllocation, "before") => {
            let (a, b) = (cx.meeting(ident(0)), cx.meeting(ident(1)));
            Predicate::Before {
                first: a?,
                second: b?,
            }
        }
        (Family::JiraAllocation, "no_high_priority") => Predicate::NoHighPriority {
            person: cx.person(ident(0))?,
        },
        (Family::JiraAllocation, "no_collaboration_heavy") => Predicate::NoCollaborationHeavy {
            person: cx.person(ident(0))?,
        },
        (Family::JiraAllocation, "cannot_be_sole_owner") => Predicate::CannotBeSoleOwner {
            person: cx.person(ident(0))?,
        },
        (Family::JiraAllocation, "capacity") => Predicate::Capacity {
            person: cx.person(ident(0))?,
            hours: match &f.args[1] {
                Arg::Int(i) => cx.quantity(i, "capacity"),
                _ => unreachable!("argument shapes were checked"),
            },
        },
        (Family::JiraAllocation, "cannot_own") => {
            let (p, t) = (cx.person(ident(0)), cx.ticket(ident(1)));
            Predicate::CannotOwn {
                person: p?,
                ticket: t?,
            }
        }
        (Family::JiraAllocation, "no_sensitive") => Predicate::NoSensitive {
            person: cx.person(ident(0))?,
        },
        (Family::JiraAllocation, "cannot_pair") => {
            let (a, b) = (cx.person(ident(0)), cx.person(ident(1)));
            Predicate::CannotPair { a: a?, b: b? }
        }
        (Family::JiraAllocation, "unavailable") => Predicate::Off {
            person: cx.person(ident(0))?,
        },
        (Family::SeverityClassification | Family::PolicyDecision, "evidence") => {
            let variable = cx.variable(ident(0))?;
            let value = cx.value(variable, ident(1))?;
            Predicate::Evidence { variable, value }
        }
        (Family::SeverityClassification | Family::PolicyDecision, "toward") => Predicate::Toward {
            level: cx.level(ident(0))?,
        },
        _ => unreachable!("every predicate of every family is handled"),
    };
    Some(Fact {
        predicate,
        span: f.span,
    })
}
