//! Shortcut baselines, computed on the rows: readers that answer an item
//! without the judgement it asks for. Every side of every row is an item;
//! a family's seeds are split in halves by a hash of their id (as
//! `tests/python/flow_baselines.py` does), each baseline is fitted on one
//! half and scored on the other.
//!
//! - `majority`: the training half's most common answer;
//! - `words`: multinomial naive Bayes over the words of the statement (flows)
//!   or of the whole item (decisions);
//! - `groups` (flows): `yes` iff the recipient's line of the team list shows
//!   groups, or the reverse, whichever the training half prefers.
//!
//! Chance is a uniform guess among the test half's answers (`yes`/`no` for
//! flows).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::analysis::lints::privacy_words;
use crate::counterfactual::Row;

/// One item: a side of a row.
#[derive(Clone, Debug)]
pub struct Item<'a> {
    pub seed: &'a str,
    pub text: &'a str,
    pub answer: &'a str,
}

/// The items of rows, three to a row.
pub fn items<'a>(rows: &[&'a Row]) -> Vec<Item<'a>> {
    rows.iter()
        .flat_map(|r| {
            [
                (&r.anchor_item, &r.anchor_answer),
                (&r.flipped_item, &r.flipped_answer),
                (&r.held_item, &r.held_answer),
            ]
            .map(|(text, answer)| Item {
                seed: &r.scenario,
                text,
                answer,
            })
        })
        .collect()
}

/// A baseline's accuracy on the test half.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Score {
    pub baseline: String,
    pub accuracy: f64,
    pub chance: f64,
    pub train_items: usize,
    pub test_items: usize,
}

/// The items of the first half of the seeds (ordered by the SHA-256 of
/// their id) and of the rest; `None` with fewer than two seeds.
pub fn split<'a>(items: &[Item<'a>]) -> Option<(Vec<Item<'a>>, Vec<Item<'a>>)> {
    let mut seeds: Vec<&str> = items
        .iter()
        .map(|i| i.seed)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if seeds.len() < 2 {
        return None;
    }
    seeds.sort_by_cached_key(|s| hex(&Sha256::digest(s.as_bytes())));
    let train: BTreeSet<&str> = seeds[..seeds.len() / 2].iter().copied().collect();
    let (a, b) = items.iter().cloned().partition(|i| train.contains(i.seed));
    Some((a, b))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every baseline for items of one kind (`decision` or `flow`).
pub fn scores(items: &[Item], kind: &str) -> Option<Vec<Score>> {
    let (train, test) = split(items)?;
    if train.is_empty() || test.is_empty() {
        return None;
    }
    let answers: BTreeSet<&str> = test.iter().map(|i| i.answer).collect();
    let chance = if kind == "flow" {
        0.5
    } else {
        1.0 / answers.len() as f64
    };
    let score = |baseline: &str, predict: &dyn Fn(&Item) -> bool| Score {
        baseline: baseline.to_string(),
        accuracy: test.iter().filter(|i| predict(i)).count() as f64 / test.len() as f64,
        chance,
        train_items: train.len(),
        test_items: test.len(),
    };
    let majority = majority(&train);
    let mut out = vec![score("majority", &|i| i.answer == majority)];
    let text = |i: &Item| -> String {
        if kind == "flow" {
            statement(i.text).unwrap_or_default().to_string()
        } else {
            i.text.to_string()
        }
    };
    let bayes = Bayes::fit(train.iter().map(|i| (text(i), i.answer)));
    out.push(score("words", &|i| bayes.predict(&text(i)) == i.answer));
    if kind == "flow" {
        let right = train
            .iter()
            .filter(|i| shows_groups(i.text) == (i.answer == "yes"))
            .count();
        let direct = right * 2 >= train.len();
        out.push(score("groups", &|i| {
            (shows_groups(i.text) == direct) == (i.answer == "yes")
        }));
    }
    Some(out)
}

/// The most common answer; the first in order among equals.
fn majority<'a>(items: &[Item<'a>]) -> &'a str {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for i in items {
        *counts.entry(i.answer).or_default() += 1;
    }
    let top = counts.values().copied().max().unwrap_or(0);
    counts
        .into_iter()
        .find(|(_, n)| *n == top)
        .map_or("", |(a, _)| a)
}

/// The statement a flow item asks about.
pub fn statement(item: &str) -> Option<&str> {
    let start = item.find("holds this statement:\n\n> ")? + "holds this statement:\n\n> ".len();
    let rest = &item[start..];
    Some(&rest[..rest.find('\n').unwrap_or(rest.len())])
}

/// Whether the recipient's line of the team list shows groups.
pub fn shows_groups(item: &str) -> bool {
    let marker = "worded exactly as above, to ";
    let Some(at) = item.find(marker) else {
        return false;
    };
    let rest = &item[at + marker.len()..];
    let Some(name) = rest.find(" (").map(|e| &rest[..e]) else {
        return false;
    };
    let prefix = format!("- {name}, ");
    item.lines()
        .find(|l| l.starts_with(&prefix))
        .is_some_and(|l| l.contains("(groups: ") && !l.contains("(groups: none)"))
}

/// Multinomial naive Bayes with add-one smoothing, scored sparsely:
/// `prior(c) − n·ln(words(c) + V) + Σ count(w)·ln(count(w, c) + 1)` over
/// the n known words of the text, where the sum runs over the classes each
/// word occurs in.
struct Bayes<'a> {
    classes: Vec<&'a str>,
    prior: Vec<f64>,
    /// `ln(words of the class + vocabulary)`.
    denominator: Vec<f64>,
    /// word → (class, ln(count + 1)) for the classes it occurs in.
    postings: foldhash::HashMap<String, Vec<(usize, f64)>>,
}

impl<'a> Bayes<'a> {
    fn fit(docs: impl Iterator<Item = (String, &'a str)>) -> Self {
        let mut classes: Vec<&str> = Vec::new();
        let mut docs_of: Vec<usize> = Vec::new();
        let mut words_of: Vec<usize> = Vec::new();
        let mut counts: foldhash::HashMap<String, BTreeMap<usize, usize>> = Default::default();
        for (text, answer) in docs {
            let c = match classes.iter().position(|a| *a == answer) {
                Some(c) => c,
                None => {
                    classes.push(answer);
                    docs_of.push(0);
                    words_of.push(0);
                    classes.len() - 1
                }
            };
            docs_of[c] += 1;
            for w in privacy_words(&text) {
                words_of[c] += 1;
                *counts.entry(w).or_default().entry(c).or_default() += 1;
            }
        }
        let total = docs_of.iter().sum::<usize>().max(1) as f64;
        let vocabulary = counts.len() as f64;
        Bayes {
            classes,
            prior: docs_of.iter().map(|&d| (d as f64 / total).ln()).collect(),
            denominator: words_of
                .iter()
                .map(|&w| (w as f64 + vocabulary).ln())
                .collect(),
            postings: counts
                .into_iter()
                .map(|(w, by)| {
                    let p = by.into_iter().map(|(c, n)| (c, ((n + 1) as f64).ln()));
                    (w, p.collect())
                })
                .collect(),
        }
    }

    /// The class with the highest posterior; the earliest among equals.
    fn predict(&self, text: &str) -> &'a str {
        let mut sum = vec![0.0; self.classes.len()];
        let mut known = 0.0;
        for w in privacy_words(text) {
            if let Some(p) = self.postings.get(&w) {
                known += 1.0;
                for &(c, lc) in p {
                    sum[c] += lc;
                }
            }
        }
        let score = |c: usize| self.prior[c] - known * self.denominator[c] + sum[c];
        let mut best = 0;
        for c in 1..self.classes.len() {
            if score(c) > score(best) {
                best = c;
            }
        }
        self.classes.get(best).copied().unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naive_bayes_follows_the_words_of_each_answer() {
        let docs = [
            ("red apple red", "fruit"),
            ("green apple", "fruit"),
            ("red car fast", "vehicle"),
            ("fast truck", "vehicle"),
        ];
        let b = Bayes::fit(docs.iter().map(|(t, a)| (t.to_string(), *a)));
        assert_eq!(b.predict("apple"), "fruit");
        assert_eq!(b.predict("fast red truck"), "vehicle");
        // No known word: the prior decides, the first class among equals.
        assert_eq!(b.predict("zebra"), "fruit");
    }

    #[test]
    fn the_statement_and_the_recipients_groups_are_read_from_the_item() {
        let item = "## Team\n\n- Ana Li, Lead (groups: infra)\n- Bo Ek, Dev (groups: none)\n\n\
                    Ana holds this statement:\n\n> Bo is ill.\n\nMay it go, worded exactly as above, to Ana Li (Lead)?";
        assert_eq!(statement(item), Some("Bo is ill."));
        assert!(shows_groups(item));
        assert!(!shows_groups(&item.replace("to Ana Li", "to Bo Ek")));
    }
}
