//! Writing a dataset that survives interruption.
//!
//! `triplets.jsonl` is appended one complete line at a time and flushed; a
//! resumed run reads the ids already there (dropping a torn last line, if a
//! kill left one), recomputes each seed's triplets deterministically and
//! writes only the missing ones. Variant seeds go to `variants/` by atomic
//! rename. The dataset card is written last, from the whole file.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::{Config, Kind, TripletRecord};
use crate::driver::Checked;
use crate::io::write_atomic;
use crate::render::Templates;

pub const TRIPLETS: &str = "triplets.jsonl";

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Triplets written by this run.
    pub written: usize,
    /// Triplets found from an earlier run and kept.
    pub kept: usize,
    /// Seeds that gave fewer triplets than asked for.
    pub short: Vec<String>,
}

/// `seed` with its `scenario <from> {` header naming `to` instead.
fn renamed(seed: &str, from: &str, to: &str) -> String {
    let header = format!("scenario {from} {{");
    match seed.find(&header) {
        Some(i) => format!(
            "{}scenario {to} {{{}",
            &seed[..i],
            &seed[i + header.len()..]
        ),
        None => seed.to_string(),
    }
}

/// The JSON Schema of a triplet record.
pub fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(TripletRecord)).expect("schemas serialize")
}

/// The ids in an existing `triplets.jsonl`, after cutting a torn last line.
fn existing(path: &Path) -> std::io::Result<Vec<TripletRecord>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    if complete.len() != text.len() {
        let file = std::fs::OpenOptions::new().write(true).open(path)?;
        file.set_len(complete.len() as u64)?;
    }
    Ok(complete
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

/// The file that records the options a folder's triplets were made with.
pub const RUN_FILE: &str = "run.json";

/// What a folder's triplets depend on, besides the seeds.
fn run_identity(config: &Config) -> serde_json::Value {
    serde_json::json!({
        "seed": config.seed,
        "kinds": config.kinds.iter().map(|k| format!("{k:?}").to_lowercase()).collect::<Vec<_>>(),
        "generator": config.generator_name(),
    })
}

/// Refuses to resume a folder made with another run seed, kind or
/// generator (the records would mix while the card names only the last);
/// records the options of a new folder.
fn same_run(out: &Path, config: &Config) -> std::io::Result<()> {
    let want = run_identity(config);
    let path = out.join(RUN_FILE);
    if let Ok(text) = std::fs::read_to_string(&path) {
        let had: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        if had != want {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "{} holds triplets made with {had}; this run is {want}: resume with the same --seed, --kind and generator, or write to another --out",
                    out.display()
                ),
            ));
        }
        return Ok(());
    }
    write_atomic(
        &path,
        &(serde_json::to_string_pretty(&want).expect("values serialize") + "\n"),
    )
}

/// Generates triplets for every seed into `out`, resuming what is there.
pub fn run(
    seeds: &[&Checked],
    config: &Config,
    templates: &Templates,
    out: &Path,
) -> std::io::Result<Summary> {
    std::fs::create_dir_all(out.join("variants"))?;
    same_run(out, config)?;
    // Temporaries of a run that was killed mid-write.
    for e in std::fs::read_dir(out.join("variants"))?.flatten() {
        if e.file_name()
            .to_string_lossy()
            .starts_with(crate::io::TMP_PREFIX)
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let path = out.join(TRIPLETS);
    let mut records = existing(&path)?;
    let mut done: HashSet<String> = records.iter().map(|r| r.id.clone()).collect();
    let mut summary = Summary {
        kept: records.len(),
        ..Summary::default()
    };
    let validator = jsonschema::validator_for(&schema()).expect("the generated schema is valid");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)?;
    let bar = indicatif::ProgressBar::new(seeds.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} seeds, {msg}")
            .expect("a valid progress template"),
    );
    // Seeds are processed in chunks on every core; each chunk is written in
    // seed order before the next starts, so an interruption loses at most
    // the chunk in flight.
    let chunk = config.workers.max(1) * 2;
    for group in seeds.chunks(chunk) {
        if config.fatal().is_some() {
            break;
        }
        let results = crate::driver::parallel_map_n(group, config.workers, |c| {
            super::triplets(c, config, templates)
        });
        for (c, triplets) in group.iter().zip(results) {
            let wanted = config.per_seed * config.kinds.len();
            if triplets.len() < wanted {
                summary.short.push(c.scenario.id.clone());
            }
            for t in triplets {
                if done.contains(&t.id) {
                    continue;
                }
                let value = serde_json::to_value(&t).expect("records serialize");
                let errors: Vec<String> = validator
                    .iter_errors(&value)
                    .map(|e| e.to_string())
                    .collect();
                if !errors.is_empty() {
                    return Err(std::io::Error::other(format!(
                        "triplet {} does not match its schema (a bug in cici): {}",
                        t.id,
                        errors.join("; ")
                    )));
                }
                // Each variant file under its own scenario id, so that the
                // folder checks as a whole without duplicate ids.
                for (side, seed) in [
                    ("flipped", &t.flipped.side.seed),
                    ("held", &t.held.side.seed),
                ] {
                    write_atomic(
                        &out.join("variants").join(format!("{}.{side}.cici", t.id)),
                        &renamed(
                            seed,
                            &t.scenario,
                            &format!("{}_{side}", t.id.replace('-', "_")),
                        ),
                    )?;
                }
                let mut line = serde_json::to_string(&value).expect("values serialize");
                line.push('\n');
                file.write_all(line.as_bytes())?;
                file.flush()?;
                done.insert(t.id.clone());
                records.push(t);
                summary.written += 1;
            }
            bar.inc(1);
            bar.set_message(format!("{} triplets", records.len()));
        }
    }
    bar.finish_and_clear();
    write_atomic(&out.join("README.md"), &card(&records, config))?;
    Ok(summary)
}

/// The Hugging Face dataset card's front matter.
#[derive(Serialize)]
struct FrontMatter {
    pretty_name: String,
    license: String,
    language: Vec<String>,
    task_categories: Vec<String>,
    tags: Vec<String>,
    size_categories: Vec<String>,
    configs: Vec<ConfigEntry>,
}

#[derive(Serialize)]
struct ConfigEntry {
    config_name: String,
    data_files: String,
}

/// `README.md`: YAML front matter in the Hugging Face convention, so that
/// `datasets.load_dataset("json", data_files="triplets.jsonl")` and the Hub
/// both read the data as is, and a summary of what is inside.
pub fn card(records: &[TripletRecord], config: &Config) -> String {
    let n = records.len();
    let size = match n {
        0..1_000 => "n<1K",
        1_000..10_000 => "1K<n<10K",
        10_000..100_000 => "10K<n<100K",
        _ => "100K<n<1M",
    };
    let front = FrontMatter {
        pretty_name: "cici counterfactual triplets".into(),
        license: "cc-by-4.0".into(),
        language: vec!["en".into()],
        task_categories: vec!["text-classification".into()],
        tags: vec![
            "privacy".into(),
            "contextual-integrity".into(),
            "counterfactual".into(),
            "agents".into(),
        ],
        size_categories: vec![size.into()],
        configs: vec![ConfigEntry {
            config_name: "default".into(),
            data_files: TRIPLETS.into(),
        }],
    };
    let yaml = serde_yaml::to_string(&front).expect("the front matter serializes");
    let mut per_kind: BTreeMap<&str, usize> = BTreeMap::new();
    let mut per_scenario: BTreeMap<&str, usize> = BTreeMap::new();
    for r in records {
        *per_kind
            .entry(if r.kind == Kind::Decision {
                "decision"
            } else {
                "flow"
            })
            .or_insert(0) += 1;
        *per_scenario.entry(r.scenario.as_str()).or_insert(0) += 1;
    }
    let mut body = format!(
        "---\n{yaml}---\n\n# cici counterfactual triplets\n\n\
         Each line of `{TRIPLETS}` is a triplet grown from a seed scenario: the anchor, a minimal \
         edit that flips a label (`flipped`) and a minimal edit that keeps it (`held`). Labels are \
         computed by the cici prover from the variant's seed text, never guessed; every variant \
         seed (also under `variants/`) passes `cici check`.\n\n\
         - `decision` labels: the one decision the scenario allows.\n\
         - `flow` labels: whether sharing one form of one attribute with one person is \
         appropriate for the task (the form is appropriate, its fact is relevant, the person may \
         see it).\n\n\
         Generator: {}. Critic: {}. Run seed: {}. Candidates per side: at most {}.\n\n\
         | kind | triplets |\n|---|---|\n",
        match &config.generator_llm {
            None => "symbolic mutation operators".to_string(),
            Some(m) => format!(
                "the language model `{}`, its edits checked and labelled by the prover",
                m.model()
            ),
        },
        match &config.critic_llm {
            None => "rule-based".to_string(),
            Some(m) => format!("rule-based, then the language model `{}`", m.model()),
        },
        config.seed,
        config.rounds
    );
    for (k, v) in &per_kind {
        body.push_str(&format!("| {k} | {v} |\n"));
    }
    body.push_str(&format!(
        "| all | {n} |\n\n| scenario | triplets |\n|---|---|\n"
    ));
    for (s, v) in &per_scenario {
        body.push_str(&format!("| {s} | {v} |\n"));
    }
    let models: Vec<&crate::llm::Llm> = config
        .generator_llm
        .iter()
        .chain(config.critic_llm.iter().filter(|c| {
            config
                .generator_llm
                .as_ref()
                .is_none_or(|g| !std::sync::Arc::ptr_eq(g, c))
        }))
        .map(|m| m.as_ref())
        .collect();
    for m in models {
        let u = m.usage();
        body.push_str(&format!(
            "\nModel usage of the run that wrote this card (`{}`): {} requests ({} retries), {} cache hits, {} prompt tokens, {} completion tokens.\n",
            m.model(),
            u.requests,
            u.retries,
            u.cache_hits,
            u.prompt_tokens,
            u.completion_tokens
        ));
    }
    let mut short: Vec<(String, Vec<(String, usize)>)> = config
        .rejections
        .seeds()
        .into_iter()
        .map(|s| {
            let r = config.rejections.of(&s);
            (s, r)
        })
        .collect();
    short.retain(|(_, r)| !r.is_empty());
    if !short.is_empty() {
        body.push_str("\n## Sides that found no variant, and why\n\nCandidates the run turned down, by seed and reason (a side that found no variant within its rounds leaves its triplet out).\n\n| scenario | reason | candidates |\n|---|---|---|\n");
        for (seed, reasons) in &short {
            for (r, n) in reasons {
                body.push_str(&format!("| {seed} | {} | {n} |\n", r.replace('|', "/")));
            }
        }
    }
    body.push_str(
        "\nThe record schema is `generated/schema/triplet.schema.json` in the cici repository.\n",
    );
    body
}
