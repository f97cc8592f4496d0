//! Edits from outside (a language model's reply) applied to a scenario.
//!
//! The symbolic generator builds its candidates directly; edits that come
//! as data are checked here, one by one, against the scenario they name.
//! Anything that does not fit (an unknown attribute, person or room, a
//! stale `from`, a fact that does not resolve, a text with template syntax
//! or control characters, an id that is not an identifier) is refused with
//! a reason, before the evaluator ever sees the candidate. What an edit
//! does to a scenario is spelled here once: the generators that build
//! their candidates from edits (norm edits, the model's proposer) apply
//! them here too, and renaming a person (`rename`) is the one renaming.
//!
//! In: a scenario and edits. Out: a `Candidate`, or the `EditError` that
//! refuses an edit.

pub mod rename;

use crate::counterfactual::base::vocab::{Candidate, Edit, EditError, PublicField};
use crate::sema::{FormKind, PersonId, Predicate, RulePredicate, Scenario, Setting};

/// The most edits one reply may propose: the bound of a minimal edit.
pub use crate::counterfactual::base::vocab::{MAX_EDITS, MAX_TEXT};

/// A candidate from edits, or why the edits cannot be applied.
pub fn candidate(sc: &Scenario, edits: Vec<Edit>) -> Result<Candidate, EditError> {
    if edits.is_empty() {
        return Err(EditError::NoEdit);
    }
    if edits.len() > MAX_EDITS {
        return Err(EditError::TooMany(edits.len()));
    }
    let mut v = sc.clone();
    for (i, e) in edits.iter().enumerate() {
        apply(&mut v, e).map_err(|error| EditError::At {
            index: i + 1,
            error: Box::new(error),
        })?;
    }
    Ok(Candidate {
        scenario: v.into(),
        edits,
        flow: None,
    })
}

/// A text an edit may write: one line of prose.
pub fn check_text(text: &str) -> Result<(), EditError> {
    if text.trim().is_empty() {
        return Err(EditError::EmptyText);
    }
    if text.chars().count() > MAX_TEXT {
        return Err(EditError::LongText);
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(EditError::ControlCharacter(c));
    }
    for marker in ["{{", "}}", "{%", "%}", "{#", "#}", "\"\"\""] {
        if text.contains(marker) {
            return Err(EditError::Markup(marker));
        }
    }
    Ok(())
}

fn check_ident(id: &str) -> Result<(), EditError> {
    let mut chars = id.chars();
    let ok = id.len() <= 64
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(EditError::NotIdentifier(id.to_string()))
    }
}

fn person(sc: &Scenario, id: &str) -> Result<PersonId, EditError> {
    sc.person(id)
        .ok_or_else(|| EditError::NoPerson(id.to_string()))
}

fn people(sc: &Scenario, ids: &[String]) -> Result<Vec<PersonId>, EditError> {
    let mut out = ids
        .iter()
        .map(|id| person(sc, id))
        .collect::<Result<Vec<_>, _>>()?;
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

fn attribute(sc: &Scenario, id: &str) -> Result<usize, EditError> {
    sc.attribute(id)
        .ok_or_else(|| EditError::NoAttribute(id.to_string()))
}

/// Whitespace-insensitive equality of two fact texts.
fn same_fact(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    norm(a) == norm(b)
}

/// Resolves a fact written in seed syntax, `unavailable(eli, tue 10:00-11:00)`,
/// against the scenario: the whole seed is printed with the fact in a probe
/// attribute and compiled, so the fact gets exactly the checks a seed gets.
pub fn parse_fact(sc: &Scenario, text: &str) -> Result<Predicate, EditError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || " _,:()-".contains(c);
    if text.len() > 120 || !text.chars().all(allowed) || !text.trim_end().ends_with(')') {
        return Err(EditError::NotAFact(text.to_string()));
    }
    let mut probe = sc.clone();
    crate::planted::push_attribute(
        &mut probe,
        sc.executor,
        None,
        "probe".into(),
        None,
        Vec::new(),
        Vec::new(),
    );
    let id = (0..)
        .map(|n| format!("cici_probe_{n}"))
        .find(|id| sc.attribute(id).is_none())
        .expect("some id is free");
    probe.attributes.last_mut().expect("just pushed").id = id;
    let printed = crate::printer::print(&probe);
    let at = printed
        .rfind("    raw \"probe\"\n")
        .ok_or(EditError::Internal("the probe attribute was not printed"))?;
    let line_end = at + "    raw \"probe\"\n".len();
    let text_with = format!(
        "{}    fact {}\n{}",
        &printed[..line_end],
        text.trim(),
        &printed[line_end..]
    );
    let (file, errors) = crate::syntax::parse(crate::span::SourceId(0), &text_with);
    if let Some(e) = errors.first() {
        return Err(EditError::FactDoesNotParse {
            text: text.to_string(),
            error: Some(e.to_string()),
        });
    }
    let ast = file
        .scenarios
        .first()
        .ok_or_else(|| EditError::FactDoesNotParse {
            text: text.to_string(),
            error: None,
        })?;
    match crate::sema::resolve(ast) {
        Ok(resolved) => resolved
            .attributes
            .last()
            .and_then(|a| a.fact_form().1.facts.first())
            .map(|f| f.predicate.clone())
            .ok_or_else(|| EditError::NotAHardFact(text.to_string())),
        Err(errors) => Err(EditError::FactDoesNotResolve {
            text: text.to_string(),
            errors: errors
                .iter()
                .map(|e| {
                    use miette::Diagnostic;
                    match e.help() {
                        Some(h) => format!("{e} ({h})"),
                        None => e.to_string(),
                    }
                })
                .collect(),
        }),
    }
}

/// Norm lines as an edit may write them: `share ...`, of at most 200
/// characters, in the letters, digits and punctuation of seed syntax.
pub(crate) fn check_norm_lines(lines: &[String]) -> Result<(), EditError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || " _,[]".contains(c);
    match lines
        .iter()
        .find(|l| l.len() > 200 || !l.chars().all(allowed) || !l.starts_with("share "))
    {
        Some(bad) => Err(EditError::NotANorm(bad.clone())),
        None => Ok(()),
    }
}

/// Resolves norms written in seed syntax against the scenario: the seed is
/// printed with them as its `norms` block and compiled, so they get exactly
/// the checks a seed's norms get.
pub fn parse_norms(sc: &Scenario, lines: &[String]) -> Result<Vec<crate::sema::Norm>, EditError> {
    check_norm_lines(lines)?;
    let mut probe = sc.clone();
    probe.norms = Some(Vec::new());
    let printed = crate::printer::print(&probe);
    let block = "  norms {\n  }\n";
    let at = printed
        .find(block)
        .ok_or(EditError::Internal("the norms block was not printed"))?;
    let body: String = lines.iter().map(|l| format!("    {l}\n")).collect();
    let text = format!(
        "{}  norms {{\n{body}  }}\n{}",
        &printed[..at],
        &printed[at + block.len()..]
    );
    let (file, errors) = crate::syntax::parse(crate::span::SourceId(0), &text);
    if let Some(e) = errors.first() {
        return Err(EditError::NormsDoNotParse(Some(e.to_string())));
    }
    let ast = file
        .scenarios
        .first()
        .ok_or(EditError::NormsDoNotParse(None))?;
    match crate::sema::resolve(ast) {
        Ok(resolved) => Ok(resolved.norms.unwrap_or_default()),
        Err(errors) => Err(EditError::NormsDoNotResolve(
            errors.iter().map(ToString::to_string).collect(),
        )),
    }
}

/// Replaces, adds or drops one norm, and derives the visibility of the
/// forms that follow the norms again.
fn set_norm(v: &mut Scenario, index: usize, from: &str, to: &str) -> Result<(), EditError> {
    let mut lines: Vec<String> = v
        .norms()
        .iter()
        .map(|n| crate::printer::norm(v, n))
        .collect();
    match (from.is_empty(), to.is_empty()) {
        (true, false) if index == lines.len() => lines.push(to.to_string()),
        (false, _) if lines.get(index).map(String::as_str) == Some(from) => {
            if to.is_empty() {
                lines.remove(index);
            } else {
                lines[index] = to.to_string();
            }
        }
        _ => {
            return Err(EditError::StaleNorm {
                index,
                from: from.to_string(),
            })
        }
    }
    let norms = parse_norms(v, &lines)?;
    let purpose = v.purpose.clone();
    v.set_norms(Some(norms), purpose);
    Ok(())
}

/// Sets the groups a person belongs to, and derives the visibility of the
/// forms that follow the norms again.
fn set_groups(v: &mut Scenario, id: &str, from: &[String], to: &[String]) -> Result<(), EditError> {
    let p = groups_edit(v, id, from, to)?;
    put_groups(v, p, to.to_vec());
    Ok(())
}

/// Person `p`'s groups become `to`, checked already ([`groups_edit`]), and
/// the visibility of the forms that follow the norms is derived again.
pub(crate) fn put_groups(v: &mut Scenario, p: PersonId, to: Vec<String>) {
    v.rederive(|sc| sc.people[p].groups = to);
}

/// Whether a person's groups may become `to` (the person whose they are),
/// or why not: the checks of a `set_groups` edit, which change nothing.
pub(crate) fn groups_edit(
    v: &Scenario,
    id: &str,
    from: &[String],
    to: &[String],
) -> Result<PersonId, EditError> {
    let p = person(v, id)?;
    if v.people[p].groups != from {
        return Err(EditError::StaleGroups {
            person: id.to_string(),
            groups: from.to_vec(),
        });
    }
    for g in to {
        check_ident(g)?;
    }
    if to.iter().any(|g| v.person(g).is_some()) {
        return Err(EditError::GroupNamedLikePerson);
    }
    Ok(p)
}

/// Applies one edit in place.
pub fn apply(v: &mut Scenario, e: &Edit) -> Result<(), EditError> {
    match e {
        Edit::SetNorm { index, from, to } => set_norm(v, *index, from, to),
        Edit::SetGroups {
            person: id,
            from,
            to,
        } => set_groups(v, id, from, to),
        Edit::ReplaceFact {
            attribute: id,
            from,
            to,
        } => replace_fact(v, id, from, to),
        Edit::ReplaceText {
            attribute: id,
            form,
            from,
            to,
        } => replace_text(v, id, *form, from, to),
        Edit::RenamePerson {
            from,
            to,
            name_from,
            name_to,
        } => rename(v, from, to, name_from, name_to),
        Edit::SetVisibility {
            attribute: id,
            form,
            to,
            ..
        } => set_visibility(v, id, *form, to),
        Edit::SetHolder {
            attribute: id, to, ..
        } => set_holder(v, id, to),
        Edit::DropAttribute { attribute: id } => {
            let a = attribute(v, id)?;
            v.attributes.remove(a);
            Ok(())
        }
        Edit::AddAttribute {
            attribute: id,
            holder,
            text,
            fact,
        } => add_attribute(v, id, holder, text, fact.as_deref()),
        Edit::ReorderAttributes { to, .. } => reorder(v, to),
        Edit::SetAttendees { meeting, to, .. } => set_attendees(v, meeting, to),
        Edit::SetPublic {
            target, field, to, ..
        } => set_public(v, target, *field, *to),
    }
}

fn replace_fact(v: &mut Scenario, id: &str, from: &str, to: &str) -> Result<(), EditError> {
    let a = attribute(v, id)?;
    let predicate = parse_fact(v, to)?;
    if matches!(predicate, Predicate::Rule(RulePredicate::Toward { .. })) {
        return Err(EditError::SoftOnly);
    }
    let describe = |p: &Predicate| crate::printer::predicate(v, p);
    let attr = &v.attributes[a];
    let (kind, form) = attr.fact_form();
    let Some(i) = form
        .facts
        .iter()
        .position(|f| same_fact(&describe(&f.predicate), from))
    else {
        // A trap's claim, re-aimed.
        let c = attr
            .claims
            .iter()
            .position(|f| same_fact(&describe(&f.predicate), from))
            .ok_or_else(|| EditError::NoSuchFact {
                attribute: id.to_string(),
                fact: from.to_string(),
            })?;
        v.attributes[a].claims[c].predicate = predicate;
        return Ok(());
    };
    let attr = &mut v.attributes[a];
    let form = match kind {
        FormKind::Raw => &mut attr.raw,
        FormKind::Sanitized => attr.sanitized.as_mut().expect("the fact form exists"),
    };
    form.facts[i].predicate = predicate;
    Ok(())
}

/// The form of an attribute, or why it has none.
fn form_of<'s>(
    v: &'s mut Scenario,
    id: &str,
    form: FormKind,
) -> Result<&'s mut crate::sema::Form, EditError> {
    let a = attribute(v, id)?;
    let attr = &mut v.attributes[a];
    match form {
        FormKind::Raw => Some(&mut attr.raw),
        FormKind::Sanitized => attr.sanitized.as_mut(),
    }
    .ok_or_else(|| EditError::NoSanitizedForm(id.to_string()))
}

fn replace_text(
    v: &mut Scenario,
    id: &str,
    form: FormKind,
    from: &str,
    to: &str,
) -> Result<(), EditError> {
    check_text(to)?;
    let f = form_of(v, id, form)?;
    if f.text != *from {
        return Err(EditError::StaleText {
            attribute: id.to_string(),
            form,
            from: from.to_string(),
        });
    }
    f.text = to.to_string();
    Ok(())
}

fn rename(
    v: &mut Scenario,
    from: &str,
    to: &str,
    name_from: &str,
    name_to: &str,
) -> Result<(), EditError> {
    let p = person(v, from)?;
    check_ident(to)?;
    check_text(name_to)?;
    if v.person(to).is_some() {
        return Err(EditError::PersonTaken(to.to_string()));
    }
    if v.people[p].name != *name_from {
        return Err(EditError::StaleName {
            person: from.to_string(),
            name: name_from.to_string(),
        });
    }
    rename::rename_person(v, p, to, name_to);
    Ok(())
}

fn set_visibility(
    v: &mut Scenario,
    id: &str,
    form: FormKind,
    to: &[String],
) -> Result<(), EditError> {
    let a = attribute(v, id)?;
    let mut who = people(v, to)?;
    who.push(v.attributes[a].holder);
    who.sort_unstable();
    who.dedup();
    form_of(v, id, form)?.visible = who;
    Ok(())
}

fn set_holder(v: &mut Scenario, id: &str, to: &str) -> Result<(), EditError> {
    let a = attribute(v, id)?;
    let p = person(v, to)?;
    let attr = &mut v.attributes[a];
    let old = attr.holder;
    if attr.about == old {
        attr.about = p;
    }
    attr.holder = p;
    for f in std::iter::once(&mut attr.raw).chain(attr.sanitized.as_mut()) {
        for q in &mut f.visible {
            if *q == old {
                *q = p;
            }
        }
        f.visible.sort_unstable();
        f.visible.dedup();
    }
    Ok(())
}

fn add_attribute(
    v: &mut Scenario,
    id: &str,
    holder: &str,
    text: &str,
    fact: Option<&str>,
) -> Result<(), EditError> {
    check_ident(id)?;
    check_text(text)?;
    if v.attribute(id).is_some() {
        return Err(EditError::AttributeTaken(id.to_string()));
    }
    let p = person(v, holder)?;
    let facts = match fact {
        Some(f) => vec![parse_fact(v, f)?],
        None => Vec::new(),
    };
    // A finding is operational; a personal detail's category is unknown.
    let finding = !facts.is_empty();
    let category = finding.then_some(crate::sema::Category::Operational);
    crate::planted::push_attribute(v, p, category, text.to_string(), None, facts, Vec::new());
    if finding {
        // Seen by whom the norms say, as the other findings are.
        let last = v.attributes.len() - 1;
        v.attributes[last].raw.visible = v.derived_visibility(&v.attributes[last], FormKind::Raw);
    }
    v.attributes.last_mut().expect("just pushed").id = id.to_string();
    Ok(())
}

fn reorder(v: &mut Scenario, to: &[String]) -> Result<(), EditError> {
    let mut order = Vec::with_capacity(to.len());
    for id in to {
        let a = attribute(v, id)?;
        if order.contains(&a) {
            return Err(EditError::ListedTwice(id.clone()));
        }
        order.push(a);
    }
    if order.len() != v.attributes.len() {
        return Err(EditError::IncompleteOrder);
    }
    let old = std::mem::take(&mut v.attributes);
    let mut slots: Vec<Option<_>> = old.into_iter().map(Some).collect();
    v.attributes = order
        .into_iter()
        .map(|a| slots[a].take().expect("each index once"))
        .collect();
    Ok(())
}

fn set_attendees(v: &mut Scenario, meeting: &str, to: &[String]) -> Result<(), EditError> {
    let who = people(v, to)?;
    if who.is_empty() {
        return Err(EditError::NoAttendee);
    }
    let Setting::Meeting(ms) = &mut v.setting else {
        return Err(EditError::NoMeetings);
    };
    let m = ms
        .meetings
        .iter_mut()
        .find(|m| m.id == *meeting)
        .ok_or_else(|| EditError::NoMeeting(meeting.to_string()))?;
    m.attendees = who;
    Ok(())
}

fn set_public(
    v: &mut Scenario,
    target: &str,
    field: PublicField,
    to: u32,
) -> Result<(), EditError> {
    if to == 0 || to > 1000 {
        return Err(EditError::OutOfRange(to));
    }
    match (&mut v.setting, field) {
        (Setting::Jira(js), PublicField::Hours) => {
            js.tickets
                .iter_mut()
                .find(|t| t.id == *target)
                .ok_or_else(|| EditError::NoTicket(target.to_string()))?
                .hours = to;
        }
        (Setting::Meeting(ms), PublicField::Capacity) => {
            ms.rooms
                .iter_mut()
                .find(|r| r.id == *target)
                .ok_or_else(|| EditError::NoRoom(target.to_string()))?
                .capacity = to;
        }
        _ => return Err(EditError::NotInSetting(field)),
    }
    Ok(())
}
