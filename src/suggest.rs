//! "Did you mean ...?" for misspelled names, keywords and categories.

/// The candidate closest to `word`, if it is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&lower, &c.to_lowercase()), c))
        .filter(|(d, c)| *d > 0 || *c != word)
        .filter(|(d, c)| {
            let len = word.chars().count().max(c.chars().count());
            *d <= (len / 3).max(1)
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The help of a diagnostic about a word: a line for the reader and,
/// kept apart, the word it suggests instead, which fix-its use as it is
/// (they never read it back out of the line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Help {
    pub text: String,
    /// The replacement the text proposes, if it proposes exactly one.
    pub suggestion: Option<String>,
}

impl Help {
    /// A line that suggests nothing to replace.
    pub fn text(text: impl Into<String>) -> Help {
        Help {
            text: text.into(),
            suggestion: None,
        }
    }

    /// "did you mean `word`?"
    pub fn suggest(word: &str) -> Help {
        Help {
            text: format!("did you mean `{word}`?"),
            suggestion: Some(word.to_string()),
        }
    }
}

impl std::fmt::Display for Help {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<String> for Help {
    fn from(text: String) -> Help {
        Help::text(text)
    }
}

/// A help line that suggests the nearest candidate or lists what is declared.
pub fn help_for<'a>(
    word: &str,
    kind: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
) -> Option<Help> {
    if let Some(best) = closest(word, candidates.clone()) {
        return Some(Help::suggest(best));
    }
    let all: Vec<&str> = candidates.into_iter().collect();
    let kinds = plural(kind);
    let text = if all.is_empty() {
        format!("no {kind} is declared in this scenario")
    } else if all.len() <= 20 {
        format!(
            "known {kinds}: {}",
            all.iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        format!(
            "{} {kinds} are declared; none is close to `{word}`",
            all.len()
        )
    };
    Some(Help::text(text))
}

/// The plural of a kind's name: `person` has its own, `category` ends in -ies.
fn plural(kind: &str) -> String {
    match kind {
        "person" => "people".to_string(),
        _ => match kind.strip_suffix('y') {
            Some(stem) => format!("{stem}ies"),
            None => format!("{kind}s"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_typos_but_not_strangers() {
        let c = ["attribute", "oracle", "person"];
        assert_eq!(closest("atribute", c), Some("attribute"));
        assert_eq!(closest("persn", c), Some("person"));
        assert_eq!(closest("zebra", c), None);
    }
}
