//! A content-addressed store of model responses.
//!
//! The key of a request is the SHA-256 of its body in canonical JSON (keys
//! sorted, no blanks): model, messages, sampling settings and response
//! format. The API key is not part of the body, so it is never hashed or
//! stored. Entries are written atomically: a killed run leaves each one
//! whole or absent.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

/// JSON with object keys sorted at every level, without blanks.
pub(crate) fn canonical(v: &Value) -> String {
    // serde_json keeps insertion order only with `preserve_order`; writing
    // the keys sorted gives the same text either way.
    let mut out = String::new();
    write_sorted(v, &mut out);
    out
}

fn write_sorted(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push(':');
                write_sorted(&m[*k], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_sorted(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The cache key of a request body: 64 hex digits.
pub fn key(body: &Value) -> String {
    let digest = Sha256::digest(canonical(body).as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a text is a cache key (what `custom_id` must be on ingest).
pub fn is_key(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

impl Cache {
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into() }
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The stored response (a chat-completion object) for a key.
    pub fn get(&self, key: &str) -> Option<Value> {
        let text = crate::io::read_text(&self.path(key)).ok()?;
        let entry: Value = serde_json::from_str(&text).ok()?;
        entry.get("response").cloned()
    }

    /// Stores a response with the request it answers (`Null` when only the
    /// key is known, as for batch results).
    pub fn put(&self, key: &str, request: &Value, response: &Value) -> std::io::Result<()> {
        let entry = serde_json::json!({ "request": request, "response": response });
        crate::io::write_atomic(
            &self.path(key),
            &serde_json::to_string_pretty(&entry).expect("values serialize"),
        )
    }
}
