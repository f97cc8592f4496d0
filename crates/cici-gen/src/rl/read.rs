//! Reading a counterfactual folder's rows, each line held to the row's
//! type; a line that does not fit is reported at its line and column.

use std::path::{Path, PathBuf};

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use crate::counterfactual::Row;

/// Why a folder cannot be exported for reinforcement learning.
#[derive(Debug, Error, Diagnostic)]
pub enum RlError {
    /// The folder holds no counterfactual rows.
    ///
    /// ```text
    /// cici export rl generated/ --format verl --out rl/
    /// ```
    #[error("{folder}: not a counterfactual dataset (no decision/*.jsonl or flow/*.jsonl)")]
    #[diagnostic(
        code(cici::export::not_a_dataset),
        help("give a folder that `cici counterfactual --out DIR` wrote; a `cici build` folder holds no labelled items")
    )]
    NotADataset { folder: String },

    /// A line of a row file is not a counterfactual row.
    #[error(transparent)]
    #[diagnostic(transparent)]
    BadRow(Box<BadRow>),

    /// A side's seed no longer checks, so it has no proven contract.
    ///
    /// ```text
    /// (a row whose anchor_seed was edited by hand)
    /// ```
    #[error("{file}:{line}: the {side} seed of `{scenario}` does not check ({errors} error(s))")]
    #[diagnostic(
        code(cici::export::bad_seed),
        help("the ground truth is proven again from each side's seed; `cici check` the seed and grow the folder again")
    )]
    BadSeed {
        file: String,
        line: usize,
        side: String,
        scenario: String,
        errors: usize,
    },

    /// `--dpo` with a format that has no preference rows.
    ///
    /// ```text
    /// cici export rl data/ --format verl --dpo --out rl/
    /// ```
    #[error("--dpo writes preference pairs, which the {format} format does not read")]
    #[diagnostic(
        code(cici::export::dpo_format),
        help("use --format trl or --format openrlhf with --dpo")
    )]
    DpoFormat { format: String },

    #[error("{file}: cannot be read: {reason}")]
    #[diagnostic(
        code(cici::export::unreadable),
        help("the row files are read as UTF-8 text of at most 64 MiB each")
    )]
    Unreadable { file: String, reason: String },
}

/// A line of a row file that is not a counterfactual row, shown.
///
/// ```text
/// {"id": "x", "kind": "decision"}
/// ```
#[derive(Debug, Error, Diagnostic)]
#[error("{file}:{line}:{column}: not a counterfactual row: {reason}")]
#[diagnostic(
    code(cici::export::bad_row),
    help("each line of decision/*.jsonl and flow/*.jsonl is one row as `cici counterfactual` writes it; run it again to rewrite the folder")
)]
pub struct BadRow {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub reason: String,
    #[source_code]
    pub src: NamedSource<String>,
    #[label("here")]
    pub span: SourceSpan,
}

/// A side's proven label: the decision's rows (target, value), or the
/// flow's yes or no.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    Decision(Vec<(String, String)>),
    Flow(bool),
}

/// A row, its three labels (anchor, flipped, held) and where it stands.
#[derive(Clone, Debug)]
pub struct Located {
    pub row: Row,
    pub labels: [Label; 3],
    /// Per side, the answers a reader who honours one of its traps gives
    /// (traps that leave no decision left out).
    pub traps: [Vec<String>; 3],
    /// `train`, `validation` or `test`: the row's, or its file's name.
    pub split: String,
    pub file: String,
    pub line: usize,
}

/// The three sides of a row: name, item, answer, seed and traps (JSON).
pub fn sides(row: &Row) -> [(&'static str, &str, &str, &str, &str); 3] {
    [
        (
            "anchor",
            &row.anchor_item,
            &row.anchor_answer,
            &row.anchor_seed,
            &row.anchor_traps,
        ),
        (
            "flipped",
            &row.flipped_item,
            &row.flipped_answer,
            &row.flipped_seed,
            &row.flipped_traps,
        ),
        (
            "held",
            &row.held_item,
            &row.held_answer,
            &row.held_seed,
            &row.held_traps,
        ),
    ]
}

#[derive(serde::Deserialize)]
struct LabelText {
    decision: Option<Vec<RowText>>,
    flow: Option<bool>,
}

#[derive(serde::Deserialize)]
struct TrapText {
    honoured_answer: String,
}

#[derive(serde::Deserialize)]
struct RowText {
    target: String,
    value: String,
}

/// A label column read, held to its kind and, for a decision, to one line
/// of the answer per target.
fn label(kind: &str, text: &str, answer: &str) -> Result<Label, String> {
    let l: LabelText = serde_json::from_str(text).map_err(|e| format!("its label: {e}"))?;
    match (kind, l.decision, l.flow) {
        ("decision", Some(rows), None) if !rows.is_empty() => {
            let lines = answer.lines().filter(|l| !l.trim().is_empty()).count();
            if lines != rows.len() {
                return Err(format!(
                    "its answer has {lines} line(s) for {} target(s)",
                    rows.len()
                ));
            }
            Ok(Label::Decision(
                rows.into_iter().map(|r| (r.target, r.value)).collect(),
            ))
        }
        ("flow", None, Some(f)) => Ok(Label::Flow(f)),
        _ => Err(format!("its label `{text}` is not a {kind} label")),
    }
}

/// The honoured answers of a side's traps column (empty for flows).
fn trap_answers(text: &str) -> Result<Vec<String>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let traps: Vec<TrapText> = serde_json::from_str(text).map_err(|e| format!("its traps: {e}"))?;
    Ok(traps
        .into_iter()
        .map(|t| t.honoured_answer)
        .filter(|a| !a.is_empty())
        .collect())
}

fn labels(row: &Row) -> Result<[Label; 3], String> {
    let [a, f, h] = sides(row);
    let one = |(side, _, answer, _, _): (&str, &str, &str, &str, &str), text: &str| {
        label(&row.kind, text, answer).map_err(|e| format!("the {side} side: {e}"))
    };
    Ok([
        one(a, &row.anchor_label)?,
        one(f, &row.flipped_label)?,
        one(h, &row.held_label)?,
    ])
}

/// The rows of a folder, decision files first, each kind's files in name
/// order.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub rows: Vec<Located>,
}

fn row_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for kind in ["decision", "flow"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(kind))
            .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|x| x == "jsonl") && crate::io::is_regular(p));
        files.sort();
        out.extend(files);
    }
    out
}

/// What a bad row's excerpt shows: the line alone at its own number (the
/// lines before it blank, since every row is a long line), cut some way
/// past the column; and the column's offset in it.
fn excerpt(line: &str, number: usize, column: usize) -> (String, usize) {
    let mut end = column.saturating_add(120).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let before = number.saturating_sub(1);
    let at = (before + column.saturating_sub(1)).min(before + end);
    ("\n".repeat(before) + &line[..end], at)
}

/// The splits a row may be in.
pub const SPLITS: [&str; 3] = ["train", "validation", "test"];

/// A row's split: its own, or where it has none its file's name.
fn split_of(row: &Row, file: &Path) -> Result<String, String> {
    let split = if row.split.is_empty() {
        file.file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
    } else {
        row.split.clone()
    };
    if SPLITS.contains(&split.as_str()) {
        Ok(split)
    } else {
        Err(format!(
            "its split `{split}` is none of train, validation, test"
        ))
    }
}

/// Reads every row of the folder `dir`.
pub fn read(dir: &Path) -> Result<Dataset, RlError> {
    let files = row_files(dir);
    if files.is_empty() {
        return Err(RlError::NotADataset {
            folder: dir.display().to_string(),
        });
    }
    let mut data = Dataset::default();
    for file in files {
        let name = file.display().to_string();
        let text = crate::io::read_text(&file).map_err(|e| RlError::Unreadable {
            file: name.clone(),
            reason: e.to_string(),
        })?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |column: usize, reason: String| {
                let (shown, at) = excerpt(line, i + 1, column);
                RlError::BadRow(Box::new(BadRow {
                    file: name.clone(),
                    line: i + 1,
                    column,
                    reason,
                    span: (at, 0).into(),
                    src: NamedSource::new(name.clone(), shown),
                }))
            };
            let row: Row = serde_json::from_str(line).map_err(|e| {
                // The position is in the message already, counted in the file.
                let reason = e.to_string();
                let reason = reason.split(" at line ").next().unwrap_or_default();
                bad(e.column(), reason.to_string())
            })?;
            if row.kind != "decision" && row.kind != "flow" {
                return Err(bad(
                    1,
                    format!("kind `{}` is neither decision nor flow", row.kind),
                ));
            }
            let labels = labels(&row).map_err(|reason| bad(1, reason))?;
            let mut traps: [Vec<String>; 3] = Default::default();
            for (t, side) in traps.iter_mut().zip(sides(&row)) {
                *t = trap_answers(side.4).map_err(|reason| bad(1, reason))?;
            }
            let split = split_of(&row, &file).map_err(|reason| bad(1, reason))?;
            data.rows.push(Located {
                split,
                row,
                labels,
                traps,
                file: name.clone(),
                line: i + 1,
            });
        }
    }
    Ok(data)
}
