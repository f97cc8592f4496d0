//! The holders' private notes: which lines each note has and which forms
//! each line carries.
//!
//! Entangled (the default, as the release's generator writes its bundles):
//! a raw form with a sanitized twin is one line, as the holder would say
//! it, carrying both the operational fact and the private reason; the
//! sanitized twin is that line's clean rewrite. Separate: every form is its
//! own line, so the appropriate fact stands word for word beside its reason.

use crate::sema::{Attribute, FormKind, Scenario};

/// How a note renders a raw form that has a sanitized twin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NoteStyle {
    /// One sentence with the operational fact and the private reason.
    #[default]
    Entangled,
    /// The raw and the sanitized text as two lines.
    Separate,
}

impl NoteStyle {
    pub fn name(self) -> &'static str {
        match self {
            NoteStyle::Entangled => "entangled",
            NoteStyle::Separate => "separate",
        }
    }
}

/// One line of a note: its text and the ids of the forms it carries.
pub(super) struct Line {
    pub text: String,
    pub forms: Vec<String>,
}

/// Whether an attribute's two forms are one line under `style`: a raw
/// reason (inappropriate) with an appropriate sanitized twin.
pub(super) fn fused(attr: &Attribute, style: NoteStyle) -> bool {
    style == NoteStyle::Entangled
        && attr
            .sanitized
            .as_ref()
            .is_some_and(|s| s.appropriate && !attr.raw.appropriate)
}

/// The lines of one holder's note, in attribute order.
pub(super) fn lines(sc: &Scenario, holder: usize, style: NoteStyle) -> Vec<Line> {
    let mut out = Vec::new();
    for attr in sc.attributes.iter().filter(|a| a.holder == holder) {
        if fused(attr, style) {
            let sanitized = attr.sanitized.as_ref().map_or("", |s| s.text.as_str());
            out.push(Line {
                text: fuse(sc, sanitized, &attr.raw.text),
                forms: vec![
                    attr.form_id(FormKind::Raw),
                    attr.form_id(FormKind::Sanitized),
                ],
            });
            continue;
        }
        for (kind, form) in attr.forms() {
            out.push(Line {
                text: form.text.clone(),
                forms: vec![attr.form_id(kind)],
            });
        }
    }
    out
}

/// One sentence from the operational statement and the private reason:
/// `Eli is unavailable Tuesday 10-11: oncology infusion appointment
/// Tuesday 10-11.` The reason's first letter is lowered unless it starts a
/// name or an acronym.
pub fn fuse(sc: &Scenario, sanitized: &str, raw: &str) -> String {
    let head = sanitized.trim().trim_end_matches(['.', '!', ';', ',', ' ']);
    let reason = raw.trim();
    let first_word: String = reason.chars().take_while(|c| c.is_alphanumeric()).collect();
    let named = sc.people.iter().any(|p| {
        p.name
            .split_whitespace()
            .any(|w| w.trim_matches(|c: char| !c.is_alphanumeric()) == first_word)
    });
    let mut chars = reason.chars();
    let reason = match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && b.is_lowercase() && !named => a
            .to_lowercase()
            .chain(reason[a.len_utf8()..].chars())
            .collect(),
        _ => reason.to_string(),
    };
    let end = if reason.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    format!("{head}: {reason}{end}")
}
