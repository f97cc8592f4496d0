//! Counterfactual triplets: every flip flips and every hold holds, judged
//! again from the variant's seed text alone; every item carries what its
//! label needs and reads differently from its anchor; every variant checks;
//! rows are flat, validate and keep their ids; runs are deterministic and
//! resume after interruption.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use cici::analysis::Options;
use cici::driver::Run;

use super::common::{cici, root, tempdir};

fn generate(out: &Path, extra: &[&str]) {
    let mut args = vec!["counterfactual", "seeds/", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let r = cici(&args);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
}

/// Every data file a folder may hold: a JSON Lines file per kind and split.
pub(super) const FILES: [&str; 6] = [
    "decision/train.jsonl",
    "decision/validation.jsonl",
    "decision/test.jsonl",
    "flow/train.jsonl",
    "flow/validation.jsonl",
    "flow/test.jsonl",
];

/// The text of a data file, empty where the run wrote none.
fn data(out: &Path, file: &str) -> String {
    std::fs::read_to_string(out.join(file)).unwrap_or_default()
}

fn records(out: &Path) -> Vec<serde_json::Value> {
    FILES
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(out.join(f))
                .unwrap_or_default()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn ids(out: &Path) -> BTreeSet<String> {
    records(out)
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

/// Checks a seed text from scratch: the scenario, with no error.
fn check(text: &str) -> cici::driver::Checked {
    let mut run = Run::new();
    run.check_text("variant.cici", text.to_string(), &Options::default());
    assert_eq!(run.errors(), 0, "a variant does not check:\n{text}");
    assert_eq!(run.checked.len(), 1);
    run.checked.pop().unwrap()
}

fn oracle(c: &cici::driver::Checked) -> Vec<(String, String)> {
    assert!(c.report.unique, "{} is not unique", c.scenario.id);
    cici::printer::decision_rows(&c.scenario, &c.scenario.oracle)
}

/// The rows of a `*_label` column of a decision.
fn label_rows(label: &serde_json::Value) -> Vec<(String, String)> {
    let v: serde_json::Value = serde_json::from_str(label.as_str().unwrap()).unwrap();
    v["decision"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["target"].as_str().unwrap().to_string(),
                e["value"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The flow label, from the report alone: appropriate form, a relevant
/// fact, and the person may see it. `flow` is `attribute/form -> person`.
fn flow_label(c: &cici::driver::Checked, flow: &str) -> bool {
    let (af, person) = flow.split_once(" -> ").unwrap();
    let (attribute, form) = af.split_once('/').unwrap();
    let a = c.scenario.attribute(attribute).unwrap();
    let p = c.scenario.person(person).unwrap();
    let attr = &c.scenario.attributes[a];
    let (kind, _) = attr.fact_form();
    if serde_json::to_value(kind).unwrap() != form {
        return false;
    }
    let f = attr.fact_form().1;
    let relevant = c.report.attributes[a].facts.iter().any(|&i| {
        c.model.facts[i].status == cici::model::FactStatus::Appropriate
            && c.report.facts[i].relevant == Some(true)
    });
    f.appropriate && relevant && f.visible.contains(&p)
}

/// The names of the public setting a decision item must carry.
fn public_names(c: &cici::driver::Checked) -> Vec<String> {
    let sc = &c.scenario;
    let mut names: Vec<String> = sc.people.iter().map(|p| p.name.clone()).collect();
    match &sc.setting {
        cici::sema::Setting::Meeting(ms) => {
            names.extend(ms.meetings.iter().map(|m| m.title.clone()));
            names.extend(
                ms.rooms
                    .iter()
                    .map(|r| r.name.clone().unwrap_or_else(|| r.id.clone())),
            );
        }
        cici::sema::Setting::Jira(js) => names.extend(js.tickets.iter().map(|t| t.title.clone())),
        cici::sema::Setting::Rule(ss) => {
            names.extend(ss.levels.iter().map(|l| l.id.replace('_', " ")))
        }
    }
    names
}

/// The texts a decision item in cue condition `condition` must show: the
/// raw text of every critical, supporting or trap attribute (as its holder
/// has it), and under `sanitized` and `combined` the shareable version of
/// each critical or supporting one.
fn needed_texts(c: &cici::driver::Checked, condition: &str) -> Vec<String> {
    use cici::analysis::Class;
    let shareable = matches!(condition, "sanitized" | "combined");
    c.scenario
        .attributes
        .iter()
        .zip(&c.report.attributes)
        .filter(|(_, f)| matches!(f.class, Class::Critical | Class::Supporting | Class::Trap))
        .flat_map(|(a, f)| {
            let sanitized = a
                .sanitized
                .as_ref()
                .filter(|_| shareable && f.class != Class::Trap)
                .map(|s| s.text.clone());
            std::iter::once(a.raw.text.clone()).chain(sanitized)
        })
        .collect()
}

#[test]
fn flips_flip_and_holds_hold_judged_from_the_text_alone() {
    let out = tempdir("cf-labels");
    generate(&out, &[]);
    let recs = records(&out);
    assert!(recs.len() >= 30, "only {} triplets", recs.len());
    let (mut decisions, mut flows, mut flows_yes) = (0, 0, 0);
    let mut reached: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in &recs {
        let id = r["id"].as_str().unwrap();
        let anchor = check(r["anchor_seed"].as_str().unwrap());
        let flipped = check(r["flipped_seed"].as_str().unwrap());
        let held = check(r["held_seed"].as_str().unwrap());
        // Variant files on disk are the same seeds, under their own ids,
        // so that a folder of them checks.
        for (side, c) in [("flipped", &flipped), ("held", &held)] {
            let on_disk =
                std::fs::read_to_string(out.join(format!("variants/{id}.{side}.cici"))).unwrap();
            let variant = check(&on_disk);
            assert_ne!(variant.scenario.id, c.scenario.id, "{id}");
            assert!(variant.scenario.id.ends_with(&format!("_{side}")), "{id}");
        }
        // Every edited side reads differently from its anchor.
        for side in ["flipped", "held"] {
            assert_ne!(
                r[format!("{side}_item")],
                r["anchor_item"],
                "{id}: the {side} item reads as the anchor's"
            );
        }
        match r["kind"].as_str().unwrap() {
            "decision" => {
                decisions += 1;
                assert_eq!(oracle(&anchor), label_rows(&r["anchor_label"]), "{id}");
                assert_eq!(oracle(&flipped), label_rows(&r["flipped_label"]), "{id}");
                assert_eq!(oracle(&held), label_rows(&r["held_label"]), "{id}");
                assert_ne!(
                    oracle(&flipped),
                    oracle(&anchor),
                    "{id}: the flip keeps the oracle"
                );
                assert_eq!(
                    oracle(&held),
                    oracle(&anchor),
                    "{id}: the hold changes the oracle"
                );
                reached
                    .entry(r["scenario"].as_str().unwrap().to_string())
                    .or_default()
                    .insert(r["flipped_label"].as_str().unwrap().to_string());
                // A reader of the item has what the label needs, and the
                // traps and personal details it should leave aside; the
                // `none` condition has no notes.
                let condition = r["condition"].as_str().unwrap();
                assert!(
                    ["none", "combined"].contains(&condition),
                    "{id}: {condition}"
                );
                for (side, c) in [("anchor", &anchor), ("flipped", &flipped), ("held", &held)] {
                    let item = r[format!("{side}_item")].as_str().unwrap();
                    assert_eq!(
                        item.contains("Privacy note:"),
                        condition == "combined"
                            && c.scenario.attributes.iter().any(|a| {
                                !a.raw.appropriate
                                    || a.category.is_some_and(cici::sema::Category::is_personal)
                            }),
                        "{id} {side} ({condition}): privacy notes"
                    );
                    let traps: Vec<serde_json::Value> =
                        serde_json::from_str(r[format!("{side}_traps")].as_str().unwrap()).unwrap();
                    let classed = c
                        .report
                        .attributes
                        .iter()
                        .filter(|f| f.class == cici::analysis::Class::Trap)
                        .count();
                    assert_eq!(traps.len(), classed, "{id} {side}: traps");
                    for name in public_names(c)
                        .into_iter()
                        .chain(needed_texts(c, condition))
                    {
                        assert!(item.contains(&name), "{id} {side}: the item lacks {name:?}");
                    }
                    // The answer is worded as the item asks.
                    for line in r[format!("{side}_answer")].as_str().unwrap().lines() {
                        let target = line.split(": ").next().unwrap();
                        assert!(item.contains(target), "{id} {side}: {target:?}");
                    }
                }
            }
            "flow" => {
                flows += 1;
                let yes = |side: &str| r[format!("{side}_answer")] == "yes";
                let label = |c: &cici::driver::Checked, side: &str| {
                    flow_label(c, r[format!("{side}_flow")].as_str().unwrap())
                };
                flows_yes += usize::from(yes("anchor"));
                assert_eq!(label(&anchor, "anchor"), yes("anchor"), "{id}");
                assert_eq!(label(&flipped, "flipped"), yes("flipped"), "{id}");
                assert_eq!(label(&held, "held"), yes("held"), "{id}");
                assert_ne!(
                    yes("flipped"),
                    yes("anchor"),
                    "{id}: the flip keeps the label"
                );
                assert_eq!(
                    yes("held"),
                    yes("anchor"),
                    "{id}: the hold changes the label"
                );
                assert_eq!(
                    oracle(&flipped),
                    oracle(&anchor),
                    "{id}: a flow flip changes context, not the decision"
                );
                // The item holds the form's text, the recipient and the task.
                for (side, c) in [("anchor", &anchor), ("flipped", &flipped), ("held", &held)] {
                    let item = r[format!("{side}_item")].as_str().unwrap();
                    let flow = r[format!("{side}_flow")].as_str().unwrap();
                    let (af, person) = flow.split_once(" -> ").unwrap();
                    let (attribute, form) = af.split_once('/').unwrap();
                    let attr = &c.scenario.attributes[c.scenario.attribute(attribute).unwrap()];
                    let text = if form == "raw" {
                        &attr.raw.text
                    } else {
                        &attr.sanitized.as_ref().unwrap().text
                    };
                    let recipient = &c.scenario.people[c.scenario.person(person).unwrap()];
                    assert!(item.contains(text.as_str()), "{id} {side}: no form text");
                    assert!(item.contains(&recipient.name), "{id} {side}: no recipient");
                    assert!(item.contains(&recipient.role), "{id} {side}: no role");
                    assert!(item.contains(&c.scenario.task), "{id} {side}: no task");
                }
            }
            other => panic!("unknown kind {other}"),
        }
        for (side, c) in [("flipped", &flipped), ("held", &held)] {
            let critic: Vec<serde_json::Value> =
                serde_json::from_str(r[format!("{side}_critic")].as_str().unwrap()).unwrap();
            assert!(critic.iter().all(|c| c["ok"] == true), "{id} {side}");
            let edits = r[format!("{side}_edit_count")].as_u64().unwrap();
            let listed: Vec<cici::counterfactual::vocab::Edit> =
                serde_json::from_str(r[format!("{side}_edits")].as_str().unwrap()).unwrap();
            assert_eq!(listed.len() as u64, edits, "{id} {side}: the edit count");
            let changes =
                cici::counterfactual::vocab::changes(&listed, &anchor.scenario, &c.scenario);
            let moved = r[format!("{side}_flow")] != r["anchor_flow"];
            assert!(
                changes <= 4,
                "{id} {side}: {changes} changes in {edits} edits"
            );
            assert!(edits >= 1 || moved, "{id} {side}: no change");
            assert!(!r[format!("{side}_change")].as_str().unwrap().is_empty());
        }
    }
    assert!(
        decisions >= 15 && flows >= 15,
        "{decisions} decision and {flows} flow triplets"
    );
    // Rows that share an anchor item share its group, and only the first
    // of them is not marked a repeat.
    let mut groups: BTreeMap<String, Vec<(&str, u64)>> = BTreeMap::new();
    for r in &recs {
        groups
            .entry(r["anchor_group"].as_str().unwrap().to_string())
            .or_default()
            .push((
                r["anchor_item"].as_str().unwrap(),
                r["anchor_repeat"].as_u64().unwrap(),
            ));
    }
    assert!(groups.values().any(|g| g.len() > 1), "no anchor is shared");
    for g in groups.values() {
        assert!(g.iter().all(|(item, _)| *item == g[0].0));
        assert_eq!(g.iter().filter(|(_, rep)| *rep == 0).count(), 1, "{g:?}");
    }
    // Position does not predict a flow label.
    let share = flows_yes * 100 / flows;
    assert!(
        (40..=60).contains(&share),
        "{share}% of flow anchors are appropriate"
    );
    // Flips spread over the alternatives a seed allows.
    assert!(
        reached.values().filter(|v| v.len() > 1).count() >= 3,
        "flips reach one alternative per seed: {reached:?}"
    );
}

#[test]
fn rows_are_flat_with_one_type_per_column_and_validate() {
    let out = tempdir("cf-schema");
    generate(&out, &["--per-seed", "1"]);
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("generated/schema/triplet.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let kind_of = |v: &serde_json::Value| match v {
        serde_json::Value::String(_) => "string",
        serde_json::Value::Number(_) => "number",
        other => panic!("a nested or null column: {other}"),
    };
    let mut types: Option<Vec<(String, &str)>> = None;
    for r in records(&out) {
        let errors: Vec<String> = validator.iter_errors(&r).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", r["id"]);
        // The same columns, in the same order, with the same types, in
        // both files: one schema whatever `--kind` was.
        let these: Vec<(String, &str)> = r
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), kind_of(v)))
            .collect();
        match &types {
            None => types = Some(these),
            Some(t) => assert_eq!(t, &these, "{}", r["id"]),
        }
    }
    let card = std::fs::read_to_string(out.join("README.md")).unwrap();
    let front = card
        .strip_prefix("---\n")
        .unwrap()
        .split("\n---\n")
        .next()
        .unwrap();
    let yaml: serde_yaml::Value = serde_yaml::from_str(front).unwrap();
    // One config per kind, one data file per split, each named as written.
    let configs: Vec<(&str, Vec<(&str, &str)>)> = yaml["configs"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|c| {
            let files = c["data_files"]
                .as_sequence()
                .unwrap()
                .iter()
                .map(|f| (f["split"].as_str().unwrap(), f["path"].as_str().unwrap()))
                .collect();
            (c["config_name"].as_str().unwrap(), files)
        })
        .collect();
    let splits = |kind| {
        vec![
            ("train", format!("{kind}/train.jsonl")),
            ("validation", format!("{kind}/validation.jsonl")),
            ("test", format!("{kind}/test.jsonl")),
        ]
    };
    let named: Vec<(&str, Vec<(&str, String)>)> = configs
        .iter()
        .map(|(k, f)| (*k, f.iter().map(|(s, p)| (*s, p.to_string())).collect()))
        .collect();
    assert_eq!(
        named,
        [("decision", splits("decision")), ("flow", splits("flow"))]
    );
    // The licence is the seeds': the repository's dual licence.
    assert_eq!(
        yaml["license"].as_sequence().unwrap(),
        &[
            serde_yaml::Value::from("apache-2.0"),
            serde_yaml::Value::from("mit")
        ]
    );
    assert_eq!(
        yaml["annotations_creators"][0].as_str(),
        Some("machine-generated")
    );
    assert!(card.contains("## Provenance") && card.contains("cici counterfactual seeds/"));
}

#[test]
fn ids_name_content_whatever_the_options() {
    let (two, four, flow) = (
        tempdir("cf-ids-2"),
        tempdir("cf-ids-4"),
        tempdir("cf-ids-flow"),
    );
    generate(&two, &["--per-seed", "2"]);
    generate(&four, &["--per-seed", "4"]);
    generate(&flow, &["--per-seed", "2", "--kind", "flow"]);
    let (two, four_ids, flow) = (ids(&two), ids(&four), ids(&flow));
    assert!(
        two.is_subset(&four_ids),
        "--per-seed 4 renames items of --per-seed 2"
    );
    assert!(
        flow.is_subset(&two),
        "--kind flow renames items of --kind both"
    );
    // A resumed run with other options adds, and never mixes.
    let out = tempdir("cf-ids-resume");
    generate(&out, &["--per-seed", "2", "--kind", "flow"]);
    generate(&out, &["--per-seed", "4"]);
    assert_eq!(ids(&out), four_ids);
    let runs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(runs["runs"].as_array().unwrap().len(), 2);
    let flows: String = FILES[3..].iter().map(|f| data(&out, f)).collect();
    assert!(!flows.is_empty() && !flows.contains("\"kind\":\"decision\""));
}

/// A folder of one kind gets a task file with that kind's task alone:
/// `inspect eval cici_task.py` runs every task, and inspect_ai cannot
/// build one over an empty dataset.
#[test]
fn the_task_file_has_a_task_for_each_config_with_rows() {
    let flow = tempdir("cf-task-flow");
    generate(&flow, &["--per-seed", "1", "--kind", "flow"]);
    let text = std::fs::read_to_string(flow.join("cici_task.py")).unwrap();
    assert!(
        text.contains("def flow(") && !text.contains("def decision("),
        "{text}"
    );
    let both = tempdir("cf-task-both");
    generate(&both, &["--per-seed", "1"]);
    let text = std::fs::read_to_string(both.join("cici_task.py")).unwrap();
    assert!(text.contains("def flow(") && text.contains("def decision("));
}

#[test]
fn runs_are_deterministic_and_depend_on_the_seed() {
    let (a, b, c) = (
        tempdir("cf-det-a"),
        tempdir("cf-det-b"),
        tempdir("cf-det-c"),
    );
    generate(&a, &["--seed", "3"]);
    generate(&b, &["--seed", "3"]);
    generate(&c, &["--seed", "4"]);
    for f in FILES {
        assert_eq!(data(&a, f), data(&b, f), "{f}");
    }
    // The cards differ only in the folder each command named.
    let card = |d: &Path| {
        std::fs::read_to_string(d.join("README.md"))
            .unwrap()
            .replace(d.file_name().unwrap().to_str().unwrap(), "OUT")
    };
    assert_eq!(card(&a), card(&b));
    assert_ne!(ids(&a), ids(&c));
}

#[test]
fn an_interrupted_run_resumes_without_loss_or_duplicates() {
    let full = tempdir("cf-full");
    generate(&full, &[]);
    let train = "decision/train.jsonl";
    let complete = data(&full, train);
    let others: Vec<String> = FILES[1..].iter().map(|f| data(&full, f)).collect();
    // A run killed after a few lines, in the middle of writing the next.
    let resumed = tempdir("cf-resumed");
    std::fs::create_dir_all(resumed.join("decision")).unwrap();
    let lines: Vec<&str> = complete.lines().collect();
    let mut partial: String = lines[..7].iter().map(|l| format!("{l}\n")).collect();
    partial.push_str(&lines[7][..lines[7].len() / 2]);
    std::fs::write(resumed.join(train), partial).unwrap();
    let r = cici(&[
        "counterfactual",
        "seeds/",
        "--out",
        resumed.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&r.stdout).contains("(7 kept from an earlier run)"));
    let read = |f: &str| data(&resumed, f);
    assert_eq!(read(train), complete);
    assert_eq!(
        FILES[1..].iter().map(|f| read(f)).collect::<Vec<_>>(),
        others
    );
    // Running again adds nothing.
    let again = cici(&[
        "counterfactual",
        "seeds/",
        "--out",
        resumed.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&again.stdout).starts_with("0 triplets written"));
    assert_eq!(read(train), complete);
    assert_eq!(
        FILES[1..].iter().map(|f| read(f)).collect::<Vec<_>>(),
        others
    );
}

#[test]
fn the_committed_sample_is_what_the_command_gives() {
    let out = tempdir("cf-sample");
    generate(&out, &["--per-seed", "1"]);
    let committed = root().join("generated/counterfactuals");
    for name in FILES
        .iter()
        .copied()
        .chain(["README.md", "croissant.json", "cici_task.py"])
    {
        assert_eq!(
            data(&out, name).replace(
                out.file_name().unwrap().to_str().unwrap(),
                "generated/counterfactuals"
            ),
            data(&committed, name),
            "generated/counterfactuals/{name} is stale: run `cici counterfactual seeds/ --out generated/counterfactuals --per-seed 1`"
        );
    }
}

/// Learning from rejections never drops a candidate that would have had
/// the wanted label: every flip candidate of every seed is evaluated in
/// full, the list is walked as the loop walks it (each candidate turned
/// down with the evaluator's reason), and every candidate the list drops
/// unseen must be one the evaluator rejects or labels wrongly.
#[test]
fn candidates_dropped_after_a_rejection_could_not_have_flipped() {
    use cici::counterfactual::mutate::{decision_flips, public_edits};
    use cici::counterfactual::vocab::{Check, Reason};
    use cici::counterfactual::{decision_label, evaluate, Listed, Proposal, Proposer, Rejection};
    use rand::SeedableRng;

    let mut run = Run::new();
    run.check_paths(&[root().join("seeds")], &Options::default())
        .unwrap();
    let templates = cici::render::Templates::builtin();
    let mut dropped_total = 0;
    for seed in &run.checked {
        let base = decision_label(seed);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut candidates = decision_flips(seed, templates.facts(), &mut rng);
        candidates.extend(public_edits(
            &std::sync::Arc::new(seed.scenario.clone()),
            &mut rng,
        ));
        // What each candidate comes to, by its edits.
        let outcome = |c: &cici::counterfactual::vocab::Candidate| -> Result<bool, Reason> {
            evaluate(c, &Options::default()).map(|ev| decision_label(&ev.checked) != base)
        };
        let all: Vec<_> = candidates
            .iter()
            .map(|c| (c.edits.clone(), outcome(c)))
            .collect();
        let mut list = Listed::new(candidates);
        let mut rejected: Vec<Rejection> = Vec::new();
        let mut yielded = Vec::new();
        while let Proposal::Candidate(c) = list.next(&rejected) {
            let reason = match all.iter().find(|(e, _)| *e == c.edits).map(|(_, o)| o) {
                Some(Err(r)) => r.clone(),
                Some(Ok(false)) => Reason::WrongLabel,
                _ => Reason::Critic(vec![(
                    Check::ReadsDifferently,
                    "walked past to see the whole list".into(),
                )]),
            };
            rejected.push(Rejection {
                edits: c.edits.clone(),
                reason,
            });
            yielded.push(c.edits.clone());
        }
        for (edits, o) in &all {
            if yielded.contains(edits) {
                continue;
            }
            dropped_total += 1;
            assert!(
                !matches!(o, Ok(true)),
                "{}: dropped a candidate that flips: {edits:?}",
                seed.scenario.id
            );
        }
    }
    assert!(
        dropped_total > 10,
        "the learning dropped only {dropped_total}"
    );
}

/// The committed sample has none of the known text seams: schema-speak
/// (`stands at`, conditions in seed syntax), a scenario id in prose, a
/// room called `room room_…`, a doubled word, or a renamed person whose
/// new name does not fit the pronouns the texts use for them.
#[test]
fn the_committed_sample_has_no_known_seams() {
    // How each rename name is read, written out here apart from the pool.
    const SHE: &[&str] = &[
        "Amara", "Chiara", "Esther", "Greta", "Ilse", "Keiko", "Mireille", "Odile", "Rania",
        "Vesna",
    ];
    const HE: &[&str] = &[
        "Bruno", "Dmitri", "Hamid", "Joao", "Lars", "Nikhil", "Pavel", "Soren", "Ulrich",
    ];
    let out = root().join("generated/counterfactuals");
    let doubled = |t: &str| {
        let w: Vec<&str> = t.split_whitespace().collect();
        w.windows(2)
            .find(|p| p[0].len() > 2 && p[0].eq_ignore_ascii_case(p[1]))
            .map(|p| p[0].to_string())
    };
    let recs = records(&out);
    assert!(recs.len() >= 20);
    for r in &recs {
        let id = r["id"].as_str().unwrap();
        let scenario = r["scenario"].as_str().unwrap();
        for side in ["anchor", "flipped", "held"] {
            let item = r[format!("{side}_item")].as_str().unwrap();
            for seam in ["stands at", "room room_", " = ", " != "] {
                assert!(!item.contains(seam), "{id} {side}: {seam:?}");
            }
            assert!(!item.contains(scenario), "{id} {side}: the scenario id");
            assert_eq!(doubled(item), None, "{id} {side}: a doubled word");
        }
        for side in ["flipped", "held"] {
            let edits: Vec<serde_json::Value> =
                serde_json::from_str(r[format!("{side}_edits")].as_str().unwrap()).unwrap();
            for e in edits.iter().filter(|e| e["op"] == "rename_person") {
                let new = e["name_to"].as_str().unwrap();
                let first = new.split_whitespace().next().unwrap();
                let c = check(r[format!("{side}_seed")].as_str().unwrap());
                for a in &c.scenario.attributes {
                    for t in
                        std::iter::once(&a.raw.text).chain(a.sanitized.as_ref().map(|s| &s.text))
                    {
                        let words: Vec<String> = t
                            .split(|ch: char| !ch.is_alphanumeric())
                            .map(str::to_lowercase)
                            .collect();
                        if !words.iter().any(|w| w == &first.to_lowercase()) {
                            continue;
                        }
                        let her = words
                            .iter()
                            .any(|w| ["she", "her", "hers"].contains(&w.as_str()));
                        let his = words
                            .iter()
                            .any(|w| ["he", "him", "his"].contains(&w.as_str()));
                        assert!(
                            !(her && HE.contains(&first)),
                            "{id} {side}: {first} in {t:?}"
                        );
                        assert!(
                            !(his && SHE.contains(&first)),
                            "{id} {side}: {first} in {t:?}"
                        );
                    }
                }
            }
        }
    }
}

/// Splits are grouped by seed, deterministic, and stay so when a later run
/// with more seeds writes into the same folder: a seed that has rows keeps
/// their split.
#[test]
fn no_seed_is_in_two_splits_even_across_runs() {
    let out = tempdir("cf-splits");
    let o = out.to_str().unwrap();
    let some = [
        "counterfactual",
        "seeds/ops_scheduling.cici",
        "seeds/launch_week.cici",
        "seeds/board_prep.cici",
        "--per-seed",
        "1",
        "--out",
        o,
    ];
    assert_eq!(cici(&some).status.code(), Some(0));
    let first: BTreeMap<String, String> = records(&out)
        .iter()
        .map(|r| {
            (
                r["scenario"].as_str().unwrap().into(),
                r["split"].as_str().unwrap().into(),
            )
        })
        .collect();
    let splits: BTreeSet<&String> = first.values().collect();
    assert_eq!(splits.len(), 3, "three seeds, three splits: {first:?}");
    let all = ["counterfactual", "seeds/", "--per-seed", "2", "--out", o];
    assert_eq!(cici(&all).status.code(), Some(0));
    let mut of: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in records(&out) {
        of.entry(r["scenario"].as_str().unwrap().into())
            .or_default()
            .insert(r["split"].as_str().unwrap().into());
    }
    for (seed, s) in &of {
        assert_eq!(s.len(), 1, "{seed} is in {s:?}");
    }
    for (seed, s) in &first {
        assert!(of[seed].contains(s), "{seed} moved from {s}");
    }
    // Every row is in the file of its split.
    for f in FILES {
        let split = f.split('/').nth(1).unwrap().trim_end_matches(".jsonl");
        for line in data(&out, f).lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(r["split"], split);
        }
    }
}

/// In a rule case one changed finding can leave the level open; the flip
/// is then completed by a new finding on the check that decides it. Every
/// such flip of planted severity and policy seeds (a range used for
/// nothing else) allows exactly one level other than the oracle, and
/// its edits, replayed on the anchor, give the same seed.
#[test]
fn completed_flips_settle_one_other_level_and_replay() {
    use cici::counterfactual::apply::apply;
    use cici::counterfactual::completed::flips;
    use cici::counterfactual::vocab::Edit;
    use cici::counterfactual::{decision_label, evaluate};
    use cici::sema::Family;
    use rand::SeedableRng;

    let templates = cici::render::Templates::builtin();
    let mut completed = 0;
    for seed in 64000..64012u64 {
        for family in [Family::SeverityClassification, Family::PolicyDecision] {
            let mut config = cici::planted::Config::pisas(family, seed);
            config.norms = true;
            let sc = cici::planted::generate(&config);
            let mut run = Run::new();
            run.check_texts(
                vec![(format!("{}.cici", sc.id), cici::printer::print(&sc))],
                &Options::default(),
            );
            let anchor = &run.checked[0];
            let base = decision_label(anchor);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for c in flips(anchor, templates.facts(), &mut rng) {
                assert!(
                    matches!(
                        c.edits.last(),
                        Some(Edit::AddAttribute { fact: Some(_), .. })
                    ),
                    "{:?}",
                    c.edits
                );
                completed += 1;
                let ev = evaluate(&c, &Options::default()).expect("a completed flip decides");
                assert_ne!(
                    decision_label(&ev.checked),
                    base,
                    "{}: {:?}",
                    sc.id,
                    c.edits
                );
                let mut replayed = anchor.scenario.clone();
                for e in &c.edits {
                    apply(&mut replayed, e).expect("the edits replay");
                }
                assert_eq!(
                    cici::printer::print(&replayed),
                    cici::printer::print(&c.scenario),
                    "{}: {:?}",
                    sc.id,
                    c.edits
                );
            }
        }
    }
    println!("completed flips: {completed}");
    assert!(completed >= 10, "only {completed} completed flips");
}
