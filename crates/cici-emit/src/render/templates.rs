//! The minijinja templates and the privacy cue pools, built in and
//! overridable from a folder.

use std::path::Path;

use miette::Diagnostic;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The built-in templates: the files of the repository's `templates/`.
const BUILTIN: &[(&str, &str)] = &[
    (
        "brief.md.j2",
        include_str!("../../../../templates/brief.md.j2"),
    ),
    (
        "task.md.j2",
        include_str!("../../../../templates/task.md.j2"),
    ),
    (
        "rules.md.j2",
        include_str!("../../../../templates/rules.md.j2"),
    ),
    (
        "knowledge.md.j2",
        include_str!("../../../../templates/knowledge.md.j2"),
    ),
    (
        "stress.md.j2",
        include_str!("../../../../templates/stress.md.j2"),
    ),
    (
        "item.md.j2",
        include_str!("../../../../templates/item.md.j2"),
    ),
    (
        "prompts/generate.j2",
        include_str!("../../../../templates/prompts/generate.j2"),
    ),
    (
        "prompts/critic.j2",
        include_str!("../../../../templates/prompts/critic.j2"),
    ),
];
const BUILTIN_CUES: &str = include_str!("../../../../templates/cues.yaml");

/// A failure to load or render templates.
#[derive(Debug, Error, Diagnostic)]
pub enum RenderError {
    /// A template file could not be read.
    ///
    /// ```text
    /// cici build --templates missing/
    /// ```
    #[error("cannot read template `{path}`: {message}")]
    #[diagnostic(code(cici::render::io), help("check the --templates folder"))]
    Io { path: String, message: String },

    /// A template does not parse or fails while rendering.
    ///
    /// ```text
    /// {{ person.nmae }}     # with undefined values treated as errors
    /// ```
    #[error("template `{name}`: {message}")]
    #[diagnostic(
        code(cici::render::template),
        help("fix the template; undefined values are errors")
    )]
    Template { name: String, message: String },

    /// The phrasing of generated facts is not valid.
    ///
    /// ```text
    /// facts: { capacity: { raw: "{{ name " } }
    /// ```
    #[error("fact phrasing `{path}`: {message}")]
    #[diagnostic(
        code(cici::render::facts),
        help("facts.yaml holds `reasons` per category, `irrelevant` details and a `raw` (and `sanitized`) template per predicate")
    )]
    Facts {
        path: String,
        message: crate::phrasing::FactsError,
    },

    /// The cue pools are not valid YAML of the expected shape.
    ///
    /// ```text
    /// implication: 3
    /// ```
    #[error("cue pools `{path}`: {message}")]
    #[diagnostic(
        code(cici::render::cues),
        help(
            "cues.yaml holds a non-empty list of strings `personal` (and optionally `not_basis`)"
        )
    )]
    Cues { path: String, message: String },
}

/// The pools privacy cues are drawn from.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct CuePools {
    /// For the raw form of a personal detail, whether or not the decision
    /// needs it (`implication` in files written before the pools were
    /// chosen by category alone).
    #[serde(alias = "implication")]
    pub personal: Vec<String>,
    /// For a colleague's push, a guess or a preference; the built-in pool
    /// where a `cues.yaml` has none.
    #[serde(default)]
    pub not_basis: Vec<String>,
}

impl CuePools {
    /// The `not_basis` pool, or the built-in one where it is empty.
    pub fn not_basis(&self) -> &[String] {
        if self.not_basis.is_empty() {
            &builtin_pools().not_basis
        } else {
            &self.not_basis
        }
    }
}

fn builtin_pools() -> &'static CuePools {
    static POOLS: std::sync::OnceLock<CuePools> = std::sync::OnceLock::new();
    POOLS.get_or_init(|| serde_yaml::from_str(BUILTIN_CUES).expect("the built-in cues parse"))
}

/// The `when` filter: `tue 10:00-11:00` reads as `Tuesday 10:00-11:00`.
fn when(slot: String) -> String {
    match slot.split_once(' ') {
        Some((day, time)) => match crate::syntax::Day::from_keyword(day) {
            Some(d) => format!("{} {time}", d.name()),
            None => slot,
        },
        None => slot,
    }
}

/// Templates ready to render.
pub struct Templates {
    env: minijinja::Environment<'static>,
    cues: CuePools,
    /// An override of the built-in phrasing of generated facts.
    facts: Option<crate::phrasing::FactTexts>,
}

impl Templates {
    /// The templates that ship with cici.
    pub fn builtin() -> Templates {
        Templates::with_overrides(None).expect("the built-in templates are valid")
    }

    /// The built-in templates, each replaced by the file of the same name in
    /// `dir` where there is one.
    pub fn load(dir: &Path) -> Result<Templates, RenderError> {
        Templates::with_overrides(Some(dir))
    }

    fn with_overrides(dir: Option<&Path>) -> Result<Templates, RenderError> {
        let read = |name: &str, builtin: &'static str| -> Result<(String, String), RenderError> {
            match dir.map(|d| d.join(name)) {
                Some(path) if path.is_file() => crate::io::read_text(&path)
                    .map(|text| (path.display().to_string(), text))
                    .map_err(|e| RenderError::Io {
                        path: path.display().to_string(),
                        message: e.to_string(),
                    }),
                _ => Ok((format!("<built-in {name}>"), builtin.to_string())),
            }
        };
        let mut env = minijinja::Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .build()
                .expect("the default delimiters are valid"),
        );
        env.add_filter("when", when);
        for (name, builtin) in BUILTIN {
            let (_, text) = read(name, builtin)?;
            env.add_template_owned(name.to_string(), text)
                .map_err(|e| RenderError::Template {
                    name: name.to_string(),
                    message: e.to_string(),
                })?;
        }
        let (path, text) = read("cues.yaml", BUILTIN_CUES)?;
        let cues: CuePools = serde_yaml::from_str(&text).map_err(|e| RenderError::Cues {
            path: path.clone(),
            message: e.to_string(),
        })?;
        if cues.personal.is_empty() {
            return Err(RenderError::Cues {
                path,
                message: "the `personal` pool needs at least one cue".into(),
            });
        }
        let facts = match dir.map(|d| d.join("facts.yaml")).filter(|p| p.is_file()) {
            None => None,
            Some(path) => {
                let text = crate::io::read_text(&path).map_err(|e| RenderError::Io {
                    path: path.display().to_string(),
                    message: e.to_string(),
                })?;
                Some(
                    crate::phrasing::FactTexts::from_yaml(&text).map_err(|message| {
                        RenderError::Facts {
                            path: path.display().to_string(),
                            message,
                        }
                    })?,
                )
            }
        };
        Ok(Templates { env, cues, facts })
    }

    pub fn cues(&self) -> &CuePools {
        &self.cues
    }

    /// The phrasing of facts the generators write.
    pub fn facts(&self) -> &crate::phrasing::FactTexts {
        self.facts
            .as_ref()
            .unwrap_or_else(|| crate::phrasing::FactTexts::builtin())
    }

    /// Renders a template with a serializable context.
    pub fn render<T: Serialize>(&self, name: &str, ctx: &T) -> Result<String, RenderError> {
        let err = |e: minijinja::Error| RenderError::Template {
            name: name.to_string(),
            message: format!("{e:#}"),
        };
        let template = self.env.get_template(name).map_err(err)?;
        let mut text = template.render(minijinja::value::Serde(ctx)).map_err(err)?;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        Ok(text)
    }
}
