//! The file system, as every stage touches it: bounded reads of inputs,
//! atomic writes of outputs, and a lock per output folder.
//!
//! In: paths the user named. Out: bytes read within [`MAX_INPUT_BYTES`]
//! from regular files only, and files that are either as they were or
//! complete, never half written.

use std::fs::{File, Permissions};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub mod journal;
mod progress;

pub use progress::{hide_progress, Progress};

/// The largest input file cici reads (seeds, bundles, task-family seeds,
/// logs, ledgers).
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// The largest data file of a dataset folder (`decision/*.jsonl`,
/// `flow/*.jsonl`): a split of every row, so it grows with the folder
/// (`decision/train.jsonl` by about 110 KiB a planted seed).
pub const MAX_DATA_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// The most a dataset folder's data files may hold together.
pub const MAX_FOLDER_BYTES: u64 = 1024 * 1024 * 1024;

/// The help line of an input over its bound.
pub const LIMITS_HELP: &str =
    "cici reads an input file (a seed, a bundle, a log, a ledger) of at most 64 MiB, \
     a dataset folder's data file (decision/*.jsonl, flow/*.jsonl) of at most 512 MiB, \
     and at most 1 GiB of data files in one folder; split the seeds over several folders";

/// The prefix of temporary files; never the name of an output. Each
/// process adds its own random token ([`journal::temp_prefix`]).
pub const TMP_PREFIX: &str = ".cici-tmp-";

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not a regular file (a FIFO, device or socket is never read)")]
    NotRegular { path: String },
    #[error("{path}: {size} bytes is larger than the {max} MiB an input may have")]
    TooLarge { path: String, size: u64, max: u64 },
    #[error("{folder}: its data files hold more than the {max} MiB a folder's may hold together (at {path})")]
    FolderTooLarge {
        folder: String,
        path: String,
        max: u64,
    },
}

impl From<InputError> for std::io::Error {
    fn from(e: InputError) -> Self {
        let kind = match &e {
            InputError::Io { source, .. } => source.kind(),
            _ => std::io::ErrorKind::InvalidInput,
        };
        std::io::Error::new(kind, e.to_string())
    }
}

/// Whether a path (followed through symlinks) is a regular file.
pub fn is_regular(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Reads an input file: a regular file (after symlinks) of at most
/// [`MAX_INPUT_BYTES`]. Never blocks on a FIFO and never reads a device.
pub fn read_input(path: &Path) -> Result<Vec<u8>, InputError> {
    read_bounded(path, MAX_INPUT_BYTES, &|size| InputError::TooLarge {
        path: path.display().to_string(),
        size,
        max: MAX_INPUT_BYTES >> 20,
    })
}

/// Reads a regular file of at most `max` bytes; `too_large` says why one
/// of `size` bytes is refused.
fn read_bounded(
    path: &Path,
    max: u64,
    too_large: &dyn Fn(u64) -> InputError,
) -> Result<Vec<u8>, InputError> {
    let name = || path.display().to_string();
    let io = |source| InputError::Io {
        path: name(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(InputError::NotRegular { path: name() });
    }
    if meta.len() > max {
        return Err(too_large(meta.len()));
    }
    // The file can be swapped or grow between the look and the read: the
    // read itself is bounded too.
    let file = File::open(path).map_err(io)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// What is left of a dataset folder's bound while its data files are read:
/// each file at most [`MAX_DATA_FILE_BYTES`], all of them together at most
/// `max` ([`MAX_FOLDER_BYTES`]).
#[derive(Debug)]
pub struct FolderBudget {
    folder: String,
    max: u64,
    left: u64,
}

impl FolderBudget {
    /// The bound of the folder at `folder`: [`MAX_FOLDER_BYTES`].
    pub fn new(folder: &Path) -> FolderBudget {
        FolderBudget::with_max(folder, MAX_FOLDER_BYTES)
    }

    /// A folder bound of `max` bytes.
    pub fn with_max(folder: &Path, max: u64) -> FolderBudget {
        FolderBudget {
            folder: folder.display().to_string(),
            max,
            left: max,
        }
    }

    /// Reads one data file of the folder as UTF-8 text, within what is left.
    pub fn read_text(&mut self, path: &Path) -> Result<String, InputError> {
        let too_large = |size: u64| {
            if size > MAX_DATA_FILE_BYTES {
                InputError::TooLarge {
                    path: path.display().to_string(),
                    size,
                    max: MAX_DATA_FILE_BYTES >> 20,
                }
            } else {
                InputError::FolderTooLarge {
                    folder: self.folder.clone(),
                    path: path.display().to_string(),
                    max: self.max >> 20,
                }
            }
        };
        let bytes = read_bounded(path, MAX_DATA_FILE_BYTES.min(self.left), &too_large)?;
        self.left -= bytes.len() as u64;
        utf8(path, bytes)
    }
}

/// [`read_input`] as UTF-8 text; a file that is not UTF-8 is refused with
/// the offset of its first bad byte (nothing is replaced silently).
pub fn read_text(path: &Path) -> Result<String, InputError> {
    utf8(path, read_input(path)?)
}

fn utf8(path: &Path, bytes: Vec<u8>) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|e| InputError::Io {
        path: path.display().to_string(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 (first invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        ),
    })
}

/// Writes `text` to `path` unless it already holds exactly that; true if
/// it wrote. A file that existed keeps its permissions.
pub fn write_if_changed(path: &Path, text: &str) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(false);
    }
    write_atomic(path, text)?;
    Ok(true)
}

/// Writes `text` to a temporary file beside `path` and renames it into
/// place: readers and an interruption see the old file or the new one,
/// never part of it. Missing folders are made. A file that existed keeps
/// its permissions; a new one gets the usual mode under the umask. A
/// symlink at `path` is replaced, not followed (see [`write_in_place`]).
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut builder = tempfile::Builder::new();
    let prefix = journal::temp_prefix();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // Created with 0666, which the kernel narrows by the umask, as
        // for any file a program creates.
        builder.permissions(Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.is_file() {
            tmp.as_file().set_permissions(meta.permissions())?;
        }
    }
    // No fsync per file: the rename is what makes the write atomic for
    // readers and against interruption, and a flush of every one of a
    // large corpus's files costs twenty times the build itself.
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Rewrites a file the user named (`fmt`, `check --fix`): through a
/// symlink to its target, which keeps the link, atomically, keeping the
/// target's permissions.
pub fn write_in_place(path: &Path, text: &str) -> std::io::Result<bool> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    write_if_changed(&target, text)
}

/// An exclusive lock on an output folder, held while it lives. The lock is
/// the operating system's (flock on the folder itself), so a killed
/// process never leaves it behind and the folder gains no file.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

/// How long [`FolderLock::acquire`] waits for another process by default.
pub const LOCK_WAIT: Duration = Duration::from_secs(120);

impl FolderLock {
    /// Locks `dir` (made if missing), waiting at most `wait` for another
    /// process that holds it.
    pub fn acquire(dir: &Path, wait: Duration) -> std::io::Result<FolderLock> {
        std::fs::create_dir_all(dir)?;
        let file = File::open(dir)?;
        let start = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(FolderLock { _file: file }),
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                    std::thread::sleep(Duration::from_millis(25));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::WouldBlock,
                        format!(
                            "{}: another cici process is writing into this folder \
                             (waited {} s)",
                            dir.display(),
                            wait.as_secs()
                        ),
                    ))
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(e),
            }
        }
    }
}

/// A relative path read from a file cici does not trust (a manifest or a
/// journal), turned into a path under `root` only when touching it stays
/// inside `root`: plain components (no `..`, no root, no `.`), and no
/// symlink on the way or at the end. `None` otherwise.
pub fn contained(root: &Path, rel: &str) -> Option<PathBuf> {
    use std::path::Component;
    if rel.is_empty() || rel.contains('\0') {
        return None;
    }
    let rel_path = Path::new(rel);
    if !rel_path
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let mut path = root.to_path_buf();
    for c in rel_path.components() {
        path.push(c);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => return None,
            Ok(_) => {}
            // Nothing there yet: nothing below can be a link either.
            Err(_) => return Some(root.join(rel_path)),
        }
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contained_refuses_escapes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for bad in ["../x", "/etc/passwd", "a/../../x", "./a", "", "a\0b"] {
            assert_eq!(contained(root, bad), None, "{bad:?}");
        }
        assert_eq!(contained(root, "a/b.md"), Some(root.join("a/b.md")));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/tmp", root.join("link")).unwrap();
            assert_eq!(contained(root, "link/x"), None);
            assert_eq!(contained(root, "link"), None);
        }
    }

    #[test]
    fn a_folders_data_files_share_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
        std::fs::write(&a, "x".repeat(600)).unwrap();
        std::fs::write(&b, "y".repeat(500)).unwrap();
        let mut budget = FolderBudget::with_max(dir.path(), 1000);
        assert_eq!(budget.read_text(&a).unwrap().len(), 600);
        // 600 + 500 is over 1000: refused, naming the folder and the file.
        match budget.read_text(&b) {
            Err(e @ InputError::FolderTooLarge { .. }) => {
                assert!(e.to_string().contains("b.jsonl"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        // Each file alone fits a fresh folder's bound.
        assert!(FolderBudget::with_max(dir.path(), 1000)
            .read_text(&b)
            .is_ok());
    }

    #[test]
    fn reads_are_bounded_and_regular_only() {
        assert!(matches!(
            read_input(Path::new("/dev/zero")),
            Err(InputError::NotRegular { .. })
        ));
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            read_input(dir.path()),
            Err(InputError::NotRegular { .. })
        ));
    }
}
