//! Output that scales: `build --conditions` and the packed layout.

use std::collections::BTreeMap;

use serde_json::Value;

use super::common::{cici, root, tempdir};
use cici::analysis::Options;
use cici::build::{self, Layout};
use cici::driver::Run;
use cici::render::{Condition, Templates};

fn seeds() -> Run {
    let mut run = Run::new();
    run.check_paths(&[root().join("seeds")], &Options::default())
        .unwrap();
    run
}

fn plan(layout: Layout, conditions: Vec<Condition>) -> build::Plan {
    let options = build::Options {
        layout,
        conditions,
        ..build::Options::default()
    };
    build::plan_with(&seeds(), &Templates::builtin(), &options)
}

/// Every text of the file layout, found again in the packed file by the
/// path the file layout gives it.
fn unpack(packed: &Value) -> BTreeMap<String, String> {
    let id = packed["scenario_id"].as_str().unwrap();
    let text = |v: &Value| v.as_str().unwrap().to_string();
    let mut out = BTreeMap::new();
    out.insert(format!("{id}/brief.md"), text(&packed["brief"]));
    out.insert(format!("{id}/gathered.md"), text(&packed["gathered"]));
    for (skill, t) in packed["stress"].as_object().unwrap() {
        out.insert(format!("{id}/stress/{skill}.md"), text(t));
    }
    for k in packed["conditions"].as_array().unwrap() {
        let name = k["name"].as_str().unwrap();
        let task = &packed["tasks"][k["rule"].as_str().unwrap()];
        out.insert(format!("{id}/{name}/task.md"), text(task));
        let knowledge = packed["knowledge"][k["cue"].as_str().unwrap()]
            .as_object()
            .unwrap();
        for (person, t) in knowledge {
            out.insert(format!("{id}/{name}/knowledge/{person}.md"), text(t));
        }
    }
    out
}

#[test]
fn the_packed_layout_holds_every_text_of_the_file_layout_in_two_files_a_scenario() {
    let files = plan(Layout::Files, vec![]);
    let packed = plan(Layout::Packed, vec![]);
    let schema: Value =
        serde_json::from_str(&packed.files["schema/artifacts.schema.json"]).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut rebuilt = BTreeMap::new();
    for id in &packed.built {
        let per_scenario: Vec<&String> = packed
            .files
            .keys()
            .filter(|p| p.starts_with(&format!("{id}/")))
            .collect();
        assert_eq!(per_scenario.len(), 2, "{id}: {per_scenario:?}");
        let value: Value =
            serde_json::from_str(&packed.files[&format!("{id}/artifacts.json")]).unwrap();
        assert!(validator.is_valid(&value), "{id}");
        assert_eq!(value["conditions"].as_array().unwrap().len(), 12);
        rebuilt.extend(unpack(&value));
        assert_eq!(
            packed.files[&format!("{id}/scenario.json")],
            files.files[&format!("{id}/scenario.json")]
        );
    }
    let rendered: BTreeMap<String, String> = files
        .files
        .iter()
        .filter(|(p, _)| p.ends_with(".md") && p.contains('/'))
        .map(|(p, t)| (p.clone(), t.clone()))
        .collect();
    assert_eq!(rebuilt.len(), rendered.len());
    assert!(
        rebuilt == rendered,
        "the packed texts differ from the files"
    );
}

#[test]
fn conditions_choose_what_is_rendered() {
    let chosen = vec![
        Condition::from_name("combined-none").unwrap(),
        Condition::from_name("none-strict").unwrap(),
    ];
    let plan = plan(Layout::Files, chosen.clone());
    let id = &plan.built[0];
    let folders: std::collections::BTreeSet<&str> = plan
        .files
        .keys()
        .filter_map(|p| p.strip_prefix(&format!("{id}/")))
        .filter_map(|p| p.split_once('/').map(|(dir, _)| dir))
        .filter(|dir| *dir != "stress")
        .collect();
    assert_eq!(
        folders.into_iter().collect::<Vec<_>>(),
        ["combined-none", "none-strict"]
    );
    // A condition named twice is rendered once, in the order first given.
    let twice = Condition::from_name("none-strict").unwrap();
    let packed = self::plan(Layout::Packed, vec![twice, chosen[0], twice]);
    let value: Value =
        serde_json::from_str(&packed.files[&format!("{}/artifacts.json", packed.built[0])])
            .unwrap();
    let names: Vec<&str> = value["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["none-strict", "combined-none"]);
    let r = cici(&["build", "--check", "--conditions", "none-loose"]);
    assert_eq!(r.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains("`none-loose` is not a condition") && stderr.contains("combined-policy"),
        "{stderr}"
    );
}

#[test]
fn build_writes_the_packed_layout_and_prunes_the_file_layout() {
    let out = tempdir("scale-build");
    let o = out.to_str().unwrap();
    let r = cici(&["build", "seeds/payments_sprint.cici", "--out", o]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(out.join("payments_sprint/none-strict/task.md").is_file());
    let r = cici(&[
        "build",
        "seeds/payments_sprint.cici",
        "--out",
        o,
        "--layout",
        "packed",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let mut left: Vec<String> = std::fs::read_dir(out.join("payments_sprint"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["artifacts.json", "scenario.json"]);
}
