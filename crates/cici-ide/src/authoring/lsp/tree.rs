//! What the editor knows of a document: a view of each scenario of
//! [`crate::syntax::parse`]'s tree, whole or partial. While a line is being
//! typed its statement does not parse, and the parser leaves out that
//! statement only, so completion, hover, definition and the outline read
//! the same tree as `cici check` does.

use crate::sema::Family;
use crate::span::SourceId;
use crate::syntax::ast::{Ident, Item, MeetingItem, PersonAst, ScenarioAst};

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

/// A meeting's slots, as written, and rooms.
#[derive(Clone, Debug, Default)]
pub struct Meeting {
    pub name: String,
    pub slots: Vec<String>,
    pub rooms: Vec<String>,
}

/// One scenario block as the tree has it.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The byte range of the block: from its `scenario` keyword to the next
    /// block's (or the end of the text).
    pub start: usize,
    pub end: usize,
    pub id: Option<String>,
    pub family: Option<Family>,
    pub decls: Vec<Decl>,
    pub meetings: Vec<Meeting>,
    /// Per evidence variable: its values.
    pub evidence: Vec<(String, Vec<String>)>,
    /// Room and meeting features.
    pub features: Vec<String>,
    /// The statements that parse.
    pub items: Vec<Item>,
}

impl View {
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
        for m in &self.meetings {
            if meeting.is_some_and(|x| x != m.name) {
                continue;
            }
            for s in &m.slots {
                if !out.contains(&s.as_str()) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// The person statement declaring `id`.
    pub fn person(&self, id: &str) -> Option<&PersonAst> {
        self.items.iter().find_map(|i| match i {
            Item::Person(p) if p.id.name == id => Some(p),
            _ => None,
        })
    }

    fn declare(&mut self, kind: Kind, id: &Ident) {
        self.decls.push(Decl {
            kind,
            name: id.name.clone(),
            start: id.span.start as usize,
        });
    }

    fn feature(&mut self, list: &[Ident]) {
        for f in list {
            if !self.features.contains(&f.name) {
                self.features.push(f.name.clone());
            }
        }
    }

    fn meeting(&mut self, text: &str, id: &Ident, items: &[MeetingItem]) {
        self.declare(Kind::Meeting, id);
        let mut m = Meeting {
            name: id.name.clone(),
            ..Meeting::default()
        };
        for item in items {
            match item {
                MeetingItem::Slots(_, l) => {
                    m.slots = l.items.iter().map(|s| span_text(text, s.span)).collect();
                }
                MeetingItem::Rooms(_, l) => {
                    m.rooms = l.items.iter().map(|r| r.name.clone()).collect();
                }
                MeetingItem::Features(_, l) => self.feature(&l.items),
                MeetingItem::Attendees(..) => {}
            }
        }
        self.meetings.push(m);
    }

    fn read(&mut self, text: &str, item: &Item) {
        match item {
            Item::Family(f) => self.family = Family::from_name(&f.name),
            Item::Person(p) => self.declare(Kind::Person, &p.id),
            Item::Room(r) => {
                self.declare(Kind::Room, &r.id);
                if let Some(f) = &r.features {
                    self.feature(&f.items);
                }
            }
            Item::Meeting(m) => self.meeting(text, &m.id, &m.items),
            Item::Ticket(t) => self.declare(Kind::Ticket, &t.id),
            Item::Attribute(a) => self.declare(Kind::Attribute, &a.id),
            Item::Levels(l) | Item::Outcomes(l) => {
                for level in &l.items {
                    self.declare(Kind::Level, level);
                }
            }
            Item::Evidence(e) => {
                self.declare(Kind::Variable, &e.variable);
                let values = e.values.items.iter().map(|v| v.name.clone()).collect();
                self.evidence.push((e.variable.name.clone(), values));
            }
            _ => {}
        }
    }
}

fn span_text(text: &str, span: crate::span::Span) -> String {
    text.get(span.start as usize..span.end as usize)
        .unwrap_or_default()
        .to_string()
}

fn view(text: &str, ast: ScenarioAst) -> View {
    let mut v = View {
        start: ast.span.start as usize,
        id: Some(ast.id.name.clone()),
        ..View::default()
    };
    for item in &ast.items {
        v.read(text, item);
    }
    v.items = ast.items;
    v
}

/// The scenarios of `text`, whole and partial, in order.
pub fn views(text: &str) -> Vec<View> {
    let file = crate::syntax::parse(SourceId(0), text).0;
    let mut out: Vec<View> = file
        .scenarios
        .into_iter()
        .chain(file.partial)
        .map(|ast| view(text, ast))
        .collect();
    out.sort_by_key(|v| v.start);
    let ends: Vec<usize> = out.iter().skip(1).map(|v| v.start).collect();
    for (v, end) in out.iter_mut().zip(ends.into_iter().chain([text.len()])) {
        v.end = end;
    }
    out
}

/// The block around `offset`: the last that starts at or before it, else
/// the first.
pub fn at(views: &[View], offset: usize) -> Option<&View> {
    views
        .iter()
        .rev()
        .find(|v| v.start <= offset)
        .or(views.first())
}

/// A token of the text: a word, number, time or punctuation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub start: usize,
}

/// Words, numbers and times, and single punctuation (`->` as one), with
/// strings and comments left out, as [`crate::syntax::lex`] reads them.
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

#[cfg(test)]
#[path = "tree_tests.rs"]
mod tests;
