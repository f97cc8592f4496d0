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
//! - a memo holds at most [`MAX_ENTRIES`] keys and is emptied when full,
//!   so a long-lived process (the language server) holds a bounded amount;
//! - memos are per thread (`thread_local!`): no lock, nothing shared.

use std::cell::RefCell;
use std::collections::HashMap;
use std::thread::LocalKey;

/// The most keys one memo holds before it is emptied.
pub(crate) const MAX_ENTRIES: usize = 4096;

/// A memo: answers by their input text. The hasher is a fixed-seed
/// foldhash: the keys are the program's own texts, and a memo's order is
/// never read.
pub(crate) type Memo<V> = RefCell<HashMap<Box<str>, V, foldhash::fast::FixedState>>;

/// The memo's answer for `text`, computed by `f` (and kept) when the memo
/// has none.
pub(crate) fn cached<V: Clone>(
    memo: &'static LocalKey<Memo<V>>,
    text: &str,
    f: impl FnOnce(&str) -> V,
) -> V {
    if let Some(found) = memo.with(|m| m.borrow().get(text).cloned()) {
        return found;
    }
    let out = f(text);
    memo.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MAX_ENTRIES {
            m.clear();
        }
        m.insert(text.into(), out.clone());
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
            assert!(SQUARES.with(|m| m.borrow().len()) <= MAX_ENTRIES);
        }
    }
}
