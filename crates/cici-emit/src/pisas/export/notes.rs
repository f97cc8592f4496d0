//! The holders' private notes: which lines each note has and which forms
//! each line carries.
//!
//! Entangled (the default, as the release's generator writes its bundles):
//! a raw form with a sanitized twin is one line, as the holder would say
//! it, carrying both the operational fact and the private reason; the
//! sanitized twin is that line's clean rewrite. Separate: every form is its
//! own line, so the appropriate fact stands word for word beside its reason.

use super::ids::Ids;
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
pub(super) fn lines(sc: &Scenario, ids: &Ids, holder: usize, style: NoteStyle) -> Vec<Line> {
    let mut out = Vec::new();
    for (a, attr) in sc
        .attributes
        .iter()
        .enumerate()
        .filter(|(_, a)| a.holder == holder)
    {
        if fused(attr, style) {
            let sanitized = attr.sanitized.as_ref().map_or("", |s| s.text.as_str());
            out.push(Line {
                text: fuse(sc, &attr.id, sanitized, &attr.raw.text),
                forms: vec![ids.of(a, FormKind::Raw), ids.of(a, FormKind::Sanitized)],
            });
            continue;
        }
        for (kind, form) in attr.forms() {
            out.push(Line {
                text: form.text.clone(),
                forms: vec![ids.of(a, kind)],
            });
        }
    }
    out
}

/// One sentence from the operational statement and the private reason,
/// as a holder would write it: the two interleaved in prose, in one of
/// several shapes chosen by the attribute (the release writes its lines so;
/// never "`<statement>: <reason>`", which a split at the colon would undo).
///
/// `Oncology infusion appointment Tuesday 10-11, so Eli is unavailable
/// Tuesday 10-11.` The first letter of a part that no longer starts the
/// sentence is lowered unless it starts a name or an acronym.
pub fn fuse(sc: &Scenario, id: &str, sanitized: &str, raw: &str) -> String {
    let statement = sanitized
        .trim()
        .trim_end_matches(['.', '!', ';', ',', ':', ' ']);
    let reason = raw.trim().trim_end_matches(['.', '!', ';', ',', ':', ' ']);
    let clause = starts_as_clause(sc, reason);
    let shape = shape_of(id) % if clause { 4 } else { 3 };
    let sentence = match shape {
        0 => format!("{reason}, so {}", lowered(sc, statement)),
        1 => format!("{reason}, which means {}", lowered(sc, statement)),
        2 => format!("{statement} ({})", lowered(sc, reason)),
        _ => format!("{statement}, and {}", lowered(sc, reason)),
    };
    format!("{sentence}.")
}

/// A stable pick among the shapes, from the attribute's id (FNV-1a), so a
/// corpus uses every shape and a rebuild gives the same text.
fn shape_of(id: &str) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for b in id.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h as usize
}

/// Whether `text` reads as a clause (a person or a pronoun first), so it
/// can follow "and"; a noun phrase ("Oncology infusion appointment ...")
/// cannot.
fn starts_as_clause(sc: &Scenario, text: &str) -> bool {
    const PRONOUNS: [&str; 10] = [
        "I", "We", "He", "She", "They", "My", "Our", "His", "Her", "Their",
    ];
    let first = first_word(text);
    PRONOUNS.contains(&first.as_str()) || is_name(sc, &first)
}

fn first_word(text: &str) -> String {
    crate::words::word_prefix(text).to_string()
}

fn is_name(sc: &Scenario, word: &str) -> bool {
    !word.is_empty()
        && sc.people.iter().any(|p| {
            crate::words::whitespace_words(&p.name).any(|w| crate::words::trim_to_word(w) == word)
        })
}

/// `text` with its first letter lowered, unless it starts a name, the
/// pronoun "I" or an acronym.
fn lowered(sc: &Scenario, text: &str) -> String {
    let first = first_word(text);
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b))
            if a.is_uppercase() && b.is_lowercase() && !is_name(sc, &first) && first != "I" =>
        {
            a.to_lowercase()
                .chain(text[a.len_utf8()..].chars())
                .collect()
        }
        _ => text.to_string(),
    }
}
