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

/// One phrasing, or several of the same fact.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn all(&self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
struct Phrasing {
    raw: OneOrMany,
    sanitized: Option<OneOrMany>,
}

/// The older form of the irrelevant pool: a list of fixed texts.
#[derive(Clone, Debug, Deserialize)]
struct Irrelevant {
    category: Category,
    text: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum IrrelevantPool {
    PerCategory(BTreeMap<Category, Vec<String>>),
    List(Vec<Irrelevant>),
}

#[derive(Clone, Debug, Deserialize)]
struct FactsFile {
    reasons: BTreeMap<Category, Vec<String>>,
    irrelevant: IrrelevantPool,
    facts: BTreeMap<String, Phrasing>,
}

/// The phrasing of generated facts, parsed and checked.
#[derive(Debug)]
pub struct FactTexts {
    file: FactsFile,
    /// Per category, the templates of irrelevant details.
    irrelevant: BTreeMap<Category, Vec<String>>,
    /// How many phrasings each `<predicate>.<form>` has.
    counts: BTreeMap<String, usize>,
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
    "no_high_priority",
    "no_collaboration_heavy",
    "cannot_be_sole_owner",
    "requires_feature",
    "within_hours",
    "before",
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
        let irrelevant: BTreeMap<Category, Vec<String>> = match &file.irrelevant {
            IrrelevantPool::PerCategory(m) => m.clone(),
            IrrelevantPool::List(l) => {
                let mut m: BTreeMap<Category, Vec<String>> = BTreeMap::new();
                for i in l {
                    m.entry(i.category).or_default().push(i.text.clone());
                }
                m
            }
        };
        if file.reasons.is_empty()
            || file.reasons.values().any(Vec::is_empty)
            || irrelevant.is_empty()
            || irrelevant.values().any(Vec::is_empty)
        {
            return Err("`reasons` and `irrelevant` need at least one entry each".into());
        }
        let mut env = minijinja::Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        let mut counts = BTreeMap::new();
        let mut add = |name: String, list: Vec<String>| -> Result<(), String> {
            if list.is_empty() {
                return Err(format!("{name}: at least one phrasing"));
            }
            for (i, t) in list.iter().enumerate() {
                env.add_template_owned(format!("{name}.{i}"), t.clone())
                    .map_err(|e| format!("{name}: {e}"))?;
            }
            counts.insert(name, list.len());
            Ok(())
        };
        for p in PREDICATES {
            let phrasing = file
                .facts
                .get(*p)
                .ok_or_else(|| format!("no phrasing for `{p}`"))?;
            add(format!("{p}.raw"), phrasing.raw.all())?;
            if let Some(s) = &phrasing.sanitized {
                add(format!("{p}.sanitized"), s.all())?;
            }
        }
        for (cat, list) in &irrelevant {
            add(format!("irrelevant.{}", cat.name()), list.clone())?;
        }
        Ok(FactTexts {
            file,
            irrelevant,
            counts,
            env,
        })
    }

    /// The phrasing that ships with cici.
    pub fn builtin() -> &'static FactTexts {
        static TEXTS: OnceLock<FactTexts> = OnceLock::new();
        TEXTS.get_or_init(|| {
            FactTexts::from_yaml(BUILTIN).expect("the built-in facts.yaml is valid")
        })
    }

    /// Renders phrasing `i` of `name` (`<predicate>.<form>`); `None` when
    /// there is no such template or it needs a variable it was not given.
    fn render_nth(&self, name: &str, i: usize, ctx: &BTreeMap<&str, String>) -> Option<String> {
        let t = self.env.get_template(&format!("{name}.{i}")).ok()?;
        t.render(minijinja::value::Serde(ctx)).ok()
    }

    /// Renders a phrasing of `name` drawn at random.
    fn render(
        &self,
        name: &str,
        ctx: &BTreeMap<&str, String>,
        rng: &mut ChaCha8Rng,
    ) -> Option<String> {
        let n = *self.counts.get(name)?;
        self.render_nth(name, rng.random_range(0..n), ctx)
    }

    /// Every phrasing of `name`, rendered.
    fn render_all(&self, name: &str, ctx: &BTreeMap<&str, String>) -> Vec<String> {
        let n = self.counts.get(name).copied().unwrap_or(0);
        (0..n)
            .filter_map(|i| self.render_nth(name, i, ctx))
            .collect()
    }
}

/// The texts of one generated attribute.
pub(crate) struct Texts {
    pub category: Category,
    pub raw: String,
    pub sanitized: Option<String>,
}

/// An irrelevant personal detail about the person with first name `name`,
/// of `category` when given (and the pool has it), else of any category.
pub(crate) fn irrelevant(
    texts: &FactTexts,
    name: &str,
    category: Option<Category>,
    rng: &mut ChaCha8Rng,
) -> (Category, String) {
    let cats: Vec<Category> = texts.irrelevant.keys().copied().collect();
    let cat = category
        .filter(|c| texts.irrelevant.contains_key(c))
        .unwrap_or_else(|| cats[rng.random_range(0..cats.len())]);
    let mut ctx = BTreeMap::new();
    ctx.insert("name", name.to_string());
    let text = texts
        .render(&format!("irrelevant.{}", cat.name()), &ctx, rng)
        .unwrap_or_default();
    (cat, text)
}

/// `Tuesday from 10 to 11` for `tue 10:00-11:00`: the words a sentence uses.
pub(crate) fn when_words(slot: &Slot) -> String {
    let t = |m: u16| {
        if m.is_multiple_of(60) {
            format!("{}", m / 60)
        } else {
            format!("{}:{:02}", m / 60, m % 60)
        }
    };
    format!(
        "{} from {} to {}",
        slot.day.name(),
        t(slot.start),
        t(slot.end)
    )
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

/// The template key and variables of a hard fact.
fn fact_context(sc: &Scenario, p: &Predicate) -> (&'static str, BTreeMap<&'static str, String>) {
    // First names, as the people of a team refer to each other.
    let name = |i: usize| {
        let full = &sc.people[i].name;
        full.split_whitespace().next().unwrap_or(full).to_string()
    };
    let ms = sc.meeting_setting();
    let mut ctx: BTreeMap<&'static str, String> = BTreeMap::new();
    let key = match p {
        Predicate::Unavailable { person, slot } => {
            ctx.insert("name", name(*person));
            ctx.insert("when", when_words(slot));
            "unavailable"
        }
        Predicate::AvoidRoom { person, room } => {
            ctx.insert("name", name(*person));
            ctx.insert(
                "room",
                ms.map_or(String::new(), |m| {
                    let r = &m.rooms[*room];
                    r.name.clone().unwrap_or_else(|| r.id.clone())
                }),
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
        Predicate::NoHighPriority { person } => {
            ctx.insert("name", name(*person));
            "no_high_priority"
        }
        Predicate::NoCollaborationHeavy { person } => {
            ctx.insert("name", name(*person));
            "no_collaboration_heavy"
        }
        Predicate::CannotBeSoleOwner { person } => {
            ctx.insert("name", name(*person));
            "cannot_be_sole_owner"
        }
        Predicate::RequiresFeature { person, feature } => {
            ctx.insert("name", name(*person));
            ctx.insert("feature", feature.replace('_', " "));
            "requires_feature"
        }
        Predicate::WithinHours {
            person,
            earliest,
            latest,
        } => {
            ctx.insert("name", name(*person));
            ctx.insert("earliest", earliest.to_string());
            ctx.insert("latest", latest.to_string());
            "within_hours"
        }
        Predicate::Before { first, second } => {
            let title = |m: usize| ms.map_or(String::new(), |s| s.meetings[m].title.clone());
            ctx.insert("meeting", title(*first));
            ctx.insert("meeting2", title(*second));
            "before"
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
            ctx.insert("when", when_words(slot));
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
    (key, ctx)
}

/// Texts for a hard fact: a personal reason when the fact is about a
/// person, an operational statement otherwise.
pub(crate) fn hard(texts: &FactTexts, sc: &Scenario, p: &Predicate, rng: &mut ChaCha8Rng) -> Texts {
    let (key, mut ctx) = fact_context(sc, p);
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
        .render(&format!("{key}.raw"), &ctx, rng)
        .unwrap_or_default();
    let sanitized = if personal {
        texts.render(&format!("{key}.sanitized"), &ctx, rng)
    } else {
        None
    };
    Texts {
        category,
        raw,
        sanitized,
    }
}

/// Every phrasing of a fact in one form that tells no personal reason: the
/// sanitized form of a personal fact, or the raw form of an operational
/// one. Empty for the raw form of a personal fact, whose reason a
/// paraphrase cannot know.
pub(crate) fn paraphrases(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    form: crate::sema::FormKind,
) -> Vec<String> {
    let personal = crate::planted::subject_of(p).is_some();
    let which = match (form, personal) {
        (crate::sema::FormKind::Sanitized, true) => "sanitized",
        (crate::sema::FormKind::Raw, false) => "raw",
        _ => return Vec::new(),
    };
    if matches!(p, Predicate::Toward { .. }) {
        return Vec::new();
    }
    let (key, ctx) = fact_context(sc, p);
    texts.render_all(&format!("{key}.{which}"), &ctx)
}

/// The first sanitized phrasing of a personal fact: the one a fix-it
/// proposes, the same on every run.
pub(crate) fn canonical_sanitized(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
) -> Option<String> {
    if crate::planted::subject_of(p).is_none() || matches!(p, Predicate::Toward { .. }) {
        return None;
    }
    let (key, ctx) = fact_context(sc, p);
    texts.render_nth(&format!("{key}.sanitized"), 0, &ctx)
}

/// A fact in plain words, as a team member would state it without any
/// personal reason: the first sanitized phrasing where the fact has one,
/// else the first raw phrasing. `None` for a soft-only fact.
pub(crate) fn statement(texts: &FactTexts, sc: &Scenario, p: &Predicate) -> Option<String> {
    if matches!(p, Predicate::Toward { .. }) {
        return None;
    }
    let (key, ctx) = fact_context(sc, p);
    texts
        .render_nth(&format!("{key}.sanitized"), 0, &ctx)
        .or_else(|| texts.render_nth(&format!("{key}.raw"), 0, &ctx))
}
