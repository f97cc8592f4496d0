//! Raw and sanitized texts for generated attributes, from the templates in
//! `templates/facts.yaml`: a personal reason per category in the raw form,
//! the operational implication alone in the sanitized form.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

use crate::sema::{Category, Predicate, Scenario, Slot};

const BUILTIN: &str = include_str!("../../templates/facts.yaml");

#[derive(Clone, Debug, Deserialize)]
struct Phrasing {
    raw: String,
    sanitized: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
struct Irrelevant {
    category: Category,
    text: String,
}

#[derive(Clone, Debug, Deserialize)]
struct FactsFile {
    reasons: BTreeMap<Category, Vec<String>>,
    irrelevant: Vec<Irrelevant>,
    facts: BTreeMap<String, Phrasing>,
}

/// The phrasing of generated facts, parsed and checked.
#[derive(Debug)]
pub struct FactTexts {
    file: FactsFile,
    env: minijinja::Environment<'static>,
}

/// The predicates that need a phrasing.
const PREDICATES: &[&str] = &[
    "unavailable",
    "avoid_room",
    "capacity",
    "cannot_own",
    "no_sensitive",
    "cannot_pair",
    "off",
    "needs_feature",
    "not_before",
    "not_after",
    "attends",
    "evidence",
];

impl FactTexts {
    /// Parses a `facts.yaml`; every predicate needs a raw template, and
    /// every reason pool and the irrelevant pool must be non-empty.
    pub fn from_yaml(text: &str) -> Result<FactTexts, String> {
        let file: FactsFile = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
        if file.reasons.is_empty()
            || file.reasons.values().any(Vec::is_empty)
            || file.irrelevant.is_empty()
        {
            return Err("`reasons` and `irrelevant` need at least one entry each".into());
        }
        let mut env = minijinja::Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        for p in PREDICATES {
            let phrasing = file
                .facts
                .get(*p)
                .ok_or_else(|| format!("no phrasing for `{p}`"))?;
            env.add_template_owned(format!("{p}.raw"), phrasing.raw.clone())
                .map_err(|e| format!("{p}.raw: {e}"))?;
            if let Some(s) = &phrasing.sanitized {
                env.add_template_owned(format!("{p}.sanitized"), s.clone())
                    .map_err(|e| format!("{p}.sanitized: {e}"))?;
            }
        }
        Ok(FactTexts { file, env })
    }

    /// The phrasing that ships with cici.
    pub fn builtin() -> &'static FactTexts {
        static TEXTS: OnceLock<FactTexts> = OnceLock::new();
        TEXTS.get_or_init(|| {
            FactTexts::from_yaml(BUILTIN).expect("the built-in facts.yaml is valid")
        })
    }

    fn render(&self, name: &str, ctx: &BTreeMap<&str, String>) -> Option<String> {
        let t = self.env.get_template(name).ok()?;
        Some(
            t.render(minijinja::value::Serde(ctx))
                .expect("fact templates were checked when loaded"),
        )
    }
}

/// The texts of one generated attribute.
pub(crate) struct Texts {
    pub category: Category,
    pub raw: String,
    pub sanitized: Option<String>,
}

pub(crate) fn irrelevant(texts: &FactTexts, rng: &mut ChaCha8Rng) -> (Category, String) {
    let pool = &texts.file.irrelevant;
    let pick = &pool[rng.random_range(0..pool.len())];
    (pick.category, pick.text.clone())
}

/// `Tuesday 10-11` for `tue 10:00-11:00`.
pub(crate) fn when(slot: &Slot) -> String {
    let t = |m: u16| {
        if m.is_multiple_of(60) {
            format!("{}", m / 60)
        } else {
            format!("{}:{:02}", m / 60, m % 60)
        }
    };
    format!("{} {}-{}", slot.day.name(), t(slot.start), t(slot.end))
}

/// Texts for a hard fact: a personal reason when the fact is about a
/// person, an operational statement otherwise.
pub(crate) fn hard(texts: &FactTexts, sc: &Scenario, p: &Predicate, rng: &mut ChaCha8Rng) -> Texts {
    let name = |i: usize| sc.people[i].name.clone();
    let ms = sc.meeting_setting();
    let mut ctx: BTreeMap<&str, String> = BTreeMap::new();
    let key = match p {
        Predicate::Unavailable { person, slot } => {
            ctx.insert("name", name(*person));
            ctx.insert("when", when(slot));
            "unavailable"
        }
        Predicate::AvoidRoom { person, room } => {
            ctx.insert("name", name(*person));
            ctx.insert(
                "room",
                ms.map_or(String::new(), |m| m.rooms[*room].id.clone()),
            );
            "avoid_room"
        }
        Predicate::Capacity { person, hours } => {
            ctx.insert("name", name(*person));
            ctx.insert("hours", hours.to_string());
            "capacity"
        }
        Predicate::CannotOwn { person, ticket } => {
            ctx.insert("name", name(*person));
            ctx.insert(
                "ticket",
                sc.jira_setting()
                    .map_or(String::new(), |j| j.tickets[*ticket].title.clone()),
            );
            "cannot_own"
        }
        Predicate::NoSensitive { person } => {
            ctx.insert("name", name(*person));
            "no_sensitive"
        }
        Predicate::CannotPair { a, b } => {
            ctx.insert("name", name(*a));
            ctx.insert("name2", name(*b));
            "cannot_pair"
        }
        Predicate::Off { person } => {
            ctx.insert("name", name(*person));
            "off"
        }
        Predicate::NeedsFeature { meeting, feature } => {
            ctx.insert(
                "meeting",
                ms.map_or(String::new(), |m| m.meetings[*meeting].title.clone()),
            );
            ctx.insert("feature", feature.replace('_', " "));
            "needs_feature"
        }
        Predicate::NotBefore { meeting, slot } | Predicate::NotAfter { meeting, slot } => {
            ctx.insert(
                "meeting",
                ms.map_or(String::new(), |m| m.meetings[*meeting].title.clone()),
            );
            ctx.insert("when", when(slot));
            if matches!(p, Predicate::NotBefore { .. }) {
                "not_before"
            } else {
                "not_after"
            }
        }
        Predicate::Attends { person, meeting } => {
            ctx.insert("name", name(*person));
            ctx.insert(
                "meeting",
                ms.map_or(String::new(), |m| m.meetings[*meeting].title.clone()),
            );
            "attends"
        }
        Predicate::Evidence { variable, value } => {
            let e = &sc.severity_setting().expect("severity setting").evidence[*variable];
            ctx.insert("variable", e.id.replace('_', " "));
            ctx.insert("value", e.values[*value].replace('_', " "));
            "evidence"
        }
        Predicate::Toward { .. } => unreachable!("toward is soft only"),
    };
    let personal = crate::planted::subject_of(p).is_some();
    let category = if personal {
        let cats: Vec<&Category> = texts.file.reasons.keys().collect();
        let cat = *cats[rng.random_range(0..cats.len())];
        let pool = &texts.file.reasons[&cat];
        ctx.insert("reason", pool[rng.random_range(0..pool.len())].clone());
        cat
    } else {
        Category::Operational
    };
    let raw = texts
        .render(&format!("{key}.raw"), &ctx)
        .unwrap_or_default();
    let sanitized = if personal {
        texts.render(&format!("{key}.sanitized"), &ctx)
    } else {
        None
    };
    Texts {
        category,
        raw,
        sanitized,
    }
}
