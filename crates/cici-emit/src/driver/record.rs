//! What a run found, as data: the records `cici check --format json`
//! prints.

use miette::Diagnostic;
use serde::Serialize;

use super::{Diagnosed, Run};
use crate::span::Sources;

/// A diagnostic as data: what `--format json` prints.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct DiagnosticRecord {
    /// `error` or `warning`, after lint levels: a denied warning is an
    /// error.
    pub severity: &'static str,
    /// Where that level came from: `default` (the code's own),
    /// `project_file`, `command_line` or `seed`.
    pub level_source: super::levels::LevelSource,
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
            level_source: d.level_source,
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
    /// With `check --timings`: where the scenario's time went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timings: Option<Timings>,
}

/// Where one scenario's check spent its time, in milliseconds.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Timings {
    /// Lowering the scenario to its constraint model.
    pub lower_ms: f64,
    /// The proofs: compiling the solver sessions, then uniqueness,
    /// triviality, relevance, necessity and traps.
    pub prove_ms: f64,
    /// All of the analyses: the proofs, the rule lints, the classes and
    /// the text lints.
    pub analyse_ms: f64,
    /// Solver calls.
    pub solves: u32,
}

impl Timings {
    /// The timings of one checked scenario.
    pub fn of(c: &super::Checked) -> Timings {
        // Microseconds are as fine as a wall clock says anything about.
        let ms = |d: std::time::Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
        Timings {
            lower_ms: ms(c.lowering),
            prove_ms: ms(c.report.proving),
            analyse_ms: ms(c.report.elapsed),
            solves: c.report.solves,
        }
    }
}

impl std::fmt::Display for Timings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "lower {:.2} ms, prove {:.2} ms ({} solver call{}), all analyses {:.2} ms",
            self.lower_ms,
            self.prove_ms,
            self.solves,
            if self.solves == 1 { "" } else { "s" },
            self.analyse_ms
        )
    }
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
    /// The report of a run, with each scenario's [`Timings`] when `timings`.
    pub fn new(run: &Run, timings: bool) -> CheckOutput {
        let scenarios = run
            .checked
            .iter()
            .map(|c| ScenarioRecord {
                id: c.scenario.id.clone(),
                file: run.file_of(c).to_string(),
                family: c.scenario.family(),
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
                timings: timings.then(|| Timings::of(c)),
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
