//! Helpers shared by the suites.

use std::path::PathBuf;

use cici::analysis::{Class, Options};
use cici::driver::Run;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The test data in the repository: the reference corpus and the PiSAs
/// task-family seeds (`tests/data/README.md` says where each comes from).
pub fn data() -> PathBuf {
    root().join("tests/data")
}

/// Checks one text with default options.
pub fn check(name: &str, text: &str) -> Run {
    let mut run = Run::new();
    run.check_text(name, text, &Options::default());
    run
}

/// The ids of the attributes of a checked scenario with the given class.
pub fn with_class(run: &Run, scenario: usize, class: Class) -> Vec<String> {
    let c = &run.checked[scenario];
    c.scenario
        .attributes
        .iter()
        .zip(&c.report.attributes)
        .filter(|(_, f)| f.class == class)
        .map(|(a, _)| a.id.clone())
        .collect()
}

/// Every diagnostic of a run rendered without colour, as a user sees it.
pub fn render(run: &Run) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100)
            .with_context_lines(1);
    let mut out = String::new();
    for d in run.with_sources() {
        handler
            .render_report(&mut out, &d)
            .expect("rendering into a string");
    }
    out
}

/// A fresh, empty folder in the system's temporary folder, removed with
/// everything in it when the value is dropped.
pub struct TempDir {
    _guard: tempfile::TempDir,
    path: PathBuf,
}

impl std::ops::Deref for TempDir {
    type Target = PathBuf;

    fn deref(&self) -> &PathBuf {
        &self.path
    }
}

impl AsRef<std::path::Path> for TempDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.path
    }
}

/// A fresh, empty folder named after the test (`cici-<name>-...`).
pub fn tempdir(name: &str) -> TempDir {
    let guard = tempfile::Builder::new()
        .prefix(&format!("cici-{name}-"))
        .tempdir()
        .unwrap();
    TempDir {
        path: guard.path().to_path_buf(),
        _guard: guard,
    }
}

/// Runs the built binary in the repository root, without colours.
pub fn cici(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// The sources of every crate of the workspace: `src/` of the root and
/// of each crate under `crates/`.
pub fn source_dirs() -> Vec<PathBuf> {
    let mut out = vec![root().join("src")];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    crates.sort();
    out.extend(crates);
    out
}

/// Every `.rs` file of the workspace's sources (`source_dirs`).
pub fn source_files() -> Vec<PathBuf> {
    source_dirs().iter().flat_map(|d| rust_files(d)).collect()
}

/// Every `.rs` file under `dir`, at any depth.
pub fn rust_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out
}

/// Every diagnostic code the sources declare (`code(cici::...)` in `src/`).
pub fn codes_in_source() -> std::collections::BTreeSet<String> {
    let mut codes = std::collections::BTreeSet::new();
    for p in source_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        for part in text.split("code(cici::").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            codes.insert(format!("cici::{name}"));
        }
    }
    codes
}

/// The `diagnostics` of a `--format json` run's stdout.
pub fn json_diagnostics(out: &std::process::Output) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    v["diagnostics"]
        .as_array()
        .expect("a diagnostics list")
        .clone()
}
