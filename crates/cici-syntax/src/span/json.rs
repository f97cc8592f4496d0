//! Where a JSON path stands in a JSON text, for diagnostics: a small
//! scanner that walks the text along the path and skips everything else.
//! serde_json's values carry no positions; this keeps them off the hot
//! path (it only runs for a diagnostic).
//!
//! The imports of other tools' JSON files (PiSAs, AgentCIBench,
//! PrivacyLens, CI-RL) report each problem at a path; `at_json_path!`
//! gives their diagnostic types one rendering and [`locate_spans`] their
//! spans.

use miette::{LabeledSpan, SourceSpan};

/// A diagnostic about the value at a JSON path of a file.
pub trait AtJsonPath {
    /// `decision_policy.rules[3].when`; empty for the whole file.
    fn json_path(&self) -> &str;
    /// Its span in the file's text, once located.
    fn span_slot(&mut self) -> &mut Option<SourceSpan>;
}

/// Gives every diagnostic without a span the span of its path in `text`.
pub fn locate_spans<D: AtJsonPath>(text: &str, diagnostics: &mut [D]) {
    let mut locator = Locator::new(text);
    for d in diagnostics {
        if d.span_slot().is_none() {
            let span = locator.locate(d.json_path());
            *d.span_slot() = span.map(|(s, e)| (s, e - s).into());
        }
    }
}

/// `error (at `path`)`, or the error alone when it is about the whole file.
pub fn display_at(
    f: &mut std::fmt::Formatter<'_>,
    error: &dyn std::fmt::Display,
    path: &str,
) -> std::fmt::Result {
    if path.is_empty() {
        write!(f, "{error}")
    } else {
        write!(f, "{error} (at `{path}`)")
    }
}

/// The one label of a diagnostic at `path`: its span, named by the path.
pub fn label(
    path: &str,
    span: Option<SourceSpan>,
) -> Option<Box<dyn Iterator<Item = LabeledSpan> + 'static>> {
    let span = span?;
    let label = if path.is_empty() {
        "here".to_string()
    } else {
        format!("`{path}`")
    };
    Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
        Some(label),
        span,
    ))))
}

/// `Display`, `Error`, `miette::Diagnostic` and [`AtJsonPath`] for a
/// struct with the fields `error` (a `miette::Diagnostic`), `path` (a
/// `String`) and `span` (an `Option<SourceSpan>`): the error's code,
/// severity and help, its message with the path, labelled at the span.
/// Exported, as the imports of the layers above use it.
#[macro_export]
macro_rules! at_json_path {
    ($t:ty) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                $crate::span::json::display_at(f, &self.error, &self.path)
            }
        }

        impl std::error::Error for $t {}

        impl miette::Diagnostic for $t {
            fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
                self.error.code()
            }
            fn severity(&self) -> Option<miette::Severity> {
                self.error.severity()
            }
            fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
                self.error.help()
            }
            fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
                $crate::span::json::label(&self.path, self.span)
            }
        }

        impl $crate::span::json::AtJsonPath for $t {
            fn json_path(&self) -> &str {
                &self.path
            }
            fn span_slot(&mut self) -> &mut Option<miette::SourceSpan> {
                &mut self.span
            }
        }
    };
}
pub use crate::at_json_path;

/// One step of a path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Splits `a.b[3].c` into steps. Keys with dots or brackets cannot be
/// written this way; they do not occur in the formats cici reads, and a
/// path that holds one anyway (from a mutated file) gives fewer steps,
/// never a panic.
pub fn parse_path(path: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            steps.push(Step::Key(key.to_string()));
        }
        while let Some(end) = rest.find(']') {
            // A key of the input may hold `]` before any `[`.
            if let Some(Ok(i)) = rest.get(1..end).map(str::parse) {
                steps.push(Step::Index(i));
            }
            rest = &rest[end + 1..];
        }
    }
    steps
}

/// The byte range to show for `path` in `text`: the value itself when it
/// fits on one line, else from its key (or its start) to the end of that
/// first line, so that a diagnostic never prints a whole object. The
/// closest enclosing value stands in when the path leads nowhere (a
/// missing key points at the object that lacks it). `None` only for text
/// that is not JSON.
pub fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    Locator::new(text).locate(path)
}

/// One child of a container: the start of its key (in an object), its
/// key, and its value's range.
struct Child {
    key_start: Option<usize>,
    key: Option<String>,
    start: usize,
    end: usize,
}

/// Locates many paths in one text, scanning each container once however
/// many paths pass through it: a thousand diagnostics in one long array
/// cost one pass over the array, not a thousand.
pub struct Locator<'a> {
    text: &'a str,
    root: Option<Option<(usize, usize)>>,
    children: std::collections::HashMap<usize, Vec<Child>>,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a str) -> Locator<'a> {
        Locator {
            text,
            root: None,
            children: std::collections::HashMap::new(),
        }
    }

    /// [`locate`] for one path.
    pub fn locate(&mut self, path: &str) -> Option<(usize, usize)> {
        let text = self.text;
        let (key, start, end) = self.value(path)?;
        let from = key.unwrap_or(start);
        let line_end = text[from..].find('\n').map_or(text.len(), |i| from + i);
        Some((from, end.min(line_end.max(from + 1)).min(text.len())))
    }

    /// The value at `path` (start and end), with the start of its key.
    fn value(&mut self, path: &str) -> Option<(Option<usize>, usize, usize)> {
        let b = self.text.as_bytes();
        let (mut start, mut end) = *self
            .root
            .get_or_insert_with(|| {
                let mut s = Scanner { b, i: 0 };
                s.ws();
                let start = s.i;
                s.value_end().map(|end| (start, end))
            })
            .as_ref()?;
        let mut key = None;
        for step in &parse_path(path) {
            let children = self.children.entry(start).or_insert_with(|| {
                let mut s = Scanner { b, i: start };
                s.children()
            });
            let hit = match step {
                Step::Key(want) => children.iter().find(|c| c.key.as_deref() == Some(want)),
                Step::Index(i) => children.get(*i).filter(|c| c.key.is_none()),
            };
            match hit {
                Some(c) => {
                    key = c.key_start;
                    start = c.start;
                    end = c.end;
                }
                None => break,
            }
        }
        Some((key, start, end))
    }
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    /// Every child of the container at `self.i` (none for a scalar, and
    /// those before the point where the text stops being JSON).
    fn children(&mut self) -> Vec<Child> {
        let mut out = Vec::new();
        let Some(&open) = self.b.get(self.i) else {
            return out;
        };
        if open != b'{' && open != b'[' {
            return out;
        }
        self.i += 1;
        loop {
            self.ws();
            match self.b.get(self.i) {
                None | Some(b'}') | Some(b']') => return out,
                Some(b',') => {
                    self.i += 1;
                    continue;
                }
                _ => {}
            }
            let key_start = self.i;
            let key = if open == b'{' {
                let Some(k) = self.string() else {
                    return out;
                };
                self.ws();
                if self.b.get(self.i) != Some(&b':') {
                    return out;
                }
                self.i += 1;
                self.ws();
                Some(k)
            } else {
                None
            };
            let start = self.i;
            let Some(end) = self.value_end() else {
                return out;
            };
            out.push(Child {
                key_start: key.as_ref().map(|_| key_start),
                key,
                start,
                end,
            });
            // A value that ends where it began would never move on.
            self.i = end.max(start + 1);
        }
    }

    /// A string's content (escapes kept as written: keys in the formats
    /// cici reads have none).
    fn string(&mut self) -> Option<String> {
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        let start = self.i + 1;
        let mut j = start;
        while j < self.b.len() {
            match self.b[j] {
                b'\\' => j += 2,
                b'"' => {
                    self.i = j + 1;
                    return Some(String::from_utf8_lossy(&self.b[start..j]).into_owned());
                }
                _ => j += 1,
            }
        }
        None
    }

    /// The end of the value starting at `self.i` (which is left there).
    fn value_end(&mut self) -> Option<usize> {
        let save = self.i;
        let end = match *self.b.get(self.i)? {
            b'"' => {
                self.string()?;
                self.i
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut j = self.i;
                while j < self.b.len() {
                    match self.b[j] {
                        b'"' => {
                            self.i = j;
                            self.string()?;
                            j = self.i;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                j + 1
            }
            _ => {
                let mut j = self.i;
                while j < self.b.len() && !matches!(self.b[j], b',' | b'}' | b']') {
                    j += 1;
                }
                while j > self.i && self.b[j - 1].is_ascii_whitespace() {
                    j -= 1;
                }
                j
            }
        };
        self.i = save;
        (end <= self.b.len()).then_some(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_with_brackets_never_panics() {
        assert_eq!(
            parse_path("a]]b[2]"),
            vec![Step::Key("a]]b".into()), Step::Index(2)]
        );
        assert_eq!(parse_path("x[]]"), vec![Step::Key("x".into())]);
    }

    #[test]
    fn finds_nested_values_and_falls_back_to_the_parent() {
        let text = r#"{"a": {"b": [1, {"c": "x\"y"}, 3]}, "d": true}"#;
        let at = |p: &str| locate(text, p).map(|(s, e)| &text[s..e]);
        assert_eq!(at("a.b[1].c"), Some(r#""c": "x\"y""#));
        assert_eq!(at("a.b[2]"), Some("3"));
        assert_eq!(at("d"), Some(r#""d": true"#));
        assert_eq!(at("a.zzz"), Some(r#""a": {"b": [1, {"c": "x\"y"}, 3]}"#));
        assert_eq!(locate("not json", "a"), Some((0, 8)));
        // A value over several lines shows its first line only.
        let text = "{\n \"big\": {\n  \"x\": 1\n }\n}";
        assert_eq!(
            locate(text, "big").map(|(s, e)| &text[s..e]),
            Some(r#""big": {"#)
        );
    }
}
