//! Fact phrasing: raw and sanitized texts for a fact, from the templates in
//! `templates/facts.yaml`: a personal reason per category in the raw form,
//! the operational implication alone in the sanitized form.
//!
//! The planted generator, renderers, fix-its, PiSAs export, the judge and
//! the counterfactual generators all phrase facts through this module; the
//! templates are keyed by the predicate table's phrasing keys.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

use crate::sema::{
    ArgValue, Category, Predicate, PredicateSpec, RulePredicate, Scenario, Slot, PREDICATES,
};

mod every;
mod refs;
mod words;

pub(crate) use refs::topics as ticket_topics;
pub use refs::{draw_ticket, slot_words, ticket_words, SlotWords};
use words::ReasonEntry;
pub use words::{hours, Reason, ReasonKind};

const BUILTIN: &str = include_str!("../../../templates/facts.yaml");

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
    /// For a fact about no one: a person's private detail that reads as
    /// stating it (a `claim`), with `name` and `reason`.
    #[serde(default)]
    claim: Option<OneOrMany>,
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
    reasons: BTreeMap<Category, Vec<ReasonEntry>>,
    /// Work reasons that are fine to share, per predicate key and
    /// `default` (optional in a user's file).
    #[serde(default)]
    operational: BTreeMap<String, Vec<String>>,
    irrelevant: IrrelevantPool,
    facts: BTreeMap<String, Phrasing>,
    /// Written names of evidence variables, by id.
    #[serde(default)]
    evidence: BTreeMap<String, String>,
    /// States as verb phrases, by `<state>` or `<variable>.<state>`.
    #[serde(default)]
    states: BTreeMap<String, Vec<String>>,
    /// The planted generator's soft distractors, by predicate.
    #[serde(default)]
    soft: BTreeMap<String, Vec<String>>,
}

/// The phrasing of generated facts, parsed and checked.
#[derive(Debug)]
pub struct FactTexts {
    file: FactsFile,
    /// Per category, the reasons with their phrases.
    reasons: BTreeMap<Category, Vec<Reason>>,
    /// Per category, the templates of irrelevant details.
    irrelevant: BTreeMap<Category, Vec<String>>,
    /// How many phrasings each `<predicate>.<form>` has.
    counts: BTreeMap<String, usize>,
    env: minijinja::Environment<'static>,
    /// Phrasings rendered so far, by template and variables: the text
    /// lints of every compiled variant phrase the same facts of the same
    /// team again, and rendering is a pure function of both.
    rendered: Mutex<Rendered>,
}

/// Renderings by template and variables.
type Rendered = HashMap<String, Option<String>, foldhash::fast::RandomState>;

/// The most renderings kept: past it the memo starts again, so that a
/// long run holds bounded memory.
const MAX_RENDERED: usize = 1 << 16;

/// The older key of a phrasing, still read: JIRA's `unavailable` was
/// spelled `off` in `facts.yaml` before the keys came from the predicate
/// table.
const OLDER_KEYS: &[(&str, &str)] = &[("off", "jira_allocation.unavailable")];

/// The phrasing of `spec` in the file, under its key or an older one.
fn phrasing_of<'f>(file: &'f FactsFile, spec: &PredicateSpec) -> Option<&'f Phrasing> {
    file.facts.get(spec.phrasing).or_else(|| {
        OLDER_KEYS
            .iter()
            .find(|(_, new)| *new == spec.phrasing)
            .and_then(|(old, _)| file.facts.get(*old))
    })
}

/// A `facts.yaml` that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FactsError {
    #[error("{0}")]
    Yaml(String),
    #[error("`facts.{key}` is no predicate's phrasing{}", nearest.map(|k| format!("; did you mean `{k}`?")).unwrap_or_default())]
    UnknownKey {
        key: String,
        nearest: Option<&'static str>,
    },
    #[error("`reasons` and `irrelevant` need at least one entry each")]
    EmptyPools,
    #[error("operational: `{0}` is neither `default` nor a predicate of `facts`")]
    UnknownOperational(String),
    #[error("operational: {0}: at least one reason")]
    NoReason(String),
    #[error("{0}: at least one phrasing")]
    NoPhrasing(String),
    #[error("{name}: {error}")]
    Template { name: String, error: String },
    #[error("no phrasing for `{0}`")]
    Missing(&'static str),
    #[error("reasons: `{0}` is a condition, which needs both `vp` and `at`")]
    Reason(String),
}

/// Every key under `facts:` must name a predicate of the table.
fn check_keys(file: &FactsFile) -> Result<(), FactsError> {
    for key in file.facts.keys() {
        let known = PREDICATES.iter().any(|s| s.phrasing == key)
            || OLDER_KEYS.iter().any(|(old, _)| old == key);
        if !known {
            let keys = PREDICATES
                .iter()
                .filter(|s| !s.soft_only)
                .map(|s| s.phrasing);
            return Err(FactsError::UnknownKey {
                key: key.clone(),
                nearest: crate::suggest::closest(key, keys),
            });
        }
    }
    Ok(())
}

impl FactTexts {
    /// Parses a `facts.yaml`; every predicate needs a raw template, and
    /// every reason pool and the irrelevant pool must be non-empty.
    pub fn from_yaml(text: &str) -> Result<FactTexts, FactsError> {
        let file: FactsFile =
            serde_yaml::from_str(text).map_err(|e| FactsError::Yaml(e.to_string()))?;
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
            return Err(FactsError::EmptyPools);
        }
        for (key, pool) in &file.operational {
            if key != "default" && !file.facts.contains_key(key) {
                return Err(FactsError::UnknownOperational(key.clone()));
            }
            if pool.is_empty() {
                return Err(FactsError::NoReason(key.clone()));
            }
        }
        let mut reasons = BTreeMap::new();
        for (cat, pool) in &file.reasons {
            let list = pool
                .iter()
                .map(|e| {
                    e.reason()
                        .ok_or_else(|| FactsError::Reason(e.noun().into()))
                })
                .collect::<Result<Vec<Reason>, _>>()?;
            reasons.insert(*cat, list);
        }
        let mut env = minijinja::Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.add_filter("cap", words::cap);
        let mut counts = BTreeMap::new();
        let mut add = |name: String, list: Vec<String>| -> Result<(), FactsError> {
            if list.is_empty() {
                return Err(FactsError::NoPhrasing(name));
            }
            for (i, t) in list.iter().enumerate() {
                env.add_template_owned(format!("{name}.{i}"), t.clone())
                    .map_err(|e| FactsError::Template {
                        name: name.clone(),
                        error: e.to_string(),
                    })?;
            }
            counts.insert(name, list.len());
            Ok(())
        };
        check_keys(&file)?;
        for spec in PREDICATES.iter().filter(|s| !s.soft_only) {
            let key = spec.phrasing;
            let phrasing = phrasing_of(&file, spec).ok_or(FactsError::Missing(key))?;
            add(format!("{key}.raw"), phrasing.raw.all())?;
            if let Some(s) = &phrasing.sanitized {
                add(format!("{key}.sanitized"), s.all())?;
            }
            if let Some(s) = &phrasing.claim {
                add(format!("{key}.claim"), s.all())?;
            }
        }
        for (cat, list) in &irrelevant {
            add(format!("irrelevant.{}", cat.name()), list.clone())?;
        }
        for (key, list) in &file.soft {
            add(format!("soft.{key}"), list.clone())?;
        }
        Ok(FactTexts {
            file,
            reasons,
            irrelevant,
            counts,
            env,
            rendered: Mutex::default(),
        })
    }

    /// The phrasing that ships with cici.
    pub fn builtin() -> &'static FactTexts {
        static TEXTS: OnceLock<FactTexts> = OnceLock::new();
        TEXTS.get_or_init(|| {
            FactTexts::from_yaml(BUILTIN).expect("the built-in facts.yaml is valid")
        })
    }

    /// Whether the predicate has sanitized phrasings: a personal fact
    /// whose raw form tells a reason has, one whose raw form tells none
    /// (`attends`) needs none.
    pub fn has_sanitized(&self, spec: &PredicateSpec) -> bool {
        self.counts
            .contains_key(&format!("{}.sanitized", spec.phrasing))
    }

    /// The renderings kept; a panic elsewhere leaves them whole, as each
    /// entry is inserted complete.
    fn memo(&self) -> std::sync::MutexGuard<'_, Rendered> {
        self.rendered
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Renders phrasing `i` of `name` (`<predicate>.<form>`); `None` when
    /// there is no such template or it needs a variable it was not given.
    fn render_nth(&self, name: &str, i: usize, ctx: &BTreeMap<&str, String>) -> Option<String> {
        let template = format!("{name}.{i}");
        // The key spells the template and every variable, each part after
        // its length, so that no two contexts share a key.
        let mut key = template.clone();
        for part in ctx.iter().flat_map(|(k, v)| [*k, v.as_str()]) {
            key.push_str(&format!("|{}:", part.len()));
            key.push_str(part);
        }
        if let Some(found) = self.memo().get(&key) {
            return found.clone();
        }
        let t = self.env.get_template(&template).ok();
        let out = t.and_then(|t| t.render(minijinja::value::Serde(ctx)).ok());
        let mut rendered = self.memo();
        if rendered.len() >= MAX_RENDERED {
            rendered.clear();
        }
        rendered.insert(key, out.clone());
        out
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

/// `Tuesday from 10 to 11` for `tue 10:00-11:00`: the words a sentence uses.
pub fn when_words(slot: &Slot) -> String {
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
pub fn when(slot: &Slot) -> String {
    let t = |m: u16| {
        if m.is_multiple_of(60) {
            format!("{}", m / 60)
        } else {
            format!("{}:{:02}", m / 60, m % 60)
        }
    };
    format!("{} {}-{}", slot.day.name(), t(slot.start), t(slot.end))
}

/// The template key and variables of a fact: each argument in words,
/// under the variable its parameter names in the table.
/// Beside them, the words that agree with them: `at_when` ("on Tuesday
/// from 10 to 11"), `hours_n` ("1 hour"),
/// an evidence variable's written name and its first `state`.
fn fact_context(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
) -> (&'static str, BTreeMap<&'static str, String>) {
    let spec = p.spec();
    let args = p.args();
    let mut ctx: BTreeMap<&'static str, String> = spec
        .params
        .iter()
        .zip(&args)
        .map(|(param, a)| (param.var, arg_words(sc, a, &args)))
        .collect();
    if let Some(when) = ctx.get("when") {
        let at_when = format!("on {when}");
        ctx.insert("at_when", at_when);
    }
    if let Some(h) = ctx.get("hours") {
        let n = words::hours(h);
        ctx.insert("hours_n", n);
    }
    if let Some(states) = state_phrases(texts, sc, p) {
        let (name, first) = states;
        ctx.insert("variable", name);
        ctx.insert("state", first[0].clone());
    }
    (spec.phrasing, ctx)
}

/// For an evidence fact, its variable's written name and every phrasing
/// of its state.
fn state_phrases(texts: &FactTexts, sc: &Scenario, p: &Predicate) -> Option<(String, Vec<String>)> {
    let Predicate::Rule(RulePredicate::Evidence { variable, value }) = p else {
        return None;
    };
    let e = sc.rule_setting()?.evidence.get(*variable)?;
    let state = e.values.get(*value)?;
    Some((
        words::variable_name(&texts.file.evidence, &e.id),
        words::state_phrases(&texts.file.states, &e.id, state),
    ))
}

/// An argument as a sentence says it: a first name, a room's or meeting's
/// name, a ticket's title, `Tuesday from 10 to 11`, a number, words for an
/// id.
pub(crate) fn arg_words(sc: &Scenario, a: &ArgValue, all: &[ArgValue]) -> String {
    let ms = sc.meeting_setting();
    let ss = sc.rule_setting();
    match a {
        // First names, as the people of a team refer to each other.
        ArgValue::Person(i) => crate::words::first_word(&sc.people[*i].name).to_string(),
        ArgValue::Room(i) => ms.map_or(String::new(), |m| {
            let r = &m.rooms[*i];
            r.name.clone().unwrap_or_else(|| r.id.clone())
        }),
        ArgValue::Meeting(i) => ms.map_or(String::new(), |m| m.meetings[*i].title.clone()),
        ArgValue::Feature(f) => crate::words::id_words(f),
        ArgValue::Slot(slot) => when_words(slot),
        ArgValue::Ticket(i) => sc
            .jira_setting()
            .map_or(String::new(), |j| j.tickets[*i].title.clone()),
        ArgValue::Integer(n) => n.to_string(),
        ArgValue::Variable(v) => ss.map_or(String::new(), |s| {
            crate::words::id_words(&s.evidence[*v].id)
        }),
        ArgValue::Value(x) => {
            let variable = ArgValue::variable_in(all);
            ss.zip(variable).map_or(String::new(), |(s, v)| {
                crate::words::id_words(&s.evidence[v].values[*x])
            })
        }
        ArgValue::Level(l) => {
            ss.map_or(String::new(), |s| crate::words::id_words(&s.levels[*l].id))
        }
    }
}

/// Every phrasing of a fact in one form that tells no personal reason: the
/// sanitized form of a personal fact, or the raw form of an operational
/// one. Empty for the raw form of a personal fact, whose reason a
/// paraphrase cannot know.
pub fn paraphrases(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    form: crate::sema::FormKind,
) -> Vec<String> {
    let personal = p.subject().is_some();
    let which = match (form, personal) {
        (crate::sema::FormKind::Sanitized, true) => "sanitized",
        (crate::sema::FormKind::Raw, false) => "raw",
        _ => return Vec::new(),
    };
    if matches!(p, Predicate::Rule(RulePredicate::Toward { .. })) {
        return Vec::new();
    }
    let (key, ctx) = fact_context(texts, sc, p);
    texts.render_all(&format!("{key}.{which}"), &ctx)
}

/// The first sanitized phrasing of a personal fact: the one a fix-it
/// proposes, the same on every run.
pub fn canonical_sanitized(texts: &FactTexts, sc: &Scenario, p: &Predicate) -> Option<String> {
    if p.subject().is_none() || matches!(p, Predicate::Rule(RulePredicate::Toward { .. })) {
        return None;
    }
    let (key, ctx) = fact_context(texts, sc, p);
    texts.render_nth(&format!("{key}.sanitized"), 0, &ctx)
}

/// A fact in plain words, as a team member would state it without any
/// personal reason: the first sanitized phrasing where the fact has one,
/// else the first raw phrasing. `None` for a soft-only fact.
pub fn statement(texts: &FactTexts, sc: &Scenario, p: &Predicate) -> Option<String> {
    if matches!(p, Predicate::Rule(RulePredicate::Toward { .. })) {
        return None;
    }
    let (key, ctx) = fact_context(texts, sc, p);
    texts
        .render_nth(&format!("{key}.sanitized"), 0, &ctx)
        .or_else(|| texts.render_nth(&format!("{key}.raw"), 0, &ctx))
}

mod draw;

pub use draw::{
    claim, evidence_name, hard, hard_in, irrelevant, named_evidence, operational, personal_finding,
    side_finding, soft, stated_state, Texts,
};

#[cfg(test)]
mod grammar_tests;
#[cfg(test)]
mod tests;
