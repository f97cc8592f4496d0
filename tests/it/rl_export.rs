//! `cici export rl` on the committed counterfactual sample: every format
//! writes one prompt row per side of each row (an anchor repeated from an
//! earlier row once), with the fields its trainer reads and a ground truth
//! that is the row's proven label; preference pairs put each side's answer
//! over the other side's; bad input gets its diagnostic and writes nothing.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::common::{cici, root};

const SAMPLE: &str = "generated/counterfactuals";
const SIDES: [&str; 3] = ["anchor", "flipped", "held"];

/// The sample's rows by split, in file order.
fn sample() -> BTreeMap<String, Vec<Value>> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for kind in ["decision", "flow"] {
        for split in ["train", "validation", "test"] {
            let path = root()
                .join(SAMPLE)
                .join(kind)
                .join(format!("{split}.jsonl"));
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                out.entry(split.into())
                    .or_default()
                    .push(serde_json::from_str(line).unwrap());
            }
        }
    }
    out
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn export(out: &Path, extra: &[&str]) {
    let mut args = vec!["export", "rl", SAMPLE, "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let run = cici(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// The ground truth a prompt row carries, decoded.
fn truth(format: &str, row: &Value) -> Value {
    let text = match format {
        "verl" => &row["reward_model"]["ground_truth"],
        "trl" => &row["ground_truth"],
        _ => &row["label"],
    };
    serde_json::from_str(text.as_str().unwrap()).unwrap()
}

fn meta<'a>(format: &str, row: &'a Value) -> &'a Value {
    if format == "verl" {
        &row["extra_info"]
    } else {
        row
    }
}

/// The ground truth is the side's proven label and answer.
fn holds_label(t: &Value, source: &Value, side: &str) {
    let label: Value =
        serde_json::from_str(source[format!("{side}_label")].as_str().unwrap()).unwrap();
    assert_eq!(t["answer"], source[format!("{side}_answer")]);
    match source["kind"].as_str().unwrap() {
        "flow" => assert_eq!(t["flow"], label["flow"]),
        _ => {
            let want: Vec<(&Value, &Value)> = label["decision"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (&r["target"], &r["value"]))
                .collect();
            let got: Vec<(&Value, &Value)> = t["targets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (&r["target"], &r["value"]))
                .collect();
            assert_eq!(got, want);
            let answer: Vec<&str> = t["answer"].as_str().unwrap().lines().collect();
            let per_target: Vec<&str> = t["targets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["line"].as_str().unwrap())
                .collect();
            assert_eq!(per_target, answer);
        }
    }
}

#[test]
fn every_format_writes_a_row_per_side_with_its_proven_label() {
    let data = sample();
    let tmp = tempfile::tempdir().unwrap();
    for format in ["verl", "trl", "openrlhf"] {
        let out = tmp.path().join(format);
        export(&out, &["--format", format]);
        assert!(out.join(".cici-manifest").is_file());
        assert!(out.join("reward.py").is_file());
        let mut decisions_with_exclusions = 0;
        for (split, rows) in &data {
            let written = lines(&out.join(format!("{split}.jsonl")));
            let repeats = rows.iter().filter(|r| r["anchor_repeat"] == 1).count();
            assert_eq!(written.len(), 3 * rows.len() - repeats, "{format} {split}");
            for row in &written {
                let m = meta(format, row);
                let (triplet, side) = (m["triplet"].as_str().unwrap(), m["side"].as_str().unwrap());
                assert!(SIDES.contains(&side));
                assert_eq!(m["split"], split.as_str());
                let source = rows.iter().find(|r| r["id"] == triplet).unwrap();
                let item = &source[format!("{side}_item")];
                match format {
                    "verl" => {
                        assert_eq!(row["prompt"][0]["role"], "user");
                        assert_eq!(&row["prompt"][0]["content"], item);
                        assert_eq!(row["reward_model"]["style"], "rule");
                        assert_eq!(row["ability"], "contextual_integrity");
                        assert!(row["data_source"].as_str().unwrap().starts_with("cici/"));
                    }
                    "trl" => {
                        assert_eq!(&row["prompt"][0]["content"], item);
                        assert_eq!(
                            row["completion"][0]["content"],
                            source[format!("{side}_answer")]
                        );
                    }
                    _ => {
                        assert_eq!(&row["input"], item);
                        assert_eq!(row["output"], source[format!("{side}_answer")]);
                    }
                }
                let t = truth(format, row);
                holds_label(&t, source, side);
                if t["kind"] == "decision" && !t["excluded"].as_array().unwrap().is_empty() {
                    decisions_with_exclusions += 1;
                }
            }
        }
        // The contracts are proven again: decision sides carry the words
        // of the forms the norms keep from someone.
        assert!(decisions_with_exclusions > 0, "{format}");
    }
}

#[test]
fn preference_pairs_put_each_side_over_the_other() {
    let data = sample();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("trl");
    export(&out, &["--format", "trl", "--dpo"]);
    let mut flips = 0;
    let mut traps = 0;
    for (split, rows) in &data {
        for pair in lines(&out.join(format!("dpo/{split}.jsonl"))) {
            let side = pair["side"].as_str().unwrap();
            let source = rows.iter().find(|r| r["id"] == pair["triplet"]).unwrap();
            let chosen = &pair["chosen"][0]["content"];
            let rejected = &pair["rejected"][0]["content"];
            assert_eq!(chosen, &source[format!("{side}_answer")]);
            assert_ne!(chosen, rejected);
            assert_eq!(
                &pair["prompt"][0]["content"],
                &source[format!("{side}_item")]
            );
            if pair["pair"] == "flip" {
                let other = if side == "flipped" {
                    "anchor"
                } else {
                    "flipped"
                };
                assert_eq!(rejected, &source[format!("{other}_answer")]);
                flips += 1;
            } else {
                assert_eq!(pair["pair"], "trap");
                let shown: Value =
                    serde_json::from_str(source[format!("{side}_traps")].as_str().unwrap())
                        .unwrap();
                assert!(shown
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|t| &t["honoured_answer"] == rejected));
                traps += 1;
            }
        }
    }
    // A flipped side and its fresh anchor each give a pair.
    let rows: usize = data.values().map(Vec::len).sum();
    let repeats: usize = data
        .values()
        .flatten()
        .filter(|r| r["anchor_repeat"] == 1)
        .count();
    assert_eq!(flips, 2 * rows - repeats);
    assert!(traps > 0);
}

fn rl<'a>(d: &'a str, format: &'a str) -> [&'a str; 7] {
    ["export", "rl", d, "--format", format, "--out", "out"]
}

fn refused(dir: &Path, args: &[&str], status: i32) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(status),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!dir.join("out").exists(), "{args:?} wrote");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn bad_input_gets_a_diagnostic_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let empty = refused(dir, &rl("empty", "verl"), 1);
    std::fs::create_dir_all(dir.join("data/flow")).unwrap();
    let good = std::fs::read_to_string(root().join(SAMPLE).join("flow/test.jsonl")).unwrap();
    let first = good.lines().next().unwrap();
    std::fs::write(
        dir.join("data/flow/test.jsonl"),
        format!("{first}\n{{\"id\": \"x\", \"kind\": 3}}\n"),
    )
    .unwrap();
    let bad_row = refused(dir, &rl("data", "trl"), 1);
    let mut row: Value = serde_json::from_str(first).unwrap();
    row["split"] = "../../elsewhere".into();
    std::fs::write(dir.join("data/flow/test.jsonl"), format!("{row}\n")).unwrap();
    let split = refused(dir, &rl("data", "trl"), 1);
    let decision =
        std::fs::read_to_string(root().join(SAMPLE).join("decision/test.jsonl")).unwrap();
    let mut row: Value = serde_json::from_str(decision.lines().next().unwrap()).unwrap();
    row["held_seed"] = "scenario broken {".into();
    std::fs::remove_file(dir.join("data/flow/test.jsonl")).unwrap();
    std::fs::create_dir_all(dir.join("data/decision")).unwrap();
    std::fs::write(dir.join("data/decision/test.jsonl"), format!("{row}\n")).unwrap();
    let seed = refused(dir, &rl("data", "openrlhf"), 1);
    let dpo = refused(
        dir,
        &[
            "export", "rl", "data", "--format", "verl", "--dpo", "--out", "out",
        ],
        2,
    );
    let format = refused(dir, &rl("data", "ppo"), 2);
    for (text, code) in [
        (&empty, "cici::export::not_a_dataset"),
        (&bad_row, "cici::export::bad_row"),
        (&split, "cici::export::bad_row"),
        (&seed, "cici::export::bad_seed"),
        (&dpo, "cici::export::dpo_format"),
    ] {
        assert!(
            text.contains(code) && text.contains("help: "),
            "{code}: {text}"
        );
    }
    assert!(
        format.contains("verl") && format.contains("openrlhf"),
        "{format}"
    );
    insta::assert_snapshot!(
        "rl_export_diagnostics",
        [empty, bad_row, split, seed, dpo, format].join("\n")
    );
}

/// A row file that is not UTF-8 text is refused by name, and nothing is
/// written.
#[test]
fn an_unreadable_row_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("data/flow")).unwrap();
    std::fs::write(
        dir.join("data/flow/test.jsonl"),
        b"{\"id\": \"\xff\xfe\"}\n",
    )
    .unwrap();
    let err = refused(dir, &rl("data", "verl"), 2);
    assert!(err.contains("cici::export::unreadable"), "{err}");
    assert!(err.contains("test.jsonl"), "{err}");
}
