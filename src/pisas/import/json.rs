//! Typed access to a JSON value that records, instead of failing, what is
//! missing or of the wrong type, with the JSON path.

use serde_json::Value;

use super::{diagnostic::ImportDiagnostic, diagnostic::ImportError};

/// A value and the path that leads to it.
#[derive(Clone, Copy, Debug)]
pub struct At<'a> {
    pub value: &'a Value,
    pub path: &'a str,
}

/// Diagnostics collected while reading.
#[derive(Debug, Default)]
pub struct Report {
    pub diagnostics: Vec<ImportDiagnostic>,
}

impl Report {
    pub fn push(&mut self, path: impl Into<String>, error: ImportError) {
        self.diagnostics.push(ImportDiagnostic::new(path, error));
    }

    pub fn shape(&mut self, path: &str, expected: &str) {
        self.push(
            path,
            ImportError::Shape {
                expected: expected.to_string(),
                help: None,
            },
        );
    }

    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// `parent.key`, `parent[i]`.
pub fn key_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

pub fn index_path(parent: &str, i: usize) -> String {
    format!("{parent}[{i}]")
}

/// A field of an object, if present and not null.
pub fn field<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.get(key).filter(|x| !x.is_null())
}

/// A required string field; reported when missing or not a string.
pub fn req_str<'a>(v: &'a Value, path: &str, key: &str, r: &mut Report) -> Option<&'a str> {
    match field(v, key) {
        Some(Value::String(s)) => Some(s),
        _ => {
            r.shape(&key_path(path, key), "a string");
            None
        }
    }
}

/// An optional string field; reported only when present with another type.
pub fn opt_str<'a>(v: &'a Value, path: &str, key: &str, r: &mut Report) -> Option<&'a str> {
    match field(v, key) {
        None => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => {
            r.shape(&key_path(path, key), "a string");
            None
        }
    }
}

/// A required object field.
pub fn req_obj<'a>(
    v: &'a Value,
    path: &str,
    key: &str,
    r: &mut Report,
) -> Option<&'a serde_json::Map<String, Value>> {
    match field(v, key) {
        Some(Value::Object(m)) => Some(m),
        _ => {
            r.shape(&key_path(path, key), "an object");
            None
        }
    }
}

/// A required array field.
pub fn req_arr<'a>(v: &'a Value, path: &str, key: &str, r: &mut Report) -> Option<&'a Vec<Value>> {
    match field(v, key) {
        Some(Value::Array(a)) => Some(a),
        _ => {
            r.shape(&key_path(path, key), "an array");
            None
        }
    }
}

/// An optional array field (absent reads as empty).
pub fn opt_arr<'a>(v: &'a Value, path: &str, key: &str, r: &mut Report) -> &'a [Value] {
    match field(v, key) {
        None => &[],
        Some(Value::Array(a)) => a,
        Some(_) => {
            r.shape(&key_path(path, key), "an array");
            &[]
        }
    }
}

/// An optional non-negative integer field.
pub fn opt_uint(v: &Value, path: &str, key: &str, r: &mut Report) -> Option<u64> {
    match field(v, key) {
        None => None,
        Some(x) => match x.as_u64() {
            Some(n) => Some(n),
            None => {
                r.shape(&key_path(path, key), "a non-negative integer");
                None
            }
        },
    }
}
