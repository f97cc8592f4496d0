//! Putting a plan on disk atomically, and comparing one with the disk.
//!
//! Every file is written to a temporary file beside it and renamed into
//! place, so an interrupted build (killed, or stopped with Ctrl-C) leaves
//! each output either as it was or complete. Temporaries left by a killed build are removed by the next.
//! Files whose content did not change are not touched.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::Path;

use super::MANIFEST;

/// The prefix of temporary files; never the name of an output.
const TMP_PREFIX: &str = ".cici-tmp-";

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

/// The files a previous build wrote, from its manifest.
fn old_manifest(out: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(out.join(MANIFEST))
        .ok()
        .and_then(|t| serde_json::from_str::<Vec<String>>(&t).ok())
        .unwrap_or_default()
        .into_iter()
        .collect()
}

/// Writes the plan under `out`. With `prune`, files that an earlier build
/// wrote (by its manifest) and this one does not are removed.
pub fn write(
    out: &Path,
    files: &BTreeMap<String, String>,
    prune: bool,
) -> std::io::Result<WriteSummary> {
    std::fs::create_dir_all(out)?;
    remove_temporaries(out)?;
    let previous = old_manifest(out);
    let mut summary = WriteSummary::default();
    // The manifest goes last: until it is replaced, the old one still lists
    // every file a later prune may need to remove.
    let ordered = files
        .iter()
        .filter(|(p, _)| p.as_str() != MANIFEST)
        .chain(files.get_key_value(MANIFEST));
    let entries: Vec<(&String, &String)> = ordered.collect();
    let results = crate::driver::parallel_map(
        &entries[..entries.len().saturating_sub(1)],
        |(rel, text)| write_if_changed(&out.join(rel), text),
    );
    for r in results {
        if r? {
            summary.written += 1;
        } else {
            summary.unchanged += 1;
        }
    }
    if prune {
        for rel in previous.iter().filter(|p| !files.contains_key(*p)) {
            let path = out.join(rel);
            match std::fs::remove_file(&path) {
                Ok(()) => {
                    summary.removed += 1;
                    remove_empty_parents(out, &path);
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
    }
    if let Some((rel, text)) = entries.last() {
        if write_if_changed(&out.join(rel), text)? {
            summary.written += 1;
        } else {
            summary.unchanged += 1;
        }
    }
    Ok(summary)
}

/// Writes `text` to `path` unless it already holds exactly that; true if
/// it wrote. A file that existed keeps its permissions.
pub(crate) fn write_if_changed(path: &Path, text: &str) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(false);
    }
    write_atomic(path, text)?;
    Ok(true)
}

/// Writes `text` to a temporary file beside `path` and renames it into
/// place: readers and an interruption see the old file or the new one,
/// never part of it. Missing folders are made; a file that existed keeps
/// its permissions.
pub(crate) fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(TMP_PREFIX)
        .tempfile_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    if let Ok(meta) = std::fs::metadata(path) {
        tmp.as_file().set_permissions(meta.permissions())?;
    }
    // No fsync per file: the rename is what makes the write atomic for
    // readers and against interruption, and a flush of every one of a
    // large corpus's files costs twenty times the build itself.
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

fn remove_temporaries(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            remove_temporaries(&path)?;
        } else if entry.file_name().to_string_lossy().starts_with(TMP_PREFIX) {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

fn remove_empty_parents(root: &Path, path: &Path) {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == root || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// How the disk under `out` differs from the plan: missing files, files
/// whose content is stale, and files an earlier build wrote that this one
/// would remove. Empty when the tree is up to date.
pub fn check(out: &Path, files: &BTreeMap<String, String>) -> Vec<Difference> {
    let mut diffs = Vec::new();
    for (rel, text) in files {
        let old = std::fs::read_to_string(out.join(rel)).unwrap_or_default();
        if old != *text {
            diffs.push(Difference {
                path: rel.clone(),
                diff: unified(rel, &old, text, out.join(rel).exists()),
            });
        }
    }
    for rel in old_manifest(out).iter().filter(|p| !files.contains_key(*p)) {
        if let Ok(old) = std::fs::read_to_string(out.join(rel)) {
            diffs.push(Difference {
                path: rel.clone(),
                diff: unified(rel, &old, "", true),
            });
        }
    }
    diffs
}

pub(crate) fn unified(rel: &str, old: &str, new: &str, existed: bool) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let old_name = if existed {
        format!("a/{rel}")
    } else {
        "/dev/null".to_string()
    };
    let new_name = if new.is_empty() {
        "/dev/null".to_string()
    } else {
        format!("b/{rel}")
    };
    diff.unified_diff()
        .context_radius(3)
        .header(&old_name, &new_name)
        .to_string()
}
