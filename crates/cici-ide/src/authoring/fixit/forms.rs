//! Fixes of a form's text and visibility, each built where the diagnostic
//! points: the executor joins a `visible` list, and a leaking sanitized
//! text becomes the implication alone.

use super::Candidate;
use crate::driver::Fix;
use crate::sema::{Attribute, Scenario};
use crate::span::Edit;

/// `visible [a, b]` of the form at `offset` with the executor added.
/// Other shapes (`all except [...]`) are left to the help.
pub(super) fn executor_sees(sc: &Scenario, text: &str, offset: usize) -> Option<Candidate> {
    let executor = &sc.people[sc.executor].id;
    let (start, end) = sc.attributes.iter().find_map(|a| {
        std::iter::once(&a.raw)
            .chain(a.sanitized.as_ref())
            .find(|f| f.span.start as usize == offset)
            .map(|f| (f.span.start as usize, f.span.end as usize))
    })?;
    let clause = &text[start..end];
    let v = clause.find("visible")?;
    let after = clause[v + "visible".len()..].trim_start();
    if !after.starts_with('[') {
        return None;
    }
    let close = clause[v..].find(']').map(|i| start + v + i)?;
    let inside = text[..close].trim_end();
    let replacement = if inside.ends_with('[') {
        executor.clone()
    } else if inside.ends_with(',') {
        format!(" {executor}")
    } else {
        format!(", {executor}")
    };
    Some(Candidate {
        fix: Fix {
            message: format!("let `{executor}` see it: add `{executor}` to its `visible` list"),
            unambiguous: false,
            edits: vec![Edit {
                offset: inside.len(),
                length: 0,
                replacement,
            }],
        },
        sole_kind: true,
    })
}

/// The sanitized text at `offset` replaced by the built-in phrasing of its
/// fact's implication.
pub(super) fn state_only_the_implication(sc: &Scenario, offset: usize) -> Option<Candidate> {
    let (attr, literal) = sc.attributes.iter().find_map(|a| {
        a.sanitized
            .as_ref()
            .filter(|s| (s.text_span.start as usize..s.text_span.end as usize).contains(&offset))
            .map(|s| (a, s.text_span))
    })?;
    let (offset, length) = (literal.start as usize, literal.len());
    let sanitized = derived_sanitized(sc, attr)?;
    Some(Candidate {
        fix: Fix {
            message: format!(
                "state only the implication: {}",
                crate::printer::quote(&sanitized)
            ),
            unambiguous: false,
            edits: vec![Edit {
                offset,
                length,
                replacement: crate::printer::quote(&sanitized),
            }],
        },
        sole_kind: false,
    })
}

/// The sanitized text the built-in phrasing gives for an attribute's only
/// fact about a person.
pub(super) fn derived_sanitized(sc: &Scenario, attr: &Attribute) -> Option<String> {
    let facts = &attr.fact_form().1.facts;
    let [fact] = facts.as_slice() else {
        return None;
    };
    crate::phrasing::canonical_sanitized(crate::phrasing::FactTexts::builtin(), sc, &fact.predicate)
}
