//! The words of a text as the readers see them (`Tok`), and what a text
//! names (`Mention`): shared by the mention reader and the clock, which
//! reads the times of day among the same words.

use std::ops::Range;

use crate::sema::Day;

// The privacy checks' words and stems are the tokenizer's (`cici_text`).
pub use crate::words::{privacy_word_spans, privacy_words, stem};

/// A thing a text names, with where it stands (byte offsets in the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    pub what: Named,
    pub at: Range<usize>,
}

/// What a mention names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Named {
    Person(usize),
    Day(Day),
    /// A time of day in minutes, or a range; `twelve` when the hours may be
    /// read on a twelve-hour clock (a bare `at 4`).
    Time {
        start: u16,
        end: Option<u16>,
        twelve: bool,
    },
    /// `morning` (before noon), `afternoon` (noon to six), `evening` (five
    /// on): the minutes it spans.
    PartOfDay(u16, u16),
    Room(usize),
    Meeting(usize),
    Feature(String),
    Ticket(usize),
    Number(u32),
    Level(usize),
    Variable(usize),
    /// A state of an evidence variable (not one said in the negative).
    Value(usize, usize),
}

/// A word of the text: its lower-cased letters or its number, where it
/// stands, and whether it follows the one before with no space.
#[derive(Clone, Debug)]
pub(super) struct Tok {
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
pub(super) fn toks(text: &str) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::new();
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
            word.to_lowercase()
        };
        out.push(Tok {
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

/// A character of a script written without spaces between its words: CJK
/// ideographs, kana, Thai, Lao, Khmer, Myanmar.
fn unspaced(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}' | '\u{1000}'..='\u{109F}' | '\u{1780}'..='\u{17FF}'
        | '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{3134F}')
}
