//! Which words of a raw text are private: the words of its reason, not of
//! its fact.
//!
//! A raw text is its fact, often with a private reason around it ("Eli is
//! out Tuesday 10-11 for an oncology infusion"; PiSAs's entangled notes
//! fuse a whole operational sentence with a private clause). The sanitized
//! text restates the fact. Where the raw text restates the sanitized one
//! and says more besides, the restating part (a passage, or clauses) is
//! the fact and the rest is the reason: the private words are those the
//! reason alone uses. Where it does not, every raw word that is not
//! shareable is private.

use std::collections::HashSet;

/// The lower-cased words of a text, as every privacy check reads them
/// ([`super::tokens::privacy_words`]).
pub fn words(text: &str) -> impl Iterator<Item = String> {
    super::tokens::privacy_words(text).into_iter()
}

/// Words a text may use without giving a reason away: each word, and
/// each word's stem, so that "doubted" is shareable where "doubts" is.
pub trait Lexicon {
    /// The word itself, lower-cased, is shareable.
    fn has_word(&self, w: &str) -> bool;
    /// Some shareable word has this stem (its Snowball English stem).
    fn has_stem(&self, stem: &str) -> bool;
}

/// A set of shareable words with their stems, kept as they are added.
/// The sets hash with foldhash: the leak lint asks them about every word of
/// every raw text, and SipHash was most of that cost.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    words: HashSet<String, foldhash::fast::RandomState>,
    stems: HashSet<String, foldhash::fast::RandomState>,
}

impl Vocabulary {
    /// Adds a lower-cased word and its stem; the word is copied only when
    /// it is new.
    pub fn insert(&mut self, w: &str) {
        if !self.words.contains(w) {
            self.stems.insert(stem(w));
            self.words.insert(w.to_string());
        }
    }
}

impl Extend<String> for Vocabulary {
    fn extend<I: IntoIterator<Item = String>>(&mut self, words: I) {
        for w in words {
            self.insert(&w);
        }
    }
}

impl FromIterator<String> for Vocabulary {
    fn from_iter<I: IntoIterator<Item = String>>(words: I) -> Self {
        let mut v = Vocabulary::default();
        v.extend(words);
        v
    }
}

impl Lexicon for Vocabulary {
    fn has_word(&self, w: &str) -> bool {
        self.words.contains(w)
    }
    fn has_stem(&self, stem: &str) -> bool {
        self.stems.contains(stem)
    }
}

/// Shareable words in layers: words of its own on top of borrowed ones
/// (an attribute's on its scenario's, a scenario's on its family's), so
/// that no layer is copied for the next.
pub struct Shareable<'a> {
    base: &'a dyn Lexicon,
    own: Vocabulary,
}

impl<'a> Shareable<'a> {
    /// No words of its own yet, on top of `base`.
    pub fn new(base: &'a dyn Lexicon) -> Shareable<'a> {
        Shareable {
            base,
            own: Vocabulary::default(),
        }
    }
}

impl Shareable<'_> {
    /// Adds the words of `text` ([`words`]) that its base lacks, each
    /// copied only when new.
    pub fn add_text(&mut self, text: &str) {
        for w in super::tokens::shared_privacy_words(text).iter() {
            if !self.base.has_word(w) {
                self.own.insert(w);
            }
        }
    }
}

impl Lexicon for Shareable<'_> {
    fn has_word(&self, w: &str) -> bool {
        self.base.has_word(w) || self.own.has_word(w)
    }
    fn has_stem(&self, stem: &str) -> bool {
        self.base.has_stem(stem) || self.own.has_stem(stem)
    }
}

/// A word of the raw text, with the clause it stands in.
struct Token {
    word: String,
    clause: usize,
    /// Whether a connective opens its clause ("although a colleague ...").
    opened: bool,
}

/// Words that open a clause of their own.
const CONNECTIVES: &[&str] = &[
    "although", "though", "because", "while", "but", "whereas", "which", "since", "however",
];

/// The words of `text` ([`super::tokens::privacy_word_spans`]) with
/// their clauses: punctuation between two words that ends a phrase
/// (followed by a space or the end: `04:00` and `3.5` stay whole) and the
/// connectives start a new clause.
fn tokens(text: &str) -> Vec<Token> {
    let (visible, spans) = super::tokens::privacy_word_spans(text);
    let mut out: Vec<Token> = Vec::new();
    let (mut clause, mut opened, mut last) = (0, false, 0);
    for (at, word) in spans {
        let gap = &visible[last..at.start];
        for (i, c) in gap.char_indices() {
            let next = visible[last + i + c.len_utf8()..].chars().next();
            let ends = matches!(c, ',' | ';' | ':' | '.' | '!' | '?')
                && next.is_none_or(char::is_whitespace);
            if ends || matches!(c, '(' | ')' | '—' | '–') {
                clause += 1;
                opened = false;
            }
        }
        last = at.end;
        if CONNECTIVES.contains(&word.as_str()) {
            clause += 1;
            opened = true;
        }
        out.push(Token {
            word,
            clause,
            opened,
        });
    }
    out
}

/// The same word up to its ending: `remaining` and `remains`, `correction`
/// and `correctable` (the Snowball English stem, the one stemmer of the
/// privacy checks: see [`super::tokens::stem`]).
fn stem(w: &str) -> String {
    super::tokens::stem(w)
}

/// A word that may be private: not shareable, not up to its ending, and
/// no number.
fn is_content(shareable: &dyn Lexicon, w: &str) -> bool {
    !shareable.has_word(w)
        && !shareable.has_stem(&stem(w))
        && !w.chars().any(|c| c.is_ascii_digit())
}

/// Whether `sanitized` has a word of `raw` that is content beside
/// `shareable`. The private words of `raw` are content words of it, and a
/// lexicon with more words leaves fewer of them, so where this is false no
/// lexicon over `shareable` finds a word of `sanitized` private: the leak
/// lint need not build an attribute's own words on top.
pub(super) fn could_leak(raw: &str, sanitized: &str, shareable: &dyn Lexicon) -> bool {
    let raw: HashSet<String> = tokens(raw).into_iter().map(|t| t.word).collect();
    super::tokens::shared_privacy_words(sanitized)
        .iter()
        .any(|w| raw.contains(w) && is_content(shareable, w))
}

/// The private words of `raw` beside `sanitized`.
pub(super) fn private_words(
    raw: &str,
    sanitized: &str,
    shareable: &dyn Lexicon,
) -> HashSet<String> {
    let toks = tokens(raw);
    let content = |w: &str| is_content(shareable, w);
    let san: Vec<String> = words(sanitized).collect();
    let mut fact = vec![false; toks.len()];
    if let Some((start, end)) = restated_passage(&toks, &san, &content) {
        fact[start..=end].iter_mut().for_each(|f| *f = true);
    }
    // Clauses that restate it elsewhere (the note says the fact in another
    // order) are the fact too; a clause the passage touches is already
    // split between fact and reason.
    let in_passage: HashSet<usize> = toks
        .iter()
        .zip(&fact)
        .filter(|(_, f)| **f)
        .map(|(t, _)| t.clause)
        .collect();
    for (c, restates) in restating_clauses(&toks, &san, &content) {
        if restates && !in_passage.contains(&c) {
            for (t, f) in toks.iter().zip(fact.iter_mut()) {
                *f |= t.clause == c;
            }
        }
    }
    let rest = toks
        .iter()
        .zip(&fact)
        .filter(|(t, f)| !**f && content(&t.word))
        .count();
    let all: HashSet<String> = toks
        .iter()
        .filter(|t| content(&t.word))
        .map(|t| t.word.clone())
        .collect();
    if !fact.contains(&true) || rest < 3 {
        return all;
    }
    let fact_words: HashSet<&str> = toks
        .iter()
        .zip(&fact)
        .filter(|(_, f)| **f)
        .map(|(t, _)| t.word.as_str())
        .collect();
    all.into_iter()
        .filter(|w| !fact_words.contains(w.as_str()))
        .collect()
}

/// Per clause of the raw text, whether it restates the sanitized text: it
/// has content words, and a third of them (half, in a clause a connective
/// opens), up to their endings, stand in the sanitized text.
fn restating_clauses(
    toks: &[Token],
    san: &[String],
    content: &dyn Fn(&str) -> bool,
) -> Vec<(usize, bool)> {
    let san_stems: HashSet<String> = san.iter().map(|w| stem(w)).collect();
    let last = toks.last().map_or(0, |t| t.clause);
    (0..=last)
        .map(|c| {
            let words: Vec<&str> = toks
                .iter()
                .filter(|t| t.clause == c && content(&t.word))
                .map(|t| t.word.as_str())
                .collect();
            let shared = words
                .iter()
                .filter(|w| san_stems.contains(&stem(w)))
                .count();
            // A clause a connective opens ("although a colleague said")
            // is where notes put their reasons: it needs more to count.
            let opened = toks.iter().any(|t| t.clause == c && t.opened);
            let share = if opened { 2 } else { 3 };
            (c, !words.is_empty() && shared * share >= words.len())
        })
        .collect()
}

/// The passage of the raw words (first and last index) that restates the
/// sanitized text: a run of words that a longest common subsequence with
/// the sanitized content words matches, dense (half the content words it
/// spans are matched; a third within one clause) and carrying most of the
/// sanitized content (60%); the longest such run.
fn restated_passage(
    toks: &[Token],
    san: &[String],
    content: &dyn Fn(&str) -> bool,
) -> Option<(usize, usize)> {
    let s: Vec<&String> = san.iter().filter(|w| content(w)).collect();
    if s.is_empty() || toks.len() > 4_000 || s.len() > 2_000 {
        return None;
    }
    let last = toks.last().map_or(0, |t| t.clause);
    let everywhere: Vec<usize> = (0..toks.len())
        .filter(|&i| content(&toks[i].word))
        .collect();
    let across = densest_run(
        toks,
        &common_subsequence(toks, &everywhere, &s),
        s.len(),
        2,
        content,
    );
    (0..=last)
        .filter_map(|c| {
            let r: Vec<usize> = (0..toks.len())
                .filter(|&i| toks[i].clause == c && content(&toks[i].word))
                .collect();
            let matches = common_subsequence(toks, &r, &s);
            densest_run(toks, &matches, s.len(), 3, content)
        })
        .chain(across)
        .max_by_key(|&(count, start, end)| (count, std::cmp::Reverse(end - start)))
        .map(|(_, start, end)| (start, end))
}

/// The raw indices `r` that a longest common subsequence with `s` matches
/// (words compared up to their endings).
fn common_subsequence(toks: &[Token], r: &[usize], s: &[&String]) -> Vec<usize> {
    let same = |i: usize, j: usize| stem(&toks[r[i]].word) == stem(s[j]);
    // lcs[i][j]: over r[i..] and s[j..].
    let mut lcs = vec![vec![0u16; s.len() + 1]; r.len() + 1];
    for i in (0..r.len()).rev() {
        for j in (0..s.len()).rev() {
            lcs[i][j] = if same(i, j) {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut matches: Vec<usize> = Vec::new();
    while i < r.len() && j < s.len() {
        if same(i, j) && lcs[i][j] == lcs[i + 1][j + 1] + 1 {
            matches.push(r[i]);
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    matches
}

/// The longest run of matched words that is dense (one in `density` of
/// the content words it spans is matched) and carries 60% of the `wanted` sanitized
/// content words: (matched, first index, last index).
fn densest_run(
    toks: &[Token],
    matches: &[usize],
    wanted: usize,
    density: usize,
    content: &dyn Fn(&str) -> bool,
) -> Option<(usize, usize, usize)> {
    let mut best: Option<(usize, usize, usize)> = None;
    for a in 0..matches.len() {
        for b in a..matches.len() {
            let count = b - a + 1;
            let spanned = toks[matches[a]..=matches[b]]
                .iter()
                .filter(|t| content(&t.word))
                .count();
            if count * density < spanned || count * 10 < wanted * 6 {
                continue;
            }
            if best.is_none_or(|(n, _, _)| count > n) {
                best = Some((count, matches[a], matches[b]));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_end_at_phrase_punctuation_and_connectives() {
        let t = tokens("Spiked at 04:00, after 3.5 hours although fine");
        let clauses: Vec<usize> = t.iter().map(|t| t.clause).collect();
        let words: Vec<&str> = t.iter().map(|t| t.word.as_str()).collect();
        assert_eq!(
            words,
            ["spiked", "at", "04", "00", "after", "3", "5", "hours", "although", "fine"]
        );
        assert_eq!(clauses, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
    }

    #[test]
    fn an_entangled_note_keeps_its_fact_words_shareable() {
        let none = Vocabulary::default();
        let private = private_words(
            "I checked the ATC authorization against the planned location, and the operation is \
             authorized for the controlled airspace, although a colleague says Kofi gets anxious \
             about paperwork and asks someone to read the coordinates back.",
            "The operation is in controlled airspace and has the required ATC authorization.",
            &none,
        );
        assert!(!private.contains("atc"), "{private:?}");
        assert!(private.contains("anxious"));
    }
}
