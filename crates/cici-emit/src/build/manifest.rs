//! What an output folder says about who wrote it: the signed manifest of
//! the last run that finished, naming the command and the inputs it read,
//! and the journal of a run that did not finish.
//!
//! A run prunes only what a run of the same command over the same inputs
//! wrote. The inputs are recorded as paths relative to the output folder
//! (`../seeds` for `generated/`), so a copy of a repository that holds
//! both finds its own build, and `cici build other/` into the folder
//! `seeds/` was built into is told apart from a rebuild of `seeds/`.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::MANIFEST;
use crate::io::journal::{digest, Journal};

/// The manifest of an export: a dotfile without the `.json` suffix, so
/// that whoever walks the folder for scenarios or models (a harness, or
/// Python's `*.json` glob, which takes dotfiles too) does not
/// take it for one.
pub const EXPORT_MANIFEST: &str = ".cici-manifest";

/// The format tag of a manifest.
const MANIFEST_FORMAT: &str = "cici-manifest/3";
/// The format of an earlier cici, which did not record its inputs.
const MANIFEST_FORMAT_V2: &str = "cici-manifest/2";

/// The command that writes an output folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writer {
    Build,
    ExportPisas,
    ExportInspect,
    ExportModel,
    ExportRl,
    ExportAgentcibench,
}

impl Writer {
    /// The command as it is typed after `cici`.
    pub fn command(self) -> &'static str {
        match self {
            Writer::Build => "build",
            Writer::ExportPisas => "export pisas",
            Writer::ExportInspect => "export inspect",
            Writer::ExportModel => "export model",
            Writer::ExportRl => "export rl",
            Writer::ExportAgentcibench => "export agentcibench",
        }
    }

    /// The name of its manifest in the output folder.
    pub fn manifest(self) -> &'static str {
        match self {
            Writer::Build => MANIFEST,
            _ => EXPORT_MANIFEST,
        }
    }
}

/// Who writes an output folder: the command, and the inputs it read as
/// paths relative to the folder, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub command: String,
    pub inputs: Vec<String>,
}

impl Origin {
    /// The origin of `writer` reading `inputs` (files or folders, as given)
    /// into `out`. Neither needs to exist.
    pub fn new(writer: Writer, inputs: &[PathBuf], out: &Path) -> Origin {
        let base = canonical(out);
        let mut inputs: Vec<String> = inputs
            .iter()
            .map(|p| relative(&base, &canonical(p)))
            .collect();
        inputs.sort();
        inputs.dedup();
        Origin {
            command: writer.command().into(),
            inputs,
        }
    }

    /// The origin as a journal holds it: the command, then the inputs.
    pub fn entries(&self) -> Vec<String> {
        std::iter::once(self.command.clone())
            .chain(self.inputs.iter().cloned())
            .collect()
    }

    fn from_entries(entries: &[String]) -> Option<Origin> {
        let (command, inputs) = entries.split_first()?;
        Some(Origin {
            command: command.clone(),
            inputs: inputs.to_vec(),
        })
    }

    /// In words: "`cici build` of ../seeds".
    pub fn describe(&self) -> String {
        format!("`cici {}` of {}", self.command, self.inputs.join(", "))
    }
}

/// `path` made absolute with every link resolved, as far as it exists;
/// what does not exist yet is appended as written.
fn canonical(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut rest = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(mut found) = at.canonicalize() {
            found.extend(rest.iter().rev());
            return found;
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return absolute,
        }
    }
}

/// `path` relative to the folder `base`, with `/` between components;
/// absolute when they share no root.
fn relative(base: &Path, path: &Path) -> String {
    let (b, p): (Vec<Component>, Vec<Component>) =
        (base.components().collect(), path.components().collect());
    let common = b.iter().zip(&p).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return path.to_string_lossy().replace('\\', "/");
    }
    let parts: Vec<String> = std::iter::repeat_n("..".to_string(), b.len() - common)
        .chain(
            p[common..]
                .iter()
                .map(|c| c.as_os_str().to_string_lossy().into_owned()),
        )
        .collect();
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// The manifest a run writes: which files it wrote, relative to the output
/// folder, and the command and inputs it wrote them from, signed by its
/// format tag and the SHA-256 of its entries.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always `"cici"`: marks the folder as one cici writes into.
    pub generator: String,
    pub format: String,
    /// The command that wrote the folder (absent in an earlier cici's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The inputs it read, relative to the folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<Vec<String>>,
    pub files: Vec<String>,
    pub digest: String,
}

fn signature(origin: &Origin, files: &[String]) -> String {
    let entries: Vec<String> = origin.entries().into_iter().chain(files.to_vec()).collect();
    digest(
        &format!("{MANIFEST_FORMAT}\n{}", origin.inputs.len() + 1),
        &entries,
    )
}

impl Manifest {
    /// The manifest of `files`, written by `origin`.
    pub fn new(origin: &Origin, files: Vec<String>) -> Manifest {
        Manifest {
            generator: "cici".into(),
            format: MANIFEST_FORMAT.into(),
            command: Some(origin.command.clone()),
            inputs: Some(origin.inputs.clone()),
            digest: signature(origin, &files),
            files,
        }
    }

    /// Who wrote it: `None` for an earlier cici's manifest, which did not
    /// say.
    pub fn origin(&self) -> Option<Origin> {
        Some(Origin {
            command: self.command.clone()?,
            inputs: self.inputs.clone()?,
        })
    }

    /// Whether the signature holds.
    fn signed(&self) -> bool {
        if self.generator != "cici" {
            return false;
        }
        match (self.format.as_str(), self.origin()) {
            (MANIFEST_FORMAT, Some(o)) => self.digest == signature(&o, &self.files),
            (MANIFEST_FORMAT_V2, None) => self.digest == digest(MANIFEST_FORMAT_V2, &self.files),
            _ => false,
        }
    }

    /// The manifest as the file holds it.
    pub fn text(&self) -> String {
        serde_json::to_string_pretty(self).expect("a manifest serializes") + "\n"
    }
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

/// What a file at a manifest's name is.
enum Found {
    Absent,
    /// Not cici's: another tool's, edited, or not a regular file.
    Foreign,
    /// An earlier cici's, unsigned.
    Unsigned,
    Signed(Manifest),
}

fn read_manifest(out: &Path, name: &str) -> Found {
    let path = out.join(name);
    let Ok(meta) = std::fs::symlink_metadata(&path) else {
        return Found::Absent;
    };
    let Some(text) = meta
        .is_file()
        .then(|| crate::io::read_text(&path).ok())
        .flatten()
    else {
        return Found::Foreign;
    };
    if let Some(m) = serde_json::from_str::<Manifest>(&text)
        .ok()
        .filter(Manifest::signed)
    {
        return Found::Signed(m);
    }
    match serde_json::from_str::<UnsignedManifest>(&text) {
        Ok(m) if m.generator == "cici" => Found::Unsigned,
        _ => Found::Foreign,
    }
}

/// What earlier runs left in an output folder.
#[derive(Debug, Default)]
pub(super) struct Previous {
    /// What runs of this origin wrote, by the manifest and the journal of
    /// one that did not finish: this run prunes what it does not write.
    pub files: BTreeSet<String>,
    /// What runs of another origin wrote, by their signed manifests (and
    /// such a manifest of the other name itself) or journal: pruned only
    /// when this run is forced to replace them.
    pub others_files: BTreeSet<String>,
    /// Who those others were, in words; empty when none wrote here.
    pub others: Vec<String>,
    pub journal: Option<Journal>,
}

const EARLIER: &str = "an earlier cici, which did not record its inputs";

/// Reads the manifests and the journal in `out` for a run of `origin` by
/// `writer`. A file at the writer's own manifest name that cici did not
/// write (a plain list, another shape, a signature that does not hold,
/// not a regular file) is refused by name, and so is a journal that is not
/// cici's; at the other name (a build's `manifest.json` in an export's
/// folder) such a file is the user's and is left alone.
pub(super) fn previous(out: &Path, origin: &Origin, writer: Writer) -> std::io::Result<Previous> {
    let mut prev = Previous::default();
    for name in [MANIFEST, EXPORT_MANIFEST] {
        let own = name == writer.manifest();
        match read_manifest(out, name) {
            Found::Absent => {}
            Found::Foreign if own => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "{} was not written by cici; refusing to write into {} \
                         (choose another --out, or remove the file)",
                        out.join(name).display(),
                        out.display()
                    ),
                ))
            }
            Found::Foreign => {}
            Found::Unsigned => prev.others.push(format!("{EARLIER} (its files are kept)")),
            Found::Signed(m) => match m.origin() {
                Some(o) if own && o == *origin => prev.files.extend(m.files),
                found => {
                    prev.others
                        .push(found.map_or(EARLIER.into(), |o| o.describe()));
                    prev.others_files.extend(m.files);
                    if !own {
                        prev.others_files.insert(name.into());
                    }
                }
            },
        }
    }
    let journal = Journal::read(out)?;
    if let Some(j) = &journal {
        if j.origin == origin.entries() {
            prev.files.extend(j.files.iter().cloned());
        } else {
            let who = Origin::from_entries(&j.origin).map_or("cici".into(), |o| o.describe());
            prev.others
                .push(format!("a run of {who} that did not finish"));
            prev.others_files.extend(j.files.iter().cloned());
        }
    }
    prev.journal = journal;
    Ok(prev)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_recorded_relative_to_the_output_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("seeds")).unwrap();
        let o = Origin::new(
            Writer::Build,
            &[root.join("seeds"), root.join("seeds/./")],
            &root.join("generated"),
        );
        assert_eq!(o.inputs, ["../seeds"]);
        let o = Origin::new(
            Writer::ExportPisas,
            &[root.join("seeds")],
            &root.join("a/b"),
        );
        assert_eq!(o.inputs, ["../../seeds"]);
        assert_eq!(relative(Path::new("/a/b"), Path::new("/a/b")), ".");
        #[cfg(unix)]
        {
            // A link to the folder is the folder.
            std::os::unix::fs::symlink(root.join("seeds"), root.join("link")).unwrap();
            let o = Origin::new(Writer::Build, &[root.join("link")], &root.join("generated"));
            assert_eq!(o.inputs, ["../seeds"]);
        }
    }

    #[test]
    fn a_manifest_is_signed_over_its_origin() {
        let origin = Origin {
            command: "build".into(),
            inputs: vec!["../seeds".into()],
        };
        let m = Manifest::new(&origin, vec!["a.md".into()]);
        assert!(m.signed());
        let mut edited: Manifest = serde_json::from_str(&m.text()).unwrap();
        edited.inputs = Some(vec!["../other".into()]);
        assert!(!edited.signed());
        let v2 = Manifest {
            format: MANIFEST_FORMAT_V2.into(),
            command: None,
            inputs: None,
            digest: digest(MANIFEST_FORMAT_V2, &m.files),
            ..serde_json::from_str(&m.text()).unwrap()
        };
        assert!(v2.signed() && v2.origin().is_none());
    }
}
