//! The canonical layout of seed files: what `cici fmt` writes.
//!
//! The layout is computed from the parse tree, so it never depends on how
//! the input was spaced: two-space indentation, one statement per line,
//! single spaces between tokens, `[a, b]` lists without a trailing comma, and
//! aligned columns for runs of `person` and `room` lines and of oracle
//! entries. Strings are kept byte for byte (escapes and triple-quoted bodies
//! included), so no text changes meaning. Comments stay where they were: a
//! comment at the end of a line stays at the end of that statement's line, a
//! comment on its own line stays on its own line before the statement that
//! follows it. Single blank lines between statements are kept, runs of blank
//! lines fold into one.

use pest::iterators::Pair;

use super::error::SyntaxError;
use super::grammar::Rule;

/// Formats a whole seed file. A file that does not parse is not formatted:
/// the syntax errors come back instead, as `cici check` would report them.
pub fn format(text: &str) -> Result<String, Vec<SyntaxError>> {
    let file = super::parser::parse_tree(text)?;
    let f = Formatter {
        text,
        comments: comments(text),
    };
    let scenarios: Vec<Pair<Rule>> = file
        .into_inner()
        .filter(|p| p.as_rule() == Rule::scenario)
        .collect();
    let entries = f.body(&scenarios, 0, text.len(), true);
    let mut out = String::new();
    f.render(&entries, 0, &mut out);
    Ok(out)
}

/// A comment's byte range, from `#` to the end of its line (exclusive).
#[derive(Clone, Copy, Debug)]
struct Comment {
    start: usize,
    end: usize,
}

/// Every comment of a text that parses: a `#` outside any string.
fn comments(text: &str) -> Vec<Comment> {
    super::lex::lex(text)
        .filter(|l| l.kind == super::lex::Kind::Comment)
        .map(|l| Comment {
            start: l.start,
            end: l.end,
        })
        .collect()
}

/// One line-level piece of a block before layout.
#[derive(Debug)]
enum Entry {
    Blank,
    Comment(String),
    /// A one-line statement as columns, with its end-of-line comment.
    Line {
        rule: Rule,
        fields: Vec<String>,
        comment: Option<String>,
    },
    /// A statement with a `{ ... }` body.
    Block {
        header: String,
        open_comment: Option<String>,
        body: Vec<Entry>,
        close_comment: Option<String>,
    },
}

impl Entry {
    fn set_trailing(&mut self, text: String) -> bool {
        let slot = match self {
            Entry::Line { comment, .. } => comment,
            Entry::Block { close_comment, .. } => close_comment,
            _ => return false,
        };
        match slot {
            Some(existing) => {
                existing.push(' ');
                existing.push_str(&text);
            }
            None => *slot = Some(text),
        }
        true
    }
}

struct Formatter<'t> {
    text: &'t str,
    comments: Vec<Comment>,
}

impl Formatter<'_> {
    fn comment_text(&self, c: &Comment) -> String {
        self.text[c.start..c.end].trim_end().to_string()
    }

    fn comments_in(&self, start: usize, end: usize) -> impl Iterator<Item = &Comment> {
        self.comments
            .iter()
            .filter(move |c| c.start >= start && c.start < end)
    }

    /// Where a pair's own text ends: pest lets a rule whose optional tail did
    /// not match swallow the blanks and comments after it.
    fn content_end(&self, pair: &Pair<Rule>) -> usize {
        let start = pair.as_span().start();
        let mut end = pair.as_span().end();
        loop {
            let trimmed = start + self.text[start..end].trim_end().len();
            match self
                .comments
                .iter()
                .find(|c| c.start < trimmed && trimmed <= c.end)
            {
                Some(c) if c.start >= start => end = c.start,
                _ => return trimmed,
            }
        }
    }

    /// Lays out the statements `items` that sit between `open` (just after a
    /// `{`, or the start of the file) and `close` (the `}`, or its end).
    fn body(&self, items: &[Pair<Rule>], open: usize, close: usize, top: bool) -> Vec<Entry> {
        let mut out: Vec<Entry> = Vec::new();
        let mut prev = open;
        for item in items {
            self.gap(prev, item.as_span().start(), &mut out, top);
            if top {
                set_apart(&mut out);
            }
            let end = self.content_end(item);
            self.statement(item.clone(), end, &mut out);
            prev = end;
        }
        self.gap(prev, close, &mut out, top);
        while matches!(out.last(), Some(Entry::Blank)) {
            out.pop();
        }
        out
    }

    /// The comments and blank lines between two statements: a comment on
    /// the line where the previous statement ends stays at its end.
    fn gap(&self, from: usize, to: usize, out: &mut Vec<Entry>, top: bool) {
        if from > to {
            return;
        }
        let mut at = from;
        for c in self.comments_in(from, to) {
            let newlines = super::lex::line_breaks(&self.text[at..c.start]);
            let trailing = newlines == 0 && at == from;
            if !(trailing
                && out
                    .last_mut()
                    .is_some_and(|e| e.set_trailing(self.comment_text(c))))
            {
                if newlines >= 2 && !out.is_empty() {
                    out.push(Entry::Blank);
                }
                if top {
                    set_apart(out);
                }
                out.push(Entry::Comment(self.comment_text(c)));
            }
            at = c.end;
        }
        let newlines = super::lex::line_breaks(&self.text[at..to]);
        if newlines >= 2 && !out.is_empty() && !matches!(out.last(), Some(Entry::Blank)) {
            out.push(Entry::Blank);
        }
    }

    /// Appends one statement: a line, or a block with its body.
    fn statement(&self, pair: Pair<Rule>, end: usize, out: &mut Vec<Entry>) {
        let rule = pair.as_rule();
        let start = pair.as_span().start();
        let mut children: Vec<Pair<Rule>> = pair.clone().into_inner().collect();
        let body_rule = match rule {
            Rule::scenario | Rule::meeting_stmt | Rule::ticket_stmt | Rule::attribute_stmt => {
                Some(None)
            }
            Rule::rubric_stmt | Rule::rules_stmt | Rule::norms_stmt => Some(None),
            Rule::oracle_stmt if children.iter().any(|c| c.as_rule() == Rule::oracle_block) => {
                Some(Some(Rule::oracle_block))
            }
            _ => None,
        };
        let Some(inner) = body_rule else {
            // Comments inside a one-line statement move above it.
            for c in self.comments_in(start, end) {
                out.push(Entry::Comment(self.comment_text(c)));
            }
            out.push(Entry::Line {
                rule,
                fields: self.fields(&pair),
                comment: None,
            });
            return;
        };
        // Split header tokens from body statements.
        let (header_pairs, body_pairs, open, close): (
            Vec<Pair<Rule>>,
            Vec<Pair<Rule>>,
            usize,
            usize,
        ) = match inner {
            Some(block_rule) => {
                let block = children
                    .iter()
                    .find(|c| c.as_rule() == block_rule)
                    .expect("checked above")
                    .clone();
                let open = block.as_span().start() + 1;
                let close = block.as_span().end() - 1;
                children.retain(|c| c.as_rule() != block_rule);
                (children, block.into_inner().collect(), open, close)
            }
            None => {
                let header_len = match rule {
                    Rule::scenario | Rule::attribute_stmt => 2,
                    Rule::meeting_stmt | Rule::ticket_stmt => 3,
                    _ => 1,
                };
                let body = children.split_off(header_len.min(children.len()));
                let last = children.last().map_or(start, |p| p.as_span().end());
                let open = self.find_brace(last) + 1;
                let close = pair.as_span().end() - 1;
                (children, body, open, close)
            }
        };
        let header_end = open - 1;
        for c in self.comments_in(start, header_end) {
            out.push(Entry::Comment(self.comment_text(c)));
        }
        let header = header_pairs
            .iter()
            .map(|p| self.inline(p))
            .collect::<Vec<_>>()
            .join(" ");
        // A comment on the line of the `{` stays there.
        let open_comment = self
            .comments_in(open, close)
            .next()
            .filter(|c| {
                self.text[open..c.start].trim().is_empty()
                    && !self.text[open..c.start].contains(['\n', '\r'])
            })
            .map(|c| self.comment_text(c));
        let body_open = match open_comment {
            Some(_) => {
                let c = self.comments_in(open, close).next().expect("found above");
                c.end
            }
            None => open,
        };
        let mut body = self.body(&body_pairs, body_open, close, false);
        // Blank lines right after `{` go.
        while matches!(body.first(), Some(Entry::Blank)) {
            body.remove(0);
        }
        out.push(Entry::Block {
            header,
            open_comment,
            body,
            close_comment: None,
        });
    }

    /// The `{` after a block header: the first one outside a comment.
    fn find_brace(&self, from: usize) -> usize {
        let mut i = from;
        let bytes = self.text.as_bytes();
        while i < bytes.len() {
            if bytes[i] == b'#' {
                i = super::lex::line_end(self.text, i);
                continue;
            }
            if bytes[i] == b'{' {
                return i;
            }
            i += 1;
        }
        bytes.len().saturating_sub(1)
    }

    /// A one-line statement split into the columns that runs align on.
    fn fields(&self, pair: &Pair<Rule>) -> Vec<String> {
        let parts: Vec<String> = pair.clone().into_inner().map(|p| self.inline(&p)).collect();
        match pair.as_rule() {
            // person <id> "<name>" role "<role>" [skills [...]]
            Rule::person_stmt => {
                let mut f = parts[..3].to_vec();
                f.push(format!("{} {}", parts[3], parts[4]));
                f.extend(parts[5..].iter().cloned());
                f
            }
            // room <id> ["<name>"] capacity <n> [features [...]]
            Rule::room_stmt => {
                let kids: Vec<Pair<Rule>> = pair.clone().into_inner().collect();
                let has_name = kids.get(2).is_some_and(|k| k.as_rule() == Rule::string);
                let mut f = parts[..2].to_vec();
                let rest = if has_name {
                    f.push(parts[2].clone());
                    &parts[3..]
                } else {
                    f.push(String::new());
                    &parts[2..]
                };
                f.push(rest[0].clone());
                f.push(rest[1].clone());
                f.extend(rest[2..].iter().cloned());
                f
            }
            // <target> -> <value>
            Rule::oracle_entry => {
                let mut f = vec![parts[0].clone(), "->".to_string()];
                f.extend(parts[1..].iter().cloned());
                f
            }
            _ => vec![self.inline(pair)],
        }
    }

    /// A construct on one line, with canonical spacing.
    fn inline(&self, pair: &Pair<Rule>) -> String {
        let kids = || pair.clone().into_inner().map(|p| self.inline(&p));
        match pair.as_rule() {
            Rule::string => pair.as_str().trim_end().to_string(),
            Rule::ident_list | Rule::slot_list => {
                format!("[{}]", kids().collect::<Vec<_>>().join(", "))
            }
            Rule::slot => {
                let mut k = pair.clone().into_inner();
                let (day, from, to) = (k.next(), k.next(), k.next());
                match (day, from, to) {
                    (Some(d), Some(a), Some(b)) => {
                        format!("{} {}-{}", d.as_str(), a.as_str(), b.as_str())
                    }
                    _ => pair.as_str().to_string(),
                }
            }
            Rule::fact => {
                let mut k = kids();
                let name = k.next().unwrap_or_default();
                format!("{name}({})", k.collect::<Vec<_>>().join(", "))
            }
            Rule::negation => pair
                .clone()
                .into_inner()
                .map(|p| match p.as_rule() {
                    Rule::condition => format!("({})", self.inline(&p)),
                    _ => self.inline(&p),
                })
                .collect::<Vec<_>>()
                .join(" "),
            Rule::oracle_entry => kids().collect::<Vec<_>>().join(" -> "),
            Rule::oracle_slot => kids().collect::<Vec<_>>().join(" @ "),
            Rule::oracle_people => kids().collect::<Vec<_>>().join(" + "),
            _ => {
                let parts: Vec<String> = kids().collect();
                if parts.is_empty() {
                    pair.as_str().trim_end().to_string()
                } else {
                    parts.join(" ")
                }
            }
        }
    }

    /// Writes entries at an indentation depth, aligning runs of lines.
    fn render(&self, entries: &[Entry], depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        let widths = column_widths(entries);
        for (i, e) in entries.iter().enumerate() {
            match e {
                Entry::Blank => out.push('\n'),
                Entry::Comment(c) => {
                    out.push_str(&pad);
                    out.push_str(c);
                    out.push('\n');
                }
                Entry::Line {
                    fields, comment, ..
                } => {
                    let mut line = pad.clone();
                    let w = &widths[i];
                    let shown: Vec<(usize, &String)> = fields
                        .iter()
                        .enumerate()
                        .filter(|(k, f)| !f.is_empty() || w.get(*k).is_some_and(|&w| w > 0))
                        .collect();
                    for (n, (k, f)) in shown.iter().enumerate() {
                        line.push_str(f);
                        if n + 1 < shown.len() {
                            let width = w.get(*k).copied().unwrap_or(0);
                            let fill = width.saturating_sub(f.chars().count());
                            line.push_str(&" ".repeat(fill + 1));
                        }
                    }
                    push_line(out, line, comment.as_deref());
                }
                Entry::Block {
                    header,
                    open_comment,
                    body,
                    close_comment,
                } => {
                    if body.is_empty() && open_comment.is_none() {
                        push_line(out, format!("{pad}{header} {{}}"), close_comment.as_deref());
                        continue;
                    }
                    push_line(out, format!("{pad}{header} {{"), open_comment.as_deref());
                    self.render(body, depth + 1, out);
                    push_line(out, format!("{pad}}}"), close_comment.as_deref());
                }
            }
        }
    }
}

/// Top-level scenarios are always set apart by a blank line.
fn set_apart(out: &mut Vec<Entry>) {
    if matches!(out.last(), Some(Entry::Block { .. })) {
        out.push(Entry::Blank);
    }
}

/// Writes one line, trailing blanks trimmed, with its end-of-line comment.
fn push_line(out: &mut String, line: String, comment: Option<&str>) {
    out.push_str(line.trim_end());
    if let Some(c) = comment {
        out.push_str("  ");
        out.push_str(c);
    }
    out.push('\n');
}

/// For every entry, the widths its columns are padded to: lines of the same
/// kind that follow each other (no blank line or block between) form a run,
/// and every column but a line's last is padded to the widest in the run.
fn column_widths(entries: &[Entry]) -> Vec<Vec<usize>> {
    let mut widths: Vec<Vec<usize>> = vec![Vec::new(); entries.len()];
    let mut i = 0;
    while i < entries.len() {
        let Entry::Line { rule, .. } = &entries[i] else {
            i += 1;
            continue;
        };
        let mut run = vec![i];
        let mut j = i + 1;
        while j < entries.len() {
            match &entries[j] {
                Entry::Line { rule: r, .. } if r == rule => run.push(j),
                Entry::Comment(_) => {}
                _ => break,
            }
            j += 1;
        }
        let columns = run
            .iter()
            .map(|&k| match &entries[k] {
                Entry::Line { fields, .. } => fields.len(),
                _ => 0,
            })
            .max()
            .unwrap_or(0);
        let mut w = vec![0usize; columns];
        for &k in &run {
            if let Entry::Line { fields, .. } = &entries[k] {
                for (c, f) in fields.iter().enumerate() {
                    if c + 1 < fields.len() {
                        w[c] = w[c].max(f.chars().count());
                    }
                }
            }
        }
        for &k in &run {
            widths[k] = w.clone();
        }
        i = j;
    }
    widths
}
