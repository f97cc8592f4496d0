//! Recovery inside a scenario block that does not parse: the block is cut
//! into statements by the one lexer and each is parsed on its own, so a
//! bad statement loses only itself. The block comes back as a partial
//! scenario (for the editor, never for later stages) with the errors of
//! the statements that do not parse.
//!
//! A statement begins at the first word of a line that is either a
//! scenario statement's keyword (`person`, `attribute`, ...) or, at the
//! block's own depth outside any bracket, a word that is no keyword at all
//! (a misspelt statement), or any word that opens a line after the
//! statement's own block has closed; it runs to the next such word, or to the `}`
//! that closes the block. Braces, brackets, strings and comments are read
//! by [`crate::syntax::lex`], so a `{` in a string opens nothing. Each
//! statement is parsed once: recovery is linear in the block. The
//! statement that holds the block's first error keeps, besides, its
//! longest head of whole lines that parses on its own: lines whose block's
//! opening line was lost (`share` rules under a cut `norms {`) run on
//! into the statement before them, which is then not lost with them.

use super::{parse_rule, Cx, Rule};
use crate::span::{SourceId, Span};
use crate::syntax::ast::{Ident, ScenarioAst};
use crate::syntax::error::SyntaxError;
use crate::syntax::lex::{lex, Kind, Lexeme};
use crate::syntax::recover::from_pest;
use crate::syntax::{keywords, statement_keywords, Block};

/// How many statements of one file that do not parse on their own are
/// reported. Each costs a second parse for its message; past this many,
/// recovery stops, and the blocks after are reported by their first error
/// only, without a partial tree.
pub const MAX_STATEMENT_ERRORS: usize = 100;

/// What is left of [`MAX_STATEMENT_ERRORS`] for one file.
pub(in crate::syntax) struct Budget {
    left: usize,
}

impl Budget {
    pub(in crate::syntax) fn new() -> Budget {
        Budget {
            left: MAX_STATEMENT_ERRORS,
        }
    }
}

/// The statements of a block: its `scenario` keyword, its id, each
/// statement's byte range and where the block ends (all in the chunk).
/// `lines` holds, in order, where each word that opens a line at the
/// block's own depth outside any bracket stands, but for those that begin
/// a statement: a line a statement may run on to (`skills` under a
/// `person`), or one whose own block's opening line was lost (a `share`
/// whose `norms {` was cut).
struct Split {
    keyword: usize,
    id: (usize, usize),
    statements: Vec<(usize, usize)>,
    lines: Vec<usize>,
    end: usize,
}

fn is_name(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Cuts a block into statements; `None` when it does not begin with
/// `scenario <id> {`.
fn split(chunk: &str) -> Option<Split> {
    let toks: Vec<Lexeme> = lex(chunk)
        .filter(|l| !matches!(l.kind, Kind::Space | Kind::Comment))
        .collect();
    let text = |l: &Lexeme| &chunk[l.start..l.end];
    let [kw, id, open, rest @ ..] = toks.as_slice() else {
        return None;
    };
    if text(kw) != "scenario" || !is_name(text(id)) || text(open) != "{" {
        return None;
    }
    let starts_statement = statement_keywords(Block::Scenario);
    let (mut depth, mut brackets) = (1usize, 0usize);
    // Whether the statement's own block has closed: any word that opens a
    // line after it begins the next statement.
    let mut closed = false;
    let mut statements = Vec::new();
    let mut lines = Vec::new();
    let mut current: Option<usize> = None;
    let mut prev_end = open.end;
    let mut end = chunk.trim_end().len();
    for l in rest {
        let word = text(l);
        let first_on_line = chunk[prev_end..l.start].contains(['\n', '\r']);
        prev_end = l.end;
        if word == "}" && depth == 1 {
            // The block's own close: it ends the statement before it.
            statements.extend(current.take().map(|s| (s, l.start)));
            end = l.end;
            continue;
        }
        let begins = l.kind == Kind::Word
            && is_name(word)
            && (first_on_line || statements.is_empty() && current.is_none())
            && (starts_statement.contains(&word)
                || depth == 1 && brackets == 0 && (closed || !keywords().contains(&word)));
        if begins {
            statements.extend(current.replace(l.start).map(|s| (s, l.start)));
            (depth, brackets, closed) = (1, 0, false);
        } else if first_on_line && depth == 1 && brackets == 0 && l.kind == Kind::Word {
            lines.push(l.start);
        }
        match word {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                closed = depth == 1;
            }
            "[" | "(" => brackets += 1,
            "]" | ")" => brackets = brackets.saturating_sub(1),
            _ => {}
        }
    }
    statements.extend(current.map(|s| (s, chunk.len())));
    Some(Split {
        keyword: kw.start,
        id: (id.start, id.end),
        statements,
        lines,
        end,
    })
}

/// Where a diagnostic points, as a byte offset in the file.
fn offset(e: &SyntaxError) -> Option<usize> {
    use miette::Diagnostic as _;
    e.labels().and_then(|mut l| l.next()).map(|l| l.offset())
}

/// Recovers the block `chunk` (at `base` in the file) whose first error is
/// `first`: the partial scenario, and the errors of its statements other
/// than the one `first` reports. A statement before `first` that fails on
/// its own parsed in context, so the cut, not the text, is wrong there: it
/// is left out without an error.
pub(super) fn recover(
    source: SourceId,
    chunk: &str,
    base: usize,
    first: &SyntaxError,
    budget: &mut Budget,
) -> (Option<ScenarioAst>, Vec<SyntaxError>) {
    let Some(split) = split(chunk).filter(|_| budget.left > 0) else {
        return (None, Vec::new());
    };
    let first_at = offset(first).map_or(chunk.len(), |o| o.saturating_sub(base));
    let mut items = Vec::new();
    let mut errors = Vec::new();
    let mut first_found = false;
    for &(s, e) in &split.statements {
        let mut cx = Cx::new(source, base + s);
        match parse_rule(Rule::item_only, &chunk[s..e]) {
            Ok(pairs) => {
                items.extend(items_of(pairs, &mut cx));
                errors.extend(cx.errors);
            }
            Err(_) if !first_found && s <= first_at && first_at <= e => {
                first_found = true;
                // The lines before the error may be a whole statement that
                // a lost line ran on into: kept for the editor, no error.
                items.extend(head_before(&split, (s, e), first_at, chunk, &mut cx));
            }
            Err(_) if e <= first_at => {}
            Err(err) => {
                if budget.left == 0 {
                    break;
                }
                budget.left -= 1;
                let err = from_pest(&err, &chunk[s..e], base + s);
                if offset(&err) != offset(first) {
                    errors.push(err);
                }
            }
        }
    }
    let span = |a: usize, b: usize| Span::new(source, base + a, base + b);
    let ast = ScenarioAst {
        id: Ident {
            name: chunk[split.id.0..split.id.1].to_string(),
            span: span(split.id.0, split.id.1),
        },
        items,
        span: span(split.keyword, split.end.max(split.keyword)),
    };
    (Some(ast), errors)
}

/// The items of the longest run of whole lines at the start of statement
/// `(s, e)` that ends by `before` and parses as a statement on its own;
/// none when no such run parses.
fn head_before(
    split: &Split,
    (s, e): (usize, usize),
    before: usize,
    chunk: &str,
    cx: &mut Cx,
) -> Vec<crate::syntax::ast::Item> {
    let ends = split
        .lines
        .iter()
        .copied()
        .filter(|&b| s < b && b < e && b <= before);
    for b in ends.rev() {
        if let Ok(pairs) = parse_rule(Rule::item_only, &chunk[s..b]) {
            return items_of(pairs, cx);
        }
    }
    Vec::new()
}

/// The statements a parse of `item_only` found, as items.
fn items_of(pairs: pest::iterators::Pairs<'_, Rule>, cx: &mut Cx) -> Vec<crate::syntax::ast::Item> {
    pairs
        .flat_map(|p| p.into_inner())
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| cx.item(p))
        .collect()
}

#[cfg(test)]
#[path = "partial_tests.rs"]
mod tests;
