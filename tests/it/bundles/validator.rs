//! The checks the PiSAs release's validator documents, re-implemented here
//! from its stated rules, not its code: one function per group of rules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Map, Value};

/// What the validator reports for one bundle.
#[derive(Default)]
struct Report {
    errors: Vec<String>,
    warnings: Vec<String>,
}

/// The bundle's four files, by name; a missing or unreadable one is an
/// error and stops the rest.
fn read_files(dir: &Path, report: &mut Report) -> BTreeMap<&'static str, Value> {
    let mut files = BTreeMap::new();
    for f in [
        "scenario.json",
        "utility.json",
        "visibility.json",
        "appropriateness.json",
    ] {
        match std::fs::read_to_string(dir.join(f))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        {
            Some(v) => {
                files.insert(f, v);
            }
            None => report.errors.push(format!("{f} missing or not JSON")),
        }
    }
    files
}

/// The cast's names, whether the cast is a map or a list.
fn cast_names(scenario: &Value) -> BTreeSet<String> {
    let name = |c: &Value| c["name"].as_str().map(str::to_string);
    match &scenario["cast"] {
        Value::Object(m) => m.values().filter_map(name).collect(),
        Value::Array(a) => a.iter().filter_map(name).collect(),
        _ => BTreeSet::new(),
    }
}

/// The three files list the same attribute ids, with known labels.
fn check_ids(values: &Map<String, Value>, appr: &Value, vis: &Value, report: &mut Report) {
    let ids: BTreeSet<&String> = values.keys().collect();
    if ids.is_empty() {
        report.errors.push("no attribute_values".into());
    }
    for (label, other) in [("appropriateness", appr), ("visibility", vis)] {
        let theirs: BTreeSet<&String> = other
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        if theirs != ids {
            report
                .errors
                .push(format!("{label} ids differ from utility's"));
        }
    }
    for (id, l) in appr.as_object().unwrap() {
        if l != "appropriate" && l != "inappropriate" {
            report.errors.push(format!("{id}: label {l}"));
        }
    }
}

/// Every attribute is carried by an artifact of the timeline, or names one
/// as its source.
fn check_carried(timeline: &[Value], values: &Map<String, Value>, report: &mut Report) {
    let carried: BTreeSet<String> = timeline
        .iter()
        .flat_map(|a| ["attributes", "attribute_ids", "carries", "reveals"].map(|k| a[k].clone()))
        .filter_map(|v| v.as_array().cloned())
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    let artifacts: BTreeSet<String> = timeline
        .iter()
        .filter_map(|a| a["id"].as_str().map(str::to_string))
        .collect();
    if carried.is_empty() {
        report.warnings.push("no artifact lists attributes".into());
        return;
    }
    for (id, v) in values {
        let sourced = v["source"].as_str().is_some_and(|s| artifacts.contains(s));
        if !carried.contains(id) && !sourced {
            report.errors.push(format!("{id} carried by no artifact"));
        }
    }
}

/// Each attribute's holder sees it, no name is both shown and hidden, and
/// every name is of the cast.
fn check_visibility(vis: &Value, cast: &BTreeSet<String>, report: &mut Report) {
    for (id, v) in vis.as_object().unwrap() {
        let holder = v["holder"].as_str().unwrap_or_default().to_string();
        let set = |k: &str| -> BTreeSet<String> {
            v[k].as_array()
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        };
        let (visible, hidden) = (set("visible_to"), set("hidden_from"));
        if cast.contains(&holder) && !visible.contains(&holder) {
            report
                .errors
                .push(format!("{id}: holder not in visible_to"));
        } else if !cast.contains(&holder) {
            report
                .warnings
                .push(format!("{id}: holder outside the cast"));
        }
        if visible.intersection(&hidden).next().is_some() {
            report
                .errors
                .push(format!("{id}: a name in both visible_to and hidden_from"));
        }
        if visible.union(&hidden).any(|n| !cast.contains(n)) {
            report
                .warnings
                .push(format!("{id}: names outside the cast"));
        }
        if hidden.is_empty() {
            report.warnings.push(format!("empty hidden_from: {id}"));
        }
    }
}

/// The oracle is an allowed answer, and a decision rule is stated.
fn check_answers(utility: &Value, report: &mut Report) {
    let allowed: Vec<&Value> = utility["allowed_answers"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    if allowed.is_empty() || !allowed.contains(&&utility["oracle_answer"]) {
        report.errors.push("oracle outside allowed_answers".into());
    }
    if utility["decision_rule"]
        .as_str()
        .is_none_or(|s| s.trim().is_empty())
    {
        report.warnings.push("no decision_rule".into());
    }
}

/// The executor is a participant of the cast who does not hold every
/// appropriate attribute, and the task is stated somewhere.
fn check_task(files: &BTreeMap<&str, Value>, cast: &BTreeSet<String>, report: &mut Report) {
    let (scenario, vis, appr) = (
        &files["scenario.json"],
        &files["visibility.json"]["attributes"],
        &files["appropriateness.json"]["attributes"],
    );
    let task = &scenario["task"];
    let role = task["executor_role"].as_str().unwrap_or_default();
    match task["participants"].get(role) {
        None => report
            .errors
            .push("executor_role is not a participant".into()),
        Some(p) => {
            let executor = p["name"].as_str().unwrap_or_default();
            if !cast.contains(executor) {
                report.errors.push("executor not in the cast".into());
            } else if holds_every_appropriate(appr, vis, executor) {
                report
                    .warnings
                    .push("the executor holds every appropriate attribute".into());
            }
        }
    }
    let timeline = scenario["timeline"].as_array().cloned().unwrap_or_default();
    let task_artifact = timeline.iter().any(|a| {
        a["type"] == "task" && a["content"].as_str().is_some_and(|c| !c.trim().is_empty())
    });
    if task["description"]
        .as_str()
        .is_none_or(|d| d.trim().is_empty())
        && !task_artifact
    {
        report.errors.push("no task instruction".into());
    }
}

/// Whether `executor` holds every appropriate attribute (and there is one).
fn holds_every_appropriate(appr: &Value, vis: &Value, executor: &str) -> bool {
    let appropriate: Vec<&String> = appr
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, l)| *l == "appropriate")
        .map(|(k, _)| k)
        .collect();
    !appropriate.is_empty()
        && appropriate
            .iter()
            .all(|a| vis[a.as_str()]["holder"] == executor)
}

/// Both labels occur.
fn check_labels(appr: &Value, report: &mut Report) {
    for label in ["inappropriate", "appropriate"] {
        if !appr.as_object().unwrap().values().any(|l| l == label) {
            report.warnings.push(format!("no {label} attribute"));
        }
    }
}

/// What the release's validator reports for one bundle: (errors, warnings).
pub(crate) fn validate(dir: &Path) -> (Vec<String>, Vec<String>) {
    let mut report = Report::default();
    let files = read_files(dir, &mut report);
    if !report.errors.is_empty() {
        return (report.errors, report.warnings);
    }
    let (scenario, utility) = (&files["scenario.json"], &files["utility.json"]);
    let vis = &files["visibility.json"]["attributes"];
    let appr = &files["appropriateness.json"]["attributes"];
    let cast = cast_names(scenario);
    let values = utility["attribute_values"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    check_ids(&values, appr, vis, &mut report);
    let timeline = scenario["timeline"].as_array().cloned().unwrap_or_default();
    check_carried(&timeline, &values, &mut report);
    check_visibility(vis, &cast, &mut report);
    check_answers(utility, &mut report);
    check_task(&files, &cast, &mut report);
    check_labels(appr, &mut report);
    (report.errors, report.warnings)
}
