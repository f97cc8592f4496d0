//! inspect_ai logs, `.eval` archives (inspect's default, read by
//! [`super::eval_zip`]) or JSON (`inspect eval ... --log-format json`): per
//! model and scorer, the share of samples scored 1 (`C`, `1`, `true`) among
//! those scored 0 or 1, with a Wilson 95% interval.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::error::ReportError;
use super::{Figure, Series};

#[derive(Deserialize)]
struct Log {
    eval: Eval,
    #[serde(default)]
    samples: Option<Vec<Sample>>,
}

#[derive(Deserialize)]
struct Eval {
    model: String,
    task: String,
}

#[derive(Deserialize)]
struct Sample {
    #[serde(default)]
    scores: Option<BTreeMap<String, Scored>>,
}

#[derive(Deserialize)]
struct Scored {
    value: serde_json::Value,
}

/// One log, counted: per scorer, (samples scored 1, samples scored 0 or 1,
/// samples with another value).
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    pub model: String,
    pub task: String,
    pub scorers: BTreeMap<String, (usize, usize, usize)>,
}

/// A score as 0 or 1, if it is one.
fn binary(v: &serde_json::Value) -> Option<bool> {
    match v {
        serde_json::Value::String(s) if s == "C" => Some(true),
        serde_json::Value::String(s) if s == "I" => Some(false),
        serde_json::Value::Bool(b) => Some(*b),
        serde_json::Value::Number(n) => match n.as_f64() {
            Some(1.0) => Some(true),
            Some(0.0) => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// The files a `--logs` path names: the file, or a folder's `*.json` and
/// `*.eval` files (inspect's index of a folder, `logs.json`, left out).
fn files(path: &Path) -> Vec<PathBuf> {
    if !path.is_dir() {
        return vec![path.to_path_buf()];
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(path)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| {
        p.extension().is_some_and(|x| x == "json" || x == "eval")
            && p.file_name().is_some_and(|n| n != "logs.json")
    });
    out.sort();
    out
}

/// A `.eval` log's header.
#[derive(Deserialize)]
struct Header {
    eval: Eval,
}

/// Per scorer: (samples scored 1, samples scored 0 or 1, others).
type Tally = BTreeMap<String, (usize, usize, usize)>;

fn tally(scorers: &mut Tally, sample: Sample) {
    for (name, s) in sample.scores.unwrap_or_default() {
        let e = scorers.entry(name).or_default();
        match binary(&s.value) {
            Some(one) => {
                e.0 += usize::from(one);
                e.1 += 1;
            }
            None => e.2 += 1,
        }
    }
}

fn bad_log(file: String) -> impl Fn(serde_json::Error) -> ReportError {
    move |e| ReportError::BadLog {
        file: file.clone(),
        line: e.line(),
        column: e.column(),
        reason: e.to_string(),
    }
}

/// One log, counted: a `.eval` archive, or JSON.
fn read_one(file: &Path) -> Result<Counted, ReportError> {
    let mut scorers = Tally::new();
    let eval = if file.extension().is_some_and(|x| x == "eval") {
        let log = super::eval_zip::read(file)?;
        let at = |entry: &str| format!("{}!{entry}", file.display());
        let header: Header =
            serde_json::from_str(&log.header).map_err(bad_log(at("header.json")))?;
        for (name, text) in &log.samples {
            let sample: Sample = serde_json::from_str(text).map_err(bad_log(at(name)))?;
            tally(&mut scorers, sample);
        }
        header.eval
    } else {
        let text = super::load::read(file)?;
        let log: Log = serde_json::from_str(&text).map_err(bad_log(file.display().to_string()))?;
        for sample in log.samples.unwrap_or_default() {
            tally(&mut scorers, sample);
        }
        log.eval
    };
    Ok(Counted {
        model: eval.model,
        task: eval.task,
        scorers,
    })
}

/// Reads every log the paths name.
pub fn read_logs(paths: &[PathBuf]) -> Result<Vec<Counted>, ReportError> {
    paths
        .iter()
        .flat_map(|p| files(p))
        .map(|f| read_one(&f))
        .collect()
}

/// The reader `report` calls.
pub(super) fn read(paths: &[PathBuf]) -> Result<Vec<Counted>, ReportError> {
    read_logs(paths)
}

/// The rate k/n and its Wilson 95% score interval (0 for all three when n
/// is 0).
pub fn wilson(k: usize, n: usize) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 0.0);
    }
    let z = 1.959964_f64;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (
        p,
        (centre - half).clamp(0.0, p),
        (centre + half).clamp(p, 1.0),
    )
}

/// One figure per scorer: its rate per model, pooled over the model's logs.
pub fn figures(logs: &[Counted]) -> Vec<Figure> {
    let mut by: BTreeMap<&str, BTreeMap<&str, (usize, usize, usize)>> = BTreeMap::new();
    for log in logs {
        for (scorer, (k, n, other)) in &log.scorers {
            let e = by.entry(scorer).or_default().entry(&log.model).or_default();
            e.0 += k;
            e.1 += n;
            e.2 += other;
        }
    }
    by.into_iter()
        .map(|(scorer, models)| {
            let rates: Vec<(f64, f64, f64)> =
                models.values().map(|&(k, n, _)| wilson(k, n)).collect();
            let counts: Vec<String> = models
                .iter()
                .map(|(m, (k, n, other))| {
                    format!(
                        "{m}: {k}/{n}{}",
                        if *other > 0 {
                            format!(" ({other} not 0 or 1)")
                        } else {
                            String::new()
                        }
                    )
                })
                .collect();
            let what = match scorer {
                "leakage" | "leak_judge" => "leakage: share of samples with a leak",
                "utility" | "decision_match" | "yes_no" => {
                    "utility: share of samples answered right"
                }
                _ => "share of samples scored 1",
            };
            Figure {
                id: format!("models.{scorer}"),
                title: format!("{scorer} per model"),
                x_label: format!("{what} (Wilson 95% interval)"),
                y_label: "model".into(),
                categories: models.keys().map(|m| m.to_string()).collect(),
                series: vec![Series {
                    name: scorer.to_string(),
                    values: rates.iter().map(|r| r.0).collect(),
                    intervals: Some(rates.iter().map(|r| (r.1, r.2)).collect()),
                }],
                note: format!(
                    "Samples scored 0 or 1 by `{scorer}`, over every log of each model: {}.",
                    counts.join("; ")
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_python_metrics() {
        // cici_inspect.metrics.wilson(3, 10) = (0.3, 0.1077912, 0.6032219)
        let (p, lo, hi) = wilson(3, 10);
        assert_eq!(p, 0.3);
        assert!(
            (lo - 0.1077912).abs() < 1e-6 && (hi - 0.6032219).abs() < 1e-6,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 0.0, 0.0));
        let (p, _, hi) = wilson(5, 5);
        assert_eq!((p, hi), (1.0, 1.0));
    }
}
