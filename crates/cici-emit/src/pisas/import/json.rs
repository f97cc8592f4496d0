//! Reading a tolerant [`Field`] of the format: what is missing or of
//! another shape is recorded with its JSON path instead of failing.

use super::{diagnostic::ImportDiagnostic, diagnostic::ImportError};
use crate::pisas::format::Field;

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

/// A field the format requires: reported at `path` when it is absent or of
/// another shape.
pub fn req<'a, T>(f: &'a Field<T>, path: &str, expected: &str, r: &mut Report) -> Option<&'a T> {
    let found = f.get();
    if found.is_none() {
        r.shape(path, expected);
    }
    found
}

/// An optional field: reported at `path` only when present with another
/// shape.
pub fn opt<'a, T>(f: &'a Field<T>, path: &str, expected: &str, r: &mut Report) -> Option<&'a T> {
    if let Field::Bad(_) = f {
        r.shape(path, expected);
    }
    f.get()
}

/// An optional list (absent reads as empty).
pub fn opt_list<'a, T>(f: &'a Field<Vec<T>>, path: &str, r: &mut Report) -> &'a [T] {
    opt(f, path, "an array", r).map_or(&[], Vec::as_slice)
}
