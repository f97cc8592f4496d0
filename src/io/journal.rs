//! What cici leaves in an output folder to know its own files by: the
//! temporaries of this process, the journal of a run in progress, and the
//! signature that marks a file list as written by cici.
//!
//! A temporary file is named `.cici-tmp-<token>-…`, with a token drawn at
//! random once per process, and the journal records the token before the
//! first temporary is made; a later run removes only the temporaries of a
//! token a journal of cici's lists. A user file is never removed for its
//! name. A journal or manifest is cici's only if it carries its format tag
//! and the SHA-256 of its entries: a planted or foreign one is refused by
//! name, and nothing it lists is touched.

use std::path::Path;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{contained, read_text, write_atomic, TMP_PREFIX};

/// The journal of a run in progress in an output folder.
pub const JOURNAL: &str = ".cici-journal.json";
const JOURNAL_FORMAT: &str = "cici-journal/1";

/// This process's token, drawn once: 16 hex digits from the OS's source.
pub fn token() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| format!("{:016x}", rand::random::<u64>()))
}

/// The prefix of every temporary this process makes.
pub fn temp_prefix() -> String {
    format!("{TMP_PREFIX}{}-", token())
}

/// The SHA-256, in hex, of a tag and a list of entries.
pub fn digest(tag: &str, entries: &[String]) -> String {
    let mut h = Sha256::new();
    h.update(tag.as_bytes());
    for e in entries {
        h.update([0u8]);
        h.update(e.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn invalid(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, message)
}

/// The journal of a run: its temporaries' token and every path it may
/// write or remove.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Journal {
    pub format: String,
    pub token: String,
    pub files: Vec<String>,
    pub digest: String,
}

impl Journal {
    /// This process's journal, for `files`.
    pub fn new(files: Vec<String>) -> Journal {
        let token = token().to_string();
        let digest = digest(&format!("{JOURNAL_FORMAT}\n{token}"), &files);
        Journal {
            format: JOURNAL_FORMAT.into(),
            token,
            files,
            digest,
        }
    }

    /// The journal in `out`: `None` when there is none; an error naming the
    /// file when something that is not cici's journal stands there (not a
    /// regular file, not in its format, or its digest does not match).
    pub fn read(out: &Path) -> std::io::Result<Option<Journal>> {
        let path = out.join(JOURNAL);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            return Ok(None);
        };
        let refuse = |why: &str| {
            invalid(format!(
                "{}: {why}; cici did not write it, so nothing it lists is touched \
                 (remove it, or choose another --out)",
                path.display()
            ))
        };
        if !meta.is_file() || contained(out, JOURNAL).is_none() {
            return Err(refuse("not a regular file"));
        }
        let text = read_text(&path).map_err(|e| refuse(&e.to_string()))?;
        let j: Journal =
            serde_json::from_str(&text).map_err(|_| refuse("not a journal of cici's"))?;
        let want = digest(&format!("{}\n{}", j.format, j.token), &j.files);
        let token_ok = j.token.len() == 16 && j.token.bytes().all(|b| b.is_ascii_hexdigit());
        if j.format != JOURNAL_FORMAT || j.digest != want || !token_ok {
            return Err(refuse("its signature does not match its entries"));
        }
        Ok(Some(j))
    }

    /// Writes the journal into `out`, atomically.
    pub fn write(&self, out: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string(self).expect("a journal serializes") + "\n";
        write_atomic(&out.join(JOURNAL), &text)
    }

    /// Removes, below `dir`, the temporaries of this journal's run (never
    /// following a symlinked folder).
    pub fn remove_temporaries(&self, dir: &Path) -> std::io::Result<()> {
        let prefix = format!("{TMP_PREFIX}{}-", self.token);
        remove_with_prefix(dir, &prefix)
    }
}

fn remove_with_prefix(dir: &Path, prefix: &str) -> std::io::Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            remove_with_prefix(&entry.path(), prefix)?;
        } else if kind.is_file() && entry.file_name().to_string_lossy().starts_with(prefix) {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}
