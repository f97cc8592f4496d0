//! The folder read: the rows of every counterfactual folder in it (the
//! folder itself, or one level down, as `generated/counterfactuals`) and
//! the scenario records of a build (`*/scenario.json`). Where no build
//! record is there, each scenario's shape is proven from the anchor seed of
//! its first row, so the classes always come from the prover.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::error::ReportError;
use crate::counterfactual::Row;

/// What the figures are counted from.
#[derive(Clone, Debug, Default)]
pub struct Data {
    /// `counterfactual`, `build`, or both.
    pub sources: Vec<String>,
    pub rows: Vec<Row>,
    pub shapes: Vec<Shape>,
}

/// One scenario's attributes and forms, as proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub scenario: String,
    pub family: String,
    /// One class per attribute.
    pub classes: Vec<String>,
    /// One category per attribute; `none` where it has none.
    pub categories: Vec<String>,
    pub raw: usize,
    pub sanitized: usize,
}

/// Reads `dir`.
pub fn folder(dir: &Path) -> Result<Data, ReportError> {
    let mut data = Data::default();
    let counterfactuals = counterfactual_folders(dir);
    for cf in &counterfactuals {
        let mut budget = crate::io::FolderBudget::new(cf);
        for file in row_files(cf) {
            let text = budget.read_text(&file).map_err(|e| unreadable(&file, e))?;
            data.rows.extend(parse_rows(&file, &text)?);
        }
    }
    let records = scenario_records(dir);
    if !counterfactuals.is_empty() {
        data.sources.push("counterfactual".into());
    }
    if !records.is_empty() {
        data.sources.push("build".into());
        for file in &records {
            data.shapes.push(record(file)?);
        }
    } else if !data.rows.is_empty() {
        data.shapes = proven_shapes(&data.rows, dir)?;
    }
    if data.sources.is_empty() {
        return Err(ReportError::NotAnOutput {
            folder: dir.display().to_string(),
        });
    }
    Ok(data)
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.sort();
    out
}

fn has_rows(dir: &Path) -> bool {
    ["decision", "flow"].iter().any(|k| dir.join(k).is_dir())
}

/// `dir` itself when it holds rows, else its child folders that do.
fn counterfactual_folders(dir: &Path) -> Vec<PathBuf> {
    if has_rows(dir) {
        return vec![dir.to_path_buf()];
    }
    sorted_entries(dir)
        .into_iter()
        .filter(|p| p.is_dir() && has_rows(p))
        .collect()
}

/// Every `*.jsonl` under `decision/` and `flow/`, in name order.
fn row_files(dir: &Path) -> Vec<PathBuf> {
    ["decision", "flow"]
        .iter()
        .flat_map(|k| sorted_entries(&dir.join(k)))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect()
}

fn scenario_records(dir: &Path) -> Vec<PathBuf> {
    sorted_entries(dir)
        .into_iter()
        .map(|p| p.join("scenario.json"))
        .filter(|p| crate::io::is_regular(p))
        .collect()
}

fn unreadable(file: &Path, e: crate::io::InputError) -> ReportError {
    ReportError::Unreadable {
        file: file.display().to_string(),
        reason: e.to_string(),
    }
}

pub(super) fn read(file: &Path) -> Result<String, ReportError> {
    crate::io::read_text(file).map_err(|e| unreadable(file, e))
}

/// The rows of one JSON Lines file's text; blank lines are skipped.
fn parse_rows(file: &Path, text: &str) -> Result<Vec<Row>, ReportError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |column: usize, reason: String| ReportError::BadRow {
            file: file.display().to_string(),
            line: i + 1,
            column,
            reason,
        };
        let row: Row = serde_json::from_str(line).map_err(|e| bad(e.column(), e.to_string()))?;
        if row.kind != "decision" && row.kind != "flow" {
            return Err(bad(
                1,
                format!("kind `{}` is neither decision nor flow", row.kind),
            ));
        }
        if row.family.is_empty() {
            return Err(bad(1, "the row names no family".into()));
        }
        out.push(row);
    }
    Ok(out)
}

#[derive(Deserialize)]
struct Record {
    id: String,
    family: String,
    forms: Vec<FormRecord>,
}

#[derive(Deserialize)]
struct FormRecord {
    attribute: String,
    form: String,
    category: Option<String>,
    class: String,
}

/// A build's scenario record as a shape: an attribute's class and category
/// are its first form's.
fn record(file: &Path) -> Result<Shape, ReportError> {
    let text = read(file)?;
    let r: Record = serde_json::from_str(&text).map_err(|e| ReportError::BadScenario {
        file: file.display().to_string(),
        line: e.line(),
        column: e.column(),
        reason: e.to_string(),
    })?;
    let mut shape = Shape {
        scenario: r.id,
        family: r.family,
        classes: vec![],
        categories: vec![],
        raw: 0,
        sanitized: 0,
    };
    let mut seen = std::collections::BTreeSet::new();
    for f in &r.forms {
        if f.form == "sanitized" {
            shape.sanitized += 1;
        } else {
            shape.raw += 1;
        }
        if seen.insert(f.attribute.as_str()) {
            shape.classes.push(f.class.clone());
            shape
                .categories
                .push(f.category.clone().unwrap_or_else(|| "none".into()));
        }
    }
    Ok(shape)
}

/// Each scenario's anchor seed (of its first row), proven.
fn proven_shapes(rows: &[Row], dir: &Path) -> Result<Vec<Shape>, ReportError> {
    let mut seen = std::collections::BTreeSet::new();
    let texts: Vec<(String, String)> = rows
        .iter()
        .filter(|r| seen.insert(r.scenario.as_str()))
        .map(|r| (r.scenario.clone(), r.anchor_seed.clone()))
        .collect();
    let mut run = crate::driver::Run::new();
    run.check_texts(texts.clone(), &crate::analysis::Options::default());
    let mut out = Vec::new();
    for (name, _) in &texts {
        let Some(c) = run.checked.iter().find(|c| run.file_of(c) == name) else {
            return Err(ReportError::BadSeed {
                file: dir.display().to_string(),
                scenario: name.clone(),
                errors: run.errors(),
            });
        };
        let sc = &c.scenario;
        let forms = sc.attributes.iter().flat_map(|a| a.forms());
        let sanitized = forms
            .filter(|(k, _)| *k == crate::sema::FormKind::Sanitized)
            .count();
        out.push(Shape {
            scenario: name.clone(),
            family: sc.family().name().to_string(),
            classes: c
                .report
                .attributes
                .iter()
                .map(|f| f.class.name().to_string())
                .collect(),
            categories: sc
                .attributes
                .iter()
                .map(|a| a.category.map_or("none", |c| c.name()).to_string())
                .collect(),
            raw: sc.attributes.len(),
            sanitized,
        });
    }
    Ok(out)
}
