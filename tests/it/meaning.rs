//! Bundles whose scores mean what the release's mean: checks of meaning,
//! beside the validator's checks of shape (`bundles.rs`).
//!
//! - No answer label of an allocation family appears in a text an agent
//!   reads (the task, the brief, the notes, the attribute values).
//! - No decision rule gives the oracle: a rule-based family's rule names
//!   its outcomes only in the id mapping and is the same for every
//!   configuration of one setting; an allocation family's rule names
//!   every label, each as a comparison with the oracle.
//! - Every id in a decision rule is shown by its name.
//! - The two forms of an attribute are described differently.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::common::{cici, data, root, tempdir};

fn read(dir: &Path, file: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap()
}

/// Whether `word` stands in `text` as a whole word (ids are `[a-z0-9_]`).
fn has_word(text: &str, word: &str) -> bool {
    let t = text.to_lowercase();
    let w = word.to_lowercase();
    let mut from = 0;
    while let Some(i) = t[from..].find(&w) {
        let (start, end) = (from + i, from + i + w.len());
        let before = t[..start].chars().next_back();
        let after = t[end..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if edge(before) && edge(after) {
            return true;
        }
        from = end;
    }
    false
}

/// Every text of a bundle an agent reads.
fn agent_texts(scenario: &Value, utility: &Value) -> Vec<String> {
    let mut out = vec![
        scenario["task"]["description"]
            .as_str()
            .unwrap()
            .to_string(),
        scenario["description"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    ];
    for a in scenario["timeline"].as_array().unwrap() {
        out.push(a["content"].as_str().unwrap().to_string());
    }
    for v in utility["attribute_values"].as_object().unwrap().values() {
        out.push(v["value"].as_str().unwrap().to_string());
    }
    out
}

/// The ids a seed declares that differ from every word of their display
/// name: (id, name).
fn ids_and_names(seed: &str) -> Vec<(String, String)> {
    let run = super::common::check("bundle.cici", seed);
    let sc = &run.checked[0].scenario;
    let mut out: Vec<(String, String)> = sc
        .people
        .iter()
        .map(|p| (p.id.clone(), p.name.clone()))
        .collect();
    if let Some(ms) = sc.meeting_setting() {
        out.extend(ms.meetings.iter().map(|m| (m.id.clone(), m.title.clone())));
        out.extend(
            ms.rooms
                .iter()
                .filter_map(|r| Some((r.id.clone(), r.name.clone()?))),
        );
    }
    if let Some(js) = sc.jira_setting() {
        out.extend(js.tickets.iter().map(|t| (t.id.clone(), t.title.clone())));
    }
    if let Some(ss) = sc.rule_setting() {
        out.extend(
            ss.evidence
                .iter()
                .map(|e| (e.id.clone(), e.id.replace('_', " "))),
        );
    }
    out.retain(|(id, name)| !name.split_whitespace().any(|w| w.eq_ignore_ascii_case(id)));
    out
}

/// Every problem of meaning in one bundle.
fn meaning(dir: &Path) -> Vec<String> {
    let (scenario, utility) = (read(dir, "scenario.json"), read(dir, "utility.json"));
    let mut problems = Vec::new();
    let allowed: Vec<String> = utility["allowed_answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let oracle = utility["oracle_answer"].as_str().unwrap();
    let rule = utility["decision_rule"].as_str().unwrap();
    let allocation =
        utility.get("oracle_schedule").is_some() || utility.get("oracle_assignment").is_some();
    if allocation {
        for text in agent_texts(&scenario, &utility) {
            for label in &allowed {
                if has_word(&text, label) || has_word(&text, &label.replace('_', " ")) {
                    problems.push(format!("answer label {label} in agent text: {text}"));
                }
            }
        }
        for label in &allowed {
            if !rule.contains(&format!("Return '{label}'")) {
                problems.push(format!("the rule does not grade {label} as a comparison"));
            }
        }
    } else {
        // The mapping of names to ids ("'sev 1 critical' is sev_1_critical")
        // is the one place the rule names an outcome by id.
        let mapped = allowed.iter().fold(rule.to_string(), |r, a| {
            r.replace(&format!("'{}' is {a}", a.replace('_', " ")), "<mapped>")
        });
        // A word of the rule may be an outcome's name ("ready if all checks
        // pass"); naming it as the answer, quoted, gives it away. That the
        // rule does not depend on the oracle at all is held across the
        // configurations of one setting below.
        for quoted in [format!("'{oracle}'"), format!("\"{oracle}\"")] {
            if mapped.contains(&quoted) {
                problems.push(format!("the rule gives the oracle {quoted}: {rule}"));
            }
        }
        for giveaway in ["correct outcome", "the answer is", "oracle"] {
            if rule.to_lowercase().contains(giveaway) {
                problems.push(format!("the rule says `{giveaway}`: {rule}"));
            }
        }
    }
    let seed = utility["cici"]["seed"].as_str().unwrap();
    for (id, name) in ids_and_names(seed) {
        if has_word(rule, &id) {
            problems.push(format!("the rule names `{id}` by id, not as `{name}`"));
        }
    }
    let values = utility["attribute_values"].as_object().unwrap();
    for (id, v) in values {
        let Some(twin) = v["paired_source"].as_str() else {
            continue;
        };
        if v["about_attribute"] == values[twin]["about_attribute"] {
            problems.push(format!("{id} and {twin} have one description"));
        }
    }
    problems
}

fn export(seeds: &Path, name: &str) -> super::common::TempDir {
    let out = tempdir(name);
    let r = cici(&[
        "export",
        "pisas",
        seeds.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    out
}

fn assert_meaningful(bundles: &Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(bundles).unwrap() {
        let dir = e.unwrap().path();
        if !dir.is_dir() {
            continue; // the export's manifest
        }
        let problems = meaning(&dir);
        assert!(problems.is_empty(), "{}: {problems:#?}", dir.display());
        n += 1;
    }
    n
}

#[test]
fn bundles_of_the_seeds_mean_what_the_release_means() {
    let bundles = export(&root().join("seeds"), "meaning-seeds");
    assert_eq!(assert_meaningful(&bundles), 11);
}

#[test]
fn bundles_of_new_seeds_of_every_family_mean_what_the_release_means() {
    let seeds = tempdir("meaning-synth");
    for (family, size, people) in [
        ("meeting_allocation", "4", "6"),
        ("jira_allocation", "5", "7"),
        ("severity_classification", "4", "6"),
        ("policy_decision", "6", "7"),
    ] {
        for seed in ["3", "11", "29"] {
            let out = seeds.join(format!("{family}_{seed}.cici"));
            let r = cici(&[
                "synth",
                family,
                "--size",
                size,
                "--people",
                people,
                "--seed",
                seed,
                "--out",
                out.to_str().unwrap(),
            ]);
            assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        }
    }
    let bundles = export(&seeds, "meaning-synth-bundles");
    assert_eq!(assert_meaningful(&bundles), 12);
}

#[test]
fn the_decision_rule_of_one_setting_does_not_change_with_its_oracle() {
    let seeds = tempdir("meaning-uas");
    let seed = data().join("pisas/seeds/uas_flight_readiness/seed.json");
    let r = cici(&[
        "import",
        "pisas-seed",
        seed.to_str().unwrap(),
        "--out",
        seeds.to_str().unwrap(),
        "--count",
        "12",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let bundles = export(&seeds, "meaning-uas-bundles");
    assert_eq!(assert_meaningful(&bundles), 12);
    let mut rules: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for e in std::fs::read_dir(&bundles).unwrap() {
        let path = e.unwrap().path();
        if !path.is_dir() {
            continue; // the export's manifest
        }
        let u = read(&path, "utility.json");
        rules
            .entry(u["decision_rule"].as_str().unwrap().to_string())
            .or_default()
            .push(u["oracle_answer"].as_str().unwrap().to_string());
    }
    assert_eq!(rules.len(), 1, "{rules:#?}");
    let oracles: std::collections::BTreeSet<&String> = rules.values().flatten().collect();
    assert!(
        oracles.len() > 1,
        "the configurations should differ in outcome"
    );
}

/// Lower case, with the end's punctuation and the spaces folded.
fn folded(text: &str) -> String {
    text.trim()
        .trim_end_matches(['.', '!', ';', ',', ':'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[test]
fn entangled_notes_fuse_the_fact_and_its_reason_into_one_line() {
    let bundles = export(
        &root().join("seeds/ops_scheduling.cici"),
        "meaning-entangled",
    );
    let dir = bundles.join("ops_scheduling");
    let (scenario, utility) = (read(&dir, "scenario.json"), read(&dir, "utility.json"));
    let values = utility["attribute_values"].as_object().unwrap();
    let notes: Vec<&Value> = scenario["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["source_type"] == "private_note")
        .collect();
    let mut fused = 0;
    for (id, v) in values {
        let Some(twin) = v["paired_source"].as_str() else {
            continue;
        };
        let sentence = v["source_sentence"].as_str().unwrap();
        assert_eq!(values[twin]["delivered_phrasing"].as_str(), Some(sentence));
        assert_eq!(v["clean_rewrite"], values[twin]["value"]);
        let note = notes.iter().find(|n| n["id"] == v["source"]).unwrap();
        let content = note["content"].as_str().unwrap();
        let line = content.lines().find(|l| l.contains(sentence)).unwrap();
        // The one line carries both, and neither stands alone elsewhere.
        let clean = values[twin]["value"].as_str().unwrap();
        assert!(folded(line).contains(&folded(clean)), "{line}");
        assert_eq!(content.matches(sentence).count(), 1);
        let ids: Vec<&str> = note["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert!(ids.contains(&id.as_str()) && ids.contains(&twin));
        fused += 1;
    }
    assert!(
        fused >= 2,
        "ops_scheduling has raw details with sanitized twins"
    );
    // --notes separate keeps the two texts apart, as before.
    let out = tempdir("meaning-separate");
    let r = cici(&[
        "export",
        "pisas",
        "seeds/ops_scheduling.cici",
        "--notes",
        "separate",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success());
    let u = read(&out.join("ops_scheduling"), "utility.json");
    assert!(u["attribute_values"]
        .as_object()
        .unwrap()
        .values()
        .all(|v| v.get("source_sentence").is_none()));
}

#[test]
fn a_flawed_released_scenario_exports_only_when_asked_with_its_defects() {
    let (seeds, refused, allowed) = (
        tempdir("defects-seeds"),
        tempdir("defects-refused"),
        tempdir("defects-allowed"),
    );
    let bundle = root().join("tests/fixtures/import/bundles/jira_sole_owner");
    let r = cici(&[
        "import",
        "pisas-bundle",
        bundle.to_str().unwrap(),
        "--out",
        seeds.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = cici(&[
        "export",
        "pisas",
        seeds.to_str().unwrap(),
        "--out",
        refused.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(std::fs::read_dir(&refused).unwrap().count(), 0);
    assert!(String::from_utf8_lossy(&r.stderr).contains("--allow-defects"));
    let r = cici(&[
        "export",
        "pisas",
        seeds.to_str().unwrap(),
        "--allow-defects",
        "--out",
        allowed.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains("inappropriate_need") && stderr.contains("with defects"),
        "{stderr}"
    );
    let dir = std::fs::read_dir(&allowed)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap();
    let utility = read(&dir, "utility.json");
    let codes: Vec<&str> = utility["cici"]["defects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.contains(&"cici::check::inappropriate_need"),
        "{codes:?}"
    );
    assert!(codes.contains(&"cici::check::not_unique"), "{codes:?}");
    assert_eq!(utility["unique_private_solution"], false);
    super::bundles::assert_accepted(&dir);
    // The seed comes back from the bundle as it was written.
    let back = tempdir("defects-back");
    let r = cici(&[
        "import",
        "pisas-bundle",
        allowed.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
}

/// The bundles keep the release's blinding: an entangled line is prose, so
/// keeping the text before its first colon recovers no sanitized form, and
/// no raw form's description quotes its twin. Over the project's seeds and
/// planted seeds of every family.
#[test]
fn exported_bundles_give_no_sanitized_form_away() {
    let dir = tempdir("meaning-blinding");
    let seeds = dir.join("seeds");
    std::fs::create_dir_all(&seeds).unwrap();
    for e in std::fs::read_dir(root().join("seeds")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, seeds.join(p.file_name().unwrap())).unwrap();
    }
    let families = [
        "meeting_allocation",
        "jira_allocation",
        "severity_classification",
        "policy_decision",
    ];
    for family in families {
        for seed in 900..905 {
            let id = format!("planted_{family}_{seed}");
            let out = cici(&["synth", family, "--seed", &seed.to_string(), "--id", &id]);
            assert!(out.status.success());
            std::fs::write(seeds.join(format!("{id}.cici")), &out.stdout).unwrap();
        }
    }
    let out = dir.join("bundles");
    let r = cici(&[
        "export",
        "pisas",
        seeds.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let (mut lines, mut recovered, mut quoted) = (0, Vec::new(), Vec::new());
    for e in std::fs::read_dir(&out).unwrap() {
        let b = e.unwrap().path();
        if !b.join("utility.json").exists() {
            continue;
        }
        let u = read(&b, "utility.json");
        let values = u["attribute_values"].as_object().unwrap();
        for (id, v) in values {
            let Some(twin) = v["paired_source"].as_str() else {
                continue;
            };
            let clean = folded(values[twin]["value"].as_str().unwrap());
            if let Some(sentence) = v["source_sentence"].as_str() {
                lines += 1;
                let before = sentence.split(':').next().unwrap_or("");
                if folded(before) == clean {
                    recovered.push(format!("{id}: {sentence}"));
                }
            }
            let about = folded(v["about_attribute"].as_str().unwrap_or(""));
            if about.contains(&clean) {
                quoted.push(format!("{id}: {about}"));
            }
        }
    }
    println!("blinding: {lines} entangled lines, {} recovered by the colon split, {} descriptions quoting their twin", recovered.len(), quoted.len());
    assert!(lines >= 30, "{lines}");
    assert!(recovered.is_empty(), "{recovered:#?}");
    assert!(quoted.is_empty(), "{quoted:#?}");
}
