//! Source locations that outlive the parser.
//!
//! A [`Span`] is a pair of byte offsets plus the [`SourceId`] of the text they
//! point into. Spans travel from the AST through the resolved scenario into
//! the constraint model, so that an analysis result ("this fact is critical",
//! "these facts conflict") points back at the seed text. Nodes that the
//! counterfactual loop or the planted generator make have no text of their
//! own: they carry [`Span::DERIVED`].

pub mod json;

use serde::Serialize;

/// Identifies one loaded source text within a [`Sources`] table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SourceId(pub u32);

impl SourceId {
    /// The id of nodes that were made by a program, not parsed from text.
    pub const DERIVED: SourceId = SourceId(u32::MAX);
}

/// A byte range in one source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    pub source: SourceId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// The span of a derived node: it points at no text.
    pub const DERIVED: Span = Span {
        source: SourceId::DERIVED,
        start: 0,
        end: 0,
    };

    pub fn new(source: SourceId, start: usize, end: usize) -> Span {
        Span {
            source,
            start: start as u32,
            end: end as u32,
        }
    }

    /// Whether the node was made by a program rather than parsed.
    pub fn is_derived(&self) -> bool {
        self.source == SourceId::DERIVED
    }

    /// The smallest span that covers both.
    pub fn to(self, other: Span) -> Span {
        Span {
            source: self.source,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        miette::SourceSpan::new((span.start as usize).into(), span.len())
    }
}

/// One loaded seed text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Where each line of `text` starts, found on the first
    /// [`SourceFile::line_col`]: a file with thousands of diagnostics is
    /// read once, not once for each.
    line_starts: std::sync::OnceLock<Vec<usize>>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
            line_starts: std::sync::OnceLock::new(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        // Lines end at `\n`, `\r\n` or a lone `\r`; the `\n` of a `\r\n`
        // belongs to the line the `\r` ends.
        let starts = self.line_starts.get_or_init(|| line_starts(&self.text));
        // The last line starting at or before the offset.
        let line = starts.partition_point(|&s| s <= offset);
        let column = self.text[starts[line - 1]..offset].chars().count() + 1;
        (line, column)
    }

    /// The text as a miette source with its file name.
    pub fn named(&self) -> miette::NamedSource<String> {
        miette::NamedSource::new(displayable(&self.name), displayable(&self.text))
    }
}

/// The byte offset where each line of `text` starts: 0, and after every
/// `\n`, `\r\n` and lone `\r`.
pub fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    starts.extend(
        bytes
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
            .map(|(i, _)| i + 1),
    );
    starts
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Every text loaded in one run, indexed by [`SourceId`].
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    pub fn new() -> Sources {
        Sources::default()
    }

    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> SourceId {
        self.files.push(SourceFile::new(name, text));
        SourceId(self.files.len() as u32 - 1)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn get(&self, id: SourceId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// The text a span points into, or `""` for derived spans.
    pub fn slice(&self, span: Span) -> &str {
        self.get(span.source)
            .and_then(|f| f.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }
}

/// Text safe to print on a terminal: every control character but line
/// breaks and tabs becomes `?` (one byte for each byte it replaces, so
/// spans into the text stay right). A seed can then never move the cursor,
/// retitle the window or clear the screen through a diagnostic.
pub fn displayable(text: &str) -> String {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r')
    {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' && c != '\r' {
                "?".repeat(c.len_utf8())
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let f = SourceFile::new("x", "ab\ncé d");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        // 'é' is two bytes; the space after it is the third character.
        assert_eq!(f.line_col(6), (2, 3));
        assert_eq!(f.line_col(999), (2, 5));
        // On a line break, and past the last one.
        let g = SourceFile::new("y", "a\n\nb\n");
        let got: Vec<(usize, usize)> = (0..=g.text.len()).map(|o| g.line_col(o)).collect();
        assert_eq!(got, [(1, 1), (1, 2), (2, 1), (3, 1), (3, 2), (4, 1)]);
    }

    #[test]
    fn line_col_ends_lines_at_cr_crlf_and_lf() {
        for nl in ["\n", "\r\n", "\r"] {
            let f = SourceFile::new("x", format!("ab{nl}{nl}cd"));
            let c = f.text.len() - 1;
            assert_eq!(f.line_col(c), (3, 2), "{nl:?}");
            assert_eq!(f.line_col(1), (1, 2), "{nl:?}");
        }
    }
}

/// Replace `length` bytes at `offset` with `replacement`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Edit {
    pub offset: usize,
    pub length: usize,
    pub replacement: String,
}

/// Applies edits to a text; `None` if two of them overlap or one lies
/// outside the text.
pub fn apply(text: &str, edits: &[Edit]) -> Option<String> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.offset, e.length));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in sorted {
        let end = e.offset.checked_add(e.length)?;
        if e.offset < at || end > text.len() || !text.is_char_boundary(e.offset) {
            return None;
        }
        if !text.is_char_boundary(end) {
            return None;
        }
        out.push_str(&text[at..e.offset]);
        out.push_str(&e.replacement);
        at = end;
    }
    out.push_str(&text[at..]);
    Some(out)
}
