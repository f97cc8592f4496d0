//! The figures of each family, counted from the rows and the scenario
//! shapes. Every count here is a plain count of what the folder holds; the
//! JSON report carries the same numbers the page draws.

use std::collections::BTreeMap;

use super::baselines;
use super::load::{Data, Shape};
use super::text::distinct_n;
use super::{FamilySection, Figure, Series};
use crate::counterfactual::Row;

/// The family order of the page: the language's, then any other.
const FAMILIES: [&str; 4] = [
    "meeting_allocation",
    "jira_allocation",
    "severity_classification",
    "policy_decision",
];

/// How many distinct decision answers a label figure shows before the rest
/// are pooled.
const TOP_ANSWERS: usize = 8;

/// One section per family with rows or scenarios.
pub fn sections(data: &Data) -> Vec<FamilySection> {
    let mut names: Vec<&str> = FAMILIES.to_vec();
    for n in data
        .rows
        .iter()
        .map(|r| r.family.as_str())
        .chain(data.shapes.iter().map(|s| s.family.as_str()))
    {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
        .into_iter()
        .filter_map(|f| {
            let rows: Vec<&Row> = data.rows.iter().filter(|r| r.family == f).collect();
            let shapes: Vec<&Shape> = data.shapes.iter().filter(|s| s.family == f).collect();
            (!rows.is_empty() || !shapes.is_empty()).then(|| family(f, &rows, &shapes))
        })
        .collect()
}

/// The figures of one family.
pub fn family(name: &str, rows: &[&Row], shapes: &[&Shape]) -> FamilySection {
    let mut figures = Vec::new();
    if !shapes.is_empty() {
        figures.extend(shape_figures(name, shapes));
    }
    if !rows.is_empty() {
        figures.extend(label_figures(name, rows));
        figures.push(edit_kinds(name, rows));
        figures.push(variety(name, rows));
        figures.extend(baseline_figure(name, rows));
    }
    FamilySection {
        family: name.to_string(),
        scenarios: shapes.len(),
        rows: rows.len(),
        figures,
    }
}

fn counts<'a>(values: impl Iterator<Item = &'a str>) -> Vec<(String, f64)> {
    let mut m: BTreeMap<&str, f64> = BTreeMap::new();
    for v in values {
        *m.entry(v).or_default() += 1.0;
    }
    m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

fn shape_figures(f: &str, shapes: &[&Shape]) -> Vec<Figure> {
    let classes = counts(
        shapes
            .iter()
            .flat_map(|s| s.classes.iter().map(String::as_str)),
    );
    let categories = counts(
        shapes
            .iter()
            .flat_map(|s| s.categories.iter().map(String::as_str)),
    );
    let per: Vec<usize> = shapes.iter().map(|s| s.raw + s.sanitized).collect();
    let (lo, hi) = (
        per.iter().min().copied().unwrap_or(0),
        per.iter().max().copied().unwrap_or(0),
    );
    let histogram = histogram(&per, lo, hi);
    let balance = vec![
        (
            "raw".to_string(),
            shapes.iter().map(|s| s.raw).sum::<usize>() as f64,
        ),
        (
            "sanitized".to_string(),
            shapes.iter().map(|s| s.sanitized).sum::<usize>() as f64,
        ),
    ];
    let n = shapes.len();
    vec![
        Figure::single(format!("{f}.classes"), format!("{f}: attribute classes"), ("attributes", "class"), classes)
            .noted(format!("Each attribute of the {n} scenario(s) once, in the class the prover gives it.")),
        Figure::single(format!("{f}.categories"), format!("{f}: attribute categories"), ("attributes", "category"), categories)
            .noted("Each attribute once; `none` where the seed gives no category."),
        Figure::single(format!("{f}.forms_per_scenario"), format!("{f}: forms per scenario"), ("scenarios", "forms (raw and sanitized)"), histogram)
            .noted("How many scenarios have each number of forms: an attribute's raw form, plus its sanitized one where it has one."),
        Figure::single(format!("{f}.raw_sanitized"), format!("{f}: raw and sanitized forms"), ("forms", "form"), balance)
            .noted("Every form of every scenario of the family."),
    ]
}

/// Scenarios per number of forms, in at most `MAX_BINS` bins of equal
/// width (`13-15` holds 13, 14 and 15).
fn histogram(per: &[usize], lo: usize, hi: usize) -> Vec<(String, f64)> {
    const MAX_BINS: usize = 12;
    let width = (hi - lo) / MAX_BINS + 1;
    (lo..=hi)
        .step_by(width)
        .map(|start| {
            let end = (start + width - 1).min(hi);
            let n = per.iter().filter(|&&p| (start..=end).contains(&p)).count();
            let name = if start == end {
                start.to_string()
            } else {
                format!("{start}-{end}")
            };
            (name, n as f64)
        })
        .collect()
}

fn sides(r: &Row) -> [(&'static str, &str); 3] {
    [
        ("anchor", r.anchor_answer.as_str()),
        ("flipped", r.flipped_answer.as_str()),
        ("held", r.held_answer.as_str()),
    ]
}

fn label_figures(f: &str, rows: &[&Row]) -> Vec<Figure> {
    let mut out = Vec::new();
    let flows: Vec<&&Row> = rows.iter().filter(|r| r.kind == "flow").collect();
    if !flows.is_empty() {
        let cats = ["anchor", "flipped", "held"];
        let series = ["yes", "no"]
            .iter()
            .map(|label| Series {
                name: label.to_string(),
                values: cats
                    .iter()
                    .enumerate()
                    .map(|(i, _)| flows.iter().filter(|r| sides(r)[i].1 == *label).count() as f64)
                    .collect(),
                intervals: None,
            })
            .collect();
        out.push(Figure {
            id: format!("{f}.flow_labels"),
            title: format!("{f}: flow labels by side"),
            x_label: "items".into(),
            y_label: "side of the triplet".into(),
            categories: cats.iter().map(|c| c.to_string()).collect(),
            series,
            note: format!(
                "The answer of each side of the {} flow row(s).",
                flows.len()
            ),
        });
    }
    let decisions: Vec<&&Row> = rows.iter().filter(|r| r.kind == "decision").collect();
    if !decisions.is_empty() {
        let answers = counts(decisions.iter().flat_map(|r| sides(r).map(|(_, a)| a)));
        let distinct = answers.len();
        let mut sorted = answers;
        sorted.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let rest: f64 = sorted.iter().skip(TOP_ANSWERS).map(|(_, n)| n).sum();
        let mut bars: Vec<(String, f64)> = sorted
            .into_iter()
            .take(TOP_ANSWERS)
            .map(|(a, n)| (one_line(&a), n))
            .collect();
        if rest > 0.0 {
            bars.push((format!("{} other answers", distinct - TOP_ANSWERS), rest));
        }
        out.push(
            Figure::single(format!("{f}.decision_labels"), format!("{f}: decision answers"), ("items", "answer"), bars)
                .noted(format!(
                    "The answers of all three sides of the {} decision row(s): {distinct} distinct, {}.",
                    decisions.len(),
                    if distinct > TOP_ANSWERS { format!("the {TOP_ANSWERS} most common drawn apart") } else { "each drawn apart".to_string() }
                )),
        );
    }
    out
}

/// An answer on one line, cut to 48 characters.
fn one_line(answer: &str) -> String {
    let flat = answer.replace('\n', " / ");
    if flat.chars().count() > 48 {
        format!("{}…", flat.chars().take(47).collect::<String>())
    } else {
        flat
    }
}

/// The edit operations of a side, each once.
fn ops(edits: &str) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Op {
        op: String,
    }
    let mut v: Vec<String> = serde_json::from_str::<Vec<Op>>(edits)
        .map(|e| e.into_iter().map(|o| o.op).collect())
        .unwrap_or_default();
    v.sort();
    v.dedup();
    v
}

fn edit_kinds(f: &str, rows: &[&Row]) -> Figure {
    let flipped: Vec<Vec<String>> = rows.iter().map(|r| ops(&r.flipped_edits)).collect();
    let held: Vec<Vec<String>> = rows.iter().map(|r| ops(&r.held_edits)).collect();
    let mut kinds: Vec<&String> = flipped.iter().chain(&held).flatten().collect();
    kinds.sort();
    kinds.dedup();
    let series = [("flipped", &flipped), ("held", &held)]
        .map(|(name, sides)| Series {
            name: name.to_string(),
            values: kinds
                .iter()
                .map(|k| sides.iter().filter(|s| s.contains(k)).count() as f64)
                .collect(),
            intervals: None,
        })
        .to_vec();
    Figure {
        id: format!("{f}.edit_kinds"),
        title: format!("{f}: flip and hold kinds"),
        x_label: "rows".into(),
        y_label: "edit operation".into(),
        categories: kinds.into_iter().cloned().collect(),
        series,
        note: "Rows whose flipped (or held) side uses each edit operation; a side of several operations counts under each.".into(),
    }
}

fn variety(f: &str, rows: &[&Row]) -> Figure {
    let kinds: Vec<&str> = ["decision", "flow"]
        .into_iter()
        .filter(|k| rows.iter().any(|r| r.kind == *k))
        .collect();
    let series = kinds
        .iter()
        .map(|k| {
            let texts = rows.iter().filter(|r| r.kind == *k).flat_map(|r| {
                [
                    r.anchor_item.as_str(),
                    r.flipped_item.as_str(),
                    r.held_item.as_str(),
                ]
            });
            Series {
                name: format!("{k} items"),
                values: distinct_n(texts, &[2, 3]),
                intervals: None,
            }
        })
        .collect();
    Figure {
        id: format!("{f}.distinct_n"),
        title: format!("{f}: text variety of the items"),
        x_label: "distinct n-grams / all n-grams".into(),
        y_label: "n-gram".into(),
        categories: vec!["distinct-2".into(), "distinct-3".into()],
        series,
        note: "Over every side's item text: Unicode words, lower-cased, as the privacy checks read them; n-grams do not cross items.".into(),
    }
}

fn baseline_figure(f: &str, rows: &[&Row]) -> Option<Figure> {
    let mut categories = Vec::new();
    let (mut accuracy, mut chance) = (Vec::new(), Vec::new());
    let mut notes = Vec::new();
    for kind in ["decision", "flow"] {
        let of: Vec<&Row> = rows.iter().copied().filter(|r| r.kind == kind).collect();
        let items = baselines::items(&of);
        let Some(scores) = baselines::scores(&items, kind) else {
            if !of.is_empty() {
                notes.push(format!("{kind}: too few seeds to split"));
            }
            continue;
        };
        if let Some(s) = scores.first() {
            notes.push(format!(
                "{kind}: trained on {} items, scored on {}",
                s.train_items, s.test_items
            ));
        }
        for s in scores {
            categories.push(format!("{kind}: {}", s.baseline));
            accuracy.push(s.accuracy);
            chance.push(s.chance);
        }
    }
    if categories.is_empty() {
        return None;
    }
    Some(Figure {
        id: format!("{f}.baselines"),
        title: format!("{f}: shortcut baselines against chance"),
        x_label: "accuracy on the test half".into(),
        y_label: "baseline".into(),
        categories,
        series: vec![
            Series { name: "accuracy".into(), values: accuracy, intervals: None },
            Series { name: "chance".into(), values: chance, intervals: None },
        ],
        note: format!(
            "Computed here from the rows (no baselines file is read): seeds split in halves by a hash of their id; majority = the training half's most common answer, words = naive Bayes over the statement (flows) or the item (decisions), groups = `yes` iff the recipient's team line shows groups. Chance: a uniform guess among the test half's answers. {}.",
            notes.join("; ")
        ),
    })
}
