//! inspect_ai's `.eval` logs, its default format: a zip archive of JSON
//! (`header.json` with the eval's model and task, one `samples/*.json` per
//! sample and epoch, summaries and a journal cici does not need). Entries
//! are zstd-compressed by current inspect and deflated by older ones.
//!
//! Read within bounds: each entry at most [`MAX_ENTRY_BYTES`] once
//! decompressed (whatever size the archive claims), at most
//! [`MAX_ENTRIES`] entries, at most [`MAX_EVAL_BYTES`] in all. A corrupt
//! archive or entry is a diagnostic, never a panic.

use std::fs::File;
use std::io::Read as _;
use std::path::Path;

use super::error::ReportError;

/// The most one entry of a `.eval` log may hold, decompressed.
pub const MAX_ENTRY_BYTES: u64 = crate::io::MAX_INPUT_BYTES;
/// The most entries a `.eval` log may hold.
pub const MAX_ENTRIES: usize = 200_000;
/// The most bytes read out of one `.eval` log, its entries together.
pub const MAX_EVAL_BYTES: u64 = 1 << 30;

/// What cici reads of a `.eval` log: the header's text and each sample's,
/// with the entry's name.
#[derive(Clone, Debug, Default)]
pub struct EvalLog {
    pub header: String,
    pub samples: Vec<(String, String)>,
}

fn bad(file: &Path, reason: impl std::fmt::Display) -> ReportError {
    ReportError::BadEval {
        file: file.display().to_string(),
        reason: reason.to_string(),
    }
}

fn too_large(file: &Path, what: String) -> ReportError {
    ReportError::EvalTooLarge {
        file: file.display().to_string(),
        what,
    }
}

/// Reads the header and the samples of the `.eval` log at `file`.
pub fn read(file: &Path) -> Result<EvalLog, ReportError> {
    let unreadable = |reason: String| ReportError::Unreadable {
        file: file.display().to_string(),
        reason,
    };
    // A FIFO or a device is never opened: opening a FIFO would block.
    if !crate::io::is_regular(file) {
        return Err(match std::fs::metadata(file) {
            Err(e) => unreadable(e.to_string()),
            Ok(_) => unreadable("not a regular file".into()),
        });
    }
    let handle = File::open(file).map_err(|e| unreadable(e.to_string()))?;
    let mut zip =
        zip::ZipArchive::new(std::io::BufReader::new(handle)).map_err(|e| bad(file, e))?;
    if zip.len() > MAX_ENTRIES {
        let what = format!(
            "{} entries, over the {MAX_ENTRIES} a log may hold",
            zip.len()
        );
        return Err(too_large(file, what));
    }
    let mut out = EvalLog::default();
    let mut header = None;
    let mut total = 0u64;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| bad(file, e))?;
        let name = entry.name().map_err(|e| bad(file, e))?.to_string();
        let wanted = name == "header.json"
            || (name.starts_with("samples/") && name.ends_with(".json") && entry.is_file());
        if !wanted {
            continue;
        }
        let max = MAX_ENTRY_BYTES.min(MAX_EVAL_BYTES - total);
        let over = |size: u64| {
            if size > MAX_ENTRY_BYTES {
                format!(
                    "entry `{name}` holds {size} bytes, over the {} MiB an entry may hold",
                    MAX_ENTRY_BYTES >> 20
                )
            } else {
                format!(
                    "its entries hold over {} GiB together, more than a log may hold",
                    MAX_EVAL_BYTES >> 30
                )
            }
        };
        if entry.size() > max {
            return Err(too_large(file, over(entry.size())));
        }
        // The size the archive claims is not trusted: the read is bounded too.
        let mut bytes = Vec::with_capacity(entry.size() as usize);
        (&mut entry)
            .take(max + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| bad(file, format!("entry `{name}`: {e}")))?;
        if bytes.len() as u64 > max {
            return Err(too_large(file, over(bytes.len() as u64)));
        }
        total += bytes.len() as u64;
        let text = String::from_utf8(bytes).map_err(|e| {
            bad(
                file,
                format!("entry `{name}` is not UTF-8 ({})", e.utf8_error()),
            )
        })?;
        if name == "header.json" {
            header = Some(text);
        } else {
            out.samples.push((name, text));
        }
    }
    out.header = header.ok_or_else(|| {
        bad(
            file,
            "no header.json (an archive that is no inspect log, or a log still being written)",
        )
    })?;
    out.samples.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture, found where `cargo test` runs the crate from (the
    /// crate may have been compiled in another copy of the repository),
    /// two folders below the repository's root.
    fn fixture() -> std::path::PathBuf {
        let root = std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(
            || env!("CARGO_MANIFEST_DIR").into(),
            std::path::PathBuf::from,
        );
        root.join("../../tests/data/inspect/flow.eval")
    }

    #[test]
    fn the_fixture_has_a_header_and_its_samples() {
        let log = read(&fixture()).unwrap();
        assert!(log.header.contains("\"model\""), "{}", &log.header[..200]);
        assert_eq!(log.samples.len(), 3);
        assert!(log
            .samples
            .iter()
            .all(|(n, t)| n.starts_with("samples/") && t.starts_with('{')));
    }

    #[test]
    fn a_cut_or_damaged_archive_is_a_diagnostic_never_a_panic() {
        let bytes = std::fs::read(fixture()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.eval");
        let mut refused = 0;
        let step = (bytes.len() / 60).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            refused += usize::from(read(&path).is_err());
            let mut flipped = bytes.clone();
            flipped[cut] ^= 0x5a;
            std::fs::write(&path, &flipped).unwrap();
            // A flip in a part cici skips may still read; it must not panic.
            let _ = read(&path);
        }
        // Every cut loses the central directory at the archive's end.
        assert_eq!(refused, bytes.len().div_ceil(step));
    }
}
