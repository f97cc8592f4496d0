//! Where text becomes words: the words of a text as the privacy checks see
//! them (with or without where each stands), their stems, the words an
//! identifier is written with, and the first word of a name. Every layer
//! that needs one of these asks here, so that one text is never two
//! lists of words; the `cici_inspect` scorer cuts a write the same way
//! (`python/cici_inspect/tokens.py`, held to this by
//! `python/tests/data/leak_calibration/tokens.json`).

use std::ops::Range;

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
    privacy_word_spans(text)
        .1
        .into_iter()
        .map(|(_, w)| w)
        .collect()
}

/// [`privacy_words`] with where each stands: the text without its
/// invisible characters, and each word's byte range in it.
pub fn privacy_word_spans(text: &str) -> (String, Vec<(Range<usize>, String)>) {
    use unicode_segmentation::UnicodeSegmentation;
    let visible: String = text.chars().filter(|c| !INVISIBLE.contains(c)).collect();
    let mut out = Vec::new();
    for (start, word) in visible.unicode_word_indices() {
        let mut at = start;
        for piece in word.split(|c: char| !c.is_alphanumeric()) {
            if !piece.is_empty() {
                out.push((at..at + piece.len(), piece.to_lowercase()));
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
pub fn stem(word: &str) -> String {
    use std::sync::LazyLock;
    static EN: LazyLock<rust_stemmers::Stemmer> =
        LazyLock::new(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English));
    EN.stem(word).into_owned()
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
    name.split_whitespace().next().unwrap_or(name)
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
}
