//! `cici import agentcibench` and `cici export agentcibench`: the
//! AgentCIBench release (UKPLab, `arxiv2026-agentcibench`) in and out.
//!
//! In: the release folder (its `data/seeds` and `data/generated_merged`),
//! a folder of scenario files, or one file. Out: one `.cici` seed per case
//! that has no defect, and `import.json`, the map from every case id to its
//! seed or to the defects that kept it out. Input that does not fit gets
//! [`AcbDiagnostic`]s naming the JSON path, never a panic.
//!
//! ```text
//! case.json ──read──▶ Scenario ──defects──▶ diagnostics
//!           ──seed──▶ <id>.cici (policy_decision: the task's need as its decision)
//! ```

pub mod defects;
mod diagnostic;
pub mod export;
pub mod format;
pub mod seed;

pub use diagnostic::{locate_spans, AcbDiagnostic, AcbError};
pub use format::{GroundTruth, Scenario};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// One scenario file as read: its text (for rendering spans), the scenario
/// when its fields could be read, and its diagnostics.
pub struct CaseFile {
    pub name: String,
    pub text: String,
    pub scenario: Option<Scenario>,
    pub diagnostics: Vec<AcbDiagnostic>,
}

impl CaseFile {
    pub fn read(path: &Path) -> CaseFile {
        let name = path.display().to_string();
        let text = match crate::io::read_text(path) {
            Ok(text) => text,
            Err(e) => return CaseFile::failed(name, String::new(), e.to_string(), None),
        };
        let value: serde_json::Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                let offset = text
                    .split_inclusive('\n')
                    .take(e.line().saturating_sub(1))
                    .map(str::len)
                    .sum::<usize>()
                    + e.column().saturating_sub(1);
                let offset = offset.min(text.len());
                return CaseFile::failed(name, text, e.to_string(), Some(offset));
            }
        };
        let mut diagnostics = Vec::new();
        let scenario = format::read(&value, &mut diagnostics);
        if let Some(s) = &scenario {
            diagnostics.extend(defects::case(s));
        }
        CaseFile {
            name,
            text,
            scenario,
            diagnostics,
        }
    }

    fn failed(name: String, text: String, reason: String, at: Option<usize>) -> CaseFile {
        let mut d = AcbDiagnostic::new("", AcbError::Read { reason });
        d.span = at.map(|o| (o, 0).into());
        CaseFile {
            name,
            text,
            scenario: None,
            diagnostics: vec![d],
        }
    }

    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// One case in `import.json`.
#[derive(Clone, Debug, Serialize)]
pub struct CaseEntry {
    /// The case's `scenario_id` (the file name when it has none).
    pub case: String,
    /// The file read.
    pub source: String,
    /// The seed written, when the case has no error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// Each attribute of the seed, by the ground-truth item it holds.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    /// Every diagnostic of the case: `code at path`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub defects: Vec<String>,
}

/// What an import gives: the files with their diagnostics, the seeds, and
/// the map of every case.
pub struct Import {
    pub files: Vec<CaseFile>,
    /// (file name, seed text) of every case without an error.
    pub seeds: Vec<(String, String)>,
    pub cases: Vec<CaseEntry>,
}

impl Import {
    pub fn errors(&self) -> usize {
        self.files.iter().map(CaseFile::errors).sum()
    }
}

/// The scenario files under `path`: a release folder's `data/seeds` and
/// `data/generated_merged`, a folder's `*.json` but its manifests, or the
/// file itself.
pub fn scenario_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let release: Vec<PathBuf> = ["data/seeds", "data/generated_merged"]
        .iter()
        .map(|d| path.join(d))
        .filter(|d| d.is_dir())
        .collect();
    let folders = if release.is_empty() {
        vec![path.to_path_buf()]
    } else {
        release
    };
    let mut files = Vec::new();
    for folder in folders {
        let entries =
            std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        let mut inner: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
            .filter(|p| {
                !p.file_stem()
                    .is_some_and(|s| s.to_string_lossy().to_lowercase().contains("manifest"))
            })
            .filter(|p| p.file_name().is_none_or(|n| n != "dedup_stats.json"))
            .collect();
        inner.sort();
        files.extend(inner);
    }
    if files.is_empty() {
        return Err(format!(
            "{}: no AgentCIBench scenario file here",
            path.display()
        ));
    }
    Ok(files)
}

/// Reads every file, finds the defects across cases, and converts each
/// case without an error.
pub fn import(paths: &[PathBuf]) -> Import {
    let mut files: Vec<CaseFile> = paths.iter().map(|p| CaseFile::read(p)).collect();
    cross_case(&mut files);
    let mut seeds = Vec::new();
    let mut cases = Vec::new();
    for f in &mut files {
        locate_spans(&f.text, &mut f.diagnostics);
        let mut entry = CaseEntry {
            case: f
                .scenario
                .as_ref()
                .map_or_else(|| f.name.clone(), |s| s.scenario_id.clone()),
            source: f.name.clone(),
            seed: None,
            scenario: None,
            attributes: BTreeMap::new(),
            defects: f
                .diagnostics
                .iter()
                .map(|d| {
                    format!(
                        "{} at {}",
                        d.name(),
                        if d.path.is_empty() { "." } else { &d.path }
                    )
                })
                .collect(),
        };
        if let (Some(s), 0) = (&f.scenario, f.errors()) {
            let seed = seed::seed(s);
            let file = format!("{}.cici", seed.id);
            entry.seed = Some(file.clone());
            entry.scenario = Some(seed.id);
            entry.attributes = seed.attributes;
            seeds.push((file, seed.text));
        }
        cases.push(entry);
    }
    Import {
        files,
        seeds,
        cases,
    }
}

/// Duplicate ids, and prompts shared with a case of another seed.
fn cross_case(files: &mut [CaseFile]) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut ids = BTreeMap::new();
    for (i, f) in files.iter_mut().enumerate() {
        let Some(s) = &f.scenario else { continue };
        // Two cases whose ids differ may still share a seed file name.
        let key = seed::scenario_id(&s.scenario_id);
        if let Some(first) = seen.get(&key) {
            f.diagnostics.push(AcbDiagnostic::new(
                "scenario_id",
                AcbError::DuplicateId {
                    id: s.scenario_id.clone(),
                    first: first.clone(),
                },
            ));
        } else {
            seen.insert(key, f.name.clone());
            ids.insert(i, ());
        }
    }
    let unique: Vec<usize> = ids.keys().copied().collect();
    let scenarios: Vec<&Scenario> = unique
        .iter()
        .filter_map(|&i| files[i].scenario.as_ref())
        .collect();
    let found = defects::duplicated_prompts(&scenarios);
    for (k, other) in found {
        files[unique[k]].diagnostics.push(AcbDiagnostic::new(
            "task_prompt",
            AcbError::DuplicatedPrompt { other },
        ));
    }
}

/// Writes the seeds and `import.json` into `out`, atomically, holding the
/// folder's lock; how many files were written.
pub fn write(out: &Path, import: &Import) -> std::io::Result<usize> {
    let _lock = crate::io::FolderLock::acquire(out, crate::io::LOCK_WAIT)?;
    let mut written = 0;
    for (file, text) in &import.seeds {
        if crate::io::write_if_changed(&out.join(file), text)? {
            written += 1;
        }
    }
    #[derive(Serialize)]
    struct Map<'a> {
        cases: &'a [CaseEntry],
    }
    let text = serde_json::to_string_pretty(&Map {
        cases: &import.cases,
    })
    .map_err(std::io::Error::other)?
        + "\n";
    if crate::io::write_if_changed(&out.join("import.json"), &text)? {
        written += 1;
    }
    Ok(written)
}
