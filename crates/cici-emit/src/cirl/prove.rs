//! Writing flow cases as seeds that check, and the import map that says
//! what became of every case of a release.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Serialize;

use super::diagnostic::{PeerDiagnostic, PeerError};
use super::flow::{seed_text, FlowCase};
use crate::analysis::{CheckDiagnostic, Class};
use crate::driver::{Problem, Run};

/// One item of a case in the map: where it was read, its label in the
/// release, and the class `cici check` proved for it.
#[derive(Clone, Debug, Serialize)]
pub struct MappedItem {
    pub source: String,
    pub label: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
}

/// What became of one case.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MappedCase {
    /// The case's place in the release file.
    #[serde(skip)]
    pub index: usize,
    pub case: String,
    /// Its JSON path in the release file.
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The seed checks: its oracle is proven and no error was found.
    pub proven: bool,
    pub items: BTreeMap<String, MappedItem>,
    /// The codes of the diagnostics about this case.
    pub defects: Vec<String>,
}

/// `import.json` of a peer import.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PeerMap {
    pub release: String,
    pub source: String,
    pub cases: Vec<MappedCase>,
    /// Diagnostics about the release as a whole (no case of its own).
    pub release_defects: Vec<String>,
}

/// An import: the file read, its diagnostics, the seeds and the map.
#[derive(Debug, Default)]
pub struct PeerImport {
    pub name: String,
    pub text: String,
    pub diagnostics: Vec<PeerDiagnostic>,
    /// File name and text of every seed to write.
    pub seeds: Vec<(String, String)>,
    pub map: PeerMap,
}

impl PeerImport {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// The count of cases per defect code, for the summary.
    pub fn defect_counts(&self) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for c in &self.map.cases {
            let codes: BTreeSet<&String> = c.defects.iter().collect();
            for code in codes {
                *out.entry(code.clone()).or_insert(0) += 1;
            }
        }
        out
    }
}

/// The given names each text of a run mentions that are no one of its
/// scenario, per source.
fn strangers(run: &Run, n: usize) -> Vec<Vec<String>> {
    let mut out = vec![BTreeSet::new(); n];
    for d in &run.diagnostics {
        if let Problem::Check(CheckDiagnostic::TextNamesUnknownPerson { word, .. }) = &d.diagnostic
        {
            if let Some(set) = out.get_mut(d.source.0 as usize) {
                set.insert(word.clone());
            }
        }
    }
    out.into_iter().map(|s| s.into_iter().collect()).collect()
}

/// How many times the people a case's texts name are gathered.
const NAME_PASSES: usize = 4;

fn check(texts: &[String]) -> Run {
    let mut run = Run::new();
    let named = texts
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("case{i}.cici"), t.clone()))
        .collect();
    run.check_texts(named, &crate::analysis::Options::default());
    run
}

fn formatted(text: String) -> String {
    crate::syntax::format(&text).unwrap_or(text)
}

/// Writes every case as a seed, checks them all, declares the people their
/// texts name, and fills `import`'s seeds and map: a case whose seed does
/// not check gets a `not_proven` diagnostic.
pub fn prove(cases: Vec<(FlowCase, MappedCase)>, import: &mut PeerImport) {
    let mut texts: Vec<String> = cases
        .iter()
        .map(|(c, _)| formatted(seed_text(c, &[])))
        .collect();
    // A text may name several people and each check reports the first it
    // meets, so the names are gathered over a bounded number of passes.
    let mut named: Vec<BTreeSet<String>> = vec![BTreeSet::new(); texts.len()];
    let mut run = check(&texts);
    for _ in 0..NAME_PASSES {
        let mut grew = false;
        for (i, found) in strangers(&run, texts.len()).into_iter().enumerate() {
            let before = named[i].len();
            named[i].extend(found);
            if named[i].len() > before {
                grew = true;
                let names: Vec<String> = named[i].iter().cloned().collect();
                texts[i] = formatted(seed_text(&cases[i].0, &names));
            }
        }
        if !grew {
            break;
        }
        run = check(&texts);
    }
    let mut failures: Vec<BTreeSet<String>> = vec![BTreeSet::new(); texts.len()];
    for d in run.diagnostics.iter().filter(|d| d.is_error()) {
        if let Some(f) = failures.get_mut(d.source.0 as usize) {
            f.insert(
                miette::Diagnostic::code(&d.diagnostic).map_or_else(String::new, |c| c.to_string()),
            );
        }
    }
    let classes: BTreeMap<&str, &crate::driver::Checked> = run
        .checked
        .iter()
        .map(|c| (c.scenario.id.as_str(), c))
        .collect();
    for (i, ((case, mut mapped), text)) in cases.into_iter().zip(texts).enumerate() {
        let file = format!("{}.cici", case.id);
        if let Some(checked) = classes.get(case.id.as_str()) {
            let sc = &checked.scenario;
            for (a, finding) in sc.attributes.iter().zip(&checked.report.attributes) {
                if let Some(item) = mapped.items.get_mut(&a.id) {
                    item.class = Some(finding.class);
                }
            }
        }
        mapped.proven = failures[i].is_empty() && classes.contains_key(case.id.as_str());
        if !mapped.proven {
            let codes: Vec<String> = failures[i].iter().cloned().collect();
            let d = PeerDiagnostic::new(
                Some(&mapped.case),
                &mapped.path,
                PeerError::NotProven {
                    codes: codes.join(", "),
                },
            );
            mapped.defects.push(d.code());
            import.diagnostics.push(d);
        }
        mapped.file = Some(file.clone());
        mapped.scenario = Some(case.id.clone());
        import.seeds.push((file, text));
        import.map.cases.push(mapped);
    }
}

/// Writes the seeds and `import.json` into `out`, each atomically, holding
/// the folder's lock; how many files changed.
pub fn write(out: &Path, import: &PeerImport) -> std::io::Result<usize> {
    std::fs::create_dir_all(out)?;
    let _lock = crate::io::FolderLock::acquire(out, crate::io::LOCK_WAIT)?;
    let mut written = 0;
    for (file, text) in &import.seeds {
        if crate::io::write_if_changed(&out.join(file), text)? {
            written += 1;
        }
    }
    let map = serde_json::to_string_pretty(&import.map).map_err(std::io::Error::other)? + "\n";
    if crate::io::write_if_changed(&out.join("import.json"), &map)? {
        written += 1;
    }
    Ok(written)
}

/// Records the diagnostics of `import` in its map (each case's defects,
/// the release's own) and locates their spans in the file's text.
pub fn settle(import: &mut PeerImport) {
    super::diagnostic::locate_spans(&import.text, &mut import.diagnostics);
    let index: BTreeMap<String, usize> = import
        .map
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.case.clone(), i))
        .collect();
    for d in &import.diagnostics {
        if matches!(d.error, PeerError::NotProven { .. }) {
            continue;
        }
        match d.case.as_ref().and_then(|c| index.get(c)) {
            Some(&i) => import.map.cases[i].defects.push(d.code()),
            None => import.map.release_defects.push(d.code()),
        }
    }
    import.map.cases.sort_by_key(|c| c.index);
    for c in &mut import.map.cases {
        c.defects.sort();
        c.defects.dedup();
    }
}
