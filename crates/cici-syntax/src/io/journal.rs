//! What cici leaves in an output folder to know its own files by: the
//! temporaries of this process, the journal of a run in progress, and the
//! signature that marks a file list as written by cici.
//!
//! A temporary file is named `.cici-tmp-<token>-…`, with a token drawn at
//! random once per process, and the journal records the token before the
//! first temporary is made; a later run removes only the temporaries of a
//! token a journal of cici's lists. The journal's own temporary, made
//! before there is a journal to name it, is `.cici-tmp-<token>-journal`
//! and holds the start of a journal of that token: that content, not the
//! name alone, is what lets a later run remove it. A user file is never
//! removed for its name. A journal or manifest is cici's only if it
//! carries its format tag and the SHA-256 of its entries: a planted or
//! foreign one is refused by name, and nothing it lists is touched.

use std::io::Write as _;
use std::path::Path;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{contained, read_text, TMP_PREFIX};

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

/// The journal of a run: its temporaries' token, what wrote it, and every
/// path it may write or remove.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Journal {
    pub format: String,
    pub token: String,
    /// The command and the inputs of the run (see `build::Origin`); empty
    /// for a run that does not say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub origin: Vec<String>,
    pub files: Vec<String>,
    pub digest: String,
}

/// The signature of a journal's entries.
fn signature(format: &str, token: &str, origin: &[String], files: &[String]) -> String {
    if origin.is_empty() {
        return digest(&format!("{format}\n{token}"), files);
    }
    let entries: Vec<String> = origin.iter().chain(files).cloned().collect();
    digest(&format!("{format}\n{token}\n{}", origin.len()), &entries)
}

impl Journal {
    /// This process's journal, for `files`.
    pub fn new(files: Vec<String>) -> Journal {
        Journal::with_origin(Vec::new(), files)
    }

    /// This process's journal of a run with an `origin`, for `files`.
    pub fn with_origin(origin: Vec<String>, files: Vec<String>) -> Journal {
        let token = token().to_string();
        let digest = signature(JOURNAL_FORMAT, &token, &origin, &files);
        Journal {
            format: JOURNAL_FORMAT.into(),
            token,
            origin,
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
        let want = signature(&j.format, &j.token, &j.origin, &j.files);
        let token_ok = j.token.len() == 16 && j.token.bytes().all(|b| b.is_ascii_hexdigit());
        if j.format != JOURNAL_FORMAT || j.digest != want || !token_ok {
            return Err(refuse("its signature does not match its entries"));
        }
        Ok(Some(j))
    }

    /// Writes the journal into `out`, atomically, through its own
    /// temporary; first removes the journal temporaries that runs killed
    /// while writing theirs left. The caller holds the folder's lock.
    pub fn write(&self, out: &Path) -> std::io::Result<()> {
        remove_journal_temporaries(out)?;
        let text = serde_json::to_string(self).expect("a journal serializes") + "\n";
        let tmp = out.join(journal_temporary(&self.token));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        let written = file.write_all(text.as_bytes());
        drop(file);
        match written.and_then(|()| std::fs::rename(&tmp, out.join(JOURNAL))) {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(e)
            }
        }
    }

    /// Removes, below `dir`, the temporaries of this journal's run (never
    /// following a symlinked folder).
    pub fn remove_temporaries(&self, dir: &Path) -> std::io::Result<()> {
        let prefix = format!("{TMP_PREFIX}{}-", self.token);
        remove_with_prefix(dir, &prefix)
    }
}

/// The name of the temporary a journal of `token` is written through.
fn journal_temporary(token: &str) -> String {
    format!("{TMP_PREFIX}{token}-journal")
}

/// Whether the file `name` in an output folder is the temporary of a
/// journal that was never renamed into place: named for a token, a regular
/// file, and holding nothing or the start of that token's journal.
fn is_journal_temporary(dir: &Path, name: &str) -> bool {
    let Some(token) = name
        .strip_prefix(TMP_PREFIX)
        .and_then(|rest| rest.strip_suffix("-journal"))
    else {
        return false;
    };
    if token.len() != 16 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let path = dir.join(name);
    if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() < 1 << 20) {
        return false;
    }
    let Ok(text) = std::fs::read(&path) else {
        return false;
    };
    let head = format!("{{\"format\":\"{JOURNAL_FORMAT}\",\"token\":\"{token}\"");
    if text.len() <= head.len() {
        head.as_bytes().starts_with(&text)
    } else {
        text.starts_with(head.as_bytes())
    }
}

/// Removes, at the top of `out`, the temporaries of journals that were
/// never renamed into place (their run was killed while writing them).
fn remove_journal_temporaries(out: &Path) -> std::io::Result<()> {
    let Ok(entries) = std::fs::read_dir(out) else {
        return Ok(());
    };
    for entry in entries {
        let name = entry?.file_name();
        let name = name.to_string_lossy();
        if is_journal_temporary(out, &name) {
            std::fs::remove_file(out.join(&*name))?;
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_journals_own_temporary_is_taken_for_one() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let token = "0123456789abcdef";
        let name = journal_temporary(token);
        let head = format!("{{\"format\":\"{JOURNAL_FORMAT}\",\"token\":\"{token}\"");
        // Killed before a byte, part way, and just before the rename.
        for text in ["", &head[..9], &format!("{head},\"files\":[]")] {
            std::fs::write(out.join(&name), text).unwrap();
            assert!(is_journal_temporary(out, &name), "{text:?}");
        }
        // A user's file of that name, a journal of another token, or a
        // name that is not a token's: never.
        std::fs::write(out.join(&name), "my notes").unwrap();
        assert!(!is_journal_temporary(out, &name));
        let other = head.replace(token, "fedcba9876543210");
        std::fs::write(out.join(&name), other).unwrap();
        assert!(!is_journal_temporary(out, &name));
        std::fs::write(out.join(".cici-tmp-mine-journal"), "").unwrap();
        assert!(!is_journal_temporary(out, ".cici-tmp-mine-journal"));
        remove_journal_temporaries(out).unwrap();
        assert!(out.join(&name).exists() && out.join(".cici-tmp-mine-journal").exists());
        std::fs::write(out.join(&name), &head[..20]).unwrap();
        remove_journal_temporaries(out).unwrap();
        assert!(!out.join(&name).exists());
    }

    #[test]
    fn a_journal_with_an_origin_is_signed_over_it() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::with_origin(vec!["build".into(), "../seeds".into()], vec!["a".into()]);
        j.write(dir.path()).unwrap();
        let back = Journal::read(dir.path()).unwrap().unwrap();
        assert_eq!(back.origin, j.origin);
        let text = std::fs::read_to_string(dir.path().join(JOURNAL)).unwrap();
        std::fs::write(
            dir.path().join(JOURNAL),
            text.replace("../seeds", "../other"),
        )
        .unwrap();
        assert!(Journal::read(dir.path()).is_err());
    }
}
