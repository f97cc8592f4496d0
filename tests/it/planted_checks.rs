//! Planted scenarios held to what their parts say: severity rubrics that
//! order levels by harm, and exported decoys that name the oracle no more
//! often than chance. The seed ranges here were not used while tuning the
//! generator.

use std::collections::BTreeSet;

use cici::driver::DiagnosticRecord;
use cici::planted::{generate, Config};
use cici::sema::Family;

use super::common::{check, cici, tempdir};

/// The codes of a planted scenario's diagnostics.
fn codes(family: Family, seed: u64) -> (BTreeSet<String>, String) {
    let sc = generate(&Config {
        norms: true,
        ..Config::pisas(family, seed)
    });
    let text = cici::printer::print(&sc);
    let run = check("planted", &text);
    let codes = run
        .diagnostics
        .iter()
        .map(|d| DiagnosticRecord::new(d, &run.sources).code)
        .collect();
    (codes, text)
}

#[test]
fn no_planted_severity_rubric_inverts_harm() {
    for seed in 41_000..41_150 {
        let (codes, text) = codes(Family::SeverityClassification, seed);
        assert!(
            !codes.contains("cici::check::rubric_inverts_harm"),
            "seed {seed}:\n{text}"
        );
    }
}

/// The outcomes a bundle's decoys name, read from `utility.json` as a
/// reader of the bundle would: the allowed answers, by id or in words,
/// that the text of a `trap_decoy` attribute names.
fn decoy_outcomes(utility: &serde_json::Value) -> BTreeSet<String> {
    let allowed: Vec<String> = utility["allowed_answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let mut named = BTreeSet::new();
    for a in utility["attribute_values"].as_object().unwrap().values() {
        if a["type"] != "trap_decoy" {
            continue;
        }
        let text = a["value"].as_str().unwrap().to_lowercase();
        let words: Vec<&str> = text
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .collect();
        let spaced: Vec<&str> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        for o in &allowed {
            let parts: Vec<&str> = o.split('_').collect();
            let by_id = words.contains(&o.as_str());
            let in_words = spaced.windows(parts.len()).any(|w| w == parts.as_slice());
            if by_id || in_words {
                named.insert(o.clone());
            }
        }
    }
    named
}

#[test]
fn exported_decoys_name_the_oracle_at_chance() {
    let dir = tempdir("decoys");
    let seeds = dir.join("seeds");
    std::fs::create_dir_all(&seeds).unwrap();
    for family in ["severity_classification", "policy_decision"] {
        for seed in 52_000..52_100 {
            let out = seeds.join(format!("{family}_{seed}.cici"));
            let o = cici(&[
                "synth",
                family,
                "--seed",
                &seed.to_string(),
                "--norms",
                "--out",
                out.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
    }
    let bundles = dir.join("bundles");
    let o = cici(&[
        "export",
        "pisas",
        seeds.to_str().unwrap(),
        "--out",
        bundles.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (mut n, mut hits, mut chance) = (0usize, 0usize, 0f64);
    for e in std::fs::read_dir(&bundles).unwrap() {
        let path = e.unwrap().path().join("utility.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let utility: serde_json::Value = serde_json::from_str(&text).unwrap();
        let named = decoy_outcomes(&utility);
        let allowed = utility["allowed_answers"].as_array().unwrap().len();
        n += 1;
        hits += usize::from(named.contains(utility["oracle_answer"].as_str().unwrap()));
        chance += named.len() as f64 / allowed as f64;
    }
    assert!(n >= 200, "only {n} bundles");
    let (rate, chance) = (hits as f64 / n as f64, chance / n as f64);
    eprintln!("{n} bundles: the oracle among the decoys {rate:.3}, a uniform draw {chance:.3}");
    assert!(
        (rate - chance).abs() <= 0.10,
        "the oracle is among the decoys in {rate:.3} of {n} bundles; a uniform draw gives {chance:.3}"
    );
}
