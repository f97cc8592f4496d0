//! `cici build`: everything a benchmark run needs, under one folder.
//!
//! In: a checked [`Run`] and [`Templates`]. Out: a [`Plan`], every output
//! file as text keyed by its path relative to the output folder, built in
//! memory in a fixed order so that the output is byte-for-byte
//! deterministic; then [`write()`] puts it on disk atomically with its
//! manifest, or [`check`] compares it with what is there. The exports
//! write through the same two functions.
//!
//! ```text
//! manifest.json                  every file the build wrote and the inputs
//!                                it read, for pruning (written by `write`)
//! schema/scenario.schema.json    the JSON Schema of scenario.json
//! schema/<name>                  the JSON Schemas of the datasets later
//!                                layers make (`Options::schemas`; the
//!                                command line's counterfactual triplet,
//!                                triplet.schema.json)
//! stats.md                       statistics of the built corpus
//! <id>/scenario.json             the export, validated against the schema
//! <id>/...                       the rendered artifacts (see `render`), or
//! <id>/artifacts.json            all of them in one file (`--layout packed`)
//! schema/artifacts.schema.json   its JSON Schema (packed layout only)
//! ```

mod manifest;
mod write;

pub use manifest::{Manifest, Origin, Writer, EXPORT_MANIFEST};
pub use write::{check, write, Difference, OutputError, Target, WriteSummary, JOURNAL};

use std::collections::BTreeMap;

use miette::Diagnostic;
use thiserror::Error;

use crate::driver::{Checked, Run};
use crate::export::{self, Validator};
use crate::render::{self, RenderError, Templates};

/// The name of the manifest file in the output folder.
pub const MANIFEST: &str = "manifest.json";

/// A scenario that could not be built although it checked.
#[derive(Debug, Error, Diagnostic)]
pub enum BuildError {
    /// A template failed on this scenario.
    ///
    /// ```text
    /// {{ brief.nope }}
    /// ```
    #[error("cannot render `{scenario}`")]
    #[diagnostic(code(cici::build::render))]
    Render {
        scenario: String,
        #[source]
        #[diagnostic_source]
        source: RenderError,
    },

    /// The export broke its own schema: a bug in cici, reported rather
    /// than written.
    ///
    /// ```text
    /// (no seed triggers this; it guards the export code)
    /// ```
    #[error("the export of `{scenario}` does not match its schema: {errors}")]
    #[diagnostic(code(cici::build::schema), help("please report this as a bug in cici"))]
    Schema { scenario: String, errors: String },

    /// A scenario's output is larger than its seed allows: a huge text
    /// repeated in every rendered file (a 10 MB title gave 821 MB).
    ///
    /// ```text
    /// title "<ten million characters>"
    /// ```
    #[error("`{scenario}` would write {bytes} bytes, more than the {limit} its {seed_bytes}-byte seed allows")]
    #[diagnostic(
        code(cici::build::too_large),
        help("a scenario may write `--max-output-ratio` ({ratio}) times its seed's size per person, plus 1 MiB; shorten its texts, or raise --max-output-ratio")
    )]
    TooLarge {
        scenario: String,
        bytes: usize,
        limit: usize,
        seed_bytes: usize,
        ratio: u64,
    },
}

/// The default of `--max-output-ratio`: a scenario may write this many
/// times its seed's size per person, plus [`OUTPUT_ALLOWANCE`]. A text
/// everyone may see is written once per person in each of the 12
/// conditions, so no seed needs more than about 12.5; the project's seeds
/// write 5 to 10 times (a JIRA seed of 26 people, 3).
pub const MAX_OUTPUT_RATIO: u64 = 16;

/// What every scenario may write beyond its ratio (the templates' own
/// text).
pub const OUTPUT_ALLOWANCE: usize = 1 << 20;

/// The most a scenario may write.
pub fn output_limit(c: &Checked, ratio: u64) -> (usize, usize) {
    let seed = (c.scenario.span.end - c.scenario.span.start) as usize;
    let people = c.scenario.people.len().max(1);
    let limit = seed
        .saturating_mul(people)
        .saturating_mul(ratio as usize)
        .saturating_add(OUTPUT_ALLOWANCE);
    (seed, limit)
}

/// Every output file, in memory.
#[derive(Debug, Default)]
pub struct Plan {
    /// Relative path to text, sorted by path; the manifest is not among
    /// them ([`write()`] makes it).
    pub files: BTreeMap<String, String>,
    /// Scenarios built.
    pub built: Vec<String>,
    /// Scenarios not built: they have errors.
    pub skipped: Vec<String>,
    pub errors: Vec<BuildError>,
}

/// How the rendered artifacts are laid out on disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// A Markdown file per artifact: a folder per condition, a knowledge
    /// file per person in each (about 100 files per scenario).
    #[default]
    Files,
    /// Per scenario `scenario.json` and `artifacts.json`, which holds every
    /// text of the file layout once (see [`render::Artifacts`]).
    Packed,
}

/// What a build writes.
#[derive(Clone, Debug)]
pub struct Options {
    /// A scenario writes at most this many times its seed's size per
    /// person (plus [`OUTPUT_ALLOWANCE`]); one that would write more is an
    /// error and is not built.
    pub max_output_ratio: u64,
    /// The cue × rule conditions rendered, each once; all 12 when empty.
    pub conditions: Vec<render::Condition>,
    pub layout: Layout,
    /// The JSON Schemas of datasets that later layers make from built
    /// scenarios, each written as `schema/<file name>`: the build cannot
    /// see their records, so its caller passes them (the command line
    /// passes the counterfactual triplet's, `triplet.schema.json`).
    pub schemas: BTreeMap<String, serde_json::Value>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_output_ratio: MAX_OUTPUT_RATIO,
            conditions: Vec::new(),
            layout: Layout::Files,
            schemas: BTreeMap::new(),
        }
    }
}

/// Renders and exports every error-free scenario of a run, each within
/// [`MAX_OUTPUT_RATIO`], under every condition, in the file layout, with
/// no later layer's dataset schema.
pub fn plan(run: &Run, templates: &Templates) -> Plan {
    plan_with(run, templates, &Options::default())
}

/// [`plan`] with the output bounds, conditions and layout of `options`.
pub fn plan_with(run: &Run, templates: &Templates, options: &Options) -> Plan {
    let ratio = options.max_output_ratio;
    let validator = Validator::new();
    let ok: Vec<&Checked> = run
        .checked
        .iter()
        .filter(|c| c.report.errors() == 0)
        .collect();
    let mut plan = Plan {
        skipped: run
            .checked
            .iter()
            .filter(|c| c.report.errors() > 0)
            .map(|c| c.scenario.id.clone())
            .collect(),
        ..Plan::default()
    };
    let bar = crate::io::Progress::new(ok.len(), "scenarios");
    bar.set_message("rendered".into());
    let results = crate::driver::parallel_map(&ok, |c| {
        let files = scenario_files(c, templates, &validator, options);
        bar.inc(1);
        let files = files?;
        let bytes: usize = files.iter().map(|(_, text)| text.len()).sum();
        let (seed_bytes, limit) = output_limit(c, ratio);
        if bytes > limit {
            return Err(BuildError::TooLarge {
                scenario: c.scenario.id.clone(),
                bytes,
                limit,
                seed_bytes,
                ratio,
            });
        }
        Ok(files)
    });
    bar.finish_and_clear();
    let mut built = Vec::new();
    for (c, result) in ok.iter().zip(results) {
        match result {
            Ok(files) => {
                plan.files.extend(files);
                plan.built.push(c.scenario.id.clone());
                built.push(*c);
            }
            Err(e) => {
                plan.skipped.push(c.scenario.id.clone());
                plan.errors.push(e);
            }
        }
    }
    let schema = serde_json::to_string_pretty(&export::schema()).expect("schemas serialize") + "\n";
    plan.files
        .insert("schema/scenario.schema.json".into(), schema);
    for (name, schema) in &options.schemas {
        let text = serde_json::to_string_pretty(schema).expect("schemas serialize") + "\n";
        plan.files.insert(format!("schema/{name}"), text);
    }
    if options.layout == Layout::Packed {
        let artifacts = serde_json::to_string_pretty(&render::artifacts_schema())
            .expect("schemas serialize")
            + "\n";
        plan.files
            .insert("schema/artifacts.schema.json".into(), artifacts);
    }
    plan.files.insert(
        "stats.md".into(),
        crate::stats::markdown(&crate::stats::stats(&built)),
    );
    plan
}

/// The files of one scenario: its export, validated, and its artifacts.
fn scenario_files(
    c: &Checked,
    templates: &Templates,
    validator: &Validator,
    options: &Options,
) -> Result<Vec<(String, String)>, BuildError> {
    let id = &c.scenario.id;
    let value =
        serde_json::to_value(export::export(&c.scenario, &c.report)).expect("exports serialize");
    let errors = validator.errors(&value);
    if !errors.is_empty() {
        return Err(BuildError::Schema {
            scenario: id.clone(),
            errors: errors.join("; "),
        });
    }
    let mut files = vec![(
        format!("{id}/scenario.json"),
        serde_json::to_string_pretty(&value).expect("values serialize") + "\n",
    )];
    let artifacts = render::artifacts(c, templates, &options.conditions).map_err(|source| {
        BuildError::Render {
            scenario: id.clone(),
            source,
        }
    })?;
    match options.layout {
        Layout::Files => files.extend(artifacts.files()),
        Layout::Packed => files.push(artifacts.packed()),
    }
    Ok(files)
}
