//! What a text names: people, days, times, rooms, meetings, features,
//! tickets, numbers, levels and outcomes, evidence variables and states.
//!
//! The reader is deliberately plain: whole words and phrases of the
//! scenario's own names, the common spellings of days and times, and
//! digits. What it cannot see (a paraphrase, a negation, a number in
//! words above twenty) it leaves unread rather than guessing;
//! `docs/language.md` lists what it reads.

use std::cell::RefCell;
/// The reader's maps, asked on every word of every text read: hashed with
/// foldhash, as SipHash cost more than the lookups.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

use super::tokens::{toks, Tok};
pub use super::tokens::{Mention, Named};
use crate::sema::{Day, Scenario, Setting};

/// A name of the scenario as a text spells it: its words, what it names,
/// and whether it must be capitalised (a person's name of one word that
/// the seed capitalises, which may also be a common word: `Will`, `Mark`).
struct Phrase {
    words: Vec<String>,
    what: Named,
    capital: bool,
}

/// Reads texts in one scenario's terms. Its names are gathered once, longest
/// phrase first, so that `Garden Room` wins over `garden`.
///
/// A text is read in time linear in its words (times the longest name a
/// stretch of it begins), however many names the scenario has: the phrases
/// are a trie of words, walked from each word of the text, and the hits are
/// then taken in the phrases' order, as if each phrase in turn scanned the
/// whole text.
pub struct Reader {
    phrases: Vec<Phrase>,
    trie: Vec<Node>,
    /// The texts read so far: the text checks of one scenario read each
    /// form's text several times (agreement, polarity, the other
    /// attributes' facts), and reading is a pure function of the text.
    read: RefCell<HashMap<String, Vec<Mention>>>,
}

/// A node of the phrase trie: the phrases that end here, by rank (at most
/// one of each kind that could win a place; see [`Node::keep`]).
#[derive(Default)]
struct Node {
    next: HashMap<String, usize>,
    ends: Vec<usize>,
}

impl Node {
    /// Keeps phrase `rank` unless one already here always wins over it.
    /// Phrases of the same words are tried at a place in rank order, and
    /// the first that may stand there (capitals, negation) takes it or finds
    /// it taken: after one that needs no capital and no negation check, no
    /// other can win, and of two of the same kind the first always does.
    fn keep(&mut self, rank: usize, phrases: &[Phrase]) {
        let kind = |p: &Phrase| (p.capital, matches!(p.what, Named::Value(..)));
        let p = &phrases[rank];
        let shadowed = self.ends.iter().any(|&e| {
            let q = &phrases[e];
            kind(q) == kind(p) || kind(q) == (false, false)
        });
        if !shadowed {
            self.ends.push(rank);
        }
    }
}

impl Reader {
    pub fn new(sc: &Scenario) -> Reader {
        let mut phrases: Vec<Phrase> = Vec::new();
        let mut add = |text: &str, what: Named, capital: bool| {
            let words: Vec<String> = toks_of(text);
            if !words.is_empty() {
                phrases.push(Phrase {
                    words,
                    what,
                    capital,
                });
            }
        };
        // First names by lower case: `eli` and `Eli` are one name.
        let mut firsts: HashMap<String, usize> = HashMap::default();
        for p in &sc.people {
            *firsts
                .entry(crate::words::first_word(&p.name).to_lowercase())
                .or_default() += 1;
        }
        for (i, p) in sc.people.iter().enumerate() {
            add(&p.name, Named::Person(i), capital_only(&p.name));
            let f = crate::words::first_word(&p.name);
            // A first name two people share names neither.
            if firsts[&f.to_lowercase()] == 1 {
                add(f, Named::Person(i), capital_only(f));
            }
        }
        setting_names(sc, &mut add);
        phrases.sort_by_key(|p| std::cmp::Reverse(p.words.len()));
        let mut trie = vec![Node::default()];
        for rank in 0..phrases.len() {
            let mut at = 0;
            for w in &phrases[rank].words {
                at = match trie[at].next.get(w) {
                    Some(&n) => n,
                    None => {
                        trie.push(Node::default());
                        let n = trie.len() - 1;
                        trie[at].next.insert(w.clone(), n);
                        n
                    }
                };
            }
            trie[at].keep(rank, &phrases);
        }
        Reader {
            phrases,
            trie,
            read: RefCell::default(),
        }
    }

    /// Every mention of `text`.
    pub fn read(&self, text: &str) -> Vec<Mention> {
        if let Some(found) = self.read.borrow().get(text) {
            return found.clone();
        }
        let out = self.read_fresh(text);
        self.read.borrow_mut().insert(text.to_string(), out.clone());
        out
    }

    fn read_fresh(&self, text: &str) -> Vec<Mention> {
        let toks = toks(text);
        let mut out = Vec::new();
        let mut taken = vec![false; toks.len()];
        self.names(&toks, &mut taken, &mut out);
        super::clock::times(&toks, &mut taken, &mut out);
        days(&toks, &mut taken, &mut out);
        numbers(&toks, &taken, &mut out);
        out.sort_by_key(|m| m.at.start);
        out
    }

    /// The scenario's names in the text; the words they take are not read
    /// again. A phrase of higher rank is placed everywhere before one of
    /// lower rank, and each from the left.
    fn names(&self, toks: &[Tok], taken: &mut [bool], out: &mut Vec<Mention>) {
        // Every place where a phrase's words stand, by (rank, place).
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for i in 0..toks.len() {
            let mut at = 0;
            for t in &toks[i..] {
                let Some(&n) = self.trie[at].next.get(&t.lower) else {
                    break;
                };
                at = n;
                hits.extend(self.trie[at].ends.iter().map(|&rank| (rank, i)));
            }
        }
        hits.sort_unstable();
        for (rank, i) in hits {
            let Phrase {
                words,
                what,
                capital,
            } = &self.phrases[rank];
            let end = i + words.len();
            let hit = !taken[i..end].iter().any(|&t| t)
                && (!capital || toks[i].capital)
                && !negated(toks, i, what);
            if hit {
                taken[i..end].iter_mut().for_each(|t| *t = true);
                out.push(Mention {
                    what: what.clone(),
                    at: toks[i].at.start..toks[end - 1].at.end,
                });
            }
        }
    }
}

/// Whether a person's name is read only capitalised: a name of one word
/// that the seed capitalises. A name of two words or more is read in any
/// case, and so is one the seed writes in lower case or in a script
/// without capitals (Chinese, Arabic).
fn capital_only(name: &str) -> bool {
    let mut words = crate::words::whitespace_words(name);
    let one_word = words.next().is_some() && words.next().is_none();
    one_word && name.trim_start().starts_with(char::is_uppercase)
}

/// The names of the public setting: rooms, meetings and features; tickets;
/// levels, outcomes, evidence variables and states.
fn setting_names(sc: &Scenario, add: &mut impl FnMut(&str, Named, bool)) {
    match &sc.setting {
        Setting::Meeting(ms) => {
            for (i, r) in ms.rooms.iter().enumerate() {
                add(r.name.as_deref().unwrap_or(&r.id), Named::Room(i), false);
                add(&r.id.replace('_', " "), Named::Room(i), false);
            }
            for (i, m) in ms.meetings.iter().enumerate() {
                add(&m.title, Named::Meeting(i), false);
            }
            let mut features: Vec<&String> = ms.rooms.iter().flat_map(|r| &r.features).collect();
            features.sort();
            features.dedup();
            for f in features {
                add(&f.replace('_', " "), Named::Feature(f.clone()), false);
            }
        }
        Setting::Jira(js) => {
            // A ticket's topic (`SSO configuration` of `ENG-282 SSO
            // configuration`) names it too, where no other has that topic.
            let topics = crate::phrasing::ticket_topics(js);
            for (i, t) in js.tickets.iter().enumerate() {
                add(&t.title, Named::Ticket(i), false);
                add(&t.id, Named::Ticket(i), false);
                if let Some(topic) = &topics[i] {
                    add(topic, Named::Ticket(i), false);
                }
            }
        }
        Setting::Rule(ss) => {
            // A level, outcome or state of one word (`ready`, `exposed`,
            // `complete`) is as often a plain word of the sentence: only
            // names of two words or more are read.
            let phrase = |id: &str| id.contains('_').then(|| id.replace('_', " "));
            for (i, l) in ss.levels.iter().enumerate() {
                if let Some(p) = phrase(&l.id) {
                    add(&p, Named::Level(i), false);
                }
            }
            for (v, e) in ss.evidence.iter().enumerate() {
                add(&e.id.replace('_', " "), Named::Variable(v), false);
                for (k, value) in e.values.iter().enumerate() {
                    if let Some(p) = phrase(value) {
                        add(&p, Named::Value(v, k), false);
                    }
                }
            }
        }
    }
}

/// A state said in the negative ("isn't stable", "no findings open") is
/// not that state.
fn negated(toks: &[Tok], i: usize, what: &Named) -> bool {
    if !matches!(what, Named::Value(..)) {
        return false;
    }
    toks[i.saturating_sub(4)..i].iter().any(|t| {
        matches!(
            t.lower.as_str(),
            "not" | "no" | "never" | "isn" | "wasn" | "aren" | "t" | "without" | "nor" | "neither"
        )
    })
}

/// The lower-cased words of a name, as [`toks`] splits them (`_` and `-`
/// stand apart, as in the text).
fn toks_of(text: &str) -> Vec<String> {
    toks(text).iter().map(|t| t.lower.clone()).collect()
}

/// Day names, their plurals (`Mondays`) and their abbreviations when
/// capitalised (`Tue`, `Thurs`).
fn days(toks: &[Tok], taken: &mut [bool], out: &mut Vec<Mention>) {
    for (i, t) in toks.iter().enumerate() {
        if taken[i] {
            continue;
        }
        let w = t.lower.trim_end_matches('s');
        // Day names are ASCII: compared without lower-casing a copy.
        let day = Day::ALL.into_iter().find(|d| {
            w.eq_ignore_ascii_case(d.name().trim_end_matches('s'))
                || (t.capital && t.lower != "sun" && t.lower != "sat" && abbreviates(&t.lower, *d))
        });
        if let Some(d) = day {
            taken[i] = true;
            out.push(Mention {
                what: Named::Day(d),
                at: t.at.clone(),
            });
        }
    }
}

fn abbreviates(w: &str, d: Day) -> bool {
    let full = d.name();
    w.len() >= 3 && w.len() < full.len() && full[..w.len()].eq_ignore_ascii_case(w)
}

const NUMBER_WORDS: [&str; 21] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

/// Whether the word at `i` is punctuation that ends a clause or a
/// sentence (`has 2.`, `4, and`), not a decimal point (`2.5`) or a unit.
fn ends_clause(toks: &[Tok], i: usize) -> bool {
    let decimal = toks
        .get(i + 1)
        .is_some_and(|n| n.glued && n.number.is_some());
    matches!(
        toks[i].lower.as_str(),
        "." | "," | ";" | ":" | "!" | "?" | ")" | "]"
    ) && !decimal
}

/// Numbers that are no part of a time or a name: digits, and the words
/// `two` to `twenty` (`one` is too often not a number).
fn numbers(toks: &[Tok], taken: &[bool], out: &mut Vec<Mention>) {
    for (i, t) in toks.iter().enumerate() {
        if taken[i] {
            continue;
        }
        let n = t.number.or_else(|| {
            NUMBER_WORDS
                .iter()
                .position(|w| *w == t.lower)
                .filter(|&n| n >= 2)
                .map(|n| n as u32)
        });
        // A number glued to a letter or a symbol ("80°F", "70%", "v2") is
        // a measure or a name, not a count.
        let glued_after = toks
            .get(i + 1)
            .is_some_and(|n| n.glued && n.number.is_none() && !ends_clause(toks, i + 1));
        let glued_before = t.glued && i > 0 && toks[i - 1].number.is_none();
        if let Some(n) = n {
            if t.number.is_none() || !(glued_after || glued_before) {
                out.push(Mention {
                    what: Named::Number(n),
                    at: t.at.clone(),
                });
            }
        }
    }
}
