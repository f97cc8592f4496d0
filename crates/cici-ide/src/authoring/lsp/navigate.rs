//! Hover and go-to-definition, from the parser's tree of the text and the
//! last check that got through: an error elsewhere in the file, or a line
//! being typed, does not take them away.

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position, Range};

use super::complete::kind_name;
use super::tree::{at, Kind, View};
use super::Document;
use crate::driver::Checked;

/// The identifier under a byte offset, with its start.
pub(super) fn word_at(text: &str, offset: usize) -> Option<(usize, &str)> {
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = text.as_bytes();
    let mut start = offset.min(bytes.len());
    while start > 0 && is_ident(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = offset.min(bytes.len());
    while end < bytes.len() && is_ident(bytes[end]) {
        end += 1;
    }
    (start < end).then(|| (start, &text[start..end]))
}

pub(super) fn definition(doc: &Document, pos: Position) -> Option<Range> {
    let offset = doc.lines.offset(&doc.text, pos);
    let (_, word) = word_at(&doc.text, offset)?;
    let s = at(&doc.views, offset)?;
    let d = s.decls.iter().find(|d| d.name == word)?;
    Some(doc.lines.range(&doc.text, d.start, d.name.len()))
}

/// The checked scenario of this id: from the current check, or else from
/// the last one in which it checked.
fn checked<'a>(doc: &'a Document, id: &str) -> Option<&'a Checked> {
    doc.run
        .checked
        .iter()
        .chain(doc.fallback.iter().flat_map(|r| r.checked.iter()))
        .find(|c| c.scenario.id == id)
}

pub(super) fn hover(doc: &Document, pos: Position) -> Option<Hover> {
    let offset = doc.lines.offset(&doc.text, pos);
    let (start, word) = word_at(&doc.text, offset)?;
    let empty = View::default();
    let s = at(&doc.views, offset).unwrap_or(&empty);
    let checked = s.id.as_deref().and_then(|id| checked(doc, id));
    let decl = s.decls.iter().find(|d| d.name == word).map(|d| d.kind);
    let in_norm = checked.and_then(|c| {
        let at = u32::try_from(offset).ok()?;
        let n = c
            .scenario
            .norms
            .as_ref()?
            .iter()
            .find(|n| n.span.start <= at && at < n.span.end)?;
        Some(format!(
            "norm, for a task of purpose `{}`: {}",
            c.scenario.purpose(),
            crate::render::norms::sentence(&c.scenario, n)
        ))
    });
    let text = match (decl, checked) {
        _ if in_norm.is_some() => in_norm?,
        (Some(Kind::Attribute), Some(c)) if c.scenario.attribute(word).is_some() => {
            format!(
                "```text\n{}```",
                crate::authoring::explain::explain(c, word)
            )
        }
        (Some(Kind::Person), Some(c)) if c.scenario.person(word).is_some() => {
            checked_person(c, word)?
        }
        (Some(Kind::Person), _) if s.person(word).is_some() => person(s, word)?,
        (Some(kind), _) => format!("{} `{word}`", kind_name(kind)),
        (None, _) => {
            let family = s.family.or_else(|| checked.map(|c| c.scenario.family()))?;
            let spec = family.predicates().find(|s| s.name == word)?;
            format!(
                "predicate `{}` of `{}`: {}",
                spec.signature(),
                family.name(),
                spec.meaning
            )
        }
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(doc.lines.range(&doc.text, start, word.len())),
    })
}

/// A person as the check knows them.
fn checked_person(c: &Checked, word: &str) -> Option<String> {
    let p = c.scenario.people.iter().find(|p| p.id == word)?;
    let mut s = format!("**{}** ({}): {}", p.name, p.id, p.role);
    if c.scenario.people[c.scenario.executor].id == word {
        s.push_str("\n\nThe executor: the agent acts for this person.");
    }
    if !p.skills.is_empty() {
        s.push_str(&format!("\n\nskills: {}", p.skills.join(", ")));
    }
    if !p.groups.is_empty() {
        s.push_str(&format!("\n\ngroups: {}", p.groups.join(", ")));
    }
    if let Some(m) = p.manager {
        s.push_str(&format!("\n\nreports to {}", c.scenario.people[m].name));
    }
    Some(s)
}

/// A person as the tree has them, when no check got through.
fn person(view: &View, word: &str) -> Option<String> {
    use crate::syntax::ast::Item;
    let p = view.person(word)?;
    let mut s = format!("**{}** ({}): {}", p.name.value, p.id.name, p.role.value);
    let executor = view
        .items
        .iter()
        .any(|i| matches!(i, Item::Executor(e) if e.name == word));
    if executor {
        s.push_str("\n\nThe executor: the agent acts for this person.");
    }
    let names = |l: &crate::syntax::ast::List<crate::syntax::ast::Ident>| {
        l.items
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some((_, l)) = p.skills.as_ref().filter(|(_, l)| !l.items.is_empty()) {
        s.push_str(&format!("\n\nskills: {}", names(l)));
    }
    if let Some((_, l)) = p.groups.as_ref().filter(|(_, l)| !l.items.is_empty()) {
        s.push_str(&format!("\n\ngroups: {}", names(l)));
    }
    if let Some((_, to)) = &p.reports_to {
        let name = view.person(&to.name).map_or(&to.name, |m| &m.name.value);
        s.push_str(&format!("\n\nreports to {name}"));
    }
    Some(s)
}
