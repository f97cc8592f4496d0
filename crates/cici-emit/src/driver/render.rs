//! A diagnostic with its source and fixes attached, for any miette report
//! handler.

use miette::Diagnostic;

use super::{problem::Problem, Run};

/// A diagnostic paired with the text it points into, ready for any miette
/// report handler.
pub struct WithSource<'a> {
    pub diagnostic: &'a Problem,
    /// The part of the file the labels show, long lines cut to a window.
    pub source: super::excerpt::Excerpt,
    /// The diagnostic's labels, moved into `source`.
    pub labels: Vec<miette::LabeledSpan>,
    /// Fixes shown after the diagnostic's own help.
    pub fixes: &'a [super::Fix],
    /// A warning denied by its lint level, shown as an error.
    pub denied: bool,
}

impl<'a> WithSource<'a> {
    /// The diagnostic with the excerpt of `text` (whose line starts are
    /// `starts`) its labels show.
    pub fn new(
        diagnostic: &'a Problem,
        fixes: &'a [super::Fix],
        name: &str,
        text: &std::sync::Arc<str>,
        starts: &[usize],
    ) -> WithSource<'a> {
        let labels: Vec<miette::LabeledSpan> =
            diagnostic.labels().map(|l| l.collect()).unwrap_or_default();
        let (source, labels) = super::excerpt::excerpt(name, text, starts, &labels);
        WithSource {
            diagnostic,
            fixes,
            source,
            labels,
            denied: false,
        }
    }
}

impl std::fmt::Debug for WithSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.diagnostic, f)
    }
}

impl std::fmt::Display for WithSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.diagnostic, f)
    }
}

impl std::error::Error for WithSource<'_> {}

impl Diagnostic for WithSource<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.diagnostic.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        if self.denied {
            return Some(miette::Severity::Error);
        }
        self.diagnostic.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        if self.fixes.is_empty() {
            return self.diagnostic.help();
        }
        let mut text = self
            .diagnostic
            .help()
            .map(|h| format!("{h}\n"))
            .unwrap_or_default();
        for f in self.fixes {
            text.push_str("fix: ");
            text.push_str(&f.message);
            if f.unambiguous {
                text.push_str(" (`cici check --fix` applies this)");
            }
            text.push('\n');
        }
        Some(Box::new(text.trim_end().to_string()))
    }
    fn url<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.diagnostic.url()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        self.diagnostic.related()
    }
    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.diagnostic.diagnostic_source()
    }
}

impl Run {
    /// Every diagnostic with its source attached, in the order found.
    /// Each file's text and line starts are taken once, however many
    /// diagnostics it has.
    pub fn with_sources(&self) -> impl Iterator<Item = WithSource<'_>> {
        use std::collections::BTreeMap;
        use std::sync::Arc;
        let mut files: BTreeMap<crate::span::SourceId, (String, Arc<str>, Vec<usize>)> =
            BTreeMap::new();
        for d in &self.diagnostics {
            if let (None, Some(f)) = (files.get(&d.source), self.sources.get(d.source)) {
                let starts = super::excerpt::line_starts(&f.text);
                files.insert(
                    d.source,
                    (f.name.clone(), Arc::from(f.text.as_str()), starts),
                );
            }
        }
        let empty: (String, Arc<str>, Vec<usize>) = ("<derived>".into(), Arc::from(""), vec![0]);
        self.diagnostics.iter().map(move |d| {
            let (name, text, starts) = files.get(&d.source).unwrap_or(&empty);
            let mut w = WithSource::new(&d.diagnostic, &d.fixes, name, text, starts);
            w.denied = d.denied;
            w
        })
    }
}

/// Every diagnostic of one file under one heading: the per-file aggregate,
/// with the diagnostics as miette `related`, so that any report handler
/// shows them together.
pub struct FileReport<'a> {
    pub name: String,
    pub errors: usize,
    pub warnings: usize,
    pub diagnostics: Vec<WithSource<'a>>,
}

impl std::fmt::Debug for FileReport<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileReport")
            .field("name", &self.name)
            .field("errors", &self.errors)
            .field("warnings", &self.warnings)
            .finish()
    }
}

impl std::fmt::Display for FileReport<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        write!(
            f,
            "{}: {}, {}",
            self.name,
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        )
    }
}

impl std::error::Error for FileReport<'_> {}

impl Diagnostic for FileReport<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(if self.errors > 0 {
            miette::Severity::Error
        } else {
            miette::Severity::Warning
        })
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        Some(Box::new(
            self.diagnostics.iter().map(|d| d as &dyn Diagnostic),
        ))
    }
}

impl Run {
    /// The diagnostics grouped by file, in the order the files were read;
    /// files without a diagnostic are left out.
    pub fn by_file(&self) -> Vec<FileReport<'_>> {
        let mut out: Vec<(crate::span::SourceId, FileReport<'_>)> = Vec::new();
        for (d, w) in self.diagnostics.iter().zip(self.with_sources()) {
            let i = match out.iter().position(|(s, _)| *s == d.source) {
                Some(i) => i,
                None => {
                    let name = self
                        .sources
                        .get(d.source)
                        .map_or_else(|| "<derived>".to_string(), |f| f.name.clone());
                    out.push((
                        d.source,
                        FileReport {
                            name,
                            errors: 0,
                            warnings: 0,
                            diagnostics: Vec::new(),
                        },
                    ));
                    out.len() - 1
                }
            };
            let report = &mut out[i].1;
            if d.is_error() {
                report.errors += 1;
            } else {
                report.warnings += 1;
            }
            report.diagnostics.push(w);
        }
        out.sort_by_key(|(s, _)| *s);
        out.into_iter().map(|(_, r)| r).collect()
    }
}
