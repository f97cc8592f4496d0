//! Evaluation items: each side of a triplet as one self-contained text a
//! reader can answer, and its label in the words the item asks for.
//!
//! A decision item holds the public brief (people, and every meeting, slot,
//! room, ticket, level or outcome of the setting), the executor's task with
//! the strict rules, what the executor would gather from each teammate (every
//! form as its holder has it, raw personal details and soft pressures
//! included, with the notes of one of PiSAs's cue conditions), and the
//! question with its answer format. A flow item
//! holds the brief (the team with groups and reporting lines, the setting),
//! the task, the norms in plain words, the statement as its holder has it
//! and the recipient; never a list of who may receive the statement.

use serde::Serialize;

use crate::counterfactual::base::vocab::{Edit, Flow};
use crate::driver::Checked;
use crate::records::PersonExport;
use crate::render::{Cue, RenderError, RuleCondition, Scope, Templates};
use crate::sema::{Decision, Scenario};

#[derive(Serialize)]
struct ItemView {
    brief: String,
    task: String,
    knowledge: Option<String>,
    question: QuestionView,
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum QuestionView {
    Decision { family: &'static str },
    Flow(Box<FlowQuestion>),
}

/// A flow question: the statement as its holder has it and the
/// recipient. Who may receive it is for the reader to work out from the
/// team, the norms and the task; the item never lists it.
#[derive(Serialize)]
struct FlowQuestion {
    holder: PersonExport,
    text: String,
    recipient: PersonExport,
    executor: PersonExport,
    /// The family's default norms in words, where the scenario states none
    /// (the brief shows stated norms).
    default_norms: Vec<String>,
    purpose: String,
}

/// A decision as the item asks for it: one `target: value` line per row,
/// or the level alone.
pub fn answer(sc: &Scenario, d: &Decision) -> String {
    crate::analysis::named_rows(sc, d)
        .into_iter()
        .map(|(t, v)| if t.is_empty() { v } else { format!("{t}: {v}") })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A flow's label as the item asks for it.
pub fn flow_answer(appropriate: bool) -> String {
    if appropriate { "yes" } else { "no" }.to_string()
}

fn render(
    c: &Checked,
    templates: &Templates,
    cue: Option<Cue>,
    q: QuestionView,
) -> Result<String, RenderError> {
    let (brief, task, knowledge) = crate::render::brief_and_task(
        c,
        templates,
        RuleCondition::Strict,
        cue.map(|cue| (cue, Scope::WouldGather)),
    )?;
    templates.render(
        "item.md.j2",
        &ItemView {
            brief,
            task,
            knowledge,
            question: q,
        },
    )
}

/// The decision item of a checked scenario under a cue condition: what the
/// executor would gather from each holder, raw personal forms and soft
/// pressures included, with the condition's notes and shareable versions.
pub fn decision_item(c: &Checked, templates: &Templates, cue: Cue) -> Result<String, RenderError> {
    render(
        c,
        templates,
        Some(cue),
        QuestionView::Decision {
            family: c.scenario.family().name(),
        },
    )
}

/// The flow item of one flow of a checked scenario.
pub fn flow_item(c: &Checked, flow: &Flow, templates: &Templates) -> Result<String, RenderError> {
    let sc = &c.scenario;
    let missing = || RenderError::Template {
        name: "item.md.j2".into(),
        message: format!(
            "the flow names {}, {:?} or {} and the scenario lacks it",
            flow.attribute, flow.form, flow.person
        ),
    };
    let attr = &sc.attributes[sc.attribute(&flow.attribute).ok_or_else(missing)?];
    let form = attr.form(flow.form).ok_or_else(missing)?;
    let recipient = sc.person(&flow.person).ok_or_else(missing)?;
    let person = |p: usize| PersonExport::of(sc, p);
    let q = QuestionView::Flow(Box::new(FlowQuestion {
        holder: person(attr.holder),
        text: form.text.clone(),
        recipient: person(recipient),
        executor: person(sc.executor),
        default_norms: match sc.norms {
            Some(_) => Vec::new(),
            None => crate::render::norms::sentences(sc),
        },
        purpose: crate::render::norms::purpose_words(sc.purpose()),
    }));
    render(c, templates, None, q)
}

/// What a variant changed, in one line: its edits, and the flow asked
/// about when that moved.
pub fn change(edits: &[Edit], before: Option<&Flow>, after: Option<&Flow>) -> String {
    let ids = |v: &[String]| v.join(", ");
    let mut parts: Vec<String> = edits
        .iter()
        .map(|e| match e {
            Edit::ReplaceFact {
                attribute,
                from,
                to,
            } => {
                format!("`{attribute}` now states {to} instead of {from}")
            }
            Edit::ReplaceText {
                attribute, form, ..
            } => {
                format!("the {} text of `{attribute}` is reworded", form.name())
            }
            Edit::RenamePerson {
                name_from, name_to, ..
            } => {
                format!("{name_from} is renamed {name_to}")
            }
            Edit::SetVisibility {
                attribute,
                form,
                from,
                to,
            } => format!(
                "the {} form of `{attribute}` is shared with [{}] instead of [{}]",
                form.name(),
                ids(to),
                ids(from)
            ),
            Edit::SetHolder {
                attribute,
                from,
                to,
            } => {
                format!("`{attribute}` moves from {from} to {to}")
            }
            Edit::DropAttribute { attribute } => format!("`{attribute}` is dropped"),
            Edit::AddAttribute { holder, text, .. } => format!("{holder} adds \"{text}\""),
            Edit::SetAttendees { meeting, from, to } => format!(
                "{meeting} is attended by [{}] instead of [{}]",
                ids(to),
                ids(from)
            ),
            Edit::SetPublic {
                target,
                field,
                from,
                to,
            } => {
                format!("{target} {field} is {to} instead of {from}")
            }
            Edit::ReorderAttributes { .. } => "the details are listed in another order".into(),
            Edit::SetGroups { person, from, to } => format!(
                "{person} is in groups [{}] instead of [{}]",
                ids(to),
                ids(from)
            ),
            Edit::SetNorm { from, to, .. } if from.is_empty() => format!("a norm is added: {to}"),
            Edit::SetNorm { from, to, .. } if to.is_empty() => {
                format!("the norm `{from}` is dropped")
            }
            Edit::SetNorm { from, to, .. } => format!("the norm `{from}` is now `{to}`"),
        })
        .collect();
    if let (Some(b), Some(a)) = (before, after) {
        if b.person != a.person {
            parts.push(format!("asked about {} instead of {}", a.person, b.person));
        }
        if b.form != a.form {
            parts.push(format!(
                "asked about the {} form instead of the {}",
                a.form.name(),
                b.form.name()
            ));
        }
    }
    parts.join("; ")
}
