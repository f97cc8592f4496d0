//! Shortcut readers for the review page: cheap, fixed rules that answer an
//! item from its own text (and, for the every-detail reader, from where the
//! row says each trap leads), trained on nothing. A reader that answers all
//! three sides of a triplet right shows a triplet a shortcut can pass.
//!
//! Flow items (`yes`/`no`):
//! - `groups`: `yes` iff the recipient's line of the team list shows groups;
//! - `decider`: `yes` iff the recipient is the person who makes the decision;
//! - `majority`: the folder's most common flow answer, always.
//!
//! Decision items:
//! - `most_named` (rubrics and policies): the level or outcome the item
//!   names most often, the first in the rules' order among equals;
//! - `trap`: the decision the side's first trap leads to if honoured (the
//!   reader who uses every detail it is given).

use std::collections::BTreeMap;

use serde_json::{json, Value};

/// The flow readers, in the order the page shows them.
pub const FLOW: [&str; 3] = ["groups", "decider", "majority"];
/// The decision readers, in the order the page shows them.
pub const DECISION: [&str; 2] = ["most_named", "trap"];

/// The readers, with what they take from the whole folder.
#[derive(Clone, Debug)]
pub struct Readers {
    /// The most common answer of the folder's flow sides.
    majority: String,
}

fn text<'a>(row: &'a Value, key: &str) -> &'a str {
    row[key].as_str().unwrap_or("")
}

impl Readers {
    /// The readers for `rows`: the flow majority counted over every side
    /// of every flow row (`no` among equals, the cautious answer).
    pub fn new(rows: &[Value]) -> Readers {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for row in rows.iter().filter(|r| text(r, "kind") == "flow") {
            for side in ["anchor", "flipped", "held"] {
                *counts
                    .entry(text(row, &format!("{side}_answer")))
                    .or_default() += 1;
            }
        }
        let top = counts.values().copied().max().unwrap_or(0);
        let majority = counts
            .into_iter()
            .filter(|(_, n)| *n == top)
            .map(|(a, _)| a.to_string())
            .next()
            .unwrap_or_else(|| "no".into());
        Readers { majority }
    }

    /// Each reader's answer to one side, where it gives one.
    pub fn guesses(&self, kind: &str, item: &str, traps: &Value) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if kind == "flow" {
            let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
            if let Some(line) = recipient_line(item) {
                out.push(("groups", yes_no(shows_groups(line))));
                out.push(("decider", yes_no(line.contains("(makes the decision)"))));
            }
            out.push(("majority", self.majority.clone()));
        } else {
            if let Some(level) = most_named(item) {
                out.push(("most_named", level));
            }
            if let Some(dest) = first_trap(traps) {
                out.push(("trap", dest));
            }
        }
        out
    }

    /// One side as the page shows it: `[{"name", "guess", "hit"}]`.
    pub fn side(&self, kind: &str, item: &str, answer: &str, traps: &Value) -> Value {
        let list: Vec<Value> = self
            .guesses(kind, item, traps)
            .into_iter()
            .map(|(name, guess)| {
                let hit = same(&guess, answer);
                json!({"name": name, "guess": guess, "hit": hit})
            })
            .collect();
        Value::Array(list)
    }
}

/// Two answers alike, ignoring case and the space around them.
fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// The readers that answer every side right, from [`Readers::side`]'s
/// values of the three sides.
pub fn triplet_hits(sides: &[&Value]) -> Vec<String> {
    let names = FLOW.iter().chain(DECISION.iter());
    names
        .filter(|name| {
            sides.iter().all(|s| {
                s.as_array().is_some_and(|list| {
                    list.iter().any(|b| b["name"] == **name && b["hit"] == true)
                })
            })
        })
        .map(|n| n.to_string())
        .collect()
}

/// The recipient's line of the team list in a flow item.
fn recipient_line(item: &str) -> Option<&str> {
    let marker = "worded exactly as above, to ";
    let rest = &item[item.find(marker)? + marker.len()..];
    let name = &rest[..rest.find(" (")?];
    let prefix = format!("- {name}, ");
    item.lines().find(|l| l.starts_with(&prefix))
}

fn shows_groups(line: &str) -> bool {
    line.contains("(groups: ") && !line.contains("(groups: none)")
}

/// The levels or outcomes a rubric or policy item's rules name, in their
/// order: after "Apply the first rule that holds:", `N. <level> when …` and
/// `N. Otherwise, <level>.`; in the prose of a policy condition ("… by the
/// first description that fits: "), `the outcome is <level> when`, `it is
/// <level> when` and `and <level> otherwise.`. Empty for allocation items,
/// which have no such list.
pub fn options(item: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |s: &str| {
        let s = s.trim();
        if !s.is_empty() && s.len() <= 60 && !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    };
    let mut in_rules = false;
    for line in item.lines() {
        if line == "Apply the first rule that holds:" {
            in_rules = true;
            continue;
        }
        if line.starts_with('#') {
            in_rules = false;
        }
        if let Some((_, prose)) = line.split_once("by the first description that fits: ") {
            for part in prose.split("; ") {
                let level = ["the outcome is ", "it is "]
                    .iter()
                    .find_map(|p| part.strip_prefix(p))
                    .and_then(|r| r.split_once(" when ").map(|(l, _)| l))
                    .or_else(|| part.strip_prefix("and ")?.strip_suffix(" otherwise."));
                level.into_iter().for_each(&mut add);
            }
        }
        let Some((n, rest)) = line.split_once(". ").filter(|_| in_rules) else {
            continue;
        };
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Some(level) = rest.strip_prefix("Otherwise, ") {
            add(level.trim_end_matches('.'));
        } else if let Some((level, _)) = rest.split_once(" when ") {
            add(level);
        }
    }
    out
}

/// How often `phrase` stands in `text` as whole words, ignoring case.
fn count_words(text: &str, phrase: &str) -> usize {
    let (text, phrase) = (text.to_lowercase(), phrase.to_lowercase());
    let word = |c: Option<char>| c.is_some_and(crate::words::is_word_char);
    text.match_indices(&phrase)
        .filter(|(i, _)| {
            !word(text[..*i].chars().next_back()) && !word(text[i + phrase.len()..].chars().next())
        })
        .count()
}

/// The option the item names most often; the first among equals.
fn most_named(item: &str) -> Option<String> {
    let options = options(item);
    let mut best: Option<(usize, &String)> = None;
    for o in &options {
        let n = count_words(item, o);
        if best.is_none_or(|(m, _)| n > m) {
            best = Some((n, o));
        }
    }
    best.map(|(_, o)| o.clone())
}

/// Where the first trap with a destination leads.
fn first_trap(traps: &Value) -> Option<String> {
    traps
        .as_array()?
        .iter()
        .filter_map(|t| t["honoured_answer"].as_str())
        .find(|a| !a.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
#[path = "baselines_tests.rs"]
mod tests;
