//! A name not on the team (`text_names_unknown_person`): a capitalised
//! given name in a form's text that is no one of the scenario.
//!
//! The check is conservative: it reads only the given names of
//! `given_names.txt`, which leaves out every name that is also a common
//! word, a place, a month or a brand, so a product, a room, a feature, a
//! day or a sentence's first word is never taken for a person. A word of
//! any name of the scenario (people, rooms, meetings, tickets, features,
//! levels, evidence, its title and task) is known. A raw text may name a
//! relative or a doctor of its holder ("her brother Tom"): a name a word
//! of kinship or care stands just before is not held there.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::diagnostic::CheckDiagnostic;
use super::tokens::{toks, Mention, Named};
use crate::sema::{Attribute, FormKind, Scenario, Setting};

static GIVEN: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("given_names.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
});

/// Words that introduce someone of the holder's own life in a raw text.
const RELATIONS: &[&str] = &[
    "partner",
    "wife",
    "husband",
    "spouse",
    "son",
    "daughter",
    "child",
    "kid",
    "brother",
    "sister",
    "sibling",
    "mother",
    "father",
    "mum",
    "mom",
    "dad",
    "parent",
    "grandmother",
    "grandfather",
    "aunt",
    "uncle",
    "cousin",
    "niece",
    "nephew",
    "friend",
    "fiancé",
    "fiance",
    "fiancée",
    "boyfriend",
    "girlfriend",
    "doctor",
    "dr",
    "therapist",
    "lawyer",
    "nurse",
    "counsellor",
    "counselor",
    "carer",
    "landlord",
    "neighbour",
    "neighbor",
    "baby",
    "named",
    "called",
];

/// The words of every name the scenario gives, lower-cased.
pub(super) struct Known(HashSet<String>);

impl Known {
    pub(super) fn new(sc: &Scenario) -> Known {
        let mut texts: Vec<&str> = vec![&sc.id, &sc.title, &sc.task];
        texts.extend(sc.public.iter().map(String::as_str));
        for p in &sc.people {
            texts.extend([p.id.as_str(), p.name.as_str(), p.role.as_str()]);
            texts.extend(p.groups.iter().chain(&p.skills).map(String::as_str));
        }
        match &sc.setting {
            Setting::Meeting(ms) => {
                for r in &ms.rooms {
                    texts.push(&r.id);
                    texts.extend(r.name.as_deref());
                    texts.extend(r.features.iter().map(String::as_str));
                }
                for m in &ms.meetings {
                    texts.extend([m.id.as_str(), m.title.as_str()]);
                }
            }
            Setting::Jira(js) => {
                for t in &js.tickets {
                    texts.extend([t.id.as_str(), t.title.as_str()]);
                }
            }
            Setting::Rule(ss) => {
                texts.extend(ss.levels.iter().map(|l| l.id.as_str()));
                for e in &ss.evidence {
                    texts.push(&e.id);
                    texts.extend(e.values.iter().map(String::as_str));
                }
            }
        }
        let mut words = HashSet::new();
        for t in texts {
            words.extend(toks(t).iter().map(|t| t.lower.clone()));
        }
        Known(words)
    }

    /// The diagnostics of one attribute's texts.
    pub(super) fn check(&self, sc: &Scenario, attr: &Attribute) -> Vec<CheckDiagnostic> {
        let mut out = Vec::new();
        for (kind, form) in attr.forms() {
            let toks = toks(&form.text);
            for (i, t) in toks.iter().enumerate() {
                let word = &form.text[t.at.clone()];
                // An acronym (`ADA`, `KAI`) is no name.
                let acronym = word.chars().filter(|c| c.is_uppercase()).count() > 1;
                if !t.capital || acronym || !GIVEN.contains(t.lower.as_str()) {
                    continue;
                }
                if self.0.contains(&t.lower) {
                    continue;
                }
                let kin = toks[i.saturating_sub(3)..i]
                    .iter()
                    .any(|w| RELATIONS.contains(&w.lower.as_str()));
                if kind == FormKind::Raw && kin {
                    continue;
                }
                let m = Mention {
                    what: Named::Number(0),
                    at: t.at.clone(),
                };
                out.push(CheckDiagnostic::TextNamesUnknownPerson {
                    attribute: attr.id.clone(),
                    form: kind.name().into(),
                    word: word.to_string(),
                    span: super::agreement::word_span(form, &m),
                    help: Some(team_help(sc)),
                });
                break;
            }
        }
        out
    }
}

fn team_help(sc: &Scenario) -> String {
    let names: Vec<String> = sc.people.iter().map(|p| format!("{:?}", p.name)).collect();
    format!(
        "the team is {}; name someone of it, or no one",
        names.join(", ")
    )
}
