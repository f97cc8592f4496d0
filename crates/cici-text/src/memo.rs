//! A bounded memo of the tokenizer's pure functions, one per thread.
//!
//! The checks read the same texts again and again: every variant of a
//! seed that the counterfactual loop compiles shares nearly all of its
//! texts with the seed, and the scenario's names are cut into words once
//! per check. Cutting a text into words (Unicode segmentation,
//! lower-casing, classes) and stemming a word cost far more than hashing
//! the text, so each function keeps what it found, by its input.
//!
//! Invariants:
//! - a memo holds only what its function returns for the key, and the
//!   functions are pure: an answer from the memo is the answer computed;
//! - a memo holds at most [`MAX_ENTRIES`] keys of at most [`MAX_BYTES`]
//!   in all, and is emptied when full; a text longer than [`MAX_KEY`] is
//!   computed and not kept. A long-lived process (the language server)
//!   holds a bounded amount;
//! - memos are per thread (`thread_local!`): no lock, nothing shared.

use std::cell::RefCell;
use std::collections::HashMap;
use std::thread::LocalKey;

/// The most keys one memo holds before it is emptied.
pub(crate) const MAX_ENTRIES: usize = 4096;

/// The most bytes of keys one memo holds before it is emptied.
pub(crate) const MAX_BYTES: usize = 4 << 20;

/// The longest text a memo keeps: a whole document or item is cut once,
/// and its words are a large answer.
pub(crate) const MAX_KEY: usize = 16 << 10;

/// A memo: answers by their input text, and the bytes of its keys. The
/// hasher is a fixed-seed foldhash: the keys are the program's own texts,
/// and a memo's order is never read.
pub(crate) type Memo<V> = RefCell<(Map<V>, usize)>;

type Map<V> = HashMap<Box<str>, V, foldhash::fast::FixedState>;

/// The memo's answer for `text`, computed by `f` (and kept) when the memo
/// has none.
pub(crate) fn cached<V: Clone>(
    memo: &'static LocalKey<Memo<V>>,
    text: &str,
    f: impl FnOnce(&str) -> V,
) -> V {
    if text.len() > MAX_KEY {
        return f(text);
    }
    if let Some(found) = memo.with(|m| m.borrow().0.get(text).cloned()) {
        return found;
    }
    let out = f(text);
    memo.with(|m| {
        let (map, bytes) = &mut *m.borrow_mut();
        if map.len() >= MAX_ENTRIES || *bytes + text.len() > MAX_BYTES {
            map.clear();
            *bytes = 0;
        }
        *bytes += text.len();
        map.insert(text.into(), out.clone());
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static SQUARES: Memo<usize> = RefCell::default();
    }

    #[test]
    fn an_answer_is_computed_once_and_the_memo_stays_bounded() {
        let mut calls = 0;
        for _ in 0..3 {
            let n = cached(&SQUARES, "abc", |t| {
                calls += 1;
                t.len() * t.len()
            });
            assert_eq!(n, 9);
        }
        assert_eq!(calls, 1);
        for i in 0..MAX_ENTRIES * 2 {
            let key = i.to_string();
            assert_eq!(cached(&SQUARES, &key, |t| t.len()), key.len());
            assert!(SQUARES.with(|m| m.borrow().0.len()) <= MAX_ENTRIES);
        }
    }

    #[test]
    fn long_texts_are_answered_and_the_bytes_stay_bounded() {
        let long = "x".repeat(MAX_KEY + 1);
        assert_eq!(cached(&SQUARES, &long, |t| t.len()), MAX_KEY + 1);
        assert!(SQUARES.with(|m| !m.borrow().0.contains_key(long.as_str())));
        for i in 0..(MAX_BYTES / MAX_KEY) * 2 {
            let key = format!("{i}{}", "y".repeat(MAX_KEY - 8));
            assert_eq!(cached(&SQUARES, &key, |t| t.len()), key.len());
            let (n, bytes) = SQUARES.with(|m| (m.borrow().0.len(), m.borrow().1));
            assert!(bytes <= MAX_BYTES && n <= MAX_ENTRIES);
            // The bytes counted are those of the keys held.
            let held: usize = SQUARES.with(|m| m.borrow().0.keys().map(|k| k.len()).sum());
            assert_eq!(bytes, held);
        }
    }
}
