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
///
///
/// When the raw text restates the sanitized one in a passage of its own and
/// says more around it (PiSAs's entangled sentences fuse the operational
/// fact with a private detail), the words of that passage are the fact
/// itself: only the rest of the raw text can be leaked from. See
/// [`restated_passage`].
pub fn leaked_words(raw: &str, sanitized: &str, shareable: &HashSet<String>) -> Vec<String> {
    let mut raw_list: Vec<String> = words(raw).collect();
    let san_list: Vec<String> = words(sanitized).collect();
    if let Some((start, end)) = restated_passage(&raw_list, &san_list, shareable) {
        raw_list.drain(start..=end);
    }
    let raw_words: HashSet<String> = raw_list.into_iter().collect();
    let mut out: Vec<String> = Vec::new();
    for w in words(sanitized) {
        let numeric = w.chars().any(|c| c.is_ascii_digit());
        if raw_words.contains(&w) && !numeric && !shareable.contains(&w) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// The passage of the raw words (first and last index) that restates the
/// sanitized text: the span of a longest common subsequence of their
/// content words (not shareable, not numbers). Only when that subsequence
/// carries most of the sanitized content (60%) and the raw text has at
/// least four content words outside it: a raw text that is no more than
/// its sanitized form plus a word or two keeps the plain rule, so that an
/// extract such as "Eli has an oncology infusion" still leaks.
fn restated_passage(
    raw: &[String],
    sanitized: &[String],
    shareable: &HashSet<String>,
) -> Option<(usize, usize)> {
    let content = |w: &String| !shareable.contains(w) && !w.chars().any(|c| c.is_ascii_digit());
    let r: Vec<usize> = (0..raw.len()).filter(|&i| content(&raw[i])).collect();
    let s: Vec<&String> = sanitized.iter().filter(|w| content(w)).collect();
    if s.is_empty() || r.len() > 2_000 || s.len() > 2_000 {
        return None;
    }
    // lcs[i][j]: over r[i..] and s[j..].
    let mut lcs = vec![vec![0u16; s.len() + 1]; r.len() + 1];
    for i in (0..r.len()).rev() {
        for j in (0..s.len()).rev() {
            lcs[i][j] = if raw[r[i]] == *s[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let matched = usize::from(lcs[0][0]);
    if matched * 10 < s.len() * 6 {
        return None;
    }
    let (mut i, mut j) = (0, 0);
    let mut positions = Vec::with_capacity(matched);
    while i < r.len() && j < s.len() {
        if raw[r[i]] == *s[j] && lcs[i][j] == lcs[i + 1][j + 1] + 1 {
            positions.push(r[i]);
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    let (start, end) = (*positions.first()?, *positions.last()?);
    let outside = r.iter().filter(|&&k| k < start || k > end).count();
    (outside >= 4).then_some((start, end))
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
    fn an_extract_of_the_raw_text_leaks_only_what_the_rest_repeats() {
        let none = HashSet::new();
        assert!(leaked_words(
            "Forecast visibility is 3 statute miles, and Lucia's supervisor doubts her.",
            "Forecast visibility is 3 statute miles.",
            &none
        )
        .is_empty());
        assert_eq!(
            leaked_words(
                "The pilot is current, although a colleague says the pilot's spouse doubts every certificate.",
                "The pilot is current.",
                &none
            ),
            // No stop words in this test: `the` is a word like any other.
            vec!["the".to_string(), "pilot".to_string()]
        );
        // A paraphrase of the fact inside a longer sentence.
        let stop: HashSet<String> = STOP_WORDS.iter().map(|w| w.to_string()).collect();
        assert!(leaked_words(
            "A labmate says the student struggled in a mock session, but I consider the current manuscript academically ready.",
            "The current thesis manuscript is academically ready.",
            &stop
        )
        .is_empty());
        // No more than the sanitized text plus a word: the plain rule.
        assert_eq!(
            leaked_words(
                "Eli has an oncology infusion Tuesday.",
                "Eli has an oncology infusion.",
                &none
            ),
            vec!["eli", "has", "an", "oncology", "infusion"]
        );
    }

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
