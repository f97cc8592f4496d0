//! The rows of a dataset folder, and what the page shows of each: the
//! anchor's text, the flipped and held texts as word diffs against it,
//! labels, reasons, traps and edits.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{json, Value};

use super::baselines::Readers;
use crate::counterfactual::output::{file_name, KINDS, SPLITS};
use crate::verdicts::ledger::row_hash;

/// The most rows a folder may hold for the page.
pub const MAX_ROWS: usize = 100_000;

/// Every row of the folder's data files, in file order (kind, then split).
/// A line that does not parse as JSON is skipped.
/// The data files are read within the folder's bound
/// ([`crate::io::FolderBudget`]).
pub fn rows(dir: &Path) -> std::io::Result<Vec<Value>> {
    let mut out = Vec::new();
    let mut any = false;
    let mut budget = crate::io::FolderBudget::new(dir);
    for kind in KINDS {
        for split in SPLITS {
            let path = dir.join(file_name(kind, split));
            if std::fs::symlink_metadata(&path).is_err() {
                continue;
            }
            any = true;
            let text = budget.read_text(&path)?;
            for line in text.lines() {
                if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(line) {
                    if v["id"].is_string() {
                        out.push(v);
                    }
                }
                if out.len() > MAX_ROWS {
                    return Err(std::io::Error::other(format!(
                        "{}: more than {MAX_ROWS} rows",
                        dir.display()
                    )));
                }
            }
        }
    }
    if !any {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "{}: no decision/ or flow/ data files; is it a `cici counterfactual` output folder?",
                dir.display()
            ),
        ));
    }
    Ok(out)
}

/// Row id to [`row_hash`].
pub fn hashes(rows: &[Value]) -> HashMap<String, String> {
    rows.iter()
        .map(|r| (text(r, "id").to_string(), row_hash(r)))
        .collect()
}

fn text<'a>(row: &'a Value, key: &str) -> &'a str {
    row[key].as_str().unwrap_or("")
}

/// A field that holds JSON as a string (labels, traps, edits, reasons),
/// parsed; an empty or broken one is null.
fn nested(row: &Value, key: &str) -> Value {
    serde_json::from_str(text(row, key)).unwrap_or(Value::Null)
}

/// The word diff of `new` against `old`, for the page: `["=", from, len]`
/// keeps a run of the old text (UTF-16 offsets, as JavaScript counts),
/// `["-", text]` drops words, `["+", text]` adds them.
pub fn word_diff(old: &str, new: &str) -> Value {
    use similar::{ChangeTag, TextDiff};
    let diff = TextDiff::from_words(old, new);
    let mut out: Vec<Value> = Vec::new();
    let mut at = 0usize; // UTF-16 offset in `old`
    let mut run: Option<(usize, usize)> = None;
    let mut pending: Option<(&'static str, String)> = None;
    let flush_run = |run: &mut Option<(usize, usize)>, out: &mut Vec<Value>| {
        if let Some((from, len)) = run.take() {
            out.push(json!(["=", from, len]));
        }
    };
    for change in diff.iter_all_changes() {
        let value = change.value();
        let units = value.encode_utf16().count();
        let tag = match change.tag() {
            ChangeTag::Equal => {
                if let Some((t, s)) = pending.take() {
                    out.push(json!([t, s]));
                }
                let (from, len) = run.unwrap_or((at, 0));
                run = Some((from, len + units));
                at += units;
                continue;
            }
            ChangeTag::Delete => {
                at += units;
                "-"
            }
            ChangeTag::Insert => "+",
        };
        flush_run(&mut run, &mut out);
        match &mut pending {
            Some((t, s)) if *t == tag => s.push_str(value),
            _ => {
                if let Some((t, s)) = pending.take() {
                    out.push(json!([t, s]));
                }
                pending = Some((tag, value.to_string()));
            }
        }
    }
    if let Some((t, s)) = pending.take() {
        out.push(json!([t, s]));
    }
    flush_run(&mut run, &mut out);
    Value::Array(out)
}

/// One side of a triplet as the page shows it, with what each shortcut
/// reader answers to it.
fn side(row: &Value, name: &str, anchor: &str, readers: &Readers) -> Value {
    let f = |field: &str| format!("{name}_{field}");
    let traps = nested(row, &f("traps"));
    let answer = text(row, &f("answer"));
    let item = text(row, &f("item"));
    let baselines = readers.side(text(row, "kind"), item, answer, &traps);
    let mut v = json!({
        "answer": answer,
        "label": nested(row, &f("label")),
        "flow": text(row, &f("flow")),
        "reasons": nested(row, &f("reasons")),
        "traps": traps,
        "baselines": baselines,
    });
    if name != "anchor" {
        v["diff"] = word_diff(anchor, text(row, &f("item")));
        v["change"] = json!(text(row, &f("change")));
        v["edits"] = nested(row, &f("edits"));
        v["seed_diff"] = json!(text(row, &f("seed_diff")));
    }
    v
}

/// A short label of the row for filtering: the anchor's answer for a flow
/// item (yes or no), `assignment` for a decision item.
fn label_of(row: &Value) -> String {
    match text(row, "kind") {
        "flow" => text(row, "anchor_answer").to_string(),
        kind => kind.to_string(),
    }
}

/// What the page needs of one row; `hits` names the shortcut readers
/// that answer all three sides right.
pub fn page_row(row: &Value, readers: &Readers) -> Value {
    let anchor = text(row, "anchor_item");
    let mut a = side(row, "anchor", anchor, readers);
    a["item"] = json!(anchor);
    let flipped = side(row, "flipped", anchor, readers);
    let held = side(row, "held", anchor, readers);
    let hits = super::baselines::triplet_hits(&[
        &a["baselines"],
        &flipped["baselines"],
        &held["baselines"],
    ]);
    json!({
        "id": text(row, "id"),
        "hash": row_hash(row),
        "kind": text(row, "kind"),
        "family": text(row, "family"),
        "scenario": text(row, "scenario"),
        "condition": text(row, "condition"),
        "split": text(row, "split"),
        "label": label_of(row),
        "hits": hits,
        "anchor": a,
        "flipped": flipped,
        "held": held,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rebuilds the new text from the diff, as the page does.
    fn rebuild(old: &str, diff: &Value) -> String {
        let units: Vec<u16> = old.encode_utf16().collect();
        let mut out = String::new();
        for op in diff.as_array().unwrap() {
            match op[0].as_str().unwrap() {
                "=" => {
                    let (from, len) = (op[1].as_u64().unwrap(), op[2].as_u64().unwrap());
                    let part = &units[from as usize..(from + len) as usize];
                    out.push_str(&String::from_utf16(part).unwrap());
                }
                "+" => out.push_str(op[1].as_str().unwrap()),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn the_word_diff_rebuilds_the_new_text() {
        let old = "Zoë meets Avi on Monday — 🙂 at nine.\n- a line";
        for new in [
            "Zoë meets Bea on Monday — 🙂 at ten.\n- a line",
            "",
            old,
            "brand new words",
            "Zoë meets Avi on Monday — 🙂 at nine.\n- a line\n- another",
        ] {
            let d = word_diff(old, new);
            assert_eq!(rebuild(old, &d), new, "{d}");
        }
    }
}
