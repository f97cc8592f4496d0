//! The whole pipeline over a set of files: what `cici check` runs.
//!
//! In: paths or texts. Out: a [`Run`] holding every source, every scenario
//! that resolved (with its model and report) and every diagnostic, each
//! tied to its source so it can be rendered or exported.

use std::path::{Path, PathBuf};

use miette::Diagnostic;
use serde::Serialize;

use crate::analysis::{self, Options, Report};
use crate::model::{self, Model};
use crate::sema::{self, ResolveError, Scenario};
use crate::span::{SourceId, Sources};
use crate::syntax;

/// A scenario that resolved, with its model and the analyses' report.
pub struct Checked {
    pub scenario: Scenario,
    pub model: Model,
    pub report: Report,
}

/// A diagnostic and the source it points into.
pub struct Diagnosed {
    pub source: SourceId,
    pub diagnostic: Box<dyn Diagnostic + Send + Sync + 'static>,
    /// Verified fixes, once [`Run::compute_fixes`] has run.
    pub fixes: Vec<crate::fixit::Fix>,
}

impl Diagnosed {
    pub fn is_error(&self) -> bool {
        !matches!(
            self.diagnostic.severity(),
            Some(miette::Severity::Warning) | Some(miette::Severity::Advice)
        )
    }
}

type Boxed = Box<dyn Diagnostic + Send + Sync + 'static>;

/// What checking one text produced, before it joins a [`Run`].
struct FileResult {
    diagnostics: Vec<Boxed>,
    checked: Vec<(Checked, Vec<crate::analysis::CheckDiagnostic>)>,
}

/// Parses, resolves, lowers and analyses one text.
fn check_one(source: SourceId, text: &str, options: &Options) -> FileResult {
    let mut out = FileResult {
        diagnostics: Vec::new(),
        checked: Vec::new(),
    };
    let (file, syntax_errors) = syntax::parse(source, text);
    // A block with a syntax error inside is not resolved: what the parser
    // patched over (an integer read as 0, a slot clamped) would only cause
    // follow-on errors.
    let broken: Vec<usize> = syntax_errors
        .iter()
        .filter_map(|e| e.labels().and_then(|mut l| l.next()).map(|l| l.offset()))
        .collect();
    if file.scenarios.is_empty() && syntax_errors.is_empty() {
        out.diagnostics
            .push(Box::new(syntax::SyntaxError::NoScenario {
                span: (0, 0).into(),
            }));
    }
    for e in syntax_errors {
        out.diagnostics.push(Box::new(e));
    }
    for ast in &file.scenarios {
        let (start, end) = (ast.span.start as usize, ast.span.end as usize);
        if broken.iter().any(|&o| start <= o && o < end) {
            continue;
        }
        match sema::resolve(ast) {
            Err(errors) => {
                for e in errors {
                    out.diagnostics.push(Box::new(e));
                }
            }
            Ok(scenario) => {
                let estimate = model::estimated_size(&scenario);
                if estimate > model::SIZE_LIMIT {
                    out.diagnostics
                        .push(Box::new(crate::analysis::CheckDiagnostic::TooLarge {
                            scenario: scenario.id.clone(),
                            estimate,
                            limit: model::SIZE_LIMIT,
                            span: scenario.id_span.into(),
                        }));
                    continue;
                }
                let model = model::lower(&scenario);
                let report = analysis::analyse(&scenario, &model, options);
                let diagnostics = report.diagnostics.clone();
                out.checked.push((
                    Checked {
                        scenario,
                        model,
                        report,
                    },
                    diagnostics,
                ));
            }
        }
    }
    out
}

/// Everything one run saw and found.
#[derive(Default)]
pub struct Run {
    pub sources: Sources,
    pub checked: Vec<Checked>,
    pub diagnostics: Vec<Diagnosed>,
    /// Paths found in a folder and passed over (not regular files), each
    /// with the reason: warnings for the command line to print.
    pub skipped: Vec<String>,
}

impl Run {
    pub fn new() -> Run {
        Run::default()
    }

    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }

    fn push(&mut self, source: SourceId, d: impl Diagnostic + Send + Sync + 'static) {
        self.diagnostics.push(Diagnosed {
            source,
            diagnostic: Box::new(d),
            fixes: Vec::new(),
        });
    }

    /// Parses, resolves, lowers and analyses one text.
    pub fn check_text(
        &mut self,
        name: impl Into<String>,
        text: impl Into<String>,
        options: &Options,
    ) {
        self.check_texts(vec![(name.into(), text.into())], options);
    }

    /// Checks several texts, in parallel over the machine's cores; the
    /// results are merged in input order, so the output does not depend on
    /// scheduling.
    pub fn check_texts(&mut self, texts: Vec<(String, String)>, options: &Options) {
        let ids: Vec<SourceId> = texts
            .iter()
            .map(|(n, t)| self.sources.add(n.clone(), t.clone()))
            .collect();
        let jobs: Vec<(SourceId, &str)> = ids
            .iter()
            .zip(&texts)
            .map(|(&id, (_, t))| (id, t.as_str()))
            .collect();
        let results = parallel_map(&jobs, |&(id, t)| check_one(id, t, options));
        for (id, result) in ids.into_iter().zip(results) {
            for d in result.diagnostics {
                self.diagnostics.push(Diagnosed {
                    source: id,
                    diagnostic: d,
                    fixes: Vec::new(),
                });
            }
            for (c, diagnostics) in result.checked {
                if self.checked.iter().any(|o| o.scenario.id == c.scenario.id) {
                    self.push(
                        id,
                        ResolveError::DuplicateScenario {
                            name: c.scenario.id.clone(),
                            span: c.scenario.id_span.into(),
                        },
                    );
                    continue;
                }
                for d in diagnostics {
                    self.push(id, d);
                }
                self.checked.push(c);
            }
        }
    }

    /// Checks every path: a file, or a folder searched recursively for `*.cici`.
    pub fn check_paths(
        &mut self,
        paths: &[PathBuf],
        options: &Options,
    ) -> Result<(), std::io::Error> {
        let mut texts = Vec::new();
        let found = seed_files(paths)?;
        self.skipped.extend(found.skipped);
        for file in found.files {
            let bytes = crate::io::read_input(&file)?;
            texts.push((
                file.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
        self.check_texts(texts, options);
        Ok(())
    }

    /// How many texts were loaded.
    pub fn sources_len(&self) -> usize {
        self.sources.len()
    }

    /// The name of the file a scenario came from.
    pub fn file_of(&self, c: &Checked) -> &str {
        self.sources
            .get(c.scenario.source)
            .map_or("", |f| f.name.as_str())
    }
}

/// Maps `f` over `items` on every core; results come back in input order,
/// so that nothing downstream depends on scheduling.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    parallel_map_n(items, cores, f)
}

/// [`parallel_map`] on at most `workers` threads.
pub fn parallel_map_n<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let workers = workers.max(1).min(items.len());
    if workers <= 1 {
        return items.iter().map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            });
        }
    });
    slots
        .into_iter()
        .map(|s| {
            s.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every item was mapped")
        })
        .collect()
}

/// The seed files under some paths, and what was passed over.
#[derive(Debug, Default)]
pub struct SeedFiles {
    /// Sorted, without duplicates.
    pub files: Vec<PathBuf>,
    /// `*.cici` entries in a folder that are not regular files (a FIFO, a
    /// device, a dangling link), with why: never opened, never waited on.
    pub skipped: Vec<String>,
}

/// The `*.cici` files under the given paths: a path named is read as it
/// is (and refused if it is not a regular file or folder); a folder is
/// searched recursively, without following linked folders.
pub fn seed_files(paths: &[PathBuf]) -> Result<SeedFiles, std::io::Error> {
    let mut out = SeedFiles::default();
    for p in paths {
        let meta = std::fs::metadata(p)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
        if meta.is_dir() {
            collect(p, &mut out)?;
        } else if meta.is_file() {
            out.files.push(p.clone());
        } else {
            return Err(crate::io::InputError::NotRegular {
                path: p.display().to_string(),
            }
            .into());
        }
    }
    out.files.sort();
    out.files.dedup();
    Ok(out)
}

fn collect(dir: &Path, out: &mut SeedFiles) -> Result<(), std::io::Error> {
    let context =
        |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display()));
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(context)?
        .collect::<Result<_, _>>()
        .map_err(context)?;
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let path = e.path();
        let kind = e.file_type().map_err(context)?;
        if kind.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "cici") {
            if crate::io::is_regular(&path) {
                out.files.push(path);
            } else {
                out.skipped
                    .push(format!("{}: skipped, not a regular file", path.display()));
            }
        }
    }
    Ok(())
}

/// A diagnostic as data: what `--format json` prints.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct DiagnosticRecord {
    pub severity: &'static str,
    pub code: String,
    pub message: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub help: Option<String>,
    pub labels: Vec<LabelRecord>,
    /// Verified fixes (present once fixes were computed).
    pub fixes: Vec<FixRecord>,
}

/// A fix-it of a diagnostic.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FixRecord {
    pub message: String,
    /// The only right answer: `cici check --fix` applies it.
    pub unambiguous: bool,
    pub edits: Vec<EditRecord>,
}

/// One edit of a fix: replace `length` bytes at `offset` (line and column
/// are 1-based, columns in characters).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EditRecord {
    pub line: usize,
    pub column: usize,
    pub offset: usize,
    pub length: usize,
    pub replacement: String,
}

/// A labelled span of a diagnostic.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LabelRecord {
    pub message: Option<String>,
    pub line: usize,
    pub column: usize,
    pub offset: usize,
    pub length: usize,
}

impl DiagnosticRecord {
    pub fn new(d: &Diagnosed, sources: &Sources) -> DiagnosticRecord {
        let diag = &d.diagnostic;
        let file = sources.get(d.source);
        let labels: Vec<LabelRecord> = diag
            .labels()
            .map(|ls| {
                ls.map(|l| {
                    let (line, column) = file.map_or((1, 1), |f| f.line_col(l.offset()));
                    LabelRecord {
                        message: l.label().map(str::to_string),
                        line,
                        column,
                        offset: l.offset(),
                        length: l.len(),
                    }
                })
                .collect()
            })
            .unwrap_or_default();
        let (line, column) = labels.first().map_or((1, 1), |l| (l.line, l.column));
        DiagnosticRecord {
            severity: if d.is_error() { "error" } else { "warning" },
            code: diag.code().map(|c| c.to_string()).unwrap_or_default(),
            message: diag.to_string(),
            file: file.map(|f| f.name.clone()).unwrap_or_default(),
            line,
            column,
            help: diag.help().map(|h| h.to_string()),
            labels,
            fixes: d
                .fixes
                .iter()
                .map(|f| FixRecord {
                    message: f.message.clone(),
                    unambiguous: f.unambiguous,
                    edits: f
                        .edits
                        .iter()
                        .map(|e| {
                            let (line, column) = file.map_or((1, 1), |f| f.line_col(e.offset));
                            EditRecord {
                                line,
                                column,
                                offset: e.offset,
                                length: e.length,
                                replacement: e.replacement.clone(),
                            }
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// One attribute in the JSON output.
#[derive(Clone, Debug, Serialize)]
pub struct AttributeRecord {
    pub id: String,
    pub class: crate::analysis::Class,
    pub holder: String,
    pub category: Option<crate::sema::Category>,
}

/// One scenario in the JSON output.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioRecord {
    pub id: String,
    pub file: String,
    pub family: crate::sema::Family,
    pub unique: bool,
    pub oracle_allowed: bool,
    pub trivial: Option<bool>,
    pub errors: usize,
    pub warnings: usize,
    pub attributes: Vec<AttributeRecord>,
}

/// What `cici check --format json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct CheckOutput {
    pub scenarios: Vec<ScenarioRecord>,
    pub diagnostics: Vec<DiagnosticRecord>,
    pub errors: usize,
    pub warnings: usize,
}

impl CheckOutput {
    pub fn new(run: &Run) -> CheckOutput {
        let scenarios = run
            .checked
            .iter()
            .map(|c| ScenarioRecord {
                id: c.scenario.id.clone(),
                file: run.file_of(c).to_string(),
                family: c.scenario.family,
                unique: c.report.unique,
                oracle_allowed: c.report.oracle_allowed,
                trivial: c.report.trivial,
                errors: c.report.errors(),
                warnings: c.report.warnings(),
                attributes: c
                    .scenario
                    .attributes
                    .iter()
                    .zip(&c.report.attributes)
                    .map(|(a, f)| AttributeRecord {
                        id: a.id.clone(),
                        class: f.class,
                        holder: c.scenario.people[a.holder].id.clone(),
                        category: a.category,
                    })
                    .collect(),
            })
            .collect();
        CheckOutput {
            scenarios,
            diagnostics: run
                .diagnostics
                .iter()
                .map(|d| DiagnosticRecord::new(d, &run.sources))
                .collect(),
            errors: run.errors(),
            warnings: run.warnings(),
        }
    }
}

/// A diagnostic paired with the text it points into, ready for any miette
/// report handler.
pub struct WithSource<'a> {
    pub diagnostic: &'a (dyn Diagnostic + Send + Sync + 'static),
    pub source: miette::NamedSource<String>,
    /// Fixes shown after the diagnostic's own help.
    pub fixes: &'a [crate::fixit::Fix],
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
        self.diagnostic.labels()
    }
}

impl Run {
    /// Every diagnostic with its source attached, in the order found.
    pub fn with_sources(&self) -> impl Iterator<Item = WithSource<'_>> {
        self.diagnostics.iter().map(|d| WithSource {
            diagnostic: d.diagnostic.as_ref(),
            fixes: &d.fixes,
            source: self
                .sources
                .get(d.source)
                .map(|f| f.named())
                .unwrap_or_else(|| miette::NamedSource::new("<derived>", String::new())),
        })
    }
}
