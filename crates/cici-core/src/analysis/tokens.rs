//! The words of a text as the readers see them (`Tok`), and what a text
//! names (`Mention`): shared by the mention reader and the clock, which
//! reads the times of day among the same words.

use std::ops::Range;

use crate::sema::Day;

// The privacy checks' words and stems are the tokenizer's (`cici_text`).
pub use crate::words::{privacy_word_spans, privacy_words, shared_privacy_words, stem};

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

/// The words of a text as the mention reader takes them: `cici-text`'s
/// tokens, under the names this module reads them by.
pub(super) use cici_text::tokens::{tokens as toks, Token as Tok};
