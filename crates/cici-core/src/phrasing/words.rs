//! The parts of a phrasing that agree with each other: a reason as an
//! event or a condition with its ready verb phrases, a number of hours
//! with its noun, an evidence variable's written name and its state as a
//! verb phrase. The templates read these as variables, so no text is
//! spliced together from a noun and a verb that do not fit.

use std::collections::BTreeMap;

use serde::Deserialize;

/// Whether a reason happens (a hearing: someone *has* it, *is at* it at a
/// time) or holds (a performance improvement plan: someone *is on* it).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ReasonKind {
    #[default]
    Event,
    Condition,
}

/// A reason as written in `facts.yaml`: a noun phrase alone (an event),
/// or a map that says its kind and verb phrases.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum ReasonEntry {
    Event(String),
    Full {
        noun: String,
        #[serde(default)]
        kind: ReasonKind,
        #[serde(default)]
        vp: Option<String>,
        #[serde(default)]
        at: Option<String>,
    },
}

/// A personal reason with the phrases a sentence needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub kind: ReasonKind,
    /// The noun phrase: "a custody hearing", "a performance improvement
    /// plan".
    pub noun: String,
    /// What the person does, third person: "has a custody hearing", "is
    /// on a performance improvement plan".
    pub vp: String,
    /// An event that takes up a time: "a custody hearing", "a review
    /// meeting about a performance improvement plan".
    pub at: String,
}

impl ReasonEntry {
    /// The reason with its phrases; `None` for a condition without both
    /// verb phrases, which no default can write.
    pub(crate) fn reason(&self) -> Option<Reason> {
        match self {
            ReasonEntry::Event(noun) => Some(Reason {
                kind: ReasonKind::Event,
                vp: format!("has {noun}"),
                at: noun.clone(),
                noun: noun.clone(),
            }),
            ReasonEntry::Full { noun, kind, vp, at } => {
                if *kind == ReasonKind::Condition && (vp.is_none() || at.is_none()) {
                    return None;
                }
                Some(Reason {
                    kind: *kind,
                    vp: vp.clone().unwrap_or_else(|| format!("has {noun}")),
                    at: at.clone().unwrap_or_else(|| noun.clone()),
                    noun: noun.clone(),
                })
            }
        }
    }

    pub(crate) fn noun(&self) -> &str {
        match self {
            ReasonEntry::Event(n) | ReasonEntry::Full { noun: n, .. } => n,
        }
    }
}

impl Reason {
    /// The reason's variables of a template: `reason`, `reason_vp`,
    /// `reason_at`.
    pub(crate) fn fill(&self, ctx: &mut BTreeMap<&'static str, String>) {
        ctx.insert("reason", self.noun.clone());
        ctx.insert("reason_vp", self.vp.clone());
        ctx.insert("reason_at", self.at.clone());
    }
}

/// `1 hour`, `3 hours`.
pub fn hours(n: &str) -> String {
    if n == "1" {
        "1 hour".into()
    } else {
        format!("{n} hours")
    }
}

/// The written name of an evidence variable: its entry in `names`, else
/// its words after "the" (`the pen test`), never its id.
pub(crate) fn variable_name(names: &BTreeMap<String, String>, id: &str) -> String {
    names
        .get(id)
        .cloned()
        .unwrap_or_else(|| format!("the {}", split_id(id)))
}

/// The phrasings of a state after its variable's name: the entry for
/// `<variable>.<state>`, else for `<state>`, else "is <state's words>".
pub(crate) fn state_phrases(
    states: &BTreeMap<String, Vec<String>>,
    variable: &str,
    state: &str,
) -> Vec<String> {
    states
        .get(&format!("{variable}.{state}"))
        .or_else(|| states.get(state))
        .filter(|v| !v.is_empty())
        .cloned()
        .unwrap_or_else(|| vec![format!("is {}", split_id(state))])
}

/// An id as words: `_` as spaces, and digits apart from letters (`soc2`
/// is `soc 2`), so that no text carries the id itself.
pub(crate) fn split_id(id: &str) -> String {
    let mut out = String::new();
    let mut prev: Option<char> = None;
    for c in id.chars() {
        let c = if c == '_' { ' ' } else { c };
        if let Some(p) = prev {
            if (p.is_alphabetic() && c.is_ascii_digit())
                || (p.is_ascii_digit() && c.is_alphabetic())
            {
                out.push(' ');
            }
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

/// The template filter `cap`: the first letter in capitals, the rest as
/// it is (minijinja's `capitalize` lowers the rest, "the SOC 2 report").
pub(crate) fn cap(s: String) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => s,
    }
}
