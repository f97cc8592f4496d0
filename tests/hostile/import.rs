//! Bad input never becomes wrong data: an import whose seed has one
//! malformed rule once printed the error, wrote all 144 seeds anyway (12
//! with another oracle) and said "check them".

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::it::common::{cici, data, tempdir};

/// The UAS seed with its second rule's condition broken.
fn broken_seed(dir: &Path) -> std::path::PathBuf {
    let seed = data().join("pisas/seeds/uas_flight_readiness/seed.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&seed).unwrap()).unwrap();
    v["decision_policy"]["rules"][1]["when"] =
        serde_json::json!({"evidence": "no_such_variable", "is": "x"});
    let path = dir.join("seed.json");
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    std::fs::copy(
        seed.with_file_name("personal_context_library.json"),
        dir.join("personal_context_library.json"),
    )
    .unwrap();
    path
}

/// Configuration (as `var=state,...`) → oracle, from an import's map.
fn oracles(out: &Path) -> BTreeMap<String, String> {
    let map: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("import.json")).unwrap()).unwrap();
    map["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let config: Vec<String> = s["configuration"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap()))
                .collect();
            (config.join(","), s["oracle"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn a_seed_with_a_broken_rule_writes_nothing() {
    let (dir, out) = (tempdir("broken-rule"), tempdir("broken-rule-out"));
    let seed = broken_seed(&dir);
    let r = cici(&[
        "import",
        "pisas-seed",
        seed.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(stderr.contains("decision_policy.rules[1].when"), "{stderr}");
    assert!(
        stderr.contains("nothing written") && stderr.contains("--keep-going"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        0,
        "something was written"
    );
}

#[test]
fn keep_going_writes_only_configurations_the_broken_rule_cannot_change() {
    let (dir, out, intact) = (
        tempdir("keep-going"),
        tempdir("keep-going-out"),
        tempdir("keep-going-intact"),
    );
    let seed = broken_seed(&dir);
    let r = cici(&[
        "import",
        "pisas-seed",
        seed.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--keep-going",
    ]);
    assert_eq!(r.status.code(), Some(1), "errors still fail the run");
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(stderr.contains("left out"), "{stderr}");
    let good = data().join("pisas/seeds/uas_flight_readiness/seed.json");
    let r = cici(&[
        "import",
        "pisas-seed",
        good.to_str().unwrap(),
        "--out",
        intact.to_str().unwrap(),
    ]);
    assert!(r.status.success());
    let (kept, all) = (oracles(&out), oracles(&intact));
    assert!(
        !kept.is_empty() && kept.len() < all.len(),
        "{} of {}",
        kept.len(),
        all.len()
    );
    for (config, oracle) in &kept {
        assert_eq!(Some(oracle), all.get(config), "{config}: an oracle changed");
    }
    // Every seed and its map entry say what was dropped.
    let map: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("import.json")).unwrap()).unwrap();
    for s in map["scenarios"].as_array().unwrap() {
        let dropped = s["dropped"].as_array().unwrap();
        assert!(dropped
            .iter()
            .any(|d| d.as_str().unwrap().starts_with("decision_policy.rules[1]")));
        let text = std::fs::read_to_string(out.join(s["file"].as_str().unwrap())).unwrap();
        assert!(text.contains("# - decision_policy.rules[1]"), "{text}");
    }
    // What was written checks, and the map's oracles are the seeds'.
    let r = cici(&["check", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
}

#[test]
fn an_error_every_configuration_depends_on_writes_nothing_even_with_keep_going() {
    let (dir, out) = (tempdir("broken-vars"), tempdir("broken-vars-out"));
    let seed = broken_seed(&dir);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&seed).unwrap()).unwrap();
    v["decision_policy"]["rules"][1] = v["decision_policy"]["rules"][0].clone();
    v["generation_plan"]["invalid_configurations"] = serde_json::json!([{"nope": "x"}]);
    std::fs::write(&seed, serde_json::to_string(&v).unwrap()).unwrap();
    let r = cici(&[
        "import",
        "pisas-seed",
        seed.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--keep-going",
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        0,
        "something was written"
    );
}

#[test]
fn a_bundle_with_an_error_is_not_imported() {
    let (bundles, out, kept) = (
        tempdir("broken-bundle"),
        tempdir("broken-bundle-out"),
        tempdir("broken-bundle-kept"),
    );
    let r = cici(&[
        "export",
        "pisas",
        "seeds/",
        "--out",
        bundles.to_str().unwrap(),
    ]);
    assert!(r.status.success());
    std::fs::write(
        bundles.join("ops_scheduling/utility.json"),
        "{\"scenario_id\": ",
    )
    .unwrap();
    let r = cici(&[
        "import",
        "pisas-bundle",
        bundles.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
    let r = cici(&[
        "import",
        "pisas-bundle",
        bundles.to_str().unwrap(),
        "--out",
        kept.to_str().unwrap(),
        "--keep-going",
    ]);
    assert_eq!(r.status.code(), Some(1));
    let written: Vec<String> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        written.contains(&"payments_sprint.cici".to_string()),
        "{written:?}"
    );
    assert!(
        !written.contains(&"ops_scheduling.cici".to_string()),
        "{written:?}"
    );
}
