//! The dataset card (`README.md`): front matter the Hub and `datasets`
//! read, one config per kind, and what the rows are, where they came from
//! and what the run turned down.

use std::collections::BTreeMap;

use serde::Serialize;

use super::output::file_name;
use super::{Config, Kind, Row};

#[derive(Serialize)]
struct FrontMatter {
    pretty_name: String,
    license: String,
    language: Vec<String>,
    annotations_creators: Vec<String>,
    language_creators: Vec<String>,
    source_datasets: Vec<String>,
    task_categories: Vec<String>,
    tags: Vec<String>,
    size_categories: Vec<String>,
    configs: Vec<ConfigEntry>,
}

#[derive(Serialize)]
struct ConfigEntry {
    config_name: String,
    data_files: Vec<DataFile>,
}

#[derive(Serialize)]
struct DataFile {
    split: String,
    path: String,
}

fn size(n: usize) -> &'static str {
    match n {
        0..1_000 => "n<1K",
        1_000..10_000 => "1K<n<10K",
        10_000..100_000 => "10K<n<100K",
        _ => "100K<n<1M",
    }
}

/// Where a seed came from, for the card's provenance section.
#[derive(Clone, Debug, Default)]
pub struct SeedSource {
    pub scenario: String,
    pub file: String,
    /// The first line of the nearest licence file above the seed.
    pub licence: Option<String>,
}

/// How a run was started and what it read.
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    /// The command line, as typed.
    pub command: String,
    pub seeds: Vec<SeedSource>,
}

/// The first line of the nearest `LICENSE*` or `COPYING*` file in `file`'s
/// folder or above it.
pub fn licence_of(file: &std::path::Path) -> Option<String> {
    let start = std::fs::canonicalize(file).ok()?;
    for dir in start.ancestors().skip(1) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut names: Vec<std::path::PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.is_file()
                    && p.file_name().is_some_and(|n| {
                        let n = n.to_string_lossy().to_ascii_uppercase();
                        n.starts_with("LICENSE")
                            || n.starts_with("LICENCE")
                            || n.starts_with("COPYING")
                    })
            })
            .collect();
        names.sort();
        let names: Vec<String> = names
            .iter()
            .filter_map(|p| {
                let text = crate::io::read_text(p).ok()?;
                let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
                Some(line.chars().take(80).collect())
            })
            .collect();
        if !names.is_empty() {
            return Some(names.join(" / "));
        }
    }
    None
}

/// The dataset card of the rows in a folder.
pub fn card(rows: &[Row], config: &Config, runs: &[serde_json::Value]) -> String {
    let mut per_kind: BTreeMap<&str, usize> = BTreeMap::new();
    let mut per_scenario: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut flows, mut flows_yes) = (0usize, 0usize);
    for r in rows {
        *per_kind.entry(r.kind.as_str()).or_insert(0) += 1;
        *per_scenario.entry(r.scenario.as_str()).or_insert(0) += 1;
        if r.kind == "flow" {
            flows += 1;
            flows_yes += usize::from(r.anchor_answer == "yes");
        }
    }
    let configs: Vec<ConfigEntry> = super::output::KINDS
        .iter()
        .filter(|k| per_kind.contains_key(k.name()))
        .map(|&k| ConfigEntry {
            config_name: k.name().into(),
            data_files: vec![DataFile {
                split: "train".into(),
                path: file_name(k),
            }],
        })
        .collect();
    let front = FrontMatter {
        pretty_name: "cici counterfactual triplets".into(),
        license: "cc-by-4.0".into(),
        language: vec!["en".into()],
        annotations_creators: vec!["machine-generated".into()],
        language_creators: vec!["machine-generated".into()],
        source_datasets: vec!["original".into()],
        task_categories: vec!["question-answering".into(), "text-classification".into()],
        tags: vec![
            "privacy".into(),
            "contextual-integrity".into(),
            "counterfactual".into(),
            "agents".into(),
        ],
        size_categories: vec![size(rows.len()).into()],
        configs,
    };
    let yaml = serde_yaml::to_string(&front).expect("the front matter serializes");
    let mut body = format!(
        "---\n{yaml}---\n\n# cici counterfactual triplets\n\n\
         Each row is a triplet grown from a seed scenario: the anchor, a minimal change that \
         flips its label (`flipped_*`) and a minimal change that keeps it (`held_*`). Each side \
         is a complete evaluation item (`*_item`) a reader can answer from alone, with its \
         label in the item's own words (`*_answer`) and as JSON (`*_label`). Labels are computed \
         by the cici prover from the side's seed (`*_seed`, also under `variants/`), never \
         guessed; every variant seed passes `cici check`, and every flipped and held item reads \
         differently from its anchor.\n\n\
         | config | file | task | question | rows |\n|---|---|---|---|---|\n"
    );
    for k in super::output::KINDS {
        let (task, question) = match k {
            Kind::Decision => (
                "question-answering",
                "the one decision the appropriate information allows",
            ),
            Kind::Flow => (
                "text-classification",
                "may the holder's agent share this wording with this person for this task (yes/no)",
            ),
        };
        body.push_str(&format!(
            "| `{}` | `{}` | {task} | {question} | {} |\n",
            k.name(),
            file_name(k),
            per_kind.get(k.name()).copied().unwrap_or(0)
        ));
    }
    if let Some(share) = (flows_yes * 100).checked_div(flows) {
        body.push_str(&format!(
            "\nFlow anchors that are appropriate: {flows_yes} of {flows} ({share}%); a flip moves \
             the label the other way, so position does not predict it.\n"
        ));
    }
    body.push_str(&format!(
        "\nColumns are strings and integers in both configs; edits, critic verdicts and \
         rejections are JSON text. `id` is a hash of the content, so the same triplet keeps its \
         id across runs.\n\nGenerator: {}. Critic: {}. Candidates per side: at most {}.\n\n\
         | scenario | triplets |\n|---|---|\n",
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
        config.rounds
    ));
    for (s, v) in &per_scenario {
        body.push_str(&format!("| {s} | {v} |\n"));
    }
    usage(&mut body, config);
    rejections(&mut body, config);
    provenance(&mut body, config, runs);
    body
}

fn usage(body: &mut String, config: &Config) {
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
}

fn rejections(body: &mut String, config: &Config) {
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
    if short.is_empty() {
        return;
    }
    body.push_str("\n## Sides that found no variant, and why\n\nCandidates the run turned down, by seed and reason (a side that found no variant within its rounds leaves its triplet out).\n\n| scenario | reason | candidates |\n|---|---|---|\n");
    for (seed, reasons) in &short {
        for (r, n) in reasons {
            body.push_str(&format!("| {seed} | {} | {n} |\n", r.replace('|', "/")));
        }
    }
}

fn provenance(body: &mut String, config: &Config, runs: &[serde_json::Value]) {
    body.push_str(&format!(
        "\n## Provenance\n\nMade by cici {}. The runs that wrote into this folder, oldest first:\n\n",
        env!("CARGO_PKG_VERSION")
    ));
    for r in runs {
        let command = r
            .get("command")
            .and_then(|c| c.as_str())
            .filter(|c| !c.is_empty())
            .unwrap_or("(not recorded)");
        body.push_str(&format!("- `{}`\n", command.replace('`', "'")));
    }
    if !config.provenance.seeds.is_empty() {
        body.push_str("\n| seed | file | licence |\n|---|---|---|\n");
        for s in &config.provenance.seeds {
            body.push_str(&format!(
                "| {} | `{}` | {} |\n",
                s.scenario,
                s.file.replace('`', "'"),
                s.licence
                    .as_deref()
                    .unwrap_or("not stated (no LICENSE file beside the seed)")
                    .replace('|', "/")
            ));
        }
    }
    body.push_str(
        "\nThe row schema is `generated/schema/triplet.schema.json` in the cici repository.\n",
    );
}
