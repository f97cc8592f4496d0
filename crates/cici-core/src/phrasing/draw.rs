//! Texts drawn at random: a hard fact's raw and sanitized forms with a
//! reason of a category, a claim, a fact with a work reason, an
//! irrelevant detail and a soft distractor.

use std::collections::BTreeMap;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::words::Reason;
use super::{fact_context, state_phrases, FactTexts};
use crate::sema::{Category, Predicate, Scenario};

/// The texts of one generated attribute.
pub struct Texts {
    pub category: Category,
    pub raw: String,
    pub sanitized: Option<String>,
}

/// An irrelevant personal detail about the person with first name `name`,
/// of `category` when given (and the pool has it), else of any category.
pub fn irrelevant(
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

/// The written name of evidence variable `id` (`the load test`).
pub fn evidence_name<'t>(texts: &'t FactTexts, id: &str) -> Option<&'t str> {
    texts.file.evidence.get(id).map(String::as_str)
}

/// The written name of an evidence variable that `text` names, the
/// longest where several match; `None` when it names none.
pub fn named_evidence<'t>(texts: &'t FactTexts, text: &str) -> Option<&'t str> {
    texts
        .file
        .evidence
        .values()
        .filter(|name| text.contains(name.as_str()))
        .max_by_key(|name| name.len())
        .map(String::as_str)
}

/// A finding about `thing` (a written name, such as `the load test`) in
/// `state` (a state id with phrasings, such as `failed`), in the words of
/// the evidence phrasings; `None` when the state has no phrasing.
pub fn side_finding(
    texts: &FactTexts,
    thing: &str,
    state: &str,
    rng: &mut ChaCha8Rng,
) -> Option<String> {
    let states = texts.file.states.get(state).filter(|s| !s.is_empty())?;
    let mut ctx = BTreeMap::new();
    ctx.insert("variable", thing.to_string());
    ctx.insert("state", states[rng.random_range(0..states.len())].clone());
    texts.render("evidence.raw", &ctx, rng)
}

/// The state a finding's text states, by the longest state phrasing it
/// contains (`has failed`, `is still pending`); `None` when it contains
/// none.
pub fn stated_state<'t>(texts: &'t FactTexts, text: &str) -> Option<&'t str> {
    texts
        .file
        .states
        .iter()
        .filter(|(id, _)| !id.contains('.'))
        .flat_map(|(id, phrases)| phrases.iter().map(move |p| (id, p)))
        .filter(|(_, p)| text.contains(p.as_str()))
        .max_by_key(|(_, p)| p.len())
        .map(|(id, _)| id.as_str())
}

/// A reason drawn from `category`'s pool when given and the file has it,
/// else from a category drawn at random.
fn draw_reason<'t>(
    texts: &'t FactTexts,
    category: Option<Category>,
    rng: &mut ChaCha8Rng,
) -> (Category, &'t Reason) {
    let cat = category
        .filter(|c| texts.reasons.contains_key(c))
        .unwrap_or_else(|| {
            let cats: Vec<&Category> = texts.reasons.keys().collect();
            *cats[rng.random_range(0..cats.len())]
        });
    let pool = &texts.reasons[&cat];
    (cat, &pool[rng.random_range(0..pool.len())])
}

/// A state's phrasing drawn at random, in place of the first.
fn draw_state(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    ctx: &mut BTreeMap<&'static str, String>,
    rng: &mut ChaCha8Rng,
) {
    if let Some((_, states)) = state_phrases(texts, sc, p) {
        ctx.insert("state", states[rng.random_range(0..states.len())].clone());
    }
}

/// Texts for a hard fact: a personal reason when the fact is about a
/// person, an operational statement otherwise.
pub fn hard(texts: &FactTexts, sc: &Scenario, p: &Predicate, rng: &mut ChaCha8Rng) -> Texts {
    hard_in(texts, sc, p, None, rng)
}

/// [`hard`], with the reason drawn from `category` where the file has
/// reasons of it: a reworded detail keeps its category, and so its reason
/// agrees with the category the detail is filed under.
pub fn hard_in(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    category: Option<Category>,
    rng: &mut ChaCha8Rng,
) -> Texts {
    let (key, mut ctx) = fact_context(texts, sc, p);
    draw_state(texts, sc, p, &mut ctx, rng);
    let personal = p.subject().is_some();
    if personal {
        super::refs::vary(sc, p, &mut ctx, rng);
    }
    let category = if personal {
        let (cat, reason) = draw_reason(texts, category, rng);
        reason.fill(&mut ctx);
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

/// The raw text of a `claim` told by or about `person`: a personal reason
/// in the words the needed details use (the fact's own raw phrasings for
/// a fact about a person; its `claim` phrasings, which name `person`, for
/// a fact about no one). `None` when the fact has neither.
pub fn claim(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    person: usize,
    rng: &mut ChaCha8Rng,
) -> Option<Texts> {
    if p.subject().is_some() {
        let t = hard(texts, sc, p, rng);
        return (!t.raw.is_empty()).then_some(Texts {
            sanitized: None,
            ..t
        });
    }
    told_by(texts, sc, p, person, None, rng)
}

/// A fact about no one told by `person` with a personal reason of theirs
/// (of `category` where the file has reasons of it), in the fact's
/// `claim` phrasings; no sanitized form.
fn told_by(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    person: usize,
    category: Option<Category>,
    rng: &mut ChaCha8Rng,
) -> Option<Texts> {
    let (key, mut ctx) = fact_context(texts, sc, p);
    draw_state(texts, sc, p, &mut ctx, rng);
    let (cat, reason) = draw_reason(texts, category, rng);
    reason.fill(&mut ctx);
    ctx.insert(
        "name",
        crate::words::first_word(&sc.people[person].name).into(),
    );
    let raw = texts.render(&format!("{key}.claim"), &ctx, rng)?;
    Some(Texts {
        category: cat,
        raw,
        sanitized: None,
    })
}

/// A finding about no one, told by `person` together with a personal
/// reason of theirs (of `category` where given): the raw text in the
/// words a trap's `claim` uses, and a sanitized form that states the
/// finding alone. The reason is private and the finding is not, so the
/// finding is in force through its sanitized form; told in the same words
/// as a trap, only the norms tell the two apart. `None` for a fact about
/// a person or without claim phrasings.
pub fn personal_finding(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    person: usize,
    category: Option<Category>,
    rng: &mut ChaCha8Rng,
) -> Option<Texts> {
    if p.subject().is_some() {
        return None;
    }
    let told = told_by(texts, sc, p, person, category, rng)?;
    let plain = hard(texts, sc, p, rng).raw;
    (!plain.is_empty()).then_some(Texts {
        sanitized: Some(plain),
        ..told
    })
}

/// Texts for a fact about a person that give a work reason anyone may
/// read instead of a personal one: one appropriate form, category
/// `operational`. `None` for facts about no one, or without a sanitized
/// phrasing to build on.
pub fn operational(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    rng: &mut ChaCha8Rng,
) -> Option<Texts> {
    p.subject()?;
    let (key, ctx) = fact_context(texts, sc, p);
    let ops = &texts.file.operational;
    let pool = ops.get(key).or_else(|| ops.get("default"))?;
    let statement = texts.render(&format!("{key}.sanitized"), &ctx, rng)?;
    let reason = &pool[rng.random_range(0..pool.len())];
    Some(Texts {
        category: Category::Operational,
        raw: format!("{} ({reason}).", statement.trim_end().trim_end_matches('.')),
        sanitized: None,
    })
}

/// A soft distractor of `key` (`cannot_own`, `avoid_room`, `toward`,
/// `policy_toward`) with the given variables, drawn at random; `None`
/// when the file has no such phrasing.
pub fn soft(
    texts: &FactTexts,
    key: &str,
    vars: &[(&'static str, String)],
    rng: &mut ChaCha8Rng,
) -> Option<String> {
    let ctx: BTreeMap<&str, String> = vars.iter().cloned().collect();
    texts.render(&format!("soft.{key}"), &ctx, rng)
}
