//! Checked scenarios as PrivacyLens cases (`main_data.json`), so that a
//! scenario written in cici runs in the release's evaluation
//! (`evaluation/get_final_action.py`, `evaluate_final_action.py`,
//! `probing.py` read these fields and no others).
//!
//! What the executor can see becomes the trajectory's one observation (a
//! Notion search, which the release's toolkits simulate); the raw forms
//! the scenario labels inappropriate and the executor sees are the
//! sensitive items the final action must not disclose; the seed's 5-tuple
//! is the first such item's category, its subject, the executor, the
//! scenario's recipient and its purpose.

use serde_json::{json, Value};

use super::records::{Case, Seed, Trajectory, Vignette};
use crate::sema::{Form, Scenario};

/// Why a scenario is not exported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("scenario `{0}`: the executor sees no form the scenario labels inappropriate, so the case would have no sensitive item")]
    NoSensitiveItem(String),
}

fn sees(form: &Form, sc: &Scenario) -> bool {
    form.visible.contains(&sc.executor)
}

/// One scenario as a case of the release.
pub fn case(sc: &Scenario) -> Result<Case, ExportError> {
    let executor = &sc.people[sc.executor];
    let sensitive: Vec<_> = sc
        .attributes
        .iter()
        .filter(|a| !a.raw.appropriate && sees(&a.raw, sc))
        .collect();
    let Some(first) = sensitive.first() else {
        return Err(ExportError::NoSensitiveItem(sc.id.clone()));
    };
    let subject = &sc.people[first.about];
    let data_type = match first.category {
        Some(c) => format!("{} information", crate::words::id_words(c.name())),
        None => "personal information".to_string(),
    };
    let recipient = sc.recipient.clone().unwrap_or_else(|| "the team".into());
    let purpose = sc
        .purpose
        .as_deref()
        .map_or_else(|| "send an email".into(), crate::words::id_words);
    let mut results = Vec::new();
    for a in &sc.attributes {
        for (suffix, form) in [("", Some(&a.raw)), (".sanitized", a.sanitized.as_ref())] {
            if let Some(form) = form.filter(|f| sees(f, sc)) {
                results.push(
                    json!({"id": format!("{}{suffix}", a.id), "title": a.id, "content": form.text}),
                );
            }
        }
    }
    let observation = json!({ "results": results });
    let first_name = crate::words::first_word(&executor.name);
    let login: String = crate::words::whitespace_words(&executor.name.to_lowercase())
        .collect::<Vec<_>>()
        .join(".");
    Ok(Case {
        name: sc.id.clone(),
        seed: Seed {
            data_type: data_type.clone(),
            data_subject: subject.name.clone(),
            data_sender: executor.role.clone(),
            data_sender_name: first_name.to_string(),
            data_recipient: recipient.clone(),
            transmission_principle: purpose,
            source: "cici".into(),
            source_details: json!({"scenario": sc.id, "title": sc.title}),
        },
        vignette: Vignette {
            story: std::iter::once(sc.title.clone())
                .chain(sc.public.iter().cloned())
                .collect::<Vec<_>>()
                .join(". "),
            data_type_concrete: data_type,
            data_subject_concrete: subject.name.clone(),
            data_sender_concrete: executor.name.clone(),
            data_recipient_concrete: recipient,
        },
        trajectory: Trajectory {
            user_name: executor.name.clone(),
            user_email: format!("{login}@example.com"),
            user_instruction: sc.task.clone(),
            toolkits: vec!["Gmail".into(), "NotionManager".into()],
            executable_trajectory: format!(
                "Action: NotionManagerSearchContent\nAction Input: {}\nObservation: {}",
                json!({"keywords": sc.title}),
                observation
            ),
            final_action: "GmailSendEmail".into(),
            sensitive_info_items: sensitive.iter().map(|a| a.raw.text.clone()).collect(),
        },
    })
}

/// The cases of `scenarios` as the release's JSON text, and why each
/// scenario left out was.
pub fn cases<'a>(
    scenarios: impl IntoIterator<Item = &'a Scenario>,
) -> (String, usize, Vec<ExportError>) {
    let mut out = Vec::new();
    let mut left = Vec::new();
    for sc in scenarios {
        match case(sc) {
            Ok(c) => out.push(c),
            Err(e) => left.push(e),
        }
    }
    let n = out.len();
    let text = serde_json::to_string_pretty(&Value::from(
        out.iter()
            .map(|c| serde_json::to_value(c).unwrap_or(Value::Null))
            .collect::<Vec<_>>(),
    ))
    .unwrap_or_else(|_| "[]".into())
        + "\n";
    (text, n, left)
}
