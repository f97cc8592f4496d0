//! A text's clauses and the words that negate within them: what the
//! polarity and other-fact checks read a text by.
//!
//! A clause ends at `,` `;` `:` `.` `!` `?`, a bracket or a dash, and
//! before a word that joins two statements (`and`, `but`, `while`,
//! `because`, ...), so that "Eli is out Monday 9-10 and free Tuesday" is
//! two claims.

use std::ops::Range;

use super::tokens::{Mention, Tok};

/// Words that open a new clause.
const JOINERS: &[&str] = &[
    "and", "but", "while", "whereas", "although", "though", "because", "since", "so", "however",
    "which", "who", "or", "yet", "whilst", "unless",
];

/// Words that negate what follows them within a few words.
pub(super) const NEGATORS: &[&str] = &[
    "not", "no", "never", "nothing", "nobody", "none", "neither", "nor", "without", "cannot",
    "unable", "hardly", "t",
];

/// The clauses of `toks`, as ranges of token indices.
pub(super) fn clauses(toks: &[Tok]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        let punctuation = matches!(
            t.lower.as_str(),
            "," | ";" | ":" | "." | "!" | "?" | "(" | ")" | "[" | "]" | "—" | "–"
        );
        // A full stop between two digits is a decimal point or a clock.
        let decimal = t.lower == "."
            && i > 0
            && toks[i - 1].number.is_some()
            && toks
                .get(i + 1)
                .is_some_and(|n| n.glued && n.number.is_some());
        if (punctuation && !decimal) || JOINERS.contains(&t.lower.as_str()) {
            if start < i {
                out.push(start..i);
            }
            start = i + 1;
        }
    }
    if start < toks.len() {
        out.push(start..toks.len());
    }
    out
}

/// The mentions that stand within the clause `c` of `toks`.
pub(super) fn within<'m>(
    mentions: &'m [Mention],
    toks: &[Tok],
    c: &Range<usize>,
) -> Vec<&'m Mention> {
    let (Some(first), Some(last)) = (toks.get(c.start), toks.get(c.end - 1)) else {
        return Vec::new();
    };
    let bytes = first.at.start..last.at.end;
    mentions
        .iter()
        .filter(|m| bytes.contains(&m.at.start))
        .collect()
}

/// Whether the word at `i` is negated: a negating word up to three words
/// before it in its clause (`not free`, `isn't available`, `nothing can`),
/// or `not`, `never`, `n't` right after it (`can not`, `can't`).
pub(super) fn negated(toks: &[Tok], c: &Range<usize>, i: usize) -> bool {
    let from = i.saturating_sub(3).max(c.start);
    let before = toks[from..i]
        .iter()
        .any(|t| NEGATORS.contains(&t.lower.as_str()));
    let next = |k: usize| toks.get(i + k).map(|t| t.lower.as_str());
    let after = matches!(next(1), Some("not" | "never" | "hardly"))
        || (matches!(next(1), Some("'" | "’")) && next(2) == Some("t"));
    before || after
}

/// Whether any word of the clause is one of `words`.
pub(super) fn has_any(toks: &[Tok], c: &Range<usize>, words: &[&str]) -> bool {
    toks[c.clone()]
        .iter()
        .any(|t| words.contains(&t.lower.as_str()))
}

#[cfg(test)]
mod tests {
    use super::super::tokens::toks;
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let t = toks(text);
        clauses(&t)
            .into_iter()
            .map(|c| {
                let r = t[c.start].at.start..t[c.end - 1].at.end;
                text[r].to_string()
            })
            .collect()
    }

    #[test]
    fn clauses_end_at_punctuation_and_joining_words() {
        assert_eq!(
            words("Mila has 4 hours available this sprint, and Jonas has 2."),
            ["Mila has 4 hours available this sprint", "Jonas has 2"]
        );
        assert_eq!(
            words("Eli is out Monday 9-10 but free at 9.30 on Tuesday"),
            ["Eli is out Monday 9-10", "free at 9.30 on Tuesday"]
        );
    }

    #[test]
    fn negations_before_and_after_a_word() {
        let t = toks("Sam isn't free; nothing can go there; Sam can't; Sam is free");
        let cs = clauses(&t);
        let at = |w: &str, n: usize| {
            t.iter()
                .enumerate()
                .filter(|(_, x)| x.lower == w)
                .nth(n)
                .unwrap()
                .0
        };
        let clause = |i: usize| cs.iter().find(|c| c.contains(&i)).unwrap().clone();
        let (f0, c0, c1, f1) = (at("free", 0), at("can", 0), at("can", 1), at("free", 1));
        assert!(negated(&t, &clause(f0), f0));
        assert!(negated(&t, &clause(c0), c0));
        assert!(negated(&t, &clause(c1), c1));
        assert!(!negated(&t, &clause(f1), f1));
    }
}
