//! Reading a JSON file as one of the format's types. The value is first
//! held to the type's JSON Schema, which finds every part that does not
//! fit, each reported at its JSON path; only a value that fits is then
//! deserialized. Nothing is defaulted that the type does not declare
//! optional.

use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::ValidationError;
use serde_json::Value;

use super::diagnostic::{ImportDiagnostic, ImportError};
use super::files::{BundleFiles, JsonFile};
use crate::pisas::format::{
    AppropriatenessFile, Bundle, BundleFile, ScenarioFile, UtilityFile, VisibilityFile,
};

/// The compiled schema of a file type, built once.
pub trait Schema: BundleFile {
    fn validator() -> &'static jsonschema::Validator;
}

fn compile<T: BundleFile>() -> jsonschema::Validator {
    let schema = serde_json::to_value(schemars::schema_for!(T)).expect("schemas serialize");
    jsonschema::validator_for(&schema).expect("the generated schema is a valid schema")
}

macro_rules! schema {
    ($($t:ty),*) => {$(
        impl Schema for $t {
            fn validator() -> &'static jsonschema::Validator {
                static V: OnceLock<jsonschema::Validator> = OnceLock::new();
                V.get_or_init(compile::<$t>)
            }
        }
    )*};
}

schema!(
    ScenarioFile,
    UtilityFile,
    AppropriatenessFile,
    VisibilityFile
);

impl BundleFiles {
    /// The four files as the format's types; `None`, with every problem
    /// recorded in the file it is in, when any does not fit.
    pub fn typed(&mut self) -> Option<Bundle> {
        let scenario = read(&mut self.scenario);
        let utility = read(&mut self.utility);
        let appropriateness = read(&mut self.appropriateness);
        let visibility = read(&mut self.visibility);
        Some(Bundle {
            scenario: scenario?,
            utility: utility?,
            appropriateness: appropriateness?,
            visibility: visibility?,
        })
    }
}

/// The file as `T`, or `None` with every problem recorded in the file.
/// A file that could not be read already carries its diagnostic.
pub fn read<T: Schema>(file: &mut JsonFile) -> Option<T> {
    let value = file.value.as_ref()?;
    let problems = problems::<T>(value);
    if !problems.is_empty() {
        file.add(super::json::Report {
            diagnostics: problems,
        });
        return None;
    }
    match T::deserialize(value) {
        Ok(t) => Some(t),
        // The schema admits what serde reads; should they ever disagree,
        // the file is still reported, never read half-way.
        Err(e) => {
            let mut r = super::json::Report::default();
            r.shape("", &format!("a {} as the format gives it ({e})", T::NAME));
            file.add(r);
            None
        }
    }
}

/// Every part of `value` that does not fit `T`, at its JSON path.
pub fn problems<T: Schema>(value: &Value) -> Vec<ImportDiagnostic> {
    let mut out = Vec::new();
    for e in T::validator().iter_errors(value) {
        report(&e, value, &mut out);
    }
    out
}

/// One schema error as diagnostics. Where a value fits none of several
/// forms (the cast as a map or a list, an optional object), the form the
/// value has is the one meant: its own problems are reported, deeper in.
fn report(e: &ValidationError, root: &Value, out: &mut Vec<ImportDiagnostic>) {
    let at = e.instance_path().as_str();
    let path = dotted(root, at);
    let expected = match e.kind() {
        ValidationErrorKind::Required { property } => {
            let key = property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_string);
            out.push(ImportDiagnostic::new(
                super::json::key_path(&path, &key),
                ImportError::Shape {
                    expected: format!("`{key}`, which the format requires here"),
                    help: None,
                },
            ));
            return;
        }
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            let deeper = context
                .iter()
                .filter(|branch| {
                    branch
                        .iter()
                        .all(|x| x.instance_path().as_str().len() > at.len())
                })
                .min_by_key(|branch| branch.len());
            if let Some(branch) = deeper {
                for x in branch {
                    report(x, root, out);
                }
                return;
            }
            let forms: Vec<String> = context
                .iter()
                .flatten()
                .filter_map(|x| expected(x.kind()))
                .collect();
            (!forms.is_empty()).then(|| forms.join(" or "))
        }
        kind => expected(kind),
    };
    let expected =
        expected.unwrap_or_else(|| format!("a value that fits the format ({})", e.masked()));
    out.push(ImportDiagnostic::new(
        path,
        ImportError::Shape {
            expected,
            help: None,
        },
    ));
}

/// What the schema expected, in words, for the common kinds.
fn expected(kind: &ValidationErrorKind) -> Option<String> {
    Some(match kind {
        ValidationErrorKind::Type { kind } => match kind {
            TypeKind::Single(t) => article(&t.to_string()),
            TypeKind::Multiple(ts) => ts
                .iter()
                .map(|t| article(&t.to_string()))
                .collect::<Vec<_>>()
                .join(" or "),
        },
        ValidationErrorKind::Enum { options } => format!("one of {options}"),
        ValidationErrorKind::Minimum { limit } => format!("a number of at least {limit}"),
        _ => return None,
    })
}

fn article(json_type: &str) -> String {
    match json_type {
        "null" => "null".into(),
        "boolean" => "true or false".into(),
        "array" | "object" | "integer" => format!("an {json_type}"),
        other => format!("a {other}"),
    }
}

/// A JSON Pointer as cici writes paths (`attributes.a1.visible_to[2]`): an
/// index where the value is an array, a key otherwise.
fn dotted(root: &Value, pointer: &str) -> String {
    let mut path = String::new();
    let mut at = Some(root);
    for raw in pointer.split('/').skip(1) {
        let key = raw.replace("~1", "/").replace("~0", "~");
        match at {
            Some(Value::Array(a)) => {
                let i = key.parse::<usize>().ok();
                path.push_str(&format!("[{key}]"));
                at = i.and_then(|i| a.get(i));
            }
            other => {
                path = super::json::key_path(&path, &key);
                at = other.and_then(|v| v.get(&key));
            }
        }
    }
    path
}
