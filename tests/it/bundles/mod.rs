//! `cici export pisas`: every seed's bundle passes the checks the release's
//! validator documents (re-implemented here from its stated rules, not its
//! code), and carries every form with its text, label and visibility.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use super::common::{cici, root, tempdir};

mod validator;

use validator::validate;

/// The validator's checks pass on the bundle in `dir`: no error, and no
/// warning but an empty `hidden_from` on a form everyone may see.
pub(super) fn assert_accepted(dir: &Path) {
    let (errors, warnings) = validate(dir);
    assert!(errors.is_empty(), "{}: {errors:?}", dir.display());
    assert!(
        warnings.iter().all(|w| w.starts_with("empty hidden_from")),
        "{}: {warnings:?}",
        dir.display()
    );
}

#[test]
fn every_seed_exports_a_bundle_the_validator_accepts() {
    let out = tempdir("bundles");
    let r = cici(&["export", "pisas", "seeds/", "--out", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let seeds = std::fs::read_dir(root().join("seeds")).unwrap().count();
    let check = cici(&["check", "--format", "json", "seeds/"]);
    let report: Value = serde_json::from_slice(&check.stdout).unwrap();
    let mut bundles = 0;
    for s in report["scenarios"].as_array().unwrap() {
        let id = s["id"].as_str().unwrap();
        let dir = out.join(id);
        let (errors, warnings) = validate(&dir);
        assert!(errors.is_empty(), "{id}: {errors:?}");
        let vis: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("visibility.json")).unwrap())
                .unwrap();
        let cast_size = vis["attributes"]
            .as_object()
            .unwrap()
            .values()
            .next()
            .map(|v| {
                v["visible_to"].as_array().unwrap().len()
                    + v["hidden_from"].as_array().unwrap().len()
            });
        for w in &warnings {
            // The one warning allowed: a form everyone may see.
            let form = w
                .strip_prefix("empty hidden_from: ")
                .unwrap_or_else(|| panic!("{id}: {w}"));
            assert_eq!(
                vis["attributes"][form]["visible_to"]
                    .as_array()
                    .unwrap()
                    .len(),
                cast_size.unwrap(),
                "{id}: {w}"
            );
        }
        bundles += 1;
    }
    assert_eq!(bundles, seeds);
}

#[test]
fn bundles_carry_every_form_with_its_text_label_and_visibility() {
    let out = tempdir("bundles-forms");
    let r = cici(&["export", "pisas", "seeds/", "--out", out.to_str().unwrap()]);
    assert!(r.status.success());
    let mut run = cici::driver::Run::new();
    run.check_paths(&[root().join("seeds")], &cici::analysis::Options::default())
        .unwrap();
    for c in &run.checked {
        let sc = &c.scenario;
        let dir = out.join(&sc.id);
        let read = |f: &str| -> Value {
            serde_json::from_str(&std::fs::read_to_string(dir.join(f)).unwrap()).unwrap()
        };
        let (utility, appr, vis) = (
            read("utility.json"),
            read("appropriateness.json"),
            read("visibility.json"),
        );
        let mut forms = 0;
        let ids = bundle_ids(&utility);
        for a in &sc.attributes {
            for (kind, form) in a.forms() {
                let id = ids[&a.form_id(kind)].clone();
                forms += 1;
                assert_eq!(
                    utility["attribute_values"][&id]["value"],
                    form.text.as_str(),
                    "{id}"
                );
                let label = if form.appropriate {
                    "appropriate"
                } else {
                    "inappropriate"
                };
                assert_eq!(appr["attributes"][&id], label, "{id}");
                let visible: BTreeSet<String> = vis["attributes"][&id]["visible_to"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect();
                let want: BTreeSet<String> = form
                    .visible
                    .iter()
                    .map(|&p| sc.people[p].name.clone())
                    .collect();
                assert_eq!(visible, want, "{id}");
            }
        }
        assert_eq!(
            utility["attribute_values"].as_object().unwrap().len(),
            forms
        );
        assert_eq!(
            utility["oracle_answer"].as_str().unwrap(),
            match &sc.oracle {
                cici::sema::Decision::Rule(l) => sc.rule_setting().unwrap().levels[*l].id.as_str(),
                cici::sema::Decision::Jira(_) => "correct_assignment",
                cici::sema::Decision::Meeting(_) => "correct_schedule",
            }
        );
    }
}

/// `utility.json`'s `cici.ids` turned round: each cici form id with the
/// neutral id its bundle gives it.
fn bundle_ids(utility: &Value) -> BTreeMap<String, String> {
    utility["cici"]["ids"]
        .as_object()
        .expect("cici.ids")
        .iter()
        .map(|(b, f)| (f.as_str().unwrap().to_string(), b.clone()))
        .collect()
}

/// Ids are neutral, as the release's are: no bundle id names what its form
/// is about, and `cici.ids` maps every one back to its form.
#[test]
fn bundle_ids_are_neutral_and_map_back_to_every_form() {
    let out = tempdir("bundles-ids");
    let r = cici(&["export", "pisas", "seeds/", "--out", out.to_str().unwrap()]);
    assert!(r.status.success());
    let mut run = cici::driver::Run::new();
    run.check_paths(&[root().join("seeds")], &cici::analysis::Options::default())
        .unwrap();
    for c in &run.checked {
        let dir = out.join(&c.scenario.id);
        let read = |f: &str| -> Value {
            serde_json::from_str(&std::fs::read_to_string(dir.join(f)).unwrap()).unwrap()
        };
        let (utility, scenario) = (read("utility.json"), read("scenario.json"));
        let ids = bundle_ids(&utility);
        let forms: usize = c
            .scenario
            .attributes
            .iter()
            .map(|a| a.forms().count())
            .sum();
        assert_eq!(ids.len(), forms);
        let neutral = |id: &str| {
            id.strip_prefix('a')
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        for id in utility["attribute_values"].as_object().unwrap().keys() {
            assert!(neutral(id), "{id}");
        }
        // The notes name their forms by the same ids.
        for artifact in scenario["timeline"].as_array().unwrap() {
            for id in artifact["attributes"].as_array().into_iter().flatten() {
                assert!(neutral(id.as_str().unwrap()), "{id}");
            }
        }
    }
}

/// Every form of every scenario: (form id, text, label, visible names).
fn forms(
    run: &cici::driver::Run,
) -> BTreeMap<String, (String, String, bool, BTreeSet<String>, String)> {
    let mut out = BTreeMap::new();
    for (c, r) in run.checked.iter().map(|c| (c, &c.report)) {
        let sc = &c.scenario;
        for (a, f) in sc.attributes.iter().zip(&r.attributes) {
            for (kind, form) in a.forms() {
                out.insert(
                    format!("{}/{}", sc.id, a.form_id(kind)),
                    (
                        format!("{:?}", sc.oracle),
                        form.text.clone(),
                        form.appropriate,
                        form.visible
                            .iter()
                            .map(|&p| sc.people[p].name.clone())
                            .collect(),
                        f.class.name().to_string(),
                    ),
                );
            }
        }
    }
    out
}

#[test]
fn importing_an_export_gives_back_the_same_scenarios() {
    let (bundles, back) = (tempdir("rt-bundles"), tempdir("rt-back"));
    let r = cici(&[
        "export",
        "pisas",
        "seeds/",
        "--out",
        bundles.to_str().unwrap(),
    ]);
    assert!(r.status.success());
    // A label edited in the bundle comes back edited.
    let appr_path = bundles.join("ops_scheduling/appropriateness.json");
    let mut appr: Value =
        serde_json::from_str(&std::fs::read_to_string(&appr_path).unwrap()).unwrap();
    let utility: Value = serde_json::from_str(
        &std::fs::read_to_string(bundles.join("ops_scheduling/utility.json")).unwrap(),
    )
    .unwrap();
    let breakup = bundle_ids(&utility)["eli_breakup"].clone();
    appr["attributes"][&breakup] = Value::from("appropriate");
    std::fs::write(&appr_path, serde_json::to_string(&appr).unwrap()).unwrap();
    let r = cici(&[
        "import",
        "pisas-bundle",
        bundles.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let options = cici::analysis::Options::default();
    let (mut a, mut b) = (cici::driver::Run::new(), cici::driver::Run::new());
    a.check_paths(&[root().join("seeds")], &options).unwrap();
    b.check_paths(std::slice::from_ref(&back), &options)
        .unwrap();
    assert_eq!(b.errors(), 0);
    let (mut fa, fb) = (forms(&a), forms(&b));
    let edited = fa.get_mut("ops_scheduling/eli_breakup").unwrap();
    assert!(!edited.2);
    edited.2 = true;
    assert_eq!(fa.len(), fb.len());
    for (k, va) in &fa {
        let vb = &fb[k];
        assert_eq!(
            (&va.0, &va.1, va.2, &va.3),
            (&vb.0, &vb.1, vb.2, &vb.3),
            "{k}"
        );
    }
    let map: Value =
        serde_json::from_str(&std::fs::read_to_string(back.join("import.json")).unwrap()).unwrap();
    for s in map["scenarios"].as_array().unwrap() {
        assert!(s["source"]
            .as_str()
            .unwrap()
            .starts_with(bundles.to_str().unwrap()));
        let dir = std::path::Path::new(s["source"].as_str().unwrap());
        let utility: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("utility.json")).unwrap())
                .unwrap();
        let ids = bundle_ids(&utility);
        for (id, src) in s["attributes"].as_object().unwrap() {
            assert_eq!(src["bundle"], Value::from(ids[id].as_str()), "{id}");
        }
    }
}

#[test]
fn imported_task_family_scenarios_export_valid_bundles() {
    let (seeds, bundles) = (tempdir("tf-seeds"), tempdir("tf-bundles"));
    let seed = super::common::data().join("pisas/seeds/inpatient_discharge/seed.json");
    let r = cici(&[
        "import",
        "pisas-seed",
        seed.to_str().unwrap(),
        "--out",
        seeds.to_str().unwrap(),
        "--count",
        "8",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = cici(&[
        "export",
        "pisas",
        seeds.to_str().unwrap(),
        "--out",
        bundles.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let mut n = 0;
    for e in std::fs::read_dir(&bundles).unwrap() {
        let dir = e.unwrap().path();
        if !dir.is_dir() {
            continue; // the export's manifest
        }
        assert_accepted(&dir);
        n += 1;
    }
    assert_eq!(n, 8);
}

/// A bundle in the shape the release's generator writes for a task-family
/// seed, built here from the seed's own texts: the required evidence in its
/// clean rewrite, the entangled detail paired with it, decoys, personal
/// context, and unscored evidence only in the notes' text.
fn release_shaped_bundle(dir: &Path, seed: &Value) {
    let names = [
        "Ada Moss",
        "Ben Ortiz",
        "Cleo Park",
        "Dev Rao",
        "Eva Lind",
        "Finn Cole",
        "Gia Ross",
        "Hal Diaz",
    ];
    let roles: Vec<(String, String)> = std::iter::once(&seed["participants"]["executor"])
        .chain(seed["participants"]["roles"].as_array().unwrap())
        .chain(std::iter::once(&seed["participants"]["subject"]))
        .map(|r| {
            (
                r["role_id"].as_str().unwrap().to_string(),
                r["title"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let name_of = |role: &str| -> String {
        let i = roles.iter().position(|(k, _)| k == role).unwrap_or(0);
        names[i].to_string()
    };
    let everyone: Vec<String> = roles.iter().map(|(k, _)| name_of(k)).collect();
    let fill = |t: &str| t.replace("{operator}", &name_of("operator"));
    let config = &seed["generation_plan"]["coverage_cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["expected_outcome"] == "resolve_speed")
        .unwrap()["evidence_states"];
    let var = &seed["evidence_variables"]["maximum_groundspeed"];
    let entangled = var["states"][config["maximum_groundspeed"].as_str().unwrap()]
        ["surface_realizations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "privacy_entangled")
        .unwrap();
    let holder = name_of(var["holder_role"].as_str().unwrap());
    let executor = name_of(&roles[0].0);
    let mut values = serde_json::Map::new();
    let mut labels = serde_json::Map::new();
    let mut vis = serde_json::Map::new();
    let mut add = |id: &str, v: Value, appropriate: bool, holder: &str, visible: Vec<String>| {
        let hidden: Vec<&String> = everyone.iter().filter(|n| !visible.contains(n)).collect();
        vis.insert(id.into(), serde_json::json!({"value": v["value"], "kind": "source", "holder": holder, "visible_to": visible, "hidden_from": hidden}));
        labels.insert(
            id.into(),
            Value::from(if appropriate {
                "appropriate"
            } else {
                "inappropriate"
            }),
        );
        values.insert(id.into(), v);
    };
    add(
        "a1",
        serde_json::json!({"value": fill(entangled["clean_rewrite"].as_str().unwrap()), "type": "required", "variable": "maximum_groundspeed", "category": config["maximum_groundspeed"], "source": "art_note"}),
        true,
        &holder,
        vec![holder.clone(), executor.clone()],
    );
    add(
        "a2",
        serde_json::json!({"value": fill(entangled["embedded_inappropriate_detail"]["text"].as_str().unwrap()), "type": "trap_critical", "paired_source": "a1", "source": "art_note"}),
        false,
        &holder,
        vec![holder.clone()],
    );
    for (i, d) in seed["decision_decoys"]
        .as_array()
        .unwrap()
        .iter()
        .take(3)
        .enumerate()
    {
        let h = name_of(d["holder_role"].as_str().unwrap());
        add(
            &format!("a{}", i + 3),
            serde_json::json!({"value": fill(d["text"].as_str().unwrap()), "type": "trap_decoy", "pushes": d["pushes_outcome"], "source": "art_note"}),
            false,
            &h,
            vec![h.clone()],
        );
    }
    add(
        "a6",
        serde_json::json!({"value": format!("{} is moving house next month.", names[2]), "type": "personal", "source": "art_note"}),
        false,
        names[2],
        vec![names[2].to_string()],
    );
    let cast: serde_json::Map<String, Value> = roles
        .iter()
        .enumerate()
        .map(|(i, (k, title))| {
            (
                format!("c{}", i + 1),
                serde_json::json!({"name": name_of(k), "role": title}),
            )
        })
        .collect();
    let scenario = serde_json::json!({
        "scenario_id": "uas_release_shaped",
        "task": {"description": seed["task"]["description"], "executor_role": roles[0].0, "participants": {roles[0].0.clone(): {"name": executor, "role": roles[0].1, "cast_id": "c1"}}},
        "cast": cast,
        "timeline": [{"id": "art_note", "type": "artifact", "author": holder, "visible_to": [holder], "content": "notes", "attributes": values.keys().collect::<Vec<_>>()}],
    });
    let utility = serde_json::json!({
        "allowed_answers": seed["outcomes"], "oracle_answer": "resolve_speed", "decision_rule": "first match",
        "categories": config, "attribute_values": values,
    });
    std::fs::create_dir_all(dir).unwrap();
    for (f, v) in [
        ("scenario.json", scenario),
        ("utility.json", utility),
        (
            "appropriateness.json",
            serde_json::json!({"attributes": labels}),
        ),
        ("visibility.json", serde_json::json!({"attributes": vis})),
    ] {
        std::fs::write(dir.join(f), serde_json::to_string_pretty(&v).unwrap()).unwrap();
    }
}

#[test]
fn a_bundle_of_a_task_family_imports_with_its_seed() {
    let seed_path = super::common::data().join("pisas/seeds/uas_flight_readiness/seed.json");
    let seed: Value = serde_json::from_str(&std::fs::read_to_string(&seed_path).unwrap()).unwrap();
    let (work, out) = (tempdir("release-bundle"), tempdir("release-out"));
    let bundle = work.join("uas_release_shaped");
    release_shaped_bundle(&bundle, &seed);
    // Without the seed, the rules are unknown: a diagnostic, not a guess.
    let r = cici(&[
        "import",
        "pisas-bundle",
        bundle.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("--seed"));
    let r = cici(&[
        "import",
        "pisas-bundle",
        bundle.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--seed",
        seed_path.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let mut run = cici::driver::Run::new();
    run.check_paths(
        &[out.join("uas_release_shaped.cici")],
        &cici::analysis::Options::default(),
    )
    .unwrap();
    assert_eq!(run.errors(), 0);
    let c = &run.checked[0];
    assert!(c.report.unique);
    assert_eq!(
        cici::printer::decision_rows(&c.scenario, &c.scenario.oracle)[0].1,
        "resolve_speed"
    );
    // The paired detail is the raw form of the required evidence, which is
    // critical; the decoys are traps or benign, the personal item irrelevant.
    let classes: BTreeMap<String, String> = c
        .scenario
        .attributes
        .iter()
        .zip(&c.report.attributes)
        .map(|(a, f)| (a.id.clone(), f.class.name().to_string()))
        .collect();
    assert_eq!(classes.len(), 5, "{classes:?}");
    assert_eq!(classes["a2"], "critical");
    assert!(!c.scenario.attributes[0].raw.appropriate);
    assert_eq!(classes["a6"], "irrelevant");
    for d in ["a3", "a4", "a5"] {
        assert!(
            ["trap", "benign"].contains(&classes[d].as_str()),
            "{d}: {classes:?}"
        );
    }
}
