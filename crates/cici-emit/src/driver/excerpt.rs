//! What a diagnostic shows of its file: the lines its labels touch, with a
//! few lines of context, each long line cut to a window around the labels
//! (with an ellipsis where it was cut).
//!
//! A renderer then never pads to a column past the window (miette 7.6's
//! graphical handler panics on a label past column 65,535), and showing a
//! diagnostic costs the size of its excerpt, not of its file: a
//! minified JSON line of 40 MB with a thousand diagnostics renders each
//! from a few hundred bytes. Line numbers are the file's own.

use std::sync::Arc;

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

/// A line longer than this (in bytes) is cut to a window around its labels.
pub const LONG_LINE: usize = 400;
/// Bytes kept on each side of the labels of a long line.
const MARGIN: usize = 60;
/// At most this much of a long line's labelled stretch is kept.
const STRETCH: usize = 240;
/// Lines of context kept around the labelled lines (the handlers show one).
const CONTEXT: usize = 2;

/// The byte offset of every line start of a text (a line ends at `\n`,
/// `\r\n` or a lone `\r`).
pub fn line_starts(text: &str) -> Vec<usize> {
    crate::syntax::lex::line_starts(text)
}

/// Part of a file as a diagnostic shows it; a [`SourceCode`] whose line
/// numbers are the file's.
#[derive(Debug, Clone)]
pub struct Excerpt {
    name: String,
    text: String,
    /// The file's 0-based line number of the excerpt's first line.
    first_line: usize,
    /// Per excerpt line, the file's byte column of its first kept byte,
    /// less the ellipsis before it.
    shifts: Vec<usize>,
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        // A column is counted from the start of its line (in bytes); a cut
        // line's is moved back to the file's.
        let column = match (inner.column(), self.shifts.get(inner.line())) {
            (0, _) | (_, None) => inner.column(),
            (c, Some(shift)) => c + shift,
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            column,
            // A whole text's `line_count` counts from its first line, and
            // handlers merge snippets by it: count as the file would.
            inner.line_count() + self.first_line,
        )))
    }
}

/// One kept line: where it starts in the file, and the byte range of it
/// that is kept.
struct Kept {
    start: usize,
    keep: (usize, usize),
    cut_before: bool,
    cut_after: bool,
}

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// What to keep of the line `start..end`: all of it when it is short, else
/// the stretch around the label `points` on it (its start when none is).
fn keep_line(text: &str, (start, end): (usize, usize), points: &[usize]) -> Kept {
    if end - start <= LONG_LINE {
        return Kept {
            start,
            keep: (start, end),
            cut_before: false,
            cut_after: false,
        };
    }
    let inside: Vec<usize> = points
        .iter()
        .copied()
        .filter(|&p| p >= start && p <= end)
        .collect();
    let (a, b) = match (inside.iter().min(), inside.iter().max()) {
        (Some(&a), Some(&b)) => (
            a.saturating_sub(MARGIN).max(start),
            (b.min(a + STRETCH) + MARGIN).min(end),
        ),
        _ => (start, start + LONG_LINE / 4),
    };
    let (a, b) = (floor(text, a), ceil(text, b));
    Kept {
        start,
        keep: (a, b),
        cut_before: a > start,
        cut_after: b < end,
    }
}

/// The excerpt of `text` (with `starts` its line starts) that shows
/// `labels`, and the labels moved into it.
pub fn excerpt(
    name: &str,
    text: &Arc<str>,
    starts: &[usize],
    labels: &[LabeledSpan],
) -> (Excerpt, Vec<LabeledSpan>) {
    let line_of = |o: usize| starts.partition_point(|&s| s <= o).saturating_sub(1);
    let points: Vec<usize> = labels
        .iter()
        .flat_map(|l| [l.offset(), l.offset() + l.len()])
        .map(|o| o.min(text.len()))
        .collect();
    let (lo, hi) = match (points.iter().min(), points.iter().max()) {
        (Some(&a), Some(&b)) => (line_of(a), line_of(b)),
        _ => (0, 0),
    };
    let first = lo.saturating_sub(CONTEXT);
    let last = (hi + CONTEXT).min(starts.len() - 1);
    let kept: Vec<Kept> = starts[first..=last]
        .iter()
        .map(|&start| {
            let end = crate::syntax::lex::line_end(text, start);
            keep_line(text, (start, end), &points)
        })
        .collect();
    let mut out = String::new();
    // Where each kept line's kept range begins in the excerpt.
    let mut at = Vec::with_capacity(kept.len());
    let shifts = kept
        .iter()
        .map(|k| {
            (k.keep.0 - k.start).saturating_sub(if k.cut_before { '…'.len_utf8() } else { 0 })
        })
        .collect();
    for (i, k) in kept.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if k.cut_before {
            out.push('…');
        }
        at.push(out.len());
        out.push_str(&crate::span::displayable(&text[k.keep.0..k.keep.1]));
        if k.cut_after {
            out.push('…');
        }
    }
    let moved = |o: usize| -> usize {
        let o = o.min(text.len());
        let i = kept.partition_point(|k| k.start <= o).saturating_sub(1);
        let k = &kept[i];
        at[i] + o.clamp(k.keep.0, k.keep.1) - k.keep.0
    };
    let labels = labels
        .iter()
        .map(|l| {
            let (a, b) = (moved(l.offset()), moved(l.offset() + l.len()));
            let label = l.label().map(str::to_string);
            if l.primary() {
                LabeledSpan::new_primary_with_span(label, (a, b - a))
            } else {
                LabeledSpan::new(label, a, b - a)
            }
        })
        .collect();
    (
        Excerpt {
            name: crate::span::displayable(name),
            text: out,
            first_line: first,
            shifts,
        },
        labels,
    )
}

/// Any diagnostic shown with the excerpt of its file that its labels
/// touch, for handlers that would otherwise be given the whole file.
pub struct Shown<'a> {
    diagnostic: &'a dyn Diagnostic,
    source: Excerpt,
    labels: Vec<LabeledSpan>,
}

impl<'a> Shown<'a> {
    pub fn new(
        diagnostic: &'a dyn Diagnostic,
        name: &str,
        text: &Arc<str>,
        starts: &[usize],
    ) -> Shown<'a> {
        let labels: Vec<LabeledSpan> = diagnostic.labels().map(|l| l.collect()).unwrap_or_default();
        let (source, labels) = excerpt(name, text, starts, &labels);
        Shown {
            diagnostic,
            source,
            labels,
        }
    }
}

impl std::fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.diagnostic, f)
    }
}

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.diagnostic, f)
    }
}

impl std::error::Error for Shown<'_> {}

impl Diagnostic for Shown<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.diagnostic.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.diagnostic.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.diagnostic.help()
    }
    fn url<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.diagnostic.url()
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().cloned()))
    }
}
