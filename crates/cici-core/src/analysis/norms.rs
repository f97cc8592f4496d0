//! The norms lint: a form whose written visibility is an exception to the
//! scenario's stated norms.

use super::diagnostic::CheckDiagnostic;
use crate::sema::{PersonId, Scenario};

/// One `visibility_exception` per form whose `visible` clause gives it
/// other recipients than the norms do. Scenarios that state no norms have
/// none: their visibility lists are how they say who may receive what.
pub fn exceptions(sc: &Scenario) -> Vec<CheckDiagnostic> {
    if sc.norms.is_none() {
        return Vec::new();
    }
    let names = |ps: &[PersonId]| -> String {
        if ps.is_empty() {
            return "no one".into();
        }
        ps.iter()
            .map(|&p| format!("`{}`", sc.people[p].id))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = Vec::new();
    for a in &sc.attributes {
        for (kind, f) in a.forms() {
            let derived = sc.derived_visibility(a, kind);
            if f.visible == derived {
                continue;
            }
            let added: Vec<PersonId> = f
                .visible
                .iter()
                .copied()
                .filter(|p| !derived.contains(p))
                .collect();
            let removed: Vec<PersonId> = derived
                .iter()
                .copied()
                .filter(|p| !f.visible.contains(p))
                .collect();
            let mut parts = Vec::new();
            if !added.is_empty() {
                parts.push(format!("it adds {}", names(&added)));
            }
            if !removed.is_empty() {
                parts.push(format!("it withholds it from {}", names(&removed)));
            }
            out.push(CheckDiagnostic::VisibilityException {
                form: a.form_id(kind),
                differs: parts.join("; "),
                span: f.span.into(),
            });
        }
    }
    out
}
