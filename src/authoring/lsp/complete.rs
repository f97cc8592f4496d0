//! Completion from the text around the cursor: the statement being typed
//! is read from the line, the names from the tolerant scan of the scenario,
//! so completion works while the line does not parse yet.

use lsp_types::{CompletionItem, CompletionItemKind, Documentation, InsertTextFormat};

use super::scan::{scan, Kind, Scan};
use super::Document;
use crate::sema::{ArgKind, Family};

/// The statements a scenario block holds, in the order seeds write them.
const SCENARIO_KEYWORDS: &[&str] = &[
    "family",
    "title",
    "task",
    "executor",
    "recipient",
    "public",
    "policy",
    "purpose",
    "norms",
    "person",
    "room",
    "meeting",
    "ticket",
    "levels",
    "outcomes",
    "evidence",
    "rubric",
    "rules",
    "exclude",
    "attribute",
    "oracle",
];

/// The statements of an attribute block.
const ATTRIBUTE_KEYWORDS: &[&str] = &[
    "holder",
    "about",
    "category",
    "raw",
    "sanitized",
    "fact",
    "soft",
    "claim",
    "visible",
    "appropriate",
    "inappropriate",
];

/// The statements of a meeting block.
const MEETING_KEYWORDS: &[&str] = &["attendees", "slots", "rooms", "features"];

/// The statements of a ticket block.
const TICKET_KEYWORDS: &[&str] = &[
    "needs",
    "hours",
    "pair",
    "with",
    "priority",
    "collaboration_heavy",
    "sensitive",
];

/// Every statement keyword completion offers: a subset of
/// [`crate::syntax::keywords`], which a test holds them to.
#[cfg(test)]
const KEYWORD_SETS: [&[&str]; 5] = [
    SCENARIO_KEYWORDS,
    ATTRIBUTE_KEYWORDS,
    MEETING_KEYWORDS,
    TICKET_KEYWORDS,
    &["share"],
];

/// The keywords of the innermost block open at the end of `text` (from the
/// scenario's start): a statement of that block may start here.
fn block_keywords(text: &str) -> &'static [&'static str] {
    let mut open: Vec<&str> = Vec::new();
    for t in super::scan::tokens(text) {
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
        Some("scenario") => SCENARIO_KEYWORDS,
        Some("attribute") => ATTRIBUTE_KEYWORDS,
        Some("meeting") => MEETING_KEYWORDS,
        Some("ticket") => TICKET_KEYWORDS,
        Some("norms") => &["share"],
        Some(_) => &[],
        None => &["scenario"],
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

fn names(s: &Scan, kinds: &[Kind]) -> Vec<CompletionItem> {
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

/// Completion inside `name(arg, arg, `: the names the argument takes.
fn argument(s: &Scan, inside: &str, pred: &str) -> Vec<CompletionItem> {
    let args: Vec<&str> = inside.split(',').collect();
    let index = args.len() - 1;
    match arg_kind(s.family, pred, index) {
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
        Some(ArgKind::Value) => evidence_values(s, args.first().map_or("", |v| v.trim())),
        Some(ArgKind::Integer) | None => Vec::new(),
    }
}

/// The values an evidence variable takes, for `var = ` in rules.
fn evidence_values(s: &Scan, var: &str) -> Vec<CompletionItem> {
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
fn recipients(s: &Scan) -> Vec<CompletionItem> {
    let mut out: Vec<CompletionItem> = crate::sema::norm::RECIPIENT_WORDS
        .iter()
        .map(|k| item(k, CompletionItemKind::KEYWORD, "recipient"))
        .collect();
    out.extend(names(s, &[Kind::Person]));
    out
}

pub(super) fn completions(doc: &Document, offset: usize) -> Vec<CompletionItem> {
    let text = &doc.text;
    let s = scan(text, offset);
    let line_start = crate::syntax::lex::line_start(text, offset);
    let before = text[line_start..offset].trim_start();
    // The word being typed is replaced by the choice; what decides the
    // choice is what comes before it.
    let head = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let previous = head.split_whitespace().last().unwrap_or("");
    let first = before.split_whitespace().next().unwrap_or("");
    let open_paren = head.rfind('(').filter(|&i| !head[i..].contains(')'));
    let open_list = head.rfind('[').filter(|&i| !head[i..].contains(']'));
    if let Some(i) = open_paren {
        let pred = head[..i]
            .trim_end()
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        return argument(&s, &head[i + 1..], pred);
    }
    // A norm: kinds of information before `with`, recipients after it.
    if first == "share" {
        return match head.split_whitespace().any(|w| w == "with") {
            true => recipients(&s),
            false => information_kinds(),
        };
    }
    match (previous, first) {
        ("fact" | "soft" | "claim", _) => predicates(s.family),
        ("holder" | "about" | "executor" | "reports_to", _) => names(&s, &[Kind::Person]),
        ("family", _) => values(
            &Family::ALL.iter().map(|f| f.name()).collect::<Vec<_>>(),
            "family",
        ),
        ("category", _) => crate::sema::Category::ALL
            .iter()
            .map(|c| {
                item(
                    c.name(),
                    CompletionItemKind::ENUM_MEMBER,
                    if c.is_personal() {
                        "personal"
                    } else {
                        "not personal"
                    },
                )
            })
            .collect(),
        ("oracle" | "otherwise", _) => names(&s, &[Kind::Level]),
        ("@", _) => {
            // The rooms of the meeting this oracle line places, else all.
            let meeting = before
                .rsplit_once("->")
                .and_then(|(t, _)| {
                    t.split(|c: char| c.is_whitespace() || c == '{')
                        .rfind(|w| !w.is_empty())
                })
                .unwrap_or("");
            let rooms: Vec<&str> = s
                .meetings
                .iter()
                .filter(|(m, _, _)| m == meeting)
                .flat_map(|(_, _, r)| r.iter().map(String::as_str))
                .collect();
            if rooms.is_empty() {
                names(&s, &[Kind::Room])
            } else {
                values(&rooms, "room")
            }
        }
        ("->", _) => {
            // The word before the arrow: a meeting, a ticket, or a rule.
            let target = head
                .trim_end()
                .trim_end_matches("->")
                .split(|c: char| c.is_whitespace() || c == '{')
                .rfind(|w| !w.is_empty())
                .unwrap_or("");
            if s.names(Kind::Meeting).contains(&target) {
                values(&s.slots(Some(target)), "slot")
            } else if s.names(Kind::Ticket).contains(&target) {
                names(&s, &[Kind::Person])
            } else {
                names(&s, &[Kind::Level])
            }
        }
        ("+", _) => names(&s, &[Kind::Person]),
        ("=" | "!=", _) => {
            let var = head
                .trim_end()
                .trim_end_matches("!=")
                .trim_end_matches('=')
                .split_whitespace()
                .last()
                .unwrap_or("");
            evidence_values(&s, var)
        }
        (_, "attendees") if open_list.is_some() => names(&s, &[Kind::Person]),
        (_, "rooms") if open_list.is_some() => names(&s, &[Kind::Room]),
        (_, "slots") if open_list.is_some() => values(&s.slots(None), "slot"),
        (_, "raw" | "sanitized") if open_list.is_some() || previous == "except" => {
            names(&s, &[Kind::Person])
        }
        _ => {
            let mut items = names(
                &s,
                &[
                    Kind::Person,
                    Kind::Room,
                    Kind::Meeting,
                    Kind::Ticket,
                    Kind::Level,
                    Kind::Variable,
                ],
            );
            if before.split_whitespace().count() <= 1 {
                let block = &text[s.start.min(line_start)..line_start];
                items.extend(
                    block_keywords(block)
                        .iter()
                        .map(|k| item(k, CompletionItemKind::KEYWORD, "")),
                );
            }
            items
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn statement_keywords_are_keywords_of_the_grammar() {
        for k in super::KEYWORD_SETS.iter().flat_map(|set| set.iter()) {
            assert!(crate::syntax::keywords().contains(k), "{k}");
        }
    }
}
