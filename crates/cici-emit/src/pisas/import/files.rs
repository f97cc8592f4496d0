//! The JSON files an import reads: one file with its text, value and
//! diagnostics, and the four files of a bundle folder.

use std::path::Path;

use super::diagnostic::{locate_spans, ImportDiagnostic, ImportError};
use super::json;

/// A JSON input as read: its text (for rendering spans) and its value, or
/// the diagnostic that stopped reading it.
pub struct JsonFile {
    pub name: String,
    pub text: String,
    pub value: Option<serde_json::Value>,
    pub diagnostics: Vec<ImportDiagnostic>,
}

impl JsonFile {
    /// Reads a JSON file within the input bounds; a diagnostic otherwise
    /// (with the place of a syntax error, when there is one).
    pub fn read(path: &Path) -> JsonFile {
        let name = path.display().to_string();
        match crate::io::read_text(path) {
            Ok(text) => JsonFile::parse(name, text),
            Err(e) => JsonFile {
                name,
                text: String::new(),
                value: None,
                diagnostics: vec![ImportDiagnostic::new(
                    "",
                    ImportError::Read {
                        reason: e.to_string(),
                    },
                )],
            },
        }
    }

    /// Parses a JSON text already in memory, named `name` in diagnostics.
    pub fn parse(name: String, text: String) -> JsonFile {
        match serde_json::from_str(&text) {
            Ok(v) => JsonFile {
                name,
                text,
                value: Some(v),
                diagnostics: Vec::new(),
            },
            Err(e) => {
                let offset = line_col_offset(&text, e.line(), e.column());
                let mut d = ImportDiagnostic::new(
                    "",
                    ImportError::Read {
                        reason: e.to_string(),
                    },
                );
                d.span = Some((offset, 0).into());
                JsonFile {
                    name,
                    text,
                    value: None,
                    diagnostics: vec![d],
                }
            }
        }
    }

    /// Takes the diagnostics of a read, with their spans located.
    pub fn add(&mut self, report: json::Report) {
        let mut ds = report.diagnostics;
        locate_spans(&self.text, &mut ds);
        self.diagnostics.extend(ds);
    }

    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// The four files of a bundle folder, read.
pub struct BundleFiles {
    pub scenario: JsonFile,
    pub utility: JsonFile,
    pub visibility: JsonFile,
    pub appropriateness: JsonFile,
}

impl BundleFiles {
    pub fn read(dir: &Path) -> BundleFiles {
        BundleFiles {
            scenario: JsonFile::read(&dir.join("scenario.json")),
            utility: JsonFile::read(&dir.join("utility.json")),
            visibility: JsonFile::read(&dir.join("visibility.json")),
            appropriateness: JsonFile::read(&dir.join("appropriateness.json")),
        }
    }

    pub fn into_files(self) -> Vec<JsonFile> {
        vec![
            self.scenario,
            self.utility,
            self.visibility,
            self.appropriateness,
        ]
    }
}

/// The byte offset of a 1-based line and column.
fn line_col_offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}
