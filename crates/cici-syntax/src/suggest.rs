//! "Did you mean ...?" for misspelled names, keywords and categories.

/// The candidate closest to `word`, if it is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut unbounded = Budget { left: u64::MAX };
    closest_within(word, candidates, &mut unbounded).unwrap_or(None)
}

/// The comparisons "did you mean" may still make while one scenario is
/// resolved. A name is compared with every declared one, so a scenario
/// with thousands of unknown names among thousands of declared ones would
/// take time in their product; once the budget is spent, names are no
/// longer compared and their help says so. A unit is a few nanoseconds
/// (the whole budget under a tenth of a second): a name and an ASCII
/// candidate of other length cost one, a comparison in full the product
/// of their lengths. No scenario a person writes comes near it: 200
/// people and a few hundred unknown names take a small part.
#[derive(Debug)]
pub struct Budget {
    left: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { left: 1 << 24 }
    }
}

impl Budget {
    /// Takes `n` units, or reports that fewer are left (and spends them).
    fn take(&mut self, n: u64) -> Result<(), Spent> {
        match self.left.checked_sub(n) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => {
                self.left = 0;
                Err(Spent)
            }
        }
    }

    /// Whether any comparison is left: a caller that gathers candidates
    /// first need not gather them when none is.
    pub fn left(&self) -> bool {
        self.left > 0
    }
}

/// The budget ran out before every candidate was compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spent;

/// [`closest`], each candidate and each edit distance charged to `budget`.
/// The edit distance of two names is at least the difference of their
/// lengths, so only names near `word`'s length are compared in full.
pub fn closest_within<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    budget: &mut Budget,
) -> Result<Option<&'a str>, Spent> {
    budget.take(1 + word.len() as u64)?;
    let lower = word.to_lowercase();
    let (word_len, lower_len) = (word.chars().count(), lower.chars().count());
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        // Lengths of an ASCII name are its bytes; others are counted.
        let (len, c_lower_len) = if c.is_ascii() {
            budget.take(1)?;
            (c.len(), c.len())
        } else {
            budget.take(1 + c.len() as u64)?;
            let lower: usize = c.chars().map(|ch| ch.to_lowercase().count()).sum();
            (c.chars().count(), lower)
        };
        let most = (word_len.max(len) / 3).max(1);
        if c_lower_len.abs_diff(lower_len) > most {
            continue;
        }
        budget.take(16 + (lower_len * c_lower_len) as u64)?;
        let d = strsim::damerau_levenshtein(&lower, &c.to_lowercase());
        let better = best.is_none_or(|(b, _)| d < b);
        if (d > 0 || c != word) && d <= most && better {
            best = Some((d, c));
        }
    }
    Ok(best.map(|(_, c)| c))
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
    let mut unbounded = Budget { left: u64::MAX };
    help_within(word, kind, candidates, &mut unbounded)
}

/// [`help_for`] within a [`Budget`]: once it is spent, a help line that
/// points at the declarations instead of comparing them.
pub fn help_within<'a>(
    word: &str,
    kind: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
    budget: &mut Budget,
) -> Option<Help> {
    match closest_within(word, candidates.clone(), budget) {
        Ok(Some(best)) => return Some(Help::suggest(best)),
        Ok(None) => {}
        Err(Spent) => return Some(unsearched(kind)),
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

/// The help of a name not compared with the declared ones.
pub fn unsearched(kind: &str) -> Help {
    Help::text(format!(
        "check the spelling against the {} this scenario declares",
        plural(kind)
    ))
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
        // Case and non-ASCII names, compared in lower case.
        assert_eq!(closest("ZOË", ["zoe", "Zoë"]), Some("Zoë"));
        assert_eq!(closest("Persn", c), Some("person"));
        // The first of two equally close ones.
        assert_eq!(closest("cat", ["bat", "hat"]), Some("bat"));
    }

    /// Thousands of unknown names among thousands of declared ones spend
    /// the budget, and then cost next to nothing and say so, where each
    /// would have been compared with every name.
    #[test]
    fn a_spent_budget_stops_comparing() {
        let declared: Vec<String> = (0..5000).map(|i| format!("person_{i:04}")).collect();
        let names = || declared.iter().map(String::as_str);
        let mut budget = Budget::default();
        let mut searched = 0;
        for i in 0..20_000 {
            let help = help_within(&format!("persn_{i:04}"), "person", names(), &mut budget)
                .expect("a help line");
            if help == unsearched("person") {
                assert!(!budget.left());
            } else {
                searched += 1;
            }
        }
        assert!(searched > 0 && searched < 20_000, "{searched}");
        // Within the budget, the same answer as without one.
        let mut fresh = Budget::default();
        assert_eq!(
            closest_within("persn_0042", names(), &mut fresh),
            Ok(Some("person_0042"))
        );
    }
}
