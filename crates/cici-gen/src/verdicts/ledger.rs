//! The ledger of verdicts, `review.jsonl`: one JSON object a line, only
//! ever appended. Each review names a row by its id and by a hash of the
//! content a reviewer judged, so that a verdict on a row that has changed
//! since is stale and applies to nothing.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The ledger's file name in a dataset folder.
pub const REVIEW_FILE: &str = "review.jsonl";

/// The longest note kept with a verdict, in characters.
pub const MAX_NOTE: usize = 2000;

/// The longest reviewer name, in characters.
pub const MAX_REVIEWER: usize = 64;

/// What a reviewer said of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Accept,
    Reject,
}

/// One line of the ledger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    /// The row's id.
    pub id: String,
    /// [`row_hash`] of the row as it was reviewed.
    pub hash: String,
    pub verdict: Verdict,
    #[serde(default)]
    pub note: String,
    pub reviewer: String,
    /// When, in UTC (RFC 3339).
    pub time: String,
}

/// The fields of a row that a reviewer sees and judges; the hash covers
/// these alone, so bookkeeping (split, version, rounds) changes no verdict.
const JUDGED: [&str; 4] = ["kind", "scenario", "family", "condition"];
const SIDES: [&str; 3] = ["anchor", "flipped", "held"];
const SIDE_FIELDS: [&str; 8] = [
    "item", "answer", "label", "flow", "reasons", "traps", "change", "edits",
];

/// The SHA-256, in hex, of the judged fields of a dataset row.
pub fn row_hash(row: &Value) -> String {
    use sha2::Digest;
    let mut parts: Vec<&Value> = JUDGED.iter().map(|k| &row[*k]).collect();
    for side in SIDES {
        for field in SIDE_FIELDS {
            parts.push(&row[format!("{side}_{field}").as_str()]);
        }
    }
    let text = serde_json::to_string(&parts).expect("values serialize");
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The reviews in `dir`'s ledger, oldest first. A line that does not parse
/// (a torn last line, a hand edit) is skipped; no ledger is no reviews.
pub fn read(dir: &Path) -> std::io::Result<Vec<Review>> {
    let path = dir.join(REVIEW_FILE);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(Vec::new());
    }
    let text = crate::io::read_text(&path)?;
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<Review>(l).ok())
        .collect())
}

/// Appends one review to `dir`'s ledger as one complete line, under an
/// exclusive lock on the file, and syncs it to disk before returning.
pub fn append(dir: &Path, review: &Review) -> std::io::Result<()> {
    let path = dir.join(REVIEW_FILE);
    if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{}: not a regular file; refusing to write", path.display()),
        ));
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)?;
    file.lock()?;
    // A torn line left by a killed writer ends here, so ours starts whole.
    let len = file.metadata()?.len();
    let mut line = String::new();
    if len > 0 && !ends_with_newline(&path, len)? {
        line.push('\n');
    }
    line.push_str(&serde_json::to_string(review).expect("reviews serialize"));
    line.push('\n');
    file.write_all(line.as_bytes())?;
    file.sync_data()?;
    file.unlock()
}

fn ends_with_newline(path: &Path, len: u64) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path)?;
    f.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    f.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// The ledger held against the rows of a folder: each reviewer's latest
/// verdict on each row.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    /// Latest verdicts, one per row and reviewer, on rows as they are now,
    /// or on rows no longer in the folder (a rejected row that a run left
    /// out). In ledger order.
    pub current: Vec<Review>,
    /// Latest verdicts on rows whose content changed since: applied to
    /// nothing, listed for the reviewer.
    pub stale: Vec<Review>,
}

impl Ledger {
    /// Holds `reviews` to `hashes` (row id to [`row_hash`]).
    pub fn resolve(reviews: &[Review], hashes: &HashMap<String, String>) -> Ledger {
        let mut latest: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for (i, r) in reviews.iter().enumerate() {
            latest.insert((&r.id, &r.reviewer), i);
        }
        let mut order: Vec<usize> = latest.into_values().collect();
        order.sort_unstable();
        let mut ledger = Ledger::default();
        for i in order {
            let r = &reviews[i];
            match hashes.get(&r.id) {
                Some(h) if *h != r.hash => ledger.stale.push(r.clone()),
                _ => ledger.current.push(r.clone()),
            }
        }
        ledger
    }

    /// Row id to the hashes some reviewer's latest verdict rejects: a row
    /// with that id and hash is left out of the dataset.
    pub fn rejected(&self) -> HashMap<String, Vec<String>> {
        let mut out: HashMap<String, Vec<String>> = HashMap::new();
        for r in self.current.iter().filter(|r| r.verdict == Verdict::Reject) {
            out.entry(r.id.clone()).or_default().push(r.hash.clone());
        }
        out
    }
}

/// Whether `rejected` (from [`Ledger::rejected`]) leaves out the row.
pub fn is_rejected(rejected: &HashMap<String, Vec<String>>, id: &str, hash: &str) -> bool {
    rejected
        .get(id)
        .is_some_and(|hs| hs.iter().any(|h| h == hash))
}

/// The current time in UTC, RFC 3339, to the second.
pub fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's days-to-civil, for days since 1970-01-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// A reviewer name as the ledger keeps it: trimmed, non-empty, at most
/// [`MAX_REVIEWER`] characters, no control characters.
pub fn valid_reviewer(name: &str) -> Result<String, ReviewerError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ReviewerError::Empty);
    }
    if name.chars().count() > MAX_REVIEWER {
        return Err(ReviewerError::TooLong);
    }
    if name.chars().any(char::is_control) {
        return Err(ReviewerError::Control);
    }
    Ok(name.to_string())
}

/// Why a reviewer name cannot be recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ReviewerError {
    #[error("the reviewer name is empty")]
    Empty,
    #[error("the reviewer name is over {MAX_REVIEWER} characters")]
    TooLong,
    #[error("the reviewer name has a control character")]
    Control,
}
