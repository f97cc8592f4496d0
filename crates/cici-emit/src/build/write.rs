//! Putting a plan on disk atomically, and comparing one with the disk.
//!
//! Every file is written to a temporary file beside it and renamed into
//! place, so an interrupted run (killed, or stopped with Ctrl-C) leaves
//! each output either as it was or complete. Files whose content did not
//! change are not touched. `build` and every export write through here.
//!
//! The manifest of an earlier run is input like any other: it may have
//! been edited, committed from elsewhere or planted. Only what it lists
//! that stays inside the output folder (plain relative paths, no symlink
//! on the way) is ever read or removed, a manifest that cici did not write
//! is refused, and what a run of another command or over other inputs
//! wrote is never removed unless the run is forced to replace it (see
//! [`super::manifest`]). Before it writes, a run records every path it may
//! touch in a journal, so the files and temporaries of a run killed
//! half-way are known to the next one and pruned; one run at a time holds
//! the folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use miette::Diagnostic;
use thiserror::Error;

use super::manifest::{previous, Manifest, Origin, Previous, Writer};
use crate::diff::unified;
use crate::io::journal::Journal;
use crate::io::{contained, FolderLock, LOCK_WAIT, TMP_PREFIX};

/// The journal of a run in progress: every path it may write or prune.
pub use crate::io::journal::JOURNAL;

/// Where a run writes, and for whom.
#[derive(Clone, Copy, Debug)]
pub struct Target<'a> {
    /// The output folder.
    pub out: &'a Path,
    /// The command writing it.
    pub writer: Writer,
    /// The files and folders it read, as given.
    pub inputs: &'a [PathBuf],
    /// Replace what another command or other inputs wrote there: the files
    /// their manifest lists are pruned.
    pub force: bool,
}

impl Target<'_> {
    /// The origin this run records.
    pub fn origin(&self) -> Origin {
        Origin::new(self.writer, self.inputs, self.out)
    }
}

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
    /// A unified diff from what is on disk to what the run would write.
    pub diff: String,
}

/// Why an output folder was not written.
#[derive(Debug, Error, Diagnostic)]
pub enum OutputError {
    /// The folder holds what another command or other inputs wrote: a
    /// run here would remove those files (`cici build other/` into the
    /// `generated/` that `seeds/` was built into removed every one).
    ///
    /// ```text
    /// cici build seeds/ && cici build other/
    /// ```
    #[error("{out} holds the output of {theirs}, not of {ours}; nothing was written or removed")]
    #[diagnostic(
        code(cici::build::other_inputs),
        help("choose another --out for these inputs, or pass --force to replace that output (the files it lists are removed)")
    )]
    OtherInputs {
        out: String,
        theirs: String,
        ours: String,
    },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

fn invalid(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, message)
}

/// Refuses a plan with a file where the run keeps its own (its manifest,
/// its journal, a temporary's name) or behind a symlink in `out`.
fn refuse_unsafe(
    out: &Path,
    files: &BTreeMap<String, String>,
    manifest: &str,
) -> std::io::Result<()> {
    for rel in files.keys() {
        let name = Path::new(rel).file_name().map(|n| n.to_string_lossy());
        if rel == manifest || rel == JOURNAL || name.is_some_and(|n| n.starts_with(TMP_PREFIX)) {
            return Err(invalid(format!(
                "{rel}: an output of this name would overwrite cici's own bookkeeping; rename the scenario"
            )));
        }
        if contained(out, rel).is_none() {
            return Err(invalid(format!(
                "{}: a symlink stands where cici writes; refusing to write through it",
                out.join(rel).display()
            )));
        }
    }
    Ok(())
}

/// Writes the plan under `out` with its manifest. With `prune`, files that
/// an earlier run of the same origin wrote (by its manifest or journal)
/// and this one does not are removed; without, the manifest lists them
/// beside this run's, for the next clean run to prune. A folder that holds
/// another origin's output is refused unless `target.force`.
pub fn write(
    target: &Target,
    files: &BTreeMap<String, String>,
    prune: bool,
) -> Result<WriteSummary, OutputError> {
    let out = target.out;
    let manifest = target.writer.manifest();
    std::fs::create_dir_all(out)?;
    let _lock = FolderLock::acquire(out, LOCK_WAIT)?;
    let origin = target.origin();
    let mut prev = previous(out, &origin, target.writer)?;
    if !prev.others.is_empty() {
        if !target.force {
            return Err(OutputError::OtherInputs {
                out: out.display().to_string(),
                theirs: prev.others.join("; "),
                ours: origin.describe(),
            });
        }
        prev.files.append(&mut prev.others_files);
    }
    refuse_unsafe(out, files, manifest)?;
    // The temporaries of a run that was killed: its journal names them.
    if let Some(j) = &prev.journal {
        j.remove_temporaries(out)?;
    }
    // Every path this run may touch, and its temporaries' token, before
    // it touches any.
    let intent: BTreeSet<&String> = prev.files.iter().chain(files.keys()).collect();
    Journal::with_origin(origin.entries(), intent.into_iter().cloned().collect()).write(out)?;
    let mut summary = put(out, files)?;
    if prune {
        summary.removed = remove_stale(out, &prev, files, manifest)?;
    }
    // A run that could not prune (it had errors) lists what it kept beside
    // what it wrote, so that the next clean run prunes them. The manifest
    // goes last: until it is replaced, the old one still lists every file
    // a later prune may need to remove.
    let mut listed: BTreeSet<String> = files.keys().cloned().collect();
    if !prune {
        listed.extend(
            prev.files
                .iter()
                .filter(|p| *p != manifest && *p != JOURNAL)
                .cloned(),
        );
    }
    let text = Manifest::new(&origin, listed.into_iter().collect()).text();
    if crate::io::write_if_changed(&out.join(manifest), &text)? {
        summary.written += 1;
    } else {
        summary.unchanged += 1;
    }
    std::fs::remove_file(out.join(JOURNAL))?;
    Ok(summary)
}

/// Writes every file of the plan that changed, in parallel.
fn put(out: &Path, files: &BTreeMap<String, String>) -> std::io::Result<WriteSummary> {
    let entries: Vec<(&String, &String)> = files.iter().collect();
    let results = crate::driver::parallel_map(&entries, |(rel, text)| {
        let path = out.join(rel);
        crate::io::write_if_changed(&path, text)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    });
    let mut summary = WriteSummary::default();
    for r in results {
        if r? {
            summary.written += 1;
        } else {
            summary.unchanged += 1;
        }
    }
    Ok(summary)
}

/// Removes what earlier runs wrote and this one does not: only regular
/// files inside `out`, reached without a symlink. How many it removed.
fn remove_stale(
    out: &Path,
    prev: &Previous,
    files: &BTreeMap<String, String>,
    manifest: &str,
) -> std::io::Result<usize> {
    let mut removed = 0;
    for rel in prev.files.iter().filter(|p| !files.contains_key(*p)) {
        if rel == manifest || rel == JOURNAL {
            continue;
        }
        let Some(path) = contained(out, rel) else {
            continue;
        };
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        std::fs::remove_file(&path)?;
        removed += 1;
        remove_empty_parents(out, &path);
    }
    Ok(removed)
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

/// How the disk under `out` differs from the plan and its manifest:
/// missing files, files whose content is stale, files an earlier run wrote
/// that this one would remove, output of another origin, and a run that
/// did not finish. Empty when the folder is up to date. Reads nothing
/// outside `out` and nothing through a symlink.
pub fn check(target: &Target, files: &BTreeMap<String, String>) -> Vec<Difference> {
    let out = target.out;
    let manifest = target.writer.manifest();
    let origin = target.origin();
    let mut diffs = Vec::new();
    let prev = match previous(out, &origin, target.writer) {
        Ok(p) => p,
        Err(e) => {
            diffs.push(Difference {
                path: manifest.into(),
                diff: format!("{e}\n"),
            });
            Previous::default()
        }
    };
    if !prev.others.is_empty() {
        diffs.push(Difference {
            path: manifest.into(),
            diff: format!(
                "{}: holds the output of {}, not of {}\n",
                out.display(),
                prev.others.join("; "),
                origin.describe()
            ),
        });
    }
    let text = Manifest::new(&origin, files.keys().cloned().collect()).text();
    let name = manifest.to_string();
    let planned = files.iter().chain(std::iter::once((&name, &text)));
    for (rel, text) in planned {
        let old = read_inside(out, rel);
        if old.as_deref() != Some(text.as_str()) {
            let existed = std::fs::symlink_metadata(out.join(rel)).is_ok();
            diffs.push(Difference {
                path: rel.clone(),
                diff: unified(rel, old.as_deref().unwrap_or_default(), text, existed),
            });
        }
    }
    let stale = prev.files.iter().filter(|p| !files.contains_key(*p));
    for rel in stale.filter(|p| *p != manifest && *p != JOURNAL) {
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
            diff: format!("{JOURNAL}: a run writing into this folder did not finish\n"),
        });
    }
    diffs
}
