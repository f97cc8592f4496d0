//! The defects of a case that its own files show: items that cannot be
//! labelled, truncated or duplicated prompts, and must-not-share items the
//! task needs. Each is an [`AcbDiagnostic`] at the path of what it is
//! about.
//!
//! AgentCIBench's cases have no answer options, so there is no answer
//! position to be biased; that check has nothing to read here.

use std::collections::BTreeMap;

use super::diagnostic::{AcbDiagnostic, AcbError};
use super::format::{texts, Scenario};

/// Words that cannot end an English sentence: a prompt whose last word
/// before its full stop is one of these was cut off.
const DANGLING: [&str; 15] = [
    "the", "a", "an", "my", "your", "his", "her", "their", "our", "its", "of", "and", "or", "that",
    "this",
];

/// Adverbs that end a sentence only after its verb ("sit still"): right
/// after a subject or a relative pronoun they leave its clause without one
/// ("…the work items that still.", "…the times I'm already.").
const BARE_ADVERBS: [&str; 6] = ["still", "already", "also", "just", "even", "never"];

/// Subjects and relative pronouns a clause's verb follows.
const SUBJECTS: [&str; 16] = [
    "that", "which", "who", "i", "i'm", "i've", "we", "we're", "we've", "you", "you're", "they",
    "they're", "he", "she", "it",
];

/// Modifiers that need their noun: right after a determiner they end a noun
/// phrase before it ("…with the remaining.", "…so she can find an open.").
const MODIFIERS: [&str; 5] = ["remaining", "pending", "open", "outstanding", "upcoming"];

/// Determiners a noun phrase starts with.
const DETERMINERS: [&str; 16] = [
    "the", "a", "an", "any", "some", "each", "every", "these", "those", "my", "your", "his", "her",
    "their", "our", "its",
];

/// Lowercase, straight quotes, one space between words.
pub fn normalize(s: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            // `\u{22}` is the straight double quote.
            '\u{201C}' | '\u{201D}' => '\u{22}',
            '\u{2013}' | '\u{2014}' => '-',
            c => c,
        })
        .flat_map(char::to_lowercase)
        .collect();
    crate::words::whitespace_words(&mapped)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `needle` occurs in `hay` as whole words (both normalized).
pub fn contains_words(hay: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    let word = |c: Option<char>| c.is_some_and(crate::words::is_word_char);
    hay.match_indices(needle).any(|(i, m)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + m.len()..].chars().next();
        let glued_before = word(before) && word(needle.chars().next());
        let glued_after = word(after) && word(needle.chars().next_back());
        !glued_before && !glued_after
    })
}

/// The defects of one case, in the order of its fields.
pub fn case(s: &Scenario) -> Vec<AcbDiagnostic> {
    let mut out = Vec::new();
    if let Some(ending) = truncated(&s.task_prompt) {
        out.push(AcbDiagnostic::new(
            "task_prompt",
            AcbError::TruncatedPrompt { ending },
        ));
    }
    labels(s, &mut out);
    if s.ground_truth.must_share.is_empty() {
        out.push(AcbDiagnostic::new(
            "ground_truth.must_share",
            AcbError::NothingToShare,
        ));
    }
    out
}

/// The last words of a prompt cut off mid-sentence: it has no closing
/// punctuation, or its last word cannot end a sentence there (a function
/// word, an adverb right after a subject, a modifier right after a
/// determiner).
pub fn truncated(prompt: &str) -> Option<String> {
    let trimmed = prompt.trim_end();
    let body = trimmed.trim_end_matches(['.', '?', '!']);
    let mut words = crate::words::whitespace_words(body)
        .rev()
        .map(|w| crate::words::trim_to_word(&normalize(w)).to_string());
    let last = words.next()?;
    let before = words.next().unwrap_or_default();
    let ends_well = trimmed.ends_with(['.', '?', '!', '\u{22}', '\'', ')', '\u{201D}']);
    let dangling = DANGLING.contains(&last.as_str())
        || (BARE_ADVERBS.contains(&last.as_str()) && SUBJECTS.contains(&before.as_str()))
        || (MODIFIERS.contains(&last.as_str()) && DETERMINERS.contains(&before.as_str()));
    (!ends_well || dangling).then(|| {
        let tail: Vec<&str> = crate::words::whitespace_words(trimmed)
            .rev()
            .take(4)
            .collect();
        tail.into_iter().rev().collect::<Vec<_>>().join(" ")
    })
}

fn labels(s: &Scenario, out: &mut Vec<AcbDiagnostic>) {
    let mut all = Vec::new();
    for state in s.initial_states.values() {
        texts(state, &mut all);
    }
    let states: Vec<String> = all.iter().map(|t| normalize(t)).collect();
    let prompt = normalize(&s.task_prompt);
    let share: Vec<String> = s
        .ground_truth
        .must_share
        .iter()
        .map(|i| normalize(i))
        .collect();
    let keep: Vec<String> = s
        .ground_truth
        .must_not_share
        .iter()
        .map(|i| normalize(i))
        .collect();
    let lists = [
        ("must_share", &s.ground_truth.must_share, &share),
        ("must_not_share", &s.ground_truth.must_not_share, &keep),
    ];
    for (list, raw, items) in lists {
        for (i, (item, n)) in raw.iter().zip(items.iter()).enumerate() {
            let path = format!("ground_truth.{list}[{i}]");
            let reason = if n.chars().filter(|c| crate::words::is_word_char(*c)).count() < 2 {
                Some("it is a placeholder, not a phrase of the case".to_string())
            } else if !states.iter().any(|t| contains_words(t, n)) && !contains_words(&prompt, n) {
                Some("it is in neither initial_states nor the task prompt".to_string())
            } else if list == "must_not_share" && share.contains(n) {
                Some("it is in must_share too".to_string())
            } else {
                None
            };
            if let Some(reason) = reason {
                let item = item.clone();
                out.push(AcbDiagnostic::new(
                    path,
                    AcbError::Unlabelled { item, reason },
                ));
                continue;
            }
            if list == "must_not_share" {
                needed(s, i, n, &share, &prompt, out);
            }
        }
    }
}

/// A must-not-share item the task needs: the prompt asks for it by name, or
/// sharing a must-share item discloses it.
fn needed(
    s: &Scenario,
    i: usize,
    item: &str,
    share: &[String],
    prompt: &str,
    out: &mut Vec<AcbDiagnostic>,
) {
    let reason = if contains_words(prompt, item) {
        Some("the task prompt asks for it by name".to_string())
    } else {
        share
            .iter()
            .position(|m| m != item && contains_words(m, item))
            .map(|j| {
                format!(
                    "must-share item `{}` contains it, so sharing what the task needs discloses it",
                    s.ground_truth.must_share[j]
                )
            })
    };
    if let Some(reason) = reason {
        out.push(AcbDiagnostic::new(
            format!("ground_truth.must_not_share[{i}]"),
            AcbError::KeptItemNeeded {
                item: s.ground_truth.must_not_share[i].clone(),
                reason,
            },
        ));
    }
}

/// The seed a case was generated from: `seed_x_001` of
/// `seed_x_001__ambiguity_trap__3a2d0f0e`.
pub fn seed_of(id: &str) -> &str {
    id.split("__").next().unwrap_or(id)
}

/// Cases whose prompt is word for word that of an earlier case of another
/// seed: (index of the case, id of the earlier case).
pub fn duplicated_prompts(cases: &[&Scenario]) -> Vec<(usize, String)> {
    let mut first: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, s) in cases.iter().enumerate() {
        let key = normalize(&s.task_prompt);
        let earlier = first.entry(key).or_default();
        if let Some(other) = earlier
            .iter()
            .find(|o| seed_of(o) != seed_of(&s.scenario_id))
        {
            out.push((i, (*other).to_string()));
        }
        earlier.push(&s.scenario_id);
    }
    out
}
