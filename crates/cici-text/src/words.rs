//! Where text becomes words: the words of a text as the privacy checks see
//! them (with or without where each stands), their stems, the words an
//! identifier is written with, and the first word of a name. Every layer
//! that needs one of these asks here, so that one text is never two
//! lists of words; the `cici_inspect` scorer cuts a write the same way
//! (`python/cici_inspect/tokens.py`, held to this by
//! `python/tests/data/leak_calibration/tokens.json`).

use crate::memo::{cached, Memo};
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

/// Characters that render as nothing and so may hide inside a word: the
/// zero-width space, joiners, the word joiner, the soft hyphen and the
/// byte-order mark.
pub const INVISIBLE: &[char] = &[
    '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{00ad}', '\u{feff}',
];

/// The words of a text as the privacy checks see them: UAX #29 words,
/// invisible characters removed first, each split again at anything that
/// is not a letter or a digit (`Eli's` is `eli`, `s`), lower-cased. The
/// `cici_inspect` scorer reads writes the same way (after NFKC).
pub fn privacy_words(text: &str) -> Vec<String> {
    spans(text).1.iter().map(|(_, w)| w.clone()).collect()
}

/// [`privacy_words`] shared from the memo rather than copied out: for the
/// checks that only read them.
pub fn shared_privacy_words(text: &str) -> Words {
    Words(spans(text))
}

/// A text's privacy words as the memo keeps them (see
/// [`shared_privacy_words`]).
pub struct Words(Rc<Spans>);

impl Words {
    /// The words, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0 .1.iter().map(|(_, w)| w.as_str())
    }
}

/// [`privacy_words`] with where each stands: the text without its
/// invisible characters, and each word's byte range in it.
pub fn privacy_word_spans(text: &str) -> (String, Vec<(Range<usize>, String)>) {
    let (visible, spans) = &*spans(text);
    (visible.clone(), spans.clone())
}

/// A text without its invisible characters, and its words with where each
/// stands in it.
type Spans = (String, Vec<(Range<usize>, String)>);

/// [`privacy_word_spans`], cut once per thread and shared (see `memo`).
fn spans(text: &str) -> Rc<Spans> {
    thread_local! {
        static SPANS: Memo<Rc<Spans>> = RefCell::default();
    }
    cached(&SPANS, text, |t| Rc::new(cut(t)))
}

/// [`privacy_word_spans`], cut afresh.
fn cut(text: &str) -> Spans {
    use unicode_segmentation::UnicodeSegmentation;
    let visible: String = if text.contains(INVISIBLE) {
        text.chars().filter(|c| !INVISIBLE.contains(c)).collect()
    } else {
        text.to_string()
    };
    let mut out = Vec::new();
    for (start, word) in visible.unicode_word_indices() {
        let mut at = start;
        for piece in word.split(|c: char| !c.is_alphanumeric()) {
            if !piece.is_empty() {
                out.push((at..at + piece.len(), crate::tokens::lowercase(piece)));
            }
            // The piece and the one character that ended it.
            at += piece.len();
            at += word[at - start..].chars().next().map_or(0, char::len_utf8);
        }
    }
    (visible, out)
}

/// A word's Snowball English stem (`infusions` and `infusion` are
/// `infus`): the one stemmer of the privacy checks, the same algorithm
/// the `cici_inspect` scorer applies to a write.
///
/// Each word is stemmed once per thread (see `memo`).
pub fn stem(word: &str) -> String {
    use std::sync::LazyLock;
    static EN: LazyLock<rust_stemmers::Stemmer> =
        LazyLock::new(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English));
    thread_local! {
        static STEMS: Memo<String> = RefCell::default();
    }
    cached(&STEMS, word, |w| EN.stem(w).into_owned())
}

/// The words an identifier is written with, for prose: `needs_review`
/// reads `needs review`. Nothing else changes (case, digits, hyphens).
pub fn id_words(id: &str) -> String {
    id.replace('_', " ")
}

/// A name's first word, as the people of a team call each other (`Eli`
/// of `Eli Park`): the text up to its first whitespace, without the
/// whitespace before it; the whole text when it has no word.
pub fn first_word(name: &str) -> &str {
    leading_word(name).unwrap_or(name)
}

/// A text's first whitespace-separated word, or `None` when it is blank:
/// [`first_word`] for callers that treat a blank name as having no word.
pub fn leading_word(text: &str) -> Option<&str> {
    whitespace_words(text).next()
}

/// The words of a text as whitespace separates them, punctuation kept
/// (`Eli's,` is one word): how a line of prose is counted, joined or
/// shortened word by word.
pub fn whitespace_words(text: &str) -> std::str::SplitWhitespace<'_> {
    text.split_whitespace()
}

/// Whether a character belongs inside a word: a letter or a digit, in any
/// script. Everything else (spaces, punctuation, `_`) ends a word.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// The runs of letters and digits in a text ([`is_word_char`]), each with
/// its byte offset, case kept: the words of a text when every other
/// character cuts, as a lint marks them in a literal.
pub fn alphanumeric_runs(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
        // `split` yields subslices of `text`: the offset is the distance.
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// A word without the punctuation around it (`(Eli's,` is `Eli's`):
/// the text from its first word character to its last.
pub fn trim_to_word(word: &str) -> &str {
    word.trim_matches(|c: char| !is_word_char(c))
}

/// The word characters a text starts with (`Eli` of `Eli's`), empty when
/// it starts with anything else.
pub fn word_prefix(text: &str) -> &str {
    let end = text.find(|c: char| !is_word_char(c)).unwrap_or(text.len());
    &text[..end]
}

/// The words of a text when an apostrophe stays inside a word and every
/// other non-word character cuts (`don't worry` is `don't`, `worry`),
/// case kept: how a free text is cut into the terms that search for it.
pub fn words_with_apostrophes(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_word_char(c) && c != '\'')
        .filter(|w| !w.is_empty())
}

/// Whether a match stands as a whole word between the text `before` it
/// and the text `after` it: no word character touches it on either side.
pub fn stands_alone(before: &str, after: &str) -> bool {
    before.chars().next_back().is_none_or(|c| !is_word_char(c))
        && after.chars().next().is_none_or(|c| !is_word_char(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn privacy_words_are_unicode_words_without_invisible_characters() {
        assert_eq!(
            privacy_words("Eli's in\u{200b}fusion, Zoë — dialysis."),
            ["eli", "s", "infusion", "zoë", "dialysis"]
        );
        assert_eq!(stem("infusions"), stem("infusion"));
        assert_eq!(stem("pregnancy"), "pregnanc");
    }

    #[test]
    fn each_word_stands_where_its_span_says() {
        for text in [
            "Eli's in\u{200b}fusion, Zoë — dialysis.",
            "Spiked at 04:00, after 3.5 hours (a_b) 東京 naïve",
            "",
            "...",
        ] {
            let (visible, spans) = privacy_word_spans(text);
            let words: Vec<String> = spans.iter().map(|(_, w)| w.clone()).collect();
            assert_eq!(words, privacy_words(text), "{text}");
            for (at, w) in spans {
                assert_eq!(visible[at].to_lowercase(), w, "{text}");
            }
        }
    }

    proptest::proptest! {
        /// A text's words and a word's stem from the memos, asked once or
        /// again, are those computed afresh.
        #[test]
        fn the_memos_answer_as_computed(
            texts in proptest::collection::vec("[A-Za-z0-9 _'.,İΣ李明ë\u{200b}-]{0,24}", 1..6),
        ) {
            for text in texts.iter().chain(&texts) {
                proptest::prop_assert_eq!(privacy_word_spans(text), cut(text));
                let words: Vec<String> = cut(text).1.into_iter().map(|(_, w)| w).collect();
                proptest::prop_assert_eq!(&privacy_words(text), &words);
                let kept = shared_privacy_words(text);
                let shared: Vec<&str> = kept.iter().collect();
                proptest::prop_assert_eq!(&shared, &words);
                for w in &words {
                    let fresh = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English)
                        .stem(w)
                        .into_owned();
                    proptest::prop_assert_eq!(stem(w), fresh);
                }
            }
        }
    }

    #[test]
    fn an_identifier_reads_as_its_words() {
        assert_eq!(id_words("needs_review"), "needs review");
        assert_eq!(id_words("send_an_email"), "send an email");
        assert_eq!(id_words("MOB-202"), "MOB-202");
        assert_eq!(id_words(""), "");
    }

    #[test]
    fn a_names_first_word() {
        assert_eq!(first_word("Eli Park"), "Eli");
        assert_eq!(first_word("  Zoë\tMartín"), "Zoë");
        assert_eq!(first_word("Avi"), "Avi");
        assert_eq!(first_word("   "), "   ");
        assert_eq!(first_word(""), "");
    }

    #[test]
    fn a_blank_text_has_no_leading_word() {
        assert_eq!(leading_word("  Zoë\tMartín"), Some("Zoë"));
        assert_eq!(leading_word("   "), None);
        assert_eq!(leading_word(""), None);
    }

    #[test]
    fn whitespace_words_keep_their_punctuation() {
        let words: Vec<&str> = whitespace_words(" Eli's,\tcall  at 4pm.\n").collect();
        assert_eq!(words, ["Eli's,", "call", "at", "4pm."]);
        assert_eq!(whitespace_words(" \t\n").count(), 0);
    }

    #[test]
    fn alphanumeric_runs_stand_at_their_offsets() {
        let text = "Eli's in-fusion, Zoë 4pm (a_b)";
        let runs: Vec<(usize, &str)> = alphanumeric_runs(text).collect();
        assert_eq!(
            runs,
            [
                (0, "Eli"),
                (4, "s"),
                (6, "in"),
                (9, "fusion"),
                (17, "Zoë"),
                (22, "4pm"),
                (27, "a"),
                (29, "b")
            ]
        );
        for (at, w) in runs {
            assert_eq!(&text[at..at + w.len()], w);
        }
        assert_eq!(alphanumeric_runs("... --").count(), 0);
    }

    #[test]
    fn words_lose_or_keep_their_punctuation() {
        assert_eq!(trim_to_word("(Eli's,"), "Eli's");
        assert_eq!(trim_to_word("--"), "");
        assert_eq!(word_prefix("Eli's"), "Eli");
        assert_eq!(word_prefix("Zoë-Ann"), "Zoë");
        assert_eq!(word_prefix(" Eli"), "");
        let words: Vec<&str> = words_with_apostrophes("Don't worry, it's (fine)").collect();
        assert_eq!(words, ["Don't", "worry", "it's", "fine"]);
    }

    #[test]
    fn a_match_stands_alone_between_non_word_characters() {
        assert!(stands_alone("", ""));
        assert!(stands_alone("ask ", ", please"));
        assert!(stands_alone("(", "_x"));
        assert!(!stands_alone("Mr", " Park"));
        assert!(!stands_alone("", "é"));
        assert!(is_word_char('7') && is_word_char('ß') && !is_word_char('_'));
    }
}
