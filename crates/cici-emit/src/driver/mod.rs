//! The whole pipeline over a set of files: what `cici check` runs.
//!
//! In: paths or texts. Out: a [`Run`] holding every source, every scenario
//! that resolved (with its model and report) and every diagnostic, each
//! tied to its source so it can be rendered or exported.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use miette::Diagnostic;

pub mod config;
pub mod excerpt;
pub mod levels;
mod problem;
mod record;
mod render;

pub use levels::{Level, LevelError, LevelSource, Levels};
pub use problem::Problem;
pub use record::{
    AttributeRecord, CheckOutput, DiagnosticRecord, EditRecord, FixRecord, LabelRecord,
    ScenarioRecord, Timings,
};
pub use render::{FileReport, WithSource};

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
    /// How long lowering the scenario to its model took.
    pub lowering: std::time::Duration,
}

/// Whether the task of a checked scenario needs one form of an attribute
/// (`analysis::form_needed` on its parts).
pub fn form_needed(c: &Checked, attribute: usize, kind: crate::sema::FormKind) -> bool {
    analysis::form_needed(&c.scenario, &c.report, &c.model, attribute, kind)
}

/// One way to resolve a diagnostic: a set of edits to its file.
#[derive(Clone, Debug, serde::Serialize, PartialEq, Eq)]
pub struct Fix {
    pub message: String,
    /// The only right answer: `cici check --fix` applies it.
    pub unambiguous: bool,
    pub edits: Vec<crate::span::Edit>,
}

/// A diagnostic and the source it points into.
pub struct Diagnosed {
    pub source: SourceId,
    pub diagnostic: Problem,
    /// Verified fixes, once `compute_fixes` (`authoring::fixit::Fixes`)
    /// has run.
    pub fixes: Vec<Fix>,
    /// A warning whose lint level is `deny`: it counts as an error.
    pub denied: bool,
    /// Where its level came from.
    pub level_source: LevelSource,
}

impl Diagnosed {
    pub fn is_error(&self) -> bool {
        self.diagnostic.is_error() || self.denied
    }
}

/// What checking one text produced, before it joins a [`Run`].
struct FileResult {
    diagnostics: Vec<Problem>,
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
            .push(Problem::Syntax(syntax::SyntaxError::NoScenario {
                span: (0, 0).into(),
            }));
    }
    out.diagnostics
        .extend(syntax_errors.into_iter().map(Problem::Syntax));
    for ast in &file.scenarios {
        let (start, end) = (ast.span.start as usize, ast.span.end as usize);
        if broken.iter().any(|&o| start <= o && o < end) {
            continue;
        }
        match sema::resolve(ast) {
            Err(errors) => {
                out.diagnostics
                    .extend(errors.into_iter().map(Problem::Resolve));
            }
            Ok(scenario) => {
                let estimate = model::estimated_size(&scenario);
                if estimate > model::SIZE_LIMIT {
                    out.diagnostics.push(Problem::Check(
                        crate::analysis::CheckDiagnostic::TooLarge {
                            scenario: scenario.id.clone(),
                            estimate,
                            limit: model::SIZE_LIMIT,
                            span: scenario.id_span.into(),
                        },
                    ));
                    continue;
                }
                let lowering = std::time::Instant::now();
                let model = model::lower(&scenario);
                let lowering = lowering.elapsed();
                let report = analysis::analyse(&scenario, &model, options);
                let diagnostics = report.diagnostics.clone();
                out.checked.push((
                    Checked {
                        scenario,
                        model,
                        report,
                        lowering,
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

    /// Adds a diagnostic of `source` at its default level: the checks of
    /// later layers (the judge) add theirs so.
    pub fn push(&mut self, source: SourceId, d: impl Into<Problem>) {
        self.diagnostics.push(Diagnosed {
            source,
            diagnostic: d.into(),
            fixes: Vec::new(),
            denied: false,
            level_source: LevelSource::Default,
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
        let (first_checked, first_diagnostic) = (self.checked.len(), self.diagnostics.len());
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
        // The ids taken so far, so that a duplicate is found without a scan
        // of every scenario before it (quadratic on a large corpus).
        let mut taken: HashSet<String> =
            self.checked.iter().map(|c| c.scenario.id.clone()).collect();
        for (id, result) in ids.into_iter().zip(results) {
            for d in result.diagnostics {
                self.diagnostics.push(Diagnosed {
                    source: id,
                    diagnostic: d,
                    fixes: Vec::new(),
                    denied: false,
                    level_source: LevelSource::Default,
                });
            }
            for (c, diagnostics) in result.checked {
                if !taken.insert(c.scenario.id.clone()) {
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
        self.apply_seed_levels(first_checked, first_diagnostic);
    }

    /// Checks every path: a file, or a folder searched recursively for `*.cici`.
    pub fn check_paths(
        &mut self,
        paths: &[PathBuf],
        options: &Options,
    ) -> Result<(), std::io::Error> {
        let mut texts = Vec::new();
        let mut not_text = Vec::new();
        let found = seed_files(paths)?;
        self.skipped.extend(found.skipped);
        for file in found.files {
            let name = file.display().to_string();
            match String::from_utf8(crate::io::read_input(&file)?) {
                Ok(text) => texts.push((name, text)),
                Err(e) => not_text.push((name, e)),
            }
        }
        self.check_texts(texts, options);
        // Not UTF-8: reported with the offset of the first bad byte and
        // left out, while the other files are checked. The text kept for
        // the excerpt is the same up to that byte.
        for (name, e) in not_text {
            let offset = e.utf8_error().valid_up_to();
            let shown = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let id = self.sources.add(name, shown);
            self.push(
                id,
                crate::syntax::SyntaxError::NotUtf8 {
                    offset,
                    span: (offset, 1).into(),
                },
            );
        }
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
    if items.len() <= 1 {
        return items.iter().map(f).collect();
    }
    parallel_map_n(items, cores(), f)
}

/// The cores this process may run on, asked once: the standard library
/// reads the cgroup's files for it at every call, three files opened and
/// read, and the counterfactual loop checks each of its variants alone.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
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

/// Maps `items` on at most `workers` threads that live for the whole map,
/// so that each thread's allocator heap and per-thread caches stay warm
/// from one item to the next, and hands each result to `sink` in the
/// items' order as soon as it and every one before it are done. Items are
/// started in order; none is started once `stop` says so or `sink` has
/// failed, and the first error of `sink` is returned. What is handed on
/// depends only on the items, never on scheduling.
pub fn parallel_in_order<T: Sync, R: Send, E>(
    items: &[T],
    workers: usize,
    f: impl Fn(&T) -> R + Sync,
    stop: impl Fn() -> bool + Sync,
    mut sink: impl FnMut(&T, R) -> Result<(), E>,
) -> Result<(), E> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    let workers = workers.max(1).min(items.len());
    if workers <= 1 {
        for item in items {
            if stop() {
                break;
            }
            sink(item, f(item))?;
        }
        return Ok(());
    }
    let (next, failed) = (AtomicUsize::new(0), AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, failed, f, stop) = (&next, &failed, &f, &stop);
            scope.spawn(move || loop {
                if failed.load(Relaxed) || stop() {
                    break;
                }
                let i = next.fetch_add(1, Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send((i, f(item))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut done = std::collections::BTreeMap::new();
        let mut at = 0;
        for (i, r) in rx {
            done.insert(i, r);
            while let Some(r) = done.remove(&at) {
                if let Err(e) = sink(&items[at], r) {
                    failed.store(true, Relaxed);
                    return Err(e);
                }
                at += 1;
            }
        }
        Ok(())
    })
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
