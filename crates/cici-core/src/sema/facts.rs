//! Attributes, their forms and facts, and the oracle.

use super::cx::Cx;
use super::error::ResolveError;
use super::predicate::{ArgValue, Bound, Param, PredicateKind, PredicateSpec};
use super::scenario::*;
use crate::suggest::help_for;
use crate::syntax::{self as ast, Arg, AttributeItem, FormAst, VisibilityAst};

/// A statement of an attribute block that may appear once, with the span
/// of its keyword.
type Once<'a> = Option<(&'a AttributeItem, crate::span::Span)>;

/// An attribute block's statements, sorted by kind; a statement that may
/// appear once is reported when it appears again, and the first is kept.
#[derive(Default)]
struct Statements<'a> {
    holder: Once<'a>,
    about: Once<'a>,
    category: Once<'a>,
    raw: Once<'a>,
    sanitized: Once<'a>,
    facts: Vec<&'a ast::FactAst>,
    soft: Vec<&'a ast::FactAst>,
    claims: Vec<(crate::span::Span, &'a ast::FactAst)>,
}

impl<'a> Statements<'a> {
    fn of(cx: &mut Cx, a: &'a ast::AttributeAst) -> Statements<'a> {
        let mut st = Statements::default();
        for item in &a.items {
            let (slot_name, span, slot) = match item {
                AttributeItem::Holder(k, _) => ("holder", k.span, &mut st.holder),
                AttributeItem::About(k, _) => ("about", k.span, &mut st.about),
                AttributeItem::Category(k, _) => ("category", k.span, &mut st.category),
                AttributeItem::Raw(f) => ("raw", f.keyword.span, &mut st.raw),
                AttributeItem::Sanitized(f) => ("sanitized", f.keyword.span, &mut st.sanitized),
                AttributeItem::Fact(f) => {
                    st.facts.push(f);
                    continue;
                }
                AttributeItem::Soft(f) => {
                    st.soft.push(f);
                    continue;
                }
                AttributeItem::Claim(k, f) => {
                    st.claims.push((k.span, f));
                    continue;
                }
            };
            match slot {
                Some((_, first_span)) => cx.errors.push(ResolveError::DuplicateStatement {
                    what: slot_name.to_string(),
                    span: span.into(),
                    first: (*first_span).into(),
                }),
                None => *slot = Some((item, span)),
            }
        }
        st
    }
}

/// The category an attribute names; `Err` after reporting an unknown one.
fn category(cx: &mut Cx, named: Once) -> Result<Option<Category>, ()> {
    let Some((AttributeItem::Category(_, c), _)) = named else {
        return Ok(None);
    };
    match Category::from_name(&c.name) {
        Some(c) => Ok(Some(c)),
        None => {
            cx.errors.push(ResolveError::UnknownCategory {
                name: c.name.clone(),
                span: c.span.into(),
                help: Category::by_meaning(&c.name)
                    .map(|m| crate::suggest::Help::suggest(m.name()))
                    .or_else(|| help_for(&c.name, "category", Category::ALL.map(|c| c.name()))),
            });
            Err(())
        }
    }
}

pub(super) fn attribute(cx: &mut Cx, a: &ast::AttributeAst, n_people: usize) -> Option<Attribute> {
    let container = format!("attribute `{}`", a.id.name);
    let st = Statements::of(cx, a);
    let holder = match st.holder {
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
    let about = match st.about {
        Some((AttributeItem::About(_, p), _)) => cx.person(p),
        _ => holder,
    };
    let category = category(cx, st.category);
    let mut ok = category.is_ok();
    let raw_ast = match st.raw {
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
    let sanitized_ast = match st.sanitized {
        Some((AttributeItem::Sanitized(f), _)) => Some(f),
        _ => None,
    };

    let hard: Vec<Fact> = st.facts.iter().filter_map(|f| fact(cx, f, false)).collect();
    let soft: Vec<Fact> = st.soft.iter().filter_map(|f| fact(cx, f, true)).collect();
    let claims: Vec<Fact> = st
        .claims
        .iter()
        .filter_map(|(_, f)| fact(cx, f, false))
        .collect();
    ok &= hard.len() == st.facts.len() && claims.len() == st.claims.len();

    let (holder, about, raw_ast) = (holder?, about?, raw_ast?);
    let subjects = [holder, about];
    let has_sanitized = sanitized_ast.is_some();
    let raw_default = !has_sanitized && !st.facts.is_empty();
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
    if raw.appropriate {
        if let Some((keyword, f)) = st.claims.first() {
            ok = false;
            cx.errors.push(ResolveError::ClaimOnAppropriate {
                span: keyword.to(f.span).into(),
                raw: raw.span.into(),
            });
        }
    }
    if !ok {
        return None;
    }
    Some(Attribute {
        id: a.id.name.clone(),
        holder,
        about,
        category: category.ok().flatten(),
        raw,
        sanitized,
        soft,
        claims,
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

/// Gives every form that has no `visible` clause the visibility the norms
/// derive for it.
pub(super) fn derive_visibility(
    mut attr: Attribute,
    env: &super::visibility::Env,
    a: &ast::AttributeAst,
) -> Attribute {
    for item in &a.items {
        let (kind, f) = match item {
            AttributeItem::Raw(f) => (FormKind::Raw, f),
            AttributeItem::Sanitized(f) => (FormKind::Sanitized, f),
            _ => continue,
        };
        if f.visible.is_none() {
            let v = env.derive(&attr, kind);
            if let Some(form) = attr.form_mut(kind) {
                form.visible = v;
            }
        }
    }
    attr
}

/// Applies the label default of the language reference, and a written
/// visibility.
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
    // A form without a `visible` clause gets what the norms give it
    // (`derive_visibility`); until then it is seen by its subjects.
    let mut visible: Vec<PersonId> = match &f.visible {
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

/// Types a fact against its family's predicates (the table in
/// [`super::predicate`]): the predicate's name, its arity, the shape of each
/// argument, then each name and bound.
pub(super) fn fact(cx: &mut Cx, f: &ast::FactAst, soft: bool) -> Option<Fact> {
    let family = cx.family;
    let name = f.predicate.name.as_str();
    let Some(kind) = PredicateKind::find(family, name) else {
        cx.errors.push(unknown_predicate(family, name, f));
        return None;
    };
    let spec = kind.spec();
    if f.args.len() != spec.params.len() {
        cx.errors.push(ResolveError::WrongArity {
            name: name.to_string(),
            expected: spec.params.len(),
            found: f.args.len(),
            signature: spec.signature(),
            span: f.span.into(),
        });
        return None;
    }
    if spec.soft_only && !soft {
        cx.errors.push(ResolveError::SoftOnly {
            name: name.to_string(),
            span: f.span.into(),
        });
        return None;
    }
    // Check the shape of every argument first, then resolve names.
    let mut shape_ok = true;
    for (i, (arg, param)) in f.args.iter().zip(spec.params).enumerate() {
        let fits = match arg {
            Arg::Slot(_) => param.kind == ArgKind::Slot,
            Arg::Int(_) => param.kind == ArgKind::Integer,
            Arg::Name(_) => !matches!(param.kind, ArgKind::Slot | ArgKind::Integer),
        };
        if !fits {
            shape_ok = false;
            cx.errors.push(ResolveError::WrongArgument {
                name: name.to_string(),
                position: i + 1,
                expected: param.kind.describe().to_string(),
                signature: spec.signature(),
                span: arg.span().into(),
            });
        }
    }
    if !shape_ok {
        return None;
    }
    // Resolve every argument, so that every unknown name is reported.
    let mut args: Vec<Option<ArgValue>> = Vec::with_capacity(f.args.len());
    for (i, (arg, param)) in f.args.iter().zip(spec.params).enumerate() {
        let value = argument(cx, spec, i, arg, param, &args);
        args.push(value);
    }
    let args: Vec<ArgValue> = args.into_iter().collect::<Option<_>>()?;
    let predicate = Predicate::from_args(kind, &args)?;
    Some(Fact {
        predicate,
        span: f.span,
    })
}

/// One argument of a fact, resolved against the scenario and bounded as its
/// parameter says; `earlier` are the ones before it (a value needs its
/// variable, a latest hour its earliest).
fn argument(
    cx: &mut Cx,
    spec: &PredicateSpec,
    i: usize,
    arg: &Arg,
    param: &Param,
    earlier: &[Option<ArgValue>],
) -> Option<ArgValue> {
    let id = match arg {
        Arg::Slot(s) => return Some(ArgValue::Slot(s.slot)),
        Arg::Int(n) => return integer(cx, spec, i, n, param, earlier),
        Arg::Name(id) => id,
    };
    Some(match param.kind {
        ArgKind::Person => ArgValue::Person(cx.person(id)?),
        ArgKind::Room => ArgValue::Room(cx.room(id)?),
        ArgKind::Meeting => ArgValue::Meeting(cx.meeting(id)?),
        ArgKind::Feature => ArgValue::Feature(cx.feature(id)?),
        ArgKind::Ticket => ArgValue::Ticket(cx.ticket(id)?),
        ArgKind::Variable => ArgValue::Variable(cx.variable(id)?),
        ArgKind::Value => {
            let variable = earlier.iter().rev().find_map(|a| match a {
                Some(ArgValue::Variable(v)) => Some(*v),
                _ => None,
            })?;
            ArgValue::Value(cx.value(variable, id)?)
        }
        ArgKind::Level => ArgValue::Level(cx.level(id)?),
        ArgKind::Slot | ArgKind::Integer => return None,
    })
}

fn integer(
    cx: &mut Cx,
    spec: &PredicateSpec,
    i: usize,
    n: &crate::syntax::Int,
    param: &Param,
    earlier: &[Option<ArgValue>],
) -> Option<ArgValue> {
    match param.bound {
        Bound::None => Some(ArgValue::Integer(n.value)),
        Bound::Quantity => Some(ArgValue::Integer(cx.quantity(n, spec.name))),
        Bound::Hour { after } => {
            let low = match after.map(|j| earlier.get(j)) {
                None => 0,
                Some(Some(Some(ArgValue::Integer(e)))) => e + 1,
                // The earlier hour was out of range: reported already.
                Some(_) => return None,
            };
            if n.value >= low && n.value <= 24 {
                return Some(ArgValue::Integer(n.value));
            }
            cx.errors.push(ResolveError::WrongArgument {
                name: spec.name.to_string(),
                position: i + 1,
                expected: format!("an hour of the day from {low} to 24"),
                signature: spec.signature(),
                span: n.span.into(),
            });
            None
        }
    }
}

/// The predicate is not one of the family's: name the family that has it,
/// or the closest of this family's.
fn unknown_predicate(family: Family, name: &str, f: &ast::FactAst) -> ResolveError {
    let elsewhere = Family::ALL
        .into_iter()
        .find(|other| *other != family && other.predicates().any(|s| s.name == name));
    let help = match elsewhere {
        Some(other) => Some(crate::suggest::Help::text(format!(
            "`{name}` is a fact of the `{}` family; this one knows {}",
            other.name(),
            family
                .predicates()
                .map(|s| format!("`{}`", s.name))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
        None => {
            let names: Vec<&str> = family.predicates().map(|s| s.name).collect();
            help_for(name, "predicate", names)
        }
    };
    ResolveError::UnknownPredicate {
        name: name.to_string(),
        family: family.name().to_string(),
        span: f.predicate.span.into(),
        help,
    }
}
