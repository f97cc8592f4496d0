//! The one keyword table: every keyword of the language and the statements
//! each kind of block holds, read from the grammar's rules. The parser's
//! messages and recovery, the language server's completion and the editor
//! grammars' keyword lists (held to it by the tests below) all use it.

use std::sync::OnceLock;

const GRAMMAR: &str = include_str!("../../../../grammar/cici.pest");

/// Every keyword of the language, in the grammar's order, read from the
/// grammar's `kw_*` rules.
pub fn keywords() -> &'static [&'static str] {
    static KEYWORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    KEYWORDS.get_or_init(|| {
        GRAMMAR
            .lines()
            .filter_map(|l| l.strip_prefix("kw_"))
            .filter_map(|l| l.split(" = ").next())
            .collect()
    })
}

/// A kind of block whose statements each begin with their own keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// `scenario <id> { ... }`
    Scenario,
    /// `attribute <id> { ... }`
    Attribute,
    /// `meeting <id> "<title>" { ... }`
    Meeting,
    /// `ticket <id> "<title>" { ... }`
    Ticket,
    /// `norms { ... }`
    Norms,
}

impl Block {
    const ALL: [Block; 5] = [
        Block::Scenario,
        Block::Attribute,
        Block::Meeting,
        Block::Ticket,
        Block::Norms,
    ];

    /// The grammar rule that lists the block's statements.
    fn rule(self) -> &'static str {
        match self {
            Block::Scenario => "item",
            Block::Attribute => "attribute_item",
            Block::Meeting => "meeting_item",
            Block::Ticket => "ticket_item",
            Block::Norms => "norms_stmt",
        }
    }

    /// The block a line opening with `keyword` and a `{` is, if any.
    pub fn opened_by(keyword: &str) -> Option<Block> {
        match keyword {
            "scenario" => Some(Block::Scenario),
            "attribute" => Some(Block::Attribute),
            "meeting" => Some(Block::Meeting),
            "ticket" => Some(Block::Ticket),
            "norms" => Some(Block::Norms),
            _ => None,
        }
    }
}

/// The keywords that begin a statement of `block`, in the grammar's
/// keyword order.
pub fn statement_keywords(block: Block) -> &'static [&'static str] {
    static TABLE: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| Block::ALL.iter().map(|b| read_block(*b)).collect());
    let at = Block::ALL.iter().position(|b| *b == block).unwrap_or(0);
    &table[at]
}

/// The text of a rule's definition: its line, or up to the line that closes
/// it when its first line ends with an opening brace.
fn rule_text(name: &str) -> &'static str {
    let head = format!("\n{name} = ");
    let Some(at) = GRAMMAR.find(&head) else {
        return "";
    };
    let rest = &GRAMMAR[at + 1..];
    let first = rest.find('\n').unwrap_or(rest.len());
    if rest[..first].trim_end().ends_with('{') {
        let end = rest.find("\n}").map_or(rest.len(), |e| e + 2);
        &rest[..end]
    } else {
        &rest[..first]
    }
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The leading keywords of the statements a block's rule names.
fn read_block(block: Block) -> Vec<&'static str> {
    let rule = block.rule();
    let body = rule_text(rule);
    let body = body.split_once('=').map_or("", |(_, b)| b);
    let mut out: Vec<&'static str> = Vec::new();
    for name in words(body) {
        let statement = ["_stmt", "_clause", "_flag", "_rule"]
            .iter()
            .any(|s| name.ends_with(s));
        if !statement || name == rule {
            continue;
        }
        let definition = rule_text(name);
        let definition = definition.split_once('=').map_or("", |(_, b)| b);
        let leading = words(definition)
            .find_map(|w| w.strip_prefix("kw_"))
            .and_then(|w| keywords().iter().find(|k| **k == w));
        if let Some(kw) = leading {
            if !out.contains(kw) {
                out.push(kw);
            }
        }
    }
    out.sort_by_key(|k| keywords().iter().position(|x| x == k));
    out
}

#[cfg(test)]
#[path = "keywords_tests.rs"]
mod tests;
