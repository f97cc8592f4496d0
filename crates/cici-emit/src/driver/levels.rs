//! Lint levels, as rustc, clippy and ruff have them: a warning may be
//! allowed (not reported), kept a warning, or denied (reported as an error,
//! failing the run). Errors are not lints and keep their level.
//!
//! Levels come from three places; the more specific wins:
//! 1. the seed: a comment `# cici: allow idle_fact, leak` (or `warn`,
//!    `deny`) on a line of its own inside an attribute's block sets it for
//!    that attribute, and one elsewhere in a scenario's block for the whole
//!    scenario. Only a comment counts (the lexer's, so never text in a
//!    string), and one after code on its line is an error: it would seem
//!    to govern that line alone;
//! 2. the command line: `--allow`, `--warn`, `--deny` (repeatable);
//! 3. the project file: `lints:` in `cici.yaml`.
//!
//! At each place a code beats the group `warnings`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Run;
use crate::span::SourceId;

/// What a lint does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
}

/// Where a diagnostic's level came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LevelSource {
    /// The code's own severity.
    Default,
    /// `lints:` in `cici.yaml`.
    ProjectFile,
    /// `--allow`, `--warn` or `--deny`.
    CommandLine,
    /// A `# cici:` comment in the seed.
    Seed,
}

/// The lints: the check's warnings, by their short names.
pub const LINTS: &[&str] = &[
    "claim_leads_nowhere",
    "dead_rule",
    "idle_fact",
    "judge_entailment",
    "judge_reveals",
    "leak",
    "missing_sanitized",
    "overlapping_rules",
    "rubric_inverts_harm",
    "text_states_more",
    "text_states_nothing",
    "text_states_other_fact",
    "trivial",
    "visibility_exception",
];

/// The group of every lint.
pub const WARNINGS: &str = "warnings";

/// A lint's short name from a code given with or without its
/// `cici::check::` prefix, or `warnings`; an unknown one is an error that
/// names the nearest lint.
pub fn lint_name(code: &str) -> Result<&'static str, LevelError> {
    let short = code.strip_prefix("cici::check::").unwrap_or(code);
    if short == WARNINGS {
        return Ok(WARNINGS);
    }
    if let Some(l) = LINTS.iter().find(|l| **l == short) {
        return Ok(l);
    }
    let known = LINTS.iter().copied().chain([WARNINGS]);
    Err(LevelError::NotALint {
        code: code.to_string(),
        nearest: crate::suggest::closest(short, known),
    })
}

/// A level that cannot be set: from a flag, the project file or a
/// `# cici:` comment.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// Not the name of a lint, with the nearest one when one is near.
    #[error("`{code}` is not a lint{}", lint_hint(*.nearest))]
    NotALint {
        code: String,
        nearest: Option<&'static str>,
    },
    /// One lint set to two levels at the same place.
    #[error("`{lint}` is set both to {} and to {}", .before.name(), .after.name())]
    SetTwice {
        lint: &'static str,
        before: Level,
        after: Level,
    },
    /// A `# cici:` comment whose first word is not a level.
    #[error("`# cici: {0}`: a level is `allow`, `warn` or `deny`")]
    NotALevel(String),
    /// A `# cici:` comment with a level and no lint.
    #[error("`# cici: {0}` names no lint")]
    NoLint(String),
    /// A `# cici:` comment after code on its line.
    #[error("it follows code on its line, and a `# cici:` comment stands on a line of its own")]
    Trailing,
}

fn lint_hint(nearest: Option<&str>) -> String {
    match nearest {
        Some(c) => format!("; did you mean `{c}`?"),
        None => format!("; the lints are {}", LINTS.join(", ")),
    }
}

/// Levels set at one place: per lint, and for the group.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelSet {
    by_lint: BTreeMap<&'static str, Level>,
}

impl LevelSet {
    /// Sets `code` (or `warnings`) to `level`; a code set twice to two
    /// levels at the same place is an error.
    pub fn set(&mut self, code: &str, level: Level) -> Result<(), LevelError> {
        let name = lint_name(code)?;
        match self.by_lint.insert(name, level) {
            Some(before) if before != level => Err(LevelError::SetTwice {
                lint: name,
                before,
                after: level,
            }),
            _ => Ok(()),
        }
    }

    /// The level of `lint` here: its own, else the group's.
    fn of(&self, lint: &str) -> Option<Level> {
        self.by_lint
            .get(lint)
            .or_else(|| self.by_lint.get(WARNINGS))
            .copied()
    }

    pub fn is_empty(&self) -> bool {
        self.by_lint.is_empty()
    }
}

/// Levels from the command line and the project file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    pub command_line: LevelSet,
    pub project_file: LevelSet,
}

impl Levels {
    /// From `--allow`, `--warn` and `--deny` and a project file's set.
    pub fn from_flags(
        allow: &[String],
        warn: &[String],
        deny: &[String],
        project_file: LevelSet,
    ) -> Result<Levels, LevelError> {
        let mut command_line = LevelSet::default();
        for (codes, level) in [
            (allow, Level::Allow),
            (warn, Level::Warn),
            (deny, Level::Deny),
        ] {
            for c in codes {
                command_line.set(c, level)?;
            }
        }
        Ok(Levels {
            command_line,
            project_file,
        })
    }
}

/// A `# cici:` comment's levels and the bytes of the block it governs.
struct SeedLevel {
    source: SourceId,
    start: usize,
    end: usize,
    set: LevelSet,
}

impl Run {
    /// Applies the levels of the command line and the project file to the
    /// diagnostics whose level a seed comment did not set: allowed
    /// warnings leave the run, denied ones count as errors.
    pub fn apply_levels(&mut self, levels: &Levels) {
        self.retain_levels(0, |lint, _, _| {
            levels
                .command_line
                .of(lint)
                .map(|l| (l, LevelSource::CommandLine))
                .or_else(|| {
                    levels
                        .project_file
                        .of(lint)
                        .map(|l| (l, LevelSource::ProjectFile))
                })
        });
    }

    /// Applies the `# cici:` comments of the scenarios checked from index
    /// `checked` on to the diagnostics from index `diagnostics` on; a
    /// malformed comment becomes a diagnostic where it stands.
    pub(super) fn apply_seed_levels(&mut self, checked: usize, diagnostics: usize) {
        let (seed, bad) = self.seed_levels(checked);
        self.apply_seed(&seed, diagnostics);
        for (source, reason, span) in bad {
            let (label, help) = match reason {
                LevelError::Trailing => (
                    "after code on its line".to_string(),
                    "move it to a line of its own in the block it is for: an attribute's \
                     body sets levels for that attribute, a scenario's for the scenario"
                        .to_string(),
                ),
                _ => (
                    "not `# cici: allow|warn|deny <lint>, ...`".to_string(),
                    format!(
                        "the lints are {}, and `{WARNINGS}` for all",
                        LINTS.join(", ")
                    ),
                ),
            };
            let d = crate::analysis::CheckDiagnostic::LintComment {
                reason: reason.to_string(),
                span: span.into(),
                label,
                help: Some(help),
            };
            self.push(source, d);
        }
    }

    /// Applies the `# cici:` comments of every checked scenario to the
    /// diagnostics from index `from` on (those added after the check, such
    /// as the model judge's).
    pub fn apply_seed_levels_from(&mut self, from: usize) {
        let (seed, _) = self.seed_levels(0);
        self.apply_seed(&seed, from);
    }

    /// Gives each lint diagnostic from index `from` on the level of the
    /// innermost `# cici:` block it stands in.
    fn apply_seed(&mut self, seed: &[SeedLevel], from: usize) {
        self.retain_levels(from, |lint, source, offset| {
            seed.iter()
                .filter(|s| s.source == source && s.start <= offset && offset < s.end)
                // The innermost block: the latest start.
                .max_by_key(|s| s.start)
                .and_then(|s| s.set.of(lint))
                .map(|l| (l, LevelSource::Seed))
        });
    }

    /// Gives each lint diagnostic from index `from` on, whose level is
    /// still its default, the level `level_of` finds for it.
    fn retain_levels(
        &mut self,
        from: usize,
        level_of: impl Fn(&str, SourceId, usize) -> Option<(Level, LevelSource)>,
    ) {
        let mut index = 0;
        self.diagnostics.retain_mut(|d| {
            index += 1;
            let code = d.diagnostic.code_name();
            let lint = code.strip_prefix("cici::check::").unwrap_or(&code);
            let settable = index > from
                && d.level_source == LevelSource::Default
                && !d.diagnostic.is_error()
                && LINTS.contains(&lint);
            if !settable {
                return true;
            }
            let offset = d.diagnostic.offset().unwrap_or(usize::MAX);
            let Some((level, source)) = level_of(lint, d.source, offset) else {
                return true;
            };
            d.level_source = source;
            d.denied = level == Level::Deny;
            level != Level::Allow
        });
    }

    /// Every `# cici: <level> <code>, ...` comment of the scenarios checked
    /// from index `from` on, with the block it governs (its attribute's,
    /// else its scenario's), and the malformed ones with their reasons.
    /// Comments are the lexer's: a `# cici:` in a string is text.
    fn seed_levels(&self, from: usize) -> (Vec<SeedLevel>, Vec<BadComment>) {
        let mut out = Vec::new();
        let mut bad = Vec::new();
        for c in self.checked.iter().skip(from) {
            let sc = &c.scenario;
            let Some(file) = self.sources.get(sc.span.source) else {
                continue;
            };
            let (start, end) = (sc.span.start as usize, sc.span.end as usize);
            let text = file.text.get(start..end).unwrap_or("");
            for (at, comment, after_code) in comments(text) {
                let here = start + at;
                let set = match directive(comment) {
                    Ok(Some(_)) if after_code => Err(LevelError::Trailing),
                    other => other,
                };
                let set = match set {
                    Ok(Some(set)) => set,
                    Ok(None) => continue,
                    Err(reason) => {
                        bad.push((sc.span.source, reason, (here, comment.trim_end().len())));
                        continue;
                    }
                };
                let block = sc
                    .attributes
                    .iter()
                    .map(|a| (a.span.start as usize, a.span.end as usize))
                    .find(|(s, e)| *s <= here && here < *e)
                    .unwrap_or((start, end));
                out.push(SeedLevel {
                    source: sc.span.source,
                    start: block.0,
                    end: block.1,
                    set,
                });
            }
        }
        (out, bad)
    }
}

/// The comments of `text`, as the lexer finds them: where each starts, its
/// text, and whether code precedes it on its line.
fn comments(text: &str) -> Vec<(usize, &str, bool)> {
    use crate::syntax::lex::{lex, Kind};
    let mut out = Vec::new();
    // Every comment starts at a `#`: a text without one need not be lexed.
    if !text.contains('#') {
        return out;
    }
    let mut after_code = false;
    for l in lex(text) {
        let piece = &text[l.start..l.end];
        match l.kind {
            Kind::Space if piece.contains(['\n', '\r']) => after_code = false,
            Kind::Space => {}
            Kind::Comment => out.push((l.start, piece, after_code)),
            Kind::String | Kind::Word | Kind::Punct => after_code = true,
        }
    }
    out
}

/// A malformed `# cici:` comment: where, why, and its span.
type BadComment = (SourceId, LevelError, (usize, usize));

/// The levels of a comment that is `# cici: <level> <code>, ...`.
fn directive(comment: &str) -> Result<Option<LevelSet>, LevelError> {
    let Some(rest) = comment.trim().strip_prefix('#') else {
        return Ok(None);
    };
    let Some(rest) = rest.trim().strip_prefix("cici:") else {
        return Ok(None);
    };
    let rest = rest.trim();
    let (word, codes) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let level = match word {
        "allow" => Level::Allow,
        "warn" => Level::Warn,
        "deny" => Level::Deny,
        other => return Err(LevelError::NotALevel(other.to_string())),
    };
    let mut set = LevelSet::default();
    for code in codes.split(',').map(str::trim).filter(|c| !c.is_empty()) {
        set.set(code, level)?;
    }
    if set.is_empty() {
        return Err(LevelError::NoLint(word.to_string()));
    }
    Ok(Some(set))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_with_or_without_their_prefix_and_a_typo_names_the_nearest() {
        assert_eq!(lint_name("idle_fact"), Ok("idle_fact"));
        assert_eq!(lint_name("cici::check::leak"), Ok("leak"));
        let e = lint_name("idle_facts").unwrap_err();
        assert_eq!(
            e,
            LevelError::NotALint {
                code: "idle_facts".into(),
                nearest: Some("idle_fact")
            }
        );
        assert!(e.to_string().contains("did you mean `idle_fact`"), "{e}");
        assert!(lint_name("not_unique").is_err(), "an error is not a lint");
    }

    #[test]
    fn a_code_beats_the_group_and_a_comment_needs_a_level_and_a_lint() {
        let mut set = LevelSet::default();
        set.set("warnings", Level::Deny).unwrap();
        set.set("leak", Level::Allow).unwrap();
        assert_eq!(set.of("leak"), Some(Level::Allow));
        assert_eq!(set.of("idle_fact"), Some(Level::Deny));
        assert!(set.set("leak", Level::Deny).is_err());
        assert!(directive("  # cici: allow idle_fact, leak\n")
            .unwrap()
            .is_some());
        assert!(directive("  # an ordinary comment\n").unwrap().is_none());
        assert!(directive("# cici: permit leak").is_err());
        assert!(directive("# cici: allow").is_err());
    }

    #[test]
    fn only_comments_count_and_code_before_one_is_seen() {
        let text =
            "a { # cici: allow leak\r  # own line\n  raw \"\"\"\n# cici: allow leak\n\"\"\" # t";
        let found: Vec<(&str, bool)> = comments(text).into_iter().map(|(_, c, a)| (c, a)).collect();
        assert_eq!(
            found,
            [
                ("# cici: allow leak", true),
                ("# own line", false),
                ("# t", true)
            ]
        );
    }
}
