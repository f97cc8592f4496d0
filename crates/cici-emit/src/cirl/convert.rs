//! CI-RL examples to flow cases, with the release's defects.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use super::diagnostic::{PeerDiagnostic, PeerError};
use super::fields::{cases, hold, truncated, typed};
use super::flow::{capitalized, category_of, fresh, slug, FlowCase, Item, Party};
use super::prove::{prove, settle, MappedCase, MappedItem, PeerImport, PeerMap};
use super::records::{Example, EXAMPLE, ITEM, SEED, SIDES, TYPES};

/// A value as the prompt shows it.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Imports the CI-RL release file at `path`.
pub fn import(path: &Path) -> PeerImport {
    let mut import = PeerImport {
        name: path.display().to_string(),
        map: PeerMap {
            release: "ci-rl".into(),
            source: path.display().to_string(),
            ..PeerMap::default()
        },
        ..PeerImport::default()
    };
    let (text, values) = match cases(path) {
        Ok(read) => read,
        Err(e) => {
            import.diagnostics.push(PeerDiagnostic::new(None, "", e));
            return import;
        }
    };
    import.text = text;
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut flows = Vec::new();
    for (i, value) in values.iter().enumerate() {
        let id = format!("cirl_{i:03}");
        let mut mapped = MappedCase {
            index: i,
            case: id.clone(),
            path: format!("[{i}]"),
            ..MappedCase::default()
        };
        let out = &mut import.diagnostics;
        let Some(example) = read(value, &mapped.path, &id, out) else {
            import.map.cases.push(mapped);
            continue;
        };
        let key = format!(
            "{}\n{:?}",
            example.dataset_item.user_task, example.dataset_item.information
        );
        if let Some(first) = seen.get(&key) {
            out.push(PeerDiagnostic::new(
                Some(&id),
                &mapped.path,
                PeerError::DuplicateCase {
                    first: first.clone(),
                },
            ));
            import.map.cases.push(mapped);
            continue;
        }
        seen.insert(key, id.clone());
        match flow(&example, &mut mapped, out) {
            Some(f) => flows.push((f, mapped)),
            None => import.map.cases.push(mapped),
        }
    }
    prove(flows, &mut import);
    settle(&mut import);
    import
}

/// One example as its record, its objects held to the format.
fn read(value: &Value, path: &str, id: &str, out: &mut Vec<PeerDiagnostic>) -> Option<Example> {
    let case = Some(id);
    let mut ok = hold(value, path, &EXAMPLE, case, out);
    if ok {
        let seed = &value["seed"];
        let item = &value["dataset_item"];
        ok &= hold(seed, &format!("{path}.seed"), &SEED, case, out);
        ok &= hold(item, &format!("{path}.dataset_item"), &ITEM, case, out);
        if ok {
            let types = &seed["information_type"];
            let annotation = &item["annotation"];
            ok &= hold(
                types,
                &format!("{path}.seed.information_type"),
                &TYPES,
                case,
                out,
            );
            ok &= hold(
                annotation,
                &format!("{path}.dataset_item.annotation"),
                &SIDES,
                case,
                out,
            );
        }
    }
    if !ok {
        return None;
    }
    typed(value, path, case, out)
}

/// The example as a flow case: its labelled items, each defect reported.
fn flow(ex: &Example, mapped: &mut MappedCase, out: &mut Vec<PeerDiagnostic>) -> Option<FlowCase> {
    let (id, path) = (mapped.case.clone(), mapped.path.clone());
    let item = &ex.dataset_item;
    if let Some(tail) = truncated(&item.user_task) {
        let at = format!("{path}.dataset_item.user_task");
        out.push(PeerDiagnostic::new(
            Some(&id),
            at,
            PeerError::TruncatedPrompt { tail },
        ));
    }
    let both: BTreeSet<&String> = item
        .annotation
        .allowed
        .keys()
        .filter(|k| item.annotation.disallowed.contains_key(*k))
        .collect();
    let mut taken = BTreeSet::new();
    let mut sides: [Vec<(Item, String)>; 2] = [Vec::new(), Vec::new()];
    for (side, (name, values)) in [
        ("allowed", &item.annotation.allowed),
        ("disallowed", &item.annotation.disallowed),
    ]
    .into_iter()
    .enumerate()
    {
        for (key, value) in values {
            let at = format!(
                "{path}.dataset_item.annotation.{values_name}.{key}",
                values_name = name
            );
            let why = unlabelled(key, value, item, side == 1, both.contains(key));
            if let Some(reason) = why {
                let e = PeerError::UnlabelledItem {
                    item: key.clone(),
                    reason,
                };
                out.push(PeerDiagnostic::new(Some(&id), at, e));
                continue;
            }
            let text = format!("{key}: {}", shown(&item.information[key]));
            let item_id = fresh(&slug(key, 40), &mut taken);
            let category = if side == 1 { category_of(key) } else { None };
            let label = if side == 0 {
                "must_share"
            } else {
                "must_not_share"
            };
            mapped.items.insert(
                item_id.clone(),
                MappedItem {
                    source: at.clone(),
                    label,
                    class: None,
                },
            );
            let value = value.as_str().unwrap_or_default().to_lowercase();
            sides[side].push((
                Item {
                    id: item_id,
                    text,
                    category,
                    source: at,
                },
                value,
            ));
        }
    }
    for (needed, n_value) in &sides[0] {
        for (excluded, x_value) in &sides[1] {
            if n_value.contains(x_value.as_str()) {
                let what = format!(
                    "must-share `{}` holds must-not-share `{}` (\"{x_value}\"): the task needs what it must not share",
                    needed.id, excluded.id
                );
                out.push(PeerDiagnostic::new(
                    Some(&id),
                    &excluded.source,
                    PeerError::NeedMismatch { what },
                ));
            }
        }
    }
    let [must_share, must_not_share] =
        sides.map(|s| s.into_iter().map(|(i, _)| i).collect::<Vec<_>>());
    if must_share.is_empty() {
        let what =
            "no must-share item is left: the task needs nothing the example gives".to_string();
        out.push(PeerDiagnostic::new(
            Some(&id),
            format!("{path}.dataset_item.annotation.allowed"),
            PeerError::NeedMismatch { what },
        ));
        return None;
    }
    Some(case(ex, id, must_share, must_not_share))
}

/// Why an annotated item cannot be labelled, if it cannot.
fn unlabelled(
    key: &str,
    value: &Value,
    item: &super::records::DatasetItem,
    excluded: bool,
    on_both_sides: bool,
) -> Option<String> {
    let Some(value) = value.as_str() else {
        return Some("its scored value is not a string, which the reward's `***` and `&&&` split cannot read".into());
    };
    if on_both_sides {
        return Some("the key is both allowed and disallowed".into());
    }
    let Some(shown_value) = item.information.get(key) else {
        return Some("the prompt shows no attribute of this name".into());
    };
    if value.trim().is_empty() {
        return Some("its scored value is empty, which every answer holds".into());
    }
    if !shown(shown_value)
        .to_lowercase()
        .contains(&value.to_lowercase())
    {
        return Some(format!(
            "its scored value \"{value}\" is not in what the prompt shows"
        ));
    }
    if excluded && value.chars().count() < 4 {
        return Some(format!(
            "\"{value}\" is under four characters: a substring reward finds it inside other words"
        ));
    }
    None
}

fn case(ex: &Example, id: String, must_share: Vec<Item>, must_not_share: Vec<Item>) -> FlowCase {
    let seed = &ex.seed;
    let sender = Party {
        id: "sender".into(),
        name: capitalized(&seed.sender),
        role: seed.sender.clone(),
    };
    let mut recipient = Party {
        id: "recipient".into(),
        name: capitalized(&seed.recipient),
        role: seed.recipient.clone(),
    };
    if recipient.name.eq_ignore_ascii_case(&sender.name) {
        recipient.name = format!("{} (recipient)", recipient.name);
    }
    let same = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
    let subject = (!same(&seed.data_subject, &seed.sender)).then(|| {
        let mut name = capitalized(&seed.data_subject);
        if same(&name, &recipient.name) {
            name = format!("{name} (data subject)");
        }
        Party {
            id: "data_subject".into(),
            name,
            role: seed.data_subject.clone(),
        }
    });
    FlowCase {
        id,
        title: format!("{}: {}", seed.domain, seed.user_intention),
        task: ex.dataset_item.user_task.clone(),
        purpose: slug(&seed.user_intention, 48),
        public: vec![format!(
            "The message goes as {}; transmission principle: {}.",
            seed.scenario, seed.transmission_principle
        )],
        sender,
        recipient,
        subject,
        outcomes: ("send".into(), "ask_for_details".into()),
        states: ("given".into(), "missing".into()),
        must_share,
        must_not_share,
    }
}
