//! Reading a release's JSON as typed records: each object's keys are held
//! to the format first, so a missing field is reported at its path (and
//! the case left out) and an unknown one at its own path (and ignored);
//! only then is the value deserialized.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::diagnostic::{PeerDiagnostic, PeerError};

/// The keys of one object of the format: those it must have, those it may.
pub struct Keys {
    pub required: &'static [&'static str],
    pub optional: &'static [&'static str],
}

/// Holds the object at `path` to `keys`; false when it is not an object or
/// misses a required key (each reported).
pub fn hold(
    value: &Value,
    path: &str,
    keys: &Keys,
    case: Option<&str>,
    out: &mut Vec<PeerDiagnostic>,
) -> bool {
    let Some(object) = value.as_object() else {
        out.push(PeerDiagnostic::new(
            case,
            path,
            PeerError::Shape {
                reason: "expected an object".into(),
            },
        ));
        return false;
    };
    let mut ok = true;
    for k in keys.required {
        if !object.contains_key(*k) {
            ok = false;
            out.push(PeerDiagnostic::new(
                case,
                path,
                PeerError::Shape {
                    reason: format!("the field `{k}` is missing"),
                },
            ));
        }
    }
    for k in object.keys() {
        if !keys.required.contains(&k.as_str()) && !keys.optional.contains(&k.as_str()) {
            out.push(PeerDiagnostic::new(
                case,
                format!("{path}.{k}"),
                PeerError::UnknownField { field: k.clone() },
            ));
        }
    }
    ok
}

/// The value as its record type; a field of another type is reported at
/// `path` with serde's words.
pub fn typed<T: DeserializeOwned>(
    value: &Value,
    path: &str,
    case: Option<&str>,
    out: &mut Vec<PeerDiagnostic>,
) -> Option<T> {
    match T::deserialize(value) {
        Ok(t) => Some(t),
        Err(e) => {
            out.push(PeerDiagnostic::new(
                case,
                path,
                PeerError::Shape {
                    reason: e.to_string(),
                },
            ));
            None
        }
    }
}

/// The release file as a list of cases, or why not.
pub fn cases(path: &std::path::Path) -> Result<(String, Vec<Value>), PeerError> {
    let text = crate::io::read_text(path).map_err(|e| PeerError::Read {
        reason: e.to_string(),
    })?;
    let value: Value = serde_json::from_str(&text).map_err(|e| PeerError::Read {
        reason: e.to_string(),
    })?;
    match value {
        Value::Array(cases) => Ok((text, cases)),
        _ => Err(PeerError::Read {
            reason: "the top level is not a list of cases".into(),
        }),
    }
}

/// Whether a prompt ends mid-sentence: its last character is no
/// sentence's end.
pub fn truncated(text: &str) -> Option<String> {
    let t = text.trim_end();
    let last = t.chars().last()?;
    if ".!?\"')]:;…".contains(last) {
        return None;
    }
    let tail: String = t
        .chars()
        .rev()
        .take(40)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    Some(tail)
}

/// The words of a text that carry its content: lowercase, at least four
/// letters, not a common word.
pub fn content_words(text: &str) -> Vec<String> {
    const COMMON: &[&str] = &[
        "that", "this", "these", "those", "with", "from", "have", "been", "were", "will", "would",
        "could", "should", "about", "into", "over", "after", "before", "also", "than", "then",
        "there", "their", "they", "them", "which", "what", "when", "where", "while", "your",
    ];
    crate::words::words_with_apostrophes(&text.to_lowercase())
        .filter(|w| w.chars().count() >= 4 && !COMMON.contains(w))
        .map(str::to_string)
        .collect()
}

/// How many of `item`'s content words occur in `text` (lowercase), and
/// their share; `None` when the item has no content word.
pub fn coverage(item: &str, text: &str) -> Option<(usize, f64)> {
    let words = content_words(item);
    if words.is_empty() {
        return None;
    }
    let found = words.iter().filter(|w| text.contains(w.as_str())).count();
    Some((found, found as f64 / words.len() as f64))
}
