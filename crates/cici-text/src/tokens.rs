//! The words of a text as the mention reader takes them: runs of letters,
//! runs of digits and each other mark on its own, with where each stands,
//! so that a name, a number or a key is found in prose whatever its case
//! or punctuation (`Eli's`, `MOB-202`, `9.30`).

use crate::memo::{cached, Memo};
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

/// A word of the text: its lower-cased letters or its number, where it
/// stands, and whether it follows the one before with no space.
#[derive(Clone, Debug)]
pub struct Token {
    pub lower: String,
    pub number: Option<u32>,
    pub at: Range<usize>,
    pub glued: bool,
    pub capital: bool,
}

/// The words of a text: runs of letters, runs of digits, and each other
/// non-space character on its own (`Eli's` is `eli`, `'`, `s`). A
/// character of a script written without spaces between words (Chinese,
/// Japanese, Thai, ...) is a word on its own, so that a name in it is read
/// within the words around it.
///
/// The words of a text are cut once per thread and shared (see `memo`):
/// the checks read the same texts again and again.
pub fn tokens(text: &str) -> Rc<[Token]> {
    thread_local! {
        static TOKENS: Memo<Rc<[Token]>> = RefCell::default();
    }
    cached(&TOKENS, text, |t| cut(t).into())
}

/// [`tokens`], cut afresh.
fn cut(text: &str) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut iter = text.char_indices().peekable();
    let mut last_end = usize::MAX;
    while let Some((i, c)) = iter.next() {
        if c.is_whitespace() {
            continue;
        }
        let class = |c: char| {
            if c.is_ascii_digit() {
                1
            } else if unspaced(c) {
                3
            } else if c.is_alphabetic() {
                2
            } else {
                0
            }
        };
        let k = class(c);
        let mut end = i + c.len_utf8();
        if k == 1 || k == 2 {
            while let Some(&(j, d)) = iter.peek() {
                if class(d) != k {
                    break;
                }
                end = j + d.len_utf8();
                iter.next();
            }
        }
        let word = &text[i..end];
        // Keys are spelled `MOB-202` in prose and `mob_202` in seeds.
        let lower = if word == "_" {
            "-".to_string()
        } else {
            lowercase(word)
        };
        out.push(Token {
            lower,
            number: (k == 1).then(|| word.parse().ok()).flatten(),
            at: i..end,
            glued: last_end == i,
            capital: c.is_uppercase(),
        });
        last_end = end;
    }
    out
}

/// `word` lower-cased: `to_lowercase`, without its Unicode tables when
/// the word is ASCII (as nearly every word of a seed is), where the two
/// agree.
pub(crate) fn lowercase(word: &str) -> String {
    if word.is_ascii() {
        word.to_ascii_lowercase()
    } else {
        word.to_lowercase()
    }
}

/// A character of a script written without spaces between its words: CJK
/// ideographs, kana, Thai, Lao, Khmer, Myanmar.
fn unspaced(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}' | '\u{1000}'..='\u{109F}' | '\u{1780}'..='\u{17FF}'
        | '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{3134F}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowers(text: &str) -> Vec<String> {
        tokens(text).iter().map(|t| t.lower.clone()).collect()
    }

    #[test]
    fn letters_digits_and_marks_are_tokens_of_their_own() {
        assert_eq!(lowers("Eli's 9.30"), ["eli", "'", "s", "9", ".", "30"]);
        assert_eq!(
            lowers("MOB-202 mob_202"),
            ["mob", "-", "202", "mob", "-", "202"]
        );
        let t = tokens("Zoë met 李明");
        assert_eq!(
            t.iter().map(|t| t.lower.as_str()).collect::<Vec<_>>(),
            ["zoë", "met", "李", "明"]
        );
        assert!(t[0].capital && !t[1].capital);
        assert!(!t[2].glued && t[3].glued);
        assert_eq!(&"Zoë met 李明"[t[0].at.clone()], "Zoë");
    }

    #[test]
    fn numbers_are_read() {
        let t = tokens("4 hours, 12345678901 none");
        assert_eq!(t[0].number, Some(4));
        assert_eq!(t[1].number, None);
        assert_eq!(t[3].number, None, "too large for a number");
    }

    proptest::proptest! {
        /// The ASCII shortcut lower-cases as the standard library does.
        #[test]
        fn lowercase_is_to_lowercase(word in "[A-Za-z0-9_'İΣẞÀ-ÿ-]{0,12}") {
            proptest::prop_assert_eq!(lowercase(&word), word.to_lowercase());
        }

        /// A text's tokens from the memo, asked once or again (and after
        /// other texts), are the tokens cut afresh.
        #[test]
        fn the_memo_answers_as_the_cut(
            texts in proptest::collection::vec("[A-Za-z0-9 _'.,İΣ李明\u{200b}-]{0,24}", 1..6),
        ) {
            for text in texts.iter().chain(&texts) {
                let fresh = format!("{:?}", cut(text));
                proptest::prop_assert_eq!(format!("{:?}", &*tokens(text)), fresh);
            }
        }
    }
}
