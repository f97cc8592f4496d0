//! `cici import`: the PiSAs release's formats as a compiler front end.
//!
//! In: a task-family seed (schema 2.1) with its personal-context library,
//! or scenario bundles. Out: `.cici` seeds, one per scenario, and
//! `import.json`, the map from what was read to what was written. Input
//! that does not fit gets [`ImportDiagnostic`]s naming the JSON path
//! (`decision_policy.rules[3].when`), never a panic; a partly bad input
//! still imports what it can.
//!
//! ```text
//! seed.json ──read──▶ TaskFamily (rules, variables, decoys, cast)
//!           ──configurations──▶ one Scenario per valid configuration
//!           ──print──▶ <id>.cici + import.json
//! ```

pub mod build;
pub mod bundle;
mod cast;
mod diagnostic;
mod files;
mod jira;
pub mod json;
mod map;
mod meeting;
pub mod names;
pub mod seed;
pub mod select;
pub mod typed;

pub use diagnostic::{locate_spans, ImportDiagnostic, ImportError};
pub use files::{BundleFiles, JsonFile};
pub use map::{AttributeSource, ImportMap, ImportedScenario, Written};

use std::path::Path;

/// Writes the seeds and `import.json` into `out`, atomically, holding the
/// folder's lock; how many files were written.
pub fn write(out: &Path, scenarios: &[Written]) -> std::io::Result<usize> {
    let _lock = crate::io::FolderLock::acquire(out, crate::io::LOCK_WAIT)?;
    let mut written = 0;
    for s in scenarios {
        if crate::io::write_if_changed(&out.join(&s.entry.file), &s.text)? {
            written += 1;
        }
    }
    let map = ImportMap {
        scenarios: scenarios.iter().map(|s| s.entry.clone()).collect(),
    };
    let text = serde_json::to_string_pretty(&map).expect("the map serializes") + "\n";
    if crate::io::write_if_changed(&out.join("import.json"), &text)? {
        written += 1;
    }
    Ok(written)
}

/// Options of `cici import pisas-seed`.
#[derive(Clone, Debug)]
pub struct SeedOptions {
    pub select: build::Select,
    pub seed: u64,
    /// Scenario ids are `<prefix>_cfg_NNN`; from the seed's folder (or
    /// file) name when `None`.
    pub prefix: Option<String>,
}

/// What importing a task-family seed gives: the scenarios, and the files
/// read with their diagnostics.
pub struct SeedImport {
    /// Only scenarios that depend on no part with an error: none when an
    /// error is in what every configuration depends on (the variables, the
    /// outcomes, the cast, the invalid configurations), and none whose
    /// outcome a rule that could not be read might change.
    pub scenarios: Vec<Written>,
    pub files: Vec<JsonFile>,
    /// Configurations left out because a rule that could not be read
    /// might change their outcome.
    pub left_out: usize,
}

/// Whether an error at this JSON path of a task-family seed touches every
/// configuration. Errors in a rule touch only the configurations that rule
/// could decide; errors in decoys, coverage plans and wordings touch no
/// outcome.
fn blocks_every_configuration(path: &str) -> bool {
    ![
        "decision_policy.rules[",
        "decision_decoys",
        "generation_plan.coverage_cases",
        "generation_plan.outcome_quotas",
        "timeline",
        "task.",
    ]
    .iter()
    .any(|p| path.starts_with(p))
}

/// Keeps the scenarios of configurations whose outcome no part with an
/// error can change, and records in each what was left out; how many were
/// dropped.
fn keep_sure(
    tf: &seed::TaskFamily,
    configs: &[(usize, (Vec<usize>, usize))],
    built: Vec<Written>,
    errors: &[&ImportDiagnostic],
) -> (Vec<Written>, usize) {
    if errors.iter().any(|d| blocks_every_configuration(&d.path)) {
        return (Vec::new(), built.len());
    }
    let dropped: Vec<String> = errors
        .iter()
        .map(|d| format!("{}: {}", d.path, d.error))
        .collect();
    let total = built.len();
    let kept: Vec<Written> = built
        .into_iter()
        .zip(configs)
        .filter(|(_, (_, (config, _)))| tf.outcome_is_sure(config))
        .map(|(mut w, _)| {
            if !dropped.is_empty() {
                let mut head = String::from(
                    "# Imported with errors in the seed; these parts were left out, and no\n# configuration whose outcome they could change was written:\n",
                );
                for d in &dropped {
                    head.push_str(&format!("# - {}\n", d.replace('\n', " ")));
                }
                w.text = format!("{head}{}", w.text);
                w.entry.dropped = dropped.clone();
            }
            w
        })
        .collect();
    let left_out = total - kept.len();
    (kept, left_out)
}

/// Imports a task-family seed (and its personal-context library): one
/// scenario per selected configuration.
pub fn pisas_seed(seed: &Path, library: Option<&Path>, options: &SeedOptions) -> SeedImport {
    let seed_file = JsonFile::read(seed);
    let library = library.map(JsonFile::read);
    pisas_seed_files(seed_file, library, options)
}

/// [`pisas_seed`] on files already read (or texts that never were files);
/// the default prefix comes from the seed file's name.
pub fn pisas_seed_files(
    mut seed_file: JsonFile,
    library: Option<JsonFile>,
    options: &SeedOptions,
) -> SeedImport {
    let seed = Path::new(&seed_file.name).to_path_buf();
    let seed = seed.as_path();
    let mut files = Vec::new();
    let mut personal = Vec::new();
    if let Some(mut f) = library {
        if let Some(v) = &f.value {
            let mut r = json::Report::default();
            personal = build::read_library(v, &mut r);
            f.add(r);
        }
        files.push(f);
    }
    let mut scenarios = Vec::new();
    let mut left_out = 0;
    if let Some(v) = seed_file.value.take() {
        let mut r = json::Report::default();
        if let Some(tf) = seed::read(&v, &mut r) {
            let prefix = options
                .prefix
                .clone()
                .unwrap_or_else(|| default_prefix(seed));
            let source = seed.display().to_string();
            let cx = build::Context {
                tf: &tf,
                library: &personal,
                prefix: &prefix,
                source: &source,
                seed: options.seed,
            };
            let configs: Vec<(usize, (Vec<usize>, usize))> =
                build::configurations(&tf, options.select, options.seed, &mut r)
                    .into_iter()
                    .enumerate()
                    .collect();
            // Each scenario is printed and laid out on its own: in parallel,
            // results in order.
            let built = crate::driver::parallel_map(&configs, |(i, (config, outcome))| {
                let mut own = json::Report::default();
                let w = build::scenario(&cx, config, *outcome, *i, &mut own);
                (w, own.diagnostics)
            });
            let mut written = Vec::new();
            for (w, diagnostics) in built {
                written.push(w);
                r.diagnostics.extend(diagnostics);
            }
            let errors: Vec<&ImportDiagnostic> =
                r.diagnostics.iter().filter(|d| d.is_error()).collect();
            let (kept, dropped) = keep_sure(&tf, &configs, written, &errors);
            scenarios = kept;
            left_out = dropped;
        }
        // Placeholder warnings repeat per scenario: keep one per path.
        let mut seen = std::collections::HashSet::new();
        r.diagnostics
            .retain(|d| seen.insert((d.path.clone(), d.error.to_string())));
        seed_file.value = Some(v);
        seed_file.add(r);
    }
    files.insert(0, seed_file);
    SeedImport {
        scenarios,
        files,
        left_out,
    }
}

/// Imports scenario bundles: each folder's own seed when cici exported it,
/// else the task-family `seed` the release's generator made it from.
pub fn pisas_bundles(dirs: &[std::path::PathBuf], seed: Option<&Path>) -> SeedImport {
    let mut files = Vec::new();
    let mut family = None;
    if let Some(path) = seed {
        let mut f = JsonFile::read(path);
        if let Some(v) = &f.value {
            let mut r = json::Report::default();
            family = seed::read(v, &mut r);
            f.add(r);
        }
        files.push(f);
    }
    let mut scenarios: Vec<Written> = Vec::new();
    let mut left_out = 0;
    // A seed with an error could change what every bundle means.
    let seed_broken = files.iter().any(|f| f.errors() > 0);
    for dir in dirs {
        let source = dir.display().to_string();
        let (w, read) = pisas_bundle(BundleFiles::read(dir), &source, family.as_ref());
        let broken = seed_broken || read.iter().any(|f| f.errors() > 0);
        files.extend(read);
        if broken {
            left_out += usize::from(w.is_some());
            continue;
        }
        if let Some(w) = w {
            // The same folder named twice imports once.
            if scenarios.iter().any(|s| s.entry.source == w.entry.source) {
                continue;
            }
            let w = distinct(w, dir, |id| {
                scenarios.iter().any(|s| s.entry.scenario == id)
            });
            scenarios.push(w);
        }
    }
    SeedImport {
        scenarios,
        files,
        left_out,
    }
}

/// `w` under an id no scenario has taken: bundles of one scenario in
/// several folders (the JIRA notebook writes one per artifact mode) become
/// `<id>_<parent folder>`, then `<id>_2`, `<id>_3`...
fn distinct(mut w: Written, dir: &Path, taken: impl Fn(&str) -> bool) -> Written {
    let old = w.entry.scenario.clone();
    if !taken(&old) {
        return w;
    }
    let parent = dir
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .and_then(names::identifier);
    let suffixes = parent.into_iter().chain((2..).map(|n: u32| n.to_string()));
    let new = suffixes
        .map(|suffix| {
            // Ids stay within the language's bound.
            let keep = crate::sema::MAX_NAME.saturating_sub(suffix.len() + 1);
            let stem: String = old.chars().take(keep).collect();
            format!("{}_{suffix}", stem.trim_end_matches('_'))
        })
        .find(|id| !taken(id))
        .expect("some numbered id is free");
    w.text = w.text.replacen(
        &format!("scenario {old} {{"),
        &format!("scenario {new} {{"),
        1,
    );
    w.entry.file = format!("{new}.cici");
    w.entry.scenario = new;
    w
}

/// Imports one bundle already read, named `source`: the scenario, if one
/// could be made, and the files that have something to say.
pub fn pisas_bundle(
    mut bundle: BundleFiles,
    source: &str,
    family: Option<&seed::TaskFamily>,
) -> (Option<Written>, Vec<JsonFile>) {
    let mut r = json::Report::default();
    let w = bundle
        .typed()
        .and_then(|typed| from_typed(&typed, source, family, &mut r));
    // Diagnostics point into utility.json, where the attributes are.
    bundle.utility.add(r);
    (
        w,
        bundle
            .into_files()
            .into_iter()
            .filter(|f| !f.diagnostics.is_empty())
            .collect(),
    )
}

/// A bundle whose files fit the format, read by the reader its contents
/// call for.
fn from_typed(
    typed: &crate::pisas::format::Bundle,
    source: &str,
    family: Option<&seed::TaskFamily>,
    r: &mut json::Report,
) -> Option<Written> {
    let utility = &typed.utility;
    let jira = utility.oracle_assignment.is_some();
    let meeting = utility.oracle_schedule.is_some();
    match (&utility.cici, family) {
        (Some(cici), _) => bundle::from_cici(typed, &cici.seed, source, r),
        (None, _) if jira => jira::from_bundle(typed, source, r),
        (None, _) if meeting => meeting::from_bundle(typed, source, r),
        (None, Some(tf)) => bundle::from_release(typed, tf, source, r),
        (None, None) => {
            r.push(
                "",
                ImportError::Shape {
                    expected: "a bundle cici exported, a JIRA or meeting bundle (`oracle_assignment`, `oracle_schedule`), or --seed with the task-family seed it was made from".into(),
                    help: Some("a bundle states the answer, not the rules: the rules come from its task-family seed".into()),
                },
            );
            None
        }
    }
}

/// `uas_flight_readiness` for `.../uas_flight_readiness/seed.json`, the
/// file stem otherwise; made an identifier of at most 40 characters.
fn default_prefix(seed: &Path) -> String {
    let stem = seed.file_stem().and_then(|s| s.to_str()).unwrap_or("seed");
    let name = if stem == "seed" {
        seed.parent()
            .and_then(|p| p.file_name())
            .and_then(|s| s.to_str())
            .unwrap_or(stem)
    } else {
        stem
    };
    let id = names::identifier(name).unwrap_or_else(|| "seed".into());
    id.chars()
        .take(40)
        .collect::<String>()
        .trim_end_matches('_')
        .to_string()
}
