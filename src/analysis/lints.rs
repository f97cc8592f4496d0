//! Text lints: does a sanitized form give its raw reason away?

use std::collections::HashSet;

use crate::sema::{Scenario, Setting};

/// Common English words that carry no private detail.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "cannot",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "either",
    "else",
    "every",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "least",
    "less",
    "like",
    "may",
    "me",
    "might",
    "more",
    "most",
    "must",
    "my",
    "myself",
    "need",
    "neither",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "one",
    "only",
    "or",
    "other",
    "ought",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "per",
    "same",
    "shall",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "very",
    "via",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "within",
    "without",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "s",
    "t",
    "d",
    "ll",
    "re",
    "ve",
    "don",
    "won",
    "isn",
    "aren",
    "can't",
    "also",
    "any",
    "anyone",
    "week",
    "weekly",
    "day",
    "days",
    "time",
    "times",
    "today",
    "tomorrow",
    "this",
    "next",
    "last",
    "am",
    "pm",
    "morning",
    "afternoon",
    "evening",
    "get",
    "go",
    "take",
    "make",
    "keep",
    "work",
    "working",
    "team",
    "still",
    "yet",
    "currently",
    "until",
    "through",
    "well",
    "new",
    "first",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "hour",
    "hours",
    "let",
    "lets",
    "know",
    "available",
    "schedule",
    "scheduled",
];

const DAY_WORDS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
    "weekday",
    "weekend",
];

/// The lower-cased words of a text.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// Words that a sanitized text may share with its raw text.
pub fn shareable_words(sc: &Scenario) -> HashSet<String> {
    let mut ok: HashSet<String> = STOP_WORDS
        .iter()
        .chain(DAY_WORDS)
        .map(|w| w.to_string())
        .collect();
    ok.extend(sc.family.fact_words().iter().map(|w| w.to_string()));
    let mut add = |text: &str| ok.extend(words(text));
    add(&sc.id);
    add(&sc.title);
    add(&sc.task);
    for p in &sc.public {
        add(p);
    }
    if let Some(r) = &sc.recipient {
        add(r);
    }
    for p in &sc.people {
        add(&p.id);
        add(&p.name);
        add(&p.role);
        for s in &p.skills {
            add(s);
        }
    }
    for a in &sc.attributes {
        add(&a.id);
    }
    match &sc.setting {
        Setting::Meeting(ms) => {
            for r in &ms.rooms {
                add(&r.id);
                add(r.name.as_deref().unwrap_or(""));
                for f in &r.features {
                    add(f);
                }
            }
            for m in &ms.meetings {
                add(&m.id);
                add(&m.title);
            }
        }
        Setting::Jira(js) => {
            for t in &js.tickets {
                add(&t.id);
                add(&t.title);
                add(&t.needs);
            }
        }
        Setting::Severity(ss) => {
            for l in &ss.levels {
                add(&l.id);
            }
            for e in &ss.evidence {
                add(&e.id);
                for v in &e.values {
                    add(v);
                }
            }
        }
    }
    ok
}

/// The words of `sanitized` that also occur in `raw` and are not shareable,
/// in order of first appearance.
pub fn leaked_words(raw: &str, sanitized: &str, shareable: &HashSet<String>) -> Vec<String> {
    let raw_words: HashSet<String> = words(raw).collect();
    let mut out: Vec<String> = Vec::new();
    for w in words(sanitized) {
        let numeric = w.chars().any(|c| c.is_ascii_digit());
        if raw_words.contains(&w) && !numeric && !shareable.contains(&w) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// Where the `leaked` words stand in a sanitized text, as labels: found in
/// a plain literal without escapes, whose offsets match its value's; else
/// one label on the whole literal.
pub fn word_spans(
    text: &str,
    literal: crate::span::Span,
    leaked: &[String],
) -> Vec<miette::LabeledSpan> {
    let whole = || {
        vec![miette::LabeledSpan::new_with_span(
            Some("may give away the raw reason".into()),
            literal,
        )]
    };
    if literal.is_derived() || literal.len() != text.len() + 2 {
        return whole();
    }
    let mut out = Vec::new();
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        // The word's offset in `text`: split yields subslices of it.
        let start = w.as_ptr() as usize - text.as_ptr() as usize;
        if !w.is_empty() && leaked.contains(&w.to_lowercase()) {
            out.push(miette::LabeledSpan::new(
                Some(format!("`{w}` is in the raw text")),
                literal.start as usize + 1 + start,
                w.len(),
            ));
        }
    }
    if out.is_empty() {
        return whole();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_words_leak_but_common_ones_do_not() {
        let shareable: HashSet<String> = ["eli", "unavailable"]
            .iter()
            .map(|s| s.to_string())
            .chain(STOP_WORDS.iter().chain(DAY_WORDS).map(|s| s.to_string()))
            .collect();
        assert!(leaked_words(
            "Oncology infusion appointment Tuesday 10-11.",
            "Eli is unavailable Tuesday 10-11.",
            &shareable
        )
        .is_empty());
        assert_eq!(
            leaked_words(
                "Oncology infusion Tuesday 10-11.",
                "Eli has an infusion on Tuesday.",
                &shareable
            ),
            vec!["infusion".to_string()]
        );
    }
}
