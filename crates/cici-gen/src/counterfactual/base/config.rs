//! A run's knobs (`Config`) and where its seeds came from
//! (`Provenance`): what the entry is given, and what the generators, the
//! critic and the writer read of it.
//!
//! In: the command line's choices and the seeds' files. Out: a `Config`.

use super::records::Kind;
use super::rejections::Rejections;
use crate::analysis::Options;

/// Knobs of a run.
#[derive(Clone, Debug)]
pub struct Config {
    pub kinds: Vec<Kind>,
    /// Triplets per seed and kind, at most.
    pub per_seed: usize,
    pub seed: u64,
    /// Candidates tried per side before giving up on a triplet.
    pub rounds: usize,
    pub options: Options,
    /// The model that proposes edits; `None` for the symbolic generator.
    pub generator_llm: Option<std::sync::Arc<crate::llm::Llm>>,
    /// The model whose verdicts join the rule-based critic's.
    pub critic_llm: Option<std::sync::Arc<crate::llm::Llm>>,
    /// Seeds processed at once.
    pub workers: usize,
    /// Why candidates of sides that found none were rejected, per seed.
    pub rejections: Rejections,
    /// The command line and the seeds' files, for the dataset card.
    pub provenance: Provenance,
    /// The cue conditions decision items are written for: each decision
    /// triplet is grown once per condition, its three items in that
    /// condition.
    pub cues: Vec<crate::render::Cue>,
    /// The shares of seeds in `train`, `validation` and `test`.
    pub split: Split,
}

/// The shares of seeds in each split, in percent, summing to 100.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    pub train: u32,
    pub validation: u32,
    pub test: u32,
}

impl Default for Split {
    fn default() -> Split {
        Split {
            train: 80,
            validation: 10,
            test: 10,
        }
    }
}

impl Config {
    /// A symbolic run with the given kinds, on every core.
    pub fn symbolic(
        kinds: Vec<Kind>,
        per_seed: usize,
        seed: u64,
        rounds: usize,
        options: Options,
    ) -> Config {
        Config {
            kinds,
            per_seed,
            seed,
            rounds,
            options,
            generator_llm: None,
            critic_llm: None,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rejections: Rejections::default(),
            provenance: Provenance::default(),
            cues: vec![crate::render::Cue::None, crate::render::Cue::Combined],
            split: Split::default(),
        }
    }

    /// What goes in a record's `generator` field.
    pub fn generator_name(&self) -> String {
        match &self.generator_llm {
            None => "symbolic".into(),
            Some(llm) => format!("llm:{}", llm.model()),
        }
    }

    /// The fatal error of a model in use, if one stopped the run.
    pub fn fatal(&self) -> Option<String> {
        self.generator_llm
            .iter()
            .chain(&self.critic_llm)
            .find_map(|l| l.fatal())
    }
}

/// Where a seed came from, for the card's provenance section.
#[derive(Clone, Debug, Default)]
pub struct SeedSource {
    pub scenario: String,
    /// The file as given, relative; an absolute path keeps its file name
    /// alone, so that the card names no local folder.
    pub file: String,
    /// The SHA-256 of the seed file, in hex.
    pub sha256: String,
    /// The first line of the nearest licence file above the seed.
    pub licence: Option<String>,
}

impl SeedSource {
    /// The source of the scenario `scenario`, read from `file`.
    pub fn of(scenario: &str, file: &str) -> SeedSource {
        use sha2::Digest;
        let path = std::path::Path::new(file);
        let shown = if path.is_absolute() {
            path.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        } else {
            file.to_string()
        };
        let sha256 = std::fs::read(path)
            .map(|bytes| {
                sha2::Sha256::digest(&bytes)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect()
            })
            .unwrap_or_default();
        SeedSource {
            scenario: scenario.to_string(),
            file: shown,
            sha256,
            licence: licence_of(path),
        }
    }
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
            // The name first: asking the file system whether each entry
            // of every folder above every seed is a file was a tenth of a
            // run's system time.
            .filter(|p| {
                p.file_name().is_some_and(|n| {
                    let n = n.to_string_lossy().to_ascii_uppercase();
                    n.starts_with("LICENSE") || n.starts_with("LICENCE") || n.starts_with("COPYING")
                }) && p.is_file()
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
