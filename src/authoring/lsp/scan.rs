//! A tolerant scanner for editors: the names a scenario declares, read from
//! its text whether or not it parses.
//!
//! While a line is being typed the file does not parse, and the parser's
//! tree loses the whole scenario. The scanner reads tokens instead (strings
//! and comments skipped) and picks up declarations by their keyword, so
//! completion, hover and definition keep working on broken text.

use crate::sema::Family;

/// What a declared name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Person,
    Room,
    Meeting,
    Ticket,
    Attribute,
    Level,
    Variable,
}

/// A declared name and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    pub kind: Kind,
    pub name: String,
    /// Byte offset of the name in the whole text.
    pub start: usize,
}

/// What the scanner found in one scenario block.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// The byte range of the block: from its `scenario` keyword to the next.
    pub start: usize,
    pub end: usize,
    pub id: Option<String>,
    pub family: Option<Family>,
    pub decls: Vec<Decl>,
    /// Per meeting: its slots and rooms, as written.
    pub meetings: Vec<(String, Vec<String>, Vec<String>)>,
    /// Per evidence variable: its values.
    pub evidence: Vec<(String, Vec<String>)>,
    /// Room features.
    pub features: Vec<String>,
}

impl Scan {
    /// The names of one kind, in order, each once.
    pub fn names(&self, kind: Kind) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for d in self.decls.iter().filter(|d| d.kind == kind) {
            if !out.contains(&d.name.as_str()) {
                out.push(&d.name);
            }
        }
        out
    }

    /// Every slot any meeting lists (or the meeting's own, when named).
    pub fn slots(&self, meeting: Option<&str>) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for (m, slots, _) in &self.meetings {
            if meeting.is_some_and(|x| x != m) {
                continue;
            }
            for s in slots {
                if !out.contains(&s.as_str()) {
                    out.push(s);
                }
            }
        }
        out
    }
}

/// A token of the text: a word, number, time or punctuation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub start: usize,
}

/// Words, numbers and times, and single punctuation (`->` as one), with
/// strings and comments left out.
pub fn tokens(text: &str) -> Vec<Token<'_>> {
    use crate::syntax::lex::{lex, Kind};
    lex(text)
        .filter(|l| matches!(l.kind, Kind::Word | Kind::Punct))
        .map(|l| Token {
            text: &text[l.start..l.end],
            start: l.start,
        })
        .collect()
}

pub fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The items of a `[...]` list starting at token `i` (the `[`), as written
/// between commas, and the index after the list.
fn list(text: &str, toks: &[Token], i: usize) -> (Vec<String>, usize) {
    let mut items = Vec::new();
    let mut j = i + 1;
    let mut item_start: Option<usize> = None;
    let mut item_end = 0;
    while j < toks.len() && !matches!(toks[j].text, "]" | "}" | "{") {
        if toks[j].text == "," {
            if let Some(s) = item_start.take() {
                items.push(text[s..item_end].trim().to_string());
            }
        } else {
            item_start.get_or_insert(toks[j].start);
            item_end = toks[j].start + toks[j].text.len();
        }
        j += 1;
    }
    if let Some(s) = item_start {
        items.push(text[s..item_end].trim().to_string());
    }
    (items, j + 1)
}

/// The byte offsets where scenario blocks start.
pub fn scenario_starts(text: &str) -> Vec<usize> {
    let toks = tokens(text);
    toks.iter()
        .enumerate()
        .filter(|(k, t)| t.text == "scenario" && toks.get(k + 1).is_some_and(|n| is_ident(n.text)))
        .map(|(_, t)| t.start)
        .collect()
}

/// The scenario block around `offset`: from its `scenario` keyword to the
/// next one.
pub fn scan(text: &str, offset: usize) -> Scan {
    let toks = tokens(text);
    let (first, last, start) = block(text, &toks, offset);
    let span_of = |k: usize| toks.get(k).map_or(text.len(), |t| t.start);
    let mut out = Scan {
        start,
        end: span_of(last),
        ..Scan::default()
    };
    let toks = &toks[first..last];
    let mut meeting: Option<usize> = None;
    let mut i = 0;
    while i < toks.len() {
        i = scan_token(text, toks, i, &mut out, &mut meeting);
    }
    out
}

/// The tokens of the scenario block around `offset` (`first..last`), and
/// where the block starts in the text.
fn block(text: &str, toks: &[Token], offset: usize) -> (usize, usize, usize) {
    let starts: Vec<usize> = toks
        .iter()
        .enumerate()
        .filter(|(k, t)| t.text == "scenario" && toks.get(k + 1).is_some_and(|n| is_ident(n.text)))
        .map(|(k, _)| k)
        .collect();
    let first = starts
        .iter()
        .rev()
        .find(|&&k| toks[k].start <= offset)
        .or(starts.first())
        .copied()
        .unwrap_or(0);
    let last = starts
        .iter()
        .find(|&&k| k > first)
        .copied()
        .unwrap_or(toks.len());
    let start = if starts.is_empty() {
        0
    } else {
        toks.get(first).map_or(text.len(), |t| t.start)
    };
    (first, last, start)
}

/// Reads the declaration or list at token `i` into `out`; the index of the
/// next token to read. `meeting` is the meeting whose block is open.
fn scan_token(
    text: &str,
    toks: &[Token],
    i: usize,
    out: &mut Scan,
    meeting: &mut Option<usize>,
) -> usize {
    let next = toks.get(i + 1);
    let named = next.filter(|n| is_ident(n.text));
    let decl = |kind| {
        named.map(|n| Decl {
            kind,
            name: n.text.to_string(),
            start: n.start,
        })
    };
    match toks[i].text {
        "scenario" if out.id.is_none() => out.id = named.map(|n| n.text.to_string()),
        "family" => out.family = named.and_then(|n| Family::from_name(n.text)),
        "person" => out.decls.extend(decl(Kind::Person)),
        "room" => out.decls.extend(decl(Kind::Room)),
        "ticket" => out.decls.extend(decl(Kind::Ticket)),
        "attribute" => out.decls.extend(decl(Kind::Attribute)),
        "meeting" => {
            if let Some(d) = decl(Kind::Meeting) {
                out.meetings.push((d.name.clone(), Vec::new(), Vec::new()));
                *meeting = Some(out.meetings.len() - 1);
                out.decls.push(d);
            }
        }
        "levels" | "outcomes" if next.is_some_and(|n| n.text == "[") => {
            let (items, j) = list(text, toks, i + 1);
            for name in items {
                if is_ident(&name) {
                    let start = toks[i + 1..j.min(toks.len())]
                        .iter()
                        .find(|t| t.text == name)
                        .map_or(toks[i].start, |t| t.start);
                    out.decls.push(Decl {
                        kind: Kind::Level,
                        name,
                        start,
                    });
                }
            }
            return j;
        }
        "evidence" if named.is_some() && toks.get(i + 2).is_some_and(|t| t.text == "[") => {
            let d = decl(Kind::Variable).expect("named");
            let (values, j) = list(text, toks, i + 2);
            out.evidence.push((d.name.clone(), values));
            out.decls.push(d);
            return j;
        }
        "features" if next.is_some_and(|n| n.text == "[") => {
            let (items, j) = list(text, toks, i + 1);
            for f in items {
                if !out.features.contains(&f) {
                    out.features.push(f);
                }
            }
            return j;
        }
        "slots" | "rooms" if next.is_some_and(|n| n.text == "[") => {
            let (items, j) = list(text, toks, i + 1);
            if let Some(m) = *meeting {
                if toks[i].text == "slots" {
                    out.meetings[m].1 = items;
                } else {
                    out.meetings[m].2 = items;
                }
            }
            return j;
        }
        // A meeting's block ends; later lists are not its own.
        "}" => *meeting = None,
        _ => {}
    }
    i + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_survive_a_line_being_typed() {
        let text = "scenario s {\n  family meeting_allocation\n  person maya \"Maya\" role \"Lead\"\n  person eli \"Eli # not a comment\" role \"x\"\n  room cedar capacity 3 features [video, quiet]\n  meeting m1 \"Sync\" {\n    attendees [eli]\n    slots [mon 09:00-10:00, tue 10:00-11:00]\n    rooms [cedar]\n  }\n  attribute a {\n    holder \n    fact avoid_room(\n";
        let s = scan(text, text.len());
        assert_eq!(s.id.as_deref(), Some("s"));
        assert_eq!(s.family, Some(Family::MeetingAllocation));
        assert_eq!(s.names(Kind::Person), ["maya", "eli"]);
        assert_eq!(s.names(Kind::Room), ["cedar"]);
        assert_eq!(s.names(Kind::Attribute), ["a"]);
        assert_eq!(s.slots(Some("m1")), ["mon 09:00-10:00", "tue 10:00-11:00"]);
        assert_eq!(s.features, ["video", "quiet"]);
    }

    #[test]
    fn the_block_around_the_cursor_is_the_one_scanned() {
        let text = "scenario a {\n person x \"X\" role \"r\"\n}\nscenario b {\n person y \"Y\" role \"r\"\n outcomes [go, stop]\n evidence tests [green, red]\n";
        let s = scan(text, text.len());
        assert_eq!(s.names(Kind::Person), ["y"]);
        assert_eq!(s.names(Kind::Level), ["go", "stop"]);
        assert_eq!(
            s.evidence,
            [(
                "tests".to_string(),
                vec!["green".to_string(), "red".to_string()]
            )]
        );
        assert_eq!(scan(text, 5).names(Kind::Person), ["x"]);
    }
}
