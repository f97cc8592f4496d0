//! Counterfactual triplets: every flip flips and every hold holds, judged
//! again from the variant's seed text alone; every variant checks; the
//! records validate; runs are deterministic and resume after interruption.

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

fn records(out: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(out.join("triplets.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
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
    cici::analysis::decision_rows(&c.scenario, &c.scenario.oracle)
}

/// The flow label, from the report: appropriate form, a relevant fact,
/// and the person may see it.
fn flow(
    c: &cici::driver::Checked,
    attribute_index: usize,
    form: &str,
    person_index: usize,
) -> bool {
    let attr = &c.scenario.attributes[attribute_index];
    let (kind, f) = attr.fact_form();
    let kind_name = serde_json::to_value(kind).unwrap();
    if kind_name != form {
        return false;
    }
    let relevant = c.report.attributes[attribute_index].facts.iter().any(|&i| {
        c.model.facts[i].status == cici::model::FactStatus::Appropriate
            && c.report.facts[i].relevant == Some(true)
    });
    f.appropriate && relevant && f.visible.contains(&person_index)
}

#[test]
fn flips_flip_and_holds_hold_judged_from_the_text_alone() {
    let out = tempdir("cf-labels");
    generate(&out, &[]);
    let recs = records(&out);
    assert!(recs.len() >= 30, "only {} triplets", recs.len());
    let (mut decisions, mut flows) = (0, 0);
    for r in &recs {
        let anchor = check(r["anchor"]["seed"].as_str().unwrap());
        let flipped = check(r["flipped"]["seed"].as_str().unwrap());
        let held = check(r["held"]["seed"].as_str().unwrap());
        // Variant files on disk are the same seeds.
        let id = r["id"].as_str().unwrap();
        let on_disk =
            std::fs::read_to_string(out.join(format!("variants/{id}.flipped.cici"))).unwrap();
        // Variant files name their own scenario, so a folder of them checks.
        let own = format!("scenario {}_flipped {{", id.replace('-', "_"));
        let anchor_header = format!("scenario {} {{", r["scenario"].as_str().unwrap());
        assert!(on_disk.contains(&own), "{id}");
        assert_eq!(
            on_disk.replacen(&own, &anchor_header, 1),
            r["flipped"]["seed"].as_str().unwrap()
        );
        match r["kind"].as_str().unwrap() {
            "decision" => {
                decisions += 1;
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
            }
            "flow" => {
                flows += 1;
                // Follow the flow by position: a rename may change ids.
                let f = &r["flow"];
                let a = anchor
                    .scenario
                    .attribute(f["attribute"].as_str().unwrap())
                    .unwrap();
                let p = anchor
                    .scenario
                    .person(f["person"].as_str().unwrap())
                    .unwrap();
                let form = f["form"].as_str().unwrap();
                let base = flow(&anchor, a, form, p);
                assert!(base, "{id}: anchors are appropriate flows");
                assert_ne!(
                    flow(&flipped, a, form, p),
                    base,
                    "{id}: the flip keeps the flow label"
                );
                assert_eq!(
                    flow(&held, a, form, p),
                    base,
                    "{id}: the hold changes the flow label"
                );
                assert_eq!(
                    oracle(&flipped),
                    oracle(&anchor),
                    "{id}: a flow flip changes context, not the decision"
                );
            }
            other => panic!("unknown kind {other}"),
        }
        for side in ["flipped", "held"] {
            let v = &r[side];
            assert!(v["critic"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["ok"] == true));
            let edits = v["minimality"]["edits"].as_u64().unwrap();
            assert!((1..=4).contains(&edits), "{id} {side}: {edits} edits");
            assert!(v["seed_diff"].as_str().unwrap().starts_with("--- a/"));
        }
    }
    assert!(
        decisions >= 15 && flows >= 15,
        "{decisions} decision and {flows} flow triplets"
    );
}

#[test]
fn records_validate_against_the_published_schema() {
    let out = tempdir("cf-schema");
    generate(&out, &["--per-seed", "1"]);
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("generated/schema/triplet.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for r in records(&out) {
        let errors: Vec<String> = validator.iter_errors(&r).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", r["id"]);
    }
    let card = std::fs::read_to_string(out.join("README.md")).unwrap();
    let front = card
        .strip_prefix("---\n")
        .unwrap()
        .split("\n---\n")
        .next()
        .unwrap();
    let yaml: serde_yaml::Value = serde_yaml::from_str(front).unwrap();
    assert_eq!(
        yaml["configs"][0]["data_files"].as_str(),
        Some("triplets.jsonl")
    );
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
    let read = |d: &Path| std::fs::read(d.join("triplets.jsonl")).unwrap();
    assert_eq!(read(&a), read(&b));
    assert_eq!(
        std::fs::read(a.join("README.md")).unwrap(),
        std::fs::read(b.join("README.md")).unwrap()
    );
    assert_ne!(read(&a), read(&c));
}

#[test]
fn an_interrupted_run_resumes_without_loss_or_duplicates() {
    let full = tempdir("cf-full");
    generate(&full, &[]);
    let complete = std::fs::read_to_string(full.join("triplets.jsonl")).unwrap();
    // A run killed after a few lines, in the middle of writing the next.
    let resumed = tempdir("cf-resumed");
    std::fs::create_dir_all(&resumed).unwrap();
    let lines: Vec<&str> = complete.lines().collect();
    let mut partial: String = lines[..7].iter().map(|l| format!("{l}\n")).collect();
    partial.push_str(&lines[7][..lines[7].len() / 2]);
    std::fs::write(resumed.join("triplets.jsonl"), partial).unwrap();
    let r = cici(&[
        "counterfactual",
        "seeds/",
        "--out",
        resumed.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&r.stdout).contains("(7 kept from an earlier run)"));
    assert_eq!(
        std::fs::read_to_string(resumed.join("triplets.jsonl")).unwrap(),
        complete
    );
    // Running again adds nothing.
    let again = cici(&[
        "counterfactual",
        "seeds/",
        "--out",
        resumed.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&again.stdout).starts_with("0 triplets written"));
    assert_eq!(
        std::fs::read_to_string(resumed.join("triplets.jsonl")).unwrap(),
        complete
    );
}

#[test]
fn the_committed_sample_is_what_the_command_gives() {
    let out = tempdir("cf-sample");
    generate(&out, &["--per-seed", "1"]);
    let committed = root().join("generated/counterfactuals");
    for name in ["triplets.jsonl", "README.md"] {
        assert_eq!(
            std::fs::read_to_string(out.join(name)).unwrap(),
            std::fs::read_to_string(committed.join(name)).unwrap(),
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
        candidates.extend(public_edits(&seed.scenario, &mut rng));
        // What each candidate comes to, by its edits.
        let outcome = |c: &cici::counterfactual::mutate::Candidate| -> Result<bool, String> {
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
                Some(Ok(false)) => "the label is not the one wanted".to_string(),
                _ => "critic: walked past to see the whole list".to_string(),
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
