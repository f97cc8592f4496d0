//! Writing a dataset that survives interruption.
//!
//! Each kind has a file per split (`decision/train.jsonl`,
//! `flow/test.jsonl`, …), appended one complete line at a time and flushed; a resumed run reads the ids already
//! there (dropping a torn last line, if a kill left one), recomputes each
//! seed's triplets deterministically and writes only the missing ones. Ids
//! are content hashes, so a run with other options adds its new triplets
//! and never renames or mixes the old. Variant seeds go to `variants/` by
//! atomic rename. The dataset card is written last, from the whole files.

//!
//! In: the rows an earlier run left and the triplets of this one. Out: the
//! folder: split files, variant seeds, `run.json`, the card, the task file
//! and the Croissant metadata.

pub use super::row::{file_name, schema, KINDS, SPLITS};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use super::row::Row;
use crate::counterfactual::base::config::Config;
use crate::counterfactual::base::records::{fnv, TripletRecord};
use crate::driver::Checked;
use crate::io::write_atomic;
use crate::verdicts::{agreement, ledger as review};

pub use super::card::card;

/// The split of every scenario, grouped by the file it came from (the
/// configurations of one imported seed, or the scenarios of one file, are
/// near-duplicates and stay together): the groups are ordered by a hash of
/// their name and cut by the shares, with at least one group in each split
/// that has a share when there are enough groups. The same seeds give the
/// same splits in every run.
pub fn splits(
    seeds: &[&Checked],
    config: &Config,
) -> std::collections::HashMap<String, &'static str> {
    let file_of = |id: &str| {
        config
            .provenance
            .seeds
            .iter()
            .find(|s| s.scenario == id)
            .map_or_else(|| id.to_string(), |s| s.file.clone())
    };
    let mut groups: Vec<String> = seeds.iter().map(|c| file_of(&c.scenario.id)).collect();
    groups.sort_by_key(|g| (fnv(g), g.clone()));
    groups.dedup();
    let n = groups.len();
    let share = |pct: u32| (n * pct as usize + 50) / 100;
    let mut counts = [share(config.split.train), share(config.split.validation), 0];
    for (i, pct) in [config.split.validation, config.split.test]
        .into_iter()
        .enumerate()
    {
        if pct > 0 && counts[i + 1] == 0 && counts[0] > 1 {
            counts[0] -= 1;
            counts[i + 1] += 1;
        }
    }
    counts[2] = n.saturating_sub(counts[0] + counts[1]);
    if config.split.test == 0 {
        counts[0] += counts[2];
        counts[2] = 0;
    }
    let mut of_group = std::collections::HashMap::new();
    let mut at = 0;
    for (split, count) in SPLITS.into_iter().zip(counts) {
        for g in groups.iter().skip(at).take(count) {
            of_group.insert(g.clone(), split);
        }
        at += count;
    }
    seeds
        .iter()
        .map(|c| {
            let g = file_of(&c.scenario.id);
            (
                c.scenario.id.clone(),
                of_group.get(&g).copied().unwrap_or("train"),
            )
        })
        .collect()
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Triplets written by this run.
    pub written: usize,
    /// Triplets found from an earlier run and kept.
    pub kept: usize,
    /// Seeds that gave fewer triplets than asked for.
    pub short: Vec<String>,
    /// Triplets left out because a reviewer rejected them.
    pub left_out: usize,
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

/// The scenario id of a variant seed: the anchor's id (shortened so that
/// the whole stays within the id limit), the record's id and the side.
fn variant_id(scenario: &str, id: &str, side: &str) -> String {
    let stem: String = scenario.chars().take(40).collect();
    format!("{stem}_{}_{side}", &id[..id.len().min(12)])
}

/// The rows in an existing file, after cutting a torn last line; a row
/// whose id came before is dropped (two runs at once once wrote every row
/// twice), and so is a row a reviewer rejected (`rejected`, from the
/// folder's `review.jsonl`). The file is read within the folder's bound
/// (`budget`), and only if regular.
fn existing(
    path: &Path,
    rejected: &Rejected,
    budget: &mut crate::io::FolderBudget,
) -> std::io::Result<Vec<Row>> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(Vec::new());
    }
    let text = budget.read_text(path)?;
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    if complete.len() != text.len() {
        let file = std::fs::OpenOptions::new().write(true).open(path)?;
        file.set_len(complete.len() as u64)?;
    }
    let mut seen = HashSet::new();
    let mut kept_lines = String::new();
    let mut rows = Vec::new();
    for line in complete.lines() {
        let Ok(row) = serde_json::from_str::<Row>(line) else {
            kept_lines.push_str(line);
            kept_lines.push('\n');
            continue;
        };
        if is_rejected(rejected, &row) {
            continue;
        }
        if seen.insert(row.id.clone()) {
            kept_lines.push_str(line);
            kept_lines.push('\n');
            rows.push(row);
        }
    }
    if kept_lines.len() != complete.len() {
        write_atomic(path, &kept_lines)?;
    }
    Ok(rows)
}

/// Row id to the content hashes reviewers rejected it at.
type Rejected = std::collections::HashMap<String, Vec<String>>;

/// Whether a reviewer rejected `row` as it is now.
fn is_rejected(rejected: &Rejected, row: &Row) -> bool {
    rejected.contains_key(&row.id) && {
        let value = serde_json::to_value(row).expect("rows serialize");
        review::is_rejected(rejected, &row.id, &review::row_hash(&value))
    }
}

/// The inspect_ai task file that runs every config of the folder.
pub const TASK_FILE: &str = "cici_task.py";

/// The task file's text: it reads the card's configs and needs nothing but
/// inspect_ai. Each config's task stands after a `# config: <kind>` line.
pub const TASK: &str = include_str!("cici_task.py");

/// The task file for a folder whose rows are `rows`: the task of a config
/// without rows is left out, since inspect_ai cannot build a task over an
/// empty dataset and `inspect eval cici_task.py` runs every task.
pub fn task_file(rows: &[Row]) -> String {
    let mut out = String::with_capacity(TASK.len());
    let mut keep = true;
    for line in TASK.split_inclusive('\n') {
        if let Some(kind) = line.trim_end().strip_prefix("# config: ") {
            keep = rows.iter().any(|r| r.kind == kind);
            if keep {
                out.push_str(line);
            }
            continue;
        }
        if keep {
            out.push_str(line);
        }
    }
    out
}

/// The Croissant metadata of the folder.
pub const CROISSANT_FILE: &str = "croissant.json";

/// The file that remembers the runs that wrote into a folder.
pub const RUN_FILE: &str = "run.json";

/// What identifies a run: its options, its generator and its command line.
fn run_identity(config: &Config) -> serde_json::Value {
    serde_json::json!({
        "cici_version": env!("CARGO_PKG_VERSION"),
        "command": config.provenance.command,
        "seed": config.seed,
        "kinds": config.kinds.iter().map(|k| k.name()).collect::<Vec<_>>(),
        "per_seed": config.per_seed,
        "generator": config.generator_name(),
        "cues": config.cues.iter().map(|c| c.name()).collect::<Vec<_>>(),
        "split": [config.split.train, config.split.validation, config.split.test],
    })
}

/// The runs recorded in `run.json`, oldest first. A file in the older
/// single-run form counts as one run.
pub fn runs(out: &Path) -> Vec<serde_json::Value> {
    let Ok(text) = crate::io::read_text(&out.join(RUN_FILE)) else {
        return Vec::new();
    };
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(o)) => match o.get("runs") {
            Some(serde_json::Value::Array(runs)) => runs.clone(),
            _ => vec![serde_json::Value::Object(o)],
        },
        _ => Vec::new(),
    }
}

/// Adds this run to `run.json`, unless it is the last one there (a resume).
fn record_run(out: &Path, config: &Config) -> std::io::Result<()> {
    let mut all = runs(out);
    let this = run_identity(config);
    if all.last() == Some(&this) {
        return Ok(());
    }
    all.push(this);
    let doc = serde_json::json!({ "generator": "cici", "runs": all });
    write_atomic(
        &out.join(RUN_FILE),
        &(serde_json::to_string_pretty(&doc).expect("values serialize") + "\n"),
    )
}

/// Opens `out` for a run: its folders made, the folder held by this run
/// alone, the temporaries of a killed run cleared, and the rows an earlier
/// run left picked up. The lock is held until it is dropped.
pub(crate) fn open<'o>(
    out: &'o Path,
    seeds: &[&Checked],
    config: &Config,
) -> std::io::Result<(crate::io::FolderLock, Writer<'o>)> {
    std::fs::create_dir_all(out)?;
    // One run at a time holds the folder; everything it writes stays in it.
    let lock = crate::io::FolderLock::acquire(out, crate::io::LOCK_WAIT)?;
    prepare(out)?;
    Ok((lock, Writer::resume(out, seeds, config)?))
}

/// Ends a run whose triplets are all written: the journal goes, and
/// `run.json`, the card, the task file and the Croissant metadata are
/// written from the whole folder.
pub(crate) fn finish(w: Writer, config: &Config) -> std::io::Result<Summary> {
    let out = w.out;
    std::fs::remove_file(out.join(crate::io::journal::JOURNAL))?;
    // A run the model stopped keeps what it accepted for a resume, but is
    // not a run of the dataset: the card, the metadata and `run.json` stay
    // as the last finished run left them.
    if config.fatal().is_some() {
        return Ok(w.summary);
    }
    record_run(out, config)?;
    let hashes = w
        .rows
        .iter()
        .map(|r| {
            let value = serde_json::to_value(r).expect("rows serialize");
            (r.id.clone(), review::row_hash(&value))
        })
        .collect();
    let reviewed = agreement::summary(&review::Ledger::resolve(&w.reviews, &hashes));
    write_atomic(
        &out.join("README.md"),
        &card(&w.rows, config, &runs(out), &reviewed),
    )?;
    write_atomic(&out.join(TASK_FILE), &task_file(&w.rows))?;
    write_atomic(
        &out.join(CROISSANT_FILE),
        &super::croissant::croissant(out, &w.rows, config)?,
    )?;
    Ok(w.summary)
}

/// Refuses symlinks where the run writes, makes its folders, clears the
/// temporaries of a run killed mid-write (its journal names them) and
/// starts this run's journal before it makes any.
fn prepare(out: &Path) -> std::io::Result<()> {
    let mut names = vec![
        "variants".to_string(),
        RUN_FILE.to_string(),
        "README.md".to_string(),
        TASK_FILE.to_string(),
        CROISSANT_FILE.to_string(),
    ];
    for kind in KINDS {
        names.push(kind.name().to_string());
        names.extend(SPLITS.map(|s| file_name(kind, s)));
    }
    for rel in &names {
        if crate::io::contained(out, rel).is_none() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "{}: a symlink stands where cici writes; refusing to write through it",
                    out.join(rel).display()
                ),
            ));
        }
    }
    std::fs::create_dir_all(out.join("variants"))?;
    for kind in KINDS {
        std::fs::create_dir_all(out.join(kind.name()))?;
    }
    if let Some(j) = crate::io::journal::Journal::read(out)? {
        j.remove_temporaries(out)?;
    }
    crate::io::journal::Journal::new(Vec::new()).write(out)
}

/// The rows of the folder, what this run adds to them, and the open
/// split files.
pub(crate) struct Writer<'o> {
    out: &'o Path,
    pub(crate) rows: Vec<Row>,
    split_of: std::collections::HashMap<String, &'static str>,
    groups: HashSet<String>,
    done: HashSet<String>,
    pub(crate) summary: Summary,
    validator: jsonschema::Validator,
    files: std::collections::HashMap<String, std::fs::File>,
    /// The folder's review ledger, and the rows it rejects.
    reviews: Vec<review::Review>,
    rejected: Rejected,
}

impl<'o> Writer<'o> {
    /// Picks up the rows an earlier run left in `out`.
    fn resume(out: &'o Path, seeds: &[&Checked], config: &Config) -> std::io::Result<Self> {
        let reviews = review::read(out)?;
        let rejected = review::Ledger::resolve(&reviews, &Default::default()).rejected();
        let mut rows: Vec<Row> = Vec::new();
        let mut budget = crate::io::FolderBudget::new(out);
        for kind in KINDS {
            for split in SPLITS {
                let path = out.join(file_name(kind, split));
                rows.extend(existing(&path, &rejected, &mut budget)?);
            }
        }
        // A seed that has rows already keeps their split, so that a run with
        // other seeds into the same folder never puts one seed in two splits.
        let mut split_of = splits(seeds, config);
        for r in &rows {
            if let Some(&s) = SPLITS.iter().find(|s| **s == r.split) {
                split_of.insert(r.scenario.clone(), s);
            }
        }
        Ok(Writer {
            out,
            groups: rows.iter().map(|r| r.anchor_group.clone()).collect(),
            done: rows.iter().map(|r| r.id.clone()).collect(),
            summary: Summary {
                kept: rows.len(),
                ..Summary::default()
            },
            rows,
            split_of,
            validator: jsonschema::validator_for(&schema()).expect("the generated schema is valid"),
            files: std::collections::HashMap::new(),
            reviews,
            rejected,
        })
    }

    /// Writes one triplet, validated, unless the folder has it already.
    pub(crate) fn write(&mut self, t: &TripletRecord) -> std::io::Result<()> {
        if self.done.contains(&t.id) {
            return Ok(());
        }
        let out = self.out;
        let split = self.split_of.get(&t.scenario).copied().unwrap_or("train");
        let group = Row::group_of(&t.anchor.item);
        let repeat = self.groups.contains(&group);
        let row = Row::of(t, split, repeat);
        if is_rejected(&self.rejected, &row) {
            self.summary.left_out += 1;
            return Ok(());
        }
        self.groups.insert(group);
        let value = serde_json::to_value(&row).expect("records serialize");
        let errors: Vec<String> = self
            .validator
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
        for (side, seed) in [
            ("flipped", &t.flipped.side.seed),
            ("held", &t.held.side.seed),
        ] {
            write_atomic(
                &out.join("variants").join(format!("{}.{side}.cici", t.id)),
                &renamed(seed, &t.scenario, &variant_id(&t.scenario, &t.id, side)),
            )?;
        }
        let name = file_name(t.kind, split);
        if !self.files.contains_key(&name) {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(out.join(&name))?;
            self.files.insert(name.clone(), file);
        }
        let file = self.files.get_mut(&name).expect("just opened");
        let mut line = serde_json::to_string(&value).expect("values serialize");
        line.push('\n');
        file.write_all(line.as_bytes())?;
        file.flush()?;
        self.done.insert(t.id.clone());
        self.rows.push(row);
        self.summary.written += 1;
        Ok(())
    }
}
