//! `cici.yaml`, the project file: the `llm:` settings and the lint
//! levels, and what makes the settings unusable.

use serde::{Deserialize, Serialize};

use crate::llm::LlmConfig;

/// `cici.yaml`, the project file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProjectConfig {
    pub llm: LlmConfig,
    /// Lint levels: `idle_fact: allow`, `warnings: deny`.
    pub lints: std::collections::BTreeMap<String, super::levels::Level>,
}

impl ProjectConfig {
    /// The `lints:` section as levels; an unknown code is an error.
    pub fn lint_levels(&self) -> Result<super::levels::LevelSet, ConfigError> {
        let mut set = super::levels::LevelSet::default();
        for (code, level) in &self.lints {
            set.set(code, *level).map_err(ConfigError::Lint)?;
        }
        Ok(set)
    }

    /// Reads a project file; a missing file is the defaults.
    pub fn load(path: &std::path::Path) -> Result<ProjectConfig, ConfigError> {
        if std::fs::symlink_metadata(path).is_err() {
            return Ok(ProjectConfig::default());
        }
        match crate::io::read_text(path) {
            Ok(text) => {
                let config: ProjectConfig =
                    serde_yaml::from_str(&text).map_err(|e| ConfigError::Yaml {
                        path: path.to_path_buf(),
                        error: e.to_string(),
                    })?;
                config
                    .llm
                    .validate()
                    .map_err(|error| ConfigError::Setting {
                        path: path.to_path_buf(),
                        section: "llm: ",
                        error,
                    })?;
                Ok(config)
            }
            Err(e) => Err(ConfigError::Read(e)),
        }
    }
}

/// Settings that cannot be used: the project file (`cici.yaml`) or the
/// flags over it.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists and cannot be read.
    #[error("{0}")]
    Read(crate::io::InputError),
    /// Not YAML of the project file's shape.
    #[error("{}: {error}", .path.display())]
    Yaml {
        path: std::path::PathBuf,
        error: String,
    },
    /// A setting out of its bounds, in the file (`section` is `llm: `) or
    /// after the flags (empty).
    #[error("{}: {section}{error}", .path.display())]
    Setting {
        path: std::path::PathBuf,
        section: &'static str,
        error: crate::llm::SettingError,
    },
    /// An unknown lint in `lints:`.
    #[error("cici.yaml: lints: {0}")]
    Lint(super::levels::LevelError),
    /// An unknown lint, or one set twice, in `--allow`, `--warn`, `--deny`.
    #[error("{0}")]
    Flag(super::levels::LevelError),
}
