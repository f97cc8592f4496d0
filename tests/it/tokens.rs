//! The privacy checks' words and stems of every text of the leak
//! calibration set, and of borderline texts, as the Rust tokenizer makes
//! them, held in `python/tests/data/leak_calibration/tokens.json`; the
//! Python scorer's test (`python/tests/test_tokens.py`) reads the same
//! file, so the two agree word for word. `CICI_BLESS_TOKENS=1` rewrites it.

use super::common::root;
use cici::analysis::lints::{privacy_words, stem};

/// Texts where two tokenizers are likely to part: scripts without spaces,
/// combining marks, letters glued to digits, superscripts, apostrophes,
/// underscores, invisible characters, case that folds oddly, and words
/// Snowball 3.0 stems otherwise than `rust-stemmers`.
const BORDERLINE: &[&str] = &[
    "Eli's in\u{200b}fusion, Zoë — dialysis.",
    "MOB-202 and mob_202; ABC123def 3.14 x² ½ Ⅻ",
    "田中さんは東京で会議 カタカナ語 ひらがな",
    "ภาษาไทย ພາສາລາວ हिंदी किताब",
    "e\u{301}te\u{301} naïve café Straße İstanbul ΣΟΦΟΣ",
    "can't won’t rock'n'roll co-op e-mail O'Neil",
    "ﬁnance ＡＢＣ１２３ Ⓐ ① ⅷ",
    "pregnancy pregnant infusions oncology appointments generously",
    "dying lying skies news proceed exceeded succeeding",
    "added evening evenings university universities oncologist dermatologist",
];

fn texts() -> Vec<String> {
    let rows =
        std::fs::read_to_string(root().join("python/tests/data/leak_calibration/writes.jsonl"))
            .expect("the calibration set is readable");
    let mut out: Vec<String> = Vec::new();
    for line in rows.lines().filter(|l| !l.trim().is_empty()) {
        let row: serde_json::Value = serde_json::from_str(line).expect("a calibration row is JSON");
        for text in [&row["form"]["text"], &row["write"]["text"]] {
            let text = text.as_str().expect("a text").to_string();
            if !out.contains(&text) {
                out.push(text);
            }
        }
    }
    out.extend(BORDERLINE.iter().map(|t| t.to_string()));
    out
}

fn dump() -> String {
    let rows: Vec<serde_json::Value> = texts()
        .into_iter()
        .map(|text| {
            let words = privacy_words(&text);
            let stems: Vec<String> = words.iter().map(|w| stem(w)).collect();
            serde_json::json!({"text": text, "words": words, "stems": stems})
        })
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({ "texts": rows })).expect("JSON") + "\n"
}

#[test]
fn the_calibration_tokens_are_the_rust_tokenizers() {
    let path = root().join("python/tests/data/leak_calibration/tokens.json");
    let want = dump();
    if std::env::var_os("CICI_BLESS_TOKENS").is_some() {
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, &want).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is not the Rust tokenizer's: run the test with CICI_BLESS_TOKENS=1 and review the diff",
        path.display()
    );
}
