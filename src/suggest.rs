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

/// A help line that suggests the nearest candidate or lists what is declared.
pub fn help_for<'a>(
    word: &str,
    kind: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
) -> Option<String> {
    if let Some(best) = closest(word, candidates.clone()) {
        return Some(format!("did you mean `{best}`?"));
    }
    let all: Vec<&str> = candidates.into_iter().collect();
    let kinds = plural(kind);
    if all.is_empty() {
        Some(format!("no {kind} is declared in this scenario"))
    } else if all.len() <= 20 {
        Some(format!(
            "known {kinds}: {}",
            all.iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    } else {
        Some(format!(
            "{} {kinds} are declared; none is close to `{word}`",
            all.len()
        ))
    }
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
