//! `cici report`: a dataset folder drawn. A counterfactual folder (the rows
//! under `decision/` and `flow/`) and a `build` folder (`*/scenario.json`)
//! are read into figures per family ([`Figure`]: bars with named series,
//! optional intervals), which are drawn as inline SVG with `plotters` and
//! laid out as one self-contained HTML page, or written as JSON.
//!
//! Stages: [`load::folder`] reads the folder (rows, scenario shapes),
//! [`figures::family`] counts, [`baselines`] scores the shortcut baselines,
//! [`logs`] reads inspect_ai logs (`.eval` archives through [`eval_zip`], or
//! JSON), [`svg`] draws and [`html`] lays out.

pub mod baselines;
mod error;
pub mod eval_zip;
pub mod figures;
pub mod html;
pub mod load;
pub mod logs;
pub mod svg;
pub mod text;

pub use error::ReportError;

use serde::Serialize;

/// One named series of bar values, one per category of its figure, with
/// the interval around each value where it has one.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Series {
    pub name: String,
    pub values: Vec<f64>,
    /// Lower and upper bounds (a Wilson 95% interval), one per value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intervals: Option<Vec<(f64, f64)>>,
}

/// A horizontal bar chart: one band per category along the vertical axis,
/// one bar per series in each band, the values along the horizontal axis.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Figure {
    /// Unique within the report: `<family>.<what>`.
    pub id: String,
    pub title: String,
    /// The horizontal axis: what the values count or measure.
    pub x_label: String,
    /// The vertical axis: what the categories are.
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<Series>,
    /// How the figure was computed, in one or two sentences.
    pub note: String,
}

impl Figure {
    /// A figure of one series.
    pub fn single(id: String, title: String, axes: (&str, &str), bars: Vec<(String, f64)>) -> Self {
        let (categories, values) = bars.into_iter().unzip();
        Figure {
            id,
            title,
            x_label: axes.0.to_string(),
            y_label: axes.1.to_string(),
            categories,
            series: vec![Series {
                name: axes.0.to_string(),
                values,
                intervals: None,
            }],
            note: String::new(),
        }
    }

    /// The same figure with its note.
    pub fn noted(mut self, note: impl Into<String>) -> Self {
        self.note = note.into();
        self
    }
}

/// The figures of one family.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FamilySection {
    pub family: String,
    pub scenarios: usize,
    pub rows: usize,
    pub figures: Vec<Figure>,
}

/// Everything the page shows, and the JSON `--json` writes.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Report {
    /// The folder as given.
    pub folder: String,
    /// What was found there: `counterfactual`, `build` or both.
    pub sources: Vec<String>,
    pub rows: usize,
    pub scenarios: usize,
    pub families: Vec<FamilySection>,
    /// Leakage and utility per model, from the logs given; empty without.
    pub models: Vec<Figure>,
    /// The logs read.
    pub logs: usize,
}

/// Reads the folder (and the logs) and computes every figure.
pub fn report(
    folder: &std::path::Path,
    log_paths: &[std::path::PathBuf],
) -> Result<Report, ReportError> {
    let data = load::folder(folder)?;
    let families = figures::sections(&data);
    let logs = logs::read(log_paths)?;
    let models = logs::figures(&logs);
    Ok(Report {
        folder: folder.display().to_string(),
        sources: data.sources.clone(),
        rows: data.rows.len(),
        scenarios: data.shapes.len(),
        families,
        models,
        logs: logs.len(),
    })
}
