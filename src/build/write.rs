//! Putting a plan on disk atomically, and comparing one with the disk.
//!
//! Every file is written to a temporary file beside it and renamed into
//! place, so an interrupted build (killed, or stopped with Ctrl-C) leaves
//! each output either as it was or complete. Files whose content did not
//! change are not touched.
//!
//! The manifest of an earlier build is input like any other: it may have
//! been edited, committed from elsewhere or planted. Only what it lists
//! that stays inside the output folder (plain relative paths, no symlink
//! on the way) is ever read or removed, and a `manifest.json` that cici
//! did not write is refused. Before it writes, a build records every path
//! it may touch in a journal, so the files of a build killed half-way are
//! known to the next one and pruned; one build at a time holds the folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::MANIFEST;
use crate::diff::unified;
use crate::io::journal::{digest, Journal};
use crate::io::{contained, FolderLock, LOCK_WAIT};

/// The journal of a build in progress: every path it may write or prune.
pub use crate::io::journal::JOURNAL;

/// The format tag of a manifest.
const MANIFEST_FORMAT: &str = "cici-manifest/2";

/// What a write did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteSummary {
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
}

/// One way the disk differs from the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub path: String,
    /// A unified diff from what is on disk to what the build would write.
    pub diff: String,
}

/// The manifest a build writes: which files it wrote, relative to the
/// output folder, signed by its format tag and the SHA-256 of its entries.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always `"cici"`: marks the folder as one cici builds into.
    pub generator: String,
    pub format: String,
    pub files: Vec<String>,
    pub digest: String,
}

/// The manifest of an earlier cici, unsigned: recognised, but nothing it
/// lists is pruned.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnsignedManifest {
    generator: String,
    #[allow(dead_code)]
    files: Vec<String>,
}

impl Manifest {
    pub fn new(files: Vec<String>) -> Manifest {
        Manifest {
            generator: "cici".into(),
            format: MANIFEST_FORMAT.into(),
            digest: digest(MANIFEST_FORMAT, &files),
            files,
        }
    }

    /// Whether the signature holds.
    fn signed(&self) -> bool {
        self.generator == "cici"
            && self.format == MANIFEST_FORMAT
            && self.digest == digest(MANIFEST_FORMAT, &self.files)
    }

    /// The manifest as the file holds it.
    pub fn text(&self) -> String {
        serde_json::to_string_pretty(self).expect("a manifest serializes") + "\n"
    }
}

fn invalid(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, message)
}

/// The files an earlier build wrote, by its signed manifest and by the
/// journal of a build that did not finish. A `manifest.json` that cici did
/// not write (a plain list, another shape, a signature that does not hold,
/// not a regular file) is refused by name; an unsigned manifest of an
/// earlier cici is recognised but nothing it lists is pruned.
fn previous_files(out: &Path) -> std::io::Result<(BTreeSet<String>, Option<Journal>)> {
    let mut files = BTreeSet::new();
    let path = out.join(MANIFEST);
    if let Ok(meta) = std::fs::symlink_metadata(&path) {
        let text = meta
            .is_file()
            .then(|| crate::io::read_text(&path).ok())
            .flatten();
        let signed = text
            .as_deref()
            .and_then(|t| serde_json::from_str::<Manifest>(t).ok())
            .filter(Manifest::signed);
        let unsigned = text
            .as_deref()
            .and_then(|t| serde_json::from_str::<UnsignedManifest>(t).ok())
            .is_some_and(|m| m.generator == "cici");
        match signed {
            Some(m) => files.extend(m.files),
            None if unsigned => {}
            None => {
                return Err(invalid(format!(
                    "{} was not written by cici; refusing to build into {} \
                     (choose another --out, or remove the file)",
                    path.display(),
                    out.display()
                )))
            }
        }
    }
    let journal = Journal::read(out)?;
    if let Some(j) = &journal {
        files.extend(j.files.iter().cloned());
    }
    Ok((files, journal))
}

/// Writes the plan under `out`. With `prune`, files that an earlier build
/// wrote (by its manifest or journal) and this one does not are removed.
pub fn write(
    out: &Path,
    files: &BTreeMap<String, String>,
    prune: bool,
) -> std::io::Result<WriteSummary> {
    std::fs::create_dir_all(out)?;
    let _lock = FolderLock::acquire(out, LOCK_WAIT)?;
    let (previous, journal) = previous_files(out)?;
    for rel in files.keys() {
        if contained(out, rel).is_none() {
            return Err(invalid(format!(
                "{}: a symlink stands where cici writes; refusing to write through it",
                out.join(rel).display()
            )));
        }
    }
    // The temporaries of a build that was killed: its journal names them.
    if let Some(j) = &journal {
        j.remove_temporaries(out)?;
    }
    // Every path this build may touch, and its temporaries' token, before
    // it touches any.
    let intent: BTreeSet<&String> = previous.iter().chain(files.keys()).collect();
    Journal::new(intent.into_iter().cloned().collect()).write(out)?;
    let mut summary = WriteSummary::default();
    // The manifest goes last: until it is replaced, the old one still lists
    // every file a later prune may need to remove.
    let entries: Vec<(&String, &String)> = files
        .iter()
        .filter(|(p, _)| p.as_str() != MANIFEST)
        .collect();
    let results = crate::driver::parallel_map(&entries, |(rel, text)| {
        let path = out.join(rel);
        crate::io::write_if_changed(&path, text)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    });
    for r in results {
        if r? {
            summary.written += 1;
        } else {
            summary.unchanged += 1;
        }
    }
    if prune {
        for rel in previous.iter().filter(|p| !files.contains_key(*p)) {
            if rel == MANIFEST || rel == JOURNAL {
                continue;
            }
            // Only a regular file inside `out`, reached without a symlink.
            let Some(path) = contained(out, rel) else {
                continue;
            };
            if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                continue;
            }
            std::fs::remove_file(&path)?;
            summary.removed += 1;
            remove_empty_parents(out, &path);
        }
    }
    // A build that could not prune (it had errors) lists what it kept
    // beside what it wrote, so that the next clean build prunes them.
    let kept: Vec<String> = previous
        .iter()
        .filter(|p| !prune && !files.contains_key(*p) && *p != MANIFEST && *p != JOURNAL)
        .cloned()
        .collect();
    let manifest = if kept.is_empty() {
        files.get(MANIFEST).cloned()
    } else {
        let mut all: BTreeSet<String> = files.keys().filter(|p| *p != MANIFEST).cloned().collect();
        all.extend(kept);
        Some(Manifest::new(all.into_iter().collect()).text())
    };
    if let Some(text) = manifest {
        if crate::io::write_if_changed(&out.join(MANIFEST), &text)? {
            summary.written += 1;
        } else {
            summary.unchanged += 1;
        }
    }
    std::fs::remove_file(out.join(JOURNAL))?;
    Ok(summary)
}

fn remove_empty_parents(root: &Path, path: &Path) {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == root || !d.starts_with(root) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// The text of a regular file inside `out`, never through a symlink.
fn read_inside(out: &Path, rel: &str) -> Option<String> {
    let path = contained(out, rel)?;
    std::fs::symlink_metadata(&path)
        .is_ok_and(|m| m.is_file())
        .then(|| crate::io::read_text(&path).ok())
        .flatten()
}

/// How the disk under `out` differs from the plan: missing files, files
/// whose content is stale, and files an earlier build wrote that this one
/// would remove. Empty when the tree is up to date. Reads nothing outside
/// `out` and nothing through a symlink.
pub fn check(out: &Path, files: &BTreeMap<String, String>) -> Vec<Difference> {
    let mut diffs = Vec::new();
    let previous = match previous_files(out) {
        Ok((p, _)) => p,
        Err(e) => {
            diffs.push(Difference {
                path: MANIFEST.into(),
                diff: format!("{e}\n"),
            });
            BTreeSet::new()
        }
    };
    for (rel, text) in files {
        let old = read_inside(out, rel);
        if old.as_deref() != Some(text.as_str()) {
            let existed = std::fs::symlink_metadata(out.join(rel)).is_ok();
            diffs.push(Difference {
                path: rel.clone(),
                diff: unified(rel, old.as_deref().unwrap_or_default(), text, existed),
            });
        }
    }
    for rel in previous.iter().filter(|p| !files.contains_key(*p)) {
        if let Some(old) = read_inside(out, rel) {
            diffs.push(Difference {
                path: rel.clone(),
                diff: unified(rel, &old, "", true),
            });
        }
    }
    if std::fs::symlink_metadata(out.join(JOURNAL)).is_ok() {
        diffs.push(Difference {
            path: JOURNAL.into(),
            diff: format!("{JOURNAL}: a build into this folder did not finish\n"),
        });
    }
    diffs
}
