//! Completion from the text around the cursor: the statement being typed
//! is read from the tokens of its line ([`crate::syntax::lex`]), the names
//! from the parser's tree of the scenario ([`super::tree`]), which keeps
//! every statement but the one being typed. So completion works while the
//! line does not parse yet, and knows what `cici check` knows.

use lsp_types::{CompletionItem, CompletionItemKind, Documentation, InsertTextFormat};

use super::tree::{at, tokens, Kind, Token, View};
use super::Document;
use crate::sema::{ArgKind, Family};
use crate::syntax::{statement_keywords, Block};

/// The keywords of the innermost block open at the end of `text` (from the
/// scenario's start): a statement of that block may start here.
fn block_keywords(text: &str) -> &'static [&'static str] {
    let mut open: Vec<&str> = Vec::new();
    for t in tokens(text) {
        match t.text {
            "{" => {
                let line = crate::syntax::lex::line_start(text, t.start);
                open.push(text[line..t.start].split_whitespace().next().unwrap_or(""));
            }
            "}" => {
                open.pop();
            }
            _ => {}
        }
    }
    match open.last().copied() {
        None => &["scenario"],
        Some(k) => Block::opened_by(k).map_or(&[], statement_keywords),
    }
}

pub(super) fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Person => "person",
        Kind::Room => "room",
        Kind::Meeting => "meeting",
        Kind::Ticket => "ticket",
        Kind::Attribute => "attribute",
        Kind::Level => "level or outcome",
        Kind::Variable => "evidence variable",
    }
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: (!detail.is_empty()).then(|| detail.to_string()),
        ..CompletionItem::default()
    }
}

fn names(s: &View, kinds: &[Kind]) -> Vec<CompletionItem> {
    kinds
        .iter()
        .flat_map(|&k| {
            s.names(k).into_iter().map(move |n| {
                let kind = match k {
                    Kind::Person => CompletionItemKind::VARIABLE,
                    Kind::Attribute => CompletionItemKind::STRUCT,
                    _ => CompletionItemKind::CONSTANT,
                };
                item(n, kind, kind_name(k))
            })
        })
        .collect()
}

fn values(list: &[&str], detail: &str) -> Vec<CompletionItem> {
    list.iter()
        .map(|v| item(v, CompletionItemKind::ENUM_MEMBER, detail))
        .collect()
}

/// The predicates of the scenario's family (of every family, each name
/// once, when the family is not known yet), with signature and snippet.
fn predicates(family: Option<Family>) -> Vec<CompletionItem> {
    let families: Vec<Family> = family.map_or(Family::ALL.to_vec(), |f| vec![f]);
    let mut out: Vec<CompletionItem> = Vec::new();
    for f in families {
        for spec in f.predicates() {
            let name = spec.name;
            if out.iter().any(|i| i.label == name) {
                continue;
            }
            let arg_names: Vec<&str> = spec.params.iter().map(|p| p.name).collect();
            let snippet: Vec<String> = arg_names
                .iter()
                .enumerate()
                .map(|(i, a)| format!("${{{}:{a}}}", i + 1))
                .collect();
            out.push(CompletionItem {
                label: name.to_string(),
                kind: Some(CompletionItemKind::FUNCTION),
                detail: Some(format!("{name}({})", arg_names.join(", "))),
                documentation: Some(Documentation::String(format!(
                    "{}: {}",
                    f.name(),
                    spec.meaning
                ))),
                insert_text: Some(format!("{name}({})", snippet.join(", "))),
                insert_text_format: Some(InsertTextFormat::SNIPPET),
                ..CompletionItem::default()
            });
        }
    }
    out
}

/// The argument kind at `index` of the predicate `name`.
fn arg_kind(family: Option<Family>, name: &str, index: usize) -> Option<ArgKind> {
    let families: Vec<Family> = family.map_or(Family::ALL.to_vec(), |f| vec![f]);
    families.iter().find_map(|f| {
        f.predicates()
            .find(|s| s.name == name)
            .and_then(|s| s.params.get(index).map(|p| p.kind))
    })
}

/// The names argument `index` of `predicate` takes; `first` is the first
/// argument, whose values an evidence value argument takes.
fn argument(s: &View, predicate: &str, index: usize, first: &str) -> Vec<CompletionItem> {
    match arg_kind(s.family, predicate, index) {
        Some(ArgKind::Person) => names(s, &[Kind::Person]),
        Some(ArgKind::Room) => names(s, &[Kind::Room]),
        Some(ArgKind::Meeting) => names(s, &[Kind::Meeting]),
        Some(ArgKind::Ticket) => names(s, &[Kind::Ticket]),
        Some(ArgKind::Level) => names(s, &[Kind::Level]),
        Some(ArgKind::Variable) => names(s, &[Kind::Variable]),
        Some(ArgKind::Slot) => values(&s.slots(None), "slot"),
        Some(ArgKind::Feature) => values(
            &s.features.iter().map(String::as_str).collect::<Vec<_>>(),
            "feature",
        ),
        Some(ArgKind::Value) => evidence_values(s, first),
        Some(ArgKind::Integer) | None => Vec::new(),
    }
}

/// The values an evidence variable takes, for `var = ` in rules.
fn evidence_values(s: &View, var: &str) -> Vec<CompletionItem> {
    let vals: Vec<&str> = s
        .evidence
        .iter()
        .filter(|(v, _)| v == var)
        .flat_map(|(_, vals)| vals.iter().map(String::as_str))
        .collect();
    values(&vals, var)
}

/// What a norm may speak of: the kind words and the categories.
fn information_kinds() -> Vec<CompletionItem> {
    let words = crate::sema::norm::KIND_WORDS
        .iter()
        .map(|k| item(k, CompletionItemKind::KEYWORD, "kind of information"));
    let categories = crate::sema::Category::ALL.iter().map(|c| {
        item(
            c.name(),
            CompletionItemKind::ENUM_MEMBER,
            "raw forms of this category",
        )
    });
    words.chain(categories).collect()
}

/// Whom a norm may name: the recipient words and the people (groups are
/// any name a person's `groups` lists).
fn recipients(s: &View) -> Vec<CompletionItem> {
    let mut out: Vec<CompletionItem> = crate::sema::norm::RECIPIENT_WORDS
        .iter()
        .map(|k| item(k, CompletionItemKind::KEYWORD, "recipient"))
        .collect();
    out.extend(names(s, &[Kind::Person]));
    out
}

/// The line being typed, as tokens: those before the word under the
/// cursor (which the choice replaces), and whether that word is all the
/// line holds so far.
struct Line<'a> {
    head: Vec<Token<'a>>,
}

impl<'a> Line<'a> {
    fn at(text: &'a str, offset: usize) -> Line<'a> {
        let start = crate::syntax::lex::line_start(text, offset);
        let mut head = tokens(&text[start..offset]);
        let typing = head.last().is_some_and(|t| {
            t.start + t.text.len() == offset - start && super::tree::is_ident(t.text)
        });
        if typing {
            head.pop();
        }
        Line { head }
    }

    fn first(&self) -> &str {
        self.head.first().map_or("", |t| t.text)
    }

    fn previous(&self) -> &str {
        self.head.last().map_or("", |t| t.text)
    }

    fn has(&self, word: &str) -> bool {
        self.head.iter().any(|t| t.text == word)
    }

    /// The word before the last `token` on the line.
    fn before_last(&self, token: &str) -> &str {
        let at = self.head.iter().rposition(|t| t.text == token);
        at.and_then(|i| i.checked_sub(1))
            .map_or("", |i| self.head[i].text)
    }

    /// Where the last `open` bracket stands when no `close` follows it.
    fn unclosed(&self, open: &str, close: &str) -> Option<usize> {
        let at = self.head.iter().rposition(|t| t.text == open)?;
        (!self.head[at..].iter().any(|t| t.text == close)).then_some(at)
    }
}

pub(super) fn completions(doc: &Document, offset: usize) -> Vec<CompletionItem> {
    complete(&doc.text, &doc.views, offset)
}

/// What may be written at `offset` of `text`, whose tree is `views`.
pub(super) fn complete(text: &str, views: &[View], offset: usize) -> Vec<CompletionItem> {
    let empty = View::default();
    let s = at(views, offset).unwrap_or(&empty);
    let line = Line::at(text, offset);
    if let Some(paren) = line.unclosed("(", ")") {
        return inside_fact(s, &line, paren);
    }
    // A norm: kinds of information before `with`, recipients after it.
    if line.first() == "share" {
        return match line.has("with") {
            true => recipients(s),
            false => information_kinds(),
        };
    }
    after_word(s, &line)
        .or_else(|| in_list(s, &line))
        .unwrap_or_else(|| anywhere(text, s, &line, offset))
}

/// Inside `name(arg, arg, `: the names the argument takes.
fn inside_fact(s: &View, line: &Line, paren: usize) -> Vec<CompletionItem> {
    let predicate = paren.checked_sub(1).map_or("", |i| line.head[i].text);
    let inside = &line.head[paren + 1..];
    let index = inside.iter().filter(|t| t.text == ",").count();
    let first = inside.first().map_or("", |t| t.text);
    argument(s, predicate, index, first)
}

/// What the word before the cursor asks for.
fn after_word(s: &View, line: &Line) -> Option<Vec<CompletionItem>> {
    Some(match line.previous() {
        "fact" | "soft" | "claim" => predicates(s.family),
        "holder" | "about" | "executor" | "reports_to" | "+" => names(s, &[Kind::Person]),
        "family" => values(
            &Family::ALL.iter().map(|f| f.name()).collect::<Vec<_>>(),
            "family",
        ),
        "category" => categories(),
        "oracle" | "otherwise" => names(s, &[Kind::Level]),
        "@" => rooms_of(s, line.before_last("->")),
        "->" => placed(s, line.before_last("->")),
        "=" => {
            let var = match line.before_last("=") {
                "!" => line.before_last("!"),
                var => var,
            };
            evidence_values(s, var)
        }
        _ => return None,
    })
}

fn categories() -> Vec<CompletionItem> {
    crate::sema::Category::ALL
        .iter()
        .map(|c| {
            let detail = if c.is_personal() {
                "personal"
            } else {
                "not personal"
            };
            item(c.name(), CompletionItemKind::ENUM_MEMBER, detail)
        })
        .collect()
}

/// The rooms of the meeting an oracle line places, else every room.
fn rooms_of(s: &View, meeting: &str) -> Vec<CompletionItem> {
    let rooms: Vec<&str> = s
        .meetings
        .iter()
        .filter(|m| m.name == meeting)
        .flat_map(|m| m.rooms.iter().map(String::as_str))
        .collect();
    if rooms.is_empty() {
        names(s, &[Kind::Room])
    } else {
        values(&rooms, "room")
    }
}

/// After `target ->`: a meeting's slots, a ticket's people, or a level.
fn placed(s: &View, target: &str) -> Vec<CompletionItem> {
    if s.names(Kind::Meeting).contains(&target) {
        values(&s.slots(Some(target)), "slot")
    } else if s.names(Kind::Ticket).contains(&target) {
        names(s, &[Kind::Person])
    } else {
        names(s, &[Kind::Level])
    }
}

/// Inside a `[...]` list the statement takes.
fn in_list(s: &View, line: &Line) -> Option<Vec<CompletionItem>> {
    let open = line.unclosed("[", "]").is_some();
    Some(match line.first() {
        "attendees" if open => names(s, &[Kind::Person]),
        "rooms" if open => names(s, &[Kind::Room]),
        "slots" if open => values(&s.slots(None), "slot"),
        "raw" | "sanitized" if open || line.previous() == "except" => names(s, &[Kind::Person]),
        _ => return None,
    })
}

/// Any name, and where a statement starts, the keywords of its block.
fn anywhere(text: &str, s: &View, line: &Line, offset: usize) -> Vec<CompletionItem> {
    let mut items = names(
        s,
        &[
            Kind::Person,
            Kind::Room,
            Kind::Meeting,
            Kind::Ticket,
            Kind::Level,
            Kind::Variable,
        ],
    );
    if line.head.is_empty() {
        let line_start = crate::syntax::lex::line_start(text, offset);
        let block = &text[s.start.min(line_start)..line_start];
        items.extend(
            block_keywords(block)
                .iter()
                .map(|k| item(k, CompletionItemKind::KEYWORD, "")),
        );
    }
    items
}
