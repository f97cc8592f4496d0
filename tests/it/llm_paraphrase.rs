//! The model generator's paraphrases are held to the same checks as any
//! text: a scripted model on loopback offers, for the side that keeps the
//! decision, a faithful raw paraphrase with a sanitized text that says the
//! opposite of its fact, with one that names another day, with one that
//! carries the private detail; then a raw text that names another day; and
//! then the faithful raw paraphrase alone. The first four are turned down,
//! each with its reason, and the row keeps the symbolic sanitized text.

use serde_json::{json, Value};

use super::llm::{
    completion, good_flip, good_review, prompt, records, run, seed_dir, Reply, Server,
};

const RAW: &str = "Oncology infusion appointment Tuesday 10-11.";
const SANITIZED: &str = "Eli is unavailable Tuesday 10-11.";
/// A faithful paraphrase of the raw text (which the decision item shows).
const GOOD: &str = "Eli has an oncology infusion appointment on Tuesday from 10 to 11.";

/// What the model offers in turn: the texts it writes, each with its form.
const OFFERS: [&[(&str, &str)]; 5] = [
    &[("raw", GOOD), ("sanitized", "Eli is free Tuesday 10-11.")],
    &[
        ("raw", GOOD),
        ("sanitized", "Eli is unavailable Thursday 10-11."),
    ],
    &[
        ("raw", GOOD),
        ("sanitized", "Eli has an oncology infusion Tuesday 10-11."),
    ],
    &[("raw", "Oncology infusion appointment Friday 10-11.")],
    &[("raw", GOOD)],
];

fn paraphrase(texts: &[(&str, &str)]) -> Value {
    let edits: Vec<Value> = texts
        .iter()
        .map(|(form, to)| {
            let from = if *form == "raw" { RAW } else { SANITIZED };
            json!({"op": "replace_text", "attribute": "eli_infusion",
                "form": form, "from": from, "to": to})
        })
        .collect();
    json!({ "edits": edits })
}

#[test]
fn paraphrases_that_contradict_or_leak_are_rejected_and_the_faithful_one_kept() {
    let server = Server::start(|body: &Value, _| {
        let p = prompt(body);
        let content = if p.starts_with("You review an edit") {
            good_review()
        } else if p.contains("is different from the current one") {
            good_flip()
        } else {
            // Each attempt sees the earlier ones turned down in its prompt.
            paraphrase(OFFERS[p.matches("\n- [").count().min(OFFERS.len() - 1)])
        };
        Reply::Json(200, completion(&content.to_string()), Vec::new())
    });
    let dir = seed_dir("llm-paraphrase");
    let ran = run(&dir, &server.url, "out", &[]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let recs = records(&dir, "out");
    assert_eq!(recs.len(), 1, "{}", ran.stderr);
    let r = &recs[0];
    assert_eq!(r["held_label"], r["anchor_label"]);
    assert_eq!(r["held_rounds"], 5, "{r}");

    let rejected: Vec<Value> = serde_json::from_str(r["held_rejected"].as_str().unwrap()).unwrap();
    let reasons: Vec<&str> = rejected
        .iter()
        .map(|x| x["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.len(), 4, "{reasons:?}");
    // Free on an unavailability: the polarity error.
    assert!(reasons[0].contains("text_opposes_fact"), "{reasons:?}");
    // Another day, in the sanitized text and in the raw one.
    assert!(reasons[1].contains("text_contradicts_fact"), "{reasons:?}");
    assert!(reasons[3].contains("text_contradicts_fact"), "{reasons:?}");
    // The private detail in the sanitized text: the critic's leak check.
    assert!(
        reasons[2].contains("no_leak") && reasons[2].contains("oncology"),
        "{reasons:?}"
    );
    // Each turned-down attempt is on record with the texts it wrote.
    for (offer, x) in OFFERS.iter().zip(&rejected) {
        for (_, to) in offer.iter() {
            assert!(x["edits"].to_string().contains(to), "{x}");
        }
    }

    // The row carries the faithful paraphrase beside the symbolic
    // sanitized text, and none of the texts turned down.
    let held = r["held_seed"].as_str().unwrap();
    assert!(held.contains(GOOD) && held.contains(SANITIZED), "{held}");
    assert!(r["held_item"].as_str().unwrap().contains(GOOD));
    for (_, to) in OFFERS[..4].iter().flat_map(|o| o.iter()) {
        if *to == GOOD {
            continue;
        }
        for side in ["anchor", "flipped", "held"] {
            let seed = r[format!("{side}_seed")].as_str().unwrap();
            let item = r[format!("{side}_item")].as_str().unwrap();
            assert!(!seed.contains(to) && !item.contains(to), "{side}: {to}");
        }
    }
    // The anchor keeps its symbolic texts.
    let anchor = r["anchor_seed"].as_str().unwrap();
    assert!(anchor.contains(SANITIZED) && anchor.contains(RAW));
    let _ = std::fs::remove_dir_all(&dir);
}
